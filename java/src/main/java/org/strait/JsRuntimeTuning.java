package org.strait;

/**
 * Knobs for benchmarks and experiments; not needed by applications.
 */
public final class JsRuntimeTuning {
    private JsRuntimeTuning() {}

    /**
     * Sets how long a thread waiting for rt spins before it parks
     * (default 50 us, or STRAIT_GATE_SPIN_US); negative parks at once.
     */
    public static void setGateSpinMicros(JsRuntime rt, long micros) {
        rt.enter();
        try {
            InteropNatives.setGateSpin(rt.peer, micros);
        } finally {
            rt.leave();
        }
    }
}

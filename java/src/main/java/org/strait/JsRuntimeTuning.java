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

    /**
     * Calls f with no arguments holding only JavaScriptCore's own API lock,
     * not the runtime's admission gate: the "engine lock alone" baseline of
     * the contention benchmark. Only for functions that touch no timers,
     * loop or Java bridge.
     */
    public static void callWithoutGate(JsFunction f) {
        rawCall(f, false);
    }

    /**
     * The same raw call as {@link #callWithoutGate}, entering the runtime
     * through its admission gate: the contention benchmark's gate rows, in
     * which the gate is the only difference from the engine-lock rows.
     */
    public static void callGateOnly(JsFunction f) {
        rawCall(f, true);
    }

    /** The raw call of f with no arguments, through the gate or not. */
    private static void rawCall(JsFunction f, boolean gated) {
        JsRuntime rt = f.begin();
        try {
            if (gated) InteropNatives.rawCallGated(rt.peer, f.handle);
            else InteropNatives.rawCallNoGate(rt.peer, f.handle);
        } finally {
            rt.leave();
        }
    }
}

package org.strait.bench;

import org.strait.JsFunction;
import org.strait.JsRuntime;
import org.strait.internal.ApiAccess;

/**
 * Knobs of the contention benchmark (InteropBench); not API (applications
 * set the gate's spin budget with STRAIT_GATE_SPIN_US). Needs the
 * test/bench library (BenchNatives).
 */
public final class JsRuntimeTuning {
    private static final ApiAccess A = ApiAccess.get();

    private JsRuntimeTuning() {}

    /**
     * Sets how long a thread waiting for rt spins before it parks
     * (default 50 us, or STRAIT_GATE_SPIN_US); negative parks at once.
     */
    public static void setGateSpinMicros(JsRuntime rt, long micros) {
        A.enter(rt);
        try {
            BenchNatives.setGateSpin(A.peer(rt), micros);
        } finally {
            A.leave(rt);
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
        JsRuntime rt = A.begin(f);
        try {
            if (gated) BenchNatives.rawCallGated(A.peer(rt), A.handle(f));
            else BenchNatives.rawCallNoGate(A.peer(rt), A.handle(f));
        } finally {
            A.leave(rt);
        }
    }
}

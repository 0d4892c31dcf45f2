package org.strait;

/**
 * Bench helper for bench/java/api/org/strait/bench/InteropBench.java (in
 * this package for the natives): the floor of a Java -> JS call measured in
 * the benchmark's own process, n times one empty JNI downcall that makes one
 * raw JSObjectCallAsFunction of f with no arguments under JSC's API lock
 * alone (no gate, no argument packing, no conversion of the result).
 * Benchmarks only: f must not touch runtime state (timers, the loop, the
 * bridge).
 */
public final class InteropFloor {
    private InteropFloor() {}

    /** n raw calls of f (JNI downcall + JSObjectCallAsFunction each). */
    public static void rawCalls(JsFunction f, long n) {
        JsRuntime rt = f.runtime();
        long peer = rt.peer, h = f.handle;
        rt.enter();
        try {
            for (long i = 0; i < n; i++) InteropNatives.rawCallNoGate(peer, h);
        } finally {
            rt.leave();
        }
    }
}

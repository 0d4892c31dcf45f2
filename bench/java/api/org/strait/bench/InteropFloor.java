package org.strait.bench;

import org.strait.JsFunction;
import org.strait.JsRuntime;
import org.strait.internal.ApiAccess;

/**
 * Bench helper for InteropBench: the floor of a Java -> JS call measured in
 * the benchmark's own process, n times one empty JNI downcall that makes one
 * raw JSObjectCallAsFunction of f with no arguments under JSC's API lock
 * alone (no gate, no argument packing, no conversion of the result).
 * Benchmarks only: f must not touch runtime state (timers, the loop, the
 * bridge). Needs the test/bench library (BenchNatives).
 */
public final class InteropFloor {
    private static final ApiAccess A = ApiAccess.get();

    private InteropFloor() {}

    /** n raw calls of f (JNI downcall + JSObjectCallAsFunction each). */
    public static void rawCalls(JsFunction f, long n) {
        JsRuntime rt = f.runtime();
        long peer = A.peer(rt), h = A.handle(f);
        A.enter(rt);
        try {
            for (long i = 0; i < n; i++) BenchNatives.rawCallNoGate(peer, h);
        } finally {
            A.leave(rt);
        }
    }
}

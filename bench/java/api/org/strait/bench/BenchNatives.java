package org.strait.bench;

import org.strait.internal.NativeLoader;

/**
 * Benchmark-only natives (bench/jni/codec_naive.c, bench/jni/raw_calls.c).
 * They exist only in the test/bench library variant,
 * build/lib-testing/libstrait.so, which registers them on this class when it
 * loads (tests/jni/testing.c); scripts/bench.sh runs the API benchmarks with
 * {@code -Dstrait.library=} that library.
 */
final class BenchNatives {
    private BenchNatives() {}

    static {
        NativeLoader.load();
    }

    /** JS -> Java with one JNI call per value (the codec rows' naive baseline). */
    static native Object codecNaiveToJava(long peer, long handle);

    /** Java -> JS walking Maps/Lists with JNI calls; owner is the JsRuntime. */
    static native Object codecNaiveToJs(long peer, Object owner, Object value);

    /** Calls fn with no arguments under JSC's API lock only (no gate). */
    static native void rawCallNoGate(long peer, long fn);

    /** The same call entering through the runtime's admission gate. */
    static native void rawCallGated(long peer, long fn);

    /** Sets the gate's spin budget in microseconds (negative: park at once). */
    static native void setGateSpin(long peer, long micros);
}

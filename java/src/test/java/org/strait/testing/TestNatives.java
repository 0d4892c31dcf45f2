package org.strait.testing;

import org.strait.JsRuntime;
import org.strait.internal.ApiAccess;
import org.strait.internal.NativeLoader;

/**
 * Test-only natives (tests/jni/testprobe.c, bench/jni/bridge_bench.c). They
 * exist only in the test/bench library variant,
 * build/lib-testing/libstrait.so, which registers them on this class when it
 * loads (tests/jni/testing.c); the tests that use them are tagged
 * {@value #TAG} and run with {@code -Dstrait.library=} that library
 * (scripts/test-java.sh). With the product library every call throws
 * UnsatisfiedLinkError.
 */
public final class TestNatives {
    /** JUnit tag of the tests that need this class's natives. */
    public static final String TAG = "testing-lib";

    private TestNatives() {}

    static {
        NativeLoader.load();
    }

    /** The native peer of rt (the first argument of the natives below). */
    public static long peer(JsRuntime rt) {
        return ApiAccess.get().peer(rt);
    }

    /**
     * Installs {@code __straitProbe(n)} on the runtime's global object: it
     * returns a new object of a native class whose finalizer counts up
     * {@link #probeFinalized()}. For the signal/GC stress test.
     */
    public static native void probeInstall(long peer);

    /** Number of probe objects finalized so far, process-wide. */
    public static native long probeFinalized();

    /** Runtimes made by {@link JsRuntime#create()} whose engine is not freed yet, process-wide. */
    public static native long probeLiveRuntimes();

    /** Defines {@code Java.__bench} (the bridge's benchmark floors) on the runtime. */
    public static native void bridgeBenchInstall(long peer);

}

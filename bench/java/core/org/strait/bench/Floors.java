package org.strait.bench;

/**
 * Java side of the floor benchmarks run by bench/c/floors.c: empty methods
 * the C program calls through raw JNI with cached IDs, and a loop that calls
 * an empty native method (registered by the C program with RegisterNatives).
 */
public final class Floors {
    /** Static field read by the raw GetStaticObjectField floor. */
    public static final Object STATIC_OBJECT = new Object();

    /** Target of the CallStaticIntMethod floor. */
    public static int staticNop() {
        return 0;
    }

    /** Target of the CallIntMethod floor (called on an instance). */
    public int instanceNop() {
        return 0;
    }

    /** Target of the CallStaticDoubleMethod floor with two double arguments. */
    public static double max(double a, double b) {
        return a >= b ? a : b;
    }

    /** Empty native method; the C program registers its body. */
    static native void nativeNop();

    /** Calls nativeNop() n times (the JNI downcall floor). */
    public static long downcallLoop(long n) {
        for (long i = 0; i < n; i++) {
            nativeNop();
        }
        return n;
    }
}

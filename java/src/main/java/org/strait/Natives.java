package org.strait;

/**
 * The native methods of libstrait.so, in one place. Package-private: the
 * public API (JsRuntime, JsValue, ...) wraps them and enforces the rules
 * the natives rely on.
 *
 * <p>Conventions: the native peer comes first as a {@code long} (a
 * {@code strait__jrt*} for runtime calls); arguments are primitives,
 * handles ({@code long}), arrays and Strings. Every runtime native is called
 * only between {@code JsRuntime.enter()} and {@code JsRuntime.leave()}, so
 * the peer is never freed while a call is running. The natives are
 * registered with RegisterNatives from tables in src/jni/ when the library
 * loads (JNI_OnLoad).
 */
final class Natives {
    private Natives() {}

    static {
        NativeLoader.load();
    }

    // ---- runtime (src/jni/jsruntime.c) ------------------------------------

    /** Creates a runtime owned by {@code owner}; returns its peer. Throws on failure. */
    static native long runtimeNew(JsRuntime owner);

    /** Frees the runtime of peer. Called once, when no call is inside. */
    static native void runtimeFree(long peer);

    /** True when the calling thread is inside a native call of peer (a callback from JS). */
    static native boolean enteredHere(long peer);

    /** Evaluates source (file may be null) and converts the completion value. */
    static native Object eval(long peer, JsRuntime owner, String source, String fileName);

    // ---- values (src/jni/value_conv.c) ------------------------------------

    /** Releases one JsValue handle. */
    static native void valueRelease(long peer, long handle);

    /** Releases handles[0..count). */
    static native void valueReleaseAll(long peer, long[] handles, int count);

    /** String(value), exact UTF-16. */
    static native String valueToString(long peer, long handle);

    /** typeof value. */
    static native String valueTypeOf(long peer, long handle);

    // ---- test support (src/jni/testprobe.c) -------------------------------

    /**
     * Installs {@code __straitProbe(n)} on the runtime's global object: it
     * returns a new object of a native class whose finalizer counts up
     * {@link #probeFinalized()}. For the signal/GC stress test.
     */
    static native void probeInstall(long peer);

    /** Number of probe objects finalized so far, process-wide. */
    static native long probeFinalized();

    // ---- bridge (h6) -----------------------------------------------------
    // The JS->Java bridge declares its natives here (registered from
    // strait__bridge_init in src/jni/bridge_init.c).

    // ---- end bridge (h6) -------------------------------------------------
}

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

    /** Runtimes made by {@link JsRuntime#create()} whose engine is not freed yet, process-wide. */
    static native long probeLiveRuntimes();

    // ---- bridge (h6) -----------------------------------------------------
    // The JS->Java bridge declares its natives here (registered from
    // strait__bridge_init in src/jni/bridge_init.c).

    // ---- end bridge (h6) -------------------------------------------------

    // codec (h5): whole values in one crossing (src/jni/codec_jni.c)

    /** A direct ByteBuffer over the calling thread's native value buffer. */
    static native java.nio.ByteBuffer codecThreadBuffer();

    /** Writes the value of handle; null when the bytes are in the thread buffer, else {spill, refs, {address}}. */
    static native Object codecToJava(long peer, JsRuntime owner, long handle, int flags);

    /** Frees a spill block returned by codecToJava. */
    static native void codecFree(long address);

    /** Reads len value bytes of buf (null: the thread buffer) into JS, converted as eval results are. */
    static native Object codecToJs(long peer, JsRuntime owner, java.nio.ByteBuffer buf, int len, Object[] refs);

    /** An ArrayBuffer over a direct ByteBuffer's memory. */
    static native Object codecShareBuffer(long peer, JsRuntime owner, java.nio.ByteBuffer buf);

    /** A direct ByteBuffer over an ArrayBuffer's (or typed array's) bytes; protectedOut[0] gets a handle to release. */
    static native java.nio.ByteBuffer codecBufferOf(long peer, long handle, long[] protectedOut);

    /** Benchmark baseline: JS -> Java with one JNI call per value (src/jni/codec_naive.c). */
    static native Object codecNaiveToJava(long peer, long handle);

    /** Benchmark baseline: Java -> JS walking Maps/Lists with JNI calls. */
    static native Object codecNaiveToJs(long peer, JsRuntime owner, Object value);

    // end codec (h5)
}

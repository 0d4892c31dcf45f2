package org.strait.internal;

import java.nio.ByteBuffer;

/**
 * Every native method of libstrait.so, in one class (as Javet's V8Native).
 * Internal: the public API (JsRuntime, JsValue, ...) wraps these and
 * enforces the rules they rely on.
 *
 * <p>Conventions: the native peer comes first as a {@code long} (a
 * {@code strait__jrt*} for runtime calls). Parameters are only primitives,
 * {@code String}, arrays, {@code ByteBuffer} and {@code Object}; an
 * {@code Object owner} is the {@code org.strait.JsRuntime} that owns the
 * handles made by the call, passed opaque so no API type appears here.
 * Every runtime native is called only between {@code JsRuntime.enter()} and
 * {@code leave()} (an in-flight count), so the peer is never freed while a
 * call is running. The natives are registered with RegisterNatives from
 * the tables in src/jni/ (strait__natives_register, src/jni/base/jcache.c)
 * when the library loads (JNI_OnLoad).
 *
 * <p>JS-from-Java calls pass their arguments packed ({@link Args}): one
 * {@code long[]} with the values and then one type tag per byte, plus an
 * {@code Object[]} for Strings and Java objects (null when there are none),
 * so a call makes at most one array read of primitives across JNI. A handle
 * argument is a protected JSValueRef ({@code JsValue.handle}); 0 names the
 * global object.
 */
public final class Natives {
    private Natives() {}

    static {
        NativeLoader.load();
    }

    // ---- runtime ------------------------------------------------------------

    /**
     * Creates a runtime owned by {@code owner} (a JsRuntime) with the host
     * access {@code policy} (a {@link HostPolicy}), process.argv
     * {@code argv} (may be null), limits (0: none), {@code deny} bits
     * ({@link RuntimeOptions}) and require()'s root directory (null: none);
     * all validated by the builder. Returns its peer. Throws on failure.
     */
    public static native long runtimeNew(Object owner, Object policy, String[] argv,
                                         long timeLimitUs, long heapLimit, int deny, String fsRoot,
                                         long maxSource);

    /** Terminates the JS running in the runtime (strait_interrupt). Any thread, no gate. */
    public static native void interrupt(long peer);

    /** Frees the runtime of peer. Called once, when no call is inside. */
    public static native void runtimeFree(long peer);

    /** True when the calling thread is inside a native call of peer (a callback from JS). */
    public static native boolean enteredHere(long peer);

    /** Evaluates source (file may be null) and converts the completion value. */
    public static native Object eval(long peer, Object owner, String source, String fileName);

    // ---- values -------------------------------------------------------------

    /** Releases one JsValue handle. */
    public static native void valueRelease(long peer, long handle);

    /** Releases handles[0..count). */
    public static native void valueReleaseAll(long peer, long[] handles, int count);

    /** String(value), exact UTF-16. */
    public static native String valueToString(long peer, long handle);

    /** typeof value. */
    public static native String valueTypeOf(long peer, long handle);

    /**
     * True when key is an own enumerable property of the object handle (the
     * keys of JsObject's Map view), through the Reflect.getOwnPropertyDescriptor
     * captured when the runtime was made. Any thread (enters the gate).
     */
    public static native boolean valueOwnKey(long peer, long handle, String key);

    // ---- codec: whole values in one crossing (docs/value-format.md) --------

    /** A direct ByteBuffer over the calling thread's native value buffer. */
    public static native ByteBuffer codecThreadBuffer();

    /** Writes the value of handle; null when the bytes are in the thread buffer, else {spill, refs, {address}}. */
    public static native Object codecToJava(long peer, Object owner, long handle, int flags);

    /** Frees a spill block returned by codecToJava. */
    public static native void codecFree(long address);

    /** Reads len value bytes of buf (null: the thread buffer) into JS, converted as eval results are. */
    public static native Object codecToJs(long peer, Object owner, ByteBuffer buf, int len, Object[] refs);

    /** An ArrayBuffer over a direct ByteBuffer's memory. */
    public static native Object codecShareBuffer(long peer, Object owner, ByteBuffer buf);

    /** A direct ByteBuffer over an ArrayBuffer's (or typed array's) bytes; protectedOut[0] gets a handle to release. */
    public static native ByteBuffer codecBufferOf(long peer, long handle, long[] protectedOut);

    // ---- JavaScript from Java: properties, calls, interfaces, the loop ----

    /** Flags of {@link #call}. */
    public static final int CALL = 0, CONSTRUCT = 1, THIS_PACKED = 2;

    /** obj[key] converted to Java (JsObject/JsFunction/JsArray/JsPromise for objects). */
    public static native Object get(long peer, Object owner, long obj, String key);

    /** obj[index] converted to Java. */
    public static native Object getAt(long peer, Object owner, long obj, int index);

    /** obj[key] = the one packed value. */
    public static native void set(long peer, long obj, String key, long[] vals, Object[] refs);

    /** obj[index] = the one packed value. */
    public static native void setAt(long peer, long obj, int index, long[] vals, Object[] refs);

    /** key in obj. */
    public static native boolean has(long peer, long obj, String key);

    /** delete obj[key]; the result of the delete. */
    public static native boolean delete(long peer, long obj, String key);

    /** The object's own enumerable string keys, in JS order. */
    public static native String[] keys(long peer, long obj);

    /** ToLength(obj.length). */
    public static native long length(long peer, long obj);

    /**
     * Calls fn (or constructs with it when flags has CONSTRUCT). With
     * THIS_PACKED the receiver is packed argument 0 and the call's arguments
     * follow; otherwise this is undefined.
     */
    public static native Object call(long peer, Object owner, long fn, int flags,
                                            long[] vals, Object[] refs, int argc);

    /**
     * obj[name](...args) with this = obj, for a JS implementation of a Java
     * interface; or obj(...args) when name is null. Returns
     * {@link JsProxyHandler#ABSENT} when obj has no such member and
     * {@link JsProxyHandler#NOT_FUNCTION} when the member is not a function.
     */
    public static native Object invokeMember(long peer, Object owner, long obj, String name,
                                             long[] vals, Object[] refs, int argc);

    /** Same, with the member name as an interned JSStringRef ({@link #internName}; 0: call obj). */
    public static native Object invokeNamed(long peer, Object owner, long obj, long name,
                                            long[] vals, Object[] refs, int argc);

    /** A JSStringRef of name kept for the life of the process (method names of proxies). */
    public static native long internName(String name);

    /**
     * Adapters (Java.extend): obj[name](...args) with {@code this} = packed
     * argument 0 (the adapter object), or obj(...args) when name is 0;
     * answers JsProxyHandler.ABSENT / NOT_FUNCTION as {@link #invokeNamed}.
     * Any Java thread (src/jni/call/extend.c).
     */
    public static native Object invokeAdapter(long peer, Object owner, long obj, long name,
                                              long[] vals, Object[] refs, int argc);

    /**
     * True when the calling thread is inside the runtime of peer: it runs
     * the runtime's JS or is in a Java call that JS made (src/jni/call/extend.c).
     * The caller holds an in-flight count. Any Java thread.
     */
    public static native boolean insideRuntime(long peer);

    /**
     * Frees the native metadata of the class of index, unloaded (called once
     * by Bridge's Cleaner; src/jni/model/class_meta.c, registered with
     * src/jni/call/extend.c's natives). Any Java thread, no runtime.
     */
    public static native void classGone(int index);

    /** For each name: 0 absent (undefined), 1 function, 2 anything else. */
    public static native int[] memberKinds(long peer, long obj, String[] names);

    /** Queues task to run on the runtime's loop and wakes the loop. */
    public static native void post(long peer, Object task);

    /** Keeps the loop alive (+1) or lets it end (-1). */
    public static native void loopRef(long peer, int delta);

    /** Asks a running loop to return after its current callback. */
    public static native void loopStop(long peer);

    /** Runs the loop on this thread until nothing keeps it alive. */
    public static native void runLoop(long peer);

    /** Completes future when the promise settles (on the loop thread). */
    public static native void whenSettled(long peer, Object owner, long promise,
                                          Object future);

    /**
     * Enters the runtime's gate so the caller may register a call's Java
     * arguments in the runtime's {@link ObjectTable} (only the thread inside
     * may touch it); the caller then calls {@link #call} (re-entrant) and
     * always {@link #leaveArgs}. Throws (and stays out) when the wait fails.
     */
    public static native void enterArgs(long peer);

    /** Leaves the stay of {@link #enterArgs}. */
    public static native void leaveArgs(long peer);

    /** The runtime's ObjectTable, or null when the Java bridge is not attached. */
    public static native ObjectTable objectTable(long peer);

    // ---- values between runtimes, message ports (docs/workers.md) ----------

    /**
     * The structured clone of the value of {@code handle} (of
     * {@code srcPeer}'s runtime) made in {@code dstPeer}'s runtime, with the
     * values of {@code transfer} (handles of the source, may be null) moved
     * instead of copied; converted as {@link #eval} converts results, handles
     * owned by {@code dstOwner}. The caller holds both runtimes' counts and a
     * use of every handle. Throws JsException (a DataCloneError...).
     */
    public static native Object cloneInto(long srcPeer, long handle, long[] transfer, long dstPeer,
                                          Object dstOwner);

    /**
     * Opens a channel between Java and the runtime: stores the Java end (a
     * {@code strait_port*}) in {@code out[0]} and returns the runtime's end,
     * a JS MessagePort, as a handle of {@code owner}.
     */
    public static native Object portOpen(long peer, Object owner, long[] out);

    /** Posts {@code bytes[0..len)} (one value in the value format); 0 or a negative status. Any thread. */
    public static native int portPost(long port, byte[] bytes, int len);

    /**
     * The next message the MessagePort posted, waiting up to
     * {@code timeoutMs} (0: no wait): its value-format bytes as a
     * {@code byte[]}, a {@code String} (why it has no value-format form; the
     * message is consumed), or an {@code Integer} status (timed out, closed).
     * Any thread; never enters a runtime.
     */
    public static native Object portReceive(long port, long timeoutMs);

    /** Closes the channel and wakes a receive in flight; the port stays valid (strait_port_close). Idempotent, any time. */
    public static native void portClose(long port);
    /** Closes and frees a JsMessagePort's native end (strait_port_free); once, no call after. */
    public static native void portFree(long port);
}

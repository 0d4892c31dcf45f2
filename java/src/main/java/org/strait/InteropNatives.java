package org.strait;

import java.util.concurrent.CompletableFuture;

/**
 * The natives of JavaScript-from-Java (issue 4): properties, calls,
 * interfaces implemented in JS, the loop. Registered from
 * src/jni/handles_init.c when libstrait.so loads.
 *
 * <p>Every method takes the runtime's native peer first and is called only
 * while the caller holds one of the runtime's in-flight counts
 * ({@code JsRuntime.enter()}/{@code leave()}), so the peer stays valid.
 * Arguments cross packed ({@link Args}): one {@code long[]} with the values
 * and then one type tag per byte, plus an {@code Object[]} for Strings and
 * Java objects (null when there are none), so a call makes at most one
 * array read of primitives across JNI. A handle argument is a protected
 * JSValueRef ({@code JsValue.handle}); 0 names the global object.
 */
final class InteropNatives {
    private InteropNatives() {}

    static {
        NativeLoader.load();
    }

    /** Flags of {@link #call}. */
    static final int CALL = 0, CONSTRUCT = 1, THIS_PACKED = 2;

    /** obj[key] converted to Java (JsObject/JsFunction/JsArray/JsPromise for objects). */
    static native Object get(long peer, JsRuntime owner, long obj, String key);

    /** obj[index] converted to Java. */
    static native Object getAt(long peer, JsRuntime owner, long obj, int index);

    /** obj[key] = the one packed value. */
    static native void set(long peer, long obj, String key, long[] vals, Object[] refs);

    /** obj[index] = the one packed value. */
    static native void setAt(long peer, long obj, int index, long[] vals, Object[] refs);

    /** key in obj. */
    static native boolean has(long peer, long obj, String key);

    /** delete obj[key]; the result of the delete. */
    static native boolean delete(long peer, long obj, String key);

    /** The object's own enumerable string keys, in JS order. */
    static native String[] keys(long peer, long obj);

    /** ToLength(obj.length). */
    static native long length(long peer, long obj);

    /**
     * Calls fn (or constructs with it when flags has CONSTRUCT). With
     * THIS_PACKED the receiver is packed argument 0 and the call's arguments
     * follow; otherwise this is undefined.
     */
    static native Object call(long peer, JsRuntime owner, long fn, int flags,
                              long[] vals, Object[] refs, int argc);

    /**
     * obj[name](...args) with this = obj, for a JS implementation of a Java
     * interface; or obj(...args) when name is null. Returns
     * {@link JsProxyHandler#ABSENT} when obj has no such member and
     * {@link JsProxyHandler#NOT_FUNCTION} when the member is not a function.
     */
    static native Object invokeMember(long peer, JsRuntime owner, long obj, String name,
                                      long[] vals, Object[] refs, int argc);

    /** Same, with the member name as an interned JSStringRef ({@link #internName}; 0: call obj). */
    static native Object invokeNamed(long peer, JsRuntime owner, long obj, long name,
                                     long[] vals, Object[] refs, int argc);

    /** A JSStringRef of name kept for the life of the process (method names of proxies). */
    static native long internName(String name);

    /** For each name: 0 absent (undefined), 1 function, 2 anything else. */
    static native int[] memberKinds(long peer, long obj, String[] names);

    /** Queues task to run on the runtime's loop and wakes the loop. */
    static native void post(long peer, Runnable task);

    /** Keeps the loop alive (+1) or lets it end (-1). */
    static native void loopRef(long peer, int delta);

    /** Asks a running loop to return after its current callback. */
    static native void loopStop(long peer);

    /** Runs the loop on this thread until nothing keeps it alive. */
    static native void runLoop(long peer);

    /** Completes future when the promise settles (on the loop thread). */
    static native void whenSettled(long peer, JsRuntime owner, long promise,
                                   CompletableFuture<Object> future);

    /** Sets the gate's spin budget in microseconds (negative: park at once). */
    static native void setGateSpin(long peer, long micros);

    /**
     * Enters the runtime's gate so the caller may register a call's Java
     * arguments in the runtime's {@link ObjectTable} (only the thread inside
     * may touch it); the caller then calls {@link #call} (re-entrant) and
     * always {@link #leaveArgs}. Throws (and stays out) when the wait fails.
     */
    static native void enterArgs(long peer);

    /** Leaves the stay of {@link #enterArgs}. */
    static native void leaveArgs(long peer);

    /** The runtime's ObjectTable, or null when the Java bridge is not attached. */
    static native ObjectTable objectTable(long peer);

    /** Test support: the peers' raw call of fn with no arguments (the floor). */
    static native void rawCallLoop(long peer, long fn, int iterations);

    /** Benchmarks: calls fn with no arguments under JSC's API lock only (no gate). */
    static native void rawCallNoGate(long peer, long fn);

    /** Benchmarks: the same call entering through the runtime's admission gate. */
    static native void rawCallGated(long peer, long fn);

    /** Test support: raw JNI downcall cost (no engine). */
    static native int rawNoop(long peer);
}

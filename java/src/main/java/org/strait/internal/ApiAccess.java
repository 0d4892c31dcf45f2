package org.strait.internal;

import org.strait.JsObject;
import org.strait.JsRuntime;
import org.strait.JsValue;

/**
 * The internals' way into the package-private state of the public classes
 * of {@code org.strait} (the runtime's peer, in-flight count and handles),
 * as the JDK's {@code SharedSecrets}: {@code JsRuntime} installs the one
 * implementation when it is initialized, and internal classes keep it in a
 * {@code static final} field ({@link #get()}), so the calls inline. Not
 * exported by the module; nothing here is API.
 */
public abstract class ApiAccess {
    private static volatile ApiAccess access;

    protected ApiAccess() {}

    /** Installs the implementation; once, from org.strait.JsRuntime's static initializer. */
    public static void set(ApiAccess a) {
        if (a.getClass().getClassLoader() != ApiAccess.class.getClassLoader()
                || !a.getClass().getPackageName().equals("org.strait"))
            throw new IllegalArgumentException("not strait's own access");
        synchronized (ApiAccess.class) {
            if (access != null) throw new IllegalStateException("already set");
            access = a;
        }
    }

    /** The implementation; initializes org.strait.JsRuntime (which installs it) when needed. */
    public static ApiAccess get() {
        ApiAccess a = access;
        if (a != null) return a;
        try {
            Class.forName("org.strait.JsRuntime", true, ApiAccess.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        a = access;
        if (a == null) throw new IllegalStateException("org.strait.JsRuntime did not install its access");
        return a;
    }

    // ---- JsRuntime ----------------------------------------------------------

    /** The native peer (a strait__jrt*). */
    public abstract long peer(JsRuntime rt);

    /** Takes an in-flight count for one native call; throws if closed. */
    public abstract void enter(JsRuntime rt);

    /** Like enter, but false instead of throwing when closed. */
    public abstract boolean tryEnter(JsRuntime rt);

    /** Gives the count back. */
    public abstract void leave(JsRuntime rt);

    /** Releases the queued JsValue handles if any. Caller holds a count. */
    public abstract void drainIfPending(JsRuntime rt);

    /** The runtime's ObjectTable, or null without the bridge. Caller holds a count. */
    public abstract ObjectTable table(JsRuntime rt);

    /** Takes / gives back a lease for a ByteBuffer over JS memory. */
    public abstract void lease(JsRuntime rt);

    public abstract void unlease(JsRuntime rt);

    /** Queues a handle for release at the next call (any thread). */
    public abstract void queueRelease(JsRuntime rt, long handle);

    // ---- JsValue ------------------------------------------------------------

    /** The native handle (a protected JSValueRef). */
    public abstract long handle(JsValue v);

    /** Takes a use of v and a count of its runtime; returns the runtime. */
    public abstract JsRuntime enterUse(JsValue v);

    /** Gives back what enterUse took. */
    public abstract void leaveUse(JsValue v, JsRuntime rt);

    /** Takes / gives back one use of v's handle (no runtime count). */
    public abstract void acquire(JsValue v);

    public abstract void release(JsValue v);

    /** "value released: the JsObject was closed" (naming v's kind). */
    public abstract String releasedMessage(JsValue v);

    /** enterUse of a JsObject, as its own calls take it (JsObject.begin). */
    public abstract JsRuntime begin(JsObject o);
}

package org.strait;

import org.strait.internal.Args;
import org.strait.internal.JsProxyHandler;
import org.strait.internal.Natives;
import org.strait.internal.ValueCodec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A JavaScript value that has no plain Java form (an object, a function, a
 * symbol...), held alive in its runtime's heap while this handle lives.
 *
 * <p>Release it with {@link #close()} when done; a JsValue that becomes
 * unreachable is released by the runtime at its next call. After
 * {@code close()} of the value every use of it throws
 * {@code IllegalStateException("value released: the JsObject was closed")}
 * (naming its kind): as the receiver, as an argument, inside a List or Map
 * given to {@link JsRuntime#toJs}; after close of the runtime,
 * {@code IllegalStateException("runtime closed")}. A JsValue of another
 * runtime is refused with IllegalArgumentException.
 *
 * <p>Every native use of the handle holds a use count of the value
 * ({@link #acquire()} / {@link #release()}) besides the runtime's
 * in-flight count, so a {@code close()} racing with a call on another
 * thread releases the JS value only once that call has returned: no native
 * code ever reads a handle whose JS value was released.
 *
 * <p>Subclasses (in this package only: the constructor is package-private)
 * add typed operations; they hold a use of the value and a count of the
 * runtime around each native call ({@code JsObject.enterUse}).
 */
public class JsValue implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    /** The sign bit of {@link #uses}: close() was called. */
    private static final int CLOSED = Integer.MIN_VALUE;
    private static final VarHandle USES;

    static {
        try {
            USES = MethodHandles.lookup().findVarHandle(JsValue.class, "uses", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Native uses in flight in the low bits; CLOSED once close() began. */
    private volatile int uses;

    private final JsRuntime runtime;
    /** The native handle (a protected JSValueRef); read by the JNI layer. */
    final long handle;
    private final Releaser releaser;
    private final Cleaner.Cleanable cleanable;

    /** Made by the JNI layer (src/jni/value/handles.c) on a thread inside the runtime. */
    JsValue(JsRuntime runtime, long handle) {
        this.runtime = runtime;
        this.handle = handle;
        this.releaser = new Releaser(runtime, handle);
        this.cleanable = CLEANER.register(this, releaser);
    }

    /** The runtime the value lives in. */
    public final JsRuntime runtime() {
        return runtime;
    }

    /** JavaScript {@code typeof} of the value. */
    public String typeOf() {
        JsRuntime rt = enterUse();
        try {
            return Natives.valueTypeOf(rt.peer, handle);
        } finally {
            leaveUse(rt);
        }
    }

    /** JavaScript {@code String(value)}, exact UTF-16. @throws JsException if it throws */
    public String stringValue() {
        JsRuntime rt = enterUse();
        try {
            return Natives.valueToString(rt.peer, handle);
        } finally {
            leaveUse(rt);
        }
    }

    /**
     * The value as plain Java data, in one crossing (docs/value-format.md):
     * objects become {@code LinkedHashMap<String,Object>}, arrays
     * {@code ArrayList<Object>}, numbers Integer/Long/Double by the number
     * rule, BigInt BigInteger, Date Instant, Map/Set LinkedHashMap/
     * LinkedHashSet, ArrayBuffer byte[], typed arrays primitive arrays, Java
     * objects themselves; sharing and cycles are kept.
     *
     * @throws ValueConversionException a function or symbol inside, naming its path
     * @throws JsException a getter threw
     */
    public Object toJava() {
        return ValueCodec.toJava(this, false);
    }

    /** Like {@link #toJava()}, but functions and symbols inside become JsValue handles. */
    public Object toJava(boolean handles) {
        return ValueCodec.toJava(this, handles);
    }

    /**
     * A direct ByteBuffer over the bytes of this ArrayBuffer or typed array
     * (no copy: writes on either side are seen by the other). The JS memory
     * stays alive while the ByteBuffer is reachable, even past close() of
     * the runtime (the engine's memory is freed once the last such buffer is
     * collected); JS can no longer detach (transfer) the ArrayBuffer. See
     * docs/value-format.md, "Zero-copy bytes".
     *
     * @throws IllegalArgumentException the value is not an ArrayBuffer or
     *     typed array, or its ArrayBuffer is resizable (JS could shrink the
     *     memory under the ByteBuffer) or detached
     */
    public java.nio.ByteBuffer asByteBuffer() {
        return ValueCodec.bufferOf(this);
    }

    /** True once released (by close() or because the runtime closed). */
    public boolean isReleased() {
        return uses < 0 || releaser.done || runtime.isClosed();
    }

    /**
     * Releases the value in its runtime. Idempotent; a no-op after the
     * runtime closed. A call using the value on another thread finishes
     * first: the JS value is released when the last such call returns.
     */
    @Override
    public void close() {
        int s;
        do {
            s = uses;
            if (s < 0) return;
        } while (!USES.compareAndSet(this, s, s | CLOSED));
        if (s == 0) releaseHandle();
    }

    private void releaseHandle() {
        if (releaser.take()) runtime.releaseNow(handle);
        cleanable.clean();
    }

    /** String(value), or a placeholder when released or when String() throws. */
    @Override
    public String toString() {
        try {
            return stringValue();
        } catch (IllegalStateException | JsException e) {
            return "[JsValue: " + e.getMessage() + "]";
        }
    }

    /** The message of a use after close(): "value released: the JsObject was closed". */
    final String releasedMessage() {
        return "value released: the " + getClass().getSimpleName() + " was closed";
    }

    /**
     * The native handle when this value is live and of runtime rt, else 0.
     * Called by the JNI layer (src/jni/value/convert.c, jb_handle_back)
     * inside rt's gate, so a handle going back to JS is the original JS
     * value; a close() racing with it releases the JS value only inside
     * the gate, after JS holds it.
     */
    final long handleIn(JsRuntime rt) {
        return rt == runtime && uses >= 0 && !releaser.done && !runtime.isClosed() ? handle : 0;
    }

    /** Throws IllegalStateException if the runtime closed or the value was released. */
    final void checkLive() {
        if (runtime.isClosed()) throw new IllegalStateException("runtime closed");
        if (uses < 0 || releaser.done) throw new IllegalStateException(releasedMessage());
    }

    /**
     * Takes one use of the handle for a native call (pair with
     * {@link #release()}): close() then waits for it. Throws
     * IllegalStateException when the value was closed. Any thread.
     */
    final void acquire() {
        int s;
        do {
            s = uses;
            if (s < 0 || releaser.done) throw new IllegalStateException(releasedMessage());
        } while (!USES.compareAndSet(this, s, s + 1));
    }

    /** Gives a use back; the last one out after close() releases the JS value. */
    final void release() {
        int s = (int) USES.getAndAdd(this, -1) - 1;
        if (s == CLOSED) releaseHandle();
    }

    /**
     * Takes a count of the runtime and a use of this value for one native
     * call; pair with {@link #leaveUse}. Throws "runtime closed" or "value
     * released". Also releases handles the GC queued. Any thread.
     */
    final JsRuntime enterUse() {
        JsRuntime rt = runtime;
        rt.enter();
        try {
            acquire();
        } catch (RuntimeException e) {
            rt.leave();
            throw e;
        }
        try {
            rt.drainIfPending();
        } catch (RuntimeException e) {
            leaveUse(rt);
            throw e;
        }
        return rt;
    }

    /** Ends what {@link #enterUse} began. */
    final void leaveUse(JsRuntime rt) {
        release();
        rt.leave();
    }


    // ---- property access of JsObject and JsArray (their public get, set,
    // has, delete, keys and invoke): JsArray is a List, so no JsObject ----

    final Object getMember(String key) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            return Natives.get(rt.peer, rt, handle, key);
        } finally {
            leaveUse(rt);
        }
    }

    final void setMember(String key, Object value) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            Args a = Args.one(rt, value);
            try {
                a.hold();
                Natives.set(rt.peer, handle, key, a.vals, a.refs);
            } finally {
                a.unhold();
            }
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(value);
        }
    }

    final boolean hasMember(String key) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            return Natives.has(rt.peer, handle, key);
        } finally {
            leaveUse(rt);
        }
    }

    final boolean deleteMember(String key) {
        Objects.requireNonNull(key, "key");
        JsRuntime rt = enterUse();
        try {
            return Natives.delete(rt.peer, handle, key);
        } finally {
            leaveUse(rt);
        }
    }

    final List<String> ownKeys() {
        JsRuntime rt = enterUse();
        try {
            return Arrays.asList(Natives.keys(rt.peer, handle));
        } finally {
            leaveUse(rt);
        }
    }

    final Object invokeMember(String name, Object... args) {
        Objects.requireNonNull(name, "name");
        JsRuntime rt = enterUse();
        try {
            Args a = Args.pack(rt, false, null, args);
            Object r;
            try {
                a.hold();
                r = Natives.invokeMember(rt.peer, rt, handle, name, a.vals, a.refs, a.argc);
            } finally {
                a.unhold();
            }
            if (r == JsProxyHandler.ABSENT || r == JsProxyHandler.NOT_FUNCTION)
                throw new IllegalArgumentException("JS member '" + name + "' is not a function");
            return r;
        } finally {
            leaveUse(rt);
            Reference.reachabilityFence(args);
        }
    }

    /** The cleaning action: must not refer to the JsValue. */
    private static final class Releaser implements Runnable {
        private final JsRuntime runtime;
        private final long handle;
        boolean done;   // guarded by the owning JsValue, or by this on the Cleaner

        Releaser(JsRuntime runtime, long handle) {
            this.runtime = runtime;
            this.handle = handle;
        }

        synchronized boolean take() {
            if (done) return false;
            done = true;
            return true;
        }

        @Override
        public void run() {
            if (take()) runtime.queueRelease(handle);
        }
    }
}

package org.strait;

import java.lang.ref.Cleaner;

/**
 * A JavaScript value that has no plain Java form (an object, a function, a
 * symbol...), held alive in its runtime's heap while this handle lives.
 *
 * <p>Release it with {@link #close()} when done; a JsValue that becomes
 * unreachable is released by the runtime at its next call. After
 * {@code close()} of the value its use throws
 * {@code IllegalStateException("value released")}; after close of the
 * runtime, {@code IllegalStateException("runtime closed")}.
 *
 * <p>Subclasses (in this package only: the constructor is package-private)
 * add typed operations; they check {@link #checkLive()} and hold a count of
 * the runtime around each native call, as the methods here do.
 */
public class JsValue implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final JsRuntime runtime;
    /** The native handle (a protected JSValueRef); read by the JNI layer. */
    final long handle;
    private final Releaser releaser;
    private final Cleaner.Cleanable cleanable;

    /** Made by the JNI layer (src/jni/value_conv.c) on a thread inside the runtime. */
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
    public synchronized String typeOf() {
        checkLive();
        runtime.enter();
        try {
            return Natives.valueTypeOf(runtime.peer, handle);
        } finally {
            runtime.leave();
        }
    }

    /** JavaScript {@code String(value)}, exact UTF-16. @throws JsException if it throws */
    public synchronized String stringValue() {
        checkLive();
        runtime.enter();
        try {
            return Natives.valueToString(runtime.peer, handle);
        } finally {
            runtime.leave();
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
        checkLive();
        return ValueCodec.toJava(this, false);
    }

    /** Like {@link #toJava()}, but functions and symbols inside become JsValue handles. */
    public Object toJava(boolean handles) {
        checkLive();
        return ValueCodec.toJava(this, handles);
    }

    /**
     * A direct ByteBuffer over the bytes of this ArrayBuffer or typed array
     * (no copy: writes on either side are seen by the other). The JS memory
     * stays alive while the ByteBuffer is reachable.
     *
     * @throws IllegalArgumentException the value is not an ArrayBuffer or typed array
     */
    public java.nio.ByteBuffer asByteBuffer() {
        checkLive();
        return ValueCodec.bufferOf(this);
    }

    /** True once released (by close() or because the runtime closed). */
    public synchronized boolean isReleased() {
        return releaser.done || runtime.isClosed();
    }

    /** Releases the value in its runtime. Idempotent; a no-op after the runtime closed. */
    @Override
    public synchronized void close() {
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

    /** Throws IllegalStateException if the runtime closed or the value was released. */
    final void checkLive() {
        if (runtime.isClosed()) throw new IllegalStateException("runtime closed");
        if (releaser.done) throw new IllegalStateException("value released");
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

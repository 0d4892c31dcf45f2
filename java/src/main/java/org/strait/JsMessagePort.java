package org.strait;

import org.strait.internal.Natives;
import org.strait.internal.ValueReader;
import org.strait.internal.ValueWriter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.Objects;

/**
 * The Java end of a message channel whose other end is a JavaScript
 * {@code MessagePort} of a runtime: made by {@link JsRuntime#openMessagePort()},
 * which hands the JS end to the script through {@link #jsPort()} (e.g.
 * {@code rt.setGlobal("port", p.jsPort())}). See docs/workers.md, "From Java".
 *
 * <pre>{@code
 * try (JsMessagePort p = rt.openMessagePort()) {
 *     rt.setGlobal("port", p.jsPort());
 *     rt.eval("port.onmessage = (e) => port.postMessage({ got: e.data.n + 1 })");
 *     new Thread(rt::runLoop).start();        // the runtime's loop delivers messages
 *     p.post(Map.of("n", 41));
 *     Object reply = p.receive();             // {got=42}
 * }
 * }</pre>
 *
 * <p><b>Java to JS.</b> {@link #post} writes the value in the value format
 * (docs/value-format.md: Maps, Lists, arrays, Strings, numbers, Instants,
 * byte arrays...; a Java object with no plain JS form is refused with
 * {@link ValueConversionException}) and queues it; the script receives it
 * as a {@code MessageEvent} once its port is started ({@code onmessage = ...},
 * {@code start()}, Node's {@code on('message')}), when the runtime's event
 * loop runs ({@link JsRuntime#runLoop()}; a loop that should wait for
 * messages needs {@link JsRuntime#keepAlive()}).
 *
 * <p><b>JS to Java.</b> What the script posts is a structured clone, read as
 * plain Java data: objects {@code LinkedHashMap<String,Object>}, arrays
 * {@code ArrayList}, numbers Integer/Long/Double, Date {@code Instant},
 * Map/Set {@code LinkedHashMap}/{@code LinkedHashSet}, ArrayBuffer
 * {@code byte[]}, typed arrays primitive arrays, {@code null} for null and
 * undefined; sharing and cycles are kept. {@link #receive()} waits,
 * {@link #receive(Duration)} waits at most so long, {@link #poll()} does not
 * wait; the last two return {@link #NO_MESSAGE} when there is none.
 * Receiving blocks only the calling Java thread, never the runtime. A
 * value the format cannot hold (a RegExp, a MessagePort) is a
 * {@link ValueConversionException}, and that message is gone.
 *
 * <p><b>End.</b> {@link #close()} (idempotent) closes the channel: the JS
 * port gets a {@code close} event, and a receive waiting on another thread
 * throws {@code IllegalStateException("message port closed")} at once (the JS
 * port is closed by then). Every later use of this object
 * throws the same. When the other end closed (JS {@code port.close()}, its
 * runtime closed), {@link #post} returns false and a receive throws that
 * exception once the messages already sent were taken. A JsMessagePort that
 * becomes unreachable without {@code close()} is closed by a
 * {@link Cleaner}.
 *
 * <p>Thread-safe: any thread may post and receive at any time; messages
 * keep the order in which they were posted.
 */
public final class JsMessagePort implements AutoCloseable {
    /**
     * What {@link #receive(Duration)} and {@link #poll()} return when no
     * message came (a message itself may be {@code null}).
     */
    public static final Object NO_MESSAGE = new Object() {
        @Override
        public String toString() {
            return "NO_MESSAGE";
        }
    };

    /** Status codes of include/strait.h the natives give back. */
    private static final int ENOMEM = -2, ECLOSED = -4, ETIMEDOUT = -16;
    /**
     * The longest one native wait lasts: a blocked receive comes back this
     * often to see whether its thread was interrupted (close() wakes it at
     * once: strait_port_close).
     */
    private static final long SLICE_MS = 50;

    private static final long CLOSED = Long.MIN_VALUE;
    private static final VarHandle STATE;
    private static final Cleaner CLEANER = Cleaner.create();

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(JsMessagePort.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Calls in flight in the low bits; CLOSED (the sign bit) once close() began. */
    private volatile long state;
    /** The native port (a strait_port*); valid while a count is held. */
    private final long port;
    private final JsObject jsPort;
    /** Frees the native port once: the last call out after close(), or the Cleaner. */
    private final Cleaner.Cleanable closer;

    /** The native free (which closes first), and must not refer to the JsMessagePort. */
    private static final class Closer implements Runnable {
        private final long port;

        Closer(long port) {
            this.port = port;
        }

        @Override
        public void run() {
            Natives.portFree(port);
        }
    }

    /** Made by {@link JsRuntime#openMessagePort()}. */
    JsMessagePort(long port, JsObject jsPort) {
        this.port = port;
        this.jsPort = jsPort;
        this.closer = CLEANER.register(this, new Closer(port));
    }

    /**
     * The JavaScript end, a {@code MessagePort} of the runtime, to hand to
     * the script ({@link JsRuntime#setGlobal}, a function argument) or to
     * move to another runtime ({@link JsRuntime#structuredClone} with the
     * port in the transfer list). The same handle every time; closing the
     * handle releases only the handle, not the channel.
     */
    public JsObject jsPort() {
        return jsPort;
    }

    /**
     * Posts a copy of value to the JS port (see the class comment). Returns
     * true when the message was queued, false when the other end is closed
     * (the message is dropped, as a web MessagePort drops it).
     *
     * @throws ValueConversionException value holds something with no plain
     *     JS form (a Java object, a JsValue), naming its path
     * @throws IllegalStateException this port was closed
     */
    public boolean post(Object value) {
        byte[] bytes;
        try {
            bytes = ValueWriter.write(value);
        } catch (ValueConversionException e) {
            throw new ValueConversionException("JsMessagePort.post: a message holds data only: "
                    + e.getMessage(), e.path());
        }
        enter();
        try {
            int rc = Natives.portPost(port, bytes, bytes.length);
            if (rc == ENOMEM) throw new OutOfMemoryError("JsMessagePort.post");
            return rc == 0;
        } finally {
            leave();
        }
    }

    /**
     * The next message the script posted, waiting for it as long as it
     * takes.
     *
     * @throws IllegalStateException the channel is closed (by close(), or by
     *     the other end once no message is left)
     * @throws JsInterruptedException the waiting thread was interrupted (its
     *     interrupt status is cleared, as InterruptedException clears it)
     * @throws ValueConversionException the message has no Java form
     */
    public Object receive() {
        return take(-1);
    }

    /**
     * The next message, waiting at most timeout; {@link #NO_MESSAGE} when
     * none came in time. Throws as {@link #receive()}.
     */
    public Object receive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) throw new IllegalArgumentException("timeout is negative: " + timeout);
        long ms;
        try {
            ms = timeout.toMillis();
        } catch (ArithmeticException e) {
            ms = Long.MAX_VALUE;
        }
        if (ms == 0 && !timeout.isZero()) ms = 1;   // a sub-millisecond wait still waits
        return take(ms);
    }

    /** The next message if one is there, else {@link #NO_MESSAGE}; never waits. Throws as {@link #receive()}. */
    public Object poll() {
        return take(0);
    }

    /** timeoutMs: -1 for no limit, 0 for no wait. */
    private Object take(long timeoutMs) {
        enter();
        try {
            long deadline = timeoutMs > 0 ? System.nanoTime() + Math.min(timeoutMs, Long.MAX_VALUE / 2_000_000L) * 1_000_000L : 0;
            for (;;) {
                if (state < 0) throw closed();
                if (Thread.interrupted())
                    throw new JsInterruptedException("interrupted while waiting for a message");
                long wait;
                if (timeoutMs == 0) {
                    wait = 0;
                } else if (timeoutMs < 0) {
                    wait = SLICE_MS;
                } else {
                    long left = (deadline - System.nanoTime() + 999_999L) / 1_000_000L;
                    if (left <= 0) return NO_MESSAGE;
                    wait = Math.min(SLICE_MS, left);
                }
                Object r = Natives.portReceive(port, wait);
                if (r instanceof byte[]) return ValueReader.read((byte[]) r);
                if (r instanceof String)
                    throw new ValueConversionException("JsMessagePort.receive: the message has no Java form: " + r, "$");
                int rc = (Integer) r;
                if (rc == ECLOSED) throw closed();
                if (rc == ENOMEM) throw new OutOfMemoryError("JsMessagePort.receive");
                if (rc != ETIMEDOUT) throw new IllegalStateException("JsMessagePort.receive: status " + rc);
                if (timeoutMs == 0) return NO_MESSAGE;
            }
        } finally {
            leave();
            Reference.reachabilityFence(this);
        }
    }

    private static IllegalStateException closed() {
        return new IllegalStateException("message port closed");
    }

    /** True once {@link #close()} was called (the other end's close does not count). */
    public boolean isClosed() {
        return state < 0;
    }

    /**
     * Closes the channel (see the class comment). Idempotent; never waits: a
     * receive in progress on another thread ends at once, and the native end
     * is freed when the last call in progress has returned.
     */
    @Override
    public void close() {
        long s;
        do {
            s = state;
            if (s < 0) return;
        } while (!STATE.compareAndSet(this, s, (s + 1) | CLOSED));   // a count of its own
        try {
            Natives.portClose(port);   // wakes a receive in flight; the port stays valid
        } finally {
            leave();                   // the last one out frees it
        }
    }

    @Override
    public String toString() {
        return "JsMessagePort[" + (isClosed() ? "closed" : "open") + "]";
    }

    /** Takes a count for one native call; throws once closed. */
    private void enter() {
        long s;
        do {
            s = state;
            if (s < 0) throw closed();
        } while (!STATE.compareAndSet(this, s, s + 1));
    }

    /** Gives the count back; the last call out after close() closes the native port. */
    private void leave() {
        long s = (long) STATE.getAndAdd(this, -1L) - 1;
        if (s == CLOSED) closer.clean();
    }
}

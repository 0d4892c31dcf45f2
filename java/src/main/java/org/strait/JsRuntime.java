package org.strait;

import org.strait.internal.ApiAccess;
import org.strait.internal.Natives;
import org.strait.internal.ObjectTable;
import org.strait.internal.RuntimeInterop;
import org.strait.internal.RuntimeOptions;
import org.strait.internal.ValueCodec;

import java.lang.invoke.MethodHandles;
import java.lang.ref.Cleaner;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A JavaScript engine instance (one JavaScriptCore heap) embedded in this
 * JVM. Create with {@link #create()} or {@link #newBuilder()}, release with
 * {@link #close()}.
 *
 * <p><b>Sandbox.</b> A runtime made by {@link #create()} reaches only what
 * the embedder hands it ({@link HostAccess#GIVEN}): no class lookup, no
 * environment variables, no files for {@code require}, no threads, no
 * native code. {@link Builder} grants more, and sets time and heap limits;
 * {@link #interrupt()} stops a running script from any thread
 * (docs/sandbox.md).
 *
 * <p><b>Threads.</b> Any Java thread may call any method; calls into one
 * runtime are serialized by its native admission gate (a second thread
 * waits until the first leaves JS). Two runtimes are independent and run in
 * parallel.
 *
 * <p><b>Close.</b> {@code close()} is idempotent. It stops new calls at once
 * (they throw {@code IllegalStateException("runtime closed")}), terminates
 * the JS running on other threads (as {@link #interrupt()}: their callers
 * get {@link JsInterruptedException}), waits for the calls already inside
 * the runtime to return, then frees the engine. Called from inside the runtime (a Java method that JS
 * called), it cannot wait for itself: the JS that called it (and any on
 * other threads) is terminated once control is back in JS, so its caller
 * gets {@link JsInterruptedException} unless the script ended first, and
 * the engine is freed when the last call in flight returns. Implementation: one word counts the calls in
 * flight and carries a CLOSED bit; every native call holds a count, so the
 * native memory is never freed under a running call.
 *
 * A runtime that is never closed is freed once the garbage collector finds
 * the JsRuntime unreachable (no handle, JS implementation of an interface or
 * running call refers to it): a {@link Cleaner} then frees the engine on its
 * own thread, under the runtime's gate. Until then the JS heap stays, and a
 * Java object handed to JS that refers back to the runtime keeps it alive
 * for good: close runtimes with try-with-resources.
 *
 * <p><b>process.exit()</b> in a script does not end the JVM: {@code eval}
 * throws {@link JsExitException}. The runtime stays exited: later calls
 * that run JS throw it again, so close it.
 *
 * <p><b>Console.</b> {@code console.log} and friends write to the process's
 * file descriptors 1 and 2 directly, not through {@code System.out} /
 * {@code System.err} (whose buffers are separate).
 */
public final class JsRuntime implements AutoCloseable {
    private static final long CLOSED = Long.MIN_VALUE;
    private static final VarHandle STATE;

    static {
        // First: internal classes initialized below may ask for it.
        ApiAccess.set(new Access());
    }

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(JsRuntime.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Calls in flight in the low bits; CLOSED (the sign bit) once close() began. */
    private volatile long state;
    /** The native peer (a strait__jrt*); valid until the engine is freed. */
    final long peer;
    private boolean freeOnDrain;    // guarded by this
    /** Frees the engine once: close(), or the Cleaner after the GC (null: adopted). */
    private final Cleaner.Cleanable engine;

    private final Object releaseLock = new Object();
    private long[] releaseQueue = new long[32];   // guarded by releaseLock
    private int releaseCount;                     // guarded by releaseLock
    private volatile boolean releasePending;

    /** The runtime's ObjectTable (see {@link #table()}); set on first use. */
    private ObjectTable table;

    /** True for a runtime made by the launcher (see {@link #adopt}). */
    private final boolean adopted;

    private JsRuntime(RuntimeOptions o) {
        this.peer = Natives.runtimeNew(this, o.policy(), o.arguments, o.timeLimitUs, o.heapLimit,
                o.denyBits(), o.allowFs ? o.fsRoot : null, o.maxSource);
        this.adopted = false;
        this.engine = CLEANER.register(this, new EngineFree(peer));
    }

    private JsRuntime(long peer) {
        this.peer = peer;
        this.adopted = true;
        this.engine = null;
    }

    /** Frees the engines of runtimes nobody closed (one daemon thread, made on first use). */
    private static final Cleaner CLEANER = Cleaner.create();

    /**
     * The engine's release, run at most once (Cleanable): by {@link #free()}
     * on the thread that closes, or on the Cleaner's thread once the
     * JsRuntime is unreachable. It must not refer to the JsRuntime. The
     * Cleaner thread may free the engine itself: an unreachable JsRuntime
     * has no call inside or waiting (each holds it until it returns) and
     * none can start, so the runtime is idle; strait_runtime_free takes its
     * gate all the same. See docs/threading.md.
     */
    private static final class EngineFree implements Runnable {
        private final long peer;

        EngineFree(long peer) {
            this.peer = peer;
        }

        @Override
        public void run() {
            Natives.runtimeFree(peer);
        }
    }

    /**
     * A JsRuntime for a runtime the launcher made (no JsRuntime of its own),
     * so its handles and JS implementations of Java interfaces have an owner
     * to count calls on. Made by src/jni/value/proxies.c; the launcher frees
     * the engine, and close() only stops new calls. The JNI layer marks it
     * closed with {@link #closeAdopted()} when that runtime is freed.
     */
    static JsRuntime adopt(long peer) {
        return new JsRuntime(peer);
    }

    /** Stops new calls of an adopted runtime; returns the calls still in flight. */
    long closeAdopted() {
        long s;
        do {
            s = state;
            if (s < 0) return s & ~CLOSED;
        } while (!STATE.compareAndSet(this, s, s | CLOSED));
        return s;
    }

    /** Calls in flight (of an adopted runtime being freed). */
    long inFlight() {
        return state & ~CLOSED;
    }

    /**
     * strait's version ("0.1.0"), as built into strait.jar: its manifest's
     * {@code Implementation-Version} (also the module's version on the
     * module path); null for classes that do not come from the jar.
     */
    public static String version() {
        return Version.VALUE;
    }

    /** Reads the version once, from the manifest of the jar holding this class. */
    private static final class Version {
        static final String VALUE = read();

        private static String read() {
            java.net.URL u = JsRuntime.class.getResource("JsRuntime.class");
            if (u == null || !"jar".equals(u.getProtocol())) return null;
            String s = u.toString();
            try (java.io.InputStream in = new java.net.URL(s.substring(0, s.lastIndexOf('!') + 1)
                    + "/META-INF/MANIFEST.MF").openStream()) {
                return new java.util.jar.Manifest(in).getMainAttributes().getValue("Implementation-Version");
            } catch (java.io.IOException e) {
                return null;
            }
        }
    }

    /**
     * Creates a runtime with the defaults of {@link Builder}: host access
     * {@link HostAccess#GIVEN}, no environment, files, threads or native
     * code, no limits. The same as {@code newBuilder().build()}. Loads
     * libstrait.so on first use.
     */
    public static JsRuntime create() {
        return newBuilder().build();
    }

    /** A builder of a runtime with options (see {@link Builder}). */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Options of a new runtime. Each setter records an option by name; the
     * generic {@link #option(String, String)} sets the same options from
     * strings (the names are in docs/sandbox.md, and match the launcher's
     * flags). {@link #build()} validates them all: an unknown name or a bad
     * value throws {@code IllegalArgumentException} naming the option.
     * Defaults are secure: host access {@link HostAccess#GIVEN}, no
     * environment variables, no files for {@code require}, no thread
     * creation or native code loading; {@code process.exit()} ends the
     * runtime (not the JVM). A builder may be reused; it is not
     * thread-safe.
     */
    public static final class Builder {
        private final Map<String, Object> options = new LinkedHashMap<>();

        private Builder() {}

        private Builder put(String name, Object value) {
            options.put(name, value);
            return this;
        }

        /** Sets an option by name from a string, e.g. {@code option("time-limit", "500ms")}. */
        public Builder option(String name, String value) {
            Objects.requireNonNull(name, "option name");
            return put(name, value);
        }

        /**
         * process.argv after its first two entries, which are "strait" and
         * "&lt;embedded&gt;" (where Node has the executable and the script).
         */
        public Builder arguments(String... args) {
            return put("arguments", args == null ? null : args.clone());
        }

        /**
         * Grants everything at once (host access {@link HostAccess#ALL},
         * environment, files, threads, native code), as the launcher does.
         * Options set one by one still win. A script with all access can do
         * whatever the JVM can, including crash the process.
         */
        public Builder allowAllAccess(boolean all) {
            return put("allow-all-access", all);
        }

        /** How much of the JVM scripts reach (default {@link HostAccess#GIVEN}). */
        public Builder hostAccess(HostAccess access) {
            return put("host-access", Objects.requireNonNull(access, "host-access"));
        }

        /**
         * Class names (binary names, e.g. {@code java.util.Map$Entry}) scripts
         * may reach: applied to lookups, to the classes of objects that
         * reach JS, and to reflection. Under {@link HostAccess#GIVEN} and
         * {@link HostAccess#EXPLICIT} it also enables lookups of the classes
         * it accepts. Called on the thread running JS, which may be a
         * worker's (so it must be thread-safe when workers are allowed).
         */
        public Builder classFilter(Predicate<String> filter) {
            return put("class-filter", Objects.requireNonNull(filter, "class-filter"));
        }

        /**
         * Reflection and class-loading classes or members scripts may reach
         * under a policy other than {@link HostAccess#ALL}: a class name
         * ({@code java.lang.Class}), a package prefix
         * ({@code java.lang.reflect.*}) or a member
         * ({@code java.lang.Object#getClass}).
         */
        public Builder allowReflection(String... names) {
            return put("allow-reflection", names == null ? null : names.clone());
        }

        /** process.env holds the environment (default: an empty object). */
        public Builder allowEnvironment(boolean allow) {
            return put("allow-env", allow);
        }

        /** require() may read any file (default: none). */
        public Builder allowFileSystem(boolean allow) {
            return put("allow-fs", allow);
        }

        /** require() may read the files under dir only (after resolving links). */
        public Builder fileSystemRoot(Path dir) {
            return put("fs-root", Objects.requireNonNull(dir, "fs-root"));
        }

        /**
         * process.exit() ends the runtime: the call throws
         * {@link JsExitException} (default); false: process.exit() throws
         * an Error in JS and the script goes on.
         */
        public Builder allowExit(boolean allow) {
            return put("allow-exit", allow);
        }

        /**
         * Scripts may create Java threads and start workers ({@code new Worker},
         * {@code worker_threads}; default: no). Each worker runs on a thread of
         * its own under this runtime's host access policy (docs/workers.md,
         * "From Java"); {@link JsRuntime#close()} terminates the workers and
         * waits for their threads.
         */
        public Builder allowCreateThread(boolean allow) {
            return put("allow-threads", allow);
        }

        /** Scripts may load native code, e.g. System.loadLibrary (default: no). */
        public Builder allowNativeAccess(boolean allow) {
            return put("allow-native", allow);
        }

        /**
         * Wall time one entry may run (an eval, a call from Java, one event
         * loop task) before it is terminated with
         * {@link JsTimeLimitException}. Positive.
         */
        public Builder timeLimit(Duration limit) {
            return put("time-limit", Objects.requireNonNull(limit, "time-limit"));
        }

        /**
         * Bytes of JS heap before the running script is terminated with
         * {@link JsHeapLimitException} (at least 1 MiB; docs/sandbox.md
         * gives the precision).
         */
        public Builder heapLimit(long bytes) {
            return put("heap-limit", bytes);
        }

        /**
         * Characters of one source the runtime compiles ({@link #eval}, the
         * modules {@code require()} loads, worker scripts): a larger one is
         * a {@link JsException} (RangeError) before the engine parses it,
         * since a parse cannot be stopped by a time limit or an interrupt.
         * Positive; the default is 8 Mi characters when a time limit is
         * set, else no limit; {@code option("max-source-size", "none")}
         * removes it.
         */
        public Builder maxSourceSize(long characters) {
            return put("max-source-size", characters);
        }

        /** Validates the options and creates the runtime. */
        public JsRuntime build() {
            return new JsRuntime(RuntimeOptions.parse(RuntimeOptions.copy(options)));
        }
    }

    /** Evaluates a script named "&lt;eval&gt;"; see {@link #eval(String, String)}. */
    public Object eval(String source) {
        return eval(source, "<eval>");
    }

    /**
     * Evaluates source as a classic script and returns its completion value:
     * null for undefined and null, Boolean, Integer when the number is an
     * int32 (and not -0), else Double, String (exact UTF-16), or a
     * {@link JsValue} for anything else (objects, functions, symbols).
     *
     * @param fileName the script's name in stacks and errors, or null
     * @throws JsException the script threw
     * @throws JsExitException the script called process.exit()
     * @throws IllegalStateException the runtime is closed
     */
    public Object eval(String source, String fileName) {
        Objects.requireNonNull(source, "source");
        enter();
        try {
            if (releasePending) drainReleases();
            return Natives.eval(peer, this, source, fileName);
        } finally {
            leave();
        }
    }

    /**
     * value as a JS value, in one crossing (docs/value-format.md): Maps with
     * String keys become plain objects, Lists/arrays arrays, primitive arrays
     * typed arrays, Instant a Date, other objects Java wrappers; sharing and
     * cycles are kept. A direct ByteBuffer becomes an ArrayBuffer over the
     * same memory (no copy). Returned as {@link #eval} returns values.
     */
    public Object toJs(Object value) {
        return ValueCodec.toJs(this, value);
    }

    // ---- JavaScript from Java (RuntimeInterop.java; docs/threading.md) ----

    /** globalThis[name], converted as {@link JsObject#get} does. */
    public Object getGlobal(String name) {
        return RuntimeInterop.getGlobal(this, name);
    }

    /** globalThis[name] = value, converted as a {@link JsFunction#call} argument. */
    public void setGlobal(String name, Object value) {
        RuntimeInterop.setGlobal(this, name, value);
    }

    /** Queues task to run on this runtime's event loop and wakes it. Any thread. */
    public void post(Runnable task) {
        RuntimeInterop.post(this, task);
    }

    /**
     * Runs the event loop on the calling thread until no timer, posted task
     * or {@link #keepAlive()} keeps it alive, or until close().
     * @throws JsException a timer threw or a promise rejection was unhandled
     */
    public void runLoop() {
        RuntimeInterop.runLoop(this);
    }

    /** Keeps the event loop alive until the returned handle is closed. */
    public AutoCloseable keepAlive() {
        return RuntimeInterop.keepAlive(this);
    }

    // ---- values between runtimes (docs/workers.md, "From Java") ----------

    /**
     * The structured clone of value made in this runtime: what
     * {@code postMessage} would deliver, and the web's
     * {@code structuredClone(value, { transfer })} when value is of this
     * runtime (docs/clone.md: objects, arrays, Map, Set, Date, RegExp,
     * ArrayBuffers and typed arrays, errors, primitive wrappers; sharing and
     * cycles are kept). value may belong to any runtime (its JS heap is
     * read in its own runtime, the copy is made in this one); the values in
     * transfer (ArrayBuffers, MessagePorts of value's runtime) move instead
     * of being copied: afterwards they are detached (an ArrayBuffer of
     * length 0, a dead port) where they were, and the copy holds them. A
     * MessagePort moves only this way: listed in transfer (a port of
     * {@link #openMessagePort()} or of a {@code MessageChannel} becomes a
     * port of this runtime, still entangled with its other end). Any
     * thread; the thread is inside value's runtime, then inside this one
     * (not both at once unless it already was inside value's).
     *
     * @param transfer values of value's runtime to move (may be empty)
     * @return a new handle of this runtime (a JsObject, JsArray, ...)
     * @throws JsException with name {@code DataCloneError} when value holds
     *     something that cannot be cloned (a function, a symbol, a Java
     *     object) or transfer lists a value twice or one that cannot move;
     *     nothing was detached then; or what a getter threw
     * @throws IllegalArgumentException a transfer value of another runtime
     *     than value's
     * @throws IllegalStateException this runtime or value's was closed, or a
     *     handle was released
     */
    public JsValue structuredClone(JsValue value, JsValue... transfer) {
        Objects.requireNonNull(value, "value");
        JsValue[] moved = transfer == null ? new JsValue[0] : transfer.clone();
        JsRuntime src = value.runtime();
        for (JsValue t : moved) {
            Objects.requireNonNull(t, "transfer value");
            if (t.runtime() != src)
                throw new IllegalArgumentException("structuredClone: a transfer value must be of the runtime of"
                        + " the value (a " + t.getClass().getSimpleName() + " of another runtime)");
        }
        value.enterUse();
        int held = 0;
        try {
            long[] handles = new long[moved.length];
            for (; held < moved.length; held++) {
                moved[held].acquire();
                handles[held] = moved[held].handle;
            }
            enter();
            try {
                if (releasePending) drainReleases();
                Object r = Natives.cloneInto(src.peer, value.handle, handles.length == 0 ? null : handles, peer, this);
                if (!(r instanceof JsValue))
                    throw new IllegalStateException("structuredClone: the copy is not an object (" + r + ")");
                return (JsValue) r;
            } finally {
                leave();
            }
        } finally {
            for (int i = 0; i < held; i++) moved[i].release();
            value.leaveUse(src);
        }
    }

    /**
     * Opens a message channel between Java and this runtime: the returned
     * {@link JsMessagePort} is the Java end, and its
     * {@link JsMessagePort#jsPort()} the JS end (a {@code MessagePort}) to
     * hand to the script, e.g. {@code rt.setGlobal("port", p.jsPort())}.
     * Messages reach the script when the runtime's event loop runs
     * ({@link #runLoop()}). Close the port when done; closing the runtime
     * closes the channel (a receive then throws). Any thread.
     *
     * @throws IllegalStateException the runtime is closed
     */
    public JsMessagePort openMessagePort() {
        enter();
        try {
            if (releasePending) drainReleases();
            long[] out = new long[1];
            Object js = Natives.portOpen(peer, this, out);
            if (!(js instanceof JsObject)) {
                if (out[0] != 0) Natives.portClose(out[0]);
                throw new IllegalStateException("openMessagePort: the engine gave no MessagePort (" + js + ")");
            }
            return new JsMessagePort(out[0], (JsObject) js);
        } finally {
            leave();
        }
    }

    /**
     * Stops the JavaScript running in this runtime, from any thread: an
     * uncatchable termination (JS {@code catch} and {@code finally} do not
     * run script again) that the Java caller of the running call gets as
     * {@link JsInterruptedException}, within about 10 ms. Its promise jobs
     * are stopped and dropped with it; a Java call the script waits in is
     * interrupted ({@link Thread#interrupt()}) and the script ends when it
     * returns; the workers the script started are terminated. The runtime
     * stays usable for the next call. A no-op when no JS runs or the
     * runtime is closed (docs/sandbox.md, "Stopping a script").
     */
    public void interrupt() {
        if (!tryEnter()) return;
        try {
            Natives.interrupt(peer);
        } finally {
            leave();
        }
    }

    /** True once {@link #close()} was called. */
    public boolean isClosed() {
        return state < 0;
    }

    /** Frees the runtime (see the class comment). Idempotent. */
    @Override
    public void close() {
        long s;
        do {
            s = state;
            if (s < 0) return;
        } while (!STATE.compareAndSet(this, s, s | CLOSED));
        if (s == 0) {
            free();
            return;
        }
        Natives.loopStop(peer);
        if (Natives.enteredHere(peer)) {
            synchronized (this) {
                freeOnDrain = true;
            }
            // the JS this thread is running (the caller of this close) stops
            // when control is back in JS, as JS on other threads does below:
            // a script cannot go on in a runtime it closed
            Natives.interrupt(peer);
            return;
        }
        // JS running on other threads is terminated (they get
        // JsInterruptedException); the calls drain, then the engine goes
        Natives.interrupt(peer);
        boolean interrupted = false;
        synchronized (this) {
            while (state != CLOSED) {
                try {
                    wait(10);
                    if (state != CLOSED) {
                        Natives.loopStop(peer);
                        Natives.interrupt(peer);
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        free();
        if (interrupted) Thread.currentThread().interrupt();
    }

    @Override
    public String toString() {
        return "JsRuntime[" + (isClosed() ? "closed" : "open") + "]";
    }

    // ---- the in-flight count --------------------------------------------

    /** Takes a count for one native call; throws if closed. Any thread. */
    void enter() {
        long s;
        do {
            s = state;
            if (s < 0) throw new IllegalStateException("runtime closed");
        } while (!STATE.compareAndSet(this, s, s + 1));
    }

    /** Like enter(), but returns false instead of throwing when closed. */
    boolean tryEnter() {
        long s;
        do {
            s = state;
            if (s < 0) return false;
        } while (!STATE.compareAndSet(this, s, s + 1));
        return true;
    }

    /** Gives the count back; the last call out after close() wakes/frees. */
    void leave() {
        long s = (long) STATE.getAndAdd(this, -1L) - 1;
        if (s == CLOSED) drained();
    }

    private void drained() {
        boolean doFree;
        synchronized (this) {
            notifyAll();
            doFree = freeOnDrain;
            freeOnDrain = false;
        }
        if (doFree) free();
    }

    /** ByteBuffers of asByteBuffer() not yet collected (guarded by this). */
    private int leases;
    /** close() drained while leases were out: the last unlease frees. */
    private boolean freeOnUnlease;   // guarded by this

    private void free() {
        synchronized (this) {
            if (leases > 0) {
                freeOnUnlease = true;
                return;
            }
        }
        if (engine != null) engine.clean();
    }

    /**
     * Takes a lease for a ByteBuffer over JS memory (JsValue.asByteBuffer):
     * the engine, whose heap holds that memory, is freed only when every
     * lease was given back. Caller holds a count (the runtime is open).
     */
    synchronized void lease() {
        leases++;
    }

    /** Gives a lease back (the ByteBuffer's Cleaner); the last one frees a closed runtime. */
    void unlease() {
        boolean doFree;
        synchronized (this) {
            doFree = --leases == 0 && freeOnUnlease;
            if (doFree) freeOnUnlease = false;
        }
        if (doFree && engine != null) engine.clean();
    }

    /**
     * The runtime's ObjectTable (the Java objects its JS holds wrappers of),
     * or null without the Java bridge. Only the thread inside the runtime's
     * gate may use it. Caller holds a count.
     */
    ObjectTable table() {
        ObjectTable t = table;
        if (t == null) table = t = Natives.objectTable(peer);
        return t;
    }

    // ---- JsValue handles ------------------------------------------------

    /** Releases a handle now (JsValue.close()). No-op once closed. Any thread. */
    void releaseNow(long handle) {
        if (!tryEnter()) return;
        try {
            Natives.valueRelease(peer, handle);
        } finally {
            leave();
        }
    }

    /**
     * Queues the handle of a JsValue the GC found unreachable (called on the
     * Cleaner thread, which must not wait for the runtime's gate); the next
     * call into the runtime releases the queue. Dropped once closed: the
     * heap goes away with the runtime.
     */
    void queueRelease(long handle) {
        if (state < 0) return;
        synchronized (releaseLock) {
            if (releaseCount == releaseQueue.length)
                releaseQueue = java.util.Arrays.copyOf(releaseQueue, releaseCount * 2);
            releaseQueue[releaseCount++] = handle;
            releasePending = true;
        }
    }

    /** Releases the queued handles if any. Caller holds a count. */
    void drainIfPending() {
        if (releasePending) drainReleases();
    }

    /** Releases the queued handles. Caller holds a count. */
    private void drainReleases() {
        long[] q;
        int n;
        synchronized (releaseLock) {
            q = releaseQueue;
            n = releaseCount;
            releaseQueue = new long[32];
            releaseCount = 0;
            releasePending = false;
        }
        if (n > 0) Natives.valueReleaseAll(peer, q, n);
    }

    /** The internals' access to this package (see {@link ApiAccess}). */
    private static final class Access extends ApiAccess {
        @Override public long peer(JsRuntime rt) { return rt.peer; }
        @Override public void enter(JsRuntime rt) { rt.enter(); }
        @Override public boolean tryEnter(JsRuntime rt) { return rt.tryEnter(); }
        @Override public void leave(JsRuntime rt) { rt.leave(); }
        @Override public void drainIfPending(JsRuntime rt) { rt.drainIfPending(); }
        @Override public ObjectTable table(JsRuntime rt) { return rt.table(); }
        @Override public void lease(JsRuntime rt) { rt.lease(); }
        @Override public void unlease(JsRuntime rt) { rt.unlease(); }
        @Override public void queueRelease(JsRuntime rt, long handle) { rt.queueRelease(handle); }
        @Override public long handle(JsValue v) { return v.handle; }
        @Override public JsRuntime enterUse(JsValue v) { return v.enterUse(); }
        @Override public void leaveUse(JsValue v, JsRuntime rt) { v.leaveUse(rt); }
        @Override public void acquire(JsValue v) { v.acquire(); }
        @Override public void release(JsValue v) { v.release(); }
        @Override public String releasedMessage(JsValue v) { return v.releasedMessage(); }
        @Override public JsRuntime begin(JsObject o) { return o.begin(); }
    }
}

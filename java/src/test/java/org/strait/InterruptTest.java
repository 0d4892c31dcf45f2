package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JsRuntime.interrupt(), Thread.interrupt() and close() stop running JS:
 * an uncatchable termination that the caller gets as
 * JsInterruptedException, after which the runtime works. Each case measures
 * the time from the interrupt to the exception and prints it (the bound is
 * the 50 ms, checked on the best of three tries: the machine is
 * shared and noisy, the mechanism is not).
 */
class InterruptTest {
    private JsRuntime rt;

    @BeforeEach
    void open() {
        rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        rt.setGlobal("ready", (Runnable) () -> READY.countDown());
    }

    @AfterEach
    void close() {
        rt.close();
    }

    private static volatile CountDownLatch READY;

    /**
     * Runs body on a new thread; once JS calls ready(), interrupts with
     * how; returns ms from the interrupt to the exception, which must be
     * a JsInterruptedException (not a subclass).
     */
    private long interruptOnce(String script, Function<Thread, Runnable> how) throws Exception {
        return interruptOnce(script, how, false);
    }

    /**
     * mayReturn: the loop runs in a promise job, which the engine runs
     * after the eval's own value was made (when the call leaves the
     * runtime): the call then returns that value, and the job is what the
     * interrupt ends; the time is taken when the call is over.
     */
    private long interruptOnce(String script, Function<Thread, Runnable> how, boolean mayReturn)
            throws Exception {
        READY = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        long[] end = new long[1];
        Thread t = new Thread(() -> {
            try {
                rt.eval(script);
                end[0] = System.nanoTime();
            } catch (Throwable e) {
                end[0] = System.nanoTime();
                thrown.set(e);
            }
        });
        t.start();
        assertTrue(READY.await(20, TimeUnit.SECONDS), "script did not start");
        Thread.sleep(20);   // let the loop get hot (JIT-compiled)
        long start = System.nanoTime();
        how.apply(t).run();
        t.join(10_000);
        assertFalse(t.isAlive(), "the script was not stopped");
        Throwable e = thrown.get();
        if (!mayReturn || e != null) {
            assertNotNull(e, "eval returned normally");
            assertEquals(JsInterruptedException.class, e.getClass(), () -> "got " + e);
        }
        return (end[0] - start) / 1_000_000;
    }

    private void interruptWithin50ms(String name, String script, Function<Thread, Runnable> how)
            throws Exception {
        interruptWithin50ms(name, script, how, false);
    }

    private void interruptWithin50ms(String name, String script, Function<Thread, Runnable> how,
                                     boolean mayReturn) throws Exception {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            best = Math.min(best, interruptOnce(script, how, mayReturn));
            assertEquals(2, rt.eval("1 + 1"), "runtime unusable after the interrupt");
            if (best < 50) break;
        }
        System.out.println("interrupt latency " + name + ": " + best + " ms");
        assertTrue(best < 50, name + ": terminated " + best + " ms after the interrupt");
    }

    private Function<Thread, Runnable> viaApi() {
        return t -> rt::interrupt;
    }

    @Test
    @Timeout(60)
    void endlessLoop() throws Exception {
        interruptWithin50ms("while(true)", "ready.run(); while (true) {}", viaApi());
    }

    @Test
    @Timeout(60)
    void loopInFinallyAndCatchCannotSwallowIt() throws Exception {
        interruptWithin50ms("finally", "ready.run(); try { while (true) {} } finally { while (true) {} }", viaApi());
        interruptWithin50ms("catch-retry", "ready.run(); for (;;) { try { while (true) {} } catch (e) {} }", viaApi());
    }

    @Test
    @Timeout(60)
    void loopInPromiseJob() throws Exception {
        interruptWithin50ms("promise job",
                "Promise.resolve().then(() => { ready.run(); while (true) {} }); 1", viaApi(), true);
    }

    /** A Java object whose method calls back into JS. */
    public static final class CallsBack {
        public Object call(java.util.function.Supplier<Object> f) {
            return f.get();
        }
    }

    @Test
    @Timeout(60)
    void loopInCallbackNestedInJavaCall() throws Exception {
        rt.setGlobal("svc", new CallsBack());
        interruptWithin50ms("nested callback",
                "svc.call(() => { ready.run(); while (true) {} }); while (true) {}", viaApi());
    }

    @Test
    @Timeout(60)
    void threadInterruptStopsThatThreadsCall() throws Exception {
        interruptWithin50ms("Thread.interrupt", "ready.run(); while (true) {}", t -> t::interrupt);
    }

    @Test
    @Timeout(60)
    void threadInterruptClearsTheFlag() throws Exception {
        READY = new CountDownLatch(1);
        AtomicReference<Boolean> flagAfter = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                rt.eval("ready.run(); while (true) {}");
            } catch (JsInterruptedException e) {
                flagAfter.set(Thread.currentThread().isInterrupted());
            }
        });
        t.start();
        assertTrue(READY.await(20, TimeUnit.SECONDS));
        t.interrupt();
        t.join(10_000);
        assertEquals(Boolean.FALSE, flagAfter.get());
    }

    @Test
    @Timeout(60)
    void interruptWhenIdleIsANoOp() {
        rt.interrupt();
        assertEquals(3, rt.eval("let s = 0; for (let i = 0; i < 3e6; i++) s++; s / 1e6"));
    }

    @Test
    @Timeout(60)
    void closeFromAnotherThreadStopsALoop() throws Exception {
        READY = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                rt.eval("ready.run(); while (true) {}");
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        assertTrue(READY.await(20, TimeUnit.SECONDS));
        long start = System.nanoTime();
        rt.close();
        long ms = (System.nanoTime() - start) / 1_000_000;
        t.join(10_000);
        assertFalse(t.isAlive());
        assertTrue(thrown.get() instanceof JsInterruptedException, () -> "got " + thrown.get());
        assertTrue(rt.isClosed());
        assertTrue(ms < 2000, "close() took " + ms + " ms");
        assertThrows(IllegalStateException.class, () -> rt.eval("1"));
    }

    @Test
    @Timeout(60)
    void interruptStopsARunningLoopOfTimers() throws Exception {
        rt.eval("setInterval(() => { globalThis.ticks = (globalThis.ticks || 0) + 1; }, 1);"
                + "setTimeout(() => { ready.run(); while (true) {} }, 5)");
        READY = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                rt.runLoop();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        assertTrue(READY.await(20, TimeUnit.SECONDS));
        rt.interrupt();
        t.join(10_000);
        assertFalse(t.isAlive(), "runLoop did not return");
        assertTrue(thrown.get() instanceof JsInterruptedException, () -> "got " + thrown.get());
        assertEquals(2, rt.eval("1 + 1"));
    }

    @Test
    @Timeout(60)
    void interruptOfOneRuntimeLeavesAnotherAlone() throws Exception {
        try (JsRuntime other = JsRuntime.create()) {
            other.eval("var n = 0");
            interruptOnce("ready.run(); while (true) {}", t -> () -> {
                rt.interrupt();
                assertEquals(1, other.eval("++n"));
            });
            assertEquals(2, other.eval("++n"));
        }
    }
}

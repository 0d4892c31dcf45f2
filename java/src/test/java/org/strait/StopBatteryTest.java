package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The stop battery (docs/sandbox.md, "Stopping a script"): every way JS
 * runs code in a runtime made by the Java API, times every way to stop it.
 * Each case must end the work within a bound, give the caller the
 * documented exception, let close() return, and leave the runtime (or, after
 * close(), a new one) working, with nothing of the stopped script running
 * on. A case is one runtime of JsRuntime.create()'s defaults (GIVEN), the
 * stop's options added.
 *
 * The bound is generous on purpose (a loaded 2-CPU CI machine): it catches
 * work that is never stopped or stopped seconds late; the latency itself is
 * printed per case and measured by the benchmark row api.interrupt_latency.
 */
class StopBatteryTest {
    /** Time limit of the TIME stop. */
    static final long LIMIT_MS = 200;
    /** The bound from the stop (or the limit) to the caller's exception. */
    static final long BOUND_MS = 1500;

    enum Stop { TIME, INTERRUPT, THREAD_INTERRUPT, CLOSE }

    /** A way to run JS that never ends by itself: run blocks the caller until stopped. */
    record Way(String name, String setup, Run run, boolean threads) {
        Way(String name, String setup, Run run) { this(name, setup, run, false); }
    }

    interface Run { void run(JsRuntime rt) throws Exception; }

    static Run eval(String src) { return rt -> rt.eval(src); }

    static Run evalThenLoop(String src) {
        return rt -> {
            rt.eval(src);
            rt.runLoop();
        };
    }

    static final List<Way> WAYS = List.of(
            new Way("sync loop", "", eval("ready(); for (;;) { n++; }")),
            new Way("catch and retry", "", eval("ready(); for (;;) { try { for (;;) { n++; } } catch (e) { } }")),
            new Way("loop in finally", "", eval("try { ready(); for (;;) { n++; } } finally { for (;;) { n++; } }")),
            new Way("promise job loop (await)", "", eval("(async () => { ready(); for (;;) { n++; await null; } })(); 1")),
            new Way("promise then chain", "",
                    eval("const f = () => { n++; return Promise.resolve().then(f); }; ready(); f(); 1")),
            new Way("queueMicrotask recursion", "",
                    eval("queueMicrotask(function f() { n++; queueMicrotask(f); }); ready(); 1")),
            new Way("long promise job", "", eval("Promise.resolve().then(() => { ready(); for (;;) { n++; } }); 1")),
            new Way("timer callback", "", evalThenLoop("setTimeout(() => { ready(); for (;;) { n++; } }, 0)")),
            new Way("posted task", "globalThis.spin = () => { ready(); for (;;) { n++; } }", rt -> {
                JsFunction spin = (JsFunction) rt.getGlobal("spin");
                try (AutoCloseable alive = rt.keepAlive()) {
                    rt.post(spin::call);
                    rt.runLoop();
                }
            }),
            new Way("Java calls a JS-implemented interface", "", rt -> {
                Runnable r = ((JsObject) rt.eval("({ run() { ready(); for (;;) { n++; } } })")).as(Runnable.class);
                r.run();
            }),
            new Way("JS callback inside a Java call (Comparator)", "",
                    eval("list.sort((a, b) => { ready(); for (;;) { n++; } })")),
            new Way("long native operation (typed-array sort)", "",
                    eval("const f = new Float64Array(2e7); for (let i = 0; i < f.length; i += 997) f[i] = i % 13;"
                            + " ready(); f.sort()")),
            new Way("blocking Java call", "", eval("ready(); q.take(); for (;;) { n++; }")),
            new Way("blocking Java call, catch and retry", "",
                    eval("ready(); for (;;) { try { q.take(); } catch (e) { n++; } }")),
            // the worker's thread runs the loop; the parent's loop waits for it
            new Way("worker", "", evalThenLoop("const { Worker } = require('worker_threads');"
                    + " globalThis.w = new Worker('for (;;) {}', { eval: true });"
                    + " globalThis.exited = false; w.on('exit', () => { exited = true; });"
                    + " w.on('error', (e) => { globalThis.workerError = String(e.message); });"
                    + " setTimeout(() => ready(), 100)"), true));

    @TestFactory
    List<DynamicTest> everyWayToRunTimesEveryWayToStop() {
        List<DynamicTest> out = new ArrayList<>();
        for (Stop stop : Stop.values())
            for (Way w : WAYS)
                out.add(DynamicTest.dynamicTest(stop + " / " + w.name(), () -> runCase(stop, w)));
        return out;
    }

    private static JsRuntime make(Stop stop, Way w) {
        JsRuntime.Builder b = JsRuntime.newBuilder();
        if (stop == Stop.TIME) b.timeLimit(Duration.ofMillis(LIMIT_MS));
        if (w.threads()) b.allowCreateThread(true);
        return b.build();
    }

    private static void runCase(Stop stop, Way w) throws Exception {
        JsRuntime rt = make(stop, w);
        CountDownLatch ready = new CountDownLatch(1);
        LinkedBlockingQueue<Object> q = new LinkedBlockingQueue<>();
        try {
            rt.setGlobal("ready", (Runnable) ready::countDown);
            rt.setGlobal("readyNow", (Runnable) ready::countDown);
            rt.setGlobal("q", q);
            rt.setGlobal("list", new ArrayList<>(List.of(3, 1, 2)));
            rt.eval("globalThis.n = 0;" + w.setup());
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            long[] ended = new long[1];
            Thread caller = new Thread(() -> {
                try {
                    w.run().run(rt);
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    ended[0] = System.nanoTime();
                }
            }, "battery-caller");
            caller.setDaemon(true);   // one that is never stopped must not keep the JVM
            long started = System.nanoTime();
            caller.start();
            long stopAt;
            if (stop == Stop.TIME) {
                stopAt = started + TimeUnit.MILLISECONDS.toNanos(LIMIT_MS);
            } else {
                assertTrue(ready.await(10, TimeUnit.SECONDS), "the JS started");
                Thread.sleep(30);
                stopAt = System.nanoTime();
                switch (stop) {
                    case INTERRUPT -> rt.interrupt();
                    case THREAD_INTERRUPT -> caller.interrupt();
                    case CLOSE -> {
                        Thread closer = new Thread(rt::close, "battery-closer");
                        closer.setDaemon(true);
                        closer.start();
                        closer.join(BOUND_MS + 5000);
                        assertFalse(closer.isAlive(), "close() returned");
                    }
                    default -> throw new AssertionError(stop);
                }
            }
            caller.join(TimeUnit.NANOSECONDS.toMillis(stopAt - System.nanoTime()) + BOUND_MS + 5000);
            assertFalse(caller.isAlive(), "the work was stopped");
            long latency = TimeUnit.NANOSECONDS.toMillis(ended[0] - stopAt);
            System.out.printf("stop battery: %-16s %-46s %5d ms%n", stop, w.name(), latency);
            assertTrue(latency <= BOUND_MS, "stopped " + latency + " ms after the stop");
            Throwable t = thrown.get();
            boolean worker = w.threads();
            // the parent's runLoop waits for its worker (no JS runs there): the
            // worker's own time limit (its parent's) stops the worker, whose
            // error event the parent handles; close() ends the loop's run
            boolean loopMayReturn = worker && (stop == Stop.TIME || stop == Stop.CLOSE);
            if (!loopMayReturn) assertNotNull(t, "the caller got an exception");
            if (t == null) {
                if (stop == Stop.TIME) assertTrue(String.valueOf(rt.eval("workerError")).contains("time limit"),
                        "the worker's error names its time limit: " + rt.eval("workerError"));
            } else switch (stop) {
                case TIME -> assertInstanceOf(JsTimeLimitException.class, t, String.valueOf(t));
                case INTERRUPT, THREAD_INTERRUPT -> assertEquals(JsInterruptedException.class, t.getClass(), String.valueOf(t));
                case CLOSE -> assertTrue(t instanceof JsInterruptedException
                        || (t instanceof IllegalStateException && "runtime closed".equals(t.getMessage())), String.valueOf(t));
            }
            if (stop == Stop.THREAD_INTERRUPT)
                assertFalse(caller.isInterrupted(), "the stop consumed the thread's interrupt flag");
            if (stop == Stop.CLOSE) {
                assertTrue(rt.isClosed());
                assertThrows(IllegalStateException.class, () -> rt.eval("1"));
                try (JsRuntime fresh = JsRuntime.create()) {
                    assertEquals(2, fresh.eval("1 + 1"));
                }
                return;
            }
            // the runtime works, and nothing of the stopped script runs on: its
            // promise jobs were dropped with it, its loop ended, its workers
            // ended (the loop, run again, has nothing left to wait for)
            assertEquals(2, rt.eval("1 + 1"));
            if (worker) {
                Thread again = new Thread(() -> {
                    try {
                        rt.runLoop();
                    } catch (RuntimeException e) {
                        // the worker's error event, if it came now
                    }
                }, "battery-loop");
                again.start();
                again.join(BOUND_MS + 5000);
                assertFalse(again.isAlive(), "the worker was stopped with its parent's script");
                assertEquals(true, rt.eval("exited"), "the worker exited");
            }
            Object n1 = rt.eval("n");
            Thread.sleep(30);
            rt.eval("1");           // a checkpoint: jobs still queued would run here
            assertEquals(n1, rt.eval("n"), "the stopped script does not go on");
        } finally {
            closeBounded(rt);
        }
    }

    /** close() that fails the case instead of hanging it (a stop that did not hold keeps close() waiting). */
    private static void closeBounded(JsRuntime rt) throws InterruptedException {
        Thread closer = new Thread(rt::close, "battery-close");
        closer.setDaemon(true);
        closer.start();
        closer.join(BOUND_MS + 5000);
        assertFalse(closer.isAlive(), "close() returned");
    }
}

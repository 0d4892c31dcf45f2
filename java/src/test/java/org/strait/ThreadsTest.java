package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Calls into one runtime from many Java threads. */
class ThreadsTest extends RuntimeTestBase {

    @Test
    @Timeout(120)
    void fiveThreadsTimesHundredThousandCalls() throws Exception {
        rt.eval("var count = 0; var perThread = {};"
                + "function tick(t) { count++; perThread[t] = (perThread[t] || 0) + 1; return count; }");
        JsFunction tick = (JsFunction) rt.getGlobal("tick");
        int threads = 5, calls = 100_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> fs = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            final int id = t;
            fs.add(pool.submit(() -> {
                start.await();
                int last = 0;
                for (int i = 0; i < calls; i++) {
                    int c = (Integer) tick.call(id);
                    assertTrue(c > last, "count went backwards");
                    last = c;
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : fs) f.get();
        pool.shutdown();
        assertEquals(threads * calls, rt.eval("count"));
        for (int t = 0; t < threads; t++) assertEquals(calls, rt.eval("perThread[" + t + "]"));
    }

    @Test
    @Timeout(60)
    @SuppressWarnings("unchecked")
    void nestedCallsOnOneThreadDoNotWaitForThemselves() throws Exception {
        // JS -> Java -> JS -> Java ... ten levels deep on one thread, while another thread
        // keeps calling into the same runtime.
        JsFunction outer = (JsFunction) rt.eval("(function (cb, n) { return cb.apply(n); })");
        JsFunction other = (JsFunction) rt.eval("(function () { return 1; })");
        java.util.function.Function<Object, Object>[] cb = new java.util.function.Function[1];
        cb[0] = n -> (Integer) n <= 0 ? 0 : 1 + (Integer) outer.call(cb[0], (Integer) n - 1);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread hammer = new Thread(() -> {
            while (!stop.get()) other.call();
        });
        hammer.start();
        try {
            for (int i = 0; i < 200; i++) assertEquals(10, outer.call(cb[0], 10));
        } finally {
            stop.set(true);
            hammer.join();
        }
    }

    @Test
    @Timeout(60)
    void interruptedWhileWaitingForTheRuntime() throws Exception {
        JsFunction quick = (JsFunction) rt.eval("(function () { return 2; })");
        assertWaiterIsInterruptible(quick::call);
        assertEquals(2, quick.call());
    }

    @Test
    @Timeout(60)
    void interruptedEvalWhileWaitingForTheRuntime() throws Exception {
        assertWaiterIsInterruptible(() -> rt.eval("2"));
        assertEquals(2, rt.eval("2"));
    }

    /* Runs `call` on a thread that must wait at the gate while another thread
     * spins in JS for 1.5 s, interrupts it, and checks that it stopped waiting
     * with JsInterruptedException instead of blocking until the spin ended. */
    private void assertWaiterIsInterruptible(Runnable call) throws Exception {
        JsFunction spin = (JsFunction) rt.eval(
                "(function (ms) { var end = Date.now() + ms; while (Date.now() < end); return 1; })");
        CountDownLatch inside = new CountDownLatch(1);
        Thread hog = new Thread(() -> {
            inside.countDown();
            spin.call(1500);
        });
        hog.start();
        inside.await();
        Thread.sleep(200);
        AtomicReference<Throwable> got = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable t) {
                got.set(t);
            }
        });
        waiter.start();
        Thread.sleep(200);
        waiter.interrupt();
        waiter.join(5000);
        assertFalse(waiter.isAlive(), "the interrupted waiter is still blocked");
        assertTrue(got.get() instanceof JsInterruptedException, String.valueOf(got.get()));
        hog.join();
    }
}

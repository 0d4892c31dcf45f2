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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Calls into one runtime from many Java threads. */
class ThreadsTest {
    private JsRuntime rt;

    @BeforeEach
    void open() {
        rt = JsRuntime.create();
    }

    @AfterEach
    void close() {
        rt.close();
    }

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
    void nestedCallFromInsideSkipsTheGate() {
        // JS calls a Java Runnable (implemented in Java), which calls back into JS on the
        // same thread: it must not wait for itself.
        JsFunction inner = (JsFunction) rt.eval("(function (x) { return x * 2; })");
        JsFunction outer = (JsFunction) rt.eval("(function (cb) { return cb.invoke('run') ; })");
        assertNotNull(outer);
        rt.post(() -> assertEquals(42, inner.call(21)));
        rt.runLoop();
        assertEquals(42, inner.call(21));
    }

    @Test
    @Timeout(60)
    void interruptedWhileWaitingForTheRuntime() throws Exception {
        JsFunction spin = (JsFunction) rt.eval(
                "(function (ms) { var end = Date.now() + ms; while (Date.now() < end); return 1; })");
        JsFunction quick = (JsFunction) rt.eval("(function () { return 2; })");
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
                quick.call();
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
        assertEquals(2, quick.call());
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Threads that are inside Java calls made from JS at the same time, on one
 * runtime, and return out of order. JSC gives its lock back to such threads
 * newest first; the gate must follow that order or the threads deadlock
 * (one holds the gate and waits in JSC for the other, which waits for the
 * gate). Needs the Java bridge (java.*).
 */
class GateOrderTest {
    @Test
    void javaCallsFromJsReturningOutOfOrderDoNotDeadlock() throws Exception {
        // Not closed on a deadlock: close() would wait for the stuck calls.
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        {
            for (int round = 0; round < 20; round++) {
                rt.eval("var latch = new java.util.concurrent.CountDownLatch(2);");
                AtomicReference<Object> a = new AtomicReference<>();
                AtomicReference<Object> b = new AtomicReference<>();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                // A's await returns first; B then stays in Java (sleep) while A wants back in.
                Thread ta = daemon(() -> a.set(rt.eval("latch.countDown(); latch.await(); 'A'")), failure);
                Thread tb = daemon(() -> b.set(rt.eval(
                        "latch.countDown(); latch.await(); java.lang.Thread.sleep(20); 'B'")), failure);
                ta.start();
                tb.start();
                ta.join(10000);
                tb.join(10000);
                assertFalse(ta.isAlive() || tb.isAlive(), "deadlock in round " + round);
                if (failure.get() != null) throw new AssertionError(failure.get());
                assertEquals("A", a.get());
                assertEquals("B", b.get());
            }
        }
        rt.close();
    }

    @Test
    void manyThreadsInAndOutOfJavaCallsFromJs() throws Exception {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        {
            rt.eval("function work(k) { let s = 0; for (let i = 0; i < 200; i++) {"
                    + " s += new java.lang.StringBuilder('x' + k).length(); if (i % 50 === 0) java.lang.Thread.yield(); }"
                    + " return s; }");
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                final int k = t;
                ts.add(daemon(() -> {
                    for (int r = 0; r < 30; r++) {
                        Object v = rt.eval("work(" + k + ")");
                        int expect = 200 * ("x" + k).length();
                        if (!Integer.valueOf(expect).equals(v)) throw new AssertionError("got " + v);
                    }
                }, failure));
            }
            for (Thread t : ts) t.start();
            long deadline = System.currentTimeMillis() + 30000;
            for (Thread t : ts) t.join(Math.max(1, deadline - System.currentTimeMillis()));
            for (Thread t : ts) assertFalse(t.isAlive(), "deadlock");
            if (failure.get() != null) throw new AssertionError(failure.get());
        }
        rt.close();
    }

    private static Thread daemon(Runnable r, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        });
        t.setDaemon(true);
        return t;
    }
}

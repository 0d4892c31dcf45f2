package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The event loop driven from Java: runLoop, post, callAsync, errors, idle cost. */
class LoopTest extends RuntimeTestBase {

    @Test
    @Timeout(30)
    void timersRunInOrderAndTheLoopEnds() {
        rt.eval("var log = [];"
                + "setTimeout(() => log.push('b'), 20);"
                + "setTimeout(() => log.push('a'), 5);"
                + "var n = 0; var iv = setInterval(() => { if (++n === 3) clearInterval(iv); log.push('i' + n); }, 1);"
                + "Promise.resolve().then(() => log.push('micro'));"
                + "queueMicrotask(() => log.push('qm'));");
        rt.runLoop();
        JsArray log = (JsArray) rt.getGlobal("log");
        List<Object> l = log.toList();
        assertEquals("micro", l.get(0));
        assertEquals("qm", l.get(1));
        assertTrue(l.indexOf("a") < l.indexOf("b"), l.toString());
        assertTrue(l.contains("i3"), l.toString());
    }

    @Test
    @Timeout(30)
    void postFromAnotherThreadWakesAnIdleLoop() throws Exception {
        AutoCloseable keep = rt.keepAlive();
        AtomicReference<Throwable> err = new AtomicReference<>();
        Thread loop = new Thread(() -> {
            try {
                rt.runLoop();
            } catch (Throwable t) {
                err.set(t);
            }
        });
        loop.start();
        Thread.sleep(100);
        CountDownLatch ran = new CountDownLatch(1);
        long t0 = System.nanoTime();
        rt.post(() -> {
            rt.eval("globalThis.fromPost = 1");
            ran.countDown();
        });
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 1000, "the post took " + ms + " ms to run");
        assertEquals(1, rt.eval("fromPost"));
        keep.close();
        loop.join(5000);
        assertFalse(loop.isAlive(), "the loop did not end after keepAlive was closed");
        assertNull(err.get());
    }

    @Test
    @Timeout(30)
    void idleLoopBurnsNoCpu() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        AutoCloseable keep = rt.keepAlive();
        AtomicLong cpu = new AtomicLong(-1);
        CountDownLatch started = new CountDownLatch(1);
        Thread loop = new Thread(() -> {
            started.countDown();
            rt.runLoop();
        });
        loop.start();
        started.await();
        Thread.sleep(200);
        long c0 = mx.getThreadCpuTime(loop.getId());
        Thread.sleep(1000);
        long c1 = mx.getThreadCpuTime(loop.getId());
        cpu.set(c1 - c0);
        keep.close();
        loop.join(5000);
        assertTrue(cpu.get() < 50_000_000L, "idle loop used " + cpu.get() / 1e6 + " ms CPU in 1 s");
    }

    @Test
    @Timeout(30)
    void callAsyncCompletesWithResultOrSettledPromise() throws Exception {
        JsFunction f = (JsFunction) rt.eval("(function (x) { return x + 1; })");
        JsFunction p = (JsFunction) rt.eval(
                "(function (x) { return new Promise(r => setTimeout(() => r(x * 10), 5)); })");
        JsFunction bad = (JsFunction) rt.eval("(function () { throw new TypeError('async bad'); })");
        CompletableFuture<Object> a = f.callAsync(1);
        CompletableFuture<Object> b = p.callAsync(4);
        CompletableFuture<Object> c = bad.callAsync();
        assertFalse(a.isDone(), "callAsync ran before the loop");
        rt.runLoop();
        assertEquals(2, a.get(5, TimeUnit.SECONDS));
        assertEquals(40, b.get(5, TimeUnit.SECONDS));
        Exception e = assertThrows(Exception.class, () -> c.get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof JsException);
    }

    @Test
    @Timeout(30)
    void timerErrorIsReportedWithFileLineAndStack() {
        rt.eval("function boom() {\n  throw new RangeError('timer failed');\n}\nsetTimeout(boom, 1);",
                "timer.js");
        JsException e = assertThrows(JsException.class, rt::runLoop);
        assertEquals("RangeError: timer failed", e.getMessage());
        assertEquals("timer.js", e.getFileName());
        assertEquals(2, e.getLineNumber());
        assertTrue(e.getJsStack().contains("boom"), e.getJsStack());
        assertEquals(3, rt.eval("1 + 2"));
    }

    @Test
    @Timeout(30)
    void unhandledRejectionIsReported() {
        rt.eval("Promise.reject(new Error('nobody caught me'));\nsetTimeout(() => {}, 1);", "rej.js");
        JsException e = assertThrows(JsException.class, rt::runLoop);
        assertEquals("Error: nobody caught me", e.getMessage());
        assertEquals("rej.js", e.getFileName());
    }

    @Test
    @Timeout(30)
    void postedRunnableExceptionStopsTheLoopAndComesOutAsItself() {
        IllegalStateException boom = new IllegalStateException("posted task failed");
        rt.post(() -> {
            throw boom;
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, rt::runLoop);
        assertSame(boom, e);
    }

    @Test
    @Timeout(60)
    void javaCallbackWaitingForAnotherThreadThatCallsJsDoesNotDeadlock() throws Exception {
        // The loop thread runs a Java task (the runtime is released meanwhile); the task
        // waits for another thread that calls into the same runtime.
        JsFunction f = (JsFunction) rt.eval("(function (x) { return x * 3; })");
        ExecutorService other = Executors.newSingleThreadExecutor();
        AtomicReference<Object> got = new AtomicReference<>();
        rt.post(() -> {
            Future<Object> r = other.submit(() -> f.call(14));
            try {
                got.set(r.get(10, TimeUnit.SECONDS));
            } catch (Exception e) {
                got.set(e);
            }
        });
        rt.runLoop();
        other.shutdown();
        assertEquals(42, got.get());
    }

    @Test
    @Timeout(60)
    void promiseReactionWaitingForAnotherThreadDoesNotDeadlock() throws Exception {
        // A future completion handler (Java, run from a promise reaction) calls JS on another
        // thread and waits for it.
        JsFunction f = (JsFunction) rt.eval("(function (x) { return x + 1; })");
        ExecutorService other = Executors.newSingleThreadExecutor();
        List<Object> seen = new ArrayList<>();
        JsPromise p = (JsPromise) rt.eval("Promise.resolve(1)");
        p.toFuture().thenAccept(v -> {
            try {
                seen.add(other.submit(() -> f.call(v)).get(10, TimeUnit.SECONDS));
            } catch (Exception e) {
                seen.add(e);
            }
        });
        rt.eval("0");
        other.shutdown();
        assertEquals(List.of(2), seen);
    }
}

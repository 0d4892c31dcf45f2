package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.strait.testing.TestNatives;

/** Closing a runtime invalidates everything bound to it, safely, from any thread. */
class TeardownTest {
    @Test
    void everyHandleKindThrowsAfterClose() {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        JsFunction f = (JsFunction) rt.eval("(function () { return 1; })");
        JsObject o = (JsObject) rt.eval("({a: 1})");
        JsArray a = (JsArray) rt.eval("[1]");
        JsPromise p = (JsPromise) rt.eval("new Promise(() => {})");
        Runnable r = ((JsObject) rt.eval("({ run() {} })")).as(Runnable.class);
        rt.close();
        for (Runnable use : List.<Runnable>of(f::call, () -> f.callAsync(), () -> o.get("a"),
                () -> o.set("a", 2), o::keys, a::size, p::toFuture, r, () -> rt.getGlobal("x"),
                () -> rt.post(() -> {}), rt::runLoop)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, use::run);
            assertEquals("runtime closed", e.getMessage());
        }
        f.close();
        o.close();
    }

    @Test
    @Timeout(60)
    void closeWhileOtherThreadsHammerTheRuntime() throws Exception {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        rt.eval("var n = 0; function inc() { return ++n; }");
        JsFunction inc = (JsFunction) rt.getGlobal("inc");
        Runnable r = ((JsObject) rt.eval("({ run() { n++; } })")).as(Runnable.class);
        int threads = 4;
        CountDownLatch started = new CountDownLatch(threads);
        AtomicInteger closedSeen = new AtomicInteger();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final boolean useProxy = t % 2 == 0;
            Thread th = new Thread(() -> {
                started.countDown();
                try {
                    for (;;) {
                        if (useProxy) r.run();
                        else inc.call();
                    }
                } catch (IllegalStateException e) {
                    if ("runtime closed".equals(e.getMessage())) closedSeen.incrementAndGet();
                    else unexpected.set(e);
                } catch (Throwable e) {
                    unexpected.set(e);
                }
            });
            ts.add(th);
            th.start();
        }
        started.await();
        Thread.sleep(300);
        rt.close();
        for (Thread th : ts) th.join(10_000);
        assertNull(unexpected.get());
        assertEquals(threads, closedSeen.get());
    }

    @Test
    @Timeout(60)
    void cleanerRunningAfterCloseTouchesNothing() throws Exception {
        for (int round = 0; round < 3; round++) {
            JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
            JsFunction mk = (JsFunction) rt.eval("(function (i) { return {i: i}; })");
            for (int i = 0; i < 20_000; i++) mk.call(i);
            rt.close();
            for (int i = 0; i < 5; i++) {
                System.gc();
                Thread.sleep(20);
            }
        }
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertEquals(2, rt.eval("1 + 1"));
        }
    }

    @Test
    @Timeout(60)
    void forgottenHandlesAreReleasedByTheNextCall() throws Exception {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            JsFunction mk = (JsFunction) rt.eval("(function (i) { return {i: i}; })");
            for (int i = 0; i < 50_000; i++) mk.call(i);
            System.gc();
            Thread.sleep(100);
            for (int i = 0; i < 1000; i++) assertEquals(3, mk.call(3) instanceof JsObject ? 3 : 0);
        }
    }

    @Test
    @Timeout(60)
    void closeStopsACallInProgressAndWaitsForIt() throws Exception {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        JsFunction spin = (JsFunction) rt.eval(
                "(function (ms) { var end = Date.now() + ms; while (Date.now() < end); return 'done'; })");
        AtomicReference<Object> result = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            go.countDown();
            try {
                result.set(spin.call(60_000));
            } catch (Throwable e) {
                result.set(e);
            }
        });
        t.start();
        go.await();
        Thread.sleep(100);
        long start = System.nanoTime();
        rt.close();
        long ms = (System.nanoTime() - start) / 1_000_000;
        t.join();
        assertTrue(result.get() instanceof JsInterruptedException, () -> "got " + result.get());
        assertTrue(ms < 5_000, "close() took " + ms + " ms");
        assertTrue(rt.isClosed());
    }

    @Test
    @Timeout(60)
    void closeFromAPostedTaskStopsTheLoop() {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        rt.keepAlive();
        rt.eval("setInterval(() => {}, 5)");
        rt.post(rt::close);
        rt.runLoop();
        assertTrue(rt.isClosed());
    }

    @Test
    @Timeout(60)
    void closeFromAnotherThreadStopsARunningLoop() throws Exception {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        rt.keepAlive();
        rt.eval("setInterval(() => {}, 5)");
        Thread loop = new Thread(rt::runLoop);
        loop.start();
        Thread.sleep(100);
        rt.close();
        loop.join(5000);
        assertFalse(loop.isAlive());
    }

    @Test
    @Timeout(60)
    void postedTasksThatNeverRanAreDropped() {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 100; i++) rt.post(ran::incrementAndGet);
        rt.close();
        assertEquals(0, ran.get());
    }

    /** Lets the GC find unreachable runtimes until at most `target` live engines remain. */
    private static long gcUntilLive(long target, long timeoutMs) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMs;
        long live = TestNatives.probeLiveRuntimes();
        while (live > target && System.currentTimeMillis() < end) {
            System.gc();
            Thread.sleep(20);
            live = TestNatives.probeLiveRuntimes();
        }
        return live;
    }

    /** Creates a runtime that is used (a handle, a Java object in JS) and then forgotten. */
    private static void createAndForget(int i) {
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        JsFunction f = (JsFunction) rt.eval("(function (x, o) { globalThis.keep = o; return x + 1; })");
        assertEquals(i + 1, f.call(i, new Object()));
    }

    @Test
    @Tag(TestNatives.TAG)
    @Timeout(120)
    void forgottenRuntimesAreFreedByTheCleaner() throws Exception {
        gcUntilLive(0, 2000);
        long before = TestNatives.probeLiveRuntimes();
        int n = 40;
        for (int i = 0; i < n; i++) createAndForget(i);
        assertTrue(TestNatives.probeLiveRuntimes() > before, "the runtimes were counted while alive");
        long live = gcUntilLive(before, 60_000);
        assertEquals(before, live, "every forgotten runtime's engine was freed");
    }

    @Test
    @Timeout(120)
    void aReachableHandleKeepsItsForgottenRuntime() throws Exception {
        JsFunction f = (JsFunction) JsRuntime.newBuilder().allowAllAccess(true).build().eval("(function (x) { return x * 2; })");
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertFalse(f.runtime().isClosed());
        assertEquals(42, f.call(21));
        f.runtime().close();
    }

    @Test
    @Tag(TestNatives.TAG)
    @Timeout(120)
    void aClosedRuntimeIsFreedOnceAndTheCleanerTouchesNothing() throws Exception {
        gcUntilLive(0, 2000);
        long before = TestNatives.probeLiveRuntimes();
        for (int i = 0; i < 10; i++) {
            JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
            JsObject o = (JsObject) rt.eval("({a: 1})");
            rt.close();
            assertThrows(IllegalStateException.class, () -> o.get("a"));
        }
        assertEquals(before, TestNatives.probeLiveRuntimes(), "close() freed each engine at once");
        gcUntilLive(-1, 500);
        assertEquals(before, TestNatives.probeLiveRuntimes(), "the Cleaner freed nothing twice");
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            assertEquals(2, rt.eval("1 + 1"));
        }
    }
}

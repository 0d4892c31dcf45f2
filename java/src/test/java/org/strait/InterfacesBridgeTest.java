package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Interfaces and exceptions across Java -> JS -> Java (with the JS -> Java bridge). */
class InterfacesBridgeTest extends RuntimeTestBase {

    @Test
    void javaExceptionThroughJsFramesComesOutAsTheOriginal() {
        JsFunction f = (JsFunction) rt.eval("(function () { return java.lang.Integer.parseInt('zz'); })");
        NumberFormatException e = assertThrows(NumberFormatException.class, f::call);
        assertTrue(e.getMessage().contains("zz"), e.getMessage());
        IllegalStateException mine = new IllegalStateException("mine");
        JsFunction g = (JsFunction) rt.eval("(function (r) { r.run(); })");
        Runnable thrower = () -> {
            throw mine;
        };
        IllegalStateException got = assertThrows(IllegalStateException.class, () -> g.call(thrower));
        assertSame(mine, got);
    }

    @Test
    void jsErrorThroughJavaFramesIsTheSameObject() {
        Object r = rt.eval("var err = new TypeError('x');"
                + "var s = new java.util.function.Supplier({ get() { throw err; } });"
                + "var same; try { s.get(); } catch (e) { same = e === err; } same");
        assertEquals(true, r);
    }

    @Test
    void jsObjectImplementsInterfaceAndJavaGetsTheProxy() throws Exception {
        Object o = rt.eval("new java.util.concurrent.Callable({ call() { return 'from JS'; } })");
        assertTrue(o instanceof Callable, String.valueOf(o));
        assertEquals("from JS", ((Callable<?>) o).call());
    }

    @Test
    @Timeout(60)
    void jsWaitingInJavaForAThreadThatCallsJs() {
        Object r = rt.eval("var pool = java.util.concurrent.Executors.newFixedThreadPool(2);"
                + "var futs = [];"
                + "for (var i = 0; i < 10; i++) { (function (k) {"
                + "  futs.push(pool.submit(new java.util.concurrent.Callable({ call() { return k * k; } })));"
                + "})(i); }"
                + "var sum = 0; futs.forEach(f => sum += f.get()); pool.shutdown(); sum");
        assertEquals(285, r);
    }

    @Test
    @Timeout(120)
    void fiveThreadsCallAJsRunnable() throws Exception {
        rt.eval("var hits = 0;");
        Runnable r = (Runnable) rt.eval("new java.lang.Runnable({ run() { hits++; } })");
        ExecutorService pool = Executors.newFixedThreadPool(5);
        List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < 5; t++)
            fs.add(pool.submit(() -> {
                for (int i = 0; i < 100_000; i++) r.run();
            }));
        for (java.util.concurrent.Future<?> f : fs) f.get();
        pool.shutdown();
        assertEquals(500_000, rt.eval("hits"));
    }
}

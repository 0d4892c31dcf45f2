package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Evaluation results, conversions and the lifetime of a JsRuntime. */
class JsRuntimeTest extends RuntimeTestBase {

    @Test
    void undefinedAndNullBecomeNull() {
        assertNull(rt.eval("undefined"));
        assertNull(rt.eval("null"));
        assertNull(rt.eval("var x = 1;"));
    }

    @Test
    void booleans() {
        assertEquals(Boolean.TRUE, rt.eval("1 < 2"));
        assertEquals(Boolean.FALSE, rt.eval("1 > 2"));
    }

    @Test
    void int32NumbersBecomeInteger() {
        assertEquals(Integer.valueOf(3), rt.eval("1 + 2"));
        assertEquals(Integer.valueOf(-7), rt.eval("-7"));
        assertEquals(Integer.valueOf(Integer.MAX_VALUE), rt.eval("2147483647"));
        assertEquals(Integer.valueOf(Integer.MIN_VALUE), rt.eval("-2147483648"));
        assertEquals(Integer.valueOf(0), rt.eval("0"));
    }

    @Test
    void otherNumbersBecomeDouble() {
        assertEquals(Double.valueOf(1.5), rt.eval("1.5"));
        assertEquals(Double.valueOf(2147483648.0), rt.eval("2147483647 + 1"));
        assertEquals(Double.valueOf(-2147483649.0), rt.eval("-2147483649"));
        Object negZero = rt.eval("-0");
        assertTrue(negZero instanceof Double, "-0 is a Double, got " + negZero);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) negZero));
        assertTrue(((Double) rt.eval("NaN")).isNaN());
        assertEquals(Double.POSITIVE_INFINITY, rt.eval("Infinity"));
        assertEquals(Double.valueOf(1e300), rt.eval("1e300"));
    }

    @Test
    void strings() {
        assertEquals("hello", rt.eval("'hel' + 'lo'"));
        assertEquals("", rt.eval("''"));
        assertEquals("héllo wörld", rt.eval("'h\\u00e9llo w\\u00f6rld'"));
    }

    @Test
    void stringsRoundTripExactly() {
        String[] samples = {
            "a\u0000b",                       // NUL inside
            "\u0000",
            "emoji \uD83D\uDE00 and \uD83C\uDF89", // supplementary characters
            "lone high \uD800 end",
            "lone low \uDC00 end",
            "\uDBFF",                          // lone surrogate alone
            "\uDC00\uD800",                    // reversed pair stays two lone units
            "\uFFFF\uFFFE",
        };
        for (String s : samples) {
            Object back = rt.eval("(" + jsLiteral(s) + ")");
            assertEquals(s, back, "literal round trip of " + escape(s));
            assertEquals(Integer.valueOf(s.length()), rt.eval(jsLiteral(s) + ".length"));
        }
    }

    @Test
    void sourceWithRawNonAsciiAndNul() {
        // The source itself carries the characters (no escapes): it crosses as UTF-16.
        assertEquals("\uD83D\uDE00", rt.eval("'\uD83D\uDE00'"));
        assertEquals(Integer.valueOf(2), rt.eval("'\uD83D\uDE00'.length"));
        assertEquals("\uD800", rt.eval("'\uD800'"));
        assertEquals(Integer.valueOf(0xD800), rt.eval("'\uD800'.charCodeAt(0)"));
        assertEquals(Integer.valueOf(3), rt.eval("'a\u0000b'.length"));
    }

    @Test
    void objectsBecomeJsValue() {
        Object o = rt.eval("({ toString() { return 'custom'; } })");
        assertTrue(o instanceof JsValue, "got " + o);
        JsValue v = (JsValue) o;
        assertEquals("object", v.typeOf());
        assertEquals("custom", v.stringValue());
        assertSame(rt, v.runtime());
        v.close();
        assertTrue(v.isReleased());
        v.close(); // idempotent
        IllegalStateException e = assertThrows(IllegalStateException.class, v::typeOf);
        assertEquals("value released: the JsObject was closed", e.getMessage());
    }

    @Test
    void functionsArraysAndSymbolsBecomeJsValue() {
        JsValue f = (JsValue) rt.eval("(function add(a, b) { return a + b; })");
        assertEquals("function", f.typeOf());
        JsValue a = (JsValue) rt.eval("[1, 2, 3]");
        assertEquals("1,2,3", a.stringValue());
        JsValue s = (JsValue) rt.eval("Symbol('x')");
        assertEquals("symbol", s.typeOf());
        f.close();
        a.close();
        s.close();
    }

    @Test
    void jsValueStaysAliveAcrossGc() {
        JsValue v = (JsValue) rt.eval("({ tag: 'kept' + 1 })");
        rt.eval("for (let i = 0; i < 200000; i++) ({ garbage: i }); if (globalThis.gc) gc();");
        assertEquals("[object Object]", v.stringValue());
        v.close();
    }

    @Test
    void unreachableJsValuesAreReleased() throws Exception {
        for (int i = 0; i < 20000; i++) rt.eval("({ n: " + i + " })");
        System.gc();
        Thread.sleep(50);
        assertEquals(Integer.valueOf(1), rt.eval("1")); // drains the release queue
    }

    @Test
    void jsValueUseAfterRuntimeCloseThrows() {
        JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
        JsValue v = (JsValue) other.eval("({})");
        other.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, v::typeOf);
        assertEquals("runtime closed", e.getMessage());
        assertTrue(v.isReleased());
        v.close(); // no-op after the runtime closed
    }

    @Test
    void closeIsIdempotent() {
        JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
        assertFalse(other.isClosed());
        other.close();
        other.close();
        assertTrue(other.isClosed());
    }

    @Test
    void useAfterCloseThrows() {
        JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
        other.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> other.eval("1"));
        assertEquals("runtime closed", e.getMessage());
    }

    @Test
    void twoRuntimesAreIndependent() {
        try (JsRuntime a = JsRuntime.newBuilder().allowAllAccess(true).build(); JsRuntime b = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            a.eval("var shared = 'a';");
            b.eval("var shared = 'b';");
            assertEquals("a", a.eval("shared"));
            assertEquals("b", b.eval("shared"));
            assertEquals("undefined", a.eval("typeof onlyInB"));
            b.eval("var onlyInB = 1;");
            assertEquals("undefined", a.eval("typeof onlyInB"));
            a.close();
            assertEquals("b", b.eval("shared"));
        }
    }

    @Test
    void nullSourceIsRejected() {
        assertThrows(NullPointerException.class, () -> rt.eval(null));
    }

    @Test
    void nullFileNameIsAllowed() {
        assertEquals(Integer.valueOf(2), rt.eval("1 + 1", null));
    }

    @Test
    void largeSource() {
        StringBuilder sb = new StringBuilder("var s = 0;");
        for (int i = 0; i < 5000; i++) sb.append("s += ").append(i).append(";\n");
        sb.append("s");
        assertEquals(Integer.valueOf(5000 * 4999 / 2), rt.eval(sb.toString()));
    }

    @Test
    void evalFromSeveralThreadsAtOnce() throws Exception {
        rt.eval("function work(k) { let s = 0; for (let i = 0; i < 1000; i++) s += k; return s; }");
        int threads = 6;
        int rounds = 300;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int k = t + 1;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        Object v = rt.eval("work(" + k + ")");
                        if (!Integer.valueOf(1000 * k).equals(v))
                            throw new AssertionError("thread " + k + " got " + v);
                        String s = (String) rt.eval("'t" + k + "-' + " + r);
                        if (!s.equals("t" + k + "-" + r)) throw new AssertionError("got " + s);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            ts.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : ts) th.join();
        if (failure.get() != null) throw new AssertionError(failure.get());
    }

    @Test
    void closeStopsEvalOnAnotherThreadAndWaitsForIt() throws Exception {
        JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
        CountDownLatch inside = new CountDownLatch(1);
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(() -> {
            inside.countDown();
            try {
                result.set(other.eval("let s = 0; for (let i = 0; i < 3e9; i++) s += 1; s"));
            } catch (Throwable e) {
                result.set(e);
            }
        });
        t.start();
        inside.await();
        while (other.inFlight() == 0) Thread.onSpinWait();   // the eval has begun
        other.close();   // terminates the eval, then waits for it: never frees under it
        t.join();
        assertTrue(result.get() instanceof JsInterruptedException, () -> "got " + result.get());
        assertThrows(IllegalStateException.class, () -> other.eval("1"));
    }

    @Test
    void closeRacingManyThreads() throws Exception {
        for (int round = 0; round < 20; round++) {
            JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
            List<Thread> ts = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int i = 0; i < 4; i++) {
                Thread th = new Thread(() -> {
                    try {
                        for (int k = 0; k < 1000; k++) {
                            Object v = other.eval("1 + " + k);
                            if (!Integer.valueOf(1 + k).equals(v)) throw new AssertionError("got " + v);
                        }
                    } catch (IllegalStateException e) {
                        if (!"runtime closed".equals(e.getMessage())) failure.compareAndSet(null, e);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                ts.add(th);
                th.start();
            }
            Thread.sleep(round % 5);
            other.close();
            for (Thread th : ts) th.join();
            if (failure.get() != null) throw new AssertionError(failure.get());
        }
    }

    @Test
    void processExitDoesNotEndTheJvm() {
        JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
        try {
            JsExitException e = assertThrows(JsExitException.class,
                    () -> other.eval("process.exit(3); 'not reached'"));
            assertEquals(3, e.getExitCode());
        } finally {
            other.close();
        }
    }

    static String jsLiteral(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) sb.append(String.format("\\u%04x", (int) c));
        return sb.append('"').toString();
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) sb.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : c);
        return sb.toString();
    }

    @Test
    void versionComesFromTheJar() {
        String v = JsRuntime.version();
        assertNotNull(v, "Implementation-Version of strait.jar");
        assertTrue(v.matches("\\d+\\.\\d+\\.\\d+.*"), v);
        String expected = System.getProperty("strait.test.version");
        if (expected != null) assertEquals(expected, v);
    }

    @Test
    void productRuntimeHasNoBenchmarkHooks() {
        assertEquals("object", rt.eval("typeof Java"));
        assertEquals("undefined", rt.eval("typeof Java.__bench"));
    }

    @Test
    void jsCannotNameStraitInternals() {
        assertEquals(Boolean.TRUE, rt.eval("(() => { try { Java.type('org.strait.internal.Natives'); return false; }"
                + " catch (e) { return true; } })()"));
        assertEquals("function", rt.eval("typeof Java.type('org.strait.JsRuntime').create"));
    }
}

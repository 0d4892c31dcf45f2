package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One thread inside several runtimes at once: runtime A's JS calls a Java
 * method that evaluates in runtime B, whose JS calls back into A, and so
 * on along a path of runtimes. The gate keeps one suspension record per
 * Java call made from JS; each thread must find its own newest one on
 * each runtime. Paths come from a seeded generator. Needs the Java bridge.
 */
class ReentryTest {
    private static final String NAMES = "ABC";

    /** The Java side of a hop: evaluates the next step of a path in its runtime. */
    public static class Crossing {
        final List<JsRuntime> rts = new ArrayList<>();

        /** Runs hop(path, k) in the runtime named path[k]; returns the names it went through. */
        public String into(String path, int k) {
            JsRuntime rt = rts.get(NAMES.indexOf(path.charAt(k)));
            return (String) rt.eval("NAME + hop('" + path + "', " + k + ")");
        }
    }

    private static final String HOP = "globalThis.hop = (path, k) => k + 1 >= path.length ? '' : X.into(path, k + 1);";

    private final Crossing x = new Crossing();

    @BeforeEach
    void setUp() {
        for (int i = 0; i < 3; i++) {
            JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
            rt.setGlobal("X", x);
            rt.eval("globalThis.NAME = '" + NAMES.charAt(i) + "'; " + HOP);
            x.rts.add(rt);
        }
    }

    @AfterEach
    void tearDown() {
        for (JsRuntime rt : x.rts) rt.close();
    }

    /** Mostly back where it came from (A -> B -> A), else any of the first n runtimes. */
    static String genPath(long seed, int len, int n) {
        long s = seed;
        StringBuilder p = new StringBuilder();
        for (int k = 0; k < len; k++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            int r = (int) ((s >>> 33) % 4);
            s = s * 6364136223846793005L + 1442695040888963407L;
            int any = (int) ((s >>> 33) % n);
            p.append(r < 2 && k >= 2 ? p.charAt(k - 2) : k == 0 ? 'A' : NAMES.charAt(any));
        }
        return p.toString();
    }

    @Test
    void aToBToAAtDepthTwo() {
        assertEquals("ABA", x.into("ABA", 0));
        assertEquals("BAB", x.into("BAB", 0));
    }

    @Test
    void aToBAndBackFiftyDeep() {
        String p = "AB".repeat(25) + "A";
        assertEquals(p, x.into(p, 0));
    }

    @Test
    void generatedPathsOverTwoAndThreeRuntimes() {
        for (int seed = 1; seed <= 30; seed++) {
            String p = genPath(seed, 2 + seed * 7 % 60, seed % 2 == 0 ? 2 : 3);
            assertEquals(p, x.into(p, 0), "seed " + seed);
        }
    }

    @Test
    void twoThreadsCrossAtOnce() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            final int id = t;
            ts.add(new Thread(() -> {
                try {
                    for (int round = 0; round < 40; round++) {
                        String p = round % 4 == 0 ? "AB".repeat(25) + "A" : genPath(1000L * id + round, 2 + round % 50, 2);
                        String got = x.into(p, 0);
                        if (!p.equals(got)) throw new AssertionError(p + " gave " + got);
                        // now and then stay in Java long enough for the other thread to take over
                        if (round % 5 == 0) x.rts.get(0).eval("java.lang.Thread.sleep(3)");
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : ts) t.start();
        long deadline = System.currentTimeMillis() + 60000;
        for (Thread t : ts) t.join(Math.max(1, deadline - System.currentTimeMillis()));
        for (Thread t : ts) assertFalse(t.isAlive(), "deadlock");
        if (failure.get() != null) throw new AssertionError(failure.get());
    }

    @Test
    void runtimeCreatedFromAScriptCallsBackIntoTheFirst() {
        JsRuntime a = x.rts.get(0);
        Object r = a.eval("(() => {"
                + " const b = org.strait.JsRuntime.newBuilder().allowAllAccess(true).build();"
                + " try {"
                + "   globalThis.bump = (v) => v + 1;"
                + "   const f = b.eval('(function (g) { return g.apply(41) + 100; })');"
                + "   const deep = b.eval('(function (g, n) { return g.apply(n); })');"
                + "   globalThis.down = new java.util.function.Function({ apply: (n) => n === 0 ? 0 : 1 + deep.call(down, n - 1) });"
                + "   return [f.call(new java.util.function.Function({ apply: (v) => bump(v) })), deep.call(down, 40)].join();"
                + " } finally { b.close(); }"
                + "})()");
        assertEquals("142,40", r);
    }

    /** Runs task on this thread (onNewThread false) or a new default-stack thread; returns what it threw. */
    private static Throwable thrownBy(Runnable task, boolean onNewThread) throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Runnable body = () -> {
            try {
                task.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        };
        if (!onNewThread) {
            body.run();
        } else {
            Thread t = new Thread(body);
            t.start();
            t.join(60000);
            assertFalse(t.isAlive());
        }
        return thrown.get();
    }

    private static void assertStackError(Throwable e) {
        assertNotNull(e, "no error past the stack");
        String all = String.valueOf(e);
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) all += " / " + c;
        assertTrue(e instanceof StackOverflowError || all.contains("Maximum call stack size exceeded")
                || all.contains("StackOverflowError"), all);
    }

    @Test
    void recursionThroughJavaPastTheStackIsACatchableError() throws Exception {
        JsRuntime a = x.rts.get(0);
        a.eval("globalThis.down = (k) => java.util.Optional.of(k + 1).map(down).get();"
                + "globalThis.nest = (n) => n === 0 ? 0 : 1 + java.util.Optional.of(n - 1).map(nest).get();");
        for (boolean onNewThread : new boolean[] {false, true}) {
            assertStackError(thrownBy(() -> a.eval("down(0)"), onNewThread));
            assertEquals(20, a.eval("nest(20)"));
        }
    }

    @Test
    void crossedRecursionPastTheStackIsACatchableError() throws Exception {
        for (boolean onNewThread : new boolean[] {false, true, false}) {
            assertStackError(thrownBy(() -> x.into("A" + "BA".repeat(20000), 0), onNewThread));
            // every runtime still works, on this thread and on the crossing path
            assertEquals("ABCBA", x.into("ABCBA", 0));
            for (JsRuntime rt : x.rts) assertEquals(2, rt.eval("1 + 1"));
        }
    }
}

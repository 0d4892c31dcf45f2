package org.strait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.strait.SandboxTest.assertDenied;
import static org.strait.SandboxTest.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * "No threads" (allowCreateThread(false), the embedded default, the
 * launcher's --deny-threads): JS that a script made for Java (a function
 * passed as an interface, Java.implement, new I({...}), a Java.extend
 * object) runs only on a thread inside the runtime, whatever Java API
 * started the thread that calls it (docs/sandbox.md, Threads). Handles the
 * embedder made stay callable from any thread.
 */
class ThreadConfinementTest {
    /** Runs what a script gives it on threads it starts, as JDK APIs do inside. */
    public static class Service {
        /** The exception the callback threw on the other thread, or null when it returned. */
        public volatile Throwable last;

        public String onNewThread(Runnable r) throws InterruptedException {
            last = null;
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } catch (Throwable e) {
                    last = e;
                }
            }, "confinement-probe");
            t.start();
            t.join(10_000);
            return last == null ? "ran" : "refused";
        }

        public Object onPool(Supplier<Object> s) throws InterruptedException {
            try {
                return CompletableFuture.supplyAsync(s).get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                last = e.getCause();
                return "refused";
            } catch (java.util.concurrent.TimeoutException e) {
                return "timed out";
            }
        }

        public String here(Runnable r) {
            r.run();
            return "ran";
        }

        public Runnable kept;

        public void keep(Runnable r) {
            kept = r;
        }
    }

    static void assertRefusalMessage(Throwable e) {
        assertNotNull(e, "the callback ran on the other thread");
        assertTrue(e instanceof IllegalStateException, String.valueOf(e));
        String m = e.getMessage();
        assertTrue(m.contains("cannot run on thread") && m.contains("threads not allowed")
                && m.contains("allowCreateThread(true)"), m);
    }

    static JsRuntime noThreads(HostAccess a) {
        return runtime(a, a == HostAccess.ALL ? null : n -> true, null, false, true);
    }

    /** Every way a script makes JS for Java, each called from a thread Java started. */
    static final List<String[]> MADE = List.of(
            new String[] {"function as Runnable", "() => { globalThis.ran++ }"},
            new String[] {"Java.implement", "Java.implement(java.lang.Runnable, { run() { globalThis.ran++ } })"},
            new String[] {"new Runnable({...})", "new java.lang.Runnable({ run() { globalThis.ran++ } })"},
            new String[] {"Java.extend object", "new (Java.extend(java.lang.Runnable, { run() { globalThis.ran++ } }))()"});

    @TestFactory
    Stream<DynamicTest> scriptMadeJsRunsOnlyInside() {
        List<DynamicTest> tests = new ArrayList<>();
        for (HostAccess a : List.of(HostAccess.GIVEN, HostAccess.ALL)) {
            for (String[] m : MADE) {
                tests.add(DynamicTest.dynamicTest(a + " / " + m[0] + " / new thread", () -> {
                    try (JsRuntime rt = noThreads(a)) {
                        Service s = new Service();
                        rt.setGlobal("s", s);
                        assertEquals("refused", rt.eval("globalThis.ran = 0; s.onNewThread(" + m[1] + ")"));
                        assertRefusalMessage(s.last);
                        assertTrue(s.last.getMessage().contains("\"confinement-probe\""), s.last.getMessage());
                        assertEquals(0, ((Number) rt.eval("globalThis.ran")).intValue(), "the JS ran");
                        assertEquals("ran", rt.eval("s.here(" + m[1] + ")"));   // on the thread inside: runs
                        assertEquals(1, ((Number) rt.eval("globalThis.ran")).intValue());
                    }
                }));
                tests.add(DynamicTest.dynamicTest(a + " / " + m[0] + " / kept, called later from outside", () -> {
                    try (JsRuntime rt = noThreads(a)) {
                        Service s = new Service();
                        rt.setGlobal("s", s);
                        rt.eval("globalThis.ran = 0; s.keep(" + m[1] + ")");
                        AtomicReference<Throwable> err = new AtomicReference<>();
                        try {
                            s.kept.run();   // this thread, outside the runtime now
                        } catch (Throwable e) {
                            err.set(e);
                        }
                        assertRefusalMessage(err.get());
                        assertEquals(0, ((Number) rt.eval("globalThis.ran")).intValue());
                    }
                }));
            }
        }
        return tests.stream();
    }

    /** The APIs: the thread-starting members are denied, and JS never runs on their threads. */
    @Test
    void threadStartingApisDoNotRunTheScript() throws Exception {
        ConcurrentHashMap<String, Integer> chm = new ConcurrentHashMap<>();
        for (int i = 0; i < 64; i++) chm.put("k" + i, i);
        try (JsRuntime rt = noThreads(HostAccess.GIVEN)) {
            rt.setGlobal("chm", chm);
            rt.setGlobal("list", new ArrayList<>(List.of(1, 2, 3)));
            assertDenied(rt, "chm.forEach(1, (k, v) => {})");
            assertDenied(rt, "chm.reduceValues(1, (a, b) => a + b)");
            assertDenied(rt, "chm.forEachValue(1, v => {})");
            assertDenied(rt, "chm.search(1, (k, v) => null)");
            assertDenied(rt, "java.util.stream.StreamSupport.stream(list.spliterator(), true)");
            assertDenied(rt, "new java.util.concurrent.SubmissionPublisher()");
            assertDenied(rt, "java.lang.ref.Cleaner.create()");
            assertDenied(rt, "java.util.concurrent.CompletableFuture.completedFuture(1).thenApplyAsync(x => x)");
            assertDenied(rt, "java.util.concurrent.CompletableFuture.completedFuture(1).minimalCompletionStage().thenApplyAsync(x => x)");
            assertEquals(2016, ((Number) rt.eval("let t = 0; chm.forEach((k, v) => { t += v }); t")).intValue());
        }
    }

    /** --deny-threads under ALL: reflection reaches CompletableFuture.runAsync, but the script's JS does not run there. */
    @Test
    void reflectionToRunAsyncDoesNotRunTheScript() {
        try (JsRuntime rt = runtime(HostAccess.ALL, null, null, false, true)) {
            Object r = rt.eval("globalThis.ran = 0;"
                    + "const m = java.lang.Class.forName('java.util.concurrent.CompletableFuture')"
                    + "  .getMethod('runAsync', java.lang.Class.forName('java.lang.Runnable'));"
                    + "const f = m.invoke(null, new java.lang.Runnable({ run() { globalThis.ran++ } }));"
                    + "let why = 'completed';"
                    + "try { f.get(10, java.util.concurrent.TimeUnit.SECONDS) } catch (e) { why = String(e.message) }"
                    + "why");
            assertTrue(String.valueOf(r).contains("cannot run on thread"), String.valueOf(r));
            assertEquals(0, ((Number) rt.eval("globalThis.ran")).intValue());
        }
    }

    /** A thread pool reached by a given service: refused on the pool's thread, with the policy named. */
    @Test
    void poolThreadsAreRefused() {
        try (JsRuntime rt = JsRuntime.create()) {
            Service s = new Service();
            rt.setGlobal("s", s);
            assertEquals("refused", rt.eval("s.onPool(() => 'x')"));
            assertRefusalMessage(s.last);
            assertTrue(s.last.getMessage().contains("GIVEN"), s.last.getMessage());
        }
    }

    /** Allowing threads lets them run the script's JS, as before. */
    @Test
    void allowedThreadsRunTheScript() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN, null, null, true, true)) {
            Service s = new Service();
            rt.setGlobal("s", s);
            assertEquals("ran", rt.eval("globalThis.ran = 0; s.onNewThread(() => { globalThis.ran++ })"));
            assertNull(s.last);
            assertEquals(1, ((Number) rt.eval("globalThis.ran")).intValue());
            assertEquals("x", rt.eval("s.onPool(() => 'x')"));
        }
    }

    /** The embedder's own handles (JsFunction, JsObject.as) stay callable from any thread. */
    @Test
    void embedderHandlesStayCallableFromAnyThread() throws Exception {
        try (JsRuntime rt = JsRuntime.create()) {
            JsFunction f = (JsFunction) rt.eval("globalThis.n = 0; () => ++globalThis.n");
            Runnable r = ((JsObject) rt.eval("({ run() { globalThis.n += 10 } })")).as(Runnable.class);
            Object[] got = new Object[1];
            Thread t = new Thread(() -> {
                got[0] = f.call();
                r.run();
            });
            t.start();
            t.join(10_000);
            assertEquals(1, ((Number) got[0]).intValue());
            assertEquals(11, ((Number) rt.eval("globalThis.n")).intValue());
        }
    }

    /** Nested inside the runtime on its own thread (a sort's comparator, a forEach): runs. */
    @Test
    void callbacksOnTheThreadInsideRun() {
        try (JsRuntime rt = JsRuntime.create()) {
            rt.setGlobal("l", new ArrayList<>(List.of(3, 1, 2)));
            rt.eval("l.sort((a, b) => a - b)");
            assertEquals("1,2,3", rt.eval("const o = []; l.forEach(x => o.push(x)); o.join()"));
            rt.setGlobal("s", new Service());
            assertEquals("ran", rt.eval("s.here(() => s.here(() => {}))"));
        }
    }
}

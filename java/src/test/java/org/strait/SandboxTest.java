package org.strait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.strait.internal.HostPolicy;

/**
 * Host access policies (org.strait.internal.HostPolicy, src/jni/model/policy.c):
 * escape attempts that must fail with a clear error under each policy, and
 * the uses that must keep working. Needs the test library (the policy of a
 * runtime is made with JsRuntime.Builder).
 */
class SandboxTest {
    /** The one place runtimes with a policy are made (to become JsRuntime.newBuilder()...build()). */
    static JsRuntime runtime(HostAccess access, Predicate<String> filter, Set<String> allow, boolean threads,
                             boolean nativeAccess) {
        JsRuntime.Builder b = JsRuntime.newBuilder().hostAccess(access)
                .allowCreateThread(threads).allowNativeAccess(nativeAccess);
        if (filter != null) b.classFilter(filter);
        if (allow != null) b.allowReflection(allow.toArray(new String[0]));
        return b.build();
    }

    static JsRuntime runtime(HostAccess access) {
        return runtime(access, null, null, true, true);
    }

    // ---- fixtures ----------------------------------------------------------

    public static class Item {
        @HostAccess.Export public int n = 7;
        public int twice() { return 14; }
    }

    /** An exception carrying an object. */
    public static class CarrierException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        @HostAccess.Export public final Object payload;
        public CarrierException(Object payload) { super("carrier"); this.payload = payload; }
    }

    /** Hands its value out every way a Java object reaches JS. */
    public static class Holder {
        @HostAccess.Export public Object value;
        public Holder(Object v) { value = v; }
        @HostAccess.Export public Object get() { return value; }
        @HostAccess.Export public List<Object> list() { List<Object> l = new ArrayList<>(); l.add(value); return l; }
        @HostAccess.Export public Map<String, Object> map() { Map<String, Object> m = new HashMap<>(); m.put("k", value); return m; }
        @HostAccess.Export public Object[] array() { return new Object[] {value}; }
        /** value after eight integers: a loop reads it from a window of the array (bridge_helper.js). */
        /** value after eight integers in an ArrayList: a loop reads it from a window of the list. */
        @HostAccess.Export public List<Object> runList() {
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < 8; i++) l.add(i);
            l.add(value);
            return l;
        }
        @HostAccess.Export public Object[] run() {
            Object[] a = new Object[9];
            for (int i = 0; i < 8; i++) a[i] = i;
            a[8] = value;
            return a;
        }
        @HostAccess.Export public void fail() { throw new CarrierException(value); }
    }

    public static class Service {
        public String name = "svc";
        public Class<?> type = String.class;
        public String hello(String who) { return "hi " + who; }
        public Item item() { return new Item(); }
        public List<String> names() { return new ArrayList<>(List.of("a", "b", "c")); }
        public Class<?> klass() { return Runtime.class; }
        public ClassLoader loader() { return Service.class.getClassLoader(); }
        public java.lang.reflect.Method method() throws Exception { return Object.class.getMethod("toString"); }
        public String apply(Function<String, String> f) { return f.apply("x"); }
        public CompletableFuture<String> future() { return CompletableFuture.completedFuture("done"); }
        public void fail() { throw new IllegalStateException("boom"); }
        public Thread thread() { return new Thread(() -> { }); }
    }

    public static class Exported {
        @HostAccess.Export public int visible = 1;
        public int hidden = 2;
        @HostAccess.Export public String shown() { return "shown"; }
        public String secret() { return "secret"; }
        @HostAccess.Export public Item item() { return new Item(); }
    }

    static void assertDenied(JsRuntime rt, String js) {
        JsException e = assertThrows(JsException.class, () -> rt.eval(js), js);
        String m = e.getMessage();
        assertTrue(m.contains("is not accessible: denied by the runtime's host access policy"),
                js + ": unexpected message: " + m);
    }

    static void assertFails(JsRuntime rt, String js) {
        assertThrows(JsException.class, () -> rt.eval(js), js);
    }

    // ---- generated: denied objects x every way of reaching them ---------------

    /** Objects of reflective classes, denied under every policy but ALL. */
    static Map<String, Object> reflectiveObjects() throws Exception {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("Class", Runtime.class);
        m.put("ClassLoader", SandboxTest.class.getClassLoader());
        m.put("Method", Object.class.getMethod("toString"));
        m.put("Field", Holder.class.getField("value"));
        m.put("Constructor", Holder.class.getConstructor(Object.class));
        m.put("Runtime", Runtime.getRuntime());
        m.put("Module", Object.class.getModule());
        m.put("ModuleLayer", ModuleLayer.boot());
        m.put("MethodHandles.Lookup", java.lang.invoke.MethodHandles.publicLookup());
        m.put("ProcessBuilder", new ProcessBuilder("true"));
        m.put("URLClassLoader", new java.net.URLClassLoader(new java.net.URL[0]));
        m.put("StackWalker", StackWalker.getInstance());
        return m;
    }

    static final Map<String, String> WAYS = Map.of(
            "method return", "h.get()",
            "field", "h.value",
            "list element", "h.list().get(0)",
            "map value", "h.map().get('k')",
            "array element", "h.array()[0]",
            "list element after a run", "(() => { const l = h.runList(); let x; for (let i = 0; i < l.size(); i++) x = l.get(i); return x; })()",
            "array element after a run", "(() => { const a = h.run(); let x; for (let i = 0; i < a.length; i++) x = a[i]; return x; })()",
            "iteration", "(() => { for (const x of h.list()) return x; })()",
            "exception payload", "(() => { try { h.fail(); } catch (e) { return e.javaException.payload; } })()");
    /** What EXPLICIT lets JS use (JDK members are not exported). */
    static final Set<String> EXPLICIT_WAYS = Set.of("method return", "field", "array element", "array element after a run",
            "exception payload");

    @TestFactory
    Stream<DynamicTest> reflectiveObjectsAreDeniedEveryWay() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        Object[][] policies = {
            {"GIVEN", HostAccess.GIVEN, null},
            {"GIVEN+filter(all)", HostAccess.GIVEN, (Predicate<String>) n -> true},
            {"EXPLICIT", HostAccess.EXPLICIT, null},
        };
        for (Object[] p : policies) {
            for (Map.Entry<String, Object> o : reflectiveObjects().entrySet()) {
                for (Map.Entry<String, String> w : WAYS.entrySet()) {
                    if (p[1] == HostAccess.EXPLICIT && !EXPLICIT_WAYS.contains(w.getKey())) continue;
                    @SuppressWarnings("unchecked")
                    Predicate<String> f = (Predicate<String>) p[2];
                    tests.add(DynamicTest.dynamicTest(p[0] + " / " + o.getKey() + " / " + w.getKey(), () -> {
                        try (JsRuntime rt = runtime((HostAccess) p[1], f, null, true, true)) {
                            rt.setGlobal("h", new Holder(o.getValue()));
                            assertDenied(rt, w.getValue());
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    /** Under ALL the same objects reach JS (full access means full access). */
    @TestFactory
    Stream<DynamicTest> reflectiveObjectsReachJsUnderAll() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, Object> o : reflectiveObjects().entrySet()) {
            for (Map.Entry<String, String> w : WAYS.entrySet()) {
                tests.add(DynamicTest.dynamicTest("ALL / " + o.getKey() + " / " + w.getKey(), () -> {
                    try (JsRuntime rt = runtime(HostAccess.ALL)) {
                        rt.setGlobal("h", new Holder(o.getValue()));
                        assertEquals(Boolean.TRUE, rt.eval("Java.isJavaObject(" + w.getValue() + ")"));
                    }
                }));
            }
        }
        return tests.stream();
    }

    static final List<String> DENIED_LOOKUPS = List.of(
            "java.lang.Class", "java.lang.ClassLoader", "java.lang.reflect.Method", "java.lang.reflect.Proxy",
            "java.lang.invoke.MethodHandles", "sun.misc.Unsafe", "jdk.internal.misc.Unsafe", "java.lang.Runtime",
            "java.lang.ProcessBuilder", "java.lang.System", "java.lang.Module", "java.lang.ModuleLayer",
            "java.net.URLClassLoader", "java.beans.Expression", "java.beans.Statement", "java.util.ServiceLoader",
            "java.lang.StackWalker", "javax.script.ScriptEngineManager", "org.strait.jscaller.JsCaller");

    /** A filter accepting everything enables lookups under GIVEN, not of reflective classes. */
    @TestFactory
    Stream<DynamicTest> reflectiveLookupsAreDenied() {
        List<DynamicTest> tests = new ArrayList<>();
        for (HostAccess a : List.of(HostAccess.GIVEN, HostAccess.EXPLICIT)) {
            for (String n : DENIED_LOOKUPS) {
                tests.add(DynamicTest.dynamicTest(a + " / Java.type / " + n, () -> {
                    try (JsRuntime rt = runtime(a, x -> true, null, true, true)) {
                        assertDenied(rt, "Java.type('" + n + "')");
                    }
                }));
                tests.add(DynamicTest.dynamicTest(a + " / Packages / " + n, () -> {
                    try (JsRuntime rt = runtime(a, x -> true, null, true, true)) {
                        assertDenied(rt, "Packages." + n);
                    }
                }));
                tests.add(DynamicTest.dynamicTest(a + " / Java.array / " + n, () -> {
                    try (JsRuntime rt = runtime(a, x -> true, null, true, true)) {
                        assertDenied(rt, "Java.array('" + n + "', 1)");
                    }
                }));
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> noGlobalsWithoutLookups() {
        List<DynamicTest> tests = new ArrayList<>();
        for (HostAccess a : List.of(HostAccess.NONE, HostAccess.GIVEN, HostAccess.EXPLICIT)) {
            for (String g : List.of("java", "javax", "jdk", "org", "com", "net", "Packages", "Java",
                    "JavaImporter", "importPackage", "importClass")) {
                tests.add(DynamicTest.dynamicTest(a + " / " + g, () -> {
                    try (JsRuntime rt = runtime(a)) {
                        assertEquals("undefined", rt.eval("typeof " + g));
                    }
                }));
            }
        }
        return tests.stream();
    }

    static final List<String> THREAD_LOOKUPS = List.of(
            "java.lang.Thread", "java.lang.ThreadGroup", "java.util.concurrent.Executors",
            "java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.ScheduledThreadPoolExecutor",
            "java.util.concurrent.ForkJoinPool", "java.util.Timer", "java.util.concurrent.Executors$DefaultThreadFactory");

    @TestFactory
    Stream<DynamicTest> threadsDenied() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String n : THREAD_LOOKUPS) {
            tests.add(DynamicTest.dynamicTest("ALL-threads / Java.type / " + n, () -> {
                try (JsRuntime rt = runtime(HostAccess.ALL, null, null, false, true)) {
                    assertDenied(rt, "Java.type('" + n + "')");
                }
            }));
        }
        for (String js : List.of("java.util.concurrent.CompletableFuture.supplyAsync(() => 1)",
                "java.util.concurrent.CompletableFuture.runAsync(() => 1)",
                "s.future().thenApplyAsync(x => x)", "s.thread()", "s.names().parallelStream()",
                "java.util.concurrent.ForkJoinPool.commonPool()", "java.lang.Thread.currentThread()")) {
            tests.add(DynamicTest.dynamicTest("ALL-threads / " + js, () -> {
                try (JsRuntime rt = runtime(HostAccess.ALL, null, null, false, true)) {
                    rt.setGlobal("s", new Service());
                    assertDenied(rt, js);
                }
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> nativeDenied() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String js : List.of("java.lang.System.load('/nonexistent/libx.so')",
                "java.lang.System.loadLibrary('x')", "java.lang.Runtime.getRuntime().load('/nonexistent/libx.so')",
                "java.lang.Runtime.getRuntime().loadLibrary('x')", "Java.type('sun.misc.Unsafe')",
                "Java.type('jdk.internal.misc.Unsafe')")) {
            tests.add(DynamicTest.dynamicTest("ALL-native / " + js, () -> {
                try (JsRuntime rt = runtime(HostAccess.ALL, null, null, true, false)) {
                    assertDenied(rt, js);
                }
            }));
        }
        return tests.stream();
    }

    // ---- single cases --------------------------------------------------------

    @Test
    void reflectionChainsFromAGivenObject() {
        for (HostAccess a : List.of(HostAccess.GIVEN, HostAccess.EXPLICIT)) {
            try (JsRuntime rt = runtime(a)) {
                rt.setGlobal("s", new Service());
                assertDenied(rt, "s.getClass()");
                assertDenied(rt, "s.getClass().getClassLoader().loadClass('java.lang.Runtime')");
                assertDenied(rt, "s['getClass()']()");
                assertEquals(Boolean.FALSE, rt.eval("'getClass' in s"));
                assertFails(rt, "s.class");
                assertEquals("undefined", rt.eval("typeof s.constructor"));
                rt.setGlobal("h", new Holder("x"));
                assertDenied(rt, "try { h.fail() } catch (e) { e.javaException.getClass() }");
            }
        }
        try (JsRuntime rt = runtime(HostAccess.GIVEN)) {
            rt.setGlobal("s", new Service());
            assertDenied(rt, "s.type");
            assertDenied(rt, "s.klass()");
            assertDenied(rt, "s.loader()");
            assertDenied(rt, "s.method()");
            assertDenied(rt, "s.item().getClass()");
            assertDenied(rt, "s.names().getClass()");
            assertDenied(rt, "s.names()['getClass()']()");
            assertEquals("boom", rt.eval("try { s.fail() } catch (e) { e.javaException.getMessage() }"));
            assertEquals(Boolean.TRUE, rt.eval("try { s.fail() } catch (e) { e.javaException.getStackTrace().length > 0 }"));
        }
    }

    @Test
    void givenUsesKeepWorking() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN)) {
            rt.setGlobal("s", new Service());
            assertEquals("hi x", rt.eval("s.hello('x')"));
            assertEquals("svc", rt.eval("s.name"));
            assertEquals(14, ((Number) rt.eval("s.item().twice()")).intValue());
            assertEquals(3, ((Number) rt.eval("s.names().size()")).intValue());
            assertEquals("b", rt.eval("s.names().get(1)"));
            assertEquals("a,b,c", rt.eval("const r = []; for (const x of s.names()) r.push(x); r.join()"));
            assertEquals("x!", rt.eval("s.apply(v => v + '!')"));
            assertEquals("done", rt.eval("s.future().getNow('no')"));
            assertEquals(Boolean.TRUE, rt.eval("s.item().twice === s.item().twice"));
        }
    }

    @Test
    void explicitShowsOnlyExportedMembers() {
        try (JsRuntime rt = runtime(HostAccess.EXPLICIT)) {
            rt.setGlobal("e", new Exported());
            assertEquals(1, ((Number) rt.eval("e.visible")).intValue());
            assertEquals("shown", rt.eval("e.shown()"));
            assertEquals(7, ((Number) rt.eval("e.item().n")).intValue());
            JsException x = assertThrows(JsException.class, () -> rt.eval("e.secret()"));
            assertTrue(x.getMessage().contains("secret"), x.getMessage());
            // an unexported member is missing: undefined to read, a TypeError to assign
            assertEquals("undefined", rt.eval("typeof e.hidden"));
            assertFails(rt, "e.hidden = 3");
            assertFails(rt, "e.item().twice()");
            assertEquals("[object Object]", rt.eval("e.toString()"));   // JS's own: Java's toString is not exported
            assertEquals(Boolean.FALSE, rt.eval("'secret' in e"));
            assertFails(rt, "e['secret()']()");
            Function<String, String> f = s -> s + "?";
            rt.setGlobal("f", f);
            assertEquals("a?", rt.eval("f.apply('a')"));
            assertFails(rt, "f.andThen(f)");
            Runnable[] ran = {null};
            rt.setGlobal("r", (Runnable) () -> ran[0] = () -> { });
            rt.eval("r.run()");
            assertTrue(ran[0] != null);
        }
    }

    @Test
    void classFilterUnderGivenEnablesLookupsAndRestrictsResults() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN, n -> n.startsWith("java.util."), null, true, true)) {
            rt.setGlobal("s", new Service());
            assertEquals(2, ((Number) rt.eval("const L = Java.type('java.util.ArrayList'); const l = new L(); l.add(1); l.add(2); l.size()")).intValue());
            assertEquals(1, ((Number) rt.eval("new java.util.HashMap().put('a', 1) === null ? 1 : 0")).intValue());
            assertEquals("hi y", rt.eval("s.hello('y')"));     // given: the filter does not apply
            assertEquals("b", rt.eval("s.names().get(1)"));   // java.util.ArrayList passes
            assertDenied(rt, "s.item()");                      // org.strait... does not
            assertDenied(rt, "Java.type('java.lang.StringBuilder')");
            assertDenied(rt, "java.lang.Runtime");
            assertDenied(rt, "java.lang.System.getenv()");
        }
    }

    @Test
    void classFilterUnderAllRestrictsLookupsAndResults() {
        try (JsRuntime rt = runtime(HostAccess.ALL, n -> !n.startsWith("java.io."), null, true, true)) {
            rt.setGlobal("s", new Service());
            assertDenied(rt, "Java.type('java.io.File')");
            assertDenied(rt, "java.io.File");
            assertEquals(Boolean.TRUE, rt.eval("Java.isJavaObject(s.getClass())"));   // ALL: reflection allowed
            assertEquals("java.lang.Runtime", rt.eval("s.klass().getName()"));
        }
    }

    @Test
    void allowedNamesLiftReflectionDenials() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN, null, Set.of("java.lang.Object#getClass", "java.lang.Class"), true, true)) {
            rt.setGlobal("s", new Service());
            assertEquals(Service.class.getName(), rt.eval("s.getClass().getName()"));
            assertDenied(rt, "s.loader()");
        }
        try (JsRuntime rt = runtime(HostAccess.GIVEN, null, Set.of("java.lang.reflect.*"), true, true)) {
            rt.setGlobal("s", new Service());
            assertEquals("toString", rt.eval("s.method().getName()"));
        }
    }

    @Test
    void allStaysAsToday() {
        try (JsRuntime rt = runtime(HostAccess.ALL)) {
            rt.setGlobal("s", new Service());
            assertEquals(Service.class.getName(), rt.eval("s.getClass().getName()"));
            assertEquals(Boolean.TRUE, rt.eval("Java.isJavaObject(Java.type('java.lang.Runtime').getRuntime())"));
            assertEquals(Boolean.TRUE, rt.eval("typeof Java.type('sun.misc.Unsafe') === 'function'"));
            assertFails(rt, "Java.type('org.strait.internal.Natives')");
            assertEquals(Boolean.FALSE, rt.eval("typeof Packages.org.strait.internal.Natives === 'function'"));
        }
    }

    @Test
    void internalsAreDeniedUnderAll() {
        try (JsRuntime rt = runtime(HostAccess.ALL)) {
            rt.setGlobal("h", new Holder(HostPolicy.all()));
            assertDenied(rt, "h.get()");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> rt.setGlobal("p", HostPolicy.all()));
            assertTrue(e.getMessage().contains("org.strait.internal.HostPolicy"), e.getMessage());
        }
    }

    @Test
    void noneRefusesEveryJavaObject() {
        try (JsRuntime rt = runtime(HostAccess.NONE)) {
            Object[] refused = {new Service(), new ArrayList<>(), new Object(), (Runnable) () -> { }};
            for (Object o : refused) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rt.setGlobal("x", o));
                assertTrue(e.getMessage().contains("host access is NONE"), e.getMessage());
                JsFunction id = (JsFunction) rt.eval("(v) => v");
                e = assertThrows(IllegalArgumentException.class, () -> id.call(o));
                assertTrue(e.getMessage().contains("host access is NONE"), e.getMessage());
                if (o instanceof java.util.Collection) continue;   // the codec makes a JS array of it
                e = assertThrows(IllegalArgumentException.class, () -> rt.toJs(Map.of("k", o)));
                assertTrue(e.getMessage().contains("host access is NONE"), e.getMessage());
                e = assertThrows(IllegalArgumentException.class, () -> rt.toJs(o));
                assertTrue(e.getMessage().contains("host access is NONE"), e.getMessage());
            }
            rt.setGlobal("s", "a string");
            rt.setGlobal("n", 42);
            assertEquals("a string42", rt.eval("s + n"));
            assertEquals("undefined", rt.eval("typeof Java"));
        }
    }

    @Test
    void givenRefusesDeniedObjectsHandedIn() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> rt.setGlobal("c", String.class));
            assertTrue(e.getMessage().contains("java.lang.Class is not accessible"), e.getMessage());
            JsFunction id = (JsFunction) rt.eval("(v) => v");
            assertThrows(IllegalArgumentException.class, () -> id.call(Runtime.getRuntime()));
        }
    }

    /** Verdicts are per runtime: two policies on the same classes in one JVM, interleaved. */
    @Test
    void verdictsDoNotLeakBetweenRuntimes() {
        try (JsRuntime given = runtime(HostAccess.GIVEN); JsRuntime all = runtime(HostAccess.ALL);
             JsRuntime given2 = runtime(HostAccess.GIVEN, n -> n.startsWith("java."), null, true, true)) {
            for (int round = 0; round < 3; round++) {
                for (JsRuntime rt : List.of(given, all, given2)) rt.setGlobal("h", new Holder(Runtime.class));
                assertDenied(given, "h.get()");
                assertDenied(given, "h.getClass()");
                assertEquals("java.lang.Runtime", all.eval("h.get().getName()"));
                assertEquals(Holder.class.getName(), all.eval("h.getClass().getName()"));
                assertDenied(given2, "h.get()");
                assertEquals(Boolean.TRUE, given2.eval("new java.util.ArrayList().isEmpty()"));
                assertEquals("undefined", given.eval("typeof java"));
                assertDenied(given2, "h.list()['getClass()']()");
            }
        }
    }

    /** JSON.stringify of a Java collection (bridge_helper.js toJSON, Bridge.jsonTree) reads what the policy lets through. */
    @Test
    void jsonOfCollectionsKeepsThePolicy() {
        java.util.List<Object> l = new java.util.ArrayList<>(java.util.List.of(1, "a"));
        try (JsRuntime rt = runtime(HostAccess.EXPLICIT)) {
            rt.setGlobal("l", l);
            assertEquals("{}", rt.eval("JSON.stringify(l)"));          // no contents read on the bridge's own
        }
        java.util.Map<String, Object> inner = new java.util.LinkedHashMap<>();
        inner.put("k", 2);
        java.util.List<Object> outer = new java.util.ArrayList<>(java.util.List.of(1, inner));
        try (JsRuntime rt = runtime(HostAccess.GIVEN, n -> n.equals("java.util.ArrayList"), null, true, true)) {
            rt.setGlobal("l", l);
            rt.setGlobal("outer", outer);
            assertEquals("[1,\"a\"]", rt.eval("JSON.stringify(l)"));
            assertDenied(rt, "JSON.stringify(outer)");                   // the nested LinkedHashMap is refused
            assertDenied(rt, "outer.get(1)");                            // as reading it is
        }
        try (JsRuntime rt = runtime(HostAccess.ALL)) {
            rt.setGlobal("outer", outer);
            assertEquals("[1,{\"k\":2}]", rt.eval("JSON.stringify(outer)"));
        }
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.strait.SandboxTest.assertDenied;
import static org.strait.SandboxTest.runtime;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Escapes from a sandboxed runtime (docs/sandbox.md, Host access and Class
 * filter) through objects that were not on the denied lists as the lists
 * were read: another runtime's values nested in a collection, capabilities
 * that amplify (a File leading to any file), objects Java hands to a
 * script's callback, classes loaded by name before the filter was asked,
 * system properties read by Long.getLong, subtypes of denied types.
 */
class SandboxEscapeTest {
    /** The policies a script runs under when the embedder did not choose ALL. */
    static final Object[][] SANDBOXES = {
        {"GIVEN", HostAccess.GIVEN, null},
        {"GIVEN+filter(java.*, org.strait.*)", HostAccess.GIVEN,
                (Predicate<String>) n -> n.startsWith("java.") || n.startsWith("org.strait.")},
        {"EXPLICIT", HostAccess.EXPLICIT, null},
    };

    @SuppressWarnings("unchecked")
    static JsRuntime sandbox(Object[] p) {
        return runtime((HostAccess) p[1], (Predicate<String>) p[2], null, false, false);
    }

    // ---- 7: another runtime, and strait's own objects ------------------------

    /** Objects of strait's API, made by a full-access runtime. */
    static Map<String, Supplier<Object>> apiObjects(JsRuntime full) {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("JsObject", () -> full.eval("({x: 1})"));
        m.put("JsFunction", () -> full.eval("(c) => eval(c)"));
        m.put("JsArray", () -> full.eval("[1, 2]"));
        m.put("JsPromise", () -> full.eval("Promise.resolve(1)"));
        m.put("JsRuntime", () -> full);
        m.put("JsRuntime.Builder", () -> JsRuntime.newBuilder());
        m.put("JsMessagePort", () -> full.openMessagePort());
        m.put("JsException", () -> {
            try {
                full.eval("throw new Error('x')");
                return null;
            } catch (JsException e) {
                return e;
            }
        });
        m.put("proxy (JsObject.as)", () -> ((JsObject) full.eval("({apply: (c) => eval(c)})")).as(Function.class));
        m.put("proxy (new Function({...}))", () -> full.eval("new java.util.function.Function({apply: (c) => eval(c)})"));
        m.put("Java.extend object", () -> full.eval(
                "new (Java.extend(java.util.function.Function, {apply: (c) => eval(c)}))()"));
        return m;
    }

    /** No object leading to another runtime, or of strait's API, reaches a sandboxed script, whatever the path. */
    @TestFactory
    Stream<DynamicTest> anotherRuntimeIsNotReachable() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Object[] p : SANDBOXES) {
            for (String what : apiObjects(null).keySet()) {
                for (Map.Entry<String, String> w : SandboxTest.WAYS.entrySet()) {
                    if (p[1] == HostAccess.EXPLICIT && !SandboxTest.EXPLICIT_WAYS.contains(w.getKey())) continue;
                    tests.add(DynamicTest.dynamicTest(p[0] + " / " + what + " / " + w.getKey(), () -> {
                        try (JsRuntime full = runtime(HostAccess.ALL); JsRuntime rt = sandbox(p)) {
                            Object o = apiObjects(full).get(what).get();
                            rt.setGlobal("h", new SandboxTest.Holder(o));
                            assertDenied(rt, w.getValue());
                            assertEquals(Boolean.FALSE, full.eval("globalThis.escaped === true"));
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    /** The case: another runtime's JsValue in a Map runs code in that runtime. */
    @Test
    void nestedJsValueDoesNotLeadToItsRuntime() {
        try (JsRuntime full = runtime(HostAccess.ALL); JsRuntime rt = runtime(HostAccess.GIVEN)) {
            Map<String, Object> m = new HashMap<>();
            m.put("v", full.eval("({x: 1})"));
            rt.setGlobal("m", m);
            assertDenied(rt, "m.get('v').runtime().eval('globalThis.escaped = true')");
            assertDenied(rt, "m.get('v')");
            assertDenied(rt, "m.values().iterator().next()");
            assertDenied(rt, "for (const e of m.entrySet()) e.getValue()");
            assertEquals(Boolean.FALSE, full.eval("globalThis.escaped === true"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> rt.setGlobal("r", full));
            assertTrue(e.getMessage().contains("org.strait.JsRuntime is not accessible"), e.getMessage());
        }
    }

    /** A Java exception carrying another runtime's JsException: the JS error, no javaException. */
    @Test
    void anotherRuntimesExceptionIsNotReachable() {
        try (JsRuntime full = runtime(HostAccess.ALL); JsRuntime rt = runtime(HostAccess.GIVEN)) {
            JsFunction thrower = (JsFunction) full.eval("() => { throw new Error('from full') }");
            rt.setGlobal("t", (Runnable) () -> thrower.call());
            assertEquals("undefined", rt.eval("try { t.run(); 'no' } catch (e) { typeof e.javaException }"));
            assertTrue(((String) rt.eval("try { t.run(); 'no' } catch (e) { e.message }")).contains("from full"));
        }
    }

    /** The runtime's own values still go back as its JS values; ALL keeps full access. */
    @Test
    void ownValuesAndAllKeepWorking() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN)) {
            Object own = rt.eval("globalThis.o = {x: 1}");
            rt.setGlobal("h", new SandboxTest.Holder(own));
            assertEquals(Boolean.TRUE, rt.eval("h.get() === o && h.list().get(0) === o"));
            assertEquals(Boolean.TRUE, rt.eval("const f = h.map(); f.get('k') === o"));
            rt.eval("globalThis.pr = (x) => x + 1");
            Function<Object, Object> same = ((JsObject) rt.eval("({apply: (x) => x * 2})")).as(Function.class);
            rt.setGlobal("g", new SandboxTest.Holder(same));
            assertEquals(6, ((Number) rt.eval("h.get(); g.get().apply(3)")).intValue());
        }
        try (JsRuntime full = runtime(HostAccess.ALL); JsRuntime all = runtime(HostAccess.ALL)) {
            all.setGlobal("h", new SandboxTest.Holder(full.eval("({x: 1})")));
            assertEquals(Boolean.TRUE, all.eval("Java.isJavaObject(h.get())"));
        }
    }

    // ---- 8: capabilities that amplify ----------------------------------------

    @TempDir
    Path tmp;

    /** root/ with a file inside, and secret.txt beside root (outside it). */
    File root() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(root.resolve("inside.txt"), "inside");
        Files.writeString(tmp.resolve("secret.txt"), "SECRET-OUTSIDE");
        return root.toFile();
    }

    static final List<String> FILE_ESCAPES = List.of(
            "dir.toURI().resolve('/proc/self/environ').toURL().openStream().readAllBytes()",
            "dir.toURI()", "dir.toURL()", "dir.toPath()", "dir.getParentFile()", "dir.parentFile",
            "dir.getAbsoluteFile()", "dir.getCanonicalFile()", "dir.canonicalFile",
            "dir.listFiles()[0].getParentFile()", "url.openStream()", "url.openConnection()", "url.getContent()",
            "url.toURI().toURL()", "uri.toURL()");

    /** From a File, a URL or a URI handed in, no member reaches other files or opens anything. */
    @TestFactory
    Stream<DynamicTest> capabilitiesDoNotAmplify() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Object[] p : SANDBOXES) {
            if (p[1] == HostAccess.EXPLICIT) continue;   // no JDK member is exported there
            for (String js : FILE_ESCAPES) {
                tests.add(DynamicTest.dynamicTest(p[0] + " / " + js, () -> {
                    File dir = root();
                    try (JsRuntime rt = sandbox(p)) {
                        rt.setGlobal("dir", dir);
                        rt.setGlobal("url", new File(dir, "inside.txt").toURI().toURL());
                        rt.setGlobal("uri", new File(dir, "inside.txt").toURI());
                        assertDenied(rt, js);
                    }
                }));
            }
        }
        return tests.stream();
    }

    @Test
    void aGivenFileKeepsItsOwnMembers() throws Exception {
        File dir = root();
        try (JsRuntime rt = runtime(HostAccess.GIVEN)) {
            rt.setGlobal("dir", dir);
            assertEquals("root", rt.eval("dir.getName()"));
            assertEquals(Boolean.TRUE, rt.eval("dir.isDirectory()"));
            assertEquals("inside.txt", rt.eval("dir.listFiles()[0].getName()"));
            assertEquals(dir.getPath(), rt.eval("dir.getPath()"));
            assertEquals(dir.getParent(), rt.eval("dir.getParent()"));   // a string, not a file
        }
        try (JsRuntime rt = runtime(HostAccess.GIVEN, null, Set.of("java.io.File#toURI"), false, false)) {
            rt.setGlobal("dir", dir);
            assertEquals(dir.toURI().toString(), rt.eval("String(dir.toURI())"));   // named by the embedder
            assertDenied(rt, "dir.toURI().toURL()");
        }
        try (JsRuntime rt = runtime(HostAccess.ALL)) {
            rt.setGlobal("dir", dir);
            assertEquals(Boolean.TRUE, rt.eval("dir.toURI().resolve('../secret.txt').toURL().openStream().readAllBytes().length === 14"));
        }
    }

    static final List<String> MACHINE_LOOKUPS = List.of(
            "Java.type('java.nio.file.Files')", "Java.type('java.nio.file.Paths')",
            "Java.type('java.nio.file.FileSystems')", "java.nio.file.Path.of('/etc/hostname')",
            "new java.io.FileInputStream(secret)", "new java.io.FileReader(secret)",
            "new java.io.RandomAccessFile(secret, 'r')", "new java.util.Scanner(new java.io.File(secret))",
            "new java.io.FileOutputStream(secret + '.w')", "new java.util.zip.ZipFile(secret)",
            "java.io.File.listRoots()", "java.io.File.createTempFile('a', 'b')",
            "new java.io.File(secret).toPath()", "new java.net.URL('file://' + secret).openStream()",
            "java.util.Locale.setDefault(java.util.Locale.ROOT)", "java.util.TimeZone.setDefault(null)",
            "java.lang.Long.getLong('strait.escape.prop')", "java.lang.Integer.getInteger('strait.escape.prop')",
            "java.lang.Boolean.getBoolean('strait.escape.prop')", "Java.type('java.util.prefs.Preferences')",
            "Java.type('java.security.Security')", "Java.type('java.sql.DriverManager')");

    /** A filter accepting java.* enables lookups, not the machine: files, properties, JVM-wide defaults. */
    @TestFactory
    Stream<DynamicTest> filterDoesNotOpenTheMachine() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String js : MACHINE_LOOKUPS) {
            tests.add(DynamicTest.dynamicTest("GIVEN+filter(java.*) / " + js, () -> {
                File dir = root();
                System.setProperty("strait.escape.prop", "true");
                try (JsRuntime rt = runtime(HostAccess.GIVEN, n -> n.startsWith("java."), null, false, false)) {
                    rt.setGlobal("secret", new File(dir.getParentFile(), "secret.txt").getPath());
                    assertDenied(rt, js);
                } finally {
                    System.clearProperty("strait.escape.prop");
                }
                assertFalse(new File(dir.getParentFile(), "secret.txt.w").exists());
            }));
        }
        return tests.stream();
    }

    @Test
    void filterKeepsHarmlessLookups() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN, n -> n.startsWith("java."), null, false, false)) {
            assertEquals("abc", rt.eval("new java.util.Scanner('abc').next()"));
            assertEquals(42, ((Number) rt.eval("java.lang.Long.parseLong('42')")).intValue());
            assertEquals("/a/b", rt.eval("new java.io.File('/a', 'b').getPath()"));
            assertEquals(3, ((Number) rt.eval("new java.io.ByteArrayInputStream(Java.to([1,2,3], 'byte[]')).available()")).intValue());
        }
    }

    // ---- 10: the class filter decides before a class is loaded or an object crosses ----

    public static class Secret {
        public String secret() { return "secret"; }
    }

    /** Objects Java passes to a script's callback pass the filter as results do. */
    @Test
    void callbackArgumentsPassTheFilter() {
        Map<String, Object> m = new HashMap<>();
        m.put("k", new Secret());
        List<Object> l = new ArrayList<>(List.of(new Secret(), new Secret()));
        try (JsRuntime rt = runtime(HostAccess.GIVEN, n -> n.startsWith("java.util."), null, false, false)) {
            rt.setGlobal("m", m);
            rt.setGlobal("l", l);
            assertDenied(rt, "let r; m.forEach((k, v) => { r = v.secret() }); r");
            assertEquals("TypeError true", rt.eval("let e1; try { m.forEach((k, v) => v.secret()) } catch (e) { e1 = e }"
                    + " e1.name + ' ' + e1.message.includes('SandboxEscapeTest$Secret is not accessible')"));
            assertDenied(rt, "l.sort((a, b) => 0)");
            assertDenied(rt, "l.removeIf(x => true)");
            assertEquals(2, ((Number) rt.eval("l.size()")).intValue());
            assertDenied(rt, "m.get('k')");                               // and it was never wrapped
        }
        try (JsRuntime rt = runtime(HostAccess.GIVEN, n -> n.startsWith("java.util."), null, false, false)) {
            Map<String, Integer> ok = new HashMap<>(Map.of("a", 1, "b", 2));
            rt.setGlobal("ok", ok);
            assertEquals(3, ((Number) rt.eval("let s = 0; ok.forEach((k, v) => { s += v }); s")).intValue());
            assertEquals(1, ((Number) rt.eval("ok.computeIfAbsent('c', k => k.length)")).intValue());
        }
    }

    /** Set by ProbeA's initializer (reading it does not initialize ProbeA). */
    static final class Initialized {
        static volatile boolean probeA;
    }

    /** Initialized by the JVM when a stream or a factory names it: it must not be, for a script. */
    public static class ProbeA implements Serializable {
        private static final long serialVersionUID = 1L;
        static {
            Initialized.probeA = true;
        }
    }

    /** Same length name as ProbeA, serialized in its place. */
    public static class ProbeT implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** A stream naming class ProbeA, which the JVM has not loaded yet. */
    static byte[] streamOfProbeA() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(b)) {
            o.writeObject(new ProbeT());
        }
        String s = new String(b.toByteArray(), StandardCharsets.ISO_8859_1)
                .replace(ProbeT.class.getName(), "org.strait.SandboxEscapeTest$ProbeA");
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** readObject and class-name factories load and initialize classes: denied before they run. */
    @Test
    void classesNamedByAScriptAreNotLoaded() throws Exception {
        byte[] bytes = streamOfProbeA();
        Predicate<String> javaOnly = n -> n.startsWith("java.") || n.startsWith("javax.");
        for (Object[] p : new Object[][] {{HostAccess.GIVEN, null}, {HostAccess.GIVEN, javaOnly}, {HostAccess.ALL, javaOnly}}) {
            @SuppressWarnings("unchecked")
            Predicate<String> f = (Predicate<String>) p[1];
            try (JsRuntime rt = runtime((HostAccess) p[0], f, null, true, true)) {
                rt.setGlobal("ois", new ObjectInputStream(new ByteArrayInputStream(bytes)));
                assertDenied(rt, "ois.readObject()");
                assertDenied(rt, "ois.readUnshared()");
                if (f != null) {
                    rt.setGlobal("bytes", new ByteArrayInputStream(bytes));
                    assertDenied(rt, "new java.io.ObjectInputStream(bytes).readObject()");
                    assertDenied(rt, "javax.sql.rowset.RowSetProvider.newFactory('org.strait.SandboxEscapeTest$ProbeA', null)");
                    assertDenied(rt, "java.util.ResourceBundle.getBundle('org.strait.SandboxEscapeTest$ProbeA')");
                    assertDenied(rt, "java.lang.Class.forName('org.strait.SandboxEscapeTest$ProbeA')");
                }
            }
            assertFalse(Initialized.probeA, "a class was initialized for a script (" + p[0] + ")");
        }
        try (JsRuntime rt = runtime(HostAccess.ALL)) {                  // full access: as any Java code
            rt.setGlobal("ois", new ObjectInputStream(new ByteArrayInputStream(streamOfProbeA())));
            assertEquals(Boolean.TRUE, rt.eval("Java.isJavaObject(ois.readObject())"));
        }
    }

    // ---- 11: subtypes of denied types ----------------------------------------

    static final class MyClassValue extends ClassValue<String> {
        @Override
        protected String computeValue(Class<?> type) {
            return type.getName();
        }
    }

    @SuppressWarnings("removal")
    static final class MySecurityManager extends SecurityManager { }

    /** java.beans.Statement calls any method by name; a subclass of it too. */
    public static final class MyStatement extends java.beans.Statement {
        public MyStatement() {
            super(System.class, "exit", new Object[] {1});
        }
    }

    static Map<String, Object> subtypeObjects() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ClassValue subclass", new MyClassValue());
        m.put("SecurityManager subclass", new MySecurityManager());
        m.put("StackWalker.StackFrame (JDK implementation)",
                StackWalker.getInstance().walk(s -> s.findFirst().orElseThrow()));
        m.put("java.beans.Statement subclass", new MyStatement());
        return m;
    }

    /** A denied type is denied with its subclasses and implementations. */
    @TestFactory
    Stream<DynamicTest> subtypesOfDeniedTypesAreDenied() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Object[] p : SANDBOXES) {
            for (Map.Entry<String, Object> o : subtypeObjects().entrySet()) {
                for (Map.Entry<String, String> w : SandboxTest.WAYS.entrySet()) {
                    if (p[1] == HostAccess.EXPLICIT && !SandboxTest.EXPLICIT_WAYS.contains(w.getKey())) continue;
                    tests.add(DynamicTest.dynamicTest(p[0] + " / " + o.getKey() + " / " + w.getKey(), () -> {
                        try (JsRuntime rt = sandbox(p)) {
                            rt.setGlobal("h", new SandboxTest.Holder(o.getValue()));
                            assertDenied(rt, w.getValue());
                        }
                    }));
                }
                tests.add(DynamicTest.dynamicTest(p[0] + " / " + o.getKey() + " / handed in", () -> {
                    try (JsRuntime rt = sandbox(p)) {
                        assertThrows(IllegalArgumentException.class, () -> rt.setGlobal("x", o.getValue()));
                    }
                }));
            }
        }
        for (Map.Entry<String, Object> o : subtypeObjects().entrySet()) {
            tests.add(DynamicTest.dynamicTest("ALL / " + o.getKey(), () -> {
                try (JsRuntime rt = runtime(HostAccess.ALL)) {
                    rt.setGlobal("h", new SandboxTest.Holder(o.getValue()));
                    assertEquals(Boolean.TRUE, rt.eval("Java.isJavaObject(h.get())"));
                }
            }));
        }
        return tests.stream();
    }

    /** A name the embedder allows lifts the denial of what extends it, as it does for the name itself. */
    @Test
    void allowedNamesCoverSubtypes() {
        try (JsRuntime rt = runtime(HostAccess.GIVEN, null, Set.of("java.lang.ClassValue"), false, false)) {
            rt.setGlobal("h", new SandboxTest.Holder(new MyClassValue()));
            assertEquals("function", rt.eval("typeof h.get().remove"));
        }
    }
}

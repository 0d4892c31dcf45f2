package org.strait;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Permission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated escape battery (docs/sandbox.md, Guarantees): from each of
 * a set of innocent objects handed in (a String, collections, a File, a
 * Path, a URL, a Thread, a future, a POJO returning Object, a Map holding
 * another runtime's values), a JS walker calls every public member it
 * reaches, to depth 3 (members of objects up to three calls from the
 * object handed in), with probe arguments (the path of a file outside the
 * root, a system property's and an environment variable's name, a class
 * name, a native library, JS code for another runtime) and JS callbacks
 * for functional parameters, under GIVEN, EXPLICIT and GIVEN with a class
 * filter. It must reach no class lookup, no file outside the root (or its
 * contents), no process, no thread (started, or running the script's JS),
 * no native load, no system property or environment read, no other
 * runtime.
 *
 * <p>Bounded and deterministic: members in a fixed order, a budget of calls
 * per object handed in, a few objects of one class walked per root, no
 * member that blocks (an incomplete future's get, wait, sleep, join), that
 * changes the machine (static setters of JDK classes, exit, exec, load:
 * these are read, not called, and must not be reachable) or writes files
 * (delete, rename, mkdir, write: the walker reaches the handed-in files,
 * and with a broken policy their parents). What it detects: a recording
 * SecurityManager (file reads, property and environment reads, processes,
 * native libraries, thread creation) while the walk runs, when the JVM
 * still allows one (JDK 17); the oracle's look at every value reached
 * (denied types, a file outside the root, another runtime's value, the
 * secret file's or the property's contents); JS callbacks running on
 * another thread; a class initialized for the script; JS run in the other
 * runtime.
 */
class EscapeBatteryTest {
    static final int BUDGET = 6000;      // member calls per object handed in
    static final int MAX_DEPTH = 3;
    static final int PER_CLASS = 4;      // objects of one class walked per root
    static final String PROP = "strait.battery.secret";
    static final String PROP_TOKEN = "PROP-TOKEN-7c1f5e";
    static final String FILE_TOKEN = "FILE-TOKEN-93ab0d";

    @TempDir
    Path tmp;

    /** Initialized only if some member loads it by the name the walker passes. */
    public static class Probe {
        static {
            Flags.probeInitialized = true;
        }
    }

    static final class Flags {
        static volatile boolean probeInitialized;
    }

    /** A POJO whose members are declared Object (one holds another runtime's value, as a Map might). */
    public static class Pojo {
        @HostAccess.Export public Object value = "pojo";
        private final Object held;
        public Pojo(Object held) { this.held = held; }
        @HostAccess.Export public Object held() { return held; }
        @HostAccess.Export public Object self() { return this; }
        @HostAccess.Export public Object list() { return new ArrayList<>(List.of("a", "b")); }
        @HostAccess.Export public Object echo(Object o) { return o; }
        @HostAccess.Export public Object nested() { return new Pojo(null); }
        @HostAccess.Export public Object apply(java.util.function.Function<Object, Object> f) { return f.apply("x"); }
    }

    // ---- the detectors -----------------------------------------------------

    /** Records what the JVM checks while the walk runs; never refuses. */
    @SuppressWarnings("removal")
    static final class Recorder extends SecurityManager {
        final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        volatile boolean on;
        final ThreadLocal<Boolean> quiet = new ThreadLocal<>();

        @Override
        public void checkPermission(Permission p) {
            if (on && quiet.get() == null) note(p);
        }

        @Override
        public void checkPermission(Permission p, Object context) {
            checkPermission(p);
        }

        @Override
        public void checkAccess(ThreadGroup g) {
            if (on && quiet.get() == null) events.add("thread: a thread made in group " + g.getName());
        }

        private void note(Permission p) {
            String n = p.getName(), a = p.getActions();
            if (p instanceof java.io.FilePermission) {
                /* File.canExecute asks for "execute" too: a process is ProcessBuilder's */
                if (a.contains("execute") && startsProcess()) events.add("process: " + n);
                else if (a.contains("read")) events.add("read: " + n);
            } else if (p instanceof java.util.PropertyPermission) {
                if (n.startsWith("strait.battery")) events.add("property: " + n);
            } else if (p instanceof RuntimePermission) {
                if (n.startsWith("getenv.")) events.add("environment: " + n);
                else if (n.startsWith("loadLibrary.")) events.add("native: " + n);
            }
        }

        private static boolean startsProcess() {
            return StackWalker.getInstance().walk(s -> s.anyMatch(f -> f.getClassName().equals("java.lang.ProcessBuilder")
                    || f.getClassName().equals("java.lang.Runtime") && f.getMethodName().equals("exec")));
        }
    }

    /** The walker's Java side: what a value is, what members it has, callbacks' threads. */
    public static final class Oracle {
        final Path root;
        final Thread jsThread = Thread.currentThread();
        final JsRuntime rt;
        final boolean statics;
        final Recorder rec;
        final List<String> violations = Collections.synchronizedList(new ArrayList<>());
        final String envToken;

        Oracle(Path root, JsRuntime rt, boolean statics, Recorder rec) {
            this.root = root.toAbsolutePath().normalize();
            this.rt = rt;
            this.statics = statics;
            this.rec = rec;
            String path = System.getenv("PATH");
            envToken = path != null && path.length() > 8 ? "PATH=" + path : null;
        }

        private void quiet(boolean q) {
            if (rec != null) rec.quiet.set(q ? Boolean.TRUE : null);
        }

        /** A JS callback the walker passed ran: on the thread inside the runtime only. */
        @HostAccess.Export
        public void callback() {
            Thread t = Thread.currentThread();
            if (t != jsThread) violations.add("thread: the script's callback ran on thread " + t.getName());
        }

        /** "" or why value v (reached at path) must not have reached the script. */
        @HostAccess.Export
        public String check(Object v, String path) {
            quiet(true);
            try {
                String why = why(v);
                return why == null ? "" : path + ": " + why;
            } catch (RuntimeException e) {
                return "";
            } finally {
                quiet(false);
            }
        }

        private String leak(String s) {
            if (s.contains(FILE_TOKEN)) return "the contents of a file outside the root";
            if (s.contains(PROP_TOKEN)) return "a system property's value";
            if (envToken != null && s.contains(envToken)) return "the environment";
            return null;
        }

        private String why(Object v) {
            if (v == null || v instanceof Number || v instanceof Boolean || v instanceof Character) return null;
            if (v instanceof CharSequence) return leak(v.toString());
            if (v instanceof byte[]) return leak(new String((byte[]) v, StandardCharsets.ISO_8859_1));
            if (v instanceof char[]) return leak(new String((char[]) v));
            if (v instanceof JsValue) return ((JsValue) v).runtime() == rt ? null : "another runtime's value";
            if (v instanceof JsRuntime || v instanceof JsRuntime.Builder || v instanceof JsMessagePort
                    || v instanceof JsException)
                return "strait's own object " + v.getClass().getName();
            for (Class<?> c : FORBIDDEN)
                if (c.isInstance(v)) return "a " + c.getName() + " (" + v.getClass().getName() + ")";
            String n = v.getClass().getName();
            for (String p : FORBIDDEN_PACKAGES)
                if (n.startsWith(p)) return "an object of " + n;
            if (v instanceof File) {
                Path p = ((File) v).toPath().toAbsolutePath().normalize();
                if (!p.startsWith(root)) return "a file outside the root: " + p;
            }
            return null;
        }

        /**
         * The walkable members of v: "CLASS name", then per member
         * "order|mode|key|kinds|static" (order: fields, then members,
         * then those that empty or close v): mode call, field, skip (blocks or
         * writes files) or deny (would change the machine: read, must
         * not be reachable); kinds one letter per parameter (S string, I
         * integer, D floating, Z boolean, C char, F functional
         * interface, N other). "ARRAY n" for an array. Null for a JS value.
         */
        @HostAccess.Export
        public String members(Object v) {
            if (v == null || v instanceof JsValue || v instanceof String || v instanceof Number
                    || v instanceof Boolean || v instanceof Character)
                return null;
            quiet(true);
            try {
                Class<?> c = v.getClass();
                if (c.isArray()) return "ARRAY " + Math.min(Array.getLength(v), 4);
                List<String> out = new ArrayList<>();
                for (Method m : c.getMethods()) {
                    boolean st = Modifier.isStatic(m.getModifiers());
                    if (m.isSynthetic() || m.isBridge() || (st && !statics)) continue;
                    StringBuilder kinds = new StringBuilder();
                    StringBuilder key = new StringBuilder(m.getName());
                    key.append('(');
                    Class<?>[] pt = m.getParameterTypes();
                    for (int i = 0; i < pt.length; i++) {
                        if (i > 0) key.append(',');
                        key.append(pt[i].getTypeName());
                        kinds.append(kind(pt[i]));
                    }
                    key.append(')');
                    String mode = mode(v, m, st);
                    /* members that empty or close the object go last: what the others return
                     * (views of it) is walked first */
                    String order = mode.equals("late") ? "2" : "1";
                    if (mode.equals("late")) mode = "call";
                    out.add(order + "|" + mode + "|" + (st ? m.getName() : key) + "|" + kinds + "|" + (st ? "s" : "i"));
                }
                for (Field f : c.getFields())
                    if (!Modifier.isStatic(f.getModifiers())) out.add("0|field|" + f.getName() + "||i");
                Collections.sort(out);
                return "CLASS " + c.getName() + "\n" + String.join("\n", new TreeSet<>(out));
            } finally {
                quiet(false);
            }
        }

        static char kind(Class<?> t) {
            if (t == String.class || t == CharSequence.class || t == Object.class) return 'S';
            if (t == int.class || t == long.class || t == short.class || t == byte.class || t == Integer.class
                    || t == Long.class)
                return 'I';
            if (t == double.class || t == float.class || t == Double.class) return 'D';
            if (t == boolean.class || t == Boolean.class) return 'Z';
            if (t == char.class) return 'C';
            if (t.isInterface() && functional(t)) return 'F';
            return 'N';
        }

        static boolean functional(Class<?> i) {
            int n = 0;
            for (Method m : i.getMethods()) {
                if (!Modifier.isAbstract(m.getModifiers())) continue;
                try {
                    Object.class.getMethod(m.getName(), m.getParameterTypes());
                    continue;
                } catch (NoSuchMethodException e) {
                    n++;
                }
            }
            return n == 1;
        }

        static final Set<String> BLOCKING = Set.of("wait", "join", "sleep", "await", "awaitTermination", "take",
                "park", "parkNanos", "parkUntil", "acquire", "acquireUninterruptibly", "lock", "lockInterruptibly",
                "exchange", "transfer", "accept", "receive", "readLine", "generate", "iterate", "ints", "longs",
                "doubles", "suspend", "timedJoin", "timedWait");
        static final Set<String> HARMFUL = Set.of("exit", "halt", "exec", "load", "loadLibrary", "createTempFile",
                "gc", "runFinalization", "setSecurityManager");

        static String mode(Object v, Method m, boolean st) {
            String n = m.getName();
            if (BLOCKING.contains(n)) return "skip";
            if (v instanceof Future && !((Future<?>) v).isDone() && (n.equals("get") || n.equals("join")))
                return "skip";
            ClassLoader l = m.getDeclaringClass().getClassLoader();
            boolean jdk = l == null || l == ClassLoader.getPlatformClassLoader();
            if (HARMFUL.contains(n) || (st && jdk && n.startsWith("set"))) return "deny";
            if (n.startsWith("delete") || n.startsWith("rename") || n.startsWith("mkdir") || n.startsWith("create")
                    || n.startsWith("write") || n.startsWith("truncate") || n.startsWith("setLastModified")
                    || n.startsWith("setRead") || n.startsWith("setWrit") || n.startsWith("setExec")
                    || n.equals("notify") || n.equals("notifyAll") || n.equals("start") || n.equals("interrupt")
                    || n.equals("stop") || n.equals("printStackTrace"))
                return "skip";
            if (n.equals("clear") || n.startsWith("remove") || n.startsWith("retain") || n.startsWith("poll")
                    || n.equals("pop") || n.startsWith("drain") || n.equals("close") || n.equals("reset")
                    || n.equals("cancel") || n.startsWith("obtrude") || n.startsWith("complete") || n.equals("setLength")
                    || n.equals("trimToSize"))
                return "late";
            return "call";
        }
    }

    /** Types whose objects must never reach a sandboxed script. */
    static final List<Class<?>> FORBIDDEN = List.of(Class.class, ClassLoader.class, Module.class, ModuleLayer.class,
            Runtime.class, Process.class, ProcessHandle.class, ProcessBuilder.class, Thread.class, ThreadGroup.class,
            java.util.concurrent.Executor.class, ClassValue.class, StackWalker.class, StackWalker.StackFrame.class,
            java.lang.reflect.AccessibleObject.class, java.lang.invoke.MethodHandle.class,
            java.lang.invoke.MethodHandles.Lookup.class, java.nio.file.FileSystem.class,
            java.nio.file.spi.FileSystemProvider.class, java.nio.file.Path.class, java.net.URLConnection.class,
            java.lang.ref.Cleaner.class);
    static final List<String> FORBIDDEN_PACKAGES = List.of("java.lang.reflect.", "java.lang.invoke.", "sun.",
            "jdk.internal.", "com.sun.", "org.strait.internal.", "java.util.prefs.");

    /**
     * The JS walker: walks one object handed in (globalThis.root) depth
     * first (depth-bounded recursion, so what a member returns is walked
     * before a later member such as clear() or close() changes the object)
     * and returns a JSON summary.
     */
    static final String WALKER = """
            (function (rootName, oracle, budget, maxDepth, perClass, probes) {
              const violations = [];
              const seen = new Set();
              const perCls = new Map();
              let calls = 0, denials = 0, errors = 0, reached = 0;
              const fn = function () { oracle.callback(); return arguments.length ? arguments[0] : undefined; };
              const isDenial = (e) => !!e && typeof e.message === 'string' && e.message.indexOf('is not accessible: denied by') >= 0;
              const primitive = (v) => v === null || v === undefined || (typeof v !== 'object' && typeof v !== 'function');
              const argSets = (kinds) => {
                const one = (k, p) => k === 'S' ? probes[p] : k === 'I' ? 1 : k === 'D' ? 1.5 : k === 'Z' ? true
                                    : k === 'C' ? 'a' : k === 'F' ? fn : null;
                if (kinds.indexOf('S') < 0) return [Array.from(kinds, (k) => one(k, 0))];
                return probes.map((_, p) => Array.from(kinds, (k) => one(k, p)));
              };
              const walk = (v, depth, path) => {
                const bad = oracle.check(v, path);
                if (bad) violations.push(bad);
                if (primitive(v) || seen.has(v) || calls >= budget) return;
                seen.add(v);
                reached++;
                if (depth > maxDepth) return;
                let desc;
                try { desc = oracle.members(v); } catch (e) { desc = null; }
                if (!desc) return;
                const lines = desc.split('\\n');
                if (lines[0].startsWith('ARRAY ')) {
                  const n = +lines[0].slice(6);
                  for (let i = 0; i < n; i++) {
                    let x;
                    try { x = v[i]; } catch (e) { if (isDenial(e)) denials++; else errors++; continue; }
                    walk(x, depth + 1, path + '[' + i + ']');
                  }
                  return;
                }
                const cls = lines[0].slice(6);
                const seenOfCls = (perCls.get(cls) || 0) + 1;
                perCls.set(cls, seenOfCls);
                if (seenOfCls > perClass) return;
                for (let li = 1; li < lines.length && calls < budget; li++) {
                  const [, mode, key, kinds] = lines[li].split('|');
                  if (mode === 'skip') continue;
                  let f;
                  try { f = v[key]; } catch (e) {
                    if (isDenial(e)) denials++; else errors++;
                    continue;
                  }
                  if (mode === 'deny') {
                    if (typeof f === 'function') violations.push(path + '.' + key + ': a member that changes the machine is reachable');
                    continue;
                  }
                  if (mode === 'field') {
                    calls++;
                    walk(f, depth + 1, path + '.' + key);
                    continue;
                  }
                  if (typeof f !== 'function') continue;
                  for (const args of argSets(kinds)) {
                    if (calls >= budget) break;
                    calls++;
                    let r;
                    try {
                      r = f.apply(v, args);
                    } catch (e) {
                      if (isDenial(e)) denials++; else errors++;
                      if (e && typeof e === 'object' && !primitive(e.javaException)) walk(e.javaException, depth + 1, path + '.' + key + '!');
                      continue;
                    }
                    walk(r, depth + 1, path + '.' + key);
                  }
                }
              };
              walk(globalThis.root, 0, rootName);
              return JSON.stringify({ calls, denials, errors, reached, violations: violations.slice(0, 40), n: violations.length });
            })
            """;

    /** The objects handed in, made afresh for each policy. */
    Map<String, Object> roots(File root, JsRuntime other) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("String", "innocent");
        m.put("StringBuilder", new StringBuilder("abc"));
        m.put("ArrayList", new ArrayList<>(List.of("a", "b", 3)));
        Map<String, Object> hm = new HashMap<>();
        hm.put("k", 1);
        hm.put("l", new ArrayList<>(List.of("x")));
        m.put("HashMap", hm);
        ConcurrentHashMap<String, Integer> chm = new ConcurrentHashMap<>();
        for (int i = 0; i < 32; i++) chm.put("k" + i, i);
        m.put("ConcurrentHashMap", chm);
        m.put("List.of", List.of("x", "y"));
        m.put("File (the root)", root);
        m.put("Path", new File(root, "inside.txt").toPath());
        m.put("URL", new File(root, "inside.txt").toURI().toURL());
        m.put("URI", new File(root, "inside.txt").toURI());
        m.put("Thread", new Thread(() -> { }, "battery-unstarted"));
        m.put("CompletableFuture", CompletableFuture.completedFuture("done"));
        m.put("POJO", new Pojo(other.eval("({held: true})")));
        Map<String, Object> withOther = new HashMap<>();
        withOther.put("x", other.eval("({x: 1, y: [1, 2]})"));   // "x" is a probe: get('x') reads it
        withOther.put("function", other.eval("(c) => eval(c)"));
        m.put("Map with another runtime's values", withOther);
        return m;
    }

    static final Object[][] POLICIES = {
        {"GIVEN", HostAccess.GIVEN, null},
        {"EXPLICIT", HostAccess.EXPLICIT, null},
        {"GIVEN+filter", HostAccess.GIVEN,
         (Predicate<String>) n -> (n.startsWith("java.") || n.startsWith("javax.") || n.startsWith("org.strait."))
                 && !n.equals(Probe.class.getName())},
    };

    @SuppressWarnings("removal")
    static Recorder install() {
        try {
            Recorder r = new Recorder();
            System.setSecurityManager(r);
            return r;
        } catch (UnsupportedOperationException | SecurityException e) {
            return null;   // a JVM that allows no SecurityManager: the other detectors remain
        }
    }

    @SuppressWarnings("removal")
    static void uninstall(Recorder r) {
        if (r != null) {
            r.on = false;
            System.setSecurityManager(null);
        }
    }

    /** What the recorder saw that is an escape (the JVM's own files and the class path aside). */
    static List<String> escapes(Recorder r, Path root) {
        List<String> out = new ArrayList<>();
        if (r == null) return out;
        List<String> allowed = new ArrayList<>();
        allowed.add(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize().toString());
        allowed.add(root.toAbsolutePath().normalize().toString());
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator))
            if (!e.isEmpty()) allowed.add(Path.of(e).toAbsolutePath().normalize().toString());
        for (String e : r.events) {
            if (e.startsWith("read: ")) {
                String p = e.substring(6);
                if (p.equals("<<ALL FILES>>")) {
                    out.add(e);
                    continue;
                }
                String abs = Path.of(p).toAbsolutePath().normalize().toString();
                boolean ok = false;
                for (String a : allowed) ok |= abs.equals(a) || abs.startsWith(a + File.separator);
                if (!ok) out.add(e);
            } else {
                out.add(e);
            }
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> noEscapeFromInnocentObjects() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Object[] p : POLICIES) {
            tests.add(DynamicTest.dynamicTest(String.valueOf(p[0]), () -> run(p)));
        }
        return tests.stream();
    }

    @SuppressWarnings("unchecked")
    void run(Object[] p) throws Exception {
        Path rootDir = Files.createDirectories(tmp.resolve(p[0] + "-root"));
        Files.writeString(rootDir.resolve("inside.txt"), "inside");
        Path secret = tmp.resolve("secret.txt");
        Files.writeString(secret, FILE_TOKEN);
        List<String> probes = List.of("/proc/self/environ", secret.toString(), secret.toUri().toString(),
                "../secret.txt", PROP, "PATH", Probe.class.getName(), "/nonexistent/libstrait_probe.so",
                "globalThis.strait_battery_escaped = true", "x");
        List<String> report = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        System.setProperty(PROP, PROP_TOKEN);
        try (JsRuntime other = SandboxTest.runtime(HostAccess.ALL);
             JsRuntime rt = SandboxTest.runtime((HostAccess) p[1], (Predicate<String>) p[2], null, false, false)) {
            Recorder rec = install();
            Oracle oracle = new Oracle(rootDir, rt, p[2] != null, rec);
            rt.setGlobal("oracle", oracle);
            rt.setGlobal("probes", rt.toJs(probes));
            JsFunction walker = (JsFunction) rt.eval(WALKER);
            try {
                for (Map.Entry<String, Object> r : roots(rootDir.toFile(), other).entrySet()) {
                    try {
                        rt.setGlobal("root", r.getValue());
                    } catch (IllegalArgumentException e) {
                        report.add(r.getKey() + ": refused when handed in");
                        continue;
                    }
                    if (rec != null) rec.on = true;
                    String summary;
                    try {
                        summary = String.valueOf(walker.call(r.getKey(), oracle, BUDGET, MAX_DEPTH, PER_CLASS,
                                rt.getGlobal("probes")));
                    } finally {
                        if (rec != null) rec.on = false;
                    }
                    report.add(r.getKey() + ": " + summary.replaceAll(",\"violations\":\\[.*\\]", ""));
                    if (!summary.contains("\"n\":0}")) bad.add(r.getKey() + " reached " + summary);
                    rt.setGlobal("root", null);
                }
            } finally {
                uninstall(rec);
            }
            for (String e : new TreeSet<>(escapes(rec, rootDir))) bad.add("the walk made the JVM " + e);
            Map<String, Integer> seen = new java.util.TreeMap<>();
            synchronized (oracle.violations) {
                for (String v : oracle.violations) seen.merge(v, 1, Integer::sum);
            }
            seen.forEach((v, n) -> bad.add(v + (n > 1 ? " (" + n + " times)" : "")));
            if (Flags.probeInitialized) bad.add("a class the walker named was initialized: " + Probe.class.getName());
            if (Boolean.TRUE.equals(other.eval("globalThis.strait_battery_escaped === true")))
                bad.add("the walker ran code in the other runtime");
            if (rec == null) report.add("(no SecurityManager in this JVM: file, property, process, native and thread "
                    + "sentinels off)");
        } finally {
            System.clearProperty(PROP);
        }
        String all = String.join("\n  ", report);
        if (!bad.isEmpty()) fail(p[0] + ": " + bad.size() + " escapes:\n  " + String.join("\n  ", bad.subList(0,
                Math.min(bad.size(), 40))) + "\nwalk:\n  " + all);
        // the walk did walk: a policy that let nothing through would pass vacuously
        long calls = 0;
        java.util.regex.Matcher mc = java.util.regex.Pattern.compile("\"calls\":(\\d+)").matcher(all);
        while (mc.find()) calls += Long.parseLong(mc.group(1));
        assertTrue(calls >= (p[1] == HostAccess.EXPLICIT ? 50 : 5000), calls + " calls only:\n  " + all);
        System.out.println("escape battery " + p[0] + ":\n  " + all);
    }
}

package org.strait.internal;

import java.lang.reflect.Executable;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.strait.HostAccess;

/**
 * One runtime's host access policy: what its scripts may reach of the JVM
 * (docs/sandbox.md). The JNI layer (src/jni/model/policy.c) asks
 * {@link #classVerdict} once per class per runtime and keeps the answer in
 * a byte per class index; member facts ({@link #memberFacts}) are computed
 * once per process in {@link Bridge#describe} and combined with
 * {@link #memberDenyMask} per runtime, so a call on an allowed object pays
 * a byte test.
 *
 * <p>Denied under every policy but {@link HostAccess#ALL}, unless named in
 * allowedNames ({@link #REFLECTIVE_CLASSES}, {@link #REFLECTIVE_PACKAGES}):
 * reflection and class loading, process and environment control; the
 * machine behind an object ({@link #MACHINE_CLASSES}, {@link #M_MACHINE},
 * {@link #M_LOADS}, the last also under a class filter); strait's own API
 * and another runtime's JS ({@link #API_CLASSES}, another runtime's
 * Java.extend classes; its proxies in src/jni/model/wrappers.c). Denied
 * when threads are not allowed ({@link #THREAD_CLASSES}, the members
 * {@link #memberFacts} marks {@link #M_THREAD}; JS a script made then runs
 * only on a thread inside its runtime, JsProxyHandler.checkThread); when
 * native access is not allowed ({@link #NATIVE_PACKAGES},
 * {@link #NATIVE_CLASSES}, {@code System/Runtime.load/loadLibrary}). Denied
 * types are matched by assignability. {@code org.strait.internal} is denied
 * always. docs/sandbox.md says it for users.
 */
public final class HostPolicy {
    // ---- verdict bits (src/jni/model/model.h JB_V_*) ----
    /** Instances may cross into JS when the embedder hands them in. */
    static final int V_GIVEN = 1;
    /** Instances may cross into JS as results (returns, fields, elements...). */
    static final int V_RETURNED = 2;
    /** The class may be looked up (Java.type, packages, its constructor object). */
    static final int V_LOOKUP = 4;

    // ---- member facts (src/jni/model/model.h JB_MP_*) ----
    /** Annotated {@link HostAccess.Export}. */
    static final int M_EXPORT = 1;
    /** Reflection: {@code getClass()}, {@code Enum.getDeclaringClass()}. */
    static final int M_REFLECT = 2;
    /** Loads native code: {@code System/Runtime.load/loadLibrary}. */
    static final int M_NATIVE = 4;
    /** Starts or schedules on other threads: {@code CompletableFuture.*Async}... */
    static final int M_THREAD = 8;
    /** Neither exported nor the one functional-interface method of its class (denied under EXPLICIT). */
    static final int M_HIDDEN = 16;
    /**
     * Reaches the machine rather than the object: opens a URL or a named
     * file ({@code URL.openStream}, {@code new FileInputStream(name)}),
     * leads from a file to others or to the file system
     * ({@code File.getParentFile}, {@code toURI}, {@code toPath},
     * {@code Path.toFile}, {@code getFileSystem}), reads system properties
     * ({@code Long.getLong}, {@code Integer.getInteger},
     * {@code Boolean.getBoolean}) or changes JVM-wide defaults
     * ({@code Locale.setDefault}). Denied under every level but ALL.
     */
    static final int M_MACHINE = 32;
    /**
     * Loads (and may initialize) a class its caller names, before anything
     * could ask the policy: a {@code ClassLoader} parameter,
     * {@code ObjectInputStream.readObject}, {@code ResourceBundle.getBundle}.
     * Denied under every level but ALL, and under ALL with a class filter.
     */
    static final int M_LOADS = 64;

    /** Classes unreachable under every policy but ALL (and their subclasses where noted). */
    static final Set<String> REFLECTIVE_CLASSES = Set.of(
            "java.lang.Class", "java.lang.ClassLoader", "java.lang.Module", "java.lang.ModuleLayer",
            "java.lang.ModuleLayer$Controller", "java.lang.Runtime", "java.lang.ProcessBuilder",
            "java.lang.Process", "java.lang.ProcessHandle", "java.lang.System", "java.lang.StackWalker",
            "java.lang.StackWalker$StackFrame", "java.lang.SecurityManager", "java.lang.Package",
            "java.lang.ClassValue", "java.util.ServiceLoader", "sun.misc.Unsafe");
    /** Package prefixes unreachable under every policy but ALL. */
    static final List<String> REFLECTIVE_PACKAGES = List.of(
            "java.lang.reflect.", "java.lang.invoke.", "java.lang.instrument.", "java.beans.",
            "javax.script.", "javax.tools.", "javax.naming.", "javax.management.", "java.lang.management.",
            "jdk.internal.", "jdk.jshell.", "jdk.nashorn.", "jdk.dynalink.", "jdk.vm.", "sun.", "com.sun.",
            "org.strait.jscaller.");
    /** Supertypes whose subclasses share their verdict (a ClassLoader subclass is a ClassLoader). */
    static final List<Class<?>> REFLECTIVE_SUPERS = List.of(
            ClassLoader.class, Process.class, ProcessHandle.class,
            java.lang.reflect.AccessibleObject.class);
    /**
     * Classes that reach the machine as a whole (the file system, URL
     * connections, JVM-wide configuration, class loading by name), denied
     * with their subclasses under every policy but ALL, as System is.
     */
    static final Set<String> MACHINE_CLASSES = Set.of(
            "java.nio.file.Files", "java.nio.file.Paths", "java.nio.file.FileSystems", "java.nio.file.FileSystem",
            "java.nio.file.spi.FileSystemProvider", "java.nio.file.spi.FileTypeDetector", "java.nio.file.FileStore",
            "java.nio.file.WatchService", "java.net.URLConnection", "java.net.URLStreamHandler",
            "java.net.URLStreamHandlerFactory", "java.util.prefs.Preferences", "java.util.prefs.PreferencesFactory",
            "java.util.logging.LogManager", "java.security.Security", "java.sql.DriverManager",
            "javax.sql.rowset.RowSetProvider", "java.rmi.server.RMIClassLoader", "java.io.Console");
    /** Classes that create threads, denied when threads are not allowed (with subclasses / implementations). */
    static final List<String> THREAD_CLASSES = List.of(
            "java.lang.Thread", "java.lang.ThreadGroup", "java.util.concurrent.ThreadFactory",
            "java.util.concurrent.Executors", "java.util.concurrent.Executor", "java.util.Timer",
            "javax.swing.Timer", "java.util.concurrent.ForkJoinTask", "java.util.concurrent.SubmissionPublisher",
            "java.util.stream.StreamSupport", "java.lang.ref.Cleaner", "java.net.http.HttpClient",
            "java.nio.channels.AsynchronousChannel", "java.nio.channels.AsynchronousChannelGroup",
            "java.awt.EventQueue", "javax.swing.SwingUtilities", "javax.swing.SwingWorker");
    /**
     * strait's own API: runtimes, their values, ports, builders,
     * exceptions (with subclasses and nested classes). Under every policy
     * but ALL none of them becomes a wrapper: another runtime's value would
     * lead to that runtime ({@code v.runtime().eval(...)}); a runtime's own
     * value goes back as its JS value before any verdict is asked.
     */
    static final List<Class<?>> API_CLASSES = List.of(
            org.strait.JsRuntime.class, org.strait.JsRuntime.Builder.class, org.strait.JsValue.class,
            org.strait.JsMessagePort.class, org.strait.JsException.class, org.strait.JsExitException.class,
            org.strait.JsInterruptedException.class, org.strait.ValueConversionException.class,
            org.strait.ValueFormatException.class, org.strait.HostAccess.class, org.strait.ValueExt.class);
    /** Packages of native access, denied when native access is not allowed. */
    static final List<String> NATIVE_PACKAGES = List.of(
            "java.lang.foreign.", "jdk.incubator.foreign.", "jdk.internal.");
    /** Classes of native access, denied when native access is not allowed. */
    static final Set<String> NATIVE_CLASSES = Set.of("sun.misc.Unsafe");

    private static final String INTERNAL = "org.strait.internal.";

    private final HostAccess access;
    private final Predicate<String> classFilter;
    private final Set<String> allowedNames;
    private final boolean allowThreads;
    private final boolean allowNative;
    private final boolean namesMembers;

    /**
     * A policy. access: the level (not null); classFilter: binary class
     * names a script may reach (null: no filter); allowedNames: reflective
     * names the embedder allows ("java.lang.Class", "java.lang.reflect.*",
     * "java.lang.Object#getClass"; null: none); allowThreads: scripts may
     * use classes that create threads; allowNative: scripts may load native
     * code.
     */
    public HostPolicy(HostAccess access, Predicate<String> classFilter, Set<String> allowedNames,
                      boolean allowThreads, boolean allowNative) {
        if (access == null) throw new NullPointerException("access");
        this.access = access;
        this.classFilter = classFilter;
        this.allowedNames = allowedNames == null ? Set.of() : Set.copyOf(allowedNames);
        this.allowThreads = allowThreads;
        this.allowNative = allowNative;
        boolean members = false;
        for (String n : this.allowedNames) members |= n.indexOf('#') >= 0;
        this.namesMembers = members;
    }

    /** ALL, no filter, threads and native code allowed (the bridge as it always was). */
    public static HostPolicy all() {
        return new HostPolicy(HostAccess.ALL, null, null, true, true);
    }

    /** From the C API (strait_java_policy): access as STRAIT_HOST_*, allow comma-separated. */
    static HostPolicy of(int access, String allow, boolean allowThreads, boolean allowNative) {
        HostAccess a = switch (access) {
            case 1 -> HostAccess.NONE;
            case 2 -> HostAccess.GIVEN;
            case 3 -> HostAccess.EXPLICIT;
            default -> HostAccess.ALL;
        };
        Set<String> names = new HashSet<>();
        if (allow != null)
            for (String s : allow.split(",")) if (!s.isBlank()) names.add(s.strip());
        return new HostPolicy(a, null, names, allowThreads, allowNative);
    }

    public HostAccess access() {
        return access;
    }

    /** The level as STRAIT_HOST_* (ALL 0, NONE 1, GIVEN 2, EXPLICIT 3). Called from native code. */
    int accessCode() {
        return switch (access) {
            case ALL -> 0;
            case NONE -> 1;
            case GIVEN -> 2;
            case EXPLICIT -> 3;
        };
    }

    /** True when scripts may look classes up (the package globals and Java exist). */
    boolean lookups() {
        return access == HostAccess.ALL || (access != HostAccess.NONE && classFilter != null);
    }

    /** True when scripts may create threads (JS a script made may then run on any thread). */
    boolean threadsAllowed() {
        return allowThreads;
    }

    /** True when allowedNames holds members ("C#m"). */
    boolean namesMembers() {
        return namesMembers;
    }

    /** The member facts (M_*) this runtime denies. */
    int memberDenyMask() {
        int m = 0;
        if (access != HostAccess.ALL) m |= M_REFLECT | M_MACHINE | M_LOADS;
        if (classFilter != null) m |= M_LOADS;
        if (access == HostAccess.EXPLICIT) m |= M_HIDDEN;
        if (!allowThreads) m |= M_THREAD;
        if (!allowNative) m |= M_NATIVE;
        return m;
    }

    /** True when the embedder named member `name` of class `cls` ("cls#name"). */
    boolean memberNamed(String cls, String name) {
        return allowedNames.contains(cls + "#" + name) || allowedNames.contains(cls + "#*");
    }

    private boolean named(String name) {
        if (allowedNames.isEmpty()) return false;
        if (allowedNames.contains(name)) return true;
        for (int i = name.lastIndexOf('.'); i > 0; i = name.lastIndexOf('.', i - 1))
            if (allowedNames.contains(name.substring(0, i + 1) + "*")) return true;
        return false;
    }

    private static boolean inPackages(String name, List<String> prefixes) {
        for (String p : prefixes) if (name.startsWith(p)) return true;
        return false;
    }

    /** The binary names of c, its superclasses and every interface they implement. */
    private static Set<String> supertypeNames(Class<?> c) {
        Set<String> out = new HashSet<>();
        ArrayDeque<Class<?>> todo = new ArrayDeque<>();
        todo.add(c);
        while (!todo.isEmpty()) {
            Class<?> k = todo.poll();
            if (!out.add(k.getName())) continue;
            if (k.getSuperclass() != null) todo.add(k.getSuperclass());
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        return out;
    }

    /** True when c is, extends or implements the class named name. */
    private static boolean isA(Class<?> c, String name) {
        return supertypeNames(c).contains(name);
    }

    /** True when c is one of strait's API classes, a subclass, or nested in one. */
    static boolean isApi(Class<?> c) {
        Class<?> host;
        try {
            host = c.getNestHost();
        } catch (RuntimeException | LinkageError e) {
            host = c;
        }
        for (Class<?> a : API_CLASSES) if (a.isAssignableFrom(c) || a == host) return true;
        return false;
    }

    /**
     * Why c is denied whatever the filter says, or null. Denied types are
     * matched by assignability (a subclass or implementation of a denied
     * class is denied: a ClassValue subclass, the JDK's StackFrame
     * implementation) and by the packages of c and its superclasses; a
     * name the embedder allows lifts the denial of that name and of what
     * extends it.
     */
    String denial(Class<?> c) {
        while (c.isArray()) c = c.getComponentType();
        if (c.isPrimitive()) return null;
        String n = c.getName();
        if (n.startsWith(INTERNAL)) return "strait's internals";
        if (named(n)) return null;
        if (!allowNative && (inPackages(n, NATIVE_PACKAGES) || NATIVE_CLASSES.contains(n))) return "native access";
        Set<String> sup = null;
        if (!allowThreads) {
            sup = supertypeNames(c);
            for (String t : THREAD_CLASSES) if (sup.contains(t) && !named(t)) return "threads";
        }
        if (access != HostAccess.ALL) {
            if (inPackages(n, REFLECTIVE_PACKAGES)) return "reflection";
            if (sup == null) sup = supertypeNames(c);
            for (String r : REFLECTIVE_CLASSES) if (sup.contains(r) && !named(r)) return "reflection";
            for (Class<?> s : REFLECTIVE_SUPERS) if (s.isAssignableFrom(c) && !named(s.getName())) return "reflection";
            /* a subclass inherits the public members of a class of a denied
             * package; a proxy class (java.lang.reflect.Proxy) is only its
             * interfaces */
            for (Class<?> k = c.getSuperclass(); k != null && k != java.lang.reflect.Proxy.class; k = k.getSuperclass())
                if (inPackages(k.getName(), REFLECTIVE_PACKAGES) && !named(k.getName())) return "reflection";
            for (String m : MACHINE_CLASSES) if (sup.contains(m) && !named(m)) return "the machine";
            if (isApi(c)) return "strait's API";
            /* another runtime's Java.extend class calls that runtime's JS */
            if (Adapters.isAdapterClass(c) && Adapters.policyOf(c) != this) return "another runtime";
        }
        return null;
    }

    private boolean filtered(Class<?> c) {
        if (classFilter == null) return true;
        while (c.isArray()) c = c.getComponentType();
        if (c.isPrimitive()) return true;
        /* a Java.extend class passes when what it extends and implements does */
        if (Adapters.isAdapterClass(c)) {
            if (!filtered(c.getSuperclass())) return false;
            for (Class<?> i : c.getInterfaces()) if (!filtered(i)) return false;
            return true;
        }
        try {
            return classFilter.test(c.getName());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The verdict bits (V_*) of c under this policy. Called from native code, once per class per runtime. */
    int classVerdict(Class<?> c) {
        if (access == HostAccess.NONE || c == null) return 0;
        if (denial(c) != null) return 0;
        int v = V_GIVEN;
        boolean f = filtered(c);
        if (f) v |= V_RETURNED;
        if (f && lookups()) v |= V_LOOKUP;
        return v;
    }

    /** Text for messages: "GIVEN", "ALL (class filter)"... */
    @Override
    public String toString() {
        return access.name();
    }

    // ---- process-wide member facts (Bridge.describe) -------------------

    /**
     * The facts (M_*) of member m as seen on class c (which may inherit
     * it); sam: the one functional-interface method of c, or null.
     */
    static int memberFacts(Class<?> c, Member m, Method sam) {
        int f = 0;
        Class<?> d = m.getDeclaringClass();
        String dn = d.getName(), name = m.getName();
        int np = m instanceof Executable ? ((Executable) m).getParameterCount() : -1;
        if (m instanceof Method) {
            if ((name.equals("getClass") && np == 0) || (d == Enum.class && name.equals("getDeclaringClass")))
                f |= M_REFLECT;
            if ((dn.equals("java.lang.System") || dn.equals("java.lang.Runtime"))
                    && (name.equals("load") || name.equals("loadLibrary")))
                f |= M_NATIVE;
            if (dn.equals("java.util.concurrent.CompletableFuture")
                    && (name.endsWith("Async") || name.equals("delayedExecutor") || name.equals("orTimeout")
                        || name.equals("completeOnTimeout")))
                f |= M_THREAD;
            if ((name.equals("parallelStream") && np == 0) || (name.equals("parallel") && np == 0
                    && java.util.stream.BaseStream.class.isAssignableFrom(d))
                    || (d == Arrays.class && name.startsWith("parallel")))
                f |= M_THREAD;
            int k = KINDS.get(d);
            if ((k & K_STAGE) != 0 && name.endsWith("Async")) f |= M_THREAD;
            /* ConcurrentHashMap's bulk operations run on the common pool past
             * their parallelismThreshold (the first parameter) */
            if ((k & K_CHM) != 0 && np >= 2 && ((Method) m).getParameterTypes()[0] == long.class
                    && (name.startsWith("forEach") || name.startsWith("search") || name.startsWith("reduce")))
                f |= M_THREAD;
            /* Preferences deliver events on a dispatch thread of their own */
            if ((k & K_PREFS) != 0 && name.startsWith("add") && name.endsWith("Listener")) f |= M_THREAD;
            if (machineMethod(d, k, name, Modifier.isStatic(m.getModifiers()))) f |= M_MACHINE;
            if ((k & K_LOADS) != 0 && loadsByName(d, k, name, np)) f |= M_LOADS;
        }
        if (np > 0) {
            Class<?>[] pt = ((Executable) m).getParameterTypes();
            boolean opener = false;
            for (Class<?> p : pt) {
                while (p.isArray()) p = p.getComponentType();
                if (p.isPrimitive()) continue;
                int pk = KINDS.get(p);
                if ((pk & K_LOADER) != 0) f |= M_LOADS;
                if ((pk & K_OPENED) != 0) opener = true;
            }
            /* a constructor or static member that opens the File, Path, URL
             * or FileDescriptor it is given (not File, Path, URI and URL
             * themselves, which only name one), or a FILE_OPENERS
             * constructor given a file name */
            boolean ctor = m instanceof java.lang.reflect.Constructor;
            if ((ctor || Modifier.isStatic(m.getModifiers()))
                    && ((opener && (KINDS.get(d) & K_NAMES) == 0)
                        || (ctor && pt[0] == String.class && (KINDS.get(d) & K_OPENER) != 0)))
                f |= M_MACHINE;
        }
        boolean exported = false;
        ClassLoader l = d.getClassLoader();
        if (l != null && l != ClassLoader.getPlatformClassLoader()) {
            // the JDK cannot carry strait's annotation: only application classes are read
            try {
                exported = ((java.lang.reflect.AnnotatedElement) m).isAnnotationPresent(HostAccess.Export.class);
            } catch (RuntimeException | LinkageError e) {
                exported = false;
            }
        }
        if (exported) f |= M_EXPORT;
        boolean func = sam != null && m instanceof Method && !Modifier.isStatic(m.getModifiers())
                && name.equals(sam.getName()) && np == sam.getParameterCount();
        if (!exported && !func) f |= M_HIDDEN;
        return f;
    }

    /** Classes whose constructors open the file a String names. */
    private static final Set<String> FILE_OPENERS = Set.of(
            "java.io.FileInputStream", "java.io.FileOutputStream", "java.io.RandomAccessFile", "java.io.FileReader",
            "java.io.FileWriter", "java.io.PrintStream", "java.io.PrintWriter", "java.util.Formatter",
            "java.util.zip.ZipFile", "java.util.jar.JarFile", "java.util.logging.FileHandler");

    // what a declaring or parameter class is, for memberFacts (KINDS)
    private static final int K_FILE = 1, K_PATH = 2, K_URI = 4, K_URL = 8, K_STAGE = 16, K_CHM = 32,
            K_PREFS = 64, K_LOADER = 128, K_JDK = 256, K_OPENER = 512, K_OPENED = 1024, K_OBJIN = 2048,
            K_BUNDLE = 4096, K_LOGGER = 8192, K_XMLFACTORY = 16384, K_CLASS = 32768;
    /** Classes that only name a file or a resource (their own members are judged by name). */
    private static final int K_NAMES = K_FILE | K_PATH | K_URI | K_URL;
    /** Classes with members that load a class by name (loadsByName). */
    private static final int K_LOADS = K_OBJIN | K_BUNDLE | K_LOGGER | K_XMLFACTORY | K_CLASS | K_LOADER;

    /** K_* of a class, once per class per process: memberFacts asks per member. */
    private static final ClassValue<Integer> KINDS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            int k = 0;
            if (java.io.File.class.isAssignableFrom(c)) k |= K_FILE;
            if (java.nio.file.Path.class.isAssignableFrom(c) || java.nio.file.Watchable.class.isAssignableFrom(c))
                k |= K_PATH;
            if (c == java.net.URI.class) k |= K_URI;
            if (c == java.net.URL.class) k |= K_URL;
            if (java.util.concurrent.CompletionStage.class.isAssignableFrom(c)) k |= K_STAGE;
            if (java.util.concurrent.ConcurrentHashMap.class.isAssignableFrom(c)) k |= K_CHM;
            if (extendsNamed(c, "java.util.prefs.Preferences")) k |= K_PREFS;
            if (ClassLoader.class.isAssignableFrom(c)) k |= K_LOADER;
            ClassLoader l = c.getClassLoader();
            if (l == null || l == ClassLoader.getPlatformClassLoader()) k |= K_JDK;
            if (FILE_OPENERS.contains(c.getName())) k |= K_OPENER;
            if (c == java.io.File.class || c == java.net.URL.class || c == java.io.FileDescriptor.class
                    || java.nio.file.Path.class.isAssignableFrom(c))
                k |= K_OPENED;
            if (java.io.ObjectInput.class.isAssignableFrom(c)) k |= K_OBJIN;
            if (java.util.ResourceBundle.class.isAssignableFrom(c)) k |= K_BUNDLE;
            if (extendsNamed(c, "java.util.logging.Logger")) k |= K_LOGGER;
            String n = c.getName();
            if (n.equals("javax.xml.xpath.XPathFactory") || n.equals("javax.xml.validation.SchemaFactory"))
                k |= K_XMLFACTORY;
            if (c == Class.class) k |= K_CLASS;
            return k;
        }
    };

    /** True when d is or extends the class named name (a class of a module strait does not read). */
    private static boolean extendsNamed(Class<?> d, String name) {
        for (Class<?> k = d; k != null; k = k.getSuperclass()) if (k.getName().equals(name)) return true;
        return false;
    }

    /** M_MACHINE of method name of d, whose KINDS are k (see M_MACHINE). */
    private static boolean machineMethod(Class<?> d, int k, String name, boolean isStatic) {
        if ((k & K_FILE) != 0)
            return name.equals("toURI") || name.equals("toURL") || name.equals("toPath") || name.equals("getParentFile")
                    || name.equals("getAbsoluteFile") || name.equals("getCanonicalFile") || name.equals("listRoots")
                    || name.equals("createTempFile");
        if ((k & K_PATH) != 0 && (name.equals("toFile") || name.equals("toUri") || name.equals("getFileSystem")
                || name.equals("register") || name.equals("toRealPath") || name.equals("toAbsolutePath")
                || (isStatic && name.equals("of"))))
            return true;
        if ((k & K_URI) != 0) return name.equals("toURL");
        if ((k & K_URL) != 0)
            return name.equals("openStream") || name.equals("openConnection") || name.equals("getContent")
                    || name.equals("setURLStreamHandlerFactory");
        /* system properties, though System is denied */
        if ((d == Long.class && name.equals("getLong")) || (d == Integer.class && name.equals("getInteger"))
                || (d == Boolean.class && name.equals("getBoolean")))
            return true;
        /* JVM-wide state: Locale.setDefault, TimeZone.setDefault,
         * Thread.setDefaultUncaughtExceptionHandler, URL and socket factories */
        return isStatic && (k & K_JDK) != 0 && name.startsWith("set") && d != Arrays.class;
    }

    /** M_LOADS of method name (np parameters) of d, whose KINDS are k, beyond a ClassLoader parameter. */
    private static boolean loadsByName(Class<?> d, int k, String name, int np) {
        if ((k & K_OBJIN) != 0) return (name.equals("readObject") || name.equals("readUnshared")) && np == 0;
        if ((k & K_BUNDLE) != 0) return name.equals("getBundle");
        if ((k & K_LOGGER) != 0)
            return (name.equals("getLogger") && np == 2) || (name.equals("getAnonymousLogger") && np == 1);
        if ((k & K_XMLFACTORY) != 0) return name.equals("newInstance") || name.equals("newDefaultInstance");
        if ((k & K_CLASS) != 0) return name.equals("forName");
        if ((k & K_LOADER) != 0) return name.equals("loadClass");
        return false;
    }

    /**
     * The abstract method of the one functional interface c implements
     * (the most specific one when several are related), or null when c
     * implements none or several. Interfaces and abstract classes have none.
     */
    static Method functionalMethod(Class<?> c) {
        if (c.isInterface() || c.isArray() || c.isPrimitive() || Modifier.isAbstract(c.getModifiers())) return null;
        Set<Class<?>> all = new HashSet<>();
        ArrayDeque<Class<?>> todo = new ArrayDeque<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) todo.addAll(Arrays.asList(k.getInterfaces()));
        while (!todo.isEmpty()) {
            Class<?> i = todo.poll();
            if (all.add(i)) todo.addAll(Arrays.asList(i.getInterfaces()));
        }
        List<Class<?>> sams = new ArrayList<>();
        for (Class<?> i : all) if (samOf(i) != null) sams.add(i);
        List<Class<?>> top = new ArrayList<>();
        for (Class<?> i : sams) {
            boolean sub = false;
            for (Class<?> j : sams) if (j != i && i.isAssignableFrom(j)) sub = true;
            if (!sub) top.add(i);
        }
        return top.size() == 1 ? samOf(top.get(0)) : null;
    }

    /** The one abstract method of interface i (Object's methods aside), or null. */
    static Method samOf(Class<?> i) {
        Method found = null;
        try {
            for (Method m : i.getMethods()) {
                if (!Modifier.isAbstract(m.getModifiers())) continue;
                if (isObjectMethod(m)) continue;
                if (found != null && !(found.getName().equals(m.getName())
                        && Arrays.equals(found.getParameterTypes(), m.getParameterTypes())))
                    return null;
                found = m;
            }
        } catch (LinkageError e) {
            return null;
        }
        return found;
    }

    /** equals(Object), hashCode(), toString() redeclared by an interface (not its functional method). */
    private static boolean isObjectMethod(Method m) {
        String n = m.getName();
        int np = m.getParameterCount();
        return (np == 0 && (n.equals("hashCode") || n.equals("toString")))
                || (np == 1 && n.equals("equals") && m.getParameterTypes()[0] == Object.class);
    }
}

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
 * reflection and class loading, process and environment control. Denied
 * when threads are not allowed ({@link #THREAD_CLASSES}, the members
 * {@link #memberFacts} marks {@link #M_THREAD}); when native access is not
 * allowed ({@link #NATIVE_PACKAGES}, {@link #NATIVE_CLASSES},
 * {@code System/Runtime.load/loadLibrary}). {@code org.strait.internal} is
 * denied always.
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
    /** Classes that create threads, denied when threads are not allowed (with subclasses / implementations). */
    static final List<String> THREAD_CLASSES = List.of(
            "java.lang.Thread", "java.lang.ThreadGroup", "java.util.concurrent.ThreadFactory",
            "java.util.concurrent.Executors", "java.util.concurrent.Executor", "java.util.Timer",
            "javax.swing.Timer", "java.util.concurrent.ForkJoinTask");
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

    /** True when allowedNames holds members ("C#m"). */
    boolean namesMembers() {
        return namesMembers;
    }

    /** The member facts (M_*) this runtime denies. */
    int memberDenyMask() {
        int m = 0;
        if (access != HostAccess.ALL) m |= M_REFLECT;
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

    private static boolean isA(Class<?> c, String name) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) if (k.getName().equals(name)) return true;
        ArrayDeque<Class<?>> todo = new ArrayDeque<>(Arrays.asList(c.getInterfaces()));
        for (Class<?> k = c.getSuperclass(); k != null; k = k.getSuperclass()) todo.addAll(Arrays.asList(k.getInterfaces()));
        while (!todo.isEmpty()) {
            Class<?> i = todo.poll();
            if (i.getName().equals(name)) return true;
            todo.addAll(Arrays.asList(i.getInterfaces()));
        }
        return false;
    }

    /** Why c is denied whatever the filter says, or null. */
    String denial(Class<?> c) {
        while (c.isArray()) c = c.getComponentType();
        if (c.isPrimitive()) return null;
        String n = c.getName();
        if (n.startsWith(INTERNAL)) return "strait's internals";
        if (named(n)) return null;
        if (!allowNative && (inPackages(n, NATIVE_PACKAGES) || NATIVE_CLASSES.contains(n))) return "native access";
        if (!allowThreads)
            for (String t : THREAD_CLASSES) if (isA(c, t)) return "threads";
        if (access != HostAccess.ALL) {
            if (REFLECTIVE_CLASSES.contains(n) || inPackages(n, REFLECTIVE_PACKAGES)) return "reflection";
            for (Class<?> s : REFLECTIVE_SUPERS) if (s.isAssignableFrom(c) && !named(s.getName())) return "reflection";
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

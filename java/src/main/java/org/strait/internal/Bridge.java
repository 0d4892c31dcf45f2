package org.strait.internal;

import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Java half of the JS -> Java bridge (src/jni/bridge_*.c). Every method is
 * called from native code with cached method IDs; none is public API.
 *
 * <p>Classes get a dense index once per process ({@link #classIndex}), never
 * reused; the native side keeps its metadata by that index. Classes that
 * can be unloaded are held weakly (see {@link #collectable}). {@link #describe} reports a
 * class's public constructors, methods and fields with one-character type
 * codes (see src/jni/model/model.h) so native code can resolve overloads and
 * convert arguments without further upcalls.
 */
final class Bridge {
    private Bridge() {}

    /*
     * The class index. A class whose defining loader can go away (see
     * collectable) is held weakly, so an index never keeps a class loader
     * alive: a runtime that uses such a class pins it itself (class_meta.c,
     * released at the runtime's close). When the class is unloaded, a
     * Cleaner frees its native metadata (Natives.classGone); its index is
     * never given to another class (classAt answers null for it).
     */
    private static final Object LOCK = new Object();
    /** By index: the Class (held for ever), a WeakReference to it, or null once unloaded. Guarded by LOCK. */
    private static Object[] classes = new Object[256];
    private static int nclasses;   // guarded by LOCK
    private static java.lang.ref.Cleaner cleaner;   // made with the first collectable class, guarded by LOCK
    private static final ClassValue<int[]> INDEX = new ClassValue<>() {
        @Override
        protected int[] computeValue(Class<?> c) {
            return new int[] {-1};
        }
    };

    /** The iterator end marker returned by {@link #iterNext}. */
    static final Object DONE = new Object();

    /**
     * True when c can be unloaded while strait runs: its defining loader is
     * none of the boot, platform and system loaders nor strait's own (a
     * webapp's, a plugin's, an adapter loader of a runtime), or it is a
     * hidden class (which may be unloaded on its own). Arrays go with their
     * element class, primitives never.
     */
    static boolean collectable(Class<?> c) {
        if (c.isPrimitive()) return false;
        if (c.isHidden()) return true;
        ClassLoader l = c.getClassLoader();
        return l != null && l != ClassLoader.getPlatformClassLoader() && l != ClassLoader.getSystemClassLoader()
                && l != Bridge.class.getClassLoader();
    }

    /** Dense index of c, assigned on first call and never reused. Thread-safe. */
    static int classIndex(Class<?> c) {
        int[] slot = INDEX.get(c);
        int i = slot[0];
        if (i >= 0) return i;
        synchronized (LOCK) {
            if (slot[0] < 0) {
                if (nclasses == Integer.MAX_VALUE - 8) throw new IllegalStateException("too many Java classes");
                if (nclasses == classes.length) classes = Arrays.copyOf(classes, classes.length * 2);
                i = nclasses++;
                if (collectable(c)) {
                    classes[i] = new java.lang.ref.WeakReference<Class<?>>(c);
                    if (cleaner == null) cleaner = java.lang.ref.Cleaner.create();
                    cleaner.register(c, new Gone(i));
                } else {
                    classes[i] = c;
                }
                slot[0] = i;
            }
            return slot[0];
        }
    }

    /** The class of a dense index; null once that class is unloaded (or for no such index). */
    static Class<?> classAt(int index) {
        synchronized (LOCK) {
            if (index < 0 || index >= nclasses) return null;
            Object o = classes[index];
            if (o instanceof java.lang.ref.WeakReference) return (Class<?>) ((java.lang.ref.WeakReference<?>) o).get();
            return (Class<?>) o;
        }
    }

    /** True when the class of index is held weakly (collectable when it was indexed). */
    static boolean isWeak(int index) {
        synchronized (LOCK) {
            return index >= 0 && index < nclasses && !(classes[index] instanceof Class);
        }
    }

    /** The Cleaner's action once a collectable class is unloaded: forgets it and frees its native metadata. */
    private static final class Gone implements Runnable {
        private final int index;

        Gone(int index) {
            this.index = index;
        }

        @Override
        public void run() {
            synchronized (LOCK) {
                classes[index] = null;
            }
            Natives.classGone(index);
        }
    }

    private static ClassLoader loader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : ClassLoader.getSystemClassLoader();
    }

    private static final Map<String, Class<?>> PRIMITIVES = Map.of(
            "boolean", boolean.class, "byte", byte.class, "char", char.class,
            "short", short.class, "int", int.class, "long", long.class,
            "float", float.class, "double", double.class, "void", void.class);

    /**
     * Finds a class by Java name: "java.util.Map$Entry", "java.util.Map.Entry",
     * "int", "int[]", "java.lang.String[][]". Null when there is none.
     */
    static Class<?> findClass(String name) {
        int dims = 0;
        while (name.endsWith("[]")) {
            dims++;
            name = name.substring(0, name.length() - 2);
        }
        Class<?> c = PRIMITIVES.get(name);
        if (c == null) c = load(name);
        if (c == null) {
            // nested class written with dots: java.util.Map.Entry
            StringBuilder sb = new StringBuilder(name);
            for (int i = sb.length() - 1; i > 0 && c == null; i--) {
                if (sb.charAt(i) == '.') {
                    sb.setCharAt(i, '$');
                    c = load(sb.toString());
                }
            }
        }
        if (c == null || (dims > 0 && c == void.class)) return null;
        for (int i = 0; i < dims; i++) c = c.arrayType();
        return c;
    }

    private static Class<?> load(String name) {
        if (name.isEmpty() || name.startsWith(".") || name.endsWith(".")) return null;
        // strait's own internals (raw natives on peers) are not for JS
        if (name.startsWith(INTERNAL)) return null;
        try {
            return Class.forName(name, false, loader());
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
            return null;
        }
    }

    /** The package of strait's internals, which JS cannot name. */
    private static final String INTERNAL = Bridge.class.getPackageName() + ".";

    private static volatile Set<String> knownPackages;

    private static Set<String> knownPackages() {
        Set<String> s = knownPackages;
        if (s != null) return s;
        s = new HashSet<>();
        for (Module m : ModuleLayer.boot().modules()) s.addAll(m.getPackages());
        for (Package p : loader().getDefinedPackages()) s.add(p.getName());
        knownPackages = s;
        return s;
    }

    /**
     * What the package child `name` (a full dotted name) is: the Class, the
     * String "package" when it is a known package (or the prefix of one),
     * "unknown" when nothing known has that name (a package of classes not
     * loaded yet, or a class that does not exist), or null when it is known
     * not to exist (its parent is a JDK package that has no such child).
     */
    static Object resolve(String name) {
        Class<?> c = load(name);
        if (c != null) return c;
        Set<String> known = knownPackages();
        if (known.contains(name)) return "package";
        String prefix = name + ".";
        for (String p : known) if (p.startsWith(prefix)) return "package";
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            String parent = name.substring(0, dot);
            // A package object whose parent is a JDK package can tell: a
            // child that is neither a class nor a known package is absent.
            if (known.contains(parent) && isJdk(parent)) return null;
            // Nested class through its outer class: handled by the caller.
        }
        return "unknown";
    }

    private static boolean isJdk(String pkg) {
        return pkg.startsWith("java.") || pkg.startsWith("javax.") || pkg.startsWith("jdk.")
                || pkg.startsWith("sun.") || pkg.equals("java") || pkg.equals("javax");
    }

    // ---- type codes --------------------------------------------------------

    /** One-character type code of t (see src/jni/model/model.h). */
    static char code(Class<?> t) {
        if (t.isPrimitive()) {
            if (t == void.class) return 'V';
            if (t == boolean.class) return 'Z';
            if (t == byte.class) return 'B';
            if (t == char.class) return 'C';
            if (t == short.class) return 'S';
            if (t == int.class) return 'I';
            if (t == long.class) return 'J';
            if (t == float.class) return 'F';
            return 'D';
        }
        if (t == Boolean.class) return 'z';
        if (t == Byte.class) return 'b';
        if (t == Character.class) return 'c';
        if (t == Short.class) return 's';
        if (t == Integer.class) return 'i';
        if (t == Long.class) return 'j';
        if (t == Float.class) return 'f';
        if (t == Double.class) return 'd';
        if (t == String.class) return 'T';
        if (t == Object.class) return 'O';
        if (t == Number.class) return 'N';
        if (t == BigInteger.class) return 'G';
        if (t.isArray()) return 'A';
        if (t.isAssignableFrom(ArrayList.class)) return 'U';
        if (t.isAssignableFrom(String.class)) return 'Q';
        return 'L';
    }

    /** True for codes of reference types: the native side then gets the
     *  class index, against which it checks every Java object it passes. */
    private static boolean isReference(char code) {
        return "zbcsijfdTONGAUQL".indexOf(code) >= 0;
    }

    /**
     * Describes c for the native side:
     * {int[] header, Object[] members, String[] names, String codes, int[] classes,
     * String[] signatures, int[] facts}.
     * facts[i] = the member's {@link HostPolicy#memberFacts} | (class index of
     * its declaring class << 8).
     * header = {superIndex, flags, componentCode, componentIndex, ownCode}.
     * members[i] is a Constructor, Method or Field; codes holds, per member,
     * kind ('c','m','f'), static ('s'/'i'), final/varargs ('F','V','-'),
     * may be caller-sensitive ('?': a method or constructor of a boot or
     * platform class, asked with {@link #callerSensitive} at its first call,
     * as reading annotations here would slow every class's first use; '-':
     * not), the result
     * code and the parameter codes, members separated by ';'.
     * classes holds, per member, the class index of the result and of each
     * parameter (-1 for primitives and void).
     */
    static Object[] describe(Class<?> c) {
        int flags = 0;
        if (c.isInterface()) flags |= 1;
        if (Modifier.isAbstract(c.getModifiers()) && !c.isArray() && !c.isPrimitive()) flags |= 2;
        if (c.isArray()) flags |= 4;
        if (c.isPrimitive()) flags |= 8;
        if (Throwable.class.isAssignableFrom(c)) flags |= 16;
        if (java.lang.reflect.Proxy.isProxyClass(c)) flags |= 32;
        if (c.isInterface() && HostPolicy.samOf(c) != null) flags |= 64;
        Class<?> sup = c.getSuperclass();
        Class<?> comp = c.getComponentType();
        int[] header = {
            sup == null ? -1 : classIndex(sup), flags,
            comp == null ? 0 : code(comp), comp == null ? -1 : classIndex(comp), code(c)
        };
        List<Object> members = new ArrayList<>();
        if (!c.isInterface() && !c.isArray() && !c.isPrimitive() && Modifier.isPublic(c.getModifiers())) {
            for (Constructor<?> k : c.getConstructors()) members.add(k);
        }
        if (!c.isPrimitive()) {
            for (Method m : methods(c)) members.add(m);
            for (Field f : c.getFields()) members.add(f);
        }
        StringBuilder codes = new StringBuilder();
        String[] names = new String[members.size()];
        String[] sigs = new String[members.size()];
        int nidx = 0;
        for (Object o : members) nidx += 1 + (o instanceof Executable ? ((Executable) o).getParameterCount() : 0);
        int[] classes = new int[nidx];
        int k = 0;
        // per member: HostPolicy facts | (index of the declaring class << 8)
        int[] facts = new int[members.size()];
        java.lang.reflect.Method sam = HostPolicy.functionalMethod(c);
        for (int i = 0; i < members.size(); i++) {
            java.lang.reflect.Member mm = (java.lang.reflect.Member) members.get(i);
            facts[i] = HostPolicy.memberFacts(c, mm, sam) | (classIndex(mm.getDeclaringClass()) << 8);
        }
        for (int i = 0; i < members.size(); i++) {
            Object o = members.get(i);
            if (i > 0) codes.append(';');
            if (o instanceof Field) {
                Field f = (Field) o;
                names[i] = f.getName();
                sigs[i] = f.getName();
                boolean st = Modifier.isStatic(f.getModifiers());
                codes.append('f').append(st ? 's' : 'i').append(Modifier.isFinal(f.getModifiers()) ? 'F' : '-')
                        .append('-');
                char rc = code(f.getType());
                codes.append(rc);
                classes[k++] = isReference(rc) ? classIndex(f.getType()) : -1;
                continue;
            }
            Executable e = (Executable) o;
            boolean ctor = e instanceof Constructor;
            names[i] = ctor ? "<init>" : e.getName();
            StringBuilder sig = new StringBuilder(ctor ? c.getName() : e.getName()).append('(');
            Class<?>[] ps = e.getParameterTypes();
            for (int p = 0; p < ps.length; p++) sig.append(p > 0 ? "," : "").append(ps[p].getTypeName());
            sigs[i] = sig.append(')').toString();
            Class<?> ret = ctor ? void.class : ((Method) e).getReturnType();
            codes.append(ctor ? 'c' : 'm').append(Modifier.isStatic(e.getModifiers()) ? 's' : 'i')
                    .append(e.isVarArgs() ? 'V' : '-').append(mayBeCallerSensitive(e) ? '?' : '-');
            char rc = code(ret);
            codes.append(rc);
            classes[k++] = isReference(rc) ? classIndex(ret) : -1;
            for (Class<?> p : e.getParameterTypes()) {
                char pc = code(p);
                codes.append(pc);
                classes[k++] = isReference(pc) ? classIndex(p) : -1;
            }
        }
        return new Object[] {header, members.toArray(), names, codes.toString(), classes, sigs, facts};
    }

    private static final String CALLER_SENSITIVE = "jdk.internal.reflect.CallerSensitive";
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

    /** True if e's class is of the boot or platform loader, the only ones
     *  whose {@code @CallerSensitive} the VM honours. */
    static boolean mayBeCallerSensitive(Executable e) {
        ClassLoader l = e.getDeclaringClass().getClassLoader();
        return l == null || l == PLATFORM;
    }

    /**
     * True if e carries {@code @jdk.internal.reflect.CallerSensitive} (runtime
     * retention; compared by name, its package is not exported). The VM
     * honours it only on classes of the boot and platform loaders, so others
     * are not inspected. Called from native code at the first call of a
     * member described with '?'.
     */
    static boolean callerSensitive(Executable e) {
        if (!mayBeCallerSensitive(e)) return false;
        try {
            for (Annotation a : e.getDeclaredAnnotations())
                if (a.annotationType().getName().equals(CALLER_SENSITIVE)) return true;
        } catch (RuntimeException | LinkageError x) {
            return false;
        }
        return false;
    }

    /**
     * Calls caller-sensitive e (a Method, or a Constructor) through
     * {@link org.strait.jscaller.JsCaller}, so it sees a Java caller. The
     * native side passes the arguments as converted for JNI: primitives as
     * raw bits in prims (boolean 0/1, float/double bits), references in
     * refs, each at its parameter's position. A primitive result comes back
     * as raw bits in prims[0] (length at least 1) and null is returned; a
     * reference result is returned. The member's own exception is thrown
     * unwrapped.
     */
    static Object invokeSensitive(Executable e, Object recv, long[] prims, Object[] refs) throws Throwable {
        Class<?>[] ps = e.getParameterTypes();
        Object[] args = new Object[ps.length];
        for (int i = 0; i < ps.length; i++) {
            Class<?> t = ps[i];
            if (!t.isPrimitive()) args[i] = refs[i];
            else if (t == boolean.class) args[i] = prims[i] != 0;
            else if (t == byte.class) args[i] = (byte) prims[i];
            else if (t == char.class) args[i] = (char) prims[i];
            else if (t == short.class) args[i] = (short) prims[i];
            else if (t == int.class) args[i] = (int) prims[i];
            else if (t == long.class) args[i] = prims[i];
            else if (t == float.class) args[i] = Float.intBitsToFloat((int) prims[i]);
            else args[i] = Double.longBitsToDouble(prims[i]);
        }
        Object r = org.strait.jscaller.JsCaller.invoke(e, recv, args);
        Class<?> rt = e instanceof Method ? ((Method) e).getReturnType() : Object.class;
        if (!rt.isPrimitive()) return r;
        long bits = 0;
        if (rt == boolean.class) bits = (Boolean) r ? 1 : 0;
        else if (rt == char.class) bits = (Character) r;
        else if (rt == float.class) bits = Float.floatToRawIntBits((Float) r);
        else if (rt == double.class) bits = Double.doubleToRawLongBits((Double) r);
        else if (rt != void.class) bits = ((Number) r).longValue();
        prims[0] = bits;
        return null;
    }

    /** Public methods of c, one per (name, parameter types), preferring the
     *  most specific non-bridge declaration. */
    private static Collection<Method> methods(Class<?> c) {
        Map<String, Method> by = new LinkedHashMap<>();
        Method[] all;
        try {
            all = c.getMethods();
        } catch (LinkageError e) {
            return List.of();
        }
        for (Method m : all) {
            String key = m.getName() + Arrays.toString(m.getParameterTypes());
            Method old = by.get(key);
            if (old == null || better(m, old)) by.put(key, m);
        }
        return by.values();
    }

    private static boolean better(Method m, Method old) {
        if (old.isBridge() != m.isBridge()) return old.isBridge();
        if (Modifier.isAbstract(old.getModifiers()) != Modifier.isAbstract(m.getModifiers()))
            return Modifier.isAbstract(old.getModifiers());
        return old.getReturnType().isAssignableFrom(m.getReturnType())
                && old.getReturnType() != m.getReturnType();
    }

    /** Names of the public members of c (for Object.keys on wrappers). */
    static String[] memberNames(Class<?> c) {
        Set<String> s = new java.util.TreeSet<>();
        for (Method m : c.getMethods()) if (!Modifier.isStatic(m.getModifiers())) s.add(m.getName());
        for (Field f : c.getFields()) if (!Modifier.isStatic(f.getModifiers())) s.add(f.getName());
        return s.toArray(new String[0]);
    }

    // ---- errors ------------------------------------------------------------

    /** {toString(), stack trace text} of a Throwable. */
    static String[] throwableInfo(Throwable t) {
        String head;
        try {
            String msg = t.getMessage();
            head = t.getClass().getName() + (msg != null ? ": " + msg : "");
        } catch (Throwable e) {
            head = t.getClass().getName();
        }
        StringBuilder sb = new StringBuilder();
        try {
            for (StackTraceElement e : t.getStackTrace()) sb.append("    at ").append(e).append('\n');
            Throwable cause = t.getCause();
            for (int depth = 0; cause != null && cause != t && depth < 8; depth++) {
                sb.append("Caused by: ").append(cause).append('\n');
                for (StackTraceElement e : cause.getStackTrace()) sb.append("    at ").append(e).append('\n');
                cause = cause.getCause();
            }
        } catch (Throwable e) {
            // a broken getStackTrace(): keep what we have
        }
        return new String[] {head, sb.toString()};
    }

    // ---- arrays and collections ------------------------------------------

    /** new component[length] for a component class. */
    static Object newArray(Class<?> component, int length) {
        return java.lang.reflect.Array.newInstance(component, length);
    }

    /**
     * n boxes no code has seen, for the native side to write its values into
     * (value/convert.c, box pools): kind 0 Integer, 1 Long, 2 Double. Each
     * is a new object: valueOf caches no Integer or Long below -128 and no
     * Double.
     */
    static Object[] freshBoxes(int kind, int n) {
        Object[] a = new Object[n];
        /* (not a ?: chain: its numeric promotion would make every box a Double) */
        for (int i = 0; i < n; i++) {
            Object o;
            if (kind == 0) o = Integer.valueOf(Integer.MIN_VALUE);
            else if (kind == 1) o = Long.valueOf(Long.MIN_VALUE);
            else o = Double.valueOf(0.0);
            a[i] = o;
        }
        return a;
    }

    /** BigInteger from decimal text. */
    static BigInteger toBigInteger(String s) {
        return new BigInteger(s);
    }

    /** Iterator over an Iterable, a Map's entries, an Iterator or an array. */
    static Iterator<?> iterator(Object o) {
        if (o instanceof Iterable) return ((Iterable<?>) o).iterator();
        if (o instanceof Map) return ((Map<?, ?>) o).entrySet().iterator();
        if (o instanceof Iterator) return (Iterator<?>) o;
        if (o != null && o.getClass().isArray()) return Arrays.asList(toArray(o)).iterator();
        throw new IllegalArgumentException(
                (o == null ? "null" : o.getClass().getName()) + " is not iterable");
    }

    // ---- for...of over Java collections (call/js_callbacks.c, iterStart) ----

    /* Kinds of an iteration (bits; call/js_callbacks.c, bridge_helper.js). */
    static final int ITER_PAIRS = 1;   // a Map's entries, each as [key, value]
    static final int ITER_ONE = 2;     // one element per crossing: never read ahead
    static final int ITER_TRACK = 4;   // read ahead, put back by the release hook (iterRewind, iterReplay)
    static final int ITER_REWIND = 8;  // put back with ListIterator.previous() (else: iterReplay)

    /**
     * The iterator of o in out[0] and how a loop reads it: ITER_TRACK for a JDK collection
     * whose iteration runs no other code and gives the same elements each time over the same
     * contents (java.util's lists, sets, maps, queues and their views, List.of...; a List
     * through its ListIterator, ITER_REWIND), read ahead in batches; 0 for one whose iterator
     * is a snapshot (CopyOnWriteArrayList, CopyOnWriteArraySet, PriorityBlockingQueue,
     * DelayQueue) or a Java array (a copy), read ahead in batches; ITER_ONE for anything else
     * (the iterators of java.util.concurrent that see changes as they come, WeakHashMap, classes
     * outside the JDK, an Iterable that is no Collection, an Iterator itself), read one element
     * per crossing, as Java's loop reads it. ITER_PAIRS when the elements are a Map's entries.
     * inner is o without the Collections.unmodifiable and synchronized wrappers around it (the
     * native side reads their fields), which decides.
     */
    static int iterStart(Object o, Object inner, Object[] out) {
        // out is the caller's, reused for every loop: written last, after any code ran
        int how = inner == null ? 0 : ITER_HOW.get(inner.getClass());
        if ((how & 1) != 0 && o instanceof List && !(o instanceof Iterator)) {
            out[0] = ((List<?>) o).listIterator();
            return ITER_TRACK | ITER_REWIND;
        }
        Iterator<?> it = iterator(o);
        int pairs = !(o instanceof Iterable) && o instanceof Map ? ITER_PAIRS : 0;
        int kind = it == o ? ITER_ONE
                : o.getClass().isArray() || (how & 2) != 0 ? pairs
                : (how & 1) != 0 ? pairs | ITER_TRACK : pairs | ITER_ONE;
        out[0] = it;
        return kind;
    }

    /** Per class: 1 iterPure, 2 iterSnapshot (asked once per class). */
    private static final ClassValue<Integer> ITER_HOW = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            return c.getClassLoader() != null ? 0 : iterPure(c) ? 1 : iterSnapshot(c) ? 2 : 0;
        }
    };

    /** The iteration of k's objects is a snapshot taken when its iterator is made. */
    private static boolean iterSnapshot(Class<?> k) {
        return k == java.util.concurrent.CopyOnWriteArrayList.class
                || k == java.util.concurrent.CopyOnWriteArraySet.class
                || k == java.util.concurrent.PriorityBlockingQueue.class
                || k == java.util.concurrent.DelayQueue.class;
    }

    /**
     * c's objects are JDK collections (or views of one) whose iterators run no code but the JDK's and,
     * over the same contents, give the same elements in the same order: the classes (and their
     * inner classes) of java.util below. Not java.util.concurrent (changes show as they come),
     * not WeakHashMap (the collector removes entries), not the sublists of AbstractList nor
     * Collections' checked and set-from-map views (they iterate collections of any class).
     */
    private static boolean iterPure(Class<?> c) {
        if (c.getClassLoader() != null) return false;
        String n = c.getName();
        int d = n.indexOf('$');
        String outer = d < 0 ? n : n.substring(0, d);
        switch (outer) {
            case "java.util.ArrayList": case "java.util.LinkedList": case "java.util.Vector":
            case "java.util.Stack": case "java.util.ArrayDeque": case "java.util.PriorityQueue":
            case "java.util.HashMap": case "java.util.LinkedHashMap": case "java.util.TreeMap":
            case "java.util.IdentityHashMap": case "java.util.EnumMap": case "java.util.HashSet":
            case "java.util.LinkedHashSet": case "java.util.TreeSet": case "java.util.RegularEnumSet":
            case "java.util.JumboEnumSet": case "java.util.ImmutableCollections":
                return true;
            case "java.util.Arrays":
                return n.equals("java.util.Arrays$ArrayList");
            case "java.util.Collections":
                switch (n) {
                    case "java.util.Collections$EmptyList": case "java.util.Collections$EmptySet":
                    case "java.util.Collections$EmptyMap": case "java.util.Collections$SingletonList":
                    case "java.util.Collections$SingletonSet": case "java.util.Collections$SingletonMap":
                    case "java.util.Collections$CopiesList":
                        return true;
                    default:
                        return false;
                }
            default:
                return false;
        }
    }

    /** Steps list iterator it back n elements (the release hook: see iterStart). */
    static void iterRewind(java.util.ListIterator<?> it, int n) {
        for (int i = 0; i < n; i++) it.previous();
    }

    /**
     * A new iterator over source (as iterator() makes it) moved past its first n elements: the
     * loop's iterator as it was after them, when nothing but the loop's own reads ran since it
     * was made (the release hook: see iterStart).
     */
    static Iterator<?> iterReplay(Object source, int n) {
        Iterator<?> it = iterator(source);
        for (int i = 0; i < n && it.hasNext(); i++) it.next();
        return it;
    }

    /** Next element, or {@link #DONE}. */
    static Object iterNext(Iterator<?> it) {
        return it.hasNext() ? it.next() : DONE;
    }

    static Object done() {
        return DONE;
    }

    /** A mutable List holding items. */
    static List<Object> toList(Object[] items) {
        return new ArrayList<>(Arrays.asList(items));
    }

    /** The elements of an array (boxed), Collection or Map (entries). */
    static Object[] toArray(Object o) {
        if (o instanceof Collection) return ((Collection<?>) o).toArray();
        if (o instanceof Map) return ((Map<?, ?>) o).entrySet().toArray();
        if (o instanceof Object[]) return ((Object[]) o).clone();
        if (o != null && o.getClass().isArray()) {
            int n = java.lang.reflect.Array.getLength(o);
            Object[] r = new Object[n];
            for (int i = 0; i < n; i++) r[i] = java.lang.reflect.Array.get(o, i);
            return r;
        }
        if (o instanceof Iterable) {
            List<Object> l = new ArrayList<>();
            for (Object x : (Iterable<?>) o) l.add(x);
            return l.toArray();
        }
        throw new IllegalArgumentException(
                (o == null ? "null" : o.getClass().getName()) + " is not an array or collection");
    }

    /* ---- members of collections (js_callbacks.c native_items) ---- */

    /**
     * The contents of a collection for JSON and console.log, in one
     * crossing: {1, elements} for a Collection, {2, keys, values} for a
     * Map (each key as String.valueOf gives it), {3, elements} for an
     * array (primitives boxed); null for any other object.
     */
    static Object[] items(Object o) {
        if (o instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) o;
            List<String> ks = new ArrayList<>(m.size());
            List<Object> vs = new ArrayList<>(m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) {
                ks.add(String.valueOf(e.getKey()));
                vs.add(e.getValue());
            }
            return new Object[] {2, ks.toArray(), vs.toArray()};
        }
        if (o instanceof Collection) return new Object[] {1, ((Collection<?>) o).toArray()};
        if (o != null && o.getClass().isArray()) return new Object[] {3, toArray(o)};
        return null;
    }

    // ---- batches (iteration, Java.from): one upcall per batch of elements --

    /**
     * The size of l and its elements lo .. lo+n-1 (fewer when l ends
     * first) in out: one window of a JDK list whose reads run no other
     * code (call/js_callbacks.c, list_window; only for java.util.ArrayList,
     * Arrays.asList's and List.of's lists). Called inside the runtime's
     * gate, not suspended: it only reads.
     */
    static int listWindow(java.util.List<?> l, int lo, int n, Object[] out) {
        int size = l.size();
        int k = Math.min(n, size - lo);
        for (int j = 0; j < k; j++) out[j] = l.get(lo + j);
        return size;
    }

    /**
     * Takes up to max elements of it into out[0..): for a Map's entry
     * iterator with pairs set, the key and the value of each entry (two
     * slots). Returns the number of slots filled; fewer than max elements
     * means it has no more. An exception thrown by the iterator after the
     * first element of the batch is kept in out[out.length - 1] and the
     * elements taken before it are returned (the caller hands them out
     * first, then throws it); at the first element it is thrown. Called
     * with the runtime's gate suspended: it runs the iterator's code.
     */
    static int iterBatch(Iterator<?> it, Object[] out, int max, boolean pairs) {
        int k = 0;
        for (int i = 0; i < max; i++) {
            Object x;
            try {
                if (!it.hasNext()) break;
                x = it.next();
                if (pairs) {
                    Map.Entry<?, ?> e = (Map.Entry<?, ?>) x;
                    Object key = e.getKey(), value = e.getValue();
                    out[k] = key;
                    out[k + 1] = value;
                    k += 2;
                    continue;
                }
            } catch (Throwable t) {
                if (k == 0) throw t;
                out[out.length - 1] = t;
                return k;
            }
            out[k++] = x;
        }
        return k;
    }

    /**
     * regs[i] = t.register(objs[from + i]) for i in [0, n), 0 for null,
     * ObjectTable.HANDLE for a JsValue (never registered: it goes back as its
     * JS value, see model/batches.c): the
     * ids of a batch registered at once, right before the native side wraps
     * them (inside the gate, with no release in between). With snap (an
     * array other code may write: another thread can change a slot at any
     * time), each element is read once and the object registered is kept
     * in snap[i], which the native side wraps, so an id never goes with
     * another object than its own.
     */
    static void registerAll(ObjectTable t, Object[] objs, int from, int n, long[] regs, Object[] snap) {
        for (int i = 0; i < n; i++) {
            Object o = objs[from + i];
            if (snap != null) snap[i] = o;
            regs[i] = o == null ? 0 : o instanceof org.strait.JsValue ? ObjectTable.HANDLE : t.register(o);
        }
    }

    /**
     * The name of the functional method of c, or null: c is a concrete class
     * that implements (itself or through a superclass) exactly one
     * functional interface, counting only the most specific ones (an
     * interface extended by another one c implements does not count, so a
     * {@code List} is not callable as an {@code Iterable}). A functional
     * interface has exactly one abstract method that does not redeclare a
     * public method of {@code Object}; {@code @FunctionalInterface} is not
     * needed, except on the JDK's own interfaces (boot and platform loader). JS calls a wrapper of such an object as a function
     * (model/wrappers.c). Called from native code once per class.
     */
    static String functionalName(Class<?> c) {
        if (c.isInterface() || c.isArray() || c.isPrimitive() || Modifier.isAbstract(c.getModifiers())) return null;
        try {
            Set<Class<?>> all = new java.util.LinkedHashSet<>();
            java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>();
            for (Class<?> k = c; k != null; k = k.getSuperclass()) todo.addAll(Arrays.asList(k.getInterfaces()));
            while (!todo.isEmpty()) {
                Class<?> i = todo.poll();
                if (all.add(i)) todo.addAll(Arrays.asList(i.getInterfaces()));
            }
            String name = null;
            for (Class<?> i : all) {
                boolean extended = false;
                for (Class<?> j : all) if (j != i && i.isAssignableFrom(j)) { extended = true; break; }
                if (extended) continue;
                /* the JDK annotates every interface of its own meant for
                 * lambdas; its other one-method interfaces are capabilities
                 * (Comparable, AutoCloseable, Iterable, Readable), which
                 * would make every enum, File and stream a function */
                ClassLoader l = i.getClassLoader();
                if ((l == null || l == PLATFORM) && !i.isAnnotationPresent(FunctionalInterface.class)) continue;
                String m = abstractMethodName(i);
                if (m == null) continue;
                if (name != null) return null;
                name = m;
            }
            return name;
        } catch (LinkageError | SecurityException e) {
            return null;
        }
    }

    /** The name of the one abstract method of interface i (not a public Object method), or null. */
    private static String abstractMethodName(Class<?> i) {
        Method found = null;
        for (Method m : i.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers()) || Modifier.isStatic(m.getModifiers())) continue;
            String n = m.getName();
            int np = m.getParameterCount();
            if ((np == 0 && (n.equals("hashCode") || n.equals("toString")))
                    || (np == 1 && n.equals("equals") && m.getParameterTypes()[0] == Object.class)) continue;
            if (found != null && !(found.getName().equals(n)
                    && Arrays.equals(found.getParameterTypes(), m.getParameterTypes())))
                return null;
            found = m;
        }
        return found == null ? null : found.getName();
    }

    // ---- JSON of a tree of collections in one crossing (js_callbacks.c native_items) --

    /** Nesting of Java collections JSON converts (the root is level 0; docs/interop.md). */
    static final int MAX_JSON_DEPTH = 256;

    /**
     * The JSON form of the Collection, Map or array o and of every
     * Collection, Map and array inside it, as one value in the value format
     * (docs/value-format.md): a Collection or array is an ARRAY (a primitive
     * array of int, short or byte an ARRAY_I32, of float or double an
     * ARRAY_F64), a Map an OBJECT whose keys are String.valueOf(key);
     * Strings, Characters, Booleans, boxed numbers (a Long within
     * +-(2^53-1)) and null are written as themselves. Anything else (a
     * Long beyond, a JsValue, any other object, and a nested collection
     * whose class the policy does not let cross as a result) is a JAVAREF
     * into refs, which the native side converts as an element read would
     * (a number, a BigInt, the JS value, a wrapper, or the policy's
     * TypeError). Returns {bytes, length, refs or null}; {1, type name}
     * when a collection contains itself, {2, null} when collections nest
     * deeper than MAX_JSON_DEPTH; null when o is no collection. Iterative;
     * policy null: every class may cross. Called with the gate suspended
     * (it runs the collections' own code).
     */
    static Object[] jsonTree(Object o, HostPolicy policy) {
        if (!(o instanceof Collection || o instanceof Map || (o != null && o.getClass().isArray()))) return null;
        return new JsonTree(policy).run(o);
    }

    /** One jsonTree walk: its output, references, key table and explicit stack. */
    static final class JsonTree {
        private static final java.lang.invoke.VarHandle I32 =
                java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
        private static final java.lang.invoke.VarHandle I64 =
                java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
        private static final java.lang.invoke.VarHandle F64 =
                java.lang.invoke.MethodHandles.byteArrayViewVarHandle(double[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
        private static final long MAX_SAFE = (1L << 53) - 1;

        /* the output array of this thread's last walk, kept for its next one
         * (taken while in use: a collection's own code may start another walk) */
        private static final ThreadLocal<java.lang.ref.SoftReference<byte[]>> SCRATCH = new ThreadLocal<>();

        private final HostPolicy policy;
        private byte[] out;
        private int pos;
        private Object[] refs;
        private int nrefs;
        private final ValueWriter.KeyTable keys = new ValueWriter.KeyTable();
        /* the classes whose instances may cross as results, asked once per walk */
        private Class<?> allowed1, allowed2;
        private Map<Class<?>, Boolean> verdicts;
        /* frames: the collection (for cycles), its items (an array or
         * Collection) or entry iterator (a Map), the next item (a Map: entries
         * written so far), where a Map's count goes once known */
        private Object[] sObj = new Object[16];
        private Object[][] sItems = new Object[16][];
        private Iterator<?>[] sIter = new Iterator<?>[16];
        private int[] sAt = new int[16];
        private int[] sCountAt = new int[16];
        private int sp;
        private Object[] error;

        JsonTree(HostPolicy policy) {
            this.policy = policy;
        }

        Object[] run(Object root) {
            java.lang.ref.SoftReference<byte[]> kept = SCRATCH.get();
            out = kept != null ? kept.get() : null;
            if (out == null) out = new byte[1 << 16];
            else SCRATCH.set(null);
            need(ValueTags.HEADER);
            out[0] = (byte) ValueTags.MAGIC0;
            out[1] = (byte) ValueTags.MAGIC1;
            out[2] = (byte) ValueTags.MAGIC2;
            out[3] = (byte) ValueTags.VERSION;
            pos = ValueTags.HEADER;
            composite(root);
            while (sp > 0 && error == null) {
                int t = sp - 1;
                Iterator<?> it = sIter[t];
                if (it != null) {
                    if (!it.hasNext()) {
                        I32.set(out, sCountAt[t], sAt[t]);
                        pop(t);
                        continue;
                    }
                    Map.Entry<?, ?> e = (Map.Entry<?, ?>) it.next();
                    sAt[t]++;
                    key(String.valueOf(e.getKey()));
                    value(e.getValue());
                    continue;
                }
                Object[] items = sItems[t];
                int i = sAt[t];
                if (i == items.length) {
                    pop(t);
                    continue;
                }
                sAt[t] = i + 1;
                value(items[i]);
            }
            if (error != null) return error;
            I32.set(out, 4, pos - ValueTags.HEADER);
            if (out.length <= (16 << 20)) SCRATCH.set(new java.lang.ref.SoftReference<>(out));
            return new Object[] {out, pos, refs == null ? null : Arrays.copyOf(refs, nrefs)};
        }

        private void pop(int t) {
            sp = t;
            sObj[t] = null;
            sItems[t] = null;
            sIter[t] = null;
        }

        private void need(int n) {
            if (out.length - pos >= n) return;
            long want = (long) pos + n;
            if (want > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("JSON of a Java collection larger than 2 GiB");
            out = Arrays.copyOf(out, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(want, (long) out.length * 2)));
        }

        private void tag(int t) {
            need(1);
            out[pos++] = (byte) t;
        }

        private void tagU32(int t, int v) {
            need(5);
            out[pos] = (byte) t;
            I32.set(out, pos + 1, v);
            pos += 5;
        }

        private void int32(int v) {
            tagU32(ValueTags.INT32, v);
        }

        private void float64(double d) {
            need(9);
            out[pos] = (byte) ValueTags.DOUBLE;
            F64.set(out, pos + 1, d);
            pos += 9;
        }

        private void int64(long l) {
            if (l < -MAX_SAFE || l > MAX_SAFE) {
                ref(l);
                return;
            }
            need(9);
            out[pos] = (byte) ValueTags.INT64;
            I64.set(out, pos + 1, l);
            pos += 9;
        }

        private void string(String s) {
            need(5 + 2 * s.length());
            pos = ValueWriter.putString(out, pos, s);
        }

        private void key(String k) {
            int i = keys.putIfAbsent(k);
            if (i >= 0) tagU32(ValueTags.KEYREF, i);
            else string(k);
        }

        private void ref(Object o) {
            if (refs == null) refs = new Object[16];
            else if (nrefs == refs.length) refs = Arrays.copyOf(refs, nrefs * 2);
            refs[nrefs] = o;
            tagU32(ValueTags.JAVAREF, nrefs++);
        }

        private void value(Object v) {
            if (v == null) tag(ValueTags.NULL);
            else if (v instanceof String) string((String) v);
            else if (v instanceof Integer || v instanceof Short || v instanceof Byte) int32(((Number) v).intValue());
            else if (v instanceof Long) int64((Long) v);
            else if (v instanceof Double || v instanceof Float) float64(((Number) v).doubleValue());
            else if (v instanceof Boolean) tag((Boolean) v ? ValueTags.TRUE : ValueTags.FALSE);
            else if (v instanceof Character) string(String.valueOf((char) (Character) v));
            else if (v instanceof org.strait.JsValue) ref(v);           /* a Map or List, but JS data */
            else if ((v instanceof Collection || v instanceof Map || v.getClass().isArray()) && allowed(v.getClass()))
                composite(v);
            else ref(v);
        }

        /** True when instances of c may cross into JS as results (HostPolicy.classVerdict). */
        private boolean allowed(Class<?> c) {
            if (policy == null || c == allowed1 || c == allowed2) return true;
            if (verdicts == null) verdicts = new java.util.HashMap<>();
            Boolean ok = verdicts.get(c);
            if (ok == null) {
                boolean r;
                try {
                    r = (policy.classVerdict(c) & HostPolicy.V_RETURNED) != 0;
                } catch (Throwable t) {
                    r = false;                   /* as the native side: a throwing filter denies */
                }
                verdicts.put(c, ok = r);
            }
            if (ok) {
                allowed2 = allowed1;
                allowed1 = c;
            }
            return ok;
        }

        /** A Collection, Map or array: written, or pushed for its items; a cycle or depth sets error. */
        private void composite(Object v) {
            for (int i = 0; i < sp; i++) {
                if (sObj[i] == v) {
                    error = new Object[] {1, v.getClass().getTypeName()};
                    return;
                }
            }
            if (sp >= MAX_JSON_DEPTH) {
                error = new Object[] {2, null};
                return;
            }
            if (v instanceof Map) {
                /* the count is written when the iterator is done */
                tagU32(ValueTags.OBJECT, 0);
                push(v, null, ((Map<?, ?>) v).entrySet().iterator());
                sCountAt[sp - 1] = pos - 4;
            } else if (v instanceof Collection) {
                Object[] items = ((Collection<?>) v).toArray();
                tagU32(ValueTags.ARRAY, items.length);
                push(v, items, null);
            } else if (v instanceof Object[]) {
                Object[] items = ((Object[]) v).clone();
                tagU32(ValueTags.ARRAY, items.length);
                push(v, items, null);
            } else {
                primitives(v);
            }
        }

        private void push(Object v, Object[] items, Iterator<?> it) {
            if (sp == sObj.length) {
                int n = sp * 2;
                sObj = Arrays.copyOf(sObj, n);
                sItems = Arrays.copyOf(sItems, n);
                sIter = Arrays.copyOf(sIter, n);
                sAt = Arrays.copyOf(sAt, n);
                sCountAt = Arrays.copyOf(sCountAt, n);
            }
            sObj[sp] = v;
            sItems[sp] = items;
            sIter[sp] = it;
            sAt[sp] = 0;
            sp++;
        }

        /** A primitive array: numbers packed, chars as one-character strings, booleans, longs one by one. */
        private void primitives(Object a) {
            if (a instanceof int[] || a instanceof short[] || a instanceof byte[]) {
                int n = java.lang.reflect.Array.getLength(a);
                tagU32(ValueTags.ARRAY_I32, n);
                need(4 * n);
                if (a instanceof int[]) for (int x : (int[]) a) { I32.set(out, pos, x); pos += 4; }
                else if (a instanceof short[]) for (short x : (short[]) a) { I32.set(out, pos, (int) x); pos += 4; }
                else for (byte x : (byte[]) a) { I32.set(out, pos, (int) x); pos += 4; }
            } else if (a instanceof double[] || a instanceof float[]) {
                int n = java.lang.reflect.Array.getLength(a);
                tagU32(ValueTags.ARRAY_F64, n);
                need(8 * n);
                if (a instanceof double[]) for (double x : (double[]) a) { F64.set(out, pos, x); pos += 8; }
                else for (float x : (float[]) a) { F64.set(out, pos, (double) x); pos += 8; }
            } else if (a instanceof long[]) {
                long[] x = (long[]) a;
                tagU32(ValueTags.ARRAY, x.length);
                for (long l : x) int64(l);
            } else if (a instanceof char[]) {
                char[] x = (char[]) a;
                tagU32(ValueTags.ARRAY, x.length);
                for (char c : x) string(String.valueOf(c));
            } else {
                boolean[] x = (boolean[]) a;
                tagU32(ValueTags.ARRAY, x.length);
                for (boolean b : x) tag(b ? ValueTags.TRUE : ValueTags.FALSE);
            }
        }
    }
}

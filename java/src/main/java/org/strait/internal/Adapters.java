package org.strait.internal;

import org.strait.internal.asm.ClassWriter;
import org.strait.internal.asm.Label;
import org.strait.internal.asm.MethodVisitor;
import org.strait.internal.asm.Opcodes;
import org.strait.internal.asm.Type;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code Java.extend}: Java classes generated at run time (with ASM, bundled
 * relocated as org.strait.internal.asm) that extend a class and implement
 * interfaces, each overridable method dispatching to a JS implementation.
 * Called from src/jni/call/extend.c, inside the runtime's gate.
 *
 * <p>An adapter class {@code org.strait.adapters.<type>$Adapter<n>} has, for
 * every public or protected constructor of its superclass, a constructor with
 * the same parameters; it takes its {@link AdapterHandler} from a per-class
 * ThreadLocal armed by {@link #arm} right before the bridge's ordinary
 * constructor call (so overloads are chosen as for any class), and stores it
 * before the superclass constructor runs, so overridden methods called by
 * that constructor already reach JS. Every overridable method (public or
 * protected, not final, not static; abstract and default interface methods
 * too) becomes:
 *
 * <pre>
 *   R m(args) { h = this.$strait$h;
 *               if (h != null) { r = h.invoke(this, METHODS[i], args); if (r != h) return (R) r; }
 *               return super.m(args);   // abstract: throw AbstractMethodError
 *             }
 *   public R super$m(args) { return super.m(args); }   // Java.super(obj).m(...)
 * </pre>
 *
 * The generated code names only java.base types (InvocationHandler,
 * ThreadLocal, Method), so it needs no access to this unexported package.
 *
 * <p>Each runtime has its own class loaders ({@link AdapterLoader}, one per
 * superclass loader, a child of it), so adapter classes belong to the runtime
 * that made them; a runtime reuses the class of the same type list. The
 * loaders are held by the runtime until it closes (see {@link PerRuntime}),
 * then only by the adapter objects Java still has.
 */
public final class Adapters {
    private Adapters() {}

    static final String HANDLER = "$strait$h";
    static final String METHODS = "$strait$methods";
    static final String NEXT = "$strait$next";
    static final String SUPER_PREFIX = "super$";
    private static final String IH = "java/lang/reflect/InvocationHandler";
    private static final String IH_DESC = "Ljava/lang/reflect/InvocationHandler;";

    /**
     * One runtime's adapter loaders and classes, held only by that runtime's
     * native state (jb_rt.adapters, src/jni/call/extend.c) from its first
     * Java.extend to its close: nothing process-wide keeps an adapter class,
     * so once the runtime is closed and Java drops its adapter objects, the
     * loaders and classes can be unloaded (and Bridge's Cleaner frees their
     * native metadata).
     */
    private static final class PerRuntime {
        /** By superclass loader (null key: the boot loader). */
        final Map<ClassLoader, AdapterLoader> loaders = new HashMap<>();
        final Map<List<Class<?>>, Class<?>> classes = new HashMap<>();
        /** The runtime's policy: its adapters are another runtime's in every other. */
        final HostPolicy policy;

        PerRuntime(HostPolicy policy) {
            this.policy = policy;
        }
    }

    /** What an adapter class needs at run time, kept by its loader. */
    static final class Info {
        final Method[] methods;
        final ThreadLocal<Object> next = new ThreadLocal<>();
        final String[] abstractNames;
        final String typeName;

        Info(Method[] methods, String[] abstractNames, String typeName) {
            this.methods = methods;
            this.abstractNames = abstractNames;
            this.typeName = typeName;
        }
    }

    /** The loader of one runtime's adapters over one superclass loader. */
    static final class AdapterLoader extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        /** Loaders of the interfaces, consulted after the parent. */
        private final Set<ClassLoader> extra = Collections.synchronizedSet(
                Collections.newSetFromMap(new IdentityHashMap<>()));
        private final Map<Class<?>, Info> infos = Collections.synchronizedMap(new HashMap<>());
        private int serial;

        /** The runtime whose adapters this loader defines. */
        final PerRuntime owner;

        AdapterLoader(ClassLoader parent, PerRuntime owner) {
            super("strait-adapters", parent);
            this.owner = owner;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            for (ClassLoader l : extra.toArray(new ClassLoader[0])) {
                try {
                    return Class.forName(name, false, l);
                } catch (ClassNotFoundException e) {
                    // try the next
                }
            }
            throw new ClassNotFoundException(name);
        }

        Class<?> define(String name, byte[] code, Info info) {
            Class<?> c = defineClass(name, code, 0, code.length);
            infos.put(c, info);
            return c;
        }

        synchronized int nextSerial() {
            return ++serial;
        }
    }

    /** A new runtime's adapter state (for jb_rt.adapters); policy: the runtime's (jb_rt.policy). */
    static Object newRuntime(HostPolicy policy) {
        return new PerRuntime(policy);
    }

    /** The policy of the runtime that made adapter class c (HostPolicy: another runtime's is denied). */
    static HostPolicy policyOf(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l instanceof AdapterLoader ? ((AdapterLoader) l).owner.policy : null;
    }

    /**
     * The adapter class of types (at most one class, any number of
     * interfaces) for the runtime whose state is perRuntime (from
     * {@link #newRuntime}), made on first use. Throws
     * IllegalArgumentException with a message naming the type that cannot be
     * extended (final, sealed, primitive, array, not public, no accessible
     * constructor).
     */
    static Class<?> adapterClass(Object perRuntime, Class<?>[] types) {
        if (types == null || types.length == 0)
            throw new IllegalArgumentException("expected at least one Java class or interface");
        Class<?> sup = null;
        List<Class<?>> ifaces = new ArrayList<>();
        for (Class<?> t : types) {
            if (t == null) throw new IllegalArgumentException("null is not a Java class");
            String n = t.getName();
            if (t.isPrimitive()) throw new IllegalArgumentException("cannot extend the primitive type " + n);
            if (t.isArray())
                throw new IllegalArgumentException("cannot extend the array type " + t.getTypeName());
            if (!Modifier.isPublic(t.getModifiers()))
                throw new IllegalArgumentException("cannot extend " + n + ": it is not public");
            if (t.isInterface()) {
                if (t.isAnnotation() || t.isSealed())
                    throw new IllegalArgumentException("cannot implement " + n
                            + (t.isSealed() ? ": it is sealed" : ": it is an annotation type"));
                if (!ifaces.contains(t)) ifaces.add(t);
                continue;
            }
            if (sup != null)
                throw new IllegalArgumentException("cannot extend both " + sup.getName() + " and " + n
                        + ": a Java class extends at most one class");
            if (Modifier.isFinal(t.getModifiers()))
                throw new IllegalArgumentException("cannot extend final class " + n);
            if (t.isSealed()) throw new IllegalArgumentException("cannot extend sealed class " + n);
            if (t.isEnum() || t == Enum.class || t == Record.class)
                throw new IllegalArgumentException("cannot extend " + n + ": enums and records cannot be extended");
            sup = t;
        }
        if (sup == null) sup = Object.class;
        List<Class<?>> key = new ArrayList<>();
        key.add(sup);
        key.addAll(ifaces);
        PerRuntime pr = (PerRuntime) perRuntime;
        synchronized (pr) {
            Class<?> c = pr.classes.get(key);
            if (c != null) return c;
            AdapterLoader loader = pr.loaders.computeIfAbsent(sup.getClassLoader(), p -> new AdapterLoader(p, pr));
            for (Class<?> i : ifaces) {
                ClassLoader l = i.getClassLoader();
                if (l != null && l != sup.getClassLoader()) loader.extra.add(l);
            }
            c = generate(loader, sup, ifaces.toArray(new Class<?>[0]));
            pr.classes.put(key, c);
            return c;
        }
    }

    /** True when c is an adapter class (HostPolicy: filtered by what it extends). */
    static boolean isAdapterClass(Class<?> c) {
        return c.getClassLoader() instanceof AdapterLoader;
    }

    /** True when o is an instance of an adapter class. */
    static boolean isAdapter(Object o) {
        return o != null && o.getClass().getClassLoader() instanceof AdapterLoader;
    }

    private static Info infoOf(Class<?> adapter) {
        ClassLoader l = adapter.getClassLoader();
        Info i = l instanceof AdapterLoader ? ((AdapterLoader) l).infos.get(adapter) : null;
        if (i == null) throw new IllegalArgumentException(adapter.getName() + " is not a Java.extend class");
        return i;
    }

    /** The distinct names of the methods an implementation must give (abstract ones). */
    static String[] abstractNames(Class<?> adapter) {
        return infoOf(adapter).abstractNames.clone();
    }

    /** The name of what adapter extends, for messages ("java.util.AbstractList"). */
    static String typeName(Class<?> adapter) {
        return infoOf(adapter).typeName;
    }

    /**
     * Arms the next construction of adapter on this thread with impl (null:
     * none, every method runs the superclass's; a JsFunction: it implements
     * every abstract method). The caller constructs at once and then calls
     * {@link #disarm}.
     */
    static void arm(Class<?> adapter, org.strait.JsObject impl) {
        Info info = infoOf(adapter);
        HostPolicy p = policyOf(adapter);
        info.next.set(new AdapterHandler(impl, impl instanceof org.strait.JsFunction,
                p != null && !p.threadsAllowed() ? p.toString() : null));
    }

    /** Clears what {@link #arm} set if the constructor did not take it. */
    static void disarm(Class<?> adapter) {
        infoOf(adapter).next.remove();
    }

    // ---- generation ---------------------------------------------------------

    /** A method the adapter overrides: the one seen first, and where super goes. */
    private static final class Slot {
        final Method m;
        final Class<?> superOwner;   // null: abstract, no super implementation

        Slot(Method m, Class<?> superOwner) {
            this.m = m;
            this.superOwner = superOwner;
        }
    }

    private static String key(Method m) {
        return m.getName() + Type.getMethodDescriptor(m);
    }

    private static boolean overridable(int mod) {
        return !Modifier.isStatic(mod) && !Modifier.isPrivate(mod)
                && (Modifier.isPublic(mod) || Modifier.isProtected(mod));
    }

    /** True when the type (or its element type) can be named from any package. */
    private static boolean visible(Class<?> t) {
        while (t.isArray()) t = t.getComponentType();
        if (t.isPrimitive()) return true;
        for (Class<?> c = t; c != null; c = c.getDeclaringClass())
            if (!Modifier.isPublic(c.getModifiers())) return false;
        return true;
    }

    private static Map<String, Slot> slots(Class<?> sup, Class<?>[] ifaces) {
        Map<String, Slot> out = new LinkedHashMap<>();
        Set<String> closed = new HashSet<>();
        for (Class<?> c = sup; c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                if (m.isSynthetic() || m.isBridge() || !overridable(mod)) continue;
                String k = key(m);
                if (out.containsKey(k) || closed.contains(k)) continue;
                if (Modifier.isFinal(mod)) {
                    closed.add(k);
                    continue;
                }
                if (c == Object.class && (m.getName().equals("finalize") || m.getName().equals("clone"))) continue;
                out.put(k, new Slot(m, Modifier.isAbstract(mod) ? null : sup));
            }
        }
        /* interface methods the superclass inherits without declaring them */
        for (Method m : sup.getMethods()) {
            int mod = m.getModifiers();
            if (Modifier.isStatic(mod) || m.isSynthetic() || m.isBridge()) continue;
            String k = key(m);
            if (out.containsKey(k) || closed.contains(k)) continue;
            out.put(k, new Slot(m, Modifier.isAbstract(mod) ? null : sup));
        }
        for (Class<?> i : ifaces) {
            for (Method m : i.getMethods()) {
                int mod = m.getModifiers();
                if (Modifier.isStatic(mod) || m.isSynthetic() || m.isBridge()) continue;
                String k = key(m);
                if (out.containsKey(k) || closed.contains(k)) continue;
                out.put(k, new Slot(m, m.isDefault() ? i : null));
            }
        }
        out.values().removeIf(s -> !visible(s.m.getReturnType()));
        return out;
    }

    private static Class<?> generate(AdapterLoader loader, Class<?> sup, Class<?>[] ifaces) {
        Class<?> named = sup != Object.class || ifaces.length == 0 ? sup : ifaces[0];
        String binary = "org.strait.adapters." + named.getName() + "$Adapter" + loader.nextSerial();
        String self = binary.replace('.', '/');
        String superName = Type.getInternalName(sup);
        String[] ifaceNames = new String[ifaces.length];
        for (int i = 0; i < ifaces.length; i++) ifaceNames[i] = Type.getInternalName(ifaces[i]);

        List<Constructor<?>> ctors = new ArrayList<>();
        for (Constructor<?> c : sup.getDeclaredConstructors()) {
            int mod = c.getModifiers();
            if (c.isSynthetic() || !(Modifier.isPublic(mod) || Modifier.isProtected(mod))) continue;
            ctors.add(c);
        }
        if (ctors.isEmpty())
            throw new IllegalArgumentException("cannot extend " + sup.getName()
                    + ": it has no public or protected constructor");

        Map<String, Slot> slots = slots(sup, ifaces);
        Method[] methods = new Method[slots.size()];
        Set<String> abstractNames = new java.util.LinkedHashSet<>();

        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER | Opcodes.ACC_SYNTHETIC, self, null,
                superName, ifaceNames);
        cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, HANDLER, IH_DESC, null, null)
                .visitEnd();
        cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, METHODS,
                "[Ljava/lang/reflect/Method;", null, null).visitEnd();
        cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, NEXT,
                "Ljava/lang/ThreadLocal;", null, null).visitEnd();

        for (Constructor<?> c : ctors) constructor(cw, self, superName, c);
        int i = 0;
        for (Slot s : slots.values()) {
            methods[i] = s.m;
            if (s.superOwner == null) abstractNames.add(s.m.getName());
            override(cw, self, s, i);
            if (s.superOwner != null) superBridge(cw, s);
            i++;
        }
        cw.visitEnd();
        Info info = new Info(methods, abstractNames.toArray(new String[0]), named.getName());
        Class<?> c = loader.define(binary, cw.toByteArray(), info);
        try {
            Field fm = c.getDeclaredField(METHODS);
            fm.setAccessible(true);
            fm.set(null, methods);
            Field fn = c.getDeclaredField(NEXT);
            fn.setAccessible(true);
            fn.set(null, info.next);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot set up adapter class " + binary, e);
        }
        return c;
    }

    private static void pushInt(MethodVisitor mv, int v) {
        if (v >= -1 && v <= 5) mv.visitInsn(Opcodes.ICONST_0 + v);
        else if (v <= Byte.MAX_VALUE) mv.visitIntInsn(Opcodes.BIPUSH, v);
        else if (v <= Short.MAX_VALUE) mv.visitIntInsn(Opcodes.SIPUSH, v);
        else mv.visitLdcInsn(v);
    }

    /** Loads the parameters of desc from slot 1 on; returns the next free slot. */
    private static int loadArgs(MethodVisitor mv, Type[] params) {
        int slot = 1;
        for (Type t : params) {
            mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
            slot += t.getSize();
        }
        return slot;
    }

    private static String[] exceptions(Class<?>[] ex) {
        String[] r = new String[ex.length];
        for (int i = 0; i < ex.length; i++) r[i] = Type.getInternalName(ex[i]);
        return r;
    }

    private static void constructor(ClassWriter cw, String self, String superName, Constructor<?> c) {
        String desc = Type.getConstructorDescriptor(c);
        /* public also over a protected constructor (AbstractList()): JS constructs through it */
        int access = Opcodes.ACC_PUBLIC | (c.isVarArgs() ? Opcodes.ACC_VARARGS : 0);
        MethodVisitor mv = cw.visitMethod(access, "<init>", desc, null, exceptions(c.getExceptionTypes()));
        mv.visitCode();
        /* this.$strait$h = NEXT.get(); NEXT.remove(); before super(...): the
         * superclass constructor may call overridden methods */
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.GETSTATIC, self, NEXT, "Ljava/lang/ThreadLocal;");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/ThreadLocal", "get", "()Ljava/lang/Object;", false);
        mv.visitFieldInsn(Opcodes.GETSTATIC, self, NEXT, "Ljava/lang/ThreadLocal;");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/ThreadLocal", "remove", "()V", false);
        mv.visitTypeInsn(Opcodes.CHECKCAST, IH);
        mv.visitFieldInsn(Opcodes.PUTFIELD, self, HANDLER, IH_DESC);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        loadArgs(mv, Type.getArgumentTypes(desc));
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", desc, false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static void box(MethodVisitor mv, Type t) {
        String owner;
        switch (t.getSort()) {
            case Type.BOOLEAN: owner = "java/lang/Boolean"; break;
            case Type.CHAR: owner = "java/lang/Character"; break;
            case Type.BYTE: owner = "java/lang/Byte"; break;
            case Type.SHORT: owner = "java/lang/Short"; break;
            case Type.INT: owner = "java/lang/Integer"; break;
            case Type.FLOAT: owner = "java/lang/Float"; break;
            case Type.LONG: owner = "java/lang/Long"; break;
            case Type.DOUBLE: owner = "java/lang/Double"; break;
            default: return;
        }
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, owner, "valueOf",
                "(" + t.getDescriptor() + ")L" + owner + ";", false);
    }

    /** The value on the stack (an Object from the handler) as a return of type t, and returns. */
    private static void unboxAndReturn(MethodVisitor mv, Type t) {
        String owner, m;
        switch (t.getSort()) {
            case Type.VOID: mv.visitInsn(Opcodes.POP); mv.visitInsn(Opcodes.RETURN); return;
            case Type.BOOLEAN: owner = "java/lang/Boolean"; m = "booleanValue"; break;
            case Type.CHAR: owner = "java/lang/Character"; m = "charValue"; break;
            case Type.BYTE: owner = "java/lang/Byte"; m = "byteValue"; break;
            case Type.SHORT: owner = "java/lang/Short"; m = "shortValue"; break;
            case Type.INT: owner = "java/lang/Integer"; m = "intValue"; break;
            case Type.FLOAT: owner = "java/lang/Float"; m = "floatValue"; break;
            case Type.LONG: owner = "java/lang/Long"; m = "longValue"; break;
            case Type.DOUBLE: owner = "java/lang/Double"; m = "doubleValue"; break;
            default:
                if (!t.getInternalName().equals("java/lang/Object"))
                    mv.visitTypeInsn(Opcodes.CHECKCAST, t.getInternalName());
                mv.visitInsn(Opcodes.ARETURN);
                return;
        }
        mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, m, "()" + t.getDescriptor(), false);
        mv.visitInsn(t.getOpcode(Opcodes.IRETURN));
    }

    private static void callSuper(MethodVisitor mv, Slot s, Type[] params, Type ret) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        loadArgs(mv, params);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, Type.getInternalName(s.superOwner), s.m.getName(),
                Type.getMethodDescriptor(s.m), s.superOwner.isInterface());
        mv.visitInsn(ret.getOpcode(Opcodes.IRETURN));
    }

    private static void override(ClassWriter cw, String self, Slot s, int index) {
        Method m = s.m;
        String desc = Type.getMethodDescriptor(m);
        Type[] params = Type.getArgumentTypes(desc);
        Type ret = Type.getReturnType(desc);
        int access = (Modifier.isPublic(m.getModifiers()) ? Opcodes.ACC_PUBLIC : Opcodes.ACC_PROTECTED)
                | (m.isVarArgs() ? Opcodes.ACC_VARARGS : 0);
        MethodVisitor mv = cw.visitMethod(access, m.getName(), desc, null, exceptions(m.getExceptionTypes()));
        mv.visitCode();
        int next = 1;
        for (Type t : params) next += t.getSize();
        int h = next, r = next + 1;
        Label fallback = new Label();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.GETFIELD, self, HANDLER, IH_DESC);
        mv.visitVarInsn(Opcodes.ASTORE, h);
        mv.visitVarInsn(Opcodes.ALOAD, h);
        mv.visitJumpInsn(Opcodes.IFNULL, fallback);
        mv.visitVarInsn(Opcodes.ALOAD, h);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.GETSTATIC, self, METHODS, "[Ljava/lang/reflect/Method;");
        pushInt(mv, index);
        mv.visitInsn(Opcodes.AALOAD);
        pushInt(mv, params.length);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        int slot = 1;
        for (int i = 0; i < params.length; i++) {
            mv.visitInsn(Opcodes.DUP);
            pushInt(mv, i);
            mv.visitVarInsn(params[i].getOpcode(Opcodes.ILOAD), slot);
            box(mv, params[i]);
            mv.visitInsn(Opcodes.AASTORE);
            slot += params[i].getSize();
        }
        mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, IH, "invoke",
                "(Ljava/lang/Object;Ljava/lang/reflect/Method;[Ljava/lang/Object;)Ljava/lang/Object;", true);
        mv.visitVarInsn(Opcodes.ASTORE, r);
        mv.visitVarInsn(Opcodes.ALOAD, r);
        mv.visitVarInsn(Opcodes.ALOAD, h);
        mv.visitJumpInsn(Opcodes.IF_ACMPEQ, fallback);
        mv.visitVarInsn(Opcodes.ALOAD, r);
        unboxAndReturn(mv, ret);
        mv.visitLabel(fallback);
        if (s.superOwner != null) {
            callSuper(mv, s, params, ret);
        } else {
            mv.visitTypeInsn(Opcodes.NEW, "java/lang/AbstractMethodError");
            mv.visitInsn(Opcodes.DUP);
            mv.visitLdcInsn(m.getDeclaringClass().getName() + "." + m.getName()
                    + " is not implemented by the JavaScript object");
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/AbstractMethodError", "<init>",
                    "(Ljava/lang/String;)V", false);
            mv.visitInsn(Opcodes.ATHROW);
        }
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** public R super$m(args) { return super.m(args); } for Java.super. */
    private static void superBridge(ClassWriter cw, Slot s) {
        Method m = s.m;
        String desc = Type.getMethodDescriptor(m);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | (m.isVarArgs() ? Opcodes.ACC_VARARGS : 0),
                SUPER_PREFIX + m.getName(), desc, null, exceptions(m.getExceptionTypes()));
        mv.visitCode();
        callSuper(mv, s, Type.getArgumentTypes(desc), Type.getReturnType(desc));
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** The handler of one adapter instance: its JS implementation (may be null). */
    static final class AdapterHandler implements InvocationHandler {
        private static final ApiAccess A = ApiAccess.get();
        private static final java.util.concurrent.ConcurrentHashMap<String, Long> NAMES =
                new java.util.concurrent.ConcurrentHashMap<>();

        private final org.strait.JsObject impl;
        private final boolean isFunction;
        /** The policy's name when its threads are not allowed (JS runs only on a thread inside), else null. */
        private final String confined;

        AdapterHandler(org.strait.JsObject impl, boolean isFunction, String confined) {
            this.impl = impl;
            this.isFunction = isFunction;
            this.confined = confined;
        }

        private static long nameRef(String name) {
            Long r = NAMES.get(name);
            if (r == null) r = NAMES.computeIfAbsent(name, Natives::internName);
            return r;
        }

        private static UnsupportedOperationException missing(Object self, Method m) {
            return new UnsupportedOperationException(m.getDeclaringClass().getName() + "." + m.getName()
                    + " is abstract and not implemented by the JavaScript object of "
                    + typeName(self.getClass()) + " (Java.extend)");
        }

        /**
         * self.m(args) in JS: impl[m.name].apply(wrapper of self, args).
         * Returns this when the JS object has no such function and the
         * method is not abstract (the generated code then calls super). Any
         * Java thread: enters the runtime as JsProxyHandler does.
         */
        @Override
        public Object invoke(Object self, Method m, Object[] args) throws Throwable {
            boolean isAbstract = Modifier.isAbstract(m.getModifiers());
            if (impl == null || (isFunction && !isAbstract)) {
                if (isAbstract) throw missing(self, m);
                return this;
            }
            Object r;
            org.strait.JsRuntime rt = A.enterUse(impl);
            try {
                if (confined != null) JsProxyHandler.checkThread(rt, confined);
                /* the receiver and the arguments come from Java code: the
                 * policy's verdict on results applies to them */
                Args a = Args.packResults(rt, true, self, args);
                long name = isFunction ? 0 : nameRef(m.getName());
                try {
                    r = Natives.invokeAdapter(A.peer(rt), rt, A.handle(impl), name, a.hold().vals, a.refs, a.argc);
                } finally {
                    a.unhold();
                }
            } finally {
                A.leaveUse(impl, rt);
                java.lang.ref.Reference.reachabilityFence(impl);
            }
            if (r == JsProxyHandler.ABSENT) {
                if (isAbstract) throw missing(self, m);
                return this;
            }
            if (r == JsProxyHandler.NOT_FUNCTION)
                throw new UnsupportedOperationException(m.getDeclaringClass().getName() + "." + m.getName()
                        + ": the JavaScript member '" + m.getName() + "' is not a function");
            Object v = JsProxyHandler.convertReturn(m, r);
            /* a null from JS for a reference type: the generated code compares
             * with this handler, never null, so null is returned as is */
            return v;
        }
    }
}

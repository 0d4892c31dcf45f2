package org.strait.internal;

import org.strait.JsRuntime;
import org.strait.JsValue;
import org.strait.JsObject;
import org.strait.JsFunction;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The InvocationHandler behind a Java interface implemented by a JS object
 * (or a JS function, for every abstract method). Each call of an interface
 * method is one native call: {@code impl[name](...args)} with {@code this}
 * = impl, arguments packed as in {@link JsFunction#call}. A method impl lacks
 * runs its Java default when it has one, else throws
 * UnsupportedOperationException naming interface and method. The result is
 * converted to the method's declared return type, or ClassCastException says
 * why it does not fit.
 *
 * <p>Any Java thread may call the proxy (a Runnable run by a thread pool);
 * after the runtime closed, calls throw IllegalStateException("runtime closed").
 */
public final class JsProxyHandler implements InvocationHandler {
    private static final ApiAccess A = ApiAccess.get();
    /** invokeMember's answer when the member is undefined. */
    public static final Object ABSENT = new Object();
    /** invokeMember's answer when the member is not a function. */
    public static final Object NOT_FUNCTION = new Object();

    /** Interned JSStringRefs of method names, process-wide (a few hundred at most). */
    private static final java.util.concurrent.ConcurrentHashMap<String, Long> NAMES =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static long nameRef(String name) {
        Long r = NAMES.get(name);
        if (r == null) r = NAMES.computeIfAbsent(name, Natives::internName);
        return r;
    }

    private final JsValue impl;
    private final boolean isFunction;
    private final Class<?>[] ifaces;
    /** made by an argument conversion (a JS function passed as a Comparator), not asked for */
    private final boolean implicit;
    /**
     * made for a script (an argument conversion, Java.implement, `new I(impl)`), not by
     * the embedder (JsObject.as): what Java passes to it is a result, as a call's result is
     */
    private final boolean scripted;
    /**
     * The name of the runtime's policy when it does not allow threads: the
     * script's JS then runs only on a thread inside the runtime ({@link #checkThread}); else null.
     */
    private final String confined;

    private JsProxyHandler(JsValue impl, boolean isFunction, Class<?>[] ifaces, boolean implicit, boolean scripted,
                           String confined) {
        this.impl = impl;
        this.isFunction = isFunction;
        this.ifaces = ifaces;
        this.implicit = implicit;
        this.scripted = scripted;
        this.confined = confined;
    }

    /**
     * Throws IllegalStateException unless the calling thread is inside rt
     * (runs its JS, or is in a Java call that JS made): the check of JS a
     * script made for Java (a proxy of this class, a Java.extend object)
     * in a runtime whose policy (named policy) does not allow threads, so
     * that no Java API (a pool, a listener thread, a Cleaner) runs the
     * script's JS on a thread it started. The caller holds an in-flight
     * count of rt.
     */
    static void checkThread(JsRuntime rt, String policy) {
        if (Natives.insideRuntime(A.peer(rt))) return;
        throw new IllegalStateException("JavaScript that a script made cannot run on thread \""
                + Thread.currentThread().getName() + "\": the runtime's policy (" + policy
                + ", threads not allowed) runs it only on a thread inside the runtime; allow threads with "
                + "JsRuntime.Builder.allowCreateThread(true) (the launcher: leave out --deny-threads)");
    }

    /** The JS object (or function) behind a proxy made here, or null. */
    public static JsValue implementationOf(Object proxy) {
        if (proxy == null || !Proxy.isProxyClass(proxy.getClass())) return null;
        InvocationHandler h = Proxy.getInvocationHandler(proxy);
        return h instanceof JsProxyHandler ? ((JsProxyHandler) h).impl : null;
    }

    /**
     * Called by src/jni/value/proxies.c (inside the runtime) and by
     * {@link JsObject#as}: a proxy implementing ifaces with impl. The
     * caller has checked that members named like abstract methods are
     * functions.
     */
    static Object create(JsObject impl, Class<?>[] ifaces) {
        return createFor(impl, ifaces, false, true, null);
    }

    /**
     * create() or createImplicit() for src/jni/value/proxies.c, under the
     * runtime's policy: when it does not allow threads the proxy runs its
     * JS only on a thread inside the runtime ({@link #checkThread}).
     */
    static Object createScripted(JsObject impl, Class<?>[] ifaces, boolean implicit, HostPolicy policy) {
        return createFor(impl, ifaces, implicit, true,
                policy != null && !policy.threadsAllowed() ? policy.toString() : null);
    }

    /**
     * create() for an argument conversion (src/jni/value/convert.c: a JS
     * function passed where a functional interface is expected): such a
     * proxy going back to JS is the JS value again ({@link
     * #implicitImplementationOf}), where one made on request (`new I(impl)`,
     * Java.implement, JsObject.as) stays a Java object.
     */
    static Object createImplicit(JsObject impl, Class<?>[] ifaces) {
        return createFor(impl, ifaces, true, true, null);
    }

    /**
     * The JS value behind proxy when an argument conversion made it
     * (createImplicit), else null. Called by src/jni/model/wrappers.c when
     * an object of a proxy class goes to JS.
     */
    static JsValue implicitImplementationOf(Object proxy) {
        if (proxy == null || !Proxy.isProxyClass(proxy.getClass())) return null;
        InvocationHandler h = Proxy.getInvocationHandler(proxy);
        return h instanceof JsProxyHandler && ((JsProxyHandler) h).implicit ? ((JsProxyHandler) h).impl : null;
    }

    /**
     * What a proxy is as it goes to JS in the runtime whose JsRuntime is
     * owner (src/jni/model/wrappers.c, one upcall per proxy object): the JS
     * value behind it when an argument conversion made it over a value of
     * that runtime (it goes back as that value); Boolean.FALSE when its JS
     * is another runtime's (refused but under ALL: it leads to that
     * runtime); null otherwise (wrapped as a Java object).
     */
    static Object crossing(Object proxy, Object owner) {
        if (proxy == null || !Proxy.isProxyClass(proxy.getClass())) return null;
        InvocationHandler ih = Proxy.getInvocationHandler(proxy);
        if (!(ih instanceof JsProxyHandler)) return null;
        JsProxyHandler h = (JsProxyHandler) ih;
        if (h.impl.runtime() != owner) return Boolean.FALSE;
        return h.implicit ? h.impl : null;
    }

    /** create() for any JS object handle (a JsArray too: JsArray.as). */
    private static Object createFor(JsValue impl, Class<?>[] ifaces, boolean implicit, boolean scripted,
                                    String confined) {
        JsProxyHandler h = new JsProxyHandler(impl, impl instanceof JsFunction, ifaces.clone(), implicit, scripted,
                confined);
        if (ifaces.length == 1) {
            java.lang.reflect.Constructor<?> c = PROXY_CTOR.get(ifaces[0]);
            if (c != null) {
                try {
                    return c.newInstance(h);
                } catch (ReflectiveOperationException e) {
                    // fall back to the general path below
                }
            }
        }
        return Proxy.newProxyInstance(pickLoader(ifaces), ifaces, h);
    }

    /** Per interface: the constructor of its proxy class (null if it cannot be had). */
    private static final ClassValue<java.lang.reflect.Constructor<?>> PROXY_CTOR = new ClassValue<>() {
        @Override
        protected java.lang.reflect.Constructor<?> computeValue(Class<?> iface) {
            try {
                Object p = Proxy.newProxyInstance(pickLoader(new Class<?>[] {iface}),
                        new Class<?>[] {iface}, (proxy, m, a) -> null);
                return p.getClass().getConstructor(InvocationHandler.class);
            } catch (RuntimeException | NoSuchMethodException e) {
                return null;
            }
        }
    };

    /** Per interface: abstractMethods of that interface alone. */
    private static final ClassValue<String[]> ABSTRACT = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> iface) {
            return computeAbstractMethods(new Class<?>[] {iface});
        }
    };

    /** Checks ifaces and impl's members, then create(). From Java (JsObject.as). */
    public static Object implement(JsValue impl, Class<?>[] ifaces) {
        String[] names = abstractMethods(ifaces);
        if (!(impl instanceof JsFunction) && names.length > 0) {
            JsRuntime rt = A.enterUse(impl);
            int[] kinds;
            try {
                kinds = Natives.memberKinds(A.peer(rt), A.handle(impl), names);
            } finally {
                A.leaveUse(impl, rt);
            }
            for (int i = 0; i < names.length; i++)
                if (kinds[i] == 2)
                    throw new IllegalArgumentException("cannot implement " + ownerOf(ifaces, names[i])
                            + ": member '" + names[i] + "' of the JS object is not a function");
        }
        return createFor(impl, ifaces, false, false, null);
    }

    /**
     * The distinct names of the abstract methods of ifaces (excluding those
     * of Object). Throws IllegalArgumentException when one is not a public
     * interface. Called from C (strait__js_implement) too.
     */
    static String[] abstractMethods(Class<?>[] ifaces) {
        if (ifaces.length == 1 && ifaces[0] != null && ifaces[0].isInterface())
            return ABSTRACT.get(ifaces[0]);
        return computeAbstractMethods(ifaces);
    }

    private static String[] computeAbstractMethods(Class<?>[] ifaces) {
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> c : ifaces) {
            if (c == null || !c.isInterface())
                throw new IllegalArgumentException((c == null ? "null" : c.getName())
                        + " is not an interface");
            for (Method m : c.getMethods()) {
                if (!Modifier.isAbstract(m.getModifiers()) || isObjectMethod(m)) continue;
                names.add(m.getName());
            }
        }
        return names.toArray(new String[0]);
    }

    private static String ownerOf(Class<?>[] ifaces, String name) {
        for (Class<?> c : ifaces)
            for (Method m : c.getMethods())
                if (m.getName().equals(name)) return c.getName();
        return ifaces[0].getName();
    }

    private static boolean isObjectMethod(Method m) {
        try {
            Object.class.getMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static ClassLoader pickLoader(Class<?>[] ifaces) {
        for (Class<?> c : ifaces) {
            ClassLoader l = c.getClassLoader();
            if (l != null) return l;
        }
        ClassLoader l = JsProxyHandler.class.getClassLoader();
        return l != null ? l : ClassLoader.getSystemClassLoader();
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) return objectMethod(proxy, method, args);
        boolean isDefault = method.isDefault();
        Object r;
        JsRuntime rt = A.enterUse(impl);
        try {
            if (confined != null) checkThread(rt, confined);
            /* what Java code passes to a script's function is a result (the
             * policy's verdict on results applies); the embedder's own
             * JsObject.as proxies take what the embedder gives */
            Args a = scripted ? Args.packResults(rt, false, null, args) : Args.pack(rt, false, null, args);
            long name = isFunction && !isDefault ? 0 : nameRef(method.getName());
            try {
                r = Natives.invokeNamed(A.peer(rt), rt, A.handle(impl), name, a.hold().vals, a.refs, a.argc);
            } finally {
                a.unhold();
            }
        } finally {
            A.leaveUse(impl, rt);
            /* impl's Cleaner releases the handle passed above: keep impl
             * reachable until the call has returned */
            java.lang.ref.Reference.reachabilityFence(impl);
        }
        if (r == ABSENT || (r == NOT_FUNCTION && isFunction)) {
            if (isDefault) return InvocationHandler.invokeDefault(proxy, method, args);
            throw new UnsupportedOperationException(method.getDeclaringClass().getName() + "."
                    + method.getName() + " is not implemented by the JavaScript object");
        }
        if (r == NOT_FUNCTION)
            throw new UnsupportedOperationException(method.getDeclaringClass().getName() + "."
                    + method.getName() + ": the JavaScript member '" + method.getName()
                    + "' is not a function");
        return convertReturn(method, r);
    }

    private Object objectMethod(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            default: {
                List<String> names = new ArrayList<>();
                for (Class<?> c : ifaces) names.add(c.getName());
                return "JsProxy" + names;
            }
        }
    }

    /** Converts a JS result to the declared return type of m, or throws. */
    static Object convertReturn(Method m, Object r) {
        Class<?> t = m.getReturnType();
        if (t == void.class) {
            if (r instanceof JsValue) ((JsValue) r).close();
            return null;
        }
        if (t.isPrimitive()) {
            if (r == null) throw mismatch(m, r, "a " + t.getName());
            if (t == boolean.class) {
                if (r instanceof Boolean) return r;
                throw mismatch(m, r, "a boolean");
            }
            if (t == char.class) {
                if (r instanceof String && ((String) r).length() == 1) return ((String) r).charAt(0);
                throw mismatch(m, r, "a one-character string");
            }
            if (!(r instanceof Number))
                throw mismatch(m, r, (t == int.class ? "an " : "a ") + t.getName());
            double d = ((Number) r).doubleValue();
            if (t == double.class) return d;
            if (t == float.class) return (float) d;
            if (d != Math.rint(d) || Double.isInfinite(d))
                throw mismatch(m, r, "an integral number");
            if (t == int.class) {
                if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) throw mismatch(m, r, "an int");
                return (int) d;
            }
            if (t == long.class) {
                if (d < -0x1p63 || d >= 0x1p63) throw mismatch(m, r, "a long");
                return (long) d;
            }
            if (t == short.class) {
                if (d < Short.MIN_VALUE || d > Short.MAX_VALUE) throw mismatch(m, r, "a short");
                return (short) d;
            }
            if (d < Byte.MIN_VALUE || d > Byte.MAX_VALUE) throw mismatch(m, r, "a byte");
            return (byte) d;
        }
        if (r == null || t.isInstance(r)) return r;
        if (r instanceof Number) {
            Number n = (Number) r;
            double d = n.doubleValue();
            if (t == Double.class) return d;
            if (t == Float.class) return (float) d;
            if (t == Long.class && d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) return (long) d;
            if (t == Integer.class && d == Math.rint(d) && d >= Integer.MIN_VALUE
                    && d <= Integer.MAX_VALUE) return (int) d;
        }
        if (t.isInterface() && r instanceof JsObject) return ((JsObject) r).as(t);
        throw mismatch(m, r, "a " + t.getName());
    }

    private static ClassCastException mismatch(Method m, Object r, String expected) {
        String got = r == null ? "null" : r instanceof String ? "a string"
                : r instanceof Boolean ? "a boolean" : r instanceof Number ? "the number " + r
                : r instanceof JsValue ? "a JavaScript " + ((JsValue) r).typeOf()
                : "a " + r.getClass().getName();
        return new ClassCastException(m.getDeclaringClass().getName() + "." + m.getName()
                + " must return " + expected + ", but the JavaScript implementation returned " + got);
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Classes that can be unloaded are not kept by strait (issue 12 point 8):
 * the classes Java.extend makes for a runtime, and any class of a loader
 * other than the boot, platform and system loaders (a webapp's), are
 * unloaded once the runtimes that used them are closed and Java drops them,
 * while a runtime that still uses such a class keeps it working. Seen
 * through the public API only: weak references to the classes Java got.
 */
class ClassUnloadTest {

    /** Collects until every reference is cleared, at most about ten seconds; true when all were. */
    private static boolean collected(List<? extends WeakReference<?>> refs) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (refs.stream().allMatch(r -> r.get() == null)) return true;
            System.gc();
            Thread.sleep(i < 10 ? 10 : 100);
        }
        return refs.stream().allMatch(r -> r.get() == null);
    }

    private static long alive(List<? extends WeakReference<?>> refs) {
        return refs.stream().filter(r -> r.get() != null).count();
    }

    /**
     * 50 runtimes, each extending an interface and an abstract class, each
     * adapter used from JS and from Java, then closed: every adapter class
     * (and its loader) is unloaded.
     */
    @Test
    @Timeout(120)
    void adapterClassesOfClosedRuntimesAreUnloaded() throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int i = 0; i < 50; i++) madeAndClosed(refs, i);
        assertEquals(150, refs.size());
        assertTrue(collected(refs), alive(refs) + " of " + refs.size()
                + " adapter classes and loaders are still loaded after their runtimes closed");
        /* the process goes on extending and calling without trouble */
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Runnable r = (Runnable) rt.eval("var n = 0; new (Java.extend(java.lang.Runnable, { run() { n++; } }))()");
            r.run();
            assertEquals(1, rt.eval("n"));
        }
    }

    /**
     * A closed runtime the embedder still references (or a JsValue of it
     * does) keeps none of the Java objects its JS held, nor the adapter
     * classes it made.
     */
    @Test
    @Timeout(60)
    void aClosedRuntimeStillReferencedKeepsNothingItsScriptHeld() throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        JsValue kept = heldByScript(rt, refs);
        rt.close();
        assertTrue(collected(refs), alive(refs) + " of " + refs.size()
                + " objects and classes are still held by the closed runtime");
        assertNotNull(kept);
        assertThrows(IllegalStateException.class, () -> rt.eval("1"));
    }

    private static JsValue heldByScript(JsRuntime rt, List<WeakReference<Object>> refs) {
        Object given = new Object();
        refs.add(new WeakReference<>(given));
        rt.setGlobal("given", given);
        /* an argument of a call from Java (the runtime's ObjectTable, which
         * the JsRuntime keeps once it used it) */
        Object passed = new Object();
        refs.add(new WeakReference<>(passed));
        ((JsFunction) rt.eval("(o) => { globalThis.passed = o; }")).call(passed);
        Object made = rt.eval("globalThis.list = new java.util.ArrayList(); list.add(given);"
                + " globalThis.r = new (Java.extend(java.lang.Runnable, { run() {} }))(); list.add(r); list");
        refs.add(new WeakReference<>(made));
        refs.add(new WeakReference<>(rt.eval("r").getClass()));
        return (JsValue) rt.eval("({ a: 1 })");
    }

    @SuppressWarnings("unchecked")
    private static void madeAndClosed(List<WeakReference<Object>> refs, int i) {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Runnable r = (Runnable) rt.eval("var n = 0; var R = Java.extend(java.lang.Runnable, { run() { n++; } });"
                    + " var r = new R(); r.run(); r");
            r.run();
            assertEquals(2, rt.eval("n"));
            List<Object> l = (List<Object>) rt.eval("var L = Java.extend(java.util.AbstractList, {"
                    + " get(i) { return 'v' + i; }, size() { return " + (i % 5 + 1) + "; } });"
                    + " var l = new L(); if (l.get(0) !== 'v0' || l.size() !== " + (i % 5 + 1) + ") throw 'bad'; l");
            assertEquals(i % 5 + 1, l.size());
            assertEquals("v0", l.get(0));
            assertEquals(true, rt.eval("L.class.getName() === l.getClass().getName()"));
            refs.add(new WeakReference<>(r.getClass()));
            refs.add(new WeakReference<>(l.getClass()));
            refs.add(new WeakReference<>(r.getClass().getClassLoader()));
        }
    }

    /**
     * An adapter object one runtime made, used by a second runtime: the first
     * closing leaves the class working in the second (its members, instanceof,
     * a clear error from the closed implementation), and Java calling it gets
     * an IllegalStateException, never a crash; the class is unloaded once the
     * second closes too and Java drops the object.
     */
    @Test
    @Timeout(120)
    void classUsedByTwoRuntimesOutlivesTheFirst() throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        Object[] kept = new Object[1];
        try (JsRuntime second = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            try (JsRuntime first = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                kept[0] = first.eval("new (Java.extend(java.lang.Runnable, { run() {}, toString() { return 'mine'; } }))()");
                second.setGlobal("a", kept[0]);
                assertEquals("mine", second.eval("String(a)"));
                assertEquals(true, second.eval("a instanceof java.lang.Runnable"));
                refs.add(new WeakReference<>(kept[0].getClass()));
            }
            for (int i = 0; i < 5; i++) {
                System.gc();
                Thread.sleep(20);
            }
            /* the class is still loaded and described in the second runtime */
            assertNotNull(refs.get(0).get());
            assertEquals(kept[0].getClass().getName(), second.eval("a.getClass().getName()"));
            assertEquals(true, second.eval("a instanceof java.lang.Runnable"));
            assertEquals(true, second.eval("a.getClass().getMethods().length > 0"));
            assertEquals(true, second.eval("Java.super(a) !== null"));
            /* its implementation lived in the closed runtime: clear errors */
            Object msg = second.eval("try { a.run(); 'no error' } catch (e) { String(e.message || e) }");
            assertTrue(String.valueOf(msg).contains("closed"), String.valueOf(msg));
            assertRunThrowsClosed(kept[0]);
            assertThrows(IllegalStateException.class, () -> kept[0].toString());
        }
        assertRunThrowsClosed(kept[0]);
        kept[0] = null;
        assertTrue(collected(refs), "the adapter class is still loaded after both runtimes closed");
    }

    /** Java calling an adapter whose runtime is closed: IllegalStateException (its stack holds the
     * class until the exception is dropped, hence a method of its own). */
    private static void assertRunThrowsClosed(Object adapter) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ((Runnable) adapter).run());
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    /**
     * Runtimes made, used and closed on two threads while a third collects
     * all the time and a long-lived runtime takes their adapter objects and
     * webapp objects and uses them, before and after their runtimes close:
     * no crash, clear errors, and everything is unloaded at the end.
     */
    @Test
    @Timeout(180)
    void unloadingWhileOtherRuntimesRun() throws Exception {
        List<WeakReference<Object>> refs = java.util.Collections.synchronizedList(new ArrayList<>());
        runWithKeeper(refs);
        assertTrue(collected(refs), alive(refs) + " of " + refs.size() + " classes are still loaded");
    }

    /* A method of its own: a closed JsRuntime that is still referenced (here
     * by this frame) keeps the Java objects its JS had. */
    private static void runWithKeeper(List<WeakReference<Object>> refs) throws Exception {
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        try (JsRuntime keeper = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            keeper.eval("var seen = 0, closedErrors = 0;"
                    + " function use(a, p) { seen++; a.getClass().getName(); p.hello('k');"
                    + "   try { a.get(); } catch (e) { if (!/closed/.test(String(e.message))) throw e; closedErrors++; } }");
            JsFunction use = (JsFunction) keeper.getGlobal("use");
            Thread gc = new Thread(() -> {
                while (!stop.get()) {
                    System.gc();
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            Runnable work = () -> {
                try {
                    long end = System.nanoTime() + 3_000_000_000L;
                    for (int i = 0; System.nanoTime() < end; i++) {
                        ClassLoader loader = new OwnLoader();
                        Object p = loader.loadClass(Payload.class.getName()).getConstructor().newInstance();
                        Object a;
                        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                            rt.setGlobal("p", p);
                            a = rt.eval("var S = Java.extend(java.util.function.Supplier, { get() { return p.hello('s'); } });"
                                    + " var a = new S(); a.get(); a");
                            assertTrue(String.valueOf(((java.util.function.Supplier<?>) a).get()).startsWith("hello s"));
                            if (i % 2 == 0) use.call(a, p);
                            refs.add(new WeakReference<>(a.getClass()));
                            refs.add(new WeakReference<>(p.getClass()));
                        }
                        use.call(a, p);
                        made.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            };
            Thread t1 = new Thread(work), t2 = new Thread(work);
            gc.start();
            t1.start();
            t2.start();
            t1.join();
            t2.join();
            stop.set(true);
            gc.join();
            if (failure.get() != null) throw new AssertionError(failure.get());
            assertTrue(made.get() > 4, "made " + made.get());
            assertEquals(true, keeper.eval("seen > 0 && closedErrors > 0"));
        }
    }

    /** A loader that defines Payload itself (as a webapp's loader would), not through its parent. */
    private static final class OwnLoader extends ClassLoader {
        OwnLoader() {
            super("test-own", ClassUnloadTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(Payload.class.getName())) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) return c;
                try (InputStream in = ClassUnloadTest.class.getResourceAsStream(
                        "/" + name.replace('.', '/') + ".class")) {
                    byte[] b = in.readAllBytes();
                    return defineClass(name, b, 0, b.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }
    }

    /** The class a webapp would hand to scripts. */
    public static final class Payload implements Callable<String> {
        public static int made;
        public int n;

        public Payload() {
            made++;
        }

        public static int twice(int x) {
            return 2 * x;
        }

        public String hello(String s) {
            return "hello " + s + " " + (++n);
        }

        public Payload twin() {
            return new Payload();
        }

        @Override
        public String call() {
            return "called";
        }
    }

    /**
     * A runtime keeps the classes it uses loaded while it lives, even when
     * it keeps nothing but their JS class objects and methods (no Java
     * object of theirs): Java dropping everything, collections, then static
     * calls, constructions and method calls still work; the class is
     * unloaded once the runtime closes.
     */
    @Test
    @Timeout(120)
    void aRuntimeKeepsTheClassesItUses() throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            handOver(rt, refs);
            rt.eval("var E = Java.extend(java.util.function.IntSupplier, { getAsInt() { return 7; } });");
            for (int i = 0; i < 20; i++) {
                System.gc();
                Thread.sleep(10);
                /* a JS collection, then crossings: the wrapper of p is gone and Java's table lets it go */
                rt.eval("Java.__gc(); new E(); Java.extend(java.lang.Runnable, { run() {} }); new E();");
            }
            assertTrue(refs.stream().allMatch(r -> r.get() != null), "a class the runtime uses was unloaded");
            assertEquals("12|hello q 1|7|2", rt.eval("[P.twice(6), new P().hello('q'), new E().getAsInt(),"
                    + " P.made].join('|')"));
            assertEquals("hello r 1", rt.eval("hello.call(new P(), 'r')"));
        }
        assertTrue(collected(refs), alive(refs) + " of " + refs.size() + " classes are still loaded");
    }

    /** Gives rt an object of a class of a new loader, then keeps only its JS class object and method. */
    private static void handOver(JsRuntime rt, List<WeakReference<Object>> refs) throws Exception {
        ClassLoader loader = new OwnLoader();
        Class<?> c = loader.loadClass(Payload.class.getName());
        rt.setGlobal("p", c.getConstructor().newInstance());
        rt.eval("var P = Object.getPrototypeOf(p).constructor, hello = p.hello; p = null;");
        refs.add(new WeakReference<>(c));
        refs.add(new WeakReference<>(loader));
    }

    /**
     * Classes of another loader (a webapp's), used by many runtimes (members,
     * statics, constructors, overload caches), are unloaded with their loader
     * once the runtimes are closed and Java drops them.
     */
    @Test
    @Timeout(120)
    void classesOfOtherLoadersAreUnloaded() throws Exception {
        List<WeakReference<Object>> refs = new ArrayList<>();
        for (int i = 0; i < 10; i++) usedAndClosed(refs);
        assertTrue(collected(refs), alive(refs) + " of " + refs.size() + " classes and loaders are still loaded");
    }

    private static void usedAndClosed(List<WeakReference<Object>> refs) throws Exception {
        ClassLoader loader = new OwnLoader();
        Class<?> c = loader.loadClass(Payload.class.getName());
        assertNotSame(Payload.class, c);
        Object p = c.getConstructor().newInstance();
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            rt.setGlobal("p", p);
            assertEquals("hello a 1|hello b 1|called|2|true", rt.eval("var t = p.twin(); var P = p.getClass();"
                    + " [p.hello('a'), t.hello('b'), p.call(), P.getField('made').get(null),"
                    + " t instanceof java.util.concurrent.Callable].join('|')"));
            /* a second runtime at the same time, and JS functions as arguments */
            try (JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                other.setGlobal("p", p);
                assertEquals("hello x 2", other.eval("p.hello('x')"));
            }
            assertEquals("hello y 3", rt.eval("p.hello('y')"));
        }
        refs.add(new WeakReference<>(c));
        refs.add(new WeakReference<>(loader));
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.AbstractList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Java.extend seen from the embedding API: the adapter classes (generated
 * with the ASM bundled in strait.jar, which is all the class path holds)
 * reach Java as ordinary subclasses, callable from any Java thread, and a
 * runtime's policy decides about them by what they extend.
 */
class ExtendTest extends RuntimeTestBase {

    @Test
    @SuppressWarnings("unchecked")
    void adapterIsAJavaSubclass() {
        Object o = rt.eval("var L = Java.extend(java.util.AbstractList, { get(i) { return 'v' + i; },"
                + " size() { return 2; } }); new L()");
        assertTrue(o instanceof AbstractList);
        List<Object> l = (List<Object>) o;
        assertEquals(2, l.size());
        assertEquals("v1", l.get(1));
        assertEquals("[v0, v1]", l.toString());
        assertEquals(AbstractList.class, o.getClass().getSuperclass());
        assertTrue(o.getClass().getName().startsWith("org.strait.adapters."));
        assertNotSame(getClass().getClassLoader(), o.getClass().getClassLoader());
    }

    @Test
    @Timeout(60)
    void calledFromJavaThreads() throws Exception {
        Runnable r = (Runnable) rt.eval("var n = 0; new (Java.extend(java.lang.Runnable))({ run() { n++; } })");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<?>[] fs = new Future<?>[40];
            for (int i = 0; i < fs.length; i++) fs[i] = pool.submit(r);
            for (Future<?> f : fs) f.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdown();
        }
        assertEquals(40, rt.eval("n"));
    }

    @Test
    void sameTypesReuseTheRuntimesClass() {
        Object same = rt.eval("new (Java.extend(java.lang.Runnable, { run() {} }))().getClass() === "
                + "new (Java.extend(java.lang.Runnable, { run() {} }))().getClass()");
        assertEquals(true, same);
        try (JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Object a = rt.eval("new (Java.extend(java.lang.Runnable, { run() {} }))()");
            Object b = other.eval("new (Java.extend(java.lang.Runnable, { run() {} }))()");
            assertNotSame(a.getClass(), b.getClass());
            assertNotSame(a.getClass().getClassLoader(), b.getClass().getClassLoader());
        }
    }

    @Test
    void classFilterAppliesToWhatIsExtended() {
        try (JsRuntime f = JsRuntime.newBuilder().hostAccess(HostAccess.ALL)
                .classFilter(n -> n.startsWith("java.util.") || n.equals("java.lang.Object")).build()) {
            assertEquals(3, f.eval("var L = Java.extend(java.util.AbstractList, { get(i) { return i; },"
                    + " size() { return 3; } }); new L().size()"));
            /* no java.lang.Class under this filter: the constructor has no `class` */
            assertEquals("undefined", f.eval("typeof L.class"));
            JsException e = assertThrows(JsException.class,
                    () -> f.eval("Java.extend(Java.type('java.io.Writer'))"));
            assertTrue(e.getMessage().contains("java.io.Writer"), e.getMessage());
        }
    }
}

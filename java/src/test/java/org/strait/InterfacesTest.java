package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.strait.internal.JsProxyHandler;

/** Java interfaces implemented by JS objects and functions (JsObject.as, Proxy). */
class InterfacesTest extends RuntimeTestBase {

    /** An interface with a default method and several abstract ones. */
    public interface Greeter {
        String greet(String name);

        int times();

        default String twice(String name) {
            return greet(name) + greet(name);
        }
    }

    @Test
    void runnableFromJsObject() {
        rt.eval("var ran = 0;");
        JsObject impl = (JsObject) rt.eval("({ run() { ran++; } })");
        Runnable r = impl.as(Runnable.class);
        r.run();
        r.run();
        assertEquals(2, rt.eval("ran"));
    }

    @Test
    void comparatorSortsJavaList() {
        JsObject impl = (JsObject) rt.eval("({ compare(a, b) { return a - b; } })");
        @SuppressWarnings("unchecked")
        Comparator<Integer> c = impl.as(Comparator.class);
        List<Integer> list = new ArrayList<>(Arrays.asList(5, 3, 9, 1));
        list.sort(c);
        assertEquals(List.of(1, 3, 5, 9), list);
        // reversed() is a default method JS does not override: Java's default runs.
        list.sort(c.reversed());
        assertEquals(List.of(9, 5, 3, 1), list);
    }

    @Test
    void functionImplementsFunctionalInterface() {
        JsFunction f = (JsFunction) rt.eval("(x => x * 2)");
        @SuppressWarnings("unchecked")
        Function<Object, Object> fn = f.as(Function.class);
        assertEquals(42, fn.apply(21));
        // andThen is a default method: runs Java's default around the JS function.
        assertEquals(43, fn.andThen(x -> (Integer) x + 1).apply(21));
        @SuppressWarnings("unchecked")
        Supplier<Object> s = ((JsFunction) rt.eval("(() => 'hi')")).as(Supplier.class);
        assertEquals("hi", s.get());
    }

    @Test
    void defaultMethodOverriddenByJs() {
        JsObject impl = (JsObject) rt.eval(
                "({ greet(n) { return 'hi ' + n; }, times() { return 2; }, twice(n) { return 'JS'; } })");
        Greeter g = impl.as(Greeter.class);
        assertEquals("hi bob", g.greet("bob"));
        assertEquals("JS", g.twice("bob"));
        JsObject plain = (JsObject) rt.eval("({ greet(n) { return n; }, times() { return 1; } })");
        assertEquals("aa", plain.as(Greeter.class).twice("a"));
    }

    @Test
    void missingMethodThrowsUnsupportedOperation() {
        JsObject impl = (JsObject) rt.eval("({ greet(n) { return n; } })");
        Greeter g = impl.as(Greeter.class);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, g::times);
        assertTrue(e.getMessage().contains("InterfacesTest$Greeter.times"), e.getMessage());
    }

    @Test
    void returnValueThatDoesNotFit() {
        JsObject impl = (JsObject) rt.eval(
                "({ greet(n) { return 42; }, times() { return 'three'; } })");
        Greeter g = impl.as(Greeter.class);
        ClassCastException e = assertThrows(ClassCastException.class, g::times);
        assertTrue(e.getMessage().contains("must return an int"), e.getMessage());
        assertTrue(e.getMessage().contains("a string"), e.getMessage());
        ClassCastException e2 = assertThrows(ClassCastException.class, () -> g.greet("x"));
        assertTrue(e2.getMessage().contains("java.lang.String"), e2.getMessage());
        JsObject frac = (JsObject) rt.eval("({ compare(a, b) { return 0.5; } })");
        assertThrows(ClassCastException.class, () -> frac.as(Comparator.class).compare(1, 2));
        assertEquals(3, rt.eval("1 + 2"), "the runtime keeps working");
    }

    @Test
    void nonFunctionMemberIsRejectedAtOnce() {
        JsObject impl = (JsObject) rt.eval("({ run: 42 })");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> impl.as(Runnable.class));
        assertTrue(e.getMessage().contains("java.lang.Runnable"), e.getMessage());
        assertTrue(e.getMessage().contains("'run'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> impl.as(String.class).toString());
    }

    @Test
    void jsErrorInImplementationReachesJavaWithStack() {
        JsObject impl = (JsObject) rt.eval(
                "({ run() {\n  throw new Error('from JS');\n} })", "impl.js");
        Runnable r = impl.as(Runnable.class);
        JsException e = assertThrows(JsException.class, r::run);
        assertEquals("Error: from JS", e.getMessage());
        assertEquals("impl.js", e.getFileName());
        assertEquals(2, e.getLineNumber());
        assertNotNull(e.getJsStack());
    }

    @Test
    void objectMethodsOfTheProxy() {
        Runnable r = ((JsObject) rt.eval("({ run() {} })")).as(Runnable.class);
        assertEquals(r, r);
        assertNotEquals(r, ((JsObject) rt.eval("({ run() {} })")).as(Runnable.class));
        assertEquals(System.identityHashCode(r), r.hashCode());
        assertTrue(r.toString().contains("java.lang.Runnable"));
        assertNotNull(JsProxyHandler.implementationOf(r));
    }

    @Test
    @Timeout(60)
    void runnableRunByAThreadPool() throws Exception {
        rt.eval("var hits = 0;");
        Runnable r = ((JsObject) rt.eval("({ run() { hits++; } })")).as(Runnable.class);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 20_000; i++) pool.execute(r);
        pool.shutdown();
        assertTrue(pool.awaitTermination(50, TimeUnit.SECONDS));
        assertEquals(20_000, rt.eval("hits"));
    }

    @Test
    void runnableOfClosedRuntimeThrowsIllegalState() {
        JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build();
        Runnable r = ((JsObject) other.eval("({ run() {} })")).as(Runnable.class);
        r.run();
        other.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, r::run);
        assertEquals("runtime closed", e.getMessage());
    }
}

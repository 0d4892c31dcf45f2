package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** JS values held from Java: JsObject, JsFunction, JsArray, JsPromise, globals. */
class HandlesTest extends RuntimeTestBase {

    @Test
    void evalReturnsTypedHandles() {
        assertTrue(rt.eval("(function f() {})") instanceof JsFunction);
        assertTrue(rt.eval("[1, 2]") instanceof JsArray);
        assertTrue(rt.eval("Promise.resolve(1)") instanceof JsPromise);
        Object o = rt.eval("({a: 1})");
        assertTrue(o instanceof JsObject);
        assertFalse(o instanceof JsFunction);
    }

    @Test
    void globalsGetAndSet() {
        rt.setGlobal("answer", 42);
        assertEquals(42, rt.eval("answer"));
        rt.setGlobal("greeting", "héllo \uD83D\uDE00");
        assertEquals("héllo \uD83D\uDE00", rt.getGlobal("greeting"));
        rt.setGlobal("flag", true);
        assertEquals(true, rt.eval("flag === true"));
        rt.setGlobal("big", 1L << 60);
        assertEquals("bigint", rt.eval("typeof big"));
        assertEquals(true, rt.eval("big === 2n ** 60n"));
        rt.setGlobal("half", 0.5);
        assertEquals(0.5, rt.getGlobal("half"));
        assertNull(rt.getGlobal("noSuchGlobal"));
        rt.setGlobal("u", JsObject.UNDEFINED);
        assertEquals("undefined", rt.eval("typeof u"));
        rt.setGlobal("c", 'x');
        assertEquals("x", rt.eval("c"));
    }

    @Test
    void functionCallWithArgumentsAndResult() {
        JsFunction add = (JsFunction) rt.eval("(function (a, b) { return a + b; })");
        assertEquals(5, add.call(2, 3));
        assertEquals("ab", add.call("a", "b"));
        assertEquals(2.5, add.call(1, 1.5));
        assertEquals("1null", add.call("1", null));
        JsFunction noArgs = (JsFunction) rt.eval("(function () { return arguments.length; })");
        assertEquals(0, noArgs.call());
        assertEquals(3, noArgs.call(1, 2, 3));
    }

    @Test
    void callWithThisAndConstruct() {
        JsFunction getX = (JsFunction) rt.eval("(function () { return this.x; })");
        JsObject o = (JsObject) rt.eval("({x: 7})");
        assertEquals(7, getX.callWithThis(o));
        JsFunction Point = (JsFunction) rt.eval("(class Point { constructor(x) { this.x = x; } })");
        JsObject p = (JsObject) Point.construct(9);
        assertEquals(9, p.get("x"));
        JsException e = assertThrows(JsException.class, () -> Point.call(1));
        assertEquals("TypeError", e.getName());
        JsFunction arrow = (JsFunction) rt.eval("(() => 1)");
        assertThrows(JsException.class, () -> arrow.construct());
    }

    @Test
    void objectProperties() {
        JsObject o = (JsObject) rt.eval("({a: 1, b: 'two', nested: {c: [1, 2, 3]}})");
        assertEquals(1, o.get("a"));
        assertEquals("two", o.get("b"));
        assertTrue(o.has("a"));
        assertFalse(o.has("zzz"));
        o.set("z", 26);
        assertEquals(List.of("a", "b", "nested", "z"), o.keys());
        assertTrue(o.delete("a"));
        assertFalse(o.has("a"));
        JsObject nested = (JsObject) o.get("nested");
        JsArray c = (JsArray) nested.get("c");
        assertEquals(3, c.size());
        assertEquals(List.of(1, 2, 3), c.toList());
        c.set(3, "four");
        assertEquals(4, c.size());
        assertEquals("four", c.get(3));
        assertEquals("[object Object]", o.invoke("toString"));
        assertThrows(IllegalArgumentException.class, () -> o.invoke("b"));
    }

    @Test
    void sameObjectTwiceIsEqual() {
        rt.eval("var shared = {}; function get() { return shared; }");
        JsFunction get = (JsFunction) rt.getGlobal("get");
        Object a = get.call();
        Object b = get.call();
        assertNotSame(a, b);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, rt.eval("({})"));
    }

    @Test
    void handlesPassBackIntoJs() {
        JsFunction same = (JsFunction) rt.eval("(function (x, y) { return x === y; })");
        JsObject o = (JsObject) rt.eval("({})");
        assertEquals(true, same.call(o, o));
        assertEquals(false, same.call(o, rt.eval("({})")));
    }

    @Test
    void handleOfAnotherRuntimeIsRejected() {
        try (JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            JsObject foreign = (JsObject) other.eval("({})");
            JsFunction f = (JsFunction) rt.eval("(function (x) { return x; })");
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> f.call(foreign));
            assertTrue(e.getMessage().contains("another runtime"), e.getMessage());
            assertEquals(1, f.call(1));
        }
    }

    @Test
    void releasedHandleThrows() {
        JsFunction f = (JsFunction) rt.eval("(function () { return 1; })");
        f.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, f::call);
        assertEquals("value released: the JsFunction was closed", e.getMessage());
    }

    @Test
    void jsErrorReachesJavaWithStack() {
        JsFunction f = (JsFunction) rt.eval(
                "(function thrower(m) {\n  throw new RangeError(m);\n})", "thrower.js");
        JsException e = assertThrows(JsException.class, () -> f.call("bad"));
        assertEquals("RangeError: bad", e.getMessage());
        assertEquals("thrower.js", e.getFileName());
        assertEquals(2, e.getLineNumber());
        assertTrue(e.getJsStack().contains("thrower"), e.getJsStack());
        assertEquals(3, rt.eval("1 + 2"), "the runtime keeps working");
    }

    @Test
    void promiseAsFuture() throws Exception {
        JsPromise p = (JsPromise) rt.eval("Promise.resolve(41).then(x => x + 1)");
        CompletableFuture<Object> f = p.toFuture();
        assertEquals(42, f.get(5, TimeUnit.SECONDS));
        JsPromise r = (JsPromise) rt.eval("Promise.reject(new TypeError('nope'))");
        Exception e = assertThrows(Exception.class, () -> r.toFuture().get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof JsException, String.valueOf(e.getCause()));
        assertEquals("TypeError: nope", e.getCause().getMessage());
    }

    @Test
    void pendingPromiseSettlesLaterAndFailsOnClose() throws Exception {
        rt.eval("var resolveIt; var pending = new Promise(r => { resolveIt = r; });");
        CompletableFuture<Object> f = ((JsPromise) rt.getGlobal("pending")).toFuture();
        assertFalse(f.isDone());
        ((JsFunction) rt.getGlobal("resolveIt")).call("done");
        assertEquals("done", f.get(5, TimeUnit.SECONDS));
        rt.eval("var never = new Promise(() => {});");
        CompletableFuture<Object> g = ((JsPromise) rt.getGlobal("never")).toFuture();
        rt.close();
        Exception e = assertThrows(Exception.class, () -> g.get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    }

    @Test
    void javaObjectsPassedAgainArriveAsTheSameWrappers() {
        // More objects than the native identity-hash hint table has places, so
        // places collide and every hit must still be checked for identity.
        JsFunction seen = (JsFunction) rt.eval(
                "(function () { const m = new Map(); let n = 0;"
                + " return function (o, i) { if (!m.has(i)) { m.set(i, o); n++; return -1; }"
                + "   return m.get(i) === o ? 1 : 0; }; })()");
        Object[] objs = new Object[10000];
        for (int i = 0; i < objs.length; i++) objs[i] = new Object();
        for (int i = 0; i < objs.length; i++) assertEquals(-1, seen.call(objs[i], i));
        for (int round = 0; round < 2; round++)
            for (int i = 0; i < objs.length; i++)
                assertEquals(1, seen.call(objs[i], i), "object " + i + " came back as another wrapper");
        JsFunction same = (JsFunction) rt.eval("(function (a, b) { return a === b; })");
        assertEquals(Boolean.FALSE, same.call(objs[0], objs[1]));
        assertEquals(Boolean.TRUE, same.call(objs[2], objs[2]));
    }

    @Test
    void anObjectJsConstructedComesBackAsItsOwnWrapper() {
        // JS made it with `new`: the native side enters it into the Java table
        // only when needed, which must happen before Java registers arguments
        Object sb = rt.eval("globalThis.sb = new java.lang.StringBuilder('x'); sb");
        assertTrue(sb instanceof StringBuilder);
        JsFunction isSb = (JsFunction) rt.eval("(function (a, b) { return a === globalThis.sb && b === a; })");
        assertEquals(Boolean.TRUE, isSb.call(sb, sb));
        rt.setGlobal("again", sb);
        assertEquals(Boolean.TRUE, rt.eval("again === sb"));
        assertEquals(Boolean.TRUE, isSb.callWithThis(null, sb, sb));
    }

    @Test
    void javaObjectsMixedWithOtherArgumentsKeepTheirPlaces() {
        JsFunction f = (JsFunction) rt.eval(
                "(function (a, s, o, n, h, p) { return [typeof a, s, o.getClass().getName(), n, h.k,"
                + " p.size()].join(','); })");
        JsObject h = (JsObject) rt.eval("({k: 'v'})");
        java.util.List<String> list = java.util.List.of("a", "b");
        assertEquals("object,str,java.lang.Object,2.5,v,2",
                f.call(new Object(), "str", new Object(), 2.5, h, list));
        Object made = ((JsFunction) rt.eval("(function (C) { return new C(); })")).construct(
                rt.eval("Object"));
        assertTrue(made instanceof JsObject);
    }

    @Test
    void wrappersMadeOnlyByJavaCallsAreReleased() {
        // Java -> JS calls alone (no JS -> Java crossing, no loop) must not
        // make the bridge's tables grow without end
        JsFunction f = (JsFunction) rt.eval("(function (a, b, c) {})");
        int calls = 200_000;
        for (int i = 0; i < calls; i++) f.call(new Object(), new Object(), new Object());
        rt.eval("for (let i = 0; i < 1e5; i++) ({});");
        f.call(new Object());
        int held = rt.table().size();
        assertTrue(held < calls, "the runtime still holds " + held + " of " + 3 * calls + " objects");
    }

    @Test
    void javaArgumentsFromACallbackAndFromManyThreads() throws Exception {
        JsFunction same = (JsFunction) rt.eval(
                "(function (a, b) { globalThis.last = a; return a === b && a === globalThis.last; })");
        Object shared = new Object();
        // nested: JS calls Java, which calls JS with Java objects (re-entrant gate)
        Runnable inner = () -> assertEquals(Boolean.TRUE, same.call(shared, shared));
        rt.setGlobal("inner", inner);
        rt.eval("for (let i = 0; i < 100; i++) inner.run();");
        // concurrent: every thread registers its arguments inside the gate
        int threads = 4, calls = 5000;
        java.util.concurrent.atomic.AtomicInteger bad = new java.util.concurrent.atomic.AtomicInteger();
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                Object mine = new Object();
                for (int i = 0; i < calls; i++) {
                    Object o = (i & 1) == 0 ? mine : new Object();
                    if (!Boolean.TRUE.equals(same.call(o, o))) bad.incrementAndGet();
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        assertEquals(0, bad.get());
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every entry point of the Java API that takes or uses a handle, for every
 * kind of handle, after close(): IllegalStateException naming what was
 * closed, never a crash nor a JS value of a reused cell; handles of another
 * runtime are refused; the runtime stays usable afterwards. The cases are
 * the product of the kinds and the entry points below.
 */
class UseAfterCloseTest {
    /** A kind of handle: how to make one in rt. */
    record Kind(String name, String type, Function<JsRuntime, JsValue> make) {}

    static final List<Kind> KINDS = List.of(
            new Kind("object", "JsObject", rt -> (JsValue) rt.eval("({a: 1, b: [2]})")),
            new Kind("function", "JsFunction", rt -> (JsValue) rt.eval("(function (x) { return x; })")),
            new Kind("array", "JsArray", rt -> (JsValue) rt.eval("[1, 2, 3]")),
            new Kind("promise", "JsPromise", rt -> (JsValue) rt.eval("Promise.resolve(7)")),
            new Kind("symbol", "JsValue", rt -> (JsValue) rt.eval("Symbol('s')")),
            new Kind("exception value", "JsObject", rt -> {
                JsException e = assertThrows(JsException.class, () -> rt.eval("throw new TypeError('t')"));
                return (JsValue) e.getValue();
            }));

    /** An entry point using handle v of runtime rt (v may be of any kind). */
    record Use(String name, Class<?> needs, BiConsumer<JsRuntime, JsValue> run) {}

    static final List<Use> USES = List.of(
            // the handle as the receiver
            new Use("typeOf", JsValue.class, (rt, v) -> v.typeOf()),
            new Use("stringValue", JsValue.class, (rt, v) -> v.stringValue()),
            new Use("toJava", JsValue.class, (rt, v) -> v.toJava()),
            new Use("toJava(handles)", JsValue.class, (rt, v) -> v.toJava(true)),
            new Use("asByteBuffer", JsValue.class, (rt, v) -> v.asByteBuffer()),
            new Use("get", JsObject.class, (rt, v) -> ((JsObject) v).get("a")),
            new Use("set", JsObject.class, (rt, v) -> ((JsObject) v).set("a", 2)),
            new Use("has", JsObject.class, (rt, v) -> ((JsObject) v).has("a")),
            new Use("delete", JsObject.class, (rt, v) -> ((JsObject) v).delete("a")),
            new Use("keys", JsObject.class, (rt, v) -> ((JsObject) v).keys()),
            new Use("invoke", JsObject.class, (rt, v) -> ((JsObject) v).invoke("toString")),
            new Use("as", JsObject.class, (rt, v) -> ((JsObject) v).as(Runnable.class).run()),
            new Use("call", JsFunction.class, (rt, v) -> ((JsFunction) v).call(1)),
            new Use("callWithThis", JsFunction.class, (rt, v) -> ((JsFunction) v).callWithThis(null, 1)),
            new Use("construct", JsFunction.class, (rt, v) -> ((JsFunction) v).construct()),
            new Use("size", JsArray.class, (rt, v) -> ((JsArray) v).size()),
            new Use("getAt", JsArray.class, (rt, v) -> ((JsArray) v).get(0)),
            new Use("setAt", JsArray.class, (rt, v) -> ((JsArray) v).set(0, 1)),
            new Use("toList", JsArray.class, (rt, v) -> ((JsArray) v).toList()),
            new Use("toFuture", JsPromise.class, (rt, v) -> ((JsPromise) v).toFuture()),
            // the handle as an argument
            new Use("argument of call", JsValue.class, (rt, v) -> fn(rt).call(1, v)),
            new Use("receiver of callWithThis", JsValue.class, (rt, v) -> fn(rt).callWithThis(v)),
            new Use("argument of construct", JsValue.class, (rt, v) -> ctor(rt).construct(v)),
            new Use("argument of invoke", JsValue.class, (rt, v) -> obj(rt).invoke("f", v)),
            new Use("value of set", JsValue.class, (rt, v) -> obj(rt).set("k", v)),
            new Use("value of array set", JsValue.class, (rt, v) -> arr(rt).set(0, v)),
            new Use("value of setGlobal", JsValue.class, (rt, v) -> rt.setGlobal("g", v)),
            // the handle inside a value given to toJs
            new Use("toJs(handle)", JsValue.class, (rt, v) -> rt.toJs(v)),
            new Use("toJs(List)", JsValue.class, (rt, v) -> rt.toJs(List.of(1, v))),
            new Use("toJs(Map)", JsValue.class, (rt, v) -> rt.toJs(Map.of("k", v))),
            new Use("toJs(Map key)", JsValue.class, (rt, v) -> rt.toJs(mapWithKey(v))),
            new Use("toJs(Object[])", JsValue.class, (rt, v) -> rt.toJs(new Object[] {"x", v})),
            new Use("toJs(nested)", JsValue.class,
                    (rt, v) -> rt.toJs(List.of(Map.of("a", List.of(List.of(2, v)))))));

    static JsFunction fn(JsRuntime rt) {
        return (JsFunction) rt.eval("(function (a, b) { return typeof b; })");
    }

    static JsFunction ctor(JsRuntime rt) {
        return (JsFunction) rt.eval("(class { constructor(a) { this.a = a; } })");
    }

    static JsObject obj(JsRuntime rt) {
        return (JsObject) rt.eval("({ f(x) { return typeof x; } })");
    }

    static JsArray arr(JsRuntime rt) {
        return (JsArray) rt.eval("[0]");
    }

    static Map<Object, Object> mapWithKey(Object k) {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(1, 1);
        m.put(k, 2);
        return m;
    }

    static boolean applies(Use u, JsValue v) {
        return u.needs().isInstance(v);
    }

    /** Runtimes the cases that do not close a runtime share (fewer runtimes to make). */
    private static JsRuntime shared, sharedOther;

    @org.junit.jupiter.api.BeforeAll
    static void openShared() {
        shared = JsRuntime.newBuilder().allowAllAccess(true).build();
        sharedOther = JsRuntime.newBuilder().allowAllAccess(true).build();
    }

    @org.junit.jupiter.api.AfterAll
    static void closeShared() {
        shared.close();
        sharedOther.close();
    }

    @TestFactory
    List<DynamicTest> closedHandleIsRefusedEverywhere() {
        List<DynamicTest> out = new ArrayList<>();
        for (Kind k : KINDS) {
            for (Use u : USES) {
                out.add(DynamicTest.dynamicTest(k.name() + " / " + u.name(), () -> {
                    JsRuntime rt = shared;
                    {
                        JsValue v = k.make().apply(rt);
                        if (!applies(u, v)) {
                            v.close();
                            return;
                        }
                        v.close();
                        assertTrue(v.isReleased());
                        // make the released cell collectable and reused
                        rt.eval("for (let i = 0; i < 2000; i++) ({ i, s: 'x' + i });");
                        IllegalStateException e = assertThrows(IllegalStateException.class,
                                () -> u.run().accept(rt, v));
                        assertTrue(e.getMessage().contains("value released: the " + k.type() + " was closed"),
                                e.getMessage());
                        assertEquals(6, rt.eval("1 + 5"), "the runtime stays usable");
                    }
                }));
            }
        }
        return out;
    }

    @TestFactory
    List<DynamicTest> handleOfClosedRuntimeIsRefusedEverywhere() {
        List<DynamicTest> out = new ArrayList<>();
        for (Kind k : KINDS) {
            for (Use u : USES) {
                out.add(DynamicTest.dynamicTest(k.name() + " / " + u.name(), () -> {
                    JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
                    JsValue v = k.make().apply(rt);
                    if (!applies(u, v)) {
                        rt.close();
                        return;
                    }
                    rt.close();
                    assertTrue(v.isReleased());
                    IllegalStateException e = assertThrows(IllegalStateException.class,
                            () -> u.run().accept(rt, v));
                    assertEquals("runtime closed", e.getMessage());
                    v.close(); // still a no-op
                }));
            }
        }
        return out;
    }

    /** The entry points that take a handle from outside: another runtime's is refused. */
    @TestFactory
    List<DynamicTest> handleOfAnotherRuntimeIsRefused() {
        List<DynamicTest> out = new ArrayList<>();
        for (Kind k : KINDS) {
            for (Use u : USES) {
                if (!u.name().contains("argument") && !u.name().contains("value of")
                        && !u.name().contains("toJs") && !u.name().contains("receiver of"))
                    continue;
                for (boolean closedOther : new boolean[] {false, true}) {
                    out.add(DynamicTest.dynamicTest(k.name() + " / " + u.name()
                            + (closedOther ? " / other runtime closed" : ""), () -> {
                        JsRuntime rt = shared;
                        {
                            JsRuntime other = closedOther ? JsRuntime.newBuilder().allowAllAccess(true).build() : sharedOther;
                            JsValue foreign = k.make().apply(other);
                            if (closedOther) other.close();
                            RuntimeException e = assertThrows(RuntimeException.class,
                                    () -> u.run().accept(rt, foreign));
                            assertTrue(e instanceof IllegalArgumentException,
                                    "expected IllegalArgumentException, got " + e);
                            assertTrue(e.getMessage().contains("another runtime"), e.getMessage());
                            assertEquals(6, rt.eval("1 + 5"));
                            if (closedOther) other.close();
                            else foreign.close();
                        }
                    }));
                }
            }
        }
        return out;
    }

    /** A JsException thrown back through JS keeps its value although getValue() was closed. */
    @TestFactory
    List<DynamicTest> closedExceptionValueIsStillRethrownIntact() {
        String[] thrown = {"new RangeError('r1')", "({tag: 'plain object'})", "[1, 2, 'arr']",
            "(function named() {})", "Symbol('sym')"};
        String[] check = {"e instanceof RangeError && e.message === 'r1'", "e.tag === 'plain object'",
            "Array.isArray(e) && e[2] === 'arr'", "typeof e === 'function' && e.name === 'named'",
            "typeof e === 'symbol' && e.description === 'sym'"};
        List<DynamicTest> out = new ArrayList<>();
        for (int i = 0; i < thrown.length; i++) {
            String t = thrown[i], c = check[i];
            out.add(DynamicTest.dynamicTest(t, () -> {
                try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    JsException ex = assertThrows(JsException.class, () -> rt.eval("throw " + t));
                    JsValue v = (JsValue) ex.getValue();
                    v.close();
                    assertThrows(IllegalStateException.class, v::typeOf);
                    // nothing else holds the thrown value: collect and reuse its cell
                    rt.eval("for (let i = 0; i < 20000; i++) ({ i, s: 'x' + i });");
                    rt.setGlobal("thrower", (Runnable) () -> {
                        throw ex;
                    });
                    assertEquals(true, rt.eval("(() => { try { thrower.run(); return 'no throw'; }"
                            + " catch (e) { return " + c + "; } })()"));
                }
            }));
        }
        return out;
    }

    /** A JsException of runtime A thrown through runtime B's JS: B gets a Java error, never A's cell. */
    @TestFactory
    List<DynamicTest> exceptionOfAnotherRuntimeIsNotItsValue() {
        List<DynamicTest> out = new ArrayList<>();
        for (boolean closeA : new boolean[] {false, true}) {
            out.add(DynamicTest.dynamicTest(closeA ? "runtime A closed" : "runtime A open", () -> {
                JsRuntime a = JsRuntime.newBuilder().allowAllAccess(true).build();
                JsException ex = assertThrows(JsException.class, () -> a.eval("throw {tag: 'from A'}"));
                if (closeA) a.close();
                try (JsRuntime b = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    b.setGlobal("thrower", (Runnable) () -> {
                        throw ex;
                    });
                    Object r = b.eval("(() => { try { thrower.run(); return 'no throw'; }"
                            + " catch (e) { return (e.tag === undefined) + '|' + String(e.message); } })()");
                    assertTrue(((String) r).startsWith("true|"), String.valueOf(r));
                    assertTrue(((String) r).contains("JsException"), String.valueOf(r));
                } finally {
                    a.close();
                }
            }));
        }
        return out;
    }

    /** A Java proxy implemented by a JS object whose handle was closed afterwards. */
    @TestFactory
    List<DynamicTest> proxyOfAClosedHandleIsRefused() {
        String[] impls = {"(function () { globalThis.ran = 1; })", "({ run() { globalThis.ran = 1; } })"};
        List<DynamicTest> out = new ArrayList<>();
        for (String impl : impls) {
            for (boolean withArg : new boolean[] {false, true}) {
                out.add(DynamicTest.dynamicTest(impl + (withArg ? " / closed argument" : ""), () -> {
                    try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                        JsObject o = (JsObject) rt.eval(impl);
                        if (!withArg) {
                            Runnable r = o.as(Runnable.class);
                            r.run();
                            o.close();
                            rt.eval("for (let i = 0; i < 2000; i++) ({ i });");
                            IllegalStateException e = assertThrows(IllegalStateException.class, r::run);
                            assertTrue(e.getMessage().contains("was closed"), e.getMessage());
                        } else {
                            @SuppressWarnings("unchecked")
                            java.util.function.Function<Object, Object> fn =
                                    ((JsObject) rt.eval("(x => typeof x)")).as(java.util.function.Function.class);
                            JsValue arg = (JsValue) rt.eval("({})");
                            assertEquals("object", fn.apply(arg));
                            arg.close();
                            IllegalStateException e = assertThrows(IllegalStateException.class, () -> fn.apply(arg));
                            assertTrue(e.getMessage().contains("was closed"), e.getMessage());
                        }
                        assertEquals(6, rt.eval("1 + 5"));
                    }
                }));
            }
        }
        return out;
    }

    /** close() on one thread while another calls through the same handle: no crash. */
    @Test
    void closeRacingWithCallsNeverCrashes() throws Exception {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            for (int round = 0; round < 60; round++) {
                JsFunction f = (JsFunction) rt.eval("(function (o) { return o.n + 1; })");
                JsObject arg = (JsObject) rt.eval("({n: " + round + "})");
                AtomicReference<Throwable> bad = new AtomicReference<>();
                int r = round;
                Thread caller = new Thread(() -> {
                    for (int i = 0; i < 400; i++) {
                        try {
                            assertEquals(r + 1, f.call(arg));
                            assertEquals(r, arg.get("n"));
                            Object list = rt.toJs(List.of(Map.of("o", arg)));
                            if (list instanceof JsValue) ((JsValue) list).close();
                        } catch (IllegalStateException e) {
                            if (!e.getMessage().contains("was closed")) bad.compareAndSet(null, e);
                            return;
                        } catch (Throwable t) {
                            bad.compareAndSet(null, t);
                            return;
                        }
                    }
                });
                caller.start();
                Thread.yield();
                if ((round & 1) == 0) f.close();
                else arg.close();
                rt.eval("for (let i = 0; i < 500; i++) ({ i });");
                caller.join();
                if (bad.get() != null) throw new AssertionError("round " + round, bad.get());
            }
        }
    }
}

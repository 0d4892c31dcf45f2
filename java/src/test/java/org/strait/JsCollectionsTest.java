package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * JS objects and arrays seen from Java as live collections: JsObject as a
 * {@code Map<String,Object>}, JsArray as a {@code List<Object>}, from the JS
 * thread (a JS value passed to a Java parameter), from another thread, and
 * after the runtime closed (docs/interop.md, "JS values passed to Java
 * parameters").
 */
class JsCollectionsTest extends RuntimeTestBase {

    /** What JS passes to a Java Object parameter (AtomicReference.set). */
    private Object passed(String js) {
        AtomicReference<Object> ref = new AtomicReference<>();
        rt.setGlobal("ref", ref);
        rt.eval("ref.set(" + js + ")");
        return ref.get();
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsObjectPassedToObjectIsALiveMap() {
        rt.eval("var obj = {b: 'two', a: 1, nested: {c: 3}, list: [1, 2]}");
        Object v = passed("obj");
        assertTrue(v instanceof JsObject);
        Map<String, Object> m = (Map<String, Object>) v;
        assertEquals(4, m.size());
        assertEquals(List.of("b", "a", "nested", "list"), new ArrayList<>(m.keySet()));   // JS order
        assertEquals("two", m.get("b"));
        assertEquals(1, m.get("a"));
        assertTrue(m.get("nested") instanceof JsObject);
        assertTrue(m.get("list") instanceof JsArray);
        assertNull(m.get("missing"));
        assertNull(m.get(42));                       // not a String key
        assertTrue(m.containsKey("a"));
        assertFalse(m.containsKey("toString"));      // own enumerable keys only
        assertTrue(((JsObject) m).get("toString") instanceof JsFunction);   // this[key] sees inherited

        assertNull(m.put("c", 3.5));
        assertEquals("two", m.put("b", "deux"));
        assertEquals(true, rt.eval("obj.c === 3.5 && obj.b === 'deux'"));
        assertEquals(1, m.remove("a"));
        assertEquals(false, rt.eval("'a' in obj"));
        assertNull(m.remove("a"));

        rt.eval("obj.late = true");                   // JS writes seen from Java
        assertEquals(true, m.get("late"));

        Map<String, Object> copy = new LinkedHashMap<>(m);   // entrySet walk
        assertEquals(List.of("b", "nested", "list", "c", "late"), new ArrayList<>(copy.keySet()));
        for (Map.Entry<String, Object> e : m.entrySet())
            if (e.getKey().equals("c")) e.setValue("set");
        assertEquals("set", rt.eval("obj.c"));
        Iterator<String> it = m.keySet().iterator();
        while (it.hasNext()) if (it.next().equals("late")) it.remove();
        assertEquals(false, rt.eval("'late' in obj"));
        assertTrue(m.containsValue("deux"));

        // the same handle going back to JS is the original object
        assertEquals(true, rt.eval("ref.get() === obj"));
        m.clear();
        assertEquals(0, rt.eval("Object.keys(obj).length"));
        assertTrue(m.isEmpty());
    }

    @Test
    void jsArrayPassedToObjectIsALiveList() {
        rt.eval("var arr = [3, 'x', 1.5]");
        Object v = passed("arr");
        assertTrue(v instanceof JsArray);
        assertFalse(v instanceof JsObject);           // see JsArray's javadoc: Map and List clash
        @SuppressWarnings("unchecked")
        List<Object> l = (List<Object>) v;
        assertEquals(3, l.size());
        assertEquals(Arrays.asList(3, "x", 1.5), new ArrayList<>(l));   // iteration
        assertEquals("x", l.set(1, "y"));
        assertTrue(l.add(7));
        l.add(0, "first");
        assertEquals(3, l.remove(1));
        assertEquals(true, rt.eval("JSON.stringify(arr) === '[\"first\",\"y\",1.5,7]'"));
        assertEquals(1, l.indexOf("y"));
        assertTrue(l.contains(7));
        assertArrayEquals(new Object[] {"first", "y", 1.5, 7}, l.toArray());
        rt.eval("arr.push('js')");
        assertEquals(5, l.size());
        assertEquals(true, rt.eval("ref.get() === arr"));
        l.clear();
        assertEquals(0, rt.eval("arr.length"));
    }

    @Test
    void javaSortsAJsArrayInPlace() {
        JsArray a = (JsArray) rt.eval("var nums = [5, 3, 9, 1]; nums");
        Collections.sort(a, (x, y) -> Integer.compare((Integer) x, (Integer) y));
        assertEquals("1,3,5,9", rt.eval("nums.join()"));
        rt.eval("java.util.Collections.reverse(nums)");   // a List parameter gets the live array
        assertEquals("9,5,3,1", rt.eval("nums.join()"));
    }

    @Test
    void jsFunctionPassedToObject() {
        Object v = passed("(x) => x + 1");
        assertTrue(v instanceof JsFunction);
        assertEquals(42, ((JsFunction) v).call(41));
    }

    @Test
    void dateAndClassObjects() {
        assertEquals(java.time.Instant.ofEpochMilli(1234), passed("new Date(1234)"));
        assertEquals(String.class, passed("java.lang.String"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void viewsWorkFromAnotherThread() throws Exception {
        Map<String, Object> m = (Map<String, Object>) passed("globalThis.o = {n: 0}");
        List<Object> l0 = (List<Object>) passed("globalThis.a0 = []");
        List<Object> l1 = (List<Object>) passed("globalThis.a1 = []");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int id = t;
                List<Object> l = t == 0 ? l0 : l1;   // a List is not thread-safe: one per thread
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        m.put("t" + id, i);            // each put is one stay in the runtime
                        l.add(i);
                        assertTrue(m.containsKey("n"));
                        assertEquals(i, l.get(i));
                    }
                }));
            }
            for (Future<?> f : fs) f.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(200, rt.eval("a0.length"));
        assertEquals(19900, rt.eval("a1.reduce((x, y) => x + y, 0)"));
        assertEquals(199, rt.eval("o.t0"));
        assertEquals(199, m.get("t1"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void afterCloseEveryUseThrows() {
        Map<String, Object> m = (Map<String, Object>) passed("({a: 1})");
        List<Object> l = (List<Object>) passed("[1]");
        rt.close();
        for (Runnable r : List.<Runnable>of(() -> m.get("a"), () -> m.put("b", 2), m::size,
                () -> m.containsKey("a"), m::keySet, () -> m.entrySet().iterator(),
                () -> l.get(0), () -> l.add(2), l::size, l::iterator)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, r::run);
            assertEquals("runtime closed", e.getMessage());
        }
    }

    @Test
    void handleOfAnotherRuntimeGoesToJsAsAJavaObject() {
        try (JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Object foreign = other.eval("({x: 1})");
            AtomicReference<Object> ref = new AtomicReference<>(foreign);
            rt.setGlobal("ref", ref);
            // not this runtime's value: JS sees the Java object (a Map), never the other heap's cell
            assertEquals(1, rt.eval("ref.get().get('x')"));
            assertEquals(true, rt.eval("ref.get() instanceof java.util.Map"));
        }
    }

    @Test
    void closedHandleGoesToJsAsAJavaObject() {
        JsObject o = (JsObject) rt.eval("({x: 1})");
        AtomicReference<Object> ref = new AtomicReference<>(o);
        rt.setGlobal("ref", ref);
        o.close();
        assertEquals(true, rt.eval("ref.get() instanceof java.util.Map"));
        assertEquals(true, rt.eval("ref.get() !== null && typeof ref.get().isReleased === 'function'"));
        assertEquals(true, rt.eval("ref.get().isReleased()"));
    }

    /** A JS value whose assignment is refused, the Java store on it, and whether that store must throw. */
    record Refusal(String js, String op, boolean refused) {}

    /**
     * A store from Java into a JS object or array that JS refuses (a frozen
     * or sealed array, a non-writable or setter-less index, a Proxy whose
     * set trap says false, a non-extensible object) throws a JsException
     * (TypeError) naming the assignment, as the same assignment in strict
     * JS does, and leaves the value as it was. It used to be dropped in
     * silence: Collections.sort(frozenJsArray) returned with nothing sorted,
     * list.add(x) returned true and added nothing.
     */
    @TestFactory
    @SuppressWarnings("unchecked")
    List<DynamicTest> storesJsRefusesThrowInsteadOfVanishing() {
        // each over BASE: a JS array for the List stores, an object for JsObject/Map ones
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put("frozen", "Object.freeze(BASE)");
        targets.put("sealed", "Object.seal(BASE)");
        targets.put("non-extensible", "Object.preventExtensions(BASE)");
        targets.put("read-only index", "Object.defineProperty(BASE, 1, { value: 1, writable: false })");
        targets.put("getter-only index", "Object.defineProperty(BASE, 1, { get() { return 1; }, configurable: true })");
        targets.put("Proxy refusing", "new Proxy(BASE, { set() { return false; } })");
        targets.put("plain", "BASE");
        Map<String, Consumer<Object>> ops = new LinkedHashMap<>();
        ops.put("set(1)", v -> ((List<Object>) v).set(1, 9));
        ops.put("add", v -> ((List<Object>) v).add(9));
        ops.put("Collections.sort", v -> Collections.sort((List<Object>) v, (a, b) -> ((Integer) a) - ((Integer) b)));
        ops.put("Collections.swap", v -> Collections.swap((List<Object>) v, 0, 1));
        ops.put("replaceAll", v -> ((List<Object>) v).replaceAll(x -> 9));
        ops.put("JsArray.set(\"1\")", v -> ((JsArray) v).set("1", 9));
        ops.put("JsObject.set(\"1\")", v -> ((JsObject) v).set("1", 9));
        ops.put("Map.put(\"1\")", v -> ((Map<String, Object>) v).put("1", 9));
        ops.put("JsObject.set(\"n\")", v -> ((JsObject) v).set("n", 9));
        List<DynamicTest> out = new ArrayList<>();
        for (Map.Entry<String, String> t : targets.entrySet()) {
            for (Map.Entry<String, Consumer<Object>> op : ops.entrySet()) {
                String name = t.getKey() + ": " + op.getKey();
                // what a strict JS assignment of the same stores does
                boolean adds = op.getKey().equals("add") || op.getKey().contains("\"n\"");
                String base = op.getKey().startsWith("JsObject") || op.getKey().startsWith("Map")
                        ? "({ 0: 3, 1: 1, 2: 2 })" : "[3, 1, 2]";
                boolean refused = switch (t.getKey()) {
                    case "plain" -> false;
                    case "sealed", "non-extensible" -> adds;
                    case "read-only index", "getter-only index" -> !adds;
                    default -> true;
                };
                out.add(DynamicTest.dynamicTest(name, () -> {
                    rt.eval("var target = " + t.getValue().replace("BASE", base) + "; var before = JSON.stringify(target);");
                    Object v = passed("target");
                    if (!refused) {
                        op.getValue().accept(v);
                        return;
                    }
                    JsException e = assertThrows(JsException.class, () -> op.getValue().accept(v), name + ": the store vanished");
                    assertTrue(e.getMessage().contains("TypeError"), name + ": " + e.getMessage());
                    if (!op.getKey().equals("Collections.sort") && !op.getKey().equals("replaceAll")
                            && !op.getKey().equals("Collections.swap"))
                        assertEquals(true, rt.eval("JSON.stringify(target) === before"), name + ": the value changed");
                }));
            }
        }
        return out;
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.WeakHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * for...of over Java collections behaves as Java's own loop over the same collection
 * (docs/interop.md, "Iteration"): generated over collection kinds x changes made during the
 * loop (add, remove of the current or of another element, clear, a set or a put of an existing
 * key, and for the concurrent collections the same from another thread) x where the change is
 * made (first, second, middle, last elements, never) x two sizes (within the first batch of 8,
 * and over three batches) x a body that calls Java on every element or only to make the
 * change. The expected outcome is computed here, by running the same change on a fresh equal
 * collection in a plain Java for-each loop: the elements seen, and how the loop ended (normally,
 * or with the exception Java threw: ConcurrentModificationException from the same element,
 * UnsupportedOperationException...).
 */
class IterationTest {
    private static JsRuntime rt;
    private static JsFunction run;

    /** The JS loop: elements seen (rendered after the loop) and how it ended. */
    private static final String LOOP = "(function (coll, at, change, nop, calls) {\n"
            + "  const seen = []; let i = 0, how = 'end';\n"
            + "  try {\n"
            + "    for (const x of coll) {\n"
            + "      seen.push(x);\n"
            + "      if (calls) nop.run();\n"
            + "      if (i++ === at) change.accept(Array.isArray(x) ? x[0] : x);\n"
            + "    }\n"
            + "  } catch (e) {\n"
            + "    how = e && e.javaException ? String(e.javaException.getClass().getName()) : 'JS ' + e;\n"
            + "  }\n"
            + "  return seen.map((x) => Array.isArray(x) ? x[0] + '=' + x[1]\n"
            + "    : typeof x === 'object' && x !== null ? x.getKey() + '=' + x.getValue() : String(x)).join(',')\n"
            + "    + ' | ' + how;\n"
            + "})";

    @BeforeAll
    static void open() {
        rt = JsRuntime.newBuilder().allowAllAccess(true).build();
        run = (JsFunction) rt.eval(LOOP);
    }

    @AfterAll
    static void close() {
        rt.close();
    }

    /** Java's loop over the same: a Map's entries for a Map (JS gives [key, value] pairs,
     *  read at each step), the elements otherwise (entries rendered after the loop, as JS). */
    static String javaLoop(Object coll, int at, Consumer<Object> change) {
        boolean pairs = coll instanceof Map;
        Iterable<?> it = pairs ? ((Map<?, ?>) coll).entrySet() : (Iterable<?>) coll;
        List<Object> seen = new ArrayList<>();
        String how = "end";
        int i = 0;
        try {
            for (Object x : it) {
                seen.add(pairs ? render(x) : x);
                if (i++ == at) change.accept(x instanceof Map.Entry ? ((Map.Entry<?, ?>) x).getKey() : x);
            }
        } catch (RuntimeException e) {
            how = e.getClass().getName();
        }
        return seen.stream().map(IterationTest::render).collect(Collectors.joining(",")) + " | " + how;
    }

    static String render(Object x) {
        if (x instanceof Map.Entry) return ((Map.Entry<?, ?>) x).getKey() + "=" + ((Map.Entry<?, ?>) x).getValue();
        return String.valueOf(x);
    }

    /** A collection under test: what the loop iterates, and what the changes act on. */
    static final class Made {
        final Object iterated, base;

        Made(Object iterated, Object base) {
            this.iterated = iterated;
            this.base = base;
        }
    }

    /** A kind: a fresh collection of n elements (0..n-1; map values 10x the keys). */
    static final class Kind {
        final String name;
        final IntFunction<Made> make;
        final boolean concurrent;

        Kind(String name, boolean concurrent, IntFunction<Made> make) {
            this.name = name;
            this.concurrent = concurrent;
            this.make = make;
        }
    }

    static <C extends Collection<Integer>> C fill(C c, int n) {
        for (int i = 0; i < n; i++) c.add(i);
        return c;
    }

    static <M extends Map<Integer, Integer>> M fillMap(M m, int n) {
        for (int i = 0; i < n; i++) m.put(i, i * 10);
        return m;
    }

    /** A list class outside the JDK. */
    static final class MyList<E> extends ArrayList<E> {
        private static final long serialVersionUID = 1L;
    }

    static Kind coll(String name, boolean concurrent, IntFunction<Collection<Integer>> f) {
        return new Kind(name, concurrent, n -> {
            Collection<Integer> c = f.apply(n);
            return new Made(c, c);
        });
    }

    static Kind map(String name, boolean concurrent, IntFunction<Map<Integer, Integer>> f,
            java.util.function.Function<Map<Integer, Integer>, Object> view) {
        return new Kind(name, concurrent, n -> {
            Map<Integer, Integer> m = f.apply(n);
            return new Made(view.apply(m), m);
        });
    }

    static List<Kind> kinds() {
        List<Kind> k = new ArrayList<>();
        k.add(coll("ArrayList", false, n -> fill(new ArrayList<>(), n)));
        k.add(coll("LinkedList", false, n -> fill(new LinkedList<>(), n)));
        k.add(coll("Vector", false, n -> fill(new Vector<>(), n)));
        k.add(coll("ArrayDeque", false, n -> fill(new ArrayDeque<>(), n)));
        k.add(coll("PriorityQueue", false, n -> fill(new PriorityQueue<>(Collections.reverseOrder()), n)));
        k.add(coll("HashSet", false, n -> fill(new HashSet<>(), n)));
        k.add(coll("LinkedHashSet", false, n -> fill(new LinkedHashSet<>(), n)));
        k.add(coll("TreeSet", false, n -> fill(new TreeSet<>(), n)));
        k.add(new Kind("TreeSet.descendingSet", false, n -> {
            TreeSet<Integer> s = fill(new TreeSet<>(), n);
            return new Made(s.descendingSet(), s);
        }));
        k.add(new Kind("ArrayList.subList", false, n -> {
            List<Integer> s = fill(new ArrayList<Integer>(), n + 2).subList(1, n + 1);
            return new Made(s, s);
        }));
        k.add(new Kind("Arrays.asList", false, n -> {
            List<Integer> l = Arrays.asList(fill(new ArrayList<Integer>(), n).toArray(new Integer[0]));
            return new Made(l, l);
        }));
        k.add(coll("List.of", false, n -> List.copyOf(fill(new ArrayList<>(), n))));
        k.add(new Kind("unmodifiableList", false, n -> {
            List<Integer> l = fill(new ArrayList<>(), n);
            return new Made(Collections.unmodifiableList(l), l);
        }));
        k.add(new Kind("synchronizedList", false, n -> {
            List<Integer> l = Collections.synchronizedList(fill(new LinkedList<>(), n));
            return new Made(l, l);
        }));
        k.add(new Kind("unmodifiableMap", false, n -> {
            Map<Integer, Integer> m = fillMap(new HashMap<>(), n);
            return new Made(Collections.unmodifiableMap(m), m);
        }));
        k.add(new Kind("unmodifiableMap.entrySet", false, n -> {
            Map<Integer, Integer> m = fillMap(new TreeMap<>(), n);
            return new Made(Collections.unmodifiableMap(m).entrySet(), m);
        }));
        k.add(coll("MyList (not the JDK's)", false, n -> fill(new MyList<>(), n)));
        for (String v : new String[] {"map", "keySet", "values", "entrySet"}) {
            java.util.function.Function<Map<Integer, Integer>, Object> view = m -> v.equals("map") ? m
                    : v.equals("keySet") ? m.keySet() : v.equals("values") ? m.values() : m.entrySet();
            k.add(map("HashMap." + v, false, n -> fillMap(new HashMap<>(), n), view));
            k.add(map("LinkedHashMap." + v, false, n -> fillMap(new LinkedHashMap<>(), n), view));
            k.add(map("TreeMap." + v, false, n -> fillMap(new TreeMap<>(), n), view));
            k.add(map("ConcurrentHashMap." + v, true, n -> fillMap(new ConcurrentHashMap<>(), n), view));
            k.add(map("ConcurrentSkipListMap." + v, true, n -> fillMap(new ConcurrentSkipListMap<>(), n), view));
        }
        k.add(map("TreeMap.descendingMap", false, n -> fillMap(new TreeMap<>(), n), m -> ((TreeMap<Integer, Integer>) m).descendingMap()));
        k.add(new Kind("TreeMap.headMap", false, n -> {
            TreeMap<Integer, Integer> m = fillMap(new TreeMap<>(), n);
            return new Made(m.headMap(n / 2 + 1), m);
        }));
        k.add(map("LinkedHashMap (access order)", false, n -> fillMap(new LinkedHashMap<>(16, 0.75f, true), n), m -> m));
        k.add(map("IdentityHashMap", false, n -> fillMap(new IdentityHashMap<>(), n), m -> m));
        k.add(map("WeakHashMap", false, n -> fillMap(new WeakHashMap<>(), n), m -> m));
        k.add(map("WeakHashMap.keySet", false, n -> fillMap(new WeakHashMap<>(), n), Map::keySet));
        k.add(coll("CopyOnWriteArrayList", true, n -> fill(new CopyOnWriteArrayList<>(), n)));
        k.add(coll("CopyOnWriteArraySet", true, n -> fill(new CopyOnWriteArraySet<>(), n)));
        k.add(coll("ConcurrentSkipListSet", true, n -> fill(new ConcurrentSkipListSet<>(), n)));
        k.add(coll("ConcurrentLinkedQueue", true, n -> fill(new ConcurrentLinkedQueue<>(), n)));
        k.add(coll("LinkedBlockingQueue", true, n -> fill(new LinkedBlockingQueue<>(), n)));
        k.add(coll("ArrayBlockingQueue", true, n -> fill(new ArrayBlockingQueue<>(200), n)));
        k.add(coll("PriorityBlockingQueue", true, n -> fill(new PriorityBlockingQueue<>(), n)));
        return k;
    }

    /** A change made during the loop: on the base, given the current element (a key for maps). */
    @SuppressWarnings("unchecked")
    static Map<String, BiConsumer<Object, Object>> changes(boolean concurrent) {
        Map<String, BiConsumer<Object, Object>> c = new LinkedHashMap<>();
        c.put("add", (b, cur) -> {
            if (b instanceof Map) ((Map<Integer, Integer>) b).put(100, 1000);
            else ((Collection<Integer>) b).add(100);
        });
        c.put("remove current", (b, cur) -> {
            if (b instanceof Map) ((Map<?, ?>) b).remove(cur);
            else ((Collection<?>) b).remove(cur);
        });
        c.put("remove another", (b, cur) -> {
            if (b instanceof Map) ((Map<?, ?>) b).remove(3);
            else if (b instanceof List) { List<?> l = (List<?>) b; if (!l.isEmpty()) l.remove(l.size() - 1); }
            else ((Collection<?>) b).remove(3);
        });
        c.put("clear", (b, cur) -> {
            if (b instanceof Map) ((Map<?, ?>) b).clear();
            else ((Collection<?>) b).clear();
        });
        c.put("set / put an existing key", (b, cur) -> {
            if (b instanceof Map) { Map<Integer, Integer> m = (Map<Integer, Integer>) b; if (m.containsKey(3)) m.put(3, 99); }
            else if (b instanceof List) { List<Integer> l = (List<Integer>) b; if (l.size() > 3) l.set(3, 99); }
        });
        if (concurrent) {
            for (String name : List.copyOf(c.keySet())) {
                BiConsumer<Object, Object> same = c.get(name);
                c.put(name + " (another thread)", (b, cur) -> {
                    Thread t = new Thread(() -> same.accept(b, cur));
                    t.start();
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        }
        return c;
    }

    @TestFactory
    Stream<DynamicTest> forOfDoesWhatJavasLoopDoes() {
        Runnable nop = () -> {};
        return kinds().stream().flatMap(kind -> changes(kind.concurrent).entrySet().stream().map(ch ->
                DynamicTest.dynamicTest(kind.name + ", " + ch.getKey(), () -> {
                    List<String> wrong = new ArrayList<>();
                    int cases = 0;
                    for (int n : new int[] {5, 40}) {
                        for (int at : new int[] {0, 1, n / 2, 8, 9, n - 2, n - 1, -1}) {
                            for (boolean calls : new boolean[] {false, true}) {
                                Made java = kind.make.apply(n);
                                String expected = javaLoop(java.iterated, at, cur -> ch.getValue().accept(java.base, cur));
                                Made js = kind.make.apply(n);
                                Consumer<Object> change = cur -> ch.getValue().accept(js.base,
                                        cur instanceof Map.Entry ? ((Map.Entry<?, ?>) cur).getKey() : cur);
                                Object got = run.call(js.iterated, at, change, nop, calls);
                                cases++;
                                if (!expected.equals(got))
                                    wrong.add("n=" + n + " at=" + at + (calls ? " (a Java call each element)" : "")
                                            + "\n    Java: " + expected + "\n    JS:   " + got);
                            }
                        }
                    }
                    assertTrue(wrong.isEmpty(), wrong.size() + " of " + cases + " differ:\n  " + String.join("\n  ", wrong));
                })));
    }

    /** The case: `for (const x of list) list.add(x)` throws Java's exception after the first. */
    @Test
    void addingToTheListBeingLoopedOverThrowsConcurrentModificationException() {
        List<Object> list = new ArrayList<>(List.of("a", "b", "c"));
        rt.setGlobal("list", list);
        Object r = rt.eval("var seen = []; try { for (const x of list) { seen.push(x); list.add(x); } 'no exception' }"
                + " catch (e) { String(e.javaException.getClass().getName()) + ' after ' + seen }");
        assertEquals("java.util.ConcurrentModificationException after a", r);
        assertEquals(List.of("a", "b", "c", "a"), list);
    }

    /**
     * A loop paused in a generator while Java changes the collection (the runtime left between
     * the two steps): the next step is what Java's iterator gives after the change, as in a loop
     * the body of which made the change.
     */
    @Test
    void aLoopPausedInAGeneratorSeesAChangeJavaMadeMeanwhile() {
        rt.eval("function* each(c) { for (const x of c) yield x; }");
        List<Integer> list = fill(new ArrayList<>(), 20);
        rt.setGlobal("list", list);
        assertEquals(0, ((Number) rt.eval("var g = each(list); g.next().value")).intValue());
        assertEquals(1, ((Number) rt.eval("g.next().value")).intValue());
        list.add(99);
        Object r = rt.eval("try { g.next(); 'no exception' } catch (e) { String(e.javaException.getClass().getName()) }");
        assertEquals("java.util.ConcurrentModificationException", r);

        Map<Integer, Integer> map = fillMap(new TreeMap<>(), 20);
        rt.setGlobal("map", map);
        assertEquals("0,0", rt.eval("var h = each(map); String(h.next().value)"));
        map.put(3, 333);                       // no structural change: the next pairs show it
        assertEquals("1,10 2,20 3,333", rt.eval("[h.next().value, h.next().value, h.next().value].join(' ')"));
        map.remove(10);
        r = rt.eval("try { h.next(); 'no exception' } catch (e) { String(e.javaException.getClass().getName()) }");
        assertEquals("java.util.ConcurrentModificationException", r);
    }

    /**
     * Loops of two threads in one runtime, whose bodies call Java (the other thread enters while
     * one waits in Java): each sees its own collection whole, in order.
     */
    @Test
    void loopsOfTwoThreadsInOneRuntime() throws Exception {
        JsFunction walk = (JsFunction) rt.eval("(function (c, pause) { const seen = [];"
                + " for (const x of c) { seen.push(x); if (seen.length % 7 === 0) pause.run(); }"
                + " return seen.join(','); })");
        Runnable pause = () -> {
            try {
                Thread.sleep(0, 200_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        List<Object> sources = List.of(fill(new ArrayList<>(), 300), fillMap(new HashMap<>(), 300).keySet(),
                fill(new TreeSet<>(), 300), fill(new ArrayDeque<>(), 300));
        List<String> expected = new ArrayList<>();
        for (Object c : sources) expected.add(javaLoop(c, -1, x -> {}).replace(" | end", ""));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<String>> done = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                final int first = t;
                done.add(pool.submit(() -> {
                    for (int round = 0; round < 20; round++) {
                        int k = (round + first) % sources.size();
                        Object got = walk.call(sources.get(k), pause);
                        if (!expected.get(k).equals(got)) return "round " + round + " of " + k + ": " + got;
                    }
                    return "ok";
                }));
            }
            for (java.util.concurrent.Future<String> f : done) assertEquals("ok", f.get(120, java.util.concurrent.TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Loops that break, throw or are left half-read free their state; many at once still work. */
    @Test
    void manyLoopsAtOnceAndLoopsLeftHalfRead() {
        List<Integer> list = fill(new ArrayList<>(), 100);
        rt.setGlobal("list", list);
        Object r = rt.eval("(() => { let s = 0; const its = [];\n"
                + "  for (let k = 0; k < 200; k++) { const it = list[Symbol.iterator](); it.next(); its.push(it); }\n"
                + "  for (let k = 0; k < 1000; k++) { for (const x of list) { if (x === 3) break; } }\n"
                + "  for (let k = 0; k < 1000; k++) { try { for (const x of list) { if (x === 5) throw 1; } } catch (e) {} }\n"
                + "  for (const it of its) { let v; while (!(v = it.next()).done) s += v.value; }\n"
                + "  return s; })()");
        assertEquals(200 * (4950 - 0), ((Number) r).intValue());
        list.add(1);   // a change after all that: a new loop sees it
        assertEquals(4951, ((Number) rt.eval("let t = 0; for (const x of list) t += x; t")).intValue());
    }
}

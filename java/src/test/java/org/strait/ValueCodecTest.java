package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.*;
import org.junit.jupiter.api.Test;

/** JsValue.toJava() and JsRuntime.toJs(): whole values in one crossing, both ways, and zero-copy bytes. */
class ValueCodecTest extends RuntimeTestBase {
    Object js(String src) {
        Object v = rt.eval(src);
        return v instanceof JsValue ? ((JsValue) v).toJava() : v;
    }

    boolean check(String name, Object value, String predicate) {
        rt.setGlobal(name, value);
        return Boolean.TRUE.equals(rt.eval(predicate));
    }

    @Test
    void everyTypeCrossesToJava() {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) js("({i: 1, l: 2**40, d: 0.5, nz: -0, big: -(2n**70n), s: 'x\\u20ac',"
                + " u: undefined, n: null, t: true, arr: [1, 'a'], nums: [1.5, 2], ints: [1, 2], when: new Date(86400000),"
                + " map: new Map([[1, 'one']]), set: new Set(['a']), ab: new Uint8Array([1, 255]).buffer,"
                + " i16: new Int16Array([-1]), f64: new Float64Array([0.25]), u16: new Uint16Array([65])})");
        assertEquals(LinkedHashMap.class, m.getClass());
        assertEquals(List.of("i", "l", "d", "nz", "big", "s", "u", "n", "t", "arr", "nums", "ints", "when", "map", "set",
                "ab", "i16", "f64", "u16"), new ArrayList<>(m.keySet()));
        assertEquals(1, m.get("i"));
        assertEquals(1L << 40, m.get("l"));
        assertEquals(0.5, m.get("d"));
        assertEquals(-0.0, m.get("nz"));
        assertEquals(new BigInteger("2").pow(70).negate(), m.get("big"));
        assertEquals("x\u20ac", m.get("s"));
        assertNull(m.get("u"));
        assertTrue(m.containsKey("n"));
        assertEquals(true, m.get("t"));
        assertEquals(ArrayList.class, m.get("arr").getClass());
        assertEquals(List.of(1, "a"), m.get("arr"));
        assertEquals(List.of(1.5, 2), m.get("nums"));
        assertEquals(List.of(1, 2), m.get("ints"));
        assertEquals(Instant.ofEpochMilli(86400000), m.get("when"));
        assertEquals(Map.of(1, "one"), m.get("map"));
        assertEquals(LinkedHashSet.class, m.get("set").getClass());
        assertArrayEquals(new byte[] {1, -1}, (byte[]) m.get("ab"));
        assertArrayEquals(new short[] {-1}, (short[]) m.get("i16"));
        assertArrayEquals(new double[] {0.25}, (double[]) m.get("f64"));
        assertArrayEquals(new char[] {'A'}, (char[]) m.get("u16"));
    }

    @Test
    void sharingAndCyclesCrossToJava() {
        List<?> l = (List<?>) js("(() => { const o = {v: 1}; o.self = o; return [o, o, [o]]; })()");
        assertSame(l.get(0), l.get(1));
        assertSame(l.get(0), ((List<?>) l.get(2)).get(0));
        assertSame(l.get(0), ((Map<?, ?>) l.get(0)).get("self"));
    }

    @Test
    void functionsAndSymbolsNameTheirPath() {
        JsValue v = (JsValue) rt.eval("({a: {b: [0, 1, 2, () => 1]}})");
        ValueConversionException e = assertThrows(ValueConversionException.class, v::toJava);
        assertEquals("$.a.b[3]", e.path());
        assertTrue(e.getMessage().contains("cannot convert a function at $.a.b[3]"), e.getMessage());
        Map<?, ?> m = (Map<?, ?>) ((JsValue) rt.eval("({f: () => 41, s: Symbol('q')})")).toJava(true);
        assertTrue(m.get("f") instanceof JsFunction, String.valueOf(m.get("f")));
        assertEquals("symbol", ((JsValue) m.get("s")).typeOf());
    }

    @Test
    void aThrowingGetterIsAJsException() {
        JsValue v = (JsValue) rt.eval("({get x() { throw new RangeError('nope'); }})");
        JsException e = assertThrows(JsException.class, v::toJava);
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void bigValuesSpillAndComeBackWhole() {
        Object s = js("'x'.repeat(3_000_000)");
        assertEquals(3_000_000, ((String) s).length());
        List<?> l = (List<?>) js("Array.from({length: 100000}, (_, i) => ({i, s: 'v' + i}))");
        assertEquals(100000, l.size());
        assertEquals("v99999", ((Map<?, ?>) l.get(99999)).get("s"));
        Object again = js("[1, 2, 3]");
        assertEquals(List.of(1, 2, 3), again);
    }

    @Test
    void longStringsCrossToJavaWhole() {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) js("var l = '\\u00e9ab'.repeat(3000); ({latin: l, wide: '\\u20ac\\ud83d\\ude00'.repeat(2000),"
                + " lone: 'a\\ud800'.repeat(2000), again: l, list: [l, 'short'], ['k'.repeat(3000)]: 1,"
                + " map: new Map([[l, l]])})");
        assertEquals("\u00e9ab".repeat(3000), m.get("latin"));
        assertEquals("\u20ac\ud83d\ude00".repeat(2000), m.get("wide"));
        assertEquals("a\ud800".repeat(2000), m.get("lone"));
        assertEquals(m.get("latin"), m.get("again"));
        assertEquals(List.of("\u00e9ab".repeat(3000), "short"), m.get("list"));
        assertEquals(1, m.get("k".repeat(3000)));
        assertEquals(Map.of("\u00e9ab".repeat(3000), "\u00e9ab".repeat(3000)), m.get("map"));
    }

    @Test
    void longStringsAndBigValuesCrossToJsWhole() {
        String latin = "\u00e9abc".repeat(5000), wide = "\u20ac\ud83d\ude00x".repeat(3000), lone = "a\ud800".repeat(4000);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("latin", latin);
        m.put("wide", wide);
        m.put("lone", lone);
        m.put("k".repeat(5000), 1);
        m.put("again", latin);
        m.put("list", Collections.nCopies(3, wide));
        Object v = rt.toJs(m);
        assertTrue(check("v", v, "v.latin.length === 20000 && v.latin.charCodeAt(0) === 0xe9 && v.latin.endsWith('abc')"
                + " && v.wide.length === 12000 && v.wide.codePointAt(1) === 0x1f600 && v.lone.charCodeAt(1) === 0xd800"
                + " && v['k'.repeat(5000)] === 1 && v.again === v.latin && v.list[2] === v.wide"));
        assertEquals(m, ((JsValue) v).toJava());
        List<Object> big = new ArrayList<>();
        for (int i = 0; i < 60000; i++) big.add(Map.of("i", i, "s", "v" + i));
        Object b = rt.toJs(big);
        assertTrue(check("b", b, "b.length === 60000 && b[59999].s === 'v59999' && b[123].i === 123"));
        Object small = rt.toJs(List.of(1, 2, 3));
        assertTrue(check("small", small, "small.length === 3 && small[2] === 3"));
        Object b2 = rt.toJs(big);
        assertTrue(check("b2", b2, "b2.length === 60000 && b2[1].s === 'v1'"));
    }

    @Test
    void javaObjectsComeBackAsThemselves() {
        StringBuilder sb = new StringBuilder("me");
        rt.setGlobal("sb", sb);
        Map<?, ?> m = (Map<?, ?>) js("({who: sb, list: [sb]})");
        assertSame(sb, m.get("who"));
        assertSame(sb, ((List<?>) m.get("list")).get(0));
        Object v = rt.toJs(Map.of("obj", sb));
        assertTrue(check("v", v, "v.obj === sb && v.obj.toString() === 'me'"));
    }

    @Test
    void everyTypeCrossesToJs() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("i", 7);
        m.put("l", 1L << 40);
        m.put("huge", Long.MAX_VALUE);
        m.put("d", 2.5);
        m.put("s", "h\u00e9\u20ac");
        m.put("n", null);
        m.put("b", false);
        m.put("list", List.of(1, "two", List.of()));
        m.put("nums", new ArrayList<>(List.of(1.5, 2)));
        m.put("big", new BigInteger("123456789012345678901234567890"));
        m.put("when", Instant.ofEpochMilli(1000));
        Map<Object, Object> jm = new LinkedHashMap<>();
        jm.put(1, "one");
        m.put("map", jm);
        m.put("set", new LinkedHashSet<>(List.of("x")));
        m.put("bytes", new byte[] {1, -1});
        m.put("ints", new int[] {5});
        m.put("doubles", new double[] {0.5});
        Object v = rt.toJs(m);
        assertTrue(v instanceof JsValue);
        assertTrue(check("v", v, "v.i === 7 && v.l === 2**40 && v.huge === 9223372036854775807n && v.d === 2.5"
                + " && v.s === 'h\\u00e9\\u20ac' && v.n === null && v.b === false"));
        assertTrue(check("v", v, "Array.isArray(v.list) && v.list[1] === 'two' && v.list[2].length === 0"
                + " && v.nums[0] === 1.5 && v.big === 123456789012345678901234567890n"));
        assertTrue(check("v", v, "v.when instanceof Date && v.when.getTime() === 1000 && v.map instanceof Map"
                + " && v.map.get(1) === 'one' && v.set instanceof Set && v.set.has('x')"));
        assertTrue(check("v", v, "v.bytes instanceof Uint8Array && v.bytes[1] === 255 && v.ints instanceof Int32Array"
                + " && v.doubles instanceof Float64Array && v.doubles[0] === 0.5"));
        assertTrue(check("v", v, "Object.keys(v).join() === 'i,l,huge,d,s,n,b,list,nums,big,when,map,set,bytes,ints,doubles'"));
        assertEquals("abc", rt.toJs("abc"));
        assertNull(rt.toJs(null));
    }

    @Test
    void sharingAndCyclesCrossToJs() {
        Map<String, Object> shared = new HashMap<>();
        List<Object> root = new ArrayList<>();
        root.add(shared);
        root.add(shared);
        root.add(root);
        shared.put("back", root);
        Object v = rt.toJs(root);
        assertTrue(check("v", v, "v[0] === v[1] && v[2] === v && v[0].back === v"));
    }

    @Test
    void roundTripsThroughJsKeepTheValue() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", List.of(1, 2.5, "x", true));
        m.put("b", Map.of("c", new LinkedHashMap<>()));
        Object back = ((JsValue) rt.toJs(m)).toJava();
        assertEquals(m, back);
    }

    @Test
    void directByteBuffersAreSharedNotCopied() {
        ByteBuffer bb = ByteBuffer.allocateDirect(64 << 20);
        long t0 = System.nanoTime();
        Object ab = rt.toJs(bb);
        long t1 = System.nanoTime();
        assertTrue(t1 - t0 < 50_000_000L, "64 MB shared in " + (t1 - t0) / 1e6 + " ms");
        bb.put(5, (byte) 9);
        assertTrue(check("ab", ab, "ab instanceof ArrayBuffer && ab.byteLength === 64 * 1024 * 1024"
                + " && new Uint8Array(ab)[5] === 9"));
        rt.eval("new Uint8Array(ab)[6] = 77");
        assertEquals(77, bb.get(6));

        JsValue jsbuf = (JsValue) rt.eval("globalThis.u = new Uint8Array(1024); u[3] = 4; u.subarray(2)");
        ByteBuffer view = jsbuf.asByteBuffer();
        assertEquals(1022, view.capacity());
        assertEquals(4, view.get(1));
        view.put(0, (byte) 33);
        assertEquals(33, rt.eval("u[2]"));
        assertThrows(IllegalArgumentException.class, () -> ((JsValue) rt.eval("({})")).asByteBuffer());
    }

    /** Called from JS inside a getter, while an outer conversion is running. */
    public static class Nested {
        public JsValue inner;

        public Object convert() {
            return ((Map<?, ?>) inner.toJava()).get("deep");
        }
    }

    @Test
    void nestedConversionsOnOneThreadAreSafe() {
        Nested n = new Nested();
        n.inner = (JsValue) rt.eval("({deep: 'x'.repeat(1000)})");
        rt.setGlobal("nested", n);
        Map<?, ?> m = (Map<?, ?>) js("({before: 'b'.repeat(500), get mid() { return nested.convert(); }, after: [1, 2, 3]})");
        assertEquals("b".repeat(500), m.get("before"));
        assertEquals("x".repeat(1000), m.get("mid"));
        assertEquals(List.of(1, 2, 3), m.get("after"));
    }

    @Test
    void threadsEachUseTheirOwnBuffer() throws Exception {
        JsValue v = (JsValue) rt.eval("({list: Array.from({length: 500}, (_, i) => 'item' + i)})");
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        Map<?, ?> m = (Map<?, ?>) v.toJava();
                        assertEquals("item499", ((List<?>) m.get("list")).get(499));
                        Object back = rt.toJs(m);
                        ((JsValue) back).close();
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) th.join();
        assertEquals(List.of(), errors);
    }
}

package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;
import java.time.Instant;
import java.util.*;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The value codec's JS side (src/core/js/codec.js) calls only built-ins
 * captured when the runtime started: a script that replaces, before the
 * first conversion, every built-in the codec could call (with functions
 * that throw and record the call) changes nothing in what JsValue.toJava()
 * and JsRuntime.toJs() give, and no replacement is ever called.
 */
class CodecIntrinsicsTest extends RuntimeTestBase {
    /** Replaces the built-ins; keeps the originals the test itself needs in a closure. */
    static final String REPLACE = String.join("\n",
            "(() => {",
            "  const calls = [], E = Error, O = Object, M = Map, S = Set, D = Date, AB = ArrayBuffer,",
            "    DV = DataView, U8 = Uint8Array, I16 = Int16Array, F64 = Float64Array, U16 = Uint16Array,",
            "    TA = O.getPrototypeOf(Uint8Array.prototype), getProto = O.getPrototypeOf, keys = O.keys, dp = O.defineProperty, AP = Array.prototype,",
            "    apply = Reflect.apply, join = Array.prototype.join, mset = M.prototype.set, sadd = S.prototype.add;",
            "  const mapOf = (C, ...kv) => { const m = new C(); for (let i = 0; i < kv.length; i += 2) apply(mset, m, [kv[i], kv[i + 1]]); return m; };",
            "  const setOf = (...vs) => { const s = new S(); for (const v of vs) apply(sadd, s, [v]); return s; };",
            "  function trap(name) { return function () { calls[calls.length] = name; throw new E('replaced ' + name + ' was called'); }; }",
            "  function method(holder, hname, name) {",
            "    dp(holder, name, {value: trap(hname + '.' + String(name)), writable: true, configurable: true});",
            "  }",
            "  function getter(holder, hname, name) {",
            "    dp(holder, name, {get: trap(hname + '.' + String(name)), configurable: true});",
            "  }",
            "  // what make() and check() below use, before the replacements",
            "  globalThis.make = () => {",
            "    const buf = new AB(3), u8 = new U8(buf); u8[0] = 1; u8[1] = 255; u8[2] = 7;",
            "    class K { constructor() { this.z = 1; this.y = 'k'; } }",
            "    class SubMap extends M {}",
            "    const shared = {v: 1};",
            "    return {i: 1, l: 2 ** 40, d: 0.5, nz: -0, neg: -3, neg53: -(2 ** 52) - 1, big: -(2n ** 70n), pos: 255n,",
            "      s: 'hello', w: 'x\\u20ac', long: 'ab'.repeat(2000), longw: '\\u20ac'.repeat(3000), arr: [1, 'a', null, true],",
            "      nums: [1.5, 2], ints: [1, 2, 3], mixed: [1, 2.5, 'x', [4]], when: new D(86400000),",
            "      map: mapOf(M, 1, 'one', 'k', [2]), set: setOf('a', 3), ab: buf, i16: new I16([-1, 2]),",
            "      f64: new F64([0.25]), u16: new U16([65]), dv: new DV(buf, 1, 2), sub: mapOf(SubMap, 2, 3),",
            "      rows: [{a: 1, b: 'x'}, {a: 2, b: 'y'}, {a: 3, b: 'z'}], cls: new K(), shared: [shared, shared],",
            "      'odd key \"q\"': 1, __proto__x: 2};",
            "  };",
            "  globalThis.callsText = () => apply(join, calls, [', ']);",
            "  globalThis.protoOf = (v) => getProto(v) === M.prototype ? 'Map' : getProto(v) === S.prototype ? 'Set'",
            "    : getProto(v) === AP ? 'Array' : getProto(v) === O.prototype ? 'Object' : getProto(v) === D.prototype ? 'Date'",
            "    : getProto(v) === AB.prototype ? 'ArrayBuffer' : 'other';",
            "  globalThis.keysOf = (v) => apply(join, keys(v), [',']);",
            "  for (const n of ['get', 'set', 'has', 'forEach', 'clear', 'delete', 'entries', 'keys', 'values']) method(M.prototype, 'Map', n);",
            "  method(M.prototype, 'Map', Symbol.iterator); getter(M.prototype, 'Map', 'size');",
            "  for (const n of ['add', 'has', 'forEach', 'clear', 'values']) method(S.prototype, 'Set', n);",
            "  method(S.prototype, 'Set', Symbol.iterator); getter(S.prototype, 'Set', 'size');",
            "  for (const n of ['get', 'set', 'has']) method(WeakMap.prototype, 'WeakMap', n);",
            "  for (const n of ['push', 'slice', 'join', 'map', 'forEach', 'indexOf']) method(Array.prototype, 'Array', n);",
            "  for (const n of ['getInt8', 'getUint8', 'getInt16', 'getUint16', 'getInt32', 'getUint32', 'getFloat32', 'getFloat64',",
            "    'getBigInt64', 'setInt8', 'setUint8', 'setInt16', 'setUint16', 'setInt32', 'setUint32', 'setFloat32', 'setFloat64',",
            "    'setBigInt64']) method(DV.prototype, 'DataView', n);",
            "  for (const n of ['buffer', 'byteOffset', 'byteLength']) getter(DV.prototype, 'DataView', n);",
            "  for (const n of ['set', 'slice', 'subarray']) method(TA, 'TypedArray', n);",
            "  for (const n of ['buffer', 'byteOffset', 'byteLength', 'length', Symbol.toStringTag]) getter(TA, 'TypedArray', n);",
            "  method(AB.prototype, 'ArrayBuffer', 'slice'); getter(AB.prototype, 'ArrayBuffer', 'byteLength');",
            "  getter(AB.prototype, 'ArrayBuffer', 'constructor');",
            "  for (const n of ['substring', 'charCodeAt', 'slice', 'substr', 'replace', 'codePointAt', 'toString', 'valueOf'])",
            "    method(String.prototype, 'String', n);",
            "  for (const n of ['test', 'exec', Symbol.replace]) method(RegExp.prototype, 'RegExp', n);",
            "  for (const n of ['toString', 'valueOf']) { method(Number.prototype, 'Number', n); method(BigInt.prototype, 'BigInt', n); }",
            "  for (const n of ['getTime', 'valueOf', Symbol.toPrimitive]) method(D.prototype, 'Date', n);",
            "  for (const C of [AB, D, M, S, DV, U8]) method(C, C.name, Symbol.hasInstance);",
            "  method(Math, 'Math', 'floor'); method(globalThis, 'global', 'parseInt');",
            "  for (const n of ['keys', 'getPrototypeOf', 'setPrototypeOf', 'defineProperty', 'create', 'freeze', 'getOwnPropertyDescriptor'])",
            "    method(O, 'Object', n);",
            "  method(AB, 'ArrayBuffer', 'isView'); method(Array, 'Array', 'isArray'); method(String, 'String', 'fromCharCode');",
            "  method(Function.prototype, 'Function', 'call'); method(Function.prototype, 'Function', 'apply');",
            "  for (const n of ['Map', 'Set', 'WeakMap', 'Date', 'ArrayBuffer', 'DataView', 'Uint8Array', 'Int16Array', 'Float64Array',",
            "    'Uint16Array', 'BigInt', 'Array', 'Object', 'TypeError', 'RangeError', 'Error']) method(globalThis, 'global', n);",
            "})();");

    @BeforeEach
    void replaceBuiltins() {
        rt.eval(REPLACE);
    }

    void noCalls() {
        assertEquals("", rt.eval("callsText()"), "replaced built-ins were called");
    }

    @Test
    @SuppressWarnings("unchecked")
    void valuesCrossToJavaAsBefore() {
        JsValue v = (JsValue) rt.eval("make()");
        Map<String, Object> m = (Map<String, Object>) v.toJava();
        noCalls();
        assertEquals(1, m.get("i"));
        assertEquals(1L << 40, m.get("l"));
        assertEquals(0.5, m.get("d"));
        assertEquals(-0.0, m.get("nz"));
        assertEquals(-3, m.get("neg"));
        assertEquals(-(1L << 52) - 1, m.get("neg53"));
        assertEquals(BigInteger.TWO.pow(70).negate(), m.get("big"));
        assertEquals(BigInteger.valueOf(255), m.get("pos"));
        assertEquals("hello", m.get("s"));
        assertEquals("x\u20ac", m.get("w"));
        assertEquals("ab".repeat(2000), m.get("long"));
        assertEquals("\u20ac".repeat(3000), m.get("longw"));
        assertEquals(Arrays.asList(1, "a", null, true), m.get("arr"));
        assertEquals(List.of(1.5, 2), m.get("nums"));
        assertEquals(List.of(1, 2, 3), m.get("ints"));
        assertEquals(List.of(1, 2.5, "x", List.of(4)), m.get("mixed"));
        assertEquals(Instant.ofEpochMilli(86400000), m.get("when"));
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(1, "one");
        map.put("k", List.of(2));
        assertEquals(map, m.get("map"));
        assertEquals(new LinkedHashSet<>(List.of("a", 3)), m.get("set"));
        assertArrayEquals(new byte[] {1, -1, 7}, (byte[]) m.get("ab"));
        assertArrayEquals(new short[] {-1, 2}, (short[]) m.get("i16"));
        assertArrayEquals(new double[] {0.25}, (double[]) m.get("f64"));
        assertArrayEquals(new char[] {'A'}, (char[]) m.get("u16"));
        assertEquals(Map.of(2, 3), m.get("sub"));
        assertEquals(List.of(Map.of("a", 1, "b", "x"), Map.of("a", 2, "b", "y"), Map.of("a", 3, "b", "z")), m.get("rows"));
        assertEquals(Map.of("z", 1, "y", "k"), m.get("cls"));
        List<?> shared = (List<?>) m.get("shared");
        assertSame(shared.get(0), shared.get(1));
        assertEquals(1, m.get("odd key \"q\""));
        // a second conversion (the key table and shapes are kept between conversions)
        assertEquals(m.keySet(), ((Map<String, Object>) v.toJava()).keySet());
        noCalls();
    }

    @Test
    void valuesCrossToJsAsBefore() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("i", 1);
        m.put("l", 1L << 40);
        m.put("d", -2.5);
        m.put("big", BigInteger.TWO.pow(80));
        m.put("s", "hello");
        m.put("w", "\u20ac\u00e9");
        m.put("long", "xy".repeat(3000));
        m.put("list", new ArrayList<>(Arrays.asList(1, "a", null, false)));
        m.put("ints", new int[] {1, 2, 3});
        m.put("doubles", new double[] {0.5, 1.5});
        m.put("bytes", new byte[] {1, -1});
        Map<Object, Object> keyed = new LinkedHashMap<>();
        keyed.put(1, "one");
        keyed.put(2, List.of("two"));
        m.put("keyed", keyed);
        m.put("set", new LinkedHashSet<>(List.of("p", "q")));
        m.put("when", Instant.ofEpochMilli(1000));
        m.put("rows", List.of(Map.of("a", 1), Map.of("a", 2)));
        m.put("__proto__", "own");
        rt.setGlobal("v", rt.toJs(m));
        noCalls();
        assertEquals("Object", rt.eval("protoOf(v)"));
        assertEquals("i,l,d,big,s,w,long,list,ints,doubles,bytes,keyed,set,when,rows,__proto__", rt.eval("keysOf(v)"));
        assertEquals("Map", rt.eval("protoOf(v.keyed)"));
        assertEquals("Set", rt.eval("protoOf(v.set)"));
        assertEquals("Array", rt.eval("protoOf(v.list)"));
        assertEquals("Date", rt.eval("protoOf(v.when)"));
        assertEquals("Object", rt.eval("protoOf(v.rows[1])"));
        assertEquals(2, rt.eval("v.rows[1].a"));
        assertEquals("own", rt.eval("v.__proto__"));
        assertEquals(true, rt.eval("v.big === 2n ** 80n && v.l === 2 ** 40 && v.d === -2.5"));
        // back to Java: the same value
        Map<?, ?> back = (Map<?, ?>) ((JsValue) rt.eval("v")).toJava();
        noCalls();
        assertEquals(m.keySet(), back.keySet());
        assertEquals("\u20ac\u00e9", back.get("w"));
        assertEquals("xy".repeat(3000), back.get("long"));
        assertEquals(Arrays.asList(1, "a", null, false), back.get("list"));
        assertArrayEquals(new int[] {1, 2, 3}, (int[]) back.get("ints"));
        assertArrayEquals(new double[] {0.5, 1.5}, (double[]) back.get("doubles"));
        assertArrayEquals(new byte[] {1, -1}, (byte[]) back.get("bytes"));
        assertEquals(keyed, back.get("keyed"));
        assertEquals(m.get("set"), back.get("set"));
        assertEquals(Instant.ofEpochMilli(1000), back.get("when"));
        assertEquals(BigInteger.TWO.pow(80), back.get("big"));
        assertEquals(m.get("rows"), back.get("rows"));
        assertEquals("own", back.get("__proto__"));
    }

    @Test
    void errorsStillNameThePath() {
        JsValue v = (JsValue) rt.eval("({a: [1, {'b c': () => 1}]})");
        ValueConversionException e = assertThrows(ValueConversionException.class, v::toJava);
        assertTrue(e.getMessage().contains("$.a[1][\"b c\"]"), e.getMessage());
        noCalls();
    }
}

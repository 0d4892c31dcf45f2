'use strict';
// The value codec's JS side (src/core/js/codec.js, evaluated on the first
// conversion) calls only built-ins captured when the runtime started: what
// this script replaces before its first conversion (every built-in the codec
// could call, by functions that record their calls while a conversion runs
// and otherwise do what the original did, so the runner keeps working) is
// never called, and the values are right. Conversions from the launcher:
// JSON.stringify of Java collections (Java -> JS), JsValue.toJava() from Java
// code (JS -> Java, through a small class compiled here), Java.from and
// values passed to Java collections.
const calls = [];
let armed = false;
const apply = Reflect.apply, dp = Object.defineProperty, gopd = Object.getOwnPropertyDescriptor;
function record(holder, hname, name) {
  const d = gopd(holder, name);
  const label = hname + '.' + String(name);
  const wrap = (f) => function () {
    if (armed) calls[calls.length] = label;
    return apply(f, this, arguments);
  };
  if (d.get) dp(holder, name, { get: wrap(d.get), set: d.set, configurable: true });
  else dp(holder, name, { value: wrap(d.value), writable: true, configurable: true });
}
const TA = Object.getPrototypeOf(Uint8Array.prototype);
for (const n of ['get', 'set', 'has', 'forEach', 'clear', 'size']) record(Map.prototype, 'Map', n);
for (const n of ['add', 'has', 'forEach', 'size']) record(Set.prototype, 'Set', n);
for (const n of ['get', 'set', 'has']) record(WeakMap.prototype, 'WeakMap', n);
for (const n of ['push', 'slice', 'join']) record(Array.prototype, 'Array', n);
for (const n of ['getInt32', 'getUint32', 'getUint16', 'getFloat64', 'getBigInt64', 'setInt32', 'setUint32',
  'setUint16', 'setFloat64', 'buffer', 'byteOffset', 'byteLength']) record(DataView.prototype, 'DataView', n);
for (const n of ['set', 'buffer', 'byteOffset', 'byteLength', Symbol.toStringTag]) record(TA, 'TypedArray', n);
for (const n of ['slice', 'byteLength']) record(ArrayBuffer.prototype, 'ArrayBuffer', n);
for (const n of ['substring', 'charCodeAt', 'slice', 'replace']) record(String.prototype, 'String', n);
for (const n of ['test', 'exec']) record(RegExp.prototype, 'RegExp', n);
record(BigInt.prototype, 'BigInt', 'toString');
record(Number.prototype, 'Number', 'toString');
for (const n of ['getTime', 'valueOf']) record(Date.prototype, 'Date', n);
record(Math, 'Math', 'floor');
record(globalThis, 'global', 'parseInt');
for (const n of ['keys', 'getPrototypeOf', 'setPrototypeOf', 'defineProperty', 'freeze', 'create']) record(Object, 'Object', n);
record(ArrayBuffer, 'ArrayBuffer', 'isView');
record(Array, 'Array', 'isArray');
record(String, 'String', 'fromCharCode');

const { describe, it, expect } = require('./runner');

/* fn() with the recorders armed: [its result, the replaced built-ins it called] */
function watched(fn) {
  calls.length = 0;
  armed = true;
  let r;
  try { r = fn(); } finally { armed = false; }
  return [r, calls.slice()];
}

const Files = Java.type('java.nio.file.Files');
const ToolProvider = Java.type('javax.tools.ToolProvider');
const URLClassLoader = Java.type('java.net.URLClassLoader');
const Thread = Java.type('java.lang.Thread');
const System = Java.type('java.lang.System');
const ArrayList = Java.type('java.util.ArrayList');
const LinkedHashMap = Java.type('java.util.LinkedHashMap');

const dir = Files.createTempDirectory('strait-codec-intrinsics', []);
const src = dir.resolve('CodecProbe.java');
Files.writeString(src,
  'import org.strait.*;\n' +
  'import java.util.function.Supplier;\n' +
  'public class CodecProbe {\n' +
  '  public static Object toJava(Supplier<Object> s) { return ((JsValue) s.get()).toJava(); }\n' +
  '  public static String describe(Object o) {\n' +
  '    if (o instanceof byte[]) return "bytes" + java.util.Arrays.toString((byte[]) o);\n' +
  '    return o == null ? "null" : o.getClass().getSimpleName() + " " + o;\n' +
  '  }\n' +
  '}\n', []);
const rc = ToolProvider.getSystemJavaCompiler().run(null, null, null,
  ['-cp', System.getProperty('java.class.path'), '-d', dir.toString(), src.toString()]);
Thread.currentThread().setContextClassLoader(new URLClassLoader([dir.toUri().toURL()]));

describe('the value codec with built-ins replaced before its first use', () => {
  it('compiles its probe', () => {
    expect(rc).toBe(0);
  });

  it('JSON.stringify of a Java List<Map> never calls them', () => {
    const list = new ArrayList();
    for (let i = 0; i < 3; i++) {
      const m = new LinkedHashMap();
      m.put('name', 'n\u00e9' + i);
      m.put('wide', '\u20ac' + i);
      m.put('v', i + 0.5);
      m.put('list', java.util.List.of(i, 'x'));
      list.add(m);
    }
    const [s, called] = watched(() => JSON.stringify(list));
    expect(called).toEqual([]);
    expect(s).toBe(JSON.stringify([0, 1, 2].map((i) => ({ name: 'n\u00e9' + i, wide: '\u20ac' + i, v: i + 0.5,
      list: [i, 'x'] }))));
  });

  it('JsValue.toJava() from Java never calls them', () => {
    const probe = Java.type('CodecProbe');
    const u8 = new Uint8Array([1, 2, 255]), ab = u8.buffer;
    const value = { i: 1, d: 2.5, l: 2 ** 40, s: 'hello', w: 'x\u20ac', long: 'ab'.repeat(1500), arr: [1, 'a', null],
      rows: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }], when: new Date(0), big: 2n ** 70n, map: new Map([[1, 'one']]),
      set: new Set(['q']), sub: new (class extends Map {})([[2, 3]]) };
    const [got, called] = watched(() => [probe.describe(probe.toJava(() => value)),
      probe.describe(probe.toJava(() => u8)), probe.describe(probe.toJava(() => ab))]);
    expect(called).toEqual([]);
    expect(got).toEqual([
      'LinkedHashMap {i=1, d=2.5, l=1099511627776, s=hello, w=x\u20ac, long=' + 'ab'.repeat(1500) +
      ', arr=[1, a, null], rows=[{a=1, b=x}, {a=2, b=y}], when=1970-01-01T00:00:00Z, big=1180591620717411303424, ' +
      'map={1=one}, set=[q], sub={2=3}}',
      'bytes[1, 2, -1]', 'bytes[1, 2, -1]']);
  });

  it('an error names its path without them', () => {
    const probe = Java.type('CodecProbe');
    const [msg, called] = watched(() => {
      try { probe.toJava(() => ({ a: [1, { 'b "c"': Symbol('s') }] })); return 'no error'; } catch (e) { return e.message; }
    });
    expect(called).toEqual([]);
    expect(msg).toMatch(/\$\.a\[1\]\["b \\"c\\""\]/);
  });

  it('Java.from and values passed to Java collections are right', () => {
    const list = new ArrayList();
    list.add(1); list.add('two'); list.add(3.5);
    const [got, called] = watched(() => {
      const a = Java.from(list);
      const l2 = new ArrayList();
      l2.add({ k: [1, 2] });
      return [a.length, a[1], a[2], l2.get(0).k[1]];
    });
    expect(called).toEqual([]);
    expect(got).toEqual([3, 'two', 3.5, 2]);
  });
});

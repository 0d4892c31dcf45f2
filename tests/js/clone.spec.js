'use strict';
// structuredClone and DOMException (docs/clone.md).
const { describe, it, expect, afterAll } = require('./runner');
const { viaChannel } = require('./channel');

// The first clone of this runtime, with Reflect.apply replaced: the clone
// engine, evaluated on first use, takes the one captured at start-up.
const firstClone = (() => {
  const apply = Reflect.apply;
  let called = 0;
  Reflect.apply = function () { called++; throw new Error('replaced Reflect.apply called'); };
  try {
    const ab = new ArrayBuffer(4);
    const c = structuredClone({ ab }, { transfer: new Set([ab]) });
    return [called, c.ab.byteLength, ab.detached].join();
  } catch (e) {
    return String(e);
  } finally {
    Reflect.apply = apply;
  }
})();

function dce(fn, what) {
  let err;
  try { fn(); } catch (e) { err = e; }
  expect(err instanceof DOMException).toBe(true);
  expect(err.name).toBe('DataCloneError');
  expect(err.code).toBe(25);
  if (what) expect(err.message).toContain(what);
  return err;
}

describe('structuredClone: primitives', () => {
  it('keeps -0, NaN, BigInt, strings with lone surrogates', () => {
    expect(Object.is(structuredClone(-0), -0)).toBe(true);
    expect(Number.isNaN(structuredClone(NaN))).toBe(true);
    expect(structuredClone(-(2n ** 100n))).toBe(-(2n ** 100n));
    const s = 'a\ud800b\udc00\u4e16' + 'x'.repeat(5000);
    expect(structuredClone(s)).toBe(s);
    expect(structuredClone({ k: '\udfff' }).k).toBe('\udfff');
    expect(structuredClone(undefined)).toBe(undefined);
    expect(structuredClone(null)).toBe(null);
    expect(structuredClone(true)).toBe(true);
  });
  it('requires an argument', () => {
    expect(() => structuredClone()).toThrow(TypeError);
  });
});

describe('structuredClone: objects', () => {
  it('copies wrapper objects, Date and RegExp (lastIndex reset)', () => {
    const [b, n, s, g, d, r] = structuredClone([new Boolean(false), new Number(-0), new String('str'), Object(5n), new Date(42), /x+/gy]);
    expect(typeof b).toBe('object');
    expect(b.valueOf()).toBe(false);
    expect(Object.is(n.valueOf(), -0)).toBe(true);
    expect(s.valueOf()).toBe('str');
    expect(g.valueOf()).toBe(5n);
    expect(d instanceof Date && d.getTime()).toBe(42);
    expect(r.source).toBe('x+');
    expect(r.flags).toBe('gy');
    const re = /a/g;
    re.lastIndex = 3;
    expect(structuredClone(re).lastIndex).toBe(0);
  });
  it('keeps own enumerable string keys in order and runs getters once', () => {
    let calls = 0;
    const o = { b: 1, a: 2, get g() { calls++; return 'got'; }, [Symbol('s')]: 1 };
    Object.defineProperty(o, 'hidden', { value: 1, enumerable: false });
    const c = structuredClone(o);
    expect(Object.keys(c)).toEqual(['b', 'a', 'g']);
    expect(c.g).toBe('got');
    expect(calls).toBe(1);
    expect(Object.getOwnPropertyDescriptor(c, 'g').value).toBe('got');
  });
  it('makes class instances plain objects', () => {
    class P { constructor() { this.x = 1; } m() {} }
    const c = structuredClone(new P());
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(c).toEqual({ x: 1 });
    expect(Object.getPrototypeOf(structuredClone(Object.create(null)))).toBe(Object.prototype);
  });
  it('keeps a __proto__ key an own data property, numeric keys too', () => {
    const o = JSON.parse('{"__proto__": {"evil": 1}, "2": "two", "x": 1}');
    const c = structuredClone(o);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(c.evil).toBe(undefined);
    expect(Object.getOwnPropertyDescriptor(c, '__proto__').value).toEqual({ evil: 1 });
    expect(c[2]).toBe('two');
  });
  it('does not call setters of Object.prototype', () => {
    let called = false;
    Object.defineProperty(Object.prototype, 'trap', { set() { called = true; }, configurable: true });
    try {
      const c = structuredClone({ trap: 1 });
      expect(called).toBe(false);
      expect(Object.getOwnPropertyDescriptor(c, 'trap').value).toBe(1);
    } finally {
      delete Object.prototype.trap;
    }
  });
  it('keeps array holes, length and extra properties', () => {
    const a = [1, , 3];
    a.length = 6;
    a.extra = 'e';
    const c = structuredClone(a);
    expect(c.length).toBe(6);
    expect(1 in c).toBe(false);
    expect(5 in c).toBe(false);
    expect(c[2]).toBe(3);
    expect(c.extra).toBe('e');
    const sparse = [];
    sparse[1e9] = 'far';
    const cs = structuredClone(sparse);
    expect(cs.length).toBe(1e9 + 1);
    expect(cs[1e9]).toBe('far');
  });
  it('copies Map and Set in insertion order with cloned keys and values', () => {
    const k = { key: 1 };
    const m = new Map([[k, 'a'], ['b', k]]);
    const c = structuredClone({ m, s: new Set([3, 1, k]) });
    const keys = [...c.m.keys()];
    expect(keys[1]).toBe('b');
    expect(keys[0]).toEqual({ key: 1 });
    expect(c.m.get('b')).toBe(keys[0]);
    expect([...c.s]).toEqual([3, 1, keys[0]]);
    expect([...c.s][2]).toBe(keys[0]);
  });
  it('preserves shared references and cycles', () => {
    const shared = { s: 1 };
    const o = { a: shared, b: shared, arr: [shared] };
    o.self = o;
    o.arr.push(o.arr);
    const c = structuredClone(o);
    expect(c.a).toBe(c.b);
    expect(c.arr[0]).toBe(c.a);
    expect(c.self).toBe(c);
    expect(c.arr[1]).toBe(c.arr);
    expect(c.a === shared).toBe(false);
  });
  it('copies ArrayBuffers, typed arrays and DataViews; views of one buffer share its copy', () => {
    const buf = new ArrayBuffer(32);
    const u8 = new Uint8Array(buf, 4, 8);
    u8[0] = 200;
    const dv = new DataView(buf, 8, 16);
    const all = [buf, u8, dv, new Int8Array([-1]), new Uint8ClampedArray([300]), new Int16Array([-2]),
      new Uint16Array([2]), new Int32Array([-3]), new Uint32Array([3]), new Float32Array([1.5]),
      new Float64Array([-2.5]), new BigInt64Array([-4n]), new BigUint64Array([4n])];
    const c = structuredClone(all);
    expect(c[1].buffer).toBe(c[0]);
    expect(c[2].buffer).toBe(c[0]);
    expect(c[0] === buf).toBe(false);
    expect([c[1].byteOffset, c[1].length, c[1][0]]).toEqual([4, 8, 200]);
    expect([c[2].byteOffset, c[2].byteLength]).toEqual([8, 16]);
    const names = c.slice(3).map((v) => v.constructor.name + ':' + String(v[0]));
    expect(names).toEqual(['Int8Array:-1', 'Uint8ClampedArray:255', 'Int16Array:-2', 'Uint16Array:2',
      'Int32Array:-3', 'Uint32Array:3', 'Float32Array:1.5', 'Float64Array:-2.5', 'BigInt64Array:-4',
      'BigUint64Array:4']);
    u8[0] = 1;
    expect(c[1][0]).toBe(200);
  });
  it("copies a buffer's bytes without asking its constructor for a species", async () => {
    for (const send of [(v) => structuredClone(v), (v) => viaChannel(v, [])]) {
      const ab = new ArrayBuffer(4);
      new Uint8Array(ab)[1] = 7;
      let asked = 0;
      Object.defineProperty(ab, 'constructor', { get() { asked++; return Array; } });
      const c = await send({ ab, v: new Uint8Array(ab, 1) });
      expect(asked).toBe(0);
      expect([c.ab.byteLength, c.v[0], c.v.buffer === c.ab]).toEqual([4, 7, true]);
      expect(Object.getPrototypeOf(c.ab)).toBe(ArrayBuffer.prototype);
    }
  });
  it('copies errors with name, message, cause and stack', () => {
    const e = new RangeError('bad', { cause: { why: 1 } });
    const c = structuredClone(e);
    expect(c instanceof RangeError).toBe(true);
    expect(c.message).toBe('bad');
    expect(c.cause).toEqual({ why: 1 });
    expect(c.stack).toBe(e.stack);
    for (const C of [Error, EvalError, ReferenceError, SyntaxError, TypeError, URIError])
      expect(structuredClone(new C('m')) instanceof C).toBe(true);
    const odd = new Error('x');
    odd.name = 'MyError';
    expect(structuredClone(odd).name).toBe('Error');
    const looped = new Error('l');
    looped.cause = looped;
    const cl = structuredClone(looped);
    expect(cl.cause).toBe(cl);
  });
});

describe('structuredClone: DataCloneError', () => {
  it('for functions, symbols and non-cloneable built-ins', () => {
    dce(() => structuredClone(function foo() { return 1; }), 'function foo() { return 1; } could not be cloned.');
    dce(() => structuredClone({ f: () => 1 }), 'could not be cloned');
    dce(() => structuredClone(Symbol('s')), 'Symbol(s) could not be cloned.');
    dce(() => structuredClone(new WeakMap()), '#<WeakMap> could not be cloned.');
    dce(() => structuredClone(new WeakSet()), '#<WeakSet>');
    dce(() => structuredClone(new WeakRef({})), '#<WeakRef>');
    dce(() => structuredClone(new FinalizationRegistry(() => {})), '#<FinalizationRegistry>');
    dce(() => structuredClone(Promise.resolve(1)), '#<Promise>');
    dce(() => structuredClone(globalThis));
  });
  it('for proxies, also revocable ones and proxies of arrays', () => {
    dce(() => structuredClone(new Proxy({}, {})), 'could not be cloned');
    dce(() => structuredClone([new Proxy([], {})]));
    dce(() => structuredClone(Proxy.revocable({}, {}).proxy));
    expect(Proxy.name).toBe('Proxy');
    expect(() => Proxy({}, {})).toThrow(TypeError);
    expect(new Proxy({ a: 1 }, {}).a).toBe(1);
  });
  it('detaches nothing when serialization fails', () => {
    const ab = new ArrayBuffer(8);
    dce(() => structuredClone({ ab, f() {} }, { transfer: [ab] }));
    expect(ab.detached).toBe(false);
    expect(ab.byteLength).toBe(8);
  });
});

describe('structuredClone: transfer', () => {
  it('detaches transferred buffers and gives their memory to the clone', () => {
    const ab = new ArrayBuffer(16);
    new Uint8Array(ab)[3] = 33;
    const view = new Uint8Array(ab, 2, 4);
    const c = structuredClone({ ab, view }, { transfer: [ab] });
    expect(ab.detached).toBe(true);
    expect(ab.byteLength).toBe(0);
    expect(view.length).toBe(0);
    expect(new Uint8Array(c.ab)[3]).toBe(33);
    expect(c.view.buffer).toBe(c.ab);
    expect(c.view[1]).toBe(33);
  });
  it("reads the transfer list with the captured Reflect.apply, not a script's", () => {
    expect(firstClone).toBe('0,4,true');
  });
  it('takes any iterable, and an unreached buffer is still detached', () => {
    const ab = new ArrayBuffer(4);
    structuredClone(1, { transfer: new Set([ab]) });
    expect(ab.detached).toBe(true);
  });
  it('errors: duplicates, detached buffers, non-transferables, non-objects', () => {
    const ab = new ArrayBuffer(4);
    dce(() => structuredClone(ab, { transfer: [ab, ab] }), 'duplicate');
    expect(ab.detached).toBe(false);
    const gone = new ArrayBuffer(4);
    gone.transfer();
    dce(() => structuredClone(1, { transfer: [gone] }), 'detached');
    dce(() => structuredClone(gone), 'detached');
    dce(() => structuredClone(1, { transfer: [{}] }), 'could not be transferred');
    expect(() => structuredClone(1, { transfer: [1] })).toThrow(TypeError);
    expect(() => structuredClone(1, { transfer: 5 })).toThrow(TypeError);
    expect(() => structuredClone(1, { transfer: null })).toThrow(TypeError);
    expect(() => structuredClone(1, 5)).toThrow(TypeError);
    expect(structuredClone(1, null)).toBe(1);
  });
});

describe('structuredClone: depth and replaced globals', () => {
  it('clones a 1,000,000-deep list and nested arrays without overflowing the stack', () => {
    let l = null;
    for (let i = 0; i < 1000000; i++) l = { next: l, i };
    let c = structuredClone(l), n = 0;
    while (c) { n++; c = c.next; }
    expect(n).toBe(1000000);
    let a = [];
    for (let i = 0; i < 200000; i++) a = [a];
    let ca = structuredClone(a), d = 0;
    while (ca.length) { d++; ca = ca[0]; }
    expect(d).toBe(200000);
  });
  it('tells objects of earlier, failed and nested clones apart', () => {
    const s = { v: 1 }, t = { w: 2 };
    structuredClone([t, s, t]);
    dce(() => structuredClone({ a: s, b: t, f() {} }), 'could not be cloned');
    const c = structuredClone([{}, s, t, s, {}]);
    expect(c[1] === c[3]).toBe(true);
    expect(c[0] === c[1] || c[0] === c[2] || c[2] === c[1] || c[4] === c[0]).toBe(false);
    const inner = { x: 1 };
    const o = { a: inner, get g() { return structuredClone({ b: inner, c: inner, d: t }); }, z: inner, t };
    const r = structuredClone(o);
    expect(r.a === r.z).toBe(true);
    expect(r.g.b === r.g.c).toBe(true);
    expect(r.g.b === r.a || r.g.d === r.t).toBe(false);
    expect(r.g.d.w).toBe(2);
  });
  it('works after a script replaced built-ins', () => {
    const saved = { Map, Set, keys: Object.keys, push: Array.prototype.push, getProto: Object.getPrototypeOf,
      isArray: Array.isArray, get: Map.prototype.get, set: Map.prototype.set, forEach: Map.prototype.forEach,
      call: Function.prototype.call, substring: String.prototype.substring, join: Array.prototype.join, Float64Array };
    const m = new Map([[1, 2]]), s = new Set([3]);
    const boom = () => { throw new Error('replaced built-in called'); };
    let c;
    try {
      globalThis.Map = boom; globalThis.Set = boom; globalThis.Float64Array = boom;
      Object.keys = boom; Array.prototype.push = boom; Object.getPrototypeOf = boom; Array.isArray = boom;
      saved.Map.prototype.get = boom; saved.Map.prototype.set = boom; saved.Map.prototype.forEach = boom;
      Function.prototype.call = boom; String.prototype.substring = boom; Array.prototype.join = boom;
      c = structuredClone({ m, s, a: [1, { b: 'x' }], d: new Date(1), str: 'x'.repeat(3) });
    } finally {
      Function.prototype.call = saved.call;
      globalThis.Map = saved.Map; globalThis.Set = saved.Set; globalThis.Float64Array = saved.Float64Array;
      Object.keys = saved.keys; Array.prototype.push = saved.push; Object.getPrototypeOf = saved.getProto;
      Array.isArray = saved.isArray; saved.Map.prototype.get = saved.get; saved.Map.prototype.set = saved.set;
      saved.Map.prototype.forEach = saved.forEach; String.prototype.substring = saved.substring;
      Array.prototype.join = saved.join;
    }
    expect(c.m.get(1)).toBe(2);
    expect(c.s.has(3)).toBe(true);
    expect(c.a[1].b).toBe('x');
    expect(c.d.getTime()).toBe(1);
    expect(c.str).toBe('xxx');
  });
});

describe('DOMException', () => {
  it('has name, message, code, a stack and Error.prototype in its chain', () => {
    const e = new DOMException('stop', 'AbortError');
    expect(e.name).toBe('AbortError');
    expect(e.message).toBe('stop');
    expect(e.code).toBe(20);
    expect(e instanceof Error).toBe(true);
    expect(typeof e.stack).toBe('string');
    expect(Object.prototype.toString.call(e)).toBe('[object DOMException]');
    const d = new DOMException();
    expect([d.name, d.message, d.code]).toEqual(['Error', '', 0]);
    expect(new DOMException('x', 'DataCloneError').code).toBe(25);
    expect(DOMException.DATA_CLONE_ERR).toBe(25);
    expect(() => Object.getOwnPropertyDescriptor(DOMException.prototype, 'name').get.call({})).toThrow(TypeError);
  });
});

// Objects are cloned by their internal slots, as in browsers and Node: a
// Map, Set, Date, RegExp, wrapper object, ArrayBuffer, Error, array or view
// whose prototype a script replaced (by Object.prototype, null,
// Array.prototype, a class's prototype or another built-in's) or whose
// Symbol.toStringTag it changed arrives as what it is, with the realm's
// prototype; an object without slots stays a plain object whatever its
// prototype or tag claim; one no clone is made of (WeakMap, Promise...) is
// a DataCloneError however it is disguised. Through structuredClone, a
// MessageChannel (clone.c) and a worker (another runtime) and back.
const T = (v) => Object.prototype.toString.call(v);
const protoName = (c) => {
  const p = Object.getPrototypeOf(c);
  return p === null ? 'null' : p === Object.prototype ? 'Object.prototype' : p.constructor.name + '.prototype';
};
const bytes = (b) => Array.from(new Uint8Array(b)).join();
// what a clone is, in a string (realm built-ins only: the clones have them)
function summary(c) {
  let body;
  if (c instanceof Map) body = JSON.stringify([...c].map(([k, v]) => [k, v && typeof v === 'object' ? summary(v) : v]));
  else if (c instanceof Set) body = JSON.stringify([...c]);
  else if (c instanceof Date) body = String(c.getTime());
  else if (c instanceof RegExp) body = c.source + '/' + c.flags + '@' + c.lastIndex;
  else if (c instanceof Error) body = c.constructor.name + ': ' + c.message;
  else if (c instanceof ArrayBuffer) body = bytes(c);
  else if (ArrayBuffer.isView(c)) body = c.byteOffset + '+' + c.byteLength + ' of [' + bytes(c.buffer) + ']';
  else if (typeof c === 'object' && c !== null && T(c) !== '[object Object]' && T(c) !== '[object Array]') {
    const v = c.valueOf();
    body = typeof v + ' ' + (typeof v === 'bigint' ? v + 'n' : Object.is(v, -0) ? '-0' : String(v));
  } else body = JSON.stringify(c);
  return T(c) + ' ' + protoName(c) + ' ' + body + ' keys ' + Object.keys(c).join();
}
class Klass {}
// [kind, make()]
const SLOT_KINDS = [
  ['Map', () => new Map([[1, { x: 2 }], ['k', 'v']])],
  ['empty Map', () => new Map()],
  ['Set', () => new Set([1, 'a'])],
  ['Date', () => new Date(5)],
  ['RegExp', () => { const r = /a+b/gi; r.lastIndex = 2; return r; }],
  ['Boolean object', () => new Boolean(false)],
  ['Number object', () => new Number(-0)],
  ['String object', () => new String('ab')],
  ['empty String object', () => new String('')],
  ['BigInt object', () => Object(-5n)],
  ['ArrayBuffer', () => new Uint8Array([1, 2, 3]).buffer],
  ['Error', () => new Error('m')],
  ['array', () => [1, , 'x']],
  ['empty array', () => []],
  ...['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
    'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'].map((k) => [k, () => new globalThis[k](new ArrayBuffer(16), 8, 1)]),
  ['DataView', () => new DataView(new Uint8Array([9, 8, 7]).buffer, 1)],
];
// [how, disguise(v)]
const DISGUISES = [
  ['prototype Object.prototype', (v) => Object.setPrototypeOf(v, Object.prototype)],
  ['prototype null', (v) => Object.setPrototypeOf(v, null)],
  ['prototype Array.prototype', (v) => Object.setPrototypeOf(v, Array.prototype)],
  ["prototype a class's", (v) => Object.setPrototypeOf(v, Klass.prototype)],
  ["prototype another built-in's", (v) => Object.setPrototypeOf(v, v instanceof Map ? Set.prototype : Map.prototype)],
  ['own Symbol.toStringTag "Object"', (v) => Object.defineProperty(v, Symbol.toStringTag, { value: 'Object' })],
  ['prototype null and tag "Object"', (v) => Object.defineProperty(Object.setPrototypeOf(v, null), Symbol.toStringTag, { value: 'Object' })],
  ['made with a new.target whose prototype is Object.prototype', (v) => {
    const F = function () {};
    F.prototype = Object.prototype;
    if (v instanceof Date) return Reflect.construct(Date, [v.getTime()], F);
    if (v instanceof Map) {
      const m = Reflect.construct(Map, [], F);
      v.forEach((val, key) => Map.prototype.set.call(m, key, val));
      return m;
    }
    if (v instanceof Set) {
      const st = Reflect.construct(Set, [], F);
      v.forEach((val) => Set.prototype.add.call(st, val));
      return st;
    }
    if (v instanceof Error) return Reflect.construct(Error, [v.message], F);
    return Object.setPrototypeOf(v, Object.prototype);
  }],
];

let echoWorker = null;
function viaWorker(v) {
  if (echoWorker === null) echoWorker = new Worker('./workers/fixtures/echo.js');
  return new Promise((resolve, reject) => {
    echoWorker.onmessage = (e) => resolve(e.data.echo);
    echoWorker.onerror = (e) => reject(e);
    try { echoWorker.postMessage(v); } catch (e) { reject(e); }
  });
}
const WAYS = [
  ['structuredClone', (v) => structuredClone(v)],
  ['a MessageChannel', (v) => viaChannel(v, [])],
  ['a worker and back', (v) => viaWorker(v)],
];

for (const [way, send] of WAYS) {
  describe('structuredClone: internal slots decide, through ' + way, () => {
    for (const [kind, make] of SLOT_KINDS) {
      it(`a disguised ${kind} arrives as a ${kind}`, async () => {
        const want = summary(structuredClone(make()));
        const got = [], expected = [];
        const values = DISGUISES.map(([, disguise]) => disguise(make()));
        const c = await send(values);
        DISGUISES.forEach(([how], i) => {
          got.push(how + ': ' + summary(c[i]));
          expected.push(how + ': ' + want);
        });
        expect(got).toEqual(expected);
      });
    }
    it('an object without internal slots stays plain whatever its prototype or tag', async () => {
      const names = ['Map', 'Set', 'Date', 'RegExp', 'Boolean', 'Number', 'String', 'BigInt', 'Error', 'ArrayBuffer',
        'Array', 'Uint8Array', 'DataView', 'WeakMap', 'Promise'];
      const values = [];
      for (const n of names) {
        values.push({ x: n, [Symbol.toStringTag]: n });
        const P = globalThis[n].prototype, o = Object.create(P);
        o.x = n;
        values.push(o);
        values.push(Object.create(P));
      }
      const c = await send(values);
      expect(c.map(summary)).toEqual(values.map((v) => summary(Object.keys(v).length ? { x: v.x } : {})));
    });
    it('a disguised WeakMap, WeakSet, WeakRef, FinalizationRegistry or Promise is a DataCloneError', async () => {
      const makers = [() => new WeakMap(), () => new WeakSet(), () => new WeakRef({}), () => new FinalizationRegistry(() => {}),
        () => Promise.resolve()];
      for (const mk of makers) {
        for (const [how, disguise] of DISGUISES.slice(0, 5)) {
          let err;
          try { await send({ a: [disguise(mk())] }); } catch (e) { err = e; }
          expect((err && err.name) + ' ' + how).toBe('DataCloneError ' + how);
        }
      }
    });
  });
}

describe('structuredClone: internal slots, details', () => {
  it('tells kinds with the built-ins captured at start-up only', () => {
    const names = [[Reflect, 'apply'], [Error, 'isError'], [WeakRef.prototype, 'deref'], [FinalizationRegistry.prototype, 'unregister'],
      [Object.prototype, 'toString'], [Function.prototype, 'call'], [Array, 'isArray'], [Object, 'keys'], [Object, 'getPrototypeOf']];
    const saved = names.map(([o, k]) => Object.getOwnPropertyDescriptor(o, k));
    let called = 0, c;
    const m = Object.setPrototypeOf(new Map([[1, 2]]), null), d = Object.setPrototypeOf(new Date(7), Object.prototype);
    const value = { list: [{}, {}, Object.create(null), [], m, d], w: { x: 1 } };
    try {
      for (const [o, k] of names) Object.defineProperty(o, k, { value: function () { called++; throw new Error('replaced'); }, configurable: true, writable: true });
      c = structuredClone(value);
    } finally {
      names.forEach(([o, k], i) => Object.defineProperty(o, k, saved[i]));
    }
    expect(called).toBe(0);
    expect(c.list.slice(0, 4).map(summary)).toEqual(value.list.slice(0, 4).map((v) => summary(structuredClone(v))));
    expect(summary(c.list[4])).toBe(summary(new Map([[1, 2]])));
    expect(summary(c.list[5])).toBe(summary(new Date(7)));
  });
  it("takes a disguised error's name through its new prototype chain, as the web does", () => {
    const e = Object.setPrototypeOf(new TypeError('m'), null);
    expect(summary(structuredClone(e))).toBe(summary(new Error('m')) );
    const r = Object.setPrototypeOf(new Error('q'), RangeError.prototype);
    expect(structuredClone(r) instanceof RangeError).toBe(true);
    const tagged = new TypeError('t');
    tagged[Symbol.toStringTag] = 'Nope';
    expect(structuredClone(tagged) instanceof TypeError).toBe(true);
  });
  it('reads a disguised RegExp\'s flags from the RegExp, not through its prototype', () => {
    const r = Object.setPrototypeOf(/x/dgimsuy, null);
    expect(structuredClone(r).flags).toBe('dgimsuy');
    const global = Object.getOwnPropertyDescriptor(RegExp.prototype, 'global');
    let c;
    Object.defineProperty(RegExp.prototype, 'global', { get() { throw new Error('replaced getter called'); }, configurable: true });
    try {
      c = structuredClone(/y/g);
    } finally {
      Object.defineProperty(RegExp.prototype, 'global', global);
    }
    expect(c.flags).toBe('g');
  });
  it('keeps shared references and cycles through a disguised Map', () => {
    const shared = { s: 1 };
    const m = new Map([['a', shared], ['b', shared]]);
    m.set('self', m);
    Object.setPrototypeOf(m, null);
    const c = structuredClone({ m, shared, list: [m] });
    expect(c.m instanceof Map).toBe(true);
    expect(c.m.get('a') === c.shared && c.m.get('b') === c.shared && c.m.get('self') === c.m && c.list[0] === c.m).toBe(true);
  });
  it('still detaches only what it should when a disguised buffer is transferred', () => {
    const ab = Object.setPrototypeOf(new Uint8Array([4, 5]).buffer, Object.prototype);
    const c = structuredClone({ ab }, { transfer: [ab] });
    expect(T(c.ab)).toBe('[object ArrayBuffer]');
    expect(bytes(c.ab)).toBe('4,5');
    expect(ArrayBuffer.prototype.__lookupGetter__('detached').call(ab)).toBe(true);
  });
});
afterAll(() => {
  if (echoWorker !== null) echoWorker.terminate();
  echoWorker = null;
});

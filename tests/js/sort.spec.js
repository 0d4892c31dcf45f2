'use strict';
// %TypedArray%.prototype.sort and toSorted without a comparator sort large
// arrays in steps a stop can end (src/core/js/sort.js): the same order as
// the engine's (numeric, -0 before +0, NaN last, BigInts by value), for
// every element type, at and around the size where the steps begin; the
// built-ins keep their names, lengths and errors. (That a time limit stops
// such a sort: tests/js/launcher_stop.test.sh.)
const { describe, it, expect } = require('./runner');

const SPLIT = 1 << 18;
const KINDS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array];

/* a deterministic generator (no Math.random: a failure must come back) */
function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function fill(C, n, seed) {
  const r = lcg(seed), a = new C(n);
  for (let i = 0; i < n; i++) {
    const x = r();
    if (C === BigInt64Array) a[i] = BigInt(Math.floor((x - 0.5) * 2 ** 53));
    else if (C === BigUint64Array) a[i] = BigInt(Math.floor(x * 2 ** 53));
    else if (C === Float32Array || C === Float64Array) a[i] = x < 0.01 ? NaN : x < 0.02 ? -0 : x < 0.03 ? 0 : (x - 0.5) * 1e6;
    else a[i] = Math.floor(x * 2 ** 32);
  }
  return a;
}

/* the engine's order, with a comparator (the engine's JS sort) */
function expected(a) {
  const rank = (v) => (v !== v ? 2 : Object.is(v, -0) ? 0 : 1);
  return Array.from(a).sort((x, y) => (x < y ? -1 : x > y ? 1 : rank(x) - rank(y)));
}

function firstDifference(got, want) {
  if (got.length !== want.length) return 'length ' + got.length + ' != ' + want.length;
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) return 'at ' + i + ': ' + got[i] + ' != ' + want[i];
  return null;
}

describe('typed-array sort in steps', () => {
  for (const C of KINDS) {
    for (const n of [SPLIT - 1, SPLIT + 12345]) {
      it(`${C.name} of ${n}: sort and toSorted give the engine's order`, () => {
        const a = fill(C, n, n ^ C.BYTES_PER_ELEMENT);
        const want = expected(a);
        const sorted = a.toSorted();
        expect(firstDifference(sorted, want)).toBe(null);
        expect(firstDifference(a.sort(), want)).toBe(null);
        expect(sorted instanceof C).toBe(true);
      });
    }
  }
  it('a view into a larger buffer sorts only its elements', () => {
    const buf = new ArrayBuffer((SPLIT + 200) * 8);
    const all = new Float64Array(buf);
    all.fill(-1);
    const v = new Float64Array(buf, 100 * 8, SPLIT + 50);
    const r = lcg(7);
    for (let i = 0; i < v.length; i++) v[i] = r();
    const want = expected(v);
    v.sort();
    expect(firstDifference(v, want)).toBe(null);
    expect(all[99]).toBe(-1);
    expect(all[100 + SPLIT + 50]).toBe(-1);
  });
  it('a comparator still goes to the engine, and a bad one is a TypeError', () => {
    const a = fill(Int32Array, SPLIT + 3, 3);
    a.sort((x, y) => y - x);
    for (let i = 1; i < a.length; i++) if (a[i - 1] < a[i]) throw new Error('not descending at ' + i);
    expect(() => a.sort(42)).toThrow(TypeError);
    expect(() => a.toSorted('x')).toThrow(TypeError);
  });
  it('the methods keep their names and lengths, and refuse what is no typed array', () => {
    const P = Object.getPrototypeOf(Int8Array).prototype;
    expect(P.sort.name).toBe('sort');
    expect(P.sort.length).toBe(1);
    expect(P.toSorted.name).toBe('toSorted');
    expect(P.toSorted.length).toBe(1);
    expect(() => P.sort.call([3, 1, 2])).toThrow(TypeError);
    expect(() => P.toSorted.call({ length: SPLIT + 1 })).toThrow(TypeError);
  });
  it('a replaced constructor, species or prototype changes nothing', () => {
    const a = fill(Float64Array, SPLIT + 9, 11);
    const want = expected(a);
    Object.defineProperty(a, 'constructor', { value: function () { throw new Error('constructor used'); } });
    Object.setPrototypeOf(a, Object.create(Float64Array.prototype));
    const saved = Float64Array.prototype.set;
    Float64Array.prototype.set = () => { throw new Error('set used'); };
    try {
      expect(firstDifference(a.sort(), want)).toBe(null);
    } finally {
      Float64Array.prototype.set = saved;
    }
  });
});

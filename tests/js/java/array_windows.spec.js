'use strict';
// Java arrays read in windows (bridge_helper.js, "The window"): sequential
// reads of a Java array are served from elements read in one crossing until
// the runtime's crossing counter moves. Every read must still give what
// the array holds at that moment: after a JS write, a Java write (a call,
// a callback from Java, another thread), a fill or a copy. The generated
// sequences below mix those with runs of reads on every element type and
// check each read against a model of the array.
const { describe, it, expect } = require('../runner');
const { thrown, rng } = require('./helpers');

const A = java.lang.reflect.Array, Arrays = java.util.Arrays, System = java.lang.System;

const jsObjects = [{ x: 1 }, [1, 2], function f() {}];
const javaObjects = [new java.lang.StringBuilder('sb'), new java.util.ArrayList()];

// per element type: a value generator (r is the PRNG), the Java setter,
// and the value a Java array of that type starts with
const TYPES = {
  int: { gen: (r) => ((r() * 2000) | 0) - 1000, jset: (a, i, v) => A.setInt(a, i, v), zero: 0 },
  long: { gen: (r) => (r() < 0.2 ? 2n ** 60n + BigInt((r() * 100) | 0) : ((r() * 2000) | 0) - 1000),
          jset: (a, i, v) => A.setLong(a, i, v), zero: 0 },
  double: { gen: (r) => ((r() * 2000) | 0) / 8, jset: (a, i, v) => A.setDouble(a, i, v), zero: 0 },
  float: { gen: (r) => ((r() * 2000) | 0) / 4, jset: (a, i, v) => A.setFloat(a, i, v), zero: 0 },
  boolean: { gen: (r) => r() < 0.5, jset: (a, i, v) => A.setBoolean(a, i, v), zero: false },
  char: { gen: (r) => String.fromCharCode(97 + ((r() * 26) | 0)), jset: (a, i, v) => A.setChar(a, i, v), zero: '\0' },
  byte: { gen: (r) => ((r() * 256) | 0) - 128, jset: (a, i, v) => A.setByte(a, i, v), zero: 0 },
  short: { gen: (r) => ((r() * 60000) | 0) - 30000, jset: (a, i, v) => A.setShort(a, i, v), zero: 0 },
  'java.lang.String': { gen: (r) => (r() < 0.1 ? null : 's' + ((r() * 1000) | 0)), jset: (a, i, v) => A.set(a, i, v),
                        zero: null },
  'java.lang.Object': {
    gen: (r) => {
      const k = r();
      if (k < 0.3) return ((r() * 2000) | 0) - 1000;
      if (k < 0.5) return 'o' + ((r() * 1000) | 0);
      if (k < 0.6) return null;
      if (k < 0.8) return jsObjects[(r() * jsObjects.length) | 0];
      return javaObjects[(r() * javaObjects.length) | 0];
    },
    jset: (a, i, v) => A.set(a, i, v), zero: null,
  },
};
// Arrays.setAll has overloads for these (Object[] through IntFunction)
const SET_ALL = new Set(['int', 'long', 'double', 'java.lang.String', 'java.lang.Object']);

function same(got, want) {
  return got === want || (typeof got === 'bigint' && typeof want === 'bigint' && got === want);
}

function runSequence(type, len, seed, ops) {
  const T = TYPES[type], r = rng(seed);
  const a = Java.array(type, len);
  const model = new Array(len).fill(T.zero);
  const log = [];
  const check = (i, where) => {
    const got = a[i];
    if (!same(got, model[i])) {
      throw new Error(`${type}[${len}] seed ${seed}: a[${i}] ${where} is ${String(got)}, expected ${String(model[i])}` +
                      ` after ${log.slice(-6).join('; ')}`);
    }
  };
  const pick = () => (r() * len) | 0;
  for (let op = 0; op < ops; op++) {
    const k = r();
    if (k < 0.35) {                              // a run of reads, as a loop does
      const from = pick(), n = 1 + ((r() * Math.min(len, 700)) | 0);
      log.push(`read ${from}+${n}`);
      for (let i = from; i < from + n && i < len; i++) check(i, 'in a run');
    } else if (k < 0.40) {
      log.push('random reads');
      for (let j = 0; j < 8; j++) check(pick(), 'at random');
    } else if (k < 0.45) {                       // a loop over a table, wrapping around, writing now and then
      const from = pick(), n = 1 + ((r() * Math.min(3 * len, 300)) | 0);
      log.push(`cyclic ${from}+${n}`);
      for (let j = 0; j < n; j++) {
        const i = (from + j) % len;
        if (j % 17 === 16) {
          const v = T.gen(r);
          a[i] = v;
          model[i] = v;
        }
        check(i, 'in a cyclic run');
      }
    } else if (k < 0.6) {                        // JS writes
      const i = pick(), v = T.gen(r);
      log.push(`a[${i}] = ${String(v)}`);
      a[i] = v;
      model[i] = v;
    } else if (k < 0.72) {                       // Java writes, one call each
      const i = pick(), v = T.gen(r);
      log.push(`Java set ${i} = ${String(v)}`);
      T.jset(a, i, v);
      model[i] = v;
    } else if (k < 0.8) {
      const from = pick(), to = from + ((r() * (len - from)) | 0), v = T.gen(r);
      log.push(`fill ${from}..${to} = ${String(v)}`);
      Arrays.fill(a, from, to, v);
      for (let i = from; i < to; i++) model[i] = v;
    } else if (k < 0.88) {
      const src = pick(), dst = pick(), n = (r() * (len - Math.max(src, dst))) | 0;
      log.push(`arraycopy ${src} -> ${dst} x${n}`);
      System.arraycopy(a, src, a, dst, n);
      const part = model.slice(src, src + n);
      for (let i = 0; i < n; i++) model[dst + i] = part[i];
    } else if (k < 0.94 && SET_ALL.has(type)) {
      // Java calls JS once per element and stores each result when the
      // callback returns: inside it, the elements before i are new
      log.push('setAll');
      let pending = -1, pv;
      const gen = (i) => {
        if (pending >= 0) model[pending] = pv;
        /* one run over both sides of i: a window opened in this call
         * covers elements Java writes before the next one */
        for (let j = Math.max(0, i - 3); j < i + 6 && j < len; j++) {
          if (j !== i) check(j, j < i ? 'inside setAll (written by Java)' : 'inside setAll (not yet written)');
        }
        pending = i;
        pv = type === 'java.lang.String' ? 'g' + i : type === 'java.lang.Object' ? (i % 2 ? jsObjects[0] : i) : i * 3;
        return pv;
      };
      Arrays.setAll(a, gen);
      if (pending >= 0) model[pending] = pv;
    } else {                                     // every element, the ways generic JS reads
      log.push('whole');
      const viaSlice = Array.prototype.slice.call(a);
      for (let i = 0; i < len; i++) {
        if (!same(viaSlice[i], model[i])) throw new Error(`${type} seed ${seed}: slice[${i}] is ${String(viaSlice[i])}`);
      }
      let i = 0;
      for (const x of a) {
        if (!same(x, model[i])) throw new Error(`${type} seed ${seed}: for...of [${i}] is ${String(x)}`);
        i++;
      }
    }
  }
  for (let i = 0; i < len; i++) check(i, 'at the end');
}

describe('Java arrays read in windows', () => {
  for (const type of Object.keys(TYPES)) {
    it(`every read of a ${type}[] gives what the array holds (generated sequences)`, () => {
      for (const [len, seed] of [[37, 1], [1500, 2], [700, 3], [8, 4], [64, 5], [65, 6]]) runSequence(type, len, seed * 7919 + type.length, 250);
    });
  }

  it('a loop that calls Java between two reads sees each write', () => {
    const a = Java.array('int', 2000);
    let s = 0;
    for (let i = 0; i < 1999; i++) {
      s += a[i];                 // a[i] was written by Java one turn earlier
      A.setInt(a, i + 1, i + 1);
    }
    expect(s).toBe((1998 * 1999) / 2);
  });

  it('a write through another wrapper path (defineProperty, Reflect.set) is seen', () => {
    const a = Java.array('double', 600);
    for (let i = 0; i < 600; i++) expect(a[i]).toBe(0);
    Object.defineProperty(a, 10, { value: 2.5 });
    Reflect.set(a, 11, 3.5);
    expect(a[10]).toBe(2.5);
    expect(a[11]).toBe(3.5);
    expect(a[12]).toBe(0);
  });

  it('a float written from JS reads back as the float Java stored', () => {
    const a = Java.array('float', 100);
    for (let i = 0; i < 100; i++) a[i];
    a[5] = 0.1;
    expect(a[5]).toBe(Math.fround(0.1));
  });

  it('writes by another Java thread are seen after the join', () => {
    const a = Java.array('int', 1000);
    for (let i = 0; i < 1000; i++) expect(a[i]).toBe(0);
    const t = new java.lang.Thread(() => Arrays.fill(a, 7));
    t.start();
    t.join();
    let s = 0;
    for (let i = 0; i < 1000; i++) s += a[i];
    expect(s).toBe(7000);
  });

  it('writes by Java before a timer fires are seen in the timer', async () => {
    const a = Java.array('java.lang.Object', 300);
    for (let i = 0; i < 300; i++) expect(a[i]).toBe(null);
    const exec = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      exec['submit(java.lang.Runnable)'](() => { A.set(a, 200, 'later'); }).get();
    } finally {
      exec.shutdown();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(a[200]).toBe('later');
  });

  it('out of bounds reads still throw at the end of a window', () => {
    const a = Java.array('int', 10);
    for (let i = 0; i < 10; i++) a[i];
    thrown(() => a[10], RangeError, /index 10 out of bounds for length 10/);
    expect(a[9]).toBe(0);
  });

  it('keys that only look like the next index are not indexes', () => {
    const a = Java.to([10, 11, 12, 13], 'int[]');
    for (const [before, key] of [[0, '01'], [0, '1.0'], [0, '1e0'], [0, ' 1'], [0, '+1'], [1, '2 '], [-1, '-0'],
                                 [3, '4294967295'], [0, '0x1'], [2, '3.']]) {
      if (before >= 0) expect(a[before]).toBe(10 + before);   // the next index is now before + 1
      expect(a[key]).toBe(undefined);
      expect(key in a).toBe(false);
    }
    expect(a[1]).toBe(11);
    expect(a['3']).toBe(13);
    a['2'] = 22;
    expect(a[2]).toBe(22);
    thrown(() => { a.length = 1; }, TypeError, /length/);
    expect(a.length).toBe(4);
  });

  it('the name after the largest index is a property, whatever was read before', () => {
    for (const type of ['int', 'java.lang.Object']) {
      for (const [before, key] of [['4294967294', '4294967295'], ['4294967295', '4294967296'], [null, '4294967296']]) {
        const a = Java.array(type, 3);
        if (before !== null) {
          try { a[before]; } catch (e) { /* an index past the end: a RangeError; a name: undefined */ }
        }
        expect(a[key]).toBe(undefined);
        expect(key in a).toBe(false);
        if (before !== null) {
          try { a[before]; } catch (e) { /* as above */ }
        }
        thrown(() => { a[key] = 'p'; }, TypeError, /cannot set property/);   // as any name no member answers
        expect(a.length).toBe(3);
      }
    }
  });

  it('the window is not visible as a property', () => {
    const a = Java.array('int', 20);
    for (let i = 0; i < 20; i++) a[i];
    expect(Object.getOwnPropertySymbols(a)).toEqual([]);
    expect(Reflect.ownKeys(a).filter((k) => typeof k === 'symbol')).toEqual([]);
    expect(Reflect.ownKeys(a).length).toBe(21);   // the indexes and length
    expect(Object.keys(a).length).toBe(20);
  });
});

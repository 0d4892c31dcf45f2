'use strict';
// JDK lists read in windows (bridge_helper.js, "JDK lists read in
// windows"): get(i), size(), list[i] and list.length of a
// java.util.ArrayList, an Arrays.asList list or a List.of list are served
// from elements read in one crossing while the runtime's crossing counter
// keeps its value. Every read must still give what a call gives at that
// moment: the generated sequences mix reads with every way the list
// changes (calls on it, calls given it, Java calling back into JS) and
// check each read against a model; the conversions must be those of the
// call itself (list['get(int)'] never reads from a window).
const { describe, it, expect } = require('../runner');
const { thrown, rng } = require('./helpers');

const ArrayList = java.util.ArrayList, Arrays = java.util.Arrays, Collections = java.util.Collections;

const jsObject = { x: 1 };
const javaObject = new java.lang.StringBuilder('sb');
function value(r) {
  const k = r();
  if (k < 0.4) return (r() * 2000 | 0) - 1000;
  if (k < 0.6) return 's' + (r() * 100 | 0);
  if (k < 0.7) return null;
  if (k < 0.8) return jsObject;
  if (k < 0.9) return javaObject;
  return r() < 0.5;
}

function runSequence(len, seed, ops) {
  const r = rng(seed);
  const list = new ArrayList();
  const model = [];
  for (let i = 0; i < len; i++) { const v = value(r); list.add(v); model.push(v); }
  const log = [];
  const fail = (what, got, want) => {
    throw new Error(`seed ${seed}: ${what} is ${String(got)}, expected ${String(want)} after ${log.slice(-6).join('; ')}`);
  };
  const check = (i, how) => {
    const got = how === 0 ? list.get(i) : list[i];
    if (got !== model[i]) fail(how === 0 ? `get(${i})` : `list[${i}]`, got, model[i]);
  };
  const checkSize = () => {
    if (list.size() !== model.length) fail('size()', list.size(), model.length);
    if (list.length !== model.length) fail('length', list.length, model.length);
  };
  for (let op = 0; op < ops; op++) {
    const k = r(), n = model.length, pick = () => (r() * n) | 0;
    if (k < 0.35 && n > 0) {                         // a loop over a run, as scripts write it
      const from = pick(), cnt = 1 + ((r() * 600) | 0), how = r() < 0.8 ? 0 : 1;
      log.push(`read ${from}+${cnt}`);
      for (let i = from; i < list.size() && i < from + cnt; i++) check(i, how);
    } else if (k < 0.42 && n > 0) {
      log.push('random reads');
      for (let j = 0; j < 6; j++) check(pick(), j & 1);
      checkSize();
    } else if (k < 0.55 && n > 0) {                  // calls on the list
      const i = pick(), v = value(r);
      log.push(`set ${i}`);
      if (r() < 0.5) list.set(i, v); else list[i] = v;
      model[i] = v;
    } else if (k < 0.65) {
      const v = value(r);
      log.push('add');
      list.add(v);
      model.push(v);
    } else if (k < 0.72 && n > 0) {
      const i = pick();
      log.push(`remove ${i}`);
      list['remove(int)'](i);
      model.splice(i, 1);
    } else if (k < 0.78) {                           // calls given the list
      log.push('reverse');
      Collections.reverse(list);
      model.reverse();
    } else if (k < 0.82 && n > 1) {
      const i = pick(), j = pick();
      log.push(`swap ${i} ${j}`);
      Collections.swap(list, i, j);
      const t = model[i]; model[i] = model[j]; model[j] = t;
    } else if (k < 0.9 && n > 0) {
      // Java calls JS once per element and stores each result when the
      // callback returns: inside it, the elements before the current one
      // are new
      log.push('replaceAll');
      let at = 0, pending = false, pv;
      list.replaceAll((x) => {
        if (pending) { model[at - 1] = pv; }
        for (let j = Math.max(0, at - 3); j < at + 6 && j < model.length; j++) if (j !== at) check(j, j & 1);
        pv = typeof x === 'number' ? x + 1 : x;
        pending = true;
        at++;
        return pv;
      });
      if (pending) model[at - 1] = pv;
    } else {
      log.push('size');
      checkSize();
    }
  }
  checkSize();
  for (let i = 0; i < model.length; i++) check(i, 0);
}

describe('JDK lists read in windows', () => {
  it('every read gives what the list holds (generated sequences)', () => {
    for (const [len, seed] of [[30, 1], [1500, 2], [700, 3], [5, 4]]) runSequence(len, seed, 200);
  });

  it('elements convert as a call converts them', () => {
    const big = java.math.BigInteger.TEN;
    const values = [1, -0, 2.5, 'str', null, true, jsObject, javaObject, big,
                    java.lang.Long.valueOf('9007199254740993'), java.lang.Long.valueOf(42),
                    java.lang.Character.valueOf('c'), java.lang.Short.valueOf(7), java.lang.Byte.valueOf(-3),
                    java.lang.Float.valueOf(0.5), new ArrayList(), [1, 2]];
    const lists = [new ArrayList(values), Arrays.asList(...values.filter((v) => v !== null)),
                   java.util.List.of(1, 'a', 2.5, true)];
    for (const l of lists) {
      const n = l.size();
      const viaCall = [];
      for (let i = 0; i < n; i++) viaCall.push(l['get(int)'](i));
      const viaWindow = [];
      for (let i = 0; i < n; i++) viaWindow.push(l.get(i));
      for (let i = 0; i < n; i++) {
        const a = viaWindow[i], b = viaCall[i];
        if (!(a === b || (typeof a === 'bigint' && a === b))) {
          throw new Error(`${l.getClass().getName()} element ${i}: ${String(a)} (${typeof a}) vs ${String(b)} (${typeof b})`);
        }
      }
    }
  });

  it('bad indexes throw what the call throws', () => {
    const l = new ArrayList([1, 2, 3]);
    for (let i = 0; i < 3; i++) l.get(i);
    thrown(() => l.get(3), Error, /Index 3 out of bounds for length 3/);
    thrown(() => l.get(-1), Error, /Index -1 out of bounds/);
    thrown(() => l.get(1.5), TypeError, /cannot convert number 1.5 to int/);
    thrown(() => l.get(), TypeError, /argument/);
    expect(l.get(-0)).toBe(1);
    expect(l.get(2)).toBe(3);
  });

  it('a subclass of ArrayList is called every time', () => {
    const calls = [];
    const Sub = Java.extend(ArrayList, { get(i) { calls.push(i); return Java.super(this).get(i); } });
    const s = new Sub();
    s.add('a'); s.add('b'); s.add('c');
    for (let i = 0; i < 3; i++) s.get(i);
    expect(calls).toEqual([0, 1, 2]);
  });

  it('other threads: a write before a join is seen', () => {
    const l = new ArrayList();
    for (let i = 0; i < 1000; i++) l.add(0);
    let s = 0;
    for (let i = 0; i < 1000; i++) s += l.get(i);
    const t = new java.lang.Thread(() => { for (let i = 0; i < 1000; i++) l.set(i, 1); });
    t.start();
    t.join();
    s = 0;
    for (let i = 0; i < l.size(); i++) s += l.get(i);
    expect(s).toBe(1000);
  });

  it('an Arrays.asList list sees JS writes to the Java array behind it (generated)', () => {
    // a JS write to a Java array is no call (aset), so it moves no
    // crossing; the list's window must not outlive it
    const WAYS = [
      (a, i, v) => { a[i] = v; },
      (a, i, v) => { Reflect.set(a, i, v); },
      (a, i, v) => { Object.defineProperty(a, i, { value: v }); },
      (a, i, v) => { Array.prototype.fill.call(a, v, i, i + 1); },
    ];
    const TYPES = [['java.lang.String', (r) => 's' + ((r() * 1000) | 0)],
                   ['java.lang.Object', (r) => (r() < 0.5 ? ((r() * 1000) | 0) : 'o' + ((r() * 100) | 0))],
                   ['java.lang.Integer', (r) => (r() * 1000) | 0]];
    for (const [type, gen] of TYPES) {
      for (let seed = 1; seed <= 6; seed++) {
        const r = rng(seed * 31 + type.length), len = [3, 40, 700, 1300][seed % 4];
        const model = [];
        for (let i = 0; i < len; i++) model.push(gen(r));
        const a = Java.to(model, type + '[]');
        const l = Arrays.asList(a);
        for (let op = 0; op < 120; op++) {
          const from = (r() * len) | 0, n = 1 + ((r() * 600) | 0), how = r() < 0.7;
          for (let i = from; i < l.size() && i < from + n; i++) {
            const got = how ? l.get(i) : l[i];
            if (got !== model[i]) throw new Error(`${type}[${len}] seed ${seed} op ${op}: list[${i}] is ${got}, expected ${model[i]}`);
            if (r() < 0.05) {                  // a JS write inside the run, to any element
              const j = (r() * len) | 0, v = gen(r);
              WAYS[(r() * WAYS.length) | 0](a, j, v);
              model[j] = v;
            }
          }
        }
      }
    }
  });

  it('get, size and length of one windowed class, called on a list of another, throw as the call does', () => {
    const lists = [new ArrayList([1, 2, 3]), Arrays.asList(4, 5, 6), java.util.List.of(7, 8, 9), java.util.List.of(1, 2)];
    for (const from of lists) {
      for (const on of lists) {
        if (from.getClass() === on.getClass()) continue;
        const proto = Object.getPrototypeOf(from);
        for (let round = 0; round < 3; round++) {
          for (let i = 0; i < on.size(); i++) on.get(i);   // on's window is open: a read through it needs no call
          for (let i = 0; i < on.size(); i++) thrown(() => from.get.call(on, i), TypeError, /receiver/);
          for (let i = 0; i < on.size(); i++) on.get(i);
          thrown(() => from.size.call(on), TypeError, /receiver/);
          thrown(() => Reflect.get(proto, 'length', on), TypeError);
        }
      }
    }
  });

  it('the get and size functions still work generically', () => {
    const l = new ArrayList([5, 6]);
    const get = l.get, size = l.size;
    expect(get.call(l, 1)).toBe(6);
    expect(size.call(l)).toBe(2);
    thrown(() => get.call({}, 0), TypeError);
    thrown(() => get.call(new java.util.LinkedList([1]), 0), TypeError);
  });
});

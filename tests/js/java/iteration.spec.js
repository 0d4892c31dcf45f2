'use strict';
// Iteration over Java collections (issue 12, "Speed" and point 4):
// for...of and Java.from move elements in batches (8, 32, 128, then 512 per
// crossing; Java.from 512), each element converted as a call's result is;
// a Map gives [key, value] pairs.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const ArrayList = java.util.ArrayList;

// [0, n) as a java.util.ArrayList of Integer
function ints(n) {
  const l = new ArrayList();
  for (let i = 0; i < n; i++) l.add(java.lang.Integer.valueOf(i));
  return l;
}

// An Iterable implemented in JS that counts the elements its iterators
// hand out; throwAt: the element at which next() throws.
function counting(n, throwAt) {
  const src = { taken: 0, made: 0 };
  src.iterable = new java.lang.Iterable({
    iterator() {
      src.made++;
      let i = 0;
      return new java.util.Iterator({
        hasNext() { return i < n; },
        next() {
          if (i === throwAt) { i++; throw new RangeError('no element ' + (i - 1)); }
          src.taken++;
          return i++;
        },
      });
    },
  });
  return src;
}

// the cumulative batch boundaries of for...of: 8, 8+32, 8+32+128, then +512
const EDGES = [8, 40, 168, 680, 1192];

describe('for...of over Java collections', () => {
  it('give every element once, in order, at and around each batch boundary', () => {
    const sizes = [0, 1];
    for (const e of EDGES) sizes.push(e - 1, e, e + 1);
    for (const n of sizes) {
      const seen = [];
      for (const x of ints(n)) seen.push(x);
      expect(seen.length).toBe(n);
      let ok = true;
      for (let i = 0; i < n; i++) if (seen[i] !== i) ok = false;
      expect(ok).toBe(true);
    }
  });

  it('convert elements as results: Strings and boxes to primitives, null, objects as their one wrapper', () => {
    const o = new java.lang.Object();
    const l = new ArrayList();
    l.add('s');
    l.add(java.lang.Integer.valueOf(7));
    l.add(java.lang.Double.valueOf(2.5));
    l.add(java.lang.Boolean.TRUE);
    l.add(java.lang.Character.valueOf('c'));
    l.add(java.lang.Long.valueOf(5));
    l.add(null);
    l.add(o);
    l.add(o);
    const seen = [...l];
    expect(seen.slice(0, 7)).toEqual(['s', 7, 2.5, true, 'c', 5, null]);
    expect(seen[7] === o).toBe(true);
    expect(seen[8] === o).toBe(true);
    // an object JS has not seen yet gets one wrapper, the same get() gives
    const fresh = new ArrayList();
    fresh.add(new java.lang.StringBuilder('x'));
    const [w] = [...fresh];
    expect(w === fresh.get(0)).toBe(true);
    expect(w.toString()).toBe('x');
  });

  it('take only the first batch from the iterator when the loop breaks at once', () => {
    const src = counting(10000);
    for (const x of src.iterable) { expect(x).toBe(0); break; }
    expect(src.made).toBe(1);
    expect(src.taken <= 8).toBe(true);
    expect(src.taken >= 1).toBe(true);
  });

  it('never advance past what the loop saw an iterator that is its own Iterable', () => {
    // an Iterable whose iterator() returns itself: the script holds the
    // iterator, so the loop takes one element per crossing
    let i = 0;
    let both;
    both = Java.implement([java.lang.Iterable, java.util.Iterator], {
      iterator() { return both; },
      hasNext() { return i < 100; },
      next() { return i++; },
    });
    for (const x of both) { if (x === 2) break; }
    expect(i).toBe(3);
    expect(both.next()).toBe(3);
  });

  it('hand out the elements before an iterator exception, then throw it', () => {
    const src = counting(100, 3);
    const seen = [];
    const e = thrown(() => { for (const x of src.iterable) seen.push(x); }, RangeError, /no element 3/);
    expect(e instanceof RangeError).toBe(true);
    expect(seen).toEqual([0, 1, 2]);
    // at the first element of a batch the exception comes at once
    const first = counting(100, 0);
    thrown(() => { for (const x of first.iterable) seen.push(x); }, RangeError, /no element 0/);
    expect(seen.length).toBe(3);
  });

  it('surface ConcurrentModificationException when the list changes during the loop', () => {
    const l = ints(1000);
    const seen = [];
    const e = thrown(() => {
      for (const x of l) {
        seen.push(x);
        if (x === 0) l.add(java.lang.Integer.valueOf(-1));
      }
    }, Error, /ConcurrentModificationException/);
    expect(e.javaException instanceof java.util.ConcurrentModificationException).toBe(true);
    // from the element Java's own loop throws it from: the next one
    expect(seen).toEqual([0]);
  });

  it('iterate a manual iterator protocol the same way, and stay done', () => {
    const it = ints(3)[Symbol.iterator]();
    expect(it.next()).toEqual({ done: false, value: 0 });
    expect(it.next()).toEqual({ done: false, value: 1 });
    expect(it.next()).toEqual({ done: false, value: 2 });
    expect(it.next()).toEqual({ done: true, value: undefined });
    expect(it.next()).toEqual({ done: true, value: undefined });
    expect(it[Symbol.iterator]() === it).toBe(true);
  });

  it('refuse the iterator function on a value that is not a Java object', () => {
    const f = ints(1)[Symbol.iterator];
    thrown(() => f.call({}), TypeError, /non-Java value/);
    thrown(() => f.call(undefined), TypeError, /non-Java value/);
  });

  it('iterate Java arrays (numbers for primitives)', () => {
    expect([...Java.to([4, 5, 6], 'int[]')]).toEqual([4, 5, 6]);
    expect([...Java.to(['a', null], 'java.lang.String[]')]).toEqual(['a', null]);
  });
});

describe('for...of over a java.util.Map', () => {
  it('give [key, value] pairs in the map order', () => {
    const m = new java.util.LinkedHashMap();
    const o = new java.lang.Object();
    m.put('a', 1);
    m.put('b', 'two');
    m.put('c', null);
    m.put('d', o);
    const seen = [];
    for (const [k, v] of m) seen.push([k, v]);
    expect(seen.slice(0, 3)).toEqual([['a', 1], ['b', 'two'], ['c', null]]);
    expect(seen[3][0]).toBe('d');
    expect(seen[3][1] === o).toBe(true);
    for (const kv of m) {
      expect(Array.isArray(kv)).toBe(true);
      expect(kv.length).toBe(2);
      break;
    }
  });

  it('make a JS Map and Array.from pairs from it', () => {
    const m = new java.util.TreeMap();
    m.put('x', 1);
    m.put('y', 2);
    const js = new Map(m);
    expect(js.get('x')).toBe(1);
    expect(js.get('y')).toBe(2);
    expect(Array.from(m)).toEqual([['x', 1], ['y', 2]]);
  });

  it('give pairs across batch boundaries', () => {
    const m = new java.util.HashMap();
    for (let i = 0; i < 700; i++) m.put(java.lang.Integer.valueOf(i), 'v' + i);
    let n = 0, ok = true;
    for (const [k, v] of m) { n++; if (v !== 'v' + k) ok = false; }
    expect(n).toBe(700);
    expect(ok).toBe(true);
  });

  it('give Map.Entry objects over entrySet(), keys over keySet(), values over values()', () => {
    const m = new java.util.LinkedHashMap();
    m.put('a', 1);
    m.put('b', 2);
    const entries = [];
    for (const e of m.entrySet()) entries.push(e.getKey() + '=' + e.getValue());
    expect(entries).toEqual(['a=1', 'b=2']);
    expect([...m.keySet()]).toEqual(['a', 'b']);
    expect([...m.values()]).toEqual([1, 2]);
  });

  it('surface ConcurrentModificationException when the map changes during the loop', () => {
    const m = new java.util.HashMap();
    for (let i = 0; i < 100; i++) m.put(java.lang.Integer.valueOf(i), i);
    thrown(() => { for (const [k] of m) m.put(java.lang.Integer.valueOf(1000 + k), 0); }, Error,
           /ConcurrentModificationException/);
  });
});

describe('Java.from', () => {
  it('copy lists at and around the batch size (512)', () => {
    for (const n of [0, 1, 511, 512, 513, 1025]) {
      const a = Java.from(ints(n));
      expect(Array.isArray(a)).toBe(true);
      expect(a.length).toBe(n);
      let ok = true;
      for (let i = 0; i < n; i++) if (a[i] !== i) ok = false;
      expect(ok).toBe(true);
    }
  });

  it('keep the identity of objects and convert Strings, boxes and null', () => {
    const o = new java.lang.Object();
    const l = new ArrayList();
    l.add(o);
    l.add('s');
    l.add(null);
    l.add(o);
    l.add(new java.lang.StringBuilder('q'));
    const a = Java.from(l);
    expect(a[0] === o && a[3] === o).toBe(true);
    expect(a[1]).toBe('s');
    expect(a[2]).toBe(null);
    expect(a[4] === l.get(4)).toBe(true);
  });

  it('copy Java arrays and sets', () => {
    expect(Java.from(Java.to([1, 2], 'int[]'))).toEqual([1, 2]);
    expect(Java.from(java.util.Set.of('only'))).toEqual(['only']);
  });

  it('refuse what is not a Java array or collection', () => {
    thrown(() => Java.from([1, 2]), TypeError, /Java\.from: expected a Java array or collection/);
    thrown(() => Java.from(), TypeError, /Java\.from/);
    thrown(() => Java.from(new java.lang.Object()), Error, /not an array or collection/);
  });
});

describe('results of one call site whose class changes', () => {
  it('convert each result by its own class, whatever the site gave before', () => {
    const o = new java.lang.Object();
    const l = new ArrayList();
    const add = (x) => l.add(x);
    add(java.lang.Integer.valueOf(-5));
    add('é€𝄞');
    add(java.lang.Double.valueOf(0.5));
    add(java.lang.Long.valueOf('9007199254740993'));
    add(java.lang.Long.valueOf(12));
    add(o);
    add(null);
    add(java.lang.Float.valueOf(1.5));
    add(java.lang.Short.valueOf(3));
    add(java.lang.Double.valueOf(NaN));
    const want = [-5, 'é€𝄞', 0.5, 9007199254740993n, 12, o, null, 1.5, 3, NaN];
    // runs of one class, then alternation, long enough for a site to settle
    const orders = [[0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 5, 5, 0], [5, 0, 1, 2, 3, 4, 6, 7, 8, 9]];
    for (let round = 0; round < 200; round++) {
      for (const order of orders) {
        for (const i of order) {
          const v = l.get(i);
          if (!Object.is(v, want[i])) throw new Error('element ' + i + ': ' + String(v) + ' in round ' + round);
        }
      }
    }
    expect(typeof l.get(3)).toBe('bigint');
    expect(l.get(5) === o).toBe(true);
  });

  it('read Object[] elements of changing classes (toArray) as their own values', () => {
    const o = new java.lang.Object();
    const l = new ArrayList();
    for (const x of [java.lang.Integer.valueOf(1), 's', java.lang.Double.valueOf(2.5), o, null,
                     java.lang.Long.valueOf('-9007199254740993')]) l.add(x);
    const a = l.toArray();
    const want = [1, 's', 2.5, o, null, -9007199254740993n];
    for (let round = 0; round < 200; round++) {
      for (const i of [0, 0, 1, 1, 2, 3, 3, 4, 5, 0]) {
        if (!Object.is(a[i], want[i])) throw new Error('element ' + i + ' in round ' + round);
      }
    }
    expect(a[3] === o).toBe(true);
  });

  it('keep returning the receiver of a builder as the same wrapper', () => {
    const sb = new java.lang.StringBuilder();
    for (let i = 0; i < 200; i++) expect(sb.append('x') === sb).toBe(true);
    expect(sb.length()).toBe(200);
  });
});

'use strict';
// JS numbers and strings passed where Java wants an Object (or a box, or a
// String): the box has the class and value the conversion rules give,
// whether it comes from the bridge's caches or is made for the call, and a
// string that keeps crossing (the string cache) arrives exactly.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const Objects = java.util.Objects;

describe('boxing of arguments', () => {
  it('box integers inside and outside the cached range with their value and class', () => {
    // Objects.toString(Object) shows the box's class: an Integer prints no ".0"
    for (const n of [0, 1, -1, 127, -128, 128, -129, 1023, 1024, 100000, 2147483647, -2147483648]) {
      expect(Objects.toString(n)).toBe(String(n));
      expect(Objects.hashCode(n)).toBe(n);
      expect(Objects.equals(n, n)).toBe(true);
      expect(Objects.equals(n, n + 1)).toBe(false);
    }
    // beyond int: a Long; fractions, -0 and NaN: a Double
    expect(Objects.toString(2 ** 40)).toBe('1099511627776');
    expect(Objects.hashCode(2 ** 40)).toBe(java.lang.Long.hashCode(2 ** 40));
    expect(Objects.equals(2 ** 40, 2 ** 40)).toBe(true);
    expect(Objects.toString(-(2 ** 53))).toBe('-9007199254740992');
    expect(Objects.toString(1.5)).toBe('1.5');
    expect(Objects.hashCode(0.1)).toBe(java.lang.Double.hashCode(0.1));
    expect(Objects.equals(0.1, 0.1)).toBe(true);
    expect(Objects.toString(-0)).toBe('-0.0');
    expect(Objects.toString(NaN)).toBe('NaN');
    expect(Objects.toString(true)).toBe('true');
    // a box is not the same value of another class
    expect(Objects.equals(5, 5.5)).toBe(false);
    expect(Objects.equals(2 ** 40, 2 ** 40 + 1)).toBe(false);
  });

  it('makes each box beyond the caches a new object with its own value, also across many boxes', () => {
    // more boxes of each class than one batch the bridge prepares (256):
    // each keeps its value and class, and no two are the same object
    const ids = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap());
    const list = new java.util.ArrayList();
    for (let i = 0; i < 700; i++) {
      list.add(5000); list.add(2 ** 40 + i); list.add(i + 0.5);
      ids.add(5000);
    }
    expect(ids.size()).toBe(700);
    let ints = 0, longs = 0, doubles = 0;
    for (let i = 0; i < 700; i++) {
      const a = list.get(3 * i), b = list.get(3 * i + 1), c = list.get(3 * i + 2);
      if (a === 5000) ints++;
      if (b === 2 ** 40 + i) longs++;
      if (c === i + 0.5) doubles++;
    }
    expect([ints, longs, doubles]).toEqual([700, 700, 700]);
    // Java's own toString shows each box's class (a Double would print 5000.0)
    expect(String(list.subList(2100 - 6, 2100))).toBe('[5000, 1099511628474, 698.5, 5000, 1099511628475, 699.5]');
    expect(new java.util.HashSet(list).size()).toBe(1 + 700 + 700);
  });

  it('give Java its own Integer objects for -128..127 (identity as Integer.valueOf)', () => {
    const { IntStream, Collectors } = java.util.stream;
    const F = java.util.function.Function;
    // a map built in Java from Integer.valueOf's boxes, keyed by identity
    const javaBoxed = IntStream.rangeClosed(-128, 127).boxed().collect(Collectors.toMap(F.identity(), F.identity()));
    const byIdentity = new java.util.IdentityHashMap(javaBoxed);
    for (const n of [-128, -1, 0, 5, 127]) expect(byIdentity.containsKey(n)).toBe(true);
    // equal by equals outside it, as Java's boxes are
    const m = new java.util.HashMap();
    for (const n of [128, 1024, 100000, -129, 2 ** 40, 0.5]) m.put(n, n);
    for (const n of [128, 1024, 100000, -129, 2 ** 40, 0.5]) expect(m.get(n)).toBe(n);
    expect(m.size()).toBe(6);
  });

  it('box numbers for declared box parameters and check them against the type', () => {
    const list = new java.util.ArrayList();
    list.add(100000);
    list.add(-5);
    expect(list.indexOf(100000)).toBe(0);
    expect(list.contains(-5)).toBe(true);
    // Integer.getInteger(String, Integer) and Long.getLong(String, Long)
    // return their default (the box passed) for a property that is not set
    expect(java.lang.Integer.getInteger('strait.no.such.property', 100000)).toBe(100000);
    expect(java.lang.Integer.getInteger('strait.no.such.property', -7)).toBe(-7);
    expect(java.lang.Long.getLong('strait.no.such.property', 5)).toBe(5);
    expect(java.lang.Long.getLong('strait.no.such.property', -(2 ** 40))).toBe(-(2 ** 40));
    thrown(() => java.lang.Integer.getInteger('strait.no.such.property', 1.5), TypeError, /getInteger/);
    thrown(() => java.lang.Integer.getInteger('strait.no.such.property', 2 ** 31), RangeError, /does not fit int/);
  });

  it('pass strings that keep crossing exactly, lone surrogates and NULs included', () => {
    const samples = ['x', '', '\0', 'a\0b', '\uD800', 'z\uDC00', '\uDBFF\uDFFF', '\u00e9\u4e2d'];
    const sb = new java.lang.StringBuilder();
    for (let round = 0; round < 4; round++) {
      for (const s of samples) {
        expect(Objects.toString(s)).toBe(s);
        expect(Objects.toString(s).length).toBe(s.length);
        sb.append(s);
      }
    }
    expect(sb.toString()).toBe(samples.join('').repeat(4));
  });

  it('keep a cached string argument intact while a callback crosses many other strings', () => {
    const key = 'cached-key';
    const m = new java.util.HashMap();
    for (let i = 0; i < 4; i++) m.put(key, i);     // the key is now in the string cache
    m.remove(key);
    const others = Array.from({ length: 2000 }, (_, i) => 'other-' + i);
    const sink = new java.util.ArrayList();
    const r = m.computeIfAbsent(key, (k) => {
      // every other string crosses twice in a row, which admits it to the cache
      for (const s of others) { sink.add(s); sink.add(s); }
      return k + '!';
    });
    expect(r).toBe('cached-key!');
    expect(m.get(key)).toBe('cached-key!');
    expect(String(m.keySet().iterator().next())).toBe(key);
    expect(sink.get(3999)).toBe('other-1999');
    // and a string passed as an element of an array next to a cached one
    const arr = java.util.Arrays.asList([key, ...others.slice(0, 300), key]);
    expect(arr.get(0)).toBe(key);
    expect(arr.get(301)).toBe(key);
    expect(arr.get(150)).toBe('other-149');
  });

  it('keep a cached string argument intact while a later argument runs JS that crosses many strings', () => {
    const fmt = '%s|%s|%s';
    for (let i = 0; i < 3; i++) java.lang.String.format(fmt, ['a', 'b', 'c']);   // cached now
    const others = Array.from({ length: 2000 }, (_, i) => 'o' + i);
    const sink = new java.util.ArrayList();
    const args = ['a', 'b'];
    // converting this element (after fmt was converted) admits 2000 strings
    Object.defineProperty(args, 2, {
      enumerable: true,
      get() {
        for (const s of others) { sink.add(s); sink.add(s); }
        return 'c';
      },
    });
    expect(java.lang.String.format(fmt, args)).toBe('a|b|c');
    expect(java.lang.String.format(fmt, ['x', 'y', 'z'])).toBe('x|y|z');
    expect(sink.size()).toBe(4000);
  });
});

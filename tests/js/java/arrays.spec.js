'use strict';
// Point 6: Java arrays, Java.array / from / to, iteration.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('arrays', () => {
  it('index Java arrays with bounds checks and conversion on store', () => {
    const a = Java.array('int', 3);
    expect(a.length).toBe(3);
    expect(a[0]).toBe(0);
    a[1] = 42;
    expect(a[1]).toBe(42);
    thrown(() => a[3], RangeError, /index 3 out of bounds for length 3/);
    thrown(() => { a[5] = 1; }, RangeError, /out of bounds/);
    thrown(() => { a[0] = 'x'; }, TypeError, /cannot convert string to int/);
    thrown(() => { a[0] = 2 ** 40; }, RangeError, /does not fit int/);
    expect(java.util.Arrays.toString(a)).toBe('[0, 42, 0]');
  });

  it('make arrays of classes and strings', () => {
    const s = Java.array(java.lang.String, 2);
    s[0] = 'x';
    expect(s[0]).toBe('x');
    expect(s[1]).toBe(null);
    expect(s.length).toBe(2);
    const o = Java.array('java.lang.Object', 1);
    o[0] = new java.util.ArrayList();
    expect(o[0] instanceof java.util.ArrayList).toBe(true);
    thrown(() => Java.array('int', -1), RangeError);
    thrown(() => Java.array('nope.Nope', 1), TypeError, /class nope\.Nope not found/);
  });

  it('copy with Java.from and Java.to', () => {
    const list = java.util.List.of('a', 'b');
    expect(Java.from(list)).toEqual(['a', 'b']);
    const ia = Java.to([1, 2, 3], 'int[]');
    expect(ia.length).toBe(3);
    expect(ia[2]).toBe(3);
    expect(Java.from(ia)).toEqual([1, 2, 3]);
    const da = Java.to([1.5], Java.type('double[]'));
    expect(da[0]).toBe(1.5);
    thrown(() => Java.to([1, 'x'], 'int[]'), TypeError, /element 1/);
    const oa = Java.to(['x', 1]);
    expect(oa.length).toBe(2);
  });

  it('iterate any Iterable and Map entries', () => {
    const list = java.util.List.of(1, 2, 3);
    const seen = [];
    for (const x of list) seen.push(x);
    expect(seen).toEqual([1, 2, 3]);
    expect([...new java.util.ArrayList(['p', 'q'])]).toEqual(['p', 'q']);
    const m = new java.util.LinkedHashMap();
    m.put('a', 1);
    m.put('b', 2);
    const keys = [];
    for (const e of m) keys.push(e.getKey() + '=' + e.getValue());
    expect(keys).toEqual(['a=1', 'b=2']);
    const arr = Java.to([4, 5], 'int[]');
    expect([...arr]).toEqual([4, 5]);
  });

  it('list indexes as keys', () => {
    const a = Java.array('int', 2);
    expect(Object.keys(a)).toEqual(['0', '1']);
    thrown(() => { a.length = 5; }, TypeError, /length/);
  });
});

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
    for (const [k, v] of m) keys.push(k + '=' + v);   // a Map gives [key, value] pairs
    expect(keys).toEqual(['a=1', 'b=2']);
    const arr = Java.to([4, 5], 'int[]');
    expect([...arr]).toEqual([4, 5]);
  });

  it('list indexes as keys', () => {
    const a = Java.array('int', 2);
    expect(Object.keys(a)).toEqual(['0', '1']);
    const seen = [];
    for (const k in a) seen.push(k);
    expect(seen.slice(0, 2)).toEqual(['0', '1']);
    thrown(() => { a.length = 5; }, TypeError, /length/);
    expect(a.length).toBe(2);
  });

  it('read and write every element type, with bounds and type errors', () => {
    const cases = [['boolean', true], ['byte', -7], ['char', 'q'], ['short', 300], ['int', -5],
      ['long', 2 ** 40], ['float', 1.5], ['double', 0.1], ['java.lang.String', 'str']];
    for (const [type, v] of cases) {
      const a = Java.array(type, 2);
      a[1] = v;
      expect(a[1]).toBe(v);
      thrown(() => a[2], RangeError, /index 2 out of bounds for length 2/);
      thrown(() => { a[2] = v; }, RangeError, /index 2 out of bounds for length 2/);
    }
    const b = Java.array('byte', 1);
    thrown(() => { b[0] = 128; }, RangeError, /does not fit byte/);
    const i = Java.array('int', 1);
    i[0] = 2.0;
    expect(i[0]).toBe(2);
    thrown(() => { i[0] = 2.5; }, TypeError);
    thrown(() => { i[0] = null; }, TypeError);
    expect(i[0]).toBe(2);
    const big = Java.array('long', 1);
    big[0] = 2n ** 62n;
    expect(big[0]).toBe(2n ** 62n);
    const objs = Java.array(java.lang.Integer, 1);
    thrown(() => { objs[0] = new java.util.ArrayList(); }, TypeError);
  });

  it('answer in, descriptors and non-index names like an indexed object', () => {
    const a = Java.to([7, 8, 9], 'int[]');
    expect(0 in a).toBe(true);
    expect('2' in a).toBe(true);
    expect(3 in a).toBe(false);
    expect('length' in a).toBe(true);
    expect('getClass' in a).toBe(true);
    expect('nope' in a).toBe(false);
    const d = Object.getOwnPropertyDescriptor(a, '1');
    expect(d.value).toBe(8);
    expect(d.enumerable).toBe(true);
    expect(Object.getOwnPropertyDescriptor(a, '3')).toBe(undefined);
    expect(Object.getOwnPropertyDescriptor(a, 'length').value).toBe(3);
    expect(Object.getOwnPropertyDescriptor(a, 'length').writable).toBe(false);
    thrown(() => { delete a[0]; }, TypeError);
    expect(a[0]).toBe(7);
    expect(a['01']).toBe(undefined);
    thrown(() => { a.note = 'x'; }, TypeError, /cannot set property note of int\[\]/);
    Object.defineProperty(a, 'note', { value: 'x', enumerable: true, writable: true, configurable: true });
    expect(a.note).toBe('x');
    expect(Object.keys(a)).toEqual(['0', '1', '2', 'note']);
    expect(a.getClass().getName()).toBe('[I');
    expect(Java.isJavaObject(a)).toBe(true);
    expect(Array.isArray(a)).toBe(false);
    expect(typeof a).toBe('object');
    expect(java.util.Arrays.stream(a).sum()).toBe(24);
    Object.defineProperty(a, 0, { value: 70 });
    expect(a[0]).toBe(70);
  });

  it('keep the same wrapper for the same array', () => {
    const holder = Java.array('int[]', 1);
    holder[0] = Java.array('int', 4);
    expect(holder[0]).toBe(holder[0]);
    expect(holder[0].length).toBe(4);
    holder[0][3] = 11;
    expect(holder[0][3]).toBe(11);
  });

  it('refuse preventExtensions, seal and freeze with a TypeError and stay whole', () => {
    for (const type of ['int', 'double', 'java.lang.String', 'java.lang.Object']) {
      for (const how of ['preventExtensions', 'seal', 'freeze']) {
        for (const via of ['Object', 'Reflect']) {
          if (via === 'Reflect' && how !== 'preventExtensions') continue;
          const a = Java.array(type, 3);
          thrown(() => (via === 'Object' ? Object : Reflect)[how](a), TypeError, /Java array/);
          const what = `${how} (${via}) of ${type}[]`;
          expect([what, Object.isExtensible(a), Object.isFrozen(a), Object.isSealed(a)]).toEqual([what, true, false, false]);
          expect(Object.keys(a)).toEqual(['0', '1', '2']);
          expect(Object.getOwnPropertyDescriptor(a, '1').writable).toBe(true);
          a[1] = a[0];
          expect(a[1]).toBe(a[0]);
        }
      }
    }
  });

  it('list every key up to a million elements, and refuse with a RangeError past it rather than list part', () => {
    const fits = Java.array('byte', 1000000);
    expect(Object.keys(fits).length).toBe(1000000);
    expect(Object.keys(fits)[999999]).toBe('999999');
    for (const type of ['byte', 'java.lang.Object']) {
      const big = Java.array(type, 1000001);
      thrown(() => Object.keys(big), RangeError, /keys of a Java array of 1000001 elements/);
      thrown(() => Reflect.ownKeys(big), RangeError, /1000001/);
      thrown(() => Object.assign({}, big), RangeError, /1000001/);
      thrown(() => { for (const k in big) break; }, RangeError, /1000001/);
      // what needs no list of keys still works
      expect(big.length).toBe(1000001);
      big[1000000] = type === 'byte' ? 7 : 'x';
      expect(big[1000000]).toBe(type === 'byte' ? 7 : 'x');
      expect(Array.from(big).length).toBe(1000001);
    }
  });
});

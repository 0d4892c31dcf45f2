'use strict';
// Bad input: every wrong call is a JS exception naming class, member and
// problem, and the runtime keeps working.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('bad input', () => {
  const sb = new java.lang.StringBuilder();
  const list = new java.util.ArrayList();

  it('wrong arity', () => {
    thrown(() => list.size(1), TypeError, /java\.util\.ArrayList\.size: expected 0 arguments, got 1/);
    thrown(() => java.lang.Math.max(1), TypeError, /java\.lang\.Math\.max: no overload takes 1 argument; candidates: max\(int,int\)/);
    thrown(() => new java.lang.StringBuilder(1, 2, 3), TypeError, /new java\.lang\.StringBuilder: no overload takes 3/);
  });

  it('wrong types', () => {
    thrown(() => list.get('x'), TypeError, /java\.util\.ArrayList\.get|get\(int\) argument 1: cannot convert string to int/);
    thrown(() => java.lang.Math.max('a', 'b'), TypeError, /java\.lang\.Math\.max: no overload matches/);
    thrown(() => sb.append(Symbol('s')), TypeError, /append/);
    thrown(() => java.lang.Integer.parseInt(() => 1), TypeError, /parseInt/);
  });

  it('null receiver and foreign receivers', () => {
    const size = list.size;
    thrown(() => size.call(null), TypeError, /java\.util\.ArrayList\.size: receiver is not a Java object/);
    thrown(() => size.call({}), TypeError, /receiver is not a Java object/);
    thrown(() => size.call(sb), TypeError, /receiver is a java\.lang\.StringBuilder, not a java\.util\.ArrayList/);
    thrown(() => size(), TypeError, /receiver/);
  });

  it('instance method on the class', () => {
    thrown(() => java.util.ArrayList.size(), TypeError, /java\.util\.ArrayList\.size is an instance method/);
    const proto = java.util.ArrayList.prototype;
    thrown(() => proto.size(), TypeError, /receiver is not a Java object/);
  });

  it('missing member', () => {
    // a missing member reads as undefined; calling it is JS's own TypeError
    thrown(() => list.frobnicate(), TypeError, /frobnicate is not a function/);
    expect(java.lang.Integer.NOPE).toBe(undefined);
    thrown(() => { list.frobnicate = 1; }, TypeError, /cannot set property frobnicate of java\.util\.ArrayList/);
    thrown(() => list['add(float,float)'], TypeError, /java\.util\.ArrayList has no method add\(float,float\); candidates: /);
  });

  it('storing into a final field', () => {
    thrown(() => { java.lang.Integer.MAX_VALUE = 0; }, TypeError, /final field java\.lang\.Integer\.MAX_VALUE/);
    java.lang.Integer.MIN_VALUE;
    thrown(() => { java.lang.Integer.MIN_VALUE = 0; }, TypeError);
  });

  it('index out of range', () => {
    const a = Java.array('double', 2);
    thrown(() => a[2], RangeError, /^double\[\] index 2 out of bounds for length 2$/);
    thrown(() => { a[100] = 1; }, RangeError, /out of bounds/);
    thrown(() => list.get(3), Error, /IndexOutOfBoundsException/);
  });

  it('value not fitting a primitive', () => {
    thrown(() => java.lang.Byte.toString(300), RangeError, /java\.lang\.Byte\.toString\(byte\) argument 1: number 300 does not fit byte/);
    thrown(() => new java.util.ArrayList(1.5), TypeError, /cannot convert number 1\.5 to int|no overload/);
    thrown(() => java.lang.Character.toChars(2 ** 32), RangeError, /does not fit int/);
    thrown(() => java.lang.Long.valueOf(2n ** 63n), RangeError, /does not fit long/);
  });

  it('keeps working afterwards', () => {
    list.add('ok');
    expect(list.get(0)).toBe('ok');
    expect(sb.append('fine').toString()).toBe('fine');
  });
});

'use strict';
// Point 5: numbers, longs and BigInt, chars, strings, null, boxes, JS arrays.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('conversions', () => {
  it('convert numbers to each primitive and box, refusing what does not fit', () => {
    expect(java.lang.Byte.valueOf(127)).toBe(127);
    thrown(() => java.lang.Byte.valueOf(128), RangeError, /does not fit byte/);
    expect(java.lang.Short.valueOf(-32768)).toBe(-32768);
    thrown(() => java.lang.Short.valueOf(40000), RangeError, /does not fit short/);
    expect(java.lang.Integer.valueOf(-5)).toBe(-5);
    thrown(() => java.lang.Integer.toHexString(2 ** 31), RangeError, /does not fit int/);
    thrown(() => java.lang.Integer.toHexString(1.5), TypeError, /int/);
    expect(java.lang.Long.valueOf(2 ** 40)).toBe(2 ** 40);
    expect(java.lang.Float.valueOf(1.5)).toBe(1.5);
    thrown(() => java.lang.Float.valueOf(1e300), RangeError, /does not fit float/);
    expect(java.lang.Double.valueOf(1e300)).toBe(1e300);
    thrown(() => java.lang.Integer.toHexString('12'), TypeError, /cannot convert string to int/);
  });

  it('keep -0, NaN and infinities through double parameters and results', () => {
    expect(Object.is(java.lang.Math.min(-0, 0), -0)).toBe(true);
    expect(java.lang.Double.isNaN(NaN)).toBe(true);
    expect(java.lang.Math.sqrt(-1)).toBeNaN();
    expect(java.lang.Double.POSITIVE_INFINITY).toBe(Infinity);
    expect(java.lang.Math.max(-Infinity, 1.5)).toBe(1.5);
    expect(java.lang.Integer.sum(2147483647, 0)).toBe(2147483647);
    expect(java.lang.Integer.sum(-2147483648, 0)).toBe(-2147483648);
    expect(java.lang.Math.abs(-7)).toBe(7);
    expect(java.lang.Boolean.logicalXor(true, false)).toBe(true);
  });

  it('return longs beyond 2^53 as BigInt and pass BigInt exactly', () => {
    expect(java.lang.Long.MAX_VALUE).toBe(9223372036854775807n);
    expect(java.lang.Long.parseLong('9007199254740993')).toBe(9007199254740993n);
    expect(java.lang.Long.parseLong('9007199254740992')).toBe(9007199254740992);
    expect(java.lang.Long.toString(9223372036854775807n)).toBe('9223372036854775807');
    expect(java.lang.Long.valueOf(-9223372036854775808n)).toBe(-9223372036854775808n);
    thrown(() => java.lang.Long.toString(2n ** 64n), RangeError, /does not fit long/);
    const big = new java.math.BigInteger('123456789012345678901234567890');
    expect(big.add(java.math.BigInteger.valueOf(10n)).toString()).toBe('123456789012345678901234567900');
    expect(java.math.BigInteger.valueOf(2n ** 62n).toString()).toBe(String(2n ** 62n));
  });

  it('convert char to and from one-character strings', () => {
    expect(java.lang.Character.toUpperCase('a')).toBe('A');
    expect(java.lang.Character.isDigit('7')).toBe(true);
    expect(new java.lang.StringBuilder('xyz').charAt(1)).toBe('y');
    thrown(() => java.lang.Character.isDigit('77'), TypeError);
  });

  it('pass strings exactly (UTF-16, lone surrogates, NUL)', () => {
    const s = 'a\u0000b\ud83d\ude00c\ud800d';
    const sb = new java.lang.StringBuilder(s);
    expect(sb.toString()).toBe(s);
    expect(sb.length()).toBe(s.length);
    expect(new java.lang.StringBuilder('é€').length()).toBe(2);
    expect(java.lang.String.valueOf('é€')).toBe('é€');
  });

  it('turn null and undefined into Java null', () => {
    const list = new java.util.ArrayList();
    list.add(null);
    list.add(undefined);
    expect(list.size()).toBe(2);
    expect(list.get(0)).toBe(null);
    expect(java.util.Objects.isNull(undefined)).toBe(true);
  });

  it('return boxed values as JS primitives', () => {
    const list = new java.util.ArrayList();
    list.add(1);
    list.add(2.5);
    list.add(true);
    list.add('s');
    list.add(java.lang.Character.valueOf('c'));
    list.add(java.lang.Long.valueOf(2n ** 60n));
    expect(list.get(0)).toBe(1);
    expect(list.get(1)).toBe(2.5);
    expect(list.get(2)).toBe(true);
    expect(list.get(3)).toBe('s');
    expect(list.get(4)).toBe('c');
    expect(list.get(5)).toBe(2n ** 60n);
    expect(typeof list.get(0)).toBe('number');
  });

  it('pass JS arrays where a Java array, List or Collection is expected', () => {
    expect(java.util.Arrays.toString([1, 2, 3])).toBe('[1, 2, 3]');
    expect(java.lang.String.join('-', ['a', 'b'])).toBe('a-b');
    const list = new java.util.ArrayList([1, 'x', true]);
    expect(list.size()).toBe(3);
    expect(list.get(1)).toBe('x');
    list.addAll(['y']);
    expect(list.size()).toBe(4);
    thrown(() => java.util.Arrays['toString(int[])']([1, 'x']), TypeError, /element 1/);
  });

  it('wrap results as their runtime class', () => {
    const list = java.util.Collections.unmodifiableList(new java.util.ArrayList());
    expect(list instanceof java.util.List).toBe(true);
    expect(list.getClass().getName().indexOf('Unmodifiable') >= 0).toBe(true);
    const o = java.util.List.of(1).iterator();
    expect(typeof o.hasNext).toBe('function');
  });
  it('passes repeated and changing strings exactly (the string cache)', () => {
    const sb = new java.lang.StringBuilder();
    let want = '';
    for (let i = 0; i < 6000; i++) {
      const s = i % 7 === 0 ? 'lit' : i % 5 === 0 ? 'q' : 'v' + (i % 300);
      sb.append(s);
      want += s;
      if (i % 1500 === 0) Java.__gc();
    }
    expect(sb.toString()).toBe(want);
    const up = [];
    for (let i = 0; i < 5; i++) up.push(java.lang.Character.toUpperCase('q'));
    expect(up.join('')).toBe('QQQQQ');
    const c = new java.lang.StringBuilder();
    for (let i = 0; i < 4; i++) c['append(char)']('z');
    expect(c.toString()).toBe('zzzz');
  });

  it('pass on what an array\'s length throws when it is copied to a Java array', () => {
    // a Proxy of an array is an array (Array.isArray), and its length is
    // whatever its get trap gives: its error must be the one thrown, not a
    // message about a length of NaN
    class Boom extends Error {}
    const lengths = [
      ['a get trap that throws', () => { throw new Boom('length trap'); }],
      ['a length whose valueOf throws', () => ({ valueOf() { throw new Boom('length valueOf'); } })],
      ['a length whose toPrimitive throws', () => ({ [Symbol.toPrimitive]() { throw new Boom('length toPrimitive'); } })],
    ];
    const copies = [
      ['Java.to int[]', (p) => Java.to(p, 'int[]')],
      ['Java.to Object[]', (p) => Java.to(p, 'java.lang.Object[]')],
      ['an Object[] parameter', (p) => java.util.Arrays.toString(p)],
      ['an int[] parameter', (p) => java.util.Arrays.stream(p)],
      ['a String[] varargs element', (p) => java.lang.String.join(',', p)],
      ['Java.implement\'s interface list', (p) => Java.implement(p, { run() {} })],
    ];
    for (const [what, len] of lengths) {
      for (const [how, copy] of copies) {
        const p = new Proxy([java.lang.Runnable, java.lang.Runnable],
                            { get(t, k, r) { return k === 'length' ? len() : Reflect.get(t, k, r); } });
        const e = thrown(() => copy(p));
        if (!(e instanceof Boom)) throw new Error(`${how} with ${what}: threw ${e && e.name}: ${e && e.message}`);
      }
    }
  });

  it('refuse an array whose length is no array length when it is copied to a Java array', () => {
    // only a Proxy of an array can claim such a length; none may be cut
    // down to an int in silence (2^32 + 1 read as 1, say)
    const copies = [
      ['Java.to int[]', (p) => Java.to(p, 'int[]')],
      ['an Object[] parameter', (p) => java.util.Arrays.toString(p)],
      ['Java.implement\'s interface list', (p) => Java.implement(p, { run() {} })],
    ];
    for (const len of [-1, NaN, 2 ** 32 + 1, 2 ** 53, 1e300, Infinity, -Infinity]) {
      for (const [how, copy] of copies) {
        const p = new Proxy([java.lang.Runnable], { get(t, k, r) { return k === 'length' ? len : Reflect.get(t, k, r); } });
        const e = thrown(() => copy(p));
        if (!(e instanceof RangeError || e instanceof TypeError)) {
          throw new Error(`${how} with length ${len}: threw ${e && e.name}: ${e && e.message}`);
        }
      }
    }
  });
});

'use strict';
// Point 4: overload resolution, explicit signatures, varargs.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('overloads', () => {
  it('pick by the JS type of the argument', () => {
    const sb = new java.lang.StringBuilder();
    sb.append(1);
    sb.append(1.5);
    sb.append('s');
    sb.append(true);
    expect(sb.toString()).toBe('11.5strue');
    // int-valued numbers pick int over double: 2 not 2.0
    expect(String.valueOf ? true : true).toBe(true);
    expect(java.lang.String.valueOf(2)).toBe('2');
    expect(java.lang.String.valueOf(2.5)).toBe('2.5');
    expect(java.lang.String.valueOf(true)).toBe('true');
    expect(java.lang.Math.abs(-3)).toBe(3);
    expect(java.lang.Math.abs(-3.5)).toBe(3.5);
  });

  it('pick a Java object parameter by class', () => {
    const sb = new java.lang.StringBuilder('x');
    const list = new java.util.ArrayList();
    list.add(sb);
    expect(list.get(0)).toBe(sb);
    const other = new java.lang.StringBuilder();
    other.append(sb);       // append(CharSequence) / append(StringBuffer) / append(Object)
    expect(other.toString()).toBe('x');
  });

  it('select one overload with an explicit signature', () => {
    const sb = new java.lang.StringBuilder();
    sb['append(char)']('x');
    sb['append(int)'](7);
    sb['append(java.lang.String)']('s');
    sb['append(String)']('t');
    expect(sb.toString()).toBe('x7st');
    const list = new java.util.ArrayList();
    list.add('a');
    list.add('b');
    list.add('c');
    list['remove(int)'](0);
    expect(list.toString()).toBe('[b, c]');
    list['remove(java.lang.Object)']('c');
    expect(list.toString()).toBe('[b]');
    expect(java.lang.Math['max(long,long)'](1, 2)).toBe(2);
  });

  it('cache the choice per argument kinds', () => {
    const sb = new java.lang.StringBuilder();
    for (let i = 0; i < 100; i++) sb.append(i % 2 ? 1 : 'a');
    expect(sb.length()).toBe(100);
  });

  it('list the candidates when nothing matches', () => {
    const sb = new java.lang.StringBuilder();
    // ({} now passes as a JsObject to append(Object); a symbol fits nothing)
    const e = thrown(() => sb.append(Symbol('s')), TypeError, /java\.lang\.StringBuilder\.append/);
    expect(e.message.indexOf('append(char)') >= 0).toBe(true);
    thrown(() => sb.insert(), TypeError, /no overload takes 0 arguments; candidates: .*insert\(int,/);
    thrown(() => sb['append(bogus)']('x'), TypeError, /has no method append\(bogus\); candidates: /);
  });

  it('report an ambiguous null', () => {
    const out = new java.io.PrintStream(new java.io.ByteArrayOutputStream());
    thrown(() => out.println(null), TypeError, /ambiguous/);
    out['println(java.lang.String)'](null);
  });

  it('accept varargs spread and as an explicit array', () => {
    expect(java.lang.String.format('%s-%d', 'a', 3)).toBe('a-3');
    expect(java.lang.String.format('none')).toBe('none');
    expect(java.lang.String.format('%s/%s', ['x', 'y'])).toBe('x/y');
    expect(java.util.Arrays.asList(1, 2, 3).size()).toBe(3);
    expect(java.util.List.of('a', 'b').toString()).toBe('[a, b]');
  });
});

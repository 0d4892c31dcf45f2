'use strict';
// The bridge's JS helpers take their built-ins from a fresh realm, so what
// a script replaces before its first use of Java changes nothing either
// (intrinsics.spec.js replaces them after the bridge started). This file
// must not touch Java before the replacements below.
const saved = {
  get: Reflect.get, set: Reflect.set, apply: Reflect.apply, has: Reflect.has, ownKeys: Reflect.ownKeys,
  defineProperty: Object.defineProperty, keys: Object.keys, create: Object.create,
  getPrototypeOf: Object.getPrototypeOf, Proxy: globalThis.Proxy,
};
const { describe, it, expect } = require('../runner');
const replaced = [];
for (const [holder, names] of [[Reflect, ['get', 'set', 'apply', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'defineProperty', 'deleteProperty']],
  [Object, ['create', 'getPrototypeOf', 'defineProperty']]]) {
  for (const n of names) {
    const orig = holder[n];
    holder[n] = function () { replaced.push(n); return orig.apply(this, arguments); };
  }
}
globalThis.Proxy = function () { replaced.push('Proxy'); throw new Error('replaced Proxy'); };

describe('built-ins replaced before the bridge starts', () => {
  it('wrappers, arrays, catch-alls and constructors never call the replacements', () => {
    replaced.length = 0;   // (the spec runner itself may use them)
    const list = new java.util.ArrayList();
    list.add('a');
    const ia = Java.array('int', 3);
    ia[2] = 5;
    const sb = new java.lang.StringBuilder('x');
    sb['append(char)']('y');
    const of2 = java.util.List['of(java.lang.Object,java.lang.Object)'](1, 2).size();
    const got = [list.get(0), ia[2], ia[0], ia.length, String(sb), 'size' in list, of2, Object.keys(list).length > 3];
    const calls = replaced.slice();
    expect(got).toEqual(['a', 5, 0, 3, 'xy', true, 2, true]);
    expect(calls).toEqual([]);
  });

  it('errors the bridge throws are this realm\'s errors', () => {
    let e1, e2;
    try { java.lang.Math.abs('x'); } catch (e) { e1 = e; }
    try { Java.array('int', 1)[3]; } catch (e) { e2 = e; }
    expect(e1 instanceof TypeError).toBe(true);
    expect(e2 instanceof RangeError).toBe(true);
    Object.assign(Reflect, { get: saved.get, set: saved.set, apply: saved.apply, has: saved.has, ownKeys: saved.ownKeys });
  });
});

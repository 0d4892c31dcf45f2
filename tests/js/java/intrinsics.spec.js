'use strict';
// The bridge's JS helpers (class constructors, catch-alls, array Proxies,
// wrappers, iteration, the Object.keys replacement) use only intrinsics
// captured when the bridge starts, syntax and prototype-less objects, so a
// script replacing built-ins cannot change what they do. The old helper
// called String.prototype.charCodeAt at each access: after a script
// replaced it, ia[2] = 5 wrote element 0.
//
// The test replaces every function-valued own property of the built-ins
// the helpers could reach (generated from the objects themselves), adds
// property-descriptor fields and Proxy trap names to Object.prototype,
// then exercises wrappers, arrays, catch-alls, constructors and
// iteration with syntax only, restores everything and compares.
const { describe, it, expect } = require('../runner');

const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]());
const HOLDERS = [
  ['Function.prototype', Function.prototype], ['Reflect', Reflect], ['Object', Object],
  ['Object.prototype', Object.prototype], ['String.prototype', String.prototype], ['String', String],
  ['Array.prototype', Array.prototype], ['Array', Array], ['Number', Number], ['Number.prototype', Number.prototype],
  ['Math', Math], ['Set.prototype', Set.prototype], ['Map.prototype', Map.prototype], ['Symbol', Symbol],
  ['JSON', JSON], ['ArrayIterator.prototype', ArrayIteratorProto], ['globalThis', globalThis],
];
// Globals whose replacement would only change the test's own error classes.
const KEEP_GLOBAL = new Set(['Error', 'TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'Promise',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'require', 'console']);
// Names the engine reads from descriptors and Proxy handlers: added to
// Object.prototype, they would reach any such object with a prototype.
const POISON = ['get', 'set', 'value', 'writable', 'enumerable', 'configurable', 'has', 'ownKeys',
  'deleteProperty', 'defineProperty', 'getOwnPropertyDescriptor', 'apply', 'construct', 'getPrototypeOf',
  'setPrototypeOf', 'isExtensible', 'preventExtensions', '0', '1', 'length'];

// [holder, key, original descriptor] for everything replaced or added.
function plan() {
  const out = [];
  for (const [hname, h] of HOLDERS) {
    const keys = Reflect.ownKeys(h);
    for (const k of keys) {
      if (k === 'constructor' || k === 'prototype') continue;
      if (hname === 'globalThis' && (typeof k !== 'string' || KEEP_GLOBAL.has(k) || k === 'java' || k === 'Java' ||
                                     k === 'globalThis' || k === 'javax' || k === 'Packages')) continue;
      const d = Object.getOwnPropertyDescriptor(h, k);
      if (!d || !('value' in d) || typeof d.value !== 'function' || !d.configurable) continue;
      out.push([h, k, d]);
    }
  }
  for (const k of POISON) out.push([Object.prototype, k, Object.getOwnPropertyDescriptor(Object.prototype, k)]);
  return out;
}

describe('bridge helpers and replaced built-ins', () => {
  it('wrappers, arrays, catch-alls, constructors and iteration ignore replaced built-ins', () => {
    // the bridge starts here, with the built-ins intact
    const ia = Java.to([1, 2, 3], 'int[]');
    const sa = Java.to(['a', 'b'], 'java.lang.String[]');
    const list = new java.util.ArrayList();
    list.add('p');
    list.add('q');
    const bridgeKeys = Object.keys;
    const steps = plan();
    const defineProperty = Object.defineProperty;
    let hits = 0;
    const res = [];
    let n = 0;
    for (let i = 0; i < steps.length; i++) {
      defineProperty(steps[i][0], steps[i][1], {
        value: function replaced() { hits++; throw new Error('a replaced built-in was called'); },
        writable: true, enumerable: false, configurable: true, __proto__: null,
      });
    }
    let failure = null;
    try {
      // array wrappers: index reads and writes, length, in, for-in, delete
      ia[2] = 5;
      ia[0] = 9;
      res[n++] = ia[0]; res[n++] = ia[1]; res[n++] = ia[2]; res[n++] = ia.length;
      res[n++] = '1' in ia; res[n++] = '7' in ia;
      let keys = 0;
      for (const k in ia) if (k === '0' || k === '1' || k === '2') keys++;
      res[n++] = keys;
      sa[1] = 'z';
      res[n++] = sa[1];
      let deleted;
      try { delete ia[0]; deleted = 'no error'; } catch (e) { deleted = e instanceof TypeError; }
      res[n++] = deleted;
      // constructors with 0 to 5 arguments (5: the helper's general case)
      const sb = new java.lang.StringBuilder();
      const big = new java.math.BigInteger('ff', 16);
      const t4 = new java.lang.Thread(null, null, 't4', 0);
      const t5 = new java.lang.Thread(null, null, 't5', 0, true);
      res[n++] = sb instanceof java.lang.StringBuilder;
      res[n++] = big.intValue();
      res[n++] = t4.getName() === 't4' && t5.getName() === 't5';
      // methods, catch-all: explicit signature, missing member (undefined), `in`
      sb.append(1);
      sb['append(java.lang.String)']('ab');
      res[n++] = sb.length();
      let missing;
      try { missing = sb.noSuchMember; } catch (e) { missing = e instanceof TypeError; }
      res[n++] = missing;
      res[n++] = 'insert(int,char)' in sb;
      res[n++] = 'noSuchMember' in sb;
      // static final field (its getter redefines itself) and statics
      res[n++] = java.lang.Integer.MAX_VALUE;
      res[n++] = java.lang.Math.max(2, 3);
      // iteration of a Java Iterable
      let joined = '';
      for (const x of list) joined += x;
      res[n++] = joined;
      // Object.keys (the bridge's) of a wrapper lists its members
      const ks = bridgeKeys(sb);
      let hasAppend = false;
      for (let i = 0; i < ks.length; i++) if (ks[i] === 'append') hasAppend = true;
      res[n++] = hasAppend;
      // an interface implemented by a JS object
      let ran = false;
      new java.lang.Runnable({ run() { ran = true; } }).run();
      res[n++] = ran;
      // a Java exception
      let jex;
      try { java.lang.Integer.parseInt('x'); } catch (e) { jex = e instanceof Error; }
      res[n++] = jex;
    } catch (e) {
      failure = e;
    } finally {
      for (let i = steps.length - 1; i >= 0; i--) {
        const h = steps[i][0], k = steps[i][1], d = steps[i][2];
        if (d) defineProperty(h, k, d);
        else delete h[k];
      }
    }
    if (failure) throw failure;
    expect(steps.length).toBeGreaterThan(250);
    expect(hits).toBe(0);
    expect(res).toEqual([9, 2, 5, 3, true, false, 3, 'z', true, true, 255, true, 3, undefined, true, false,
                         2147483647, 3, 'pq', true, true, true]);
  });
});

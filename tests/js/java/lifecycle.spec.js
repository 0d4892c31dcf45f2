'use strict';
// Point 9: wrappers let their Java objects go, and hold them while reachable.
// Java.__gc() forces a full JSC collection; Java.__stats() flushes the queue
// of collected wrappers and reports {live wrappers, objects the Java table holds}.
const { describe, it, expect } = require('../runner');

describe('lifecycle', () => {
  it('releases Java objects whose wrappers were collected', () => {
    const O = java.lang.Object;
    const before = Java.__stats();
    (function churn() {
      for (let i = 0; i < 50000; i++) new O();
    })();
    Java.__gc();
    const after = Java.__stats();
    expect(after.live).toBe(after.javaHeld);
    expect(after.live - before.live).toBeLessThan(2000);
  });

  it('releases Java arrays whose wrappers were collected, and keeps reachable ones', () => {
    const before = Java.__stats();
    const kept = Java.array('int', 3);
    kept[2] = 9;
    (function churn() {
      for (let i = 0; i < 30000; i++) {
        const a = Java.array('int', 2);
        a[1] = i;
      }
    })();
    Java.__gc();
    const after = Java.__stats();
    expect(after.live).toBe(after.javaHeld);
    expect(after.live - before.live).toBeLessThan(2000);
    expect(kept[2]).toBe(9);
    expect(java.util.Arrays.toString(kept)).toBe('[0, 0, 9]');
  });

  it('keeps a Java object alive while JS reaches its wrapper', () => {
    const list = new java.util.ArrayList();
    list.add(new java.lang.StringBuilder('kept'));
    const sb = list.get(0);
    list.clear();
    Java.__gc();
    Java.__stats();
    for (let i = 0; i < 20000; i++) new java.lang.Object();
    Java.__gc();
    expect(sb.toString()).toBe('kept');
    list.add(sb);
    expect(list.get(0)).toBe(sb);
  });

  it('gives a collected object a fresh wrapper when Java returns it again', () => {
    const list = new java.util.ArrayList();
    (function () {
      list.add(new java.lang.StringBuilder('again'));
    })();
    Java.__gc();
    Java.__stats();
    const w = list.get(0);
    expect(w.toString()).toBe('again');
    expect(list.get(0)).toBe(w);
  });

  it('survives wrappers made by JS getters while an argument is converted', () => {
    const arr = [];
    for (let i = 0; i < 3; i++) {
      Object.defineProperty(arr, i, {
        get() {
          for (let k = 0; k < 5000; k++) new java.lang.Object();
          return 'x' + i;
        },
      });
    }
    arr.length = 3;
    const sb = new java.lang.StringBuilder('a');
    const list = new java.util.ArrayList();
    list.add(sb);
    expect(java.lang.String.join('-', arr)).toBe('x0-x1-x2');
    // an element of a copy: the getters run while the argument is converted
    expect(java.util.Arrays.deepToString(Java.to([arr], 'java.lang.Object[]'))).toBe('[[x0, x1, x2]]');
    // an Object slot gets the live JsArray: the getters run when Java reads
    // it (String(arr) through JsValue.toString)
    const ja = Java.array('java.lang.Object', 1);
    ja[0] = arr;
    expect(ja[0] === arr).toBe(true);
    expect(java.util.Arrays.deepToString(ja)).toBe('[x0,x1,x2]');
    expect(list.get(0)).toBe(sb);
  });

  it('does not grow the table with repeated returns of the same objects', () => {
    const list = java.util.List.of(new java.lang.Object(), new java.lang.Object());
    const before = Java.__stats().javaHeld;
    for (let i = 0; i < 10000; i++) list.get(i & 1);
    expect(Java.__stats().javaHeld - before).toBeLessThan(3);
  });
});

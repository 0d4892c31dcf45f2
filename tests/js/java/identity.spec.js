'use strict';
// Point 8: identity, toString, Java.isJavaObject.
const { describe, it, expect } = require('../runner');

describe('identity', () => {
  it('returns the same wrapper for the same Java object', () => {
    const list = new java.util.ArrayList();
    list.add(new java.lang.Object());
    expect(list.get(0) === list.get(0)).toBe(true);
    expect(java.lang.System.out === java.lang.System.out).toBe(true);
    list.add(list);
    expect(list.get(1)).toBe(list);
  });

  it('hands back the wrapper `new` made once Java returns the object', () => {
    const list = new java.util.ArrayList();
    const made = [];
    for (let i = 0; i < 3000; i++) {
      const o = new java.lang.Object();
      made.push(o);
      list.add(o);
    }
    for (let i = 0; i < 3000; i += 499) expect(list.get(i)).toBe(made[i]);
    const m = new java.util.HashMap();
    const k = new java.lang.StringBuilder('k');
    m.put(k, 1);
    expect(m.keySet().iterator().next()).toBe(k);
    Java.__gc();
    const stats = Java.__stats();
    expect(stats.live).toBe(stats.javaHeld);
  });

  it('uses Java toString for String() and template literals', () => {
    const list = java.util.List.of(1, 2);
    expect(String(list)).toBe('[1, 2]');
    expect(`${list}`).toBe('[1, 2]');
    expect('' + new java.lang.StringBuilder('q')).toBe('q');
  });

  it('tells Java objects from JS values', () => {
    expect(Java.isJavaObject(new java.util.ArrayList())).toBe(true);
    expect(Java.isJavaObject({})).toBe(false);
    expect(Java.isJavaObject('s')).toBe(false);
    expect(Java.isJavaObject(java.util.ArrayList)).toBe(false);
    expect(Java.isJavaObject(Java.array('int', 1))).toBe(true);
  });

  it('keeps a wrapper\'s link to its Java object out of copies and deletes', () => {
    'use strict';
    const list = new java.util.ArrayList();
    list.add(new java.lang.Object());
    for (const w of [list, list.get(0)]) {
      const copy = { ...w };
      expect(Java.isJavaObject(copy)).toBe(false);
      expect(Object.getOwnPropertySymbols(copy).length).toBe(0);
      expect(Object.keys(Object.assign({}, w)).length).toBe(0);
      for (const s of Object.getOwnPropertySymbols(w)) expect(() => { delete w[s]; }).toThrow(TypeError);
    }
    Java.__gc();
    expect(list.size()).toBe(1);
    expect(list.get(0)).toBe(list.get(0));
  });

  it('compares with Java equals', () => {
    const a = java.util.List.of(1);
    const b = java.util.List.of(1);
    expect(a === b).toBe(false);
    expect(a.equals(b)).toBe(true);
    expect(a.hashCode()).toBe(b.hashCode());
  });
});

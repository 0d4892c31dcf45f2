'use strict';
// Issue 4, point 1: Java interfaces implemented in JS.
const { describe, it, expect } = require('../runner');

describe('interfaces implemented in JS', () => {
  it('new Runnable({run}) runs when Java calls run()', () => {
    let ran = 0;
    const r = new java.lang.Runnable({ run() { ran++; } });
    r.run();
    r.run();
    expect(ran).toBe(2);
    expect(r instanceof java.lang.Runnable).toBe(true);
  });

  it('a Comparator sorts a Java list', () => {
    const list = new java.util.ArrayList();
    [5, 3, 9, 1].forEach((x) => list.add(x));
    list.sort(new java.util.Comparator({ compare(a, b) { return a - b; } }));
    expect(String(list)).toBe('[1, 3, 5, 9]');
  });

  it('default methods JS does not define run their Java default', () => {
    const c = new java.util.Comparator({ compare(a, b) { return a - b; } });
    const list = new java.util.ArrayList();
    [2, 7, 4].forEach((x) => list.add(x));
    list.sort(c.reversed());
    expect(String(list)).toBe('[7, 4, 2]');
  });

  it('a member that is not a function is a TypeError at once', () => {
    expect(() => new java.lang.Runnable({ run: 42 })).toThrow(TypeError);
    try {
      new java.lang.Runnable({ run: 'x' });
    } catch (e) {
      expect(e.message).toMatch(/java\.lang\.Runnable.*'run'.*a string/);
    }
  });

  it('a method JS left out throws UnsupportedOperationException in Java', () => {
    const it2 = new java.util.Iterator({ hasNext() { return false; } });
    let e = null;
    try { it2.next(); } catch (x) { e = x; }
    expect(e).not.toBeNull();
    expect(e.message).toMatch(/UnsupportedOperationException/);
    expect(e.message).toMatch(/java\.util\.Iterator\.next/);
  });

  it('a return value that does not fit the declared type is a clear error', () => {
    const c = new java.util.Comparator({ compare() { return 'oops'; } });
    const list = new java.util.ArrayList();
    list.add(1); list.add(2);
    let e = null;
    try { list.sort(c); } catch (x) { e = x; }
    expect(e).not.toBeNull();
    expect(e.message).toMatch(/compare must return an int/);
    expect(1 + 1).toBe(2);
  });

  it('a JS function implements a functional interface with new', () => {
    const f = new java.util.function.Function((x) => x * 2);
    expect(f.apply(21)).toBe(42);
    const s = new java.util.function.Supplier(() => 'hi');
    expect(s.get()).toBe('hi');
  });

  it('a Java thread runs a JS Runnable while this thread waits in Java', () => {
    let where = null;
    const t = new java.lang.Thread(new java.lang.Runnable({
      run() { where = String(java.lang.Thread.currentThread().getName()); },
    }), 'js-worker');
    t.start();
    t.join();
    expect(where).toBe('js-worker');
  });

  it('Java.implement([I1, I2], obj) implements several interfaces at once', () => {
    const both = Java.implement([java.lang.Runnable, java.util.function.Supplier], {
      run() { this.ran = true; },
      get() { return 'got'; },
    });
    expect(both instanceof java.lang.Runnable).toBe(true);
    expect(both instanceof java.util.function.Supplier).toBe(true);
    expect(both.get()).toBe('got');
    const one = Java.implement(java.lang.Runnable, () => {});
    one.run();
    expect(() => Java.implement(java.lang.String, {})).toThrow(TypeError);
  });
});

'use strict';
// Issue 4, point 1: a JS function wherever a functional interface is expected.
const { describe, it, expect } = require('../runner');

describe('JS functions as functional interfaces', () => {
  it('list.sort((a, b) => a - b)', () => {
    const list = new java.util.ArrayList();
    [5, 3, 9, 1].forEach((x) => list.add(x));
    list.sort((a, b) => a - b);
    expect(String(list)).toBe('[1, 3, 5, 9]');
  });

  it('list.forEach(x => ...) and streams', () => {
    const list = new java.util.ArrayList();
    [1, 2, 3, 4].forEach((x) => list.add(x));
    const seen = [];
    list.forEach((x) => seen.push(x));
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(list.stream().map((x) => x * 10).filter((x) => x > 20).count()).toBe(2);
  });

  it('new java.lang.Thread(() => ...) runs the function on a Java thread', () => {
    let name = null;
    const t = new java.lang.Thread(() => { name = String(java.lang.Thread.currentThread().getName()); }, 'fn-thread');
    t.start();
    t.join();
    expect(name).toBe('fn-thread');
  });

  it('map.computeIfAbsent(key, k => ...)', () => {
    const m = new java.util.HashMap();
    m.computeIfAbsent('k', (k) => k + '!');
    expect(m.get('k')).toBe('k!');
  });

  it('an error thrown by the function comes back to the JS caller as the same object', () => {
    const list = new java.util.ArrayList();
    list.add(1); list.add(2);
    const boom = new Error('in comparator');
    let caught = null;
    try { list.sort(() => { throw boom; }); } catch (e) { caught = e; }
    expect(caught === boom).toBe(true);
  });

  it('a function returning the wrong type fails clearly', () => {
    const list = new java.util.ArrayList();
    list.add(1); list.add(2);
    let caught = null;
    try { list.sort(() => 'not a number'); } catch (e) { caught = e; }
    expect(caught).not.toBeNull();
    expect(caught.message).toMatch(/compare must return an int/);
  });
});

'use strict';
// Point 2: classes as constructors, statics, prototype chain, instanceof.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('classes', () => {
  it('construct with new', () => {
    const list = new java.util.ArrayList();
    expect(list.size()).toBe(0);
    const sb = new java.lang.StringBuilder('a');
    expect(sb.toString()).toBe('a');
    expect(new java.util.ArrayList(20).size()).toBe(0);
  });

  it('call static methods and read static fields', () => {
    expect(java.lang.Math.max(1, 2)).toBe(2);
    expect(java.lang.Math.max(1.5, 2.5)).toBe(2.5);
    expect(java.lang.Integer.MAX_VALUE).toBe(2147483647);
    expect(java.lang.Integer.parseInt('42')).toBe(42);
    expect(typeof java.lang.System.out.println).toBe('function');
  });

  it('mirror the Java class chain in the prototype chain', () => {
    const list = new java.util.ArrayList();
    expect(Object.getPrototypeOf(list)).toBe(java.util.ArrayList.prototype);
    let p = java.util.ArrayList.prototype;
    const chain = [];
    while (p) {
      if (Object.prototype.hasOwnProperty.call(p, 'constructor')) chain.push(p.constructor.name);
      p = Object.getPrototypeOf(p);
    }
    expect(chain.indexOf('java.util.ArrayList')).toBe(0);
    expect(java.util.AbstractList.prototype.isPrototypeOf(list)).toBe(true);
    expect(java.lang.Object.prototype.isPrototypeOf(list)).toBe(true);
  });

  it('support instanceof for classes and interfaces', () => {
    const list = new java.util.ArrayList();
    expect(list instanceof java.util.ArrayList).toBe(true);
    expect(list instanceof java.util.AbstractList).toBe(true);
    expect(list instanceof java.util.List).toBe(true);
    expect(list instanceof java.util.Collection).toBe(true);
    expect(list instanceof java.lang.Object).toBe(true);
    expect(list instanceof java.util.Map).toBe(false);
    expect({} instanceof java.util.List).toBe(false);
    expect(42 instanceof java.lang.Object).toBe(false);
  });

  it('refuse new on interfaces and abstract classes', () => {
    thrown(() => new java.util.List(), TypeError, /interface java\.util\.List/);
    thrown(() => new java.util.AbstractList(), TypeError, /abstract class java\.util\.AbstractList/);
  });

  it('can be extended by JS classes (the JS object becomes the wrapper)', () => {
    class MyList extends java.util.ArrayList {
      constructor() {
        super();
        this.extra = 1;
      }
      sizePlus() {
        return this.size() + this.extra;
      }
    }
    const m = new MyList();
    m.add('a');
    expect(m.sizePlus()).toBe(2);
    expect(m instanceof java.util.List).toBe(true);
    expect(m instanceof MyList).toBe(true);
    const holder = new java.util.ArrayList();
    holder.add(m);
    expect(holder.get(0)).toBe(m);
  });

  it('require new for constructors', () => {
    thrown(() => java.util.ArrayList(), TypeError, /java\.util\.ArrayList must be called with new/);
  });

  it('make method functions that are not constructors', () => {
    const list = new java.util.ArrayList();
    thrown(() => new list.size(), TypeError);
    expect(typeof list.size).toBe('function');
    expect(list.size.call(list)).toBe(0);
  });
  it('constructs String and boxes as JS values, not wrappers', () => {
    const s = new java.lang.String('ab');
    expect(s instanceof String).toBe(true);
    expect(Java.isJavaObject(s)).toBe(false);
    expect(String(s)).toBe('ab');
    expect(new java.lang.Integer(5) + 1).toBe(6);
    expect(Java.isJavaObject(new java.lang.Object())).toBe(true);
  });
});

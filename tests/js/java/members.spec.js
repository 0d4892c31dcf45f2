'use strict';
// Point 3: instance methods and fields, static finals, enumeration.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('members', () => {
  it('read and write public instance fields', () => {
    const p = new java.awt.Point(1, 2);
    expect(p.x).toBe(1);
    expect(p.y).toBe(2);
    p.x = 10;
    expect(p.x).toBe(10);
    expect(p.getX()).toBe(10);
    thrown(() => { p.x = 'no'; }, TypeError, /java\.awt\.Point\.x/);
  });

  it('turn a static final into a read-only data property after the first read', () => {
    const I = java.lang.Integer;
    const before = Object.getOwnPropertyDescriptor(I, 'MIN_VALUE');
    expect(typeof before.get).toBe('function');
    expect(I.MIN_VALUE).toBe(-2147483648);
    const after = Object.getOwnPropertyDescriptor(I, 'MIN_VALUE');
    expect(after.value).toBe(-2147483648);
    expect(after.writable).toBe(false);
    thrown(() => { I.MIN_VALUE = 1; }, TypeError);
    expect(I.MIN_VALUE).toBe(-2147483648);
  });

  it('refuse writing a static final before its first read', () => {
    thrown(() => { java.lang.Long.MAX_VALUE = 1; }, TypeError, /final field java\.lang\.Long\.MAX_VALUE/);
  });

  it('write non-final static fields', () => {
    // no such field in java.lang we may change safely; use a fresh instance field instead
    const d = new java.awt.Dimension(3, 4);
    d.width = 7;
    expect(d.getWidth()).toBe(7);
  });

  it('enumerate keys without crashing', () => {
    const list = new java.util.ArrayList();
    expect(Array.isArray(Object.keys(list))).toBe(true);
    const names = [];
    for (const k in list) names.push(k);
    expect(names.indexOf('size') >= 0).toBe(true);
    expect(names.indexOf('add') >= 0).toBe(true);
    expect(names.indexOf('constructor')).toBe(-1);
    expect(Object.keys(java.lang.Integer).indexOf('MAX_VALUE') >= 0).toBe(true);
  });

  it('list public instance members with Object.keys, own keys first', () => {
    const p = new java.awt.Point(1, 2);
    const keys = Object.keys(p);
    for (const m of ['x', 'y', 'getX', 'getLocation', 'translate', 'equals', 'hashCode', 'toString', 'getClass']) {
      expect(keys.indexOf(m) >= 0).toBe(true);
    }
    expect(keys.indexOf('constructor')).toBe(-1);
    expect(new Set(keys).size).toBe(keys.length);
    const forIn = [];
    for (const k in p) forIn.push(k);
    expect(forIn.slice().sort()).toEqual(keys.slice().sort());
    // (an assignment of an unknown name throws: defineProperty adds JS data)
    Object.defineProperty(p, 'note', { value: 'mine', enumerable: true, writable: true, configurable: true });
    const withOwn = Object.keys(p);
    expect(withOwn[0]).toBe('note');
    expect(withOwn.length).toBe(keys.length + 1);
    // statics are not instance members, and the class lists only statics
    expect(keys.indexOf('MAX_VALUE')).toBe(-1);
    expect(Object.keys(java.lang.Integer).indexOf('intValue')).toBe(-1);
    // plain JS objects, prototypes and null-prototype objects are unchanged
    expect(Object.keys({ a: 1, b: 2 })).toEqual(['a', 'b']);
    expect(Object.keys(Object.create(null))).toEqual([]);
    expect(Object.keys(java.awt.Point.prototype).indexOf('getX') >= 0).toBe(true);
    thrown(() => Object.keys(null), TypeError);
  });

  it('answer `in` for members and non-members without throwing', () => {
    const list = new java.util.ArrayList();
    expect('size' in list).toBe(true);
    expect('nope' in list).toBe(false);
    expect('hasOwnProperty' in list).toBe(true);
    expect('remove(int)' in list).toBe(true);
    expect('remove(boolean)' in list).toBe(false);
    expect('x' in new java.awt.Point(1, 2)).toBe(true);
    expect(Reflect.has(list, 'frobnicate')).toBe(false);
    const I = java.lang.Integer;
    expect('MAX_VALUE' in I).toBe(true);
    expect('parseInt' in I).toBe(true);
    expect('intValue' in I).toBe(false);
    expect('NOPE' in I).toBe(false);
    expect('Entry' in java.util.Map).toBe(true);
    expect('Nope' in java.util.Map).toBe(false);
    // a read of the same missing names gives undefined; a wrong explicit
    // signature still throws, naming class and member
    expect(list.nope).toBe(undefined);
    thrown(() => list['remove(boolean)'], TypeError, /java\.util\.ArrayList has no method remove\(boolean\)/);
    expect(I.NOPE).toBe(undefined);
    thrown(() => I.intValue, TypeError, /java\.lang\.Integer\.intValue is an instance method/);
  });

  it('refuse unknown names assigned, keep symbol keys, defined properties and built-ins working on wrappers', () => {
    const list = new java.util.ArrayList();
    thrown(() => { list.extra = 5; }, TypeError, /cannot set property extra of java\.util\.ArrayList/);
    expect(list.extra).toBe(undefined);
    const tag = Symbol('tag');
    list[tag] = 1;
    expect(list[tag]).toBe(1);
    Object.defineProperty(list, 'extra', { value: 5, writable: true, configurable: true });
    list.extra = 6;
    expect(list.extra).toBe(6);
    expect(Object.prototype.hasOwnProperty.call(list, 'extra')).toBe(true);
    expect(list.hasOwnProperty('size')).toBe(false);
    expect(list.constructor).toBe(java.util.ArrayList);
    expect(Object.getPrototypeOf(list)).toBe(java.util.ArrayList.prototype);
    expect(Object.prototype.toString.call(list)).toBe('[object Object]');
    expect(list.then).toBe(undefined);
    expect(JSON.stringify({ v: list.size() })).toBe('{"v":0}');
  });

  it('read a member that does not exist as undefined, and a call of it as a TypeError', () => {
    const list = new java.util.ArrayList();
    expect(list.noSuchMethod).toBe(undefined);
    expect(java.lang.Math.nope).toBe(undefined);
    thrown(() => list.noSuchMethod(), TypeError, /noSuchMethod is not a function/);
    thrown(() => java.lang.Math.nope(1), TypeError, /nope is not a function/);
    expect(list.then).toBe(undefined);
  });

  it('tell instance methods used on the class and static methods used on objects', () => {
    thrown(() => java.util.ArrayList.size, TypeError, /java\.util\.ArrayList\.size is an instance method/);
    const i = java.lang.Integer.valueOf(3);
    expect(i).toBe(3);
  });
});

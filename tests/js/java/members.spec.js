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
    expect(Object.keys(java.lang.Integer).indexOf('MAX_VALUE') >= 0).toBe(true);
    expect(JSON.stringify(Object.keys(new java.awt.Point(1, 2)))).toBe('[]');
  });

  it('report a member that does not exist', () => {
    const list = new java.util.ArrayList();
    thrown(() => list.noSuchMethod, TypeError, /java\.util\.ArrayList has no public member 'noSuchMethod'/);
    thrown(() => java.lang.Math.nope, TypeError, /java\.lang\.Math has no public static member 'nope'/);
    expect(list.then).toBe(undefined);
  });

  it('tell instance methods used on the class and static methods used on objects', () => {
    thrown(() => java.util.ArrayList.size, TypeError, /java\.util\.ArrayList\.size is an instance method/);
    const i = java.lang.Integer.valueOf(3);
    expect(i).toBe(3);
  });
});

'use strict';
// Issue 12 point 2: a member a Java object or class does not have reads as
// undefined (generic JS code probes objects), a call of it is JS's own
// TypeError, `in` tells the truth, and a later member is never hidden by an
// earlier miss.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

describe('missing members', () => {
  it('read as undefined on an instance and on a class', () => {
    const o = new java.lang.Object();
    expect(o.nope).toBe(undefined);
    expect(o.nope).toBe(undefined);            // the second read (remembered miss) too
    expect(new java.lang.StringBuilder().frobnicate).toBe(undefined);
    expect(java.lang.Math.nope).toBe(undefined);
    expect(java.util.ArrayList.nope).toBe(undefined);
  });

  it('are a TypeError naming the name when called', () => {
    const o = new java.lang.Object();
    thrown(() => o.nope(), TypeError, /nope is not a function/);
    thrown(() => java.lang.Math.nope(1), TypeError, /nope is not a function/);
  });

  it('let generic JS probe Java objects', () => {
    const o = new java.lang.Object();
    let seen = 'no';
    if (o.foo) seen = 'yes';
    expect(seen).toBe('no');
    expect(typeof o.then).toBe('undefined');
    expect(o.length).toBe(undefined);
    // Array.prototype methods on a non-collection: length undefined -> 0
    expect(Array.prototype.join.call(o)).toBe('');
    expect(Array.prototype.map.call(o, (x) => x)).toEqual([]);
    // awaiting a Java object gives the object (it has no `then`)
    return Promise.resolve(o).then((v) => expect(v).toBe(o));
  });

  it('answer `in` truthfully', () => {
    const sb = new java.lang.StringBuilder();
    expect('nope' in sb).toBe(false);
    expect('append' in sb).toBe(true);
    expect('toString' in sb).toBe(true);
    expect('append(char)' in sb).toBe(true);
    expect('append(bogus)' in sb).toBe(false);
    expect('NOPE' in java.lang.Integer).toBe(false);
    expect('MAX_VALUE' in java.lang.Integer).toBe(true);
    // after a read of a missing name, still not there; members still are
    expect(sb.nope).toBe(undefined);
    expect('nope' in sb).toBe(false);
    expect(typeof sb.append).toBe('function');
  });

  it('never hide what a script defines later on a prototype', () => {
    const o = new java.lang.Object();
    expect(o.laterName).toBe(undefined);
    Object.defineProperty(Object.prototype, 'laterName', { value: 42, configurable: true });
    try {
      expect(o.laterName).toBe(42);
      expect('laterName' in o).toBe(true);
    } finally {
      delete Object.prototype.laterName;
    }
    expect(o.laterName).toBe(undefined);
  });

  it('keep a wrong explicit signature and an instance method read on the class as errors', () => {
    thrown(() => new java.lang.StringBuilder()['append(bogus)'], TypeError,
           /java\.lang\.StringBuilder has no method append\(bogus\); candidates: /);
    thrown(() => java.util.ArrayList.size, TypeError, /java\.util\.ArrayList\.size is an instance method/);
  });

  it('refuse assigning a name that is no field, setter or entry, naming class and name', () => {
    const o = new java.lang.Object();
    thrown(() => { o.nope = 1; }, TypeError, /cannot set property nope of java\.lang\.Object: it has no public field nope and no setter setNope/);
    expect(o.nope).toBe(undefined);
    thrown(() => { java.lang.Math.nope = 1; }, TypeError,
           /cannot set static property nope of java\.lang\.Math: it has no public static field nope and no static setter setNope/);
    expect(java.lang.Math.nope).toBe(undefined);
    // symbol keys and defineProperty still add JS data to a wrapper
    const s = Symbol('s');
    o[s] = 1;
    expect(o[s]).toBe(1);
    Object.defineProperty(o, 'mine', { value: 2, writable: true, configurable: true });
    o.mine = 3;
    expect(o.mine).toBe(3);
  });

  it('leave JS objects that inherit from a wrapper, and JS subclasses, plain JS', () => {
    const derived = Object.create(new java.lang.Object());
    derived.extra = 1;
    expect(derived.extra).toBe(1);
    class Mine extends java.util.ArrayList {
      constructor() { super(); this.tag = 'mine'; }
    }
    const m = new Mine();
    expect(m.tag).toBe('mine');
    expect(m.size()).toBe(0);
    // its elements are still the List's
    m.add(1);
    m[0] = 2;
    expect(m.get(0)).toBe(2);
    expect(m[0]).toBe(2);
    expect(m.length).toBe(1);
  });
});

describe('static members through an instance', () => {
  it('reads static methods and fields as Java allows', () => {
    const t = java.lang.Thread.currentThread();
    expect(t.currentThread()).toBe(t);
    expect(t.MAX_PRIORITY).toBe(10);
    expect('currentThread' in t).toBe(true);
    expect('MAX_PRIORITY' in t).toBe(true);
    const bd = new java.math.BigDecimal(1);
    expect(bd.ONE.intValue()).toBe(1);
    expect(bd.valueOf(3).intValue()).toBe(3);
    // valueOf() without arguments stays JS's, so ToPrimitive still works
    expect(bd.valueOf()).toBe(bd);
    expect('' + bd).toBe('1');
    expect(java.time.DayOfWeek.MONDAY.valueOf('FRIDAY')).toBe(java.time.DayOfWeek.FRIDAY);
  });

  it('refuses a final static written through an instance', () => {
    const t = java.lang.Thread.currentThread();
    thrown(() => { t.MAX_PRIORITY = 1; }, TypeError, /final field java\.lang\.Thread\.MAX_PRIORITY/);
    expect(t.MAX_PRIORITY).toBe(10);
  });
});

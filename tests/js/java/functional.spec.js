'use strict';
// Issue 12, point 6: an object whose class implements exactly one functional
// interface is callable; calling it calls the functional method.
// (Interfaces of the application, not annotated: functional_user.test.sh.)
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const Comparator = java.util.Comparator;
const Fn = java.util.function;

describe('functional interfaces: calling', () => {
  it('calls the functional method of a JDK comparator', () => {
    const c = Comparator.naturalOrder();
    expect(typeof c).toBe('function');
    expect(c('a', 'b')).toBe(-1);
    expect(c('b', 'a')).toBe(1);
    expect(c('a', 'a')).toBe(0);
  });

  it('calls JDK lambdas', () => {
    const id = Fn.Function.identity();
    expect(typeof id).toBe('function');
    expect(id(42)).toBe(42);
    expect(id('x')).toBe('x');
    const isA = Fn.Predicate.isEqual('a');
    expect(isA('a')).toBe(true);
    expect(isA('b')).toBe(false);
    expect(Fn.Predicate.not(isA)('b')).toBe(true);
    const byLength = Comparator.comparing(java.util.function.Function.identity());
    expect(byLength('b', 'a')).toBe(1);
  });

  it('works where JS expects a function', () => {
    expect([3, 1, 2].sort(Comparator.naturalOrder())).toEqual([1, 2, 3]);
    expect([3, 1, 2].sort(Comparator.reverseOrder())).toEqual([3, 2, 1]);
    expect(['a', 'b'].map((s) => Fn.Function.identity()(s))).toEqual(['a', 'b']);
    expect(Reflect.apply(Comparator.naturalOrder(), undefined, ['x', 'y'])).toBe(-1);
  });

  it('ignores the this of the call', () => {
    const c = Comparator.naturalOrder();
    const holder = { c };
    expect(holder.c('a', 'b')).toBe(-1);
    expect(Reflect.apply(c, {}, ['b', 'a'])).toBe(1);
  });

  it('calls an interface implemented by a JS object', () => {
    const doubler = new Fn.Function({ apply: (x) => x * 2 });
    expect(typeof doubler).toBe('function');
    expect(doubler(21)).toBe(42);
    expect(doubler.apply(4)).toBe(8);
  });

  it('calls a class that implements Runnable', () => {
    let ran = 0;
    const t = new java.lang.Thread(() => { ran++; });
    expect(typeof t).toBe('function');
    expect(t instanceof java.lang.Thread).toBe(true);
    t();
    expect(ran).toBe(1);
    expect(t.getState().toString()).toBe('NEW');
  });
});

describe('functional interfaces: the object stays a Java object', () => {
  it('keeps its methods, fields and class', () => {
    const c = Comparator.naturalOrder();
    expect(c.compare('a', 'b')).toBe(-1);
    const r = c.reversed();
    expect(typeof r).toBe('function');
    expect(r('a', 'b')).toBe(1);
    expect(c instanceof Comparator).toBe(true);
    expect(Object.keys(c).includes('compare')).toBe(true);
    expect(String(c.getClass().getName())).toBe('java.util.Comparators$NaturalOrderComparator');
    const inc = new Fn.Function({ apply: (x) => x + 1 });
    expect(inc.andThen(inc)(1)).toBe(3);
  });

  it('has no own length, name or prototype hiding Java members', () => {
    const c = Comparator.naturalOrder();
    const own = Object.getOwnPropertyNames(c);
    expect(own.includes('length')).toBe(false);
    expect(own.includes('name')).toBe(false);
    expect(own.includes('prototype')).toBe(false);
    // NaturalOrderComparator is an enum: name() is its Java method
    expect(c.name()).toBe('INSTANCE');
  });

  it('is the same function each time the same Java object comes back', () => {
    const c = Comparator.naturalOrder();
    expect(Comparator.naturalOrder()).toBe(c);
    const list = new java.util.ArrayList();
    list.add(c);
    expect(list.get(0)).toBe(c);
  });

  it('passes to Java as the Java object', () => {
    const list = java.util.Arrays.asList(3, 1, 2);
    list.sort(Comparator.reverseOrder());
    expect(String(list)).toBe('[3, 2, 1]');
    const set = new java.util.TreeSet(Comparator.reverseOrder());
    set.add('a');
    set.add('b');
    expect(set.comparator()).toBe(Comparator.reverseOrder());
    expect(String(set)).toBe('[b, a]');
  });

  it('leaves other objects plain objects', () => {
    expect(typeof new java.util.ArrayList()).toBe('object');       // Iterable through List
    expect(typeof new java.util.HashMap()).toBe('object');
    expect(typeof java.time.LocalDate.ofEpochDay(0)).toBe('object');
    expect(typeof new java.io.File('/tmp')).toBe('object');        // Comparable: not a function
    expect(typeof java.util.concurrent.TimeUnit.SECONDS).toBe('object');
    expect(typeof java.util.UUID.randomUUID()).toBe('object');
    expect(typeof new java.lang.StringBuilder()).toBe('object');
    thrown(() => new java.util.ArrayList()(1), TypeError);
  });
});

describe('functional interfaces: bad calls', () => {
  it('names the method when no overload takes that many arguments', () => {
    const c = Comparator.naturalOrder();
    thrown(() => c('a'), TypeError, /compare.*no overload takes 1 argument/);
    thrown(() => c(), TypeError, /compare/);
    thrown(() => Fn.Function.identity()(), TypeError, /apply/);
  });

  it('names the method and the types when the arguments do not fit', () => {
    const isA = Fn.Predicate.isEqual('a');
    thrown(() => isA(1, 2), TypeError, /test/);
    const cmp = Comparator.comparingInt(new Fn.ToIntFunction({ applyAsInt: (s) => s.length }));
    thrown(() => cmp(1, Symbol('s')), TypeError, /compare.*symbol/);
  });

  it('gives the Java exception of the method', () => {
    const c = Comparator.naturalOrder();
    const e = thrown(() => c(null, 'a'));
    expect(String(e.javaException.getClass().getName())).toBe('java.lang.NullPointerException');
    thrown(() => c('a', 1), Error, /ClassCastException|cannot be cast/);
  });

  it('is not a constructor', () => {
    const c = Comparator.naturalOrder();
    thrown(() => new c(), TypeError, /not a constructor/);
  });
});

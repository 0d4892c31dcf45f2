'use strict';
// Issue 12, point 8: Java.extend (interfaces, abstract and concrete classes,
// constructor arguments, the Nashorn per-instance form), Java.super, and
// adapters called from other Java threads; the bad input each allows.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const Runnable = java.lang.Runnable;
const Thread = java.lang.Thread;

describe('Java.extend of interfaces', () => {
  it('implements an interface with a class-level implementation', () => {
    let runs = 0;
    const R = Java.extend(Runnable, { run() { runs++; } });
    const r = new R();
    r.run();
    expect(runs).toBe(1);
    expect(r instanceof R).toBe(true);
    expect(r instanceof Runnable).toBe(true);
    expect(Java.isJavaObject(r)).toBe(true);
    expect(typeof R).toBe('function');
    expect(R.class.isInstance(r)).toBe(true);
    expect(R.class.getSuperclass().getName()).toBe('java.lang.Object');
    expect(R.class.getInterfaces()[0].getName()).toBe('java.lang.Runnable');
  });

  it('takes the implementation as the last constructor argument (Nashorn form)', () => {
    const R = Java.extend(Runnable);
    const seen = [];
    const a = new R({ run() { seen.push('a'); } });
    const b = new R({ run() { seen.push('b'); } });
    b.run();
    a.run();
    expect(seen.join()).toBe('b,a');
  });

  it('accepts a function for the abstract methods', () => {
    let hit = 0;
    const R = Java.extend(Runnable);
    new R(() => { hit++; }).run();
    expect(hit).toBe(1);
  });

  it('implements several interfaces at once', () => {
    const Both = Java.extend(Runnable, java.util.concurrent.Callable, {
      run() {},
      call() { return 'called'; },
    });
    const o = new Both();
    expect(o instanceof Runnable).toBe(true);
    expect(o instanceof java.util.concurrent.Callable).toBe(true);
    expect(o.call()).toBe('called');
  });

  it('converts the JS result to the Java return type, and refuses one that does not fit', () => {
    const Cmp = Java.extend(java.util.Comparator, { compare(a, b) { return a.length - b.length; } });
    const list = new java.util.ArrayList();
    for (const s of ['ccc', 'a', 'bb']) list.add(s);
    java.util.Collections.sort(list, new Cmp());
    expect(String(list.toString())).toBe('[a, bb, ccc]');
    const Bad = Java.extend(java.util.Comparator, { compare() { return 'no'; } });
    thrown(() => java.util.Collections.sort(list, new Bad()), Error, /compare must return an int/);
  });

  it('lets default methods fall back to the interface when the JS object lacks them', () => {
    const Cmp = Java.extend(java.util.Comparator, { compare(a, b) { return a - b; } });
    const rev = new Cmp().reversed();
    expect(rev.compare(1, 2) > 0).toBe(true);
  });

  it('runs JS with this = the Java object, so Java members are reachable', () => {
    let self = null;
    const R = Java.extend(Runnable, { run() { self = this; } });
    const r = new R();
    r.run();
    expect(self === r).toBe(true);
  });

  it('lets a JS error thrown by the implementation reach the JS caller', () => {
    const R = Java.extend(Runnable, { run() { throw new RangeError('from the adapter'); } });
    thrown(() => new R().run(), Error, /from the adapter/);
  });
});

describe('Java.extend of classes', () => {
  it('extends an abstract class: given methods from JS, the others inherited', () => {
    const L = Java.extend(java.util.AbstractList);
    const l = new L({ get(i) { return 'e' + i; }, size() { return 3; } });
    expect(l.size()).toBe(3);
    expect(l.get(2)).toBe('e2');
    expect(l.contains('e1')).toBe(true);     // AbstractCollection.contains
    expect(l.indexOf('e2')).toBe(2);        // AbstractList.indexOf
    expect(String(l.toString())).toBe('[e0, e1, e2]');
    const copy = new java.util.ArrayList(l);
    expect(copy.size()).toBe(3);
  });

  it('extends a concrete class: methods not given call the superclass', () => {
    let adds = 0;
    const Counting = Java.extend(java.util.ArrayList, {
      add(x) { adds++; return Java.super(this).add(x); },
    });
    const c = new Counting();
    c.add('a');
    c.add('b');
    expect(adds).toBe(2);
    expect(c.size()).toBe(2);
    expect(c.get(1)).toBe('b');
    expect(c instanceof java.util.ArrayList).toBe(true);
  });

  it('passes constructor arguments to the superclass constructor, choosing the overload', () => {
    const T = Java.extend(Thread, { run() {} });
    expect(new T('worker-7').getName()).toBe('worker-7');
    const U = Java.extend(Thread);
    const t = new U('worker-8', { run() {} });
    expect(t.getName()).toBe('worker-8');
    const SB = Java.extend(java.io.StringWriter);
    const w = new SB(64, {});
    w.write('x');
    expect(w.toString()).toBe('x');
  });

  it('Java.super(this) calls the superclass implementation inside an override', () => {
    const O = Java.extend(java.lang.Object, {
      toString() { return 'wrapped(' + Java.super(this).toString().startsWith('org.strait.adapters.') + ')'; },
      hashCode() { return 42; },
    });
    const o = new O();
    expect(o.toString()).toBe('wrapped(true)');
    expect(o.hashCode()).toBe(42);
    expect(typeof Java.super(o).hashCode()).toBe('number');
    expect(Java.super(o).nope).toBe(undefined);
  });

  it('gives abstract methods of an abstract class from JS, inheriting the rest', () => {
    const M = Java.extend(java.util.AbstractMap);
    const m = new M({ entrySet() { return java.util.Map.of('k', 'v').entrySet(); } });
    expect(m.get('k')).toBe('v');      // AbstractMap.get walks entrySet()
    expect(m.size()).toBe(1);
    expect(m.containsKey('nope')).toBe(false);
  });

  it('reaches JS from overrides the superclass constructor calls', () => {
    // Throwable's constructors call the overridable fillInStackTrace()
    let calls = 0;
    const E = Java.extend(java.lang.RuntimeException, {
      fillInStackTrace() { calls++; return this; },
    });
    const e = new E('boom');
    expect(calls).toBe(1);
    expect(e.getMessage()).toBe('boom');
  });
});

describe('adapters called from other Java threads', () => {
  it('an extended Thread runs its JS run() on its own thread', () => {
    let ranOn = null;
    const T = Java.extend(Thread, { run() { ranOn = Thread.currentThread().getName(); } });
    const t = new T('js-adapter-thread');
    t.start();
    t.join();
    expect(ranOn).toBe('js-adapter-thread');
  });

  it('a Runnable adapter run by an ExecutorService on several threads', () => {
    let count = 0;
    const names = new Set();
    const R = Java.extend(Runnable, { run() { count++; names.add(Thread.currentThread().getName()); } });
    const pool = java.util.concurrent.Executors.newFixedThreadPool(3);
    try {
      const futures = [];
      for (let i = 0; i < 30; i++) futures.push(pool.submit(new R()));
      for (const f of futures) f.get();
    } finally {
      pool.shutdown();
    }
    expect(count).toBe(30);
    expect(names.has(Thread.currentThread().getName())).toBe(false);
  });
});

describe('Java.extend bad input', () => {
  it('nothing to extend', () => {
    thrown(() => Java.extend(), TypeError, /Java\.extend: expected a Java class or interface/);
    thrown(() => Java.extend({ run() {} }), TypeError, /Java\.extend: expected a Java class or interface/);
  });

  it('a non-class', () => {
    thrown(() => Java.extend(3), TypeError, /argument 1 is a number, not a Java class/);
    thrown(() => Java.extend('java.lang.Runnable'), TypeError, /argument 1 is the string 'java\.lang\.Runnable'/);
    thrown(() => Java.extend(java.util), TypeError, /argument 1 is the Java package java\.util, not a class/);
    thrown(() => Java.extend([Runnable], {}), TypeError, /argument 1 is an object, not a Java class/);
    thrown(() => Java.extend(new java.util.ArrayList()), TypeError, /not a Java object/);
  });

  it('a final class, a primitive, an array type', () => {
    thrown(() => Java.extend(java.lang.String), TypeError, /cannot extend final class java\.lang\.String/);
    thrown(() => Java.extend(Java.type('int')), TypeError, /cannot extend the primitive type int/);
    thrown(() => Java.extend(Java.type('int[]')), TypeError, /cannot extend the array type int\[\]/);
  });

  it('two classes', () => {
    thrown(() => Java.extend(java.util.AbstractList, java.lang.Thread), TypeError,
      /cannot extend both java\.util\.AbstractList and java\.lang\.Thread/);
  });

  it('a missing abstract method, at extend time or at construction', () => {
    thrown(() => Java.extend(java.util.AbstractList, { size() { return 0; } }), TypeError,
      /Java\.extend\(java\.util\.AbstractList\): abstract method get is missing/);
    const L = Java.extend(java.util.AbstractList);
    thrown(() => new L({ get() {} }), TypeError, /java\.util\.AbstractList\): abstract method size is missing/);
    thrown(() => new (Java.extend(Runnable))(), TypeError, /java\.lang\.Runnable\): abstract method run has no implementation/);
  });

  it('an implementation member that is not a function', () => {
    thrown(() => Java.extend(Runnable, { run: 5 }), TypeError,
      /abstract method run of the implementation object is not a function \(it is a number\)/);
  });

  it('an implementation that is not an object', () => {
    thrown(() => Java.extend(Runnable, 'run'), TypeError, /argument 2 is the string 'run', not a Java class/);
    thrown(() => Java.extend(Runnable, 7), TypeError, /argument 2 is a number, not a Java class/);
  });

  it('calling the constructor without new', () => {
    const R = Java.extend(Runnable, { run() {} });
    thrown(() => R(), TypeError, /must be called with new/);
  });

  it('Java.super of an object that is no adapter', () => {
    thrown(() => Java.super(new java.util.ArrayList()), TypeError, /java\.util\.ArrayList is not a class made by Java\.extend/);
    thrown(() => Java.super({}), TypeError, /Java\.super: expected an object made by a Java\.extend constructor/);
  });
});

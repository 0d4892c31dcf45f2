'use strict';
// JS values passed to Java parameters (docs/interop.md, "JS values passed to
// Java parameters"): a JS object arrives as a live org.strait.JsObject (a
// Map<String,Object>), an array as a live org.strait.JsArray (a
// List<Object>), a function as a JsFunction, a Date as a java.time.Instant,
// a class object as its java.lang.Class; these rank after every exact
// match; the same handles going back to JS are the original values; -0 is 0
// for integer parameters, NaN and infinities are RangeErrors.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');

const ArrayList = java.util.ArrayList;
const HashMap = java.util.HashMap;

describe('JS objects to Object and Map', () => {
  it('List.add(Object) takes a JS object and gives the same object back', () => {
    const list = new ArrayList();
    const o = { x: 1 };
    expect(list.add(o)).toBe(true);
    expect(list.size()).toBe(1);
    expect(list.get(0) === o).toBe(true);
    expect(list.contains(o)).toBe(true);
  });

  it('arrives as a live JsObject that is a java.util.Map', () => {
    const list = new ArrayList();
    list.add({ a: 1 });
    // seen from Java: the element's class and its Map interface
    const h = new HashMap();
    const o = { b: 'two', a: 1 };
    h.put('k', o);
    const values = new ArrayList(h.values());
    expect(values.size()).toBe(1);
    const copy = new java.util.LinkedHashMap();
    copy.putAll(o);                       // Map parameter: reads through the view, in JS order
    expect(String(copy)).toBe('{b=two, a=1}');
    expect(copy.get('a')).toBe(1);
    expect(java.util.Objects.toString(new java.util.TreeMap(o))).toBe('{a=1, b=two}');
  });

  it('reads and writes go to the JS object', () => {
    const o = { x: 1, y: 2 };
    const m = java.util.Collections.synchronizedMap(o);   // a Map parameter, then Java's own calls
    expect(m.get('x')).toBe(1);
    expect(m.containsKey('y')).toBe(true);
    expect(m.containsKey('toString')).toBe(false);  // own enumerable keys only
    expect(m.size()).toBe(2);
    m.put('z', 'new');
    expect(o.z).toBe('new');
    expect(m.remove('x')).toBe(1);
    expect('x' in o).toBe(false);
    expect(String(m.keySet())).toBe('[y, z]');
    o.w = true;                              // JS writes are seen from Java
    expect(m.get('w')).toBe(true);
    expect(m.size()).toBe(3);
    m.clear();
    expect(Object.keys(o).length).toBe(0);
  });

  it('comes back as itself from every way Java hands it to JS', () => {
    const o = { x: 1 };
    const list = new ArrayList();
    list.add(o);
    list.add(o);
    for (const e of list) expect(e === o).toBe(true);          // iteration
    expect(Java.from(list)[1] === o).toBe(true);               // Java.from
    const arr = list.toArray();                                // an Object[] element
    expect(arr[0] === o).toBe(true);
    const it = list.iterator();
    expect(it.next() === o).toBe(true);                        // a method result
    const ref = new java.util.concurrent.atomic.AtomicReference(o);
    expect(ref.get() === o).toBe(true);
  });

  it('converts values read from the view as JS -> Java handles do', () => {
    const inner = { n: 1 };
    const o = { i: 7, d: 1.5, s: 'str', nul: null, inner, arr: [1, 2] };
    const m = java.util.Collections.unmodifiableMap(o);
    expect(m.get('i')).toBe(7);
    expect(m.get('d')).toBe(1.5);
    expect(m.get('s')).toBe('str');
    expect(m.get('nul')).toBeNull();
    expect(m.get('inner') === inner).toBe(true);   // identity back
    expect(m.get('arr') === o.arr).toBe(true);
  });

  it('keeps overload choices: a string still picks println(String), numbers the primitive', () => {
    const bytes = new java.io.ByteArrayOutputStream();
    const out = new java.io.PrintStream(bytes, true, 'UTF-8');
    out.println('s');
    out.println(5);
    out.println({});                 // println(Object) now applies
    expect(String(bytes.toString('UTF-8')).split('\n').slice(0, 3).join('|')).toBe('s|5|[object Object]');
    const sb = new java.lang.StringBuilder();
    sb.append('a').append(1).append(2.5).append(true).append({});
    expect(sb.toString()).toBe('a12.5true[object Object]');
  });

  it('prefers a Map parameter over other overloads, and keeps array choices', () => {
    // TreeMap(Comparator) / TreeMap(Map) / TreeMap(SortedMap): a JS object is only a Map
    expect(new java.util.TreeMap({ b: 2, a: 1 }).firstKey()).toBe('a');
    // String.valueOf(Object) takes the view; a JS array still picks char[] as before
    expect(java.lang.String.valueOf({})).toBe('[object Object]');
    expect(java.lang.String.valueOf(['h', 'i'])).toBe('hi');
  });

  it('a function picks the overload whose interface has one abstract method', () => {
    // TreeMap(Comparator) over TreeMap(SortedMap) and TreeMap(Map): Nashorn's and GraalJS's choice
    const tm = new java.util.TreeMap((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    tm.put('a', 1); tm.put('c', 3); tm.put('b', 2);
    expect(tm.firstKey()).toBe('c');
    expect(String(tm)).toBe('{c=3, b=2, a=1}');
    const ts = new java.util.TreeSet((a, b) => b - a);   // TreeSet(Comparator) over (Collection), (SortedSet)
    ts.add(1); ts.add(3); ts.add(2);
    expect(ts.first()).toBe(3);
    // a function passed where only a non-functional interface fits still implements it
    expect(() => java.util.Collections.unmodifiableMap(() => 1)).not.toThrow();
  });
});

describe('JS arrays to List, Collection, Iterable and Object', () => {
  it('a List parameter gets the live array: Java writes are seen by JS', () => {
    const arr = [3, 1, 2];
    java.util.Collections.sort(arr);
    expect(arr.join()).toBe('1,2,3');
    java.util.Collections.reverse(arr);
    expect(arr.join()).toBe('3,2,1');
    const list = Java.to(arr, java.util.List);
    list.add(0);
    list.set(0, 9);
    expect(arr.join()).toBe('9,2,1,0');
    expect(list.remove(1)).toBe(2);
    expect(arr.join()).toBe('9,1,0');
    list.add(1, 'x');
    expect(arr.join()).toBe('9,x,1,0');
    expect(list.size()).toBe(4);
    expect(list.indexOf('x')).toBe(1);
    arr.push(5);                    // JS writes are seen from Java
    expect(list.size()).toBe(5);
    list.clear();
    expect(arr.length).toBe(0);
  });

  it("Java.to(array, 'java.util.List') is the live list too; array types still copy", () => {
    const arr = [1, 2];
    const l = Java.to(arr, 'java.util.List');
    l.add(3);
    expect(arr.length).toBe(3);
    const copy = Java.to(arr, 'int[]');
    copy[0] = 100;
    expect(arr[0]).toBe(1);
    expect(copy.length).toBe(3);
  });

  it('Collection and Iterable parameters read the array', () => {
    expect(new ArrayList([1, 'a', true]).toString()).toBe('[1, a, true]');
    expect(String(java.lang.String.join('-', ['a', 'b', 'c']))).toBe('a-b-c');
    const set = new java.util.HashSet([1, 1, 2]);
    expect(set.size()).toBe(2);
  });

  it('an Object parameter gets the live array, and gets it back as itself', () => {
    const arr = [1, 2];
    const list = new ArrayList();
    list.add(arr);
    expect(list.get(0) === arr).toBe(true);
    const m = new HashMap();
    m.put('a', arr);
    expect(m.get('a') === arr).toBe(true);
  });

  it('nested values inside the view convert lazily, as handles do', () => {
    const inner = { v: 1 };
    const arr = [inner, [2], 'three'];
    const l = new ArrayList(arr);              // copies the elements: the inner values stay live
    expect(l.get(0) === inner).toBe(true);
    expect(l.get(1) === arr[1]).toBe(true);
    expect(l.get(2)).toBe('three');
  });

  it('a supertype of ArrayList that JsArray is not (AbstractList) still gets a copy', () => {
    // AbstractList and RandomAccess are not interfaces JsArray... RandomAccess is; AbstractList is not
    const Collections = java.util.Collections;
    const l = Collections.unmodifiableList([1, 2]);
    expect(l.size()).toBe(2);
  });
});

describe('functions, Dates and class objects', () => {
  it('a function to Object arrives as a JsFunction and comes back as itself', () => {
    const f = (x) => x * 2;
    const list = new ArrayList();
    list.add(f);
    expect(list.get(0) === f).toBe(true);
    expect(list.get(0)(21)).toBe(42);
  });

  it('a function to a functional interface stays the interface implementation', () => {
    const l = new ArrayList([3, 1, 2]);
    l.sort((a, b) => a - b);
    expect(l.toString()).toBe('[1, 2, 3]');
    const t = new java.lang.Thread(() => {});
    expect(t instanceof java.lang.Thread).toBe(true);
  });

  it('a function Java got as a functional interface comes back as the same function', () => {
    const t = new java.lang.Thread(() => {});
    const handler = (thread, err) => {};
    t.setUncaughtExceptionHandler(handler);
    expect(t.getUncaughtExceptionHandler() === handler).toBe(true);
    const ref = new java.util.concurrent.atomic.AtomicReference();
    const cmp = (a, b) => a - b;
    java.util.Objects.requireNonNull(cmp);           // Object parameter: a JsFunction
    const tm = new (java.util.TreeMap['(Comparator)'])(cmp);   // an implementation of Comparator
    expect(tm.comparator() === cmp).toBe(true);
    tm.put(2, 'b'); tm.put(1, 'a');
    expect(tm.firstKey()).toBe(1);
    ref.set(tm.comparator());
    expect(ref.get() === cmp).toBe(true);
  });

  it('an interface implemented on request stays a Java object', () => {
    const impl = { run() {} };
    const r = new java.lang.Runnable(impl);
    expect(r === impl).toBe(false);
    expect(r instanceof java.lang.Runnable).toBe(true);
    const ref = new java.util.concurrent.atomic.AtomicReference(r);
    expect(ref.get() === r).toBe(true);
    const f = new java.lang.Runnable(() => {});
    expect(typeof f.run).toBe('function');
    const ref2 = new java.util.concurrent.atomic.AtomicReference(f);
    expect(ref2.get() === f).toBe(true);
    expect(typeof ref2.get().run).toBe('function');
  });

  it('a Date arrives as a java.time.Instant', () => {
    const list = new ArrayList();
    list.add(new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 6)));
    expect(String(list.get(0))).toBe('2020-01-02T03:04:05.006Z');
    expect(list.get(0) instanceof java.time.Instant).toBe(true);
    const dur = java.time.Duration.between(new Date(0), new Date(90000));
    expect(dur.getSeconds()).toBe(90);
    thrown(() => list.add(new Date(NaN)), RangeError, /java\.util\.ArrayList\.add.*invalid Date/);
    thrown(() => java.lang.Integer.toHexString(new Date(0)), TypeError, /cannot convert Date to int/);
  });

  it('a class object passes where java.lang.Class is expected', () => {
    const a = java.lang.reflect.Array.newInstance(java.lang.String, 3);
    expect(a.length).toBe(3);
    expect(a.getClass().getName()).toBe('[Ljava.lang.String;');
    const days = java.util.EnumSet.noneOf(java.time.DayOfWeek);
    expect(days.size()).toBe(0);
    days.add(java.time.DayOfWeek.MONDAY);
    expect(String(days)).toBe('[MONDAY]');
    expect(java.lang.Class.forName('java.lang.Number').isAssignableFrom(java.lang.Integer)).toBe(true);
    const l = new ArrayList();
    l.add(java.lang.String);                   // Object: the Class itself
    expect(l.get(0).getName()).toBe('java.lang.String');
  });
});

describe('numbers to integer parameters', () => {
  it('-0 is 0 for int, long, short, byte and their boxes', () => {
    expect(java.lang.Integer.toHexString(-0)).toBe('0');
    expect(java.lang.Long.toHexString(-0)).toBe('0');
    expect(java.lang.Short.toString(-0)).toBe('0');
    expect(java.lang.Byte.toString(-0)).toBe('0');
    expect(java.lang.Integer.valueOf(-0)).toBe(0);
    const l = new ArrayList([1, 2]);
    expect(l.get(-0)).toBe(1);
  });

  it('NaN and infinities are RangeErrors naming the member and the value', () => {
    thrown(() => java.lang.Integer.toHexString(NaN), RangeError,
      /^java\.lang\.Integer\.toHexString\(int\) argument 1: number NaN does not fit int$/);
    thrown(() => java.lang.Long.toHexString(Infinity), RangeError, /toHexString\(long\).*number Infinity does not fit long/);
    thrown(() => java.lang.Short.toString(-Infinity), RangeError, /number -Infinity does not fit short/);
    thrown(() => java.lang.Integer.toHexString(2 ** 40), RangeError, /does not fit int/);
    thrown(() => java.lang.Integer.toHexString(1.5), TypeError, /cannot convert number 1\.5 to int/);
  });
});

describe('bad input', () => {
  it('a symbol fits no parameter: TypeError naming the member and the types', () => {
    thrown(() => new ArrayList().add(Symbol('s')), TypeError,
      /java\.util\.ArrayList\.add.*symbol/);
    thrown(() => java.lang.String.valueOf(Symbol('s')), TypeError, /java\.lang\.String\.valueOf.*symbol/);
  });

  it('a JS object to a String[] or int parameter is a TypeError', () => {
    thrown(() => java.lang.String.join(',', {}), TypeError, /java\.lang\.String\.join.*object/);
    thrown(() => java.lang.Integer.toHexString({}), TypeError,
      /java\.lang\.Integer\.toHexString\(int\) argument 1: cannot convert object to int/);
    const symbols = new java.text.DateFormatSymbols();
    thrown(() => symbols.setMonths({ length: 12 }), TypeError,
      /java\.text\.DateFormatSymbols\.setMonths\(java\.lang\.String\[\]\) argument 1: cannot convert object to java\.lang\.String\[\]/);
  });

  it('a JS array to a Map parameter is a TypeError', () => {
    thrown(() => java.util.Map.copyOf([1, 2]), TypeError,
      /java\.util\.Map\.copyOf\(java\.util\.Map\) argument 1: cannot convert JS array to java\.util\.Map/);
    thrown(() => new HashMap([['a', 1]]), TypeError, /new java\.util\.HashMap/);
  });

  it('a JS object to a List parameter is a TypeError', () => {
    thrown(() => java.util.Collections['unmodifiableList(java.util.List)']({}), TypeError,
      /unmodifiableList\(java\.util\.List\) argument 1: cannot convert object to java\.util\.List/);
  });
});

describe('a Proxy of an array is an array (Array.isArray)', () => {
  it('passes as a List, Collection and Iterable, live through its traps', () => {
    const reads = [];
    const target = ['a', 'b', 'c'];
    const p = new Proxy(target, { get(t, k, r) { if (k !== 'length') reads.push(k); return Reflect.get(t, k, r); } });
    expect(new ArrayList(p).size()).toBe(3);                         // Collection
    expect(java.lang.String.join('-', p)).toBe('a-b-c');             // Iterable
    const view = java.util.Collections.unmodifiableList(p);          // List: live
    target.push('d');
    expect(view.size()).toBe(4);
    expect(view.get(3)).toBe('d');
    expect(reads.includes('3')).toBe(true);                          // through the get trap
  });

  it('arrives where Object is expected as a JsArray and comes back as the same Proxy', () => {
    const p = new Proxy([1, 2], {});
    const list = new ArrayList();
    list.add(p);
    expect(list.get(0) === p).toBe(true);
    list.add([1, 2]);
    const shown = String(list);                                      // each element's toString, from Java
    expect(shown).toBe('[1,2, 1,2]');                                // the same as a plain array's
    expect(java.util.List.class.isInstance(p)).toBe(true);
  });

  it('copies into Java arrays, also through a Proxy of a Proxy', () => {
    const p = new Proxy(new Proxy([4, 5, 6], {}), {});
    const ia = Java.to(p, 'int[]');
    expect(Java.from(ia)).toEqual([4, 5, 6]);
    expect(java.util.Arrays.toString(Java.to(new Proxy(['x', 'y'], {}), 'java.lang.String[]'))).toBe('[x, y]');
  });

  it('a Proxy of a plain object, and a revoked Proxy, stay objects', () => {
    const m = new java.util.LinkedHashMap();
    m.putAll(new Proxy({ x: 1 }, {}));
    expect(String(m)).toBe('{x=1}');
    const r = Proxy.revocable([1], {});
    r.revoke();
    thrown(() => Array.isArray(r.proxy), TypeError, /revoked/);
    thrown(() => Java.to(r.proxy, 'int[]'), TypeError, /revoked/);   // as Array.isArray: a TypeError
    thrown(() => Java.to(new Proxy({ length: 1, 0: 1 }, {}), 'int[]'), TypeError, /expected a JS array/);
  });
});

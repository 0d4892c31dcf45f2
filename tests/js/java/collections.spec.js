'use strict';
// Issue 12 point 4 (without iteration) and point 9's ArrayBuffer: Java
// Lists, Maps and arrays as JS collections: list[i], list.length, map.key,
// Array.prototype methods used generically, JSON.stringify, console.log;
// a wrong-typed element written into a typed Java array; a ByteBuffer
// passed to new ArrayBuffer.
const { describe, it, expect } = require('../runner');
const { thrown } = require('./helpers');
const { inspect } = require('util');

const listOf = (...xs) => {
  const l = new java.util.ArrayList();
  for (const x of xs) l.add(x);
  return l;
};

describe('Java Lists', () => {
  it('read elements by index and the size as length', () => {
    const l = listOf(10, 'b', true);
    expect(l.length).toBe(3);
    expect(l[0]).toBe(10);
    expect(l[1]).toBe('b');
    expect(l[2]).toBe(true);
    expect(l['1']).toBe('b');
    l.add(null);
    expect(l.length).toBe(4);
    expect(l[3]).toBe(null);
    // names that are not canonical indexes are not elements
    expect(l['01']).toBe(undefined);
    expect(l[-1]).toBe(undefined);
    const fixed = java.util.List.of(1, 2);
    expect(fixed[1]).toBe(2);
    expect(fixed.length).toBe(2);
    const linked = new java.util.LinkedList();
    linked.add('x');
    expect(linked[0]).toBe('x');
    expect(linked.length).toBe(1);
  });

  it('throw a RangeError naming class, index and size outside the list', () => {
    const l = listOf(1, 2);
    thrown(() => l[2], RangeError, /java\.util\.ArrayList index 2 out of bounds for length 2/);
    thrown(() => l[4294967294], RangeError, /java\.util\.ArrayList index 4294967294 out of bounds/);
    thrown(() => java.util.List.of()[0], RangeError, /index 0 out of bounds for length 0/);
  });

  it('write elements by index with set(), RangeError outside, the Java exception of an unmodifiable list', () => {
    const l = listOf(1, 2);
    l[1] = 'two';
    expect(l.get(1)).toBe('two');
    expect(l[1]).toBe('two');
    expect(Object.keys(l).indexOf('1')).toBe(-1);          // no JS property made
    thrown(() => { l[2] = 3; }, RangeError, /java\.util\.ArrayList index 2 out of bounds for length 2/);
    thrown(() => { l[2147483648] = 3; }, RangeError, /out of bounds \(a Java index is an int\)/);
    expect(l.size()).toBe(2);
    const e = thrown(() => { java.util.List.of(1)[0] = 5; }, Error, /UnsupportedOperationException/);
    expect(e.javaException.getClass().getName()).toBe('java.lang.UnsupportedOperationException');
    // converted as for set(int, Object): a Java object stays itself
    const day = java.time.LocalDate.of(2020, 1, 2);
    l[0] = day;
    expect(l[0]).toBe(day);
  });

  it('work with Array.prototype methods that write in place', () => {
    const l = listOf(3, 1, 2);
    Array.prototype.sort.call(l);
    expect(l.toString()).toBe('[1, 2, 3]');
    Array.prototype.reverse.call(l);
    expect(l.toString()).toBe('[3, 2, 1]');
    Array.prototype.fill.call(l, 0);
    expect(l.toString()).toBe('[0, 0, 0]');
    // growing is add(): push would write past the end
    thrown(() => Array.prototype.push.call(l, 4), RangeError, /index 3 out of bounds for length 3/);
  });

  it('refuse an assignment to length', () => {
    const l = listOf(1, 2);
    thrown(() => { l.length = 0; }, TypeError, /cannot assign to the length of java\.util\.ArrayList; use add, remove or clear/);
    expect(l.size()).toBe(2);
  });

  it('answer `in` for indexes and length', () => {
    const l = listOf(1);
    expect(0 in l).toBe(true);
    expect('length' in l).toBe(true);
    expect('nope' in l).toBe(false);
  });

  it('work with Array.prototype methods that read', () => {
    const l = listOf(1, 2, 3);
    expect(Array.prototype.join.call(l, '-')).toBe('1-2-3');
    expect(Array.prototype.map.call(l, (x) => x * 2)).toEqual([2, 4, 6]);
    expect(Array.prototype.filter.call(l, (x) => x > 1)).toEqual([2, 3]);
    expect(Array.prototype.reduce.call(l, (a, b) => a + b, 0)).toBe(6);
    expect(Array.prototype.indexOf.call(l, 3)).toBe(2);
    expect(Array.prototype.includes.call(l, 2)).toBe(true);
    expect(Array.prototype.slice.call(l, 1)).toEqual([2, 3]);
    expect(Array.prototype.at.call(l, -1)).toBe(3);
    let sum = 0;
    Array.prototype.forEach.call(l, (x, i) => { sum += x * i; });
    expect(sum).toBe(8);
    expect(Array.from(l)).toEqual([1, 2, 3]);
    expect(Array.prototype.join.call(java.util.List.of('a', 'b'))).toBe('a,b');
  });

  it('keep members before elements and JS arrays unchanged', () => {
    const l = listOf(1);
    expect(typeof l.size).toBe('function');
    expect(typeof l.get).toBe('function');
    expect([1, 2][1]).toBe(2);
    expect([1, 2].length).toBe(2);
  });
});

describe('Java Maps', () => {
  it('read entries by name when no member has it, undefined for a missing key', () => {
    const m = new java.util.HashMap();
    m.put('a', 1);
    m.put('nothing', null);
    expect(m.a).toBe(1);
    expect(m.nothing).toBe(null);
    expect(m.missing).toBe(undefined);
    // members win: size is the method, not the entry
    m.put('size', 'entry');
    expect(typeof m.size).toBe('function');
    expect(m.get('size')).toBe('entry');
    expect(m.then).toBe(undefined);
  });

  it('write entries by name with put, members still refused', () => {
    const m = new java.util.TreeMap();
    m.b = 2;
    m.a = 'one';
    expect(m.get('b')).toBe(2);
    expect(m.get('a')).toBe('one');
    expect(m.a).toBe('one');
    expect(m.size()).toBe(2);
    const fixed = java.util.Map.of('k', 1);
    thrown(() => { fixed.k = 2; }, Error, /UnsupportedOperationException/);
  });

  it('answer `in` for members, not for keys', () => {
    const m = new java.util.HashMap();
    m.put('a', 1);
    expect('get' in m).toBe(true);
    expect('a' in m).toBe(false);   // a prototype trap is not told the receiver
  });
});

describe('JSON.stringify of Java collections', () => {
  it('renders Lists and arrays as arrays and Maps as objects, nested too', () => {
    expect(JSON.stringify({ l: java.util.List.of(1, 2) })).toBe('{"l":[1,2]}');
    expect(JSON.stringify(Java.to([1, 2, 3], 'int[]'))).toBe('[1,2,3]');
    expect(JSON.stringify(Java.to(['x', null], 'java.lang.String[]'))).toBe('["x",null]');
    const m = new java.util.LinkedHashMap();
    m.put('a', 1);
    m.put('list', listOf('x', java.util.Map.of('k', true)));
    m.put(7, 'seven');
    // (a JS object lists integer keys first)
    expect(JSON.stringify(m)).toBe('{"7":"seven","a":1,"list":["x",{"k":true}]}');
    const set = new java.util.TreeSet();
    set.add(2);
    set.add(1);
    expect(JSON.stringify(set)).toBe('[1,2]');
    expect(JSON.stringify([listOf()])).toBe('[[]]');
  });

  it('refuses a collection that contains itself, and bounds the depth', () => {
    const l = listOf(1);
    l.add(l);
    thrown(() => JSON.stringify(l), TypeError, /circular structure to JSON: a Java java\.util\.ArrayList contains itself/);
    const top = listOf();
    let cur = top;
    for (let i = 0; i < 300; i++) { const n = listOf(); cur.add(n); cur = n; }
    thrown(() => JSON.stringify(top), RangeError, /nested deeper than 256 levels/);
  });

  it('leaves other Java objects to JSON.stringify (no own enumerable keys)', () => {
    expect(JSON.stringify({ o: new java.lang.Object() })).toBe('{"o":{}}');
  });

  it('converts a whole tree of lists, maps and primitive arrays at once', () => {
    const m = new java.util.LinkedHashMap();
    m.put('ints', Java.to([1, -2], 'int[]'));
    m.put('bytes', Java.to([-1, 7], 'byte[]'));
    m.put('shorts', Java.to([300], 'short[]'));
    m.put('doubles', Java.to([1.5, -0], 'double[]'));
    m.put('floats', Java.to([0.5], 'float[]'));
    m.put('longs', Java.to([1, 2 ** 40], 'long[]'));
    m.put('chars', Java.to(['a', 'é'], 'char[]'));
    m.put('bools', Java.to([true, false], 'boolean[]'));
    m.put('objs', Java.to(['s', null], 'java.lang.Object[]'));
    m.put('empty', listOf());
    m.put('emptyMap', new java.util.HashMap());
    m.put('emptyInts', Java.to([], 'int[]'));
    const l = listOf(m, listOf(listOf('deep')), java.util.Set.of());
    expect(JSON.stringify(l)).toBe('[{"ints":[1,-2],"bytes":[-1,7],"shorts":[300],"doubles":[1.5,0],"floats":[0.5],' +
      '"longs":[1,1099511627776],"chars":["a","é"],"bools":[true,false],"objs":["s",null],"empty":[],' +
      '"emptyMap":{},"emptyInts":[]},[["deep"]],[]]');
    // toJSON gives fresh plain arrays and objects, -0 kept as a number
    const t = l.toJSON();
    expect(Array.isArray(t)).toBe(true);
    expect(Object.getPrototypeOf(t[0])).toBe(Object.prototype);
    expect(Object.is(t[0].doubles[1], -0)).toBe(true);
    expect(l.toJSON() === t).toBe(false);
  });

  it('renders boxed numbers, chars, booleans and strings as JSON does', () => {
    const l = listOf(java.lang.Byte.valueOf(-3), java.lang.Short.valueOf(9), java.lang.Float.valueOf(0.1),
                     java.lang.Double.NaN, java.lang.Double.POSITIVE_INFINITY, java.lang.Character.valueOf('C'),
                     false, 'q"\n\u0001€\ud800');
    expect(JSON.stringify(l)).toBe('[-3,9,' + JSON.stringify(Math.fround(0.1)) + ',null,null,"C",false,' +
                                   JSON.stringify('q"\n\u0001€\ud800') + ']');
  });

  it('keeps longs beyond 2^53 BigInts, which JSON.stringify refuses', () => {
    const Long = java.lang.Long;
    expect(JSON.stringify(listOf(Long.valueOf('9007199254740991'), Long.valueOf('-9007199254740991'))))
      .toBe('[9007199254740991,-9007199254740991]');
    expect(JSON.stringify(listOf(Long.valueOf('9007199254740992')))).toBe('[9007199254740992]');
    thrown(() => JSON.stringify(listOf(1, Long.MAX_VALUE)), TypeError, /BigInt/);
    thrown(() => JSON.stringify(Java.to([0, Long.MIN_VALUE], 'long[]')), TypeError, /BigInt/);
    // a replacer sees the BigInt
    expect(JSON.stringify(listOf(Long.MAX_VALUE), (k, v) => typeof v === 'bigint' ? String(v) : v))
      .toBe('["9223372036854775807"]');
  });

  it('writes map keys as String.valueOf gives them, the last of equal keys winning', () => {
    const m = new java.util.LinkedHashMap();
    m.put(1, 'int');
    m.put('1', 'string');
    m.put(null, 'nothing');
    m.put(java.time.LocalDate.of(2020, 1, 2), 'date');
    m.put(true, 'yes');
    m.put('__proto__', 'own');
    const t = m.toJSON();
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
    expect(JSON.stringify(m)).toBe('{"1":"string","null":"nothing","2020-01-02":"date","true":"yes","__proto__":"own"}');
  });

  it('leaves a Java object deep inside to JSON.stringify as itself, JS values as they are', () => {
    const day = java.time.LocalDate.of(2020, 1, 2);
    const m = new java.util.LinkedHashMap();
    m.put('day', day);
    m.put('n', 1);
    const inner = listOf(new java.lang.Object(), new java.util.concurrent.atomic.AtomicInteger(5));
    m.put('inner', inner);
    const l = listOf(m);
    expect(JSON.stringify(l)).toBe('[{"day":{},"n":1,"inner":[{},{}]}]');
    // the replacer is given the very Java object, so code can render it
    expect(JSON.stringify(l, (k, v) => v instanceof java.time.LocalDate ? v.toString() : v))
      .toBe('[{"day":"2020-01-02","n":1,"inner":[{},{}]}]');
    let seen = null;
    JSON.stringify(l, (k, v) => { if (k === 'day') seen = v; return v; });
    expect(seen).toBe(day);
    // JS objects put into Java collections come back as themselves
    const js = { x: [1, { y: 2 }], toJSONless: true };
    const withJs = listOf(js, { toJSON() { return 'custom'; } });
    expect(JSON.stringify(withJs)).toBe('[{"x":[1,{"y":2}],"toJSONless":true},"custom"]');
  });

  it('refuses cycles through maps and lists, naming the collection that repeats, and renders shared ones twice', () => {
    const m = new java.util.HashMap();
    m.put('self', m);
    thrown(() => JSON.stringify(m), TypeError, /circular structure to JSON: a Java java\.util\.HashMap contains itself/);
    const l = listOf();
    const inner = new java.util.LinkedHashMap();
    inner.put('back', l);
    l.add(inner);
    thrown(() => JSON.stringify(l), TypeError, /a Java java\.util\.ArrayList contains itself/);
    thrown(() => JSON.stringify({ deep: inner }), TypeError, /a Java java\.util\.LinkedHashMap contains itself/);
    const arr = Java.to([null], 'java.lang.Object[]');
    arr[0] = arr;
    thrown(() => JSON.stringify(arr), TypeError, /a Java java\.lang\.Object\[\] contains itself/);
    const shared = listOf(1);
    expect(JSON.stringify(listOf(shared, shared, listOf(shared)))).toBe('[[1],[1],[[1]]]');
  });

  it('converts 256 levels of nesting and refuses a 257th, lists, maps and arrays alike', () => {
    const chain = (levels, leaf) => {
      const top = listOf();
      let cur = top;
      for (let i = 1; i < levels - 1; i++) { const n = i % 2 ? new java.util.HashMap() : listOf(); if (cur instanceof java.util.Map) cur.put('k', n); else cur.add(n); cur = n; }
      if (cur instanceof java.util.Map) cur.put('k', leaf); else cur.add(leaf);
      return top;
    };
    const ok = JSON.stringify(chain(256, listOf(1)));
    expect(ok.length > 256 * 2).toBe(true);
    expect(ok.indexOf('[1]') > 0).toBe(true);
    thrown(() => JSON.stringify(chain(257, listOf(1))), RangeError, /nested deeper than 256 levels/);
    thrown(() => JSON.stringify(chain(257, Java.to([1], 'int[]'))), RangeError, /nested deeper than 256 levels/);
    // a leaf that is no collection does not count
    expect(JSON.stringify(chain(256, 'x')).indexOf('"x"') > 0).toBe(true);
  });

  it('converts a large list of records in one go', () => {
    const l = new java.util.ArrayList();
    for (let i = 0; i < 5000; i++) { const r = new java.util.LinkedHashMap(); r.put('id', i); r.put('name', 'n' + i); l.add(r); }
    const parsed = JSON.parse(JSON.stringify(l));
    expect(parsed.length).toBe(5000);
    expect(parsed[4999]).toEqual({ id: 4999, name: 'n4999' });
  });
});

describe('console.log of Java collections', () => {
  it('shows elements as an array and entries as an object, after the class name and size', () => {
    expect(inspect(listOf(1, 'a'))).toBe("java.util.ArrayList(2) [ 1, 'a' ]");
    const m = new java.util.LinkedHashMap();
    m.put('a', 1);
    expect(inspect(m)).toBe('java.util.LinkedHashMap(1) { a: 1 }');
    expect(inspect(Java.to([1, 2], 'int[]'))).toBe('int[](2) [ 1, 2 ]');
    expect(inspect(listOf(listOf(1)))).toBe('java.util.ArrayList(1) [ java.util.ArrayList(1) [ 1 ] ]');
  });

  it('stops at a list inside itself and at the depth', () => {
    const l = listOf(1);
    l.add(l);
    expect(inspect(l)).toBe('java.util.ArrayList(2) [ 1, [Circular java.util.ArrayList] ]');
    const deep = listOf(listOf(listOf(listOf(1))));
    expect(inspect(deep)).toMatch(/\[java\.util\.ArrayList\(1\)\]/);
  });
});

describe('typed Java arrays written through an index', () => {
  it('refuse a wrong-typed element, naming the array type and the value type', () => {
    const ints = Java.to([1, 2], 'int[]');
    thrown(() => { ints[0] = 'x'; }, TypeError, /int\[\] element 0: cannot convert string to int/);
    thrown(() => { ints[1] = {}; }, TypeError, /int\[\] element 1: cannot convert object to int/);
    expect(ints[0]).toBe(1);
    const strs = Java.to(['a'], 'java.lang.String[]');
    thrown(() => { strs[0] = 5; }, TypeError, /java\.lang\.String\[\] element 0: cannot convert number 5 to java\.lang\.String/);
    thrown(() => { strs[0] = new java.lang.Object(); }, TypeError, /java\.lang\.String\[\] element 0/);
    expect(strs[0]).toBe('a');
    thrown(() => { ints[5] = 1; }, RangeError, /int\[\] index 5 out of bounds for length 2/);
  });
});

describe('java.nio buffers', () => {
  it('new ArrayBuffer(byteBuffer) throws a TypeError saying what to do instead', () => {
    const bb = java.nio.ByteBuffer.allocate(8);
    thrown(() => new ArrayBuffer(bb), TypeError,
           /java\.nio\.HeapByteBuffer \(a java\.nio\.Buffer\) cannot be used as a number or length, so new ArrayBuffer\(buffer\) cannot copy it: copy its bytes into a Java byte\[\]/);
    thrown(() => new ArrayBuffer(java.nio.ByteBuffer.allocateDirect(4)), TypeError, /java\.nio\.DirectByteBuffer/);
    thrown(() => +bb, TypeError, /java\.nio\.Buffer/);
    // its string form is still its toString()
    expect('' + bb).toBe('java.nio.HeapByteBuffer[pos=0 lim=8 cap=8]');
    expect(String(bb)).toBe('java.nio.HeapByteBuffer[pos=0 lim=8 cap=8]');
    // what the message suggests works
    bb.put(0, 7);
    const copy = new Int8Array(bb.array());
    expect(copy.length).toBe(8);
    expect(copy[0]).toBe(7);
  });
});

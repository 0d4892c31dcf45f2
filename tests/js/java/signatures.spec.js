'use strict';
// Explicit signatures of any length, and conversion errors that name the
// member, the position and Java types as Java source writes them.
const { describe, it, expect } = require('../runner');

function messageOf(f) {
  try { f(); } catch (e) { return e.constructor.name + ': ' + e.message; }
  return 'no error';
}

describe('explicit signatures', () => {
  it('resolves signatures of every length up to Java\'s parameter limit', () => {
    // List.of has overloads of 0..10 Objects: their signatures grow past 170 characters
    for (let n = 0; n <= 10; n++) {
      const sig = 'of(' + Array(n).fill('java.lang.Object').join(',') + ')';
      const args = Array.from({ length: n }, (_, i) => i);
      const list = java.util.List[sig](...args);
      expect(list.size()).toBe(n);
      if (n) expect(list.get(n - 1)).toBe(n - 1);
    }
  });

  it('names a missing long signature, and refuses names past 65536 characters', () => {
    const long = 'abs(' + 'int,'.repeat(300) + 'int)';
    expect(messageOf(() => java.lang.Math[long])).toMatch(/^TypeError: java\.lang\.Math has no static method abs\(int,int/);
    expect(messageOf(() => java.lang.Math['x'.repeat(70000)]))
      .toBe('TypeError: java.lang.Math: member name longer than 65536 characters');
    expect(messageOf(() => new java.util.ArrayList()['y'.repeat(70000)]))
      .toBe('TypeError: java.util.ArrayList: member name longer than 65536 characters');
  });
});

describe('conversion errors', () => {
  const arrays = [
    ['new java.io.ByteArrayInputStream(byte[]) argument 1', () => new java.io.ByteArrayInputStream(new java.util.ArrayList()), 'java.util.ArrayList to byte[]'],
    ['java.util.Arrays.sort(java.lang.Object[]) argument 1', () => java.util.Arrays['sort(java.lang.Object[])'](Java.array('int', 2)), 'int[] to java.lang.Object[]'],
    ['java.util.Arrays.fill(long[],long) argument 1', () => java.util.Arrays['fill(long[],long)'](Java.array('java.lang.String', 1), 1), 'java.lang.String[] to long[]'],
  ];
  for (const [what, call, types] of arrays) {
    it('writes array types as Java source does: ' + what, () => {
      expect(messageOf(call)).toBe('TypeError: ' + what + ': cannot convert ' + types);
    });
  }

  it('names the member when a JS array is too long for a Java array or list', () => {
    const huge = [];
    huge.length = 2 ** 32 - 1;
    expect(messageOf(() => new java.io.ByteArrayInputStream(huge)))
      .toBe('RangeError: new java.io.ByteArrayInputStream(byte[]) argument 1: array length 4294967295 does not fit a Java array or list');
    // a List parameter gets the live JsArray (no copy, no length limit); an
    // element of a copy is still a list built from the JS array
    expect(messageOf(() => java.util.Arrays['asList(java.lang.Object[])']([huge])))
      .toMatch(/^RangeError: java\.util\.Arrays\.asList\(java\.lang\.Object\[\]\) argument 1 element 0: array length 4294967295/);
  });
});

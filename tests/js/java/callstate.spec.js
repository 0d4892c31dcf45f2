'use strict';
// The state of a JS -> Java call (receiver, its wrapper, the `this` of a
// JS `new`) belongs to that call: a nested call made while the arguments
// convert (an array element getter calling Java), whatever way it ends,
// must not change what the outer call works on or returns. The old bridge
// kept the receiver's wrapper in a per-runtime slot that a nested call
// failing overload resolution left behind, so sb.append(arr) returned the
// nested call's receiver. Cases: every outer call x every way a nested
// call can end.
const { describe, it, expect } = require('../runner');

// A one-element JS array whose element getter runs inner() first.
function arrayCalling(inner) {
  const a = [];
  Object.defineProperty(a, 0, { get() { inner(); return 7; }, enumerable: true });
  return a;
}

// Nested calls on `other`, each ending its own way.
const innerKinds = {
  'overload failure': (other) => other.add(1, 2, 3, 4),
  'conversion failure': (other) => other.get('x'),
  'Java exception': (other) => other.get(99),
  'receiver failure': (other) => other.size.call({}),
  'missing member': (other) => other.nope(),
  'explicit signature failure': (other) => other['add(int,java.lang.Object)']('x', 1),
  'static overload failure': () => java.lang.Math.max(1),
  'constructor failure': () => new java.lang.StringBuilder(1, 2, 3, 4, 5),
  'success': (other) => other.size(),
  'nested success returning this': (other) => new java.lang.StringBuilder().append(1).append(other),
};

// Outer calls that return their receiver (the case the wrapper shortcut
// serves) or a new object.
const outerKinds = {
  'StringBuffer.append(java.lang.Object)': () => {
    const r = new java.lang.StringBuffer();
    return [r, (a) => r['append(java.lang.Object)'](a)];
  },
  'StringBuilder.insert(int,java.lang.Object)': () => {
    const r = new java.lang.StringBuilder();
    return [r, (a) => r['insert(int,java.lang.Object)'](0, a)];
  },
  'explicit append(java.lang.Object)': () => {
    const r = new java.lang.StringBuilder();
    return [r, (a) => r['append(java.lang.Object)'](a)];
  },
  'Stream.Builder.add': () => { const r = java.util.stream.Stream.builder(); return [r, (a) => r.add(a)]; },
};

describe('per-call state', () => {
  for (const on of Object.keys(outerKinds)) {
    for (const iname of Object.keys(innerKinds)) {
      it(on + ' with a nested ' + iname + ' in an argument', () => {
        const other = new java.util.ArrayList();
        const [recv, call] = outerKinds[on]();
        const arg = arrayCalling(() => {
          try {
            innerKinds[iname](other);
          } catch (e) { /* the nested call's own error */ }
        });
        const r = call(arg);
        expect(r === recv).toBe(true);
        expect(r === other).toBe(false);
        expect(other.size()).toBe(0);
        // the receiver is still usable and is the same object
        expect(recv.hashCode()).toBe(r.hashCode());
      });
    }
  }

  it('new with a nested call in an argument makes its own object', () => {
    for (const iname of Object.keys(innerKinds)) {
      const other = new java.util.ArrayList();
      const made = new java.util.ArrayList(arrayCalling(() => {
        try {
          innerKinds[iname](other);
        } catch (e) { /* nested error */ }
      }));
      expect(made instanceof java.util.ArrayList).toBe(true);
      expect(made === other).toBe(false);
      expect(made.size()).toBe(1);
      expect(made.get(0)).toBe(7);
    }
  });

  it('explicit constructor signatures construct, called or with new', () => {
    const cases = [
      ['java.lang.StringBuilder', 'new(java.lang.String)', ['ab'], (o) => String(o.toString()) === 'ab'],
      ['java.lang.StringBuilder', 'new(int)', [5], (o) => o.length() === 0],
      ['java.util.ArrayList', 'new(int)', [3], (o) => o.size() === 0],
      ['java.util.ArrayList', 'new(java.util.Collection)', [[1, 2]], (o) => o.size() === 2],
      ['java.math.BigInteger', 'new(java.lang.String)', ['12'], (o) => String(o) === '12'],
      ['java.math.BigInteger', 'new(java.lang.String,int)', ['ff', 16], (o) => String(o) === '255'],
      ['java.lang.Thread', 'new(java.lang.String)', ['t1'], (o) => o.getName() === 't1'],
      ['java.util.HashMap', 'new(int,float)', [4, 0.5], (o) => o.isEmpty()],
      ['java.lang.String', 'new(java.lang.String)', ['s'], (o) => String(o) === 's'],
    ];
    for (const [cn, sig, args, ok] of cases) {
      const C = Java.type(cn);
      const f = C[sig];
      expect(typeof f).toBe('function');
      const a = f(...args);
      const b = new f(...args);
      expect(ok(a)).toBe(true);
      expect(ok(b)).toBe(true);
      if (cn !== 'java.lang.String') {
        expect(a instanceof C).toBe(true);
        expect(b instanceof C).toBe(true);
        expect(a === b).toBe(false);
      }
      expect(() => f(Symbol('x'))).toThrow(/argument 1|takes/);
    }
    expect(() => java.lang.StringBuilder['new(java.util.Nope)']).toThrow(TypeError);
  });
});

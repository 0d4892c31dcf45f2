'use strict';
// Nested JS arrays converted to Java recurse on the C stack once per level:
// past a fixed limit the conversion is a RangeError naming the limit, never
// a stack overflow (the old bridge crashed on 100,000 levels passed to a
// List parameter). For every way a JS array reaches Java (List, Collection,
// Object, Object[], varargs, Java.to, a field, a Java array element):
// limit - 1 and limit levels convert, limit + 1 and 100,000 are
// RangeErrors, and the runtime keeps working.
const { describe, it, expect } = require('../runner');

// An array nested n levels deep: [[...[]...]] (n = 1 is []).
function nested(n) {
  let a = [];
  for (let i = 1; i < n; i++) a = [a];
  return a;
}

// Levels of a converted java.util.List / Object[] nest.
function levels(o) {
  let n = 0;
  while (o !== null && o !== undefined) {
    n++;
    if (o instanceof java.util.List) o = o.size() ? o.get(0) : null;
    else if (o instanceof java.lang.Object && o.getClass().isArray()) o = o.length ? o[0] : null;
    else break;
  }
  return n;
}

// Ways that copy a JS array into Java (Java arrays and the lists inside
// them): these recurse and are limited.
const ways = {
  'Object[] parameter': (a) => java.util.Arrays.asList(a),
  'Java.to Object[]': (a) => Java.to(a, 'java.lang.Object[]'),
};

// Ways that pass the JS array itself (a live JsArray): nothing is copied,
// so no depth applies and what comes back to JS is the array itself.
const live = {
  'List parameter': (a) => new java.util.ArrayList(a).get(0),
  'Collection parameter (instance method)': (a) => { const l = new java.util.ArrayList(); l.addAll(a); return l.get(0); },
  'Object parameter': (a) => { const l = new java.util.ArrayList(); l.add(a); return l.get(0); },
  'Map value': (a) => { const m = new java.util.HashMap(); m.put('k', a); return m.get('k'); },
  'Object element of varargs': (a) => java.util.List.of(a, a).get(0),
};

describe('conversion depth', () => {
  const err = (() => {
    try {
      Java.to(nested(100000), 'java.lang.Object[]');
    } catch (e) {
      return e;
    }
    return null;
  })();

  it('100,000 levels copied are a RangeError naming the limit', () => {
    expect(err instanceof RangeError).toBe(true);
    expect(err.message).toMatch(/^Java\.to\(.*nested deeper than \d+ levels/);
  });

  const limit = err ? Number(/deeper than (\d+) levels/.exec(err.message)[1]) : 0;

  for (const w of Object.keys(ways)) {
    it(w + ': limit - 1 and limit convert, limit + 1 and 100,000 throw', () => {
      expect(limit).toBeGreaterThan(16);
      for (const n of [1, 2, limit - 1, limit]) {
        const r = ways[w](nested(n));
        // what reached Java has all the levels (List.of etc. keep the outer one)
        expect(levels(r)).toBeGreaterThanOrEqual(n - 2);
      }
      for (const n of [limit + 1, limit + 2, 100000]) {
        let e;
        try {
          ways[w](nested(n));
        } catch (x) {
          e = x;
        }
        expect(e instanceof RangeError).toBe(true);
        expect(e.message).toMatch(new RegExp('nested deeper than ' + limit + ' levels'));
      }
      // the runtime still works
      expect(Java.to([1, [2]], 'java.lang.Object[]').length).toBe(2);
    });
  }

  for (const w of Object.keys(live)) {
    it(w + ': 100,000 levels pass live, as the array itself', () => {
      const a = nested(100000);
      const r = live[w](w === 'List parameter' || w.startsWith('Collection') ? [a] : a);
      expect(r === a).toBe(true);
    });
  }

  it('wide but shallow arrays are not limited', () => {
    const wide = [];
    for (let i = 0; i < 5000; i++) wide.push([i, [i]]);
    expect(new java.util.ArrayList(wide).size()).toBe(5000);
    expect(Java.to(wide, 'java.lang.Object[]').length).toBe(5000);
  });
});

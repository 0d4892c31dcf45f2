'use strict';
// JS -> Java -> JS nesting of any depth the stack allows, the error past
// it, and one thread crossing runtimes (A -> B -> A ...): the runtime gate
// keeps one suspension record per Java call made from JS.
const { describe, it, expect } = require('../runner');

const Optional = java.util.Optional;
const JThread = java.lang.Thread;

// A small seeded generator (LCG), so failures replay.
function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 16) % n;
  };
}

// Ways to go JS -> Java -> JS for one level: each calls next(k) from Java
// and returns its result.
const viaJava = [
  (k, next) => Optional.of(k).map(next).get(),                                  // Function
  (k, next) => Optional.empty().orElseGet(() => next(k)),                       // Supplier
  (k, next) => {                                                                // Comparator
    const list = java.util.Arrays.asList(k, k);
    let r;
    java.util.Collections.max(list, (a, b) => { if (r === undefined) r = next(a); return 0; });
    return r;
  },
];

// depth(n): n levels of JS -> Java -> JS; the kinds of bridge come from
// the seeded generator; returns n.
function nest(n, seed) {
  const pick = rng(seed);
  const kinds = [];
  for (let i = 0; i < n; i++) kinds.push(pick(viaJava.length));
  const down = (k) => (k === 0 ? 0 : 1 + viaJava[kinds[k - 1]](k - 1, down));
  return down(n);
}

// Recurses through Java until something throws; returns the error and the
// deepest level reached.
function overflow() {
  let deepest = 0;
  const down = (k) => { deepest = k; return Optional.of(k + 1).map(down).get(); };
  try {
    down(0);
  } catch (e) {
    return { error: e, deepest };
  }
  return { error: null, deepest };
}

// The error past the stack: JSC's RangeError, or a Java StackOverflowError
// surfacing as a JS error with javaException.
function expectStackError(r) {
  expect(r.error === null).toBe(false);
  const e = r.error;
  const javaSoe = e && e.javaException && e.javaException instanceof java.lang.StackOverflowError;
  const rangeError = e instanceof RangeError && /Maximum call stack size exceeded/.test(e.message);
  if (!javaSoe && !rangeError) throw new Error('not a stack error: ' + e);
  expect(r.deepest).toBeGreaterThan(20);
}

// Runs fn on a new Java thread (stackSize 0: the JVM's default) and
// returns what it returned; rethrows what it threw.
function onThread(stackSize, fn) {
  let out, err, threw = false;
  const t = new JThread(null, () => {
    try { out = fn(); } catch (e) { err = e; threw = true; }
  }, 'reentry', stackSize);
  t.start();
  t.join();
  if (threw) throw err;
  return out;
}

describe('JS -> Java -> JS nesting', () => {
  it('gives the right values at depths 300 and 1000, over generated mixes of bridges', () => {
    for (let seed = 1; seed <= 3; seed++) {
      expect(nest(300, seed)).toBe(300);
      expect(nest(1000, seed)).toBe(1000);
    }
  });

  it('reaches depth 5000 on a thread whose stack has room', () => {
    expect(onThread(256 * 1024 * 1024, () => nest(5000, 7))).toBe(5000);
  });

  it('ends in a catchable stack error past the stack, and the runtime works afterwards', () => {
    expectStackError(overflow());
    expect(nest(100, 5)).toBe(100);
  });

  it('ends in a catchable stack error on a default new Thread too', () => {
    const r = onThread(0, () => {
      const o = overflow();
      return { o, after: nest(20, 3) };
    });
    expectStackError(r.o);
    expect(r.after).toBe(20);
    expect(nest(100, 4)).toBe(100);
  });
});

describe('one thread crossing runtimes', () => {
  // Runtimes A (this one), B and C. Each has hop(k): if PATH goes on, it
  // enters the runtime PATH[k + 1] (a Java call to that runtime's entry
  // Function) and returns the names of the runtimes it went through.
  function setUp() {
    const rts = [null, org.strait.JsRuntime.newBuilder().allowAllAccess(true).build(), org.strait.JsRuntime.newBuilder().allowAllAccess(true).build()];
    const hopSrc = `(function (name) {
      globalThis.NAME = name;
      globalThis.hop = (k) => {
        if (k + 1 >= PATH.length) return '';
        const n = 'ABC'.indexOf(PATH[k + 1]);
        return String(ENTRIES.get(n).apply(k + 1));
      };
      globalThis.entry = new java.util.function.Function({ apply: (k) => NAME + hop(k) });
    })`;
    (0, eval)(hopSrc)('A');
    rts[1].eval(hopSrc + "('B')");
    rts[2].eval(hopSrc + "('C')");
    const entries = new java.util.ArrayList();
    entries.add(globalThis.entry);
    entries.add(rts[1].eval('entry'));
    entries.add(rts[2].eval('entry'));
    globalThis.ENTRIES = entries;
    rts[1].setGlobal('ENTRIES', entries);
    rts[2].setGlobal('ENTRIES', entries);
    const setPath = (p) => {
      globalThis.PATH = p;
      rts[1].setGlobal('PATH', p);
      rts[2].setGlobal('PATH', p);
    };
    const run = (p) => { setPath(p); return String(entries.get('ABC'.indexOf(p[0])).apply(0)); };
    return { rts, run, close: () => { rts[1].close(); rts[2].close(); } };
  }

  // Paths that mostly go back where they came from (A -> B -> A), else
  // anywhere; always starting in A (this thread is inside A).
  function genPath(seed, len) {
    const pick = rng(seed);
    const p = ['A'];
    for (let k = 1; k < len; k++) p.push(pick(4) < 2 && k >= 2 ? p[k - 2] : 'ABC'[pick(3)]);
    return p.join('');
  }

  it('JsRuntime.create() from a script, eval in it, and a callback into the first runtime', () => {
    const B = org.strait.JsRuntime.newBuilder().allowAllAccess(true).build();
    globalThis.bump = (x) => x + 1;
    const f = B.eval('(function (g) { return g.apply(41) + 100; })');
    expect(f.call(new java.util.function.Function({ apply: (x) => bump(x) }))).toBe(142);
    B.close();
  });

  it('follows generated A/B/C paths at depths 2 to 150 and gives the right names', () => {
    const x = setUp();
    try {
      expect(x.run('AB')).toBe('AB');
      expect(x.run('ABA')).toBe('ABA');
      expect(x.run('ABAB')).toBe('ABAB');
      for (let seed = 1; seed <= 25; seed++) {
        const p = genPath(seed, 2 + ((seed * 37) % 149));
        expect(x.run(p)).toBe(p);
      }
      expect(x.run('A' + 'BA'.repeat(60))).toBe('A' + 'BA'.repeat(60));
    } finally {
      x.close();
    }
  });

  it('follows generated paths from another thread while this one waits in Java', () => {
    const x = setUp();
    try {
      const got = onThread(0, () => {
        const out = [];
        for (let seed = 100; seed < 110; seed++) {
          const p = genPath(seed, 2 + seed % 30);
          out.push([p, x.run(p)]);
        }
        return out;
      });
      for (const [want, have] of got) expect(have).toBe(want);
    } finally {
      x.close();
    }
  });

  it('ends crossed recursion past the stack in a catchable error; every runtime works afterwards', () => {
    const x = setUp();
    try {
      // On a default Java thread stack: the overflow comes after a few
      // dozen crossings instead of thousands.
      const err = onThread(0, () => {
        try {
          x.run('A' + 'BA'.repeat(5000));
        } catch (e) {
          return String(e) + (e.javaException ? ' / ' + String(e.javaException) : '');
        }
        return null;
      });
      expect(err === null).toBe(false);
      expect(/Maximum call stack size exceeded|StackOverflowError/.test(err)).toBe(true);
      expect(x.run('ABCBA')).toBe('ABCBA');
      expect(x.rts[1].eval('1 + 1')).toBe(2);
      expect(onThread(0, () => x.run('ACABA'))).toBe('ACABA');
    } finally {
      x.close();
    }
  });
});

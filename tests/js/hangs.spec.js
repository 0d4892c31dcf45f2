'use strict';
// Work that must stay bounded: clearing many timers, Java.type of absurd
// names, console.log of very deep or very sparse values. Each test asserts
// behaviour (what fires, what is printed, which error); the spec runner's
// per-test timeout and the per-file timeout of scripts/test-js.sh turn a
// hang back into a failure.
const { describe, it, expect } = require('./runner');

// A small deterministic PRNG (mulberry32), so a failure can be replayed.
function rng(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('timers: clearing is not a search', () => {
  // 200,000 timers with 40 delays; three quarters cleared (in reverse order
  // of creation, or in random order); the rest must fire exactly once and in
  // due-time order. A timer's due time is its creation time plus its delay,
  // so whatever the clock did while they were made, a timer made earlier
  // with a delay no longer than a later one's must fire first.
  for (const order of ['reverse', 'random']) {
    it(`200,000 timers, 150,000 cleared in ${order} order: only the others fire, in order`, () => {
      const N = 200000;
      const fired = [];
      const ids = new Array(N);
      const delay = (i) => 1 + (i * 7919) % 40;
      for (let i = 0; i < N; i++) ids[i] = setTimeout(() => fired.push(i), delay(i));
      const cleared = new Uint8Array(N);
      let victims = [];
      for (let i = 0; i < N; i++) if (i % 4 !== 0) victims.push(i);
      if (order === 'reverse') victims.reverse();
      else {
        const r = rng(42);
        for (let i = victims.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          const t = victims[i]; victims[i] = victims[j]; victims[j] = t;
        }
      }
      for (const i of victims) { clearTimeout(ids[i]); cleared[i] = 1; }
      // clearing twice, or an id that never existed, does nothing
      clearTimeout(ids[1]); clearTimeout(-5); clearTimeout(1e300); clearTimeout(NaN);
      return new Promise((resolve, reject) => {
        setTimeout(() => {
          try {
            const count = new Uint8Array(N);
            for (const i of fired) count[i]++;
            let wrongSet = 0;
            for (let i = 0; i < N; i++) if (count[i] !== (cleared[i] ? 0 : 1)) wrongSet++;
            expect(wrongSet).toBe(0);
            expect(fired.length).toBe(N / 4);
            // walk back from the last fired: minLater[d] is the smallest index
            // of delay d fired after the current one
            const minLater = new Array(41).fill(Infinity);
            let outOfOrder = 0;
            for (let k = fired.length - 1; k >= 0; k--) {
              const j = fired[k], dj = delay(j);
              for (let d = 1; d <= dj; d++) if (minLater[d] < j) { outOfOrder++; break; }
              if (j < minLater[dj]) minLater[dj] = j;
            }
            expect(outOfOrder).toBe(0);
            resolve();
          } catch (e) { reject(e); }
        }, 60);
      });
    }, 60000);
  }

  it('a timer cleared by an earlier callback of the same turn does not fire', () => new Promise((resolve, reject) => {
    const log = [];
    let b;
    setTimeout(() => { log.push('a'); clearTimeout(b); }, 5);
    b = setTimeout(() => log.push('b'), 5);
    setTimeout(() => log.push('c'), 5);
    setTimeout(() => {
      try { expect(log.join()).toBe('a,c'); resolve(); } catch (e) { reject(e); }
    }, 30);
  }));

  it('clearTimeout of its own id inside the callback, and of fired ids, is harmless', () => new Promise((resolve, reject) => {
    let n = 0;
    const id = setTimeout(() => { n++; clearTimeout(id); clearTimeout(id); }, 1);
    setTimeout(() => {
      clearTimeout(id);
      try { expect(n).toBe(1); resolve(); } catch (e) { reject(e); }
    }, 20);
  }));

  it('an interval cleared from its own callback stops; ids stay unique', () => new Promise((resolve, reject) => {
    let runs = 0;
    const seen = new Set();
    const iv = setInterval(() => { if (++runs === 3) clearInterval(iv); }, 1);
    for (let i = 0; i < 1000; i++) seen.add(setTimeout(() => {}, 0));
    seen.add(iv);
    setTimeout(() => {
      try { expect(runs).toBe(3); expect(seen.size).toBe(1001); resolve(); } catch (e) { reject(e); }
    }, 50);
  }));

  it('many timers set and cleared in waves leave nothing pending', () => new Promise((resolve, reject) => {
    let fired = 0;
    const r = rng(7);
    for (let wave = 0; wave < 20; wave++) {
      const ids = [];
      for (let i = 0; i < 5000; i++) ids.push(setTimeout(() => { fired++; }, 1 + Math.floor(r() * 5)));
      for (let i = ids.length - 1; i >= 0; i--) if (i % 5 !== 0) clearTimeout(ids[i]);
    }
    setTimeout(() => {
      try { expect(fired).toBe(20 * 1000); resolve(); } catch (e) { reject(e); }
    }, 40);
  }), 30000);
});

describe('console.log / util.inspect of huge or deep values', () => {
  const { inspect } = require('util');

  it('an object nested 100,000 deep prints three levels and [Object], as Node', () => {
    const o = {};
    let cur = o;
    for (let i = 0; i < 100000; i++) { cur.k = {}; cur = cur.k; }
    expect(inspect(o)).toBe('{ k: { k: { k: [Object] } } }');
    const a = [];
    let c = a;
    for (let i = 0; i < 100000; i++) { c.push([]); c = c[0]; }
    expect(inspect(a)).toBe('[ [ [ [Array] ] ] ]');
  });

  // Sparse arrays whose holes are counted, not tested one index at a time:
  // lengths up to 2^32-1 with elements at the ends, in the middle, nowhere.
  const cases = [
    [() => { const a = []; a[4e9] = 1; a[5] = 'x'; return a; }, "[ <5 empty items>, 'x', <3999999994 empty items>, 1 ]"],
    [() => { const a = []; a[2 ** 32 - 2] = 0; return a; }, '[ <4294967294 empty items>, 0 ]'],
    [() => { const a = []; a.length = 2 ** 32 - 1; return a; }, '[ <4294967295 empty items> ]'],
    [() => { const a = [1]; a.length = 2 ** 32 - 1; a[300] = 2; return a; },
      '[ 1, <299 empty items>, 2, <4294966994 empty items> ]'],
    [() => [1, , 3], '[ 1, <1 empty item>, 3 ]'],
    [() => { const a = new Array(1e7); a[9e6] = 1; return a; }, '[ <9000000 empty items>, 1, <999999 empty items> ]'],
    [() => { const a = []; for (let i = 0; i < 200; i++) a[i * 1000] = i; return a; }, null],
  ];
  cases.forEach(([make, want], n) => {
    it(`sparse array case ${n} prints its hole runs counted`, () => {
      const v = make();
      const s = inspect(v);
      if (want !== null) expect(s).toBe(want);
      else {
        // 100 entries shown (50 elements and 50 hole runs), then the rest counted
        expect(s).toMatch(/^\[\n  0, +<999 empty items>, 1, +<999 empty items>,\n/);
        expect(s).toContain('  48, <999 empty items>, 49, <999 empty items>,\n  ... 149001 more items\n]');
      }
    });
  });

  it('a Proxy claiming length 2^32-1 prints at once', () => {
    let gets = 0;
    const p = new Proxy([], { get: (t, k) => { if (k === 'length') return 2 ** 32 - 1; gets++; return 1; } });
    expect(inspect(p)).toBe('[ <4294967295 empty items> ]');
    expect(gets).toBeLessThan(1000);
  });
});

describe('Java.type of absurd names', () => {
  const haveJava = typeof Java !== 'undefined' && typeof Java.type === 'function';
  const t = haveJava ? it : it.skip;

  function typeError(name) {
    let err = null;
    try { Java.type(name); } catch (e) { err = e; }
    expect(err instanceof TypeError).toBe(true);
    return err.message;
  }

  t('a 100,000-character dotted name is refused at once as too long', () => {
    const name = Array(50000).fill('a').join('.');
    expect(typeError(name)).toBe('Java.type: class name too long (99999 characters; a Java class name has at most 65535 bytes)');
  });

  t('names at the limits: 65535 bytes and 255 dots are looked up, one more is refused', () => {
    // at the byte limit (no dots: one lookup)
    expect(typeError('a'.repeat(65535))).toMatch(/^class a+ not found$/);
    expect(typeError('a'.repeat(65536))).toContain('class name too long (65536 characters');
    // multi-byte characters count as their UTF-8 bytes
    expect(typeError('\u00e9'.repeat(32768))).toContain('too long (32768 characters');
    // at the dot limit
    const dotted = (n) => Array(n + 1).fill('x').join('.');
    expect(typeError(dotted(255))).toMatch(/^class x\.x\.x.* not found$/);
    expect(typeError(dotted(256))).toBe('Java.type: class name has 256 dots (at most 255)');
    expect(typeError(dotted(5000))).toBe('Java.type: class name has 5000 dots (at most 255)');
  });

  t('ordinary names still resolve, nested classes with dots too', () => {
    expect(typeof Java.type('java.util.ArrayList')).toBe('function');
    expect(typeof Java.type('java.util.Map.Entry')).toBe('function');
    expect(typeof Java.type('java.util.Map$Entry')).toBe('function');
    expect(typeof Java.type('int[][]')).toBe('function');
  });

  t('a package chain longer than a class name can be is a TypeError, not a truncated name', () => {
    let p = java;
    let err = null;
    const seg = 'q'.repeat(150);
    try { for (let i = 0; i < 500; i++) p = p[seg]; } catch (e) { err = e; }
    expect(err instanceof TypeError).toBe(true);
    expect(err.message).toContain('too long');
  });
});

'use strict';
// pools.js - the argument pools of the interop sweep (driver.js) and its
// seeded pseudo-random numbers.
//
//   oddValues()     the JS values every position gets in turn: null,
//                   undefined, -0, NaN, huge and fractional numbers,
//                   BigInts, strings, symbols, plain objects, arrays,
//                   functions and Proxies. Fresh values on each call (a
//                   Java call may keep or change what it got).
//   unrelated()     wrappers of a few Java classes; for a parameter of type
//                   T the sweep passes one that is not an instance of T.
//   Sentinel        the error the throwing Proxy and function throw; a
//                   call that ends with it passed the script's own error on.
//   rng(key)        a xorshift32 generator seeded by a string: the seed of
//                   the run joined with a class and member name, so a
//                   member's calls do not depend on how the classes were cut
//                   into chunks or where a resumed run started.
//
// No number here is a large int that fits an int parameter: an int used as a
// size or count (new StringBuilder(int), new ArrayList(int), String.repeat)
// must stay small, so the huge numbers are ones an int rejects (2^31 and
// up). Longs do take 2^31 and 2^53: the members that wait for a long time
// are excluded (exclude.js), the others only build lazy values with them.

class Sentinel extends Error {
  constructor(where) {
    super('sweep sentinel thrown by ' + where);
    this.name = 'Sentinel';
  }
}

// FNV-1a of a string: the seed of rng().
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h || 0x9e3779b9;
}

// rng(key)(n): an integer in [0, n), the same sequence for the same key.
function rng(key) {
  let x = hash(String(key));
  return function next(n) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return n > 0 ? x % n : x;
  };
}

// [label, value] pairs; labels name the value in failure reports.
function oddValues() {
  const sparse = [];
  sparse[4] = 1;
  const throwing = new Proxy({}, {
    get(t, k) { if (k === Symbol.toPrimitive || typeof k === 'string') throw new Sentinel('proxy get ' + String(k)); return undefined; },
    has() { throw new Sentinel('proxy has'); },
    ownKeys() { throw new Sentinel('proxy ownKeys'); },
    getPrototypeOf() { throw new Sentinel('proxy getPrototypeOf'); },
  });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    ['null', null],
    ['undefined', undefined],
    ['-0', -0],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['0.5', 0.5],
    ['-1.5', -1.5],
    ['-1', -1],
    ['2^31', 2 ** 31],
    ['-2^31-1', -(2 ** 31) - 1],
    ['2^53', 2 ** 53],
    ['2^64', 2 ** 64],
    ['1e308', 1e308],
    ['5e-324', Number.MIN_VALUE],
    ['1n', 1n],
    ['-1n', -1n],
    ['2n**64n', 2n ** 64n],
    ['-(2n**80n)', -(2n ** 80n)],
    ["''", ''],
    ["'abc'", 'abc'],
    ['lone surrogate', '\ud800x'],
    ["'x'.repeat(300)", 'x'.repeat(300)],
    ["'1.5'", '1.5'],
    ['Symbol()', Symbol('sweep')],
    ['Symbol.iterator', Symbol.iterator],
    ['{}', {}],
    ['{length: 2}', { 0: 'a', length: 2, valueOf() { return 3; } }],
    ['Object.create(null)', Object.create(null)],
    ['[]', []],
    ["[1, 'a', null]", [1, 'a', null]],
    ['[[1, 2]]', [[1, 2]]],
    ['sparse array', sparse],
    ['Array(2^32-1)', new Array(2 ** 32 - 1)],
    ['function', function sweepFn(a) { return a; }],
    ['arrow returning 0', () => 0],
    ['throwing function', () => { throw new Sentinel('function'); }],
    ['class', class SweepClass {}],
    ['Proxy({})', new Proxy({ a: 1 }, {})],
    ['Proxy(function)', new Proxy(function () { return 1; }, {})],
    ['throwing Proxy', throwing],
    ['revoked Proxy', revocable.proxy],
    ['Uint8Array', new Uint8Array(2)],
    ['Date', new Date(0)],
    ['Promise', Promise.resolve(1)],
  ];
}

// Fresh wrappers of unrelated classes, in a fixed order.
function unrelated() {
  return [
    new java.util.ArrayList(),
    new java.lang.Thread(),
    java.math.BigInteger.TEN,
    java.time.LocalDate.of(2001, 2, 3),
    new java.lang.StringBuilder('u'),
    new java.util.concurrent.atomic.AtomicLong(2),
    java.util.Locale.ROOT,
  ];
}

module.exports = { Sentinel, rng, hash, oddValues, unrelated };

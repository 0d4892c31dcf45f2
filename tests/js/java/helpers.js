'use strict';
// Shared helpers of the Java bridge specs.

// Calls fn and returns what it threw; fails when it does not throw, when
// the error is not an instance of type, or its message does not match re.
function thrown(fn, type, re) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  if (err === undefined) throw new Error('expected a throw');
  if (type && !(err instanceof type)) {
    throw new Error('expected ' + type.name + ', got ' + (err && err.name) + ': ' + (err && err.message));
  }
  if (re && !re.test(String(err && err.message))) {
    throw new Error('message ' + JSON.stringify(err && err.message) + ' does not match ' + re);
  }
  return err;
}

// A seeded PRNG (mulberry32): returns a function giving numbers in [0, 1),
// the same sequence for the same seed, for generated tests.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { thrown, rng };

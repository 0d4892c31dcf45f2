'use strict';
// runner.js - strait's own small spec runner: describe / it / expect.
//
// A spec file starts with
//   const { describe, it, expect, beforeEach, afterEach } = require('./runner');
// (or '../runner' from a sub-folder) and declares its tests; they run on the
// event loop once the file has finished loading. Each failure is printed with
// the spec file, the test's full name and the message; the last line is
//   N passed, N failed[, N skipped]
// and the process exits 1 when a test failed, 0 otherwise.
//
// Async tests return a promise or take a `done` callback; each test has a
// time limit (it(name, fn, ms), default 5000 ms).

const DEFAULT_TIMEOUT_MS = 5000;

// ---- value formatting for messages ---------------------------------------

function show(v, depth, seen) {
  depth = depth === undefined ? 2 : depth;
  seen = seen || [];
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return String(v) + 'n';
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'function') return '[Function ' + (v.name || 'anonymous') + ']';
  if (v === null || typeof v !== 'object') return String(v);
  if (seen.indexOf(v) >= 0) return '[Circular]';
  if (v instanceof Error) return (v.name || 'Error') + ': ' + v.message;
  if (v instanceof RegExp) return String(v);
  if (v instanceof Date) return 'Date(' + (isNaN(v.getTime()) ? 'Invalid' : v.toISOString()) + ')';
  if (depth < 0) return Array.isArray(v) ? '[Array]' : '[Object]';
  const next = seen.concat([v]);
  let body;
  try {
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      const items = [];
      for (let i = 0; i < v.length && i < 20; i++) items.push(show(v[i], depth - 1, next));
      if (v.length > 20) items.push('... ' + (v.length - 20) + ' more');
      const tag = Array.isArray(v) ? '' : v.constructor.name + ' ';
      return tag + '[' + items.join(', ') + ']';
    }
    if (v instanceof Map) {
      body = [];
      v.forEach((val, key) => body.push(show(key, depth - 1, next) + ' => ' + show(val, depth - 1, next)));
      return 'Map {' + body.join(', ') + '}';
    }
    if (v instanceof Set) {
      body = [];
      v.forEach((val) => body.push(show(val, depth - 1, next)));
      return 'Set {' + body.join(', ') + '}';
    }
    body = Object.keys(v).slice(0, 20).map((k) => k + ': ' + show(v[k], depth - 1, next));
  } catch (e) {
    return '[object]';
  }
  const proto = Object.getPrototypeOf(v);
  const name = proto && proto !== Object.prototype && proto.constructor ? proto.constructor.name + ' ' : '';
  return name + '{' + body.join(', ') + '}';
}

// ---- deep equality ---------------------------------------------------------

function sameNumber(a, b) {
  return a === b || (a !== a && b !== b);
}

function deepEqual(a, b, seen) {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return sameNumber(a, b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  seen = seen || [];
  for (const pair of seen) if (pair[0] === a && pair[1] === b) return true;
  seen.push([a, b]);
  if (a instanceof Date) return sameNumber(a.getTime(), b.getTime());
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameNumber(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !deepEqual(v, b.get(k), seen)) return false;
    return true;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    outer: for (const v of a) {
      if (b.has(v)) continue;
      for (const w of b) if (deepEqual(v, w, seen)) continue outer;
      return false;
    }
    return true;
  }
  if (Array.isArray(a) && a.length !== b.length) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual(a[k], b[k], seen)) return false;
  }
  return true;
}

// ---- expect ------------------------------------------------------------------

class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AssertionError';
  }
}

function describeThrown(e) {
  if (e instanceof Error) return e.name + ': ' + e.message;
  return 'the value ' + show(e);
}

function thrownMessage(e) {
  if (e && typeof e === 'object' && 'message' in e) return String(e.message);
  return String(e);
}

// Each matcher returns [pass, message-if-it-should-have-passed, message-if-negated].
const matchers = {
  toBe(actual, expected) {
    return [Object.is(actual, expected),
      'expected ' + show(actual) + ' to be ' + show(expected),
      'expected ' + show(actual) + ' not to be ' + show(expected)];
  },
  toEqual(actual, expected) {
    return [deepEqual(actual, expected),
      'expected ' + show(actual) + ' to equal ' + show(expected),
      'expected ' + show(actual) + ' not to equal ' + show(expected)];
  },
  toBeTruthy(actual) {
    return [!!actual, 'expected ' + show(actual) + ' to be truthy', 'expected ' + show(actual) + ' to be falsy'];
  },
  toBeFalsy(actual) {
    return [!actual, 'expected ' + show(actual) + ' to be falsy', 'expected ' + show(actual) + ' to be truthy'];
  },
  toBeNull(actual) {
    return [actual === null, 'expected ' + show(actual) + ' to be null', 'expected a value other than null'];
  },
  toBeUndefined(actual) {
    return [actual === undefined, 'expected ' + show(actual) + ' to be undefined', 'expected a defined value'];
  },
  toBeDefined(actual) {
    return [actual !== undefined, 'expected a defined value', 'expected ' + show(actual) + ' to be undefined'];
  },
  toBeInstanceOf(actual, cls) {
    if (typeof cls !== 'function') throw new TypeError('toBeInstanceOf needs a class, got ' + show(cls));
    return [actual instanceof cls,
      'expected ' + show(actual) + ' to be an instance of ' + (cls.name || 'the class'),
      'expected ' + show(actual) + ' not to be an instance of ' + (cls.name || 'the class')];
  },
  toContain(actual, item) {
    let pass;
    if (typeof actual === 'string') pass = actual.indexOf(String(item)) >= 0;
    else if (actual && typeof actual.has === 'function' && !Array.isArray(actual)) pass = actual.has(item);
    else if (actual && typeof actual.length === 'number') pass = Array.prototype.some.call(actual, (x) => Object.is(x, item) || x === item);
    else throw new TypeError('toContain needs a string, an array or a set, got ' + show(actual));
    return [pass, 'expected ' + show(actual) + ' to contain ' + show(item),
      'expected ' + show(actual) + ' not to contain ' + show(item)];
  },
  toMatch(actual, pattern) {
    if (typeof actual !== 'string') throw new TypeError('toMatch needs a string, got ' + show(actual));
    const pass = pattern instanceof RegExp ? pattern.test(actual) : actual.indexOf(String(pattern)) >= 0;
    return [pass, 'expected ' + show(actual) + ' to match ' + show(pattern),
      'expected ' + show(actual) + ' not to match ' + show(pattern)];
  },
  toHaveLength(actual, n) {
    const len = actual == null ? undefined : actual.length;
    return [len === n, 'expected length ' + n + ', got ' + show(len), 'expected a length other than ' + n];
  },
  toHaveProperty(actual, key, value) {
    const has = actual != null && key in Object(actual);
    const pass = has && (arguments.length < 3 || deepEqual(actual[key], value));
    const what = show(key) + (arguments.length < 3 ? '' : ' = ' + show(value));
    return [pass, 'expected ' + show(actual) + ' to have property ' + what,
      'expected ' + show(actual) + ' not to have property ' + what];
  },
  toThrow(fn, expected) {
    if (typeof fn !== 'function') throw new TypeError('toThrow needs a function, got ' + show(fn));
    let threw = false;
    let err;
    try {
      fn();
    } catch (e) {
      threw = true;
      err = e;
    }
    if (!threw) return [false, 'expected the function to throw', 'expected the function not to throw'];
    let pass = true;
    let want = '';
    if (typeof expected === 'function') {
      pass = err instanceof expected;
      want = ' an instance of ' + expected.name;
    } else if (expected instanceof RegExp) {
      pass = expected.test(thrownMessage(err));
      want = ' a message matching ' + String(expected);
    } else if (typeof expected === 'string') {
      pass = thrownMessage(err).indexOf(expected) >= 0;
      want = ' a message containing ' + JSON.stringify(expected);
    } else if (expected instanceof Error) {
      pass = thrownMessage(err) === expected.message;
      want = ' the message ' + JSON.stringify(expected.message);
    }
    return [pass, 'expected the function to throw' + want + ', but it threw ' + describeThrown(err),
      'expected the function not to throw' + (want || '') + ', but it threw ' + describeThrown(err)];
  },
  toBeCloseTo(actual, expected, digits) {
    const d = digits === undefined ? 2 : digits;
    const pass = Math.abs(expected - actual) < Math.pow(10, -d) / 2;
    return [pass, 'expected ' + show(actual) + ' to be close to ' + show(expected) + ' (' + d + ' digits)',
      'expected ' + show(actual) + ' not to be close to ' + show(expected) + ' (' + d + ' digits)'];
  },
  toBeGreaterThan(actual, n) {
    return [actual > n, 'expected ' + show(actual) + ' > ' + show(n), 'expected ' + show(actual) + ' <= ' + show(n)];
  },
  toBeGreaterThanOrEqual(actual, n) {
    return [actual >= n, 'expected ' + show(actual) + ' >= ' + show(n), 'expected ' + show(actual) + ' < ' + show(n)];
  },
  toBeLessThan(actual, n) {
    return [actual < n, 'expected ' + show(actual) + ' < ' + show(n), 'expected ' + show(actual) + ' >= ' + show(n)];
  },
  toBeLessThanOrEqual(actual, n) {
    return [actual <= n, 'expected ' + show(actual) + ' <= ' + show(n), 'expected ' + show(actual) + ' > ' + show(n)];
  },
  toBeNaN(actual) {
    return [typeof actual === 'number' && actual !== actual, 'expected ' + show(actual) + ' to be NaN',
      'expected a value other than NaN'];
  },
};

function makeExpectation(actual, negated) {
  const e = {};
  for (const name of Object.keys(matchers)) {
    e[name] = function (...args) {
      const [pass, msg, notMsg] = matchers[name](actual, ...args);
      if (pass === negated) throw new AssertionError(negated ? notMsg : msg);
    };
  }
  return e;
}

// expect(x).matcher(...) and expect(x).not.matcher(...); expect(promise).rejects
// / .resolves give async versions of the same matchers.
function expect(actual) {
  const e = makeExpectation(actual, false);
  e.not = makeExpectation(actual, true);
  const settle = (wantReject) => {
    const wrap = (negated) => {
      const out = {};
      for (const name of Object.keys(matchers)) {
        out[name] = (...args) => Promise.resolve(actual).then(
          (v) => {
            if (wantReject) throw new AssertionError('expected the promise to reject, it resolved to ' + show(v));
            return makeExpectation(v, negated)[name](...args);
          },
          (err) => {
            if (!wantReject) throw new AssertionError('expected the promise to resolve, it rejected with ' + describeThrown(err));
            if (name === 'toThrow') return makeExpectation(() => { throw err; }, negated)[name](...args);
            return makeExpectation(err, negated)[name](...args);
          });
      }
      return out;
    };
    const r = wrap(false);
    r.not = wrap(true);
    return r;
  };
  Object.defineProperty(e, 'resolves', { get: () => settle(false) });
  Object.defineProperty(e, 'rejects', { get: () => settle(true) });
  return e;
}

// ---- the test tree -----------------------------------------------------------

function newSuite(name, parent, skip) {
  return {
    name, parent, skip: !!skip || !!(parent && parent.skip),
    children: [], beforeEach: [], afterEach: [], beforeAll: [], afterAll: [],
  };
}

const root = newSuite('', null, false);
let current = root;
let scheduled = false;
let running = false;
const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function specFile() {
  try {
    if (typeof process !== 'undefined' && process.argv && process.argv[1]) return process.argv[1];
  } catch (e) { /* no process object */ }
  return '(spec)';
}

function fullName(suite, name) {
  const parts = [];
  for (let s = suite; s && s.parent; s = s.parent) parts.unshift(s.name);
  if (name !== undefined) parts.push(name);
  return parts.join(' > ');
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setTimeout(run, 0);
}

function describe(name, fn) {
  addSuite(name, fn, false);
}
describe.skip = function (name, fn) {
  addSuite(name, fn, true);
};

function addSuite(name, fn, skip) {
  if (running) throw new Error('describe() inside a running test: ' + name);
  const suite = newSuite(String(name), current, skip);
  current.children.push({ suite });
  const saved = current;
  current = suite;
  try {
    fn();
  } catch (e) {
    current.children.push({ test: { name: '(describe body)', fn: () => { throw e; }, skip: false } });
  } finally {
    current = saved;
  }
  schedule();
}

function it(name, fn, timeoutMs) {
  if (typeof fn !== 'function') throw new TypeError('it(' + JSON.stringify(name) + ') needs a function');
  current.children.push({ test: { name: String(name), fn, skip: false, timeoutMs } });
  schedule();
}
it.skip = function (name) {
  current.children.push({ test: { name: String(name), fn: null, skip: true } });
  schedule();
};
const test = it;
const xit = it.skip;

function beforeEach(fn) { current.beforeEach.push(fn); }
function afterEach(fn) { current.afterEach.push(fn); }
function beforeAll(fn) { current.beforeAll.push(fn); }
function afterAll(fn) { current.afterAll.push(fn); }

// Calls fn (sync, promise-returning or done-style) and settles within
// timeoutMs: resolves on success, rejects with the error.
function callWithTimeout(fn, timeoutMs, label) {
  return new Promise((resolve, reject) => {
    let finished = false;
    const timer = setTimeout(() => {
      if (finished) return;
      finished = true;
      reject(new AssertionError(label + ' timed out after ' + timeoutMs + ' ms'));
    }, timeoutMs);
    const finish = (err) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    try {
      if (fn.length >= 1) {
        const done = (err) => finish(err ? (err instanceof Error ? err : new Error(String(err))) : null);
        done.fail = (err) => finish(err instanceof Error ? err : new Error(String(err || 'done.fail()')));
        fn(done);
        return;
      }
      const r = fn();
      if (r && typeof r.then === 'function') r.then(() => finish(null), (e) => finish(e === undefined ? new Error('rejected with undefined') : e));
      else finish(null);
    } catch (e) {
      finish(e === undefined ? new Error('threw undefined') : e);
    }
  });
}

function errorText(e) {
  if (e instanceof AssertionError) return e.message;
  if (e instanceof Error) {
    const head = e.name + ': ' + e.message;
    let lines = typeof e.stack === 'string' ? e.stack.split('\n') : [];
    if (lines.length && lines[0] === head) lines = lines.slice(1);
    lines = lines.map((l) => l.trim()).filter((l) => l && !/runner\.js/.test(l)).slice(0, 6);
    return head + (lines.length ? '\n      ' + lines.join('\n      ') : '');
  }
  return 'threw ' + show(e);
}

function fail(name, e) {
  counts.failed++;
  const text = 'FAIL ' + specFile() + ' > ' + name + '\n    ' + errorText(e);
  failures.push(text);
  console.log(text);
}

function hooksOf(suite, kind) {
  const chain = [];
  for (let s = suite; s; s = s.parent) chain.unshift(s);
  const out = [];
  for (const s of chain) out.push(...s[kind]);
  return kind === 'afterEach' ? out.reverse() : out;
}

async function runTest(suite, t) {
  const name = fullName(suite, t.name);
  if (t.skip || suite.skip) {
    counts.skipped++;
    if (verbose()) console.log('skip ' + name);
    return;
  }
  const timeout = t.timeoutMs || DEFAULT_TIMEOUT_MS;
  let error = null;
  try {
    for (const h of hooksOf(suite, 'beforeEach')) await callWithTimeout(h, timeout, 'beforeEach of ' + name);
    await callWithTimeout(t.fn, timeout, name);
  } catch (e) {
    error = { e };
  }
  for (const h of hooksOf(suite, 'afterEach')) {
    try {
      await callWithTimeout(h, timeout, 'afterEach of ' + name);
    } catch (e) {
      if (!error) error = { e };
    }
  }
  if (error) fail(name, error.e);
  else {
    counts.passed++;
    if (verbose()) console.log('ok   ' + name);
  }
}

function countTests(suite) {
  let n = 0;
  for (const c of suite.children) n += c.test ? 1 : countTests(c.suite);
  return n;
}

async function runSuite(suite) {
  const active = !suite.skip && countTests(suite) > 0;
  if (active) {
    try {
      for (const h of suite.beforeAll) await callWithTimeout(h, DEFAULT_TIMEOUT_MS, 'beforeAll of ' + (fullName(suite) || 'file'));
    } catch (e) {
      const n = countTests(suite);
      fail(fullName(suite) || '(beforeAll)', e);
      counts.failed += n - 1;
      return;
    }
  }
  for (const c of suite.children) {
    if (c.test) await runTest(suite, c.test);
    else await runSuite(c.suite);
  }
  if (active) {
    for (const h of suite.afterAll) {
      try {
        await callWithTimeout(h, DEFAULT_TIMEOUT_MS, 'afterAll of ' + (fullName(suite) || 'file'));
      } catch (e) {
        fail((fullName(suite) || 'file') + ' (afterAll)', e);
      }
    }
  }
}

function verbose() {
  try {
    return !!(typeof process !== 'undefined' && process.env && process.env.SPEC_VERBOSE);
  } catch (e) {
    return false;
  }
}

function summary() {
  let line = counts.passed + ' passed, ' + counts.failed + ' failed';
  if (counts.skipped) line += ', ' + counts.skipped + ' skipped';
  return line;
}

async function run() {
  running = true;
  try {
    await runSuite(root);
  } catch (e) {
    fail('(runner)', e);
  }
  console.log(summary());
  const code = counts.failed ? 1 : 0;
  if (typeof process !== 'undefined' && typeof process.exit === 'function') process.exit(code);
}

module.exports = {
  describe, it, test, xit, expect, beforeEach, afterEach, beforeAll, afterAll,
  AssertionError, deepEqual, show,
};

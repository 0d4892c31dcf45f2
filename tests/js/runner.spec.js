'use strict';
// The spec runner checks itself: every matcher passes and fails when it
// should, .not inverts, hooks run in order, async tests are awaited.
const { describe, it, expect, beforeEach, afterEach, AssertionError } = require('./runner');

// Asserts that fn fails with an AssertionError whose message contains text.
function expectFailure(fn, text) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof AssertionError)) {
    throw new Error('expected an AssertionError, got ' + (caught === undefined ? 'none' : caught));
  }
  if (text && caught.message.indexOf(text) < 0) {
    throw new Error('assertion message ' + JSON.stringify(caught.message) + ' lacks ' + JSON.stringify(text));
  }
}

describe('expect matchers', () => {
  it('toBe uses Object.is', () => {
    expect(1).toBe(1);
    expect(NaN).toBe(NaN);
    expectFailure(() => expect(0).toBe(-0), 'to be -0');
    expectFailure(() => expect({}).toBe({}));
  });

  it('toEqual compares deeply', () => {
    expect({ a: [1, 2, { b: 'x' }] }).toEqual({ a: [1, 2, { b: 'x' }] });
    expect(new Map([[1, { x: 1 }]])).toEqual(new Map([[1, { x: 1 }]]));
    expect(new Set([1, 2])).toEqual(new Set([2, 1]));
    expect(new Uint8Array([1, 2])).toEqual(new Uint8Array([1, 2]));
    expect(new Date(5)).toEqual(new Date(5));
    expect([NaN]).toEqual([NaN]);
    expectFailure(() => expect({ a: 1 }).toEqual({ a: 1, b: 2 }), 'to equal');
    expectFailure(() => expect([1, 2]).toEqual([1, 2, 3]));
    expectFailure(() => expect([1]).toEqual({ 0: 1 }));
    const cyc = { n: 1 };
    cyc.self = cyc;
    const cyc2 = { n: 1 };
    cyc2.self = cyc2;
    expect(cyc).toEqual(cyc2);
  });

  it('truthiness, null and undefined', () => {
    expect(1).toBeTruthy();
    expect('').toBeFalsy();
    expect(null).toBeNull();
    expect(undefined).toBeUndefined();
    expect(0).toBeDefined();
    expectFailure(() => expect(0).toBeTruthy(), 'truthy');
    expectFailure(() => expect(undefined).toBeNull(), 'null');
  });

  it('toBeInstanceOf, toContain, toMatch', () => {
    expect(new TypeError('x')).toBeInstanceOf(Error);
    expect([1, 2, 3]).toContain(2);
    expect('hello').toContain('ell');
    expect(new Set(['a'])).toContain('a');
    expect('abc123').toMatch(/\d+/);
    expect('abc').toMatch('b');
    expectFailure(() => expect([1]).toContain(2), 'to contain 2');
    expectFailure(() => expect('abc').toMatch(/z/), 'to match');
    expectFailure(() => expect({}).toBeInstanceOf(Array), 'instance of Array');
  });

  it('toThrow with a class, a message or a pattern', () => {
    const boom = () => { throw new RangeError('too far out'); };
    expect(boom).toThrow();
    expect(boom).toThrow(RangeError);
    expect(boom).toThrow('far');
    expect(boom).toThrow(/out$/);
    expect(() => { throw 42; }).toThrow('42');
    expect(() => 1).not.toThrow();
    expectFailure(() => expect(boom).toThrow(TypeError), 'RangeError: too far out');
    expectFailure(() => expect(() => 1).toThrow(), 'to throw');
    expectFailure(() => expect(boom).not.toThrow(), 'not to throw');
  });

  it('numbers', () => {
    expect(0.1 + 0.2).toBeCloseTo(0.3, 10);
    expect(2).toBeGreaterThan(1);
    expect(1).toBeLessThan(2);
    expectFailure(() => expect(0.1).toBeCloseTo(0.2), 'close to');
    expectFailure(() => expect(1).toBeGreaterThan(1), '1 > 1');
    expectFailure(() => expect(2).toBeLessThan(2));
  });

  it('.not inverts every matcher', () => {
    expect(1).not.toBe(2);
    expect({ a: 1 }).not.toEqual({ a: 2 });
    expect(1).not.toBeNull();
    expect([1]).not.toContain(3);
    expectFailure(() => expect(1).not.toBe(1), 'not to be 1');
  });
});

describe('hooks', () => {
  const log = [];
  beforeEach(() => log.push('outer-before'));
  afterEach(() => log.push('outer-after'));
  describe('nested', () => {
    beforeEach(() => log.push('inner-before'));
    afterEach(() => log.push('inner-after'));
    it('runs outer then inner before hooks', () => {
      expect(log).toEqual(['outer-before', 'inner-before']);
    });
  });
  it('ran after hooks inner first', () => {
    expect(log.slice(2, 4)).toEqual(['inner-after', 'outer-after']);
  });
});

describe('async tests', () => {
  it('awaits a returned promise', async () => {
    const v = await new Promise((resolve) => setTimeout(() => resolve(7), 5));
    expect(v).toBe(7);
  });
  it('supports a done callback', (done) => {
    setTimeout(() => {
      expect(1).toBe(1);
      done();
    }, 1);
  });
  it('resolves and rejects', async () => {
    await expect(Promise.resolve(3)).resolves.toBe(3);
    await expect(Promise.reject(new TypeError('no'))).rejects.toThrow(TypeError);
    await expect(Promise.reject(new TypeError('no'))).rejects.toBeInstanceOf(TypeError);
  });
  it.skip('a skipped test is counted, not run', () => {
    throw new Error('must not run');
  });
});

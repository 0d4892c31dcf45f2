'use strict';
// The process object: argv, env, platform, cwd, exitCode, nextTick, hrtime.
const { describe, it, expect } = require('./runner');

describe('process', () => {
  it('argv starts with the strait executable and this script, both absolute', () => {
    expect(Array.isArray(process.argv)).toBe(true);
    expect(process.argv[0]).toMatch(/\/strait$/);
    expect(process.argv[1]).toMatch(/^\/.*\/tests\/js\/process\.spec\.js$/);
    expect(process.argv.length).toBe(2);
  });

  it('execPath and argv0 name the strait executable', () => {
    expect(process.execPath).toBe(process.argv[0]);
    expect(process.argv0).toBe(process.argv[0]);
    expect(process.execPath.endsWith('/strait')).toBe(true);
  });

  it('env holds the environment as strings', () => {
    expect(typeof process.env).toBe('object');
    expect(typeof process.env.PATH).toBe('string');
    expect(process.env.PATH.length).toBeGreaterThan(0);
    expect(process.env.STRAIT_SURELY_UNSET_VARIABLE).toBeUndefined();
  });

  it('platform is linux and version names strait', () => {
    expect(process.platform).toBe('linux');
    expect(process.version).toContain('0.1.0');
  });

  it('cwd() is an absolute directory', () => {
    expect(process.cwd()).toMatch(/^\//);
  });

  it('exitCode starts undefined', () => {
    expect(process.exitCode).toBeUndefined();
  });

  // Node 20's rules: integers and integer strings pass; any other number is
  // ERR_OUT_OF_RANGE (RangeError), any other type ERR_INVALID_ARG_TYPE
  // (TypeError); process.exit checks before it exits, so these return here.
  const invalid = [
    ['x', RangeError, 'ERR_OUT_OF_RANGE'], [NaN, RangeError, 'ERR_OUT_OF_RANGE'],
    [1.5, RangeError, 'ERR_OUT_OF_RANGE'], [Infinity, RangeError, 'ERR_OUT_OF_RANGE'],
    [2 ** 53, RangeError, 'ERR_OUT_OF_RANGE'], ['1.5', RangeError, 'ERR_OUT_OF_RANGE'],
    ['', TypeError, 'ERR_INVALID_ARG_TYPE'], [{}, TypeError, 'ERR_INVALID_ARG_TYPE'],
    [[], TypeError, 'ERR_INVALID_ARG_TYPE'], [true, TypeError, 'ERR_INVALID_ARG_TYPE'],
    [1n, TypeError, 'ERR_INVALID_ARG_TYPE'], [Symbol('s'), TypeError, 'ERR_INVALID_ARG_TYPE'],
    [() => 0, TypeError, 'ERR_INVALID_ARG_TYPE'],
  ];
  for (const [code, Ctor, name] of invalid) {
    const shown = typeof code === 'symbol' ? 'a symbol' : typeof code === 'function' ? 'a function' : JSON.stringify(String(code));
    it(`process.exit(${shown}) and exitCode = it throw ${name}, without exiting`, () => {
      let err = null;
      try { process.exit(code); } catch (e) { err = e; }
      expect(err instanceof Ctor).toBe(true);
      expect(err.code).toBe(name);
      err = null;
      try { process.exitCode = code; } catch (e) { err = e; }
      expect(err instanceof Ctor).toBe(true);
      expect(process.exitCode).toBeUndefined();
    });
  }

  it('exitCode takes integers, integer strings, null and undefined', () => {
    for (const code of [0, 3, -1, 256, '7', ' 8 ', null, undefined]) {
      process.exitCode = code;
      expect(process.exitCode).toBe(code);
    }
    process.exitCode = undefined;
  });

  it('nextTick runs before promise callbacks and timers', async () => {
    const order = [];
    await new Promise((resolve) => {
      setTimeout(() => { order.push('timeout'); resolve(); }, 0);
      Promise.resolve().then(() => order.push('promise'));
      process.nextTick(() => order.push('tick'));
      order.push('sync');
    });
    expect(order[0]).toBe('sync');
    expect(order.indexOf('tick')).toBeLessThan(order.indexOf('timeout'));
    expect(order.indexOf('promise')).toBeLessThan(order.indexOf('timeout'));
  });

  it('nextTick passes its arguments and rejects a non-function', async () => {
    const got = await new Promise((resolve) => process.nextTick((a, b) => resolve([a, b]), 1, 'two'));
    expect(got).toEqual([1, 'two']);
    expect(() => process.nextTick(42)).toThrow(TypeError);
  });

  it('hrtime measures elapsed time monotonically', async () => {
    const t0 = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, 20));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    expect(ms).toBeGreaterThanOrEqual(15);
    expect(ms).toBeLessThan(5000);
    const [s, ns] = process.hrtime();
    expect(Number.isInteger(s)).toBe(true);
    expect(ns).toBeLessThan(1e9);
  });

  it('performance.now() counts milliseconds since start-up, as in Node', async () => {
    const a = performance.now();
    expect(typeof a).toBe('number');
    expect(a).toBeGreaterThanOrEqual(0);
    await new Promise((r) => setTimeout(r, 20));
    const b = performance.now();
    expect(b - a).toBeGreaterThanOrEqual(15);
    expect(b - a).toBeLessThan(5000);
    expect(Math.abs(performance.timeOrigin + b - Date.now())).toBeLessThan(1000);
    expect(Object.keys(globalThis)).not.toContain('performance');
  });

  it('exit is a function and the globals timers and queueMicrotask exist', () => {
    expect(typeof process.exit).toBe('function');
    expect(typeof setTimeout).toBe('function');
    expect(typeof setInterval).toBe('function');
    expect(typeof clearTimeout).toBe('function');
    expect(typeof queueMicrotask).toBe('function');
  });
});

describe('timers', () => {
  it('setTimeout passes arguments and fires in due order', async () => {
    const order = [];
    await new Promise((resolve) => {
      setTimeout((x) => order.push(x), 20, 'late');
      setTimeout((x) => order.push(x), 1, 'early');
      setTimeout(resolve, 40);
    });
    expect(order).toEqual(['early', 'late']);
  });

  it('clearTimeout cancels and setInterval repeats until cleared', async () => {
    let fired = false;
    const t = setTimeout(() => { fired = true; }, 1);
    clearTimeout(t);
    let n = 0;
    await new Promise((resolve) => {
      const iv = setInterval(() => {
        n++;
        if (n === 3) { clearInterval(iv); resolve(); }
      }, 1);
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(fired).toBe(false);
    expect(n).toBe(3);
  });
});

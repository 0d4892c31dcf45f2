'use strict';
// Issue 4, point 3: calls from many Java threads and the deadlock rule.
const { describe, it, expect } = require('../runner');

describe('calls from Java threads', () => {
  it('JS -> Java waits for another thread that calls back into JS: no deadlock', () => {
    const pool = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      const fut = pool.submit(new java.util.concurrent.Callable({ call() { return 6 * 7; } }));
      expect(fut.get(10, java.util.concurrent.TimeUnit.SECONDS)).toBe(42);
    } finally {
      pool.shutdown();
    }
  });

  it('four threads x 10,000 calls of one JS Runnable give exactly 40,000 runs', () => {
    let count = 0;
    const r = new java.lang.Runnable({ run() { count++; } });
    const threads = [];
    for (let t = 0; t < 4; t++) {
      threads.push(new java.lang.Thread(new java.lang.Runnable({
        run() { for (let i = 0; i < 10000; i++) r.run(); },
      })));
    }
    threads.forEach((t) => t.start());
    threads.forEach((t) => t.join());
    expect(count).toBe(40000);
  });

  it('deep recursion in JS run by a Java thread is a RangeError, also on a 256 KiB stack', () => {
    function down(n) { return down(n + 1) + 1; }
    const seen = [];
    const body = () => {
      try {
        down(0);
        seen.push('no error');
      } catch (e) {
        seen.push(e instanceof RangeError ? 'RangeError' : String(e));
      }
    };
    const big = new java.lang.Thread(body);
    big.start();
    big.join();
    const small = new java.lang.Thread(null, body, 'small-stack', 256 * 1024);
    small.start();
    small.join();
    expect(seen).toEqual(['RangeError', 'RangeError']);
    expect(down.length).toBe(1);
  });
});

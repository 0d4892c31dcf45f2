'use strict';
// Issue 4, point 4: the event loop with Java threads.
const { describe, it, expect } = require('../runner');

describe('event loop', () => {
  it('timers, microtasks and async/await run in Node order', async () => {
    const log = [];
    setTimeout(() => log.push('timeout'), 0);
    Promise.resolve().then(() => log.push('promise'));
    queueMicrotask(() => log.push('microtask'));
    log.push('sync');
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(['sync', 'promise', 'microtask', 'timeout']);
  });

  it('setInterval runs until cleared', async () => {
    let n = 0;
    await new Promise((resolve) => {
      const id = setInterval(() => { if (++n === 3) { clearInterval(id); resolve(); } }, 1);
    });
    expect(n).toBe(3);
  });

  it('a Java thread can hand a result back to a pending promise', async () => {
    const v = await new Promise((resolve) => {
      const t = new java.lang.Thread(new java.lang.Runnable({ run() { resolve(99); } }));
      t.start();
      t.join();
    });
    expect(v).toBe(99);
  });
});

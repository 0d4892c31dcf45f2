'use strict';
// Issue 4, point 6: exceptions crossing both ways.
const { describe, it, expect } = require('../runner');

describe('exceptions through Java frames', () => {
  it('JS -> Java -> JS throws: the outer catch gets the very same object', () => {
    const mine = new RangeError('mine');
    const s = new java.util.function.Supplier({ get() { throw mine; } });
    let caught = null;
    try { s.get(); } catch (e) { caught = e; }
    expect(caught === mine).toBe(true);
  });

  it('a thrown primitive comes back as the same value', () => {
    const s = new java.util.function.Supplier({ get() { throw 'plain'; } });
    let caught = null;
    try { s.get(); } catch (e) { caught = e; }
    expect(caught).toBe('plain');
  });

  it('an error thrown by a JS implementation reaches Java as JsException', () => {
    const pool = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      const fut = pool.submit(new java.util.concurrent.Callable({
        call() { throw new TypeError('from the pool'); },
      }));
      let e = null;
      try { fut.get(); } catch (x) { e = x; }
      expect(e).not.toBeNull();
      const cause = e.javaException.getCause();
      expect(cause instanceof Packages.org.strait.JsException).toBe(true);
      expect(String(cause.getMessage())).toBe('TypeError: from the pool');
      expect(String(cause.getJsStack()).length > 0).toBe(true);
    } finally {
      pool.shutdown();
    }
  });
});

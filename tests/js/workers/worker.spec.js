'use strict';
// The web's Worker: a script on a thread and heap of its own that exchanges
// structured clones with its parent (docs/workers.md).
const { describe, it, expect } = require('../runner');

// The next event of type on target, as a promise.
function next(target, type) {
  return new Promise((resolve) => {
    const f = (e) => { target.removeEventListener(type, f); resolve(e); };
    target.addEventListener(type, f);
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('Worker', () => {
  it('is a global constructor, and needs new and a script', () => {
    expect(typeof Worker).toBe('function');
    expect(() => Worker('./fixtures/echo.js')).toThrow(TypeError);
    expect(() => new Worker()).toThrow(TypeError);
    expect(() => new Worker(42)).toThrow(TypeError);
  });

  it('resolves a relative path against the calling file and answers messages', async () => {
    const w = new Worker('./fixtures/echo.js', { name: 'echoer' });
    w.postMessage({ a: 1, s: 'text' });
    const e = await next(w, 'message');
    expect(e.data).toEqual({ echo: { a: 1, s: 'text' }, name: 'echoer' });
    expect(e.type).toBe('message');
    expect(e instanceof MessageEvent).toBe(true);
    w.terminate();
  });

  it('takes a file: URL and an absolute path too', async () => {
    const file = __dirname + '/fixtures/echo.js';
    for (const spec of ['file://' + file, file]) {
      const w = new Worker(spec);
      w.postMessage(spec);
      expect((await next(w, 'message')).data.echo).toBe(spec);
      w.terminate();
    }
  });

  it('refuses other URL schemes and module workers with a TypeError', () => {
    expect(() => new Worker('https://example.com/w.js')).toThrow(/only file: URLs/);
    expect(() => new Worker('./fixtures/echo.js', { type: 'module' })).toThrow(/not supported/);
  });

  it('delivers messages in the order they were posted, both ways', async () => {
    const w = new Worker('./fixtures/echo.js');
    const got = [];
    const done = new Promise((resolve) => {
      w.onmessage = (e) => { got.push(e.data.echo); if (got.length === 1000) resolve(); };
    });
    for (let i = 0; i < 1000; i++) w.postMessage(i);
    await done;
    expect(got).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    w.terminate();
  });

  it('receives 100,000 messages from one worker, all in order', async () => {
    const w = new Worker('./fixtures/flood.js');
    let n = 0, inOrder = true;
    const done = new Promise((resolve) => {
      w.onmessage = (e) => { if (e.data !== n) inOrder = false; if (++n === 100000) resolve(); };
    });
    w.postMessage(100000);
    await done;
    expect(n).toBe(100000);
    expect(inOrder).toBe(true);
    w.terminate();
  }, 20000);

  it('runs ten workers at once', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => {
      const w = new Worker('./fixtures/fib.js');
      w.postMessage(15 + i);
      return next(w, 'message').then((e) => e.data);
    }));
    const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));
    expect(results).toEqual(Array.from({ length: 10 }, (_, i) => fib(15 + i)));
  }, 20000);

  it('copies the value when it is posted: later changes by the sender are not seen', async () => {
    const w = new Worker('./fixtures/echo.js');
    const v = { list: [1, 2], n: 1 };
    w.postMessage(v);
    v.n = 2;
    v.list.push(3);
    expect((await next(w, 'message')).data.echo).toEqual({ list: [1, 2], n: 1 });
    w.terminate();
  });

  it('reports an uncaught error of the script to onerror with message, file, line and column', async () => {
    const w = new Worker('./fixtures/throws.js');
    const e = await new Promise((resolve) => { w.onerror = resolve; });
    expect(e instanceof ErrorEvent).toBe(true);
    expect(e.message).toBe('Uncaught TypeError: bad value 1');
    expect(e.filename).toBe(__dirname + '/fixtures/throws.js');
    expect(e.lineno).toBe(3);
    expect(e.colno).toBeGreaterThan(0);
    expect(e.error instanceof Error).toBe(true);
    expect(e.error.message).toBe('bad value 1');
  });

  it('reports an error thrown by the worker\'s message handler', async () => {
    const w = new Worker('./fixtures/throws_later.js');
    w.postMessage('hello');
    expect((await next(w, 'message')).data).toBe('ok');
    w.postMessage('boom');
    const e = await next(w, 'error');
    expect(e.message).toBe('Uncaught RangeError: handler failed');
    expect(e.lineno).toBe(2);
  });

  it('reports a script that does not exist as an error event naming it', async () => {
    const w = new Worker('./fixtures/no-such-worker.js');
    const e = await next(w, 'error');
    expect(e.message).toContain("Cannot find module '" + __dirname + '/fixtures/no-such-worker.js' + "'");
  });

  it('terminate() stops a worker that is in an infinite loop', async () => {
    const w = new Worker('./fixtures/spin.js');
    expect((await next(w, 'message')).data).toBe('spinning');
    let after = 0;
    w.onmessage = () => after++;
    const t0 = Date.now();
    w.terminate();
    w.postMessage('ignored');   // posting after terminate is not an error
    await sleep(100);
    expect(after).toBe(0);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('close() inside the worker ends it after the running task', async () => {
    const w = new Worker('./fixtures/closer.js');
    const got = [];
    w.onmessage = (e) => got.push(e.data);
    w.postMessage(1);
    await sleep(150);
    w.postMessage(2);
    await sleep(150);
    expect(got).toEqual(['first 1', 'after close, same task']);
  });

  it('addEventListener and removeEventListener work as on any EventTarget', async () => {
    const w = new Worker('./fixtures/echo.js');
    const seen = [];
    const a = (e) => seen.push('a' + e.data.echo);
    const b = (e) => seen.push('b' + e.data.echo);
    w.addEventListener('message', a);
    w.addEventListener('message', b);
    w.addEventListener('message', a);    // the same listener once
    w.postMessage(1);
    await next(w, 'message');
    w.removeEventListener('message', a);
    w.postMessage(2);
    await next(w, 'message');
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    w.terminate();
  });

  it('postMessage needs a value, and a transfer list that is an array', () => {
    const w = new Worker('./fixtures/echo.js');
    expect(() => w.postMessage()).toThrow(TypeError);
    expect(() => w.postMessage(1, 5)).toThrow(TypeError);
    w.terminate();
  });

  it('gives a worker the same Java access as its parent', async () => {
    const w = new Worker('./fixtures/java.js');
    w.postMessage('go');
    expect((await next(w, 'message')).data).toEqual({ size: 2, max: 9 });
    w.terminate();
  }, 20000);

  it('lets a worker start workers of its own', async () => {
    const w = new Worker('./fixtures/nested.js');
    w.postMessage('deep');
    expect((await next(w, 'message')).data).toEqual({ relayed: 'deep' });
    w.terminate();
  });

  it('carries structured clones: Map, Set, Date, RegExp, BigInt, typed arrays, cycles, -0', async () => {
    const w = new Worker('./fixtures/types.js');
    const cyc = { name: 'root' };
    cyc.self = cyc;
    const bytes = new Uint8Array([1, 2, 3]);
    const value = {
      map: new Map([[1, 'one'], ['k', { deep: [1, 2] }]]), set: new Set(['a', 'b']),
      date: new Date(86400000), re: /ab+c/gi, big: 2n ** 70n, bytes, view: new DataView(bytes.buffer, 1),
      cyc, negZero: -0, nan: NaN, holes: [1, , 3], text: 'lone \ud800 surrogate',
    };
    w.postMessage(value);
    const back = (await next(w, 'message')).data.v;
    expect(back.map instanceof Map).toBe(true);
    expect([...back.map.keys()]).toEqual([1, 'k']);
    expect(back.map.get('k')).toEqual({ deep: [1, 2] });
    expect([...back.set]).toEqual(['a', 'b']);
    expect(back.date instanceof Date && back.date.getTime() === 86400000).toBe(true);
    expect(String(back.re)).toBe('/ab+c/gi');
    expect(back.big).toBe(2n ** 70n);
    expect(Array.from(back.bytes)).toEqual([1, 2, 3]);
    expect(back.view.buffer).toBe(back.bytes.buffer);   // views of one buffer still share it
    expect(back.cyc.self).toBe(back.cyc);
    expect(Object.is(back.negZero, -0)).toBe(true);
    expect(Number.isNaN(back.nan)).toBe(true);
    expect(1 in back.holes).toBe(false);
    expect(back.holes.length).toBe(3);
    expect(back.text).toBe('lone \ud800 surrogate');
    w.terminate();
  });

  it('transfers an ArrayBuffer: the sender\'s is detached, the worker gets the bytes', async () => {
    const w = new Worker('./fixtures/types.js');
    const buf = new Uint8Array([9, 8, 7]).buffer;
    w.postMessage(buf, [buf]);
    expect(buf.byteLength).toBe(0);
    expect(buf.detached).toBe(true);
    const back = (await next(w, 'message')).data;
    expect(back.kind).toBe('[object ArrayBuffer]');
    expect(Array.from(new Uint8Array(back.v))).toEqual([9, 8, 7]);
    w.terminate();
  });

  it('refuses what the web refuses, with the web\'s errors, and sends nothing', async () => {
    const w = new Worker('./fixtures/echo.js');
    const errorOf = (f) => { try { f(); } catch (e) { return e; } return null; };
    const fn = errorOf(() => w.postMessage({ f() {} }));
    expect(fn instanceof DOMException && fn.name === 'DataCloneError' && fn.code === 25).toBe(true);
    expect(errorOf(() => w.postMessage(Symbol('s'))).name).toBe('DataCloneError');
    expect(errorOf(() => w.postMessage(new WeakMap())).name).toBe('DataCloneError');
    expect(errorOf(() => w.postMessage(Promise.resolve())).name).toBe('DataCloneError');
    expect(errorOf(() => w.postMessage(new java.util.ArrayList())).name).toBe('DataCloneError');
    expect(errorOf(() => w.postMessage(w)).name).toBe('DataCloneError');
    const buf = new ArrayBuffer(4);
    expect(errorOf(() => w.postMessage(buf, [buf, buf])).name).toBe('DataCloneError');   // duplicated
    expect(buf.byteLength).toBe(4);                                                        // not detached
    expect(errorOf(() => w.postMessage(1, [{}])).name).toBe('DataCloneError');            // not transferable
    expect(errorOf(() => w.postMessage(1, [1])) instanceof TypeError).toBe(true);         // not an object
    const gone = new ArrayBuffer(2);
    gone.transfer();
    expect(errorOf(() => w.postMessage(gone)).name).toBe('DataCloneError');               // detached
    expect(errorOf(() => w.postMessage(1, [gone])).name).toBe('DataCloneError');
    w.postMessage('still fine');
    expect((await next(w, 'message')).data.echo).toBe('still fine');
    w.terminate();
  });

  it('gives the worker self, name, postMessage, close and the event methods', async () => {
    const src = __dirname + '/fixtures/types.js';
    const w = new Worker(src);
    w.postMessage('x');
    expect((await next(w, 'message')).data.kind).toBe('[object String]');
    w.terminate();
    expect(typeof self).toBe('undefined');   // the main script is not a worker
  });
});

'use strict';
// Node's require('worker_threads') on the same machinery as Worker.
const { describe, it, expect } = require('../runner');
const wt = require('worker_threads');
const { Worker, MessageChannel, MessagePort } = wt;

const once = (em, type) => new Promise((resolve) => em.once(type, (...a) => resolve(a.length > 1 ? a : a[0])));

describe('worker_threads', () => {
  it('describes the main thread', () => {
    expect(wt.isMainThread).toBe(true);
    expect(wt.parentPort).toBe(null);
    expect(wt.workerData).toBe(null);
    expect(wt.threadId).toBe(0);
    expect(require('node:worker_threads')).toBe(wt);
  });

  it('runs a file with workerData: online, message, exit in order', async () => {
    const events = [];
    const w = new Worker(__dirname + '/fixtures/node_worker.js', { workerData: { list: [1, 2], s: 'd' } });
    expect(typeof w.threadId).toBe('number');
    expect(w.threadId).toBeGreaterThan(0);
    w.on('online', () => events.push('online'));
    const first = await once(w, 'message');
    events.push('message');
    expect(first).toEqual({ workerData: { list: [1, 2], s: 'd' }, isMainThread: false, threadId: w.threadId });
    w.postMessage(21);
    expect(await once(w, 'message')).toBe(42);
    w.postMessage('exit7');
    const code = await once(w, 'exit');
    events.push('exit');
    expect(code).toBe(7);
    expect(events).toEqual(['online', 'message', 'exit']);
  });

  it('resolves a relative file against the working directory', async () => {
    const rel = require('path').relative(process.cwd(), __dirname + '/fixtures/node_worker.js');
    const w = new Worker(rel.startsWith('.') ? rel : './' + rel);
    expect((await once(w, 'message')).isMainThread).toBe(false);
    expect(await w.terminate()).toBe(1);
  });

  it('runs source text with eval: true, with require available', async () => {
    const w = new Worker(
      "const { parentPort, workerData } = require('worker_threads');" +
      "parentPort.postMessage(require('path').join(workerData, 'x'));",
      { eval: true, workerData: '/a/b' });
    expect(await once(w, 'message')).toBe('/a/b/x');
    expect(await once(w, 'exit')).toBe(0);
  });

  it('emits error with the worker\'s Error, then exit with code 1', async () => {
    const w = new Worker(__dirname + '/fixtures/node_worker.js');
    await once(w, 'message');
    w.postMessage('throw');
    const err = await once(w, 'error');
    expect(err instanceof Error).toBe(true);
    expect(err.message).toBe('node worker failed');
    expect(await once(w, 'exit')).toBe(1);
  });

  // Starts a worker (eval: true) that posts 'start' first, terminates it
  // at that message (exit code 1), and gives every message and error that
  // came, including any 50 ms after the exit.
  async function terminatedAtStart(src) {
    const w = new Worker(src, { eval: true });
    const got = [];
    w.on('message', (m) => got.push(m));
    w.on('error', (e) => got.push('error: ' + e.message));
    await once(w, 'message');
    expect(await w.terminate()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return got;
  }

  it('terminate() stops a worker blocked in a Java call, and drops what it posts after', async () => {
    // the worker sleeps in Java for ten minutes; terminate() interrupts that
    // Java thread (else the exit would wait for the sleep and the test time
    // out), and the post its finally makes after the call returned is dropped
    expect(await terminatedAtStart("const p = require('worker_threads').parentPort; p.postMessage('start');" +
      "try { java.lang.Thread.sleep(600000); } finally { p.postMessage('late'); }")).toEqual(['start']);
  }, 20000);

  it('after terminate() nothing but the exit comes, also what the worker posts when a Java call returns', async () => {
    // a blocking read of a pipe, which no interrupt stops, ends when `sleep`
    // does; the worker posts right after it returns, before the core's
    // interrupt reaches its JS
    expect(await terminatedAtStart("const p = require('worker_threads').parentPort;" +
      "const proc = new java.lang.ProcessBuilder(['sleep', '0.5']).start(); p.postMessage('start');" +
      "proc.getInputStream().read(); p.postMessage('late');")).toEqual(['start']);
  }, 20000);

  it('terminate() returns a promise of the exit code, also when called twice', async () => {
    const w = new Worker('for (;;) {}', { eval: true });
    await once(w, 'online');
    const [a, b] = await Promise.all([w.terminate(), w.terminate()]);
    expect(a).toBe(1);
    expect(b).toBe(1);
    expect(await w.terminate()).toBe(1);
  });

  it('MessageChannel connects two ports in one thread', async () => {
    const { port1, port2 } = new MessageChannel();
    expect(port1 instanceof MessagePort).toBe(true);
    expect(() => new MessagePort()).toThrow(TypeError);
    const got = once(port2, 'message');
    port1.postMessage({ x: [1] });
    expect(await got).toEqual({ x: [1] });
    const ev = new Promise((resolve) => { port1.onmessage = resolve; });
    port2.postMessage('back');
    expect((await ev).data).toBe('back');
    port1.close();
  });

  it('a port waits for start(), onmessage or on("message") before it delivers', async () => {
    const { port1, port2 } = new MessageChannel();
    const got = [];
    port2.addEventListener('message', (e) => got.push(e.data));
    port1.postMessage(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(got).toEqual([]);
    port2.start();
    await new Promise((r) => setTimeout(r, 30));
    expect(got).toEqual([1]);
    port1.close();
  });

  it('closing one port closes its peer, which emits close', async () => {
    const { port1, port2 } = new MessageChannel();
    port2.on('message', () => {});
    const closed = once(port2, 'close');
    port1.close();
    await closed;
    port2.postMessage('nobody hears this');   // no error after close
  });

  it('a transferred MessagePort carries messages to the worker', async () => {
    const w = new Worker(__dirname + '/fixtures/port_user.js');
    const { port1, port2 } = new MessageChannel();
    w.postMessage({ port: port2 }, [port2]);
    port2.postMessage('lost');   // it left this thread: nothing happens, as on the web
    expect(await once(port1, 'message')).toBe('ready');
    port1.postMessage('hi');
    expect(await once(port1, 'message')).toBe('port says hi');
    port1.close();
    await w.terminate();
  });

  it('a port in a message but not in the transfer list is a DataCloneError', () => {
    const w = new Worker(__dirname + '/fixtures/port_user.js');
    const { port1 } = new MessageChannel();
    let err;
    try { w.postMessage({ port: port1 }); } catch (e) { err = e; }
    expect(err && err.name).toBe('DataCloneError');
    w.terminate();
  });

  it('messageStats() counts how received messages were made', async () => {
    const w = new Worker(__dirname + '/fixtures/node_worker.js');
    await once(w, 'message');
    const s = wt.messageStats();
    expect(s.direct + s.snapshot).toBeGreaterThan(0);
    expect(s.senderMs >= 0 && s.receiverMs >= 0).toBe(true);
    await w.terminate();
  });
});

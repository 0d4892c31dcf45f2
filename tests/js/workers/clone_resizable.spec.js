'use strict';
// A resizable ArrayBuffer clones as a resizable one with the same
// maxByteLength and bytes (HTML's StructuredSerialize keeps
// [[ArrayBufferMaxByteLength]]), whether it is the value, a view's buffer or
// shared by several views, copied or transferred, in this runtime
// (structuredClone) or through a port (the C path, clone.c). Views over it
// clone as fixed-length views (docs/clone.md). A fixed buffer stays fixed.
const { describe, it, expect } = require('../runner');

function viaChannel(v, transfer) {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve, reject) => {
    port2.onmessage = (e) => { port1.close(); port2.close(); resolve(e.data); };
    port2.onmessageerror = () => { port1.close(); port2.close(); reject(new Error('messageerror')); };
    try { port1.postMessage(v, transfer); } catch (e) { port1.close(); port2.close(); reject(e); }
  });
}

const WAYS = [
  ['structuredClone', (v) => structuredClone(v), false],
  ['structuredClone, transferred', (v, b) => structuredClone(v, { transfer: [b] }), true],
  ['a MessageChannel', (v) => viaChannel(v, []), false],
  ['a MessageChannel, transferred', (v, b) => viaChannel(v, [b]), true],
];

function makeBuffer(len, max) {
  const b = max === undefined ? new ArrayBuffer(len) : new ArrayBuffer(len, { maxByteLength: max });
  const u = new Uint8Array(b);
  for (let i = 0; i < len; i++) u[i] = (i * 7 + 3) & 255;
  return b;
}
const bytesOf = (b) => Array.from(new Uint8Array(b));

// [shape, make(buffer) -> value, buffer of the clone]
const SHAPES = [
  ['the buffer', (b) => b, (c) => c],
  ['a view', (b) => new Uint16Array(b, 2, 2), (c) => c.buffer],
  ['a DataView', (b) => new DataView(b, 1), (c) => c.buffer],
  ['two views and the buffer', (b) => ({ x: new Int8Array(b), y: new Float32Array(b, 0, 1), b }),
    (c) => {
      expect(c.x.buffer === c.b && c.y.buffer === c.b).toBe(true);   // still one buffer
      return c.b;
    }],
];

for (const [way, send, transfers] of WAYS) {
  describe('resizable ArrayBuffers through ' + way, () => {
    for (const [shape, make, bufferOf] of SHAPES) {
      for (const [len, max] of [[8, 32], [0, 16], [16, 16], [12, undefined]]) {
        it(`${shape}, ${len} of ${max === undefined ? 'fixed' : max} bytes`, async () => {
          const b = makeBuffer(len, max);
          const want = bytesOf(b);
          if ((shape === 'a view' || shape === 'a DataView' || shape.startsWith('two')) && len < 8) return;
          const c = await send(make(b), b);
          const cb = bufferOf(c);
          expect(cb === b).toBe(false);
          if (transfers) expect(b.detached).toBe(true);
          expect(bytesOf(cb)).toEqual(want);
          expect(cb.resizable).toBe(max !== undefined);
          if (max === undefined) return;
          expect(cb.maxByteLength).toBe(max);
          cb.resize(max);
          expect(cb.byteLength).toBe(max);
          let err;
          try { cb.resize(max + 1); } catch (e) { err = e; }
          expect(err instanceof RangeError).toBe(true);
        });
      }
    }
  });
}

'use strict';
// A resizable ArrayBuffer clones as a resizable one with the same
// maxByteLength and bytes (HTML's StructuredSerialize keeps
// [[ArrayBufferMaxByteLength]]), whether it is the value, a view's buffer or
// shared by several views, copied or transferred, in this runtime
// (structuredClone) or through a port (the C path, clone.c). A fixed buffer
// stays fixed. Views over it keep tracking the buffer's length or not (below).
const { describe, it, expect } = require('../runner');
const { viaChannel } = require('../channel');

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

// A view made without a length over a resizable buffer tracks the buffer's
// length (its length follows resize()); its clone must track its clone's
// buffer, and a view made with a length stays that length, also one that
// ends exactly at the buffer's end (which the serializer cannot tell from
// a tracking view by its getters). Every view kind, at offset 0 and 8,
// over a buffer with room to grow, a full one (byteLength = maxByteLength)
// and one with less room than an element; the sender's buffer, bytes and
// views are left as they were.
const VIEW_KINDS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView'];
const elemSize = (k) => (k === 'DataView' ? 1 : globalThis[k].BYTES_PER_ELEMENT);
// (a view out of its buffer's bounds: set() and DataView's byteLength throw)
const lengthOf = (v) => {
  try { return v instanceof DataView ? v.byteLength : (v.set([]), v.length); } catch (e) { return 'out of bounds'; }
};

function sendAll(way, v, bufs) {
  switch (way) {
    case 'structuredClone': return structuredClone(v);
    case 'structuredClone, transferred': return structuredClone(v, { transfer: bufs });
    case 'a MessageChannel': return viaChannel(v, []);
    default: return viaChannel(v, bufs);
  }
}

for (const way of ['structuredClone', 'structuredClone, transferred', 'a MessageChannel', 'a MessageChannel, transferred']) {
  describe('length-tracking views through ' + way, () => {
    for (const kind of VIEW_KINDS) {
      const C = globalThis[kind], size = elemSize(kind);
      for (const [room, len, max] of [['room to grow', 24, 64], ['a full buffer', 24, 24], ['less room than an element', 24, 24 + size - 1]]) {
        if (size === 1 && room === 'less room than an element') continue;
        it(`${kind} over a buffer with ${room}`, async () => {
          // [name, offset, length argument (undefined: tracking)]
          const cases = [];
          for (const off of [0, 8]) {
            cases.push([`tracking at ${off}`, off, undefined]);
            cases.push([`fixed at ${off} to the end`, off, (len - off) / size]);
            cases.push([`fixed at ${off}, one element short`, off, (len - off) / size - 1]);
          }
          const made = cases.map(([, off, n]) => {
            const b = makeBuffer(len, max);
            return { b, v: n === undefined ? new C(b, off) : new C(b, off, n) };
          });
          const before = made.map(({ b, v }) => [b.byteLength, bytesOf(b), lengthOf(v)]);
          const c = await sendAll(way, made.map((m) => m.v), made.map((m) => m.b));
          const got = [], want = [];
          cases.forEach(([name, off, n], i) => {
            const cv = c[i], tracks = n === undefined, now = (len - off) / size;
            got.push(`${name}: ${cv.constructor.name} at ${cv.byteOffset}, ${lengthOf(cv)}, [${bytesOf(cv.buffer)}]`);
            want.push(`${name}: ${kind} at ${off}, ${tracks ? now : n}, [${before[i][1]}]`);
            cv.buffer.resize(max);
            got.push(`${name}, grown: ${lengthOf(cv)}`);
            want.push(`${name}, grown: ${tracks ? Math.floor((max - off) / size) : n}`);
            cv.buffer.resize(off + size);
            got.push(`${name}, shrunk to one element: ${lengthOf(cv)}`);
            want.push(`${name}, shrunk to one element: ${tracks ? 1 : n <= 1 ? n : 'out of bounds'}`);
            if (!way.endsWith('transferred')) {
              const { b, v } = made[i];
              got.push(`${name}, sender: ${b.byteLength}, [${bytesOf(b)}], ${lengthOf(v)}`);
              want.push(`${name}, sender: ${before[i][0]}, [${before[i][1]}], ${before[i][2]}`);
            }
          });
          expect(got).toEqual(want);
        });
      }
    }
    it('a tracking and a fixed view of one buffer share its clone', async () => {
      const b = makeBuffer(16, 32);
      const c = await sendAll(way, { t: new Uint16Array(b, 4), f: new Uint16Array(b, 4, 6), d: new DataView(b), b }, [b]);
      expect(c.t.buffer === c.b && c.f.buffer === c.b && c.d.buffer === c.b).toBe(true);
      c.b.resize(32);
      expect([c.t.length, c.f.length, c.d.byteLength]).toEqual([14, 6, 32]);
    });
  });
}

describe('length-tracking views: replaced built-ins', () => {
  it("asks the buffer with the captured resize, not a script's replacement", () => {
    const resize = ArrayBuffer.prototype.resize;
    let called = 0;
    const b = makeBuffer(8, 8);
    let c;
    try {
      ArrayBuffer.prototype.resize = function () { called++; throw new Error('replaced resize called'); };
      c = structuredClone({ t: new Uint32Array(b), f: new Uint32Array(b, 0, 2) });
    } finally {
      ArrayBuffer.prototype.resize = resize;
    }
    expect(called).toBe(0);
    c.t.buffer.resize(4);
    expect([c.t.length, c.f.length]).toEqual([1, 0]);
    expect(bytesOf(b)).toEqual([3, 10, 17, 24, 31, 38, 45, 52]);
  });
});

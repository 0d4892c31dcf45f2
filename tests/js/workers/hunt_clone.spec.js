'use strict';
// Hunt: views the clone engine cannot make faithfully are a DataCloneError
// at the sender, never a wrong value nor a message lost on the way
// (docs/clone.md). Generated over every view kind the engine has, each in
// the states a resizable buffer puts it in, through structuredClone and a
// MessageChannel.
const { describe, it, expect } = require('../runner');
const { viaChannel } = require('../channel');

const KINDS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'Float16Array', 'DataView']
  .filter((k) => typeof globalThis[k] === 'function');
const SUPPORTED = (k) => k !== 'Float16Array';
const size = (k) => (k === 'DataView' ? 1 : globalThis[k].BYTES_PER_ELEMENT);

// [state, make(kind) -> view, what the clone must be: 'error' or [byteOffset, byteLength]]
const STATES = [
  ['fixed, in bounds', (k) => new globalThis[k](new ArrayBuffer(32), 8, k === 'DataView' ? 8 : 8 / size(k)), [8, 8]],
  ['empty at the end', (k) => new globalThis[k](new ArrayBuffer(16), 16, 0), [16, 0]],
  ['tracking, shrunk to its offset', (k) => {
    const b = new ArrayBuffer(32, { maxByteLength: 64 });
    const v = new globalThis[k](b, 8);
    b.resize(8);
    return v;
  }, [8, 0]],
  ['fixed, out of bounds after a shrink', (k) => {
    const b = new ArrayBuffer(32, { maxByteLength: 64 });
    const v = new globalThis[k](b, 8, k === 'DataView' ? 8 : 8 / size(k));
    b.resize(4);
    return v;
  }, 'error'],
  ['tracking, out of bounds after a shrink', (k) => {
    const b = new ArrayBuffer(32, { maxByteLength: 64 });
    const v = new globalThis[k](b, 16);
    b.resize(8);
    return v;
  }, 'error'],
];

for (const [how, send] of [['structuredClone', (v) => structuredClone(v)], ['MessageChannel', viaChannel]]) {
  describe('hunt: views through ' + how, () => {
    for (const k of KINDS) {
      for (const [state, make, want] of STATES) {
        it(k + ', ' + state, async () => {
          const v = make(k);
          const expectError = want === 'error' || !SUPPORTED(k);
          let c, err;
          try { c = await send(v); } catch (e) { err = e; }
          if (expectError) {
            expect(err === undefined ? 'no error' : err.name).toBe('DataCloneError');
            expect(err instanceof DOMException).toBe(true);
            return;
          }
          expect(err === undefined ? 'cloned' : err.name + ': ' + err.message).toBe('cloned');
          expect(Object.prototype.toString.call(c)).toBe('[object ' + k + ']');
          expect([c.byteOffset, c.byteLength]).toEqual(want);
        });
      }
    }
  });
}

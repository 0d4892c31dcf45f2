'use strict';
// WebAssembly's promise-returning functions settle (src/core/js/wasm.js):
// JavaScriptCore's own settle from a run loop strait does not drive, so
// `await WebAssembly.instantiate(bytes)` used to end the script in silence.
const { describe, it, expect } = require('./runner');

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const bytes = (...sections) => new Uint8Array(HEADER.concat(...sections));
// (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)
const ADD = bytes([0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f], [0x03, 0x02, 0x01, 0x00],
                  [0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00],
                  [0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b]);
// (import "m" "f" (func))
const IMPORTS = bytes([0x01, 0x04, 0x01, 0x60, 0x00, 0x00], [0x02, 0x07, 0x01, 0x01, 0x6d, 0x01, 0x66, 0x00, 0x00]);
// (func unreachable) (start 0)
const TRAPS = bytes([0x01, 0x04, 0x01, 0x60, 0x00, 0x00], [0x03, 0x02, 0x01, 0x00], [0x08, 0x01, 0x00],
                    [0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b]);
const BAD = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x02, 0x00, 0x00, 0x00]);

/* the reason a promise is rejected with; fails if it is fulfilled */
async function rejection(p) {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('WebAssembly promises', () => {
  it('compile and instantiate settle with a module, an instance, or both, from every kind of source', async () => {
    const sources = [ADD, ADD.buffer, new DataView(ADD.buffer), new Uint8Array(ADD)];
    for (const src of sources) {
      const m = await WebAssembly.compile(src);
      expect(m instanceof WebAssembly.Module).toBe(true);
      expect(WebAssembly.Module.exports(m).map((e) => [e.name, e.kind])).toEqual([['add', 'function']]);
      const both = await WebAssembly.instantiate(src);
      expect(both.module instanceof WebAssembly.Module).toBe(true);
      expect(both.instance.exports.add(40, 2)).toBe(42);
      const inst = await WebAssembly.instantiate(m);
      expect(inst instanceof WebAssembly.Instance).toBe(true);
      expect(inst.exports.add(-1, 1)).toBe(0);
    }
    const withImport = await WebAssembly.instantiate(IMPORTS, { m: { f() {} } });
    expect(withImport.instance instanceof WebAssembly.Instance).toBe(true);
  });

  it('reject with the engine\'s error for each way a source or its imports can be wrong', async () => {
    const cases = [
      [() => WebAssembly.compile(BAD), WebAssembly.CompileError],
      [() => WebAssembly.instantiate(BAD), WebAssembly.CompileError],
      [() => WebAssembly.compile('not bytes'), TypeError],
      [() => WebAssembly.instantiate(42), TypeError],
      [() => WebAssembly.compile(), TypeError],
      [() => WebAssembly.instantiate(IMPORTS), TypeError],                     // no import object
      [() => WebAssembly.instantiate(IMPORTS, { m: {} }), WebAssembly.LinkError],
      [() => WebAssembly.instantiate(IMPORTS, { m: { f: 1 } }), WebAssembly.LinkError],
      [() => WebAssembly.instantiate(TRAPS), WebAssembly.RuntimeError],       // its start function traps
    ];
    for (const [make, Kind] of cases) {
      const p = make();
      expect(p instanceof Promise).toBe(true);                                  // never a synchronous throw
      const e = await rejection(p);
      expect([String(make), e instanceof Kind]).toEqual([String(make), true]);
    }
  });

  it('settle after the calling code has run, as promises do', async () => {
    const order = [];
    const p = WebAssembly.instantiate(ADD).then(() => order.push('settled'));
    order.push('after the call');
    await p;
    expect(order).toEqual(['after the call', 'settled']);
  });

  it('keep working after a script replaces Promise.resolve, Function.prototype.call, WebAssembly.Module and Module.exports', async () => {
    const FP = Function.prototype;
    const saved = [Promise.resolve, FP.call, WebAssembly.Module, WebAssembly.Module.exports];
    const M = WebAssembly.Module;
    let both, inst;
    try {
      Promise.resolve = () => { throw new Error('replaced Promise.resolve called'); };
      M.exports = () => { throw new Error('replaced Module.exports called'); };
      WebAssembly.Module = function () { throw new Error('replaced Module called'); };
      FP.call = function () { throw new Error('replaced Function.prototype.call called'); };
      const p1 = WebAssembly.instantiate(ADD);
      FP.call = saved[1];
      both = await p1;
      FP.call = function () { throw new Error('replaced Function.prototype.call called'); };
      const p2 = WebAssembly.instantiate(both.module);
      FP.call = saved[1];
      inst = await p2;
    } finally {
      FP.call = saved[1];
      [Promise.resolve, , WebAssembly.Module, M.exports] = saved;
    }
    expect(both.instance.exports.add(2, 3)).toBe(5);
    expect(inst.exports.add(2, 2)).toBe(4);
  });

  it('are functions with the names and lengths of the engine\'s', () => {
    for (const name of ['compile', 'instantiate']) {
      const d = Object.getOwnPropertyDescriptor(WebAssembly, name);
      expect([name, typeof d.value, d.value.name, d.value.length, d.writable, d.configurable])
        .toEqual([name, 'function', name, 1, true, true]);
    }
  });
});

'use strict';
// Every WebAssembly module is metered before the engine compiles it, so that
// its code can be stopped (src/core/js/wasm.js, src/core/wasm_meter.c). What
// a script sees stays the engine's: sources, results, constructors and their
// names, subclassing, errors and their messages, the import object's reads,
// Module.imports/exports/customSections, function names and stack frames.
// (Stopping wasm from the launcher: wasm_stop.test.sh; from C:
// tests/c/test_wasm_meter.c.)
const { describe, it, expect } = require('./runner');

// (module (import "a" "f" (func $f)) (import "b" "g" (global i32))
//   (func (export "call") call $f))
const IMP = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02,
  0x0e, 0x02, 0x01, 0x61, 0x01, 0x66, 0x00, 0x00, 0x01, 0x62, 0x01, 0x67, 0x03, 0x7f, 0x00, 0x03, 0x02, 0x01, 0x00,
  0x07, 0x08, 0x01, 0x04, 0x63, 0x61, 0x6c, 0x6c, 0x00, 0x01, 0x0a, 0x06, 0x01, 0x04, 0x00, 0x10, 0x00, 0x0b]);
// (module (memory (export "mem") 1)
//   (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))
const GROW = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01,
  0x7f, 0x03, 0x02, 0x01, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x0e, 0x02, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00,
  0x04, 0x67, 0x72, 0x6f, 0x77, 0x00, 0x00, 0x0a, 0x08, 0x01, 0x06, 0x00, 0x20, 0x00, 0x40, 0x00, 0x0b]);
// (func (export "sum") (param i32) (result i32) (local i32): a loop adding
// n, n - 1, ..., 1
const SUM = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01,
  0x7f, 0x03, 0x02, 0x01, 0x00, 0x07, 0x07, 0x01, 0x03, 0x73, 0x75, 0x6d, 0x00, 0x00, 0x0a, 0x1d, 0x01, 0x1b, 0x01,
  0x01, 0x7f, 0x03, 0x40, 0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00, 0x20,
  0x00, 0x0d, 0x00, 0x0b, 0x20, 0x01, 0x0b]);
// tests/c/wasm/names.wasm: a name section, then "metadata.code.branch_hint"
// (which the meter leaves out of the engine's copy) and "keep.me"
const NAMES = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01,
  0x7f, 0x02, 0x0a, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x67, 0x03, 0x7f, 0x00, 0x03, 0x02, 0x01, 0x00, 0x06, 0x06,
  0x01, 0x7f, 0x01, 0x41, 0x05, 0x0b, 0x07, 0x0b, 0x01, 0x07, 0x74, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x73, 0x00, 0x00,
  0x0a, 0x17, 0x01, 0x15, 0x01, 0x01, 0x7f, 0x23, 0x01, 0x21, 0x00, 0x20, 0x00, 0x23, 0x00, 0x4a, 0x04, 0x7f, 0x20,
  0x00, 0x05, 0x41, 0x00, 0x0b, 0x0b, 0x00, 0x31, 0x04, 0x6e, 0x61, 0x6d, 0x65, 0x01, 0x0c, 0x01, 0x00, 0x09, 0x61,
  0x64, 0x64, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x64, 0x02, 0x08, 0x01, 0x00, 0x01, 0x00, 0x03, 0x74, 0x6d, 0x70, 0x07,
  0x12, 0x02, 0x00, 0x08, 0x69, 0x6d, 0x70, 0x6f, 0x72, 0x74, 0x65, 0x64, 0x01, 0x05, 0x6e, 0x61, 0x6d, 0x65, 0x64,
  0x00, 0x1d, 0x19, 0x6d, 0x65, 0x74, 0x61, 0x64, 0x61, 0x74, 0x61, 0x2e, 0x63, 0x6f, 0x64, 0x65, 0x2e, 0x62, 0x72,
  0x61, 0x6e, 0x63, 0x68, 0x5f, 0x68, 0x69, 0x6e, 0x74, 0x01, 0x00, 0x00, 0x00, 0x0c, 0x07, 0x6b, 0x65, 0x65, 0x70,
  0x2e, 0x6d, 0x65, 0xde, 0xad, 0xbe, 0xef]);
const BAD = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00]);

const bytesOf = (b) => Array.from(new Uint8Array(b));
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected an exception');
}

describe('WebAssembly metering', () => {
  it('compiles from every kind of source, and the metered code computes what it did', () => {
    const big = new Uint8Array(SUM.length + 7);
    big.set(SUM, 5);
    const resizable = new ArrayBuffer(SUM.length, { maxByteLength: 4096 });
    new Uint8Array(resizable).set(SUM);
    const sources = [SUM, SUM.buffer, new DataView(SUM.buffer), new Uint8Array(big.buffer, 5, SUM.length),
      new DataView(big.buffer, 5, SUM.length), resizable, new Uint16Array(SUM.slice().buffer)];
    for (const src of sources) {
      const i = new WebAssembly.Instance(new WebAssembly.Module(src));
      expect(i.exports.sum(100000)).toBe(((100000 * 100001) / 2) | 0);
    }
  });

  it('leaves the source buffer as it was: it can still be transferred, and later changes do not matter', () => {
    const ab = SUM.slice().buffer;
    const m = new WebAssembly.Module(ab);
    new Uint8Array(ab).fill(0);
    const moved = ab.transfer();
    expect([ab.detached, moved.byteLength]).toEqual([true, SUM.length]);
    expect(new WebAssembly.Instance(m).exports.sum(3)).toBe(6);
  });

  it('keeps the constructors\' names, lengths, native toString, properties and prototypes', () => {
    const W = WebAssembly;
    expect([W.Module.name, W.Module.length, W.Instance.name, W.Instance.length]).toEqual(['Module', 1, 'Instance', 1]);
    // the engine's own properties (JSC lists a bound function's length and name first)
    expect(Object.getOwnPropertyNames(W.Module).sort()).toEqual(['customSections', 'exports', 'imports', 'length', 'name', 'prototype']);
    expect(Object.getOwnPropertyNames(W.Instance)).toEqual(['length', 'name', 'prototype']);
    for (const C of [W.Module, W.Instance]) {
      expect(String(C)).toBe(`function ${C.name}() {\n    [native code]\n}`);
      const d = Object.getOwnPropertyDescriptor(C, 'prototype');
      expect([d.writable, d.enumerable, d.configurable]).toEqual([false, false, false]);
      expect(C.prototype.constructor).toBe(C);
      const own = Object.getOwnPropertyDescriptor(W, C.name);
      expect([own.value, own.writable, own.enumerable, own.configurable]).toEqual([C, true, false, true]);
    }
    expect([W.Module.imports.name, W.Module.imports.length, W.Module.customSections.name,
      W.Module.customSections.length]).toEqual(['imports', 1, 'customSections', 2]);
    const m = new W.Module(SUM);
    expect([m instanceof W.Module, Object.getPrototypeOf(m) === W.Module.prototype, m.constructor === W.Module,
      String(m)]).toEqual([true, true, true, '[object WebAssembly.Module]']);
    const i = new W.Instance(m);
    expect([i instanceof W.Instance, i.constructor === W.Instance]).toEqual([true, true]);
    for (const name of ['validate', 'compile', 'instantiate']) {
      const f = W[name];
      expect([typeof f, f.name, f.length]).toEqual(['function', name, 1]);
    }
  });

  it('can be subclassed, and new.target decides the prototype', () => {
    class M extends WebAssembly.Module {
      sum(n) { return new WebAssembly.Instance(this).exports.sum(n); }
    }
    class I extends WebAssembly.Instance {}
    const m = new M(SUM);
    expect([m instanceof M, m instanceof WebAssembly.Module, Object.getPrototypeOf(m) === M.prototype]).toEqual([true, true, true]);
    expect(m.sum(4)).toBe(10);
    const i = new I(m);
    expect([i instanceof I, i.exports.sum(5)]).toEqual([true, 15]);
    function Other() {}
    Other.prototype = Object.create(WebAssembly.Module.prototype);
    const o = Reflect.construct(WebAssembly.Module, [SUM], Other);
    expect(Object.getPrototypeOf(o)).toBe(Other.prototype);
    expect(WebAssembly.Module.exports(o).map((d) => [d.name, d.kind])).toEqual([['sum', 'function']]);
  });

  it('throws the engine\'s errors with the engine\'s messages, naming the script\'s own call', () => {
    let e = thrown(() => new WebAssembly.Module(42));
    expect([e.constructor, e.message]).toEqual(
      [TypeError, 'first argument must be an ArrayBufferView or an ArrayBuffer (evaluating \'new WebAssembly.Module(42)\')']);
    e = thrown(() => new WebAssembly.Module(BAD));
    expect(e instanceof WebAssembly.CompileError).toBe(true);
    expect(e.message).toMatch(/^WebAssembly\.Module doesn't parse at byte \d+: .* \(evaluating 'new WebAssembly\.Module\(BAD\)'\)$/);
    e = thrown(() => WebAssembly.Module(SUM));
    expect([e.constructor, e.message]).toEqual([TypeError, 'calling WebAssembly.Module constructor without new is invalid']);
    e = thrown(() => WebAssembly.Instance(new WebAssembly.Module(SUM)));
    expect([e.constructor, e.message]).toEqual([TypeError, 'calling WebAssembly.Instance constructor without new is invalid']);
    e = thrown(() => new WebAssembly.Instance({}));
    expect([e.constructor, e.message]).toEqual([TypeError,
      'first argument to WebAssembly.Instance must be a WebAssembly.Module (evaluating \'new WebAssembly.Instance({})\')']);
    const im = new WebAssembly.Module(IMP);
    e = thrown(() => new WebAssembly.Instance(im));
    expect([e.constructor, e.message]).toEqual([TypeError,
      'can\'t make WebAssembly.Instance because there is no imports Object and the WebAssembly.Module requires imports']);
    e = thrown(() => new WebAssembly.Instance(im, null));
    expect(e.constructor).toBe(TypeError);
    e = thrown(() => new WebAssembly.Instance(im, { a: {} }));
    expect(e instanceof WebAssembly.LinkError).toBe(true);
    expect(e.message).toMatch(/^import function a:f must be callable/);
    expect(() => WebAssembly.validate(42)).toThrow(TypeError);
    expect([WebAssembly.validate(SUM), WebAssembly.validate(BAD)]).toEqual([true, false]);
    expect(() => WebAssembly.Module.imports({})).toThrow(TypeError);
    expect(() => WebAssembly.Module.customSections(im)).toThrow(TypeError);
  });

  it('shows the script\'s module in Module.imports, exports and customSections', () => {
    const im = new WebAssembly.Module(IMP);
    expect(WebAssembly.Module.imports(im).map((d) => [d.module, d.name, d.kind])).toEqual(
      [['a', 'f', 'function'], ['b', 'g', 'global']]);
    expect(WebAssembly.Module.imports(new WebAssembly.Module(SUM))).toEqual([]);
    expect(WebAssembly.Module.exports(im).map((d) => [d.name, d.kind])).toEqual([['call', 'function']]);
    const nm = new WebAssembly.Module(NAMES);
    const hints = WebAssembly.Module.customSections(nm, 'metadata.code.branch_hint');
    expect(hints.map(bytesOf)).toEqual([[1, 0, 0]]);
    expect(WebAssembly.Module.customSections(nm, 'keep.me').map(bytesOf)).toEqual([[0xde, 0xad, 0xbe, 0xef]]);
    expect(WebAssembly.Module.customSections(nm, 'name').length).toBe(1);
    expect(WebAssembly.Module.customSections(nm, 'none')).toEqual([]);
    const again = WebAssembly.Module.customSections(nm, 'metadata.code.branch_hint');
    expect(again[0] === hints[0]).toBe(false);   // a fresh copy each time, as the engine's
    let calls = 0;
    const name = { toString() { calls++; return 'metadata.code.branch_hint'; } };
    expect(WebAssembly.Module.customSections(nm, name).map(bytesOf)).toEqual([[1, 0, 0]]);
    expect(calls).toBe(1);
  });

  it('reads the import object as the engine does: each getter once, on the script\'s own object', () => {
    const log = [];
    const a = { get f() { log.push(['a.f', this === a]); return () => log.push(['called']); } };
    const b = { get g() { log.push(['b.g', this === b]); return 7; } };
    const imports = { get a() { log.push(['a', this === imports]); return a; },
      get b() { log.push(['b', this === imports]); return b; } };
    const i = new WebAssembly.Instance(new WebAssembly.Module(IMP), imports);
    expect(log).toEqual([['a', true], ['a.f', true], ['b', true], ['b.g', true]]);
    i.exports.call();
    expect(log.length).toBe(5);
    // the meter's imports come from strait, whatever the script passes
    const meddling = { a: { f() {} }, b: { g: 1 }, 'strait:meter': { check: null, grow: 1, tgrow: 'x' } };
    expect(new WebAssembly.Instance(new WebAssembly.Module(IMP), meddling) instanceof WebAssembly.Instance).toBe(true);
    const p = new Proxy({ a: { f() {} }, b: { g: 2 } }, {});
    expect(new WebAssembly.Instance(new WebAssembly.Module(IMP), p) instanceof WebAssembly.Instance).toBe(true);
  });

  it('keeps function indices: exported functions\' names and stack frames are the module\'s', () => {
    let stack = '';
    const i = new WebAssembly.Instance(new WebAssembly.Module(IMP), { a: { f() { stack = new Error().stack; } }, b: { g: 0 } });
    expect(i.exports.call.name).toBe('1');   // function 1: the import is function 0
    i.exports.call();
    expect(stack).toMatch(/1@<\?>:wasm-function\[1\]/);
  });

  it('keeps working after a script replaces the built-ins it uses', () => {
    // (the implementation may be loaded after this point: it must not look up what a script replaced;
    // tests/c/test_wasm_meter.c's first_use_after_tampering covers a runtime whose first use is here)
    const saved = [
      [Array.prototype, Symbol.iterator], [ArrayBuffer.prototype, 'constructor'], [Function.prototype, 'call'],
      [Function.prototype, 'apply'], [Function.prototype, 'bind'], [Reflect, 'construct'], [Reflect, 'get'],
      [WeakMap.prototype, 'get'], [WeakMap.prototype, 'set'], [Object.getPrototypeOf(Uint8Array.prototype), 'set'],
      [Object, 'defineProperty'], [Promise, 'try'], [WebAssembly.Module, 'exports'], [globalThis, 'Proxy'],
    ].map(([o, k]) => [o, k, Object.getOwnPropertyDescriptor(o, k)]);
    let out;
    try {
      const define = Object.defineProperty, n = saved.length;
      for (let j = 0; j < n; j++) {   // no iterator, no destructuring: those are replaced too
        const o = saved[j][0], k = saved[j][1];
        define(o, k, { value: function () { throw new Error('replaced ' + String(k) + ' called'); },
          writable: true, configurable: true });
      }
      const nm = new WebAssembly.Module(NAMES);
      const im = new WebAssembly.Module(IMP);
      const i = new WebAssembly.Instance(im, { a: { f() {} }, b: { g: 1 } });
      i.exports.call();
      const hints = WebAssembly.Module.customSections(nm, 'metadata.code.branch_hint');
      const imports = WebAssembly.Module.imports(im);
      out = [hints.length, hints[0].byteLength, imports.length, WebAssembly.validate(SUM),
        new WebAssembly.Instance(new WebAssembly.Module(SUM)).exports.sum(10)];
    } finally {
      for (let j = saved.length - 1; j >= 0; j--) Reflect.defineProperty(saved[j][0], saved[j][1], saved[j][2]);
    }
    expect(out).toEqual([1, 3, 2, true, 55]);
  });

  it('grows memory as before when there is no heap limit', () => {
    const i = new WebAssembly.Instance(new WebAssembly.Module(GROW));
    expect([i.exports.grow(1), i.exports.mem.buffer.byteLength, i.exports.grow(70000), i.exports.grow(0)])
      .toEqual([1, 2 * 65536, -1, 2]);
  });

  it('stops a worker\'s wasm loop on terminate()', async () => {
    const { Worker: NodeWorker } = require('worker_threads');
    const w = new NodeWorker(__dirname + '/fixtures/wasm_loop_worker.js');
    await new Promise((resolve) => w.on('message', (m) => { if (m === 'ready') resolve(); }));
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    expect(await w.terminate()).toBe(1);   // the exit code of a terminated worker
    expect(Date.now() - t0).toBeLessThan(3000);
  }, 10000);
});

// wasm.js - every WebAssembly module is metered before the engine compiles
// it, and WebAssembly.compile / instantiate settle.
//
// Metering. JavaScriptCore's watchdog (the time limit, strait_interrupt,
// close(), Ctrl-C) never reaches into wasm code, in any tier: a module whose
// function is (loop (br 0)) would run for ever. So every way to compile
// (new WebAssembly.Module, compile, instantiate(bytes), validate) first
// rewrites the bytes (native.wasmMeter, src/core/wasm_meter.c): the metered
// module calls an import "check" at least every ~1M executed instruction
// bytes, and "grow"/"tgrow" before each memory.grow/table.grow. Those
// imports are JS functions of this file (wrapped as wasm functions by a
// small helper module): the watchdog's tick is served at their entry, and
// the natives stop the stay at once when it must stop (strait_check_stop)
// or the heap limit refuses a growth. WebAssembly.Instance supplies them
// itself, through a Proxy over the script's import object (its getters run
// once, in the engine's order, with the script's object as receiver), and
// refuses a Module that was not metered here. Module.imports/exports/
// customSections show what the script's module declared.
//
// The constructors are bound functions of Proxies over the engine's
// (names, lengths, toString, prototype and instanceof as the engine's;
// subclassing passes new.target through). The engine is called in tail
// position wherever it may throw (strict mode: proper tail calls), so its
// errors, messages and JSC's "(evaluating '...')" source suffix included,
// are those the script would have got from the engine.
//
// Promises. JavaScriptCore settles the promises of its own compile and
// instantiate from its run loop (DeferredWorkTimer), which strait's event
// loop does not drive: they stayed pending for ever. These compile and
// instantiate at once, on the calling thread, and settle in a microtask.
//
// Built-ins are captured here, at start-up, and the functions installed;
// their implementation (js/wasm_meter.js) is evaluated on first use. The
// engine's constructors are reachable from nowhere a script can see.
(function (native, internal) {
  'use strict';
  const W = globalThis.WebAssembly;
  if (typeof W !== 'object' || W === null) return;
  const FP = Function.prototype, uncurry = (f) => FP.bind.call(FP.call, f);
  const bind = uncurry(FP.bind);
  const ModuleC = W.Module, InstanceC = W.Instance, CompileErrorC = W.CompileError;
  const validateC = W.validate, PromiseC = Promise, ProxyC = Proxy, TypeErrorC = TypeError;
  const construct = Reflect.construct, reflectGet = Reflect.get, defineProperty = Object.defineProperty;
  const getOwn = Object.getOwnPropertyDescriptor;
  const resolveP = uncurry(PromiseC.resolve), rejectP = uncurry(PromiseC.reject);
  const resolve = (v) => resolveP(PromiseC, v);
  const reject = (e) => rejectP(PromiseC, e);
  const moduleExports = uncurry(ModuleC.exports), moduleImports = uncurry(ModuleC.imports);
  const moduleCustomSections = uncurry(ModuleC.customSections);
  const instanceExports = uncurry(getOwn(InstanceC.prototype, 'exports').get);
  const WeakMapC = WeakMap, wmGet = uncurry(WeakMap.prototype.get), wmSet = uncurry(WeakMap.prototype.set);
  const U8 = Uint8Array, TA = Object.getPrototypeOf(U8.prototype), u8set = uncurry(TA.set);
  const getter = (o, k) => uncurry(getOwn(o, k).get);
  const abLength = getter(ArrayBuffer.prototype, 'byteLength');
  const taBuffer = getter(TA, 'buffer'), taOffset = getter(TA, 'byteOffset'), taLength = getter(TA, 'byteLength');
  const dvBuffer = getter(DataView.prototype, 'buffer'), dvOffset = getter(DataView.prototype, 'byteOffset');
  const dvLength = getter(DataView.prototype, 'byteLength');
  /* what the implementation (js/wasm_meter.js, loaded on first use) uses,
   * captured now */
  const cap = internal.wasm = {
    __proto__: null, ModuleC, InstanceC, CompileErrorC, validateC, PromiseC, ProxyC, TypeErrorC,
    construct, reflectGet, resolve, reject, moduleExports, moduleImports, moduleCustomSections, instanceExports,
    WeakMapC, wmGet, wmSet, U8, u8set, abLength, taBuffer, taOffset, taLength, dvBuffer, dvOffset, dvLength,
    promiseTry: typeof PromiseC.try === 'function' ? uncurry(PromiseC.try) : null,
    impl: undefined,
  };
  const load = native.load;
  /* the implementation (evaluating it costs every runtime that never uses
   * WebAssembly nothing) */
  const impl = () => cap.impl || (load('wasm_meter.js'), cap.impl);

  /* The constructors: a bound function (the engine's name, length and
   * native toString) of a Proxy over the engine's constructor whose traps
   * are plain calls, so that they can call the engine in tail position. */
  function wrapConstructor(C, statics) {
    let proxy;
    const name = C.name;
    const traps = {
      __proto__: null,
      construct(target, args, nt) {
        return impl()[name](args[0], args[1], nt === proxy ? C : nt);
      },
      apply(target, self, args) {
        return C();   // called without new: the engine's TypeError
      },
    };
    proxy = new ProxyC(C, traps);
    const f = bind(proxy, undefined);
    defineProperty(f, 'length', { value: C.length, configurable: true });
    defineProperty(f, 'name', { value: C.name, configurable: true });
    for (const k of statics) defineProperty(f, k[0], { value: k[1], writable: true, enumerable: false, configurable: true });
    defineProperty(f, 'prototype', { value: C.prototype, writable: false, enumerable: false, configurable: false });
    defineProperty(C.prototype, 'constructor', { value: f, writable: true, enumerable: false, configurable: true });
    return f;
  }

  /* Module's statics and the namespace's methods, with the engine's names
   * and lengths; each calls the implementation in tail position */
  const statics = {
    customSections(module, sectionName) {
      return impl().customSections(arguments.length, module, sectionName);
    },
    imports(module) {
      return impl().imports(module);
    },
  };
  const Module = wrapConstructor(ModuleC, [['customSections', statics.customSections], ['imports', statics.imports],
                                           ['exports', ModuleC.exports]]);
  const Instance = wrapConstructor(InstanceC, []);
  const methods = {
    validate(bytes) {
      return impl().validate(bytes);
    },
    compile(bytes) {
      return impl().compile(bytes);
    },
    instantiate(source, imports = undefined) {
      return impl().instantiate(source, imports);
    },
  };
  const unsupported = {
    compileStreaming(source) {
      return reject(new TypeErrorC('WebAssembly.compileStreaming is not supported: compile the bytes'));
    },
    instantiateStreaming(source, imports = undefined) {
      return reject(new TypeErrorC('WebAssembly.instantiateStreaming is not supported: instantiate the bytes'));
    },
  };
  const put = (name, value) => {
    const d = getOwn(W, name);
    defineProperty(W, name, { value, writable: d ? d.writable : true, enumerable: d ? d.enumerable : true,
                              configurable: d ? d.configurable : true });
  };
  put('Module', Module);
  put('Instance', Instance);
  for (const name of ['validate', 'compile', 'instantiate']) put(name, methods[name]);
  for (const name of ['compileStreaming', 'instantiateStreaming']) if (getOwn(W, name)) put(name, unsupported[name]);
});

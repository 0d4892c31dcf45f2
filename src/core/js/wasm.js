// wasm.js - WebAssembly.compile and WebAssembly.instantiate on the
// synchronous constructors. JavaScriptCore settles the promises of its own
// two from its run loop (DeferredWorkTimer), which strait's event loop does
// not drive: they stayed pending for ever, and a script awaiting one ended
// without a word. These compile and instantiate at once (on the calling
// thread) and settle in a microtask, with the values and errors of the
// engine's constructors (CompileError, LinkError, RuntimeError, TypeError).
// Built-ins are captured here, at start-up.
(function (native, internal) {
  'use strict';
  const W = globalThis.WebAssembly;
  if (typeof W !== 'object' || W === null) return;
  const FP = Function.prototype, uncurry = (f) => FP.bind.call(FP.call, f);
  const ModuleC = W.Module, InstanceC = W.Instance, PromiseC = Promise;
  const resolveP = uncurry(PromiseC.resolve), rejectP = uncurry(PromiseC.reject);
  const resolve = (v) => resolveP(PromiseC, v);
  const reject = (e) => rejectP(PromiseC, e);
  /* a WebAssembly.Module by its internal slot (Module.exports throws a
   * TypeError for anything else), not by instanceof, which a script can
   * change */
  const moduleExports = uncurry(ModuleC.exports);
  function isModule(x) {
    if (typeof x !== 'object' || x === null) return false;
    try {
      moduleExports(ModuleC, x);
      return true;
    } catch (e) {
      return false;
    }
  }
  /* the methods' own names and lengths, as the engine's have */
  const methods = {
    compile(bytes) {
      try {
        return resolve(new ModuleC(bytes));
      } catch (e) {
        return reject(e);
      }
    },
    instantiate(source, imports = undefined) {
      try {
        if (isModule(source)) return resolve(new InstanceC(source, imports));
        const module = new ModuleC(source);
        const instance = new InstanceC(module, imports);
        return resolve({ module, instance });
      } catch (e) {
        return reject(e);
      }
    },
  };
  for (const name of ['compile', 'instantiate']) {
    Object.defineProperty(W, name, { value: methods[name], writable: true, enumerable: true, configurable: true });
  }
});

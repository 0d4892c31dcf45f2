// wasm_meter.js - the implementation of metered WebAssembly, loaded on first
// use (strait__env_load) by the functions js/wasm.js installs, with the
// built-ins wasm.js captured at start-up (internal.wasm): what a script did
// to the built-ins since does not change what these do. See js/wasm.js and
// src/core/wasm_meter.c.
(function (native, internal) {
  'use strict';
  const cap = internal.wasm;
  const { ModuleC, InstanceC, CompileErrorC, validateC, PromiseC, ProxyC, TypeErrorC, construct,
    reflectGet, resolve, reject, moduleExports, moduleImports, moduleCustomSections, instanceExports,
    WeakMapC, wmGet, wmSet, U8, u8set, abLength, taBuffer, taOffset, taLength, dvBuffer, dvOffset, dvLength,
    promiseTry } = cap;
  const meter = native.wasmMeter, checkN = native.wasmCheck, growN = native.wasmGrow;
  const tgrowN = native.wasmTableGrow, admitN = native.wasmAdmit;
  const KEY = 'strait:meter';   // the import module of what the meter adds (wasm_meter.h)
  const ADDED = 3;              // check, grow, tgrow

  /* module -> what metering learned: [imports the script's module declared,
   * bytes its memories and tables take, dropped custom sections] */
  const infos = new WeakMapC();

  /* a WebAssembly.Module by its internal slot (Module.exports throws a
   * TypeError for anything else), not by instanceof, which a script can
   * change */
  function isModule(x) {
    if (typeof x !== 'object' || x === null) return false;
    try {
      moduleExports(ModuleC, x);
      return true;
    } catch (e) {
      return false;
    }
  }

  /* A copy of a BufferSource's bytes (the C API pins a buffer whose bytes
   * it hands out, so natives only read copies), or undefined for anything
   * else (and a detached buffer): the engine then says what is wrong. */
  function bytesOf(source) {
    let buffer = source, offset = 0, length;
    try {
      length = abLength(source);
    } catch (e) {
      try {
        length = taLength(source);
        offset = taOffset(source);
        buffer = taBuffer(source);
      } catch (e2) {
        try {
          length = dvLength(source);
          offset = dvOffset(source);
          buffer = dvBuffer(source);
        } catch (e3) {
          return undefined;
        }
      }
    }
    try {
      const copy = new U8(length);
      u8set(copy, new U8(buffer, offset, length));
      return copy;
    } catch (e) {
      return undefined;
    }
  }

  /* A new ArrayBuffer with the bytes of buffer (not ArrayBuffer.prototype.
   * slice, which asks the buffer's constructor, a script's, for a species). */
  function bufferCopy(buffer) {
    const copy = new U8(abLength(buffer));
    u8set(copy, new U8(buffer));
    return taBuffer(copy);
  }

  /* new WebAssembly.Module(source) with new.target nt: the metered module,
   * or the engine's error (thrown by the engine in tail position). */
  function compileSync(source, nt) {
    const copy = bytesOf(source);
    if (copy === undefined) return construct(ModuleC, [source], nt);   // not bytes: the engine's TypeError
    const r = meter(copy);
    if (typeof r === 'string') {
      if (validateC(copy)) {
        throw new CompileErrorC('WebAssembly.Module cannot be metered, ' + r +
                                ' (strait meters every module so that its code can be stopped)');
      }
      return construct(ModuleC, [copy], nt);   // invalid: the engine's CompileError
    }
    let m;
    try {
      m = construct(ModuleC, [r[0]], nt);
    } catch (e) {
      if (!validateC(copy)) return construct(ModuleC, [copy], nt);
      throw new CompileErrorC('WebAssembly.Module: the metered module does not compile: ' + e.message);
    }
    wmSet(infos, m, [r[1], r[2], r[3].length ? r[3] : undefined]);
    return m;
  }

  /* The imports the metered module gets under KEY: wasm functions of a
   * helper module made on first use,
   *   (import "h" "check" (func)) (import "h" "grow" (func (param i32) (result i32)))
   *   (import "h" "tgrow" (func (param i32) (result i32)))
   *   (func (export "check") call 0)
   *   (func (export "grow") (param i32) (result i32) local.get 0 call 1)
   *   (func (export "tgrow") (param i32) (result i32) local.get 0 call 2)
   * over JS functions, so that the watchdog's tick is served when they are
   * called (a wasm call of a C function does not serve it). */
  const HELPER = [0, 97, 115, 109, 1, 0, 0, 0, 1, 9, 2, 96, 0, 0, 96, 1, 127, 1, 127, 2, 30, 3, 1, 104, 5,
    99, 104, 101, 99, 107, 0, 0, 1, 104, 4, 103, 114, 111, 119, 0, 1, 1, 104, 5, 116, 103, 114, 111, 119, 0,
    1, 3, 4, 3, 0, 1, 1, 7, 24, 3, 5, 99, 104, 101, 99, 107, 0, 3, 4, 103, 114, 111, 119, 0, 4, 5, 116, 103,
    114, 111, 119, 0, 5, 10, 20, 3, 4, 0, 16, 0, 11, 6, 0, 32, 0, 16, 1, 11, 6, 0, 32, 0, 16, 2, 11];
  let meterImports;
  function check() { checkN(); }
  function grow(pages) { return growN(pages); }
  function tgrow(n) { return tgrowN(n); }
  function added() {
    if (meterImports === undefined) {
      const h = { __proto__: null, check, grow, tgrow };
      const bytes = new U8(HELPER.length);   /* not new U8(array): that asks the array's iterator */
      for (let i = 0; i < HELPER.length; i++) bytes[i] = HELPER[i];
      const e = instanceExports(new InstanceC(new ModuleC(bytes), { __proto__: null, h }));
      meterImports = { __proto__: null, check: e.check, grow: e.grow, tgrow: e.tgrow };
    }
    return meterImports;
  }
  /* the script's import object as the engine reads it, with KEY added */
  const importTraps = {
    __proto__: null,
    get(target, key) {
      return key === KEY ? added() : reflectGet(target, key);
    },
  };

  /* new WebAssembly.Instance(module, imports) with new.target nt. */
  function instantiateSync(module, imports, nt) {
    const info = isModule(module) ? wmGet(infos, module) : undefined;
    if (info === undefined) {
      if (isModule(module)) {
        throw new TypeErrorC('WebAssembly.Instance: this WebAssembly.Module was not compiled by this runtime, ' +
                             'which meters every module so that its code can be stopped: compile it here from its bytes');
      }
      return construct(InstanceC, [module, imports], nt);   // the engine's TypeError
    }
    let given = imports;
    if (given === undefined) {
      if (info[0] === 0) given = { __proto__: null, [KEY]: added() };
    } else if ((typeof given === 'object' && given !== null) || typeof given === 'function') {
      given = new ProxyC(given, importTraps);
    }
    if (info[1] > 0) admitN(info[1]);
    return construct(InstanceC, [module, given], nt);
  }

  /* Module's statics, as the engine's (names and lengths too) but for what
   * the meter added. */
  const statics = {
    customSections(argc, module, sectionName) {
      if (argc < 2) {   /* the engine's own "Not enough arguments" */
        return argc ? moduleCustomSections(ModuleC, module) : moduleCustomSections(ModuleC);
      }
      const info = isModule(module) ? wmGet(infos, module) : undefined;
      if (info === undefined || info[2] === undefined) return moduleCustomSections(ModuleC, module, sectionName);
      /* the engine's ToString of the name, once; then the sections the
       * meter left out of the engine's copy, if it has that name */
      let name;
      const probe = { __proto__: null, toString() { return (name = `${sectionName}`); } };
      const list = moduleCustomSections(ModuleC, module, probe);
      const out = [], dropped = info[2];
      for (let i = 0; i < dropped.length; i++) if (dropped[i][0] === name) out[out.length] = bufferCopy(dropped[i][1]);
      return out.length ? out : list;
    },
    imports(module) {
      const info = isModule(module) ? wmGet(infos, module) : undefined;
      if (info === undefined) return moduleImports(ModuleC, module);
      try {
        const list = moduleImports(ModuleC, module);
        list.length -= ADDED;
        return list;
      } catch (e) {
        return moduleImports(ModuleC, module);
      }
    },
  };
  /* f(a, b) as a promise: settled with its value or its error. Promise.try
   * (captured) adds no source suffix of strait's to an engine error it
   * catches; try/catch where there is none. */
  function settle(f, a, b) {
    if (promiseTry) return promiseTry(PromiseC, f, a, b);
    try {
      return resolve(f(a, b));
    } catch (e) {
      return reject(e);
    }
  }
  const compileAny = (bytes) => compileSync(bytes, ModuleC);
  function instantiateAny(source, imports) {
    if (isModule(source)) return instantiateSync(source, imports, InstanceC);
    const module = compileSync(source, ModuleC);
    const instance = instantiateSync(module, imports, InstanceC);
    return { module, instance };
  }

  const methods = {
    validate(bytes) {
      const copy = bytesOf(bytes);
      if (copy === undefined) return validateC(bytes);   // not bytes: the engine's TypeError
      const r = meter(copy);
      return typeof r === 'string' ? false : validateC(r[0]);
    },
    compile(bytes) {
      return settle(compileAny, bytes);
    },
    instantiate(source, imports = undefined) {
      return settle(instantiateAny, source, imports);
    },
  };

  cap.impl = {
    __proto__: null,
    Module: (source, _, nt) => compileSync(source, nt),
    Instance: instantiateSync,
    customSections: statics.customSections,
    imports: statics.imports,
    validate: methods.validate,
    compile: methods.compile,
    instantiate: methods.instantiate,
  };
});

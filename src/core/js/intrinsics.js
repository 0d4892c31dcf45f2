// intrinsics.js - runs at start-up, before any script: captures every
// built-in that the parts loaded on first use (clone.js: structuredClone
// and the clone engine; worker.js: workers and message ports; codec.js:
// the JS side of the value format, src/core/codec_js.c) will call,
// so that a script that replaced Map, Object.keys, Function.prototype.call,
// Array.prototype.push... before their first use changes nothing; installs
// the Proxy registry (a proxy made before the clone engine loads must
// still be known as one); and defines the globals of those parts as
// accessors that load them on first use (evaluating them costs each
// runtime about 2.5 ms, most of it parsing, which a runtime that never
// clones or starts a worker does not pay).
(function (native, internal) {
  'use strict';
  const FP = Function.prototype, fcall = FP.call, fbind = FP.bind;
  const uncurry = (f) => fbind.call(fcall, f);
  const ObjectC = Object, OP = Object.prototype, AP = Array.prototype;
  const getProto = Object.getPrototypeOf, keysOf = Object.keys, isArray = Array.isArray;
  const defineProp = Object.defineProperty, gopd = Object.getOwnPropertyDescriptor;
  const hasOwn = uncurry(OP.hasOwnProperty), objToString = uncurry(OP.toString);
  const fnToString = uncurry(FP.toString), symToString = uncurry(Symbol.prototype.toString);
  const substringF = String.prototype.substring, substring = uncurry(substringF), SP = String.prototype;
  /* Whether 'str.substring' is the intrinsic (a data property of
   * String.prototype: a script may have replaced it). Then a loop that
   * runs no script code may call it as a method. */
  function substringIsIntrinsic() {
    const d = gopd(SP, 'substring');
    return d !== undefined && hasOwn(d, 'value') && d.value === substringF;
  }
  const StringC = String, BigIntC = BigInt, TypeErr = TypeError, RangeErr = RangeError;
  const ErrorC = Error;
  const DateC = Date, dateGetTime = uncurry(Date.prototype.getTime);
  const RegExpC = RegExp, reSource = uncurry(gopd(RegExp.prototype, 'source').get);
  /* [flag, getter of that flag...]: each getter reads the RegExp's
   * [[OriginalFlags]] (the flags getter reads them as properties, through
   * the object's prototype chain) */
  const reFlagGets = [];
  for (const [c, n] of [['d', 'hasIndices'], ['g', 'global'], ['i', 'ignoreCase'], ['m', 'multiline'],
    ['s', 'dotAll'], ['u', 'unicode'], ['v', 'unicodeSets'], ['y', 'sticky']]) {
    const g = gopd(RegExp.prototype, n);
    if (g && typeof g.get === 'function') reFlagGets.push(c, uncurry(g.get));
  }
  const boolValueOf = uncurry(Boolean.prototype.valueOf), numValueOf = uncurry(Number.prototype.valueOf);
  const strValueOf = uncurry(String.prototype.valueOf), bigValueOf = uncurry(BigInt.prototype.valueOf);
  const MapC = Map, SetC = Set, mapForEach = uncurry(Map.prototype.forEach), setForEach = uncurry(Set.prototype.forEach);
  const mapSize = uncurry(gopd(Map.prototype, 'size').get), setSize = uncurry(gopd(Set.prototype, 'size').get);
  const mapSetM = Map.prototype.set, setAddM = Set.prototype.add;
  const mapSet = uncurry(mapSetM), setAdd = uncurry(setAddM);
  const WeakMapC = WeakMap, WeakSetC = WeakSet, PromiseC = Promise;
  const WeakRefC = typeof WeakRef === 'function' ? WeakRef : null;
  const FinRegC = typeof FinalizationRegistry === 'function' ? FinalizationRegistry : null;
  /* brand checks that throw for any other object */
  const wrDeref = WeakRefC === null ? null : uncurry(WeakRefC.prototype.deref);
  const frUnregister = FinRegC === null ? null : uncurry(FinRegC.prototype.unregister);
  const errIsError = typeof Error.isError === 'function' ? Error.isError : null;
  const ABC = ArrayBuffer, isView = ArrayBuffer.isView;
  const abByteLength = uncurry(gopd(ArrayBuffer.prototype, 'byteLength').get);
  const abDetachedD = gopd(ArrayBuffer.prototype, 'detached');
  const abDetached = abDetachedD ? uncurry(abDetachedD.get) : (b) => false;
  const abTransfer = uncurry(ArrayBuffer.prototype.transfer);
  /* resizable buffers (absent from an engine without them: all fixed) */
  const abResizableD = gopd(ArrayBuffer.prototype, 'resizable'), abMaxD = gopd(ArrayBuffer.prototype, 'maxByteLength');
  const abResizable = abResizableD ? uncurry(abResizableD.get) : (b) => false;
  const abMaxByteLength = abMaxD ? uncurry(abMaxD.get) : abByteLength;
  const abResize = typeof ArrayBuffer.prototype.resize === 'function' ? uncurry(ArrayBuffer.prototype.resize) : null;
  const U8C = Uint8Array, u8set = uncurry(Uint8Array.prototype.set);
  const TAP = getProto(Uint8Array.prototype);
  const taTag = uncurry(gopd(TAP, Symbol.toStringTag).get);
  const taBuffer = uncurry(gopd(TAP, 'buffer').get), taOffset = uncurry(gopd(TAP, 'byteOffset').get);
  const taLength = uncurry(gopd(TAP, 'length').get);
  const DataViewC = DataView, dvBuffer = uncurry(gopd(DataView.prototype, 'buffer').get);
  const dvOffset = uncurry(gopd(DataView.prototype, 'byteOffset').get);
  const dvLength = uncurry(gopd(DataView.prototype, 'byteLength').get);
  const Float64ArrayC = Float64Array, f64set = uncurry(TAP.set);
  const ProxyC = Proxy, ProxyRevocable = Proxy.revocable, iterSym = Symbol.iterator;
  const FunctionC = Function, jsonStringify = JSON.stringify, arrayJoin = uncurry(AP.join);
  const globalObj = globalThis;
  const VIEWS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
    Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView];
  const VIEW_KIND = { __proto__: null };
  for (let i = 0; i < 11; i++) VIEW_KIND[VIEWS[i].name] = i;
  const ERRORS = [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError];
  const ERROR_CODE = { __proto__: null };
  for (let i = 0; i < ERRORS.length; i++) ERROR_CODE[ERRORS[i].name] = i;
  /* Maps and sets whose methods are the intrinsics (own on a prototype no
   * script ever sees), so calls stay direct for the JIT. */
  class SafeMap extends MapC {}
  defineProp(SafeMap.prototype, 'get', { value: Map.prototype.get });
  defineProp(SafeMap.prototype, 'set', { value: mapSetM });
  defineProp(SafeMap.prototype, 'has', { value: Map.prototype.has });
  class SafeSet extends SetC {}
  defineProp(SafeSet.prototype, 'add', { value: setAddM });
  defineProp(SafeSet.prototype, 'has', { value: Set.prototype.has });
  class SafeWeakSet extends WeakSetC {}
  defineProp(SafeWeakSet.prototype, 'add', { value: WeakSet.prototype.add });
  defineProp(SafeWeakSet.prototype, 'has', { value: WeakSet.prototype.has });
  class SafeWeakMap extends WeakMapC {}
  defineProp(SafeWeakMap.prototype, 'get', { value: WeakMap.prototype.get });
  defineProp(SafeWeakMap.prototype, 'set', { value: WeakMap.prototype.set });

  /* What codec.js (the JS side of the value format, evaluated on the first
   * conversion) calls: DataViews whose accessors are own methods of a
   * prototype no script sees (direct calls the JIT inlines), and the
   * guards of its string fast paths. */
  const DVP = DataView.prototype;
  class SafeDataView extends DataViewC {}
  for (const m of ['getInt32', 'getUint32', 'getUint16', 'getFloat64', 'getBigInt64', 'setInt32', 'setUint32',
    'setUint16', 'setFloat64']) defineProp(SafeDataView.prototype, m, { value: DVP[m] });
  class CodecMap extends MapC {}
  defineProp(CodecMap.prototype, 'get', { value: Map.prototype.get });
  defineProp(CodecMap.prototype, 'set', { value: mapSetM });
  const ownF = Object.hasOwn, charCodeAtF = SP.charCodeAt, pushF = AP.push;
  /* Whether holder.NAME is still the intrinsic f (a data property: a
   * script may have replaced it). Then code that runs no script code in
   * between may call it as a method. */
  const methodIs = (holder, name, f) => {
    const d = gopd(holder, name);
    return d !== undefined && ownF(d, 'value') && d.value === f;
  };
  const codec = {
    OP, getProto, isArray, isView, fromCharCode: String.fromCharCode, setProto: Object.setPrototypeOf,
    defineProp, floor: Math.floor, parseInt, BigIntC, bigToString: uncurry(BigInt.prototype.toString),
    TypeErr, RangeErr, ABC, U8C: Uint8Array, F64C: Float64Array, DataViewC, SafeDataView, DateC,
    MapC, SetC, SafeWeakMap, CodecMap, ABP: ABC.prototype, DateP: DateC.prototype, MapP: Map.prototype,
    SetP: Set.prototype, DVP, hasInstance: uncurry(FP[Symbol.hasInstance]), abByteLength,
    taTag, taBuffer, taOffset, taByteLength: uncurry(gopd(TAP, 'byteLength').get), taSet: f64set,
    dvBuffer, dvOffset, dvLength, dateGetTime, mapForEach, setForEach, mapSet, setAdd, mapSize, setSize,
    mapClear: uncurry(Map.prototype.clear), VIEWS, VIEW_KIND, keysOf,
    charCodeAtOK: () => methodIs(SP, 'charCodeAt', charCodeAtF),
    substringOK: () => methodIs(SP, 'substring', substringF),
    pushOK: () => methodIs(AP, 'push', pushF),
  };

  /* ---- Proxy registry: JSC's C API gives no cheap proxy test, so the
   * global Proxy records the proxies it makes (a WeakSet); proxies made
   * elsewhere (another realm: the Java bridge) are found by the native
   * check on prototype chains (native.isHost). ---- */
  const proxies = new SafeWeakSet();
  const proxyCount = { n: 0 };
  /* Prototypes of the platform's own objects (MessagePort, Worker, events:
   * worker.js registers them through internal.platformProto): an object
   * with one in its chain is a host object, never cloned by its
   * properties (a DataCloneError unless the hooks transfer it). */
  const platformProtos = new SafeWeakSet();
  internal.platformProto = (p) => { platformProtos.add(p); };
  function makeProxy(target, handler) {
    if (new.target === undefined) throw new TypeErr("calling Proxy constructor without new is invalid");
    const p = new ProxyC(target, handler);
    proxies.add(p);
    proxyCount.n++;
    return p;
  }
  const BoundProxy = fbind.call(makeProxy, null);
  defineProp(BoundProxy, 'name', { value: 'Proxy', configurable: true });
  defineProp(BoundProxy, 'revocable', {
    value: function revocable(target, handler) {
      const r = ProxyRevocable(target, handler);
      proxies.add(r.proxy);
      proxyCount.n++;
      return r;
    }, writable: true, configurable: true });
  defineProp(globalThis, 'Proxy', { value: BoundProxy, writable: true, configurable: true });

  /* what worker.js calls */
  const ApplyC = Reflect.apply;
  const worker = {
    MapC, WeakMapC, PromiseC, ErrorC, TypeErrorC: TypeErr, SymbolC: Symbol, ArrayIsArray: isArray,
    apply: ApplyC, defineProperty: defineProp, create: Object.create, decodeURI: globalThis.decodeURI,
    StringC, bindTo: uncurry(fbind), mapGetM: Map.prototype.get, mapSetM, mapDeleteM: Map.prototype.delete,
    mapForEachM: Map.prototype.forEach, weakMapGetM: WeakMap.prototype.get,
    weakMapSetM: WeakMap.prototype.set, arrayPush: AP.push, arraySlice: AP.slice, arraySplice: AP.splice,
    strSlice: SP.slice, strStartsWith: SP.startsWith, strLastIndexOf: SP.lastIndexOf, strSplit: SP.split,
    reExec: RegExp.prototype.exec,
  };
  internal.intr = {
    clone: {
      FP, fcall, fbind, uncurry, ObjectC, OP, AP, getProto,
      keysOf, isArray, defineProp, gopd, hasOwn, objToString, fnToString, symToString,
      substringF, substring, SP, substringIsIntrinsic, StringC, BigIntC, TypeErr, RangeErr,
      ErrorC, DateC, dateGetTime, RegExpC, reSource, reFlagGets, boolValueOf, numValueOf,
      strValueOf, bigValueOf, MapC, SetC, mapForEach, setForEach, mapSize, setSize,
      mapSetM, setAddM, mapSet, setAdd, WeakMapC, WeakSetC, PromiseC, WeakRefC,
      FinRegC, wrDeref, frUnregister, errIsError, ABC, isView, abByteLength, abDetachedD, abDetached, abTransfer, abResizable,
      abMaxByteLength, abResize, U8C, u8set,
      TAP, taTag, taBuffer, taOffset, taLength, DataViewC, dvBuffer, dvOffset,
      dvLength, Float64ArrayC, f64set, ProxyC, ProxyRevocable, iterSym, FunctionC, jsonStringify,
      arrayJoin, globalObj, VIEWS, VIEW_KIND, ERRORS, ERROR_CODE, SafeMap, SafeSet,
      SafeWeakSet, SafeWeakMap
    },
    proxies, proxyCount, platformProtos, worker, codec,
  };

  /* The globals of the parts loaded on first use: reading one loads its
   * part (which replaces the accessor by a data property); assigning one
   * just makes it a plain global. */
  const load = native.load;
  function lazy(name, part) {
    defineProp(globalThis, name, {
      configurable: true, enumerable: false,
      get() { load(part); return globalThis[name]; },
      set(v) { defineProp(globalThis, name, { value: v, writable: true, configurable: true }); },
    });
  }
  lazy('structuredClone', 'clone.js');
  lazy('DOMException', 'clone.js');
  for (const name of ['Worker', 'MessageChannel', 'MessagePort', 'EventTarget', 'Event', 'MessageEvent',
    'ErrorEvent']) lazy(name, 'worker.js');
  const builtins = internal.builtins || (internal.builtins = Object.create(null));
  defineProp(builtins, 'worker_threads', {
    configurable: true, enumerable: true,
    get() { load('worker.js'); return builtins.worker_threads; },
  });
});

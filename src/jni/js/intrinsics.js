// intrinsics.js - the intrinsics of the JNI layer: one object, read by this
// script in the realm it is captured from (a runtime's own global before any
// script ran, or a fresh realm of its VM; see src/jni/base/runtime_state.c).
// The bridge's helper (bridge_helper.js) uses every function here but
// `resizable`/`detached` (asByteBuffer, call/codec_natives.c), and
// JsObject.keys() uses `keys`. The completion value is the object.
(() => { const ab = (k) => { const d = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, k);
                             return d === undefined ? undefined : d.get; };
  /* a WeakMap whose get/set are its own (a script replacing WeakMap's
   * methods changes nothing for it), for the windows of JDK lists */
  class SafeWeakMap extends WeakMap {}
  for (const m of ['get', 'set']) Object.defineProperty(SafeWeakMap.prototype, m, { value: WeakMap.prototype[m] });
  return { __proto__: null, defineProperty: Object.defineProperty, create: Object.create,
   getPrototypeOf: Object.getPrototypeOf, keys: Object.keys, get: Reflect.get, set: Reflect.set,
   has: Reflect.has, ownKeys: Reflect.ownKeys, getOwnPropertyDescriptor: Reflect.getOwnPropertyDescriptor,
   defineOwn: Reflect.defineProperty, deleteProperty: Reflect.deleteProperty, apply: Reflect.apply,
   Proxy: Proxy, Symbol: Symbol, iterator: Symbol.iterator, hasInstance: Symbol.hasInstance,
   inspect: Symbol.for('nodejs.util.inspect.custom'), resizable: ab('resizable'), detached: ab('detached'),
   toPrimitive: Symbol.toPrimitive, SafeWeakMap };
})()

// clone.js - structured clone (docs/clone.md): the globals structuredClone
// and DOMException, and the serializer / deserializer the C side
// (clone.c) uses to move a value between runtimes.
//
// A value is serialized into tokens (a Float64Array: tags, counts,
// numbers), strings (an array, in the order they are met) and array
// buffers; the deserializer reads the same tokens in the same order.
// Both walk iteratively with explicit stacks. Every built-in they use was
// captured by intrinsics.js when the runtime started, before any script: a
// script that replaces Map, Object.keys, Array.prototype.push... changes
// nothing. This file is evaluated on first use (env.c, strait__env_load):
// the first structuredClone, DOMException or message.
(function (native, internal) {
  'use strict';
  /* ---- intrinsics ---- */
  /* ---- intrinsics: captured when the runtime started (intrinsics.js) ---- */
  const { FP, fcall, fbind, uncurry, ObjectC, OP, AP, getProto, keysOf, isArray, defineProp, gopd,
    hasOwn, objToString, fnToString, symToString, substringF, substring, SP, substringIsIntrinsic,
    d, StringC, BigIntC, TypeErr, RangeErr, ErrorC, DateC, dateGetTime, RegExpC, reSource, reFlagGets,
    boolValueOf, numValueOf, strValueOf, bigValueOf, MapC, SetC, mapForEach, setForEach, mapSize,
    setSize, mapSetM, setAddM, mapSet, setAdd, WeakMapC, WeakSetC, PromiseC, WeakRefC, FinRegC,
    ABC, isView, abByteLength, abDetachedD, abDetached, abTransfer, abResizable, abMaxByteLength,
    abResize,
    U8C, u8set, TAP, taTag, taBuffer,
    taOffset, taLength, DataViewC, dvBuffer, dvOffset, dvLength, Float64ArrayC, f64set, ProxyC,
    ProxyRevocable, iterSym, FunctionC, jsonStringify, arrayJoin, globalObj, VIEWS, VIEW_KIND,
    ERRORS, ERROR_CODE, SafeMap, SafeSet, SafeWeakSet, SafeWeakMap, wrDeref, frUnregister,
    errIsError } = internal.intr.clone;
  const proxies = internal.intr.proxies, proxyCount = internal.intr.proxyCount;
  const platformProtos = internal.intr.platformProtos;


  /* ---- DOMException ---- */
  const CODES = { __proto__: null, IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4,
    InvalidCharacterError: 5, NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9,
    InUseAttributeError: 10, InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13,
    NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18,
    NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23,
    InvalidNodeTypeError: 24, DataCloneError: 25 };
  const CONSTS = ['INDEX_SIZE_ERR', 1, 'DOMSTRING_SIZE_ERR', 2, 'HIERARCHY_REQUEST_ERR', 3,
    'WRONG_DOCUMENT_ERR', 4, 'INVALID_CHARACTER_ERR', 5, 'NO_DATA_ALLOWED_ERR', 6,
    'NO_MODIFICATION_ALLOWED_ERR', 7, 'NOT_FOUND_ERR', 8, 'NOT_SUPPORTED_ERR', 9,
    'INUSE_ATTRIBUTE_ERR', 10, 'INVALID_STATE_ERR', 11, 'SYNTAX_ERR', 12, 'INVALID_MODIFICATION_ERR', 13,
    'NAMESPACE_ERR', 14, 'INVALID_ACCESS_ERR', 15, 'VALIDATION_ERR', 16, 'TYPE_MISMATCH_ERR', 17,
    'SECURITY_ERR', 18, 'NETWORK_ERR', 19, 'ABORT_ERR', 20, 'URL_MISMATCH_ERR', 21,
    'QUOTA_EXCEEDED_ERR', 22, 'TIMEOUT_ERR', 23, 'INVALID_NODE_TYPE_ERR', 24, 'DATA_CLONE_ERR', 25];
  /* name and code of each DOMException (a WeakMap, not private fields:
   * JSC 2.50 leaks the names of private fields at VM teardown) */
  const domState = new SafeWeakMap();
  function domGet(o, i) {
    const st = domState.get(o);
    if (st === undefined) throw new TypeErr('The DOMException.prototype getter can only be used on a DOMException');
    return st[i];
  }
  class DOMException extends ErrorC {
    constructor(message = '', name = 'Error') {
      super(StringC(message));
      const nm = StringC(name), c = CODES[nm];
      domState.set(this, [nm, c === undefined ? 0 : c]);
    }
    get name() { return domGet(this, 0); }
    get code() { return domGet(this, 1); }
  }
  defineProp(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
  for (let i = 0; i < CONSTS.length; i += 2) {
    const d = { value: CONSTS[i + 1], enumerable: true };
    defineProp(DOMException, CONSTS[i], d);
    defineProp(DOMException.prototype, CONSTS[i], d);
  }
  defineProp(globalThis, 'DOMException', { value: DOMException, writable: true, configurable: true });

  function cloneError(what) { return new DOMException(what + ' could not be cloned.', 'DataCloneError'); }
  function describe(v) {
    if (typeof v === 'function') {
      let s;
      try { s = fnToString(v); } catch (e) { s = 'function'; }
      return s.length > 120 ? substring(s, 0, 117) + '...' : s;
    }
    if (typeof v === 'symbol') return symToString(v);
    let t;
    try { t = objToString(v); } catch (e) { t = '[object Object]'; }
    return '#<' + substring(t, 8, t.length - 1) + '>';
  }


  /* ---- serializer ---- */
  // tags
  const T_UNDEF = 0, T_NULL = 1, T_FALSE = 2, T_TRUE = 3, T_NUM = 4, T_STR = 5, T_BIGINT = 6,
    T_REF = 7, T_OBJ = 8, T_ARR = 9, T_HOLE = 10, T_DATE = 11, T_REGEXP = 12, T_BOOLO = 13,
    T_NUMO = 14, T_STRO = 15, T_BIGO = 16, T_MAP = 17, T_SET = 18, T_AB = 19, T_VIEW = 20,
    T_ERROR = 21, T_HOST = 22, /* 23: T_OBJE */
    /* an ArrayBuffer or view whose buffer is resizable: T_AB / T_VIEW and
     * then the buffer's maxByteLength; a T_RVIEW's view kind has
     * VIEW_TRACKS added when the view tracks its buffer's length */
    T_RAB = 24, T_RVIEW = 25, VIEW_TRACKS = 16;
  // frame kinds
  const F_OBJ = 0, F_DENSE = 1, F_SPARSE = 2, F_KEYED = 3, F_LIST = 4;
  // kinds of non-plain objects (kindOf)
  const K_PLAIN = 0, K_ARRAY = 1, K_DATE = 2, K_REGEXP = 3, K_BOOL = 4, K_NUMO = 5, K_STRO = 6,
    K_BIGO = 7, K_MAP = 8, K_SET = 9, K_AB = 10, K_VIEW = 11, K_ERROR = 12;
  const EMPTY = {};

  function brand(f, v, a) { try { f(v, a); return true; } catch (e) { return false; } }
  /* The byteOffset of view v (dvw: a DataView); a view out of the bounds of
   * its (shrunk) resizable buffer is a DataCloneError, as the web's
   * serializer has it: its getters would give offset and length 0 (a
   * typed array) or throw a TypeError (a DataView). A typed array of
   * length 0 is told by %TypedArray%.prototype.set, which refuses an
   * out-of-bounds target and copies nothing from an empty source. */
  const NO_ELEMENTS = [];
  function viewOffset(v, dvw) {
    if (dvw) {
      try { return dvOffset(v); } catch (e) { throw cloneError('A DataView out of the bounds of its ArrayBuffer'); }
    }
    if (taLength(v) === 0) {
      try { f64set(v, NO_ELEMENTS); } catch (e) { throw cloneError('A typed array out of the bounds of its ArrayBuffer'); }
    }
    return taOffset(v);
  }
  /* Whether view v (a DataView when dvw, else a typed array of kind vk),
   * in bounds at byte offset off with len elements, over resizable buffer
   * b tracks b's length (was made without a length). No getter tells: a
   * view that ends an element or more before b's end is fixed, and one
   * that ends within its last element is asked by resizing b for a moment
   * (nothing in between runs a script's code): grown so that one more
   * element fits (a tracking view gets it), else shrunk to one byte short
   * of the view's end (a fixed view goes out of bounds, a tracking one
   * stays in) and grown back with the cut bytes put back. An empty view
   * with no room to grow behaves the same either way: taken as fixed. */
  const VIEW_SIZE = [];   /* by view kind; a DataView's element is a byte */
  for (let i = 0; i < VIEWS.length; i++) VIEW_SIZE[i] = VIEWS[i] === DataViewC ? 1 : VIEWS[i].BYTES_PER_ELEMENT;
  function inBounds(v, dvw) {
    try { if (dvw) dvLength(v); else f64set(v, NO_ELEMENTS); return true; } catch (e) { return false; }
  }
  function tryResize(b, len) { try { abResize(b, len); return true; } catch (e) { return false; } }
  function tracksLength(v, dvw, vk, b, off, len) {
    if (abResize === null) return false;
    const size = VIEW_SIZE[vk], L = abByteLength(b), end = off + len * size;
    if (end + size <= L) return false;
    if (end + size <= abMaxByteLength(b) && tryResize(b, end + size)) {
      try { return (dvw ? dvLength(v) : taLength(v)) !== len; } finally { abResize(b, L); }
    }
    if (len === 0) return false;
    const cut = new U8C(L - end + 1);
    u8set(cut, new U8C(b, end - 1, L - end + 1));
    if (!tryResize(b, end - 1)) return false;
    try { return inBounds(v, dvw); } finally { abResize(b, L); u8set(new U8C(b), cut, end - 1); }
  }
  /* Whether o's prototype chain (from p) holds only ordinary objects up to
   * Object.prototype or null; a proxy or an object with native storage
   * (a Java wrapper's chain, a JSClass object) makes it a host object.
   * cache: proto -> verdict, per serialization. */
  function ordinaryChain(p, cache) {
    const c = cache.get(p);
    if (c !== undefined) return c;
    let q = p, ok = true;
    for (let steps = 0; q !== null && q !== OP; steps++) {
      if (steps > 100000 || (proxyCount.n !== 0 && proxies.has(q)) || platformProtos.has(q) || native.isHost(q)) {
        ok = false;
        break;
      }
      q = getProto(q);
    }
    cache.set(p, ok);
    return ok;
  }
  /* The flags of RegExp r, from its [[OriginalFlags]] (not through its
   * prototype, which a script may have replaced) */
  function regexpFlags(r) {
    let f = '';
    for (let i = 0; i < reFlagGets.length; i += 2) if (reFlagGets[i + 1](r)) f += reFlagGets[i];
    return f;
  }

  /* ---- internal slots by the engine's type of the object ----
   * An object is cloned by its internal slots: a Map as a Map whatever its
   * prototype and Symbol.toStringTag say, and an object with no slots as a
   * plain object whatever they say. JS tells a Map (Set, ArrayBuffer,
   * BigInt object) from a plain object only by a brand check that throws for
   * every other object (about 2 us a throw: more than the clone of a small
   * object), so the engine is asked the type of its objects
   * (native.cellType, countOtherTypes: clone.c). Which type is which kind is
   * learnt here from objects made now; unless every kind has types of its
   * own, typeKind is null and objects are told as before (kindOf, and an
   * object whose prototype is Object.prototype or null is plain).
   * A C call costs half a microsecond or more and, made once an object, made JSC
   * throw away the walk's optimized code again and again (a VM trap, such
   * as the watchdog's tick, pending when a C callback returns does that to
   * the code on the stack). So the walk takes objects as plain at once (the
   * hot path), lists those that must be asked (any whose prototype is not
   * Object.prototype or null, and those with no own keys or an index first:
   * a Map, Set, array, view, String object... whose prototype a script set
   * to Object.prototype or null has none of its own or indexes), and asks
   * their types together at its end. An object whose prototype is
   * Object.prototype or null and whose first own key is no index is plain
   * (a Map with such a prototype and such keys is cloned by its keys, as
   * before). When a listed object is of another kind after all (its brand
   * check agrees), the walk starts again and asks each listed object's type
   * as it meets it ("eager"): a value that holds a Map, Set... whose
   * prototype or tag a script changed is walked twice (its getters run
   * twice). */
  const typeOf = native.cellType, countOtherTypes = native.countOtherTypes, applyF = internal.intr.worker.apply;
  /* kinds typeKind alone names: objects no clone is made of */
  const K_REFUSED = 13;
  /* the type of plain objects (typeKind null: none) */
  let plainType = -1;
  const typeKind = learnTypes();
  function learnTypes() {
    if (typeof typeOf !== 'function' || typeof countOtherTypes !== 'function') return null;
    const t = [];
    for (let i = 0; i < 256; i++) t[i] = -1;
    const views = [], errors = [], buf = new ABC(8);
    for (let i = 0; i < VIEWS.length; i++) views[i] = new VIEWS[i](buf, 0, 1);
    for (let i = 0; i < ERRORS.length; i++) errors[i] = new ERRORS[i]('');
    const none = function () {};
    /* (BigInt objects share their type with WeakRef, FinalizationRegistry,
     * Intl and host objects: the brand check tells) */
    const made = [
      K_PLAIN, [{}, { __proto__: null }, new (class {})(), { __proto__: MapC.prototype }],
      K_ARRAY, [[]], K_VIEW, views, K_ERROR, errors, K_DATE, [new DateC(0)], K_REGEXP, [new RegExpC('')],
      K_BOOL, [ObjectC(false)], K_NUMO, [ObjectC(0)], K_STRO, [ObjectC('')], K_MAP, [new MapC()],
      K_SET, [new SetC()], K_AB, [buf, new ABC(0, { __proto__: null, maxByteLength: 8 })],
      K_BIGO, [ObjectC(0n)], K_REFUSED, [new WeakMapC(), new WeakSetC(), new PromiseC(none)],
    ];
    for (let i = 0; i < made.length; i += 2) {
      const k = made[i], objs = made[i + 1];
      for (let j = 0; j < objs.length; j++) {
        const c = typeOf(objs[j]);
        if (typeof c !== 'number' || !(c >= 0 && c <= 255) || (t[c] !== -1 && t[c] !== k)) return null;
        t[c] = k;
        if (k === K_PLAIN) {
          if (plainType !== -1 && plainType !== c) return null;
          plainType = c;
        }
      }
    }
    if (countOtherTypes(plainType, {}, [], { __proto__: null }) !== 1) return null;
    // (a WeakRef or FinalizationRegistry: of no kind's type but the BigInt objects')
    const other = [WeakRefC === null ? null : new WeakRefC(t), FinRegC === null ? null : new FinRegC(none)];
    for (let j = 0; j < other.length; j++) {
      if (other[j] === null) continue;
      const k = t[typeOf(other[j])];
      if (k !== -1 && k !== K_BIGO) return null;
    }
    return t;
  }
  /* Whether object v, whose type names kind k, is one by its brand check
   * (a DOMException has an Error's type: cloned as before) */
  function isKind(v, k) {
    switch (k) {
      case K_ARRAY: return isArray(v);
      case K_VIEW: return isView(v);
      case K_DATE: return brand(dateGetTime, v);
      case K_REGEXP: return brand(reSource, v);
      case K_BOOL: return brand(boolValueOf, v);
      case K_NUMO: return brand(numValueOf, v);
      case K_STRO: return brand(strValueOf, v);
      case K_BIGO: return brand(bigValueOf, v);
      case K_MAP: return brand(mapSize, v);
      case K_SET: return brand(setSize, v);
      // (not a SharedArrayBuffer, which has the same type)
      case K_AB: return brand(abByteLength, v);
      case K_ERROR: return !domState.has(v);
    }
    return false;
  }
  const WEAK_TOKEN = {};
  /* Whether object v, of kind k by its type but not by its brand check, is
   * one no clone is made of: a WeakMap, WeakSet, Promise, a WeakRef or
   * FinalizationRegistry (of BigInt objects' type), a SharedArrayBuffer (of
   * ArrayBuffers') */
  function refused(v, k) {
    return k === K_REFUSED || k === K_AB || (k === K_BIGO && ((wrDeref !== null && brand(wrDeref, v)) ||
      (frUnregister !== null && brand(frUnregister, v, WEAK_TOKEN))));
  }
  function refuse(v, k) { if (refused(v, k)) throw cloneError(describe(v)); }
  /* The kind of object v, taken as plain, by its type (the eager walk):
   * another kind when its brand check agrees; a DataCloneError for one no
   * clone is made of */
  function kindByType(v) {
    const k = typeKind[typeOf(v)];
    if (k === K_PLAIN || k === -1) return K_PLAIN;
    if (isKind(v, k)) return k;
    refuse(v, k);
    return K_PLAIN;
  }
  /* Whether the objects U[0, n) the walk took as plain are plain, by their
   * types (TYPES_AT_ONCE at a call; one at a time only when some are of
   * another type); a DataCloneError for one no clone is made of. Empties
   * U. A small clone first drops the objects a small clone found plain
   * before (an object's type never changes): a C call costs more than the
   * clone of a small value. */
  const TYPES_AT_ONCE = 1024, SMALL = 8, typeArgs = [0], knownPlain = new SafeWeakSet();
  function allPlain(U, n0) {
    let ok = true, n = n0;
    try {
      if (n0 <= SMALL) {
        n = 0;
        for (let j = 0; j < n0; j++) { const v = U[j]; if (!knownPlain.has(v)) U[n++] = v; }
        if (n === 0) return true;
      }
      for (let i = 0; i < n && ok; i += TYPES_AT_ONCE) {
        const m = n - i < TYPES_AT_ONCE ? n - i : TYPES_AT_ONCE;
        let other;
        if (m === 1) other = countOtherTypes(plainType, U[i]);
        else if (m === 2) other = countOtherTypes(plainType, U[i], U[i + 1]);
        else {
          typeArgs[0] = plainType;
          for (let j = 0; j < m; j++) typeArgs[j + 1] = U[i + j];
          typeArgs.length = m + 1;
          other = applyF(countOtherTypes, undefined, typeArgs);
        }
        if (other === 0 && n0 <= SMALL) for (let j = 0; j < m; j++) knownPlain.add(U[j]);
        for (let j = 0; other !== 0 && j < m; j++) {
          const v = U[i + j], k = typeKind[typeOf(v)];
          if (k === K_PLAIN || k === -1) continue;
          if (isKind(v, k)) { ok = false; break; }
          refuse(v, k);
        }
      }
    } finally {
      for (let j = 0; j < n0; j++) U[j] = undefined;
      for (let j = 1; j < typeArgs.length; j++) typeArgs[j] = undefined;
    }
    return ok;
  }
  // (an object of a type no kind has: refused, as before)
  function refusedType(v) {
    const k = typeKind[typeOf(v)];
    return k === -1 || (k !== K_PLAIN && !isKind(v, k) && refused(v, k));
  }
  function kindOf(v, p, cache) {
    if (isArray(v)) return K_ARRAY;
    if (isView(v)) return K_VIEW;
    if (v === globalObj) throw cloneError(describe(v));
    const t = objToString(v);
    switch (t) {
      case '[object Date]': if (brand(dateGetTime, v)) return K_DATE; break;
      case '[object RegExp]': if (brand(reSource, v)) return K_REGEXP; break;
      case '[object Boolean]': if (brand(boolValueOf, v)) return K_BOOL; break;
      case '[object Number]': if (brand(numValueOf, v)) return K_NUMO; break;
      case '[object String]': if (brand(strValueOf, v)) return K_STRO; break;
      case '[object BigInt]': if (brand(bigValueOf, v)) return K_BIGO; break;
      case '[object Error]': if (errIsError === null || errIsError(v)) return K_ERROR; break;
      case '[object Map]': if (brand(mapSize, v)) return K_MAP; break;
      case '[object Set]': if (brand(setSize, v)) return K_SET; break;
      case '[object ArrayBuffer]': if (brand(abByteLength, v)) return K_AB; break;
    }
    if (v instanceof MapC && brand(mapSize, v)) return K_MAP;
    if (v instanceof SetC && brand(setSize, v)) return K_SET;
    if (v instanceof ABC && brand(abByteLength, v)) return K_AB;
    if (v instanceof DateC && brand(dateGetTime, v)) return K_DATE;
    // (one that only claims to be a WeakMap... by its prototype or tag is
    // plain, when its type says so)
    if (((v instanceof WeakMapC || v instanceof WeakSetC || v instanceof PromiseC ||
        (WeakRefC !== null && v instanceof WeakRefC) || (FinRegC !== null && v instanceof FinRegC) ||
        t === '[object WeakMap]' || t === '[object WeakSet]' || t === '[object Promise]' ||
        t === '[object WeakRef]' || t === '[object FinalizationRegistry]' || t === '[object SharedArrayBuffer]') &&
        (typeKind === null || refusedType(v))) || !ordinaryChain(p, cache))
      throw cloneError(describe(v));
    return K_PLAIN;
  }
  /* o[k] at one of 16 sites chosen by the key's position: each site sees
   * few (shape, key) pairs, so JSC caches the load (one shared site goes
   * megamorphic: a C++ lookup per property). */
  function getAt(o, k, i) {
    switch (i) {
      case 0: return o[k];
      case 1: return o[k];
      case 2: return o[k];
      case 3: return o[k];
      case 4: return o[k];
      case 5: return o[k];
      case 6: return o[k];
      case 7: return o[k];
      case 8: return o[k];
      case 9: return o[k];
      case 10: return o[k];
      case 11: return o[k];
      case 12: return o[k];
      case 13: return o[k];
      case 14: return o[k];
      case 15: return o[k];
    }
    return o[k];
  }
  function isIndex(k) { const n = k >>> 0; return n !== 4294967295 && '' + n === k; }

  /* Serializes root. abs: array buffers of the transfer list (their
   * indexes come first), hosts: host transferables (token indexes).
   * Returns {t, nt, s, ns, bufs}; throws DataCloneError or what a getter
   * threw. */
  /* The token array of the last clone, taken by the next (null while one
   * is in use: a getter's nested clone makes its own), so a clone writes
   * into memory already mapped instead of growing a new array from 256
   * tokens (each growth a zeroed allocation: page faults, memset). Kept
   * up to SPARE_MAX tokens. */
  const SPARE_MAX = 1 << 20;
  let spareT = null;
  function giveBack(T) { if (T.length <= SPARE_MAX) spareT = T; }
  /* Object ids: a WeakMap from object to ib + id kept across clones, each
   * clone with its own base ib (an entry below it is from an earlier clone:
   * not seen yet), so no Map is made and grown per clone. Weak: it keeps no
   * object alive. A nested clone (a getter that clones) uses its own. */
  let idsPool = new SafeWeakMap(), idsNext = 0, idsBusy = false;
  /* The frame arrays, kept for the next clone too (frames are emptied as
   * they close; after a throw, the arrays are dropped). */
  /* (U: the objects taken as plain whose types are asked at the end) */
  const newFrames = () => ({ O: [], K: [], I: [], N: [], Kind: [], U: [] });
  let sf = newFrames();
  function serialize(root, abs, hosts) {
    if (idsBusy) return serializeChecked(root, abs, hosts, new SafeWeakMap(), 0, newFrames());
    idsBusy = true;
    let r = null;
    try {
      r = serializeChecked(root, abs, hosts, idsPool, idsNext, sf);
      return r;
    } finally {
      if (r !== null) idsNext += r.nid + 1;
      else { idsPool = new SafeWeakMap(); idsNext = 0; sf = newFrames(); }
      if (idsNext > 4503599627370496) { idsPool = new SafeWeakMap(); idsNext = 0; }
      idsBusy = false;
    }
  }
  /* The walk, and again eagerly (with ids from a new base) when an object it
   * took as plain was not. */
  function serializeChecked(root, abs, hosts, ids, ib, sf) {
    const r = serializeIn(root, abs, hosts, ids, ib, sf, false);
    if (r.nu === 0 || allPlain(sf.U, r.nu)) return r;
    giveBack(r.t);
    const r2 = serializeIn(root, abs, hosts, ids, ib + r.nid + 1, sf, true);
    r2.nid += r.nid + 1;
    return r2;
  }
  function serializeIn(root, abs, hosts, ids, ib, sf, eager) {
    let T = spareT, cap, n = 0;
    spareT = null;
    if (T === null) T = new Float64ArrayC(256);
    cap = T.length;
    const S = [];
    let ns = 0;
    // (maps made when needed: a small clone's fixed cost)
    const bufs = [], nabs = abs.length;
    let bufIds = nabs === 0 ? null : new SafeMap(), protoCache = null;
    const hostIds = hosts.length === 0 ? null : new SafeMap();
    let nid = 0;
    for (let i = 0; i < abs.length; i++) { bufIds.set(abs[i], i); bufs[i] = abs[i]; }
    const nhost = hosts.length;
    for (let i = 0; i < nhost; i++) hostIds.set(hosts[i], i);
    const shapes = new SafeMap();
    let nshape = 0;
    const fO = sf.O, fK = sf.K, fI = sf.I, fN = sf.N, fKind = sf.Kind, U = sf.U;
    let nu = 0;
    let sp = 0, v = root, i, k, t, o;
    for (;;) {
      if (n > cap - 32) {
        let c = cap * 2;
        const nt = new Float64ArrayC(c);
        f64set(nt, T);
        T = nt; cap = c;
      }
      switch (typeof v) {
        case 'number': T[n] = T_NUM; T[n + 1] = v; n += 2; break;
        case 'string': T[n++] = T_STR; S[ns++] = v; break;
        case 'boolean': T[n++] = v ? T_TRUE : T_FALSE; break;
        case 'undefined': T[n++] = T_UNDEF; break;
        case 'bigint': T[n++] = T_BIGINT; S[ns++] = StringC(v); break;
        case 'symbol': case 'function': throw cloneError(describe(v));
        default: {
          if (v === null) { T[n++] = T_NULL; break; }
          let id = ids.get(v);
          if (id !== undefined && id >= ib) {
            id -= ib; T[n] = T_REF; T[n + 1] = id; n += 2; break; }
          if (nhost !== 0) {
            id = hostIds.get(v);
            if (id !== undefined) { T[n] = T_HOST; T[n + 1] = id; n += 2; break; }
          }
          if (proxyCount.n !== 0 && proxies.has(v)) throw cloneError(describe(v));
          const p = getProto(v);
          let kind = p === OP ? K_PLAIN : p === AP && isArray(v) ? K_ARRAY : -1;
          if (kind < 0) {
            if (p === null) kind = K_PLAIN;
            else {
              if (protoCache === null) protoCache = new SafeMap();
              kind = kindOf(v, p, protoCache);
            }
          }
          let ks = null;
          if (kind === K_PLAIN && typeKind !== null) {
            // (its type is asked unless the prototype is Object.prototype or
            // null and the first own key no index: see allPlain)
            ks = keysOf(v);
            if ((p !== OP && p !== null) || ks.length === 0 || ks[0] === '0') {
              if (!eager) U[nu++] = v;
              else kind = kindByType(v);
            }
          }
          if (kind === K_PLAIN) {
            ids.set(v, ib + nid++);
            if (ks === null) ks = keysOf(v);
            const kn = ks.length;
            let e = shapes.get(kn === 0 ? EMPTY : ks[0]), sid = -1;
            if (e !== undefined) {
              for (let j = 0; j < e.length; j += 2) {
                const eks = e[j];
                if (eks.length !== kn) continue;
                let m = 1;
                while (m < kn && eks[m] === ks[m]) m++;
                if (m >= kn) { sid = e[j + 1]; break; }
              }
            } else {
              e = [];
              shapes.set(kn === 0 ? EMPTY : ks[0], e);
            }
            T[n] = T_OBJ;
            if (sid >= 0) { T[n + 1] = sid; n += 2; }
            else {
              sid = nshape++;
              e[e.length] = ks; e[e.length] = sid;
              T[n + 1] = sid; T[n + 2] = kn; n += 3;
              for (let j = 0; j < kn; j++) S[ns++] = ks[j];
            }
            if (kn > 0) { fO[sp] = v; fK[sp] = ks; fI[sp] = 0; fN[sp] = kn; fKind[sp] = F_OBJ; sp++; }
            break;
          }
          if (kind === K_ARRAY) {
            ids.set(v, ib + nid++);
            const len = v.length, ks = keysOf(v), kn = ks.length;
            let e = kn;
            while (e > 0 && !isIndex(ks[e - 1])) e--;
            const dense = e === len || e * 2 >= len;
            T[n] = T_ARR; T[n + 1] = len; T[n + 2] = dense ? 0 : 1; T[n + 3] = kn - e; T[n + 4] = e; n += 5;
            if (kn > e) { fO[sp] = v; fK[sp] = ks; fI[sp] = e; fN[sp] = kn; fKind[sp] = F_KEYED; sp++; }
            if (dense) { if (len > 0) { fO[sp] = v; fK[sp] = null; fI[sp] = 0; fN[sp] = len; fKind[sp] = F_DENSE; sp++; } }
            else if (e > 0) { fO[sp] = v; fK[sp] = ks; fI[sp] = 0; fN[sp] = e; fKind[sp] = F_SPARSE; sp++; }
            break;
          }
          switch (kind) {
            case K_DATE: ids.set(v, ib + nid++); T[n] = T_DATE; T[n + 1] = dateGetTime(v); n += 2; break;
            case K_REGEXP: ids.set(v, ib + nid++); T[n++] = T_REGEXP; S[ns++] = reSource(v); S[ns++] = regexpFlags(v); break;
            case K_BOOL: ids.set(v, ib + nid++); T[n] = T_BOOLO; T[n + 1] = boolValueOf(v) ? 1 : 0; n += 2; break;
            case K_NUMO: ids.set(v, ib + nid++); T[n] = T_NUMO; T[n + 1] = numValueOf(v); n += 2; break;
            case K_STRO: ids.set(v, ib + nid++); T[n++] = T_STRO; S[ns++] = strValueOf(v); break;
            case K_BIGO: ids.set(v, ib + nid++); T[n++] = T_BIGO; S[ns++] = StringC(bigValueOf(v)); break;
            case K_MAP: {
              ids.set(v, ib + nid++);
              const l = [];
              mapForEach(v, function (val, key) { l[l.length] = key; l[l.length] = val; });
              T[n] = T_MAP; T[n + 1] = l.length / 2; n += 2;
              if (l.length > 0) { fO[sp] = l; fK[sp] = null; fI[sp] = 0; fN[sp] = l.length; fKind[sp] = F_LIST; sp++; }
              break;
            }
            case K_SET: {
              ids.set(v, ib + nid++);
              const l = [];
              setForEach(v, function (val) { l[l.length] = val; });
              T[n] = T_SET; T[n + 1] = l.length; n += 2;
              if (l.length > 0) { fO[sp] = l; fK[sp] = null; fI[sp] = 0; fN[sp] = l.length; fKind[sp] = F_LIST; sp++; }
              break;
            }
            case K_AB: {
              if (abDetached(v)) throw cloneError('An ArrayBuffer is detached and');
              if (bufIds === null) bufIds = new SafeMap();
              id = bufIds.get(v);
              if (id === undefined) { id = bufs.length; bufIds.set(v, id); bufs[id] = v; }
              if (abResizable(v)) { T[n] = T_RAB; T[n + 1] = id; T[n + 2] = abMaxByteLength(v); n += 3; }
              else { T[n] = T_AB; T[n + 1] = id; n += 2; }
              break;
            }
            case K_VIEW: {
              const tag = taTag(v), dvw = tag === undefined, vk = dvw ? 11 : VIEW_KIND[tag];
              /* a kind the deserializer cannot make (Float16Array) */
              if (vk === undefined) throw cloneError(describe(v));
              const b = dvw ? dvBuffer(v) : taBuffer(v);
              if (abDetached(b)) throw cloneError('An ArrayBuffer is detached and');
              const off = viewOffset(v, dvw), len = dvw ? dvLength(v) : taLength(v);
              ids.set(v, ib + nid++);
              if (bufIds === null) bufIds = new SafeMap();
              id = bufIds.get(b);
              if (id === undefined) { id = bufs.length; bufIds.set(b, id); bufs[id] = b; }
              if (abResizable(b)) {
                const tracks = tracksLength(v, dvw, vk, b, off, len);
                T[n] = T_RVIEW; T[n + 1] = tracks ? vk + VIEW_TRACKS : vk; T[n + 2] = id; T[n + 3] = off;
                T[n + 4] = len; T[n + 5] = abMaxByteLength(b); n += 6;
              } else { T[n] = T_VIEW; T[n + 1] = vk; T[n + 2] = id; T[n + 3] = off; T[n + 4] = len; n += 5; }
              break;
            }
            case K_ERROR: {
              ids.set(v, ib + nid++);
              const nm = v.name;
              let code = 0;
              if (typeof nm === 'string') { code = ERROR_CODE[nm]; if (code === undefined) code = 0; }
              const hasMsg = hasOwn(v, 'message'), hasStack = hasOwn(v, 'stack'), hasCause = hasOwn(v, 'cause');
              T[n] = T_ERROR; T[n + 1] = code; T[n + 2] = (hasMsg ? 1 : 0) | (hasStack ? 2 : 0) | (hasCause ? 4 : 0);
              n += 3;
              if (hasMsg) S[ns++] = StringC(v.message);
              if (hasStack) { const st = v.stack; S[ns++] = typeof st === 'string' ? st : StringC(st); }
              if (hasCause) { fO[sp] = [v.cause]; fK[sp] = null; fI[sp] = 0; fN[sp] = 1; fKind[sp] = F_LIST; sp++; }
              break;
            }
          }
        }
      }
      // the next value
      for (;;) {
        if (sp === 0) return { t: T, nt: n, s: S, ns: ns, bufs: bufs, nid: nid, nu: nu };
        t = sp - 1; i = fI[t];
        if (i < fN[t]) {
          o = fO[t]; fI[t] = i + 1;
          switch (fKind[t]) {
            case F_OBJ: v = getAt(o, fK[t][i], i); break;
            case F_DENSE:
              v = o[i];
              if (v === undefined && !(i in o)) {
                if (n > cap - 32) { const nt = new Float64ArrayC(cap * 2); f64set(nt, T); T = nt; cap *= 2; }
                T[n++] = T_HOLE;
                continue;
              }
              break;
            case F_SPARSE: k = fK[t][i]; T[n++] = +k; v = o[k]; break;
            case F_KEYED: k = fK[t][i]; S[ns++] = k; v = o[k]; break;
            default: v = o[i]; break;
          }
          break;
        }
        sp = t; fO[t] = null; fK[t] = null;
      }
    }
  }

  /* ---- deserializer ---- */
  /* Per shape: whether its keys can be stored with [[Set]] on a fresh
   * object (no __proto__, no accessor or read-only property of that name
   * on Object.prototype); else they are defined. */
  function plainKeys(ks) {
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i];
      if (k === '__proto__') return false;
      if (!(k in OP)) continue;  // (no lookup, no descriptor made: the common case)
      const d = gopd(OP, k);
      if (d !== undefined && !(hasOwn(d, 'value') && d.writable === true)) return false;
    }
    return true;
  }
  function define(o, k, v) {
    defineProp(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
  }
  function putAt(o, k, v, i) {
    switch (i) {
      case 0: o[k] = v; return;
      case 1: o[k] = v; return;
      case 2: o[k] = v; return;
      case 3: o[k] = v; return;
      case 4: o[k] = v; return;
      case 5: o[k] = v; return;
      case 6: o[k] = v; return;
      case 7: o[k] = v; return;
      case 8: o[k] = v; return;
      case 9: o[k] = v; return;
      case 10: o[k] = v; return;
      case 11: o[k] = v; return;
      case 12: o[k] = v; return;
      case 13: o[k] = v; return;
      case 14: o[k] = v; return;
      case 15: o[k] = v; return;
    }
    o[k] = v;
  }

  /* Reads the value of tokens T[0, nt) with strings S (in order), buffers
   * bufs (ArrayBuffers by index) and host objects hostObjs. */
  /* The deserializer's arrays, kept for the next call (in use: dsBusy).
   * Arrays made per call grow by stores past their end, and the DFG
   * compiles such a store (shapes[sid] = ks, met once per clone) as in
   * bounds: each clone then left the optimized code at its first shape
   * (an OSR exit) and ran the rest in the baseline JIT (profile: 20% of
   * a tree clone in Baseline deserialize, its stores in IC stubs). Reused
   * arrays stay long enough after the first clones. Emptied of objects
   * after each call; a nested call (none is expected: nothing here runs a
   * script's code) gets its own. */
  const ds = { objs: [], shapes: [], plain: [], O: [], K: [], I: [], N: [], Kind: [], nobj: 0, nshape: 0 };
  let dsBusy = false;
  function deserialize(T, nt, S, bufs, hostObjs) {
    if (dsBusy) return deserializeIn(T, S, bufs, hostObjs, { objs: [], shapes: [], plain: [], O: [], K: [], I: [], N: [], Kind: [], nobj: 0, nshape: 0 });
    dsBusy = true;
    let ok = false;
    try {
      const r = deserializeIn(T, S, bufs, hostObjs, ds);
      ok = true;
      return r;
    } finally {
      // (the frames were emptied as they closed)
      const objs = ds.objs, shapes = ds.shapes;
      if (ok) {
        for (let j = 0, n = ds.nobj; j < n; j++) objs[j] = undefined;
        for (let j = 0, n = ds.nshape; j < n; j++) shapes[j] = undefined;
      } else {
        objs.length = 0; shapes.length = 0; ds.O.length = 0; ds.K.length = 0;
      }
      dsBusy = false;
    }
  }
  /* Buffer id of bufs as a resizable ArrayBuffer of at most max bytes: the
   * buffer itself when it is one (a transferred one), else a resizable
   * copy, which replaces it in bufs for the next reference. */
  function resizable(bufs, id, max) {
    const b = bufs[id];
    if (abResizable(b)) return b;
    const r = new ABC(abByteLength(b), { __proto__: null, maxByteLength: max });
    u8set(new U8C(r), new U8C(b));
    bufs[id] = r;
    return r;
  }
  function deserializeIn(T, S, bufs, hostObjs, ds) {
    let p = 0, si = 0, sp = 0, v, root, haveRoot = false, i, t, kind, o, key;
    const objs = ds.objs, shapes = ds.shapes, shapePlain = ds.plain;
    const dO = ds.O, dK = ds.K, dI = ds.I, dN = ds.N, dKind = ds.Kind;
    let nobj = 0, nshape = 0;
    for (;;) {
      // where the next value goes
      if (haveRoot) {
        for (;;) {
          if (sp === 0) { ds.nobj = nobj; ds.nshape = nshape; return root; }
          t = sp - 1; i = dI[t];
          if (i < dN[t]) break;
          sp = t;
          o = dO[t];
          if (dKind[t] === F_DENSE && o.length !== dN[t]) o.length = dN[t];
          dO[t] = null; dK[t] = null;
        }
        kind = dKind[t]; o = dO[t];
        if (kind === F_DENSE) { if (T[p] === T_HOLE) { p++; dI[t] = i + 1; continue; } }
        else if (kind === F_SPARSE) key = T[p++];
        else if (kind === F_KEYED) key = dK[t] === null ? S[si++] : dK[t][i];
      }
      switch (T[p++]) {
        case T_UNDEF: v = undefined; break;
        case T_NULL: v = null; break;
        case T_FALSE: v = false; break;
        case T_TRUE: v = true; break;
        case T_NUM: v = T[p++]; break;
        case T_STR: v = S[si++]; break;
        case T_BIGINT: v = BigIntC(S[si++]); break;
        case T_REF: v = objs[T[p++]]; break;
        case T_OBJ: {
          const sid = T[p++];
          let ks;
          if (sid === nshape) {
            nshape++;
            const kn = T[p++];
            ks = [];
            for (let j = 0; j < kn; j++) ks[j] = S[si++];
            shapes[sid] = ks; shapePlain[sid] = plainKeys(ks);
          } else ks = shapes[sid];
          v = {}; objs[nobj++] = v;
          if (ks.length > 0) { dO[sp] = v; dK[sp] = ks; dI[sp] = 0; dN[sp] = ks.length; dKind[sp] = shapePlain[sid] ? F_OBJ : F_KEYED; sp++; }
          break;
        }
        case T_ARR: {
          const len = T[p], dense = T[p + 1] === 0, nx = T[p + 2], e = T[p + 3];
          p += 4;
          v = []; objs[nobj++] = v;
          if (nx > 0) { dO[sp] = v; dK[sp] = null; dI[sp] = 0; dN[sp] = nx; dKind[sp] = F_KEYED; sp++; }
          if (dense) { if (len > 0) { dO[sp] = v; dK[sp] = null; dI[sp] = 0; dN[sp] = len; dKind[sp] = F_DENSE; sp++; } }
          else {
            v.length = len;
            if (e > 0) { dO[sp] = v; dK[sp] = null; dI[sp] = 0; dN[sp] = e; dKind[sp] = F_SPARSE; sp++; }
          }
          break;
        }
        case T_DATE: v = new DateC(T[p++]); objs[nobj++] = v; break;
        case T_REGEXP: v = new RegExpC(S[si], S[si + 1]); si += 2; objs[nobj++] = v; break;
        case T_BOOLO: v = ObjectC(T[p++] === 1); objs[nobj++] = v; break;
        case T_NUMO: v = ObjectC(T[p++]); objs[nobj++] = v; break;
        case T_STRO: v = ObjectC(S[si++]); objs[nobj++] = v; break;
        case T_BIGO: v = ObjectC(BigIntC(S[si++])); objs[nobj++] = v; break;
        case T_MAP: {
          const cnt = T[p++];
          v = new MapC(); objs[nobj++] = v;
          if (cnt > 0) { dO[sp] = v; dK[sp] = [undefined]; dI[sp] = 0; dN[sp] = 2 * cnt; dKind[sp] = F_LIST; sp++; }
          break;
        }
        case T_SET: {
          const cnt = T[p++];
          v = new SetC(); objs[nobj++] = v;
          if (cnt > 0) { dO[sp] = v; dK[sp] = null; dI[sp] = 0; dN[sp] = cnt; dKind[sp] = F_LIST; sp++; }
          break;
        }
        case T_AB: v = bufs[T[p++]]; break;
        case T_RAB: v = resizable(bufs, T[p], T[p + 1]); p += 2; break;
        case T_VIEW: {
          const vk = T[p], b = bufs[T[p + 1]], off = T[p + 2], len = T[p + 3];
          p += 4;
          v = new VIEWS[vk](b, off, len); objs[nobj++] = v;
          break;
        }
        case T_RVIEW: {
          const vk = T[p], b = resizable(bufs, T[p + 1], T[p + 4]), off = T[p + 2], len = T[p + 3];
          p += 5;
          // (a tracking view: made without a length)
          v = vk >= VIEW_TRACKS ? new VIEWS[vk - VIEW_TRACKS](b, off) : new VIEWS[vk](b, off, len);
          objs[nobj++] = v;
          break;
        }
        case T_ERROR: {
          const code = T[p], fl = T[p + 1];
          p += 2;
          const C = ERRORS[code];
          v = (fl & 1) ? new C(S[si++]) : new C();
          if (fl & 2) defineProp(v, 'stack', { __proto__: null, value: S[si++], writable: true, configurable: true, enumerable: false });
          objs[nobj++] = v;
          if (fl & 4) { dO[sp] = v; dK[sp] = null; dI[sp] = 0; dN[sp] = 1; dKind[sp] = F_DENSE + 100; sp++; }
          break;
        }
        case T_HOST: v = hostObjs[T[p++]]; break;
        default: throw new TypeErr('corrupt clone data at token ' + (p - 1));
      }
      if (!haveRoot) { root = v; haveRoot = true; continue; }
      dI[t] = i + 1;
      switch (kind) {
        case F_OBJ: putAt(o, dK[t][i], v, i); break;
        case F_DENSE: o[i] = v; break;
        case F_SPARSE: o[key] = v; break;
        case F_KEYED: define(o, key, v); break;
        case F_LIST:
          if (dK[t] === null) setAdd(o, v);
          else if ((i & 1) === 0) dK[t][0] = v;
          else { mapSet(o, dK[t][0], v); dK[t][0] = undefined; }
          break;
        default: defineProp(o, 'cause', { __proto__: null, value: v, writable: true, configurable: true, enumerable: false });
      }
    }
  }

  /* ---- transfer lists ---- */
  const NOARGS = [], NONE = [];
  /* The transfer list (undefined: none; else an iterable of objects) as
   * [array buffers, other objects]; TypeError for what is not a sequence
   * of objects, DataCloneError for duplicates and detached buffers. */
  function prepTransfer(transfer) {
    const abs = [], hosts = [];
    if (transfer === undefined) return [abs, hosts];
    if ((typeof transfer !== 'object' && typeof transfer !== 'function') || transfer === null)
      throw new TypeErr('The transfer list must be an iterable of objects.');
    const itf = transfer[iterSym];
    if (typeof itf !== 'function') throw new TypeErr('The transfer list is not iterable.');
    const it = applyF(itf, transfer, NOARGS);
    if ((typeof it !== 'object' && typeof it !== 'function') || it === null)
      throw new TypeErr('The transfer list\'s iterator is not an object.');
    const next = it.next, seen = new SafeSet();
    for (let idx = 0; ; idx++) {
      const r = applyF(next, it, NOARGS);
      if ((typeof r !== 'object' && typeof r !== 'function') || r === null)
        throw new TypeErr('The transfer list\'s iterator result is not an object.');
      if (r.done) break;
      const x = r.value;
      if ((typeof x !== 'object' && typeof x !== 'function') || x === null)
        throw new TypeErr('Value at index ' + idx + ' of the transfer list is not an object.');
      if (seen.has(x))
        throw new DOMException(describe(x) + ' at index ' + idx + ' is a duplicate of an earlier entry of the transfer list.', 'DataCloneError');
      seen.add(x);
      if (brand(abByteLength, x)) {
        if (abDetached(x)) throw new DOMException('ArrayBuffer at index ' + idx + ' is already detached.', 'DataCloneError');
        abs[abs.length] = x;
      } else hosts[hosts.length] = x;
    }
    return [abs, hosts];
  }
  function notTransferable(x) {
    return new DOMException(describe(x) + ' could not be transferred.', 'DataCloneError');
  }
  /* A fixed-length copy of buffer b's bytes. (ArrayBuffer.prototype.slice
   * would ask b's constructor for its species: a script's code, and a
   * TypeError when that is no ArrayBuffer constructor, as for a buffer
   * whose prototype is Array.prototype. The web's serializer copies the
   * bytes.) */
  function copyBuffer(b) {
    const n = abByteLength(b), c = new ABC(n);
    if (n !== 0) u8set(new U8C(c), new U8C(b, 0, n));
    return c;
  }
  function checkBuffers(bufs) {
    for (let i = 0; i < bufs.length; i++)
      if (abDetached(bufs[i])) throw cloneError('An ArrayBuffer is detached and');
  }

  function structuredClone(value, options) {
    if (arguments.length === 0)
      throw new TypeErr("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
    let transfer;
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object' && typeof options !== 'function')
        throw new TypeErr("Failed to execute 'structuredClone': The provided value is not of type 'StructuredSerializeOptions'.");
      transfer = options.transfer;
    }
    const pr = prepTransfer(transfer), abs = pr[0];
    if (pr[1].length > 0) return native.cloneHosts(value, abs, pr[1]);
    const r = serialize(value, abs, NONE), bufs = r.bufs, out = [];
    checkBuffers(bufs);
    for (let i = abs.length; i < bufs.length; i++) out[i] = copyBuffer(bufs[i]);
    for (let i = 0; i < abs.length; i++) out[i] = abTransfer(abs[i]);
    const res = deserialize(r.t, r.nt, r.s, out, NONE);
    giveBack(r.t);
    return res;
  }
  defineProp(globalThis, 'structuredClone', { value: structuredClone, writable: true, configurable: true });

  /* ---- the C side's steps (clone.c) ---- */
  /* Serializes for another runtime: [tokens (Float64Array: nt tokens, then
   * the length of each of the ns strings), nt, ns, the strings joined,
   * buffers]. */
  function capture(value, abs, hosts) {
    const r = tokens(value, abs, hosts);
    // C copies the tokens before it runs any JS again
    giveBack(r[0]);
    return r;
  }
  function tokens(value, abs, hosts) {
    const r = serialize(value, abs, hosts);
    const ns = r.ns, S = r.s, need = r.nt + ns;
    let T = r.t;
    checkBuffers(r.bufs);
    if (T.length < need) { const nt = new Float64ArrayC(need); f64set(nt, T); T = nt; }
    for (let i = 0; i < ns; i++) T[r.nt + i] = S[i].length;
    return [T, r.nt, ns, ns === 0 ? '' : arrayJoin(S, ''), r.bufs];
  }
  /* capture with no transfer list: the buffers' copies come at once
   * (commit's work: nothing is detached), one call from C. The result is
   * capture's, and the number of buffers. */
  function captureCopy(value) {
    const r = tokens(value, NONE, NONE), bufs = r[4];
    for (let i = 0; i < bufs.length; i++) bufs[i] = copyBuffer(bufs[i]);
    giveBack(r[0]);
    r[5] = bufs.length;
    return r;
  }
  /* The buffers' bytes for C to copy: a copy of each buffer that is not
   * transferred (C never reads a script's buffer itself: reading pins it,
   * and a pinned buffer cannot be detached later), then the transferred
   * ones moved out of their buffers, which are detached. */
  function commit(abs, bufs) {
    const src = [];
    for (let i = abs.length; i < bufs.length; i++) src[i] = copyBuffer(bufs[i]);
    for (let i = 0; i < abs.length; i++) src[i] = abTransfer(abs[i]);
    return src;
  }
  function materialize(tok, nt, ns, joined, bufs, hostObjs) {
    if (bufs === undefined) bufs = NONE;
    if (hostObjs === undefined) hostObjs = NONE;
    // (tok: a Float64Array over the clone's tokens, made by C)
    const T = tok, S = [];
    if (ns === 0) {
    } else if (substringIsIntrinsic()) {
      // (a method call on the string: a third of the time of the bound call)
      for (let i = 0, a = 0; i < ns; i++) { const b = a + T[nt + i]; S[i] = joined.substring(a, b); a = b; }
    } else {
      for (let i = 0, a = 0; i < ns; i++) { const b = a + T[nt + i]; S[i] = substring(joined, a, b); a = b; }
    }
    return deserialize(T, nt, S, bufs, hostObjs);
  }
  // (the two calls of every clone also at indexes 0 and 1: C reads them
  // without making a property name)
  internal.clone = { prepTransfer, capture, captureCopy, commit, materialize, notTransferable,
    0: captureCopy, 1: materialize };
});

// bridge_helper.js - the Java bridge's JS helper, evaluated once per runtime
// (src/jni/model/class_objects.c). Its completion value is a function that
// takes the bridge's native callbacks and the intrinsics (intrinsics.js) and
// returns the makers of class constructors, field accessors, iterators,
// catch-all Proxies, array Proxies and wrappers.
(function (isInstance, iterStart, iterNext, TOK, resolve, aget, aset, P) {
  'use strict';
  /* Every function called below is either defined here or one of the
   * intrinsics in P, read once when the bridge starts, in a fresh realm; plain
   * objects the engine reads (Proxy handlers, property descriptors) have
   * no prototype, so nothing a script adds to Object.prototype reaches
   * them. Strings are read with [] and compared with operators. */
  const defineProperty = P.defineProperty, create = P.create, protoOf = P.getPrototypeOf, ownKeys = P.keys,
        Rget = P.get, Rset = P.set, Rhas = P.has, RownKeys = P.ownKeys, Rgopd = P.getOwnPropertyDescriptor,
        Rdefine = P.defineOwn, Rdelete = P.deleteProperty, apply = P.apply, ProxyC = P.Proxy,
        ITER = P.iterator, HAS_INSTANCE = P.hasInstance, INSPECT = P.inspect, Sym = P.Symbol;
  const TypeErr = TypeError, userKeys = Object.keys, ObjectProto = protoOf({});
  const hidden = (v) => ({ __proto__: null, value: v, writable: true, enumerable: false, configurable: true });
  const shown = (v) => ({ __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
  function makeCtor(ci, name, construct, proto) {
    const C = function (a, b, c) {
      if (new.target === undefined) throw new TypeErr('Java class ' + name + ' must be called with new');
      const n = arguments.length;
      switch (n) {
      case 0: return construct(this);
      case 1: return construct(this, a);
      case 2: return construct(this, a, b);
      case 3: return construct(this, a, b, c);
      default: {
        const list = { __proto__: null, length: n + 1, 0: this };
        for (let i = 0; i < n; i++) list[i + 1] = arguments[i];
        return apply(construct, undefined, list);
      }
      }
    };
    defineProperty(C, 'name', { __proto__: null, value: name });
    defineProperty(C, HAS_INSTANCE, { __proto__: null, value: (v) => isInstance(ci, v) });
    defineProperty(C, 'prototype', { __proto__: null, value: proto, writable: false, enumerable: false, configurable: false });
    defineProperty(proto, 'constructor', hidden(C));
    return C;
  }
  function defineFields(obj, names, flags, wantStatic, cname, getters, setters) {
    for (let i = 0; i < names.length; i++) {
      const fl = flags[i], name = names[i], g = getters[i], s = setters[i];
      const isStatic = (fl & 1) !== 0, isFinal = (fl & 2) !== 0;
      if (isStatic !== wantStatic || (fl & 4) !== 0) continue;   // 4: denied by the runtime's policy
      const ro = () => { throw new TypeErr('cannot assign to final field ' + cname + '.' + name); };
      if (isStatic && isFinal) {
        defineProperty(obj, name, { __proto__: null, configurable: true, enumerable: true,
          get() { const v = g();
                  defineProperty(obj, name, { __proto__: null, value: v, writable: false, enumerable: true, configurable: false });
                  return v; },
          set: ro });
      } else {
        defineProperty(obj, name, { __proto__: null, configurable: false, enumerable: true, get: g, set: isFinal ? ro : s });
      }
    }
  }
  function iterate() {
    const it = iterStart(this);
    return { next() { const v = iterNext(it);
                      return v === TOK ? { done: true, value: undefined } : { done: false, value: v }; },
             [ITER]() { return this; } };
  }
  /* catch-all: the Proxy after a class's own members; get and has are told
   * apart, so `in` answers and a read of a missing member throws */
  const PROBES = { __proto__: null, then: true, toJSON: true, inspect: true, asymmetricMatch: true, nodeType: true,
                   length: true, prototype: true, caller: true, arguments: true,
                   toPrimitive: true, valueOf: true, toString: true, name: true };
  const isProbe = (k) => {
    if (k.length === 0) return false;
    const c = k[0];
    return c === '_' || c === '$' || c === '@' || PROBES[k] === true;
  };
  const hasParen = (k) => {
    for (let i = 0; i < k.length; i++) if (k[i] === '(') return true;
    return false;
  };
  /* console.log of a Java object: its class name and own keys, not the
   * member list Object.keys now gives */
  function inspectJava(depth, options, inspect) {
    let name = 'JavaObject';
    try { name = this.getClass().getName(); } catch (e) { /* not a live wrapper */ }
    if (typeof inspect !== 'function') return name;
    const own = {}, ks = ownKeys(this);
    for (let i = 0; i < ks.length; i++) defineProperty(own, ks[i], shown(this[ks[i]]));
    return name + ' ' + inspect(own, options);
  }
  function makeCatchall(ci, isStatic, owner, parent) {
    if (!isStatic && parent === ObjectProto)
      defineProperty(owner, INSPECT, hidden(inspectJava));
    const define = (k, v) => {
      if (v !== undefined) defineProperty(owner, k, hidden(v));
      return v;
    };
    return new ProxyC(create(parent), {
      __proto__: null,
      get(t, k, r) {
        if (typeof k === 'string') {
          if (hasParen(k)) return define(k, resolve(ci, isStatic, k, false));
          if (k === 'constructor' && !isStatic) return resolve(ci, false, k, false);
          if (!(k in t)) return !isStatic && isProbe(k) ? undefined : define(k, resolve(ci, isStatic, k, false));
        }
        return Rget(t, k, r);
      },
      has(t, k) {
        if (k in t) return true;
        if (typeof k !== 'string' || (!isStatic && !hasParen(k))) return false;
        return define(k, resolve(ci, isStatic, k, true)) !== undefined;
      },
    });
  }
  /* Object.keys of a wrapper (an object whose prototype has the bridge's
   * mark as its own TOK; every class prototype has an own TOK, undefined
   * until its class's first object wrapper is made) also lists its class's public members, which
   * live on the prototype; other values get what Object.keys gave before */
  const keys = { keys(o) {
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null) return userKeys(o);
    const p = protoOf(o), d = p === null ? undefined : Rgopd(p, TOK);
    if (d === undefined || typeof d.value !== 'object' || d.value === null) return userKeys(o);
    const r = ownKeys(o), out = [];
    let n = 0;
    const seen = { __proto__: null };
    for (let i = 0; i < r.length; i++) { seen[r[i]] = true; defineProperty(out, n++, shown(r[i])); }
    if (p === null) return out;
    const m = ownKeys(p);
    for (let i = 0; i < m.length; i++) if (seen[m[i]] !== true) defineProperty(out, n++, shown(m[i]));
    return out;
  } }.keys;
  defineProperty(Object, 'keys', hidden(keys));
  /* Java arrays: a Proxy over a plain target holding the length, the
   * entry's code and the finalizing token; indexes reach aget / aset */
  const CODE = Sym('code'), ATOK = Sym('token');
  function index(k) {
    const n = k.length;
    if (n === 0 || n > 10) return -1;
    const i = +k;
    /* a canonical array index: its own decimal form, integral, in range */
    return i >= 0 && i <= 4294967294 && i % 1 === 0 && '' + i === k ? i : -1;
  }
  const MAX_KEYS = 1000000;
  const arrayHandler = {
    __proto__: null,
    get(t, k, r) {
      if (typeof k === 'string') {
        if (k === 'length') return t.length;
        const i = index(k);
        if (i >= 0) return aget(t[CODE], i);
      }
      return Rget(t, k, r);
    },
    set(t, k, v, r) {
      if (typeof k === 'string') {
        const i = k === 'length' ? -1 : index(k);
        if (i >= 0 || k === 'length') { aset(t[CODE], i, v); return true; }
      }
      return Rset(t, k, v, r);
    },
    has(t, k) {
      if (typeof k === 'string') {
        if (k === 'length') return true;
        const i = index(k);
        if (i >= 0) return i < t.length;
      }
      return k !== CODE && k !== ATOK && Rhas(t, k);
    },
    ownKeys(t) {
      /* an array-like without a prototype: the engine reads it by index */
      const len = t.length, n = len < MAX_KEYS ? len : MAX_KEYS, out = { __proto__: null, length: 0 };
      let o = 0;
      for (let i = 0; i < n; i++) out[o++] = '' + i;
      const own = RownKeys(t);
      for (let i = 0; i < own.length; i++) if (own[i] !== CODE && own[i] !== ATOK) out[o++] = own[i];
      out.length = o;
      return out;
    },
    getOwnPropertyDescriptor(t, k) {
      if (typeof k === 'string') {
        const i = index(k);
        if (i >= 0) return i < t.length ? { __proto__: null, value: aget(t[CODE], i), writable: true, enumerable: true, configurable: true }
                                        : undefined;
      }
      if (k === 'length') return { __proto__: null, value: t.length, writable: false, enumerable: false, configurable: true };
      return k === CODE || k === ATOK ? undefined : Rgopd(t, k);
    },
    defineProperty(t, k, d) {
      if (typeof k === 'string') {
        const i = index(k);
        if (i >= 0) {
          const vd = Rgopd(d, 'value');
          if (vd === undefined) return false;
          aset(t[CODE], i, vd.value);
          return true;
        }
        if (k === 'length') return false;
      }
      return Rdefine(t, k, d);
    },
    deleteProperty(t, k) {
      if (typeof k === 'string' && (k === 'length' || index(k) >= 0)) return false;
      return Rdelete(t, k);
    },
  };
  /* every property of the target stays configurable and writable (the
   * traps keep them from changing): JSC then returns a get trap's result
   * without checking it against the target */
  function makeArray(n, code, token) {
    const t = { length: n, [CODE]: code, [ATOK]: token };
    return new ProxyC(t, arrayHandler);
  }
  /* wrappers of Java objects are plain objects over the class prototype,
   * made in C; this marks a class prototype, once, with the bridge's mark
   * under TOK (hidden: not enumerable, not writable, not deletable; a
   * prototype a script froze stays unmarked). With fn (the function of the
   * class's functional method) it returns a new wrapper that is a
   * function calling fn with itself as `this`, without own `length` and
   * `name` (they would hide Java members), not a constructor; the caller
   * gives it its prototype. */
  function makeWrapper(proto, mark, fn) {
    if (fn === undefined) {
      Rdefine(proto, TOK, { __proto__: null, value: mark, writable: false, enumerable: false, configurable: false });
      return undefined;
    }
    const w = { __proto__: null, call() { return apply(fn, w, arguments); } }.call;
    Rdelete(w, 'length');
    Rdelete(w, 'name');
    return w;
  }
  return [makeCtor, defineFields, iterate, ITER, makeCatchall, makeArray, makeWrapper];
})

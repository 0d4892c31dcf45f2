// bridge_helper.js - the Java bridge's JS helper, evaluated once per runtime
// (src/jni/model/class_objects.c). Its completion value is a function that
// takes the bridge's native callbacks, the intrinsics (intrinsics.js) and the
// runtime's crossing counter (a Float64Array over strait_crossings()), and
// returns the makers of class constructors, field accessors, iterators,
// catch-all Proxies, array Proxies and wrappers.
(function (isInstance, iterStart, iterNext, TOK, resolve, aget, aset, P, M, awin, CROSSINGS) {
  'use strict';
  /* Every function called below is either defined here or one of the
   * intrinsics in P, read once when the bridge starts, in a fresh realm; plain
   * objects the engine reads (Proxy handlers, property descriptors) have
   * no prototype, so nothing a script adds to Object.prototype reaches
   * them. Strings are read with [] and compared with operators. */
  const defineProperty = P.defineProperty, create = P.create, protoOf = P.getPrototypeOf, ownKeys = P.keys,
        Rget = P.get, Rset = P.set, Rhas = P.has, RownKeys = P.ownKeys, Rgopd = P.getOwnPropertyDescriptor,
        Rdefine = P.defineOwn, Rdelete = P.deleteProperty, apply = P.apply, ProxyC = P.Proxy,
        ITER = P.iterator, HAS_INSTANCE = P.hasInstance, INSPECT = P.inspect, Sym = P.Symbol,
        TO_PRIMITIVE = P.toPrimitive;
  /* the natives of collections (js_callbacks.c, "members of collections") */
  const lget = M.lget, lset = M.lset, lsize = M.lsize, mget = M.mget, mput = M.mput, items = M.items, lwin = M.lwin;
  const TypeErr = TypeError, RangeErr = RangeError, userKeys = Object.keys, ObjectProto = protoOf({});
  const hidden = (v) => ({ __proto__: null, value: v, writable: true, enumerable: false, configurable: true });
  const shown = (v) => ({ __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
  /* The constructor of Java class ci. As a value it converts to
   * '[JavaClass <display>]' through its own Symbol.toPrimitive, which
   * String(), `+` and template literals ask before any toString/valueOf,
   * so a class's static toString/valueOf methods (own properties the
   * bridge adds after this) stay callable, C.toString(5), and never decide
   * how the class converts. A class without a static toString gets a
   * hidden C.toString() that gives the same string. C.class is a lazy
   * accessor: classOf(ci) wraps the java.lang.Class (refused like any
   * value when the runtime's policy refuses java.lang.Class), kept as a
   * read-only data property once read. */
  function makeCtor(ci, name, construct, proto, display, hasToString, classOf) {
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
    const text = '[JavaClass ' + display + ']';
    const convert = { [TO_PRIMITIVE]() { return text; } }[TO_PRIMITIVE];
    defineProperty(C, TO_PRIMITIVE, { __proto__: null, value: convert });
    if (hasToString !== true) defineProperty(C, 'toString', hidden({ toString() { return text; } }.toString));
    defineProperty(C, 'class', { __proto__: null, configurable: true, enumerable: false,
      get() {
        const k = classOf(ci);
        defineProperty(C, 'class', { __proto__: null, value: k, writable: false, enumerable: false, configurable: false });
        return k;
      } });
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
  /* for...of over a Java Iterable, Map or Iterator, as Java's own loop
   * sees it (call/iteration.c). Elements of a JDK collection whose
   * iteration runs no other code (kind TRACK) cross in batches of 8, 32,
   * 128, then 512, so a loop that breaks early takes few; H[slot] counts
   * the elements handed out. Once the crossing counter moved (a Java call,
   * anything but this JS), the release hook has put the Java iterator back
   * after them: the rest of the batch is dropped and the loop reads on from
   * there, one element at a time, growing again for a List (REWIND: it
   * steps back each time), never again for another collection, whose
   * iterator could not be put back twice. A snapshot (a Java array, a
   * CopyOnWriteArrayList) is read in batches; anything else (ONE: the
   * iterators of java.util.concurrent, classes outside the JDK, an Iterator
   * the script holds) one element per crossing. A Map gives [key, value]
   * pairs (PAIRS). An exception of the iterator after the first element of
   * a batch comes as the batch's last two slots (the error, then TOK) and
   * is thrown after the elements before it. */
  const BATCH_FIRST = 8, BATCH_MAX = 512;
  const K_PAIRS = 1, K_ONE = 2, K_TRACK = 4, K_REWIND = 8;
  function iterate() {
    let it, kind = 0, slot = -1, H, buf = null, n = 0, i = 0, handed = 0, ep = 0, size = 1,
        end = false, failed = false, err, over = false, track = false, grow = true;
    const one = [undefined];
    /* the loop is over: its slot is free (no crossing: the native side
     * frees it at its next look) */
    const finish = () => {
      over = true;
      if (track) { track = false; H[slot] = -1; }
    };
    const next = () => {
      if (track && CROSSINGS[0] !== ep) {
        /* other code may have run: the iterator is back after `handed`;
         * batches grow again only while no other code runs between them */
        if (i < n) n = i;
        end = false;
        size = 0;
        if ((kind & K_REWIND) === 0) grow = false;
        ep = CROSSINGS[0];
      }
      if (i === n) {
        if (failed) { failed = false; const x = err; err = undefined; finish(); throw x; }
        if (end || over) { finish(); return { done: true, value: undefined }; }
        const want = size === 0 ? 1 : size, pairs = (kind & K_PAIRS) !== 0;
        let r;
        try {
          r = iterNext(it, want, pairs, slot);
        } catch (e) {
          finish();
          throw e;
        }
        ep = CROSSINGS[0];
        i = 0;
        if (want === 1) {
          /* one element (a pair), itself, or TOK at the end */
          if (r === TOK) { n = 0; end = true; }
          else { one[0] = r; buf = one; n = 1; }
        } else {
          buf = r;
          n = buf.length;
          if (n >= 2 && buf[n - 1] === TOK) { err = buf[n - 2]; n -= 2; failed = true; }
          else if (n < want) end = true;
        }
        /* 0: one element read after other code ran; the next read, if no
         * other code runs until then, starts the batches again */
        if (grow) size = size === 0 ? 1 : size === 1 ? BATCH_FIRST : size < BATCH_MAX ? size * 4 : size;
        if (n === 0) return next();
      }
      if (track) H[slot] = ++handed;
      return { done: false, value: buf[i++] };
    };
    const loop = { next, return(v) { finish(); return { done: true, value: v }; }, [ITER]() { return this; } };
    const st = iterStart(this, loop);
    it = st[0]; kind = st[1]; slot = st[2]; H = st[3];
    track = (kind & K_TRACK) !== 0;
    if (kind & K_ONE) grow = false;
    else size = BATCH_FIRST;
    ep = CROSSINGS[0];
    return loop;
  }
  /* catch-all: the Proxy after a class's own members; get and has are told
   * apart, so `in` answers truthfully and a read of a missing member gives
   * undefined (a call of it then throws JS's own TypeError) */
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
  /* kinds of a class's instances (attach_catchall in class_objects.c) */
  const K_LIST = 1, K_MAP = 2, K_COLL = 4, K_ARRAY = 8, K_BUFFER = 16, K_WINDOWED = 32;
  const MAX_MISSING = 1024;       /* names remembered as missing, per class */
  const LOWER = 'abcdefghijklmnopqrstuvwxyz', UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', CAP = { __proto__: null };
  for (let i = 0; i < 26; i++) CAP[LOWER[i]] = UPPER[i];
  /* "name" -> "Name" (for messages; no String.prototype method) */
  const upper = (k) => {
    const c = CAP[k[0]];
    if (c === undefined) return k;
    let r = c;
    for (let i = 1; i < k.length; i++) r += k[i];
    return r;
  };
  /* JSON of a Java List, Collection, Map or array: the plain JS arrays and
   * objects of the whole tree of collections under it, made in one
   * crossing (items(v, true), js_callbacks.c json_tree; Bridge.jsonTree
   * says what becomes what). Depth-bounded there (256 levels, a
   * RangeError), a collection inside itself a TypeError (JSON.stringify's
   * own walk cannot see the cycle, as every toJSON makes a new array).
   * Other Java objects inside are their wrappers, which JSON.stringify
   * then renders as any Java object (their own toJSON, or {}). Under
   * EXPLICIT nothing is read: the object itself. */
  function toJSON() {
    const t = items(this, true);
    return t === undefined ? this : t;
  }
  /* console.log of a Java object: its class name and own keys, not the
   * member list Object.keys now gives; a List, Collection or array shows
   * its elements as an array, a Map its entries as an object
   * ("java.util.ArrayList(2) [ 1, 2 ]"); `inspecting` (this runtime's)
   * shows a collection inside itself as [Circular] */
  const inspecting = { __proto__: null, n: 0 };
  function inspectJava(depth, options, inspect) {
    let it;
    try { it = items(this); } catch (e) { it = undefined; }
    let name = 'JavaObject';
    if (it !== undefined) name = it[1];
    else try { name = this.getClass().getName(); } catch (e) { /* not a live wrapper */ }
    if (typeof inspect !== 'function') return name;
    if (it === undefined) {
      const own = {}, ks = ownKeys(this);
      for (let i = 0; i < ks.length; i++) defineProperty(own, ks[i], shown(this[ks[i]]));
      return name + ' ' + inspect(own, options);
    }
    for (let i = 0; i < inspecting.n; i++) if (inspecting[i] === this) return '[Circular ' + name + ']';
    const map = it[0] === 2, size = it[2].length;
    if (depth !== null && depth < 0) return '[' + name + '(' + size + ')]';
    let shownv = it[2];
    if (map) {
      shownv = {};
      const ks = it[2], vs = it[3];
      for (let i = 0; i < size; i++) defineProperty(shownv, ks[i], shown(vs[i]));
    }
    if (typeof options === 'object' && options !== null) defineProperty(options, 'depth', shown(depth));
    const d = inspecting.n;
    inspecting[d] = this;
    inspecting.n = d + 1;
    try { return name + '(' + size + ') ' + inspect(shownv, options); }
    finally { inspecting.n = d; inspecting[d] = undefined; }
  }
  /* new ArrayBuffer(buffer), +buffer: a Buffer is not a number; its
   * string form stays its toString() */
  function bufferPrimitive(hint) {
    if (hint === 'number') {
      let name = 'a java.nio.Buffer';
      try { name = this.getClass().getName(); } catch (e) { /* not a live wrapper */ }
      throw new TypeErr(name + ' (a java.nio.Buffer) cannot be used as a number or length, so new ArrayBuffer(buffer) ' +
                        'cannot copy it: copy its bytes into a Java byte[] with buffer.get(bytes) (or use ' +
                        'buffer.array() of a heap buffer) and pass that to new Int8Array(bytes)');
    }
    return apply(this.toString, this, { __proto__: null, length: 0 });
  }
  /* makeCatchall(ci, isStatic, owner, parent, kind, cname): owner's
   * catch-all. What it resolves is defined on owner (the class's
   * prototype or constructor), so later reads are inline-cached; a miss is
   * remembered (instance side, up to MAX_MISSING names; class members
   * never change) but never defined. Instance side: explicit signatures,
   * `constructor`, static members through an instance, bean properties
   * (getX/isX/setX), List elements and `length`, Map entries (keys not
   * members). Static side: explicit signatures, nested classes, static
   * bean properties. Assigning a name none of these answers is a
   * TypeError naming class and property. */
  function makeCatchall(ci, isStatic, owner, parent, kind, cname) {
    if (!isStatic && parent === ObjectProto)
      defineProperty(owner, INSPECT, hidden(inspectJava));
    kind = isStatic ? 0 : kind | 0;
    const isList = (kind & K_LIST) !== 0, isMap = (kind & K_MAP) !== 0, windowed = (kind & K_WINDOWED) !== 0;
    const hasOwn = (k) => Rgopd(owner, k) !== undefined;
    /* r is a list of this very class: only such a receiver reads a window
     * (get.call(otherList), Reflect.get(proto, 0, otherList) go to the
     * call, which tells the receiver is not one) */
    const mine = (r) => typeof r === 'object' && r !== null && protoOf(r) === owner;
    if ((kind & (K_LIST | K_MAP | K_COLL | K_ARRAY)) !== 0 && !hasOwn('toJSON'))
      defineProperty(owner, 'toJSON', hidden(toJSON));
    if ((kind & K_BUFFER) !== 0 && !hasOwn(TO_PRIMITIVE))
      defineProperty(owner, TO_PRIMITIVE, hidden(bufferPrimitive));
    if (isList && !hasOwn('length'))
      defineProperty(owner, 'length', { __proto__: null, configurable: true, enumerable: false,
        get() {
          if (windowed && mine(this)) {
            const n = listSize(this);
            if (n >= 0) return n;
          }
          return lsize(ci, this);
        },
        set(v) { throw new TypeErr('cannot assign to the length of ' + cname + '; use add, remove or clear'); } });
    if (windowed) {
      /* get and size (own already: the class's methods come first) read
       * from the list's window first */
      for (const [k, wrap] of [['get', windowedGet], ['size', windowedSize]]) {
        const d = Rgopd(owner, k);
        if (d !== undefined && typeof d.value === 'function')
          defineProperty(owner, k, { __proto__: null, value: wrap(d.value, mine), writable: d.writable,
                                     enumerable: d.enumerable, configurable: d.configurable });
      }
    }
    const missing = { __proto__: null };
    let nmissing = 0;
    const miss = (k) => {
      if (!isStatic && nmissing < MAX_MISSING) { missing[k] = true; nmissing++; }
      return undefined;
    };
    /* defines what resolve answered on owner; true when it did */
    const install = (k, v) => {
      if (typeof v === 'function') { defineProperty(owner, k, hidden(v)); return true; }
      if (typeof v === 'object' && v !== null) {                 /* a bean: [getter, setter, getter's name] */
        const g = v[0], s = v[1], gname = v[2];
        defineProperty(owner, k, { __proto__: null, configurable: true, enumerable: false, get: g,
          set: s !== undefined ? s : function (x) {
            throw new TypeErr('cannot assign to read-only bean property ' + cname + '.' + k + ' (it has ' + gname +
                              ' and no set' + upper(k) + ')');
          } });
        return true;
      }
      if (v === 1) {                                             /* a static field read through an instance */
        const C = resolve(ci, false, 'constructor', true);
        if (typeof C !== 'function') return false;
        defineProperty(owner, k, { __proto__: null, configurable: true, enumerable: false,
          get() { return C[k]; },
          set(x) {
            const d = Rgopd(C, k);     /* a static final, read once, is a read-only data property */
            if (d !== undefined && d.writable === false) throw new TypeErr('cannot assign to final field ' + cname + '.' + k);
            C[k] = x;
          } });
        return true;
      }
      return false;
    };
    const lookup = (k, quiet) => {
      if (missing[k] === true) return false;
      if (install(k, resolve(ci, isStatic, k, quiet, isMap))) return true;
      miss(k);
      return false;
    };
    /* `valueOf` of an instance whose class has a static valueOf (BigDecimal,
     * enums): called with arguments, the static method, as Java allows;
     * without, Object.prototype.valueOf (JS's ToPrimitive calls it so) */
    const valueOf = (r) => {
      const f = resolve(ci, false, 'valueOf', true);
      if (typeof f !== 'function') { miss('valueOf'); return Rget(ObjectProto, 'valueOf', r); }
      const jsValueOf = Rget(ObjectProto, 'valueOf', r);
      defineProperty(owner, 'valueOf', hidden(function valueOf() {
        return arguments.length === 0 ? apply(jsValueOf, this, arguments) : apply(f, this, arguments);
      }));
      return Rget(owner, 'valueOf', r);
    };
    return new ProxyC(create(parent), {
      __proto__: null,
      get(t, k, r) {
        if (typeof k === 'string') {
          /* a List's elements first: an index names no member */
          if (isList) {
            const i = index(k);
            if (i >= 0) {
              if (!windowed || !mine(r)) return lget(ci, r, i);
              const x = listAt(r, i);
              if (x !== NOPE) return x;
              const y = lget(ci, r, i);
              listMark(r, i);
              return y;
            }
          }
          if (hasParen(k)) return install(k, resolve(ci, isStatic, k, false)) ? Rget(owner, k, r) : undefined;
          if (k === 'constructor' && !isStatic) return resolve(ci, false, k, false);
          if (k === 'valueOf' && !isStatic && missing[k] !== true) return valueOf(r);
          if (!(k in t)) {
            if (lookup(k, false)) return Rget(owner, k, r);
            return isMap ? mget(ci, r, k) : undefined;
          }
        }
        return Rget(t, k, r);
      },
      has(t, k) {
        if (k in t) return true;
        if (typeof k !== 'string') return false;
        /* a prototype's trap is not told the receiver: every index answers
         * for a List, and Map keys are entries, not properties */
        if (isList && index(k) >= 0) return true;
        return lookup(k, true);
      },
      set(t, k, v, r) {
        if (typeof k !== 'string') return Rset(t, k, v, r);
        /* a List's elements first (a superclass's catch-all answers `in`
         * for every index), also of an instance of a JS class extending it
         * (a wrapper of this class too: isInstance asks the bridge) */
        if (isList) {
          const i = index(k);
          if (i >= 0 && (protoOf(r) === owner || isInstance(ci, r))) {
            lset(ci, r, i, v);
            return true;
          }
        }
        if ((isStatic ? r !== owner : protoOf(r) !== owner) || k in t) return Rset(t, k, v, r);
        if (hasParen(k) || lookup(k, true)) return Rset(owner, k, v, r);
        if (isMap) { mput(ci, r, k, v); return true; }
        throw new TypeErr('cannot set ' + (isStatic ? 'static property ' : 'property ') + k + ' of ' + cname +
                          ': it has no public ' + (isStatic ? 'static ' : '') + 'field ' + k + ' and no ' +
                          (isStatic ? 'static ' : '') + 'setter set' + upper(k));
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
   * entry's code, the finalizing token and a window; indexes reach aget /
   * aset / awin */
  const CODE = Sym('code'), ATOK = Sym('token'), WIN = Sym('window');
  const hiddenKey = (k) => k === CODE || k === ATOK || k === WIN;
  function index(k) {
    const n = k.length;
    if (n === 0 || n > 10) return -1;
    const i = +k;
    /* a canonical array index: its own decimal form, integral, in range */
    return i >= 0 && i <= 4294967294 && i % 1 === 0 && '' + i === k ? i : -1;
  }
  /* The window: elements lo .. hi-1 read in one crossing (awin) while the
   * runtime's crossing counter was ep. JS alone cannot change a Java array
   * but through aset, which empties its slot (undefined: no element
   * converts to it); anything else that can (Java code on this or another
   * thread) runs only where the counter moves: a Java call returns, a
   * thread enters, a task or timer starts. So a read inside the window in
   * the same count is the element a read through aget would give. Windows
   * open only on sequential reads and grow 4x while a window is read to its
   * end within one count (up to WMAX, the size of a batch); a read
   * elsewhere goes back to single reads, and a window a crossing cut short
   * before half of it was read shrinks: a loop that calls Java between two
   * reads reads one element per crossing, as without windows. */
  const WMAX = 512;
  /* an array of at most WSMALL elements is read whole when a window opens
   * (sizes 4 and up, not the single window a crossing leaves): a small
   * table read over and over (a[i & 7], a lookup by key) then costs one
   * crossing per count instead of one per wrap-around */
  const WSMALL = 64;
  function readAt(t, w, i) {
    if (w.ep === CROSSINGS[0] && i < w.hi && i >= w.lo) {
      const x = w.v[i - w.lo];
      return x !== undefined ? x : (w.v[i - w.lo] = aget(t[CODE], i));
    }
    return fill(t, w, i);
  }
  /* the size of the next window of w for a read at i in count ep; 0: a
   * single read */
  function nextSize(w, i, ep) {
    const size = w.size;
    if (w.ep === ep) return i !== w.hi ? 0 : size === 0 ? 4 : size >= WMAX / 4 ? WMAX : size * 4;
    if (i < w.lo || i > w.hi) return 0;
    return i - w.lo < (size >> 1) ? size >> 2 : size;
  }
  function fill(t, w, i) {
    const ep = CROSSINGS[0], len = t.length;
    let size = nextSize(w, i, ep);
    w.ep = ep;
    if (size > 0 && i < len) {
      const whole = size >= 4 && len <= WSMALL;
      const lo = whole ? 0 : i, n = whole ? len : i + size <= len ? size : len - i;
      const v = awin(t[CODE], lo, n);
      if (v !== undefined) {
        w.size = size; w.v = v; w.lo = lo; w.hi = lo + n;
        return v[i - lo];
      }
      size = 0;
    }
    w.size = size; w.v = null; w.lo = i + 1; w.hi = i + 1;
    return aget(t[CODE], i);
  }
  function writeAt(t, w, i, v) {
    aset(t[CODE], i, v);
    if (i < w.hi && i >= w.lo) w.v[i - w.lo] = undefined;
  }
  /* JDK lists read in windows (lwin: java.util.ArrayList, Arrays.asList's
   * and List.of's lists; class kind K_WINDOWED): as Java arrays, with the
   * window of list r in LWIN (r -> window), which also holds its size.
   * get(i), size(), r[i] and r.length read from it while the crossing
   * counter keeps its value; every change of such a list is a call on it
   * (set, add, remove, a Java method given the list), which moves the
   * counter. lwin reads without a crossing, so a loop's size() and get(i)
   * keep the window; a single read is the method call itself (listMark
   * then notes where the next read in a row would be). */
  const LWIN = new P.SafeWeakMap(), NOPE = { __proto__: null };
  /* element i of list r from its window, or NOPE: make the call */
  function listAt(r, i) {
    if (typeof r !== 'object' || r === null || !(i >= 0 && i <= 2147483647) || i % 1 !== 0) return NOPE;
    const w = LWIN.get(r), ep = CROSSINGS[0];
    if (w !== undefined && w.ep === ep && i < w.hi && i >= w.lo) return w.v[i - w.lo];
    return listFill(r, w, i, ep);
  }
  /* r's window, made empty (no count is negative) on its first use */
  function windowOf(r) {
    let w = LWIN.get(r);
    if (w === undefined) {
      w = { __proto__: null, ep: -1, lo: 0, hi: 0, size: 0, v: null, n: -1 };
      LWIN.set(r, w);
    }
    return w;
  }
  function listFill(r, w, i, ep) {
    if (w === undefined) w = windowOf(r);
    const size = nextSize(w, i, ep);
    w.size = size;
    if (size === 0) return NOPE;
    const v = lwin(r, i, size);
    if (v === undefined) { w.size = 0; return NOPE; }
    const k = v.length - 1;
    w.ep = ep; w.v = v; w.lo = i; w.hi = i + k; w.n = v[k];
    return k > 0 ? v[0] : NOPE;      /* i at or past the end: the call throws */
  }
  /* after a single read of r at i (a call, which moved the counter) */
  function listMark(r, i) {
    const w = typeof r === 'object' && r !== null ? LWIN.get(r) : undefined;
    if (w !== undefined) { w.ep = CROSSINGS[0]; w.lo = w.hi = i + 1; w.v = null; w.n = -1; }
  }
  /* r.size() from its window, or -1: make the call */
  function listSize(r) {
    if (typeof r !== 'object' || r === null) return -1;
    const w = LWIN.get(r), ep = CROSSINGS[0];
    if (w !== undefined && w.ep === ep && w.n >= 0) return w.n;
    const v = lwin(r, 0, 0);
    if (v === undefined) return -1;
    const ww = w !== undefined ? w : windowOf(r);
    if (ww.ep !== ep) {
      ww.ep = ep; ww.lo = ww.hi; ww.v = null;   /* its elements are stale; where the next run starts is not */
    }
    return (ww.n = v[0]);
  }
  /* the get and size of a windowed list class, over their method
   * functions; mine(r): r is a list of that class (any other receiver goes
   * to the call, which tells it is not one) */
  function windowedGet(nget, mine) {
    return function get(i) {
      if (arguments.length === 1 && typeof i === 'number' && mine(this)) {
        const x = listAt(this, i);
        if (x !== NOPE) return x;
        const y = apply(nget, this, arguments);
        listMark(this, i);
        return y;
      }
      return apply(nget, this, arguments);
    };
  }
  function windowedSize(nsize, mine) {
    return function size() {
      if (arguments.length === 0 && mine(this)) {
        const n = listSize(this);
        if (n >= 0) return n;
      }
      return apply(nsize, this, arguments);
    };
  }
  const MAX_KEYS = 1000000;
  const arrayHandler = {
    __proto__: null,
    get(t, k, r) {
      if (typeof k === 'string') {
        /* the index after the last one read, tried first: a loop's next
         * key is its string (JSC hands out the same cached string), which
         * costs a third of parsing the key */
        if (k === 'length') return t.length;
        const w = t[WIN];
        let i = w.next;
        if ('' + i !== k) {
          i = index(k);
          if (i < 0) return Rget(t, k, r);
        }
        w.next = i < 4294967294 ? i + 1 : 0;   /* never the name past the largest index */
        return readAt(t, w, i);
      }
      return Rget(t, k, r);
    },
    set(t, k, v, r) {
      if (typeof k === 'string') {
        const w = t[WIN];
        let i = w.next;               /* as in get */
        if ('' + i !== k) {
          if (k === 'length') { aset(t[CODE], -1, v); return true; }
          i = index(k);
          if (i < 0) return Rset(t, k, v, r);
        }
        w.next = i < 4294967294 ? i + 1 : 0;
        writeAt(t, w, i, v);
        return true;
      }
      return Rset(t, k, v, r);
    },
    has(t, k) {
      if (typeof k === 'string') {
        if (k === 'length') return true;
        const i = index(k);
        if (i >= 0) return i < t.length;
      }
      return !hiddenKey(k) && Rhas(t, k);
    },
    ownKeys(t) {
      /* an array-like without a prototype: the engine reads it by index */
      const len = t.length, out = { __proto__: null, length: 0 };
      /* past MAX_KEYS a list of keys (one string each) would take more
       * memory than the array itself: say so rather than list part of it */
      if (len > MAX_KEYS) {
        throw new RangeErr('cannot list the keys of a Java array of ' + len + ' elements (more than ' + MAX_KEYS +
                           '): read it by index, with for...of, or copy it with Java.from');
      }
      let o = 0;
      for (let i = 0; i < len; i++) out[o++] = '' + i;
      const own = RownKeys(t);
      for (let i = 0; i < own.length; i++) if (!hiddenKey(own[i])) out[o++] = own[i];
      out.length = o;
      return out;
    },
    getOwnPropertyDescriptor(t, k) {
      if (typeof k === 'string') {
        const i = index(k);
        if (i >= 0) return i < t.length ? { __proto__: null, value: readAt(t, t[WIN], i), writable: true, enumerable: true, configurable: true }
                                        : undefined;
      }
      if (k === 'length') return { __proto__: null, value: t.length, writable: false, enumerable: false, configurable: true };
      return hiddenKey(k) ? undefined : Rgopd(t, k);
    },
    defineProperty(t, k, d) {
      if (typeof k === 'string') {
        const i = index(k);
        if (i >= 0) {
          const vd = Rgopd(d, 'value');
          if (vd === undefined) return false;
          writeAt(t, t[WIN], i, vd.value);
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
    /* a Java array takes writes for as long as it lives: it cannot be made
     * non-extensible, sealed or frozen (a non-extensible target would also
     * break the other traps' answers against the engine's invariants) */
    preventExtensions(t) {
      throw new TypeErr('cannot prevent extensions of a Java array (it stays writable): copy it with Java.from first');
    },
  };
  /* every property of the target stays configurable and writable (the
   * traps keep them from changing): JSC then returns a get trap's result
   * without checking it against the target */
  function makeArray(n, code, token) {
    const t = { length: n, [CODE]: code, [ATOK]: token,
                [WIN]: { __proto__: null, ep: 0, lo: 0, hi: 0, size: 0, v: null, next: 0 } };
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

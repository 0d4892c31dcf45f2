// codec.js - the JS side of the binary value format (docs/value-format.md),
// driven by codec_js.c, evaluated on the first conversion of a runtime.
// Every built-in it calls was captured by intrinsics.js when the runtime
// started, before any script (internal.intr.codec): a script that replaced
// Map.prototype.get, Array.prototype.push, DataView.prototype.getUint32,
// String.prototype.substring... changes nothing, and no replacement is ever
// called with the codec's private objects. Calls that stay method calls for
// the JIT are own methods of private subclasses (SafeDataView, CodecMap,
// SafeWeakMap) or string methods behind a guard (charCodeAt, substring:
// checked once per conversion, before the first string, and again after
// any hook, which may run JS; when replaced, C writes or makes the string).
// Private arrays have no prototype (an index setter a script put on
// Array.prototype never sees them), except the reader's list of keys and of
// composites, which grow by one store per item and which JSC appends to
// 1.6x slower without their prototype: they hold only what the conversion
// hands to the script anyway. Decoded values are ordinary objects of this
// realm (MapC, SetC, DateC: the realm's constructors).
(function (native, internal) {
'use strict';
var I = internal.intr.codec;
var OP = I.OP, getProto = I.getProto, isArray = I.isArray, isView = I.isView, fromCharCode = I.fromCharCode;
var setProto = I.setProto, defineProp = I.defineProp, floor = I.floor, BigIntC = I.BigIntC;
var bigToString = I.bigToString, TypeErr = I.TypeErr, ABC = I.ABC, U8C = I.U8C, F64C = I.F64C;
var SafeDataView = I.SafeDataView, DateC = I.DateC, MapC = I.MapC, SetC = I.SetC, SafeWeakMap = I.SafeWeakMap;
var CodecMap = I.CodecMap, ABP = I.ABP, DateP = I.DateP, MapP = I.MapP, SetP = I.SetP;
var abByteLength = I.abByteLength, taTag = I.taTag, taBuffer = I.taBuffer, taOffset = I.taOffset;
var taByteLength = I.taByteLength, taSet = I.taSet, dvBuffer = I.dvBuffer, dvOffset = I.dvOffset;
var dvLength = I.dvLength, dateGetTime = I.dateGetTime, mapForEach = I.mapForEach, setForEach = I.setForEach;
var mapSet = I.mapSet, setAdd = I.setAdd, mapSize = I.mapSize, setSize = I.setSize;
var VIEWS = I.VIEWS, VIEW_KIND = I.VIEW_KIND, charCodeAtOK = I.charCodeAtOK, substringOK = I.substringOK;
var pushOK = I.pushOK;
/* an array no script sees through a prototype */
function list() { var a = []; setProto(a, null); return a; }
/* '0'..'f' -> 0..15, 0..255 -> two hex digits (lower case) */
var HEXV = {__proto__: null}, HEX2 = list(), DIGITS = '0123456789abcdef';
for (var h0 = 0; h0 < 16; h0++) HEXV[DIGITS[h0]] = h0;
for (h0 = 0; h0 < 256; h0++) HEX2[h0] = DIGITS[h0 >> 4] + DIGITS[h0 & 15];
var LONG = 2048, CH = list();
for (var c0 = 0; c0 < 256; c0++) CH[c0] = fromCharCode(c0);
var spare = new ABC(65536), spareU8 = new U8C(spare), spareDV = new SafeDataView(spare), spareCap = 65536;
var depth = 0;
/* String.prototype.charCodeAt is the intrinsic: 0 not checked yet in this
 * conversion (or a hook ran since), 1 yes, 2 no (C writes every string) */
var ccOK = 0;
/* writer state (saved and restored around a nested encode) */
var ab, u8, dv, cap, pos, ids, ib, nc, keys, kb, nk, sObj, sKeys, sI, sN, sKind, sp, err, flags, hooks, shapes, sKx;
/* Limits (docs/value-format.md): a buffer Java can hold (a byte[] or a
 * direct ByteBuffer: 2^31-1 bytes), a List's length, and the holes of
 * sparse arrays per conversion (a hole costs JS nothing but a byte here and
 * a slot in Java, so a length the script merely set must not decide the
 * work: the holes met so far may pass the array elements met so far, seen,
 * by MAXHOLES at most). Past one, the conversion throws a RangeError naming
 * the path. */
var MAXB = 2147483647, MAXLEN = 2147483647, MAXHOLES = 1048576, RangeErr = I.RangeErr, holes = 0, seen = 0;
function tooLarge(what) { throw new RangeErr('cannot convert ' + what + ' at ' + path()); }
function grow(n) {
  if (pos + n > MAXB) tooLarge('a value of more than ' + MAXB + ' bytes');
  var c = cap * 2; while (c < pos + n) c *= 2;
  if (c > MAXB) c = MAXB;
  var nb = new ABC(c), nu = new U8C(nb);
  taSet(nu, u8); ab = nb; u8 = nu; dv = new SafeDataView(nb); cap = c;
}
/* o[i] read as undefined: counts it when it is a hole. The array elements
 * met so far are those of arrays done (seen) and of the open array frames
 * (their next index), added up only when the holes pass MAXHOLES. */
function hole(o, i) {
  if ((i in o) || ++holes <= MAXHOLES) return;
  var met = seen;
  for (var t = 0; t < sp; t++) if (sKind[t] === 10) met += sI[t];
  if (holes - MAXHOLES > met - holes)
    tooLarge('a sparse array whose holes outnumber its elements by more than ' + MAXHOLES);
}
function num(d) {
  if (pos + 9 > cap) grow(9);
  var i = d | 0;
  if (i === d && (i !== 0 || 1 / d > 0)) { u8[pos] = 4; dv.setInt32(pos + 1, i, true); pos += 5; return; }
  if (d >= -9007199254740991 && d <= 9007199254740991 && floor(d) === d && d !== 0) {
    var hi = floor(d / 4294967296), lo = d - hi * 4294967296;
    u8[pos] = 5; dv.setUint32(pos + 1, lo, true); dv.setInt32(pos + 5, hi, true); pos += 9; return;
  }
  u8[pos] = 6; dv.setFloat64(pos + 1, d, true); pos += 9;
}
function str(s) {
  var n = s.length;
  if (pos + 5 + 2 * n > cap) grow(5 + 2 * n);
  if (n > LONG || ccOK !== 1) {
    if (ccOK === 0) ccOK = charCodeAtOK() ? 1 : 2;
    if (n > LONG || ccOK === 2) { pos = native.putString(s, ab, pos); return; }
  }
  var p = pos + 5, i = 0, c;
  for (; i < n; i++) { c = s.charCodeAt(i); if (c > 255) break; u8[p + i] = c; }
  dv.setUint32(pos + 1, n, true);
  if (i === n) { u8[pos] = 8; pos = p + n; return; }
  u8[pos] = 9;
  for (i = 0; i < n; i++) dv.setUint16(p + 2 * i, s.charCodeAt(i), true);
  pos = p + 2 * n;
}
function tagU32(t, v) { if (pos + 5 > cap) grow(5); u8[pos] = t; dv.setUint32(pos + 1, v, true); pos += 5; }
function key(k) {
  var j = keys.get(k);
  if (j !== undefined && j >= kb) { tagU32(14, j - kb); return; }
  if (j === undefined) keyCount++;
  keys.set(k, kb + nk++); str(k);
}
/* Objects of one shape have the same key list (the same atom strings in
 * the same order): once every key of a list is in the key table, later
 * objects with that list reuse its indexes (all KEYREFs, as key() would
 * write) with no table lookup per key. null: write the keys with key().
 * An entry made by an earlier conversion (g < kb) is refilled in place. */
function shapeOf(ks) {
  var n = ks.length;
  if (n === 0) return null;
  var e = shapes.get(ks[0]), i, x, same = false;
  if (e !== undefined && e.ks.length === n) {
    var eks = e.ks;
    for (i = 1; i < n; i++) if (eks[i] !== ks[i]) break;
    same = i === n;
    if (same && e.g === kb) return e.idx;
  }
  var idx = same ? e.idx : list();
  for (i = 0; i < n; i++) { x = keys.get(ks[i]); if (x === undefined || x < kb) return null; idx[i] = x - kb; }
  if (same) e.g = kb; else shapes.set(ks[0], {ks: ks, idx: idx, g: kb});
  return idx;
}

function path() {
  var s = '$';
  for (var t = 0; t < sp; t++) {
    var i = sI[t] - 1, kd = sKind[t];
    if (kd === 13) {
      var k = sKeys[t][i];
      s += isIdent(k) ? '.' + k : '["' + escaped(k) + '"]';
    } else if (kd === 10) s += '[' + i + ']';
    else if (kd === 15) s += '<Map ' + (i % 2 ? 'value ' : 'key ') + ((i / 2) | 0) + '>';
    else s += '<Set ' + i + '>';
  }
  return s;
}
/* (no RegExp: its methods are a script's to replace) */
function isIdent(k) {
  var n = k.length, c;
  if (n === 0) return false;
  for (var i = 0; i < n; i++) {
    c = k[i];
    if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && c !== '_' && c !== '$' && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}
function escaped(k) {
  var s = '', c;
  for (var i = 0; i < k.length; i++) { c = k[i]; s += c === '"' || c === '\\' ? '\\' + c : c; }
  return s;
}
function cannot(what) { if (err === null) err = 'cannot convert ' + what + ' at ' + path(); }
function handle(v, what) {
  var id = (flags & 1) && hooks ? native.ref(v, 1) : -1;
  ccOK = 0;
  if (id >= 0) tagU32(22, id); else cannot(what);
}
function push(kind, o, ks, n) { sObj[sp] = o; sKeys[sp] = ks; sI[sp] = 0; sN[sp] = n; sKind[sp] = kind; sp++; }
function bytes(kind, buf, off, n) {
  if (pos + 6 + n > cap) grow(6 + n);
  u8[pos] = 18; u8[pos + 1] = kind; dv.setUint32(pos + 2, n, true);
  taSet(u8, new U8C(buf, off, n), pos + 6);   /* (a TypeError when buf is detached) */
  pos += 6 + n;
}
/* An array: packed (ARRAY_I32 / ARRAY_F64) when every element is a number,
 * else ARRAY. Each element is read once (a getter runs once): numbers go
 * into the buffer as they are read, as i32 while all are (widened in place
 * to f64 at the first that is not); at the first other value they are
 * rewritten as scalars, that value is written, and the frame resumes after
 * it. The length is checked before any element is read. */
function array(o) {
  var d = +o.length, n = d >= 1 ? floor(d) : 0, k = 0, allInt = true, e, p0 = pos + 5, j;
  if (n > MAXLEN) tooLarge('an array of length ' + n + ' (a Java List holds at most ' + MAXLEN + ' elements)');
  if (p0 + n > MAXB) tooLarge('an array of length ' + n + ' (a value holds at most ' + MAXB + ' bytes)');
  for (; k < n; k++) {
    e = o[k];
    if (typeof e !== 'number') break;
    if (allInt) {
      if ((e | 0) === e && (e !== 0 || 1 / e > 0)) {
        if (p0 + 4 * k + 4 > cap) grow(9 + 4 * k);
        dv.setInt32(p0 + 4 * k, e, true);
        continue;
      }
      allInt = false;
      if (p0 + 8 * k + 8 > cap) grow(13 + 8 * k);
      for (j = k - 1; j >= 0; j--) dv.setFloat64(p0 + 8 * j, dv.getInt32(p0 + 4 * j, true), true);
    } else if (p0 + 8 * k + 8 > cap) grow(13 + 8 * k);
    dv.setFloat64(p0 + 8 * k, e, true);
  }
  if (k === n) {
    seen += n;
    if (pos + 5 > cap) grow(5);
    if (n === 0) { tagU32(10, 0); return; }
    u8[pos] = allInt ? 12 : 11; dv.setUint32(pos + 1, n, true);
    pos = p0 + (allInt ? 4 : 8) * n;
    return;
  }
  var nums = null;
  if (k > 0) {
    nums = new F64C(k);
    if (allInt) for (j = 0; j < k; j++) nums[j] = dv.getInt32(p0 + 4 * j, true);
    else for (j = 0; j < k; j++) nums[j] = dv.getFloat64(p0 + 8 * j, true);
  }
  tagU32(10, n);
  for (j = 0; j < k; j++) num(nums[j]);
  push(10, o, null, n); sI[sp - 1] = k + 1;
  if (typeof e === 'object' && e !== null) obj(e);
  else { if (e === undefined) hole(o, k); value(e); }
}
function big(v) {
  var neg = v < 0, h = bigToString(neg ? -v : v, 16), n = h === '0' ? 0 : (h.length + 1) >> 1;
  if (pos + 6 + n > cap) grow(6 + n);
  u8[pos] = 7; u8[pos + 1] = neg ? 1 : 0; dv.setUint32(pos + 2, n, true); pos += 6;
  for (var i = 0, e = h.length; i < n; i++, e -= 2) u8[pos + i] = (e >= 2 ? HEXV[h[e - 2]] * 16 : 0) + HEXV[h[e - 1]];
  pos += n;
}
function mapItems(v, k) { this[this.length] = k; this[this.length] = v; }
function setItems(v) { this[this.length] = v; }
/* which of the prototypes whose objects have their own tag are on o's
 * chain (from p): 1 ArrayBuffer, 2 Date, 4 Map, 8 Set (what instanceof
 * told, without Symbol.hasInstance, which a script may define); bounded (a
 * proxy may make the chain endless) */
function protoBits(p) {
  var b = 0;
  for (var steps = 0; p !== null && p !== OP && steps < 10000; steps++) {
    if (p === ABP) b |= 1; else if (p === DateP) b |= 2; else if (p === MapP) b |= 4; else if (p === SetP) b |= 8;
    p = getProto(p);
  }
  return b;
}
/* f(o) does not throw: o has f's internal slots (a real Date, Map...) */
function brand(f, o) { try { f(o); return true; } catch (e) { return false; } }
function obj(o) {
  var j = ids.get(o);
  if (j !== undefined && j >= ib) { tagU32(20, j - ib); return; }
  if (isArray(o)) { ids.set(o, ib + nc++); array(o); return; }
  var p = getProto(o);
  if (p === OP || p === null) { ids.set(o, ib + nc++); var ks = keysOf(o); tagU32(13, ks.length); push(13, o, ks, ks.length); return; }
  if (isView(o)) {
    var tag = taTag(o), kd = tag === undefined ? 12 : VIEW_KIND[tag];
    if (kd === 12) { ids.set(o, ib + nc++); bytes(12, dvBuffer(o), dvOffset(o), dvLength(o)); return; }
    if (kd !== undefined) { ids.set(o, ib + nc++); bytes(kd + 1, taBuffer(o), taOffset(o), taByteLength(o)); return; }
  }
  var pb = protoBits(p);
  if ((pb & 1) && brand(abByteLength, o)) { ids.set(o, ib + nc++); bytes(0, o, 0, abByteLength(o)); return; }
  if ((pb & 2) && brand(dateGetTime, o)) {
    var t = dateGetTime(o);
    if (t - t !== 0) { cannot('an invalid Date'); return; }
    ids.set(o, ib + nc++);
    if (pos + 9 > cap) grow(9);
    u8[pos] = 17; dv.setFloat64(pos + 1, t, true); pos += 9; return;
  }
  if (hooks) { var id = native.ref(o, 0); ccOK = 0; if (id >= 0) { tagU32(19, id); return; } }
  if ((pb & 4) && brand(mapSize, o)) {
    ids.set(o, ib + nc++);
    var l = list(); mapForEach(o, mapItems, l);
    tagU32(15, l.length >>> 1); push(15, l, null, l.length); return;
  }
  if ((pb & 8) && brand(setSize, o)) {
    ids.set(o, ib + nc++);
    var s = list(); setForEach(o, setItems, s);
    tagU32(16, s.length); push(16, s, null, s.length); return;
  }
  ids.set(o, ib + nc++); plain(o);
}
/* own enumerable keys of a plain object: Object.keys (cached per shape by
 * JSC), the same list for-in gives unless Object.prototype has enumerable
 * properties, which then come from for-in */
var keysOf = I.keysOf, protoEnumerable = false;
for (var pk in OP) { protoEnumerable = true; break; }
if (protoEnumerable) keysOf = function (o) { var ks = list(); for (var k in o) ks[ks.length] = k; return ks; };
function plain(o) {
  var ks = list();
  for (var k in o) ks[ks.length] = k;
  tagU32(13, ks.length); push(13, o, ks, ks.length);
}
function value(v) {
  switch (typeof v) {
    case 'number': num(v); return;
    case 'string': str(v); return;
    case 'boolean': if (pos + 1 > cap) grow(1); u8[pos++] = v ? 3 : 2; return;
    case 'undefined': if (pos + 1 > cap) grow(1); u8[pos++] = 0; return;
    case 'bigint': big(v); return;
    case 'symbol': handle(v, 'a symbol'); return;
    case 'function': handle(v, 'a function'); return;
  }
  if (v === null) { if (pos + 1 > cap) grow(1); u8[pos++] = 1; return; }
  obj(v);
}
/* o[k] at one of 16 sites chosen by the key's position (as putAt in the
 * reader): each site sees few (shape, key) pairs, so JSC caches the load. */
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
function run(root) {
  value(root);
  while (sp > 0 && err === null) {
    var t = sp - 1, o = sObj[t], i = sI[t], n = sN[t], k, v;
    if (sKind[t] === 13) {
      var ks = sKeys[t], kx = i === 0 ? shapeOf(ks) : sKx[t];
      sKx[t] = kx;
      while (i < n) {
        k = ks[i++]; sI[t] = i;
        if (kx !== null) tagU32(14, kx[i - 1]); else key(k);
        v = getAt(o, k, i - 1);
        if (typeof v === 'object' && v !== null) { obj(v); if (sp !== t + 1 || err !== null) break; }
        else value(v);
      }
    } else {
      var isArr = sKind[t] === 10;
      while (i < n) {
        v = o[i++]; sI[t] = i;
        if (typeof v === 'object' && v !== null) { obj(v); if (sp !== t + 1 || err !== null) break; }
        else { if (v === undefined && isArr) hole(o, i - 1); value(v); if (err !== null) break; }
      }
    }
    if (i === n && sp === t + 1) { if (sKind[t] === 10) seen += n; sp = t; sObj[t] = null; sKeys[t] = null; }
  }
}
/* Composite ids: a WeakMap from object to ib + index that the outermost
 * conversion never clears (clearing and regrowing a Map per call cost
 * more than the walk): each conversion starts at a new base ib, so an entry
 * below ib is from an earlier conversion and means 'not seen yet'. Weak, so
 * it keeps no converted object alive. A nested conversion uses its own.
 * The key table (string -> kb + index) and the shapes work the same way
 * (strong, so they are emptied once they hold too many keys); so do the
 * writer's stack arrays, emptied of objects after each conversion. */
var idsPool = new SafeWeakMap(), idsNext = 0, keysPool = new CodecMap(), keysNext = 0, shapesPool = new CodecMap();
var keyCount = 0;   /* entries of keysPool */
var pObj = list(), pKeys = list(), pI = list(), pN = list(), pKind = list(), pKx = list();
function encode(root, fl, hk) {
  var saved = null;
  if (depth > 0) saved = [ab, u8, dv, cap, pos, ids, nc, keys, nk, sObj, sKeys, sI, sN, sKind, sp, err, flags, hooks, shapes, sKx, ib, kb, holes, seen];
  depth++;
  ccOK = 0;
  try {
    ab = spare; spare = null;
    if (ab) { u8 = spareU8; dv = spareDV; cap = spareCap; }
    else { ab = new ABC(4096); u8 = new U8C(ab); dv = new SafeDataView(ab); cap = 4096; }
    pos = 8;
    if (depth === 1) {
      ids = idsPool; ib = idsNext; keys = keysPool; kb = keysNext; shapes = shapesPool;
      sObj = pObj; sKeys = pKeys; sI = pI; sN = pN; sKind = pKind; sKx = pKx;
    } else {
      ids = new SafeWeakMap(); ib = 0; keys = new CodecMap(); kb = 0; shapes = new CodecMap();
      sObj = list(); sKeys = list(); sI = list(); sN = list(); sKind = list(); sKx = list();
    }
    nc = 0; nk = 0; sp = 0; err = null; holes = 0; seen = 0;
    flags = fl; hooks = hk;
    run(root);
    if (cap <= 1 << 23) { spare = ab; spareU8 = u8; spareDV = dv; spareCap = cap; }
    if (err !== null) return err;
    u8[0] = 0x53; u8[1] = 0x54; u8[2] = 0x56; u8[3] = 1; dv.setUint32(4, pos - 8, true);
    return ab;
  } finally {
    for (var t = 0; t < sp; t++) { sObj[t] = null; sKeys[t] = null; }
    if (depth === 1) {
      idsNext = ib + nc + 1; keysNext = kb + nk + 1;
      if (keyCount > 4096) { keysPool = new CodecMap(); shapesPool = new CodecMap(); keyCount = 0; }
    }
    depth--;
    if (saved !== null) {
      ab = saved[0]; u8 = saved[1]; dv = saved[2]; cap = saved[3]; pos = saved[4]; ids = saved[5];
      nc = saved[6]; keys = saved[7]; nk = saved[8]; sObj = saved[9]; sKeys = saved[10]; sI = saved[11];
      sN = saved[12]; sKind = saved[13]; sp = saved[14]; err = saved[15]; flags = saved[16]; hooks = saved[17];
      shapes = saved[18]; sKx = saved[19]; ib = saved[20]; kb = saved[21]; holes = saved[22]; seen = saved[23];
    }
  }
}
/* reader: state lives in a frame object per call (decode does not nest
 * often, but it may: a hook can run JS that converts again) */
/* Latin-1 strings are substrings of one string holding every byte of the
 * buffer (up to the last Latin-1 string) as a character, made by C before
 * the call when the buffer has such strings (else by a native call on first
 * use): O(1) each, no copy until JSC flattens them. */
function text(r, wide) {
  var u8 = r.u8, p = r.p, n = r.dv.getUint32(p, true), s, i;
  p += 4;
  if (!wide) {
    r.p = p + n;
    if (n <= 1) return n === 0 ? '' : CH[u8[p]];
    if (r.sub !== 1) {
      if (r.sub === 0) r.sub = substringOK() ? 1 : 2;
      if (r.sub === 2) return native.makeString(r.ab, p, n, false);
    }
    if (r.big === null) r.big = native.bytesAsString(r.ab, r.len);
    return r.big.substring(p, p + n);
  }
  if (n > LONG) { s = native.makeString(r.ab, p, n, wide); r.p = p + 2 * n; return s; }
  s = '';
  for (i = 0; i < n; i++) s += fromCharCode(r.dv.getUint16(p + 2 * i, true));
  r.p = p + 2 * n;
  return s;
}
/* Object keys of 2..32 Latin-1 characters, kept across conversions by a
 * hash of their bytes (direct-mapped, checked byte by byte): a key seen
 * before is the same string, already an atom, with no substring to make
 * and no atomization when it is stored. */
/* (the 'in' test makes the key an atom at once, so a cached key never
 * holds on to the string of a whole buffer) */
/* (KB holds each cached key's bytes, KL its length: compared without a
 * string method) */
var KC = list(), KB = new U8C(1024 * 32), KL = new U8C(1024), KNONE = {__proto__: null};
for (var k0 = 0; k0 < 1024; k0++) KC[k0] = '';
function keyText(r) {
  var u8 = r.u8, p = r.p, n = r.dv.getUint32(p, true), h = n, i, s, b;
  if (n < 2 || n > 32) return text(r, false);
  p += 4;
  for (i = 0; i < n; i++) h = (h * 31 + u8[p + i]) | 0;
  h = (h ^ (h >>> 10)) & 1023;
  b = h * 32;
  if (KL[h] === n) {
    for (i = 0; i < n; i++) if (KB[b + i] !== u8[p + i]) break;
    if (i === n) { r.p = p + n; return KC[h]; }
  }
  s = text(r, false);
  if (s in KNONE) s = '' + s;
  KC[h] = s; KL[h] = n;
  for (i = 0; i < n; i++) KB[b + i] = u8[p + i];
  return s;
}
/* A reader's state (an object literal: own properties only). sub, ap:
 * whether String.prototype.substring, Array.prototype.push are the
 * intrinsics, as ccOK (push appends to a decoded array faster than a
 * store at its length). */
function reader(ab, len, u8, dv) {
  /* keys and objs grow by one store per key and per composite: arrays of
   * the realm (an append to an array without a prototype costs JSC 1.6x
   * more); they hold only what the conversion hands to the script anyway */
  return {ab: ab, len: len, big: null, sub: 0, ap: 0, u8: u8, dv: dv, p: 8, keys: [], nk: 0, objs: [], no: 0,
    sObj: list(), sN: list(), sKind: list(), sLeft: list(), sKey: list(), sHave: list(), sp: 0};
}
function rpush(r, kind, o, left) {
  var sp = r.sp;
  r.sObj[sp] = o; r.sN[sp] = left; r.sKind[sp] = kind; r.sLeft[sp] = left; r.sHave[sp] = false; r.sKey[sp] = undefined;
  r.sp = sp + 1;
}
function val(r) {
  var u8 = r.u8, dv = r.dv, p = r.p, t = u8[p++], n, o, i;
  r.p = p;
  switch (t) {
    case 0: return undefined;
    case 1: return null;
    case 2: return false;
    case 3: return true;
    case 4: r.p = p + 4; return dv.getInt32(p, true);
    case 6: r.p = p + 8; return dv.getFloat64(p, true);
    case 8: return text(r, false);
    case 9: return text(r, true);
    case 13: n = dv.getUint32(p, true); r.p = p + 4; o = {}; r.objs[r.no++] = o; rpush(r, 13, o, n); return o;
    case 10: n = dv.getUint32(p, true); r.p = p + 4; o = []; r.objs[r.no++] = o; rpush(r, 10, o, n); return o;
    case 11: case 12:
      n = dv.getUint32(p, true); p += 4; o = [];
      if (r.ap === 0) r.ap = pushOK() ? 1 : 2;
      if (r.ap === 1) {
        if (t === 11) for (i = 0; i < n; i++, p += 8) o.push(dv.getFloat64(p, true));
        else for (i = 0; i < n; i++, p += 4) o.push(dv.getInt32(p, true));
      } else if (t === 11) for (i = 0; i < n; i++, p += 8) o[i] = dv.getFloat64(p, true);
      else for (i = 0; i < n; i++, p += 4) o[i] = dv.getInt32(p, true);
      r.p = p; r.objs[r.no++] = o; return o;
    case 20: r.p = p + 4; return r.objs[dv.getUint32(p, true)];
    case 5: {
      var lo = dv.getUint32(p, true), hi = dv.getInt32(p + 4, true); r.p = p + 8;
      if (hi >= -2097152 && hi < 2097152 && !(hi === -2097152 && lo === 0)) return hi * 4294967296 + lo;
      return dv.getBigInt64(p, true);
    }
    case 7: {
      var neg = u8[p] === 1; n = dv.getUint32(p + 1, true); p += 5;
      var h = '';
      for (i = n - 1; i >= 0; i--) h += HEX2[u8[p + i]];
      r.p = p + n;
      var b = BigIntC('0x' + (h || '0'));
      return neg ? -b : b;
    }
    case 15: n = dv.getUint32(p, true); r.p = p + 4; o = new MapC(); r.objs[r.no++] = o; rpush(r, 15, o, 2 * n); return o;
    case 16: n = dv.getUint32(p, true); r.p = p + 4; o = new SetC(); r.objs[r.no++] = o; rpush(r, 16, o, n); return o;
    case 17: r.p = p + 8; o = new DateC(dv.getFloat64(p, true)); r.objs[r.no++] = o; return o;
    case 18: {
      var kind = u8[p], C = kind === 0 ? ABC : VIEWS[kind - 1];
      if (C === undefined) break;
      n = dv.getUint32(p + 1, true); p += 5;
      /* a copy (not slice: it would ask the buffer's constructor, a
       * script's, for its species) */
      var copy = new ABC(n);
      if (n > 0) taSet(new U8C(copy), new U8C(r.ab, p, n), 0);
      r.p = p + n;
      o = kind === 0 ? copy : new C(copy);
      r.objs[r.no++] = o; return o;
    }
    case 19: r.p = p + 4; o = native.refValue(0, dv.getUint32(p, true)); r.sub = 0; r.ap = 0; return o;
    case 22: r.p = p + 4; o = native.refValue(1, dv.getUint32(p, true)); r.sub = 0; r.ap = 0; return o;
    case 21: {
      var et = dv.getUint32(p, true); n = dv.getUint32(p + 4, true); r.p = p + 8 + n;
      o = native.ext(et, r.ab, p + 8, n); r.sub = 0; r.ap = 0; return o;
    }
  }
  throw new TypeErr('corrupt value: tag ' + t + ' at byte ' + (p - 1));
}
/* the input buffer C copies small values into (not used by nested reads) */
var inAB = new ABC(65536), inU8 = new U8C(inAB), inDV = new SafeDataView(inAB);
/* decodeIn is never nested (C uses decode for a nested read), so its
 * Reader and arrays are kept, emptied after each read. */
var inR = reader(inAB, 0, inU8, inDV);
function decodeIn(len, big) {
  var r = inR;
  r.len = len; r.big = big; r.p = 8; r.sp = 0; r.sub = 0; r.ap = 0; r.nk = 0; r.no = 0;
  try { return run2(r); }
  finally {
    r.big = null; r.keys.length = 0; r.objs.length = 0;
    for (var t = 0; t < r.sp; t++) { r.sObj[t] = null; r.sKey[t] = undefined; }
  }
}
function decode(ab, len, big) {
  var r = reader(ab, len, new U8C(ab, 0, len), new SafeDataView(ab, 0, len));
  r.big = big;
  return run2(r);
}
/* o[k] = v at one of 16 sites chosen by the key's position, so each site
 * sees few (shape, key) pairs and JSC caches the store (one shared site
 * goes generic: a C++ property lookup per key). */
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
function run2(r) {
  var root = val(r), u8 = r.u8, dv = r.dv, sLeft = r.sLeft, sKind = r.sKind, sObj = r.sObj, keys = r.keys;
  while (r.sp > 0) {
    var t = r.sp - 1, left = sLeft[t], kd = sKind[t], o = sObj[t];
    if (kd === 13) {
      while (left > 0) {
        left--;
        var k, p = r.p;
        if (u8[p] === 14) { k = keys[dv.getUint32(p + 1, true)]; r.p = p + 5; }
        else { r.p = p + 1; k = u8[p] === 9 ? text(r, true) : keyText(r); keys[r.nk++] = k; }
        var v = val(r);
        if (k === '__proto__') defineProp(o, k, {__proto__: null, value: v, writable: true, enumerable: true, configurable: true});
        else putAt(o, k, v, r.sN[t] - left - 1);
        if (r.sp !== t + 1) break;
      }
    } else if (kd === 10) {
      while (left > 0) {
        left--;
        var av = val(r);   /* (after val: a hook it called may have replaced push) */
        if (r.ap === 0) r.ap = pushOK() ? 1 : 2;
        if (r.ap === 1) o.push(av); else o[o.length] = av;
        if (r.sp !== t + 1) break;
      }
    } else if (kd === 15) {
      if (left > 0) {
        left--;
        if (!r.sHave[t]) { r.sKey[t] = val(r); r.sHave[t] = true; }
        else { var mv = val(r); mapSet(o, r.sKey[t], mv); r.sKey[t] = undefined; r.sHave[t] = false; }
      }
    } else {
      while (left > 0) { left--; setAdd(o, val(r)); if (r.sp !== t + 1) break; }
    }
    sLeft[t] = left;
    if (left === 0 && r.sp === t + 1) { r.sp = t; sObj[t] = null; }
  }
  return root;
}
return {encode: encode, decode: decode, decodeIn: decodeIn, inAB: inAB};
})

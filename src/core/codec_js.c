/*
 * codec_js.c - the fast path of the value codec: the writer and reader
 * written in JavaScript, run by JSC's JIT inside the runtime, so walking a
 * value costs no C API call per property (each C API call takes the VM lock
 * and costs tens of ns; a JIT'd property read costs a few). The C side
 * makes one call per conversion and moves the bytes.
 *
 * The JS code writes exactly the bytes of the C writer (codec_write.c),
 * which stays the reference; tests/c/test_codec.c checks both against the
 * shared vectors. It is compiled once per runtime and kept on the
 * runtime's private `internal` object. Hooks (Java wrappers, handles,
 * extensions, long strings) call back into C through native functions; the
 * hooks of the conversion in progress are kept per thread (conversions run
 * synchronously on the calling thread and may nest).
 */
#include "codec.h"
#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strings longer than this are copied by C, not by a JS loop. */
#define CODEC_JS_LONG_STRING 2048

static const char codec_js_source[] =
    "(function (native) {\n"
    "'use strict';\n"
    "var OP = Object.prototype, getProto = Object.getPrototypeOf, isArray = Array.isArray;\n"
    "var isView = ArrayBuffer.isView, TAG = Symbol.toStringTag, fromCharCode = String.fromCharCode;\n"
    "var KINDS = {Int8Array: 1, Uint8Array: 2, Uint8ClampedArray: 3, Int16Array: 4, Uint16Array: 5,\n"
    "  Int32Array: 6, Uint32Array: 7, Float32Array: 8, Float64Array: 9, BigInt64Array: 10,\n"
    "  BigUint64Array: 11, DataView: 12};\n"
    "var CTORS = [ArrayBuffer, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array,\n"
    "  Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView];\n"
    "var LONG = 2048, CH = [];\n"
    "for (var c0 = 0; c0 < 256; c0++) CH.push(fromCharCode(c0));\n"
    "var spare = new ArrayBuffer(65536), spareU8 = new Uint8Array(spare), spareDV = new DataView(spare), depth = 0;\n"
    "/* writer state (saved and restored around a nested encode) */\n"
    "var ab, u8, dv, cap, pos, ids, ib, nc, keys, kb, nk, sObj, sKeys, sI, sN, sKind, sp, err, flags, hooks, shapes, sKx;\n"
    "/* Limits (docs/value-format.md): a buffer Java can hold (a byte[] or a\n"
    " * direct ByteBuffer: 2^31-1 bytes), a List's length, and the holes of\n"
    " * sparse arrays per conversion (a hole costs JS nothing but a byte here and\n"
    " * a slot in Java, so a length the script merely set must not decide the\n"
    " * work: the holes met so far may pass the array elements met so far, seen,\n"
    " * by MAXHOLES at most). Past one, the conversion throws a RangeError naming\n"
    " * the path. */\n"
    "var MAXB = 2147483647, MAXLEN = 2147483647, MAXHOLES = 1048576, RangeErr = RangeError, holes = 0, seen = 0;\n"
    "function tooLarge(what) { throw new RangeErr('cannot convert ' + what + ' at ' + path()); }\n"
    "function grow(n) {\n"
    "  if (pos + n > MAXB) tooLarge('a value of more than ' + MAXB + ' bytes');\n"
    "  var c = cap * 2; while (c < pos + n) c *= 2;\n"
    "  if (c > MAXB) c = MAXB;\n"
    "  var nb = new ArrayBuffer(c), nu = new Uint8Array(nb);\n"
    "  nu.set(u8); ab = nb; u8 = nu; dv = new DataView(nb); cap = c;\n"
    "}\n"
    "/* o[i] read as undefined: counts it when it is a hole. The array elements\n"
    " * met so far are those of arrays done (seen) and of the open array frames\n"
    " * (their next index), added up only when the holes pass MAXHOLES. */\n"
    "function hole(o, i) {\n"
    "  if ((i in o) || ++holes <= MAXHOLES) return;\n"
    "  var met = seen;\n"
    "  for (var t = 0; t < sp; t++) if (sKind[t] === 10) met += sI[t];\n"
    "  if (holes - MAXHOLES > met - holes)\n"
    "    tooLarge('a sparse array whose holes outnumber its elements by more than ' + MAXHOLES);\n"
    "}\n"
    "function num(d) {\n"
    "  if (pos + 9 > cap) grow(9);\n"
    "  var i = d | 0;\n"
    "  if (i === d && (i !== 0 || 1 / d > 0)) { u8[pos] = 4; dv.setInt32(pos + 1, i, true); pos += 5; return; }\n"
    "  if (d >= -9007199254740991 && d <= 9007199254740991 && Math.floor(d) === d && d !== 0) {\n"
    "    var hi = Math.floor(d / 4294967296), lo = d - hi * 4294967296;\n"
    "    u8[pos] = 5; dv.setUint32(pos + 1, lo, true); dv.setInt32(pos + 5, hi, true); pos += 9; return;\n"
    "  }\n"
    "  u8[pos] = 6; dv.setFloat64(pos + 1, d, true); pos += 9;\n"
    "}\n"

    "function str(s) {\n"
    "  var n = s.length;\n"
    "  if (pos + 5 + 2 * n > cap) grow(5 + 2 * n);\n"
    "  if (n > LONG) { pos = native.putString(s, ab, pos); return; }\n"
    "  var p = pos + 5, i = 0, c;\n"
    "  for (; i < n; i++) { c = s.charCodeAt(i); if (c > 255) break; u8[p + i] = c; }\n"
    "  dv.setUint32(pos + 1, n, true);\n"
    "  if (i === n) { u8[pos] = 8; pos = p + n; return; }\n"
    "  u8[pos] = 9;\n"
    "  for (i = 0; i < n; i++) dv.setUint16(p + 2 * i, s.charCodeAt(i), true);\n"
    "  pos = p + 2 * n;\n"
    "}\n"
    "function tagU32(t, v) { if (pos + 5 > cap) grow(5); u8[pos] = t; dv.setUint32(pos + 1, v, true); pos += 5; }\n"
    "function key(k) {\n"
    "  var j = keys.get(k);\n"
    "  if (j !== undefined && j >= kb) { tagU32(14, j - kb); return; }\n"
    "  keys.set(k, kb + nk++); str(k);\n"
    "}\n"
    "/* Objects of one shape have the same key list (the same atom strings in\n"
    " * the same order): once every key of a list is in the key table, later\n"
    " * objects with that list reuse its indexes (all KEYREFs, as key() would\n"
    " * write) with no table lookup per key. null: write the keys with key().\n"
    " * An entry made by an earlier conversion (g < kb) is refilled in place. */\n"
    "function shapeOf(ks) {\n"
    "  var n = ks.length;\n"
    "  if (n === 0) return null;\n"
    "  var e = shapes.get(ks[0]), i, x, same = false;\n"
    "  if (e !== undefined && e.ks.length === n) {\n"
    "    var eks = e.ks;\n"
    "    for (i = 1; i < n; i++) if (eks[i] !== ks[i]) break;\n"
    "    same = i === n;\n"
    "    if (same && e.g === kb) return e.idx;\n"
    "  }\n"
    "  var idx = same ? e.idx : new Array(n);\n"
    "  for (i = 0; i < n; i++) { x = keys.get(ks[i]); if (x === undefined || x < kb) return null; idx[i] = x - kb; }\n"
    "  if (same) e.g = kb; else shapes.set(ks[0], {ks: ks, idx: idx, g: kb});\n"
    "  return idx;\n"
    "}\n"
    "\n"
    "function path() {\n"
    "  var s = '$';\n"
    "  for (var t = 0; t < sp; t++) {\n"
    "    var i = sI[t] - 1, kd = sKind[t];\n"
    "    if (kd === 13) {\n"
    "      var k = sKeys[t][i];\n"
    "      s += /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? '.' + k : '[\"' + k.replace(/[\"\\\\]/g, '\\\\$&') + '\"]';\n"
    "    } else if (kd === 10) s += '[' + i + ']';\n"
    "    else if (kd === 15) s += '<Map ' + (i % 2 ? 'value ' : 'key ') + ((i / 2) | 0) + '>';\n"
    "    else s += '<Set ' + i + '>';\n"
    "  }\n"
    "  return s;\n"
    "}\n"
    "function cannot(what) { if (err === null) err = 'cannot convert ' + what + ' at ' + path(); }\n"
    "function handle(v, what) {\n"
    "  var id = (flags & 1) && hooks ? native.ref(v, 1) : -1;\n"
    "  if (id >= 0) tagU32(22, id); else cannot(what);\n"
    "}\n"
    "function push(kind, o, ks, n) { sObj[sp] = o; sKeys[sp] = ks; sI[sp] = 0; sN[sp] = n; sKind[sp] = kind; sp++; }\n"
    "function bytes(kind, view) {\n"
    "  var n = view.byteLength;\n"
    "  if (pos + 6 + n > cap) grow(6 + n);\n"
    "  u8[pos] = 18; u8[pos + 1] = kind; dv.setUint32(pos + 2, n, true);\n"
    "  u8.set(view, pos + 6); pos += 6 + n;\n"
    "}\n"
    "/* An array: packed (ARRAY_I32 / ARRAY_F64) when every element is a number,\n"
    " * else ARRAY. Each element is read once (a getter runs once): numbers go\n"
    " * into the buffer as they are read, as i32 while all are (widened in place\n"
    " * to f64 at the first that is not); at the first other value they are\n"
    " * rewritten as scalars, that value is written, and the frame resumes after\n"
    " * it. The length is checked before any element is read. */\n"
    "function array(o) {\n"
    "  var d = +o.length, n = d >= 1 ? Math.floor(d) : 0, k = 0, allInt = true, e, p0 = pos + 5, j;\n"
    "  if (n > MAXLEN) tooLarge('an array of length ' + n + ' (a Java List holds at most ' + MAXLEN + ' elements)');\n"
    "  if (p0 + n > MAXB) tooLarge('an array of length ' + n + ' (a value holds at most ' + MAXB + ' bytes)');\n"
    "  for (; k < n; k++) {\n"
    "    e = o[k];\n"
    "    if (typeof e !== 'number') break;\n"
    "    if (allInt) {\n"
    "      if ((e | 0) === e && (e !== 0 || 1 / e > 0)) {\n"
    "        if (p0 + 4 * k + 4 > cap) grow(9 + 4 * k);\n"
    "        dv.setInt32(p0 + 4 * k, e, true);\n"
    "        continue;\n"
    "      }\n"
    "      allInt = false;\n"
    "      if (p0 + 8 * k + 8 > cap) grow(13 + 8 * k);\n"
    "      for (j = k - 1; j >= 0; j--) dv.setFloat64(p0 + 8 * j, dv.getInt32(p0 + 4 * j, true), true);\n"
    "    } else if (p0 + 8 * k + 8 > cap) grow(13 + 8 * k);\n"
    "    dv.setFloat64(p0 + 8 * k, e, true);\n"
    "  }\n"
    "  if (k === n) {\n"
    "    seen += n;\n"
    "    if (pos + 5 > cap) grow(5);\n"
    "    if (n === 0) { tagU32(10, 0); return; }\n"
    "    u8[pos] = allInt ? 12 : 11; dv.setUint32(pos + 1, n, true);\n"
    "    pos = p0 + (allInt ? 4 : 8) * n;\n"
    "    return;\n"
    "  }\n"
    "  var nums = null;\n"
    "  if (k > 0) {\n"
    "    nums = new Float64Array(k);\n"
    "    if (allInt) for (j = 0; j < k; j++) nums[j] = dv.getInt32(p0 + 4 * j, true);\n"
    "    else for (j = 0; j < k; j++) nums[j] = dv.getFloat64(p0 + 8 * j, true);\n"
    "  }\n"
    "  tagU32(10, n);\n"
    "  for (j = 0; j < k; j++) num(nums[j]);\n"
    "  push(10, o, null, n); sI[sp - 1] = k + 1;\n"
    "  if (typeof e === 'object' && e !== null) obj(e);\n"
    "  else { if (e === undefined) hole(o, k); value(e); }\n"
    "}\n"
    "function big(v) {\n"
    "  var neg = v < 0, h = (neg ? -v : v).toString(16), n = h === '0' ? 0 : (h.length + 1) >> 1;\n"
    "  if (pos + 6 + n > cap) grow(6 + n);\n"
    "  u8[pos] = 7; u8[pos + 1] = neg ? 1 : 0; dv.setUint32(pos + 2, n, true); pos += 6;\n"
    "  for (var i = 0, e = h.length; i < n; i++, e -= 2) u8[pos + i] = parseInt(h.substring(e - 2 < 0 ? 0 : e - 2, e), 16);\n"
    "  pos += n;\n"
    "}\n"
    "function mapItems(v, k) { this.push(k, v); }\n"
    "function setItems(v) { this.push(v); }\n"
    "function obj(o) {\n"
    "  var j = ids.get(o);\n"
    "  if (j !== undefined && j >= ib) { tagU32(20, j - ib); return; }\n"
    "  if (isArray(o)) { ids.set(o, ib + nc++); array(o); return; }\n"
    "  var p = getProto(o);\n"
    "  if (p === OP || p === null) { ids.set(o, ib + nc++); var ks = keysOf(o); tagU32(13, ks.length); push(13, o, ks, ks.length); return; }\n"
    "  if (o instanceof ArrayBuffer) { ids.set(o, ib + nc++); bytes(0, new Uint8Array(o)); return; }\n"
    "  if (isView(o)) {\n"
    "    var kd = KINDS[o[TAG]];\n"
    "    if (kd !== undefined && kd !== 12) {\n"
    "      ids.set(o, ib + nc++); bytes(kd, new Uint8Array(o.buffer, o.byteOffset, o.byteLength)); return;\n"
    "    }\n"
    "  }\n"
    "  if (o instanceof Date) {\n"
    "    var t = +o;\n"
    "    if (t - t !== 0) { cannot('an invalid Date'); return; }\n"
    "    ids.set(o, ib + nc++);\n"
    "    if (pos + 9 > cap) grow(9);\n"
    "    u8[pos] = 17; dv.setFloat64(pos + 1, t, true); pos += 9; return;\n"
    "  }\n"
    "  if (hooks) { var id = native.ref(o, 0); if (id >= 0) { tagU32(19, id); return; } }\n"
    "  if (o instanceof Map) {\n"
    "    ids.set(o, ib + nc++);\n"
    "    var l = []; o.forEach(mapItems, l);\n"
    "    tagU32(15, l.length >>> 1); push(15, l, null, l.length); return;\n"
    "  }\n"
    "  if (o instanceof Set) {\n"
    "    ids.set(o, ib + nc++);\n"
    "    var s = []; o.forEach(setItems, s);\n"
    "    tagU32(16, s.length); push(16, s, null, s.length); return;\n"
    "  }\n"
    "  if (o instanceof DataView) {\n"
    "    ids.set(o, ib + nc++); bytes(12, new Uint8Array(o.buffer, o.byteOffset, o.byteLength)); return;\n"
    "  }\n"
    "  ids.set(o, ib + nc++); plain(o);\n"
    "}\n"
    "/* own enumerable keys of a plain object: Object.keys (cached per shape by\n"
    " * JSC), the same list for-in gives unless Object.prototype has enumerable\n"
    " * properties, which then come from for-in */\n"
    "var keysOf = Object.keys, protoEnumerable = false;\n"
    "for (var pk in OP) { protoEnumerable = true; break; }\n"
    "if (protoEnumerable) keysOf = function (o) { var ks = []; for (var k in o) ks.push(k); return ks; };\n"
    "function plain(o) {\n"
    "  var ks = [];\n"
    "  for (var k in o) ks.push(k);\n"
    "  tagU32(13, ks.length); push(13, o, ks, ks.length);\n"
    "}\n"
    "function value(v) {\n"
    "  switch (typeof v) {\n"
    "    case 'number': num(v); return;\n"
    "    case 'string': str(v); return;\n"
    "    case 'boolean': if (pos + 1 > cap) grow(1); u8[pos++] = v ? 3 : 2; return;\n"
    "    case 'undefined': if (pos + 1 > cap) grow(1); u8[pos++] = 0; return;\n"
    "    case 'bigint': big(v); return;\n"
    "    case 'symbol': handle(v, 'a symbol'); return;\n"
    "    case 'function': handle(v, 'a function'); return;\n"
    "  }\n"
    "  if (v === null) { if (pos + 1 > cap) grow(1); u8[pos++] = 1; return; }\n"
    "  obj(v);\n"
    "}\n"
    "/* o[k] at one of 16 sites chosen by the key's position (as putAt in the\n"
    " * reader): each site sees few (shape, key) pairs, so JSC caches the load. */\n"
    "function getAt(o, k, i) {\n"
    "  switch (i) {\n"
    "    case 0: return o[k];\n"
    "    case 1: return o[k];\n"
    "    case 2: return o[k];\n"
    "    case 3: return o[k];\n"
    "    case 4: return o[k];\n"
    "    case 5: return o[k];\n"
    "    case 6: return o[k];\n"
    "    case 7: return o[k];\n"
    "    case 8: return o[k];\n"
    "    case 9: return o[k];\n"
    "    case 10: return o[k];\n"
    "    case 11: return o[k];\n"
    "    case 12: return o[k];\n"
    "    case 13: return o[k];\n"
    "    case 14: return o[k];\n"
    "    case 15: return o[k];\n"
    "  }\n"
    "  return o[k];\n"
    "}\n"
    "function run(root) {\n"
    "  value(root);\n"
    "  while (sp > 0 && err === null) {\n"
    "    var t = sp - 1, o = sObj[t], i = sI[t], n = sN[t], k, v;\n"
    "    if (sKind[t] === 13) {\n"
    "      var ks = sKeys[t], kx = i === 0 ? shapeOf(ks) : sKx[t];\n"
    "      sKx[t] = kx;\n"
    "      while (i < n) {\n"
    "        k = ks[i++]; sI[t] = i;\n"
    "        if (kx !== null) tagU32(14, kx[i - 1]); else key(k);\n"
    "        v = getAt(o, k, i - 1);\n"
    "        if (typeof v === 'object' && v !== null) { obj(v); if (sp !== t + 1 || err !== null) break; }\n"
    "        else value(v);\n"
    "      }\n"
    "    } else {\n"
    "      var isArr = sKind[t] === 10;\n"
    "      while (i < n) {\n"
    "        v = o[i++]; sI[t] = i;\n"
    "        if (typeof v === 'object' && v !== null) { obj(v); if (sp !== t + 1 || err !== null) break; }\n"
    "        else { if (v === undefined && isArr) hole(o, i - 1); value(v); if (err !== null) break; }\n"
    "      }\n"
    "    }\n"
    "    if (i === n && sp === t + 1) { if (sKind[t] === 10) seen += n; sp = t; sObj[t] = null; sKeys[t] = null; }\n"
    "  }\n"
    "}\n"
    "/* Composite ids: a WeakMap from object to ib + index that the outermost\n"
    " * conversion never clears (clearing and regrowing a Map per call cost\n"
    " * more than the walk): each conversion starts at a new base ib, so an entry\n"
    " * below ib is from an earlier conversion and means 'not seen yet'. Weak, so\n"
    " * it keeps no converted object alive. A nested conversion uses its own.\n"
    " * The key table (string -> kb + index) and the shapes work the same way\n"
    " * (strong, so they are emptied once they hold too many keys); so do the\n"
    " * writer's stack arrays, emptied of objects after each conversion. */\n"
    "var idsPool = new WeakMap(), idsNext = 0, keysPool = new Map(), keysNext = 0, shapesPool = new Map();\n"
    "var pObj = [], pKeys = [], pI = [], pN = [], pKind = [], pKx = [];\n"
    "function encode(root, fl, hk) {\n"
    "  var saved = null;\n"
    "  if (depth > 0) saved = [ab, u8, dv, cap, pos, ids, nc, keys, nk, sObj, sKeys, sI, sN, sKind, sp, err, flags, hooks, shapes, sKx, ib, kb, holes, seen];\n"
    "  depth++;\n"
    "  try {\n"
    "    ab = spare; spare = null;\n"
    "    if (ab) { u8 = spareU8; dv = spareDV; }\n"
    "    else { ab = new ArrayBuffer(4096); u8 = new Uint8Array(ab); dv = new DataView(ab); }\n"
    "    cap = ab.byteLength; pos = 8;\n"
    "    if (depth === 1) {\n"
    "      ids = idsPool; ib = idsNext; keys = keysPool; kb = keysNext; shapes = shapesPool;\n"
    "      sObj = pObj; sKeys = pKeys; sI = pI; sN = pN; sKind = pKind; sKx = pKx;\n"
    "    } else {\n"
    "      ids = new WeakMap(); ib = 0; keys = new Map(); kb = 0; shapes = new Map();\n"
    "      sObj = []; sKeys = []; sI = []; sN = []; sKind = []; sKx = [];\n"
    "    }\n"
    "    nc = 0; nk = 0; sp = 0; err = null; holes = 0; seen = 0;\n"
    "    flags = fl; hooks = hk;\n"
    "    run(root);\n"
    "    if (cap <= 1 << 23) { spare = ab; spareU8 = u8; spareDV = dv; }\n"
    "    if (err !== null) return err;\n"
    "    u8[0] = 0x53; u8[1] = 0x54; u8[2] = 0x56; u8[3] = 1; dv.setUint32(4, pos - 8, true);\n"
    "    return ab;\n"
    "  } finally {\n"
    "    for (var t = 0; t < sp; t++) { sObj[t] = null; sKeys[t] = null; }\n"
    "    if (depth === 1) {\n"
    "      idsNext = ib + nc + 1; keysNext = kb + nk + 1;\n"
    "      if (keys.size > 4096) { keys.clear(); shapes.clear(); }\n"
    "    }\n"
    "    depth--;\n"
    "    if (saved !== null) {\n"
    "      ab = saved[0]; u8 = saved[1]; dv = saved[2]; cap = saved[3]; pos = saved[4]; ids = saved[5];\n"
    "      nc = saved[6]; keys = saved[7]; nk = saved[8]; sObj = saved[9]; sKeys = saved[10]; sI = saved[11];\n"
    "      sN = saved[12]; sKind = saved[13]; sp = saved[14]; err = saved[15]; flags = saved[16]; hooks = saved[17];\n"
    "      shapes = saved[18]; sKx = saved[19]; ib = saved[20]; kb = saved[21]; holes = saved[22]; seen = saved[23];\n"
    "    }\n"
    "  }\n"
    "}\n"
    "/* reader: state lives in a frame object per call (decode does not nest\n"
    " * often, but it may: a hook can run JS that converts again) */\n"
    "/* Latin-1 strings are substrings of one string holding every byte of the\n"
    " * buffer (up to the last Latin-1 string) as a character, made by C before\n"
    " * the call when the buffer has such strings (else by a native call on first\n"
    " * use): O(1) each, no copy until JSC flattens them. */\n"
    "function text(r, wide) {\n"
    "  var u8 = r.u8, p = r.p, n = r.dv.getUint32(p, true), s, i;\n"
    "  p += 4;\n"
    "  if (!wide) {\n"
    "    r.p = p + n;\n"
    "    if (n <= 1) return n === 0 ? '' : CH[u8[p]];\n"
    "    if (r.big === null) r.big = native.bytesAsString(r.ab, r.len);\n"
    "    return r.big.substring(p, p + n);\n"
    "  }\n"
    "  if (n > LONG) { s = native.makeString(r.ab, p, n, wide); r.p = p + 2 * n; return s; }\n"
    "  s = '';\n"
    "  for (i = 0; i < n; i++) s += fromCharCode(r.dv.getUint16(p + 2 * i, true));\n"
    "  r.p = p + 2 * n;\n"
    "  return s;\n"
    "}\n"
    "/* Object keys of 2..32 Latin-1 characters, kept across conversions by a\n"
    " * hash of their bytes (direct-mapped, checked byte by byte): a key seen\n"
    " * before is the same string, already an atom, with no substring to make\n"
    " * and no atomization when it is stored. */\n"
    "/* (the 'in' test makes the key an atom at once, so a cached key never\n"
    " * holds on to the string of a whole buffer) */\n"
    "var KC = new Array(1024), KNONE = Object.freeze(Object.create(null));\n"
    "function keyText(r) {\n"
    "  var u8 = r.u8, p = r.p, n = r.dv.getUint32(p, true), h = n, i, s;\n"
    "  if (n < 2 || n > 32) return text(r, false);\n"
    "  p += 4;\n"
    "  for (i = 0; i < n; i++) h = (h * 31 + u8[p + i]) | 0;\n"
    "  h = (h ^ (h >>> 10)) & 1023;\n"
    "  s = KC[h];\n"
    "  if (s !== undefined && s.length === n) {\n"
    "    for (i = 0; i < n; i++) if (s.charCodeAt(i) !== u8[p + i]) break;\n"
    "    if (i === n) { r.p = p + n; return s; }\n"
    "  }\n"
    "  s = text(r, false);\n"
    "  if (s in KNONE) s = '' + s;\n"
    "  KC[h] = s;\n"
    "  return s;\n"
    "}\n"
    "function Reader(ab, len, u8, dv) {\n"
    "  this.ab = ab; this.len = len; this.big = null;\n"
    "  this.u8 = u8; this.dv = dv; this.p = 8;\n"
    "  this.keys = []; this.objs = [];\n"
    "  this.sObj = []; this.sN = []; this.sKind = []; this.sLeft = []; this.sKey = []; this.sHave = []; this.sp = 0;\n"
    "}\n"
    "function rpush(r, kind, o, left) {\n"
    "  var sp = r.sp;\n"
    "  r.sObj[sp] = o; r.sN[sp] = left; r.sKind[sp] = kind; r.sLeft[sp] = left; r.sHave[sp] = false; r.sKey[sp] = undefined;\n"
    "  r.sp = sp + 1;\n"
    "}\n"
    "function val(r) {\n"
    "  var u8 = r.u8, dv = r.dv, p = r.p, t = u8[p++], n, o, i;\n"
    "  r.p = p;\n"
    "  switch (t) {\n"
    "    case 0: return undefined;\n"
    "    case 1: return null;\n"
    "    case 2: return false;\n"
    "    case 3: return true;\n"
    "    case 4: r.p = p + 4; return dv.getInt32(p, true);\n"
    "    case 6: r.p = p + 8; return dv.getFloat64(p, true);\n"
    "    case 8: return text(r, false);\n"
    "    case 9: return text(r, true);\n"
    "    case 13: n = dv.getUint32(p, true); r.p = p + 4; o = {}; r.objs.push(o); rpush(r, 13, o, n); return o;\n"
    "    case 10: n = dv.getUint32(p, true); r.p = p + 4; o = []; r.objs.push(o); rpush(r, 10, o, n); return o;\n"
    "    case 11: case 12:\n"
    "      n = dv.getUint32(p, true); p += 4; o = [];\n"
    "      if (t === 11) for (i = 0; i < n; i++, p += 8) o.push(dv.getFloat64(p, true));\n"
    "      else for (i = 0; i < n; i++, p += 4) o.push(dv.getInt32(p, true));\n"
    "      r.p = p; r.objs.push(o); return o;\n"
    "    case 20: r.p = p + 4; return r.objs[dv.getUint32(p, true)];\n"
    "    case 5: {\n"
    "      var lo = dv.getUint32(p, true), hi = dv.getInt32(p + 4, true); r.p = p + 8;\n"
    "      if (hi >= -2097152 && hi < 2097152 && !(hi === -2097152 && lo === 0)) return hi * 4294967296 + lo;\n"
    "      return dv.getBigInt64(p, true);\n"
    "    }\n"
    "    case 7: {\n"
    "      var neg = u8[p] === 1; n = dv.getUint32(p + 1, true); p += 5;\n"
    "      var h = '';\n"
    "      for (i = n - 1; i >= 0; i--) h += (u8[p + i] < 16 ? '0' : '') + u8[p + i].toString(16);\n"
    "      r.p = p + n;\n"
    "      var b = BigInt('0x' + (h || '0'));\n"
    "      return neg ? -b : b;\n"
    "    }\n"
    "    case 15: n = dv.getUint32(p, true); r.p = p + 4; o = new Map(); r.objs.push(o); rpush(r, 15, o, 2 * n); return o;\n"
    "    case 16: n = dv.getUint32(p, true); r.p = p + 4; o = new Set(); r.objs.push(o); rpush(r, 16, o, n); return o;\n"
    "    case 17: r.p = p + 8; o = new Date(dv.getFloat64(p, true)); r.objs.push(o); return o;\n"
    "    case 18: {\n"
    "      var kind = u8[p]; n = dv.getUint32(p + 1, true); p += 5;\n"
    "      var copy = r.ab.slice(p, p + n); r.p = p + n;\n"
    "      o = kind === 0 ? copy : new CTORS[kind](copy);\n"
    "      r.objs.push(o); return o;\n"
    "    }\n"
    "    case 19: r.p = p + 4; return native.refValue(0, dv.getUint32(p, true));\n"
    "    case 22: r.p = p + 4; return native.refValue(1, dv.getUint32(p, true));\n"
    "    case 21: {\n"
    "      var et = dv.getUint32(p, true); n = dv.getUint32(p + 4, true); r.p = p + 8 + n;\n"
    "      return native.ext(et, r.ab, p + 8, n);\n"
    "    }\n"
    "  }\n"
    "  throw new TypeError('corrupt value: tag ' + t + ' at byte ' + (p - 1));\n"
    "}\n"
    "/* the input buffer C copies small values into (not used by nested reads) */\n"
    "var inAB = new ArrayBuffer(65536), inU8 = new Uint8Array(inAB), inDV = new DataView(inAB);\n"
    "/* decodeIn is never nested (C uses decode for a nested read), so its\n"
    " * Reader and arrays are kept, emptied after each read. */\n"
    "var inR = new Reader(inAB, 0, inU8, inDV);\n"
    "function decodeIn(len, big) {\n"
    "  var r = inR;\n"
    "  r.len = len; r.big = big; r.p = 8; r.sp = 0;\n"
    "  try { return run2(r); }\n"
    "  finally {\n"
    "    r.big = null; r.keys.length = 0; r.objs.length = 0;\n"
    "    for (var t = 0; t < r.sp; t++) { r.sObj[t] = null; r.sKey[t] = undefined; }\n"
    "  }\n"
    "}\n"
    "function decode(ab, len, big) {\n"
    "  var r = new Reader(ab, len, new Uint8Array(ab, 0, len), new DataView(ab, 0, len));\n"
    "  r.big = big;\n"
    "  return run2(r);\n"
    "}\n"
    "/* o[k] = v at one of 16 sites chosen by the key's position, so each site\n"
    " * sees few (shape, key) pairs and JSC caches the store (one shared site\n"
    " * goes generic: a C++ property lookup per key). */\n"
    "function putAt(o, k, v, i) {\n"
    "  switch (i) {\n"
    "    case 0: o[k] = v; return;\n"
    "    case 1: o[k] = v; return;\n"
    "    case 2: o[k] = v; return;\n"
    "    case 3: o[k] = v; return;\n"
    "    case 4: o[k] = v; return;\n"
    "    case 5: o[k] = v; return;\n"
    "    case 6: o[k] = v; return;\n"
    "    case 7: o[k] = v; return;\n"
    "    case 8: o[k] = v; return;\n"
    "    case 9: o[k] = v; return;\n"
    "    case 10: o[k] = v; return;\n"
    "    case 11: o[k] = v; return;\n"
    "    case 12: o[k] = v; return;\n"
    "    case 13: o[k] = v; return;\n"
    "    case 14: o[k] = v; return;\n"
    "    case 15: o[k] = v; return;\n"
    "  }\n"
    "  o[k] = v;\n"
    "}\n"
    "function run2(r) {\n"
    "  var root = val(r), u8 = r.u8, dv = r.dv, sLeft = r.sLeft, sKind = r.sKind, sObj = r.sObj, keys = r.keys;\n"
    "  while (r.sp > 0) {\n"
    "    var t = r.sp - 1, left = sLeft[t], kd = sKind[t], o = sObj[t];\n"
    "    if (kd === 13) {\n"
    "      while (left > 0) {\n"
    "        left--;\n"
    "        var k, p = r.p;\n"
    "        if (u8[p] === 14) { k = keys[dv.getUint32(p + 1, true)]; r.p = p + 5; }\n"
    "        else { r.p = p + 1; k = u8[p] === 9 ? text(r, true) : keyText(r); keys.push(k); }\n"
    "        var v = val(r);\n"
    "        if (k === '__proto__') Object.defineProperty(o, k, {value: v, writable: true, enumerable: true, configurable: true});\n"
    "        else putAt(o, k, v, r.sN[t] - left - 1);\n"
    "        if (r.sp !== t + 1) break;\n"
    "      }\n"
    "    } else if (kd === 10) {\n"
    "      while (left > 0) { left--; o.push(val(r)); if (r.sp !== t + 1) break; }\n"
    "    } else if (kd === 15) {\n"
    "      if (left > 0) {\n"
    "        left--;\n"
    "        if (!r.sHave[t]) { r.sKey[t] = val(r); r.sHave[t] = true; }\n"
    "        else { var mv = val(r); o.set(r.sKey[t], mv); r.sKey[t] = undefined; r.sHave[t] = false; }\n"
    "      }\n"
    "    } else {\n"
    "      while (left > 0) { left--; o.add(val(r)); if (r.sp !== t + 1) break; }\n"
    "    }\n"
    "    sLeft[t] = left;\n"
    "    if (left === 0 && r.sp === t + 1) { r.sp = t; sObj[t] = null; }\n"
    "  }\n"
    "  return root;\n"
    "}\n"
    "return {encode: encode, decode: decode, decodeIn: decodeIn, inAB: inAB};\n"
    "})\n";

/* The conversion in progress on this thread (hooks and flags), for the
 * native callbacks; saved and restored around nested conversions. */
typedef struct js_conv {
  const strait__codec_hooks *hooks;
  unsigned flags;
} js_conv;

static _Thread_local js_conv *cur;

/* native.ref(obj, kind): kind 0 asks java_id, kind 1 js_handle; the id or -1.
 * Inside the gate (a JS callback). */
static JSValueRef nf_ref(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exc) {
  double r = -1;
  if (cur && cur->hooks && argc >= 2) {
    int kind = (int)JSValueToNumber(ctx, argv[1], NULL);
    if (kind == 0 && cur->hooks->java_id && JSValueIsObject(ctx, argv[0])) {
      uint32_t id;
      if (cur->hooks->java_id(cur->hooks->ud, ctx, (JSObjectRef)argv[0], &id)) r = id;
    } else if (kind == 1 && cur->hooks->js_handle && (cur->flags & STRAIT_CODEC_HANDLES)) {
      bool ok = true;
      uint32_t id = cur->hooks->js_handle(cur->hooks->ud, ctx, argv[0], &ok);
      if (!ok) {
        *exc = strait__make_error(ctx, "RangeError", "out of memory while converting a value");
        return NULL;
      }
      r = id;
    }
  }
  return JSValueMakeNumber(ctx, r);
}

/* native.refValue(kind, id): the JS value of a JAVAREF (0) or JSREF (1).
 * Inside the gate. */
static JSValueRef nf_ref_value(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  int kind = argc > 0 ? (int)JSValueToNumber(ctx, argv[0], NULL) : 0;
  uint32_t id = argc > 1 ? (uint32_t)JSValueToNumber(ctx, argv[1], NULL) : 0;
  const strait__codec_hooks *h = cur ? cur->hooks : NULL;
  JSValueRef (*fn)(void *, JSContextRef, uint32_t, JSValueRef *) =
      h ? (kind ? h->js_value : h->java_value) : NULL;
  if (!fn) {
    *exc = strait__make_error(ctx, "TypeError", "value refers to %s (id %u) but no table is attached",
                              kind ? "a JS handle" : "a Java object", id);
    return NULL;
  }
  return fn(h->ud, ctx, id, exc);
}

/* native.ext(type, ab, pos, n): an EXT value through the hook. */
static JSValueRef nf_ext(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exc) {
  const strait__codec_hooks *h = cur ? cur->hooks : NULL;
  if (argc < 4 || !h || !h->ext_value) {
    *exc = strait__make_error(ctx, "TypeError", "value has an extension value but no extension hook");
    return NULL;
  }
  uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[1], NULL);
  size_t at = (size_t)JSValueToNumber(ctx, argv[2], NULL);
  uint32_t n = (uint32_t)JSValueToNumber(ctx, argv[3], NULL);
  return h->ext_value(h->ud, ctx, (uint32_t)JSValueToNumber(ctx, argv[0], NULL), base + at, n, exc);
}

/* native.putString(s, ab, pos): writes the long string s as STRING8 or
 * STRING16 at pos of ab (room for 5 + 2n bytes ensured by the caller);
 * returns the position after it. */
static JSValueRef nf_put_string(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc) {
  JSStringRef s = JSValueToStringCopy(ctx, argv[0], exc);
  if (!s) return NULL;
  uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[1], NULL);
  size_t pos = (size_t)JSValueToNumber(ctx, argv[2], NULL);
  size_t n = JSStringGetLength(s);
  const JSChar *c = JSStringGetCharactersPtr(s);
  uint8_t *p = base + pos;
  JSChar acc = 0;
  size_t i = 0;
  for (; i < n; i++) {
    acc |= c[i];
    if (acc > 0xFF) break;
    p[5 + i] = (uint8_t)c[i];
  }
  bool wide = i < n;
  uint32_t len = (uint32_t)n;
  p[0] = wide ? STRAIT_V_STRING16 : STRAIT_V_STRING8;
  memcpy(p + 1, &len, 4);
  if (wide) memcpy(p + 5, c, n * 2);
  JSStringRelease(s);
  return JSValueMakeNumber(ctx, (double)(pos + 5 + (wide ? n * 2 : n)));
}

/* A JS string whose character i is byte i of p[0, n) (Latin-1); NULL with
 * *exc set when out of memory. Inside the gate. */
static JSValueRef bytes_string(JSContextRef ctx, const uint8_t *p, size_t n, JSValueRef *exc) {
  JSChar *c = malloc(n ? n * sizeof(JSChar) : 1);
  if (!c || !p) {
    free(c);
    *exc = strait__make_error(ctx, "RangeError", "out of memory for the strings of a value");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) c[i] = p[i];
  JSStringRef s = JSStringCreateWithCharacters(c, n);
  free(c);
  JSValueRef r = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return r;
}

/* native.bytesAsString(ab, len): one string whose character i is byte i
 * of ab (Latin-1), for the reader's substrings. */
static JSValueRef nf_bytes_as_string(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                     const JSValueRef argv[], JSValueRef *exc) {
  const uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[0], NULL);
  return bytes_string(ctx, base, (size_t)JSValueToNumber(ctx, argv[1], NULL), exc);
}

/* native.makeString(ab, pos, n, wide): a JS string of n Latin-1 bytes or
 * UTF-16 units at pos of ab. */
static JSValueRef nf_make_string(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  const uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[0], NULL);
  size_t at = (size_t)JSValueToNumber(ctx, argv[1], NULL);
  size_t n = (size_t)JSValueToNumber(ctx, argv[2], NULL);
  bool wide = JSValueToBoolean(ctx, argv[3]);
  JSChar *c = malloc(n ? n * sizeof(JSChar) : 1);
  if (!c) {
    *exc = strait__make_error(ctx, "RangeError", "out of memory for a string of %zu characters", n);
    return NULL;
  }
  if (wide) memcpy(c, base + at, n * 2);
  else for (size_t i = 0; i < n; i++) c[i] = base[at + i];
  JSStringRef s = JSStringCreateWithCharacters(c, n);
  free(c);
  JSValueRef r = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return r;
}

/* Property names used on every conversion, made once per process
 * (JSStringRefs are immutable and may be shared between threads). */
static JSStringRef name_codec, name_encode, name_decode, name_decode_in, name_in_ab;

/* Reads in progress on this thread: a nested read must not reuse the
 * runtime's input buffer, which the outer read is still reading. */
static _Thread_local int reading;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void make_names(void) {
  name_in_ab = JSStringCreateWithUTF8CString("inAB");
  name_decode_in = JSStringCreateWithUTF8CString("decodeIn");
  name_codec = JSStringCreateWithUTF8CString("codec");
  name_encode = JSStringCreateWithUTF8CString("encode");
  name_decode = JSStringCreateWithUTF8CString("decode");
}

/* The runtime's codec object {encode, decode}, compiled on first
 * use. NULL with *exc set when that failed. Inside the gate. */
static JSObjectRef codec_object(strait_runtime *rt, JSValueRef *exc) {
  JSContextRef ctx = rt->ctx;
  if (!rt->internal) return NULL;
  pthread_once(&names_once, make_names);
  JSValueRef c = JSObjectGetProperty(ctx, rt->internal, name_codec, NULL);
  if (JSValueIsObject(ctx, c)) return (JSObjectRef)c;
  JSStringRef key = JSStringCreateWithUTF8CString("codec");
  JSStringRef src = JSStringCreateWithUTF8CString(codec_js_source);
  JSStringRef url = JSStringCreateWithUTF8CString("strait:codec.js");
  JSValueRef fn = JSEvaluateScript(ctx, src, NULL, url, 1, exc);
  JSStringRelease(src);
  JSStringRelease(url);
  JSObjectRef result = NULL;
  if (fn && JSValueIsObject(ctx, fn)) {
    JSObjectRef native = JSObjectMake(ctx, NULL, NULL);
    strait__set_function(ctx, native, "ref", nf_ref);
    strait__set_function(ctx, native, "refValue", nf_ref_value);
    strait__set_function(ctx, native, "ext", nf_ext);
    strait__set_function(ctx, native, "putString", nf_put_string);
    strait__set_function(ctx, native, "makeString", nf_make_string);
    strait__set_function(ctx, native, "bytesAsString", nf_bytes_as_string);
    JSValueRef arg = native;
    JSValueRef obj = JSObjectCallAsFunction(ctx, (JSObjectRef)fn, NULL, 1, &arg, exc);
    if (obj && JSValueIsObject(ctx, obj)) {
      JSObjectSetProperty(ctx, rt->internal, key, obj, kJSPropertyAttributeDontEnum, NULL);
      result = (JSObjectRef)obj;
    }
  }
  JSStringRelease(key);
  return result;
}

/* Calls codec[name](args) with the thread's current conversion set; codec
 * is the runtime's codec object if the caller has it, else NULL. */
static JSValueRef call_codec(strait_runtime *rt, JSObjectRef codec, const char *name, size_t argc,
                             const JSValueRef *argv, js_conv *conv, JSValueRef *exc) {
  if (!codec) codec = codec_object(rt, exc);
  if (!codec) return NULL;
  pthread_once(&names_once, make_names);
  JSStringRef key = name[0] == 'e' ? name_encode : strcmp(name, "decode") == 0 ? name_decode : name_decode_in;
  JSValueRef fn = JSObjectGetProperty(rt->ctx, codec, key, NULL);
  if (!JSValueIsObject(rt->ctx, fn)) return NULL;
  js_conv *saved = cur;
  cur = conv;
  JSValueRef r = JSObjectCallAsFunction(rt->ctx, (JSObjectRef)fn, codec, argc, argv, exc);
  cur = saved;
  return r;
}

/* Writes v into out (emptied first) with the JS writer; same contract as
 * strait__codec_write. Inside the gate. */
int strait__codec_js_write(strait_runtime *rt, JSValueRef v, strait__vbuf *out, unsigned flags,
                           const strait__codec_hooks *hooks, strait__codec_error *err,
                           JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  js_conv conv = {hooks, flags};
  JSValueRef exc = NULL;
  JSValueRef args[3] = {v, JSValueMakeNumber(ctx, flags), JSValueMakeBoolean(ctx, hooks != NULL)};
  err->status = 0;
  err->offset = 0;
  err->msg[0] = 0;
  out->len = 0;
  JSValueRef r = call_codec(rt, NULL, "encode", 3, args, &conv, &exc);
  if (!r) {
    err->status = STRAIT_EJS;
    snprintf(err->msg, sizeof err->msg, "JavaScript exception while converting a value");
    if (exception) *exception = exc;
    return STRAIT_EJS;
  }
  if (JSValueIsString(ctx, r)) {
    char *m = strait__utf8_from_value(ctx, r, NULL);
    err->status = STRAIT_ETYPE;
    snprintf(err->msg, sizeof err->msg, "%s", m ? m : "cannot convert a value");
    free(m);
    return STRAIT_ETYPE;
  }
  const uint8_t *p = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)r, NULL);
  if (!p) {
    err->status = STRAIT_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "no bytes from the JS writer");
    return STRAIT_ENOMEM;
  }
  uint32_t vlen;
  memcpy(&vlen, p + 4, 4);
  size_t n = (size_t)vlen + STRAIT_V_HEADER;
  if (!strait__vbuf_need(out, n)) {
    err->status = STRAIT_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory for a value of %zu bytes", n);
    return STRAIT_ENOMEM;
  }
  memcpy(out->data, p, n);
  out->len = n;
  return 0;
}

/* Deallocator of ArrayBuffers lent over the caller's memory: nothing to free. */
static void lent_dealloc(void *bytes, void *ctx) {
  (void)bytes;
  (void)ctx;
}

/* Validates buf (as strait__codec_validate) and sets *latin_end to the end
 * offset of the last Latin-1 string of two or more characters (value or
 * key; 0 if none): the reader's substrings come from a string of the
 * buffer's bytes up to there. Any thread (pure C). */
static int validate_scan(const uint8_t *buf, size_t size, strait__codec_error *err, size_t *latin_end) {
  strait__vparser ps;
  strait__vev ev;
  size_t end = 0;
  int rc = strait__vparser_init(&ps, buf, size, err);
  while (!rc) {
    rc = strait__vparser_next(&ps, &ev, err);
    if (rc || ev.type == STRAIT_VEV_DONE) break;
    bool latin = (ev.type == STRAIT_VEV_VALUE && ev.tag == STRAIT_V_STRING8) ||
                 (ev.type == STRAIT_VEV_KEY && !ev.kind);
    if (latin && ev.len >= 2 && (size_t)(ev.data - buf) + ev.len > end) end = (size_t)(ev.data - buf) + ev.len;
  }
  strait__vparser_free(&ps);
  *latin_end = end;
  return rc;
}

/* Reads buf with the JS reader after validating it in C; same contract as
 * strait__codec_read. The bytes are lent to JS for the call only (the
 * reader copies what it keeps). Inside the gate. */
int strait__codec_js_read(strait_runtime *rt, const uint8_t *buf, size_t size,
                          const strait__codec_hooks *hooks, JSValueRef *result,
                          strait__codec_error *err, JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  size_t latin_end;
  int rc = validate_scan(buf, size, err, &latin_end);
  if (rc) return rc;
  err->status = 0;
  err->msg[0] = 0;
  JSValueRef exc = NULL, r = NULL;
  JSValueRef big = latin_end ? bytes_string(ctx, buf, latin_end, &exc) : JSValueMakeNull(ctx);
  js_conv conv = {hooks, 0};
  JSObjectRef codec = reading ? NULL : codec_object(rt, &exc);
  JSValueRef in = codec ? JSObjectGetProperty(ctx, codec, name_in_ab, NULL) : NULL;
  uint8_t *inp = in && JSValueIsObject(ctx, in) ? JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)in, NULL) : NULL;
  reading++;
  if (!big) {
    /* out of memory: exc is set */
  } else if (inp && size <= JSObjectGetArrayBufferByteLength(ctx, (JSObjectRef)in, NULL)) {
    /* small value, outermost read: copy into the runtime's input buffer */
    memcpy(inp, buf, size);
    JSValueRef args[2] = {JSValueMakeNumber(ctx, (double)size), big};
    r = call_codec(rt, codec, "decodeIn", 2, args, &conv, &exc);
  } else if (!exc) {
    JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, (void *)buf, size, lent_dealloc, NULL, &exc);
    if (ab) {
      JSValueRef args[3] = {ab, JSValueMakeNumber(ctx, (double)size), big};
      r = call_codec(rt, codec, "decode", 3, args, &conv, &exc);
    }
  }
  reading--;
  if (!r) {
    err->status = STRAIT_EJS;
    snprintf(err->msg, sizeof err->msg, "JavaScript exception while creating a value");
    if (exception) *exception = exc;
    return STRAIT_EJS;
  }
  *result = r;
  return 0;
}

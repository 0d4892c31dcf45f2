/*
 * codec_write.c - JS value -> value-format buffer, over the JavaScriptCore C
 * API. Iterative (an explicit heap stack of open containers), so depth is
 * bounded by memory; sharing and cycles become BACKREFs.
 */
#include "codec.h"
#include "value.h"
#include "common/ptrmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wframe {
  uint8_t tag;                 /* OBJECT, ARRAY, MAP (flat k,v list) or SET (list) */
  JSObjectRef obj;             /* pinned: the object, array or list */
  JSPropertyNameArrayRef names; /* OBJECT: owned, released on pop */
  uint32_t i, n;               /* next item, items */
} wframe;

typedef struct wkey {
  uint64_t hash;
  size_t off;                  /* offset of the key's characters in the output */
  uint32_t len;
  uint32_t index;
  bool wide;
  bool used;
} wkey;

typedef struct writer {
  JSContextRef ctx;
  strait_buffer *out;
  unsigned flags;
  const strait_value_hooks *hooks;
  strait_value_error *err;
  JSValueRef exc;              /* pending JS exception (on the C stack: scanned) */
  wframe *stack;
  size_t depth, cap;
  strait__ptrmap ids;          /* identity table: object -> composite index */
  uint32_t ncomposites;
  wkey *keys;
  size_t keys_cap, nkeys;
  JSObjectRef pins;            /* JS array keeping every visited object alive */
  unsigned npins;
  JSValueRef object_proto;
  JSObjectRef map_ctor, set_ctor, dataview_ctor, array_from, is_array;
  JSStringRef s_length;
  double *nums;
  size_t nums_cap;
  uint64_t holes;              /* holes of arrays met so far */
  uint64_t seen;               /* array elements met so far, holes included */
} writer;

/* ---- errors ---- */

/* Out of memory. */
static int w_nomem(writer *w) {
  w->err->status = STRAIT_ENOMEM;
  snprintf(w->err->msg, sizeof w->err->msg, "out of memory while converting a value");
  return STRAIT_ENOMEM;
}

/* Appends s to the path buffer (truncating quietly). */
static void path_add(char *buf, size_t cap, size_t *n, const char *s, size_t len) {
  if (*n >= cap - 1) return;
  if (len > cap - 1 - *n) len = cap - 1 - *n;
  memcpy(buf + *n, s, len);
  *n += len;
  buf[*n] = 0;
}

/* True if key is a plain identifier ($.key), else it is written ["key"]. */
static bool is_ident(const char *s, size_t len) {
  if (!len || (s[0] >= '0' && s[0] <= '9')) return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'))
      return false;
  }
  return true;
}

/* The path of the item being written, from the frames: "$.a.b[3]". */
static void build_path(writer *w, char *buf, size_t cap) {
  size_t n = 0;
  char tmp[64];
  buf[0] = 0;
  path_add(buf, cap, &n, "$", 1);
  for (size_t d = 0; d < w->depth; d++) {
    wframe *f = &w->stack[d];
    uint32_t i = f->i ? f->i - 1 : 0;
    if (f->tag == STRAIT_V_OBJECT) {
      size_t klen;
      char *k = strait_utf8_from_jsstring(JSPropertyNameArrayGetNameAtIndex(f->names, i), &klen);
      if (!k) return;
      if (is_ident(k, klen)) {
        path_add(buf, cap, &n, ".", 1);
        path_add(buf, cap, &n, k, klen);
      } else {
        path_add(buf, cap, &n, "[\"", 2);
        for (size_t j = 0; j < klen; j++) {
          if (k[j] == '"' || k[j] == '\\') path_add(buf, cap, &n, "\\", 1);
          path_add(buf, cap, &n, k + j, 1);
        }
        path_add(buf, cap, &n, "\"]", 2);
      }
      free(k);
    } else if (f->tag == STRAIT_V_ARRAY) {
      int m = snprintf(tmp, sizeof tmp, "[%u]", i);
      path_add(buf, cap, &n, tmp, (size_t)m);
    } else if (f->tag == STRAIT_V_MAP) {
      int m = snprintf(tmp, sizeof tmp, "<Map %s %u>", i % 2 ? "value" : "key", i / 2);
      path_add(buf, cap, &n, tmp, (size_t)m);
    } else {
      int m = snprintf(tmp, sizeof tmp, "<Set %u>", i);
      path_add(buf, cap, &n, tmp, (size_t)m);
    }
  }
}

/* A value that cannot cross: STRAIT_ETYPE naming what and where. */
static int w_cannot(writer *w, const char *what) {
  char path[200];
  build_path(w, path, sizeof path);
  w->err->status = STRAIT_ETYPE;
  snprintf(w->err->msg, sizeof w->err->msg, "cannot convert %s at %s", what, path);
  return STRAIT_ETYPE;
}

/* A JS exception was thrown by a getter or helper. */
static int w_threw(writer *w) {
  w->err->status = STRAIT_EJS;
  snprintf(w->err->msg, sizeof w->err->msg, "JavaScript exception while converting a value");
  return STRAIT_EJS;
}

/* A limit was passed: a JS RangeError "cannot convert <what> at <path>"
 * (STRAIT_EJS, as the JS writer throws it). */
static int w_range(writer *w, const char *what) {
  char path[200];
  build_path(w, path, sizeof path);
  w->exc = strait_make_error(w->ctx, "RangeError", "cannot convert %s at %s", what, path);
  return w_threw(w);
}

/* ---- output ---- */

#define NEED(w, n) do { if (!strait__vbuf_need((w)->out, (n))) return w_nomem(w); } while (0)

static inline void put_u8(writer *w, uint8_t v) { w->out->data[w->out->len++] = v; }
static inline void put_u32(writer *w, uint32_t v) {
  memcpy(w->out->data + w->out->len, &v, 4);
  w->out->len += 4;
}
static inline void put_f64(writer *w, double v) {
  memcpy(w->out->data + w->out->len, &v, 8);
  w->out->len += 8;
}

/* Writes a number by the INT32 / INT64 / DOUBLE rule. */
static int write_number(writer *w, double d) {
  NEED(w, 9);
  if (d >= -2147483648.0 && d <= 2147483647.0) {
    int32_t i = (int32_t)d;
    if ((double)i == d && !(i == 0 && signbit(d))) {
      put_u8(w, STRAIT_V_INT32);
      put_u32(w, (uint32_t)i);
      return 0;
    }
  } else if (d >= -9007199254740991.0 && d <= 9007199254740991.0) {
    int64_t l = (int64_t)d;
    if ((double)l == d) {
      put_u8(w, STRAIT_V_INT64);
      memcpy(w->out->data + w->out->len, &l, 8);
      w->out->len += 8;
      return 0;
    }
  }
  put_u8(w, STRAIT_V_DOUBLE);
  put_f64(w, d);
  return 0;
}

/* Writes UTF-16 text as STRING8 when every unit is below 256, else
 * STRING16. Returns 0 and the offset of the characters in *off. */
static int write_chars(writer *w, const JSChar *c, size_t n, size_t *off, bool *wide_out) {
  if (n > UINT32_MAX) { w->err->status = STRAIT_ERANGE; snprintf(w->err->msg, sizeof w->err->msg, "string too long"); return STRAIT_ERANGE; }
  NEED(w, 5 + n * 2);
  uint8_t *p = w->out->data + w->out->len;
  JSChar acc = 0;
  size_t i = 0;
  for (; i < n; i++) {
    acc |= c[i];
    if (acc > 0xFF) break;
    p[5 + i] = (uint8_t)c[i];
  }
  bool wide = i < n;
  p[0] = wide ? STRAIT_V_STRING16 : STRAIT_V_STRING8;
  uint32_t len = (uint32_t)n;
  memcpy(p + 1, &len, 4);
  if (wide) memcpy(p + 5, c, n * 2);
  *off = w->out->len + 5;
  w->out->len += 5 + (wide ? n * 2 : n);
  if (wide_out) *wide_out = wide;
  return 0;
}

/* Writes a JS string value. */
static int write_string(writer *w, JSValueRef v) {
  JSStringRef s = JSValueToStringCopy(w->ctx, v, NULL);
  if (!s) return w_nomem(w);
  size_t off;
  int rc = write_chars(w, JSStringGetCharactersPtr(s), JSStringGetLength(s), &off, NULL);
  JSStringRelease(s);
  return rc;
}

/* Hash of UTF-16 text (FNV-1a). */
static uint64_t hash_chars(const JSChar *c, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
  return h ^ n;
}

/* True if the key stored at k equals c[0..n). */
static bool key_equal(writer *w, const wkey *k, const JSChar *c, size_t n) {
  if (k->len != n) return false;
  const uint8_t *p = w->out->data + k->off;
  if (k->wide) return memcmp(p, c, n * 2) == 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] != c[i]) return false;
  return true;
}

/* Grows the key table (open addressing, power of two). */
static bool keys_grow(writer *w) {
  size_t nc = w->keys_cap ? w->keys_cap * 2 : 64;
  wkey *nk = calloc(nc, sizeof *nk);
  if (!nk) return false;
  for (size_t i = 0; i < w->keys_cap; i++) {
    if (!w->keys[i].used) continue;
    size_t j = (size_t)w->keys[i].hash & (nc - 1);
    while (nk[j].used) j = (j + 1) & (nc - 1);
    nk[j] = w->keys[i];
  }
  free(w->keys);
  w->keys = nk;
  w->keys_cap = nc;
  return true;
}

/* Writes an object key: KEYREF if the same text was written before. */
static int write_key(writer *w, JSStringRef name) {
  const JSChar *c = JSStringGetCharactersPtr(name);
  size_t n = JSStringGetLength(name);
  if (w->flags & STRAIT_CODEC_NO_KEYREF) {
    size_t off;
    return write_chars(w, c, n, &off, NULL);
  }
  if ((w->nkeys + 1) * 2 > w->keys_cap && !keys_grow(w)) return w_nomem(w);
  uint64_t h = hash_chars(c, n);
  size_t j = (size_t)h & (w->keys_cap - 1);
  while (w->keys[j].used) {
    if (w->keys[j].hash == h && key_equal(w, &w->keys[j], c, n)) {
      NEED(w, 5);
      put_u8(w, STRAIT_V_KEYREF);
      put_u32(w, w->keys[j].index);
      return 0;
    }
    j = (j + 1) & (w->keys_cap - 1);
  }
  size_t off;
  bool wide;
  int rc = write_chars(w, c, n, &off, &wide);
  if (rc) return rc;
  w->keys[j] = (wkey){.hash = h, .off = off, .len = (uint32_t)n, .index = (uint32_t)w->nkeys++,
                      .wide = wide, .used = true};
  return 0;
}

/* ---- identity ---- */

/* Index of o if it was written before, else UINT32_MAX. */
static uint32_t id_find(writer *w, JSObjectRef o) {
  uintptr_t v;
  return strait__ptrmap_get(&w->ids, o, &v) ? (uint32_t)v : UINT32_MAX;
}

/* Gives o the next composite index and pins it (alive until the end). */
static int id_add(writer *w, JSObjectRef o) {
  if (strait__ptrmap_put(&w->ids, o, w->ncomposites)) return w_nomem(w);
  w->ncomposites++;
  JSObjectSetPropertyAtIndex(w->ctx, w->pins, w->npins++, o, NULL);
  return 0;
}

/* ---- containers ---- */

/* Opens a container frame over obj with n items. */
static int push(writer *w, uint8_t tag, JSObjectRef obj, JSPropertyNameArrayRef names, uint32_t n) {
  if (w->depth == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 32;
    wframe *ns = realloc(w->stack, nc * sizeof *ns);
    if (!ns) {
      if (names) JSPropertyNameArrayRelease(names);
      return w_nomem(w);
    }
    w->stack = ns;
    w->cap = nc;
  }
  w->stack[w->depth++] = (wframe){tag, obj, names, 0, n};
  return 0;
}

/* A global constructor or function by name (NULL if missing). */
static JSObjectRef global_obj(writer *w, const char *name) {
  JSValueRef v = strait_get_property(w->ctx, JSContextGetGlobalObject(w->ctx), name);
  return JSValueIsObject(w->ctx, v) ? (JSObjectRef)v : NULL;
}

/* Array.from(o), flattened one level for Maps: [k0, v0, k1, v1, ...]. */
static JSObjectRef list_of(writer *w, JSObjectRef o, bool flat) {
  if (!w->array_from) {
    JSObjectRef arr = global_obj(w, "Array");
    JSValueRef f = arr ? strait_get_property(w->ctx, arr, "from") : NULL;
    if (!f || !JSValueIsObject(w->ctx, f)) return NULL;
    w->array_from = (JSObjectRef)f;
  }
  JSValueRef arg = o;
  JSValueRef r = JSObjectCallAsFunction(w->ctx, w->array_from, NULL, 1, &arg, &w->exc);
  if (!r || !JSValueIsObject(w->ctx, r)) return NULL;
  if (flat) {
    JSValueRef fl = strait_get_property(w->ctx, (JSObjectRef)r, "flat");
    if (!JSValueIsObject(w->ctx, fl)) return NULL;
    r = JSObjectCallAsFunction(w->ctx, (JSObjectRef)fl, (JSObjectRef)r, 0, NULL, &w->exc);
    if (!r || !JSValueIsObject(w->ctx, r)) return NULL;
  }
  return (JSObjectRef)r;
}

static int write_value(writer *w, JSValueRef v);

/* Length of an array-like: its "length" read once, as ToLength does
 * (NaN and negatives are 0), not clamped, so the caller can refuse a
 * length past the limits. */
static double length_of(writer *w, JSObjectRef o) {
  if (!w->s_length) w->s_length = JSStringCreateWithUTF8CString("length");
  JSValueRef lv = JSObjectGetProperty(w->ctx, o, w->s_length, &w->exc);
  if (!lv) return 0;
  double d = JSValueToNumber(w->ctx, lv, &w->exc);
  return d >= 1 ? floor(d) : 0;
}

/* Element i of an array read as undefined: counts it against
 * STRAIT_V_MAX_HOLES when it is a hole. */
static int count_hole(writer *w, JSObjectRef o, uint32_t i) {
  bool has = JSObjectHasPropertyForKey(w->ctx, o, JSValueMakeNumber(w->ctx, i), &w->exc);
  if (w->exc) return w_threw(w);
  if (!has && ++w->holes > STRAIT_V_MAX_HOLES && w->holes - STRAIT_V_MAX_HOLES > w->seen - w->holes) {
    char what[160];
    snprintf(what, sizeof what, "a sparse array whose holes outnumber its elements by more than %u",
             STRAIT_V_MAX_HOLES);
    return w_range(w, what);
  }
  return 0;
}

/* Writes an array: packed (ARRAY_I32 / ARRAY_F64) when every element is a
 * number, else an ARRAY frame. Each element is read once (a getter runs
 * once): the numbers read before the first other value are written as
 * scalars, then that value, and the frame resumes after it. The length is
 * checked against the limits before any element is read. */
static int write_array(writer *w, JSObjectRef o) {
  double d = length_of(w, o);
  if (w->exc) return w_threw(w);
  char what[160];
  if (d > STRAIT_V_MAX_ARRAY) {
    snprintf(what, sizeof what, "an array of length %.0f (a Java List holds at most %u elements)", d,
             STRAIT_V_MAX_ARRAY);
    return w_range(w, what);
  }
  uint32_t n = (uint32_t)d;
  if (w->out->len + 5 + (size_t)n > STRAIT_V_MAX_BYTES) {
    snprintf(what, sizeof what, "an array of length %u (a value holds at most %u bytes)", n,
             STRAIT_V_MAX_BYTES);
    return w_range(w, what);
  }
  uint32_t k = 0;
  bool all_int = true;
  JSValueRef e = NULL;
  for (; k < n; k++) {
    e = JSObjectGetPropertyAtIndex(w->ctx, o, k, &w->exc);
    if (w->exc) return w_threw(w);
    if (!JSValueIsNumber(w->ctx, e)) break;
    if (k == w->nums_cap) {
      size_t nc = w->nums_cap < 1024 ? 1024 : w->nums_cap * 2;
      if (nc > n) nc = n;
      double *nn = realloc(w->nums, nc * sizeof *nn);
      if (!nn) return w_nomem(w);
      w->nums = nn;
      w->nums_cap = nc;
    }
    double x = JSValueToNumber(w->ctx, e, NULL);
    w->nums[k] = x;
    if (all_int && !(x >= -2147483648.0 && x <= 2147483647.0 && (double)(int32_t)x == x &&
                     !(x == 0 && signbit(x))))
      all_int = false;
  }
  w->seen += k;
  if (n && k == n) {
    NEED(w, 5 + (size_t)n * 8);
    put_u8(w, all_int ? STRAIT_V_ARRAY_I32 : STRAIT_V_ARRAY_F64);
    put_u32(w, n);
    if (all_int) {
      for (uint32_t i = 0; i < n; i++) put_u32(w, (uint32_t)(int32_t)w->nums[i]);
    } else {
      memcpy(w->out->data + w->out->len, w->nums, (size_t)n * 8);
      w->out->len += (size_t)n * 8;
    }
    return 0;
  }
  NEED(w, 5);
  put_u8(w, STRAIT_V_ARRAY);
  put_u32(w, n);
  if (n == 0) return 0;
  for (uint32_t i = 0; i < k; i++) {
    int rc = write_number(w, w->nums[i]);
    if (rc) return rc;
  }
  int rc = push(w, STRAIT_V_ARRAY, o, NULL, n);
  if (rc) return rc;
  w->stack[w->depth - 1].i = k + 1;
  w->seen++;
  if (JSValueIsUndefined(w->ctx, e) && (rc = count_hole(w, o, k))) return rc;
  return write_value(w, e);
}

/* Writes a plain object's enumerable properties as an OBJECT frame. */
static int write_plain(writer *w, JSObjectRef o) {
  JSPropertyNameArrayRef names = JSObjectCopyPropertyNames(w->ctx, o);
  size_t n = JSPropertyNameArrayGetCount(names);
  NEED(w, 5);
  put_u8(w, STRAIT_V_OBJECT);
  put_u32(w, (uint32_t)n);
  return push(w, STRAIT_V_OBJECT, o, names, (uint32_t)n);
}

/* JSC typed array type -> BYTES kind. */
static int bytes_kind(JSTypedArrayType t) {
  switch (t) {
    case kJSTypedArrayTypeArrayBuffer: return STRAIT_VB_ARRAYBUFFER;
    case kJSTypedArrayTypeInt8Array: return STRAIT_VB_INT8;
    case kJSTypedArrayTypeUint8Array: return STRAIT_VB_UINT8;
    case kJSTypedArrayTypeUint8ClampedArray: return STRAIT_VB_UINT8C;
    case kJSTypedArrayTypeInt16Array: return STRAIT_VB_INT16;
    case kJSTypedArrayTypeUint16Array: return STRAIT_VB_UINT16;
    case kJSTypedArrayTypeInt32Array: return STRAIT_VB_INT32;
    case kJSTypedArrayTypeUint32Array: return STRAIT_VB_UINT32;
    case kJSTypedArrayTypeFloat32Array: return STRAIT_VB_FLOAT32;
    case kJSTypedArrayTypeFloat64Array: return STRAIT_VB_FLOAT64;
    case kJSTypedArrayTypeBigInt64Array: return STRAIT_VB_BIGINT64;
    case kJSTypedArrayTypeBigUint64Array: return STRAIT_VB_BIGUINT64;
    default: return -1;
  }
}

/* Writes BYTES of kind with n bytes at p. */
static int write_bytes(writer *w, int kind, const void *p, size_t n) {
  if (n > UINT32_MAX) { w->err->status = STRAIT_ERANGE; snprintf(w->err->msg, sizeof w->err->msg, "byte array over 4 GiB"); return STRAIT_ERANGE; }
  NEED(w, 6 + n);
  put_u8(w, STRAIT_V_BYTES);
  put_u8(w, (uint8_t)kind);
  put_u32(w, (uint32_t)n);
  if (n) memcpy(w->out->data + w->out->len, p, n);
  w->out->len += n;
  return 0;
}

/* Writes a DataView's bytes (kind 12). */
static int write_dataview(writer *w, JSObjectRef o) {
  JSValueRef buf = strait_get_property(w->ctx, o, "buffer");
  double off = JSValueToNumber(w->ctx, strait_get_property(w->ctx, o, "byteOffset"), NULL);
  double len = JSValueToNumber(w->ctx, strait_get_property(w->ctx, o, "byteLength"), NULL);
  if (!JSValueIsObject(w->ctx, buf)) return w_cannot(w, "a detached DataView");
  uint8_t *p = JSObjectGetArrayBufferBytesPtr(w->ctx, (JSObjectRef)buf, NULL);
  size_t total = JSObjectGetArrayBufferByteLength(w->ctx, (JSObjectRef)buf, NULL);
  if (!(off >= 0 && len >= 0 && off + len <= (double)total)) return w_cannot(w, "a DataView out of its buffer");
  return write_bytes(w, STRAIT_VB_DATAVIEW, p ? p + (size_t)off : NULL, p ? (size_t)len : 0);
}

/* Writes a function or symbol: a JSREF handle when allowed, else an error. */
static int write_handle(writer *w, JSValueRef v, const char *what) {
  if ((w->flags & STRAIT_VALUE_HANDLES) && w->hooks && w->hooks->js_handle) {
    bool ok = true;
    uint32_t id = w->hooks->js_handle(w->hooks->ud, w->ctx, v, &ok);
    if (!ok) return w_nomem(w);
    NEED(w, 5);
    put_u8(w, STRAIT_V_JSREF);
    put_u32(w, id);
    return 0;
  }
  return w_cannot(w, what);
}

/* Array.isArray(o) for what JSValueIsArray misses (a Proxy of an array),
 * as the JS writer sees it. */
static bool is_proxy_array(writer *w, JSObjectRef o) {
  if (!w->is_array) {
    JSObjectRef arr = global_obj(w, "Array");
    JSValueRef f = arr ? strait_get_property(w->ctx, arr, "isArray") : NULL;
    if (!f || !JSValueIsObject(w->ctx, f)) return false;
    w->is_array = (JSObjectRef)f;
  }
  JSValueRef arg = o;
  JSValueRef r = JSObjectCallAsFunction(w->ctx, w->is_array, NULL, 1, &arg, NULL);
  return r && JSValueToBoolean(w->ctx, r);
}

/* Writes an object of any kind (BACKREF if seen before). */
static int write_object(writer *w, JSObjectRef o) {
  JSContextRef ctx = w->ctx;
  uint32_t seen = id_find(w, o);
  if (seen != UINT32_MAX) {
    NEED(w, 5);
    put_u8(w, STRAIT_V_BACKREF);
    put_u32(w, seen);
    return 0;
  }
  if (JSValueIsArray(ctx, o) || is_proxy_array(w, o)) {
    int rc = id_add(w, o);
    return rc ? rc : write_array(w, o);
  }
  JSValueRef proto = JSObjectGetPrototype(ctx, o);
  if (proto == w->object_proto || JSValueIsNull(ctx, proto)) {
    int rc = id_add(w, o);
    return rc ? rc : write_plain(w, o);
  }
  if (JSObjectIsFunction(ctx, o)) return write_handle(w, o, "a function");
  int kind = bytes_kind(JSValueGetTypedArrayType(ctx, o, NULL));
  if (kind >= 0) {
    int rc = id_add(w, o);
    if (rc) return rc;
    if (kind == STRAIT_VB_ARRAYBUFFER)
      return write_bytes(w, kind, JSObjectGetArrayBufferBytesPtr(ctx, o, NULL),
                         JSObjectGetArrayBufferByteLength(ctx, o, NULL));
    /* the C API's pointer is the start of the whole buffer, not the view */
    uint8_t *p = JSObjectGetTypedArrayBytesPtr(ctx, o, NULL);
    size_t off = JSObjectGetTypedArrayByteOffset(ctx, o, NULL);
    return write_bytes(w, kind, p ? p + off : NULL, JSObjectGetTypedArrayByteLength(ctx, o, NULL));
  }
  if (JSValueIsDate(ctx, o)) {
    double t = JSValueToNumber(ctx, o, &w->exc);
    if (w->exc) return w_threw(w);
    if (!isfinite(t)) return w_cannot(w, "an invalid Date");
    int rc = id_add(w, o);
    if (rc) return rc;
    NEED(w, 9);
    put_u8(w, STRAIT_V_DATE);
    put_f64(w, t);
    return 0;
  }
  if (w->hooks && w->hooks->java_id) {
    uint32_t id;
    if (w->hooks->java_id(w->hooks->ud, ctx, o, &id)) {
      NEED(w, 5);
      put_u8(w, STRAIT_V_JAVAREF);
      put_u32(w, id);
      return 0;
    }
  }
  if (!w->map_ctor) {
    w->map_ctor = global_obj(w, "Map");
    w->set_ctor = global_obj(w, "Set");
    w->dataview_ctor = global_obj(w, "DataView");
  }
  bool is_map = w->map_ctor && JSValueIsInstanceOfConstructor(ctx, o, w->map_ctor, NULL);
  bool is_set = !is_map && w->set_ctor && JSValueIsInstanceOfConstructor(ctx, o, w->set_ctor, NULL);
  if (is_map || is_set) {
    int rc = id_add(w, o);
    if (rc) return rc;
    JSObjectRef list = list_of(w, o, is_map);
    if (!list) return w->exc ? w_threw(w) : w_cannot(w, "a Map or Set (no Array.from)");
    JSObjectSetPropertyAtIndex(ctx, w->pins, w->npins++, list, NULL);
    double d = length_of(w, list);
    if (w->exc) return w_threw(w);
    uint32_t n = d < STRAIT_V_MAX_ARRAY ? (uint32_t)d : STRAIT_V_MAX_ARRAY;
    NEED(w, 5);
    put_u8(w, is_map ? STRAIT_V_MAP : STRAIT_V_SET);
    put_u32(w, is_map ? n / 2 : n);
    return push(w, is_map ? STRAIT_V_MAP : STRAIT_V_SET, list, NULL, n);
  }
  if (w->dataview_ctor && JSValueIsInstanceOfConstructor(ctx, o, w->dataview_ctor, NULL)) {
    int rc = id_add(w, o);
    return rc ? rc : write_dataview(w, o);
  }
  int rc = id_add(w, o);
  return rc ? rc : write_plain(w, o);
}

/* Writes a BigInt as sign + little-endian magnitude (via its decimal text). */
static int write_bigint(writer *w, JSValueRef v) {
  char *s = strait_utf8_from_value(w->ctx, v, NULL);
  if (!s) return w_nomem(w);
  uint8_t *mag;
  size_t n;
  bool neg;
  int rc = strait__bigint_from_decimal(s, strlen(s), &mag, &n, &neg);
  free(s);
  if (rc) return rc == STRAIT_ENOMEM ? w_nomem(w) : w_cannot(w, "a BigInt");
  if (n > UINT32_MAX || !strait__vbuf_need(w->out, 6 + n)) { free(mag); return w_nomem(w); }
  put_u8(w, STRAIT_V_BIGINT);
  put_u8(w, neg ? 1 : 0);
  put_u32(w, (uint32_t)n);
  if (n) memcpy(w->out->data + w->out->len, mag, n);
  w->out->len += n;
  free(mag);
  return 0;
}

/* Writes any value; containers push a frame the main loop fills. */
static int write_value(writer *w, JSValueRef v) {
  switch (JSValueGetType(w->ctx, v)) {
    case kJSTypeUndefined: NEED(w, 1); put_u8(w, STRAIT_V_UNDEFINED); return 0;
    case kJSTypeNull: NEED(w, 1); put_u8(w, STRAIT_V_NULL); return 0;
    case kJSTypeBoolean:
      NEED(w, 1);
      put_u8(w, JSValueToBoolean(w->ctx, v) ? STRAIT_V_TRUE : STRAIT_V_FALSE);
      return 0;
    case kJSTypeNumber: return write_number(w, JSValueToNumber(w->ctx, v, NULL));
    case kJSTypeString: return write_string(w, v);
    case kJSTypeObject: return write_object(w, (JSObjectRef)v);
    case kJSTypeSymbol: return write_handle(w, v, "a symbol");
    case kJSTypeBigInt: return write_bigint(w, v);
  }
  return w_cannot(w, "a value of unknown type");
}

/* Writes v with header into out. Inside the gate. */
int strait__codec_write(JSContextRef ctx, JSValueRef v, strait_buffer *out, unsigned flags,
                        const strait_value_hooks *hooks, strait_value_error *err,
                        JSValueRef *exception) {
  strait_value_error local_err;
  if (!err) err = &local_err;
  err->status = 0;
  err->offset = 0;
  err->msg[0] = 0;
  writer w;
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.out = out;
  w.flags = flags;
  w.hooks = hooks;
  w.err = err;
  w.pins = JSObjectMakeArray(ctx, 0, NULL, NULL);
  w.object_proto = JSObjectGetPrototype(ctx, JSObjectMake(ctx, NULL, NULL));
  out->len = 0;
  int rc = strait__vbuf_header(out) ? 0 : w_nomem(&w);
  if (!rc) rc = write_value(&w, v);
  while (!rc && w.depth) {
    wframe *f = &w.stack[w.depth - 1];
    if (f->i == f->n) {
      if (f->names) JSPropertyNameArrayRelease(f->names);
      w.depth--;
      continue;
    }
    uint32_t i = f->i++;
    JSValueRef e;
    if (f->tag == STRAIT_V_OBJECT) {
      JSStringRef name = JSPropertyNameArrayGetNameAtIndex(f->names, i);
      rc = write_key(&w, name);
      if (rc) break;
      e = JSObjectGetProperty(ctx, f->obj, name, &w.exc);
    } else {
      e = JSObjectGetPropertyAtIndex(ctx, f->obj, i, &w.exc);
      if (f->tag == STRAIT_V_ARRAY) w.seen++;
      if (!w.exc && f->tag == STRAIT_V_ARRAY && JSValueIsUndefined(ctx, e) &&
          (rc = count_hole(&w, f->obj, i)))
        break;
    }
    if (w.exc) { rc = w_threw(&w); break; }
    rc = write_value(&w, e);
  }
  if (!rc && out->failed) rc = w_nomem(&w);
  if (!rc && !strait__vbuf_finish(out)) {
    rc = STRAIT_ERANGE;
    err->status = rc;
    snprintf(err->msg, sizeof err->msg, "value larger than 4 GiB");
  }
  for (size_t d = 0; d < w.depth; d++)
    if (w.stack[d].names) JSPropertyNameArrayRelease(w.stack[d].names);
  if (rc == STRAIT_EJS && exception) *exception = w.exc;
  if (rc) out->len = 0;
  if (w.s_length) JSStringRelease(w.s_length);
  free(w.stack);
  strait__ptrmap_free(&w.ids);
  free(w.keys);
  free(w.nums);
  return rc;
}

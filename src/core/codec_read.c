/*
 * codec_read.c - value-format buffer -> JS value, over the JavaScriptCore C
 * API. Driven by the bounds-checked pull parser (codec_parse.c), so corrupt
 * input ends in STRAIT_ECORRUPT, never an out-of-bounds read; nesting lives
 * on a heap stack.
 */
#include "codec.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rframe {
  JSObjectRef obj;
  uint8_t tag;
  bool have_key;           /* MAP: key holds the pending (protected) key */
  uint32_t i;              /* ARRAY: next index */
  uint32_t key;            /* OBJECT: key index of the pending property */
  JSValueRef mapkey;
} rframe;

typedef struct reader {
  JSContextRef ctx;
  const strait_value_hooks *hooks;
  strait_value_error *err;
  JSValueRef exc;
  rframe *stack;
  size_t depth, cap;
  JSObjectRef refs;        /* JS array of every composite, by index (keeps them alive) */
  JSObjectRef *objs;       /* the same, for BACKREF without a property read */
  size_t nobjs, objs_cap;
  JSStringRef *keys;       /* key table as JS strings, created on first use */
  bool *proto_key;         /* key i is "__proto__" */
  size_t keys_cap;
  JSObjectRef map_ctor, set_ctor, map_set, set_add, define_property, dataview_ctor;
} reader;

/* A JS exception happened (r->exc set). */
static int r_threw(reader *r) {
  r->err->status = STRAIT_EJS;
  snprintf(r->err->msg, sizeof r->err->msg, "JavaScript exception while creating a value");
  return STRAIT_EJS;
}

/* Out of memory. */
static int r_nomem(reader *r) {
  r->err->status = STRAIT_ENOMEM;
  snprintf(r->err->msg, sizeof r->err->msg, "out of memory while creating a value");
  return STRAIT_ENOMEM;
}

/* Throws a TypeError into r->exc and returns EJS. */
static int r_type_error(reader *r, const char *msg, uint32_t id) {
  r->exc = strait_make_error(r->ctx, "TypeError", "%s (id %u)", msg, id);
  return r_threw(r);
}

/* Latin-1 or UTF-16 (little-endian, maybe unaligned) text -> JSStringRef.
 * Pure ASCII without NUL takes JSC's 8-bit path. */
static JSStringRef make_jsstring(const uint8_t *data, uint32_t len, bool wide) {
  if (!len) return JSStringCreateWithUTF8CString("");
  JSChar stackbuf[256];
  if (!wide) {
    bool ascii = true;
    for (uint32_t i = 0; i < len; i++)
      if (data[i] - 1u >= 0x7Fu) { ascii = false; break; }
    if (ascii) {
      char sb[512];
      char *s = len < sizeof sb ? sb : malloc((size_t)len + 1);
      if (!s) return NULL;
      memcpy(s, data, len);
      s[len] = 0;
      JSStringRef r = JSStringCreateWithUTF8CString(s);
      if (s != sb) free(s);
      return r;
    }
  }
  JSChar *c = len <= 256 ? stackbuf : malloc((size_t)len * sizeof(JSChar));
  if (!c && len) return NULL;
  if (wide) {
    if (len) memcpy(c, data, (size_t)len * 2);
  } else {
    for (uint32_t i = 0; i < len; i++) c[i] = data[i];
  }
  JSStringRef r = JSStringCreateWithCharacters(c, len);
  if (c != stackbuf) free(c);
  return r;
}

/* A global object property (constructor or function), or NULL. */
static JSObjectRef global_obj(reader *r, const char *a, const char *b) {
  JSValueRef v = strait_get_property(r->ctx, JSContextGetGlobalObject(r->ctx), a);
  if (b && JSValueIsObject(r->ctx, v)) v = strait_get_property(r->ctx, (JSObjectRef)v, b);
  return JSValueIsObject(r->ctx, v) ? (JSObjectRef)v : NULL;
}

/* Records a new composite (index order = creation order). */
static int add_obj(reader *r, JSObjectRef o) {
  if (r->nobjs == r->objs_cap) {
    size_t nc = r->objs_cap ? r->objs_cap * 2 : 64;
    JSObjectRef *no = realloc(r->objs, nc * sizeof *no);
    if (!no) return r_nomem(r);
    r->objs = no;
    r->objs_cap = nc;
  }
  JSObjectSetPropertyAtIndex(r->ctx, r->refs, (unsigned)r->nobjs, o, NULL);
  r->objs[r->nobjs++] = o;
  return 0;
}

/* The JS string of key i (made once per buffer). */
static JSStringRef key_string(reader *r, const strait__vparser *ps, uint32_t i) {
  if (i >= r->keys_cap) {
    size_t nc = r->keys_cap ? r->keys_cap : 64;
    while (nc <= i) nc *= 2;
    JSStringRef *nk = realloc(r->keys, nc * sizeof *nk);
    if (!nk) return NULL;
    r->keys = nk;
    bool *np = realloc(r->proto_key, nc * sizeof *np);
    if (!np) return NULL;
    r->proto_key = np;
    memset(r->keys + r->keys_cap, 0, (nc - r->keys_cap) * sizeof *nk);
    r->keys_cap = nc;
  }
  if (!r->keys[i]) {
    const strait__vkey *k = strait__vparser_key(ps, i);
    r->keys[i] = make_jsstring(k->data, k->len, k->wide);
    r->proto_key[i] = !k->wide && k->len == 9 && memcmp(k->data, "__proto__", 9) == 0;
  }
  return r->keys[i];
}

/* obj["__proto__"] = v as an own data property (not the prototype). */
static int define_proto_key(reader *r, JSObjectRef obj, JSStringRef key, JSValueRef v) {
  if (!r->define_property) r->define_property = global_obj(r, "Object", "defineProperty");
  if (!r->define_property) return r_type_error(r, "Object.defineProperty is missing", 0);
  JSObjectRef desc = JSObjectMake(r->ctx, NULL, NULL);
  JSValueRef t = JSValueMakeBoolean(r->ctx, true);
  strait_set_property(r->ctx, desc, "value", v, kJSPropertyAttributeNone);
  strait_set_property(r->ctx, desc, "writable", t, kJSPropertyAttributeNone);
  strait_set_property(r->ctx, desc, "enumerable", t, kJSPropertyAttributeNone);
  strait_set_property(r->ctx, desc, "configurable", t, kJSPropertyAttributeNone);
  JSValueRef args[3] = {obj, JSValueMakeString(r->ctx, key), desc};
  JSObjectCallAsFunction(r->ctx, r->define_property, NULL, 3, args, &r->exc);
  return r->exc ? r_threw(r) : 0;
}

/* Stores v into the innermost open container, or as the root. */
static int place(reader *r, JSValueRef v, JSValueRef *root) {
  if (!r->depth) { *root = v; return 0; }
  rframe *f = &r->stack[r->depth - 1];
  switch (f->tag) {
    case STRAIT_V_ARRAY:
      JSObjectSetPropertyAtIndex(r->ctx, f->obj, f->i++, v, &r->exc);
      break;
    case STRAIT_V_OBJECT:
      if (r->proto_key[f->key]) return define_proto_key(r, f->obj, r->keys[f->key], v);
      JSObjectSetProperty(r->ctx, f->obj, r->keys[f->key], v, kJSPropertyAttributeNone, &r->exc);
      break;
    case STRAIT_V_MAP:
      if (!f->have_key) {
        JSValueProtect(r->ctx, v);
        f->mapkey = v;
        f->have_key = true;
        return 0;
      } else {
        JSValueRef args[2] = {f->mapkey, v};
        JSObjectCallAsFunction(r->ctx, r->map_set, f->obj, 2, args, &r->exc);
        JSValueUnprotect(r->ctx, f->mapkey);
        f->have_key = false;
      }
      break;
    case STRAIT_V_SET:
      JSObjectCallAsFunction(r->ctx, r->set_add, f->obj, 1, &v, &r->exc);
      break;
  }
  return r->exc ? r_threw(r) : 0;
}

/* Free for ArrayBuffers made over malloc'd copies. Any thread (GC). */
static void free_bytes(void *bytes, void *ctx) {
  (void)ctx;
  free(bytes);
}

/* BYTES kind -> JSC typed array type. */
static JSTypedArrayType typed_type(unsigned kind) {
  static const JSTypedArrayType t[] = {
      kJSTypedArrayTypeArrayBuffer, kJSTypedArrayTypeInt8Array, kJSTypedArrayTypeUint8Array,
      kJSTypedArrayTypeUint8ClampedArray, kJSTypedArrayTypeInt16Array, kJSTypedArrayTypeUint16Array,
      kJSTypedArrayTypeInt32Array, kJSTypedArrayTypeUint32Array, kJSTypedArrayTypeFloat32Array,
      kJSTypedArrayTypeFloat64Array, kJSTypedArrayTypeBigInt64Array, kJSTypedArrayTypeBigUint64Array,
      kJSTypedArrayTypeArrayBuffer};
  return t[kind];
}

/* Makes the JS object of a BYTES value (a copy of the bytes). */
static JSObjectRef make_bytes(reader *r, const strait__vev *ev) {
  JSContextRef ctx = r->ctx;
  JSTypedArrayType t = typed_type(ev->kind);
  if (t == kJSTypedArrayTypeArrayBuffer) {
    void *p = malloc(ev->len ? ev->len : 1);
    if (!p) return NULL;
    if (ev->len) memcpy(p, ev->data, ev->len);
    JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, p, ev->len, free_bytes, NULL, &r->exc);
    if (!ab || ev->kind != STRAIT_VB_DATAVIEW) return ab;
    if (!r->dataview_ctor) r->dataview_ctor = global_obj(r, "DataView", NULL);
    if (!r->dataview_ctor) return NULL;
    JSValueRef arg = ab;
    return JSObjectCallAsConstructor(ctx, r->dataview_ctor, 1, &arg, &r->exc);
  }
  size_t n = ev->len / strait__codec_kind_size(ev->kind);
  JSObjectRef ta = JSObjectMakeTypedArray(ctx, t, n, &r->exc);
  if (!ta) return NULL;
  if (ev->len) {
    void *dst = JSObjectGetTypedArrayBytesPtr(ctx, ta, &r->exc);
    if (!dst) return NULL;
    memcpy(dst, ev->data, ev->len);
  }
  return ta;
}

/* Makes a packed number array. */
static JSObjectRef make_packed(reader *r, const strait__vev *ev) {
  JSValueRef sb[256];
  JSValueRef *vals = ev->count <= 256 ? sb : malloc((size_t)ev->count * sizeof *vals);
  if (!vals) return NULL;
  for (uint32_t i = 0; i < ev->count; i++) {
    double d;
    if (ev->tag == STRAIT_V_ARRAY_F64) {
      memcpy(&d, ev->data + (size_t)i * 8, 8);
    } else {
      int32_t v;
      memcpy(&v, ev->data + (size_t)i * 4, 4);
      d = v;
    }
    vals[i] = JSValueMakeNumber(r->ctx, d);
  }
  JSObjectRef a = JSObjectMakeArray(r->ctx, ev->count, vals, &r->exc);
  if (vals != sb) free(vals);
  return a;
}

/* Makes the JS value of a VALUE event (scalars and leaf composites). */
static int make_value(reader *r, const strait__vev *ev, JSValueRef *out) {
  JSContextRef ctx = r->ctx;
  JSObjectRef o = NULL;
  switch (ev->tag) {
    case STRAIT_V_UNDEFINED: *out = JSValueMakeUndefined(ctx); return 0;
    case STRAIT_V_NULL: *out = JSValueMakeNull(ctx); return 0;
    case STRAIT_V_FALSE: *out = JSValueMakeBoolean(ctx, false); return 0;
    case STRAIT_V_TRUE: *out = JSValueMakeBoolean(ctx, true); return 0;
    case STRAIT_V_INT32: *out = JSValueMakeNumber(ctx, ev->i32); return 0;
    case STRAIT_V_DOUBLE: *out = JSValueMakeNumber(ctx, ev->f64); return 0;
    case STRAIT_V_INT64:
      if (ev->i64 >= -9007199254740991LL && ev->i64 <= 9007199254740991LL) {
        *out = JSValueMakeNumber(ctx, (double)ev->i64);
        return 0;
      }
      *out = JSBigIntCreateWithInt64(ctx, ev->i64, &r->exc);
      return *out ? 0 : r_threw(r);
    case STRAIT_V_BIGINT: {
      char *dec = strait__bigint_to_decimal(ev->data, ev->len, ev->kind == 1);
      if (!dec) return r_nomem(r);
      JSStringRef s = JSStringCreateWithUTF8CString(dec);
      free(dec);
      *out = JSBigIntCreateWithString(ctx, s, &r->exc);
      JSStringRelease(s);
      return *out ? 0 : r_threw(r);
    }
    case STRAIT_V_STRING8: case STRAIT_V_STRING16: {
      JSStringRef s = make_jsstring(ev->data, ev->len, ev->tag == STRAIT_V_STRING16);
      if (!s) return r_nomem(r);
      *out = JSValueMakeString(ctx, s);
      JSStringRelease(s);
      return 0;
    }
    case STRAIT_V_ARRAY_F64: case STRAIT_V_ARRAY_I32:
      o = make_packed(r, ev);
      break;
    case STRAIT_V_DATE: {
      JSValueRef t = JSValueMakeNumber(ctx, ev->f64);
      o = JSObjectMakeDate(ctx, 1, &t, &r->exc);
      break;
    }
    case STRAIT_V_BYTES:
      o = make_bytes(r, ev);
      break;
    case STRAIT_V_BACKREF:
      *out = r->objs[ev->index];
      return 0;
    case STRAIT_V_JAVAREF:
      if (!r->hooks || !r->hooks->java_value)
        return r_type_error(r, "value refers to a Java object but no object table is attached", ev->index);
      *out = r->hooks->java_value(r->hooks->ud, ctx, ev->index, &r->exc);
      return *out ? 0 : r_threw(r);
    case STRAIT_V_JSREF:
      if (!r->hooks || !r->hooks->js_value)
        return r_type_error(r, "value refers to a JS handle but no handle table is attached", ev->index);
      *out = r->hooks->js_value(r->hooks->ud, ctx, ev->index, &r->exc);
      return *out ? 0 : r_threw(r);
    case STRAIT_V_EXT:
      if (!r->hooks || !r->hooks->ext_value)
        return r_type_error(r, "value has an extension value but no extension hook", ev->ext_type);
      *out = r->hooks->ext_value(r->hooks->ud, ctx, ev->ext_type, ev->data, ev->len, &r->exc);
      return *out ? 0 : r_threw(r);
    default:
      return r_type_error(r, "unexpected tag", ev->tag);
  }
  if (!o) return r->exc ? r_threw(r) : r_nomem(r);
  *out = o;
  return add_obj(r, o);
}

/* Opens a container for a BEGIN event. */
static int begin(reader *r, const strait__vev *ev, JSValueRef *root) {
  JSContextRef ctx = r->ctx;
  JSObjectRef o;
  switch (ev->tag) {
    case STRAIT_V_ARRAY:
      o = JSObjectMakeArray(ctx, 0, NULL, &r->exc);
      break;
    case STRAIT_V_OBJECT:
      o = JSObjectMake(ctx, NULL, NULL);
      break;
    case STRAIT_V_MAP:
      if (!r->map_ctor) {
        r->map_ctor = global_obj(r, "Map", NULL);
        r->map_set = global_obj(r, "Map", "prototype");
        r->map_set = r->map_set ? (JSObjectRef)strait_get_property(ctx, r->map_set, "set") : NULL;
      }
      o = r->map_ctor && r->map_set && JSValueIsObject(ctx, r->map_set)
              ? JSObjectCallAsConstructor(ctx, r->map_ctor, 0, NULL, &r->exc) : NULL;
      break;
    default:
      if (!r->set_ctor) {
        r->set_ctor = global_obj(r, "Set", NULL);
        r->set_add = global_obj(r, "Set", "prototype");
        r->set_add = r->set_add ? (JSObjectRef)strait_get_property(ctx, r->set_add, "add") : NULL;
      }
      o = r->set_ctor && r->set_add && JSValueIsObject(ctx, r->set_add)
              ? JSObjectCallAsConstructor(ctx, r->set_ctor, 0, NULL, &r->exc) : NULL;
      break;
  }
  if (!o) return r->exc ? r_threw(r) : r_type_error(r, "cannot create a container", ev->tag);
  int rc = add_obj(r, o);
  if (rc) return rc;
  rc = place(r, o, root);
  if (rc) return rc;
  if (r->depth == r->cap) {
    size_t nc = r->cap ? r->cap * 2 : 32;
    rframe *ns = realloc(r->stack, nc * sizeof *ns);
    if (!ns) return r_nomem(r);
    r->stack = ns;
    r->cap = nc;
  }
  r->stack[r->depth++] = (rframe){.obj = o, .tag = ev->tag};
  return 0;
}

/* Reads buf into *result. Inside the gate. */
int strait__codec_read(JSContextRef ctx, const uint8_t *buf, size_t size,
                       const strait_value_hooks *hooks, JSValueRef *result,
                       strait_value_error *err, JSValueRef *exception) {
  strait_value_error local_err;
  if (!err) err = &local_err;
  err->status = 0;
  err->offset = 0;
  err->msg[0] = 0;
  reader r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.hooks = hooks;
  r.err = err;
  r.refs = JSObjectMakeArray(ctx, 0, NULL, NULL);
  JSValueRef root = NULL;
  strait__vparser ps;
  strait__vev ev;
  int rc = strait__vparser_init(&ps, buf, size, err);
  while (!rc) {
    rc = strait__vparser_next(&ps, &ev, err);
    if (rc || ev.type == STRAIT_VEV_DONE) break;
    JSValueRef v = NULL;   /* set by make_value when it returns 0 */
    switch (ev.type) {
      case STRAIT_VEV_VALUE:
        rc = make_value(&r, &ev, &v);
        if (!rc) rc = place(&r, v, &root);
        break;
      case STRAIT_VEV_BEGIN:
        rc = begin(&r, &ev, &root);
        break;
      case STRAIT_VEV_KEY:
        r.stack[r.depth - 1].key = ev.index;
        if (!key_string(&r, &ps, ev.index)) rc = r_nomem(&r);
        break;
      case STRAIT_VEV_END:
        r.depth--;
        break;
    }
  }
  strait__vparser_free(&ps);
  for (size_t d = 0; d < r.depth; d++)
    if (r.stack[d].have_key) JSValueUnprotect(ctx, r.stack[d].mapkey);
  for (size_t i = 0; i < r.keys_cap; i++)
    if (r.keys[i]) JSStringRelease(r.keys[i]);
  free(r.keys);
  free(r.proto_key);
  free(r.objs);
  free(r.stack);
  if (rc == STRAIT_EJS && exception) *exception = r.exc;
  if (!rc && result) *result = root;
  return rc;
}

/*
 * clone.c - structured clone between runtimes (docs/clone.md). The walk
 * over the value is JS (js/clone.js: the serializer in the source heap,
 * the deserializer in the target heap, both JIT-compiled); C moves what
 * they exchange across heaps in a few calls per clone:
 *   - the tokens (tags, counts, numbers and the string lengths: doubles)
 *     are copied into one malloc'd block, which the target reads through
 *     an ArrayBuffer made over it without a copy;
 *   - the strings, joined into one by the serializer, become one
 *     JSStringRef (thread-safe), which the deserializer cuts up;
 *   - each ArrayBuffer's bytes are copied into malloc'd memory, which the
 *     target's ArrayBuffer then owns (made over it, freed by JSC);
 *   - host transferables (message ports) move as tokens of the hooks.
 * A capture touches only the source runtime and a materialize only the
 * target: between them the clone holds no JSValueRef.
 */
#include "clone.h"
#include "env.h"
#include "common/jsc_private.h"
#include "runtime.h"
#include "codec.h"
#include "value.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct clone_buf {
  void *data;   /* malloc'd, or NULL once moved into a target's ArrayBuffer */
  size_t len;
} clone_buf;

struct strait__clone {
  double *tok;          /* nt tokens, then ns string lengths */
  size_t nt, ns;
  JSStringRef str;      /* the strings joined; NULL when ns == 0 */
  clone_buf *bufs;
  size_t nbuf;
  void **hosts;         /* tokens of the hooks; NULL once given */
  size_t nhost;
  const strait__clone_hooks *hooks;
  bool materialized;
};

/* internal.clone (js/clone.js, loaded on first use) of rt: looked up once
 * and kept (protected) in rt->clone_api, so a clone makes no property name.
 * NULL when missing. Inside the gate. */
static JSObjectRef clone_api(strait_runtime *rt) {
  if (rt->clone_api) return rt->clone_api;
  JSValueRef exc = NULL;
  if (!rt->internal || strait__env_load(rt, "clone.js", &exc) != 0) return NULL;
  JSValueRef v = strait_get_property(rt->ctx, rt->internal, "clone");
  if (!JSValueIsObject(rt->ctx, v)) return NULL;
  JSValueProtect(rt->ctx, v);
  rt->clone_api = (JSObjectRef)v;
  return rt->clone_api;
}

/* api[name](args...). NULL with *exc set when it threw. Inside the gate. */
static JSValueRef call_api(JSContextRef ctx, JSObjectRef api, const char *name, size_t argc,
                           const JSValueRef *argv, JSValueRef *exc) {
  JSValueRef f = strait_get_property(ctx, api, name);
  if (!JSValueIsObject(ctx, f) || !JSObjectIsFunction(ctx, (JSObjectRef)f)) {
    *exc = strait_make_error(ctx, "Error", "clone: internal.clone.%s is missing", name);
    return NULL;
  }
  return JSObjectCallAsFunction(ctx, (JSObjectRef)f, api, argc, argv, exc);
}

/* api[index](args...) for the calls every clone makes (js/clone.js puts
 * them at indexes: no property name to make). */
enum { API_CAPTURE_COPY = 0, API_MATERIALIZE = 1 };
static JSValueRef call_at(JSContextRef ctx, JSObjectRef api, unsigned index, size_t argc, const JSValueRef *argv,
                          JSValueRef *exc) {
  JSValueRef f = JSObjectGetPropertyAtIndex(ctx, api, index, NULL);
  if (!JSValueIsObject(ctx, f) || !JSObjectIsFunction(ctx, (JSObjectRef)f)) {
    *exc = strait_make_error(ctx, "Error", "clone: internal.clone[%u] is missing", index);
    return NULL;
  }
  return JSObjectCallAsFunction(ctx, (JSObjectRef)f, api, argc, argv, exc);
}

static size_t length_of(JSContextRef ctx, JSObjectRef a) {
  double d = JSValueToNumber(ctx, strait_get_property(ctx, a, "length"), NULL);
  return d > 0 ? (size_t)d : 0;
}

static JSValueRef at(JSContextRef ctx, JSObjectRef a, size_t i) {
  return JSObjectGetPropertyAtIndex(ctx, a, (unsigned)i, NULL);
}

void strait__clone_free(strait__clone *c) {
  if (!c) return;
  free(c->tok);
  if (c->str) JSStringRelease(c->str);
  for (size_t i = 0; i < c->nbuf; i++) free(c->bufs[i].data);
  free(c->bufs);
  for (size_t i = 0; i < c->nhost; i++)
    if (c->hosts[i] && c->hooks && c->hooks->drop) c->hooks->drop(c->hosts[i]);
  free(c->hosts);
  free(c);
}

size_t strait__clone_bytes(const strait__clone *c) {
  if (!c) return 0;
  size_t n = sizeof *c + (c->nt + c->ns) * sizeof(double) + c->nbuf * sizeof(clone_buf) +
             c->nhost * sizeof(void *);
  if (c->str) n += JSStringGetLength(c->str) * sizeof(JSChar);
  for (size_t i = 0; i < c->nbuf; i++) n += c->bufs[i].data ? c->bufs[i].len : 0;
  return n;
}

static int oom(JSContextRef ctx, JSValueRef *exception) {
  if (exception) *exception = strait_make_error(ctx, "RangeError", "structured clone: out of memory");
  return STRAIT_ENOMEM;
}

/* A clone of the serializer's result ro ([tokens, nt, ns, joined, bufs,
 * ...]) holding its tokens and its joined strings (copied now: the token
 * array is reused by the next clone), with hooks; the caller fills in the
 * buffers and host tokens. *bufs is ro's buffer list. 0, STRAIT_EJS (a bad
 * result) or STRAIT_ENOMEM, with *exception set. Inside the gate. */
static int clone_of_result(JSContextRef ctx, JSObjectRef ro, const strait__clone_hooks *hooks,
                           strait__clone **out, JSObjectRef *bufs, JSValueRef *exception) {
  JSValueRef tv = at(ctx, ro, 0), bv = at(ctx, ro, 4), exc = NULL;
  size_t nt = (size_t)JSValueToNumber(ctx, at(ctx, ro, 1), NULL);
  size_t ns = (size_t)JSValueToNumber(ctx, at(ctx, ro, 2), NULL);
  if (!JSValueIsObject(ctx, tv) || !JSValueIsObject(ctx, bv)) {
    *exception = strait_make_error(ctx, "Error", "structured clone: bad serializer result");
    return STRAIT_EJS;
  }
  strait__clone *c = calloc(1, sizeof *c);
  if (!c) return oom(ctx, exception);
  c->nt = nt;
  c->ns = ns;
  c->hooks = hooks;
  c->tok = malloc((nt + ns) * sizeof(double) + 8);
  const void *tp = c->tok ? JSObjectGetTypedArrayBytesPtr(ctx, (JSObjectRef)tv, NULL) : NULL;
  if (!tp) goto nomem;
  memcpy(c->tok, tp, (nt + ns) * sizeof(double));
  if (ns && !(c->str = JSValueToStringCopy(ctx, at(ctx, ro, 3), &exc))) goto nomem;
  *bufs = (JSObjectRef)bv;
  *out = c;
  return 0;
nomem:
  strait__clone_free(c);
  return oom(ctx, exception);
}

/* The capture after the transfer list was read: abs (its ArrayBuffers)
 * and hosts (its other objects), both JS arrays. See
 * strait__clone_capture. Inside the gate. */
static int capture_prepared(strait_runtime *rt, JSObjectRef api, JSValueRef value, JSObjectRef abs,
                            JSObjectRef hosts, const strait__clone_hooks *hooks, strait__clone **out,
                            JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  JSValueRef exc = NULL;
  size_t nhost = length_of(ctx, hosts);
  /* 1. every host object of the list must be transferable now */
  for (size_t i = 0; i < nhost; i++) {
    JSValueRef h = at(ctx, hosts, i);
    if (!hooks || !hooks->take || !JSValueIsObject(ctx, h) || !hooks->take(rt, (JSObjectRef)h, false)) {
      JSValueRef r = call_api(ctx, api, "notTransferable", 1, &h, &exc);
      *exception = r ? r : exc;
      return STRAIT_EJS;
    }
  }
  /* 2. the walk (may run getters; throws DataCloneError) */
  JSValueRef args[3] = {value, abs, hosts};
  JSValueRef r = call_api(ctx, api, "capture", 3, args, &exc);
  if (!r || !JSValueIsObject(ctx, r)) {
    *exception = exc;
    return STRAIT_EJS;
  }
  /* 3. all memory, before anything is detached */
  strait__clone *c = NULL;
  JSObjectRef bufs = NULL;
  int rc = clone_of_result(ctx, (JSObjectRef)r, hooks, &c, &bufs, exception);
  if (rc) return rc;
  size_t nbuf = length_of(ctx, bufs);
  c->bufs = calloc(nbuf + 1, sizeof *c->bufs);
  c->hosts = calloc(nhost + 1, sizeof *c->hosts);
  if (!c->bufs || !c->hosts) goto nomem;
  c->nbuf = nbuf;
  for (size_t i = 0; i < nbuf; i++) {
    JSValueRef b = at(ctx, bufs, i);
    size_t len = JSValueIsObject(ctx, b) ? JSObjectGetArrayBufferByteLength(ctx, (JSObjectRef)b, NULL) : 0;
    c->bufs[i].len = len;
    c->bufs[i].data = malloc(len ? len : 1);
    if (!c->bufs[i].data) goto nomem;
  }
  /* 4. commit: copies of the other buffers, then the transferred ones
   * moved out of their (now detached) buffers */
  JSValueRef cargs[2] = {abs, bufs};
  JSValueRef src = call_api(ctx, api, "commit", 2, cargs, &exc);
  if (!src || !JSValueIsObject(ctx, src)) {
    strait__clone_free(c);
    *exception = exc;
    return STRAIT_EJS;
  }
  for (size_t i = 0; i < nbuf; i++) {
    JSValueRef b = at(ctx, (JSObjectRef)src, i);
    if (!c->bufs[i].len || !JSValueIsObject(ctx, b)) continue;
    const void *p = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)b, NULL);
    size_t len = JSObjectGetArrayBufferByteLength(ctx, (JSObjectRef)b, NULL);
    if (p) memcpy(c->bufs[i].data, p, len < c->bufs[i].len ? len : c->bufs[i].len);
  }
  /* 5. the host objects move out of rt */
  c->nhost = nhost;
  for (size_t i = 0; i < nhost; i++) {
    JSValueRef h = at(ctx, hosts, i);
    c->hosts[i] = hooks->take(rt, (JSObjectRef)h, true);
  }
  *out = c;
  return 0;
nomem:
  strait__clone_free(c);
  return oom(ctx, exception);
}

/* The capture with no transfer list: one call (captureCopy) serializes
 * and copies the buffers (nothing is detached, so nothing must be
 * allocated first). Inside the gate. */
static int capture_simple(strait_runtime *rt, JSObjectRef api, JSValueRef value, const strait__clone_hooks *hooks,
                          strait__clone **out, JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  JSValueRef exc = NULL;
  JSValueRef r = call_at(ctx, api, API_CAPTURE_COPY, 1, &value, &exc);
  if (!r || !JSValueIsObject(ctx, r)) {
    *exception = exc;
    return STRAIT_EJS;
  }
  JSObjectRef ro = (JSObjectRef)r, bufs = NULL;
  strait__clone *c = NULL;
  int rc = clone_of_result(ctx, ro, hooks, &c, &bufs, exception);
  if (rc) return rc;
  size_t nbuf = (size_t)JSValueToNumber(ctx, at(ctx, ro, 5), NULL);
  c->bufs = nbuf ? calloc(nbuf, sizeof *c->bufs) : NULL;
  if (nbuf && !c->bufs) goto nomem;
  c->nbuf = nbuf;
  for (size_t i = 0; i < nbuf; i++) {
    JSValueRef b = at(ctx, bufs, i);  /* a copy (slice) the serializer made */
    const void *p = JSValueIsObject(ctx, b) ? JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)b, NULL) : NULL;
    size_t len = p ? JSObjectGetArrayBufferByteLength(ctx, (JSObjectRef)b, NULL) : 0;
    c->bufs[i].len = len;
    c->bufs[i].data = malloc(len ? len : 1);
    if (!c->bufs[i].data) goto nomem;
    if (len) memcpy(c->bufs[i].data, p, len);
  }
  *out = c;
  return 0;
nomem:
  strait__clone_free(c);
  return oom(ctx, exception);
}

int strait__clone_capture(strait_runtime *rt, JSValueRef value, JSValueRef transfer,
                          const strait__clone_hooks *hooks, strait__clone **out, JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  JSValueRef exc = NULL;
  *out = NULL;
  if (exception) *exception = NULL;
  else exception = &exc;
  JSObjectRef api = clone_api(rt);
  if (!api) {
    *exception = strait_make_error(ctx, "Error", "structured clone is not installed in this runtime");
    return STRAIT_EJS;
  }
  if (!transfer || JSValueIsUndefined(ctx, transfer))
    return capture_simple(rt, api, value, hooks, out, exception);
  JSValueRef t = transfer;
  JSValueRef pr = call_api(ctx, api, "prepTransfer", 1, &t, exception);
  if (!pr || !JSValueIsObject(ctx, pr)) return STRAIT_EJS;
  JSValueRef abs = at(ctx, (JSObjectRef)pr, 0), hosts = at(ctx, (JSObjectRef)pr, 1);
  if (!JSValueIsObject(ctx, abs) || !JSValueIsObject(ctx, hosts)) {
    *exception = strait_make_error(ctx, "Error", "structured clone: bad transfer list result");
    return STRAIT_EJS;
  }
  return capture_prepared(rt, api, value, (JSObjectRef)abs, (JSObjectRef)hosts, hooks, out, exception);
}

/* The deallocator of a lent ArrayBuffer (the clone's token block, read
 * during the call only): nothing to free. */
static void lent_dealloc(void *bytes, void *ctx) {
  (void)bytes;
  (void)ctx;
}

/* The deallocator of an ArrayBuffer that owns a clone's malloc'd bytes. */
static void owned_dealloc(void *bytes, void *ctx) {
  (void)ctx;
  free(bytes);
}

int strait__clone_materialize(strait_runtime *rt, strait__clone *c, JSValueRef *result,
                              JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  JSValueRef exc = NULL;
  if (exception) *exception = NULL;
  else exception = &exc;
  *result = NULL;
  if (!c || c->materialized) {
    *exception = strait_make_error(ctx, "Error", "structured clone: a clone is materialized at most once");
    return STRAIT_EINVAL;
  }
  JSObjectRef api = clone_api(rt);
  if (!api) {
    *exception = strait_make_error(ctx, "Error", "structured clone is not installed in this runtime");
    return STRAIT_EJS;
  }
  c->materialized = true;
  /* the tokens as a Float64Array over the block (one call, no copy) */
  JSObjectRef tok = JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeFloat64Array, c->tok,
                                                          (c->nt + c->ns) * sizeof(double), lent_dealloc, NULL,
                                                          exception);
  if (!tok) return STRAIT_EJS;
  JSValueRef joined = c->str ? JSValueMakeString(ctx, c->str) : JSValueMakeUndefined(ctx);
  /* The buffers and host objects wait in a malloc'd buffer until a JS
   * array holds them. JSC's conservative scan sees stacks and registers,
   * not the C heap, and each allocation below may collect: so each one is
   * protected from its creation until its array is made (unprotected, a
   * collection could free a buffer made earlier, and its bytes, which the
   * array and the deserializer would then read). */
  size_t nitems = c->nbuf > c->nhost ? c->nbuf : c->nhost;
  JSValueRef *items = nitems ? malloc(nitems * sizeof *items) : NULL;
  if (nitems && !items) return oom(ctx, exception);
  size_t nheld = 0;
  JSValueRef bufs = NULL;
  for (size_t i = 0; i < c->nbuf; i++) {
    JSObjectRef b = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, c->bufs[i].data, c->bufs[i].len,
                                                           owned_dealloc, NULL, exception);
    if (!b) goto fail;
    JSValueProtect(ctx, b);
    c->bufs[i].data = NULL;  /* the ArrayBuffer owns it now */
    items[nheld++] = b;
  }
  bufs = c->nbuf ? JSObjectMakeArray(ctx, c->nbuf, items, exception) : JSValueMakeUndefined(ctx);
  for (size_t i = 0; i < nheld; i++) JSValueUnprotect(ctx, items[i]);
  nheld = 0;
  if (!bufs) goto fail;
  JSValueProtect(ctx, bufs);   /* through the host objects' allocations too */
  const strait__clone_hooks *h = rt->clone_hooks ? rt->clone_hooks : c->hooks;
  for (size_t i = 0; i < c->nhost; i++) {
    void *token = c->hosts[i];
    c->hosts[i] = NULL;
    JSValueRef o = token && h && h->give ? h->give(rt, token, exception) : NULL;
    if (!o) {
      if (token && !(h && h->give) && c->hooks && c->hooks->drop) c->hooks->drop(token);
      if (!*exception)
        *exception = strait_make_error(ctx, "Error", "structured clone: a transferred object could not be received");
      goto fail;
    }
    JSValueProtect(ctx, o);
    items[nheld++] = o;
  }
  JSValueRef hosts = c->nhost ? JSObjectMakeArray(ctx, c->nhost, items, exception) : JSValueMakeUndefined(ctx);
  for (size_t i = 0; i < nheld; i++) JSValueUnprotect(ctx, items[i]);
  nheld = 0;
  free(items);
  items = NULL;
  JSValueUnprotect(ctx, bufs);   /* args, on this stack, holds it from here */
  if (!hosts) return STRAIT_EJS;
  JSValueRef args[6] = {tok, JSValueMakeNumber(ctx, (double)c->nt), JSValueMakeNumber(ctx, (double)c->ns),
                        joined, bufs, hosts};
  JSValueRef r = call_at(ctx, api, API_MATERIALIZE, 6, args, exception);
  if (!r) return STRAIT_EJS;
  *result = r;
  return 0;
fail:
  for (size_t i = 0; i < nheld; i++) JSValueUnprotect(ctx, items[i]);
  if (bufs && JSValueIsObject(ctx, bufs)) JSValueUnprotect(ctx, bufs);
  free(items);
  return STRAIT_EJS;
}

/* native.isHost(obj): true when obj is a Proxy (of any realm, also the
 * global object's proxy) or an object with native storage (made with a
 * JSClass: JSObjectSetPrivate succeeds only on those). JS thread. */
static JSValueRef nf_is_host(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                             const JSValueRef argv[], JSValueRef *exc) {
  if (argc < 1 || !JSValueIsObject(ctx, argv[0])) return JSValueMakeBoolean(ctx, false);
  JSObjectRef o = (JSObjectRef)argv[0];
  if (JSObjectGetProxyTarget(o)) return JSValueMakeBoolean(ctx, true);
  void *p = JSObjectGetPrivate(o);
  return JSValueMakeBoolean(ctx, JSObjectSetPrivate(o, p));
}

/* The engine's type of object o (JSC's JSType). JSC's C API tells a Date,
 * an array, a typed array and an ArrayBuffer from a plain object, but no Map,
 * Set, RegExp, Error or wrapper object; JS tells those only by their
 * prototype and Symbol.toStringTag (both of which a script may change) or by
 * a brand check that throws for every other object (about 2 us a throw in
 * JSC 2.50: more than cloning a small object). A JSObjectRef points to the
 * object's JSCell, whose 8-byte header is the 32-bit StructureID, the
 * indexing type byte, then the JSType byte at offset 5
 * (JSCell::typeInfoTypeOffset(), where JSC's JITs read it). Reading one byte
 * of the header is safe whatever it holds; what each value means
 * js/clone.js learns when it loads, from objects it makes (a plain object, a
 * Map, a Set...), and it uses none of it unless those are all told apart; a
 * kind found so is confirmed by its brand check. */
static int cell_type(JSContextRef ctx, JSValueRef v) {
  return JSValueIsObject(ctx, v) ? ((const uint8_t *)v)[5] : -1;
}

/* native.cellType(value): the type of an object, -1 for any other value. */
static JSValueRef nf_cell_type(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  return JSValueMakeNumber(ctx, argc < 1 ? -1 : cell_type(ctx, argv[0]));
}

/* native.countOtherTypes(type, value...): how many of the values are not
 * objects of that type. Many objects a call: a C callback drops and retakes
 * JSC's locks (and a VM trap pending then, such as the watchdog's tick, makes
 * JSC throw away the optimized code on the stack), so clone.js asks once a
 * clone, not once an object. */
static JSValueRef nf_count_other_types(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                       const JSValueRef argv[], JSValueRef *exc) {
  if (argc < 1) return JSValueMakeNumber(ctx, 0);
  JSLock(ctx);  /* (once: JSValueIsObject would take it for each value) */
  int type = (int)JSValueToNumber(ctx, argv[0], NULL);
  size_t other = 0;
  for (size_t i = 1; i < argc; i++) other += cell_type(ctx, argv[i]) != type;
  JSUnlock(ctx);
  return JSValueMakeNumber(ctx, (double)other);
}

/* native.cloneHosts(value, abs, hosts): structuredClone with host objects
 * in its transfer list, through a capture and a materialize in the same
 * runtime with its clone hooks. JS thread. */
static JSValueRef nf_clone_hosts(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  strait_runtime *rt = strait__runtime_of(ctx);
  JSObjectRef api = rt ? clone_api(rt) : NULL;
  if (!api || argc < 3 || !JSValueIsObject(ctx, argv[1]) || !JSValueIsObject(ctx, argv[2])) {
    *exc = strait_make_error(ctx, "TypeError", "structured clone: bad arguments");
    return NULL;
  }
  strait__clone *c = NULL;
  JSValueRef e = NULL, r = NULL;
  int rc = capture_prepared(rt, api, argv[0], (JSObjectRef)argv[1], (JSObjectRef)argv[2], rt->clone_hooks,
                            &c, &e);
  if (!rc) rc = strait__clone_materialize(rt, c, &r, &e);
  strait__clone_free(c);
  if (rc) {
    *exc = e ? e : strait_make_error(ctx, "Error", "structured clone failed (%s)", strait_err_name(rc));
    return NULL;
  }
  return r;
}

void strait__clone_natives(JSContextRef ctx, JSObjectRef native) {
  strait_set_function(ctx, native, "isHost", nf_is_host);
  strait_set_function(ctx, native, "cellType", nf_cell_type);
  strait_set_function(ctx, native, "countOtherTypes", nf_count_other_types);
  strait_set_function(ctx, native, "cloneHosts", nf_clone_hosts);
}

/* ---- the public API (strait.h): the same clone, opaque ------------------- */

int strait_clone_capture(strait_runtime *rt, JSValueRef v, JSValueRef transfer, strait_clone **out,
                         JSValueRef *exception) {
  return strait__clone_capture(rt, v, transfer, rt->clone_hooks, (strait__clone **)out, exception);
}

int strait_clone_materialize(strait_runtime *rt, strait_clone *c, JSValueRef *result,
                             JSValueRef *exception) {
  return strait__clone_materialize(rt, (strait__clone *)c, result, exception);
}

int strait_clone_write_value(const strait_clone *c, strait_buffer *out, strait_value_error *err) {
  return strait__clone_write_value((const strait__clone *)c, out, err);
}

void strait_clone_free(strait_clone *c) { strait__clone_free((strait__clone *)c); }

/* ---- the clone in the value format (strait__clone_write_value) --------
 * Pure C over the tokens, the joined strings and the buffers; the bytes
 * are those strait_value_encode writes for the original value (numbers
 * by the INT32/INT64/DOUBLE rule, packed number arrays, holes as
 * UNDEFINED, KEYREFs for repeated keys, BACKREFs in pre-order). What the
 * format has no tag for (RegExp, Boolean/Number/String/BigInt objects,
 * Error, transferred host objects, an invalid Date) is STRAIT_ETYPE
 * naming it and its path. An array's non-index properties are not
 * written (the codec reads indexes only); an object only they reach is
 * written where it is next referenced (a walk from its tokens). */

/* token tags and frame kinds (js/clone.js) */
enum { CT_UNDEF, CT_NULL, CT_FALSE, CT_TRUE, CT_NUM, CT_STR, CT_BIGINT, CT_REF, CT_OBJ, CT_ARR, CT_HOLE,
       CT_DATE, CT_REGEXP, CT_BOOLO, CT_NUMO, CT_STRO, CT_BIGO, CT_MAP, CT_SET, CT_AB, CT_VIEW, CT_ERROR,
       CT_HOST, CT_OBJE, /* a resizable buffer's AB and VIEW: one more token, its maxByteLength */ CT_RAB,
       CT_RVIEW };
/* added to a CT_RVIEW's view kind when the view tracks its buffer's length */
#define CT_VIEW_TRACKS 16
enum { WF_OBJ, WF_DENSE, WF_SPARSE, WF_KEYED, WF_MAP, WF_SET, WF_CAUSE, WF_JUMP };
#define WV_NONE UINT32_MAX

typedef struct wv_frame {
  uint8_t kind;
  bool emit;       /* written (else only read past) */
  uint32_t sid;    /* WF_OBJ: its shape */
  size_t i, n;     /* next item, items */
  size_t next, len;  /* WF_SPARSE: next index to write, array length */
  size_t p, si, nid; /* WF_JUMP: where to go back */
} wv_frame;

typedef struct wv {
  const strait__clone *c;
  strait_buffer *out;
  strait_value_error *err;
  const double *t;
  size_t nt, p, si, nid;
  const JSChar *chars;
  size_t *soff;          /* ns + 1 offsets into chars */
  /* objects by clone id: their tokens (first met) and format index */
  size_t *opos, *osi;
  uint32_t *ofmt;
  size_t nobj, nrec, ocap; /* ids possible, ids recorded, room */
  uint32_t *bfmt;        /* buffer id -> format index */
  uint32_t nfmt;         /* composites written */
  /* shapes: definition token, first key string, key count, key cache base */
  size_t *sdef, *skey, *skn, *sbase;
  size_t nshape, shcap;
  uint32_t *kidx;        /* per shape key: its key table index */
  size_t nkidx;
  /* key table: open addressing over string indexes (+1; 0 empty) */
  size_t *ktab, kcap, nkeys;
  uint32_t *kno;
  wv_frame *st;
  size_t sp, scap;
  uint64_t holes, seen;
} wv;

static int wv_fail(wv *w, int rc, const char *what);

static int wv_nomem(wv *w) {
  w->err->status = STRAIT_ENOMEM;
  snprintf(w->err->msg, sizeof w->err->msg, "out of memory while converting a value");
  return STRAIT_ENOMEM;
}

static int wv_corrupt(wv *w) {
  w->err->status = STRAIT_ECORRUPT;
  w->err->offset = w->p;
  snprintf(w->err->msg, sizeof w->err->msg, "corrupt clone data at token %zu", w->p);
  return STRAIT_ECORRUPT;
}

/* the characters and length of string i */
static const JSChar *wv_str(wv *w, size_t i, size_t *n) {
  *n = w->soff[i + 1] - w->soff[i];
  return w->chars + w->soff[i];
}

/* UTF-8 of UTF-16 text into buf (truncated to cap - 1), for paths. */
static size_t wv_utf8(const JSChar *c, size_t n, char *buf, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 4 < cap; i++) {
    uint32_t u = c[i];
    if (u >= 0xD800 && u < 0xDC00 && i + 1 < n && c[i + 1] >= 0xDC00 && c[i + 1] < 0xE000)
      u = 0x10000 + ((u - 0xD800) << 10) + (c[++i] - 0xDC00);
    else if (u >= 0xD800 && u < 0xE000) u = 0xFFFD;
    if (u < 0x80) buf[k++] = (char)u;
    else if (u < 0x800) { buf[k++] = (char)(0xC0 | u >> 6); buf[k++] = (char)(0x80 | (u & 63)); }
    else if (u < 0x10000) {
      buf[k++] = (char)(0xE0 | u >> 12); buf[k++] = (char)(0x80 | ((u >> 6) & 63)); buf[k++] = (char)(0x80 | (u & 63));
    } else {
      buf[k++] = (char)(0xF0 | u >> 18); buf[k++] = (char)(0x80 | ((u >> 12) & 63));
      buf[k++] = (char)(0x80 | ((u >> 6) & 63)); buf[k++] = (char)(0x80 | (u & 63));
    }
  }
  buf[k] = 0;
  return k;
}

/* "$.a[3]<Map key 1>..." from the frames (as the codec's writers). */
static void wv_path(wv *w, char *buf, size_t cap) {
  size_t n = 0;
  char tmp[300];
#define ADD(s_, l_) do { size_t l__ = (l_); if (l__ > cap - 1 - n) l__ = cap - 1 - n; memcpy(buf + n, (s_), l__); n += l__; } while (0)
  ADD("$", 1);
  for (size_t d = 0; d < w->sp; d++) {
    wv_frame *f = &w->st[d];
    size_t i = f->i ? f->i - 1 : 0;
    int m = 0;
    if (f->kind == WF_OBJ) {
      size_t kl;
      const JSChar *k = wv_str(w, w->skey[f->sid] + i, &kl);
      char key[200];
      size_t ul = wv_utf8(k, kl, key, sizeof key);
      bool ident = ul > 0 && !(key[0] >= '0' && key[0] <= '9');
      for (size_t j = 0; j < ul && ident; j++) {
        char ch = key[j];
        ident = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '$';
      }
      if (ident) m = snprintf(tmp, sizeof tmp, ".%s", key);
      else {
        size_t q = 0;
        tmp[q++] = '[';
        tmp[q++] = '"';
        for (size_t j = 0; j < ul && q < sizeof tmp - 4; j++) {
          if (key[j] == '"' || key[j] == '\\') tmp[q++] = '\\';
          tmp[q++] = key[j];
        }
        tmp[q++] = '"';
        tmp[q++] = ']';
        m = (int)q;
      }
    } else if (f->kind == WF_DENSE) m = snprintf(tmp, sizeof tmp, "[%zu]", i);
    else if (f->kind == WF_SPARSE) m = snprintf(tmp, sizeof tmp, "[%zu]", f->next ? f->next - 1 : 0);
    else if (f->kind == WF_MAP) m = snprintf(tmp, sizeof tmp, "<Map %s %zu>", i % 2 ? "value" : "key", i / 2);
    else if (f->kind == WF_SET) m = snprintf(tmp, sizeof tmp, "<Set %zu>", i);
    if (m > 0) ADD(tmp, (size_t)m < sizeof tmp ? (size_t)m : sizeof tmp - 1);
  }
  buf[n] = 0;
#undef ADD
}

/* rc (STRAIT_ETYPE, STRAIT_ERANGE) with "cannot convert WHAT at PATH". */
static int wv_fail(wv *w, int rc, const char *what) {
  char path[200];
  wv_path(w, path, sizeof path);
  w->err->status = rc;
  snprintf(w->err->msg, sizeof w->err->msg, "cannot convert %.96s at %.140s", what, path);
  return rc;
}

#define WNEED(w, k) do { if (!strait__vbuf_need((w)->out, (k))) return wv_nomem(w); } while (0)

static void wv_u8(wv *w, uint8_t v) { w->out->data[w->out->len++] = v; }
static void wv_u32(wv *w, uint32_t v) { memcpy(w->out->data + w->out->len, &v, 4); w->out->len += 4; }

static int wv_tag32(wv *w, uint8_t tag, uint32_t v) {
  WNEED(w, 5);
  wv_u8(w, tag);
  wv_u32(w, v);
  return 0;
}

/* INT32 / INT64 / DOUBLE, the rule of the format */
static int wv_number(wv *w, double d) {
  WNEED(w, 9);
  if (d >= -2147483648.0 && d <= 2147483647.0 && (double)(int32_t)d == d && !(d == 0 && signbit(d))) {
    wv_u8(w, STRAIT_V_INT32);
    wv_u32(w, (uint32_t)(int32_t)d);
  } else if (d >= -9007199254740991.0 && d <= 9007199254740991.0 && (double)(int64_t)d == d && d != 0) {
    int64_t l = (int64_t)d;
    wv_u8(w, STRAIT_V_INT64);
    memcpy(w->out->data + w->out->len, &l, 8);
    w->out->len += 8;
  } else {
    wv_u8(w, STRAIT_V_DOUBLE);
    memcpy(w->out->data + w->out->len, &d, 8);
    w->out->len += 8;
  }
  return 0;
}

/* STRING8 when every unit is below 256, else STRING16 */
static int wv_chars(wv *w, const JSChar *c, size_t n) {
  if (n > UINT32_MAX) return wv_fail(w, STRAIT_ERANGE, "a string of more than 2^32-1 characters");
  WNEED(w, 5 + 2 * n);
  uint8_t *o = w->out->data + w->out->len;
  size_t i = 0;
  for (; i < n && c[i] < 256; i++) o[5 + i] = (uint8_t)c[i];
  uint32_t len = (uint32_t)n;
  o[0] = i == n ? STRAIT_V_STRING8 : STRAIT_V_STRING16;
  memcpy(o + 1, &len, 4);
  if (i < n) memcpy(o + 5, c, 2 * n);
  w->out->len += 5 + (i == n ? n : 2 * n);
  return 0;
}

static uint64_t wv_hash(const JSChar *c, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 1099511628211ull;
  return h ^ n;
}

/* Key j of shape sid: KEYREF when its text was written as a key before
 * (as the codec's writers do), else in full (and into the table). */
static int wv_key(wv *w, size_t sid, size_t j) {
  uint32_t *cache = &w->kidx[w->sbase[sid] + j];
  if (*cache != WV_NONE) return wv_tag32(w, STRAIT_V_KEYREF, *cache);
  size_t s = w->skey[sid] + j, n;
  const JSChar *c = wv_str(w, s, &n);
  if ((w->nkeys + 1) * 2 > w->kcap) {
    size_t nc = w->kcap ? w->kcap * 2 : 64;
    size_t *nt = calloc(nc, sizeof *nt);
    uint32_t *nn = calloc(nc, sizeof *nn);
    if (!nt || !nn) { free(nt); free(nn); return wv_nomem(w); }
    for (size_t i = 0; i < w->kcap; i++) {
      if (!w->ktab[i]) continue;
      size_t kl;
      const JSChar *kc = wv_str(w, w->ktab[i] - 1, &kl);
      size_t h = (size_t)wv_hash(kc, kl) & (nc - 1);
      while (nt[h]) h = (h + 1) & (nc - 1);
      nt[h] = w->ktab[i];
      nn[h] = w->kno[i];
    }
    free(w->ktab);
    free(w->kno);
    w->ktab = nt;
    w->kno = nn;
    w->kcap = nc;
  }
  size_t h = (size_t)wv_hash(c, n) & (w->kcap - 1);
  for (; w->ktab[h]; h = (h + 1) & (w->kcap - 1)) {
    size_t kl;
    const JSChar *kc = wv_str(w, w->ktab[h] - 1, &kl);
    if (kl == n && !memcmp(kc, c, n * sizeof *c)) {
      *cache = w->kno[h];
      return wv_tag32(w, STRAIT_V_KEYREF, *cache);
    }
  }
  w->ktab[h] = s + 1;
  w->kno[h] = (uint32_t)w->nkeys;
  *cache = (uint32_t)w->nkeys++;
  return wv_chars(w, c, n);
}

static int wv_push(wv *w, wv_frame f) {
  if (w->sp == w->scap) {
    size_t nc = w->scap ? w->scap * 2 : 32;
    wv_frame *ns = realloc(w->st, nc * sizeof *ns);
    if (!ns) return wv_nomem(w);
    w->st = ns;
    w->scap = nc;
  }
  w->st[w->sp++] = f;
  return 0;
}

/* n holes (UNDEFINED each), counted against STRAIT_V_MAX_HOLES as the
 * codec's writers count them. */
static int wv_holes(wv *w, size_t n) {
  if (!n) return 0;
  w->holes += n;
  w->seen += n;
  if (w->holes > STRAIT_V_MAX_HOLES && w->holes - STRAIT_V_MAX_HOLES > w->seen - w->holes) {
    char what[120];
    snprintf(what, sizeof what, "a sparse array whose holes outnumber its elements by more than %u",
             STRAIT_V_MAX_HOLES);
    return wv_fail(w, STRAIT_ERANGE, what);
  }
  WNEED(w, n);
  memset(w->out->data + w->out->len, STRAIT_V_UNDEFINED, n);
  w->out->len += n;
  return 0;
}

#define TOK(k) do { if (w->p + (k) > w->nt) return wv_corrupt(w); } while (0)
#define STRS(k) do { if (w->si + (k) > w->c->ns) return wv_corrupt(w); } while (0)

/* The next object id met: records where its tokens start (first time).
 * *fmt: its format index when it was written already, else WV_NONE. */
/* Grows *p (n items of size sz) to cap items. */
static bool wv_grow(void **p, size_t cap, size_t sz) {
  void *q = realloc(*p, cap * sz);
  if (!q) return false;
  *p = q;
  return true;
}

static int wv_id(wv *w, size_t start, size_t si0, uint32_t **fmt) {
  size_t id = w->nid++;
  if (id >= w->nobj || id > w->nrec) return wv_corrupt(w);
  if (id == w->nrec) {
    if (id == w->ocap) {
      size_t nc = w->ocap ? w->ocap * 2 : 256;
      if (!wv_grow((void **)&w->opos, nc, sizeof *w->opos) || !wv_grow((void **)&w->osi, nc, sizeof *w->osi) ||
          !wv_grow((void **)&w->ofmt, nc, sizeof *w->ofmt))
        return wv_nomem(w);
      memset(w->ofmt + w->ocap, 0xFF, (nc - w->ocap) * sizeof *w->ofmt);
      w->ocap = nc;
    }
    w->opos[id] = start;
    w->osi[id] = si0;
    w->nrec++;
  }
  *fmt = &w->ofmt[id];
  return 0;
}

static const uint8_t kViewSize[12] = {1, 1, 1, 2, 2, 4, 4, 4, 8, 8, 8, 1};

/* Reads one value at the tokens (p, si) and writes it when emit. A
 * container pushes its frame (emit false: read past; emit and written
 * before: a BACKREF, then read past). */
static int wv_value(wv *w, bool emit) {
  TOK(1);
  size_t start = w->p, si0 = w->si;
  int tag = (int)w->t[w->p++];
  uint32_t *fmt;
  int rc;
  switch (tag) {
    case CT_UNDEF: case CT_NULL: case CT_FALSE: case CT_TRUE:
      if (!emit) return 0;
      WNEED(w, 1);
      wv_u8(w, tag == CT_UNDEF ? STRAIT_V_UNDEFINED : tag == CT_NULL ? STRAIT_V_NULL
               : tag == CT_FALSE ? STRAIT_V_FALSE : STRAIT_V_TRUE);
      return 0;
    case CT_NUM:
      TOK(1);
      w->p++;
      return emit ? wv_number(w, w->t[w->p - 1]) : 0;
    case CT_STR: {
      STRS(1);
      size_t n;
      const JSChar *c = wv_str(w, w->si++, &n);
      return emit ? wv_chars(w, c, n) : 0;
    }
    case CT_BIGINT: {
      STRS(1);
      size_t n;
      const JSChar *c = wv_str(w, w->si++, &n);
      if (!emit) return 0;
      char *d = malloc(n + 1);
      if (!d) return wv_nomem(w);
      for (size_t i = 0; i < n; i++) d[i] = c[i] < 128 ? (char)c[i] : '?';
      uint8_t *mag = NULL;
      size_t mn = 0;
      bool neg = false;
      rc = strait__bigint_from_decimal(d, n, &mag, &mn, &neg);
      free(d);
      if (rc) return rc == STRAIT_ENOMEM ? wv_nomem(w) : wv_fail(w, STRAIT_ETYPE, "a BigInt");
      if (mn > UINT32_MAX || !strait__vbuf_need(w->out, 6 + mn)) { free(mag); return wv_nomem(w); }
      wv_u8(w, STRAIT_V_BIGINT);
      wv_u8(w, neg ? 1 : 0);
      wv_u32(w, (uint32_t)mn);
      if (mn) memcpy(w->out->data + w->out->len, mag, mn);
      w->out->len += mn;
      free(mag);
      return 0;
    }
    case CT_REF: {
      TOK(1);
      double d = w->t[w->p++];
      if (!emit) return 0;
      if (!(d >= 0 && d < (double)w->nrec)) return wv_corrupt(w);
      size_t id = (size_t)d;
      if (w->ofmt[id] != WV_NONE) return wv_tag32(w, STRAIT_V_BACKREF, w->ofmt[id]);
      /* only an array's non-index properties reached it: written here */
      rc = wv_push(w, (wv_frame){.kind = WF_JUMP, .emit = true, .n = 1, .p = w->p, .si = w->si, .nid = w->nid});
      if (rc) return rc;
      w->p = w->opos[id];
      w->si = w->osi[id];
      w->nid = id;
      return 0;
    }
    case CT_OBJ: case CT_OBJE: {
      TOK(1);
      double sd = w->t[w->p++];
      if (!(sd >= 0 && sd <= (double)w->nshape)) return wv_corrupt(w);
      size_t sid = (size_t)sd;
      if (sid == w->nshape || w->sdef[sid] == start) {
        TOK(1);
        double kd = w->t[w->p++];
        if (!(kd >= 0 && kd <= (double)(w->c->ns - w->si))) return wv_corrupt(w);
        if (sid == w->nshape) {
          if (sid >= w->nobj) return wv_corrupt(w);
          if (sid == w->shcap) {
            size_t nc = w->shcap ? w->shcap * 2 : 32;
            if (!wv_grow((void **)&w->sdef, nc, sizeof *w->sdef) || !wv_grow((void **)&w->skey, nc, sizeof *w->skey) ||
                !wv_grow((void **)&w->skn, nc, sizeof *w->skn) || !wv_grow((void **)&w->sbase, nc, sizeof *w->sbase))
              return wv_nomem(w);
            w->shcap = nc;
          }
          w->sdef[sid] = start;
          w->skey[sid] = w->si;
          w->skn[sid] = (size_t)kd;
          w->sbase[sid] = w->nkidx;
          w->nkidx += (size_t)kd;
          w->nshape++;
        }
        w->si += (size_t)kd;
      }
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      size_t kn = w->skn[sid];
      bool em = emit && *fmt == WV_NONE;
      if (emit && !em) rc = wv_tag32(w, STRAIT_V_BACKREF, *fmt);
      else if (em) {
        *fmt = w->nfmt++;
        rc = wv_tag32(w, STRAIT_V_OBJECT, (uint32_t)kn);
      }
      if (rc) return rc;
      return kn ? wv_push(w, (wv_frame){.kind = WF_OBJ, .emit = em, .sid = (uint32_t)sid, .n = kn}) : 0;
    }
    case CT_ARR: {
      TOK(4);
      double len = w->t[w->p], nx = w->t[w->p + 2], e = w->t[w->p + 3];
      bool dense = w->t[w->p + 1] == 0;
      w->p += 4;
      if (!(len >= 0 && len <= 4294967295.0 && nx >= 0 && nx <= (double)w->nt && e >= 0 && e <= (double)w->nt))
        return wv_corrupt(w);
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      bool em = emit && *fmt == WV_NONE;
      size_t n = (size_t)len;
      if (em) {
        if (len > STRAIT_V_MAX_ARRAY) {
          char what[120];
          snprintf(what, sizeof what, "an array of length %.0f (a Java List holds at most %u elements)", len,
                   STRAIT_V_MAX_ARRAY);
          return wv_fail(w, STRAIT_ERANGE, what);
        }
        *fmt = w->nfmt++;
      } else if (emit && (rc = wv_tag32(w, STRAIT_V_BACKREF, *fmt))) return rc;
      /* the non-index properties come after the elements: read past */
      if (nx > 0 && (rc = wv_push(w, (wv_frame){.kind = WF_KEYED, .n = (size_t)nx}))) return rc;
      if (!dense) {
        if (em && (rc = wv_tag32(w, STRAIT_V_ARRAY, (uint32_t)n))) return rc;
        if (e > 0 || (em && n > 0))
          return wv_push(w, (wv_frame){.kind = WF_SPARSE, .emit = em, .n = (size_t)e, .len = n});
        return 0;
      }
      if (em && n > 0 && w->p + 2 * n <= w->nt) {
        /* every element a number: ARRAY_I32 or ARRAY_F64 */
        bool all_num = true, all_int = true;
        for (size_t k = 0; k < n && all_num; k++) {
          if (w->t[w->p + 2 * k] != CT_NUM) all_num = false;
          else if (all_int) {
            double x = w->t[w->p + 2 * k + 1];
            if (!(x >= -2147483648.0 && x <= 2147483647.0 && (double)(int32_t)x == x && !(x == 0 && signbit(x))))
              all_int = false;
          }
        }
        if (all_num) {
          WNEED(w, 5 + 8 * n);
          wv_u8(w, all_int ? STRAIT_V_ARRAY_I32 : STRAIT_V_ARRAY_F64);
          wv_u32(w, (uint32_t)n);
          for (size_t k = 0; k < n; k++) {
            double x = w->t[w->p + 2 * k + 1];
            if (all_int) wv_u32(w, (uint32_t)(int32_t)x);
            else { memcpy(w->out->data + w->out->len, &x, 8); w->out->len += 8; }
          }
          w->p += 2 * n;
          w->seen += n;
          return 0;
        }
      }
      if (em && (rc = wv_tag32(w, STRAIT_V_ARRAY, (uint32_t)n))) return rc;
      return n ? wv_push(w, (wv_frame){.kind = WF_DENSE, .emit = em, .n = n}) : 0;
    }
    case CT_DATE: {
      TOK(1);
      double d = w->t[w->p++];
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      if (!emit) return 0;
      if (*fmt != WV_NONE) return wv_tag32(w, STRAIT_V_BACKREF, *fmt);
      if (!isfinite(d)) return wv_fail(w, STRAIT_ETYPE, "an invalid Date");
      *fmt = w->nfmt++;
      WNEED(w, 9);
      wv_u8(w, STRAIT_V_DATE);
      memcpy(w->out->data + w->out->len, &d, 8);
      w->out->len += 8;
      return 0;
    }
    case CT_REGEXP: case CT_BOOLO: case CT_NUMO: case CT_STRO: case CT_BIGO: {
      if (tag == CT_REGEXP) { STRS(2); w->si += 2; }
      else if (tag == CT_BOOLO || tag == CT_NUMO) { TOK(1); w->p++; }
      else { STRS(1); w->si++; }
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      if (!emit) return 0;
      if (*fmt != WV_NONE) return wv_tag32(w, STRAIT_V_BACKREF, *fmt);
      return wv_fail(w, STRAIT_ETYPE, 
                    
                     tag == CT_REGEXP ? "a RegExp" : tag == CT_BOOLO ? "a Boolean object"
                     : tag == CT_NUMO ? "a Number object" : tag == CT_STRO ? "a String object" : "a BigInt object");
    }
    case CT_MAP: case CT_SET: {
      TOK(1);
      double cnt = w->t[w->p++];
      if (!(cnt >= 0 && cnt <= (double)w->nt)) return wv_corrupt(w);
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      bool em = emit && *fmt == WV_NONE;
      if (em) {
        *fmt = w->nfmt++;
        rc = wv_tag32(w, tag == CT_MAP ? STRAIT_V_MAP : STRAIT_V_SET, (uint32_t)cnt);
      } else if (emit) rc = wv_tag32(w, STRAIT_V_BACKREF, *fmt);
      if (rc) return rc;
      size_t n = (size_t)cnt * (tag == CT_MAP ? 2 : 1);
      return n ? wv_push(w, (wv_frame){.kind = tag == CT_MAP ? WF_MAP : WF_SET, .emit = em, .n = n}) : 0;
    }
    case CT_AB: case CT_RAB: {
      /* the value format has bytes only: a resizable buffer's maximum is dropped */
      TOK(tag == CT_RAB ? 2 : 1);
      double d = w->t[w->p];
      w->p += tag == CT_RAB ? 2 : 1;
      if (!emit) return 0;
      if (!(d >= 0 && d < (double)w->c->nbuf)) return wv_corrupt(w);
      size_t b = (size_t)d;
      if (w->bfmt[b] != WV_NONE) return wv_tag32(w, STRAIT_V_BACKREF, w->bfmt[b]);
      w->bfmt[b] = w->nfmt++;
      size_t n = w->c->bufs[b].len;
      if (n > UINT32_MAX) return wv_fail(w, STRAIT_ERANGE, "an ArrayBuffer over 4 GiB");
      WNEED(w, 6 + n);
      wv_u8(w, STRAIT_V_BYTES);
      wv_u8(w, STRAIT_VB_ARRAYBUFFER);
      wv_u32(w, (uint32_t)n);
      if (n) memcpy(w->out->data + w->out->len, w->c->bufs[b].data, n);
      w->out->len += n;
      return 0;
    }
    case CT_VIEW: case CT_RVIEW: {
      TOK(tag == CT_RVIEW ? 5 : 4);
      double vk = w->t[w->p], bd = w->t[w->p + 1], off = w->t[w->p + 2], len = w->t[w->p + 3];
      w->p += tag == CT_RVIEW ? 5 : 4;
      /* a tracking view: its bytes now (the value format has fixed views only) */
      if (tag == CT_RVIEW && vk >= CT_VIEW_TRACKS) vk -= CT_VIEW_TRACKS;
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      if (!emit) return 0;
      if (*fmt != WV_NONE) return wv_tag32(w, STRAIT_V_BACKREF, *fmt);
      if (!(vk >= 0 && vk < 12 && bd >= 0 && bd < (double)w->c->nbuf && off >= 0 && len >= 0)) return wv_corrupt(w);
      const clone_buf *b = &w->c->bufs[(size_t)bd];
      double bytes = len * kViewSize[(int)vk];
      if (off + bytes > (double)b->len) return wv_fail(w, STRAIT_ETYPE, "a view out of its buffer");
      if (bytes > UINT32_MAX) return wv_fail(w, STRAIT_ERANGE, "a view over 4 GiB");
      *fmt = w->nfmt++;
      size_t n = (size_t)bytes;
      WNEED(w, 6 + n);
      wv_u8(w, STRAIT_V_BYTES);
      wv_u8(w, (uint8_t)((int)vk + 1));  /* Int8Array 1 .. BigUint64Array 11, DataView 12 */
      wv_u32(w, (uint32_t)n);
      if (n) memcpy(w->out->data + w->out->len, (const uint8_t *)b->data + (size_t)off, n);
      w->out->len += n;
      return 0;
    }
    case CT_ERROR: {
      TOK(2);
      int fl = (int)w->t[w->p + 1];
      w->p += 2;
      size_t k = (fl & 1) + ((fl >> 1) & 1);
      STRS(k);
      w->si += k;
      if ((rc = wv_id(w, start, si0, &fmt))) return rc;
      if (emit) {
        if (*fmt != WV_NONE) return wv_tag32(w, STRAIT_V_BACKREF, *fmt);
        return wv_fail(w, STRAIT_ETYPE, "an Error");
      }
      return (fl & 4) ? wv_push(w, (wv_frame){.kind = WF_CAUSE, .n = 1}) : 0;
    }
    case CT_HOST:
      TOK(1);
      w->p++;
      return emit ? wv_fail(w, STRAIT_ETYPE, "a transferred object") : 0;
  }
  return wv_corrupt(w);
}

/* The walk: the root, then the frames' items until none is left. */
static int wv_run(wv *w) {
  int rc = wv_value(w, true);
  while (!rc && w->sp) {
    wv_frame *f = &w->st[w->sp - 1];
    if (f->i == f->n) {
      if (f->kind == WF_SPARSE && f->emit && (rc = wv_holes(w, f->len - f->next))) break;
      if (f->kind == WF_JUMP) {
        w->p = f->p;
        w->si = f->si;
        w->nid = f->nid;
      }
      w->sp--;
      continue;
    }
    size_t i = f->i++;
    bool emit = f->emit;
    switch (f->kind) {
      case WF_OBJ:
        if (emit && (rc = wv_key(w, f->sid, i))) return rc;
        break;
      case WF_DENSE:
        if (emit) w->seen++;
        if (w->p < w->nt && w->t[w->p] == CT_HOLE) {
          w->p++;
          if (emit) {
            w->seen--;  /* counted by wv_holes */
            rc = wv_holes(w, 1);
          }
          continue;
        }
        break;
      case WF_SPARSE: {
        TOK(1);
        double d = w->t[w->p++];
        if (!(d >= (double)f->next && d < (double)f->len)) return wv_corrupt(w);
        if (emit && (rc = wv_holes(w, (size_t)d - f->next))) return rc;
        f->next = (size_t)d + 1;
        if (emit) w->seen++;
        break;
      }
      case WF_KEYED:
        STRS(1);
        w->si++;
        break;
      default:
        break;
    }
    rc = wv_value(w, emit);
  }
  return rc;
}

int strait__clone_write_value(const strait__clone *c, strait_buffer *out, strait_value_error *err) {
  strait_value_error local;
  if (!err) err = &local;
  err->status = 0;
  err->offset = 0;
  err->msg[0] = 0;
  out->len = 0;
  if (!c || c->materialized) {
    err->status = STRAIT_EINVAL;
    snprintf(err->msg, sizeof err->msg, "the clone was materialized already (its buffers moved)");
    return STRAIT_EINVAL;
  }
  wv w;
  memset(&w, 0, sizeof w);
  w.c = c;
  w.out = out;
  w.err = err;
  w.t = c->tok;
  w.nt = c->nt;
  w.nobj = c->nt / 2 + 1;  /* a definition takes two tokens at least */
  w.chars = c->str ? JSStringGetCharactersPtr(c->str) : NULL;
  int rc = 0;
  w.soff = malloc((c->ns + 1) * sizeof *w.soff);
  w.bfmt = malloc((c->nbuf + 1) * sizeof *w.bfmt);
  w.kidx = malloc((c->ns + 1) * sizeof *w.kidx);
  if (!w.soff || !w.bfmt || !w.kidx) {
    rc = wv_nomem(&w);
    goto done;
  }
  size_t total = c->str ? JSStringGetLength(c->str) : 0;
  w.soff[0] = 0;
  for (size_t i = 0; i < c->ns; i++) {
    double l = c->tok[c->nt + i];
    if (!(l >= 0 && l <= (double)(total - w.soff[i]))) {
      rc = wv_corrupt(&w);
      goto done;
    }
    w.soff[i + 1] = w.soff[i] + (size_t)l;
  }
  memset(w.bfmt, 0xFF, (c->nbuf + 1) * sizeof *w.bfmt);
  memset(w.kidx, 0xFF, (c->ns + 1) * sizeof *w.kidx);
  if (!strait__vbuf_header(out)) {
    rc = wv_nomem(&w);
    goto done;
  }
  rc = wv_run(&w);
  if (!rc && out->failed) rc = wv_nomem(&w);
  if (!rc && out->len - STRAIT_V_HEADER > STRAIT_V_MAX_BYTES) {
    err->status = rc = STRAIT_ERANGE;
    snprintf(err->msg, sizeof err->msg, "cannot convert a value of more than %u bytes", STRAIT_V_MAX_BYTES);
  }
  if (!rc && !strait__vbuf_finish(out)) rc = wv_nomem(&w);
done:
  if (rc) out->len = 0;
  free(w.soff); free(w.opos); free(w.osi); free(w.ofmt); free(w.bfmt);
  free(w.sdef); free(w.skey); free(w.skn); free(w.sbase); free(w.kidx);
  free(w.ktab); free(w.kno); free(w.st);
  return rc;
}

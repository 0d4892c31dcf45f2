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
#include "common/jsc_private.h"
#include "runtime.h"
#include "value.h"

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

/* internal.clone (js/clone.js) of rt. NULL when missing. Inside the gate. */
static JSObjectRef clone_api(strait_runtime *rt) {
  if (!rt->internal) return NULL;
  JSValueRef v = strait_get_property(rt->ctx, rt->internal, "clone");
  return JSValueIsObject(rt->ctx, v) ? (JSObjectRef)v : NULL;
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
  JSObjectRef ro = (JSObjectRef)r;
  JSValueRef tv = at(ctx, ro, 0), joined = at(ctx, ro, 3), bv = at(ctx, ro, 4);
  size_t nt = (size_t)JSValueToNumber(ctx, at(ctx, ro, 1), NULL);
  size_t ns = (size_t)JSValueToNumber(ctx, at(ctx, ro, 2), NULL);
  if (!JSValueIsObject(ctx, tv) || !JSValueIsObject(ctx, bv)) {
    *exception = strait_make_error(ctx, "Error", "structured clone: bad serializer result");
    return STRAIT_EJS;
  }
  JSObjectRef bufs = (JSObjectRef)bv;
  size_t nbuf = length_of(ctx, bufs), nabs = length_of(ctx, abs);
  /* 3. all memory, before anything is detached */
  strait__clone *c = calloc(1, sizeof *c);
  if (!c) return oom(ctx, exception);
  c->nt = nt;
  c->ns = ns;
  c->hooks = hooks;
  c->tok = malloc((nt + ns) * sizeof(double) + 8);
  c->bufs = calloc(nbuf + 1, sizeof *c->bufs);
  c->hosts = calloc(nhost + 1, sizeof *c->hosts);
  if (!c->tok || !c->bufs || !c->hosts) goto nomem;
  const void *tp = JSObjectGetTypedArrayBytesPtr(ctx, (JSObjectRef)tv, NULL);
  if (!tp) goto nomem;
  memcpy(c->tok, tp, (nt + ns) * sizeof(double));
  if (ns) {
    c->str = JSValueToStringCopy(ctx, joined, &exc);
    if (!c->str) goto nomem;
  }
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
  (void)nabs;
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
  JSValueRef r = call_api(ctx, api, "captureCopy", 1, &value, &exc);
  if (!r || !JSValueIsObject(ctx, r)) {
    *exception = exc;
    return STRAIT_EJS;
  }
  JSObjectRef ro = (JSObjectRef)r;
  JSValueRef tv = at(ctx, ro, 0), bv = at(ctx, ro, 4);
  size_t nt = (size_t)JSValueToNumber(ctx, at(ctx, ro, 1), NULL);
  size_t ns = (size_t)JSValueToNumber(ctx, at(ctx, ro, 2), NULL);
  if (!JSValueIsObject(ctx, tv) || !JSValueIsObject(ctx, bv)) {
    *exception = strait_make_error(ctx, "Error", "structured clone: bad serializer result");
    return STRAIT_EJS;
  }
  JSObjectRef bufs = (JSObjectRef)bv;
  size_t nbuf = length_of(ctx, bufs);
  strait__clone *c = calloc(1, sizeof *c);
  if (!c) return oom(ctx, exception);
  c->nt = nt;
  c->ns = ns;
  c->hooks = hooks;
  c->tok = malloc((nt + ns) * sizeof(double) + 8);
  c->bufs = calloc(nbuf + 1, sizeof *c->bufs);
  if (!c->tok || !c->bufs) goto nomem;
  /* first: the token array is reused by the next clone */
  const void *tp = JSObjectGetTypedArrayBytesPtr(ctx, (JSObjectRef)tv, NULL);
  if (!tp) goto nomem;
  memcpy(c->tok, tp, (nt + ns) * sizeof(double));
  if (ns) {
    c->str = JSValueToStringCopy(ctx, at(ctx, ro, 3), &exc);
    if (!c->str) goto nomem;
  }
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
  JSObjectRef tok = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, c->tok, (c->nt + c->ns) * sizeof(double),
                                                           lent_dealloc, NULL, exception);
  if (!tok) return STRAIT_EJS;
  JSValueRef joined = c->str ? JSValueMakeString(ctx, c->str) : JSValueMakeUndefined(ctx);
  JSValueRef *items = malloc((c->nbuf > c->nhost ? c->nbuf : c->nhost) * sizeof *items + 1);
  if (!items) return oom(ctx, exception);
  for (size_t i = 0; i < c->nbuf; i++) {
    JSObjectRef b = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, c->bufs[i].data, c->bufs[i].len,
                                                           owned_dealloc, NULL, exception);
    if (!b) {
      free(items);
      return STRAIT_EJS;
    }
    c->bufs[i].data = NULL;  /* the ArrayBuffer owns it now */
    items[i] = b;
  }
  JSValueRef bufs = c->nbuf ? JSObjectMakeArray(ctx, c->nbuf, items, exception) : JSValueMakeUndefined(ctx);
  if (!bufs) {
    free(items);
    return STRAIT_EJS;
  }
  const strait__clone_hooks *h = rt->clone_hooks ? rt->clone_hooks : c->hooks;
  for (size_t i = 0; i < c->nhost; i++) {
    void *token = c->hosts[i];
    c->hosts[i] = NULL;
    JSValueRef o = token && h && h->give ? h->give(rt, token, exception) : NULL;
    if (!o) {
      if (token && !(h && h->give) && c->hooks && c->hooks->drop) c->hooks->drop(token);
      if (!*exception)
        *exception = strait_make_error(ctx, "Error", "structured clone: a transferred object could not be received");
      free(items);
      return STRAIT_EJS;
    }
    items[i] = o;
  }
  JSValueRef hosts = c->nhost ? JSObjectMakeArray(ctx, c->nhost, items, exception) : JSValueMakeUndefined(ctx);
  free(items);
  if (!hosts) return STRAIT_EJS;
  JSValueRef args[6] = {tok, JSValueMakeNumber(ctx, (double)c->nt), JSValueMakeNumber(ctx, (double)c->ns),
                        joined, bufs, hosts};
  JSValueRef r = call_api(ctx, api, "materialize", 6, args, exception);
  if (!r) return STRAIT_EJS;
  *result = r;
  return 0;
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

/* PLACEHOLDER until the converter lands: refuses every value. */
int strait__clone_write_value(const strait__clone *c, strait_buffer *out, strait_value_error *err) {
  (void)c;
  (void)out;
  err->status = STRAIT_ETYPE;
  err->offset = 0;
  snprintf(err->msg, sizeof err->msg, "not implemented yet");
  return STRAIT_ETYPE;
}

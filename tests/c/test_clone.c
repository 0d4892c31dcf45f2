/*
 * test_clone.c - the cross-runtime structured clone API (clone.h): a value
 * captured in runtime A and materialized in runtime B, on one thread and
 * across threads, with transfers, host transferables and errors.
 */
#include "internal.h"
#include "helpers.h"
#include "t.h"

#include <pthread.h>

/* Evaluates src in rt (inside its gate) and captures the result with
 * transfer expression tsrc (NULL: none). Returns the status; *exc_text
 * gets "Name: message" of an exception (malloc'd) when non-NULL. */
static int capture_expr(strait_runtime *rt, const char *src, const char *tsrc,
                        const strait__clone_hooks *hooks, strait__clone **out, char **exc_text) {
  strait_enter(rt);
  JSValueRef v = NULL, t = NULL, exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[a]", &v, &exc);
  if (!rc && tsrc) rc = strait_eval_utf8(rt, tsrc, strlen(tsrc), "[t]", &t, &exc);
  if (!rc) rc = strait__clone_capture(rt, v, t, hooks, out, &exc);
  if (rc && exc_text) {
    JSContextRef ctx = strait_runtime_context(rt);
    JSValueRef e = exc;
    char *name = NULL, *msg = NULL;
    if (e && JSValueIsObject(ctx, e)) {
      name = strait_utf8_from_value(ctx, strait_get_property(ctx, (JSObjectRef)e, "name"), NULL);
      msg = strait_utf8_from_value(ctx, strait_get_property(ctx, (JSObjectRef)e, "message"), NULL);
    }
    size_t n = (name ? strlen(name) : 4) + (msg ? strlen(msg) : 4) + 8;
    *exc_text = malloc(n);
    snprintf(*exc_text, n, "%s: %s", name ? name : "none", msg ? msg : "none");
    free(name);
    free(msg);
  }
  strait_leave(rt);
  return rc;
}

/* Materializes c in rt as globalThis.got. */
static int materialize_got(strait_runtime *rt, strait__clone *c) {
  strait_enter(rt);
  JSValueRef r = NULL, exc = NULL;
  int rc = strait__clone_materialize(rt, c, &r, &exc);
  if (!rc) {
    JSContextRef ctx = strait_runtime_context(rt);
    strait_set_property(ctx, JSContextGetGlobalObject(ctx), "got", r, kJSPropertyAttributeNone);
  }
  strait_leave(rt);
  return rc;
}

static const char *kValue =
    "(() => { const buf = new ArrayBuffer(16); new Uint8Array(buf).set([1,2,3,4,5]);"
    " const o = { n: -0, nan: NaN, big: -123456789012345678901234567890n, s: 'h\\u00e9\\ud800\\u4e16',"
    " long: 'x'.repeat(100000) + '\\u4e16', arr: [1, , 'three', { deep: [[[]]] }],"
    " d: new Date(1234), re: /a.c/giu, m: new Map([[{k: 1}, 'v'], ['k', new Set([1, 2])]]),"
    " u8: new Uint8Array(buf, 1, 3), dv: new DataView(buf, 2), f64: new Float64Array([1.5, -2]),"
    " b64: new BigInt64Array([-5n]), e: new TypeError('bad', { cause: { why: 1 } }),"
    " wrappers: [new Number(4), new String('s'), new Boolean(true), Object(5n)] };"
    " o.self = o; o.arr.push(o.m); o.same = o.arr[3];"
    " Object.defineProperty(o, '__proto__', { value: { p: 1 }, enumerable: true, writable: true, configurable: true }); return o; })()";

static const char *kCheck =
    "(() => { const o = got, c = [];"
    " c.push(o.self === o, Object.is(o.n, -0), Number.isNaN(o.nan), o.big === -123456789012345678901234567890n);"
    " c.push(o.s === 'h\\u00e9\\ud800\\u4e16', o.long.length === 100001, o.long.endsWith('\\u4e16'));"
    " c.push(o.arr.length === 5, !(1 in o.arr), o.arr[2] === 'three', o.arr[3] === o.same, o.arr[4] === o.m);"
    " c.push(o.d.getTime() === 1234, o.re.source === 'a.c', o.re.flags === 'giu');"
    " const ks = [...o.m.keys()]; c.push(ks[0].k === 1, o.m.get(ks[0]) === 'v', o.m.get('k').has(2));"
    " c.push(o.u8.buffer === o.dv.buffer, o.u8.byteOffset === 1, o.u8.length === 3, o.u8[0] === 2, o.dv.getUint8(0) === 3);"
    " c.push(o.f64[0] === 1.5, o.b64[0] === -5n, o.e instanceof TypeError, o.e.message === 'bad', o.e.cause.why === 1);"
    " c.push(typeof o.wrappers[0] === 'object' && o.wrappers[0] + 1 === 5, String(o.wrappers[1]) === 's');"
    " c.push(Object.getOwnPropertyDescriptor(o, '__proto__').value.p === 1, Object.getPrototypeOf(o) === Object.prototype);"
    " const bad = c.indexOf(false); return bad < 0 ? 'ok' : 'check ' + bad; })()";

static void round_trip_between_runtimes(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  strait__clone *c = NULL;
  char *err = NULL;
  T_EQ_INT(capture_expr(a, kValue, NULL, NULL, &c, &err), 0);
  if (err) fprintf(stderr, "%s\n", err);
  free(err);
  T_CHECK(c != NULL);
  T_CHECK(strait__clone_bytes(c) > 100000);
  T_EQ_INT(materialize_got(b, c), 0);
  T_EVAL(b, kCheck, "'ok'");
  /* at most once */
  strait_enter(b);
  JSValueRef r = NULL, exc = NULL;
  T_EQ_INT(strait__clone_materialize(b, c, &r, &exc), STRAIT_EINVAL);
  strait_leave(b);
  strait__clone_free(c);
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

static void transfer_detaches_in_source(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  strait__clone *c = NULL;
  T_EVAL(a, "globalThis.ab = new ArrayBuffer(1 << 20); new Uint8Array(ab)[5] = 42; globalThis.v = new Uint16Array(ab, 2, 4); 1", "1");
  T_EQ_INT(capture_expr(a, "({ v, ab })", "[ab]", NULL, &c, NULL), 0);
  T_EVAL(a, "[ab.byteLength, ab.detached, v.length]", "[ 0, true, 0 ]");
  T_EQ_INT(materialize_got(b, c), 0);
  T_EVAL(b, "[got.ab.byteLength, new Uint8Array(got.ab)[5], got.v.buffer === got.ab, got.v.byteOffset, got.v.length]",
         "[ 1048576, 42, true, 2, 4 ]");
  strait__clone_free(c);
  /* freed without materializing: its memory goes (ASan checks) */
  c = NULL;
  T_EVAL(a, "globalThis.ab2 = new ArrayBuffer(4096); 1", "1");
  T_EQ_INT(capture_expr(a, "({ ab2, s: 'y'.repeat(5000) })", "[ab2]", NULL, &c, NULL), 0);
  T_EVAL(a, "ab2.detached", "true");
  strait__clone_free(c);
  strait__clone_free(NULL);
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

static void errors_detach_nothing(void) {
  tcap ca = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL);
  strait__clone *c = NULL;
  char *err = NULL;
  T_EVAL(a, "globalThis.ab = new ArrayBuffer(8); 1", "1");
  T_EQ_INT(capture_expr(a, "({ ab, f: function foo() {} })", "[ab]", NULL, &c, &err), STRAIT_EJS);
  T_EQ_STR(err, "DataCloneError: function foo() {} could not be cloned.");
  free(err);
  err = NULL;
  T_CHECK(c == NULL);
  T_EVAL(a, "ab.detached", "false");
  T_EQ_INT(capture_expr(a, "1", "[ab, ab]", NULL, &c, &err), STRAIT_EJS);
  T_CONTAINS(err, "DataCloneError: ");
  T_CONTAINS(err, "duplicate");
  free(err);
  err = NULL;
  T_EQ_INT(capture_expr(a, "1", "[1]", NULL, &c, &err), STRAIT_EJS);
  T_CONTAINS(err, "TypeError: ");
  free(err);
  err = NULL;
  T_EQ_INT(capture_expr(a, "1", "[{}]", NULL, &c, &err), STRAIT_EJS);
  T_EQ_STR(err, "DataCloneError: #<Object> could not be transferred.");
  free(err);
  err = NULL;
  T_EQ_INT(capture_expr(a, "({ get x() { throw new RangeError('from getter'); } })", "[ab]", NULL, &c, &err), STRAIT_EJS);
  T_EQ_STR(err, "RangeError: from getter");
  free(err);
  T_EVAL(a, "ab.detached", "false");
  strait_runtime_free(a);
  tcap_free(&ca);
}

/* Fake host transferables: objects with isPort; the token is a malloc'd
 * int, given back as { port: n }. */
static int g_given, g_dropped;
static void *h_take(strait_runtime *rt, JSObjectRef obj, bool commit) {
  JSContextRef ctx = strait_runtime_context(rt);
  JSValueRef v = strait_get_property(ctx, obj, "isPort");
  if (!JSValueIsNumber(ctx, v)) return NULL;
  if (!commit) return (void *)1;
  int *t = malloc(sizeof *t);
  *t = (int)JSValueToNumber(ctx, v, NULL);
  strait_set_property(ctx, obj, "isPort", JSValueMakeUndefined(ctx), kJSPropertyAttributeNone);
  return t;
}
static JSValueRef h_give(strait_runtime *rt, void *token, JSValueRef *exception) {
  JSContextRef ctx = strait_runtime_context(rt);
  JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
  strait_set_property(ctx, o, "port", JSValueMakeNumber(ctx, *(int *)token), kJSPropertyAttributeNone);
  free(token);
  g_given++;
  return o;
}
static void h_drop(void *token) {
  free(token);
  g_dropped++;
}
static const strait__clone_hooks kHooks = {h_take, h_give, h_drop};

static void host_transferables(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  strait__clone *c = NULL;
  char *err = NULL;
  T_EVAL(a, "globalThis.p = { isPort: 7 }; globalThis.q = { isPort: 8 }; 1", "1");
  T_EQ_INT(capture_expr(a, "({ p, again: p })", "[p, q]", &kHooks, &c, &err), 0);
  free(err);
  T_EVAL(a, "[p.isPort, q.isPort]", "[ undefined, undefined ]");
  T_EQ_INT(materialize_got(b, c), 0);
  T_EQ_INT(g_given, 2);
  T_EVAL(b, "[got.p.port, got.again === got.p]", "[ 7, true ]");
  strait__clone_free(c);
  /* never materialized: tokens dropped */
  c = NULL;
  T_EVAL(a, "globalThis.r = { isPort: 9 }; 1", "1");
  T_EQ_INT(capture_expr(a, "r", "[r]", &kHooks, &c, NULL), 0);
  strait__clone_free(c);
  T_EQ_INT(g_dropped, 1);
  /* without hooks a host object is not transferable */
  T_EVAL(a, "globalThis.s = { isPort: 1 }; 1", "1");
  T_EQ_INT(capture_expr(a, "s", "[s]", NULL, &c, NULL), STRAIT_EJS);
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

/* Materialize on the sender's thread while it is inside A and enters B
 * (as a worker's postMessage does). */
static void materialize_nested_in_source(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  strait__clone *c = NULL;
  strait_enter(a);
  T_EQ_INT(capture_expr(a, "({ list: [1, 2, { x: 'y' }] })", NULL, NULL, &c, NULL), 0);
  T_EQ_INT(materialize_got(b, c), 0);
  strait_leave(a);
  T_EVAL(b, "JSON.stringify(got)", "'{\"list\":[1,2,{\"x\":\"y\"}]}'");
  strait__clone_free(c);
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

typedef struct xfer {
  strait_runtime *rt;
  strait__clone *c;
  int rc;
} xfer;

/* Captures globalThis.val of x->rt without parsing anything on this
 * thread (JSC keeps atoms a parser makes on a thread that then exits). */
static void *capture_thread(void *p) {
  xfer *x = p;
  strait_enter(x->rt);
  JSContextRef ctx = strait_runtime_context(x->rt);
  JSValueRef v = strait_get_property(ctx, JSContextGetGlobalObject(ctx), "val"), exc = NULL;
  x->rc = strait__clone_capture(x->rt, v, NULL, NULL, &x->c, &exc);
  strait_leave(x->rt);
  return NULL;
}
static void *materialize_thread(void *p) {
  xfer *x = p;
  x->rc = materialize_got(x->rt, x->c);
  return NULL;
}

static void capture_and_materialize_on_two_threads(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  char *src = malloc(strlen(kValue) + 32);
  sprintf(src, "globalThis.val = %s; 1", kValue);
  T_EVAL(a, src, "1");
  free(src);
  /* round 0 on this thread: the functions are compiled here */
  for (int round = 0; round < 4; round++) {
    xfer x = {a, NULL, -1};
    pthread_t th;
    if (round) {
      pthread_create(&th, NULL, capture_thread, &x);
      pthread_join(th, NULL);
    } else capture_thread(&x);
    T_EQ_INT(x.rc, 0);
    x.rt = b;
    if (round) {
      pthread_create(&th, NULL, materialize_thread, &x);
      pthread_join(th, NULL);
    } else materialize_thread(&x);
    T_EQ_INT(x.rc, 0);
    T_EVAL(b, kCheck, "'ok'");
    strait__clone_free(x.c);
  }
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

int main(void) {
  T_RUN(round_trip_between_runtimes);
  T_RUN(transfer_detaches_in_source);
  T_RUN(errors_detach_nothing);
  T_RUN(host_transferables);
  T_RUN(materialize_nested_in_source);
  T_RUN(capture_and_materialize_on_two_threads);
  return T_DONE();
}

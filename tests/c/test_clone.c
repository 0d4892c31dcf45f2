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

/* A view made without a length over a resizable buffer tracks the length
 * of its buffer's copy in the target (also when the buffer is
 * transferred); one made with a length, also one ending at the buffer's
 * end, stays fixed. The sender's buffer is left as it was. */
static void tracking_views_between_runtimes(void) {
  static const char *kViews =
      "globalThis.mk = () => { const b = new ArrayBuffer(16, {maxByteLength: 32}), full = new ArrayBuffer(16, {maxByteLength: 16});"
      " new Uint8Array(b).set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]); new Uint8Array(full).set(new Uint8Array(b));"
      " return { b, full, t: new Uint16Array(b, 4), f: new Uint16Array(b, 4, 6), d: new DataView(b, 3), df: new DataView(b, 3, 13),"
      " ft: new Float64Array(full, 8), ff: new Float64Array(full, 8, 1), fd: new DataView(full) }; }; 1";
  /* [lengths now; after growing the buffers to 32 / shrinking `full` to 12] */
  static const char *kCheck =
      "(() => { const o = got, st = (v) => { try { return v instanceof DataView ? v.byteLength : (v.set([]), v.length); }"
      " catch (e) { return 'oob'; } }, all = ['t', 'f', 'd', 'df', 'ft', 'ff', 'fd'];"
      " const r = all.map((k) => st(o[k])); r.push(o.t.buffer === o.b && o.d.buffer === o.b, new Uint8Array(o.full)[15]);"
      " o.b.resize(32); o.full.resize(12); r.push(...all.map((k) => st(o[k]))); return r.join(); })()";
  static const char *kWant = "'6,6,13,13,1,1,16,true,16,14,6,29,13,0,oob,12'";
  for (int transfer = 0; transfer < 2; transfer++) {
    tcap ca = {0}, cb = {0};
    strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
    strait__clone *c = NULL;
    T_EVAL(a, kViews, "1");
    T_EVAL(a, "globalThis.o = mk(); 1", "1");
    T_EQ_INT(capture_expr(a, "o", transfer ? "[o.b, o.full]" : NULL, NULL, &c, NULL), 0);
    if (!transfer)
      T_EVAL(a, "[o.b.byteLength, o.full.byteLength, new Uint8Array(o.full)[15], o.t.length, o.ft.length].join()",
             "'16,16,16,6,1'");
    T_EQ_INT(materialize_got(b, c), 0);
    T_EVAL(b, kCheck, kWant);
    strait__clone_free(c);
    strait_runtime_free(a);
    strait_runtime_free(b);
    tcap_free(&ca);
    tcap_free(&cb);
  }
}

/* Objects are captured by their internal slots, not by their prototype or
 * tag: a Map, Date, Set, array whose prototype a script replaced arrive as
 * what they are; objects that only claim to be one arrive plain; a
 * disguised WeakMap is a DataCloneError. */
static void slots_decide_between_runtimes(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  strait__clone *c = NULL;
  char *err = NULL;
  T_EQ_INT(capture_expr(a,
                        "(() => { const m = new Map([[1, 2]]), s = new Set([3]), arr = [4, 5];"
                        " Object.setPrototypeOf(m, Object.prototype); Object.setPrototypeOf(s, Array.prototype);"
                        " Object.setPrototypeOf(arr, null);"
                        " return { m, s, arr, d: Object.setPrototypeOf(new Date(5), null),"
                        " fake: { __proto__: Map.prototype, x: 1 }, tag: { [Symbol.toStringTag]: 'Error', y: 2 } }; })()",
                        NULL, NULL, &c, &err),
           0);
  if (err) fprintf(stderr, "%s\n", err);
  free(err);
  err = NULL;
  T_EQ_INT(materialize_got(b, c), 0);
  T_EVAL(b,
         "[got.m instanceof Map && got.m.get(1), got.s instanceof Set && got.s.has(3), Array.isArray(got.arr) && got.arr[1],"
         " got.d instanceof Date && got.d.getTime(), Object.getPrototypeOf(got.fake) === Object.prototype && got.fake.x,"
         " Object.getPrototypeOf(got.tag) === Object.prototype && got.tag.y].join()",
         "'2,true,5,5,1,2'");
  strait__clone_free(c);
  c = NULL;
  T_EQ_INT(capture_expr(a, "({ w: [Object.setPrototypeOf(new WeakMap(), null)] })", NULL, NULL, &c, &err), STRAIT_EJS);
  T_CONTAINS(err ? err : "", "DataCloneError");
  free(err);
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
  /* a transferred host object has no form in the value format */
  c = NULL;
  T_EVAL(a, "globalThis.t = { isPort: 10 }; 1", "1");
  T_EQ_INT(capture_expr(a, "({ list: [1, t] })", "[t]", &kHooks, &c, NULL), 0);
  strait_buffer buf;
  strait_buffer_init(&buf, NULL, 0);
  strait_value_error verr;
  T_EQ_INT(strait__clone_write_value(c, &buf, &verr), STRAIT_ETYPE);
  T_EQ_STR(verr.msg, "cannot convert a transferred object at $.list[1]");
  strait_buffer_free(&buf);
  strait__clone_free(c);
  T_EQ_INT(g_dropped, 1);
  /* never materialized: tokens dropped */
  c = NULL;
  T_EVAL(a, "globalThis.r = { isPort: 9 }; 1", "1");
  T_EQ_INT(capture_expr(a, "r", "[r]", &kHooks, &c, NULL), 0);
  strait__clone_free(c);
  T_EQ_INT(g_dropped, 2);
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

/* The target's String.prototype.substring replaced (a function, then a
 * getter): the strings are cut with the intrinsic all the same. */
static void materialize_after_substring_replaced(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  static const char *kReplace[] = {
      "String.prototype.substring = () => { throw new Error('replaced substring called'); }; 1",
      "Object.defineProperty(String.prototype, 'substring', { get() { throw new Error('getter ran'); } }); 1",
  };
  for (int k = 0; k < 2; k++) {
    T_EVAL(b, kReplace[k], "1");
    strait__clone *c = NULL;
    T_EQ_INT(capture_expr(a, "({ s: 'abc', t: ['de', 'f\u4e16'], k: { 'key one': 1 } })", NULL, NULL, &c, NULL), 0);
    T_EQ_INT(materialize_got(b, c), 0);
    T_EVAL(b, "got.s + got.t.join('|') + Object.keys(got.k)[0]", "'abcde|f\u4e16key one'");
    strait__clone_free(c);
  }
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

/* ---- strait__clone_write_value ---- */

/* The value of src written by strait__clone_write_value from a clone
 * taken in rt, and by strait_value_encode from the value itself: the same
 * bytes (the clone is written as the encoder writes the original). */
static void same_bytes_as_encoder(strait_runtime *rt, const char *src) {
  strait__clone *c = NULL;
  char *exc_text = NULL;
  int rc = capture_expr(rt, src, NULL, NULL, &c, &exc_text);
  if (rc) fprintf(stderr, "capture of %s: %s\n", src, exc_text ? exc_text : "?");
  free(exc_text);
  T_EQ_INT(rc, 0);
  if (rc) return;
  strait_buffer got, want;
  strait_buffer_init(&got, NULL, 0);
  strait_buffer_init(&want, NULL, 0);
  strait_value_error err;
  rc = strait__clone_write_value(c, &got, &err);
  if (rc) fprintf(stderr, "write_value of %s: %s\n", src, err.msg);
  T_EQ_INT(rc, 0);
  strait_enter(rt);
  JSValueRef v = NULL, exc = NULL;
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), "[v]", &v, &exc), 0);
  T_EQ_INT(strait_value_encode(rt, v, &want, 0, NULL, &err, &exc), 0);
  strait_leave(rt);
  bool same = got.len == want.len && !memcmp(got.data, want.data, got.len);
  if (!same) {
    fprintf(stderr, "bytes differ for %s (clone %zu, encoder %zu):\n", src, got.len, want.len);
    for (size_t i = 0; i < got.len || i < want.len; i++)
      if (i >= got.len || i >= want.len || got.data[i] != want.data[i]) {
        fprintf(stderr, "  first at byte %zu\n", i);
        break;
      }
  }
  T_CHECK(same);
  strait_buffer_free(&got);
  strait_buffer_free(&want);
  strait__clone_free(c);
}

static void write_value_as_encoder(void) {
  tcap ca = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL);
  static const char *kExprs[] = {
      "42", "'str'", "undefined", "null", "true", "5n", "-0", "2147483648", "'x'.repeat(5000)",
      "[0, -0, 1, -1, 2147483647, -2147483648, 2147483648, 2**53 - 1, 2**53, 1.5, NaN, Infinity, -Infinity]",
      "[1, 2, 3]", "[1, 'a', 2.5, -0, 2**40, -(2**40), 2**60]", "[]", "[[], [[]], {}]",
      "({a: 1, b: 'x', c: null, d: undefined, e: true, f: false})",
      "['', 'abc', 'h\\u00e9\\u00ff', '\\u4e16', 'x\\ud800', 'a'.repeat(3000) + '\\u4e16']",
      "[0n, 1n, -1n, 255n, 256n, 123456789012345678901234567890n, -(2n ** 64n)]",
      "[new Date(1234), new Date(0), new Date(-1e12)]",
      "new Map([[1, 'a'], ['k', {x: 1}], [{}, new Set([1, 'b', [2]])]])",
      "(() => { const b = new ArrayBuffer(8); new Uint8Array(b).set([1, 2, 3, 4, 5, 6, 7, 8]);"
      " return {b, u8: new Uint8Array(b, 2, 3), i16: new Int16Array(b, 2, 2), dv: new DataView(b, 1, 4),"
      " f64: new Float64Array([1.5, -0]), bi: new BigUint64Array([5n]), c8: new Uint8ClampedArray([300]),"
      " i8: new Int8Array([-1]), u16: new Uint16Array([65535]), i32: new Int32Array([-7]),"
      " u32: new Uint32Array([7]), f32: new Float32Array([0.5]), b64: new BigInt64Array([-5n]), again: b}; })()",
      /* a resizable buffer's tokens carry its maximum, which the value format drops */
      "(() => { const b = new ArrayBuffer(8, {maxByteLength: 64}); new Uint8Array(b).set([9, 8, 7, 6, 5, 4, 3, 2]);"
      " return {b, u8: new Uint8Array(b, 1, 3), dv: new DataView(b, 2, 2), again: b, f: new Float32Array(b, 4, 1)}; })()",
      "(() => { const b = new ArrayBuffer(4, {maxByteLength: 8}); return [new Int16Array(b), b]; })()",
      /* views tracking their buffer's length: their bytes now */
      "(() => { const b = new ArrayBuffer(12, {maxByteLength: 12}); new Uint8Array(b).set([1, 2, 3, 4, 5, 6, 7, 8, 9]);"
      " return [new Uint16Array(b, 2), new DataView(b, 5), new Int32Array(b), new Uint8Array(b, 12), b]; })()",
      "(() => { const s = {v: 1}; const o = {a: s, b: s, l: [s, s]}; o.self = o; o.l.push(o.l, o); return o; })()",
      "(() => { const m = new Map(); m.set(m, m); const st = new Set(); st.add(st); return [m, st, m]; })()",
      "[{id: 1, name: 'a'}, {id: 2, name: 'b'}, {name: 'c', id: 3}, {id: 4, name: 'd', x: {id: 5}}]",
      "[1, , 3]", "[, , 'x', , ]", "(() => { const a = []; a[10] = 1; a[3] = 'x'; return a; })()",
      "(() => { const a = []; a.length = 100; return [a, a]; })()",
      "(() => { const a = [1, 2]; a.x = {y: 1}; a.z = [a.x]; return {a, b: a.x, c: a.z}; })()",
      "(() => { const a = [{k: 1}]; a.x = {y: a[0]}; return [a, a.x, a.x]; })()",
      "JSON.parse('{\"__proto__\": 1, \"a\": 2, \"b c\": 3, \"\": 4}')",
      "({b: 1, 2: 'x', 1: 'y', [String.fromCharCode(0x4e16)]: 'wide key'})",
      "new (class P { constructor() { this.x = 1; this.y = [2]; } })()",
      "Object.assign(Object.create(null), {a: 1, n: {b: 2}})",
      "Array.from({length: 40}, (_, i) => ({['k' + i]: i, [i % 2 ? 'odd' : 'even']: [i]}))",
      "(() => { const a = []; for (let i = 0; i < 300; i++) a.push({id: i, tags: ['t' + (i % 7)], o: {z: i / 3}});"
      " return {total: 300, items: a}; })()",
  };
  for (size_t i = 0; i < sizeof kExprs / sizeof kExprs[0]; i++) same_bytes_as_encoder(a, kExprs[i]);
  strait_runtime_free(a);
  tcap_free(&ca);
}

/* The bytes read back in another runtime are the value. */
static void write_value_reads_back(void) {
  tcap ca = {0}, cb = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL), *b = trt_new(&cb, 0, NULL);
  strait__clone *c = NULL;
  const char *src =
      "(() => { const o = {n: [1, 2.5, -0], s: 'h\\u4e16', big: -(2n ** 70n), d: new Date(5), h: [1, , 3],"
      " m: new Map([['k', new Set(['v'])]]), u8: new Uint8Array([9, 8]) }; o.self = o; return o; })()";
  T_EQ_INT(capture_expr(a, src, NULL, NULL, &c, NULL), 0);
  strait_buffer buf;
  strait_buffer_init(&buf, NULL, 0);
  strait_value_error err;
  T_EQ_INT(strait__clone_write_value(c, &buf, &err), 0);
  strait_enter(b);
  JSValueRef v = NULL, exc = NULL;
  T_EQ_INT(strait_value_decode(b, buf.data, buf.len, NULL, &v, &err, &exc), 0);
  JSContextRef ctx = strait_runtime_context(b);
  strait_set_property(ctx, JSContextGetGlobalObject(ctx), "got", v, kJSPropertyAttributeNone);
  strait_leave(b);
  T_EVAL(b,
         "(() => { const o = got, c = [o.self === o, o.n.length === 3, o.n[1] === 2.5, Object.is(o.n[2], -0),"
         " o.s === 'h\\u4e16', o.big === -(2n ** 70n), o.d.getTime() === 5, o.h.length === 3,"
         " o.h[1] === undefined, o.m.get('k').has('v'), o.u8 instanceof Uint8Array, o.u8[1] === 8];"
         " const bad = c.indexOf(false); return bad < 0 ? 'ok' : 'check ' + bad; })()",
         "'ok'");
  strait_buffer_free(&buf);
  strait__clone_free(c);
  strait_runtime_free(a);
  strait_runtime_free(b);
  tcap_free(&ca);
  tcap_free(&cb);
}

/* What the format has no tag for: STRAIT_ETYPE naming it and where. */
static void write_value_refuses(void) {
  tcap ca = {0};
  strait_runtime *a = trt_new(&ca, 0, NULL);
  static const char *kCases[][2] = {
      {"({a: [1, /x/]})", "cannot convert a RegExp at $.a[1]"},
      {"({w: new Number(1)})", "cannot convert a Number object at $.w"},
      {"[new String('s')]", "cannot convert a String object at $[0]"},
      {"({'odd key': [new Boolean(false)]})", "cannot convert a Boolean object at $[\"odd key\"][0]"},
      {"new Map([['k', new TypeError('e')]])", "cannot convert an Error at $<Map value 0>"},
      {"new Set([1, Object(2n)])", "cannot convert a BigInt object at $<Set 1>"},
      {"({d: new Date(NaN)})", "cannot convert an invalid Date at $.d"},
  };
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; i++) {
    strait__clone *c = NULL;
    T_EQ_INT(capture_expr(a, kCases[i][0], NULL, NULL, &c, NULL), 0);
    strait_buffer buf;
    strait_buffer_init(&buf, NULL, 0);
    strait_value_error err;
    T_EQ_INT(strait__clone_write_value(c, &buf, &err), STRAIT_ETYPE);
    T_EQ_INT(err.status, STRAIT_ETYPE);
    T_EQ_STR(err.msg, kCases[i][1]);
    T_EQ_INT((int)buf.len, 0);
    strait_buffer_free(&buf);
    strait__clone_free(c);
  }
  /* holes past the limit: ERANGE (the encoder throws a RangeError) */
  strait__clone *c = NULL;
  T_EQ_INT(capture_expr(a, "(() => { const a = []; a[5e6] = 1; return {a}; })()", NULL, NULL, &c, NULL), 0);
  strait_buffer buf;
  strait_buffer_init(&buf, NULL, 0);
  strait_value_error err;
  T_EQ_INT(strait__clone_write_value(c, &buf, &err), STRAIT_ERANGE);
  T_CONTAINS(err.msg, "holes outnumber its elements");
  T_CONTAINS(err.msg, "at $.a[");
  strait_buffer_free(&buf);
  /* a materialized clone's buffers are gone */
  strait_runtime *b = trt_new(&ca, 0, NULL);
  T_EQ_INT(materialize_got(b, c), 0);
  T_EQ_INT(strait__clone_write_value(c, &buf, &err), STRAIT_EINVAL);
  strait__clone_free(c);
  strait_runtime_free(b);
  strait_runtime_free(a);
  tcap_free(&ca);
}

int main(void) {
  T_RUN(round_trip_between_runtimes);
  T_RUN(transfer_detaches_in_source);
  T_RUN(tracking_views_between_runtimes);
  T_RUN(slots_decide_between_runtimes);
  T_RUN(errors_detach_nothing);
  T_RUN(host_transferables);
  T_RUN(materialize_nested_in_source);
  T_RUN(capture_and_materialize_on_two_threads);
  T_RUN(materialize_after_substring_replaced);
  T_RUN(write_value_as_encoder);
  T_RUN(write_value_reads_back);
  T_RUN(write_value_refuses);
  return T_DONE();
}

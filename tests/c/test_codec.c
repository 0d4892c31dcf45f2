/* test_codec.c - the value format in C: the shared vectors (tests/vectors)
 * byte for byte, JS round trips keeping types, sharing and cycles, errors
 * naming the path, deep nesting, spilling, hooks, and corrupt input.
 * STRAIT_GEN_VECTORS=1 rewrites the .bin files from the C writer. */
#include "t.h"
#include "helpers.h"
#include "internal.h"
#include "codec.h"

#include <dirent.h>

static strait_runtime *rt;
static JSContextRef ctx;
static bool use_js;          /* run through the JS fast path (codec_js.c) */

/* strait__codec_write or its JS twin, per use_js. */
static int write_any(JSValueRef v, strait_buffer *out, unsigned flags, const strait_value_hooks *h,
                     strait_value_error *err, JSValueRef *exc) {
  return use_js ? strait_value_encode(rt, v, out, flags, h, err, exc)
                : strait__codec_write(ctx, v, out, flags, h, err, exc);
}

/* strait__codec_read or its JS twin, per use_js. */
static int read_any(const uint8_t *buf, size_t n, const strait_value_hooks *h, JSValueRef *v,
                    strait_value_error *err, JSValueRef *exc) {
  return use_js ? strait_value_decode(rt, buf, n, h, v, err, exc)
                : strait__codec_read(ctx, buf, n, h, v, err, exc);
}

/* Evaluates src inside the gate (the caller is inside). */
static JSValueRef ev(const char *src) {
  JSValueRef res = NULL, exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[codec]", &res, &exc);
  if (rc) {
    char *m = exc ? strait_utf8_from_value(ctx, exc, NULL) : NULL;
    fprintf(stderr, "eval failed (%s): %s\n  %s\n", strait_err_name(rc), m ? m : "", src);
    free(m);
    return JSValueMakeUndefined(ctx);
  }
  return res;
}

/* globalThis[name] = v. */
static void set_global(const char *name, JSValueRef v) {
  strait_set_property(ctx, JSContextGetGlobalObject(ctx), name, v, kJSPropertyAttributeNone);
}

/* True if the JS expression src is true. */
static bool js_true(const char *src) { return JSValueToBoolean(ctx, ev(src)); }

/* Reads a whole file into malloc'd memory. */
static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(sz > 0 ? (size_t)sz : 1);
  *n = fread(b, 1, (size_t)sz, f);
  fclose(f);
  return b;
}

/* Writes v with the default flags; returns status, bytes in *out. */
static int enc(JSValueRef v, strait_buffer *out, strait_value_error *err) {
  strait_buffer_init(out, NULL, 0);
  JSValueRef exc = NULL;
  return write_any(v, out, 0, NULL, err, &exc);
}

/* Reads buf into a JS value (NULL on error). */
static JSValueRef dec(const uint8_t *buf, size_t n, int *rc_out) {
  JSValueRef v = NULL, exc = NULL;
  strait_value_error err;
  int rc = read_any(buf, n, NULL, &v, &err, &exc);
  if (rc_out) *rc_out = rc;
  return rc ? NULL : v;
}

static void vectors_match_c_writer_and_reader(void) {
  DIR *d = opendir("tests/vectors");
  T_CHECK(d != NULL);
  if (!d) return;
  bool gen = getenv("STRAIT_GEN_VECTORS") != NULL;
  int count = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t nl = strlen(e->d_name);
    if (nl < 5 || strcmp(e->d_name + nl - 4, ".txt") != 0) continue;
    char path[512], bpath[512], js[4096] = "";
    snprintf(path, sizeof path, "tests/vectors/%s", e->d_name);
    snprintf(bpath, sizeof bpath, "tests/vectors/%.*s.bin", (int)(nl - 4), e->d_name);
    FILE *f = fopen(path, "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f))
      if (strncmp(line, "js: ", 4) == 0) snprintf(js, sizeof js, "%s", line + 4);
    if (f) fclose(f);
    T_CHECK(js[0] != 0);
    strait_buffer out;
    strait_value_error err;
    int rc = enc(ev(js), &out, &err);
    if (rc) t_fail(__FILE__, __LINE__, "%s: %s", e->d_name, err.msg);
    if (gen && !rc) {
      FILE *w = fopen(bpath, "wb");
      fwrite(out.data, 1, out.len, w);
      fclose(w);
    }
    size_t bn = 0;
    uint8_t *bin = slurp(bpath, &bn);
    if (!bin || bn != out.len || memcmp(bin, out.data, bn) != 0)
      t_fail(__FILE__, __LINE__, "%s: C writer bytes differ from %s", e->d_name, bpath);
    if (bin) {
      /* the JS fast path writes and reads the same bytes */
      strait_buffer jsout;
      strait_buffer_init(&jsout, NULL, 0);
      JSValueRef exc = NULL, jsback = NULL;
      rc = strait_value_encode(rt, ev(js), &jsout, 0, NULL, &err, &exc);
      if (rc || jsout.len != bn || memcmp(jsout.data, bin, bn) != 0)
        t_fail(__FILE__, __LINE__, "%s: JS writer bytes differ (%s)", e->d_name, err.msg);
      strait_buffer_free(&jsout);
      rc = strait_value_decode(rt, bin, bn, NULL, &jsback, &err, &exc);
      if (rc) t_fail(__FILE__, __LINE__, "%s: JS reader failed (%s)", e->d_name, err.msg);
      strait_buffer again2;
      if (!rc && enc(jsback, &again2, &err) == 0) {
        if (again2.len != bn || memcmp(again2.data, bin, bn) != 0)
          t_fail(__FILE__, __LINE__, "%s: %s", e->d_name, "JS-read then written differs");
        strait_buffer_free(&again2);
      }
      T_EQ_INT(strait__codec_validate(bin, bn, NULL), 0);
      JSValueRef back = dec(bin, bn, &rc);
      if (rc) t_fail(__FILE__, __LINE__, "%s: read failed %s", e->d_name, strait_err_name(rc));
      strait_buffer again;
      if (back && enc(back, &again, &err) == 0) {
        if (again.len != bn || memcmp(again.data, bin, bn) != 0)
          t_fail(__FILE__, __LINE__, "%s: %s", e->d_name, "read then written differs");
        strait_buffer_free(&again);
      }
    }
    free(bin);
    strait_buffer_free(&out);
    count++;
  }
  closedir(d);
  T_CHECK(count >= 60);
}

/* Writes the value of src and reads it back into globalThis.r. */
static void roundtrip(const char *src) {
  strait_buffer out;
  strait_value_error err;
  int rc = enc(ev(src), &out, &err);
  if (rc) t_fail(__FILE__, __LINE__, "%s: %s", src, err.msg);
  JSValueRef v = rc ? NULL : dec(out.data, out.len, &rc);
  set_global("r", v ? v : JSValueMakeUndefined(ctx));
  strait_buffer_free(&out);
}

static void types_survive_a_round_trip(void) {
  roundtrip("({i: 1, l: 2**40, d: 0.5, nz: -0, big: -(2n**70n), s: 'x\\u20ac', u: undefined, n: null})");
  T_CHECK(js_true("r.i === 1 && r.l === 2**40 && r.d === 0.5 && Object.is(r.nz, -0)"));
  T_CHECK(js_true("r.big === -(2n**70n) && r.s === 'x\\u20ac' && 'u' in r && r.u === undefined && r.n === null"));
  roundtrip("[new Date(86400000), new Map([[{k: 1}, 'v']]), new Set(['a']), new Float32Array([1.5]), new Uint8Array([7]).buffer]");
  T_CHECK(js_true("r[0] instanceof Date && r[0].getTime() === 86400000"));
  T_CHECK(js_true("r[1] instanceof Map && [...r[1].keys()][0].k === 1 && [...r[1].values()][0] === 'v'"));
  T_CHECK(js_true("r[2] instanceof Set && r[2].has('a')"));
  T_CHECK(js_true("r[3] instanceof Float32Array && r[3][0] === 1.5"));
  T_CHECK(js_true("r[4] instanceof ArrayBuffer && new Uint8Array(r[4])[0] === 7"));
  roundtrip("new DataView(new Uint8Array([1, 2, 3]).buffer, 1)");
  T_CHECK(js_true("r instanceof DataView && r.byteLength === 2 && r.getUint8(0) === 2"));
  roundtrip("JSON.parse('{\"__proto__\": {\"x\": 1}}')");
  T_CHECK(js_true("Object.getPrototypeOf(r) === Object.prototype && Object.keys(r).join() === '__proto__' && r.__proto__.x === 1"));
}

static void sharing_and_cycles_are_preserved(void) {
  roundtrip("(() => { const o = {v: 1}; return {a: o, b: [o], c: new Map([['o', o]])}; })()");
  T_CHECK(js_true("r.a === r.b[0] && r.a === r.c.get('o')"));
  roundtrip("(() => { const o = {}; o.me = o; const a = [o]; a.push(a); o.arr = a; return a; })()");
  T_CHECK(js_true("r[0].me === r[0] && r[1] === r && r[0].arr === r"));
  roundtrip("(() => { const s = new Set(); s.add(s); return s; })()");
  T_CHECK(js_true("[...r][0] === r"));
}

static void depth_is_bounded_by_memory_not_the_stack(void) {
  roundtrip("(() => { let v = 0; for (let i = 0; i < 200000; i++) v = i % 2 ? [v] : {k: v}; return v; })()");
  T_CHECK(js_true("(() => { let n = 0, v = r; while (typeof v === 'object') { v = Array.isArray(v) ? v[0] : v.k; n++; } return n === 200000; })()"));
}

/* Writes src and returns the error message (static storage). */
static const char *write_error(const char *src, int *rc) {
  static strait_value_error err;
  strait_buffer out;
  *rc = enc(ev(src), &out, &err);
  strait_buffer_free(&out);
  return err.msg;
}

static void functions_and_symbols_name_their_path(void) {
  int rc;
  const char *m = write_error("({a: {b: [0, 'x', 0, () => 1]}})", &rc);
  T_EQ_INT(rc, STRAIT_ETYPE);
  T_CONTAINS(m, "function at $.a.b[3]");
  m = write_error("({'odd key': [Symbol('s')]})", &rc);
  T_EQ_INT(rc, STRAIT_ETYPE);
  T_CONTAINS(m, "symbol at $[\"odd key\"][0]");
  m = write_error("new Map([['k', {f() {}}]])", &rc);
  T_CONTAINS(m, "function at $<Map value 0>.f");
  m = write_error("(function () {})", &rc);
  T_CONTAINS(m, "function at $");
  m = write_error("new Set([1, Symbol.iterator])", &rc);
  T_CONTAINS(m, "symbol at $<Set 1>");
  m = write_error("({get x() { throw new RangeError('boom'); }})", &rc);
  T_EQ_INT(rc, STRAIT_EJS);
}

/* Test hook: objects with a numeric __javaId are Java wrappers. */
static bool test_java_id(void *ud, JSContextRef c, JSObjectRef o, uint32_t *id) {
  JSValueRef v = strait_get_property(c, o, "__javaId");
  if (!JSValueIsNumber(c, v)) return false;
  *id = (uint32_t)JSValueToNumber(c, v, NULL);
  return true;
}

static JSValueRef test_java_value(void *ud, JSContextRef c, uint32_t id, JSValueRef *exc) {
  char src[64];
  snprintf(src, sizeof src, "({wrapped: %u})", id);
  return ev(src);
}

static JSValueRef test_js_value(void *ud, JSContextRef c, uint32_t id, JSValueRef *exc) {
  return JSValueMakeNumber(c, id);
}

static uint32_t test_js_handle(void *ud, JSContextRef c, JSValueRef v, bool *ok) {
  return 77;
}

static void hooks_carry_java_refs_and_handles(void) {
  strait_value_hooks h = {.java_id = test_java_id, .java_value = test_java_value, .js_handle = test_js_handle,
                         .js_value = test_js_value};
  JSValueRef v = ev("[new (class J { constructor() { this.__javaId = 9; } })(), () => 0]");
  strait_buffer out;
  strait_buffer_init(&out, NULL, 0);
  strait_value_error err;
  JSValueRef exc = NULL;
  int rc = write_any(v, &out, STRAIT_VALUE_HANDLES, &h, &err, &exc);
  T_EQ_INT(rc, 0);
  static const uint8_t want[] = {0x0A, 2, 0, 0, 0, 0x13, 9, 0, 0, 0, 0x16, 77, 0, 0, 0};
  T_EQ_INT(out.len, 8 + sizeof want);
  T_CHECK(out.len == 8 + sizeof want && memcmp(out.data + 8, want, sizeof want) == 0);
  JSValueRef back = NULL;
  rc = read_any(out.data, out.len, &h, &back, &err, &exc);
  T_EQ_INT(rc, 0);
  set_global("r", back);
  T_CHECK(js_true("r[0].wrapped === 9 && r[1] === 77"));
  /* without hooks the JAVAREF is a TypeError the JSREF is a TypeError */
  rc = read_any(out.data, out.len, NULL, &back, &err, &exc);
  T_EQ_INT(rc, STRAIT_EJS);
  set_global("r", back);
  strait_buffer_free(&out);
  rc = read_any((const uint8_t *)"STV\1\5\0\0\0\x13\1\0\0\0", 13, &h, &back, &err, &exc);
  T_EQ_INT(rc, 0);
  set_global("r", back);
  T_CHECK(js_true("r.wrapped === 1"));
}

static void big_values_spill_out_of_the_lent_buffer(void) {
  uint8_t small[64];
  strait_buffer out;
  strait_buffer_init(&out, small, sizeof small);
  strait_value_error err;
  JSValueRef exc = NULL;
  T_EQ_INT(write_any(ev("'y'.repeat(10)"), &out, 0, NULL, &err, &exc), 0);
  T_CHECK(!out.spilled && out.data == small && out.len == 8 + 5 + 10);
  T_EQ_INT(write_any(ev("({s: 'x'.repeat(100000), a: new Array(5000).fill(1.5)})"), &out, 0, NULL, &err, &exc), 0);
  T_CHECK(out.spilled && out.data != small);
  JSValueRef v = dec(out.data, out.len, NULL);
  set_global("r", v ? v : JSValueMakeNull(ctx));
  T_CHECK(js_true("r.s.length === 100000 && r.a.length === 5000 && r.a[4999] === 1.5"));
  strait_buffer_free(&out);
}

static void corrupt_buffers_are_rejected(void) {
  strait_buffer out;
  strait_value_error err;
  T_EQ_INT(enc(ev("[{a: 'x', b: [1.5, 2]}, new Map([[1, 2]]), {a: 1}, 'q\\u20ac', 7n, new Date(1)]"), &out, &err), 0);
  for (size_t n = 0; n < out.len; n++) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, out.data, n);
    int rc = strait__codec_validate(copy, n, &err);
    if (rc != STRAIT_ECORRUPT) t_fail(__FILE__, __LINE__, "%s%s", "truncated buffer accepted", "");
    int rc2;
    T_CHECK(dec(copy, n, &rc2) == NULL && rc2 == STRAIT_ECORRUPT);
    free(copy);
  }
  strait_buffer_free(&out);
  struct { const char *bytes; size_t n; const char *msg; } bad[] = {
      {"XTV\1\1\0\0\0\1", 9, "bad header"},
      {"STV\2\1\0\0\0\1", 9, "unsupported version 2"},
      {"STV\1\2\0\0\0\1\1", 10, "1 bytes after the value"},
      {"STV\1\2\0\0\0\1\1", 9, "header says 2 value bytes"},
      {"STV\1\5\0\0\0\x14\0\0\0\0", 13, "back-reference 0"},
      {"STV\1\5\0\0\0\x0E\0\0\0\0", 13, "key reference outside"},
      {"STV\1\1\0\0\0\x7F", 9, "unknown tag 0x7f"},
      {"STV\1\5\0\0\0\x0A\xFF\xFF\xFF\xFF", 13, "count 4294967295"},
      {"STV\1\x0B\0\0\0\x0D\1\0\0\0\x04\0\0\0\0\1", 19, "not a string"},
      {"STV\1\x0B\0\0\0\x0D\1\0\0\0\x0E\0\0\0\0\1", 19, "key reference 0 beyond"},
      {"STV\1\x06\0\0\0\x12\x0D\0\0\0\0", 14, "unknown bytes kind 13"},
      {"STV\1\x07\0\0\0\x12\x04\1\0\0\0\0", 15, "not a multiple of 2"},
      {"STV\1\x09\0\0\0\x11\0\0\0\0\0\0\xF0\x7F", 17, "Date is not finite"},
      {"STV\1\x06\0\0\0\x07\2\0\0\0\0", 14, "BigInt sign byte 2"},
      {"STV\1\x05\0\0\0\x08\xFF\0\0\0", 13, "runs past the end"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int rc = strait__codec_validate((const uint8_t *)bad[i].bytes, bad[i].n, &err);
    T_EQ_INT(rc, STRAIT_ECORRUPT);
    T_CONTAINS(err.msg, bad[i].msg);
  }
}

static void bigint_decimal_conversions(void) {
  uint8_t *m;
  size_t n;
  bool neg;
  T_EQ_INT(strait__bigint_from_decimal("-300", 4, &m, &n, &neg), 0);
  T_CHECK(n == 2 && m[0] == 0x2C && m[1] == 0x01 && neg);
  char *s = strait__bigint_to_decimal(m, n, neg);
  T_EQ_STR(s, "-300");
  free(s);
  free(m);
  T_EQ_INT(strait__bigint_from_decimal("0", 1, &m, &n, &neg), 0);
  T_CHECK(n == 0 && !neg);
  s = strait__bigint_to_decimal(m, n, true);
  T_EQ_STR(s, "0");
  free(s);
  free(m);
  T_EQ_INT(strait__bigint_from_decimal("12a", 3, &m, &n, &neg), STRAIT_EINVAL);
}

/* The JS writer's per-shape key cache writes what the C writer writes. */
static void js_writer_matches_c_writer_on_many_shapes(void) {
  const char *srcs[] = {
      "[{a: 1, b: 2}, {a: 1, b: 2}, {a: 1, c: 3}, {a: 1, b: 2}, {a: 2}, {b: 1, a: 2}, {a: {a: {a: 1}}}]",
      "Array.from({length: 50}, (_, i) => i % 3 ? {id: i, name: 'n' + i, tags: ['x'], sub: {id: i}} : {id: i, other: null})",
      "(() => { const o = {k: 1}; return [o, {k: 2}, o, {k: 3, j: o}, new Map([['k', {k: 4}]])]; })()",
      /* packed arrays, and numbers before the first other value */
      "[[1, 2, 3], [1, 2, 3.5, -0, 2**40], [0.5, 1, 2], [1, 2, 'x', 3.5], [1, 2**31, 3], [1, , 3], [],"
      " [NaN, 1], [-1, 2147483647, -2147483648], [1, 2, {a: [3, 4.5]}, 5], [1.5, undefined, 2], [1, 2, [3]]]",
      "Array.from({length: 3000}, (_, i) => i === 2999 ? 0.5 : i)",
      "Array.from({length: 3000}, (_, i) => i === 2999 ? 'end' : i * 1.5)",
  };
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    JSValueRef v = ev(srcs[i]), exc = NULL;
    strait_buffer a, b;
    strait_value_error err;
    strait_buffer_init(&a, NULL, 0);
    strait_buffer_init(&b, NULL, 0);
    T_EQ_INT(strait__codec_write(ctx, v, &a, 0, NULL, &err, &exc), 0);
    T_EQ_INT(strait_value_encode(rt, v, &b, 0, NULL, &err, &exc), 0);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
      t_fail(__FILE__, __LINE__, "JS and C writers differ on %s%s", srcs[i], "");
    strait_buffer_free(&a);
    strait_buffer_free(&b);
  }
}

/* Writes src; on success reads it back into globalThis.r. Returns the
 * status; *msg gets the message of the error or exception (static). */
static int write_back(const char *src, const char **msg) {
  static char m[512];
  strait_buffer out;
  strait_value_error err;
  strait_buffer_init(&out, NULL, 0);
  JSValueRef exc = NULL;
  int rc = write_any(ev(src), &out, 0, NULL, &err, &exc);
  m[0] = 0;
  if (rc == STRAIT_EJS && exc) {
    char *t = strait_utf8_from_value(ctx, exc, NULL);
    snprintf(m, sizeof m, "%s", t ? t : "");
    free(t);
  } else if (rc) {
    snprintf(m, sizeof m, "%s", err.msg);
  }
  JSValueRef v = rc ? NULL : dec(out.data, out.len, &rc);
  set_global("r", v ? v : JSValueMakeUndefined(ctx));
  strait_buffer_free(&out);
  if (msg) *msg = m;
  return rc;
}

/* Every element getter runs exactly once, whatever the mix of types: for
 * arrays of lengths 1..7, each element is a getter that answers a number the
 * first time and something else (a string, an object, undefined, a
 * function...) the next; what is written is what the first call answered. */
static void array_element_getters_run_once(void) {
  static const char *const second[] = {"'str'", "({o: 1})", "undefined", "null", "1.5", "[9]", "true"};
  static const char *const first[] = {"5", "-0", "2**40", "0.25", "'s'", "({k: 2})", "undefined"};
  char src[2048];
  for (int len = 1; len <= 7; len++) {
    for (int f = 0; f < 7; f++) {
      for (int sec = 0; sec < 7; sec++) {
        /* element i answers first[(f + i) % 7] on the first call */
        snprintf(src, sizeof src,
                 "(() => { globalThis.calls = []; const a = [];"
                 "  const firsts = [%s, %s, %s, %s, %s, %s, %s];"
                 "  for (let i = 0; i < %d; i++) { calls.push(0);"
                 "    Object.defineProperty(a, i, {enumerable: true, get() {"
                 "      return calls[i]++ === 0 ? firsts[(%d + i) %% 7] : %s; }}); }"
                 "  globalThis.want = Array.from({length: %d}, (_, i) => firsts[(%d + i) %% 7]);"
                 "  return a; })()",
                 first[0], first[1], first[2], first[3], first[4], first[5], first[6], len, f,
                 second[sec], len, f);
        const char *m;
        int rc = write_back(src, &m);
        if (rc) { t_fail(__FILE__, __LINE__, "%s: %s", src, m); return; }
        if (!js_true("calls.every(c => c === 1)")) {
          t_fail(__FILE__, __LINE__, "a getter ran more than once: %s", src, "");
          return;
        }
        if (!js_true("r.length === want.length && r.every((x, i) => typeof want[i] === 'object' && want[i] !== null"
                     " ? JSON.stringify(x) === JSON.stringify(want[i]) : Object.is(x, want[i]))")) {
          t_fail(__FILE__, __LINE__, "wrong values: %s", src, "");
          return;
        }
      }
    }
  }
}

/* The length of an array (or a Proxy of one) is checked before any element
 * is read: past a Java List's 2^31-1 elements or a value's 2^31-1 bytes the
 * writer throws a RangeError naming the length, with no trap call. */
static void huge_array_lengths_fail_before_reading(void) {
  static const char *const lengths[] = {"4294967295", "4000000001", "2**31", "2**31 - 1",
                                        "2**31 - 13", "Infinity", "1e300", "2**53"};
  char src[1024];
  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
    snprintf(src, sizeof src,
             "(() => { globalThis.gets = 0; return new Proxy([], {get(t, k) {"
             "  if (k === 'length') return %s; gets++; return 1; }}); })()",
             lengths[i]);
    const char *m;
    int rc = write_back(src, &m);
    T_EQ_INT(rc, STRAIT_EJS);
    T_CONTAINS(m, "RangeError: cannot convert an array of length");
    T_CHECK(js_true("gets === 0"));
  }
  const char *m;
  T_EQ_INT(write_back("(() => { const a = []; a[4e9] = 1; return {a}; })()", &m), STRAIT_EJS);
  T_CONTAINS(m, "RangeError: cannot convert an array of length 4000000001 (a Java List holds at most 2147483647 elements) at $.a");
  T_EQ_INT(write_back("(() => { const a = [1]; a.length = 2**32 - 1; return [0, a]; })()", &m), STRAIT_EJS);
  T_CONTAINS(m, "length 4294967295");
  T_CONTAINS(m, "at $[1]");
  /* odd lengths of a Proxy read as ToLength does */
  T_EQ_INT(write_back("new Proxy([], {get: (t, k) => k === 'length' ? NaN : 1})", &m), 0);
  T_CHECK(js_true("Array.isArray(r) && r.length === 0"));
  T_EQ_INT(write_back("new Proxy([], {get: (t, k) => k === 'length' ? -5 : 1})", &m), 0);
  T_CHECK(js_true("r.length === 0"));
  T_EQ_INT(write_back("new Proxy([], {get: (t, k) => k === 'length' ? '2.9' : 7})", &m), 0);
  T_CHECK(js_true("r.length === 2 && r[0] === 7 && r[1] === 7"));
}

/* Holes are written as undefined while, during the conversion, the holes
 * met so far outnumber the other array elements met so far by at most
 * STRAIT_V_MAX_HOLES; past that, a RangeError: a sparse array's length
 * never decides the work alone. Checked at the limit, one past it, and
 * with the budget shared between arrays and earned by present elements. */
static void sparse_arrays_are_bounded(void) {
  const char *m;
  const unsigned H = STRAIT_V_MAX_HOLES;
  T_EQ_INT(write_back("(() => { const a = [1, , 3]; a[1000] = 'x'; return a; })()", &m), 0);
  T_CHECK(js_true("r.length === 1001 && r[0] === 1 && r[1] === undefined && r[2] === 3 && r[1000] === 'x'"));
  T_CHECK(js_true("r.slice(3, 1000).every(x => x === undefined)"));
  /* undefined that is not a hole does not count */
  char src[512];
  snprintf(src, sizeof src, "new Array(%u).fill(undefined)", 2 * H + 10);
  T_EQ_INT(write_back(src, &m), 0);
  T_CHECK(js_true("r.length === 2 * 1048576 + 10"));
  struct { const char *fmt; unsigned a, b; int rc; } cases[] = {
      /* H holes, then one element: at the limit */
      {"(() => { const a = []; a[%u] = 1; return a; })()", H, 0, 0},
      /* H + 1 holes with nothing before them: one past */
      {"(() => { const a = []; a[%u] = 1; return a; })()", H + 1, 0, STRAIT_EJS},
      /* 5 present elements earn 5 more holes */
      {"(() => { const a = [1, 2, 3, 'x', 5]; a[%u] = 1; return a; })()", 5 + H + 5, 0, 0},
      {"(() => { const a = [1, 2, 3, 'x', 5]; a[%u] = 1; return a; })()", 5 + H + 6, 0, STRAIT_EJS},
      /* the budget is per conversion, shared by two arrays */
      {"(() => { const a = []; a[%u] = 1; const b = []; b[%u] = 1; return {a, b}; })()", H / 2, H / 2 - 1, 0},
      {"(() => { const a = []; a[%u] = 1; const b = []; b[%u] = 1; return {a, b}; })()", H / 2, H / 2 + 2, STRAIT_EJS},
      /* the length of a sparse array past any limit fails before reading */
      {"(() => { const a = []; a[%u] = 1; a[%u] = 2; return a; })()", 3000000000u, 7, STRAIT_EJS},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(src, sizeof src, cases[i].fmt, cases[i].a, cases[i].b);
    int rc = write_back(src, &m);
    if (rc != cases[i].rc) {
      t_fail(__FILE__, __LINE__, "%s: %s", src, m);
      continue;
    }
    if (rc) T_CONTAINS(m, "RangeError: cannot convert a");
  }
  snprintf(src, sizeof src, "(() => { const a = [1]; a[%u] = 2; return {s: [0, a]}; })()", H + 5);
  T_EQ_INT(write_back(src, &m), STRAIT_EJS);
  T_CONTAINS(m, "RangeError: cannot convert a sparse array whose holes outnumber its elements by more than 1048576 at $.s[1][");
}

static void int64_beyond_safe_reads_as_bigint(void) {
  JSValueRef v = dec((const uint8_t *)"STV\1\x09\0\0\0\x05\0\0\0\0\0\0\x20\0", 17, NULL);
  set_global("r", v ? v : JSValueMakeNull(ctx));
  T_CHECK(js_true("r === 2n ** 53n"));
}

int main(void) {
  tcap cap = {0};
  rt = trt_new(&cap, 0, NULL);
  strait_enter(rt);
  ctx = strait_runtime_context(rt);
  T_RUN(vectors_match_c_writer_and_reader);
  T_RUN(types_survive_a_round_trip);
  T_RUN(sharing_and_cycles_are_preserved);
  T_RUN(depth_is_bounded_by_memory_not_the_stack);
  T_RUN(functions_and_symbols_name_their_path);
  T_RUN(hooks_carry_java_refs_and_handles);
  T_RUN(big_values_spill_out_of_the_lent_buffer);
  T_RUN(corrupt_buffers_are_rejected);
  T_RUN(bigint_decimal_conversions);
  T_RUN(int64_beyond_safe_reads_as_bigint);
  T_RUN(js_writer_matches_c_writer_on_many_shapes);
  T_RUN(array_element_getters_run_once);
  T_RUN(huge_array_lengths_fail_before_reading);
  T_RUN(sparse_arrays_are_bounded);
  use_js = true;
  T_RUN(array_element_getters_run_once);
  T_RUN(huge_array_lengths_fail_before_reading);
  T_RUN(sparse_arrays_are_bounded);
  T_RUN(types_survive_a_round_trip);
  T_RUN(sharing_and_cycles_are_preserved);
  T_RUN(depth_is_bounded_by_memory_not_the_stack);
  T_RUN(functions_and_symbols_name_their_path);
  T_RUN(hooks_carry_java_refs_and_handles);
  T_RUN(big_values_spill_out_of_the_lent_buffer);
  T_RUN(corrupt_buffers_are_rejected);
  T_RUN(int64_beyond_safe_reads_as_bigint);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&cap);
  return T_DONE();
}

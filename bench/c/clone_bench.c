/*
 * clone_bench.c - structured clone against its alternatives on the
 * payloads of issue 13: JSON documents (arrays of API-like records) of
 * about 400 B .. 5 MB, and binary trees {left, right, value} of depth
 * 2 .. 14. Per payload, the best of several runs of:
 *   json    JSON.parse(JSON.stringify(v)) in one runtime
 *   codec   strait_value_encode in A + strait_value_decode in B
 *   clone   strait__clone_capture in A + strait__clone_materialize in B
 *   same    structuredClone(v) in one runtime
 * Usage: clone_bench [ROW [MODES]]: only the rows whose name contains ROW,
 * only the measures named in MODES (e.g. "clone", "json,codec"; for perf).
 * Build: see the comment at the end (make is not wired).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static JSValueRef eval(strait_runtime *rt, const char *src) {
  JSValueRef r = NULL, exc = NULL;
  if (strait_eval_utf8(rt, src, strlen(src), "[bench]", &r, &exc)) {
    char *f = strait_error_format(rt, exc);
    fprintf(stderr, "eval failed: %s\n", f);
    exit(1);
  }
  return r;
}

static const char *kMake =
    "globalThis.doc = function (n) { const a = [];"
    " for (let i = 0; i < n; i++) a.push({ id: i, guid: 'a1b2c3d4-' + i, active: i % 2 === 0,"
    "  balance: 1234.56 + i, name: 'User Number ' + i, email: 'user' + i + '@example.com',"
    "  tags: ['alpha', 'beta', 'gamma'], address: { street: i + ' Main Street', city: 'Springfield', zip: '12345' },"
    "  friends: [{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }] });"
    " return { total: n, page: 1, items: a }; };"
    "globalThis.tree = function (d) { return d === 0 ? null : { left: tree(d - 1), right: tree(d - 1), value: d }; };"
    "globalThis.jsonRT = function (v) { return JSON.parse(JSON.stringify(v)); };"
    "1";

typedef struct row { const char *name; const char *expr; } row;

int main(int argc, char **argv) {
  strait_runtime *a, *b;
  strait_runtime_new(NULL, &a);
  strait_runtime_new(NULL, &b);
  strait_enter(a);
  eval(a, kMake);
  strait_leave(a);
  static const row rows[] = {
      {"json 400B", "doc(1)"},   {"json 5KB", "doc(12)"},     {"json 50KB", "doc(120)"},
      {"json 500KB", "doc(1200)"}, {"json 5MB", "doc(12000)"}, {"tree d2", "tree(2)"},
      {"tree d8", "tree(8)"},     {"tree d11", "tree(11)"},    {"tree d14", "tree(14)"},
  };
  printf("%-12s %8s %12s %12s %12s %12s %8s %8s\n", "payload", "bytes", "json us", "codec us", "clone us",
         "same us", "json/cl", "codec/cl");
  const char *only = argc > 1 ? argv[1] : NULL, *modes = argc > 2 ? argv[2] : NULL;
  bool m_json = !modes || strstr(modes, "json"), m_codec = !modes || strstr(modes, "codec"),
       m_clone = !modes || strstr(modes, "clone"), m_same = !modes || strstr(modes, "same");
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    if (only && !strstr(rows[r].name, only)) continue;
    strait_enter(a);
    char src[256];
    snprintf(src, sizeof src, "globalThis.v = %s; JSON.stringify(v).length", rows[r].expr);
    double bytes = JSValueToNumber(strait_runtime_context(a), eval(a, src), NULL);
    JSContextRef ctx = strait_runtime_context(a);
    JSValueRef v = strait_get_property(ctx, JSContextGetGlobalObject(ctx), "v");
    JSValueProtect(ctx, v);
    int iters = bytes < 10000 ? 2000 : bytes < 100000 ? 300 : bytes < 1000000 ? 30 : 6;
    double best[4] = {1e18, 1e18, 1e18, 1e18};
    JSObjectRef jsonRT = (JSObjectRef)strait_get_property(ctx, JSContextGetGlobalObject(ctx), "jsonRT");
    JSObjectRef sc = (JSObjectRef)strait_get_property(ctx, JSContextGetGlobalObject(ctx), "structuredClone");
    strait_leave(a);
    for (int rep = 0; rep < 5; rep++) {
      /* json, same runtime */
      strait_enter(a);
      double t0 = now_us();
      for (int i = 0; i < iters && m_json; i++) JSObjectCallAsFunction(ctx, jsonRT, NULL, 1, &v, NULL);
      double t = (now_us() - t0) / iters;
      if (t < best[0]) best[0] = t;
      t0 = now_us();
      for (int i = 0; i < iters && m_same; i++) JSObjectCallAsFunction(ctx, sc, NULL, 1, &v, NULL);
      t = (now_us() - t0) / iters;
      if (t < best[3]) best[3] = t;
      strait_leave(a);
      /* codec A -> B */
      t0 = now_us();
      for (int i = 0; i < iters && m_codec; i++) {
        strait_buffer buf;
        strait_buffer_init(&buf, NULL, 0);
        strait_value_error err;
        JSValueRef exc = NULL, res = NULL;
        strait_enter(a);
        if (strait_value_encode(a, v, &buf, 0, NULL, &err, &exc)) { fprintf(stderr, "encode: %s\n", err.msg); return 1; }
        strait_leave(a);
        strait_enter(b);
        if (strait_value_decode(b, buf.data, buf.len, NULL, &res, &err, &exc)) { fprintf(stderr, "decode: %s\n", err.msg); return 1; }
        strait_leave(b);
        strait_buffer_free(&buf);
      }
      t = (now_us() - t0) / iters;
      if (t < best[1]) best[1] = t;
      /* clone A -> B */
      t0 = now_us();
      for (int i = 0; i < iters && m_clone; i++) {
        strait__clone *c = NULL;
        JSValueRef exc = NULL, res = NULL;
        strait_enter(a);
        if (strait__clone_capture(a, v, NULL, NULL, &c, &exc)) { fprintf(stderr, "capture failed\n"); return 1; }
        strait_leave(a);
        strait_enter(b);
        if (strait__clone_materialize(b, c, &res, &exc)) { fprintf(stderr, "materialize failed\n"); return 1; }
        strait_leave(b);
        strait__clone_free(c);
      }
      t = (now_us() - t0) / iters;
      if (t < best[2]) best[2] = t;
    }
    printf("%-12s %8.0f %12.1f %12.1f %12.1f %12.1f %8.2f %8.2f\n", rows[r].name, bytes, best[0], best[1],
           best[2], best[3], best[0] / best[2], best[1] / best[2]);
    fflush(stdout);
    strait_enter(a);
    JSValueUnprotect(ctx, v);
    strait_leave(a);
  }
  strait_runtime_free(a);
  strait_runtime_free(b);
  return 0;
}
/* cc -O2 -pthread -Iinclude -Isrc -Isrc/core $(pkg-config --cflags javascriptcoregtk-4.1) \
 *   -o build/clone_bench bench/c/clone_bench.c build/libstraitcore.a \
 *   $(pkg-config --libs javascriptcoregtk-4.1) -lm */

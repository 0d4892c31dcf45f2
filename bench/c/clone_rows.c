/*
 * clone_rows.c - bench-clone: the clone engine against the binary value
 * format, single-threaded, per payload of bench/js/workers/payloads.js.
 *
 *   bench-clone PAYLOADS_JS [PAYLOAD...]
 *
 * Two runtimes A and B on this thread (as a sender's and a receiver's); the
 * payload lives in A. One operation moves it from A to B:
 *   clone.P.clone         strait__clone_capture in A, strait__clone_materialize
 *                         in B, strait__clone_free (what postMessage does,
 *                         without the thread hop)
 *   clone.P.value_format  strait_value_encode in A into a reused buffer,
 *                         strait_value_decode in B (docs/value-format.md:
 *                         serialize, move the bytes, deserialize)
 *   clone.P.json          JSValueCreateJSONString in A, JSValueMakeFromJSONString
 *                         in B (the JSON baseline, in C)
 * Each side is entered for its half (strait_enter / strait_leave), as a
 * thread posting and one receiving would. The rows of one payload take
 * their rounds in turn (round 1 of each, then round 2, ...), so noise hits
 * them alike. Descriptions are "column text // row text" (report.awk's
 * pivot layout). n starts at 1 (a 5 MB payload takes tens of ms) and grows
 * until a round lasts BENCH_ROUND_MS; BENCH_WARMUP (2) warm-up rounds,
 * then the median of BENCH_ROUNDS (7).
 *
 * Links the core archive (build/libstraitcore.a) for the internal clone
 * interface (src/core/clone.h).
 */
#include "bench.h"

#include "clone.h"
#include "strait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx {
  strait_runtime *a, *b;
  JSValueRef v;            /* the payload, protected in A */
  strait_buffer buf;       /* value format bytes, reused */
  const char *fail;        /* first failure of a row, or NULL */
  double sink;
} ctx;

static void note_result(ctx *c, strait_runtime *rt, JSValueRef r)
{
  /* keep something of the result: is it an object (it is, when it worked) */
  if (r && JSValueIsObject(strait_runtime_context(rt), r)) c->sink += 1;
}

static void op_clone(void *ud, long n)
{
  ctx *c = ud;
  for (long i = 0; i < n && !c->fail; i++) {
    strait__clone *cl = NULL;
    JSValueRef exc = NULL, r = NULL;
    strait_enter(c->a);
    int st = strait__clone_capture(c->a, c->v, NULL, NULL, &cl, &exc);
    strait_leave(c->a);
    if (st != 0) { c->fail = "strait__clone_capture failed"; return; }
    strait_enter(c->b);
    st = strait__clone_materialize(c->b, cl, &r, &exc);
    note_result(c, c->b, r);
    strait_leave(c->b);
    strait__clone_free(cl);
    if (st != 0) { c->fail = "strait__clone_materialize failed"; return; }
  }
}

static void op_value_format(void *ud, long n)
{
  ctx *c = ud;
  for (long i = 0; i < n && !c->fail; i++) {
    strait_value_error err;
    JSValueRef exc = NULL, r = NULL;
    strait_enter(c->a);
    int st = strait_value_encode(c->a, c->v, &c->buf, 0, NULL, &err, &exc);
    strait_leave(c->a);
    if (st != 0) { c->fail = "strait_value_encode failed"; return; }
    strait_enter(c->b);
    st = strait_value_decode(c->b, c->buf.data, c->buf.len, NULL, &r, &err, &exc);
    note_result(c, c->b, r);
    strait_leave(c->b);
    if (st != 0) { c->fail = "strait_value_decode failed"; return; }
  }
}

static void op_json(void *ud, long n)
{
  ctx *c = ud;
  for (long i = 0; i < n && !c->fail; i++) {
    JSValueRef exc = NULL;
    strait_enter(c->a);
    JSStringRef s = JSValueCreateJSONString(strait_runtime_context(c->a), c->v, 0, &exc);
    strait_leave(c->a);
    if (!s) { c->fail = "JSON.stringify failed"; return; }
    strait_enter(c->b);
    JSValueRef r = JSValueMakeFromJSONString(strait_runtime_context(c->b), s);
    note_result(c, c->b, r);
    strait_leave(c->b);
    JSStringRelease(s);
    if (!r) { c->fail = "JSON.parse failed"; return; }
  }
}

static char *read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *p = malloc(cap);
  size_t k;
  while (p && (k = fread(p + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) {
      char *q = realloc(p, cap *= 2);
      if (!q) { free(p); p = NULL; }
      else p = q;
    }
  }
  fclose(f);
  *len = n;
  return p;
}

/* Evaluates src in rt (inside its gate); the completion value, or NULL
 * with the exception's text in why. */
static JSValueRef eval(strait_runtime *rt, const char *src, size_t len, const char *file,
                       char *why, size_t whylen)
{
  JSValueRef r = NULL, exc = NULL;
  if (strait_eval_utf8(rt, src, len, file, &r, &exc) != 0) {
    snprintf(why, whylen, "evaluating %s threw", file);
    if (exc) {
      JSStringRef s = JSValueToStringCopy(strait_runtime_context(rt), exc, NULL);
      if (s) {
        size_t at = strlen(why);
        if (at + 2 < whylen) {
          why[at++] = ':';
          why[at++] = ' ';
          JSStringGetUTF8CString(s, why + at, whylen - at);
        }
        JSStringRelease(s);
      }
    }
    for (char *q = why; *q; q++) if (*q == '\t' || *q == '\n') *q = ' ';
    return NULL;
  }
  return r;
}

/* Grows n from 1 until a round of fn lasts BENCH_ROUND_MS; then the
 * warm-up rounds. */
static long calibrate(bench_fn fn, void *ud)
{
  double target = (double)bench_env_long("BENCH_ROUND_MS", 40) * 1e6;
  long n = 1;
  double t = bench_round(fn, ud, n) * n;
  while (t < target && n < (1L << 30)) {
    double f = t > 0 ? target / t * 1.2 : 10;
    if (f > 10) f = 10;
    if (f < 2) f = 2;
    n = (long)((double)n * f);
    t = bench_round(fn, ud, n) * n;
  }
  long w = bench_env_long("BENCH_WARMUP", 2);
  for (long i = 0; i < w; i++) bench_round(fn, ud, n);
  return n;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: bench-clone PAYLOADS_JS [PAYLOAD...]\n");
    return 2;
  }
  size_t len;
  char *src = read_file(argv[1], &len);
  if (!src) { perror(argv[1]); return 2; }

  ctx c = { 0 };
  if (strait_runtime_new(NULL, &c.a) != 0 || strait_runtime_new(NULL, &c.b) != 0) {
    fprintf(stderr, "bench-clone: strait_runtime_new failed\n");
    return 1;
  }
  strait_buffer_init(&c.buf, NULL, 0);
  char why[512];

  /* payloads.js as a script with a `module`, in A */
  strait_enter(c.a);
  static const char pre[] = "var module = { exports: {} };";
  if (!eval(c.a, pre, strlen(pre), "bench-clone", why, sizeof why) ||
      !eval(c.a, src, len, argv[1], why, sizeof why)) {
    fprintf(stderr, "bench-clone: %s\n", why);
    strait_leave(c.a);
    return 1;
  }
  static const char names_src[] = "module.exports.names.join(' ')";
  JSValueRef names_v = eval(c.a, names_src, strlen(names_src), "bench-clone", why, sizeof why);
  char all[1024] = "";
  if (names_v) {
    JSStringRef s = JSValueToStringCopy(strait_runtime_context(c.a), names_v, NULL);
    JSStringGetUTF8CString(s, all, sizeof all);
    JSStringRelease(s);
  }
  strait_leave(c.a);
  free(src);

  /* the payloads named, else all of them */
  char *names[64];
  int nn = 0;
  if (argc > 2) {
    for (int i = 2; i < argc && nn < 64; i++) names[nn++] = argv[i];
  } else {
    for (char *tok = strtok(all, " "); tok && nn < 64; tok = strtok(NULL, " ")) names[nn++] = tok;
  }

  struct { const char *name; bench_fn fn; const char *base; const char *what; } rows[] = {
    { "clone", op_clone, "clone.%s.value_format,clone.%s.json",
      "strait__clone_capture in runtime A + strait__clone_materialize in runtime B + free, one thread" },
    { "value_format", op_value_format, "clone.%s.json",
      "strait_value_encode in runtime A + strait_value_decode in runtime B (binary value format), one thread" },
    { "json", op_json, NULL,
      "JSValueCreateJSONString in runtime A + JSValueMakeFromJSONString in runtime B, one thread" },
  };
  enum { NROWS = sizeof rows / sizeof rows[0] };

  for (int p = 0; p < nn; p++) {
    char expr[256], desc[256];
    snprintf(expr, sizeof expr, "(function () { var m = module.exports; return [m.make('%s'), m.describe('%s')]; })()",
             names[p], names[p]);
    strait_enter(c.a);
    JSContextRef actx = strait_runtime_context(c.a);
    JSValueRef pair = eval(c.a, expr, strlen(expr), "bench-clone", why, sizeof why);
    if (!pair) {
      strait_leave(c.a);
      for (int r = 0; r < NROWS; r++) {
        char id[128];
        snprintf(id, sizeof id, "%s.%s", names[p], rows[r].name);
        bench_skip("clone", id, why);
      }
      continue;
    }
    JSObjectRef po = JSValueToObject(actx, pair, NULL);
    c.v = JSObjectGetPropertyAtIndex(actx, po, 0, NULL);
    JSValueProtect(actx, c.v);
    JSStringRef ds = JSValueToStringCopy(actx, JSObjectGetPropertyAtIndex(actx, po, 1, NULL), NULL);
    JSStringGetUTF8CString(ds, desc, sizeof desc);
    JSStringRelease(ds);
    strait_leave(c.a);

    long n[NROWS];
    double v[NROWS][BENCH_MAX_ROUNDS];
    int ok[NROWS];
    for (int r = 0; r < NROWS; r++) {
      c.fail = NULL;
      n[r] = calibrate(rows[r].fn, &c);
      ok[r] = c.fail == NULL;
      if (!ok[r]) {
        char id[128];
        snprintf(id, sizeof id, "%s.%s", names[p], rows[r].name);
        bench_skip("clone", id, c.fail);
      }
    }
    int rounds = bench_rounds();
    for (int i = 0; i < rounds; i++)
      for (int r = 0; r < NROWS; r++)
        if (ok[r]) v[r][i] = bench_round(rows[r].fn, &c, n[r]);
    for (int r = 0; r < NROWS; r++) {
      if (!ok[r]) continue;
      char id[128], base[256], d[512];
      snprintf(id, sizeof id, "%s.%s", names[p], rows[r].name);
      if (rows[r].base) snprintf(base, sizeof base, rows[r].base, names[p], names[p]);
      snprintf(d, sizeof d, "%s // %s", rows[r].what, desc);
      bench_row("clone", id, bench_median(v[r], rounds), rows[r].base ? base : NULL, d);
    }

    strait_enter(c.a);
    JSValueUnprotect(strait_runtime_context(c.a), c.v);
    JSGarbageCollect(strait_runtime_context(c.a));
    strait_leave(c.a);
    strait_enter(c.b);
    JSGarbageCollect(strait_runtime_context(c.b));
    strait_leave(c.b);
  }
  if (c.sink < 0) puts("");
  strait_buffer_free(&c.buf);
  strait_runtime_free(c.a);
  strait_runtime_free(c.b);
  return 0;
}

/* test_wasm_meter.c - the WebAssembly meter (src/core/wasm_meter.c) and
 * stopping wasm code (src/core/wasm.c, js/wasm.js).
 *
 * The meter: every fixture of tests/c/wasm (one per instruction family the
 * engine enables) meters without error, the result validates in a plain
 * JavaScriptCore context, has the same exports, the input's imports plus
 * the meter's three, the same custom sections but those it drops, gives
 * the same results (or traps) for every t_* export as the input, and calls
 * the check (budget 1000) when it loops. Malformed, truncated, hostile and
 * randomly mutated inputs give an error or a module whose validity is the
 * input's, and never crash (the suite runs under make asan).
 *
 * Stopping: wasm that never ends by itself (a loop, mutual tail calls, a
 * loop in try/catch_all and try_table, a loop calling JS, deep recursion)
 * is ended by a time limit, by strait_interrupt from another thread and by
 * the embedder's poll; the runtime takes the next call; memory and table
 * growth past the heap limit is refused. A guard thread ends the program
 * if a stay outlives its bound, so a build that cannot stop wasm fails
 * instead of hanging. */
#include "t.h"
#include "helpers.h"
#include "wasm_meter.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static const char *const kFixtures[] = {"mvp",      "ext",     "simd",  "tail",  "eh",      "exnref", "funcref",
                                        "gc",       "extconst", "atomics", "names", "stops", "stops_tt"};
#define NFIX (sizeof kFixtures / sizeof kFixtures[0])

typedef struct bytes {
  uint8_t *p;
  size_t n;
} bytes;

static bytes fixture(const char *name) {
  char path[256];
  snprintf(path, sizeof path, "tests/c/wasm/%s.wasm", name);
  bytes b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s (run from the repository's root)\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  b.n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  b.p = malloc(b.n ? b.n : 1);
  if (fread(b.p, 1, b.n, f) != b.n) exit(2);
  fclose(f);
  return b;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- a plain JavaScriptCore context (no strait, no metering) ------------- */

static JSGlobalContextRef raw;

static void keep_bytes(void *p, void *ud) { free(p); }

/* globalThis[name] = a new ArrayBuffer with a copy of n bytes at p. */
static void raw_buffer(const char *name, const uint8_t *p, size_t n) {
  uint8_t *d = malloc(n ? n : 1);
  memcpy(d, p, n);
  JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(raw, d, n, keep_bytes, NULL, NULL);
  JSStringRef s = JSStringCreateWithUTF8CString(name);
  JSObjectSetProperty(raw, JSContextGetGlobalObject(raw), s, ab, 0, NULL);
  JSStringRelease(s);
}

/* Evaluates src in the plain context; the string value (malloc'd), or the
 * exception as "!message". */
static char *raw_eval(const char *src) {
  JSStringRef s = JSStringCreateWithUTF8CString(src);
  JSValueRef exc = NULL, v = JSEvaluateScript(raw, s, NULL, NULL, 1, &exc);
  JSStringRelease(s);
  JSStringRef r = JSValueToStringCopy(raw, exc ? exc : v, NULL);
  size_t cap = JSStringGetMaximumUTF8CStringSize(r) + 1;
  char *out = malloc(cap);
  out[0] = exc ? '!' : 0;
  JSStringGetUTF8CString(r, out + (exc ? 1 : 0), cap - 1);
  JSStringRelease(r);
  return out;
}

/* The harness: the meter's imports from a helper module (as js/wasm.js
 * makes them), counting the calls; each t_* export's result. */
static const char kHarness[] =
    "var HELPER = new Uint8Array([0,97,115,109,1,0,0,0,1,9,2,96,0,0,96,1,127,1,127,2,30,3,1,104,5,99,104,101,"
    "99,107,0,0,1,104,4,103,114,111,119,0,1,1,104,5,116,103,114,111,119,0,1,3,4,3,0,1,1,7,24,3,5,99,104,101,"
    "99,107,0,3,4,103,114,111,119,0,4,5,116,103,114,111,119,0,5,10,20,3,4,0,16,0,11,6,0,32,0,16,1,11,6,0,"
    "32,0,16,2,11]);\n"
    "var counts = { check: 0, grow: 0, tgrow: 0 };\n"
    "var meterImports = new WebAssembly.Instance(new WebAssembly.Module(HELPER), { h: {\n"
    "  check() { counts.check++; }, grow(n) { counts.grow++; return n; }, tgrow(n) { counts.tgrow++; return n; } } }).exports;\n"
    "function imports(metered) {\n"
    "  var o = { env: { f(x) { return x === undefined ? 1 : x + 1; }, g: 3,\n"
    "                   gm: new WebAssembly.Global({ value: 'i32', mutable: true }, 10),\n"
    "                   thrower() { throw new Error('from JS'); } } };\n"
    "  if (metered) o['strait:meter'] = meterImports;\n"
    "  return o;\n"
    "}\n"
    "function show(v) { return typeof v === 'bigint' ? v + 'n' : String(v); }\n"
    "function results(buf, metered) {\n"
    "  var m = new WebAssembly.Module(buf), inst = new WebAssembly.Instance(m, imports(metered)), out = [];\n"
    "  for (var e of WebAssembly.Module.exports(m)) {\n"
    "    if (e.kind !== 'function' || e.name.slice(0, 2) !== 't_') continue;\n"
    "    try { out.push(e.name + '=' + show(inst.exports[e.name]())); }\n"
    "    catch (x) { out.push(e.name + '!' + x.constructor.name + ':' + x.message); }\n"
    "  }\n"
    "  return out.join(' ');\n"
    "}\n"
    "function sections(m, name) {\n"
    "  return WebAssembly.Module.customSections(m, name).map(function (b) { return Array.from(new Uint8Array(b)).join(','); }).join(';');\n"
    "}\n"
    "function compare() {\n"
    "  var o = new WebAssembly.Module(ORIG), m = new WebAssembly.Module(MET);\n"
    "  var oi = WebAssembly.Module.imports(o), mi = WebAssembly.Module.imports(m), last = mi.slice(oi.length);\n"
    "  var r = { validates: WebAssembly.validate(MET),\n"
    "    exports: JSON.stringify(WebAssembly.Module.exports(o)) === JSON.stringify(WebAssembly.Module.exports(m)),\n"
    "    imports: JSON.stringify(oi) === JSON.stringify(mi.slice(0, oi.length)) && last.length === 3 &&\n"
    "             last.every(function (d) { return d.module === 'strait:meter' && d.kind === 'global'; }),\n"
    "    names: sections(o, 'name') === sections(m, 'name') && sections(o, 'keep.me') === sections(m, 'keep.me'),\n"
    "    hints: sections(m, 'metadata.code.branch_hint') === '' };\n"
    "  counts.check = counts.grow = counts.tgrow = 0;\n"
    "  var a = results(ORIG, false), b = results(MET, true);\n"
    "  r.same = a === b; r.a = a; r.b = b; r.checks = counts.check; r.grows = counts.grow + counts.tgrow;\n"
    "  return JSON.stringify(r);\n"
    "}\n";

/* Checks one fixture through the harness. */
static void check_fixture(const char *name, bool loops, bool grows) {
  bytes in = fixture(name);
  strait__wasm_meter_opts opts = {1000};
  strait__wasm_metered r;
  int rc = strait__wasm_meter(in.p, in.n, &opts, &r);
  if (rc) fprintf(stderr, "%s: %s at byte %zu\n", name, r.err, r.err_off);
  T_EQ_INT(rc, 0);
  if (rc) {
    free(in.p);
    return;
  }
  T_CHECK(r.functions >= 1);
  T_CHECK(r.checkpoints >= r.functions + r.loops);   /* every entry and loop header */
  if (loops) T_CHECK(r.loops > 0);
  if (grows) T_CHECK(r.grows > 0);
  raw_buffer("ORIG", in.p, in.n);
  raw_buffer("MET", r.bytes, r.len);
  char *out = raw_eval("compare()");
  char want[64];
  T_CONTAINS(out, "\"validates\":true");
  T_CONTAINS(out, "\"exports\":true");
  T_CONTAINS(out, "\"imports\":true");
  T_CONTAINS(out, "\"names\":true");
  T_CONTAINS(out, "\"hints\":true");
  T_CONTAINS(out, "\"same\":true");
  if (loops) {
    T_CHECK(!strstr(out, "\"checks\":0,"));
  }
  if (grows) T_CHECK(!strstr(out, "\"grows\":0}"));
  snprintf(want, sizeof want, "%s:", name);
  if (t_cur_failed) fprintf(stderr, "%s %s\n", want, out);
  free(out);
  strait__wasm_metered_free(&r);
  free(in.p);
}

static void fixtures_mvp(void) { check_fixture("mvp", true, true); }
static void fixtures_ext(void) { check_fixture("ext", true, true); }
static void fixtures_simd(void) { check_fixture("simd", true, false); }
static void fixtures_tail(void) { check_fixture("tail", false, false); }
static void fixtures_eh(void) { check_fixture("eh", true, false); }
static void fixtures_exnref(void) { check_fixture("exnref", true, false); }
static void fixtures_funcref(void) { check_fixture("funcref", true, false); }
static void fixtures_gc(void) { check_fixture("gc", true, false); }
static void fixtures_extconst(void) { check_fixture("extconst", false, false); }
static void fixtures_atomics(void) { check_fixture("atomics", true, false); }
static void fixtures_names(void) {
  check_fixture("names", false, false);
  bytes in = fixture("names");
  strait__wasm_metered r;
  T_EQ_INT(strait__wasm_meter(in.p, in.n, NULL, &r), 0);
  T_EQ_INT(r.ndropped, 1);
  if (r.ndropped == 1) {
    T_CHECK(r.dropped[0].name_len == 25 && memcmp(in.p + r.dropped[0].name_off, "metadata.code.branch_hint", 25) == 0);
    T_CHECK(r.dropped[0].len == 3 && memcmp(in.p + r.dropped[0].off, "\x01\x00\x00", 3) == 0);
  }
  strait__wasm_metered_free(&r);
  free(in.p);
}

/* The tail-call fixture runs a million calls: they are checked too. */
static void tail_calls_checked(void) {
  bytes in = fixture("tail");
  strait__wasm_meter_opts opts = {1000};
  strait__wasm_metered r;
  T_EQ_INT(strait__wasm_meter(in.p, in.n, &opts, &r), 0);
  raw_buffer("MET", r.bytes, r.len);
  char *out = raw_eval("counts.check = 0; results(MET, true) + ' checks=' + counts.check");
  T_CONTAINS(out, "t_mutual=");
  int checks = 0;
  const char *c = strstr(out, "checks=");
  if (c) checks = atoi(c + 7);
  T_CHECK(checks > 1000);   /* a million calls of a few bytes each, budget 1000 */
  free(out);
  strait__wasm_metered_free(&r);
  free(in.p);
}

/* ---- malformed, hostile, mutated ------------------------------------------ */

/* Meters n bytes; returns whether it succeeded (the result is discarded). */
static bool meters(const uint8_t *p, size_t n, strait__wasm_metered *keep) {
  strait__wasm_metered r;
  int rc = strait__wasm_meter(p, n, NULL, &r);
  if (rc == 0 && keep) {
    *keep = r;
    return true;
  }
  if (rc == 0) strait__wasm_metered_free(&r);
  else T_CHECK(r.err[0] != 0 && r.err_off <= n);   /* an error says why, within the input */
  return rc == 0;
}

/* WebAssembly.validate of n bytes in the plain context. */
static bool raw_valid(const uint8_t *p, size_t n) {
  raw_buffer("V", p, n);
  char *out = raw_eval("String(WebAssembly.validate(V))");
  bool ok = strcmp(out, "true") == 0;
  free(out);
  return ok;
}

#define HDR 0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00

static void hostile_inputs(void) {
  static const uint8_t huge_types[] = {HDR, 0x01, 0x05, 0xff, 0xff, 0xff, 0xff, 0x0f};
  static const uint8_t long_leb[] = {HDR, 0x01, 0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  static const uint8_t big_section[] = {HDR, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
  static const uint8_t unknown_section[] = {HDR, 0x0e, 0x00};
  static const uint8_t bad_magic[] = {0x00, 0x61, 0x73, 0x6e, 0x01, 0x00, 0x00, 0x00};
  static const uint8_t version2[] = {0x00, 0x61, 0x73, 0x6d, 0x02, 0x00, 0x00, 0x00};
  /* (func) whose body declares 4G locals */
  static const uint8_t huge_locals[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                        0x0a, 0x0a, 0x01, 0x08, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x7f, 0x0b};
  /* br_table with a count of 4G */
  static const uint8_t huge_brtable[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                         0x0a, 0x0c, 0x01, 0x0a, 0x00, 0x41, 0x00, 0x0e, 0xff, 0xff, 0xff, 0xff,
                                         0x0f, 0x0b};
  /* an unknown opcode, an unknown 0xfc instruction */
  static const uint8_t bad_op[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                   0x0a, 0x05, 0x01, 0x03, 0x00, 0xff, 0x0b};
  static const uint8_t bad_fc[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                   0x0a, 0x06, 0x01, 0x04, 0x00, 0xfc, 0x7f, 0x0b};
  /* global.set 0 with no global: after the meter's shift, index 0 would be
   * its own "check" import, and index 3 its fuel */
  static const uint8_t names_fuel[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                       0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0x24, 0x00, 0x0b};
  /* an export of global 0 with no global */
  static const uint8_t exports_fuel[] = {HDR, 0x07, 0x05, 0x01, 0x01, 0x67, 0x03, 0x00};
  /* a body that ends before its end, one with bytes after it */
  static const uint8_t no_end[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                   0x0a, 0x05, 0x01, 0x03, 0x00, 0x02, 0x40};
  static const uint8_t after_end[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                      0x0a, 0x05, 0x01, 0x03, 0x00, 0x0b, 0x01};
  /* else without if, catch without try, a branch past the function */
  static const uint8_t stray_else[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                       0x0a, 0x05, 0x01, 0x03, 0x00, 0x05, 0x0b};
  static const uint8_t deep_br[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                    0x0a, 0x06, 0x01, 0x04, 0x00, 0x0c, 0x05, 0x0b};
  static const struct { const uint8_t *p; size_t n; const char *why; } cases[] = {
      {huge_types, sizeof huge_types, "count"},   {long_leb, sizeof long_leb, "longer"},
      {big_section, sizeof big_section, "longer"}, {unknown_section, sizeof unknown_section, "section"},
      {bad_magic, sizeof bad_magic, "not a WebAssembly"}, {version2, sizeof version2, "not a WebAssembly"},
      {huge_locals, sizeof huge_locals, "locals"}, {huge_brtable, sizeof huge_brtable, "count"},
      {bad_op, sizeof bad_op, "unknown instruction 0xff"}, {bad_fc, sizeof bad_fc, "0xfc 127"},
      {names_fuel, sizeof names_fuel, "global index 0"}, {exports_fuel, sizeof exports_fuel, "global index 0"},
      {no_end, sizeof no_end, "ends before"}, {after_end, sizeof after_end, "after its final end"},
      {stray_else, sizeof stray_else, "else"}, {deep_br, sizeof deep_br, "branch depth"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    strait__wasm_metered r;
    int rc = strait__wasm_meter(cases[i].p, cases[i].n, NULL, &r);
    T_EQ_INT(rc, STRAIT_EINVAL);
    T_CONTAINS(r.err, cases[i].why);
    T_CHECK(r.err_off <= cases[i].n);
  }
  strait__wasm_metered r;
  T_EQ_INT(strait__wasm_meter(NULL, 0, NULL, &r), STRAIT_EINVAL);
}

/* Every prefix of every fixture: an error, or (at a section boundary) a
 * module exactly as valid as the prefix. */
static void truncations(void) {
  for (size_t f = 0; f < NFIX; f++) {
    bytes in = fixture(kFixtures[f]);
    for (size_t n = 0; n < in.n; n++) {
      strait__wasm_metered r;
      if (meters(in.p, n, &r)) {
        T_CHECK(raw_valid(r.bytes, r.len) == raw_valid(in.p, n));
        strait__wasm_metered_free(&r);
      }
    }
    free(in.p);
  }
}

static uint64_t rng;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

/* Random mutations of the fixtures: never a crash; a metered module is
 * valid exactly when its input is; a valid input is never refused.
 * WASM_FUZZ_ITERS and WASM_FUZZ_SEED change the run. */
static void mutations(void) {
  const char *it = getenv("WASM_FUZZ_ITERS"), *sd = getenv("WASM_FUZZ_SEED");
  long iters = it ? atol(it) : 3000;
  rng = sd ? strtoull(sd, NULL, 0) : 0x9E3779B97F4A7C15ull;
  bytes fx[NFIX];
  for (size_t f = 0; f < NFIX; f++) fx[f] = fixture(kFixtures[f]);
  int made_invalid_valid = 0, refused_valid = 0;
  for (long i = 0; i < iters; i++) {
    bytes *src = &fx[rnd() % NFIX];
    size_t n = src->n + 8;
    uint8_t *p = malloc(n);
    memcpy(p, src->p, src->n);
    n = src->n;
    int edits = 1 + (int)(rnd() % 4);
    for (int e = 0; e < edits && n > 8; e++) {
      size_t at = 8 + rnd() % (n - 8);
      switch (rnd() % 5) {
      case 0: p[at] ^= (uint8_t)(1u << (rnd() % 8)); break;   /* flip a bit */
      case 1: p[at] = (uint8_t)rnd(); break;                   /* any byte */
      case 2: p[at] = (uint8_t)(0x80 | rnd()); break;          /* a longer LEB128 */
      case 3: memmove(p + at, p + at + 1, n - at - 1); n--; break; /* delete */
      case 4: if (n < src->n + 8) { memmove(p + at + 1, p + at, n - at); p[at] = (uint8_t)rnd(); n++; } break;
      }
    }
    strait__wasm_metered r;
    bool ok = meters(p, n, &r);
    bool valid = raw_valid(p, n), mvalid = false;
    if (ok) {
      mvalid = raw_valid(r.bytes, r.len);
      strait__wasm_metered_free(&r);
    }
    /* printed (and, with WASM_FUZZ_DUMP, kept in /tmp) so that a case shows */
    const char *what = mvalid && !valid ? "an invalid module metered into a valid one"
                       : valid && !mvalid ? "a valid module refused or broken" : NULL;
    if (what) {
      if (mvalid) made_invalid_valid++;
      else refused_valid++;
      fprintf(stderr, "mutation %ld: %s\n", i, what);
      char path[64];
      snprintf(path, sizeof path, "/tmp/wasm_fuzz_%ld.wasm", i);
      FILE *f = getenv("WASM_FUZZ_DUMP") ? fopen(path, "wb") : NULL;
      if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
      }
    }
    free(p);
  }
  T_EQ_INT(made_invalid_valid, 0);
  T_EQ_INT(refused_valid, 0);
  for (size_t f = 0; f < NFIX; f++) free(fx[f].p);
}

/* Deeply nested blocks and loops: metered iteratively, same validity. */
static void deep_nesting(void) {
  enum { DEPTH = 200000 };
  size_t n = 0, cap = 64 + DEPTH * 4;
  uint8_t *body = malloc(cap);
  body[n++] = 0x00;   /* no locals */
  for (int i = 0; i < DEPTH; i++) {
    body[n++] = (i % 3 == 1) ? 0x03 : 0x02;   /* loop or block */
    body[n++] = 0x40;
  }
  body[n++] = 0x0c;   /* br 1 */
  body[n++] = 0x01;
  for (int i = 0; i < DEPTH; i++) body[n++] = 0x0b;
  body[n++] = 0x0b;
  size_t mn = 0;
  uint8_t *mod = malloc(n + 64);
  static const uint8_t head[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x0a};
  memcpy(mod, head, sizeof head);
  mn = sizeof head;
  /* section size and body size as padded 5-byte LEB128s */
  size_t sec = 1 + 5 + n;
  for (int k = 0; k < 2; k++) {
    uint32_t v = k == 0 ? (uint32_t)sec : (uint32_t)n;
    if (k == 1) mod[mn++] = 0x01;   /* one body */
    for (int i = 0; i < 5; i++) {
      mod[mn++] = (uint8_t)((v & 0x7f) | (i < 4 ? 0x80 : 0));
      v >>= 7;
    }
  }
  memcpy(mod + mn, body, n);
  mn += n;
  strait__wasm_metered r;
  bool ok = meters(mod, mn, &r);
  T_CHECK(ok);
  if (ok) {
    T_CHECK(r.loops > DEPTH / 4);
    T_CHECK(raw_valid(r.bytes, r.len) == raw_valid(mod, mn));
    strait__wasm_metered_free(&r);
  }
  free(body);
  free(mod);
}

/* The same module metered twice gives the same bytes, and metering a
 * metered module works (its imports are the script's then). */
static void deterministic(void) {
  bytes in = fixture("mvp");
  strait__wasm_metered a, b, c;
  T_EQ_INT(strait__wasm_meter(in.p, in.n, NULL, &a), 0);
  T_EQ_INT(strait__wasm_meter(in.p, in.n, NULL, &b), 0);
  T_CHECK(a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0);
  T_EQ_INT(strait__wasm_meter(a.bytes, a.len, NULL, &c), 0);
  T_CHECK(raw_valid(c.bytes, c.len));
  strait__wasm_metered_free(&a);
  strait__wasm_metered_free(&b);
  strait__wasm_metered_free(&c);
  free(in.p);
}

/* ---- stopping wasm ---------------------------------------------------------- */

/* The guard: ends the program when a stay outlives its deadline (a build
 * that cannot stop wasm would otherwise hang the suite). */
static _Atomic double guard_deadline;
static _Atomic int guard_on;
static void *guard_main(void *p) {
  for (;;) {
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    double d = atomic_load(&guard_deadline);
    if (atomic_load(&guard_on) && d > 0 && now_ms() > d) {
      fprintf(stderr, "test_wasm_meter: %s: wasm code was not stopped\n", t_cur_name);
      printf("%d passed, %d failed\n", t_passed, t_failed + 1);
      fflush(stdout);
      _exit(1);
    }
  }
  return NULL;
}
static void guard(double ms) {
  atomic_store(&guard_deadline, ms > 0 ? now_ms() + ms : 0);
  atomic_store(&guard_on, ms > 0);
}

typedef struct later {
  strait_runtime *rt;
  double ms;
  _Atomic int *flag;   /* set instead of interrupting, when not NULL */
  pthread_t tid;
} later;
static void *later_main(void *p) {
  later *l = p;
  struct timespec ts = {(time_t)(l->ms / 1e3), (long)((l->ms - (double)(time_t)(l->ms / 1e3) * 1e3) * 1e6)};
  nanosleep(&ts, NULL);
  if (l->flag) atomic_store(l->flag, 1);
  else strait_interrupt(l->rt);
  return NULL;
}

static strait_runtime *wrt_new(tcap *cap, int64_t time_us, int64_t heap) {
  strait_options o;
  memset(&o, 0, sizeof o);
  o.write = tcap_write;
  o.write_ud = cap;
  o.time_limit_us = time_us;
  o.heap_limit = heap;
  strait_runtime *rt = NULL;
  if (strait_runtime_new(&o, &rt) != 0) exit(2);
  strait_enter(rt);
  /* STOPS, STOPS_TT: the bytes of tests/c/wasm/stops.wasm, stops_tt.wasm */
  for (int k = 0; k < 2; k++) {
    bytes b = fixture(k ? "stops_tt" : "stops");
    JSContextRef ctx = strait_runtime_context(rt);
    JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, b.p, b.n, keep_bytes, NULL, NULL);
    JSStringRef s = JSStringCreateWithUTF8CString(k ? "STOPS_TT" : "STOPS");
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), s, ab, 0, NULL);
    JSStringRelease(s);
  }
  strait_leave(rt);
  return rt;
}

/* The status of evaluating src in a stay of its own, as the launcher and
 * the Java API make them; *value (may be NULL) its value or the exception
 * as a string (malloc'd). */
static int eval_status(strait_runtime *rt, const char *src, char **value) {
  JSValueRef exc = NULL, v = NULL;
  strait_enter(rt);
  int rc = strait_eval_utf8(rt, src, strlen(src), "[wasm]", &v, &exc);
  JSValueRef show = rc == 0 ? v : exc;
  if (value) *value = show ? strait_utf8_from_value(strait_runtime_context(rt), show, NULL) : NULL;
  strait_leave(rt);
  return rc;
}

/* Each never-ending export, in a try/catch/finally that must not run. */
static const char *const kStops[] = {"loop", "tail", "try_loop", "try_table_loop", "import_loop", "recurse"};

static void run_stop(strait_runtime *rt, const char *export, int want, double within_ms) {
  char src[512];
  snprintf(src, sizeof src,
           "var i = new WebAssembly.Instance(new WebAssembly.Module(%s), { env: { f() { return 1; } } });"
           "var out = 'not stopped'; try { i.exports.%s(0); } catch (e) { out = 'caught ' + e; }"
           " finally { out += ' finally'; } out",
           strcmp(export, "try_table_loop") == 0 ? "STOPS_TT" : "STOPS", export);
  double t0 = now_ms();
  guard(within_ms + 10000);
  char *v = NULL;
  int rc = eval_status(rt, src, &v);
  guard(0);
  double took = now_ms() - t0;
  if (rc != want) fprintf(stderr, "%s: status %s (%s) after %.0f ms\n", export, strait_err_name(rc), v ? v : "", took);
  T_EQ_INT(rc, want);
  T_CHECK(took < within_ms);
  free(v);
  if (t_cur_failed) fprintf(stderr, "(%s)\n", export);
  /* the runtime takes the next call */
  v = NULL;
  t0 = now_ms();
  rc = eval_status(rt, "new WebAssembly.Instance(new WebAssembly.Module(STOPS), { env: { f() { return 1; } } })"
                       " && 6 * 7", &v);
  if (rc) fprintf(stderr, "after %s: %s (%s) in %.0f ms\n", export, strait_err_name(rc), v ? v : "", now_ms() - t0);
  T_EQ_INT(rc, 0);
  T_EQ_STR(v, "42");
  free(v);
}

static void stop_by_time_limit(void) {
  tcap cap = {0};
  strait_runtime *rt = wrt_new(&cap, 200 * 1000, 0);
  for (size_t i = 0; i < sizeof kStops / sizeof kStops[0]; i++) run_stop(rt, kStops[i], STRAIT_ETIMEDOUT, 3000);
  strait_runtime_free(rt);
  tcap_free(&cap);
}

static void stop_by_interrupt(void) {
  tcap cap = {0};
  strait_runtime *rt = wrt_new(&cap, 0, 0);
  for (size_t i = 0; i < sizeof kStops / sizeof kStops[0]; i++) {
    later l = {rt, 150, NULL, 0};
    pthread_create(&l.tid, NULL, later_main, &l);
    run_stop(rt, kStops[i], STRAIT_ETERM, 3000);
    pthread_join(l.tid, NULL);
  }
  strait_runtime_free(rt);
  tcap_free(&cap);
}

/* The embedder's poll (how the JNI layer sees Thread.interrupt()) is asked
 * at the watchdog's tick, which a wasm loop reaches through the check. */
static _Atomic int poll_flag;
static int poll_fn(void *ud) { return atomic_exchange(&poll_flag, 0); }   /* read and cleared, as Thread.interrupted() */
static void stop_by_poll(void) {
  tcap cap = {0};
  strait_runtime *rt = wrt_new(&cap, 0, 0);
  strait_enter(rt);
  strait_set_interrupt_poll(rt, poll_fn, NULL);
  strait_leave(rt);
  atomic_store(&poll_flag, 0);
  later l = {rt, 150, &poll_flag, 0};
  pthread_create(&l.tid, NULL, later_main, &l);
  run_stop(rt, "loop", STRAIT_ETERM, 3000);
  pthread_join(l.tid, NULL);
  atomic_store(&poll_flag, 0);
  strait_enter(rt);
  strait_set_interrupt_poll(rt, NULL, NULL);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&cap);
}

/* memory.grow and table.grow past the heap limit end the stay with
 * STRAIT_EHEAP (the meter's grow imports ask the heap accounting; each
 * grows by more than the limit at once: the accounting does not add up
 * table growth, whose memory the engine's heap size does not count). */
static void growth_past_heap_limit(void) {
  tcap cap = {0};
  strait_runtime *rt = wrt_new(&cap, 0, 64 << 20);
  const char *exports[] = {"grow", "table_grow"};
  for (int k = 0; k < 2; k++) {
    char src[256];
    snprintf(src, sizeof src,
             "var i = new WebAssembly.Instance(new WebAssembly.Module(STOPS), { env: { f() { return 1; } } });"
             " i.exports.%s()", exports[k]);
    guard(20000);
    int rc = eval_status(rt, src, NULL);
    guard(0);
    T_EQ_INT(rc, STRAIT_EHEAP);
  }
  char *v = NULL;
  T_EQ_INT(eval_status(rt, "6 * 7", &v), 0);
  T_EQ_STR(v, "42");
  free(v);
  strait_runtime_free(rt);
  tcap_free(&cap);
}

/* The implementation of wasm.js is loaded on first use: a runtime whose
 * first use of WebAssembly comes after a script replaced the built-ins it
 * would use still meters, instantiates and stops. */
static void first_use_after_tampering(void) {
  tcap cap = {0};
  strait_runtime *rt = wrt_new(&cap, 300 * 1000, 0);
  const char *src =
      "const TA = Object.getPrototypeOf(Uint8Array.prototype);"
      "const bad = function () { throw new Error('replaced built-in called'); };"
      "const list = [[Function.prototype, 'call'], [Function.prototype, 'apply'], [Function.prototype, 'bind'],"
      "  [Array.prototype, Symbol.iterator], [Reflect, 'construct'], [Reflect, 'get'], [Object, 'defineProperty'],"
      "  [WeakMap.prototype, 'get'], [WeakMap.prototype, 'set'], [TA, 'set'], [Promise, 'try'],"
      "  [ArrayBuffer.prototype, 'constructor'], [WebAssembly.Module, 'exports'], [globalThis, 'Proxy']];"
      "for (let i = 0; i < list.length; i++) Reflect.defineProperty(list[i][0], list[i][1], { value: bad, writable: true, configurable: true });"
      /* (func (export "sum") (param i32) (result i32) (local i32)): a loop */
      "const SUM = new Uint8Array(60); const b = [0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,7,1,3,115,117,"
      "109,0,0,10,29,1,27,1,1,127,3,64,32,1,32,0,106,33,1,32,0,65,1,107,33,0,32,0,13,0,11,32,1,11];"
      "for (let i = 0; i < 60; i++) SUM[i] = b[i];"
      "const m = new WebAssembly.Module(SUM);"
      "const r = new WebAssembly.Instance(m, { x: 1 }).exports.sum(100) + WebAssembly.validate(SUM) +"
      "  WebAssembly.Module.imports(m).length + WebAssembly.Module.customSections(m, 'x').length;"
      "new WebAssembly.Instance(new WebAssembly.Module(STOPS), { env: { f() { return 1; } } }).exports.loop(); r";
  guard(10000);
  char *v = NULL;
  int rc = eval_status(rt, src, &v);
  guard(0);
  if (rc != STRAIT_ETIMEDOUT) fprintf(stderr, "first use after tampering: %s (%s)\n", strait_err_name(rc), v ? v : "");
  T_EQ_INT(rc, STRAIT_ETIMEDOUT);
  free(v);
  v = NULL;
  T_EQ_INT(eval_status(rt, "new WebAssembly.Instance(new WebAssembly.Module(SUM)).exports.sum(4)", &v), 0);
  T_EQ_STR(v, "10");
  free(v);
  strait_runtime_free(rt);
  tcap_free(&cap);
}

int main(void) {
  pthread_t g;
  pthread_create(&g, NULL, guard_main, NULL);
  pthread_detach(g);
  raw = JSGlobalContextCreate(NULL);
  char *h = raw_eval(kHarness);
  if (h[0] == '!') {
    fprintf(stderr, "harness: %s\n", h);
    return 2;
  }
  free(h);
  T_RUN(fixtures_mvp);
  T_RUN(fixtures_ext);
  T_RUN(fixtures_simd);
  T_RUN(fixtures_tail);
  T_RUN(fixtures_eh);
  T_RUN(fixtures_exnref);
  T_RUN(fixtures_funcref);
  T_RUN(fixtures_gc);
  T_RUN(fixtures_extconst);
  T_RUN(fixtures_atomics);
  T_RUN(fixtures_names);
  T_RUN(tail_calls_checked);
  T_RUN(hostile_inputs);
  T_RUN(truncations);
  T_RUN(mutations);
  T_RUN(deep_nesting);
  T_RUN(deterministic);
  T_RUN(stop_by_time_limit);
  T_RUN(stop_by_interrupt);
  T_RUN(stop_by_poll);
  T_RUN(growth_past_heap_limit);
  T_RUN(first_use_after_tampering);
  JSGlobalContextRelease(raw);
  return T_DONE();
}

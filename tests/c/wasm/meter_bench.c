/* meter_bench.c - what metering costs (see README): the meter's speed on a
 * module, and the time of calls of its exports metered (through a strait
 * runtime, which meters every module) and unmetered (a plain
 * JavaScriptCore context of the same process), thread CPU time, best of
 * 11 after 3 warm-up calls each, alternating. Not part of the test suite.
 *   meter_bench module.wasm [export:arg ...]   e.g. kernels.wasm sha256:100000 */
#include "strait.h"
#include "wasm_meter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void no_free(void *p, void *ud) { (void)p; (void)ud; }

static void eval(JSContextRef ctx, const char *src) {
  JSStringRef s = JSStringCreateWithUTF8CString(src);
  JSValueRef exc = NULL;
  JSEvaluateScript(ctx, s, NULL, NULL, 1, &exc);
  JSStringRelease(s);
  if (exc) {
    JSStringRef m = JSValueToStringCopy(ctx, exc, NULL);
    char b[512];
    JSStringGetUTF8CString(m, b, sizeof b);
    fprintf(stderr, "JS error: %s\n", b);
    exit(1);
  }
}

static void set_bytes(JSContextRef ctx, unsigned char *b, long n) {
  JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, b, (size_t)n, no_free, NULL, NULL);
  JSStringRef nm = JSStringCreateWithUTF8CString("BYTES");
  JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), nm, ab, 0, NULL);
  JSStringRelease(nm);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)n), *b2 = malloc((size_t)n);
  if (fread(b, 1, (size_t)n, f) != (size_t)n) return 2;
  fclose(f);
  memcpy(b2, b, (size_t)n);
  strait__wasm_metered r;
  int reps = 0;
  double t0 = cpu_ms();
  size_t out_len = 0;
  do {
    if (strait__wasm_meter(b, (size_t)n, NULL, &r)) {
      fprintf(stderr, "meter: %s at byte %zu\n", r.err, r.err_off);
      return 1;
    }
    out_len = r.len;
    strait__wasm_metered_free(&r);
    reps++;
  } while (cpu_ms() - t0 < 500);
  double mt = (cpu_ms() - t0) / reps;
  printf("meter: %ld -> %zu bytes (+%.1f%%), %.3f ms a run, %.1f MB/s\n", n, out_len,
         100.0 * (double)(out_len - (size_t)n) / (double)n, mt, (double)n / 1e3 / mt);
  JSGlobalContextRef raw = JSGlobalContextCreate(NULL);
  set_bytes(raw, b, n);
  double tc = cpu_ms();
  eval(raw, "var I = new WebAssembly.Instance(new WebAssembly.Module(BYTES), {}).exports;");
  double raw_compile = cpu_ms() - tc;
  strait_runtime *rt;
  if (strait_runtime_new(NULL, &rt)) return 1;
  strait_enter(rt);
  JSContextRef sc = strait_runtime_context(rt);
  set_bytes(sc, b2, n);
  tc = cpu_ms();
  eval(sc, "var I = new WebAssembly.Instance(new WebAssembly.Module(BYTES), {}).exports;");
  double met_compile = cpu_ms() - tc;
  printf("compile and instantiate: unmetered %.2f ms, metered %.2f ms\n", raw_compile, met_compile);
  for (int a = 2; a < argc; a++) {
    char call[256], *colon = strchr(argv[a], ':');
    if (!colon) continue;
    *colon = 0;
    snprintf(call, sizeof call, "I.%s(%s)", argv[a], colon + 1);
    enum { N = 11 };
    double tr[N], tm[N];
    for (int k = 0; k < 3; k++) {
      eval(raw, call);
      eval(sc, call);
    }
    for (int k = 0; k < N; k++) {
      double t = cpu_ms();
      eval(raw, call);
      tr[k] = cpu_ms() - t;
      t = cpu_ms();
      eval(sc, call);
      tm[k] = cpu_ms() - t;
    }
    qsort(tr, N, sizeof tr[0], cmp);
    qsort(tm, N, sizeof tm[0], cmp);
    printf("%-10s unmetered %8.2f ms  metered %8.2f ms  (%+.1f%%)\n", argv[a], tr[0], tm[0],
           100 * (tm[0] - tr[0]) / tr[0]);
  }
  strait_leave(rt);
  strait_runtime_free(rt);
  JSGlobalContextRelease(raw);
  return 0;
}

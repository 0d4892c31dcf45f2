/*
 * fuzz_codec.c - fuzz target of the value-format readers.
 *   libFuzzer:  clang -fsanitize=fuzzer,address -DSTRAIT_LIBFUZZER ... (one input per call)
 *   standalone: fuzz_codec [cases] [seed-dir]  (random + mutated buffers)
 * The same cases run in `make asan` through tests/c/test_codec_fuzz.c.
 */
#include "fuzz_codec.h"
#include "strait.h"

static strait_runtime *fz_rt;

/* A runtime entered once for the process (fuzzing is single-threaded). */
static JSContextRef fz_ctx(void) {
  if (!fz_rt) {
    if (strait_runtime_new(NULL, &fz_rt)) return NULL;
    strait_enter(fz_rt);
  }
  return strait_runtime_context(fz_rt);
}

#ifdef STRAIT_LIBFUZZER
/* libFuzzer entry point. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_stats st = {0};
  fz_one(fz_ctx(), data, size, &st);
  if (st.unexpected || st.mismatches) abort();
  return 0;
}
#else
int main(int argc, char **argv) {
  unsigned long cases = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
  fz_stats st = {0};
  fz_run(fz_ctx(), cases, 16, argc > 2 ? argv[2] : "tests/vectors", &st);
  printf("fuzz: %lu cases, %lu valid, %lu through JS (%lu ok), %lu unexpected, %lu mismatches %s\n",
         st.cases, st.valid, st.js_reads, st.js_ok, st.unexpected, st.mismatches, st.last_problem);
  return st.unexpected || st.mismatches ? 1 : 0;
}
#endif

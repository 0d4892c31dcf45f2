/* test_codec_fuzz.c - one million random and mutated buffers through the
 * value-format validator (one in 16 also through the JS reader and back
 * through the writer, and the JS fast-path reader must agree with the C
 * one): no crash (the `make asan` build checks every read),
 * only 0 or ECORRUPT, and the validator and the JS reader agree. */
#include "t.h"
#include "../fuzz/fuzz_codec.h"

static JSContextRef ctx;

static void a_million_buffers_never_crash(void) {
  fz_stats st = {0};
  fz_run(ctx, 1000000, 16, "tests/vectors", &st);
  printf("fuzz: %lu cases, %lu valid, %lu through JS (%lu ok)\n", st.cases, st.valid, st.js_reads, st.js_ok);
  T_EQ_INT(st.cases, 1000000);
  T_EQ_INT(st.unexpected, 0);
  T_EQ_INT(st.mismatches, 0);
  if (st.unexpected || st.mismatches) fprintf(stderr, "fuzz: %s\n", st.last_problem);
  T_CHECK(st.valid > 1000);      /* the mutations reach past the checks */
}

int main(void) {
  strait_runtime *rt = NULL;
  if (strait_runtime_new(NULL, &rt)) return 2;
  strait_enter(rt);
  ctx = strait_runtime_context(rt);
  fz_js_rt = rt;
  T_RUN(a_million_buffers_never_crash);
  strait_leave(rt);
  strait_runtime_free(rt);
  return T_DONE();
}

/*
 * testing.c - the hook of the test/bench library variant
 * (build/lib-testing/libstrait.so: the product's objects plus
 * the .c files of tests/jni and bench/jni). The product's
 * strait__natives_register
 * calls strait__testing_init, a weak symbol that only this variant
 * defines, after registering the product natives: it registers the test
 * natives on org.strait.testing.TestNatives (java/src/test/java) and the
 * benchmark natives on org.strait.bench.BenchNatives (bench/java/api), each
 * only when that class is on the class path of the loader that loads the
 * library, so the variant also works without them. The product library
 * holds none of these natives.
 */
#include "base/jni_base.h"

extern const JNINativeMethod strait__probe_natives[];
extern const int strait__probe_natives_count;
extern const JNINativeMethod strait__bridge_bench_natives[];
extern const int strait__bridge_bench_natives_count;
extern const JNINativeMethod strait__codec_naive_natives[];
extern const int strait__codec_naive_natives_count;
extern const JNINativeMethod strait__bench_raw_natives[];
extern const int strait__bench_raw_natives_count;
int strait__codec_naive_init(JNIEnv *env);

static const struct {
  const char *cls;
  const JNINativeMethod *m;
  const int *n;
} tables[] = {
    {"org/strait/testing/TestNatives", strait__probe_natives, &strait__probe_natives_count},
    {"org/strait/testing/TestNatives", strait__bridge_bench_natives, &strait__bridge_bench_natives_count},
    {"org/strait/bench/BenchNatives", strait__codec_naive_natives, &strait__codec_naive_natives_count},
    {"org/strait/bench/BenchNatives", strait__bench_raw_natives, &strait__bench_raw_natives_count},
};

int strait__testing_init(JNIEnv *env) {
  int rc = strait__codec_naive_init(env);
  if (rc) return rc;
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
    jclass c = (*env)->FindClass(env, tables[i].cls);
    if (!c) {
      (*env)->ExceptionClear(env);   /* not on the class path: nothing to register */
      continue;
    }
    rc = strait__register(env, c, tables[i].m, *tables[i].n);
    (*env)->DeleteLocalRef(env, c);
    if (rc) return rc;
  }
  return 0;
}

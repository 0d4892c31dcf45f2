/*
 * strait_jvm.h - what the launcher calls in the JNI layer. Declared without
 * <jni.h>, so the launcher stays free of JNI types; the JNI layer is the
 * only code that includes <jni.h>.
 */
#ifndef STRAIT_JVM_H
#define STRAIT_JVM_H

#include "strait.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The global names strait_java_attach() defines: the package roots, then
 * the root of every package and the Java object. A string list for array
 * initializers: {STRAIT_JAVA_GLOBALS}.
 */
#define STRAIT_JAVA_PACKAGE_ROOTS "java", "javax", "jdk", "org", "com", "net"
#define STRAIT_JAVA_GLOBALS STRAIT_JAVA_PACKAGE_ROOTS, "Packages", "Java"

typedef struct strait_jvm_options {
  const char *classpath;        /* user class path (after strait.jar); may be NULL */
  const char *strait_jar;       /* path of strait.jar */
  const char *libjvm;           /* path of libjvm.so to dlopen; NULL: search */
  int nopts;                    /* extra JVM options (from -J...) */
  const char *const *opts;
} strait_jvm_options;

/*
 * Loads libjvm, creates the JVM in this process with the JNI invocation API
 * and attaches the calling thread (which must not be the primordial
 * thread), then initializes the JNI layer (class and method IDs). On
 * failure returns a negative status and writes a one-line reason to err.
 * Call once per process.
 */
STRAIT_API int strait_jvm_start(const strait_jvm_options *opts, char *err, size_t errlen);

/*
 * Installs the Java bridge into rt (globals java, javax, Packages, Java...)
 * and binds rt's lifetime to the JNI layer's per-runtime state. Inside the
 * gate, on a thread attached to the JVM.
 */
STRAIT_API int strait_java_attach(strait_runtime *rt, JSValueRef *exception);

/* Detaches the calling thread and destroys the JVM (waits for non-daemon
 * Java threads, as `java` does). Call after every runtime is freed. */
STRAIT_API void strait_jvm_stop(void);

/* Blocks until no non-daemon Java thread other than the caller is alive
 * (the threads a script started, which may still call into its runtime).
 * Returns 1 if it waited for any, 0 if there were none or no JVM runs.
 * Outside any runtime's gate; the thread that started the JVM. */
STRAIT_API int strait_jvm_join_threads(void);

#ifdef __cplusplus
}
#endif
#endif /* STRAIT_JVM_H */

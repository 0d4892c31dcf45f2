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
 * The global names strait_java_attach() defines (strait_java_attach_policy:
 * none under NONE, or under GIVEN and EXPLICIT without a class filter): the package roots, then
 * the root of every package, the Java object, and the importers
 * (JavaImporter, importPackage, importClass). A string list for array
 * initializers: {STRAIT_JAVA_GLOBALS}.
 */
#define STRAIT_JAVA_PACKAGE_ROOTS "java", "javax", "jdk", "org", "com", "net"
#define STRAIT_JAVA_GLOBALS STRAIT_JAVA_PACKAGE_ROOTS, "Packages", "Java", "JavaImporter", "importPackage", "importClass"

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
 * Readies rt for a Java bridge attached later: captures, from rt's own
 * global object, the built-ins the bridge's helpers use, so that they are
 * the engine's whatever a script replaces afterwards. Call it before the
 * first script of rt runs; without it, a bridge attached after a script
 * ran takes them from a fresh realm of rt's engine, whose objects (the
 * errors its functions throw) a script can then reach, and with them that
 * realm's Function and built-ins, none of which carry the runtime's guards
 * (WebAssembly, which is taken out of such a realm, and the heap limit's
 * wrappers). Needs no JVM. Inside the gate. Returns 0 or STRAIT_ENOMEM.
 */
STRAIT_API int strait_java_prepare(strait_runtime *rt);

/*
 * Installs the Java bridge into rt (globals java, javax, Packages, Java...)
 * and binds rt's lifetime to the JNI layer's per-runtime state. Inside the
 * gate, on a thread attached to the JVM.
 */
STRAIT_API int strait_java_attach(strait_runtime *rt, JSValueRef *exception);

/* Host access levels of strait_java_policy (org.strait.HostAccess). */
#define STRAIT_HOST_ALL 0        /* every public class and member */
#define STRAIT_HOST_NONE 1       /* no Java: no globals, every Java object refused */
#define STRAIT_HOST_GIVEN 2      /* no lookups: the members of objects handed in and what they return */
#define STRAIT_HOST_EXPLICIT 3   /* only members annotated @org.strait.HostAccess.Export */
/* strait_java_policy.deny bits */
#define STRAIT_JAVA_DENY_THREADS 1u  /* classes that create threads (Thread, Executors...) */
#define STRAIT_JAVA_DENY_NATIVE 2u   /* loading native code (System.load, java.lang.foreign...) */

/*
 * What a runtime's scripts may reach of the JVM (docs/sandbox.md). A
 * zero-initialized struct is ALL with nothing denied: strait_java_attach().
 * allow: comma-separated names reflection denials spare: a class
 * ("java.lang.Class"), a package prefix ("java.lang.reflect.*") or a member
 * ("java.lang.Object#getClass"); NULL for none. Copied by the call.
 */
typedef struct strait_java_policy {
  int host_access;     /* STRAIT_HOST_ALL (0), STRAIT_HOST_NONE, STRAIT_HOST_GIVEN, STRAIT_HOST_EXPLICIT */
  unsigned deny;       /* STRAIT_JAVA_DENY_THREADS | STRAIT_JAVA_DENY_NATIVE */
  const char *allow;   /* comma-separated allowed names, or NULL */
} strait_java_policy;

/*
 * strait_java_attach() under policy p (NULL: ALL). Under NONE no global
 * is defined and every Java object crossing into the runtime is refused.
 * Inside the gate, on a thread attached to the JVM. STRAIT_EINVAL for an
 * unknown host_access. A runtime keeps the first policy it was attached
 * with.
 */
STRAIT_API int strait_java_attach_policy(strait_runtime *rt, const strait_java_policy *p, JSValueRef *exception);

/* Detaches the calling thread and destroys the JVM (waits for non-daemon
 * Java threads, as `java` does). Call after every runtime is freed. */
STRAIT_API void strait_jvm_stop(void);

/* Detaches the calling native thread from the JVM if it is attached (a
 * thread about to end that called Java: a worker's, in the hooks'
 * fini). No-op without a JVM, or on a thread with Java frames on its
 * stack. Any thread. */
STRAIT_API void strait_jvm_detach_thread(void);

/* Blocks until no non-daemon Java thread other than the caller is alive
 * (the threads a script started, which may still call into its runtime).
 * Returns 1 if it waited for any, 0 if there were none or no JVM runs.
 * Outside any runtime's gate; any attached or attachable thread (the
 * launcher's, also when a worker's thread started the JVM). */
STRAIT_API int strait_jvm_join_threads(void);

#ifdef __cplusplus
}
#endif
#endif /* STRAIT_JVM_H */

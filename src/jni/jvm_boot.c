/*
 * jvm_boot.c - creating the JVM inside the strait process (JNI invocation
 * API) for the launcher, and destroying it at exit.
 *
 * libjvm.so is opened with dlopen at run time (the launcher does not link
 * against it), so one strait binary works with any JDK 17+. The JVM gets
 * strait.jar plus the user class path, the options given with -J, and the
 * system property strait.library naming the libstrait.so already loaded in
 * this process, so that the Java side (NativeLoader) loads this very copy
 * instead of extracting another one from the jar: loading the same file
 * again only makes the JVM call JNI_OnLoad, and strait__jni_init() is
 * idempotent.
 */
#define _GNU_SOURCE
#include "base/jni_base.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef jint (*create_vm_fn)(JavaVM **, void **, void *);

/* The process's JVM: created once by strait_jvm_start, destroyed by
 * strait_jvm_stop. Process-wide by nature (one JVM per process). */
static JavaVM *the_vm;

/* snprintf into err (errlen bytes, may be 0). Any thread. */
static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* Non-zero if path names a readable regular file. Any thread. */
static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

/* Writes <home>/lib/server/libjvm.so into out (outlen bytes) if that file
 * exists; returns non-zero then. Any thread. */
static int libjvm_in_home(const char *home, char *out, size_t outlen) {
  if (!home || !*home) return 0;
  int n = snprintf(out, outlen, "%s/lib/server/libjvm.so", home);
  return n > 0 && (size_t)n < outlen && is_file(out);
}

/* Searches for libjvm.so when the launcher gave none: $JAVA_HOME, then the
 * JDK of the `java` on PATH, then /usr/lib/jvm/<every JDK> (the highest name
 * in sort order wins). Writes the path into out; returns non-zero if found.
 * Any thread. */
static int find_libjvm(char *out, size_t outlen) {
  if (libjvm_in_home(getenv("JAVA_HOME"), out, outlen)) return 1;
  const char *path = getenv("PATH");
  if (path) {
    char *copy = strdup(path);
    for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
         dir = strtok_r(NULL, ":", &save)) {
      char java[PATH_MAX], real[PATH_MAX];
      if (snprintf(java, sizeof java, "%s/java", dir) >= (int)sizeof java) continue;
      if (access(java, X_OK) != 0 || !realpath(java, real)) continue;
      char *slash = strrchr(real, '/');            /* .../bin/java */
      if (slash) *slash = '\0';
      slash = strrchr(real, '/');                  /* .../bin */
      if (slash) *slash = '\0';
      if (libjvm_in_home(real, out, outlen)) { free(copy); return 1; }
    }
    free(copy);
  }
  DIR *d = opendir("/usr/lib/jvm");
  if (!d) return 0;
  char best[NAME_MAX + 1] = "";
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    char probe[PATH_MAX];
    if (snprintf(probe, sizeof probe, "/usr/lib/jvm/%s", e->d_name) >= (int)sizeof probe)
      continue;
    if (libjvm_in_home(probe, out, outlen) && strcmp(e->d_name, best) > 0)
      snprintf(best, sizeof best, "%s", e->d_name);
  }
  closedir(d);
  if (!best[0]) return 0;
  char home[PATH_MAX];
  snprintf(home, sizeof home, "/usr/lib/jvm/%s", best);
  return libjvm_in_home(home, out, outlen);
}

/* Appends "-D<name>=<a>[:<b>]" style option text: malloc'd, caller frees.
 * Any thread. */
static char *joined(const char *prefix, const char *a, const char *b) {
  size_t n = strlen(prefix) + (a ? strlen(a) : 0) + (b ? strlen(b) + 1 : 0) + 1;
  char *s = malloc(n);
  if (!s) return NULL;
  snprintf(s, n, "%s%s%s%s", prefix, a ? a : "", (a && *a && b && *b) ? ":" : "",
           b ? b : "");
  return s;
}

/* Initializes the JNI layer (class and method IDs, natives) on the thread
 * that created the JVM: through org.strait.internal.NativeLoader.load(), which loads
 * this library again by the strait.library property, so the JVM runs
 * JNI_OnLoad -> strait__jni_init() from a Java frame. Going through Java
 * first matters: the init initializes org.strait.internal.Natives, whose static
 * initializer calls NativeLoader.load(); inside System.load that nested
 * load is a no-op, whereas entering strait__jni_init() from C first would
 * re-enter it from the static initializer. Falls back to strait__jni_init()
 * when strait.jar has no NativeLoader. Returns 0 or a negative status with
 * err set. Thread: the one that created the JVM. */
static int init_jni_layer(JNIEnv *env, char *err, size_t errlen) {
  int rc;
  jclass loader = (*env)->FindClass(env, "org/strait/internal/NativeLoader");
  jmethodID load = loader ? (*env)->GetStaticMethodID(env, loader, "load", "()V") : NULL;
  if (load) {
    (*env)->CallStaticVoidMethod(env, loader, load);
    rc = (*env)->ExceptionCheck(env) ? STRAIT_EJAVA : 0;
  } else {
    (*env)->ExceptionClear(env);
    rc = strait__jni_init(the_vm, env);
  }
  if (loader) (*env)->DeleteLocalRef(env, loader);
  if (rc == 0) return 0;
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionDescribe(env);
  set_err(err, errlen, "the JNI layer failed to initialize (is strait.jar complete?)");
  return rc;
}

/* Creates the JVM (see strait_jvm.h). Call once per process, from a
 * non-primordial thread, which stays attached. */
int strait_jvm_start(const strait_jvm_options *opts, char *err, size_t errlen) {
  if (the_vm) {
    set_err(err, errlen, "the JVM is already running");
    return STRAIT_EBUSY;
  }
  char libjvm[PATH_MAX];
  if (opts && opts->libjvm) {
    snprintf(libjvm, sizeof libjvm, "%s", opts->libjvm);
  } else if (!find_libjvm(libjvm, sizeof libjvm)) {
    set_err(err, errlen, "cannot find libjvm.so: set JAVA_HOME to a JDK 17 or newer");
    return STRAIT_ENOENT;
  }
  void *h = dlopen(libjvm, RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    set_err(err, errlen, "cannot load '%s': %s", libjvm, dlerror());
    return STRAIT_ENOENT;
  }
  create_vm_fn create = (create_vm_fn)dlsym(h, "JNI_CreateJavaVM");
  if (!create) {
    set_err(err, errlen, "'%s' has no JNI_CreateJavaVM", libjvm);
    return STRAIT_EINVAL;
  }
  Dl_info self;
  const char *libpath = NULL;
  if (dladdr((void *)strait_jvm_start, &self) && self.dli_fname) libpath = self.dli_fname;

  int nuser = opts ? opts->nopts : 0;
  JavaVMOption *vmopts = calloc((size_t)nuser + 2, sizeof *vmopts);
  char *cp = joined("-Djava.class.path=", opts ? opts->strait_jar : NULL,
                    opts ? opts->classpath : NULL);
  char *libprop = joined("-Dstrait.library=", libpath, NULL);
  if (!vmopts || !cp || !libprop) {
    free(vmopts); free(cp); free(libprop);
    set_err(err, errlen, "out of memory");
    return STRAIT_ENOMEM;
  }
  int n = 0;
  vmopts[n++].optionString = cp;
  if (libpath) vmopts[n++].optionString = libprop;
  for (int i = 0; i < nuser; i++) vmopts[n++].optionString = (char *)opts->opts[i];

  JavaVMInitArgs args;
  args.version = JNI_VERSION_1_8;
  args.nOptions = n;
  args.options = vmopts;
  args.ignoreUnrecognized = JNI_FALSE;
  JNIEnv *env = NULL;
  jint rc = create(&the_vm, (void **)&env, &args);
  free(vmopts); free(cp); free(libprop);
  if (rc != JNI_OK) {
    the_vm = NULL;
    set_err(err, errlen, "cannot create the JVM (error %d): check the JVM options (-J, JAVA_TOOL_OPTIONS)", (int)rc);
    return rc == JNI_ENOMEM ? STRAIT_ENOMEM : STRAIT_EINVAL;
  }
  return init_jni_layer(env, err, errlen);
}

/* Thread methods for strait_jvm_join_threads: process-wide, set once on the
 * launcher's thread. */
static jclass thread_cls;
static jmethodID thread_all, thread_current, thread_is_daemon, thread_is_alive, thread_join;
static jmethodID map_key_set, set_to_array;

/* Caches the IDs above once. Returns 0, or -1 with a Java exception
 * pending. The thread that started the JVM. */
static int thread_ids(JNIEnv *env) {
  if (thread_cls) return 0;
  jclass t = strait__global_class(env, "java/lang/Thread");
  jclass map = t ? (*env)->FindClass(env, "java/util/Map") : NULL;
  jclass set = map ? (*env)->FindClass(env, "java/util/Set") : NULL;
  if (!set) return -1;
  thread_all = (*env)->GetStaticMethodID(env, t, "getAllStackTraces", "()Ljava/util/Map;");
  thread_current = (*env)->GetStaticMethodID(env, t, "currentThread", "()Ljava/lang/Thread;");
  thread_is_daemon = (*env)->GetMethodID(env, t, "isDaemon", "()Z");
  thread_is_alive = (*env)->GetMethodID(env, t, "isAlive", "()Z");
  thread_join = (*env)->GetMethodID(env, t, "join", "()V");
  map_key_set = (*env)->GetMethodID(env, map, "keySet", "()Ljava/util/Set;");
  set_to_array = (*env)->GetMethodID(env, set, "toArray", "()[Ljava/lang/Object;");
  (*env)->DeleteLocalRef(env, map);
  (*env)->DeleteLocalRef(env, set);
  thread_cls = t;
  return 0;
}

/* Joins the live non-daemon threads other than the caller once; returns how
 * many it joined, or -1 on a Java exception (cleared). Every Java call here
 * can throw (OutOfMemoryError, InterruptedException), so each is checked
 * before the next JNI call. The thread that started the JVM, outside any
 * gate. */
static int join_round(JNIEnv *env) {
  if ((*env)->PushLocalFrame(env, 16) != 0) return -1;
  int joined = 0, failed = 1;
  jobject self = (*env)->CallStaticObjectMethod(env, thread_cls, thread_current);
  if ((*env)->ExceptionCheck(env)) goto out;
  jobject all = (*env)->CallStaticObjectMethod(env, thread_cls, thread_all);
  if ((*env)->ExceptionCheck(env) || !all) goto out;
  jobject keys = (*env)->CallObjectMethod(env, all, map_key_set);
  if ((*env)->ExceptionCheck(env) || !keys) goto out;
  jobjectArray arr = (*env)->CallObjectMethod(env, keys, set_to_array);
  if ((*env)->ExceptionCheck(env) || !arr) goto out;
  jsize n = (*env)->GetArrayLength(env, arr);
  for (jsize i = 0; i < n; i++) {
    jobject th = (*env)->GetObjectArrayElement(env, arr, i);
    if ((*env)->IsSameObject(env, th, self)) {
      (*env)->DeleteLocalRef(env, th);
      continue;
    }
    jboolean daemon = (*env)->CallBooleanMethod(env, th, thread_is_daemon);
    if ((*env)->ExceptionCheck(env)) goto out;
    jboolean alive = !daemon && (*env)->CallBooleanMethod(env, th, thread_is_alive);
    if ((*env)->ExceptionCheck(env)) goto out;
    if (alive) {
      (*env)->CallVoidMethod(env, th, thread_join);
      if ((*env)->ExceptionCheck(env)) goto out;
      joined++;
    }
    (*env)->DeleteLocalRef(env, th);
  }
  failed = 0;
out:
  if (failed) (*env)->ExceptionClear(env);
  (*env)->PopLocalFrame(env, NULL);
  return failed ? -1 : joined;
}

/* Detaches the calling thread (see strait_jvm.h). Any thread. The JVM is
 * the launcher's or, in an application that loaded the library
 * (JsRuntime), the one JNI_OnLoad recorded: a worker of an embedded
 * runtime must leave that JVM too. */
void strait_jvm_detach_thread(void) {
  JavaVM *vm = the_vm ? the_vm : strait__jvm;
  if (!vm) return;
  JNIEnv *env = NULL;
  if ((*vm)->GetEnv(vm, (void **)&env, STRAIT_JNI_VERSION) != JNI_OK) return;
  /* JNI refuses (JNI_ERR) a thread with Java frames: then it stays */
  if ((*vm)->DetachCurrentThread(vm) == JNI_OK) strait__tls_env = NULL;
}

/* Waits for the script's non-daemon Java threads (see strait_jvm.h). */
int strait_jvm_join_threads(void) {
  if (!the_vm) return 0;
  JNIEnv *env = strait__env();
  if (!env || thread_ids(env) != 0) {
    if (env) (*env)->ExceptionClear(env);
    return 0;
  }
  int waited = 0;
  for (int r; (r = join_round(env)) > 0;) waited = 1;
  return waited;
}

/* Destroys the JVM (see strait_jvm.h): waits for the non-daemon Java threads
 * as `java` does. Thread: the one that started it, after every runtime is
 * freed. */
void strait_jvm_stop(void) {
  if (!the_vm) return;
  JavaVM *vm = the_vm;
  (*vm)->DestroyJavaVM(vm);
  the_vm = NULL;
}

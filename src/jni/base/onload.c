/*
 * onload.c - how the JNI layer comes up: JNI_OnLoad, the JavaVM and the
 * per-thread JNIEnv cache, and the helpers the init functions share.
 *
 * Two ways in, one initialization:
 *   - embedding: Java's NativeLoader System.load()s libstrait.so and the JVM
 *     calls JNI_OnLoad;
 *   - launcher: the launcher (linked against libstrait.so) creates the JVM
 *     and then either calls strait__jni_init() itself or lets Java load the
 *     library; loading the same file again makes dlopen return the library
 *     already mapped, and the JVM calls JNI_OnLoad on it.
 * Whichever comes first does the work (strait__jni_init is idempotent).
 */
#include "base/jni_base.h"

#include <pthread.h>

JavaVM *strait__jvm;
_Thread_local JNIEnv *strait__tls_env;

static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;
static int init_state;       /* 0 not yet, 1 done, <0 failed with that status */

/* GetEnv, or attaches the calling native thread as a daemon; caches the
 * result for the thread. Any thread; NULL if no JVM or attaching failed. */
JNIEnv *strait__env_slow(void) {
  JavaVM *vm = strait__jvm;
  if (!vm) return NULL;
  JNIEnv *env = NULL;
  jint rc = (*vm)->GetEnv(vm, (void **)&env, STRAIT_JNI_VERSION);
  if (rc == JNI_EDETACHED) {
    JavaVMAttachArgs args = {STRAIT_JNI_VERSION, "strait-native", NULL};
    if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&env, &args) != JNI_OK) return NULL;
  } else if (rc != JNI_OK) {
    return NULL;
  }
  strait__tls_env = env;
  return env;
}

/* Global ref to the class named (JNI form) name; NULL with the JVM's
 * NoClassDefFoundError pending. Init only (any attached thread). */
jclass strait__global_class(JNIEnv *env, const char *name) {
  jclass local = (*env)->FindClass(env, name);
  if (!local) return NULL;
  jclass global = (*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  return global;
}

/* Registers a native table on cls. Init only. */
int strait__register(JNIEnv *env, jclass cls, const JNINativeMethod *m, int n) {
  return (*env)->RegisterNatives(env, cls, m, n) == JNI_OK ? 0 : STRAIT_EINVAL;
}

/* Initializes the JNI layer once (see jni_internal.h). Any attached thread. */
int strait__jni_init(JavaVM *vm, JNIEnv *env) {
  /* Looking up org.strait.internal.Natives initializes it, and its static
   * initializer loads the library: a nested call on this thread finds the
   * work in progress and returns. */
  static _Thread_local bool in_init;
  if (in_init) return 0;
  in_init = true;
  pthread_mutex_lock(&init_mu);
  if (init_state == 0) {
    strait__jvm = vm;
    strait__tls_env = env;
    int rc = strait__jni_core_init(env);
    if (rc == 0) rc = strait__bridge_init(env);
    if (rc == 0) rc = strait__handles_init(env);
    if (rc == 0) rc = strait__codec_jni_init(env);
    if (rc == 0) rc = strait__natives_register(env);
    init_state = rc == 0 ? 1 : (rc < 0 ? rc : STRAIT_EINVAL);
  }
  int result = init_state == 1 ? 0 : init_state;
  pthread_mutex_unlock(&init_mu);
  in_init = false;
  return result;
}

/* Called by the JVM when Java loads libstrait.so (or loads it again after the
 * launcher mapped it). On the loading Java thread. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  JNIEnv *env = NULL;
  if ((*vm)->GetEnv(vm, (void **)&env, STRAIT_JNI_VERSION) != JNI_OK) return JNI_ERR;
  if (strait__jni_init(vm, env) != 0) {
    /* An exception from FindClass/RegisterNatives is pending; the JVM
     * reports it as the cause of the failed load. */
    return JNI_ERR;
  }
  return STRAIT_JNI_VERSION;
}

/* Called when the class loader that loaded the library is collected. The
 * cached global refs die with the JVM; nothing to do. */
JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {}

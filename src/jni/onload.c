/*
 * onload.c - how the JNI layer comes up: JNI_OnLoad and the one
 * initialization of every part's cached IDs and natives.
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
#include "call/call.h"

#include <pthread.h>

static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;
static int init_state;       /* 0 not yet, 1 done, <0 failed with that status */

/* Initializes the JNI layer once (see base/jni_base.h). Any attached thread. */
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
    if (rc == 0) rc = strait__extend_init(env);
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

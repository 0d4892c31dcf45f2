/*
 * vm.c - the process's JavaVM, the per-thread JNIEnv cache (a native
 * thread is attached as a daemon on first use), and the two helpers every
 * part's initialization uses (global class refs, native tables).
 */
#include "base/jni_base.h"

JavaVM *strait__jvm;
JB_TLS JNIEnv *strait__tls_env;

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

/*
 * stop.c - the Java side of stopping a script: the checks around every Java
 * call a runtime's JS makes (a stopped script makes none, and one stopped
 * while a call ran stops at its return into JS), and the Java thread such a
 * call runs on, so that an interrupt, close() or a passed time limit can end
 * a blocking call (Thread.interrupt()).
 *
 * Each thread that makes a Java call from a runtime's JS gets, on its first
 * one, a weak global ref to its java.lang.Thread, kept in a thread-local and
 * in a process-wide list; the runtime records it before every call (one
 * store). A ref is deleted only once its Thread was collected (so never
 * while its thread can be inside a runtime): the list is swept for those
 * whenever it doubled. The wait hook, the one user of the recorded ref,
 * runs under the same lock as the sweep.
 */
#include "base/jni_base.h"
#include "base/interop_ids.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t refs_mu = PTHREAD_MUTEX_INITIALIZER;
static jweak *refs;            /* under refs_mu */
static size_t nrefs, caprefs, swept_at;

static JB_TLS jweak tl_thread; /* the calling thread's entry of refs */

/* Deletes the refs whose Thread was collected. With refs_mu held. */
static void sweep(JNIEnv *env) {
  size_t k = 0;
  for (size_t i = 0; i < nrefs; i++) {
    if ((*env)->IsSameObject(env, refs[i], NULL)) (*env)->DeleteWeakGlobalRef(env, refs[i]);
    else refs[k++] = refs[i];
  }
  nrefs = k;
  swept_at = k;
}

/* The calling thread's weak ref, made on first use; NULL when out of
 * memory (the thread is then not interrupted). A Java thread. */
static jweak thread_ref(JNIEnv *env) {
  if (tl_thread) return tl_thread;
  jobject t = (*env)->CallStaticObjectMethod(env, strait__hc.Thread, strait__hc.Thread_currentThread);
  if ((*env)->ExceptionCheck(env) || !t) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  jweak w = (*env)->NewWeakGlobalRef(env, t);
  (*env)->DeleteLocalRef(env, t);
  if (!w) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  pthread_mutex_lock(&refs_mu);
  if (nrefs >= 2 * swept_at + 16) sweep(env);
  if (nrefs == caprefs) {
    size_t cap = caprefs ? 2 * caprefs : 32;
    jweak *grown = realloc(refs, cap * sizeof *refs);
    if (!grown) {
      pthread_mutex_unlock(&refs_mu);
      (*env)->DeleteWeakGlobalRef(env, w);
      return NULL;
    }
    refs = grown;
    caprefs = cap;
  }
  refs[nrefs++] = w;
  pthread_mutex_unlock(&refs_mu);
  tl_thread = w;
  return w;
}

/* Before a Java call made from rt's JS (see jni_base.h). */
int strait__java_call_refused(JNIEnv *env, strait_runtime *rt) {
  int stop = strait_check_stop(rt);
  if (stop) return stop;
  strait__jrt *jrt = strait_runtime_embedder(rt);
  if (jrt) {
    jweak w = tl_thread ? tl_thread : thread_ref(env);
    atomic_store_explicit(&jrt->waiting_thread, w, memory_order_relaxed);
  }
  return 0;
}

/* After a Java call made from rt's JS (see jni_base.h). A stop after a
 * call consumed the thread's interrupt flag, as InterruptedException does:
 * a flag strait's wait hook set, or one the embedder set to stop the
 * script, does not outlive the stop. */
int strait__java_returned(JNIEnv *env, strait_runtime *rt, jboolean threw) {
  int stop = strait_check_stop(rt);
  strait__jrt *jrt = NULL;
  if (!stop && threw) {
    jrt = strait_runtime_embedder(rt);
    if (jrt && jrt->embedded) {
      /* no JNI call but a few may be made with an exception pending:
       * take it, look, and throw it again unless it is the stop */
      jthrowable t = (*env)->ExceptionOccurred(env);
      (*env)->ExceptionClear(env);
      jboolean ie = t && (*env)->IsInstanceOf(env, t, strait__hc.InterruptedException);
      if (t && !ie) (*env)->Throw(env, t);
      if (t) (*env)->DeleteLocalRef(env, t);
      if (ie) {
        strait_interrupt(rt);
        strait_terminate_workers(rt);   /* as interrupt() */
        stop = strait_check_stop(rt);
      }
    }
  }
  if (!stop) return 0;
  if (threw) (*env)->ExceptionClear(env);
  if (!jrt) jrt = strait_runtime_embedder(rt);
  if (jrt && jrt->embedded) {
    (*env)->CallStaticBooleanMethod(env, strait__hc.Thread, strait__hc.Thread_interrupted);
    (*env)->ExceptionClear(env);
  }
  return stop;
}

/* The wait hook (see jni_base.h). The watcher's or an interrupting thread,
 * under the core's lock of watched runtimes. */
void strait__wake_java(strait_runtime *rt, void *ud) {
  (void)rt;
  strait__jrt *jrt = ud;
  JNIEnv *env = strait__env();
  if (!env) return;
  pthread_mutex_lock(&refs_mu);
  jweak w = atomic_load_explicit(&jrt->waiting_thread, memory_order_relaxed);
  jobject t = w ? (*env)->NewLocalRef(env, w) : NULL;
  pthread_mutex_unlock(&refs_mu);
  if (!t) return;
  (*env)->CallVoidMethod(env, t, strait__hc.Thread_interrupt);
  (*env)->ExceptionClear(env);
  (*env)->DeleteLocalRef(env, t);
}

/*
 * entry.c - how a native called from Java gets into a runtime and out
 * again: the core's admission gate (spin, then park), re-entrant for the
 * thread already inside, a parked wait that a Thread.interrupt() ends with
 * JsInterruptedException instead of a hang, and the entry frame every
 * native keeps on its C stack for its stay (so close() from a callback can
 * tell it is called from inside; the frame's push and pop are inline in
 * base/jni_base.h).
 */
#include "base/jni_base.h"
#include "base/interop_ids.h"

JB_TLS strait__entry *strait__entries;

/* Non-zero when the calling thread is inside a native of jrt. Any thread. */
int strait__jrt_entered_here(strait__jrt *jrt) {
  for (strait__entry *e = strait__entries; e; e = e->prev)
    if (e->jrt == jrt) return 1;
  return 0;
}

/* give_up callback of the gate: Thread.interrupted() of the waiting thread
 * (clears the flag, as InterruptedException does). On the waiting thread,
 * with no gate lock held. */
static int java_interrupted(void *ud) {
  JNIEnv *env = ud;
  jboolean r = (*env)->CallStaticBooleanMethod(env, strait__hc.Thread, strait__hc.Thread_interrupted);
  /* Cannot throw, but -Xcheck:jni wants the check; this is the slow path. */
  if ((*env)->ExceptionCheck(env)) return 1;
  return r ? 1 : 0;
}

/* Enters jrt's runtime for a native called from Java (see jni_base.h).
 * Any attached thread. */
int strait__java_enter(JNIEnv *env, strait__jrt *jrt) {
  int rc = strait_enter_or_give_up(jrt->rt, java_interrupted, env);
  if (rc == 0) return 0;
  if (rc == STRAIT_EINTR) {
    jstring msg = strait__jstring_from_utf8(env, "interrupted while waiting for the runtime", 41);
    jobject ex = msg ? (*env)->NewObject(env, strait__hc.JsInterruptedException,
                                         strait__hc.JsInterruptedException_init, msg)
                     : NULL;
    if (ex) (*env)->Throw(env, (jthrowable)ex);
  } else {
    strait__throw_status(env, rc, NULL);
  }
  return rc;
}


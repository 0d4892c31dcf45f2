/*
 * throw.c - Java exceptions the JNI layer throws on its own account: one
 * of a cached class with a message, the one for a status code (the
 * mapping from status to Java class is here and nowhere else), and
 * JsExitException. Every helper keeps a Java exception already pending
 * (the first failure is the one Java sees; no JNI call is made on top of
 * it). Exceptions that cross between the engines (a thrown JS value, a
 * Java exception reaching JS) are in value/exceptions.c.
 */
#include "base/jni_base.h"

#include <stdarg.h>
#include <stdio.h>

/* Throws a new cls with a printf message (see jni_base.h). Any thread. */
void strait__throw(JNIEnv *env, jclass cls, const char *fmt, ...) {
  if ((*env)->ExceptionCheck(env)) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  (*env)->ThrowNew(env, cls, buf);
}

/* Throws the Java exception for a status (see base/jni_base.h). Any thread. */
void strait__throw_status(JNIEnv *env, int status, const char *what) {
  if ((*env)->ExceptionCheck(env)) return;   /* the pending one is the cause */
  jclass cls;
  switch (status) {
    case STRAIT_ECLOSED:
      cls = strait__jc.IllegalStateException;
      break;
    case STRAIT_ENOMEM:
      cls = strait__jc.OutOfMemoryError;
      break;
    case STRAIT_EINVAL:
    case STRAIT_ERANGE:
    case STRAIT_ETYPE:
      cls = strait__jc.IllegalArgumentException;
      break;
    case STRAIT_ETHREAD:
    case STRAIT_EBUSY:
      cls = strait__jc.IllegalStateException;
      break;
    case STRAIT_ETERM:
      cls = strait__jc.JsInterruptedException;
      break;
    case STRAIT_ETIMEDOUT:
      cls = strait__jc.JsTimeLimitException;
      break;
    case STRAIT_EHEAP:
      cls = strait__jc.JsHeapLimitException;
      break;
    case STRAIT_EDENIED:
      cls = strait__jc.IllegalArgumentException;
      break;
    default:
      cls = strait__jc.RuntimeException;
      break;
  }
  char buf[256];
  if (status == STRAIT_ECLOSED)
    snprintf(buf, sizeof buf, "runtime closed");
  else if (what && what[0])
    snprintf(buf, sizeof buf, "%s: %s", what, strait_strerror(status));
  else
    snprintf(buf, sizeof buf, "%s", strait_strerror(status));
  strait__throw(env, cls, "%s", buf);
}

/* Throws the exception of a termination (see jni_base.h). Inside the gate. */
void strait__throw_termination(JNIEnv *env, strait_runtime *rt, int status) {
  if ((*env)->ExceptionCheck(env)) return;
  strait__jrt *jrt = strait_runtime_embedder(rt);
  int64_t ms;
  switch (status) {
    case STRAIT_ETIMEDOUT:
      ms = jrt ? (jrt->time_limit_us + 999) / 1000 : 0;
      if (ms > 0)
        strait__throw(env, strait__jc.JsTimeLimitException,
                      "time limit of %lld ms exceeded: the script was terminated", (long long)ms);
      else
        strait__throw(env, strait__jc.JsTimeLimitException, "time limit exceeded: the script was terminated");
      return;
    case STRAIT_EHEAP:
      if (jrt && jrt->heap_limit > 0)
        strait__throw(env, strait__jc.JsHeapLimitException,
                      "heap limit of %lld bytes exceeded: the script was terminated",
                      (long long)jrt->heap_limit);
      else
        strait__throw(env, strait__jc.JsHeapLimitException, "heap limit exceeded: the script was terminated");
      return;
    case STRAIT_ETERM:
      strait__throw(env, strait__jc.JsInterruptedException,
                    "the script was interrupted (JsRuntime.interrupt(), Thread.interrupt() or close())");
      return;
    default:
      strait__throw_status(env, status, NULL);
  }
}

/* Throws JsExitException(code). Any thread. */
void strait__throw_exit(JNIEnv *env, int code) {
  if ((*env)->ExceptionCheck(env)) return;
  jobject ex = (*env)->NewObject(env, strait__jc.JsExitException,
                                 strait__jc.JsExitException_init, (jint)code);
  if (ex) (*env)->Throw(env, (jthrowable)ex);
}

/* See jni_base.h. */
void strait__call_void_quietly(JNIEnv *env, jobject obj, jmethodID m) {
  jthrowable pending = (*env)->ExceptionOccurred(env);
  if (pending) (*env)->ExceptionClear(env);
  (*env)->CallVoidMethod(env, obj, m);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (pending) {
    (*env)->Throw(env, pending);
    (*env)->DeleteLocalRef(env, pending);
  }
}

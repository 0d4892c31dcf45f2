/*
 * exceptions.c - the one place that turns a status code or a thrown JS value
 * into a Java exception. (The reverse direction, Java exception -> JS, lives
 * in the bridge.)
 */
#include "base/jni_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Java string from a possibly-NULL UTF-8 C string (NULL stays NULL). */
static jstring jstr(JNIEnv *env, const char *s) {
  return s ? strait__jstring_from_utf8(env, s, strlen(s)) : NULL;
}

/* Throws JsException for exc (see jni_internal.h). Inside rt's gate. */
void strait__throw_js(JNIEnv *env, strait_runtime *rt, JSValueRef exc) {
  /* a Java exception already pending (a failed upcall on the way) is the
   * one Java sees; no JNI call may be made on top of it */
  if ((*env)->ExceptionCheck(env)) return;
  JSContextRef ctx = strait_runtime_context(rt);
  if (!exc) exc = JSValueMakeUndefined(ctx);
  strait_error_info info;
  memset(&info, 0, sizeof info);
  int rc = strait_error_describe(rt, exc, &info);
  bool is_object = JSValueIsObject(ctx, exc);

  /* Message: "Name: message" for an error object; the value's string form
   * for anything else (throw 42 -> "42"). */
  char *msg = NULL;
  size_t msglen = 0;
  if (rc == 0 && is_object && info.name && info.name[0]) {
    const char *m = info.message ? info.message : "";
    size_t n = strlen(info.name) + strlen(m) + 3;
    msg = malloc(n);
    if (msg) msglen = (size_t)snprintf(msg, n, m[0] ? "%s: %s" : "%s%s", info.name, m);
  } else {
    msg = strait__utf8_from_value(ctx, exc, &msglen);
  }

  jobject owner = NULL;
  strait__jrt *jrt = strait_runtime_embedder(rt);
  if (jrt && jrt->owner) owner = (*env)->NewLocalRef(env, jrt->owner);
  /* two handles of an object: the exception's own (read when it is thrown
   * back through JS) and the one getValue() hands out, which the caller
   * may close without the exception losing its value */
  jobject value = NULL, user_value = NULL;
  if (owner || !is_object) {
    value = strait__to_java(env, jrt, owner, exc);
    if ((*env)->ExceptionCheck(env)) goto out;
    if (value && (*env)->IsInstanceOf(env, value, strait__jc.JsValue)) {
      user_value = strait__to_java(env, jrt, owner, exc);
      if ((*env)->ExceptionCheck(env)) goto out;
    } else if (value) {
      user_value = (*env)->NewLocalRef(env, value);
    }
  }

  /* each string may fail with OutOfMemoryError pending: stop at the first */
  jstring jmsg = msg ? strait__jstring_from_utf8(env, msg, msglen)
                     : jstr(env, "uncaught JavaScript exception");
  if ((*env)->ExceptionCheck(env)) goto out;
  jstring jname = jstr(env, rc == 0 && info.name ? info.name : (is_object ? "Error" : NULL));
  if ((*env)->ExceptionCheck(env)) goto out;
  jstring jstack = rc == 0 ? jstr(env, info.stack) : NULL;
  if ((*env)->ExceptionCheck(env)) goto out;
  jstring jfile = rc == 0 ? jstr(env, info.file) : NULL;
  if (!(*env)->ExceptionCheck(env)) {
    jobject ex = (*env)->NewObject(env, strait__jc.JsException, strait__jc.JsException_init,
                                   jmsg, jname, jstack, jfile, (jint)info.line,
                                   (jint)info.column, value, user_value);
    if (ex) (*env)->Throw(env, (jthrowable)ex);
  }
out:
  if (rc == 0) strait_error_info_free(&info);
  free(msg);
}

/* Throws the Java exception for a status (see jni_internal.h). Any thread. */
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
  (*env)->ThrowNew(env, cls, buf);
}

/* Throws JsExitException(code). Any thread. */
void strait__throw_exit(JNIEnv *env, int code) {
  jobject ex = (*env)->NewObject(env, strait__jc.JsExitException,
                                 strait__jc.JsExitException_init, (jint)code);
  if (ex) (*env)->Throw(env, (jthrowable)ex);
}

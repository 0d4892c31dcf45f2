/*
 * exceptions.c - exceptions crossing the boundary, both ways, in one place:
 *   - JS -> Java: a status code or a thrown JS value becomes a Java
 *     exception (strait__throw_status, strait__throw_js, strait__throw_exit,
 *     and strait__rethrow_to_java, which gives back the original Throwable
 *     when the JS error carries one);
 *   - Java -> JS: the pending Java exception becomes a JS Error carrying
 *     `javaException` and the Java stack (jb_throw_pending), or the original
 *     JS value when it is a JsException of this same runtime
 *     (strait__js_exception_value).
 */
#include "base/interop_ids.h"
#include "value/value.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Java string from a possibly-NULL UTF-8 C string (NULL stays NULL). */
static jstring jstr(JNIEnv *env, const char *s) {
  return s ? strait__jstring_from_utf8(env, s, strlen(s)) : NULL;
}

/* Throws JsException for exc (see base/jni_base.h). Inside rt's gate. */
void strait__throw_js(JNIEnv *env, strait_runtime *rt, JSValueRef exc) {
  /* a Java exception already pending (a failed upcall on the way) is the
   * one Java sees; no JNI call may be made on top of it */
  if ((*env)->ExceptionCheck(env)) return;
  /* a termination (interrupt, time or heap limit) unwinding: whatever JS
   * threw on its way out, Java gets the termination's own exception */
  int term = strait_terminating(rt);
  if (term) {
    strait__throw_termination(env, rt, term);
    return;
  }
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
    msg = strait_utf8_from_value(ctx, exc, &msglen);
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

/* ---- JS -> Java: the original Throwable or a JsException ------------- */

/* Throws exc into Java (see value/value.h): the original Throwable when exc is
 * a bridge error carrying one in `javaException` or is itself a Java
 * Throwable (`throw new java.lang.IllegalStateException('x')` in a JS
 * implementation of a Java interface), else JsException. Inside the gate. */
void strait__rethrow_to_java(JNIEnv *env, strait__jrt *jrt, JSValueRef exc) {
  if ((*env)->ExceptionCheck(env)) return;   /* a pending Java exception wins */
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  if (exc && JSValueIsObject(ctx, exc)) {
    jobject self = jb_java_of(env, ctx, exc);
    if (self && (*env)->IsInstanceOf(env, self, strait__jc.Throwable)) {
      (*env)->Throw(env, (jthrowable)self);
      (*env)->DeleteLocalRef(env, self);
      return;
    }
    if (self) (*env)->DeleteLocalRef(env, self);
    JSValueRef je = strait_get_property(ctx, (JSObjectRef)exc, "javaException");
    jobject t = je ? jb_java_of(env, ctx, je) : NULL;
    if (t && (*env)->IsInstanceOf(env, t, strait__jc.Throwable)) {
      (*env)->Throw(env, (jthrowable)t);
      (*env)->DeleteLocalRef(env, t);
      return;
    }
    if (t) (*env)->DeleteLocalRef(env, t);
  }
  strait__throw_js(env, jrt->rt, exc);
}

/*
 * For the bridge, when a Java method called from JS threw t: the original
 * JS value when t is a JsException thrown by a call into this same runtime
 * (JS -> Java -> JS threw), so the outer JS catch sees the very same
 * object; NULL otherwise (the bridge then makes its Java error). Inside
 * the gate.
 */
JSValueRef strait__js_exception_value(JNIEnv *env, strait_runtime *rt, jthrowable t) {
  if (!t || !(*env)->IsInstanceOf(env, t, strait__jc.JsException)) return NULL;
  strait__jrt *jrt = strait_runtime_embedder(rt);
  if (!jrt) return NULL;
  JSContextRef ctx = strait_runtime_context(rt);
  /* the exception's own handle (JsException.value), which the user cannot
   * close; still checked to belong to this runtime (the JsRuntime of the
   * handle is this runtime's owner), so no cell of another heap is used */
  jobject v = (*env)->GetObjectField(env, t, strait__hc.JsException_value);
  JSValueRef out = NULL;
  if (!v) {
    out = NULL;
  } else if ((*env)->IsInstanceOf(env, v, strait__jc.JsValue)) {
    jobject owner = strait__owner_of(env, jrt);
    if ((*env)->ExceptionCheck(env)) owner = NULL;
    jobject vrt = owner ? (*env)->GetObjectField(env, v, strait__hc.JsValue_runtime) : NULL;
    if (owner && vrt && (*env)->IsSameObject(env, owner, vrt))
      out = strait__handle_value((*env)->GetLongField(env, v, strait__jc.JsValue_handle));
    if (owner) (*env)->DeleteLocalRef(env, owner);
    if (vrt) (*env)->DeleteLocalRef(env, vrt);
  } else if ((*env)->IsInstanceOf(env, v, strait__jc.String)) {
    JSStringRef s = strait__jsstring_from_java(env, v);
    if (s) {
      out = JSValueMakeString(ctx, s);
      JSStringRelease(s);
    }
  } else if ((*env)->IsInstanceOf(env, v, strait__jc.Boolean)) {
    jboolean z = (*env)->CallBooleanMethod(env, v, strait__jc.Boolean_booleanValue);
    if (!(*env)->ExceptionCheck(env)) out = JSValueMakeBoolean(ctx, z);
  } else if ((*env)->IsInstanceOf(env, v, strait__jc.Integer) ||
             (*env)->IsInstanceOf(env, v, strait__jc.Double)) {
    /* only the boxes strait__to_java makes: a user's Number subclass
     * (doubleValue may throw or lie) is left to the bridge's Java error */
    jdouble d = (*env)->CallDoubleMethod(env, v, strait__jc.Number_doubleValue);
    if (!(*env)->ExceptionCheck(env)) out = JSValueMakeNumber(ctx, d);
  }
  /* a failed upcall above (adopt, a box): the bridge then makes its error */
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (v) (*env)->DeleteLocalRef(env, v);
  return out;
}

/* ---- Java -> JS: the pending Java exception as a JS Error ------------- */

/* Appends the Java trace to the error's JS stack. */
static void add_java_stack(JNIEnv *env, JSContextRef ctx, JSObjectRef err, jstring trace) {
  JSStringRef sname = JSStringCreateWithUTF8CString("stack");
  JSValueRef sv = JSObjectGetProperty(ctx, err, sname, NULL);
  JSStringRef js = sv && JSValueIsString(ctx, sv) ? JSValueToStringCopy(ctx, sv, NULL) : NULL;
  JSStringRef jt = strait__jsstring_from_java(env, trace);
  if (!jt) { (*env)->ExceptionClear(env); }
  size_t n1 = js ? JSStringGetLength(js) : 0, n2 = jt ? JSStringGetLength(jt) : 0;
  static const char sep[] = "\nJava stack:\n";
  size_t ns = sizeof sep - 1;
  JSChar *buf = malloc((n1 + ns + n2 + 1) * sizeof(JSChar));
  if (buf) {
    if (js) memcpy(buf, JSStringGetCharactersPtr(js), n1 * sizeof(JSChar));
    for (size_t i = 0; i < ns; i++) buf[n1 + i] = (JSChar)sep[i];
    if (jt) memcpy(buf + n1 + ns, JSStringGetCharactersPtr(jt), n2 * sizeof(JSChar));
    JSStringRef all = JSStringCreateWithCharacters(buf, n1 + ns + n2);
    JSObjectSetProperty(ctx, err, sname, JSValueMakeString(ctx, all), kJSPropertyAttributeDontEnum, NULL);
    JSStringRelease(all);
    free(buf);
  }
  if (js) JSStringRelease(js);
  if (jt) JSStringRelease(jt);
  JSStringRelease(sname);
}

/* Turns the pending Java exception into a JS Error; see value/value.h. */
void jb_throw_pending(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef *exc) {
  jthrowable t = (*env)->ExceptionOccurred(env);
  (*env)->ExceptionClear(env);
  if (!t) {
    *exc = strait_make_error(ctx, "Error", "Java call failed");
    return;
  }
  if ((*exc = strait__js_exception_value(env, b->rt, t))) {
    (*env)->DeleteLocalRef(env, t);
    return;
  }
  jobjectArray info = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_throwableInfo, t);
  if (!info || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    *exc = strait_make_error(ctx, "Error", "Java exception (its description failed)");
    (*env)->DeleteLocalRef(env, t);
    return;
  }
  jstring head = (*env)->GetObjectArrayElement(env, info, 0);
  jstring trace = (*env)->GetObjectArrayElement(env, info, 1);
  JSValueRef msg = jb_string_to_js(env, ctx, head);
  JSObjectRef err = JSObjectMakeError(ctx, 1, &msg, NULL);
  if (err) {
    JSValueRef ignored = NULL;
    JSValueRef jw = jb_wrap(env, b, ctx, t, &ignored);
    if (jw) {
      JSStringRef n = JSStringCreateWithUTF8CString("javaException");
      JSObjectSetProperty(ctx, err, n, jw, kJSPropertyAttributeDontEnum, NULL);
      JSStringRelease(n);
    }
    add_java_stack(env, ctx, err, trace);
    *exc = err;
  } else {
    *exc = msg;
  }
  (*env)->DeleteLocalRef(env, head);
  (*env)->DeleteLocalRef(env, trace);
  (*env)->DeleteLocalRef(env, info);
  (*env)->DeleteLocalRef(env, t);
}

/* The Throwable a JS Error carries; see value/value.h. The property is
 * read first (a miss is the common case of `{} instanceof C`); Error is
 * the constructor the bridge read when it started (model/class_objects.c). */
static JSStringRef s_java_exception;   /* "javaException", made once, only read */
static pthread_once_t s_java_exception_once = PTHREAD_ONCE_INIT;
static void make_s_java_exception(void) { s_java_exception = JSStringCreateWithUTF8CString("javaException"); }

jb_entry *jb_error_java_exception(jb_rt *b, JSContextRef ctx, JSValueRef v) {
  if (!b || !JSValueIsObject(ctx, v) || !b->error_ctor) return NULL;
  pthread_once(&s_java_exception_once, make_s_java_exception);
  JSValueRef ignored = NULL;
  JSValueRef je = JSObjectGetProperty(ctx, (JSObjectRef)v, s_java_exception, &ignored);
  jb_entry *e = je && JSValueIsObject(ctx, je) ? jb_entry_of(b, (JSObjectRef)je) : NULL;
  if (!e) return NULL;
  JNIEnv *env = strait__env();
  if (!(*env)->IsInstanceOf(env, e->ref, strait__jc.Throwable)) return NULL;
  ignored = NULL;
  return JSValueIsInstanceOfConstructor(ctx, v, b->error_ctor, &ignored) ? e : NULL;
}

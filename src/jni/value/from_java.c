/*
 * from_java.c - values crossing from Java into JS for calls made from
 * Java (packed arguments), typed handles for JS objects, and JS exceptions
 * going back out to Java.
 */
#include "call/interop.h"
#include "model/bridge.h"

#include <string.h>

/* The bridge (bridge_*.c) may still be incomplete while it is written:
 * weak references keep this file linkable; missing means "no wrapper". */
#pragma weak jb_rt_of
#pragma weak jb_wrap
#pragma weak jb_wrap_hinted
#pragma weak jb_entry_of

/* The Java object behind a bridge wrapper, as a new local ref; NULL when v
 * is not a wrapper. Inside the gate. */
static jobject unwrap_java(JNIEnv *env, JSContextRef ctx, JSValueRef v) {
  if (!jb_rt_of || !jb_entry_of || !JSValueIsObject(ctx, v)) return NULL;
  jb_rt *b = jb_rt_of(ctx);
  if (!b) return NULL;
  jb_entry *e = jb_entry_of(b, (JSObjectRef)v);
  return e && e->ref ? (*env)->NewLocalRef(env, e->ref) : NULL;
}

/* A new typed handle for v (see handles.h). Inside the gate. */
jobject strait__handle_wrap(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v) {
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  jobject java = unwrap_java(env, ctx, v);
  if (java) return java;
  if (!owner) return NULL;
  jclass cls = strait__hc.JsObject;
  jmethodID init = strait__hc.JsObject_init;
  if (JSObjectIsFunction(ctx, v)) {
    cls = strait__hc.JsFunction;
    init = strait__hc.JsFunction_init;
  } else if (JSValueIsArray(ctx, v)) {
    cls = strait__hc.JsArray;
    init = strait__hc.JsArray_init;
  } else {
    strait__hstate *st = strait__hstate_of(jrt);
    if (st && st->promise_ctor &&
        JSValueIsInstanceOfConstructor(ctx, v, st->promise_ctor, NULL)) {
      cls = strait__hc.JsPromise;
      init = strait__hc.JsPromise_init;
    }
  }
  jlong h = strait__handle_make(ctx, v);
  jobject r = (*env)->NewObject(env, cls, init, owner, h);
  if (!r) JSValueUnprotect(ctx, v);
  return r;
}

/* A handle for v that is never the Java object behind a wrapper (see
 * handles.h). Inside the gate. */
jobject strait__handle_wrap_as_object(JNIEnv *env, strait__jrt *jrt, jobject owner,
                                      JSObjectRef v) {
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  int fn = JSObjectIsFunction(ctx, v);
  jlong h = strait__handle_make(ctx, v);
  jobject r = (*env)->NewObject(env, fn ? strait__hc.JsFunction : strait__hc.JsObject,
                                fn ? strait__hc.JsFunction_init : strait__hc.JsObject_init,
                                owner, h);
  if (!r) JSValueUnprotect(ctx, v);
  return r;
}

/* JS wrapper of a Java object via the bridge (b: the runtime's bridge, NULL
 * when not attached: TypeError). Inside the gate. */
static JSValueRef wrap_java(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject o, uint32_t ihash,
                            JSValueRef *exc) {
  if (!b || !jb_wrap) {
    *exc = strait__make_error(ctx, "TypeError",
                              "a Java object cannot cross into JS: the Java bridge is not attached");
    return NULL;
  }
  return jb_wrap_hinted ? jb_wrap_hinted(env, b, ctx, o, ihash, exc) : jb_wrap(env, b, ctx, o, exc);
}

/* Unpacks Java arguments (see handles.h). Inside the gate, once per native
 * call made from Java (it may leave up to 4 local refs to that native's
 * frame). The values are kept on the caller's C stack (out), which JSC
 * scans conservatively. */
int strait__unpack_args(JNIEnv *env, strait__jrt *jrt, jlongArray packed, jobjectArray refs,
                        int argc, JSValueRef *out, JSValueRef *exc) {
  if (argc <= 0) return 0;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  int nlongs = argc + (argc + 7) / 8;
  jlong vals[nlongs];
  if (!packed) {
    *exc = strait__make_error(ctx, "TypeError", "no packed arguments");
    return STRAIT_EJS;
  }
  (*env)->GetLongArrayRegion(env, packed, 0, nlongs, vals);
  if ((*env)->ExceptionCheck(env)) return STRAIT_EJAVA;   /* a short array */
  jsize nrefs = refs ? (*env)->GetArrayLength(env, refs) : 0;
  const unsigned char *tags = (const unsigned char *)&vals[argc];
  jb_rt *b = jrt->bridge;
  bool imm = jb_imm_ok, flushed = false;
  /* the few local refs of a short call are freed when the native returns
   * (JNI guarantees 16 per native frame): no DeleteLocalRef each */
  bool keep_locals = argc <= 4;
  for (int i = 0; i < argc; i++) {
    unsigned t = tags[i];
    if ((t == STRAIT__ARG_STRING || t == STRAIT__ARG_JAVA || t == STRAIT__ARG_JAVA_REG) && i >= nrefs) {
      *exc = strait__make_error(ctx, "TypeError", "argument %d: its object is missing", i);
      return STRAIT_EJS;
    }
    switch (t) {
      case STRAIT__ARG_UNDEFINED:
        out[i] = imm ? (JSValueRef)(uintptr_t)JB_VALUE_UNDEFINED : JSValueMakeUndefined(ctx);
        break;
      case STRAIT__ARG_NULL:
        out[i] = imm ? (JSValueRef)(uintptr_t)JB_VALUE_NULL : JSValueMakeNull(ctx);
        break;
      case STRAIT__ARG_FALSE:
        out[i] = imm ? (JSValueRef)(uintptr_t)JB_VALUE_FALSE : JSValueMakeBoolean(ctx, false);
        break;
      case STRAIT__ARG_TRUE:
        out[i] = imm ? (JSValueRef)(uintptr_t)JB_VALUE_TRUE : JSValueMakeBoolean(ctx, true);
        break;
      case STRAIT__ARG_INT:
        out[i] = imm ? jb_imm_int((int32_t)vals[i]) : JSValueMakeNumber(ctx, (double)(int32_t)vals[i]);
        break;
      case STRAIT__ARG_DOUBLE: {
        double d;
        memcpy(&d, &vals[i], sizeof d);
        out[i] = imm ? jb_imm_double(d) : JSValueMakeNumber(ctx, d);
        break;
      }
      case STRAIT__ARG_BIGINT:
        out[i] = JSBigIntCreateWithInt64(ctx, (int64_t)vals[i], exc);
        if (!out[i]) return STRAIT_EJS;
        break;
      case STRAIT__ARG_HANDLE: out[i] = strait__handle_value(vals[i]); break;
      case STRAIT__ARG_STRING: {
        jstring s = (*env)->GetObjectArrayElement(env, refs, i);
        JSStringRef js = s ? strait__jsstring_from_java(env, s) : NULL;
        if (!keep_locals && s) (*env)->DeleteLocalRef(env, s);
        if (!js) return s ? STRAIT_ENOMEM : STRAIT_EINVAL;
        out[i] = JSValueMakeString(ctx, js);
        JSStringRelease(js);
        break;
      }
      case STRAIT__ARG_JAVA: {
        /* Java -> JS calls alone make wrappers too: release the dead ones
         * here, as JS -> Java crossings do, or the tables only grow */
        if (!flushed && b) jb_maybe_flush(env, b);
        flushed = true;
        jobject o = (*env)->GetObjectArrayElement(env, refs, i);
        out[i] = wrap_java(env, b, ctx, o, (uint32_t)vals[i], exc);
        if (!keep_locals) (*env)->DeleteLocalRef(env, o);
        if (!out[i]) return STRAIT_EJS;
        break;
      }
      case STRAIT__ARG_JAVA_REG: {
        if (!b) {
          *exc = strait__make_error(ctx, "TypeError", "argument %d: the Java bridge is not attached", i);
          return STRAIT_EJS;
        }
        jobject o = (*env)->GetObjectArrayElement(env, refs, i);
        out[i] = jb_wrap_registered(env, b, ctx, o, vals[i], exc);
        if (!keep_locals) (*env)->DeleteLocalRef(env, o);
        if (!out[i]) return STRAIT_EJS;
        break;
      }
      default:
        *exc = strait__make_error(ctx, "TypeError", "argument %d: bad packed type %u", i,
                                  tags[i]);
        return STRAIT_EJS;
    }
  }
  return 0;
}

/* Throws exc into Java (see handles.h): the original Throwable when exc is
 * a bridge error carrying one in `javaException`, else JsException. Inside
 * the gate. */
void strait__rethrow_to_java(JNIEnv *env, strait__jrt *jrt, JSValueRef exc) {
  if ((*env)->ExceptionCheck(env)) return;   /* a pending Java exception wins */
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  if (exc && JSValueIsObject(ctx, exc)) {
    JSValueRef je = strait__get(ctx, (JSObjectRef)exc, "javaException");
    jobject t = je ? unwrap_java(env, ctx, je) : NULL;
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

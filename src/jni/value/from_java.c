/*
 * from_java.c - values crossing from Java into JS for calls made from
 * Java (packed arguments) and typed handles for JS objects.
 */
#include "base/interop_ids.h"
#include "value/value.h"

#include <string.h>

/* A new typed handle for v (see value/value.h). Inside the gate. */
jobject strait__handle_wrap(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v) {
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  jobject java = jb_java_of(env, ctx, v);
  if (java) return java;
  if (!owner) return NULL;
  jclass cls = strait__hc.JsObject;
  jmethodID init = strait__hc.JsObject_init;
  if (JSObjectIsFunction(ctx, v)) {
    cls = strait__hc.JsFunction;
    init = strait__hc.JsFunction_init;
  } else if (jb_is_array(ctx, v)) {
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
 * value/value.h). Inside the gate. */
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

/* The IllegalArgumentException of a Java object the runtime's host access
 * policy refuses (NONE: every one; else a denied class), pending on
 * return; the JS error the wrap made is dropped. STRAIT_EJAVA. */
static int refuse(JNIEnv *env, jb_rt *b, int i, JSValueRef *exc) {
  *exc = NULL;
  if (b->access == JB_HOST_NONE)
    strait__throw(env, strait__jc.IllegalArgumentException,
                  "argument %d: a Java object cannot cross into JS: the runtime's host access is NONE", i);
  else
    strait__throw(env, strait__jc.IllegalArgumentException, "argument %d: %s", i, b->refused_msg);
  return STRAIT_EJAVA;
}

/* JS wrapper of a Java object via the bridge (b: the runtime's bridge, NULL
 * when not attached: TypeError). Inside the gate. */
static JSValueRef wrap_java(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject o, uint32_t ihash, bool result,
                            JSValueRef *exc) {
  if (!b) {
    *exc = strait_make_error(ctx, "TypeError",
                              "a Java object cannot cross into JS: the Java bridge is not attached");
    return NULL;
  }
  b->refused = false;
  if (b->access == JB_HOST_NONE && o) {
    b->refused = true;
    *exc = strait_make_error(ctx, "TypeError", "a Java object cannot cross into JS: host access is NONE");
    return NULL;
  }
  return result ? jb_wrap_hinted_result(env, b, ctx, o, ihash, exc) : jb_wrap_hinted(env, b, ctx, o, ihash, exc);
}

/* Unpacks Java arguments (see value/value.h). Inside the gate, once per native
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
    *exc = strait_make_error(ctx, "TypeError", "no packed arguments");
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
    if ((t == STRAIT__ARG_STRING || t == STRAIT__ARG_JAVA || t == STRAIT__ARG_JAVA_REG ||
         t == STRAIT__ARG_JAVA_RESULT) && i >= nrefs) {
      *exc = strait_make_error(ctx, "TypeError", "argument %d: its object is missing", i);
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
      case STRAIT__ARG_JAVA:
      case STRAIT__ARG_JAVA_RESULT: {
        /* Java -> JS calls alone make wrappers too: release the dead ones
         * here, as JS -> Java crossings do, or the tables only grow */
        if (!flushed && b) jb_maybe_flush(env, b);
        flushed = true;
        bool result = t == STRAIT__ARG_JAVA_RESULT;
        jobject o = (*env)->GetObjectArrayElement(env, refs, i);
        out[i] = wrap_java(env, b, ctx, o, (uint32_t)vals[i], result, exc);
        if (!keep_locals) (*env)->DeleteLocalRef(env, o);
        /* a result the policy refuses is the JS TypeError, as a call's
         * result is: Java gets it as a JsException, and the script's catch
         * sees the TypeError when it reaches JS again */
        if (!out[i]) return b && b->refused && !result ? refuse(env, b, i, exc) : STRAIT_EJS;
        break;
      }
      case STRAIT__ARG_JAVA_REG: {
        if (!b) {
          *exc = strait_make_error(ctx, "TypeError", "argument %d: the Java bridge is not attached", i);
          return STRAIT_EJS;
        }
        jobject o = (*env)->GetObjectArrayElement(env, refs, i);
        b->refused = false;
        if (b->access == JB_HOST_NONE && o) {
          b->refused = true;
          out[i] = NULL;
        } else {
          out[i] = jb_wrap_registered(env, b, ctx, o, vals[i], exc);
        }
        if (!keep_locals) (*env)->DeleteLocalRef(env, o);
        if (!out[i]) return b->refused ? refuse(env, b, i, exc) : STRAIT_EJS;
        break;
      }
      default:
        *exc = strait_make_error(ctx, "TypeError", "argument %d: bad packed type %u", i,
                                  tags[i]);
        return STRAIT_EJS;
    }
  }
  return 0;
}

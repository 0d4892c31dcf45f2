/*
 * handles.c - JS values to Java objects, and the natives of
 * org.strait.JsValue handles.
 *
 * A handle is the JSValueRef itself, protected once when the JsValue is
 * made and unprotected once when it is released (JsValue.close() or, for a
 * JsValue the Java GC found unreachable, the runtime's release queue). When
 * the runtime is freed its heap goes away with every protection, so
 * handles never outlive it (JsRuntime refuses calls after close).
 */
#include "value/value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* JS value -> Java object (see base/jni_base.h). Inside the gate. */
jobject strait__to_java(JNIEnv *env, strait__jrt *jrt, jobject owner, JSValueRef v) {
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  switch (JSValueGetType(ctx, v)) {
    case kJSTypeUndefined:
    case kJSTypeNull:
      return NULL;
    case kJSTypeBoolean:
      return (*env)->NewLocalRef(env, JSValueToBoolean(ctx, v) ? strait__jc.Boolean_TRUE
                                                               : strait__jc.Boolean_FALSE);
    case kJSTypeNumber: {
      double d = JSValueToNumber(ctx, v, NULL);
      if (d >= -2147483648.0 && d <= 2147483647.0) {
        jint i = (jint)d;
        if ((double)i == d && !(i == 0 && signbit(d))) return strait__box_int(env, i);
      }
      jobject r = (*env)->CallStaticObjectMethod(env, strait__jc.Double, strait__jc.Double_valueOf, d);
      return (*env)->ExceptionCheck(env) ? NULL : r;
    }
    case kJSTypeString: {
      JSStringRef s = JSValueToStringCopy(ctx, v, NULL);
      if (!s) {
        strait__throw_status(env, STRAIT_ENOMEM, "string conversion");
        return NULL;
      }
      jstring r = strait__jstring_from_js(env, s);
      JSStringRelease(s);
      return r;
    }
    default: {
      if (JSValueIsObject(ctx, v)) return strait__handle_wrap(env, jrt, owner, (JSObjectRef)v);
      if (!owner) return NULL;
      jlong h = strait__handle_make(ctx, v);
      jobject r = (*env)->NewObject(env, strait__jc.JsValue, strait__jc.JsValue_init, owner, h);
      if (!r) JSValueUnprotect(ctx, v);
      return r;
    }
  }
}

/* Natives.valueRelease(peer, handle): unprotects one handle. Any Java
 * thread (enters the gate). */
static void JNICALL n_value_release(JNIEnv *env, jclass cls, jlong peer, jlong handle) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  if (strait_enter(jrt->rt) != 0) return;
  JSValueUnprotect(strait_runtime_context(jrt->rt), strait__handle_value(handle));
  strait_leave(jrt->rt);
}

/* Natives.valueReleaseAll(peer, handles, count): unprotects many handles in
 * one stay (the release queue of collected JsValues). Any Java thread. */
static void JNICALL n_value_release_all(JNIEnv *env, jclass cls, jlong peer,
                                        jlongArray handles, jint count) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  jsize len = (*env)->GetArrayLength(env, handles);
  if (count < 0 || count > len) {
    strait__throw(env, strait__jc.IllegalArgumentException, "valueReleaseAll: bad count");
    return;
  }
  jlong stackbuf[256];
  jlong *hs = count <= 256 ? stackbuf : malloc((size_t)count * sizeof(jlong));
  if (!hs) {
    strait__throw_status(env, STRAIT_ENOMEM, "valueReleaseAll");
    return;
  }
  (*env)->GetLongArrayRegion(env, handles, 0, count, hs);
  if (strait_enter(jrt->rt) == 0) {
    JSContextRef ctx = strait_runtime_context(jrt->rt);
    for (jint i = 0; i < count; i++) JSValueUnprotect(ctx, strait__handle_value(hs[i]));
    strait_leave(jrt->rt);
  }
  if (hs != stackbuf) free(hs);
}

/* Natives.valueToString(peer, handle): String(value), exact UTF-16; a JS
 * exception from toString becomes JsException. Any Java thread. */
static jstring JNICALL n_value_to_string(JNIEnv *env, jclass cls, jlong peer, jlong handle) {
  strait__native n;
  if (strait__native_enter(env, &n, STRAIT__PEER(peer))) return NULL;
  JSContextRef ctx = n.ctx;
  JSValueRef exc = NULL;
  jstring r = NULL;
  JSStringRef s = JSValueToStringCopy(ctx, strait__handle_value(handle), &exc);
  if (s) {
    r = strait__jstring_from_js(env, s);
    JSStringRelease(s);
  } else {
    strait__throw_js(env, n.jrt->rt, exc);
  }
  strait__native_leave(env, &n);
  return r;
}

/* Natives.valueTypeOf(peer, handle): the JS typeof of the value. Any Java
 * thread. */
static jstring JNICALL n_value_type_of(JNIEnv *env, jclass cls, jlong peer, jlong handle) {
  strait__native n;
  if (strait__native_enter(env, &n, STRAIT__PEER(peer))) return NULL;
  JSContextRef ctx = n.ctx;
  JSValueRef v = strait__handle_value(handle);
  const char *t;
  switch (JSValueGetType(ctx, v)) {
    case kJSTypeUndefined: t = "undefined"; break;
    case kJSTypeNull: t = "object"; break;
    case kJSTypeBoolean: t = "boolean"; break;
    case kJSTypeNumber: t = "number"; break;
    case kJSTypeString: t = "string"; break;
    case kJSTypeSymbol: t = "symbol"; break;
    case kJSTypeObject:
      t = JSObjectIsFunction(ctx, (JSObjectRef)v) ? "function" : "object";
      break;
    default: t = "bigint"; break;
  }
  if (strait__native_leave(env, &n)) return NULL;
  return strait__jstring_from_utf8(env, t, strlen(t));
}

/* Natives.valueOwnKey(peer, handle, key): key is an own enumerable
 * property of the object (Reflect.getOwnPropertyDescriptor as captured when
 * the runtime was made, so a script replacing it changes nothing); a Proxy
 * trap that throws becomes JsException. Any Java thread. */
static jboolean JNICALL n_value_own_key(JNIEnv *env, jclass cls, jlong peer, jlong handle, jstring key) {
  strait__native n;
  if (strait__native_enter(env, &n, STRAIT__PEER(peer))) return JNI_FALSE;
  JSContextRef ctx = n.ctx;
  JSValueRef v = strait__handle_value(handle);
  jboolean r = JNI_FALSE;
  JSObjectRef in = n.jrt->intrinsics;
  JSValueRef gopd = in ? strait_get_property(ctx, in, "getOwnPropertyDescriptor") : NULL;
  if (!gopd || !JSValueIsObject(ctx, gopd) || !JSValueIsObject(ctx, v)) {
    strait__throw(env, strait__jc.IllegalStateException, "containsKey: no own-property test in this runtime");
  } else {
    JSStringRef k = key ? strait__jsstring_from_java(env, key) : NULL;
    if (!k) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "containsKey");
    } else {
      JSValueRef exc = NULL;
      JSValueRef argv[2] = {v, JSValueMakeString(ctx, k)};
      JSStringRelease(k);
      JSValueRef d = JSObjectCallAsFunction(ctx, (JSObjectRef)gopd, NULL, 2, argv, &exc);
      if (!d) {
        strait__throw_js(env, n.jrt->rt, exc);
      } else if (JSValueIsObject(ctx, d)) {
        JSValueRef en = strait_get_property(ctx, (JSObjectRef)d, "enumerable");
        r = en && JSValueToBoolean(ctx, en);
      }
    }
  }
  strait__native_leave(env, &n);
  return r;
}

const JNINativeMethod strait__value_natives[] = {
    {"valueOwnKey", "(JJLjava/lang/String;)Z", (void *)n_value_own_key},
    {"valueRelease", "(JJ)V", (void *)n_value_release},
    {"valueReleaseAll", "(J[JI)V", (void *)n_value_release_all},
    {"valueToString", "(JJ)Ljava/lang/String;", (void *)n_value_to_string},
    {"valueTypeOf", "(JJ)Ljava/lang/String;", (void *)n_value_type_of},
};
const int strait__value_natives_count =
    (int)(sizeof strait__value_natives / sizeof strait__value_natives[0]);

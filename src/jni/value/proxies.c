/*
 * proxies.c - Java interfaces implemented by JS objects: the
 * java.lang.reflect.Proxy built for `new java.lang.Runnable({run() {}})`,
 * `Java.implement([I1, I2], obj)` and a JS function passed where a
 * functional interface is expected. The Proxy's handler is
 * org.strait.internal.JsProxyHandler, which calls back through
 * Natives.invokeMember (call/java_to_js.c) from any Java thread.
 */
#include "base/interop_ids.h"
#include "value/value.h"

/* The bridge may be absent while it is written (see value/from_java.c). */
#pragma weak jb_rt_of
#pragma weak jb_wrap
#pragma weak jb_ctor_class
#pragma weak jb_class_get

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Message of the pending Java exception as a malloc'd UTF-8 string (or
 * NULL), clearing it. Inside the gate. */
static char *take_java_message(JNIEnv *env, JSContextRef ctx) {
  jthrowable t = (*env)->ExceptionOccurred(env);
  if (!t) return NULL;
  (*env)->ExceptionClear(env);
  jstring m = (*env)->CallObjectMethod(env, t, strait__hc.Throwable_toString);
  (*env)->ExceptionClear(env);
  char *out = NULL;
  if (m) {
    JSStringRef s = strait__jsstring_from_java(env, m);
    if (s) {
      out = strait_utf8_from_jsstring(s, NULL);
      JSStringRelease(s);
    }
    (*env)->DeleteLocalRef(env, m);
  }
  (*env)->DeleteLocalRef(env, t);
  return out;
}

/* Sets *exc to a TypeError from the pending Java exception. */
static void java_to_type_error(JNIEnv *env, JSContextRef ctx, const char *what, JSValueRef *exc) {
  char *m = take_java_message(env, ctx);
  *exc = strait_make_error(ctx, "TypeError", "%s: %s", what, m ? m : "Java exception");
  free(m);
}

/* typeof-like name of v for messages. */
static const char *kind_name(JSContextRef ctx, JSValueRef v) {
  switch (JSValueGetType(ctx, v)) {
    case kJSTypeBoolean: return "a boolean";
    case kJSTypeNumber: return "a number";
    case kJSTypeString: return "a string";
    case kJSTypeSymbol: return "a symbol";
    case kJSTypeObject: return "an object";
    default: return "a bigint";
  }
}

/* JsProxyHandler.createScripted, looked up once per process (the same
 * answer on every thread, so a race only repeats the lookup); NULL with a
 * Java exception pending. */
static _Atomic(jmethodID) create_scripted;

static jmethodID create_scripted_id(JNIEnv *env) {
  jmethodID m = atomic_load_explicit(&create_scripted, memory_order_acquire);
  if (m) return m;
  m = (*env)->GetStaticMethodID(env, strait__hc.JsProxyHandler, "createScripted",
                                "(Lorg/strait/JsObject;[Ljava/lang/Class;ZLorg/strait/internal/HostPolicy;)"
                                "Ljava/lang/Object;");
  if (m) atomic_store_explicit(&create_scripted, m, memory_order_release);
  return m;
}

/* Builds a Proxy implementing ifaces with impl (see value/value.h). Inside the
 * gate, on an attached thread. */
jobject strait__js_implement(JNIEnv *env, strait_runtime *rt, jobjectArray ifaces,
                             JSObjectRef impl, bool implicit, JSValueRef *exc) {
  JSContextRef ctx = strait_runtime_context(rt);
  strait__jrt *jrt = strait__jrt_of(rt);
  if (!jrt) {
    *exc = strait_make_error(ctx, "Error", "out of memory");
    return NULL;
  }
  jobject owner = strait__owner_of(env, jrt);
  if (!owner) {
    java_to_type_error(env, ctx, "cannot implement the interface", exc);
    return NULL;
  }
  jobject proxy = NULL;
  jobjectArray names = (*env)->CallStaticObjectMethod(
      env, strait__hc.JsProxyHandler, strait__hc.JsProxyHandler_abstractMethods, ifaces);
  if ((*env)->ExceptionCheck(env) || !names) {
    java_to_type_error(env, ctx, "cannot implement", exc);
    goto out;
  }
  if (!JSObjectIsFunction(ctx, impl)) {
    jsize n = (*env)->GetArrayLength(env, names);
    for (jsize i = 0; i < n && !*exc; i++) {
      jstring jn = (*env)->GetObjectArrayElement(env, names, i);
      JSStringRef k = strait__jsstring_from_java(env, jn);
      (*env)->DeleteLocalRef(env, jn);
      if (!k) continue;
      JSValueRef m = JSObjectGetProperty(ctx, impl, k, exc);
      if (m && !*exc && !JSValueIsUndefined(ctx, m) && !JSValueIsNull(ctx, m) &&
          !(JSValueIsObject(ctx, m) && JSObjectIsFunction(ctx, (JSObjectRef)m))) {
        char *name = strait_utf8_from_jsstring(k, NULL);
        jobject c0 = (*env)->GetObjectArrayElement(env, ifaces, 0);
        jstring cn = c0 ? (*env)->CallObjectMethod(env, c0, jb.Class_getName) : NULL;
        if ((*env)->ExceptionCheck(env)) {
          (*env)->ExceptionClear(env);
          cn = NULL;
        }
        JSStringRef cs = cn ? strait__jsstring_from_java(env, cn) : NULL;
        char *cname = cs ? strait_utf8_from_jsstring(cs, NULL) : NULL;
        *exc = strait_make_error(ctx, "TypeError",
                                  "cannot implement %s: member '%s' of the JS object is %s, "
                                  "not a function",
                                  cname ? cname : "the interface", name ? name : "?",
                                  kind_name(ctx, m));
        free(cname);
        if (cs) JSStringRelease(cs);
        if (cn) (*env)->DeleteLocalRef(env, cn);
        if (c0) (*env)->DeleteLocalRef(env, c0);
        free(name);
      }
      JSStringRelease(k);
    }
  }
  (*env)->DeleteLocalRef(env, names);
  if (*exc) goto out;
  jobject handle = strait__handle_wrap_as_object(env, jrt, owner, impl);
  if (!handle) {
    java_to_type_error(env, ctx, "cannot implement", exc);
    goto out;
  }
  /* under the runtime's policy: one that does not allow threads runs the
   * proxy's JS only on a thread inside the runtime (JsProxyHandler.checkThread) */
  jb_rt *b = jb_rt_of ? jb_rt_of(ctx) : NULL;
  jmethodID scripted = create_scripted_id(env);
  if (scripted)
    proxy = (*env)->CallStaticObjectMethod(env, strait__hc.JsProxyHandler, scripted, handle, ifaces,
                                           (jboolean)implicit, b ? b->policy : NULL);
  if ((*env)->ExceptionCheck(env)) proxy = NULL;
  (*env)->DeleteLocalRef(env, handle);
  if (!proxy) java_to_type_error(env, ctx, "cannot implement", exc);
out:
  (*env)->DeleteLocalRef(env, owner);
  return proxy;
}

/*
 * A JS function passed where the interface iface is expected: the proxy of
 * strait__js_implement() for that one interface, as a new local ref. NULL
 * with *exc set. Inside the gate (a bridge argument conversion).
 */
jobject strait__js_implement_class(JNIEnv *env, strait_runtime *rt, jclass iface,
                                   JSObjectRef impl, bool implicit, JSValueRef *exc) {
  JSContextRef ctx = strait_runtime_context(rt);
  jclass class_cls = (*env)->GetObjectClass(env, iface);
  jobjectArray ifaces = class_cls ? (*env)->NewObjectArray(env, 1, class_cls, iface) : NULL;
  if (class_cls) (*env)->DeleteLocalRef(env, class_cls);
  if (!ifaces) {
    java_to_type_error(env, ctx, "cannot implement", exc);
    return NULL;
  }
  jobject proxy = strait__js_implement(env, rt, ifaces, impl, implicit, exc);
  (*env)->DeleteLocalRef(env, ifaces);
  if (!proxy && !*exc) java_to_type_error(env, ctx, "cannot implement", exc);
  return proxy;
}

/*
 * `new I(impl)` for an interface class iface: strait__js_implement() with
 * the one interface, returned as the bridge's JS wrapper of the proxy.
 * NULL with *exc set on failure. Inside the gate (a bridge constructor).
 */
JSValueRef strait__js_implement_value(JNIEnv *env, strait_runtime *rt, jclass iface,
                                      JSObjectRef impl, JSValueRef *exc) {
  JSContextRef ctx = strait_runtime_context(rt);
  jobject proxy = strait__js_implement_class(env, rt, iface, impl, false, exc);
  if (!proxy) return NULL;
  jb_rt *b = jb_rt_of ? jb_rt_of(ctx) : NULL;
  JSValueRef r = b ? jb_wrap_given(env, b, ctx, proxy, exc) : NULL;
  if (!r && !*exc)
    *exc = strait_make_error(ctx, "TypeError", "the Java bridge is not attached");
  (*env)->DeleteLocalRef(env, proxy);
  return r;
}

/* The class behind a JS interface constructor (java.lang.Runnable), as a
 * new local ref; NULL with *exc set. Inside the gate. */
static jclass iface_of(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef v, JSValueRef *exc) {
  int index = JSValueIsObject(ctx, v) ? jb_ctor_class(b, ctx, (JSObjectRef)v) : -1;
  jb_class *k = index >= 0 ? jb_class_get(env, ctx, index, true, exc) : NULL;
  if (!k) {
    if (!*exc)
      *exc = strait_make_error(ctx, "TypeError",
                                "Java.implement: expected a Java interface (like java.lang.Runnable)");
    return NULL;
  }
  if (!(k->flags & JB_IFACE)) {
    *exc = strait_make_error(ctx, "TypeError", "Java.implement: %s is not an interface", k->name);
    return NULL;
  }
  return (*env)->NewLocalRef(env, k->ref);
}

/*
 * Java.implement(I or [I1, I2, ...], impl): one Java object implementing
 * every interface with the JS object (or function) impl. Installed on the
 * Java global by the bridge (model/packages.c). Inside the gate.
 */
JSValueRef strait__java_implement_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                                     size_t argc, const JSValueRef argv[], JSValueRef *exc) {
  JNIEnv *env = strait__env();
  jb_rt *b = jb_rt_of ? jb_rt_of(ctx) : NULL;
  if (!env || !b) {
    *exc = strait_make_error(ctx, "Error", "Java.implement: the Java bridge is not attached");
    return NULL;
  }
  if (argc < 2 || !JSValueIsObject(ctx, argv[1])) {
    *exc = strait_make_error(ctx, "TypeError",
                              "Java.implement(interfaces, impl): impl must be an object or function");
    return NULL;
  }
  JSValueRef list = argv[0];
  unsigned n = 1;
  int is_array = jb_is_array(ctx, list);
  if (is_array) {
    /* a Proxy of an array: its length is any value its trap gives, and
     * what the trap or the conversion throws is the error */
    JSStringRef ls = JSStringCreateWithUTF8CString("length");
    JSValueRef len = JSObjectGetProperty(ctx, (JSObjectRef)list, ls, exc);
    JSStringRelease(ls);
    if (!len) return NULL;
    double dn = JSValueToNumber(ctx, len, exc);
    if (*exc) return NULL;
    n = dn >= 1 && dn <= 64 ? (unsigned)dn : 0;
    if (n == 0) {
      *exc = strait_make_error(ctx, "TypeError", "Java.implement: give 1 to 64 interfaces");
      return NULL;
    }
  }
  jclass class_cls = (*env)->FindClass(env, "java/lang/Class");
  jobjectArray ifaces = class_cls ? (*env)->NewObjectArray(env, (jsize)n, class_cls, NULL) : NULL;
  if (class_cls) (*env)->DeleteLocalRef(env, class_cls);
  if (!ifaces) {
    (*env)->ExceptionClear(env);
    *exc = strait_make_error(ctx, "Error", "Java.implement: out of memory");
    return NULL;
  }
  for (unsigned i = 0; i < n; i++) {
    JSValueRef v = is_array ? JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)list, i, exc) : list;
    jclass c = v && !*exc ? iface_of(env, b, ctx, v, exc) : NULL;
    if (!c) {
      (*env)->DeleteLocalRef(env, ifaces);
      return NULL;
    }
    (*env)->SetObjectArrayElement(env, ifaces, (jsize)i, c);
    (*env)->DeleteLocalRef(env, c);
  }
  jobject proxy = strait__js_implement(env, b->rt, ifaces, (JSObjectRef)argv[1], false, exc);
  (*env)->DeleteLocalRef(env, ifaces);
  if (!proxy) {
    if (!*exc) java_to_type_error(env, ctx, "Java.implement", exc);
    return NULL;
  }
  JSValueRef r = jb_wrap_given(env, b, ctx, proxy, exc);
  (*env)->DeleteLocalRef(env, proxy);
  return r;
}

/*
 * extend.c - Java.extend and Java.super: JS constructors of Java classes
 * generated at run time (org.strait.internal.Adapters, with ASM) whose
 * overridable methods call a JS implementation, and the native through
 * which those methods call it from any Java thread (Natives.invokeAdapter).
 *
 * Java.extend(T1, ..., Tn[, impl]) asks Adapters for the runtime's adapter
 * class of the types and returns a constructor object (JSClass
 * "JavaAdapter", private data: the adapter's class index + 1) holding the
 * class-level impl and the adapter class's bridge constructor as hidden
 * properties. `new Ext(args...)` arms the class with the implementation
 * (Adapters.arm: a per-class ThreadLocal the generated constructor reads),
 * constructs through the bridge's ordinary constructor (overloads chosen as
 * for any class) and disarms. The JS methods run with `this` = the adapter
 * object's wrapper, so Java.super(this).m() reaches the superclass's m
 * through the generated public super$m bridge.
 *
 * Everything but Natives.invokeAdapter runs inside the runtime's gate.
 */
#include "call/call.h"
#include "base/interop_ids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adapters and the Throwable member this file calls (loaded once, at init). */
static struct {
  jclass Adapters;
  jmethodID newRuntime;     /* (HostPolicy) Object: a runtime's PerRuntime */
  jmethodID adapterClass;   /* (Object, Class[]) Class */
  jmethodID isAdapter;      /* (Object) boolean */
  jmethodID abstractNames;  /* (Class) String[] */
  jmethodID typeName;       /* (Class) String */
  jmethodID arm;            /* (Class, JsObject) void */
  jmethodID disarm;         /* (Class) void */
  jmethodID getMessage;     /* Throwable.getMessage() String */
  jclass Class;
} X;

#define A_SIG "org/strait/internal/Adapters"
static const strait__jid extend_ids[] = {
    JID_CLASS(X, Adapters, A_SIG),
    JID_CLASS(X, Class, "java/lang/Class"),
    JID_SMETHOD(X, newRuntime, X.Adapters, "newRuntime", "(Lorg/strait/internal/HostPolicy;)Ljava/lang/Object;"),
    JID_SMETHOD(X, adapterClass, X.Adapters, "adapterClass",
                "(Ljava/lang/Object;[Ljava/lang/Class;)Ljava/lang/Class;"),
    JID_SMETHOD(X, isAdapter, X.Adapters, "isAdapter", "(Ljava/lang/Object;)Z"),
    JID_SMETHOD(X, abstractNames, X.Adapters, "abstractNames", "(Ljava/lang/Class;)[Ljava/lang/String;"),
    JID_SMETHOD(X, typeName, X.Adapters, "typeName", "(Ljava/lang/Class;)Ljava/lang/String;"),
    JID_SMETHOD(X, arm, X.Adapters, "arm", "(Ljava/lang/Class;Lorg/strait/JsObject;)V"),
    JID_SMETHOD(X, disarm, X.Adapters, "disarm", "(Ljava/lang/Class;)V"),
    JID_METHOD(X, getMessage, strait__jc.Throwable, "getMessage", "()Ljava/lang/String;"),
};

/* Loads the IDs above; 0 or STRAIT_EINVAL with an exception pending. Once,
 * from strait__jni_init (onload.c). */
int strait__extend_init(JNIEnv *env) { return strait__ids_load(env, extend_ids, JID_COUNT(extend_ids)); }

/* Hidden property names (never a Java identifier). */
#define K_IMPL "[strait:impl]"
#define K_CLASS "[strait:class]"
#define K_TARGET "[strait:target]"
#define K_FN "[strait:fn]"

/* ---- Natives.invokeAdapter --------------------------------------------------- */

/* True when m is what Object.prototype has under k (the implementation
 * object inherits toString, valueOf...: not an override). Inside the gate. */
static bool inherited_builtin(JSContextRef ctx, JSStringRef k, JSValueRef m) {
  jb_rt *b = k ? jb_rt_of(ctx) : NULL;
  if (!b || !b->object_proto) return false;
  JSValueRef p = JSObjectGetProperty(ctx, b->object_proto, k, NULL);
  return p && JSValueIsStrictEqual(ctx, p, m);
}

/* Natives.invokeAdapter: impl[name](...args) with this = packed argument 0
 * (the adapter object), or impl(...) when name is 0;
 * JsProxyHandler.ABSENT when the member is undefined or null, NOT_FUNCTION
 * when it is not callable. Any Java thread: enters and leaves the runtime. */
static jobject JNICALL n_invoke_adapter(JNIEnv *env, jclass c, jlong peer, jobject owner, jlong obj,
                                        jlong name, jlongArray vals, jobjectArray refs, jint argc) {
  if (argc < 1 || argc > 1024) {
    strait__throw_status(env, STRAIT_EINVAL, "invokeAdapter: bad argument count");
    return NULL;
  }
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return NULL;
  jobject out = NULL;
  JSValueRef exc = NULL;
  JSObjectRef impl = (JSObjectRef)strait__handle_value(obj);
  JSStringRef k = (JSStringRef)(intptr_t)name;
  JSValueRef m = k ? JSObjectGetProperty(s.ctx, impl, k, &exc) : impl;
  if (exc) {
    strait__rethrow_to_java(env, s.jrt, exc);
  } else if (JSValueIsUndefined(s.ctx, m) || JSValueIsNull(s.ctx, m) || inherited_builtin(s.ctx, k, m)) {
    out = (*env)->NewLocalRef(env, strait__proxy_absent);
  } else if (!JSValueIsObject(s.ctx, m) || !JSObjectIsFunction(s.ctx, (JSObjectRef)m)) {
    out = (*env)->NewLocalRef(env, strait__proxy_not_function);
  } else {
    JSValueRef argv[argc];
    int rc = strait__unpack_args(env, s.jrt, vals, refs, argc, argv, &exc);
    JSValueRef r = NULL;
    if (rc == 0) {
      JSObjectRef thiz = JSValueIsObject(s.ctx, argv[0]) ? (JSObjectRef)argv[0] : NULL;
      r = strait_call(s.jrt->rt, (JSObjectRef)m, thiz, 0, (size_t)argc - 1, argv + 1, &exc);
    }
    if (strait_exiting(s.jrt->rt)) strait__throw_exit(env, s.jrt->exit_code);
    else if (rc && !exc) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, rc, "arguments");
    } else if (exc || !r) strait__rethrow_to_java(env, s.jrt, exc ? exc : JSValueMakeUndefined(s.ctx));
    else if (!JSValueIsUndefined(s.ctx, r) && !JSValueIsNull(s.ctx, r))
      out = strait__to_java(env, s.jrt, owner, r);
  }
  strait__native_leave(env, &s);
  return out;
}

/* Natives.insideRuntime(peer): true when the calling thread is inside the
 * runtime: it owns the gate (running its JS, or in a Java call its JS made
 * that no other thread took over), has a native entry of it on its stack
 * (an eval, a call, the loop of a JsRuntime, with any Java call nested in
 * it: this holds also when another thread took the gate over meanwhile),
 * or, for a runtime JsRuntime.create() did not make (the launcher's, a
 * worker's), is the thread that runs its JS (jb_rt.home). The check of JS
 * functions and objects a script made for Java when the runtime's policy
 * does not allow threads (JsProxyHandler.checkThread). The caller holds an
 * in-flight count of the runtime. Any Java thread. */
static jboolean JNICALL n_inside_runtime(JNIEnv *env, jclass c, jlong peer) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  if (!jrt) return JNI_FALSE;
  if (strait_inside(jrt->rt) || strait__jrt_entered_here(jrt)) return JNI_TRUE;
  jb_rt *b = jrt->bridge;
  return !jrt->embedded && b && pthread_equal(b->home, pthread_self()) ? JNI_TRUE : JNI_FALSE;
}

/* Natives.classGone lives with the class metadata (model/class_meta.c) and
 * is registered here, with the adapters whose classes it mostly frees. */
const JNINativeMethod strait__extend_natives[] = {
    {"invokeAdapter", "(JLjava/lang/Object;JJ[J[Ljava/lang/Object;I)Ljava/lang/Object;",
     (void *)n_invoke_adapter},
    {"insideRuntime", "(J)Z", (void *)n_inside_runtime},
    {"classGone", "(I)V", (void *)jb_class_gone},
};
const int strait__extend_natives_count = sizeof strait__extend_natives / sizeof strait__extend_natives[0];

/* ---- helpers --------------------------------------------------------------------- */

/* *exc = TypeError "<what>: <message of the pending Java exception>",
 * clearing it. */
static void type_error_from_java(JNIEnv *env, JSContextRef ctx, const char *what, JSValueRef *exc) {
  jthrowable t = (*env)->ExceptionOccurred(env);
  (*env)->ExceptionClear(env);
  char *msg = NULL;
  if (t) {
    jstring m = (*env)->CallObjectMethod(env, t, X.getMessage);
    if ((*env)->ExceptionCheck(env)) {
      (*env)->ExceptionClear(env);
      m = NULL;
    }
    if (m) {
      JSStringRef s = strait__jsstring_from_java(env, m);
      if (s) {
        msg = strait_utf8_from_jsstring(s, NULL);
        JSStringRelease(s);
      }
      (*env)->DeleteLocalRef(env, m);
    }
    (*env)->DeleteLocalRef(env, t);
  }
  *exc = strait_make_error(ctx, "TypeError", "%s: %s", what, msg ? msg : "Java exception");
  free(msg);
}

/* A Java String as malloc'd UTF-8 (never NULL but for lack of memory). */
static char *utf8_of_java(JNIEnv *env, jstring s) {
  JSStringRef j = s ? strait__jsstring_from_java(env, s) : NULL;
  char *r = j ? strait_utf8_from_jsstring(j, NULL) : NULL;
  if (j) JSStringRelease(j);
  return r ? r : strdup("?");
}

/* typeof-like description of v for messages. */
static const char *kind_of(JSContextRef ctx, JSValueRef v) {
  switch (JSValueGetType(ctx, v)) {
    case kJSTypeUndefined: return "undefined";
    case kJSTypeNull: return "null";
    case kJSTypeBoolean: return "a boolean";
    case kJSTypeNumber: return "a number";
    case kJSTypeString: return "a string";
    case kJSTypeSymbol: return "a symbol";
    case kJSTypeObject:
      return JSObjectIsFunction(ctx, (JSObjectRef)v) ? "a function" : "an object";
    default: return "a bigint";
  }
}

/* Defines a hidden, fixed property. */
static void put_hidden(JSContextRef ctx, JSObjectRef o, const char *name, JSValueRef v) {
  strait_set_property(ctx, o, name, v,
                      kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontEnum | kJSPropertyAttributeDontDelete);
}

/* ---- the constructor object ---------------------------------------------------- */

static JSClassRef ext_class, super_class, super_fn_class;
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

/* The adapter class index of a JavaAdapter object (private: index + 1). */
static int ext_index(JSObjectRef ctor) { return (int)(intptr_t)JSObjectGetPrivate(ctor) - 1; }

/* True when impl gives every abstract method of adapter (its function
 * members); else *exc names the type and the first method it lacks. A
 * function implements them all. Inside the gate. */
static bool check_impl(JNIEnv *env, JSContextRef ctx, jclass adapter, JSValueRef impl, JSValueRef *exc) {
  jobjectArray names = (*env)->CallStaticObjectMethod(env, X.Adapters, X.abstractNames, adapter);
  if ((*env)->ExceptionCheck(env) || !names) {
    type_error_from_java(env, ctx, "Java.extend", exc);
    return false;
  }
  jsize n = (*env)->GetArrayLength(env, names);
  bool ok = true;
  for (jsize i = 0; i < n && ok; i++) {
    jstring jn = (*env)->GetObjectArrayElement(env, names, i);
    JSValueRef m = NULL;
    const char *problem = NULL;
    if (!impl) {
      problem = "has no implementation (give an object with the methods: Java.extend(type, impl) or new Ext(args..., impl))";
    } else if (!JSObjectIsFunction(ctx, (JSObjectRef)impl)) {
      JSStringRef k = strait__jsstring_from_java(env, jn);
      m = k ? JSObjectGetProperty(ctx, (JSObjectRef)impl, k, exc) : NULL;
      if (k) JSStringRelease(k);
      if (*exc) {
        ok = false;
      } else if (!m || JSValueIsUndefined(ctx, m) || JSValueIsNull(ctx, m)) {
        problem = "is missing from the implementation object";
      } else if (!JSValueIsObject(ctx, m) || !JSObjectIsFunction(ctx, (JSObjectRef)m)) {
        problem = "of the implementation object is not a function";
      }
    }
    if (problem) {
      jstring tn = (*env)->CallStaticObjectMethod(env, X.Adapters, X.typeName, adapter);
      if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
        tn = NULL;
      }
      char *type = utf8_of_java(env, tn);
      char *meth = utf8_of_java(env, jn);
      if (m && !JSValueIsUndefined(ctx, m) && !JSValueIsNull(ctx, m))
        *exc = strait_make_error(ctx, "TypeError", "Java.extend(%s): abstract method %s %s (it is %s)", type,
                                 meth, problem, kind_of(ctx, m));
      else
        *exc = strait_make_error(ctx, "TypeError", "Java.extend(%s): abstract method %s %s", type, meth, problem);
      free(type);
      free(meth);
      if (tn) (*env)->DeleteLocalRef(env, tn);
      ok = false;
    }
    if (jn) (*env)->DeleteLocalRef(env, jn);
  }
  (*env)->DeleteLocalRef(env, names);
  return ok;
}

/* True when v may be an implementation object: a JS object or function that
 * is neither a Java object, a Java class nor an array. */
static bool is_impl(jb_rt *b, JSContextRef ctx, JSValueRef v) {
  if (!JSValueIsObject(ctx, v) || jb_is_array(ctx, v)) return false;
  JSObjectRef o = (JSObjectRef)v;
  return !jb_entry_of(b, o) && jb_ctor_class(b, ctx, o) < 0 &&
         !JSValueIsObjectOfClass(ctx, v, ext_class);
}

/* Constructs adapter (a local ref) through its bridge constructor cls_ctor
 * with argv, the implementation impl (or NULL) armed for it. Inside the
 * gate. */
static JSObjectRef construct_with(JNIEnv *env, jb_rt *b, JSContextRef ctx, jclass adapter, JSObjectRef cls_ctor,
                                  JSValueRef impl, size_t argc, const JSValueRef argv[], JSValueRef *exc) {
  if (!check_impl(env, ctx, adapter, impl, exc)) return NULL;
  strait__jrt *jrt = strait__jrt_of(b->rt);
  jobject owner = jrt ? strait__owner_of(env, jrt) : NULL;
  jobject handle = NULL;
  if (impl) {
    handle = owner ? strait__handle_wrap_as_object(env, jrt, owner, (JSObjectRef)impl) : NULL;
    if (!handle) {
      if (owner) (*env)->DeleteLocalRef(env, owner);
      type_error_from_java(env, ctx, "Java.extend: cannot hold the implementation", exc);
      return NULL;
    }
  }
  if (owner) (*env)->DeleteLocalRef(env, owner);
  (*env)->CallStaticVoidMethod(env, X.Adapters, X.arm, adapter, handle);
  if (handle) (*env)->DeleteLocalRef(env, handle);
  if ((*env)->ExceptionCheck(env)) {
    type_error_from_java(env, ctx, "Java.extend", exc);
    return NULL;
  }
  JSObjectRef r = JSObjectCallAsConstructor(ctx, cls_ctor, argc, argv, exc);
  /* keep a pending Java exception aside: disarm must run */
  jthrowable pending = (*env)->ExceptionOccurred(env);
  if (pending) (*env)->ExceptionClear(env);
  (*env)->CallStaticVoidMethod(env, X.Adapters, X.disarm, adapter);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (pending) {
    (*env)->Throw(env, pending);
    (*env)->DeleteLocalRef(env, pending);
  }
  return r;
}

/* `new Ext(args...)`: see the file comment. Inside the gate. */
static JSObjectRef ext_construct(JSContextRef ctx, JSObjectRef ctor, size_t argc, const JSValueRef argv[],
                                 JSValueRef *exc) {
  jb_rt *b = jb_rt_of(ctx);
  JNIEnv *env = strait__env();
  int ci = ext_index(ctor);
  if (!b || !env || ci < 0) {
    *exc = strait_make_error(ctx, "TypeError", "Java.extend: the Java bridge is not attached");
    return NULL;
  }
  jb_class *k = jb_class_get(env, ctx, ci, false, exc);
  if (!k) return NULL;
  JSValueRef impl = strait_get_property(ctx, ctor, K_IMPL);
  JSValueRef cls_ctor = strait_get_property(ctx, ctor, K_CLASS);
  if (!cls_ctor || !JSValueIsObject(ctx, cls_ctor)) {
    *exc = strait_make_error(ctx, "TypeError", "Java.extend: broken adapter constructor");
    return NULL;
  }
  if (!impl || JSValueIsUndefined(ctx, impl)) {
    impl = NULL;
    /* the Nashorn form: new Ext(superArgs..., impl) */
    if (argc > 0 && is_impl(b, ctx, argv[argc - 1])) impl = argv[--argc];
  }
  return construct_with(env, b, ctx, k->ref, (JSObjectRef)cls_ctor, impl, argc, argv, exc);
}

/* The runtime's adapter class of types (a local ref), or NULL with *exc
 * set. The runtime's adapter loaders and classes (an Adapters.PerRuntime)
 * are held by b->adapters, made here the first time, dropped at teardown
 * (jb_extend_free): nothing process-wide keeps them. Inside the gate. */
static jclass adapter_of(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobjectArray types, JSValueRef *exc) {
  if (!b->adapters) {
    jobject pr = (*env)->CallStaticObjectMethod(env, X.Adapters, X.newRuntime, b->policy);
    if (pr && !(*env)->ExceptionCheck(env)) b->adapters = (*env)->NewGlobalRef(env, pr);
    if (pr) (*env)->DeleteLocalRef(env, pr);
    if (!b->adapters) {
      if (!(*env)->ExceptionCheck(env)) strait__throw(env, strait__jc.OutOfMemoryError, "Java.extend");
      type_error_from_java(env, ctx, "Java.extend", exc);
      return NULL;
    }
  }
  jclass adapter = (*env)->CallStaticObjectMethod(env, X.Adapters, X.adapterClass, b->adapters, types);
  if ((*env)->ExceptionCheck(env) || !adapter) {
    type_error_from_java(env, ctx, "Java.extend", exc);
    return NULL;
  }
  return adapter;
}

/* Calling Ext without new. */
static JSValueRef ext_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc) {
  *exc = strait_make_error(ctx, "TypeError", "a Java.extend constructor must be called with new");
  return NULL;
}

/* v instanceof Ext: v instanceof the adapter class. */
static bool ext_has_instance(JSContextRef ctx, JSObjectRef ctor, JSValueRef v, JSValueRef *exc) {
  JSValueRef c = strait_get_property(ctx, ctor, K_CLASS);
  return c && JSValueIsObject(ctx, c) && JSValueIsInstanceOfConstructor(ctx, v, (JSObjectRef)c, exc);
}

/* ---- Java.super ------------------------------------------------------------------- */

/* A method of a Java.super object: target.super$name(...args). */
static JSValueRef super_fn_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc) {
  JSValueRef t = strait_get_property(ctx, fn, K_TARGET);
  JSValueRef f = strait_get_property(ctx, fn, K_FN);
  if (!t || !f || !JSValueIsObject(ctx, t) || !JSValueIsObject(ctx, f)) {
    *exc = strait_make_error(ctx, "TypeError", "Java.super: broken method");
    return NULL;
  }
  return JSObjectCallAsFunction(ctx, (JSObjectRef)f, (JSObjectRef)t, argc, argv, exc);
}

/* A read of a Java.super object: the super$ bridge of that name, bound to
 * the adapter object, or nothing (undefined). */
static JSValueRef super_get(JSContextRef ctx, JSObjectRef obj, JSStringRef name, JSValueRef *exc) {
  size_t n = JSStringGetLength(name);
  const JSChar *c = JSStringGetCharactersPtr(name);
  if (n == 0 || n > 1000 || c[0] == '[') return NULL;
  JSValueRef t = strait_get_property(ctx, obj, K_TARGET);
  if (!t || !JSValueIsObject(ctx, t)) return NULL;
  JSChar buf[1006];
  static const char prefix[] = "super$";
  for (size_t i = 0; i < 6; i++) buf[i] = (JSChar)prefix[i];
  memcpy(buf + 6, c, n * sizeof(JSChar));
  JSStringRef k = JSStringCreateWithCharacters(buf, n + 6);
  /* a missing member is no super method: undefined, whatever the read of
   * a missing member of a Java object does */
  JSValueRef f = JSObjectHasProperty(ctx, (JSObjectRef)t, k) ? JSObjectGetProperty(ctx, (JSObjectRef)t, k, exc) : NULL;
  JSStringRelease(k);
  if (!f || !JSValueIsObject(ctx, f) || !JSObjectIsFunction(ctx, (JSObjectRef)f)) return NULL;
  JSObjectRef m = JSObjectMake(ctx, super_fn_class, NULL);
  jb_rt *b = jb_rt_of(ctx);
  if (b) JSObjectSetPrototype(ctx, m, b->fn_proto);
  put_hidden(ctx, m, K_TARGET, t);
  put_hidden(ctx, m, K_FN, f);
  return m;
}

static void make_classes(void) {
  JSClassDefinition d = kJSClassDefinitionEmpty;
  d.className = "JavaAdapter";
  d.callAsConstructor = ext_construct;
  d.callAsFunction = ext_call;
  d.hasInstance = ext_has_instance;
  ext_class = JSClassCreate(&d);
  JSClassDefinition s = kJSClassDefinitionEmpty;
  s.className = "JavaSuper";
  s.getProperty = super_get;
  super_class = JSClassCreate(&s);
  JSClassDefinition f = kJSClassDefinitionEmpty;
  f.className = "JavaSuperMethod";
  f.callAsFunction = super_fn_call;
  super_fn_class = JSClassCreate(&f);
}

/* ---- Java.extend and Java.super --------------------------------------------------- */

/* Java.extend(T1, ..., Tn[, impl]). Inside the gate. */
static JSValueRef java_extend(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = JSObjectGetPrivate(fn);
  JNIEnv *env = strait__env();
  size_t ntypes = argc;
  JSValueRef impl = NULL;
  if (argc > 0 && JSValueIsObject(ctx, argv[argc - 1]) && !jb_is_array(ctx, argv[argc - 1]) &&
      jb_ctor_class(b, ctx, (JSObjectRef)argv[argc - 1]) < 0 && !jb_package_name(ctx, argv[argc - 1])) {
    if (jb_entry_of(b, (JSObjectRef)argv[argc - 1])) {
      *exc = strait_make_error(ctx, "TypeError",
                               "Java.extend: the implementation must be a JavaScript object, not a Java object");
      return NULL;
    }
    impl = argv[argc - 1];
    ntypes--;
  }
  if (ntypes == 0) {
    *exc = strait_make_error(ctx, "TypeError",
                             "Java.extend: expected a Java class or interface to extend, then an optional "
                             "implementation object");
    return NULL;
  }
  if (ntypes > 64) {
    *exc = strait_make_error(ctx, "TypeError", "Java.extend: at most 64 types");
    return NULL;
  }
  jobjectArray types = (*env)->NewObjectArray(env, (jsize)ntypes, X.Class, NULL);
  if (!types) {
    (*env)->ExceptionClear(env);
    *exc = strait_make_error(ctx, "RangeError", "Java.extend: out of memory");
    return NULL;
  }
  for (size_t i = 0; i < ntypes; i++) {
    int ci = JSValueIsObject(ctx, argv[i]) ? jb_ctor_class(b, ctx, (JSObjectRef)argv[i]) : -1;
    jb_class *k = ci >= 0 ? jb_class_get(env, ctx, ci, false, exc) : NULL;
    if (!k) {
      if (!*exc) {
        char *s = JSValueIsString(ctx, argv[i]) ? strait_utf8_from_value(ctx, argv[i], NULL) : NULL;
        if (s)
          *exc = strait_make_error(ctx, "TypeError",
                                   "Java.extend: argument %zu is the string '%.200s', not a Java class "
                                   "(use Java.type('%.200s'))", i + 1, s, s);
        else if (jb_package_name(ctx, argv[i]))
          *exc = strait_make_error(ctx, "TypeError", "Java.extend: argument %zu is the Java package %s, not a class",
                                   i + 1, jb_package_name(ctx, argv[i]));
        else
          *exc = strait_make_error(ctx, "TypeError", "Java.extend: argument %zu is %s, not a Java class or interface",
                                   i + 1, kind_of(ctx, argv[i]));
        free(s);
      }
      (*env)->DeleteLocalRef(env, types);
      return NULL;
    }
    (*env)->SetObjectArrayElement(env, types, (jsize)i, k->ref);
  }
  jclass adapter = adapter_of(env, b, ctx, types, exc);
  (*env)->DeleteLocalRef(env, types);
  if (!adapter) return NULL;
  JSObjectRef result = NULL;
  int ci = jb_class_index(env, adapter);
  JSObjectRef cls_ctor = ci >= 0 ? jb_class_ctor(env, b, ctx, ci, exc) : NULL;
  JSObjectRef proto = cls_ctor ? jb_class_proto(env, b, ctx, ci, exc) : NULL;
  if (!proto) {
    if (!*exc) *exc = strait_make_error(ctx, "TypeError", "Java.extend: cannot index the adapter class");
    goto out;
  }
  if (impl && !check_impl(env, ctx, adapter, impl, exc)) goto out;
  result = JSObjectMake(ctx, ext_class, (void *)(intptr_t)(ci + 1));
  JSObjectSetPrototype(ctx, result, b->fn_proto);
  put_hidden(ctx, result, "prototype", proto);
  put_hidden(ctx, result, K_CLASS, cls_ctor);
  if (impl) put_hidden(ctx, result, K_IMPL, impl);
  /* Ext.class: the generated java.lang.Class, when the runtime's policy
   * lets the script have a java.lang.Class (else Ext has no `class`) */
  JSValueRef cexc = NULL;
  JSValueRef jc = jb_wrap(env, b, ctx, adapter, &cexc);
  if (jc && !cexc) put_hidden(ctx, result, "class", jc);
out:
  (*env)->DeleteLocalRef(env, adapter);
  return result;
}

/* Java.super(obj): an object whose methods are the superclass's
 * implementations of obj's overridden methods. Inside the gate. */
static JSValueRef java_super(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                             const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = JSObjectGetPrivate(fn);
  JNIEnv *env = strait__env();
  jb_entry *e = argc && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  bool ok = e && (*env)->CallStaticBooleanMethod(env, X.Adapters, X.isAdapter, e->ref);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    ok = false;
  }
  if (!ok) {
    if (e)
      *exc = strait_make_error(ctx, "TypeError", "Java.super: %s is not a class made by Java.extend",
                               e->cls ? e->cls->name : "the object");
    else
      *exc = strait_make_error(ctx, "TypeError", "Java.super: expected an object made by a Java.extend constructor, got %s",
                               argc ? kind_of(ctx, argv[0]) : "nothing");
    return NULL;
  }
  JSObjectRef o = JSObjectMake(ctx, super_class, NULL);
  JSObjectSetPrototype(ctx, o, JSValueMakeNull(ctx));
  put_hidden(ctx, o, K_TARGET, argv[0]);
  return o;
}


/* See call/call.h. */
void jb_extend_free(JNIEnv *env, jb_rt *b) {
  if (b->adapters) (*env)->DeleteGlobalRef(env, b->adapters);
  b->adapters = NULL;
}

/* Installs Java.extend and Java.super on the Java object (called by
 * jb_packages_install, model/packages.c). Inside the gate. */
void jb_extend_install(jb_rt *b, JSContextRef ctx, JSObjectRef java) {
  pthread_once(&classes_once, make_classes);
  jb_put_fn(b, ctx, java, "extend", java_extend);
  jb_put_fn(b, ctx, java, "super", java_super);
}

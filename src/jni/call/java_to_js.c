/*
 * java_to_js.c - natives of org.strait.internal.Natives for JS values
 * held from Java: property access, calls and constructs from any Java
 * thread, and calls of JS implementations of Java interfaces.
 *
 * Every native here is called by Java while it holds one in-flight count
 * of the runtime (JsRuntime.enter/leave), so the peer (a strait__jrt*) is
 * alive; it then enters the runtime's gate (base/entry.c), pushes an
 * entry frame (so close() from a callback can tell), does its work and
 * leaves, which drains the microtask queue when it was the outermost stay.
 * Handles are protected JSValueRefs (strait__handle_make); 0 names the
 * global object.
 */
#include "call/call.h"

#include <stdlib.h>
#include <string.h>


/* The object a handle names (0: the global object). */
static JSObjectRef obj_of(strait__native *s, jlong h) {
  return h ? (JSObjectRef)strait__handle_value(h) : JSContextGetGlobalObject(s->ctx);
}

/* Turns the outcome of a JS operation into Java: the exception (or the
 * process.exit() unwinding) is thrown; else r is converted. */
static jobject finish(JNIEnv *env, strait__native *s, jobject owner, JSValueRef r, JSValueRef exc) {
  if (strait_exiting(s->jrt->rt)) {
    strait__throw_exit(env, s->jrt->exit_code);
    return NULL;
  }
  if (exc || !r) {
    strait__rethrow_to_java(env, s->jrt, exc ? exc : JSValueMakeUndefined(s->ctx));
    return NULL;
  }
  /* undefined and null (most results of calls) need no C API call */
  if (jb_imm_ok && (jb_bits(r) == JB_VALUE_UNDEFINED || jb_bits(r) == JB_VALUE_NULL)) return NULL;
  return strait__to_java(env, s->jrt, owner, r);
}

/* JSStringRef of a Java string key; NULL with an exception pending. */
static JSStringRef key_of(JNIEnv *env, jstring key) {
  JSStringRef k = strait__jsstring_from_java(env, key);
  if (!k && !(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "key");
  return k;
}

/* Natives.get: obj[key] to Java. Any Java thread. */
static jobject JNICALL n_get(JNIEnv *env, jclass c, jlong peer, jobject owner, jlong obj,
                             jstring key) {
  JSStringRef k = key_of(env, key);
  if (!k) return NULL;
  strait__native s;
  jobject out = NULL;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer)) == 0) {
    JSValueRef exc = NULL;
    JSValueRef r = JSObjectGetProperty(s.ctx, obj_of(&s, obj), k, &exc);
    out = finish(env, &s, owner, r, exc);
    strait__native_leave(env, &s);
  }
  JSStringRelease(k);
  return out;
}

/* Natives.getAt: obj[index] to Java. Any Java thread. */
static jobject JNICALL n_get_at(JNIEnv *env, jclass c, jlong peer, jobject owner, jlong obj,
                                jint index) {
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return NULL;
  JSValueRef exc = NULL;
  JSValueRef r = JSObjectGetPropertyAtIndex(s.ctx, obj_of(&s, obj), (unsigned)index, &exc);
  jobject out = finish(env, &s, owner, r, exc);
  strait__native_leave(env, &s);
  return out;
}

/* Stores v as o[k] (or o[index] without k) through the captured
 * Reflect.set, and makes a refusal a TypeError in *exc, as the assignment
 * throws in strict JS: the C API's stores are sloppy ones, which drop a
 * refused store in silence (a frozen array, a read-only or getter-only
 * property, a non-extensible object, a Proxy whose set trap says false),
 * so Collections.sort of a frozen JS array returned with nothing sorted
 * and list.add(x) added nothing. Without the intrinsic, the sloppy store.
 * Inside the stay. */
static void strict_store(strait__native *s, JSObjectRef o, JSStringRef k, unsigned index, JSValueRef v,
                         JSValueRef *exc) {
  JSContextRef ctx = s->ctx;
  JSObjectRef set = s->jrt->reflect_set;
  if (!set) {
    if (k) JSObjectSetProperty(ctx, o, k, v, kJSPropertyAttributeNone, exc);
    else JSObjectSetPropertyAtIndex(ctx, o, index, v, exc);
    return;
  }
  JSValueRef args[3] = {o, k ? JSValueMakeString(ctx, k) : JSValueMakeNumber(ctx, index), v};
  JSValueRef r = JSObjectCallAsFunction(ctx, set, NULL, 3, args, exc);
  if (!r || *exc || JSValueToBoolean(ctx, r)) return;
  const char *why = "a frozen, sealed or non-extensible object, a read-only or getter-only property, "
                    "or a Proxy whose set trap returned false";
  if (!k) {
    *exc = strait_make_error(ctx, "TypeError", "cannot assign to index %u of a JS value from Java: JS refused it (%s)",
                             index, why);
    return;
  }
  char name[120];
  size_t n = JSStringGetUTF8CString(k, name, sizeof name);
  const char *more = n >= sizeof name ? "..." : "";
  *exc = strait_make_error(ctx, "TypeError", "cannot assign to property '%s%s' of a JS value from Java: JS refused it (%s)",
                           name, more, why);
}

/* Common part of set/setAt: unpacks the one value, stores it with key k or
 * at index (strict_store). Inside the stay. */
static void store(JNIEnv *env, strait__native *s, jlong obj, JSStringRef k, unsigned index,
                  jlongArray vals, jobjectArray refs) {
  JSValueRef v[1];
  JSValueRef exc = NULL;
  int rc = strait__unpack_args(env, s->jrt, vals, refs, 1, v, &exc);
  if (rc == 0) strict_store(s, obj_of(s, obj), k, index, v[0], &exc);
  if (exc) strait__rethrow_to_java(env, s->jrt, exc);
  else if (rc && !(*env)->ExceptionCheck(env)) strait__throw_status(env, rc, "set");
}

/* Natives.set: obj[key] = value. Any Java thread. */
static void JNICALL n_set(JNIEnv *env, jclass c, jlong peer, jlong obj, jstring key,
                          jlongArray vals, jobjectArray refs) {
  JSStringRef k = key_of(env, key);
  if (!k) return;
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer)) == 0) {
    store(env, &s, obj, k, 0, vals, refs);
    strait__native_leave(env, &s);
  }
  JSStringRelease(k);
}

/* Natives.setAt: obj[index] = value. Any Java thread. */
static void JNICALL n_set_at(JNIEnv *env, jclass c, jlong peer, jlong obj, jint index,
                             jlongArray vals, jobjectArray refs) {
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return;
  store(env, &s, obj, NULL, (unsigned)index, vals, refs);
  strait__native_leave(env, &s);
}

/* Natives.has: key in obj. Any Java thread. */
static jboolean JNICALL n_has(JNIEnv *env, jclass c, jlong peer, jlong obj, jstring key) {
  JSStringRef k = key_of(env, key);
  if (!k) return JNI_FALSE;
  strait__native s;
  jboolean r = JNI_FALSE;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer)) == 0) {
    /* the ForKey form reports a throwing Proxy `has` trap (JsException)
     * instead of answering false */
    JSValueRef exc = NULL;
    r = JSObjectHasPropertyForKey(s.ctx, obj_of(&s, obj), JSValueMakeString(s.ctx, k), &exc)
            ? JNI_TRUE : JNI_FALSE;
    if (exc) {
      r = JNI_FALSE;
      strait__rethrow_to_java(env, s.jrt, exc);
    }
    strait__native_leave(env, &s);
  }
  JSStringRelease(k);
  return r;
}

/* Natives.delete: delete obj[key]. Any Java thread. */
static jboolean JNICALL n_delete(JNIEnv *env, jclass c, jlong peer, jlong obj, jstring key) {
  JSStringRef k = key_of(env, key);
  if (!k) return JNI_FALSE;
  strait__native s;
  jboolean r = JNI_FALSE;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer)) == 0) {
    JSValueRef exc = NULL;
    r = JSObjectDeleteProperty(s.ctx, obj_of(&s, obj), k, &exc) ? JNI_TRUE : JNI_FALSE;
    if (exc) strait__rethrow_to_java(env, s.jrt, exc);
    strait__native_leave(env, &s);
  }
  JSStringRelease(k);
  return r;
}

/* Natives.keys: Object.keys(obj) as String[], through the
 * Object.keys captured when the runtime was made (a script's replacement
 * is never called). A Proxy trap that throws becomes JsException; every
 * element is checked to be a string and every JNI call is checked. Any
 * Java thread. */
static jobjectArray JNICALL n_keys(JNIEnv *env, jclass c, jlong peer, jlong obj) {
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return NULL;
  jobjectArray out = NULL;
  JSValueRef exc = NULL;
  JSObjectRef o = obj_of(&s, obj);
  JSObjectRef keysfn = s.jrt->object_keys;
  JSValueRef arr = NULL;
  if (!keysfn) {
    strait__throw(env, strait__jc.IllegalStateException, "keys: Object.keys is not available");
    goto done;
  }
  JSValueRef argv[1] = {o};
  arr = JSObjectCallAsFunction(s.ctx, keysfn, NULL, 1, argv, &exc);
  if (exc || !arr || !JSValueIsObject(s.ctx, arr)) {
    strait__rethrow_to_java(env, s.jrt, exc ? exc : JSValueMakeUndefined(s.ctx));
    goto done;
  }
  JSObjectRef a = (JSObjectRef)arr;
  JSValueRef lenv = strait_get_property(s.ctx, a, "length");
  double len = lenv ? JSValueToNumber(s.ctx, lenv, NULL) : -1;
  if (!(len >= 0 && len <= 2147483647.0)) {
    strait__throw(env, strait__jc.IllegalStateException, "keys: Object.keys gave no array");
    goto done;
  }
  jsize n = (jsize)len;
  out = (*env)->NewObjectArray(env, n, strait__jc.String, NULL);
  if (!out) goto done;   /* OutOfMemoryError pending */
  for (jsize i = 0; i < n; i++) {
    JSValueRef kv = JSObjectGetPropertyAtIndex(s.ctx, a, (unsigned)i, &exc);
    if (exc || !kv || !JSValueIsString(s.ctx, kv)) {
      if (exc) strait__rethrow_to_java(env, s.jrt, exc);
      else strait__throw(env, strait__jc.IllegalStateException, "keys: a key is not a string");
      out = NULL;
      break;
    }
    JSStringRef ks = JSValueToStringCopy(s.ctx, kv, NULL);
    jstring js = ks ? strait__jstring_from_js(env, ks) : NULL;
    if (ks) JSStringRelease(ks);
    if (!js) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "keys");
      out = NULL;
      break;
    }
    (*env)->SetObjectArrayElement(env, out, i, js);
    (*env)->DeleteLocalRef(env, js);
    if ((*env)->ExceptionCheck(env)) {
      out = NULL;
      break;
    }
  }
done:
  strait__native_leave(env, &s);
  return out;
}

/* Natives.length: ToLength(obj.length). Any Java thread. */
static jlong JNICALL n_length(JNIEnv *env, jclass c, jlong peer, jlong obj) {
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return 0;
  JSValueRef exc = NULL;
  JSStringRef k = JSStringCreateWithUTF8CString("length");
  JSValueRef v = JSObjectGetProperty(s.ctx, obj_of(&s, obj), k, &exc);
  JSStringRelease(k);
  double d = v && !exc ? JSValueToNumber(s.ctx, v, &exc) : 0;
  /* a throwing length getter (a Proxy) or valueOf is the JS error, not 0 */
  if (exc) strait__rethrow_to_java(env, s.jrt, exc);
  strait__native_leave(env, &s);
  if (exc) return 0;
  if (!(d > 0)) return 0;
  return d > 9007199254740991.0 ? (jlong)9007199254740991LL : (jlong)d;
}

/* Calls f with packed arguments inside a stay: this = thiz (NULL:
 * undefined), or packed argument 0 when this_packed. */
static jobject call_packed(JNIEnv *env, strait__native *s, jobject owner, JSObjectRef f, JSObjectRef thiz,
                           int flags, jlongArray vals, jobjectArray refs, jint argc) {
  if (argc < 0 || argc > 1024) {
    strait__throw_status(env, STRAIT_EINVAL, "more than 1024 arguments");
    return NULL;
  }
  JSValueRef argv[argc > 0 ? argc : 1];
  JSValueRef exc = NULL;
  int rc = strait__unpack_args(env, s->jrt, vals, refs, argc, argv, &exc);
  if (rc) {
    if (exc) strait__rethrow_to_java(env, s->jrt, exc);
    else if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, rc, "arguments");
    return NULL;
  }
  const JSValueRef *args = argv;
  size_t n = (size_t)argc;
  if (flags & 2) {
    if (n == 0) {
      strait__throw_status(env, STRAIT_EINVAL, "callWithThis: no receiver");
      return NULL;
    }
    if (JSValueIsObject(s->ctx, argv[0])) thiz = (JSObjectRef)argv[0];
    else if (!JSValueIsUndefined(s->ctx, argv[0]) && !JSValueIsNull(s->ctx, argv[0]))
      thiz = JSValueToObject(s->ctx, argv[0], NULL);
    args++;
    n--;
  }
  JSValueRef r;
  if (flags & 1) {
    if (!JSObjectIsConstructor(s->ctx, f)) {
      exc = strait_make_error(s->ctx, "TypeError", "the function is not a constructor");
      r = NULL;
    } else {
      r = strait_call(s->jrt->rt, f, NULL, 1, n, args, &exc);
    }
  } else {
    r = strait_call(s->jrt->rt, f, thiz, 0, n, args, &exc);
  }
  return finish(env, s, owner, r, exc);
}

/* Natives.call: calls or constructs fn. Any Java thread; re-entrant
 * on the thread already inside. */
static jobject JNICALL n_call(JNIEnv *env, jclass c, jlong peer, jobject owner, jlong fn,
                              jint flags, jlongArray vals, jobjectArray refs, jint argc) {
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return NULL;
  JSObjectRef f = (JSObjectRef)strait__handle_value(fn);
  jobject out = call_packed(env, &s, owner, f, NULL, flags, vals, refs, argc);
  strait__native_leave(env, &s);
  return out;
}

/* obj[k](...args) with this = obj, or obj(...args) when k is NULL;
 * JsProxyHandler.ABSENT when the member is undefined or null, NOT_FUNCTION
 * when it is not callable. Enters and leaves the runtime. */
static jobject invoke_member(JNIEnv *env, jlong peer, jobject owner, jlong obj, JSStringRef k,
                             jlongArray vals, jobjectArray refs, jint argc) {
  strait__native s;
  jobject out = NULL;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer)) == 0) {
    JSObjectRef o = obj_of(&s, obj);
    JSValueRef exc = NULL;
    JSValueRef m = k ? JSObjectGetProperty(s.ctx, o, k, &exc) : o;
    if (exc) {
      strait__rethrow_to_java(env, s.jrt, exc);
    } else if (JSValueIsUndefined(s.ctx, m) || JSValueIsNull(s.ctx, m)) {
      out = (*env)->NewLocalRef(env, strait__proxy_absent);
    } else if (!JSValueIsObject(s.ctx, m) || !JSObjectIsFunction(s.ctx, (JSObjectRef)m)) {
      out = (*env)->NewLocalRef(env, strait__proxy_not_function);
    } else {
      out = call_packed(env, &s, owner, (JSObjectRef)m, o, 0, vals, refs, argc);
    }
    strait__native_leave(env, &s);
  }
  return out;
}

/* Natives.invokeMember: invoke_member with a Java string name (null:
 * call obj itself). Any Java thread. */
static jobject JNICALL n_invoke_member(JNIEnv *env, jclass c, jlong peer, jobject owner,
                                       jlong obj, jstring name, jlongArray vals,
                                       jobjectArray refs, jint argc) {
  JSStringRef k = NULL;
  if (name && !(k = key_of(env, name))) return NULL;
  jobject out = invoke_member(env, peer, owner, obj, k, vals, refs, argc);
  if (k) JSStringRelease(k);
  return out;
}

/* Natives.invokeNamed: invoke_member with an interned name (0: call
 * obj itself). Any Java thread. */
static jobject JNICALL n_invoke_named(JNIEnv *env, jclass c, jlong peer, jobject owner,
                                      jlong obj, jlong name, jlongArray vals,
                                      jobjectArray refs, jint argc) {
  return invoke_member(env, peer, owner, obj, (JSStringRef)(intptr_t)name, vals, refs, argc);
}

/* Natives.internName: a JSStringRef of name that is never released
 * (JsProxyHandler keeps one per distinct method name for the process). Any
 * thread; no runtime needed. */
static jlong JNICALL n_intern_name(JNIEnv *env, jclass c, jstring name) {
  JSStringRef k = key_of(env, name);
  return (jlong)(intptr_t)k;
}

/* Kind of obj[name]: 0 undefined/null, 1 function, 2 other. Inside. */
static int member_kind(JSContextRef ctx, JSObjectRef o, JSStringRef k) {
  JSValueRef m = JSObjectGetProperty(ctx, o, k, NULL);
  if (!m || JSValueIsUndefined(ctx, m) || JSValueIsNull(ctx, m)) return 0;
  return JSValueIsObject(ctx, m) && JSObjectIsFunction(ctx, (JSObjectRef)m) ? 1 : 2;
}

/* Natives.memberKinds: the kind of each obj[names[i]]. Any Java
 * thread. */
static jintArray JNICALL n_member_kinds(JNIEnv *env, jclass c, jlong peer, jlong obj,
                                        jobjectArray names) {
  jsize n = (*env)->GetArrayLength(env, names);
  if (n > 4096) {
    strait__throw(env, strait__jc.IllegalArgumentException, "memberKinds: more than 4096 names");
    return NULL;
  }
  jint kinds[n > 0 ? n : 1];
  strait__native s;
  if (strait__native_enter(env, &s, STRAIT__PEER(peer))) return NULL;
  JSObjectRef o = obj_of(&s, obj);
  for (jsize i = 0; i < n; i++) {
    jstring js = (*env)->GetObjectArrayElement(env, names, i);
    JSStringRef k = js ? strait__jsstring_from_java(env, js) : NULL;
    if (js) (*env)->DeleteLocalRef(env, js);
    if (!k) {
      if (!strait__native_leave(env, &s) && !(*env)->ExceptionCheck(env))
        strait__throw_status(env, STRAIT_ENOMEM, "memberKinds");
      return NULL;
    }
    kinds[i] = member_kind(s.ctx, o, k);
    JSStringRelease(k);
  }
  if (strait__native_leave(env, &s)) return NULL;
  jintArray out = (*env)->NewIntArray(env, n);
  if (out) (*env)->SetIntArrayRegion(env, out, 0, n, kinds);
  return out;
}

/* Natives.enterArgs: enters the runtime's gate for the Java code
 * that registers a call's Java arguments in the runtime's ObjectTable
 * (which only the thread inside may touch), after releasing the bridge's
 * queued dead wrappers and entering the objects JS constructed into that
 * table, so no release and no registration of the same object happens
 * between the registration and the call (jb_wrap_registered's rule). The
 * caller then makes its call (re-entrant) and always calls leaveArgs.
 * Throws (JsInterruptedException, "runtime closed") and stays out when the
 * wait fails. Any Java thread. */
static void JNICALL n_enter_args(JNIEnv *env, jclass c, jlong peer) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  if (strait__java_enter(env, jrt)) return;
  jb_rt *b = jrt->bridge;
  if (b) {
    jb_maybe_flush(env, b);
    if (b->nunreg) jb_register_pending(env, b);
  }
}

/* Natives.leaveArgs: leaves the stay of enterArgs (drains the
 * microtasks when it is the outermost, under an entry frame, so a
 * microtask's close() knows it is called from inside). The thread inside
 * only. */
static void JNICALL n_leave_args(JNIEnv *env, jclass c, jlong peer) {
  strait__native n;
  strait__native_push(&n, STRAIT__PEER(peer));
  strait__native_leave(env, &n);   /* its jobs stopped: the termination's exception */
}

/* Natives.objectTable: the runtime's org.strait.internal.ObjectTable (set
 * when the bridge is attached, constant afterwards), or null without the
 * bridge. Any Java thread holding an in-flight count. */
static jobject JNICALL n_object_table(JNIEnv *env, jclass c, jlong peer) {
  jb_rt *b = STRAIT__PEER(peer)->bridge;
  return b && b->table ? (*env)->NewLocalRef(env, b->table) : NULL;
}

const JNINativeMethod strait__interop_natives[] = {
    {"get", "(JLjava/lang/Object;JLjava/lang/String;)Ljava/lang/Object;", (void *)n_get},
    {"getAt", "(JLjava/lang/Object;JI)Ljava/lang/Object;", (void *)n_get_at},
    {"set", "(JJLjava/lang/String;[J[Ljava/lang/Object;)V", (void *)n_set},
    {"setAt", "(JJI[J[Ljava/lang/Object;)V", (void *)n_set_at},
    {"has", "(JJLjava/lang/String;)Z", (void *)n_has},
    {"delete", "(JJLjava/lang/String;)Z", (void *)n_delete},
    {"keys", "(JJ)[Ljava/lang/String;", (void *)n_keys},
    {"length", "(JJ)J", (void *)n_length},
    {"call", "(JLjava/lang/Object;JI[J[Ljava/lang/Object;I)Ljava/lang/Object;",
     (void *)n_call},
    {"invokeMember",
     "(JLjava/lang/Object;JLjava/lang/String;[J[Ljava/lang/Object;I)Ljava/lang/Object;",
     (void *)n_invoke_member},
    {"invokeNamed",
     "(JLjava/lang/Object;JJ[J[Ljava/lang/Object;I)Ljava/lang/Object;",
     (void *)n_invoke_named},
    {"internName", "(Ljava/lang/String;)J", (void *)n_intern_name},
    {"memberKinds", "(JJ[Ljava/lang/String;)[I", (void *)n_member_kinds},
    {"enterArgs", "(J)V", (void *)n_enter_args},
    {"leaveArgs", "(J)V", (void *)n_leave_args},
    {"objectTable", "(J)Lorg/strait/internal/ObjectTable;", (void *)n_object_table},
};
const int strait__interop_natives_count =
    (int)(sizeof strait__interop_natives / sizeof strait__interop_natives[0]);

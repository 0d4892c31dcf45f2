/*
 * codec_naive.c - the benchmark baseline: deep conversion the
 * usual way, one JNI call (or more) per value, with no buffer. JS -> Java
 * makes every box with a static valueOf, every string with NewString, every
 * container with NewObject and fills it with add/put calls; Java -> JS walks
 * Maps and Lists with instanceof checks and method calls. Plain data only
 * (no cycles, no Java wrappers). Reached from Java through
 * org.strait.bench.ValueBaselines (natives on org.strait.bench.BenchNatives);
 * linked only into the test/bench library variant (build/lib-testing).
 */
#include "base/jni_base.h"
#include "value/value.h"

#include <math.h>
#include <stdlib.h>

static struct {
  jclass ArrayList, LinkedHashMap, Map, List, Iterator, MapEntry, Set, Boolean, Number, Integer, String;
  jmethodID ArrayList_init, ArrayList_add, LinkedHashMap_init, Map_put, Map_entrySet, Set_iterator,
      Iterator_hasNext, Iterator_next, Entry_getKey, Entry_getValue, List_size, List_get,
      Boolean_valueOf, Boolean_booleanValue, Integer_valueOf, Double_valueOf, Number_doubleValue;
} nv;

/* JS value -> new Java object, recursively, one JNI call per value or more.
 * Inside the gate. */
static jobject to_java(JNIEnv *env, JSContextRef ctx, JSValueRef v) {
  switch (JSValueGetType(ctx, v)) {
    case kJSTypeBoolean:
      return (*env)->CallStaticObjectMethod(env, nv.Boolean, nv.Boolean_valueOf,
                                            (jboolean)JSValueToBoolean(ctx, v));
    case kJSTypeNumber: {
      double d = JSValueToNumber(ctx, v, NULL);
      jint i = (jint)d;
      if (d >= -2147483648.0 && d <= 2147483647.0 && (double)i == d && !(i == 0 && signbit(d)))
        return (*env)->CallStaticObjectMethod(env, nv.Integer, nv.Integer_valueOf, i);
      return (*env)->CallStaticObjectMethod(env, strait__jc.Double, nv.Double_valueOf, d);
    }
    case kJSTypeString: {
      JSStringRef s = JSValueToStringCopy(ctx, v, NULL);
      jstring r = (*env)->NewString(env, JSStringGetCharactersPtr(s), (jsize)JSStringGetLength(s));
      JSStringRelease(s);
      return r;
    }
    case kJSTypeObject: {
      JSObjectRef o = (JSObjectRef)v;
      if (JSValueIsArray(ctx, o)) {
        JSStringRef ls = JSStringCreateWithUTF8CString("length");
        unsigned n = (unsigned)JSValueToNumber(ctx, JSObjectGetProperty(ctx, o, ls, NULL), NULL);
        JSStringRelease(ls);
        jobject list = (*env)->NewObject(env, nv.ArrayList, nv.ArrayList_init, (jint)n);
        for (unsigned i = 0; i < n; i++) {
          jobject e = to_java(env, ctx, JSObjectGetPropertyAtIndex(ctx, o, i, NULL));
          (*env)->CallBooleanMethod(env, list, nv.ArrayList_add, e);
          if (e) (*env)->DeleteLocalRef(env, e);
        }
        return list;
      }
      JSPropertyNameArrayRef names = JSObjectCopyPropertyNames(ctx, o);
      size_t n = JSPropertyNameArrayGetCount(names);
      jobject map = (*env)->NewObject(env, nv.LinkedHashMap, nv.LinkedHashMap_init);
      for (size_t i = 0; i < n; i++) {
        JSStringRef k = JSPropertyNameArrayGetNameAtIndex(names, i);
        jstring jk = (*env)->NewString(env, JSStringGetCharactersPtr(k), (jsize)JSStringGetLength(k));
        jobject e = to_java(env, ctx, JSObjectGetProperty(ctx, o, k, NULL));
        jobject old = (*env)->CallObjectMethod(env, map, nv.Map_put, jk, e);
        if (old) (*env)->DeleteLocalRef(env, old);
        (*env)->DeleteLocalRef(env, jk);
        if (e) (*env)->DeleteLocalRef(env, e);
      }
      JSPropertyNameArrayRelease(names);
      return map;
    }
    default:
      return NULL;
  }
}

/* Java object -> JS value, recursively (String, Boolean, Number, Map, List).
 * Inside the gate. */
static JSValueRef to_js(JNIEnv *env, JSContextRef ctx, jobject o) {
  if (!o) return JSValueMakeNull(ctx);
  if ((*env)->IsInstanceOf(env, o, nv.String)) {
    jsize n = (*env)->GetStringLength(env, o);
    JSChar sb[256];
    JSChar *c = n <= 256 ? sb : malloc((size_t)n * sizeof(JSChar));
    (*env)->GetStringRegion(env, o, 0, n, c);
    JSStringRef s = JSStringCreateWithCharacters(c, (size_t)n);
    if (c != sb) free(c);
    JSValueRef r = JSValueMakeString(ctx, s);
    JSStringRelease(s);
    return r;
  }
  if ((*env)->IsInstanceOf(env, o, nv.Boolean))
    return JSValueMakeBoolean(ctx, (*env)->CallBooleanMethod(env, o, nv.Boolean_booleanValue));
  if ((*env)->IsInstanceOf(env, o, nv.Number))
    return JSValueMakeNumber(ctx, (*env)->CallDoubleMethod(env, o, nv.Number_doubleValue));
  if ((*env)->IsInstanceOf(env, o, nv.Map)) {
    JSObjectRef obj = JSObjectMake(ctx, NULL, NULL);
    jobject set = (*env)->CallObjectMethod(env, o, nv.Map_entrySet);
    jobject it = (*env)->CallObjectMethod(env, set, nv.Set_iterator);
    while ((*env)->CallBooleanMethod(env, it, nv.Iterator_hasNext)) {
      jobject e = (*env)->CallObjectMethod(env, it, nv.Iterator_next);
      jobject k = (*env)->CallObjectMethod(env, e, nv.Entry_getKey);
      jobject v = (*env)->CallObjectMethod(env, e, nv.Entry_getValue);
      jsize n = (*env)->GetStringLength(env, k);
      JSChar sb[256];
      JSChar *c = n <= 256 ? sb : malloc((size_t)n * sizeof(JSChar));
      (*env)->GetStringRegion(env, k, 0, n, c);
      JSStringRef ks = JSStringCreateWithCharacters(c, (size_t)n);
      if (c != sb) free(c);
      JSObjectSetProperty(ctx, obj, ks, to_js(env, ctx, v), kJSPropertyAttributeNone, NULL);
      JSStringRelease(ks);
      (*env)->DeleteLocalRef(env, e);
      (*env)->DeleteLocalRef(env, k);
      if (v) (*env)->DeleteLocalRef(env, v);
    }
    (*env)->DeleteLocalRef(env, it);
    (*env)->DeleteLocalRef(env, set);
    return obj;
  }
  if ((*env)->IsInstanceOf(env, o, nv.List)) {
    jint n = (*env)->CallIntMethod(env, o, nv.List_size);
    JSObjectRef arr = JSObjectMakeArray(ctx, 0, NULL, NULL);
    for (jint i = 0; i < n; i++) {
      jobject e = (*env)->CallObjectMethod(env, o, nv.List_get, i);
      JSObjectSetPropertyAtIndex(ctx, arr, (unsigned)i, to_js(env, ctx, e), NULL);
      if (e) (*env)->DeleteLocalRef(env, e);
    }
    return arr;
  }
  return JSValueMakeUndefined(ctx);
}

/* BenchNatives.codecNaiveToJava(peer, handle): the baseline JS -> Java. Any
 * Java thread. */
static jobject JNICALL n_naive_to_java(JNIEnv *env, jclass cls, jlong peer, jlong handle) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  if (strait__java_enter(env, jrt)) return NULL;
  jobject r = to_java(env, strait_runtime_context(jrt->rt), strait__handle_value(handle));
  strait_leave(jrt->rt);
  return r;
}

/* BenchNatives.codecNaiveToJs(peer, owner, value): the baseline Java -> JS,
 * returned as eval returns values. Any Java thread. */
static jobject JNICALL n_naive_to_js(JNIEnv *env, jclass cls, jlong peer, jobject owner, jobject value) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  if (strait__java_enter(env, jrt)) return NULL;
  JSValueRef v = to_js(env, strait_runtime_context(jrt->rt), value);
  jobject r = strait__to_java(env, jrt, owner, v);
  strait_leave(jrt->rt);
  return r;
}

const JNINativeMethod strait__codec_naive_natives[] = {
    {"codecNaiveToJava", "(JJ)Ljava/lang/Object;", (void *)n_naive_to_java},
    {"codecNaiveToJs", "(JLjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", (void *)n_naive_to_js},
};
const int strait__codec_naive_natives_count =
    (int)(sizeof strait__codec_naive_natives / sizeof strait__codec_naive_natives[0]);

static const strait__jid naive_ids[] = {
    JID_CLASS(nv, ArrayList, "java/util/ArrayList"),
    JID_CLASS(nv, LinkedHashMap, "java/util/LinkedHashMap"),
    JID_CLASS(nv, Map, "java/util/Map"),
    JID_CLASS(nv, List, "java/util/List"),
    JID_CLASS(nv, Iterator, "java/util/Iterator"),
    JID_CLASS(nv, MapEntry, "java/util/Map$Entry"),
    JID_CLASS(nv, Set, "java/util/Set"),
    JID_CLASS(nv, Boolean, "java/lang/Boolean"),
    JID_CLASS(nv, Number, "java/lang/Number"),
    JID_CLASS(nv, Integer, "java/lang/Integer"),
    JID_CLASS(nv, String, "java/lang/String"),
    JID_METHOD(nv, ArrayList_init, nv.ArrayList, "<init>", "(I)V"),
    JID_METHOD(nv, ArrayList_add, nv.ArrayList, "add", "(Ljava/lang/Object;)Z"),
    JID_METHOD(nv, LinkedHashMap_init, nv.LinkedHashMap, "<init>", "()V"),
    JID_METHOD(nv, Map_put, nv.Map, "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
    JID_METHOD(nv, Map_entrySet, nv.Map, "entrySet", "()Ljava/util/Set;"),
    JID_METHOD(nv, Set_iterator, nv.Set, "iterator", "()Ljava/util/Iterator;"),
    JID_METHOD(nv, Iterator_hasNext, nv.Iterator, "hasNext", "()Z"),
    JID_METHOD(nv, Iterator_next, nv.Iterator, "next", "()Ljava/lang/Object;"),
    JID_METHOD(nv, Entry_getKey, nv.MapEntry, "getKey", "()Ljava/lang/Object;"),
    JID_METHOD(nv, Entry_getValue, nv.MapEntry, "getValue", "()Ljava/lang/Object;"),
    JID_METHOD(nv, List_size, nv.List, "size", "()I"),
    JID_METHOD(nv, List_get, nv.List, "get", "(I)Ljava/lang/Object;"),
    JID_METHOD(nv, Boolean_booleanValue, nv.Boolean, "booleanValue", "()Z"),
    JID_METHOD(nv, Number_doubleValue, nv.Number, "doubleValue", "()D"),
    JID_SMETHOD(nv, Boolean_valueOf, nv.Boolean, "valueOf", "(Z)Ljava/lang/Boolean;"),
    JID_SMETHOD(nv, Integer_valueOf, nv.Integer, "valueOf", "(I)Ljava/lang/Integer;"),
    JID_SMETHOD(nv, Double_valueOf, strait__jc.Double, "valueOf", "(D)Ljava/lang/Double;"),
};

/* Caches the classes of the naive converter. Once, from
 * strait__testing_init (tests/jni/testing.c). */
int strait__codec_naive_init(JNIEnv *env) {
  return strait__ids_load(env, naive_ids, JID_COUNT(naive_ids));
}

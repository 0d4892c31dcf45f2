/*
 * bridge_bench.c - the floors the bridge's benchmark rows are compared
 * with, measured in the same process: an empty JSC callback
 * (Java.__bench.empty) and the raw JNI call each row makes, timed in a C
 * loop with cached IDs (Java.__bench.jni(kind, n, obj) -> ns per call).
 * Test and benchmark support only: linked only into the test/bench library
 * variant (build/lib-testing), installed on request
 * (org.strait.testing.TestNatives.bridgeBenchInstall), never in a product
 * runtime.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "call/call.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Monotonic clock in ns. Any thread. */
static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Java.__bench.empty(): an empty callback (the JSC half of a floor). */
static JSValueRef bench_empty(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc) {
  return JSValueMakeUndefined(ctx);
}

/* Java.__bench.emptyClass(): an empty callback of a JSClass with private
 * data (the kind of function the bridge's methods are). */
static JSValueRef bench_empty_private(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                      const JSValueRef argv[], JSValueRef *exc) {
  return JSObjectGetPrivate(fn) ? JSValueMakeUndefined(ctx) : NULL;
}

/* Java.__bench.token(obj): gives obj a finalizing token the way a wrapper
 * gets one (the JSC share of creating a wrapper), with a dead slot code. */
static JSValueRef bench_token(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  if (!b || argc < 1 || !JSValueIsObject(ctx, argv[0])) return JSValueMakeUndefined(ctx);
  JSObjectRef tok = JSObjectMake(ctx, b->token_class, NULL);
  JSObjectSetPropertyForKey(ctx, (JSObjectRef)argv[0], b->token_key, tok, kJSPropertyAttributeDontEnum, NULL);
  return argv[0];
}

/* Java.__bench.jni(kind, n, obj): ns per raw JNI call of kind. */
static JSValueRef bench_jni(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                            const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = JSObjectGetPrivate(fn);
  JNIEnv *env = strait__env();
  if (argc < 2) return JSValueMakeUndefined(ctx);
  char *kind = strait_utf8_from_value(ctx, argv[0], NULL);
  long n = (long)JSValueToNumber(ctx, argv[1], NULL);
  jb_entry *e = argc > 2 && JSValueIsObject(ctx, argv[2]) ? jb_entry_of(b, (JSObjectRef)argv[2]) : NULL;
  jobject o = e ? e->ref : NULL;
  jobject o2 = argc > 3 && JSValueIsObject(ctx, argv[3]) && jb_entry_of(b, (JSObjectRef)argv[3])
                   ? jb_entry_of(b, (JSObjectRef)argv[3])->ref : NULL;
  double t0 = now_ns(), t1 = t0;
  jvalue a[3];
  if (!kind) return JSValueMakeUndefined(ctx);
  if (strcmp(kind, "size") == 0 && o) {
    jclass c = (*env)->GetObjectClass(env, o);
    jmethodID m = (*env)->GetMethodID(env, c, "size", "()I");
    t0 = now_ns();
    for (long i = 0; i < n; i++) (*env)->CallIntMethodA(env, o, m, a);
    t1 = now_ns();
    (*env)->DeleteLocalRef(env, c);
  } else if (strcmp(kind, "max") == 0) {
    jclass c = (*env)->FindClass(env, "java/lang/Math");
    jmethodID m = (*env)->GetStaticMethodID(env, c, "max", "(DD)D");
    t0 = now_ns();
    for (long i = 0; i < n; i++) { a[0].d = 1.5; a[1].d = (double)i; (*env)->CallStaticDoubleMethodA(env, c, m, a); }
    t1 = now_ns();
    (*env)->DeleteLocalRef(env, c);
  } else if (strcmp(kind, "append") == 0 && o) {
    jclass c = (*env)->GetObjectClass(env, o);
    jmethodID m = (*env)->GetMethodID(env, c, "append", "(Ljava/lang/String;)Ljava/lang/StringBuilder;");
    jmethodID setlen = (*env)->GetMethodID(env, c, "setLength", "(I)V");
    const JSChar x = 'x';
    t0 = now_ns();
    for (long i = 0; i < n; i++) {
      a[0].l = (*env)->NewString(env, &x, 1);
      jobject r = (*env)->CallObjectMethodA(env, o, m, a);
      (*env)->DeleteLocalRef(env, r);
      (*env)->DeleteLocalRef(env, a[0].l);
      if ((i & 1023) == 0) (*env)->CallVoidMethod(env, o, setlen, 0);
    }
    t1 = now_ns();
    (*env)->DeleteLocalRef(env, c);
  } else if (strcmp(kind, "new") == 0) {
    jmethodID m = (*env)->GetMethodID(env, strait__jc.Object, "<init>", "()V");
    t0 = now_ns();
    for (long i = 0; i < n; i++) (*env)->DeleteLocalRef(env, (*env)->NewObjectA(env, strait__jc.Object, m, a));
    t1 = now_ns();
  } else if (strcmp(kind, "getstatic") == 0) {
    jfieldID f = (*env)->GetStaticFieldID(env, strait__jc.Integer, "MAX_VALUE", "I");
    volatile jint s = 0;
    t0 = now_ns();
    for (long i = 0; i < n; i++) s += (*env)->GetStaticIntField(env, strait__jc.Integer, f);
    t1 = now_ns();
  } else if (strcmp(kind, "arrayget") == 0 && o) {
    jint v;
    volatile jint s = 0;
    t0 = now_ns();
    for (long i = 0; i < n; i++) { (*env)->GetIntArrayRegion(env, o, (jsize)(i % 10), 1, &v); s += v; }
    t1 = now_ns();
  } else if (strcmp(kind, "arrayset") == 0 && o) {
    t0 = now_ns();
    for (long i = 0; i < n; i++) { jint v = (jint)i; (*env)->SetIntArrayRegion(env, o, (jsize)(i % 10), 1, &v); }
    t1 = now_ns();
  } else if (strcmp(kind, "objargs3") == 0 && o && o2) {
    /* list.set-like call with three objects: Objects.hash? use a static
     * (Object,Object,Object) method: java.util.Objects.equals(a,b) x1.5 */
    jclass c = (*env)->FindClass(env, "java/util/List");
    jmethodID m = (*env)->GetStaticMethodID(env, c, "of", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/List;");
    a[0].l = o; a[1].l = o2; a[2].l = o;
    t0 = now_ns();
    for (long i = 0; i < n; i++) (*env)->DeleteLocalRef(env, (*env)->CallStaticObjectMethodA(env, c, m, a));
    t1 = now_ns();
    (*env)->DeleteLocalRef(env, c);
  }
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  free(kind);
  return JSValueMakeNumber(ctx, n > 0 ? (t1 - t0) / (double)n : 0);
}

/* Defines Java.__bench (empty, emptyClass, token, jni). Inside the gate. */
static void jb_bench_install(jb_rt *b, JSContextRef ctx, JSObjectRef java) {
  JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
  strait_set_function(ctx, o, "empty", bench_empty);
  strait_set_function(ctx, o, "token", bench_token);
  JSClassDefinition d = kJSClassDefinitionEmpty;
  d.className = "jni";
  d.callAsFunction = bench_jni;
  JSClassRef cls = JSClassCreate(&d);
  JSObjectRef f = JSObjectMake(ctx, cls, b);
  JSClassRelease(cls);
  strait_set_property(ctx, o, "jni", f, kJSPropertyAttributeDontEnum);
  JSClassDefinition e = kJSClassDefinitionEmpty;
  e.className = "emptyClass";
  e.callAsFunction = bench_empty_private;
  JSClassRef ecls = JSClassCreate(&e);
  strait_set_property(ctx, o, "emptyClass", JSObjectMake(ctx, ecls, b), kJSPropertyAttributeDontEnum);
  JSClassRelease(ecls);
  strait_set_property(ctx, java, "__bench", o, kJSPropertyAttributeDontEnum);
}

/* TestNatives.bridgeBenchInstall(peer): defines Java.__bench on the
 * runtime's Java object (the bridge is attached by JsRuntime.create()).
 * Throws IllegalStateException without the bridge. Any Java thread (enters
 * the gate). */
static void JNICALL n_bridge_bench_install(JNIEnv *env, jclass cls, jlong peer) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  int rc = strait_enter(jrt->rt);
  if (rc) {
    strait__throw_status(env, rc, "bridgeBenchInstall");
    return;
  }
  jb_rt *b = jrt->bridge;
  JSGlobalContextRef ctx = strait_runtime_context(jrt->rt);
  JSStringRef name = JSStringCreateWithUTF8CString("Java");
  JSValueRef java = b ? JSObjectGetProperty(ctx, JSContextGetGlobalObject(ctx), name, NULL) : NULL;
  JSStringRelease(name);
  if (java && JSValueIsObject(ctx, java)) jb_bench_install(b, ctx, (JSObjectRef)java);
  else (*env)->ThrowNew(env, strait__jc.IllegalStateException, "bridgeBenchInstall: no Java bridge");
  strait_leave(jrt->rt);
}

const JNINativeMethod strait__bridge_bench_natives[] = {
    {"bridgeBenchInstall", "(J)V", (void *)n_bridge_bench_install},
};
const int strait__bridge_bench_natives_count =
    (int)(sizeof strait__bridge_bench_natives / sizeof strait__bridge_bench_natives[0]);

/*
 * floors.c - bench-floors: the cost floors of the stack strait is built on,
 * measured in one process that holds both a JVM (created through the JNI
 * invocation API) and a JavaScriptCore context. Every other benchmark row is
 * compared with these. This is a bench tool, so it includes <jni.h> and
 * JavaScriptCore directly.
 *
 *   bench-floors --classpath DIR            measure and print every floor row
 *   bench-floors --classpath DIR --start jvm   create the JVM, destroy it, exit
 *   bench-floors --classpath DIR --start both  JVM + JSC context + eval "1", exit
 *
 * DIR holds the compiled bench/java/core classes (org.strait.bench.Floors).
 * BENCH_FILTER=substr measures only the rows whose name contains substr.
 * Everything runs on one thread created here (not the primordial thread).
 */
#include "bench.h"
#include "jsc_util.h"
#include "jsc_private.h"   /* JSLock, JSWeakCreate (src/common) */

#include <jni.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* State shared by the floor benchmarks; owned by run(), one thread. */
typedef struct floors {
  JavaVM *vm;
  JNIEnv *env;
  JSGlobalContextRef ctx;
  jclass cls;                 /* org.strait.bench.Floors (global ref) */
  jclass obj_cls;             /* java.lang.Object (global ref) */
  jobject inst;               /* a Floors instance (global ref) */
  jmethodID static_nop, inst_nop, static_max, downcall_loop, obj_init;
  jfieldID static_obj;
  jclass int_cls;             /* java.lang.Integer (global ref) */
  jobject map;                /* a java.util.HashMap (global ref) */
  jmethodID int_value_of, map_put, map_clear;
  JSObjectRef proto;          /* a plain object, the prototype of jsc_object_weak's objects */
  JSObjectRef loop_empty, loop_two, id_fn, loop_js, loop_prop, loop_proxy, loop_proxy_set;
} floors;

static const char *opt_classpath = ".";
static const char *opt_start;   /* NULL, "jvm" or "both" */

/* Empty JS -> C callback. Runs on the JS thread with JSC's lock dropped. */
static JSValueRef cb_empty(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                           size_t argc, const JSValueRef argv[], JSValueRef *exc)
{
  return JSValueMakeUndefined(ctx);
}

/* JS -> C callback that reads two numbers and returns their sum. */
static JSValueRef cb_two(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                         size_t argc, const JSValueRef argv[], JSValueRef *exc)
{
  double a = argc > 0 ? JSValueToNumber(ctx, argv[0], exc) : 0;
  double b = argc > 1 ? JSValueToNumber(ctx, argv[1], exc) : 0;
  return JSValueMakeNumber(ctx, a + b);
}

/* Body of Floors.nativeNop(), registered with RegisterNatives. Any Java thread. */
static void JNICALL native_nop(JNIEnv *env, jclass cls)
{
}

/* Calls the JS function fn(n) once (it loops n times inside JS). */
static void call_js_loop(floors *f, JSObjectRef fn, long n)
{
  JSValueRef arg = JSValueMakeNumber(f->ctx, (double)n);
  JSValueRef exc = NULL;
  if (!JSObjectCallAsFunction(f->ctx, fn, NULL, 1, &arg, &exc)) {
    fprintf(stderr, "bench-floors: JS loop threw\n");
    exit(1);
  }
}

/* n calls of an empty JSC callback from a JS loop. */
static void b_callback_empty(void *ud, long n)
{
  floors *f = ud;
  call_js_loop(f, f->loop_empty, n);
}

/* n calls of the two-number JSC callback from a JS loop. */
static void b_callback_two(void *ud, long n)
{
  floors *f = ud;
  call_js_loop(f, f->loop_two, n);
}

/* n calls of a small JS function from a JS loop (the JIT floor). */
static void b_js_call_js(void *ud, long n)
{
  floors *f = ud;
  call_js_loop(f, f->loop_js, n);
}

/* n reads of a plain JS data property in a JS loop. */
static void b_js_property(void *ud, long n)
{
  floors *f = ud;
  call_js_loop(f, f->loop_prop, n);
}

/* n index reads of a Proxy whose get trap returns a constant, over
 * indexes cycling through 0 .. 1M-1 (what any Java array wrapper, a
 * Proxy, costs per a[i] before its own work). */
static void b_js_proxy_index(void *ud, long n)
{
  floors *f = ud;
  call_js_loop(f, f->loop_proxy, n);
}

/* n index writes p[i] = i of a Proxy whose set trap does nothing, i
 * cycling through 0 .. 7 (what any Java array wrapper costs per a[i] = v
 * before its own work: JSC takes a Proxy's set trap from C++). */
static void b_js_proxy_index_write(void *ud, long n)
{
  floors *f = ud;
  call_js_loop(f, f->loop_proxy_set, n);
}

/* n raw CallStaticIntMethod upcalls of an empty static method. */
static void b_jni_static(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  for (long i = 0; i < n; i++) (*env)->CallStaticIntMethod(env, f->cls, f->static_nop);
}

/* n raw CallIntMethod upcalls of an empty instance method. */
static void b_jni_instance(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  for (long i = 0; i < n; i++) (*env)->CallIntMethod(env, f->inst, f->inst_nop);
}

/* n raw CallStaticDoubleMethod upcalls with two double arguments. */
static void b_jni_static_dd(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  for (long i = 0; i < n; i++)
    (*env)->CallStaticDoubleMethod(env, f->cls, f->static_max, (jdouble)i, 2.5);
}

/* n NewObject(java.lang.Object) + DeleteLocalRef. */
static void b_jni_new_object(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  for (long i = 0; i < n; i++) {
    jobject o = (*env)->NewObject(env, f->obj_cls, f->obj_init);
    (*env)->DeleteLocalRef(env, o);
  }
}

/* n GetStaticObjectField + DeleteLocalRef. */
static void b_jni_static_field(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  for (long i = 0; i < n; i++) {
    jobject o = (*env)->GetStaticObjectField(env, f->cls, f->static_obj);
    (*env)->DeleteLocalRef(env, o);
  }
}

/* n HashMap.put(Integer.valueOf(j), Integer.valueOf(k)) upcalls, the map
 * cleared every 200k puts: what one map.put(j, k) of JS asks of Java (two
 * boxes and the put itself), made the cheapest way JNI allows. */
static void b_jni_hashmap_put(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  static jint j;
  for (long k = 0; k < n; k++) {
    jobject key = (*env)->CallStaticObjectMethod(env, f->int_cls, f->int_value_of, j);
    jobject val = (*env)->CallStaticObjectMethod(env, f->int_cls, f->int_value_of, (jint)k);
    jobject old = (*env)->CallObjectMethod(env, f->map, f->map_put, key, val);
    if (old) (*env)->DeleteLocalRef(env, old);
    (*env)->DeleteLocalRef(env, key);
    (*env)->DeleteLocalRef(env, val);
    if (++j == 200000) {
      j = 0;
      (*env)->CallVoidMethod(env, f->map, f->map_clear);
    }
  }
}

/* n NewGlobalRef + DeleteGlobalRef of one object (what a wrapper holds its
 * Java object with). */
static void b_jni_global_ref(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  for (long i = 0; i < n; i++) {
    jobject g = (*env)->NewGlobalRef(env, f->inst);
    (*env)->DeleteGlobalRef(env, g);
  }
}

/* n plain objects made over a prototype, each with a weak handle that is
 * released once a later object took its place in a ring of 4096 (most
 * are dead by then): the JS side of a wrapper whose death must be noticed
 * (JSObjectMake + JSObjectSetPrototype + JSWeakCreate + JSWeakRelease),
 * the VM lock held as a callback holds it. */
static void b_jsc_object_weak(void *ud, long n)
{
  floors *f = ud;
  enum { RING = 4096 };
  static JSWeakRef ring[RING];
  JSContextGroupRef g = JSContextGetGroup(f->ctx);
  JSLock(f->ctx);
  for (long i = 0; i < n; i++) {
    JSWeakRef *w = &ring[i & (RING - 1)];
    if (*w) JSWeakRelease(g, *w);
    JSObjectRef o = JSObjectMake(f->ctx, NULL, NULL);
    JSObjectSetPrototype(f->ctx, o, f->proto);
    *w = JSWeakCreate(g, o);
  }
  JSUnlock(f->ctx);
}

/* n NewString of one UTF-16 unit + DeleteLocalRef. */
static void b_jni_new_string(void *ud, long n)
{
  floors *f = ud;
  JNIEnv *env = f->env;
  static const jchar x[1] = { 'x' };
  for (long i = 0; i < n; i++) {
    jstring s = (*env)->NewString(env, x, 1);
    (*env)->DeleteLocalRef(env, s);
  }
}

/* One Java call that loops n times over an empty static native. */
static void b_jni_downcall(void *ud, long n)
{
  floors *f = ud;
  (*f->env)->CallStaticLongMethod(f->env, f->cls, f->downcall_loop, (jlong)n);
}

/* n C -> JS JSObjectCallAsFunction calls with one number argument. */
static void b_jsc_call(void *ud, long n)
{
  floors *f = ud;
  JSValueRef arg = JSValueMakeNumber(f->ctx, 1);
  for (long i = 0; i < n; i++) JSObjectCallAsFunction(f->ctx, f->id_fn, NULL, 1, &arg, NULL);
}

/* Same, with JSC's API lock held around the whole loop. */
static void b_jsc_call_locked(void *ud, long n)
{
  floors *f = ud;
  JSLock(f->ctx);
  JSValueRef arg = JSValueMakeNumber(f->ctx, 1);
  for (long i = 0; i < n; i++) JSObjectCallAsFunction(f->ctx, f->id_fn, NULL, 1, &arg, NULL);
  JSUnlock(f->ctx);
}

/* n evaluations of the script "1": string from UTF-16, evaluate, release. */
static void b_jsc_eval_1(void *ud, long n)
{
  floors *f = ud;
  static const JSChar one[1] = { '1' };
  for (long i = 0; i < n; i++) {
    JSStringRef s = JSStringCreateWithCharacters(one, 1);
    JSEvaluateScript(f->ctx, s, NULL, NULL, 1, NULL);
    JSStringRelease(s);
  }
}

/* n creations of a context group and a global context in it, then release. */
static void b_jsc_context_create(void *ud, long n)
{
  for (long i = 0; i < n; i++) {
    JSContextGroupRef g = JSContextGroupCreate();
    JSGlobalContextRef c = JSGlobalContextCreateInGroup(g, NULL);
    JSGlobalContextRelease(c);
    JSContextGroupRelease(g);
  }
}

/* The floor rows, in output order. Add a row here (see bench/README.md). */
static const struct floor_row {
  const char *name;
  bench_fn fn;
  const char *baselines;
  const char *desc;
} ROWS[] = {
  { "js_call_js", b_js_call_js, NULL,
    "JS loop calling a small JS function (JIT floor)" },
  { "js_property_read", b_js_property, NULL,
    "JS loop reading a plain data property" },
  { "js_proxy_index_read", b_js_proxy_index, "floor.js_property_read",
    "JS loop reading p[i] of a Proxy whose get trap returns 1, i cycling through 1M indexes" },
  { "js_proxy_index_write", b_js_proxy_index_write, "floor.js_proxy_index_read",
    "JS loop writing p[i & 7] = i to a Proxy whose set trap returns true" },
  { "jsc_callback_empty", b_callback_empty, "floor.js_call_js",
    "JS loop calling an empty C callback (JSObjectMakeFunctionWithCallback)" },
  { "jsc_callback_2num", b_callback_two, "floor.jsc_callback_empty",
    "same callback reading two numbers (JSValueToNumber) and returning one" },
  { "jsc_call_function", b_jsc_call, NULL,
    "C -> JS JSObjectCallAsFunction, one number argument" },
  { "jsc_call_function_locked", b_jsc_call_locked, "floor.jsc_call_function",
    "same with JSLock held by the caller" },
  { "jsc_eval_1", b_jsc_eval_1, NULL,
    "C JSEvaluateScript of \"1\" (JSStringCreateWithCharacters + release)" },
  { "jsc_context_create", b_jsc_context_create, NULL,
    "JSContextGroupCreate + JSGlobalContextCreateInGroup + release both" },
  { "jni_call_static_int", b_jni_static, NULL,
    "C -> Java CallStaticIntMethod, empty static method, cached ID" },
  { "jni_call_int", b_jni_instance, "floor.jni_call_static_int",
    "C -> Java CallIntMethod on an instance, empty method" },
  { "jni_call_static_double_2", b_jni_static_dd, "floor.jni_call_static_int",
    "C -> Java CallStaticDoubleMethod(double, double)" },
  { "jni_new_object", b_jni_new_object, NULL,
    "NewObject(java.lang.Object) + DeleteLocalRef" },
  { "jni_get_static_field", b_jni_static_field, NULL,
    "GetStaticObjectField + DeleteLocalRef" },
  { "jni_new_string_1", b_jni_new_string, NULL,
    "NewString of one UTF-16 unit + DeleteLocalRef" },
  { "jni_hashmap_put", b_jni_hashmap_put, "floor.jni_call_int",
    "C -> Java HashMap.put(Integer.valueOf(j), Integer.valueOf(k)), cleared every 200k puts (what map.put(j, k) asks of Java)" },
  { "jni_global_ref", b_jni_global_ref, NULL,
    "NewGlobalRef + DeleteGlobalRef of one object (how a wrapper holds its Java object)" },
  { "jsc_object_weak", b_jsc_object_weak, NULL,
    "JSObjectMake + JSObjectSetPrototype + JSWeakCreate, released once dead (the JS side of a wrapper)" },
  { "jni_downcall", b_jni_downcall, NULL,
    "Java loop calling an empty static native (RegisterNatives)" },
};

/* JS side of the floors: loops that run inside the engine. */
static const char FLOORS_JS[] =
  "function loopEmpty(n) { for (var i = 0; i < n; i++) cbEmpty(); }\n"
  "function loopTwo(n) { var s = 0; for (var i = 0; i < n; i++) s = cbTwo(i, 1); return s; }\n"
  "function id(x) { return x; }\n"
  "function jsInc(x) { return x + 1; }\n"
  "function loopJs(n) { var s = 0; for (var i = 0; i < n; i++) s = jsInc(s); return s; }\n"
  "var plain = { x: 1, y: 2 };\n"
  "function loopProp(n) { var s = 0; for (var i = 0; i < n; i++) s += plain.x; return s; }\n"
  "var proxy = new Proxy({}, { get: function () { return 1; } });\n"
  "function loopProxy(n) { var s = 0, j = 0; for (var i = 0; i < n; i++) { s += proxy[j]; if (++j === 1000000) j = 0; }"
  " return s; }\n"
  "var proxyW = new Proxy({}, { set: function () { return true; } });\n"
  "function loopProxySet(n) { for (var i = 0; i < n; i++) proxyW[i & 7] = i; }\n";

/* Creates the JVM on the calling thread; exits on failure. */
static void start_jvm(floors *f)
{
  char cp[4096];
  snprintf(cp, sizeof cp, "-Djava.class.path=%s", opt_classpath);
  JavaVMOption opts[1] = { { .optionString = cp } };
  JavaVMInitArgs args = { .version = JNI_VERSION_10, .nOptions = 1, .options = opts,
                          .ignoreUnrecognized = JNI_FALSE };
  if (JNI_CreateJavaVM(&f->vm, (void **)&f->env, &args) != JNI_OK) {
    fprintf(stderr, "bench-floors: JNI_CreateJavaVM failed\n");
    exit(1);
  }
}

/* Looks up a Java class, method or field; exits with the name on failure. */
static void *need(JNIEnv *env, void *p, const char *what)
{
  if (!p || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionDescribe(env);
    fprintf(stderr, "bench-floors: cannot find %s (class path %s)\n", what, opt_classpath);
    exit(1);
  }
  return p;
}

/* Caches the Java classes and IDs and registers the native. */
static void init_java(floors *f)
{
  JNIEnv *env = f->env;
  jclass c = need(env, (*env)->FindClass(env, "org/strait/bench/Floors"), "org.strait.bench.Floors");
  f->cls = (*env)->NewGlobalRef(env, c);
  f->static_nop = need(env, (*env)->GetStaticMethodID(env, c, "staticNop", "()I"), "staticNop");
  f->inst_nop = need(env, (*env)->GetMethodID(env, c, "instanceNop", "()I"), "instanceNop");
  f->static_max = need(env, (*env)->GetStaticMethodID(env, c, "max", "(DD)D"), "max");
  f->downcall_loop = need(env, (*env)->GetStaticMethodID(env, c, "downcallLoop", "(J)J"),
                          "downcallLoop");
  f->static_obj = need(env, (*env)->GetStaticFieldID(env, c, "STATIC_OBJECT", "Ljava/lang/Object;"),
                       "STATIC_OBJECT");
  jmethodID ctor = need(env, (*env)->GetMethodID(env, c, "<init>", "()V"), "Floors()");
  f->inst = (*env)->NewGlobalRef(env, (*env)->NewObject(env, c, ctor));
  JNINativeMethod nm = { "nativeNop", "()V", (void *)native_nop };
  if ((*env)->RegisterNatives(env, c, &nm, 1) != 0) need(env, NULL, "nativeNop");
  jclass oc = need(env, (*env)->FindClass(env, "java/lang/Object"), "java.lang.Object");
  f->obj_cls = (*env)->NewGlobalRef(env, oc);
  f->obj_init = need(env, (*env)->GetMethodID(env, oc, "<init>", "()V"), "Object()");
  jclass ic = need(env, (*env)->FindClass(env, "java/lang/Integer"), "java.lang.Integer");
  f->int_cls = (*env)->NewGlobalRef(env, ic);
  f->int_value_of = need(env, (*env)->GetStaticMethodID(env, ic, "valueOf", "(I)Ljava/lang/Integer;"),
                         "Integer.valueOf");
  jclass mc = need(env, (*env)->FindClass(env, "java/util/HashMap"), "java.util.HashMap");
  f->map_put = need(env, (*env)->GetMethodID(env, mc, "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
                    "HashMap.put");
  f->map_clear = need(env, (*env)->GetMethodID(env, mc, "clear", "()V"), "HashMap.clear");
  jmethodID mctor = need(env, (*env)->GetMethodID(env, mc, "<init>", "()V"), "HashMap()");
  f->map = (*env)->NewGlobalRef(env, (*env)->NewObject(env, mc, mctor));
}

/* Creates the JSC context with the callbacks and JS loops. */
static void init_jsc(floors *f)
{
  f->ctx = JSGlobalContextCreate(NULL);
  bu_define(f->ctx, "cbEmpty", cb_empty);
  bu_define(f->ctx, "cbTwo", cb_two);
  bu_eval(f->ctx, FLOORS_JS, "floors.js");
  f->loop_empty = bu_global_function(f->ctx, "loopEmpty");
  f->loop_two = bu_global_function(f->ctx, "loopTwo");
  f->id_fn = bu_global_function(f->ctx, "id");
  f->loop_js = bu_global_function(f->ctx, "loopJs");
  f->loop_prop = bu_global_function(f->ctx, "loopProp");
  f->loop_proxy = bu_global_function(f->ctx, "loopProxy");
  f->loop_proxy_set = bu_global_function(f->ctx, "loopProxySet");
  JSValueProtect(f->ctx, f->loop_proxy_set);
  f->proto = JSObjectMake(f->ctx, NULL, NULL);
  JSValueProtect(f->ctx, f->proto);
  JSValueProtect(f->ctx, f->loop_empty);
  JSValueProtect(f->ctx, f->loop_two);
  JSValueProtect(f->ctx, f->id_fn);
  JSValueProtect(f->ctx, f->loop_js);
  JSValueProtect(f->ctx, f->loop_prop);
  JSValueProtect(f->ctx, f->loop_proxy);
}

/* Measures every selected row with interleaved rounds (round r of every row,
 * then round r + 1, ...), so that machine noise hits a row and its baseline
 * alike, and prints the rows in table order. */
static void measure_all(floors *f)
{
  enum { NROWS = sizeof ROWS / sizeof ROWS[0] };
  const char *filter = getenv("BENCH_FILTER");
  long n[NROWS];
  static double v[NROWS][BENCH_MAX_ROUNDS];
  int rounds = bench_rounds();
  for (size_t i = 0; i < NROWS; i++) {
    n[i] = 0;
    if (filter && *filter && !strstr(ROWS[i].name, filter)) continue;
    n[i] = bench_calibrate(ROWS[i].fn, f);
  }
  for (int r = 0; r < rounds; r++)
    for (size_t i = 0; i < NROWS; i++)
      if (n[i]) v[i][r] = bench_round(ROWS[i].fn, f, n[i]);
  for (size_t i = 0; i < NROWS; i++)
    if (n[i]) bench_row("floor", ROWS[i].name, bench_median(v[i], rounds), ROWS[i].baselines,
                        ROWS[i].desc);
}

/* The benchmark thread: start-up modes, or every floor row. */
static void *run(void *unused)
{
  floors f = { 0 };
  start_jvm(&f);
  if (opt_start) {
    if (strcmp(opt_start, "both") == 0) {
      JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
      bu_eval(ctx, "1", "<start>");
      JSGlobalContextRelease(ctx);
    }
    (*f.vm)->DestroyJavaVM(f.vm);
    return NULL;
  }
  init_java(&f);
  init_jsc(&f);
  measure_all(&f);
  JSGlobalContextRelease(f.ctx);
  (*f.vm)->DestroyJavaVM(f.vm);
  return NULL;
}

/* Parses options and runs everything on a new thread with an 8 MiB stack. */
int main(int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--classpath") == 0 && i + 1 < argc) {
      opt_classpath = argv[++i];
    } else if (strcmp(argv[i], "--start") == 0 && i + 1 < argc &&
               (strcmp(argv[i + 1], "jvm") == 0 || strcmp(argv[i + 1], "both") == 0)) {
      opt_start = argv[++i];
    } else {
      fprintf(stderr, "usage: bench-floors [--classpath DIR] [--start jvm|both]\n");
      return 2;
    }
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 8u << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, run, NULL) != 0) {
    fprintf(stderr, "bench-floors: pthread_create failed\n");
    return 1;
  }
  pthread_join(t, NULL);
  return 0;
}

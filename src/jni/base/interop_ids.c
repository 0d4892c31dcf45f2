/*
 * interop_ids.c - the process-wide cache of classes and method IDs used by
 * JavaScript-from-Java, and the registration of the natives of
 * org.strait.InteropNatives.
 */
#include "call/interop.h"

strait__hcache strait__hc;

extern const JNINativeMethod strait__interop_natives[];
extern const int strait__interop_natives_count;
extern const JNINativeMethod strait__loop_natives[];
extern const int strait__loop_natives_count;

/* Sentinels of JsProxyHandler (global refs), read by call/java_to_js.c. */
jobject strait__proxy_absent, strait__proxy_not_function;

#define CLASS(field, name) \
  if (!(strait__hc.field = strait__global_class(env, name))) return STRAIT_EINVAL
#define METHOD(field, cls, name, sig) \
  if (!(strait__hc.field = (*env)->GetMethodID(env, strait__hc.cls, name, sig))) return STRAIT_EINVAL
#define SMETHOD(field, cls, name, sig) \
  if (!(strait__hc.field = (*env)->GetStaticMethodID(env, strait__hc.cls, name, sig))) return STRAIT_EINVAL

/* Reads static Object field `name` of cls as a new global ref, or NULL with
 * an exception pending. Init only. */
static jobject static_global(JNIEnv *env, jclass cls, const char *name) {
  jfieldID f = (*env)->GetStaticFieldID(env, cls, name, "Ljava/lang/Object;");
  if (!f) return NULL;
  jobject o = (*env)->GetStaticObjectField(env, cls, f);
  if (!o) return NULL;
  jobject g = (*env)->NewGlobalRef(env, o);
  (*env)->DeleteLocalRef(env, o);
  return g;
}

/* Fills strait__hc and registers the natives (see call/interop.h). Once, from
 * strait__jni_init(), on the loading thread. */
int strait__handles_init(JNIEnv *env) {
  CLASS(InteropNatives, "org/strait/InteropNatives");
  CLASS(JsObject, "org/strait/JsObject");
  CLASS(JsFunction, "org/strait/JsFunction");
  CLASS(JsArray, "org/strait/JsArray");
  CLASS(JsPromise, "org/strait/JsPromise");
  const char *init = "(Lorg/strait/JsRuntime;J)V";
  METHOD(JsObject_init, JsObject, "<init>", init);
  METHOD(JsFunction_init, JsFunction, "<init>", init);
  METHOD(JsArray_init, JsArray, "<init>", init);
  METHOD(JsPromise_init, JsPromise, "<init>", init);
  CLASS(JsProxyHandler, "org/strait/JsProxyHandler");
  SMETHOD(JsProxyHandler_create, JsProxyHandler, "create",
          "(Lorg/strait/JsObject;[Ljava/lang/Class;)Ljava/lang/Object;");
  SMETHOD(JsProxyHandler_abstractMethods, JsProxyHandler, "abstractMethods",
          "([Ljava/lang/Class;)[Ljava/lang/String;");
  CLASS(Runnable, "java/lang/Runnable");
  METHOD(Runnable_run, Runnable, "run", "()V");
  CLASS(Thread, "java/lang/Thread");
  SMETHOD(Thread_interrupted, Thread, "interrupted", "()Z");
  CLASS(CompletableFuture, "java/util/concurrent/CompletableFuture");
  METHOD(CompletableFuture_complete, CompletableFuture, "complete", "(Ljava/lang/Object;)Z");
  METHOD(CompletableFuture_completeExceptionally, CompletableFuture, "completeExceptionally",
         "(Ljava/lang/Throwable;)Z");
  CLASS(JsInterruptedException, "org/strait/JsInterruptedException");
  METHOD(JsInterruptedException_init, JsInterruptedException, "<init>", "(Ljava/lang/String;)V");
  if (!(strait__hc.Throwable_toString = (*env)->GetMethodID(env, strait__jc.Throwable, "toString",
                                                           "()Ljava/lang/String;")))
    return STRAIT_EINVAL;
  if (!(strait__hc.Throwable_getCause = (*env)->GetMethodID(env, strait__jc.Throwable, "getCause",
                                                           "()Ljava/lang/Throwable;")))
    return STRAIT_EINVAL;
  jclass cls = (*env)->FindClass(env, "java/lang/Class");
  if (!cls) return STRAIT_EINVAL;
  strait__hc.Class_getName = (*env)->GetMethodID(env, cls, "getName", "()Ljava/lang/String;");
  (*env)->DeleteLocalRef(env, cls);
  if (!strait__hc.Class_getName) return STRAIT_EINVAL;
  if (!(strait__hc.JsRuntime_adopt = (*env)->GetStaticMethodID(
            env, strait__jc.JsRuntime, "adopt", "(J)Lorg/strait/JsRuntime;")) ||
      !(strait__hc.JsRuntime_closeAdopted =
            (*env)->GetMethodID(env, strait__jc.JsRuntime, "closeAdopted", "()J")) ||
      !(strait__hc.JsRuntime_inFlight =
            (*env)->GetMethodID(env, strait__jc.JsRuntime, "inFlight", "()J")))
    return STRAIT_EINVAL;
  if (!(strait__hc.JsException_value = (*env)->GetFieldID(env, strait__jc.JsException, "value",
                                                         "Ljava/lang/Object;")) ||
      !(strait__hc.JsValue_runtime = (*env)->GetFieldID(env, strait__jc.JsValue, "runtime",
                                                       "Lorg/strait/JsRuntime;")))
    return STRAIT_EINVAL;
  if (!(strait__proxy_absent = static_global(env, strait__hc.JsProxyHandler, "ABSENT")))
    return STRAIT_EINVAL;
  if (!(strait__proxy_not_function =
            static_global(env, strait__hc.JsProxyHandler, "NOT_FUNCTION")))
    return STRAIT_EINVAL;
  if (strait__register(env, strait__hc.InteropNatives, strait__interop_natives,
                       strait__interop_natives_count) ||
      strait__register(env, strait__hc.InteropNatives, strait__loop_natives,
                       strait__loop_natives_count))
    return STRAIT_EINVAL;
  return 0;
}

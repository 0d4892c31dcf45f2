/*
 * interop_ids.c - the process-wide cache of classes and method IDs used by
 * JavaScript-from-Java (issue 4), strait__hc, loaded from its table (see
 * jni_util.h). Its natives are registered with the others
 * (strait__natives_register, jcache.c).
 */
#include "base/interop_ids.h"

strait__hcache strait__hc;

/* Sentinels of JsProxyHandler (global refs), read by call/java_to_js.c. */
jobject strait__proxy_absent, strait__proxy_not_function;

#define H strait__hc
static const strait__jid interop_ids[] = {
    JID_CLASS(H, JsObject, "org/strait/JsObject"),
    JID_CLASS(H, JsFunction, "org/strait/JsFunction"),
    JID_CLASS(H, JsArray, "org/strait/JsArray"),
    JID_CLASS(H, JsPromise, "org/strait/JsPromise"),
    JID_METHOD(H, JsObject_init, H.JsObject, "<init>", "(Lorg/strait/JsRuntime;J)V"),
    JID_METHOD(H, JsFunction_init, H.JsFunction, "<init>", "(Lorg/strait/JsRuntime;J)V"),
    JID_METHOD(H, JsArray_init, H.JsArray, "<init>", "(Lorg/strait/JsRuntime;J)V"),
    JID_METHOD(H, JsPromise_init, H.JsPromise, "<init>", "(Lorg/strait/JsRuntime;J)V"),
    JID_CLASS(H, JsProxyHandler, "org/strait/internal/JsProxyHandler"),
    JID_SMETHOD(H, JsProxyHandler_create, H.JsProxyHandler, "create",
                "(Lorg/strait/JsObject;[Ljava/lang/Class;)Ljava/lang/Object;"),
    JID_SMETHOD(H, JsProxyHandler_abstractMethods, H.JsProxyHandler, "abstractMethods",
                "([Ljava/lang/Class;)[Ljava/lang/String;"),
    JID_SMETHOD(H, JsProxyHandler_implicitImplementationOf, H.JsProxyHandler, "implicitImplementationOf",
                "(Ljava/lang/Object;)Lorg/strait/JsValue;"),
    JID_SMETHOD(H, JsProxyHandler_createImplicit, H.JsProxyHandler, "createImplicit",
                "(Lorg/strait/JsObject;[Ljava/lang/Class;)Ljava/lang/Object;"),
    {STRAIT__JID_SOBJECT, &strait__proxy_absent, &H.JsProxyHandler, "ABSENT", "Ljava/lang/Object;"},
    {STRAIT__JID_SOBJECT, &strait__proxy_not_function, &H.JsProxyHandler, "NOT_FUNCTION",
     "Ljava/lang/Object;"},
    JID_CLASS(H, Runnable, "java/lang/Runnable"),
    JID_METHOD(H, Runnable_run, H.Runnable, "run", "()V"),
    JID_CLASS(H, Thread, "java/lang/Thread"),
    JID_SMETHOD(H, Thread_interrupted, H.Thread, "interrupted", "()Z"),
    JID_SMETHOD(H, Thread_currentThread, H.Thread, "currentThread", "()Ljava/lang/Thread;"),
    JID_METHOD(H, Thread_interrupt, H.Thread, "interrupt", "()V"),
    JID_CLASS(H, InterruptedException, "java/lang/InterruptedException"),
    JID_CLASS(H, CompletableFuture, "java/util/concurrent/CompletableFuture"),
    JID_METHOD(H, CompletableFuture_complete, H.CompletableFuture, "complete", "(Ljava/lang/Object;)Z"),
    JID_METHOD(H, CompletableFuture_completeExceptionally, H.CompletableFuture, "completeExceptionally",
               "(Ljava/lang/Throwable;)Z"),
    JID_CLASS(H, JsInterruptedException, "org/strait/JsInterruptedException"),
    JID_METHOD(H, JsInterruptedException_init, H.JsInterruptedException, "<init>", "(Ljava/lang/String;)V"),
    JID_METHOD(H, Throwable_toString, strait__jc.Throwable, "toString", "()Ljava/lang/String;"),
    JID_METHOD(H, Throwable_getCause, strait__jc.Throwable, "getCause", "()Ljava/lang/Throwable;"),
    JID_SMETHOD(H, JsRuntime_adopt, strait__jc.JsRuntime, "adopt", "(J)Lorg/strait/JsRuntime;"),
    JID_METHOD(H, JsRuntime_closeAdopted, strait__jc.JsRuntime, "closeAdopted", "()J"),
    JID_METHOD(H, JsRuntime_inFlight, strait__jc.JsRuntime, "inFlight", "()J"),
    JID_FIELD(H, JsException_value, strait__jc.JsException, "value", "Ljava/lang/Object;"),
    JID_FIELD(H, JsValue_runtime, strait__jc.JsValue, "runtime", "Lorg/strait/JsRuntime;"),
};
#undef H

/* Fills strait__hc (see interop.h). Once, from strait__jni_init(), after
 * the core and the bridge caches. */
int strait__handles_init(JNIEnv *env) {
  return strait__ids_load(env, interop_ids, JID_COUNT(interop_ids));
}

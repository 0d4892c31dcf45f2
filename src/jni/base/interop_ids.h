/*
 * interop_ids.h - the process-wide cache of classes and IDs used by calls from
 * Java into JS (typed handles, interfaces implemented in JS, the loop,
 * futures), filled by base/interop_ids.c. The declarations of those parts
 * are in base/jni_base.h (per-runtime state), value/value.h (handles,
 * packed arguments, proxies) and call/call.h (futures).
 */
#ifndef STRAIT_INTEROP_IDS_H
#define STRAIT_INTEROP_IDS_H

#include "base/jni_base.h"

/* ---- process-wide cache (base/interop_ids.c) ------------------------------ */

typedef struct strait__hcache {
  jclass JsObject, JsFunction, JsArray, JsPromise;
  jmethodID JsObject_init, JsFunction_init, JsArray_init, JsPromise_init;
  jclass JsProxyHandler;
  /* static Object create(JsObject impl, Class[] ifaces) */
  jmethodID JsProxyHandler_create;
  /* static String[] abstractMethods(Class[] ifaces) */
  jmethodID JsProxyHandler_abstractMethods;
  /* static Object createImplicit(JsObject impl, Class[] ifaces) */
  jmethodID JsProxyHandler_createImplicit;
  /* static JsValue implicitImplementationOf(Object proxy) */
  jmethodID JsProxyHandler_implicitImplementationOf;
  jclass Runnable;
  jmethodID Runnable_run;
  jclass Thread;
  jmethodID Thread_interrupted;         /* static ()Z, clears the flag */
  jmethodID Thread_currentThread;       /* static ()Ljava/lang/Thread; */
  jmethodID Thread_interrupt;           /* ()V */
  jclass InterruptedException;
  jclass CompletableFuture;
  jmethodID CompletableFuture_complete, CompletableFuture_completeExceptionally;
  jclass JsInterruptedException;
  jmethodID JsInterruptedException_init;
  jmethodID Throwable_toString;         /* Object.toString on a Throwable */
  jmethodID Throwable_getCause;         /* ()Ljava/lang/Throwable; */
  jmethodID JsRuntime_adopt;            /* static (long) JsRuntime */
  jmethodID JsRuntime_closeAdopted;     /* ()J */
  jmethodID JsRuntime_inFlight;         /* ()J */
  jfieldID JsException_value;           /* Object (private) */
  jfieldID JsValue_runtime;             /* JsRuntime (private) */
} strait__hcache;

/* JsProxyHandler.ABSENT / NOT_FUNCTION (global refs). */
extern jobject strait__proxy_absent, strait__proxy_not_function;

extern strait__hcache strait__hc;

/* Fills strait__hc from its table (interop_ids.c). Once per process, from
 * strait__jni_init() after the core and the bridge. 0 or a negative status
 * with a Java exception pending. */
int strait__handles_init(JNIEnv *env);

#endif /* STRAIT_INTEROP_IDS_H */

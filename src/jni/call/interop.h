/*
 * interop.h - JavaScript seen from Java (issue 4): typed handles
 * (JsObject, JsFunction, JsArray, JsPromise), calls from any Java thread,
 * interfaces implemented in JS (java.lang.reflect.Proxy), the event loop
 * driven from Java, and the per-runtime state bound to a runtime's lifetime.
 *
 * Files: handles_*.c (handles, properties, calls, argument packing),
 * proxy_*.c (interfaces implemented by JS objects), threads_*.c (the gate
 * entry used by Java threads, posting and running the loop, futures).
 * Java side: org.strait.internal.Natives declares the natives (registered
 * by strait__natives_register, base/jcache.c).
 */
#ifndef STRAIT_HANDLES_H
#define STRAIT_HANDLES_H

#include "base/jni_base.h"

/* ---- process-wide cache (handles_init.c) ------------------------------ */

typedef struct strait__hcache {
  jclass JsObject, JsFunction, JsArray, JsPromise;
  jmethodID JsObject_init, JsFunction_init, JsArray_init, JsPromise_init;
  jclass JsProxyHandler;
  /* static Object create(JsObject impl, Class[] ifaces) */
  jmethodID JsProxyHandler_create;
  /* static String[] abstractMethods(Class[] ifaces) */
  jmethodID JsProxyHandler_abstractMethods;
  jclass Runnable;
  jmethodID Runnable_run;
  jclass Thread;
  jmethodID Thread_interrupted;         /* static ()Z, clears the flag */
  jclass CompletableFuture;
  jmethodID CompletableFuture_complete, CompletableFuture_completeExceptionally;
  jclass JsInterruptedException;
  jmethodID JsInterruptedException_init;
  jmethodID Throwable_toString;         /* Object.toString on a Throwable */
  jmethodID Throwable_getCause;         /* ()Ljava/lang/Throwable; */
  jmethodID Class_getName;
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

/* Number of runtimes made by JsRuntime.create() whose engine is not freed
 * yet, process-wide (jsruntime.c; exposed to tests by tests/jni/testprobe.c). Any
 * thread. */
long strait__jrt_live_embedded(void);

/* ---- per-runtime state (handles_state.c) ------------------------------- */

/* A CompletableFuture waiting for a JS promise (threads_future.c). */
typedef struct strait__pending_future strait__pending_future;

/*
 * The state issue 4 keeps per runtime, hung off strait__jrt.interop and
 * freed by strait__handles_state_free() from the runtime's teardown (inside
 * the gate), which settles every pending future with "runtime closed".
 * Touched only inside the gate, except `loop_error` (see threads_loop.c).
 */
typedef struct strait__hstate {
  JSObjectRef promise_ctor;       /* protected: the realm's Promise, captured
                                   * when the state is made: for
                                   * JsRuntime.create() before any script */
  strait__pending_future *futures;/* doubly linked, inside the gate */
  jobject loop_error;             /* global ref: a posted Runnable threw */
  jobject adopted;                /* global ref: JsRuntime made for a launcher runtime */
} strait__hstate;

/*
 * The org.strait.JsRuntime that owns jrt's handles, as a new local ref:
 * the embedding JsRuntime, or (launcher) one adopted on first use, which
 * the teardown closes and drains. NULL with a Java exception pending.
 * Inside the gate.
 */
jobject strait__owner_of(JNIEnv *env, strait__jrt *jrt);

/* The interop state of jrt, created on first use; NULL when out of memory.
 * Inside the gate. */
strait__hstate *strait__hstate_of(strait__jrt *jrt);

/* Releases jrt's interop state (teardown, inside the gate). */
void strait__handles_state_free(strait__jrt *jrt, JNIEnv *env);

/* ---- conversions (handles_conv.c) -------------------------------------- */

/* Like strait__handle_wrap(), but always a handle (never the Java object
 * behind a bridge wrapper): JsFunction for a function, else JsObject. */
jobject strait__handle_wrap_as_object(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v);

/*
 * A new typed handle for the JS object v: JsFunction, JsArray, JsPromise or
 * JsObject, holding one JSValueProtect (strait__handle_make). NULL with a
 * Java exception pending on failure. Inside the gate.
 */
jobject strait__handle_wrap(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v);

/*
 * Packed arguments from Java (InteropNatives.pack in Java writes them):
 * long[] vals holds argc values, then the argc type tags one per byte;
 * Object[] refs (may be NULL) holds the String / Java object of argument i
 * at index i. Tags are the STRAIT__ARG_* below.
 */
enum {
  STRAIT__ARG_UNDEFINED = 0,
  STRAIT__ARG_NULL = 1,
  STRAIT__ARG_FALSE = 2,
  STRAIT__ARG_TRUE = 3,
  STRAIT__ARG_INT = 4,        /* vals[i] is the int */
  STRAIT__ARG_DOUBLE = 5,     /* vals[i] holds the double's bits */
  STRAIT__ARG_STRING = 6,     /* refs[i] is a java.lang.String */
  STRAIT__ARG_HANDLE = 7,     /* vals[i] is a JsValue handle of this runtime */
  STRAIT__ARG_JAVA = 8,       /* refs[i] is a Java object for the bridge */
  STRAIT__ARG_BIGINT = 9,     /* vals[i] is a long beyond 2^53: a BigInt */
  STRAIT__ARG_JAVA_REG = 10,  /* refs[i] is a Java object and vals[i] what the
                               * runtime's ObjectTable.register() returned for
                               * it, inside this same stay of the gate (see
                               * InteropNatives.enterArgs): no upcall */
};

/*
 * Turns packed arguments into JS values in out[0..argc). Returns 0, or
 * STRAIT_EJS with *exc set (a Java object the bridge cannot wrap).
 * Releases the bridge's queued dead wrappers first when a Java object is
 * wrapped by the hint path (STRAIT__ARG_JAVA), never when the arguments
 * were registered by Java (STRAIT__ARG_JAVA_REG). Inside the gate.
 */
int strait__unpack_args(JNIEnv *env, strait__jrt *jrt, jlongArray packed, jobjectArray refs,
                        int argc, JSValueRef *out, JSValueRef *exc);

/*
 * Throws, into Java, the JS exception exc coming out of a call: the original
 * Java Throwable when exc carries one (a Java exception thrown through JS
 * frames), otherwise a JsException. Inside the gate.
 */
void strait__rethrow_to_java(JNIEnv *env, strait__jrt *jrt, JSValueRef exc);

/*
 * For the bridge, when a Java method called from JS threw t: the original
 * JS value when t is a JsException from a call into this same runtime (JS ->
 * Java -> JS threw), so the outer JS catch gets the very same object; NULL
 * otherwise. Inside the gate.
 */
JSValueRef strait__js_exception_value(JNIEnv *env, strait_runtime *rt, jthrowable t);

/* ---- entering from a Java thread (threads_gate.c) ---------------------- */

/*
 * Enters jrt's runtime for a native called from Java: re-entrant on the
 * thread already inside; a thread that has to wait and is interrupted
 * (Thread.interrupt) gives up with org.strait.JsInterruptedException
 * pending. Returns 0, or non-zero with a Java exception pending.
 * Any attached thread; pair with strait_leave().
 */
int strait__java_enter(JNIEnv *env, strait__jrt *jrt);

/* ---- promises seen as CompletableFutures (threads_future.c) ------------ */

/* InteropNatives.whenSettled(peer, owner, promise, future). */
void JNICALL strait__n_when_settled(JNIEnv *env, jclass c, jlong peer, jobject owner,
                                    jlong promise, jobject future);

/* Completes every pending future of st exceptionally ("runtime closed").
 * Teardown, inside the gate; env may be NULL. */
void strait__futures_cancel_all(JNIEnv *env, strait__jrt *jrt, strait__hstate *st);

/* ---- interfaces implemented in JS (proxy_implement.c) ------------------ */

/*
 * Builds a java.lang.reflect.Proxy implementing every interface in ifaces
 * (a Class[]) whose methods call impl: impl[methodName](...args) with this =
 * impl, or impl itself for every abstract method when impl is a function.
 * A method impl lacks runs its Java default if it has one, else throws
 * UnsupportedOperationException naming interface and method. A member that
 * exists but is not a function makes this fail now with a TypeError.
 * Returns a local ref, or NULL with either *exc set (JS TypeError) or a
 * Java exception pending. Inside the gate, on a thread attached to the
 * JVM; the caller (the bridge) may be inside a JS callback.
 */
jobject strait__js_implement(JNIEnv *env, strait_runtime *rt, jobjectArray ifaces,
                             JSObjectRef impl, JSValueRef *exc);

/*
 * A JS function (or object) passed where the interface iface is expected:
 * the proxy of strait__js_implement() as a new local ref. NULL with *exc
 * set. Inside the gate.
 */
jobject strait__js_implement_class(JNIEnv *env, strait_runtime *rt, jclass iface,
                                   JSObjectRef impl, JSValueRef *exc);

/*
 * `new I(impl)` for one interface class: the proxy of strait__js_implement()
 * as the bridge's JS wrapper. NULL with *exc set. Inside the gate.
 */
JSValueRef strait__js_implement_value(JNIEnv *env, strait_runtime *rt, jclass iface,
                                      JSObjectRef impl, JSValueRef *exc);

/* Java.implement(I or [I1, I2], impl): a JS function callback the bridge
 * installs on its Java global. Inside the gate. */
JSValueRef strait__java_implement_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                                     size_t argc, const JSValueRef argv[], JSValueRef *exc);

#endif /* STRAIT_HANDLES_H */

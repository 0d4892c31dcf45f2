/*
 * jni_base.h - private declarations of the JNI layer (src/jni/ only).
 *
 * This is the only header family that includes <jni.h>. It holds:
 *   - the process's JavaVM and the per-thread JNIEnv cache;
 *   - the cached global class refs and method/field IDs (strait__jc), filled
 *     once from JNI_OnLoad (base/onload.c) by strait__jni_core_init() and, for the
 *     bridge, strait__bridge_init();
 *   - the per-runtime JNI state (strait__jrt) that owns the core's embedder
 *     slot of a runtime;
 *   - the native-entry frame every native keeps for its stay (base/entry.c);
 *   - the Java exceptions the layer throws (base/throw.c) and the turning of
 *     a thrown JS value into one (value/exceptions.c);
 *   - UTF-16 string helpers (base/jstring.c).
 */
#ifndef STRAIT_JNI_BASE_H
#define STRAIT_JNI_BASE_H

#include <jni.h>
#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>
#include <stdatomic.h>

#include "common/js_source.h"
#include "common/jsc_private.h"
#include "strait.h"
#include "strait_jvm.h"
#include "base/jni_util.h"

/*
 * JB_CHECK(cond): with -DSTRAIT_DEBUG (make debug) a false cond prints the
 * condition and aborts; otherwise nothing is evaluated.
 */
#ifdef STRAIT_DEBUG
#include <stdio.h>
#include <stdlib.h>
#define JB_CHECK(cond) \
  ((cond) ? (void)0 : (fprintf(stderr, "%s:%d: bridge invariant failed: %s\n", __FILE__, __LINE__, #cond), abort()))
#else
#define JB_CHECK(cond) ((void)0)
#endif

/*
 * JB_TLS: thread-local storage in the static TLS block (initial-exec), for
 * the per-thread state every call reads: no __tls_get_addr call per use.
 * libstrait.so is loaded at start-up by the launcher and by
 * System.loadLibrary into a JVM, whose glibc keeps room for a few such
 * words (core/gate.c relies on the same).
 */
#define JB_TLS _Thread_local __attribute__((tls_model("initial-exec")))

/* JNI version the layer asks for and reports from JNI_OnLoad. */
#define STRAIT_JNI_VERSION JNI_VERSION_1_8

/* ---- JS arrays ------------------------------------------------------- */

/* Whether o is a Proxy (of a Proxy, at most 64 deep) whose target is a JS
 * array, which JSValueIsArray does not see. A revoked Proxy keeps its
 * target, so a revoked Proxy of an array is one, and any use of it throws
 * JS's TypeError, as Array.isArray throws. Inside the gate. */
static inline bool jb_proxy_of_array(JSContextRef ctx, JSObjectRef o) {
  for (int depth = 0; depth < 64; depth++) {
    JSObjectRef t = JSObjectGetProxyTarget(o);
    if (!t) return false;
    if (JSValueIsArray(ctx, t)) return true;
    o = t;
  }
  return false;
}

/* Array.isArray(v) without running JS: a JS array or a Proxy of one
 * (jb_proxy_of_array). Inside the gate. */
static inline bool jb_is_array(JSContextRef ctx, JSValueRef v) {
  return JSValueIsArray(ctx, v) || (JSValueIsObject(ctx, v) && jb_proxy_of_array(ctx, (JSObjectRef)v));
}

/* ---- the JVM and per-thread JNIEnv ----------------------------------- */

/* The process's JavaVM; set once by strait__jni_init() (from JNI_OnLoad or
 * the launcher), never cleared while the library is loaded. */
extern JavaVM *strait__jvm;

/* Cache of the calling thread's JNIEnv (NULL until strait__env() ran). */
extern JB_TLS JNIEnv *strait__tls_env;

/* Slow path of strait__env(): GetEnv, or attach the thread as a daemon. */
JNIEnv *strait__env_slow(void);

/*
 * The calling thread's JNIEnv. A native thread that is not attached yet is
 * attached as a daemon (so it never keeps the JVM alive) and stays attached
 * until it exits. Returns NULL only if attaching failed. Any thread.
 * A thread that detaches itself explicitly must not call this afterwards.
 */
static inline JNIEnv *strait__env(void) {
  JNIEnv *env = strait__tls_env;
  return env ? env : strait__env_slow();
}

/*
 * Stores vm, fills the ID caches (core, bridge, interop), registers the
 * natives of org.strait.internal.Natives. Idempotent and thread-safe: the first successful call
 * does the work, later calls return its result. Called from JNI_OnLoad and
 * usable by the launcher right after it created the JVM (the launcher's
 * thread must then be able to see strait.jar: FindClass uses the system
 * class loader there). Returns 0 or a negative status.
 */
int strait__jni_init(JavaVM *vm, JNIEnv *env);

/* ---- cached classes and IDs ------------------------------------------ */

/* Range of the boxed Integer cache (strait__box_int). */
#define STRAIT__SMALL_INT_MIN (-128)
#define STRAIT__SMALL_INT_MAX 1023

/*
 * Global refs and IDs used by the core part of the JNI layer (JsRuntime,
 * values, errors). Filled once by strait__jni_core_init(); read-only after.
 * Process-wide (the same for every runtime).
 */
typedef struct strait__jcache {
  jclass Object;
  jclass String;
  jclass Boolean;
  jclass Integer;
  jclass Double;
  jclass Long;
  jclass Throwable;
  jclass RuntimeException;
  jclass IllegalStateException;
  jclass IllegalArgumentException;
  jclass OutOfMemoryError;
  jclass UnsupportedOperationException;
  jclass Natives;
  jclass JsRuntime;
  jclass JsValue;
  jclass JsException;
  jclass JsExitException;
  jclass JsInterruptedException;        /* a termination (strait_interrupt) */
  jclass JsTimeLimitException;          /* STRAIT_ETIMEDOUT */
  jclass JsHeapLimitException;          /* STRAIT_EHEAP */

  jobject Boolean_TRUE;                 /* global refs */
  jobject Boolean_FALSE;
  jmethodID Integer_valueOf;            /* static (I)Ljava/lang/Integer; */
  jmethodID Double_valueOf;             /* static (D)Ljava/lang/Double; */
  jmethodID Long_valueOf;               /* static (J)Ljava/lang/Long; */
  jfieldID Integer_value;               /* the boxes' final value fields: a box */
  jfieldID Long_value;                  /* made by AllocObject + Set<T>Field, as */
  jfieldID Double_value;                /* its constructor would (value/convert.c) */
  jmethodID Boolean_booleanValue;
  jmethodID Number_doubleValue;         /* on java.lang.Number */
  jclass Number;

  /* Boxed Integers STRAIT__SMALL_INT_MIN..MAX as global refs (boxing
   * without a call into Java); see strait__box_int(). */
  jobject small_int[STRAIT__SMALL_INT_MAX - STRAIT__SMALL_INT_MIN + 1];

  /* JsValue(JsRuntime runtime, long handle) */
  jmethodID JsValue_init;
  jfieldID JsValue_handle;              /* long */
  /* JsException(String message, String name, String jsStack,
   *             String fileName, int line, int column, Object value,
   *             Object userValue): value is the exception's own handle,
   *             userValue what getValue() hands out (value/exceptions.c) */
  jmethodID JsException_init;
  /* JsExitException(int code) */
  jmethodID JsExitException_init;
} strait__jcache;

extern strait__jcache strait__jc;

/* java.lang.Integer for i, as a new local ref: small values come from a
 * cache, others from Integer.valueOf. NULL with OutOfMemoryError pending
 * (checked here, so callers may go on making JNI calls). */
static inline jobject strait__box_int(JNIEnv *env, jint i) {
  if (i >= STRAIT__SMALL_INT_MIN && i <= STRAIT__SMALL_INT_MAX)
    return (*env)->NewLocalRef(env, strait__jc.small_int[i - STRAIT__SMALL_INT_MIN]);
  jobject r = (*env)->CallStaticObjectMethod(env, strait__jc.Integer, strait__jc.Integer_valueOf, i);
  return (*env)->ExceptionCheck(env) ? NULL : r;
}

/* Fills strait__jc from its table (jcache.c). Once, from strait__jni_init().
 * Returns 0, or a status with a Java exception pending. */
int strait__jni_core_init(JNIEnv *env);

/* Fills the JS-from-Java cache strait__hc from its table (interop_ids.c).
 * Once, from strait__jni_init(), after the bridge. */
int strait__handles_init(JNIEnv *env);

/* Fills the bridge's cache jb from its table (model/bridge_init.c).
 * Once, from strait__jni_init(), after strait__jni_core_init(). */
int strait__bridge_init(JNIEnv *env);

/* Global ref to a class by JNI name, or NULL with NoClassDefFoundError
 * pending. Init only. */
jclass strait__global_class(JNIEnv *env, const char *name);

/* RegisterNatives of a table on a class; 0 or STRAIT_EINVAL with the JVM's
 * exception pending. Init only. */
int strait__register(JNIEnv *env, jclass cls, const JNINativeMethod *m, int n);

/* ---- per-runtime JNI state ------------------------------------------- */

/*
 * The JNI layer's state for one runtime. It owns the runtime's embedder slot
 * (strait_runtime_set_embedder); its teardown runs inside
 * strait_runtime_free() and frees it, calling bridge_free first.
 *
 * Embedding: a JsRuntime's native peer (the jlong passed to every native)
 * is a strait__jrt*; it is allocated before the runtime (it is the on_exit
 * hook's user data) and freed by the runtime's teardown.
 * Launcher: strait_java_attach() creates it with strait__jrt_of().
 */
typedef struct strait__jrt {
  strait_runtime *rt;
  jweak owner;              /* the org.strait.JsRuntime, or NULL (launcher) */
  int exit_code;            /* set by the embedded on_exit hook */
  bool exited;
  bool embedded;            /* created by JsRuntime.create() */
  int64_t time_limit_us;    /* the limits it was made with (messages); 0: none */
  int64_t heap_limit;
  void *bridge;             /* the bridge's per-runtime state */
  void *interop;            /* state of calls from Java (strait__hstate), or NULL */
  /* Intrinsics captured when the JNI layer first sees the runtime: for
   * JsRuntime.create() from its global before any script ran
   * (strait__jrt_capture), for a launcher runtime from a fresh realm of its
   * VM (strait__jrt_of), so nothing a script replaces is used. NULL when
   * absent. `intrinsics` (an object of functions and symbols, see
   * base/runtime.c) is protected until the teardown and holds the
   * functions below. Read inside the gate. */
  JSObjectRef intrinsics;
  JSObjectRef object_keys;  /* Object.keys */
  JSObjectRef ab_resizable; /* getter of ArrayBuffer.prototype.resizable */
  JSObjectRef ab_detached;  /* getter of ArrayBuffer.prototype.detached */
  JSObjectRef reflect_set;  /* Reflect.set: stores from Java that report a refusal (call/java_to_js.c) */
  /* Frees bridge; called once from the teardown, inside the gate. */
  void (*bridge_free)(struct strait__jrt *jrt, JNIEnv *env);
  /* Global ref to the org.strait.internal.HostPolicy the workers of this
   * runtime (and theirs) are attached under, the worker hooks' user data
   * (call/runtime_natives.c), or NULL. Deleted by the teardown, which runs
   * after the core freed the runtime's workers. */
  jobject worker_policy;
  /* The Java thread of the latest Java call this runtime's JS made (a weak
   * ref owned by the thread cache of base/stop.c, never deleted while its
   * thread lives), for the wait hook that interrupts it. Written by the
   * thread inside the gate before each call; read under stop.c's lock. */
  _Atomic(jweak) waiting_thread;
} strait__jrt;

/*
 * The JNI state of rt, created (and bound to rt's embedder slot) on first
 * use. NULL only when out of memory. Inside the gate.
 */
strait__jrt *strait__jrt_of(strait_runtime *rt);
/* The JNI state of rt, created with the built-ins of rt's own realm (for a
 * runtime whose scripts have not run yet: a launcher's, a worker's;
 * strait_java_prepare). NULL only when out of memory. Inside the gate. */
strait__jrt *strait__jrt_prepared(strait_runtime *rt);

/* Binds a new jrt (made by JsRuntime.create()) to its runtime rt: rt's
 * embedder state from now on, freed by rt's teardown. Inside the gate. */
void strait__jrt_bind(strait__jrt *jrt, strait_runtime *rt);

/* Captures jrt's intrinsics (see strait__jrt) from its global object, once
 * (JsRuntime.create(), before any script). Inside the gate. */
void strait__jrt_capture(strait__jrt *jrt);

/* Calls the captured intrinsic getter g on v (an object): 1 true, 0 false,
 * -1 when g is NULL or threw (exception cleared). Inside the gate. */
int strait__jrt_flag(strait__jrt *jrt, JSObjectRef g, JSObjectRef v);

/* ---- the native-entry frame (entry.c) ---------------------------------- */

/*
 * Frame pushed on the C stack by every native entry of a JsRuntime for the
 * length of its stay, so close() can tell that it is called from a thread
 * already inside (a Java callback of JS): strait__jrt_entered_here().
 */
typedef struct strait__entry {
  struct strait__entry *prev;
  strait__jrt *jrt;
} strait__entry;

extern JB_TLS strait__entry *strait__entries;

/* Non-zero when the calling thread has a native entry of jrt on its stack. */
int strait__jrt_entered_here(strait__jrt *jrt);

/*
 * Enters jrt's runtime for a native called from Java: re-entrant on the
 * thread already inside; a thread that has to wait and is interrupted
 * (Thread.interrupt) gives up with org.strait.JsInterruptedException
 * pending. Returns 0, or non-zero with a Java exception pending.
 * Any attached thread; pair with strait_leave(). Natives use
 * strait__native_enter, which also pushes the entry frame.
 */
int strait__java_enter(JNIEnv *env, strait__jrt *jrt);

/*
 * One native's stay in a runtime, in the native's own stack frame:
 *
 *   strait__native n;
 *   if (strait__native_enter(env, &n, STRAIT__PEER(peer))) return NULL;  // exception pending
 *   ... n.ctx, n.jrt ...
 *   if (strait__native_leave(env, &n)) return NULL;   // leaves the gate (its microtask
 *                                   // checkpoint still under the frame), pops the frame;
 *                                   // non-zero: its promise jobs were stopped, the
 *                                   // termination's Java exception is pending
 *
 * strait__native_push/pop keep the frame without the gate, for a native
 * that enters the runtime otherwise (runLoop: the loop enters itself).
 * Frames nest in LIFO order (checked in debug builds). Any attached thread.
 */
typedef struct strait__native {
  strait__entry entry;
  strait__jrt *jrt;
  JSContextRef ctx;         /* the runtime's context */
} strait__native;

/* Inline: every native of a runtime pays them. The frame lives in the
 * caller's stack frame and is popped before the caller returns (hence the
 * pragma). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdangling-pointer"
static inline void strait__native_push(strait__native *n, strait__jrt *jrt) {
  n->jrt = jrt;
  n->ctx = strait_runtime_context(jrt->rt);
  n->entry.prev = strait__entries;
  n->entry.jrt = jrt;
  strait__entries = &n->entry;
}
#pragma GCC diagnostic pop

static inline void strait__native_pop(strait__native *n) {
  JB_CHECK(strait__entries == &n->entry);
  strait__entries = n->entry.prev;
}

static inline int strait__native_enter(JNIEnv *env, strait__native *n, strait__jrt *jrt) {
  if (strait__java_enter(env, jrt)) return -1;
  strait__native_push(n, jrt);
  return 0;
}

void strait__throw_termination(JNIEnv *env, strait_runtime *rt, int status);

/* Leaves the gate and pops the frame. When the stay that this leave ended
 * was terminated (its promise jobs included: strait_leave() runs them),
 * throws the termination's Java exception unless one is pending, and
 * returns non-zero: the native must then make no JNI call but return. */
static inline int strait__native_leave(JNIEnv *env, strait__native *n) {
  strait_runtime *rt = n->jrt->rt;
  int stop = strait_leave(rt);
  strait__native_pop(n);
  if (!stop) return 0;
  if (!(*env)->ExceptionCheck(env)) strait__throw_termination(env, rt, stop);
  return stop;
}

/*
 * The two checks around a Java call that a runtime's JS makes (a JSC
 * callback suspends the gate around it), so that a stop holds on every
 * route back into JS (docs/sandbox.md, "Stopping a script"):
 *
 *   if (strait__java_call_refused(env, rt)) return NULL;   // stopped: no Java call
 *   strait_gate_suspend(rt, &susp);  ... the Java call ...  strait_gate_resume(rt, &susp);
 *   jboolean threw = (*env)->ExceptionCheck(env);
 *   if (strait__java_returned(env, rt, threw)) return NULL;   // stopped meanwhile
 *
 * Either one returning non-zero has made the engine's termination pending
 * (strait_check_stop): the callback returns NULL at once, leaves
 * *exception alone and makes no JSC call that could run JS. Inside the
 * gate, in the callback.
 */
int strait__java_call_refused(JNIEnv *env, strait_runtime *rt);
/* threw: a Java exception is pending. A runtime of JsRuntime.create()
 * whose Java call ended in an InterruptedException was stopped by a
 * Thread.interrupt() of its thread (the call consumed the flag the watchdog
 * polls): that is a stop too. The pending Java exception is cleared when
 * it returns non-zero. */
int strait__java_returned(JNIEnv *env, strait_runtime *rt, jboolean threw);

/* The wait hook of an embedded runtime (strait_set_wait_hook; ud: its
 * jrt): interrupts the Java thread its JS waits in, so that an interrupt,
 * close() or a passed time limit ends a blocking Java call (sleep, a
 * queue's take, interruptible I/O). base/stop.c. */
void strait__wake_java(strait_runtime *rt, void *ud);

/* A native's peer argument as its runtime's JNI state. */
#define STRAIT__PEER(p) ((strait__jrt *)(intptr_t)(p))

/* ---- errors: Java exceptions the layer throws (base/throw.c), a thrown JS
 *      value as a Java exception (value/exceptions.c) ------------------- */

/*
 * Throws the Java exception for a status code: IllegalStateException
 * ("runtime closed") for STRAIT_ECLOSED, OutOfMemoryError for ENOMEM,
 * IllegalArgumentException for EINVAL / ERANGE / ETYPE, RuntimeException
 * otherwise; `what` (may be NULL) is prefixed to the message. A Java
 * exception already pending is kept instead. Any thread.
 */
void strait__throw_status(JNIEnv *env, int status, const char *what);

/* Throws the Java exception of a termination of rt's JS (status
 * STRAIT_ETERM, STRAIT_ETIMEDOUT or STRAIT_EHEAP): JsInterruptedException,
 * JsTimeLimitException or JsHeapLimitException, with a message that names
 * the limit. Keeps a pending exception. Inside the gate. */
void strait__throw_termination(JNIEnv *env, strait_runtime *rt, int status);

/* Whether status is one of a termination (see strait__throw_termination). */
static inline bool strait__is_termination(int status) {
  return status == STRAIT_ETERM || status == STRAIT_ETIMEDOUT || status == STRAIT_EHEAP;
}

/* Throws JsExitException(code) (process.exit() in an embedded runtime). */
void strait__throw_exit(JNIEnv *env, int code);

/* Throws a new cls (a cached global class ref, e.g.
 * strait__jc.IllegalStateException) with a printf message of at most 511
 * bytes; a Java exception already pending is kept instead. Any thread. */
void strait__throw(JNIEnv *env, jclass cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Calls obj.m() (a ()V method) for its effect only: a Java exception
 * pending before stays pending, one the call throws is dropped. Any
 * thread attached to the JVM. */
void strait__call_void_quietly(JNIEnv *env, jobject obj, jmethodID m);

/* ---- strings (base/jstring.c): UTF-16 both ways, never modified UTF-8 ------ */

/* New Java string with the exact UTF-16 of s; NULL with OOM pending. */
jstring strait__jstring_from_js(JNIEnv *env, JSStringRef s);

/* New Java string from UTF-8 (invalid bytes become U+FFFD); NULL -> NULL. */
jstring strait__jstring_from_utf8(JNIEnv *env, const char *s, size_t len);

/* New JSStringRef with the exact UTF-16 of a Java string (caller releases);
 * NULL when js is NULL or memory ran out. Any thread (no gate needed). */
JSStringRef strait__jsstring_from_java(JNIEnv *env, jstring js);


/* Number of runtimes made by JsRuntime.create() whose engine is not freed
 * yet, process-wide (base/runtime.c; exposed to tests by testprobe.c). Any
 * thread. */
long strait__jrt_live_embedded(void);

/* ---- per-runtime state of calls from Java (base/interop_state.c) ------------------------------- */

/* A CompletableFuture waiting for a JS promise (call/futures.c). */
typedef struct strait__pending_future strait__pending_future;

/*
 * The state JS-from-Java side keeps per runtime, hung off strait__jrt.interop and
 * freed by strait__handles_state_free() from the runtime's teardown (inside
 * the gate), which settles every pending future with "runtime closed".
 * Touched only inside the gate, except `loop_error` (see call/loop.c).
 */
typedef struct strait__hstate {
  JSObjectRef promise_ctor;       /* protected: the realm's Promise, captured
                                   * when the state is made: for
                                   * JsRuntime.create() before any script */
  strait__pending_future *futures;/* doubly linked, inside the gate */
  /* Completes every future still pending (call/futures.c sets it when it
   * links the first one): run by the teardown, inside the gate. */
  void (*settle_all)(JNIEnv *env, struct strait__jrt *jrt, struct strait__hstate *st);
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

/* ---- handles ------------------------------------------------------------ */

/*
 * Handle of a JsValue: the JSValueRef itself, protected once when the handle
 * is made; released with one JSValueUnprotect (JsValue.close or the
 * runtime's cleaner). Inside the gate.
 */
static inline jlong strait__handle_make(JSContextRef ctx, JSValueRef v) {
  JSValueProtect(ctx, v);
  return (jlong)(intptr_t)v;
}
static inline JSValueRef strait__handle_value(jlong h) {
  return (JSValueRef)(intptr_t)h;
}

/* ---- the layer's JS (the .js files of src/jni/js, embedded by tools/embed) -- */

extern const strait__js_source strait__jni_js[];
extern const size_t strait__jni_js_count;
/* The embedded file named name ("bridge_helper.js"), or NULL; run it with
 * strait__js_source_eval (common/js_source.h). Any thread. */
const strait__js_source *strait__jni_js_find(const char *name);

#endif /* STRAIT_JNI_BASE_H */

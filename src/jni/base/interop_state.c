/*
 * interop_state.c - the per-runtime state of JavaScript-from-Java, bound to
 * the runtime's lifetime (a scope): created on first use, freed in one pass
 * by the runtime's teardown, which also settles every CompletableFuture
 * still waiting for a promise of this runtime.
 */
#include "base/interop_ids.h"

#include <stdlib.h>
#include <time.h>

static void close_adopted(JNIEnv *env, strait__jrt *jrt, jobject adopted);

/* The interop state of jrt (see base/jni_base.h). Inside the gate. */
strait__hstate *strait__hstate_of(strait__jrt *jrt) {
  if (jrt->interop) return jrt->interop;
  strait__hstate *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  JSValueRef p = strait_get_property(ctx, JSContextGetGlobalObject(ctx), "Promise");
  if (p && JSValueIsObject(ctx, p)) {
    st->promise_ctor = (JSObjectRef)p;
    JSValueProtect(ctx, p);
  }
  jrt->interop = st;
  return st;
}

/* Frees jrt's interop state (see base/jni_base.h). Teardown, inside the
 * gate; env may be NULL when the thread cannot reach the JVM. */
void strait__handles_state_free(strait__jrt *jrt, JNIEnv *env) {
  strait__hstate *st = jrt->interop;
  if (!st) return;
  jrt->interop = NULL;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  if (st->adopted && env) close_adopted(env, jrt, st->adopted);
  if (st->futures && st->settle_all) st->settle_all(env, jrt, st);
  if (st->promise_ctor) JSValueUnprotect(ctx, st->promise_ctor);
  if (st->loop_error && env) (*env)->DeleteGlobalRef(env, st->loop_error);
  if (st->adopted && env) (*env)->DeleteGlobalRef(env, st->adopted);
  free(st);
}

/* The JsRuntime owning jrt's handles (see base/jni_base.h). Inside the gate. */
jobject strait__owner_of(JNIEnv *env, strait__jrt *jrt) {
  if (jrt->owner) {
    jobject o = (*env)->NewLocalRef(env, jrt->owner);
    if (o) return o;
  }
  strait__hstate *st = strait__hstate_of(jrt);
  if (!st) {
    strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime");
    return NULL;
  }
  if (!st->adopted) {
    jobject o = (*env)->CallStaticObjectMethod(env, strait__jc.JsRuntime,
                                               strait__hc.JsRuntime_adopt,
                                               (jlong)(intptr_t)jrt);
    if ((*env)->ExceptionCheck(env) || !o) return NULL;
    st->adopted = (*env)->NewGlobalRef(env, o);
    if (st->adopted && !jrt->owner) jrt->owner = (*env)->NewWeakGlobalRef(env, o);
    (*env)->DeleteLocalRef(env, o);
    if (!st->adopted) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime");
      return NULL;
    }
  }
  return (*env)->NewLocalRef(env, st->adopted);
}

/* Closes an adopted JsRuntime and waits for the Java calls still in flight
 * on it: the runtime (gate and JSC lock) is let go in 1 ms slices so a
 * thread inside a Java callback can finish its JS and leave, while new
 * entries get "runtime closed" (the gate is closing). Teardown, inside
 * the gate. */
static void close_adopted(JNIEnv *env, strait__jrt *jrt, jobject adopted) {
  strait_runtime *rt = jrt->rt;
  JSContextRef ctx = strait_runtime_context(rt);
  jlong n = (*env)->CallLongMethod(env, adopted, strait__hc.JsRuntime_closeAdopted);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  for (int i = 0; n > 0 && i < 30000; i++) {
    JSUnlock(ctx);
    int depth = strait_gate_suspend_unlocked(rt);
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
    strait_gate_resume_unlocked(rt, depth);
    JSLock(ctx);
    n = (*env)->CallLongMethod(env, adopted, strait__hc.JsRuntime_inFlight);
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  }
}

/*
 * handles_state.c - the per-runtime state of JavaScript-from-Java, bound to
 * the runtime's lifetime (a scope): created on first use, freed in one pass
 * by the runtime's teardown, which also settles every CompletableFuture
 * still waiting for a promise of this runtime.
 */
#include "handles.h"

#include <stdlib.h>

/* The interop state of jrt (see handles.h). Inside the gate. */
strait__hstate *strait__hstate_of(strait__jrt *jrt) {
  if (jrt->interop) return jrt->interop;
  strait__hstate *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  JSValueRef p = strait__get(ctx, JSContextGetGlobalObject(ctx), "Promise");
  if (p && JSValueIsObject(ctx, p)) {
    st->promise_ctor = (JSObjectRef)p;
    JSValueProtect(ctx, p);
  }
  jrt->interop = st;
  return st;
}

/* Frees jrt's interop state (see jni_internal.h). Teardown, inside the
 * gate; env may be NULL when the thread cannot reach the JVM. */
void strait__handles_state_free(strait__jrt *jrt, JNIEnv *env) {
  strait__hstate *st = jrt->interop;
  if (!st) return;
  jrt->interop = NULL;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  strait__futures_cancel_all(env, jrt, st);
  if (st->promise_ctor) JSValueUnprotect(ctx, st->promise_ctor);
  if (st->loop_error && env) (*env)->DeleteGlobalRef(env, st->loop_error);
  free(st);
}

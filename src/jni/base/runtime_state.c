/*
 * runtime_state.c - the JNI layer's state of one runtime (strait__jrt):
 * made on first use (a launcher runtime) or by JsRuntime.create(), bound
 * to the runtime's embedder slot, freed by the runtime's teardown; and the
 * intrinsics captured for it before any script could replace them.
 */
#include "base/jni_base.h"
#include "base/interop_ids.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Runtimes made by JsRuntime.create() whose engine is not freed yet
 * (process-wide; read by tests through the probe, testprobe.c). */
static _Atomic long live_embedded;

/* Number of live runtimes made by JsRuntime.create(). Any thread. */
long strait__jrt_live_embedded(void) {
  return atomic_load_explicit(&live_embedded, memory_order_relaxed);
}

/* The function under name in the intrinsics object o, or NULL. */
static JSObjectRef fn_of(JSContextRef ctx, JSObjectRef o, const char *name) {
  JSValueRef v = strait_get_property(ctx, o, name);
  return v && JSValueIsObject(ctx, v) && JSObjectIsFunction(ctx, (JSObjectRef)v) ? (JSObjectRef)v : NULL;
}

/* Captures the intrinsics of jrt (see base/jni_base.h), once. A runtime made
 * by JsRuntime.create() is captured from its own global object before any
 * script ran (fresh_realm false); a launcher runtime, which the JNI layer
 * first sees when a script already ran and may have replaced built-ins,
 * from a new realm (global object) of the same VM, made for this and let
 * go (the kept functions are the engine's own; they work on objects of
 * every realm of the VM, and keep their realm alive). The object is
 * protected until the teardown; the functions read from it live as long.
 * Inside the gate. */
static void capture(strait__jrt *jrt, bool fresh_realm) {
  if (jrt->intrinsics) return;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  JSGlobalContextRef realm = fresh_realm ? JSGlobalContextCreateInGroup(JSContextGetGroup(ctx), NULL) : NULL;
  JSContextRef src = realm ? realm : ctx;
  JSValueRef exc = NULL;
  JSValueRef o = strait__js_source_eval(src, strait__jni_js_find("intrinsics.js"), NULL, &exc);
  if (o && JSValueIsObject(src, o)) {
    JSValueProtect(ctx, o);     /* held across the realm's release below */
    jrt->intrinsics = (JSObjectRef)o;
    jrt->object_keys = fn_of(src, jrt->intrinsics, "keys");
    jrt->ab_resizable = fn_of(src, jrt->intrinsics, "resizable");
    jrt->ab_detached = fn_of(src, jrt->intrinsics, "detached");
    jrt->reflect_set = fn_of(src, jrt->intrinsics, "set");
  }
  if (realm) {
    /* the realm's objects can reach a script (an error one of its
     * functions throws, and through its constructor the realm's Function):
     * it keeps no WebAssembly, which would compile modules unmetered and
     * so unstoppable (src/core/wasm_meter.c) */
    JSStringRef del = JSStringCreateWithUTF8CString("delete globalThis.WebAssembly");
    JSEvaluateScript(realm, del, NULL, NULL, 1, NULL);
    JSStringRelease(del);
    JSGlobalContextRelease(realm);
  }
}

void strait__jrt_capture(strait__jrt *jrt) { capture(jrt, false); }

/* Calls a captured getter (see base/jni_base.h). Inside the gate. */
int strait__jrt_flag(strait__jrt *jrt, JSObjectRef g, JSObjectRef v) {
  if (!g) return -1;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  JSValueRef exc = NULL;
  JSValueRef r = JSObjectCallAsFunction(ctx, g, v, 0, NULL, &exc);
  if (exc || !r) return -1;
  return JSValueToBoolean(ctx, r) ? 1 : 0;
}

/* Embedder teardown of a runtime: frees the bridge's state, then the jrt.
 * Runs once inside strait_runtime_free(), inside the gate. */
static void jrt_teardown(strait_runtime *rt, void *data) {
  strait__jrt *jrt = data;
  JNIEnv *env = strait__env();
  JSContextRef ctx = strait_runtime_context(rt);
  if (jrt->intrinsics) JSValueUnprotect(ctx, jrt->intrinsics);
  strait__handles_state_free(jrt, env);
  if (jrt->bridge_free) jrt->bridge_free(jrt, env);
  if (jrt->owner && env) (*env)->DeleteWeakGlobalRef(env, jrt->owner);
  /* the core freed this runtime's workers (and theirs) before this hook */
  if (jrt->worker_policy && env) (*env)->DeleteGlobalRef(env, jrt->worker_policy);
  if (jrt->embedded) atomic_fetch_sub_explicit(&live_embedded, 1, memory_order_relaxed);
  free(jrt);
}

/* Binds jrt to rt: jrt becomes rt's embedder state, freed by rt's
 * teardown (see base/jni_base.h). Inside the gate. */
void strait__jrt_bind(strait__jrt *jrt, strait_runtime *rt) {
  jrt->rt = rt;
  if (jrt->embedded) atomic_fetch_add_explicit(&live_embedded, 1, memory_order_relaxed);
  strait_runtime_set_embedder(rt, jrt, jrt_teardown);
}

/* The JNI state of rt with the built-ins of its own realm (see
 * base/jni_base.h). Inside the gate, before rt's first script. */
strait__jrt *strait__jrt_prepared(strait_runtime *rt) {
  strait__jrt *jrt = strait_runtime_embedder(rt);
  if (jrt) return jrt;
  jrt = calloc(1, sizeof *jrt);
  if (!jrt) return NULL;
  strait__jrt_bind(jrt, rt);
  capture(jrt, false);
  return jrt;
}

/* The JNI state of rt, created on first use (see base/jni_base.h). Inside
 * the gate. */
strait__jrt *strait__jrt_of(strait_runtime *rt) {
  strait__jrt *jrt = strait_runtime_embedder(rt);
  if (jrt) return jrt;
  jrt = calloc(1, sizeof *jrt);
  if (!jrt) return NULL;
  strait__jrt_bind(jrt, rt);
  capture(jrt, true);
  return jrt;
}

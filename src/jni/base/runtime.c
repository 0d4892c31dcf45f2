/*
 * runtime.c - natives of org.strait.JsRuntime and the per-runtime JNI
 * state (strait__jrt).
 *
 * Lifetime rule shared with JsRuntime.java: Java counts the calls in flight
 * and a close flag in one word; a native of a runtime is only called while
 * that count is held, and runtimeFree only after close drained it. So the
 * peer (strait__jrt*) and its runtime are alive for every native below.
 * Inside the core, strait_enter/strait_leave (the gate) serialize threads.
 */
#include "base/jni_base.h"
#include "call/interop.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

_Thread_local strait__entry *strait__entries;

/* Runtimes made by JsRuntime.create() whose engine is not freed yet
 * (process-wide; read by tests through the probe, testprobe.c). */
static _Atomic long live_embedded;

/* Number of live runtimes made by JsRuntime.create(). Any thread. */
long strait__jrt_live_embedded(void) {
  return atomic_load_explicit(&live_embedded, memory_order_relaxed);
}

/* Non-zero when the calling thread is inside a native of jrt. Any thread. */
int strait__jrt_entered_here(strait__jrt *jrt) {
  for (strait__entry *e = strait__entries; e; e = e->prev)
    if (e->jrt == jrt) return 1;
  return 0;
}

/* The intrinsics of the JNI layer (see jni_internal.h): one object read by
 * this script in the realm it is captured from. The bridge's JS helper
 * (bridge_jsclass.c) uses every function here but `resizable`/`detached`
 * (asByteBuffer, codec_jni.c), and JsObject.keys() uses `keys`. */
static const char intrinsics_src[] =
  "(() => { const ab = (k) => { const d = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, k);\n"
  "                             return d === undefined ? undefined : d.get; };\n"
  "  return { __proto__: null, defineProperty: Object.defineProperty, create: Object.create,\n"
  "   getPrototypeOf: Object.getPrototypeOf, keys: Object.keys, get: Reflect.get, set: Reflect.set,\n"
  "   has: Reflect.has, ownKeys: Reflect.ownKeys, getOwnPropertyDescriptor: Reflect.getOwnPropertyDescriptor,\n"
  "   defineOwn: Reflect.defineProperty, deleteProperty: Reflect.deleteProperty, apply: Reflect.apply,\n"
  "   Proxy: Proxy, Symbol: Symbol, iterator: Symbol.iterator, hasInstance: Symbol.hasInstance,\n"
  "   inspect: Symbol.for('nodejs.util.inspect.custom'), resizable: ab('resizable'), detached: ab('detached') };\n"
  "})()";

/* The function under name in the intrinsics object o, or NULL. */
static JSObjectRef fn_of(JSContextRef ctx, JSObjectRef o, const char *name) {
  JSValueRef v = strait__get(ctx, o, name);
  return v && JSValueIsObject(ctx, v) && JSObjectIsFunction(ctx, (JSObjectRef)v) ? (JSObjectRef)v : NULL;
}

/* Captures the intrinsics of jrt (see jni_internal.h), once. A runtime made
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
  JSStringRef code = JSStringCreateWithUTF8CString(intrinsics_src);
  JSStringRef file = JSStringCreateWithUTF8CString("strait:jni-intrinsics");
  JSValueRef exc = NULL;
  JSValueRef o = JSEvaluateScript(src, code, NULL, file, 1, &exc);
  JSStringRelease(code);
  JSStringRelease(file);
  if (o && JSValueIsObject(src, o)) {
    JSValueProtect(ctx, o);     /* held across the realm's release below */
    jrt->intrinsics = (JSObjectRef)o;
    jrt->object_keys = fn_of(src, jrt->intrinsics, "keys");
    jrt->ab_resizable = fn_of(src, jrt->intrinsics, "resizable");
    jrt->ab_detached = fn_of(src, jrt->intrinsics, "detached");
  }
  if (realm) JSGlobalContextRelease(realm);
}

void strait__jrt_capture(strait__jrt *jrt) { capture(jrt, false); }

/* Calls a captured getter (see jni_internal.h). Inside the gate. */
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
  if (jrt->embedded) atomic_fetch_sub_explicit(&live_embedded, 1, memory_order_relaxed);
  free(jrt);
}

/* The JNI state of rt, created on first use (see jni_internal.h). Inside
 * the gate. */
strait__jrt *strait__jrt_of(strait_runtime *rt) {
  strait__jrt *jrt = strait_runtime_embedder(rt);
  if (jrt) return jrt;
  jrt = calloc(1, sizeof *jrt);
  if (!jrt) return NULL;
  jrt->rt = rt;
  strait_runtime_set_embedder(rt, jrt, jrt_teardown);
  capture(jrt, true);
  return jrt;
}

/* on_exit hook of an embedded runtime: process.exit() must not end the JVM.
 * Records the code; the core then unwinds the script and strait_eval()
 * returns STRAIT_EEXIT, which becomes JsExitException. Inside the gate. */
static void embedded_exit(void *ud, int code) {
  strait__jrt *jrt = ud;
  jrt->exit_code = code;
  jrt->exited = true;
}

/* Natives.runtimeNew(owner): a new runtime with the Java bridge attached.
 * Returns the peer, or 0 with an exception pending. Any Java thread. */
static jlong JNICALL n_runtime_new(JNIEnv *env, jclass cls, jobject owner) {
  strait__jrt *jrt = calloc(1, sizeof *jrt);
  if (!jrt) {
    strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime.create");
    return 0;
  }
  jrt->embedded = true;
  jrt->owner = (*env)->NewWeakGlobalRef(env, owner);
  if (!jrt->owner) {
    free(jrt);
    return 0;
  }
  strait_options opts;
  memset(&opts, 0, sizeof opts);
  opts.on_exit = embedded_exit;
  opts.exit_ud = jrt;
  strait_runtime *rt = NULL;
  int rc = strait_runtime_new(&opts, &rt);
  if (rc) {
    (*env)->DeleteWeakGlobalRef(env, jrt->owner);
    free(jrt);
    strait__throw_status(env, rc, "JsRuntime.create");
    return 0;
  }
  jrt->rt = rt;
  rc = strait_enter(rt);
  if (rc == 0) {
    atomic_fetch_add_explicit(&live_embedded, 1, memory_order_relaxed);
    strait_runtime_set_embedder(rt, jrt, jrt_teardown);
    /* before the bridge (which replaces Object.keys) and any script; the
     * interop state captures the realm's Promise the same way */
    strait__jrt_capture(jrt);
    strait__hstate_of(jrt);
    JSValueRef exc = NULL;
    rc = strait_java_attach(rt, &exc);
    if (rc == STRAIT_EJS) strait__throw_js(env, rt, exc);
    else if (rc) strait__throw_status(env, rc, "JsRuntime.create: attaching the Java bridge");
    strait_leave(rt);
  } else {
    strait__throw_status(env, rc, "JsRuntime.create");
  }
  if (rc) {
    if (!strait_runtime_embedder(rt)) {
      (*env)->DeleteWeakGlobalRef(env, jrt->owner);
      free(jrt);
    }
    strait_runtime_free(rt);
    return 0;
  }
  return (jlong)(intptr_t)jrt;
}

/* Natives.runtimeFree(peer): frees the runtime; its teardown frees the jrt.
 * Called once, by JsRuntime.close() after the in-flight count drained, or
 * by the Cleaner thread once the JsRuntime is unreachable (then no Java
 * thread is inside or waiting: every entry holds the JsRuntime until it
 * returns); strait_runtime_free takes the gate either way. Any thread. */
static void JNICALL n_runtime_free(JNIEnv *env, jclass cls, jlong peer) {
  strait__jrt *jrt = (strait__jrt *)(intptr_t)peer;
  strait_runtime_free(jrt->rt);
}

/* Natives.enteredHere(peer): is the calling thread inside a native of this
 * runtime (close() from a callback)? Only compares pointers. Any thread. */
static jboolean JNICALL n_entered_here(JNIEnv *env, jclass cls, jlong peer) {
  return strait__jrt_entered_here((strait__jrt *)(intptr_t)peer) ? JNI_TRUE : JNI_FALSE;
}

/* Natives.eval(peer, owner, source, fileName): evaluates source as a
 * classic script and converts the completion value (strait__to_java).
 * Throws JsException / JsExitException / IllegalStateException. Any Java
 * thread; blocks at the gate while another thread is inside. */
static jobject JNICALL n_eval(JNIEnv *env, jclass cls, jlong peer, jobject owner,
                              jstring source, jstring file) {
  strait__jrt *jrt = (strait__jrt *)(intptr_t)peer;
  strait_runtime *rt = jrt->rt;
  if (!source) {
    (*env)->ThrowNew(env, strait__jc.IllegalArgumentException, "eval: source is null");
    return NULL;
  }
  jsize n = (*env)->GetStringLength(env, source);
  JSChar stackbuf[1024];
  JSChar *src = n <= 1024 ? stackbuf : malloc((size_t)n * sizeof(JSChar));
  char *cfile = NULL;
  if (!src) {
    strait__throw_status(env, STRAIT_ENOMEM, "eval");
    return NULL;
  }
  (*env)->GetStringRegion(env, source, 0, n, src);
  if (file) {
    JSStringRef f = strait__jsstring_from_java(env, file);
    if (f) {
      cfile = strait__utf8_from_jsstring(f, NULL);
      JSStringRelease(f);
    }
    if (!cfile) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "eval");
      goto done;
    }
  }

  strait__entry entry = {strait__entries, jrt};
  strait__entries = &entry;
  jobject out = NULL;
  /* Interruptible wait at the gate: JsInterruptedException or "runtime
   * closed" is pending when it fails. */
  int rc = strait__java_enter(env, jrt);
  if (rc == 0) {
    JSValueRef result = NULL, exc = NULL;
    rc = strait_eval(rt, src, (size_t)n, cfile, &result, &exc);
    if (rc == 0) out = strait__to_java(env, jrt, owner, result);
    else if (rc == STRAIT_EJS) strait__throw_js(env, rt, exc);
    else if (rc == STRAIT_EEXIT) strait__throw_exit(env, jrt->exit_code);
    else strait__throw_status(env, rc, "eval");
    strait_leave(rt);
  }
  strait__entries = entry.prev;
  free(cfile);
  if (src != stackbuf) free(src);
  return out;
done:
  free(cfile);
  if (src != stackbuf) free(src);
  return NULL;
}

const JNINativeMethod strait__runtime_natives[] = {
    {"runtimeNew", "(Ljava/lang/Object;)J", (void *)n_runtime_new},
    {"runtimeFree", "(J)V", (void *)n_runtime_free},
    {"enteredHere", "(J)Z", (void *)n_entered_here},
    {"eval", "(JLjava/lang/Object;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;",
     (void *)n_eval},
};
const int strait__runtime_natives_count =
    (int)(sizeof strait__runtime_natives / sizeof strait__runtime_natives[0]);

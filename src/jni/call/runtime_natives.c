/*
 * runtime_natives.c - natives of org.strait.JsRuntime: making and freeing
 * the runtime behind it (its JNI state is base/runtime_state.c), eval, and
 * whether the calling thread is inside it.
 *
 * Lifetime rule shared with JsRuntime.java: Java counts the calls in flight
 * and a close flag in one word; a native of a runtime is only called while
 * that count is held, and runtimeFree only after close drained it. So the
 * peer (strait__jrt*) and its runtime are alive for every native below.
 * Inside the core, strait_enter/strait_leave (the gate) serialize threads.
 */
#include "call/call.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
    strait__jrt_bind(jrt, rt);
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
  strait__jrt *jrt = STRAIT__PEER(peer);
  strait_runtime_free(jrt->rt);
}

/* Natives.enteredHere(peer): is the calling thread inside a native of this
 * runtime (close() from a callback)? Only compares pointers. Any thread. */
static jboolean JNICALL n_entered_here(JNIEnv *env, jclass cls, jlong peer) {
  return strait__jrt_entered_here(STRAIT__PEER(peer)) ? JNI_TRUE : JNI_FALSE;
}

/* Natives.eval(peer, owner, source, fileName): evaluates source as a
 * classic script and converts the completion value (strait__to_java).
 * Throws JsException / JsExitException / IllegalStateException. Any Java
 * thread; blocks at the gate while another thread is inside. */
static jobject JNICALL n_eval(JNIEnv *env, jclass cls, jlong peer, jobject owner,
                              jstring source, jstring file) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  strait_runtime *rt = jrt->rt;
  if (!source) {
    strait__throw(env, strait__jc.IllegalArgumentException, "eval: source is null");
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
      cfile = strait_utf8_from_jsstring(f, NULL);
      JSStringRelease(f);
    }
    if (!cfile) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "eval");
      goto done;
    }
  }

  jobject out = NULL;
  /* Interruptible wait at the gate: JsInterruptedException or "runtime
   * closed" is pending when it fails. */
  strait__native nf;
  int rc = strait__native_enter(env, &nf, jrt);
  if (rc == 0) {
    JSValueRef result = NULL, exc = NULL;
    rc = strait_eval(rt, src, (size_t)n, cfile, &result, &exc);
    if (rc == 0) out = strait__to_java(env, jrt, owner, result);
    else if (rc == STRAIT_EJS) strait__throw_js(env, rt, exc);
    else if (rc == STRAIT_EEXIT) strait__throw_exit(env, jrt->exit_code);
    else strait__throw_status(env, rc, "eval");
    strait__native_leave(&nf);
  }
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

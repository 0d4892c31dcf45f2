/*
 * runtime_natives.c - natives of org.strait.JsRuntime: making and freeing
 * the runtime behind it (its JNI state is base/runtime_state.c) with the
 * hooks that give its workers Java, eval, and whether the calling thread
 * is inside it.
 *
 * Lifetime rule shared with JsRuntime.java: Java counts the calls in flight
 * and a close flag in one word; a native of a runtime is only called while
 * that count is held, and runtimeFree only after close drained it. So the
 * peer (strait__jrt*) and its runtime are alive for every native below.
 * Inside the core, strait_enter/strait_leave (the gate) serialize threads.
 */
#include "call/call.h"
#include "base/interop_ids.h"

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

/* The interrupt poll of an embedded runtime (strait_set_interrupt_poll):
 * Thread.interrupted() of the Java thread running its JS, so that a
 * Thread.interrupt() of that thread terminates the call (and, as
 * InterruptedException does, clears the flag); the runtime's workers are
 * terminated with it, as by interrupt(). ud: the runtime. At a watchdog
 * tick, on the thread running JS, inside the gate, or from the idle wait of
 * the loop on its thread. */
static int java_thread_interrupted(void *ud) {
  JNIEnv *env = strait__env();
  if (!env || (*env)->ExceptionCheck(env)) return 0;
  jboolean r = (*env)->CallStaticBooleanMethod(env, strait__hc.Thread, strait__hc.Thread_interrupted);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return 0;
  }
  /* a stop of the script's work, as interrupt(): its workers end too */
  if (r) strait_terminate_workers(ud);
  return r ? 1 : 0;
}

/* The worker hooks of an embedded runtime that may create threads
 * (strait_set_worker_hooks): each worker's runtime gets the Java bridge
 * under the parent's HostPolicy (ud: the global ref the parent's jrt owns,
 * shared by the whole tree of workers), and its thread leaves the JVM when
 * it ends. Worker's thread, inside its gate: the thread is attached to the
 * JVM here (strait__env, as a daemon); its local refs live in a frame
 * popped before the script runs, since a native thread has no Java frame
 * that would release them. */
static int worker_init(void *ud, strait_runtime *worker, JSValueRef *exception) {
  JNIEnv *env = strait__env();
  if (!env) return STRAIT_ENOMEM;
  if ((*env)->PushLocalFrame(env, 64) != 0) {
    (*env)->ExceptionClear(env);
    return STRAIT_ENOMEM;
  }
  /* the worker's script has not run: its own realm's built-ins */
  int rc = strait__jrt_prepared(worker) ? 0 : STRAIT_ENOMEM;
  if (rc == 0) rc = strait__java_attach_policy(env, worker, (jobject)ud, exception);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    if (rc == 0) rc = STRAIT_EJAVA;
  }
  (*env)->PopLocalFrame(env, NULL);
  return rc;
}

/* A worker's thread ends (after its runtime was freed): it leaves the JVM
 * if it joined it. */
static void worker_fini(void *ud) {
  (void)ud;
  strait_jvm_detach_thread();
}

/* argv (a String[], may be null) as malloc'd UTF-8 strings in *out (n in
 * *argc). 0, or STRAIT_ENOMEM / STRAIT_EINVAL with an exception pending. */
static int argv_from_java(JNIEnv *env, jobjectArray args, char ***out, int *argc) {
  *out = NULL;
  *argc = 0;
  if (!args) return 0;
  jsize n = (*env)->GetArrayLength(env, args);
  char **v = calloc((size_t)n + 1, sizeof *v);
  if (!v) {
    strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime.Builder.arguments");
    return STRAIT_ENOMEM;
  }
  *out = v;
  for (jsize i = 0; i < n; i++) {
    jobject s = (*env)->GetObjectArrayElement(env, args, i);
    if (!s || !(*env)->IsInstanceOf(env, s, strait__jc.String)) {
      strait__throw(env, strait__jc.IllegalArgumentException,
                    "JsRuntime.Builder.arguments: element %d is not a String", (int)i);
      return STRAIT_EINVAL;
    }
    JSStringRef js = strait__jsstring_from_java(env, (jstring)s);
    (*env)->DeleteLocalRef(env, s);
    v[i] = js ? strait_utf8_from_jsstring(js, NULL) : NULL;
    if (js) JSStringRelease(js);
    if (!v[i]) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime.Builder.arguments");
      return STRAIT_ENOMEM;
    }
    *argc = (int)i + 1;
  }
  return 0;
}

static void argv_free(char **v, int n) {
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* Natives.runtimeNew(owner, policy, argv, timeLimitUs, heapLimit, deny,
 * fsRoot): a new runtime with the Java bridge attached under policy (an
 * org.strait.internal.HostPolicy, validated by JsRuntime.Builder), its
 * limits and deny bits (strait_options). Returns the peer, or 0 with an
 * exception pending. Any Java thread. */
static jlong JNICALL n_runtime_new(JNIEnv *env, jclass cls, jobject owner, jobject policy,
                                   jobjectArray args, jlong time_limit_us, jlong heap_limit,
                                   jint deny, jstring fs_root, jlong max_source) {
  char **argv = NULL;
  int argc = 0;
  char *root = NULL;
  if (argv_from_java(env, args, &argv, &argc)) {
    argv_free(argv, argc);
    return 0;
  }
  if (fs_root) {
    JSStringRef js = strait__jsstring_from_java(env, fs_root);
    root = js ? strait_utf8_from_jsstring(js, NULL) : NULL;
    if (js) JSStringRelease(js);
    if (!root) {
      if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime.create");
      argv_free(argv, argc);
      return 0;
    }
  }
  strait__jrt *jrt = calloc(1, sizeof *jrt);
  if (!jrt) {
    strait__throw_status(env, STRAIT_ENOMEM, "JsRuntime.create");
    argv_free(argv, argc);
    free(root);
    return 0;
  }
  jrt->embedded = true;
  jrt->time_limit_us = time_limit_us;
  jrt->heap_limit = heap_limit;
  jrt->owner = (*env)->NewWeakGlobalRef(env, owner);
  if (!jrt->owner) {
    free(jrt);
    argv_free(argv, argc);
    free(root);
    return 0;
  }
  strait_options opts;
  memset(&opts, 0, sizeof opts);
  opts.on_exit = embedded_exit;
  opts.exit_ud = jrt;
  opts.argc = argc;
  opts.argv = (const char *const *)argv;
  opts.time_limit_us = time_limit_us;
  opts.heap_limit = heap_limit;
  opts.deny = (unsigned)deny;
  opts.fs_root = root;
  opts.max_source = max_source;
  strait_runtime *rt = NULL;
  int rc = strait_runtime_new(&opts, &rt);   /* copies argv and fs_root */
  argv_free(argv, argc);
  free(root);
  if (rc) {
    (*env)->DeleteWeakGlobalRef(env, jrt->owner);
    free(jrt);
    if (rc == STRAIT_EINVAL)
      strait__throw(env, strait__jc.IllegalArgumentException,
                    "JsRuntime.create: the engine refused an option (limits, fs-root)");
    else
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
    strait_set_interrupt_poll(rt, java_thread_interrupted, rt);
    JSValueRef exc = NULL;
    rc = strait__java_attach_policy(env, rt, policy, &exc);
    if (rc == STRAIT_EJS) strait__throw_js(env, rt, exc);
    else if (rc) strait__throw_status(env, rc, "JsRuntime.create: attaching the Java bridge");
    /* workers (allowCreateThread; the core refuses them otherwise) get the
     * bridge under this very policy */
    if (rc == 0 && !(deny & STRAIT_DENY_WORKERS) && policy) {
      jrt->worker_policy = (*env)->NewGlobalRef(env, policy);
      if (!jrt->worker_policy) {
        rc = STRAIT_ENOMEM;
        strait__throw_status(env, rc, "JsRuntime.create");
      } else {
        strait_worker_hooks h = {.init = worker_init, .fini = worker_fini, .ud = jrt->worker_policy};
        strait_set_worker_hooks(rt, &h);
      }
    }
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

/* Natives.interrupt(peer): terminates the JS running in the runtime
 * (strait_interrupt); a no-op when none runs. Any thread, without entering
 * the gate (the running thread holds it). */
static void JNICALL n_interrupt(JNIEnv *env, jclass cls, jlong peer) {
  (void)env;
  (void)cls;
  strait_runtime *rt = STRAIT__PEER(peer)->rt;
  if (strait_interrupt(rt) != 0) return;
  strait_wake_waiting(rt);
  strait_terminate_workers(rt);   /* the script's work on other threads */
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
    else if (strait__is_termination(rc)) strait__throw_termination(env, rt, rc);
    else strait__throw_status(env, rc, "eval");
    strait__native_leave(env, &nf);
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
    {"runtimeNew", "(Ljava/lang/Object;Ljava/lang/Object;[Ljava/lang/String;JJILjava/lang/String;J)J",
     (void *)n_runtime_new},
    {"interrupt", "(J)V", (void *)n_interrupt},
    {"runtimeFree", "(J)V", (void *)n_runtime_free},
    {"enteredHere", "(J)Z", (void *)n_entered_here},
    {"eval", "(JLjava/lang/Object;Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;",
     (void *)n_eval},
};
const int strait__runtime_natives_count =
    (int)(sizeof strait__runtime_natives / sizeof strait__runtime_natives[0]);

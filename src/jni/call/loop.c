/*
 * loop.c - the event loop driven from Java: posting Runnables from
 * any thread (each post wakes the loop), keeping the loop alive, stopping
 * it, and running it on a Java thread (JsRuntime.runLoop).
 *
 * A posted Runnable runs on the loop's thread with the runtime released
 * (gate and JSC lock), so it may block or call into JS like any Java code.
 * If it throws, the loop stops and runLoop() rethrows that Throwable.
 */
#include "call/call.h"


/* Runs a posted Runnable (a global ref, deleted here). On the loop thread,
 * inside the gate. */
static void run_task(strait_runtime *rt, void *data) {
  JNIEnv *env = strait__env();
  jobject task = data;
  if (!env) return;
  JSContextRef ctx = strait_runtime_context(rt);
  JSUnlock(ctx);
  int depth = strait_gate_suspend_unlocked(rt);
  (*env)->CallVoidMethod(env, task, strait__hc.Runnable_run);
  strait_gate_resume_unlocked(rt, depth);
  JSLock(ctx);
  (*env)->DeleteGlobalRef(env, task);
  jthrowable t = (*env)->ExceptionOccurred(env);
  if (!t) return;
  (*env)->ExceptionClear(env);
  strait__jrt *jrt = strait_runtime_embedder(rt);
  strait__hstate *st = jrt ? strait__hstate_of(jrt) : NULL;
  if (st && !st->loop_error) st->loop_error = (*env)->NewGlobalRef(env, t);
  (*env)->DeleteLocalRef(env, t);
  strait_loop_stop(rt);
}

/* Drops a posted Runnable that never ran (the runtime closed). Inside the
 * gate, from the runtime's teardown. */
static void drop_task(void *data) {
  JNIEnv *env = strait__env();
  if (env) (*env)->DeleteGlobalRef(env, (jobject)data);
}

/* Natives.post: queues task on the loop and wakes it. Any Java
 * thread; takes no lock the loop holds while running JS. */
static void JNICALL n_post(JNIEnv *env, jclass c, jlong peer, jobject task) {
  if (!task) {
    strait__throw(env, strait__jc.IllegalArgumentException, "post: task is null");
    return;
  }
  jobject g = (*env)->NewGlobalRef(env, task);
  if (!g) return;
  int rc = strait_post(STRAIT__PEER(peer)->rt, run_task, g, drop_task);
  if (rc) {
    (*env)->DeleteGlobalRef(env, g);
    strait__throw_status(env, rc, "post");
  }
}

/* Natives.loopRef: +1 keeps the loop alive, -1 lets it end. Any
 * thread. */
static void JNICALL n_loop_ref(JNIEnv *env, jclass c, jlong peer, jint delta) {
  if (delta > 0) strait_loop_ref(STRAIT__PEER(peer)->rt);
  else strait_loop_unref(STRAIT__PEER(peer)->rt);
}

/* Natives.loopStop: asks a running loop to return after its current
 * callback, and wakes it. Any thread. */
static void JNICALL n_loop_stop(JNIEnv *env, jclass c, jlong peer) {
  strait_loop_stop(STRAIT__PEER(peer)->rt);
}

/* Natives.runLoop: runs the loop on the calling thread until nothing
 * keeps it alive or loopStop(). A JS error from a timer or an unhandled
 * rejection comes out as JsException; a posted Runnable's exception as
 * itself. Any Java thread outside the runtime. */
static void JNICALL n_run_loop(JNIEnv *env, jclass c, jlong peer) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  strait_runtime *rt = jrt->rt;
  if (strait_inside(rt)) {
    strait__throw(env, strait__jc.IllegalStateException,
                  "runLoop: called from inside the runtime (a callback of JS)");
    return;
  }
  strait__native n;
  strait__native_push(&n, jrt);
  JSValueRef exc = NULL;
  int rc = strait_loop_run(rt, &exc);
  if (strait_enter(rt) == 0) {
    strait__hstate *st = jrt->interop;
    if (st && st->loop_error) {
      (*env)->Throw(env, (jthrowable)st->loop_error);
      (*env)->DeleteGlobalRef(env, st->loop_error);
      st->loop_error = NULL;
    } else if (rc == STRAIT_EJS) {
      strait__rethrow_to_java(env, jrt, exc);
    } else if (rc == STRAIT_EEXIT) {
      strait__throw_exit(env, jrt->exit_code);
    } else if (strait__is_termination(rc)) {
      strait__throw_termination(env, rt, rc);
    } else if (rc) {
      strait__throw_status(env, rc, "runLoop");
    }
    strait_leave(rt);
  } else if (rc) {
    strait__throw_status(env, rc, "runLoop");
  }
  strait__native_pop(&n);
}

const JNINativeMethod strait__loop_natives[] = {
    {"post", "(JLjava/lang/Object;)V", (void *)n_post},
    {"loopRef", "(JI)V", (void *)n_loop_ref},
    {"loopStop", "(J)V", (void *)n_loop_stop},
    {"runLoop", "(J)V", (void *)n_run_loop},
    {"whenSettled",
     "(JLjava/lang/Object;JLjava/lang/Object;)V",
     (void *)strait__n_when_settled},
};
const int strait__loop_natives_count =
    (int)(sizeof strait__loop_natives / sizeof strait__loop_natives[0]);

/*
 * futures.c - a JS promise seen from Java as a CompletableFuture.
 *
 * whenSettled() calls promise.then(onFulfilled, onRejected) with two
 * callable objects of a private JSClass that share one record. The record
 * holds the future (a global ref) and sits in its runtime's list while the
 * promise is pending; the first callback completes the future, deletes the
 * global ref and unlinks the record. The runtime's teardown completes the
 * futures still pending with IllegalStateException("runtime closed"). The
 * objects' finalizers only count down (no JSC, no JNI) and free the record
 * when both are gone and it is settled.
 */
#include "call/call.h"

#include <stdlib.h>

struct strait__pending_future {
  strait__pending_future *prev, *next;
  strait__jrt *jrt;
  jobject future;            /* global ref until settled */
  _Atomic int refs;          /* callback objects alive */
  _Atomic int done;
};

/* Private data of one callback object. */
typedef struct settle_fn {
  strait__pending_future *rec;
  int reject;
} settle_fn;

static JSClassRef settle_class;
static pthread_once_t settle_once = PTHREAD_ONCE_INIT;

/* Unlinks rec from its runtime's list. Inside the gate. */
static void unlink_rec(strait__hstate *st, strait__pending_future *rec) {
  if (rec->prev) rec->prev->next = rec->next;
  else st->futures = rec->next;
  if (rec->next) rec->next->prev = rec->prev;
  rec->prev = rec->next = NULL;
}

/* Marks rec settled, dropping its future ref; frees it when no callback
 * object is left. Inside the gate. */
static void settle_done(JNIEnv *env, strait__hstate *st, strait__pending_future *rec) {
  atomic_store(&rec->done, 1);
  unlink_rec(st, rec);
  if (env && rec->future) (*env)->DeleteGlobalRef(env, rec->future);
  rec->future = NULL;
  if (atomic_load(&rec->refs) == 0) free(rec);
}

/* callAsFunction of the callback objects: completes the future with the
 * value (or exceptionally with the rejection as JsException). Runs inside
 * the gate as a promise reaction; the runtime is released while Java's
 * completion handlers run. */
static JSValueRef settle_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exception) {
  settle_fn *sf = JSObjectGetPrivate(fn);
  strait__pending_future *rec = sf ? sf->rec : NULL;
  if (!rec || atomic_load(&rec->done)) return JSValueMakeUndefined(ctx);
  strait__jrt *jrt = rec->jrt;
  strait__hstate *st = jrt->interop;
  JNIEnv *env = strait__env();
  if (!env || !st) return JSValueMakeUndefined(ctx);
  JSValueRef v = argc > 0 ? argv[0] : JSValueMakeUndefined(ctx);
  jobject owner = jrt->owner ? (*env)->NewLocalRef(env, jrt->owner) : NULL;
  jobject value = NULL;
  jthrowable failure = NULL;
  if (sf->reject) strait__rethrow_to_java(env, jrt, v);
  else value = strait__to_java(env, jrt, owner, v);
  if ((*env)->ExceptionCheck(env)) {
    failure = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
  }
  jobject future = (*env)->NewLocalRef(env, rec->future);
  settle_done(env, st, rec);
  strait_runtime *rt = jrt->rt;
  /* completing runs the future's dependent stages (Java code): not in a
   * stopped script, and the script stops when they were long */
  bool refused = strait__java_call_refused(env, rt);
  strait_suspension susp;
  if (!refused) strait_gate_suspend(rt, &susp);
  if (!future || refused)
    ;                      /* no memory for the local ref: nothing to complete */
  else if (failure)
    (*env)->CallBooleanMethod(env, future, strait__hc.CompletableFuture_completeExceptionally,
                              failure);
  else
    (*env)->CallBooleanMethod(env, future, strait__hc.CompletableFuture_complete, value);
  (*env)->ExceptionClear(env);
  if (!refused) {
    strait_gate_resume(rt, &susp);
    refused = strait__java_returned(env, rt, JNI_FALSE);
  }
  if (future) (*env)->DeleteLocalRef(env, future);
  if (failure) (*env)->DeleteLocalRef(env, failure);
  if (value) (*env)->DeleteLocalRef(env, value);
  if (owner) (*env)->DeleteLocalRef(env, owner);
  return refused ? NULL : JSValueMakeUndefined(ctx);
}

/* Finalizer of a callback object: counts down; frees a settled record with
 * no object left. GC: no JSC call, no JNI. */
static void settle_finalize(JSObjectRef fn) {
  settle_fn *sf = JSObjectGetPrivate(fn);
  if (!sf) return;
  strait__pending_future *rec = sf->rec;
  free(sf);
  if (atomic_fetch_sub(&rec->refs, 1) == 1 && atomic_load(&rec->done)) free(rec);
}

/* Creates the callback objects' JSClass (process-wide, never freed). Once,
 * through pthread_once. */
static void make_settle_class(void) {
  JSClassDefinition def = kJSClassDefinitionEmpty;
  def.className = "StraitFutureCallback";
  def.callAsFunction = settle_call;
  def.finalize = settle_finalize;
  settle_class = JSClassCreate(&def);
}

/* A callback object for rec; NULL when out of memory. Inside the gate. */
static JSObjectRef make_callback(JSContextRef ctx, strait__pending_future *rec, int reject) {
  settle_fn *sf = malloc(sizeof *sf);
  if (!sf) return NULL;
  sf->rec = rec;
  sf->reject = reject;
  atomic_fetch_add(&rec->refs, 1);
  return JSObjectMake(ctx, settle_class, sf);
}

/* Natives.whenSettled (see call/call.h): registers future to be
 * completed when promise settles. Any Java thread. */
void JNICALL strait__n_when_settled(JNIEnv *env, jclass c, jlong peer, jobject owner,
                                    jlong promise, jobject future) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  pthread_once(&settle_once, make_settle_class);
  strait__native n;
  if (strait__native_enter(env, &n, jrt)) return;
  JSContextRef ctx = n.ctx;
  strait__hstate *st = strait__hstate_of(jrt);
  strait__pending_future *rec = st ? calloc(1, sizeof *rec) : NULL;
  if (!rec) {
    strait__throw_status(env, STRAIT_ENOMEM, "toFuture");
    goto out;
  }
  rec->jrt = jrt;
  rec->future = future ? (*env)->NewGlobalRef(env, future) : NULL;
  if (!rec->future) {      /* a null future, or no memory for the ref */
    free(rec);
    if (!(*env)->ExceptionCheck(env))
      strait__throw_status(env, future ? STRAIT_ENOMEM : STRAIT_EINVAL, "toFuture");
    goto out;
  }
  st->settle_all = strait__futures_cancel_all;
  rec->next = st->futures;
  if (st->futures) st->futures->prev = rec;
  st->futures = rec;
  JSObjectRef p = (JSObjectRef)strait__handle_value(promise);
  JSObjectRef onf = make_callback(ctx, rec, 0);
  JSObjectRef onr = onf ? make_callback(ctx, rec, 1) : NULL;
  JSValueRef exc = NULL;
  JSValueRef then = strait_get_property(ctx, p, "then");
  if (onf && onr && then && JSValueIsObject(ctx, then) &&
      JSObjectIsFunction(ctx, (JSObjectRef)then)) {
    JSValueRef argv[2] = {onf, onr};
    JSObjectCallAsFunction(ctx, (JSObjectRef)then, p, 2, argv, &exc);
  } else {
    exc = strait_make_error(ctx, "TypeError", "toFuture: the value has no then() method");
  }
  if (exc) {
    strait__rethrow_to_java(env, jrt, exc);
    if (!atomic_load(&rec->done)) settle_done(env, st, rec);
  }
out:
  strait__native_leave(env, &n);
}

/* Completes every pending future exceptionally (see call/call.h). */
void strait__futures_cancel_all(JNIEnv *env, strait__jrt *jrt, strait__hstate *st) {
  jthrowable closed = NULL;
  if (env) {
    jstring msg = strait__jstring_from_utf8(env, "runtime closed", 14);
    jmethodID init = msg ? (*env)->GetMethodID(env, strait__jc.IllegalStateException, "<init>",
                                               "(Ljava/lang/String;)V")
                         : NULL;
    if (msg && init)
      closed = (*env)->NewObject(env, strait__jc.IllegalStateException, init, msg);
    (*env)->ExceptionClear(env);
  }
  while (st->futures) {
    strait__pending_future *rec = st->futures;
    if (env && rec->future && closed) {
      (*env)->CallBooleanMethod(env, rec->future,
                                strait__hc.CompletableFuture_completeExceptionally, closed);
      (*env)->ExceptionClear(env);
    }
    settle_done(env, st, rec);
  }
  if (closed) (*env)->DeleteLocalRef(env, closed);
}

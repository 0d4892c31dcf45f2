/* test_gate.c - the admission gate: nesting, strait_inside, and threads
 * contending for one runtime. */
#include "t.h"
#include "helpers.h"
#include "internal.h"

#include <pthread.h>

static void enter_leave_nesting(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_CHECK(!strait_inside(rt));
  T_EQ_INT(strait_enter(rt), 0);
  T_CHECK(strait_inside(rt));
  T_EQ_INT(strait_enter(rt), 0);
  T_EQ_INT(strait_enter(rt), 0);
  strait_leave(rt);
  T_CHECK(strait_inside(rt));
  strait_leave(rt);
  T_CHECK(strait_inside(rt));
  strait_leave(rt);
  T_CHECK(!strait_inside(rt));
  strait_runtime_free(rt);
  tcap_free(&c);
}

typedef struct shared {
  strait_runtime *rt;
  long counter;        /* guarded by the gate only */
  int inside_elsewhere;
  int iterations;
} shared;

static void *contender(void *arg) {
  shared *s = arg;
  for (int i = 0; i < s->iterations; i++) {
    if (strait_enter(s->rt) != 0) return NULL;
    long v = s->counter;
    if (i % 50 == 0) {
      /* Some JS work while holding the gate. */
      JSValueRef r = NULL;
      strait_eval_utf8(s->rt, "jsCounter++", 11, NULL, &r, NULL);
    }
    s->counter = v + 1;
    strait_leave(s->rt);
  }
  return NULL;
}

static void four_threads_contend(void) {
  tcap c = {0};
  shared s = {0};
  s.rt = trt_new(&c, 0, NULL);
  s.iterations = 10000;
  T_EVAL(s.rt, "globalThis.jsCounter = 0", "0");
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, contender, &s);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  T_EQ_INT(s.counter, 40000);
  T_EVAL(s.rt, "jsCounter", "800");
  strait_runtime_free(s.rt);
  tcap_free(&c);
}

static void *probe_inside(void *arg) {
  shared *s = arg;
  s->inside_elsewhere = strait_inside(s->rt);
  return NULL;
}

static void inside_is_per_thread(void) {
  tcap c = {0};
  shared s = {0};
  s.rt = trt_new(&c, 0, NULL);
  strait_enter(s.rt);
  s.inside_elsewhere = -1;
  pthread_t th;
  pthread_create(&th, NULL, probe_inside, &s);
  pthread_join(th, NULL);
  T_EQ_INT(s.inside_elsewhere, 0);
  T_CHECK(strait_inside(s.rt));
  strait_leave(s.rt);
  strait_runtime_free(s.rt);
  tcap_free(&c);
}

typedef struct waiter {
  strait_runtime *rt;
  int entered;
} waiter;

static void *enter_once(void *arg) {
  waiter *w = arg;
  if (strait_enter(w->rt) == 0) {
    w->entered = 1;
    strait_leave(w->rt);
  }
  return NULL;
}

static void waiter_gets_in_after_leave(void) {
  tcap c = {0};
  waiter w = {0};
  w.rt = trt_new(&c, 0, NULL);
  strait_enter(w.rt);
  pthread_t th;
  pthread_create(&th, NULL, enter_once, &w);
  usleep(20000);
  T_EQ_INT(w.entered, 0); /* blocked while this thread is inside */
  strait_leave(w.rt);
  pthread_join(th, NULL);
  T_EQ_INT(w.entered, 1);
  strait_runtime_free(w.rt);
  tcap_free(&c);
}

/* ---- lazy suspension: a JSC callback that stays in "Java" ---------------- */

typedef struct visit {
  strait_runtime *rt;
  _Atomic int in_java;        /* the callback is between suspend and resume */
  _Atomic int other_done;     /* the other thread ran its JS */
  _Atomic int entered_while_away;
  _Atomic int stop;
  int wait_for_other;         /* callback waits (up to 5 s) for the other thread */
  int nested;                 /* callback runs JS itself before waiting */
  long entries;
} visit;

static visit *the_visit;

/* javaCall(): suspends the gate like a call into Java, optionally runs JS
 * from "Java" on the same thread, optionally waits for another thread. */
static JSValueRef js_java_call(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  visit *v = the_visit;
  int ticket = strait__gate_suspend(v->rt);
  atomic_store(&v->in_java, 1);
  if (v->nested) {
    strait_enter(v->rt);
    JSValueRef r = NULL;
    strait_eval_utf8(v->rt, "nestedRuns++", 12, NULL, &r, NULL);
    strait_leave(v->rt);
  }
  if (v->wait_for_other) {
    for (int i = 0; i < 5000 && !atomic_load(&v->other_done); i++) usleep(1000);
  }
  atomic_store(&v->in_java, 0);
  strait__gate_resume(v->rt, ticket);
  return JSValueMakeUndefined(ctx);
}

static void install_java_call(strait_runtime *rt) {
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  JSStringRef n = JSStringCreateWithUTF8CString("javaCall");
  JSObjectRef fn = JSObjectMakeFunctionWithCallback(ctx, n, js_java_call);
  JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, fn, 0, NULL);
  JSStringRelease(n);
  strait_leave(rt);
}

static void *other_thread(void *arg) {
  visit *v = arg;
  if (strait_enter(v->rt) == 0) {
    JSValueRef r = NULL;
    strait_eval_utf8(v->rt, "otherRuns++", 11, NULL, &r, NULL);
    strait_leave(v->rt);
    atomic_store(&v->other_done, 1);
  }
  return NULL;
}

/* Sets up v on a new runtime whose javaCall() waits in "Java" for
 * other_thread (started here) to run JS; nested: javaCall() first calls
 * back into JS on its own thread. Returns other_thread. */
static pthread_t start_waiting_visit(tcap *c, visit *v, int nested) {
  v->rt = trt_new(c, 0, NULL);
  the_visit = v;
  install_java_call(v->rt);
  T_EVAL(v->rt, "globalThis.otherRuns = 0; globalThis.nestedRuns = 0", "0");
  v->wait_for_other = 1;
  v->nested = nested;
  pthread_t th;
  pthread_create(&th, NULL, other_thread, v);
  return th;
}

/* A thread that waits in Java for another thread's JS does not deadlock:
 * the other thread takes the gate over and runs; the first then resumes. */
static void long_stay_in_java_lets_another_thread_in(void) {
  tcap c = {0};
  visit v = {0};
  pthread_t th = start_waiting_visit(&c, &v, 0);
  T_EVAL(v.rt, "javaCall(); otherRuns", "1");
  pthread_join(th, NULL);
  T_EQ_INT(atomic_load(&v.other_done), 1);
  strait_runtime_free(v.rt);
  tcap_free(&c);
}

/* Java calling back into JS on the same thread, then waiting for another
 * thread: the suspension is re-armed after the nested call. */
static void nested_call_then_wait(void) {
  tcap c = {0};
  visit v = {0};
  pthread_t th = start_waiting_visit(&c, &v, 1);
  T_EVAL(v.rt, "javaCall(); javaCall(); [nestedRuns, otherRuns]", "[ 2, 1 ]");
  pthread_join(th, NULL);
  strait_runtime_free(v.rt);
  tcap_free(&c);
}

static void *hammer(void *arg) {
  visit *v = arg;
  while (!atomic_load(&v->stop)) {
    if (strait_enter(v->rt) != 0) break;
    if (atomic_load(&v->in_java)) atomic_fetch_add(&v->entered_while_away, 1);
    v->entries++;
    strait_leave(v->rt);
  }
  return NULL;
}

/* Short stays in Java keep the gate: with a takeover delay far above the
 * stay, a contending thread never gets in while the owner is in Java, and
 * still gets in between the owner's stays. */
static void short_stays_keep_the_gate(void) {
  setenv("STRAIT_GATE_TAKEOVER_US", "500000", 1);
  tcap c = {0};
  visit v = {0};
  v.rt = trt_new(&c, 0, NULL);
  unsetenv("STRAIT_GATE_TAKEOVER_US");
  the_visit = &v;
  install_java_call(v.rt);
  pthread_t th;
  pthread_create(&th, NULL, hammer, &v);
  for (int i = 0; i < 200; i++) T_EVAL(v.rt, "for (let i = 0; i < 50; i++) javaCall(); 1", "1");
  atomic_store(&v.stop, 1);
  pthread_join(th, NULL);
  T_EQ_INT(atomic_load(&v.entered_while_away), 0);
  T_CHECK(v.entries > 0);
  strait_runtime_free(v.rt);
  tcap_free(&c);
}

int main(void) {
  T_RUN(enter_leave_nesting);
  T_RUN(four_threads_contend);
  T_RUN(inside_is_per_thread);
  T_RUN(waiter_gets_in_after_leave);
  T_RUN(long_stay_in_java_lets_another_thread_in);
  T_RUN(nested_call_then_wait);
  T_RUN(short_stays_keep_the_gate);
  return T_DONE();
}

/* test_gate.c - the admission gate: nesting, strait_inside, and threads
 * contending for one runtime. */
#include "t.h"
#include "helpers.h"

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

int main(void) {
  T_RUN(enter_leave_nesting);
  T_RUN(four_threads_contend);
  T_RUN(inside_is_per_thread);
  T_RUN(waiter_gets_in_after_leave);
  return T_DONE();
}

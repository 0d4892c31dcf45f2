/*
 * loop.c - the runtime's event loop: a FIFO of tasks posted from any thread
 * and the timer heap (timers.c), run one callback at a time inside the gate.
 * After each callback it drains the promise jobs (eval.c).
 *
 * Checking for work costs one atomic load when the queue is empty; an idle
 * loop parks on a condition variable until a post or the next timer.
 */
#include "loop.h"
#include "eval.h"
#include "runtime.h"
#include "timers.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* Initializes an empty loop. Any thread. */
void strait__loop_init(strait__loop *l) {
  pthread_mutex_init(&l->mu, NULL);
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&l->cv, &a);
  pthread_condattr_destroy(&a);
  l->head = l->tail = NULL;
  atomic_init(&l->ntasks, 0);
  atomic_init(&l->refs, 0);
  atomic_init(&l->stop, 0);
  l->next_id = 1;
}

/* Queues a task (see strait.h). Any thread. */
int strait_post(strait_runtime *rt, strait_task_fn fn, void *data, void (*drop)(void *)) {
  if (atomic_load(&rt->gate.closing)) return STRAIT_ECLOSED;
  strait__task *t = malloc(sizeof *t);
  if (!t) return STRAIT_ENOMEM;
  t->next = NULL;
  t->fn = fn;
  t->data = data;
  t->drop = drop;
  strait__loop *l = &rt->loop;
  pthread_mutex_lock(&l->mu);
  if (l->tail) l->tail->next = t; else l->head = t;
  l->tail = t;
  atomic_fetch_add(&l->ntasks, 1);
  pthread_cond_signal(&l->cv);
  pthread_mutex_unlock(&l->mu);
  return 0;
}

/* Keeps the loop alive for an embedder's handle. Any thread. */
void strait_loop_ref(strait_runtime *rt) { atomic_fetch_add(&rt->loop.refs, 1); }

/* Drops a keep-alive and wakes the loop so it can notice. Any thread. */
void strait_loop_unref(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  atomic_fetch_sub(&l->refs, 1);
  pthread_mutex_lock(&l->mu);
  pthread_cond_signal(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

/* Asks the running loop to return (see strait.h). Any thread. */
void strait_loop_stop(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  pthread_mutex_lock(&l->mu);
  atomic_store(&l->stop, 1);
  pthread_cond_signal(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

/* Takes the whole queue at once (FIFO), or NULL. Any thread. */
static strait__task *take_all(strait__loop *l) {
  if (atomic_load_explicit(&l->ntasks, memory_order_acquire) == 0) return NULL;
  pthread_mutex_lock(&l->mu);
  strait__task *t = l->head;
  l->head = l->tail = NULL;
  atomic_store(&l->ntasks, 0);
  pthread_mutex_unlock(&l->mu);
  return t;
}

/* Puts a chain of not-yet-run tasks back at the front, in order. */
static void requeue_front(strait__loop *l, strait__task *chain) {
  if (!chain) return;
  size_t n = 1;
  strait__task *last = chain;
  while (last->next) { last = last->next; n++; }
  pthread_mutex_lock(&l->mu);
  last->next = l->head;
  l->head = chain;
  if (!l->tail) l->tail = last;
  atomic_fetch_add(&l->ntasks, n);
  pthread_mutex_unlock(&l->mu);
}

/* Drops the protection of the error the previous strait_loop_run returned.
 * Inside the gate. */
static void drop_returned(strait_runtime *rt) {
  if (!rt->returned_error) return;
  JSValueUnprotect(rt->ctx, rt->returned_error);
  rt->returned_error = NULL;
}

/* Moves a callback's uncaught error into *exception; 1 if there was one.
 * The value stays protected (as rt->returned_error) after the loop leaves
 * the gate, until the next strait_loop_run or the runtime's end, so the
 * caller can still report it. Inside the gate. */
static int take_pending(strait_runtime *rt, JSValueRef *exception) {
  if (!rt->pending_error) return 0;
  if (exception) *exception = rt->pending_error;
  drop_returned(rt);
  rt->returned_error = rt->pending_error;
  rt->pending_error = NULL;
  return 1;
}

/* Runs the loop (see strait.h). Outside the gate. */
int strait_loop_run(strait_runtime *rt, JSValueRef *exception) {
  strait__loop *l = &rt->loop;
  if (exception) *exception = NULL;
  atomic_store(&l->stop, 0);
  for (;;) {
    if (atomic_load(&l->stop)) return 0;
    int rc = strait_enter(rt);
    if (rc) return rc;
    drop_returned(rt);
    for (strait__task *t = take_all(l); t;) {
      strait__task *next = t->next;
      t->fn(rt, t->data);
      free(t);
      strait__drain_microtasks(rt);
      t = next;
      if (rt->exiting || rt->pending_error) {
        requeue_front(l, t);
        break;
      }
    }
    double next = -1;
    if (!rt->exiting && !rt->pending_error) next = strait__timers_run_due(rt);
    int err = 0;
    if (rt->exiting) err = STRAIT_EEXIT;
    else if (take_pending(rt, exception)) err = STRAIT_EJS;
    bool alive = l->nrefed > 0;
    strait_leave(rt);
    if (err) return err;
    pthread_mutex_lock(&l->mu);
    if (atomic_load(&l->ntasks) == 0 && !atomic_load(&l->stop)) {
      if (!alive && atomic_load(&l->refs) <= 0) {
        pthread_mutex_unlock(&l->mu);
        return 0;
      }
      if (next < 0) {
        pthread_cond_wait(&l->cv, &l->mu);
      } else {
        double wait = next - strait__now_ms();
        if (wait > 0) {
          struct timespec ts;
          clock_gettime(CLOCK_MONOTONIC, &ts);
          double ns = (double)ts.tv_nsec + wait * 1e6;
          ts.tv_sec += (time_t)(ns / 1e9);
          ts.tv_nsec = (long)(ns - (double)(time_t)(ns / 1e9) * 1e9);
          pthread_cond_timedwait(&l->cv, &l->mu, &ts);
        }
      }
    }
    pthread_mutex_unlock(&l->mu);
  }
}

/* Drops queued tasks and timers without running them. Inside the gate. */
void strait__loop_destroy(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  pthread_mutex_lock(&l->mu);
  strait__task *t = l->head;
  l->head = l->tail = NULL;
  atomic_store(&l->ntasks, 0);
  pthread_mutex_unlock(&l->mu);
  while (t) {
    strait__task *next = t->next;
    if (t->drop) t->drop(t->data);
    free(t);
    t = next;
  }
  strait__timers_clear(rt);
}

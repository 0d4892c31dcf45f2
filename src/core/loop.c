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
#include "group.h"
#include "runtime.h"
#include "timers.h"
#include "watchdog.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* Initializes an empty loop. Any thread. */
void strait__loop_init(strait__loop *l) {
  pthread_mutex_init(&l->mu, NULL);
  atomic_init(&l->wake, 0);
  atomic_init(&l->sleeping, 0);
  l->head = l->tail = NULL;
  atomic_init(&l->ntasks, 0);
  atomic_init(&l->refs, 0);
  atomic_init(&l->stop, 0);
  atomic_init(&l->halt, 0);
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
  pthread_mutex_unlock(&l->mu);
  strait__loop_wake(l);
  return 0;
}

/* Keeps the loop alive for an embedder's handle. Any thread. */
void strait_loop_ref(strait_runtime *rt) { atomic_fetch_add(&rt->loop.refs, 1); }

/* Drops a keep-alive and wakes the loop so it can notice. Any thread. */
void strait_loop_unref(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  atomic_fetch_sub(&l->refs, 1);
  strait__loop_wake(l);
}

/* Asks the running loop to return (see strait.h). Any thread. */
void strait_loop_stop(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  atomic_store(&l->stop, 1);
  strait__loop_wake(l);
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

/* How often an idle loop asks the embedder's poll (the watchdog's tick):
 * a Thread.interrupt() of the Java thread running the loop stops it while
 * it waits, not only while JS runs. */
#define POLL_MS 10.0

/* Sleeps until a waker bumps l->wake or wait_ms passes (<0: no limit),
 * unless work arrived or the interrupt generation moved on from gen0
 * meanwhile. With an embedder's poll, wakes every POLL_MS to ask it: a
 * yes interrupts the loop. Any thread (the loop's). */
static void sleep_until_woken(strait_runtime *rt, double wait_ms, uint32_t gen0,
                              strait__member *m, uint64_t epoch) {
  strait__loop *l = &rt->loop;
  bool poll = rt->wd.poll != NULL;
  if (poll && (wait_ms < 0 || wait_ms > POLL_MS)) wait_ms = POLL_MS;
  atomic_store(&l->sleeping, 1);
  uint32_t seen = atomic_load(&l->wake);
  if (atomic_load(&l->ntasks) == 0 && !atomic_load(&l->stop) && !atomic_load(&l->halt) &&
      strait__watch_gen(rt) == gen0 && (!m || strait__group_epoch_is(m, epoch))) {
    struct timespec ts, *tp = NULL;
    if (wait_ms >= 0) {
      ts.tv_sec = (time_t)(wait_ms / 1e3);
      ts.tv_nsec = (long)((wait_ms - (double)ts.tv_sec * 1e3) * 1e6);
      tp = &ts;
    }
    syscall(SYS_futex, (uint32_t *)&l->wake, FUTEX_WAIT_PRIVATE, seen, tp, NULL, 0);
  }
  atomic_store(&l->sleeping, 0);
  if (poll && strait__watch_gen(rt) == gen0 && rt->wd.poll(rt->wd.poll_ud)) strait_interrupt(rt);
}

/* The status that ends a loop run after a callback was terminated, with
 * its termination value (if a timer's callback threw it) in *exception.
 * Inside the gate. */
static int terminated(strait_runtime *rt, JSValueRef *exception) {
  int why = strait__watch_reason(rt);
  if (!take_pending(rt, exception) && exception) *exception = NULL;
  return why;
}

/* The loop has no strong work left but message listeners (l->weak): waits,
 * idle in its group, until work arrives (1: go on) or the group is
 * quiescent, or a stop or interrupt came (0: return). next: the due time
 * of the next unrefed timer, or <0. Outside the gate. */
static int wait_for_messages(strait_runtime *rt, strait__member *m, double next, uint32_t gen0) {
  strait__loop *l = &rt->loop;
  uint64_t epoch = strait__group_idle(m);
  for (;;) {
    if (atomic_load(&l->ntasks) || atomic_load(&l->stop) || atomic_load(&l->halt) ||
        strait__watch_gen(rt) != gen0 ||
        !strait__group_epoch_is(m, epoch))
      break;
    double wait = next < 0 ? -1 : next - strait__now_ms();
    if (next >= 0 && wait <= 0) break;
    sleep_until_woken(rt, wait, gen0, m, epoch);
  }
  return strait__group_resume(m, epoch);
}

static int loop_run(strait_runtime *rt, JSValueRef *exception);

/* Runs the loop (see strait.h). Outside the gate. */
int strait_loop_run(strait_runtime *rt, JSValueRef *exception) {
  if (rt->member) strait__group_active(rt->member);
  int rc = loop_run(rt, exception);
  /* Returned: idle for its group until it runs again. A worker's runtime
   * stays active until its thread has told its parent that it exited
   * (worker.c), so that the parent's loop cannot end before it learns. */
  if (rt->member && rt->member == &rt->own_member) strait__group_idle(rt->member);
  return rc;
}

static int loop_run(strait_runtime *rt, JSValueRef *exception) {
  strait__loop *l = &rt->loop;
  if (exception) *exception = NULL;
  atomic_store(&l->stop, 0);
  /* An interrupt from now on ends this run (one that came before is not
   * for it). */
  uint32_t gen0 = strait__watch_gen(rt);
  for (;;) {
    int halt = atomic_load(&l->halt);
    if (halt) return halt == 1 ? STRAIT_ETERM : 0;
    if (atomic_load(&l->stop)) return 0;
    if (strait__watch_gen(rt) != gen0) return STRAIT_ETERM;
    int rc = strait_enter(rt);
    if (rc) return rc;
    drop_returned(rt);
    JSValueRef refused = NULL;
    if ((rc = strait__watch_refused(rt, &refused)) != 0) {
      rt->returned_error = refused;
      JSValueProtect(rt->ctx, refused);
      if (exception) *exception = refused;
      strait_leave(rt);
      return rc;
    }
    for (strait__task *t = take_all(l); t;) {
      strait__task *next = t->next;
      strait__watch_entry_begin(rt);
      rt->crossings += 1;
      t->fn(rt, t->data);
      free(t);
      strait__checkpoint(rt);
      t = next;
      if (rt->exiting || rt->pending_error || strait__watch_reason(rt) || atomic_load(&l->halt) ||
          (t && strait__watch_gen(rt) != gen0)) {
        requeue_front(l, t);
        break;
      }
    }
    double next = -1;
    if (!rt->exiting && !rt->pending_error && !strait__watch_reason(rt) &&
        strait__watch_gen(rt) == gen0)
      next = strait__timers_run_due(rt);
    int err = 0;
    if (rt->exiting) err = STRAIT_EEXIT;
    else if (strait__watch_reason(rt)) err = terminated(rt, exception);
    else if (take_pending(rt, exception)) err = STRAIT_EJS;
    bool alive = l->nrefed > 0;
    strait_leave(rt);
    if (err) return err;
    if (atomic_load(&l->ntasks) == 0 && !atomic_load(&l->stop)) {
      if (!alive && atomic_load(&l->refs) <= 0) {
        strait__member *m = rt->member;
        if (l->weak <= 0 || !m || !m->group) return 0;
        if (!wait_for_messages(rt, m, next, gen0))
          return strait__watch_gen(rt) != gen0 ? STRAIT_ETERM : 0;
        continue;
      }
      if (next < 0) {
        sleep_until_woken(rt, -1, gen0, NULL, 0);
      } else {
        double wait = next - strait__now_ms();
        if (wait > 0) sleep_until_woken(rt, wait, gen0, NULL, 0);
      }
    }
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

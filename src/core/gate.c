/*
 * gate.c - the per-runtime admission gate in front of the engine.
 *
 * A thread that wants the runtime CASes `word` from 0 to 1. If that fails it
 * spins for a bounded time (the owner's stay is usually short: one call),
 * then parks on a condition variable. The owner re-enters for free (depth).
 * While it owns the gate the thread also holds JSC's API lock (JSLock), so
 * the C API calls it makes do not take and drop that lock one by one.
 */
#include "internal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

static _Thread_local char thread_token_anchor;

/* Token of the calling thread: the address of a thread-local. Any thread. */
uintptr_t strait__thread_token(void) { return (uintptr_t)&thread_token_anchor; }

static long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Initializes a free gate. The spin budget comes from STRAIT_GATE_SPIN_US
 * (default 50 us; negative disables spinning). Any thread. */
void strait__gate_init(strait__gate *g) {
  atomic_init(&g->word, 0);
  atomic_init(&g->owner, 0);
  atomic_init(&g->waiters, 0);
  atomic_init(&g->closing, 0);
  g->depth = 0;
  const char *s = getenv("STRAIT_GATE_SPIN_US");
  long us = s ? strtol(s, NULL, 10) : 50;
  g->spin_ns = us < 0 ? -1 : us * 1000;
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  g->susp = NULL;
  g->nsusp = g->capsusp = 0;
  atomic_init(&g->susp_pops, 0);
  atomic_init(&g->turn_waiters, 0);
  pthread_cond_init(&g->turn_cv, NULL);
}

/* Destroys a gate nobody owns or waits on. */
void strait__gate_destroy(strait__gate *g) {
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
  pthread_cond_destroy(&g->turn_cv);
  free(g->susp);
}

static inline int try_take(strait__gate *g) {
  int expect = 0;
  return atomic_compare_exchange_strong_explicit(&g->word, &expect, 1,
                                                 memory_order_acquire,
                                                 memory_order_relaxed);
}

/* Blocks until the calling thread owns the gate word (not the JSC lock). */
static void acquire(strait__gate *g) {
  if (try_take(g)) return;
  if (g->spin_ns > 0) {
    long deadline = now_ns() + g->spin_ns;
    int n = 0;
    do {
      for (int i = 0; i < 64; i++) {
        if (atomic_load_explicit(&g->word, memory_order_relaxed) == 0 && try_take(g))
          return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      if (++n % 16 == 0) sched_yield();
    } while (now_ns() < deadline);
  }
  pthread_mutex_lock(&g->mu);
  atomic_fetch_add(&g->waiters, 1);
  while (!try_take(g)) pthread_cond_wait(&g->cv, &g->mu);
  atomic_fetch_sub(&g->waiters, 1);
  pthread_mutex_unlock(&g->mu);
}

/*
 * Like acquire(), but a parked waiter wakes every 10 ms and calls
 * give_up(ud) (with no lock held); when that returns non-zero, or the gate
 * is closing, it stops waiting: STRAIT_EINTR / STRAIT_ECLOSED. Returns 0
 * once it owns the gate word. A waiter that gives up after being signalled
 * makes one last try, so no wake-up is lost. Any thread.
 */
static int acquire_or_give_up(strait__gate *g, int (*give_up)(void *), void *ud) {
  if (try_take(g)) return 0;
  if (g->spin_ns > 0) {
    long deadline = now_ns() + g->spin_ns;
    int n = 0;
    do {
      for (int i = 0; i < 64; i++) {
        if (atomic_load_explicit(&g->word, memory_order_relaxed) == 0 && try_take(g))
          return 0;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      if (++n % 16 == 0) sched_yield();
    } while (now_ns() < deadline);
  }
  int rc = 0;
  pthread_mutex_lock(&g->mu);
  atomic_fetch_add(&g->waiters, 1);
  while (!try_take(g)) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 10 * 1000000L;
    if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
    pthread_cond_timedwait(&g->cv, &g->mu, &ts);
    if (try_take(g)) break;
    pthread_mutex_unlock(&g->mu);
    int stop = atomic_load(&g->closing) ? STRAIT_ECLOSED : (give_up(ud) ? STRAIT_EINTR : 0);
    pthread_mutex_lock(&g->mu);
    if (stop) {
      rc = try_take(g) ? 0 : stop;
      break;
    }
  }
  atomic_fetch_sub(&g->waiters, 1);
  pthread_mutex_unlock(&g->mu);
  return rc;
}

/* Frees the gate word and wakes one parked waiter, if any. */
static void release(strait__gate *g) {
  atomic_store_explicit(&g->owner, 0, memory_order_relaxed);
  atomic_store_explicit(&g->word, 0, memory_order_release);
  if (atomic_load(&g->waiters) > 0) {
    pthread_mutex_lock(&g->mu);
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
  }
}

/* Enters rt (see strait.h). Any thread. */
int strait_enter(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  uintptr_t me = strait__thread_token();
  if (atomic_load_explicit(&g->owner, memory_order_relaxed) == me) {
    g->depth++;
    return 0;
  }
  if (atomic_load(&g->closing)) return STRAIT_ECLOSED;
  acquire(g);
  if (atomic_load(&g->closing)) {
    release(g);
    return STRAIT_ECLOSED;
  }
  atomic_store_explicit(&g->owner, me, memory_order_relaxed);
  g->depth = 1;
  JSLock(rt->ctx);
  return 0;
}

/* strait_enter() for a thread that may have to stop waiting (see
 * internal.h). Any thread. */
int strait__enter_or_give_up(strait_runtime *rt, int (*give_up)(void *), void *ud) {
  strait__gate *g = &rt->gate;
  uintptr_t me = strait__thread_token();
  if (atomic_load_explicit(&g->owner, memory_order_relaxed) == me) {
    g->depth++;
    return 0;
  }
  if (atomic_load(&g->closing)) return STRAIT_ECLOSED;
  int rc = acquire_or_give_up(g, give_up, ud);
  if (rc) return rc;
  if (atomic_load(&g->closing)) {
    release(g);
    return STRAIT_ECLOSED;
  }
  atomic_store_explicit(&g->owner, me, memory_order_relaxed);
  g->depth = 1;
  JSLock(rt->ctx);
  return 0;
}

/* Leaves rt once. The last leave releases the JSC lock (which drains the
 * microtask queue while this thread still owns the gate) and then the gate.
 * Owner thread only. */
void strait_leave(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  if (g->depth > 1) {
    g->depth--;
    return;
  }
  JSUnlock(rt->ctx);
  g->depth = 0;
  release(g);
}

/* Non-zero when the calling thread owns rt's gate. Any thread. */
int strait_inside(strait_runtime *rt) {
  return atomic_load_explicit(&rt->gate.owner, memory_order_relaxed) ==
         strait__thread_token();
}

/* Bit of a suspend's return value: the suspension is ordered (pushed on
 * g->susp). Depths stay far below it. */
#define SUSP_ORDERED (1 << 30)

/* Lets other threads in while this thread is in a Java call made from a
 * JSC callback (see internal.h). Owner only. */
int strait__gate_suspend(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  int depth = g->depth;
  if (g->nsusp == g->capsusp) {
    size_t cap = g->capsusp ? g->capsusp * 2 : 8;
    uintptr_t *n = realloc(g->susp, cap * sizeof *n);
    /* Out of memory: resume unordered, as before the ordering existed. */
    if (!n) return strait__gate_suspend_unlocked(rt);
    g->susp = n;
    g->capsusp = cap;
  }
  g->susp[g->nsusp++] = strait__thread_token();
  g->depth = 0;
  release(g);
  return depth | SUSP_ORDERED;
}

/* Lets other threads in; the caller released the JSC lock itself. Owner
 * only. */
int strait__gate_suspend_unlocked(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  int depth = g->depth;
  g->depth = 0;
  release(g);
  return depth;
}

/* Takes the gate back after a suspend, even while closing: the thread must
 * get back to unwind its JS frames. An ordered suspension waits until this
 * thread is the newest suspended one (JSC's LIFO rule, see internal.h):
 * taking the gate earlier would leave it spinning in JSC for the JSC lock
 * while the thread JSC waits for parks on the gate. */
void strait__gate_resume(strait_runtime *rt, int depth) {
  strait__gate *g = &rt->gate;
  uintptr_t me = strait__thread_token();
  if (!(depth & SUSP_ORDERED)) {
    acquire(g);
  } else {
    depth &= ~SUSP_ORDERED;
    for (;;) {
      unsigned long seen = atomic_load(&g->susp_pops);
      acquire(g);
      if (g->nsusp == 0 || g->susp[g->nsusp - 1] == me) break;
      release(g);
      pthread_mutex_lock(&g->mu);
      atomic_fetch_add(&g->turn_waiters, 1);
      while (atomic_load(&g->susp_pops) == seen) pthread_cond_wait(&g->turn_cv, &g->mu);
      atomic_fetch_sub(&g->turn_waiters, 1);
      pthread_mutex_unlock(&g->mu);
    }
    if (g->nsusp) g->nsusp--;
    atomic_fetch_add(&g->susp_pops, 1);
    if (atomic_load(&g->turn_waiters) > 0) {
      pthread_mutex_lock(&g->mu);
      pthread_cond_broadcast(&g->turn_cv);
      pthread_mutex_unlock(&g->mu);
    }
  }
  atomic_store_explicit(&g->owner, me, memory_order_relaxed);
  g->depth = depth;
}

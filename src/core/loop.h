/*
 * loop.h - the runtime's event loop (loop.c): the task queue any thread
 * posts to, and the timer heap and table timers.c keeps. Private to the
 * core; the layers above use strait_post, strait_loop_* (strait.h).
 */
#ifndef STRAIT_LOOP_H
#define STRAIT_LOOP_H

#include "strait.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct strait__task {
  struct strait__task *next;
  strait_task_fn fn;
  void *data;
  void (*drop)(void *data);
} strait__task;

typedef struct strait__timer {
  double when_ms;            /* monotonic due time */
  uint64_t seq;              /* FIFO among equal due times */
  double id;
  double interval_ms;        /* <0: one-shot */
  JSObjectRef callback;      /* protected while the timer is pending */
  JSValueRef *args;          /* protected; nargs values */
  size_t nargs;
  bool refed;
  size_t heap_index;
} strait__timer;

typedef struct strait__loop {
  pthread_mutex_t mu;        /* guards the task list */
  /* The loop's wake-up: a futex word bumped by every post, stop, unref
   * and interrupt; the loop sleeps on it only while `sleeping` is set, so
   * a waker makes the syscall only then (strait__loop_wake). */
  _Atomic uint32_t wake;
  _Atomic int sleeping;
  strait__task *head, *tail;
  _Atomic size_t ntasks;     /* cheap emptiness check, no lock */
  _Atomic long refs;         /* embedder handles keeping the loop alive */
  /* message listeners (ports with a listener, live Workers: worker.c):
   * they keep the loop alive only while its group has an active member
   * (group.h). Touched inside the gate. */
  long weak;
  _Atomic int stop;
  /* For good (never cleared): 1 ends every strait_loop_run with
   * STRAIT_ETERM (a worker's terminate()), 2 with 0 (its close()). */
  _Atomic int halt;
  /* timers: owned by the thread inside the gate */
  strait__timer **heap;
  size_t nheap, capheap;
  /* pending timers by id: open addressing, linear probing, capacity a power
   * of two (or 0), at most half full; a fired one-shot timer leaves it
   * before its callback runs (timers.c) */
  strait__timer **byid;
  size_t capbyid, nbyid;
  uint64_t next_seq;
  double next_id;
  size_t nrefed;
} strait__loop;

/* Wakes the loop if it sleeps: one atomic add, and a futex wake when the
 * loop sleeps. Async-signal-safe (strait_interrupt calls it). Any thread. */
static inline void strait__loop_wake(strait__loop *l) {
  atomic_fetch_add(&l->wake, 1);
  if (atomic_load(&l->sleeping))
    syscall(SYS_futex, (uint32_t *)&l->wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Initializes an empty loop. Any thread. */
void strait__loop_init(strait__loop *l);
/* Drops every queued task (calling drop) and every timer without running
 * them. Inside the gate. */
void strait__loop_destroy(strait_runtime *rt);

#endif /* STRAIT_LOOP_H */

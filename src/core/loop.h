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
  pthread_mutex_t mu;        /* guards tasks, cv */
  pthread_cond_t cv;
  strait__task *head, *tail;
  _Atomic size_t ntasks;     /* cheap emptiness check, no lock */
  _Atomic long refs;         /* embedder handles keeping the loop alive */
  _Atomic int stop;
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

/* Initializes an empty loop. Any thread. */
void strait__loop_init(strait__loop *l);
/* Drops every queued task (calling drop) and every timer without running
 * them. Inside the gate. */
void strait__loop_destroy(strait_runtime *rt);

#endif /* STRAIT_LOOP_H */

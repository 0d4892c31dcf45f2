/*
 * watchdog.h - stopping running JS (watchdog.c): strait_interrupt, the
 * embedder's poll, the per-entry time limit and the heap limit, all
 * checked by one periodic tick of JSC's execution-time watchdog on the
 * thread running JS. Private to the core; the layers above use
 * strait_interrupt, strait_terminating, strait_set_interrupt_poll and
 * strait_heap_size (strait.h).
 */
#ifndef STRAIT_WATCHDOG_H
#define STRAIT_WATCHDOG_H

#include "strait.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The state of one stay in the gate (from the enter at depth 0 to the
 * leave back to 0): its deadline, the interrupt generation it started
 * with, and why it is being terminated. The gate keeps the current one in
 * strait__watch.cur and saves it in a suspension record while another
 * thread may take the gate over (gate.c), so one thread's stay never
 * clobbers another's. Word holder only.
 */
typedef struct strait__stay {
  int64_t deadline_ns;       /* CLOCK_MONOTONIC; 0: no time limit */
  uint32_t gen;              /* strait__watch.intr_gen when the stay began */
  int reason;                /* 0, or STRAIT_ETERM / ETIMEDOUT / EHEAP once terminated */
} strait__stay;

typedef struct strait__watch {
  /* Bumped by strait_interrupt (any thread, signal handlers too): a stay
   * whose gen differs is terminated at the next tick. */
  _Atomic uint32_t intr_gen;
  _Atomic int64_t intr_at_ns; /* CLOCK_MONOTONIC of the last strait_interrupt */
  int (*poll)(void *ud);     /* the embedder's poll; inside the gate */
  void *poll_ud;
  strait__stay cur;          /* the running stay; word holder only */
  int64_t limit_ns;          /* opts.time_limit_us in ns; 0: none */
  int64_t heap_limit;        /* opts.heap_limit; 0: none */
  int64_t rss_mark;          /* process RSS at the last heap measurement */
  int64_t heap_step;         /* RSS growth that triggers a heap measurement */
  int64_t dead_heap;         /* heap size after the collection that refused */
  bool fast;                 /* armed at FAST_S: a stay is being terminated */
  bool heap_dead;            /* live data exceeds heap_limit: entries refused */
  bool armed;                /* the group's watchdog is set (runtime made) */
  /* The layer above's hook for a stay that must stop while its thread
   * waits outside JS in a host call (strait_set_wait_hook), and the
   * suspension it was last called for. Set inside the gate; called by the
   * watcher of host calls under its list lock. */
  void (*wait_hook)(strait_runtime *rt, void *ud);
  void *wait_ud;
  uint64_t wait_poked;       /* watcher's thread only */
  struct strait_runtime *watch_next;   /* in the watcher's list; under its lock */
  bool watched;              /* in the watcher's list; under its lock */
} strait__watch;

/* Reads the limits of rt->opts and arms the tick on rt->group. Inside the
 * gate is not needed; before the first stay. */
void strait__watch_init(strait_runtime *rt);
/* Clears the group's watchdog (before the group goes away) and takes rt
 * out of the watcher of host calls (no wait hook runs for it afterwards).
 * Inside the gate. */
void strait__watch_destroy(strait_runtime *rt);
/* A new stay begins (gate.c, depth 0 -> 1, JSC lock held). */
void strait__watch_stay_begin(strait_runtime *rt);
/* The stay ended: its JS unwound and the JSC lock is released; still the
 * word holder. Collects garbage after an EHEAP termination and decides
 * whether the runtime is usable again (gate.c). */
void strait__watch_stay_end(strait_runtime *rt);
/* A host call made from the stay (a callback's call into Java or the
 * embedder) returned: an interrupt that came meanwhile stops the JS that
 * follows within FAST_S of it running, not at the next regular tick. One
 * atomic load when none came. Owner thread, gate taken back (gate.c). */
void strait__watch_stay_resumed(strait_runtime *rt);
/* The thread took the gate back after strait_gate_suspend_unlocked()
 * without a suspension record: keeps the stay if nobody else ran, else
 * starts a fresh deadline (gate.c). */
void strait__watch_stay_resume_unlocked(strait_runtime *rt);
/* Why the running stay must stop now, or 0: a reason already found, an
 * interrupt since the stay began, its deadline passed, a refused heap. A
 * reason found here is the stay's from now on (its JS is terminated at the
 * next tick, armed at once). For host callbacks of the stay (after a host
 * call returned, before one starts); it does not ask the embedder's poll.
 * Inside the gate. */
int strait__watch_stop_now(strait_runtime *rt);
/* bytes more memory outside the JS heap (an ArrayBuffer's contents, a wasm
 * memory's growth) is about to be allocated for the running stay: 0 to go
 * ahead, or STRAIT_EHEAP when the runtime's live data plus bytes would pass
 * its heap limit: the stay is then terminated for it (the reason is set
 * and the engine's termination pending: a host callback returns NULL at
 * once). Allocations under 1 MiB are left to the tick. Inside the gate, in
 * a host callback of rt's JS. */
int strait__heap_admit(strait_runtime *rt, double bytes);
/* A loop callback (task, timer) begins: a fresh deadline. Inside the
 * gate. */
void strait__watch_entry_begin(strait_runtime *rt);
/* The interrupt generation now (to compare with a later one). Any thread. */
uint32_t strait__watch_gen(strait_runtime *rt);
/* Why the running stay is terminated (0: it is not). Inside the gate. */
int strait__watch_reason(strait_runtime *rt);
/* STRAIT_EHEAP with *exception an Error saying why when the runtime
 * refuses entries (its live data exceeded heap_limit), else 0. exception
 * may be NULL. Inside the gate. */
int strait__watch_refused(strait_runtime *rt, JSValueRef *exception);

#endif /* STRAIT_WATCHDOG_H */

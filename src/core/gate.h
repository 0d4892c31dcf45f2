/*
 * gate.h - the admission gate of a runtime (gate.c): one thread at a time
 * inside, suspensions while a callback waits outside JS. Private to the
 * core; the layers above use strait_enter/leave and strait_gate_* (strait.h).
 */
#ifndef STRAIT_GATE_H
#define STRAIT_GATE_H

#include "strait.h"
#include "watchdog.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/*

 * One suspension (the inside of a public strait_suspension): a thread that owned the gate went from a JSC callback into
 * Java. The record lives in the caller's C stack frame, from
 * strait__gate_suspend() to strait__gate_resume(), so there is no limit on
 * how many are live but the thread's stack. Records are linked twice:
 *  - per gate (`below`), newest first, across threads: JSC re-takes the
 *    locks it dropped around callbacks in that order. Only the thread that
 *    holds the gate word pushes or pops (`gate.top`).
 *  - per thread (`thread_prev`, newest first, any gate), so a thread inside
 *    several runtimes at once (A -> B -> A ...) finds its newest suspension
 *    on each; `skip` jumps over the thread's older records on the same
 *    gate. Touched by the suspended thread only.
 * `state` is touched by the suspended thread only (it learns of a takeover
 * when its CAS on `away` fails).
 */
typedef struct strait__susp_rec {
  struct strait__gate *gate;             /* the suspended runtime's gate */
  struct strait__susp_rec *below;        /* next older suspension on gate (any thread) */
  struct strait__susp_rec *thread_prev;  /* the thread's previous live suspension */
  struct strait__susp_rec *skip;         /* the thread's nearest older one on another gate */
  uint64_t seq;              /* value of gate.away while this one is armed */
  int depth;                 /* the thread's depth when it suspended */
  int8_t state;              /* SUSP_* (gate.c) */
  int8_t dbg_locked;         /* gate.dbg_locked when it suspended (STRAIT_DEBUG) */
  strait__stay stay;         /* the thread's stay (watchdog.h) while another
                                thread may take the gate over */
} strait__susp_rec;

/* The record lives in the caller's strait_suspension (strait.h), whose
 * layout is opaque to the caller. */
_Static_assert(sizeof(strait__susp_rec) <= sizeof(strait_suspension),
               "strait_suspension too small for the gate's record");
_Static_assert(_Alignof(strait__susp_rec) <= _Alignof(strait_suspension),
               "strait_suspension not aligned for the gate's record");

/*
 * One per runtime. `word` is 0 when free, 1 when owned. The owner is
 * identified by a per-thread token; depth counts nested enters of the owner.
 * One waiter at a time spins for spin_ns (the others park on cv at once);
 * a waiter parked past the fairness delay gets the word handed to it.
 *
 * Rule: a thread holds the runtime only while it runs JS. A JSC callback that
 * calls into Java suspends the gate lazily: it only arms `away` (one atomic
 * store) and keeps the word. A waiter that sees the owner stay away for
 * takeover_ns takes the gate over (CAS on `away`), so short Java calls never
 * let another thread in, and long ones (join, sleep, a future) do, which is
 * what keeps a thread waiting in Java for another thread's JS from
 * deadlocking. JSC re-takes the locks it dropped around callbacks newest
 * first, so a thread that was taken over resumes only when it is the newest
 * suspension (LIFO).
 *
 * Built with -DSTRAIT_DEBUG, gate.c checks its invariants on every
 * operation (owner, depth, word and the gate's JSC lock agree; records are
 * resumed in order) and aborts with a message when one fails.
 */
typedef struct strait__gate {
  _Atomic int word;
  _Atomic uintptr_t owner;
  int depth;                 /* touched by the owner only */
  _Atomic int waiters;
  _Atomic int closing;
  long spin_ns;              /* <0: no spinning (park at once) */
  long takeover_ns;          /* how long an owner may stay in Java untaken */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  _Atomic uint64_t away;     /* seq of the armed suspension, or 0 */
  /* the deadline (CLOCK_MONOTONIC ns, 0: none) of the stay whose
   * suspension is armed, written before `away` is: read by the watcher of
   * host calls (watchdog.c) on its own thread */
  _Atomic int64_t away_deadline_ns;
  uint64_t next_seq;         /* word holder only */
  strait__susp_rec *top;     /* newest live suspension; word holder only */
  size_t nsusp;              /* live suspensions (STRAIT_DEBUG builds); word holder only */
  _Atomic unsigned long susp_pops;   /* bumped by every pop */
  _Atomic int turn_waiters;          /* resumers parked on turn_cv */
  pthread_cond_t turn_cv;            /* with mu */
  _Atomic int spinner;       /* 1 while one waiter spins (the others park) */
  _Atomic uint32_t releases; /* count of releases (written by the word holder only) */
  _Atomic int starving;      /* parked waiters that waited past the fairness delay */
  int handoff;               /* with mu: the word was handed to a parked waiter */
  /* STRAIT_DEBUG builds only (kept in every build so the layout does not
   * depend on the define): 1 while the gate holds the JSC lock for the
   * word holder's current stay. Word holder only. */
  int dbg_locked;
} strait__gate;

void strait__gate_init(strait__gate *g);
void strait__gate_destroy(strait__gate *g);
/* 1 when the library was built with STRAIT_DEBUG (gate invariants checked). */
int strait__gate_checked(void);
/* Token of the calling thread (address of a thread-local). */
uintptr_t strait__thread_token(void);
/* Initial spin budget and takeover delay in microseconds: 0 takes the
 * environment (STRAIT_GATE_SPIN_US, STRAIT_GATE_TAKEOVER_US) or the defaults
 * (see strait_options). Any thread. */
void strait__gate_configure(strait__gate *g, long spin_us, long takeover_us);

/* strait_enter() that never waits: 0 when the calling thread is now inside
 * rt (a fresh stay, left with strait_leave), STRAIT_EBUSY when another
 * thread holds or waits to take the gate back, or when the calling thread
 * is inside rt already (held or suspended: a stay on top would break the
 * order JSC takes its locks back in), STRAIT_ECLOSED while rt closes. For a
 * thread inside another runtime that hands an idle runtime a finished value
 * (worker.c): between this and strait_leave(rt) it may use rt's engine
 * only. Any thread. */
int strait__try_enter(strait_runtime *rt);

/* Non-zero when the calling thread is at the outermost level of its stay
 * in rt: depth 1 and no suspension of its own on rt below (not inside a
 * callback of rt's JS). Where a microtask checkpoint may run. Inside the
 * gate. */
int strait__gate_outermost(strait_runtime *rt);

/* The gate's operations for the layers above are public (strait.h:
 * strait_gate_suspend, strait_gate_resume, strait_gate_suspend_unlocked,
 * strait_gate_resume_unlocked, strait_enter_or_give_up). */

#endif /* STRAIT_GATE_H */

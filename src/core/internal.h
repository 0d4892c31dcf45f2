/*
 * internal.h - the core's private declarations (strait__ prefix).
 * Nothing here is exported from libstrait.so (see src/strait.map).
 */
#ifndef STRAIT_INTERNAL_H
#define STRAIT_INTERNAL_H

#include "strait.h"
#include "jsc_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* ---- admission gate (gate.c) ---------------------------------------- */

/*
 * One suspension: a thread that owned the gate went from a JSC callback into
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
typedef struct strait__susp {
  struct strait__gate *gate;         /* the suspended runtime's gate */
  struct strait__susp *below;        /* next older suspension on gate (any thread) */
  struct strait__susp *thread_prev;  /* the thread's previous live suspension */
  struct strait__susp *skip;         /* the thread's nearest older one on another gate */
  uint64_t seq;              /* value of gate.away while this one is armed */
  int depth;                 /* the thread's depth when it suspended */
  int state;                 /* SUSP_* (gate.c) */
  int dbg_locked;            /* gate.dbg_locked when it suspended (STRAIT_DEBUG) */
} strait__susp;

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
  uint64_t next_seq;         /* word holder only */
  strait__susp *top;         /* newest live suspension; word holder only */
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
/* Suspends the gate lazily (see above) into *s, a record in the caller's
 * frame that must stay there until strait__gate_resume(rt, s). Owner only,
 * inside a JSC callback (JSC dropped its lock). Does not touch the JSC
 * lock. Never fails. */
void strait__gate_suspend(strait_runtime *rt, strait__susp *s);
/* Takes the gate back after strait__gate_suspend(rt, s) on the same thread,
 * newest first among the thread's suspensions. Never fails, even while
 * closing: the thread must unwind its JS frames. */
void strait__gate_resume(strait_runtime *rt, strait__susp *s);
/* Releases the gate at once, for a thread that released the JSC lock
 * itself with JSUnlock (not inside a JSC callback; it JSLocks again after
 * resuming): not ordered. Returns a ticket for
 * strait__gate_resume_unlocked(). Owner only. */
int strait__gate_suspend_unlocked(strait_runtime *rt);
/* Takes the gate back after strait__gate_suspend_unlocked() (pass its
 * ticket). Never fails, even while closing. */
void strait__gate_resume_unlocked(strait_runtime *rt, int ticket);
/* strait_enter() whose parked wait wakes every 10 ms to ask give_up(ud)
 * (called with no lock held, e.g. "was this Java thread interrupted?") and
 * stops waiting when it says so (STRAIT_EINTR) or the runtime is closing
 * (STRAIT_ECLOSED). The fast paths cost the same as strait_enter(). */
int strait__enter_or_give_up(strait_runtime *rt, int (*give_up)(void *), void *ud);

/* ---- timers and tasks (loop.c, timers.c) ----------------------------- */

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

void strait__loop_init(strait__loop *l);
/* Drops every queued task (calling drop) and every timer. Inside the gate. */
void strait__loop_destroy(strait_runtime *rt);
double strait__now_ms(void);
/* Installs setTimeout & co. on the global object. Inside the gate. */
int strait__timers_install(strait_runtime *rt, JSValueRef *exception);

/* ---- the runtime ------------------------------------------------------ */

struct strait_runtime {
  JSContextGroupRef group;
  JSGlobalContextRef ctx;
  strait__gate gate;
  strait__loop loop;
  strait_options opts;       /* argv deep-copied below */
  char **argv;
  int argc;
  void *embedder;
  void (*embedder_teardown)(strait_runtime *, void *);
  JSObjectRef internal;      /* protected: the bootstrap's private object */
  JSValueRef pending_error;  /* protected: uncaught error from a callback */
  JSValueRef returned_error; /* protected: the error strait_loop_run last returned */
  int exit_code;
  bool exiting;              /* process.exit() ran (embedded hook) */
};

/* Called once per process before the first context group is created. */
void strait__jsc_init_once(void);

/* ---- strings and values (value.c) ----------------------------------- */

/* UTF-8 -> JSStringRef (invalid bytes become U+FFFD). Caller releases. */
JSStringRef strait__jsstring_utf8(const char *s, size_t len);
/* JSStringRef -> malloc'd UTF-8 (lone surrogates become U+FFFD). */
char *strait__utf8_from_jsstring(JSStringRef s, size_t *len_out);
/* ToString(v) as malloc'd UTF-8; NULL if ToString threw. */
char *strait__utf8_from_value(JSContextRef ctx, JSValueRef v, size_t *len_out);
/* Makes a native function and stores it as obj[name] (non-enumerable). */
JSObjectRef strait__set_function(JSContextRef ctx, JSObjectRef obj, const char *name,
                                 JSObjectCallAsFunctionCallback fn);
void strait__set_value(JSContextRef ctx, JSObjectRef obj, const char *name,
                       JSValueRef v, JSPropertyAttributes attrs);
JSValueRef strait__get(JSContextRef ctx, JSObjectRef obj, const char *name);
/* new TypeError(msg) / RangeError / Error as a JSValueRef. */
JSValueRef strait__make_error(JSContextRef ctx, const char *ctor, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- JS environment (env.c: console, process, require) --------------- */

/*
 * Installs the JS environment (console, process, require, globalThis
 * helpers) from the bootstrap scripts compiled into the library. Inside the
 * gate, once per runtime, from strait_runtime_new().
 */
int strait__env_install(strait_runtime *rt, JSValueRef *exception);
/* Writes through the runtime's sink (opts.write or fd). Returns 0 or the
 * errno of a failed write to the fd. Inside the gate. */
int strait__write(strait_runtime *rt, int fd, const char *utf8, size_t len);
/* Writes all of the bytes to fd: retries EINTR and short writes, polls a
 * full non-blocking fd; EPIPE ends the process when rt has no on_exit hook
 * (console.c). Returns 0 or an errno. Inside the gate. */
int strait__fd_write(strait_runtime *rt, int fd, const char *utf8, size_t len);
/* Reports an uncaught error via the sink, as strait_error_format(). */
void strait__report(strait_runtime *rt, JSValueRef exception);

/* The JS sources compiled in by tools/embed. */
#include "js_sources.h"

#endif /* STRAIT_INTERNAL_H */

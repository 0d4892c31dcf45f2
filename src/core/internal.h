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
 * One per runtime. `word` is 0 when free, 1 when owned. The owner is
 * identified by a per-thread token; depth counts nested enters of the owner.
 * Waiters spin for spin_ns, then park on cv. Rule: the gate is held only
 * while a thread runs JS or touches the engine; a thread that leaves JS for
 * a long stay outside (a Java callback) suspends the gate so other threads
 * can enter meanwhile (strait__gate_suspend / strait__gate_resume).
 */
typedef struct strait__gate {
  _Atomic int word;
  _Atomic uintptr_t owner;
  int depth;                 /* touched by the owner only */
  _Atomic int waiters;
  _Atomic int closing;
  long spin_ns;              /* <0: no spinning (park at once) */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  /* Threads suspended inside a JSC callback, oldest first (owner only).
   * JSC re-takes locks dropped around callbacks in LIFO order only, so a
   * suspended thread may resume only when it is the newest (gate.c). */
  uintptr_t *susp;
  size_t nsusp, capsusp;
  _Atomic unsigned long susp_pops;   /* bumped by every ordered resume */
  _Atomic int turn_waiters;          /* resumers parked on turn_cv */
  pthread_cond_t turn_cv;            /* with mu */
} strait__gate;

void strait__gate_init(strait__gate *g);
void strait__gate_destroy(strait__gate *g);
/* Token of the calling thread (address of a thread-local). */
uintptr_t strait__thread_token(void);
/* Releases the gate entirely, returning the depth to give to resume.
 * Must be owner, inside a JSC callback (JSC dropped its lock). Does not
 * touch the JSC lock. Suspensions resume in LIFO order: JSC re-takes
 * dropped locks newest first, so a thread whose Java call returned waits
 * until the threads that suspended after it have resumed and left JS. */
int strait__gate_suspend(strait_runtime *rt);
/* Same, for a thread that released the JSC lock itself with JSUnlock (not
 * inside a JSC callback; it JSLocks again after resuming): not ordered. */
int strait__gate_suspend_unlocked(strait_runtime *rt);
/* Re-acquires the gate after either suspend (pass its return value). */
void strait__gate_resume(strait_runtime *rt, int depth);
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
/* Writes through the runtime's sink (opts.write or fd). Inside the gate. */
void strait__write(strait_runtime *rt, int fd, const char *utf8, size_t len);
/* Reports an uncaught error via the sink, as strait_error_format(). */
void strait__report(strait_runtime *rt, JSValueRef exception);

/* Bootstrap sources compiled in by tools/embed (build/gen/js_sources.c). */
typedef struct strait__js_source {
  const char *name;          /* file name under src/core/js/ */
  const char *text;          /* UTF-8 */
  size_t len;
} strait__js_source;
extern const strait__js_source strait__js_sources[];
extern const size_t strait__js_source_count;
const strait__js_source *strait__js_source_find(const char *name);

#endif /* STRAIT_INTERNAL_H */

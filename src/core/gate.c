/*
 * gate.c - the per-runtime admission gate in front of the engine.
 *
 * A thread that wants the runtime CASes `word` from 0 to 1. If that fails,
 * one waiter at a time spins for a bounded time (the owner's stay is
 * usually short: one call) and the others park on a condition variable; a
 * waiter parked for long gets the word handed to it (fairness). The owner re-enters for free (depth).
 * While it owns the gate the thread also holds JSC's API lock (JSLock), so
 * the C API calls it makes do not take and drop that lock one by one.
 *
 * Suspensions (a JSC callback calling into Java) are lazy: see gate.h.
 */
#include "gate.h"
#include "common/jsc_private.h"
#include "eval.h"
#include "runtime.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* States of a suspension (strait__susp_rec.state). */
enum {
  SUSP_ARMED = 1,      /* in Java, still owner, may be taken over */
  SUSP_RECLAIMED,      /* Java called back into JS on the same thread: owner */
  SUSP_TAKEN,          /* another thread took the gate over */
  SUSP_REACQUIRED,     /* taken, then re-acquired for a nested call: owner */
};

/* Ticket bit of strait_gate_suspend_unlocked(): the thread's newest
 * suspension on the gate was its way in and must be re-marked as owner on
 * resume. The other bits are the depth. */
#define TICKET_HAD_SUSP (1 << 30)

/* Per-thread state, initial-exec so each access is one %fs-relative load
 * instead of a __tls_get_addr call: its address is the thread's token, and
 * `top` is the thread's newest live suspension on any gate (the records
 * live in the callers' frames; see strait__susp_rec). Touched by the thread
 * only. */
static _Thread_local __attribute__((tls_model("initial-exec"))) struct {
  strait__susp_rec *top;
} tl;

/* Debug builds (-DSTRAIT_DEBUG) check the gate's invariants, as an API
 * check: a failed one names itself on stderr and aborts. */
#ifdef STRAIT_DEBUG
#include <stdio.h>
static void check_failed(const char *fn, const char *what) {
  fprintf(stderr, "strait: gate invariant failed in %s: %s\n", fn, what);
  abort();
}
#define GATE_CHECK(cond, what) \
  do { if (!(cond)) check_failed(__func__, what); } while (0)
#define GATE_DEBUG(stmt) do { stmt; } while (0)
#else
#define GATE_CHECK(cond, what) ((void)0)
#define GATE_DEBUG(stmt) ((void)0)
#endif

/* The calling thread is inside g: it holds the word, is the owner, has
 * entered at least once and the gate holds the JSC lock for it. */
#define CHECK_INSIDE(g, what)                                                        \
  do {                                                                               \
    GATE_CHECK(atomic_load(&(g)->word) == 1, what ": word free");                   \
    GATE_CHECK(atomic_load(&(g)->owner) == strait__thread_token(), what ": not owner"); \
    GATE_CHECK((g)->depth >= 1, what ": depth < 1");                                 \
    GATE_CHECK((g)->dbg_locked == 1, what ": JSC lock not held");                    \
  } while (0)

/* 1 when this build checks the gate's invariants (STRAIT_DEBUG). */
int strait__gate_checked(void) {
#ifdef STRAIT_DEBUG
  return 1;
#else
  return 0;
#endif
}

/* Token of the calling thread: the address of a thread-local. Any thread. */
uintptr_t strait__thread_token(void) { return (uintptr_t)&tl; }

static long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static long env_us(const char *name, long dflt) {
  const char *s = getenv(name);
  return s ? strtol(s, NULL, 10) : dflt;
}

/* Sets the spin budget and the takeover delay (see gate.h): a value of 0
 * comes from STRAIT_GATE_SPIN_US (default 50 us; negative disables
 * spinning) or STRAIT_GATE_TAKEOVER_US (default 1000 us). Any thread,
 * before the gate is shared. */
void strait__gate_configure(strait__gate *g, long spin_us, long takeover_us) {
  long us = spin_us ? spin_us : env_us("STRAIT_GATE_SPIN_US", 50);
  g->spin_ns = us < 0 ? -1 : us * 1000;
  us = takeover_us ? takeover_us : env_us("STRAIT_GATE_TAKEOVER_US", 1000);
  g->takeover_ns = us < 0 ? 0 : us * 1000;
}

/* Sets a live gate's spin budget (see strait.h). The field is read by
 * waiters without a lock; a torn read only changes one wait's budget. Any
 * thread. */
void strait_gate_set_spin(strait_runtime *rt, long spin_us) {
  rt->gate.spin_ns = spin_us < 0 ? -1 : spin_us * 1000;
}

/* Initializes a free gate with the spin budget and takeover delay from the
 * environment (strait__gate_configure(g, 0, 0)). Any thread. */
void strait__gate_init(strait__gate *g) {
  atomic_init(&g->word, 0);
  atomic_init(&g->owner, 0);
  atomic_init(&g->waiters, 0);
  atomic_init(&g->closing, 0);
  atomic_init(&g->away, 0);
  atomic_init(&g->away_deadline_ns, 0);
  atomic_init(&g->susp_pops, 0);
  atomic_init(&g->turn_waiters, 0);
  atomic_init(&g->spinner, 0);
  atomic_init(&g->releases, 0);
  atomic_init(&g->starving, 0);
  g->handoff = 0;
  g->depth = 0;
  g->next_seq = 0;
  g->top = NULL;
  g->nsusp = 0;
  g->dbg_locked = 0;
  strait__gate_configure(g, 0, 0);
  pthread_mutex_init(&g->mu, NULL);
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&g->cv, &a);
  pthread_cond_init(&g->turn_cv, &a);
  pthread_condattr_destroy(&a);
}

/* Destroys a gate nobody owns or waits on. */
void strait__gate_destroy(strait__gate *g) {
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
  pthread_cond_destroy(&g->turn_cv);
}

static inline int try_take(strait__gate *g) {
  int expect = 0;
  return atomic_compare_exchange_strong_explicit(&g->word, &expect, 1,
                                                 memory_order_acquire,
                                                 memory_order_relaxed);
}

/* Watches `away` for a takeover: an armed suspension seen continuously
 * (same seq) for takeover_ns is taken with a CAS. Returns 1 when the caller
 * now holds the gate word in the suspended owner's place. */
typedef struct takeover_watch {
  uint64_t seq;
  long since;
} takeover_watch;

static int try_takeover(strait__gate *g, takeover_watch *w, long now) {
  uint64_t a = atomic_load_explicit(&g->away, memory_order_acquire);
  if (a == 0) {
    w->seq = 0;
    return 0;
  }
  if (a != w->seq) {
    w->seq = a;
    w->since = now;
    return 0;
  }
  if (now - w->since < g->takeover_ns) return 0;
  return atomic_compare_exchange_strong(&g->away, &a, 0);
}

static void deadline_ts(struct timespec *ts, long ns_from_now) {
  clock_gettime(CLOCK_MONOTONIC, ts);
  long ns = ts->tv_nsec + ns_from_now;
  ts->tv_sec += ns / 1000000000L;
  ts->tv_nsec = ns % 1000000000L;
}

/* Looks at the word between two yields of the spinner. */
#define SPIN_LOOKS 32
/* The spinner's grace before it takes a free word: 64 pauses, about 1.3 us
 * here (20 ns a pause; up to ~3 us on CPUs with a slower pause). */
#define GRACE_LOOKS 64

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* How long a parked waiter waits before it counts as starving: from then
 * on nobody spins or barges, and each release hands the word to a parked
 * waiter. */
#define STARVE_NS 1000000L

/* The one spinner's wait: looks at the word SPIN_LOOKS times (a short gap
 * between two stays of the owner is caught), then yields the CPU (on a
 * machine with few cores a waiter spinning in place keeps the owner, or
 * the previous owner coming back, off the CPU), for spin_ns; looks for a
 * takeover when `takeover`. 1 once it holds the word,
 * 0 when the budget ran out or a parked waiter is starving. */
static int spin(strait__gate *g, int takeover, takeover_watch *w) {
  long deadline = now_ns() + g->spin_ns;
  long now;
  do {
    for (int i = 0; i < SPIN_LOOKS; i++) {
      if (atomic_load_explicit(&g->word, memory_order_relaxed) == 0) {
        /* Free: first give the thread that just released it the time to
         * come back for its next call (a run of calls on one thread keeps
         * JSC's lock and caches on one core; taking the word at once made
         * two threads alternate on every call, about twice slower than
         * JSC's lock alone). Taken only if nobody took and released it
         * meanwhile; fairness still comes from parking and handoff. */
        uint32_t seen = atomic_load_explicit(&g->releases, memory_order_relaxed);
        for (int k = 0; k < GRACE_LOOKS; k++) cpu_relax();
        if (atomic_load_explicit(&g->word, memory_order_relaxed) == 0 &&
            atomic_load_explicit(&g->releases, memory_order_relaxed) == seen && try_take(g))
          return 1;
      }
      cpu_relax();
    }
    if (atomic_load_explicit(&g->starving, memory_order_relaxed)) return 0;
    sched_yield();
    now = now_ns();
    if (takeover && try_takeover(g, w, now)) return 1;
  } while (now < deadline);
  return 0;
}

/* Takes a word handed over by release(): only a starving waiter may, while
 * one is parked. With mu held. */
static inline int claim_handoff(strait__gate *g, int starving) {
  if (!g->handoff || (!starving && atomic_load(&g->starving) > 0)) return 0;
  g->handoff = 0;
  return 1;
}

/*
 * Blocks until the calling thread holds the gate word: free and taken,
 * handed over by a release, or taken over from an owner that stayed in
 * Java (when `takeover`). One waiter at a time spins (on a machine with few
 * cores more spinners only steal the owner's CPU); the others park at once.
 * A parked waiter wakes on release, at the fairness delay, every takeover
 * delay (to look for an owner that stayed in Java), and every 10 ms when
 * give_up is set, which it then asks (with no lock held): non-zero stops
 * the wait with STRAIT_EINTR, a closing runtime with STRAIT_ECLOSED.
 * Returns 0 once it holds the word. Any thread; the caller's try_take()
 * already failed.
 */
static int acquire_slow(strait__gate *g, int takeover, int (*give_up)(void *), void *ud) {
  takeover_watch w = {0, 0};
  if (g->spin_ns > 0 && !atomic_load(&g->starving) && !atomic_exchange(&g->spinner, 1)) {
    int got = spin(g, takeover, &w);
    atomic_store(&g->spinner, 0);
    if (got) return 0;
  }
  int rc = 0, starving = 0;
  long parked = now_ns();
  pthread_mutex_lock(&g->mu);
  atomic_fetch_add(&g->waiters, 1);
  for (;;) {
    if (claim_handoff(g, starving)) break;
    if (try_take(g)) break;
    long now = now_ns();
    if (takeover && try_takeover(g, &w, now)) break;
    if (!starving && now - parked >= STARVE_NS) {
      starving = 1;
      atomic_fetch_add(&g->starving, 1);
    }
    /* Suspensions do not wake parked waiters (that would cost every
     * callback a syscall under contention): a waiter that may take over
     * polls at the takeover delay instead. Until it starves a waiter also
     * wakes at the fairness delay. */
    long wait_ns = give_up ? 10000000L : -1;
    if (!starving && (wait_ns < 0 || STARVE_NS < wait_ns)) wait_ns = STARVE_NS;
    if (takeover) {
      long due = w.seq ? w.since + g->takeover_ns - now : g->takeover_ns;
      if (due < 0) due = 0;
      if (wait_ns < 0 || due < wait_ns) wait_ns = due + 1000;
    }
    if (wait_ns < 0) {
      pthread_cond_wait(&g->cv, &g->mu);
    } else {
      struct timespec ts;
      deadline_ts(&ts, wait_ns);
      pthread_cond_timedwait(&g->cv, &g->mu, &ts);
    }
    if (claim_handoff(g, starving)) break;
    if (try_take(g)) break;
    if (give_up) {
      pthread_mutex_unlock(&g->mu);
      int stop = atomic_load(&g->closing) ? STRAIT_ECLOSED : (give_up(ud) ? STRAIT_EINTR : 0);
      pthread_mutex_lock(&g->mu);
      if (stop) {
        if (g->handoff) g->handoff = 0;
        else if (!try_take(g)) rc = stop;
        break;
      }
    }
  }
  if (starving) atomic_fetch_sub(&g->starving, 1);
  atomic_fetch_sub(&g->waiters, 1);
  pthread_mutex_unlock(&g->mu);
  return rc;
}

/* acquire_slow() after a failed fast try. Any thread. */
static inline int acquire(strait__gate *g, int takeover, int (*give_up)(void *), void *ud) {
  return try_take(g) ? 0 : acquire_slow(g, takeover, give_up, ud);
}

/* Frees the gate word: hands it to a parked waiter while one is starving,
 * else clears it and wakes one parked waiter when nobody spins (the spinner
 * takes the word by itself). Word holder only. */
static void release(strait__gate *g) {
  atomic_store_explicit(&g->owner, 0, memory_order_relaxed);
  atomic_store_explicit(&g->releases, atomic_load_explicit(&g->releases, memory_order_relaxed) + 1,
                        memory_order_relaxed);
  if (atomic_load(&g->starving) > 0) {
    pthread_mutex_lock(&g->mu);
    if (atomic_load(&g->waiters) > 0) {
      g->handoff = 1;
      pthread_cond_broadcast(&g->cv);   /* the starving one must see it */
      pthread_mutex_unlock(&g->mu);
      return;
    }
    pthread_mutex_unlock(&g->mu);
  }
  /* Sequentially consistent: a parking waiter counts itself in `waiters`
   * and then tries the word, so this store must not pass the loads below. */
  atomic_exchange(&g->word, 0);
  if (atomic_load(&g->waiters) > 0 && atomic_load(&g->spinner) == 0) {
    pthread_mutex_lock(&g->mu);
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
  }
}

/* The calling thread's newest live suspension on g, or NULL. Walks the
 * thread's chain one run of same-gate records at a time, so crossing
 * runtimes (A -> B -> A ...) costs a step or two. Call it only when
 * tl.top is set (the common case, no suspension, is tested inline). */
static strait__susp_rec *my_susp(strait__gate *g) {
  strait__susp_rec *s = tl.top;
  while (s && s->gate != g) s = s->skip;
  return s;
}

/* Takes the JSC lock for a stay that starts (depth 0 -> 1). */
static inline void lock_engine(strait_runtime *rt) {
  GATE_CHECK(rt->gate.dbg_locked == 0, "JSC lock taken twice");
  GATE_DEBUG(rt->gate.dbg_locked = 1);
  JSLock(rt->ctx);
}

/* A thread (re)gains the gate: code outside this runtime's JS may have
 * run since its JS last ran on this thread (see strait_crossings). Inside
 * the gate. */
static inline void crossed(strait_runtime *rt) { rt->crossings += 1; }

/* Code other than rt's JS may run next: the release hook puts a host's
 * read-ahead state back (see strait_set_release_hook). Inside the gate. */
static inline void releasing(strait_runtime *rt) {
  if (rt->release_hook) rt->release_hook(rt, rt->release_ud);
}

/* Shared body of strait_enter and strait_enter_or_give_up. */
static int enter_gate(strait_runtime *rt, int (*give_up)(void *), void *ud) {
  strait__gate *g = &rt->gate;
  uintptr_t me = strait__thread_token();
  strait__susp_rec *s = tl.top ? my_susp(g) : NULL;
  if (s) {
    /* Java code running inside one of this thread's callbacks calls JS. */
    if (s->state == SUSP_RECLAIMED || s->state == SUSP_REACQUIRED) {
      CHECK_INSIDE(g, "nested enter");
      g->depth++;
      return 0;
    }
    if (s->state == SUSP_ARMED) {
      uint64_t seq = s->seq;
      if (atomic_compare_exchange_strong(&g->away, &seq, 0)) {
        GATE_CHECK(g->top == s, "reclaimed suspension is not the newest");
        GATE_CHECK(atomic_load(&g->owner) == me && g->depth == 0, "reclaim: not the owner");
        s->state = SUSP_RECLAIMED;
        g->depth = 1;
        lock_engine(rt);
        return 0;
      }
      s->state = SUSP_TAKEN;
    }
    GATE_CHECK(s->state == SUSP_TAKEN, "enter: bad suspension state");
    if (atomic_load(&g->closing)) return STRAIT_ECLOSED;
    int rc = acquire(g, 1, give_up, ud);
    if (rc) return rc;
    s->state = SUSP_REACQUIRED;
  } else {
    if (atomic_load_explicit(&g->owner, memory_order_relaxed) == me) {
      CHECK_INSIDE(g, "nested enter");
      g->depth++;
      return 0;
    }
    if (atomic_load(&g->closing)) return STRAIT_ECLOSED;
    int rc = acquire(g, 1, give_up, ud);
    if (rc) return rc;
  }
  if (atomic_load(&g->closing)) {
    if (s) s->state = SUSP_TAKEN;
    release(g);
    return STRAIT_ECLOSED;
  }
  atomic_store_explicit(&g->owner, me, memory_order_relaxed);
  g->depth = 1;
  lock_engine(rt);
  /* A call from Java inside this thread's own suspended callback goes on
   * with that stay (its deadline, its interrupt); anything else is a new
   * stay. */
  if (s) rt->wd.cur = s->stay;
  else strait__watch_stay_begin(rt);
  return 0;
}

static int enter(strait_runtime *rt, int (*give_up)(void *), void *ud) {
  int rc = enter_gate(rt, give_up, ud);
  if (rc == 0) crossed(rt);
  return rc;
}

/* Enters rt (see strait.h). Any thread. */
int strait_enter(strait_runtime *rt) { return enter(rt, NULL, NULL); }

/* Enters rt only when that needs no wait (see gate.h). Any thread. */
int strait__try_enter(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  if (atomic_load(&g->closing)) return STRAIT_ECLOSED;
  uintptr_t me = strait__thread_token();
  /* Inside it already (held, or suspended further up this thread's stack):
   * a fresh stay on top would break the LIFO order of the JSC locks. */
  if (atomic_load_explicit(&g->owner, memory_order_relaxed) == me) return STRAIT_EBUSY;
  if (tl.top && my_susp(g)) return STRAIT_EBUSY;
  if (!try_take(g)) return STRAIT_EBUSY;
  if (atomic_load(&g->closing)) {
    release(g);
    return STRAIT_ECLOSED;
  }
  atomic_store_explicit(&g->owner, me, memory_order_relaxed);
  g->depth = 1;
  lock_engine(rt);
  strait__watch_stay_begin(rt);
  crossed(rt);
  return 0;
}

/* strait_enter() for a thread that may have to stop waiting (see
 * strait.h). Any thread. */
int strait_enter_or_give_up(strait_runtime *rt, int (*give_up)(void *), void *ud) {
  return enter(rt, give_up, ud);
}

/* Arms suspension s: the owner is in Java and may be taken over. */
static void arm(strait__gate *g, strait__susp_rec *s) {
  atomic_store_explicit(&g->away_deadline_ns, s->stay.deadline_ns, memory_order_relaxed);
  s->seq = ++g->next_seq;
  s->state = SUSP_ARMED;
  atomic_store_explicit(&g->away, s->seq, memory_order_release);
}

/* Outermost level of the calling thread's stay (see gate.h). */
int strait__gate_outermost(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  return g->depth == 1 && !(tl.top && my_susp(g));
}

/* Leaves rt once. The last leave of a stay first holds its microtask
 * checkpoint (eval.c: the promise jobs run under the stay's limits, while
 * this thread still owns the gate), then releases the JSC lock and the
 * gate; a nested call made from Java inside a callback re-arms that
 * callback's suspension instead. Returns the stay's termination reason
 * when this leave ended a terminated stay (its checkpoint included), else
 * 0. Owner thread only. */
int strait_leave(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  CHECK_INSIDE(g, "leave");
  if (g->depth > 1) {
    g->depth--;
    return 0;
  }
  strait__susp_rec *s = tl.top ? my_susp(g) : NULL;
  int reason = s ? 0 : strait__checkpoint(rt);
  /* the stay's own JS (its promise jobs included) is over: other code may
   * run next */
  releasing(rt);
  JSUnlock(rt->ctx);
  GATE_DEBUG(g->dbg_locked = 0);
  g->depth = 0;
  if (s) s->stay = rt->wd.cur;   /* the stay goes on in the callback */
  if (s && s->state == SUSP_RECLAIMED) {
    GATE_CHECK(g->top == s, "re-armed suspension is not the newest");
    arm(g, s);
    return 0;
  }
  if (s) {
    GATE_CHECK(s->state == SUSP_REACQUIRED, "leave: bad suspension state");
    s->state = SUSP_TAKEN;
  } else {
    strait__watch_stay_end(rt);
  }
  release(g);
  return reason;
}

/* Non-zero when the calling thread owns rt's gate. Any thread. */
int strait_inside(strait_runtime *rt) {
  return atomic_load_explicit(&rt->gate.owner, memory_order_relaxed) ==
         strait__thread_token();
}

/* The runtime's crossing counter (see strait.h). */
const volatile double *strait_crossings(strait_runtime *rt) { return &rt->crossings; }

void strait_cross(strait_runtime *rt) {
  CHECK_INSIDE(&rt->gate, "strait_cross");
  releasing(rt);
  crossed(rt);
}

void strait_set_release_hook(strait_runtime *rt, void (*fn)(strait_runtime *rt, void *ud), void *ud) {
  CHECK_INSIDE(&rt->gate, "strait_set_release_hook");
  rt->release_hook = fn;
  rt->release_ud = ud;
}

/* Suspends lazily into the caller's record (see gate.h): pushes it on the
 * gate's and the thread's chains and arms it. Owner only, inside a JSC
 * callback. */
void strait_gate_suspend(strait_runtime *rt, strait_suspension *ps) {
  strait__susp_rec *s = (strait__susp_rec *)ps;
  strait__gate *g = &rt->gate;
  CHECK_INSIDE(g, "suspend");
  releasing(rt);
  /* JSC dropped its lock around the callback; it takes it back itself. */
  GATE_DEBUG(s->dbg_locked = g->dbg_locked; g->dbg_locked = 0);
  s->gate = g;
  s->depth = g->depth;
  s->stay = rt->wd.cur;
  s->below = g->top;
  g->top = s;
  GATE_DEBUG(g->nsusp++);
  strait__susp_rec *t = tl.top;
  s->thread_prev = t;
  s->skip = !t ? NULL : t->gate == g ? t->skip : t;
  tl.top = s;
  g->depth = 0;
  arm(g, s);
}

/* Releases the gate at once (see strait.h). A suspension that was this
 * thread's way into the gate loses the word with it, so a nested enter
 * before the resume waits like any other thread. Owner only. */
int strait_gate_suspend_unlocked(strait_runtime *rt) {
  strait__gate *g = &rt->gate;
  CHECK_INSIDE(g, "suspend_unlocked");
  releasing(rt);
  int ticket = g->depth;
  GATE_CHECK(ticket < TICKET_HAD_SUSP, "depth overflows the ticket");
  strait__susp_rec *s = tl.top ? my_susp(g) : NULL;
  if (s) {
    GATE_CHECK(s->state == SUSP_RECLAIMED || s->state == SUSP_REACQUIRED,
               "suspend_unlocked: bad suspension state");
    s->state = SUSP_TAKEN;
    s->stay = rt->wd.cur;
    ticket |= TICKET_HAD_SUSP;
  }
  /* The caller released the JSC lock itself (JSUnlock). */
  GATE_DEBUG(g->dbg_locked = 0);
  g->depth = 0;
  release(g);
  return ticket;
}

/* Takes the gate back after strait_gate_suspend_unlocked(). Any order:
 * the caller takes the JSC lock itself. */
void strait_gate_resume_unlocked(strait_runtime *rt, int ticket) {
  strait__gate *g = &rt->gate;
  acquire(g, 0, NULL, NULL);
  atomic_store_explicit(&g->owner, strait__thread_token(), memory_order_relaxed);
  g->depth = ticket & ~TICKET_HAD_SUSP;
  GATE_DEBUG(g->dbg_locked = 1);
  if (ticket & TICKET_HAD_SUSP) {
    strait__susp_rec *s = tl.top ? my_susp(g) : NULL;
    GATE_CHECK(s && s->state == SUSP_TAKEN, "resume_unlocked: suspension lost");
    s->state = SUSP_REACQUIRED;
    rt->wd.cur = s->stay;
  } else {
    strait__watch_stay_resume_unlocked(rt);
  }
  crossed(rt);
}

/* Pops s, the newest suspension on g and of this thread, and lets resumers
 * waiting for their turn look again. Word holder only. */
static void pop(strait__gate *g, strait__susp_rec *s) {
  GATE_CHECK(g->top == s && g->nsusp > 0, "pop: not the gate's newest suspension");
  GATE_CHECK(tl.top == s, "pop: not the thread's newest suspension");
  g->top = s->below;
  GATE_DEBUG(g->nsusp--);
  tl.top = s->thread_prev;
  atomic_fetch_add(&g->susp_pops, 1);
  if (atomic_load(&g->turn_waiters) > 0) {
    pthread_mutex_lock(&g->mu);
    pthread_cond_broadcast(&g->turn_cv);
    pthread_mutex_unlock(&g->mu);
  }
}

/* Takes the gate back after strait_gate_suspend(rt, s) (see strait.h). A
 * suspension that nobody took over costs one CAS. One that was taken waits
 * until it is the newest suspension and the word is free (JSC's LIFO rule):
 * taking the gate earlier would leave it spinning in JSC for the JSC lock
 * while the thread JSC waits for parks on the gate. */
void strait_gate_resume(strait_runtime *rt, strait_suspension *ps) {
  strait__susp_rec *s = (strait__susp_rec *)ps;
  strait__gate *g = &rt->gate;
  GATE_CHECK(s->gate == g, "resume: record of another runtime");
  GATE_CHECK(tl.top == s, "resume: not the thread's newest suspension");
  GATE_CHECK(s->state == SUSP_ARMED || s->state == SUSP_TAKEN, "resume: bad suspension state");
  if (s->state == SUSP_ARMED) {
    uint64_t seq = s->seq;
    if (atomic_compare_exchange_strong(&g->away, &seq, 0)) {
      GATE_CHECK(g->depth == 0 && atomic_load(&g->owner) == strait__thread_token(),
                 "resume: armed but not the owner");
      pop(g, s);
      g->depth = s->depth;
      GATE_DEBUG(g->dbg_locked = s->dbg_locked);
      rt->wd.cur = s->stay;
      strait__watch_stay_resumed(rt);
      crossed(rt);
      return;
    }
  }
  for (;;) {
    unsigned long seen = atomic_load(&g->susp_pops);
    acquire(g, 0, NULL, NULL);
    if (g->top == s) break;
    release(g);
    pthread_mutex_lock(&g->mu);
    atomic_fetch_add(&g->turn_waiters, 1);
    while (atomic_load(&g->susp_pops) == seen) pthread_cond_wait(&g->turn_cv, &g->mu);
    atomic_fetch_sub(&g->turn_waiters, 1);
    pthread_mutex_unlock(&g->mu);
  }
  GATE_CHECK(g->depth == 0, "resume: gate word held with depth");
  pop(g, s);
  atomic_store_explicit(&g->owner, strait__thread_token(), memory_order_relaxed);
  g->depth = s->depth;
  GATE_DEBUG(g->dbg_locked = s->dbg_locked);
  rt->wd.cur = s->stay;
  strait__watch_stay_resumed(rt);
  crossed(rt);
}

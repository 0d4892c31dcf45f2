/*
 * watchdog.c - stopping running JS: strait_interrupt, the embedder's
 * poll, the time limit of an entry and the heap limit.
 *
 * One mechanism serves them all: JSC's execution-time watchdog
 * (JSContextGroupSetExecutionTimeLimit), set on the runtime's group as a
 * periodic tick. JSC starts its clock at each outermost VM entry and calls
 * on_tick() on the thread running JS (holding the VM lock) when the period
 * passed; on_tick() re-arms it (the callback's own answer does not) and
 * answers true to terminate: JSC then throws an exception that no catch
 * or finally can run JS past, and the VM is usable again once the
 * outermost entry returned. While a stay is being terminated the tick is
 * re-armed at FAST_S, so JS that a caller runs again in the same stay (a
 * catch-and-retry in C, the microtask drain) is stopped at once.
 *
 * The tick costs nothing while no JS runs (JSC's clock stops outside the
 * VM); with polling traps (runtime.c sets usePollingTraps) a tick does not
 * throw away optimized code. strait_interrupt only bumps an atomic
 * generation (async-signal-safe; calling into JSC from another thread
 * would block on the VM lock while JS runs) and wakes a waiting loop.
 *
 * Heap limit: JSC's C API has no per-heap limit and its one heap-size
 * query (JSGetMemoryUsageStatistics) walks the heap (tens of ms for a
 * million objects), so a tick asks JSC only when the process's resident
 * size (/proc/self/statm, a few microseconds) grew by heap_step since the
 * last question; over the limit it collects synchronously and asks again,
 * and terminates with STRAIT_EHEAP only when live data still exceeds it.
 */
#include "watchdog.h"
#include "common/jsc_private.h"
#include "loop.h"
#include "runtime.h"
#include "value.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The tick's period: how late an interrupt, the poll or a time limit can
 * be noticed. 10 ms: a 10-20 ms periodic tick measured no cost on call-
 * and allocation-heavy code with polling traps (NOTES in the report). */
#define TICK_S 0.010
/* The period while a stay is being terminated. */
#define FAST_S 0.001
/* Bounds of heap_step (RSS growth between two heap measurements). */
#define STEP_MIN ((int64_t)4 << 20)
#define STEP_MAX ((int64_t)32 << 20)

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Resident size of the process in bytes, or -1. Any thread. */
static int64_t rss_bytes(void) {
  int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[128];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  long long size = 0, resident = 0;
  if (sscanf(buf, "%lld %lld", &size, &resident) != 2) return -1;
  return (int64_t)resident * sysconf(_SC_PAGESIZE);
}

/* heapSize of JSGetMemoryUsageStatistics (bytes of cells, live or not yet
 * collected, plus external memory such as ArrayBuffer contents), or -1.
 * O(heap). JSC lock held. */
static int64_t heap_bytes(JSContextRef ctx) {
  JSObjectRef st = JSGetMemoryUsageStatistics(ctx);
  if (!st) return -1;
  JSValueRef v = strait_get_property(ctx, st, "heapSize");
  if (!v || !JSValueIsNumber(ctx, v)) return -1;
  double d = JSValueToNumber(ctx, v, NULL);
  return d >= 0 ? (int64_t)d : -1;
}

static bool on_tick(JSContextRef ctx, void *ud);

/* Sets the group's watchdog to call on_tick after seconds of JS. Any
 * thread holding the gate word (JSC takes the VM lock itself). */
static void arm(strait_runtime *rt, double seconds) {
  JSContextGroupSetExecutionTimeLimit(rt->group, seconds, on_tick, rt);
}

/* Whether rt's heap is over its limit: asks JSC only when the process's
 * RSS grew by heap_step since the last answer; over the limit, collects
 * and asks again. JSC lock held. */
static bool heap_over(strait_runtime *rt, JSContextRef ctx) {
  strait__watch *w = &rt->wd;
  int64_t rss = rss_bytes();
  if (rss >= 0 && rss < w->rss_mark + w->heap_step) {
    if (rss < w->rss_mark) w->rss_mark = rss;
    return false;
  }
  w->rss_mark = rss;
  int64_t h = heap_bytes(ctx);
  if (h <= w->heap_limit) return false;
  /* heapSize counts garbage not collected yet: only live data counts. */
  JSSynchronousGarbageCollectForDebugging(ctx);
  h = heap_bytes(ctx);
  w->rss_mark = rss_bytes();
  return h > w->heap_limit;
}

/* Why the running stay must stop now, or 0. JS thread, JSC lock held. */
static int check(strait_runtime *rt, JSContextRef ctx) {
  strait__watch *w = &rt->wd;
  if (atomic_load_explicit(&w->intr_gen, memory_order_relaxed) != w->cur.gen) return STRAIT_ETERM;
  if (w->poll && w->poll(w->poll_ud)) return STRAIT_ETERM;
  if (w->cur.deadline_ns && now_ns() >= w->cur.deadline_ns) return STRAIT_ETIMEDOUT;
  if (w->heap_limit && heap_over(rt, ctx)) return STRAIT_EHEAP;
  return 0;
}

/* The watchdog's callback: true terminates the running JS. Always
 * re-arms (JSC does not). JS thread, JSC lock held. */
static bool on_tick(JSContextRef ctx, void *ud) {
  strait_runtime *rt = ud;
  strait__watch *w = &rt->wd;
  int reason = w->cur.reason;
  if (!reason) reason = check(rt, ctx);
  if (reason) {
    w->cur.reason = reason;
    w->fast = true;
    arm(rt, FAST_S);
    return true;
  }
  double period = TICK_S;
  if (w->cur.deadline_ns) {
    double left = (double)(w->cur.deadline_ns - now_ns()) / 1e9;
    if (left < period) period = left > FAST_S ? left : FAST_S;
  }
  arm(rt, period);
  return false;
}

void strait__watch_init(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  atomic_init(&w->intr_gen, 0);
  w->limit_ns = rt->opts.time_limit_us * 1000;
  w->heap_limit = rt->opts.heap_limit;
  int64_t step = w->heap_limit / 8;
  w->heap_step = step < STEP_MIN ? STEP_MIN : step > STEP_MAX ? STEP_MAX : step;
  w->rss_mark = 0;
  w->cur = (strait__stay){0, 0, 0};
  arm(rt, TICK_S);
  w->armed = true;
}

/* ---- the watcher of host calls ---------------------------------------------
 *
 * A time limit is checked at the watchdog's tick, which runs only while JS
 * runs: a script waiting in a host call (a Java method that blocks) was
 * not stopped until the call returned. One thread per process, started with
 * the first runtime that has a time limit and a wait hook, looks every tick
 * at those runtimes: one whose suspension is armed (its thread is in a host
 * call, strait_gate_suspend) past its stay's deadline gets its hook called
 * once for that suspension, and the layer above wakes the call (the JNI
 * layer interrupts the Java thread). The stop itself then holds when the
 * call returns (strait_check_stop). */

static pthread_mutex_t watcher_mu = PTHREAD_MUTEX_INITIALIZER;
static strait_runtime *watched_head;   /* under watcher_mu */
static bool watcher_started;           /* under watcher_mu */

static void *watcher_main(void *unused) {
  (void)unused;
  for (;;) {
    struct timespec ts = {0, (long)(TICK_S * 1e9)};
    nanosleep(&ts, NULL);
    int64_t now = now_ns();
    pthread_mutex_lock(&watcher_mu);
    for (strait_runtime *rt = watched_head; rt; rt = rt->wd.watch_next) {
      uint64_t away = atomic_load_explicit(&rt->gate.away, memory_order_acquire);
      if (!away || away == rt->wd.wait_poked) continue;
      int64_t deadline = atomic_load_explicit(&rt->gate.away_deadline_ns, memory_order_relaxed);
      if (!deadline || now < deadline) continue;
      rt->wd.wait_poked = away;
      rt->wd.wait_hook(rt, rt->wd.wait_ud);
    }
    pthread_mutex_unlock(&watcher_mu);
  }
  return NULL;
}

/* Sets the wait hook (see strait.h). */
void strait_set_wait_hook(strait_runtime *rt, void (*hook)(strait_runtime *rt, void *ud), void *ud) {
  pthread_mutex_lock(&watcher_mu);
  rt->wd.wait_hook = hook;
  rt->wd.wait_ud = hook ? ud : NULL;
  if (hook && rt->wd.limit_ns && !rt->wd.watched) {
    rt->wd.watch_next = watched_head;
    watched_head = rt;
    rt->wd.watched = true;
    if (!watcher_started) {
      pthread_t t;
      pthread_attr_t a;
      pthread_attr_init(&a);
      pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
      pthread_attr_setstacksize(&a, 256 << 10);
      if (pthread_create(&t, &a, watcher_main, NULL) == 0) watcher_started = true;
      pthread_attr_destroy(&a);
    }
  }
  pthread_mutex_unlock(&watcher_mu);
}

/* Wakes the host call rt's thread waits in, if it does (see strait.h). */
int strait_wake_waiting(strait_runtime *rt) {
  pthread_mutex_lock(&watcher_mu);
  int woke = 0;
  if (rt->wd.wait_hook && atomic_load_explicit(&rt->gate.away, memory_order_acquire)) {
    rt->wd.wait_hook(rt, rt->wd.wait_ud);
    woke = 1;
  }
  pthread_mutex_unlock(&watcher_mu);
  return woke;
}

/* Takes rt out of the watcher's list. */
static void unwatch(strait_runtime *rt) {
  pthread_mutex_lock(&watcher_mu);
  if (rt->wd.watched) {
    for (strait_runtime **p = &watched_head; *p; p = &(*p)->wd.watch_next) {
      if (*p == rt) {
        *p = rt->wd.watch_next;
        break;
      }
    }
    rt->wd.watched = false;
  }
  rt->wd.wait_hook = NULL;
  rt->wd.wait_ud = NULL;
  pthread_mutex_unlock(&watcher_mu);
}

void strait__watch_destroy(strait_runtime *rt) {
  unwatch(rt);
  if (!rt->wd.armed) return;
  JSContextGroupClearExecutionTimeLimit(rt->group);
  rt->wd.armed = false;
}

void strait__watch_stay_begin(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  rt->checkpoint_clean = false;   /* a new stay's JS has its checkpoint to come */
  w->cur.gen = atomic_load_explicit(&w->intr_gen, memory_order_relaxed);
  w->cur.deadline_ns = w->limit_ns ? now_ns() + w->limit_ns : 0;
  w->cur.reason = 0;
  if (w->heap_dead) {
    /* Refused: any JS that still runs in this stay (a layer calling JSC
     * itself) is terminated at once. */
    w->cur.reason = STRAIT_EHEAP;
    if (!w->fast) { w->fast = true; arm(rt, FAST_S); }
  } else if (w->fast || (w->limit_ns && w->limit_ns < (int64_t)(TICK_S * 1e9))) {
    w->fast = false;
    arm(rt, w->limit_ns && w->limit_ns < (int64_t)(TICK_S * 1e9) ? (double)w->limit_ns / 1e9
                                                                 : TICK_S);
  }
}

/* JSC keeps a termination request that arrived in a nested entry (a
 * native callback's call) or in a promise job after the exception was
 * reported, and throws it at the next entry, which would kill the next
 * stay: a terminated stay runs an empty script until one completes.
 * JSC lock held. */
static void absorb_termination(strait_runtime *rt) {
  JSStringRef s = JSStringCreateWithUTF8CString("(function () { for (var i = 0; i < 2; i++) {} })()");
  for (int i = 0; i < 4; i++) {
    JSValueRef exc = NULL;
    JSEvaluateScript(rt->ctx, s, NULL, NULL, 1, &exc);
    if (!exc) break;
  }
  JSStringRelease(s);
}

void strait__watch_stay_end(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  if (w->cur.reason && w->armed && !w->heap_dead) {
    JSLock(rt->ctx);
    /* nothing in the stay runs any more (it is over): let the next run */
    w->cur.reason = 0;
    w->cur.gen = atomic_load_explicit(&w->intr_gen, memory_order_relaxed);
    w->cur.deadline_ns = 0;
    absorb_termination(rt);
    if (w->cur.reason == 0 && w->heap_limit) {
      JSSynchronousGarbageCollectForDebugging(rt->ctx);
      int64_t h = heap_bytes(rt->ctx);
      if (h > w->heap_limit) {
        w->heap_dead = true;
        w->dead_heap = h;
      }
      w->rss_mark = rss_bytes();
    }
    JSUnlock(rt->ctx);
  }
  /* Neutral until the next stay: no deadline, no reason. */
  w->cur.deadline_ns = 0;
  w->cur.reason = 0;
  w->cur.gen = atomic_load_explicit(&w->intr_gen, memory_order_relaxed);
}

void strait__watch_stay_resume_unlocked(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  /* Another stay ran meanwhile and ended (its end left cur neutral). */
  if (w->limit_ns && w->cur.deadline_ns == 0) w->cur.deadline_ns = now_ns() + w->limit_ns;
}

void strait__watch_stay_resumed(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  if (w->cur.reason || w->fast) return;
  if (atomic_load_explicit(&w->intr_gen, memory_order_relaxed) == w->cur.gen) return;
  w->fast = true;
  arm(rt, FAST_S);
}

int strait__watch_stop_now(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  if (w->cur.reason) return w->cur.reason;
  int reason = 0;
  if (atomic_load_explicit(&w->intr_gen, memory_order_acquire) != w->cur.gen) reason = STRAIT_ETERM;
  else if (w->cur.deadline_ns && now_ns() >= w->cur.deadline_ns) reason = STRAIT_ETIMEDOUT;
  else if (w->heap_dead) reason = STRAIT_EHEAP;
  if (!reason) return 0;
  w->cur.reason = reason;
  if (!w->fast) {
    w->fast = true;
    arm(rt, FAST_S);
  }
  return reason;
}

int strait__heap_admit(strait_runtime *rt, double bytes) {
  strait__watch *w = &rt->wd;
  if (!w->heap_limit || !(bytes >= (double)(1 << 20))) return 0;
  if (w->cur.reason) return w->cur.reason;
  bool over = bytes > (double)w->heap_limit;
  if (!over) {
    JSLock(rt->ctx);
    int64_t h = heap_bytes(rt->ctx);
    if (h >= 0 && (double)h + bytes > (double)w->heap_limit) {
      /* garbage does not count: only live data and the new bytes */
      JSSynchronousGarbageCollectForDebugging(rt->ctx);
      h = heap_bytes(rt->ctx);
    }
    over = h >= 0 && (double)h + bytes > (double)w->heap_limit;
    JSUnlock(rt->ctx);
  }
  if (!over) return 0;
  w->cur.reason = STRAIT_EHEAP;
  if (!w->fast) {
    w->fast = true;
    arm(rt, FAST_S);
  }
  JSLock(rt->ctx);
  strait__jsc_throw_termination(rt->ctx);
  JSUnlock(rt->ctx);
  return STRAIT_EHEAP;
}

void strait__watch_entry_begin(strait_runtime *rt) {
  strait__watch *w = &rt->wd;
  rt->checkpoint_clean = false;
  if (w->limit_ns) w->cur.deadline_ns = now_ns() + w->limit_ns;
}

uint32_t strait__watch_gen(strait_runtime *rt) {
  return atomic_load_explicit(&rt->wd.intr_gen, memory_order_acquire);
}

int strait__watch_reason(strait_runtime *rt) { return rt->wd.cur.reason; }

int strait__watch_refused(strait_runtime *rt, JSValueRef *exception) {
  strait__watch *w = &rt->wd;
  if (!w->heap_dead) return 0;
  if (exception)
    *exception = strait_make_error(
        rt->ctx, "RangeError",
        "heap limit exceeded: the runtime's live data (%lld bytes after a full collection) "
        "is over its heap limit of %lld bytes, so it refuses to run more JavaScript",
        (long long)w->dead_heap, (long long)w->heap_limit);
  return STRAIT_EHEAP;
}

/* ---- public ------------------------------------------------------------ */

/* Terminates the JS running in rt (see strait.h). Any thread, signal
 * handlers too: one atomic add and a futex wake. */
int strait_interrupt(strait_runtime *rt) {
  if (!rt) return STRAIT_EINVAL;
  if (atomic_load(&rt->gate.closing)) return STRAIT_ECLOSED;
  atomic_store_explicit(&rt->wd.intr_at_ns, now_ns(), memory_order_relaxed);
  atomic_fetch_add_explicit(&rt->wd.intr_gen, 1, memory_order_release);
  strait__loop_wake(&rt->loop);
  return 0;
}

/* How long the running stay is past a stop (see strait.h). Reads the
 * owner's stay without the gate: an approximation, for a backstop. */
int64_t strait_stop_overdue_ms(strait_runtime *rt) {
  if (!atomic_load_explicit(&rt->gate.word, memory_order_acquire)) return 0;
  int64_t now = now_ns(), late = 0;
  volatile strait__stay *cur = &rt->wd.cur;
  int64_t deadline = cur->deadline_ns;
  if (deadline && now > deadline) late = now - deadline;
  if (atomic_load_explicit(&rt->wd.intr_gen, memory_order_acquire) != cur->gen) {
    int64_t at = atomic_load_explicit(&rt->wd.intr_at_ns, memory_order_relaxed);
    if (at && now - at > late) late = now - at;
  }
  return late / 1000000;
}

/* Why the running entry is being terminated (see strait.h). Inside the
 * gate. */
int strait_terminating(strait_runtime *rt) { return rt->wd.cur.reason; }

/* Stops the running stay from a host callback when it must stop (see
 * strait.h): the termination is made pending in the engine, so the return
 * into JS unwinds. Inside the gate, in a host callback of rt's JS. */
int strait_check_stop(strait_runtime *rt) {
  int reason = strait__watch_stop_now(rt);
  if (!reason) return 0;
  JSLock(rt->ctx);
  strait__jsc_throw_termination(rt->ctx);
  JSUnlock(rt->ctx);
  return reason;
}

/* Sets the embedder's poll (see strait.h). Inside the gate. */
void strait_set_interrupt_poll(strait_runtime *rt, int (*poll)(void *ud), void *ud) {
  rt->wd.poll = poll;
  rt->wd.poll_ud = poll ? ud : NULL;
}

/* The heap size compared with heap_limit (see strait.h). Inside the gate. */
int64_t strait_heap_size(strait_runtime *rt) { return heap_bytes(rt->ctx); }

/*
 * timers.c - setTimeout, setInterval, clearTimeout, clearInterval,
 * queueMicrotask helpers and unhandled-rejection tracking. Timers live in a
 * binary min-heap ordered by (due time, sequence), owned by the thread
 * inside the gate, and in a hash table by id (loop->byid), so clearTimeout
 * and ref/unref cost O(log n) (the heap removal), not a search. A pending
 * timer keeps its callback and arguments protected; firing a one-shot timer
 * or clearing it unprotects them once.
 */
#include "timers.h"
#include "eval.h"
#include "common/jsc_private.h"
#include "loop.h"
#include "runtime.h"
#include "value.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static int timer_less(const strait__timer *a, const strait__timer *b) {
  return a->when_ms < b->when_ms || (a->when_ms == b->when_ms && a->seq < b->seq);
}

static void heap_swap(strait__loop *l, size_t i, size_t j) {
  strait__timer *t = l->heap[i];
  l->heap[i] = l->heap[j];
  l->heap[j] = t;
  l->heap[i]->heap_index = i;
  l->heap[j]->heap_index = j;
}

static void sift_up(strait__loop *l, size_t i) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!timer_less(l->heap[i], l->heap[p])) break;
    heap_swap(l, i, p);
    i = p;
  }
}

static void sift_down(strait__loop *l, size_t i) {
  for (;;) {
    size_t a = 2 * i + 1, b = a + 1, m = i;
    if (a < l->nheap && timer_less(l->heap[a], l->heap[m])) m = a;
    if (b < l->nheap && timer_less(l->heap[b], l->heap[m])) m = b;
    if (m == i) return;
    heap_swap(l, i, m);
    i = m;
  }
}

static int heap_push(strait__loop *l, strait__timer *t) {
  if (l->nheap == l->capheap) {
    size_t cap = l->capheap ? l->capheap * 2 : 16;
    strait__timer **h = realloc(l->heap, cap * sizeof *h);
    if (!h) return STRAIT_ENOMEM;
    l->heap = h;
    l->capheap = cap;
  }
  t->heap_index = l->nheap;
  l->heap[l->nheap++] = t;
  sift_up(l, t->heap_index);
  return 0;
}

static void heap_remove(strait__loop *l, strait__timer *t) {
  size_t i = t->heap_index;
  l->nheap--;
  if (i != l->nheap) {
    l->heap[i] = l->heap[l->nheap];
    l->heap[i]->heap_index = i;
    sift_down(l, i);
    sift_up(l, i);
  }
}

/* ---- pending timers by id ---- */

/* Slot of id in a table of capacity cap (a power of two). */
static size_t id_slot(double id, size_t cap) {
  uint64_t x = (uint64_t)id;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

/* The pending timer with this id, or NULL. Inside the gate. */
static strait__timer *find_timer(strait__loop *l, double id) {
  if (!l->nbyid || !(id >= 1 && id < 9007199254740992.0)) return NULL;
  for (size_t i = id_slot(id, l->capbyid);; i = (i + 1) & (l->capbyid - 1)) {
    strait__timer *t = l->byid[i];
    if (!t) return NULL;
    if (t->id == id) return t;
  }
}

/* Adds t (its id not present). Returns 0 or STRAIT_ENOMEM. Inside the gate. */
static int byid_add(strait__loop *l, strait__timer *t) {
  if (2 * (l->nbyid + 1) > l->capbyid) {
    size_t cap = l->capbyid ? l->capbyid * 2 : 64;
    strait__timer **nt = calloc(cap, sizeof *nt);
    if (!nt) return STRAIT_ENOMEM;
    for (size_t j = 0; j < l->capbyid; j++) {
      strait__timer *o = l->byid[j];
      if (!o) continue;
      size_t i = id_slot(o->id, cap);
      while (nt[i]) i = (i + 1) & (cap - 1);
      nt[i] = o;
    }
    free(l->byid);
    l->byid = nt;
    l->capbyid = cap;
  }
  size_t i = id_slot(t->id, l->capbyid);
  while (l->byid[i]) i = (i + 1) & (l->capbyid - 1);
  l->byid[i] = t;
  l->nbyid++;
  return 0;
}

/* Removes t (present) and shifts later entries of its probe run back so
 * lookups need no tombstones. Inside the gate. */
static void byid_remove(strait__loop *l, strait__timer *t) {
  size_t mask = l->capbyid - 1, i = id_slot(t->id, l->capbyid);
  while (l->byid[i] != t) i = (i + 1) & mask;
  l->byid[i] = NULL;
  l->nbyid--;
  for (size_t j = (i + 1) & mask; l->byid[j]; j = (j + 1) & mask) {
    size_t home = id_slot(l->byid[j]->id, l->capbyid);
    /* move j's entry into the hole at i when i lies on its probe path
     * (cyclically between its home slot and j) */
    if (((j - home) & mask) >= ((j - i) & mask)) {
      l->byid[i] = l->byid[j];
      l->byid[j] = NULL;
      i = j;
    }
  }
}

/* Unprotects a timer's values and frees it. Inside the gate. */
static void timer_free(strait_runtime *rt, strait__timer *t) {
  JSValueUnprotect(rt->ctx, t->callback);
  for (size_t i = 0; i < t->nargs; i++) JSValueUnprotect(rt->ctx, t->args[i]);
  free(t->args);
  if (t->refed) rt->loop.nrefed--;
  free(t);
}

/* setTimeout/setInterval(fn, delay, ...args) -> numeric id. */
static JSValueRef add_timer(JSContextRef ctx, size_t argc, const JSValueRef argv[],
                            JSValueRef *exception, int repeat) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (argc < 1 || !JSValueIsObject(ctx, argv[0]) ||
      !JSObjectIsFunction(ctx, (JSObjectRef)argv[0])) {
    *exception = strait_make_error(ctx, "TypeError", "%s: callback must be a function",
                                    repeat ? "setInterval" : "setTimeout");
    return NULL;
  }
  double delay = argc > 1 ? JSValueToNumber(ctx, argv[1], exception) : 0;
  if (*exception) return NULL;
  if (!(delay >= 1) || isnan(delay) || delay > 2147483647.0) delay = 1;
  strait__timer *t = calloc(1, sizeof *t);
  if (t) t->nargs = argc > 2 ? argc - 2 : 0;
  if (t && t->nargs && !(t->args = malloc(t->nargs * sizeof *t->args))) {
    free(t);
    t = NULL;
  }
  if (!t) {
    *exception = strait_make_error(ctx, "RangeError", "out of memory for timers");
    return NULL;
  }
  strait__loop *l = &rt->loop;
  t->callback = (JSObjectRef)argv[0];
  JSValueProtect(ctx, t->callback);
  for (size_t i = 0; i < t->nargs; i++) {
    t->args[i] = argv[i + 2];
    JSValueProtect(ctx, t->args[i]);
  }
  t->interval_ms = repeat ? delay : -1;
  t->when_ms = strait__now_ms() + delay;
  t->seq = l->next_seq++;
  t->id = l->next_id++;
  t->refed = true;
  l->nrefed++;
  if (byid_add(l, t)) {
    timer_free(rt, t);
    *exception = strait_make_error(ctx, "RangeError", "out of memory for timers");
    return NULL;
  }
  if (heap_push(l, t)) {
    byid_remove(l, t);
    timer_free(rt, t);
    *exception = strait_make_error(ctx, "RangeError", "out of memory for timers");
    return NULL;
  }
  return JSValueMakeNumber(ctx, t->id);
}

static JSValueRef js_set_timeout(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exception) {
  (void)f; (void)self;
  return add_timer(ctx, argc, argv, exception, 0);
}

static JSValueRef js_set_interval(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                  const JSValueRef argv[], JSValueRef *exception) {
  (void)f; (void)self;
  return add_timer(ctx, argc, argv, exception, 1);
}

/* clearTimeout/clearInterval(id): unknown ids are ignored, as in Node. */
static JSValueRef js_clear_timer(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exception) {
  (void)f; (void)self; (void)exception;
  strait_runtime *rt = strait__runtime_of(ctx);
  if (argc > 0 && JSValueIsNumber(ctx, argv[0])) {
    strait__timer *t = find_timer(&rt->loop, JSValueToNumber(ctx, argv[0], NULL));
    if (t) {
      heap_remove(&rt->loop, t);
      byid_remove(&rt->loop, t);
      timer_free(rt, t);
    }
  }
  return JSValueMakeUndefined(ctx);
}

/* __strait_timerRef(id, on): timer.ref()/unref(). */
static JSValueRef js_timer_ref(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  (void)f; (void)self; (void)exception;
  strait_runtime *rt = strait__runtime_of(ctx);
  if (argc > 1) {
    strait__timer *t = find_timer(&rt->loop, JSValueToNumber(ctx, argv[0], NULL));
    bool on = JSValueToBoolean(ctx, argv[1]);
    if (t && t->refed != on) {
      t->refed = on;
      rt->loop.nrefed += on ? 1 : (size_t)-1;
    }
  }
  return JSValueMakeUndefined(ctx);
}

/* Records the first uncaught error of a callback for the loop to return
 * (see timers.h). */
void strait__set_uncaught(strait_runtime *rt, JSValueRef exc) {
  if (rt->pending_error || rt->exiting) return;
  rt->pending_error = exc ? exc : JSValueMakeUndefined(rt->ctx);
  JSValueProtect(rt->ctx, rt->pending_error);
}

/* Runs the timers that are due, in order; returns the next due time or -1.
 * A timer added by a callback with delay 0 runs on the next turn, not in
 * this one. Inside the gate. */
double strait__timers_run_due(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  double now = strait__now_ms();
  uint64_t limit_seq = l->next_seq;
  while (l->nheap > 0 && !rt->exiting && !rt->pending_error && !strait__watch_reason(rt)) {
    strait__timer *t = l->heap[0];
    if (t->when_ms > now || t->seq >= limit_seq) break;
    heap_remove(l, t);
    strait__watch_entry_begin(rt);
    rt->crossings += 1;
    JSValueRef exc = NULL;
    JSObjectRef cb = t->callback;
    if (t->interval_ms >= 0) {
      t->when_ms = now + t->interval_ms;
      t->seq = l->next_seq++;
      heap_push(l, t);
      strait_call(rt, cb, NULL, 0, t->nargs, t->args, &exc);
    } else {
      /* Gone from the table first: clearTimeout(id) in the callback finds
       * nothing. Keep the values reachable from this frame while the
       * callback runs. */
      byid_remove(l, t);
      strait_call(rt, cb, NULL, 0, t->nargs, t->args, &exc);
      timer_free(rt, t);
    }
    if (exc) strait__set_uncaught(rt, exc);
    else strait__checkpoint(rt);
  }
  return l->nheap > 0 ? l->heap[0]->when_ms : -1;
}

/* Frees every timer. Inside the gate. */
void strait__timers_clear(strait_runtime *rt) {
  strait__loop *l = &rt->loop;
  while (l->nheap > 0) {
    strait__timer *t = l->heap[--l->nheap];
    timer_free(rt, t);
  }
  free(l->heap);
  l->heap = NULL;
  l->capheap = 0;
  free(l->byid);
  l->byid = NULL;
  l->capbyid = l->nbyid = 0;
}

/* Unhandled promise rejection: reported like an uncaught error. */
static JSValueRef js_unhandled_rejection(JSContextRef ctx, JSObjectRef f, JSObjectRef self,
                                         size_t argc, const JSValueRef argv[],
                                         JSValueRef *exception) {
  (void)f; (void)self; (void)exception;
  strait__set_uncaught(strait__runtime_of(ctx), argc > 1 ? argv[1] : NULL);
  return JSValueMakeUndefined(ctx);
}

/* Installs the timer globals. Inside the gate. */
int strait__timers_install(strait_runtime *rt, JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  JSObjectRef g = JSContextGetGlobalObject(ctx);
  strait_set_function(ctx, g, "setTimeout", js_set_timeout);
  strait_set_function(ctx, g, "setInterval", js_set_interval);
  strait_set_function(ctx, g, "clearTimeout", js_clear_timer);
  strait_set_function(ctx, g, "clearInterval", js_clear_timer);
  strait_set_function(ctx, g, "__strait_timerRef", js_timer_ref);
  JSStringRef n = JSStringCreateWithUTF8CString("unhandledRejection");
  JSObjectRef f = JSObjectMakeFunctionWithCallback(ctx, n, js_unhandled_rejection);
  JSStringRelease(n);
  JSGlobalContextSetUnhandledRejectionCallback(rt->ctx, f, exception);
  return (exception && *exception) ? STRAIT_EJS : 0;
}

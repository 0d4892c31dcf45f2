/* test_gate.c - the admission gate: nesting, strait_inside, and threads
 * contending for one runtime. */
#include "t.h"
#include "helpers.h"
#include "internal.h"

#include <pthread.h>
#include <time.h>

static void enter_leave_nesting(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_CHECK(!strait_inside(rt));
  T_EQ_INT(strait_enter(rt), 0);
  T_CHECK(strait_inside(rt));
  T_EQ_INT(strait_enter(rt), 0);
  T_EQ_INT(strait_enter(rt), 0);
  strait_leave(rt);
  T_CHECK(strait_inside(rt));
  strait_leave(rt);
  T_CHECK(strait_inside(rt));
  strait_leave(rt);
  T_CHECK(!strait_inside(rt));
  strait_runtime_free(rt);
  tcap_free(&c);
}

typedef struct shared {
  strait_runtime *rt;
  long counter;        /* guarded by the gate only */
  int inside_elsewhere;
  int iterations;
} shared;

static void *contender(void *arg) {
  shared *s = arg;
  for (int i = 0; i < s->iterations; i++) {
    if (strait_enter(s->rt) != 0) return NULL;
    long v = s->counter;
    if (i % 50 == 0) {
      /* Some JS work while holding the gate. */
      JSValueRef r = NULL;
      strait_eval_utf8(s->rt, "jsCounter++", 11, NULL, &r, NULL);
    }
    s->counter = v + 1;
    strait_leave(s->rt);
  }
  return NULL;
}

static void four_threads_contend(void) {
  tcap c = {0};
  shared s = {0};
  s.rt = trt_new(&c, 0, NULL);
  s.iterations = 10000;
  T_EVAL(s.rt, "globalThis.jsCounter = 0", "0");
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, contender, &s);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  T_EQ_INT(s.counter, 40000);
  T_EVAL(s.rt, "jsCounter", "800");
  strait_runtime_free(s.rt);
  tcap_free(&c);
}

static void *probe_inside(void *arg) {
  shared *s = arg;
  s->inside_elsewhere = strait_inside(s->rt);
  return NULL;
}

static void inside_is_per_thread(void) {
  tcap c = {0};
  shared s = {0};
  s.rt = trt_new(&c, 0, NULL);
  strait_enter(s.rt);
  s.inside_elsewhere = -1;
  pthread_t th;
  pthread_create(&th, NULL, probe_inside, &s);
  pthread_join(th, NULL);
  T_EQ_INT(s.inside_elsewhere, 0);
  T_CHECK(strait_inside(s.rt));
  strait_leave(s.rt);
  strait_runtime_free(s.rt);
  tcap_free(&c);
}

typedef struct waiter {
  strait_runtime *rt;
  int entered;
} waiter;

static void *enter_once(void *arg) {
  waiter *w = arg;
  if (strait_enter(w->rt) == 0) {
    w->entered = 1;
    strait_leave(w->rt);
  }
  return NULL;
}

static void waiter_gets_in_after_leave(void) {
  tcap c = {0};
  waiter w = {0};
  w.rt = trt_new(&c, 0, NULL);
  strait_enter(w.rt);
  pthread_t th;
  pthread_create(&th, NULL, enter_once, &w);
  usleep(20000);
  T_EQ_INT(w.entered, 0); /* blocked while this thread is inside */
  strait_leave(w.rt);
  pthread_join(th, NULL);
  T_EQ_INT(w.entered, 1);
  strait_runtime_free(w.rt);
  tcap_free(&c);
}

/* ---- lazy suspension: a JSC callback that stays in "Java" ---------------- */

typedef struct visit {
  strait_runtime *rt;
  _Atomic int in_java;        /* the callback is between suspend and resume */
  _Atomic int other_done;     /* the other thread ran its JS */
  _Atomic int entered_while_away;
  _Atomic int stop;
  int wait_for_other;         /* callback waits (up to 5 s) for the other thread */
  int nested;                 /* callback runs JS itself before waiting */
  long entries;
} visit;

static visit *the_visit;

/* javaCall(): suspends the gate like a call into Java, optionally runs JS
 * from "Java" on the same thread, optionally waits for another thread. */
static JSValueRef js_java_call(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  visit *v = the_visit;
  strait_suspension susp;
  strait_gate_suspend(v->rt, &susp);
  atomic_store(&v->in_java, 1);
  if (v->nested) {
    strait_enter(v->rt);
    JSValueRef r = NULL;
    strait_eval_utf8(v->rt, "nestedRuns++", 12, NULL, &r, NULL);
    strait_leave(v->rt);
  }
  if (v->wait_for_other) {
    for (int i = 0; i < 5000 && !atomic_load(&v->other_done); i++) usleep(1000);
  }
  atomic_store(&v->in_java, 0);
  strait_gate_resume(v->rt, &susp);
  return JSValueMakeUndefined(ctx);
}

static void install_java_call(strait_runtime *rt) {
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  JSStringRef n = JSStringCreateWithUTF8CString("javaCall");
  JSObjectRef fn = JSObjectMakeFunctionWithCallback(ctx, n, js_java_call);
  JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, fn, 0, NULL);
  JSStringRelease(n);
  strait_leave(rt);
}

static void *other_thread(void *arg) {
  visit *v = arg;
  if (strait_enter(v->rt) == 0) {
    JSValueRef r = NULL;
    strait_eval_utf8(v->rt, "otherRuns++", 11, NULL, &r, NULL);
    strait_leave(v->rt);
    atomic_store(&v->other_done, 1);
  }
  return NULL;
}

/* Sets up v on a new runtime whose javaCall() waits in "Java" for
 * other_thread (started here) to run JS; nested: javaCall() first calls
 * back into JS on its own thread. Returns other_thread. */
static pthread_t start_waiting_visit(tcap *c, visit *v, int nested) {
  v->rt = trt_new(c, 0, NULL);
  the_visit = v;
  install_java_call(v->rt);
  T_EVAL(v->rt, "globalThis.otherRuns = 0; globalThis.nestedRuns = 0", "0");
  v->wait_for_other = 1;
  v->nested = nested;
  pthread_t th;
  pthread_create(&th, NULL, other_thread, v);
  return th;
}

/* A thread that waits in Java for another thread's JS does not deadlock:
 * the other thread takes the gate over and runs; the first then resumes. */
static void long_stay_in_java_lets_another_thread_in(void) {
  tcap c = {0};
  visit v = {0};
  pthread_t th = start_waiting_visit(&c, &v, 0);
  T_EVAL(v.rt, "javaCall(); otherRuns", "1");
  pthread_join(th, NULL);
  T_EQ_INT(atomic_load(&v.other_done), 1);
  strait_runtime_free(v.rt);
  tcap_free(&c);
}

/* Java calling back into JS on the same thread, then waiting for another
 * thread: the suspension is re-armed after the nested call. */
static void nested_call_then_wait(void) {
  tcap c = {0};
  visit v = {0};
  pthread_t th = start_waiting_visit(&c, &v, 1);
  T_EVAL(v.rt, "javaCall(); javaCall(); [nestedRuns, otherRuns]", "[ 2, 1 ]");
  pthread_join(th, NULL);
  strait_runtime_free(v.rt);
  tcap_free(&c);
}

static void *hammer(void *arg) {
  visit *v = arg;
  while (!atomic_load(&v->stop)) {
    if (strait_enter(v->rt) != 0) break;
    if (atomic_load(&v->in_java)) atomic_fetch_add(&v->entered_while_away, 1);
    v->entries++;
    strait_leave(v->rt);
  }
  return NULL;
}

/* Short stays in Java keep the gate: with a takeover delay far above the
 * stay, a contending thread never gets in while the owner is in Java, and
 * still gets in between the owner's stays. */
static void short_stays_keep_the_gate(void) {
  setenv("STRAIT_GATE_TAKEOVER_US", "500000", 1);
  tcap c = {0};
  visit v = {0};
  v.rt = trt_new(&c, 0, NULL);
  unsetenv("STRAIT_GATE_TAKEOVER_US");
  the_visit = &v;
  install_java_call(v.rt);
  pthread_t th;
  pthread_create(&th, NULL, hammer, &v);
  /* 200 rounds, then more, 100 us apart, for up to 5 s until the hammer
   * got in once: on a loaded machine it may not have run at all yet. */
  long entries = 0;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0;; i++) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (i >= 200 && (entries > 0 || t.tv_sec - t0.tv_sec > 5)) break;
    T_EVAL(v.rt, "for (let i = 0; i < 50; i++) javaCall(); 1", "1");
    if (i >= 200) usleep(100);
    strait_enter(v.rt);
    entries = v.entries;
    strait_leave(v.rt);
  }
  atomic_store(&v.stop, 1);
  pthread_join(th, NULL);
  T_EQ_INT(atomic_load(&v.entered_while_away), 0);
  T_CHECK(v.entries > 0);
  strait_runtime_free(v.rt);
  tcap_free(&c);
}


/* ---- deep and crossed re-entry ------------------------------------------- */

/* Runs fn(arg) on a new thread with the given stack size and waits. */
static void run_on_thread(size_t stack, void *(*fn)(void *), void *arg) {
  pthread_attr_t a;
  pthread_attr_init(&a);
  if (stack) pthread_attr_setstacksize(&a, stack);
  pthread_t th;
  T_EQ_INT(pthread_create(&th, &a, fn, arg), 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&a);
}

typedef struct deep {
  strait_runtime *rt;
  int target;          /* levels to nest */
  int reached;         /* deepest level that ran JS */
  int bad;             /* levels where the gate or JS misbehaved */
} deep;

/* One level of enter / suspend / (enter again ...) / resume / leave, with
 * the records in this frame, as a JSC callback calling Java does it. */
static void gate_nest(deep *d, int level) {
  if (strait_enter(d->rt) != 0 || !strait_inside(d->rt)) { d->bad++; return; }
  if (level == d->target) {
    JSValueRef r = NULL;
    if (strait_eval_utf8(d->rt, "deepRuns++", 10, NULL, &r, NULL) != 0) d->bad++;
    d->reached = level;
  } else {
    strait_suspension s;
    strait_gate_suspend(d->rt, &s);
    gate_nest(d, level + 1);
    strait_gate_resume(d->rt, &s);
  }
  if (!strait_inside(d->rt)) d->bad++;
  strait_leave(d->rt);
}

static void *gate_nest_thread(void *p) {
  gate_nest(p, 0);
  return NULL;
}

/* 10,000 nested suspensions of one thread: no fixed slot count, and the
 * gate is free afterwards (another thread gets in). */
static void ten_thousand_nested_suspensions(void) {
  tcap c = {0};
  deep d = {0};
  d.rt = trt_new(&c, 0, NULL);
  T_EVAL(d.rt, "globalThis.deepRuns = 0", "0");
  d.target = 10000;
  run_on_thread(64u << 20, gate_nest_thread, &d);
  T_EQ_INT(d.reached, 10000);
  T_EQ_INT(d.bad, 0);
  T_CHECK(!strait_inside(d.rt));
  waiter w = {d.rt, 0};
  run_on_thread(0, enter_once, &w);
  T_EQ_INT(w.entered, 1);
  T_EVAL(d.rt, "deepRuns", "1");
  strait_runtime_free(d.rt);
  tcap_free(&c);
}

/* JS -> callback -> JS through real JSC callbacks: recurse(n) calls
 * down(n), a native that suspends the gate, enters again and evaluates
 * recurse(n - 1). */
static strait_runtime *down_rt;

static JSValueRef js_down(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exc) {
  double n = argc ? JSValueToNumber(ctx, argv[0], NULL) : 0;
  strait_runtime *rt = down_rt;
  strait_suspension s;
  strait_gate_suspend(rt, &s);
  char src[64];
  int len = snprintf(src, sizeof src, "recurse(%.0f)", n - 1);
  double out = -1;
  JSValueRef e = NULL;       /* same runtime: rethrown as is */
  int rc = strait_enter(rt);
  if (rc == 0) {
    JSValueRef r = NULL;
    rc = strait_eval_utf8(rt, src, (size_t)len, NULL, &r, &e);
    if (rc == 0) out = JSValueToNumber(strait_runtime_context(rt), r, NULL);
    strait_leave(rt);
  }
  strait_gate_resume(rt, &s);
  if (rc != 0) {
    *exc = e ? e : strait_make_error(ctx, "Error", "down: status %d", rc);
    return NULL;
  }
  return JSValueMakeNumber(ctx, out);
}

typedef struct deep_js {
  strait_runtime *rt;
  const char *src;
  char *result;
} deep_js;

static void *eval_thread(void *p) {
  deep_js *d = p;
  d->result = trt_eval(d->rt, d->src);
  return NULL;
}

static strait_runtime *new_down_runtime(tcap *c) {
  strait_runtime *rt = trt_new(c, 0, NULL);
  down_rt = rt;
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  strait_set_function(ctx, JSContextGetGlobalObject(ctx), "down", js_down);
  strait_leave(rt);
  T_EVAL(rt, "globalThis.recurse = (n) => n === 0 ? 0 : 1 + down(n); 0", "0");
  return rt;
}

/* 10,000 levels of JS -> native -> JS on a thread whose stack has room. */
static void ten_thousand_levels_through_callbacks(void) {
  tcap c = {0};
  strait_runtime *rt = new_down_runtime(&c);
  deep_js d = {rt, "recurse(10000)", NULL};
  run_on_thread(512u << 20, eval_thread, &d);
  T_EQ_STR(d.result, "10000");
  free(d.result);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Past the stack: JSC's RangeError comes out of the innermost level, every
 * level unwinds, and the runtime works afterwards, on the main thread's
 * and on a default pthread stack. */
static void recursion_past_the_stack_is_a_range_error(void) {
  tcap c = {0};
  strait_runtime *rt = new_down_runtime(&c);
  for (int on_main = 1; on_main >= 0; on_main--) {
    deep_js d = {rt, "try { recurse(1e9); 'no error' } catch (e) { String(e) }", NULL};
    if (on_main) eval_thread(&d);
    else run_on_thread(0, eval_thread, &d);
    T_CONTAINS(d.result, "RangeError: Maximum call stack size exceeded");
    free(d.result);
    T_EVAL(rt, "recurse(100)", "100");
  }
  waiter w = {rt, 0};
  run_on_thread(0, enter_once, &w);
  T_EQ_INT(w.entered, 1);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Crossed re-entry: one thread hops between runtimes A, B and C along a
 * generated path (A -> B -> A -> C -> A ...), each hop a JSC callback that
 * suspends its runtime and, from "Java", enters the next one. A second
 * thread enters all three runtimes in a loop; with a short takeover delay
 * it gets in while the hopping thread stays in "Java", and never while
 * that thread runs JS in the same runtime. */
#define NRT 3
static struct cross {
  strait_runtime *rt[NRT];
  const int *path;
  int len;
  int linger_every;          /* stay in "Java" 2 ms at every n-th hop */
  _Atomic int running[NRT];  /* threads running JS in rt[i] (must stay <= 1) */
  _Atomic int away[NRT];     /* the hopping thread is suspended in rt[i] */
  _Atomic int violations;
  _Atomic long taken_while_away;
  _Atomic int stop;
  _Atomic long entries;
} X;

static int rt_index(JSContextRef ctx) {
  strait_runtime *rt = strait_runtime_from_context(JSContextGetGlobalContext(ctx));
  for (int i = 0; i < NRT; i++)
    if (X.rt[i] == rt) return i;
  return -1;
}

static void mark_in(int i) {
  if (atomic_fetch_add(&X.running[i], 1) != 0) atomic_fetch_add(&X.violations, 1);
}
static void mark_out(int i) { atomic_fetch_sub(&X.running[i], 1); }

/* hop(k): path[k] names this runtime; enters path[k + 1] and returns its
 * name followed by what its hop(k + 1) returned. */
static JSValueRef js_hop(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exc) {
  int k = argc ? (int)JSValueToNumber(ctx, argv[0], NULL) : 0;
  int here = rt_index(ctx);
  if (here < 0 || k + 1 >= X.len) return JSValueMakeString(ctx, NULL);
  int next = X.path[k + 1];
  strait_suspension s;
  mark_out(here);
  strait_gate_suspend(X.rt[here], &s);
  atomic_fetch_add(&X.away[here], 1);
  if (X.linger_every && k % X.linger_every == 0) usleep(2000);
  char *text = NULL;
  if (strait_enter(X.rt[next]) == 0) {
    mark_in(next);
    char src[64];
    int len = snprintf(src, sizeof src, "NAME + hop(%d)", k + 1);
    JSValueRef r = NULL, e = NULL;
    JSContextRef nctx = strait_runtime_context(X.rt[next]);
    if (strait_eval_utf8(X.rt[next], src, (size_t)len, NULL, &r, &e) == 0)
      text = strait_utf8_from_value(nctx, r, NULL);
    mark_out(next);
    strait_leave(X.rt[next]);
  }
  atomic_fetch_sub(&X.away[here], 1);
  strait_gate_resume(X.rt[here], &s);
  mark_in(here);
  if (!text) {
    *exc = strait_make_error(ctx, "Error", "hop %d failed", k);
    return NULL;
  }
  JSStringRef str = JSStringCreateWithUTF8CString(text);
  free(text);
  JSValueRef v = JSValueMakeString(ctx, str);
  JSStringRelease(str);
  return v;
}

static void *cross_contender(void *arg) {
  (void)arg;
  for (long n = 0; !atomic_load(&X.stop); n++) {
    int i = (int)(n % NRT);
    if (strait_enter(X.rt[i]) != 0) break;
    mark_in(i);
    if (atomic_load(&X.away[i])) atomic_fetch_add(&X.taken_while_away, 1);
    if (n % 16 == 0) {
      JSValueRef r = NULL;
      strait_eval_utf8(X.rt[i], "contended++", 11, NULL, &r, NULL);
    }
    mark_out(i);
    strait_leave(X.rt[i]);
    atomic_fetch_add(&X.entries, 1);
    usleep(100);   /* contend, but let the hopping thread make progress */
  }
  return NULL;
}

/* A small seeded generator (LCG) of paths over the NRT runtimes. */
static unsigned lcg(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (*state >> 16) & 0x7fff;
}

static void gen_path(unsigned seed, int *path, int len) {
  unsigned st = seed;
  path[0] = (int)(lcg(&st) % NRT);
  for (int k = 1; k < len; k++) {
    /* mostly back to where the thread came from (A -> B -> A), else any */
    int r = (int)(lcg(&st) % 4);
    path[k] = r < 2 && k >= 2 ? path[k - 2] : (int)(lcg(&st) % NRT);
  }
}

/* Runs the path on a new thread; returns the joined names it produced. */
static void *cross_walk(void *arg) {
  char **out = arg;
  int first = X.path[0];
  char *r = NULL;
  strait_enter(X.rt[first]);
  mark_in(first);
  JSValueRef res = NULL, e = NULL;
  if (strait_eval_utf8(X.rt[first], "NAME + hop(0)", 13, NULL, &res, &e) == 0)
    r = strait_utf8_from_value(strait_runtime_context(X.rt[first]), res, NULL);
  else if (e)
    r = strait_utf8_from_value(strait_runtime_context(X.rt[first]), e, NULL);
  mark_out(first);
  strait_leave(X.rt[first]);
  *out = r;
  return NULL;
}

static void crossed_paths(int contended) {
  tcap c[NRT];
  memset(c, 0, sizeof c);
  memset(&X, 0, sizeof X);
  if (contended) setenv("STRAIT_GATE_TAKEOVER_US", "200", 1);
  for (int i = 0; i < NRT; i++) {
    X.rt[i] = trt_new(&c[i], 0, NULL);
    strait_enter(X.rt[i]);
    JSContextRef ctx = strait_runtime_context(X.rt[i]);
    strait_set_function(ctx, JSContextGetGlobalObject(ctx), "hop", js_hop);
    strait_leave(X.rt[i]);
    char src[64];
    snprintf(src, sizeof src, "globalThis.NAME = '%c'; globalThis.contended = 0; 0", 'A' + i);
    T_EVAL(X.rt[i], src, "0");
  }
  unsetenv("STRAIT_GATE_TAKEOVER_US");
  pthread_t th;
  if (contended) pthread_create(&th, NULL, cross_contender, NULL);
  int path[400];
  char want[401];
  int cases = contended ? 12 : 40;
  for (int n = 0; n < cases; n++) {
    unsigned seed = 0x5eed + (unsigned)n;
    int len = contended ? 2 + n * 5 : 1 + (n * 97) % 400;
    gen_path(seed, path, len);
    for (int k = 0; k < len; k++) want[k] = (char)('A' + path[k]);
    want[len] = 0;
    X.path = path;
    X.len = len;
    X.linger_every = contended ? 7 : 0;
    char *got = NULL;
    run_on_thread(64u << 20, cross_walk, &got);
    if (!got || strcmp(got, want) != 0) fprintf(stderr, "  seed %#x, path of %d\n", seed, len);
    T_EQ_STR(got, want);
    free(got);
  }
  atomic_store(&X.stop, 1);
  if (contended) {
    pthread_join(th, NULL);
    T_CHECK(atomic_load(&X.taken_while_away) > 0);
    T_CHECK(atomic_load(&X.entries) > 0);
  }
  T_EQ_INT(atomic_load(&X.violations), 0);
  for (int i = 0; i < NRT; i++) {
    T_CHECK(!strait_inside(X.rt[i]));
    strait_runtime_free(X.rt[i]);
    tcap_free(&c[i]);
  }
}

/* A suspension that was the thread's way in does not let it back in while
 * the gate is released by strait_gate_suspend_unlocked (as the loop does
 * around a posted Java task): a nested enter then waits for the thread
 * that took the gate meanwhile. */
typedef struct unlocked_visit {
  strait_runtime *rt;
  _Atomic int holder_in;      /* the other thread is inside */
  _Atomic int holder_left;    /* ... and has left */
  int entered_while_held;
  pthread_t holder;
} unlocked_visit;

static unlocked_visit *the_unlocked;

static void *hold_for_a_while(void *arg) {
  unlocked_visit *u = arg;
  if (strait_enter(u->rt) != 0) return NULL;
  atomic_store(&u->holder_in, 1);
  usleep(30000);
  atomic_store(&u->holder_left, 1);
  strait_leave(u->rt);
  return NULL;
}

static JSValueRef js_unlocked_call(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  unlocked_visit *u = the_unlocked;
  strait_suspension s;
  strait_gate_suspend(u->rt, &s);
  strait_enter(u->rt);                  /* Java calls back into JS: reclaims */
  JSUnlock(strait_runtime_context(u->rt));
  int t = strait_gate_suspend_unlocked(u->rt);
  pthread_create(&u->holder, NULL, hold_for_a_while, u);
  for (int i = 0; i < 5000 && !atomic_load(&u->holder_in); i++) usleep(1000);
  strait_enter(u->rt);                  /* must wait for the holder */
  u->entered_while_held = !atomic_load(&u->holder_left);
  strait_leave(u->rt);
  strait_gate_resume_unlocked(u->rt, t);
  JSLock(strait_runtime_context(u->rt));
  strait_leave(u->rt);
  strait_gate_resume(u->rt, &s);
  return JSValueMakeNumber(ctx, 7);
}

static void unlocked_suspension_gives_up_the_way_in(void) {
  tcap c = {0};
  unlocked_visit u = {0};
  u.rt = trt_new(&c, 0, NULL);
  the_unlocked = &u;
  strait_enter(u.rt);
  JSContextRef ctx = strait_runtime_context(u.rt);
  strait_set_function(ctx, JSContextGetGlobalObject(ctx), "unlockedCall", js_unlocked_call);
  strait_leave(u.rt);
  T_EVAL(u.rt, "unlockedCall() + 1", "8");
  pthread_join(u.holder, NULL);
  T_EQ_INT(atomic_load(&u.holder_left), 1);
  T_EQ_INT(u.entered_while_held, 0);
  strait_runtime_free(u.rt);
  tcap_free(&c);
}

/* Generated A/B/C paths on one thread, up to 400 hops deep. */
static void crossed_reentry_one_thread(void) { crossed_paths(0); }

/* The same with a second thread contending for all three runtimes and
 * taking them over during the hopping thread's stays in "Java". */
static void crossed_reentry_with_a_contender(void) { crossed_paths(1); }

/* ---- debug builds: broken gate invariants abort with a message ------------ */

#include <sys/wait.h>

/* Runs misuse(rt) in a forked child; returns its stderr (malloc'd) when it
 * died of SIGABRT, else NULL. */
static char *child_aborts(strait_runtime *rt, void (*misuse)(strait_runtime *)) {
  int fds[2];
  if (pipe(fds) != 0) return NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    misuse(rt);
    _exit(0);
  }
  close(fds[1]);
  char *buf = calloc(1, 4096);
  size_t n = 0;
  ssize_t r;
  while (n < 4095 && (r = read(fds[0], buf + n, 4095 - n)) > 0) n += (size_t)r;
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  if (WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT) return buf;
  free(buf);
  return NULL;
}

static void leave_without_enter(strait_runtime *rt) { strait_leave(rt); }

static void resume_out_of_order(strait_runtime *rt) {
  strait_suspension outer, inner;
  strait_enter(rt);
  strait_gate_suspend(rt, &outer);
  strait_enter(rt);
  strait_gate_suspend(rt, &inner);
  strait_gate_resume(rt, &outer);
}

static void suspend_outside(strait_runtime *rt) {
  strait_suspension s;
  strait_gate_suspend(rt, &s);
}

static void debug_checks_name_the_broken_invariant(void) {
  if (!strait__gate_checked()) {
    printf("  (skipped: library built without STRAIT_DEBUG)\n");
    return;
  }
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  struct { void (*fn)(strait_runtime *); const char *what; } cases[] = {
    {leave_without_enter, "in strait_leave: leave: word free"},
    {resume_out_of_order, "in strait_gate_resume: resume: not the thread's newest suspension"},
    {suspend_outside, "in strait_gate_suspend: suspend: word free"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err = child_aborts(rt, cases[i].fn);
    T_CHECK(err != NULL);
    T_CONTAINS(err, cases[i].what);
    free(err);
  }
  T_EVAL(rt, "1 + 1", "2");
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* strait_options' gate members reach the gate: given values win, 0 takes
 * the environment or the default; strait_gate_set_spin changes a live one. */
static void options_configure_the_gate(void) {
  strait_options o = {.gate_spin_us = 7, .gate_takeover_us = -1};
  strait_runtime *rt = NULL;
  T_EQ_INT(strait_runtime_new(&o, &rt), 0);
  T_EQ_INT(rt->gate.spin_ns, 7000);
  T_EQ_INT(rt->gate.takeover_ns, 0);
  strait_gate_set_spin(rt, -5);
  T_EQ_INT(rt->gate.spin_ns, -1);
  strait_runtime_free(rt);
  const char *env_spin = getenv("STRAIT_GATE_SPIN_US");
  char *saved = env_spin ? strdup(env_spin) : NULL;
  setenv("STRAIT_GATE_SPIN_US", "3", 1);
  strait_options none = {0};
  T_EQ_INT(strait_runtime_new(&none, &rt), 0);
  T_EQ_INT(rt->gate.spin_ns, 3000);
  T_EQ_INT(rt->gate.takeover_ns, getenv("STRAIT_GATE_TAKEOVER_US") ? rt->gate.takeover_ns : 1000000);
  strait_runtime_free(rt);
  if (saved) setenv("STRAIT_GATE_SPIN_US", saved, 1); else unsetenv("STRAIT_GATE_SPIN_US");
  free(saved);
}

int main(void) {
  T_RUN(options_configure_the_gate);
  T_RUN(enter_leave_nesting);
  T_RUN(four_threads_contend);
  T_RUN(inside_is_per_thread);
  T_RUN(waiter_gets_in_after_leave);
  T_RUN(long_stay_in_java_lets_another_thread_in);
  T_RUN(nested_call_then_wait);
  T_RUN(short_stays_keep_the_gate);
  T_RUN(ten_thousand_nested_suspensions);
  T_RUN(ten_thousand_levels_through_callbacks);
  T_RUN(recursion_past_the_stack_is_a_range_error);
  T_RUN(unlocked_suspension_gives_up_the_way_in);
  T_RUN(crossed_reentry_one_thread);
  T_RUN(crossed_reentry_with_a_contender);
  T_RUN(debug_checks_name_the_broken_invariant);
  return T_DONE();
}

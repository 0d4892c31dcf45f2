/* test_stop.c - the core's stops hold on every route (docs/sandbox.md,
 * "Stopping a script"): loops of promise jobs run inside one VM entry and
 * are ended by an interrupt and by a time limit (microtask checkpoints);
 * a stopped stay drops its queued jobs, and the runtime takes the next call;
 * strait_check_stop() in a host callback ends the script at its return
 * into JS, with no catch or finally running, and refuses the next host
 * call; the watcher of host calls wakes a host call past its stay's time
 * limit, strait_wake_waiting() one after an interrupt; strait_leave()
 * reports a stay whose jobs were stopped; strait_stop_overdue_ms() sees a
 * stop that has not taken effect; max_source bounds what is compiled.
 * Bounds on time are generous (a loaded machine): they catch a stop that
 * never comes, not a slow one. */
#include "t.h"
#include "helpers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(double ms) {
  struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - (double)(time_t)(ms / 1e3) * 1e3) * 1e6)};
  while (nanosleep(&ts, &ts) != 0) {}
}

static strait_runtime *srt_new(tcap *cap, int64_t time_us, int64_t max_source) {
  strait_options o;
  memset(&o, 0, sizeof o);
  o.write = tcap_write;
  o.write_ud = cap;
  o.on_exit = tcap_exit;
  o.exit_ud = cap;
  o.time_limit_us = time_us;
  o.max_source = max_source;
  strait_runtime *rt = NULL;
  int rc = strait_runtime_new(&o, &rt);
  if (rc != 0) {
    fprintf(stderr, "strait_runtime_new failed: %s\n", strait_err_name(rc));
    exit(2);
  }
  return rt;
}

typedef struct later {
  strait_runtime *rt;
  double delay_ms;
  pthread_t tid;
} later;

static void *interrupt_main(void *p) {
  later *l = p;
  sleep_ms(l->delay_ms);
  strait_interrupt(l->rt);
  return NULL;
}

static void interrupt_later(later *l, strait_runtime *rt, double delay_ms) {
  l->rt = rt;
  l->delay_ms = delay_ms;
  pthread_create(&l->tid, NULL, interrupt_main, l);
}

/* The loops of promise jobs a checkpoint must stop: each counts in n. */
static const char *const kJobLoops[] = {
    "(async () => { for (;;) { n++; await null; } })(); 1",
    "const f = () => { n++; return Promise.resolve().then(f); }; f(); 1",
    "queueMicrotask(function f() { n++; queueMicrotask(f); }); 1",
    "Promise.resolve().then(() => { for (;;) { n++; } }); 1",
    "for (let i = 0; i < 1000; i++) Promise.resolve().then(() => { for (;;) { n++; } }); 1",
};

/* Each loop of jobs, interrupted from another thread: the eval's
 * checkpoint runs the jobs, the interrupt ends them, and the eval and the
 * stay's last leave say so; the jobs are gone afterwards. */
static void job_loops_end_by_interrupt(void) {
  for (size_t i = 0; i < sizeof kJobLoops / sizeof kJobLoops[0]; i++) {
    tcap c = {0};
    strait_runtime *rt = srt_new(&c, 0, 0);
    T_EVAL(rt, "globalThis.n = 0; 0", "0");
    strait_enter(rt);
    JSValueRef exc = NULL;
    later l;
    interrupt_later(&l, rt, 50);
    double t0 = now_ms();
    T_EQ_INT(strait_eval_utf8(rt, kJobLoops[i], strlen(kJobLoops[i]), "[test]", NULL, &exc), STRAIT_ETERM);
    T_EQ_INT(strait_leave(rt), STRAIT_ETERM);
    double took = now_ms() - t0;
    pthread_join(l.tid, NULL);
    T_CHECK(took < 2000);
    char *n1 = trt_eval(rt, "n");
    sleep_ms(20);
    char *n2 = trt_eval(rt, "n");   /* its leave holds a checkpoint */
    T_EQ_STR(n2, n1);
    T_CHECK(atoi(n1) > 0);
    free(n1);
    free(n2);
    T_EVAL(rt, "6 * 7", "42");
    strait_runtime_free(rt);
    tcap_free(&c);
  }
}

/* The same loops under a 100 ms time limit: the eval returns
 * STRAIT_ETIMEDOUT, and so do a strait_checkpoint() after it (where the
 * launcher and a worker's main script ask) and the stay's leave; the next
 * stay has a deadline of its own. A plain call (strait_call) the same. */
static void job_loops_end_by_time_limit(void) {
  for (size_t i = 0; i < sizeof kJobLoops / sizeof kJobLoops[0]; i++) {
    tcap c = {0};
    strait_runtime *rt = srt_new(&c, 100000, 0);
    T_EVAL(rt, "globalThis.n = 0; 0", "0");
    strait_enter(rt);
    JSValueRef exc = NULL;
    double t0 = now_ms();
    T_EQ_INT(strait_eval_utf8(rt, kJobLoops[i], strlen(kJobLoops[i]), "[test]", NULL, &exc), STRAIT_ETIMEDOUT);
    T_EQ_INT(strait_checkpoint(rt), STRAIT_ETIMEDOUT);
    double took = now_ms() - t0;
    T_EQ_INT(strait_leave(rt), STRAIT_ETIMEDOUT);
    T_CHECK(took >= 95 && took < 2000);
    T_EVAL(rt, "6 * 7", "42");
    strait_runtime_free(rt);
    tcap_free(&c);
  }
}

/* A checkpoint runs ordinary jobs in order and reports nothing; a job that
 * throws is the promise's rejection, not the stay's. */
static void checkpoint_runs_jobs(void) {
  tcap c = {0};
  strait_runtime *rt = srt_new(&c, 0, 0);
  T_EVAL(rt, "globalThis.log = []; Promise.resolve(1).then((v) => log.push('then' + v));"
             " queueMicrotask(() => log.push('mt')); log.push('sync'); 0", "0");
  T_EVAL(rt, "log.join()", "'sync,then1,mt'");
  strait_enter(rt);
  T_EQ_INT(strait_checkpoint(rt), 0);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* ---- host callbacks --------------------------------------------------------- */

static atomic_int host_calls;

/* native hostCall(ms): a host call of ms milliseconds (the gate kept) that
 * stops the script when it must, before it starts and after it returned, as
 * the JNI layer does around every Java call. */
static JSValueRef js_host_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  if (strait_check_stop(rt)) return NULL;       /* refused */
  atomic_fetch_add(&host_calls, 1);
  if (argc > 0 && JSValueIsNumber(ctx, argv[0])) sleep_ms(JSValueToNumber(ctx, argv[0], NULL));
  if (strait_check_stop(rt)) return NULL;       /* stopped while it ran */
  return JSValueMakeUndefined(ctx);
}

/* native selfInterrupt(): strait_interrupt() of the runtime itself. */
static JSValueRef js_self_interrupt(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                    const JSValueRef argv[], JSValueRef *exception) {
  strait_interrupt(strait_runtime_from_context(ctx));
  return JSValueMakeUndefined(ctx);
}

static void add_native(strait_runtime *rt, const char *name, JSObjectCallAsFunctionCallback cb) {
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  JSStringRef n = JSStringCreateWithUTF8CString(name);
  JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, JSObjectMakeFunctionWithCallback(ctx, n, cb),
                      0, NULL);
  JSStringRelease(n);
  strait_leave(rt);
}

static int eval_in_stay(strait_runtime *rt, const char *src) {
  strait_enter(rt);
  JSValueRef exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[test]", NULL, &exc);
  strait_leave(rt);
  return rc;
}

/* An interrupt that comes while a host call runs ends the script at the
 * call's return into JS: no catch, no finally, no statement after it. One
 * that came before a host call refuses it. Without an interrupt the calls
 * all run. */
static void host_call_return_is_uncatchable(void) {
  tcap c = {0};
  strait_runtime *rt = srt_new(&c, 0, 0);
  add_native(rt, "hostCall", js_host_call);
  add_native(rt, "selfInterrupt", js_self_interrupt);
  const char *body = "try { %s log.push('after'); } catch (e) { log.push('caught'); } finally { log.push('finally'); }";
  char src[512];
  T_EVAL(rt, "globalThis.log = []; 0", "0");
  atomic_store(&host_calls, 0);
  snprintf(src, sizeof src, body, "hostCall(0); hostCall(0);");
  T_EQ_INT(eval_in_stay(rt, src), 0);
  T_EQ_INT(atomic_load(&host_calls), 2);
  T_EVAL(rt, "log.join()", "'after,finally'");

  /* stopped during the call */
  T_EVAL(rt, "log.length = 0; 0", "0");
  atomic_store(&host_calls, 0);
  snprintf(src, sizeof src, body, "hostCall(150);");
  strait_enter(rt);
  later l;
  interrupt_later(&l, rt, 40);
  JSValueRef exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[test]", NULL, &exc);
  pthread_join(l.tid, NULL);
  strait_leave(rt);
  T_EQ_INT(rc, STRAIT_ETERM);
  T_EQ_INT(atomic_load(&host_calls), 1);
  T_EVAL(rt, "log.join()", "''");

  /* stopped before the call: refused */
  atomic_store(&host_calls, 0);
  snprintf(src, sizeof src, body, "selfInterrupt(); hostCall(0);");
  T_EQ_INT(eval_in_stay(rt, src), STRAIT_ETERM);
  T_EQ_INT(atomic_load(&host_calls), 0);
  T_EVAL(rt, "log.join()", "''");
  T_EVAL(rt, "6 * 7", "42");
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* native hostWait(): a host call that waits with the gate suspended until
 * the wait hook wakes it (or 10 s pass), then stops the script if it must. */
static atomic_int woken;
static void wake_hook(strait_runtime *rt, void *ud) {
  (void)rt;
  atomic_store((atomic_int *)ud, 1);
}

static JSValueRef js_host_wait(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  if (strait_check_stop(rt)) return NULL;
  strait_suspension s;
  strait_gate_suspend(rt, &s);
  double t0 = now_ms();
  while (!atomic_load(&woken) && now_ms() - t0 < 10000) sleep_ms(1);
  strait_gate_resume(rt, &s);
  if (strait_check_stop(rt)) return NULL;
  return JSValueMakeUndefined(ctx);
}

/* A time limit that passes while the script waits in a host call wakes
 * the call (the watcher thread calls the wait hook), and the script, which
 * catches everything and calls again, ends at the call's return. */
static void waiting_host_call_is_woken(void) {
  tcap c = {0};
  strait_runtime *rt = srt_new(&c, 150000, 0);
  add_native(rt, "hostWait", js_host_wait);
  atomic_store(&woken, 0);
  strait_enter(rt);
  strait_set_wait_hook(rt, wake_hook, &woken);
  strait_leave(rt);
  strait_enter(rt);
  const char *src = "for (;;) { try { hostWait(); } catch (e) { } }";
  double t0 = now_ms();
  JSValueRef exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[test]", NULL, &exc);
  double took = now_ms() - t0;
  T_EQ_INT(rc, STRAIT_ETIMEDOUT);
  T_CHECK(atomic_load(&woken));
  T_CHECK(took >= 145 && took < 5000);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void *wake_main(void *p) {
  later *l = p;
  sleep_ms(l->delay_ms);
  strait_interrupt(l->rt);
  strait_wake_waiting(l->rt);
  return NULL;
}

/* strait_wake_waiting() after an interrupt wakes the host call at once. */
static void wake_waiting_after_interrupt(void) {
  tcap c = {0};
  strait_runtime *rt = srt_new(&c, 0, 0);
  add_native(rt, "hostWait", js_host_wait);
  atomic_store(&woken, 0);
  strait_enter(rt);
  strait_set_wait_hook(rt, wake_hook, &woken);
  later l = {rt, 80, 0};
  pthread_create(&l.tid, NULL, wake_main, &l);
  const char *src = "hostWait(); globalThis.after = 1;";
  double t0 = now_ms();
  JSValueRef exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[test]", NULL, &exc);
  double took = now_ms() - t0;
  pthread_join(l.tid, NULL);
  T_EQ_INT(rc, STRAIT_ETERM);
  T_CHECK(took < 5000);
  strait_leave(rt);
  T_EVAL(rt, "typeof after", "'undefined'");
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* ---- overdue stops and the source limit ------------------------------------- */

static atomic_llong overdue_seen;
static JSValueRef js_busy_native(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exception) {
  /* a native operation that ignores stops for 300 ms */
  double t0 = now_ms();
  while (now_ms() - t0 < 300) {}
  return JSValueMakeUndefined(ctx);
}

static void *overdue_main(void *p) {
  strait_runtime *rt = p;
  for (int i = 0; i < 40; i++) {
    sleep_ms(10);
    long long o = strait_stop_overdue_ms(rt);
    if (o > atomic_load(&overdue_seen)) atomic_store(&overdue_seen, o);
  }
  return NULL;
}

/* A stop that a native operation does not let take effect is overdue,
 * and says by how much; nothing is overdue once the stay is over. */
static void overdue_is_measured(void) {
  tcap c = {0};
  strait_runtime *rt = srt_new(&c, 50000, 0);
  add_native(rt, "busyNative", js_busy_native);
  atomic_store(&overdue_seen, 0);
  pthread_t tid;
  pthread_create(&tid, NULL, overdue_main, rt);
  strait_enter(rt);
  const char *src = "busyNative(); for (;;) {}";
  JSValueRef exc = NULL;
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), "[test]", NULL, &exc), STRAIT_ETIMEDOUT);
  strait_leave(rt);
  pthread_join(tid, NULL);
  T_CHECK(atomic_load(&overdue_seen) >= 100);   /* 50 ms limit, 300 ms native */
  T_EQ_INT(strait_stop_overdue_ms(rt), 0);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Sources over max_source are refused before the parse (strait_eval and
 * module sources); 0 takes 8 Mi characters under a time limit and none
 * without one; -1 is none. */
static void max_source_bounds_what_is_compiled(void) {
  struct { int64_t time_us, max; size_t len; int refused; } cases[] = {
      {0, 1000, 1000, 0},
      {0, 1000, 1001, 1},
      {100000000, 0, (8u << 20) + 1, 1},
      {100000000, -1, (8u << 20) + 1, 0},
      {0, 0, (8u << 20) + 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tcap c = {0};
    strait_runtime *rt = srt_new(&c, cases[i].time_us, cases[i].max);
    char *src = malloc(cases[i].len + 1);
    memset(src, ' ', cases[i].len);
    src[cases[i].len] = 0;
    src[0] = '1';
    strait_enter(rt);
    JSValueRef exc = NULL;
    int rc = strait_eval_utf8(rt, src, cases[i].len, "[big]", NULL, &exc);
    T_EQ_INT(rc, cases[i].refused ? STRAIT_EJS : 0);
    if (cases[i].refused && exc) {
      char *msg = strait_utf8_from_value(strait_runtime_context(rt), exc, NULL);
      T_CONTAINS(msg, "RangeError: source of");
      T_CONTAINS(msg, "max-source-size");
      free(msg);
    }
    strait_leave(rt);
    free(src);
    strait_runtime_free(rt);
    tcap_free(&c);
  }
  strait_options o;
  memset(&o, 0, sizeof o);
  o.max_source = -2;
  strait_runtime *rt = NULL;
  T_EQ_INT(strait_runtime_new(&o, &rt), STRAIT_EINVAL);
}

int main(void) {
  T_RUN(checkpoint_runs_jobs);
  T_RUN(job_loops_end_by_interrupt);
  T_RUN(job_loops_end_by_time_limit);
  T_RUN(host_call_return_is_uncatchable);
  T_RUN(waiting_host_call_is_woken);
  T_RUN(wake_waiting_after_interrupt);
  T_RUN(overdue_is_measured);
  T_RUN(max_source_bounds_what_is_compiled);
  return T_DONE();
}

/* test_loop.c - the event loop: timer order, intervals, zero-delay FIFO,
 * posting from another thread, errors in callbacks, unhandled rejections,
 * microtasks. */
#include "t.h"
#include "helpers.h"

#include <pthread.h>
#include <time.h>

static void timeout_order(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  double t0 = tnow_ms();
  int rc = trt_run(rt,
      "setTimeout(() => console.log('b'), 20);"
      "setTimeout(() => console.log('a'), 5);"
      "setTimeout((x, y) => console.log('c', x, y), 20, 1, 'two');"
      "const gone = setTimeout(() => console.log('never'), 10);"
      "clearTimeout(gone); clearTimeout(12345); console.log('sync');", &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "sync\na\nb\nc 1 two\n");
  T_CHECK(tnow_ms() - t0 >= 19);
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Timers found by id (the table in timers.c): 30,000 timers, two thirds
 * cleared in a shuffled order, some twice, some from callbacks (including
 * their own id and ids of fired timers), the table grown and shrunk
 * through several waves; exactly the others fire, once each. */
static void many_timers_cleared_by_id(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "let seed = 1; const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;"
      "const N = 30000, ids = [], fired = new Uint8Array(N), cleared = new Uint8Array(N);"
      "const stop = (k) => { if (!fired[k]) cleared[k] = 1; clearTimeout(ids[k]); };"
      "for (let i = 0; i < N; i++) ids.push(setTimeout(() => { fired[i]++; clearTimeout(ids[i]);"
      "  if (i % 7 === 0 && i + 1 < N) stop(i + 1);"
      "  stop((i * 31) % N); }, 1 + i % 5));"
      "const order = []; for (let i = 0; i < N; i++) if (i % 3) order.push(i);"
      "for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }"
      "for (const i of order) { stop(i); if (i % 2) clearTimeout(ids[i]); }"
      "for (let w = 0; w < 5; w++) { const more = []; for (let i = 0; i < 5000; i++) more.push(setInterval(() => {}, 1e6));"
      "  for (let i = more.length - 1; i >= 0; i--) clearInterval(more[i]); }"
      "setTimeout(() => { let bad = 0, n = 0;"
      "  for (let i = 0; i < N; i++) { if (fired[i] > 1) bad++; if (fired[i]) n++; if (fired[i] && cleared[i]) bad++;"
      "    if (!cleared[i] && !fired[i]) bad++; }"
      "  console.log(bad, n > 0); }, 30);", &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "0 true\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void interval_until_cleared(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "let n = 0; const id = setInterval(() => { console.log(n); if (++n === 3) clearInterval(id); }, 1);",
      &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "0\n1\n2\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void zero_delay_fifo(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "for (let i = 0; i < 5; i++) setTimeout(() => {"
      "  console.log(i); if (i === 0) setTimeout(() => console.log('nested'), 0); }, 0);"
      "setTimeout(() => console.log('late'), 0);", &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "0\n1\n2\n3\n4\nlate\nnested\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void microtasks_run_before_timers(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "setTimeout(() => console.log('timeout'), 0);"
      "Promise.resolve().then(() => console.log('then'));"
      "queueMicrotask(() => console.log('microtask'));"
      "process.nextTick((a, b) => console.log('tick', a, b), 1, 2);"
      "console.log('sync');", &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "sync\nthen\nmicrotask\ntick 1 2\ntimeout\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void microtasks_run_after_each_callback(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "setTimeout(() => { console.log('a'); Promise.resolve().then(() => console.log('a-then')); }, 0);"
      "setTimeout(() => console.log('b'), 0);", &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "a\na-then\nb\n");
  free(err);
  /* A timer made by a promise job keeps the loop alive. */
  tbuf_reset(&c.out);
  rc = trt_run(rt,
      "setTimeout(async () => { await null; await null;"
      "  setTimeout(() => console.log('made in a job'), 5); }, 0);", &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "made in a job\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

typedef struct poster {
  strait_runtime *rt;
  tcap *cap;
} poster;

static void posted_task(strait_runtime *rt, void *data) {
  const char *src = "console.log('posted', typeof data)";
  (void)data;
  strait_eval_utf8(rt, src, strlen(src), NULL, NULL, NULL);
  strait_loop_unref(rt);
}

static void *post_later(void *arg) {
  poster *p = arg;
  usleep(30000);
  strait_post(p->rt, posted_task, NULL, NULL);
  return NULL;
}

static void post_from_other_thread_wakes_loop(void) {
  tcap c = {0};
  poster p = {trt_new(&c, 0, NULL), &c};
  strait_loop_ref(p.rt);
  pthread_t th;
  double t0 = tnow_ms();
  pthread_create(&th, NULL, post_later, &p);
  JSValueRef exc = NULL;
  T_EQ_INT(strait_loop_run(p.rt, &exc), 0);
  double took = tnow_ms() - t0;
  pthread_join(th, NULL);
  T_EQ_STR(tbuf_str(&c.out), "posted undefined\n");
  T_CHECK(took >= 25 && took < 1000);
  strait_runtime_free(p.rt);
  tcap_free(&c);
}

static int dropped;
static void drop_counter(void *data) { (void)data; dropped++; }
static void never_runs(strait_runtime *rt, void *data) { (void)rt; (void)data; }

static void unrun_tasks_are_dropped_on_free(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  dropped = 0;
  T_EQ_INT(strait_post(rt, never_runs, NULL, drop_counter), 0);
  T_EQ_INT(strait_post(rt, never_runs, NULL, drop_counter), 0);
  strait_runtime_free(rt);
  T_EQ_INT(dropped, 2);
  tcap_free(&c);
}

static void exception_in_timer_ends_loop(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "setTimeout(() => { throw new RangeError('in timer'); }, 1);\n"
      "setTimeout(() => console.log('after'), 50);", &err);
  T_EQ_INT(rc, STRAIT_EJS);
  T_CONTAINS(err, "[test]:1:");
  T_CONTAINS(err, "RangeError: in timer");
  T_EQ_STR(tbuf_str(&c.out), "");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void unhandled_rejection_is_reported(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt, "async function f() { throw new Error('nobody caught me'); }\nf();",
                      &err);
  T_EQ_INT(rc, STRAIT_EJS);
  T_CONTAINS(err, "Error: nobody caught me");
  free(err);
  /* A handled rejection is not reported. */
  tbuf_reset(&c.out);
  rc = trt_run(rt, "Promise.reject(new Error('x')).catch(e => console.log('caught', e.message));",
                  &err);
  T_EQ_INT(rc, 0);
  T_EQ_STR(tbuf_str(&c.out), "caught x\n");
  free(err);
  /* A thrown non-Error in a microtask. */
  rc = trt_run(rt, "queueMicrotask(() => { throw 7; });", &err);
  T_EQ_INT(rc, STRAIT_EJS);
  T_EQ_STR(err, "Uncaught 7\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void exit_in_timer_stops_loop(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  int rc = trt_run(rt,
      "setTimeout(() => { console.log('exiting'); process.exit(4); console.log('no'); }, 1);"
      "setTimeout(() => console.log('never'), 30);", &err);
  T_EQ_INT(rc, STRAIT_EEXIT);
  T_EQ_INT(c.exit_calls, 1);
  T_EQ_INT(c.exit_code, 4);
  T_EQ_STR(tbuf_str(&c.out), "exiting\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

int main(void) {
  T_RUN(timeout_order);
  T_RUN(interval_until_cleared);
  T_RUN(many_timers_cleared_by_id);
  T_RUN(zero_delay_fifo);
  T_RUN(microtasks_run_before_timers);
  T_RUN(microtasks_run_after_each_callback);
  T_RUN(post_from_other_thread_wakes_loop);
  T_RUN(unrun_tasks_are_dropped_on_free);
  T_RUN(exception_in_timer_ends_loop);
  T_RUN(unhandled_rejection_is_reported);
  T_RUN(exit_in_timer_stops_loop);
  return T_DONE();
}

/* test_workers.c - workers from C, under the sanitizers: the group's
 * quiescence rule, strait__try_enter, worker hooks, a runtime freed with
 * busy workers, and many short-lived workers (no leak, no stray thread).
 * Workers here never print: a worker's output goes to its parent's sink,
 * which these tests read on the main thread only. */
#include "t.h"
#include "helpers.h"
#include "internal.h"
#include "group.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

/* The group: quiescence only when every member is idle; a message
 * activates its receiver once it is queued. */
static void group_quiescence(void) {
  strait__group *g = strait__group_new();
  strait__member a = {0}, b = {0};
  strait__group_join(g, &a);
  strait__group_join(g, &b);
  uint64_t ea = strait__group_idle(&a);
  T_CHECK(strait__group_epoch_is(&a, ea));        /* b still active */
  strait__group_active(&a);                         /* b sends a a message */
  T_EQ_INT(strait__group_resume(&a, ea), 1);
  ea = strait__group_idle(&a);
  uint64_t eb = strait__group_idle(&b);             /* the last one: quiescence */
  T_CHECK(!strait__group_epoch_is(&a, ea));
  T_EQ_INT(strait__group_resume(&a, ea), 0);        /* a's wait ends: return */
  T_CHECK(!strait__group_epoch_is(&b, eb));         /* b sees the quiescence it made */
  T_EQ_INT(strait__group_resume(&b, eb), 0);
  strait__group_leave(&a);
  strait__group_leave(&b);
  strait__group_release(g);

  /* A reply queued on a loop whose sender has not activated it yet (or
   * that was active when the reply came) keeps that member active: the
   * other going idle is no quiescence. */
  g = strait__group_new();
  strait__member c = {0}, d = {0};
  strait__loop lc;
  strait__loop_init(&lc);
  strait__group_join(g, &c);
  strait__group_join(g, &d);
  strait__group_set_loop(&c, &lc);
  atomic_store(&lc.ntasks, 1);                      /* d's reply is in c's queue */
  uint64_t ec = strait__group_idle(&c);
  uint64_t ed = strait__group_idle(&d);
  T_CHECK(ec == ed);
  T_CHECK(strait__group_epoch_is(&c, ec));          /* no quiescence */
  T_EQ_INT(strait__group_resume(&c, ec), 1);
  atomic_store(&lc.ntasks, 0);
  ec = strait__group_idle(&c);                      /* now the last one */
  T_CHECK(!strait__group_epoch_is(&d, ed));
  T_CHECK(!strait__group_epoch_is(&c, ec));
  strait__group_leave(&c);
  strait__group_leave(&d);
  strait__group_release(g);
  pthread_mutex_destroy(&lc.mu);
}

typedef struct holder {
  strait_runtime *rt;
  _Atomic int inside, release;
} holder;

static void *hold_gate(void *p) {
  holder *h = p;
  strait_enter(h->rt);
  atomic_store(&h->inside, 1);
  while (!atomic_load(&h->release)) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  strait_leave(h->rt);
  return NULL;
}

/* try_enter never waits: free -> inside; held elsewhere or by this thread
 * -> EBUSY. */
static void try_enter_never_waits(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_EQ_INT(strait__try_enter(rt), 0);
  T_EQ_INT(strait__try_enter(rt), STRAIT_EBUSY);    /* already inside */
  T_EVAL(rt, "1 + 1", "2");
  strait_leave(rt);
  holder h = {.rt = rt};
  pthread_t t;
  pthread_create(&t, NULL, hold_gate, &h);
  while (!atomic_load(&h.inside)) {}
  double t0 = tnow_ms();
  T_EQ_INT(strait__try_enter(rt), STRAIT_EBUSY);
  T_CHECK(tnow_ms() - t0 < 50);
  atomic_store(&h.release, 1);
  pthread_join(t, NULL);
  T_EQ_INT(strait__try_enter(rt), 0);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* A worker answers; both loops end when neither has work. */
static void worker_round_trip(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char src[1024], *err;
  snprintf(src, sizeof src,
           "const w = new Worker('%s/echo.js');"
           "w.onmessage = (e) => console.log('got', JSON.stringify(e.data));"
           "w.postMessage({ n: 1, s: 'x' }); w.postMessage([2]);", dir);
  T_EQ_INT(trt_run(rt, src, &err), 0);
  T_EQ_STR(tbuf_str(&c.out), "got {\"echo\":{\"n\":1,\"s\":\"x\"}}\ngot {\"echo\":[2]}\n");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Freeing a runtime whose workers spin terminates and joins them. */
static void free_with_busy_workers(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char src[512];
  snprintf(src, sizeof src, "for (let i = 0; i < 4; i++) new Worker('%s/spin.js'); 'started'", dir);
  T_EVAL(rt, src, "'started'");
  struct timespec ts = {0, 50 * 1000000};
  nanosleep(&ts, NULL);
  double t0 = tnow_ms();
  strait_runtime_free(rt);
  T_CHECK(tnow_ms() - t0 < 5000);
  tcap_free(&c);
}

static _Atomic int inits, finis;

static int count_init(void *ud, strait_runtime *w, JSValueRef *exc) {
  atomic_fetch_add(&inits, 1);
  JSContextRef ctx = strait_runtime_context(w);
  strait_set_property(ctx, JSContextGetGlobalObject(ctx), "fromHook",
                      JSValueMakeNumber(ctx, 42), kJSPropertyAttributeNone);
  if (ud) {
    *exc = strait_make_error(ctx, "Error", "init refused");
    return STRAIT_EJS;
  }
  return 0;
}

static void count_fini(void *ud) { (void)ud; atomic_fetch_add(&finis, 1); }

/* The hooks run once per worker, on its thread; a failing init is the
 * worker's error event; workers of workers get them too. */
static void hooks_run_per_worker(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_worker_hooks h = {.init = count_init, .fini = count_fini, .ud = NULL};
  strait_enter(rt);
  strait_set_worker_hooks(rt, &h);
  strait_leave(rt);
  atomic_store(&inits, 0);
  atomic_store(&finis, 0);
  char src[1024], *err;
  snprintf(src, sizeof src,
           "const w = new Worker('%s/hook.js');"
           "w.onmessage = (e) => console.log('hook', e.data);", dir);
  T_EQ_INT(trt_run(rt, src, &err), 0);
  free(err);
  T_EQ_STR(tbuf_str(&c.out), "hook 42\nhook 42\n");
  strait_runtime_free(rt);
  T_EQ_INT(atomic_load(&inits), 2);
  T_EQ_INT(atomic_load(&finis), 2);

  tcap_free(&c);
  rt = trt_new(&c, 0, NULL);
  h.ud = &c;   /* non-NULL: init refuses */
  strait_enter(rt);
  strait_set_worker_hooks(rt, &h);
  strait_leave(rt);
  snprintf(src, sizeof src,
           "const w = new Worker('%s/echo.js');"
           "w.onerror = (e) => { console.log(e.message); e.preventDefault(); };", dir);
  T_EQ_INT(trt_run(rt, src, &err), 0);
  free(err);
  T_EQ_STR(tbuf_str(&c.out), "Uncaught Error: init refused\n");
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* A worker blocked in a host call (a pipe read, the gate suspended as a
 * host call must) is woken by the fn it named with strait_worker_on_stop
 * when terminate() comes; its JS stops, what it posts after the call is
 * dropped, and release runs once, on its thread. */
static int stop_pipe[2] = {-1, -1};
static _Atomic int stops, releases;

static void stop_wake(void *data) {
  atomic_fetch_add(&stops, 1);
  char c = 'x';
  if (write(((int *)data)[1], &c, 1) != 1) abort();
}

static void stop_release(void *data) {
  atomic_fetch_add(&releases, 1);
  close(((int *)data)[0]);
  close(((int *)data)[1]);
  ((int *)data)[0] = ((int *)data)[1] = -1;
}

static JSValueRef block_in_host(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  strait_suspension s;
  strait_gate_suspend(rt, &s);
  char c;
  ssize_t n = read(stop_pipe[0], &c, 1);
  strait_gate_resume(rt, &s);
  return JSValueMakeNumber(ctx, (double)n);
}

static int stop_init(void *ud, strait_runtime *w, JSValueRef *exc) {
  if (pipe(stop_pipe) != 0) return STRAIT_ENOMEM;
  JSContextRef ctx = strait_runtime_context(w);
  strait_set_function(ctx, JSContextGetGlobalObject(ctx), "blockInHost", block_in_host);
  T_EQ_INT(strait_worker_on_stop(w, stop_wake, stop_release, stop_pipe), 0);
  return 0;
}

static void stop_wakes_a_blocked_worker(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  /* not a worker's runtime */
  T_EQ_INT(strait_worker_on_stop(rt, stop_wake, stop_release, stop_pipe), STRAIT_EINVAL);
  strait_worker_hooks h = {.init = stop_init, .ud = NULL};
  strait_set_worker_hooks(rt, &h);
  strait_leave(rt);
  atomic_store(&stops, 0);
  atomic_store(&releases, 0);
  char src[1024], *err;
  snprintf(src, sizeof src,
           "const w = new Worker('%s/block.js');"
           "w.onmessage = (e) => { console.log(e.data); w.terminate(); };", dir);
  T_EQ_INT(trt_run(rt, src, &err), 0);
  free(err);
  T_EQ_STR(tbuf_str(&c.out), "in\n");
  strait_runtime_free(rt);
  T_EQ_INT(atomic_load(&stops), 1);
  T_EQ_INT(atomic_load(&releases), 1);
  tcap_free(&c);
}

/* 200 workers started and ended (each answers once and closes), 20 at a
 * time: nothing leaks (ASan) and every thread is joined. */
static void many_short_workers(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char src[1024], *err;
  snprintf(src, sizeof src,
           "let done = 0, started = 0;"
           "function one() { started++; const w = new Worker('%s/once.js');"
           "  w.onmessage = () => { if (++done === 200) console.log('all'); else if (started < 200) one(); }; }"
           "for (let i = 0; i < 20; i++) one();", dir);
  T_EQ_INT(trt_run(rt, src, &err), 0);
  free(err);
  T_EQ_STR(tbuf_str(&c.out), "all\n");
  strait_runtime_free(rt);
  tcap_free(&c);
}


/* The embedder's end of a channel: value-format bytes in, structured
 * clones out as value-format bytes, from another thread; close wakes a
 * waiting receive. */
typedef struct port_reader {
  strait_port *p;
  int rc;
  strait_buffer out;
} port_reader;

static void *read_one(void *arg) {
  port_reader *r = arg;
  strait_value_error err;
  strait_buffer_init(&r->out, NULL, 0);
  r->rc = strait_port_receive(r->p, 5000, &r->out, &err);
  return NULL;
}

static void embedder_port(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  strait_port *p = NULL;
  JSValueRef js = NULL;
  T_EQ_INT(strait_port_open(rt, &p, &js), 0);
  JSContextRef ctx = strait_runtime_context(rt);
  strait_set_property(ctx, JSContextGetGlobalObject(ctx), "port", js, kJSPropertyAttributeNone);
  /* a value in the value format, as Java writes it */
  JSValueRef v = NULL, exc = NULL;
  const char *src = "({ list: [1, 'two', 3.5], nested: { ok: true } })";
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), "[test]", &v, &exc), 0);
  strait_buffer b;
  strait_value_error err;
  strait_buffer_init(&b, NULL, 0);
  T_EQ_INT(strait_value_encode(rt, v, &b, 0, NULL, &err, &exc), 0);
  strait_leave(rt);
  T_EQ_INT(strait_port_post(p, b.data, b.len), 0);
  strait_buffer_free(&b);
  char *e = NULL;
  T_EQ_INT(trt_run(rt, "port.onmessage = (m) => { console.log(JSON.stringify(m.data));"
                   " port.postMessage({ back: m.data.list.length, d: new Date(0) }); port.onmessage = null; }",
               &e), 0);
  free(e);
  T_EQ_STR(tbuf_str(&c.out), "{\"list\":[1,\"two\",3.5],\"nested\":{\"ok\":true}}\n");
  /* what the script posted, read back as the value format */
  strait_buffer_init(&b, NULL, 0);
  T_EQ_INT(strait_port_receive(p, 1000, &b, &err), 0);
  strait_enter(rt);
  JSValueRef back = NULL;
  T_EQ_INT(strait_value_decode(rt, b.data, b.len, NULL, &back, &err, &exc), 0);
  char *text = NULL;
  strait_inspect(rt, back, &text);
  T_EQ_STR(text, "{ back: 3, d: 1970-01-01T00:00:00.000Z }");
  free(text);
  strait_leave(rt);
  strait_buffer_free(&b);
  T_EQ_INT(strait_port_receive(p, 0, &b, &err), STRAIT_ETIMEDOUT);
  /* a receive waiting on another thread ends when the channel closes */
  port_reader r = {.p = p};
  pthread_t t;
  pthread_create(&t, NULL, read_one, &r);
  struct timespec ts = {0, 30 * 1000000};
  nanosleep(&ts, NULL);
  T_EQ_INT(trt_run(rt, "port.close()", &e), 0);
  free(e);
  pthread_join(t, NULL);
  T_EQ_INT(r.rc, STRAIT_ECLOSED);
  strait_buffer_free(&r.out);
  T_EQ_INT(strait_port_post(p, (const uint8_t *)"x", 1), STRAIT_ECLOSED);
  strait_port_close(p);   /* idempotent, p still valid */
  T_EQ_INT(strait_port_receive(p, 0, &b, &err), STRAIT_ECLOSED);
  strait_port_free(p);
  strait_runtime_free(rt);
  tcap_free(&c);
}

int main(void) {
  tmkdtemp(dir, sizeof dir);
  twrite_file(dir, "echo.js", "onmessage = (e) => postMessage({ echo: e.data });");
  twrite_file(dir, "spin.js", "for (;;) {}");
  twrite_file(dir, "once.js", "postMessage(1); close();");
  twrite_file(dir, "block.js", "postMessage('in'); blockInHost(); postMessage('late');");
  twrite_file(dir, "hook.js",
              "postMessage(fromHook);"
              "if (self.name !== 'inner') {"
              "  const inner = new Worker(__filename, { name: 'inner' });"
              "  inner.onmessage = (e) => postMessage(e.data); }");
  T_RUN(group_quiescence);
  T_RUN(try_enter_never_waits);
  T_RUN(worker_round_trip);
  T_RUN(free_with_busy_workers);
  T_RUN(hooks_run_per_worker);
  T_RUN(stop_wakes_a_blocked_worker);
  T_RUN(many_short_workers);
  T_RUN(embedder_port);
  trm_rf(dir);
  return T_DONE();
}

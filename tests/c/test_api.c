/* test_api.c - the public API the layers above build on, used as an
 * embedder would (strait.h only): version, loop stop, the exiting state,
 * gate options and suspensions, value helpers and the value format. */
#include "t.h"
#include "helpers.h"

#include <pthread.h>
#include <time.h>

static void version_matches_header(void) {
  char want[32];
  snprintf(want, sizeof want, "%d.%d.%d", STRAIT_VERSION_MAJOR, STRAIT_VERSION_MINOR,
           STRAIT_VERSION_PATCH);
  T_EQ_STR(STRAIT_VERSION, want);
  T_EQ_STR(strait_version(), STRAIT_VERSION);
}

static void *stop_later(void *arg) {
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  strait_loop_stop(arg);
  return NULL;
}

/* A loop kept alive by a handle returns 0 when another thread stops it; a
 * stop before the run is dropped by the run. */
static void loop_stop_from_other_thread(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_loop_ref(rt);
  strait_loop_stop(rt);
  pthread_t th;
  pthread_create(&th, NULL, stop_later, rt);
  JSValueRef exc = NULL;
  T_EQ_INT(strait_loop_run(rt, &exc), 0);
  pthread_join(th, NULL);
  T_CHECK(exc == NULL);
  strait_loop_unref(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void exiting_after_process_exit(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  T_EQ_INT(strait_exiting(rt), 0);
  strait_leave(rt);
  char *r = trt_eval(rt, "process.exit(3)");
  T_EQ_STR(r, "STATUS EEXIT");
  free(r);
  strait_enter(rt);
  T_CHECK(strait_exiting(rt) != 0);
  T_EQ_INT(strait_exit_code(rt), 3);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Gate options: no spinning, no takeover grace; the runtime still works
 * from two threads, and the spin can change while it lives. */
typedef struct counter_arg {
  strait_runtime *rt;
  int n;
} counter_arg;

static void *count_in_js(void *p) {
  counter_arg *a = p;
  for (int i = 0; i < a->n; i++) {
    strait_enter(a->rt);
    JSValueRef exc = NULL;
    const char *src = "globalThis.n = (globalThis.n || 0) + 1";
    strait_eval_utf8(a->rt, src, strlen(src), NULL, NULL, &exc);
    strait_leave(a->rt);
  }
  return NULL;
}

static void gate_options(void) {
  tcap c = {0};
  strait_options o = {.write = tcap_write, .write_ud = &c, .gate_spin_us = -1,
                      .gate_takeover_us = -1};
  strait_runtime *rt = NULL;
  T_EQ_INT(strait_runtime_new(&o, &rt), 0);
  counter_arg a = {rt, 2000};
  pthread_t th;
  pthread_create(&th, NULL, count_in_js, &a);
  strait_gate_set_spin(rt, 10);
  count_in_js(&a);
  pthread_join(th, NULL);
  char *r = trt_eval(rt, "n");
  T_EQ_STR(r, "4000");
  free(r);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* A native function that suspends the gate around a wait outside JS, as a
 * call into Java does. */
static int waited;
static JSValueRef wait_outside(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  strait_suspension s;
  strait_gate_suspend(rt, &s);
  waited++;
  strait_gate_resume(rt, &s);
  return JSValueMakeNumber(ctx, waited);
}

static int never(void *ud) { (void)ud; return 0; }

static void gate_suspension(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_EQ_INT(strait_enter_or_give_up(rt, never, NULL), 0);
  strait_set_function(strait_runtime_context(rt),
                      JSContextGetGlobalObject(strait_runtime_context(rt)), "waitOutside",
                      wait_outside);
  strait_leave(rt);
  char *r = trt_eval(rt, "waitOutside() + waitOutside()");
  T_EQ_STR(r, "3");
  free(r);
  strait_enter(rt);
  int ticket = strait_gate_suspend_unlocked(rt);
  T_CHECK(!strait_inside(rt));
  strait_gate_resume_unlocked(rt, ticket);
  T_CHECK(strait_inside(rt));
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* strait_crossings(): what a host caching its data in JS relies on. JS
 * alone never moves the counter; a resume after a suspension (a call out
 * of JS), an entry, a posted task and a timer each do. */
static double marks[16];
static int nmarks;
static JSValueRef mark_crossings(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exception) {
  if (nmarks < 16) marks[nmarks++] = *strait_crossings(strait_runtime_from_context(ctx));
  return JSValueMakeUndefined(ctx);
}

static void mark_task(strait_runtime *rt, void *data) {
  (void)data;
  if (nmarks < 16) marks[nmarks++] = *strait_crossings(rt);
}

static void crossing_counter(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  JSObjectRef global = JSContextGetGlobalObject(strait_runtime_context(rt));
  strait_set_function(strait_runtime_context(rt), global, "mark", mark_crossings);
  strait_set_function(strait_runtime_context(rt), global, "waitOutside", wait_outside);
  strait_leave(rt);
  nmarks = 0;
  char *err = NULL;
  /* 0, 1: JS only; 2: after a call out; 3: a timer; 4: the posted task */
  T_EQ_INT(trt_run(rt, "mark(); for (let i = 0; i < 1000; i++) JSON.stringify({i}); mark(); waitOutside(); mark();"
                       "setTimeout(mark, 0);", &err), 0);
  free(err);
  T_EQ_INT(nmarks, 4);
  T_CHECK(marks[1] == marks[0]);
  T_CHECK(marks[2] != marks[1]);
  T_CHECK(marks[3] != marks[2]);
  T_EQ_INT(strait_post(rt, mark_task, NULL, NULL), 0);
  JSValueRef exc = NULL;
  T_EQ_INT(strait_loop_run(rt, &exc), 0);
  T_EQ_INT(nmarks, 5);
  T_CHECK(marks[4] != marks[3]);
  /* an entry from outside moves it too */
  double before = *strait_crossings(rt);
  strait_enter(rt);
  T_CHECK(*strait_crossings(rt) != before);
  /* and a host's strait_cross(), by exactly one */
  before = *strait_crossings(rt);
  strait_cross(rt);
  T_CHECK(*strait_crossings(rt) == before + 1);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void value_helpers(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  JSObjectRef g = JSContextGetGlobalObject(ctx);
  JSStringRef s = strait_jsstring_from_utf8("h\xc3\xa9llo \xff", 8);
  size_t n = 0;
  char *u = strait_utf8_from_jsstring(s, &n);
  T_EQ_STR(u, "h\xc3\xa9llo \xef\xbf\xbd");
  T_EQ_INT(n, 10);
  free(u);
  strait_set_property(ctx, g, "greeting", JSValueMakeString(ctx, s), kJSPropertyAttributeNone);
  JSStringRelease(s);
  u = strait_utf8_from_value(ctx, strait_get_property(ctx, g, "greeting"), NULL);
  T_EQ_STR(u, "h\xc3\xa9llo \xef\xbf\xbd");
  free(u);
  JSValueRef e = strait_make_error(ctx, "RangeError", "bad %d", 7);
  u = strait_utf8_from_value(ctx, e, NULL);
  T_EQ_STR(u, "RangeError: bad 7");
  free(u);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void value_format_round_trip(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  JSValueRef v = NULL, exc = NULL;
  const char *src = "({a: [1, 2.5, 'x'], m: new Map([[1, true]]), d: new Date(0)})";
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), NULL, &v, &exc), 0);
  uint8_t lent[16];
  strait_buffer b;
  strait_buffer_init(&b, lent, sizeof lent);
  strait_value_error err;
  T_EQ_INT(strait_value_encode(rt, v, &b, 0, NULL, &err, &exc), 0);
  T_CHECK(b.spilled);
  JSValueRef back = NULL;
  T_EQ_INT(strait_value_decode(rt, b.data, b.len, NULL, &back, &err, &exc), 0);
  char *text = NULL;
  strait_inspect(rt, back, &text);
  T_EQ_STR(text, "{\n  a: [ 1, 2.5, 'x' ],\n  m: Map(1) { 1 => true },\n"
                 "  d: 1970-01-01T00:00:00.000Z\n}");
  free(text);
  T_EQ_INT(strait_value_decode(rt, b.data, b.len - 1, NULL, &back, &err, &exc),
           STRAIT_ECORRUPT);
  strait_buffer_free(&b);
  JSValueRef f = NULL;
  strait_eval_utf8(rt, "(function f() {})", 17, NULL, &f, &exc);
  strait_buffer_init(&b, NULL, 0);
  T_EQ_INT(strait_value_encode(rt, f, &b, 0, NULL, &err, &exc), STRAIT_ETYPE);
  strait_buffer_free(&b);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

int main(void) {
  T_RUN(version_matches_header);
  T_RUN(loop_stop_from_other_thread);
  T_RUN(exiting_after_process_exit);
  T_RUN(gate_options);
  T_RUN(gate_suspension);
  T_RUN(crossing_counter);
  T_RUN(value_helpers);
  T_RUN(value_format_round_trip);
  return T_DONE();
}

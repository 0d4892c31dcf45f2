/* test_release_hook.c - strait_set_release_hook (the crossing counter's
 * other side): the hook runs inside the gate right before each point after
 * which the counter moves (a suspension, a suspension without the JSC
 * lock, the outermost leave, strait_cross), never at a nested leave, and
 * not after it was removed; the counter has its old value while it runs. */
#include "t.h"
#include "helpers.h"

#include <JavaScriptCore/JavaScript.h>

#include "common/jsc_private.h"

typedef struct seen {
  strait_runtime *rt;
  int calls;
  double counter_at_call;   /* *strait_crossings when it last ran */
  int inside;               /* strait_inside when it last ran */
  double before_suspend;    /* *strait_crossings right before javaCall suspended */
  double after_resume;      /* ... and right after it resumed */
} seen;

static seen the_seen;

static void hook(strait_runtime *rt, void *ud) {
  seen *s = ud;
  s->calls++;
  s->counter_at_call = *strait_crossings(rt);
  s->inside = strait_inside(rt);
}

/* javaCall(how): suspends as a call into Java does (how 1: and gives up
 * the JSC lock too, as the loop does), then resumes. */
static JSValueRef js_java_call(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  strait_runtime *rt = the_seen.rt;
  int how = argc ? (int)JSValueToNumber(ctx, argv[0], NULL) : 0;
  strait_suspension s;
  the_seen.before_suspend = *strait_crossings(rt);
  strait_gate_suspend(rt, &s);
  if (how == 1) {
    strait_enter(rt);
    JSUnlock(strait_runtime_context(rt));
    int t = strait_gate_suspend_unlocked(rt);
    strait_gate_resume_unlocked(rt, t);
    JSLock(strait_runtime_context(rt));
    strait_leave(rt);
  }
  if (how == 2) strait_cross(rt);
  strait_gate_resume(rt, &s);
  the_seen.after_resume = *strait_crossings(rt);
  return JSValueMakeUndefined(ctx);
}

static void runs_before_the_counter_moves(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  the_seen = (seen){.rt = rt};
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  JSStringRef n = JSStringCreateWithUTF8CString("javaCall");
  JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), n, JSObjectMakeFunctionWithCallback(ctx, n, js_java_call), 0,
                      NULL);
  JSStringRelease(n);
  strait_set_release_hook(rt, hook, &the_seen);

  /* a suspension: once, before the counter moves, inside the gate */
  T_EVAL(rt, "javaCall(0); 1", "1");   /* T_EVAL enters (nested) and leaves (nested): no call */
  T_EQ_INT(the_seen.calls, 1);
  T_CHECK(the_seen.counter_at_call == the_seen.before_suspend);
  T_CHECK(the_seen.after_resume == the_seen.before_suspend + 1);
  T_EQ_INT(the_seen.inside, 1);

  /* a suspension, then (inside it) an enter and a suspension without the
   * JSC lock, then the leave of that nested stay: each one */
  the_seen.calls = 0;
  T_EVAL(rt, "javaCall(1); 1", "1");
  T_EQ_INT(the_seen.calls, 3);

  /* strait_cross: once more than a plain suspension */
  the_seen.calls = 0;
  T_EVAL(rt, "javaCall(2); 1", "1");
  T_EQ_INT(the_seen.calls, 2);

  /* a nested leave does not call it; the outermost does */
  the_seen.calls = 0;
  strait_enter(rt);
  strait_leave(rt);
  T_EQ_INT(the_seen.calls, 0);
  double before = *strait_crossings(rt);
  strait_leave(rt);
  T_EQ_INT(the_seen.calls, 1);
  T_CHECK(the_seen.counter_at_call == before);
  T_EQ_INT(the_seen.inside, 1);

  /* removed: no more calls */
  strait_enter(rt);
  strait_set_release_hook(rt, NULL, NULL);
  the_seen.calls = 0;
  T_EVAL(rt, "javaCall(1); javaCall(2); 1", "1");
  strait_leave(rt);
  T_EQ_INT(the_seen.calls, 0);
  strait_runtime_free(rt);
  tcap_free(&c);
}

int main(void) {
  T_RUN(runs_before_the_counter_moves);
  return T_DONE();
}

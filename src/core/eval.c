/*
 * eval.c - evaluating scripts in a runtime, and what runs JS on the
 * engine's terms around it: the clock timers and the loop go by, and the
 * drain of promise jobs after each callback.
 */
#include "eval.h"
#include "common/jsc_private.h"
#include "runtime.h"
#include "value.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Milliseconds on the monotonic clock. Any thread. */
double strait__now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * Microtask checkpoints.
 *
 * JSC runs the promise jobs when the outermost JSC lock is released, each
 * job as an outermost VM entry of its own, and its watchdog restarts its
 * clock at every outermost entry: a loop of jobs each shorter than the
 * tick (`for (;;) await null`) never reached the tick, so no interrupt,
 * time limit or close() stopped it. A checkpoint instead calls the
 * runtime's drainer, a host function whose callback runs the queue
 * (JSC::VM::drainMicrotasks) inside the VM entry of that one call: the
 * jobs are nested calls, the watchdog's clock runs across all of them and
 * its tick stops the loop like any other JS. The queue is empty when the
 * lock is released afterwards, so JSC's own drain finds nothing.
 *
 * A stay that is being terminated, or a runtime that closes, drops its
 * queued jobs without running one: the drainer then makes the VM's
 * termination pending before it drains, and JSC discards the queue.
 */

/* The drainer's callback. JSC dropped the VM lock around it; the calls
 * below need it. The JS thread, inside the gate. */
static JSValueRef drainer_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  JSLock(ctx);
  if (rt && rt->drain_discard) strait__jsc_throw_termination(ctx);
  strait__jsc_drain_microtasks(ctx);
  JSUnlock(ctx);
  return NULL;
}

/* Makes the drainer (see eval.h). */
void strait__checkpoint_init(strait_runtime *rt) {
  rt->drainer = JSObjectMakeFunctionWithCallback(rt->ctx, NULL, drainer_call);
  JSValueProtect(rt->ctx, rt->drainer);
}

/* A checkpoint now (see strait.h). */
int strait_checkpoint(strait_runtime *rt) { return strait__checkpoint(rt); }

/* Runs or drops the queued promise jobs (see eval.h). */
int strait__checkpoint(strait_runtime *rt) {
  if (!rt->drainer || !strait__gate_outermost(rt)) return strait__watch_reason(rt);
  rt->drain_discard = strait__watch_reason(rt) != 0 || atomic_load(&rt->gate.closing);
  JSValueRef exc = NULL;
  JSObjectCallAsFunction(rt->ctx, rt->drainer, NULL, 0, NULL, &exc);
  rt->drain_discard = false;
  return strait__watch_reason(rt);
}

/* Whether rt compiles a source of len characters (see eval.h). */
int strait__source_allowed(strait_runtime *rt, size_t len, JSValueRef *exception) {
  if (!rt->max_source || (uint64_t)len <= (uint64_t)rt->max_source) return 0;
  if (exception)
    *exception = strait_make_error(
        rt->ctx, "RangeError",
        "source of %zu characters is over the runtime's max-source-size of %lld characters "
        "(a parse cannot be stopped, so sources are bounded)",
        len, (long long)rt->max_source);
  return STRAIT_EJS;
}

/* Evaluates UTF-16 source (see strait.h). Inside the gate. */
int strait_eval(strait_runtime *rt, const JSChar *src, size_t len,
                const char *file, JSValueRef *result, JSValueRef *exception) {
  if (result) *result = NULL;
  if (exception) *exception = NULL;
  if (!src && len) return STRAIT_EINVAL;
  int refused = strait__watch_refused(rt, exception);
  if (refused) return refused;
  if ((refused = strait__source_allowed(rt, len, exception)) != 0) return refused;
  JSStringRef s = JSStringCreateWithCharacters(src ? src : (const JSChar *)u"", len);
  JSStringRef url = file ? strait_jsstring_from_utf8(file, strlen(file)) : NULL;
  JSValueRef exc = NULL;
  JSValueRef r = JSEvaluateScript(rt->ctx, s, NULL, url, 1, &exc);
  JSStringRelease(s);
  if (url) JSStringRelease(url);
  if (rt->exiting) return STRAIT_EEXIT;
  if (!r || exc) {
    if (exception) *exception = exc ? exc : JSValueMakeUndefined(rt->ctx);
    int why = strait__watch_reason(rt);   /* terminated: ETERM, ETIMEDOUT, EHEAP */
    return why ? why : STRAIT_EJS;
  }
  if (result) *result = r;
  return 0;
}

/* Evaluates UTF-8 source (see strait.h). Inside the gate. */
int strait_eval_utf8(strait_runtime *rt, const char *src, size_t len,
                     const char *file, JSValueRef *result, JSValueRef *exception) {
  if (result) *result = NULL;
  if (exception) *exception = NULL;
  JSStringRef s = strait_jsstring_from_utf8(src ? src : "", src ? len : 0);
  if (!s) return STRAIT_ENOMEM;
  int rc = strait_eval(rt, JSStringGetCharactersPtr(s), JSStringGetLength(s), file,
                       result, exception);
  JSStringRelease(s);
  return rc;
}

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

/* Drains (or, for a terminated stay or a closing runtime, drops) the
 * queue from inside a host callback of rt, which holds the VM lock: the
 * jobs run nested in that callback's VM entry. */
static void drain_here(strait_runtime *rt, JSContextRef ctx) {
  if (strait__watch_reason(rt) || atomic_load(&rt->gate.closing)) strait__jsc_throw_termination(ctx);
  strait__jsc_drain_microtasks(ctx);
  rt->checkpoint_clean = true;
}

/* The drainer's callback. JSC dropped the VM lock around it; the calls
 * below need it. The JS thread, inside the gate. */
static JSValueRef drainer_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  JSLock(ctx);
  if (rt) drain_here(rt, ctx);
  JSUnlock(ctx);
  return NULL;
}

/*
 * An entry that holds the stay's checkpoint in its own VM entry: an eval
 * or a call at the outermost level of a stay goes through the trampoline,
 * a host function whose callback makes it (a nested VM entry) and then
 * drains the queue, so the stay makes one outermost VM entry, not two (an
 * outermost entry costs about 0.7 us here with the watchdog armed). The
 * frame lives in the caller's C stack (JSC's scan sees its values); the
 * callback gets its address as a number.
 */
typedef struct tramp_frame {
  int kind;                  /* TRAMP_* */
  JSObjectRef f, self;
  size_t argc;
  const JSValueRef *argv;
  JSStringRef src, url;
  JSValueRef result, exc;
} tramp_frame;

enum { TRAMP_CALL, TRAMP_CONSTRUCT, TRAMP_EVAL };

static JSValueRef trampoline_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                  const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (!rt || argc != 1 || !JSValueIsNumber(ctx, argv[0])) return NULL;
  tramp_frame *t = (tramp_frame *)(uintptr_t)JSValueToNumber(ctx, argv[0], NULL);
  JSLock(ctx);
  switch (t->kind) {
    case TRAMP_CALL: t->result = JSObjectCallAsFunction(ctx, t->f, t->self, t->argc, t->argv, &t->exc); break;
    case TRAMP_CONSTRUCT: t->result = JSObjectCallAsConstructor(ctx, t->f, t->argc, t->argv, &t->exc); break;
    default: t->result = JSEvaluateScript(ctx, t->src, NULL, t->url, 1, &t->exc); break;
  }
  drain_here(rt, ctx);
  JSUnlock(ctx);
  return NULL;
}

/* Runs frame t: through the trampoline at the outermost level of the
 * stay (a checkpoint included), else directly. Inside the gate. */
static void run_entry(strait_runtime *rt, tramp_frame *t) {
  if (rt->trampoline && strait__gate_outermost(rt)) {
    JSValueRef arg = JSValueMakeNumber(rt->ctx, (double)(uintptr_t)t);
    JSValueRef ignored = NULL;
    JSObjectCallAsFunction(rt->ctx, rt->trampoline, NULL, 1, &arg, &ignored);
    return;
  }
  switch (t->kind) {
    case TRAMP_CALL: t->result = JSObjectCallAsFunction(rt->ctx, t->f, t->self, t->argc, t->argv, &t->exc); break;
    case TRAMP_CONSTRUCT: t->result = JSObjectCallAsConstructor(rt->ctx, t->f, t->argc, t->argv, &t->exc); break;
    default: t->result = JSEvaluateScript(rt->ctx, t->src, NULL, t->url, 1, &t->exc); break;
  }
}

/* Calls or constructs with the stay's checkpoint (see strait.h). */
JSValueRef strait_call(strait_runtime *rt, JSObjectRef f, JSObjectRef self, int construct, size_t argc,
                       const JSValueRef argv[], JSValueRef *exception) {
  tramp_frame t = {construct ? TRAMP_CONSTRUCT : TRAMP_CALL, f, self, argc, argv, NULL, NULL, NULL, NULL};
  run_entry(rt, &t);
  /* a stay terminated in the call or in its promise jobs: no result */
  if ((!t.result || strait__watch_reason(rt)) && !t.exc) t.exc = JSValueMakeUndefined(rt->ctx);
  if (t.exc && exception) *exception = t.exc;
  return t.exc ? NULL : t.result;
}

/* Makes the drainer and the trampoline (see eval.h). Both are host
 * functions, whose frame is the last of a JS stack trace made inside them,
 * named STRAIT__ENTRY_FRAME_NAME. */
void strait__checkpoint_init(strait_runtime *rt) {
  JSStringRef name = JSStringCreateWithUTF8CString(STRAIT__ENTRY_FRAME_NAME);
  rt->drainer = JSObjectMakeFunctionWithCallback(rt->ctx, name, drainer_call);
  JSValueProtect(rt->ctx, rt->drainer);
  rt->trampoline = JSObjectMakeFunctionWithCallback(rt->ctx, name, trampoline_call);
  JSValueProtect(rt->ctx, rt->trampoline);
  JSStringRelease(name);
}

/* A checkpoint now (see strait.h). */
int strait_checkpoint(strait_runtime *rt) { return strait__checkpoint(rt); }

/* Runs or drops the queued promise jobs (see eval.h). */
int strait__checkpoint(strait_runtime *rt) {
  /* one held inside the stay's last entry (strait_call or strait_eval
   * through the trampoline) is not held again */
  if (!rt->drainer || rt->checkpoint_clean || !strait__gate_outermost(rt)) return strait__watch_reason(rt);
  JSValueRef exc = NULL;
  JSObjectCallAsFunction(rt->ctx, rt->drainer, NULL, 0, NULL, &exc);
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
  tramp_frame t = {TRAMP_EVAL, NULL, NULL, 0, NULL, s, url, NULL, NULL};
  run_entry(rt, &t);
  JSValueRef r = t.result, exc = t.exc;
  JSStringRelease(s);
  if (url) JSStringRelease(url);
  if (rt->exiting) return STRAIT_EEXIT;
  /* terminated (ETERM, ETIMEDOUT, EHEAP) in the script or in the promise
   * jobs its checkpoint ran */
  int why = strait__watch_reason(rt);
  if (!r || exc || why) {
    if (exception) *exception = exc ? exc : JSValueMakeUndefined(rt->ctx);
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

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

/* Runs the promise jobs queued so far (and reports unhandled rejections):
 * JSC does that when the outermost JSC lock is released, so the loop, which
 * holds the gate once (depth 1), drops and retakes the lock. Called after
 * every task and timer callback, as Node runs microtasks after each
 * callback. Inside the gate; does nothing when entered more than once. */
void strait__drain_microtasks(strait_runtime *rt) {
  if (rt->gate.depth != 1) return;
  JSUnlock(rt->ctx);
  JSLock(rt->ctx);
}

/* Evaluates UTF-16 source (see strait.h). Inside the gate. */
int strait_eval(strait_runtime *rt, const JSChar *src, size_t len,
                const char *file, JSValueRef *result, JSValueRef *exception) {
  if (result) *result = NULL;
  if (exception) *exception = NULL;
  if (!src && len) return STRAIT_EINVAL;
  int refused = strait__watch_refused(rt, exception);
  if (refused) return refused;
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

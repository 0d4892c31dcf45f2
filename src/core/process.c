/*
 * process.c - the native side of the `process` object (js/process.js):
 * argv, a snapshot of the environment, cwd, pid, a monotonic clock and
 * exit. process.exit() with an embedder hook cannot stop the process, so it
 * marks the runtime as exiting and unwinds the script by throwing
 * internal.exitSignal (a frozen object): JSC's C API has no uncatchable
 * exception, so a `catch` in user code can see it, but rt->exiting stays
 * set and strait_eval / strait_run_main / strait_loop_run return
 * STRAIT_EEXIT anyway.
 */
#include "env.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* native.argv(): a new array of rt->argv strings, filled one element at a
 * time so every string is reachable from the array while the next one is
 * made (JSC's GC does not scan the C heap). JS thread. */
static JSValueRef js_argv(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  JSObjectRef a = JSObjectMakeArray(ctx, 0, NULL, exception);
  if (!a) return NULL;
  for (int i = 0; i < rt->argc; i++) {
    JSObjectSetPropertyAtIndex(ctx, a, (unsigned)i, strait__string_value(ctx, rt->argv[i]),
                               exception);
    if (*exception) return NULL;
  }
  return a;
}

/* native.env(): a new object with one string property per environ entry
 * (a snapshot; writes do not reach the C environment). JS thread. */
static JSValueRef js_env(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exception) {
  JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
  /* STRAIT_DENY_ENV: an empty object (script may still add to it) */
  if (strait__runtime_of(ctx)->opts.deny & STRAIT_DENY_ENV) return o;
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq || eq == *e) continue;
    JSStringRef k = strait_jsstring_from_utf8(*e, (size_t)(eq - *e));
    JSStringRef v = strait_jsstring_from_utf8(eq + 1, strlen(eq + 1));
    JSObjectSetProperty(ctx, o, k, JSValueMakeString(ctx, v), kJSPropertyAttributeNone, NULL);
    JSStringRelease(k);
    JSStringRelease(v);
  }
  return o;
}

/* native.cwd(): the current directory; throws an Error if it is gone.
 * JS thread. */
static JSValueRef js_cwd(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exception) {
  char buf[PATH_MAX];
  if (!getcwd(buf, sizeof buf)) {
    *exception = strait_make_error(ctx, "Error", "process.cwd: %s", strerror(errno));
    return NULL;
  }
  return strait__string_value(ctx, buf);
}

/* native.pid(): getpid(). JS thread. */
static JSValueRef js_pid(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exception) {
  return JSValueMakeNumber(ctx, (double)getpid());
}

/* native.hrtime(): [seconds, nanoseconds] of CLOCK_MONOTONIC. JS thread. */
static JSValueRef js_hrtime(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                            const JSValueRef argv[], JSValueRef *exception) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  JSValueRef parts[2] = {JSValueMakeNumber(ctx, (double)ts.tv_sec),
                         JSValueMakeNumber(ctx, (double)ts.tv_nsec)};
  return JSObjectMakeArray(ctx, 2, parts, exception);
}

/* ECMAScript ToInt32 of d (NaN and infinities are 0): the code
 * process.exit() gives the OS, which keeps its low 8 bits. */
static int to_int32(double d) {
  if (!(d == d) || d == INFINITY || d == -INFINITY) return 0;
  double m = fmod(trunc(d), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return (int)(int32_t)(uint32_t)m;
}

/* Non-zero when v is the runtime's exit signal (see env.h). Inside the
 * gate. */
int strait__is_exit_signal(strait_runtime *rt, JSValueRef v) {
  if (!rt->internal || !v) return 0;
  JSValueRef sig = strait_get_property(rt->ctx, rt->internal, "exitSignal");
  return sig && JSValueIsObject(rt->ctx, sig) && JSValueIsStrictEqual(rt->ctx, sig, v);
}

/* The message of process.exit() in a runtime with STRAIT_DENY_EXIT. */
static const char kExitDenied[] = "process.exit() is not allowed in this runtime";

/* native.exitDenied(): throws the Error of process.exit() when the
 * runtime has STRAIT_DENY_EXIT (process.js asks before it touches
 * exitCode). JS thread. */
static JSValueRef js_exit_denied(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exception) {
  if (strait__runtime_of(ctx)->opts.deny & STRAIT_DENY_EXIT) {
    *exception = strait_make_error(ctx, "Error", "%s", kExitDenied);
    return NULL;
  }
  return JSValueMakeUndefined(ctx);
}

/* native.exit(code): without an embedder hook flushes stdio and exits the
 * process; with one, calls it once, marks the runtime exiting and throws
 * the exit signal to unwind the script. With STRAIT_DENY_EXIT throws an
 * Error and the runtime goes on. JS thread. */
static JSValueRef js_exit(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (rt->opts.deny & STRAIT_DENY_EXIT) {
    *exception = strait_make_error(ctx, "Error", "%s", kExitDenied);
    return NULL;
  }
  /* process.js checked the code (Node's rules) and passes ToInt32 of it */
  int code = argc > 0 && JSValueIsNumber(ctx, argv[0]) ? to_int32(JSValueToNumber(ctx, argv[0], NULL)) : 0;
  if (!rt->exiting) {
    if (!rt->opts.on_exit) {
      fflush(NULL);
      exit(code & 0xff);
    }
    rt->exiting = true;
    rt->exit_code = code;
    rt->opts.on_exit(rt->opts.exit_ud, code);
  }
  JSValueRef sig = rt->internal ? strait_get_property(ctx, rt->internal, "exitSignal") : NULL;
  *exception = sig && JSValueIsObject(ctx, sig) ? sig
                                                : strait_make_error(ctx, "Error", "process.exit");
  return NULL;
}

/* Whether process.exit() ran with an on_exit hook (see strait.h). Inside
 * the gate. */
int strait_exiting(strait_runtime *rt) { return rt->exiting; }

/* The exit status for the embedder (see strait.h). Inside the gate. */
int strait_exit_code(strait_runtime *rt) {
  if (rt->exiting) return rt->exit_code;
  JSObjectRef g = JSContextGetGlobalObject(rt->ctx);
  JSValueRef p = strait_get_property(rt->ctx, g, "process");
  if (!p || !JSValueIsObject(rt->ctx, p)) return 0;
  /* process.exitCode holds undefined, null, an integer or a string of
   * one (its setter checks): the status is ToInt32 of it */
  JSValueRef c = strait_get_property(rt->ctx, (JSObjectRef)p, "exitCode");
  if (!c || !(JSValueIsNumber(rt->ctx, c) || JSValueIsString(rt->ctx, c))) return 0;
  return to_int32(JSValueToNumber(rt->ctx, c, NULL));
}

/* Adds the process natives to the bootstrap's native object. Inside the
 * gate. */
void strait__process_natives(JSContextRef ctx, JSObjectRef native) {
  strait_set_function(ctx, native, "argv", js_argv);
  strait_set_function(ctx, native, "env", js_env);
  strait_set_function(ctx, native, "cwd", js_cwd);
  strait_set_function(ctx, native, "pid", js_pid);
  strait_set_function(ctx, native, "hrtime", js_hrtime);
  strait_set_function(ctx, native, "exit", js_exit);
  strait_set_function(ctx, native, "exitDenied", js_exit_denied);
}

/*
 * env.c - installs the JS environment of a runtime: runs the bootstrap
 * scripts compiled into the library (the .js files of src/core/js) in a
 * fixed order.
 * Each script evaluates to a function (native, internal): `native` holds
 * the C helpers (console.c, process.c, module.c, wasm.c...), `internal` is the
 * bootstrap's private object where scripts leave what C calls later
 * (inspect, format, runMain, resolveMain). Neither object is reachable from
 * the global object; rt->internal keeps `internal` alive.
 */
#include "env.h"
#include "eval.h"
#include "clone.h"
#include "js_sources.h"
#include "wasm.h"
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Load order: inspect first (console needs it), module and intrinsics last.
 * The parts loaded on first use (kLazy) come after, by strait__env_load. */
static const char *const kBootstrap[] = {
  "inspect.js", "path.js", "console.js", "process.js", "module.js", "intrinsics.js", "wasm.js", "sort.js",
  "bootstrap.js",
};

/* Evaluates one bootstrap script and calls the function it yields with
 * (native, internal). Inside the gate. */
static int run_bootstrap(strait_runtime *rt, const char *name, JSObjectRef native,
                         JSValueRef *exception) {
  const strait__js_source *src = strait__js_sources_find(name);
  if (!src) return 0;
  JSValueRef exc = NULL;
  JSValueRef f = strait__js_source_eval(rt->ctx, src, NULL, &exc);
  if (!exc && f && JSValueIsObject(rt->ctx, f) && JSObjectIsFunction(rt->ctx, (JSObjectRef)f)) {
    JSValueRef args[2] = {native, rt->internal};
    JSObjectCallAsFunction(rt->ctx, (JSObjectRef)f, NULL, 2, args, &exc);
  }
  if (exc) {
    *exception = exc;
    return STRAIT_EJS;
  }
  return 0;
}

/* The parts evaluated on first use, each after the earlier parts it needs
 * (worker.js uses clone.js). Their globals are accessors that load them
 * (intrinsics.js), the functions js/wasm.js installs load wasm_meter.js, and
 * the C parts load them before they call into them. */
static const struct {
  const char *name;
  unsigned needs;   /* bits of earlier parts */
} kLazy[] = {{"clone.js", 0}, {"worker.js", 1u << 0}, {"wasm_meter.js", 0}};

/* Evaluates lazy part name (and the parts it needs) once per runtime (see
 * env.h). Inside the gate. */
int strait__env_load(strait_runtime *rt, const char *name, JSValueRef *exception) {
  *exception = NULL;
  for (size_t i = 0; i < sizeof kLazy / sizeof kLazy[0]; i++) {
    if (strcmp(kLazy[i].name, name) != 0) continue;
    unsigned want = kLazy[i].needs | (1u << i);
    for (size_t j = 0; j <= i; j++) {
      if (!(want & (1u << j)) || (rt->lazy_loaded & (1u << j))) continue;
      if (!rt->natives) return STRAIT_EINVAL;
      rt->lazy_loaded |= 1u << j;   /* once, even if it throws */
      int rc = run_bootstrap(rt, kLazy[j].name, rt->natives, exception);
      if (rc) return rc;
    }
    return 0;
  }
  return STRAIT_EINVAL;
}

/* native.load(name): loads a lazy part (the accessors of intrinsics.js). */
static JSValueRef js_load(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  char *name = argc > 0 && JSValueIsString(ctx, argv[0]) ? strait_utf8_from_value(ctx, argv[0], NULL) : NULL;
  JSValueRef exc = NULL;
  int rc = name ? strait__env_load(rt, name, &exc) : STRAIT_EINVAL;
  free(name);
  if (rc) {
    *exception = exc ? exc : strait_make_error(ctx, "Error", "strait: cannot load a part of the runtime (%s)",
                                               strait_err_name(rc));
    return NULL;
  }
  return JSValueMakeUndefined(ctx);
}

/* Installs console, process, require and friends (see env.h). Inside
 * the gate, once per runtime. */
int strait__env_install(strait_runtime *rt, JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  *exception = NULL;
  rt->internal = JSObjectMake(ctx, NULL, NULL);
  JSValueProtect(ctx, rt->internal);
  JSObjectRef native = JSObjectMake(ctx, NULL, NULL);
  rt->natives = native;
  JSValueProtect(ctx, native);
  strait_set_function(ctx, native, "load", js_load);
  {
    JSStringRef n = JSStringCreateWithUTF8CString("entryFrame");
    JSStringRef v = JSStringCreateWithUTF8CString(STRAIT__ENTRY_FRAME);
    JSObjectSetProperty(ctx, native, n, JSValueMakeString(ctx, v), kJSPropertyAttributeReadOnly, NULL);
    JSStringRelease(n);
    JSStringRelease(v);
  }
  strait__console_natives(ctx, native);
  strait__process_natives(ctx, native);
  strait__module_natives(ctx, native);
  strait__clone_natives(ctx, native);
  strait__worker_natives(ctx, native);
  strait__wasm_natives(ctx, native);
  for (size_t i = 0; i < sizeof kBootstrap / sizeof kBootstrap[0]; i++) {
    int rc = run_bootstrap(rt, kBootstrap[i], native, exception);
    if (rc) return rc;
  }
  return 0;
}

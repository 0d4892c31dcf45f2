/*
 * runtime.c - creation and release of a runtime, one JSC context group each,
 * and the once-per-process JavaScriptCore set-up.
 */
#include "runtime.h"
#include "env.h"
#include "eval.h"
#include "timers.h"
#include "worker.h"

#include "common/jsc_private.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static pthread_once_t jsc_once = PTHREAD_ONCE_INIT;

/* Signals the JVM owns. JSC installs SIGSEGV/SIGBUS handlers when it
 * initializes; with its signal-based features off (see docs/signals.md) it
 * never needs them, so whatever was installed before (HotSpot's handlers
 * when the JVM came first) is put back. */
static const int kHostSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};

static void set_default_option(const char *name, const char *value) {
  if (!getenv(name)) setenv(name, value, 0);
}

/*
 * JSC's options this process needs, through the environment JSC reads when
 * it initializes (a value already there wins):
 * - no fault-based WebAssembly bounds checks and no signal-based traps:
 *   JSC then never relies on a SIGSEGV of its own (the JVM owns it);
 * - polling traps: JSC interrupts JS (the watchdog's tick, watchdog.c) by
 *   a flag the code polls, not by a signal; a signal-based trap also throws
 *   away optimized code at every tick (a 20 ms tick made a tight loop 1.7x
 *   slower).
 * Set when the library is loaded, before any JSC call of this process can
 * initialize JSC (the first JSStringCreate does, e.g. from JNI_OnLoad): an
 * option read after that would come too late, and JSC would install its
 * signal handlers. Process-wide, once.
 */
__attribute__((constructor)) static void jsc_options(void) {
  set_default_option("JSC_useWasmFastMemory", "false");
  set_default_option("JSC_useWasmFaultSignalHandler", "false");
  set_default_option("JSC_usePollingTraps", "true");
}

static void jsc_init(void) {
  struct sigaction saved[sizeof kHostSignals / sizeof kHostSignals[0]];
  for (size_t i = 0; i < sizeof kHostSignals / sizeof kHostSignals[0]; i++)
    sigaction(kHostSignals[i], NULL, &saved[i]);
  jsc_options();   /* again, for an environment cleared since the load */
  /* Creating a group initializes JSC and its signal handlers. */
  JSContextGroupRef g = JSContextGroupCreate();
  JSGlobalContextRef c = JSGlobalContextCreateInGroup(g, NULL);
  JSGlobalContextRelease(c);
  JSContextGroupRelease(g);
  for (size_t i = 0; i < sizeof kHostSignals / sizeof kHostSignals[0]; i++) {
    if (saved[i].sa_handler != SIG_DFL && saved[i].sa_handler != SIG_IGN)
      sigaction(kHostSignals[i], &saved[i], NULL);
  }
}

/* Initializes JavaScriptCore once per process. Any thread. */
void strait__jsc_init_once(void) { pthread_once(&jsc_once, jsc_init); }

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

JSClassRef strait__global_class_ref;
static pthread_once_t global_class_once = PTHREAD_ONCE_INIT;

static void make_global_class(void) {
  JSClassDefinition def = kJSClassDefinitionEmpty;
  def.className = "global";
  strait__global_class_ref = JSClassCreate(&def);
}

/* The class of every runtime's global object (process-wide, never freed). */
static JSClassRef global_class(void) {
  pthread_once(&global_class_once, make_global_class);
  return strait__global_class_ref;
}

/* The runtime that owns ctx (see strait.h and runtime.h). */
strait_runtime *strait_runtime_from_context(JSContextRef ctx) {
  return strait__runtime_of(ctx);
}

const char *const strait__error_ctor_names[5] = {"Error", "TypeError", "RangeError", "SyntaxError",
                                                 "ReferenceError"};

/* Captures the global's error constructors (see runtime.h) of a new
 * runtime, before any script ran. The global is fresh, so its properties
 * are the intrinsics. Called once, from strait_runtime_new. */
static void capture_error_ctors(strait_runtime *rt) {
  JSObjectRef g = JSContextGetGlobalObject(rt->ctx);
  for (size_t i = 0; i < sizeof rt->error_ctors / sizeof rt->error_ctors[0]; i++) {
    JSValueRef v = strait_get_property(rt->ctx, g, strait__error_ctor_names[i]);
    if (v && JSValueIsObject(rt->ctx, v) && JSObjectIsConstructor(rt->ctx, (JSObjectRef)v)) {
      rt->error_ctors[i] = (JSObjectRef)v;
      JSValueProtect(rt->ctx, v);
    }
  }
}

/* Creates a runtime (see strait.h). Any thread. */
int strait_runtime_new(const strait_options *opts, strait_runtime **out) {
  *out = NULL;
  if (opts && (opts->time_limit_us < 0 || opts->heap_limit < 0 || opts->max_source < -1 ||
               opts->time_limit_us > INT64_MAX / 1000 ||
               (opts->deny & ~(STRAIT_DENY_ENV | STRAIT_DENY_FS | STRAIT_DENY_EXIT | STRAIT_DENY_WORKERS))))
    return STRAIT_EINVAL;
  char *root = NULL;
  if (opts && opts->fs_root) {
    struct stat st;
    root = *opts->fs_root ? realpath(opts->fs_root, NULL) : NULL;
    if (!root || stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
      int e = root ? ENOTDIR : *opts->fs_root ? errno : EINVAL;
      free(root);
      return e == ENOENT ? STRAIT_ENOENT : e == ENOMEM ? STRAIT_ENOMEM : STRAIT_EINVAL;
    }
  }
  strait__jsc_init_once();
  strait_runtime *rt = calloc(1, sizeof *rt);
  if (!rt) { free(root); return STRAIT_ENOMEM; }
  if (opts) rt->opts = *opts;
  rt->max_source = rt->opts.max_source > 0 ? rt->opts.max_source
                   : rt->opts.max_source == 0 && rt->opts.time_limit_us > 0 ? STRAIT__DEFAULT_MAX_SOURCE
                   : 0;
  rt->opts.argv = NULL;
  rt->opts.fs_root = NULL;
  rt->fs_root = root;
  if (opts && opts->argc > 0) {
    rt->argv = calloc((size_t)opts->argc, sizeof(char *));
    if (!rt->argv) { free(rt->fs_root); free(rt); return STRAIT_ENOMEM; }
    for (int i = 0; i < opts->argc; i++) {
      rt->argv[i] = dupstr(opts->argv[i] ? opts->argv[i] : "");
      if (!rt->argv[i]) {
        for (int j = 0; j < i; j++) free(rt->argv[j]);
        free(rt->argv);
        free(rt->fs_root);
        free(rt);
        return STRAIT_ENOMEM;
      }
      rt->argc = i + 1;
    }
  }
  strait__gate_init(&rt->gate);
  pthread_mutex_init(&rt->kids_mu, NULL);
  if (rt->opts.gate_spin_us || rt->opts.gate_takeover_us)
    strait__gate_configure(&rt->gate, rt->opts.gate_spin_us, rt->opts.gate_takeover_us);
  strait__loop_init(&rt->loop);
  rt->group = JSContextGroupCreate();
  rt->ctx = JSGlobalContextCreateInGroup(rt->group, global_class());
  if (!rt->group || !rt->ctx) {
    strait_runtime_free(rt);
    return STRAIT_ENOMEM;
  }
  /* JSC has no context user data: the global object's private slot holds
   * the runtime. */
  JSObjectSetPrivate(JSContextGetGlobalObject(rt->ctx), rt);
  capture_error_ctors(rt);
  strait__checkpoint_init(rt);
  strait__watch_init(rt);
  /* the time limit bounds the embedder's entries (an eval, a call, a task),
   * not the runtime's own set-up: a short limit on a loaded machine
   * otherwise terminated the bootstrap ("cannot create the JavaScript
   * runtime") */
  int64_t limit_ns = rt->wd.limit_ns;
  rt->wd.limit_ns = 0;
  int rc = strait_enter(rt);
  if (rc) { strait_runtime_free(rt); return rc; }
  JSValueRef exc = NULL;
  rc = strait__timers_install(rt, &exc);
  if (rc == 0) rc = strait__env_install(rt, &exc);
  if (rc != 0 && exc) strait__report(rt, exc);
  strait_leave(rt);
  rt->wd.limit_ns = limit_ns;
  if (rc != 0) {
    strait_runtime_free(rt);
    return rc;
  }
  *out = rt;
  return 0;
}

/* Releases the runtime (see strait.h). */
void strait_runtime_free(strait_runtime *rt) {
  if (!rt) return;
  int depth = 0;
  if (rt->ctx) {
    /* Wait for other threads to leave; then close the gate for good. */
    while (strait_inside(rt)) { depth++; strait_leave(rt); }
    if (strait_enter(rt) == 0) {
      atomic_store(&rt->gate.closing, 1);
      /* Workers first: their hooks may use what the embedder frees. */
      strait__workers_free(rt);
      if (rt->embedder_teardown) {
        void (*td)(strait_runtime *, void *) = rt->embedder_teardown;
        rt->embedder_teardown = NULL;
        td(rt, rt->embedder);
      }
      strait__loop_destroy(rt);
      strait__watch_destroy(rt);
      if (rt->internal) JSValueUnprotect(rt->ctx, rt->internal);
      if (rt->natives) JSValueUnprotect(rt->ctx, rt->natives);
      rt->natives = NULL;
      /* the teardown's own leave drops what is still queued, with the
       * drainer; it is unprotected once the engine's last stay is over */
      if (rt->clone_api) JSValueUnprotect(rt->ctx, rt->clone_api);
      rt->clone_api = NULL;
      for (size_t i = 0; i < sizeof rt->error_ctors / sizeof rt->error_ctors[0]; i++) {
        if (rt->error_ctors[i]) JSValueUnprotect(rt->ctx, rt->error_ctors[i]);
        rt->error_ctors[i] = NULL;
      }
      if (rt->pending_error) JSValueUnprotect(rt->ctx, rt->pending_error);
      if (rt->returned_error) JSValueUnprotect(rt->ctx, rt->returned_error);
      rt->returned_error = NULL;
      rt->internal = NULL;
      rt->pending_error = NULL;
      strait_leave(rt);
    }
    if (rt->drainer) {
      JSValueUnprotect(rt->ctx, rt->drainer);
      rt->drainer = NULL;
    }
    if (rt->trampoline) {
      JSValueUnprotect(rt->ctx, rt->trampoline);
      rt->trampoline = NULL;
    }
    JSGlobalContextRelease(rt->ctx);
  }
  (void)depth;
  if (rt->group) JSContextGroupRelease(rt->group);
  strait__gate_destroy(&rt->gate);
  pthread_mutex_destroy(&rt->kids_mu);
  pthread_mutex_destroy(&rt->loop.mu);
  for (int i = 0; i < rt->argc; i++) free(rt->argv[i]);
  free(rt->argv);
  free(rt->fs_root);
  free(rt);
}

/* The runtime's global context. */
JSGlobalContextRef strait_runtime_context(strait_runtime *rt) { return rt->ctx; }

/* Sets the embedder slot (see strait.h). */
void strait_runtime_set_embedder(strait_runtime *rt, void *data,
                                 void (*teardown)(strait_runtime *, void *)) {
  rt->embedder = data;
  rt->embedder_teardown = teardown;
}

void *strait_runtime_embedder(strait_runtime *rt) { return rt->embedder; }

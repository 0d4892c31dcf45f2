/*
 * lazy_java.c - starting the JVM only when a script first touches Java.
 *
 * Creating the JVM costs more than everything else `strait -e 1` does, so
 * the launcher defers it: the bridge's globals (java, javax, jdk, org, com,
 * net, Packages, Java) start out as accessors on the global object, and the
 * first read of any of them starts the JVM on the running thread, attaches
 * the bridge (strait_java_attach installs the real globals) and returns the
 * real value. JavaScriptCore is then initialized before HotSpot; that order
 * is safe (docs/signals.md): JSC's only handler is SIGUSR1, and HotSpot
 * installs its own handlers, chaining to any that were there before.
 */
#include "launcher.h"
#include "common/js_source.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The launcher's JS (src/launcher/js, embedded by tools/embed). */
extern const strait__js_source strait__launcher_js[];
const strait__js_source *strait__launcher_js_find(const char *name);

/* The names strait_java_attach defines on the global object. */
static const char *const kJavaGlobals[] = {STRAIT_JAVA_GLOBALS};

/*
 * The installer, evaluated once per runtime. It defines one accessor per
 * name. start() deletes the accessors (so the bridge defines plain
 * properties), calls the native starter, and puts back any value the script
 * assigned to one of the names meanwhile; when starting fails it puts the
 * accessors back so the next use throws again.
 */

/* One JVM start at a time: the script's thread or a worker's may be the
 * first to touch Java. Process-wide, as the JVM is. */
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;

static int java_start_locked(launch_java *j);

/* Starts the JVM once (see launcher.h). Any thread of the run. */
int launch_java_start(launch_java *j) {
  pthread_mutex_lock(&start_mu);
  int rc = java_start_locked(j);
  pthread_mutex_unlock(&start_mu);
  return rc;
}

/* Whether the JVM runs (see launcher.h). Any thread. */
int launch_java_started(launch_java *j) {
  pthread_mutex_lock(&start_mu);
  int started = j->started;
  pthread_mutex_unlock(&start_mu);
  return started;
}

static int java_start_locked(launch_java *j) {
  if (j->started) return 0;
  if (j->failed) return STRAIT_EINVAL;
  int rc = strait_jvm_start(j->jvm_opts, j->err, sizeof j->err);
  if (rc == 0) {
    j->started = 1;
    /* HotSpot replaced the SIGINT handler (its own runs shutdown hooks and
     * exits 130 at once, without interrupting the script): put ours back,
     * so Ctrl-C behaves the same with and without the JVM. */
    launch_sigint_install();
  } else {
    j->failed = 1;
    if (!j->err[0]) snprintf(j->err, sizeof j->err, "%s", strait_strerror(rc));
  }
  return rc;
}

/* A new Error(message) in ctx. Inside the gate. */
static JSValueRef make_error(JSContextRef ctx, const char *message) {
  JSStringRef s = JSStringCreateWithUTF8CString(message);
  JSValueRef arg = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return JSObjectMakeError(ctx, 1, &arg, NULL);
}

/* The native starter called by the installer's start(): starts the JVM and
 * attaches the bridge to this runtime; throws an Error on failure. Its
 * object's private data is the run's launch_java. Inside the gate, on the
 * thread running the script. */
static JSValueRef start_java(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                             const JSValueRef argv[], JSValueRef *exception) {
  launch_java *j = JSObjectGetPrivate(fn);
  strait_runtime *rt = strait_runtime_from_context(ctx);
  if (!j || !rt) {
    *exception = make_error(ctx, "strait: Java is not available in this runtime");
    return NULL;
  }
  if (launch_java_start(j) != 0) {
    char msg[1200];
    snprintf(msg, sizeof msg, "strait: cannot start the JVM: %s", j->err);
    *exception = make_error(ctx, msg);
    return NULL;
  }
  JSValueRef exc = NULL;
  int rc = strait_java_attach_policy(rt, j->policy, &exc);
  if (rc != 0) {
    if (exc) {
      *exception = exc;
    } else {
      char msg[256];
      snprintf(msg, sizeof msg, "strait: cannot attach the Java bridge: %s", strait_strerror(rc));
      *exception = make_error(ctx, msg);
    }
    return NULL;
  }
  return JSValueMakeUndefined(ctx);
}

static JSClassRef the_starter_class;
static pthread_once_t starter_once = PTHREAD_ONCE_INIT;

/* Makes the starter's class (pthread_once). */
static void make_starter_class(void) {
  JSClassDefinition def = kJSClassDefinitionEmpty;
  def.className = "StraitJavaStarter";
  def.callAsFunction = start_java;
  the_starter_class = JSClassCreate(&def);
}

/* The class of the native starter: a callable object with private data.
 * Process-wide, made once, never freed. Any thread. */
static JSClassRef starter_class(void) {
  pthread_once(&starter_once, make_starter_class);
  return the_starter_class;
}

/* Installs the lazy Java globals (see launcher.h). Inside the gate. */
int launch_java_lazy(strait_runtime *rt, launch_java *j, JSValueRef *exc) {
  JSContextRef ctx = strait_runtime_context(rt);
  const strait__js_source *js = strait__launcher_js_find("lazy_java.js");
  if (!js) return STRAIT_EINVAL;
  JSValueRef thrown = NULL;
  JSValueRef installer = strait__js_source_eval(ctx, js, "[strait:lazy-java]", &thrown);
  if (!installer) {
    if (!thrown) return STRAIT_ENOMEM;
    *exc = thrown;
    return STRAIT_EJS;
  }
  size_t n = sizeof kJavaGlobals / sizeof kJavaGlobals[0];
  JSValueRef names[sizeof kJavaGlobals / sizeof kJavaGlobals[0]];
  for (size_t i = 0; i < n; i++) {
    JSStringRef s = JSStringCreateWithUTF8CString(kJavaGlobals[i]);
    names[i] = JSValueMakeString(ctx, s);
    JSStringRelease(s);
  }
  JSValueRef args[2];
  args[0] = JSObjectMake(ctx, starter_class(), j);
  args[1] = JSObjectMakeArray(ctx, n, names, exc);
  if (!args[1]) return STRAIT_EJS;
  JSObjectRef fn = JSValueToObject(ctx, installer, exc);
  if (!fn) return STRAIT_EJS;
  if (!JSObjectCallAsFunction(ctx, fn, NULL, 2, args, exc)) return STRAIT_EJS;
  return 0;
}

/* A worker's runtime gets Java as the main script's did (see launcher.h):
 * the bridge under the run's policy when the JVM runs, else the lazy
 * globals (all access), else nothing. Worker's thread, inside its gate. */
static int worker_init(void *ud, strait_runtime *rt, JSValueRef *exc) {
  launch_java *j = ud;
  if (strait_java_prepare(rt) != 0) return STRAIT_ENOMEM;   /* before its script */
  if (launch_java_started(j)) return strait_java_attach_policy(rt, j->policy, exc);
  if (j->policy->host_access == STRAIT_HOST_ALL) return launch_java_lazy(rt, j, exc);
  return 0;
}

/* A worker's thread ends: it leaves the JVM if it had joined it. */
static void worker_fini(void *ud) {
  (void)ud;
  strait_jvm_detach_thread();
}

/* Gives rt's workers Java (see launcher.h). Inside the gate. */
void launch_java_workers(strait_runtime *rt, launch_java *j) {
  strait_worker_hooks h = {.init = worker_init, .fini = worker_fini, .ud = j};
  strait_set_worker_hooks(rt, &h);
}

/*
 * testprobe.c - test-only natives of org.strait.testing.TestNatives, linked
 * only into the test/bench library variant (build/lib-testing): for the signal/GC stress test, objects
 * whose JSC finalizer counts up a process-wide counter, so a test can
 * allocate millions of JS objects with native finalizers while Java
 * threads run the JVM's collector (both heaps' GCs and their signals at
 * once), installed only on request (TestNatives.probeInstall); and the number
 * of live JsRuntime engines (TestNatives.probeLiveRuntimes), so a test can see
 * forgotten runtimes being freed.
 */
#include "base/jni_base.h"
#include "base/interop_ids.h"

#include <stdatomic.h>

static _Atomic long probe_finalized;
static JSClassRef probe_class;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* Finalizer of a probe object: runs inside JSC's GC (any thread JSC picks),
 * so it only touches an atomic counter. */
static void probe_finalize(JSObjectRef obj) {
  atomic_fetch_add_explicit(&probe_finalized, 1, memory_order_relaxed);
}

/* Creates the probe class once per process. */
static void probe_class_create(void) {
  JSClassDefinition def = kJSClassDefinitionEmpty;
  def.className = "StraitProbe";
  def.finalize = probe_finalize;
  probe_class = JSClassCreate(&def);
}

/* __straitProbe(): a new probe object. JS callback, inside the gate. */
static JSValueRef probe_make(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                             size_t argc, const JSValueRef argv[], JSValueRef *exc) {
  return JSObjectMake(ctx, probe_class, NULL);
}

/* TestNatives.probeInstall(peer): defines globalThis.__straitProbe. Any Java
 * thread (enters the gate). */
static void JNICALL n_probe_install(JNIEnv *env, jclass cls, jlong peer) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  pthread_once(&probe_once, probe_class_create);
  int rc = strait_enter(jrt->rt);
  if (rc) {
    strait__throw_status(env, rc, "probeInstall");
    return;
  }
  JSGlobalContextRef ctx = strait_runtime_context(jrt->rt);
  strait_set_function(ctx, JSContextGetGlobalObject(ctx), "__straitProbe", probe_make);
  strait_leave(jrt->rt);
}

/* TestNatives.probeFinalized(): probe objects finalized so far. Any thread. */
static jlong JNICALL n_probe_finalized(JNIEnv *env, jclass cls) {
  return (jlong)atomic_load_explicit(&probe_finalized, memory_order_relaxed);
}

/* TestNatives.probeLiveRuntimes(): runtimes made by JsRuntime.create() whose
 * engine is not freed yet, process-wide. Any thread. */
static jlong JNICALL n_probe_live_runtimes(JNIEnv *env, jclass cls) {
  return (jlong)strait__jrt_live_embedded();
}

const JNINativeMethod strait__probe_natives[] = {
    {"probeInstall", "(J)V", (void *)n_probe_install},
    {"probeFinalized", "()J", (void *)n_probe_finalized},
    {"probeLiveRuntimes", "()J", (void *)n_probe_live_runtimes},
};
const int strait__probe_natives_count =
    (int)(sizeof strait__probe_natives / sizeof strait__probe_natives[0]);

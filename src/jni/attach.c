/*
 * attach.c - the Java bridge installed into one runtime
 * (strait_java_attach, include/strait_jvm.h): its per-runtime state (jb_rt)
 * with the call layer's callbacks, the wrapper table and its Java
 * ObjectTable, the helper script, the package globals and Java, under the
 * runtime's host access policy (model/policy.c); and the teardown that
 * frees all of it with the runtime.
 */
#include "call/call.h"

#include <stdlib.h>

/* Frees b: global refs, protected JS values, tables, owned blocks.
 * Called once from the JNI layer's runtime teardown, inside the gate. */
static void bridge_free(strait__jrt *jrt, JNIEnv *env) {
  jb_rt *b = jrt->bridge;
  if (!b) return;
  jrt->bridge = NULL;
  jb_registry_remove(b);
  if (!env) env = strait__env();
  jb_iters_free(env, b);
  jb_strcache_free(b, env);
  jb_policy_free(env, b);
  jb_jsclass_free(b);
  strait__ptrmap_free(&b->fns);
  if (b->java) JSValueUnprotect(b->ctx, b->java);
  jb_table_free(b, env);
  if (b->table) {
    /* a JsRuntime still referenced after its close keeps its table: empty,
     * it holds none of the objects (and classes) JS held */
    strait__call_void_quietly(env, b->table, jb.ObjectTable_clear);
    (*env)->DeleteGlobalRef(env, b->table);
  }
  if (b->release_buf) (*env)->DeleteGlobalRef(env, b->release_buf);
  if (b->adopt_buf) (*env)->DeleteGlobalRef(env, b->adopt_buf);
  jb_extend_free(env, b);
  jb_class_unpin_all(env, b);   /* last: the runtime's classes may be unloaded from here on */
  for (size_t i = 0; i < b->nowned; i++) free(b->owned[i]);
  free(b->owned);
  free(b);
}

/* strait_worker_on_stop's fn for a worker whose thread runs Java: the
 * Java thread's interrupt, so a blocking call (sleep, wait, a queue's
 * take, an interruptible channel) returns to JS, which the core's
 * interrupt then stops. Thread telling the worker to stop. */
static void interrupt_java_thread(void *data) {
  JNIEnv *env = strait__env();
  /* (a SecurityException it might throw: none without a manager) */
  if (env) strait__call_void_quietly(env, (jobject)data, strait__hc.Thread_interrupt);
}

/* Its release: the global ref of the worker's java.lang.Thread. Worker's
 * thread, still attached (before the fini hook detaches it). */
static void release_java_thread(void *data) {
  JNIEnv *env = strait__env();
  if (env) (*env)->DeleteGlobalRef(env, (jobject)data);
}

/* A worker's runtime that got the bridge: its thread is now the JVM's, and
 * telling the worker to stop interrupts that Java thread. Nothing for
 * other runtimes (their threads are the embedder's). Inside the gate. */
static void worker_stops_java(JNIEnv *env, strait_runtime *rt) {
  jobject t = (*env)->CallStaticObjectMethod(env, strait__hc.Thread, strait__hc.Thread_currentThread);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return;
  }
  jobject g = t ? (*env)->NewGlobalRef(env, t) : NULL;
  if (t) (*env)->DeleteLocalRef(env, t);
  if (g && strait_worker_on_stop(rt, interrupt_java_thread, release_java_thread, g) != 0)
    (*env)->DeleteGlobalRef(env, g);
}

/*
 * Installs the bridge into rt under policy (an org.strait.internal.HostPolicy;
 * NULL: HostPolicy.all(), or the test library's policy for this thread's
 * next runtime): its per-runtime state, and the package globals and Java
 * when the policy allows lookups. Under NONE the state is made all the
 * same, so every Java object crossing is refused by name (an
 * IllegalArgumentException to Java, a TypeError to JS). Inside the gate,
 * on a thread attached to the JVM. Returns 0 or a negative status
 * (STRAIT_EJS with *exception set on a JS exception). Calling it again for
 * the same runtime is a no-op (the first policy stays).
 */
int strait__java_attach_policy(JNIEnv *env, strait_runtime *rt, jobject policy, JSValueRef *exception) {
  if (!env || !jb.Bridge) return STRAIT_EINVAL;
  strait__jrt *jrt = strait__jrt_of(rt);
  if (!jrt) return STRAIT_ENOMEM;
  if (jrt->bridge) return 0;
  jobject own = NULL;
  if (!policy) {
    policy = own = (*env)->CallStaticObjectMethod(env, jb.HostPolicy, jb.HostPolicy_all);
    if (!policy || (*env)->ExceptionCheck(env)) {
      (*env)->ExceptionClear(env);
      return STRAIT_ENOMEM;
    }
  } else if (!(*env)->IsInstanceOf(env, policy, jb.HostPolicy)) {
    return STRAIT_EINVAL;
  }
  jb_rt *b = calloc(1, sizeof *b);
  if (!b) {
    if (own) (*env)->DeleteLocalRef(env, own);
    return STRAIT_ENOMEM;
  }
  b->rt = rt;
  b->cb = &jb_js_callbacks;
  b->ctx = strait_runtime_context(rt);
  b->aslist_count = -1;
  int rc = jb_policy_init(env, b, policy);
  if (own) (*env)->DeleteLocalRef(env, own);
  if (rc == 0) rc = jb_registry_add(b);
  if (rc) {
    jb_policy_free(env, b);
    free(b);
    return rc;
  }
  jrt->bridge = b;
  jrt->bridge_free = bridge_free;
  rc = jb_table_init(b);
  if (rc) return rc;
  jobject t = (*env)->NewObject(env, jb.ObjectTable, jb.ObjectTable_init);
  jlongArray buf = t ? (*env)->NewLongArray(env, 1024) : NULL;
  jobjectArray abuf = buf ? (*env)->NewObjectArray(env, 1024, strait__jc.Object, NULL) : NULL;
  if (!t || !buf || !abuf) {
    (*env)->ExceptionClear(env);
    return STRAIT_ENOMEM;
  }
  b->table = (*env)->NewGlobalRef(env, t);
  b->release_buf = (*env)->NewGlobalRef(env, buf);
  (*env)->DeleteLocalRef(env, t);
  (*env)->DeleteLocalRef(env, buf);
  b->adopt_buf = (*env)->NewGlobalRef(env, abuf);
  (*env)->DeleteLocalRef(env, abuf);
  JSValueRef exc = NULL;
  jb_imm_init(b->ctx);
  rc = jb_jsclass_init(b, b->ctx, &exc);
  if (rc == 0) rc = jb_packages_install(b, b->ctx, &exc);
  if (rc == 0 && b->java) jb_extend_install(b, b->ctx, b->java);
  if (rc == 0) worker_stops_java(env, rt);
  /* a stop ends a blocking Java call the script waits in (base/stop.c) */
  if (rc == 0) strait_set_wait_hook(rt, strait__wake_java, jrt);
  if (rc && exc && exception) *exception = exc;
  return rc;
}

/* Captures rt's built-ins for a bridge attached later (see
 * include/strait_jvm.h). */
int strait_java_prepare(strait_runtime *rt) {
  return strait__jrt_prepared(rt) ? 0 : STRAIT_ENOMEM;
}

/* The bridge with every class and member (HostPolicy.all()); see
 * include/strait_jvm.h. */
int strait_java_attach(strait_runtime *rt, JSValueRef *exception) {
  return strait__java_attach_policy(strait__env(), rt, NULL, exception);
}

/* The bridge under the C API's policy; see include/strait_jvm.h. */
int strait_java_attach_policy(strait_runtime *rt, const strait_java_policy *p, JSValueRef *exception) {
  JNIEnv *env = strait__env();
  if (!env || !jb.Bridge) return STRAIT_EINVAL;
  if (!p || (p->host_access == STRAIT_HOST_ALL && !p->deny && !p->allow))
    return strait__java_attach_policy(env, rt, NULL, exception);
  if (p->host_access < STRAIT_HOST_ALL || p->host_access > STRAIT_HOST_EXPLICIT) return STRAIT_EINVAL;
  jstring allow = NULL;
  if (p->allow) {
    allow = strait__jstring_from_utf8(env, p->allow, strlen(p->allow));
    if (!allow) {
      (*env)->ExceptionClear(env);
      return STRAIT_ENOMEM;
    }
  }
  jobject pol = (*env)->CallStaticObjectMethod(env, jb.HostPolicy, jb.HostPolicy_of, (jint)p->host_access, allow,
                                              (p->deny & STRAIT_JAVA_DENY_THREADS) ? JNI_FALSE : JNI_TRUE,
                                              (p->deny & STRAIT_JAVA_DENY_NATIVE) ? JNI_FALSE : JNI_TRUE);
  if (allow) (*env)->DeleteLocalRef(env, allow);
  if (!pol || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return STRAIT_ENOMEM;
  }
  int rc = strait__java_attach_policy(env, rt, pol, exception);
  (*env)->DeleteLocalRef(env, pol);
  return rc;
}

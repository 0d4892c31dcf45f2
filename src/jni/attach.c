/*
 * attach.c - the Java bridge installed into one runtime
 * (strait_java_attach, include/strait_jvm.h): its per-runtime state (jb_rt)
 * with the call layer's callbacks, the wrapper table and its Java
 * ObjectTable, the helper script, the package globals and Java; and the
 * teardown that frees all of it with the runtime.
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
  jb_strcache_free(b, env);
  jb_jsclass_free(b);
  strait__ptrmap_free(&b->fns);
  if (b->java) JSValueUnprotect(b->ctx, b->java);
  jb_table_free(b, env);
  if (b->table) (*env)->DeleteGlobalRef(env, b->table);
  if (b->release_buf) (*env)->DeleteGlobalRef(env, b->release_buf);
  if (b->adopt_buf) (*env)->DeleteGlobalRef(env, b->adopt_buf);
  for (size_t i = 0; i < b->nowned; i++) free(b->owned[i]);
  free(b->owned);
  free(b);
}

/*
 * Installs the bridge globals into rt (java, javax, jdk, org, com, net,
 * Packages, Java). Inside the gate, on a thread attached to the JVM (or
 * attachable). Returns 0 or a negative status (STRAIT_EJS with *exception
 * set on a JS exception). Calling it again for the same runtime is a no-op.
 */
int strait_java_attach(strait_runtime *rt, JSValueRef *exception) {
  JNIEnv *env = strait__env();
  if (!env || !jb.Bridge) return STRAIT_EINVAL;
  strait__jrt *jrt = strait__jrt_of(rt);
  if (!jrt) return STRAIT_ENOMEM;
  if (jrt->bridge) return 0;
  jb_rt *b = calloc(1, sizeof *b);
  if (!b) return STRAIT_ENOMEM;
  b->rt = rt;
  b->cb = &jb_js_callbacks;
  b->ctx = strait_runtime_context(rt);
  int rc = jb_registry_add(b);
  if (rc) {
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
  if (rc && exc && exception) *exception = exc;
  return rc;
}

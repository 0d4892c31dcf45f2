/*
 * bridge_init.c - entry points of the Java bridge (issue 3): the process-wide
 * initialisation called from JNI_OnLoad and the per-runtime installation
 * called by the launcher and JsRuntime.
 */
#include <jni.h>

#include "strait_jni.h"

int strait__bridge_init(JNIEnv *env);

/*
 * Caches the classes and method IDs the bridge uses. Called once per
 * process from JNI_OnLoad on the loading thread. Returns 0 or a negative
 * status.
 */
int strait__bridge_init(JNIEnv *env) {
  (void)env;
  return 0;
}

/*
 * Installs the bridge globals into rt. Inside the gate, on a thread attached
 * to the JVM. Returns 0 or a negative status (with *exception set on a JS
 * exception).
 */
int strait_java_attach(strait_runtime *rt, JSValueRef *exception) {
  (void)rt;
  (void)exception;
  return 0;
}

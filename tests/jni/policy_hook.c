/*
 * policy_hook.c - test natives of host access policies: a test names the
 * HostPolicy of the next runtime its thread makes
 * (TestNatives.policyForNextRuntime), and attach.c's strait__java_attach_policy
 * takes it through the weak hook strait__testing_next_policy when the
 * runtime is made without a policy (JsRuntime.create()). Only the test
 * library defines the hook. Per thread: runtimes made on other threads
 * meanwhile are not affected.
 */
#include "base/jni_base.h"

static __thread jobject next_policy;   /* global ref, or NULL */

/* TestNatives.policyForNextRuntime(policy): policy (a HostPolicy, or null
 * to clear) for the next runtime this thread makes. */
static void JNICALL n_policy_next(JNIEnv *env, jclass c, jobject policy) {
  if (next_policy) (*env)->DeleteGlobalRef(env, next_policy);
  next_policy = policy ? (*env)->NewGlobalRef(env, policy) : NULL;
}

/* The weak hook of attach.c: the pending policy as a local ref (taken:
 * it applies to one runtime). */
jobject strait__testing_next_policy(JNIEnv *env) {
  if (!next_policy) return NULL;
  jobject r = (*env)->NewLocalRef(env, next_policy);
  (*env)->DeleteGlobalRef(env, next_policy);
  next_policy = NULL;
  return r;
}

const JNINativeMethod strait__policy_natives[] = {
    {"policyForNextRuntime", "(Lorg/strait/internal/HostPolicy;)V", (void *)n_policy_next},
};
const int strait__policy_natives_count = (int)(sizeof strait__policy_natives / sizeof strait__policy_natives[0]);

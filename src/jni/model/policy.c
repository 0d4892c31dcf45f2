/*
 * policy.c - one runtime's host access policy (org.strait.internal.HostPolicy):
 * which classes its scripts may reach and which members they may use.
 *
 * Decisions are made in Java (HostPolicy); this file keeps their answers
 * where the hot paths can read them:
 *   - class verdicts (may instances cross when handed in, as results, may
 *     the class be looked up): one HostPolicy.classVerdict upcall per class
 *     per runtime, kept as a byte per class index in jb_rt.verdict (class
 *     metadata is process-wide, so the verdicts of two runtimes never mix);
 *     asked only when a class's first object crosses or it is looked up;
 *   - member facts (getClass, System.load, CompletableFuture.*Async, the
 *     Export annotation...): computed once per process in Bridge.describe
 *     (jb_member.pol); a runtime denies some of them (jb_rt.mdeny), so
 *     whether a member may be used is one byte test, and the embedder's
 *     named members ("java.lang.Object#getClass") are asked only for a
 *     member that test denies.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "model/model.h"
#include "value/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const access_names[] = {"ALL", "NONE", "GIVEN", "EXPLICIT"};

/* The level's name for messages. Any thread. */
const char *jb_policy_name(const jb_rt *b) {
  return b->access >= 0 && b->access <= 3 ? access_names[b->access] : "?";
}

/* Reads policy into b; see model/model.h. */
int jb_policy_init(JNIEnv *env, jb_rt *b, jobject policy) {
  jint access = (*env)->CallIntMethod(env, policy, jb.HostPolicy_accessCode);
  jboolean lookups = (*env)->ExceptionCheck(env) ? JNI_FALSE : (*env)->CallBooleanMethod(env, policy, jb.HostPolicy_lookups);
  jboolean named = (*env)->ExceptionCheck(env) ? JNI_FALSE : (*env)->CallBooleanMethod(env, policy, jb.HostPolicy_namesMembers);
  jint mask = (*env)->ExceptionCheck(env) ? 0 : (*env)->CallIntMethod(env, policy, jb.HostPolicy_memberDenyMask);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return STRAIT_EJAVA;
  }
  if (access < 0 || access > 3) access = JB_HOST_NONE;
  b->access = access;
  b->lookups = lookups == JNI_TRUE;
  b->named_members = named == JNI_TRUE;
  b->mdeny = (unsigned char)mask;
  b->home = pthread_self();
  b->policy = (*env)->NewGlobalRef(env, policy);
  return b->policy ? 0 : STRAIT_ENOMEM;
}

/* Drops the policy and the verdicts. Teardown. */
void jb_policy_free(JNIEnv *env, jb_rt *b) {
  if (b->policy) (*env)->DeleteGlobalRef(env, b->policy);
  b->policy = NULL;
  free(b->verdict);
  b->verdict = NULL;
  b->nverdict = 0;
}

/* Asks HostPolicy.classVerdict for k and keeps the answer; see model/model.h.
 * Out of memory or with a throwing filter, the class is denied (the answer
 * is then not kept, so the next use asks again). */
unsigned jb_verdict_slow(JNIEnv *env, jb_rt *b, jb_class *k) {
  if (!b->policy || k->index < 0) return JB_V_KNOWN;
  jint v = (*env)->CallIntMethod(env, b->policy, jb.HostPolicy_classVerdict, k->ref);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return JB_V_KNOWN;
  }
  unsigned r = ((unsigned)v & (JB_V_GIVEN | JB_V_RETURNED | JB_V_LOOKUP)) | JB_V_KNOWN;
  if ((size_t)k->index >= b->nverdict) {
    size_t n = b->nverdict ? b->nverdict : 256;
    while (n <= (size_t)k->index) n *= 2;
    unsigned char *nv = realloc(b->verdict, n);
    if (!nv) return r;
    memset(nv + b->nverdict, 0, n - b->nverdict);
    b->verdict = nv;
    b->nverdict = n;
  }
  b->verdict[k->index] = (unsigned char)r;
  return r;
}

/* The TypeError of a denied class; see model/model.h. */
JSObjectRef jb_deny_class(jb_rt *b, JSContextRef ctx, const char *name, JSValueRef *exc) {
  char sb[256];
  const char *n = jb_source_name(name, sb, sizeof sb);
  snprintf(b->refused_msg, sizeof b->refused_msg,
           "%.200s is not accessible: denied by the runtime's host access policy (%s)", n, jb_policy_name(b));
  b->refused = true;
  if (exc) *exc = strait_make_error(ctx, "TypeError", "%s", b->refused_msg);
  return NULL;
}

/* The TypeError of a denied member; see model/model.h. */
JSObjectRef jb_deny_member(jb_rt *b, JSContextRef ctx, const char *cls, const char *name, JSValueRef *exc) {
  if (exc)
    *exc = strait_make_error(ctx, "TypeError",
                             "%.200s.%.200s is not accessible: denied by the runtime's host access policy (%s)", cls,
                             name, jb_policy_name(b));
  return NULL;
}

/* Asks HostPolicy.memberNamed for m's declaring class and for the class it
 * was found on. Only when the policy names members. */
bool jb_member_named(JNIEnv *env, jb_rt *b, const jb_member *m) {
  if (!b->named_members || !b->policy) return false;
  jstring name = strait__jstring_from_utf8(env, m->name, strlen(m->name));
  if (!name) {
    (*env)->ExceptionClear(env);
    return false;
  }
  bool ok = false;
  jb_class *d = m->decl_cls >= 0 ? jb_class_get(env, NULL, m->decl_cls, false, NULL) : NULL;
  const char *owners[2] = {d ? d->name : NULL, m->owner ? m->owner->name : NULL};
  for (int i = 0; i < 2 && !ok; i++) {
    if (!owners[i]) continue;
    jstring c = strait__jstring_from_utf8(env, owners[i], strlen(owners[i]));
    if (!c) break;
    ok = (*env)->CallBooleanMethod(env, b->policy, jb.HostPolicy_memberNamed, c, name) == JNI_TRUE;
    (*env)->DeleteLocalRef(env, c);
    if ((*env)->ExceptionCheck(env)) ok = false;
  }
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  (*env)->DeleteLocalRef(env, name);
  return ok;
}

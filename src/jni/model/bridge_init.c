/*
 * bridge_init.c - entry points of the Java bridge (issue 3): the process-wide
 * initialisation called from JNI_OnLoad (class and method IDs), the
 * per-runtime installation (strait_java_attach) and its teardown, and the
 * registry that lets GC finalizers find a runtime's bridge by a small slot
 * number.
 */
#include "model/bridge.h"

#include <stdlib.h>
#include <string.h>

jb_cache jb;

#define MAX_RUNTIMES 65536
/* Runtime slots are never reused, so a finalizer that runs after its
 * runtime was freed finds NULL instead of another runtime's bridge. */
static _Atomic(jb_rt *) registry[MAX_RUNTIMES];
static _Atomic int next_slot = 1;

/* The bridge registered in slot, or NULL. Any thread (finalizers too). */
jb_rt *jb_rt_at(int slot) {
  if (slot <= 0 || slot >= MAX_RUNTIMES) return NULL;
  return atomic_load_explicit(&registry[slot], memory_order_acquire);
}

/* The bridge of ctx's runtime, or NULL. Inside the gate. */
jb_rt *jb_rt_of(JSContextRef ctx) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  strait__jrt *jrt = rt ? strait_runtime_embedder(rt) : NULL;
  return jrt ? jrt->bridge : NULL;
}

/* Per-thread cache of the last runtime's bridge seen by a callback. The
 * registry check makes a freed runtime a miss. */
#define JB_TLS _Thread_local __attribute__((tls_model("initial-exec")))
static JB_TLS JSContextRef tl_ctx;
static JB_TLS jb_rt *tl_b;
static JB_TLS int tl_slot;

/* The bridge of ctx's runtime, cached per thread. Inside the gate. */
jb_rt *jb_rt_fast(JSContextRef ctx) {
  if (tl_ctx == ctx && tl_b && jb_rt_at(tl_slot) == tl_b) return tl_b;
  jb_rt *b = jb_rt_of(ctx);
  if (b) {
    tl_ctx = ctx;
    tl_b = b;
    tl_slot = b->slot;
  }
  return b;
}

/* Remembers p to be freed at teardown. Inside the gate. */
void jb_own(jb_rt *b, void *p) {
  if (b->nowned == b->capowned) {
    size_t cap = b->capowned ? b->capowned * 2 : 256;
    void **o = realloc(b->owned, cap * sizeof *o);
    if (!o) return;            /* leaks p rather than freeing it in use */
    b->owned = o;
    b->capowned = cap;
  }
  b->owned[b->nowned++] = p;
}

#define B jb
static const strait__jid bridge_ids[] = {
    JID_CLASS(B, Bridge, "org/strait/internal/Bridge"),
    JID_CLASS(B, ObjectTable, "org/strait/internal/ObjectTable"),
    JID_CLASS(B, Class, "java/lang/Class"),
    JID_CLASS(B, BigInteger, "java/math/BigInteger"),
    JID_CLASS(B, Character, "java/lang/Character"),
    JID_CLASS(B, Byte, "java/lang/Byte"),
    JID_CLASS(B, Short, "java/lang/Short"),
    JID_CLASS(B, Float, "java/lang/Float"),
    JID_CLASS(B, Boolean, "java/lang/Boolean"),
    JID_CLASS(B, Iterable, "java/lang/Iterable"),
    JID_CLASS(B, Map, "java/util/Map"),
    JID_METHOD(B, Class_getName, B.Class, "getName", "()Ljava/lang/String;"),
    JID_SMETHOD(B, Bridge_findClass, B.Bridge, "findClass", "(Ljava/lang/String;)Ljava/lang/Class;"),
    JID_SMETHOD(B, Bridge_describe, B.Bridge, "describe", "(Ljava/lang/Class;)[Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_classIndex, B.Bridge, "classIndex", "(Ljava/lang/Class;)I"),
    JID_SMETHOD(B, Bridge_classAt, B.Bridge, "classAt", "(I)Ljava/lang/Class;"),
    JID_SMETHOD(B, Bridge_resolve, B.Bridge, "resolve", "(Ljava/lang/String;)Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_throwableInfo, B.Bridge, "throwableInfo", "(Ljava/lang/Throwable;)[Ljava/lang/String;"),
    JID_SMETHOD(B, Bridge_newArray, B.Bridge, "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_toBigInteger, B.Bridge, "toBigInteger", "(Ljava/lang/String;)Ljava/math/BigInteger;"),
    JID_SMETHOD(B, Bridge_iterator, B.Bridge, "iterator", "(Ljava/lang/Object;)Ljava/util/Iterator;"),
    JID_SMETHOD(B, Bridge_iterNext, B.Bridge, "iterNext", "(Ljava/util/Iterator;)Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_done, B.Bridge, "done", "()Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_invokeSensitive, B.Bridge, "invokeSensitive",
                "(Ljava/lang/reflect/Executable;Ljava/lang/Object;[J[Ljava/lang/Object;)Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_callerSensitive, B.Bridge, "callerSensitive", "(Ljava/lang/reflect/Executable;)Z"),
    JID_SMETHOD(B, Bridge_toList, B.Bridge, "toList", "([Ljava/lang/Object;)Ljava/util/List;"),
    JID_SMETHOD(B, Bridge_toArray, B.Bridge, "toArray", "(Ljava/lang/Object;)[Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_memberNames, B.Bridge, "memberNames", "(Ljava/lang/Class;)[Ljava/lang/String;"),
    JID_METHOD(B, ObjectTable_init, B.ObjectTable, "<init>", "()V"),
    JID_METHOD(B, ObjectTable_register, B.ObjectTable, "register", "(Ljava/lang/Object;)J"),
    JID_METHOD(B, ObjectTable_release, B.ObjectTable, "release", "([JI)V"),
    JID_METHOD(B, ObjectTable_adopt, B.ObjectTable, "adopt", "([Ljava/lang/Object;[JI)V"),
    JID_METHOD(B, ObjectTable_size, B.ObjectTable, "size", "()I"),
    JID_METHOD(B, Object_toString, strait__jc.Object, "toString", "()Ljava/lang/String;"),
    JID_METHOD(B, Object_getClass, strait__jc.Object, "getClass", "()Ljava/lang/Class;"),
    JID_SMETHOD(B, Character_valueOf, B.Character, "valueOf", "(C)Ljava/lang/Character;"),
    JID_SMETHOD(B, Byte_valueOf, B.Byte, "valueOf", "(B)Ljava/lang/Byte;"),
    JID_SMETHOD(B, Short_valueOf, B.Short, "valueOf", "(S)Ljava/lang/Short;"),
    JID_SMETHOD(B, Float_valueOf, B.Float, "valueOf", "(F)Ljava/lang/Float;"),
    JID_METHOD(B, Character_charValue, B.Character, "charValue", "()C"),
    JID_METHOD(B, Number_longValue, strait__jc.Number, "longValue", "()J"),
    JID_METHOD(B, Number_floatValue, strait__jc.Number, "floatValue", "()F"),
    JID_METHOD(B, BigInteger_toString, B.BigInteger, "toString", "()Ljava/lang/String;"),
};
#undef B

/*
 * Fills jb (the bridge's classes and method IDs, see jni_util.h) and its
 * iterator end sentinel. Called once per process from JNI_OnLoad
 * (strait__jni_init) on the loading thread, after strait__jc. Returns 0 or
 * a negative status with the JVM's exception pending.
 */
int strait__bridge_init(JNIEnv *env) {
  int rc = strait__ids_load(env, bridge_ids, JID_COUNT(bridge_ids));
  if (rc) return rc;
  jobject done = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_done);
  if (!done || (*env)->ExceptionCheck(env)) return STRAIT_EINVAL;
  jb.done = (*env)->NewGlobalRef(env, done);
  (*env)->DeleteLocalRef(env, done);
  return 0;
}

/* Frees b: global refs, protected JS values, tables, owned blocks.
 * Called once from the JNI layer's runtime teardown, inside the gate. */
static void bridge_free(strait__jrt *jrt, JNIEnv *env) {
  jb_rt *b = jrt->bridge;
  if (!b) return;
  jrt->bridge = NULL;
  atomic_store(&registry[b->slot], NULL);
  if (!env) env = strait__env();
  jb_strcache_free(b, env);
  jb_jsclass_free(b);
  free(b->fn_keys);
  free(b->fn_vals);
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
  int slot = atomic_fetch_add(&next_slot, 1);
  if (slot >= MAX_RUNTIMES) return STRAIT_ENOMEM;
  jb_rt *b = calloc(1, sizeof *b);
  if (!b) return STRAIT_ENOMEM;
  b->rt = rt;
  b->ctx = strait_runtime_context(rt);
  b->slot = slot;
  jrt->bridge = b;
  jrt->bridge_free = bridge_free;
  atomic_store(&registry[slot], b);
  int rc = jb_table_init(b);
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
  rc = jb_jsclass_init(b, b->ctx, &exc);
  if (rc == 0) rc = jb_packages_install(b, b->ctx, &exc);
  if (rc && exc && exception) *exception = exc;
  return rc;
}

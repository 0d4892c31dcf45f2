/*
 * jni_util.h - the JNI layer's process-wide ID caches and native
 * registration, in one place (as the JDK's libjava jni_util.h).
 *
 * Each cache (strait__jc in jni_base.h, strait__hc in base/interop_ids.h, jb in
 * model/model.h) is a struct of global class refs and member IDs, filled
 * once from JNI_OnLoad by strait__ids_load() walking a table of
 * strait__jid rows written with the macros below; the natives of
 * org.strait.internal.Natives are registered by strait__natives_register()
 * from the tables that sit next to their functions. Both are in jcache.c.
 * After the load every cache is read-only, so any thread may read it.
 */
#ifndef STRAIT_JNI_UTIL_H
#define STRAIT_JNI_UTIL_H

#include <jni.h>

/* The one Java class every product native is registered on. */
#define STRAIT_NATIVES_CLASS "org/strait/internal/Natives"

/* What a row loads into its slot. */
enum {
  STRAIT__JID_CLASS,         /* jclass global ref of `name` */
  STRAIT__JID_METHOD,        /* jmethodID name/sig on *cls */
  STRAIT__JID_SMETHOD,       /* static jmethodID name/sig on *cls */
  STRAIT__JID_FIELD,         /* jfieldID name/sig on *cls */
  STRAIT__JID_SOBJECT,       /* global ref to the value of static object field name/sig of *cls */
};

/* One row of an ID table: slot gets the ID; members name their class by
 * the address of the cache slot holding it (a row earlier in the same or
 * an earlier table). */
typedef struct strait__jid {
  int kind;
  void *slot;
  const jclass *cls;
  const char *name;
  const char *sig;
} strait__jid;

/* Rows of a table for cache C (a struct variable): field F of C gets it. */
#define JID_CLASS(C, F, name) {STRAIT__JID_CLASS, &(C).F, NULL, name, NULL}
#define JID_METHOD(C, F, cls, name, sig) {STRAIT__JID_METHOD, &(C).F, &(cls), name, sig}
#define JID_SMETHOD(C, F, cls, name, sig) {STRAIT__JID_SMETHOD, &(C).F, &(cls), name, sig}
#define JID_FIELD(C, F, cls, name, sig) {STRAIT__JID_FIELD, &(C).F, &(cls), name, sig}
#define JID_SOBJECT(C, F, cls, name, sig) {STRAIT__JID_SOBJECT, &(C).F, &(cls), name, sig}
#define JID_COUNT(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* Loads the n rows of t in order. 0, or STRAIT_EINVAL with the JVM's
 * exception (NoClassDefFoundError, NoSuchMethodError, ...) pending. Init
 * only (JNI_OnLoad's thread). */
int strait__ids_load(JNIEnv *env, const strait__jid *t, int n);

/* Registers every product native table on org.strait.internal.Natives
 * (the table of tables is in jcache.c), then, when the library was linked
 * with the test/bench objects (build/lib-testing), their natives through
 * strait__testing_init. 0 or STRAIT_EINVAL with an exception pending. Once,
 * after the caches are loaded. */
int strait__natives_register(JNIEnv *env);

/* Hook of the test/bench library variant (tests/jni/testing.c): absent
 * (NULL) in the product library. Registers the extra natives on the test
 * and bench classes that are on the class path; 0 or a status. Hidden, so
 * it is resolved when the library is linked: the product has no dynamic
 * reference another loaded library could answer. */
int strait__testing_init(JNIEnv *env) __attribute__((weak, visibility("hidden")));

#endif /* STRAIT_JNI_UTIL_H */

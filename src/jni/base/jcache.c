/*
 * jcache.c - the process-wide cache of classes and member IDs used by the
 * core part of the JNI layer (strait__jc), the one loader of every ID
 * table (strait__ids_load) and the registration of every product native
 * table on org.strait.internal.Natives (strait__natives_register); see
 * jni_util.h.
 */
#include "base/jni_base.h"

strait__jcache strait__jc;

/* Native tables of the product (defined next to their functions). */
extern const JNINativeMethod strait__runtime_natives[];
extern const int strait__runtime_natives_count;
extern const JNINativeMethod strait__value_natives[];
extern const int strait__value_natives_count;
extern const JNINativeMethod strait__interop_natives[];
extern const int strait__interop_natives_count;
extern const JNINativeMethod strait__loop_natives[];
extern const int strait__loop_natives_count;
extern const JNINativeMethod strait__codec_natives[];
extern const int strait__codec_natives_count;
extern const JNINativeMethod strait__extend_natives[];
extern const int strait__extend_natives_count;
extern const JNINativeMethod strait__clone_port_natives[];
extern const int strait__clone_port_natives_count;

/* Every product native, all on org.strait.internal.Natives. */
static const struct {
  const JNINativeMethod *m;
  const int *n;
} native_tables[] = {
    {strait__runtime_natives, &strait__runtime_natives_count},
    {strait__value_natives, &strait__value_natives_count},
    {strait__interop_natives, &strait__interop_natives_count},
    {strait__loop_natives, &strait__loop_natives_count},
    {strait__codec_natives, &strait__codec_natives_count},
    {strait__extend_natives, &strait__extend_natives_count},
    {strait__clone_port_natives, &strait__clone_port_natives_count},
};

int strait__ids_load(JNIEnv *env, const strait__jid *t, int n) {
  for (int i = 0; i < n; i++) {
    const strait__jid *r = &t[i];
    jclass cls = r->cls ? *r->cls : NULL;
    if (r->kind != STRAIT__JID_CLASS && !cls) return STRAIT_EINVAL;
    switch (r->kind) {
      case STRAIT__JID_CLASS:
        if (!(*(jclass *)r->slot = strait__global_class(env, r->name))) return STRAIT_EINVAL;
        break;
      case STRAIT__JID_METHOD:
        if (!(*(jmethodID *)r->slot = (*env)->GetMethodID(env, cls, r->name, r->sig))) return STRAIT_EINVAL;
        break;
      case STRAIT__JID_SMETHOD:
        if (!(*(jmethodID *)r->slot = (*env)->GetStaticMethodID(env, cls, r->name, r->sig)))
          return STRAIT_EINVAL;
        break;
      case STRAIT__JID_FIELD:
        if (!(*(jfieldID *)r->slot = (*env)->GetFieldID(env, cls, r->name, r->sig))) return STRAIT_EINVAL;
        break;
      case STRAIT__JID_SOBJECT: {
        jfieldID f = (*env)->GetStaticFieldID(env, cls, r->name, r->sig);
        jobject local = f ? (*env)->GetStaticObjectField(env, cls, f) : NULL;
        jobject global = local ? (*env)->NewGlobalRef(env, local) : NULL;
        if (local) (*env)->DeleteLocalRef(env, local);
        if (!(*(jobject *)r->slot = global)) return STRAIT_EINVAL;
        break;
      }
      default:
        return STRAIT_EINVAL;
    }
  }
  return 0;
}

int strait__natives_register(JNIEnv *env) {
  for (size_t i = 0; i < sizeof native_tables / sizeof native_tables[0]; i++)
    if (strait__register(env, strait__jc.Natives, native_tables[i].m, *native_tables[i].n))
      return STRAIT_EINVAL;
  return strait__testing_init ? strait__testing_init(env) : 0;
}

#define C strait__jc
static const strait__jid core_ids[] = {
    JID_CLASS(C, Object, "java/lang/Object"),
    JID_CLASS(C, String, "java/lang/String"),
    JID_CLASS(C, Boolean, "java/lang/Boolean"),
    JID_CLASS(C, Integer, "java/lang/Integer"),
    JID_CLASS(C, Double, "java/lang/Double"),
    JID_CLASS(C, Long, "java/lang/Long"),
    JID_CLASS(C, Number, "java/lang/Number"),
    JID_CLASS(C, Throwable, "java/lang/Throwable"),
    JID_CLASS(C, RuntimeException, "java/lang/RuntimeException"),
    JID_CLASS(C, IllegalStateException, "java/lang/IllegalStateException"),
    JID_CLASS(C, IllegalArgumentException, "java/lang/IllegalArgumentException"),
    JID_CLASS(C, OutOfMemoryError, "java/lang/OutOfMemoryError"),
    JID_CLASS(C, UnsupportedOperationException, "java/lang/UnsupportedOperationException"),
    JID_CLASS(C, Natives, STRAIT_NATIVES_CLASS),
    JID_CLASS(C, JsRuntime, "org/strait/JsRuntime"),
    JID_CLASS(C, JsValue, "org/strait/JsValue"),
    JID_CLASS(C, JsException, "org/strait/JsException"),
    JID_CLASS(C, JsExitException, "org/strait/JsExitException"),
    JID_CLASS(C, JsInterruptedException, "org/strait/JsInterruptedException"),
    JID_CLASS(C, JsTimeLimitException, "org/strait/JsTimeLimitException"),
    JID_CLASS(C, JsHeapLimitException, "org/strait/JsHeapLimitException"),
    JID_SOBJECT(C, Boolean_TRUE, C.Boolean, "TRUE", "Ljava/lang/Boolean;"),
    JID_SOBJECT(C, Boolean_FALSE, C.Boolean, "FALSE", "Ljava/lang/Boolean;"),
    JID_SMETHOD(C, Integer_valueOf, C.Integer, "valueOf", "(I)Ljava/lang/Integer;"),
    JID_SMETHOD(C, Double_valueOf, C.Double, "valueOf", "(D)Ljava/lang/Double;"),
    JID_SMETHOD(C, Long_valueOf, C.Long, "valueOf", "(J)Ljava/lang/Long;"),
    JID_FIELD(C, Integer_value, C.Integer, "value", "I"),
    JID_FIELD(C, Long_value, C.Long, "value", "J"),
    JID_FIELD(C, Double_value, C.Double, "value", "D"),
    JID_METHOD(C, Boolean_booleanValue, C.Boolean, "booleanValue", "()Z"),
    JID_METHOD(C, Number_doubleValue, C.Number, "doubleValue", "()D"),
    JID_METHOD(C, JsValue_init, C.JsValue, "<init>", "(Lorg/strait/JsRuntime;J)V"),
    JID_FIELD(C, JsValue_handle, C.JsValue, "handle", "J"),
    JID_METHOD(C, JsException_init, C.JsException, "<init>",
               "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;IILjava/lang/Object;"
               "Ljava/lang/Object;)V"),
    JID_METHOD(C, JsExitException_init, C.JsExitException, "<init>", "(I)V"),
};
#undef C

/* Fills strait__jc (see jni_base.h). Once, on the thread initializing the
 * layer. */
int strait__jni_core_init(JNIEnv *env) {
  int rc = strait__ids_load(env, core_ids, JID_COUNT(core_ids));
  if (rc) return rc;
  for (jint i = STRAIT__SMALL_INT_MIN; i <= STRAIT__SMALL_INT_MAX; i++) {
    jobject boxed = (*env)->CallStaticObjectMethod(env, strait__jc.Integer,
                                                   strait__jc.Integer_valueOf, i);
    if ((*env)->ExceptionCheck(env)) return STRAIT_ENOMEM;
    strait__jc.small_int[i - STRAIT__SMALL_INT_MIN] = (*env)->NewGlobalRef(env, boxed);
    (*env)->DeleteLocalRef(env, boxed);
    if (!strait__jc.small_int[i - STRAIT__SMALL_INT_MIN]) return STRAIT_ENOMEM;
  }
  return 0;
}

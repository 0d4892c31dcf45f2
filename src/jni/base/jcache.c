/*
 * jcache.c - the process-wide cache of classes and member IDs used by the
 * core part of the JNI layer (strait__jc), and the registration of its
 * native tables on org.strait.Natives.
 */
#include "base/jni_base.h"

strait__jcache strait__jc;

/* Native tables of the core part (defined next to their functions). */
extern const JNINativeMethod strait__runtime_natives[];
extern const int strait__runtime_natives_count;
extern const JNINativeMethod strait__value_natives[];
extern const int strait__value_natives_count;
extern const JNINativeMethod strait__probe_natives[];
extern const int strait__probe_natives_count;

#define CLASS(field, name)                                   \
  do {                                                       \
    if (!(strait__jc.field = strait__global_class(env, name))) \
      return STRAIT_EINVAL;                                  \
  } while (0)
#define METHOD(field, cls, name, sig)                                           \
  do {                                                                          \
    if (!(strait__jc.field = (*env)->GetMethodID(env, strait__jc.cls, name, sig))) \
      return STRAIT_EINVAL;                                                     \
  } while (0)
#define SMETHOD(field, cls, name, sig)                                                \
  do {                                                                                \
    if (!(strait__jc.field = (*env)->GetStaticMethodID(env, strait__jc.cls, name, sig))) \
      return STRAIT_EINVAL;                                                           \
  } while (0)

/* Global ref to the value of a static object field; NULL with an exception
 * pending. Init only. */
static jobject static_object(JNIEnv *env, jclass cls, const char *name, const char *sig) {
  jfieldID f = (*env)->GetStaticFieldID(env, cls, name, sig);
  if (!f) return NULL;
  jobject local = (*env)->GetStaticObjectField(env, cls, f);
  if (!local) return NULL;
  jobject global = (*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  return global;
}

/* Fills strait__jc and registers the core natives (see base/jni_base.h).
 * Once, on the thread initializing the layer. */
int strait__jni_core_init(JNIEnv *env) {
  CLASS(Object, "java/lang/Object");
  CLASS(String, "java/lang/String");
  CLASS(Boolean, "java/lang/Boolean");
  CLASS(Integer, "java/lang/Integer");
  CLASS(Double, "java/lang/Double");
  CLASS(Long, "java/lang/Long");
  CLASS(Number, "java/lang/Number");
  CLASS(Throwable, "java/lang/Throwable");
  CLASS(RuntimeException, "java/lang/RuntimeException");
  CLASS(IllegalStateException, "java/lang/IllegalStateException");
  CLASS(IllegalArgumentException, "java/lang/IllegalArgumentException");
  CLASS(OutOfMemoryError, "java/lang/OutOfMemoryError");
  CLASS(UnsupportedOperationException, "java/lang/UnsupportedOperationException");
  CLASS(Natives, "org/strait/Natives");
  CLASS(JsRuntime, "org/strait/JsRuntime");
  CLASS(JsValue, "org/strait/JsValue");
  CLASS(JsException, "org/strait/JsException");
  CLASS(JsExitException, "org/strait/JsExitException");

  if (!(strait__jc.Boolean_TRUE = static_object(env, strait__jc.Boolean, "TRUE", "Ljava/lang/Boolean;")))
    return STRAIT_EINVAL;
  if (!(strait__jc.Boolean_FALSE = static_object(env, strait__jc.Boolean, "FALSE", "Ljava/lang/Boolean;")))
    return STRAIT_EINVAL;
  SMETHOD(Integer_valueOf, Integer, "valueOf", "(I)Ljava/lang/Integer;");
  SMETHOD(Double_valueOf, Double, "valueOf", "(D)Ljava/lang/Double;");
  SMETHOD(Long_valueOf, Long, "valueOf", "(J)Ljava/lang/Long;");
  for (jint i = STRAIT__SMALL_INT_MIN; i <= STRAIT__SMALL_INT_MAX; i++) {
    jobject boxed = (*env)->CallStaticObjectMethod(env, strait__jc.Integer,
                                                   strait__jc.Integer_valueOf, i);
    if ((*env)->ExceptionCheck(env)) return STRAIT_ENOMEM;
    strait__jc.small_int[i - STRAIT__SMALL_INT_MIN] = (*env)->NewGlobalRef(env, boxed);
    (*env)->DeleteLocalRef(env, boxed);
    if (!strait__jc.small_int[i - STRAIT__SMALL_INT_MIN]) return STRAIT_ENOMEM;
  }
  METHOD(Boolean_booleanValue, Boolean, "booleanValue", "()Z");
  METHOD(Number_doubleValue, Number, "doubleValue", "()D");
  METHOD(JsValue_init, JsValue, "<init>", "(Lorg/strait/JsRuntime;J)V");
  if (!(strait__jc.JsValue_handle = (*env)->GetFieldID(env, strait__jc.JsValue, "handle", "J")))
    return STRAIT_EINVAL;
  METHOD(JsException_init, JsException, "<init>",
         "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;IILjava/lang/Object;"
         "Ljava/lang/Object;)V");
  METHOD(JsExitException_init, JsExitException, "<init>", "(I)V");

  if (strait__register(env, strait__jc.Natives, strait__runtime_natives,
                       strait__runtime_natives_count) ||
      strait__register(env, strait__jc.Natives, strait__value_natives,
                       strait__value_natives_count) ||
      strait__register(env, strait__jc.Natives, strait__probe_natives,
                       strait__probe_natives_count))
    return STRAIT_EINVAL;
  return 0;
}

/*
 * bridge_init.c - the process-wide initialisation of the Java bridge
 * called from JNI_OnLoad: the classes and method IDs it caches (jb).
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

jb_cache jb;

#define STATIC_M(field, cls, name, sig) \
  if (!(jb.field = (*env)->GetStaticMethodID(env, cls, name, sig))) return STRAIT_EINVAL
#define METHOD(field, cls, name, sig) \
  if (!(jb.field = (*env)->GetMethodID(env, cls, name, sig))) return STRAIT_EINVAL
#define CLASS(field, name) \
  if (!(jb.field = strait__global_class(env, name))) return STRAIT_EINVAL

/*
 * Caches the classes and method IDs the bridge uses. Called once per
 * process from JNI_OnLoad (strait__jni_init) on the loading thread.
 * Returns 0 or a negative status with the JVM's exception pending.
 */
int strait__bridge_init(JNIEnv *env) {
  CLASS(Bridge, "org/strait/Bridge");
  CLASS(ObjectTable, "org/strait/ObjectTable");
  CLASS(Class, "java/lang/Class");
  CLASS(BigInteger, "java/math/BigInteger");
  CLASS(Character, "java/lang/Character");
  CLASS(Byte, "java/lang/Byte");
  CLASS(Short, "java/lang/Short");
  CLASS(Float, "java/lang/Float");
  CLASS(Boolean, "java/lang/Boolean");
  CLASS(Iterable, "java/lang/Iterable");
  CLASS(Map, "java/util/Map");
  METHOD(Class_getName, jb.Class, "getName", "()Ljava/lang/String;");
  STATIC_M(Bridge_findClass, jb.Bridge, "findClass", "(Ljava/lang/String;)Ljava/lang/Class;");
  STATIC_M(Bridge_describe, jb.Bridge, "describe", "(Ljava/lang/Class;)[Ljava/lang/Object;");
  STATIC_M(Bridge_classIndex, jb.Bridge, "classIndex", "(Ljava/lang/Class;)I");
  STATIC_M(Bridge_classAt, jb.Bridge, "classAt", "(I)Ljava/lang/Class;");
  STATIC_M(Bridge_resolve, jb.Bridge, "resolve", "(Ljava/lang/String;)Ljava/lang/Object;");
  STATIC_M(Bridge_throwableInfo, jb.Bridge, "throwableInfo", "(Ljava/lang/Throwable;)[Ljava/lang/String;");
  STATIC_M(Bridge_newArray, jb.Bridge, "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;");
  STATIC_M(Bridge_toBigInteger, jb.Bridge, "toBigInteger", "(Ljava/lang/String;)Ljava/math/BigInteger;");
  STATIC_M(Bridge_iterator, jb.Bridge, "iterator", "(Ljava/lang/Object;)Ljava/util/Iterator;");
  STATIC_M(Bridge_iterNext, jb.Bridge, "iterNext", "(Ljava/util/Iterator;)Ljava/lang/Object;");
  STATIC_M(Bridge_done, jb.Bridge, "done", "()Ljava/lang/Object;");
  STATIC_M(Bridge_invokeSensitive, jb.Bridge, "invokeSensitive",
           "(Ljava/lang/reflect/Executable;Ljava/lang/Object;[J[Ljava/lang/Object;)Ljava/lang/Object;");
  STATIC_M(Bridge_callerSensitive, jb.Bridge, "callerSensitive", "(Ljava/lang/reflect/Executable;)Z");
  STATIC_M(Bridge_toList, jb.Bridge, "toList", "([Ljava/lang/Object;)Ljava/util/List;");
  STATIC_M(Bridge_toArray, jb.Bridge, "toArray", "(Ljava/lang/Object;)[Ljava/lang/Object;");
  STATIC_M(Bridge_memberNames, jb.Bridge, "memberNames", "(Ljava/lang/Class;)[Ljava/lang/String;");
  METHOD(ObjectTable_init, jb.ObjectTable, "<init>", "()V");
  METHOD(ObjectTable_register, jb.ObjectTable, "register", "(Ljava/lang/Object;)J");
  METHOD(ObjectTable_release, jb.ObjectTable, "release", "([JI)V");
  METHOD(ObjectTable_adopt, jb.ObjectTable, "adopt", "([Ljava/lang/Object;[JI)V");
  METHOD(ObjectTable_size, jb.ObjectTable, "size", "()I");
  METHOD(Object_toString, strait__jc.Object, "toString", "()Ljava/lang/String;");
  METHOD(Object_getClass, strait__jc.Object, "getClass", "()Ljava/lang/Class;");
  STATIC_M(Character_valueOf, jb.Character, "valueOf", "(C)Ljava/lang/Character;");
  STATIC_M(Byte_valueOf, jb.Byte, "valueOf", "(B)Ljava/lang/Byte;");
  STATIC_M(Short_valueOf, jb.Short, "valueOf", "(S)Ljava/lang/Short;");
  STATIC_M(Float_valueOf, jb.Float, "valueOf", "(F)Ljava/lang/Float;");
  METHOD(Character_charValue, jb.Character, "charValue", "()C");
  METHOD(Number_longValue, strait__jc.Number, "longValue", "()J");
  METHOD(Number_floatValue, strait__jc.Number, "floatValue", "()F");
  METHOD(BigInteger_toString, jb.BigInteger, "toString", "()Ljava/lang/String;");
  jobject done = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_done);
  if (!done || (*env)->ExceptionCheck(env)) return STRAIT_EINVAL;
  jb.done = (*env)->NewGlobalRef(env, done);
  (*env)->DeleteLocalRef(env, done);
  return 0;
}


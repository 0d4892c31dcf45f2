/*
 * bridge_init.c - the process-wide initialisation of the Java bridge
 * called from JNI_OnLoad: the classes and method IDs it caches (jb).
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

jb_cache jb;

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
    JID_SMETHOD(B, Bridge_freshBoxes, B.Bridge, "freshBoxes", "(II)[Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_iterator, B.Bridge, "iterator", "(Ljava/lang/Object;)Ljava/util/Iterator;"),
    JID_SMETHOD(B, Bridge_iterNext, B.Bridge, "iterNext", "(Ljava/util/Iterator;)Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_done, B.Bridge, "done", "()Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_invokeSensitive, B.Bridge, "invokeSensitive",
                "(Ljava/lang/reflect/Executable;Ljava/lang/Object;[J[Ljava/lang/Object;)Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_callerSensitive, B.Bridge, "callerSensitive", "(Ljava/lang/reflect/Executable;)Z"),
    JID_SMETHOD(B, Bridge_toList, B.Bridge, "toList", "([Ljava/lang/Object;)Ljava/util/List;"),
    JID_SMETHOD(B, Bridge_toArray, B.Bridge, "toArray", "(Ljava/lang/Object;)[Ljava/lang/Object;"),
    JID_SMETHOD(B, Bridge_memberNames, B.Bridge, "memberNames", "(Ljava/lang/Class;)[Ljava/lang/String;"),
    JID_SMETHOD(B, Bridge_functionalName, B.Bridge, "functionalName", "(Ljava/lang/Class;)Ljava/lang/String;"),
    JID_CLASS(B, HostPolicy, "org/strait/internal/HostPolicy"),
    JID_SMETHOD(B, HostPolicy_all, B.HostPolicy, "all", "()Lorg/strait/internal/HostPolicy;"),
    JID_SMETHOD(B, HostPolicy_of, B.HostPolicy, "of", "(ILjava/lang/String;ZZ)Lorg/strait/internal/HostPolicy;"),
    JID_METHOD(B, HostPolicy_accessCode, B.HostPolicy, "accessCode", "()I"),
    JID_METHOD(B, HostPolicy_lookups, B.HostPolicy, "lookups", "()Z"),
    JID_METHOD(B, HostPolicy_namesMembers, B.HostPolicy, "namesMembers", "()Z"),
    JID_METHOD(B, HostPolicy_memberDenyMask, B.HostPolicy, "memberDenyMask", "()I"),
    JID_METHOD(B, HostPolicy_memberNamed, B.HostPolicy, "memberNamed", "(Ljava/lang/String;Ljava/lang/String;)Z"),
    JID_METHOD(B, HostPolicy_classVerdict, B.HostPolicy, "classVerdict", "(Ljava/lang/Class;)I"),
    JID_METHOD(B, ObjectTable_init, B.ObjectTable, "<init>", "()V"),
    JID_METHOD(B, ObjectTable_register, B.ObjectTable, "register", "(Ljava/lang/Object;)J"),
    JID_METHOD(B, ObjectTable_release, B.ObjectTable, "release", "([JI)V"),
    JID_METHOD(B, ObjectTable_adopt, B.ObjectTable, "adopt", "([Ljava/lang/Object;[JI)V"),
    JID_METHOD(B, ObjectTable_size, B.ObjectTable, "size", "()I"),
    JID_METHOD(B, ObjectTable_clear, B.ObjectTable, "clear", "()V"),
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

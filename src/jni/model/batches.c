/*
 * batches.c - many Java objects to JS values in one upcall: the
 * conversion behind batched iteration (call/js_callbacks.c, iterNext) and
 * Java.from (model/packages.c). One upcall (Bridge.registerAll) gives the
 * ObjectTable ids of a whole batch; the native side then makes each value
 * as jb_wrap() does, without a further upcall for Integer, Short, Byte,
 * Boolean and Character (their value comes along in the id), null, or an
 * object JS already holds.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "model/model.h"
#include "value/value.h"

#include <stdatomic.h>

/* Bridge.registerAll, looked up once per process (the same answer on
 * every thread, so a race only repeats the lookup). */
static _Atomic(jmethodID) register_all;

static jmethodID register_all_id(JNIEnv *env) {
  jmethodID m = atomic_load_explicit(&register_all, memory_order_acquire);
  if (m) return m;
  m = (*env)->GetStaticMethodID(env, jb.Bridge, "registerAll",
                                "(Lorg/strait/internal/ObjectTable;[Ljava/lang/Object;II[J[Ljava/lang/Object;)V");
  if (m) atomic_store_explicit(&register_all, m, memory_order_release);
  return m;
}

/* See model/model.h. The ids are used before anything could release one:
 * no flush or JS runs between the upcall and the last wrap. Each id goes
 * with the very object registered for it: an array other code can write
 * (shared) is read once, by the upcall, which copies what it registered
 * into snap; reading such an array again here could meet another object
 * in the slot (a Java thread wrote it), which would be wrapped as the
 * first one's id and kind say (a String's for an int[]: a crash). */
bool jb_wrap_batch(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobjectArray objs, jint from, jint n, bool shared,
                   JSValueRef *out, JSValueRef *exc) {
  if (n <= 0) return true;
  if (n > JB_BATCH) n = JB_BATCH;
  /* objects JS constructed enter the table first, so none gets a second id */
  if (b->nunreg) jb_register_pending(env, b);
  jmethodID m = register_all_id(env);
  jlongArray regs = m ? (*env)->NewLongArray(env, n) : NULL;
  jobjectArray snap = regs && shared ? (*env)->NewObjectArray(env, n, strait__jc.Object, NULL) : NULL;
  if (!regs || (shared && !snap)) {
    if (regs) (*env)->DeleteLocalRef(env, regs);
    jb_throw_pending(env, b, ctx, exc);
    return false;
  }
  (*env)->CallStaticVoidMethod(env, jb.Bridge, m, b->table, objs, from, n, regs, snap);
  jlong r[JB_BATCH];
  if (!(*env)->ExceptionCheck(env)) (*env)->GetLongArrayRegion(env, regs, 0, n, r);
  (*env)->DeleteLocalRef(env, regs);
  if ((*env)->ExceptionCheck(env)) {   /* out of memory */
    if (snap) (*env)->DeleteLocalRef(env, snap);
    jb_throw_pending(env, b, ctx, exc);
    return false;
  }
  /* the elements from here on: the snapshot's, or objs' own */
  jobjectArray src = snap ? snap : objs;
  jint base = snap ? 0 : from;
  bool ok = true;
  for (jint i = 0; i < n; i++) {
    jvalue v;
    v.j = 0;
    switch ((uint64_t)r[i] >> 32) {   /* the tags of ObjectTable.INT_VALUE & co. */
    case 0x80000001u: v.i = (jint)(uint32_t)r[i]; out[i] = jb_to_js(env, b, ctx, 'I', v, exc); continue;
    case 0x80000002u: v.z = (jboolean)(r[i] & 1); out[i] = jb_to_js(env, b, ctx, 'Z', v, exc); continue;
    case 0x80000003u: v.c = (jchar)(r[i] & 0xffff); out[i] = jb_to_js(env, b, ctx, 'C', v, exc); continue;
    default: break;
    }
    if (r[i] == 0) {
      out[i] = JSValueMakeNull(ctx);
      continue;
    }
    jobject o = (*env)->GetObjectArrayElement(env, src, base + i);
    JSValueRef err = NULL;
    /* a JsValue handle (ObjectTable.HANDLE, not registered): its JS value,
     * or, when it is another runtime's or closed, a wrapper as jb_wrap() gives */
    JSValueRef x = (uint64_t)r[i] == 0x8000000400000000u ? jb_wrap(env, b, ctx, o, &err)
                                                        : jb_wrap_registered_result(env, b, ctx, o, r[i], &err);
    if (o) (*env)->DeleteLocalRef(env, o);
    if (!x) {
      /* the rest are still wrapped: their ids are registered and only a
       * wrapper (collected later) releases them */
      if (ok) *exc = err;
      ok = false;
      x = JSValueMakeUndefined(ctx);
    }
    out[i] = x;
  }
  if (snap) (*env)->DeleteLocalRef(env, snap);
  return ok;
}

/*
 * call.h - calls across the boundary: JS -> Java (the call record, the
 * overload resolution and the JNI call in call/js_to_java.c, the JSC
 * callbacks that reach them in call/js_callbacks.c) and Java -> JS (the
 * natives in call/java_to_js.c, the loop, futures and codec natives).
 */
#ifndef STRAIT_CALL_H
#define STRAIT_CALL_H

#include "value/value.h"

/* ---- calls (call/js_to_java.c) --------------------------------------------- */

/*
 * One JS -> Java call: what is called and on what. It lives in the frame
 * of the callback that makes the call (never in jb_rt), so a nested call
 * made while the arguments convert (a getter calling Java) cannot see or
 * change it.
 */
typedef struct jb_call {
  jb_group *g;              /* the overloads (constructors: &cls->ctors) */
  jb_member *forced;        /* an explicit overload, or NULL */
  jobject recv;             /* instance methods: the receiver (its wrapper's
                             * global ref; `self` keeps it alive), else NULL */
  JSObjectRef self;         /* the receiver's wrapper (a method returning its
                             * receiver returns it), or NULL */
  JSObjectRef adopt;        /* constructors: the `this` of a JS `new`, made
                             * the new object's wrapper; NULL: a new wrapper */
} jb_call;

/* Makes call c with JS arguments. Inside the gate. */
JSValueRef jb_invoke(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_call *c, size_t argc,
                     const JSValueRef argv[], JSValueRef *exc);
/* Constructs an instance of cls with JS arguments: with the overload
 * forced (NULL: resolved), the wrapper made from adopt (NULL: a new one). */
JSValueRef jb_construct(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *cls, jb_member *forced,
                        JSObjectRef adopt, size_t argc, const JSValueRef argv[], JSValueRef *exc);
/* Reads / writes a field (recv NULL for static). */
JSValueRef jb_field_get(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *f, jobject recv,
                        JSValueRef *exc);
bool jb_field_set(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *f, jobject recv,
                  JSValueRef v, JSValueRef *exc);

/* The callbacks the model makes class objects and wrappers with. */
extern const jb_callbacks jb_js_callbacks;

/* ---- for...of over Java collections (call/iteration.c) --------------------- */

typedef struct jb_iters jb_iters;
/* Kinds of a loop (Bridge.ITER_*, bridge_helper.js's iterate). */
enum {
  JB_ITER_PAIRS = 1,   /* a Map's entries, each as [key, value] */
  JB_ITER_ONE = 2,     /* one element per crossing, never read ahead */
  JB_ITER_TRACK = 4,   /* read ahead; the release hook puts it back (a slot) */
  JB_ITER_REWIND = 8,  /* put back by ListIterator.previous() (else replayed) */
};
/* iterStart(obj, loop) (call/js_callbacks.c) in two halves around its
 * upcall Bridge.iterStart(obj, inner, out): prepare fills p (false with
 * *exc set), started makes the answer from the kind the upcall returned
 * and releases p's refs. */
typedef struct jb_iter_prep {
  jmethodID mid;            /* Bridge.iterStart */
  jobject inner;            /* obj without Collections' wrappers (local ref) */
  jobjectArray out;         /* Object[1]: the iterator (local ref) */
} jb_iter_prep;
bool jb_iter_prepare(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *cls, jobject obj, jb_iter_prep *p,
                     JSValueRef *exc);
JSValueRef jb_iter_started(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jb_iter_prep *p, jint kind,
                           JSObjectRef loop, JSValueRef *exc);
/* Around iterNext's read of *slot's iterator (< 0: not tracked): before,
 * *it and *max for the read, *slot -1 when it is not tracked, false with
 * *exc set on failure; after, the n elements it took. */
bool jb_iter_before_read(JNIEnv *env, jb_rt *b, JSContextRef ctx, int *slot, jobject *it, jint *max,
                         JSValueRef *exc);
void jb_iter_after_read(jb_rt *b, int slot, jint n);
/* b's Object[3] for reading one Map entry of a tracked loop (read without
 * a suspension; global ref, b's), or NULL with an exception pending. */
jobjectArray jb_iter_pair_array(JNIEnv *env, jb_rt *b);

/* Frees b's loops and unregisters the release hook. Teardown, inside the gate. */
void jb_iters_free(JNIEnv *env, jb_rt *b);

/* ---- promises seen as CompletableFutures (call/futures.c) ------------ */

/* Natives.whenSettled(peer, owner, promise, future). */
void JNICALL strait__n_when_settled(JNIEnv *env, jclass c, jlong peer, jobject owner,
                                    jlong promise, jobject future);

/* Completes every pending future of st exceptionally ("runtime closed").
 * Teardown, inside the gate; env may be NULL. */
void strait__futures_cancel_all(JNIEnv *env, strait__jrt *jrt, strait__hstate *st);

/* ---- codec: whole values in one crossing (call/codec_natives.c) ---------- */

/* Sets up the codec's thread buffers and caches its classes (its natives
 * are registered with the others). Once, from strait__jni_init(). */
int strait__codec_jni_init(JNIEnv *env);

/* The JS value of o (not null), an object result or Java array element,
 * when it is an Integer, Double, Long or String (the value jb_to_js gives),
 * with no upcall; NULL otherwise (the caller converts it the general way).
 * *seen_ret (a JB_SEEN_* class, per method or per thread) is the class the
 * site gave last: only it is tested, and a miss updates it. Inside the gate. */
JSValueRef jb_fast_result(JNIEnv *env, jb_rt *b, JSContextRef ctx, _Atomic unsigned char *seen_ret, jobject o,
                          JSValueRef *exc);

/* ---- Java.extend and Java.super (call/extend.c) ---------------------------- */

/* Loads the IDs of org.strait.internal.Adapters; once, from strait__jni_init. */
int strait__extend_init(JNIEnv *env);
/* Defines Java.extend and Java.super on the Java object. Inside the gate. */
void jb_extend_install(jb_rt *b, JSContextRef ctx, JSObjectRef java);
/* Drops b's adapter class loaders (its Adapters.PerRuntime) at teardown, so
 * its Java.extend classes can be unloaded. Inside the gate. */
void jb_extend_free(JNIEnv *env, jb_rt *b);

#endif /* STRAIT_CALL_H */

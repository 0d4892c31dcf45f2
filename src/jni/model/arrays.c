/*
 * arrays.c - wrappers of Java arrays.
 *
 * An array wrapper is a JS Proxy (made by the helper script of
 * bridge_jsclass.c) over a plain target object that holds the array's
 * length (a read-only data property), the entry's code (slot and
 * generation) and the finalizing token (same private code as the tokens of
 * ordinary wrappers, so the wrapper table treats both alike; it dies with
 * the target, which dies with the Proxy). The Proxy's traps answer
 * `length` from the target in JS and send canonical indexes to the two
 * natives below as numbers: a[i] is one JIT-called trap plus one plain
 * function callback, with no property-name string to parse.
 *
 * Why not a JSClass with getProperty (the earlier design): JSC routes
 * every property of such an object through the callback, uncached, and
 * turns each integer index into an atom string and an OpaqueJSString
 * first, so both a[i] and a.length cost more than a callback. Why not a
 * plain object with an own `length` (cached like any data property) and
 * the index traps on its prototype: JSC reaches a Proxy on the prototype
 * chain only from its C++ slow path (no inline cache), which adds more to
 * every a[i] than the trap saves on a.length.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "model/bridge.h"

#include <stdlib.h>
#include <string.h>

#define CODE_SLOT_BITS 24
#define CODE_GEN_MASK ((1u << 24) - 1)

/* The number a target holds for entry slot/gen: exact in a double. */
static inline double array_code(uint32_t slot, uint32_t gen) {
  return (double)(((uint64_t)(gen & CODE_GEN_MASK) << CODE_SLOT_BITS) | slot);
}

/* Number value of v, through the immediate encoding when it is one. */
static inline bool arg_number(JSContextRef ctx, JSValueRef v, double *out) {
  if (jb_imm_ok) return jb_imm_number(v, out);
  if (!JSValueIsNumber(ctx, v)) return false;
  *out = JSValueToNumber(ctx, v, NULL);
  return true;
}

/* The live entry named by a target's code, or NULL (a stale or forged
 * code). Inside the gate. */
static jb_entry *entry_of_code(jb_rt *b, double code) {
  if (!(code >= 0 && code < (double)(1ULL << 48))) return NULL;
  uint64_t c = (uint64_t)code;
  uint32_t slot = (uint32_t)(c & ((1u << CODE_SLOT_BITS) - 1));
  uint32_t gen = (uint32_t)(c >> CODE_SLOT_BITS);
  if (slot >= b->nentries) return NULL;
  jb_entry *e = &b->entries[slot];
  if (!e->id || (e->gen & CODE_GEN_MASK) != gen || !e->cls || !(e->cls->flags & JB_ARRAY) ||
      atomic_load_explicit(&e->dead, memory_order_relaxed))
    return NULL;
  return e;
}

/* The entry and index of an aget/aset call; NULL with *exc set when the
 * array is gone or i is out of bounds (RangeError). Inside the gate. */
static jb_entry *element(JSContextRef ctx, jb_rt *b, size_t argc, const JSValueRef argv[], long *iout,
                         JSValueRef *exc) {
  double code, x;
  jb_entry *e = NULL;
  if (b && argc >= 2 && arg_number(ctx, argv[0], &code) && arg_number(ctx, argv[1], &x))
    e = entry_of_code(b, code);
  if (!e) {
    *exc = jb_error(ctx, "TypeError", "Java array used after its runtime released it");
    return NULL;
  }
  if (!(x >= 0 && x < e->alen)) {
    char sb[256];
    const char *an = jb_source_name(e->cls->name, sb, sizeof sb);
    if (x >= 0)
      *exc = jb_error(ctx, "RangeError", "%s index %.0f out of bounds for length %d", an, x, (int)e->alen);
    else
      *exc = jb_error(ctx, "TypeError", "cannot assign to the length of %s", an);
    return NULL;
  }
  *iout = (long)x;
  return e;
}

/* aget(code, i): element i of the array, converted to JS; RangeError out
 * of bounds. Inside the gate. */
JSValueRef jb_array_get_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  long i;
  jb_entry *e = element(ctx, b, argc, argv, &i, exc);
  if (!e) return NULL;
  JNIEnv *env = strait__env();
  jvalue v;
  jsize ix = (jsize)i;
  switch (e->cls->elem) {
  case 'Z': (*env)->GetBooleanArrayRegion(env, e->ref, ix, 1, &v.z); break;
  case 'B': (*env)->GetByteArrayRegion(env, e->ref, ix, 1, &v.b); break;
  case 'C': (*env)->GetCharArrayRegion(env, e->ref, ix, 1, &v.c); break;
  case 'S': (*env)->GetShortArrayRegion(env, e->ref, ix, 1, &v.s); break;
  case 'I':
    (*env)->GetIntArrayRegion(env, e->ref, ix, 1, &v.i);
    return jb_imm_ok ? jb_imm_int(v.i) : JSValueMakeNumber(ctx, v.i);
  case 'J': (*env)->GetLongArrayRegion(env, e->ref, ix, 1, &v.j); break;
  case 'F': (*env)->GetFloatArrayRegion(env, e->ref, ix, 1, &v.f); break;
  case 'D':
    (*env)->GetDoubleArrayRegion(env, e->ref, ix, 1, &v.d);
    return jb_imm_ok ? jb_imm_double(v.d) : JSValueMakeNumber(ctx, v.d);
  default: {
    v.l = (*env)->GetObjectArrayElement(env, e->ref, ix);
    JSValueRef r = jb_wrap(env, b, ctx, v.l, exc);
    if (v.l) (*env)->DeleteLocalRef(env, v.l);
    return r;
  }
  }
  return jb_to_js(env, b, ctx, e->cls->elem, v, exc);
}

/* undefined, without a C API call (each one takes the VM lock again). */
static inline JSValueRef undefined_value(JSContextRef ctx) {
  return jb_imm_ok ? (JSValueRef)(uintptr_t)JB_VALUE_UNDEFINED : JSValueMakeUndefined(ctx);
}

/* Stores an int-valued number into an int[] without the general
 * conversion (the common case of a[i] = n). True when it did. */
static bool store_int_fast(JNIEnv *env, jb_entry *e, jsize ix, JSValueRef value) {
  double d;
  if (e->cls->elem != 'I' || !jb_imm_ok || !jb_imm_number(value, &d)) return false;
  if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != (double)(jint)d) return false;
  jint x = (jint)d;
  (*env)->SetIntArrayRegion(env, e->ref, ix, 1, &x);
  return true;
}

/* aset(code, i, v): converts v and stores it as element i (TypeError /
 * RangeError when it does not fit or i is out of bounds; i = -1 is an
 * assignment to length, a TypeError). Inside the gate. */
JSValueRef jb_array_set_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  long i;
  jb_entry *e = element(ctx, b, argc, argv, &i, exc);
  if (!e) return NULL;
  JNIEnv *env = strait__env();
  JSValueRef value = argc > 2 ? argv[2] : undefined_value(ctx);
  jsize ix = (jsize)i;
  if (store_int_fast(env, e, ix, value)) return undefined_value(ctx);
  /* copies: converting the value may run JS that grows the table */
  jobject ref = e->ref;
  jb_class *cls = e->cls;
  jb_arg a;
  jb_arg_kind(b, ctx, value, &a);
  jb_locals l = {0};
  jvalue v;
  bool ok = jb_to_java(env, b, ctx, &a, cls->elem, cls->elem_cls, &v, &l, NULL, exc);
  if (!ok && !*exc) {            /* describe the failure only now */
    char what[300];
    char sb[256];
    snprintf(what, sizeof what, "%s element %ld", jb_source_name(cls->name, sb, sizeof sb), i);
    jb_to_java(env, b, ctx, &a, cls->elem, cls->elem_cls, &v, &l, what, exc);
  }
  jb_args_release(&a, 1);
  if (ok) {
    switch (cls->elem) {
    case 'Z': (*env)->SetBooleanArrayRegion(env, ref, ix, 1, &v.z); break;
    case 'B': (*env)->SetByteArrayRegion(env, ref, ix, 1, &v.b); break;
    case 'C': (*env)->SetCharArrayRegion(env, ref, ix, 1, &v.c); break;
    case 'S': (*env)->SetShortArrayRegion(env, ref, ix, 1, &v.s); break;
    case 'I': (*env)->SetIntArrayRegion(env, ref, ix, 1, &v.i); break;
    case 'J': (*env)->SetLongArrayRegion(env, ref, ix, 1, &v.j); break;
    case 'F': (*env)->SetFloatArrayRegion(env, ref, ix, 1, &v.f); break;
    case 'D': (*env)->SetDoubleArrayRegion(env, ref, ix, 1, &v.d); break;
    default:
      (*env)->SetObjectArrayElement(env, ref, ix, v.l);
      if ((*env)->ExceptionCheck(env)) jb_throw_pending(env, b, ctx, exc);   /* ArrayStoreException */
      break;
    }
  }
  jb_locals_free(env, &l);
  return ok && !*exc ? undefined_value(ctx) : NULL;
}

/* A wrapper for the array in entry slot (see bridge.h): the helper's
 * Proxy over a target holding length, code and a new token. Should the
 * helper fail (it cannot but for lack of memory), a bare token object
 * stands in, so the caller always gets an object its table can hold. */
JSObjectRef jb_array_wrapper(JSContextRef ctx, jb_rt *b, uint32_t slot, uint32_t gen) {
  JSObjectRef tok = JSObjectMake(ctx, b->token_class, (void *)jb_token_code(b, slot, gen));
  JSValueRef args[3] = {JSValueMakeNumber(ctx, b->entries[slot].alen), JSValueMakeNumber(ctx, array_code(slot, gen)),
                        tok};
  JSValueRef w = b->make_array ? JSObjectCallAsFunction(ctx, b->make_array, NULL, 3, args, NULL) : NULL;
  return w && JSValueIsObject(ctx, w) ? (JSObjectRef)w : tok;
}

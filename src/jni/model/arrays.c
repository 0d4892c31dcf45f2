/*
 * arrays.c - wrappers of Java arrays.
 *
 * An array wrapper is a JS Proxy (made by the helper script of
 * model/class_objects.c) over a plain target object that holds the array's
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
#include "model/model.h"
#include "value/value.h"

#include <stdlib.h>
#include <string.h>

/* A wrapper for the array in entry slot (see model/model.h): the helper's
 * Proxy over a target holding length, code and a new token. Should the
 * helper fail (it cannot but for lack of memory), a bare token object
 * stands in, so the caller always gets an object its table can hold. */
JSObjectRef jb_array_wrapper(JSContextRef ctx, jb_rt *b, uint32_t slot, uint32_t gen) {
  JSObjectRef tok = JSObjectMake(ctx, b->token_class, (void *)jb_token_code(b, slot, gen));
  JSValueRef args[3] = {JSValueMakeNumber(ctx, b->entries[slot].alen), JSValueMakeNumber(ctx, jb_array_code(slot, gen)),
                        tok};
  JSValueRef w = b->make_array ? JSObjectCallAsFunction(ctx, b->make_array, NULL, 3, args, NULL) : NULL;
  return w && JSValueIsObject(ctx, w) ? (JSObjectRef)w : tok;
}

/* construct(self, length) of an array class; see model/model.h. The class
 * is the bound data of fn (one construct function per class, as
 * call/js_callbacks.c's native_construct); `self` (argv[0], the object
 * `new` made) is dropped: the array's wrapper is a Proxy, which the
 * helper's constructor returns instead. */
JSValueRef jb_array_construct(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  jb_bound *bd = jb_fn_bound(b, fn);
  if (!bd || !(bd->cls->flags & JB_ARRAY)) {
    *exc = strait_make_error(ctx, "TypeError", "Java array class used in a runtime that did not make it");
    return NULL;
  }
  char sb[512];
  const char *an = jb_source_name(bd->cls->name, sb, sizeof sb);
  size_t n = argc ? argc - 1 : 0;
  if (n != 1) {
    *exc = strait_make_error(ctx, "TypeError", "new %s(length): expected 1 argument, got %zu", an, n);
    return NULL;
  }
  JSValueRef lv = argv[1];
  if (!JSValueIsNumber(ctx, lv)) {
    static const char *const types[] = {"undefined", "null", "boolean", "number", "string", "object", "symbol", "bigint"};
    JSType t = JSValueGetType(ctx, lv);
    *exc = strait_make_error(ctx, "TypeError", "new %s(length): length must be a number, got %s", an,
                             (unsigned)t < sizeof types / sizeof types[0] ? types[t] : "value");
    return NULL;
  }
  double len = JSValueToNumber(ctx, lv, NULL);
  if (!(len >= 0 && len <= 2147483647.0) || len != (double)(jint)len) {
    *exc = strait_make_error(ctx, "RangeError", "new %s(length): invalid length %g (an integer from 0 to 2147483647)",
                             an, len);
    return NULL;
  }
  JNIEnv *env = strait__env();
  jb_class *elem = jb_class_get(env, ctx, bd->cls->elem_cls, false, exc);
  if (!elem) return NULL;
  jobject arr = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_newArray, elem->ref, (jint)len);
  if ((*env)->ExceptionCheck(env)) {
    jb_throw_pending(env, b, ctx, exc);   /* OutOfMemoryError */
    return NULL;
  }
  JSValueRef r = jb_wrap(env, b, ctx, arr, exc);
  (*env)->DeleteLocalRef(env, arr);
  return r;
}

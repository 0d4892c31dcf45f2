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

#define CODE_SLOT_BITS 24
#define CODE_GEN_MASK ((1u << 24) - 1)

/* The number a target holds for entry slot/gen: exact in a double. */
static inline double array_code(uint32_t slot, uint32_t gen) {
  return (double)(((uint64_t)(gen & CODE_GEN_MASK) << CODE_SLOT_BITS) | slot);
}

/* The live entry named by an array target's code, or NULL (a stale or
 * forged code); see bridge.h. Inside the gate. */
jb_entry *jb_array_entry(jb_rt *b, double code) {
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

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

/*
 * clone.h - structured clone across runtimes (clone.c, js/clone.js;
 * docs/clone.md). The globals structuredClone and DOMException come from
 * js/clone.js; this is what workers use to move a value from one runtime
 * to another.
 */
#ifndef STRAIT_CLONE_H
#define STRAIT_CLONE_H

#include <stdbool.h>
#include <stddef.h>

#include "strait.h"

/* A value captured from one runtime, materializable in any runtime on any thread. Owns only
 * malloc'd memory and JSStringRefs (thread-safe refcounted), never a JSValueRef of the source.
 * Owned by whoever holds the pointer; one thread at a time. */
typedef struct strait__clone strait__clone;

/* Host transferables (message ports; worker.c sets rt->clone_hooks). */
typedef struct strait__clone_hooks {
  /* obj is in the transfer list and is not an ArrayBuffer. commit=false: return non-NULL iff obj is a
   * transferable host object that can be transferred now (do not change anything); commit=true: move
   * it out of rt (detach) and return its token. Inside rt's gate. */
  void *(*take)(strait_runtime *rt, JSObjectRef obj, bool commit);
  /* The receiving side's object for token, made in rt (token is consumed), or NULL with *exception. */
  JSValueRef (*give)(strait_runtime *rt, void *token, JSValueRef *exception);
  /* A token that is never given (clone freed unmaterialized). Any thread. */
  void (*drop)(void *token);
} strait__clone_hooks;

/* Captures value (and transfer: NULL/undefined or a JS iterable) from rt. Inside rt's gate.
 * 0 and *out set; STRAIT_EJS with *exception (DataCloneError, TypeError, or what a getter threw);
 * STRAIT_ENOMEM. hooks may be NULL (then only ArrayBuffers are transferable). */
int strait__clone_capture(strait_runtime *rt, JSValueRef value, JSValueRef transfer,
                          const strait__clone_hooks *hooks, strait__clone **out, JSValueRef *exception);
/* Makes the value in rt (any runtime, any thread inside rt's gate; it must not touch the source
 * runtime). *result is not protected. c stays owned by the caller (free it after). A clone is
 * materialized at most once (transferred memory and tokens move into the result). */
int strait__clone_materialize(strait_runtime *rt, strait__clone *c, JSValueRef *result,
                              JSValueRef *exception);
/* Frees c (drops unmaterialized tokens and transferred memory). Any thread. NULL is a no-op. */
void strait__clone_free(strait__clone *c);
/* Bytes the clone holds (for stats and heap accounting). Any thread. */
size_t strait__clone_bytes(const strait__clone *c);
/* Writes the captured value in the value format (docs/value-format.md),
 * with no JS heap: STRAIT_ETYPE (err->msg naming it) for what the format
 * cannot hold. Any thread. */
int strait__clone_write_value(const strait__clone *c, strait_buffer *out, strait_value_error *err);

/* Adds isHost(obj) and cloneHosts(value, abs, hosts) to the bootstrap's
 * native object (for js/clone.js). Inside the gate. */
void strait__clone_natives(JSContextRef ctx, JSObjectRef native);

#endif /* STRAIT_CLONE_H */

/*
 * registry.c - finding a runtime's bridge: from a context (through the
 * runtime's JNI state, cached per thread for callbacks) and from the small
 * slot number GC finalizers carry (a process-wide table whose slots are
 * never reused); and the blocks a bridge owns until its teardown.
 */
#include "model/model.h"

#include <stdlib.h>

#define MAX_RUNTIMES 65536
/* Runtime slots are never reused, so a finalizer that runs after its
 * runtime was freed finds NULL instead of another runtime's bridge. */
static _Atomic(jb_rt *) registry[MAX_RUNTIMES];
static _Atomic int next_slot = 1;

/* The bridge registered in slot, or NULL. Any thread (finalizers too). */
jb_rt *jb_rt_at(int slot) {
  if (slot <= 0 || slot >= MAX_RUNTIMES) return NULL;
  return atomic_load_explicit(&registry[slot], memory_order_acquire);
}

/* The bridge of ctx's runtime, or NULL. Inside the gate. */
jb_rt *jb_rt_of(JSContextRef ctx) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  strait__jrt *jrt = rt ? strait_runtime_embedder(rt) : NULL;
  return jrt ? jrt->bridge : NULL;
}

/* Per-thread cache of the last runtime's bridge seen by a callback. The
 * registry check makes a freed runtime a miss. */
static JB_TLS JSContextRef tl_ctx;
static JB_TLS jb_rt *tl_b;
static JB_TLS int tl_slot;

/* The bridge of ctx's runtime, cached per thread. Inside the gate. */
jb_rt *jb_rt_fast(JSContextRef ctx) {
  if (tl_ctx == ctx && tl_b && jb_rt_at(tl_slot) == tl_b) return tl_b;
  jb_rt *b = jb_rt_of(ctx);
  if (b) {
    tl_ctx = ctx;
    tl_b = b;
    tl_slot = b->slot;
  }
  return b;
}

/* Gives b a registry slot (never reused) and publishes it there; 0, or
 * STRAIT_ENOMEM when the process made MAX_RUNTIMES bridges. Inside the
 * gate. */
int jb_registry_add(jb_rt *b) {
  int slot = atomic_fetch_add(&next_slot, 1);
  if (slot >= MAX_RUNTIMES) return STRAIT_ENOMEM;
  b->slot = slot;
  atomic_store(&registry[slot], b);
  return 0;
}

/* Clears b's slot: finalizers that run later find NULL. Teardown. */
void jb_registry_remove(jb_rt *b) {
  if (b->slot > 0 && b->slot < MAX_RUNTIMES) atomic_store(&registry[b->slot], NULL);
}

/* Remembers p to be freed at teardown. Inside the gate. */
void jb_own(jb_rt *b, void *p) {
  if (b->nowned == b->capowned) {
    size_t cap = b->capowned ? b->capowned * 2 : 256;
    void **o = realloc(b->owned, cap * sizeof *o);
    if (!o) return;            /* leaks p rather than freeing it in use */
    b->owned = o;
    b->capowned = cap;
  }
  b->owned[b->nowned++] = p;
}

/*
 * wrappers.c - one runtime's wrappers of Java objects and their life.
 *
 * The Java side (org.strait.internal.ObjectTable) gives each object an id that is
 * never reused and holds the object strongly. Here each id has one entry in
 * a flat array (slots reused through a free list, no allocation per entry)
 * indexed twice by open addressing: by id (to find the wrapper of a
 * returned object) and by the wrapper's address (to find the receiver of a
 * call; JSC does not move cells). The entry holds a JNI global ref, so a
 * call needs no upcall to find its receiver.
 *
 * Each entry holds a JSC weak handle on its wrapper, cleared by the
 * collection that finds the wrapper dead: a wrapper is handed out again
 * only while its weak handle still names it (wrapper_alive), so a dead cell
 * not yet swept never reaches JS again. A wrapper's death is noticed from
 * that handle: a heap finalizer counts the ends of collections (gc_done),
 * and the next JS -> Java crossing (jb_maybe_flush) or a loop task looks at
 * the weak handles (reap): of the wrappers made since the last look, and of
 * every entry once wrappers were made for half as many slots as the table
 * ever used or 16 collections went by, so the cost stays proportional to
 * the wrappers made. A dead entry is marked
 * and queued (slot, generation); the flush that follows drops its global
 * ref and sends its id to ObjectTable.release() in batches of up to 1024,
 * one upcall per batch. A wrapper handed out again before the flush revives
 * its entry (new generation), so the flush skips it. Array wrappers also
 * carry a token of a finalizing JSClass whose finalizer queues the same way.
 * (Object wrappers used to carry such a token too: allocating that
 * JSCallbackObject and running its finalizer cost about as much as the
 * rest of the wrapper.)
 *
 * Threads: everything except gc_done and jb_token_finalize runs on the
 * thread inside the runtime's gate. Both run inside JSC's GC; gc_done only
 * bumps an atomic counter and posts a loop task, the token finalizer
 * touches only the entry's `dead` flag and the queue, under qmu.
 */
#include "model/model.h"
#include "value/value.h"
#include "base/interop_ids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOMB 0xffffffffu
#define MAX_BATCH 1024
#define SLOT_BITS 24
#define GEN_BITS 24

/* Token private value: runtime slot, entry slot and generation. */
static inline uintptr_t token_code(int rtslot, uint32_t slot, uint32_t gen) {
  return ((uintptr_t)rtslot << (SLOT_BITS + GEN_BITS)) | ((uintptr_t)(gen & ((1u << GEN_BITS) - 1)) << SLOT_BITS) | slot;
}

/* Hash of a wrapper's address for the by_ptr index: the cell number.
 * JSC allocates cells of one size one after another in a block, so
 * wrappers made together land in neighbouring index places (cache lines
 * already loaded) instead of one cache miss each. */
static inline uint32_t hash_ptr(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  return (uint32_t)(x >> 4);
}

/* Hash of an ObjectTable id for the by_id index: the id itself (ids are
 * handed out in sequence, so neighbours share cache lines). */
static inline uint32_t hash_id(int64_t id) {
  return (uint32_t)id;
}

/* The wrapper of e when the caller knows it is reachable (a call's receiver
 * or argument, or a value inside one): its weak handle cannot be cleared
 * while it is, so no lock is needed. NULL when the weak handle says the
 * entry's wrapper died. Inside the gate. */
static inline JSObjectRef wrapper_rooted(const jb_entry *e) {
  return e->weak ? JSWeakGetObject(e->weak) : NULL;
}

/* The wrapper of e, read from its weak handle: NULL once a collection has
 * found it dead. `dead` is set only later (by reap at the next crossing,
 * or an array token's finalizer when its cell is swept); in between, the
 * raw pointer names a dead cell that must never reach JS again. The weak handle is cleared (reaped) at the end of the collection
 * with the mutator stopped. JSC runs C callbacks with its locks dropped,
 * which also gives up heap access, so a collection can end concurrently
 * with this read; it must therefore be made holding the VM lock: then the
 * collection cannot end until this thread gives heap access up again, and
 * by then the wrapper sits in its registers or on its stack, where the
 * final conservative scan finds it. Inside the gate. */
static JSObjectRef wrapper_alive(JSContextRef ctx, const jb_entry *e) {
  JSLock(ctx);
  JSObjectRef w = wrapper_rooted(e);
  JSUnlock(ctx);
  return w;
}

/* Drops the weak handle of e, if any, counting it for jb_flush's sweep
 * (its wrapper has died, or the table goes away). Inside the gate (takes
 * the VM lock). */
static void drop_weak(jb_rt *b, jb_entry *e) {
  if (e->weak) {
    JSWeakRelease(JSContextGetGroup(b->ctx), e->weak);
    e->weak = NULL;
    b->dead_weaks++;
  }
}

static void gc_done(JSContextGroupRef group, void *data);

/* Allocates the table of b. Inside the gate. */
int jb_table_init(jb_rt *b) {
  b->capentries = 256;
  b->entries = calloc(b->capentries, sizeof *b->entries);
  b->free_slots = malloc(b->capentries * sizeof *b->free_slots);
  b->idxcap = 1024;
  b->by_id = calloc(b->idxcap, sizeof(uint32_t));
  b->by_ptr = calloc(b->idxcap, sizeof(uint32_t));
  b->capqueue = 256;
  b->queue = malloc(b->capqueue * sizeof *b->queue);
  pthread_mutex_init(&b->qmu, NULL);
  b->next_cid = (int64_t)1 << 39;    /* ObjectTable.NATIVE_IDS */
  b->capyoung = 1024;
  b->young = malloc(b->capyoung * sizeof *b->young);
  if (!b->entries || !b->free_slots || !b->by_id || !b->by_ptr || !b->queue || !b->young) return STRAIT_ENOMEM;
  /* the mark: a prototype-less object, the same for every wrapper */
  b->wrapper_mark = JSObjectMake(b->ctx, NULL, NULL);
  JSObjectSetPrototype(b->ctx, b->wrapper_mark, JSValueMakeNull(b->ctx));
  JSValueProtect(b->ctx, b->wrapper_mark);
  JSContextGroupAddHeapFinalizer(JSContextGetGroup(b->ctx), gc_done, (void *)(intptr_t)b->slot);
  b->gc_hooked = true;
  return 0;
}

/* Drops every global ref and frees the table. Inside the gate (teardown). */
void jb_table_free(jb_rt *b, JNIEnv *env) {
  if (b->gc_hooked) {
    JSContextGroupRemoveHeapFinalizer(JSContextGetGroup(b->ctx), gc_done, (void *)(intptr_t)b->slot);
    b->gc_hooked = false;
  }
  if (b->wrapper_mark) {
    JSValueUnprotect(b->ctx, b->wrapper_mark);
    b->wrapper_mark = NULL;
  }
  free(b->young);
  b->young = NULL;
  b->nyoung = b->capyoung = 0;
  for (uint32_t i = 0; i < b->nentries; i++) {
    if (b->entries[i].id && b->entries[i].ref) (*env)->DeleteGlobalRef(env, b->entries[i].ref);
    drop_weak(b, &b->entries[i]);
  }
  free(b->entries);
  free(b->hints);
  b->hints = NULL;
  free(b->free_slots);
  free(b->by_id);
  free(b->by_ptr);
  free(b->unreg);
  b->unreg = NULL;
  b->nunreg = b->capunreg = 0;
  pthread_mutex_lock(&b->qmu);
  free(b->queue);
  b->queue = NULL;
  b->nqueue = b->capqueue = 0;
  pthread_mutex_unlock(&b->qmu);
  pthread_mutex_destroy(&b->qmu);
  b->entries = NULL;
}

/* Inserts slot into index tab at the first free or tombstone place. */
static void idx_put(uint32_t *tab, uint32_t cap, uint32_t h, uint32_t slot) {
  uint32_t mask = cap - 1;
  uint32_t i = h & mask;
  while (tab[i] != 0 && tab[i] != TOMB) i = (i + 1) & mask;
  tab[i] = slot + 1;
}

/* Rebuilds both indexes with capacity cap. */
static int reindex(jb_rt *b, uint32_t cap) {
  uint32_t *bi = calloc(cap, sizeof(uint32_t));
  uint32_t *bp = calloc(cap, sizeof(uint32_t));
  if (!bi || !bp) { free(bi); free(bp); return STRAIT_ENOMEM; }
  for (uint32_t s = 0; s < b->nentries; s++) {
    jb_entry *e = &b->entries[s];
    if (!e->id) continue;
    if (!e->unreg) idx_put(bi, cap, hash_id(e->id), s);
    if (e->wrapper) idx_put(bp, cap, hash_ptr(e->wrapper), s);
  }
  free(b->by_id);
  free(b->by_ptr);
  b->by_id = bi;
  b->by_ptr = bp;
  b->idxcap = cap;
  b->idxused = (uint32_t)(b->live * 2);
  return 0;
}

/* Makes room for two more index insertions. */
static int ensure_index(jb_rt *b) {
  if ((b->idxused + 2) * 2 <= b->idxcap) return 0;
  uint32_t cap = b->idxcap;
  while ((b->live * 2 + 2) * 4 > cap) cap *= 2;
  return reindex(b, cap);
}

/* Removes slot from the index tab (hash h). */
static void idx_del(uint32_t *tab, uint32_t cap, uint32_t h, uint32_t slot) {
  uint32_t mask = cap - 1;
  for (uint32_t i = h & mask; tab[i] != 0; i = (i + 1) & mask) {
    if (tab[i] == slot + 1) { tab[i] = TOMB; return; }
  }
}

/* The entry of id (live or dead) and its slot, or NULL. Inside the gate. */
static jb_entry *find_by_id(jb_rt *b, int64_t id, uint32_t *slot_out) {
  uint32_t mask = b->idxcap - 1;
  for (uint32_t i = hash_id(id) & mask, v; (v = b->by_id[i]) != 0; i = (i + 1) & mask) {
    if (v != TOMB && b->entries[v - 1].id == id) {
      *slot_out = v - 1;
      return &b->entries[v - 1];
    }
  }
  return NULL;
}

/* The live entry whose wrapper is obj; see model/model.h. Inside the gate. */
jb_entry *jb_entry_of(jb_rt *b, JSObjectRef obj) {
  uint32_t mask = b->idxcap - 1;
  for (uint32_t i = hash_ptr(obj) & mask, v; (v = b->by_ptr[i]) != 0; i = (i + 1) & mask) {
    if (v == TOMB) continue;
    jb_entry *e = &b->entries[v - 1];
    if (e->wrapper == obj && e->id && !atomic_load_explicit(&e->dead, memory_order_relaxed) &&
        wrapper_rooted(e) == obj)
      return e;
  }
  return NULL;
}

/* Queues (slot, gen) for the next flush. Finalizer or gate thread. */
static void enqueue(jb_rt *b, uint32_t slot, uint32_t gen) {
  pthread_mutex_lock(&b->qmu);
  if (b->nqueue == b->capqueue) {
    size_t cap = b->capqueue ? b->capqueue * 2 : 256;
    uint64_t *q = realloc(b->queue, cap * sizeof *q);
    if (!q) { pthread_mutex_unlock(&b->qmu); return; }   /* the object then stays held */
    b->queue = q;
    b->capqueue = cap;
  }
  b->queue[b->nqueue++] = ((uint64_t)gen << 32) | slot;
  atomic_store_explicit(&b->pending, b->nqueue, memory_order_relaxed);
  pthread_mutex_unlock(&b->qmu);
}

/* Loop task: flushes the queue of a runtime gone idle. Inside the gate. */
static void flush_task(strait_runtime *rt, void *data) {
  jb_rt *b = data;
  atomic_store(&b->flush_posted, 0);
  JNIEnv *env = strait__env();
  if (env) jb_flush(env, b);
}

/* Token finalizer (see file comment). GC: no JSC, no Java. */
void jb_token_finalize(JSObjectRef token) {
  uintptr_t code = (uintptr_t)JSObjectGetPrivate(token);
  int rtslot = (int)(code >> (SLOT_BITS + GEN_BITS));
  uint32_t slot = (uint32_t)(code & ((1u << SLOT_BITS) - 1));
  uint32_t gen = (uint32_t)((code >> SLOT_BITS) & ((1u << GEN_BITS) - 1));
  jb_rt *b = jb_rt_at(rtslot);
  if (!b || !b->entries || slot >= b->nentries) return;
  jb_entry *e = &b->entries[slot];
  if ((e->gen & ((1u << GEN_BITS) - 1)) != gen || !e->id) return;
  atomic_store(&e->dead, 1);
  enqueue(b, slot, gen);
  int expect = 0;
  if (atomic_compare_exchange_strong(&b->flush_posted, &expect, 1)) {
    if (strait_post(b->rt, flush_task, b, NULL) != 0) atomic_store(&b->flush_posted, 0);
  }
}

/* Heap finalizer of the runtime in registry slot `data`: a collection of
 * its group ended (see file comment). GC: no JSC, no Java. */
static void gc_done(JSContextGroupRef group, void *data) {
  (void)group;
  jb_rt *b = jb_rt_at((int)(intptr_t)data);
  if (!b || !b->entries) return;
  atomic_fetch_add_explicit(&b->gcs, 1, memory_order_release);
  int expect = 0;
  if (atomic_compare_exchange_strong(&b->flush_posted, &expect, 1)) {
    if (strait_post(b->rt, flush_task, b, NULL) != 0) atomic_store(&b->flush_posted, 0);
  }
}

/* Remembers that the wrapper of slot was just made (gen: its generation),
 * for the next reap. A failure only leaves it to the next full look. */
static void young_push(jb_rt *b, uint32_t slot, uint32_t gen) {
  b->made_since_full++;
  if (b->nyoung == b->capyoung) {
    size_t cap = b->capyoung ? b->capyoung * 2 : 1024;
    uint64_t *y = realloc(b->young, cap * sizeof *y);
    if (!y) return;
    b->young = y;
    b->capyoung = cap;
  }
  b->young[b->nyoung++] = ((uint64_t)gen << 32) | slot;
}

/* Marks entry slot dead and queues it when its generation is gen and its
 * wrapper's weak handle was cleared. Inside the gate, holding the VM lock
 * (a collection cannot end during the read). */
static void reap_one(jb_rt *b, uint32_t slot, uint32_t gen) {
  if (slot >= b->nentries) return;
  jb_entry *e = &b->entries[slot];
  if (e->gen != gen || !e->id || !e->weak || atomic_load_explicit(&e->dead, memory_order_relaxed)) return;
  if (JSWeakGetObject(e->weak)) return;
  atomic_store(&e->dead, 1);
  enqueue(b, slot, gen & ((1u << GEN_BITS) - 1));
}

/* Queues the entries whose wrappers the collections since the last call
 * found dead (see file comment). Inside the gate. */
static void reap(jb_rt *b) {
  uint32_t now = atomic_load_explicit(&b->gcs, memory_order_acquire);
  if (now == b->gcs_seen) return;
  b->gcs_since_full += now - b->gcs_seen;
  b->gcs_seen = now;
  /* every slot ever used is looked at: as many were made since as half
   * of them (so a full look costs O(1) per wrapper made), or 16
   * collections went by (so a long-lived wrapper's death is noticed) */
  bool full = b->gcs_since_full >= 16 || b->made_since_full * 2 >= b->nentries;
  JSLock(b->ctx);
  if (full) {
    for (uint32_t s = 0; s < b->nentries; s++) reap_one(b, s, b->entries[s].gen);
    b->gcs_since_full = 0;
    b->made_since_full = 0;
  } else {
    for (size_t i = 0; i < b->nyoung; i++) reap_one(b, (uint32_t)b->young[i], (uint32_t)(b->young[i] >> 32));
  }
  b->nyoung = 0;
  JSUnlock(b->ctx);
}

/* Appends slot to the constructed objects not yet in the Java table. */
static int unreg_push(jb_rt *b, uint32_t slot) {
  if (b->nunreg == b->capunreg) {
    uint32_t cap = b->capunreg ? b->capunreg * 2 : 256;
    uint32_t *u = realloc(b->unreg, cap * sizeof *u);
    if (!u) return STRAIT_ENOMEM;
    b->unreg = u;
    b->capunreg = cap;
  }
  b->entries[slot].unreg = true;
  b->entries[slot].upos = b->nunreg;
  b->unreg[b->nunreg++] = slot;
  return 0;
}

/* Takes slot out of b->unreg (the last item moves into its place). */
static void unreg_remove(jb_rt *b, uint32_t slot) {
  jb_entry *e = &b->entries[slot];
  uint32_t last = b->unreg[--b->nunreg];
  b->unreg[e->upos] = last;
  b->entries[last].upos = e->upos;
  e->unreg = false;
}

/* Enters the waiting constructed objects into the Java table; see
 * model/model.h. Keeps a pending Java exception pending. Inside the gate. */
void jb_register_pending(JNIEnv *env, jb_rt *b) {
  if (!b->nunreg) return;
  jthrowable pending = (*env)->ExceptionOccurred(env);
  if (pending) (*env)->ExceptionClear(env);
  jlong ids[MAX_BATCH];
  while (b->nunreg) {
    int n = 0;
    while (b->nunreg && n < MAX_BATCH) {
      uint32_t slot = b->unreg[--b->nunreg];
      jb_entry *e = &b->entries[slot];
      e->unreg = false;
      idx_put(b->by_id, b->idxcap, hash_id(e->id), slot);   /* counted in idxused at creation */
      (*env)->SetObjectArrayElement(env, b->adopt_buf, n, e->ref);
      ids[n++] = e->id;
    }
    (*env)->SetLongArrayRegion(env, b->release_buf, 0, n, ids);
    (*env)->CallVoidMethod(env, b->table, jb.ObjectTable_adopt, b->adopt_buf, b->release_buf, (jint)n);
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  }
  if (pending) {
    (*env)->Throw(env, pending);
    (*env)->DeleteLocalRef(env, pending);
  }
}

/* Frees entry slot (dead): indexes, global ref, free list. Returns true
 * when the Java table holds its id (to be released there). */
static bool release_slot(JNIEnv *env, jb_rt *b, uint32_t slot) {
  jb_entry *e = &b->entries[slot];
  bool in_java = !e->unreg;
  if (e->unreg) unreg_remove(b, slot);
  else idx_del(b->by_id, b->idxcap, hash_id(e->id), slot);
  if (e->wrapper) idx_del(b->by_ptr, b->idxcap, hash_ptr(e->wrapper), slot);
  drop_weak(b, e);
  (*env)->DeleteGlobalRef(env, e->ref);
  e->id = 0;
  e->ref = NULL;
  e->wrapper = NULL;
  e->cls = NULL;
  e->gen++;
  atomic_store(&e->dead, 0);
  b->free_slots[b->nfree++] = slot;
  b->live--;
  return in_java;
}

/* One ObjectTable.release upcall for ids[0..n). Inside the gate. */
static void release_ids(JNIEnv *env, jb_rt *b, jlong *ids, int n) {
  if (n == 0) return;
  (*env)->SetLongArrayRegion(env, b->release_buf, 0, n, ids);
  (*env)->CallVoidMethod(env, b->table, jb.ObjectTable_release, b->release_buf, (jint)n);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
}

/* Releases the queued dead entries; see model/model.h. Inside the gate. */
void jb_flush(JNIEnv *env, jb_rt *b) {
  reap(b);
  jthrowable pending = (*env)->ExceptionOccurred(env);
  if (pending) (*env)->ExceptionClear(env);
  JSContextRef ctx = b->ctx;
  jlong ids[MAX_BATCH];
  uint64_t items[256];
  int n = 0;
  for (;;) {
    /* up to 256 items per lock (release_slot may run JNI, outside it) */
    size_t got = 0;
    pthread_mutex_lock(&b->qmu);
    while (b->nqueue && got < sizeof items / sizeof items[0]) items[got++] = b->queue[--b->nqueue];
    if (b->nqueue == 0) atomic_store_explicit(&b->pending, 0, memory_order_relaxed);
    pthread_mutex_unlock(&b->qmu);
    if (got == 0) break;
    JSLock(ctx);          /* the weak handles' releases then lock cheaply */
    for (size_t k = 0; k < got; k++) {
      uint32_t slot = (uint32_t)items[k], gen = (uint32_t)(items[k] >> 32);
      if (slot >= b->nentries) continue;
      jb_entry *e = &b->entries[slot];
      if ((e->gen & ((1u << GEN_BITS) - 1)) != gen || !e->id || !atomic_load(&e->dead)) continue;
      int64_t id = e->id;
      if (release_slot(env, b, slot)) ids[n++] = id;
      if (n == MAX_BATCH) {
        JSUnlock(ctx);    /* Java runs without the VM lock (the gate rule) */
        release_ids(env, b, ids, n);
        n = 0;
        JSLock(ctx);
      }
    }
    JSUnlock(ctx);
  }
  release_ids(env, b, ids, n);
  /* JSC (2.50) keeps a weak handle's block for good when the handle is
   * released after its object died ("logically empty" weak blocks are
   * swept one per new block and seldom emptied): about 28 bytes per dead
   * wrapper, without bound. A synchronous full collection sweeps them all,
   * so one runs after every max(512 Ki, 8 x live) released handles: the
   * leak stays bounded (~15 MB) and its cost is a few ns per wrapper. */
  size_t every = b->live * 8 > ((size_t)1 << 19) ? b->live * 8 : ((size_t)1 << 19);
  if (b->dead_weaks >= every) {
    b->dead_weaks = 0;
    JSSynchronousGarbageCollectForDebugging(ctx);
  }
  if (pending) {
    (*env)->Throw(env, pending);
    (*env)->DeleteLocalRef(env, pending);
  }
}

/* Takes a free entry slot. */
static int take_slot(jb_rt *b, uint32_t *slot) {
  if (b->nfree) {
    *slot = b->free_slots[--b->nfree];
    return 0;
  }
  if (b->nentries == b->capentries) {
    uint32_t cap = b->capentries * 2;
    if (cap > (1u << SLOT_BITS)) return STRAIT_ENOMEM;
    jb_entry *ne = realloc(b->entries, cap * sizeof *ne);
    if (!ne) return STRAIT_ENOMEM;
    b->entries = ne;
    uint32_t *nf = realloc(b->free_slots, cap * sizeof *nf);
    if (!nf) return STRAIT_ENOMEM;
    b->free_slots = nf;
    memset(&b->entries[b->capentries], 0, (cap - b->capentries) * sizeof *ne);
    b->capentries = cap;
  }
  *slot = b->nentries++;
  return 0;
}

/* Any other live entry at address w is stale (its wrapper died and JSC
 * reused the cell before the death was noticed): mark it dead. */
static void evict_stale(jb_rt *b, JSObjectRef w, uint32_t keep) {
  uint32_t mask = b->idxcap - 1;
  for (uint32_t i = hash_ptr(w) & mask, v; (v = b->by_ptr[i]) != 0; i = (i + 1) & mask) {
    if (v == TOMB || v - 1 == keep) continue;
    jb_entry *e = &b->entries[v - 1];
    if (e->wrapper == w && e->id && !atomic_load(&e->dead)) {
      atomic_store(&e->dead, 1);
      enqueue(b, v - 1, e->gen & ((1u << GEN_BITS) - 1));
    }
  }
}

/* The function of k's functional method in b (jb_class_functional non-NULL),
 * made once per runtime and class and protected until teardown
 * (jb_jsclass_free); NULL when it cannot be made (the wrapper is then not
 * callable). Inside the gate, after jb_class_proto(k). */
static JSObjectRef functional_fn(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *k) {
  if ((size_t)k->index >= b->njsc) return NULL;
  jb_jsclass *j = &b->jsc[k->index];
  if (!j->fn) {
    jb_group *g = jb_class_functional(env, k);
    JSObjectRef f = g ? jb_method_fn(b, ctx, g, NULL) : NULL;
    if (!f) return NULL;
    JSValueProtect(ctx, f);
    j->fn = f;
  }
  return j->fn;
}

/* Makes the JS wrapper of entry slot and indexes it. adopt: the `this` of
 * a JS `new` to make the wrapper of (NULL: a new object). */
static JSObjectRef make_wrapper(JNIEnv *env, jb_rt *b, JSContextRef ctx, uint32_t slot, JSObjectRef adopt,
                                JSValueRef *exc) {
  jb_entry *e = &b->entries[slot];
  jb_class *k = e->cls;
  /* the object is an instance of the recorded class: the type checks of
   * value/convert.c (assignability from it) rely on it */
  JB_CHECK((*env)->IsInstanceOf(env, e->ref, k->ref));
  JSObjectRef proto = jb_class_proto(env, b, ctx, k->index, exc);
  if (!proto) return NULL;
  e = &b->entries[slot];
  uint32_t gen = e->gen & ((1u << GEN_BITS) - 1);
  JSObjectRef w;
  JSLock(ctx);              /* the calls below then take the VM lock cheaply */
  if (k->flags & JB_ARRAY) {
    e->alen = (*env)->GetArrayLength(env, e->ref);
    w = jb_array_wrapper(ctx, b, slot, gen);
    JSObjectSetPrototype(ctx, w, proto);
  } else {
    /* once per class, its prototype gets the mark under the token key
     * (by the helper: JSObjectSetPropertyForKey ignores attributes, which
     * would leave it enumerable and deletable); Object.keys tells wrappers
     * by it */
    jb_jsclass *j = (size_t)k->index < b->njsc ? &b->jsc[k->index] : NULL;
    if (j && !j->marked) {
      JSValueRef margs[2] = {proto, b->wrapper_mark};
      if (!JSObjectCallAsFunction(ctx, b->make_wrapper, NULL, 2, margs, exc)) {
        JSUnlock(ctx);
        return NULL;
      }
      j->marked = true;
    }
    /* an object of a functional class is a function (not the adopted
     * `this`, which cannot be called: `new` then gives the function) */
    JSObjectRef fn = jb_class_functional(env, k) ? functional_fn(env, b, ctx, k) : NULL;
    if (fn) {
      if (adopt) proto = (JSObjectRef)JSObjectGetPrototype(ctx, adopt);
      JSValueRef args[3] = {proto, b->wrapper_mark, fn};
      JSValueRef made = JSObjectCallAsFunction(ctx, b->make_wrapper, NULL, 3, args, exc);
      if (!made || !JSValueIsObject(ctx, made)) {
        JSUnlock(ctx);
        if (!*exc) *exc = strait_make_error(ctx, "Error", "cannot make the wrapper of a Java object");
        return NULL;
      }
      w = (JSObjectRef)made;
      JSObjectSetPrototype(ctx, w, proto);
    } else if (adopt) {
      w = adopt;
    } else {
      /* a plain object with the class prototype, made here: JSC shares
       * one structure among them (reads stay inline cached: 1.7 ns a read
       * across 1000 wrappers), and it costs less than a call of a JS
       * helper doing Object.create */
      w = JSObjectMake(ctx, NULL, NULL);
      JSObjectSetPrototype(ctx, w, proto);
    }
  }
  JSWeakRef weak = JSWeakCreate(JSContextGetGroup(ctx), w);
  JSUnlock(ctx);
  e = &b->entries[slot];
  e->weak = weak;
  if (ensure_index(b)) {
    *exc = strait_make_error(ctx, "Error", "out of memory wrapping a Java object");
    return NULL;
  }
  evict_stale(b, w, slot);
  young_push(b, slot, e->gen);
  e->wrapper = w;
  idx_put(b->by_ptr, b->idxcap, hash_ptr(w), slot);
  b->idxused++;
  return w;
}

/* The private code of a token or array wrapper for slot/gen. */
uintptr_t jb_token_code(jb_rt *b, uint32_t slot, uint32_t gen) { return token_code(b->slot, slot, gen); }

static JSValueRef wrap_registered(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, bool given,
                                  JSValueRef *exc);

/* JsProxyHandler.crossing, looked up once per process (the same answer on
 * every thread, so a race only repeats the lookup). */
static _Atomic(jmethodID) crossing_mid;

/* What a java.lang.reflect.Proxy obj is when it goes to JS (one upcall,
 * JsProxyHandler.crossing): *back is the JS value behind it when an
 * argument conversion made it (JsProxyHandler.createImplicit: a JS
 * function passed as a Comparator) over a live handle of b's runtime (an
 * interface implemented on request, `new I(impl)`, stays a Java object);
 * the result is true when it is a JS implementation made by another
 * runtime, which leads to that runtime's JS. A failed upcall is cleared
 * (the caller then wraps obj). Inside the gate. */
static bool proxy_back(JNIEnv *env, jb_rt *b, jobject obj, JSValueRef *back) {
  *back = NULL;
  jmethodID m = atomic_load_explicit(&crossing_mid, memory_order_acquire);
  if (!m) {
    m = (*env)->GetStaticMethodID(env, strait__hc.JsProxyHandler, "crossing",
                                  "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
    if (!m) {
      (*env)->ExceptionClear(env);
      return false;
    }
    atomic_store_explicit(&crossing_mid, m, memory_order_release);
  }
  strait__jrt *jrt = strait__jrt_of(b->rt);
  jobject owner = jrt ? strait__owner_of(env, jrt) : NULL;
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    owner = NULL;
  }
  jobject r = (*env)->CallStaticObjectMethod(env, strait__hc.JsProxyHandler, m, obj, owner);
  if (owner) (*env)->DeleteLocalRef(env, owner);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return false;
  }
  if (!r) return false;
  bool foreign = (*env)->IsInstanceOf(env, r, strait__jc.Boolean);
  if (!foreign) *back = jb_handle_back(env, b, r);
  (*env)->DeleteLocalRef(env, r);
  return foreign;
}

/* Registers obj in the Java table and wraps it. Inside the gate. */
static JSValueRef wrap(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, bool given, JSValueRef *exc) {
  if (!obj) return JSValueMakeNull(ctx);
  /* a JsObject/JsArray/JsFunction of this runtime going back to JS (a
   * result, an element, Java.from) is the original JS value (value/convert.c) */
  if (!given) {
    JSValueRef h = jb_handle_back(env, b, obj);
    if (h) return h;
  }
  if (b->nunreg) jb_register_pending(env, b);
  jlong r = (*env)->CallLongMethod(env, b->table, jb.ObjectTable_register, obj);
  if ((*env)->ExceptionCheck(env)) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  return wrap_registered(env, b, ctx, obj, r, given, exc);
}

/* The JS value for obj; see model/model.h. Inside the gate. */
JSValueRef jb_wrap(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, JSValueRef *exc) {
  return wrap(env, b, ctx, obj, false, exc);
}

/* The JS value for obj the embedder hands in; see model/model.h. Inside the gate. */
JSValueRef jb_wrap_given(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, JSValueRef *exc) {
  return wrap(env, b, ctx, obj, true, exc);
}

/* jb_wrap_given() of a registered object; see model/model.h. Inside the gate. */
JSValueRef jb_wrap_registered(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, JSValueRef *exc) {
  return wrap_registered(env, b, ctx, obj, r, true, exc);
}

/* The JS value for obj whose ObjectTable.register() result is r (see
 * model/model.h): a string or box as a JS value, a known object as its
 * wrapper, and an object new to this runtime only when the runtime's
 * policy lets its class cross (given: handed in by the embedder, else a
 * result). Inside the gate. */
static JSValueRef wrap_registered(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, bool given,
                                  JSValueRef *exc) {
  if (!obj) return JSValueMakeNull(ctx);
  if (r < 0) {
    jvalue v;
    v.j = 0;
    char code = 'D';
    /* Integer, Short, Byte, Boolean, Character: the value came along */
    switch ((uint64_t)r >> 32) {
    case 0x80000001u: v.i = (jint)(uint32_t)r; return jb_to_js(env, b, ctx, 'I', v, exc);
    case 0x80000002u: v.z = (jboolean)(r & 1); return jb_to_js(env, b, ctx, 'Z', v, exc);
    case 0x80000003u: v.c = (jchar)(r & 0xffff); return jb_to_js(env, b, ctx, 'C', v, exc);
    default: break;
    }
    switch (r) {
    case -1: return jb_string_to_js(env, ctx, (jstring)obj);
    case -2: case -4: v.d = (*env)->CallDoubleMethod(env, obj, strait__jc.Number_doubleValue); break;
    case -3: v.j = (*env)->CallLongMethod(env, obj, jb.Number_longValue); code = 'J'; break;
    case -5: v.z = (*env)->CallBooleanMethod(env, obj, strait__jc.Boolean_booleanValue); code = 'Z'; break;
    case -6: v.c = (*env)->CallCharMethod(env, obj, jb.Character_charValue); code = 'C'; break;
    default: return JSValueMakeNull(ctx);
    }
    if ((*env)->ExceptionCheck(env)) {   /* OOM only */
      jb_throw_pending(env, b, ctx, exc);
      return NULL;
    }
    return jb_to_js(env, b, ctx, code, v, exc);
  }
  int64_t id = r & ((1LL << 40) - 1);
  int ci = (int)(r >> 40);
  uint32_t slot;
  jb_entry *e = find_by_id(b, id, &slot);
  if (e) {
    if (!atomic_load_explicit(&e->dead, memory_order_relaxed)) {
      JSObjectRef live = wrapper_alive(ctx, e);
      if (live) return live;
    }
    /* revive (queued dead, or found dead by a collection before reap
     * noticed): a new wrapper; the old queue item no longer matches */
    if (e->wrapper) idx_del(b->by_ptr, b->idxcap, hash_ptr(e->wrapper), slot);
    drop_weak(b, e);
    e->wrapper = NULL;
    e->gen++;
    atomic_store(&e->dead, 0);
    return make_wrapper(env, b, ctx, slot, NULL, exc);
  }
  jb_class *k = jb_class_get(env, ctx, ci, false, exc);
  if (!k) return NULL;
  /* the policy first: a denied class is never described for this object
   * (its static initializer does not run on JS's behalf) */
  if (!(jb_verdict(env, b, k) & (given ? JB_V_GIVEN : JB_V_RETURNED))) {
    jlong one = id;
    release_ids(env, b, &one, 1);
    return jb_deny_class(b, ctx, k->name, exc);
  }
  k = jb_class_get(env, ctx, ci, true, exc);
  if (!k) return NULL;
  if (k->flags & JB_PROXY) {
    /* a Java interface implemented by a JS value of this runtime for an
     * argument (a function passed as a Comparator) going back to JS is that
     * JS value; one implemented by another runtime's JS is refused but
     * under ALL (it would lead to that runtime) */
    JSValueRef back = NULL;
    bool foreign = proxy_back(env, b, obj, &back);
    if (back || (foreign && b->access != JB_HOST_ALL)) {
      jlong one = id;
      release_ids(env, b, &one, 1);
      if (back) return back;
      char what[360];
      snprintf(what, sizeof what, "%.200s (a Java interface implemented by another runtime's JavaScript)", k->name);
      return jb_deny_class(b, ctx, what, exc);
    }
  }
  if (ensure_index(b) || take_slot(b, &slot)) {
    *exc = strait_make_error(ctx, "Error", "out of memory wrapping a Java object");
    return NULL;
  }
  e = &b->entries[slot];
  e->id = id;
  e->ref = (*env)->NewGlobalRef(env, obj);
  e->cls = k;
  e->wrapper = NULL;
  e->unreg = false;
  atomic_store(&e->dead, 0);
  b->live++;
  idx_put(b->by_id, b->idxcap, hash_id(id), slot);
  b->idxused++;
  JSValueRef w = make_wrapper(env, b, ctx, slot, NULL, exc);
  if (!w) {
    jlong one = id;
    release_slot(env, b, slot);
    release_ids(env, b, &one, 1);
  }
  return w;
}

#define JB_HINTS 4096

/* The JS value for obj, found by its identity hash first (given: handed
 * in by the embedder, else a result); see model/model.h. Inside the gate. */
static JSValueRef wrap_hinted(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, uint32_t ihash, bool given,
                              JSValueRef *exc) {
  if (!obj) return JSValueMakeNull(ctx);
  if (!b->hints) b->hints = calloc(JB_HINTS, sizeof *b->hints);
  struct jb_hint *h = b->hints ? &b->hints[ihash & (JB_HINTS - 1)] : NULL;
  if (h && h->id && h->slot < b->nentries) {
    jb_entry *e = &b->entries[h->slot];
    if (e->id == h->id && e->wrapper && !atomic_load_explicit(&e->dead, memory_order_relaxed) &&
        (*env)->IsSameObject(env, e->ref, obj)) {
      JSObjectRef live = wrapper_alive(ctx, e);
      if (live) return live;
    }
  }
  JSValueRef w = wrap(env, b, ctx, obj, given, exc);
  if (h && w && JSValueIsObject(ctx, w)) {
    jb_entry *e = jb_entry_of(b, (JSObjectRef)w);
    if (e) {
      h->slot = (uint32_t)(e - b->entries);
      h->id = e->id;
    }
  }
  return w;
}

/* See model/model.h. Inside the gate. */
JSValueRef jb_wrap_hinted(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, uint32_t ihash,
                          JSValueRef *exc) {
  return wrap_hinted(env, b, ctx, obj, ihash, true, exc);
}

/* See model/model.h. Inside the gate. */
JSValueRef jb_wrap_hinted_result(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, uint32_t ihash,
                                 JSValueRef *exc) {
  return wrap_hinted(env, b, ctx, obj, ihash, false, exc);
}

/* The wrapper of a just-constructed object; see model/model.h. Inside the gate. */
JSValueRef jb_wrap_new(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jb_class *cls, JSObjectRef adopt,
                       JSValueRef *exc) {
  uint32_t slot;
  if (ensure_index(b) || take_slot(b, &slot)) {
    *exc = strait_make_error(ctx, "Error", "out of memory wrapping a Java object");
    return NULL;
  }
  jb_entry *e = &b->entries[slot];
  e->id = b->next_cid++;
  e->ref = (*env)->NewGlobalRef(env, obj);
  e->cls = cls;
  e->wrapper = NULL;
  atomic_store(&e->dead, 0);
  if (!e->ref || unreg_push(b, slot)) {
    if (e->ref) (*env)->DeleteGlobalRef(env, e->ref);
    e->id = 0;
    e->ref = NULL;
    e->cls = NULL;
    b->free_slots[b->nfree++] = slot;
    *exc = strait_make_error(ctx, "Error", "out of memory wrapping a Java object");
    return NULL;
  }
  b->live++;
  b->idxused++;              /* its by_id place, taken when it is registered */
  JSValueRef w = make_wrapper(env, b, ctx, slot, adopt, exc);
  if (!w) release_slot(env, b, slot);
  return w;
}

/* The Java object behind wrapper v, as a new local ref; NULL when v is not
 * a live wrapper of this runtime's bridge. Inside the gate. */
jobject jb_java_of(JNIEnv *env, JSContextRef ctx, JSValueRef v) {
  if (!JSValueIsObject(ctx, v)) return NULL;
  jb_rt *b = jb_rt_of(ctx);
  if (!b) return NULL;
  jb_entry *e = jb_entry_of(b, (JSObjectRef)v);
  return e && e->ref ? (*env)->NewLocalRef(env, e->ref) : NULL;
}

/* jb_wrap_registered() of a call's result: the policy's verdict on results
 * applies, as in jb_wrap() (model/batches.c wraps batches of iteration
 * elements with it). Inside the gate. */
JSValueRef jb_wrap_registered_result(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, JSValueRef *exc) {
  return wrap_registered(env, b, ctx, obj, r, false, exc);
}

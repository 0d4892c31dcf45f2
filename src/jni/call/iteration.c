/*
 * iteration.c - for...of over Java collections read ahead in batches, yet
 * seen as Java's own loop sees them (docs/interop.md, "Iteration").
 *
 * Java's loop takes the next element after the body ran: a fail-fast
 * iterator (ArrayList, HashMap's views, TreeMap...) then throws
 * ConcurrentModificationException if the body changed the collection, a
 * weakly consistent one shows the change or not by where it is. A batch
 * takes elements before the body runs, so what the body changes is missed.
 * Nothing but the loop's own JS can change a collection while no other code
 * runs, and no other code runs until the runtime's crossing counter moves;
 * the core calls the release hook (strait_set_release_hook) right before
 * each such point. So for a loop read ahead (a tracked slot):
 *   - JS counts the elements it handed out in a Float64Array it shares with
 *     this file (handed[slot]);
 *   - the release hook, before any other code runs, puts the loop's
 *     iterator back after those elements: a List's ListIterator steps back
 *     (previous()), any other collection gets a new iterator moved past them
 *     (Bridge.iterReplay), which is the same iterator as long as nothing but
 *     the loop ran since the loop's iterator was made;
 *   - JS, seeing the counter moved, drops the rest of its batch and reads on
 *     from the iterator, now where Java's would be; a collection that cannot
 *     step back is read one element per crossing from then on (a second
 *     replay would not be the same iterator once other code ran).
 * Which collections are read ahead is Bridge.iterStart's decision (JDK
 * collections whose iteration runs no other code); every other one is read
 * one element per crossing, as Java reads it.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "call/call.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsc_private.h"

/* Loops read ahead at once per runtime; more are read one element per
 * crossing. */
#define JB_ITER_SLOTS 64

typedef struct jb_iter_slot {
  jobject it;          /* global ref: the loop's iterator; NULL: a free slot */
  jobject source;      /* global ref: what it iterates (a replay makes a new iterator of it) */
  jthrowable failure;  /* global ref: why the iterator could not be put back, thrown at the next read */
  JSWeakRef owner;     /* the loop's JS iterator object: once collected, the slot is free */
  double fetched;      /* elements taken from it */
  double ep;           /* the crossing count when the last batch was taken */
  bool rewind;         /* a ListIterator: stepped back by previous() */
  bool dirty;          /* other code ran since it was made: no replay is exact any more */
} jb_iter_slot;

struct jb_iters {
  jobjectArray pair;   /* global ref: Object[3], the reads of one Map entry of a tracked loop
                        * (no suspension: no other thread can use it meanwhile) */
  double *handed;      /* [JB_ITER_SLOTS], shared with JS: elements the loop handed out, -1 once it ended */
  JSObjectRef array;   /* protected: the Float64Array over handed */
  int used, hi;        /* slots in use; slots at hi and above are free */
  bool quiet;          /* the next suspension is a tracked loop's own read (only JDK
                        * iterator code): the hook lets it pass, once */
  bool in_hook;
  jb_iter_slot slot[JB_ITER_SLOTS];
};

/* ---- method IDs and the wrappers' fields (process-wide, looked up once) -- */

static _Atomic(jmethodID) mid_start, mid_rewind, mid_replay;

static jmethodID bridge_mid(JNIEnv *env, _Atomic(jmethodID) *cache, const char *name, const char *sig) {
  jmethodID m = atomic_load_explicit(cache, memory_order_acquire);
  if (m) return m;
  m = (*env)->GetStaticMethodID(env, jb.Bridge, name, sig);
  if (m) atomic_store_explicit(cache, m, memory_order_release);
  return m;
}

/* Collections' unmodifiable and synchronized wrappers and the field
 * holding what each wraps. */
static const struct { const char *cls, *field, *sig; } kWrappers[] = {
  {"java/util/Collections$UnmodifiableCollection", "c", "Ljava/util/Collection;"},
  {"java/util/Collections$UnmodifiableMap", "m", "Ljava/util/Map;"},
  {"java/util/Collections$SynchronizedCollection", "c", "Ljava/util/Collection;"},
  {"java/util/Collections$SynchronizedMap", "m", "Ljava/util/Map;"},
};
#define NWRAPPERS (sizeof kWrappers / sizeof kWrappers[0])
static struct { jclass cls; jfieldID field; } wrappers[NWRAPPERS];
static pthread_once_t wrappers_once = PTHREAD_ONCE_INIT;
static jclass list_iterator_cls;   /* java.util.ListIterator */

static void load_wrappers(void) {
  JNIEnv *env = strait__env();
  jclass li = (*env)->FindClass(env, "java/util/ListIterator");
  if (li) {
    list_iterator_cls = (*env)->NewGlobalRef(env, li);
    (*env)->DeleteLocalRef(env, li);
  }
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  for (size_t i = 0; i < NWRAPPERS; i++) {
    jclass c = (*env)->FindClass(env, kWrappers[i].cls);
    jfieldID f = c ? (*env)->GetFieldID(env, c, kWrappers[i].field, kWrappers[i].sig) : NULL;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);   /* another JDK: not unwrapped */
    if (c && f) {
      wrappers[i].cls = (*env)->NewGlobalRef(env, c);
      wrappers[i].field = f;
    }
    if (c) (*env)->DeleteLocalRef(env, c);
  }
}

/* obj without the unmodifiable and synchronized wrappers of Collections
 * around it (JNI reads their private fields as it reads any field): what
 * decides how a loop reads it (Bridge.iterStart). A new local ref. */
static jobject unwrapped(JNIEnv *env, jobject obj) {
  pthread_once(&wrappers_once, load_wrappers);
  jobject cur = (*env)->NewLocalRef(env, obj);
  for (int depth = 0; cur && depth < 16; depth++) {
    jobject inner = NULL;
    for (size_t i = 0; i < NWRAPPERS && !inner; i++)
      if (wrappers[i].cls && (*env)->IsInstanceOf(env, cur, wrappers[i].cls))
        inner = (*env)->GetObjectField(env, cur, wrappers[i].field);
    if (!inner) break;
    (*env)->DeleteLocalRef(env, cur);
    cur = inner;
  }
  return cur;
}

/* ---- slots ----------------------------------------------------------------- */

static void slot_free(JNIEnv *env, jb_rt *b, int i) {
  jb_iters *s = b->iters;
  jb_iter_slot *t = &s->slot[i];
  if (!t->it) return;
  (*env)->DeleteGlobalRef(env, t->it);
  if (t->source) (*env)->DeleteGlobalRef(env, t->source);
  if (t->failure) (*env)->DeleteGlobalRef(env, t->failure);
  if (t->owner) JSWeakRelease(JSContextGetGroup(b->ctx), t->owner);
  memset(t, 0, sizeof *t);
  s->handed[i] = 0;
  s->used--;
  while (s->hi > 0 && !s->slot[s->hi - 1].it) s->hi--;
}

/* Frees the slots of loops that ended (handed -1), and with all, those
 * whose JS iterator was collected (a loop left half read). */
static void slots_reclaim(JNIEnv *env, jb_rt *b, bool all) {
  jb_iters *s = b->iters;
  for (int i = s->hi - 1; i >= 0; i--) {
    jb_iter_slot *t = &s->slot[i];
    if (t->it && (s->handed[i] < 0 || (all && !JSWeakGetObject(t->owner)))) slot_free(env, b, i);
  }
}

/* Puts slot t's iterator back after the h elements JS handed out (t took
 * more). False with a Java exception pending when it could not. */
static bool slot_sync(JNIEnv *env, jb_iter_slot *t, double h) {
  if (!(h >= 0 && h < t->fetched)) return true;
  if (t->rewind) {
    jmethodID m = bridge_mid(env, &mid_rewind, "iterRewind", "(Ljava/util/ListIterator;I)V");
    if (!m) return false;
    (*env)->CallStaticVoidMethod(env, jb.Bridge, m, t->it, (jint)(t->fetched - h));
    if ((*env)->ExceptionCheck(env)) return false;
  } else {
    jmethodID m = bridge_mid(env, &mid_replay, "iterReplay", "(Ljava/lang/Object;I)Ljava/util/Iterator;");
    jobject it = m ? (*env)->CallStaticObjectMethod(env, jb.Bridge, m, t->source, (jint)h) : NULL;
    if ((*env)->ExceptionCheck(env) || !it) {
      if (it) (*env)->DeleteLocalRef(env, it);
      return false;
    }
    jobject g = (*env)->NewGlobalRef(env, it);
    (*env)->DeleteLocalRef(env, it);
    if (!g) return false;
    (*env)->DeleteGlobalRef(env, t->it);
    t->it = g;
  }
  t->fetched = h;
  return true;
}

/* The release hook: other code may run next. Every loop read ahead is put
 * back where its JS is; a failure is kept and thrown at its next read. */
static void release_hook(strait_runtime *rt, void *ud) {
  jb_rt *b = ud;
  jb_iters *s = b->iters;
  if (!s || s->used == 0 || s->in_hook) return;   /* used > 0: handed exists */
  /* the suspension around a tracked loop's own read (only JDK iterator
   * code runs there): once; from then on other threads may enter */
  if (s->quiet) {
    s->quiet = false;
    return;
  }
  /* the common case, at every Java call: nothing read ahead (no JNI) */
  bool ahead = false;
  for (int i = 0; i < s->hi; i++) {
    jb_iter_slot *t = &s->slot[i];
    double h = s->handed[i];
    if (!t->it || h < 0) continue;
    t->dirty = true;
    if (h != t->fetched && !t->failure) ahead = true;
  }
  if (!ahead) return;
  s->in_hook = true;
  JNIEnv *env = strait__env();
  jthrowable pending = (*env)->ExceptionOccurred(env);
  if (pending) (*env)->ExceptionClear(env);
  for (int i = 0; i < s->hi; i++) {
    jb_iter_slot *t = &s->slot[i];
    double h = s->handed[i];
    if (!t->it || h < 0 || h == t->fetched || t->failure) continue;
    if (!slot_sync(env, t, h)) {
      jthrowable why = (*env)->ExceptionOccurred(env);
      (*env)->ExceptionClear(env);
      if (why) {
        t->failure = (*env)->NewGlobalRef(env, why);
        (*env)->DeleteLocalRef(env, why);
      }
    }
  }
  if (pending) {
    (*env)->Throw(env, pending);
    (*env)->DeleteLocalRef(env, pending);
  }
  s->in_hook = false;
}

static void free_handed(void *bytes, void *ctx) {
  (void)ctx;
  free(bytes);
}

/* b's iteration state, made on first use (with the hook registered), or
 * NULL when out of memory. */
static jb_iters *iters_of(jb_rt *b, JSContextRef ctx) {
  if (b->iters && b->iters->array) return b->iters;
  jb_iters *s = b->iters ? b->iters : calloc(1, sizeof *s);
  double *h = s ? calloc(JB_ITER_SLOTS, sizeof *h) : NULL;
  JSObjectRef a = h ? JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeFloat64Array, h,
                                                            JB_ITER_SLOTS * sizeof *h, free_handed, NULL, NULL)
                    : NULL;
  if (!a) {
    free(h);
    if (s != b->iters) free(s);
    return NULL;
  }
  JSValueProtect(ctx, a);
  s->handed = h;
  s->array = a;
  b->iters = s;
  strait_set_release_hook(b->rt, release_hook, b);
  return s;
}

/* b's array *at of n slots (a global ref), made on first use. */
static jobjectArray array_of(JNIEnv *env, jb_rt *b, jobjectArray *at, jsize n) {
  if (!*at) {
    jobjectArray a = (*env)->NewObjectArray(env, n, strait__jc.Object, NULL);
    *at = a ? (*env)->NewGlobalRef(env, a) : NULL;
    if (a) (*env)->DeleteLocalRef(env, a);
  }
  return *at;
}

/* b's state, made without the shared counts (a loop not tracked), or NULL. */
static jb_iters *iters_plain(jb_rt *b) {
  if (!b->iters) b->iters = calloc(1, sizeof *b->iters);
  return b->iters;
}

jobjectArray jb_iter_pair_array(JNIEnv *env, jb_rt *b) {
  jb_iters *s = iters_plain(b);
  return s ? array_of(env, b, &s->pair, 3) : NULL;
}


void jb_iters_free(JNIEnv *env, jb_rt *b) {
  jb_iters *s = b->iters;
  if (!s) return;
  if (s->pair) (*env)->DeleteGlobalRef(env, s->pair);
  if (s->array) strait_set_release_hook(b->rt, NULL, NULL);
  for (int i = s->hi - 1; i >= 0; i--) slot_free(env, b, i);
  s->handed = NULL;                 /* freed with the array, once collected */
  if (s->array) JSValueUnprotect(b->ctx, s->array);
  b->iters = NULL;
  free(s);
}

/* ---- the natives of the helper's iterate() --------------------------------- */

/* The first half of iterStart(obj, loop) (call/js_callbacks.c): what the
 * upcall Bridge.iterStart(obj, p->inner, p->out) needs. False with *exc
 * set. */
bool jb_iter_prepare(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *cls, jobject obj, jb_iter_prep *p,
                     JSValueRef *exc) {
  p->mid = bridge_mid(env, &mid_start, "iterStart", "(Ljava/lang/Object;Ljava/lang/Object;[Ljava/lang/Object;)I");
  pthread_once(&wrappers_once, load_wrappers);
  /* only Collections' own classes wrap (cls is obj's exact class) */
  p->inner = !p->mid ? NULL
             : strncmp(cls->name, "java.util.Collections$", 22) == 0 ? unwrapped(env, obj)
                                                                     : (*env)->NewLocalRef(env, obj);
  /* a new array per call: while the upcall runs the gate is suspended, and
   * another thread may start a loop in this runtime meanwhile */
  p->out = p->inner ? (*env)->NewObjectArray(env, 1, strait__jc.Object, NULL) : NULL;
  if (p->out) return true;
  if (p->inner) (*env)->DeleteLocalRef(env, p->inner);
  if ((*env)->ExceptionCheck(env)) jb_throw_pending(env, b, ctx, exc);
  else *exc = strait_make_error(ctx, "RangeError", "for...of of a Java object: out of memory");
  return false;
}

/* The second half, after the upcall returned kind: [the iterator (a
 * wrapper; undefined when tracked), its kind (JB_ITER_* bits), its slot (-1: not tracked), the
 * shared counts (handed) or undefined]. loop, the JS iterator object, frees
 * the slot once collected. Releases p's refs. */
JSValueRef jb_iter_started(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jb_iter_prep *p, jint kind,
                           JSObjectRef loop, JSValueRef *exc) {
  (*env)->DeleteLocalRef(env, p->inner);
  jobject it = (*env)->ExceptionCheck(env) ? NULL : (*env)->GetObjectArrayElement(env, p->out, 0);
  (*env)->DeleteLocalRef(env, p->out);
  if (!it) {
    if ((*env)->ExceptionCheck(env)) jb_throw_pending(env, b, ctx, exc);
    else *exc = strait_make_error(ctx, "TypeError", "Symbol.iterator of a Java object: no iterator");
    return NULL;
  }
  /* the release hook steps back only a ListIterator (Bridge.iterRewind's parameter) */
  if ((kind & JB_ITER_REWIND) && !(list_iterator_cls && (*env)->IsInstanceOf(env, it, list_iterator_cls)))
    kind = (kind & ~(JB_ITER_TRACK | JB_ITER_REWIND)) | JB_ITER_ONE;
  int slot = -1;
  jb_iters *s = (kind & JB_ITER_TRACK) && loop ? iters_of(b, ctx) : NULL;
  if (s) {
    /* ended loops at once; with many slots in use, those left half read
     * whose JS iterator was collected (they hold the collection) */
    slots_reclaim(env, b, s->used >= JB_ITER_SLOTS / 4);
    for (int i = 0; i < JB_ITER_SLOTS && slot < 0; i++)
      if (!s->slot[i].it) slot = i;
  }
  if (slot >= 0) {
    jb_iter_slot *t = &s->slot[slot];
    t->it = (*env)->NewGlobalRef(env, it);
    t->source = (*env)->NewGlobalRef(env, obj);
    t->owner = JSWeakCreate(JSContextGetGroup(b->ctx), loop);
    if (!t->it || !t->source || !t->owner) {
      if (t->it) (*env)->DeleteGlobalRef(env, t->it);
      if (t->source) (*env)->DeleteGlobalRef(env, t->source);
      if (t->owner) JSWeakRelease(JSContextGetGroup(b->ctx), t->owner);
      memset(t, 0, sizeof *t);
      slot = -1;
    } else {
      t->rewind = (kind & JB_ITER_REWIND) != 0;
      t->ep = *strait_crossings(b->rt);
      s->handed[slot] = 0;
      s->used++;
      if (slot >= s->hi) s->hi = slot + 1;
    }
  }
  /* no slot (all in use, out of memory): one element per crossing */
  if ((kind & JB_ITER_TRACK) && slot < 0) kind = (kind & ~(JB_ITER_TRACK | JB_ITER_REWIND)) | JB_ITER_ONE;
  JSValueRef st[4];
  /* a tracked loop's iterator is its slot's: JS needs no wrapper of it */
  st[0] = slot >= 0 ? JSValueMakeUndefined(ctx) : jb_wrap_given(env, b, ctx, it, exc);   /* the bridge made it */
  (*env)->DeleteLocalRef(env, it);
  if (!st[0]) return NULL;
  st[1] = JSValueMakeNumber(ctx, kind);
  st[2] = JSValueMakeNumber(ctx, slot);
  st[3] = slot >= 0 ? (JSValueRef)s->array : JSValueMakeUndefined(ctx);
  return JSObjectMakeArray(ctx, 4, st, exc);
}

/* Before a tracked loop's read (iterNext(it, max, pairs, slot)): its
 * iterator in *it, put back where JS is if the release hook could not
 * (the counter moved without it), and the most it may take in *max. False
 * with *exc set when the iterator could not be put back. */
bool jb_iter_before_read(JNIEnv *env, jb_rt *b, JSContextRef ctx, int *slotp, jobject *it, jint *max,
                         JSValueRef *exc) {
  jb_iters *s = b->iters;
  int slot = *slotp;
  if (!s || slot < 0 || slot >= s->hi || !s->slot[slot].it) {   /* not tracked (any more) */
    *slotp = -1;
    if (*it) return true;
    *exc = strait_make_error(ctx, "TypeError", "for...of of a Java object: the loop's iterator is gone");
    return false;
  }
  jb_iter_slot *t = &s->slot[slot];
  if (t->failure) {
    (*env)->Throw(env, t->failure);
    (*env)->DeleteGlobalRef(env, t->failure);
    t->failure = NULL;
    jb_throw_pending(env, b, ctx, exc);
    return false;
  }
  if (*strait_crossings(b->rt) != t->ep) t->dirty = true;
  double h = s->handed[slot];
  if (h >= 0 && h != t->fetched && !slot_sync(env, t, h)) {
    jb_throw_pending(env, b, ctx, exc);
    return false;
  }
  if (t->dirty && !t->rewind) *max = 1;
  *it = t->it;
  s->quiet = true;
  return true;
}

/* After it: n elements were taken. */
void jb_iter_after_read(jb_rt *b, int slot, jint n) {
  jb_iters *s = b->iters;
  if (!s) return;
  s->quiet = false;
  if (slot < 0 || slot >= s->hi || !s->slot[slot].it) return;
  s->slot[slot].fetched += n;
  s->slot[slot].ep = *strait_crossings(b->rt);
}

/*
 * class_meta.c - process-wide metadata of Java classes, by the dense
 * class index org.strait.internal.Bridge hands out (the seed's class-index cache).
 *
 * An entry is made the first time an index is seen (a global ref of the
 * class and its name) and described the first time the bridge needs its
 * members (one Bridge.describe() upcall: constructors, methods and fields
 * with their IDs and type codes, grouped by name and sorted for binary
 * search). Entries are shared by every runtime. Making the bare
 * entry and publishing a description take a process mutex; describing
 * (Java code: reflection, class loaders, the class's static initializer,
 * which may use the bridge again) runs outside it; reading takes none. A
 * description that fails (a throwing static initializer) publishes
 * nothing: the next use tries again and gets the JVM's
 * NoClassDefFoundError, as a JS error.
 *
 * Unloading. The entry of a class of the boot, platform, system or
 * strait's own loader lives as long as the process. A class that can be
 * unloaded (Bridge.collectable: a webapp's or plugin's loader, the adapter
 * loaders of Java.extend, hidden classes) is `weak`: the entry holds a weak
 * global ref, Bridge holds the class weakly, and every runtime that gets
 * the entry through jb_class_get with its context pins the class with a
 * global ref of its own (jb_rt.pins) until the runtime closes
 * (jb_class_unpin_all). Once the class is unloaded, Bridge's Cleaner calls
 * jb_class_gone, which unpublishes the entry and frees it, its members and
 * its overload caches: the one release path. Indexes are never reused; a
 * lookup of a freed index finds no entry and asks Bridge.classAt, which
 * answers null, so jb_class_get returns NULL (an error, never a stale
 * entry).
 *
 * Why no reader can be inside a freed entry: the JVM unloads a class only
 * once nothing reaches it, and every holder of a jb_class pointer or index
 * beyond one call either reaches the class or only compares the index:
 *   - a runtime's class objects, prototypes, bound functions, Java.extend
 *     constructors and catch-all helpers were made after jb_class_get with
 *     the runtime's context, so the runtime pins their class;
 *   - a wrapper entry (and a call's jb_arg) holds the Java object, whose
 *     class is its class;
 *   - indexes inside another entry (super, element, declaring, result and
 *     parameter classes) name classes its own class links to, which the
 *     JVM keeps loaded while it is (the same or a parent or dependency
 *     loader);
 *   - the overload caches' keys and the policy's verdicts by index are
 *     compared or read by index, never dereferenced as entries;
 *   - a call that gets an index from a Class object (jb_class_index) holds
 *     that Class while it uses the entry.
 */
#include "model/model.h"
#include "value/value.h"

#include "base/interop_ids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 1024
#define NCHUNKS 4096

static pthread_mutex_t cls_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(jb_class *) *chunks[NCHUNKS];

/* Java String -> malloc'd UTF-8 via UTF-16 (never modified UTF-8). */
static char *utf8_of(JNIEnv *env, jstring s) {
  JSStringRef js = strait__jsstring_from_java(env, s);
  if (!js) return strdup("");
  char *r = strait_utf8_from_jsstring(js, NULL);
  JSStringRelease(js);
  return r ? r : strdup("");
}

/* The entry of index if made, without locking. Any thread. */
static jb_class *lookup(int index) {
  if (index < 0 || index >= CHUNK * NCHUNKS) return NULL;
  _Atomic(jb_class *) *c = __atomic_load_n(&chunks[index / CHUNK], __ATOMIC_ACQUIRE);
  return c ? atomic_load_explicit(&c[index % CHUNK], memory_order_acquire) : NULL;
}

/* Class index of cls (upcall). -1 on failure (exception cleared). */
int jb_class_index(JNIEnv *env, jclass cls) {
  jint i = (*env)->CallStaticIntMethod(env, jb.Bridge, jb.Bridge_classIndex, cls);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return -1;
  }
  return i;
}

/* Bridge.isWeak(int): whether the class of an index is held weakly. Looked
 * up at the first entry made (under cls_mu). */
static jmethodID is_weak_mid;
static jmethodID bridge_is_weak(JNIEnv *env) {
  if (!is_weak_mid) is_weak_mid = (*env)->GetStaticMethodID(env, jb.Bridge, "isWeak", "(I)Z");
  return is_weak_mid;
}

/* Makes the bare entry of index (ref and name); NULL when there is none
 * (an unloaded class's index, or no memory). Under cls_mu. */
static jb_class *create(JNIEnv *env, int index) {
  int ci = index / CHUNK;
  if (!chunks[ci]) {
    _Atomic(jb_class *) *c = calloc(CHUNK, sizeof *c);
    if (!c) return NULL;
    __atomic_store_n(&chunks[ci], c, __ATOMIC_RELEASE);
  }
  jobject local = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_classAt, (jint)index);
  if (!local || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  jmethodID is_weak = bridge_is_weak(env);
  bool weak = is_weak && (*env)->CallStaticBooleanMethod(env, jb.Bridge, is_weak, (jint)index);
  if (!is_weak || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    (*env)->DeleteLocalRef(env, local);
    return NULL;
  }
  jb_class *k = calloc(1, sizeof *k);
  if (k) k->weak = weak;
  if (!k || !(k->ref = weak ? (*env)->NewWeakGlobalRef(env, local) : (*env)->NewGlobalRef(env, local))) {
    free(k);
    (*env)->DeleteLocalRef(env, local);
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    return NULL;
  }
  k->index = index;
  jstring nm = (*env)->CallObjectMethod(env, local, jb.Class_getName);
  (*env)->DeleteLocalRef(env, local);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  k->name = nm ? utf8_of(env, nm) : strdup("?");
  if (nm) (*env)->DeleteLocalRef(env, nm);
  k->super_index = -1;
  k->elem_cls = -1;
  atomic_store_explicit(&chunks[ci][index % CHUNK], k, memory_order_release);
  return k;
}

/* qsort order of members: instance before static, then by name. */
static int cmp_member(const void *a, const void *b) {
  const jb_member *x = *(jb_member *const *)a, *y = *(jb_member *const *)b;
  if (x->is_static != y->is_static) return x->is_static ? 1 : -1;
  return strcmp(x->name, y->name);
}

/* Frees a description d (see describe()) whose members array holds n
 * members: after a failure half-way, or one that lost the race to publish.
 * Leaves d empty. */
static void free_description(jb_class *d, jsize n) {
  if (d->members) {
    for (jsize i = 0; i < n; i++) {
      free(d->members[i].params);
      free(d->members[i].pcls);
      free(d->members[i].name);
      free(d->members[i].sig);
    }
  }
  free(d->members);
  free(d->ctors.m);
  free(d->fields);
  if (d->groups)
    for (int i = 0; i < d->ngroups; i++) free(d->groups[i].m);
  free(d->groups);
  memset(d, 0, sizeof *d);
}

/* Local ref of element i of the Object[] a, which must be an instance of
 * want (NULL: any non-null object); NULL with an exception pending or when
 * the element has the wrong type (then IllegalStateException is thrown
 * here, naming the slot). */
static jobject element(JNIEnv *env, jobjectArray a, jsize i, jclass want, const char *what) {
  jobject o = (*env)->GetObjectArrayElement(env, a, i);
  if ((*env)->ExceptionCheck(env)) return NULL;
  if (!o || (want && !(*env)->IsInstanceOf(env, o, want))) {
    if (o) (*env)->DeleteLocalRef(env, o);
    char m[96];
    snprintf(m, sizeof m, "Bridge.describe: bad %s", what);
    strait__throw(env, strait__jc.IllegalStateException, "%s", m);
    return NULL;
  }
  return o;
}

/*
 * Describes class k from Bridge.describe() into d (zeroed by the caller;
 * members name k as their owner), without cls_mu: the upcall runs Java
 * code (reflection, class loaders) and FromReflectedMethod/Field run the
 * class's static initializer, any of which may call back into JS and so
 * into jb_class_get. Every JNI call is checked: a throwing static
 * initializer surfaces here (ExceptionInInitializerError the first time,
 * NoClassDefFoundError afterwards). Returns 0, or STRAIT_EJAVA with the
 * Java exception left pending and d left empty (nothing half-built stays,
 * so no NULL member ID is ever handed out). Inside a runtime.
 */
static int describe(JNIEnv *env, jb_class *k, jb_class *d_out) {
  jb_class *dd = d_out;
  jobjectArray d = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_describe, k->ref);
  if ((*env)->ExceptionCheck(env)) return STRAIT_EJAVA;
  if (!d) {
    strait__throw(env, strait__jc.IllegalStateException, "Bridge.describe returned null");
    return STRAIT_EJAVA;
  }
  jintArray header = NULL, classes = NULL, factsa = NULL;
  jint *facts = NULL;
  jobjectArray members = NULL, names = NULL, sigs = NULL;
  jstring codes = NULL;
  jint *cls = NULL;
  char *code = NULL;
  jb_member **sorted = NULL;
  jsize n = 0, nc = 0;
  int rc = STRAIT_EJAVA;
  if (!(header = element(env, d, 0, NULL, "header")) ||
      !(members = element(env, d, 1, NULL, "members")) ||
      !(names = element(env, d, 2, NULL, "names")) ||
      !(codes = element(env, d, 3, strait__jc.String, "codes")) ||
      !(classes = element(env, d, 4, NULL, "classes")) ||
      !(sigs = element(env, d, 5, NULL, "signatures")) ||
      !(factsa = element(env, d, 6, NULL, "facts")))
    goto out;
  jint h[5];
  (*env)->GetIntArrayRegion(env, header, 0, 5, h);
  if ((*env)->ExceptionCheck(env)) goto out;
  n = (*env)->GetArrayLength(env, members);
  nc = (*env)->GetArrayLength(env, classes);
  if ((*env)->GetArrayLength(env, names) < n || (*env)->GetArrayLength(env, sigs) < n ||
      (*env)->GetArrayLength(env, factsa) < n) {
    strait__throw(env, strait__jc.IllegalStateException, "Bridge.describe: short arrays");
    goto out;
  }
  rc = STRAIT_ENOMEM;
  cls = malloc(sizeof(jint) * (size_t)(nc + 1));
  code = utf8_of(env, codes);
  dd->members = calloc((size_t)n + 1, sizeof(jb_member));
  sorted = calloc((size_t)n + 1, sizeof *sorted);
  facts = malloc(sizeof(jint) * (size_t)(n + 1));
  if (!cls || !code || !dd->members || !sorted || !facts) goto out;
  rc = STRAIT_EJAVA;
  (*env)->GetIntArrayRegion(env, classes, 0, nc, cls);
  if ((*env)->ExceptionCheck(env)) goto out;
  (*env)->GetIntArrayRegion(env, factsa, 0, n, facts);
  if ((*env)->ExceptionCheck(env)) goto out;
  const char *p = code;
  int ci = 0, nsorted = 0, nfields = 0, nctors = 0;
  for (jsize i = 0; i < n; i++) {
    jb_member *m = &dd->members[i];
    const char *end = strchr(p, ';');
    if (!end) end = p + strlen(p);
    int np = (int)(end - p) - 5;
    if (np < 0 || ci + 1 + np > nc) {
      strait__throw(env, strait__jc.IllegalStateException, "Bridge.describe: bad type codes");
      goto out;
    }
    m->owner = k;
    m->pol = (unsigned char)(facts[i] & 0xff);
    m->decl_cls = facts[i] >> 8;
    m->kind = p[0];
    m->is_static = p[1] == 's';
    m->is_final = p[2] == 'F';
    m->varargs = p[2] == 'V';
    atomic_init(&m->cs, p[3] == '?' ? JB_CS_UNKNOWN : JB_CS_NO);
    m->ret = p[4];
    m->ret_cls = cls[ci++];
    m->nparams = np;
    m->params = malloc((size_t)m->nparams + 1);
    m->pcls = malloc(sizeof(int) * (size_t)(m->nparams + 1));
    if (!m->params || !m->pcls) { rc = STRAIT_ENOMEM; goto out; }
    memcpy(m->params, p + 5, (size_t)m->nparams);
    m->params[m->nparams] = 0;
    for (int j = 0; j < m->nparams; j++) m->pcls[j] = cls[ci++];
    p = *end ? end + 1 : end;
    jobject mo = element(env, members, i, NULL, "member");
    if (!mo) goto out;
    /* these initialize the class: a throwing static initializer ends here */
    if (m->kind == 'f') m->fid = (*env)->FromReflectedField(env, mo);
    else m->mid = (*env)->FromReflectedMethod(env, mo);
    (*env)->DeleteLocalRef(env, mo);
    if ((*env)->ExceptionCheck(env)) goto out;
    if (m->kind == 'f' ? !m->fid : !m->mid) {
      strait__throw(env, strait__jc.IllegalStateException, "Bridge.describe: a member has no JNI ID");
      goto out;
    }
    jstring nm = element(env, names, i, strait__jc.String, "name");
    if (!nm) goto out;
    m->name = utf8_of(env, nm);
    (*env)->DeleteLocalRef(env, nm);
    jstring sg = element(env, sigs, i, strait__jc.String, "signature");
    if (!sg) goto out;
    m->sig = utf8_of(env, sg);
    (*env)->DeleteLocalRef(env, sg);
    if (!m->name || !m->sig) { rc = STRAIT_ENOMEM; goto out; }
    if (m->kind == 'f') nfields++;
    else if (m->kind == 'c') nctors++;
    else sorted[nsorted++] = m;
  }
  dd->super_index = h[0];
  dd->flags = h[1];
  dd->elem = (char)h[2];
  dd->elem_cls = h[3];
  dd->self_code = (char)h[4];
  /* constructors */
  dd->ctors.cls = k;
  dd->ctors.name = "<init>";
  dd->ctors.m = calloc((size_t)nctors + 1, sizeof(jb_member *));
  dd->fields = calloc((size_t)nfields + 1, sizeof(jb_member *));
  dd->groups = calloc((size_t)nsorted + 1, sizeof(jb_group));
  if (!dd->ctors.m || !dd->fields || !dd->groups) {
    rc = STRAIT_ENOMEM;
    goto out;
  }
  for (jsize i = 0; i < n; i++)
    if (dd->members[i].kind == 'c') dd->ctors.m[dd->ctors.n++] = &dd->members[i];
  /* fields, sorted by (static, name) */
  for (jsize i = 0; i < n; i++)
    if (dd->members[i].kind == 'f') dd->fields[dd->nfields++] = &dd->members[i];
  qsort(dd->fields, (size_t)dd->nfields, sizeof *dd->fields, cmp_member);
  /* method groups, sorted by (static, name) */
  qsort(sorted, (size_t)nsorted, sizeof *sorted, cmp_member);
  for (int i = 0; i < nsorted;) {
    int j = i;
    while (j < nsorted && sorted[j]->is_static == sorted[i]->is_static &&
           strcmp(sorted[j]->name, sorted[i]->name) == 0)
      j++;
    jb_group *g = &dd->groups[dd->ngroups++];
    g->cls = k;
    g->name = sorted[i]->name;
    g->is_static = sorted[i]->is_static;
    g->n = j - i;
    g->m = malloc(sizeof(jb_member *) * (size_t)g->n);
    if (!g->m) {
      rc = STRAIT_ENOMEM;
      goto out;
    }
    memcpy(g->m, &sorted[i], sizeof(jb_member *) * (size_t)g->n);
    i = j;
  }
  dd->nmembers = n;
  rc = 0;
out:
  if (rc) {
    if (rc == STRAIT_ENOMEM && !(*env)->ExceptionCheck(env))
      strait__throw(env, strait__jc.OutOfMemoryError, "describing a Java class");
    free_description(dd, n);
    rc = STRAIT_EJAVA;
  }
  free(cls);
  free(code);
  free(sorted);
  free(facts);
  if (factsa) (*env)->DeleteLocalRef(env, factsa);
  if (header) (*env)->DeleteLocalRef(env, header);
  if (members) (*env)->DeleteLocalRef(env, members);
  if (names) (*env)->DeleteLocalRef(env, names);
  if (codes) (*env)->DeleteLocalRef(env, codes);
  if (classes) (*env)->DeleteLocalRef(env, classes);
  if (sigs) (*env)->DeleteLocalRef(env, sigs);
  (*env)->DeleteLocalRef(env, d);
  return rc;
}

/* Text of a Throwable: its toString(), or its class name when that throws.
 * malloc'd UTF-8, or NULL. Clears what it raises. */
static char *throwable_text(JNIEnv *env, jthrowable t) {
  jstring s = (*env)->CallObjectMethod(env, t, strait__hc.Throwable_toString);
  if ((*env)->ExceptionCheck(env) || !s) {
    (*env)->ExceptionClear(env);
    jclass c = (*env)->GetObjectClass(env, t);
    s = c ? (*env)->CallObjectMethod(env, c, jb.Class_getName) : NULL;
    if (c) (*env)->DeleteLocalRef(env, c);
    if ((*env)->ExceptionCheck(env) || !s) {
      (*env)->ExceptionClear(env);
      return NULL;
    }
  }
  char *r = utf8_of(env, s);
  (*env)->DeleteLocalRef(env, s);
  return r;
}

/*
 * Turns the Java exception pending after a failed describe of k into a JS
 * Error naming the class and the cause chain, e.g. "cannot use Java class
 * X: java.lang.ExceptionInInitializerError (caused by
 * java.lang.IllegalStateException: boom)", with the Throwable as its
 * `javaException`; clears the Java exception. Without ctx/exc only clears.
 * Inside a runtime, not under cls_mu.
 */
static void class_error(JNIEnv *env, JSContextRef ctx, const char *name, JSValueRef *exc) {
  jthrowable t = (*env)->ExceptionOccurred(env);
  (*env)->ExceptionClear(env);
  if (!ctx || !exc) {
    if (t) (*env)->DeleteLocalRef(env, t);
    return;
  }
  char buf[1024];
  size_t len = (size_t)snprintf(buf, sizeof buf, "cannot use Java class %s", name ? name : "(unknown)");
  jthrowable c = t ? (jthrowable)(*env)->NewLocalRef(env, t) : NULL;
  for (int depth = 0; c && depth < 4 && len < sizeof buf; depth++) {
    char *txt = throwable_text(env, c);
    len += (size_t)snprintf(buf + len, sizeof buf - len, depth == 0 ? ": %s" : " (caused by %s)",
                            txt ? txt : "a Java exception");
    free(txt);
    jthrowable next = (*env)->CallObjectMethod(env, c, strait__hc.Throwable_getCause);
    if ((*env)->ExceptionCheck(env)) {
      (*env)->ExceptionClear(env);
      next = NULL;
    }
    if (next && (*env)->IsSameObject(env, next, c)) {
      (*env)->DeleteLocalRef(env, next);
      next = NULL;
    }
    (*env)->DeleteLocalRef(env, c);
    c = next;
  }
  if (c) (*env)->DeleteLocalRef(env, c);
  JSValueRef err = strait_make_error(ctx, "Error", "%s", buf);
  jb_rt *b = t && JSValueIsObject(ctx, err) ? jb_rt_of(ctx) : NULL;
  if (b) {
    JSValueRef ignored = NULL;
    JSValueRef jw = jb_wrap(env, b, ctx, t, &ignored);
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    if (jw) {
      JSStringRef k = JSStringCreateWithUTF8CString("javaException");
      JSObjectSetProperty(ctx, (JSObjectRef)err, k, jw, kJSPropertyAttributeDontEnum, NULL);
      JSStringRelease(k);
    }
  }
  if (t) (*env)->DeleteLocalRef(env, t);
  *exc = err;
}

/* ---- pins: the weak classes a runtime uses stay loaded while it lives ---- */

static inline uint32_t pin_hash(int index, uint32_t cap) { return ((uint32_t)index * 2654435761u) & (cap - 1); }

/* True when b pins class index already. Inside b's gate. */
static bool pinned(const jb_rt *b, int index) {
  if (!b->cappins) return false;
  for (uint32_t i = pin_hash(index, b->cappins);; i = (i + 1) & (b->cappins - 1)) {
    if (!b->pins[i].ref) return false;
    if (b->pins[i].index == index) return true;
  }
}

/* Pins the weak class k in the runtime of ctx (when ctx has the bridge):
 * a global ref of the class, kept until the runtime closes. False when the
 * class is gone (its weak ref is cleared: never for a class the caller
 * reaches) or there is no memory; true otherwise. Inside ctx's gate. */
static bool pin(JNIEnv *env, JSContextRef ctx, jb_class *k) {
  jb_rt *b = ctx ? jb_rt_fast(ctx) : NULL;
  if (!b || pinned(b, k->index)) return true;
  if ((b->npins + 1) * 4 > b->cappins * 3) {
    uint32_t cap = b->cappins ? b->cappins * 2 : 16;
    struct jb_pin *t = calloc(cap, sizeof *t);
    if (!t) return false;
    for (uint32_t i = 0; i < b->cappins; i++) {
      if (!b->pins[i].ref) continue;
      uint32_t j = pin_hash(b->pins[i].index, cap);
      while (t[j].ref) j = (j + 1) & (cap - 1);
      t[j] = b->pins[i];
    }
    free(b->pins);
    b->pins = t;
    b->cappins = cap;
  }
  jobject g = (*env)->NewGlobalRef(env, k->ref);
  if (!g) {
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    return false;
  }
  uint32_t j = pin_hash(k->index, b->cappins);
  while (b->pins[j].ref) j = (j + 1) & (b->cappins - 1);
  b->pins[j].index = k->index;
  b->pins[j].ref = g;
  b->npins++;
  return true;
}

/* See model/model.h. */
void jb_class_unpin_all(JNIEnv *env, jb_rt *b) {
  for (uint32_t i = 0; i < b->cappins; i++)
    if (b->pins[i].ref) (*env)->DeleteGlobalRef(env, b->pins[i].ref);
  free(b->pins);
  b->pins = NULL;
  b->npins = b->cappins = 0;
}

/* Frees the overload cache of g. */
static void free_cache(jb_group *g) {
  jb_choice *c = atomic_load(&g->cache);
  while (c) {
    jb_choice *next = c->next;
    free(c);
    c = next;
  }
  atomic_store(&g->cache, NULL);
}

/* Natives.classGone(index), from Bridge's Cleaner once the weak class of
 * index is unloaded: unpublishes and frees its entry (see the file
 * comment). Nothing is freed while the weak ref still answers (it cannot,
 * after the Cleaner ran; then the entry just stays). Any Java thread. */
void JNICALL jb_class_gone(JNIEnv *env, jclass unused, jint index) {
  pthread_mutex_lock(&cls_mu);
  jb_class *k = lookup(index);
  if (!k || !k->weak || !(*env)->IsSameObject(env, k->ref, NULL)) {
    pthread_mutex_unlock(&cls_mu);
    return;
  }
  atomic_store_explicit(&chunks[index / CHUNK][index % CHUNK], NULL, memory_order_release);
  pthread_mutex_unlock(&cls_mu);
  jobject ref = k->ref;
  char *name = k->name;
  if (atomic_load(&k->described)) {
    free_cache(&k->ctors);
    for (int i = 0; i < k->ngroups; i++) free_cache(&k->groups[i]);
    free_description(k, k->nmembers);
  }
  free(name);
  (*env)->DeleteWeakGlobalRef(env, ref);
  free(k);
}

/* The metadata of index; see model/model.h. ctx/exc may be NULL (no JS error
 * is made then). The bare entry is made under cls_mu (one upcall, no user
 * code); the description is built outside it (see describe()) and
 * published under it, so two threads may both describe a class once and
 * the second copy is dropped. A weak class is pinned in ctx's runtime
 * first (see the file comment). Any thread inside a runtime. */
jb_class *jb_class_get(JNIEnv *env, JSContextRef ctx, int index, bool want_members, JSValueRef *exc) {
  jb_class *k = lookup(index);
  if (k && !k->weak && (!want_members || atomic_load_explicit(&k->described, memory_order_acquire))) return k;
  if (!k) {
    pthread_mutex_lock(&cls_mu);
    k = lookup(index);
    if (!k) k = create(env, index);
    pthread_mutex_unlock(&cls_mu);
  }
  /* a weak class's entry is not read before it is pinned */
  if (!k || (k->weak && !pin(env, ctx, k))) {
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    if (ctx && exc) *exc = strait_make_error(ctx, "Error", "no Java class with index %d (never made, or unloaded)", index);
    return NULL;
  }
  if (!want_members || atomic_load_explicit(&k->described, memory_order_acquire)) return k;
  jb_class d;
  memset(&d, 0, sizeof d);
  if (describe(env, k, &d)) {
    class_error(env, ctx, k->name, exc);
    return NULL;
  }
  pthread_mutex_lock(&cls_mu);
  bool won = !atomic_load(&k->described);
  if (won) {
    k->super_index = d.super_index;
    k->flags = d.flags;
    k->elem = d.elem;
    k->elem_cls = d.elem_cls;
    k->self_code = d.self_code;
    k->ctors = d.ctors;   /* .cache is NULL in a fresh description */
    k->ngroups = d.ngroups;
    k->groups = d.groups;
    k->nfields = d.nfields;
    k->fields = d.fields;
    k->nmembers = d.nmembers;
    k->members = d.members;
    atomic_store_explicit(&k->described, 1, memory_order_release);
  }
  pthread_mutex_unlock(&cls_mu);
  if (!won) free_description(&d, d.nmembers);
  return k;
}

/* Binary search of a sorted (static, name) array of n member pointers or
 * groups. */
jb_group *jb_group_find(jb_class *cls, const char *name, size_t len, bool is_static) {
  int lo = 0, hi = cls->ngroups - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    jb_group *g = &cls->groups[mid];
    int c;
    if (g->is_static != is_static) c = g->is_static ? 1 : -1;
    else {
      c = strncmp(g->name, name, len);
      if (c == 0 && g->name[len]) c = 1;
    }
    if (c == 0) return g;
    if (c < 0) lo = mid + 1; else hi = mid - 1;
  }
  return NULL;
}

/* Field `name` of cls (static or instance), by binary search. */
jb_member *jb_field_find(jb_class *cls, const char *name, size_t len, bool is_static) {
  int lo = 0, hi = cls->nfields - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    jb_member *f = cls->fields[mid];
    int c;
    if (f->is_static != is_static) c = f->is_static ? 1 : -1;
    else {
      c = strncmp(f->name, name, len);
      if (c == 0 && f->name[len]) c = 1;
    }
    if (c == 0) return f;
    if (c < 0) lo = mid + 1; else hi = mid - 1;
  }
  return NULL;
}

/* True when sub is assignable to sup. Any thread inside a runtime. */
bool jb_assignable(JNIEnv *env, jb_class *sub, jb_class *sup) {
  if (sub == sup) return true;
  return (*env)->IsAssignableFrom(env, sub->ref, sup->ref);
}

/* The one member of cls named by key "name(type,...)" (short type names
 * allowed, see jb_members_by_sig); NULL when none or more than one. */
jb_member *jb_member_by_sig(jb_class *cls, const char *key, size_t len, bool is_static) {
  jb_member *m[2];
  return jb_members_by_sig(cls, key, len, is_static, m, 2) == 1 ? m[0] : NULL;
}

/* ---- names for messages ---- */

/* Java source name of a class name for messages: "[I" -> "int[]",
 * "[[Ljava.lang.String;" -> "java.lang.String[][]"; other names as they
 * are. Returns buf or name; see model/model.h. Any thread. */
const char *jb_source_name(const char *name, char *buf, size_t n) {
  if (!name || name[0] != '[') return name;
  int dims = 0;
  while (name[dims] == '[') dims++;
  const char *e = name + dims, *base;
  size_t blen;
  switch (*e) {
  case 'Z': base = "boolean"; break; case 'B': base = "byte"; break; case 'C': base = "char"; break;
  case 'S': base = "short"; break; case 'I': base = "int"; break; case 'J': base = "long"; break;
  case 'F': base = "float"; break; case 'D': base = "double"; break;
  case 'L': base = NULL; break;
  default: return name;
  }
  if (base) blen = strlen(base);
  else {
    base = e + 1;
    const char *semi = strchr(base, ';');
    blen = semi ? (size_t)(semi - base) : strlen(base);
  }
  if (blen + 2 * (size_t)dims + 1 > n) return name;
  memcpy(buf, base, blen);
  for (int i = 0; i < dims; i++) { buf[blen + 2 * i] = '['; buf[blen + 2 * i + 1] = ']'; }
  buf[blen + 2 * (size_t)dims] = 0;
  return buf;
}

/* Java name of a type code for messages. Inside the gate. */
const char *jb_code_name(JNIEnv *env, JSContextRef ctx, char code, int pcls) {
  switch (code) {
  case 'V': return "void"; case 'Z': return "boolean"; case 'B': return "byte";
  case 'C': return "char"; case 'S': return "short"; case 'I': return "int";
  case 'J': return "long"; case 'F': return "float"; case 'D': return "double";
  case 'z': return "java.lang.Boolean"; case 'b': return "java.lang.Byte";
  case 'c': return "java.lang.Character"; case 's': return "java.lang.Short";
  case 'i': return "java.lang.Integer"; case 'j': return "java.lang.Long";
  case 'f': return "java.lang.Float"; case 'd': return "java.lang.Double";
  case 'T': return "java.lang.String"; case 'O': return "java.lang.Object";
  case 'N': return "java.lang.Number"; case 'G': return "java.math.BigInteger";
  default: break;
  }
  jb_class *c = pcls >= 0 ? jb_class_get(env, ctx, pcls, false, NULL) : NULL;
  return c ? c->name : "object";
}

/* ---- explicit signatures, short or full: C['(String,int)'] ---- */

/* One byte of a type name as signatures compare it: '$' (nested) as '.'. */
static inline char sig_char(char c) { return c == '$' ? '.' : c; }

/* True when the type written in a signature (w, wl bytes, trimmed)
 * names the declared parameter type decl (dl bytes, as
 * Class.getTypeName: "java.lang.String", "java.util.Map$Entry", "int[]"):
 * the whole name, or a tail of it that starts after a '.' or '$' ("String",
 * "Map.Entry", "Object[]"); '$' and '.' are the same; a trailing "..." is
 * "[]". Any thread. */
static bool sig_type_matches(const char *decl, size_t dl, const char *w, size_t wl) {
  char tmp[512];
  if (wl >= 3 && memcmp(w + wl - 3, "...", 3) == 0 && wl + 2 <= sizeof tmp) {
    memcpy(tmp, w, wl - 3);
    memcpy(tmp + wl - 3, "[]", 2);
    w = tmp;
    wl -= 1;
  }
  if (wl == 0 || wl > dl) return false;
  const char *tail = decl + dl - wl;
  if (wl < dl && tail[-1] != '.' && tail[-1] != '$') return false;
  for (size_t i = 0; i < wl; i++)
    if (sig_char(tail[i]) != sig_char(w[i])) return false;
  return true;
}

/* True when the parameter list of m (from its sig, "name(t1,t2)") is the
 * written list wp..wend (the text between the parentheses). Any thread. */
static bool sig_params_match(const jb_member *m, const char *wp, const char *wend) {
  const char *sp = strchr(m->sig, '(');
  if (!sp) return false;
  sp++;
  while (wp < wend && *wp == ' ') wp++;
  if (wp == wend) return m->nparams == 0;       /* "()" or "( )" */
  int np = 0;
  while (wp <= wend) {
    const char *wc = memchr(wp, ',', (size_t)(wend - wp));
    if (!wc) wc = wend;
    const char *ws = wp;
    size_t wl = (size_t)(wc - wp);
    while (wl && *ws == ' ') { ws++; wl--; }
    while (wl && ws[wl - 1] == ' ') wl--;
    if (!*sp || *sp == ')') return false;      /* more written than declared */
    const char *sc = strchr(sp, ',');
    const char *close = strchr(sp, ')');
    if (!sc || (close && close < sc)) sc = close;
    if (!sc) return false;
    if (!sig_type_matches(sp, (size_t)(sc - sp), ws, wl)) return false;
    np++;
    sp = *sc == ',' ? sc + 1 : sc;
    wp = wc + 1;
  }
  return np == m->nparams;
}

/* The candidates a signature key's name names: the static or instance
 * group of that name, or, on the static side, the constructors when the
 * name is "" ("(String)"), "new", or the class's full or simple name.
 * NULL when none. Any thread. */
jb_group *jb_sig_candidates(jb_class *cls, const char *key, size_t len, bool is_static) {
  const char *open = memchr(key, '(', len);
  if (!open) return NULL;
  size_t nlen = (size_t)(open - key);
  jb_group *g = jb_group_find(cls, key, nlen, is_static);
  if (g || !is_static) return g;
  if (nlen == 0 || (nlen == 3 && memcmp(key, "new", 3) == 0)) return &cls->ctors;
  size_t cl = strlen(cls->name);
  if (nlen <= cl && sig_type_matches(cls->name, cl, key, nlen)) return &cls->ctors;
  return NULL;
}

/* The members of cls a signature key "name(type,...)" names, short type
 * names allowed (see sig_type_matches): up to max of them in out; returns
 * how many match (0: none; more than 1: the key is ambiguous, e.g.
 * "(Date)" with java.util.Date and java.sql.Date overloads). Any thread. */
int jb_members_by_sig(jb_class *cls, const char *key, size_t len, bool is_static, jb_member **out, int max) {
  if (len < 2 || key[len - 1] != ')') return 0;
  jb_group *g = jb_sig_candidates(cls, key, len, is_static);
  if (!g) return 0;
  const char *open = memchr(key, '(', len);
  int n = 0;
  for (int i = 0; i < g->n; i++) {
    if (!sig_params_match(g->m[i], open + 1, key + len - 1)) continue;
    if (n < max) out[n] = g->m[i];
    n++;
  }
  return n;
}

/* The functional method group of cls; see model/model.h. Any thread inside
 * a runtime (two threads asking at once get the same answer). */
jb_group *jb_class_functional(JNIEnv *env, jb_class *cls) {
  uintptr_t v = atomic_load_explicit(&cls->fn_group, memory_order_acquire);
  if (v) return v == 1 ? NULL : (jb_group *)v;
  if (!atomic_load_explicit(&cls->described, memory_order_acquire)) return NULL;
  jb_group *g = NULL;
  if (!(cls->flags & (JB_IFACE | JB_ABSTRACT | JB_ARRAY | JB_PRIMITIVE))) {
    jthrowable pending = (*env)->ExceptionOccurred(env);
    if (pending) (*env)->ExceptionClear(env);
    jstring name = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_functionalName, cls->ref);
    bool failed = (*env)->ExceptionCheck(env);   /* out of memory: asked again next time */
    if (failed) {
      (*env)->ExceptionClear(env);
      name = NULL;
    }
    if (name) {
      const char *u = (*env)->GetStringUTFChars(env, name, NULL);
      if (u) {
        g = jb_group_find(cls, u, strlen(u), false);
        (*env)->ReleaseStringUTFChars(env, name, u);
      } else {
        (*env)->ExceptionClear(env);
        failed = true;
      }
      (*env)->DeleteLocalRef(env, name);
    }
    if (pending) {
      (*env)->Throw(env, pending);
      (*env)->DeleteLocalRef(env, pending);
    }
    if (failed) return NULL;
  }
  atomic_store_explicit(&cls->fn_group, g ? (uintptr_t)g : 1, memory_order_release);
  return g;
}

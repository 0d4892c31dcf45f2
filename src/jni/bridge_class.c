/*
 * bridge_class.c - process-wide metadata of Java classes, by the dense
 * class index org.strait.Bridge hands out (the seed's class-index cache).
 *
 * An entry is made the first time an index is seen (a global ref of the
 * class and its name) and described the first time the bridge needs its
 * members (one Bridge.describe() upcall: constructors, methods and fields
 * with their IDs and type codes, grouped by name and sorted for binary
 * search). Entries are never freed (they live as long as the process, like
 * the JVM's class IDs) and are shared by every runtime; building one takes
 * a process mutex, reading one does not.
 */
#include "bridge.h"

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
  char *r = strait__utf8_from_jsstring(js, NULL);
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

/* Makes the bare entry of index (ref and name). Under cls_mu. */
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
  jb_class *k = calloc(1, sizeof *k);
  if (!k) return NULL;
  k->index = index;
  k->ref = (*env)->NewGlobalRef(env, local);
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

/* Fills the members of k from Bridge.describe(). Under cls_mu. */
static int describe(JNIEnv *env, jb_class *k) {
  jobjectArray d = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_describe, k->ref);
  if (!d || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return STRAIT_EJAVA;
  }
  jintArray header = (*env)->GetObjectArrayElement(env, d, 0);
  jobjectArray members = (*env)->GetObjectArrayElement(env, d, 1);
  jobjectArray names = (*env)->GetObjectArrayElement(env, d, 2);
  jstring codes = (*env)->GetObjectArrayElement(env, d, 3);
  jintArray classes = (*env)->GetObjectArrayElement(env, d, 4);
  jobjectArray sigs = (*env)->GetObjectArrayElement(env, d, 5);
  jint h[5];
  (*env)->GetIntArrayRegion(env, header, 0, 5, h);
  k->super_index = h[0];
  k->flags = h[1];
  k->elem = (char)h[2];
  k->elem_cls = h[3];
  k->self_code = (char)h[4];
  jsize n = (*env)->GetArrayLength(env, members);
  jsize nc = (*env)->GetArrayLength(env, classes);
  jint *cls = malloc(sizeof(jint) * (size_t)(nc + 1));
  char *code = utf8_of(env, codes);
  k->members = calloc((size_t)n + 1, sizeof(jb_member));
  jb_member **sorted = calloc((size_t)n + 1, sizeof *sorted);
  if (!cls || !k->members || !sorted) {
    free(cls); free(code); free(sorted);
    return STRAIT_ENOMEM;
  }
  (*env)->GetIntArrayRegion(env, classes, 0, nc, cls);
  const char *p = code;
  int ci = 0, nsorted = 0, nfields = 0, nctors = 0;
  for (jsize i = 0; i < n; i++) {
    jb_member *m = &k->members[i];
    const char *end = strchr(p, ';');
    if (!end) end = p + strlen(p);
    m->owner = k;
    m->kind = p[0];
    m->is_static = p[1] == 's';
    m->is_final = p[2] == 'F';
    m->varargs = p[2] == 'V';
    m->ret = p[3];
    m->ret_cls = cls[ci++];
    m->nparams = (int)(end - p) - 4;
    m->params = malloc((size_t)m->nparams + 1);
    m->pcls = malloc(sizeof(int) * (size_t)(m->nparams + 1));
    memcpy(m->params, p + 4, (size_t)m->nparams);
    m->params[m->nparams] = 0;
    for (int j = 0; j < m->nparams; j++) m->pcls[j] = cls[ci++];
    p = *end ? end + 1 : end;
    jobject mo = (*env)->GetObjectArrayElement(env, members, i);
    if (m->kind == 'f') m->fid = (*env)->FromReflectedField(env, mo);
    else m->mid = (*env)->FromReflectedMethod(env, mo);
    (*env)->DeleteLocalRef(env, mo);
    jstring nm = (*env)->GetObjectArrayElement(env, names, i);
    m->name = utf8_of(env, nm);
    (*env)->DeleteLocalRef(env, nm);
    jstring sg = (*env)->GetObjectArrayElement(env, sigs, i);
    m->sig = utf8_of(env, sg);
    (*env)->DeleteLocalRef(env, sg);
    if (m->kind == 'f') nfields++;
    else if (m->kind == 'c') nctors++;
    else sorted[nsorted++] = m;
  }
  free(cls);
  free(code);
  /* constructors */
  k->ctors.cls = k;
  k->ctors.name = "<init>";
  k->ctors.m = calloc((size_t)nctors + 1, sizeof(jb_member *));
  for (jsize i = 0; i < n; i++)
    if (k->members[i].kind == 'c') k->ctors.m[k->ctors.n++] = &k->members[i];
  /* fields, sorted by (static, name) */
  k->fields = calloc((size_t)nfields + 1, sizeof(jb_member *));
  for (jsize i = 0; i < n; i++)
    if (k->members[i].kind == 'f') k->fields[k->nfields++] = &k->members[i];
  qsort(k->fields, (size_t)k->nfields, sizeof *k->fields, cmp_member);
  /* method groups, sorted by (static, name) */
  qsort(sorted, (size_t)nsorted, sizeof *sorted, cmp_member);
  k->groups = calloc((size_t)nsorted + 1, sizeof(jb_group));
  for (int i = 0; i < nsorted;) {
    int j = i;
    while (j < nsorted && sorted[j]->is_static == sorted[i]->is_static &&
           strcmp(sorted[j]->name, sorted[i]->name) == 0)
      j++;
    jb_group *g = &k->groups[k->ngroups++];
    g->cls = k;
    g->name = sorted[i]->name;
    g->is_static = sorted[i]->is_static;
    g->n = j - i;
    g->m = malloc(sizeof(jb_member *) * (size_t)g->n);
    memcpy(g->m, &sorted[i], sizeof(jb_member *) * (size_t)g->n);
    i = j;
  }
  free(sorted);
  (*env)->DeleteLocalRef(env, header);
  (*env)->DeleteLocalRef(env, members);
  (*env)->DeleteLocalRef(env, names);
  (*env)->DeleteLocalRef(env, codes);
  (*env)->DeleteLocalRef(env, classes);
  (*env)->DeleteLocalRef(env, sigs);
  (*env)->DeleteLocalRef(env, d);
  k->nmembers = n;
  return 0;
}

/* The metadata of index; see bridge.h. ctx/exc may be NULL (no JS error
 * is made then). Any thread inside a runtime. */
jb_class *jb_class_get(JNIEnv *env, JSContextRef ctx, int index, bool want_members, JSValueRef *exc) {
  jb_class *k = lookup(index);
  if (k && (!want_members || atomic_load_explicit(&k->described, memory_order_acquire))) return k;
  pthread_mutex_lock(&cls_mu);
  k = lookup(index);
  if (!k) k = create(env, index);
  int rc = 0;
  if (k && want_members && !atomic_load(&k->described)) {
    rc = describe(env, k);
    if (rc == 0) atomic_store_explicit(&k->described, 1, memory_order_release);
  }
  pthread_mutex_unlock(&cls_mu);
  if ((!k || rc) && ctx && exc)
    *exc = jb_error(ctx, "Error", "cannot read the members of Java class %s",
                    k ? k->name : "(unknown)");
  return k && rc == 0 ? k : NULL;
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

/* Compares one declared parameter type name with a name written in an
 * explicit signature: the full name or the simple name matches. */
static bool type_name_matches(const char *decl, const char *w, size_t wl) {
  size_t dl = strlen(decl);
  if (dl == wl && memcmp(decl, w, wl) == 0) return true;
  const char *simple = decl;
  for (const char *q = decl; *q; q++)
    if (*q == '.' || *q == '$') simple = q + 1;
  return strlen(simple) == wl && memcmp(simple, w, wl) == 0;
}

/* The member of cls named by key "name(type,...)"; NULL if none. */
jb_member *jb_member_by_sig(jb_class *cls, const char *key, size_t len, bool is_static) {
  const char *open = memchr(key, '(', len);
  if (!open || key[len - 1] != ')') return NULL;
  size_t nlen = (size_t)(open - key);
  jb_group *g = jb_group_find(cls, key, nlen, is_static);
  jb_group *cands = g;
  if (!g && !is_static) return NULL;
  if (!g) {
    /* constructors: "<ClassName>(...)" or "new(...)" */
    cands = &cls->ctors;
  }
  for (int i = 0; i < cands->n; i++) {
    jb_member *m = cands->m[i];
    const char *sp = strchr(m->sig, '(') + 1;
    const char *wp = open + 1;
    const char *wend = key + len - 1;
    bool ok = true;
    int np = 0;
    while (ok && wp < wend) {
      const char *wc = memchr(wp, ',', (size_t)(wend - wp));
      if (!wc) wc = wend;
      while (wp < wc && *wp == ' ') wp++;
      size_t wl = (size_t)(wc - wp);
      while (wl && wp[wl - 1] == ' ') wl--;
      const char *sc = strchr(sp, ',');
      if (!sc) sc = strchr(sp, ')');
      char decl[512];
      size_t dl = (size_t)(sc - sp);
      if (dl >= sizeof decl || !*sp || *sp == ')') { ok = false; break; }
      memcpy(decl, sp, dl);
      decl[dl] = 0;
      ok = type_name_matches(decl, wp, wl);
      np++;
      sp = *sc == ',' ? sc + 1 : sc;
      wp = wc + 1;
    }
    if (ok && np == m->nparams) return m;
  }
  return NULL;
}

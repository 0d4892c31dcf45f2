/*
 * js_to_java.c - JS -> Java calls: overload resolution (by arity, then by
 * the JS kinds of the arguments scored by conversion distance, cached per
 * group and argument-kind key), argument conversion into a jvalue array,
 * one Call<T>MethodA with the runtime's gate suspended around it (or, for
 * caller-sensitive members, a call through a Java frame: call_sensitive),
 * result conversion, and Java exceptions turned into JS errors.
 *
 * Everything here runs on the thread inside the runtime's gate; the gate is
 * released only while Java runs.
 */
#include "call/call.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STACK_ARGS 8

/* Lists the signatures of g into buf for messages. */
static void candidates(jb_group *g, char *buf, size_t n) {
  size_t o = 0;
  buf[0] = 0;
  for (int i = 0; i < g->n && o + 8 < n; i++) {
    int w = snprintf(buf + o, n - o, "%s%s", i ? ", " : "", g->m[i]->sig);
    if (w < 0) break;
    o += (size_t)w;
  }
}

/* Display name of a group ("java.lang.StringBuilder.append"). */
static void group_name(jb_group *g, char *buf, size_t n) {
  if (strcmp(g->name, "<init>") == 0) snprintf(buf, n, "new %s", g->cls->name);
  else snprintf(buf, n, "%s.%s", g->cls->name, g->name);
}

/* Total cost of calling m with args (JB_NO if not applicable). */
static long member_cost(JNIEnv *env, jb_member *m, const jb_arg *args, size_t argc, bool *as_varargs) {
  *as_varargs = false;
  long cost = 0;
  if ((size_t)m->nparams == argc) {
    for (size_t i = 0; i < argc; i++) {
      int c = jb_cost(env, &args[i], m->params[i], m->pcls[i]);
      if (c >= JB_NO) { cost = JB_NO; break; }
      cost += c;
    }
    if (cost < JB_NO) return cost;
  }
  if (!m->varargs || argc + 1 < (size_t)m->nparams) return JB_NO;
  /* varargs form: fixed params, then each extra against the component */
  int last = m->nparams - 1;
  jb_class *ac = jb_class_get(env, NULL, m->pcls[last], true, NULL);
  if (!ac) return JB_NO;
  cost = 100;
  for (size_t i = 0; i < argc; i++) {
    int c = (int)i < last ? jb_cost(env, &args[i], m->params[i], m->pcls[i])
                          : jb_cost(env, &args[i], ac->elem, ac->elem_cls);
    if (c >= JB_NO) return JB_NO;
    cost += c;
  }
  *as_varargs = true;
  return cost;
}

/* Key of the argument kinds (wrappers add their class index). */
static int make_key(const jb_arg *args, size_t argc, unsigned char *key, int cap) {
  int n = 0;
  key[n++] = (unsigned char)argc;
  for (size_t i = 0; i < argc && n + 5 < cap; i++) {
    key[n++] = (unsigned char)args[i].kind;
    if (args[i].kind == JK_WRAPPER || args[i].kind == JK_JARRAY) {
      int ci = args[i].cls->index;
      key[n++] = (unsigned char)ci;
      key[n++] = (unsigned char)(ci >> 8);
      key[n++] = (unsigned char)(ci >> 16);
    }
  }
  return n;
}

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

/* Lists the JS types of args ("string, java.util.ArrayList") into buf. */
static void arg_types(const jb_arg *args, size_t argc, char *buf, size_t n) {
  size_t o = 0;
  buf[0] = 0;
  for (size_t i = 0; i < argc && o + 8 < n; i++) {
    int w = snprintf(buf + o, n - o, "%s%s", i ? ", " : "", jb_arg_type_name(&args[i]));
    if (w < 0) break;
    o += (size_t)w;
  }
  if (o >= n) buf[n - 1] = 0;
}

/* Picks the overload of g for args; NULL with TypeError. The choice is
 * cached per argument-kind key (varargs choices are marked in the key). */
static bool convert_args(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *m, bool as_varargs,
                         const jb_arg *args, size_t argc, jvalue *jv, jb_locals *l, JSValueRef *exc);

/* When m, the only overload taking argc arguments, does not match: sets
 * *exc to the conversion error naming the argument, expected and actual
 * type (true), or returns false (the conversion went through after all;
 * the caller reports the group's message). Inside the gate. */
static bool describe_mismatch(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *m, const jb_arg *args,
                              size_t argc, JSValueRef *exc) {
  bool varargs = false;
  if (m->varargs) {
    int k = argc ? args[argc - 1].kind : JK_UNDEF;
    varargs = (size_t)m->nparams != argc || !(k == JK_ARRAY || k == JK_JARRAY || k == JK_NULL || k == JK_UNDEF);
  }
  jvalue *jv = malloc(sizeof(jvalue) * (size_t)(m->nparams + 1));
  if (!jv) return false;
  jb_locals l;
  l.n = 0; l.more = NULL; l.nmore = l.capmore = 0;
  JSValueRef e = NULL;
  bool ok = convert_args(env, b, ctx, m, varargs, args, argc, jv, &l, &e);
  jb_locals_free(env, &l);
  free(jv);
  if (ok || !e) return false;
  *exc = e;
  return true;
}

/* True when two keys of n bytes are equal: inline, as keys are a few bytes
 * (one per argument) and a call through the PLT to memcmp cost more than
 * the comparison on every cached call. */
static inline bool same_key(const unsigned char *a, const unsigned char *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

static jb_member *resolve(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_group *g, const jb_arg *args, size_t argc,
                          bool *as_varargs, JSValueRef *exc) {
  unsigned char key[256];
  int klen = make_key(args, argc, key, (int)sizeof key);
  for (jb_choice *c = atomic_load_explicit(&g->cache, memory_order_acquire); c; c = c->next) {
    if (c->keylen == klen && same_key(c->key, key, klen)) {
      jb_member *m = (jb_member *)((uintptr_t)c->member & ~(uintptr_t)1);
      *as_varargs = ((uintptr_t)c->member & 1) != 0;
      return m;
    }
  }
  long best = JB_NO;
  int nbest = 0;
  jb_member *bm = NULL;
  bool bv = false;
  int arity_ok = 0;
  for (int i = 0; i < g->n; i++) {
    jb_member *m = g->m[i];
    if ((size_t)m->nparams == argc || (m->varargs && argc + 1 >= (size_t)m->nparams)) arity_ok++;
    bool v;
    long c = member_cost(env, m, args, argc, &v);
    if (c < best) { best = c; bm = m; bv = v; nbest = 1; }
    else if (c == best && c < JB_NO) nbest++;
  }
  if (!bm && arity_ok == 1) {
    /* one overload of this arity: its own conversion error says more */
    for (int i = 0; i < g->n; i++) {
      jb_member *m = g->m[i];
      if ((size_t)m->nparams == argc || (m->varargs && argc + 1 >= (size_t)m->nparams)) {
        if (describe_mismatch(env, b, ctx, m, args, argc, exc)) return NULL;
        break;
      }
    }
  }
  if (!bm || nbest > 1) {
    char name[300], cands[1500], types[400];
    group_name(g, name, sizeof name);
    candidates(g, cands, sizeof cands);
    arg_types(args, argc, types, sizeof types);
    if (!bm && !arity_ok)
      *exc = strait_make_error(ctx, "TypeError", "%s: no overload takes %zu argument%s; candidates: %s", name, argc,
                      argc == 1 ? "" : "s", cands);
    else if (!bm)
      *exc = strait_make_error(ctx, "TypeError", "%s: no overload matches (%s); candidates: %s", name, types, cands);
    else
      *exc = strait_make_error(ctx, "TypeError", "%s: ambiguous call, the argument types (%s) match several overloads "
                      "(select one with obj['name(type,...)']); candidates: %s", name, types, cands);
    return NULL;
  }
  jb_choice *c = malloc(sizeof *c + (size_t)klen);
  if (c) {
    c->member = (jb_member *)((uintptr_t)bm | (bv ? 1 : 0));
    c->keylen = klen;
    memcpy(c->key, key, (size_t)klen);
    pthread_mutex_lock(&cache_mu);
    c->next = atomic_load(&g->cache);
    atomic_store_explicit(&g->cache, c, memory_order_release);
    pthread_mutex_unlock(&cache_mu);
  }
  *as_varargs = bv;
  return bm;
}

/* Packs args[from..argc) into a new Java array of the varargs component. */
static bool pack_varargs(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *m, const jb_arg *args,
                         size_t argc, jvalue *out, jb_locals *l, const char *what, JSValueRef *exc) {
  int last = m->nparams - 1;
  jb_class *ac = jb_class_get(env, ctx, m->pcls[last], true, exc);
  if (!ac) return false;
  jsize n = (jsize)(argc - (size_t)last);
  char ec = ac->elem;
  jarray arr;
  switch (ec) {
  case 'Z': arr = (*env)->NewBooleanArray(env, n); break;
  case 'B': arr = (*env)->NewByteArray(env, n); break;
  case 'C': arr = (*env)->NewCharArray(env, n); break;
  case 'S': arr = (*env)->NewShortArray(env, n); break;
  case 'I': arr = (*env)->NewIntArray(env, n); break;
  case 'J': arr = (*env)->NewLongArray(env, n); break;
  case 'F': arr = (*env)->NewFloatArray(env, n); break;
  case 'D': arr = (*env)->NewDoubleArray(env, n); break;
  default: {
    jb_class *comp = jb_class_get(env, ctx, ac->elem_cls, false, exc);
    if (!comp) return false;
    arr = (*env)->NewObjectArray(env, n, comp->ref, NULL);
  }
  }
  if (!arr) {
    (*env)->ExceptionClear(env);
    *exc = strait_make_error(ctx, "Error", "%s: out of memory", what);
    return false;
  }
  jb_locals_add(l, arr);
  char ewhat[520];
  for (jsize i = 0; i < n; i++) {
    jvalue v;
    snprintf(ewhat, sizeof ewhat, "%s argument %d", what, last + i + 1);
    if (!jb_to_java(env, b, ctx, &args[last + i], ec, ac->elem_cls, &v, l, ewhat, exc)) return false;
    switch (ec) {
    case 'Z': (*env)->SetBooleanArrayRegion(env, arr, i, 1, &v.z); break;
    case 'B': (*env)->SetByteArrayRegion(env, arr, i, 1, &v.b); break;
    case 'C': (*env)->SetCharArrayRegion(env, arr, i, 1, &v.c); break;
    case 'S': (*env)->SetShortArrayRegion(env, arr, i, 1, &v.s); break;
    case 'I': (*env)->SetIntArrayRegion(env, arr, i, 1, &v.i); break;
    case 'J': (*env)->SetLongArrayRegion(env, arr, i, 1, &v.j); break;
    case 'F': (*env)->SetFloatArrayRegion(env, arr, i, 1, &v.f); break;
    case 'D': (*env)->SetDoubleArrayRegion(env, arr, i, 1, &v.d); break;
    default: (*env)->SetObjectArrayElement(env, arr, i, v.l); break;
    }
  }
  out->l = arr;
  return true;
}

/* Converts the JS arguments for m into jv. */
static bool convert_args(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *m, bool as_varargs,
                         const jb_arg *args, size_t argc, jvalue *jv, jb_locals *l, JSValueRef *exc) {
  char what[400];
  int fixed = as_varargs ? m->nparams - 1 : m->nparams;
  for (int i = 0; i < fixed; i++) {
    /* the description is built only when a conversion fails */
    if (jb_to_java(env, b, ctx, &args[i], m->params[i], m->pcls[i], &jv[i], l, NULL, exc)) continue;
    if (*exc) return false;
    if (m->kind == 'c') snprintf(what, sizeof what, "new %s argument %d", m->sig, i + 1);
    else snprintf(what, sizeof what, "%s.%s argument %d", m->owner->name, m->sig, i + 1);
    jb_to_java(env, b, ctx, &args[i], m->params[i], m->pcls[i], &jv[i], l, what, exc);
    return false;
  }
  if (as_varargs) {
    if (m->kind == 'c') snprintf(what, sizeof what, "new %s", m->sig);
    else snprintf(what, sizeof what, "%s.%s", m->owner->name, m->sig);
    return pack_varargs(env, b, ctx, m, args, argc, &jv[fixed], l, what, exc);
  }
  return true;
}

/* True for type codes whose values are references (local refs to free). */
static bool is_object_code(char c) {
  return !(c == 'V' || c == 'Z' || c == 'B' || c == 'C' || c == 'S' || c == 'I' || c == 'J' || c == 'F' || c == 'D');
}

/* True if m is @CallerSensitive: known after its first call, when the
 * class (boot or platform) could have it; the answer is stored in m->cs
 * (any thread may store it, all store the same). A failed question counts
 * as a plain member after its exception is cleared. Inside the gate. */
static bool caller_sensitive(JNIEnv *env, jb_member *m) {
  int cs = atomic_load_explicit(&m->cs, memory_order_relaxed);
  if (cs != JB_CS_UNKNOWN) return cs == JB_CS_YES;
  jobject exe = (*env)->ToReflectedMethod(env, m->owner->ref, m->mid, m->is_static);
  jboolean yes = exe && (*env)->CallStaticBooleanMethod(env, jb.Bridge, jb.Bridge_callerSensitive, exe);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    yes = JNI_FALSE;
  }
  if (exe) (*env)->DeleteLocalRef(env, exe);
  atomic_store_explicit(&m->cs, yes ? JB_CS_YES : JB_CS_NO, memory_order_relaxed);
  return yes;
}

/*
 * Calls caller-sensitive m (recv NULL for static; for a constructor the
 * result is the new object) through Bridge.invokeSensitive, so the member
 * sees a Java caller frame (org.strait.jscaller.JsCaller) instead of none.
 * jv holds the converted arguments (types checked); they go over as raw
 * primitive bits and references, and a primitive result comes back as bits.
 * The gate is suspended around the Java call. Returns the result; on a Java
 * exception it is left pending (the member's own, unwrapped) and r.j is 0.
 * The local refs made here live in a local frame popped before returning.
 */
static jvalue call_sensitive(JNIEnv *env, jb_rt *b, jb_member *m, jobject recv, const jvalue *jv) {
  jvalue r;
  r.j = 0;
  if ((*env)->PushLocalFrame(env, 8) != 0) return r;
  jobject res = NULL;
  jsize n = m->nparams;
  jobject exe = (*env)->ToReflectedMethod(env, m->owner->ref, m->mid, m->is_static);
  jlongArray prims = exe ? (*env)->NewLongArray(env, n > 0 ? n : 1) : NULL;
  jobjectArray refs = prims ? (*env)->NewObjectArray(env, n, strait__jc.Object, NULL) : NULL;
  if (!refs) goto out;
  for (jsize i = 0; i < n; i++) {
    jlong bits = 0;
    int32_t fb;
    switch (m->params[i]) {
    case 'Z': bits = jv[i].z ? 1 : 0; break;
    case 'B': bits = jv[i].b; break;
    case 'C': bits = jv[i].c; break;
    case 'S': bits = jv[i].s; break;
    case 'I': bits = jv[i].i; break;
    case 'J': bits = jv[i].j; break;
    case 'F': memcpy(&fb, &jv[i].f, sizeof fb); bits = fb; break;
    case 'D': memcpy(&bits, &jv[i].d, sizeof bits); break;
    default:
      (*env)->SetObjectArrayElement(env, refs, i, jv[i].l);
      if ((*env)->ExceptionCheck(env)) goto out;
      continue;
    }
    (*env)->SetLongArrayRegion(env, prims, i, 1, &bits);
  }
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  res = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_invokeSensitive, exe,
                                       m->kind == 'c' ? NULL : recv, prims, refs);
  strait_gate_resume(b->rt, &susp);
  /* jb_invoke asks strait__java_returned after the call: the pending
   * exception, or the stop, is seen there */
  if ((*env)->ExceptionCheck(env)) { res = NULL; goto out; }
  if (m->kind == 'c' || is_object_code(m->ret)) goto out;
  jlong bits = 0;
  (*env)->GetLongArrayRegion(env, prims, 0, 1, &bits);
  int32_t fb = (int32_t)bits;
  switch (m->ret) {
  case 'Z': r.z = bits != 0; break;
  case 'B': r.b = (jbyte)bits; break;
  case 'C': r.c = (jchar)bits; break;
  case 'S': r.s = (jshort)bits; break;
  case 'I': r.i = (jint)bits; break;
  case 'J': r.j = bits; break;
  case 'F': memcpy(&r.f, &fb, sizeof fb); break;
  case 'D': memcpy(&r.d, &bits, sizeof bits); break;
  default: break;   /* 'V' */
  }
out:
  /* PopLocalFrame may run with the exception pending; res survives it */
  res = (*env)->PopLocalFrame(env, res);
  if (m->kind == 'c' || is_object_code(m->ret)) r.l = res;
  return r;
}

/* ---- results: a String or a box without the ObjectTable upcall ---------- */

/* jb_member.seen_ret: what a method's last object result was. A call site
 * whose results keep one class (List.get over Integers, a getter of
 * Strings) tests only for that class; any other result goes the general
 * way (jb_to_js, which asks the ObjectTable) and updates it. */
enum { JB_SEEN_UNKNOWN = 0, JB_SEEN_INT, JB_SEEN_DOUBLE, JB_SEEN_LONG, JB_SEEN_STRING, JB_SEEN_OTHER };

/* The value fields of the boxes: read directly (JNI ignores access), as
 * Integer.intValue() would return them. Looked up once per process (the
 * same answer on every thread, so a race only repeats the lookup). */
static _Atomic(jfieldID) int_value, double_value, long_value;

static jfieldID value_field(JNIEnv *env, _Atomic(jfieldID) *slot, jclass c, const char *sig) {
  jfieldID f = atomic_load_explicit(slot, memory_order_acquire);
  if (f) return f;
  f = (*env)->GetFieldID(env, c, "value", sig);
  if (!f) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  atomic_store_explicit(slot, f, memory_order_release);
  return f;
}

/* Which JB_SEEN_* class o (not null) is. */
static int seen_class(JNIEnv *env, jobject o) {
  if ((*env)->IsInstanceOf(env, o, strait__jc.Integer)) return JB_SEEN_INT;
  if ((*env)->IsInstanceOf(env, o, strait__jc.String)) return JB_SEEN_STRING;
  if ((*env)->IsInstanceOf(env, o, strait__jc.Double)) return JB_SEEN_DOUBLE;
  if ((*env)->IsInstanceOf(env, o, strait__jc.Long)) return JB_SEEN_LONG;
  return JB_SEEN_OTHER;
}

/* See call/call.h. Inside the gate. */
JSValueRef jb_fast_result(JNIEnv *env, jb_rt *b, JSContextRef ctx, _Atomic unsigned char *seen_ret, jobject o,
                          JSValueRef *exc) {
  int seen = atomic_load_explicit(seen_ret, memory_order_relaxed);
  bool hit;
  switch (seen) {
  case JB_SEEN_INT: hit = (*env)->IsInstanceOf(env, o, strait__jc.Integer); break;
  case JB_SEEN_STRING: hit = (*env)->IsInstanceOf(env, o, strait__jc.String); break;
  case JB_SEEN_DOUBLE: hit = (*env)->IsInstanceOf(env, o, strait__jc.Double); break;
  case JB_SEEN_LONG: hit = (*env)->IsInstanceOf(env, o, strait__jc.Long); break;
  default: hit = false; break;
  }
  if (!hit) {
    /* a site that gave other objects before tests again only every 64th
     * call on this thread (its results may have changed class) */
    static JB_TLS unsigned tick;
    if (seen == JB_SEEN_OTHER && (++tick & 63) != 0) return NULL;
    seen = seen_class(env, o);
    atomic_store_explicit(seen_ret, (unsigned char)seen, memory_order_relaxed);
  }
  jvalue v;
  jfieldID f;
  switch (seen) {
  case JB_SEEN_INT:
    if (!(f = value_field(env, &int_value, strait__jc.Integer, "I"))) return NULL;
    v.i = (*env)->GetIntField(env, o, f);
    return jb_to_js(env, b, ctx, 'I', v, exc);
  case JB_SEEN_DOUBLE:
    if (!(f = value_field(env, &double_value, strait__jc.Double, "D"))) return NULL;
    v.d = (*env)->GetDoubleField(env, o, f);
    return jb_to_js(env, b, ctx, 'D', v, exc);
  case JB_SEEN_LONG:
    if (!(f = value_field(env, &long_value, strait__jc.Long, "J"))) return NULL;
    v.j = (*env)->GetLongField(env, o, f);
    return jb_to_js(env, b, ctx, 'J', v, exc);
  case JB_SEEN_STRING:
    return jb_string_to_js(env, ctx, (jstring)o);
  default:
    return NULL;
  }
}

/* Calls m; the gate is suspended around the Java call. */
static jvalue call_java(JNIEnv *env, jb_rt *b, jb_member *m, jclass cls, jobject recv, const jvalue *jv) {
  jvalue r;
  r.j = 0;
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  if (m->is_static) {
    switch (m->ret) {
    case 'V': (*env)->CallStaticVoidMethodA(env, cls, m->mid, jv); break;
    case 'Z': r.z = (*env)->CallStaticBooleanMethodA(env, cls, m->mid, jv); break;
    case 'B': r.b = (*env)->CallStaticByteMethodA(env, cls, m->mid, jv); break;
    case 'C': r.c = (*env)->CallStaticCharMethodA(env, cls, m->mid, jv); break;
    case 'S': r.s = (*env)->CallStaticShortMethodA(env, cls, m->mid, jv); break;
    case 'I': r.i = (*env)->CallStaticIntMethodA(env, cls, m->mid, jv); break;
    case 'J': r.j = (*env)->CallStaticLongMethodA(env, cls, m->mid, jv); break;
    case 'F': r.f = (*env)->CallStaticFloatMethodA(env, cls, m->mid, jv); break;
    case 'D': r.d = (*env)->CallStaticDoubleMethodA(env, cls, m->mid, jv); break;
    default: r.l = (*env)->CallStaticObjectMethodA(env, cls, m->mid, jv); break;
    }
  } else {
    switch (m->ret) {
    case 'V': (*env)->CallVoidMethodA(env, recv, m->mid, jv); break;
    case 'Z': r.z = (*env)->CallBooleanMethodA(env, recv, m->mid, jv); break;
    case 'B': r.b = (*env)->CallByteMethodA(env, recv, m->mid, jv); break;
    case 'C': r.c = (*env)->CallCharMethodA(env, recv, m->mid, jv); break;
    case 'S': r.s = (*env)->CallShortMethodA(env, recv, m->mid, jv); break;
    case 'I': r.i = (*env)->CallIntMethodA(env, recv, m->mid, jv); break;
    case 'J': r.j = (*env)->CallLongMethodA(env, recv, m->mid, jv); break;
    case 'F': r.f = (*env)->CallFloatMethodA(env, recv, m->mid, jv); break;
    case 'D': r.d = (*env)->CallDoubleMethodA(env, recv, m->mid, jv); break;
    default: r.l = (*env)->CallObjectMethodA(env, recv, m->mid, jv); break;
    }
  }
  strait_gate_resume(b->rt, &susp);
  return r;
}


/* Makes call c; see model/model.h. Every piece of the call's state (arguments,
 * local refs, the JSLock, receiver and adopted `this`) lives in this frame
 * and is released at `done`. Inside the gate. */
JSValueRef jb_invoke(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_call *c, size_t argc,
                     const JSValueRef argv[], JSValueRef *exc) {
  jb_group *g = c->g;
  jobject recv = c->recv;
  jb_maybe_flush(env, b);
  jb_arg stack_args[MAX_STACK_ARGS];
  jvalue stack_jv[MAX_STACK_ARGS];
  jb_arg *args = argc <= MAX_STACK_ARGS ? stack_args : malloc(sizeof(jb_arg) * argc);
  if (!args) { *exc = strait_make_error(ctx, "Error", "out of memory"); return NULL; }
  /* JSC dropped its VM lock for this callback and every C API call takes
   * it again; holding it across the argument phase makes those recursive
   * (cheap). It is released before Java runs (the gate rule). */
  bool locked = false;
  for (size_t i = 0; i < argc; i++) {
    double d;
    if (!locked && !(jb_imm_ok && (jb_imm_number(argv[i], &d) || jb_bits(argv[i]) <= JB_VALUE_UNDEFINED))) {
      /* a Java object passed back (list.add(o), map.put(k, o)) is found by
       * its address, without the lock */
      if (jb_arg_wrapper(b, argv[i], &args[i])) continue;
      JSLock(ctx);
      locked = true;
    }
    jb_arg_kind(b, ctx, argv[i], &args[i]);
  }
  JSValueRef result = NULL;
  bool as_varargs = false;
  jb_member *m = c->forced;
  jvalue *jv = stack_jv;
  jb_locals l;
  l.n = 0; l.more = NULL; l.nmore = l.capmore = 0;
  if (m) {
    if ((size_t)m->nparams != argc && !(m->varargs && argc + 1 >= (size_t)m->nparams)) {
      *exc = strait_make_error(ctx, "TypeError", "%s%s%s%s takes %d argument%s, got %zu", m->kind == 'c' ? "new " : "",
                      m->kind == 'c' ? "" : m->owner->name, m->kind == 'c' ? "" : ".", m->sig, m->nparams,
                      m->nparams == 1 ? "" : "s", argc);
      goto done;
    }
    as_varargs = (size_t)m->nparams != argc;
    if (m->varargs && !as_varargs) {
      bool v;
      if (member_cost(env, m, args, argc, &v) < JB_NO) as_varargs = v;
    }
  } else if (g->n == 1 && !g->m[0]->varargs) {
    m = g->m[0];
    if ((size_t)m->nparams != argc) {
      char name[300];
      group_name(g, name, sizeof name);
      *exc = strait_make_error(ctx, "TypeError", "%s: expected %d argument%s, got %zu (%s)", name, m->nparams,
                      m->nparams == 1 ? "" : "s", argc, m->sig);
      goto done;
    }
  } else if (!(m = resolve(env, b, ctx, g, args, argc, &as_varargs, exc))) {
    goto done;
  }
  /* the runtime's policy: one byte test under a plain ALL; an overload it
   * denies in a group it allows in part (an explicit signature was checked
   * when its function was made, a constructor only here) */
  if (b->mdeny && !jb_member_ok(env, b, m)) {
    if (jb_member_forbidden(b, m)) jb_deny_member(b, ctx, m->owner->name, m->sig, exc);
    else *exc = strait_make_error(ctx, "TypeError", "%s has no accessible %s %s", m->owner->name,
                                  m->kind == 'c' ? "constructor" : "method", m->sig);
    goto done;
  }
  if ((size_t)m->nparams > MAX_STACK_ARGS && !(jv = malloc(sizeof(jvalue) * (size_t)m->nparams))) {
    *exc = strait_make_error(ctx, "Error", "out of memory");
    goto done;
  }
  if (!convert_args(env, b, ctx, m, as_varargs, args, argc, jv, &l, exc)) goto done;
  if (locked) {
    JSUnlock(ctx);
    locked = false;
  }
  /* a stopped script makes no Java call (docs/sandbox.md) */
  if (strait__java_call_refused(env, b->rt)) goto done;
  if (m->kind == 'c') {
    jobject o;
    if (caller_sensitive(env, m)) {
      o = call_sensitive(env, b, m, NULL, jv).l;
    } else {
      strait_suspension susp;
      strait_gate_suspend(b->rt, &susp);
      o = (*env)->NewObjectA(env, g->cls->ref, m->mid, jv);
      strait_gate_resume(b->rt, &susp);
    }
    if (strait__java_returned(env, b->rt, (*env)->ExceptionCheck(env))) {
      if (o) (*env)->DeleteLocalRef(env, o);
      goto done;
    }
    if (!o) { jb_throw_pending(env, b, ctx, exc); goto done; }
    /* exactly g->cls, and new to this runtime: no table lookup in Java;
     * String and the boxes cross as JS values (jb_wrap); the `this` of a
     * JS `new` becomes the wrapper */
    if (strchr("Tzbcsijfd", g->cls->self_code)) result = jb_wrap(env, b, ctx, o, exc);
    else result = jb_wrap_new(env, b, ctx, o, g->cls, c->adopt, exc);
    (*env)->DeleteLocalRef(env, o);
    goto done;
  }
  /* the receiver must be an instance of the class declaring the member
   * (the caller checked it against the class of the function; this holds
   * for every caller, whatever it checked) */
  JB_CHECK(m->is_static || (recv && (*env)->IsInstanceOf(env, recv, m->owner->ref)));
  if (!m->is_static && !recv) {
    *exc = strait_make_error(ctx, "TypeError", "%s.%s: receiver is not a Java object", m->owner->name, m->sig);
    goto done;
  }
  JSObjectRef self = c->self;
  /* one flag test: caller-sensitive members need a Java caller frame */
  jvalue r = caller_sensitive(env, m) ? call_sensitive(env, b, m, recv, jv) : call_java(env, b, m, g->cls->ref, recv, jv);
  jboolean threw = (*env)->ExceptionCheck(env);
  if (strait__java_returned(env, b->rt, threw)) {
    if (!threw && is_object_code(m->ret) && r.l) (*env)->DeleteLocalRef(env, r.l);
    goto done;
  }
  if (threw) {
    jb_throw_pending(env, b, ctx, exc);
    goto done;
  }
  /* a method returning its receiver (builders) needs no table lookup; a
   * String or a box is converted without the ObjectTable upcall. A site
   * whose results were other objects (builders) asks for its receiver
   * first. */
  bool builder = self && r.l && (m->ret == 'L' || m->ret == 'Q' || m->ret == 'U' || m->ret == 'O');
  if (builder && atomic_load_explicit(&m->seen_ret, memory_order_relaxed) == JB_SEEN_OTHER &&
      (*env)->IsSameObject(env, r.l, recv))
    result = self;
  else if (r.l && (m->ret == 'O' || m->ret == 'L' || m->ret == 'Q' || m->ret == 'N') &&
           (result = jb_fast_result(env, b, ctx, &m->seen_ret, r.l, exc)))
    ;
  else if (*exc)
    ;
  else if (builder && (*env)->IsSameObject(env, r.l, recv))
    result = self;
  else
    result = jb_to_js(env, b, ctx, m->ret, r, exc);
  if (is_object_code(m->ret) && r.l) (*env)->DeleteLocalRef(env, r.l);
done:
  if (locked) JSUnlock(ctx);
  jb_locals_free(env, &l);
  jb_args_release(args, argc);
  if (args != stack_args) free(args);
  if (jv != stack_jv) free(jv);
  JB_CHECK(l.n == 0 && l.nmore == 0 && !l.more);
  JB_CHECK(result || *exc || strait_terminating(b->rt));
  return result;
}

/* new k(...args); see model/model.h. */
JSValueRef jb_construct(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *k, jb_member *forced,
                        JSObjectRef adopt, size_t argc, const JSValueRef argv[], JSValueRef *exc) {
  if (k->flags & (JB_IFACE | JB_ABSTRACT)) {
    if ((k->flags & JB_IFACE) && argc == 1 && JSValueIsObject(ctx, argv[0]))
      return strait__js_implement_value(env, b->rt, k->ref, (JSObjectRef)argv[0], exc);
    *exc = strait_make_error(ctx, "TypeError", "cannot instantiate %s %s: it has no implementation here",
                    (k->flags & JB_IFACE) ? "interface" : "abstract class", k->name);
    return NULL;
  }
  if (k->flags & (JB_ARRAY | JB_PRIMITIVE) || k->ctors.n == 0) {
    *exc = strait_make_error(ctx, "TypeError", "%s has no public constructor%s", k->name,
                    (k->flags & JB_ARRAY) ? " (use Java.array)" : "");
    return NULL;
  }
  jb_call c = {.g = &k->ctors, .forced = forced, .adopt = adopt};
  JSValueRef r = jb_invoke(env, b, ctx, &c, argc, argv, exc);
  /* a `new` gives an object; String and boxes come back primitive */
  if (r && adopt && r != (JSValueRef)adopt && !JSValueIsObject(ctx, r)) r = JSValueToObject(ctx, r, exc);
  return r;
}

/* Reads field f (recv NULL for static); see model/model.h. */
JSValueRef jb_field_get(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *f, jobject recv, JSValueRef *exc) {
  jb_maybe_flush(env, b);
  jvalue v;
  v.j = 0;
  jclass c = f->owner->ref;
  if (f->is_static) {
    switch (f->ret) {
    case 'Z': v.z = (*env)->GetStaticBooleanField(env, c, f->fid); break;
    case 'B': v.b = (*env)->GetStaticByteField(env, c, f->fid); break;
    case 'C': v.c = (*env)->GetStaticCharField(env, c, f->fid); break;
    case 'S': v.s = (*env)->GetStaticShortField(env, c, f->fid); break;
    case 'I': v.i = (*env)->GetStaticIntField(env, c, f->fid); break;
    case 'J': v.j = (*env)->GetStaticLongField(env, c, f->fid); break;
    case 'F': v.f = (*env)->GetStaticFloatField(env, c, f->fid); break;
    case 'D': v.d = (*env)->GetStaticDoubleField(env, c, f->fid); break;
    default: v.l = (*env)->GetStaticObjectField(env, c, f->fid); break;
    }
  } else {
    switch (f->ret) {
    case 'Z': v.z = (*env)->GetBooleanField(env, recv, f->fid); break;
    case 'B': v.b = (*env)->GetByteField(env, recv, f->fid); break;
    case 'C': v.c = (*env)->GetCharField(env, recv, f->fid); break;
    case 'S': v.s = (*env)->GetShortField(env, recv, f->fid); break;
    case 'I': v.i = (*env)->GetIntField(env, recv, f->fid); break;
    case 'J': v.j = (*env)->GetLongField(env, recv, f->fid); break;
    case 'F': v.f = (*env)->GetFloatField(env, recv, f->fid); break;
    case 'D': v.d = (*env)->GetDoubleField(env, recv, f->fid); break;
    default: v.l = (*env)->GetObjectField(env, recv, f->fid); break;
    }
  }
  if ((*env)->ExceptionCheck(env)) {   /* static initializer failed */
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  JSValueRef r = jb_to_js(env, b, ctx, f->ret, v, exc);
  if (is_object_code(f->ret) && v.l) (*env)->DeleteLocalRef(env, v.l);
  return r;
}

/* Writes field f (recv NULL for static); see model/model.h. */
bool jb_field_set(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *f, jobject recv, JSValueRef val,
                  JSValueRef *exc) {
  jb_maybe_flush(env, b);
  jb_arg a;
  jb_arg_kind(b, ctx, val, &a);
  jb_locals l;
  l.n = 0; l.more = NULL; l.nmore = l.capmore = 0;
  jvalue v;
  bool ok = jb_to_java(env, b, ctx, &a, f->ret, f->ret_cls, &v, &l, NULL, exc);
  if (!ok && !*exc) {            /* describe the failure only now */
    char what[400];
    snprintf(what, sizeof what, "%s.%s", f->owner->name, f->name);
    jb_to_java(env, b, ctx, &a, f->ret, f->ret_cls, &v, &l, what, exc);
  }
  jb_args_release(&a, 1);
  if (ok) {
    jclass c = f->owner->ref;
    if (f->is_static) {
      switch (f->ret) {
      case 'Z': (*env)->SetStaticBooleanField(env, c, f->fid, v.z); break;
      case 'B': (*env)->SetStaticByteField(env, c, f->fid, v.b); break;
      case 'C': (*env)->SetStaticCharField(env, c, f->fid, v.c); break;
      case 'S': (*env)->SetStaticShortField(env, c, f->fid, v.s); break;
      case 'I': (*env)->SetStaticIntField(env, c, f->fid, v.i); break;
      case 'J': (*env)->SetStaticLongField(env, c, f->fid, v.j); break;
      case 'F': (*env)->SetStaticFloatField(env, c, f->fid, v.f); break;
      case 'D': (*env)->SetStaticDoubleField(env, c, f->fid, v.d); break;
      default: (*env)->SetStaticObjectField(env, c, f->fid, v.l); break;
      }
    } else {
      switch (f->ret) {
      case 'Z': (*env)->SetBooleanField(env, recv, f->fid, v.z); break;
      case 'B': (*env)->SetByteField(env, recv, f->fid, v.b); break;
      case 'C': (*env)->SetCharField(env, recv, f->fid, v.c); break;
      case 'S': (*env)->SetShortField(env, recv, f->fid, v.s); break;
      case 'I': (*env)->SetIntField(env, recv, f->fid, v.i); break;
      case 'J': (*env)->SetLongField(env, recv, f->fid, v.j); break;
      case 'F': (*env)->SetFloatField(env, recv, f->fid, v.f); break;
      case 'D': (*env)->SetDoubleField(env, recv, f->fid, v.d); break;
      default: (*env)->SetObjectField(env, recv, f->fid, v.l); break;
      }
    }
    if ((*env)->ExceptionCheck(env)) {
      jb_throw_pending(env, b, ctx, exc);
      ok = false;
    }
  }
  jb_locals_free(env, &l);
  return ok;
}

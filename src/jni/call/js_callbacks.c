/*
 * js_callbacks.c - the JSC callbacks through which JS reaches Java: the
 * function of a method (or of one explicit overload), the construct
 * function of a class, the accessors of a field, `instanceof`, the
 * iterator of an Iterable or Map, the catch-all's answer for a name a class
 * object lacks (bean properties, statics through an instance), the
 * elements of a Java array and the members of Java collections (List
 * elements, Map entries, the contents toJSON and console.log show). Each
 * finds what it is bound to (model/class_objects.c's function map, an
 * array's code), checks the receiver, and makes the call through
 * js_to_java.c, with the call's state in its own frame (jb_call).
 *
 * The model (model/) makes the JS objects with these callbacks but never
 * calls up here: it gets them through the table jb_js_callbacks, which
 * the bridge's attach puts in jb_rt.cb.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "call/call.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static JSValueRef resolve_name(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *buf,
                               size_t len, bool is_static, bool quiet, bool nobean, JSValueRef *exc);

/* Longest name resolve() reads, in characters: a Java signature of 255
 * parameters with long class names fits. */
#define JB_MAX_NAME 65536

/* The bridge behind one of its helper functions. */
static jb_rt *bridge_of_fn(JSContextRef ctx, JSObjectRef fn) {
  (void)fn;
  return jb_rt_fast(ctx);
}

/* construct(self, ...args): new instance of the function's class; self is
 * the `this` JS made for `new` (one construct function per class, found by
 * address, so no argument carries the class). */
static JSValueRef native_construct(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  jb_bound *bd = jb_fn_bound(b, fn);
  if (!bd || argc < 1) return JSValueMakeUndefined(ctx);
  JNIEnv *env = strait__env();
  /* always the fresh object `new` made (the helper passes its `this`); a
   * stale table entry at the same address is evicted when it is adopted */
  if (!JSValueIsObject(ctx, argv[0])) return JSValueMakeUndefined(ctx);
  JSObjectRef made = (JSObjectRef)argv[0];
  return jb_construct(env, b, ctx, bd->cls, NULL, made, argc - 1, argv + 1, exc);
}

/* isInstance(ci, v): v wraps an instance of class ci, or v is a JS Error
 * carrying a Java exception (value/exceptions.c's jb_error_java_exception:
 * what a catch gets when a Java call threw) that is one, so
 * `e instanceof java.io.IOException` tests the Java exception while
 * `e instanceof Error` stays true. */
static JSValueRef native_is_instance(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                     const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of_fn(ctx, fn);
  if (argc < 2 || !JSValueIsObject(ctx, argv[1])) return JSValueMakeBoolean(ctx, false);
  jb_entry *e = jb_entry_of(b, (JSObjectRef)argv[1]);
  if (!e) e = jb_error_java_exception(b, ctx, argv[1]);
  if (!e) return JSValueMakeBoolean(ctx, false);
  JNIEnv *env = strait__env();
  jb_class *k = jb_class_get(env, ctx, (int)JSValueToNumber(ctx, argv[0], NULL), false, exc);
  if (!k) return NULL;
  return JSValueMakeBoolean(ctx, e->cls == k || (*env)->IsInstanceOf(env, e->ref, k->ref));
}

/* Receiver of an instance member call: the Java object behind self, which
 * must be an instance of k. NULL with a TypeError in *exc. */
static jobject receiver(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSObjectRef self, jb_class *k,
                        const char *member, JSValueRef *exc) {
  jb_entry *e = self ? jb_entry_of(b, self) : NULL;
  if (!e) {
    *exc = strait_make_error(ctx, "TypeError", "%s.%s: receiver is not a Java object (instance member used on the class, "
                    "detached from its object, or called on a JS value)", k->name, member);
    return NULL;
  }
  /* the object is an instance of its recorded class (its own class; one
   * jb_class per Java class), so assignability from it suffices; cached */
  JB_CHECK((*env)->IsInstanceOf(env, e->ref, e->cls->ref));
  if (!jb_is_a(env, e->cls, k)) {
    *exc = strait_make_error(ctx, "TypeError", "%s.%s: receiver is a %s, not a %s", k->name, member, e->cls->name, k->name);
    return NULL;
  }
  return e->ref;
}

/* Bridge.iterBatch, looked up once per process (the same answer on every
 * thread, so a race only repeats the lookup). */
static _Atomic(jmethodID) iter_batch;

static jmethodID iter_batch_id(JNIEnv *env) {
  jmethodID m = atomic_load_explicit(&iter_batch, memory_order_acquire);
  if (m) return m;
  m = (*env)->GetStaticMethodID(env, jb.Bridge, "iterBatch", "(Ljava/util/Iterator;[Ljava/lang/Object;IZ)I");
  if (m) atomic_store_explicit(&iter_batch, m, memory_order_release);
  return m;
}

/* iterStart(obj, loop): [a Java iterator over obj (Iterable, Map entries,
 * Iterator, array), its kind (JB_ITER_*), its slot, the shared counts]
 * (call/iteration.c). */
static JSValueRef native_iter_start(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                    const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of_fn(ctx, fn);
  JNIEnv *env = strait__env();
  jb_entry *e = argc && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  if (!e) {
    *exc = strait_make_error(ctx, "TypeError", "Symbol.iterator of a Java object called on a non-Java value");
    return NULL;
  }
  JSObjectRef loop = argc > 1 && JSValueIsObject(ctx, argv[1]) ? (JSObjectRef)argv[1] : NULL;
  jb_maybe_flush(env, b);
  jobject obj = e->ref;   /* a global ref: the entry may move while Java runs, the ref stays */
  jb_iter_prep p;
  if (!jb_iter_prepare(env, b, ctx, e->cls, obj, &p, exc)) return NULL;
  if (strait__java_call_refused(env, b->rt)) {
    (*env)->DeleteLocalRef(env, p.inner);
    (*env)->DeleteLocalRef(env, p.out);
    return NULL;
  }
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jint kind = (*env)->CallStaticIntMethod(env, jb.Bridge, p.mid, obj, p.inner, p.out);
  strait_gate_resume(b->rt, &susp);
  if (strait__java_returned(env, b->rt, (*env)->ExceptionCheck(env))) {
    (*env)->DeleteLocalRef(env, p.inner);
    (*env)->DeleteLocalRef(env, p.out);
    return NULL;
  }
  return jb_iter_started(env, b, ctx, obj, &p, kind, loop, exc);
}

/* iterNext's read of one element (a loop read as Java reads it): one
 * upcall (Bridge.iterNext) and the element converted as a call's result
 * is, itself (no array: this read is made once per element), or TOK at the
 * end. */
static JSValueRef iter_next_one(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject it, int slot, JSValueRef *exc) {
  /* a tracked loop's iterator (slot >= 0) runs only JDK code that reads (Bridge.iterStart):
   * read inside the gate, as listWindow reads (no suspension, so the
   * crossing counter keeps its value); any other iterator may run any code */
  jobject x;
  if (slot >= 0) {
    x = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_iterNext, it);
  } else {
    if (strait__java_call_refused(env, b->rt)) {
      jb_iter_after_read(b, slot, 0);
      return NULL;
    }
    strait_suspension susp;
    strait_gate_suspend(b->rt, &susp);
    x = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_iterNext, it);
    strait_gate_resume(b->rt, &susp);
    if (strait__java_returned(env, b->rt, (*env)->ExceptionCheck(env))) {
      if (x) (*env)->DeleteLocalRef(env, x);
      jb_iter_after_read(b, slot, 0);
      return NULL;
    }
  }
  bool threw = (*env)->ExceptionCheck(env);
  bool end = !threw && (*env)->IsSameObject(env, x, jb.done);
  jb_iter_after_read(b, slot, threw || end ? 0 : 1);
  if (threw) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  if (end) {
    if (x) (*env)->DeleteLocalRef(env, x);
    return b->token_key;
  }
  /* the class this site saw last, for jb_fast_result (per process: a hint) */
  static _Atomic unsigned char seen;
  JSValueRef v = !x ? JSValueMakeNull(ctx) : jb_fast_result(env, b, ctx, &seen, x, exc);
  if (!v && !*exc) v = jb_wrap(env, b, ctx, x, exc);
  if (x) (*env)->DeleteLocalRef(env, x);
  return v;
}

/* iterNext's read of one Map entry: [key, value] converted as call
 * results are, or TOK at the end: one upcall (Bridge.iterBatch of one),
 * under a suspension unless the loop is tracked (see iter_next_one). */
static JSValueRef iter_next_pair(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject it, int slot, JSValueRef *exc) {
  jmethodID m = iter_batch_id(env);
  /* the bridge's array when no suspension lets another thread in to use it */
  jobjectArray kv = !m ? NULL : slot >= 0 ? jb_iter_pair_array(env, b)
                                          : (*env)->NewObjectArray(env, 3, strait__jc.Object, NULL);
  if (!kv) {
    if ((*env)->ExceptionCheck(env)) jb_throw_pending(env, b, ctx, exc);
    else *exc = strait_make_error(ctx, "RangeError", "for...of of a Java Map: out of memory");
    jb_iter_after_read(b, slot, 0);
    return NULL;
  }
  jint k;
  if (slot >= 0) {
    k = (*env)->CallStaticIntMethod(env, jb.Bridge, m, it, kv, 1, JNI_TRUE);
  } else {
    if (strait__java_call_refused(env, b->rt)) {
      (*env)->DeleteLocalRef(env, kv);
      jb_iter_after_read(b, slot, 0);
      return NULL;
    }
    strait_suspension susp;
    strait_gate_suspend(b->rt, &susp);
    k = (*env)->CallStaticIntMethod(env, jb.Bridge, m, it, kv, 1, JNI_TRUE);
    strait_gate_resume(b->rt, &susp);
    if (strait__java_returned(env, b->rt, (*env)->ExceptionCheck(env))) {
      (*env)->DeleteLocalRef(env, kv);
      jb_iter_after_read(b, slot, 0);
      return NULL;
    }
  }
  bool threw = (*env)->ExceptionCheck(env);
  jb_iter_after_read(b, slot, !threw && k == 2 ? 1 : 0);
  if (threw || k != 2) {
    if (slot < 0) (*env)->DeleteLocalRef(env, kv);
    if (!threw) return b->token_key;
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  static _Atomic unsigned char seen_k, seen_v;
  JSValueRef r[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++) {
    jobject o = (*env)->GetObjectArrayElement(env, kv, i);
    (*env)->SetObjectArrayElement(env, kv, i, NULL);
    r[i] = !o ? JSValueMakeNull(ctx) : jb_fast_result(env, b, ctx, i ? &seen_v : &seen_k, o, exc);
    if (!r[i] && !*exc) r[i] = jb_wrap(env, b, ctx, o, exc);
    if (o) (*env)->DeleteLocalRef(env, o);
    if (!r[i]) break;
  }
  if (slot < 0) (*env)->DeleteLocalRef(env, kv);
  return r[0] && r[1] ? JSObjectMakeArray(ctx, 2, r, exc) : NULL;
}

/* iterNext(it, max, pairs, slot): a JS array of the next elements of Java
 * iterator it (of a tracked loop: its slot's, see call/iteration.c), at
 * most max (1..JB_BATCH) per crossing, converted as results are (pairs:
 * each Map entry as [key, value]); fewer than max when it has no more.
 * Asked for one element, the answer is the element itself (a pair:
 * [key, value]), or TOK at the end (iter_next_one, iter_next_pair); a
 * tracked loop may be held to fewer than it asks (call/iteration.c).
 * When the iterator throws after the first element of the batch, the array
 * ends with the JS error and then TOK, and the helper throws it after
 * handing out the elements before it. */
static JSValueRef native_iter_next(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of_fn(ctx, fn);
  JNIEnv *env = strait__env();
  /* the helper passes numbers and a boolean: read from their bits when the
   * encoding is known (no C API call, no lock: this runs once per element
   * of a loop read one at a time) */
  double want = 1, slotv = -1;
  bool pairs;
  if (jb_imm_ok && argc > 3) {
    if (!jb_imm_number(argv[1], &want)) want = 1;
    if (!jb_imm_number(argv[3], &slotv)) slotv = -1;
    pairs = jb_bits(argv[2]) == JB_VALUE_TRUE;
  } else {
    want = argc > 1 && JSValueIsNumber(ctx, argv[1]) ? JSValueToNumber(ctx, argv[1], NULL) : 1;
    pairs = argc > 2 && JSValueToBoolean(ctx, argv[2]);
    slotv = argc > 3 && JSValueIsNumber(ctx, argv[3]) ? JSValueToNumber(ctx, argv[3], NULL) : -1;
  }
  jint max = want >= JB_BATCH ? JB_BATCH : want >= 1 ? (jint)want : 1;
  int slot = slotv >= 0 && slotv < 1024 ? (int)slotv : -1;
  /* a tracked loop's iterator is its slot's (jb_iter_before_read), any
   * other the one iterStart wrapped */
  jb_entry *e = argc && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  if (!e && slot < 0) return JSObjectMakeArray(ctx, 0, NULL, exc);
  jb_maybe_flush(env, b);
  jobject it = e ? e->ref : NULL;
  bool one = max == 1;   /* asked for one: the answer is the element (a pair) */
  if (!jb_iter_before_read(env, b, ctx, &slot, &it, &max, exc)) return NULL;
  if (one) return pairs ? iter_next_pair(env, b, ctx, it, slot, exc) : iter_next_one(env, b, ctx, it, slot, exc);
  jint slots = pairs ? 2 * max : max;
  jmethodID m = iter_batch_id(env);
  jobjectArray out = m ? (*env)->NewObjectArray(env, slots + 1, strait__jc.Object, NULL) : NULL;
  if (!out) {
    jb_iter_after_read(b, slot, 0);
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  if (strait__java_call_refused(env, b->rt)) {
    (*env)->DeleteLocalRef(env, out);
    jb_iter_after_read(b, slot, 0);
    return NULL;
  }
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jint k = (*env)->CallStaticIntMethod(env, jb.Bridge, m, it, out, max, (jboolean)pairs);
  strait_gate_resume(b->rt, &susp);
  if (strait__java_returned(env, b->rt, (*env)->ExceptionCheck(env))) {
    (*env)->DeleteLocalRef(env, out);
    jb_iter_after_read(b, slot, 0);
    return NULL;
  }
  bool threw = (*env)->ExceptionCheck(env);
  if (threw || k < 0 || k > slots) k = 0;
  jb_iter_after_read(b, slot, pairs ? k / 2 : k);
  if (threw) {
    (*env)->DeleteLocalRef(env, out);
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  /* the values stay on this stack (seen by the collector's scan) until
   * they are in the array */
  JSValueRef vals[2 * JB_BATCH + 2];
  bool ok = true;
  for (jint from = 0; ok && from < k; from += JB_BATCH) {
    jint n = k - from < JB_BATCH ? k - from : JB_BATCH;
    ok = jb_wrap_batch(env, b, ctx, out, from, n, false, vals + from, exc);
  }
  jthrowable later = ok ? (*env)->GetObjectArrayElement(env, out, slots) : NULL;
  (*env)->DeleteLocalRef(env, out);
  if (!ok) {
    if (later) (*env)->DeleteLocalRef(env, later);
    return NULL;
  }
  jint count = k;
  if (pairs) {
    count = k / 2;
    for (jint i = 0; i < count; i++) {
      JSObjectRef pair = JSObjectMakeArray(ctx, 2, vals + 2 * i, exc);
      if (!pair) {
        if (later) (*env)->DeleteLocalRef(env, later);
        return NULL;
      }
      vals[i] = pair;   /* i <= 2i: read before written */
    }
  }
  if (later) {
    JSValueRef err = NULL;
    (*env)->Throw(env, later);
    (*env)->DeleteLocalRef(env, later);
    jb_throw_pending(env, b, ctx, &err);
    vals[count++] = err ? err : JSValueMakeUndefined(ctx);
    vals[count++] = b->token_key;
  }
  return JSObjectMakeArray(ctx, (size_t)count, vals, exc);
}

/* Getter of one field (this = the receiver for instance fields). */
static JSValueRef field_getter(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  jb_bound *bd = jb_fn_bound(b, fn);
  if (!bd) return JSValueMakeUndefined(ctx);
  jb_member *f = bd->forced;
  JNIEnv *env = strait__env();
  jobject recv = NULL;
  if (!f->is_static && !(recv = receiver(env, b, ctx, self, bd->cls, f->name, exc))) return NULL;
  return jb_field_get(env, b, ctx, f, recv, exc);
}

/* Setter of one non-final field. */
static JSValueRef field_setter(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  jb_bound *bd = jb_fn_bound(b, fn);
  if (!bd) return JSValueMakeUndefined(ctx);
  jb_member *f = bd->forced;
  JNIEnv *env = strait__env();
  jobject recv = NULL;
  if (!f->is_static && !(recv = receiver(env, b, ctx, self, bd->cls, f->name, exc))) return NULL;
  if (!jb_field_set(env, b, ctx, f, recv, argc ? argv[0] : JSValueMakeUndefined(ctx), exc)) return NULL;
  return JSValueMakeUndefined(ctx);
}

/* Calls a method function: resolves the receiver and invokes. */
static JSValueRef method_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc) {
  jb_bound *bd = jb_fn_bound(jb_rt_fast(ctx), fn);
  if (!bd) {
    *exc = strait_make_error(ctx, "TypeError", "Java method called in a runtime that did not make it");
    return NULL;
  }
  jb_rt *b = bd->b;
  JNIEnv *env = strait__env();
  /* an explicit constructor signature (C['new(java.lang.String)']): a call
   * constructs, as `new` of the function does (ctor_construct) */
  if (bd->forced && bd->forced->kind == 'c')
    return jb_construct(env, b, ctx, bd->cls, bd->forced, NULL, argc, argv, exc);
  jb_call c = {.g = bd->g, .forced = bd->forced};
  if (!bd->is_static) {
    if (!(c.recv = receiver(env, b, ctx, self, bd->cls, bd->g->name, exc))) return NULL;
    c.self = self;
  }
  return jb_invoke(env, b, ctx, &c, argc, argv, exc);
}

/* Calls an explicit constructor function (C['new(java.lang.String)']):
 * constructs with that constructor, whatever `this` is. */
static JSValueRef sig_ctor_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc) {
  jb_bound *bd = jb_fn_bound(jb_rt_fast(ctx), fn);
  if (!bd || !bd->forced) {
    *exc = strait_make_error(ctx, "TypeError", "Java constructor called in a runtime that did not make it");
    return NULL;
  }
  return jb_construct(strait__env(), bd->b, ctx, bd->cls, bd->forced, NULL, argc, argv, exc);
}

/* `new` of an explicit constructor function: the same, as an object. */
static JSObjectRef sig_ctor_new(JSContextRef ctx, JSObjectRef fn, size_t argc, const JSValueRef argv[],
                                JSValueRef *exc) {
  JSValueRef r = sig_ctor_call(ctx, fn, NULL, argc, argv, exc);
  if (!r) return NULL;
  return JSValueIsObject(ctx, r) ? (JSObjectRef)r : JSValueToObject(ctx, r, exc);
}

/* Names generic JS code probes on any object; a miss is not an error. */
static bool is_probe_name(const char *s) {
  static const char *const names[] = {"then", "toJSON", "inspect", "constructor", "asymmetricMatch",
                                      "nodeType", "length", "prototype", "caller", "arguments",
                                      "__proto__", "toPrimitive", "valueOf", "toString", "name"};
  if (s[0] == '_' || s[0] == '$' || s[0] == '@') return true;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i]) == 0) return true;
  return false;
}

/* Lists the signatures of a group into buf for messages. */
static void list_sigs(jb_group *g, char *buf, size_t n) {
  size_t o = 0;
  buf[0] = 0;
  for (int i = 0; g && i < g->n && o + 4 < n; i++) {
    int w = snprintf(buf + o, n - o, "%s%s", i ? ", " : "", g->m[i]->sig);
    if (w < 0) break;
    o += (size_t)w;
  }
  if (o >= n) buf[n - 1] = 0;
}

/* ---- bean properties and static members through an instance ----------
 *
 * What the catch-all (bridge_helper.js makeCatchall) defines for a name
 * that is no member of the object's side: resolve_name asks these last. */

/* True when some overload of g may be used under b's policy. */
static bool usable(JNIEnv *env, jb_rt *b, const jb_group *g) {
  for (int i = 0; g && i < g->n; i++)
    if (jb_member_ok(env, b, g->m[i])) return true;
  return false;
}

/* An instance-side read of name that is a static member of k: the static
 * method's function, or the number 1 for a static field (the helper
 * forwards it to the class object); NULL when neither, or when the policy
 * lets scripts not look k up (its statics are the class object's). */
static JSValueRef static_via_instance(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *name,
                                      size_t len) {
  jb_member *f = jb_field_find(k, name, len, true);
  jb_group *g = jb_group_find(k, name, len, true);
  if (!(f && jb_member_ok(env, b, f)) && !usable(env, b, g)) return NULL;
  if (!(jb_verdict(env, b, k) & JB_V_LOOKUP)) return NULL;
  if (f && jb_member_ok(env, b, f)) return JSValueMakeNumber(ctx, 1);
  JSObjectRef fn = jb_method_fn(b, ctx, g, NULL);
  return fn;
}

/* The usable overload of group (prefix + Name) of k with nparams
 * parameters (getters: a non-void result; want_bool: boolean), or NULL. */
static jb_member *accessor(JNIEnv *env, jb_rt *b, jb_class *k, const char *prefix, const char *name, size_t len,
                           bool is_static, int nparams, bool want_bool, jb_group **gout) {
  char acc[260];
  size_t pl = strlen(prefix);
  if (len + pl >= sizeof acc) return NULL;
  memcpy(acc, prefix, pl);
  memcpy(acc + pl, name, len);
  if (acc[pl] >= 'a' && acc[pl] <= 'z') acc[pl] = (char)(acc[pl] - 'a' + 'A');
  acc[pl + len] = 0;
  jb_group *g = jb_group_find(k, acc, pl + len, is_static);
  for (int i = 0; g && i < g->n; i++) {
    jb_member *m = g->m[i];
    if (m->nparams != nparams || !jb_member_ok(env, b, m)) continue;
    if (nparams == 0 && (m->ret == 'V' || (want_bool && m->ret != 'Z' && m->ret != 'z'))) continue;
    *gout = g;
    return m;
  }
  return NULL;
}

/* The bean property name of k (static or instance): [getter, setter,
 * "getName()"] with the getter the function of getName() (or isName() of a
 * boolean), the setter the function of the setName group (its overloads
 * of one parameter resolve as in a call), either undefined when missing;
 * NULL when k has neither. A name starting in lower case maps to
 * getName; one starting with two capitals (URL) to getURL, as
 * java.beans.Introspector.decapitalize reads them back. */
static JSValueRef bean_property(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *name, size_t len,
                                bool is_static) {
  if (len == 0 || len > 200) return NULL;
  bool lower = name[0] >= 'a' && name[0] <= 'z';
  bool caps = len > 1 && name[0] >= 'A' && name[0] <= 'Z' && name[1] >= 'A' && name[1] <= 'Z';
  if (!lower && !caps) return NULL;
  jb_group *gg = NULL, *sg = NULL;
  jb_member *get = accessor(env, b, k, "get", name, len, is_static, 0, false, &gg);
  if (!get) get = accessor(env, b, k, "is", name, len, is_static, 0, true, &gg);
  jb_member *set = accessor(env, b, k, "set", name, len, is_static, 1, false, &sg);
  if (!get && !set) return NULL;
  JSValueRef v[3];
  v[0] = get ? (JSValueRef)jb_method_fn(b, ctx, gg, get) : NULL;
  v[1] = set ? (JSValueRef)jb_method_fn(b, ctx, sg, NULL) : NULL;
  if (!v[0]) v[0] = JSValueMakeUndefined(ctx);
  if (!v[1]) v[1] = JSValueMakeUndefined(ctx);
  char gs[300];
  snprintf(gs, sizeof gs, "%s", get ? get->sig : "no getter");
  JSStringRef gsn = JSStringCreateWithUTF8CString(gs);
  v[2] = JSValueMakeString(ctx, gsn);
  JSStringRelease(gsn);
  return JSObjectMakeArray(ctx, 3, v, NULL);
}

/* The signature of a getter of bean property name that b's policy denies
 * (for reasons other than EXPLICIT's missing annotation), or NULL. */
static const char *bean_denied(JNIEnv *env, jb_rt *b, jb_class *k, const char *name, size_t len, bool is_static) {
  if (!b->mdeny || len == 0 || len > 200 || !(name[0] >= 'a' && name[0] <= 'z')) return NULL;
  static const char *const prefixes[] = {"get", "is"};
  for (int p = 0; p < 2; p++) {
    char acc[260];
    size_t pl = strlen(prefixes[p]);
    memcpy(acc, prefixes[p], pl);
    memcpy(acc + pl, name, len);
    acc[pl] = (char)(acc[pl] - 'a' + 'A');
    acc[pl + len] = 0;
    jb_group *g = jb_group_find(k, acc, pl + len, is_static);
    for (int i = 0; g && i < g->n; i++)
      if (g->m[i]->nparams == 0 && jb_member_forbidden(b, g->m[i])) return g->m[i]->sig;
  }
  return NULL;
}

static JSValueRef native_resolve(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  if (!b || argc < 4 || !JSValueIsString(ctx, argv[2])) return JSValueMakeUndefined(ctx);
  bool is_static = JSValueToBoolean(ctx, argv[1]);
  bool quiet = JSValueToBoolean(ctx, argv[3]);
  bool nobean = argc > 4 && JSValueToBoolean(ctx, argv[4]);
  JNIEnv *env = strait__env();
  JSValueRef ignored = NULL;
  jb_class *k = jb_class_get(env, ctx, (int)JSValueToNumber(ctx, argv[0], NULL), true, quiet ? &ignored : exc);
  if (!k) return quiet ? JSValueMakeUndefined(ctx) : NULL;
  JSStringRef name = JSValueToStringCopy(ctx, argv[2], NULL);
  if (!name) return JSValueMakeUndefined(ctx);
  if (JSStringGetLength(name) > JB_MAX_NAME) {
    JSStringRelease(name);
    if (quiet) return JSValueMakeUndefined(ctx);
    *exc = strait_make_error(ctx, "TypeError", "%s: member name longer than %d characters", k->name, JB_MAX_NAME);
    return NULL;
  }
  char stack[512];
  size_t max = JSStringGetMaximumUTF8CStringSize(name);
  char *buf = max <= sizeof stack ? stack : malloc(max);
  size_t len = 0;
  /* a name with U+0000 or a lone surrogate names no member (jb_name_utf8) */
  bool ok = buf && jb_name_utf8(name, buf, max, &len) && len > 0;
  JSStringRelease(name);
  JSValueRef r = !ok ? JSValueMakeUndefined(ctx)
                     : resolve_name(ctx, b, env, k, buf, len, is_static, quiet, nobean, exc);
  if (buf != stack) free(buf);
  return r;
}

/* resolve() of an explicit signature key buf ("append(char)",
 * "(String,String)", "new(java.lang.String)"; len bytes of UTF-8, NUL at
 * buf[len]): the function of the one member it names (a constructor's is
 * callable and constructs), short type names allowed
 * (model/class_meta.c's jb_members_by_sig). A TypeError listing the
 * candidates when none matches or more than one does (quiet: undefined).
 * Inside the gate. */
static JSValueRef resolve_signature(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *buf,
                                    size_t len, bool is_static, bool quiet, JSValueRef *exc) {
  jb_member *found[8];
  int n = jb_members_by_sig(k, buf, len, is_static, found, 8);
  if (n != 1) {
    if (quiet) return JSValueMakeUndefined(ctx);
    jb_group *g = jb_sig_candidates(k, buf, len, is_static);
    bool ctor = g == &k->ctors;
    char sigs[600];
    if (n > 1) {
      jb_group some = {.n = n < 8 ? n : 8, .m = found};
      list_sigs(&some, sigs, sizeof sigs);
      *exc = strait_make_error(ctx, "TypeError", "%s: signature %s is ambiguous, it names %s%s (write the full type names)",
                               k->name, buf, sigs, n > 8 ? ", ..." : "");
      return NULL;
    }
    list_sigs(g, sigs, sizeof sigs);
    *exc = strait_make_error(ctx, "TypeError", "%s has no %s %s%s%s", k->name,
                             ctor ? "constructor" : is_static ? "static method" : "method", buf,
                             g && g->n ? "; candidates: " : "", g && g->n ? sigs : "");
    return NULL;
  }
  jb_member *m = found[0];
  if (!jb_member_ok(env, b, m)) {
    if (quiet) return JSValueMakeUndefined(ctx);
    if (jb_member_forbidden(b, m)) return jb_deny_member(b, ctx, k->name, m->sig, exc);
    /* EXPLICIT without the annotation: as a missing member */
    *exc = strait_make_error(ctx, "TypeError", "%s has no %s %s", k->name,
                             m->kind == 'c' ? "constructor" : is_static ? "static method" : "method", buf);
    return NULL;
  }
  jb_group *g = m->kind == 'c' ? &k->ctors : jb_group_find(k, m->name, strlen(m->name), is_static);
  JSObjectRef f = g ? jb_method_fn(b, ctx, g, m) : NULL;
  return f ? f : JSValueMakeUndefined(ctx);
}

/* The rest of resolve() for the name buf (len bytes of UTF-8, NUL at
 * buf[len]); nobean: no bean properties (a Map's names are its keys).
 * Inside the gate. */
static JSValueRef resolve_name(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *buf,
                               size_t len, bool is_static, bool quiet, bool nobean, JSValueRef *exc) {
  JSValueRef ignored = NULL;
  if (memchr(buf, '(', len)) return resolve_signature(ctx, b, env, k, buf, len, is_static, quiet, exc);
  if (!jb_is_identifier(buf)) return JSValueMakeUndefined(ctx);
  if (strcmp(buf, "constructor") == 0 && !is_static) {
    /* a probe name: undefined where the policy allows no lookup of k */
    if (!(jb_verdict(env, b, k) & JB_V_LOOKUP)) return JSValueMakeUndefined(ctx);
    JSObjectRef c = jb_class_ctor(env, b, ctx, k->index, quiet ? &ignored : exc);
    return c ? c : quiet ? JSValueMakeUndefined(ctx) : NULL;
  }
  if (is_static) {
    /* nested class: java.util.Map.Entry */
    char nested[1024];
    int nl = snprintf(nested, sizeof nested, "%s$%s", k->name, buf);
    if (nl < 0 || (size_t)nl >= sizeof nested) goto not_nested;   /* never a truncated name */
    JSStringRef ns = JSStringCreateWithUTF8CString(nested);
    JSValueRef nv = JSValueMakeString(ctx, ns);
    JSStringRelease(ns);
    JSObjectRef c = jb_type_by_name(env, b, ctx, nv, &ignored);
    if (c) return c;
  }
not_nested:
  /* a member the class has and the runtime's policy denies (left off the
   * prototype): named as denied; EXPLICIT's unannotated ones are missing */
  if (!quiet && !is_probe_name(buf)) {
    jb_group *own = jb_group_find(k, buf, len, is_static);
    jb_member *fld = jb_field_find(k, buf, len, is_static);
    bool forbidden = false;
    for (int i = 0; own && i < own->n; i++) forbidden |= jb_member_forbidden(b, own->m[i]);
    if (fld) forbidden |= jb_member_forbidden(b, fld);
    if (forbidden) return jb_deny_member(b, ctx, k->name, buf, exc);
  }
  if (!is_static) {
    /* static members through an instance, as Java allows */
    JSValueRef st = static_via_instance(ctx, b, env, k, buf, len);
    if (st) return st;
  }
  if (!nobean) {
    JSValueRef bean = bean_property(ctx, b, env, k, buf, len, is_static);
    if (bean) return bean;
    /* a getter the policy denies (`class` of getClass()): named as denied */
    const char *denied = quiet ? NULL : bean_denied(env, b, k, buf, len, is_static);
    if (denied) return jb_deny_member(b, ctx, k->name, denied, exc);
  }
  if (quiet || is_probe_name(buf)) return JSValueMakeUndefined(ctx);
  jb_group *other = is_static ? jb_group_find(k, buf, len, false) : NULL;
  if (other) {
    *exc = strait_make_error(ctx, "TypeError", "%s.%s is an instance method; use it on an instance", k->name, buf);
    return NULL;
  }
  /* a missing member reads as undefined (calling it is JS's TypeError) */
  return JSValueMakeUndefined(ctx);
}

/* ---- Java arrays: element reads and writes from the array Proxy ---- */

/* Number value of v, through the immediate encoding when it is one. */
static inline bool arg_number(JSContextRef ctx, JSValueRef v, double *out) {
  if (jb_imm_ok) return jb_imm_number(v, out);
  if (!JSValueIsNumber(ctx, v)) return false;
  *out = JSValueToNumber(ctx, v, NULL);
  return true;
}

/* The entry and index of an aget/aset call; NULL with *exc set when the
 * array is gone or i is out of bounds (RangeError). Inside the gate. */
static jb_entry *element(JSContextRef ctx, jb_rt *b, size_t argc, const JSValueRef argv[], long *iout,
                         JSValueRef *exc) {
  double code, x;
  jb_entry *e = NULL;
  if (b && argc >= 2 && arg_number(ctx, argv[0], &code) && arg_number(ctx, argv[1], &x))
    e = jb_array_entry(b, code);
  if (!e) {
    *exc = strait_make_error(ctx, "TypeError", "Java array used after its runtime released it");
    return NULL;
  }
  if (!(x >= 0 && x < e->alen)) {
    char sb[256];
    const char *an = jb_source_name(e->cls->name, sb, sizeof sb);
    if (x >= 0)
      *exc = strait_make_error(ctx, "RangeError", "%s index %.0f out of bounds for length %d", an, x, (int)e->alen);
    else
      *exc = strait_make_error(ctx, "TypeError", "cannot assign to the length of %s", an);
    return NULL;
  }
  *iout = (long)x;
  return e;
}

/* Reads n elements of the primitive array ref (element type elem) from
 * index from into buf (n values of that type; one fits a jvalue). */
static void get_region(JNIEnv *env, jobject ref, char elem, jsize from, jsize n, void *buf) {
  switch (elem) {
  case 'Z': (*env)->GetBooleanArrayRegion(env, ref, from, n, buf); break;
  case 'B': (*env)->GetByteArrayRegion(env, ref, from, n, buf); break;
  case 'C': (*env)->GetCharArrayRegion(env, ref, from, n, buf); break;
  case 'S': (*env)->GetShortArrayRegion(env, ref, from, n, buf); break;
  case 'I': (*env)->GetIntArrayRegion(env, ref, from, n, buf); break;
  case 'J': (*env)->GetLongArrayRegion(env, ref, from, n, buf); break;
  case 'F': (*env)->GetFloatArrayRegion(env, ref, from, n, buf); break;
  case 'D': (*env)->GetDoubleArrayRegion(env, ref, from, n, buf); break;
  }
}

/* aget(code, i): element i of the array, converted to JS; RangeError out
 * of bounds. Inside the gate. */
static JSValueRef array_get(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  long i;
  jb_entry *e = element(ctx, b, argc, argv, &i, exc);
  if (!e) return NULL;
  JNIEnv *env = strait__env();
  jvalue v;
  jsize ix = (jsize)i;
  switch (e->cls->elem) {
  case 'Z': case 'B': case 'C': case 'S': case 'J': case 'F':
    get_region(env, e->ref, e->cls->elem, ix, 1, &v);
    break;
  case 'I':
    get_region(env, e->ref, 'I', ix, 1, &v.i);
    return jb_imm_ok ? jb_imm_int(v.i) : JSValueMakeNumber(ctx, v.i);
  case 'D':
    get_region(env, e->ref, 'D', ix, 1, &v.d);
    return jb_imm_ok ? jb_imm_double(v.d) : JSValueMakeNumber(ctx, v.d);
  default: {
    /* the class of the last element read on this thread (a loop reads one
     * array): a String or box element needs no ObjectTable upcall */
    static JB_TLS _Atomic unsigned char seen;
    v.l = (*env)->GetObjectArrayElement(env, e->ref, ix);
    JSValueRef r = v.l ? jb_fast_result(env, b, ctx, &seen, v.l, exc) : NULL;
    if (!r && !*exc) r = jb_wrap(env, b, ctx, v.l, exc);
    if (v.l) (*env)->DeleteLocalRef(env, v.l);
    return r;
  }
  }
  return jb_to_js(env, b, ctx, e->cls->elem, v, exc);
}

/* undefined, without a C API call (each one takes the VM lock again). */
static inline JSValueRef undefined_value(JSContextRef ctx) {
  return jb_imm_ok ? (JSValueRef)(uintptr_t)JB_VALUE_UNDEFINED : JSValueMakeUndefined(ctx);
}

/* awin(code, lo, n): elements lo .. lo+n-1 of the array (1 <= n <=
 * JB_BATCH, within its length) as a new JS array, converted as aget
 * converts each: the window the array Proxy serves reads from until the
 * runtime's crossing counter changes (bridge_helper.js). Object elements
 * come through jb_wrap_batch (one upcall for the batch); primitive ones
 * from one Get<Type>ArrayRegion. undefined when an element cannot be
 * converted (a class the policy refuses: the Proxy then reads that element
 * with aget, which throws what a single read throws) or lo/n are out of
 * range. Runs no Java code but the bridge's own, so the counter keeps its
 * value. Inside the gate. */
static JSValueRef array_window(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  long lo;
  jb_entry *e = element(ctx, b, argc, argv, &lo, exc);
  if (!e) return NULL;
  double nd;
  if (argc < 3 || !arg_number(ctx, argv[2], &nd) || !(nd >= 1 && nd <= JB_BATCH) || nd != (double)(int)nd ||
      lo + (long)nd > (long)e->alen)
    return undefined_value(ctx);
  jint n = (jint)nd;
  JNIEnv *env = strait__env();
  jobject ref = e->ref;   /* a global ref: the entry may move when the batch grows the table */
  char elem = e->cls->elem;
  JSValueRef out[JB_BATCH];
  union {
    jboolean z[JB_BATCH];
    jbyte b[JB_BATCH];
    jchar c[JB_BATCH];
    jshort s[JB_BATCH];
    jint i[JB_BATCH];
    jlong j[JB_BATCH];
    jfloat f[JB_BATCH];
    jdouble d[JB_BATCH];
  } buf;
  jsize from = (jsize)lo;
  if (!elem || !strchr("ZBCSIJFD", elem)) {   /* object elements */
    if (!jb_wrap_batch(env, b, ctx, ref, from, n, true, out, exc)) {   /* the script's array: shared */
      *exc = NULL;
      return undefined_value(ctx);
    }
    return JSObjectMakeArray(ctx, (size_t)n, out, exc);
  }
  get_region(env, ref, elem, from, n, &buf);
  for (jint k = 0; k < n; k++) {
    jvalue v;
    switch (elem) {
    case 'I':
      out[k] = jb_imm_ok ? jb_imm_int(buf.i[k]) : JSValueMakeNumber(ctx, buf.i[k]);
      continue;
    case 'D':
      out[k] = jb_imm_ok ? jb_imm_double(buf.d[k]) : JSValueMakeNumber(ctx, buf.d[k]);
      continue;
    case 'Z': v.z = buf.z[k]; break;
    case 'B': v.b = buf.b[k]; break;
    case 'C': v.c = buf.c[k]; break;
    case 'S': v.s = buf.s[k]; break;
    case 'J': v.j = buf.j[k]; break;
    default: v.f = buf.f[k]; break;
    }
    out[k] = jb_to_js(env, b, ctx, elem, v, exc);
    if (!out[k]) return NULL;
  }
  return JSObjectMakeArray(ctx, (size_t)n, out, exc);
}

/* Stores an int-valued number into an int[] without the general
 * conversion (the common case of a[i] = n). True when it did. */
static bool store_int_fast(JNIEnv *env, jb_entry *e, jsize ix, JSValueRef value) {
  double d;
  if (e->cls->elem != 'I' || !jb_imm_ok || !jb_imm_number(value, &d)) return false;
  if (!(d >= -2147483648.0 && d <= 2147483647.0) || d != (double)(jint)d) return false;
  jint x = (jint)d;
  (*env)->SetIntArrayRegion(env, e->ref, ix, 1, &x);
  return true;
}

/* After a JS store into an object array: the array may be the one behind
 * an Arrays.asList list whose window was read in this crossing count
 * (native_list_window), and a store is no call, so it moved no crossing;
 * move the counter then, so that window (and every other) is read again.
 * Inside the gate. */
static inline void aslist_written(jb_rt *b) {
  if (b->aslist_count == *strait_crossings(b->rt)) strait_cross(b->rt);
}

/* aset(code, i, v): converts v and stores it as element i (TypeError /
 * RangeError when it does not fit or i is out of bounds; i = -1 is an
 * assignment to length, a TypeError). Inside the gate. */
static JSValueRef array_set(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  long i;
  jb_entry *e = element(ctx, b, argc, argv, &i, exc);
  if (!e) return NULL;
  JNIEnv *env = strait__env();
  JSValueRef value = argc > 2 ? argv[2] : undefined_value(ctx);
  jsize ix = (jsize)i;
  if (store_int_fast(env, e, ix, value)) return undefined_value(ctx);
  /* copies: converting the value may run JS that grows the table */
  jobject ref = e->ref;
  jb_class *cls = e->cls;
  jb_arg a;
  jb_arg_kind(b, ctx, value, &a);
  jb_locals l = {0};
  jvalue v;
  bool ok = jb_to_java(env, b, ctx, &a, cls->elem, cls->elem_cls, &v, &l, NULL, exc);
  if (!ok && !*exc) {            /* describe the failure only now */
    char what[300];
    char sb[256];
    snprintf(what, sizeof what, "%s element %ld", jb_source_name(cls->name, sb, sizeof sb), i);
    jb_to_java(env, b, ctx, &a, cls->elem, cls->elem_cls, &v, &l, what, exc);
  }
  jb_args_release(&a, 1);
  if (ok) {
    switch (cls->elem) {
    case 'Z': (*env)->SetBooleanArrayRegion(env, ref, ix, 1, &v.z); break;
    case 'B': (*env)->SetByteArrayRegion(env, ref, ix, 1, &v.b); break;
    case 'C': (*env)->SetCharArrayRegion(env, ref, ix, 1, &v.c); break;
    case 'S': (*env)->SetShortArrayRegion(env, ref, ix, 1, &v.s); break;
    case 'I': (*env)->SetIntArrayRegion(env, ref, ix, 1, &v.i); break;
    case 'J': (*env)->SetLongArrayRegion(env, ref, ix, 1, &v.j); break;
    case 'F': (*env)->SetFloatArrayRegion(env, ref, ix, 1, &v.f); break;
    case 'D': (*env)->SetDoubleArrayRegion(env, ref, ix, 1, &v.d); break;
    default:
      (*env)->SetObjectArrayElement(env, ref, ix, v.l);
      if ((*env)->ExceptionCheck(env)) jb_throw_pending(env, b, ctx, exc);   /* ArrayStoreException */
      else aslist_written(b);
      break;
    }
  }
  jb_locals_free(env, &l);
  return ok && !*exc ? undefined_value(ctx) : NULL;
}

/* ---- members of collections: List elements, Map entries, JSON items ----
 *
 * The catch-all (bridge_helper.js makeCatchall) calls these for the
 * instances of a class whose kind says List or Map: lget/lset/lsize(ci, r,
 * ...) and mget/mput(ci, r, key, ...). r is the receiver the trap was
 * given: it must be a live wrapper of an instance of class ci (the trap
 * belongs to ci, but Reflect.get may pass any receiver). Each element or
 * entry access calls the receiver's own public method (get(int),
 * set(int,Object), size(), get(Object), containsKey(Object),
 * put(Object,Object)) through jb_invoke, so the host access policy, the
 * argument conversion and its messages are those of a call written out.
 * items(v) gives the elements of a List, Collection, Map or Java array in
 * one crossing, for console.log; items(v, true) the JSON form of the whole
 * tree of collections under v in one crossing, for toJSON (neither under
 * EXPLICIT, which lets scripts reach only exported members). Inside the
 * gate.
 */

/* The receiver r of a collection native of class ci: its entry's Java
 * object and class (copied: a call may grow the table), or false when r
 * is not a live wrapper of an instance of ci. */
static bool coll_recv(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef ci, JSValueRef r, jobject *ref,
                      jb_class **cls) {
  if (!b || !JSValueIsObject(ctx, r) || !JSValueIsNumber(ctx, ci)) return false;
  jb_entry *e = jb_entry_of(b, (JSObjectRef)r);
  if (!e) return false;
  jb_class *k = jb_class_get(env, ctx, (int)JSValueToNumber(ctx, ci, NULL), false, NULL);
  if (!k || !jb_is_a(env, e->cls, k)) return false;
  *ref = e->ref;
  *cls = e->cls;
  return true;
}

/* The methods the collection natives call, by explicit signature. */
enum { OP_LGET, OP_LSET, OP_SIZE, OP_MGET, OP_MHAS, OP_MPUT, NOPS };
static const char *const op_sig[NOPS] = {"get(int)", "set(int,java.lang.Object)", "size()", "get(java.lang.Object)",
                                         "containsKey(java.lang.Object)", "put(java.lang.Object,java.lang.Object)"};

/* The member of op in class k, remembered process-wide in a direct-mapped
 * table (members are immutable and never freed, and a hit is checked
 * against its owner, so a racing or stale slot only costs a lookup). */
#define OP_MEMO 1024
static _Atomic(jb_member *) op_memo[OP_MEMO][NOPS];
static jb_member *op_member(jb_class *k, int op) {
  _Atomic(jb_member *) *slot = &op_memo[(unsigned)k->index % OP_MEMO][op];
  jb_member *m = atomic_load_explicit(slot, memory_order_acquire);
  if (m && m->owner == k) return m;
  m = jb_member_by_sig(k, op_sig[op], strlen(op_sig[op]), false);
  if (m) atomic_store_explicit(slot, m, memory_order_release);
  return m;
}

/* Calls the public instance method op (op_sig: "get(int)") of cls on recv (the
 * Java object of wrapper self) with JS arguments, as a call written in JS
 * would: the policy's denial, conversion errors and Java exceptions
 * become JS errors in *exc. */
static JSValueRef call_sig(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *cls, jobject recv, JSObjectRef self,
                           int op, size_t argc, const JSValueRef argv[], JSValueRef *exc) {
  jb_class *k = jb_class_get(env, ctx, cls->index, true, exc);
  if (!k) return NULL;
  jb_member *m = op_member(k, op);
  jb_group *g = m ? jb_group_find(k, m->name, strlen(m->name), false) : NULL;
  if (!m || !g) {
    *exc = strait_make_error(ctx, "TypeError", "%s has no public method %s", k->name, op_sig[op]);
    return NULL;
  }
  if (!jb_member_ok(env, b, m)) return jb_deny_member(b, ctx, k->name, m->sig, exc);
  jb_call c = {.g = g, .forced = m, .recv = recv, .self = self};
  return jb_invoke(env, b, ctx, &c, argc, argv, exc);
}

/* Index argument of lget/lset: a number the trap made from a canonical
 * array index (0 .. 2^32 - 2). */
static bool list_index(JSContextRef ctx, size_t argc, const JSValueRef argv[], double *i) {
  if (argc < 3 || !JSValueIsNumber(ctx, argv[2])) return false;
  *i = JSValueToNumber(ctx, argv[2], NULL);
  return *i >= 0 && *i <= 4294967294.0;
}

/* After a failed element access of list recv at index i: a RangeError
 * naming class, index and size in *exc when i is out of bounds (the Java
 * exception otherwise stays). */
static void list_range(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *cls, jobject recv, JSObjectRef self, double i,
                       JSValueRef *exc) {
  JSValueRef ignored = NULL;
  JSValueRef n = call_sig(env, b, ctx, cls, recv, self, OP_SIZE, 0, NULL, &ignored);
  if (n && JSValueIsNumber(ctx, n) && i >= JSValueToNumber(ctx, n, NULL))
    *exc = strait_make_error(ctx, "RangeError", "%s index %.0f out of bounds for length %.0f", cls->name, i,
                             JSValueToNumber(ctx, n, NULL));
}

/* lget(ci, r, i): element i of the List r (list.get(i)); RangeError out of
 * bounds; undefined when r is not such a List. */
static JSValueRef native_list_get(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                  const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  JNIEnv *env = strait__env();
  jobject recv;
  jb_class *cls;
  double i;
  if (argc < 3 || !coll_recv(env, b, ctx, argv[0], argv[1], &recv, &cls) || !list_index(ctx, argc, argv, &i))
    return JSValueMakeUndefined(ctx);
  if (i > 2147483647.0) {
    *exc = strait_make_error(ctx, "RangeError", "%s index %.0f out of bounds (a Java index is an int)", cls->name, i);
    return NULL;
  }
  JSObjectRef w = (JSObjectRef)argv[1];
  JSValueRef r = call_sig(env, b, ctx, cls, recv, w, OP_LGET, 1, argv + 2, exc);
  if (!r) list_range(env, b, ctx, cls, recv, w, i, exc);
  return r;
}

/* lset(ci, r, i, v): list.set(i, v); RangeError out of bounds (a List
 * does not grow by assignment: add()), TypeError when r is not a List of
 * ci. */
static JSValueRef native_list_set(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                  const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  JNIEnv *env = strait__env();
  jobject recv;
  jb_class *cls;
  double i;
  if (argc < 4 || !coll_recv(env, b, ctx, argv[0], argv[1], &recv, &cls) || !list_index(ctx, argc, argv, &i)) {
    *exc = strait_make_error(ctx, "TypeError", "list element assigned on a value that is not a live Java List");
    return NULL;
  }
  if (i > 2147483647.0) {
    *exc = strait_make_error(ctx, "RangeError", "%s index %.0f out of bounds (a Java index is an int)", cls->name, i);
    return NULL;
  }
  JSObjectRef w = (JSObjectRef)argv[1];
  JSValueRef r = call_sig(env, b, ctx, cls, recv, w, OP_LSET, 2, argv + 2, exc);
  if (!r) list_range(env, b, ctx, cls, recv, w, i, exc);
  return r ? JSValueMakeUndefined(ctx) : NULL;
}

/* lsize(ci, r): list.size() (the `length` of a List); TypeError when r is
 * not a List of ci. */
static JSValueRef native_list_size(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  JNIEnv *env = strait__env();
  jobject recv;
  jb_class *cls;
  if (argc < 2 || !coll_recv(env, b, ctx, argv[0], argv[1], &recv, &cls)) {
    *exc = strait_make_error(ctx, "TypeError", "length of a Java List read on a value that is not a live Java List");
    return NULL;
  }
  return call_sig(env, b, ctx, cls, recv, (JSObjectRef)argv[1], OP_SIZE, 0, NULL, exc);
}

/* ---- windows of JDK lists ----
 *
 * lwin(r, lo, n): for a wrapper r of java.util.ArrayList or of the lists of
 * Arrays.asList and List.of (classes whose get and size run no other code
 * and whose elements change only by calls on the list), [r.get(lo), ...,
 * r.get(lo+k-1), r.size()] with k = min(n, size - lo) (0 <= n <= JB_BATCH),
 * read in one upcall that does not suspend the gate, so the runtime's
 * crossing counter keeps its value (bridge_helper.js serves get, size,
 * r[i] and r.length from it while it does). Elements are converted as a
 * call's results are. undefined (the helper then makes the call itself)
 * for any other receiver, when the runtime's policy filters get(int) or
 * size(), or when an element cannot be converted. Inside the gate.
 */
static _Atomic(jmethodID) list_window_mid;

/* Whether members name/nparams of cls pass the runtime's policy. */
static bool member_allowed(JNIEnv *env, jb_rt *b, jb_class *cls, const char *name, int nparams) {
  jb_group *g = jb_group_find(cls, name, strlen(name), false);
  if (!g) return false;
  for (int i = 0; i < g->n; i++)
    if (g->m[i]->nparams == nparams) return !b->mdeny || jb_member_ok(env, b, g->m[i]);
  return false;
}

static JSValueRef native_list_window(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                     const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  double lo, nd;
  jb_entry *e = b && argc >= 3 && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  int wl = e ? jb_windowed_list(e->cls) : JB_WL_NONE;
  if (wl == JB_WL_NONE || !arg_number(ctx, argv[1], &lo) || !arg_number(ctx, argv[2], &nd) ||
      !(lo >= 0 && lo <= 2147483647.0) || lo != (double)(jint)lo || !(nd >= 0 && nd <= JB_BATCH) ||
      nd != (double)(jint)nd || b->access == JB_HOST_EXPLICIT)
    return undefined_value(ctx);
  JNIEnv *env = strait__env();
  jobject list = e->ref;   /* a global ref: the entry may move when the batch grows the table */
  jb_class *cls = e->cls;
  if (b->mdeny && (!member_allowed(env, b, cls, "get", 1) || !member_allowed(env, b, cls, "size", 0)))
    return undefined_value(ctx);
  jmethodID m = atomic_load_explicit(&list_window_mid, memory_order_acquire);
  if (!m) {
    m = (*env)->GetStaticMethodID(env, jb.Bridge, "listWindow", "(Ljava/util/List;II[Ljava/lang/Object;)I");
    if (!m) {
      (*env)->ExceptionClear(env);
      return undefined_value(ctx);
    }
    atomic_store_explicit(&list_window_mid, m, memory_order_release);
  }
  jint n = (jint)nd;
  /* an Arrays.asList list reads through to an array JS may hold and write
   * without a call (array_set, aslist_written) */
  if (wl == JB_WL_ARRAY_BACKED) b->aslist_count = *strait_crossings(b->rt);
  jb_maybe_flush(env, b);
  jobjectArray out = (*env)->NewObjectArray(env, n > 0 ? n : 1, strait__jc.Object, NULL);
  if (!out) {
    (*env)->ExceptionClear(env);
    return undefined_value(ctx);
  }
  jint size = (*env)->CallStaticIntMethod(env, jb.Bridge, m, list, (jint)lo, n, out);
  if ((*env)->ExceptionCheck(env)) {   /* out of memory: the call made the slow way says so */
    (*env)->ExceptionClear(env);
    (*env)->DeleteLocalRef(env, out);
    return undefined_value(ctx);
  }
  jint k = size - (jint)lo < n ? size - (jint)lo : n;
  if (k < 0) k = 0;
  JSValueRef vals[JB_BATCH + 1];
  bool ok = jb_wrap_batch(env, b, ctx, out, 0, k, false, vals, exc);
  (*env)->DeleteLocalRef(env, out);
  if (!ok) {
    *exc = NULL;
    return undefined_value(ctx);
  }
  vals[k] = JSValueMakeNumber(ctx, size);
  return JSObjectMakeArray(ctx, (size_t)k + 1, vals, exc);
}

/* mget(ci, r, key): map.get(key), undefined when the map has no such key
 * (get gave null and containsKey false) or r is not a Map of ci. */
static JSValueRef native_map_get(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  JNIEnv *env = strait__env();
  jobject recv;
  jb_class *cls;
  if (argc < 3 || !coll_recv(env, b, ctx, argv[0], argv[1], &recv, &cls)) return JSValueMakeUndefined(ctx);
  JSObjectRef w = (JSObjectRef)argv[1];
  JSValueRef r = call_sig(env, b, ctx, cls, recv, w, OP_MGET, 1, argv + 2, exc);
  if (!r || !JSValueIsNull(ctx, r)) return r;
  JSValueRef has = call_sig(env, b, ctx, cls, recv, w, OP_MHAS, 1, argv + 2, exc);
  if (!has) return NULL;
  return JSValueToBoolean(ctx, has) ? r : JSValueMakeUndefined(ctx);
}

/* mput(ci, r, key, v): map.put(key, v); TypeError when r is not a Map of
 * ci. */
static JSValueRef native_map_put(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  JNIEnv *env = strait__env();
  jobject recv;
  jb_class *cls;
  if (argc < 4 || !coll_recv(env, b, ctx, argv[0], argv[1], &recv, &cls)) {
    *exc = strait_make_error(ctx, "TypeError", "map entry assigned on a value that is not a live Java Map");
    return NULL;
  }
  JSValueRef r = call_sig(env, b, ctx, cls, recv, (JSObjectRef)argv[1], OP_MPUT, 2,
                          argv + 2, exc);
  return r ? JSValueMakeUndefined(ctx) : NULL;
}

/* Bridge.items, looked up once per process (IDs stay valid while the class
 * is loaded, and Bridge never unloads). */
static _Atomic(jmethodID) items_mid;

/* A new JS array of the Java objects in a (converted as a get() would
 * give them). Each element is stored as it is made, so the array (a local
 * JSC scans) holds it across the next call. NULL with *exc set. */
static JSObjectRef js_array_of(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobjectArray a, JSValueRef *exc) {
  jsize n = a ? (*env)->GetArrayLength(env, a) : 0;
  JSObjectRef out = JSObjectMakeArray(ctx, 0, NULL, exc);
  for (jsize i = 0; out && i < n; i++) {
    jobject x = (*env)->GetObjectArrayElement(env, a, i);
    JSValueRef v = jb_wrap(env, b, ctx, x, exc);
    if (x) (*env)->DeleteLocalRef(env, x);
    if (!v) return NULL;
    JSObjectSetPropertyAtIndex(ctx, out, (unsigned)i, v, exc);
    if (*exc) return NULL;
  }
  return out;
}

/* Bridge.jsonTree, looked up once per process (as items_mid). */
static _Atomic(jmethodID) json_mid;

/* The conversion of one json_tree: the references Bridge.jsonTree left
 * for the native side. */
typedef struct json_refs {
  JNIEnv *env;
  jb_rt *b;
  jobjectArray refs;
} json_refs;

/* Reader hook of json_tree: reference id as an element read gives it
 * (jb_wrap: a number or BigInt for a Long, the JS value of a JsValue, a
 * wrapper, or the policy's TypeError). Inside the gate. */
static JSValueRef json_ref_value(void *ud, JSContextRef ctx, uint32_t id, JSValueRef *exc) {
  json_refs *r = ud;
  JNIEnv *env = r->env;
  if (!r->refs || id >= (uint32_t)(*env)->GetArrayLength(env, r->refs)) {
    *exc = strait_make_error(ctx, "RangeError", "JSON of a Java collection refers to object %u, which was not passed", id);
    return NULL;
  }
  jobject o = (*env)->GetObjectArrayElement(env, r->refs, (jsize)id);
  JSValueRef v = jb_wrap(env, r->b, ctx, o, exc);
  if (o) (*env)->DeleteLocalRef(env, o);
  return v;
}

/* items(v, true) for the wrapper entry e: the JSON form of the tree of
 * collections under it (Bridge.jsonTree) made into plain JS arrays and
 * objects by the value reader (one upcall, one decode); a collection
 * inside itself a TypeError, nesting past Bridge.MAX_JSON_DEPTH a
 * RangeError (messages as bridge_helper.js had them). Inside the gate. */
static JSValueRef json_tree(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_entry *e, JSValueRef *exc) {
  /* copies: while the gate is suspended for the walk, and while decoding
   * wraps objects, the table may grow and move the entry */
  jobject ref = e->ref;
  jb_class *cls = e->cls;
  jmethodID mid = atomic_load_explicit(&json_mid, memory_order_acquire);
  if (!mid) {
    mid = (*env)->GetStaticMethodID(env, jb.Bridge, "jsonTree",
                                    "(Ljava/lang/Object;Lorg/strait/internal/HostPolicy;)[Ljava/lang/Object;");
    if (!mid) {
      jb_throw_pending(env, b, ctx, exc);
      return NULL;
    }
    atomic_store_explicit(&json_mid, mid, memory_order_release);
  }
  jb_maybe_flush(env, b);
  if (strait__java_call_refused(env, b->rt)) return NULL;
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jobjectArray a = (*env)->CallStaticObjectMethod(env, jb.Bridge, mid, ref, b->policy);
  strait_gate_resume(b->rt, &susp);
  jboolean threw = (*env)->ExceptionCheck(env);
  if (strait__java_returned(env, b->rt, threw)) {
    if (a) (*env)->DeleteLocalRef(env, a);
    return NULL;
  }
  if (threw) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  if (!a) return JSValueMakeUndefined(ctx);
  jsize n = (*env)->GetArrayLength(env, a);
  jobject first = n > 0 ? (*env)->GetObjectArrayElement(env, a, 0) : NULL;
  if (n == 2) {                                     /* {1, type name}: a cycle; {2, null}: too deep */
    double code = first ? (*env)->CallDoubleMethod(env, first, strait__jc.Number_doubleValue) : 0;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);   /* an Integer's doubleValue: OOM only */
    jstring tn = (*env)->GetObjectArrayElement(env, a, 1);
    const char *name = tn ? (*env)->GetStringUTFChars(env, tn, NULL) : NULL;
    if (code == 1)
      *exc = strait_make_error(ctx, "TypeError", "Converting circular structure to JSON: a Java %s contains itself",
                               name ? name : "collection");
    else
      *exc = strait_make_error(ctx, "RangeError", "Java collections nested deeper than 256 levels cannot become JSON");
    if (name) (*env)->ReleaseStringUTFChars(env, tn, name);
    if (tn) (*env)->DeleteLocalRef(env, tn);
    if (first) (*env)->DeleteLocalRef(env, first);
    (*env)->DeleteLocalRef(env, a);
    (*env)->ExceptionClear(env);
    return NULL;
  }
  jobject lenbox = n == 3 ? (*env)->GetObjectArrayElement(env, a, 1) : NULL;
  jint len = lenbox ? (jint)(*env)->CallDoubleMethod(env, lenbox, strait__jc.Number_doubleValue) : -1;
  if ((*env)->ExceptionCheck(env)) {                                /* OOM only: reported below */
    (*env)->ExceptionClear(env);
    len = -1;
  }
  json_refs jr = {.env = env, .b = b, .refs = n == 3 ? (*env)->GetObjectArrayElement(env, a, 2) : NULL};
  if (lenbox) (*env)->DeleteLocalRef(env, lenbox);
  (*env)->DeleteLocalRef(env, a);
  uint8_t *buf = NULL;
  if (first && len >= 8 /* the header */ && len <= (*env)->GetArrayLength(env, (jbyteArray)first)) {
    buf = malloc((size_t)len);
    if (buf) (*env)->GetByteArrayRegion(env, (jbyteArray)first, 0, len, (jbyte *)buf);
  }
  if (first) (*env)->DeleteLocalRef(env, first);
  JSValueRef v = NULL;
  if (!buf || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    *exc = strait_make_error(ctx, "RangeError", "out of memory for the JSON of a Java %s", cls->name);
  } else {
    strait_value_hooks hooks = {.ud = &jr, .java_value = json_ref_value};
    strait_value_error err;
    int rc = strait_value_decode(b->rt, buf, (size_t)len, &hooks, &v, &err, exc);
    if (rc && rc != STRAIT_EJS && !*exc) *exc = strait_make_error(ctx, "Error", "JSON of a Java %s: %s", cls->name, err.msg);
    if (rc) v = NULL;
  }
  free(buf);
  if (jr.refs) (*env)->DeleteLocalRef(env, jr.refs);
  return v;
}

/* items(v): for a wrapper of a Collection [1, className, elements], of a
 * Map [2, className, keys (strings), values], of a Java array [3,
 * className in Java source form ("int[]"), elements]; undefined for any
 * other value. items(v, true): json_tree. One crossing. */
static JSValueRef native_items(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  if (!b || argc < 1 || !JSValueIsObject(ctx, argv[0])) return JSValueMakeUndefined(ctx);
  jb_entry *e = jb_entry_of(b, (JSObjectRef)argv[0]);
  /* EXPLICIT: only exported members, so no contents read by the bridge */
  if (!e || b->access == JB_HOST_EXPLICIT) return JSValueMakeUndefined(ctx);
  JNIEnv *env = strait__env();
  if (argc >= 2 && JSValueToBoolean(ctx, argv[1])) return json_tree(env, b, ctx, e, exc);
  jobject ref = e->ref;
  jb_class *cls = e->cls;
  jmethodID mid = atomic_load_explicit(&items_mid, memory_order_acquire);
  if (!mid) {
    mid = (*env)->GetStaticMethodID(env, jb.Bridge, "items", "(Ljava/lang/Object;)[Ljava/lang/Object;");
    if (!mid) {
      jb_throw_pending(env, b, ctx, exc);
      return NULL;
    }
    atomic_store_explicit(&items_mid, mid, memory_order_release);
  }
  jb_maybe_flush(env, b);
  if (strait__java_call_refused(env, b->rt)) return NULL;
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jobjectArray a = (*env)->CallStaticObjectMethod(env, jb.Bridge, mid, ref);
  strait_gate_resume(b->rt, &susp);
  jboolean threw = (*env)->ExceptionCheck(env);
  if (strait__java_returned(env, b->rt, threw)) {
    if (a) (*env)->DeleteLocalRef(env, a);
    return NULL;
  }
  if (threw) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  if (!a) return JSValueMakeUndefined(ctx);
  JSValueRef parts[4] = {NULL, NULL, NULL, NULL};
  jsize n = (*env)->GetArrayLength(env, a);
  jobject kind = n > 0 ? (*env)->GetObjectArrayElement(env, a, 0) : NULL;
  parts[0] = kind ? jb_wrap(env, b, ctx, kind, exc) : NULL;   /* an Integer: a number */
  if (kind) (*env)->DeleteLocalRef(env, kind);
  char sb[256];
  JSStringRef nm = JSStringCreateWithUTF8CString(jb_source_name(cls->name, sb, sizeof sb));
  parts[1] = JSValueMakeString(ctx, nm);
  JSStringRelease(nm);
  size_t np = 2;
  for (jsize i = 1; parts[0] && i < n && np < 4; i++) {
    jobjectArray part = (*env)->GetObjectArrayElement(env, a, i);
    JSObjectRef arr = js_array_of(env, b, ctx, part, exc);
    if (part) (*env)->DeleteLocalRef(env, part);
    if (!arr) break;
    parts[np++] = arr;
  }
  (*env)->DeleteLocalRef(env, a);
  if (!parts[0] || np != (size_t)n + 1) {
    if (!*exc) *exc = strait_make_error(ctx, "Error", "cannot read the contents of %s", cls->name);
    return NULL;
  }
  return JSObjectMakeArray(ctx, np, parts, exc);
}

/* ---- the table the model makes its objects with ------------------------ */

static JSClassRef sig_ctor_class;   /* C['new(type,...)']: callable and a constructor */
static pthread_once_t sig_ctor_once = PTHREAD_ONCE_INIT;

static void make_sig_ctor_class(void) {
  JSClassDefinition c = kJSClassDefinitionEmpty;
  c.className = "Function";
  c.callAsFunction = sig_ctor_call;
  c.callAsConstructor = sig_ctor_new;
  sig_ctor_class = JSClassCreate(&c);
}

/* The process-wide class of explicit-constructor functions. Any thread. */
static JSClassRef get_sig_ctor_class(void) {
  pthread_once(&sig_ctor_once, make_sig_ctor_class);
  return sig_ctor_class;
}

const jb_callbacks jb_js_callbacks = {
  .method = method_call,
  .construct = native_construct,
  .field_get = field_getter,
  .field_set = field_setter,
  .is_instance = native_is_instance,
  .iter_start = native_iter_start,
  .iter_next = native_iter_next,
  .resolve = native_resolve,
  .array_get = array_get,
  .array_set = array_set,
  .array_window = array_window,
  .list_get = native_list_get,
  .list_set = native_list_set,
  .list_size = native_list_size,
  .list_window = native_list_window,
  .map_get = native_map_get,
  .map_put = native_map_put,
  .items = native_items,
  .sig_ctor_class = get_sig_ctor_class,
};

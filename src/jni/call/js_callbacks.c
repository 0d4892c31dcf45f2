/*
 * js_callbacks.c - the JSC callbacks through which JS reaches Java: the
 * function of a method (or of one explicit overload), the construct
 * function of a class, the accessors of a field, `instanceof`, the
 * iterator of an Iterable or Map, the catch-all's answer for a name a class
 * object lacks, and the element reads and writes of a Java array. Each
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static JSValueRef resolve_name(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *buf,
                               size_t len, bool is_static, bool quiet, JSValueRef *exc);

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

/* iterStart(obj): a Java Iterator over obj (Iterable, Map entries, array). */
static JSValueRef native_iter_start(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                    const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of_fn(ctx, fn);
  JNIEnv *env = strait__env();
  jb_entry *e = argc && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  if (!e) {
    *exc = strait_make_error(ctx, "TypeError", "Symbol.iterator of a Java object called on a non-Java value");
    return NULL;
  }
  jb_maybe_flush(env, b);
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jobject it = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_iterator, e->ref);
  strait_gate_resume(b->rt, &susp);
  if ((*env)->ExceptionCheck(env)) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  JSValueRef r = jb_wrap_given(env, b, ctx, it, exc);   /* the bridge made it */
  (*env)->DeleteLocalRef(env, it);
  return r;
}

/* iterNext(it): the next element, or the DONE marker. */
static JSValueRef native_iter_next(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of_fn(ctx, fn);
  JNIEnv *env = strait__env();
  jb_entry *e = argc && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  if (!e) return b->token_key;
  jb_maybe_flush(env, b);
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jobject v = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_iterNext, e->ref);
  strait_gate_resume(b->rt, &susp);
  if ((*env)->ExceptionCheck(env)) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  if (v && (*env)->IsSameObject(env, v, jb.done)) {
    (*env)->DeleteLocalRef(env, v);
    return b->token_key;
  }
  JSValueRef r = jb_wrap(env, b, ctx, v, exc);
  if (v) (*env)->DeleteLocalRef(env, v);
  return r;
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

/* True when s could be a Java member name. */
static bool is_identifier(const char *s) {
  if (!*s) return false;
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (!(c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80 ||
          (p != s && c >= '0' && c <= '9')))
      return false;
  }
  return true;
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

static JSValueRef native_resolve(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  if (!b || argc < 4 || !JSValueIsString(ctx, argv[2])) return JSValueMakeUndefined(ctx);
  bool is_static = JSValueToBoolean(ctx, argv[1]);
  bool quiet = JSValueToBoolean(ctx, argv[3]);
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
  size_t len = buf ? JSStringGetUTF8CString(name, buf, max) : 0;
  JSStringRelease(name);
  JSValueRef r = len == 0 ? JSValueMakeUndefined(ctx)
                          : resolve_name(ctx, b, env, k, buf, len - 1, is_static, quiet, exc);
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
 * buf[len]). Inside the gate. */
static JSValueRef resolve_name(JSContextRef ctx, jb_rt *b, JNIEnv *env, jb_class *k, const char *buf,
                               size_t len, bool is_static, bool quiet, JSValueRef *exc) {
  JSValueRef ignored = NULL;
  if (memchr(buf, '(', len)) return resolve_signature(ctx, b, env, k, buf, len, is_static, quiet, exc);
  if (!is_identifier(buf)) return JSValueMakeUndefined(ctx);
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
  if (quiet || is_probe_name(buf)) return JSValueMakeUndefined(ctx);
  /* a member the class has and the runtime's policy denies (left off the
   * prototype): named as denied; EXPLICIT's unannotated ones are missing */
  {
    jb_group *own = jb_group_find(k, buf, len, is_static);
    jb_member *fld = jb_field_find(k, buf, len, is_static);
    bool forbidden = false;
    for (int i = 0; own && i < own->n; i++) forbidden |= jb_member_forbidden(b, own->m[i]);
    if (fld) forbidden |= jb_member_forbidden(b, fld);
    if (forbidden) return jb_deny_member(b, ctx, k->name, buf, exc);
  }
  jb_group *other = jb_group_find(k, buf, len, !is_static);
  if (other) {
    *exc = strait_make_error(ctx, "TypeError", "%s.%s is %s method; use it on %s", k->name, buf,
                    is_static ? "an instance" : "a static", is_static ? "an instance" : "the class");
    return NULL;
  }
  *exc = strait_make_error(ctx, "TypeError", "%s has no public %smember '%s'", k->name, is_static ? "static " : "", buf);
  return NULL;
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
  case 'Z': (*env)->GetBooleanArrayRegion(env, e->ref, ix, 1, &v.z); break;
  case 'B': (*env)->GetByteArrayRegion(env, e->ref, ix, 1, &v.b); break;
  case 'C': (*env)->GetCharArrayRegion(env, e->ref, ix, 1, &v.c); break;
  case 'S': (*env)->GetShortArrayRegion(env, e->ref, ix, 1, &v.s); break;
  case 'I':
    (*env)->GetIntArrayRegion(env, e->ref, ix, 1, &v.i);
    return jb_imm_ok ? jb_imm_int(v.i) : JSValueMakeNumber(ctx, v.i);
  case 'J': (*env)->GetLongArrayRegion(env, e->ref, ix, 1, &v.j); break;
  case 'F': (*env)->GetFloatArrayRegion(env, e->ref, ix, 1, &v.f); break;
  case 'D':
    (*env)->GetDoubleArrayRegion(env, e->ref, ix, 1, &v.d);
    return jb_imm_ok ? jb_imm_double(v.d) : JSValueMakeNumber(ctx, v.d);
  default: {
    v.l = (*env)->GetObjectArrayElement(env, e->ref, ix);
    JSValueRef r = jb_wrap(env, b, ctx, v.l, exc);
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
      break;
    }
  }
  jb_locals_free(env, &l);
  return ok && !*exc ? undefined_value(ctx) : NULL;
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
  .sig_ctor_class = get_sig_ctor_class,
};

/*
 * convert.c - values between JS and Java for the bridge: what a JS
 * argument is (jb_arg_kind), how well it fits a parameter type (jb_cost,
 * used by overload resolution), the conversion itself (jb_to_java) and the
 * way back (jb_to_js). Numbers never wrap silently: a value that does not
 * fit the chosen primitive is a RangeError, a value of the wrong kind a
 * TypeError. Strings cross as exact UTF-16.
 *
 * Every function here runs on the thread inside the runtime's gate.
 */
#include "value/value.h"
#include "base/interop_ids.h"

#include <float.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds a local ref to delete after the call. Inside the gate. */
void jb_locals_add(jb_locals *l, jobject r) {
  if (!r) return;
  if (l->n < (int)(sizeof l->refs / sizeof l->refs[0])) {
    l->refs[l->n++] = r;
    return;
  }
  if (l->nmore == l->capmore) {
    int cap = l->capmore ? l->capmore * 2 : 32;
    jobject *m = realloc(l->more, (size_t)cap * sizeof *m);
    if (!m) return;                 /* the ref then lives until the frame ends */
    l->more = m;
    l->capmore = cap;
  }
  l->more[l->nmore++] = r;
}

/* Deletes every local ref collected in l. Inside the gate. */
void jb_locals_free(JNIEnv *env, jb_locals *l) {
  for (int i = 0; i < l->n; i++) (*env)->DeleteLocalRef(env, l->refs[i]);
  for (int i = 0; i < l->nmore; i++) (*env)->DeleteLocalRef(env, l->more[i]);
  free(l->more);
  l->n = 0;
  l->more = NULL;
  l->nmore = l->capmore = 0;
}

/* Kind of a JS number: int32, other integral within long, or fractional. */
/* jb_name_utf8 (value.h): the exact UTF-8 length is counted from the
 * UTF-16 units while checking them, then compared with what JSC wrote. */
int jb_name_utf8(JSStringRef s, char *buf, size_t cap, size_t *len) {
  size_t n = JSStringGetLength(s), need = 0;
  const JSChar *c = JSStringGetCharactersPtr(s);
  if (!c && n) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned u = c[i];
    if (u == 0) return 0;
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 1 >= n || c[i + 1] < 0xDC00 || c[i + 1] > 0xDFFF) return 0;
      i++;
      need += 4;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      return 0;
    } else {
      need += u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
    }
  }
  if (need + 1 > cap) return 0;
  size_t w = JSStringGetUTF8CString(s, buf, cap);
  if (w != need + 1 || buf[need] != 0) return 0;
  *len = need;
  return 1;
}

static inline int jb_num_kind(double d) {
  if (d == 0 && signbit(d)) return JK_FRAC;     /* -0 exists only as a double */
  if (d >= -2147483648.0 && d <= 2147483647.0 && d == (double)(int32_t)d && !(d == 0 && signbit(d)))
    return JK_INT;
  if (d == floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) return JK_LONGINT;
  return JK_FRAC;
}

/* Caches the JS string v (contents str, len code units) in place h with
 * its Java String, replacing what was there unless an argument in flight
 * holds it (sc_pin: this thread's outer calls, or another thread's call
 * that let go of the gate while Java runs). Inside the gate. */
static void strcache_admit(jb_rt *b, JSContextRef ctx, uint32_t h, JSValueRef v, JSStringRef str, size_t len) {
  if (b->sc_pin[h]) return;
  JNIEnv *env = strait__env();
  jstring s = strait__jstring_from_js(env, str);
  if (!s) { (*env)->ExceptionClear(env); return; }
  jobject g = (*env)->NewGlobalRef(env, s);
  (*env)->DeleteLocalRef(env, s);
  if (!g) return;
  if (b->sc_val[h]) {
    JSValueUnprotect(ctx, b->sc_val[h]);
    (*env)->DeleteGlobalRef(env, b->sc_str[h]);
  }
  JSValueProtect(ctx, v);
  b->sc_val[h] = v;
  b->sc_str[h] = g;
  b->sc_len[h] = (uint32_t)len;
  b->sc_c0[h] = len ? JSStringGetCharactersPtr(str)[0] : 0;
}

/*
 * Classes and IDs of the JS values passed as themselves, looked up once per
 * process (pthread_once) and then only read: java.time.Instant and its
 * ofEpochMilli, JsRuntime.drainIfPending, JsValue.handleIn.
 */
static struct {
  jclass Instant;
  jmethodID Instant_ofEpochMilli;     /* static (J)Ljava/time/Instant; */
  jmethodID JsRuntime_drainIfPending; /* ()V, package-private */
  jmethodID JsValue_handleIn;         /* (Lorg/strait/JsRuntime;)J, package-private */
} vc;
static pthread_once_t vc_once = PTHREAD_ONCE_INIT;

/* Fills vc; what cannot be found stays NULL (its conversions then fail
 * with a TypeError). Once, on a thread attached to the JVM. */
static void vc_init(void) {
  JNIEnv *env = strait__env();
  if (!env) return;
  jclass c = (*env)->FindClass(env, "java/time/Instant");
  if (c) {
    vc.Instant_ofEpochMilli = (*env)->GetStaticMethodID(env, c, "ofEpochMilli", "(J)Ljava/time/Instant;");
    vc.Instant = (*env)->NewGlobalRef(env, c);
    (*env)->DeleteLocalRef(env, c);
  }
  (*env)->ExceptionClear(env);
  if (strait__jc.JsRuntime)
    vc.JsRuntime_drainIfPending = (*env)->GetMethodID(env, strait__jc.JsRuntime, "drainIfPending", "()V");
  (*env)->ExceptionClear(env);
  if (strait__jc.JsValue)
    vc.JsValue_handleIn = (*env)->GetMethodID(env, strait__jc.JsValue, "handleIn", "(Lorg/strait/JsRuntime;)J");
  (*env)->ExceptionClear(env);
}

/* java.time.Instant (global ref) or NULL. */
static jclass instant_class(JNIEnv *env) {
  (void)env;
  pthread_once(&vc_once, vc_init);
  return vc.Instant;
}

/* Index of class cls (a global ref of the layer's caches), looked up
 * once per process and then only read; -1 when it cannot be found. Any
 * thread inside a runtime. */
static int cached_index(JNIEnv *env, _Atomic int *slot, jclass cls) {
  int ci = atomic_load_explicit(slot, memory_order_relaxed);
  if (ci > 0) return ci - 1;
  ci = cls ? jb_class_index(env, cls) : -1;
  if (ci < 0) { (*env)->ExceptionClear(env); return -1; }
  atomic_store_explicit(slot, ci + 1, memory_order_relaxed);
  return ci;
}

/* Class metadata of java.lang.Class (process-wide, described once). */
static jb_class *class_class(JNIEnv *env) {
  static _Atomic int idx;
  int ci = cached_index(env, &idx, jb.Class);
  return ci >= 0 ? jb_class_get(env, NULL, ci, false, NULL) : NULL;
}

/* When o is the JS constructor of a Java class (jb_ctor_class), fills a
 * as a wrapper of its java.lang.Class object (a->ref: the class's global
 * ref, alive while the bridge's class table is) and returns true. A class
 * object then ranks and converts exactly as a wrapped Class would. */
static bool class_object_arg(jb_rt *b, JSContextRef ctx, JSObjectRef o, jb_arg *a) {
  int ci = jb_ctor_class(b, ctx, o);
  if (ci < 0) return false;
  JNIEnv *env = strait__env();
  jb_class *k = jb_class_get(env, NULL, ci, false, NULL);
  jb_class *cc = k ? class_class(env) : NULL;
  if (!k || !k->ref || !cc) return false;
  a->kind = JK_WRAPPER;
  a->ref = k->ref;
  a->cls = cc;
  return true;
}

/* a for v, nothing known of it yet. */
static inline void arg_clear(jb_arg *a, JSValueRef v) {
  a->v = v;
  a->e = NULL;
  a->ref = NULL;
  a->cls = NULL;
  a->str = NULL;
  a->jstr = NULL;
  a->pin = NULL;
  a->c0 = 0;
  a->num = 0;
}

/* a is the wrapper of entry e. */
static inline void arg_wrapper(jb_arg *a, jb_entry *e) {
  /* copies: a nested call may move the table before the argument is used */
  a->e = e;
  a->ref = e->ref;
  a->cls = e->cls;
  a->kind = (e->cls->flags & JB_ARRAY) ? JK_JARRAY : JK_WRAPPER;
}

/* Fills a for a wrapper found by its address; see value/value.h. */
bool jb_arg_wrapper(jb_rt *b, JSValueRef v, jb_arg *a) {
  double d;
  if (!jb_imm_ok || jb_imm_number(v, &d) || jb_bits(v) <= 0xff) return false;
  /* a cell: only a live wrapper is found at its address (the weak handle
   * of an entry whose wrapper died, the cell since reused by a string or
   * another object, no longer names it) */
  jb_entry *e = jb_entry_of(b, (JSObjectRef)v);
  if (!e) return false;
  arg_clear(a, v);
  arg_wrapper(a, e);
  return true;
}

/* Classifies a JS value for resolution and conversion. Inside the gate. */
void jb_arg_kind(jb_rt *b, JSContextRef ctx, JSValueRef v, jb_arg *a) {
  arg_clear(a, v);
  if (jb_imm_ok) {
    double d;
    if (jb_imm_number(v, &d)) {
      a->num = d;
      a->kind = jb_num_kind(d);
      return;
    }
    switch (jb_bits(v)) {
    case JB_VALUE_UNDEFINED: a->kind = JK_UNDEF; return;
    case JB_VALUE_NULL: a->kind = JK_NULL; return;
    case JB_VALUE_TRUE: a->kind = JK_BOOL; a->num = 1; return;
    case JB_VALUE_FALSE: a->kind = JK_BOOL; return;
    default: break;
    }
  }
  switch (JSValueGetType(ctx, v)) {
  case kJSTypeUndefined: a->kind = JK_UNDEF; return;
  case kJSTypeNull: a->kind = JK_NULL; return;
  case kJSTypeBoolean:
    a->kind = JK_BOOL;
    a->num = JSValueToBoolean(ctx, v);
    return;
  case kJSTypeNumber: {
    double d = JSValueToNumber(ctx, v, NULL);
    a->num = d;
    a->kind = jb_num_kind(d);
    return;
  }
  case kJSTypeString: {
    uint32_t h = (uint32_t)((uintptr_t)v >> 4) & (JB_SCACHE - 1);
    if (b && b->sc_val[h] == v) {
      /* the global ref itself, no new local ref: pinned so that no
       * admission replaces (and deletes) it before jb_args_release */
      a->jstr = b->sc_str[h];
      a->pin = &b->sc_pin[h];
      b->sc_pin[h]++;
      a->c0 = b->sc_c0[h];
      a->kind = b->sc_len[h] == 1 ? JK_CHAR : JK_STRING;
      return;
    }
    a->str = JSValueToStringCopy(ctx, v, NULL);
    size_t len = a->str ? JSStringGetLength(a->str) : 0;
    a->c0 = len ? JSStringGetCharactersPtr(a->str)[0] : 0;
    a->kind = len == 1 ? JK_CHAR : JK_STRING;
    if (b && a->str && len <= 64) {
      if (b->sc_seen[h] == v) strcache_admit(b, ctx, h, v, a->str, len);
      else b->sc_seen[h] = v;
    }
    return;
  }
  case kJSTypeSymbol: a->kind = JK_SYMBOL; return;
  case kJSTypeBigInt: a->kind = JK_BIGINT; return;
  case kJSTypeObject: {
    JSObjectRef o = (JSObjectRef)v;
    jb_entry *e = jb_entry_of(b, o);
    if (e) {
      arg_wrapper(a, e);
    } else if (JSValueIsArray(ctx, v)) {
      a->kind = JK_ARRAY;
    } else if (JSObjectIsFunction(ctx, o)) {
      /* the JS constructor of a Java class passes as its java.lang.Class */
      if (!b || !class_object_arg(b, ctx, o, a)) a->kind = JK_FUNCTION;
    } else if (JSValueIsDate(ctx, v)) {
      a->kind = JK_DATE;
    } else {
      /* a Proxy of an array is an array (Array.isArray); v is no array */
      a->kind = jb_proxy_of_array(ctx, o) ? JK_ARRAY : JK_OBJECT;
    }
    return;
  }
  }
  a->kind = JK_OBJECT;
}

/* Releases the string copies and cache pins of n arguments. Inside the
 * gate. */
void jb_args_release(jb_arg *a, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (a[i].str) { JSStringRelease(a[i].str); a[i].str = NULL; }
    if (a[i].pin) { (*a[i].pin)--; a[i].pin = NULL; }
    a[i].jstr = NULL;
  }
}

/* Drops the string cache and the box pools; see value/value.h. Teardown,
 * inside the gate. */
void jb_strcache_free(jb_rt *b, JNIEnv *env) {
  for (int k = 0; k < 3; k++) {
    if (env && b->boxes[k].arr) (*env)->DeleteGlobalRef(env, b->boxes[k].arr);
    b->boxes[k].arr = NULL;
  }
  for (int i = 0; i < JB_SCACHE; i++) {
    if (!b->sc_val[i]) continue;
    JSValueUnprotect(b->ctx, b->sc_val[i]);
    if (env) (*env)->DeleteGlobalRef(env, b->sc_str[i]);
    b->sc_val[i] = NULL;
    b->sc_str[i] = NULL;
    b->sc_pin[i] = 0;
  }
}

/* The Java String of a string argument: the string cache's global ref
 * (*local false; pinned in its slot until jb_args_release, so a JNI call
 * may take it as it is) or a new local ref (*local true). */
static jstring arg_jstring(JNIEnv *env, const jb_arg *a, bool *local) {
  *local = !a->jstr;
  return a->jstr ? a->jstr : strait__jstring_from_js(env, a->str);
}

/* True for type codes that accept null. */
static bool is_ref_code(char c) {
  return strchr("zbcsijfdTONGAUQL", c) != NULL;
}

/* Class of a box / String for assignability checks to an L/Q parameter. */
static jclass box_class_of(const jb_arg *a) {
  switch (a->kind) {
  case JK_INT: return strait__jc.Integer;
  case JK_LONGINT: return strait__jc.Long;
  case JK_FRAC: return strait__jc.Double;
  case JK_BOOL: return strait__jc.Boolean;
  case JK_STRING: case JK_CHAR: return strait__jc.String;
  case JK_BIGINT: return strait__jc.Long;
  default: return NULL;
  }
}

/*
 * Assignability answers, process-wide: direct-mapped places of one atomic
 * word each, (sub index << 32 | sup index << 1 | answer) + 1, 0 = empty.
 * A word is written whole, so a reader sees an answer for its own pair or
 * a miss; a collision only costs an IsAssignableFrom call.
 */
#define ISA_CACHE 4096
static _Atomic uint64_t isa_cache[ISA_CACHE];

/* True when sub is assignable to sup; see value/value.h. Any thread inside a runtime. */
bool jb_is_a(JNIEnv *env, jb_class *sub, jb_class *sup) {
  if (sub == sup || sup->self_code == 'O') return true;
  uint64_t key = ((uint64_t)(uint32_t)sub->index << 32) | ((uint64_t)(uint32_t)sup->index << 1);
  uint32_t h = (uint32_t)(((uint64_t)(uint32_t)sub->index * 0x9e3779b1u) ^ ((uint32_t)sup->index * 0x85ebca6bu));
  h = (h ^ (h >> 15)) & (ISA_CACHE - 1);
  uint64_t v = atomic_load_explicit(&isa_cache[h], memory_order_relaxed);
  if (v && ((v - 1) & ~(uint64_t)1) == key) return ((v - 1) & 1) != 0;
  bool r = (*env)->IsAssignableFrom(env, sub->ref, sup->ref);
  atomic_store_explicit(&isa_cache[h], (key | (r ? 1 : 0)) + 1, memory_order_relaxed);
  return r;
}

/* Distance from class `sub` up to `sup` along superclasses (interfaces
 * count as 5, Object as 20). Assumes assignable. */
static int class_distance(JNIEnv *env, jb_class *sub, jb_class *sup) {
  if (sub == sup) return 0;
  if (sup->self_code == 'O') return 20;
  if (sup->flags & JB_IFACE) return 5;
  int d = 0;
  for (jb_class *c = sub; c && d < 64; d++) {
    if (c == sup) return d;
    if (c->super_index < 0) break;
    c = jb_class_get(env, NULL, c->super_index, false, NULL);
  }
  return 10;
}

/*
 * JS objects, arrays, functions and Dates passed as themselves: a live
 * handle (org.strait.JsObject, which is a Map; JsArray, a List;
 * JsFunction) or, for a Date, a java.time.Instant. These rank after every
 * conversion the bridge had before them (JB_VIEW and up, far above the
 * costs of exact matches, numbers, strings and wrappers, so that an
 * overload applicable before is still chosen); among themselves a
 * parameter of a more specific type (Map, List, Instant) wins over Object.
 */
#define JB_VIEW 290
#define JB_VIEW_OBJECT 300

/* Which Java class a JS value passed as itself arrives as. */
enum { HK_OBJECT, HK_ARRAY, HK_FUNCTION, HK_INSTANT, HK_COUNT };

/* Class metadata of the class a JS value of kind hk arrives as
 * (process-wide, looked up once). */
static jb_class *handle_class(JNIEnv *env, int hk) {
  static _Atomic int idx[HK_COUNT];
  jclass c;
  switch (hk) {
  case HK_OBJECT: c = strait__hc.JsObject; break;
  case HK_ARRAY: c = strait__hc.JsArray; break;
  case HK_FUNCTION: c = strait__hc.JsFunction; break;
  default: c = instant_class(env); break;
  }
  int ci = cached_index(env, &idx[hk], c);
  return ci >= 0 ? jb_class_get(env, NULL, ci, false, NULL) : NULL;
}

/* Cost of passing a JS value that arrives as class hk to (code, pcls):
 * Object, or a declared class the arriving class is assignable to (Map,
 * java.time.temporal.Temporal, JsObject...). */
static int view_cost(JNIEnv *env, int hk, char code, int pcls) {
  if (code == 'O') return JB_VIEW_OBJECT;
  if (code != 'L' && code != 'U' && code != 'Q') return JB_NO;
  jb_class *p = pcls >= 0 ? jb_class_get(env, NULL, pcls, false, NULL) : NULL;
  jb_class *h = p ? handle_class(env, hk) : NULL;
  return h && jb_is_a(env, h, p) ? JB_VIEW : JB_NO;
}

/* Cost of passing a to (code, pcls); see value/value.h. Inside the gate. */
int jb_cost(JNIEnv *env, const jb_arg *a, char code, int pcls) {
  switch (a->kind) {
  case JK_UNDEF: case JK_NULL:
    if (!is_ref_code(code)) return JB_NO;
    return code == 'O' ? 3 : 1;
  case JK_BOOL:
    switch (code) { case 'Z': return 0; case 'z': return 1; case 'O': return 20; default: break; }
    break;
  case JK_INT:
    switch (code) {
    case 'I': return 0; case 'J': return 1; case 'D': return 2; case 'F': return 3;
    case 'S': return 4; case 'B': return 5;
    case 'i': return 10; case 'j': return 11; case 'd': return 12; case 'f': return 13;
    case 's': return 14; case 'b': return 15; case 'N': return 16; case 'G': return 17;
    case 'O': return 20;
    default: break;
    }
    break;
  case JK_LONGINT:
    switch (code) {
    case 'J': return 0; case 'D': return 2; case 'F': return 3; case 'j': return 10;
    case 'd': return 12; case 'f': return 13; case 'N': return 16; case 'G': return 17;
    case 'O': return 20;
    /* applicable only so that the conversion reports the RangeError */
    case 'I': case 'S': case 'B': return 60;
    case 'i': case 's': case 'b': return 61;
    default: break;
    }
    break;
  case JK_FRAC:
    switch (code) {
    case 'D': return 0; case 'F': return 1; case 'd': return 10; case 'f': return 11;
    case 'N': return 16; case 'O': return 20;
    /* applicable only so that the conversion reports the TypeError */
    case 'I': case 'J': case 'S': case 'B': return 60;
    case 'i': case 'j': case 's': case 'b': return 61;
    default: break;
    }
    break;
  case JK_CHAR:
    if (code == 'C') return 4;
    if (code == 'c') return 5;
    /* fall through */
  case JK_STRING:
    switch (code) { case 'T': return 0; case 'Q': return 2; case 'O': return 20; default: break; }
    break;
  case JK_BIGINT:
    switch (code) { case 'J': return 0; case 'j': return 1; case 'G': return 2; case 'N': return 16;
                    case 'O': return 20; default: break; }
    break;
  case JK_WRAPPER: case JK_JARRAY: {
    if (code == 'O') return 20;
    if (!(code == 'A' || code == 'U' || code == 'Q' || code == 'L' || code == 'N' || code == 'G'))
      return JB_NO;
    if (pcls < 0) return JB_NO;
    jb_class *p = jb_class_get(env, NULL, pcls, false, NULL);
    if (!p || !jb_is_a(env, a->cls, p)) return JB_NO;
    return 1 + class_distance(env, a->cls, p);
  }
  case JK_ARRAY:
    if (code == 'A') {
      /* prefer Object[], then reference components, then int, double... */
      jb_class *p = pcls >= 0 ? jb_class_get(env, NULL, pcls, true, NULL) : NULL;
      if (!p) return JB_NO;
      switch (p->elem) {
      case 'O': return 3;
      case 'I': return 6; case 'D': return 7; case 'J': return 8; case 'Z': return 9;
      case 'F': return 10; case 'S': return 11; case 'B': return 12; case 'C': return 13;
      default: return 5;
      }
    }
    /* List, Collection, Iterable: the live JsArray (or, for a supertype
     * of ArrayList JsArray is not, a copy); Object: the live JsArray */
    if (code == 'U') return 4;
    if (code == 'O') return 30;
    return view_cost(env, HK_ARRAY, code, pcls);
  case JK_FUNCTION: {
    /* a JS function implements a Java interface (strait__js_implement_class):
     * one with a single abstract method (Comparator) before any other
     * (SortedMap), so new TreeMap(fn) takes the Comparator */
    jb_class *p = code == 'L' && pcls >= 0 ? jb_class_get(env, NULL, pcls, true, NULL) : NULL;
    if (p && (p->flags & JB_IFACE)) return (p->flags & JB_SAM) ? 30 : 35;
    return view_cost(env, HK_FUNCTION, code, pcls);
  }
  case JK_OBJECT:
    return view_cost(env, HK_OBJECT, code, pcls);
  case JK_DATE:
    return view_cost(env, HK_INSTANT, code, pcls);
  default:
    return JB_NO;
  }
  if (code == 'L' || code == 'Q') {
    jclass bc = box_class_of(a);
    jb_class *p = pcls >= 0 ? jb_class_get(env, NULL, pcls, false, NULL) : NULL;
    if (bc && p && (*env)->IsAssignableFrom(env, bc, p->ref)) return 25;
  }
  return JB_NO;
}

/* Name of a JS argument kind for messages. */
static const char *kind_name(int kind) {
  switch (kind) {
  case JK_UNDEF: return "undefined"; case JK_NULL: return "null"; case JK_BOOL: return "boolean";
  case JK_INT: case JK_LONGINT: case JK_FRAC: return "number";
  case JK_STRING: case JK_CHAR: return "string"; case JK_BIGINT: return "bigint";
  case JK_WRAPPER: return "Java object"; case JK_JARRAY: return "Java array";
  case JK_ARRAY: return "JS array"; case JK_FUNCTION: return "function";
  case JK_SYMBOL: return "symbol"; case JK_DATE: return "Date"; default: return "object";
  }
}

/* Describes a's value for messages into buf. */
static const char *show_arg(const jb_arg *a, char *buf, size_t n) {
  switch (a->kind) {
  case JK_INT: case JK_LONGINT: case JK_FRAC:
    /* as JS writes them: NaN, Infinity, -0 */
    if (a->num != a->num) snprintf(buf, n, "number NaN");
    else if (isinf(a->num)) snprintf(buf, n, "number %sInfinity", a->num < 0 ? "-" : "");
    else if (a->num == 0 && signbit(a->num)) snprintf(buf, n, "number -0");
    else snprintf(buf, n, "number %.17g", a->num);
    break;
  case JK_BOOL: snprintf(buf, n, "boolean %s", a->num ? "true" : "false"); break;
  case JK_WRAPPER: case JK_JARRAY: {
    char sb[256];
    snprintf(buf, n, "%s", jb_source_name(a->cls->name, sb, sizeof sb));
    break;
  }
  default: snprintf(buf, n, "%s", kind_name(a->kind)); break;
  }
  return buf;
}

/* JS type of an argument for messages: the class of a wrapper, else the
 * JS kind ("string", "number", "JS array"). */
const char *jb_arg_type_name(const jb_arg *a) {
  return (a->kind == JK_WRAPPER || a->kind == JK_JARRAY) && a->cls ? a->cls->name : kind_name(a->kind);
}

/* Sets a TypeError naming what, the value and the wanted type; with
 * what == NULL only reports failure (the caller describes it later). */
static bool type_error(JNIEnv *env, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                       const char *what, JSValueRef *exc) {
  if (!what) return false;     /* the caller retries with a description */
  char buf[256], tb[256];
  *exc = strait_make_error(ctx, "TypeError", "%s: cannot convert %s to %s", what, show_arg(a, buf, sizeof buf),
                  jb_source_name(jb_code_name(env, ctx, code, pcls), tb, sizeof tb));
  return false;
}

/* Same as type_error, for a value out of the type's range. */
static bool range_error(JNIEnv *env, JSContextRef ctx, const jb_arg *a, char code, const char *what,
                        JSValueRef *exc) {
  if (!what) return false;     /* the caller retries with a description */
  char buf[256];
  *exc = strait_make_error(ctx, "RangeError", "%s: %s does not fit %s", what, show_arg(a, buf, sizeof buf),
                  jb_code_name(env, ctx, code, -1));
  return false;
}

/* BigInt -> int64 exactly; false when it does not fit. */
static bool bigint_to_long(JSContextRef ctx, JSValueRef v, int64_t *out) {
  int64_t x = JSValueToInt64(ctx, v, NULL);
  if (JSValueCompareInt64(ctx, v, x, NULL) != kJSRelationConditionEqual) return false;
  *out = x;
  return true;
}

/* Converts a number / boolean / char / bigint argument to primitive code. */
static bool to_primitive(JNIEnv *env, JSContextRef ctx, const jb_arg *a, char code, jvalue *out,
                         const char *what, JSValueRef *exc) {
  double d = a->num;
  bool isnum = a->kind == JK_INT || a->kind == JK_LONGINT || a->kind == JK_FRAC;
  switch (code) {
  case 'Z':
    if (a->kind != JK_BOOL) return type_error(env, ctx, a, code, -1, what, exc);
    out->z = d != 0;
    return true;
  case 'C':
    if (a->kind != JK_CHAR) return type_error(env, ctx, a, code, -1, what, exc);
    out->c = a->c0;
    return true;
  case 'B': case 'S': case 'I': case 'J': {
    if (a->kind == JK_BIGINT && code == 'J') {
      int64_t x;
      if (!bigint_to_long(ctx, a->v, &x)) return range_error(env, ctx, a, code, what, exc);
      out->j = x;
      return true;
    }
    if (!isnum) return type_error(env, ctx, a, code, -1, what, exc);
    if (a->kind == JK_FRAC && d == 0) {
      d = 0;                  /* -0 is the integer 0 */
    } else if (a->kind == JK_FRAC) {
      if (d != d || isinf(d) || d == floor(d)) return range_error(env, ctx, a, code, what, exc);
      return type_error(env, ctx, a, code, -1, what, exc);
    }
    double lo = code == 'B' ? -128.0 : code == 'S' ? -32768.0 : code == 'I' ? -2147483648.0 : -9223372036854775808.0;
    double hi = code == 'B' ? 127.0 : code == 'S' ? 32767.0 : code == 'I' ? 2147483647.0 : 9223372036854775807.0;
    if (d < lo || (code == 'J' ? d >= 9223372036854775808.0 : d > hi))
      return range_error(env, ctx, a, code, what, exc);
    if (code == 'B') out->b = (jbyte)d;
    else if (code == 'S') out->s = (jshort)d;
    else if (code == 'I') out->i = (jint)d;
    else out->j = (jlong)d;
    return true;
  }
  case 'F':
    if (!isnum) return type_error(env, ctx, a, code, -1, what, exc);
    if (isfinite(d) && fabs(d) > FLT_MAX) return range_error(env, ctx, a, code, what, exc);
    out->f = (jfloat)d;
    return true;
  case 'D':
    if (!isnum) return type_error(env, ctx, a, code, -1, what, exc);
    out->d = d;
    return true;
  }
  return type_error(env, ctx, a, code, -1, what, exc);
}

/* A box of kind (0 Integer, 1 Long, 2 Double) that no code has seen, taken
 * from b's pool (one Bridge.freshBoxes upcall per JB_BOX_POOL boxes), as
 * a new local ref for the caller to write its value into before anything
 * else sees it; NULL (nothing pending) without b or when the pool cannot be
 * filled, and the caller makes the box itself. A GetObjectArrayElement
 * costs about a quarter of an AllocObject. Inside b's gate. */
static jobject pooled_box(JNIEnv *env, jb_rt *b, int kind) {
  if (!b) return NULL;
  struct jb_box_pool *p = &b->boxes[kind];
  if (!p->arr || p->next >= JB_BOX_POOL) {
    jobject a = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_freshBoxes, (jint)kind, (jint)JB_BOX_POOL);
    if ((*env)->ExceptionCheck(env)) {   /* out of memory */
      (*env)->ExceptionClear(env);
      return NULL;
    }
    jobject g = a ? (*env)->NewGlobalRef(env, a) : NULL;
    if (a) (*env)->DeleteLocalRef(env, a);
    if (!g) {
      if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
      return NULL;
    }
    if (p->arr) (*env)->DeleteGlobalRef(env, p->arr);
    p->arr = g;
    p->next = 0;
  }
  return (*env)->GetObjectArrayElement(env, p->arr, p->next++);
}

/* A new box of class c (pool kind k) whose final value field f is set to
 * v by setter: one no code has seen taken from b's pool (pooled_box), or
 * else made by AllocObject (what the box's constructor does, without a
 * call into Java; valueOf makes a new object for such values too), then
 * written by Set<T>Field. Returns the local ref from box(), or NULL with
 * the OutOfMemoryError cleared (no ExceptionCheck otherwise: AllocObject of
 * a concrete class fails only with a NULL, and Set<T>Field on its own
 * field cannot throw). */
#define NEW_BOX(env, b, k, c, f, setter, v)                                 \
  do {                                                                      \
    jobject o = pooled_box(env, b, k);                                      \
    if (!o && !(o = (*env)->AllocObject(env, c))) {                         \
      (*env)->ExceptionClear(env);                                          \
      return NULL;                                                          \
    }                                                                       \
    (*env)->setter(env, o, f, v);                                           \
    *local = true;                                                          \
    return o;                                                               \
  } while (0)

/* Boxes a primitive value of code prim. Returns the box, or NULL (out of
 * memory, cleared); *local says whether it is a new local ref the caller
 * deletes, or a global ref of a process-wide cache made once at start-up
 * (Boolean.TRUE/FALSE, the Integers STRAIT__SMALL_INT_MIN..MAX of
 * strait__jc.small_int) that a JNI call takes as it is. Integer, Long and
 * Double outside the ranges valueOf caches are new objects written
 * without a call into Java (NEW_BOX);
 * inside them valueOf's own objects, so that identity is Java's. Inside
 * b's gate; any thread without b. */
static jobject box(JNIEnv *env, jb_rt *b, char prim, jvalue v, bool *local) {
  jobject r = NULL;
  *local = false;
  switch (prim) {
  case 'Z': return v.z ? strait__jc.Boolean_TRUE : strait__jc.Boolean_FALSE;
  case 'I':
    if (v.i >= STRAIT__SMALL_INT_MIN && v.i <= STRAIT__SMALL_INT_MAX)
      return strait__jc.small_int[v.i - STRAIT__SMALL_INT_MIN];
    NEW_BOX(env, b, 0, strait__jc.Integer, strait__jc.Integer_value, SetIntField, v.i);
  case 'J':
    if (v.j < -128 || v.j > 127) NEW_BOX(env, b, 1, strait__jc.Long, strait__jc.Long_value, SetLongField, v.j);
    r = (*env)->CallStaticObjectMethod(env, strait__jc.Long, strait__jc.Long_valueOf, v.j);
    break;
  case 'D': NEW_BOX(env, b, 2, strait__jc.Double, strait__jc.Double_value, SetDoubleField, v.d);
  case 'B': r = (*env)->CallStaticObjectMethod(env, jb.Byte, jb.Byte_valueOf, v.b); break;
  case 'C': r = (*env)->CallStaticObjectMethod(env, jb.Character, jb.Character_valueOf, v.c); break;
  case 'S': r = (*env)->CallStaticObjectMethod(env, jb.Short, jb.Short_valueOf, v.s); break;
  case 'F': r = (*env)->CallStaticObjectMethod(env, jb.Float, jb.Float_valueOf, (double)v.f); break;
  default: return NULL;
  }
  /* valueOf throws only OutOfMemoryError: NULL then */
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    if (r) (*env)->DeleteLocalRef(env, r);
    return NULL;
  }
  *local = r != NULL;
  return r;
}
#undef NEW_BOX

/* BigInt or integral number -> java.math.BigInteger (local ref). */
static jobject to_biginteger(JNIEnv *env, JSContextRef ctx, const jb_arg *a, JSValueRef *exc) {
  JSStringRef s = JSValueToStringCopy(ctx, a->v, exc);
  if (!s) return NULL;
  jstring js = strait__jstring_from_js(env, s);
  JSStringRelease(s);
  jobject r = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_toBigInteger, js);
  (*env)->DeleteLocalRef(env, js);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    *exc = strait_make_error(ctx, "RangeError", "cannot convert to java.math.BigInteger");
    return NULL;
  }
  return r;
}

static bool to_java(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                    jvalue *out, jb_locals *l, const char *what, int depth, JSValueRef *exc);
static bool to_list(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, jvalue *out,
                    jb_locals *l, const char *what, int depth, JSValueRef *exc);

/* Hands r (a new local ref made for a->v) to the slot (code, pcls): checked
 * to be an instance of the declared class unless the slot is Object, so no
 * value reaches a JNI call unchecked. Deletes r on failure. */
static bool give_checked(JNIEnv *env, JSContextRef ctx, const jb_arg *a, char code, int pcls, jobject r,
                         jvalue *out, jb_locals *l, const char *what, JSValueRef *exc) {
  if (code != 'O') {
    jb_class *p = pcls >= 0 ? jb_class_get(env, ctx, pcls, false, exc) : NULL;
    if (!p || !(*env)->IsInstanceOf(env, r, p->ref)) {
      (*env)->DeleteLocalRef(env, r);
      return *exc ? false : type_error(env, ctx, a, code, pcls, what, exc);
    }
  }
  jb_locals_add(l, r);
  out->l = r;
  return true;
}

/* A JS object, array or function passed as itself: a new live handle of
 * the runtime (JsObject, a Map; JsArray, a List; JsFunction; JsPromise),
 * made for this slot. The handle's owner is the runtime's JsRuntime (for a
 * launcher runtime the one adopted on first use); handles the Java GC
 * queued are released first, so JS that passes many objects to Java
 * releases the dropped ones without any call from Java. */
static bool to_handle(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                      jvalue *out, jb_locals *l, const char *what, JSValueRef *exc) {
  strait__jrt *jrt = strait__jrt_of(b->rt);
  jobject owner = jrt ? strait__owner_of(env, jrt) : NULL;
  if (!owner) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "Error", "%s: cannot hold a JS value from Java in this runtime", what);
    return false;
  }
  pthread_once(&vc_once, vc_init);
  if (vc.JsRuntime_drainIfPending) {
    (*env)->CallVoidMethod(env, owner, vc.JsRuntime_drainIfPending);
    (*env)->ExceptionClear(env);   /* a closing runtime: nothing to drain */
  }
  jobject r = strait__handle_wrap(env, jrt, owner, (JSObjectRef)a->v);
  (*env)->DeleteLocalRef(env, owner);
  if (!r) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "Error", "%s: out of memory", what);
    return false;
  }
  return give_checked(env, ctx, a, code, pcls, r, out, l, what, exc);
}

/* A JS Date passed as itself: the java.time.Instant of its time value
 * (docs/value-format.md: milliseconds); an invalid Date is a RangeError. */
static bool to_instant(JNIEnv *env, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                       jvalue *out, jb_locals *l, const char *what, JSValueRef *exc) {
  if (!instant_class(env) || !vc.Instant_ofEpochMilli) return type_error(env, ctx, a, code, pcls, what, exc);
  JSValueRef e = NULL;
  double t = JSValueToNumber(ctx, a->v, &e);
  if (e) { *exc = e; return false; }
  if (!isfinite(t)) {
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "RangeError", "%s: an invalid Date cannot become java.time.Instant", what);
    return false;
  }
  jobject r = (*env)->CallStaticObjectMethod(env, vc.Instant, vc.Instant_ofEpochMilli, (jlong)t);
  if (!r || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "Error", "%s: out of memory", what);
    return false;
  }
  return give_checked(env, ctx, a, code, pcls, r, out, l, what, exc);
}

/* RangeError for a JS array nested deeper than JB_MAX_DEPTH (what NULL:
 * failure only, described on the retry). */
static bool depth_error(JSContextRef ctx, const char *what, JSValueRef *exc) {
  if (!what) return false;
  *exc = strait_make_error(ctx, "RangeError", "%s: arrays nested deeper than %d levels cannot be converted",
                  what, JB_MAX_DEPTH);
  return false;
}

/* "<what> element <i>" in a malloc'd string; NULL when what is NULL or
 * what already names 4 levels (deeper elements keep that description, so
 * the end of a message stays in it). */
static char *element_what(const char *what, long i, int depth) {
  if (!what || depth >= 4) return NULL;
  size_t n = strlen(what) + 32;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s element %ld", what, i);
  return s;
}

/* The natural Java object for a JS value passed as Object / Number.
 * depth: JS arrays enclosing this value in the conversion. */
static bool to_object(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                      jvalue *out, jb_locals *l, const char *what, int depth, JSValueRef *exc) {
  jvalue p;
  jobject r = NULL;
  bool local = true;            /* r is a new local ref, else a cached global one */
  switch (a->kind) {
  case JK_UNDEF: case JK_NULL: out->l = NULL; return true;
  case JK_BOOL: p.z = a->num != 0; r = box(env, b, 'Z', p, &local); break;
  case JK_INT: p.i = (jint)a->num; r = box(env, b, 'I', p, &local); break;
  case JK_LONGINT: p.j = (jlong)a->num; r = box(env, b, 'J', p, &local); break;
  case JK_FRAC: p.d = a->num; r = box(env, b, 'D', p, &local); break;
  case JK_STRING: case JK_CHAR:
    if (code == 'N') return type_error(env, ctx, a, code, pcls, what, exc);
    r = arg_jstring(env, a, &local);
    break;
  case JK_BIGINT: {
    int64_t x;
    if (bigint_to_long(ctx, a->v, &x)) { p.j = x; r = box(env, b, 'J', p, &local); }
    else if (!(r = to_biginteger(env, ctx, a, exc))) return false;
    break;
  }
  case JK_WRAPPER: case JK_JARRAY:
    if (code == 'N' && !(*env)->IsInstanceOf(env, a->ref, strait__jc.Number))
      return type_error(env, ctx, a, code, pcls, what, exc);
    out->l = a->ref;
    return true;
  case JK_ARRAY:
    if (code == 'N') return type_error(env, ctx, a, code, pcls, what, exc);
    /* passed as itself: the live JsArray; inside a copy (an element of a
     * Java array or list built from a JS array): a copy, as the rest */
    if (depth == 0) return to_handle(env, b, ctx, a, code, -1, out, l, what, exc);
    return to_list(env, b, ctx, a, out, l, what, depth, exc);
  case JK_OBJECT: case JK_FUNCTION:
    if (code == 'N') return type_error(env, ctx, a, code, pcls, what, exc);
    return to_handle(env, b, ctx, a, code, -1, out, l, what, exc);
  case JK_DATE:
    if (code == 'N') return type_error(env, ctx, a, code, pcls, what, exc);
    return to_instant(env, ctx, a, code, -1, out, l, what, exc);
  default:
    return type_error(env, ctx, a, code, pcls, what, exc);
  }
  if (!r) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "Error", "%s: out of memory", what);
    return false;
  }
  if (local) jb_locals_add(l, r);
  out->l = r;
  return true;
}

/* Builds a Java array of class pcls from the JS array a->v (depth: the
 * JS arrays around it; at JB_MAX_DEPTH a RangeError). */
static bool to_array(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, int pcls, jvalue *out,
                     jb_locals *l, const char *what, int depth, JSValueRef *exc) {
  if (depth >= JB_MAX_DEPTH) return depth_error(ctx, what, exc);
  jb_class *ac = jb_class_get(env, ctx, pcls, true, exc);
  if (!ac) return false;
  JSObjectRef arr = (JSObjectRef)a->v;
  JSValueRef lenv = JSObjectGetProperty(ctx, arr, b->s_length, exc);
  if (!lenv) return false;
  /* a Proxy's length may be any value: what its conversion throws is the error */
  double dl = JSValueToNumber(ctx, lenv, exc);
  if (*exc) return false;
  if (!(dl >= 0 && dl <= 0x7fffffff)) {
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "RangeError", "%s: array length %.17g does not fit a Java array or list", what, dl);
    return false;
  }
  jsize n = (jsize)dl;
  char ec = ac->elem;
  jarray r = NULL;
  jb_class *comp = NULL;
  switch (ec) {
  case 'Z': r = (*env)->NewBooleanArray(env, n); break;
  case 'B': r = (*env)->NewByteArray(env, n); break;
  case 'C': r = (*env)->NewCharArray(env, n); break;
  case 'S': r = (*env)->NewShortArray(env, n); break;
  case 'I': r = (*env)->NewIntArray(env, n); break;
  case 'J': r = (*env)->NewLongArray(env, n); break;
  case 'F': r = (*env)->NewFloatArray(env, n); break;
  case 'D': r = (*env)->NewDoubleArray(env, n); break;
  default:
    comp = jb_class_get(env, ctx, ac->elem_cls, false, exc);
    if (!comp) return false;
    r = (*env)->NewObjectArray(env, n, comp->ref, NULL);
    break;
  }
  if (!r) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "RangeError", "%s: cannot allocate %s of length %d", what, ac->name, (int)n);
    return false;
  }
  jb_locals_add(l, r);
  for (jsize i = 0; i < n; i++) {
    JSValueRef ev = JSObjectGetPropertyAtIndex(ctx, arr, (unsigned)i, exc);
    if (!ev) return false;
    jb_arg ea;
    jb_arg_kind(b, ctx, ev, &ea);
    char *ewhat = element_what(what, i, depth);
    jvalue v;
    jb_locals el = {0};
    bool ok = to_java(env, b, ctx, &ea, ec, ac->elem_cls, &v, &el, ewhat ? ewhat : what, depth + 1, exc);
    free(ewhat);
    jb_args_release(&ea, 1);
    if (!ok) { jb_locals_free(env, &el); return false; }
    switch (ec) {
    case 'Z': (*env)->SetBooleanArrayRegion(env, r, i, 1, &v.z); break;
    case 'B': (*env)->SetByteArrayRegion(env, r, i, 1, &v.b); break;
    case 'C': (*env)->SetCharArrayRegion(env, r, i, 1, &v.c); break;
    case 'S': (*env)->SetShortArrayRegion(env, r, i, 1, &v.s); break;
    case 'I': (*env)->SetIntArrayRegion(env, r, i, 1, &v.i); break;
    case 'J': (*env)->SetLongArrayRegion(env, r, i, 1, &v.j); break;
    case 'F': (*env)->SetFloatArrayRegion(env, r, i, 1, &v.f); break;
    case 'D': (*env)->SetDoubleArrayRegion(env, r, i, 1, &v.d); break;
    default: (*env)->SetObjectArrayElement(env, r, i, v.l); break;
    }
    jb_locals_free(env, &el);
  }
  out->l = r;
  return true;
}

/* Builds a java.util.ArrayList from the JS array a->v (elements as
 * Object; depth as for to_array). */
static bool to_list(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, jvalue *out,
                    jb_locals *l, const char *what, int depth, JSValueRef *exc) {
  if (depth >= JB_MAX_DEPTH) return depth_error(ctx, what, exc);
  JSObjectRef arr = (JSObjectRef)a->v;
  JSValueRef lenv = JSObjectGetProperty(ctx, arr, b->s_length, exc);
  if (!lenv) return false;
  /* a Proxy's length may be any value: what its conversion throws is the error */
  double dl = JSValueToNumber(ctx, lenv, exc);
  if (*exc) return false;
  if (!(dl >= 0 && dl <= 0x7fffffff)) {
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "RangeError", "%s: array length %.17g does not fit a Java array or list", what, dl);
    return false;
  }
  jsize n = (jsize)dl;
  jobjectArray items = (*env)->NewObjectArray(env, n, strait__jc.Object, NULL);
  if (!items) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "RangeError", "%s: cannot allocate a list of %d", what, (int)n);
    return false;
  }
  for (jsize i = 0; i < n; i++) {
    JSValueRef ev = JSObjectGetPropertyAtIndex(ctx, arr, (unsigned)i, exc);
    if (!ev) { (*env)->DeleteLocalRef(env, items); return false; }
    jb_arg ea;
    jb_arg_kind(b, ctx, ev, &ea);
    char *ewhat = element_what(what, i, depth);
    jvalue v;
    jb_locals el = {0};
    bool ok = to_object(env, b, ctx, &ea, 'O', -1, &v, &el, ewhat ? ewhat : what, depth + 1, exc);
    free(ewhat);
    jb_args_release(&ea, 1);
    if (ok) (*env)->SetObjectArrayElement(env, items, i, v.l);
    jb_locals_free(env, &el);
    if (!ok) { (*env)->DeleteLocalRef(env, items); return false; }
  }
  jobject list = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_toList, items);
  (*env)->DeleteLocalRef(env, items);
  if (!list || (*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    if (!what) return false;   /* the caller retries with a description */
    *exc = strait_make_error(ctx, "Error", "%s: cannot build a list", what);
    return false;
  }
  jb_locals_add(l, list);
  out->l = list;
  return true;
}

/* Converts a to (code, pcls); see value/value.h. Inside the gate. */
bool jb_to_java(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                jvalue *out, jb_locals *l, const char *what, JSValueRef *exc) {
  return to_java(env, b, ctx, a, code, pcls, out, l, what, 0, exc);
}

/* jb_to_java inside depth enclosing JS arrays. Every Java object handed
 * out here is either one the bridge made for this slot (a box, a String,
 * an array or list built from a JS array, an interface implementation) or
 * a wrapped object whose class is assignable to the declared class. */
static bool to_java(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                    jvalue *out, jb_locals *l, const char *what, int depth, JSValueRef *exc) {
  switch (code) {
  case 'Z': case 'B': case 'C': case 'S': case 'I': case 'J': case 'F': case 'D':
    return to_primitive(env, ctx, a, code, out, what, exc);
  case 'z': case 'b': case 'c': case 's': case 'i': case 'j': case 'f': case 'd': {
    if (a->kind == JK_NULL || a->kind == JK_UNDEF) { out->l = NULL; return true; }
    char prim = (char)(code - 'a' + 'A');
    jvalue p;
    bool local;
    if (!to_primitive(env, ctx, a, prim, &p, what, exc)) return false;
    jobject r = box(env, b, prim, p, &local);
    if (!r) {
      (*env)->ExceptionClear(env);
      if (!what) return false;   /* the caller retries with a description */
      *exc = strait_make_error(ctx, "Error", "%s: out of memory", what);
      return false;
    }
    if (local) jb_locals_add(l, r);
    out->l = r;
    return true;
  }
  case 'T': {
    if (a->kind == JK_NULL || a->kind == JK_UNDEF) { out->l = NULL; return true; }
    if (a->kind != JK_STRING && a->kind != JK_CHAR) return type_error(env, ctx, a, code, pcls, what, exc);
    bool local;
    out->l = arg_jstring(env, a, &local);
    if (!out->l) {
      (*env)->ExceptionClear(env);
      if (!what) return false;   /* the caller retries with a description */
      *exc = strait_make_error(ctx, "Error", "%s: out of memory", what);
      return false;
    }
    if (local) jb_locals_add(l, out->l);
    return true;
  }
  case 'O': case 'N':
    return to_object(env, b, ctx, a, code, pcls, out, l, what, depth, exc);
  case 'G': {
    if (a->kind == JK_NULL || a->kind == JK_UNDEF) { out->l = NULL; return true; }
    if (a->kind == JK_WRAPPER) break;
    if (a->kind != JK_BIGINT && a->kind != JK_INT && a->kind != JK_LONGINT)
      return type_error(env, ctx, a, code, pcls, what, exc);
    jobject r = to_biginteger(env, ctx, a, exc);
    if (!r) return false;
    jb_locals_add(l, r);
    out->l = r;
    return true;
  }
  default:
    break;
  }
  /* reference types: A, U, Q, L, and wrappers for G */
  switch (a->kind) {
  case JK_NULL: case JK_UNDEF: out->l = NULL; return true;
  case JK_WRAPPER: case JK_JARRAY: {
    /* a declared class that cannot be resolved accepts no object */
    jb_class *p = pcls >= 0 ? jb_class_get(env, ctx, pcls, false, exc) : NULL;
    if (!p) return *exc ? false : type_error(env, ctx, a, code, pcls, what, exc);
    if (!jb_is_a(env, a->cls, p)) return type_error(env, ctx, a, code, pcls, what, exc);
    JB_CHECK((*env)->IsInstanceOf(env, a->ref, p->ref));
    out->l = a->ref;
    return true;
  }
  case JK_ARRAY:
    if (code == 'A') return to_array(env, b, ctx, a, pcls, out, l, what, depth, exc);
    if (code == 'U') {
      /* List, Collection, Iterable: the live JsArray when passed as itself
       * and JsArray is one; else (an element of a copy, or a supertype of
       * ArrayList such as AbstractList or Cloneable) a new ArrayList */
      if (depth == 0 && view_cost(env, HK_ARRAY, code, pcls) < JB_NO)
        return to_handle(env, b, ctx, a, code, pcls, out, l, what, exc);
      return to_list(env, b, ctx, a, out, l, what, depth, exc);
    }
    if (view_cost(env, HK_ARRAY, code, pcls) < JB_NO) return to_handle(env, b, ctx, a, code, pcls, out, l, what, exc);
    break;
  case JK_FUNCTION: {
    jb_class *p = code == 'L' && pcls >= 0 ? jb_class_get(env, ctx, pcls, true, exc) : NULL;
    if (!p || !(p->flags & JB_IFACE)) {
      if (*exc) return false;
      if (view_cost(env, HK_FUNCTION, code, pcls) < JB_NO) return to_handle(env, b, ctx, a, code, pcls, out, l, what, exc);
      break;
    }
    jobject r = strait__js_implement_class(env, b->rt, p->ref, (JSObjectRef)a->v, true, exc);
    if (!r) return false;
    jb_locals_add(l, r);
    out->l = r;
    return true;
  }
  case JK_OBJECT:
    if (view_cost(env, HK_OBJECT, code, pcls) < JB_NO) return to_handle(env, b, ctx, a, code, pcls, out, l, what, exc);
    break;
  case JK_DATE:
    if (view_cost(env, HK_INSTANT, code, pcls) < JB_NO) return to_instant(env, ctx, a, code, pcls, out, l, what, exc);
    break;
  default: {
    jclass bc = box_class_of(a);
    jb_class *p = pcls >= 0 ? jb_class_get(env, ctx, pcls, false, exc) : NULL;
    if (!(bc && p && (*env)->IsAssignableFrom(env, bc, p->ref))) break;
    if (!to_object(env, b, ctx, a, 'O', -1, out, l, what, depth, exc)) return false;
    /* a BigInt beyond long becomes a BigInteger, not the Long checked above */
    if (a->kind == JK_BIGINT && out->l && !(*env)->IsInstanceOf(env, out->l, p->ref))
      return type_error(env, ctx, a, code, pcls, what, exc);
    return true;
  }
  }
  return type_error(env, ctx, a, code, pcls, what, exc);
}

/* Java string -> JS string value, exact UTF-16. NULL -> null. */
JSValueRef jb_string_to_js(JNIEnv *env, JSContextRef ctx, jstring s) {
  if (!s) return JSValueMakeNull(ctx);
  JSStringRef js = strait__jsstring_from_java(env, s);
  if (!js) {
    (*env)->ExceptionClear(env);
    return JSValueMakeNull(ctx);
  }
  JSValueRef r = JSValueMakeString(ctx, js);
  JSStringRelease(js);
  return r;
}

/* JS string value -> new Java string (local ref). */
jstring jb_string_to_java(JNIEnv *env, JSContextRef ctx, JSValueRef v, JSValueRef *exc) {
  JSStringRef s = JSValueToStringCopy(ctx, v, exc);
  if (!s) return NULL;
  jstring r = strait__jstring_from_js(env, s);
  JSStringRelease(s);
  return r;
}

/* long -> JS number when exact (|v| <= 2^53), else BigInt. */
static JSValueRef long_to_js(JSContextRef ctx, jlong v) {
  if (v >= -9007199254740992LL && v <= 9007199254740992LL) return JSValueMakeNumber(ctx, (double)v);
  return JSBigIntCreateWithInt64(ctx, v, NULL);
}

/* Converts a Java value of code to JS; see value/value.h. Inside the gate.
 * Object values are local refs the caller deletes. */
JSValueRef jb_to_js(JNIEnv *env, jb_rt *b, JSContextRef ctx, char code, jvalue v, JSValueRef *exc) {
  if (jb_imm_ok) {
    switch (code) {
    case 'V': return (JSValueRef)(uintptr_t)JB_VALUE_UNDEFINED;
    case 'Z': return (JSValueRef)(uintptr_t)(v.z ? JB_VALUE_TRUE : JB_VALUE_FALSE);
    case 'B': return jb_imm_int(v.b);
    case 'S': return jb_imm_int(v.s);
    case 'I': return jb_imm_int(v.i);
    case 'F': return jb_imm_double(v.f);
    case 'D': return jb_imm_double(v.d);
    case 'J':
      if (v.j >= -9007199254740992LL && v.j <= 9007199254740992LL) return jb_imm_double((double)v.j);
      break;
    default: break;
    }
  }
  switch (code) {
  case 'V': return JSValueMakeUndefined(ctx);
  case 'Z': return JSValueMakeBoolean(ctx, v.z);
  case 'B': return JSValueMakeNumber(ctx, v.b);
  case 'S': return JSValueMakeNumber(ctx, v.s);
  case 'I': return JSValueMakeNumber(ctx, v.i);
  case 'J': return long_to_js(ctx, v.j);
  case 'F': return JSValueMakeNumber(ctx, v.f);
  case 'D': return JSValueMakeNumber(ctx, v.d);
  case 'C': {
    JSStringRef s = JSStringCreateWithCharacters(&v.c, 1);
    JSValueRef r = JSValueMakeString(ctx, s);
    JSStringRelease(s);
    return r;
  }
  case 'T': return jb_string_to_js(env, ctx, (jstring)v.l);
  case 'z': case 'b': case 's': case 'i': case 'j': case 'f': case 'd': case 'c': {
    if (!v.l) return JSValueMakeNull(ctx);
    jvalue p;
    char pc;
    switch (code) {
    case 'z': p.z = (*env)->CallBooleanMethod(env, v.l, strait__jc.Boolean_booleanValue); pc = 'Z'; break;
    case 'c': p.c = (*env)->CallCharMethod(env, v.l, jb.Character_charValue); pc = 'C'; break;
    case 'j': p.j = (*env)->CallLongMethod(env, v.l, jb.Number_longValue); pc = 'J'; break;
    default: p.d = (*env)->CallDoubleMethod(env, v.l, strait__jc.Number_doubleValue); pc = 'D'; break;
    }
    if ((*env)->ExceptionCheck(env)) {   /* a box's xxxValue() cannot throw but OOM */
      jb_throw_pending(env, b, ctx, exc);
      return NULL;
    }
    return jb_to_js(env, b, ctx, pc, p, exc);
  }
  default:
    /* a JsValue handle of this runtime is its JS value (jb_wrap) */
    return jb_wrap(env, b, ctx, v.l, exc);
  }
}

/* The JS value behind o when o is a live handle (JsValue) of b's runtime,
 * else NULL; see value/value.h. Inside the gate: a close() of the handle on
 * another thread releases the JS value only inside the gate, after the
 * caller has put the value where JSC's scan sees it. */
JSValueRef jb_handle_back(JNIEnv *env, jb_rt *b, jobject o) {
  if (!o || !strait__jc.JsValue || !(*env)->IsInstanceOf(env, o, strait__jc.JsValue)) return NULL;
  pthread_once(&vc_once, vc_init);
  strait__jrt *jrt = vc.JsValue_handleIn ? strait_runtime_embedder(b->rt) : NULL;
  jobject owner = jrt ? strait__owner_of(env, jrt) : NULL;
  if (!owner) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  jlong h = (*env)->CallLongMethod(env, o, vc.JsValue_handleIn, owner);
  (*env)->DeleteLocalRef(env, owner);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  return h ? strait__handle_value(h) : NULL;
}

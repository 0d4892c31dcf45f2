/*
 * bridge_array.c - wrappers of Java arrays: JS objects of a JSClass whose
 * callbacks index the array (a[i] with bounds checks, element conversion
 * on store, read-only length, Object.keys listing the indexes). The
 * wrapper is its own finalizing token (same private code as the tokens of
 * ordinary wrappers, so the wrapper table treats both alike).
 *
 * Everything here runs inside the runtime's gate, except finalize (GC).
 */
#include "bridge.h"

#include <stdlib.h>
#include <string.h>


static JSClassRef array_class;
static pthread_once_t array_once = PTHREAD_ONCE_INIT;

/* Parses a canonical array index ("0", "17"); -1 if name is not one, -2
 * if it is "length". One look at the characters, no C API call. */
static long parse_name(JSStringRef name) {
  size_t n = JSStringGetLength(name);
  const JSChar *c = JSStringGetCharactersPtr(name);
  if (n == 6 && c[0] == 'l' && c[1] == 'e' && c[2] == 'n' && c[3] == 'g' && c[4] == 't' && c[5] == 'h')
    return -2;
  if (n == 0 || n > 10 || (n > 1 && c[0] == '0')) return -1;
  long v = 0;
  for (size_t i = 0; i < n; i++) {
    if (c[i] < '0' || c[i] > '9') return -1;
    v = v * 10 + (c[i] - '0');
  }
  return v;
}

/* The live entry behind an array wrapper, with its runtime. */
static jb_entry *array_entry(JSContextRef ctx, JSObjectRef obj, jb_rt **bout) {
  jb_rt *b = jb_rt_fast(ctx);
  if (!b) return NULL;
  *bout = b;
  return jb_entry_of(b, obj);
}

/* getProperty of an array wrapper: length, or element i with a bounds
 * check (RangeError). Inside the gate. */
static JSValueRef array_get(JSContextRef ctx, JSObjectRef obj, JSStringRef name, JSValueRef *exc) {
  jb_rt *b;
  jb_entry *e = array_entry(ctx, obj, &b);
  if (!e) return NULL;
  JNIEnv *env = strait__env();
  long i = parse_name(name);
  if (i == -1) return NULL;
  jsize n = e->alen;
  if (i == -2) return jb_imm_ok ? jb_imm_int(n) : JSValueMakeNumber(ctx, n);
  if (i >= n) {
    *exc = jb_error(ctx, "RangeError", "%s index %ld out of bounds for length %d", e->cls->name, i, (int)n);
    return NULL;
  }
  jvalue v;
  jsize ix = (jsize)i;
  switch (e->cls->elem) {
  case 'Z': (*env)->GetBooleanArrayRegion(env, e->ref, ix, 1, &v.z); break;
  case 'B': (*env)->GetByteArrayRegion(env, e->ref, ix, 1, &v.b); break;
  case 'C': (*env)->GetCharArrayRegion(env, e->ref, ix, 1, &v.c); break;
  case 'S': (*env)->GetShortArrayRegion(env, e->ref, ix, 1, &v.s); break;
  case 'I': (*env)->GetIntArrayRegion(env, e->ref, ix, 1, &v.i); break;
  case 'J': (*env)->GetLongArrayRegion(env, e->ref, ix, 1, &v.j); break;
  case 'F': (*env)->GetFloatArrayRegion(env, e->ref, ix, 1, &v.f); break;
  case 'D': (*env)->GetDoubleArrayRegion(env, e->ref, ix, 1, &v.d); break;
  default: {
    v.l = (*env)->GetObjectArrayElement(env, e->ref, ix);
    JSValueRef r = jb_wrap(env, b, ctx, v.l, exc);
    if (v.l) (*env)->DeleteLocalRef(env, v.l);
    return r;
  }
  }
  return jb_to_js(env, b, ctx, e->cls->elem, v, exc);
}

/* setProperty of an array wrapper: converts and stores element i
 * (TypeError / RangeError when it does not fit). Inside the gate. */
static bool array_set(JSContextRef ctx, JSObjectRef obj, JSStringRef name, JSValueRef value, JSValueRef *exc) {
  jb_rt *b;
  jb_entry *e = array_entry(ctx, obj, &b);
  if (!e) return false;
  JNIEnv *env = strait__env();
  long i = parse_name(name);
  if (i == -2) {
    *exc = jb_error(ctx, "TypeError", "cannot assign to the length of %s", e->cls->name);
    return true;
  }
  if (i < 0) return false;
  jsize n = e->alen;
  if (i >= n) {
    *exc = jb_error(ctx, "RangeError", "%s index %ld out of bounds for length %d", e->cls->name, i, (int)n);
    return true;
  }
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
    snprintf(what, sizeof what, "%s element %ld", cls->name, i);
    jb_to_java(env, b, ctx, &a, cls->elem, cls->elem_cls, &v, &l, what, exc);
  }
  jb_args_release(&a, 1);
  if (ok) {
    jsize ix = (jsize)i;
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
  return true;
}


/* Lists the indexes (Object.keys, for...in). Inside the gate. */
static void array_names(JSContextRef ctx, JSObjectRef obj, JSPropertyNameAccumulatorRef acc) {
  jb_rt *b;
  jb_entry *e = array_entry(ctx, obj, &b);
  if (!e) return;
  jsize n = e->alen;
  char buf[16];
  for (jsize i = 0; i < n && i < 1000000; i++) {
    snprintf(buf, sizeof buf, "%d", (int)i);
    JSStringRef s = JSStringCreateWithUTF8CString(buf);
    JSPropertyNameAccumulatorAddName(acc, s);
    JSStringRelease(s);
  }
}

/* Creates the array JSClass once per process. */
static void make_array_class(void) {
  JSClassDefinition d = kJSClassDefinitionEmpty;
  d.className = "JavaArray";
  d.getProperty = array_get;
  d.setProperty = array_set;
  d.getPropertyNames = array_names;
  d.finalize = jb_token_finalize;
  /* no hasProperty: every read, in bounds or not, reaches array_get (one
   * callback per access, and an index out of bounds throws) */
  array_class = JSClassCreate(&d);
}

/* The array JSClass (process-wide). Any thread. */
JSClassRef jb_array_class(void) {
  pthread_once(&array_once, make_array_class);
  return array_class;
}

/* A wrapper for the array in entry slot (see bridge.h). */
JSObjectRef jb_array_wrapper(JSContextRef ctx, jb_rt *b, uint32_t slot, uint32_t gen) {
  return JSObjectMake(ctx, jb_array_class(), (void *)jb_token_code(b, slot, gen));
}

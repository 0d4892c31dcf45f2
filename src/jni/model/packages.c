/*
 * packages.c - the globals java, javax, jdk, org, com, net, Packages
 * (package objects) and Java (type, typeName, array, from, to,
 * isJavaObject).
 *
 * A package object is an object whose prototype is a catch-all JSClass
 * object: a child read the first time misses the package object and
 * reaches the catch-all, which asks Java what the name is (a class, a known
 * package, or a name nothing known has) and stores the answer on the
 * package object as an ordinary property. A name that is no class is a
 * package (Rhino's and Nashorn's rule). Packages Java knows are plain
 * objects, so later reads are inline-cached loads; the others are
 * JavaPackage JSClass objects, so that `new` and instanceof of a class
 * that does not exist say so (see make_package). Both convert to
 * "[JavaPackage name]".
 *
 * Everything here runs inside the runtime's gate.
 */
#include "model/model.h"
#include "value/value.h"
#include "base/interop_ids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest class or package name: a CONSTANT_Utf8 of the class file format
 * holds at most 65535 bytes. */
#define JB_CLASS_NAME_MAX 65535
/* Most dots in a name given to Java.type (see check_class_name); real class
 * names have a few dozen at most. */
#define JB_CLASS_NAME_MAX_DOTS 255

typedef struct jb_pkg {
  jb_rt *b;
  JSObjectRef obj;          /* the plain package object: not protected, kept
                             * alive by its catch-all (make_package) */
  bool busy;                /* storing a child on obj (its put looks here) */
  char name[];              /* dotted, "" for Packages */
} jb_pkg;

static JSClassRef pkg_class;       /* the catch-all behind a package object */
static JSClassRef pkg_obj_class;   /* a package object of an unknown name */
static JSClassRef prim_class;      /* Symbol.toPrimitive of package objects */
static pthread_once_t pkg_once = PTHREAD_ONCE_INIT;

static JSValueRef pkg_get(JSContextRef ctx, JSObjectRef obj, JSStringRef name, JSValueRef *exc);
static JSObjectRef pkg_construct(JSContextRef ctx, JSObjectRef obj, size_t argc, const JSValueRef argv[],
                                 JSValueRef *exc);
static bool pkg_has_instance(JSContextRef ctx, JSObjectRef obj, JSValueRef v, JSValueRef *exc);
static JSValueRef pkg_convert(JSContextRef ctx, JSObjectRef obj, JSType type, JSValueRef *exc);
static JSValueRef pkg_to_primitive(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc);

/* Creates the package JSClasses once per process. A package object has
 * no callAsFunction, so `typeof` a package stays 'object' (what Rhino and
 * Nashorn give, and what scripts test to tell a missing class from a
 * class); `new`, instanceof and a conversion to a primitive reach it. */
static void make_pkg_class(void) {
  JSClassDefinition d = kJSClassDefinitionEmpty;
  d.className = "JavaPackage";
  d.getProperty = pkg_get;
  pkg_class = JSClassCreate(&d);
  JSClassDefinition o = kJSClassDefinitionEmpty;
  o.className = "JavaPackage";
  o.callAsConstructor = pkg_construct;
  o.hasInstance = pkg_has_instance;
  o.convertToType = pkg_convert;
  pkg_obj_class = JSClassCreate(&o);
  JSClassDefinition f = kJSClassDefinitionEmpty;
  f.className = "Function";
  f.callAsFunction = pkg_to_primitive;
  prim_class = JSClassCreate(&f);
}

/* The package of a package object of either kind (see make_package), or
 * NULL. */
static jb_pkg *pkg_of(JSContextRef ctx, JSValueRef v) {
  if (JSValueIsObjectOfClass(ctx, v, pkg_obj_class)) return JSObjectGetPrivate((JSObjectRef)v);
  if (!JSValueIsObject(ctx, v)) return NULL;
  JSValueRef proto = JSObjectGetPrototype(ctx, (JSObjectRef)v);
  return JSValueIsObjectOfClass(ctx, proto, pkg_class) ? JSObjectGetPrivate((JSObjectRef)proto) : NULL;
}

/* The TypeError of a package used as a class: a name no class has. */
static void class_not_found(JSContextRef ctx, const jb_pkg *p, JSValueRef *exc) {
  *exc = strait_make_error(ctx, "TypeError", "class %s not found", p && p->name[0] ? p->name : "(the root package)");
}

/* `new pkg(...)`: the name is not a class (pkg_get made a package of it
 * because no class has it). Inside the gate. */
static JSObjectRef pkg_construct(JSContextRef ctx, JSObjectRef obj, size_t argc, const JSValueRef argv[],
                                 JSValueRef *exc) {
  class_not_found(ctx, pkg_of(ctx, obj), exc);
  return NULL;
}

/* `v instanceof pkg`: as `new`, a TypeError naming the missing class. */
static bool pkg_has_instance(JSContextRef ctx, JSObjectRef obj, JSValueRef v, JSValueRef *exc) {
  class_not_found(ctx, pkg_of(ctx, obj), exc);
  return false;
}

/* String(pkg), '' + pkg: "[JavaPackage java.util]" (Rhino's form), for
 * every hint (JSC passes kJSTypeNumber for `+`'s "default"; a number
 * conversion of the string is NaN). */
static JSValueRef pkg_convert(JSContextRef ctx, JSObjectRef obj, JSType type, JSValueRef *exc) {
  jb_pkg *p = pkg_of(ctx, obj);
  size_t n = p ? strlen(p->name) : 0;
  char *s = malloc(n + 16);
  if (!s) return NULL;
  snprintf(s, n + 16, "[JavaPackage %s]", p ? p->name : "");
  JSStringRef js = JSStringCreateWithUTF8CString(s);
  free(s);
  JSValueRef r = JSValueMakeString(ctx, js);
  JSStringRelease(js);
  return r;
}

/* pkg[Symbol.toPrimitive](): the same for a plain package object (its
 * catch-all holds this function; `this` is the package). */
static JSValueRef pkg_to_primitive(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  if (!pkg_of(ctx, self)) {
    *exc = strait_make_error(ctx, "TypeError", "Symbol.toPrimitive of a Java package called on another value");
    return NULL;
  }
  return pkg_convert(ctx, self, kJSTypeString, exc);
}

/* A new package object named name. Two kinds, with the same catch-all
 * behind them: a known package (a JDK module's or a loaded class's, and
 * the roots) is a plain object, whose children, once resolved, are
 * inline-cached loads; a name nothing known has (a package whose classes
 * are not loaded yet, or a class that does not exist) is a JavaPackage
 * JSClass object, which `new`, instanceof and conversions reach (reads of
 * its children cost a C++ lookup each, about 40 ns). */
static JSObjectRef make_package(jb_rt *b, JSContextRef ctx, const char *name, bool known) {
  size_t n = strlen(name);
  jb_pkg *p = malloc(sizeof *p + n + 1);
  if (!p) return NULL;
  p->b = b;
  p->busy = false;
  memcpy(p->name, name, n + 1);
  jb_own(b, p);
  JSObjectRef catchall = JSObjectMake(ctx, pkg_class, p);
  JSObjectSetPrototype(ctx, catchall, b->object_proto);
  JSObjectRef obj = JSObjectMake(ctx, known ? NULL : pkg_obj_class, p);
  /* String(pkg) of a plain package: found on the catch-all by symbol (a
   * symbol never reaches pkg_get) */
  strait__jrt *jrt = strait__jrt_of(b->rt);
  JSValueRef sym = jrt && jrt->intrinsics ? strait_get_property(ctx, jrt->intrinsics, "Symbol") : NULL;
  sym = sym && JSValueIsObject(ctx, sym) ? strait_get_property(ctx, (JSObjectRef)sym, "toPrimitive") : NULL;
  if (sym && JSValueIsSymbol(ctx, sym)) {
    JSObjectRef f = JSObjectMake(ctx, prim_class, NULL);
    JSObjectSetPrototype(ctx, f, b->fn_proto);
    JSObjectSetPropertyForKey(ctx, catchall, sym, f,
                              kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontEnum |
                                  kJSPropertyAttributeDontDelete,
                              NULL);
  }
  /* pkg_get stores children on obj through p->obj, in C memory the
   * collector does not scan, and a script can keep the catch-all alone
   * (Object.getPrototypeOf(pkg), then delete the package): the catch-all
   * holds obj under a permanent name no lookup of a Java name can reach */
  JSStringRef self = JSStringCreateWithUTF8CString("[strait:package]");
  JSObjectSetProperty(ctx, catchall, self, obj,
                      kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontEnum |
                          kJSPropertyAttributeDontDelete,
                      NULL);
  JSStringRelease(self);
  JSObjectSetPrototype(ctx, obj, catchall);
  p->obj = obj;
  return obj;
}

/* Constructor object for a java.lang.Class local ref. */
static JSObjectRef ctor_of_class(JNIEnv *env, jb_rt *b, JSContextRef ctx, jclass cls, JSValueRef *exc) {
  int ci = jb_class_index(env, cls);
  if (ci < 0) {
    *exc = strait_make_error(ctx, "TypeError", "cannot index a Java class");
    return NULL;
  }
  return jb_class_ctor(env, b, ctx, ci, exc);
}

/* True when s could be a Java identifier (a package or class name
 * segment, a member name); see model/model.h. Any thread. */
bool jb_is_identifier(const char *s) {
  if (!*s) return false;
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (!(c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80 ||
          (p != s && c >= '0' && c <= '9')))
      return false;
  }
  return true;
}

/* getProperty of a package catch-all (see file comment). */
static JSValueRef pkg_get(JSContextRef ctx, JSObjectRef obj, JSStringRef name, JSValueRef *exc) {
  jb_pkg *p = JSObjectGetPrivate(obj);
  if (!p || p->busy) return NULL;
  jb_rt *b = p->b;
  char buf[512];
  size_t len;
  if (!jb_name_utf8(name, buf, sizeof buf - 1, &len) || len == 0 || !jb_is_identifier(buf)) return NULL;
  if (JSObjectHasProperty(ctx, b->object_proto, name)) return NULL;
  if (strcmp(buf, "then") == 0 || strcmp(buf, "toJSON") == 0 || strcmp(buf, "inspect") == 0) return NULL;
  size_t plen = strlen(p->name), blen = len;
  if (plen + 1 + blen > JB_CLASS_NAME_MAX) {
    *exc = strait_make_error(ctx, "TypeError", "package name %.60s... too long (a Java class name has at most %d bytes)",
                    p->name, JB_CLASS_NAME_MAX);
    return NULL;
  }
  char *full = malloc(plen + blen + 2);
  if (!full) {
    *exc = strait_make_error(ctx, "RangeError", "out of memory for a package name");
    return NULL;
  }
  memcpy(full, p->name, plen);
  size_t at = plen;
  if (plen) full[at++] = '.';
  memcpy(full + at, buf, blen + 1);
  JNIEnv *env = strait__env();
  jb_maybe_flush(env, b);
  jstring jname = strait__jstring_from_utf8(env, full, strlen(full));
  jobject r = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_resolve, jname);
  (*env)->DeleteLocalRef(env, jname);
  if ((*env)->ExceptionCheck(env)) {
    free(full);
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  /* a name that is not a class is a package (Rhino's and Nashorn's rule),
   * used as a class only by `new`, instanceof or Java.type, which name the
   * missing class */
  JSObjectRef child;
  if (r && (*env)->IsInstanceOf(env, r, jb.Class)) {
    child = ctor_of_class(env, b, ctx, r, exc);
  } else {
    char kind[2] = {0};
    if (r) (*env)->GetStringUTFRegion(env, r, 0, 1, kind);
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    child = make_package(b, ctx, full, kind[0] == 'p');   /* "package": known */
    if (!child) *exc = strait_make_error(ctx, "RangeError", "out of memory for a package object");
  }
  free(full);
  if (r) (*env)->DeleteLocalRef(env, r);
  if (!child) return NULL;
  p->busy = true;
  JSObjectSetProperty(ctx, p->obj, name, child, 0, NULL);
  p->busy = false;
  return child;
}

/* Checks a class name before Java looks it up: Java tries each dot of a
 * name it cannot find as a nested-class separator, one Class.forName per
 * dot over the whole name (and its class loader keeps a lock object per
 * name tried), so the work grows with length x dots. A name is refused past
 * the class file format's 65535 bytes or past JB_CLASS_NAME_MAX_DOTS dots,
 * with a TypeError saying so. 0 or -1 with *exc set. */
static int check_class_name(JSContextRef ctx, JSValueRef name, JSValueRef *exc) {
  JSStringRef s = JSValueToStringCopy(ctx, name, exc);
  if (!s) return -1;
  size_t units = JSStringGetLength(s);
  const JSChar *c = JSStringGetCharactersPtr(s);
  size_t bytes = 0, dots = 0;
  for (size_t i = 0; i < units && bytes <= JB_CLASS_NAME_MAX; i++) {
    bytes += c[i] < 0x80 ? 1 : c[i] < 0x800 ? 2 : 3;
    if (c[i] == '.') dots++;
  }
  JSStringRelease(s);
  if (bytes > JB_CLASS_NAME_MAX) {
    *exc = strait_make_error(ctx, "TypeError", "Java.type: class name too long (%zu characters; a Java class name has at most %d bytes)",
                    units, JB_CLASS_NAME_MAX);
    return -1;
  }
  if (dots > JB_CLASS_NAME_MAX_DOTS) {
    *exc = strait_make_error(ctx, "TypeError", "Java.type: class name has %zu dots (at most %d)", dots, JB_CLASS_NAME_MAX_DOTS);
    return -1;
  }
  return 0;
}

/* Class named by a JS string ("java.util.HashMap", "int[]", "java.util.Map$Entry");
 * local ref or NULL with TypeError. */
static jclass class_by_name(JNIEnv *env, JSContextRef ctx, JSValueRef name, JSValueRef *exc) {
  if (!JSValueIsString(ctx, name)) {
    *exc = strait_make_error(ctx, "TypeError", "Java.type: expected a class name string");
    return NULL;
  }
  if (check_class_name(ctx, name, exc)) return NULL;
  jstring js = jb_string_to_java(env, ctx, name, exc);
  if (!js) return NULL;
  jclass c = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_findClass, js);
  (*env)->DeleteLocalRef(env, js);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (!c) {
    char *n = strait_utf8_from_value(ctx, name, NULL);
    *exc = strait_make_error(ctx, "TypeError", "class %.1000s not found", n ? n : "?");
    free(n);
  }
  return c;
}

/* Java.type(name); see model/model.h. */
JSObjectRef jb_type_by_name(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef name, JSValueRef *exc) {
  jclass c = class_by_name(env, ctx, name, exc);
  if (!c) return NULL;
  JSObjectRef r = ctor_of_class(env, b, ctx, c, exc);
  (*env)->DeleteLocalRef(env, c);
  return r;
}

/* The bridge of a Java.* function (its private data). */
static jb_rt *bridge_of(JSObjectRef fn) { return JSObjectGetPrivate(fn); }

/* The class index of the java.lang.Class behind wrapper v (C.class), or -1
 * when v is not one. Inside the gate. */
static int class_index_of_class_object(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef v) {
  jb_entry *e = JSValueIsObject(ctx, v) ? jb_entry_of(b, (JSObjectRef)v) : NULL;
  if (!e || !(*env)->IsInstanceOf(env, e->ref, jb.Class)) return -1;
  return jb_class_index(env, e->ref);
}

/* Java.type(t) -> class constructor: t is a class name, a java.lang.Class
 * (C.class round-trips), or a class constructor (itself). A package object
 * names a class that does not exist. Inside the gate. */
static JSValueRef java_type(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                            const JSValueRef argv[], JSValueRef *exc) {
  JNIEnv *env = strait__env();
  jb_rt *b = bridge_of(fn);
  JSValueRef t = argc ? argv[0] : JSValueMakeUndefined(ctx);
  if (JSValueIsObject(ctx, t)) {
    if (jb_ctor_class(b, ctx, (JSObjectRef)t) >= 0) return t;
    int ci = class_index_of_class_object(env, b, ctx, t);
    if (ci >= 0) return jb_class_ctor(env, b, ctx, ci, exc);   /* the policy's lookup verdict applies */
    jb_pkg *p = pkg_of(ctx, t);
    if (p) {
      class_not_found(ctx, p, exc);
      return NULL;
    }
  }
  return jb_type_by_name(env, b, ctx, t, exc);
}

/* Java.typeName(t): the Java source name of the class t stands for (a
 * class constructor or a java.lang.Class): 'java.lang.Integer',
 * 'java.util.Map$Entry', 'int[]'; undefined for any other value (as
 * Nashorn). Inside the gate. */
static JSValueRef java_type_name(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of(fn);
  JSValueRef t = argc ? argv[0] : JSValueMakeUndefined(ctx);
  if (!JSValueIsObject(ctx, t)) return JSValueMakeUndefined(ctx);
  JNIEnv *env = strait__env();
  int ci = jb_ctor_class(b, ctx, (JSObjectRef)t);
  if (ci < 0) ci = class_index_of_class_object(env, b, ctx, t);
  jb_class *k = ci >= 0 ? jb_class_get(env, ctx, ci, false, exc) : NULL;
  if (!k) return ci >= 0 ? NULL : JSValueMakeUndefined(ctx);
  char sb[512];
  JSStringRef s = JSStringCreateWithUTF8CString(jb_source_name(k->name, sb, sizeof sb));
  JSValueRef r = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return r;
}

/* Java.isJavaObject(v) -> boolean. Inside the gate. */
static JSValueRef java_is_object(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  bool r = argc && JSValueIsObject(ctx, argv[0]) && jb_entry_of(bridge_of(fn), (JSObjectRef)argv[0]);
  return JSValueMakeBoolean(ctx, r);
}

/* Class index named by a type argument: a string or a class constructor. */
static int class_index_of_type(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef t, const char *what,
                               JSValueRef *exc) {
  if (JSValueIsObject(ctx, t)) {
    int ci = jb_ctor_class(b, ctx, (JSObjectRef)t);
    if (ci >= 0) return ci;
    jb_pkg *p = pkg_of(ctx, t);
    if (p) class_not_found(ctx, p, exc);
    else *exc = strait_make_error(ctx, "TypeError", "%s: expected a Java class or a type name", what);
    return -1;
  }
  jclass c = class_by_name(env, ctx, t, exc);
  if (!c) return -1;
  int ci = jb_class_index(env, c);
  (*env)->DeleteLocalRef(env, c);
  /* a type named by a string is a lookup: the runtime's policy decides */
  jb_class *k = ci >= 0 ? jb_class_get(env, ctx, ci, false, exc) : NULL;
  if (!k) return -1;
  if (!(jb_verdict(env, b, k) & JB_V_LOOKUP)) {
    jb_deny_class(b, ctx, k->name, exc);
    return -1;
  }
  return ci;
}

/* Java.array(type, length) */
static JSValueRef java_array(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                             const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of(fn);
  JNIEnv *env = strait__env();
  if (argc < 2) {
    *exc = strait_make_error(ctx, "TypeError", "Java.array(type, length): expected 2 arguments, got %zu", argc);
    return NULL;
  }
  int ci = class_index_of_type(env, b, ctx, argv[0], "Java.array", exc);
  if (ci < 0) return NULL;
  double n = JSValueIsNumber(ctx, argv[1]) ? JSValueToNumber(ctx, argv[1], NULL) : -1;
  if (!(n >= 0 && n <= 0x7fffffff) || n != (double)(jint)n) {
    *exc = strait_make_error(ctx, "RangeError", "Java.array: invalid length");
    return NULL;
  }
  jb_class *k = jb_class_get(env, ctx, ci, false, exc);
  if (!k) return NULL;
  if (k->self_code == 'V') {
    *exc = strait_make_error(ctx, "TypeError", "Java.array: cannot make an array of void");
    return NULL;
  }
  jobject arr = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_newArray, k->ref, (jint)n);
  if ((*env)->ExceptionCheck(env)) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  JSValueRef r = jb_wrap(env, b, ctx, arr, exc);
  (*env)->DeleteLocalRef(env, arr);
  return r;
}

/* Java.from(javaArrayOrCollection) -> JS array */
static JSValueRef java_from(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                            const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of(fn);
  JNIEnv *env = strait__env();
  jb_entry *e = argc && JSValueIsObject(ctx, argv[0]) ? jb_entry_of(b, (JSObjectRef)argv[0]) : NULL;
  if (!e) {
    *exc = strait_make_error(ctx, "TypeError", "Java.from: expected a Java array or collection");
    return NULL;
  }
  jb_maybe_flush(env, b);
  jobject src = e->ref;   /* a global ref: stays while Java runs */
  /* toArray() runs the collection's own code: the gate is suspended */
  if (strait__java_call_refused(env, b->rt)) return NULL;
  strait_suspension susp;
  strait_gate_suspend(b->rt, &susp);
  jobjectArray items = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_toArray, src);
  strait_gate_resume(b->rt, &susp);
  jboolean threw = (*env)->ExceptionCheck(env);
  if (strait__java_returned(env, b->rt, threw)) {
    if (items) (*env)->DeleteLocalRef(env, items);
    return NULL;
  }
  if (threw) {
    jb_throw_pending(env, b, ctx, exc);
    return NULL;
  }
  jsize n = (*env)->GetArrayLength(env, items);
  /* one upcall per JB_BATCH elements (jb_wrap_batch). Each batch's values
   * sit on this stack, then in a chunk array that `held` (on this stack)
   * keeps, so a collection never frees one; their copies in `all` only
   * feed the one JSObjectMakeArray of the result (far cheaper than a store
   * per element). */
  JSValueRef *all = n ? malloc(sizeof(JSValueRef) * (size_t)n) : NULL;
  JSObjectRef held = JSObjectMakeArray(ctx, 0, NULL, exc);
  if ((n && !all) || !held) {
    free(all);
    (*env)->DeleteLocalRef(env, items);
    if (!*exc) *exc = strait_make_error(ctx, "RangeError", "Java.from: out of memory for %d elements", (int)n);
    return NULL;
  }
  JSValueRef vals[JB_BATCH];
  unsigned nchunks = 0;
  for (jsize from = 0; from < n; from += JB_BATCH) {
    jint cnt = n - from < JB_BATCH ? n - from : JB_BATCH;
    JSObjectRef chunk = NULL;
    /* shared: a collection's toArray() may hand out an array it keeps */
    if (jb_wrap_batch(env, b, ctx, items, from, cnt, true, vals, exc)) chunk = JSObjectMakeArray(ctx, (size_t)cnt, vals, exc);
    if (!chunk) {
      free(all);
      (*env)->DeleteLocalRef(env, items);
      return NULL;
    }
    JSObjectSetPropertyAtIndex(ctx, held, nchunks++, chunk, NULL);
    memcpy(all + from, vals, sizeof(JSValueRef) * (size_t)cnt);
  }
  (*env)->DeleteLocalRef(env, items);
  JSObjectRef arr = JSObjectMakeArray(ctx, (size_t)n, all, exc);
  free(all);
  /* held stays live to here: the compiler may not drop it earlier */
  __asm__ volatile("" : : "r"(held) : "memory");
  return arr;
}

/* Java.to(jsArray, type) -> Java array (type defaults to Object[]) */
static JSValueRef java_to(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of(fn);
  JNIEnv *env = strait__env();
  if (argc < 1 || !jb_is_array(ctx, argv[0])) {
    *exc = strait_make_error(ctx, "TypeError", "Java.to: expected a JS array");
    return NULL;
  }
  int ci;
  if (argc > 1 && !JSValueIsUndefined(ctx, argv[1])) {
    ci = class_index_of_type(env, b, ctx, argv[1], "Java.to", exc);
  } else {
    JSStringRef s = JSStringCreateWithUTF8CString("java.lang.Object[]");
    JSValueRef v = JSValueMakeString(ctx, s);
    JSStringRelease(s);
    ci = class_index_of_type(env, b, ctx, v, "Java.to", exc);
  }
  if (ci < 0) return NULL;
  jb_class *k = jb_class_get(env, ctx, ci, true, exc);
  if (!k) return NULL;
  char code = (k->flags & JB_ARRAY) ? 'A' : k->self_code;
  jb_arg a;
  jb_arg_kind(b, ctx, argv[0], &a);
  jb_locals l = {0};
  jvalue out;
  char what[300];
  snprintf(what, sizeof what, "Java.to(%s)", k->name);
  JSValueRef r = NULL;
  /* given: the bridge made it; a live JsArray (java.util.List) stays a Java
   * list in JS instead of going back to the JS array (jb_wrap) */
  if (jb_to_java(env, b, ctx, &a, code, ci, &out, &l, what, exc)) r = jb_wrap_given(env, b, ctx, out.l, exc);
  jb_args_release(&a, 1);
  jb_locals_free(env, &l);
  return r;
}

/* Java.__stats(): {live, pending, javaHeld} for lifecycle tests. */
static JSValueRef java_stats(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                             const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = bridge_of(fn);
  JNIEnv *env = strait__env();
  jb_flush(env, b);
  jb_register_pending(env, b);
  jint held = (*env)->CallIntMethod(env, b->table, jb.ObjectTable_size);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
  strait_set_property(ctx, o, "live", JSValueMakeNumber(ctx, (double)b->live), 0);
  strait_set_property(ctx, o, "javaHeld", JSValueMakeNumber(ctx, held), 0);
  strait_set_property(ctx, o, "immediateValues", JSValueMakeBoolean(ctx, jb_imm_ok), 0);
  return o;
}

/* Java.__gc(): a full JSC collection (finalizers queue dead wrappers). */
static JSValueRef java_gc(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exc) {
  JSSynchronousGarbageCollectForDebugging(ctx);
  return JSValueMakeUndefined(ctx);
}

/* Native function with b as private data, stored as obj[name], not
 * enumerable; see model/model.h. Inside the gate. */
void jb_put_fn(jb_rt *b, JSContextRef ctx, JSObjectRef obj, const char *name, JSObjectCallAsFunctionCallback cb) {
  JSClassDefinition d = kJSClassDefinitionEmpty;
  d.className = name;
  d.callAsFunction = cb;
  JSClassRef cls = JSClassCreate(&d);
  JSObjectRef f = JSObjectMake(ctx, cls, b);
  JSClassRelease(cls);
  JSObjectSetPrototype(ctx, f, b->fn_proto);
  JSStringRef n = JSStringCreateWithUTF8CString(name);
  JSObjectSetProperty(ctx, obj, n, f, kJSPropertyAttributeDontEnum, NULL);
  JSStringRelease(n);
}

/* Installs the package globals and Java; see model/model.h. Nothing when
 * the runtime's policy allows no lookup (NONE; GIVEN and EXPLICIT without
 * a class filter). */
int jb_packages_install(jb_rt *b, JSContextRef ctx, JSValueRef *exc) {
  pthread_once(&pkg_once, make_pkg_class);
  if (!b->lookups) return 0;
  JSObjectRef global = JSContextGetGlobalObject(ctx);
  static const char *const roots[] = {STRAIT_JAVA_PACKAGE_ROOTS};
  for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
    JSObjectRef p = make_package(b, ctx, roots[i], true);
    if (!p) return STRAIT_ENOMEM;
    strait_set_property(ctx, global, roots[i], p, kJSPropertyAttributeDontEnum);
  }
  JSObjectRef all = make_package(b, ctx, "", true);
  if (!all) return STRAIT_ENOMEM;
  strait_set_property(ctx, global, "Packages", all, kJSPropertyAttributeDontEnum);
  JSObjectRef java = JSObjectMake(ctx, NULL, NULL);
  jb_put_fn(b, ctx, java, "type", java_type);
  jb_put_fn(b, ctx, java, "typeName", java_type_name);
  jb_put_fn(b, ctx, java, "isJavaObject", java_is_object);
  jb_put_fn(b, ctx, java, "array", java_array);
  jb_put_fn(b, ctx, java, "from", java_from);
  jb_put_fn(b, ctx, java, "implement", strait__java_implement_fn);
  jb_put_fn(b, ctx, java, "to", java_to);
  jb_put_fn(b, ctx, java, "__stats", java_stats);
  jb_put_fn(b, ctx, java, "__gc", java_gc);
  strait_set_property(ctx, global, "Java", java, kJSPropertyAttributeDontEnum);
  b->java = java;
  JSValueProtect(ctx, java);
  jb_importers_install(b, ctx);
  return 0;
}

/* The dotted name of package object v; see model/model.h. */
const char *jb_package_name(JSContextRef ctx, JSValueRef v) {
  if (!pkg_class || !JSValueIsObject(ctx, v)) return NULL;
  JSValueRef proto = JSObjectGetPrototype(ctx, (JSObjectRef)v);
  if (!JSValueIsObjectOfClass(ctx, proto, pkg_class)) return NULL;
  jb_pkg *p = JSObjectGetPrivate((JSObjectRef)proto);
  return p && p->obj == (JSObjectRef)v ? p->name : NULL;
}

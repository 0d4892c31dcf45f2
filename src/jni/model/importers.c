/*
 * importers.c - JavaImporter, importPackage and importClass.
 *
 * An importer is a JSClass object (no prototype, so `with (importer)` hides
 * no global behind Object.prototype's names) whose getProperty callback
 * answers a name with the class of that name in one of its packages, or with
 * one of its classes given by name. Answers are kept in a prototype-less
 * cache object the importer holds under a hidden name (a class constructor,
 * or false for a name that is no class), so a `with` block asks Java once
 * per name, not once per evaluation.
 *
 * importPackage(pkg) puts one such importer (flagged global) between the
 * global object and its prototype, at the first call: a name that is not a
 * global then resolves to a class of the imported packages, and
 * `typeof name` stays 'undefined' for every other name. importClass(cls)
 * defines a global named for the class.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "model/model.h"
#include "value/value.h"

#include <stdlib.h>
#include <string.h>

#define K_CACHE "[strait:cache]"
/* Longest name an importer looks up (longer names are never classes here). */
#define IMP_NAME_MAX 255
/* Most packages one importer holds. */
#define IMP_MAX_PACKAGES 1024

typedef struct imp {
  JSObjectRef cache;        /* not protected: held by the importer (K_CACHE) */
  bool global;              /* the importPackage fallback of the global object */
  size_t n, cap;
  char **pkgs;              /* dotted package names ("" for Packages) */
} imp;

static JSClassRef imp_class, importer_ctor_class;
static pthread_once_t imp_once = PTHREAD_ONCE_INIT;

/* The class named full ("java.io.File") as its constructor, NULL when there
 * is no such class (or *exc set, when the policy denies it). */
static JSObjectRef class_named(JNIEnv *env, jb_rt *b, JSContextRef ctx, const char *full, JSValueRef *exc) {
  jstring js = strait__jstring_from_utf8(env, full, strlen(full));
  if (!js) {
    (*env)->ExceptionClear(env);
    return NULL;
  }
  jclass c = (*env)->CallStaticObjectMethod(env, jb.Bridge, jb.Bridge_findClass, js);
  (*env)->DeleteLocalRef(env, js);
  if ((*env)->ExceptionCheck(env)) {
    (*env)->ExceptionClear(env);
    c = NULL;
  }
  if (!c) return NULL;
  int ci = jb_class_index(env, c);
  (*env)->DeleteLocalRef(env, c);
  return ci >= 0 ? jb_class_ctor(env, b, ctx, ci, exc) : NULL;
}

/* getProperty of an importer (see the file comment). */
static JSValueRef imp_get(JSContextRef ctx, JSObjectRef obj, JSStringRef name, JSValueRef *exc) {
  imp *p = JSObjectGetPrivate(obj);
  if (!p || !p->cache) return NULL;
  /* at most 3 UTF-8 bytes per UTF-16 unit: a name that fits is never cut */
  char buf[IMP_NAME_MAX * 3 + 1];
  if (JSStringGetLength(name) > IMP_NAME_MAX) return NULL;
  size_t len;
  if (!jb_name_utf8(name, buf, sizeof buf, &len) || len == 0 || !jb_is_identifier(buf)) return NULL;
  len++;   /* with its NUL, as the copies below take it */
  JSValueRef v = JSObjectGetProperty(ctx, p->cache, name, NULL);
  if (v && JSValueIsObject(ctx, v)) return v;
  if (v && JSValueIsBoolean(ctx, v)) return NULL;
  jb_rt *b = jb_rt_of(ctx);
  if (!b) return NULL;
  /* the global fallback: names Object.prototype has are found after it */
  if (p->global && JSObjectHasProperty(ctx, b->object_proto, name)) return NULL;
  if (strcmp(buf, "then") == 0 || strcmp(buf, "toJSON") == 0 || strcmp(buf, "inspect") == 0 ||
      strcmp(buf, "constructor") == 0)
    return NULL;
  JNIEnv *env = strait__env();
  jb_maybe_flush(env, b);
  JSObjectRef found = NULL;
  for (size_t i = 0; i < p->n && !found; i++) {
    size_t pl = strlen(p->pkgs[i]);
    char *full = malloc(pl + len + 2);
    if (!full) return NULL;
    size_t at = 0;
    if (pl) {
      memcpy(full, p->pkgs[i], pl);
      full[pl] = '.';
      at = pl + 1;
    }
    memcpy(full + at, buf, len);
    found = class_named(env, b, ctx, full, exc);
    free(full);
    if (*exc) return NULL;
  }
  JSObjectSetProperty(ctx, p->cache, name, found ? (JSValueRef)found : JSValueMakeBoolean(ctx, false), 0, NULL);
  return found;
}

/* Frees an importer's C memory. GC thread: no JSC, no Java. */
static void imp_finalize(JSObjectRef obj) {
  imp *p = JSObjectGetPrivate(obj);
  if (!p) return;
  for (size_t i = 0; i < p->n; i++) free(p->pkgs[i]);
  free(p->pkgs);
  free(p);
}

static JSValueRef importer_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc);
static JSObjectRef importer_construct(JSContextRef ctx, JSObjectRef ctor, size_t argc, const JSValueRef argv[],
                                      JSValueRef *exc);

static JSValueRef imp_import_package(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                     const JSValueRef argv[], JSValueRef *exc);
static JSValueRef imp_import_class(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc);

/* importer.importPackage / importer.importClass (Rhino): found after the
 * getProperty callback answers no class of that name. */
static const JSStaticFunction imp_functions[] = {
    {"importPackage", imp_import_package, kJSPropertyAttributeDontEnum},
    {"importClass", imp_import_class, kJSPropertyAttributeDontEnum},
    {NULL, NULL, 0},
};

static void make_classes(void) {
  JSClassDefinition d = kJSClassDefinitionEmpty;
  d.className = "JavaImporter";
  d.getProperty = imp_get;
  d.staticFunctions = imp_functions;
  /* the functions on the importer itself: it has no prototype */
  d.attributes = kJSClassAttributeNoAutomaticPrototype;
  d.finalize = imp_finalize;
  imp_class = JSClassCreate(&d);
  JSClassDefinition c = kJSClassDefinitionEmpty;
  c.className = "JavaImporter";
  c.callAsFunction = importer_call;
  c.callAsConstructor = importer_construct;
  importer_ctor_class = JSClassCreate(&c);
}

/* A new importer (no packages yet); NULL with *exc on lack of memory. */
static JSObjectRef imp_new(JSContextRef ctx, bool global, JSValueRef *exc) {
  imp *p = calloc(1, sizeof *p);
  if (!p) {
    *exc = strait_make_error(ctx, "RangeError", "out of memory for an importer");
    return NULL;
  }
  p->global = global;
  JSObjectRef o = JSObjectMake(ctx, imp_class, p);
  JSObjectSetPrototype(ctx, o, JSValueMakeNull(ctx));
  JSObjectRef cache = JSObjectMake(ctx, NULL, NULL);
  JSObjectSetPrototype(ctx, cache, JSValueMakeNull(ctx));
  strait_set_property(ctx, o, K_CACHE, cache,
                      kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontEnum | kJSPropertyAttributeDontDelete);
  p->cache = cache;
  return o;
}

/* Adds package name to importer o (once). 0, or -1 with *exc. */
static int imp_add_package(JSContextRef ctx, JSObjectRef o, const char *name, JSValueRef *exc) {
  imp *p = JSObjectGetPrivate(o);
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->pkgs[i], name) == 0) return 0;
  if (p->n >= IMP_MAX_PACKAGES) {
    *exc = strait_make_error(ctx, "RangeError", "an importer holds at most %d packages", IMP_MAX_PACKAGES);
    return -1;
  }
  if (p->n == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 4;
    char **np = realloc(p->pkgs, cap * sizeof *np);
    if (!np) goto oom;
    p->pkgs = np;
    p->cap = cap;
  }
  if (!(p->pkgs[p->n] = strdup(name))) goto oom;
  p->n++;
  /* names that were no class may be one now: forget the negative answers */
  JSPropertyNameArrayRef names = JSObjectCopyPropertyNames(ctx, p->cache);
  size_t n = JSPropertyNameArrayGetCount(names);
  for (size_t i = 0; i < n; i++) {
    JSStringRef k = JSPropertyNameArrayGetNameAtIndex(names, i);
    JSValueRef v = JSObjectGetProperty(ctx, p->cache, k, NULL);
    if (v && JSValueIsBoolean(ctx, v)) JSObjectDeleteProperty(ctx, p->cache, k, NULL);
  }
  JSPropertyNameArrayRelease(names);
  return 0;
oom:
  *exc = strait_make_error(ctx, "RangeError", "out of memory for an importer");
  return -1;
}

/* The short name a class is imported under: after the last '.' and '$'. */
static const char *short_name(const char *name) {
  const char *s = strrchr(name, '.');
  s = s ? s + 1 : name;
  const char *d = strrchr(s, '$');
  return d && d[1] ? d + 1 : s;
}

/* Adds argument v (a package or a class) to importer o. 0 or -1 with *exc. */
static int imp_add(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSObjectRef o, JSValueRef v, size_t index,
                   const char *what, JSValueRef *exc) {
  const char *pkg = jb_package_name(ctx, v);
  if (pkg) return imp_add_package(ctx, o, pkg, exc);
  int ci = JSValueIsObject(ctx, v) ? jb_ctor_class(b, ctx, (JSObjectRef)v) : -1;
  jb_class *k = ci >= 0 ? jb_class_get(env, ctx, ci, false, exc) : NULL;
  if (!k) {
    if (!*exc)
      *exc = strait_make_error(ctx, "TypeError", "%s: argument %zu is not a Java package or class", what, index + 1);
    return -1;
  }
  imp *p = JSObjectGetPrivate(o);
  strait_set_property(ctx, p->cache, short_name(k->name), v, 0);
  return 0;
}

/* importer.importPackage(pkg, ...) / importer.importClass(cls, ...): adds
 * to the importer they are called on (also unqualified inside its `with`). */
static JSValueRef imp_import(JSContextRef ctx, JSObjectRef self, size_t argc, const JSValueRef argv[],
                             bool packages, JSValueRef *exc) {
  const char *what = packages ? "importPackage" : "importClass";
  jb_rt *b = jb_rt_of(ctx);
  if (!b || !self || !JSValueIsObjectOfClass(ctx, self, imp_class) || !JSObjectGetPrivate(self)) {
    *exc = strait_make_error(ctx, "TypeError", "JavaImporter.%s: not called on a JavaImporter", what);
    return NULL;
  }
  JNIEnv *env = strait__env();
  for (size_t i = 0; i < argc; i++) {
    bool is_pkg = jb_package_name(ctx, argv[i]) != NULL;
    if (is_pkg != packages) {
      *exc = strait_make_error(ctx, "TypeError", "JavaImporter.%s: argument %zu is not a Java %s", what, i + 1,
                               packages ? "package" : "class");
      return NULL;
    }
    if (imp_add(env, b, ctx, self, argv[i], i, what, exc)) return NULL;
  }
  return JSValueMakeUndefined(ctx);
}

static JSValueRef imp_import_package(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                     const JSValueRef argv[], JSValueRef *exc) {
  return imp_import(ctx, self, argc, argv, true, exc);
}

static JSValueRef imp_import_class(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                   const JSValueRef argv[], JSValueRef *exc) {
  return imp_import(ctx, self, argc, argv, false, exc);
}

/* JavaImporter(pkgOrClass, ...), with or without new. */
static JSObjectRef make_importer(JSContextRef ctx, JSObjectRef fn, size_t argc, const JSValueRef argv[],
                                 JSValueRef *exc) {
  jb_rt *b = JSObjectGetPrivate(fn);
  JNIEnv *env = strait__env();
  JSObjectRef o = imp_new(ctx, false, exc);
  if (!o) return NULL;
  for (size_t i = 0; i < argc; i++)
    if (imp_add(env, b, ctx, o, argv[i], i, "JavaImporter", exc)) return NULL;
  return o;
}

static JSValueRef importer_call(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc) {
  return make_importer(ctx, fn, argc, argv, exc);
}

static JSObjectRef importer_construct(JSContextRef ctx, JSObjectRef ctor, size_t argc, const JSValueRef argv[],
                                      JSValueRef *exc) {
  return make_importer(ctx, ctor, argc, argv, exc);
}

/* The importPackage fallback of the global object, put in its prototype
 * chain at the first call: right after the global object, or, when the
 * global's own prototype is immutable (JavaScriptCore's global objects),
 * right after that prototype. NULL with *exc when neither can be changed. */
static JSObjectRef global_fallback(JSContextRef ctx, JSObjectRef global, JSValueRef *exc) {
  JSValueRef p1 = JSObjectGetPrototype(ctx, global);
  if (JSValueIsObjectOfClass(ctx, p1, imp_class)) return (JSObjectRef)p1;
  if (JSValueIsObject(ctx, p1)) {
    JSValueRef p2 = JSObjectGetPrototype(ctx, (JSObjectRef)p1);
    if (JSValueIsObjectOfClass(ctx, p2, imp_class)) return (JSObjectRef)p2;
  }
  JSObjectRef fb = imp_new(ctx, true, exc);
  if (!fb) return NULL;
  JSObjectSetPrototype(ctx, fb, p1);
  JSObjectSetPrototype(ctx, global, fb);
  if (JSObjectGetPrototype(ctx, global) == fb) return fb;
  if (JSValueIsObject(ctx, p1)) {
    JSObjectRef holder = (JSObjectRef)p1;
    JSValueRef p2 = JSObjectGetPrototype(ctx, holder);
    JSObjectSetPrototype(ctx, fb, p2);
    JSObjectSetPrototype(ctx, holder, fb);
    if (JSObjectGetPrototype(ctx, holder) == fb) return fb;
  }
  *exc = strait_make_error(ctx, "TypeError", "importPackage: cannot change the global object's prototype chain");
  return NULL;
}

/* importPackage(pkg, ...): see the file comment. */
static JSValueRef import_package(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  JSObjectRef global = JSContextGetGlobalObject(ctx);
  for (size_t i = 0; i < argc; i++) {
    if (!jb_package_name(ctx, argv[i])) {
      bool is_class = JSValueIsObject(ctx, argv[i]) && jb_ctor_class(JSObjectGetPrivate(fn), ctx, (JSObjectRef)argv[i]) >= 0;
      *exc = strait_make_error(ctx, "TypeError", "importPackage: argument %zu is not a Java package%s", i + 1,
                               is_class ? " (it is a class: use importClass)" : "");
      return NULL;
    }
  }
  JSObjectRef fb = global_fallback(ctx, global, exc);
  if (!fb) return NULL;
  for (size_t i = 0; i < argc; i++)
    if (imp_add_package(ctx, fb, jb_package_name(ctx, argv[i]), exc)) return NULL;
  return JSValueMakeUndefined(ctx);
}

/* importClass(cls, ...): a global named for each class. */
static JSValueRef import_class(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = JSObjectGetPrivate(fn);
  JNIEnv *env = strait__env();
  JSObjectRef global = JSContextGetGlobalObject(ctx);
  for (size_t i = 0; i < argc; i++) {
    int ci = JSValueIsObject(ctx, argv[i]) ? jb_ctor_class(b, ctx, (JSObjectRef)argv[i]) : -1;
    jb_class *k = ci >= 0 ? jb_class_get(env, ctx, ci, false, exc) : NULL;
    if (!k) {
      if (!*exc)
        *exc = strait_make_error(ctx, "TypeError", "importClass: argument %zu is not a Java class%s", i + 1,
                                 jb_package_name(ctx, argv[i]) ? " (it is a package: use importPackage)" : "");
      return NULL;
    }
    const char *sn = short_name(k->name);
    JSStringRef key = JSStringCreateWithUTF8CString(sn);
    JSValueRef d = NULL;
    JSValueRef old = NULL;
    /* a global of that name that is another value is kept */
    if (JSObjectHasProperty(ctx, global, key)) old = JSObjectGetProperty(ctx, global, key, &d);
    if (old && !JSValueIsUndefined(ctx, old) && !JSValueIsStrictEqual(ctx, old, argv[i])) {
      JSStringRelease(key);
      *exc = strait_make_error(ctx, "TypeError",
                               "importClass: cannot import %s: a global named %s is already defined", k->name, sn);
      return NULL;
    }
    JSObjectSetProperty(ctx, global, key, argv[i], kJSPropertyAttributeDontEnum, exc);
    JSStringRelease(key);
    if (*exc) return NULL;
  }
  return JSValueMakeUndefined(ctx);
}


/* Defines JavaImporter, importPackage and importClass on the global object
 * (see model/model.h). Called by jb_packages_install when the runtime's
 * policy allows class lookups. Inside the gate. */
void jb_importers_install(jb_rt *b, JSContextRef ctx) {
  pthread_once(&imp_once, make_classes);
  JSObjectRef global = JSContextGetGlobalObject(ctx);
  JSObjectRef ctor = JSObjectMake(ctx, importer_ctor_class, b);
  JSObjectSetPrototype(ctx, ctor, b->fn_proto);
  strait_set_property(ctx, global, "JavaImporter", ctor, kJSPropertyAttributeDontEnum);
  jb_put_fn(b, ctx, global, "importPackage", import_package);
  jb_put_fn(b, ctx, global, "importClass", import_class);
}

/*
 * class_objects.c - the JS objects that stand for a Java class in one
 * runtime: its constructor (a JS function made by a small helper script,
 * so property reads on it are inline cached and `prototype`, `name` and
 * `instanceof` behave like a JS class) and the prototype of its instances.
 *
 * Prototype chain of an instance of C (extends S):
 *   wrapper -> C.prototype -> catch-all(C) -> S.prototype -> ... ->
 *   Object.prototype
 * C.prototype holds one method function per instance method name (all
 * public methods, inherited ones too, so a call never walks the chain) and
 * accessors for instance fields. The catch-all is a JS Proxy (made by the
 * helper script) over an empty object whose prototype is S.prototype,
 * reached only when a lookup misses C.prototype. Its get trap resolves
 * explicit signatures ("append(char)"), builds `constructor` lazily, lets
 * JS built-ins through, resolves static members read through an instance,
 * bean properties, List elements and Map entries, and reads a missing
 * member as undefined; its has trap answers `in` without throwing (a
 * JSClass getProperty callback cannot tell `in` from a read); its set trap
 * writes List elements, bean setters and Map entries and refuses other
 * names (bridge_helper.js makeCatchall). Constructors have the same arrangement
 * for statics: C -> catch-all(C static) -> Function.prototype.
 * The catch-all becomes the prototype only after the members are defined
 * and while C.prototype is not yet anyone's prototype: members are then
 * added without a trap on the way, and JSC never sees a prototype object
 * get a Proxy (which may intercept indexed accesses) into its chain, which
 * would make it slow down every array of the global object.
 *
 * Object.keys(wrapper) lists the members of the wrapper's prototype too
 * (the helper replaces Object.keys with a function that does so for
 * objects whose prototype carries the bridge's mark under the token key;
 * for...in finds them on its own).
 * Large classes need nothing special: JSC turns an object with many added
 * properties into a dictionary on its own, so adding members stays linear.
 *
 * Everything here runs inside the runtime's gate.
 */
#include "model/model.h"
#include "value/value.h"

#include <stdlib.h>
#include <string.h>

static JSClassRef token_class;
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

/* Creates the process-wide JSClass of tokens. Once. */
static void make_classes(void) {
  JSClassDefinition t = kJSClassDefinitionEmpty;
  t.className = "JavaRef";
  t.finalize = jb_token_finalize;
  token_class = JSClassCreate(&t);
}

/* The finalizing token class (process-wide). Any thread. */
JSClassRef jb_token_class(void) {
  pthread_once(&classes_once, make_classes);
  return token_class;
}

/* The class index behind a constructor object, or -1 (see model/model.h). */
int jb_ctor_class(jb_rt *b, JSContextRef ctx, JSObjectRef obj) {
  JSValueRef v = JSObjectGetPropertyForKey(ctx, obj, b->token_key, NULL);
  if (!v || !JSValueIsNumber(ctx, v)) return -1;
  double d = JSValueToNumber(ctx, v, NULL);
  if (!(d >= 0 && d < (double)b->njsc)) return -1;
  int ci = (int)d;
  return b->jsc[ci].ctor == obj ? ci : -1;
}

/* Records f -> bd (a later function at the same address replaces it). Out
 * of memory, f stays unbound: its calls then fail with a TypeError. */
static void fn_put(jb_rt *b, JSObjectRef f, jb_bound *bd) {
  (void)strait__ptrmap_put(&b->fns, f, (uintptr_t)bd);
}

/* JSValueProtect when v is set (each paired with one unprotect at teardown). */
static void protect(JSContextRef ctx, JSValueRef v) { if (v) JSValueProtect(ctx, v); }

/* The intrinsics the helper script uses: the JNI layer's, captured once
 * per runtime before any script ran or from a fresh realm of the runtime's
 * context group that no script has seen (strait__jrt_of, base/runtime.c), so
 * what a script replaced before or after the bridge started changes
 * nothing the helper does. Owned by the runtime's JNI state; NULL with
 * *exc when they could not be read. */
static JSValueRef read_intrinsics(jb_rt *b, JSContextRef ctx, JSValueRef *exc) {
  strait__jrt *jrt = strait__jrt_of(b->rt);
  if (!jrt || !jrt->intrinsics) {
    *exc = strait_make_error(ctx, "Error", "cannot read the JavaScript intrinsics for the Java bridge");
    return NULL;
  }
  return jrt->intrinsics;
}

/* The natives of the catch-all's collection members (lget, lset, lsize,
 * mget, mput, items; call/js_callbacks.c) on an object without a
 * prototype, the helper's last argument. Inside the gate. */
static JSObjectRef collection_natives(jb_rt *b, JSContextRef ctx) {
  JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
  JSObjectSetPrototype(ctx, o, JSValueMakeNull(ctx));
  static const char *const names[] = {"lget", "lset", "lsize", "mget", "mput", "items", "lwin"};
  JSObjectCallAsFunctionCallback fns[] = {b->cb->list_get, b->cb->list_set, b->cb->list_size,
                                          b->cb->map_get, b->cb->map_put, b->cb->items, b->cb->list_window};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    JSStringRef n = JSStringCreateWithUTF8CString(names[i]);
    JSObjectSetProperty(ctx, o, n, JSObjectMakeFunctionWithCallback(ctx, n, fns[i]), kJSPropertyAttributeReadOnly, NULL);
    JSStringRelease(n);
  }
  return o;
}

/* Per-runtime set-up: classes, helper script, cached strings. */
int jb_jsclass_init(jb_rt *b, JSContextRef ctx, JSValueRef *exc) {
  pthread_once(&classes_once, make_classes);
  b->token_class = token_class;
  b->s_length = JSStringCreateWithUTF8CString("length");
  b->s_prototype = JSStringCreateWithUTF8CString("prototype");
  b->s_constructor = JSStringCreateWithUTF8CString("constructor");
  JSObjectRef global = JSContextGetGlobalObject(ctx);
  JSStringRef key = JSStringCreateWithUTF8CString("strait.java.ref");
  b->token_key = JSValueMakeSymbol(ctx, key);
  JSStringRelease(key);
  protect(ctx, b->token_key);
  b->object_proto = (JSObjectRef)JSObjectGetPrototype(ctx, JSObjectMake(ctx, NULL, NULL));
  protect(ctx, b->object_proto);
  JSObjectRef f = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->is_instance);
  b->fn_proto = (JSObjectRef)JSObjectGetPrototype(ctx, f);
  protect(ctx, b->fn_proto);
  JSValueRef ev = strait_get_property(ctx, global, "Error");
  b->error_ctor = JSValueIsObject(ctx, ev) ? (JSObjectRef)ev : NULL;
  protect(ctx, b->error_ctor);

  JSObjectRef is_inst = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->is_instance);
  JSValueRef factory = strait__js_source_eval(ctx, strait__jni_js_find("bridge_helper.js"), NULL, exc);
  if (!factory) return STRAIT_EJS;
  JSObjectRef istart = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->iter_start);
  JSObjectRef inext = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->iter_next);
  JSObjectRef resolve = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->resolve);
  JSObjectRef aget = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->array_get);
  JSObjectRef aset = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->array_set);
  JSValueRef intr = read_intrinsics(b, ctx, exc);
  if (!intr) return STRAIT_EJS;
  JSObjectRef coll = collection_natives(b, ctx);
  JSObjectRef awin = JSObjectMakeFunctionWithCallback(ctx, NULL, b->cb->array_window);
  /* the runtime's crossing counter as a Float64Array over the core's word
   * (no copy, nothing to free: the runtime owns the word and outlives
   * every script that could read it) */
  JSObjectRef crossings = JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeFloat64Array,
                                                                (void *)strait_crossings(b->rt), sizeof(double),
                                                                NULL, NULL, exc);
  if (!crossings) return STRAIT_EJS;
  JSValueRef args[11] = {is_inst, istart, inext, b->token_key, resolve, aget, aset, intr, coll, awin, crossings};
  JSValueRef pair = JSObjectCallAsFunction(ctx, (JSObjectRef)factory, NULL, 11, args, exc);
  if (!pair) return STRAIT_EJS;
  b->define_acc = (JSObjectRef)JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 1, NULL);
  b->make_ctor = (JSObjectRef)JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 0, NULL);
  b->iterate = (JSObjectRef)JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 2, NULL);
  b->iter_sym = JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 3, NULL);
  b->make_catchall = (JSObjectRef)JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 4, NULL);
  b->make_array = (JSObjectRef)JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 5, NULL);
  b->make_wrapper = (JSObjectRef)JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)pair, 6, NULL);
  protect(ctx, b->define_acc);
  protect(ctx, b->make_ctor);
  protect(ctx, b->iterate);
  protect(ctx, b->iter_sym);
  protect(ctx, b->make_catchall);
  protect(ctx, b->make_array);
  protect(ctx, b->make_wrapper);
  return 0;
}

/* Unprotects every JS object of the runtime's classes. Teardown. */
void jb_jsclass_free(jb_rt *b) {
  JSContextRef ctx = b->ctx;
  for (size_t i = 0; i < b->njsc; i++) {
    if (b->jsc[i].ctor) JSValueUnprotect(ctx, b->jsc[i].ctor);
    if (b->jsc[i].proto) JSValueUnprotect(ctx, b->jsc[i].proto);
    if (b->jsc[i].fn) JSValueUnprotect(ctx, b->jsc[i].fn);
  }
  free(b->jsc);
  b->jsc = NULL;
  b->njsc = 0;
  JSValueRef vals[] = {b->token_key, b->object_proto, b->fn_proto, b->error_ctor, b->define_acc,
                       b->make_ctor, b->iterate, b->iter_sym, b->make_catchall, b->make_array,
                       b->make_wrapper};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
    if (vals[i]) JSValueUnprotect(ctx, vals[i]);
  if (b->s_length) JSStringRelease(b->s_length);
  if (b->s_prototype) JSStringRelease(b->s_prototype);
  if (b->s_constructor) JSStringRelease(b->s_constructor);
}

/* The per-runtime JS objects of class index, growing the array. Inside the gate. */
static jb_jsclass *slot_of(jb_rt *b, int index) {
  if ((size_t)index >= b->njsc) {
    size_t n = b->njsc ? b->njsc : 64;
    while (n <= (size_t)index) n *= 2;
    jb_jsclass *j = realloc(b->jsc, n * sizeof *j);
    if (!j) return NULL;
    memset(j + b->njsc, 0, (n - b->njsc) * sizeof *j);
    b->jsc = j;
    b->njsc = n;
  }
  return &b->jsc[index];
}

/* New bound data owned by b (freed at teardown). Inside the gate. */
static jb_bound *new_bound(jb_rt *b, jb_class *k, jb_group *g, jb_member *forced, bool is_static) {
  jb_bound *bd = calloc(1, sizeof *bd);
  if (!bd) return NULL;
  bd->b = b;
  bd->cls = k;
  bd->g = g;
  bd->forced = forced;
  bd->is_static = is_static;
  jb_own(b, bd);
  return bd;
}

/* New method function for g (see model/model.h): a plain callback function
 * (cheaper to call than a JSClass object with private data); its bound
 * group is found by address in b's function map. */
JSObjectRef jb_method_fn(jb_rt *b, JSContextRef ctx, jb_group *g, jb_member *forced) {
  jb_bound *bd = new_bound(b, g->cls, g, forced, g->is_static);
  if (!bd) return NULL;
  if (forced && forced->kind == 'c') {
    /* an explicit constructor: both `f(...)` and `new f(...)` construct */
    JSObjectRef f = JSObjectMake(ctx, b->cb->sig_ctor_class(), NULL);
    JSObjectSetPrototype(ctx, f, b->fn_proto);
    fn_put(b, f, bd);
    return f;
  }
  JSStringRef name = JSStringCreateWithUTF8CString(forced ? forced->sig : g->name);
  JSObjectRef f = JSObjectMakeFunctionWithCallback(ctx, name, b->cb->method);
  JSStringRelease(name);
  fn_put(b, f, bd);
  return f;
}

/* o[name] = v with attributes a. Inside the gate. */
static void set_prop(JSContextRef ctx, JSObjectRef o, const char *name, JSValueRef v, JSPropertyAttributes a) {
  JSStringRef n = JSStringCreateWithUTF8CString(name);
  JSObjectSetProperty(ctx, o, n, v, a, NULL);
  JSStringRelease(n);
}

/* True when b lets scripts use some overload of g (the others are refused
 * at the call, jb_invoke). */
static bool group_usable(JNIEnv *env, jb_rt *b, const jb_group *g) {
  if (!b->mdeny) return true;
  for (int i = 0; i < g->n; i++)
    if (jb_member_ok(env, b, g->m[i])) return true;
  return false;
}

/* Adds method functions of k's groups (static or instance) to obj; a
 * group the runtime's policy denies whole is left out (a read then reaches
 * the catch-all, which names the denial or the missing member). */
static void add_methods(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *k, JSObjectRef obj, bool is_static) {
  for (int i = 0; i < k->ngroups; i++) {
    jb_group *g = &k->groups[i];
    if (g->is_static != is_static || !group_usable(env, b, g)) continue;
    JSObjectRef f = jb_method_fn(b, ctx, g, NULL);
    if (f) set_prop(ctx, obj, g->name, f, 0);
  }
}

/* Defines k's fields (static or instance) on obj through the helper: one
 * native getter (and setter, unless final) per field, used directly as the
 * accessor, so a read is one callback with no argument to convert.
 * The names and accessors wait in a malloc'd buffer until the JS arrays
 * hold them. JSC's conservative scan sees stacks and registers, not the C
 * heap, and every C API call in between may collect (and inside a callback,
 * where JSC has dropped its locks, a concurrent collection may end at any
 * time), so each one is protected from its creation until the arrays are
 * made: unprotected, a collection frees it and the helper then defines a
 * field under a dead string, or installs a dead function. */
static bool add_fields(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *k, JSObjectRef obj, bool is_static,
                       JSValueRef *exc) {
  int n = 0;
  for (int i = 0; i < k->nfields; i++) n += k->fields[i]->is_static == is_static && jb_member_ok(env, b, k->fields[i]);
  if (n == 0) return true;
  JSValueRef *names = malloc(sizeof(JSValueRef) * (size_t)k->nfields * 4);
  if (!names) return false;
  JSValueRef *flags = names + k->nfields;
  JSValueRef *getters = flags + k->nfields;
  JSValueRef *setters = getters + k->nfields;
  for (int i = 0; i < k->nfields; i++) {
    jb_member *f = k->fields[i];
    JSStringRef s = JSStringCreateWithUTF8CString(f->name);
    names[i] = JSValueMakeString(ctx, s);
    JSValueProtect(ctx, names[i]);
    /* 4: denied by the runtime's policy, left out by the helper */
    bool ok = f->is_static == is_static && jb_member_ok(env, b, f);
    flags[i] = JSValueMakeNumber(ctx, (f->is_static ? 1 : 0) | (f->is_final ? 2 : 0) | (ok ? 0 : 4));
    getters[i] = setters[i] = JSValueMakeUndefined(ctx);
    if (ok) {
      jb_bound *bd = new_bound(b, k, NULL, f, is_static);
      if (bd) {
        JSObjectRef g = JSObjectMakeFunctionWithCallback(ctx, s, b->cb->field_get);
        JSValueProtect(ctx, g);
        fn_put(b, g, bd);
        getters[i] = g;
        if (!f->is_final) {
          JSObjectRef st = JSObjectMakeFunctionWithCallback(ctx, s, b->cb->field_set);
          JSValueProtect(ctx, st);
          fn_put(b, st, bd);
          setters[i] = st;
        }
      }
    }
    JSStringRelease(s);
  }
  JSStringRef cn = JSStringCreateWithUTF8CString(k->name);
  JSValueRef args[7] = {obj, JSObjectMakeArray(ctx, (size_t)k->nfields, names, NULL),
                        JSObjectMakeArray(ctx, (size_t)k->nfields, flags, NULL), JSValueMakeBoolean(ctx, is_static),
                        JSValueMakeString(ctx, cn), JSObjectMakeArray(ctx, (size_t)k->nfields, getters, NULL),
                        JSObjectMakeArray(ctx, (size_t)k->nfields, setters, NULL)};
  JSStringRelease(cn);
  /* the arrays in args (on this stack) hold them now */
  JSValueRef undef = JSValueMakeUndefined(ctx);
  for (int i = 0; i < k->nfields; i++) {
    JSValueUnprotect(ctx, names[i]);
    if (getters[i] != undef) JSValueUnprotect(ctx, getters[i]);
    if (setters[i] != undef) JSValueUnprotect(ctx, setters[i]);
  }
  free(names);
  return JSObjectCallAsFunction(ctx, b->define_acc, NULL, 7, args, exc) != NULL;
}

/* Kinds of a class's instances the catch-all treats as JS collections
 * (bridge_helper.js K_*): List (elements, length), Map (entries),
 * Collection and Java array (toJSON), java.nio.Buffer (not a number). */
enum { JB_K_LIST = 1, JB_K_MAP = 2, JB_K_COLL = 4, JB_K_ARRAY = 8, JB_K_BUFFER = 16, JB_K_WINDOWED = 32 };

/* java.util.List, java.util.Collection and java.nio.Buffer (global refs,
 * made once per process and only read afterwards). */
static jclass kind_list, kind_coll, kind_buffer;
static pthread_once_t kinds_once = PTHREAD_ONCE_INIT;

static jclass global_class(JNIEnv *env, const char *name) {
  jclass l = (*env)->FindClass(env, name);
  jclass g = l ? (*env)->NewGlobalRef(env, l) : NULL;
  if (l) (*env)->DeleteLocalRef(env, l);
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  return g;
}

static void make_kinds(void) {
  JNIEnv *env = strait__env();
  kind_list = global_class(env, "java/util/List");
  kind_coll = global_class(env, "java/util/Collection");
  kind_buffer = global_class(env, "java/nio/Buffer");
}

/* See model/model.h. */
int jb_windowed_list(const jb_class *k) {
  static const struct { const char *name; int kind; } lists[] = {
    {"java.util.ArrayList", JB_WL_OWN}, {"java.util.Arrays$ArrayList", JB_WL_ARRAY_BACKED},
    {"java.util.ImmutableCollections$ListN", JB_WL_OWN}, {"java.util.ImmutableCollections$List12", JB_WL_OWN}};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
    if (strcmp(k->name, lists[i].name) == 0) return lists[i].kind;
  return JB_WL_NONE;
}

/* The JB_K_* bits of k's instances. Inside the gate. */
static int instance_kind(JNIEnv *env, jb_class *k) {
  pthread_once(&kinds_once, make_kinds);
  if (k->flags & JB_ARRAY) return JB_K_ARRAY;
  if (k->flags & JB_PRIMITIVE) return 0;
  int kind = 0;
  if (kind_list && (*env)->IsAssignableFrom(env, k->ref, kind_list)) kind |= JB_K_LIST;
  if (kind_coll && (*env)->IsAssignableFrom(env, k->ref, kind_coll)) kind |= JB_K_COLL;
  if ((*env)->IsAssignableFrom(env, k->ref, jb.Map)) kind |= JB_K_MAP;
  if (kind_buffer && (*env)->IsAssignableFrom(env, k->ref, kind_buffer)) kind |= JB_K_BUFFER;
  if (jb_windowed_list(k) != JB_WL_NONE) kind |= JB_K_WINDOWED;
  return kind;
}

/* Makes owner's catch-all (a Proxy whose lookups continue at parent) and
 * makes it owner's prototype; it is told the kind of k's instances (its
 * collection members) and k's name (for messages). owner must not be
 * anyone's prototype yet (see the file comment). false with *exc set on
 * failure. */
static bool attach_catchall(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *k, bool is_static, JSObjectRef owner,
                            JSObjectRef parent, JSValueRef *exc) {
  char sb[256];
  JSStringRef nm = JSStringCreateWithUTF8CString(jb_source_name(k->name, sb, sizeof sb));
  JSValueRef args[6] = {JSValueMakeNumber(ctx, k->index), JSValueMakeBoolean(ctx, is_static), owner, parent,
                        JSValueMakeNumber(ctx, is_static ? 0 : instance_kind(env, k)), JSValueMakeString(ctx, nm)};
  JSStringRelease(nm);
  JSValueRef c = JSObjectCallAsFunction(ctx, b->make_catchall, NULL, 6, args, exc);
  if (!c) return false;
  JSObjectSetPrototype(ctx, owner, c);
  return true;
}

/* The prototype for instances of class index (see model/model.h). */
JSObjectRef jb_class_proto(JNIEnv *env, jb_rt *b, JSContextRef ctx, int index, JSValueRef *exc) {
  jb_jsclass *s = slot_of(b, index);
  if (!s) return NULL;
  if (s->proto) return s->proto;
  jb_class *k = jb_class_get(env, ctx, index, true, exc);
  if (!k) return NULL;
  JSObjectRef parent = b->object_proto;
  if (k->super_index >= 0 && !(k->flags & JB_IFACE)) {
    parent = jb_class_proto(env, b, ctx, k->super_index, exc);
    if (!parent) return NULL;
  }
  /* members first, while the prototype is still Object.prototype: each
   * put walks the chain, and a short plain chain makes that cheap */
  JSObjectRef proto = JSObjectMake(ctx, NULL, NULL);
  JSValueProtect(ctx, proto);
  s = slot_of(b, index);
  s->proto = proto;
  /* The slot of the token key, undefined until makeWrapper marks the
   * prototype at its class's first wrapper (Object.keys tells wrappers by
   * that mark); own here, so reading it never reaches the catch-all. */
  JSObjectSetPropertyForKey(ctx, proto, b->token_key, JSValueMakeUndefined(ctx), kJSPropertyAttributeDontEnum, NULL);
  add_methods(env, b, ctx, k, proto, false);
  if (!add_fields(env, b, ctx, k, proto, false, exc)) return NULL;
  /* EXPLICIT: only exported members, so no iteration through the bridge */
  if (b->iterate && b->iter_sym && b->access != JB_HOST_EXPLICIT &&
      ((k->flags & JB_ARRAY) || (*env)->IsAssignableFrom(env, k->ref, jb.Iterable) ||
       (*env)->IsAssignableFrom(env, k->ref, jb.Map)))
    JSObjectSetPropertyForKey(ctx, proto, b->iter_sym, b->iterate, kJSPropertyAttributeDontEnum, NULL);
  if (!attach_catchall(env, b, ctx, k, false, proto, parent, exc)) return NULL;
  return proto;
}

/* classOf(ci): the wrapper of class ci's java.lang.Class (C.class, made by
 * the helper's makeCtor), under the runtime's policy like any value that
 * reaches JS. Inside the gate. */
static JSValueRef class_object(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  jb_rt *b = jb_rt_fast(ctx);
  double d = argc && JSValueIsNumber(ctx, argv[0]) ? JSValueToNumber(ctx, argv[0], NULL) : -1;
  if (!b || !(d >= 0 && d < 2147483647.0)) return JSValueMakeUndefined(ctx);
  JNIEnv *env = strait__env();
  jb_class *k = jb_class_get(env, ctx, (int)d, false, exc);
  return k ? jb_wrap(env, b, ctx, k->ref, exc) : NULL;
}

/* The constructor of class index (see model/model.h). */
JSObjectRef jb_class_ctor(JNIEnv *env, jb_rt *b, JSContextRef ctx, int index, JSValueRef *exc) {
  jb_jsclass *s = slot_of(b, index);
  if (!s) return NULL;
  if (s->ctor) return s->ctor;
  jb_class *k = jb_class_get(env, ctx, index, false, exc);
  if (!k) return NULL;
  /* the class object gives its statics and `new`: a lookup */
  if (!(jb_verdict(env, b, k) & JB_V_LOOKUP)) return jb_deny_class(b, ctx, k->name, exc);
  k = jb_class_get(env, ctx, index, true, exc);
  if (!k) return NULL;
  JSObjectRef proto = jb_class_proto(env, b, ctx, index, exc);
  if (!proto) return NULL;
  JSStringRef nm = JSStringCreateWithUTF8CString(k->name);
  jb_bound *cb = new_bound(b, k, NULL, NULL, true);
  if (!cb) { JSStringRelease(nm); return NULL; }
  /* an array class constructs an array of the given length (arrays.c) */
  JSObjectRef construct = JSObjectMakeFunctionWithCallback(ctx, nm, (k->flags & JB_ARRAY) ? jb_array_construct
                                                                                          : b->cb->construct);
  fn_put(b, construct, cb);
  char sb[512];
  JSStringRef disp = JSStringCreateWithUTF8CString(jb_source_name(k->name, sb, sizeof sb));
  JSObjectRef class_of = JSObjectMakeFunctionWithCallback(ctx, NULL, class_object);
  /* a static toString the policy leaves usable replaces the helper's */
  jb_group *ts = jb_group_find(k, "toString", 8, true);
  JSValueRef args[7] = {JSValueMakeNumber(ctx, index), JSValueMakeString(ctx, nm), construct, proto,
                        JSValueMakeString(ctx, disp), JSValueMakeBoolean(ctx, ts && group_usable(env, b, ts)),
                        class_of};
  JSStringRelease(nm);
  JSStringRelease(disp);
  /* also defines C.prototype (read-only), proto.constructor (not
   * enumerable), C[Symbol.toPrimitive], C.class and maybe C.toString */
  JSValueRef cv = JSObjectCallAsFunction(ctx, b->make_ctor, NULL, 7, args, exc);
  if (!cv) return NULL;
  JSObjectRef ctor = (JSObjectRef)cv;
  JSValueProtect(ctx, ctor);
  s = slot_of(b, index);
  s->ctor = ctor;
  JSObjectSetPropertyForKey(ctx, ctor, b->token_key, JSValueMakeNumber(ctx, index),
                            kJSPropertyAttributeDontEnum | kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete,
                            NULL);
  add_methods(env, b, ctx, k, ctor, true);
  if (!add_fields(env, b, ctx, k, ctor, true, exc)) return NULL;
  if (!attach_catchall(env, b, ctx, k, true, ctor, b->fn_proto, exc)) return NULL;
  return ctor;
}

/* resolve(ci, isStatic, name, quiet, nobean): what the catch-all of class
 * ci answers for a name its owner lacks (call/js_callbacks.c): the function
 * of an explicit signature ("append(char)"), the constructor (`constructor`
 * of an instance), a nested class (static side), a static member read
 * through an instance, a bean property ([getter, setter, getter's
 * signature]; not with nobean, for Maps), else undefined; a TypeError for
 * a wrong explicit signature, an instance method read on the class and a
 * member the policy denies. quiet (an `in` test) turns every failure into
 * undefined. The caller stores what it gets on the owner. Inside the
 * gate. */


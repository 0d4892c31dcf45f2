/*
 * bridge.h - private declarations of the JS -> Java bridge (issue 3).
 *
 * Two levels of state:
 *   - process-wide class metadata (jb_class, jb_group, jb_member), built
 *     once per Java class from org.strait.Bridge.describe() and read-only
 *     afterwards except for the overload caches, which are append-only
 *     lists published with atomics;
 *   - per-runtime state (jb_rt): the wrapper table (ids <-> wrappers), the
 *     queue of finalized wrappers, the JS objects made for each class
 *     (constructor, prototype), the package objects and cached strings.
 *
 * Wrappers are plain JS objects (so property reads on them are inline
 * cached by JSC) whose prototype is the class's prototype. Each holds,
 * under a private symbol, a small "token" object of a finalizing JSClass;
 * the token dies with its wrapper and its finalizer queues the wrapper's
 * table slot. The receiver of a call is found from the wrapper's address
 * (JSC does not move cells) through an open-addressing index.
 */
#ifndef STRAIT_BRIDGE_H
#define STRAIT_BRIDGE_H

#include "base/jni_base.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* ---- debug-build invariants -------------------------------------------- */
/*
 * JB_CHECK(cond): with -DSTRAIT_DEBUG (make debug) a false cond prints the
 * condition and aborts; otherwise nothing is evaluated.
 */
#ifdef STRAIT_DEBUG
#include <stdio.h>
#include <stdlib.h>
#define JB_CHECK(cond) \
  ((cond) ? (void)0 : (fprintf(stderr, "%s:%d: bridge invariant failed: %s\n", __FILE__, __LINE__, #cond), abort()))
#else
#define JB_CHECK(cond) ((void)0)
#endif

/* ---- type codes (computed by Bridge.code() in Java) ------------------- */
/*
 * V void; Z B C S I J F D primitives; z b c s i j f d their boxes;
 * T String; O Object; N Number; G BigInteger; A array; U a supertype of
 * ArrayList (List, Collection, Iterable, ...) that also accepts JS arrays;
 * Q CharSequence-like supertypes of String other than Object; L other.
 */

typedef struct jb_class jb_class;

/* One constructor, method or field. Immutable after the class is built. */
typedef struct jb_member {
  jmethodID mid;
  jfieldID fid;
  char kind;                /* 'c' constructor, 'm' method, 'f' field */
  bool is_static;
  bool is_final;
  bool varargs;
  _Atomic signed char cs;   /* @CallerSensitive (called via Bridge.invokeSensitive): JB_CS_* */
  int nparams;
  char ret;                 /* type code of the result / field */
  int ret_cls;              /* class index of the result / field type */
  char *params;             /* nparams type codes */
  int *pcls;                /* nparams class indexes (-1: none) */
  char *sig;                /* "append(char)" (UTF-8, for messages) */
  char *name;               /* member name (UTF-8) */
  jb_class *owner;          /* the described class it was found on */
} jb_member;

/* jb_member.cs: a boot or platform class's method is asked about once, at
 * its first call (caller_sensitive in bridge_call.c), the others are
 * known plain. */
enum { JB_CS_UNKNOWN = 0, JB_CS_NO = 1, JB_CS_YES = 2 };

/* A cached overload choice: argument-type key -> member. */
typedef struct jb_choice {
  struct jb_choice *next;
  jb_member *member;
  int keylen;
  unsigned char key[];
} jb_choice;

/* Overloads of one name (or the constructors) of one class. */
typedef struct jb_group {
  jb_class *cls;
  char *name;               /* UTF-8; "<init>" for constructors */
  bool is_static;
  int n;
  jb_member **m;
  _Atomic(jb_choice *) cache;
} jb_group;

/* Process-wide metadata of one Java class, by dense class index. */
struct jb_class {
  int index;
  jclass ref;               /* global ref */
  char *name;               /* Java name, "java.util.ArrayList" (UTF-8) */
  _Atomic int described;    /* members filled */
  int super_index;          /* -1 for Object, interfaces, primitives */
  int flags;                /* JB_IFACE | JB_ABSTRACT | JB_ARRAY | ... */
  char elem;                /* arrays: component type code */
  int elem_cls;             /* arrays: component class index */
  char self_code;           /* the class's own type code */
  jb_group ctors;
  int ngroups;
  jb_group *groups;         /* instance groups, then static groups */
  int nfields;
  jb_member **fields;
  int nmembers;
  jb_member *members;       /* storage of every member */
};

enum { JB_IFACE = 1, JB_ABSTRACT = 2, JB_ARRAY = 4, JB_PRIMITIVE = 8, JB_THROWABLE = 16 };

/* ---- per-runtime state ------------------------------------------------- */

/* One wrapper table entry. `gen` changes each time the slot is reused. */
typedef struct jb_entry {
  int64_t id;               /* ObjectTable id; 0 = free slot */
  JSObjectRef wrapper;      /* not protected (the wrapper is weakly held) */
  JSWeakRef weak;           /* JSC weak handle on wrapper; owned, released with the entry */
  jobject ref;              /* global ref to the Java object */
  jb_class *cls;
  uint32_t gen;
  int32_t alen;             /* arrays: the length (fixed for a Java array) */
  _Atomic int dead;         /* set by the token's finalizer */
  bool unreg;               /* constructed here, not yet in the Java table */
  uint32_t upos;            /* its index in jb_rt.unreg while unreg */
} jb_entry;

/* Bound data of method, field and constructor functions. */
typedef struct jb_bound {
  struct jb_rt *b;
  jb_class *cls;
  jb_group *g;              /* method functions */
  jb_member *forced;        /* explicit-signature functions; fields */
  bool is_static;
} jb_bound;

/* Per-runtime JS objects of one class. Protected while the runtime lives. */
typedef struct jb_jsclass {
  JSObjectRef ctor;
  JSObjectRef proto;
} jb_jsclass;

typedef struct jb_rt {
  strait_runtime *rt;
  JSGlobalContextRef ctx;
  int slot;                 /* index in the process-wide runtime registry */
  jobject table;            /* global ref: the runtime's org.strait.ObjectTable */
  jlongArray release_buf;   /* global ref: ids passed to ObjectTable.release */

  /* wrapper table */
  jb_entry *entries;
  uint32_t nentries, capentries;
  uint32_t *free_slots;
  uint32_t nfree;
  uint32_t *by_id;          /* open addressing: id -> slot+1, 0 empty, ~0 tomb */
  uint32_t *by_ptr;         /* open addressing: wrapper address -> slot+1 */
  uint32_t idxcap;          /* capacity of both indexes (power of two) */
  uint32_t idxused;         /* used + tombstones */
  size_t live;              /* live entries */
  size_t dead_weaks;        /* weak handles released since the last full sweep (jb_flush) */
  /* Java -> JS arguments: identityHashCode -> the entry last seen for it
   * (direct-mapped, JB_HINTS places, allocated on first use; a hit is
   * checked with IsSameObject, so a stale place only costs a miss) */
  struct jb_hint { uint32_t slot; int64_t id; } *hints;

  /* objects made by `new` wait here (slots) until a lookup in the Java
   * table needs them (jb_register_pending); those that die first never
   * reach Java at all. Their ids come from next_cid (ObjectTable.NATIVE_IDS
   * and up), so they never meet the Java table's own ids. */
  uint32_t *unreg;
  uint32_t nunreg, capunreg;
  int64_t next_cid;
  jobjectArray adopt_buf;   /* global ref: Object[1024] for ObjectTable.adopt */

  /* finalization queue (written by the token finalizer) */
  pthread_mutex_t qmu;
  uint64_t *queue;          /* (gen << 32) | slot */
  size_t nqueue, capqueue;
  _Atomic size_t pending;
  _Atomic int flush_posted;

  /* JS objects */
  jb_jsclass *jsc;          /* by class index */
  size_t njsc;
  JSObjectRef has_instance; /* protected: shared Symbol.hasInstance */
  JSObjectRef iterate;      /* protected: shared Symbol.iterator */
  JSClassRef token_class;
  JSValueRef token_key;     /* protected symbol */
  JSObjectRef object_proto; /* protected: Object.prototype */
  JSObjectRef java;         /* protected: the Java global */
  JSObjectRef error_ctor;   /* protected: Error */
  JSValueRef iter_sym;      /* protected: Symbol.iterator */
  JSObjectRef make_ctor;    /* protected: JS helper making class constructors */
  JSObjectRef define_acc;   /* protected: JS helper defining accessors */
  JSObjectRef fn_proto;     /* protected: Function.prototype */
  JSObjectRef make_catchall; /* protected: JS helper making a class's catch-all Proxy */
  JSObjectRef make_array;   /* protected: JS helper making an array wrapper (a Proxy) */
  JSObjectRef make_wrapper; /* protected: JS helper making an object wrapper with its hidden token */
  JSStringRef s_length;     /* cached names */
  JSStringRef s_prototype;
  JSStringRef s_constructor;

  /* small JS strings that keep crossing (literals) and their Java String:
   * keyed by the JS string cell, which is protected while cached, so its
   * address cannot be reused by another string; admitted on the second
   * sighting in sc_seen (not protected, only a hint) */
#define JB_SCACHE 128
  JSValueRef sc_val[JB_SCACHE];
  jobject sc_str[JB_SCACHE];      /* global refs */
  uint32_t sc_len[JB_SCACHE];
  JSChar sc_c0[JB_SCACHE];
  JSValueRef sc_seen[JB_SCACHE];

  /* method functions (JSObjectMakeFunctionWithCallback, no private data):
   * open addressing, function address -> bound group */
  uintptr_t *fn_keys;
  jb_bound **fn_vals;
  uint32_t fn_cap, fn_n;

  /* bound groups and package objects, freed at teardown */
  void **owned;
  size_t nowned, capowned;
} jb_rt;

/* ---- process-wide (bridge_init.c, bridge_class.c) ---------------------- */

typedef struct jb_cache {
  jclass Bridge;
  jclass ObjectTable;
  jclass Class;
  jclass BigInteger;
  jclass Character, Byte, Short, Float, Boolean;
  jclass Iterable, Map;           /* prototypes of these get Symbol.iterator */
  jmethodID Class_getName;
  jmethodID Bridge_findClass;     /* static (String) Class */
  jmethodID Bridge_describe;      /* static (Class) Object[] */
  jmethodID Bridge_classIndex;    /* static (Class) int */
  jmethodID Bridge_classAt;       /* static (int) Class */
  jmethodID Bridge_resolve;       /* static (String) Object */
  jmethodID Bridge_throwableInfo; /* static (Throwable) String[] */
  jmethodID Bridge_newArray;      /* static (Class,int) Object */
  jmethodID Bridge_toBigInteger;  /* static (String) BigInteger */
  jmethodID Bridge_iterator;      /* static (Object) Iterator */
  jmethodID Bridge_iterNext;      /* static (Iterator) Object; sentinel at end */
  jmethodID Bridge_done;          /* static () Object: the end sentinel */
  jmethodID Bridge_toList;        /* static (Object[]) List */
  jmethodID Bridge_toArray;       /* static (Object) Object[]: array/collection copy */
  jmethodID Bridge_memberNames;   /* static (Class) String[] */
  jmethodID Bridge_invokeSensitive; /* static (Executable,Object,long[],Object[]) Object */
  jmethodID Bridge_callerSensitive; /* static (Executable) boolean */
  jmethodID ObjectTable_init;     /* () */
  jmethodID ObjectTable_register; /* (Object) long */
  jmethodID ObjectTable_release;  /* (long[], int) */
  jmethodID ObjectTable_adopt;    /* (Object[], long[], int) */
  jmethodID ObjectTable_size;     /* () int */
  jmethodID Object_toString;
  jmethodID Object_getClass;
  jmethodID Character_valueOf, Byte_valueOf, Short_valueOf, Float_valueOf;
  jmethodID Character_charValue, Number_longValue, Number_floatValue;
  jmethodID BigInteger_toString;
  jobject done;                   /* global ref: the iterator end sentinel */
} jb_cache;

extern jb_cache jb;

/* Class metadata by index; builds the entry (and describes it when
 * describe is true) on first use. NULL with a JS exception in *exc on
 * failure. Any thread inside a runtime (process mutex inside). */
jb_class *jb_class_get(JNIEnv *env, JSContextRef ctx, int index, bool describe, JSValueRef *exc);
/* Class index of a java.lang.Class object (an upcall). -1 on failure. */
int jb_class_index(JNIEnv *env, jclass cls);
/* Overload group `name` of cls (instance or static); NULL when absent. */
jb_group *jb_group_find(jb_class *cls, const char *name, size_t len, bool is_static);
/* Field `name` of cls; NULL when absent. */
jb_member *jb_field_find(jb_class *cls, const char *name, size_t len, bool is_static);
/* True when class `sub` is assignable to `sup` (JNI IsAssignableFrom). */
bool jb_assignable(JNIEnv *env, jb_class *sub, jb_class *sup);
/* Same answer, cached process-wide per (sub, sup) pair (bridge_conv.c):
 * the check of every wrapper that reaches a JNI call. A wrapper's object is
 * an instance of its recorded class (its own class), so true here means
 * the object is an instance of sup. */
bool jb_is_a(JNIEnv *env, jb_class *sub, jb_class *sup);

/* ---- per-runtime registry (bridge_init.c) ------------------------------ */

/* The bridge of ctx's runtime, or NULL when the bridge is not attached. */
jb_rt *jb_rt_of(JSContextRef ctx);
/* Same, through a per-thread cache validated against the registry. */
jb_rt *jb_rt_fast(JSContextRef ctx);
/* The bridge in registry slot i (for finalizers). Any thread. */
jb_rt *jb_rt_at(int slot);
/* Remembers p (malloc'd) to be freed at teardown. */
void jb_own(jb_rt *b, void *p);

/* ---- wrapper table (bridge_table.c) ------------------------------------ */

int jb_table_init(jb_rt *b);
void jb_table_free(jb_rt *b, JNIEnv *env);
/* The entry whose wrapper is obj, or NULL (obj is not a live wrapper). */
jb_entry *jb_entry_of(jb_rt *b, JSObjectRef obj);
/* JS value for the Java object obj (a local ref, not deleted): a JS
 * primitive for String and boxes, else the one wrapper of that object.
 * NULL with *exc set on failure. */
JSValueRef jb_wrap(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, JSValueRef *exc);
/* jb_wrap() for an object the caller has already registered: r is what
 * ObjectTable.register(obj) returned (on this runtime's table, on this
 * thread, after the last release, and after jb_register_pending entered the
 * objects JS constructed, so that none gets a second id), so no upcall is
 * made. Inside the gate. */
JSValueRef jb_wrap_registered(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, JSValueRef *exc);
/* jb_wrap() for an object whose System.identityHashCode the caller knows
 * (Java -> JS arguments packed by org.strait.Args): an object JS has seen
 * is found without the ObjectTable upcall. Inside the gate. */
JSValueRef jb_wrap_hinted(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, uint32_t ihash,
                          JSValueRef *exc);
/* The wrapper of obj, an instance of exactly cls that this runtime just
 * constructed (so no wrapper of it exists): no upcall, see jb_rt.unreg.
 * adopt: the `this` of a JS `new` (already with its prototype) to become
 * the wrapper, or NULL for a new object. */
JSValueRef jb_wrap_new(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jb_class *cls, JSObjectRef adopt,
                       JSValueRef *exc);
/* Enters the constructed objects waiting in b->unreg into the Java table
 * (one upcall per 1024). Inside the gate. */
void jb_register_pending(JNIEnv *env, jb_rt *b);
/* Releases queued dead wrappers' Java objects (one upcall per batch). */
void jb_flush(JNIEnv *env, jb_rt *b);
/* Crossings flush once this many wrappers wait (one upcall per batch); the
 * loop task flushes whatever is left when the runtime goes idle. */
#define JB_FLUSH_AT 256
static inline void jb_maybe_flush(JNIEnv *env, jb_rt *b) {
  if (atomic_load_explicit(&b->pending, memory_order_relaxed) >= JB_FLUSH_AT) jb_flush(env, b);
}
/* Private code of a token or array wrapper (runtime slot, entry slot,
 * generation). */
uintptr_t jb_token_code(jb_rt *b, uint32_t slot, uint32_t gen);
/* Token JSClass finalizer (queues the slot). GC thread: no JSC, no Java. */
void jb_token_finalize(JSObjectRef token);

/* ---- JS objects for classes (bridge_jsclass.c) ------------------------- */

/* The constructor object of class index (built on first use). */
JSObjectRef jb_class_ctor(JNIEnv *env, jb_rt *b, JSContextRef ctx, int index, JSValueRef *exc);
/* The prototype object for instances of class index. */
JSObjectRef jb_class_proto(JNIEnv *env, jb_rt *b, JSContextRef ctx, int index, JSValueRef *exc);
/* The class index behind a constructor object, or -1. */
int jb_ctor_class(jb_rt *b, JSContextRef ctx, JSObjectRef obj);
int jb_jsclass_init(jb_rt *b, JSContextRef ctx, JSValueRef *exc);
/* A new method function for group g (forced: one explicit overload). */
JSObjectRef jb_method_fn(jb_rt *b, JSContextRef ctx, jb_group *g, jb_member *forced);
/* Process-wide JSClasses (made once). */
JSClassRef jb_token_class(void);
void jb_jsclass_free(jb_rt *b);

/* ---- calls (bridge_call.c) --------------------------------------------- */

/*
 * One JS -> Java call: what is called and on what. It lives in the frame
 * of the callback that makes the call (never in jb_rt), so a nested call
 * made while the arguments convert (a getter calling Java) cannot see or
 * change it.
 */
typedef struct jb_call {
  jb_group *g;              /* the overloads (constructors: &cls->ctors) */
  jb_member *forced;        /* an explicit overload, or NULL */
  jobject recv;             /* instance methods: the receiver (its wrapper's
                             * global ref; `self` keeps it alive), else NULL */
  JSObjectRef self;         /* the receiver's wrapper (a method returning its
                             * receiver returns it), or NULL */
  JSObjectRef adopt;        /* constructors: the `this` of a JS `new`, made
                             * the new object's wrapper; NULL: a new wrapper */
} jb_call;

/* Makes call c with JS arguments. Inside the gate. */
JSValueRef jb_invoke(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_call *c, size_t argc,
                     const JSValueRef argv[], JSValueRef *exc);
/* Constructs an instance of cls with JS arguments: with the overload
 * forced (NULL: resolved), the wrapper made from adopt (NULL: a new one). */
JSValueRef jb_construct(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_class *cls, jb_member *forced,
                        JSObjectRef adopt, size_t argc, const JSValueRef argv[], JSValueRef *exc);
/* Reads / writes a field (recv NULL for static). */
JSValueRef jb_field_get(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *f, jobject recv,
                        JSValueRef *exc);
bool jb_field_set(JNIEnv *env, jb_rt *b, JSContextRef ctx, jb_member *f, jobject recv,
                  JSValueRef v, JSValueRef *exc);
/* Turns the pending Java exception into a JS Error in *exc and clears it. */
void jb_throw_pending(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef *exc);
/* Finds the member of cls matching an explicit signature key
 * "name(type,type)"; NULL if none. */
jb_member *jb_member_by_sig(jb_class *cls, const char *key, size_t len, bool is_static);

/* ---- immediate JS values (bridge_jsval.c) ------------------------------ */
/*
 * On 64-bit JavaScriptCore a JSValueRef of a number, boolean, null or
 * undefined is the encoded JSValue itself (no cell). Reading and making
 * those directly saves a C API call (and its VM lock) per argument and per
 * result. jb_imm_ok is set only if a start-up self-test against the C API
 * agrees with the encoding below; otherwise every path uses the C API.
 */
extern bool jb_imm_ok;
#define JB_NUMBER_TAG 0xfffe000000000000ULL
#define JB_DOUBLE_OFFSET (1ULL << 49)
#define JB_VALUE_FALSE 0x06ULL
#define JB_VALUE_TRUE 0x07ULL
#define JB_VALUE_UNDEFINED 0x0aULL
#define JB_VALUE_NULL 0x02ULL
/* Runs the self-test once per process. */
void jb_imm_init(JSContextRef ctx);
static inline uint64_t jb_bits(JSValueRef v) { return (uint64_t)(uintptr_t)v; }
/* Number value of an immediate number; false if v is not one. */
static inline bool jb_imm_number(JSValueRef v, double *out) {
  uint64_t x = jb_bits(v);
  if ((x & JB_NUMBER_TAG) == JB_NUMBER_TAG) { *out = (double)(int32_t)(uint32_t)x; return true; }
  if (x & JB_NUMBER_TAG) {
    uint64_t d = x - JB_DOUBLE_OFFSET;
    memcpy(out, &d, sizeof d);
    return true;
  }
  return false;
}
static inline JSValueRef jb_imm_int(int32_t i) {
  return (JSValueRef)(uintptr_t)(JB_NUMBER_TAG | (uint64_t)(uint32_t)i);
}
static inline JSValueRef jb_imm_double(double d) {
  if (d >= -2147483648.0 && d <= 2147483647.0 && d == (double)(int32_t)d && !(d == 0 && signbit(d)))
    return jb_imm_int((int32_t)d);
  if (d != d) d = __builtin_nan("");          /* JSC's pure NaN */
  uint64_t x;
  memcpy(&x, &d, sizeof x);
  return (JSValueRef)(uintptr_t)(x + JB_DOUBLE_OFFSET);
}

/* ---- conversions (bridge_conv.c) --------------------------------------- */

/* What a JS argument is, computed once per call (jb_arg_kind). */
enum { JK_UNDEF = 0, JK_NULL, JK_BOOL, JK_INT, JK_LONGINT, JK_FRAC, JK_STRING, JK_CHAR,
       JK_BIGINT, JK_WRAPPER, JK_JARRAY, JK_ARRAY, JK_FUNCTION, JK_OBJECT, JK_SYMBOL };
typedef struct jb_arg {
  JSValueRef v;
  int kind;
  double num;               /* numbers and booleans */
  jb_entry *e;              /* wrappers: valid only until JS or Java runs */
  jobject ref;              /* wrappers: the Java object (global ref; the
                             * wrapper, an argument, keeps it alive) */
  jb_class *cls;            /* wrappers: its class */
  JSStringRef str;          /* strings not in the cache (released by jb_args_release) */
  jobject jstr;             /* strings from the cache: a local ref (same) */
  JSChar c0;                /* strings: the first code unit (0 when empty) */
} jb_arg;
/* Fills a from v. Strings are copied once (a->str). */
void jb_arg_kind(jb_rt *b, JSContextRef ctx, JSValueRef v, jb_arg *a);
void jb_args_release(jb_arg *a, size_t n);
/* Drops the string cache (teardown, before the context goes). */
void jb_strcache_free(jb_rt *b, JNIEnv *env);
/* Cost of passing a to a parameter (code, pcls): 0 exact, larger for
 * wider conversions, JB_NO when not applicable. */
#define JB_NO 1000000
int jb_cost(JNIEnv *env, const jb_arg *a, char code, int pcls);

/* JS type of a for messages (a wrapper's class name, else "string", ...). */
const char *jb_arg_type_name(const jb_arg *a);

/* JS arrays nested deeper than this are not converted (RangeError): the
 * conversions recurse once per level on the C stack. */
#define JB_MAX_DEPTH 256

/* Local refs made while converting arguments, deleted after the call. */
typedef struct jb_locals {
  int n;
  jobject refs[16];
  jobject *more;
  int nmore, capmore;
} jb_locals;
void jb_locals_add(jb_locals *l, jobject r);
void jb_locals_free(JNIEnv *env, jb_locals *l);

/*
 * Converts v to the Java type (code, pcls) into *out. what names the
 * destination for messages ("java.lang.StringBuilder.append(char) argument
 * 1"). Returns false with a TypeError / RangeError in *exc.
 */
bool jb_to_java(JNIEnv *env, jb_rt *b, JSContextRef ctx, const jb_arg *a, char code, int pcls,
                jvalue *out, jb_locals *locals, const char *what, JSValueRef *exc);
/* Converts a Java value of type code to JS (objects through jb_wrap). */
JSValueRef jb_to_js(JNIEnv *env, jb_rt *b, JSContextRef ctx, char code, jvalue v, JSValueRef *exc);
/* Java string -> JS string value (exact UTF-16). */
JSValueRef jb_string_to_js(JNIEnv *env, JSContextRef ctx, jstring s);
/* JS string value -> new Java string (local ref); NULL with *exc set. */
jstring jb_string_to_java(JNIEnv *env, JSContextRef ctx, JSValueRef v, JSValueRef *exc);
/* JS TypeError / RangeError with a printf message. */
JSValueRef jb_error(JSContextRef ctx, const char *ctor, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Name of a type code for messages ("int", "java.lang.String"). */
/* Java source name of a class name for messages ("[I" -> "int[]",
 * "[Ljava.lang.String;" -> "java.lang.String[]"), written into buf (n
 * bytes) when it differs; returns buf or name. Any thread. */
const char *jb_source_name(const char *name, char *buf, size_t n);

const char *jb_code_name(JNIEnv *env, JSContextRef ctx, char code, int pcls);

/* ---- packages and the Java object (bridge_package.c) ------------------- */

int jb_packages_install(jb_rt *b, JSContextRef ctx, JSValueRef *exc);
/* Java.type(name): the constructor object, or NULL with TypeError. */
JSObjectRef jb_type_by_name(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef name, JSValueRef *exc);

/* ---- arrays (bridge_array.c) ------------------------------------------- */

/* Wraps the Java array of entry slot: a Proxy whose index reads and
 * writes reach the array (NULL with *exc set if the helper failed). */
JSObjectRef jb_array_wrapper(JSContextRef ctx, jb_rt *b, uint32_t slot, uint32_t gen);
/* aget(code, i) / aset(code, i, v): the natives the array Proxy calls. */
JSValueRef jb_array_get_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc);
JSValueRef jb_array_set_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exc);

#endif /* STRAIT_BRIDGE_H */

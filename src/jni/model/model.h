/*
 * model.h - the model of Java in JS: class metadata, the wrapper (identity)
 * table, the JS objects made for classes, packages and arrays.
 *
 * Two levels of state:
 *   - process-wide class metadata (jb_class, jb_group, jb_member), built
 *     once per Java class from org.strait.internal.Bridge.describe() and read-only
 *     afterwards except for the overload caches, which are append-only
 *     lists published with atomics; freed only when its class is unloaded
 *     (classes of loaders that can go away: model/class_meta.c);
 *   - per-runtime state (jb_rt): the wrapper table (ids <-> wrappers), the
 *     queue of finalized wrappers, the JS objects made for each class
 *     (constructor, prototype), the package objects and cached strings.
 *
 * Wrappers are plain JS objects (so property reads on them are inline
 * cached by JSC) whose prototype is the class's prototype (functions for
 * objects of a functional class); the prototype is marked under a private
 * symbol. Each has
 * a JSC weak handle; after each collection the weak handles of recently
 * made wrappers (all of them, now and then) are looked at, and a cleared
 * one queues the wrapper's table slot (array wrappers also carry a
 * finalizing token that does the same). The receiver of a call is found
 * from the wrapper's address (JSC does not move cells) through an
 * open-addressing index.
 */
#ifndef STRAIT_MODEL_H
#define STRAIT_MODEL_H

#include "base/jni_base.h"
#include "common/ptrmap.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* ---- type codes (computed by Bridge.code() in Java) ------------------- */
/*
 * V void; Z B C S I J F D primitives; z b c s i j f d their boxes;
 * T String; O Object; N Number; G BigInteger; A array; U a supertype of
 * ArrayList (List, Collection, Iterable, ...) that also accepts JS arrays;
 * Q CharSequence-like supertypes of String other than Object; L other.
 */

typedef struct jb_class jb_class;
typedef struct jb_callbacks jb_callbacks;

/* One constructor, method or field. Immutable after the class is built. */
typedef struct jb_member {
  jmethodID mid;
  jfieldID fid;
  char kind;                /* 'c' constructor, 'm' method, 'f' field */
  bool is_static;
  bool is_final;
  bool varargs;
  _Atomic signed char cs;   /* @CallerSensitive (called via Bridge.invokeSensitive): JB_CS_* */
  _Atomic unsigned char seen_ret; /* the class of its last object result (call/js_to_java.c, JB_SEEN_*) */
  int nparams;
  char ret;                 /* type code of the result / field */
  int ret_cls;              /* class index of the result / field type */
  char *params;             /* nparams type codes */
  int *pcls;                /* nparams class indexes (-1: none) */
  char *sig;                /* "append(char)" (UTF-8, for messages) */
  char *name;               /* member name (UTF-8) */
  jb_class *owner;          /* the described class it was found on */
  unsigned char pol;        /* host policy facts (JB_MP_*, HostPolicy.memberFacts), process-wide */
  int decl_cls;             /* class index of the declaring class (for named members) */
} jb_member;

/* jb_member.pol: what a member is, once per process (HostPolicy.M_*); a
 * runtime denies the facts in jb_rt.mdeny. */
enum {
  JB_MP_EXPORT = 1, JB_MP_REFLECT = 2, JB_MP_NATIVE = 4, JB_MP_THREAD = 8, JB_MP_HIDDEN = 16,
  JB_MP_MACHINE = 32,   /* opens URLs or named files, leads to the file system, reads system properties */
  JB_MP_LOADS = 64      /* loads a class its caller names (denied under a class filter too) */
};
/* Per-runtime class verdicts (HostPolicy.V_*), kept in jb_rt.verdict as
 * bits | JB_V_KNOWN. */
enum { JB_V_GIVEN = 1, JB_V_RETURNED = 2, JB_V_LOOKUP = 4, JB_V_KNOWN = 0x80 };
/* jb_rt.access (include/strait_jvm.h STRAIT_HOST_*) */
enum { JB_HOST_ALL = 0, JB_HOST_NONE = 1, JB_HOST_GIVEN = 2, JB_HOST_EXPLICIT = 3 };

/* jb_member.cs: a boot or platform class's method is asked about once, at
 * its first call (caller_sensitive in call/js_to_java.c), the others are
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

/* Process-wide metadata of one Java class, by dense class index (never
 * reused). A class that can be unloaded (Bridge.collectable: not of the
 * boot, platform, system or strait's loader, or hidden) is `weak`: ref is
 * then a weak global ref, each runtime that gets the entry from
 * jb_class_get pins the class (jb_rt.pins) until it closes, and the entry
 * is freed once the class is unloaded (jb_class_gone); see class_meta.c
 * for why no reader can reach it then. */
struct jb_class {
  int index;
  bool weak;                /* ref is a weak global ref; freed when the class is unloaded */
  jclass ref;               /* global ref (weak global ref when weak) */
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
  /* the group of the functional method (jb_class_functional): 0 not yet
   * asked, 1 none, else the jb_group; set once, process-wide */
  _Atomic uintptr_t fn_group;
};

/* JB_PROXY: a java.lang.reflect.Proxy class (maybe an interface implemented
 * by JS, whose objects go back to JS as the JS value: model/wrappers.c).
 * JB_SAM: an interface with exactly one abstract method (HostPolicy.samOf),
 * which a JS function implements best (overload ranking, value/convert.c). */
enum { JB_IFACE = 1, JB_ABSTRACT = 2, JB_ARRAY = 4, JB_PRIMITIVE = 8, JB_THROWABLE = 16, JB_PROXY = 32,
       JB_SAM = 64 };

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
  JSObjectRef fn;           /* the functional method's function, which calling a wrapper calls (NULL: not made) */
  bool marked;              /* proto carries the wrapper mark (model/wrappers.c) */
} jb_jsclass;

typedef struct jb_rt {
  strait_runtime *rt;
  const jb_callbacks *cb;   /* the call layer's callbacks (call/js_callbacks.c) */
  JSGlobalContextRef ctx;
  int slot;                 /* index in the process-wide runtime registry */
  jobject table;            /* global ref: the runtime's org.strait.internal.ObjectTable */
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

  /* collections noticed (model/wrappers.c, reap): gcs counts the ends of
   * collections of the runtime's group (bumped by a heap finalizer, any
   * thread); the gate thread then looks for wrappers whose weak handle was
   * cleared among `young` (slot, gen of wrappers made since the last look),
   * or among every entry once enough were made or enough collections went
   * by since the last full look */
  _Atomic uint32_t gcs;
  uint32_t gcs_seen, gcs_since_full;
  size_t made_since_full;
  uint64_t *young;          /* (gen << 32) | slot */
  size_t nyoung, capyoung;
  JSObjectRef wrapper_mark; /* protected: the value under the token key of the prototype of object wrappers */
  bool gc_hooked;           /* gc_done is registered with the group */

  /* finalization queue (written by reap and the array tokens' finalizer) */
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
  uint32_t sc_pin[JB_SCACHE];     /* arguments holding sc_str[i] as it is (not
                                   * a local ref): the slot is not replaced
                                   * while non-zero (value/convert.c) */

  /* boxes no code has seen yet (Bridge.freshBoxes), by kind (Integer,
   * Long, Double): a box of a number passed to Object is one taken from
   * here and written, instead of an AllocObject (value/convert.c) */
#define JB_BOX_POOL 256
  struct jb_box_pool {
    jobjectArray arr;             /* global ref, or NULL */
    int next;                     /* the first not handed out */
  } boxes[3];

  /* method, field and construct functions (no private data): function
   * address -> bound data */
  strait__ptrmap fns;

  /* bound groups and package objects, freed at teardown */
  void **owned;
  size_t nowned, capowned;

  /* host access policy (model/policy.c): the level, the member facts it
   * denies (0 under a plain ALL: the call path then tests nothing more),
   * whether classes may be looked up at all, whether the embedder named
   * members, the HostPolicy (global ref) asked once per class, and its
   * answers by class index (0: not asked yet) */
  int access;
  unsigned char mdeny;
  bool lookups;
  bool named_members;
  bool refused;             /* the last wrap was refused by the policy (set, never cleared, by wraps) */
  /* weak classes this runtime got from jb_class_get (model/class_meta.c):
   * open addressing by class index, each with a global ref that keeps the
   * class loaded until the runtime closes (jb_class_unpin_all) */
  struct jb_pin { int index; jobject ref; } *pins;
  uint32_t npins, cappins;
  jobject adapters;         /* global ref: the runtime's Adapters.PerRuntime (call/extend.c), or NULL */
  /* the thread that attached the bridge (model/policy.c): the one that runs
   * the JS of a runtime not made by JsRuntime.create() (the launcher's main
   * thread, a worker's own), which is inside it whatever holds the gate
   * (Natives.insideRuntime, call/extend.c) */
  pthread_t home;
  jobject policy;
  unsigned char *verdict;
  size_t nverdict;
  char refused_msg[320];    /* its message, for the IllegalArgumentException of a Java caller */
  /* the crossing count (strait_crossings) in which a window of an
   * Arrays.asList list was last read, or -1: a JS write to an object array
   * in that count moves the counter, as the array may be the list's
   * (call/js_callbacks.c, array_set) */
  double aslist_count;
  /* for...of loops read ahead, put back by the release hook before other
   * code runs (call/iteration.c); NULL until the first */
  struct jb_iters *iters;
} jb_rt;

/* ---- process-wide (model/bridge_init.c, model/class_meta.c) ---------------------- */

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
  jmethodID Bridge_freshBoxes;    /* static (int kind, int n) Object[] */
  jmethodID Bridge_iterator;      /* static (Object) Iterator */
  jmethodID Bridge_iterNext;      /* static (Iterator) Object; sentinel at end */
  jmethodID Bridge_done;          /* static () Object: the end sentinel */
  jmethodID Bridge_toList;        /* static (Object[]) List */
  jmethodID Bridge_toArray;       /* static (Object) Object[]: array/collection copy */
  jmethodID Bridge_memberNames;   /* static (Class) String[] */
  jmethodID Bridge_functionalName; /* static (Class) String: the functional method's name, or null */
  jmethodID Bridge_invokeSensitive; /* static (Executable,Object,long[],Object[]) Object */
  jmethodID Bridge_callerSensitive; /* static (Executable) boolean */
  jclass HostPolicy;
  jmethodID HostPolicy_all;         /* static () HostPolicy */
  jmethodID HostPolicy_of;          /* static (int, String, boolean, boolean) HostPolicy */
  jmethodID HostPolicy_accessCode;  /* () int */
  jmethodID HostPolicy_lookups;     /* () boolean */
  jmethodID HostPolicy_namesMembers; /* () boolean */
  jmethodID HostPolicy_memberDenyMask; /* () int */
  jmethodID HostPolicy_memberNamed; /* (String, String) boolean */
  jmethodID HostPolicy_classVerdict; /* (Class) int */
  jmethodID ObjectTable_init;     /* () */
  jmethodID ObjectTable_register; /* (Object) long */
  jmethodID ObjectTable_release;  /* (long[], int) */
  jmethodID ObjectTable_adopt;    /* (Object[], long[], int) */
  jmethodID ObjectTable_size;     /* () int */
  jmethodID ObjectTable_clear;    /* () void: teardown */
  jmethodID Object_toString;
  jmethodID Object_getClass;
  jmethodID Character_valueOf, Byte_valueOf, Short_valueOf, Float_valueOf;
  jmethodID Character_charValue, Number_longValue, Number_floatValue;
  jmethodID BigInteger_toString;
  jobject done;                   /* global ref: the iterator end sentinel */
} jb_cache;

extern jb_cache jb;

/* Class metadata by index; builds the entry (and describes it when
 * describe is true) on first use. A weak class (one that can be unloaded)
 * is pinned in ctx's runtime until it closes, so what the runtime keeps of
 * it stays valid; with ctx NULL the caller must reach the class otherwise
 * (an object of it, a class that links to it). NULL with a JS exception in
 * *exc on failure (an unknown index, or one whose class was unloaded). Any
 * thread inside a runtime (process mutex inside). */
jb_class *jb_class_get(JNIEnv *env, JSContextRef ctx, int index, bool describe, JSValueRef *exc);
/* Class index of a java.lang.Class object (an upcall). -1 on failure. */
int jb_class_index(JNIEnv *env, jclass cls);
/* Drops b's pins of weak classes (teardown, after everything that may use
 * them). Inside the gate. */
void jb_class_unpin_all(JNIEnv *env, jb_rt *b);
/* Natives.classGone(index): frees the metadata of weak class index once it
 * is unloaded (Bridge's Cleaner). Any Java thread, no runtime. */
void JNICALL jb_class_gone(JNIEnv *env, jclass unused, jint index);
/* Overload group `name` of cls (instance or static); NULL when absent. */
jb_group *jb_group_find(jb_class *cls, const char *name, size_t len, bool is_static);
/* Field `name` of cls; NULL when absent. */
jb_member *jb_field_find(jb_class *cls, const char *name, size_t len, bool is_static);
/* The overload group of the functional method of cls (described), or NULL:
 * cls implements exactly one functional interface (Bridge.functionalName)
 * and its wrappers are callable. Asked once per class (an upcall), then a
 * load. Keeps a pending Java exception pending. Any thread inside a runtime. */
jb_group *jb_class_functional(JNIEnv *env, jb_class *cls);
/* True when class `sub` is assignable to `sup` (JNI IsAssignableFrom). */
bool jb_assignable(JNIEnv *env, jb_class *sub, jb_class *sup);

/* Finds the one member of cls matching an explicit signature key
 * "name(type,type)"; NULL if none or ambiguous (jb_members_by_sig). */
jb_member *jb_member_by_sig(jb_class *cls, const char *key, size_t len, bool is_static);
/* The group a signature key "name(type,...)" chooses from: the methods of
 * that name, or on the static side the constructors ("(...)", "new(...)",
 * "<class name>(...)"); NULL when none. Any thread. */
jb_group *jb_sig_candidates(jb_class *cls, const char *key, size_t len, bool is_static);
/* The members a signature key names, short type names allowed ("String",
 * "Map.Entry", "Object[]", "int..."; full names still match): up to max
 * in out; returns the count (0 none, > 1 ambiguous). Any thread. */
int jb_members_by_sig(jb_class *cls, const char *key, size_t len, bool is_static, jb_member **out, int max);
/* Java source name of a class name for messages ("[I" -> "int[]",
 * "[Ljava.lang.String;" -> "java.lang.String[]"), written into buf (n
 * bytes) when it differs; returns buf or name. Any thread. */
const char *jb_source_name(const char *name, char *buf, size_t n);
/* Name of a type code for messages ("int", "java.lang.String"). */
const char *jb_code_name(JNIEnv *env, JSContextRef ctx, char code, int pcls);

/* ---- host access policy (model/policy.c) ------------------------------ */

/* The bridge installed into rt under policy (org.strait.internal.HostPolicy;
 * NULL: HostPolicy.all()); strait_java_attach() is this with NULL. Defined
 * in attach.c. Inside the gate. */
int strait__java_attach_policy(JNIEnv *env, strait_runtime *rt, jobject policy, JSValueRef *exception);

/* Reads policy (a HostPolicy) into b: level, member mask, lookups, and a
 * global ref for the class verdicts. 0 or STRAIT_ENOMEM/STRAIT_EJAVA (Java
 * exception cleared). Inside the gate. */
int jb_policy_init(JNIEnv *env, jb_rt *b, jobject policy);
void jb_policy_free(JNIEnv *env, jb_rt *b);
/* The verdict bits of k for b, asked once (HostPolicy.classVerdict). */
unsigned jb_verdict_slow(JNIEnv *env, jb_rt *b, jb_class *k);
static inline unsigned jb_verdict(JNIEnv *env, jb_rt *b, jb_class *k) {
  if ((size_t)k->index < b->nverdict && b->verdict[k->index]) return b->verdict[k->index];
  return jb_verdict_slow(env, b, k);
}
/* Sets *exc to the TypeError of a denied class, records it in b->refused
 * and b->refused_msg. Always NULL (for `return jb_deny_class(...)`). */
JSObjectRef jb_deny_class(jb_rt *b, JSContextRef ctx, const char *name, JSValueRef *exc);
/* The same for member `name` of class `cls`. */
JSObjectRef jb_deny_member(jb_rt *b, JSContextRef ctx, const char *cls, const char *name, JSValueRef *exc);
/* The level's name for messages ("GIVEN"). */
const char *jb_policy_name(const jb_rt *b);
/* True when the embedder named m ("Class#member"): the slow half of
 * jb_member_ok. */
bool jb_member_named(JNIEnv *env, jb_rt *b, const jb_member *m);
/* True when b lets scripts use m. Inline: every call asks (one byte test
 * under a plain ALL). */
static inline bool jb_member_ok(JNIEnv *env, jb_rt *b, const jb_member *m) {
  return !(m->pol & b->mdeny) || jb_member_named(env, b, m);
}
/* True when m is denied for a reason other than EXPLICIT's missing
 * annotation (reflection, threads, native): a denial message, not a
 * missing member. */
static inline bool jb_member_forbidden(const jb_rt *b, const jb_member *m) {
  return (m->pol & b->mdeny & ~JB_MP_HIDDEN) != 0;
}

/* ---- per-runtime registry (model/registry.c) ------------------------------ */

/* The bridge of ctx's runtime, or NULL when the bridge is not attached. */
jb_rt *jb_rt_of(JSContextRef ctx);
/* Same, through a per-thread cache validated against the registry. */
jb_rt *jb_rt_fast(JSContextRef ctx);
/* The bridge in registry slot i (for finalizers). Any thread. */
jb_rt *jb_rt_at(int slot);
/* Publishes b in the registry (a slot never reused); 0 or STRAIT_ENOMEM. */
int jb_registry_add(jb_rt *b);
/* Clears b's registry slot (teardown). */
void jb_registry_remove(jb_rt *b);
/* Remembers p (malloc'd) to be freed at teardown. */
void jb_own(jb_rt *b, void *p);

/* ---- wrapper table (model/wrappers.c) ------------------------------------ */

int jb_table_init(jb_rt *b);
void jb_table_free(jb_rt *b, JNIEnv *env);
/* The entry whose wrapper is obj, or NULL (obj is not a live wrapper). */
jb_entry *jb_entry_of(jb_rt *b, JSObjectRef obj);
/* JS value for the Java object obj (a local ref, not deleted): a JS
 * primitive for String and boxes, else the one wrapper of that object.
 * NULL with *exc set on failure. */
JSValueRef jb_wrap(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, JSValueRef *exc);
/* jb_wrap() for an object the embedder hands in (arguments of calls from
 * Java, setGlobal, codec references) or the bridge made itself (interface
 * implementations, iterators): the class filter does not apply, the
 * policy's denied classes do. */
JSValueRef jb_wrap_given(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, JSValueRef *exc);
/* jb_wrap_given() for an object the caller has already registered: r is what
 * ObjectTable.register(obj) returned (on this runtime's table, on this
 * thread, after the last release, and after jb_register_pending entered the
 * objects JS constructed, so that none gets a second id), so no upcall is
 * made. Inside the gate. */
JSValueRef jb_wrap_registered(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, JSValueRef *exc);
/* jb_wrap_given() for an object whose System.identityHashCode the caller knows
 * (Java -> JS arguments packed by org.strait.internal.Args): an object JS has seen
 * is found without the ObjectTable upcall. Inside the gate. */
JSValueRef jb_wrap_hinted(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, uint32_t ihash,
                          JSValueRef *exc);
/* jb_wrap_hinted() of an object Java code passes to JS a script made (a
 * JS function as a Comparator, a Java.extend object): the policy's verdict
 * on results applies, as in jb_wrap(). Inside the gate. */
JSValueRef jb_wrap_hinted_result(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, uint32_t ihash,
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
/* Notices the wrappers the collections since the last call found dead,
 * then releases queued dead wrappers' Java objects (one upcall per batch). */
void jb_flush(JNIEnv *env, jb_rt *b);
/* Crossings flush once this many wrappers wait (one upcall per batch); the
 * loop task flushes whatever is left when the runtime goes idle. */
#define JB_FLUSH_AT 256
static inline void jb_maybe_flush(JNIEnv *env, jb_rt *b) {
  if (atomic_load_explicit(&b->pending, memory_order_relaxed) >= JB_FLUSH_AT ||
      atomic_load_explicit(&b->gcs, memory_order_relaxed) != b->gcs_seen)
    jb_flush(env, b);
}
/* The Java object behind wrapper v (a new local ref), or NULL when v is not
 * a live wrapper of ctx's bridge. Inside the gate. */
jobject jb_java_of(JNIEnv *env, JSContextRef ctx, JSValueRef v);
/* Private code of a token or array wrapper (runtime slot, entry slot,
 * generation). */
uintptr_t jb_token_code(jb_rt *b, uint32_t slot, uint32_t gen);
/* Token JSClass finalizer (queues the slot). GC thread: no JSC, no Java. */
void jb_token_finalize(JSObjectRef token);

/* ---- JS objects for classes (model/class_objects.c) ------------------------- */

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

/* ---- packages and the Java object (model/packages.c) ------------------- */

int jb_packages_install(jb_rt *b, JSContextRef ctx, JSValueRef *exc);
/* A native function calling cb with b as its private data (its prototype
 * Function.prototype), stored as obj[name], not enumerable: the functions of
 * Java, importPackage, importClass. Inside the gate. */
void jb_put_fn(jb_rt *b, JSContextRef ctx, JSObjectRef obj, const char *name, JSObjectCallAsFunctionCallback cb);
/* True when s (UTF-8, NUL-terminated) could be a Java identifier: ASCII
 * letters, digits, _ and $, or any non-ASCII byte, not starting with a
 * digit, not empty. Any thread. */
bool jb_is_identifier(const char *s);
/* The dotted name of package object v ("" for Packages), or NULL when v is
 * not a package object (model/packages.c). */
const char *jb_package_name(JSContextRef ctx, JSValueRef v);
/* Defines JavaImporter, importPackage and importClass (model/importers.c). */
void jb_importers_install(jb_rt *b, JSContextRef ctx);
/* Java.type(name): the constructor object, or NULL with TypeError. */
JSObjectRef jb_type_by_name(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef name, JSValueRef *exc);

/* Whether instances of exactly k are lists read in windows (lwin,
 * call/js_callbacks.c): java.util.ArrayList and the lists of Arrays.asList
 * and List.of, whose get and size run no other code and whose elements
 * change only by calls on them, except that an Arrays.asList list reads
 * through to an array JS may hold and write without a call
 * (JB_WL_ARRAY_BACKED). JB_WL_NONE for any other class. Any thread. */
enum { JB_WL_NONE = 0, JB_WL_OWN = 1, JB_WL_ARRAY_BACKED = 2 };
int jb_windowed_list(const jb_class *k);

/* ---- arrays (model/arrays.c) ------------------------------------------- */

/* Wraps the Java array of entry slot: a Proxy whose index reads and
 * writes reach the array through the callbacks array_get/array_set (NULL
 * with *exc set if the helper failed). */
JSObjectRef jb_array_wrapper(JSContextRef ctx, jb_rt *b, uint32_t slot, uint32_t gen);
/* construct(self, length) of an array class (new (Java.type('int[]'))(3)),
 * bound like a class's construct function: a new array of that length.
 * TypeError for a missing or non-number length, RangeError for a negative,
 * fractional or too large one. Inside the gate. */
JSValueRef jb_array_construct(JSContextRef ctx, JSObjectRef fn, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exc);
/* The code an array Proxy's target holds for entry slot/gen (24 bits of
 * each): exact in a double. */
#define JB_ARRAY_SLOT_BITS 24
#define JB_ARRAY_GEN_MASK ((1u << 24) - 1)
static inline double jb_array_code(uint32_t slot, uint32_t gen) {
  return (double)(((uint64_t)(gen & JB_ARRAY_GEN_MASK) << JB_ARRAY_SLOT_BITS) | slot);
}
/* The live array entry named by such a code, or NULL for a stale or forged
 * one. Inline: every element read and write asks. Inside the gate. */
static inline jb_entry *jb_array_entry(jb_rt *b, double code) {
  if (!(code >= 0 && code < (double)(1ULL << 48))) return NULL;
  uint64_t c = (uint64_t)code;
  uint32_t slot = (uint32_t)(c & ((1u << JB_ARRAY_SLOT_BITS) - 1));
  uint32_t gen = (uint32_t)(c >> JB_ARRAY_SLOT_BITS);
  if (slot >= b->nentries) return NULL;
  jb_entry *e = &b->entries[slot];
  if (!e->id || (e->gen & JB_ARRAY_GEN_MASK) != gen || !e->cls || !(e->cls->flags & JB_ARRAY) ||
      atomic_load_explicit(&e->dead, memory_order_relaxed))
    return NULL;
  return e;
}

/* ---- the callbacks the model makes its objects with -------------------- */

/*
 * The JSC callbacks of class objects, wrappers and the helper script. They
 * make JS -> Java calls, so they live in the call layer
 * (call/js_callbacks.c, jb_js_callbacks) and reach the model only through
 * this table, which attach puts in jb_rt.cb: nothing in model/ calls up.
 */
struct jb_callbacks {
  JSObjectCallAsFunctionCallback method;       /* a method function (bound group) */
  JSObjectCallAsFunctionCallback construct;    /* construct(self, ...args) of a class */
  JSObjectCallAsFunctionCallback field_get;    /* accessors of one field */
  JSObjectCallAsFunctionCallback field_set;
  JSObjectCallAsFunctionCallback is_instance;  /* isInstance(ci, v) */
  JSObjectCallAsFunctionCallback iter_start;   /* iterStart(obj, loop) -> [iterator, kind, slot, counts] */
  JSObjectCallAsFunctionCallback iter_next;    /* iterNext(it, max, pairs, slot) -> a batch of elements */
  JSObjectCallAsFunctionCallback resolve;      /* the catch-all's resolve(ci, isStatic, name, quiet) */
  JSObjectCallAsFunctionCallback array_get;    /* aget(code, i) */
  JSObjectCallAsFunctionCallback array_set;    /* aset(code, i, v) */
  JSObjectCallAsFunctionCallback array_window; /* awin(code, lo, n): a window of elements */
  JSClassRef (*sig_ctor_class)(void);          /* class of explicit-constructor functions */
  /* members of collections (the catch-all of a List or Map class) */
  JSObjectCallAsFunctionCallback list_get;     /* lget(ci, r, i) */
  JSObjectCallAsFunctionCallback list_set;     /* lset(ci, r, i, v) */
  JSObjectCallAsFunctionCallback list_size;    /* lsize(ci, r) */
  JSObjectCallAsFunctionCallback list_window;  /* lwin(r, lo, n): a window of a JDK list */
  JSObjectCallAsFunctionCallback map_get;      /* mget(ci, r, key) */
  JSObjectCallAsFunctionCallback map_put;      /* mput(ci, r, key, v) */
  JSObjectCallAsFunctionCallback items;        /* items(v): elements of a List, Collection, Map or array */
};

/* The bound data of a function made by jb_method_fn (or a field accessor
 * or construct function), or NULL. Inline: every Java method call and
 * field access from JS asks. Inside the gate. */
static inline jb_bound *jb_fn_bound(jb_rt *b, JSObjectRef f) {
  uintptr_t v;
  return b && strait__ptrmap_get(&b->fns, f, &v) ? (jb_bound *)v : NULL;
}

/* ---- batches (model/batches.c) --------------------------------------------- */

/* Most elements one batch moves: iteration and Java.from cross once per
 * batch of up to this many (a batch's JS values sit on the C stack). */
#define JB_BATCH 512
/* Converts objs[from, from + n) (n <= JB_BATCH; a local ref to an Object[])
 * to JS values in out[0, n), as jb_wrap() converts a call's result (String
 * and boxes as JS values, null as null, any other object as its one
 * wrapper): one upcall registers the batch, then each is wrapped with no
 * release in between. shared: objs may be written meanwhile by other code
 * (a Java array scripts hold, another thread's): its elements are then
 * read once, by the upcall (a copy per batch); false only for an array
 * the caller made and no other code holds. An element that fails (a
 * class the policy denies) leaves undefined and the first such error in
 * *exc (false); the others are converted all the same. Inside the gate. */
bool jb_wrap_batch(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobjectArray objs, jint from, jint n, bool shared,
                   JSValueRef *out, JSValueRef *exc);
/* jb_wrap_registered() of a call's result (the policy's verdict on results
 * applies, as in jb_wrap()). Inside the gate. */
JSValueRef jb_wrap_registered_result(JNIEnv *env, jb_rt *b, JSContextRef ctx, jobject obj, jlong r, JSValueRef *exc);

#endif /* STRAIT_MODEL_H */

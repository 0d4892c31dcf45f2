/*
 * value.h - values crossing between JS and Java: the immediate JS values
 * read and made from their bits, the conversions of the bridge (JS
 * argument -> Java parameter, Java result -> JS), typed handles and packed
 * arguments of calls made from Java, JS objects implementing Java
 * interfaces, and exceptions in both directions (value/exceptions.c).
 */
#ifndef STRAIT_VALUE_H
#define STRAIT_VALUE_H

#include "model/model.h"
#include "base/interop_ids.h"

/* ---- immediate JS values (value/immediates.c) ------------------------------ */
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

/* ---- conversions (value/convert.c) --------------------------------------- */

/*
 * The UTF-8 form of the JS property name s, for looking up a Java class,
 * package or member by it: written to buf (cap bytes, NUL-terminated), its
 * length without the NUL in *len. 0 (nothing usable in buf) when s holds
 * U+0000 or a lone surrogate, which no Java name does and which a C string
 * would cut ('String\0x' read as 'String') or change (JSC stops at a lone
 * surrogate), so that the name would find another class or member; and
 * when the UTF-8 form does not fit cap. 1 otherwise. Any thread.
 */
int jb_name_utf8(JSStringRef s, char *buf, size_t cap, size_t *len);

/* What a JS argument is, computed once per call (jb_arg_kind). */
enum { JK_UNDEF = 0, JK_NULL, JK_BOOL, JK_INT, JK_LONGINT, JK_FRAC, JK_STRING, JK_CHAR,
       JK_BIGINT, JK_WRAPPER, JK_JARRAY, JK_ARRAY, JK_FUNCTION, JK_OBJECT, JK_SYMBOL,
       JK_DATE };
typedef struct jb_arg {
  JSValueRef v;
  int kind;
  double num;               /* numbers and booleans */
  jb_entry *e;              /* wrappers: valid only until JS or Java runs */
  jobject ref;              /* wrappers: the Java object (global ref; the
                             * wrapper, an argument, keeps it alive) */
  jb_class *cls;            /* wrappers: its class */
  JSStringRef str;          /* strings not in the cache (released by jb_args_release) */
  jobject jstr;             /* strings from the cache: its global ref,
                             * pinned in its slot until jb_args_release */
  uint32_t *pin;            /* that slot's pin count, or NULL */
  JSChar c0;                /* strings: the first code unit (0 when empty) */
} jb_arg;
/* Fills a from v. Strings are copied once (a->str). */
void jb_arg_kind(jb_rt *b, JSContextRef ctx, JSValueRef v, jb_arg *a);
/* jb_arg_kind() of v when v is a live wrapper of b, found by its address
 * alone: no C API call, so no VM lock needed (v, an argument, is rooted);
 * false (a untouched) for anything else. Inside the gate. */
bool jb_arg_wrapper(jb_rt *b, JSValueRef v, jb_arg *a);
void jb_args_release(jb_arg *a, size_t n);
/* Drops the string cache and the box pools (teardown, before the context
 * goes). */
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
/* The JS value behind o when o is a live JsValue handle (JsObject, JsArray,
 * JsFunction...) of b's runtime, else NULL: a handle going back to JS is
 * the original JS value. Inside the gate. */
JSValueRef jb_handle_back(JNIEnv *env, jb_rt *b, jobject o);
/* Java string -> JS string value (exact UTF-16). */
JSValueRef jb_string_to_js(JNIEnv *env, JSContextRef ctx, jstring s);
/* JS string value -> new Java string (local ref); NULL with *exc set. */
jstring jb_string_to_java(JNIEnv *env, JSContextRef ctx, JSValueRef v, JSValueRef *exc);

/* Same answer as jb_assignable, cached process-wide per (sub, sup) pair
 * (value/convert.c): the check of every wrapper that reaches a JNI call. A
 * wrapper's object is an instance of its recorded class (its own class), so
 * true here means the object is an instance of sup. */
bool jb_is_a(JNIEnv *env, jb_class *sub, jb_class *sup);

/* ---- exceptions, both ways (value/exceptions.c) ------------------------ */

/*
 * Throws org.strait.JsException for the thrown JS value exc of rt: message
 * "Name: message" (for a non-Error the value's string form), the JS stack,
 * file, line, column and the error's name. Inside rt's gate (reads exc).
 * Leaves the Java exception pending; the caller returns to Java at once.
 * When a Java exception is already pending (an upcall on the way failed),
 * it stays the one thrown and nothing is done.
 */
void strait__throw_js(JNIEnv *env, strait_runtime *rt, JSValueRef exc);


/* Turns the pending Java exception into a JS Error in *exc (carrying
 * `javaException` and the Java stack) and clears it; the original JS value
 * when it is a JsException of this runtime. Inside the gate. */
void jb_throw_pending(JNIEnv *env, jb_rt *b, JSContextRef ctx, JSValueRef *exc);
/* The wrapper entry of the Java Throwable a JS Error carries in its
 * `javaException` (an error jb_throw_pending made, or one a script made
 * and gave one), or NULL: v is not an Error, has no such property, or it
 * is not a live wrapper of a Throwable of b. Reads the property (a getter
 * runs; what it throws is dropped). Inside the gate. */
jb_entry *jb_error_java_exception(jb_rt *b, JSContextRef ctx, JSValueRef v);

/* ---- JS values as Java objects (value/handles.c, value/from_java.c) -------------------------------------------- */

/*
 * Converts a JS value of rt to a Java object: null for undefined/null,
 * Boolean, Integer (int32, not -0), Double, String (exact UTF-16), else a
 * new org.strait.JsValue of owner holding a protected handle. NULL with a
 * Java exception pending on failure (check with ExceptionCheck only then).
 * Inside the gate.
 */
jobject strait__to_java(JNIEnv *env, strait__jrt *jrt, jobject owner, JSValueRef v);

/* For an object: the Java object behind a bridge wrapper, else a new typed
 * handle (JsFunction, JsArray, JsPromise, JsObject) of owner; NULL when
 * owner is NULL (value/from_java.c). Inside the gate. */
jobject strait__handle_wrap(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v);

/* ---- handles and packed arguments of calls from Java (value/from_java.c) -------------------------------------- */

/* Like strait__handle_wrap(), but always a handle (never the Java object
 * behind a bridge wrapper): JsFunction for a function, else JsObject. */
jobject strait__handle_wrap_as_object(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v);

/*
 * A new typed handle for the JS object v: JsFunction, JsArray, JsPromise or
 * JsObject, holding one JSValueProtect (strait__handle_make). NULL with a
 * Java exception pending on failure. Inside the gate.
 */
jobject strait__handle_wrap(JNIEnv *env, strait__jrt *jrt, jobject owner, JSObjectRef v);

/*
 * Packed arguments from Java (Natives.pack in Java writes them):
 * long[] vals holds argc values, then the argc type tags one per byte;
 * Object[] refs (may be NULL) holds the String / Java object of argument i
 * at index i. Tags are the STRAIT__ARG_* below.
 */
enum {
  STRAIT__ARG_UNDEFINED = 0,
  STRAIT__ARG_NULL = 1,
  STRAIT__ARG_FALSE = 2,
  STRAIT__ARG_TRUE = 3,
  STRAIT__ARG_INT = 4,        /* vals[i] is the int */
  STRAIT__ARG_DOUBLE = 5,     /* vals[i] holds the double's bits */
  STRAIT__ARG_STRING = 6,     /* refs[i] is a java.lang.String */
  STRAIT__ARG_HANDLE = 7,     /* vals[i] is a JsValue handle of this runtime */
  STRAIT__ARG_JAVA = 8,       /* refs[i] is a Java object for the bridge */
  STRAIT__ARG_BIGINT = 9,     /* vals[i] is a long beyond 2^53: a BigInt */
  STRAIT__ARG_JAVA_REG = 10,  /* refs[i] is a Java object and vals[i] what the
                               * runtime's ObjectTable.register() returned for
                               * it, inside this same stay of the gate (see
                               * Natives.enterArgs): no upcall */
  STRAIT__ARG_JAVA_RESULT = 11, /* as STRAIT__ARG_JAVA, an object Java code passes
                                 * to JS a script made (Args.packResults): the
                                 * policy's verdict on results applies, and a
                                 * refusal is the JS TypeError (STRAIT_EJS) */
};

/*
 * Turns packed arguments into JS values in out[0..argc). Returns 0, or
 * STRAIT_EJS with *exc set (a Java object the bridge cannot wrap).
 * Releases the bridge's queued dead wrappers first when a Java object is
 * wrapped by the hint path (STRAIT__ARG_JAVA), never when the arguments
 * were registered by Java (STRAIT__ARG_JAVA_REG). Inside the gate.
 */
int strait__unpack_args(JNIEnv *env, strait__jrt *jrt, jlongArray packed, jobjectArray refs,
                        int argc, JSValueRef *out, JSValueRef *exc);

/*
 * Throws, into Java, the JS exception exc coming out of a call: the original
 * Java Throwable when exc carries one (a Java exception thrown through JS
 * frames), otherwise a JsException. Inside the gate.
 */
void strait__rethrow_to_java(JNIEnv *env, strait__jrt *jrt, JSValueRef exc);

/*
 * For the bridge, when a Java method called from JS threw t: the original
 * JS value when t is a JsException from a call into this same runtime (JS ->
 * Java -> JS threw), so the outer JS catch gets the very same object; NULL
 * otherwise. Inside the gate.
 */
JSValueRef strait__js_exception_value(JNIEnv *env, strait_runtime *rt, jthrowable t);

/* ---- interfaces implemented in JS (value/proxies.c) ------------------ */

/*
 * Builds a java.lang.reflect.Proxy implementing every interface in ifaces
 * (a Class[]) whose methods call impl: impl[methodName](...args) with this =
 * impl, or impl itself for every abstract method when impl is a function.
 * A method impl lacks runs its Java default if it has one, else throws
 * UnsupportedOperationException naming interface and method. A member that
 * exists but is not a function makes this fail now with a TypeError.
 * Returns a local ref, or NULL with either *exc set (JS TypeError) or a
 * Java exception pending. Inside the gate, on a thread attached to the
 * JVM; the caller (the bridge) may be inside a JS callback.
 */
jobject strait__js_implement(JNIEnv *env, strait_runtime *rt, jobjectArray ifaces,
                             JSObjectRef impl, bool implicit, JSValueRef *exc);

/*
 * A JS function (or object) passed where the interface iface is expected
 * (implicit: by an argument conversion, so the proxy goes back to JS as
 * impl; see model/wrappers.c), or `new I(impl)` (not implicit): the proxy of
 * strait__js_implement() as a new local ref. NULL with *exc set. Inside
 * the gate.
 */
jobject strait__js_implement_class(JNIEnv *env, strait_runtime *rt, jclass iface,
                                   JSObjectRef impl, bool implicit, JSValueRef *exc);

/*
 * `new I(impl)` for one interface class: the proxy of strait__js_implement()
 * as the bridge's JS wrapper. NULL with *exc set. Inside the gate.
 */
JSValueRef strait__js_implement_value(JNIEnv *env, strait_runtime *rt, jclass iface,
                                      JSObjectRef impl, JSValueRef *exc);

/* Java.implement(I or [I1, I2], impl): a JS function callback the bridge
 * installs on its Java global. Inside the gate. */
JSValueRef strait__java_implement_fn(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                                     size_t argc, const JSValueRef argv[], JSValueRef *exc);

#endif /* STRAIT_VALUE_H */

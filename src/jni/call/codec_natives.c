/*
 * codec_natives.c - whole values in one crossing: the JNI glue of the
 * value format (src/core/codec*.c, docs/value-format.md).
 *
 *   - The value is walked by the JIT-compiled JS writer/reader of
 *     codec_js.c (one call per conversion), which agree byte for byte with
 *     the C ones of codec_write.c / codec_read.c.
 *   - Each thread has one native buffer, given to Java once as a direct
 *     ByteBuffer (codecThreadBuffer). JS -> Java writes the value there (or,
 *     when it does not fit or the buffer is busy with an outer conversion on
 *     the same thread, into a spill block that Java frees after reading);
 *     Java -> JS reads what the Java writer put there.
 *   - JAVAREF and JSREF ids index a per-conversion reference array passed
 *     alongside the bytes (Object[]): Java objects behind bridge wrappers,
 *     and JS handles (JsValue) when the caller asked for handles.
 *   - Zero copy: a direct ByteBuffer becomes an ArrayBuffer over its memory
 *     (the ByteBuffer is kept by a global ref that the ArrayBuffer's
 *     deallocator queues for deletion: it runs inside JSC's GC, where no JNI
 *     call may be made); an ArrayBuffer becomes a direct ByteBuffer over its
 *     memory, kept alive by a protected handle that Java releases when the
 *     ByteBuffer is collected (and by a lease on the JsRuntime, which keeps
 *     the engine past close() until then); resizable and detached
 *     ArrayBuffers are refused. A read-only ByteBuffer is copied by Java
 *     before it is shared (docs/value-format.md, "Zero-copy bytes").
 */
#include "call/call.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CJ_THREAD_BUF (256 * 1024)
/* codecToJava flag: Java is using the thread's buffer (an outer conversion). */
#define CJ_NO_THREAD_BUFFER 4

/* The calling thread's buffer; mem is freed by the key's destructor. */
typedef struct cj_tls {
  uint8_t *mem;
  size_t cap;
  int busy;                  /* a conversion on this thread is using mem */
} cj_tls;

static _Thread_local cj_tls tls;
static pthread_key_t tls_key;

/* Process-wide JNI cache of this file (filled once by the init). */
static struct {
  jclass ValueConversionException;
  jmethodID ValueConversionException_init;  /* (String message, String path) */
  jclass Object;
} cj;

/* Global refs whose ArrayBuffer died: deleted later, outside the GC. */
static pthread_mutex_t dead_mu = PTHREAD_MUTEX_INITIALIZER;
static jobject *dead_refs;
static size_t ndead, capdead;
static _Atomic size_t dead_pending;

/* Frees a thread's buffer when the thread exits. */
static void tls_free(void *mem) { free(mem); }

/* The thread's buffer, allocated on first use; NULL when out of memory.
 * Any thread (its own buffer). */
static uint8_t *thread_buffer(void) {
  if (!tls.mem) {
    tls.mem = malloc(CJ_THREAD_BUF);
    if (!tls.mem) return NULL;
    tls.cap = CJ_THREAD_BUF;
    pthread_setspecific(tls_key, tls.mem);
  }
  return tls.mem;
}

/* Deletes the global refs queued by ArrayBuffer deallocators. Any
 * attached thread outside GC. */
static void flush_dead(JNIEnv *env) {
  if (!atomic_load_explicit(&dead_pending, memory_order_relaxed)) return;
  pthread_mutex_lock(&dead_mu);
  for (size_t i = 0; i < ndead; i++) (*env)->DeleteGlobalRef(env, dead_refs[i]);
  ndead = 0;
  atomic_store(&dead_pending, 0);
  pthread_mutex_unlock(&dead_mu);
}

/* ArrayBuffer deallocator of a shared ByteBuffer: queues its global ref.
 * Runs inside JSC's GC (or when creation failed): no JNI here. */
static void bytebuffer_dealloc(void *bytes, void *ref) {
  pthread_mutex_lock(&dead_mu);
  if (ndead == capdead) {
    size_t nc = capdead ? capdead * 2 : 64;
    jobject *nd = realloc(dead_refs, nc * sizeof *nd);
    if (!nd) { pthread_mutex_unlock(&dead_mu); return; }  /* the ByteBuffer then stays held */
    dead_refs = nd;
    capdead = nc;
  }
  dead_refs[ndead++] = ref;
  atomic_store(&dead_pending, ndead);
  pthread_mutex_unlock(&dead_mu);
}

/* ---- the per-conversion reference array ---- */

/* Local refs collected while writing (JAVAREF / JSREF targets). */
typedef struct cj_conv {
  JNIEnv *env;
  strait__jrt *jrt;
  jobject owner;
  jobjectArray refs_in;      /* reader: the array Java passed */
  jobject *refs;
  uint32_t n, cap;
  bool failed;
} cj_conv;

/* Appends a local ref; its index is the id. */
static bool conv_add(cj_conv *c, jobject r, uint32_t *id) {
  if (c->n == c->cap) {
    uint32_t nc = c->cap ? c->cap * 2 : 16;
    jobject *nr = realloc(c->refs, nc * sizeof *nr);
    if (!nr) {
      (*c->env)->DeleteLocalRef(c->env, r);
      c->failed = true;
      return false;
    }
    c->refs = nr;
    c->cap = nc;
    if ((*c->env)->EnsureLocalCapacity(c->env, (jint)nc + 16) != 0) {
      (*c->env)->ExceptionClear(c->env);
      (*c->env)->DeleteLocalRef(c->env, r);
      c->failed = true;
      return false;
    }
  }
  c->refs[c->n] = r;
  *id = c->n++;
  return true;
}

/* Writer hook: a bridge wrapper's Java object goes into the array. */
static bool hook_java_id(void *ud, JSContextRef ctx, JSObjectRef obj, uint32_t *id) {
  cj_conv *c = ud;
  jb_rt *b = jb_rt_of(ctx);
  jb_entry *e = b ? jb_entry_of(b, obj) : NULL;
  if (!e) return false;
  jobject r = (*c->env)->NewLocalRef(c->env, e->ref);
  return r && conv_add(c, r, id);
}

/* Writer hook (handles asked for): a JsValue handle of v goes into the array. */
static uint32_t hook_js_handle(void *ud, JSContextRef ctx, JSValueRef v, bool *ok) {
  cj_conv *c = ud;
  uint32_t id = 0;
  jobject r = strait__to_java(c->env, c->jrt, c->owner, v);
  *ok = r && conv_add(c, r, &id);
  return id;
}

/* The JS string of a Java String that the Java writer passed by reference
 * (a long string: one UTF-16 copy out of Java, then JSC's own copies, instead
 * of going through the value buffer). NULL with *exc set when out of memory.
 * Inside the gate. */
static JSValueRef string_value(JNIEnv *env, JSContextRef ctx, jstring s, JSValueRef *exc) {
  jsize n = (*env)->GetStringLength(env, s);
  JSChar *c = malloc(n ? (size_t)n * sizeof(JSChar) : 1);
  if (!c) {
    *exc = strait_make_error(ctx, "RangeError", "out of memory for a string of %d characters", (int)n);
    return NULL;
  }
  (*env)->GetStringRegion(env, s, 0, n, (jchar *)c);
  JSStringRef js = JSStringCreateWithCharacters(c, (size_t)n);
  free(c);
  JSValueRef r = JSValueMakeString(ctx, js);
  JSStringRelease(js);
  return r;
}

/* Reader hook: element id of the array Java passed, as a JS value (a
 * String becomes a JS string, a JsValue its JS value, any other object its
 * bridge wrapper). */
static JSValueRef hook_ref_value(void *ud, JSContextRef ctx, uint32_t id, JSValueRef *exc) {
  cj_conv *c = ud;
  JNIEnv *env = c->env;
  if (!c->refs_in || id >= (uint32_t)(*env)->GetArrayLength(env, c->refs_in)) {
    *exc = strait_make_error(ctx, "RangeError", "value refers to object %u, which was not passed along", id);
    return NULL;
  }
  jobject o = (*env)->GetObjectArrayElement(env, c->refs_in, (jsize)id);
  JSValueRef r;
  if (o && (*env)->IsInstanceOf(env, o, strait__jc.String)) {
    r = string_value(env, ctx, (jstring)o, exc);
  } else if (o && (*env)->IsInstanceOf(env, o, strait__jc.JsValue)) {
    /* Java checked the JsValue belongs to this runtime and holds a use of
     * it for the call; the runtime is checked again here, so a handle of
     * another heap can never be read as one of this heap */
    jobject vrt = (*env)->GetObjectField(env, o, strait__hc.JsValue_runtime);
    bool mine = vrt && c->owner && (*env)->IsSameObject(env, vrt, c->owner);
    if (vrt) (*env)->DeleteLocalRef(env, vrt);
    if (mine) {
      r = strait__handle_value((*env)->GetLongField(env, o, strait__jc.JsValue_handle));
    } else {
      *exc = strait_make_error(ctx, "TypeError", "value %u is a JsValue of another runtime", id);
      r = NULL;
    }
  } else {
    jb_rt *b = jb_rt_of(ctx);
    if (!b) {
      *exc = strait_make_error(ctx, "TypeError", "value holds a Java object but the Java bridge is not attached");
      r = NULL;
    } else if (b->access == JB_HOST_NONE) {
      /* refused on the Java side (n_to_js keeps this pending) */
      strait__throw(env, strait__jc.IllegalArgumentException,
                    "value %u: a Java object cannot cross into JS: the runtime's host access is NONE", id);
      *exc = strait_make_error(ctx, "TypeError", "a Java object cannot cross into JS: host access is NONE");
      r = NULL;
    } else {
      /* handed in by the embedder; a class the policy denies is refused */
      b->refused = false;
      r = jb_wrap_given(env, b, ctx, o, exc);
      if (!r && b->refused) strait__throw(env, strait__jc.IllegalArgumentException, "value %u: %s", id, b->refused_msg);
    }
  }
  if (o) (*env)->DeleteLocalRef(env, o);
  return r;
}

/* A new Object[] of the collected refs (deleting the locals); NULL if none. */
static jobjectArray conv_array(cj_conv *c) {
  JNIEnv *env = c->env;
  if (!c->n) return NULL;
  jobjectArray a = (*env)->NewObjectArray(env, (jsize)c->n, cj.Object, NULL);
  for (uint32_t i = 0; i < c->n; i++) {
    /* SetObjectArrayElement cannot fail here (the refs are Objects, the
     * index in range); checked all the same */
    if (a && !(*env)->ExceptionCheck(env)) (*env)->SetObjectArrayElement(env, a, (jsize)i, c->refs[i]);
    (*env)->DeleteLocalRef(env, c->refs[i]);
  }
  if (a && (*env)->ExceptionCheck(env)) {
    (*env)->DeleteLocalRef(env, a);
    a = NULL;
  }
  c->n = 0;
  return a;
}

/* Deletes the collected locals, keeping the array (error paths). */
static void conv_free_locals(cj_conv *c) {
  for (uint32_t i = 0; i < c->n; i++) (*c->env)->DeleteLocalRef(c->env, c->refs[i]);
  c->n = 0;
}

/* Deletes collected locals and the array (error paths). */
static void conv_free(cj_conv *c) {
  conv_free_locals(c);
  free(c->refs);
}

/* Throws ValueConversionException(message, path) for a writer ETYPE. */
static void throw_conversion(JNIEnv *env, const char *msg) {
  if ((*env)->ExceptionCheck(env)) return;   /* a hook's Java exception comes first */
  const char *at = strstr(msg, " at $");
  jstring m = strait__jstring_from_utf8(env, msg, strlen(msg));
  if (!m) return;
  jstring p = at ? strait__jstring_from_utf8(env, at + 4, strlen(at + 4)) : NULL;
  if ((*env)->ExceptionCheck(env)) return;
  jobject ex = (*env)->NewObject(env, cj.ValueConversionException, cj.ValueConversionException_init, m, p);
  if (ex) (*env)->Throw(env, (jthrowable)ex);
}

/* ---- natives ---- */

/* Natives.codecThreadBuffer(): a direct ByteBuffer over the calling
 * thread's buffer (Java keeps it per thread). Any Java thread. */
static jobject JNICALL n_thread_buffer(JNIEnv *env, jclass cls) {
  uint8_t *m = thread_buffer();
  if (!m) {
    strait__throw_status(env, STRAIT_ENOMEM, "value buffer");
    return NULL;
  }
  return (*env)->NewDirectByteBuffer(env, m, (jlong)tls.cap);
}

/*
 * Natives.codecToJava(peer, owner, handle, flags): writes the JS value of
 * handle. Returns null when the bytes are in the thread's buffer and no
 * references were collected; else Object[]{ByteBuffer spill or null,
 * Object[] refs or null, long[]{spill address}}; Java frees a spill with
 * codecFree. Throws ValueConversionException naming the path, or
 * JsException when a getter threw. Any Java thread.
 */
static jobject JNICALL n_to_java(JNIEnv *env, jclass cls, jlong peer, jobject owner, jlong handle,
                                 jint flags) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  flush_dead(env);
  strait__native entry;
  if (strait__native_enter(env, &entry, jrt)) return NULL;
  cj_conv c = {.env = env, .jrt = jrt, .owner = owner};
  strait_value_hooks hooks = {.ud = &c, .java_id = hook_java_id, .js_handle = hook_js_handle};
  strait_buffer out;
  bool lent = !tls.busy && !(flags & CJ_NO_THREAD_BUFFER) && thread_buffer();
  strait_buffer_init(&out, lent ? tls.mem : NULL, lent ? tls.cap : 0);
  if (lent) tls.busy++;
  strait_value_error err;
  JSValueRef exc = NULL;
  int rc = strait_value_encode(jrt->rt, strait__handle_value(handle), &out,
                                  (unsigned)flags & STRAIT_VALUE_HANDLES, &hooks, &err, &exc);
  if (lent) tls.busy--;
  if (rc == STRAIT_EJS) strait__throw_js(env, jrt->rt, exc);
  int stopped = strait__native_leave(env, &entry);
  if (rc == 0 && stopped) rc = stopped;
  if (rc == 0 && c.failed) rc = STRAIT_ENOMEM;
  if (rc) {
    if (rc == STRAIT_ETYPE) throw_conversion(env, err.msg);
    else if (rc != STRAIT_EJS && !(*env)->ExceptionCheck(env)) strait__throw_status(env, rc, err.msg);
    conv_free(&c);
    strait_buffer_free(&out);
    return NULL;
  }
  if (!out.spilled && !c.n) {
    free(c.refs);
    return NULL;
  }
  /* each allocation may fail with OutOfMemoryError pending: no JNI call
   * after one that failed (DeleteLocalRef aside) */
  jobject spill = out.spilled ? (*env)->NewDirectByteBuffer(env, out.data, (jlong)out.len) : NULL;
  uint32_t nrefs = c.n;
  jobjectArray refs = NULL;
  jlongArray meta = NULL;
  jobjectArray res = NULL;
  if (!(*env)->ExceptionCheck(env)) refs = conv_array(&c);
  else conv_free_locals(&c);
  free(c.refs);
  if (!(*env)->ExceptionCheck(env)) meta = (*env)->NewLongArray(env, 1);
  if (!(*env)->ExceptionCheck(env)) res = (*env)->NewObjectArray(env, 3, cj.Object, NULL);
  if ((out.spilled && !spill) || (nrefs && !refs) || !meta || !res || (*env)->ExceptionCheck(env)) {
    strait_buffer_free(&out);
    if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "toJava");
    return NULL;
  }
  jlong addr = out.spilled ? (jlong)(intptr_t)out.data : 0;
  (*env)->SetLongArrayRegion(env, meta, 0, 1, &addr);
  (*env)->SetObjectArrayElement(env, res, 0, spill);
  (*env)->SetObjectArrayElement(env, res, 1, refs);
  (*env)->SetObjectArrayElement(env, res, 2, meta);
  return res;
}

/* Natives.codecFree(address): frees a spill block after Java read it. */
static void JNICALL n_free(JNIEnv *env, jclass cls, jlong addr) {
  free((void *)(intptr_t)addr);
}

/*
 * Natives.codecToJs(peer, owner, buf, len, refs): reads len bytes of buf
 * (null: the thread's buffer) into a JS value and returns it converted as
 * eval's result is (a JsValue handle for objects). Corrupt bytes throw
 * IllegalArgumentException naming the offset. Any Java thread.
 */
static jobject JNICALL n_to_js(JNIEnv *env, jclass cls, jlong peer, jobject owner, jobject buf,
                               jint len, jobjectArray refs) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  const uint8_t *bytes;
  jlong cap;
  if (buf) {
    bytes = (*env)->GetDirectBufferAddress(env, buf);
    cap = (*env)->GetDirectBufferCapacity(env, buf);
  } else {
    bytes = tls.mem;
    cap = (jlong)tls.cap;
  }
  if (!bytes || len < 0 || len > cap) {
    strait__throw(env, strait__jc.IllegalArgumentException, "toJs: no value bytes in the buffer");
    return NULL;
  }
  flush_dead(env);
  strait__native entry;
  if (strait__native_enter(env, &entry, jrt)) return NULL;
  cj_conv c = {.env = env, .jrt = jrt, .owner = owner, .refs_in = refs};
  strait_value_hooks hooks = {.ud = &c, .java_value = hook_ref_value, .js_value = hook_ref_value};
  strait_value_error err;
  JSValueRef v = NULL, exc = NULL;
  int rc = strait_value_decode(jrt->rt, bytes, (size_t)len, &hooks, &v, &err, &exc);
  jobject r = NULL;
  if (rc == 0) r = strait__to_java(env, jrt, owner, v);
  else if ((*env)->ExceptionCheck(env)) { /* a reference the host access policy refused (hook_ref_value) */ }
  else if (rc == STRAIT_EJS) strait__throw_js(env, jrt->rt, exc);
  else if (rc == STRAIT_ECORRUPT) strait__throw(env, strait__jc.IllegalArgumentException, "%s", err.msg);
  else strait__throw_status(env, rc, err.msg);
  strait__native_leave(env, &entry);
  return r;
}

/*
 * Natives.codecShareBuffer(peer, owner, directBuffer): an ArrayBuffer over
 * the ByteBuffer's memory (no copy), as a JsValue. The ByteBuffer stays
 * alive (global ref) until the ArrayBuffer is collected. Any Java thread.
 */
static jobject JNICALL n_share_buffer(JNIEnv *env, jclass cls, jlong peer, jobject owner, jobject buf) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  void *p = (*env)->GetDirectBufferAddress(env, buf);
  jlong n = (*env)->GetDirectBufferCapacity(env, buf);
  if (!p || n < 0) {
    strait__throw(env, strait__jc.IllegalArgumentException, "toJs: the ByteBuffer is not direct");
    return NULL;
  }
  jobject ref = (*env)->NewGlobalRef(env, buf);
  if (!ref) {
    if (!(*env)->ExceptionCheck(env)) strait__throw_status(env, STRAIT_ENOMEM, "toJs: ByteBuffer");
    return NULL;
  }
  flush_dead(env);
  strait__native entry;
  if (strait__native_enter(env, &entry, jrt)) {
    (*env)->DeleteGlobalRef(env, ref);
    return NULL;
  }
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  JSValueRef exc = NULL;
  /* the deallocator owns ref from here on, even if creation throws */
  JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, p, (size_t)n, bytebuffer_dealloc, ref, &exc);
  jobject r = NULL;
  if (ab) r = strait__to_java(env, jrt, owner, ab);
  else strait__throw_js(env, jrt->rt, exc);
  strait__native_leave(env, &entry);
  return r;
}

/*
 * Natives.codecBufferOf(peer, handle, protectedOut): a direct ByteBuffer
 * over the bytes of the ArrayBuffer or typed array of handle (the view's
 * range), no copy. The ArrayBuffer gets a new protected handle, stored in
 * protectedOut[0], which Java releases when the ByteBuffer is collected;
 * reading its bytes pointer pins it, so JS can no longer detach it (a
 * transfer copies). Refused with IllegalArgumentException: other values,
 * a resizable ArrayBuffer (JS could shrink the memory under the
 * ByteBuffer) or a view of one, a detached one. Whether it is resizable or
 * detached is asked of the getters captured at start-up. Any Java thread.
 */
static jobject JNICALL n_buffer_of(JNIEnv *env, jclass cls, jlong peer, jlong handle, jlongArray out) {
  strait__jrt *jrt = STRAIT__PEER(peer);
  strait__native entry;
  if (strait__native_enter(env, &entry, jrt)) return NULL;
  JSContextRef ctx = strait_runtime_context(jrt->rt);
  JSValueRef v = strait__handle_value(handle);
  JSTypedArrayType t = JSValueGetTypedArrayType(ctx, v, NULL);
  JSObjectRef ab = NULL;
  if (t == kJSTypedArrayTypeArrayBuffer) ab = (JSObjectRef)v;
  else if (t != kJSTypedArrayTypeNone) ab = JSObjectGetTypedArrayBuffer(ctx, (JSObjectRef)v, NULL);
  const char *refused = NULL;
  if (!ab) refused = "asByteBuffer: not an ArrayBuffer or typed array";
  else if (strait__jrt_flag(jrt, jrt->ab_resizable, ab) != 0)
    refused = "asByteBuffer: the ArrayBuffer is resizable (JS could shrink the memory under the "
              "ByteBuffer); copy it with toJava() or use a fixed-length ArrayBuffer";
  else if (strait__jrt_flag(jrt, jrt->ab_detached, ab) != 0)
    refused = "asByteBuffer: the ArrayBuffer is detached";
  jobject r = NULL;
  if (refused) {
    strait__throw(env, strait__jc.IllegalArgumentException, "%s", refused);
  } else {
    uint8_t *p;
    size_t n;
    if (t == kJSTypedArrayTypeArrayBuffer) {
      p = JSObjectGetArrayBufferBytesPtr(ctx, ab, NULL);
      n = JSObjectGetArrayBufferByteLength(ctx, ab, NULL);
    } else {
      p = JSObjectGetTypedArrayBytesPtr(ctx, (JSObjectRef)v, NULL);
      if (p) p += JSObjectGetTypedArrayByteOffset(ctx, (JSObjectRef)v, NULL);
      n = JSObjectGetTypedArrayByteLength(ctx, (JSObjectRef)v, NULL);
    }
    static uint8_t empty[1];
    r = (*env)->NewDirectByteBuffer(env, p ? p : empty, (jlong)(p ? n : 0));
    if (r) {
      jlong h = strait__handle_make(ctx, ab);
      (*env)->SetLongArrayRegion(env, out, 0, 1, &h);
      if ((*env)->ExceptionCheck(env)) {
        JSValueUnprotect(ctx, ab);
        (*env)->DeleteLocalRef(env, r);
        r = NULL;
      }
    }
  }
  strait__native_leave(env, &entry);
  return r;
}

const JNINativeMethod strait__codec_natives[] = {
    {"codecThreadBuffer", "()Ljava/nio/ByteBuffer;", (void *)n_thread_buffer},
    {"codecToJava", "(JLjava/lang/Object;JI)Ljava/lang/Object;", (void *)n_to_java},
    {"codecFree", "(J)V", (void *)n_free},
    {"codecToJs", "(JLjava/lang/Object;Ljava/nio/ByteBuffer;I[Ljava/lang/Object;)Ljava/lang/Object;",
     (void *)n_to_js},
    {"codecShareBuffer", "(JLjava/lang/Object;Ljava/nio/ByteBuffer;)Ljava/lang/Object;",
     (void *)n_share_buffer},
    {"codecBufferOf", "(JJ[J)Ljava/nio/ByteBuffer;", (void *)n_buffer_of},
};

const int strait__codec_natives_count =
    (int)(sizeof strait__codec_natives / sizeof strait__codec_natives[0]);

/* Caches this file's classes (the natives above are registered by
 * strait__natives_register). Once, from strait__jni_init(). */
int strait__codec_jni_init(JNIEnv *env) {
  if (pthread_key_create(&tls_key, tls_free) != 0) return STRAIT_ENOMEM;
  cj.Object = strait__global_class(env, "java/lang/Object");
  cj.ValueConversionException = strait__global_class(env, "org/strait/ValueConversionException");
  if (!cj.Object || !cj.ValueConversionException) return STRAIT_EINVAL;
  cj.ValueConversionException_init = (*env)->GetMethodID(env, cj.ValueConversionException, "<init>",
                                                          "(Ljava/lang/String;Ljava/lang/String;)V");
  if (!cj.ValueConversionException_init) return STRAIT_EINVAL;
  return 0;
}

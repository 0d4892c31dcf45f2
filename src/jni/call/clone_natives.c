/*
 * clone_natives.c - values between runtimes from Java (docs/workers.md,
 * "From Java"): the natives of JsRuntime.structuredClone (a structured
 * clone captured in one runtime and made in another, strait_clone_*) and of
 * org.strait.JsMessagePort (the Java end of a message channel whose other
 * end is a MessagePort of a runtime, strait_port_*).
 *
 * Lifetimes: a runtime peer is alive while Java holds the runtime's
 * in-flight count (JsRuntime.enter) and a handle while it holds a use of
 * the JsValue; a port peer (a strait_port*) while Java holds the
 * JsMessagePort's in-flight count, and portClose runs once, when the port
 * was closed and no call is in flight (JsMessagePort.java).
 */
#include "call/call.h"

#include <stdlib.h>
#include <string.h>

/* Throws what a failed strait_clone_* call of rt gave: the thrown value
 * (a DataCloneError DOMException, a TypeError, what a getter threw) as a
 * JsException, a termination as its exception, other statuses by the
 * status mapping. Inside rt's gate. */
static void throw_clone(JNIEnv *env, strait_runtime *rt, int rc, JSValueRef exc, const char *what) {
  int term = rc == STRAIT_EJS ? strait_terminating(rt) : 0;
  if (term) strait__throw_termination(env, rt, term);
  else if (rc == STRAIT_EJS && exc) strait__throw_js(env, rt, exc);
  else strait__throw_status(env, rc, what);
}

/* Natives.cloneInto(srcPeer, handle, transfer, dstPeer, dstOwner): the
 * structured clone of the value of handle (of srcPeer's runtime), with
 * transfer (handles of srcPeer's runtime, may be null) moved rather than
 * copied, made in dstPeer's runtime and converted as eval's results are.
 * The clone is captured inside the source's gate, which is left before the
 * destination's is entered (the same runtime works too). NULL with an
 * exception pending on failure (nothing was detached when the capture
 * failed). Any Java thread. */
static jobject JNICALL n_clone_into(JNIEnv *env, jclass cls, jlong src_peer, jlong handle,
                                    jlongArray transfer, jlong dst_peer, jobject dst_owner) {
  strait__jrt *src = STRAIT__PEER(src_peer), *dst = STRAIT__PEER(dst_peer);
  jsize nt = transfer ? (*env)->GetArrayLength(env, transfer) : 0;
  jlong tstack[16];
  jlong *th = nt <= 16 ? tstack : malloc((size_t)nt * sizeof *th);
  if (!th) {
    strait__throw_status(env, STRAIT_ENOMEM, "structuredClone");
    return NULL;
  }
  if (nt) (*env)->GetLongArrayRegion(env, transfer, 0, nt, th);
  strait_clone *c = NULL;
  strait__native nf;
  if (strait__native_enter(env, &nf, src)) {
    if (th != tstack) free(th);
    return NULL;
  }
  JSValueRef exc = NULL, list = NULL;
  int rc = 0;
  if (nt) {
    /* the transfer list as a JS array of the source (on the stack, which
     * JSC scans, until the capture returns) */
    JSValueRef vstack[16];
    JSValueRef *vs = nt <= 16 ? vstack : malloc((size_t)nt * sizeof *vs);
    if (!vs) rc = STRAIT_ENOMEM;
    for (jsize i = 0; vs && i < nt; i++) vs[i] = strait__handle_value(th[i]);
    if (vs) {
      list = JSObjectMakeArray(nf.ctx, (size_t)nt, vs, &exc);
      if (!list) rc = STRAIT_EJS;
      if (vs != vstack) free(vs);
    }
  }
  if (rc == 0) rc = strait_clone_capture(src->rt, strait__handle_value(handle), list, &c, &exc);
  if (rc) throw_clone(env, src->rt, rc, exc, "structuredClone");
  if (strait__native_leave(env, &nf) && !rc) {
    strait_clone_free(c);   /* the source's jobs were stopped: no clone */
    rc = STRAIT_ETERM;
  }
  if (th != tstack) free(th);
  if (rc) return NULL;

  jobject out = NULL;
  if (strait__native_enter(env, &nf, dst) == 0) {
    JSValueRef v = NULL;
    exc = NULL;
    rc = strait_clone_materialize(dst->rt, c, &v, &exc);
    if (rc == 0) out = strait__to_java(env, dst, dst_owner, v);
    else throw_clone(env, dst->rt, rc, exc, "structuredClone");
    if (strait__native_leave(env, &nf)) out = NULL;
  }
  strait_clone_free(c);
  return out;
}

/* Natives.portOpen(peer, owner, out): a channel between Java and the
 * runtime: stores the Java end (a strait_port*) in out[0] and returns the
 * runtime's end, a MessagePort, as a handle of owner. NULL with an
 * exception pending on failure. Any Java thread. */
static jobject JNICALL n_port_open(JNIEnv *env, jclass cls, jlong peer, jobject owner, jlongArray out) {
  strait__native nf;
  if (strait__native_enter(env, &nf, STRAIT__PEER(peer))) return NULL;
  strait_runtime *rt = nf.jrt->rt;
  strait_port *p = NULL;
  JSValueRef js = NULL;
  jobject r = NULL;
  int rc = strait_port_open(rt, &p, &js);
  if (rc == 0) {
    r = strait__to_java(env, nf.jrt, owner, js);
    jlong v = (jlong)(intptr_t)p;
    if (r) (*env)->SetLongArrayRegion(env, out, 0, 1, &v);
    if (!r || (*env)->ExceptionCheck(env)) {
      strait_port_free(p);
      r = NULL;
    }
  } else {
    strait__throw_status(env, rc, "openMessagePort");
  }
  strait__native_leave(env, &nf);
  return r;
}

/* Natives.portPost(port, bytes, len): posts bytes[0..len) (one value in
 * the value format, written by ValueWriter) to the MessagePort. 0, or the
 * status of strait_port_post (STRAIT_ECLOSED: the channel is closed, the
 * message was dropped). Any thread; never enters a runtime. */
static jint JNICALL n_port_post(JNIEnv *env, jclass cls, jlong port, jbyteArray bytes, jint len) {
  uint8_t stackbuf[4096];
  uint8_t *b = len <= (jint)sizeof stackbuf ? stackbuf : malloc((size_t)len);
  if (!b) return STRAIT_ENOMEM;
  (*env)->GetByteArrayRegion(env, bytes, 0, len, (jbyte *)b);
  int rc = strait_port_post((strait_port *)(intptr_t)port, b, (size_t)len);
  if (b != stackbuf) free(b);
  return rc;
}

/* Natives.portReceive(port, timeoutMs): waits up to timeoutMs (0: no wait)
 * for the next message the MessagePort posted. Returns its bytes (the
 * value format) as a byte[]; a String (the reason) when the value does not
 * fit the format (the message is consumed); else an Integer status
 * (STRAIT_ETIMEDOUT, STRAIT_ECLOSED: closed and nothing left, STRAIT_ENOMEM).
 * NULL with OutOfMemoryError pending. Any thread; blocks only the calling
 * thread, never a runtime. */
static jobject JNICALL n_port_receive(JNIEnv *env, jclass cls, jlong port, jlong timeout_ms) {
  strait_buffer b;
  strait_value_error err;
  memset(&err, 0, sizeof err);
  strait_buffer_init(&b, NULL, 0);
  int rc = strait_port_receive((strait_port *)(intptr_t)port, (long)timeout_ms, &b, &err);
  jobject r = NULL;
  if (rc == 0 && b.failed) rc = STRAIT_ENOMEM;
  if (rc == 0) {
    jbyteArray a = (*env)->NewByteArray(env, (jsize)b.len);
    if (a) (*env)->SetByteArrayRegion(env, a, 0, (jsize)b.len, (const jbyte *)b.data);
    r = a;
  } else if (rc == STRAIT_ETYPE) {
    err.msg[sizeof err.msg - 1] = 0;
    r = strait__jstring_from_utf8(env, err.msg[0] ? err.msg : "the message has no Java form",
                                  strlen(err.msg[0] ? err.msg : "the message has no Java form"));
  } else {
    r = strait__box_int(env, rc);
  }
  strait_buffer_free(&b);
  return r;
}

/* Natives.portClose(port): closes the channel (the MessagePort gets a
 * close event) and wakes a receive in flight; the port stays valid.
 * Idempotent. Any thread, also while other calls are in flight. */
static void JNICALL n_port_close(JNIEnv *env, jclass cls, jlong port) {
  strait_port_close((strait_port *)(intptr_t)port);
}

/* Natives.portFree(port): closes and frees the Java end. Once, with no
 * call on port starting after it. Any thread. */
static void JNICALL n_port_free(JNIEnv *env, jclass cls, jlong port) {
  strait_port_free((strait_port *)(intptr_t)port);
}

const JNINativeMethod strait__clone_port_natives[] = {
    {"cloneInto", "(JJ[JJLjava/lang/Object;)Ljava/lang/Object;", (void *)n_clone_into},
    {"portOpen", "(JLjava/lang/Object;[J)Ljava/lang/Object;", (void *)n_port_open},
    {"portPost", "(J[BI)I", (void *)n_port_post},
    {"portReceive", "(JJ)Ljava/lang/Object;", (void *)n_port_receive},
    {"portClose", "(J)V", (void *)n_port_close},
    {"portFree", "(J)V", (void *)n_port_free},
};
const int strait__clone_port_natives_count =
    (int)(sizeof strait__clone_port_natives / sizeof strait__clone_port_natives[0]);

/*
 * codec_js.c - the fast path of the value codec: the writer and reader
 * written in JavaScript, run by JSC's JIT inside the runtime, so walking a
 * value costs no C API call per property (each C API call takes the VM lock
 * and costs tens of ns; a JIT'd property read costs a few). The C side
 * makes one call per conversion and moves the bytes.
 *
 * The JS code (js/codec.js, embedded at build time) writes exactly the
 * bytes of the C writer (codec_write.c), which stays the reference; tests/c/test_codec.c checks both against the
 * shared vectors. It is compiled once per runtime and kept on the
 * runtime's private `internal` object. Hooks (Java wrappers, handles,
 * extensions, long strings) call back into C through native functions; the
 * hooks of the conversion in progress are kept per thread (conversions run
 * synchronously on the calling thread and may nest).
 */
#include "codec.h"
#include "js_sources.h"
#include "runtime.h"
#include "value.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strings longer than this are copied by C, not by a JS loop. */
#define CODEC_JS_LONG_STRING 2048

/* The conversion in progress on this thread (hooks and flags), for the
 * native callbacks; saved and restored around nested conversions. */
typedef struct js_conv {
  const strait_value_hooks *hooks;
  unsigned flags;
} js_conv;

static _Thread_local js_conv *cur;

/* native.ref(obj, kind): kind 0 asks java_id, kind 1 js_handle; the id or -1.
 * Inside the gate (a JS callback). */
static JSValueRef nf_ref(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exc) {
  double r = -1;
  if (cur && cur->hooks && argc >= 2) {
    int kind = (int)JSValueToNumber(ctx, argv[1], NULL);
    if (kind == 0 && cur->hooks->java_id && JSValueIsObject(ctx, argv[0])) {
      uint32_t id;
      if (cur->hooks->java_id(cur->hooks->ud, ctx, (JSObjectRef)argv[0], &id)) r = id;
    } else if (kind == 1 && cur->hooks->js_handle && (cur->flags & STRAIT_VALUE_HANDLES)) {
      bool ok = true;
      uint32_t id = cur->hooks->js_handle(cur->hooks->ud, ctx, argv[0], &ok);
      if (!ok) {
        *exc = strait_make_error(ctx, "RangeError", "out of memory while converting a value");
        return NULL;
      }
      r = id;
    }
  }
  return JSValueMakeNumber(ctx, r);
}

/* native.refValue(kind, id): the JS value of a JAVAREF (0) or JSREF (1).
 * Inside the gate. */
static JSValueRef nf_ref_value(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exc) {
  int kind = argc > 0 ? (int)JSValueToNumber(ctx, argv[0], NULL) : 0;
  uint32_t id = argc > 1 ? (uint32_t)JSValueToNumber(ctx, argv[1], NULL) : 0;
  const strait_value_hooks *h = cur ? cur->hooks : NULL;
  JSValueRef (*fn)(void *, JSContextRef, uint32_t, JSValueRef *) =
      h ? (kind ? h->js_value : h->java_value) : NULL;
  if (!fn) {
    *exc = strait_make_error(ctx, "TypeError", "value refers to %s (id %u) but no table is attached",
                              kind ? "a JS handle" : "a Java object", id);
    return NULL;
  }
  return fn(h->ud, ctx, id, exc);
}

/* native.ext(type, ab, pos, n): an EXT value through the hook. */
static JSValueRef nf_ext(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                         const JSValueRef argv[], JSValueRef *exc) {
  const strait_value_hooks *h = cur ? cur->hooks : NULL;
  if (argc < 4 || !h || !h->ext_value) {
    *exc = strait_make_error(ctx, "TypeError", "value has an extension value but no extension hook");
    return NULL;
  }
  uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[1], NULL);
  size_t at = (size_t)JSValueToNumber(ctx, argv[2], NULL);
  uint32_t n = (uint32_t)JSValueToNumber(ctx, argv[3], NULL);
  return h->ext_value(h->ud, ctx, (uint32_t)JSValueToNumber(ctx, argv[0], NULL), base + at, n, exc);
}

/* native.putString(s, ab, pos): writes the long string s as STRING8 or
 * STRING16 at pos of ab (room for 5 + 2n bytes ensured by the caller);
 * returns the position after it. */
static JSValueRef nf_put_string(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exc) {
  JSStringRef s = JSValueToStringCopy(ctx, argv[0], exc);
  if (!s) return NULL;
  uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[1], NULL);
  size_t pos = (size_t)JSValueToNumber(ctx, argv[2], NULL);
  size_t n = JSStringGetLength(s);
  const JSChar *c = JSStringGetCharactersPtr(s);
  uint8_t *p = base + pos;
  JSChar acc = 0;
  size_t i = 0;
  for (; i < n; i++) {
    acc |= c[i];
    if (acc > 0xFF) break;
    p[5 + i] = (uint8_t)c[i];
  }
  bool wide = i < n;
  uint32_t len = (uint32_t)n;
  p[0] = wide ? STRAIT_V_STRING16 : STRAIT_V_STRING8;
  memcpy(p + 1, &len, 4);
  if (wide) memcpy(p + 5, c, n * 2);
  JSStringRelease(s);
  return JSValueMakeNumber(ctx, (double)(pos + 5 + (wide ? n * 2 : n)));
}

/* A JS string whose character i is byte i of p[0, n) (Latin-1); NULL with
 * *exc set when out of memory. Inside the gate. */
static JSValueRef bytes_string(JSContextRef ctx, const uint8_t *p, size_t n, JSValueRef *exc) {
  JSChar *c = malloc(n ? n * sizeof(JSChar) : 1);
  if (!c || !p) {
    free(c);
    *exc = strait_make_error(ctx, "RangeError", "out of memory for the strings of a value");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) c[i] = p[i];
  JSStringRef s = JSStringCreateWithCharacters(c, n);
  free(c);
  JSValueRef r = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return r;
}

/* native.bytesAsString(ab, len): one string whose character i is byte i
 * of ab (Latin-1), for the reader's substrings. */
static JSValueRef nf_bytes_as_string(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                     const JSValueRef argv[], JSValueRef *exc) {
  const uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[0], NULL);
  return bytes_string(ctx, base, (size_t)JSValueToNumber(ctx, argv[1], NULL), exc);
}

/* native.makeString(ab, pos, n, wide): a JS string of n Latin-1 bytes or
 * UTF-16 units at pos of ab. */
static JSValueRef nf_make_string(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exc) {
  const uint8_t *base = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)argv[0], NULL);
  size_t at = (size_t)JSValueToNumber(ctx, argv[1], NULL);
  size_t n = (size_t)JSValueToNumber(ctx, argv[2], NULL);
  bool wide = JSValueToBoolean(ctx, argv[3]);
  JSChar *c = malloc(n ? n * sizeof(JSChar) : 1);
  if (!c) {
    *exc = strait_make_error(ctx, "RangeError", "out of memory for a string of %zu characters", n);
    return NULL;
  }
  if (wide) memcpy(c, base + at, n * 2);
  else for (size_t i = 0; i < n; i++) c[i] = base[at + i];
  JSStringRef s = JSStringCreateWithCharacters(c, n);
  free(c);
  JSValueRef r = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return r;
}

/* Property names used on every conversion, made once per process
 * (JSStringRefs are immutable and may be shared between threads). */
static JSStringRef name_codec, name_encode, name_decode, name_decode_in, name_in_ab;

/* Reads in progress on this thread: a nested read must not reuse the
 * runtime's input buffer, which the outer read is still reading. */
static _Thread_local int reading;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void make_names(void) {
  name_in_ab = JSStringCreateWithUTF8CString("inAB");
  name_decode_in = JSStringCreateWithUTF8CString("decodeIn");
  name_codec = JSStringCreateWithUTF8CString("codec");
  name_encode = JSStringCreateWithUTF8CString("encode");
  name_decode = JSStringCreateWithUTF8CString("decode");
}

/* The runtime's codec object {encode, decode}, compiled on first
 * use. NULL with *exc set when that failed. Inside the gate. */
static JSObjectRef codec_object(strait_runtime *rt, JSValueRef *exc) {
  JSContextRef ctx = rt->ctx;
  if (!rt->internal) return NULL;
  pthread_once(&names_once, make_names);
  JSValueRef c = JSObjectGetProperty(ctx, rt->internal, name_codec, NULL);
  if (JSValueIsObject(ctx, c)) return (JSObjectRef)c;
  JSStringRef key = JSStringCreateWithUTF8CString("codec");
  const strait__js_source *js = strait__js_sources_find("codec.js");
  if (!js) return NULL;
  JSValueRef fn = strait__js_source_eval(ctx, js, NULL, exc);
  JSObjectRef result = NULL;
  if (fn && JSValueIsObject(ctx, fn)) {
    JSObjectRef native = JSObjectMake(ctx, NULL, NULL);
    strait_set_function(ctx, native, "ref", nf_ref);
    strait_set_function(ctx, native, "refValue", nf_ref_value);
    strait_set_function(ctx, native, "ext", nf_ext);
    strait_set_function(ctx, native, "putString", nf_put_string);
    strait_set_function(ctx, native, "makeString", nf_make_string);
    strait_set_function(ctx, native, "bytesAsString", nf_bytes_as_string);
    JSValueRef args[2] = {native, rt->internal};   /* internal: the intrinsics (intrinsics.js) */
    JSValueRef obj = JSObjectCallAsFunction(ctx, (JSObjectRef)fn, NULL, 2, args, exc);
    if (obj && JSValueIsObject(ctx, obj)) {
      JSObjectSetProperty(ctx, rt->internal, key, obj, kJSPropertyAttributeDontEnum, NULL);
      result = (JSObjectRef)obj;
    }
  }
  JSStringRelease(key);
  return result;
}

/* Calls codec[name](args) with the thread's current conversion set; codec
 * is the runtime's codec object if the caller has it, else NULL. */
static JSValueRef call_codec(strait_runtime *rt, JSObjectRef codec, const char *name, size_t argc,
                             const JSValueRef *argv, js_conv *conv, JSValueRef *exc) {
  if (!codec) codec = codec_object(rt, exc);
  if (!codec) return NULL;
  pthread_once(&names_once, make_names);
  JSStringRef key = name[0] == 'e' ? name_encode : strcmp(name, "decode") == 0 ? name_decode : name_decode_in;
  JSValueRef fn = JSObjectGetProperty(rt->ctx, codec, key, NULL);
  if (!JSValueIsObject(rt->ctx, fn)) return NULL;
  js_conv *saved = cur;
  cur = conv;
  JSValueRef r = JSObjectCallAsFunction(rt->ctx, (JSObjectRef)fn, codec, argc, argv, exc);
  cur = saved;
  return r;
}

/* Writes v into out (emptied first) with the JS writer; same contract as
 * strait__codec_write. Inside the gate. */
int strait_value_encode(strait_runtime *rt, JSValueRef v, strait_buffer *out, unsigned flags,
                        const strait_value_hooks *hooks, strait_value_error *err,
                        JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  js_conv conv = {hooks, flags};
  JSValueRef exc = NULL;
  JSValueRef args[3] = {v, JSValueMakeNumber(ctx, flags), JSValueMakeBoolean(ctx, hooks != NULL)};
  err->status = 0;
  err->offset = 0;
  err->msg[0] = 0;
  out->len = 0;
  JSValueRef r = call_codec(rt, NULL, "encode", 3, args, &conv, &exc);
  if (!r) {
    err->status = STRAIT_EJS;
    snprintf(err->msg, sizeof err->msg, "JavaScript exception while converting a value");
    if (exception) *exception = exc;
    return STRAIT_EJS;
  }
  if (JSValueIsString(ctx, r)) {
    char *m = strait_utf8_from_value(ctx, r, NULL);
    err->status = STRAIT_ETYPE;
    snprintf(err->msg, sizeof err->msg, "%s", m ? m : "cannot convert a value");
    free(m);
    return STRAIT_ETYPE;
  }
  const uint8_t *p = JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)r, NULL);
  if (!p) {
    err->status = STRAIT_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "no bytes from the JS writer");
    return STRAIT_ENOMEM;
  }
  uint32_t vlen;
  memcpy(&vlen, p + 4, 4);
  size_t n = (size_t)vlen + STRAIT_V_HEADER;
  if (!strait__vbuf_need(out, n)) {
    err->status = STRAIT_ENOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory for a value of %zu bytes", n);
    return STRAIT_ENOMEM;
  }
  memcpy(out->data, p, n);
  out->len = n;
  return 0;
}

/* Deallocator of ArrayBuffers lent over the caller's memory: nothing to free. */
static void lent_dealloc(void *bytes, void *ctx) {
  (void)bytes;
  (void)ctx;
}

/* Validates buf (as strait__codec_validate) and sets *latin_end to the end
 * offset of the last Latin-1 string of two or more characters (value or
 * key; 0 if none): the reader's substrings come from a string of the
 * buffer's bytes up to there. Any thread (pure C). */
static int validate_scan(const uint8_t *buf, size_t size, strait_value_error *err, size_t *latin_end) {
  strait__vparser ps;
  strait__vev ev;
  size_t end = 0;
  int rc = strait__vparser_init(&ps, buf, size, err);
  while (!rc) {
    rc = strait__vparser_next(&ps, &ev, err);
    if (rc || ev.type == STRAIT_VEV_DONE) break;
    bool latin = (ev.type == STRAIT_VEV_VALUE && ev.tag == STRAIT_V_STRING8) ||
                 (ev.type == STRAIT_VEV_KEY && !ev.kind);
    if (latin && ev.len >= 2 && (size_t)(ev.data - buf) + ev.len > end) end = (size_t)(ev.data - buf) + ev.len;
  }
  strait__vparser_free(&ps);
  *latin_end = end;
  return rc;
}

/* Reads buf with the JS reader after validating it in C; same contract as
 * strait__codec_read. The bytes are lent to JS for the call only (the
 * reader copies what it keeps). Inside the gate. */
int strait_value_decode(strait_runtime *rt, const uint8_t *buf, size_t size,
                        const strait_value_hooks *hooks, JSValueRef *result,
                        strait_value_error *err, JSValueRef *exception) {
  JSContextRef ctx = rt->ctx;
  size_t latin_end;
  int rc = validate_scan(buf, size, err, &latin_end);
  if (rc) return rc;
  err->status = 0;
  err->msg[0] = 0;
  JSValueRef exc = NULL, r = NULL;
  JSValueRef big = latin_end ? bytes_string(ctx, buf, latin_end, &exc) : JSValueMakeNull(ctx);
  js_conv conv = {hooks, 0};
  JSObjectRef codec = reading ? NULL : codec_object(rt, &exc);
  JSValueRef in = codec ? JSObjectGetProperty(ctx, codec, name_in_ab, NULL) : NULL;
  uint8_t *inp = in && JSValueIsObject(ctx, in) ? JSObjectGetArrayBufferBytesPtr(ctx, (JSObjectRef)in, NULL) : NULL;
  reading++;
  if (!big) {
    /* out of memory: exc is set */
  } else if (inp && size <= JSObjectGetArrayBufferByteLength(ctx, (JSObjectRef)in, NULL)) {
    /* small value, outermost read: copy into the runtime's input buffer */
    memcpy(inp, buf, size);
    JSValueRef args[2] = {JSValueMakeNumber(ctx, (double)size), big};
    r = call_codec(rt, codec, "decodeIn", 2, args, &conv, &exc);
  } else if (!exc) {
    JSObjectRef ab = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, (void *)buf, size, lent_dealloc, NULL, &exc);
    if (ab) {
      JSValueRef args[3] = {ab, JSValueMakeNumber(ctx, (double)size), big};
      r = call_codec(rt, codec, "decode", 3, args, &conv, &exc);
    }
  }
  reading--;
  if (!r) {
    err->status = STRAIT_EJS;
    snprintf(err->msg, sizeof err->msg, "JavaScript exception while creating a value");
    if (exception) *exception = exc;
    return STRAIT_EJS;
  }
  *result = r;
  return 0;
}

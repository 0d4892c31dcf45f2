/* value.c - small helpers over JSC strings, properties and errors (the
 * public ones of strait.h and value.h's). */
#include "value.h"
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decodes UTF-8 into UTF-16; invalid sequences become U+FFFD. Returns the
 * number of UTF-16 units written to out (which holds len units). */
static size_t utf8_to_utf16(const unsigned char *s, size_t len, JSChar *out) {
  size_t i = 0, n = 0;
  while (i < len) {
    unsigned c = s[i];
    uint32_t cp;
    size_t need;
    if (c < 0x80) { out[n++] = (JSChar)c; i++; continue; }
    if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
    else { out[n++] = 0xFFFD; i++; continue; }
    if (i + need >= len) { out[n++] = 0xFFFD; i++; continue; }
    size_t k;
    for (k = 1; k <= need; k++) {
      unsigned cc = s[i + k];
      if ((cc & 0xC0) != 0x80) break;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (k <= need || (need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      out[n++] = 0xFFFD; i++; continue;
    }
    i += need + 1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out[n++] = (JSChar)(0xD800 + (cp >> 10));
      out[n++] = (JSChar)(0xDC00 + (cp & 0x3FF));
    } else {
      out[n++] = (JSChar)cp;
    }
  }
  return n;
}

/* UTF-8 -> JSStringRef; the caller releases it. Any thread. */
JSStringRef strait_jsstring_from_utf8(const char *s, size_t len) {
  JSChar stackbuf[256];
  if (len == 0) return JSStringCreateWithCharacters(NULL, 0);
  JSChar *buf = len <= 256 ? stackbuf : malloc(len * sizeof(JSChar));
  if (!buf) return NULL;
  size_t n = utf8_to_utf16((const unsigned char *)s, len, buf);
  JSStringRef r = JSStringCreateWithCharacters(buf, n);
  if (buf != stackbuf) free(buf);
  return r;
}

/* JSStringRef -> malloc'd NUL-terminated UTF-8; lone surrogates become
 * U+FFFD. *len_out (may be NULL) gets the length without the NUL. */
char *strait_utf8_from_jsstring(JSStringRef str, size_t *len_out) {
  size_t n = JSStringGetLength(str);
  const JSChar *u = JSStringGetCharactersPtr(str);
  char *out = malloc(n * 3 + 1);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t c = u[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (u[i + 1] - 0xDC00);
      i++;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      c = 0xFFFD;
    }
    if (c < 0x80) out[o++] = (char)c;
    else if (c < 0x800) { out[o++] = (char)(0xC0 | (c >> 6)); out[o++] = (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) {
      out[o++] = (char)(0xE0 | (c >> 12)); out[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
      out[o++] = (char)(0x80 | (c & 0x3F));
    } else {
      out[o++] = (char)(0xF0 | (c >> 18)); out[o++] = (char)(0x80 | ((c >> 12) & 0x3F));
      out[o++] = (char)(0x80 | ((c >> 6) & 0x3F)); out[o++] = (char)(0x80 | (c & 0x3F));
    }
  }
  out[o] = 0;
  if (len_out) *len_out = o;
  return out;
}

/* ToString(v) as malloc'd UTF-8, NULL if it threw. Inside the gate. */
char *strait_utf8_from_value(JSContextRef ctx, JSValueRef v, size_t *len_out) {
  JSValueRef exc = NULL;
  JSStringRef s = JSValueToStringCopy(ctx, v, &exc);
  if (!s) return NULL;
  char *r = strait_utf8_from_jsstring(s, len_out);
  JSStringRelease(s);
  return r;
}

/* obj[name] = native function (non-enumerable). Inside the gate. */
JSObjectRef strait_set_function(JSContextRef ctx, JSObjectRef obj, const char *name,
                                 JSObjectCallAsFunctionCallback fn) {
  JSStringRef n = JSStringCreateWithUTF8CString(name);
  JSObjectRef f = JSObjectMakeFunctionWithCallback(ctx, n, fn);
  JSObjectSetProperty(ctx, obj, n, f, kJSPropertyAttributeDontEnum, NULL);
  JSStringRelease(n);
  return f;
}

/* obj[name] = v with attrs. Inside the gate. */
void strait_set_property(JSContextRef ctx, JSObjectRef obj, const char *name,
                       JSValueRef v, JSPropertyAttributes attrs) {
  JSStringRef n = JSStringCreateWithUTF8CString(name);
  JSObjectSetProperty(ctx, obj, n, v, attrs, NULL);
  JSStringRelease(n);
}

/* obj[name], or undefined if the getter threw. Inside the gate. */
JSValueRef strait_get_property(JSContextRef ctx, JSObjectRef obj, const char *name) {
  JSStringRef n = JSStringCreateWithUTF8CString(name);
  JSValueRef r = JSObjectGetProperty(ctx, obj, n, NULL);
  JSStringRelease(n);
  return r;
}

/* new <ctor>(formatted message), e.g. ctor "TypeError". Inside the gate. */
JSValueRef strait_make_error(JSContextRef ctx, const char *ctor, const char *fmt, ...) {
  char stackbuf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(stackbuf, sizeof stackbuf, fmt, ap);
  va_end(ap);
  char *msg = stackbuf;
  if (n >= (int)sizeof stackbuf) {
    msg = malloc((size_t)n + 1);
    if (!msg) { msg = stackbuf; }
    else { va_start(ap, fmt); vsnprintf(msg, (size_t)n + 1, fmt, ap); va_end(ap); }
  }
  JSStringRef m = strait_jsstring_from_utf8(msg, strlen(msg));
  if (msg != stackbuf) free(msg);
  JSValueRef arg = JSValueMakeString(ctx, m);
  JSStringRelease(m);
  /* A runtime's own context: the constructor captured when it was made,
   * never what a script assigned to globalThis[ctor] since. Another
   * context (no runtime in its global's slot): its global's property. */
  JSObjectRef c = NULL;
  JSObjectRef g = JSContextGetGlobalObject(ctx);
  strait_runtime *rt = strait__global_class_ref && JSValueIsObjectOfClass(ctx, g, strait__global_class_ref)
                           ? JSObjectGetPrivate(g) : NULL;
  if (rt) {
    for (size_t i = 0; i < sizeof rt->error_ctors / sizeof rt->error_ctors[0]; i++)
      if (strcmp(strait__error_ctor_names[i], ctor) == 0) c = rt->error_ctors[i];
  } else {
    JSValueRef ctorv = strait_get_property(ctx, g, ctor);
    c = JSValueIsObject(ctx, ctorv) ? (JSObjectRef)ctorv : NULL;
  }
  if (c) {
    JSObjectRef e = JSObjectCallAsConstructor(ctx, c, 1, &arg, NULL);
    if (e) return e;
  }
  return JSObjectMakeError(ctx, 1, &arg, NULL);
}

/* A JS string value from NUL-terminated UTF-8. Inside the gate. */
JSValueRef strait__string_value(JSContextRef ctx, const char *utf8) {
  JSStringRef s = strait_jsstring_from_utf8(utf8, strlen(utf8));
  JSValueRef v = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return v;
}

/* Calls obj[name](...) with obj as this (see value.h). Inside the gate. */
JSValueRef strait__call_method(JSContextRef ctx, JSObjectRef obj, const char *name,
                               size_t argc, const JSValueRef argv[], JSValueRef *exception) {
  if (exception) *exception = NULL;
  if (!obj) return NULL;
  JSValueRef f = strait_get_property(ctx, obj, name);
  if (!f || !JSValueIsObject(ctx, f) || !JSObjectIsFunction(ctx, (JSObjectRef)f))
    return NULL;
  /* JS that strait runs: the stay's checkpoint is due again (eval.c) */
  strait_runtime *rt = strait__runtime_of(ctx);
  if (rt) rt->checkpoint_clean = false;
  JSValueRef exc = NULL;
  JSValueRef r = JSObjectCallAsFunction(ctx, (JSObjectRef)f, obj, argc, argv, &exc);
  if (exc) {
    if (exception) *exception = exc;
    return NULL;
  }
  return r;
}

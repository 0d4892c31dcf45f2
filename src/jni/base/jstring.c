/*
 * jstring.c - strings between Java and JavaScriptCore. Both are UTF-16, so
 * they cross as UTF-16 code units, unchanged (NUL, supplementary characters
 * and lone surrogates included); modified UTF-8 is never used.
 */
#include "base/jni_base.h"

#include <stdlib.h>

/* New Java string with the UTF-16 units of s (the caller keeps s). NULL with
 * OutOfMemoryError pending. Any thread attached to the JVM. */
jstring strait__jstring_from_js(JNIEnv *env, JSStringRef s) {
  return (*env)->NewString(env, JSStringGetCharactersPtr(s), (jsize)JSStringGetLength(s));
}

/* New Java string from UTF-8 (invalid bytes become U+FFFD); NULL for a NULL
 * s. Any thread attached to the JVM. */
jstring strait__jstring_from_utf8(JNIEnv *env, const char *s, size_t len) {
  if (!s) return NULL;
  JSStringRef js = strait_jsstring_from_utf8(s, len);
  if (!js) {
    strait__throw(env, strait__jc.OutOfMemoryError, "strait: out of memory");
    return NULL;
  }
  jstring r = strait__jstring_from_js(env, js);
  JSStringRelease(js);
  return r;
}

/* New JSStringRef with the UTF-16 units of js; the caller releases it. NULL
 * for a NULL js, or with OutOfMemoryError pending. Any attached thread. */
JSStringRef strait__jsstring_from_java(JNIEnv *env, jstring js) {
  if (!js) return NULL;
  jsize n = (*env)->GetStringLength(env, js);
  JSChar stackbuf[256];
  JSChar *buf = n <= 256 ? stackbuf : malloc((size_t)n * sizeof(JSChar));
  if (!buf) {
    strait__throw(env, strait__jc.OutOfMemoryError, "strait: out of memory");
    return NULL;
  }
  (*env)->GetStringRegion(env, js, 0, n, buf);
  JSStringRef r = JSStringCreateWithCharacters(buf, (size_t)n);
  if (buf != stackbuf) free(buf);
  return r;
}

/*
 * jni_js.c - running the JNI layer's own JS (the .js files of src/jni/js,
 * compiled in by tools/embed as strait__jni_js): evaluated by name, under
 * the URL "strait:<name>", so stack traces name the file.
 */
#include "base/jni_base.h"

#include <stdio.h>

/* Evaluates embedded file name in ctx (see jni_base.h). Inside the gate. */
JSValueRef strait__jni_js_eval(JSContextRef ctx, const char *name, JSValueRef *exc) {
  const strait__js_source *js = strait__jni_js_find(name);
  if (!js) return NULL;
  char url[128];
  snprintf(url, sizeof url, "strait:%s", name);
  JSStringRef src = strait_jsstring_from_utf8(js->text, js->len);
  JSStringRef file = JSStringCreateWithUTF8CString(url);
  JSValueRef r = src ? JSEvaluateScript(ctx, src, NULL, file, 1, exc) : NULL;
  if (src) JSStringRelease(src);
  JSStringRelease(file);
  return r;
}

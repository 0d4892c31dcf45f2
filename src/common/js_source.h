/*
 * js_source.h - one JS file compiled into the library by tools/embed: the
 * type of every table the tool makes (the core's src/core/js, the JNI
 * layer's src/jni/js, the launcher's src/launcher/js; the generated files
 * define it themselves under the same guard, so they need no include
 * path), and the one way such a file is run.
 */
#ifndef STRAIT_JS_SOURCE_H
#define STRAIT_JS_SOURCE_H

#include <JavaScriptCore/JavaScript.h>
#include <stddef.h>
#include <stdio.h>

#ifndef STRAIT__JS_SOURCE_DEFINED
#define STRAIT__JS_SOURCE_DEFINED
typedef struct strait__js_source {
  const char *name;          /* file name, without its folder */
  const char *text;          /* UTF-8, NUL-terminated */
  size_t len;                /* bytes, without the NUL */
} strait__js_source;
#endif

/*
 * Evaluates js as a classic script in ctx under url (NULL: "strait:" and
 * the file's name, the URL stack traces show) and returns its completion
 * value. NULL with *exc set when the script threw; NULL with *exc left
 * alone when js is NULL (a name not in the table) or memory ran out.
 * Inside the gate of ctx's runtime.
 */
static inline JSValueRef strait__js_source_eval(JSContextRef ctx, const strait__js_source *js,
                                                const char *url, JSValueRef *exc) {
  if (!js) return NULL;
  char buf[128];
  if (!url) {
    snprintf(buf, sizeof buf, "strait:%s", js->name);
    url = buf;
  }
  JSStringRef src = JSStringCreateWithUTF8CString(js->text);
  JSStringRef u = JSStringCreateWithUTF8CString(url);
  JSValueRef r = src && u ? JSEvaluateScript(ctx, src, NULL, u, 1, exc) : NULL;
  if (src) JSStringRelease(src);
  if (u) JSStringRelease(u);
  return r;
}

#endif /* STRAIT_JS_SOURCE_H */

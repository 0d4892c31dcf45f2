/* eval.c - evaluating scripts in a runtime. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Evaluates UTF-16 source (see strait.h). Inside the gate. */
int strait_eval(strait_runtime *rt, const JSChar *src, size_t len,
                const char *file, JSValueRef *result, JSValueRef *exception) {
  if (result) *result = NULL;
  if (exception) *exception = NULL;
  if (!src && len) return STRAIT_EINVAL;
  JSStringRef s = JSStringCreateWithCharacters(src ? src : (const JSChar *)u"", len);
  JSStringRef url = file ? strait__jsstring_utf8(file, strlen(file)) : NULL;
  JSValueRef exc = NULL;
  JSValueRef r = JSEvaluateScript(rt->ctx, s, NULL, url, 1, &exc);
  JSStringRelease(s);
  if (url) JSStringRelease(url);
  if (rt->exiting) return STRAIT_EEXIT;
  if (!r || exc) {
    if (exception) *exception = exc ? exc : JSValueMakeUndefined(rt->ctx);
    return STRAIT_EJS;
  }
  if (result) *result = r;
  return 0;
}

/* Evaluates UTF-8 source (see strait.h). Inside the gate. */
int strait_eval_utf8(strait_runtime *rt, const char *src, size_t len,
                     const char *file, JSValueRef *result, JSValueRef *exception) {
  if (result) *result = NULL;
  if (exception) *exception = NULL;
  JSStringRef s = strait__jsstring_utf8(src ? src : "", src ? len : 0);
  if (!s) return STRAIT_ENOMEM;
  int rc = strait_eval(rt, JSStringGetCharactersPtr(s), JSStringGetLength(s), file,
                       result, exception);
  JSStringRelease(s);
  return rc;
}

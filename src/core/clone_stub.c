/* clone_stub.c - TEMPORARY JSON-based stand-in for helper A's clone.c (never merged). */
#include "clone.h"
#include <stdlib.h>
struct strait__clone { JSStringRef json; };
int strait__clone_capture(strait_runtime *rt, JSValueRef value, JSValueRef transfer,
                          const strait__clone_hooks *hooks, strait__clone **out, JSValueRef *exception) {
  JSContextRef ctx = strait_runtime_context(rt);
  if (JSValueIsUndefined(ctx, value)) value = JSValueMakeNull(ctx);
  JSStringRef s = JSValueCreateJSONString(ctx, value, 0, exception);
  if (!s) { if (!*exception) *exception = strait_make_error(ctx, "TypeError", "cannot clone"); return STRAIT_EJS; }
  *out = calloc(1, sizeof **out); (*out)->json = s; return 0;
}
int strait__clone_materialize(strait_runtime *rt, strait__clone *c, JSValueRef *result, JSValueRef *exception) {
  JSContextRef ctx = strait_runtime_context(rt);
  *result = JSValueMakeFromJSONString(ctx, c->json);
  if (!*result) *result = JSValueMakeNull(ctx);
  return 0;
}
void strait__clone_free(strait__clone *c) { if (!c) return; JSStringRelease(c->json); free(c); }
size_t strait__clone_bytes(const strait__clone *c) { return JSStringGetLength(c->json) * 2; }

/* clone_stub.c - TEMPORARY JSON-based stand-in for helper A's clone.c (never merged). */
#include "clone.h"
#include <stdlib.h>
#include <stdio.h>
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
int strait__clone_write_value(const strait__clone *c, strait_buffer *out, strait_value_error *err) {
  (void)c; (void)out; err->status = STRAIT_ETYPE; snprintf(err->msg, sizeof err->msg, "stub"); return STRAIT_ETYPE; }
int strait_clone_capture(strait_runtime *rt, JSValueRef v, JSValueRef transfer, strait_clone **out, JSValueRef *exception) {
  return strait__clone_capture(rt, v, transfer, NULL, (strait__clone **)out, exception); }
int strait_clone_materialize(strait_runtime *rt, strait_clone *c, JSValueRef *result, JSValueRef *exception) {
  return strait__clone_materialize(rt, (strait__clone *)c, result, exception); }
int strait_clone_write_value(const strait_clone *c, strait_buffer *out, strait_value_error *err) {
  return strait__clone_write_value((const strait__clone *)c, out, err); }
void strait_clone_free(strait_clone *c) { strait__clone_free((strait__clone *)c); }

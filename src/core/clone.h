/* clone.h - PLACEHOLDER of helper A's interface (replaced at merge). */
#ifndef STRAIT_CLONE_H
#define STRAIT_CLONE_H
#include "strait.h"
typedef struct strait__clone strait__clone;
typedef struct strait__clone_hooks {
  void *(*take)(strait_runtime *rt, JSObjectRef obj, bool commit);
  JSValueRef (*give)(strait_runtime *rt, void *token, JSValueRef *exception);
  void (*drop)(void *token);
} strait__clone_hooks;
int strait__clone_capture(strait_runtime *rt, JSValueRef value, JSValueRef transfer,
                          const strait__clone_hooks *hooks, strait__clone **out, JSValueRef *exception);
int strait__clone_materialize(strait_runtime *rt, strait__clone *c, JSValueRef *result,
                              JSValueRef *exception);
void strait__clone_free(strait__clone *c);
size_t strait__clone_bytes(const strait__clone *c);
int strait__clone_write_value(const strait__clone *c, strait_buffer *out, strait_value_error *err);
#endif

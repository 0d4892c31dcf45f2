/*
 * value.h - helpers over JSC strings, properties and errors (value.c). The
 * general ones are public (strait.h: strait_jsstring_from_utf8,
 * strait_utf8_from_jsstring, strait_utf8_from_value, strait_get_property,
 * strait_set_property, strait_set_function, strait_make_error); this header
 * adds the core's own.
 */
#ifndef STRAIT_VALUE_H
#define STRAIT_VALUE_H

#include "strait.h"


/* A JS string value from NUL-terminated UTF-8. Inside the gate. */
JSValueRef strait__string_value(JSContextRef ctx, const char *utf8);

/* Calls obj[name](args...) with obj as this. NULL with *exception set when
 * it threw; NULL with no exception when obj is NULL or obj[name] is not a
 * function. Inside the gate. */
JSValueRef strait__call_method(JSContextRef ctx, JSObjectRef obj, const char *name,
                               size_t argc, const JSValueRef argv[], JSValueRef *exception);

#endif /* STRAIT_VALUE_H */

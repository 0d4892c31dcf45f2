/*
 * value.h - helpers over JSC strings, properties and errors (value.c). The
 * general ones are public (strait.h: strait_jsstring_from_utf8,
 * strait_utf8_from_jsstring, strait_utf8_from_value, strait_get_property,
 * strait_set_property, strait_set_function, strait_make_error); this header
 * adds the core's own and keeps the names the core and the JNI layer used
 * before those were public (until the JNI layer uses the public ones).
 */
#ifndef STRAIT_VALUE_H
#define STRAIT_VALUE_H

#include "strait.h"

#define strait__jsstring_utf8 strait_jsstring_from_utf8
#define strait__utf8_from_jsstring strait_utf8_from_jsstring
#define strait__utf8_from_value strait_utf8_from_value
#define strait__get strait_get_property
#define strait__set_value strait_set_property
#define strait__set_function strait_set_function
#define strait__make_error strait_make_error

/* A JS string value from NUL-terminated UTF-8. Inside the gate. */
JSValueRef strait__string_value(JSContextRef ctx, const char *utf8);

/* Calls obj[name](args...) with obj as this. NULL with *exception set when
 * it threw; NULL with no exception when obj is NULL or obj[name] is not a
 * function. Inside the gate. */
JSValueRef strait__call_method(JSContextRef ctx, JSObjectRef obj, const char *name,
                               size_t argc, const JSValueRef argv[], JSValueRef *exception);

#endif /* STRAIT_VALUE_H */

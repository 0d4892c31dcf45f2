/*
 * js_source.h - one JS file compiled into the library by tools/embed: the
 * type of every table the tool makes (the core's src/core/js, the JNI
 * layer's src/jni/js). The generated files define it themselves under the
 * same guard, so they need no include path.
 */
#ifndef STRAIT_JS_SOURCE_H
#define STRAIT_JS_SOURCE_H

#include <stddef.h>

#ifndef STRAIT__JS_SOURCE_DEFINED
#define STRAIT__JS_SOURCE_DEFINED
typedef struct strait__js_source {
  const char *name;          /* file name, without its folder */
  const char *text;          /* UTF-8, NUL-terminated */
  size_t len;                /* bytes, without the NUL */
} strait__js_source;
#endif

#endif /* STRAIT_JS_SOURCE_H */

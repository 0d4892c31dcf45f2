/*
 * js_sources.h - the core's JS sources (the .js files of src/core/js), compiled into
 * the library by tools/embed (build/gen/js_sources.c), so it needs no files
 * at run time. The type is shared with any other table the tool makes
 * (embed -n), hence the guard.
 */
#ifndef STRAIT_JS_SOURCES_H
#define STRAIT_JS_SOURCES_H

#include "common/js_source.h"

extern const strait__js_source strait__js_sources[];
extern const size_t strait__js_sources_count;
/* The source named name, or NULL. Any thread. */
const strait__js_source *strait__js_sources_find(const char *name);

#endif /* STRAIT_JS_SOURCES_H */

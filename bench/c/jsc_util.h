/*
 * jsc_util.h - small JavaScriptCore helpers for the C benchmark programs.
 * All of them run on the thread that uses ctx.
 */
#ifndef STRAIT_BENCH_JSC_UTIL_H
#define STRAIT_BENCH_JSC_UTIL_H

#include <JavaScriptCore/JavaScript.h>
#include <stddef.h>

/* Exported by JavaScriptCore but declared only in its private headers. */
void JSLock(JSContextRef ctx);
void JSUnlock(JSContextRef ctx);

/* Evaluates UTF-8 source named file; on a JS exception prints it to stderr
 * and exits with status 1. Returns the completion value (unprotected). */
JSValueRef bu_eval(JSContextRef ctx, const char *src, const char *file);

/* The global function called name; exits with status 1 if there is none. */
JSObjectRef bu_global_function(JSContextRef ctx, const char *name);

/* Defines global name as a function backed by cb. */
void bu_define(JSContextRef ctx, const char *name, JSObjectCallAsFunctionCallback cb);

/* Installs console.log and print (both write their arguments, space
 * separated, and a newline to stdout). */
void bu_install_console(JSContextRef ctx);

/* Reads a whole file into a malloc'd NUL-terminated buffer (caller frees),
 * or NULL on error. */
char *bu_read_file(const char *path);

#endif /* STRAIT_BENCH_JSC_UTIL_H */

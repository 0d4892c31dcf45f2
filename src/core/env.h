/*
 * env.h - private declarations shared by the files that build the JS
 * environment (env.c, console.c, process.c, module.c, error.c). Each file
 * adds its native functions to the bootstrap's `native` object, which is
 * handed to the bootstrap scripts and never reachable from user code.
 */
#ifndef STRAIT_ENV_H
#define STRAIT_ENV_H

#include "internal.h"

/* Adds write(fd, string) and isatty(fd). Inside the gate. */
void strait__console_natives(JSContextRef ctx, JSObjectRef native);
/* Adds argv(), env(), cwd(), exit(code), pid(), hrtime(). Inside the gate. */
void strait__process_natives(JSContextRef ctx, JSObjectRef native);
/* Adds readFile(path), stat(path), realpath(path), compile(src, file).
 * Inside the gate. */
void strait__module_natives(JSContextRef ctx, JSObjectRef native);

/* Calls internal[name](args...) of the bootstrap. NULL with *exception set
 * when it threw, or NULL with no exception when the function is missing.
 * Inside the gate. */
JSValueRef strait__call_internal(strait_runtime *rt, const char *name, size_t argc,
                                 const JSValueRef argv[], JSValueRef *exception);

/* A JS string value from UTF-8. Inside the gate. */
JSValueRef strait__string_value(JSContextRef ctx, const char *utf8);

/* The object process.exit() throws to unwind the script when an embedder's
 * on_exit hook is installed (see process.c). Inside the gate. */
int strait__is_exit_signal(strait_runtime *rt, JSValueRef v);

#endif /* STRAIT_ENV_H */

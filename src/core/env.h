/*
 * env.h - the JS environment of a runtime: the bootstrap (env.c) and the
 * native helpers of console.c, process.c and module.c, the sink writes go
 * to (console.c) and the reports of uncaught errors (error.c). Each part
 * adds its native functions to the bootstrap's `native` object, which is
 * handed to the bootstrap scripts and never reachable from user code.
 */
#ifndef STRAIT_ENV_H
#define STRAIT_ENV_H

#include "runtime.h"
#include "value.h"

/*
 * Installs the JS environment (console, process, require, globalThis
 * helpers) from the bootstrap scripts compiled into the library. Inside the
 * gate, once per runtime, from strait_runtime_new().
 */
int strait__env_install(strait_runtime *rt, JSValueRef *exception);

/* Adds write(fd, string) and isatty(fd). Inside the gate. */
void strait__console_natives(JSContextRef ctx, JSObjectRef native);
/* Adds argv(), env(), cwd(), exit(code), pid(), hrtime(). Inside the gate. */
void strait__process_natives(JSContextRef ctx, JSObjectRef native);
/* Adds readFile(path), stat(path), realpath(path), compile(src, file).
 * Inside the gate. */
void strait__module_natives(JSContextRef ctx, JSObjectRef native);
/* How module.c opens files beneath a file root: 0 not probed yet, 1
 * openat2, 2 a walk of openat(O_NOFOLLOW) calls (no openat2 in the
 * kernel). The C tests set 2 to run the walk. Any thread. (module.c) */
extern _Atomic int strait__fs_open_how;

/* Writes through the runtime's sink (opts.write or fd). Returns 0 or the
 * errno of a failed write to the fd. Inside the gate. (console.c) */
int strait__write(strait_runtime *rt, int fd, const char *utf8, size_t len);
/* Writes all of the bytes to fd: retries EINTR and short writes, polls a
 * full non-blocking fd; EPIPE ends the process when rt has no on_exit hook.
 * Returns 0 or an errno. Inside the gate. (console.c) */
int strait__fd_write(strait_runtime *rt, int fd, const char *utf8, size_t len);

/* Evaluates the lazily loaded part name ("clone.js", "worker.js") of rt's
 * environment, and those it needs, once per runtime; 0 when it is there.
 * STRAIT_EJS with *exception when it threw. Inside the gate. (env.c) */
int strait__env_load(strait_runtime *rt, const char *name, JSValueRef *exception);

/* Reports an uncaught error via the sink, as strait_error_format().
 * Inside the gate. (error.c) */
void strait__report(strait_runtime *rt, JSValueRef exception);

/* The object process.exit() throws to unwind the script when an embedder's
 * on_exit hook is installed. Inside the gate. (process.c) */
int strait__is_exit_signal(strait_runtime *rt, JSValueRef v);

#endif /* STRAIT_ENV_H */

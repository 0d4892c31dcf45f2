/*
 * strait.h - public C API of the strait engine core.
 *
 * The core wraps JavaScriptCore (through its C API) and knows nothing of the
 * JVM. Layers above it (the JNI layer, the launcher) use only what is
 * declared here; everything named strait__* is internal.
 *
 * Threads: a strait_runtime may be used from any thread, but only by one
 * thread at a time. Every function below that touches the engine must be
 * called between strait_enter() and strait_leave() on the calling thread
 * (the runtime's admission gate), unless its comment says "any thread".
 * Nested enter/leave pairs on the thread already inside are cheap.
 *
 * Ownership: every *_new has its *_free; JSValueRefs returned through out
 * parameters are NOT protected: they are valid while the caller stays inside
 * the gate and keeps them reachable (on its C stack, which JSC scans).
 */
#ifndef STRAIT_H
#define STRAIT_H

#include <stddef.h>
#include <stdint.h>
#include <JavaScriptCore/JavaScript.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STRAIT_VERSION_MAJOR 0
#define STRAIT_VERSION_MINOR 1
#define STRAIT_VERSION_PATCH 0
#define STRAIT_VERSION "0.1.0"

/*
 * Status codes: 0 is success, every error is negative. This table is the one
 * place that names them; strait_err_name() and strait_strerror() read it.
 */
#define STRAIT_ERRNO_MAP(XX)                                   \
  XX(EJS,      -1, "JavaScript exception")                    \
  XX(ENOMEM,   -2, "out of memory")                           \
  XX(EINVAL,   -3, "invalid argument")                        \
  XX(ECLOSED,  -4, "runtime closed")                          \
  XX(EIO,      -5, "input/output error")                      \
  XX(ENOENT,   -6, "no such file or directory")               \
  XX(EBUSY,    -7, "runtime busy")                            \
  XX(EINTR,    -8, "interrupted")                             \
  XX(ETHREAD,  -9, "called from a thread outside the runtime") \
  XX(ECORRUPT, -10, "corrupt or truncated data")              \
  XX(ERANGE,   -11, "value out of range")                     \
  XX(ETYPE,    -12, "value of the wrong type")                \
  XX(EEXIT,    -13, "process.exit() was called")              \
  XX(EJAVA,    -14, "Java exception")

typedef enum strait_status {
  STRAIT_OK = 0,
#define STRAIT__XX(name, val, msg) STRAIT_##name = (val),
  STRAIT_ERRNO_MAP(STRAIT__XX)
#undef STRAIT__XX
} strait_status;

/* "EJS" for STRAIT_EJS; "UNKNOWN" for a code not in the table. Any thread. */
const char *strait_err_name(int status);
/* Human-readable message for a status code. Any thread. */
const char *strait_strerror(int status);

/* An engine instance: one JSC context group (its own heap), one global
 * context, one admission gate, one event loop. Opaque. */
typedef struct strait_runtime strait_runtime;

/*
 * Output sink for console.* and uncaught-error reports. fd is 1 (stdout) or
 * 2 (stderr); text is UTF-8, not NUL-terminated. Called on the thread that is
 * inside the runtime.
 */
typedef void (*strait_write_fn)(void *ud, int fd, const char *utf8, size_t len);

/*
 * Called when script calls process.exit(code). The default (NULL) flushes
 * stdio and calls exit(code). An embedder that must not die installs its own;
 * it runs once, then the running script is unwound by throwing a special
 * object (JSC's C API has no uncatchable exception, so a `catch` in script
 * can see it), and from then on strait_eval(), strait_run_main() and
 * strait_loop_run() return STRAIT_EEXIT; strait_exit_code() gives the code.
 */
typedef void (*strait_exit_fn)(void *ud, int code);

typedef struct strait_options {
  int argc;                 /* process.argv; copied, may be 0 */
  const char *const *argv;
  strait_write_fn write;    /* NULL: write to the process's fd 1 / fd 2 */
  void *write_ud;
  strait_exit_fn on_exit;   /* NULL: exit the process */
  void *exit_ud;
} strait_options;

/*
 * Creates a runtime. opts may be NULL. On success *out owns the runtime and
 * must be released with strait_runtime_free(). Any thread; the new runtime
 * is not entered.
 */
int strait_runtime_new(const strait_options *opts, strait_runtime **out);

/*
 * Releases the runtime and everything bound to it: the embedder's teardown
 * hook runs first (see strait_runtime_set_embedder), then timers, queued
 * tasks, and the JSC context group. The caller must not be inside the gate
 * on another thread; it may be inside on this thread (the gate is then
 * released). Waits for other threads inside the gate to leave.
 */
void strait_runtime_free(strait_runtime *rt);

/* The runtime's global context. Valid until strait_runtime_free(). */
JSGlobalContextRef strait_runtime_context(strait_runtime *rt);

/*
 * One slot for the layer above (the JNI layer). teardown runs once, from
 * strait_runtime_free(), inside the gate, before the engine goes away.
 * Inside the gate.
 */
void strait_runtime_set_embedder(strait_runtime *rt, void *data,
                                 void (*teardown)(strait_runtime *rt, void *data));
void *strait_runtime_embedder(strait_runtime *rt);

/* The runtime whose global context is ctx, or NULL. Inside the gate. */
strait_runtime *strait_runtime_from_context(JSContextRef ctx);

/*
 * Admission gate. strait_enter() blocks until the calling thread owns the
 * runtime (spinning briefly before it parks), then holds the JSC lock for
 * the whole stay. Re-entrant on the owning thread. Returns 0, or
 * STRAIT_ECLOSED if the runtime is being freed. Any thread.
 */
int strait_enter(strait_runtime *rt);
/* Leaves once; the last leave releases the runtime to the next waiter. */
void strait_leave(strait_runtime *rt);
/* Non-zero when the calling thread is inside rt's gate. Any thread. */
int strait_inside(strait_runtime *rt);

/*
 * Evaluates UTF-16 source as a classic script named file (UTF-8, may be
 * NULL). On success returns 0 and stores the completion value in *result
 * (may be NULL). On a JS exception returns STRAIT_EJS and stores the thrown
 * value in *exception (may be NULL). Inside the gate.
 */
int strait_eval(strait_runtime *rt, const JSChar *src, size_t len,
                const char *file, JSValueRef *result, JSValueRef *exception);

/* Same, with UTF-8 source (invalid sequences become U+FFFD). */
int strait_eval_utf8(strait_runtime *rt, const char *src, size_t len,
                     const char *file, JSValueRef *result, JSValueRef *exception);

/*
 * Loads path as the main CommonJS module (require.main), then returns.
 * STRAIT_ENOENT / STRAIT_EIO if the file cannot be read (nothing ran),
 * STRAIT_EJS with *exception set if the module threw. Inside the gate.
 */
int strait_run_main(strait_runtime *rt, const char *path, JSValueRef *exception);

/*
 * Runs the event loop until no timers, tasks or handles keep it alive, or
 * until strait_loop_stop(). Returns 0, or STRAIT_EJS with *exception set when
 * a callback threw and nothing handled it; that value stays protected until
 * the next strait_loop_run() or strait_runtime_free(), so the caller may
 * enter the gate again and report it. Enters and leaves the gate itself
 * around each callback, so other threads can get in between. Must be called
 * from outside the gate (one thread at a time runs the loop).
 */
int strait_loop_run(strait_runtime *rt, JSValueRef *exception);

/*
 * Posts fn(rt, data) to run on the loop, inside the gate, in FIFO order.
 * drop(data) runs instead if the runtime is freed first (may be NULL).
 * Wakes the loop. Any thread. STRAIT_ECLOSED if the runtime is closing.
 */
typedef void (*strait_task_fn)(strait_runtime *rt, void *data);
int strait_post(strait_runtime *rt, strait_task_fn fn, void *data,
                void (*drop)(void *data));

/* Keeps the loop alive while > 0 (a handle held by the embedder). Any thread. */
void strait_loop_ref(strait_runtime *rt);
void strait_loop_unref(strait_runtime *rt);

/*
 * Describes a thrown value: name ("Error", or the typeof of a non-object),
 * message, file, line, column (0 when unknown) and stack. Strings are UTF-8,
 * malloc'd, owned by the caller and released with strait_error_info_free().
 * Inside the gate.
 */
typedef struct strait_error_info {
  char *name;
  char *message;
  char *file;
  char *stack;
  int line;
  int column;
} strait_error_info;

int strait_error_describe(strait_runtime *rt, JSValueRef exception,
                          strait_error_info *out);
void strait_error_info_free(strait_error_info *info);

/*
 * Formats an uncaught exception the way the launcher prints it:
 * "FILE:LINE:COLUMN: Name: message\n<stack>\n". malloc'd UTF-8, caller frees.
 * Inside the gate.
 */
char *strait_error_format(strait_runtime *rt, JSValueRef exception);

/*
 * util.inspect(value) as Node prints it (what console.log shows for a
 * non-string), e.g. for the launcher's -p. *utf8_out is malloc'd, the caller
 * frees it. Returns 0 or STRAIT_ENOMEM. Inside the gate.
 */
int strait_inspect(strait_runtime *rt, JSValueRef value, char **utf8_out);

/*
 * The status the process should exit with once the script is done: the
 * code given to process.exit() when it ran (with an on_exit hook), else
 * process.exitCode when script set it to a number, else 0. Inside the gate.
 */
int strait_exit_code(strait_runtime *rt);

#ifdef __cplusplus
}
#endif
#endif /* STRAIT_H */

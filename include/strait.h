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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <JavaScriptCore/JavaScript.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * STRAIT_API marks what libstrait.so exports. The library is built with
 * -fvisibility=hidden, so a function without it (every strait__* one, every
 * static helper) stays inside the library.
 */
#if defined(__GNUC__) || defined(__clang__)
#define STRAIT_API __attribute__((visibility("default")))
#else
#define STRAIT_API
#endif

/* The version of this header. The file VERSION (repository root) is the
 * one place it is written; the build checks that these agree with it. */
#define STRAIT_VERSION_MAJOR 0
#define STRAIT_VERSION_MINOR 1
#define STRAIT_VERSION_PATCH 0
#define STRAIT_VERSION "0.1.0"

/* The version of the library loaded at run time ("MAJOR.MINOR.PATCH"),
 * which may differ from STRAIT_VERSION the caller was compiled with. Static
 * storage. Any thread. */
STRAIT_API const char *strait_version(void);

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
  XX(EJAVA,    -14, "Java exception")                         \
  XX(ETERM,    -15, "execution terminated by an interrupt")   \
  XX(ETIMEDOUT, -16, "execution time limit exceeded")         \
  XX(EHEAP,    -17, "heap limit exceeded")                    \
  XX(EDENIED,  -18, "not allowed by the runtime's policy")

typedef enum strait_status {
  STRAIT_OK = 0,
#define STRAIT__XX(name, val, msg) STRAIT_##name = (val),
  STRAIT_ERRNO_MAP(STRAIT__XX)
#undef STRAIT__XX
} strait_status;

/* "EJS" for STRAIT_EJS; "UNKNOWN" for a code not in the table. Any thread. */
STRAIT_API const char *strait_err_name(int status);
/* Human-readable message for a status code. Any thread. */
STRAIT_API const char *strait_strerror(int status);

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

/*
 * Options of strait_runtime_new(). Zero-initialize it (or use a designated
 * initializer) and set what you need: every member's zero value is its
 * default, and members are only ever added at the end with that rule, so a
 * caller that names only the members it knows keeps working.
 */
typedef struct strait_options {
  int argc;                 /* process.argv; copied, may be 0 */
  const char *const *argv;
  strait_write_fn write;    /* NULL: write to the process's fd 1 / fd 2 */
  void *write_ud;
  strait_exit_fn on_exit;   /* NULL: exit the process */
  void *exit_ud;
  /* The admission gate (docs/design.md, "Threads: the gate"). 0 takes the
   * environment variable (STRAIT_GATE_SPIN_US, STRAIT_GATE_TAKEOVER_US) or
   * else the default (50 us, 1000 us). */
  long gate_spin_us;        /* a waiter's spin before it parks; <0: park at once */
  long gate_takeover_us;    /* a suspended owner's grace before a waiter takes
                               the gate over; <0: at once */
  /* Limits (docs/sandbox.md). 0: none. A negative value is refused
   * (STRAIT_EINVAL). */
  int64_t time_limit_us;    /* wall time of one entry (an eval, a call from
                               the embedder, one loop task) before it is
                               terminated with STRAIT_ETIMEDOUT */
  int64_t heap_limit;       /* bytes of the runtime's JS heap (objects and
                               their external memory, e.g. ArrayBuffers)
                               before the running entry is terminated with
                               STRAIT_EHEAP. Checked at the watchdog's tick
                               when the process's RSS grew by limit/8 (4-32
                               MB) since the last check; live data after a
                               full collection counts. Strings' character
                               storage is outside JSC's count, so string-
                               heavy data overshoots (docs/sandbox.md).
                               After an EHEAP stay the runtime collects: if
                               live data is back under the limit it is
                               usable, else strait_eval, strait_run_main and
                               strait_loop_run refuse with STRAIT_EHEAP and
                               a RangeError "heap limit exceeded: ... over
                               its heap limit of N bytes ..." (JS run by
                               other means is terminated at once) */
  /* What script may reach of the process (docs/sandbox.md): STRAIT_DENY_*
   * bits. 0 allows everything (the launcher's default). */
  unsigned deny;
  /* With STRAIT_DENY_FS clear: NULL lets require() read any file; a
   * directory restricts it to files under that directory (after resolving
   * symbolic links), the main module of strait_run_main too; a file outside
   * throws an Error with code ERR_ACCESS_DENIED. A root that does not exist
   * is STRAIT_ENOENT, one that is not a directory (or "") STRAIT_EINVAL.
   * Copied. */
  const char *fs_root;
  /* Characters (UTF-16 code units) of one source text the runtime compiles
   * (strait_eval, strait_run_main and the modules require() loads, worker
   * scripts): the engine's parser cannot be stopped, so a stop waits for
   * the parse of the source being compiled, and a larger one is a
   * RangeError before it starts (docs/sandbox.md, "Limits"). 0: 8 Mi
   * characters when time_limit_us is set, else none; -1: none; other
   * negative values are refused (STRAIT_EINVAL). */
  int64_t max_source;
} strait_options;

/* Bits of strait_options.deny. */
#define STRAIT_DENY_ENV  1u  /* process.env is an empty object */
#define STRAIT_DENY_FS   2u  /* require() of a file or directory throws (built-in
                                modules still load) */
#define STRAIT_DENY_EXIT 4u  /* process.exit() throws an Error and the runtime
                                goes on */
#define STRAIT_DENY_WORKERS 8u /* new Worker() throws an Error (code
                                ERR_ACCESS_DENIED): a worker is a thread */

/*
 * Stops the JS running in rt as soon as the engine checks (within about
 * 10 ms): an uncatchable termination (`catch` and `finally` blocks do not
 * run JS again), after which the entry that was running returns
 * STRAIT_ETERM (strait_eval, strait_run_main, strait_loop_run) and the
 * runtime is usable again. Applies to the entry running when it is called
 * (and to a strait_loop_run() under way, also while it waits for timers:
 * it returns STRAIT_ETERM, with *exception NULL when no callback ran); a
 * no-op when nothing runs. It stays in force until the outermost entry of
 * that stay returns. Noticed at the watchdog's 10 ms tick, which runs only
 * while JS runs in one VM entry: JS split into many entries shorter than
 * the tick (a caller looping over short calls) is not stopped. Any thread,
 * including a signal handler (async-signal-safe). Returns 0, STRAIT_EINVAL
 * (rt NULL) or STRAIT_ECLOSED.
 */
STRAIT_API int strait_interrupt(strait_runtime *rt);

/*
 * time_limit_us: checked at the same tick (armed with min(10 ms, time
 * left)), so an entry ends within about 10 ms after its limit. Nested
 * entries (JS -> native -> strait_eval) share the outer entry's deadline;
 * each loop callback (task, timer) gets its own.
 *
 * Why the JS exception the caller just got is a termination: STRAIT_ETERM
 * (strait_interrupt or the embedder's poll), STRAIT_ETIMEDOUT,
 * STRAIT_EHEAP; 0 when it is an ordinary exception. For layers that call
 * JSC themselves (JSObjectCallAsFunction) inside an entry. Stays set until
 * the outermost entry of the stay returns. Inside the gate.
 */
STRAIT_API int strait_terminating(strait_runtime *rt);

/*
 * For a host callback of rt's JS (a JSC callback the layer above made),
 * after a host call returned and before one starts: when the running stay
 * must stop (an interrupt came since it began, its time limit passed, or
 * the heap is refused), marks it terminated and makes the engine's
 * termination pending, so that the callback's return into JS unwinds every
 * JS frame up to the outermost entry with no `catch`, `finally` or wasm
 * handler running; returns the reason (STRAIT_ETERM, STRAIT_ETIMEDOUT,
 * STRAIT_EHEAP). The callback must then return at once (NULL, leaving
 * *exception alone) and make no further JSC call that could run JS or
 * report an exception: such a call would take the termination for its own
 * exception. Returns 0 when the stay goes on. An atomic load and, under a
 * time limit, one clock read. Inside the gate, on the thread running JS.
 */
STRAIT_API int strait_check_stop(strait_runtime *rt);

/*
 * A stop that comes while rt's JS waits in a host call (a callback that
 * suspended the gate around a call into Java or the embedder) takes effect
 * when the call returns (strait_check_stop). To end the wait itself, the
 * layer above gives a hook that wakes such a call (the JNI layer
 * interrupts the Java thread); the core calls it:
 *   - from strait_wake_waiting(), which an interrupt or close path calls
 *     after strait_interrupt();
 *   - from its watcher thread (one per process, started with the first
 *     runtime that has a time limit and a hook), once per suspension, when
 *     the time limit of the waiting stay passes.
 * The hook runs on either of those threads, under the core's lock of the
 * watched runtimes (it must be short and must not enter rt's gate), never
 * after strait_runtime_free() began tearing rt down. NULL removes it.
 * Inside the gate.
 */
STRAIT_API void strait_set_wait_hook(strait_runtime *rt, void (*hook)(strait_runtime *rt, void *ud),
                                     void *ud);
/* Calls rt's wait hook when its JS waits in a host call now; 1 if it did.
 * Any thread but the one rt's JS runs on, outside rt's gate (not from a
 * signal handler). */
STRAIT_API int strait_wake_waiting(strait_runtime *rt);

/*
 * Terminates every worker rt started, as their terminate() does (their own
 * workers end with them): for an interrupt that stops the script's work on
 * every thread. Returns at once; each worker's thread ends and its parent
 * gets its exit event. Any thread but a worker's own, outside rt's gate or
 * inside it; not from a signal handler.
 */
STRAIT_API void strait_terminate_workers(strait_runtime *rt);

/*
 * How many milliseconds rt's running stay is past a stop that has not
 * taken effect yet (its time limit passed, or an interrupt came, and it
 * still runs: the engine does not stop some long native operations, nor
 * Java code busy in a loop); 0 when nothing runs or nothing is overdue.
 * For a backstop that must end the work otherwise (the launcher ends the
 * process). Any thread, without the gate (an approximate answer).
 */
STRAIT_API int64_t strait_stop_overdue_ms(strait_runtime *rt);

/*
 * A poll of the embedder, asked on the thread running JS at each watchdog
 * tick (about every 10 ms while JS runs), and every 10 ms on the thread of
 * a strait_loop_run() that waits idle (outside the gate): a non-zero answer
 * terminates the running entry, or ends the loop's run, as
 * strait_interrupt() does (e.g. the JNI layer asks whether the Java thread
 * was interrupted). NULL removes it. Inside the gate.
 */
STRAIT_API void strait_set_interrupt_poll(strait_runtime *rt, int (*poll)(void *ud), void *ud);

/*
 * Heap use of rt's JS heap in bytes (what heap_limit is compared with).
 * Inside the gate.
 */
STRAIT_API int64_t strait_heap_size(strait_runtime *rt);

/*
 * Creates a runtime. opts may be NULL. On success *out owns the runtime and
 * must be released with strait_runtime_free(). Any thread; the new runtime
 * is not entered.
 */
STRAIT_API int strait_runtime_new(const strait_options *opts, strait_runtime **out);

/*
 * Releases the runtime and everything bound to it: the embedder's teardown
 * hook runs first (see strait_runtime_set_embedder), then timers, queued
 * tasks, and the JSC context group. The caller must not be inside the gate
 * on another thread; it may be inside on this thread (the gate is then
 * released). Waits for other threads inside the gate to leave.
 */
STRAIT_API void strait_runtime_free(strait_runtime *rt);

/* The runtime's global context. Valid until strait_runtime_free(). */
STRAIT_API JSGlobalContextRef strait_runtime_context(strait_runtime *rt);

/*
 * One slot for the layer above (the JNI layer). teardown runs once, from
 * strait_runtime_free(), inside the gate, before the engine goes away.
 * Inside the gate.
 */
STRAIT_API void strait_runtime_set_embedder(strait_runtime *rt, void *data,
                                 void (*teardown)(strait_runtime *rt, void *data));
STRAIT_API void *strait_runtime_embedder(strait_runtime *rt);

/* The runtime whose global context is ctx, or NULL. Inside the gate. */
STRAIT_API strait_runtime *strait_runtime_from_context(JSContextRef ctx);

/*
 * Admission gate. strait_enter() blocks until the calling thread owns the
 * runtime (spinning briefly before it parks), then holds the JSC lock for
 * the whole stay. Re-entrant on the owning thread. Returns 0, or
 * STRAIT_ECLOSED if the runtime is being freed. Any thread.
 */
STRAIT_API int strait_enter(strait_runtime *rt);
/*
 * Leaves once; the last leave of a stay releases the runtime to the next
 * waiter. That last leave first runs the promise jobs the stay queued (a
 * microtask checkpoint, under the stay's time limit and interrupts; a
 * terminated stay drops them). Returns the stay's termination reason
 * (STRAIT_ETERM, STRAIT_ETIMEDOUT, STRAIT_EHEAP) when the stay that this
 * leave ended was terminated, its promise jobs included, else 0: a caller
 * whose work succeeded reports the stop when its jobs were stopped.
 */
STRAIT_API int strait_leave(strait_runtime *rt);
/*
 * A microtask checkpoint now, at the outermost level of the caller's stay
 * (not from a host callback of rt's JS, where it does nothing): runs the
 * promise jobs queued so far under the stay's time limit and interrupts
 * (a loop of jobs is stopped as any JS is), or drops them when the stay is
 * being terminated or rt closes. Returns the stay's termination reason
 * after it, or 0. strait_leave() holds one itself; call this where the
 * outcome of the jobs belongs to the work just done (after strait_eval or
 * a call, before reporting success). Inside the gate.
 */
STRAIT_API int strait_checkpoint(strait_runtime *rt);
/*
 * Calls f with this (NULL: undefined), or constructs with f when construct
 * is non-zero. At the outermost level of the caller's stay it goes through
 * the runtime's trampoline, which holds the stay's checkpoint inside the
 * call's own VM entry (one outermost entry instead of two: about 0.7 us
 * less here), and the stay's last leave then holds none; elsewhere it is a
 * plain JSObjectCallAsFunction / JSObjectCallAsConstructor. strait_eval()
 * goes the same way. A caller that runs more JS with the C API afterwards
 * in the same stay holds strait_checkpoint() itself. Returns the result, or
 * NULL with *exception set (exception may be NULL). Inside the gate.
 */
STRAIT_API JSValueRef strait_call(strait_runtime *rt, JSObjectRef f, JSObjectRef self, int construct,
                                  size_t argc, const JSValueRef argv[], JSValueRef *exception);
/* Non-zero when the calling thread is inside rt's gate. Any thread. */
STRAIT_API int strait_inside(strait_runtime *rt);
/*
 * The runtime's crossing counter: a count that grows by one whenever code
 * other than this runtime's JS may have run since its JS last ran: at
 * every strait_enter() and every resume after a suspension, and before
 * every loop task and timer callback. While it keeps its value, JS is all
 * that ran, so a host may cache what it read from its own data in JS (the
 * Java bridge caches windows of Java arrays and lists this way) and must
 * read again once it changes. A double, exact to 2^53: no value comes
 * back. Owned by rt, valid until strait_runtime_free(); read it inside the
 * gate only (the core writes it there). A host may hand it to JS as a
 * Float64Array over these 8 bytes.
 */
STRAIT_API const volatile double *strait_crossings(strait_runtime *rt);
/*
 * Moves the crossing counter on by one: the host changed, without a
 * crossing, data whose reads JS may hold in a cache keyed by the counter
 * (the Java bridge: a JS store into a Java array that backs an
 * Arrays.asList list). Inside rt's gate.
 */
STRAIT_API void strait_cross(strait_runtime *rt);
/*
 * The release hook, the counter's other side: fn(rt, ud) runs inside rt's
 * gate right before code other than rt's JS may run or see what JS left:
 * at every strait_gate_suspend() and strait_gate_suspend_unlocked(), at the
 * outermost strait_leave(), and at strait_cross(). The crossing counter
 * moves after each of them. A host that reads its data ahead of what JS has
 * used (the Java bridge takes a collection's elements in batches) puts its
 * state back where JS is before anything else can see or change the data.
 * fn must not enter JS; it runs on the thread that owns the gate, often
 * (every Java call), so it returns at once when it has nothing to do. NULL
 * removes it; one per runtime. Inside rt's gate.
 */
STRAIT_API void strait_set_release_hook(strait_runtime *rt, void (*fn)(strait_runtime *rt, void *ud),
                                        void *ud);

/*
 * strait_enter() whose parked wait wakes every 10 ms to ask give_up(ud)
 * (called with no lock held, e.g. "was this Java thread interrupted?") and
 * stops waiting when it answers non-zero (STRAIT_EINTR) or when the runtime
 * is closing (STRAIT_ECLOSED). The fast paths cost what strait_enter()
 * costs. Any thread.
 */
STRAIT_API int strait_enter_or_give_up(strait_runtime *rt, int (*give_up)(void *ud),
                                       void *ud);

/*
 * Sets the gate's spin budget of a live runtime (see
 * strait_options.gate_spin_us; 0 is no spin, <0 parks at once). Waiters
 * read it without a lock: a wait already under way may use the old one.
 * Any thread.
 */
STRAIT_API void strait_gate_set_spin(strait_runtime *rt, long spin_us);

/*
 * Suspending the gate while a native callback waits outside JS (the
 * deadlock rule: a thread holds the runtime only while it runs JS, never
 * while it waits, e.g. in Java). One suspension is a record the caller
 * keeps in its own stack frame from strait_gate_suspend() to
 * strait_gate_resume(); its contents are private to the core. Records nest
 * without limit, across runtimes too (A -> B -> A), and are resumed newest
 * first on each thread.
 */
typedef struct strait_suspension {
  uint64_t private_[8];
} strait_suspension;

/*
 * Suspends the gate lazily into *s: the thread keeps the runtime unless it
 * stays away past the takeover delay, when a waiter may take it over. The
 * owner only, inside a JSC callback (JSC has dropped its lock there). Does
 * not touch the JSC lock. Never fails.
 */
STRAIT_API void strait_gate_suspend(strait_runtime *rt, strait_suspension *s);
/*
 * Takes the gate back after strait_gate_suspend(rt, s) on the same thread,
 * waiting for it if it was taken over. Never fails, even while the runtime
 * closes: the thread must unwind its JS frames.
 */
STRAIT_API void strait_gate_resume(strait_runtime *rt, strait_suspension *s);
/*
 * Releases the gate at once (not lazily, not ordered), for a thread that
 * released the JSC lock itself with JSUnlock (outside any JSC callback, e.g.
 * a loop task that runs Java code); it calls JSLock again after
 * strait_gate_resume_unlocked(). Returns the ticket to pass to it. The
 * owner only.
 */
STRAIT_API int strait_gate_suspend_unlocked(strait_runtime *rt);
/* Takes the gate back after strait_gate_suspend_unlocked(). Never fails,
 * even while the runtime closes. */
STRAIT_API void strait_gate_resume_unlocked(strait_runtime *rt, int ticket);

/*
 * Evaluates UTF-16 source as a classic script named file (UTF-8, may be
 * NULL). On success returns 0 and stores the completion value in *result
 * (may be NULL). On a JS exception returns STRAIT_EJS and stores the thrown
 * value in *exception (may be NULL). At the outermost level of the caller's
 * stay the promise jobs the script queued run before it returns (a
 * microtask checkpoint, through the trampoline of strait_call): when they
 * are stopped it returns the termination's status, as for the script
 * itself. Inside the gate.
 */
STRAIT_API int strait_eval(strait_runtime *rt, const JSChar *src, size_t len,
                const char *file, JSValueRef *result, JSValueRef *exception);

/* Same, with UTF-8 source (invalid sequences become U+FFFD). */
STRAIT_API int strait_eval_utf8(strait_runtime *rt, const char *src, size_t len,
                     const char *file, JSValueRef *result, JSValueRef *exception);

/*
 * Loads path as the main CommonJS module (require.main), then returns.
 * STRAIT_ENOENT / STRAIT_EIO if the file cannot be read (nothing ran),
 * STRAIT_EJS with *exception set if the module threw. Inside the gate.
 */
STRAIT_API int strait_run_main(strait_runtime *rt, const char *path, JSValueRef *exception);

/*
 * Runs the event loop until no timers, tasks or handles keep it alive, or
 * until strait_loop_stop(). Returns 0, or STRAIT_EJS with *exception set when
 * a callback threw and nothing handled it; that value stays protected until
 * the next strait_loop_run() or strait_runtime_free(), so the caller may
 * enter the gate again and report it. Enters and leaves the gate itself
 * around each callback, so other threads can get in between. Must be called
 * from outside the gate (one thread at a time runs the loop).
 */
STRAIT_API int strait_loop_run(strait_runtime *rt, JSValueRef *exception);

/*
 * Posts fn(rt, data) to run on the loop, inside the gate, in FIFO order.
 * drop(data) runs instead if the runtime is freed first (may be NULL).
 * Wakes the loop. Any thread. STRAIT_ECLOSED if the runtime is closing.
 */
typedef void (*strait_task_fn)(strait_runtime *rt, void *data);
STRAIT_API int strait_post(strait_runtime *rt, strait_task_fn fn, void *data,
                void (*drop)(void *data));

/* Keeps the loop alive while > 0 (a handle held by the embedder). Any thread. */
STRAIT_API void strait_loop_ref(strait_runtime *rt);
STRAIT_API void strait_loop_unref(strait_runtime *rt);

/*
 * Asks a running strait_loop_run() to return 0 after the callback it is
 * running, and wakes it if it waits. A stop with no loop running is kept
 * until strait_loop_run() starts, which clears it. Any thread.
 */
STRAIT_API void strait_loop_stop(strait_runtime *rt);

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

STRAIT_API int strait_error_describe(strait_runtime *rt, JSValueRef exception,
                          strait_error_info *out);
STRAIT_API void strait_error_info_free(strait_error_info *info);

/*
 * Formats an uncaught exception the way the launcher prints it:
 * "FILE:LINE:COLUMN: Name: message\n<stack>\n". malloc'd UTF-8, caller frees.
 * Inside the gate.
 */
STRAIT_API char *strait_error_format(strait_runtime *rt, JSValueRef exception);

/*
 * util.inspect(value) as Node prints it (what console.log shows for a
 * non-string), e.g. for the launcher's -p. *utf8_out is malloc'd, the caller
 * frees it. Returns 0 or STRAIT_ENOMEM. Inside the gate.
 */
STRAIT_API int strait_inspect(strait_runtime *rt, JSValueRef value, char **utf8_out);

/*
 * The status the process should exit with once the script is done: the
 * code given to process.exit() when it ran (with an on_exit hook), else
 * process.exitCode when script set it to a number, else 0. Inside the gate.
 */
STRAIT_API int strait_exit_code(strait_runtime *rt);

/*
 * Non-zero once script called process.exit() in a runtime with an on_exit
 * hook: the script is being unwound, and strait_eval(), strait_run_main()
 * and strait_loop_run() answer STRAIT_EEXIT from then on. A callback that
 * is about to run JS again should not. Inside the gate.
 */
STRAIT_API int strait_exiting(strait_runtime *rt);

/* ---- workers (docs/workers.md) ---------------------------------------------
 * Scripts start workers with `new Worker(file)` or require('worker_threads'):
 * each is a runtime of its own (its own JS heap) on its own thread, made
 * with its parent's options (limits, deny switches, fs_root, output sink),
 * that exchanges structured clones with its parent. Closing a runtime
 * terminates its workers and waits for their threads. */
typedef struct strait_worker_hooks {
  /* Runs on the worker's thread inside its gate, after the core's globals
   * and before its script (e.g. installs the Java bridge under the
   * parent's policy). A non-zero status (STRAIT_EJS with *exception set)
   * fails the worker: its parent gets an error event. May be NULL. */
  int (*init)(void *ud, strait_runtime *worker, JSValueRef *exception);
  /* Runs on the worker's thread after its runtime was freed, last (e.g.
   * detaches the thread from the JVM). May be NULL. */
  void (*fini)(void *ud);
  void *ud;                 /* shared by every worker of the tree; the
                               caller keeps it alive while any runs */
} strait_worker_hooks;

/*
 * Sets the hooks the workers of rt (and theirs, in turn) run; copied.
 * NULL clears them. Without hooks workers get the core's globals only.
 * Inside the gate.
 */
STRAIT_API void strait_set_worker_hooks(strait_runtime *rt, const strait_worker_hooks *hooks);

/*
 * Names what wakes a worker's thread when the worker is told to stop
 * (terminate(), its parent closing) while its JS waits in a host call, e.g.
 * a blocking Java call: the core's interrupt stops JS only when control
 * comes back to it. fn(data) runs on the thread that tells the worker to
 * stop, under the worker's lock (it must not wait for the worker or enter
 * any runtime), only while the worker's runtime exists, and at once when
 * the worker was already told to stop. release(data) (may be NULL) runs on
 * the worker's thread after its runtime was freed and before the fini
 * hook, or when a later call replaces fn. STRAIT_EINVAL when worker is not
 * a worker's runtime or fn is NULL. Worker's thread, inside its gate.
 */
STRAIT_API int strait_worker_on_stop(strait_runtime *worker, void (*fn)(void *data), void (*release)(void *data),
                                     void *data);

/* ---- JS values from C ---------------------------------------------------
 * Small helpers over JSC strings and properties. Strings in and out are
 * UTF-8; C strings returned are malloc'd and owned by the caller (free()).
 * Those with a ctx: inside the gate. */

/* UTF-8 -> a new JSStringRef (invalid sequences become U+FFFD); the caller
 * releases it (JSStringRelease). NULL when out of memory. Any thread. */
STRAIT_API JSStringRef strait_jsstring_from_utf8(const char *utf8, size_t len);
/* JSStringRef -> malloc'd NUL-terminated UTF-8 (lone surrogates become
 * U+FFFD), its length in *len_out (may be NULL). NULL when out of memory.
 * Any thread. */
STRAIT_API char *strait_utf8_from_jsstring(JSStringRef s, size_t *len_out);
/* ToString(v) as malloc'd UTF-8; NULL when ToString threw. Inside the gate. */
STRAIT_API char *strait_utf8_from_value(JSContextRef ctx, JSValueRef v, size_t *len_out);
/* obj[name] (name is UTF-8 without NUL), or undefined when a getter threw.
 * Inside the gate. */
STRAIT_API JSValueRef strait_get_property(JSContextRef ctx, JSObjectRef obj,
                                          const char *name);
/* obj[name] = v with attrs (kJSPropertyAttribute*). Inside the gate. */
STRAIT_API void strait_set_property(JSContextRef ctx, JSObjectRef obj, const char *name,
                                    JSValueRef v, JSPropertyAttributes attrs);
/* Makes a native function named name and stores it as obj[name]
 * (non-enumerable); returns it (not protected). Inside the gate. */
STRAIT_API JSObjectRef strait_set_function(JSContextRef ctx, JSObjectRef obj,
                                           const char *name,
                                           JSObjectCallAsFunctionCallback fn);
/* new ctor(message), e.g. ctor "TypeError", with a printf message. In a
 * runtime's context ctor is the intrinsic captured when the runtime was
 * made (Error, TypeError, RangeError, SyntaxError, ReferenceError), never
 * what a script assigned to the global since; in another context it is
 * globalThis[ctor]. A plain Error when there is no such constructor or it
 * threw. Not protected. Inside the gate. */
STRAIT_API JSValueRef strait_make_error(JSContextRef ctx, const char *ctor,
                                        const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- the value format (docs/value-format.md) -----------------------------
 * A JS value to bytes and back, as Java reads and writes them. */

/*
 * A growing output buffer. It starts on memory the caller lends (or
 * NULL/0) and moves to a malloc'd block when the value outgrows it;
 * `spilled` then says data is owned by the buffer, released with
 * strait_buffer_free(). `failed`: an allocation failed, the contents are
 * garbage. One thread at a time.
 */
typedef struct strait_buffer {
  uint8_t *data;
  size_t len, cap;
  bool spilled;
  bool failed;
} strait_buffer;

/* Starts an empty buffer on mem[0..cap) (lent, may be NULL/0). Any thread. */
STRAIT_API void strait_buffer_init(strait_buffer *b, uint8_t *mem, size_t cap);
/* Frees a spilled block (lent memory is left alone). Any thread. */
STRAIT_API void strait_buffer_free(strait_buffer *b);

/* What went wrong in a conversion: a status (STRAIT_E*), the byte offset
 * for corrupt input, and a message (for writes, it names the path:
 * "$.a[3]"). */
typedef struct strait_value_error {
  int status;
  size_t offset;
  char msg[256];
} strait_value_error;

/*
 * Hooks of the layer above (e.g. the JNI layer's object table). Every
 * member may be NULL. Called inside the gate, on the converting thread.
 */
typedef struct strait_value_hooks {
  void *ud;
  /* Write: if obj wraps a foreign (Java) object, store its id and return true. */
  bool (*java_id)(void *ud, JSContextRef ctx, JSObjectRef obj, uint32_t *id);
  /* Write, with STRAIT_VALUE_HANDLES: keep v and return its handle id
   * (0 and *ok=false on failure). */
  uint32_t (*js_handle)(void *ud, JSContextRef ctx, JSValueRef v, bool *ok);
  /* Read: the JS wrapper of foreign id, or NULL with *exception set. */
  JSValueRef (*java_value)(void *ud, JSContextRef ctx, uint32_t id, JSValueRef *exception);
  /* Read: the JS value of handle id, or NULL with *exception set. */
  JSValueRef (*js_value)(void *ud, JSContextRef ctx, uint32_t id, JSValueRef *exception);
  /* Read: an EXT value, or NULL with *exception set. */
  JSValueRef (*ext_value)(void *ud, JSContextRef ctx, uint32_t type, const uint8_t *data,
                          uint32_t len, JSValueRef *exception);
} strait_value_hooks;

/* Flags of strait_value_encode(). */
#define STRAIT_VALUE_HANDLES 1u   /* functions and symbols become JSREF via hooks->js_handle */
#define STRAIT_VALUE_NO_KEYREF 2u /* always write keys in full (test vectors) */

/*
 * Writes v (and everything it reaches) into out (emptied first) as one
 * value with its header. Returns 0; STRAIT_ETYPE (a function or symbol
 * without STRAIT_VALUE_HANDLES, path in err->msg); STRAIT_EJS when a getter
 * threw or a limit was passed (*exception set); STRAIT_ENOMEM; STRAIT_ERANGE
 * past 4 GiB. hooks may be NULL. Inside the gate.
 */
STRAIT_API int strait_value_encode(strait_runtime *rt, JSValueRef v, strait_buffer *out,
                                   unsigned flags, const strait_value_hooks *hooks,
                                   strait_value_error *err, JSValueRef *exception);
/*
 * Reads one value with its header from buf[0..size) into *result (not
 * protected). The bytes are validated first. Returns 0; STRAIT_ECORRUPT
 * (err filled); STRAIT_EJS when making a value threw (*exception set);
 * STRAIT_ENOMEM. hooks may be NULL. Inside the gate.
 */
STRAIT_API int strait_value_decode(strait_runtime *rt, const uint8_t *buf, size_t size,
                                   const strait_value_hooks *hooks, JSValueRef *result,
                                   strait_value_error *err, JSValueRef *exception);

/* ---- structured clones and message ports (docs/workers.md) ---------------
 * A structured clone (docs/clone.md) captured in one runtime can be made in
 * any runtime, on any thread: the way workers' messages travel. */
typedef struct strait_clone strait_clone;

/*
 * Captures v (and what it reaches) from rt, with transfer NULL or a JS
 * array of ArrayBuffers and MessagePorts to move instead of copying (they
 * are detached in rt). Returns 0 with *out owned by the caller;
 * STRAIT_EJS with *exception (a DataCloneError DOMException, a TypeError,
 * or what a getter threw; nothing was detached); STRAIT_ENOMEM. Inside
 * rt's gate.
 */
STRAIT_API int strait_clone_capture(strait_runtime *rt, JSValueRef v, JSValueRef transfer,
                                    strait_clone **out, JSValueRef *exception);
/*
 * Makes the captured value in rt (any runtime; at most once per clone:
 * transferred buffers and ports move into the result). *result is not
 * protected. Inside rt's gate.
 */
STRAIT_API int strait_clone_materialize(strait_runtime *rt, strait_clone *c, JSValueRef *result,
                                        JSValueRef *exception);
/*
 * Writes the captured value in the value format (docs/value-format.md), as
 * strait_value_encode would have written the original, without any JS
 * heap; what the format cannot hold (a RegExp, a MessagePort...) is
 * STRAIT_ETYPE with err->msg naming it. Any thread.
 */
STRAIT_API int strait_clone_write_value(const strait_clone *c, strait_buffer *out,
                                        strait_value_error *err);
/* Frees a clone (and what it still holds). NULL is a no-op. Any thread. */
STRAIT_API void strait_clone_free(strait_clone *c);

/*
 * One end of a message channel held by the embedder, whose other end is a
 * MessagePort of a runtime. Thread-safe; one owner frees it with
 * strait_port_free().
 */
typedef struct strait_port strait_port;

/*
 * Makes a channel: *js_port (not protected) is a MessagePort of rt whose
 * messages go to *out, and what *out posts arrives there (once the script
 * started the port: onmessage, start(), on('message')). *out is freed with
 * strait_port_free(). Inside rt's gate.
 */
STRAIT_API int strait_port_open(strait_runtime *rt, strait_port **out, JSValueRef *js_port);
/*
 * Posts a value given in the value format (buf[0..len), copied, validated
 * when the receiver reads it: a corrupt buffer is a messageerror there) to
 * the MessagePort. 0, or STRAIT_ECLOSED when the channel is closed (the
 * message is dropped, as on the web). Any thread.
 */
STRAIT_API int strait_port_post(strait_port *p, const uint8_t *buf, size_t len);
/*
 * Waits up to timeout_ms (<0: no limit, 0: no wait) for the next message
 * the MessagePort posted and writes it into out in the value format.
 * 0; STRAIT_ETIMEDOUT; STRAIT_ECLOSED when the channel is closed and no
 * message is left; STRAIT_ETYPE when the value does not fit the format
 * (err says why; the message is consumed). Any thread.
 */
STRAIT_API int strait_port_receive(strait_port *p, long timeout_ms, strait_buffer *out,
                                   strait_value_error *err);
/* Closes the channel (the MessagePort gets a close event) and wakes a
 * strait_port_receive() waiting on another thread (STRAIT_ECLOSED once no
 * message is left); p stays valid: later posts and receives answer
 * STRAIT_ECLOSED. Idempotent. Any thread, also while other calls on p are
 * in progress. */
STRAIT_API void strait_port_close(strait_port *p);
/* Closes p (as strait_port_close) and releases it: its memory goes when
 * the calls in progress on other threads have returned. Any thread; once;
 * no call on p may start after it. */
STRAIT_API void strait_port_free(strait_port *p);

#ifdef __cplusplus
}
#endif
#endif /* STRAIT_H */

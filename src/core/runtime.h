/*
 * runtime.h - the runtime object every part of the core works on: its JSC
 * context group and context, gate, loop and the state of the JS
 * environment. runtime.c creates and frees it. Private to the core.
 */
#ifndef STRAIT_RUNTIME_H
#define STRAIT_RUNTIME_H

#include "strait.h"
#include "gate.h"
#include "group.h"
#include "loop.h"
#include "watchdog.h"

struct strait_runtime {
  JSContextGroupRef group;
  JSGlobalContextRef ctx;
  strait__gate gate;
  strait__loop loop;
  strait__watch wd;          /* interrupt, time and heap limits (watchdog.c) */
  /* Grows by one whenever code other than this runtime's JS may have run
   * since its JS last ran: at every entry and resume of the gate (gate.c)
   * and before every loop task and timer (loop.c, timers.c). A double:
   * exact to 2^53, so no count comes back in a process's life (an int32
   * would come back after 2^32 crossings, minutes of calls). Written and
   * read inside the gate only; see strait_crossings(). */
  double crossings;
  /* the release hook (strait_set_release_hook): called by gate.c where
   * code other than this runtime's JS may run next. Inside the gate. */
  void (*release_hook)(strait_runtime *rt, void *ud);
  void *release_ud;
  strait_options opts;       /* argv deep-copied below; fs_root is NULL
                                (see fs_root) */
  char *fs_root;             /* realpath of opts.fs_root, malloc'd, or NULL */
  int64_t max_source;        /* characters of one source it compiles; 0: any
                                (opts.max_source resolved, eval.c) */
  char **argv;
  int argc;
  void *embedder;
  void (*embedder_teardown)(strait_runtime *, void *);
  JSObjectRef internal;      /* protected: the bootstrap's private object */
  JSObjectRef natives;       /* protected: the bootstrap's native object, for the
                                parts loaded on first use (env.c) */
  JSObjectRef drainer;       /* protected: the host function a checkpoint calls
                                to run the promise jobs (eval.c) */
  JSObjectRef trampoline;    /* protected: the host function an outermost eval
                                or call goes through, its checkpoint inside
                                its own VM entry (eval.c) */
  bool checkpoint_clean;     /* the queue was drained since the stay's last
                                JS that strait ran (eval.c); inside the gate */
  unsigned lazy_loaded;      /* bits of the parts loaded (env.c) */
  JSValueRef pending_error;  /* protected: uncaught error from a callback */
  JSValueRef returned_error; /* protected: the error strait_loop_run last returned */
  int exit_code;
  bool exiting;              /* process.exit() ran (embedded hook) */
  /* The error constructors of strait__error_ctor_names, captured from the
   * global object when the runtime is made (before any script), so that
   * strait_make_error never calls what a script put there. Protected until
   * the runtime is freed; NULL when absent. */
  JSObjectRef error_ctors[5];
  /* Workers and message ports (worker.c): NULL until the runtime makes its
   * first port or worker, or the worker record for a worker's runtime. */
  struct strait__workers *workers;
  /* Guards workers->children for threads outside the gate
   * (strait_terminate_workers); the gate's owner takes it to change the
   * list. Made and destroyed with the runtime. */
  pthread_mutex_t kids_mu;
  /* Transfer hooks of the clone engine (clone.h), set with workers. */
  const struct strait__clone_hooks *clone_hooks;
  /* protected: internal.clone once clone.js is loaded (clone.c); NULL before */
  JSObjectRef clone_api;
  /* Its membership in a group of loops (group.h): NULL, own_member (a
   * runtime that started workers), or its worker record's member. Set
   * inside the gate by the loop's own thread. */
  strait__member *member;
  strait__member own_member;
};

/* The default of strait_options.max_source under a time limit: 8 Mi
 * characters (parsed in about 0.3-0.8 s here, which bounds how late a stop
 * is during a parse). */
#define STRAIT__DEFAULT_MAX_SOURCE ((int64_t)8 << 20)

/* The class of every runtime's global object, set before the first
 * runtime's context is made (runtime.c); NULL until then. A context whose
 * global is of this class is a runtime's own. Read only. */
extern JSClassRef strait__global_class_ref;

/* The names of rt->error_ctors, in order. */
extern const char *const strait__error_ctor_names[5];

/* Called once per process before the first context group is created. */
void strait__jsc_init_once(void);

/* The runtime whose global context is ctx (the global object's private
 * slot holds it; see strait_runtime_from_context). Inline so that the
 * parts of the core find their runtime from a callback without calling
 * back into runtime.c. Inside the gate. */
static inline strait_runtime *strait__runtime_of(JSContextRef ctx) {
  return (strait_runtime *)JSObjectGetPrivate(JSContextGetGlobalObject(ctx));
}

#endif /* STRAIT_RUNTIME_H */

/*
 * main.c - entry point of the strait command. The primordial thread only
 * parses the command line; the run happens on a worker thread with a big
 * stack, because a JVM must not be created on the primordial thread (its
 * stack is not one HotSpot can guard) and deep JS recursion wants room.
 */
#include "launcher.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stack of the worker thread: JavaScriptCore sizes its recursion limit
 * from it, HotSpot puts its guard pages at its end. */
#define WORKER_STACK_BYTES (16u << 20)

typedef struct worker {
  const launch_args *args;
  int code;
} worker;

/* Body of the worker thread: the whole run. */
static void *worker_main(void *p) {
  worker *w = p;
  w->code = launch_run(w->args);
  return NULL;
}

/* Parses the command line, runs on the worker thread, exits with its
 * code. Primordial thread. */
int main(int argc, char **argv) {
  launch_args a;
  int rc = launch_parse(argc, argv, &a);
  if (rc != 0) { free(a.jvm_opts); return rc; }
  if (a.mode == MODE_HELP) { launch_usage(); free(a.jvm_opts); return 0; }
  if (a.mode == MODE_VERSION) { launch_version(); free(a.jvm_opts); return 0; }

  launch_sigint_install();
  worker w = {.args = &a, .code = LAUNCH_UNCAUGHT};
  pthread_attr_t attr;
  pthread_t tid;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, WORKER_STACK_BYTES);
  rc = pthread_create(&tid, &attr, worker_main, &w);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    fprintf(stderr, "strait: cannot start the main thread: %s\n", strerror(rc));
    free(a.jvm_opts);
    return LAUNCH_USAGE;
  }
  pthread_join(tid, NULL);
  free(a.jvm_opts);
  return w.code;
}

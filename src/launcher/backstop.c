/*
 * backstop.c - a run's stops hold even where the engine cannot stop the
 * script: while the run lasts, one thread wakes a Java call the script
 * waits in when Ctrl-C is pressed (the signal handler may only interrupt),
 * and ends the process when the script was told to stop and still runs
 * LAUNCH_BACKSTOP_MS later (a long native operation such as sorting tens of
 * millions of numbers, or Java code that never returns). The core's stops
 * end JS within a tick; this is for what they cannot reach.
 */
#include "launcher.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static pthread_t thread;
static atomic_bool running, started;
static strait_runtime *watched;      /* set before the thread starts */
static int64_t limit_us;

static void *backstop_main(void *unused) {
  (void)unused;
  while (atomic_load(&running)) {
    if (launch_sigint_wait(100)) strait_wake_waiting(watched);
    if (strait_stop_overdue_ms(watched) <= LAUNCH_BACKSTOP_MS) continue;
    char msg[160];
    int n;
    if (launch_sigint_seen())
      n = snprintf(msg, sizeof msg, "strait: interrupted\n");
    else
      n = snprintf(msg, sizeof msg,
                   "strait: time limit of %.10g ms exceeded (the script did not stop: the process ends)\n",
                   (double)limit_us / 1000.0);
    if (n > 0) launch_write(2, msg, (size_t)n);
    _exit(launch_sigint_seen() ? 130 : LAUNCH_UNCAUGHT);
  }
  return NULL;
}

int launch_backstop_start(strait_runtime *rt, int64_t time_limit_us) {
  watched = rt;
  limit_us = time_limit_us;
  atomic_store(&running, true);
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, 512 << 10);
  int rc = pthread_create(&thread, &a, backstop_main, NULL);
  pthread_attr_destroy(&a);
  atomic_store(&started, rc == 0);
  return rc;
}

void launch_backstop_stop(void) {
  if (!atomic_load(&started)) return;
  atomic_store(&running, false);
  pthread_join(thread, NULL);
  atomic_store(&started, false);
}

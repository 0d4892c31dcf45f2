/*
 * sigint.c - Ctrl-C in the strait command: the first SIGINT interrupts the
 * running script (strait_interrupt, async-signal-safe: one atomic add and
 * a futex wake), so the run ends with STRAIT_ETERM and the launcher exits
 * 130 after a one-line message; a second SIGINT exits at once with 130.
 * The handler is installed at start and again after the JVM starts
 * (HotSpot installs its own SIGINT handler, which would run the shutdown
 * hooks and exit without the script being told); -Xrs is not used, as it
 * would also take SIGQUIT thread dumps away.
 */
#include "launcher.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static _Atomic(strait_runtime *) target;
static atomic_int presses;
/* posted by the handler (sem_post is async-signal-safe): the backstop's
 * thread wakes a Java call the script waits in (launch_sigint_wait) */
static sem_t pressed;
static pthread_once_t pressed_once = PTHREAD_ONCE_INIT;
static void pressed_init(void) { sem_init(&pressed, 0, 0); }

static void on_sigint(int sig) {
  (void)sig;
  int n = atomic_fetch_add(&presses, 1);
  strait_runtime *rt = atomic_load(&target);
  if (n > 0 || !rt) {
    static const char msg[] = "\nstrait: interrupted\n";
    if (write(2, msg, sizeof msg - 1) < 0) {}
    _exit(130);
  }
  strait_interrupt(rt);
  sem_post(&pressed);
}

void launch_sigint_install(void) {
  pthread_once(&pressed_once, pressed_init);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, NULL);
}

void launch_sigint_target(strait_runtime *rt) { atomic_store(&target, rt); }

int launch_sigint_seen(void) { return atomic_load(&presses) > 0; }

int launch_sigint_wait(int ms) {
  pthread_once(&pressed_once, pressed_init);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  long ns = ts.tv_nsec + (long)ms * 1000000L;
  ts.tv_sec += ns / 1000000000L;
  ts.tv_nsec = ns % 1000000000L;
  while (sem_timedwait(&pressed, &ts) != 0)
    if (errno != EINTR) return 0;
  return 1;
}

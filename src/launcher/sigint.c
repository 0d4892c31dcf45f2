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

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static _Atomic(strait_runtime *) target;
static atomic_int presses;

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
}

void launch_sigint_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, NULL);
}

void launch_sigint_target(strait_runtime *rt) { atomic_store(&target, rt); }

int launch_sigint_seen(void) { return atomic_load(&presses) > 0; }

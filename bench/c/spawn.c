/*
 * spawn.c - bench-spawn: wall time of a whole process, for the start-up rows.
 *
 *   bench-spawn GROUP NAME BASELINES DESC -- COMMAND [ARGS...]
 *
 * Runs COMMAND BENCH_SPAWN_WARMUP times (default 2) untimed, then
 * BENCH_SPAWN_RUNS times (default 11) with stdin, stdout and stderr on
 * /dev/null, and prints one row with the median wall time in ns (from just
 * before fork to the end of waitpid). If any run fails, prints a skip line
 * with the exit status instead. A run that lasts BENCH_SPAWN_TIMEOUT seconds
 * (default 20) is killed and reported as a skip. BASELINES "-" means none.
 */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* SIGALRM handler: only interrupts waitpid(). */
static void on_alarm(int sig)
{
}

/* Runs argv once with stdio on /dev/null; returns its wait status, -1 if
 * it could not be started, -2 if it ran longer than timeout_s seconds (it
 * is then killed). Stores the wall time in *ns. */
static int run_once(char **argv, int64_t *ns, unsigned timeout_s)
{
  int64_t t0 = bench_now_ns();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fd = open("/dev/null", O_RDWR);
    if (fd >= 0) {
      dup2(fd, 0);
      dup2(fd, 1);
      dup2(fd, 2);
      if (fd > 2) close(fd);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  int st;
  alarm(timeout_s);
  while (waitpid(pid, &st, 0) < 0) {
    if (errno == EINTR) {
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -2;
    }
  }
  alarm(0);
  *ns = bench_now_ns() - t0;
  return st;
}

/* Entry point (see the header comment). */
int main(int argc, char **argv)
{
  if (argc < 7 || strcmp(argv[5], "--") != 0) {
    fprintf(stderr, "usage: bench-spawn GROUP NAME BASELINES DESC -- COMMAND [ARGS...]\n");
    return 2;
  }
  const char *group = argv[1], *name = argv[2], *base = argv[3], *desc = argv[4];
  char **cmd = argv + 6;
  int warm = (int)bench_env_long("BENCH_SPAWN_WARMUP", 2);
  int runs = (int)bench_env_long("BENCH_SPAWN_RUNS", 11);
  if (runs > 64) runs = 64;
  unsigned timeout_s = (unsigned)bench_env_long("BENCH_SPAWN_TIMEOUT", 20);
  struct sigaction sa = { .sa_handler = on_alarm };
  sigaction(SIGALRM, &sa, NULL);
  double v[64];
  for (int i = -warm; i < runs; i++) {
    int64_t ns;
    int st = run_once(cmd, &ns, timeout_s);
    if (st != 0) {
      char why[160];
      if (st == -2) snprintf(why, sizeof why, "%s ran longer than %u s", cmd[0], timeout_s);
      else if (st < 0) snprintf(why, sizeof why, "cannot start %s", cmd[0]);
      else if (WIFSIGNALED(st)) snprintf(why, sizeof why, "%s killed by signal %d", cmd[0], WTERMSIG(st));
      else snprintf(why, sizeof why, "%s exited with status %d", cmd[0], WEXITSTATUS(st));
      bench_skip(group, name, why);
      return 0;
    }
    if (i >= 0) v[i] = (double)ns;
  }
  bench_row(group, name, bench_median(v, runs), strcmp(base, "-") ? base : NULL, desc);
  return 0;
}

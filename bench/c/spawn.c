/*
 * spawn.c - bench-spawn: wall time of a whole process, for the start-up rows.
 *
 *   bench-spawn GROUP NAME BASELINES DESC -- COMMAND [ARGS...]
 *
 * Runs COMMAND BENCH_SPAWN_WARMUP times (default 2) untimed, then
 * BENCH_SPAWN_RUNS times (default 11) with stdin, stdout and stderr on
 * /dev/null, and prints one row with the median wall time in ns (from just
 * before fork to the end of waitpid). If any run fails, prints a skip line
 * with the exit status instead. BASELINES "-" means none.
 */
#include "bench.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv once with stdio on /dev/null; returns its wait status, or -1
 * if it could not be started. Stores the wall time in *ns. */
static int run_once(char **argv, int64_t *ns)
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
  while (waitpid(pid, &st, 0) < 0) {
  }
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
  double v[64];
  for (int i = -warm; i < runs; i++) {
    int64_t ns;
    int st = run_once(cmd, &ns);
    if (st != 0) {
      char why[160];
      if (st < 0) snprintf(why, sizeof why, "cannot start %s", cmd[0]);
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

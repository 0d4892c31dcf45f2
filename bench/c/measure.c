/*
 * measure.c - calibration, warm-up, median-of-rounds and row output for the
 * C benchmark programs (see bench.h).
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Monotonic clock in nanoseconds. Any thread. */
int64_t bench_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Integer value of environment variable name, or def. Any thread. */
long bench_env_long(const char *name, long def)
{
  const char *s = getenv(name);
  if (!s || !*s) return def;
  char *end;
  long v = strtol(s, &end, 10);
  return (*end || v <= 0) ? def : v;
}

/* qsort comparator for doubles. */
static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median of v[0..n); sorts v in place. n > 0. */
double bench_median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return (n & 1) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs fn(ud, n) once and returns its wall time in ns. */
static int64_t time_round(bench_fn fn, void *ud, long n)
{
  int64_t t0 = bench_now_ns();
  fn(ud, n);
  return bench_now_ns() - t0;
}

/* Grows n until one round of fn lasts BENCH_ROUND_MS, runs the warm-up
 * rounds, and returns n. Calling thread only. */
long bench_calibrate(bench_fn fn, void *ud)
{
  int64_t target = bench_env_long("BENCH_ROUND_MS", 40) * 1000000;
  int warmup = (int)bench_env_long("BENCH_WARMUP", 2);
  long n = 16;
  int64_t t = time_round(fn, ud, n);
  while (t < target && n < (1L << 40)) {
    /* grow towards the target, at most 10x per step (JITs speed up) */
    double f = t > 0 ? (double)target / (double)t * 1.2 : 10;
    if (f > 10) f = 10;
    if (f < 2) f = 2;
    n = (long)((double)n * f);
    t = time_round(fn, ud, n);
  }
  for (int i = 0; i < warmup; i++) time_round(fn, ud, n);
  return n;
}

/* One timed round of n operations; ns per operation. Calling thread only. */
double bench_round(bench_fn fn, void *ud, long n)
{
  return (double)time_round(fn, ud, n) / (double)n;
}

/* Number of timed rounds: BENCH_ROUNDS, at most BENCH_MAX_ROUNDS. */
int bench_rounds(void)
{
  long r = bench_env_long("BENCH_ROUNDS", 7);
  return r > BENCH_MAX_ROUNDS ? BENCH_MAX_ROUNDS : (int)r;
}

/* Calibrates, warms up and returns the median ns/op (see bench.h). Calling
 * thread only. */
double bench_measure(bench_fn fn, void *ud)
{
  long n = bench_calibrate(fn, ud);
  int rounds = bench_rounds();
  double v[BENCH_MAX_ROUNDS];
  for (int i = 0; i < rounds; i++) v[i] = bench_round(fn, ud, n);
  return bench_median(v, rounds);
}

/* Prints one row line on stdout (see bench.h). */
void bench_row(const char *group, const char *name, double ns_per_op,
               const char *baselines, const char *desc)
{
  printf("row\t%s\t%s\t%.3f\t%s\t%s\n", group, name, ns_per_op,
         baselines && *baselines ? baselines : "-", desc ? desc : "");
  fflush(stdout);
}

/* Prints one skip line on stdout (see bench.h). */
void bench_skip(const char *group, const char *name, const char *reason)
{
  printf("skip\t%s\t%s\t%s\n", group, name, reason);
  fflush(stdout);
}

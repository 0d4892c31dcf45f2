/*
 * bench.h - measurement helpers shared by the C benchmark programs under
 * bench/c/ (bench tools, not part of libstrait).
 *
 * A benchmark is a function that performs n operations. bench_measure()
 * calibrates n so that one round lasts at least BENCH_ROUND_MS (default 40),
 * runs BENCH_WARMUP rounds (default 2) untimed, then BENCH_ROUNDS rounds
 * (default 7), and returns the median nanoseconds per operation.
 *
 * Results leave the program as rows on stdout, one per line, tab-separated
 * (see bench/README.md):
 *   row <group> <name> <ns_per_op> <baselines> <description>
 *   skip <group> <name> <reason>
 */
#ifndef STRAIT_BENCH_H
#define STRAIT_BENCH_H

#include <stdint.h>

/* Performs n operations of the benchmark. ud is the caller's state. */
typedef void (*bench_fn)(void *ud, long n);

/* Monotonic clock in nanoseconds. Any thread. */
int64_t bench_now_ns(void);

/* Median ns per operation of fn over the configured rounds (see above).
 * Runs on the calling thread; fn must be safe to call repeatedly. */
double bench_measure(bench_fn fn, void *ud);

/* The pieces of bench_measure(), for programs that interleave the rounds of
 * several rows so that a burst of machine noise hits them all alike:
 * bench_calibrate() picks n and runs the warm-up rounds, bench_round() times
 * one round (ns per op), bench_rounds() is the number of timed rounds. */
#define BENCH_MAX_ROUNDS 64
long bench_calibrate(bench_fn fn, void *ud);
double bench_round(bench_fn fn, void *ud, long n);
int bench_rounds(void);

/* Median of v[0..n) (sorts v in place). */
double bench_median(double *v, int n);

/* Integer value of environment variable name, or def when unset/invalid. */
long bench_env_long(const char *name, long def);

/* Prints one result row. baselines is a comma-separated list of row names or
 * sums of row names ("a+b"), or NULL for none. Strings must not contain tabs
 * or newlines. */
void bench_row(const char *group, const char *name, double ns_per_op,
               const char *baselines, const char *desc);

/* Prints a skip line: the row could not be measured in this run, and why. */
void bench_skip(const char *group, const char *name, const char *reason);

#endif /* STRAIT_BENCH_H */

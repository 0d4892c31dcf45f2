/*
 * t.h - a tiny unit-test framework for the core's C tests. A test is a
 * `static void name(void)`; main() runs each with T_RUN(name) and ends
 * with T_DONE(), which prints "N passed, N failed" and returns non-zero
 * when a test failed. A failed check prints "file:line: test: what" and
 * marks the running test failed (the test goes on).
 */
#ifndef STRAIT_T_H
#define STRAIT_T_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_passed, t_failed, t_cur_failed;
static const char *t_cur_name = "";

/* Records a failed check of the running test. */
static void t_fail(const char *file, int line, const char *fmt, const char *a, const char *b) {
  t_cur_failed = 1;
  fprintf(stderr, "%s:%d: %s: ", file, line, t_cur_name);
  fprintf(stderr, fmt, a ? a : "(null)", b ? b : "(null)");
  fputc('\n', stderr);
}

#define T_CHECK(cond)                                                         \
  do {                                                                        \
    if (!(cond)) t_fail(__FILE__, __LINE__, "check failed: %s%s", #cond, ""); \
  } while (0)

#define T_EQ_INT(actual, expected)                                           \
  do {                                                                       \
    long long t_a = (long long)(actual), t_e = (long long)(expected);        \
    if (t_a != t_e) {                                                        \
      char t_x[64], t_y[64];                                                 \
      snprintf(t_x, sizeof t_x, "%lld", t_a);                                \
      snprintf(t_y, sizeof t_y, "%lld", t_e);                                \
      t_fail(__FILE__, __LINE__, #actual " is %s, expected %s", t_x, t_y);   \
    }                                                                        \
  } while (0)

#define T_EQ_STR(actual, expected)                                           \
  do {                                                                       \
    const char *t_a = (actual), *t_e = (expected);                           \
    if (!t_a || !t_e || strcmp(t_a, t_e) != 0)                               \
      t_fail(__FILE__, __LINE__, #actual "\n  got:      [%s]\n  expected: [%s]", t_a, t_e); \
  } while (0)

/* Checks that haystack contains needle. */
#define T_CONTAINS(haystack, needle)                                         \
  do {                                                                       \
    const char *t_h = (haystack), *t_n = (needle);                           \
    if (!t_h || !t_n || !strstr(t_h, t_n))                                   \
      t_fail(__FILE__, __LINE__, #haystack "\n  got:     [%s]\n  missing: [%s]", t_h, t_n); \
  } while (0)

#define T_RUN(fn)                                                            \
  do {                                                                       \
    t_cur_name = #fn;                                                        \
    t_cur_failed = 0;                                                        \
    fn();                                                                    \
    if (t_cur_failed) t_failed++; else t_passed++;                           \
  } while (0)

#define T_DONE()                                                             \
  (printf("%d passed, %d failed\n", t_passed, t_failed), fflush(stdout),     \
   t_failed ? 1 : 0)

#endif /* STRAIT_T_H */

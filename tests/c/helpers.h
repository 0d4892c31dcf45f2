/*
 * helpers.h - runtime helpers shared by the C tests: a runtime whose
 * console output goes to in-memory buffers, evaluation to a printable
 * string, and temporary files.
 */
#ifndef STRAIT_TEST_HELPERS_H
#define STRAIT_TEST_HELPERS_H

#include "strait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

/* Growing text buffer. */
typedef struct tbuf {
  char *data;
  size_t len, cap;
} tbuf;

static void tbuf_add(tbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = realloc(b->data, cap);
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

static void tbuf_reset(tbuf *b) {
  b->len = 0;
  if (b->data) b->data[0] = 0;
}

static const char *tbuf_str(tbuf *b) { return b->data ? b->data : ""; }

/* The captured output of one runtime: out is fd 1, err is fd 2. */
typedef struct tcap {
  tbuf out, err;
  int exit_calls, exit_code;
} tcap;

static void tcap_write(void *ud, int fd, const char *s, size_t n) {
  tcap *c = ud;
  tbuf_add(fd == 2 ? &c->err : &c->out, s, n);
}

static void tcap_exit(void *ud, int code) {
  tcap *c = ud;
  c->exit_calls++;
  c->exit_code = code;
}

static void tcap_free(tcap *c) {
  free(c->out.data);
  free(c->err.data);
  memset(c, 0, sizeof *c);
}

/* A runtime writing into cap (argv may be NULL). */
static strait_runtime *trt_new(tcap *cap, int argc, const char *const *argv) {
  strait_options o;
  memset(&o, 0, sizeof o);
  o.argc = argc;
  o.argv = argv;
  o.write = tcap_write;
  o.write_ud = cap;
  o.on_exit = tcap_exit;
  o.exit_ud = cap;
  strait_runtime *rt = NULL;
  if (strait_runtime_new(&o, &rt) != 0) {
    fprintf(stderr, "strait_runtime_new failed\n");
    exit(2);
  }
  return rt;
}

/* Evaluates src ("[test]") inside the gate and returns malloc'd text: the
 * inspected result, or "THROW " + strait_error_format() of the exception,
 * or "STATUS <name>". */
static char *trt_eval(strait_runtime *rt, const char *src) {
  strait_enter(rt);
  JSValueRef res = NULL, exc = NULL;
  int rc = strait_eval_utf8(rt, src, strlen(src), "[test]", &res, &exc);
  char *text = NULL;
  if (rc == 0) {
    strait_inspect(rt, res, &text);
  } else if (rc == STRAIT_EJS) {
    char *f = strait_error_format(rt, exc);
    size_t n = strlen(f) + 8;
    text = malloc(n);
    snprintf(text, n, "THROW %s", f);
    free(f);
  } else {
    text = malloc(64);
    snprintf(text, 64, "STATUS %s", strait_err_name(rc));
  }
  strait_leave(rt);
  return text;
}

/* Checks that evaluating src inspects as expected (frees the text). */
#define T_EVAL(rt, src, expected)                                            \
  do {                                                                       \
    char *t_txt = trt_eval((rt), (src));                                     \
    T_EQ_STR(t_txt, (expected));                                             \
    free(t_txt);                                                             \
  } while (0)

/* Monotonic milliseconds. */
static double tnow_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Evaluates src in rt, then runs its loop; returns the loop's status (or
 * STRAIT_EJS when the script threw) and the formatted error in *err
 * (malloc'd, or NULL). */
static int trt_run(strait_runtime *rt, const char *src, char **err) {
  *err = NULL;
  char *r = trt_eval(rt, src);
  if (strncmp(r, "THROW ", 6) == 0) {
    *err = r;
    return STRAIT_EJS;
  }
  free(r);
  JSValueRef exc = NULL;
  int rc = strait_loop_run(rt, &exc);
  if (rc == STRAIT_EJS) {
    strait_enter(rt);
    *err = strait_error_format(rt, exc);
    strait_leave(rt);
  }
  return rc;
}

/* Writes text to dir/name, making parent directories. */
static void twrite_file(const char *dir, const char *name, const char *text) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  for (char *p = path + strlen(dir) + 1; *p; p++) {
    if (*p == '/') {
      *p = 0;
      mkdir(path, 0755);
      *p = '/';
    }
  }
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(2); }
  fputs(text, f);
  fclose(f);
}

/* A fresh temporary directory (its path is static storage per call site). */
static void tmkdtemp(char *buf, size_t n) {
  const char *base = getenv("TMPDIR");
  snprintf(buf, n, "%s/strait-test-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(buf)) { perror("mkdtemp"); exit(2); }
}

/* Removes a directory tree made by a test. */
static void trm_rf(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

#endif /* STRAIT_TEST_HELPERS_H */

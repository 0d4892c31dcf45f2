/*
 * run.c - one run of the strait command: JVM, runtime, script, event loop,
 * uncaught-error report, teardown, exit code.
 */
#include "launcher.h"

#include "strait.h"
#include "strait_jvm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Waits until fd is ready for events (POLLIN / POLLOUT): a non-blocking
 * descriptor said EAGAIN. Any thread. */
static void wait_ready(int fd, short events) {
  struct pollfd pf = {.fd = fd, .events = events};
  while (poll(&pf, 1, -1) < 0 && errno == EINTR) {}
}

/* Writes all of buf to fd (see launcher.h). Any thread. */
void launch_write(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { wait_ready(fd, POLLOUT); continue; }
    if (n <= 0) return;
    buf += n;
    len -= (size_t)n;
  }
}

/* Prints "strait: <fmt...>\n" to stderr. Any thread. */
static void say(const char *fmt, const char *a, const char *b) {
  char buf[8192];
  int n = snprintf(buf, sizeof buf, fmt, a, b);
  if (n < 0) return;
  launch_write(2, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* Largest script the launcher reads (a file or standard input): 1 GiB.
 * JavaScriptCore's strings hold at most 2^31-1 characters, so a source
 * much larger cannot run anyway; the limit makes `strait - < /dev/zero`
 * fail at once with a clear message instead of reading without end.
 * STRAIT_MAX_SCRIPT_BYTES may lower it (for tests: it never raises it). */
#define SCRIPT_LIMIT ((size_t)1 << 30)

/* The script size limit (see SCRIPT_LIMIT). Any thread. */
static size_t script_limit(void) {
  const char *e = getenv("STRAIT_MAX_SCRIPT_BYTES");
  if (e && *e) {
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    if (*end == 0 && v > 0 && v < SCRIPT_LIMIT) return (size_t)v;
  }
  return SCRIPT_LIMIT;
}

/* Prints that a script is over the limit. Any thread. */
static void say_too_large(const char *what, size_t limit) {
  char lim[64];
  if (limit % (1 << 20) == 0) snprintf(lim, sizeof lim, "%zu MiB", limit >> 20);
  else snprintf(lim, sizeof lim, "%zu bytes", limit);
  say("strait: script too large: %s (limit %s)\n", what, lim);
}

/* Checks that the script is a regular file within the size limit and
 * stores its absolute path in abs. It is opened without blocking, so a
 * FIFO with no writer is refused rather than waited on. Returns 0, or
 * LAUNCH_USAGE after printing why not. Any thread. */
static int check_script(const char *path, char *abs) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    int e = fd < 0 ? errno : EISDIR;
    if (fd >= 0) close(fd);
    say("strait: cannot open '%s': %s\n", path, strerror(e));
    return LAUNCH_USAGE;
  }
  close(fd);
  if (!S_ISREG(st.st_mode)) {
    const char *kind = S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                     : S_ISFIFO(st.st_mode) ? "a FIFO or pipe" : S_ISSOCK(st.st_mode) ? "a socket"
                     : "not a regular file";
    say("strait: cannot run '%s': not a regular file (%s)\n", path, kind);
    return LAUNCH_USAGE;
  }
  size_t limit = script_limit();
  if ((unsigned long long)st.st_size > limit) {
    char what[PATH_MAX + 64];
    snprintf(what, sizeof what, "'%s' is %lld bytes", path, (long long)st.st_size);
    say_too_large(what, limit);
    return LAUNCH_USAGE;
  }
  if (!realpath(path, abs)) snprintf(abs, PATH_MAX, "%s", path);
  return 0;
}

/* Reads all of standard input into a malloc'd buffer (*len bytes), up to
 * limit bytes. NULL with *too_large set past the limit, NULL alone on a
 * read error or out of memory. Any thread. */
static char *read_stdin(size_t *len, size_t limit, int *too_large) {
  size_t cap = limit < 65536 ? limit + 1 : 65536, n = 0;
  *too_large = 0;
  struct stat st;
  if (fstat(0, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > limit) {
    *too_large = 1;
    return NULL;
  }
  char *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      /* n <= limit here; one byte past it is enough to know it is over */
      size_t nc = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
      char *nb = realloc(buf, nc);
      if (!nb) { free(buf); return NULL; }
      buf = nb;
      cap = nc;
    }
    ssize_t r = read(0, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { wait_ready(0, POLLIN); continue; }
    if (r < 0) { free(buf); return NULL; }
    if (r == 0) break;
    n += (size_t)r;
    if (n > limit) { free(buf); *too_large = 1; return NULL; }
  }
  *len = n;
  return buf;
}

/* Appends the UTF-8 form of JS string s to a malloc'd buffer; lone
 * surrogates become U+FFFD. Returns it (caller frees) with *len set.
 * Any thread. */
static char *utf8_of(JSStringRef s, size_t *len) {
  size_t n = JSStringGetLength(s);
  const JSChar *u = JSStringGetCharactersPtr(s);
  char *out = malloc(n * 3 + 2);
  if (!out) return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t c = u[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (u[++i] - 0xDC00);
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      c = 0xFFFD;
    }
    if (c < 0x80) out[o++] = (char)c;
    else if (c < 0x800) { out[o++] = (char)(0xC0 | c >> 6); out[o++] = (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) {
      out[o++] = (char)(0xE0 | c >> 12);
      out[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
      out[o++] = (char)(0x80 | (c & 0x3F));
    } else {
      out[o++] = (char)(0xF0 | c >> 18);
      out[o++] = (char)(0x80 | ((c >> 12) & 0x3F));
      out[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
      out[o++] = (char)(0x80 | (c & 0x3F));
    }
  }
  *len = o;
  return out;
}

/* Prints v on stdout the way `strait -p` shows a result, as console.log
 * would: a string as it is, anything else through util.inspect; then a
 * newline. Returns 0 or a status (*exc set on STRAIT_EJS). Inside the gate. */
static int print_result(strait_runtime *rt, JSValueRef v, JSValueRef *exc) {
  JSContextRef ctx = strait_runtime_context(rt);
  char *text = NULL;
  size_t len = 0;
  if (JSValueIsString(ctx, v)) {
    JSStringRef s = JSValueToStringCopy(ctx, v, exc);
    if (!s) return STRAIT_EJS;
    text = utf8_of(s, &len);
    JSStringRelease(s);
    if (!text) return STRAIT_ENOMEM;
  } else {
    int rc = strait_inspect(rt, v, &text);
    if (rc != 0) return rc;
    len = strlen(text);
    char *grown = realloc(text, len + 2);
    if (!grown) { free(text); return STRAIT_ENOMEM; }
    text = grown;
  }
  text[len++] = '\n';
  launch_write(1, text, len);
  free(text);
  return 0;
}

/* Prints an uncaught error as FILE:LINE:COLUMN: Name: message and the
 * stack, on stderr. exc must still be alive: the caller is inside the gate
 * since it got exc, or exc came from strait_loop_run (which keeps it
 * protected). Any thread; enters the gate (nested if already inside). */
static void report(strait_runtime *rt, JSValueRef exc) {
  if (strait_enter(rt) != 0) return;
  char *text = strait_error_format(rt, exc);
  if (text) {
    size_t n = strlen(text);
    launch_write(2, text, n);
    if (n == 0 || text[n - 1] != '\n') launch_write(2, "\n", 1);
    free(text);
  } else {
    say("strait: %s%s\n", "uncaught exception (cannot describe it)", "");
  }
  strait_leave(rt);
}

/* Runs the script or code of a inside rt: main module, -e, -p or stdin.
 * Returns a status; *exc is set on STRAIT_EJS. Inside the gate. */
static int run_code(strait_runtime *rt, const launch_args *a, const char *abs,
                    JSValueRef *exc) {
  JSValueRef result = NULL;
  int rc;
  switch (a->mode) {
    case MODE_FILE:
      return strait_run_main(rt, abs, exc);
    case MODE_STDIN: {
      size_t len = 0, limit = script_limit();
      int too_large = 0;
      char *src = read_stdin(&len, limit, &too_large);
      if (!src && too_large) {
        say_too_large("standard input", limit);
        return STRAIT_ERANGE;
      }
      if (!src) return STRAIT_EIO;
      rc = strait_eval_utf8(rt, src, len, "[stdin]", NULL, exc);
      free(src);
      return rc;
    }
    case MODE_EVAL:
      return strait_eval_utf8(rt, a->code, strlen(a->code), "[eval]", NULL, exc);
    case MODE_PRINT:
      rc = strait_eval_utf8(rt, a->code, strlen(a->code), "[eval]", &result, exc);
      return rc ? rc : print_result(rt, result, exc);
    default:
      return STRAIT_EINVAL;
  }
}

/* Builds process.argv: the strait executable, the script's absolute path
 * (file mode only), then the script arguments. Returns a malloc'd array of
 * pointers into exe, abs and a->rest (*argc set). Any thread. */
static const char **make_argv(const launch_args *a, const char *exe, const char *abs,
                              int *argc) {
  const char **v = calloc((size_t)a->nrest + 3, sizeof *v);
  if (!v) return NULL;
  int n = 0;
  v[n++] = exe;
  if (a->mode == MODE_FILE) v[n++] = abs;
  for (int i = 0; i < a->nrest; i++) v[n++] = a->rest[i];
  *argc = n;
  return v;
}

/* The run (see launcher.h). Big-stack worker thread. */
int launch_run(const launch_args *a) {
  char abs[PATH_MAX] = "";
  if (a->mode == MODE_FILE && check_script(a->script, abs) != 0) return LAUNCH_USAGE;
  launch_paths paths;
  if (launch_find_paths(&paths) != 0) {
    say("strait: cannot read %s: %s\n", "/proc/self/exe", strerror(errno));
    return LAUNCH_USAGE;
  }
  struct stat st;
  if (stat(paths.jar, &st) != 0) {
    say("strait: cannot find strait.jar at '%s': %s\n", paths.jar, strerror(errno));
    return LAUNCH_USAGE;
  }

  strait_jvm_options jo = {
      .classpath = a->classpath,
      .strait_jar = paths.jar,
      .libjvm = paths.libjvm[0] ? paths.libjvm : NULL,
      .nopts = a->njvm_opts,
      .opts = a->jvm_opts,
  };
  launch_java java = {.jvm_opts = &jo, .policy = &a->java};
  /* -cp or -J: the user wants Java; start it now, so a bad option fails
   * the run at once. Otherwise the first touch of java.* starts it. */
  int eager = a->njvm_opts > 0 || a->classpath_given;
  if (eager && launch_java_start(&java) != 0) {
    say("strait: %s%s\n", java.err, "");
    return LAUNCH_USAGE;
  }

  int argc = 0;
  const char **argv = make_argv(a, paths.exe, abs, &argc);
  strait_options ro = {.argc = argc, .argv = argv, .time_limit_us = a->time_limit_us,
                       .heap_limit = a->heap_limit, .deny = a->deny, .fs_root = a->fs_root,
                       .max_source = a->max_source};
  strait_runtime *rt = NULL;
  int rc = argv ? strait_runtime_new(&ro, &rt) : STRAIT_ENOMEM;
  free(argv);
  if (rc != 0 && a->fs_root && (rc == STRAIT_ENOENT || rc == STRAIT_EINVAL)) {
    say("strait: --fs-root '%s': %s\n", a->fs_root,
        rc == STRAIT_ENOENT ? "no such directory" : "not a directory");
    strait_jvm_stop();
    return LAUNCH_USAGE;
  }
  if (rc != 0) {
    say("strait: cannot create the JavaScript runtime: %s%s\n", strait_strerror(rc), "");
    strait_jvm_stop();
    return LAUNCH_UNCAUGHT;
  }

  int code = LAUNCH_OK;
  JSValueRef exc = NULL;
  launch_sigint_target(rt);
  launch_backstop_start(rt, a->time_limit_us);
  strait_enter(rt);
  /* the bridge, attached on the first use of Java after the script began,
   * takes the built-ins captured now */
  strait_java_prepare(rt);
  /* Under all access the globals are lazy (the JVM starts on first use);
   * under a narrower policy there are no globals to be lazy about (or only
   * those a policy allows, which need the JVM anyway): attach now if the
   * JVM runs, and with none, never start it for the bridge. */
  launch_java_workers(rt, &java);
  if (java.started) rc = strait_java_attach_policy(rt, &a->java, &exc);
  else if (a->java.host_access == STRAIT_HOST_ALL) rc = launch_java_lazy(rt, &java, &exc);
  else rc = 0;
  if (rc == 0) rc = run_code(rt, a, abs, &exc);
  /* the script's promise jobs are part of its run (a loop of them is
   * stopped by --timeout and Ctrl-C like any JS) */
  if (rc == 0) rc = strait_checkpoint(rt);
  /* exc is not protected: report it before leaving the gate, where another
   * thread's garbage collection could free it. */
  int reported = rc == STRAIT_EJS;
  if (reported) report(rt, exc);
  strait_leave(rt);
  if (rc == 0) rc = strait_loop_run(rt, &exc);
  /* Java threads the script started may still call into it, or post to
   * its loop: the run ends when they and the loop are all done. */
  while (rc == 0 && launch_java_started(&java) && strait_jvm_join_threads() > 0)
    rc = strait_loop_run(rt, &exc);

  if (rc == 0) {
    strait_enter(rt);
    code = strait_exit_code(rt);
    strait_leave(rt);
  } else if (rc == STRAIT_EJS) {
    if (!reported) report(rt, exc);
    code = LAUNCH_UNCAUGHT;
  } else if (rc == STRAIT_ETERM) {
    say("strait: %s%s\n", launch_sigint_seen() ? "interrupted" : "terminated", "");
    code = launch_sigint_seen() ? 130 : LAUNCH_UNCAUGHT;
  } else if (rc == STRAIT_ETIMEDOUT) {
    char ms[64];
    snprintf(ms, sizeof ms, "%.10g", (double)a->time_limit_us / 1000.0);
    say("strait: time limit of %s ms exceeded\n", ms, "");
    code = LAUNCH_UNCAUGHT;
  } else if (rc == STRAIT_EHEAP) {
    char b[64];
    snprintf(b, sizeof b, "%lld", (long long)a->heap_limit);
    say("strait: heap limit of %s bytes exceeded\n", b, "");
    code = LAUNCH_UNCAUGHT;
  } else if (rc == STRAIT_ERANGE && a->mode == MODE_STDIN) {
    code = LAUNCH_USAGE; /* read_stdin's caller said why */
  } else if (rc == STRAIT_ENOENT || rc == STRAIT_EIO) {
    say("strait: cannot read '%s': %s\n", abs[0] ? abs : "[stdin]", strait_strerror(rc));
    code = LAUNCH_USAGE;
  } else if (rc != 0) {
    say("strait: %s%s\n", strait_strerror(rc), "");
    code = LAUNCH_UNCAUGHT;
  }
  launch_sigint_target(NULL);
  launch_backstop_stop();
  strait_runtime_free(rt);
  /* A clean end waits for non-daemon Java threads, as `java` does; after an
   * uncaught error the process exits at once, as Node does (main() returns
   * and exit() ends the JVM's threads with the process). */
  if (code == LAUNCH_OK) strait_jvm_stop();
  return code;
}

/*
 * console.c - the native side of console.*: writing text to the runtime's
 * sink. Formatting (util.inspect rules) is done by js/inspect.js and
 * js/console.js; this file only moves finished strings to fd 1 / fd 2.
 *
 * Writing to a file descriptor loses nothing and never spins: short writes
 * and EINTR are retried, a non-blocking descriptor that is full (EAGAIN) is
 * waited on with poll(). A write that fails throws a JS Error (code 'EPIPE',
 * 'EIO'...) from console.log / process.stdout.write, so the script stops and
 * the run ends with a non-zero status. EPIPE (the reader went away) ends the
 * process as SIGPIPE's default action would when the runtime owns the
 * process (no on_exit hook, as in the strait command): the JVM ignores
 * SIGPIPE, so without this a script printing in a loop into `| head` would
 * never end. See docs/signals.md.
 */
#include "env.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Ends the process the way an unhandled SIGPIPE does (status 128 + 13 as a
 * shell reports it), whatever SIGPIPE's disposition was. JS thread. */
static void die_of_sigpipe(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  raise(SIGPIPE);
  _exit(128 + SIGPIPE);
}

/* Writes all of p[0, len) to fd (see the file comment). Returns 0 or the
 * errno of the failed write; EBADF (a closed descriptor, as `>&-` leaves
 * it) drops the text and returns 0, as Node does. Does not return on EPIPE
 * when rt owns the process. Inside the gate. */
int strait__fd_write(strait_runtime *rt, int fd, const char *p, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n > 0) {
      p += n;
      len -= (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd pf = {.fd = fd, .events = POLLOUT};
      int r = poll(&pf, 1, -1);
      if (r < 0 && errno != EINTR) return errno;
      continue;
    }
    int e = n < 0 ? errno : EIO;
    if (e == EBADF) return 0;
    if (e == EPIPE && !rt->opts.on_exit) die_of_sigpipe();
    return e;
  }
  return 0;
}

/* Writes through the runtime's sink (opts.write or the fd, see
 * strait__fd_write). Returns 0 or the errno of a failed write. Inside the
 * gate. */
int strait__write(strait_runtime *rt, int fd, const char *utf8, size_t len) {
  if (rt->opts.write) {
    rt->opts.write(rt->opts.write_ud, fd, utf8, len);
    return 0;
  }
  return strait__fd_write(rt, fd, utf8, len);
}

/* An Error "write <CODE>" with .code, .errno (negative, as Node) and
 * .syscall for a failed write. JS thread. */
static JSValueRef write_error(JSContextRef ctx, int e) {
  const char *code = e == EPIPE ? "EPIPE" : e == EIO ? "EIO" : e == ENOSPC ? "ENOSPC"
                   : e == EFBIG ? "EFBIG" : e == EDQUOT ? "EDQUOT" : e == ENOMEM ? "ENOMEM"
                   : "EIO";
  JSValueRef err = strait_make_error(ctx, "Error", "write %s (%s)", code, strerror(e));
  if (err && JSValueIsObject(ctx, err)) {
    strait_set_property(ctx, (JSObjectRef)err, "code", strait__string_value(ctx, code),
                      kJSPropertyAttributeNone);
    strait_set_property(ctx, (JSObjectRef)err, "errno", JSValueMakeNumber(ctx, -(double)e),
                      kJSPropertyAttributeNone);
    strait_set_property(ctx, (JSObjectRef)err, "syscall", strait__string_value(ctx, "write"),
                      kJSPropertyAttributeNone);
  }
  return err;
}

/* native.write(fd, string): writes the UTF-8 of string to fd 1 or 2
 * through strait__write(). Other fds are a RangeError; a failed write
 * throws write_error(). JS thread. */
static JSValueRef js_write(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  double fd = argc > 0 ? JSValueToNumber(ctx, argv[0], exception) : 0;
  if (*exception) return NULL;
  if (fd != 1 && fd != 2) {
    *exception = strait_make_error(ctx, "RangeError", "write: fd must be 1 or 2");
    return NULL;
  }
  if (argc < 2) return JSValueMakeUndefined(ctx);
  JSStringRef s = JSValueToStringCopy(ctx, argv[1], exception);
  if (!s) return NULL;
  size_t len = 0;
  char *utf8 = strait_utf8_from_jsstring(s, &len);
  JSStringRelease(s);
  if (!utf8) {
    *exception = strait_make_error(ctx, "RangeError", "write: out of memory");
    return NULL;
  }
  int e = strait__write(rt, (int)fd, utf8, len);
  free(utf8);
  if (e) {
    *exception = write_error(ctx, e);
    return NULL;
  }
  return JSValueMakeUndefined(ctx);
}

/* native.isatty(fd): true when fd is a terminal and no embedder sink is
 * installed. JS thread. */
static JSValueRef js_isatty(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                            const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  double fd = argc > 0 ? JSValueToNumber(ctx, argv[0], exception) : -1;
  if (*exception) return NULL;
  bool tty = !rt->opts.write && fd >= 0 && fd <= 2 && isatty((int)fd);
  return JSValueMakeBoolean(ctx, tty);
}

/* Adds the console natives to the bootstrap's native object. Inside the
 * gate. */
void strait__console_natives(JSContextRef ctx, JSObjectRef native) {
  strait_set_function(ctx, native, "write", js_write);
  strait_set_function(ctx, native, "isatty", js_isatty);
}

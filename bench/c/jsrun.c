/*
 * jsrun.c - bench-jsc: runs a script in a bare JavaScriptCore context (no
 * strait runtime, no JVM), with console.log, print and performance.now(). The harness
 * uses it as the "engine alone" baseline for the JS workloads, as the
 * start-up floor of a JSC context (`bench-jsc -e 1`), and in place of
 * `strait` while the launcher does not exist.
 *
 *   bench-jsc FILE.js | bench-jsc -e CODE
 */
#include "jsc_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* performance.now(): monotonic milliseconds, as a double. */
static JSValueRef js_now(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                         size_t argc, const JSValueRef argv[], JSValueRef *exc)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return JSValueMakeNumber(ctx, (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6);
}

/* Entry point: evaluates one file or one -e string, exits 0, or 1 on an
 * uncaught exception, 2 on a usage error or unreadable file. */
int main(int argc, char **argv)
{
  const char *file = NULL, *code = NULL;
  if (argc == 3 && strcmp(argv[1], "-e") == 0) {
    code = argv[2];
    file = "<eval>";
  } else if (argc == 2) {
    file = argv[1];
  } else {
    fprintf(stderr, "usage: bench-jsc FILE.js | bench-jsc -e CODE\n");
    return 2;
  }
  char *src = NULL;
  if (!code) {
    src = bu_read_file(file);
    if (!src) {
      fprintf(stderr, "bench-jsc: cannot read %s\n", file);
      return 2;
    }
    code = src;
  }
  JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
  bu_install_console(ctx);
  bu_define(ctx, "__benchNow", js_now);
  bu_eval(ctx, "var performance = { now: __benchNow };", "<performance>");
  bu_eval(ctx, code, file);
  JSGlobalContextRelease(ctx);
  free(src);
  return 0;
}

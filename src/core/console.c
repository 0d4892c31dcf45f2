/*
 * console.c - the native side of console.*: writing text to the runtime's
 * sink. Formatting (util.inspect rules) is done by js/inspect.js and
 * js/console.js; this file only moves finished strings to fd 1 / fd 2.
 */
#include "env.h"

#include <stdlib.h>
#include <unistd.h>

/* native.write(fd, string): writes the UTF-8 of string to fd 1 or 2
 * through strait__write(). Other fds are a RangeError. JS thread. */
static JSValueRef js_write(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  double fd = argc > 0 ? JSValueToNumber(ctx, argv[0], exception) : 0;
  if (*exception) return NULL;
  if (fd != 1 && fd != 2) {
    *exception = strait__make_error(ctx, "RangeError", "write: fd must be 1 or 2");
    return NULL;
  }
  if (argc < 2) return JSValueMakeUndefined(ctx);
  JSStringRef s = JSValueToStringCopy(ctx, argv[1], exception);
  if (!s) return NULL;
  size_t len = 0;
  char *utf8 = strait__utf8_from_jsstring(s, &len);
  JSStringRelease(s);
  if (!utf8) {
    *exception = strait__make_error(ctx, "RangeError", "write: out of memory");
    return NULL;
  }
  strait__write(rt, (int)fd, utf8, len);
  free(utf8);
  return JSValueMakeUndefined(ctx);
}

/* native.isatty(fd): true when fd is a terminal and no embedder sink is
 * installed. JS thread. */
static JSValueRef js_isatty(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                            const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait_runtime_from_context(ctx);
  double fd = argc > 0 ? JSValueToNumber(ctx, argv[0], exception) : -1;
  if (*exception) return NULL;
  bool tty = !rt->opts.write && fd >= 0 && fd <= 2 && isatty((int)fd);
  return JSValueMakeBoolean(ctx, tty);
}

/* Adds the console natives to the bootstrap's native object. Inside the
 * gate. */
void strait__console_natives(JSContextRef ctx, JSObjectRef native) {
  strait__set_function(ctx, native, "write", js_write);
  strait__set_function(ctx, native, "isatty", js_isatty);
}

/*
 * jsc_util.c - JavaScriptCore helpers for the C benchmark programs (see
 * jsc_util.h).
 */
#include "jsc_util.h"

#include <stdio.h>
#include <stdlib.h>

/* Prints a JS value as UTF-8 to f (caller keeps ownership of v). */
static void print_value(JSContextRef ctx, JSValueRef v, FILE *f)
{
  JSStringRef s = JSValueToStringCopy(ctx, v, NULL);
  if (!s) {
    fputs("<unprintable>", f);
    return;
  }
  size_t cap = JSStringGetMaximumUTF8CStringSize(s);
  char *buf = malloc(cap);
  if (buf) {
    JSStringGetUTF8CString(s, buf, cap);
    fputs(buf, f);
    free(buf);
  }
  JSStringRelease(s);
}

/* Prints an uncaught exception (and its stack) to stderr and exits 1. */
static void die_with(JSContextRef ctx, JSValueRef exc, const char *file)
{
  fprintf(stderr, "%s: uncaught: ", file ? file : "<eval>");
  print_value(ctx, exc, stderr);
  if (JSValueIsObject(ctx, exc)) {
    JSStringRef k = JSStringCreateWithUTF8CString("stack");
    JSValueRef st = JSObjectGetProperty(ctx, (JSObjectRef)exc, k, NULL);
    JSStringRelease(k);
    if (st && JSValueIsString(ctx, st)) {
      fputc('\n', stderr);
      print_value(ctx, st, stderr);
    }
  }
  fputc('\n', stderr);
  exit(1);
}

/* Evaluates source; exits on a JS exception. Caller's thread. */
JSValueRef bu_eval(JSContextRef ctx, const char *src, const char *file)
{
  JSStringRef s = JSStringCreateWithUTF8CString(src);
  JSStringRef url = file ? JSStringCreateWithUTF8CString(file) : NULL;
  JSValueRef exc = NULL;
  JSValueRef v = JSEvaluateScript(ctx, s, NULL, url, 1, &exc);
  JSStringRelease(s);
  if (url) JSStringRelease(url);
  if (!v) die_with(ctx, exc, file);
  return v;
}

/* Looks up a global function; exits if missing. Caller's thread. */
JSObjectRef bu_global_function(JSContextRef ctx, const char *name)
{
  JSStringRef k = JSStringCreateWithUTF8CString(name);
  JSValueRef v = JSObjectGetProperty(ctx, JSContextGetGlobalObject(ctx), k, NULL);
  JSStringRelease(k);
  if (!v || !JSValueIsObject(ctx, v) || !JSObjectIsFunction(ctx, (JSObjectRef)v)) {
    fprintf(stderr, "bench: global %s is not a function\n", name);
    exit(1);
  }
  return (JSObjectRef)v;
}

/* Defines a global native function. Caller's thread. */
void bu_define(JSContextRef ctx, const char *name, JSObjectCallAsFunctionCallback cb)
{
  JSStringRef k = JSStringCreateWithUTF8CString(name);
  JSObjectRef f = JSObjectMakeFunctionWithCallback(ctx, k, cb);
  JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), k, f, kJSPropertyAttributeNone, NULL);
  JSStringRelease(k);
}

/* console.log / print: arguments as strings, space separated, newline. */
static JSValueRef js_print(JSContextRef ctx, JSObjectRef fn, JSObjectRef self,
                           size_t argc, const JSValueRef argv[], JSValueRef *exc)
{
  for (size_t i = 0; i < argc; i++) {
    if (i) fputc(' ', stdout);
    print_value(ctx, argv[i], stdout);
  }
  fputc('\n', stdout);
  fflush(stdout);
  return JSValueMakeUndefined(ctx);
}

/* Installs console.log and print on the global object. Caller's thread. */
void bu_install_console(JSContextRef ctx)
{
  bu_define(ctx, "print", js_print);
  bu_eval(ctx, "var console = { log: print, info: print, warn: print, error: print };",
          "<console>");
}

/* Reads a whole file; NULL on error. Caller frees. Any thread. */
char *bu_read_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      char *nb = realloc(buf, cap * 2 + 1);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf) buf[len] = 0;
  return buf;
}

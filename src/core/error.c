/*
 * error.c - describing and formatting thrown values: strait_error_describe,
 * strait_error_format, strait_inspect and strait__report. An Error prints as
 * "FILE:LINE:COLUMN: " (when the line is known) followed by util.inspect of the error (its
 * "Name: message" line, one "    at fn (file:line:col)" line per JSC stack
 * frame, and any extra own properties); anything else that was thrown
 * prints as "Uncaught " + util.inspect(value).
 */
#include "env.h"
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* malloc'd copy of s (caller frees), NULL when out of memory. Any thread. */
static char *dup_cstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* Non-zero when v is an Error (instanceof Error) or carries JSC's error
 * location (sourceURL + line), as a SyntaxError from another realm would.
 * Inside the gate. */
static int is_error(JSContextRef ctx, JSValueRef v) {
  if (!JSValueIsObject(ctx, v)) return 0;
  JSObjectRef g = JSContextGetGlobalObject(ctx);
  JSValueRef ctor = strait_get_property(ctx, g, "Error");
  if (ctor && JSValueIsObject(ctx, ctor) &&
      JSValueIsInstanceOfConstructor(ctx, v, (JSObjectRef)ctor, NULL))
    return 1;
  JSValueRef line = strait_get_property(ctx, (JSObjectRef)v, "line");
  JSValueRef url = strait_get_property(ctx, (JSObjectRef)v, "sourceURL");
  return line && url && JSValueIsNumber(ctx, line) && JSValueIsString(ctx, url);
}

/* obj[name] as malloc'd UTF-8 when it is a string (or, with any set, any
 * value but undefined/null); NULL otherwise. Inside the gate. */
static void strip_entry_frames(char *stack);

static char *string_prop(JSContextRef ctx, JSObjectRef obj, const char *name, int any) {
  JSValueRef v = strait_get_property(ctx, obj, name);
  if (!v || JSValueIsUndefined(ctx, v) || JSValueIsNull(ctx, v)) return NULL;
  if (!any && !JSValueIsString(ctx, v)) return NULL;
  return strait_utf8_from_value(ctx, v, NULL);
}

/* obj[name] as a non-negative int when it is a number, else 0. Inside the
 * gate. */
static int int_prop(JSContextRef ctx, JSObjectRef obj, const char *name) {
  JSValueRef v = strait_get_property(ctx, obj, name);
  if (!v || !JSValueIsNumber(ctx, v)) return 0;
  double d = JSValueToNumber(ctx, v, NULL);
  return d >= 0 && d < 2147483647.0 ? (int)d : 0;
}

/* util.inspect(v) as malloc'd UTF-8 into *out (see strait.h). Falls back to
 * ToString when the environment is missing or inspect threw. Inside the
 * gate. */
int strait_inspect(strait_runtime *rt, JSValueRef value, char **out) {
  *out = NULL;
  if (!value) value = JSValueMakeUndefined(rt->ctx);
  JSValueRef exc = NULL;
  JSValueRef s = strait__call_method(rt->ctx, rt->internal, "inspect", 1, &value, &exc);
  if (s && JSValueIsString(rt->ctx, s)) {
    *out = strait_utf8_from_value(rt->ctx, s, NULL);
  } else {
    *out = strait_utf8_from_value(rt->ctx, value, NULL);
    if (!*out) *out = dup_cstr(JSValueIsSymbol(rt->ctx, value) ? "Symbol()" : "[object]");
  }
  return *out ? 0 : STRAIT_ENOMEM;
}

/* typeof v as a static string. Inside the gate. */
static const char *type_name(JSContextRef ctx, JSValueRef v) {
  switch (JSValueGetType(ctx, v)) {
    case kJSTypeUndefined: return "undefined";
    case kJSTypeNull: return "object";
    case kJSTypeBoolean: return "boolean";
    case kJSTypeNumber: return "number";
    case kJSTypeString: return "string";
    case kJSTypeSymbol: return "symbol";
    case kJSTypeObject:
      return JSObjectIsFunction(ctx, (JSObjectRef)v) ? "function" : "object";
    default: return "bigint";
  }
}

/* Describes a thrown value (see strait.h). For an Error: its name, message,
 * sourceURL, line, column (on line 1 of a module without the wrapper's
 * length) and JSC's raw stack ("fn@file:line:col" lines).
 * For anything else: name is its typeof, message its util.inspect text (a
 * string as it is). Inside the gate. */
int strait_error_describe(strait_runtime *rt, JSValueRef exception, strait_error_info *out) {
  memset(out, 0, sizeof *out);
  JSContextRef ctx = rt->ctx;
  if (!exception) exception = JSValueMakeUndefined(ctx);
  if (is_error(ctx, exception)) {
    JSObjectRef e = (JSObjectRef)exception;
    out->name = string_prop(ctx, e, "name", 1);
    out->message = string_prop(ctx, e, "message", 1);
    out->file = string_prop(ctx, e, "sourceURL", 0);
    out->stack = string_prop(ctx, e, "stack", 0);
    strip_entry_frames(out->stack);
    out->line = int_prop(ctx, e, "line");
    out->column = int_prop(ctx, e, "column");
    if (out->line == 1 && out->column > 0 && out->file) {
      JSValueRef file = strait__string_value(ctx, out->file);
      JSValueRef off = strait__call_method(rt->ctx, rt->internal, "wrapOffset", 1, &file, NULL);
      int d = off && JSValueIsNumber(ctx, off) ? (int)JSValueToNumber(ctx, off, NULL) : 0;
      if (d > 0 && out->column > d) out->column -= d;
    }
    if (!out->name) out->name = dup_cstr("Error");
    if (!out->message) out->message = dup_cstr("");
  } else {
    out->name = dup_cstr(type_name(ctx, exception));
    if (JSValueIsString(ctx, exception)) out->message = strait_utf8_from_value(ctx, exception, NULL);
    else strait_inspect(rt, exception, &out->message);
  }
  if (!out->name || !out->message) {
    strait_error_info_free(out);
    return STRAIT_ENOMEM;
  }
  return 0;
}

/* Frees the strings of an info filled by strait_error_describe(). Any
 * thread. */
void strait_error_info_free(strait_error_info *info) {
  if (!info) return;
  free(info->name);
  free(info->message);
  free(info->file);
  free(info->stack);
  memset(info, 0, sizeof *info);
}

/* Appends n bytes of s to the malloc'd, NUL-terminated *buf (grown as
 * needed; the caller owns it). -1 when out of memory. Any thread. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n) {
  if (*len + n + 1 > *cap) {
    size_t nc = (*cap ? *cap : 128);
    while (nc < *len + n + 1) nc *= 2;
    char *nb = realloc(*buf, nc);
    if (!nb) return -1;
    *buf = nb;
    *cap = nc;
  }
  memcpy(*buf + *len, s, n);
  *len += n;
  (*buf)[*len] = 0;
  return 0;
}

/* Drops the lines of the runtime's entry frame (eval.h) from a raw stack,
 * in place. */
static void strip_entry_frames(char *stack) {
  if (!stack) return;
  const size_t fl = strlen(STRAIT__ENTRY_FRAME);
  char *w = stack;
  for (const char *p = stack; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (!(n == fl && memcmp(p, STRAIT__ENTRY_FRAME, fl) == 0)) {
      if (w != stack) *w++ = '\n';
      memmove(w, p, n);
      w += n;
    }
    p = nl ? nl + 1 : p + n;
  }
  *w = 0;
}

/* Appends one "\n    at fn (file:line:col)" line per frame of JSC's raw
 * stack to buf (the C fallback for when the bootstrap's inspect is not
 * there). Any thread. */
static void append_frames(char **buf, size_t *len, size_t *cap, const char *stack) {
  const char *p = stack;
  while (p && *p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n > 0) {
      const char *at = memchr(p, '@', n);
      append(buf, len, cap, "\n    at ", 8);
      if (!at) {
        append(buf, len, cap, p, n);
      } else {
        size_t fn = (size_t)(at - p);
        const char *where = at + 1;
        size_t wn = n - fn - 1;
        int named = fn > 0 && !(fn == 11 && !memcmp(p, "global code", 11));
        if (named) { append(buf, len, cap, p, fn); append(buf, len, cap, " (", 2); }
        append(buf, len, cap, where, wn);
        if (named) append(buf, len, cap, ")", 1);
      }
    }
    p = nl ? nl + 1 : NULL;
  }
}

/* Formats an uncaught exception (see strait.h). Inside the gate. */
char *strait_error_format(strait_runtime *rt, JSValueRef exception) {
  JSContextRef ctx = rt->ctx;
  if (!exception) exception = JSValueMakeUndefined(ctx);
  char *buf = NULL;
  size_t len = 0, cap = 0;
  char *text = NULL;
  if (append(&buf, &len, &cap, "", 0)) return NULL;
  if (!is_error(ctx, exception)) {
    strait_inspect(rt, exception, &text);
    append(&buf, &len, &cap, "Uncaught ", 9);
    if (text) append(&buf, &len, &cap, text, strlen(text));
    append(&buf, &len, &cap, "\n", 1);
    free(text);
    return buf;
  }
  strait_error_info info;
  if (strait_error_describe(rt, exception, &info)) { free(buf); return NULL; }
  if (info.file && *info.file && info.line > 0) {
    char pos[48];
    append(&buf, &len, &cap, info.file, strlen(info.file));
    if (info.column > 0) snprintf(pos, sizeof pos, ":%d:%d: ", info.line, info.column);
    else snprintf(pos, sizeof pos, ":%d: ", info.line);
    append(&buf, &len, &cap, pos, strlen(pos));
  }
  JSValueRef exc = NULL;
  JSValueRef s = strait__call_method(rt->ctx, rt->internal, "inspect", 1, &exception, &exc);
  if (s && JSValueIsString(ctx, s)) text = strait_utf8_from_value(ctx, s, NULL);
  if (text) {
    append(&buf, &len, &cap, text, strlen(text));
  } else {
    append(&buf, &len, &cap, info.name, strlen(info.name));
    if (*info.message) {
      append(&buf, &len, &cap, ": ", 2);
      append(&buf, &len, &cap, info.message, strlen(info.message));
    }
    if (info.stack) append_frames(&buf, &len, &cap, info.stack);
  }
  append(&buf, &len, &cap, "\n", 1);
  free(text);
  strait_error_info_free(&info);
  return buf;
}

/* Prints strait_error_format(exception) to fd 2 of the runtime's sink.
 * Inside the gate. */
void strait__report(strait_runtime *rt, JSValueRef exception) {
  char *s = strait_error_format(rt, exception);
  if (s) strait__write(rt, 2, s, strlen(s));
  free(s);
}

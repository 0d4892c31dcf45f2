/*
 * module.c - the native side of CommonJS (js/module.js): reading files,
 * stat, realpath and compiling a module's source into its wrapper
 * function, plus strait_run_main(). Resolution, the cache and cycles live
 * in module.js.
 *
 * The wrapper is put on the module's first line, so line numbers in stacks
 * and SyntaxErrors are the file's own; columns on line 1 are shifted by the
 * wrapper's length (native.wrapLength), which error reports take off
 * again (internal.wrapOffset).
 */
#include "env.h"
#include "eval.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char kWrapHead[] = "(function (exports, require, module, __filename, __dirname) { ";
static const char kWrapTail[] = "\n})";

/* An Error like Node's fs errors: "CODE: message, syscall 'path'" with
 * .code and .path. JS thread. */
static JSValueRef fs_error(JSContextRef ctx, int err, const char *syscall, const char *path) {
  const char *code = err == ENOENT ? "ENOENT" : err == EACCES ? "EACCES" : err == EISDIR ? "EISDIR"
                   : err == ENOTDIR ? "ENOTDIR" : err == ENOMEM ? "ENOMEM" : err == EFBIG ? "EFBIG"
                   : err == EINVAL ? "EINVAL" : "EIO";
  const char *why = err == EINVAL ? "not a regular file" : err == EFBIG ? "file larger than 1 GiB" : strerror(err);
  JSValueRef e = strait_make_error(ctx, "Error", "%s: %s, %s '%s'", code, why, syscall,
                                    path);
  if (JSValueIsObject(ctx, e)) {
    strait_set_property(ctx, (JSObjectRef)e, "code", strait__string_value(ctx, code),
                      kJSPropertyAttributeNone);
    strait_set_property(ctx, (JSObjectRef)e, "path", strait__string_value(ctx, path),
                      kJSPropertyAttributeNone);
  }
  return e;
}

/* Largest file read here (a module's source, readFile): 1 GiB, the
 * launcher's script limit (JavaScriptCore strings hold at most 2^31-1
 * characters). */
#define READ_LIMIT ((size_t)1 << 30)

/* Reads a whole regular file into a malloc'd buffer. Returns 0 or an errno:
 * EISDIR for a directory, EINVAL for anything else that is not a regular
 * file (a device such as /dev/zero, a FIFO: never read without end or
 * waited on), EFBIG past READ_LIMIT (also when the file grows while read).
 * Any thread. */
static int read_all(const char *path, char **out, size_t *len_out) {
  *out = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return errno;
  struct stat st;
  if (fstat(fd, &st) != 0) { int e = errno; close(fd); return e; }
  if (S_ISDIR(st.st_mode)) { close(fd); return EISDIR; }
  if (!S_ISREG(st.st_mode)) { close(fd); return EINVAL; }
  if ((unsigned long long)st.st_size > READ_LIMIT) { close(fd); return EFBIG; }
  size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, len = 0;
  char *buf = malloc(cap);
  if (!buf) { close(fd); return ENOMEM; }
  for (;;) {
    if (len == cap) {
      if (cap > READ_LIMIT) { free(buf); close(fd); return EFBIG; }
      char *nb = realloc(buf, cap * 2);
      if (!nb) { free(buf); close(fd); return ENOMEM; }
      buf = nb;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) { int e = errno; free(buf); close(fd); return e; }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  if (len > READ_LIMIT) { free(buf); return EFBIG; }
  *out = buf;
  *len_out = len;
  return 0;
}

/* ---- the file policy (strait_options.deny & STRAIT_DENY_FS, fs_root) ---- */

/* Non-zero when real (an absolute, resolved path) is rt's fs_root or
 * under it, or when there is no root. Any thread. */
static int under_root(strait_runtime *rt, const char *real) {
  const char *root = rt->fs_root;
  if (!root) return 1;
  size_t n = strlen(root);
  if (n == 1 && root[0] == '/') return real[0] == '/';
  return strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == 0);
}

/* The Error of a request the policy refuses (code ERR_ACCESS_DENIED,
 * .path). JS thread. */
static JSValueRef denied_error(JSContextRef ctx, const char *path, const char *fmt,
                               const char *a, const char *b) {
  char why[PATH_MAX * 2 + 128];
  snprintf(why, sizeof why, fmt, a, b);
  JSValueRef e = strait_make_error(ctx, "Error", "Cannot load '%s': %s", path, why);
  if (JSValueIsObject(ctx, e)) {
    strait_set_property(ctx, (JSObjectRef)e, "code", strait__string_value(ctx, "ERR_ACCESS_DENIED"),
                        kJSPropertyAttributeNone);
    strait_set_property(ctx, (JSObjectRef)e, "path", strait__string_value(ctx, path),
                        kJSPropertyAttributeNone);
  }
  return e;
}

/* Whether the runtime may read path: 0, or an errno-like refusal with
 * *exception set. With fs_root the path is resolved (realpath, so neither
 * `..` nor a symbolic link leaves the root); a path that does not resolve
 * is left to the caller (it fails to open). JS thread. */
static int check_file(JSContextRef ctx, const char *path, const char *shown,
                      JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (rt->opts.deny & STRAIT_DENY_FS) {
    *exception = denied_error(ctx, shown, "file access is not allowed in this runtime%s%s", "", "");
    return EACCES;
  }
  if (!rt->fs_root) return 0;
  char *real = realpath(path, NULL);
  if (!real) return 0;
  int ok = under_root(rt, real);
  if (!ok)
    *exception = denied_error(ctx, shown, "'%s' is outside the runtime's file root '%s'", real,
                              rt->fs_root);
  free(real);
  return ok ? 0 : EACCES;
}

/* native.checkAccess(id): throws when the runtime may not read files at
 * all (STRAIT_DENY_FS). JS thread. */
static JSValueRef js_check_access(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                  const JSValueRef argv[], JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (rt->opts.deny & STRAIT_DENY_FS) {
    char *id = argc > 0 ? strait_utf8_from_value(ctx, argv[0], NULL) : NULL;
    *exception = denied_error(ctx, id ? id : "?", "file access is not allowed in this runtime%s%s",
                              "", "");
    free(id);
    return NULL;
  }
  return JSValueMakeUndefined(ctx);
}

/* native.checkFile(path, id): throws when the policy refuses path (see
 * check_file), naming id. JS thread. */
static JSValueRef js_check_file(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exception) {
  if (argc < 2 || !JSValueIsString(ctx, argv[0])) {
    *exception = strait_make_error(ctx, "TypeError", "checkFile: (path, id) expected");
    return NULL;
  }
  char *path = strait_utf8_from_value(ctx, argv[0], NULL);
  char *id = strait_utf8_from_value(ctx, argv[1], NULL);
  if (path && id) check_file(ctx, path, id, exception);
  free(path);
  free(id);
  return *exception ? NULL : JSValueMakeUndefined(ctx);
}

/* The first argument as malloc'd UTF-8 path, or NULL with a TypeError.
 * JS thread. */
static char *path_arg(JSContextRef ctx, size_t argc, const JSValueRef argv[], const char *fn,
                      JSValueRef *exception) {
  if (argc < 1 || !JSValueIsString(ctx, argv[0])) {
    *exception = strait_make_error(ctx, "TypeError", "%s: path must be a string", fn);
    return NULL;
  }
  return strait_utf8_from_value(ctx, argv[0], NULL);
}

/* native.readFile(path): the file as a string, UTF-8 decoded (invalid bytes
 * become U+FFFD). Throws an Error with .code (ENOENT, EISDIR, ...). JS
 * thread. */
static JSValueRef js_read_file(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  char *path = path_arg(ctx, argc, argv, "readFile", exception);
  if (!path) return NULL;
  if (check_file(ctx, path, path, exception)) {
    free(path);
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0;
  int err = read_all(path, &buf, &len);
  if (err) {
    *exception = fs_error(ctx, err, "open", path);
    free(path);
    return NULL;
  }
  free(path);
  JSStringRef s = strait_jsstring_from_utf8(buf, len);
  free(buf);
  if (!s) {
    *exception = strait_make_error(ctx, "RangeError", "readFile: out of memory");
    return NULL;
  }
  JSValueRef v = JSValueMakeString(ctx, s);
  JSStringRelease(s);
  return v;
}

/* native.stat(path): 1 for a file, 2 for a directory, 0 otherwise. JS
 * thread. */
static JSValueRef js_stat(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exception) {
  char *path = path_arg(ctx, argc, argv, "stat", exception);
  if (!path) return NULL;
  struct stat st;
  int kind = 0;
  if (!(strait__runtime_of(ctx)->opts.deny & STRAIT_DENY_FS) && stat(path, &st) == 0) kind = S_ISDIR(st.st_mode) ? 2 : S_ISREG(st.st_mode) ? 1 : 0;
  free(path);
  return JSValueMakeNumber(ctx, kind);
}

/* native.realpath(path): the canonical absolute path, or the path itself
 * when it cannot be resolved. JS thread. */
static JSValueRef js_realpath(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                              const JSValueRef argv[], JSValueRef *exception) {
  char *path = path_arg(ctx, argc, argv, "realpath", exception);
  if (!path) return NULL;
  char *real = realpath(path, NULL);
  JSValueRef v = strait__string_value(ctx, real ? real : path);
  free(real);
  free(path);
  return v;
}

/* native.compile(source, filename): evaluates the module wrapper around
 * source with filename as its source URL and returns the wrapper function
 * (exports, require, module, __filename, __dirname). A SyntaxError carries
 * the file and line. JS thread. */
static JSValueRef js_compile(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                             const JSValueRef argv[], JSValueRef *exception) {
  if (argc < 2 || !JSValueIsString(ctx, argv[0]) || !JSValueIsString(ctx, argv[1])) {
    *exception = strait_make_error(ctx, "TypeError", "compile: (source, filename) must be strings");
    return NULL;
  }
  JSStringRef src = JSValueToStringCopy(ctx, argv[0], exception);
  if (!src) return NULL;
  JSStringRef file = JSValueToStringCopy(ctx, argv[1], exception);
  if (!file) { JSStringRelease(src); return NULL; }
  size_t head = sizeof kWrapHead - 1, tail = sizeof kWrapTail - 1;
  size_t n = JSStringGetLength(src);
  if (strait__source_allowed(strait__runtime_of(ctx), n, exception)) {
    JSStringRelease(src);
    JSStringRelease(file);
    return NULL;
  }
  JSChar *buf = malloc((head + n + tail) * sizeof(JSChar));
  JSValueRef r = NULL;
  if (!buf) {
    *exception = strait_make_error(ctx, "RangeError", "compile: out of memory");
  } else {
    for (size_t i = 0; i < head; i++) buf[i] = (JSChar)kWrapHead[i];
    memcpy(buf + head, JSStringGetCharactersPtr(src), n * sizeof(JSChar));
    for (size_t i = 0; i < tail; i++) buf[head + n + i] = (JSChar)kWrapTail[i];
    JSStringRef code = JSStringCreateWithCharacters(buf, head + n + tail);
    free(buf);
    r = JSEvaluateScript(ctx, code, NULL, file, 1, exception);
    JSStringRelease(code);
    /* A SyntaxError has the file's line but the column of this call. */
    if (!r && *exception && JSValueIsObject(ctx, *exception)) {
      JSStringRef col = JSStringCreateWithUTF8CString("column");
      JSObjectDeleteProperty(ctx, (JSObjectRef)*exception, col, NULL);
      JSStringRelease(col);
    }
  }
  JSStringRelease(src);
  JSStringRelease(file);
  return r;
}

/* Adds the module natives to the bootstrap's native object. Inside the
 * gate. */
void strait__module_natives(JSContextRef ctx, JSObjectRef native) {
  strait_set_function(ctx, native, "readFile", js_read_file);
  strait_set_function(ctx, native, "stat", js_stat);
  strait_set_function(ctx, native, "realpath", js_realpath);
  strait_set_function(ctx, native, "compile", js_compile);
  strait_set_function(ctx, native, "checkAccess", js_check_access);
  strait_set_function(ctx, native, "checkFile", js_check_file);
  strait_set_property(ctx, native, "wrapLength", JSValueMakeNumber(ctx, sizeof kWrapHead - 1),
                    kJSPropertyAttributeDontEnum);
}

/* Loads path as the main module (see strait.h). The path is resolved as
 * Node resolves its entry point (exact, .js, .json, directory); nothing
 * runs when it is missing (STRAIT_ENOENT) or unreadable (STRAIT_EIO).
 * Inside the gate. */
int strait_run_main(strait_runtime *rt, const char *path, JSValueRef *exception) {
  if (exception) *exception = NULL;
  if (!path || !*path) return STRAIT_EINVAL;
  if (!rt->internal) return STRAIT_EINVAL;
  int refused = strait__watch_refused(rt, exception);
  if (refused) return refused;
  JSValueRef arg = strait__string_value(rt->ctx, path);
  JSValueRef exc = NULL;
  JSValueRef file = strait__call_method(rt->ctx, rt->internal, "resolveMain", 1, &arg, &exc);
  if (exc) {
    if (exception) *exception = exc;
    int why = strait__watch_reason(rt);
    return why ? why : STRAIT_EJS;
  }
  if (!file || !JSValueIsString(rt->ctx, file)) return STRAIT_ENOENT;
  char *cfile = strait_utf8_from_value(rt->ctx, file, NULL);
  if (!cfile) return STRAIT_ENOMEM;
  int fd = open(cfile, O_RDONLY | O_CLOEXEC);
  int err = fd < 0 ? errno : 0;
  if (fd >= 0) close(fd);
  free(cfile);
  if (err) return err == ENOENT ? STRAIT_ENOENT : STRAIT_EIO;
  JSValueRef args[2] = {file, arg};
  strait__call_method(rt->ctx, rt->internal, "runMain", 2, args, &exc);
  if (rt->exiting) return STRAIT_EEXIT;
  if (exc) {
    if (exception) *exception = exc;
    int why = strait__watch_reason(rt);   /* terminated: ETERM, ETIMEDOUT, EHEAP */
    return why ? why : STRAIT_EJS;
  }
  return 0;
}

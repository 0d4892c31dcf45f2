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
#define _GNU_SOURCE   /* O_PATH */
#include "env.h"
#include "eval.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

static const char kWrapHead[] = "(function (exports, require, module, __filename, __dirname) { ";
static const char kWrapTail[] = "\n})";

/* An Error like Node's fs errors: "CODE: message, syscall 'path'" with
 * .code and .path. JS thread. */
static JSValueRef fs_error(JSContextRef ctx, int err, const char *syscall, const char *path) {
  const char *code = err == ENOENT ? "ENOENT" : err == EACCES ? "EACCES" : err == EISDIR ? "EISDIR"
                   : err == ENOTDIR ? "ENOTDIR" : err == ENOMEM ? "ENOMEM" : err == EFBIG ? "EFBIG"
                   : err == EINVAL ? "EINVAL" : err == ELOOP ? "ELOOP" : "EIO";
  const char *why = err == EINVAL ? "not a regular file" : err == EFBIG ? "file larger than 1 GiB"
                  : err == ELOOP ? "the path kept changing while it was opened" : strerror(err);
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

/* Reads the whole regular file open as fd (closed here) into a malloc'd
 * buffer. Returns 0 or an errno: EISDIR for a directory, EINVAL for
 * anything else that is not a regular file (a device such as /dev/zero, a
 * FIFO: never read without end or waited on), EFBIG past READ_LIMIT (also
 * when the file grows while read). Any thread. */
static int read_fd(int fd, char **out, size_t *len_out) {
  *out = NULL;
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

/* ---- opening beneath the root ----------------------------------------------
 *
 * A path is checked and opened in one step, so nothing can swap it between
 * the two. A path written under the root is first opened by the kernel
 * beneath a descriptor of the root (openat2 with RESOLVE_BENEATH, which
 * follows the links that stay beneath it and refuses, atomically, any `..`
 * or link that leaves it, and any absolute link). Otherwise (an absolute
 * link, a path reaching the root through a link, no openat2): its real path
 * (realpath) names the candidate, which must be under the root, and that
 * real path is opened beneath the root's descriptor with no symbolic link
 * followed at all (openat2 with RESOLVE_NO_SYMLINKS, or a walk of openat
 * calls with O_NOFOLLOW one component at a time where the kernel has no
 * openat2). A real path has no link and no `..`, so the open succeeds
 * exactly when the file is still reached from the root through directories
 * only; a component swapped for a link meanwhile makes it fail (ELOOP,
 * ENOTDIR), and the whole step starts again from realpath, which now sees
 * the link (and refuses it when it leads out). What is read is then checked
 * once more: /proc/self/fd names the file the descriptor holds, which must
 * be under the root (a directory renamed out of the root during the walk).
 * Symbolic links inside the root keep working, relative and absolute,
 * wherever they point within the root. A require() costs what it did (one
 * openat2 for each probe and read instead of a stat or an open). */

/* How files beneath a root are opened: 0 not known yet, 1 openat2, 2 the
 * openat walk (the kernel refused openat2). Tests set 2 to exercise the
 * walk. Any thread (a race only repeats the probe). */
_Atomic int strait__fs_open_how;

/* Opens rel (relative, no `..`, no links expected) beneath directory dirfd
 * with the given open flags, following no symbolic link: the walk. A
 * descriptor, or -errno. Any thread. */
static int walk_beneath(int dirfd, const char *rel, int flags) {
  char buf[PATH_MAX];
  size_t n = strlen(rel);
  if (n >= sizeof buf) return -ENAMETOOLONG;
  memcpy(buf, rel, n + 1);
  int cur = dirfd;
  char *p = buf;
  for (;;) {
    while (*p == '/') p++;
    char *slash = strchr(p, '/');
    char *rest = slash;
    while (rest && *rest == '/') rest++;
    int last = !slash || !*rest;
    if (slash) *slash = 0;
    const char *name = *p ? p : ".";
    if (strcmp(name, "..") == 0) {
      if (cur != dirfd) close(cur);
      return -EXDEV;
    }
    int fd = last ? openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC)
                  : openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    if (cur != dirfd) close(cur);
    if (fd < 0) return -e;
    if (last) {
      /* O_PATH | O_NOFOLLOW opens a link itself: refuse it as openat2 does */
      struct stat st;
      if ((flags & O_PATH) && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
        close(fd);
        return -ELOOP;
      }
      return fd;
    }
    cur = fd;
    p = rest;
  }
}

/* openat2(dirfd, rel) beneath dirfd, following the symbolic links that
 * stay beneath it (links too, unless no_links): a descriptor, -errno, or
 * -ENOSYS when the kernel has no openat2 (then the walk is used from now
 * on). Any thread. */
static int openat2_beneath(int dirfd, const char *rel, int flags, bool no_links) {
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
  if (strait__fs_open_how != 2) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | (no_links ? RESOLVE_NO_SYMLINKS : 0);
    long fd = syscall(SYS_openat2, dirfd, *rel ? rel : ".", &how, sizeof how);
    if (fd >= 0) {
      if (strait__fs_open_how == 0) strait__fs_open_how = 1;
      return (int)fd;
    }
    int e = errno;
    /* no openat2 (an old kernel, or a seccomp filter that answers EPERM
     * or ENOSYS): the walk from now on */
    if (!(e == ENOSYS || (e == EPERM && strait__fs_open_how == 0))) return -e;
    strait__fs_open_how = 2;
  }
#endif
  (void)dirfd; (void)rel; (void)flags; (void)no_links;
  return -ENOSYS;
}

/* Opens rel beneath dirfd following no symbolic link: openat2 where the
 * kernel has it, else the walk. A descriptor, or -errno. Any thread. */
static int open_beneath(int dirfd, const char *rel, int flags) {
  int fd = openat2_beneath(dirfd, rel, flags, true);
  return fd == -ENOSYS ? walk_beneath(dirfd, rel, flags) : fd;
}


/* What was opened (fd) must lie under the root: not a directory renamed
 * out of it while it was opened. True when it does (or when verify is
 * false, or there is no /proc to ask); else fd is closed, *err EACCES and
 * *outside (when not NULL) where it lies. Any thread. */
static bool verify_under_root(strait_runtime *rt, int fd, bool verify, char **outside, int *err) {
  if (!verify) return true;
  char link[32], at[PATH_MAX + 1];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t k = readlink(link, at, sizeof at - 1);
  if (k <= 0 || at[0] != '/') return true;
  at[k] = 0;
  if (under_root(rt, at)) return true;
  close(fd);
  if (outside) *outside = strdup(at);
  *err = EACCES;
  return false;
}

/* Opens path with flags (O_RDONLY ... or O_PATH) as rt's file policy
 * allows: without a root, as open() does; with one, beneath it (see
 * above). Returns 0 with *fd_out, or an errno; EACCES with *outside set
 * (malloc'd: where the path leads) when it leads out of the root. Any
 * thread. */
static int open_confined(strait_runtime *rt, const char *path, int flags, int *fd_out, char **outside) {
  /* a probe (O_PATH: fstat only, nothing read) is not checked after the
   * open; what is read is (see above) */
  bool verify = !(flags & O_PATH);
  *fd_out = -1;
  if (outside) *outside = NULL;
  if (!rt->fs_root) {
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0) return errno;
    *fd_out = fd;
    return 0;
  }
  int rootfd = open(rt->fs_root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (rootfd < 0) return errno;
  size_t rootlen = strlen(rt->fs_root);
  if (rootlen == 1) rootlen = 0;          /* the root "/" */
  int err = ELOOP;
  /* first, a path under the root as written, opened by the kernel beneath
   * it following the links that stay beneath (one call): openat2 refuses
   * what leaves the root (`..`, a link out: EXDEV) and an absolute link
   * (EXDEV too), which the steps below then resolve */
  if (path[0] == '/' && strncmp(path, rt->fs_root, rootlen) == 0 && (path[rootlen] == '/' || !path[rootlen])) {
    const char *rel = path + rootlen;
    while (*rel == '/') rel++;
    int fd = openat2_beneath(rootfd, rel, flags, false);
    if (fd >= 0 && verify_under_root(rt, fd, verify, outside, &err)) {
      close(rootfd);
      *fd_out = fd;
      return 0;
    }
    if (fd >= 0) {
      close(rootfd);
      return err;
    }
    /* not found (ENOENT) is the answer the steps below would give too */
    if (fd == -ENOENT || fd == -ENOTDIR || fd == -EISDIR || fd == -EACCES) {
      close(rootfd);
      return -fd;
    }
  }
  /* a path that keeps changing under the open is given up on (ELOOP) */
  for (int attempt = 0; attempt < 16; attempt++) {
    char *real = realpath(path, NULL);
    if (!real) { err = errno; break; }
    if (!under_root(rt, real)) {
      if (outside) *outside = real; else free(real);
      err = EACCES;
      break;
    }
    const char *rel = real + rootlen;
    while (*rel == '/') rel++;
    int fd = open_beneath(rootfd, rel, flags);
    free(real);
    if (fd < 0) {
      err = -fd;
      /* the path changed between realpath and the open: a component is a
       * link now (ELOOP, ENOTDIR; EXDEV from openat2), or it went away */
      if (err == ELOOP || err == ENOTDIR || err == EXDEV || err == ENOENT || err == EAGAIN) continue;
      break;
    }
    if (!verify_under_root(rt, fd, verify, outside, &err)) break;
    close(rootfd);
    *fd_out = fd;
    return 0;
  }
  close(rootfd);
  return err;
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

/* Opens path for reading (flags: O_RDONLY or O_PATH, plus extras) under
 * the runtime's file policy, so the descriptor is the file checked (see
 * open_confined). Returns the descriptor, or -1 with *exception set: the
 * policy's refusal (naming shown), or an fs error of the open. JS thread. */
static int open_for_script(JSContextRef ctx, const char *path, const char *shown, int flags,
                           JSValueRef *exception) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (rt->opts.deny & STRAIT_DENY_FS) {
    *exception = denied_error(ctx, shown, "file access is not allowed in this runtime%s%s", "", "");
    return -1;
  }
  char *outside = NULL;
  int fd = -1;
  int err = open_confined(rt, path, flags, &fd, &outside);
  if (err == EACCES && outside) {
    *exception = denied_error(ctx, shown, "'%s' is outside the runtime's file root '%s'", outside,
                              rt->fs_root);
    free(outside);
    return -1;
  }
  if (err) {
    *exception = fs_error(ctx, err, "open", path);
    return -1;
  }
  return fd;
}

/* native.readFile(path): the file as a string, UTF-8 decoded (invalid bytes
 * become U+FFFD). Throws an Error with .code (ENOENT, EISDIR, ...). JS
 * thread. */
static JSValueRef js_read_file(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  char *path = path_arg(ctx, argc, argv, "readFile", exception);
  if (!path) return NULL;
  int fd = open_for_script(ctx, path, path, O_RDONLY | O_NONBLOCK | O_NOCTTY, exception);
  if (fd < 0) {
    free(path);
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0;
  int err = read_fd(fd, &buf, &len);
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

/* native.stat(path): 1 for a file, 2 for a directory, 0 otherwise. Under a
 * file root the answer is about what lies beneath the root (the path
 * opened as readFile opens it, with O_PATH); a path that leads out of the
 * root is answered as stat() does, since reading it is refused anyway
 * (with the message naming where it leads). JS thread. */
static JSValueRef js_stat(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exception) {
  char *path = path_arg(ctx, argc, argv, "stat", exception);
  if (!path) return NULL;
  strait_runtime *rt = strait__runtime_of(ctx);
  struct stat st;
  int kind = 0, got = -1;
  if (!(rt->opts.deny & STRAIT_DENY_FS)) {
    char *outside = NULL;
    int fd = -1;
    int err = rt->fs_root ? open_confined(rt, path, O_PATH, &fd, &outside) : -1;
    if (fd >= 0) {
      got = fstat(fd, &st);
      close(fd);
    } else if (err == -1 || outside) {
      got = stat(path, &st);
    }
    free(outside);
  }
  if (got == 0) kind = S_ISDIR(st.st_mode) ? 2 : S_ISREG(st.st_mode) ? 1 : 0;
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
  /* opened as readFile opens it (beneath the root, without blocking on a
   * FIFO); a file the root refuses is left to runMain, whose readFile
   * throws the refusal */
  int fd = -1;
  char *outside = NULL;
  int err = open_confined(rt, cfile, O_RDONLY | O_NONBLOCK | O_NOCTTY, &fd, &outside);
  if (fd >= 0) close(fd);
  free(cfile);
  if (outside) {
    free(outside);
    err = 0;
  }
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

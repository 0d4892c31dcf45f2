/*
 * cli.c - the strait command line: parsing, --help and --version.
 */
#include "launcher.h"

#include "strait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Version getters of JavaScriptCore's GObject API (libjavascriptcoregtk),
 * declared here so the launcher does not need the GLib headers. */
unsigned int jsc_get_major_version(void);
unsigned int jsc_get_minor_version(void);
unsigned int jsc_get_micro_version(void);

static const char kUsage[] =
    "Usage: strait [options] FILE.js [args...]\n"
    "       strait [options] -e CODE [args...]\n"
    "       strait [options] -p CODE [args...]\n"
    "       strait [options] - [args...]        (script read from standard input)\n"
    "\n"
    "Runs JavaScript on JavaScriptCore with a JVM in the same process: Java\n"
    "classes are reachable from scripts as java.*, javax.* and Packages.*.\n"
    "The JVM starts when a script first uses them (at once with -cp or -J).\n"
    "\n"
    "Options:\n"
    "  -e, --eval CODE          run CODE\n"
    "  -p, --print CODE         run CODE and print its result\n"
    "  -cp, --classpath PATH    user class path (after strait.jar); replaces $CLASSPATH\n"
    "  -J<option>               pass <option> to the JVM, e.g. -J-Xmx2g\n"
    "  --timeout=DURATION       stop a script entry (the main run, each timer or\n"
    "                           callback) after DURATION: 500ms, 2s, 1m or ms\n"
    "  --heap-limit=SIZE        stop the script when its JS heap passes SIZE\n"
    "  --max-source-size=SIZE   refuse a source of more than SIZE characters (default\n"
    "                           8m under --timeout, else none; none: no limit)\n"
    "                           bytes (suffix k, m or g: 512m)\n"
    "  --deny-env               process.env is empty\n"
    "  --deny-fs                require() of files is refused (built-ins load)\n"
    "  --fs-root=DIR            require() loads only files under DIR\n"
    "  --deny-exit              process.exit() throws instead of exiting\n"
    "  --host-access=LEVEL      what scripts reach of Java: all (default), explicit\n"
    "                           (members annotated @HostAccess.Export), given or\n"
    "                           none (no java, Packages, Java globals)\n"
    "  --deny-threads           scripts cannot create Java threads or workers\n"
    "  --deny-native            scripts cannot load native code (System.load...); under\n"
    "                           --host-access=all only those members (see the note)\n"
    "  --allow-reflection=NAMES classes (java.lang.Class), packages (java.lang.reflect.*)\n"
    "                           or members (java.lang.Object#getClass) reachable\n"
    "                           under --host-access other than all\n"
    "  -h, --help               print this help and exit\n"
    "  -v, --version            print the versions and exit\n"
    "  --                       end of options: the next argument is the script\n"
    "\n"
    "Script arguments are in process.argv (after the strait path and the script\n"
    "path). Exit status: 0 success, 1 uncaught error or a limit passed (--timeout,\n"
    "--heap-limit), 2 usage error or unreadable script, 130 after Ctrl-C (SIGINT;\n"
    "a second one exits at once), n after process.exit(n).\n"
    "\n"
    "Environment: JAVA_HOME selects the JDK (17 or newer); CLASSPATH is the user\n"
    "class path when -cp is not given.\n";

/* Prints the usage text to stdout. Any thread. */
void launch_usage(void) { launch_write(1, kUsage, sizeof kUsage - 1); }

/* Reads JAVA_VERSION="..." from <home>/release into out; "" if absent.
 * Any thread. */
static void java_release_version(const char *home, char *out, size_t outlen) {
  out[0] = '\0';
  if (!home[0]) return;
  char path[4200];
  snprintf(path, sizeof path, "%s/release", home);
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "JAVA_VERSION=\"", 14) != 0) continue;
    char *end = strchr(line + 14, '"');
    if (end) *end = '\0';
    size_t n = strlen(line + 14);
    if (n >= outlen) n = outlen - 1;
    memcpy(out, line + 14, n);
    out[n] = '\0';
    break;
  }
  fclose(f);
}

/* Prints the strait, JavaScriptCore and JVM versions (the JVM's from its
 * release file: starting it would cost more than the rest). Any thread. */
void launch_version(void) {
  char buf[8192];
  launch_paths p;
  int n = snprintf(buf, sizeof buf, "strait %s\nJavaScriptCore %u.%u.%u\n", STRAIT_VERSION,
                   jsc_get_major_version(), jsc_get_minor_version(), jsc_get_micro_version());
  if (launch_find_paths(&p) == 0 && p.java_home[0]) {
    char ver[128];
    java_release_version(p.java_home, ver, sizeof ver);
    n += snprintf(buf + n, sizeof buf - (size_t)n, "Java %s (%s)\n", ver[0] ? ver : "unknown",
                  p.java_home);
  }
  launch_write(1, buf, (size_t)n);
}

/* Prints "strait: <msg>" and the help hint to stderr; returns LAUNCH_USAGE. */
static int usage_error(const char *msg, const char *arg) {
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "strait: %s%s%s%s\nTry 'strait --help' for more information.\n",
                   msg, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
  launch_write(2, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
  return LAUNCH_USAGE;
}

/* If argv[*i] is the option long (exactly, or as long=VALUE) or short,
 * stores its value (the next argument or the part after '=') in *val,
 * advances *i past it and returns 1; returns -1 when the value is missing,
 * 0 when argv[*i] is another option. Main thread. */
static int take_value(int argc, char **argv, int *i, const char *shrt, const char *lng,
                      const char *alt, const char **val) {
  const char *arg = argv[*i];
  size_t ll = strlen(lng);
  if (strncmp(arg, lng, ll) == 0 && arg[ll] == '=') {
    *val = arg + ll + 1;
    return 1;
  }
  if (strcmp(arg, lng) != 0 && (!shrt || strcmp(arg, shrt) != 0) &&
      (!alt || strcmp(arg, alt) != 0))
    return 0;
  if (*i + 1 >= argc) return -1;
  *val = argv[++*i];
  return 1;
}

/* Parses a --timeout value: a positive number with an optional unit (us,
 * ms, s, m; none is ms) into microseconds. 0 or -1 on a bad value. */
static int parse_duration(const char *v, int64_t *us) {
  char *end;
  if (!*v || *v == '-' || *v == '+') return -1;
  double d = strtod(v, &end);
  double mul = 1000;
  if (strcmp(end, "") == 0 || strcmp(end, "ms") == 0) mul = 1000;
  else if (strcmp(end, "us") == 0) mul = 1;
  else if (strcmp(end, "s") == 0) mul = 1e6;
  else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0) mul = 60e6;
  else return -1;
  d *= mul;
  if (!(d >= 1) || d > 9e15) return -1;
  *us = (int64_t)d;
  return 0;
}

/* Parses a --heap-limit value: a positive integer of bytes with an
 * optional k, m or g (powers of 1024; a trailing b is allowed). */
static int parse_size(const char *v, int64_t *bytes) {
  char *end;
  if (!*v || *v < '0' || *v > '9') return -1;
  unsigned long long n = strtoull(v, &end, 10);
  unsigned long long mul = 1;
  switch (*end) {
    case 'k': case 'K': mul = 1ull << 10; end++; break;
    case 'm': case 'M': mul = 1ull << 20; end++; break;
    case 'g': case 'G': mul = 1ull << 30; end++; break;
    default: break;
  }
  if (*end == 'b' || *end == 'B') end++;
  if (*end || n == 0 || n > (1ull << 62) / mul) return -1;
  *bytes = (int64_t)(n * mul);
  return 0;
}

/* Parses the command line (see launcher.h). Main thread. */
int launch_parse(int argc, char **argv, launch_args *a) {
  memset(a, 0, sizeof *a);
  a->mode = MODE_FILE;
  a->jvm_opts = calloc((size_t)argc + 1, sizeof *a->jvm_opts);
  if (!a->jvm_opts) return usage_error("out of memory", NULL);
  int have_code = 0;
  int i = 1;
  for (; i < argc; i++) {
    const char *arg = argv[i];
    const char *val = NULL;
    int r;
    if (strcmp(arg, "--") == 0) { i++; break; }
    if (arg[0] != '-' || strcmp(arg, "-") == 0) break;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) { a->mode = MODE_HELP; return 0; }
    if (strcmp(arg, "-v") == 0 || strcmp(arg, "--version") == 0) {
      a->mode = MODE_VERSION;
      return 0;
    }
    if (strncmp(arg, "-J", 2) == 0) {
      if (!arg[2]) return usage_error("-J needs a JVM option, as in -J-Xmx2g", NULL);
      a->jvm_opts[a->njvm_opts++] = arg + 2;
      continue;
    }
    if ((r = take_value(argc, argv, &i, "-e", "--eval", NULL, &val)) != 0 ||
        (r = take_value(argc, argv, &i, "-p", "--print", NULL, &val)) != 0) {
      if (r < 0) return usage_error("missing code after", arg);
      if (have_code) return usage_error("only one -e or -p may be given", NULL);
      have_code = 1;
      a->code = val;
      a->mode = (arg[1] == 'e' || strncmp(arg, "--eval", 6) == 0) ? MODE_EVAL : MODE_PRINT;
      continue;
    }
    if (strcmp(arg, "--deny-env") == 0) { a->deny |= STRAIT_DENY_ENV; continue; }
    if (strcmp(arg, "--deny-fs") == 0) { a->deny |= STRAIT_DENY_FS; continue; }
    if (strcmp(arg, "--deny-exit") == 0) { a->deny |= STRAIT_DENY_EXIT; continue; }
    if (strcmp(arg, "--deny-threads") == 0) {
      a->java.deny |= STRAIT_JAVA_DENY_THREADS;
      a->deny |= STRAIT_DENY_WORKERS;
      continue;
    }
    if (strcmp(arg, "--deny-native") == 0) { a->java.deny |= STRAIT_JAVA_DENY_NATIVE; continue; }
    if ((r = take_value(argc, argv, &i, NULL, "--host-access", NULL, &val)) != 0) {
      static const struct { const char *name; int level; } kLevels[] = {
          {"all", STRAIT_HOST_ALL}, {"explicit", STRAIT_HOST_EXPLICIT},
          {"given", STRAIT_HOST_GIVEN}, {"none", STRAIT_HOST_NONE}};
      int found = -1;
      for (size_t k = 0; r > 0 && k < sizeof kLevels / sizeof kLevels[0]; k++)
        if (strcmp(val, kLevels[k].name) == 0) found = kLevels[k].level;
      if (found < 0)
        return usage_error("--host-access needs all, explicit, given or none, got", r < 0 ? "" : val);
      a->java.host_access = found;
      continue;
    }
    if ((r = take_value(argc, argv, &i, NULL, "--allow-reflection", NULL, &val)) != 0) {
      if (r < 0 || !*val) return usage_error("--allow-reflection needs names, as in java.lang.Class", NULL);
      a->java.allow = val;
      continue;
    }
    if ((r = take_value(argc, argv, &i, NULL, "--timeout", NULL, &val)) != 0) {
      if (r < 0 || parse_duration(val, &a->time_limit_us) != 0)
        return usage_error("--timeout needs a duration such as 500ms, 2s or 1m, got", r < 0 ? "" : val);
      continue;
    }
    if ((r = take_value(argc, argv, &i, NULL, "--heap-limit", NULL, &val)) != 0) {
      if (r < 0 || parse_size(val, &a->heap_limit) != 0)
        return usage_error("--heap-limit needs a size such as 64m, 1g or 500000, got", r < 0 ? "" : val);
      continue;
    }
    if ((r = take_value(argc, argv, &i, NULL, "--max-source-size", NULL, &val)) != 0) {
      if (r >= 0 && strcmp(val, "none") == 0) a->max_source = -1;
      else if (r < 0 || parse_size(val, &a->max_source) != 0)
        return usage_error("--max-source-size needs a size such as 16m or none, got", r < 0 ? "" : val);
      continue;
    }
    if ((r = take_value(argc, argv, &i, NULL, "--fs-root", NULL, &val)) != 0) {
      if (r < 0 || !*val) return usage_error("--fs-root needs a directory", NULL);
      a->fs_root = val;
      continue;
    }
    if ((r = take_value(argc, argv, &i, "-cp", "--classpath", "-classpath", &val)) != 0) {
      if (r < 0) return usage_error("missing class path after", arg);
      a->classpath = val;
      a->classpath_given = 1;
      continue;
    }
    return usage_error("unknown option", arg);
  }
  if (!a->classpath) {
    const char *env = getenv("CLASSPATH");
    if (env && *env) a->classpath = env;
  }
  if (!have_code) {
    if (i >= argc) return usage_error("no script given (strait FILE.js, strait -e CODE)", NULL);
    if (strcmp(argv[i], "-") == 0) a->mode = MODE_STDIN;
    else a->script = argv[i];
    i++;
  }
  a->rest = argv + i;
  a->nrest = argc - i;
  /* full access reaches native code by other routes than the members
   * --deny-native denies (reflection, class loading, processes): say so
   * rather than let the flag read as a boundary (docs/sandbox.md, Native code) */
  if ((a->java.deny & STRAIT_JAVA_DENY_NATIVE) && a->java.host_access == STRAIT_HOST_ALL)
    fputs("strait: note: --deny-native does not hold under --host-access=all: it denies System.load,\n"
          "  Runtime.load, java.lang.foreign and Unsafe, but a script with full access still reaches native\n"
          "  code through reflection, class loading or a process; use --host-access=given or explicit\n",
          stderr);
  return 0;
}

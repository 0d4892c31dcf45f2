/*
 * launcher.h - the strait command: its parsed command line, where it finds
 * its files, and the run itself. Launcher-private (no <jni.h> here).
 */
#ifndef STRAIT_LAUNCHER_H
#define STRAIT_LAUNCHER_H

#include <stddef.h>

/* Exit codes of the strait command. */
enum {
  LAUNCH_OK = 0,
  LAUNCH_UNCAUGHT = 1,  /* an uncaught JS error */
  LAUNCH_USAGE = 2      /* bad command line, unreadable script, no JVM */
};

typedef enum launch_mode {
  MODE_FILE,            /* strait FILE.js args... */
  MODE_EVAL,            /* strait -e CODE args... */
  MODE_PRINT,           /* strait -p CODE args... */
  MODE_STDIN,           /* strait - args... (script read from stdin) */
  MODE_HELP,
  MODE_VERSION
} launch_mode;

/* The parsed command line. Strings point into argv (not owned) except
 * jvm_opts, a malloc'd array of pointers into argv. */
typedef struct launch_args {
  launch_mode mode;
  const char *script;       /* MODE_FILE: the path as given */
  const char *code;         /* MODE_EVAL / MODE_PRINT */
  const char *classpath;    /* -cp, else $CLASSPATH, else NULL */
  const char **jvm_opts;    /* -J options without the -J */
  int njvm_opts;
  char *const *rest;        /* script arguments (after the script or -e code) */
  int nrest;
} launch_args;

/*
 * Parses argv. Returns 0, or LAUNCH_USAGE after printing a one-line reason
 * to stderr. The caller frees a->jvm_opts. Main thread.
 */
int launch_parse(int argc, char **argv, launch_args *a);

/* Prints the usage text to stdout. Any thread. */
void launch_usage(void);

/* Prints `strait 0.1.0` and the engine and JVM versions. Any thread. */
void launch_version(void);

/*
 * Files the launcher needs. exe: absolute path of the running strait
 * executable; jar: <exe dir>/../lib/strait.jar; libjvm: the JVM library
 * chosen from $JAVA_HOME, then the JDK strait was built with (NULL: let the
 * JNI layer search). Returns 0 or -1 if /proc/self/exe is unreadable.
 * Any thread.
 */
typedef struct launch_paths {
  char exe[4096];
  char jar[4096];
  char libjvm[4096];
  char java_home[4096];     /* home of libjvm, or "" */
} launch_paths;
int launch_find_paths(launch_paths *p);

/*
 * The whole run: JVM, runtime, script, event loop, report, teardown.
 * Returns the process exit code. Must run on a non-primordial thread with a
 * big stack (main.c makes one).
 */
int launch_run(const launch_args *a);

/* Writes all of buf to fd, retrying on EINTR and short writes. Any thread. */
void launch_write(int fd, const char *buf, size_t len);

#endif /* STRAIT_LAUNCHER_H */

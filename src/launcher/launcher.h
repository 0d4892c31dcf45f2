/*
 * launcher.h - the strait command: its parsed command line, where it finds
 * its files, and the run itself. Launcher-private (no <jni.h> here).
 */
#ifndef STRAIT_LAUNCHER_H
#define STRAIT_LAUNCHER_H

#include <stddef.h>
#include <stdint.h>

#include "strait.h"
#include "strait_jvm.h"

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
  int classpath_given;      /* -cp was on the command line */
  const char **jvm_opts;    /* -J options without the -J */
  int njvm_opts;
  int64_t time_limit_us;    /* --timeout (per entry), 0: none */
  int64_t heap_limit;       /* --heap-limit in bytes, 0: none */
  int64_t max_source;       /* --max-source-size in characters; 0: the default, -1: none */
  unsigned deny;            /* --deny-env, --deny-fs, --deny-exit: STRAIT_DENY_* */
  const char *fs_root;      /* --fs-root */
  strait_java_policy java;  /* --host-access, --deny-threads, --deny-native,
                               --allow-reflection (zero: all access) */
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

/*
 * Starting Java for one run: the JVM options, and whether the JVM runs.
 * Owned by launch_run (on its stack); lives as long as the runtime.
 */
typedef struct launch_java {
  const strait_jvm_options *jvm_opts;
  const strait_java_policy *policy;  /* what the bridge lets scripts reach */
  int started;              /* the JVM runs (in this process) */
  int failed;               /* starting it failed: err says why */
  char err[1024];
} launch_java;

/*
 * Starts the JVM once: before the runtime exists (with -cp / -J), or from
 * the lazy globals' first use. Returns 0, or a negative status with j->err
 * set; a failure is final (a process cannot create a second JVM). Any
 * thread of the run (one at a time: a mutex).
 */
int launch_java_start(launch_java *j);
/* Whether the JVM runs. Any thread. */
int launch_java_started(launch_java *j);
/*
 * Gives the workers of rt (and theirs) the Java access of the run: each
 * worker's runtime gets the bridge under j->policy, or the lazy globals
 * (the first touch, on any thread, starts the JVM once); a worker's thread
 * leaves the JVM when it ends. j must outlive rt. Inside the gate.
 */
void launch_java_workers(strait_runtime *rt, launch_java *j);

/*
 * Makes Java lazy in rt: installs accessors for the bridge's globals (java,
 * javax, jdk, org, com, net, Packages, Java) whose first read starts the JVM,
 * attaches the bridge (which installs the real globals) and returns the real
 * value; assigning one of those names before that just makes it a plain
 * global. A failure to start throws an Error naming the reason at the point
 * of use. j must outlive rt. Inside the gate.
 */
int launch_java_lazy(strait_runtime *rt, launch_java *j, JSValueRef *exc);

/*
 * Ctrl-C: SIGINT interrupts the runtime published with launch_sigint_target
 * (strait_interrupt, async-signal-safe) and a second one exits at once
 * with 130. launch_sigint_install() (re)installs the handler: at start and
 * again after the JVM started, because HotSpot installs its own. Any
 * thread.
 */
void launch_sigint_install(void);
/* The runtime Ctrl-C interrupts (NULL: none; then Ctrl-C exits 130). */
void launch_sigint_target(strait_runtime *rt);
/* Non-zero once Ctrl-C was pressed. */
int launch_sigint_seen(void);
/* Waits up to ms for a Ctrl-C press (one the handler posted): 1 when one
 * came. Any thread but a signal handler. */
int launch_sigint_wait(int ms);

/*
 * The backstop of a run's stops (backstop.c): a thread that, while rt
 * runs, wakes a Java call the script waits in when Ctrl-C is pressed
 * (strait_wake_waiting), and ends the process when the script was told to
 * stop (Ctrl-C, or its --timeout passed) and is still running
 * LAUNCH_BACKSTOP_MS later: a long native operation of the engine, or Java
 * code that does not return, would otherwise keep it alive. It prints what
 * ended it and exits 130 (Ctrl-C) or 1 (--timeout), as a stopped run does.
 * launch_backstop_start before the script runs; launch_backstop_stop (joins
 * the thread) before rt is freed. The run's thread.
 */
#define LAUNCH_BACKSTOP_MS 2000
int launch_backstop_start(strait_runtime *rt, int64_t time_limit_us);
void launch_backstop_stop(void);

/* Writes all of buf to fd, retrying on EINTR and short writes and waiting
 * on a full non-blocking fd (EAGAIN); other errors drop the rest. Any
 * thread. */
void launch_write(int fd, const char *buf, size_t len);

#endif /* STRAIT_LAUNCHER_H */

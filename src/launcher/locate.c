/*
 * locate.c - where the launcher finds its files: its own path, strait.jar
 * beside libstrait.so in <exe dir>/../lib, and the JVM library.
 */
#include "launcher.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef STRAIT_BUILD_JAVA_HOME
#define STRAIT_BUILD_JAVA_HOME ""
#endif

/* Non-zero if path names a regular file. Any thread. */
static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* If <home>/lib/server/libjvm.so exists, stores it in p->libjvm and the
 * canonical home in p->java_home and returns 1. Any thread. */
static int try_home(launch_paths *p, const char *home) {
  if (!home || !*home) return 0;
  char lib[sizeof p->libjvm];
  if (snprintf(lib, sizeof lib, "%s/lib/server/libjvm.so", home) >= (int)sizeof lib) return 0;
  if (!is_file(lib)) return 0;
  snprintf(p->libjvm, sizeof p->libjvm, "%s", lib);
  if (!realpath(home, p->java_home)) snprintf(p->java_home, sizeof p->java_home, "%s", home);
  return 1;
}

/* Fills p (see launcher.h). Any thread. */
int launch_find_paths(launch_paths *p) {
  memset(p, 0, sizeof *p);
  ssize_t n = readlink("/proc/self/exe", p->exe, sizeof p->exe - 1);
  if (n <= 0) return -1;
  p->exe[n] = '\0';
  char dir[sizeof p->exe];
  snprintf(dir, sizeof dir, "%s", p->exe);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  if (snprintf(p->jar, sizeof p->jar, "%s/../lib/strait.jar", dir) >= (int)sizeof p->jar)
    return -1;
  char real[PATH_MAX];
  if (realpath(p->jar, real)) snprintf(p->jar, sizeof p->jar, "%s", real);
  if (!try_home(p, getenv("JAVA_HOME"))) try_home(p, STRAIT_BUILD_JAVA_HOME);
  /* Neither: p->libjvm stays "" and the JNI layer searches (PATH, /usr/lib/jvm). */
  return 0;
}

/* env.c - placeholder: installs nothing yet. */
#include "internal.h"
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
int strait__env_install(strait_runtime *rt, JSValueRef *exception) { (void)rt; (void)exception; return 0; }
void strait__write(strait_runtime *rt, int fd, const char *utf8, size_t len) {
  if (rt->opts.write) rt->opts.write(rt->opts.write_ud, fd, utf8, len);
  else { ssize_t r = write(fd, utf8, len); (void)r; }
}
void strait__report(strait_runtime *rt, JSValueRef exception) {
  char *s = strait__utf8_from_value(rt->ctx, exception, NULL);
  if (s) { strait__write(rt, 2, s, strlen(s)); strait__write(rt, 2, "\n", 1); free(s); }
}
int strait_run_main(strait_runtime *rt, const char *path, JSValueRef *exception) { (void)rt;(void)path;(void)exception; return STRAIT_EINVAL; }
int strait_error_describe(strait_runtime *rt, JSValueRef exception, strait_error_info *out) { (void)rt;(void)exception; memset(out,0,sizeof *out); return 0; }
void strait_error_info_free(strait_error_info *info) { (void)info; }
char *strait_error_format(strait_runtime *rt, JSValueRef exception) { return strait__utf8_from_value(rt->ctx, exception, NULL); }

/* test_process.c - the process object: argv, env, cwd, platform, version,
 * exit with an embedder hook and without one (in a child process). */
#include "t.h"
#include "helpers.h"

#include <signal.h>
#include <sys/wait.h>

static void argv_and_env(void) {
  tcap c = {0};
  const char *argv[] = {"/usr/bin/strait", "script.js", "one", "t\xc3\xa9"};
  setenv("STRAIT_TEST_VAR", "value \xc3\xa9", 1);
  strait_runtime *rt = trt_new(&c, 4, argv);
  T_EVAL(rt, "process.argv", "[ '/usr/bin/strait', 'script.js', 'one', 'té' ]");
  T_EVAL(rt, "process.env.STRAIT_TEST_VAR", "'value é'");
  T_EVAL(rt, "typeof process.env.PATH", "'string'");
  /* A snapshot: later C changes are not seen, JS changes stay in JS. */
  setenv("STRAIT_TEST_VAR", "changed", 1);
  T_EVAL(rt, "process.env.STRAIT_TEST_VAR", "'value é'");
  T_EVAL(rt, "process.env.NEW_ONE = 'x'; process.env.NEW_ONE", "'x'");
  T_CHECK(getenv("NEW_ONE") == NULL);
  T_EVAL(rt, "[process.platform, process.version, typeof process.pid, process.exitCode]",
         "[ 'linux', 'strait 0.1.0', 'number', undefined ]");
  char cwd[1024], expect[1100];
  T_CHECK(getcwd(cwd, sizeof cwd) != NULL);
  snprintf(expect, sizeof expect, "'%s'", cwd);
  T_EVAL(rt, "process.cwd()", expect);
  T_EVAL(rt, "typeof process.hrtime.bigint() + ' ' + process.hrtime().length", "'bigint 2'");
  T_EVAL(rt, "try { process.nextTick(5) } catch (e) { e instanceof TypeError }", "true");
  strait_runtime_free(rt);
  unsetenv("STRAIT_TEST_VAR");
  tcap_free(&c);
  /* No argv given: argv[0] is still there. */
  rt = trt_new(&c, 0, NULL);
  T_EVAL(rt, "process.argv.length", "1");
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void exit_with_hook(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_EVAL(rt, "console.log('before'); process.exit(7); console.log('after')", "STATUS EEXIT");
  T_EQ_INT(c.exit_calls, 1);
  T_EQ_INT(c.exit_code, 7);
  T_EQ_STR(tbuf_str(&c.out), "before\n");
  strait_runtime_free(rt);
  tcap_free(&c);

  /* exitCode is used when exit() has no argument; a catch cannot undo
   * the exit: the hook runs once and eval still says EEXIT. */
  rt = trt_new(&c, 0, NULL);
  T_EVAL(rt, "process.exitCode = 3; try { process.exit(); } catch (e) { console.log('caught'); }"
             " process.exit(9);", "STATUS EEXIT");
  T_EQ_INT(c.exit_calls, 1);
  T_EQ_INT(c.exit_code, 3);
  strait_enter(rt);
  T_EQ_INT(strait_exit_code(rt), 3);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void exit_code_without_exit(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  T_EQ_INT(strait_exit_code(rt), 0);
  strait_leave(rt);
  T_EVAL(rt, "process.exitCode = 6", "6");
  strait_enter(rt);
  T_EQ_INT(strait_exit_code(rt), 6);
  strait_leave(rt);
  T_EQ_INT(c.exit_calls, 0);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void exit_from_main_module(void) {
  char dir[512];
  tmkdtemp(dir, sizeof dir);
  twrite_file(dir, "exits.js", "console.log('main');\nprocess.exit(5);\n");
  char path[1024];
  snprintf(path, sizeof path, "%s/exits.js", dir);
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  JSValueRef exc = NULL;
  T_EQ_INT(strait_run_main(rt, path, &exc), STRAIT_EEXIT);
  strait_leave(rt);
  T_EQ_INT(c.exit_code, 5);
  T_EQ_STR(tbuf_str(&c.out), "main\n");
  strait_runtime_free(rt);
  tcap_free(&c);
  trm_rf(dir);
}

/* In the child, ends the process with the status exit() was given before
 * LeakSanitizer's exit-time check runs: the child exits with its runtime
 * (and the threads JSC had in the parent) still alive, which is no leak. */
static void exit_now(int status, void *arg) {
  (void)arg;
  _exit(status);
}

static void exit_without_hook_ends_process(void) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    on_exit(exit_now, NULL);
    strait_runtime *rt = NULL;
    if (strait_runtime_new(NULL, &rt) != 0) _exit(99);
    strait_enter(rt);
    const char *src = "process.exit(42)";
    strait_eval_utf8(rt, src, strlen(src), NULL, NULL, NULL);
    _exit(98);
  }
  /* never wait for ever: a child forked while another thread held a lock
   * could hang (main() runs this test first, before any runtime made JSC's
   * threads, so it should not) */
  int status = 0;
  pid_t got = 0;
  for (int i = 0; i < 3000 && (got = waitpid(pid, &status, WNOHANG)) == 0; i++) usleep(10000);
  if (got == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    T_CHECK(!"the child did not exit within 30 s");
    return;
  }
  T_CHECK(WIFEXITED(status));
  T_EQ_INT(WEXITSTATUS(status), 42);
}

int main(void) {
  /* first: it forks, and a fork is safe only while this process has no
   * threads yet (JSC starts helper threads with the first runtime; one that
   * held a lock at the fork hung the child once) */
  T_RUN(exit_without_hook_ends_process);
  T_RUN(argv_and_env);
  T_RUN(exit_with_hook);
  T_RUN(exit_code_without_exit);
  T_RUN(exit_from_main_module);
  return T_DONE();
}

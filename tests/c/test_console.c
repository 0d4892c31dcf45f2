/* test_console.c - console.* output and util.inspect formatting, compared
 * byte for byte with what Node prints. */
#include "t.h"
#include "helpers.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static tcap cap;
static strait_runtime *rt;

/* Runs src and compares what it wrote to fd 1 and fd 2. */
#define T_OUT(src, expected_out, expected_err)                               \
  do {                                                                       \
    tbuf_reset(&cap.out);                                                    \
    tbuf_reset(&cap.err);                                                    \
    char *t_r = trt_eval(rt, (src));                                         \
    if (strncmp(t_r, "THROW", 5) == 0) T_EQ_STR(t_r, "(no exception)");      \
    free(t_r);                                                               \
    T_EQ_STR(tbuf_str(&cap.out), (expected_out));                            \
    T_EQ_STR(tbuf_str(&cap.err), (expected_err));                            \
  } while (0)

#define T_LOG(src, expected) T_OUT("console.log(" src ")", expected "\n", "")

static void streams(void) {
  T_OUT("console.log('a'); console.info('b'); console.debug('c');"
        "console.warn('d'); console.error('e')", "a\nb\nc\n", "d\ne\n");
  T_OUT("console.log()", "\n", "");
  T_OUT("process.stdout.write('raw'); process.stderr.write('err')", "raw", "err");
}

static void primitives(void) {
  T_LOG("'plain string', 42, -0, 0, 1.5, true, null, undefined",
        "plain string 42 -0 0 1.5 true null undefined");
  T_LOG("10n, Symbol('s'), NaN, -Infinity", "10n Symbol(s) NaN -Infinity");
  T_LOG("['str', \"it's\", 'a\\nb', `both'\"`]",
        "[ 'str', \"it's\", 'a\\nb', `both'\"` ]");
  T_LOG("['\\x01\\x7f\\\\']", "[ '\\x01\\x7F\\\\' ]");
}

static void objects(void) {
  T_LOG("{ a: 1, b: 'x' }", "{ a: 1, b: 'x' }");
  T_LOG("{}", "{}");
  T_LOG("[]", "[]");
  T_LOG("[ 1, 2, 3 ]", "[ 1, 2, 3 ]");
  T_LOG("{ 'a-b': 1, [Symbol('k')]: 2, __proto__x: 3 }", "{ 'a-b': 1, __proto__x: 3, [Symbol(k)]: 2 }");
  T_LOG("{ a: { b: { c: { d: 1 } } } }", "{ a: { b: { c: [Object] } } }");
  T_LOG("{ a: [[[[1]]]] }", "{ a: [ [ [Array] ] ] }");
  T_LOG("{ a: { b: { c: {} } } }", "{ a: { b: { c: {} } } }");
  T_LOG("Object.create(null)", "[Object: null prototype] {}");
  T_LOG("[1, , 3, , , 6]", "[ 1, <1 empty item>, 3, <2 empty items>, 6 ]");
  T_LOG("Object.assign([1, 2], { x: 'y' })", "[ 1, 2, x: 'y' ]");
  T_LOG("{ get g() { return 1; }, set s(v) {}, get gs() { return 1; }, set gs(v) {} }",
        "{ g: [Getter], s: [Setter], gs: [Getter/Setter] }");
  T_LOG("{ u: undefined, n: null, f() {} }", "{ u: undefined, n: null, f: [Function: f] }");
}

static void classes_and_functions(void) {
  T_LOG("function foo() {}, () => {}, class A {}, class B extends Array {}",
        "[Function: foo] [Function (anonymous)] [class A] [class B extends Array]");
  T_LOG("async function af() {}, function* gen() {}", "[AsyncFunction: af] [GeneratorFunction: gen]");
  T_LOG("new (class Point { constructor() { this.x = 1; this.y = 2; } })()", "Point { x: 1, y: 2 }");
  T_LOG("new (class Empty {})()", "Empty {}");
  T_LOG("Object.assign(function f() {}, { a: 1 })", "[Function: f] { a: 1 }");
}

static void builtins(void) {
  T_LOG("new Map([['a', 1], ['b', { c: 2 }]])", "Map(2) { 'a' => 1, 'b' => { c: 2 } }");
  T_LOG("new Set([1, 'two'])", "Set(2) { 1, 'two' }");
  T_LOG("new Map(), new Set()", "Map(0) {} Set(0) {}");
  T_LOG("new Date(0)", "1970-01-01T00:00:00.000Z");
  T_LOG("new Date(NaN)", "Invalid Date");
  T_LOG("/ab+c/gi", "/ab+c/gi");
  T_LOG("new Uint8Array([1, 2, 3])", "Uint8Array(3) [ 1, 2, 3 ]");
  T_LOG("new ArrayBuffer(3)", "ArrayBuffer { [Uint8Contents]: <00 00 00>, byteLength: 3 }");
  T_LOG("new Number(3), new String('ab'), new Boolean(false)",
        "[Number: 3] [String: 'ab'] [Boolean: false]");
  T_LOG("[new Date(0)]", "[ 1970-01-01T00:00:00.000Z ]");
  T_LOG("(function () { return arguments; })(1, 2)", "[Arguments] [ 1, 2 ]");
}

static void cycles(void) {
  T_LOG("(() => { const a = { x: 1 }; a.self = a; return a; })()",
        "<ref *1> { x: 1, self: [Circular *1] }");
  T_LOG("(() => { const a = [1]; a.push(a); return a; })()", "<ref *1> [ 1, [Circular *1] ]");
  T_LOG("(() => { const a = {}; const b = { a }; a.b = b; return { a }; })()",
        "{ a: <ref *1> { b: { a: [Circular *1] } } }");
}

static void errors(void) {
  T_OUT("console.log(new Error('boom'))", "Error: boom\n    at [test]:1:22\n", "");
  T_OUT("function thrower() { return new TypeError('bad'); }\nconsole.log(thrower())",
        "TypeError: bad\n    at thrower ([test]:1:42)\n    at [test]:2:20\n", "");
  T_OUT("const e = new Error('x'); e.code = 'E_X'; console.log(e)",
        "Error: x\n    at [test]:1:20 {\n  code: 'E_X'\n}\n", "");
  T_OUT("console.log({ e: new RangeError('r') })",
        "{\n  e: RangeError: r\n      at [test]:1:32\n}\n", "");
  T_OUT("class MyError extends Error {}\nconsole.log(new MyError('m').toString(), String(new MyError('m')))",
        "Error: m Error: m\n", "");
}

static void long_values(void) {
  T_LOG("Array.from({ length: 101 }, () => 0).length", "101");
  T_OUT("console.log(Array.from({ length: 120 }, (_, i) => i))",
        "[\n"
        "   0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11,\n"
        "  12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,\n"
        "  24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,\n"
        "  36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,\n"
        "  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,\n"
        "  60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,\n"
        "  72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83,\n"
        "  84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,\n"
        "  96, 97, 98, 99,\n"
        "  ... 20 more items\n"
        "]\n", "");
  T_OUT("console.log({ alpha: 'aaaaaaaaaaaaaaaa', beta: 'bbbbbbbbbbbbbbbbbbbb', gamma: 'cccccccccccccccccccc' })",
        "{\n  alpha: 'aaaaaaaaaaaaaaaa',\n  beta: 'bbbbbbbbbbbbbbbbbbbb',\n  gamma: 'cccccccccccccccccccc'\n}\n", "");
  T_OUT("console.log(['a', 'b', 'c', 'd', 'e', 'f', 'g'])",
        "[\n  'a', 'b', 'c',\n  'd', 'e', 'f',\n  'g'\n]\n", "");
  T_OUT("console.log(Array(101).fill('x').length, [1,2,3,4,5,6,7].length)", "101 7\n", "");
}

static void format_specifiers(void) {
  T_LOG("'%s is %d years', 'Bob', 42", "Bob is 42 years");
  T_LOG("'%i %f %d', 42.9, '1.5', -0", "42 1.5 -0");
  T_LOG("'%j', { a: [1] }", "{\"a\":[1]}");
  T_LOG("'%j', (() => { const o = {}; o.o = o; return o; })()", "[Circular]");
  T_LOG("'%O', { a: { b: 1 } }", "{ a: { b: 1 } }");
  T_LOG("'100%% sure', 1", "100% sure 1");
  T_LOG("'%%'", "%%");
  T_LOG("'%s'", "%s");
  T_LOG("'%s and %s', 'one'", "one and %s");
  T_LOG("'%c styled', 'color: red'", " styled");
  T_LOG("'%s', { a: 1 }, 'rest', 2", "{ a: 1 } rest 2");
  T_LOG("'%d', 5n", "5n");
  T_LOG("'%x', 1", "%x 1");
  T_LOG("1, '%s', 2", "1 %s 2");
}

static void other_methods(void) {
  T_OUT("console.assert(true, 'no'); console.assert(false, 'failed %s', 'here')", "",
        "Assertion failed: failed here\n");
  T_OUT("console.assert(false)", "", "Assertion failed\n");
  T_OUT("console.count(); console.count('x'); console.count(); console.countReset(); console.count()",
        "default: 1\nx: 1\ndefault: 2\ndefault: 1\n", "");
  T_OUT("console.group('G'); console.log('in'); console.group(); console.log('a\\nb');"
        " console.groupEnd(); console.groupEnd(); console.log('out')",
        "G\n  in\n    a\n    b\nout\n", "");
  T_OUT("console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 })", "{ a: [Object] }\n", "");
  T_OUT("console.trace('here')", "", "Trace: here\n    at [test]:1:14\n");
}

static void inspect_from_c(void) {
  strait_enter(rt);
  JSValueRef v = NULL;
  const char *src = "({ x: [1, 'two'], y: null })";
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), NULL, &v, NULL), 0);
  char *s = NULL;
  T_EQ_INT(strait_inspect(rt, v, &s), 0);
  T_EQ_STR(s, "{ x: [ 1, 'two' ], y: null }");
  free(s);
  T_EQ_INT(strait_inspect(rt, JSValueMakeUndefined(strait_runtime_context(rt)), &s), 0);
  T_EQ_STR(s, "undefined");
  free(s);
  strait_leave(rt);
  T_EVAL(rt, "'str'", "'str'");
}

static void custom_inspect(void) {
  T_LOG("{ [Symbol.for('nodejs.util.inspect.custom')]() { return 'CUSTOM'; } }", "CUSTOM");
}

/* ---- writing to real descriptors, in a child process each (forked before
 * the parent starts JavaScriptCore) ---- */

static void child_exit_hook(void *ud, int code) { (void)ud; (void)code; }

/* In a child: fd 1 is a pipe whose reader is gone and SIGPIPE is ignored
 * (as under the JVM); runs src in a runtime writing to the real fds, with an
 * on_exit hook (embedded) or without (owning the process), and sends the
 * inspected result to report_fd. Never returns. */
static void child_run(const char *src, bool hook, int report_fd) {
  signal(SIGPIPE, SIG_IGN);
  int p[2];
  if (pipe(p) != 0) _exit(3);
  close(p[0]);
  dup2(p[1], 1);
  close(p[1]);
  strait_options o;
  memset(&o, 0, sizeof o);
  if (hook) o.on_exit = child_exit_hook;
  strait_runtime *r = NULL;
  if (strait_runtime_new(&o, &r) != 0) _exit(4);
  char *t = trt_eval(r, src);
  if (write(report_fd, t, strlen(t)) < 0) _exit(5);
  _exit(0);
}

/* Forks child_run; returns its wait status and what it reported. */
static int in_child(const char *src, bool hook, char *out, size_t cap_out) {
  int rep[2];
  if (pipe(rep) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(rep[0]);
    child_run(src, hook, rep[1]);
  }
  close(rep[1]);
  size_t n = 0;
  ssize_t k;
  while (n + 1 < cap_out && (k = read(rep[0], out + n, cap_out - 1 - n)) > 0) n += (size_t)k;
  out[n] = 0;
  close(rep[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  return st;
}

/* EPIPE with SIGPIPE ignored (the JVM's setting): a runtime that owns the
 * process ends it by SIGPIPE, as it would end without the JVM; an embedded
 * one (on_exit hook) gets an Error with code EPIPE from console.log and
 * process.stdout.write, and goes on. */
static void epipe_ends_the_process_or_throws(void) {
  char out[512];
  int st = in_child("console.log('x'); 'still running'", false, out, sizeof out);
  T_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE);
  T_EQ_STR(out, "");
  st = in_child("const r = []; for (const f of [() => console.log('x'), () => process.stdout.write('y')])"
                "  try { f(); r.push('no error'); } catch (e) { r.push(e.code + ' ' + e.syscall + ' ' + e.message); }"
                "r.join(' | ')",
                true, out, sizeof out);
  T_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  T_EQ_STR(out, "'EPIPE write write EPIPE (Broken pipe) | EPIPE write write EPIPE (Broken pipe)'");
}

int main(void) {
  T_RUN(epipe_ends_the_process_or_throws);
  rt = trt_new(&cap, 0, NULL);
  T_RUN(streams);
  T_RUN(primitives);
  T_RUN(objects);
  T_RUN(classes_and_functions);
  T_RUN(builtins);
  T_RUN(cycles);
  T_RUN(errors);
  T_RUN(long_values);
  T_RUN(format_specifiers);
  T_RUN(other_methods);
  T_RUN(inspect_from_c);
  T_RUN(custom_inspect);
  strait_runtime_free(rt);
  tcap_free(&cap);
  return T_DONE();
}

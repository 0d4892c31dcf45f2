/* test_core.c - status names, runtime lifecycle and independence, eval
 * results and exceptions, UTF-8 / UTF-16 round trips. */
#include "t.h"
#include "helpers.h"
#include "internal.h"

static void status_names(void) {
  T_EQ_STR(strait_err_name(0), "OK");
  T_EQ_STR(strait_err_name(STRAIT_EJS), "EJS");
  T_EQ_STR(strait_err_name(STRAIT_EEXIT), "EEXIT");
  T_EQ_STR(strait_err_name(STRAIT_EJAVA), "EJAVA");
  T_EQ_STR(strait_err_name(12345), "UNKNOWN");
  T_EQ_STR(strait_strerror(STRAIT_ENOENT), "no such file or directory");
  T_EQ_STR(strait_strerror(0), "success");
  T_EQ_STR(strait_strerror(-999), "unknown error");
  T_EQ_INT(STRAIT_EJS, -1);
  T_EQ_INT(STRAIT_EEXIT, -13);
}

static void two_runtimes_are_independent(void) {
  tcap c1 = {0}, c2 = {0};
  strait_runtime *a = trt_new(&c1, 0, NULL);
  strait_runtime *b = trt_new(&c2, 0, NULL);
  T_EVAL(a, "globalThis.onlyInA = 41; onlyInA + 1", "42");
  T_EVAL(b, "typeof onlyInA", "'undefined'");
  T_EVAL(b, "console.log('from b'); 1", "1");
  T_EQ_STR(tbuf_str(&c1.out), "");
  T_EQ_STR(tbuf_str(&c2.out), "from b\n");
  strait_runtime_free(a);
  T_EVAL(b, "typeof onlyInA + typeof console.log", "'undefinedfunction'");
  strait_runtime_free(b);
  tcap_free(&c1);
  tcap_free(&c2);
}

static void create_free_repeatedly(void) {
  for (int i = 0; i < 3; i++) {
    tcap c = {0};
    strait_runtime *rt = trt_new(&c, 0, NULL);
    T_EVAL(rt, "[1, 2].map(x => x * 2)", "[ 2, 4 ]");
    strait_runtime_free(rt);
    tcap_free(&c);
  }
  strait_runtime *rt = NULL;
  T_EQ_INT(strait_runtime_new(NULL, &rt), 0);
  T_CHECK(rt != NULL);
  strait_runtime_free(rt);
  strait_runtime_free(NULL);
}

static void eval_results_and_exceptions(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  JSValueRef res = NULL, exc = NULL;
  T_EQ_INT(strait_eval_utf8(rt, "6 * 7", 5, "x.js", &res, &exc), 0);
  T_CHECK(res && JSValueToNumber(strait_runtime_context(rt), res, NULL) == 42);
  T_CHECK(exc == NULL);
  T_EQ_INT(strait_eval_utf8(rt, "throw new TypeError('bad')", 26, "x.js", &res, &exc),
           STRAIT_EJS);
  T_CHECK(res == NULL && exc != NULL);
  strait_error_info info;
  T_EQ_INT(strait_error_describe(rt, exc, &info), 0);
  T_EQ_STR(info.name, "TypeError");
  T_EQ_STR(info.message, "bad");
  T_EQ_STR(info.file, "x.js");
  T_EQ_INT(info.line, 1);
  strait_error_info_free(&info);
  /* NULL out-parameters are allowed. */
  T_EQ_INT(strait_eval_utf8(rt, "1", 1, NULL, NULL, NULL), 0);
  T_EQ_INT(strait_eval_utf8(rt, "throw 1", 7, NULL, NULL, NULL), STRAIT_EJS);
  /* UTF-16 entry point. */
  const JSChar src[] = {'"', 0x00e9, '"', '.', 'l', 'e', 'n', 'g', 't', 'h'};
  T_EQ_INT(strait_eval(rt, src, 10, "u.js", &res, NULL), 0);
  T_CHECK(JSValueToNumber(strait_runtime_context(rt), res, NULL) == 1);
  T_CHECK(strait_runtime_from_context(strait_runtime_context(rt)) == rt);
  strait_leave(rt);
  T_EVAL(rt, "var x = ;", "THROW [test]:1: SyntaxError: Unexpected token ';'\n");
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void utf8_round_trips(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  /* Valid multi-byte text survives both ways. */
  const char *text = "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80";
  JSStringRef s = strait_jsstring_from_utf8(text, strlen(text));
  T_EQ_INT(JSStringGetLength(s), 10); /* the emoji is a surrogate pair */
  size_t n = 0;
  char *back = strait_utf8_from_jsstring(s, &n);
  T_EQ_STR(back, text);
  T_EQ_INT(n, strlen(text));
  free(back);
  JSStringRelease(s);
  /* Invalid bytes, truncated sequences, overlongs and encoded surrogates
   * become U+FFFD, one per bad byte. */
  const char bad[] = "a\xff" "b\xc3" "c\xe0\x80\xaf" "d\xed\xa0\x80" "e";
  s = strait_jsstring_from_utf8(bad, sizeof bad - 1);
  back = strait_utf8_from_jsstring(s, NULL);
  T_EQ_STR(back, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                 "d\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "e");
  free(back);
  JSStringRelease(s);
  /* A NUL inside the text is kept. */
  s = strait_jsstring_from_utf8("a\0b", 3);
  T_EQ_INT(JSStringGetLength(s), 3);
  JSStringRelease(s);
  /* Lone surrogates survive inside JS strings and only become U+FFFD when
   * converted to UTF-8. */
  JSValueRef res = NULL;
  const char *src = "var lone = '\\ud800x'; lone.length === 2 && lone.charCodeAt(0) === 0xd800";
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), NULL, &res, NULL), 0);
  T_CHECK(JSValueToBoolean(ctx, res));
  src = "lone";
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), NULL, &res, NULL), 0);
  back = strait_utf8_from_value(ctx, res, &n);
  T_EQ_STR(back, "\xef\xbf\xbdx");
  free(back);
  /* Invalid UTF-8 in source text decodes to U+FFFD in the string. */
  const char src2[] = "'\xff'.charCodeAt(0)";
  T_EQ_INT(strait_eval_utf8(rt, src2, sizeof src2 - 1, NULL, &res, NULL), 0);
  T_CHECK(JSValueToNumber(ctx, res, NULL) == 0xfffd);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void environment_is_installed(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_EVAL(rt, "[typeof console.log, typeof process, typeof require, typeof queueMicrotask,"
             " typeof globalThis, typeof setTimeout]",
         "[ 'function', 'object', 'function', 'function', 'object', 'function' ]");
  /* The bootstrap's helpers are not reachable from the global object. */
  T_EVAL(rt, "Object.keys(globalThis).length", "0");
  T_EVAL(rt, "typeof native + typeof internal", "'undefinedundefined'");
  strait_runtime_free(rt);
  tcap_free(&c);
}

int main(void) {
  T_RUN(status_names);
  T_RUN(two_runtimes_are_independent);
  T_RUN(create_free_repeatedly);
  T_RUN(eval_results_and_exceptions);
  T_RUN(utf8_round_trips);
  T_RUN(environment_is_installed);
  return T_DONE();
}

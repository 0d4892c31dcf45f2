/* test_error.c - describing and formatting thrown values: Errors with file,
 * line and stack, thrown non-Errors, SyntaxErrors, stack overflow (also
 * through a native callback), and strait__report. */
#include "t.h"
#include "helpers.h"
#include "internal.h"

static tcap cap;
static strait_runtime *rt;

static void thrown_non_errors(void) {
  T_EVAL(rt, "throw 42", "THROW Uncaught 42\n");
  T_EVAL(rt, "throw 'x'", "THROW Uncaught 'x'\n");
  T_EVAL(rt, "throw { a: 1 }", "THROW Uncaught { a: 1 }\n");
  T_EVAL(rt, "throw null", "THROW Uncaught null\n");
  T_EVAL(rt, "throw undefined", "THROW Uncaught undefined\n");
  T_EVAL(rt, "throw Symbol('s')", "THROW Uncaught Symbol(s)\n");
  T_EVAL(rt, "throw [1, 'two']", "THROW Uncaught [ 1, 'two' ]\n");
}

static void describe_values(void) {
  strait_enter(rt);
  JSValueRef exc = NULL;
  strait_error_info info;
  T_EQ_INT(strait_eval_utf8(rt, "throw 42", 8, NULL, NULL, &exc), STRAIT_EJS);
  T_EQ_INT(strait_error_describe(rt, exc, &info), 0);
  T_EQ_STR(info.name, "number");
  T_EQ_STR(info.message, "42");
  T_CHECK(info.file == NULL && info.line == 0 && info.stack == NULL);
  strait_error_info_free(&info);
  T_EQ_INT(strait_eval_utf8(rt, "throw 'text'", 12, NULL, NULL, &exc), STRAIT_EJS);
  T_EQ_INT(strait_error_describe(rt, exc, &info), 0);
  T_EQ_STR(info.name, "string");
  T_EQ_STR(info.message, "text");
  strait_error_info_free(&info);
  const char *src = "function f() {\n  throw new RangeError('r \xc3\xa9');\n}\nf();";
  T_EQ_INT(strait_eval_utf8(rt, src, strlen(src), "file.js", NULL, &exc), STRAIT_EJS);
  T_EQ_INT(strait_error_describe(rt, exc, &info), 0);
  T_EQ_STR(info.name, "RangeError");
  T_EQ_STR(info.message, "r \xc3\xa9");
  T_EQ_STR(info.file, "file.js");
  T_EQ_INT(info.line, 2);
  T_EQ_INT(info.column, 23);
  T_EQ_STR(info.stack, "f@file.js:2:23\nglobal code@file.js:4:2");
  strait_error_info_free(&info);
  strait_error_info_free(&info); /* idempotent */
  strait_leave(rt);
}

static void format_errors(void) {
  T_EVAL(rt, "function f() {\n  throw new TypeError('bad thing');\n}\nf();",
         "THROW [test]:2:22: TypeError: bad thing\n    at f ([test]:2:22)\n    at [test]:4:2\n");
  T_EVAL(rt, "const e = new Error('coded'); e.code = 'E_CODE'; throw e;",
         "THROW [test]:1:20: Error: coded\n    at [test]:1:20 {\n  code: 'E_CODE'\n}\n");
  T_EVAL(rt, "class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } }\nthrow new MyErr('mine');",
         "THROW [test]:1:51: MyErr: mine\n    at MyErr ([test]:1:51)\n    at [test]:2:16\n");
  T_EVAL(rt, "throw new Error()", "THROW [test]:1:16: Error\n    at [test]:1:16\n");
  T_EVAL(rt, "let a = 1;\nlet b = (;", "THROW [test]:2: SyntaxError: Unexpected token ';'\n");
  T_EVAL(rt, "null.x", "THROW [test]:1:5: TypeError: null is not an object (evaluating 'null.x')\n    at [test]:1:5\n");
}

/* When util.inspect itself throws, the report falls back to C. */
static void format_fallback(void) {
  char *r = trt_eval(rt, "const e2 = new Error('fallback');\n"
                         "e2[Symbol.for('nodejs.util.inspect.custom')] = () => { throw 1; };\nthrow e2;");
  T_EQ_STR(r, "THROW [test]:1:21: Error: fallback\n    at [test]:1:21\n");
  free(r);
  T_EVAL(rt, "throw { [Symbol.for('nodejs.util.inspect.custom')]() { throw 2; } }",
         "THROW Uncaught [object Object]\n");
}

static void deep_recursion(void) {
  char *r = trt_eval(rt, "function r() { return r() + 1; }\nr();");
  T_CONTAINS(r, "THROW [test]:1:");
  T_CONTAINS(r, "RangeError: Maximum call stack size exceeded.");
  free(r);
  /* The runtime is still usable afterwards. */
  T_EVAL(rt, "1 + 1", "2");
  r = trt_eval(rt, "function m() { [1].map(m); }\nm();");
  T_CONTAINS(r, "RangeError: Maximum call stack size exceeded.");
  free(r);
  r = trt_eval(rt, "const o = {}; o.toString = function () { return String(o); }; String(o)");
  T_CONTAINS(r, "RangeError");
  free(r);
}

/* callBack(fn): calls fn from C, so recursion crosses a native frame. */
static JSValueRef js_call_back(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                               const JSValueRef argv[], JSValueRef *exception) {
  if (argc < 1 || !JSValueIsObject(ctx, argv[0])) return JSValueMakeUndefined(ctx);
  return JSObjectCallAsFunction(ctx, (JSObjectRef)argv[0], NULL, 0, NULL, exception);
}

static void recursion_through_native_callback(void) {
  strait_enter(rt);
  JSContextRef ctx = strait_runtime_context(rt);
  strait_set_function(ctx, JSContextGetGlobalObject(ctx), "callBack", js_call_back);
  strait_leave(rt);
  char *r = trt_eval(rt, "function viaC() { return callBack(viaC); }\nviaC();");
  T_CONTAINS(r, "RangeError: Maximum call stack size exceeded.");
  free(r);
  T_EVAL(rt, "callBack(() => 'fine')", "'fine'");
  r = trt_eval(rt, "function deep(n) { return n ? callBack(() => deep(n - 1)) : 'bottom'; } deep(500)");
  T_EQ_STR(r, "'bottom'");
  free(r);
}

static void report_goes_to_stderr(void) {
  tbuf_reset(&cap.err);
  strait_enter(rt);
  JSValueRef exc = NULL;
  strait_eval_utf8(rt, "throw {b: 2}", 12, NULL, NULL, &exc);
  strait__report(rt, exc);
  strait_leave(rt);
  T_EQ_STR(tbuf_str(&cap.err), "Uncaught { b: 2 }\n");
}

/* strait_make_error uses the constructors the runtime captured, not what a
 * script put on the global (a getter that throws, a function that loops,
 * a non-constructor), for every name it knows. */
static void make_error_ignores_replaced_globals(void) {
  static const char *const kNames[] = {"Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError"};
  static const char *const kReplacements[] = {
      "globalThis.%s = function () { while (true) {} }",
      "Object.defineProperty(globalThis, '%s', { get() { throw new Error('getter ran'); } })",
      "globalThis.%s = 42",
      "globalThis.%s = class { constructor() { return { fake: true }; } }",
  };
  for (size_t k = 0; k < sizeof kReplacements / sizeof kReplacements[0]; k++) {
    strait_runtime *rk = trt_new(&cap, 0, NULL);
    strait_enter(rk);
    JSContextRef ctx = strait_runtime_context(rk);
    /* keep the originals reachable under other names for instanceof */
    char src[256];
    snprintf(src, sizeof src, "globalThis.orig = [Error, TypeError, RangeError, SyntaxError, ReferenceError]");
    T_EQ_INT(strait_eval_utf8(rk, src, strlen(src), NULL, NULL, NULL), 0);
    for (size_t i = 0; i < 5; i++) {
      snprintf(src, sizeof src, kReplacements[k], kNames[i]);
      T_EQ_INT(strait_eval_utf8(rk, src, strlen(src), NULL, NULL, NULL), 0);
    }
    for (size_t i = 0; i < 5; i++) {
      JSValueRef e = strait_make_error(ctx, kNames[i], "m%d", (int)i);
      T_CHECK(e && JSValueIsObject(ctx, e));
      JSObjectRef g = JSContextGetGlobalObject(ctx);
      JSValueRef origs = strait_get_property(ctx, g, "orig");
      JSValueRef o = JSObjectGetPropertyAtIndex(ctx, (JSObjectRef)origs, (unsigned)i, NULL);
      T_CHECK(JSValueIsInstanceOfConstructor(ctx, e, (JSObjectRef)o, NULL));
      char *msg = strait_utf8_from_value(ctx, strait_get_property(ctx, (JSObjectRef)e, "message"), NULL);
      char want[8];
      snprintf(want, sizeof want, "m%d", (int)i);
      T_EQ_STR(msg, want);
      free(msg);
    }
    strait_leave(rk);
    strait_runtime_free(rk);
  }
}

int main(void) {
  rt = trt_new(&cap, 0, NULL);
  T_RUN(thrown_non_errors);
  T_RUN(describe_values);
  T_RUN(format_errors);
  T_RUN(format_fallback);
  T_RUN(deep_recursion);
  T_RUN(recursion_through_native_callback);
  T_RUN(report_goes_to_stderr);
  T_RUN(make_error_ignores_replaced_globals);
  strait_runtime_free(rt);
  tcap_free(&cap);
  return T_DONE();
}

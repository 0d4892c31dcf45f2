/* test_module.c - CommonJS: strait_run_main, relative / absolute / JSON /
 * directory / node_modules resolution, the cache, cycles, missing modules
 * and line numbers of errors inside modules. */
#include "t.h"
#include "helpers.h"

static char dir[512];

/* Runs dir/name as the main module; returns the status and leaves the
 * formatted error in *err (malloc'd or NULL). */
static int run_main(strait_runtime *rt, const char *name, char **err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  *err = NULL;
  strait_enter(rt);
  JSValueRef exc = NULL;
  int rc = strait_run_main(rt, path, &exc);
  if (rc == STRAIT_EJS) *err = strait_error_format(rt, exc);
  strait_leave(rt);
  return rc;
}

static void make_tree(void) {
  tmkdtemp(dir, sizeof dir);
  twrite_file(dir, "main.js",
      "const a = require('./a');\n"
      "const same = require('./a.js');\n"
      "console.log(a.name, a === same, require.main === module, module.id);\n"
      "console.log(__filename === __dirname + '/main.js', require('./sub/where') === __dirname + '/sub');\n"
      "console.log(module.require('./a') === a, module.children.length, module.loaded, this === module.exports);\n");
  twrite_file(dir, "a.js", "exports.name = 'A';\n");
  twrite_file(dir, "sub/where.js", "module.exports = __dirname;\n");
  twrite_file(dir, "data.json", "{ \"list\": [1, 2], \"name\": \"json\" }\n");
  twrite_file(dir, "bad.json", "{ \"list\": [1, 2\n");
  twrite_file(dir, "lib/index.js", "module.exports = 'lib index';\n");
  twrite_file(dir, "pkgdir/package.json", "{ \"main\": \"./src/entry\" }\n");
  twrite_file(dir, "pkgdir/src/entry.js", "module.exports = 'pkg main';\n");
  twrite_file(dir, "node_modules/dep/package.json", "{ \"name\": \"dep\", \"main\": \"dist/dep.js\" }\n");
  twrite_file(dir, "node_modules/dep/dist/dep.js", "exports.hello = () => 'hello from dep';\n");
  twrite_file(dir, "node_modules/plain/index.js", "module.exports = 'plain index';\n");
  twrite_file(dir, "deep/er/user.js",
      "module.exports = require('dep').hello() + ' / ' + require('plain');\n");
  twrite_file(dir, "cyc_a.js",
      "exports.early = 'a-early';\n"
      "const b = require('./cyc_b');\n"
      "exports.late = 'a-late';\n"
      "exports.fromB = b.seen;\n");
  twrite_file(dir, "cyc_b.js",
      "const a = require('./cyc_a');\n"
      "exports.seen = [a.early, a.late].join(',');\n");
  twrite_file(dir, "counter.js", "globalThis.loads = (globalThis.loads || 0) + 1;\nmodule.exports = { n: loads };\n");
  twrite_file(dir, "thrower.js",
      "// line 1\n"
      "function inner() {\n"
      "  throw new Error('from module');\n"
      "}\n"
      "inner();\n");
  twrite_file(dir, "syntax.js", "const ok = 1;\n\nconst broken = ;\n");
  twrite_file(dir, "shebang.js", "#!/usr/bin/env strait\nmodule.exports = 'shebang ok';\n");
  twrite_file(dir, "bom.js", "\xef\xbb\xbfmodule.exports = 'bom ok';\n");
  twrite_file(dir, "utf8.js", "module.exports = 'caf\xc3\xa9 \xff';\n");
  twrite_file(dir, "main_throws.js", "\n\nnull.prop;\n");
  twrite_file(dir, "requires_missing.js", "require('./nowhere');\n");
  twrite_file(dir, "ext_order.js", "module.exports = 'ext_order.js';\n");
  twrite_file(dir, "ext_order.json", "\"ext_order.json\"\n");
  twrite_file(dir, "loaded.js", "exports.before = module.loaded;\n");
  twrite_file(dir, "line1.js", "let v = 1; null.first;\n");
}

static void main_module(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  T_EQ_INT(run_main(rt, "main.js", &err), 0);
  T_CHECK(err == NULL);
  T_EQ_STR(tbuf_str(&c.out), "A true true .\ntrue true\ntrue 2 false true\n");
  free(err);
  /* Missing main: nothing runs. */
  T_EQ_INT(run_main(rt, "no-such-file.js", &err), STRAIT_ENOENT);
  /* Without the extension, as node does. */
  tbuf_reset(&c.out);
  T_EQ_INT(run_main(rt, "a", &err), 0);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* Evaluates src with the current directory set to the tree. */
static char *eval_in_dir(strait_runtime *rt, const char *src) {
  char old[1024];
  if (!getcwd(old, sizeof old)) return NULL;
  if (chdir(dir) != 0) return NULL;
  char *r = trt_eval(rt, src);
  if (chdir(old) != 0) perror("chdir");
  return r;
}

#define T_REQ(rt, src, expected)                                             \
  do {                                                                       \
    char *t_txt = eval_in_dir((rt), (src));                                  \
    T_EQ_STR(t_txt, (expected));                                             \
    free(t_txt);                                                             \
  } while (0)

static void resolution(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_REQ(rt, "require('./data.json')", "{ list: [ 1, 2 ], name: 'json' }");
  T_REQ(rt, "require('./data')", "{ list: [ 1, 2 ], name: 'json' }");
  T_REQ(rt, "require('./lib')", "'lib index'");
  T_REQ(rt, "require('./lib/')", "'lib index'");
  T_REQ(rt, "require('./pkgdir')", "'pkg main'");
  T_REQ(rt, "require('dep').hello()", "'hello from dep'");
  T_REQ(rt, "require('./deep/er/user')", "'hello from dep / plain index'");
  T_REQ(rt, "require('./ext_order')", "'ext_order.js'");
  T_REQ(rt, "require('./shebang')", "'shebang ok'");
  T_REQ(rt, "require('./bom')", "'bom ok'");
  T_REQ(rt, "require('./utf8')", "'café \xef\xbf\xbd'");
  T_REQ(rt, "require.resolve('dep') === process.cwd() + '/node_modules/dep/dist/dep.js'", "true");
  T_REQ(rt, "require(process.cwd() + '/a.js').name", "'A'");
  T_REQ(rt, "require('./loaded').before + ' ' + require.cache[require.resolve('./loaded')].loaded",
        "'false true'");
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void cache_and_cycles(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_REQ(rt, "[require('./counter').n, require('./counter').n, require('./counter.js') === require('./counter')]",
        "[ 1, 1, true ]");
  T_REQ(rt, "delete require.cache[require.resolve('./counter')]; require('./counter').n", "2");
  T_REQ(rt, "const ca = require('./cyc_a'); [ca.early, ca.late, ca.fromB]",
        "[ 'a-early', 'a-late', 'a-early,' ]");
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void missing_modules(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char expect[1200];
  snprintf(expect, sizeof expect, "\"MODULE_NOT_FOUND Cannot find module 'nope' from '%s'\"", dir);
  T_REQ(rt, "try { require('nope') } catch (e) { e.code + ' ' + e.message }", expect);
  snprintf(expect, sizeof expect, "\"Cannot find module './nowhere' from '%s'\"", dir);
  T_REQ(rt, "try { require('./requires_missing') } catch (e) { e.message }", expect);
  T_REQ(rt, "try { require(42) } catch (e) { e instanceof TypeError }", "true");
  /* A module that failed to load is not cached. */
  T_REQ(rt, "try { require('./requires_missing') } catch (e) {} Object.keys(require.cache).some(k => k.endsWith('requires_missing.js'))",
        "false");
  /* The report starts with the message, not the loader's location. */
  char *err = eval_in_dir(rt, "require('./nowhere')");
  snprintf(expect, sizeof expect, "THROW Error: Cannot find module './nowhere' from '%s'\n    at ", dir);
  T_CONTAINS(err, expect);
  free(err);
  err = eval_in_dir(rt, "require('./bad.json')");
  T_CONTAINS(err, "SyntaxError: ");
  T_CONTAINS(err, "/bad.json: JSON Parse error");
  free(err);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void error_lines_in_modules(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  char *err;
  char expect[1200];
  T_EQ_INT(run_main(rt, "thrower.js", &err), STRAIT_EJS);
  snprintf(expect, sizeof expect, "%s/thrower.js:3:", dir);
  T_CONTAINS(err, expect);
  T_CONTAINS(err, "Error: from module\n");
  snprintf(expect, sizeof expect, "    at inner (%s/thrower.js:3:", dir);
  T_CONTAINS(err, expect);
  snprintf(expect, sizeof expect, "    at %s/thrower.js:5:", dir);
  T_CONTAINS(err, expect);
  free(err);

  T_EQ_INT(run_main(rt, "syntax.js", &err), STRAIT_EJS);
  snprintf(expect, sizeof expect, "%s/syntax.js:3: SyntaxError: Unexpected token ';'\n", dir);
  T_CONTAINS(err, expect);
  free(err);

  T_EQ_INT(run_main(rt, "main_throws.js", &err), STRAIT_EJS);
  snprintf(expect, sizeof expect, "%s/main_throws.js:3:", dir);
  T_CONTAINS(err, expect);
  T_CONTAINS(err, "TypeError: null is not an object");
  free(err);

  /* Columns on the first line do not count the module wrapper (the same
   * code evaluated as a script reports column 16 too). */
  T_EQ_INT(run_main(rt, "line1.js", &err), STRAIT_EJS);
  snprintf(expect, sizeof expect, "%s/line1.js:1:16: TypeError", dir);
  T_CONTAINS(err, expect);
  snprintf(expect, sizeof expect, "\n    at %s/line1.js:1:16\n", dir);
  T_CONTAINS(err, expect);
  free(err);

  /* describe() gives file and line of an error thrown in a module. */
  strait_enter(rt);
  char path[1024];
  snprintf(path, sizeof path, "%s/thrower.js", dir);
  JSValueRef exc = NULL;
  T_EQ_INT(strait_run_main(rt, path, &exc), STRAIT_EJS);
  strait_error_info info;
  T_EQ_INT(strait_error_describe(rt, exc, &info), 0);
  T_EQ_STR(info.file, path);
  T_EQ_INT(info.line, 3);
  T_CHECK(info.column > 0);
  T_EQ_STR(info.message, "from module");
  strait_error_info_free(&info);
  strait_leave(rt);
  strait_runtime_free(rt);
  tcap_free(&c);
}

static void builtin_modules(void) {
  tcap c = {0};
  strait_runtime *rt = trt_new(&c, 0, NULL);
  T_EVAL(rt, "const path = require('path'); [path.join('/a/b', '../c', './d.js'), path.dirname('/a/b/c.js'),"
             " path.basename('/a/b/c.js', '.js'), path.extname('x/y.tar.gz'), path.normalize('a//b/../c/'),"
             " path.isAbsolute('/x'), path.relative('/a/b/c', '/a/d'), path.resolve('/x', 'y', '..', 'z/')].join(' ')",
         "'/a/c/d.js /a/b c .gz a/c/ true ../../d /x/z'");
  T_EVAL(rt, "require('node:path') === require('path') && require.resolve('path')", "'path'");
  T_EVAL(rt, "const util = require('util'); [util.format('%s=%d', 'x', 5), util.inspect({ a: [1] })]",
         "[ 'x=5', '{ a: [ 1 ] }' ]");
  T_EVAL(rt, "try { require('node:nothing') } catch (e) { e.code }", "'MODULE_NOT_FOUND'");
  strait_runtime_free(rt);
  tcap_free(&c);
}

int main(void) {
  make_tree();
  T_RUN(main_module);
  T_RUN(resolution);
  T_RUN(cache_and_cycles);
  T_RUN(missing_modules);
  T_RUN(error_lines_in_modules);
  T_RUN(builtin_modules);
  trm_rf(dir);
  return T_DONE();
}

/* test_fs_race.c - the file root (strait_options.fs_root) under a real
 * race (issue point 13): a helper thread flips one path, again and again,
 * between an object inside the root and a symbolic link to one outside it
 * (renameat2 RENAME_EXCHANGE, so the path always exists), while the
 * runtime opens that path many times. The outside content must never be
 * loaded and nothing may crash; the inside content must load at least
 * once (the race was real). One test per way the runtime opens a file on a
 * script's behalf: a required file, a package.json, a directory probe
 * (index.js), a path component, the main module (strait_run_main, which
 * the launcher calls) and a worker's script. Each runs twice: with openat2
 * and with the openat walk (strait__fs_open_how = 2), the kernel's
 * fallback. */
#define _GNU_SOURCE
#include "t.h"
#include "helpers.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

/* Each race runs at least ROUNDS opens and race_ms() milliseconds
 * (STRAIT_RACE_MS, default 1000: the old check-then-open code loaded the
 * outside file in about one open of a hundred to a thousand here), and on
 * until both sides were seen (a load and a refusal), at most 10x that. */
#define ROUNDS 300
static double race_ms(void) {
  const char *e = getenv("STRAIT_RACE_MS");
  return e && atof(e) > 0 ? atof(e) : 1000;
}

/* One generated race: kind names what flips. */
typedef struct race {
  const char *kind;
  char dir[512], root[640], out[640];
  char target[800];           /* the path that flips (inside the root) */
  char alt[800];              /* the name it is exchanged with */
  atomic_int stop;
  atomic_long flips;
  int flip_errno;
  pthread_t tid;
} race;

static void *flipper(void *p) {
  race *r = p;
  while (!atomic_load(&r->stop)) {
    if (renameat2(AT_FDCWD, r->target, AT_FDCWD, r->alt, RENAME_EXCHANGE) != 0) {
      r->flip_errno = errno;
      break;
    }
    atomic_fetch_add(&r->flips, 1);
  }
  return NULL;
}

/* Sets up kind: `inside` is the object at target (a file's text, or a
 * directory made by the caller when text is NULL), the link at alt points
 * to out/<what>. */
static void race_init(race *r, const char *kind) {
  memset(r, 0, sizeof *r);
  r->kind = kind;
  tmkdtemp(r->dir, sizeof r->dir);
  snprintf(r->root, sizeof r->root, "%s/root", r->dir);
  snprintf(r->out, sizeof r->out, "%s/outside", r->dir);
  mkdir(r->root, 0755);
  mkdir(r->out, 0755);
}

/* Makes the link alt -> out/what and starts flipping target and alt. */
static void race_start(race *r, const char *name, const char *what) {
  char to[800];
  snprintf(r->target, sizeof r->target, "%s/%s", r->root, name);
  snprintf(r->alt, sizeof r->alt, "%s/.alt-%s", r->root, r->kind);
  snprintf(to, sizeof to, "%s/%s", r->out, what);
  if (symlink(to, r->alt) != 0) { perror("symlink"); exit(2); }
  pthread_create(&r->tid, NULL, flipper, r);
  /* let it flip before the first open */
  while (atomic_load(&r->flips) < 100 && !r->flip_errno) usleep(100);
}

static void race_stop(race *r) {
  atomic_store(&r->stop, 1);
  pthread_join(r->tid, NULL);
  if (r->flip_errno) fprintf(stderr, "%s: renameat2: %s\n", r->kind, strerror(r->flip_errno));
  T_EQ_INT(r->flip_errno, 0);
  T_CHECK(atomic_load(&r->flips) > 100);
  trm_rf(r->dir);
}

/* A runtime confined to r's root. */
static strait_runtime *race_rt(race *r, tcap *c) {
  strait_options o;
  memset(&o, 0, sizeof o);
  o.write = tcap_write;
  o.write_ud = c;
  o.fs_root = r->root;
  strait_runtime *rt = NULL;
  if (strait_runtime_new(&o, &rt) != 0) { fprintf(stderr, "runtime\n"); exit(2); }
  return rt;
}

/* Requires id (under the root) `rounds` times, clearing the cache each
 * time, and checks the tally: never 'SECRET', some 'inside'. */
static void require_race(race *r, const char *id, int rounds) {
  tcap c = {0};
  strait_runtime *rt = race_rt(r, &c);
  char src[2000];
  snprintf(src, sizeof src,
           "(() => { const t = { inside: 0, SECRET: 0, other: 0 }, codes = {};"
           "  let denied = 0; const until = Date.now() + %f;"
           "  for (let i = 0; i < %d * 100 && (i < %d || Date.now() < until || !t.inside || !denied); i++) {"
           "    for (const k of Object.keys(require.cache)) delete require.cache[k];"
           "    try { const v = require('%s'); if (v === 'inside' || v === 'SECRET') t[v]++; else t.other++; }"
           "    catch (e) { codes[e.code] = (codes[e.code] || 0) + 1; denied++; }"
           "  }"
           "  return JSON.stringify([t, codes]); })()",
           race_ms(), rounds, rounds, id);
  char *res = trt_eval(rt, src);
  fprintf(stderr, "  %s (%s, %ld flips): %s\n", r->kind, strait__fs_open_how == 2 ? "walk" : "openat2",
          atomic_load(&r->flips), res);
  T_CHECK(strstr(res, "\"SECRET\":0,") != NULL);
  T_CHECK(strstr(res, "\"inside\":0,") == NULL);
  T_CHECK(strncmp(res, "THROW", 5) != 0);
  free(res);
  strait_runtime_free(rt);
  tcap_free(&c);
}

/* ---- one test per way a file is opened -------------------------------- */


/* require() of a file that flips to a link to a file outside */
static void race_file(void) {
  race r;
  race_init(&r, "file");
  twrite_file(r.root, "m.js", "module.exports = 'inside';");
  twrite_file(r.out, "secret.js", "module.exports = 'SECRET';");
  race_start(&r, "m.js", "secret.js");
  char id[900];
  snprintf(id, sizeof id, "%s/m.js", r.root);
  require_race(&r, id, ROUNDS);
  race_stop(&r);
}

/* a package.json read (its "main") that flips to one outside: loading
 * leak.js (inside the root) would mean the outside package.json was read */
static void race_package_json(void) {
  race r;
  race_init(&r, "package");
  twrite_file(r.root, "pkg/in.js", "module.exports = 'inside';");
  twrite_file(r.root, "pkg/leak.js", "module.exports = 'SECRET';");
  twrite_file(r.root, "pkg/package.json", "{ \"main\": \"in.js\" }");
  twrite_file(r.out, "package.json", "{ \"main\": \"leak.js\" }");
  race_start(&r, "pkg/package.json", "package.json");
  char id[900];
  snprintf(id, sizeof id, "%s/pkg", r.root);
  require_race(&r, id, ROUNDS);
  race_stop(&r);
}

/* a directory (probed, then its index.js) that flips to a link to a
 * directory outside */
static void race_directory(void) {
  race r;
  race_init(&r, "directory");
  twrite_file(r.root, "d/index.js", "module.exports = 'inside';");
  twrite_file(r.out, "d/index.js", "module.exports = 'SECRET';");
  race_start(&r, "d", "d");
  char id[900];
  snprintf(id, sizeof id, "%s/d", r.root);
  require_race(&r, id, ROUNDS);
  race_stop(&r);
}

/* a directory in the middle of the path */
static void race_component(void) {
  race r;
  race_init(&r, "component");
  twrite_file(r.root, "c/m.js", "module.exports = 'inside';");
  twrite_file(r.out, "c/m.js", "module.exports = 'SECRET';");
  race_start(&r, "c", "c");
  char id[900];
  snprintf(id, sizeof id, "%s/c/m.js", r.root);
  require_race(&r, id, ROUNDS);
  race_stop(&r);
}

/* the main module (strait_run_main: the launcher's script, a worker's) */
static void race_main(void) {
  race r;
  race_init(&r, "main");
  twrite_file(r.root, "main.js", "globalThis.seen = 'inside';");
  twrite_file(r.out, "main.js", "globalThis.seen = 'SECRET';");
  race_start(&r, "main.js", "main.js");
  tcap c = {0};
  strait_runtime *rt = race_rt(&r, &c);
  int inside = 0, secret = 0, failed = 0;
  double until = tnow_ms() + race_ms();
  for (int i = 0; i < ROUNDS * 100 && (i < ROUNDS || tnow_ms() < until || !inside || !failed); i++) {
    strait_enter(rt);
    JSValueRef exc = NULL, v = NULL;
    JSContextRef ctx = strait_runtime_context(rt);
    strait_eval_utf8(rt, "globalThis.seen = 'none'", 24, "[test]", &v, &exc);
    int rc = strait_run_main(rt, r.target, &exc);
    if (rc != 0) failed++;
    strait_eval_utf8(rt, "globalThis.seen", 15, "[test]", &v, &exc);
    char *s = v ? strait_utf8_from_value(ctx, v, NULL) : NULL;
    if (s && strcmp(s, "inside") == 0) inside++;
    if (s && strcmp(s, "SECRET") == 0) secret++;
    free(s);
    strait_leave(rt);
  }
  fprintf(stderr, "  main (%s, %ld flips): inside %d, SECRET %d, refused %d\n",
          strait__fs_open_how == 2 ? "walk" : "openat2", atomic_load(&r.flips), inside, secret, failed);
  T_EQ_INT(secret, 0);
  T_CHECK(inside > 0);
  strait_runtime_free(rt);
  tcap_free(&c);
  race_stop(&r);
}

/* a worker's script file (new Worker(file): its own runtime, which
 * inherits the root, loads it with strait_run_main) */
static void race_worker(void) {
  race r;
  race_init(&r, "worker");
  twrite_file(r.root, "w.js", "require('worker_threads').parentPort.postMessage('inside');");
  twrite_file(r.out, "w.js", "require('worker_threads').parentPort.postMessage('SECRET');");
  race_start(&r, "w.js", "w.js");
  tcap c = {0};
  strait_runtime *rt = race_rt(&r, &c);
  char src[2000], *err = NULL;
  snprintf(src, sizeof src,
           "const { Worker } = require('worker_threads');"
           "const t = { inside: 0, SECRET: 0, refused: 0 }; let n = 0, active = 0;"
           "const until = Date.now() + %f;"
           /* four at a time; each that exits starts the next */
           "function one() {"
           "  if (++n > 5000 || (n > 50 && Date.now() > until && t.inside && t.refused)) {"
           "    if (active === 0) console.log(JSON.stringify(t)); return; }"
           "  active++;"
           "  const w = new Worker('%s');"
           "  w.on('message', (v) => { t[v]++; });"
           "  w.on('error', () => { t.refused++; });"
           "  w.on('exit', () => { active--; one(); });"
           "}"
           "for (let k = 0; k < 4; k++) one();",
           race_ms(), r.target);
  int rc = trt_run(rt, src, &err);
  if (err) fprintf(stderr, "%s\n", err);
  T_EQ_INT(rc, 0);
  free(err);
  fprintf(stderr, "  worker (%s, %ld flips): %s", strait__fs_open_how == 2 ? "walk" : "openat2",
          atomic_load(&r.flips), tbuf_str(&c.out));
  T_CONTAINS(tbuf_str(&c.out), "\"SECRET\":0,");
  T_CHECK(strstr(tbuf_str(&c.out), "\"inside\":0,") == NULL);
  strait_runtime_free(rt);
  tcap_free(&c);
  race_stop(&r);
}

/* Links inside the root that stay inside keep working (absolute and
 * relative, to files and directories), with either way of opening. */
static void links_inside_the_root(void) {
  char dir[512], root[640], p[900], to[900];
  tmkdtemp(dir, sizeof dir);
  snprintf(root, sizeof root, "%s/root", dir);
  mkdir(root, 0755);
  twrite_file(root, "lib/real.js", "module.exports = 'real';");
  twrite_file(root, "pkgs/p/index.js", "module.exports = 'p';");
  snprintf(p, sizeof p, "%s/abs.js", root);
  snprintf(to, sizeof to, "%s/lib/real.js", root);
  T_CHECK(symlink(to, p) == 0);
  snprintf(p, sizeof p, "%s/rel.js", root);
  T_CHECK(symlink("lib/real.js", p) == 0);
  snprintf(p, sizeof p, "%s/linkdir", root);
  snprintf(to, sizeof to, "%s/pkgs", root);
  T_CHECK(symlink(to, p) == 0);
  for (int how = 0; how < 2; how++) {
    strait__fs_open_how = how ? 2 : 0;
    tcap c = {0};
    strait_options o;
    memset(&o, 0, sizeof o);
    o.write = tcap_write;
    o.write_ud = &c;
    o.fs_root = root;
    strait_runtime *rt = NULL;
    T_EQ_INT(strait_runtime_new(&o, &rt), 0);
    char src[3000];
    snprintf(src, sizeof src, "[require('%s/abs.js'), require('%s/rel'), require('%s/linkdir/p')]", root,
             root, root);
    T_EVAL(rt, src, "[ 'real', 'real', 'p' ]");
    strait_runtime_free(rt);
    tcap_free(&c);
  }
  strait__fs_open_how = 0;
  trm_rf(dir);
}

int main(void) {
  T_RUN(links_inside_the_root);
  for (int how = 0; how < 2; how++) {
    strait__fs_open_how = how ? 2 : 0;
    T_RUN(race_file);
    T_RUN(race_package_json);
    T_RUN(race_directory);
    T_RUN(race_component);
    T_RUN(race_main);
    T_RUN(race_worker);
  }
  return T_DONE();
}

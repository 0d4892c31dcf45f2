/*
 * fuzz_codec.h - fuzzing of the value-format readers. Random and mutated
 * buffers (seeded from the .bin files of tests/vectors) go through the pure C validator
 * and, for a share of them, through the JS reader; whatever the bytes, the
 * readers must answer 0 or a status and never touch memory outside the
 * buffer (the sanitizer build checks that). A buffer the validator accepts
 * must also read into JS, and the JS value must write back into a valid
 * buffer.
 *
 * Included by tests/c/test_codec_fuzz.c (part of `make test-c` and
 * `make asan`) and by tests/fuzz/fuzz_codec.c (libFuzzer entry point and a
 * standalone driver).
 */
#ifndef STRAIT_FUZZ_CODEC_H
#define STRAIT_FUZZ_CODEC_H

#include "codec.h"
#include "internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_stats {
  unsigned long cases, valid, js_reads, js_ok;
  unsigned long unexpected;   /* statuses other than 0 / ECORRUPT / ENOMEM */
  unsigned long mismatches;   /* validator ok but JS reader failed, or bad re-write */
  char last_problem[300];
} fz_stats;

/* xorshift64* random numbers (deterministic per seed). */
static uint64_t fz_state = 0x9E3779B97F4A7C15ull;
static uint64_t fz_rand(void) {
  fz_state ^= fz_state >> 12;
  fz_state ^= fz_state << 25;
  fz_state ^= fz_state >> 27;
  return fz_state * 2685821657736338717ull;
}

/* Reader hooks for the fuzz: every reference becomes a number. */
static JSValueRef fz_ref(void *ud, JSContextRef c, uint32_t id, JSValueRef *exc) {
  return JSValueMakeNumber(c, id);
}
static JSValueRef fz_ext(void *ud, JSContextRef c, uint32_t type, const uint8_t *d, uint32_t n,
                         JSValueRef *exc) {
  return JSValueMakeNumber(c, n);
}
static bool fz_java_id(void *ud, JSContextRef c, JSObjectRef o, uint32_t *id) { return false; }
static uint32_t fz_handle(void *ud, JSContextRef c, JSValueRef v, bool *ok) { return 1; }

/* When set, accepted buffers also go through the JS fast-path reader
 * (codec_js.c) and must give a value that writes the same bytes as the C
 * reader's, and the JS writer must write the C reader's value as the C
 * writer does (differential tests of the two implementations). */
static strait_runtime *fz_js_rt;

/* Runs one buffer through the validator and, if ctx, the JS reader. */
static void fz_one(JSContextRef ctx, const uint8_t *buf, size_t n, fz_stats *st) {
  strait_value_error err;
  /* copy into an exact-size heap block so ASan sees any overread */
  uint8_t *b = malloc(n ? n : 1);
  if (n) memcpy(b, buf, n);
  int rc = strait__codec_validate(b, n, &err);
  st->cases++;
  if (rc == 0) st->valid++;
  else if (rc != STRAIT_ECORRUPT && rc != STRAIT_ENOMEM) {
    st->unexpected++;
    snprintf(st->last_problem, sizeof st->last_problem, "validator returned %d", rc);
  }
  if (ctx) {
    static const strait_value_hooks h = {.java_value = fz_ref, .js_value = fz_ref, .ext_value = fz_ext,
                                          .java_id = fz_java_id, .js_handle = fz_handle};
    JSValueRef v = NULL, exc = NULL;
    int rc2 = strait__codec_read(ctx, b, n, &h, &v, &err, &exc);
    st->js_reads++;
    if (rc2 == 0) {
      st->js_ok++;
      strait_buffer out;
      strait_buffer_init(&out, NULL, 0);
      int rc3 = strait__codec_write(ctx, v, &out, STRAIT_VALUE_HANDLES, &h, &err, &exc);
      if (rc3 == 0 && strait__codec_validate(out.data, out.len, &err) != 0) {
        st->mismatches++;
        snprintf(st->last_problem, sizeof st->last_problem, "re-written value invalid: %s", err.msg);
      }
      if (rc3 == 0 && fz_js_rt) {
        JSValueRef jv = NULL;
        int rc4 = strait_value_decode(fz_js_rt, b, n, &h, &jv, &err, &exc);
        strait_buffer out2;
        strait_buffer_init(&out2, NULL, 0);
        int rc5 = rc4 ? rc4 : strait__codec_write(ctx, jv, &out2, STRAIT_VALUE_HANDLES, &h, &err, &exc);
        if (rc5 || out2.len != out.len || memcmp(out2.data, out.data, out.len) != 0) {
          st->mismatches++;
          snprintf(st->last_problem, sizeof st->last_problem, "JS reader differs from the C reader (rc %d, %s)",
                   rc5, err.msg);
        }
        strait_buffer_free(&out2);
        strait_buffer out3;
        strait_buffer_init(&out3, NULL, 0);
        int rc6 = strait_value_encode(fz_js_rt, v, &out3, STRAIT_VALUE_HANDLES, &h, &err, &exc);
        if (rc6 || out3.len != out.len || memcmp(out3.data, out.data, out.len) != 0) {
          st->mismatches++;
          snprintf(st->last_problem, sizeof st->last_problem, "JS writer differs from the C writer (rc %d, %s)",
                   rc6, err.msg);
        }
        strait_buffer_free(&out3);
      }
      strait_buffer_free(&out);
    }
    if ((rc == 0) != (rc2 == 0) && rc2 != STRAIT_EJS) {
      st->mismatches++;
      snprintf(st->last_problem, sizeof st->last_problem, "validator %d, JS reader %d (%s)", rc, rc2, err.msg);
    }
  }
  free(b);
}

/* Seeds: the shared vectors plus a few hand-made buffers. */
typedef struct fz_seeds {
  uint8_t **data;
  size_t *len;
  size_t n, cap;
} fz_seeds;

static void fz_add_seed(fz_seeds *s, const uint8_t *d, size_t n) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->data = realloc(s->data, s->cap * sizeof *s->data);
    s->len = realloc(s->len, s->cap * sizeof *s->len);
  }
  s->data[s->n] = malloc(n ? n : 1);
  memcpy(s->data[s->n], d, n);
  s->len[s->n++] = n;
}

static void fz_load_seeds(fz_seeds *s, const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t nl = strlen(e->d_name);
    if (nl < 5 || strcmp(e->d_name + nl - 4, ".bin")) continue;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    uint8_t buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    fz_add_seed(s, buf, n);
  }
  if (d) closedir(d);
  static const uint8_t nested[] = {'S', 'T', 'V', 1, 30, 0, 0, 0, 0x0A, 2, 0, 0, 0, 0x0D, 1, 0, 0, 0,
                                   0x08, 1, 0, 0, 0, 'k', 0x14, 0, 0, 0, 0, 0x14, 1, 0, 0, 0, 0x03};
  fz_add_seed(s, nested, 8 + 27);
}

static void fz_free_seeds(fz_seeds *s) {
  for (size_t i = 0; i < s->n; i++) free(s->data[i]);
  free(s->data);
  free(s->len);
}

/* Patches the header's length to match n (so mutations get past it). */
static void fz_fix_header(uint8_t *b, size_t n) {
  if (n < 8) return;
  uint32_t v = (uint32_t)(n - 8);
  memcpy(b + 4, &v, 4);
}

/* One mutated (or purely random) buffer into b (capacity cap); its size. */
static size_t fz_make(const fz_seeds *s, uint8_t *b, size_t cap) {
  static const uint8_t interesting[] = {0, 1, 2, 0x7F, 0x80, 0xFF, 0x0A, 0x0D, 0x0E, 0x0F, 0x10, 0x14, 0x12, 0x16};
  size_t n;
  if (!s->n || fz_rand() % 8 == 0) {
    n = 8 + fz_rand() % 64;
    b[0] = 'S'; b[1] = 'T'; b[2] = 'V'; b[3] = 1;
    for (size_t i = 8; i < n; i++)
      b[i] = fz_rand() % 3 ? (uint8_t)(fz_rand() % (STRAIT_V_TAG_MAX + 2)) : (uint8_t)fz_rand();
    fz_fix_header(b, n);
    return n;
  }
  size_t k = fz_rand() % s->n;
  n = s->len[k] < cap ? s->len[k] : cap;
  memcpy(b, s->data[k], n);
  int rounds = 1 + (int)(fz_rand() % 4);
  for (int r = 0; r < rounds; r++) {
    switch (fz_rand() % 7) {
      case 0: if (n) b[fz_rand() % n] ^= (uint8_t)(1u << (fz_rand() % 8)); break;
      case 1: if (n) b[fz_rand() % n] = interesting[fz_rand() % sizeof interesting]; break;
      case 2: if (n) b[fz_rand() % n] = (uint8_t)fz_rand(); break;
      case 3: if (n > 8) n = 8 + fz_rand() % (n - 8); break;             /* truncate */
      case 4: if (n < cap) { size_t at = fz_rand() % (n + 1);            /* insert */
                memmove(b + at + 1, b + at, n - at); b[at] = (uint8_t)fz_rand(); n++; } break;
      case 5: if (n > 9) { size_t at = 8 + fz_rand() % (n - 8);          /* delete */
                memmove(b + at, b + at + 1, n - at - 1); n--; } break;
      case 6: if (n >= 12) { size_t at = 8 + fz_rand() % (n - 11);       /* big count */
                uint32_t v = (uint32_t)(fz_rand() % 3 ? fz_rand() % 300 : fz_rand());
                memcpy(b + at, &v, 4); } break;
    }
  }
  if (fz_rand() % 10) fz_fix_header(b, n);
  return n;
}

/* Runs `cases` buffers (every js_every-th also through JS when ctx). */
static void fz_run(JSContextRef ctx, unsigned long cases, unsigned js_every, const char *seed_dir,
                   fz_stats *st) {
  fz_seeds s = {0};
  fz_load_seeds(&s, seed_dir);
  uint8_t *b = malloc(70000);
  for (unsigned long i = 0; i < cases; i++) {
    size_t n = fz_make(&s, b, 70000);
    fz_one(ctx && js_every && i % js_every == 0 ? ctx : NULL, b, n, st);
  }
  free(b);
  fz_free_seeds(&s);
}

#endif /* STRAIT_FUZZ_CODEC_H */

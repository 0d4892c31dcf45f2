/*
 * ptrmap.h - a map from non-NULL pointers to pointer-sized values: open
 * addressing with linear probing, capacity a power of two kept at most half
 * full, no deletion. Header-only and free of JavaScriptCore and JNI types,
 * so the core (the codec's identity table, src/core/codec_write.c) and the
 * JNI layer (the bridge's function map, src/jni/model/class_objects.c)
 * share it. Not thread-safe: each map has one owner (a conversion, or a
 * runtime inside its gate).
 *
 * The bridge's wrapper table (src/jni/model/wrappers.c) does not use it on
 * purpose: its indexes keep 4-byte slot numbers (the keys live in the
 * entries), hash by cell number for cache locality, and need deletion.
 *
 *   strait__ptrmap m = {0};
 *   if (strait__ptrmap_put(&m, key, value)) ...out of memory...
 *   uintptr_t v;
 *   if (strait__ptrmap_get(&m, key, &v)) ...found...
 *   strait__ptrmap_free(&m);
 */
#ifndef STRAIT_PTRMAP_H
#define STRAIT_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct strait__ptrmap {
  uintptr_t *keys;        /* 0: empty place */
  uintptr_t *vals;
  size_t cap;             /* 0 or a power of two */
  size_t n;
} strait__ptrmap;

/* Place of key in a table of capacity cap (a power of two). */
static inline size_t strait__ptrmap_hash(uintptr_t key, size_t cap) {
  uint64_t x = (uint64_t)key;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 32;
  return (size_t)x & (cap - 1);
}

/* True with *val set when key is in m. */
static inline bool strait__ptrmap_get(const strait__ptrmap *m, const void *key, uintptr_t *val) {
  if (!m->n) return false;
  uintptr_t k = (uintptr_t)key;
  for (size_t i = strait__ptrmap_hash(k, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == k) {
      *val = m->vals[i];
      return true;
    }
  }
  return false;
}

/* Doubles the capacity (first use: 64 places). 0, or -1 out of memory (m
 * unchanged). */
static inline int strait__ptrmap_grow(strait__ptrmap *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  uintptr_t *k = calloc(cap, sizeof *k);
  uintptr_t *v = malloc(cap * sizeof *v);
  if (!k || !v) {
    free(k);
    free(v);
    return -1;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t j = strait__ptrmap_hash(m->keys[i], cap);
    while (k[j]) j = (j + 1) & (cap - 1);
    k[j] = m->keys[i];
    v[j] = m->vals[i];
  }
  free(m->keys);
  free(m->vals);
  m->keys = k;
  m->vals = v;
  m->cap = cap;
  return 0;
}

/* Maps key (not NULL) to val, replacing an earlier value. 0, or -1 out of
 * memory (m unchanged). */
static inline int strait__ptrmap_put(strait__ptrmap *m, const void *key, uintptr_t val) {
  if ((m->n + 1) * 2 > m->cap && strait__ptrmap_grow(m)) return -1;
  uintptr_t k = (uintptr_t)key;
  size_t i = strait__ptrmap_hash(k, m->cap);
  while (m->keys[i] && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) m->n++;
  m->keys[i] = k;
  m->vals[i] = val;
  return 0;
}

/* Frees the tables; m is empty and reusable afterwards. */
static inline void strait__ptrmap_free(strait__ptrmap *m) {
  free(m->keys);
  free(m->vals);
  m->keys = m->vals = NULL;
  m->cap = m->n = 0;
}

#endif /* STRAIT_PTRMAP_H */

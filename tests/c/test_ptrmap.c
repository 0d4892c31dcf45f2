/*
 * test_ptrmap.c - the pointer map shared by the codec's identity table and
 * the bridge's function map (src/common/ptrmap.h): every key put is found
 * with its last value across growth, absent keys are not found (also keys
 * that collide in the table), replacing keeps the count, free empties.
 */
#include "common/ptrmap.h"
#include "t.h"

static void empty_map_finds_nothing(void) {
  strait__ptrmap m = {0};
  uintptr_t v = 7;
  T_CHECK(!strait__ptrmap_get(&m, (void *)0x1000, &v));
  T_EQ_INT(v, 7);
  strait__ptrmap_free(&m);
}

/* Keys spaced like heap cells (16 bytes apart) and in blocks, as JSC
 * allocates them, through several doublings. */
static void finds_every_key_across_growth(void) {
  strait__ptrmap m = {0};
  enum { N = 100000 };
  for (uintptr_t i = 1; i <= N; i++) T_EQ_INT(strait__ptrmap_put(&m, (void *)(i * 16), i * 3), 0);
  T_EQ_INT(m.n, N);
  T_CHECK(m.cap >= 2 * N);
  int missing = 0, wrong = 0, phantom = 0;
  for (uintptr_t i = 1; i <= N; i++) {
    uintptr_t v = 0;
    if (!strait__ptrmap_get(&m, (void *)(i * 16), &v)) missing++;
    else if (v != i * 3) wrong++;
    uintptr_t w;
    if (strait__ptrmap_get(&m, (void *)(i * 16 + 8), &w)) phantom++;   /* between two keys */
  }
  T_EQ_INT(missing, 0);
  T_EQ_INT(wrong, 0);
  T_EQ_INT(phantom, 0);
  strait__ptrmap_free(&m);
  T_EQ_INT(m.n, 0);
  T_CHECK(!strait__ptrmap_get(&m, (void *)16, &(uintptr_t){0}));
}

static void put_replaces_value(void) {
  strait__ptrmap m = {0};
  T_EQ_INT(strait__ptrmap_put(&m, (void *)0x40, 1), 0);
  T_EQ_INT(strait__ptrmap_put(&m, (void *)0x40, 2), 0);
  uintptr_t v = 0;
  T_CHECK(strait__ptrmap_get(&m, (void *)0x40, &v));
  T_EQ_INT(v, 2);
  T_EQ_INT(m.n, 1);
  strait__ptrmap_free(&m);
}

/* Keys that land on the same place of a small table probe past each
 * other: a key is never answered with another key's value. */
static void colliding_keys_keep_their_values(void) {
  strait__ptrmap m = {0};
  void *keys[40];
  int nk = 0;
  size_t want = strait__ptrmap_hash(0x1000, 64);
  for (uintptr_t k = 0x1000; nk < 40 && k < 0x1000 + (1u << 24); k += 8)
    if (strait__ptrmap_hash(k, 64) == want) keys[nk++] = (void *)k;
  T_CHECK(nk >= 20);
  for (int i = 0; i < 20; i++) T_EQ_INT(strait__ptrmap_put(&m, keys[i], (uintptr_t)i + 100), 0);
  for (int i = 0; i < 20; i++) {
    uintptr_t v = 0;
    T_CHECK(strait__ptrmap_get(&m, keys[i], &v));
    T_EQ_INT(v, i + 100);
  }
  for (int i = 20; i < nk; i++) T_CHECK(!strait__ptrmap_get(&m, keys[i], &(uintptr_t){0}));
  strait__ptrmap_free(&m);
}

int main(void) {
  T_RUN(empty_map_finds_nothing);
  T_RUN(finds_every_key_across_growth);
  T_RUN(put_replaces_value);
  T_RUN(colliding_keys_keep_their_values);
  return T_DONE();
}

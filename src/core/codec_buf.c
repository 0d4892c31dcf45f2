/* codec_buf.c - the growing output buffer of the value writers. */
#define STRAIT_CODEC_NO_JSC
#include "codec.h"

#include <stdlib.h>
#include <string.h>

/* Starts b on lent memory mem (may be NULL with cap 0). One thread. */
void strait_buffer_init(strait_buffer *b, uint8_t *mem, size_t cap) {
  b->data = mem;
  b->len = 0;
  b->cap = mem ? cap : 0;
  b->spilled = false;
  b->failed = false;
}

/* Grows to hold n more bytes: the first growth copies out of the lent
 * memory into a malloc'd block (spill), later ones realloc. One thread. */
bool strait__vbuf_grow(strait_buffer *b, size_t n) {
  if (b->failed) return false;
  if (b->cap - b->len >= n) return true;
  size_t want = b->len + n;
  if (want < b->len) { b->failed = true; return false; }
  size_t nc = b->cap < 4096 ? 4096 : b->cap;
  while (nc < want) {
    if (nc > SIZE_MAX / 2) { nc = want; break; }
    nc *= 2;
  }
  uint8_t *nd;
  if (b->spilled) {
    nd = realloc(b->data, nc);
  } else {
    nd = malloc(nc);
    if (nd && b->len) memcpy(nd, b->data, b->len);
  }
  if (!nd) { b->failed = true; return false; }
  b->data = nd;
  b->cap = nc;
  b->spilled = true;
  return true;
}

/* Frees a spilled block; lent memory stays the lender's. One thread. */
void strait_buffer_free(strait_buffer *b) {
  if (b->spilled) free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->spilled = false;
}

/* Appends "STV" 1 and a zero length. One thread. */
bool strait__vbuf_header(strait_buffer *b) {
  if (!strait__vbuf_need(b, STRAIT_V_HEADER)) return false;
  uint8_t *p = b->data + b->len;
  p[0] = STRAIT_V_MAGIC0;
  p[1] = STRAIT_V_MAGIC1;
  p[2] = STRAIT_V_MAGIC2;
  p[3] = STRAIT_V_VERSION;
  memset(p + 4, 0, 4);
  b->len += STRAIT_V_HEADER;
  return true;
}

/* Stores the value length in the header at the start of b. One thread. */
bool strait__vbuf_finish(strait_buffer *b) {
  size_t n = b->len - STRAIT_V_HEADER;
  if (n > UINT32_MAX) return false;
  uint32_t v = (uint32_t)n;
  memcpy(b->data + 4, &v, 4);
  return true;
}

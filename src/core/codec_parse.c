/*
 * codec_parse.c - pull parser and validator of the value format (pure C, no
 * JavaScriptCore calls): every read is bounds-checked, nesting lives on a
 * heap stack. Used by the JS reader (codec_read.c) and by the fuzzer.
 */
#define STRAIT_CODEC_NO_JSC
#include "codec.h"
#include "strait.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Element size of a BYTES kind; 0 for an unknown kind. Any thread. */
unsigned strait__codec_kind_size(unsigned kind) {
  static const unsigned char size[] = {1, 1, 1, 1, 2, 2, 4, 4, 4, 8, 8, 8, 1};
  return kind <= STRAIT_VB_KIND_MAX ? size[kind] : 0;
}

/* Fills err with ECORRUPT at the parser's position; returns ECORRUPT. */
static int corrupt(strait__vparser *ps, strait_value_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int corrupt(strait__vparser *ps, strait_value_error *err, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->status = STRAIT_ECORRUPT;
    err->offset = (size_t)(ps->p - ps->base);
    int n = snprintf(err->msg, sizeof err->msg, "corrupt value at byte %zu: ", err->offset);
    if (n > 0 && (size_t)n < sizeof err->msg) vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return STRAIT_ECORRUPT;
}

/* Fills err with ENOMEM; returns ENOMEM. */
static int nomem(strait_value_error *err) {
  if (err) {
    err->status = STRAIT_ENOMEM;
    err->offset = 0;
    snprintf(err->msg, sizeof err->msg, "out of memory while reading a value");
  }
  return STRAIT_ENOMEM;
}

static inline uint32_t rd_u32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* Checks the header and prepares ps; the caller frees it with
 * strait__vparser_free even on failure. One thread. */
int strait__vparser_init(strait__vparser *ps, const uint8_t *buf, size_t size,
                         strait_value_error *err) {
  memset(ps, 0, sizeof *ps);
  ps->base = ps->p = buf;
  ps->end = buf + size;
  if (size < STRAIT_V_HEADER || buf[0] != STRAIT_V_MAGIC0 || buf[1] != STRAIT_V_MAGIC1 ||
      buf[2] != STRAIT_V_MAGIC2)
    return corrupt(ps, err, "bad header (not a strait value)");
  if (buf[3] != STRAIT_V_VERSION) return corrupt(ps, err, "unsupported version %u", buf[3]);
  uint32_t len = rd_u32(buf + 4);
  if ((size_t)len != size - STRAIT_V_HEADER)
    return corrupt(ps, err, "header says %u value bytes, buffer has %zu", len, size - STRAIT_V_HEADER);
  ps->p = buf + STRAIT_V_HEADER;
  return 0;
}

/* Releases the parser's stacks. One thread. */
void strait__vparser_free(strait__vparser *ps) {
  free(ps->stack);
  free(ps->keys);
  ps->stack = NULL;
  ps->keys = NULL;
}

/* Opens a container frame. */
static int push(strait__vparser *ps, uint8_t tag, uint32_t items, strait_value_error *err) {
  if (ps->depth == ps->stack_cap) {
    size_t nc = ps->stack_cap ? ps->stack_cap * 2 : 16;
    strait__vframe *ns = realloc(ps->stack, nc * sizeof *ns);
    if (!ns) return nomem(err);
    ps->stack = ns;
    ps->stack_cap = nc;
  }
  ps->stack[ps->depth++] = (strait__vframe){.tag = tag, .want_key = tag == STRAIT_V_OBJECT, .left = items};
  return 0;
}

/* Bytes left to read. */
static inline size_t left(const strait__vparser *ps) { return (size_t)(ps->end - ps->p); }

/* Reads an object key (STRING8/STRING16 adds to the key table, KEYREF looks up). */
static int read_key(strait__vparser *ps, strait__vev *ev, strait_value_error *err) {
  if (left(ps) < 5) return corrupt(ps, err, "truncated object key");
  uint8_t tag = ps->p[0];
  uint32_t n = rd_u32(ps->p + 1);
  if (tag == STRAIT_V_KEYREF) {
    if (n >= ps->nkeys) return corrupt(ps, err, "key reference %u beyond the %zu keys seen", n, ps->nkeys);
    ps->p += 5;
  } else if (tag == STRAIT_V_STRING8 || tag == STRAIT_V_STRING16) {
    size_t bytes = tag == STRAIT_V_STRING16 ? (size_t)n * 2 : n;
    if (left(ps) - 5 < bytes) return corrupt(ps, err, "object key runs past the end");
    if (ps->nkeys == ps->keys_cap) {
      size_t nc = ps->keys_cap ? ps->keys_cap * 2 : 32;
      strait__vkey *nk = realloc(ps->keys, nc * sizeof *nk);
      if (!nk) return nomem(err);
      ps->keys = nk;
      ps->keys_cap = nc;
    }
    ps->keys[ps->nkeys] = (strait__vkey){ps->p + 5, n, tag == STRAIT_V_STRING16};
    n = (uint32_t)ps->nkeys++;
    ps->p += 5 + bytes;
  } else {
    return corrupt(ps, err, "object key has tag 0x%02x, not a string", tag);
  }
  ev->type = STRAIT_VEV_KEY;
  ev->tag = tag;
  ev->index = n;
  ev->data = ps->keys[n].data;
  ev->len = ps->keys[n].len;
  ev->kind = ps->keys[n].wide;
  return 0;
}

/* Assigns the next composite index. */
static int next_index(strait__vparser *ps, strait__vev *ev, strait_value_error *err) {
  if (ps->ncomposites == UINT32_MAX) return corrupt(ps, err, "too many objects");
  ev->index = ps->ncomposites++;
  return 0;
}

/* Reads one tagged value at ps->p into ev. */
static int read_value(strait__vparser *ps, strait__vev *ev, strait_value_error *err) {
  if (left(ps) < 1) return corrupt(ps, err, "truncated: a value was expected");
  const uint8_t *start = ps->p;
  uint8_t tag = *ps->p++;
  size_t rest = left(ps);
  ev->type = STRAIT_VEV_VALUE;
  ev->tag = tag;
  switch (tag) {
    case STRAIT_V_UNDEFINED: case STRAIT_V_NULL: case STRAIT_V_FALSE: case STRAIT_V_TRUE:
      return 0;
    case STRAIT_V_INT32:
      if (rest < 4) break;
      memcpy(&ev->i32, ps->p, 4);
      ps->p += 4;
      return 0;
    case STRAIT_V_INT64:
      if (rest < 8) break;
      memcpy(&ev->i64, ps->p, 8);
      ps->p += 8;
      return 0;
    case STRAIT_V_DOUBLE:
      if (rest < 8) break;
      memcpy(&ev->f64, ps->p, 8);
      ps->p += 8;
      return 0;
    case STRAIT_V_DATE:
      if (rest < 8) break;
      memcpy(&ev->f64, ps->p, 8);
      if (!(ev->f64 - ev->f64 == 0)) { ps->p = start; return corrupt(ps, err, "Date is not finite"); }
      ps->p += 8;
      return next_index(ps, ev, err);
    case STRAIT_V_BIGINT: {
      if (rest < 5) break;
      ev->kind = ps->p[0];
      ev->len = rd_u32(ps->p + 1);
      if (ev->kind > 1) { ps->p = start; return corrupt(ps, err, "BigInt sign byte %u", ev->kind); }
      if (rest - 5 < ev->len) break;
      ev->data = ps->p + 5;
      ps->p += 5 + (size_t)ev->len;
      return 0;
    }
    case STRAIT_V_STRING8: case STRAIT_V_STRING16: {
      if (rest < 4) break;
      ev->len = rd_u32(ps->p);
      size_t bytes = tag == STRAIT_V_STRING16 ? (size_t)ev->len * 2 : ev->len;
      if (rest - 4 < bytes) break;
      ev->data = ps->p + 4;
      ps->p += 4 + bytes;
      return 0;
    }
    case STRAIT_V_ARRAY_F64: case STRAIT_V_ARRAY_I32: {
      if (rest < 4) break;
      ev->count = rd_u32(ps->p);
      size_t bytes = (size_t)ev->count * (tag == STRAIT_V_ARRAY_F64 ? 8 : 4);
      if (rest - 4 < bytes) break;
      ev->data = ps->p + 4;
      ps->p += 4 + bytes;
      return next_index(ps, ev, err);
    }
    case STRAIT_V_BYTES: {
      if (rest < 5) break;
      ev->kind = ps->p[0];
      ev->len = rd_u32(ps->p + 1);
      unsigned es = strait__codec_kind_size(ev->kind);
      if (!es) { ps->p = start; return corrupt(ps, err, "unknown bytes kind %u", ev->kind); }
      if (ev->len % es) { ps->p = start; return corrupt(ps, err, "bytes length %u is not a multiple of %u", ev->len, es); }
      if (rest - 5 < ev->len) break;
      ev->data = ps->p + 5;
      ps->p += 5 + (size_t)ev->len;
      return next_index(ps, ev, err);
    }
    case STRAIT_V_JAVAREF: case STRAIT_V_JSREF:
      if (rest < 4) break;
      ev->index = rd_u32(ps->p);
      ps->p += 4;
      return 0;
    case STRAIT_V_BACKREF:
      if (rest < 4) break;
      ev->index = rd_u32(ps->p);
      if (ev->index >= ps->ncomposites) {
        ps->p = start;
        return corrupt(ps, err, "back-reference %u to an object not read yet", ev->index);
      }
      ps->p += 4;
      return 0;
    case STRAIT_V_EXT:
      if (rest < 8) break;
      ev->ext_type = rd_u32(ps->p);
      ev->len = rd_u32(ps->p + 4);
      if (rest - 8 < ev->len) break;
      ev->data = ps->p + 8;
      ps->p += 8 + (size_t)ev->len;
      return 0;
    case STRAIT_V_ARRAY: case STRAIT_V_SET: case STRAIT_V_OBJECT: case STRAIT_V_MAP: {
      if (rest < 4) break;
      ev->count = rd_u32(ps->p);
      /* every child takes at least 1 byte, every object pair at least 6 */
      size_t per = tag == STRAIT_V_OBJECT ? 6 : tag == STRAIT_V_MAP ? 2 : 1;
      if ((rest - 4) / per < ev->count) {
        ps->p = start;
        return corrupt(ps, err, "count %u is larger than the bytes left", ev->count);
      }
      ps->p += 4;
      ev->type = STRAIT_VEV_BEGIN;
      int rc = next_index(ps, ev, err);
      if (rc) return rc;
      uint32_t items = ev->count;
      if (tag == STRAIT_V_OBJECT || tag == STRAIT_V_MAP) items *= 2; /* fits: count <= size/2 */
      return push(ps, tag, items, err);
    }
    case STRAIT_V_KEYREF:
      ps->p = start;
      return corrupt(ps, err, "key reference outside an object key");
    default:
      ps->p = start;
      return corrupt(ps, err, "unknown tag 0x%02x", tag);
  }
  ps->p = start;
  return corrupt(ps, err, "value with tag 0x%02x runs past the end", tag);
}

/* Produces the next event. One thread. */
int strait__vparser_next(strait__vparser *ps, strait__vev *ev, strait_value_error *err) {
  memset(ev, 0, sizeof *ev);
  if (ps->done) { ev->type = STRAIT_VEV_DONE; return 0; }
  if (!ps->started) {
    ps->started = true;
    return read_value(ps, ev, err);
  }
  if (ps->depth == 0) {
    if (ps->p != ps->end) return corrupt(ps, err, "%zu bytes after the value", left(ps));
    ps->done = true;
    ev->type = STRAIT_VEV_DONE;
    return 0;
  }
  strait__vframe *f = &ps->stack[ps->depth - 1];
  if (f->left == 0) {
    ps->depth--;
    ev->type = STRAIT_VEV_END;
    ev->tag = f->tag;
    return 0;
  }
  f->left--;
  if (f->tag == STRAIT_V_OBJECT) {
    bool key = f->want_key;
    f->want_key = !key;
    if (key) return read_key(ps, ev, err);
  }
  return read_value(ps, ev, err);
}

/* Runs the parser over the whole buffer. Any thread. */
int strait__codec_validate(const uint8_t *buf, size_t size, strait_value_error *err) {
  strait__vparser ps;
  strait__vev ev;
  int rc = strait__vparser_init(&ps, buf, size, err);
  while (!rc) {
    rc = strait__vparser_next(&ps, &ev, err);
    if (!rc && ev.type == STRAIT_VEV_DONE) break;
  }
  strait__vparser_free(&ps);
  return rc;
}

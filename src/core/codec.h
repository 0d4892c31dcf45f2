/*
 * codec.h - the strait value format (docs/value-format.md): tags, a pure C
 * pull parser/validator (no JavaScriptCore, usable by fuzzers), and the
 * JS value <-> buffer writer and reader over the JavaScriptCore C API.
 *
 * Define STRAIT_CODEC_NO_JSC before including to leave out the part over
 * JavaScriptCore (the pure part still uses the types of strait.h).
 *
 * The layers above use the public side (strait.h: strait_buffer,
 * strait_value_error, strait_value_hooks, strait_value_encode/decode); the
 * strait__ names of those below stay for the JNI layer until it uses them.
 */
#ifndef STRAIT_CODEC_H
#define STRAIT_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strait.h"

/* ---- the format --------------------------------------------------------- */

#define STRAIT_V_MAGIC0 0x53 /* 'S' */
#define STRAIT_V_MAGIC1 0x54 /* 'T' */
#define STRAIT_V_MAGIC2 0x56 /* 'V' */
#define STRAIT_V_VERSION 1
#define STRAIT_V_HEADER 8    /* magic(3) version(1) u32 value length */

enum {
  STRAIT_V_UNDEFINED = 0x00,
  STRAIT_V_NULL = 0x01,
  STRAIT_V_FALSE = 0x02,
  STRAIT_V_TRUE = 0x03,
  STRAIT_V_INT32 = 0x04,
  STRAIT_V_INT64 = 0x05,
  STRAIT_V_DOUBLE = 0x06,
  STRAIT_V_BIGINT = 0x07,
  STRAIT_V_STRING8 = 0x08,
  STRAIT_V_STRING16 = 0x09,
  STRAIT_V_ARRAY = 0x0A,
  STRAIT_V_ARRAY_F64 = 0x0B,
  STRAIT_V_ARRAY_I32 = 0x0C,
  STRAIT_V_OBJECT = 0x0D,
  STRAIT_V_KEYREF = 0x0E,
  STRAIT_V_MAP = 0x0F,
  STRAIT_V_SET = 0x10,
  STRAIT_V_DATE = 0x11,
  STRAIT_V_BYTES = 0x12,
  STRAIT_V_JAVAREF = 0x13,
  STRAIT_V_BACKREF = 0x14,
  STRAIT_V_EXT = 0x15,
  STRAIT_V_JSREF = 0x16,
  STRAIT_V_TAG_MAX = 0x16
};

/* BYTES kinds; element size in strait__codec_kind_size(). */
enum {
  STRAIT_VB_ARRAYBUFFER = 0,
  STRAIT_VB_INT8 = 1,
  STRAIT_VB_UINT8 = 2,
  STRAIT_VB_UINT8C = 3,
  STRAIT_VB_INT16 = 4,
  STRAIT_VB_UINT16 = 5,
  STRAIT_VB_INT32 = 6,
  STRAIT_VB_UINT32 = 7,
  STRAIT_VB_FLOAT32 = 8,
  STRAIT_VB_FLOAT64 = 9,
  STRAIT_VB_BIGINT64 = 10,
  STRAIT_VB_BIGUINT64 = 11,
  STRAIT_VB_DATAVIEW = 12,
  STRAIT_VB_KIND_MAX = 12
};

/* Element size in bytes of a BYTES kind (1 for buffers and views). Any thread. */
unsigned strait__codec_kind_size(unsigned kind);

/* An error of the codec: a status (STRAIT_E*), the byte offset for corrupt
 * input, and a message (for writers, it names the path: "$.a[3]"). */

/* Limits of a JS -> buffer conversion (docs/value-format.md), the same in
 * the C writer and the JS one (js/codec.js spells them out): a value Java
 * can hold (a byte[] or direct ByteBuffer), a List's length, and the holes
 * of sparse arrays: during one conversion the holes met so far may pass the
 * array elements met so far (holes included) minus those holes by
 * STRAIT_V_MAX_HOLES at most, so the work stays within a constant of the
 * data the arrays really hold. Past one, the writers throw a JS RangeError
 * naming the path (STRAIT_EJS). */
#define STRAIT_V_MAX_BYTES 2147483647u
#define STRAIT_V_MAX_ARRAY 2147483647u
#define STRAIT_V_MAX_HOLES 1048576u

/* ---- output buffer ------------------------------------------------------ */

/* A growing output buffer (strait_buffer, see strait.h). One thread. */

/* Makes room for n more bytes; false (and failed set) when out of memory. */
bool strait__vbuf_grow(strait_buffer *b, size_t n);

static inline bool strait__vbuf_need(strait_buffer *b, size_t n) {
  return b->cap - b->len >= n || strait__vbuf_grow(b, n);
}

/* Writes the header with a zero length; strait__vbuf_finish patches it. */
bool strait__vbuf_header(strait_buffer *b);
/* Patches the header's length; false if the value exceeds 4 GiB. */
bool strait__vbuf_finish(strait_buffer *b);

/* ---- pull parser / validator (pure C) ----------------------------------- */

enum {
  STRAIT_VEV_VALUE = 1,   /* a scalar, or a packed/leaf composite (ARRAY_F64/I32, DATE, BYTES) */
  STRAIT_VEV_BEGIN = 2,   /* ARRAY, OBJECT, MAP or SET starts; count children follow */
  STRAIT_VEV_END = 3,     /* the innermost open container is complete */
  STRAIT_VEV_KEY = 4,     /* the next value belongs to this object key */
  STRAIT_VEV_DONE = 5     /* the root value is complete and the buffer fully used */
};

/* One event of the parser. Pointers point into the parsed buffer. */
typedef struct strait__vev {
  int type;
  uint8_t tag;
  uint8_t kind;           /* BYTES kind; BIGINT sign; key: 1 if UTF-16 */
  uint32_t count;         /* BEGIN: children (pairs for OBJECT/MAP); packed: elements */
  uint32_t index;         /* composite index; KEY: key index; BACKREF/JAVAREF/JSREF: target id */
  uint32_t ext_type;
  union { int32_t i32; int64_t i64; double f64; };
  const uint8_t *data;    /* strings, bytes, bigint magnitude, packed elements, ext payload */
  uint32_t len;           /* strings: code units; bytes/bigint/ext: bytes */
} strait__vev;

typedef struct strait__vframe {
  uint8_t tag;
  bool want_key;          /* OBJECT: the next item is a key */
  uint32_t left;          /* items still to read (OBJECT/MAP: 2 per pair) */
} strait__vframe;

typedef struct strait__vkey {
  const uint8_t *data;
  uint32_t len;
  bool wide;
} strait__vkey;

/*
 * Parser over one buffer. Iterative: nesting depth costs heap memory (an
 * explicit frame stack), never C stack. It never reads outside [buf,
 * buf+size) whatever the bytes are. One thread.
 */
typedef struct strait__vparser {
  const uint8_t *base, *p, *end;
  strait__vframe *stack;
  size_t depth, stack_cap;
  strait__vkey *keys;
  size_t nkeys, keys_cap;
  uint32_t ncomposites;
  bool started, done;
} strait__vparser;

/* Checks the header; STRAIT_ECORRUPT with err filled if it is bad. */
int strait__vparser_init(strait__vparser *ps, const uint8_t *buf, size_t size,
                         strait_value_error *err);
/* Next event; 0, or STRAIT_ECORRUPT / STRAIT_ENOMEM with err filled. */
int strait__vparser_next(strait__vparser *ps, strait__vev *ev, strait_value_error *err);
void strait__vparser_free(strait__vparser *ps);
/* Key i of the key table (valid index, as given by a KEY event). */
static inline const strait__vkey *strait__vparser_key(const strait__vparser *ps, uint32_t i) {
  return &ps->keys[i];
}

/* Validates a whole buffer: 0 or STRAIT_ECORRUPT/ENOMEM with err filled. */
int strait__codec_validate(const uint8_t *buf, size_t size, strait_value_error *err);

/* ---- BigInt magnitude <-> decimal text (pure C) ------------------------ */

/* Decimal digits (optional leading '-') -> little-endian magnitude, malloc'd
 * into *mag (length *n, no trailing zero bytes), sign into *neg. 0, EINVAL
 * on a non-digit, ENOMEM. */
int strait__bigint_from_decimal(const char *s, size_t len, uint8_t **mag, size_t *n, bool *neg);
/* Little-endian magnitude -> malloc'd NUL-terminated decimal (with '-' when
 * neg and non-zero). NULL on ENOMEM. */
char *strait__bigint_to_decimal(const uint8_t *mag, size_t n, bool neg);

#ifndef STRAIT_CODEC_NO_JSC
#include <JavaScriptCore/JavaScript.h>
#include "strait.h"

/* Hooks of the layer above (strait_value_hooks, see strait.h). */

/* Writer flags (strait.h). */
#define STRAIT_CODEC_HANDLES STRAIT_VALUE_HANDLES
#define STRAIT_CODEC_NO_KEYREF STRAIT_VALUE_NO_KEYREF

/*
 * Writes v (and everything it reaches) into out (emptied first) as one
 * value with header.
 * Returns 0; STRAIT_ETYPE (a function or symbol, path in err->msg);
 * STRAIT_EJS when a getter threw (*exception set); STRAIT_ENOMEM;
 * STRAIT_ERANGE if the value exceeds 4 GiB. Inside the gate. hooks may be NULL.
 */
int strait__codec_write(JSContextRef ctx, JSValueRef v, strait_buffer *out, unsigned flags,
                        const strait_value_hooks *hooks, strait_value_error *err,
                        JSValueRef *exception);

/*
 * Reads one value with header from buf into a JS value (*result). Returns
 * 0; STRAIT_ECORRUPT (err filled, nothing leaks); STRAIT_EJS when creating a
 * value threw (*exception set); STRAIT_ENOMEM. Inside the gate. hooks may be NULL.
 */
int strait__codec_read(JSContextRef ctx, const uint8_t *buf, size_t size,
                       const strait_value_hooks *hooks, JSValueRef *result,
                       strait_value_error *err, JSValueRef *exception);

/*
 * The fast path (codec_js.c) is public: strait_value_encode and
 * strait_value_decode (strait.h), the same writer and reader in JavaScript,
 * run by JSC's JIT in rt (compiled once per runtime). Same bytes, statuses
 * and hooks as strait__codec_write / strait__codec_read; the reader
 * validates the buffer in C first.
 */
#endif

#endif /* STRAIT_CODEC_H */

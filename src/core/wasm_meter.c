/*
 * wasm_meter.c - rewrites a WebAssembly module so that its code calls the
 * host at least every ~1M executed instruction bytes (see wasm_meter.h for
 * what the output holds). JSC's watchdog never reaches into wasm code in
 * any tier; these calls are how a time limit, an interrupt or close() stops
 * it (wasm.c and js/wasm.js supply the imports).
 *
 * The input is walked once, section by section, and the output written as
 * it goes. Every length and count is checked against the bytes left before
 * it is used, every LEB128 read is bounded (and its unused bits checked),
 * and every walk is a loop: block nesting lives in heap arrays, never on
 * the C stack. An index the meter shifts or adds a neighbour to (types,
 * globals) is checked to be in range in the input, so an invalid input can
 * never name what the meter added (the fuel, the imports). What is not
 * decoded exactly (an unknown opcode, section or form) is refused: never
 * silently unmetered code. Validation proper is the engine's, on the
 * output.
 *
 * Fuel. Each function body is decoded into records: the instructions that
 * branch, call, open or close a block, name a global or grow, and a
 * zero-length record every SPLIT bytes of other code. A backward pass over
 * the records computes, for each instruction boundary, dist: the most
 * instruction bytes any path from there can execute before it passes a
 * checkpoint or leaves the function (branches go forward to block ends or
 * back to loop headers, which are checkpoints; a call may also go on in a
 * handler of an enclosing try). A checkpoint goes at every function entry
 * and loop header, at a boundary whose dist passed CAP, and after a call
 * whose dist passed CALL_CAP; each charges the dist of its boundary. So in
 * one activation every executed byte was charged by the checkpoint that
 * came before it, and the host is called once per budget of charge. The
 * call rule bounds what runs unmetered when a deep recursion returns: each
 * frame then runs at most CALL_CAP bytes before its next checkpoint.
 *
 * Cost. What a checkpoint costs in the engine's optimizing tier (OMG) is
 * mostly what its cold call does to the code around it: a value live
 * across a call cannot stay in a register the call clobbers, so a loop
 * whose check calls out had every value it carries spilled (a tight loop
 * ran 3x slower). So a checkpoint's cold path saves the locals its loop
 * uses into scratch globals and restores them after the call, and at a
 * loop's start it then branches back to the loop's start: the restored
 * values meet the loop's own there, on the cold edge alone. A function
 * with loops charges them to a local counter (a register: two instructions
 * a check) that goes to the fuel every LOCAL_FUEL of charge, before each
 * call and when the function leaves; its entry and loop-free functions
 * charge the fuel itself, loop-free ones through a shared function (the
 * smallest check, so that small functions stay inlinable).
 */
#include "wasm_meter.h"
#include "strait.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checkpoint spacing in straight-line code (bytes of input). */
#define CAP 8192u
#define CALL_CAP 1024u
#define SPLIT (CAP / 4)
/* A function with loops charges its loops to a local counter, which it
 * adds to the fuel every LOCAL_FUEL of charge, before a call and when it
 * leaves (see lcheckpoint). */
#define LOCAL_FUEL 4096u
/* Locals a checkpoint saves around its call, at most (see save_set). */
#define MAX_SAVE 64u
/* The engine's limits (JSC's WasmLimits.h, the JS API's). */
#define MAX_MODULE ((size_t)1 << 30)
#define MAX_BODY 7654321u
#define MAX_TYPES 1000000u
#define MAX_LOCALS 50000u
/* No weight comes near this; it keeps fuel arithmetic in i32. */
#define MAX_WEIGHT ((uint32_t)1 << 29)
/* The largest budget (a loop's checkpoint resets the fuel to budget plus
 * its weight). */
#define MAX_BUDGET ((int32_t)1 << 29)

/* Forms of a checkpoint's cold path (see checkpoint()). */
enum { CP_FALL, CP_LOOP, CP_COMPACT };

/* Record kinds (instructions the fuel analysis or the rewrite needs). */
enum {
  R_PLAIN,     /* zero-length boundary inside a long run of other code */
  R_GLOBAL,    /* global.get / global.set: aux = the input's index */
  R_MGROW,     /* memory.grow */
  R_TGROW,     /* table.grow */
  R_BLOCK, R_LOOP, R_IF, R_TRY, R_TRYTABLE, /* aux = block id */
  R_ELSE, R_CATCH, R_END,                   /* aux = block id (END: FUNC for the last) */
  R_BR, R_BRIF,                             /* aux = target block id or FUNC */
  R_BRTABLE,                                /* aux = index in tgts: count, then ids */
  R_CALL,      /* a call that returns here */
  R_STOP,      /* return, unreachable, tail calls: nothing follows */
  R_THROW,     /* throw, rethrow, throw_ref: to a handler or out */
};

#define FUNC 0xFFFFFFFFu   /* the function's own label */

/* Block kinds and states. */
enum { B_BLOCK, B_LOOP, B_IF, B_TRY, B_TRYTABLE };
enum { S_ELSE = 1, S_CATCH = 2, S_CATCH_ALL = 4, S_PARAMS = 8 };

typedef struct rec {
  uint32_t off, len;   /* in the body (from its first byte, locals included) */
  uint32_t aux;
  uint32_t cp;         /* weight of the checkpoint after it; 0: none */
  uint8_t kind;
} rec;

typedef struct blk {
  uint32_t target;     /* dist where a branch to it lands (loops: 0) */
  uint32_t else_start; /* if: dist at its else branch */
  uint32_t handler;    /* try, try_table: most dist of its handlers */
  uint32_t catches;    /* try_table: index in tgts (count, then ids) */
  uint32_t start;      /* loop: its offset in the body */
  uint32_t save_off, save_n; /* loop: the locals its checkpoints save (in saves) */
  uint8_t kind, state;
} blk;

/* Value kinds of locals: the ones a checkpoint can save (i32 i64 f32 f64
 * v128), and the rest. */
enum { K_I32, K_I64, K_F32, K_F64, K_V128, K_OTHER };
#define NKINDS 5
#define LIST_END 0xFFFFFFFFu

/* The parameters of a type: kinds at pkinds[off], n of them (UINT32_MAX:
 * not a function type). */
typedef struct tparams {
  uint32_t off, n;
} tparams;

/* Declared locals of one kind, up to (not including) index end. */
typedef struct run {
  uint32_t end;
  uint8_t kind;
} run;

typedef struct obuf {
  uint8_t *d;
  size_t len, cap;
} obuf;

typedef struct cur {
  const uint8_t *p, *end;
} cur;

/* The state of one strait__wasm_meter() call. */
typedef struct mt {
  const uint8_t *in;
  size_t in_len;
  strait__wasm_metered *out;
  bool failed, oom;
  const uint8_t *where;      /* input position for errors without one */
  int32_t budget;
  /* index spaces of the input */
  uint32_t type_limit;       /* type indices below it are valid (UINT32_MAX in the type section) */
  uint32_t ntypes;
  uint32_t gimports, gdefined;
  uint32_t func_no;          /* the function being metered (its code index) */
  /* what the output adds */
  uint32_t check_type, grow_type;
  uint32_t check_global, grow_global, tgrow_global, fuel_global;
  uint8_t cp_head[8], cp_mid[32], cp_call[24];
  size_t cp_head_len, cp_test_len, cp_call_len;
  uint8_t call_grow[24], call_tgrow[24];
  size_t call_grow_len, call_tgrow_len;
  /* per-function scratch, reused */
  rec *recs;
  size_t nrecs, caprecs;
  blk *blks;
  size_t nblks, capblks;
  uint32_t *stack, *hmax;
  size_t depth, capstack, caphmax;
  uint32_t *tgts;
  size_t ntgts, captgts;
  /* function types, and the type of each defined function */
  tparams *tps;
  size_t captps;
  uint8_t *pkinds;
  size_t npk, cappk;
  uint32_t *ftypes;
  size_t nftypes, capftypes;
  /* the locals of the function being metered: params, then runs of
   * declared locals (run i ends before runs_end[i]) */
  uint32_t nparams, nlocals, pkoff;
  run *runs;
  size_t nruns, capruns;
  /* locals referenced so far, most recent first (a list over lprev/lnext),
   * each with the offset of its last reference; lgen marks the entries of
   * this function */
  uint32_t *lprev, *lnext, *lpos, *lgen;
  uint8_t *lkind;
  size_t caplocals;
  uint32_t lhead, gen;
  /* save sets of loops and of the entry (params), in saves */
  uint32_t *saves;
  size_t nsaves, capsaves;
  uint32_t fsave_off, fsave_n;
  uint32_t fn_loops;          /* loops of the function being metered */
  bool counter;               /* it has the local counter (index nlocals) */
  uint32_t ndecls;            /* its local declarations, from decls */
  const uint8_t *decls;
  /* the function the compact checkpoints call (appended after the
   * input's): fuel = budget, check() */
  uint32_t fimports, slow_func;
  bool has_slow;
  /* scratch globals the saves go to: scratch_base + j * NKINDS + kind */
  uint32_t scratch_base, scratch_slots;
  bool scratch_v128;
  /* the output's global section, for the scratch globals added at the end */
  size_t last_hole, gsec_hole, gsec_count_hole, gsec_end;
  uint32_t gsec_count;
} mt;

/* ---- errors ------------------------------------------------------------ */

/* Records the first failure (where: an input position or NULL) and
 * returns false. */
static bool bad(mt *m, const uint8_t *where, const char *fmt, ...) {
  if (m->failed) return false;
  m->failed = true;
  if (!where) where = m->where;
  m->out->err_off = where && where >= m->in && where <= m->in + m->in_len ? (size_t)(where - m->in) : 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->out->err, sizeof m->out->err, fmt, ap);
  va_end(ap);
  return false;
}

static bool eof(mt *m, const uint8_t *at) { return bad(m, at, "unexpected end of the module"); }

#define TRY(x)                                                                \
  do {                                                                        \
    if (!(x)) return false;                                                   \
  } while (0)

/* ---- reading ----------------------------------------------------------- */

static bool rd_byte(mt *m, cur *c, uint8_t *b) {
  *b = 0;
  if (c->p >= c->end) return eof(m, c->p);
  *b = *c->p++;
  return true;
}

static bool rd_skip(mt *m, cur *c, uint64_t n) {
  if (n > (uint64_t)(c->end - c->p)) return eof(m, c->p);
  c->p += n;
  return true;
}

/* An unsigned LEB128 of at most bits bits (32 or 64). */
static bool rd_uleb(mt *m, cur *c, unsigned bits, uint64_t *v) {
  const uint8_t *at = c->p;
  unsigned maxb = (bits + 6) / 7;
  uint64_t r = 0;
  *v = 0;
  for (unsigned i = 0; i < maxb; i++) {
    if (c->p >= c->end) return eof(m, c->p);
    uint8_t b = *c->p++;
    r |= (uint64_t)(b & 0x7f) << (7 * i);
    if (i == maxb - 1) {
      unsigned used = bits - 7 * i;
      if ((b & 0x80) || (used < 7 && ((b & 0x7f) >> used) != 0))
        return bad(m, at, "a number is longer than its %u bits", bits);
      break;
    }
    if (!(b & 0x80)) break;
  }
  *v = r;
  return true;
}

/* A signed LEB128 of at most bits bits (32, 33 or 64). */
static bool rd_sleb(mt *m, cur *c, unsigned bits, int64_t *v) {
  const uint8_t *at = c->p;
  unsigned maxb = (bits + 6) / 7, shift = 0;
  uint64_t r = 0;
  uint8_t b = 0;
  *v = 0;
  for (unsigned i = 0; i < maxb; i++) {
    if (c->p >= c->end) return eof(m, c->p);
    b = *c->p++;
    r |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if (i == maxb - 1) {
      unsigned used = bits - 7 * i;
      unsigned sign = (b >> (used - 1)) & 1;
      unsigned rest = (unsigned)(b & 0x7f) >> used, want = sign ? (0x7fu >> used) : 0;
      if ((b & 0x80) || rest != want) return bad(m, at, "a number is longer than its %u bits", bits);
      break;
    }
    if (!(b & 0x80)) break;
  }
  if (shift < 64 && (b & 0x40)) r |= ~(uint64_t)0 << shift;
  memcpy(v, &r, sizeof r);
  return true;
}

static bool rd_u32(mt *m, cur *c, uint32_t *v) {
  uint64_t x;
  *v = 0;
  TRY(rd_uleb(m, c, 32, &x));
  *v = (uint32_t)x;
  return true;
}

/* A vector's count: each element takes at least min_bytes more. */
static bool rd_count(mt *m, cur *c, uint32_t *n, unsigned min_bytes) {
  const uint8_t *at = c->p;
  TRY(rd_u32(m, c, n));
  if ((uint64_t)*n * min_bytes > (uint64_t)(c->end - c->p))
    return bad(m, at, "a count of %u is more than the bytes left", *n);
  return true;
}

/* A name: vec(byte). */
static bool rd_name(mt *m, cur *c) {
  uint32_t n;
  TRY(rd_count(m, c, &n, 1));
  c->p += n;
  return true;
}

/* ---- writing ----------------------------------------------------------- */

static bool ob_room(mt *m, obuf *o, size_t n) {
  if (n > MAX_MODULE - o->len)
    return bad(m, NULL, "the metered module would be larger than the engine's limit of 1 GiB");
  size_t need = o->len + n;
  if (need <= o->cap) return true;
  size_t cap = o->cap ? o->cap : 256;
  while (cap < need) cap *= 2;
  uint8_t *d = realloc(o->d, cap);
  if (!d) {
    m->oom = true;
    return bad(m, NULL, "out of memory");
  }
  o->d = d;
  o->cap = cap;
  return true;
}

static bool ob_put(mt *m, obuf *o, const void *p, size_t n) {
  if (n == 0) return true;
  TRY(ob_room(m, o, n));
  memcpy(o->d + o->len, p, n);
  o->len += n;
  return true;
}

static bool ob_byte(mt *m, obuf *o, uint8_t b) { return ob_put(m, o, &b, 1); }

/* Encodes v as an unsigned LEB128 into buf (at least 10 bytes). */
static size_t enc_uleb(uint8_t *buf, uint64_t v) {
  size_t n = 0;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    buf[n++] = b | (v ? 0x80 : 0);
  } while (v);
  return n;
}

static size_t enc_sleb(uint8_t *buf, int64_t v) {
  size_t n = 0;
  for (;;) {
    uint8_t b = (uint8_t)(v & 0x7f);
    v >>= 7;   /* arithmetic on the compilers this builds with */
    bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
    buf[n++] = b | (done ? 0 : 0x80);
    if (done) return n;
  }
}

static bool ob_uleb(mt *m, obuf *o, uint64_t v) {
  uint8_t b[10];
  return ob_put(m, o, b, enc_uleb(b, v));
}

static bool ob_sleb(mt *m, obuf *o, int64_t v) {
  uint8_t b[10];
  return ob_put(m, o, b, enc_sleb(b, v));
}

/* Reserves 5 bytes for a u32 written later with ob_patch5. */
static bool ob_hole5(mt *m, obuf *o, size_t *at) {
  *at = o->len;
  static const uint8_t z[5] = {0x80, 0x80, 0x80, 0x80, 0x00};
  return ob_put(m, o, z, 5);
}

/* A padded 5-byte LEB128 of v at o->d + at (valid wasm: LEB128s need not
 * be minimal). */
static void ob_patch5(obuf *o, size_t at, uint32_t v) {
  for (int i = 0; i < 5; i++) {
    o->d[at + i] = (uint8_t)((v & 0x7f) | (i < 4 ? 0x80 : 0));
    v >>= 7;
  }
}

/* Grows *a (of *cap elements of elem bytes) to hold need. */
static bool grow_array(mt *m, void **a, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *p = realloc(*a, c * elem);
  if (!p) {
    m->oom = true;
    return bad(m, NULL, "out of memory");
  }
  *a = p;
  *cap = c;
  return true;
}

/* ---- types ------------------------------------------------------------- */

static bool type_index(mt *m, const uint8_t *at, int64_t t) {
  if (t < 0 || (uint64_t)t >= m->type_limit) return bad(m, at, "type index %lld is out of range", (long long)t);
  return true;
}

/* Abstract heap types and reference shorthands, as one byte (func, extern,
 * any, eq, i31, struct, array, exn, none, noextern, nofunc, noexn). */
static bool abstract_heap(uint8_t b) { return (b >= 0x69 && b <= 0x74); }

static bool rd_heaptype(mt *m, cur *c) {
  if (c->p >= c->end) return eof(m, c->p);
  if (abstract_heap(*c->p)) {
    c->p++;
    return true;
  }
  const uint8_t *at = c->p;
  int64_t v;
  TRY(rd_sleb(m, c, 33, &v));
  if (v < 0) return bad(m, at, "unknown heap type");
  return type_index(m, at, v);
}

/* A value type; *kind (may be NULL) its K_ kind. */
static bool rd_valtype_k(mt *m, cur *c, uint8_t *kind) {
  uint8_t b;
  if (kind) *kind = K_OTHER;
  TRY(rd_byte(m, c, &b));
  if (b >= 0x7B && b <= 0x7F) {                      /* i32 i64 f32 f64 v128 */
    if (kind) *kind = (uint8_t)(0x7F - b);
    return true;
  }
  if (b == 0x63 || b == 0x64) return rd_heaptype(m, c); /* ref null ht, ref ht */
  if (abstract_heap(b)) return true;
  return bad(m, c->p - 1, "unknown value type 0x%02x", b);
}

static bool rd_valtype(mt *m, cur *c) { return rd_valtype_k(m, c, NULL); }

/* A block type; *params (may be NULL): a type index whose function type
 * takes parameters. */
static bool rd_blocktype(mt *m, cur *c, bool *params) {
  if (params) *params = false;
  if (c->p >= c->end) return eof(m, c->p);
  uint8_t b = *c->p;
  if (b == 0x40) {
    c->p++;
    return true;
  }
  if ((b >= 0x7B && b <= 0x7F) || b == 0x63 || b == 0x64 || abstract_heap(b)) return rd_valtype(m, c);
  const uint8_t *at = c->p;
  int64_t v;
  TRY(rd_sleb(m, c, 33, &v));
  if (v < 0) return bad(m, at, "unknown block type");
  TRY(type_index(m, at, v));
  if (params) *params = m->tps[v].n != 0 && m->tps[v].n != UINT32_MAX;
  return true;
}

/* limits: flags, min, max if flags & 1 (64-bit numbers with flags & 4). */
static bool rd_limits(mt *m, cur *c, uint64_t *min) {
  uint8_t f;
  TRY(rd_byte(m, c, &f));
  if (f > 7) return bad(m, c->p - 1, "unknown limits flags 0x%02x", f);
  unsigned bits = (f & 4) ? 64 : 32;
  uint64_t max;
  TRY(rd_uleb(m, c, bits, min));
  if (f & 1) TRY(rd_uleb(m, c, bits, &max));
  return true;
}

static bool rd_tabletype(mt *m, cur *c, uint64_t *min) {
  TRY(rd_valtype(m, c));
  return rd_limits(m, c, min);
}

static bool rd_globaltype(mt *m, cur *c) {
  uint8_t mut;
  TRY(rd_valtype(m, c));
  TRY(rd_byte(m, c, &mut));
  if (mut > 1) return bad(m, c->p - 1, "unknown mutability 0x%02x", mut);
  return true;
}

static bool rd_storagetype(mt *m, cur *c) {
  if (c->p < c->end && (*c->p == 0x78 || *c->p == 0x77)) { /* i8, i16 */
    c->p++;
    return true;
  }
  return rd_valtype(m, c);
}

static bool rd_fieldtype(mt *m, cur *c) {
  uint8_t mut;
  TRY(rd_storagetype(m, c));
  TRY(rd_byte(m, c, &mut));
  if (mut > 1) return bad(m, c->p - 1, "unknown mutability 0x%02x", mut);
  return true;
}

/* A composite type; a function type's parameter kinds go to *tp. */
static bool rd_comptype(mt *m, cur *c, tparams *tp) {
  uint8_t form;
  uint32_t n;
  tp->n = UINT32_MAX;
  TRY(rd_byte(m, c, &form));
  switch (form) {
  case 0x60: /* func */
    TRY(rd_count(m, c, &n, 1));
    TRY(grow_array(m, (void **)&m->pkinds, &m->cappk, m->npk + n, 1));
    tp->off = (uint32_t)m->npk;
    tp->n = n;
    for (uint32_t i = 0; i < n; i++) TRY(rd_valtype_k(m, c, &m->pkinds[m->npk++]));
    TRY(rd_count(m, c, &n, 1));
    for (uint32_t i = 0; i < n; i++) TRY(rd_valtype(m, c));
    return true;
  case 0x5F: /* struct */
    TRY(rd_count(m, c, &n, 2));
    for (uint32_t i = 0; i < n; i++) TRY(rd_fieldtype(m, c));
    return true;
  case 0x5E: /* array */
    return rd_fieldtype(m, c);
  default:
    return bad(m, c->p - 1, "unknown type form 0x%02x", form);
  }
}

/* A subtype: the next type index (m->ntypes), whose parameters are noted. */
static bool rd_subtype(mt *m, cur *c) {
  if (c->p < c->end && (*c->p == 0x50 || *c->p == 0x4F)) { /* sub, sub final */
    uint32_t n, t;
    c->p++;
    TRY(rd_count(m, c, &n, 1));
    for (uint32_t i = 0; i < n; i++) TRY(rd_u32(m, c, &t));
  }
  TRY(grow_array(m, (void **)&m->tps, &m->captps, (size_t)m->ntypes + 1, sizeof(tparams)));
  TRY(rd_comptype(m, c, &m->tps[m->ntypes]));
  m->ntypes++;
  return true;
}

/* ---- constant expressions ------------------------------------------------ */

static bool global_index(mt *m, const uint8_t *at, uint32_t g) {
  if ((uint64_t)g >= (uint64_t)m->gimports + m->gdefined)
    return bad(m, at, "global index %u is out of range", g);
  return true;
}

/* Function indices are checked too: the meter appends a function. */
static bool func_index(mt *m, const uint8_t *at, uint32_t f) {
  if ((uint64_t)f >= (uint64_t)m->fimports + m->nftypes) return bad(m, at, "function index %u is out of range", f);
  return true;
}

static uint32_t global_shift(const mt *m, uint32_t g) {
  return g < m->gimports ? g : g + STRAIT__WASM_METER_IMPORTS;
}

/* Copies a constant expression (up to its end) to o, global indices
 * shifted. */
static bool const_expr(mt *m, cur *c, obuf *o) {
  for (;;) {
    const uint8_t *at = c->p;
    uint8_t op;
    int64_t s;
    uint32_t u, sub;
    TRY(rd_byte(m, c, &op));
    switch (op) {
    case 0x0B: /* end */
      return ob_byte(m, o, op);
    case 0x41: TRY(rd_sleb(m, c, 32, &s)); break;
    case 0x42: TRY(rd_sleb(m, c, 64, &s)); break;
    case 0x43: TRY(rd_skip(m, c, 4)); break;
    case 0x44: TRY(rd_skip(m, c, 8)); break;
    case 0xD0: TRY(rd_heaptype(m, c)); break; /* ref.null */
    case 0xD2: TRY(rd_u32(m, c, &u)); TRY(func_index(m, at, u)); break;  /* ref.func */
    case 0x6A: case 0x6B: case 0x6C: case 0x7C: case 0x7D: case 0x7E: break; /* extended const */
    case 0x23: /* global.get */
      TRY(rd_u32(m, c, &u));
      TRY(global_index(m, at, u));
      TRY(ob_byte(m, o, op));
      TRY(ob_uleb(m, o, global_shift(m, u)));
      continue;
    case 0xFD:
      TRY(rd_u32(m, c, &sub));
      if (sub != 12) return bad(m, at, "SIMD instruction %u is not allowed in a constant expression", sub);
      TRY(rd_skip(m, c, 16));
      break;
    case 0xFB:
      TRY(rd_u32(m, c, &sub));
      switch (sub) {
      case 0: case 1: case 6: case 7: /* struct.new(_default), array.new(_default) */
        TRY(rd_u32(m, c, &u));
        TRY(type_index(m, at, u));
        break;
      case 8: /* array.new_fixed */
        TRY(rd_u32(m, c, &u));
        TRY(type_index(m, at, u));
        TRY(rd_u32(m, c, &u));
        break;
      case 26: case 27: case 28: break; /* any.convert_extern, extern.convert_any, ref.i31 */
      default: return bad(m, at, "GC instruction %u is not allowed in a constant expression", sub);
      }
      break;
    default:
      return bad(m, at, "instruction 0x%02x is not allowed in a constant expression", op);
    }
    TRY(ob_put(m, o, at, (size_t)(c->p - at)));
  }
}

/* ---- sections before the code ------------------------------------------- */

/* The check's () -> () and the grows' (i32) -> (i32), after the input's
 * m->ntypes types. */
static bool added_types(mt *m, obuf *o) {
  static const uint8_t added[] = {0x60, 0x00, 0x00, 0x60, 0x01, 0x7F, 0x01, 0x7F};
  m->type_limit = m->ntypes;
  m->check_type = m->ntypes;
  m->grow_type = m->ntypes + 1;
  return ob_put(m, o, added, sizeof added);
}

static bool sec_type(mt *m, cur *c, obuf *o) {
  uint32_t n;
  TRY(rd_count(m, c, &n, 1));
  const uint8_t *first = c->p;
  m->type_limit = UINT32_MAX;   /* types may name later types of their group */
  for (uint32_t i = 0; i < n; i++) {
    if (c->p < c->end && *c->p == 0x4E) { /* rec */
      uint32_t k;
      c->p++;
      TRY(rd_count(m, c, &k, 1));
      for (uint32_t j = 0; j < k; j++) TRY(rd_subtype(m, c));
    } else {
      TRY(rd_subtype(m, c));
    }
  }
  if (c->p != c->end) return bad(m, c->p, "the type section has bytes after its last type");
  if ((uint64_t)m->ntypes + 2 > MAX_TYPES)
    return bad(m, first, "the module declares %u types; metering adds 2, past the engine's limit of %u",
               m->ntypes, MAX_TYPES);
  TRY(ob_uleb(m, o, (uint64_t)n + 2));
  TRY(ob_put(m, o, first, (size_t)(c->end - first)));
  return added_types(m, o);
}

static bool sec_import(mt *m, cur *c, obuf *o) {
  uint32_t n, t;
  uint64_t min;
  TRY(rd_count(m, c, &n, 3));
  m->out->imports = n;
  TRY(ob_uleb(m, o, (uint64_t)n + STRAIT__WASM_METER_IMPORTS));
  const uint8_t *first = c->p;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t kind;
    TRY(rd_name(m, c));
    TRY(rd_name(m, c));
    const uint8_t *at = c->p;
    TRY(rd_byte(m, c, &kind));
    switch (kind) {
    case 0x00:
      TRY(rd_u32(m, c, &t));
      TRY(type_index(m, at, t));
      m->fimports++;
      break;
    case 0x01: TRY(rd_tabletype(m, c, &min)); break;
    case 0x02: TRY(rd_limits(m, c, &min)); break;
    case 0x03:
      TRY(rd_globaltype(m, c));
      m->gimports++;
      break;
    case 0x04: {
      uint8_t attr;
      TRY(rd_byte(m, c, &attr));
      TRY(rd_u32(m, c, &t));
      TRY(type_index(m, at, t));
      break;
    }
    default: return bad(m, at, "unknown import kind 0x%02x", kind);
    }
  }
  if (c->p != c->end) return bad(m, c->p, "the import section has bytes after its last import");
  return ob_put(m, o, first, (size_t)(c->end - first));
}

/* The imports the meter adds: "check", "grow", "tgrow", immutable
 * funcref globals. */
static bool added_imports(mt *m, obuf *o) {
  static const char *const fields[STRAIT__WASM_METER_IMPORTS] = {"check", "grow", "tgrow"};
  size_t ml = strlen(STRAIT__WASM_METER_MODULE);
  for (int i = 0; i < STRAIT__WASM_METER_IMPORTS; i++) {
    size_t fl = strlen(fields[i]);
    TRY(ob_uleb(m, o, ml));
    TRY(ob_put(m, o, STRAIT__WASM_METER_MODULE, ml));
    TRY(ob_uleb(m, o, fl));
    TRY(ob_put(m, o, fields[i], fl));
    static const uint8_t desc[] = {0x03, 0x70, 0x00};
    TRY(ob_put(m, o, desc, sizeof desc));
  }
  return true;
}

static bool sec_function(mt *m, cur *c) {
  uint32_t n, t;
  TRY(rd_count(m, c, &n, 1));
  TRY(grow_array(m, (void **)&m->ftypes, &m->capftypes, n, sizeof(uint32_t)));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    TRY(rd_u32(m, c, &t));
    TRY(type_index(m, at, t));
    if (m->tps[t].n == UINT32_MAX) return bad(m, at, "function %u's type %u is not a function type", i, t);
    m->ftypes[i] = t;
  }
  m->nftypes = n;
  if (c->p != c->end) return bad(m, c->p, "the function section has bytes after its last entry");
  return true;
}

static uint64_t sat_add64(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static bool sec_table(mt *m, cur *c, obuf *o) {
  uint32_t n;
  uint64_t min;
  TRY(rd_count(m, c, &n, 2));
  TRY(ob_uleb(m, o, n));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    if (c->p < c->end && *c->p == 0x40) { /* a table with an initializer */
      uint8_t z;
      c->p++;
      TRY(rd_byte(m, c, &z));
      if (z != 0) return bad(m, c->p - 1, "unknown table form 0x40 0x%02x", z);
      TRY(rd_tabletype(m, c, &min));
      TRY(ob_put(m, o, at, (size_t)(c->p - at)));
      TRY(const_expr(m, c, o));
    } else {
      TRY(rd_tabletype(m, c, &min));
      TRY(ob_put(m, o, at, (size_t)(c->p - at)));
    }
    m->out->table_elems = sat_add64(m->out->table_elems, min);
  }
  if (c->p != c->end) return bad(m, c->p, "the table section has bytes after its last table");
  return true;
}

static bool sec_memory(mt *m, cur *c) {
  uint32_t n;
  uint64_t min;
  TRY(rd_count(m, c, &n, 2));
  for (uint32_t i = 0; i < n; i++) {
    TRY(rd_limits(m, c, &min));
    m->out->memory_pages = sat_add64(m->out->memory_pages, min);
  }
  if (c->p != c->end) return bad(m, c->p, "the memory section has bytes after its last memory");
  return true;
}

static bool sec_tag(mt *m, cur *c) {
  uint32_t n, t;
  TRY(rd_count(m, c, &n, 2));
  for (uint32_t i = 0; i < n; i++) {
    uint8_t attr;
    TRY(rd_byte(m, c, &attr));
    const uint8_t *at = c->p;
    TRY(rd_u32(m, c, &t));
    TRY(type_index(m, at, t));
  }
  if (c->p != c->end) return bad(m, c->p, "the tag section has bytes after its last tag");
  return true;
}

/* The fuel: (global (mut i32) (i32.const budget)). */
static bool fuel_global(mt *m, obuf *o) {
  TRY(ob_byte(m, o, 0x7F));
  TRY(ob_byte(m, o, 0x01));
  TRY(ob_byte(m, o, 0x41));
  TRY(ob_sleb(m, o, m->budget));
  return ob_byte(m, o, 0x0B);
}

static bool sec_global(mt *m, cur *c, obuf *o) {
  uint32_t n;
  TRY(rd_count(m, c, &n, 3));
  m->gdefined = n;   /* init expressions may name any of them (the engine checks which) */
  TRY(ob_hole5(m, o, &m->gsec_count_hole));
  m->gsec_count = n + 1;
  ob_patch5(o, m->gsec_count_hole, m->gsec_count);
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    TRY(rd_globaltype(m, c));
    TRY(ob_put(m, o, at, (size_t)(c->p - at)));
    TRY(const_expr(m, c, o));
  }
  if (c->p != c->end) return bad(m, c->p, "the global section has bytes after its last global");
  return fuel_global(m, o);
}

static bool sec_export(mt *m, cur *c, obuf *o) {
  uint32_t n, idx;
  TRY(rd_count(m, c, &n, 3));
  TRY(ob_uleb(m, o, n));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    uint8_t kind;
    TRY(rd_name(m, c));
    TRY(rd_byte(m, c, &kind));
    if (kind > 4) return bad(m, c->p - 1, "unknown export kind 0x%02x", kind);
    const uint8_t *ip = c->p;
    TRY(rd_u32(m, c, &idx));
    TRY(ob_put(m, o, at, (size_t)(ip - at)));
    if (kind == 0) TRY(func_index(m, ip, idx));
    if (kind == 3) {
      TRY(global_index(m, ip, idx));
      idx = global_shift(m, idx);
    }
    TRY(ob_uleb(m, o, idx));
  }
  if (c->p != c->end) return bad(m, c->p, "the export section has bytes after its last export");
  return true;
}

/* vec(funcidx), copied. */
static bool func_indices(mt *m, cur *c, obuf *o) {
  uint32_t n, f;
  const uint8_t *at = c->p;
  TRY(rd_count(m, c, &n, 1));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *fp = c->p;
    TRY(rd_u32(m, c, &f));
    TRY(func_index(m, fp, f));
  }
  return ob_put(m, o, at, (size_t)(c->p - at));
}

/* vec(expr), rewritten. */
static bool exprs(mt *m, cur *c, obuf *o) {
  uint32_t n;
  TRY(rd_count(m, c, &n, 1));
  TRY(ob_uleb(m, o, n));
  for (uint32_t i = 0; i < n; i++) TRY(const_expr(m, c, o));
  return true;
}

static bool sec_element(mt *m, cur *c, obuf *o) {
  uint32_t n, flags, u;
  TRY(rd_count(m, c, &n, 2));
  TRY(ob_uleb(m, o, n));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    TRY(rd_u32(m, c, &flags));
    if (flags > 7) return bad(m, at, "unknown element segment flags %u", flags);
    TRY(ob_uleb(m, o, flags));
    if (flags == 2 || flags == 6) { /* table index */
      const uint8_t *tp = c->p;
      TRY(rd_u32(m, c, &u));
      TRY(ob_put(m, o, tp, (size_t)(c->p - tp)));
    }
    if ((flags & 1) == 0) TRY(const_expr(m, c, o)); /* active: the offset */
    if (flags & 3) {                                 /* an elemkind or a reftype */
      const uint8_t *kp = c->p;
      if (flags & 4) {
        TRY(rd_valtype(m, c));
      } else {
        uint8_t kind;
        TRY(rd_byte(m, c, &kind));
        if (kind != 0) return bad(m, kp, "unknown element kind 0x%02x", kind);
      }
      TRY(ob_put(m, o, kp, (size_t)(c->p - kp)));
    }
    TRY((flags & 4) ? exprs(m, c, o) : func_indices(m, c, o));
  }
  if (c->p != c->end) return bad(m, c->p, "the element section has bytes after its last segment");
  return true;
}

static bool sec_data(mt *m, cur *c, obuf *o) {
  uint32_t n, flags, u;
  TRY(rd_count(m, c, &n, 2));
  TRY(ob_uleb(m, o, n));
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    TRY(rd_u32(m, c, &flags));
    if (flags > 2) return bad(m, at, "unknown data segment flags %u", flags);
    TRY(ob_uleb(m, o, flags));
    if (flags == 2) {
      const uint8_t *mp = c->p;
      TRY(rd_u32(m, c, &u));
      TRY(ob_put(m, o, mp, (size_t)(c->p - mp)));
    }
    if (flags != 1) TRY(const_expr(m, c, o));
    const uint8_t *bp = c->p;
    TRY(rd_count(m, c, &u, 1));
    c->p += u;
    TRY(ob_put(m, o, bp, (size_t)(c->p - bp)));
  }
  if (c->p != c->end) return bad(m, c->p, "the data section has bytes after its last segment");
  return true;
}

/* ---- code: decoding a body into records ---------------------------------- */


static bool add_rec(mt *m, const uint8_t *body, const uint8_t *at, const uint8_t *end, uint8_t kind,
                    uint32_t aux) {
  TRY(grow_array(m, (void **)&m->recs, &m->caprecs, m->nrecs + 1, sizeof(rec)));
  m->recs[m->nrecs++] = (rec){(uint32_t)(at - body), (uint32_t)(end - at), aux, 0, kind};
  return true;
}

static bool add_tgt(mt *m, uint32_t v) {
  TRY(grow_array(m, (void **)&m->tgts, &m->captgts, m->ntgts + 1, sizeof(uint32_t)));
  m->tgts[m->ntgts++] = v;
  return true;
}

static bool push_blk(mt *m, uint8_t kind, uint32_t *id) {
  TRY(grow_array(m, (void **)&m->blks, &m->capblks, m->nblks + 1, sizeof(blk)));
  TRY(grow_array(m, (void **)&m->stack, &m->capstack, m->depth + 1, sizeof(uint32_t)));
  *id = (uint32_t)m->nblks;
  m->blks[m->nblks++] = (blk){.kind = kind};
  m->stack[m->depth++] = *id;
  return true;
}

/* A branch label: the block it names, or FUNC. */
static bool rd_label(mt *m, cur *c, uint32_t *target) {
  const uint8_t *at = c->p;
  uint32_t l;
  TRY(rd_u32(m, c, &l));
  if (l > m->depth) return bad(m, at, "branch depth %u is out of range", l);
  *target = l == m->depth ? FUNC : m->stack[m->depth - 1 - l];
  return true;
}

/* memarg: align (bit 6: a memory index follows), offset. */
static bool rd_memarg(mt *m, cur *c) {
  uint64_t align, mem, off;
  TRY(rd_uleb(m, c, 32, &align));
  if (align & 0x40) TRY(rd_uleb(m, c, 32, &mem));
  return rd_uleb(m, c, 64, &off);
}

/* SIMD opcodes without immediates that the proposal defines, from 14 up
 * (bit set: defined); 256..275 are relaxed SIMD. */
static bool simd_plain(uint32_t op) {
  static const uint8_t gaps[] = {154, 162, 165, 166, 175, 176, 178, 179, 180, 187,
                                 194, 197, 198, 207, 208, 210, 211, 212, 226, 238};
  if (op >= 256) return op <= 275;
  if ((op >= 14 && op <= 20) || (op >= 35 && op <= 83) || op >= 94) {
    for (size_t i = 0; i < sizeof gaps; i++)
      if (gaps[i] == op) return false;
    return true;
  }
  return false;
}

static bool op_fb(mt *m, cur *c, const uint8_t *at, uint8_t *kind, uint32_t *aux) {
  uint32_t sub, u;
  TRY(rd_u32(m, c, &sub));
  switch (sub) {
  case 0: case 1: case 6: case 7: case 11: case 12: case 13: case 14: case 16: /* one type index */
    TRY(rd_u32(m, c, &u));
    return type_index(m, at, u);
  case 2: case 3: case 4: case 5: /* struct.get*, struct.set: type, field */
  case 8: case 9: case 10: case 18: case 19: /* array.new_fixed/_data/_elem, array.init_*: type, n */
    TRY(rd_u32(m, c, &u));
    TRY(type_index(m, at, u));
    return rd_u32(m, c, &u);
  case 17: /* array.copy */
    TRY(rd_u32(m, c, &u));
    TRY(type_index(m, at, u));
    TRY(rd_u32(m, c, &u));
    return type_index(m, at, u);
  case 15: case 26: case 27: case 28: case 29: case 30: /* array.len, conversions, i31 */
    return true;
  case 20: case 21: case 22: case 23: /* ref.test, ref.cast */
    return rd_heaptype(m, c);
  case 24: case 25: { /* br_on_cast, br_on_cast_fail */
    uint8_t flags;
    TRY(rd_byte(m, c, &flags));
    if (flags > 3) return bad(m, c->p - 1, "unknown cast flags 0x%02x", flags);
    TRY(rd_label(m, c, aux));
    TRY(rd_heaptype(m, c));
    TRY(rd_heaptype(m, c));
    *kind = R_BRIF;
    return true;
  }
  default:
    return bad(m, at, "unknown GC instruction 0xfb %u", sub);
  }
}

static bool op_fc(mt *m, cur *c, const uint8_t *at, uint8_t *kind) {
  uint32_t sub, u;
  TRY(rd_u32(m, c, &sub));
  switch (sub) {
  case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: /* trunc_sat */
    return true;
  case 8: case 10: case 12: case 14: /* memory.init, memory.copy, table.init, table.copy */
    TRY(rd_u32(m, c, &u));
    return rd_u32(m, c, &u);
  case 15: /* table.grow */
    *kind = R_TGROW;
    return rd_u32(m, c, &u);
  case 9: case 11: case 13: case 16: case 17: /* data.drop, memory.fill, elem.drop, table.size, table.fill */
    return rd_u32(m, c, &u);
  default:
    return bad(m, at, "unknown instruction 0xfc %u", sub);
  }
}

static bool op_fd(mt *m, cur *c, const uint8_t *at) {
  uint32_t sub;
  TRY(rd_u32(m, c, &sub));
  if (sub <= 11 || sub == 92 || sub == 93) return rd_memarg(m, c);   /* loads, store, load_zero */
  if (sub == 12 || sub == 13) return rd_skip(m, c, 16);              /* v128.const, i8x16.shuffle */
  if (sub >= 21 && sub <= 34) return rd_skip(m, c, 1);               /* lane */
  if (sub >= 84 && sub <= 91) {                                      /* load/store lane */
    TRY(rd_memarg(m, c));
    return rd_skip(m, c, 1);
  }
  if (simd_plain(sub)) return true;
  return bad(m, at, "unknown SIMD instruction 0xfd %u", sub);
}

static bool op_fe(mt *m, cur *c, const uint8_t *at) {
  uint32_t sub;
  TRY(rd_u32(m, c, &sub));
  if (sub <= 2 || (sub >= 0x10 && sub <= 0x4E)) return rd_memarg(m, c);
  if (sub == 3) { /* atomic.fence */
    uint8_t z;
    TRY(rd_byte(m, c, &z));
    if (z != 0) return bad(m, c->p - 1, "atomic.fence takes a zero byte");
    return true;
  }
  return bad(m, at, "unknown atomic instruction 0xfe %u", sub);
}

/* ---- code: the locals a loop uses ------------------------------------------ */

/* The kind of local k of the function being metered. */
static uint8_t local_kind(const mt *m, uint32_t k) {
  if (k < m->nparams) return m->pkinds[m->pkoff + k];
  size_t lo = 0, hi = m->nruns;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->runs[mid].end > k) hi = mid;
    else lo = mid + 1;
  }
  return lo < m->nruns ? m->runs[lo].kind : K_OTHER;
}

/* Makes room for the list of the function's nlocals locals and empties
 * it (entries of earlier functions have another gen). */
static bool lists_begin(mt *m) {
  size_t old = m->caplocals;
  if (m->nlocals > old) {
    size_t cap = old;
    TRY(grow_array(m, (void **)&m->lgen, &cap, m->nlocals, sizeof(uint32_t)));
    memset(m->lgen + old, 0, (cap - old) * sizeof(uint32_t));
    size_t c2 = old, c3 = old, c4 = old, c5 = old;
    TRY(grow_array(m, (void **)&m->lprev, &c2, cap, sizeof(uint32_t)));
    TRY(grow_array(m, (void **)&m->lnext, &c3, cap, sizeof(uint32_t)));
    TRY(grow_array(m, (void **)&m->lpos, &c4, cap, sizeof(uint32_t)));
    TRY(grow_array(m, (void **)&m->lkind, &c5, cap, 1));
    m->caplocals = cap;
  }
  if (++m->gen == 0) {   /* wrapped: forget every mark */
    memset(m->lgen, 0, m->caplocals * sizeof(uint32_t));
    m->gen = 1;
  }
  m->lhead = LIST_END;
  return true;
}

/* A reference to local k at offset pos: a local that can be saved moves
 * to the front of the list. */
static void touch(mt *m, uint32_t k, uint32_t pos) {
  if (k >= m->nlocals) return;   /* the engine refuses it */
  if (m->lgen[k] != m->gen) {
    m->lgen[k] = m->gen;
    m->lkind[k] = local_kind(m, k);
    if (m->lkind[k] >= K_OTHER) return;
  } else {
    if (m->lkind[k] >= K_OTHER) return;
    m->lpos[k] = pos;
    if (m->lhead == k) return;
    uint32_t prev = m->lprev[k], next = m->lnext[k];
    m->lnext[prev] = next;   /* not the head, so it has a prev */
    if (next != LIST_END) m->lprev[next] = prev;
  }
  m->lpos[k] = pos;
  m->lprev[k] = LIST_END;
  m->lnext[k] = m->lhead;
  if (m->lhead != LIST_END) m->lprev[m->lhead] = k;
  m->lhead = k;
}

/* The save set of code from offset since on: the locals referenced there
 * (the most recent first, at most MAX_SAVE; params_only: only parameters),
 * appended to saves. */
static bool save_set(mt *m, uint32_t since, bool params_only, uint32_t *off, uint32_t *n) {
  *off = (uint32_t)m->nsaves;
  *n = 0;
  for (uint32_t k = m->lhead; k != LIST_END && *n < MAX_SAVE; k = m->lnext[k]) {
    if (m->lpos[k] < since) break;
    if (params_only && k >= m->nparams) continue;
    TRY(grow_array(m, (void **)&m->saves, &m->capsaves, m->nsaves + 1, sizeof(uint32_t)));
    m->saves[m->nsaves++] = k;
    (*n)++;
  }
  return true;
}

/* Pass 1: the records of the body [body, end), whose instructions start
 * at p0 (after the locals). */
static bool decode_body(mt *m, const uint8_t *body, const uint8_t *p0, const uint8_t *end) {
  cur cc = {p0, end}, *c = &cc;
  const uint8_t *run = p0;   /* where the current run of other code began */
  m->nrecs = m->nblks = m->depth = m->ntgts = m->nsaves = 0;
  m->fn_loops = 0;
  for (;;) {
    if (c->p >= c->end) return bad(m, c->p, "function %u ends before its final end", m->func_no);
    const uint8_t *at = c->p;
    if ((size_t)(at - run) > SPLIT) {
      TRY(add_rec(m, body, at, at, R_PLAIN, 0));
      run = at;
    }
    uint8_t op = *c->p++, kind = R_PLAIN;
    bool rec_it = true, last = false;
    uint32_t aux = 0, u, n;
    int64_t s;
    switch (op) {
    case 0x00: kind = R_STOP; break;                          /* unreachable */
    case 0x01: rec_it = false; break;                         /* nop */
    case 0x02: case 0x03: case 0x04: case 0x06: {             /* block, loop, if, try */
      static const uint8_t bk[7] = {0, 0, B_BLOCK, B_LOOP, B_IF, 0, B_TRY};
      static const uint8_t rk[7] = {0, 0, R_BLOCK, R_LOOP, R_IF, 0, R_TRY};
      bool params;
      TRY(rd_blocktype(m, c, &params));
      TRY(push_blk(m, bk[op], &aux));
      m->blks[aux].start = (uint32_t)(at - body);
      if (op == 0x03) {
        m->fn_loops++;
        if (params) m->blks[aux].state |= S_PARAMS;
      }
      kind = rk[op];
      break;
    }
    case 0x05: {                                              /* else */
      blk *b = m->depth ? &m->blks[m->stack[m->depth - 1]] : NULL;
      if (!b || b->kind != B_IF || (b->state & S_ELSE)) return bad(m, at, "else without an if");
      b->state |= S_ELSE;
      aux = m->stack[m->depth - 1];
      kind = R_ELSE;
      break;
    }
    case 0x07: case 0x19: {                                   /* catch, catch_all */
      blk *b = m->depth ? &m->blks[m->stack[m->depth - 1]] : NULL;
      if (!b || b->kind != B_TRY || (b->state & S_CATCH_ALL))
        return bad(m, at, "%s without a try", op == 0x07 ? "catch" : "catch_all");
      if (op == 0x07) TRY(rd_u32(m, c, &u));   /* the tag */
      b->state |= op == 0x07 ? S_CATCH : S_CATCH_ALL;
      aux = m->stack[m->depth - 1];
      kind = R_CATCH;
      break;
    }
    case 0x08: TRY(rd_u32(m, c, &u)); kind = R_THROW; break;  /* throw */
    case 0x09: TRY(rd_label(m, c, &u)); kind = R_THROW; break; /* rethrow */
    case 0x0A: kind = R_THROW; break;                          /* throw_ref */
    case 0x0B: case 0x18: {                                    /* end, delegate */
      if (op == 0x18) {
        blk *b = m->depth ? &m->blks[m->stack[m->depth - 1]] : NULL;
        if (!b || b->kind != B_TRY || b->state) return bad(m, at, "delegate without a try");
        m->depth--;
        TRY(rd_label(m, c, &u));   /* relative to the blocks around the try */
        m->depth++;
      }
      if (m->depth == 0) {
        if (op == 0x18) return bad(m, at, "delegate without a try");
        aux = FUNC;
        last = true;
        TRY(save_set(m, 0, true, &m->fsave_off, &m->fsave_n));
      } else {
        aux = m->stack[--m->depth];
        blk *b = &m->blks[aux];
        if (b->kind == B_LOOP) TRY(save_set(m, b->start, false, &b->save_off, &b->save_n));
      }
      kind = R_END;
      break;
    }
    case 0x0C: TRY(rd_label(m, c, &aux)); kind = R_BR; break;
    case 0x0D: case 0xD5: case 0xD6:                           /* br_if, br_on_null, br_on_non_null */
      TRY(rd_label(m, c, &aux));
      kind = R_BRIF;
      break;
    case 0x0E: {                                               /* br_table */
      TRY(rd_count(m, c, &n, 1));
      aux = (uint32_t)m->ntgts;
      TRY(add_tgt(m, n + 1));
      for (uint64_t i = 0; i <= n; i++) {
        uint32_t t;
        TRY(rd_label(m, c, &t));
        TRY(add_tgt(m, t));
      }
      kind = R_BRTABLE;
      break;
    }
    case 0x0F: kind = R_STOP; break;                           /* return */
    case 0x10: TRY(rd_u32(m, c, &u)); TRY(func_index(m, at, u)); kind = R_CALL; break; /* call */
    case 0x12: TRY(rd_u32(m, c, &u)); TRY(func_index(m, at, u)); kind = R_STOP; break; /* return_call */
    case 0x11: case 0x13:                                      /* call_indirect, return_call_indirect */
      TRY(rd_u32(m, c, &u));
      TRY(type_index(m, at, u));
      TRY(rd_u32(m, c, &u));
      kind = op == 0x11 ? R_CALL : R_STOP;
      break;
    case 0x14: case 0x15:                                      /* call_ref, return_call_ref */
      TRY(rd_u32(m, c, &u));
      TRY(type_index(m, at, u));
      kind = op == 0x14 ? R_CALL : R_STOP;
      break;
    case 0x1A: case 0x1B: rec_it = false; break;               /* drop, select */
    case 0x1C:                                                 /* select t* */
      TRY(rd_count(m, c, &n, 1));
      for (uint32_t i = 0; i < n; i++) TRY(rd_valtype(m, c));
      rec_it = false;
      break;
    case 0x1F: {                                               /* try_table */
      TRY(rd_blocktype(m, c, NULL));
      TRY(rd_count(m, c, &n, 2));
      uint32_t first = (uint32_t)m->ntgts;
      TRY(add_tgt(m, n));
      for (uint32_t i = 0; i < n; i++) {
        uint8_t ck;
        uint32_t t;
        TRY(rd_byte(m, c, &ck));
        if (ck > 3) return bad(m, c->p - 1, "unknown catch clause 0x%02x", ck);
        if (ck < 2) TRY(rd_u32(m, c, &u));
        TRY(rd_label(m, c, &t));   /* relative to the blocks around the try_table */
        TRY(add_tgt(m, t));
      }
      TRY(push_blk(m, B_TRYTABLE, &aux));
      m->blks[aux].catches = first;
      kind = R_TRYTABLE;
      break;
    }
    case 0x20: case 0x21: case 0x22:                           /* local.get/set/tee */
      TRY(rd_u32(m, c, &u));
      /* checked: the meter adds a local */
      if (u >= m->nlocals) return bad(m, at, "local index %u is out of range", u);
      touch(m, u, (uint32_t)(at - body));
      rec_it = false;
      break;
    case 0x25: case 0x26:                                      /* table.get/set */
      TRY(rd_u32(m, c, &u));
      rec_it = false;
      break;
    case 0x23: case 0x24:                                      /* global.get, global.set */
      TRY(rd_u32(m, c, &aux));
      TRY(global_index(m, at, aux));
      kind = R_GLOBAL;
      break;
    case 0x3F: TRY(rd_u32(m, c, &u)); rec_it = false; break;   /* memory.size */
    case 0x40: TRY(rd_u32(m, c, &u)); kind = R_MGROW; break;   /* memory.grow */
    case 0x41: TRY(rd_sleb(m, c, 32, &s)); rec_it = false; break;
    case 0x42: TRY(rd_sleb(m, c, 64, &s)); rec_it = false; break;
    case 0x43: TRY(rd_skip(m, c, 4)); rec_it = false; break;
    case 0x44: TRY(rd_skip(m, c, 8)); rec_it = false; break;
    case 0xD0: TRY(rd_heaptype(m, c)); rec_it = false; break;  /* ref.null */
    case 0xD1: case 0xD3: case 0xD4: rec_it = false; break;    /* ref.is_null, ref.eq, ref.as_non_null */
    case 0xD2: TRY(rd_u32(m, c, &u)); TRY(func_index(m, at, u)); rec_it = false; break; /* ref.func */
    case 0xFB: TRY(op_fb(m, c, at, &kind, &aux)); rec_it = kind != R_PLAIN; break;
    case 0xFC: TRY(op_fc(m, c, at, &kind)); rec_it = kind != R_PLAIN; break;
    case 0xFD: TRY(op_fd(m, c, at)); rec_it = false; break;
    case 0xFE: TRY(op_fe(m, c, at)); rec_it = false; break;
    default:
      if (op >= 0x28 && op <= 0x3E) {                          /* loads, stores */
        TRY(rd_memarg(m, c));
        rec_it = false;
      } else if (op >= 0x45 && op <= 0xC4) {                   /* numeric */
        rec_it = false;
      } else {
        return bad(m, at, "unknown instruction 0x%02x", op);
      }
    }
    if (rec_it) {
      TRY(add_rec(m, body, at, c->p, kind, aux));
      run = c->p;
    }
    if (last) break;
  }
  if (c->p != end) return bad(m, c->p, "function %u has bytes after its final end", m->func_no);
  return true;
}

/* ---- code: the fuel analysis ---------------------------------------------- */

static uint32_t sat_add(uint32_t a, uint32_t b) { return a > MAX_WEIGHT - b ? MAX_WEIGHT : a + b; }
static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* Where a branch to target lands. */
static uint32_t target_dist(const mt *m, uint32_t target) {
  if (target == FUNC) return 0;
  const blk *b = &m->blks[target];
  return b->kind == B_LOOP ? 0 : b->target;
}

/* Pass 2: the checkpoints (recs[].cp) of a body whose instructions end at
 * offset end_off; returns the entry's weight in *entry. */
static bool analyze_body(mt *m, uint32_t start_off, uint32_t end_off, uint32_t *entry) {
  size_t hdepth = 0;   /* try contexts around the current record, innermost last */
  uint32_t dnext = 0, nextoff = end_off;
  for (size_t r = m->nrecs; r-- > 0;) {
    rec *x = &m->recs[r];
    uint32_t after = sat_add(nextoff - (x->off + x->len), dnext);
    uint32_t threshold = x->kind == R_CALL ? CALL_CAP : CAP;
    if (x->kind == R_LOOP || after > threshold) {
      x->cp = after ? after : 1;
      after = 0;
    }
    uint32_t hctx = hdepth ? m->hmax[hdepth - 1] : 0, d = x->len;
    blk *b = (x->kind >= R_BLOCK && x->kind <= R_END && x->aux != FUNC) ? &m->blks[x->aux] : NULL;
    switch (x->kind) {
    case R_PLAIN: d = after; break;
    case R_GLOBAL: case R_MGROW: case R_TGROW: case R_BLOCK: d = sat_add(d, after); break;
    case R_TRY: case R_TRYTABLE:
      d = sat_add(d, after);
      if (hdepth) hdepth--;   /* leaving (backwards) the try's body */
      break;
    case R_LOOP: break;       /* the checkpoint right after it */
    case R_IF: d = sat_add(d, max_u32(after, (b->state & S_ELSE) ? b->else_start : b->target)); break;
    case R_ELSE:
      b->else_start = after;
      d = sat_add(d, b->target);
      break;
    case R_CATCH:
      b->handler = max_u32(b->handler, after);
      if (hdepth) m->hmax[hdepth - 1] = max_u32(hdepth > 1 ? m->hmax[hdepth - 2] : 0, b->handler);
      d = sat_add(d, b->target);
      break;
    case R_END:
      d = sat_add(d, after);
      if (!b) break;
      if (b->kind != B_LOOP) b->target = after;
      if (b->kind == B_TRY || b->kind == B_TRYTABLE) {
        if (b->kind == B_TRYTABLE) {
          uint32_t cnt = m->tgts[b->catches];
          for (uint32_t i = 0; i < cnt; i++)
            b->handler = max_u32(b->handler, target_dist(m, m->tgts[b->catches + 1 + i]));
        }
        TRY(grow_array(m, (void **)&m->hmax, &m->caphmax, hdepth + 1, sizeof(uint32_t)));
        m->hmax[hdepth] = max_u32(hctx, b->handler);
        hdepth++;
      }
      break;
    case R_BR: d = sat_add(d, target_dist(m, x->aux)); break;
    case R_BRIF: d = sat_add(d, max_u32(after, target_dist(m, x->aux))); break;
    case R_BRTABLE: {
      uint32_t cnt = m->tgts[x->aux], most = 0;
      for (uint32_t i = 0; i < cnt; i++) most = max_u32(most, target_dist(m, m->tgts[x->aux + 1 + i]));
      d = sat_add(d, most);
      break;
    }
    case R_CALL: d = sat_add(d, max_u32(after, hctx)); break;
    case R_STOP: break;
    case R_THROW: d = sat_add(d, hctx); break;
    }
    dnext = d;
    nextoff = x->off;
  }
  *entry = sat_add(nextoff - start_off, dnext);
  if (*entry == 0) *entry = 1;
  return true;
}

/* ---- code: writing a metered body ------------------------------------------- */

/* The fixed parts of a checkpoint and of a grow's call, made once. */
static void make_sequences(mt *m) {
  uint8_t *p = m->cp_head;
  *p++ = 0x23;                                        /* global.get fuel */
  p += enc_uleb(p, m->fuel_global);
  *p++ = 0x41;                                        /* i32.const weight (follows) */
  m->cp_head_len = (size_t)(p - m->cp_head);
  p = m->cp_mid;
  *p++ = 0x6B;                                        /* i32.sub */
  *p++ = 0x24; p += enc_uleb(p, m->fuel_global);      /* global.set fuel */
  *p++ = 0x23; p += enc_uleb(p, m->fuel_global);      /* global.get fuel */
  *p++ = 0x41; *p++ = 0x00;                           /* i32.const 0 */
  *p++ = 0x48;                                        /* i32.lt_s */
  *p++ = 0x04; *p++ = 0x40;                           /* if */
  m->cp_test_len = (size_t)(p - m->cp_mid);           /*   (the cold path) */
  p = m->cp_call;
  *p++ = 0x23; p += enc_uleb(p, m->check_global);     /*   global.get check */
  *p++ = 0xFB; *p++ = 0x16; p += enc_sleb(p, m->check_type); /* ref.cast (ref $check) */
  *p++ = 0x14; p += enc_uleb(p, m->check_type);      /*   call_ref $check */
  m->cp_call_len = (size_t)(p - m->cp_call);          /*   (restores), end */
  for (int k = 0; k < 2; k++) {
    uint8_t *q = k ? m->call_tgrow : m->call_grow, *s = q;
    *q++ = 0x23; q += enc_uleb(q, k ? m->tgrow_global : m->grow_global);
    *q++ = 0xFB; *q++ = 0x16; q += enc_sleb(q, m->grow_type);
    *q++ = 0x14; q += enc_uleb(q, m->grow_type);
    if (k) m->call_tgrow_len = (size_t)(q - s);
    else m->call_grow_len = (size_t)(q - s);
  }
}

/* A checkpoint of weight, whose call saves and restores the n locals at
 * save: a value that is live across a call cannot stay in a register the
 * call clobbers, so without this the engine's optimizing tier spills every
 * value a loop carries (a tight loop ran 3x slower); through scratch
 * globals on the cold path, the loop's own values are not live across it. */
static bool checkpoint(mt *m, obuf *o, uint32_t weight, const uint32_t *save, uint32_t n, int form) {
  uint32_t used[NKINDS];
  m->out->checkpoints++;
  TRY(ob_put(m, o, m->cp_head, m->cp_head_len));
  TRY(ob_sleb(m, o, weight));
  if (form == CP_COMPACT) {   /* if (fuel < 0) slow() */
    TRY(ob_put(m, o, m->cp_mid, m->cp_test_len));
    TRY(ob_byte(m, o, 0x10));
    TRY(ob_uleb(m, o, m->slow_func));
    return ob_byte(m, o, 0x0B);
  }
  TRY(ob_put(m, o, m->cp_mid, m->cp_test_len));
  TRY(ob_byte(m, o, 0x41));   /* fuel = budget (+ weight: charged again at the loop's start) */
  TRY(ob_sleb(m, o, (int64_t)m->budget + (form == CP_LOOP ? weight : 0)));
  TRY(ob_byte(m, o, 0x24));
  TRY(ob_uleb(m, o, m->fuel_global));
  for (int pass = 0; pass < 2; pass++) {
    memset(used, 0, sizeof used);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t k = save[i], kind = m->lkind[k];
      uint32_t g = m->scratch_base + used[kind]++ * NKINDS + kind;
      if (kind == K_V128) m->scratch_v128 = true;
      if (pass == 0) {
        TRY(ob_byte(m, o, 0x20));   /* local.get k; global.set g */
        TRY(ob_uleb(m, o, k));
        TRY(ob_byte(m, o, 0x24));
      } else {
        TRY(ob_byte(m, o, 0x23));   /* global.get g; local.set k */
      }
      TRY(ob_uleb(m, o, g));
      if (pass == 1) {
        TRY(ob_byte(m, o, 0x21));
        TRY(ob_uleb(m, o, k));
      }
    }
    if (pass == 0) TRY(ob_put(m, o, m->cp_call, m->cp_call_len));
  }
  for (int t = 0; t < NKINDS; t++)
    if (used[t] > m->scratch_slots) m->scratch_slots = used[t];
  if (form == CP_LOOP) {   /* br 1: the loop's start */
    TRY(ob_byte(m, o, 0x0C));
    TRY(ob_byte(m, o, 0x01));
  }
  return ob_byte(m, o, 0x0B);
}

/* counter = LOCAL_FUEL */
static bool counter_reset(mt *m, obuf *o) {
  TRY(ob_byte(m, o, 0x41));
  TRY(ob_sleb(m, o, LOCAL_FUEL));
  TRY(ob_byte(m, o, 0x21));
  return ob_uleb(m, o, m->nlocals);
}

/* fuel -= LOCAL_FUEL - counter: what the counter charged goes to the fuel. */
static bool counter_flush(mt *m, obuf *o) {
  TRY(ob_byte(m, o, 0x23));
  TRY(ob_uleb(m, o, m->fuel_global));
  TRY(ob_byte(m, o, 0x20));
  TRY(ob_uleb(m, o, m->nlocals));
  TRY(ob_byte(m, o, 0x6A));   /* i32.add */
  TRY(ob_byte(m, o, 0x41));
  TRY(ob_sleb(m, o, LOCAL_FUEL));
  TRY(ob_byte(m, o, 0x6B));   /* i32.sub */
  TRY(ob_byte(m, o, 0x24));
  return ob_uleb(m, o, m->fuel_global);
}

/* In a function with the counter, before an instruction that calls or may
 * leave: the counter's charge goes to the fuel, so that the callee (and
 * whatever runs after a return) sees it. An exception a callee throws
 * through the function loses at most LOCAL_FUEL. */
static bool flush_before(mt *m, obuf *o, const rec *x, uint8_t op) {
  bool leaves = false, may = false;
  switch (x->kind) {
  case R_CALL: may = true; break;
  case R_STOP: leaves = op != 0x00; break;   /* not unreachable: a trap ends the stay's wasm */
  case R_THROW: leaves = true; break;
  case R_END: leaves = x->aux == FUNC; break;
  case R_BR: leaves = x->aux == FUNC; break;
  case R_BRIF: may = x->aux == FUNC; break;
  case R_BRTABLE:
    for (uint32_t i = 0, cnt = m->tgts[x->aux]; i < cnt && !may; i++) may = m->tgts[x->aux + 1 + i] == FUNC;
    break;
  }
  if (!leaves && !may) return true;
  TRY(counter_flush(m, o));
  return may ? counter_reset(m, o) : true;
}

/* A checkpoint in a loop of a function with the counter: counter -= weight,
 * two register operations while it stays >= 0; below, its charge goes to
 * the fuel (every LOCAL_FUEL), and only when the fuel went below zero does
 * it call the check, with the loop's locals saved as in checkpoint(). */
static bool lcheckpoint(mt *m, obuf *o, uint32_t weight, const uint32_t *save, uint32_t n, int form) {
  uint32_t used[NKINDS];
  m->out->checkpoints++;
  TRY(ob_byte(m, o, 0x20));   /* counter -= weight; if (counter < 0) */
  TRY(ob_uleb(m, o, m->nlocals));
  TRY(ob_byte(m, o, 0x41));
  TRY(ob_sleb(m, o, weight));
  TRY(ob_byte(m, o, 0x6B));
  TRY(ob_byte(m, o, 0x22));
  TRY(ob_uleb(m, o, m->nlocals));
  static const uint8_t test[] = {0x41, 0x00, 0x48, 0x04, 0x40};
  TRY(ob_put(m, o, test, sizeof test));
  TRY(counter_flush(m, o));
  TRY(counter_reset(m, o));
  TRY(ob_byte(m, o, 0x23));   /* if (fuel < 0) */
  TRY(ob_uleb(m, o, m->fuel_global));
  TRY(ob_put(m, o, test, sizeof test));
  TRY(ob_byte(m, o, 0x41));   /* fuel = budget + weight */
  TRY(ob_sleb(m, o, (int64_t)m->budget + weight));
  TRY(ob_byte(m, o, 0x24));
  TRY(ob_uleb(m, o, m->fuel_global));
  for (int pass = 0; pass < 2; pass++) {
    memset(used, 0, sizeof used);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t k = save[i], kind = m->lkind[k];
      uint32_t g = m->scratch_base + used[kind]++ * NKINDS + kind;
      if (kind == K_V128) m->scratch_v128 = true;
      TRY(ob_byte(m, o, pass == 0 ? 0x20 : 0x23));
      TRY(ob_uleb(m, o, pass == 0 ? k : g));
      TRY(ob_byte(m, o, pass == 0 ? 0x24 : 0x21));
      TRY(ob_uleb(m, o, pass == 0 ? g : k));
    }
    if (pass == 0) TRY(ob_put(m, o, m->cp_call, m->cp_call_len));
  }
  for (int t = 0; t < NKINDS; t++)
    if (used[t] > m->scratch_slots) m->scratch_slots = used[t];
  if (form == CP_LOOP) {      /* br 2: the loop's start */
    TRY(ob_byte(m, o, 0x0C));
    TRY(ob_byte(m, o, 0x02));
  }
  TRY(ob_byte(m, o, 0x0B));
  return ob_byte(m, o, 0x0B);
}

/* Pass 3: writes the metered body. */
static bool emit_body(mt *m, const uint8_t *body, const uint8_t *p0, const uint8_t *end, uint32_t entry,
                      obuf *o) {
  if (m->counter) {   /* the locals, and the counter */
    TRY(ob_uleb(m, o, (uint64_t)m->ndecls + 1));
    TRY(ob_put(m, o, m->decls, (size_t)(p0 - m->decls)));
    TRY(ob_byte(m, o, 0x01));
    TRY(ob_byte(m, o, 0x7F));
  } else {
    TRY(ob_put(m, o, body, (size_t)(p0 - body)));
  }
  /* a function with loops saves its parameters (its loops use them) */
  if (m->fn_loops) TRY(checkpoint(m, o, entry, m->saves + m->fsave_off, m->fsave_n, CP_FALL));
  else TRY(checkpoint(m, o, entry, NULL, 0, CP_COMPACT));
  if (m->counter) TRY(counter_reset(m, o));
  const uint8_t *pos = p0;
  size_t loops = 0;   /* open loops, innermost last, in m->stack */
  for (size_t r = 0; r < m->nrecs; r++) {
    const rec *x = &m->recs[r];
    const uint8_t *at = body + x->off;
    TRY(ob_put(m, o, pos, (size_t)(at - pos)));
    if (m->counter) TRY(flush_before(m, o, x, *at));
    switch (x->kind) {
    case R_GLOBAL:
      TRY(ob_byte(m, o, *at));
      TRY(ob_uleb(m, o, global_shift(m, x->aux)));
      break;
    case R_MGROW: case R_TGROW:
      m->out->grows++;
      if (x->kind == R_MGROW) TRY(ob_put(m, o, m->call_grow, m->call_grow_len));
      else TRY(ob_put(m, o, m->call_tgrow, m->call_tgrow_len));
      TRY(ob_put(m, o, at, x->len));
      break;
    case R_LOOP:
      m->out->loops++;
      TRY(ob_put(m, o, at, x->len));
      break;
    default:
      TRY(ob_put(m, o, at, x->len));
    }
    pos = at + x->len;
    if (x->kind == R_LOOP) m->stack[loops++] = x->aux;
    else if (x->kind == R_END && x->aux != FUNC && m->blks[x->aux].kind == B_LOOP && loops) loops--;
    if (x->cp) {
      /* A loop's start: back to it after the check (the restored values
       * then meet the loop's own at its start, on the cold edge alone),
       * unless it takes parameters. Inside a loop: the loop's values are
       * saved. After a call (values live across it anyway) and outside
       * loops: the compact form. */
      const blk *in = loops ? &m->blks[m->stack[loops - 1]] : NULL;
      int form = x->kind == R_LOOP && !(in->state & S_PARAMS) ? CP_LOOP : CP_FALL;
      if (!in || x->kind == R_CALL) TRY(checkpoint(m, o, x->cp, NULL, 0, CP_COMPACT));
      else if (m->counter) TRY(lcheckpoint(m, o, x->cp, m->saves + in->save_off, in->save_n, form));
      else TRY(checkpoint(m, o, x->cp, m->saves + in->save_off, in->save_n, form));
    }
  }
  return ob_put(m, o, pos, (size_t)(end - pos));
}

static bool code_body(mt *m, const uint8_t *body, const uint8_t *end, obuf *o) {
  cur cc = {body, end}, *c = &cc;
  uint32_t n, k;
  if (m->func_no >= m->nftypes)
    return bad(m, body, "the code section has more functions than the function section declares");
  const tparams *tp = &m->tps[m->ftypes[m->func_no]];
  uint64_t total = tp->n;
  m->nparams = tp->n;
  m->pkoff = tp->off;
  m->nruns = 0;
  TRY(rd_count(m, c, &n, 2));
  m->ndecls = n;
  m->decls = c->p;
  TRY(grow_array(m, (void **)&m->runs, &m->capruns, n, sizeof(run)));
  for (uint32_t i = 0; i < n; i++) {
    uint8_t kind;
    TRY(rd_u32(m, c, &k));
    TRY(rd_valtype_k(m, c, &kind));
    total += k;
    if (total > MAX_LOCALS)
      return bad(m, body, "function %u has more locals than the engine's limit of %u", m->func_no, MAX_LOCALS);
    m->runs[m->nruns++] = (run){(uint32_t)total, kind};
  }
  m->nlocals = (uint32_t)total;
  TRY(lists_begin(m));
  const uint8_t *p0 = c->p;
  uint32_t entry;
  TRY(decode_body(m, body, p0, end));
  m->counter = m->fn_loops && m->nlocals < MAX_LOCALS;
  TRY(analyze_body(m, (uint32_t)(p0 - body), (uint32_t)(end - body), &entry));
  size_t at;
  TRY(ob_hole5(m, o, &at));
  size_t start = o->len;
  TRY(emit_body(m, body, p0, end, entry, o));
  size_t len = o->len - start;
  if (len > MAX_BODY)
    return bad(m, body, "function %u: metering makes its body %zu bytes, past the engine's limit of %u",
               m->func_no, len, MAX_BODY);
  ob_patch5(o, at, (uint32_t)len);
  m->out->functions++;
  return true;
}

/* The body of the compact checkpoints' function. */
static bool slow_body(mt *m, obuf *o) {
  size_t at;
  TRY(ob_hole5(m, o, &at));
  size_t start = o->len;
  TRY(ob_byte(m, o, 0x00));                     /* no locals */
  TRY(ob_byte(m, o, 0x41));                     /* fuel = budget */
  TRY(ob_sleb(m, o, m->budget));
  TRY(ob_byte(m, o, 0x24));
  TRY(ob_uleb(m, o, m->fuel_global));
  TRY(ob_put(m, o, m->cp_call, m->cp_call_len)); /* check() */
  TRY(ob_byte(m, o, 0x0B));
  ob_patch5(o, at, (uint32_t)(o->len - start));
  return true;
}

static bool sec_code(mt *m, cur *c, obuf *o) {
  uint32_t n, size;
  TRY(rd_count(m, c, &n, 2));
  TRY(ob_uleb(m, o, (uint64_t)n + m->has_slow));
  make_sequences(m);
  for (uint32_t i = 0; i < n; i++) {
    m->func_no = i;
    const uint8_t *at = c->p;
    TRY(rd_u32(m, c, &size));
    if (size > (uint64_t)(c->end - c->p)) return bad(m, at, "function %u is longer than the code section", i);
    if (size > MAX_BODY) return bad(m, at, "function %u is larger than the engine's limit of %u bytes", i, MAX_BODY);
    TRY(code_body(m, c->p, c->p + size, o));
    c->p += size;
  }
  if (c->p != c->end) return bad(m, c->p, "the code section has bytes after its last function");
  return m->has_slow ? slow_body(m, o) : true;
}

/* ---- the module ------------------------------------------------------------- */

/* The order of known sections (ids 1..13 -> rank), 0: unknown. */
static int section_rank(uint8_t id) {
  static const int rank[14] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 11, 6};
  return id < 14 ? rank[id] : 0;
}
#define RANK_TYPE 1
#define RANK_IMPORT 2
#define RANK_GLOBAL 7

/* Writes section id with the payload written by fn. */
static bool section(mt *m, obuf *o, uint8_t id, bool (*fn)(mt *, cur *, obuf *), cur *c) {
  size_t at;
  TRY(ob_byte(m, o, id));
  TRY(ob_hole5(m, o, &at));
  size_t start = o->len;
  TRY(fn(m, c, o));
  ob_patch5(o, at, (uint32_t)(o->len - start));
  m->last_hole = at;
  return true;
}

/* The sections the meter needs when the input has none. */
static bool empty_types(mt *m, cur *c, obuf *o) {
  TRY(ob_uleb(m, o, 2));
  return added_types(m, o);
}
static bool empty_imports(mt *m, cur *c, obuf *o) {
  TRY(ob_uleb(m, o, STRAIT__WASM_METER_IMPORTS));
  return added_imports(m, o);
}
static bool empty_globals(mt *m, cur *c, obuf *o) {
  TRY(ob_hole5(m, o, &m->gsec_count_hole));
  m->gsec_count = 1;
  ob_patch5(o, m->gsec_count_hole, m->gsec_count);
  return fuel_global(m, o);
}
static bool with_imports(mt *m, cur *c, obuf *o) {
  TRY(sec_import(m, c, o));
  return added_imports(m, o);
}
static bool plain_copy(mt *m, cur *c, obuf *o) {
  TRY(ob_put(m, o, c->p, (size_t)(c->end - c->p)));
  c->p = c->end;
  return true;
}
static bool with_slow_function(mt *m, cur *c, obuf *o) {
  const uint8_t *first;
  cur k = *c;
  uint32_t n;
  TRY(sec_function(m, &k));
  TRY(rd_count(m, c, &n, 1));
  first = c->p;
  m->has_slow = n > 0;
  m->slow_func = m->fimports + n;
  TRY(ob_uleb(m, o, (uint64_t)n + m->has_slow));
  TRY(ob_put(m, o, first, (size_t)(c->end - first)));
  c->p = c->end;
  return m->has_slow ? ob_uleb(m, o, m->check_type) : true;
}
static bool copy_memory(mt *m, cur *c, obuf *o) {
  cur k = *c;
  TRY(sec_memory(m, &k));
  return plain_copy(m, c, o);
}
static bool copy_tag(mt *m, cur *c, obuf *o) {
  cur k = *c;
  TRY(sec_tag(m, &k));
  return plain_copy(m, c, o);
}
static bool copy_start(mt *m, cur *c, obuf *o) {
  cur k = *c;
  uint32_t f;
  TRY(rd_u32(m, &k, &f));
  TRY(func_index(m, c->p, f));
  if (k.p != k.end) return bad(m, k.p, "the start section has bytes after its function");
  return plain_copy(m, c, o);
}
static bool copy_datacount(mt *m, cur *c, obuf *o) {
  cur k = *c;
  uint32_t n;
  TRY(rd_u32(m, &k, &n));
  if (k.p != k.end) return bad(m, k.p, "the data count section has bytes after its count");
  return plain_copy(m, c, o);
}

/* The indices of the added globals, once the input's are counted. */
static void set_globals(mt *m) {
  m->check_global = m->gimports;
  m->grow_global = m->gimports + 1;
  m->tgrow_global = m->gimports + 2;
  m->fuel_global = m->gimports + STRAIT__WASM_METER_IMPORTS + m->gdefined;
  m->scratch_base = m->fuel_global + 1;
}

/* Adds the sections the meter needs before a known section of rank next
 * (and at the end: next 100). */
static bool fill_in(mt *m, obuf *o, int next, int *done, cur *here) {
  if (next > RANK_TYPE && *done < RANK_TYPE) {
    TRY(section(m, o, 1, empty_types, here));
    *done = RANK_TYPE;
  }
  if (next > RANK_IMPORT && *done < RANK_IMPORT) {
    TRY(section(m, o, 2, empty_imports, here));
    *done = RANK_IMPORT;
  }
  if (next > RANK_GLOBAL && *done < RANK_GLOBAL) {
    TRY(section(m, o, 6, empty_globals, here));
    m->gsec_hole = m->last_hole;
    m->gsec_end = o->len;
    set_globals(m);
    *done = RANK_GLOBAL;
  }
  return true;
}

/* The scratch globals the checkpoints save locals to: scratch_slots of
 * each kind, interleaved (slot j of kind t is scratch_base + j * NKINDS +
 * t), zero-initialized and mutable, inserted at the end of the global
 * section now that their number is known. A v128 slot is an i32 when no
 * v128 local was saved (a module need not use SIMD). */
static bool add_scratch(mt *m, obuf *o) {
  if (!m->scratch_slots) return true;
  static const uint8_t i32g[] = {0x7F, 0x01, 0x41, 0x00, 0x0B}, i64g[] = {0x7E, 0x01, 0x42, 0x00, 0x0B};
  static const uint8_t f32g[] = {0x7D, 0x01, 0x43, 0, 0, 0, 0, 0x0B};
  static const uint8_t f64g[] = {0x7C, 0x01, 0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0x0B};
  static const uint8_t v128g[] = {0x7B, 0x01, 0xFD, 0x0C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0B};
  obuf p = {NULL, 0, 0};
  bool ok = true;
  for (uint32_t j = 0; ok && j < m->scratch_slots; j++) {
    ok = ob_put(m, &p, i32g, sizeof i32g) && ob_put(m, &p, i64g, sizeof i64g) &&
         ob_put(m, &p, f32g, sizeof f32g) && ob_put(m, &p, f64g, sizeof f64g) &&
         (m->scratch_v128 ? ob_put(m, &p, v128g, sizeof v128g) : ob_put(m, &p, i32g, sizeof i32g));
  }
  ok = ok && ob_room(m, o, p.len);
  if (ok) {
    memmove(o->d + m->gsec_end + p.len, o->d + m->gsec_end, o->len - m->gsec_end);
    memcpy(o->d + m->gsec_end, p.d, p.len);
    o->len += p.len;
    ob_patch5(o, m->gsec_count_hole, m->gsec_count + m->scratch_slots * NKINDS);
    ob_patch5(o, m->gsec_hole, (uint32_t)(m->gsec_end + p.len - (m->gsec_hole + 5)));
  }
  free(p.d);
  return ok;
}

/* Whether n bytes at p are UTF-8 as the engine reads names (no overlong
 * forms, no surrogates, nothing past U+10FFFF). */
static bool utf8(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n;) {
    uint8_t b = p[i];
    size_t len = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || len > n - i) return false;
    uint32_t cp = len == 1 ? b : (uint32_t)(b & (0x7F >> len));
    for (size_t k = 1; k < len; k++) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

static bool custom(mt *m, cur *c, obuf *o, const uint8_t *sec, size_t sec_len) {
  const uint8_t *np = c->p;
  uint32_t nl;
  TRY(rd_count(m, c, &nl, 1));
  const uint8_t *name = c->p;
  c->p += nl;
  static const char drop[] = "metadata.code.";
  if (nl >= sizeof drop - 1 && memcmp(name, drop, sizeof drop - 1) == 0) {
    strait__wasm_metered *out = m->out;
    /* the engine refuses a module with such a name: so must its metered copy */
    if (!utf8(name, nl)) return bad(m, name, "a custom section's name is not UTF-8");
    strait__wasm_custom *d = realloc(out->dropped, (out->ndropped + 1) * sizeof *d);
    if (!d) {
      m->oom = true;
      return bad(m, np, "out of memory");
    }
    out->dropped = d;
    d[out->ndropped++] = (strait__wasm_custom){(size_t)(name - m->in), nl, (size_t)(c->p - m->in),
                                                (size_t)(c->end - c->p)};
    return true;
  }
  return ob_put(m, o, sec, sec_len);
}

static bool meter_module(mt *m, obuf *o) {
  static const uint8_t header[8] = {0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00};
  if (m->in_len > MAX_MODULE) return bad(m, m->in, "the module is larger than the engine's limit of 1 GiB");
  if (m->in_len < 8 || memcmp(m->in, header, 8) != 0)
    return bad(m, m->in, "not a WebAssembly module (version 1)");
  TRY(ob_put(m, o, header, 8));
  cur c = {m->in + 8, m->in + m->in_len};
  int done = 0;   /* rank of the last known section written */
  while (c.p < c.end) {
    const uint8_t *sec = c.p;
    uint8_t id;
    uint32_t size;
    TRY(rd_byte(m, &c, &id));
    TRY(rd_u32(m, &c, &size));
    if (size > (uint64_t)(c.end - c.p)) return bad(m, sec, "section %u is longer than the module", id);
    cur s = {c.p, c.p + size};
    m->where = sec;
    c.p += size;
    if (id == 0) {
      TRY(custom(m, &s, o, sec, (size_t)(c.p - sec)));
      continue;
    }
    int rank = section_rank(id);
    if (!rank) return bad(m, sec, "unknown section id %u", id);
    if (rank <= done) return bad(m, sec, "section %u is out of order or repeated", id);
    TRY(fill_in(m, o, rank, &done, &s));
    bool ok;
    switch (id) {
    case 1: ok = section(m, o, 1, sec_type, &s); break;
    case 2: ok = section(m, o, 2, with_imports, &s); break;
    case 3: ok = section(m, o, 3, with_slow_function, &s); break;
    case 4: ok = section(m, o, 4, sec_table, &s); break;
    case 5: ok = section(m, o, 5, copy_memory, &s); break;
    case 13: ok = section(m, o, 13, copy_tag, &s); break;
    case 6: ok = section(m, o, 6, sec_global, &s); break;
    case 7: ok = section(m, o, 7, sec_export, &s); break;
    case 8: ok = section(m, o, 8, copy_start, &s); break;
    case 9: ok = section(m, o, 9, sec_element, &s); break;
    case 12: ok = section(m, o, 12, copy_datacount, &s); break;
    case 10: ok = section(m, o, 10, sec_code, &s); break;
    case 11: ok = section(m, o, 11, sec_data, &s); break;
    default: ok = bad(m, sec, "unknown section id %u", id);
    }
    TRY(ok);
    done = rank;
    if (id == 6) {
      m->gsec_hole = m->last_hole;
      m->gsec_end = o->len;
      set_globals(m);
    }
  }
  cur here = {c.end, c.end};
  m->where = c.end;
  TRY(fill_in(m, o, 100, &done, &here));
  return add_scratch(m, o);
}

int strait__wasm_meter(const uint8_t *in, size_t len, const strait__wasm_meter_opts *opts,
                       strait__wasm_metered *out) {
  memset(out, 0, sizeof *out);
  mt m;
  memset(&m, 0, sizeof m);
  m.in = in;
  m.in_len = len;
  m.out = out;
  m.where = in;
  m.budget = opts && opts->budget > 0 ? opts->budget : STRAIT__WASM_METER_BUDGET;
  if (m.budget > MAX_BUDGET) m.budget = MAX_BUDGET;
  obuf o = {NULL, 0, 0};
  bool ok = in != NULL && meter_module(&m, &o);
  if (!in) bad(&m, NULL, "no bytes");
  free(m.recs);
  free(m.blks);
  free(m.stack);
  free(m.hmax);
  free(m.tgts);
  free(m.tps);
  free(m.pkinds);
  free(m.ftypes);
  free(m.runs);
  free(m.lprev);
  free(m.lnext);
  free(m.lpos);
  free(m.lgen);
  free(m.lkind);
  free(m.saves);
  if (!ok) {
    free(o.d);
    free(out->dropped);
    out->dropped = NULL;
    out->ndropped = 0;
    return m.oom ? STRAIT_ENOMEM : STRAIT_EINVAL;
  }
  out->bytes = o.d;
  out->len = o.len;
  return 0;
}

void strait__wasm_metered_free(strait__wasm_metered *out) {
  if (!out) return;
  free(out->bytes);
  free(out->dropped);
  out->bytes = NULL;
  out->dropped = NULL;
  out->len = out->ndropped = 0;
}

/*
 * wasm_meter.h - metering of WebAssembly modules (wasm_meter.c): a pure
 * transform of a module's bytes into bytes that call the host at least
 * every ~1M executed instruction bytes, so that a time limit, an interrupt
 * or close() can stop wasm code (JSC's watchdog never reaches into it). No
 * JSC, no runtime: any thread, reentrant.
 *
 * What the metered module has more than the input:
 * - three imported globals of type funcref, appended after the input's
 *   imports, from module STRAIT__WASM_METER_MODULE: "check" (a function
 *   () -> ()), "grow" and "tgrow" (functions (i32) -> i32). Every defined
 *   global of the input moves up by three (global.get/set, constant
 *   expressions, exports); function, table, memory and type indices do not
 *   move, so stack frames, export names and the name section stay the
 *   input's;
 * - two function types after every input type, the fuel (a mutable i32
 *   global) and scratch globals after the defined globals, one function
 *   after the input's (the shared cold path of the smallest checkpoint),
 *   and in each function with loops one i32 local after its locals;
 * - checkpoints at every function entry and loop header, and where
 *   straight-line code could otherwise run long unmetered (after a call
 *   followed by more than 1 KiB of code, every 8 KiB of code with no branch
 *   back): each charges a weight bounding the instruction bytes that can
 *   run until the next checkpoint; below zero the fuel is reset to the
 *   budget and "check" is called (wasm_meter.c says how the cold path keeps
 *   the hot one cheap);
 * - before every memory.grow (table.grow) a call of "grow" ("tgrow") with
 *   the delta, whose result is the delta used.
 * Custom sections named "metadata.code.*" (branch hints: code offsets that
 * no longer hold) are left out and reported; every other custom section,
 * "name" included, is copied unchanged. Every index the input gives into a
 * space the meter adds to is checked to be in range, so an invalid input
 * can never name what the meter added.
 */
#ifndef STRAIT_WASM_METER_H
#define STRAIT_WASM_METER_H

#include <stddef.h>
#include <stdint.h>

/* The module name of the imports the meter adds (NUL-terminated). */
#define STRAIT__WASM_METER_MODULE "strait:meter"
/* How many imports the meter appends (check, grow, tgrow). */
#define STRAIT__WASM_METER_IMPORTS 3
/* The default fuel between two calls of "check": weights of executed
 * checkpoints, each at least the bytes it covers. */
#define STRAIT__WASM_METER_BUDGET (1 << 20)

/* Options of strait__wasm_meter(); all zero is the default. */
typedef struct strait__wasm_meter_opts {
  int32_t budget;            /* fuel between two checks (> 0); 0: the default */
} strait__wasm_meter_opts;

/* A custom section of the input, by offsets into the input. */
typedef struct strait__wasm_custom {
  size_t name_off, name_len; /* its name (UTF-8, not NUL-terminated) */
  size_t off, len;           /* its payload after the name */
} strait__wasm_custom;

/* The result of strait__wasm_meter(). Owned by the caller, released with
 * strait__wasm_metered_free(). */
typedef struct strait__wasm_metered {
  uint8_t *bytes;            /* the metered module (malloc'd) */
  size_t len;
  uint32_t imports;          /* imports the input declared */
  uint64_t memory_pages;     /* initial pages of the memories it defines (saturated) */
  uint64_t table_elems;      /* initial elements of the tables it defines (saturated) */
  strait__wasm_custom *dropped; /* custom sections left out of bytes (malloc'd) */
  size_t ndropped;
  /* what was inserted */
  uint32_t functions, loops, checkpoints, grows;
  /* on failure: why, and where in the input */
  size_t err_off;
  char err[192];
} strait__wasm_metered;

/*
 * Meters the len bytes of a module at in. Returns 0 with *out filled, or
 * STRAIT_EINVAL with out->err and out->err_off saying why (malformed or
 * truncated input, an instruction or section it cannot decode, an index out
 * of range, a result past the engine's limits), or STRAIT_ENOMEM. The
 * input is only read, never kept; it must not change during the call.
 * Every read is bounds-checked and every walk iterative, so any input is
 * safe; time and memory are linear in len. Any thread.
 */
int strait__wasm_meter(const uint8_t *in, size_t len, const strait__wasm_meter_opts *opts,
                       strait__wasm_metered *out);

/* Frees what strait__wasm_meter() put in *out (not out itself). */
void strait__wasm_metered_free(strait__wasm_metered *out);

#endif /* STRAIT_WASM_METER_H */

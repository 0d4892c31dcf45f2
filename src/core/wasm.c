/*
 * wasm.c - the natives of js/wasm.js: metering a module (wasm_meter.c)
 * before the engine compiles it, and the host side of the imports that a
 * metered module calls.
 *
 * JSC's watchdog never reaches into wasm code, in any tier: a metered
 * module calls "check" at least every ~1M executed instruction bytes, and
 * check stops the stay (strait_check_stop) when it must stop, which makes
 * the engine's termination pending so that the return unwinds every JS and
 * wasm frame (a wasm catch_all does not catch it). js/wasm.js calls these
 * natives from JS functions, so the watchdog's tick (the embedder's poll,
 * the heap measurement) is also served at each check.
 */
#include "wasm.h"
#include "env.h"
#include "wasm_meter.h"
#include "watchdog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a grown table element is counted as (JSC keeps a funcref entry in
 * two to four words). */
#define TABLE_ELEM_BYTES 16.0
/* memory.grow and table.grow fail by themselves past these (32-bit memory
 * pages, the JS API's table size), allocating nothing. */
#define MAX_PAGES 65536u
#define MAX_TABLE 10000000u

static void free_bytes(void *bytes, void *ud) {
  (void)ud;
  free(bytes);
}

/* A new ArrayBuffer that owns a malloc'd copy of n bytes at p (n may be
 * 0), or NULL with *exception set. Inside the gate. */
static JSObjectRef buffer_copy(JSContextRef ctx, const uint8_t *p, size_t n, JSValueRef *exception) {
  uint8_t *d = malloc(n ? n : 1);
  if (!d) {
    *exception = strait_make_error(ctx, "RangeError", "out of memory");
    return NULL;
  }
  if (n) memcpy(d, p, n);
  JSObjectRef b = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, d, n, free_bytes, NULL, exception);
  if (!b) free(d);
  return b;
}

/*
 * native.wasmMeter(bytes): bytes is a Uint8Array the caller made (a copy
 * of the script's source: the C API pins any buffer whose bytes it hands
 * out, and a pinned buffer can no longer be detached, so C never reads a
 * script's buffer). Returns [metered ArrayBuffer, imports the input
 * declared, bytes to admit at instantiation (its memories and tables),
 * dropped custom sections as [[name, ArrayBuffer], ...]], or a string
 * saying why the module cannot be metered. Inside the gate.
 */
static JSValueRef js_meter(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
  if (argc < 1 || JSValueGetTypedArrayType(ctx, argv[0], NULL) != kJSTypedArrayTypeUint8Array) {
    *exception = strait_make_error(ctx, "TypeError", "wasmMeter: a Uint8Array expected");
    return NULL;
  }
  JSObjectRef a = (JSObjectRef)argv[0];
  const uint8_t *base = JSObjectGetTypedArrayBytesPtr(ctx, a, exception);
  if (!base) return NULL;
  const uint8_t *in = base + JSObjectGetTypedArrayByteOffset(ctx, a, NULL);
  size_t len = JSObjectGetTypedArrayByteLength(ctx, a, NULL);
  strait__wasm_metered r;
  int rc = strait__wasm_meter(in, len, NULL, &r);
  if (rc == STRAIT_ENOMEM) {
    *exception = strait_make_error(ctx, "RangeError", "out of memory metering a WebAssembly module");
    return NULL;
  }
  if (rc) {
    char msg[256];
    snprintf(msg, sizeof msg, "at byte %zu: %s", r.err_off, r.err);
    return strait__string_value(ctx, msg);
  }
  JSValueRef v[4] = {NULL, NULL, NULL, NULL};
  JSObjectRef mod = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, r.bytes, r.len, free_bytes, NULL, exception);
  if (!mod) {
    strait__wasm_metered_free(&r);
    return NULL;
  }
  r.bytes = NULL;   /* the buffer owns them */
  v[0] = mod;
  v[1] = JSValueMakeNumber(ctx, r.imports);
  double admit = (double)r.memory_pages * 65536.0 + (double)r.table_elems * TABLE_ELEM_BYTES;
  v[2] = JSValueMakeNumber(ctx, admit);
  JSObjectRef dropped = JSObjectMakeArray(ctx, 0, NULL, exception);
  if (!dropped) {
    strait__wasm_metered_free(&r);
    return NULL;
  }
  v[3] = dropped;
  for (size_t i = 0; i < r.ndropped; i++) {
    const strait__wasm_custom *d = &r.dropped[i];
    JSStringRef ns = strait_jsstring_from_utf8((const char *)in + d->name_off, d->name_len);
    JSObjectRef payload = ns ? buffer_copy(ctx, in + d->off, d->len, exception) : NULL;
    if (!payload) {
      if (ns) JSStringRelease(ns);
      strait__wasm_metered_free(&r);
      if (!*exception) *exception = strait_make_error(ctx, "RangeError", "out of memory");
      return NULL;
    }
    JSValueRef pair[2] = {JSValueMakeString(ctx, ns), payload};
    JSStringRelease(ns);
    JSObjectRef p = JSObjectMakeArray(ctx, 2, pair, exception);
    if (!p) {
      strait__wasm_metered_free(&r);
      return NULL;
    }
    JSObjectSetPropertyAtIndex(ctx, dropped, (unsigned)i, p, exception);
    if (*exception) {
      strait__wasm_metered_free(&r);
      return NULL;
    }
  }
  strait__wasm_metered_free(&r);
  return JSObjectMakeArray(ctx, 4, v, exception);
}

/* native.wasmCheck(): the metered module's "check". Stops the stay when it
 * must stop (an interrupt, its time limit, a refused heap): returns NULL
 * with the engine's termination pending, which unwinds every frame. JS
 * thread, inside the gate. */
static JSValueRef js_check(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
  if (strait_check_stop(strait__runtime_of(ctx))) return NULL;
  return JSValueMakeUndefined(ctx);
}

/* Asks the heap limit whether bytes more may be allocated: argv[0] back
 * when they may, NULL with the termination pending when not. JS thread,
 * inside the gate. */
static JSValueRef admit(JSContextRef ctx, double bytes, JSValueRef back) {
  if (bytes > 0 && strait__heap_admit(strait__runtime_of(ctx), bytes)) return NULL;
  return back;
}

/* The i32 argument of a grow as the engine reads it (unsigned). */
static uint32_t grow_arg(JSContextRef ctx, size_t argc, const JSValueRef argv[]) {
  double d = argc > 0 ? JSValueToNumber(ctx, argv[0], NULL) : 0;
  if (!isfinite(d)) return 0;
  return (uint32_t)(int64_t)d;
}

/* native.wasmGrow(pages): the metered module's "grow", called before a
 * memory.grow with its delta, which it returns (the grow then goes ahead,
 * or fails by itself) unless the heap limit refuses the bytes. JS thread,
 * inside the gate. */
static JSValueRef js_grow(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                          const JSValueRef argv[], JSValueRef *exception) {
  uint32_t pages = grow_arg(ctx, argc, argv);
  JSValueRef back = argc > 0 ? argv[0] : JSValueMakeNumber(ctx, 0);
  return admit(ctx, pages <= MAX_PAGES ? (double)pages * 65536.0 : 0, back);
}

/* native.wasmTableGrow(n): the same before a table.grow. */
static JSValueRef js_table_grow(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                                const JSValueRef argv[], JSValueRef *exception) {
  uint32_t n = grow_arg(ctx, argc, argv);
  JSValueRef back = argc > 0 ? argv[0] : JSValueMakeNumber(ctx, 0);
  return admit(ctx, n <= MAX_TABLE ? (double)n * TABLE_ELEM_BYTES : 0, back);
}

/* native.wasmAdmit(bytes): before an instantiation, the memories and tables
 * the module defines; undefined, or NULL with the termination pending. */
static JSValueRef js_admit(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc,
                           const JSValueRef argv[], JSValueRef *exception) {
  double bytes = argc > 0 ? JSValueToNumber(ctx, argv[0], NULL) : 0;
  return admit(ctx, isfinite(bytes) ? bytes : 0, JSValueMakeUndefined(ctx));
}

void strait__wasm_natives(JSContextRef ctx, JSObjectRef native) {
  strait_set_function(ctx, native, "wasmMeter", js_meter);
  strait_set_function(ctx, native, "wasmCheck", js_check);
  strait_set_function(ctx, native, "wasmGrow", js_grow);
  strait_set_function(ctx, native, "wasmTableGrow", js_table_grow);
  strait_set_function(ctx, native, "wasmAdmit", js_admit);
}

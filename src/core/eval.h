/*
 * eval.h - what evaluation owns besides strait_eval (eval.c): the clock
 * and the drain of promise jobs that runs after every callback.
 */
#ifndef STRAIT_EVAL_H
#define STRAIT_EVAL_H

#include "strait.h"

/* Milliseconds on the monotonic clock. Any thread. */
double strait__now_ms(void);
/* 0 when a source of len characters may be compiled in rt (its
 * max_source), else STRAIT_EJS with *exception a RangeError that names the
 * limit (exception may be NULL). Inside the gate. */
int strait__source_allowed(strait_runtime *rt, size_t len, JSValueRef *exception);
/* The last frame of a JS stack trace made in an entry or a checkpoint of
 * the runtime (the frame of the host function they run in, eval.c): the
 * runtime's, not the script's, so what formats a stack leaves it out
 * (error.c, and js/inspect.js, which gets it as native.entryFrame). */
#define STRAIT__ENTRY_FRAME_NAME "[strait]"
#define STRAIT__ENTRY_FRAME STRAIT__ENTRY_FRAME_NAME "@[native code]"

/* Makes rt's drainer, the host function checkpoints call. Inside the gate,
 * once, from strait_runtime_new() before any script. */
void strait__checkpoint_init(strait_runtime *rt);
/* A microtask checkpoint of the running stay: runs the promise jobs queued
 * so far (and reports unhandled rejections) under the stay's stops and
 * limits, as Node runs microtasks after each callback; a stay being
 * terminated, or a runtime that closes, drops them instead. Returns the
 * stay's termination reason after it (0: it goes on). Only at the
 * outermost level of a stay (the gate's depth 1 with no suspension of this
 * thread below); elsewhere it does nothing and returns the reason. Nor
 * when the queue was drained since the JS strait last ran (the trampoline
 * of strait_call and strait_eval holds one inside its entry;
 * rt->checkpoint_clean, cleared when a stay, a loop task or a timer begins
 * and when strait__call_method runs JS). Inside the gate. */
int strait__checkpoint(strait_runtime *rt);

#endif /* STRAIT_EVAL_H */

/*
 * eval.h - what evaluation owns besides strait_eval (eval.c): the clock
 * and the drain of promise jobs that runs after every callback.
 */
#ifndef STRAIT_EVAL_H
#define STRAIT_EVAL_H

#include "strait.h"

/* Milliseconds on the monotonic clock. Any thread. */
double strait__now_ms(void);
/* Runs the promise jobs queued so far (and reports unhandled rejections),
 * as Node runs microtasks after each callback. Inside the gate; does
 * nothing when entered more than once. */
void strait__drain_microtasks(strait_runtime *rt);

#endif /* STRAIT_EVAL_H */

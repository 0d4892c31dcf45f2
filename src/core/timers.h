/*
 * timers.h - setTimeout & co. and unhandled rejections (timers.c), over the
 * loop's timer heap (loop.h). loop.c runs them; runtime.c installs them.
 */
#ifndef STRAIT_TIMERS_H
#define STRAIT_TIMERS_H

#include "strait.h"

/* Installs setTimeout, setInterval, clearTimeout, clearInterval and the
 * unhandled-rejection hook on the global object. Inside the gate. */
int strait__timers_install(strait_runtime *rt, JSValueRef *exception);
/* Runs the timers that are due, in order; returns the due time of the next
 * one (strait__now_ms clock) or -1. Stops at process.exit() or at the first
 * uncaught error (rt->pending_error). Inside the gate. */
double strait__timers_run_due(strait_runtime *rt);
/* Frees every timer without running it. Inside the gate. */
void strait__timers_clear(strait_runtime *rt);
/* Records the first uncaught error of a loop callback (a timer, a message
 * handler), which ends strait_loop_run with STRAIT_EJS after the callback;
 * exc NULL records undefined. Ignored once process.exit() ran. Inside the
 * gate. */
void strait__set_uncaught(strait_runtime *rt, JSValueRef exc);

#endif /* STRAIT_TIMERS_H */

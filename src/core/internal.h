/*
 * internal.h - every private header of the core at once. The core's own
 * files include only the headers of the concepts they use:
 *   gate.h      admission gate (gate.c)
 *   loop.h      task queue and timer heap (loop.c)
 *   timers.h    setTimeout & co. (timers.c)
 *   eval.h      clock and microtask drain (eval.c)
 *   runtime.h   the runtime object (runtime.c)
 *   value.h     strings, properties, errors (value.c)
 *   env.h       the JS environment: console, process, require, errors
 *   js_sources.h  the embedded JS sources
 *   codec.h     the value format
 * The layers above use strait.h only; this header stays for the JNI layer
 * until it does. Nothing here is exported from libstrait.so.
 */
#ifndef STRAIT_INTERNAL_H
#define STRAIT_INTERNAL_H

#include "strait.h"
#include "common/jsc_private.h"
#include "gate.h"
#include "loop.h"
#include "timers.h"
#include "eval.h"
#include "runtime.h"
#include "value.h"
#include "env.h"
#include "js_sources.h"
#include "clone.h"

#endif /* STRAIT_INTERNAL_H */

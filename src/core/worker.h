/*
 * worker.h - workers and message ports (worker.c): runtimes on threads of
 * their own that exchange structured clones (clone.h) through entangled
 * port pairs, and the natives of src/core/js/worker.js. Private to the
 * core; the layers above use strait_set_worker_hooks (strait.h).
 */
#ifndef STRAIT_WORKER_H
#define STRAIT_WORKER_H

#include "strait.h"

/* Adds the natives of worker.js to the bootstrap's native object. Inside
 * the gate. */
void strait__worker_natives(JSContextRef ctx, JSObjectRef native);

/* Terminates rt's workers and waits for their threads, closes its ports
 * and frees its worker state. From strait_runtime_free, inside the gate,
 * with rt closing (no post reaches it any more). */
void strait__workers_free(strait_runtime *rt);

#endif /* STRAIT_WORKER_H */

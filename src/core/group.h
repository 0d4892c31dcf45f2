/*
 * group.h - the loops of runtimes that message each other (a main runtime
 * and its workers, worker.c) end together (group.c).
 *
 * A loop is kept alive strongly by its own work (tasks, refed timers,
 * embedder handles) and weakly by message listeners (loop.weak: a port with
 * a listener, a Worker not yet exited). A loop with only weak refs waits
 * while another member of its group is active (running, or kept strongly),
 * because that member may still send it a message. When every member waits
 * or has returned, nothing can send a message any more (quiescence): every
 * waiting loop returns, as the launcher's exit rule says (a worker waiting
 * only for messages has no work). A message between members is queued,
 * then activates its receiver, so a message in flight keeps the group
 * from quiescence.
 *
 * Threads: every function is any-thread (the group's mutex); a member's
 * state is touched under it only.
 */
#ifndef STRAIT_GROUP_H
#define STRAIT_GROUP_H

#include "strait.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct strait__loop;
typedef struct strait__group strait__group;

/* One member of a group: a runtime, or a worker whose runtime is still
 * being made. Lives in its owner (runtime.h, worker.c); joined and left
 * once. */
typedef struct strait__member {
  strait__group *group;          /* NULL: not in a group */
  struct strait__member *next, *prev;
  struct strait__loop *loop;     /* woken at quiescence; NULL until the
                                    member's runtime exists */
  bool idle;                     /* waiting with only weak refs, or returned */
} strait__member;

/* A new group with no member (one reference, the caller's). NULL when out
 * of memory. */
strait__group *strait__group_new(void);
/* Joins m to g, active (it runs, or is about to): takes a reference on g. */
void strait__group_join(strait__group *g, strait__member *m);
/* Leaves (idle or not) and drops m's reference; may end the group's
 * activity (quiescence). No-op when m is in no group. */
void strait__group_leave(strait__member *m);
/* Drops a reference taken by strait__group_new. */
void strait__group_release(strait__group *g);
/* Sets the loop woken at quiescence. */
void strait__group_set_loop(strait__member *m, struct strait__loop *loop);

/* m's loop is about to wait with only weak refs, or returns: m counts as
 * idle, unless a task is queued on its loop (a message whose sender has
 * not activated it yet). Returns the group's epoch to pass to
 * strait__group_resume. When m was the last active member, quiescence:
 * the epoch moves on and every member's loop is woken. */
uint64_t strait__group_idle(strait__member *m);
/* m's loop woke up with work: active again, and 1, unless quiescence came
 * since strait__group_idle answered epoch (0: the loop should return; m
 * stays idle). */
int strait__group_resume(strait__member *m, uint64_t epoch);
/* Non-zero while the group's epoch is still epoch (no quiescence since).
 * Lock-free. */
int strait__group_epoch_is(strait__member *m, uint64_t epoch);
/* m is active: its loop runs (again), or a message for m was queued
 * (strait_post) by another member. Queue first, then activate: with
 * strait__group_idle checking the queue under the same mutex, no
 * quiescence passes a message by. */
void strait__group_active(strait__member *m);

#endif /* STRAIT_GROUP_H */

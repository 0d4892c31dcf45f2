/*
 * group.c - quiescence of a group of loops (see group.h): a count of
 * active members under one mutex, and an epoch that moves on when it drops
 * to zero.
 */
#include "group.h"
#include "loop.h"

#include <pthread.h>
#include <stdlib.h>

struct strait__group {
  pthread_mutex_t mu;
  _Atomic int refs;
  strait__member *head;
  int nactive;
  _Atomic uint64_t epoch;  /* written under mu */
};

strait__group *strait__group_new(void) {
  strait__group *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  pthread_mutex_init(&g->mu, NULL);
  atomic_init(&g->refs, 1);
  atomic_init(&g->epoch, 1);
  return g;
}

void strait__group_release(strait__group *g) {
  if (!g || atomic_fetch_sub(&g->refs, 1) != 1) return;
  pthread_mutex_destroy(&g->mu);
  free(g);
}

/* The last active member went idle: wake every member's loop. g->mu held. */
static void quiesce_locked(strait__group *g) {
  atomic_fetch_add(&g->epoch, 1);
  for (strait__member *m = g->head; m; m = m->next)
    if (m->loop) strait__loop_wake(m->loop);
}

static void set_idle_locked(strait__group *g, strait__member *m) {
  if (m->idle) return;
  m->idle = true;
  if (--g->nactive == 0) quiesce_locked(g);
}

static void set_active_locked(strait__group *g, strait__member *m) {
  if (!m->idle) return;
  m->idle = false;
  g->nactive++;
}

void strait__group_join(strait__group *g, strait__member *m) {
  atomic_fetch_add(&g->refs, 1);
  pthread_mutex_lock(&g->mu);
  m->group = g;
  m->idle = false;
  m->prev = NULL;
  m->next = g->head;
  if (g->head) g->head->prev = m;
  g->head = m;
  g->nactive++;
  pthread_mutex_unlock(&g->mu);
}

void strait__group_leave(strait__member *m) {
  strait__group *g = m->group;
  if (!g) return;
  pthread_mutex_lock(&g->mu);
  set_idle_locked(g, m);
  if (m->prev) m->prev->next = m->next; else g->head = m->next;
  if (m->next) m->next->prev = m->prev;
  m->next = m->prev = NULL;
  m->loop = NULL;
  m->group = NULL;
  pthread_mutex_unlock(&g->mu);
  strait__group_release(g);
}

void strait__group_set_loop(strait__member *m, strait__loop *loop) {
  strait__group *g = m->group;
  if (!g) return;
  pthread_mutex_lock(&g->mu);
  m->loop = loop;
  pthread_mutex_unlock(&g->mu);
}

uint64_t strait__group_idle(strait__member *m) {
  strait__group *g = m->group;
  if (!g) return 0;
  pthread_mutex_lock(&g->mu);
  /* The epoch before m goes idle: when m is the last active member, its
   * own quiescence moves the epoch on here, and the caller must see that
   * (it would wait for a quiescence that already came). */
  uint64_t e = g->epoch;
  /* A task queued for it (a message posted before the sender activated
   * it, group.h) keeps it active: checked under the mutex the sender's
   * activation takes after queuing. */
  if (!(m->loop && atomic_load(&m->loop->ntasks) > 0)) set_idle_locked(g, m);
  pthread_mutex_unlock(&g->mu);
  return e;
}

int strait__group_resume(strait__member *m, uint64_t epoch) {
  strait__group *g = m->group;
  if (!g) return 1;
  pthread_mutex_lock(&g->mu);
  int go_on = g->epoch == epoch;
  if (go_on) set_active_locked(g, m);
  pthread_mutex_unlock(&g->mu);
  return go_on;
}

int strait__group_epoch_is(strait__member *m, uint64_t epoch) {
  strait__group *g = m->group;
  return !g || atomic_load(&g->epoch) == epoch;
}

void strait__group_active(strait__member *m) {
  strait__group *g = m->group;
  if (!g) return;
  pthread_mutex_lock(&g->mu);
  set_active_locked(g, m);
  pthread_mutex_unlock(&g->mu);
}


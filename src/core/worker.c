/*
 * worker.c - workers and message ports.
 *
 * A channel is a pair of entangled port ends under one mutex. An end lives
 * in one runtime at a time (its owner, which knows it by a numeric id in its
 * port table), or is in transit inside a structured clone (a transferred
 * MessagePort), or closed. A message is a structured clone (clone.h)
 * captured on the sender's thread when it posts; it then takes one of two
 * paths to the receiving end's runtime:
 *  - direct: when the receiver's gate can be taken without waiting (it is
 *    idle), the sender makes the value in the receiver's heap itself and
 *    queues the finished value, so the receiver's loop only dispatches it;
 *  - snapshot: otherwise (the receiver is busy) the clone is queued and the
 *    receiver makes the value when its loop gets to it.
 * Either way the message is a task on the receiver's loop (strait_post), so
 * messages keep their order, and posting never waits for a busy receiver.
 *
 * A worker is a runtime made on a thread of its own with its parent's
 * options; a channel joins its parent's Worker object (end 0) and its own
 * global scope (end 1). The parent and all its workers form a group
 * (group.h), so that their loops end together when none has work left.
 *
 * Locks: a channel's mutex is taken inside a runtime's gate, and while it
 * is held a gate is only ever tried (strait__try_enter), never waited for;
 * a worker's mutex guards its runtime pointer and termination flag.
 */
#include "worker.h"
#include "clone.h"
#include "env.h"
#include "eval.h"
#include "group.h"
#include "loop.h"
#include "runtime.h"
#include "timers.h"
#include "value.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PATH_MAX_MSG 4200

/* What a message is (the `kind` worker.js dispatches on). */
enum { MSG_DATA = 0, MSG_DATAERROR = 1, MSG_ERROR = 2, MSG_EXIT = 3, MSG_CLOSE = 4, MSG_ONLINE = 5 };

typedef struct msg {
  struct msg *next;
  int kind;
  strait__clone *clone;       /* the captured value (snapshot), or NULL */
  uint8_t *vf;                /* or the value in the value format (from the
                                 embedder's end: strait_port_post), malloc'd */
  size_t vflen;
  JSValueRef value;           /* the finished value, protected in the runtime the
                                 message is queued to (direct path), or NULL */
  /* MSG_ERROR: the uncaught error's description (malloc'd UTF-8) */
  char *message, *filename, *stack;
  int lineno, colno;
  int code;                   /* MSG_EXIT: the exit code */
} msg;

struct worker_rec;

typedef struct port_end {
  struct strait_runtime *owner;  /* NULL: in transit or closed */
  double id;                     /* its id in owner's table */
  uint64_t gen;                  /* bumped when it moves or closes */
  bool closed;
  bool started;                  /* delivers to its owner (else queues) */
  bool refed;                    /* counted in its owner's loop.weak */
  bool quiet;                    /* a worker's own end: no close event */
  bool posting;                  /* a thread is posting to it (post_locked) */
  bool host;                     /* held by the embedder (strait_port): messages
                                    wait in qh for strait_port_receive */
  msg *qh, *qt;                  /* waiting: not started, or in transit */
  struct worker_rec *worker;     /* end 0 of a worker's channel: its record */
  struct port_end *tnext;        /* chain in the owner's table */
} port_end;

typedef struct channel {
  pthread_mutex_t mu;
  pthread_cond_t cv;             /* a host end's receiver waits on it */
  _Atomic int refs;              /* one per end not yet released, one per task */
  port_end end[2];
} channel;

typedef struct worker_rec {
  _Atomic int refs;              /* the parent's list, the thread */
  pthread_mutex_t mu;
  strait_runtime *rt;            /* the worker's runtime while it exists (mu) */
  bool terminating;              /* terminate() was called (mu) */
  pthread_t thread;
  bool joined;                   /* parent thread only */
  channel *ch;                   /* end 0: parent's Worker, end 1: the worker */
  strait__member member;         /* its place in the parent's group */
  char *file;                    /* absolute path of its script, or NULL */
  char *source;                  /* or source text (eval: true) */
  char *name;
  strait__clone *data;           /* workerData, made in the worker */
  strait_options opts;           /* the parent's, with the copies below */
  char **argv;
  int argc;
  char *fs_root;
  strait_worker_hooks hooks;
  double thread_id;
  int exit_code;                 /* process.exit() in the worker */
  /* what wakes the worker's thread from a host call when it is told to
   * stop (strait_worker_on_stop; mu), released on its thread at its end */
  void (*stop_fn)(void *data);
  void (*stop_release)(void *data);
  void *stop_data;
  struct worker_rec *next;       /* in the parent's list (parent's gate) */
} worker_rec;

/* A runtime's worker state. */
typedef struct strait__workers {
  struct tentry **buckets;       /* port table by id: chained, power of two */
  size_t nbuckets, nports;
  double next_id;
  worker_rec *children;          /* workers it started, not yet joined */
  worker_rec *self;              /* the worker this runtime is, or NULL */
  strait_worker_hooks hooks;
  strait__clone_hooks clone_hooks;
  JSObjectRef deliver;           /* internal.portDeliver, protected; NULL until used */
  /* message statistics (messageStats()): deliveries to this runtime */
  double n_direct, n_snapshot, ns_sender, ns_receiver;
} strait__workers;

static _Atomic uint64_t next_thread_id = 1;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- messages and channels ------------------------------------------------ */

/* Frees a message that holds no finished value (or whose runtime is gone:
 * a protected value dies with its heap). Any thread. */
static void msg_free(msg *m) {
  if (!m) return;
  strait__clone_free(m->clone);
  free(m->vf);
  free(m->message);
  free(m->filename);
  free(m->stack);
  free(m);
}

static char *dup_or_null(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static channel *channel_new(void) {
  channel *ch = calloc(1, sizeof *ch);
  if (!ch) return NULL;
  pthread_mutex_init(&ch->mu, NULL);
  pthread_cond_init(&ch->cv, NULL);
  atomic_init(&ch->refs, 2);
  return ch;
}

static void channel_release(channel *ch) {
  if (!ch || atomic_fetch_sub(&ch->refs, 1) != 1) return;
  for (int i = 0; i < 2; i++) {
    for (msg *m = ch->end[i].qh; m;) {
      msg *n = m->next;
      msg_free(m);
      m = n;
    }
  }
  pthread_mutex_destroy(&ch->mu);
  pthread_cond_destroy(&ch->cv);
  free(ch);
}

/* ---- a runtime's port table ------------------------------------------------ */

static strait__workers *state_of(strait_runtime *rt) {
  if (rt->workers) return rt->workers;
  strait__workers *ws = calloc(1, sizeof *ws);
  if (!ws) return NULL;
  ws->next_id = 1;
  rt->workers = ws;
  return ws;
}

/* The end and channel of port id in rt, or NULL. Inside rt's gate. */
typedef struct port_ref {
  port_end *pe;
  channel *ch;
  int side;
} port_ref;

/* The channel an end belongs to is found through a back pointer kept in
 * the table entry: the table stores (end, channel, side). */
typedef struct tentry {
  struct tentry *next;
  double id;
  channel *ch;
  int side;
} tentry;


static size_t id_hash(double id, size_t n) {
  uint64_t k = (uint64_t)id;
  k *= 0x9E3779B97F4A7C15ull;
  return (size_t)(k >> 32) & (n - 1);
}

static int table_grow(strait__workers *ws) {
  size_t n = ws->nbuckets ? ws->nbuckets * 2 : 16;
  tentry **b = calloc(n, sizeof *b);
  if (!b) return STRAIT_ENOMEM;
  for (size_t i = 0; i < ws->nbuckets; i++) {
    for (tentry *e = ws->buckets[i]; e;) {
      tentry *next = e->next;
      size_t h = id_hash(e->id, n);
      e->next = b[h];
      b[h] = e;
      e = next;
    }
  }
  free(ws->buckets);
  ws->buckets = b;
  ws->nbuckets = n;
  return 0;
}

/* Adds (ch, side) to rt's table under a new id; 0 when out of memory.
 * Inside rt's gate; ch->mu held by the caller (owner and id set there). */
static double table_add(strait__workers *ws, channel *ch, int side) {
  if (ws->nports + 1 > ws->nbuckets && table_grow(ws) != 0) return 0;
  tentry *e = malloc(sizeof *e);
  if (!e) return 0;
  e->id = ws->next_id++;
  e->ch = ch;
  e->side = side;
  size_t h = id_hash(e->id, ws->nbuckets);
  e->next = ws->buckets[h];
  ws->buckets[h] = e;
  ws->nports++;
  return e->id;
}

static int table_find(strait__workers *ws, double id, port_ref *out) {
  if (!ws || !ws->nbuckets || !(id >= 1)) return 0;
  for (tentry *e = ws->buckets[id_hash(id, ws->nbuckets)]; e; e = e->next) {
    if (e->id == id) {
      out->ch = e->ch;
      out->side = e->side;
      out->pe = &e->ch->end[e->side];
      return 1;
    }
  }
  return 0;
}

static void table_remove(strait__workers *ws, double id) {
  if (!ws || !ws->nbuckets) return;
  tentry **pp = &ws->buckets[id_hash(id, ws->nbuckets)];
  for (; *pp; pp = &(*pp)->next) {
    if ((*pp)->id == id) {
      tentry *e = *pp;
      *pp = e->next;
      free(e);
      ws->nports--;
      return;
    }
  }
}

/* ---- delivery ------------------------------------------------------------- */

typedef struct delivery {
  channel *ch;
  int side;
  uint64_t gen;
  msg *m;
} delivery;

static void deliver_task(strait_runtime *rt, void *data);

/* A delivery task dropped unrun (its runtime is being freed): inside that
 * runtime's gate, so a finished value can still be unprotected. */
static void delivery_drop_in(strait_runtime *rt, delivery *d) {
  if (d->m->value && rt) JSValueUnprotect(rt->ctx, d->m->value);
  msg_free(d->m);
  channel_release(d->ch);
  free(d);
}

/* strait_post's drop: the runtime is closing, inside its gate
 * (strait__loop_destroy). The runtime is found from the message's end. */
static void delivery_drop(void *data) {
  delivery *d = data;
  /* the protected value (if any) dies with its heap: the runtime is being
   * freed, and JSC frees protected values with the context group */
  msg_free(d->m);
  channel_release(d->ch);
  free(d);
}

/* Makes m's value in rt: from its clone or its value-format bytes. 0 and
 * *v, or non-zero with *exc (may be NULL). Inside rt's gate. */
static int make_value(strait_runtime *rt, msg *m, JSValueRef *v, JSValueRef *exc) {
  if (m->clone) return strait__clone_materialize(rt, m->clone, v, exc);
  strait_value_error err;
  int rc = strait_value_decode(rt, m->vf, m->vflen, NULL, v, &err, exc);
  if (rc != 0 && !*exc) *exc = strait_make_error(rt->ctx, "TypeError", "%s", err.msg);
  return rc;
}

/* Queues m for the owner of end `side` (which has a started owner), on the
 * direct path when the owner is idle. ch->mu held on entry and on return;
 * it is dropped while the value is made, so that making it (which may take
 * the mutex of a transferred port's channel) never nests channel locks.
 * That is safe because the owner's gate is held meanwhile: an end leaves
 * its owner only by code inside the owner's gate. from is the runtime the
 * calling thread is inside (NULL: none). Takes m. */
static void post_one_locked(channel *ch, int side, msg *m, strait_runtime *from) {
  port_end *pe = &ch->end[side];
  strait_runtime *to = pe->owner;
  strait__workers *tws = to->workers;
  bool entered = false;
  if ((m->clone || m->vf) && !m->value) {
    /* Idle: its loop sleeps with nothing queued (a receiver that is busy,
     * or awake between two tasks of a stream, makes its messages itself,
     * in parallel with the sender) and its gate is free. */
    if (to == from)
      entered = strait_enter(to) == 0;
    else if (atomic_load(&to->loop.sleeping) && atomic_load(&to->loop.ntasks) == 0)
      entered = strait__try_enter(to) == 0;
    if (entered) {
      double t0 = now_ns();
      pthread_mutex_unlock(&ch->mu);
      JSValueRef v = NULL, exc = NULL;
      if (make_value(to, m, &v, &exc) == 0 && v) {
        JSValueProtect(to->ctx, v);
        m->value = v;
      } else {
        m->kind = m->kind == MSG_DATA ? MSG_DATAERROR : m->kind;
        if (exc) { JSValueProtect(to->ctx, exc); m->value = exc; }
      }
      strait__clone_free(m->clone);
      m->clone = NULL;
      free(m->vf);
      m->vf = NULL;
      if (tws) { tws->n_direct++; tws->ns_sender += now_ns() - t0; }
      pthread_mutex_lock(&ch->mu);
    } else if (tws) {
      tws->n_snapshot++;
    }
  }
  delivery *d = malloc(sizeof *d);
  if (d) {
    d->ch = ch;
    d->side = side;
    d->gen = pe->gen;   /* a close meanwhile moved it on: the task drops m */
    d->m = m;
    atomic_fetch_add(&ch->refs, 1);
    /* queued first, then the receiver activated: its loop goes idle only
     * under the group's mutex and with no task queued (group.c), so the
     * group cannot go quiet between the two */
    if (strait_post(to, deliver_task, d, delivery_drop) != 0) {
      atomic_fetch_sub(&ch->refs, 1);
      free(d);
      d = NULL;
    } else if (to->member) {
      strait__group_active(to->member);
    }
  }
  if (!d) {
    if (m->value && entered) JSValueUnprotect(to->ctx, m->value);
    m->value = NULL;   /* without the gate it dies with its heap */
    msg_free(m);
  }
  if (entered) strait_leave(to);
}

/* Posts m (NULL: only what waits), in order: m joins the end's queue, and
 * the queue is posted from its head unless another thread is between the
 * steps of a post to this end (its mutex dropped while it makes a value):
 * that thread posts m after its own. ch->mu held. */
static void post_locked(channel *ch, int side, msg *m, strait_runtime *from) {
  port_end *pe = &ch->end[side];
  if (m) {
    m->next = NULL;
    if (pe->qt) pe->qt->next = m; else pe->qh = m;
    pe->qt = m;
  }
  if (pe->posting) return;
  pe->posting = true;
  while (pe->qh && pe->owner && pe->started && !pe->closed) {
    msg *h = pe->qh;
    pe->qh = h->next;
    if (!pe->qh) pe->qt = NULL;
    h->next = NULL;
    post_one_locked(ch, side, h, from);
  }
  pe->posting = false;
}

/* Sends m to end `side` of ch: dropped when the end is closed, else
 * queued on it and posted when it has a started owner (post_locked); the
 * embedder's end (not started) is woken. Takes m. from: the runtime the
 * calling thread is inside, or NULL. */
static void send_msg(channel *ch, int side, msg *m, strait_runtime *from) {
  pthread_mutex_lock(&ch->mu);
  port_end *pe = &ch->end[side];
  if (pe->closed) {
    pthread_mutex_unlock(&ch->mu);
    msg_free(m);   /* no finished value yet: only post_one_locked makes one */
    return;
  }
  post_locked(ch, side, m, from);
  if (pe->host) pthread_cond_broadcast(&ch->cv);
  pthread_mutex_unlock(&ch->mu);
}

/* Calls internal.portDeliver(id, kind, value, info). Inside rt's gate. */
static void dispatch(strait_runtime *rt, double id, msg *m, JSValueRef value) {
  JSContextRef ctx = rt->ctx;
  JSValueRef info = JSValueMakeUndefined(ctx);
  if (m->kind == MSG_ERROR) {
    JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
    JSValueRef lineno = JSValueMakeNumber(ctx, m->lineno), colno = JSValueMakeNumber(ctx, m->colno);
    const char *names[3] = {"message", "filename", "stack"};
    const char *vals[3] = {m->message, m->filename, m->stack};
    for (int i = 0; i < 3; i++) {
      JSStringRef s = strait_jsstring_from_utf8(vals[i] ? vals[i] : "", vals[i] ? strlen(vals[i]) : 0);
      if (s) {
        strait_set_property(ctx, o, names[i], JSValueMakeString(ctx, s), kJSPropertyAttributeNone);
        JSStringRelease(s);
      }
    }
    strait_set_property(ctx, o, "lineno", lineno, kJSPropertyAttributeNone);
    strait_set_property(ctx, o, "colno", colno, kJSPropertyAttributeNone);
    info = o;
  } else if (m->kind == MSG_EXIT) {
    info = JSValueMakeNumber(ctx, m->code);
  }
  JSValueRef args[4] = {JSValueMakeNumber(ctx, id), JSValueMakeNumber(ctx, m->kind),
                        value ? value : JSValueMakeUndefined(ctx), info};
  JSValueRef exc = NULL;
  /* a port exists, so worker.js was loaded and rt has its worker state */
  strait__workers *ws = rt->workers;
  if (!ws->deliver) {
    JSValueRef f = strait_get_property(ctx, rt->internal, "portDeliver");
    if (!JSValueIsObject(ctx, f) || !JSObjectIsFunction(ctx, (JSObjectRef)f)) return;
    ws->deliver = (JSObjectRef)f;
    JSValueProtect(ctx, f);
  }
  JSObjectCallAsFunction(ctx, ws->deliver, NULL, 4, args, &exc);
  if (exc) strait__set_uncaught(rt, exc);
}

/* A message reaches its end's owner: make the value (snapshot path) and
 * dispatch it. An end that moved on since (transferred) gets the message
 * again, recaptured; a closed one drops it. Inside rt's gate, on its loop. */
static void deliver_task(strait_runtime *rt, void *data) {
  delivery *d = data;
  channel *ch = d->ch;
  msg *m = d->m;
  pthread_mutex_lock(&ch->mu);
  port_end *pe = &ch->end[d->side];
  int here = pe->owner == rt && !pe->closed && pe->gen == d->gen;
  int moved = !here && !pe->closed && pe->gen != d->gen;
  double id = pe->id;
  pthread_mutex_unlock(&ch->mu);
  if (!here) {
    if (moved && m->value) {
      /* recapture the finished value for the end's new place */
      strait__clone *c = NULL;
      JSValueRef exc = NULL;
      if (strait__clone_capture(rt, m->value, NULL, NULL, &c, &exc) == 0) m->clone = c;
      JSValueUnprotect(rt->ctx, m->value);
      m->value = NULL;
    } else if (m->value) {
      JSValueUnprotect(rt->ctx, m->value);
      m->value = NULL;
    }
    if (moved && (m->clone || m->vf || m->kind != MSG_DATA)) send_msg(ch, d->side, m, rt);
    else msg_free(m);
    channel_release(ch);
    free(d);
    return;
  }
  JSValueRef value = m->value;
  if (!value && (m->clone || m->vf)) {
    double t0 = now_ns();
    JSValueRef exc = NULL;
    if (make_value(rt, m, &value, &exc) != 0 || !value) {
      value = exc;
      if (m->kind == MSG_DATA) m->kind = MSG_DATAERROR;
    }
    if (rt->workers) rt->workers->ns_receiver += now_ns() - t0;
  }
  dispatch(rt, id, m, value);
  delivery_drop_in(rt, d);
}

/* ---- ends: start, ref, close, transfer ------------------------------------ */

/* Counts or uncounts end pe in its owner's loop.weak. Inside the owner's
 * gate; ch->mu held. */
static void set_refed_locked(port_end *pe, bool on) {
  if (pe->refed == on || !pe->owner) return;
  pe->refed = on;
  pe->owner->loop.weak += on ? 1 : -1;
  if (!on) strait__loop_wake(&pe->owner->loop);
}

/* Closes end `side` and its peer (entangled ports close together): the
 * peer's owner gets a close event; queued messages are dropped. Inside the
 * gate of `side`'s owner (or with it gone: rt NULL). ch->mu held. */
static void close_pair_locked(channel *ch, int side, strait_runtime *rt) {
  port_end *pe = &ch->end[side], *peer = &ch->end[1 - side];
  if (pe->host || peer->host) pthread_cond_broadcast(&ch->cv);
  if (!pe->closed) {
    if (pe->owner && pe->owner == rt) set_refed_locked(pe, false);
    pe->closed = true;
    pe->gen++;
    pe->owner = NULL;
  }
  if (!peer->closed && !peer->quiet && peer->owner && peer->started) {
    msg *m = calloc(1, sizeof *m);
    if (m) {
      m->kind = MSG_CLOSE;
      post_locked(ch, 1 - side, m, rt);
    }
  }
}

/* The end of id in rt, or NULL. Inside the gate. */
static int find_port(strait_runtime *rt, JSValueRef idv, JSContextRef ctx, port_ref *r) {
  if (!JSValueIsNumber(ctx, idv)) return 0;
  return table_find(rt->workers, JSValueToNumber(ctx, idv, NULL), r);
}

/* Releases end side of ch from rt: out of the table, closed, its channel
 * reference dropped. Inside rt's gate. */
static void release_end(strait_runtime *rt, port_ref *r, double id) {
  pthread_mutex_lock(&r->ch->mu);
  close_pair_locked(r->ch, r->side, rt);
  pthread_mutex_unlock(&r->ch->mu);
  table_remove(rt->workers, id);
  channel_release(r->ch);
}

/* Transfer hooks (clone.h): a MessagePort of rt moves into a clone. */
typedef struct port_token {
  channel *ch;
  int side;
} port_token;

static void *hook_take(strait_runtime *rt, JSObjectRef obj, bool commit) {
  JSValueRef exc = NULL;
  JSValueRef arg = obj;
  JSValueRef idv = strait__call_method(rt->ctx, rt->internal, "portIdOf", 1, &arg, &exc);
  port_ref r;
  if (exc || !idv || !find_port(rt, idv, rt->ctx, &r)) return NULL;
  if (r.pe->worker || r.pe->quiet) return NULL;  /* a Worker's own ports stay */
  if (!commit) return (void *)1;
  port_token *t = malloc(sizeof *t);
  if (!t) return NULL;
  double id = JSValueToNumber(rt->ctx, idv, NULL);
  pthread_mutex_lock(&r.ch->mu);
  set_refed_locked(r.pe, false);
  r.pe->owner = NULL;
  r.pe->started = false;
  r.pe->gen++;
  pthread_mutex_unlock(&r.ch->mu);
  table_remove(rt->workers, id);
  t->ch = r.ch;   /* the end's channel reference moves into the token */
  t->side = r.side;
  JSValueRef a2[1] = {idv};
  strait__call_method(rt->ctx, rt->internal, "portDetached", 1, a2, &exc);
  return t;
}

static JSValueRef hook_give(strait_runtime *rt, void *token, JSValueRef *exception) {
  port_token *t = token;
  strait__workers *ws = state_of(rt);
  double id = 0;
  if (ws) {
    pthread_mutex_lock(&t->ch->mu);
    id = table_add(ws, t->ch, t->side);
    if (id) {
      port_end *pe = &t->ch->end[t->side];
      pe->owner = rt;
      pe->id = id;
      pe->gen++;
      pe->started = false;
      if (pe->closed) pe->owner = NULL;
    }
    pthread_mutex_unlock(&t->ch->mu);
  }
  if (!id) {
    *exception = strait_make_error(rt->ctx, "RangeError", "out of memory receiving a MessagePort");
    return NULL;
  }
  free(t);
  if (strait__env_load(rt, "worker.js", exception) != 0) return NULL;
  JSValueRef arg = JSValueMakeNumber(rt->ctx, id);
  return strait__call_method(rt->ctx, rt->internal, "portMake", 1, &arg, exception);
}

static void hook_drop(void *token) {
  port_token *t = token;
  pthread_mutex_lock(&t->ch->mu);
  close_pair_locked(t->ch, t->side, NULL);
  pthread_mutex_unlock(&t->ch->mu);
  channel_release(t->ch);
  free(t);
}

static const strait__clone_hooks port_hooks = {hook_take, hook_give, hook_drop};

/* ---- workers -------------------------------------------------------------- */

static void worker_release(worker_rec *w) {
  if (!w || atomic_fetch_sub(&w->refs, 1) != 1) return;
  channel_release(w->ch);
  strait__clone_free(w->data);
  free(w->file);
  free(w->source);
  free(w->name);
  for (int i = 0; i < w->argc; i++) free(w->argv[i]);
  free(w->argv);
  free(w->fs_root);
  pthread_mutex_destroy(&w->mu);
  free(w);
}

static void worker_on_exit(void *ud, int code) {
  worker_rec *w = ud;
  w->exit_code = code;
}

/* An ERROR message describing exception exc of rt. Inside rt's gate. */
static msg *error_msg(strait_runtime *rt, JSValueRef exc, const char *fallback) {
  msg *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->kind = MSG_ERROR;
  if (exc) {
    strait_error_info info;
    if (strait_error_describe(rt, exc, &info) == 0) {
      size_t n = strlen(info.name ? info.name : "Error") + strlen(info.message ? info.message : "") + 16;
      m->message = malloc(n);
      if (m->message)
        snprintf(m->message, n, "Uncaught %s: %s", info.name ? info.name : "Error",
                 info.message ? info.message : "");
      m->filename = dup_or_null(info.file);
      m->stack = dup_or_null(info.stack);
      m->lineno = info.line;
      m->colno = info.column;
      strait_error_info_free(&info);
    }
    JSValueRef cexc = NULL;
    strait__clone *c = NULL;
    if (strait__clone_capture(rt, exc, NULL, NULL, &c, &cexc) == 0) m->clone = c;
  } else {
    m->message = dup_or_null(fallback);
  }
  return m;
}

/* Tells the parent why the worker's script or loop ended, unless it ended
 * well, by process.exit() or by terminate(): an error event. Inside rt's
 * gate. */
static void report_status(worker_rec *w, strait_runtime *rt, int rc, JSValueRef exc, bool term) {
  if (rc == 0 || rc == STRAIT_EEXIT || (rc == STRAIT_ETERM && term)) return;
  msg *m = NULL;
  char buf[PATH_MAX_MSG];
  if (rc == STRAIT_EJS) {
    m = error_msg(rt, exc, NULL);
  } else {
    if (rc == STRAIT_ETIMEDOUT)
      snprintf(buf, sizeof buf, "Error: the worker's time limit of %.10g ms was exceeded",
               (double)w->opts.time_limit_us / 1000.0);
    else if (rc == STRAIT_EHEAP)
      snprintf(buf, sizeof buf, "RangeError: the worker's heap limit of %lld bytes was exceeded",
               (long long)w->opts.heap_limit);
    else if (rc == STRAIT_ENOENT && w->file)
      snprintf(buf, sizeof buf, "Error: Cannot find module '%s'", w->file);
    else if (rc == STRAIT_ETERM)
      snprintf(buf, sizeof buf, "Error: the worker was interrupted");
    else
      snprintf(buf, sizeof buf, "Error: the worker failed: %s", strait_strerror(rc));
    m = error_msg(rt, NULL, buf);
    if (m && w->file && !m->filename) m->filename = dup_or_null(w->file);
  }
  if (m) send_msg(w->ch, 0, m, rt);
}

/* The worker's thread: makes its runtime, runs its script and loop,
 * reports an uncaught error and its exit to the parent, frees it all. */
static void *worker_main(void *arg) {
  worker_rec *w = arg;
  channel *ch = w->ch;
  strait_runtime *rt = NULL;
  int code = 0;
  int rc = strait_runtime_new(&w->opts, &rt);
  if (rc != 0) {
    char buf[160];
    snprintf(buf, sizeof buf, "Error: cannot create the worker's runtime: %s", strait_strerror(rc));
    msg *m = error_msg(NULL, NULL, buf);
    if (m) send_msg(ch, 0, m, NULL);
    code = 1;
    goto done;
  }
  rt->member = &w->member;
  strait__group_set_loop(&w->member, &rt->loop);
  pthread_mutex_lock(&w->mu);
  w->rt = rt;
  pthread_mutex_unlock(&w->mu);

  strait_enter(rt);
  /* From here an interrupt of this stay (terminate) ends the script. */
  pthread_mutex_lock(&w->mu);
  bool term = w->terminating;
  pthread_mutex_unlock(&w->mu);
  JSValueRef exc = NULL;
  strait__workers *ws = state_of(rt);
  double id = 0;
  if (ws) {
    ws->self = w;
    ws->hooks = w->hooks;
    pthread_mutex_lock(&ch->mu);
    id = table_add(ws, ch, 1);
    if (id) {
      ch->end[1].owner = rt;
      ch->end[1].id = id;
      ch->end[1].quiet = true;
    }
    pthread_mutex_unlock(&ch->mu);
  }
  if (!id) rc = STRAIT_ENOMEM;
  if (!term && rc == 0) rc = strait__env_load(rt, "worker.js", &exc);
  if (!term && rc == 0) {
    JSValueRef data = JSValueMakeUndefined(rt->ctx);
    if (w->data && strait__clone_materialize(rt, w->data, &data, &exc) != 0) rc = STRAIT_EJS;
    if (rc == 0) {
      JSStringRef ns = strait_jsstring_from_utf8(w->name ? w->name : "", w->name ? strlen(w->name) : 0);
      JSValueRef args[4] = {JSValueMakeNumber(rt->ctx, id), JSValueMakeNumber(rt->ctx, w->thread_id),
                            JSValueMakeString(rt->ctx, ns), data};
      JSStringRelease(ns);
      strait__call_method(rt->ctx, rt->internal, "workerSetup", 4, args, &exc);
      if (exc) rc = STRAIT_EJS;
    }
    if (rc == 0 && w->hooks.init) rc = w->hooks.init(w->hooks.ud, rt, &exc);
    if (rc == 0) {
      msg *on = calloc(1, sizeof *on);
      if (on) { on->kind = MSG_ONLINE; send_msg(ch, 0, on, rt); }
      if (w->file) rc = strait_run_main(rt, w->file, &exc);
      else rc = strait_eval_utf8(rt, w->source, strlen(w->source), "[worker eval]", NULL, &exc);
    }
  }
  if (rc == 0) rc = strait_checkpoint(rt);   /* the main script's promise jobs */
  if (rc == STRAIT_EJS && strait_terminating(rt)) rc = strait_terminating(rt);
  pthread_mutex_lock(&w->mu);
  term = w->terminating;
  pthread_mutex_unlock(&w->mu);
  report_status(w, rt, rc, exc, term);
  if (rc == 0 && !term) {
    pthread_mutex_lock(&ch->mu);
    ch->end[1].started = true;
    post_locked(ch, 1, NULL, rt);   /* what waited */
    pthread_mutex_unlock(&ch->mu);
  }
  strait_leave(rt);
  if (rc == 0 && !term) {
    rc = strait_loop_run(rt, &exc);
    strait_enter(rt);
    pthread_mutex_lock(&w->mu);
    term = w->terminating;
    pthread_mutex_unlock(&w->mu);
    report_status(w, rt, rc, exc, term);
    strait_leave(rt);
  }
  strait_enter(rt);
  if (rc == STRAIT_EEXIT || strait_exiting(rt)) code = w->exit_code;
  else if (rc == 0 && !term) code = strait_exit_code(rt);
  else code = 1;
  strait_leave(rt);
  pthread_mutex_lock(&w->mu);
  w->rt = NULL;                  /* from here stop_fn is never called */
  void (*stop_release)(void *) = w->stop_release;
  void *stop_data = w->stop_data;
  w->stop_fn = NULL;
  w->stop_release = NULL;
  w->stop_data = NULL;
  pthread_mutex_unlock(&w->mu);
  strait_runtime_free(rt);
  if (stop_release) stop_release(stop_data);

done:;
  msg *m = calloc(1, sizeof *m);
  if (m) {
    m->kind = MSG_EXIT;
    m->code = code;
    send_msg(ch, 0, m, NULL);
  }
  strait__group_leave(&w->member);
  if (w->hooks.fini) w->hooks.fini(w->hooks.ud);
  worker_release(w);
  return NULL;
}

/* Asks worker w to stop: an interrupt of its running JS and a halt of its
 * loop. The worker is active in its group from here (it has work: ending
 * and telling its parent), so that a parent left with only listeners
 * waits for its exit message instead of seeing quiescence (an idle worker
 * that was only waiting for messages would otherwise count as done). While
 * w->rt is set (w->mu), worker_main has not left the group. Any thread. */
static void worker_terminate(worker_rec *w) {
  pthread_mutex_lock(&w->mu);
  w->terminating = true;
  if (w->rt) {
    strait__group_active(&w->member);
    atomic_store(&w->rt->loop.halt, 1);
    strait_interrupt(w->rt);
    /* JS blocked in a host call is stopped when the call returns; this
     * makes it return (a Java thread's interrupt) */
    if (w->stop_fn) w->stop_fn(w->stop_data);
  }
  pthread_mutex_unlock(&w->mu);
}

/* See strait.h. Worker's thread, inside its gate. */
int strait_worker_on_stop(strait_runtime *worker, void (*fn)(void *data), void (*release)(void *data),
                          void *data) {
  strait__workers *ws = worker ? state_of(worker) : NULL;
  worker_rec *w = ws ? ws->self : NULL;
  if (!w || !fn) return STRAIT_EINVAL;
  pthread_mutex_lock(&w->mu);
  void (*old_release)(void *) = w->stop_release;
  void *old_data = w->stop_data;
  w->stop_fn = fn;
  w->stop_release = release;
  w->stop_data = data;
  /* told to stop before: the next blocking call must not wait */
  if (w->terminating) fn(data);
  pthread_mutex_unlock(&w->mu);
  if (old_release) old_release(old_data);
  return 0;
}

/* Joins w's thread once and drops the parent's reference. Parent's gate. */
static void worker_join(strait_runtime *rt, strait__workers *ws, worker_rec *w) {
  pthread_mutex_lock(&rt->kids_mu);
  for (worker_rec **pp = &ws->children; *pp; pp = &(*pp)->next) {
    if (*pp == w) { *pp = w->next; break; }
  }
  pthread_mutex_unlock(&rt->kids_mu);
  if (!w->joined) {
    w->joined = true;
    pthread_join(w->thread, NULL);
  }
  worker_release(w);
}

/* ---- natives ---------------------------------------------------------------- */

#define NATIVE(name) \
  static JSValueRef name(JSContextRef ctx, JSObjectRef f, JSObjectRef self, size_t argc, \
                         const JSValueRef argv[], JSValueRef *exception)

static JSValueRef arg(size_t argc, const JSValueRef argv[], size_t i, JSContextRef ctx) {
  return i < argc ? argv[i] : JSValueMakeUndefined(ctx);
}

static JSValueRef nomem(JSContextRef ctx, JSValueRef *exception) {
  *exception = strait_make_error(ctx, "RangeError", "out of memory");
  return NULL;
}

/* The runtime of ctx with its worker state (made on first use). */
static strait__workers *ws_of(JSContextRef ctx, strait_runtime **rtp) {
  strait_runtime *rt = strait__runtime_of(ctx);
  *rtp = rt;
  strait__workers *ws = state_of(rt);
  if (ws && !rt->clone_hooks) {
    ws->clone_hooks = port_hooks;
    rt->clone_hooks = &ws->clone_hooks;
  }
  return ws;
}

/* native.channel() -> [id1, id2]: a new entangled pair owned by this
 * runtime. */
NATIVE(js_channel) {
  strait_runtime *rt;
  strait__workers *ws = ws_of(ctx, &rt);
  channel *ch = ws ? channel_new() : NULL;
  if (!ch) return nomem(ctx, exception);
  pthread_mutex_lock(&ch->mu);
  double a = table_add(ws, ch, 0), b = a ? table_add(ws, ch, 1) : 0;
  if (a && b) {
    ch->end[0].owner = ch->end[1].owner = rt;
    ch->end[0].id = a;
    ch->end[1].id = b;
  }
  pthread_mutex_unlock(&ch->mu);
  if (!a || !b) {
    if (a) table_remove(ws, a);
    channel_release(ch);
    channel_release(ch);
    return nomem(ctx, exception);
  }
  JSValueRef ids[2] = {JSValueMakeNumber(ctx, a), JSValueMakeNumber(ctx, b)};
  return JSObjectMakeArray(ctx, 2, ids, exception);
}

/* native.portPost(id, value, transfer): captures the value now (throws a
 * DataCloneError...) and sends it; a closed port drops it. */
NATIVE(js_port_post) {
  strait_runtime *rt;
  strait__workers *ws = ws_of(ctx, &rt);
  if (!ws) return nomem(ctx, exception);
  port_ref r;
  int found = find_port(rt, arg(argc, argv, 0, ctx), ctx, &r);
  JSValueRef transfer = arg(argc, argv, 2, ctx);
  double t0 = now_ns();
  strait__clone *c = NULL;
  int rc = strait__clone_capture(rt, arg(argc, argv, 1, ctx),
                                 JSValueIsUndefined(ctx, transfer) ? NULL : transfer,
                                 rt->clone_hooks, &c, exception);
  if (rc != 0) {
    if (!*exception) return nomem(ctx, exception);
    return NULL;
  }
  ws->ns_sender += now_ns() - t0;
  msg *m = calloc(1, sizeof *m);
  if (!m) { strait__clone_free(c); return nomem(ctx, exception); }
  m->kind = MSG_DATA;
  m->clone = c;
  if (!found) { msg_free(m); return JSValueMakeUndefined(ctx); }
  send_msg(r.ch, 1 - r.side, m, rt);
  return JSValueMakeUndefined(ctx);
}

/* native.portStart(id): delivers what waited and what comes. */
NATIVE(js_port_start) {
  strait_runtime *rt;
  ws_of(ctx, &rt);
  port_ref r;
  if (!find_port(rt, arg(argc, argv, 0, ctx), ctx, &r)) return JSValueMakeUndefined(ctx);
  pthread_mutex_lock(&r.ch->mu);
  if (!r.pe->started && r.pe->owner == rt) {
    r.pe->started = true;
    post_locked(r.ch, r.side, NULL, rt);   /* what waited */
  }
  pthread_mutex_unlock(&r.ch->mu);
  return JSValueMakeUndefined(ctx);
}

/* native.portRef(id, on): a listener keeps the loop alive (weakly). */
NATIVE(js_port_ref) {
  strait_runtime *rt;
  ws_of(ctx, &rt);
  port_ref r;
  if (!find_port(rt, arg(argc, argv, 0, ctx), ctx, &r)) return JSValueMakeUndefined(ctx);
  pthread_mutex_lock(&r.ch->mu);
  if (r.pe->owner == rt && !r.pe->closed) set_refed_locked(r.pe, JSValueToBoolean(ctx, arg(argc, argv, 1, ctx)));
  pthread_mutex_unlock(&r.ch->mu);
  return JSValueMakeUndefined(ctx);
}

/* native.portClose(id): closes the pair; the peer gets a close event. */
NATIVE(js_port_close) {
  strait_runtime *rt;
  ws_of(ctx, &rt);
  port_ref r;
  JSValueRef idv = arg(argc, argv, 0, ctx);
  if (!find_port(rt, idv, ctx, &r) || r.pe->worker || r.pe->quiet) return JSValueMakeUndefined(ctx);
  release_end(rt, &r, JSValueToNumber(ctx, idv, NULL));
  return JSValueMakeUndefined(ctx);
}

/* Copies the parent's options into w. */
static int copy_options(worker_rec *w, strait_runtime *rt) {
  w->opts = rt->opts;
  w->opts.on_exit = worker_on_exit;
  w->opts.exit_ud = w;
  if (rt->argc > 0) {
    w->argv = calloc((size_t)rt->argc, sizeof *w->argv);
    if (!w->argv) return STRAIT_ENOMEM;
    for (int i = 0; i < rt->argc; i++) {
      w->argv[i] = dup_or_null(rt->argv[i]);
      if (!w->argv[i]) return STRAIT_ENOMEM;
      w->argc = i + 1;
    }
  }
  w->opts.argc = w->argc;
  w->opts.argv = (const char *const *)w->argv;
  if (rt->fs_root && !(w->fs_root = dup_or_null(rt->fs_root))) return STRAIT_ENOMEM;
  w->opts.fs_root = w->fs_root;
  return 0;
}

static char *utf8_arg(JSContextRef ctx, JSValueRef v) {
  if (!JSValueIsString(ctx, v)) return NULL;
  return strait_utf8_from_value(ctx, v, NULL);
}

/* native.workerStart(file, source, name, data, transfer) -> [portId,
 * threadId]: file is the absolute path of the script (worker.js resolved
 * it), or null with source. workerData is captured now (a DataCloneError
 * throws here, before any thread starts). */
NATIVE(js_worker_start) {
  strait_runtime *rt;
  strait__workers *ws = ws_of(ctx, &rt);
  if (!ws) return nomem(ctx, exception);
  if (rt->opts.deny & STRAIT_DENY_WORKERS) {
    JSValueRef e = strait_make_error(ctx, "Error", "workers are not allowed in this runtime (a worker is a thread)");
    if (JSValueIsObject(ctx, e)) {
      JSStringRef code = strait_jsstring_from_utf8("ERR_ACCESS_DENIED", 17);
      strait_set_property(ctx, (JSObjectRef)e, "code", JSValueMakeString(ctx, code), kJSPropertyAttributeNone);
      JSStringRelease(code);
    }
    *exception = e;
    return NULL;
  }
  if (!rt->member) {
    strait__group *g = strait__group_new();
    if (!g) return nomem(ctx, exception);
    memset(&rt->own_member, 0, sizeof rt->own_member);
    strait__group_join(g, &rt->own_member);
    strait__group_release(g);
    rt->member = &rt->own_member;
    strait__group_set_loop(rt->member, &rt->loop);
  }
  worker_rec *w = calloc(1, sizeof *w);
  if (!w) return nomem(ctx, exception);
  pthread_mutex_init(&w->mu, NULL);
  atomic_init(&w->refs, 2);
  w->file = utf8_arg(ctx, arg(argc, argv, 0, ctx));
  w->source = utf8_arg(ctx, arg(argc, argv, 1, ctx));
  w->name = utf8_arg(ctx, arg(argc, argv, 2, ctx));
  w->hooks = ws->hooks;
  w->thread_id = (double)atomic_fetch_add(&next_thread_id, 1);
  int rc = (!w->file && !w->source) ? STRAIT_EINVAL : copy_options(w, rt);
  if (rc == 0) {
    JSValueRef data = arg(argc, argv, 3, ctx), transfer = arg(argc, argv, 4, ctx);
    if (!JSValueIsUndefined(ctx, data) || !JSValueIsUndefined(ctx, transfer)) {
      rc = strait__clone_capture(rt, data, JSValueIsUndefined(ctx, transfer) ? NULL : transfer,
                                 rt->clone_hooks, &w->data, exception);
    }
  }
  channel *ch = rc == 0 ? channel_new() : NULL;
  double id = 0;
  if (ch) {
    pthread_mutex_lock(&ch->mu);
    id = table_add(ws, ch, 0);
    ch->end[0].owner = rt;
    ch->end[0].id = id;
    ch->end[0].started = true;
    ch->end[0].worker = w;
    ch->end[0].quiet = ch->end[1].quiet = true;
    pthread_mutex_unlock(&ch->mu);
    w->ch = ch;
    atomic_fetch_add(&ch->refs, 1);   /* the record's own */
  }
  if (rc != 0 || !ch || !id) {
    if (ch) { channel_release(ch); channel_release(ch); }
    atomic_store(&w->refs, 1);
    worker_release(w);
    if (rc == STRAIT_EJS) return NULL;
    if (rc == STRAIT_EINVAL) {
      *exception = strait_make_error(ctx, "TypeError", "a worker needs a file or a source");
      return NULL;
    }
    return nomem(ctx, exception);
  }
  strait__group_join(rt->member->group, &w->member);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)8 << 20);
  rc = pthread_create(&w->thread, &attr, worker_main, w);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    strait__group_leave(&w->member);
    table_remove(ws, id);
    ch->end[0].owner = NULL;
    channel_release(ch);
    channel_release(ch);
    atomic_store(&w->refs, 1);
    worker_release(w);
    *exception = strait_make_error(ctx, "Error", "cannot start a thread for the worker: %s", strerror(rc));
    return NULL;
  }
  pthread_mutex_lock(&rt->kids_mu);
  w->next = ws->children;
  ws->children = w;
  pthread_mutex_unlock(&rt->kids_mu);
  /* the Worker keeps its parent's loop alive (weakly) until its exit */
  pthread_mutex_lock(&ch->mu);
  set_refed_locked(&ch->end[0], true);
  pthread_mutex_unlock(&ch->mu);
  JSValueRef out[2] = {JSValueMakeNumber(ctx, id), JSValueMakeNumber(ctx, w->thread_id)};
  return JSObjectMakeArray(ctx, 2, out, exception);
}

/* The worker record of the Worker whose port is idv, or NULL. */
static worker_rec *worker_of(strait_runtime *rt, JSContextRef ctx, JSValueRef idv, port_ref *r) {
  if (!find_port(rt, idv, ctx, r)) return NULL;
  return r->side == 0 ? r->pe->worker : NULL;
}

/* native.workerTerminate(id): stops the worker (its exit event follows). */
NATIVE(js_worker_terminate) {
  strait_runtime *rt;
  ws_of(ctx, &rt);
  port_ref r;
  worker_rec *w = worker_of(rt, ctx, arg(argc, argv, 0, ctx), &r);
  if (w) worker_terminate(w);
  return JSValueMakeUndefined(ctx);
}

/* native.workerExited(id): the exit event was dispatched: joins the
 * thread, drops the Worker's port and its hold on the loop. */
NATIVE(js_worker_exited) {
  strait_runtime *rt;
  strait__workers *ws = ws_of(ctx, &rt);
  port_ref r;
  JSValueRef idv = arg(argc, argv, 0, ctx);
  worker_rec *w = worker_of(rt, ctx, idv, &r);
  if (!w) return JSValueMakeUndefined(ctx);
  pthread_mutex_lock(&r.ch->mu);
  set_refed_locked(r.pe, false);
  r.pe->worker = NULL;
  pthread_mutex_unlock(&r.ch->mu);
  worker_join(rt, ws, w);
  release_end(rt, &r, JSValueToNumber(ctx, idv, NULL));
  return JSValueMakeUndefined(ctx);
}

/* native.selfClose(): a worker's close(): its loop ends after this task. */
NATIVE(js_self_close) {
  strait_runtime *rt = strait__runtime_of(ctx);
  if (rt->workers && rt->workers->self) {
    atomic_store(&rt->loop.halt, 2);
    strait__loop_wake(&rt->loop);
  }
  return JSValueMakeUndefined(ctx);
}

/* native.messageStats() -> [direct, snapshot, senderMs, receiverMs]: how the
 * messages this runtime received were made, and the time its own thread
 * spent making them (receiver) vs the senders' threads (direct path). */
NATIVE(js_message_stats) {
  strait_runtime *rt = strait__runtime_of(ctx);
  strait__workers *ws = rt->workers;
  JSValueRef v[4];
  v[0] = JSValueMakeNumber(ctx, ws ? ws->n_direct : 0);
  v[1] = JSValueMakeNumber(ctx, ws ? ws->n_snapshot : 0);
  v[2] = JSValueMakeNumber(ctx, ws ? ws->ns_sender / 1e6 : 0);
  v[3] = JSValueMakeNumber(ctx, ws ? ws->ns_receiver / 1e6 : 0);
  return JSObjectMakeArray(ctx, 4, v, exception);
}

void strait__worker_natives(JSContextRef ctx, JSObjectRef native) {
  strait_set_function(ctx, native, "channel", js_channel);
  strait_set_function(ctx, native, "portPost", js_port_post);
  strait_set_function(ctx, native, "portStart", js_port_start);
  strait_set_function(ctx, native, "portRef", js_port_ref);
  strait_set_function(ctx, native, "portClose", js_port_close);
  strait_set_function(ctx, native, "workerStart", js_worker_start);
  strait_set_function(ctx, native, "workerTerminate", js_worker_terminate);
  strait_set_function(ctx, native, "workerExited", js_worker_exited);
  strait_set_function(ctx, native, "selfClose", js_self_close);
  strait_set_function(ctx, native, "messageStats", js_message_stats);
}

/* ---- teardown and hooks ------------------------------------------------------ */

/* Terminates the workers rt started (see strait.h). */
void strait_terminate_workers(strait_runtime *rt) {
  if (!rt) return;
  pthread_mutex_lock(&rt->kids_mu);
  strait__workers *ws = rt->workers;
  for (worker_rec *w = ws ? ws->children : NULL; w; w = w->next) worker_terminate(w);
  pthread_mutex_unlock(&rt->kids_mu);
}

void strait__workers_free(strait_runtime *rt) {
  strait__workers *ws = rt->workers;
  if (!ws) return;
  /* workers first: terminate them all, then wait for each thread */
  strait_terminate_workers(rt);
  while (ws->children) {
    worker_rec *w = ws->children;
    if (w->ch) {
      pthread_mutex_lock(&w->ch->mu);
      w->ch->end[0].worker = NULL;
      pthread_mutex_unlock(&w->ch->mu);
    }
    worker_join(rt, ws, w);
  }
  for (size_t i = 0; i < ws->nbuckets; i++) {
    for (tentry *e = ws->buckets[i]; e;) {
      tentry *next = e->next;
      channel *ch = e->ch;
      pthread_mutex_lock(&ch->mu);
      close_pair_locked(ch, e->side, rt);
      pthread_mutex_unlock(&ch->mu);
      channel_release(ch);
      free(e);
      e = next;
    }
  }
  free(ws->buckets);
  if (ws->deliver) JSValueUnprotect(rt->ctx, ws->deliver);
  rt->clone_hooks = NULL;
  rt->workers = NULL;
  free(ws);
  if (rt->member == &rt->own_member) {
    strait__group_leave(&rt->own_member);
    rt->member = NULL;
  }
}

/* Sets the hooks workers run (see strait.h). Inside the gate. */
void strait_set_worker_hooks(strait_runtime *rt, const strait_worker_hooks *hooks) {
  strait__workers *ws = state_of(rt);
  if (!ws) return;
  if (hooks) ws->hooks = *hooks;
  else memset(&ws->hooks, 0, sizeof ws->hooks);
}

/* ---- the embedder's end of a channel (strait_port, strait.h) ----------------- */

struct strait_port {
  channel *ch;
  _Atomic int refs;              /* the owner's, one per call in progress */
};

static void port_release(strait_port *p) {
  if (atomic_fetch_sub(&p->refs, 1) != 1) return;
  channel_release(p->ch);
  free(p);
}

/* Opens a channel whose end 0 the embedder holds (see strait.h). Inside
 * rt's gate. */
int strait_port_open(strait_runtime *rt, strait_port **out, JSValueRef *js_port) {
  *out = NULL;
  JSValueRef lexc = NULL;
  if (strait__env_load(rt, "worker.js", &lexc) != 0) return lexc ? STRAIT_EJS : STRAIT_EINVAL;
  strait__workers *ws = state_of(rt);
  if (ws && !rt->clone_hooks) {
    ws->clone_hooks = port_hooks;
    rt->clone_hooks = &ws->clone_hooks;
  }
  strait_port *p = ws ? calloc(1, sizeof *p) : NULL;
  channel *ch = p ? channel_new() : NULL;
  if (!ch) { free(p); return STRAIT_ENOMEM; }
  pthread_mutex_lock(&ch->mu);
  double id = table_add(ws, ch, 1);
  if (id) {
    ch->end[1].owner = rt;
    ch->end[1].id = id;
    ch->end[0].host = true;
  }
  pthread_mutex_unlock(&ch->mu);
  if (!id) { channel_release(ch); channel_release(ch); free(p); return STRAIT_ENOMEM; }
  JSValueRef exc = NULL, arg = JSValueMakeNumber(rt->ctx, id);
  JSValueRef obj = strait__call_method(rt->ctx, rt->internal, "portMake", 1, &arg, &exc);
  if (!obj || exc) {
    port_ref r = {&ch->end[1], ch, 1};
    release_end(rt, &r, id);
    channel_release(ch);
    free(p);
    return STRAIT_EJS;
  }
  p->ch = ch;
  atomic_init(&p->refs, 1);
  *js_port = obj;
  *out = p;
  return 0;
}

/* Posts value-format bytes to the MessagePort (see strait.h). Any thread. */
int strait_port_post(strait_port *p, const uint8_t *buf, size_t len) {
  atomic_fetch_add(&p->refs, 1);
  msg *m = calloc(1, sizeof *m);
  uint8_t *copy = m ? malloc(len ? len : 1) : NULL;
  if (!copy) { free(m); port_release(p); return STRAIT_ENOMEM; }
  memcpy(copy, buf, len);
  m->kind = MSG_DATA;
  m->vf = copy;
  m->vflen = len;
  pthread_mutex_lock(&p->ch->mu);
  int closed = p->ch->end[0].closed || p->ch->end[1].closed;
  pthread_mutex_unlock(&p->ch->mu);
  if (closed) { msg_free(m); port_release(p); return STRAIT_ECLOSED; }
  send_msg(p->ch, 1, m, NULL);
  port_release(p);
  return 0;
}

/* Takes the next message for the embedder (see strait.h). Any thread. */
int strait_port_receive(strait_port *p, long timeout_ms, strait_buffer *out, strait_value_error *err) {
  atomic_fetch_add(&p->refs, 1);
  channel *ch = p->ch;
  port_end *pe = &ch->end[0];
  struct timespec until;
  if (timeout_ms > 0) {
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
  }
  int rc = 0;
  msg *m = NULL;
  pthread_mutex_lock(&ch->mu);
  for (;;) {
    /* a close message only tells a runtime's port; here closed says it */
    while (pe->qh && pe->qh->kind == MSG_CLOSE) {
      msg *c = pe->qh;
      pe->qh = c->next;
      if (!pe->qh) pe->qt = NULL;
      msg_free(c);
    }
    if (pe->qh) {
      m = pe->qh;
      pe->qh = m->next;
      if (!pe->qh) pe->qt = NULL;
      break;
    }
    if (pe->closed || ch->end[1].closed) { rc = STRAIT_ECLOSED; break; }
    if (timeout_ms == 0) { rc = STRAIT_ETIMEDOUT; break; }
    if (timeout_ms < 0) {
      pthread_cond_wait(&ch->cv, &ch->mu);
    } else if (pthread_cond_timedwait(&ch->cv, &ch->mu, &until) != 0) {
      rc = pe->qh ? 0 : STRAIT_ETIMEDOUT;
      if (rc) break;
    }
  }
  pthread_mutex_unlock(&ch->mu);
  if (m) {
    if (m->clone) {
      rc = strait__clone_write_value(m->clone, out, err);
    } else {
      rc = STRAIT_ETYPE;
      snprintf(err->msg, sizeof err->msg, "the message could not be read");
      err->status = rc;
    }
    msg_free(m);
  }
  port_release(p);
  return rc;
}

/* Closes the embedder's end (see strait.h). Any thread. */
void strait_port_close(strait_port *p) {
  pthread_mutex_lock(&p->ch->mu);
  if (!p->ch->end[0].closed) close_pair_locked(p->ch, 0, NULL);
  pthread_mutex_unlock(&p->ch->mu);
}

/* Closes and releases the embedder's end (see strait.h). Any thread. */
void strait_port_free(strait_port *p) {
  if (!p) return;
  strait_port_close(p);
  port_release(p);
}

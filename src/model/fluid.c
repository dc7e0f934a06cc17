/* timing=ranks and timing=async under contention=fair: the executor's two
 * clocks with the links shared across rounds.
 *
 * An MPI executor runs a schedule round by round without a barrier
 * (src/mpi/exec.c): a rank posts a round's receives and sends and waits
 * for all of them, then goes on. Ranks are therefore in different rounds
 * at the same moment, and a message of round r+1 shares the links with
 * a message of round r that is still on the wire. The per-round ranks
 * clock (async.c) shares arcs only among the messages of one round; on
 * SMPI recursive doubling and pairwise exchange, whose ranks drift apart
 * by rounds, it under-predicted by up to 30% (docs/models.md). Here the
 * whole schedule is one fluid system, simulated event by event:
 *
 *   - node v enters its next step (the next round in which it sends or
 *     receives) when its previous step is done: its CPU has let its sends
 *     go (they are detached) and it has read every message it receives;
 *   - its j-th send of the step (plan order) leaves at enter + (j+1)*o and
 *     moves once its receiver has entered that round too (the receive is
 *     posted: SimGrid matches a communication when both sides are there);
 *   - a moving message is a flow on its arcs; every arc carries 1/tl bytes
 *     per second, shared max-min among all the flows on it whatever their
 *     round (weights 1/hops under share=hops; a flow with bandwidth factor
 *     F moves F bytes per unit of the capacity it is given, so alone it
 *     moves at F/tl; with ack=c it also takes c times its share on its
 *     return route: the rules of fair.c), re-shared at every start and
 *     every end of a flow;
 *   - it arrives ts + hops*td (the pricer's fixed terms) after its last
 *     byte is sent, and its receiver reads it in order of arrival, `or`
 *     each. The schedule ends at its last read;
 *   - a send of at least `detach` bytes (model key; MPI's rendezvous above
 *     the eager limit) is not detached: its sender's step also waits for
 *     its arrival.
 *
 * timing=async is the executor's sync=data (src/mpi/exec.c): every receive
 * is posted at the start, and a node takes its sends in plan order, each
 * once the transfers it depends on (those that brought its items to the
 * sender: async.c) have been read; its CPU lets it go o later, and it
 * moves at once. No steps: a send waits only for its own dependencies and
 * for the send before it (the CPU is one queue). Sharing, arrival and
 * reading as above.
 *
 * The rounds are kept until the schedule ends (the clock needs them all:
 * when a node enters round r+1 depends on how round r shares with it), so
 * the state is the schedule's transfers and their arcs. */
#include "model.h"

#include <math.h>
#include <string.h>

enum { EV_GO, EV_ARRIVE, EV_READ, EV_SENT };

typedef struct event {
  double t;
  uint64_t seq; /* ties: in the order they were made (FIFO reads) */
  int kind;
  size_t id; /* transfer, or node for EV_SENT */
} event;

typedef struct fluid_run {
  mg_fluid *f;
  event *heap;
  size_t nheap, capheap;
  uint64_t seq;
  /* per node: its entries (transfer ids, sends and receives) in round
   * order, the current step [pos, stop), when it entered, what it waits for */
  size_t *noff, *entries, *pos, *stop;
  double *enter, *rcv;
  size_t *left;
  int64_t *in_round;
  /* per transfer */
  double *rel, *rem, *rate, *wt, *bound, *use; /* use: bytes moved per unit of capacity (F) */
  uint8_t *src_in;
  /* the flows on the wire, and the arcs they use (dense index) */
  size_t *active, nactive;
  uint32_t *arc_loc, *arc_seen;
  uint32_t mark;
  double *cap, *wsum;
  uint32_t *nun;
  uint8_t *frozen;
  double end;
  /* timing=async: per node its sends in plan order sends[soff[v] ..
   * soff[v+1]), the next one, and its CPU; per transfer the dependencies
   * not yet read, and who depends on it, rdep[roff[i] .. roff[i+1]) */
  size_t *soff, *sends, *snext, *dleft, *roff, *rdep;
  double *cpu;
} fluid_run;

void mg_fluid_init(mg_fluid *f, const mg_model *m, const mg_topo *t) {
  memset(f, 0, sizeof *f);
  f->m = *m;
  f->N = t->N;
  f->narc_ids = (uint64_t)t->N * 2u * (uint64_t)t->d;
}

void mg_fluid_free(mg_fluid *f) {
  free(f->src);
  free(f->dst);
  free(f->round);
  free(f->bytes);
  free(f->wb);
  free(f->fixed);
  free(f->off);
  free(f->arcs);
  free(f->boff);
  free(f->barcs);
  free(f->doff);
  free(f->deps);
  memset(f, 0, sizeof *f);
}

mg_status mg_fluid_add_round(mg_fluid *f, const mg_pricer *p, int64_t round, const size_t *doff, const size_t *deps,
                             mg_err *err) {
  size_t need = f->n + p->n;
  if (f->data) {
    size_t nd = doff && p->n ? doff[p->n] : 0;
    if (!mg_grow((void **)&f->doff, &f->capdoff, need + 1, sizeof *f->doff) ||
        !mg_grow((void **)&f->deps, &f->capdeps, f->ndeps + nd + 1, sizeof *f->deps))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the async clock's dependencies (%zu transfers)", need);
    for (size_t i = 0; i < p->n; i++) {
      f->doff[f->n + i] = f->ndeps;
      for (size_t j = doff ? doff[i] : 0; doff && j < doff[i + 1]; j++)
        f->deps[f->ndeps++] = deps[j];
    }
    f->doff[need] = f->ndeps;
  }
  if (!mg_grow((void **)&f->src, &f->capsrc, need, sizeof *f->src) ||
      !mg_grow((void **)&f->dst, &f->capdst, need, sizeof *f->dst) ||
      !mg_grow((void **)&f->round, &f->capround, need, sizeof *f->round) ||
      !mg_grow((void **)&f->bytes, &f->capbytes, need, sizeof *f->bytes) ||
      !mg_grow((void **)&f->wb, &f->capwb, need, sizeof *f->wb) ||
      !mg_grow((void **)&f->fixed, &f->capfixed, need, sizeof *f->fixed) ||
      !mg_grow((void **)&f->off, &f->capoff, need + 1, sizeof *f->off) ||
      !mg_grow((void **)&f->arcs, &f->caparcs, f->narcs + p->narcs + 1, sizeof *f->arcs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the ranks clock's schedule (%zu transfers)", need);
  int back = f->m.ack > 0 && p->boff;
  if (back && (!mg_grow((void **)&f->boff, &f->capboff, need + 1, sizeof *f->boff) ||
               !mg_grow((void **)&f->barcs, &f->capbarcs, f->nbarcs + p->nbarcs + 1, sizeof *f->barcs)))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the ranks clock's schedule (%zu transfers)", need);
  for (size_t i = 0; i < p->n; i++) {
    size_t k = f->n + i, na = p->off[i + 1] - p->off[i];
    f->src[k] = p->src[i];
    f->dst[k] = p->dst[i];
    f->round[k] = round;
    f->bytes[k] = p->bytes[i];
    f->wb[k] = p->wb[i];
    f->fixed[k] = p->fixed[i];
    f->off[k] = f->narcs;
    memcpy(f->arcs + f->narcs, p->arcs + p->off[i], na * sizeof *f->arcs);
    f->narcs += na;
    if (back) {
      size_t nb = p->boff[i + 1] - p->boff[i];
      f->boff[k] = f->nbarcs;
      memcpy(f->barcs + f->nbarcs, p->barcs + p->boff[i], nb * sizeof *f->barcs);
      f->nbarcs += nb;
    }
  }
  f->n = need;
  f->off[f->n] = f->narcs;
  if (back) f->boff[f->n] = f->nbarcs;
  return MG_OK;
}

/* ------------------------------------------------------------------ */
/* events: a binary heap on (time, sequence)                            */

static int before(const event *a, const event *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static mg_status push(fluid_run *r, double t, int kind, size_t id, mg_err *err) {
  if (!mg_grow((void **)&r->heap, &r->capheap, r->nheap + 1, sizeof *r->heap))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the ranks clock's events");
  size_t i = r->nheap++;
  event e = {t, r->seq++, kind, id};
  while (i > 0 && before(&e, &r->heap[(i - 1) / 2])) {
    r->heap[i] = r->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  r->heap[i] = e;
  return MG_OK;
}

static event pop(fluid_run *r) {
  event top = r->heap[0], last = r->heap[--r->nheap];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= r->nheap) break;
    if (c + 1 < r->nheap && before(&r->heap[c + 1], &r->heap[c])) c++;
    if (!before(&r->heap[c], &last)) break;
    r->heap[i] = r->heap[c];
    i = c;
  }
  if (r->nheap) r->heap[i] = last;
  return top;
}

/* ------------------------------------------------------------------ */
/* the fluid: max-min shares of the flows on the wire (fair.c's rules) */

/* The dense index of arc a in this sharing, made on first sight. */
static uint32_t arc_at(fluid_run *r, uint64_t a, size_t *na) {
  if (r->arc_seen[a] != r->mark) {
    r->arc_seen[a] = r->mark;
    r->arc_loc[a] = (uint32_t)*na;
    r->cap[*na] = 1.0 / r->f->m.tl;
    r->nun[*na] = 0;
    r->wsum[*na] = 0;
    (*na)++;
  }
  return r->arc_loc[a];
}

static void share(fluid_run *r) {
  const mg_fluid *f = r->f;
  const size_t *boff = f->m.ack > 0 ? f->boff : NULL;
  double ack = f->m.ack;
  size_t na = 0;
  r->mark++;
  for (size_t q = 0; q < r->nactive; q++) {
    size_t i = r->active[q];
    r->frozen[i] = 0;
    for (size_t j = f->off[i]; j < f->off[i + 1]; j++) {
      uint32_t k = arc_at(r, f->arcs[j], &na);
      r->nun[k]++;
      r->wsum[k] += r->wt[i];
    }
    for (size_t j = boff ? boff[i] : 0; boff && j < boff[i + 1]; j++) {
      uint32_t k = arc_at(r, f->barcs[j], &na);
      r->nun[k]++;
      r->wsum[k] += ack * r->wt[i];
    }
  }
  size_t unfrozen = r->nactive;
  while (unfrozen > 0) {
    double best = INFINITY;
    for (size_t k = 0; k < na; k++)
      if (r->nun[k] && r->cap[k] / r->wsum[k] < best) best = r->cap[k] / r->wsum[k];
    for (size_t q = 0; q < r->nactive; q++) {
      size_t i = r->active[q];
      if (!r->frozen[i] && r->bound[i] / r->wt[i] < best) best = r->bound[i] / r->wt[i];
    }
    if (!isfinite(best)) break;
    if (best < 0) best = 0;
    for (size_t q = 0; q < r->nactive; q++) {
      size_t i = r->active[q];
      if (r->frozen[i]) continue;
      int bounded = r->bound[i] / r->wt[i] <= best * (1 + 1e-12), hit = bounded;
      for (size_t j = f->off[i]; j < f->off[i + 1] && !hit; j++) {
        uint32_t k = r->arc_loc[f->arcs[j]];
        hit = r->cap[k] / r->wsum[k] <= best * (1 + 1e-12);
      }
      for (size_t j = boff ? boff[i] : 0; boff && j < boff[i + 1] && !hit; j++) {
        uint32_t k = r->arc_loc[f->barcs[j]];
        hit = r->cap[k] / r->wsum[k] <= best * (1 + 1e-12);
      }
      if (!hit) continue;
      r->frozen[i] = 1;
      r->rate[i] = bounded ? r->bound[i] : r->wt[i] * best; /* the value */
      unfrozen--;
    }
    for (size_t q = 0; q < r->nactive; q++) {
      size_t i = r->active[q];
      if (r->frozen[i] != 1) continue;
      r->frozen[i] = 2;
      for (size_t j = f->off[i]; j < f->off[i + 1]; j++) {
        uint32_t k = r->arc_loc[f->arcs[j]];
        r->cap[k] -= r->rate[i];
        r->nun[k]--;
        r->wsum[k] -= r->wt[i];
      }
      for (size_t j = boff ? boff[i] : 0; boff && j < boff[i + 1]; j++) {
        uint32_t k = r->arc_loc[f->barcs[j]];
        r->cap[k] -= ack * r->rate[i];
        r->nun[k]--;
        r->wsum[k] -= ack * r->wt[i];
      }
    }
  }
  /* values to bytes per second */
  for (size_t q = 0; q < r->nactive; q++)
    r->rate[r->active[q]] *= r->use[r->active[q]];
}

/* ------------------------------------------------------------------ */
/* the nodes' steps                                                     */

static mg_status go(fluid_run *r, size_t i, double t, mg_err *err) { return push(r, t, EV_GO, i, err); }

/* a send its sender waits for (not detached) */
static int held_send(const mg_fluid *f, size_t i) { return f->m.detach && f->bytes[i] >= (double)f->m.detach; }

/* Node v enters the step that starts at pos[v], at time t. */
static mg_status enter(fluid_run *r, uint32_t v, double t, mg_err *err) {
  const mg_fluid *f = r->f;
  mg_status st = MG_OK;
  size_t a = r->pos[v], b = a;
  if (a >= r->noff[v + 1]) {
    r->in_round[v] = -1;
    if (t > r->end) r->end = t;
    return MG_OK;
  }
  int64_t round = f->round[r->entries[a]];
  while (b < r->noff[v + 1] && f->round[r->entries[b]] == round)
    b++;
  r->stop[v] = b;
  r->enter[v] = t;
  r->in_round[v] = round;
  size_t sends = 0, recvs = 0, held = 0;
  for (size_t e = a; e < b; e++) {
    size_t i = r->entries[e];
    if (f->src[i] == v) {
      r->rel[i] = t + (double)(++sends) * f->m.o;
      held += held_send(f, i);
      r->src_in[i] = 1;
      uint32_t d = f->dst[i];
      if (r->in_round[d] == round) MG_CHECK(go(r, i, r->rel[i] > r->enter[d] ? r->rel[i] : r->enter[d], err));
    } else {
      recvs++;
      if (r->src_in[i]) MG_CHECK(go(r, i, r->rel[i] > t ? r->rel[i] : t, err));
    }
  }
  r->left[v] = recvs + (sends > 0) + held;
  if (sends) MG_CHECK(push(r, t + (double)sends * f->m.o, EV_SENT, v, err));
out:
  return st;
}

static mg_status step_done(fluid_run *r, uint32_t v, double t, mg_err *err) {
  if (--r->left[v] > 0) return MG_OK;
  r->pos[v] = r->stop[v];
  return enter(r, v, t, err);
}

static mg_status finish(fluid_run *r, size_t i, double t, mg_err *err) {
  return push(r, t + r->f->fixed[i], EV_ARRIVE, i, err);
}

/* timing=async: node v lets go, in plan order, every send whose
 * dependencies have all been read, o apart on its CPU, from time t. */
static mg_status try_send(fluid_run *r, uint32_t v, double t, mg_err *err) {
  mg_status st = MG_OK;
  while (r->snext[v] < r->soff[v + 1] && r->dleft[r->sends[r->snext[v]]] == 0) {
    size_t i = r->sends[r->snext[v]++];
    r->cpu[v] = (t > r->cpu[v] ? t : r->cpu[v]) + r->f->m.o;
    MG_CHECK(go(r, i, r->cpu[v], err));
  }
out:
  return st;
}

/* timing=async: transfer i has been read; what waited for it may go. */
static mg_status released(fluid_run *r, size_t i, double t, mg_err *err) {
  mg_status st = MG_OK;
  for (size_t k = r->roff[i]; k < r->roff[i + 1]; k++) {
    size_t j = r->rdep[k];
    if (--r->dleft[j] == 0) MG_CHECK(try_send(r, r->f->src[j], t, err));
  }
out:
  return st;
}

static mg_status run(fluid_run *r, double *end, mg_err *err) {
  mg_fluid *f = r->f;
  mg_status st = MG_OK;
  double t = 0;
  int dirty = 0;
  for (uint32_t v = 0; v < f->N; v++)
    MG_CHECK(f->data ? try_send(r, v, 0, err) : enter(r, v, 0, err));
  for (;;) {
    /* re-share once the events of this instant are all in */
    if (dirty && !(r->nheap > 0 && r->heap[0].t <= t)) share(r), dirty = 0;
    double dt = INFINITY;
    for (size_t q = 0; q < r->nactive; q++) {
      size_t i = r->active[q];
      if (r->rate[i] > 0 && r->rem[i] / r->rate[i] < dt) dt = r->rem[i] / r->rate[i];
    }
    if (r->nheap == 0 && !isfinite(dt)) break;
    if (r->nheap > 0 && r->heap[0].t - t <= dt) {
      /* the wire moves on to the next event */
      event e = pop(r);
      double step = e.t - t > 0 ? e.t - t : 0;
      for (size_t q = 0; q < r->nactive; q++)
        r->rem[r->active[q]] -= r->rate[r->active[q]] * step;
      if (e.t > t) t = e.t;
      size_t i = e.id;
      switch (e.kind) {
      case EV_GO:
        if (f->m.tl > 0 && f->bytes[i] > 0 && f->off[i + 1] > f->off[i]) {
          r->rem[i] = f->bytes[i];
          r->active[r->nactive++] = i;
          dirty = 1;
        } else {
          MG_CHECK(finish(r, i, t, err));
        }
        break;
      case EV_ARRIVE: {
        /* its receiver reads it after the ones that came before */
        uint32_t d = f->dst[i];
        double done = (t > r->rcv[d] ? t : r->rcv[d]) + f->m.orecv;
        r->rcv[d] = done;
        MG_CHECK(push(r, done, EV_READ, i, err));
        if (!f->data && held_send(f, i)) MG_CHECK(step_done(r, f->src[i], t, err));
        break;
      }
      case EV_READ:
        if (t > r->end) r->end = t;
        MG_CHECK(f->data ? released(r, i, t, err) : step_done(r, f->dst[i], t, err));
        break;
      default: /* EV_SENT: the node's CPU has let the step's sends go */
        MG_CHECK(step_done(r, (uint32_t)i, t, err));
        break;
      }
      continue;
    }
    if (!isfinite(dt)) {
      st = mg_fail(err, MG_ERR_INVALID, "the ranks clock stalled (a flow without bandwidth)");
      goto out;
    }
    /* the next flow ends */
    t += dt;
    size_t kept = 0;
    for (size_t q = 0; q < r->nactive; q++) {
      size_t i = r->active[q];
      r->rem[i] -= r->rate[i] * dt;
      if (r->rate[i] > 0 && r->rem[i] <= 1e-9 * f->bytes[i]) {
        MG_CHECK(finish(r, i, t, err));
      } else {
        r->active[kept++] = i;
      }
    }
    r->nactive = kept;
    dirty = 1;
  }
  for (uint32_t v = 0; f->data && v < f->N; v++)
    if (r->snext[v] < r->soff[v + 1]) {
      st = mg_fail(err, MG_ERR_INVALID, "the async clock ended with node %u's transfer %zu waiting", v,
                   r->sends[r->snext[v]]);
      goto out;
    }
  for (uint32_t v = 0; !f->data && v < f->N; v++)
    if (r->in_round[v] >= 0) {
      st = mg_fail(err, MG_ERR_INVALID, "the ranks clock ended with node %u waiting in round %lld", v,
                   (long long)r->in_round[v]);
      goto out;
    }
  *end = r->end;
out:
  return st;
}

mg_status mg_fluid_end(mg_fluid *f, double *end, mg_err *err) {
  fluid_run r;
  mg_status st = MG_OK;
  size_t n = f->n, N = f->N;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.noff = mg_calloc(N + 1, sizeof(size_t));
  r.entries = mg_calloc(2 * n + 1, sizeof(size_t));
  r.pos = mg_calloc(N + 1, sizeof(size_t));
  r.stop = mg_calloc(N + 1, sizeof(size_t));
  r.enter = mg_calloc(N + 1, sizeof(double));
  r.rcv = mg_calloc(N + 1, sizeof(double));
  r.left = mg_calloc(N + 1, sizeof(size_t));
  r.in_round = mg_calloc(N + 1, sizeof(int64_t));
  r.rel = mg_calloc(n + 1, sizeof(double));
  r.rem = mg_calloc(n + 1, sizeof(double));
  r.rate = mg_calloc(n + 1, sizeof(double));
  r.wt = mg_calloc(n + 1, sizeof(double));
  r.bound = mg_calloc(n + 1, sizeof(double));
  r.use = mg_calloc(n + 1, sizeof(double));
  r.src_in = mg_calloc(n + 1, 1);
  r.frozen = mg_calloc(n + 1, 1);
  r.active = mg_calloc(n + 1, sizeof(size_t));
  r.arc_loc = mg_calloc(f->narc_ids + 1, sizeof(uint32_t));
  r.arc_seen = mg_calloc(f->narc_ids + 1, sizeof(uint32_t));
  r.cap = mg_calloc(f->narc_ids + 1, sizeof(double));
  r.wsum = mg_calloc(f->narc_ids + 1, sizeof(double));
  r.nun = mg_calloc(f->narc_ids + 1, sizeof(uint32_t));
  if (!r.noff || !r.entries || !r.pos || !r.stop || !r.enter || !r.rcv || !r.left || !r.in_round || !r.rel || !r.rem ||
      !r.rate || !r.wt || !r.bound || !r.use || !r.src_in || !r.frozen || !r.active || !r.arc_loc || !r.arc_seen ||
      !r.cap || !r.wsum || !r.nun) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the ranks clock (%zu transfers)", n);
    goto out;
  }
  /* every node's sends and receives, in round order (the transfers came
   * round by round, each round in plan order) */
  for (size_t i = 0; i < n; i++) {
    r.noff[f->src[i] + 1]++;
    r.noff[f->dst[i] + 1]++;
    size_t h = f->off[i + 1] - f->off[i];
    r.wt[i] = f->m.share == MG_SHARE_HOPS && h > 1 ? 1.0 / (double)h : 1.0;
    r.bound[i] = 1.0 / f->m.tl; /* a value takes at most one arc's capacity */
    r.use[i] = f->m.nbwf && f->wb[i] > 0 ? f->bytes[i] / f->wb[i] : 1.0;
  }
  for (size_t v = 0; v < N; v++)
    r.noff[v + 1] += r.noff[v];
  for (size_t v = 0; v < N; v++)
    r.pos[v] = r.noff[v];
  for (size_t i = 0; i < n; i++) {
    r.entries[r.pos[f->src[i]]++] = i;
    r.entries[r.pos[f->dst[i]]++] = i;
  }
  for (size_t v = 0; v < N; v++)
    r.pos[v] = r.noff[v], r.in_round[v] = INT64_MIN;
  if (f->data) {
    r.soff = mg_calloc(N + 1, sizeof(size_t));
    r.sends = mg_calloc(n + 1, sizeof(size_t));
    r.snext = mg_calloc(N + 1, sizeof(size_t));
    r.dleft = mg_calloc(n + 1, sizeof(size_t));
    r.roff = mg_calloc(n + 2, sizeof(size_t));
    r.rdep = mg_calloc(f->ndeps + 1, sizeof(size_t));
    r.cpu = mg_calloc(N + 1, sizeof(double));
    if (!r.soff || !r.sends || !r.snext || !r.dleft || !r.roff || !r.rdep || !r.cpu) {
      st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the async clock (%zu transfers)", n);
      goto out;
    }
    for (size_t i = 0; i < n; i++) {
      r.soff[f->src[i] + 1]++;
      r.dleft[i] = f->doff[i + 1] - f->doff[i];
      for (size_t k = f->doff[i]; k < f->doff[i + 1]; k++)
        r.roff[f->deps[k] + 1]++;
    }
    for (size_t v = 0; v < N; v++)
      r.soff[v + 1] += r.soff[v];
    for (size_t i = 0; i < n; i++)
      r.roff[i + 1] += r.roff[i];
    for (size_t v = 0; v < N; v++)
      r.snext[v] = r.soff[v];
    for (size_t i = 0; i < n; i++) /* plan order: the transfers came round by round */
      r.sends[r.snext[f->src[i]]++] = i;
    for (size_t v = 0; v < N; v++)
      r.snext[v] = r.soff[v];
    size_t *fill = mg_calloc(n + 1, sizeof(size_t));
    if (!fill) {
      st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the async clock (%zu transfers)", n);
      goto out;
    }
    for (size_t i = 0; i < n; i++)
      for (size_t k = f->doff[i]; k < f->doff[i + 1]; k++) {
        size_t g = f->deps[k];
        r.rdep[r.roff[g] + fill[g]++] = i;
      }
    free(fill);
  }
  st = run(&r, end, err);
out:
  free(r.soff);
  free(r.sends);
  free(r.snext);
  free(r.dleft);
  free(r.roff);
  free(r.rdep);
  free(r.cpu);
  free(r.heap);
  free(r.noff);
  free(r.entries);
  free(r.pos);
  free(r.stop);
  free(r.enter);
  free(r.rcv);
  free(r.left);
  free(r.in_round);
  free(r.rel);
  free(r.rem);
  free(r.rate);
  free(r.wt);
  free(r.bound);
  free(r.use);
  free(r.src_in);
  free(r.frozen);
  free(r.active);
  free(r.arc_loc);
  free(r.arc_seen);
  free(r.cap);
  free(r.wsum);
  free(r.nun);
  return st;
}

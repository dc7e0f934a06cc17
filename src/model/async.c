/* The asynchronous clock: what a schedule takes when no rank waits for a
 * global round barrier.
 *
 * Real MPI ranks start a round's sends as soon as what they carry has
 * arrived (the dataflow view of LogP: Culler et al., "LogP: Towards a
 * Realistic Model of Parallel Computation"). Here every transfer starts at
 * the latest of (a) the arrival at its sender of every item it carries and
 * (b) the moment its sender's CPU is free (o per message, in plan order,
 * across rounds); it leaves o later, takes its wire time (its price under
 * the round's contention rule, computed by the pricer from the arcs its
 * round shares: timeline.c), and its receiver spends `or` on it after the
 * later of its arrival and the end of the receiver's previous receive.
 * Its items have arrived at the receiver then. The schedule costs its last
 * finish. The verifier's rules are untouched: this is only a clock.
 *
 * State: the arrival time of every (node, item) of a gossip (items are
 * copied), of every block at its current holder for an exchange (blocks
 * move), and two CPU clocks per node; the round's carried items are kept
 * until the round ends, because items land at the end of a round.
 *
 * timing=ranks is the clock of an MPI executor that runs the schedule
 * round by round without a barrier (src/mpi/exec.c: post the round's
 * receives, post its sends, one MPI_Waitall; a rank skips the rounds where
 * it has nothing to do): a node enters its next round when every message
 * it sent or received in its previous one is done; its sends leave one
 * after the other at o each from there; a message moves once it has left
 * and its receiver has entered the round (the receive is posted: SimGrid
 * starts a communication when both sides are there), and is done when its
 * receiver has spent or on it. No per-item state: two clocks per node.
 *
 * Under contention=fair both clocks hand the rounds to the fluid (fluid.c),
 * which shares the arcs among the messages of every round on the wire at
 * once. For timing=async the fluid needs each transfer's dependencies
 * instead of item times: t_item then holds who delivered an item to its
 * holder (the fluid's transfer index + 1; 0 for what a node held from the
 * start), and a transfer waits for the distinct deliverers of its items:
 * the receives the MPI executor's sync=data waits for (src/mpi/plan.c). */
#include "model.h"

#include <math.h>
#include <string.h>

mg_status mg_async_state_bytes(mg_timing timing, mg_problem problem, uint32_t N, uint64_t nitems, uint64_t arc_slots,
                               uint64_t *bytes, mg_err *err) {
  uint64_t cells = timing == MG_TIMING_RANKS ? 0 : nitems, b, x, f;
  if (timing != MG_TIMING_RANKS && problem == MG_GOSSIP && !mg_mul_ok(N, nitems, &cells)) goto over;
  if (!mg_mul_ok(cells, sizeof(double), &b) || !mg_mul_ok(N, 3 * sizeof(double), &x) || !mg_add_ok(b, x, &b)) goto over;
  /* arc_free and port_free (mg_async_round), counted whether or not the
   * model needs them: a few bytes per arc */
  if (!mg_add_ok(arc_slots, 2 * (uint64_t)N, &f) || !mg_mul_ok(f, sizeof(double), &f) || !mg_add_ok(b, f, &b))
    goto over;
  *bytes = b;
  return MG_OK;
over:
  return mg_fail(err, MG_ERR_TOO_LARGE, "the asynchronous clock's state for %u nodes overflows 64 bits", N);
}

mg_status mg_async_init(mg_async *a, mg_timing timing, mg_problem problem, uint32_t N, uint64_t nitems,
                        uint64_t arc_slots, mg_err *err) {
  uint64_t bytes;
  memset(a, 0, sizeof *a);
  mg_status st = mg_async_state_bytes(timing, problem, N, nitems, arc_slots, &bytes, err);
  if (st != MG_OK) return st;
  a->timing = timing;
  a->problem = problem;
  a->N = N;
  a->nitems = nitems;
  int ranks = timing == MG_TIMING_RANKS;
  uint64_t cells = ranks ? 1 : problem == MG_GOSSIP ? (uint64_t)N * nitems : nitems;
  a->t_item = mg_calloc(cells, sizeof(double));
  a->cpu = mg_calloc(N, sizeof(double));
  a->rcv = mg_calloc(N, sizeof(double));
  a->round_at = mg_calloc(N, sizeof(double));
  if (!a->t_item || !a->cpu || !a->rcv || !a->round_at) {
    mg_async_free(a);
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the asynchronous clock (%llu arrival times)",
                   (unsigned long long)cells);
  }
  if (!ranks && problem == MG_GOSSIP) {
    /* a node holds its own pieces (items origin*P .. origin*P+P-1) from
     * the start; everything else has not arrived */
    uint64_t P = nitems / N;
    for (uint64_t v = 0; v < N; v++)
      for (uint64_t it = 0; it < nitems; it++)
        a->t_item[v * nitems + it] = it / P == v ? 0.0 : INFINITY;
  }
  return MG_OK;
}

void mg_async_use_fluid(mg_async *a, const mg_model *m, const mg_topo *t) {
  a->fluid = 1;
  mg_fluid_init(&a->fl, m, t);
  a->fl.data = a->timing == MG_TIMING_ASYNC;
}

mg_status mg_async_finish(mg_async *a, mg_err *err) {
  if (!a->fluid) return MG_OK;
  return mg_fluid_end(&a->fl, &a->end, err);
}

void mg_async_free(mg_async *a) {
  mg_fluid_free(&a->fl);
  free(a->t_item);
  free(a->cpu);
  free(a->rcv);
  free(a->round_at);
  free(a->ready);
  free(a->ioff);
  free(a->items);
  free(a->done);
  free(a->doff);
  free(a->dep);
  free(a->seen);
  free(a->arc_free);
  free(a->port_free);
  memset(a, 0, sizeof *a);
}

void mg_async_begin(mg_async *a) {
  a->n = 0;
  a->nitem_used = 0;
  a->ndep = 0;
}

/* Fluid async: item `who` (t_item's value) came by an earlier transfer;
 * transfer `key` (its fluid index + 1) depends on it, once. */
static mg_status add_dep(mg_async *a, double who, uint64_t key, mg_err *err) {
  if (!(who >= 1) || !isfinite(who)) return MG_OK; /* held from the start */
  size_t g = (size_t)who - 1;
  if (g >= a->capseen) {
    size_t old = a->capseen;
    if (!mg_grow((void **)&a->seen, &a->capseen, a->fl.n > g + 1 ? a->fl.n : g + 1, sizeof *a->seen))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock's dependencies");
    memset(a->seen + old, 0, (a->capseen - old) * sizeof *a->seen);
  }
  if (a->seen[g] == key) return MG_OK;
  a->seen[g] = key;
  if (!mg_grow((void **)&a->dep, &a->capdep, a->ndep + 1, sizeof *a->dep))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock's dependencies");
  a->dep[a->ndep++] = g;
  return MG_OK;
}

static mg_status push_item(mg_async *a, uint64_t it, mg_err *err) {
  if (!mg_grow((void **)&a->items, &a->capitems, a->nitem_used + 1, sizeof *a->items))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock's items");
  a->items[a->nitem_used++] = it;
  return MG_OK;
}

mg_status mg_async_add(mg_async *a, uint32_t src, const uint64_t *bits, size_t nwords, const uint64_t *list,
                       size_t nlist, mg_err *err) {
  mg_status st = MG_OK;
  size_t i = a->n;
  if (!mg_grow((void **)&a->ready, &a->capready, i + 1, sizeof *a->ready) ||
      !mg_grow((void **)&a->ioff, &a->capioff, i + 2, sizeof *a->ioff))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock");
  a->ioff[i] = a->nitem_used;
  int deps = a->fluid && a->fl.data;
  uint64_t key = (uint64_t)a->fl.n + i + 1;
  if (deps) {
    if (!mg_grow((void **)&a->doff, &a->capdoff, i + 2, sizeof *a->doff))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock");
    a->doff[i] = a->ndep;
  }
  double ready = 0;
  if (a->timing == MG_TIMING_RANKS) {
    ready = a->round_at[src]; /* the node's round, not its items */
  } else if (bits) {
    const double *row = a->t_item + (uint64_t)src * a->nitems;
    for (size_t w = 0; w < nwords; w++)
      for (uint64_t x = bits[w]; x; x &= x - 1) {
        uint64_t it = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(x);
        if (row[it] > ready) ready = row[it];
        if (deps) MG_CHECK(add_dep(a, row[it], key, err));
        MG_CHECK(push_item(a, it, err));
      }
  } else {
    for (size_t k = 0; k < nlist; k++) {
      if (a->t_item[list[k]] > ready) ready = a->t_item[list[k]];
      if (deps) MG_CHECK(add_dep(a, a->t_item[list[k]], key, err));
      MG_CHECK(push_item(a, list[k], err));
    }
  }
  if (deps) a->doff[i + 1] = a->ndep;
  a->ready[i] = ready;
  a->ioff[i + 1] = a->nitem_used;
  a->n++;
out:
  return st;
}

mg_status mg_async_end(mg_async *a, mg_pricer *p, mg_err *err) {
  const mg_model *m = &p->m;
  mg_status st = MG_OK;
  size_t n = a->n;
  if (n != p->n)
    return mg_fail(err, MG_ERR_INVALID, "the asynchronous clock saw %zu transfers, the pricer %zu", n, p->n);
  if (a->fluid) {
    size_t base = a->fl.n;
    int data = a->fl.data;
    MG_CHECK(mg_fluid_add_round(&a->fl, p, a->rounds++, data ? a->doff : NULL, data ? a->dep : NULL, err));
    if (!data) return MG_OK;
    /* the items land: who delivered them (a copy's first, a block's last) */
    for (size_t i = 0; i < n; i++) {
      double who = (double)(base + i + 1);
      if (a->problem == MG_GOSSIP) {
        double *row = a->t_item + (uint64_t)p->dst[i] * a->nitems;
        for (size_t k = a->ioff[i]; k < a->ioff[i + 1]; k++)
          if (isinf(row[a->items[k]])) row[a->items[k]] = who;
      } else {
        for (size_t k = a->ioff[i]; k < a->ioff[i + 1]; k++)
          a->t_item[a->items[k]] = who;
      }
    }
    return MG_OK;
  }
  if (!mg_grow((void **)&a->done, &a->capdone, n + 1, sizeof *a->done))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock");
  int ranks = a->timing == MG_TIMING_RANKS;
  /* Under strict and shared a round's wire times share its arcs among its
   * own transfers only, so the arcs serve the rounds in order: a transfer
   * moves once every arc of its route has delivered the earlier rounds'
   * transfers on it. Without this, rounds that need nothing from each
   * other would cross the same arc at once at full speed each (a review:
   * pairwise exchange on 9x9 at 0.046 of the bisection bound). */
  int arcs = !p->fair;
  if (arcs && !a->arc_free && !(a->arc_free = mg_calloc(p->nslots ? p->nslots : 1, sizeof(double))))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock's arcs");
  /* one-port: a node sends one message and receives one at a time, also
   * across rounds (a round has at most one of each) */
  int ports = arcs && m->port == MG_PORT_ONE;
  if (ports && !a->port_free && !(a->port_free = mg_calloc(2 * (size_t)a->N, sizeof(double))))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the asynchronous clock's ports");
  /* senders, in plan order: start when the items (ranks: the node's
   * round) and the CPU are there; ranks: move once the receiver is in */
  for (size_t i = 0; i < n; i++) {
    uint32_t s = p->src[i];
    double start = a->ready[i] > a->cpu[s] ? a->ready[i] : a->cpu[s];
    a->cpu[s] = start + m->o;
    double go = a->cpu[s];
    if (ranks && a->round_at[p->dst[i]] > go) go = a->round_at[p->dst[i]];
    if (arcs)
      for (size_t k = p->off[i]; k < p->off[i + 1]; k++)
        if (a->arc_free[p->arcs[k]] > go) go = a->arc_free[p->arcs[k]];
    if (ports) {
      if (a->port_free[s] > go) go = a->port_free[s];
      if (a->port_free[a->N + p->dst[i]] > go) go = a->port_free[a->N + p->dst[i]];
    }
    a->done[i] = go;
    p->order[i] = (mg_arrival){p->dst[i], i, go + p->wire[i]};
  }
  if (arcs)
    for (size_t i = 0; i < n; i++) {
      double t = p->order[i].t;
      for (size_t k = p->off[i]; k < p->off[i + 1]; k++)
        if (t > a->arc_free[p->arcs[k]]) a->arc_free[p->arcs[k]] = t;
      if (ports) {
        if (t > a->port_free[p->src[i]]) a->port_free[p->src[i]] = t;
        if (t > a->port_free[a->N + p->dst[i]]) a->port_free[a->N + p->dst[i]] = t;
      }
    }
  if (p->fair && m->tl > 0 && n > 0) {
    /* fair sharing among the flows as they join, from the earliest */
    double g0 = INFINITY;
    for (size_t i = 0; i < n; i++)
      if (a->done[i] < g0) g0 = a->done[i];
    for (size_t i = 0; i < n; i++)
      a->done[i] = (a->done[i] - g0) / m->tl;
    MG_CHECK(mg_fair_finish_at(p, a->done, p->work, err));
    for (size_t i = 0; i < n; i++)
      p->order[i].t = g0 + p->fixed[i] + p->work[i] * m->tl;
  }
  /* receivers, in order of arrival */
  mg_arrivals_sort(p->order, n);
  for (size_t q = 0; q < n; q++) {
    const mg_arrival *x = &p->order[q];
    double t = (x->t > a->rcv[x->dst] ? x->t : a->rcv[x->dst]) + m->orecv;
    a->rcv[x->dst] = t;
    a->done[x->i] = t;
    if (t > a->end) a->end = t;
    /* ranks: a send that is not detached holds its sender until it arrives */
    if (ranks && m->detach && p->bytes[x->i] >= (double)m->detach && x->t > a->round_at[p->src[x->i]])
      a->round_at[p->src[x->i]] = x->t;
  }
  if (ranks) {
    /* a node's next round starts when all its messages of this one are
     * done (its sends once its CPU let them go: they are detached) */
    for (size_t i = 0; i < n; i++) {
      uint32_t s = p->src[i], d = p->dst[i];
      if (a->cpu[s] > a->round_at[s]) a->round_at[s] = a->cpu[s];
      if (a->done[i] > a->round_at[d]) a->round_at[d] = a->done[i];
    }
    return MG_OK;
  }
  /* the items land: copies keep their first arrival, blocks move */
  for (size_t i = 0; i < n; i++) {
    double t = a->done[i];
    if (a->problem == MG_GOSSIP) {
      double *row = a->t_item + (uint64_t)p->dst[i] * a->nitems;
      for (size_t k = a->ioff[i]; k < a->ioff[i + 1]; k++)
        if (t < row[a->items[k]]) row[a->items[k]] = t;
    } else {
      for (size_t k = a->ioff[i]; k < a->ioff[i + 1]; k++)
        a->t_item[a->items[k]] = t;
    }
  }
out:
  return st;
}

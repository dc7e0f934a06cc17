/* A round as a timeline of its messages: LogGP-style CPU overheads.
 *
 * LogP (Culler, Karp, Patterson, Sahay, Schauser, Santos, von Eicken,
 * "LogP: Towards a Realistic Model of Parallel Computation") and LogGP
 * (Alexandrov, Ionescu, Schauser, Scheiman, "LogGP: Incorporating Long
 * Messages into the LogP Model") charge a message o of its sender's CPU,
 * a latency L, G per byte, and o of its receiver's CPU; a processor's CPU
 * does one thing at a time. Here a node's messages of a round leave one
 * after the other at o each (in plan order, on whatever ports), each then
 * takes its wire time (its price by the round's contention rule: alone
 * under strict, with the busiest arc of its route under shared, its fair
 * share under fair), and its receiver spends `or` on each message it
 * receives, in order of arrival. docs/models.md writes the rules out and
 * maps L ~ ts + hops*td, G ~ tl. The asynchronous clock (async.c) uses the
 * same wire times. */
#include "model.h"

#include <stdlib.h>

/* The wire time of each transfer of the round: what it takes once its
 * sender's CPU has let it go. round0 is the round's price without
 * overheads (the circuit round of Delmas and Perennes under strict). */
mg_status mg_timeline_wires(mg_pricer *p, double round0, mg_err *err) {
  const mg_model *m = &p->m;
  int released = p->fair && m->o > 0 && m->tl > 0;
  if (released) {
    /* the flows join the arcs as their sender's CPU lets them go */
    double *rel = mg_calloc(p->n ? p->n : 1, sizeof(double));
    if (!rel) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the release times");
    for (size_t i = 0; i < p->n; i++)
      rel[i] = (p->cpu_slot[i] + 1.0) * m->o / m->tl;
    mg_status st = mg_fair_finish_at(p, rel, p->work, err);
    free(rel);
    if (st != MG_OK) return st;
  }
  for (size_t i = 0; i < p->n; i++) {
    double w;
    if (released) {
      w = p->fixed[i] + p->work[i] * m->tl - (p->cpu_slot[i] + 1.0) * m->o;
    } else if (p->fair) {
      w = p->fixed[i] + p->work[i] * m->tl; /* price_fair left the shares */
    } else if (p->routes) {
      w = mg_saf_shared_wire(p, i); /* every hop waits for its arc's bytes */
    } else if (m->contention == MG_CONT_SHARED) {
      /* its own latencies plus the load of the busiest arc it crosses */
      double load = 0;
      for (size_t k = p->off[i]; k < p->off[i + 1]; k++)
        if (p->arc_bytes[p->arcs[k]] > load) load = p->arc_bytes[p->arcs[k]];
      double fixed = p->fixed[i];
      if (m->switching != MG_SW_SAF && m->o == 0) {
        uint32_t deg = (uint32_t)mg_topo_in_degree(&p->topo, p->src[i]);
        uint32_t k = p->send_count[p->src[i]];
        fixed += m->ts * (double)((deg ? (k + deg - 1) / deg : 1) - 1);
      }
      w = fixed + load * m->tl;
      if (p->msg[i] > w) w = p->msg[i]; /* no faster than alone (bwf) */
    } else if (m->switching == MG_SW_CIRCUIT) {
      w = round0; /* every circuit of the round is set up together */
    } else {
      w = p->msg[i];
    }
    p->wire[i] = w;
  }
  return MG_OK;
}

static int by_receiver(const void *a, const void *b) {
  const mg_arrival *x = a, *y = b;
  if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

void mg_arrivals_sort(mg_arrival *a, size_t n) { qsort(a, n, sizeof *a, by_receiver); }

mg_status mg_timeline_round(mg_pricer *p, double *end, mg_err *err) {
  const mg_model *m = &p->m;
  (void)err;
  double last = 0, busy = 0;
  for (size_t i = 0; i < p->n; i++)
    p->order[i] = (mg_arrival){p->dst[i], i, (p->cpu_slot[i] + 1.0) * m->o + p->wire[i]};
  mg_arrivals_sort(p->order, p->n);
  for (size_t q = 0; q < p->n; q++) {
    const mg_arrival *a = &p->order[q];
    if (q == 0 || a->dst != p->order[q - 1].dst) busy = 0;
    busy = (a->t > busy ? a->t : busy) + m->orecv;
    if (busy > last) last = busy;
  }
  *end = last;
  return MG_OK;
}

/* Lower bounds. Gossip: the terms of seed 000 Lemma 1 (concentrating all
 * data in one node), generalised to any mesh or torus and to one-port.
 * Exchange: seed 001 Lemma 8 generalised: the blocks that must cross the
 * narrowest cut, over the arcs of that cut; and per-node injection. Each
 * term is a valid bound on its own; the bound is their maximum. */
#include "../util/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void add(mg_bound *b, const char *name, double v, const char *src, int valid, const char *note) {
  if (b->n == MG_MAX_BOUND_TERMS) return;
  mg_bound_term *t = &b->term[b->n++];
  snprintf(t->name, sizeof t->name, "%s", name);
  snprintf(t->source, sizeof t->source, "%s", src);
  snprintf(t->note, sizeof t->note, "%s", note ? note : "");
  t->value = v;
  t->valid = valid;
  if (valid && v > b->lower_bound) b->lower_bound = v;
}

/* Smallest in-degree over all nodes: min over nodes of the product form
 * is attained at a corner, so compute it directly. */
static int min_in_degree(const mg_topo *t) {
  int deg = 0;
  for (int k = 0; k < t->d; k++) deg += t->wrap[k] ? 2 : 1;
  return deg;
}
static int max_in_degree(const mg_topo *t) {
  int deg = 0;
  for (int k = 0; k < t->d; k++) deg += (t->wrap[k] || t->n[k] > 2) ? 2 : 1;
  return deg;
}

/* Smallest t with (base)^t >= N. */
static double log_ceil(double N, double base) {
  double t = 0, reach = 1;
  while (reach < N) {
    reach *= base;
    t += 1;
  }
  return t;
}

static void gossip_bounds(const mg_problem_spec *pb, mg_bound *b) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  double N = t->N, L = pb->bytes;
  char note[96];
  if (m->switching == MG_SW_BUS) {
    /* mesh-bus bounds are the business of the mesh-bus module */
    add(b, "steps", log_ceil(N, 3.0) * m->ts, "broadcast fan-in (two buses per node)", 1,
        "a node hears at most two buses per step");
    return;
  }
  int dmin = min_in_degree(t), dmax = max_in_degree(t);
  int one = m->port == MG_PORT_ONE;
  double in = one ? 1 : dmin;
  snprintf(note, sizeof note, "(N-1)*L bytes over %s", one ? "one receive per round" : "the least in-degree");
  add(b, "bandwidth", (N - 1) * L / in * m->tl, "seed 000 Lemma 1 (N*l*t_l/deg)", 1, note);
  double base = one ? 2.0 : (double)dmax + 1.0;
  double s = log_ceil(N, base);
  snprintf(note, sizeof note, "information grows at most %gx per round", base);
  if (m->switching == MG_SW_SAF) {
    add(b, "distance", (double)mg_topo_diameter(t) * m->ts, "store-and-forward: D hops, each a start-up", 1,
        "one start-up per hop along the diameter");
  } else {
    add(b, "startups", s * m->ts, one ? "one-port doubling (log2 N)" : "seed 000 Lemma 1 (log N / log(deg+1))", 1, note);
    add(b, "distance", (double)mg_topo_diameter(t) * m->td, "seed 000 Lemma 1 (D*t_d)", 1, "the diameter");
  }
}

static void exchange_bounds(const mg_problem_spec *pb, mg_bound *b) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  double N = t->N, B = pb->bytes, best = 0;
  int bestk = 0;
  char note[96];
  /* every cut of one dimension into two slabs [0,c) and [c,n) */
  for (int k = 0; k < t->d; k++) {
    double n = t->n[k], slab = N / n, arcs = t->wrap[k] ? 2 * slab : slab;
    for (uint32_t c = 1; c < t->n[k]; c++) {
      double a = c * slab, rest = N - a;
      double v = a * rest * B / arcs * m->tl;
      if (v > best) best = v, bestk = k;
    }
  }
  snprintf(note, sizeof note, "narrowest cut across dimension %d", bestk);
  add(b, "bisection", best, "seed 001 Lemma 8, any torus or mesh", 1, note);
  int one = m->port == MG_PORT_ONE;
  double out = one ? 1 : min_in_degree(t);
  add(b, "injection", (N - 1) * B / out * m->tl, "each node sends N-1 blocks", 1,
      one ? "one send per round" : "over the least degree");
  if (one) add(b, "startups", log_ceil(N, 2.0) * m->ts, "one-port doubling (log2 N)", 1, "a block must reach N-1 nodes");
  else
    add(b, "startups", log_ceil(N, (double)max_in_degree(t) + 1) * m->ts, "fan-out (log N / log(deg+1))", 1,
        "a node's blocks reach at most (deg+1)^t nodes");
  add(b, "distance", (double)mg_topo_diameter(t) * m->td, "the diameter", 1, "");
}

/* The round and start-up terms count how far information spreads when
 * every message of a node needs an arc of its own (seed 000 Lemma 1's
 * (deg+1)-fold growth, seed 004's arc-disjoint dipaths). With shared arcs
 * (contention=shared or fair) an all-port node may send to every node in
 * one round: those terms are kept for reference but are no bound, and one
 * start-up is. The bandwidth and cut terms bound the busiest-arc loads and
 * stay valid. */
static void shared_arcs(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  if (m->contention == MG_CONT_STRICT || m->port == MG_PORT_ONE || m->switching == MG_SW_BUS ||
      m->switching == MG_SW_SAF)
    return;
  b->lower_bound = 0;
  for (int i = 0; i < b->n; i++) {
    mg_bound_term *t = &b->term[i];
    if (t->valid && (!strncmp(t->name, "startups", 8) || !strncmp(t->name, "rounds", 6))) {
      t->valid = 0;
      snprintf(t->note, sizeof t->note, "not a bound with shared arcs: one round can reach every node");
    }
    if (t->valid && t->value > b->lower_bound) b->lower_bound = t->value;
  }
  add(b, "one round", m->ts, "at least one start-up", 1, "");
}

mg_status mg_lower_bound(const mg_problem_spec *pb, mg_bound *b, mg_err *err) {
  (void)err;
  memset(b, 0, sizeof *b);
  if (pb->problem == MG_GOSSIP) gossip_bounds(pb, b);
  else exchange_bounds(pb, b);
  shared_arcs(pb, b);
  return MG_OK;
}

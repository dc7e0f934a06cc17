/*
 * exchange-allport — complete exchange on a torus or mesh that keeps every
 * arc busy in both directions: the d dimension-ordered stages of
 * exchange-lines (exchange_lines.c) run at once, on d classes of blocks
 * with rotated dimension orders.
 *
 * Derivation (ours, after the all-port idea of Suh and Yalamanchili's
 * "All-to-all communication with minimum start-up costs in 2D/3D tori and
 * meshes" and of Tseng, Lin, Gupta and Panda's "Bandwidth-optimal complete
 * exchange on wormhole-routed 2D/3D torus networks", which route disjoint
 * sets of blocks along different dimensions at the same time). Block (s, t)
 * belongs to class c = (sum_i x_i(s) + sum_i x_i(t)) mod d. Class c takes
 * the dimensions in the order c, c+1, ..., c+d-1 (mod d). Round j (j = 0
 * .. d-1) runs stage j of every class: class c along dimension (c+j) mod d,
 * where every node sends to each other node v of its line the blocks of
 * class c it holds whose destination has v's coordinate (combining, one
 * message per line node per class). So in every round each dimension
 * carries one class, each node sends in all 2d directions at once, and a
 * node starts sum_k (n_k - 1) messages per round: d * sum_k (n_k - 1) in
 * all, O(d k) rather than the N - 1 of the direct exchange.
 *
 * The class function splits every message evenly when the other extents
 * are even: in 2D, a message of round 0 along x carries the blocks of u for
 * destinations in column v with y of one parity (n_y/2 blocks); one of
 * round 1 along y the blocks from sources of u's row with x of one parity
 * (n_x/2 blocks). Each dimension then carries 1/d of the data per round,
 * so the transfer term is the bisection bound (Tseng, Ni, Sheu 1999 Lemma 8) rather
 * than d times it: on a k x k torus, k even, N k b tl/8 in all.
 *
 * Cost under contention=shared, wormhole or circuit, 2D with even extents
 * (src/model/price.c prices a round by its worst node's start-ups, its
 * longest route and its busiest arc), per round (both rounds alike):
 *   ts ceil((n_x + n_y - 2)/deg) + max_k h_k td + max_k A_k (N/(2 n_k)) b tl
 * with h_k and A_k (messages on the busiest arc of a line) as in
 * exchange_lines.c; on torus:8x8: 2 (4 ts + 4 td) + 64 b tl, and 64 b tl is
 * the bisection bound N k b tl/8. Other shapes are verified and priced by
 * the simulator (odd extents and d = 3 split the classes unevenly by at
 * most one block per message).
 *
 * Trace, torus:2x2 (ids x + 2y, colour x + y mod 2): round 0: class 0
 * along x: 0->1 {(0,1)}, 1->0 {(1,2)}, ...; class 1 along y: 0->2
 * {(0,2),(0,3)}, ...; round 1: class 0 along y, class 1 along x.
 */
#include "../algo_internal.h"

static mg_status allport_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int order;
  mg_status st = mg_xlines_order(ps, &order, err);
  return st != MG_OK ? st : mg_xlines_check(pb, "exchange-allport", err);
}

static mg_status allport_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return mg_xlines_generate(pb, ps, sink, "exchange-allport", pb->topo.d, err);
}

static mg_status allport_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  const mg_model *m = &pb->model;
  const mg_topo *t = &pb->topo;
  if (m->contention != MG_CONT_SHARED || (m->switching != MG_SW_WORMHOLE && m->switching != MG_SW_CIRCUIT))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-allport: contention=shared, wormhole or circuit");
  if (t->d != 2 || t->n[0] % 2 || t->n[1] % 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-allport: 2D grids with even extents");
  double hop = 0, load = 0;
  for (int k = 0; k < 2; k++) {
    double h = mg_xlines_hops(t, k), a = mg_xlines_arc_messages(t, k) * (double)(t->N / (2 * t->n[k]));
    if (h > hop) hop = h;
    if (a > load) load = a;
  }
  double round = mg_xlines_startups(t, t->n[0] + t->n[1] - 2) * m->ts + hop * m->td + load * pb->bytes * m->tl;
  *cost = 2 * round;
  return MG_OK;
}

static const mg_param_desc allport_params[] = {
    {"order", "far", "a node's sends: far (farthest first, alternating directions and classes), near, plain"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_allport = {
    .name = "exchange-allport",
    .problem = MG_EXCHANGE,
    .summary = "all-port dimension-ordered exchange: d block classes, rotated orders, every arc busy",
    .paper = "after Suh-Yalamanchili (all-port 2D/3D tori and meshes), Tseng-Lin-Gupta-Panda; our derivation",
    .restrictions = "any grid (ring, line, torus, mesh); all-port, contention=shared or fair",
    .rounding = "classes split messages evenly for even extents; odd ones differ by a block",
    .params = allport_params,
    .needs_shared = 1,
    .check = allport_check,
    .generate = allport_generate,
    .closed_form = allport_closed_form,
};

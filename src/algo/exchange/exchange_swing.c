/*
 * exchange-swing — complete exchange in log2 N steps of one message per
 * node, on torus-swing's reflected pairs (swing_plan.c).
 *
 * The store-and-forward exchange of Bruck, Ho, Kipnis, Upfal and
 * Weathersby ("Efficient Algorithms for All-to-All Communications in
 * Multiport Message-Passing Systems", IEEE TPDS 1997) and the hypercube
 * exchange send, in each of log2 N steps, the half of the blocks a node
 * holds that must cross to the other half of the machine. Here the halves
 * are those of the gossip plan read as routes: in torus-swing every piece
 * reaches every node exactly once, along a binomial tree; block (u, w)
 * follows the tree of piece u to w. In step s node v holds the blocks
 * whose path passes v there, and sends to its partner p those whose
 * destination p informs from step s + 1 on: p + sigma(p) T_s, where
 * T_(k-1) = {0} and T_s is T_(s+1) with its image under g_(s+1) (the
 * gossip's reflected sums, taken from the last step back). Every message
 * carries 2^s origins x 2^(k-1-s) destinations = N/2 blocks, and the steps
 * are torus-swing's: contention-free on 8x8, 4x4x4, 8x8x8.
 *
 * Against the dimension-ordered exchanges it trades bytes for start-ups:
 * (N/2) log2 N blocks per node instead of about N d/4 hops' worth, but
 * log2 N messages instead of d (n - 1) or N - 1. On SMPI's 250 µs per
 * message that wins the small blocks (docs/alltoall.md).
 *
 * Rounds: log2 N. Cost (wormhole or circuit, contention=shared):
 *   sum_s ts + |g_s|_1 td + load(g_s) (N/2) b tl.
 * Restrictions: as torus-swing (tori and rings, every side a power of
 * two, up to 16384 nodes); shared arcs. Rounding: none.
 */
#include "../gossip/swing_plan.h"

#include <stdlib.h>
#include <string.h>

static mg_status xs_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-swing is an exchange algorithm");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-swing does not run on buses");
  return mg_swing_check_topo(&pb->topo, "exchange-swing", err);
}

/* Per-sender context of a step's predicate. */
typedef struct xs_ctx {
  const mg_topo *t;
  const mg_swing *pl;
  const unsigned char *reach;
  int s;
  uint32_t p;
} xs_ctx;

/* Block item = source * N + destination: cross if the partner informs
 * the destination. */
static int xs_cross(uint64_t item, void *arg) {
  const xs_ctx *c = arg;
  return mg_swing_informs(c->t, c->pl, c->reach, c->s, c->p, (uint32_t)(item % c->t->N));
}

static mg_status xs_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_swing pl;
  mg_emit e;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = xs_check(pb, ps, err);
  if (st == MG_OK) st = mg_swing_plan(t, &pl, err);
  if (st != MG_OK) return st;
  unsigned char *reach = mg_calloc((uint64_t)pl.k * t->N, 1);
  xs_ctx *ctx = mg_calloc(t->N, sizeof *ctx);
  if (!reach || !ctx) {
    free(reach);
    free(ctx);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-swing: out of memory");
  }
  mg_swing_reach(t, &pl, reach);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-swing", ps, 1, 0, pl.k, err));
  for (int s = 0; s < pl.k; s++) {
    for (uint32_t v = 0; v < t->N; v++) {
      uint32_t p = mg_swing_partner(t, &pl, s, v);
      ctx[v] = (xs_ctx){t, &pl, reach, s, p};
      mg_transfer tr = mg_xfer(v, p);
      tr.sel.flags = MG_SEL_PRED;
      tr.sel.pred = xs_cross;
      tr.sel.pred_arg = &ctx[v];
      MG_CHECK(mg_emit_add(&e, &tr, err));
    }
    MG_CHECK(mg_emit_round(&e, err)); /* the round is consumed here: ctx is reused next step */
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(reach);
  free(ctx);
  return st;
}

static mg_status xs_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_status st = xs_check(pb, ps, err);
  return st == MG_OK ? mg_swing_price(pb, "exchange-swing", cost, err) : st;
}

static const mg_param_desc xs_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_swing = {
    .name = "exchange-swing",
    .problem = MG_EXCHANGE,
    .summary = "log2 N steps of N/2 blocks on torus-swing's reflected pairs (store and forward, as Bruck's)",
    .paper = "after Bruck et al. (TPDS 1997) and Swing (De Sensi et al., NSDI 2024)",
    .restrictions = "tori and rings up to 16384 nodes, every side a power of two; shared arcs",
    .rounding = "none",
    .params = xs_params,
    .needs_shared = 1,
    .check = xs_check,
    .generate = xs_generate,
    .closed_form = xs_closed_form,
};

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
 * Merged steps (merge=m) are Bruck et al.'s radix 2^m: m steps become one
 * round in which node v sends each node w of its closure under the steps'
 * partners the blocks those steps would carry from v to w (the path of a
 * block through the steps, mg_swing_carry): 2^m - 1 messages of N/2^m
 * blocks instead of m messages of N/2, sent on several links at once. On
 * Swing's product plan (product=1) merge=2 pairs an x and a y step: on
 * 8x8, 3 rounds of 3 messages of 16 blocks, arcs loaded 64 + 32 + 32
 * blocks against 6 x 32 (tests/test_swing.c); SMPI 8x8 at 4 KiB 4.849 ms
 * against exchange-lines' 6.452, at 1 KiB 2.848 against 3.193 unmerged.
 *
 * Rounds: log2 N (merged: one per group of steps). Cost (wormhole or
 * circuit, contention=shared, merge=1):
 *   sum_s ts + |g_s|_1 td + load(g_s) (N/2) b tl;
 * merged rounds are priced by the simulator only.
 * Restrictions: as torus-swing (tori, rings, meshes and lines, every side
 * a power of two, up to 16384 nodes; a mesh runs its torus twin's pairs,
 * the wrapping ones the long way); shared arcs. Rounding: none.
 */
#include "../gossip/swing_plan.h"

#include <stdlib.h>
#include <string.h>

static mg_status xs_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int bound[MG_SWING_MAX_STEPS + 1], rounds;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-swing is an exchange algorithm");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-swing does not run on buses");
  mg_status st = mg_swing_setup(NULL, ps, NULL, bound, &rounds, err);
  return st == MG_OK ? mg_swing_check_topo(&pb->topo, "exchange-swing", err) : st;
}

/* Per-message context of a round's predicate: the steps [s0, s1) merged,
 * from sender v to w. */
typedef struct xs_ctx {
  const mg_topo *t;
  const mg_swing *pl;
  const unsigned char *reach;
  int s0, s1;
  uint32_t v, w;
} xs_ctx;

/* Block item = source * N + destination: in the message to w if the
 * steps carry it there. */
static int xs_carried(uint64_t item, void *arg) {
  const xs_ctx *c = arg;
  return mg_swing_carry(c->t, c->pl, c->reach, c->s0, c->s1, c->v, (uint32_t)(item % c->t->N)) == c->w;
}

static mg_status xs_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_swing pl;
  mg_emit e;
  int bound[MG_SWING_MAX_STEPS + 1], rounds = 0;
  uint32_t group[1u << MG_SWING_MAX_MERGE];
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = xs_check(pb, ps, err);
  if (st == MG_OK) st = mg_swing_setup(t, ps, &pl, bound, &rounds, err);
  if (st != MG_OK) return st;
  unsigned char *reach = mg_calloc((uint64_t)pl.k * t->N, 1);
  xs_ctx *ctx = mg_calloc((uint64_t)t->N << MG_SWING_MAX_MERGE, sizeof *ctx);
  if (!reach || !ctx) {
    free(reach);
    free(ctx);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-swing: out of memory");
  }
  mg_swing_reach(t, &pl, reach);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-swing", ps, 1, 0, rounds, err));
  for (int r = 0; r < rounds; r++) {
    xs_ctx *c = ctx;
    for (uint32_t v = 0; v < t->N; v++) {
      uint32_t n = mg_swing_group(t, &pl, bound[r], bound[r + 1], v, group);
      for (uint32_t i = 1; i < n; i++, c++) {
        *c = (xs_ctx){t, &pl, reach, bound[r], bound[r + 1], v, group[i]};
        mg_transfer tr = mg_xfer(v, group[i]);
        tr.sel.flags = MG_SEL_PRED;
        tr.sel.pred = xs_carried;
        tr.sel.pred_arg = c;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err)); /* the round is consumed here: ctx is reused next round */
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
  return st == MG_OK ? mg_swing_price(pb, ps, "exchange-swing", cost, err) : st;
}

static mg_status xs_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  return mg_swing_candidates(pb, visit, arg, err);
}

static const mg_param_desc xs_params[] = {
    {"merge", "1",
     "steps per round, 1..4 (radix 2^merge): a node sends each of the 2^merge - 1 nodes the steps "
     "would carry blocks to its N/2^merge blocks"},
    {"product", "0", "1: Swing's per-dimension distances interleaved (x, y, x, y, ..), not the searched plan"},
    {"skip", "0", "leading steps kept one per round before merging"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_swing = {
    .name = "exchange-swing",
    .problem = MG_EXCHANGE,
    .summary = "log2 N steps of N/2 blocks on torus-swing's reflected pairs (store and forward, as Bruck's); "
               "merge=m: radix 2^m",
    .paper = "after Bruck et al. (TPDS 1997) and Swing (De Sensi et al., NSDI 2024)",
    .restrictions = "tori, rings, meshes and lines up to 16384 nodes, every side a power of two (meshes: the wrapping "
                    "pairs the long way); shared arcs",
    .rounding = "none",
    .params = xs_params,
    .needs_shared = 1,
    .check = xs_check,
    .generate = xs_generate,
    .closed_form = xs_closed_form,
    .candidates = xs_candidates,
};

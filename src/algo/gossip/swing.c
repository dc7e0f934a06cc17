/*
 * torus-swing — recursive doubling by reflected pairs, Swing's idea
 * generalized to tori of any dimension and searched for short,
 * arc-disjoint steps.
 *
 * De Sensi, Hoefler et al. ("Swing: Short-cutting Rings for Higher
 * Bandwidth Allreduce", NSDI 2024) pair rank r in step s with
 * r + rho_s if r is even and r - rho_s if it is odd, rho_s =
 * (1 - (-2)^(s+1)) / 3 = 1, -1, 3, -5, 11, ...: the even ranks' messages
 * go one way round the ring and the odd ranks' the other, so a step of
 * distance |rho| loads an arc with about |rho| / 2 messages instead of
 * |rho|. Run backwards (the long distances first, while the messages are
 * small) it is an allgather with one message per node per step.
 *
 * Write a node's sign as sigma(v) = +1 or -1 and pair v with
 * v + sigma(v) g in the step of generator g. Two sign rules pair
 * consistently (the partner's sign is the opposite one):
 *   checkerboard: sigma(v) = (-1)^(x_0 + .. + x_(d-1)), g of odd
 *     coordinate sum; node v then holds v + sigma(v) S, and a step maps
 *     S to S u (g - S);
 *   axis: a sign per coordinate, (-1)^(x_i), every nonzero g_i odd; v
 *     holds v + sigma(v) . S (component-wise) and a step maps S to
 *     S u (g + R_g S), R_g negating the components where g is nonzero.
 * The step doubles what every node holds exactly when S and its image
 * are disjoint, and the gossip is complete when S is the whole group
 * (N = 2^k, every side even). Swing on a ring is the axis rule with
 * g = rho_(k-1), .., rho_0; on a torus its per-dimension sequences
 * interleave (the product plan, built first: it always exists).
 *
 * What is new is the search. Under the checkerboard rule a generator with
 * every |g_i| <= 2 puts one message on each arc it uses (the senders that
 * could share an arc are an even offset apart, and the odd ones go the
 * other way), so the knight's moves (1,2), (2,1) and the unit steps are
 * contention-free. A depth-first search over generators, cheapest load
 * first, keeps the plan of least weight sum_s load_s 2^s (blocks on the
 * busiest arcs; a load is the worse of the schedule's shortest routes and
 * SimGrid's, which differ on half-ring ties only, so one plan serves
 * every network). On torus:8x8 it finds (-1,0), (0,-1),
 * (-2,1), (2,1), (-1,-2), (-1,2): six contention-free steps, weight 63
 * (Swing's product plan: loads 2, 2, 1, 1, 1, 1, weight 66; torus-doubling's
 * translations weigh 80 on SimGrid's routes, whose ties go + from all but
 * one coordinate: by Redei's theorem one of its generators is a half-ring
 * step). 4x4x4 and 8x8x8 are contention-free as
 * well (tests/test_swing.c); on ring:64 the search returns Swing's
 * own distances.
 *
 * Merged steps (merge=m): Bruck et al.'s radix-2^m exchange ("Efficient
 * Algorithms for All-to-All Communications in Multiport Message-Passing
 * Systems", TPDS 1997) read as an allgather. m consecutive steps become
 * one round in which a node sends what it holds straight to the 2^m - 1
 * nodes the steps would carry it to (its closure under their partners);
 * their holdings are disjoint from its own, so every block still reaches
 * every node once. Fewer rounds, more messages, and the bytes of the
 * round go out on several links at once instead of one after the other.
 * On Swing's product plan (product=1: x, y, x, y, .. by decreasing
 * distance) merge=2 pairs an x step with a y step: sends to the x and y
 * partners and the diagonal. On SMPI's 8x8 torus at 4 KiB,
 * merge=2,product=1,skip=2 (two single steps, then two radix-4 rounds)
 * takes 2.883 ms against 3.259 unmerged (docs/allgather.md).
 *
 * Rounds: k = log2 N, one message per node per step (the partner lacks
 * everything the sender holds: 2^s blocks in step s); merged, one round
 * per group of steps with 2^m - 1 messages per node.
 * Cost (wormhole or circuit, contention=shared, merge=1):
 *   sum_s ts + |g_s|_1 td + load(g_s) 2^s m tl;
 * merged rounds are priced by the simulator only.
 * Meshes and lines take their torus twin's plan: the same pairs, those
 * that wrap on the torus routed the long way (no closed form there). On
 * mesh:8x8 under the calibrated model it is still the best allgather we
 * have at 256 B .. 4 KiB (docs/allgather.md).
 * Restrictions: tori, rings, meshes and lines with N a power of two and
 * every side even (the signs need even sides); the search runs up to 1024
 * nodes and a fixed amount of work, larger tori (up to 16384 nodes) take
 * the product plan; shared arcs.
 * Rounding: none.
 */
#include "swing_plan.h"

#include <stdlib.h>
#include <string.h>

static mg_status sw_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int bound[MG_SWING_MAX_STEPS + 1], rounds;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing is a gossip algorithm");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing does not run on buses");
  mg_status st = mg_swing_setup(NULL, ps, NULL, bound, &rounds, err);
  return st == MG_OK ? mg_swing_check_topo(&pb->topo, "torus-swing", err) : st;
}

static mg_status sw_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_swing pl;
  mg_emit e;
  int bound[MG_SWING_MAX_STEPS + 1], rounds = 0;
  uint32_t group[1u << MG_SWING_MAX_MERGE];
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = sw_check(pb, ps, err);
  if (st == MG_OK) st = mg_swing_setup(t, ps, &pl, bound, &rounds, err);
  if (st != MG_OK) return st;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-swing", ps, 1, 0, rounds, err));
  for (int r = 0; r < rounds; r++) {
    for (uint32_t v = 0; v < t->N; v++) {
      /* v sends all it holds to the nodes its steps would carry it to:
       * their holdings are disjoint from v's (the reflections) */
      uint32_t n = mg_swing_group(t, &pl, bound[r], bound[r + 1], v, group);
      for (uint32_t i = 1; i < n; i++) {
        mg_transfer tr = mg_xfer(v, group[i]);
        tr.sel.flags = MG_SEL_MINUS_DST;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status sw_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_status st = sw_check(pb, ps, err);
  if (st == MG_OK) st = mg_swing_price(pb, ps, "torus-swing", cost, err);
  return st;
}

static mg_status sw_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  return mg_swing_candidates(pb, visit, arg, err);
}

static const mg_param_desc sw_params[] = {
    {"merge", "1", "steps per round, 1..4: a node sends what it holds to the 2^merge - 1 nodes they would carry it to"},
    {"product", "0", "1: Swing's per-dimension distances interleaved (x, y, x, y, ..), not the searched plan"},
    {"skip", "0", "leading steps (the small messages) kept one per round before merging"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_torus_swing = {
    .name = "torus-swing",
    .problem = MG_GOSSIP,
    .summary = "recursive doubling by reflected pairs (Swing), generators searched for arc-disjoint steps; merge=m: "
               "radix-2^m rounds",
    .paper = "after Swing (De Sensi, Bonato, Saam, Hoefler, NSDI 2024)",
    .restrictions = "tori, rings, meshes and lines up to 16384 nodes, every side a power of two (meshes: the torus's "
                    "pairs, the wrapping ones the long way); search up to 1024 nodes; shared arcs",
    .rounding = "none",
    .params = sw_params,
    .needs_shared = 1,
    .check = sw_check,
    .generate = sw_generate,
    .closed_form = sw_closed_form,
    .candidates = sw_candidates,
};

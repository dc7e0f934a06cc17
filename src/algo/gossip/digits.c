/*
 * torus-digits — gossip on tori of 3^k or 4^k nodes: Bruck's allgather in
 * radix 3 or 4 over exchange-digits' digit sets (digit_plan.c), the most
 * loaded steps first.
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997) gather in radix r: every step a node sends everything it
 * holds to r - 1 nodes and what it holds grows r-fold. Any factorization
 * of the torus G = D_1 (+) .. (+) D_k (0 in every set, every element one
 * sum) does: in the step of set D node v sends what it holds to v + d for
 * each d != 0 of D, so holding v - S before the step it receives (v - d) -
 * S from each d and holds v - (S + D) after it, no piece twice (the sum is
 * direct); after every set, v - G = G. The sets are exchange-digits',
 * searched for the least sum of their busiest arcs on SimGrid's routes.
 *
 * A step carries r^j pieces a message in its j-th place, so the order of
 * the sets is what the price depends on (torus-ternary's long steps
 * first): the most loaded set goes first, with one piece a message, and
 * the least loaded last, with N/r. On torus:9x9 (loads 1, 1, 2, 3) the
 * busiest arcs see 3 + 2 x 3 + 9 + 27 = 45 pieces (torus-ternary: 48); on
 * 4x4x4 in radix 4 (loads 1, 2, 3) 3 + 2 x 4 + 16 = 27. A step's messages
 * leave longest route first.
 *
 * Rounds: k, r - 1 messages per node per round (all-port). Cost (wormhole
 * or circuit, contention=shared, tori; routes named as SimGrid's):
 *   sum_j s ts + hops_j td + load_j r^j b tl,  s = ceil((r - 1) / 2d).
 * Meshes and lines with such sides run the same group's sets, a digit
 * that wraps on the torus walking the line the long way, searched on
 * those routes (no closed form).
 * Restrictions: as exchange-digits (tori, rings, meshes and lines with
 * every side a power of three, or of two with N a power of four, up to
 * 65536 nodes); all-port; shared arcs. Rounding: none.
 */
#include "../exchange/digit_plan.h"

#include <string.h>

static mg_status td_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  return mg_digit_plan_check_algo(pb, ps, &mg_algo_torus_digits, err);
}

/* The plan's sets, most loaded first (then the longer routes first). */
static mg_status td_plan(const mg_problem_spec *pb, const mg_params *ps, int closed_form, mg_digit_plan *p, int order[],
                         double *startups, mg_err *err) {
  mg_status st = mg_digit_plan_for(pb, ps, &mg_algo_torus_digits, closed_form, p, startups, err);
  if (st != MG_OK) return st;
  for (int j = 0; j < p->k; j++)
    order[j] = j;
  for (int a = 0; a < p->k; a++)
    for (int b = a + 1; b < p->k; b++) {
      int x = order[a], y = order[b];
      if (p->load[y] > p->load[x] || (p->load[y] == p->load[x] && p->hops[y] > p->hops[x])) order[a] = y, order[b] = x;
    }
  return MG_OK;
}

static mg_status td_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_digit_plan p;
  mg_emit e;
  int order[MG_DP_MAX_STEPS];
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = td_plan(pb, ps, 0, &p, order, NULL, err);
  if (st != MG_OK) return st;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-digits", ps, 1, 0, p.k, err));
  for (int s = 0; s < p.k; s++) {
    int j = order[s];
    for (uint32_t v = 0; v < t->N; v++)
      for (int c = 1; c < p.r; c++) {
        /* everything v holds: the direct sum keeps it apart from what v + d holds */
        mg_transfer tr = mg_xfer(v, mg_dp_add(t, v, p.digit[j][c]));
        tr.nseg = (uint8_t)mg_route_network(t, MG_ROUTES_SIMGRID, v, tr.dst, tr.seg);
        tr.sel.flags = MG_SEL_ALL;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_digit_plan_free(&p);
  return st;
}

static mg_status td_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_digit_plan p;
  int order[MG_DP_MAX_STEPS];
  double startups;
  const mg_model *m = &pb->model;
  mg_status st = td_plan(pb, ps, 1, &p, order, &startups, err);
  if (st != MG_OK) return st;
  double c = 0, held = 1;
  for (int s = 0; s < p.k; s++) {
    int j = order[s];
    c += startups * m->ts + (double)p.hops[j] * m->td + (double)p.load[j] * held * pb->bytes * m->tl;
    held *= p.r;
  }
  mg_digit_plan_free(&p);
  *cost = c;
  return MG_OK;
}

const mg_algo mg_algo_torus_digits = {
    .name = "torus-digits",
    .problem = MG_GOSSIP,
    .summary = "Bruck's allgather in radix 3 or 4 over exchange-digits' searched digit sets, the most loaded "
               "first: everything held to v + d for the r - 1 digits d of a step",
    .paper = "after Bruck et al. (TPDS 1997)",
    .restrictions = MG_DP_RESTRICTIONS,
    .rounding = "none",
    .params = mg_digit_plan_param_desc,
    .needs_shared = 1,
    .check = td_check,
    .generate = td_generate,
    .closed_form = td_closed_form,
};

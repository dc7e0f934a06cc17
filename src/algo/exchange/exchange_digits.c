/*
 * exchange-digits — complete exchange on tori of 3^k or 4^k nodes:
 * Bruck's store-and-forward exchange in radix 3 or 4 over digit sets
 * searched for the least busiest-arc load (digit_plan.c).
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997): in step j block (u, w) moves by the j-th digit of its
 * distance w - u. Here the digits come from a factorization of the torus
 * G = D_1 (+) .. (+) D_k into sets of r (0 and r - 1 others): node v sends
 * to v + d, for each d != 0 of D_j, the blocks at v whose distance has
 * digit d in step j. A block at u after steps 0..j-1 sits at u plus its
 * earlier digits, and at w once every digit has moved. Every message
 * carries N/r blocks: r - 1 messages a step, k = log_r N steps.
 *
 * Radix 3 (sides powers of three): exchange-ternary's messages (whose
 * balanced digits are search=0) on sets that leave on more directions at
 * once: on torus:9x9 the busiest arcs see 27 (1 + 1 + 2 + 3) = 189
 * block-times against the balanced digits' 216. Radix 4 (sides powers of
 * two, N a power of four): 3 messages of N/4 blocks a step, as many as
 * the line exchange sends on 4x4x4 (exchange-lines: 3 per axis) but on
 * sets whose busiest arcs carry 1 + 2 + 3 messages on SimGrid's routes
 * (the lines carry more on the + arcs of their ties). A step's messages go
 * longest route first, so that its bytes travel while the node starts
 * the others.
 *
 * Rounds: k, r - 1 messages per node per round (all-port). Cost (wormhole
 * or circuit, contention=shared, tori; routes named as SimGrid's):
 *   sum_j s ts + hops_j td + load_j (N/r) b tl,  s = ceil((r - 1) / 2d),
 * load_j the messages on step j's busiest arc, hops_j its longest route.
 * Meshes and lines with such sides run the same group's sets, a digit
 * that wraps on the torus walking the line the long way, searched on
 * those routes (no closed form).
 * Restrictions: tori, rings, meshes and lines with every side a power of
 * three (radix 3) or of two with N a power of four (radix 4), up to 65536
 * nodes (the search up to 243 and 64 nodes; beyond, the lift of the
 * quotient torus's plan or the plain digits); all-port; shared arcs.
 * Rounding: none.
 */
#include "digit_plan.h"

#include <stdlib.h>
#include <string.h>

static mg_status xd_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  return mg_digit_plan_check_algo(pb, ps, &mg_algo_exchange_digits, err);
}

/* One message's predicate: step j, digit c (1 .. r - 1), from v. */
typedef struct xd_ctx {
  const mg_topo *t;
  const mg_digit_plan *p;
  int j, c;
  uint32_t v;
} xd_ctx;

/* Block item = source * N + destination: in the message if its distance
 * has digit c in step j and its earlier digits brought it to v. */
static int xd_moves(uint64_t item, void *arg) {
  const xd_ctx *x = arg;
  uint32_t N = x->t->N, u = (uint32_t)(item / N), w = (uint32_t)(item % N);
  uint32_t delta = mg_dp_sub(x->t, w, u);
  if (x->p->index[(uint64_t)delta * (uint64_t)x->p->k + (uint64_t)x->j] != x->c) return 0;
  return mg_dp_add(x->t, u, x->p->prefix[(uint64_t)x->j * N + delta]) == x->v;
}

static mg_status xd_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_digit_plan p;
  mg_emit e;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = mg_digit_plan_for(pb, ps, &mg_algo_exchange_digits, 0, &p, NULL, err);
  if (st != MG_OK) return st;
  int radix = p.r;
  xd_ctx *ctx = mg_calloc((uint64_t)t->N * (uint64_t)(radix - 1), sizeof *ctx);
  if (!ctx) {
    mg_digit_plan_free(&p);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-digits: out of memory");
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-digits", ps, 1, 0, p.k, err));
  for (int j = 0; j < p.k; j++) {
    for (uint32_t v = 0; v < t->N; v++)
      for (int c = 1; c < radix; c++) {
        xd_ctx *x = &ctx[(uint32_t)(radix - 1) * v + (uint32_t)(c - 1)];
        *x = (xd_ctx){t, &p, j, c, v};
        mg_transfer tr = mg_xfer(v, mg_dp_add(t, v, p.digit[j][c]));
        /* the route the plan was priced on: SimGrid's (on odd sides the one shortest route) */
        tr.nseg = (uint8_t)mg_route_network(t, MG_ROUTES_SIMGRID, v, tr.dst, tr.seg);
        tr.sel.flags = MG_SEL_PRED;
        tr.sel.pred = xd_moves;
        tr.sel.pred_arg = x;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    MG_CHECK(mg_emit_round(&e, err)); /* the round is consumed here: ctx is reused next step */
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_digit_plan_free(&p);
  free(ctx);
  return st;
}

static mg_status xd_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_digit_plan p;
  double startups;
  const mg_model *m = &pb->model;
  mg_status st = mg_digit_plan_for(pb, ps, &mg_algo_exchange_digits, 1, &p, &startups, err);
  if (st != MG_OK) return st;
  double c = 0, blocks = (double)(pb->topo.N / (uint32_t)p.r);
  for (int j = 0; j < p.k; j++)
    c += startups * m->ts + (double)p.hops[j] * m->td + (double)p.load[j] * blocks * pb->bytes * m->tl;
  mg_digit_plan_free(&p);
  *cost = c;
  return MG_OK;
}

const mg_algo mg_algo_exchange_digits = {
    .name = "exchange-digits",
    .problem = MG_EXCHANGE,
    .summary = "Bruck's exchange in radix 3 or 4 over a factorization of the torus into digit sets searched for the "
               "least busiest-arc load: N/r blocks to v + d for the r - 1 digits d of a step",
    .paper = "after Bruck et al. (TPDS 1997)",
    .restrictions = MG_DP_RESTRICTIONS,
    .rounding = "none",
    .params = mg_digit_plan_param_desc,
    .needs_shared = 1,
    .check = xd_check,
    .generate = xd_generate,
    .closed_form = xd_closed_form,
};

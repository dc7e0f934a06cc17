/*
 * exchange-digits — complete exchange on tori of 3^k nodes: Bruck's
 * radix-3 store-and-forward exchange over digit sets searched for the
 * least busiest-arc load (digit_plan.c).
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997): in step j block (u, w) moves by the j-th digit of its
 * distance w - u. Here the digits come from a factorization of the torus
 * G = D_1 (+) .. (+) D_k into sets {0, a_j, b_j}: node v sends to v + a_j
 * the blocks at v whose distance has digit a_j in step j, and to v + b_j
 * those with b_j. A block at u after steps 0..j-1 sits at u plus its
 * earlier digits, and at w once every digit has moved. Every message
 * carries N/3 blocks, as in exchange-ternary (whose balanced digits are
 * search=0); the searched sets leave on more directions at once. On
 * torus:9x9 the busiest arcs see 27 (1 + 1 + 2 + 3) = 189 block-times
 * against the balanced digits' 216 (digit_plan.c).
 *
 * Rounds: k = log3 N, two messages per node per round (all-port).
 * Cost (wormhole or circuit, contention=shared, tori):
 *   sum_j ts + hops_j td + load_j (N/3) b tl,
 * load_j the messages on step j's busiest arc, hops_j its longer route.
 * Meshes and lines with such sides run the torus twin's sets, a digit
 * that wraps on the torus walking the line the long way (no closed form).
 * Restrictions: tori, rings, meshes and lines with every side a power of
 * three, up to 3^10 nodes (the search up to 243; beyond, the lift of the
 * quotient torus's plan or the balanced digits); all-port; shared arcs.
 * Rounding: none.
 */
#include "digit_plan.h"

#include <stdlib.h>
#include <string.h>

static mg_status xd_search(const mg_params *ps, int *search, mg_err *err) {
  int64_t v;
  mg_status st = mg_param_int(ps, "search", 1, 0, 1, &v, err);
  *search = (int)v;
  return st;
}

static mg_status xd_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int search;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-digits is an exchange algorithm");
  if (pb->model.switching == MG_SW_BUS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-digits does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-digits sends two messages a step: all-port");
  mg_status st = xd_search(ps, &search, err);
  return st == MG_OK ? mg_digit_plan_check(&pb->topo, "exchange-digits", err) : st;
}

/* One message's predicate: step j, digit c (1 or 2), from v. */
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
  int search;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = xd_check(pb, ps, err);
  if (st == MG_OK) st = xd_search(ps, &search, err);
  if (st == MG_OK) st = mg_digit_plan_build(t, search, &p, err);
  if (st != MG_OK) return st;
  xd_ctx *ctx = mg_calloc((uint64_t)t->N * 2, sizeof *ctx);
  if (!ctx) {
    mg_digit_plan_free(&p);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-digits: out of memory");
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-digits", ps, 1, 0, p.k, err));
  for (int j = 0; j < p.k; j++) {
    for (uint32_t v = 0; v < t->N; v++)
      for (int c = 1; c <= 2; c++) {
        xd_ctx *x = &ctx[2 * v + (uint32_t)(c - 1)];
        *x = (xd_ctx){t, &p, j, c, v};
        mg_transfer tr = mg_xfer(v, mg_dp_add(t, v, p.digit[j][c]));
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
  int search;
  const mg_model *m = &pb->model;
  mg_status st = xd_check(pb, ps, err);
  if (st != MG_OK) return st;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-digits: closed form under contention=shared only");
  if (!mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-digits: closed form on tori and rings only");
  st = xd_search(ps, &search, err);
  if (st == MG_OK) st = mg_digit_plan_build(&pb->topo, search, &p, err);
  if (st != MG_OK) return st;
  double c = 0, blocks = (double)(pb->topo.N / 3);
  for (int j = 0; j < p.k; j++)
    c += m->ts + (double)p.hops[j] * m->td + (double)p.load[j] * blocks * pb->bytes * m->tl;
  mg_digit_plan_free(&p);
  *cost = c;
  return MG_OK;
}

static const mg_param_desc xd_params[] = {
    {"search", "1", "1: digit sets searched for the least busiest-arc load; 0: the balanced digits (exchange-ternary)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_digits = {
    .name = "exchange-digits",
    .problem = MG_EXCHANGE,
    .summary = "Bruck's radix-3 exchange over a factorization of the torus into digit sets {0, a, b} searched for the "
               "least busiest-arc load: N/3 blocks to v + a and v + b a step",
    .paper = "after Bruck et al. (TPDS 1997)",
    .restrictions = "tori, rings, meshes and lines with every side a power of three, up to 3^10 nodes (meshes: the "
                    "torus twin's sets, wrapping digits the long way); all-port; shared arcs",
    .rounding = "none",
    .params = xd_params,
    .needs_shared = 1,
    .check = xd_check,
    .generate = xd_generate,
    .closed_form = xd_closed_form,
};

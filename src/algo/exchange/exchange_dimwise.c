/*
 * exchange-dimwise — complete exchange on a torus dimension by dimension:
 * the ring exchange of Tseng, Ni, Sheu 1999 (gather-scatter trees, exchange-ring) along
 * axis 0 on every ring at once, then axis 1, ... Algorithm T1 in 2D
 * (section 3.1) and C1 in 3D (section 4); any d, any extents (section 5).
 * In the stage of axis k a node forwards, for each ring destination, the
 * N/n_k blocks whose destination has that coordinate along k.
 *
 * Rounds: sum over axes of the ring plan's rounds (2d_k - 2 for n_k = 2^d_k).
 * Cost (Lemma 7; section 4 for C1), n_k = 2^{d_k}, d_k >= 3:
 *   sum_k T_1D(d_k, (N/n_k) b): T1 on 2^d x 2^d = 2 T_1D(d, 2^d b),
 *   C1 on 2^d x 2^d x 2^d = 3 T_1D(d, 2^{2d} b).
 * Restrictions: tori (every dimension wrapped), any extents >= 2.
 * Rounding: each axis uses the ring plan of its own length.
 *
 * Trace, torus:8x8: 4 rounds along x (every row a ring:8 exchange carrying 8
 * blocks per ring destination), then 4 rounds along y; cost 2*8*14 blocks.
 */
#include "../algo_internal.h"
#include "../../analytic/tseng.h"

#include <string.h>

static mg_status dimwise_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t ov;
  mg_status st = mg_param_int(ps, "overlap", 1, 0, 1, &ov, err);
  if (st != MG_OK) return st;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-dimwise solves complete exchange");
  if (pb->topo.kind != MG_TOPO_GRID || !mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-dimwise needs a torus (every dimension wrapped)");
  return MG_OK;
}

static mg_status dimwise_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_status st = MG_OK;
  int64_t ov = 1;
  const mg_topo *t = &pb->topo;
  mg_gs_plan plan[MG_MAX_DIMS];
  mg_emit e;
  int begun = 0;
  int64_t hint = 0;
  memset(plan, 0, sizeof plan);
  MG_CHECK(mg_param_int(ps, "overlap", 1, 0, 1, &ov, err));
  for (int k = 0; k < t->d; k++) {
    MG_CHECK(mg_gs_plan_build(t->n[k], (int)ov, &plan[k], err));
    hint += (int64_t)plan[k].nrounds;
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-dimwise", ps, 1, 0, hint, err));
  begun = 1;
  for (int k = 0; k < t->d; k++) {
    mg_gs_group g = {.plan = &plan[k], .axis = k, .dil = 1};
    MG_CHECK(mg_gs_emit_stage(&e, t, &g, 1, NULL, NULL, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  if (begun) mg_emit_free(&e);
  for (int k = 0; k < t->d; k++)
    mg_gs_plan_free(&plan[k]);
  return st;
}

/* Lemma 7 / section 4 generalised: sum_k T_1D(d_k, (N/n_k) b), every
 * extent 2^{d_k} with d_k >= 3. */
static mg_status dimwise_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int64_t ov = 1;
  mg_status st = mg_param_int(ps, "overlap", 1, 0, 1, &ov, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  const mg_topo *t = &pb->topo;
  if (m->switching != MG_SW_WORMHOLE || m->td != 0)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Lemma 7 is stated for distance-insensitive wormhole routing (td = 0)");
  if (!ov) return mg_fail(err, MG_ERR_UNSUPPORTED, "Lemma 7 prices the overlapped trees (overlap=1)");
  double c = 0;
  for (int k = 0; k < t->d; k++) {
    int dk;
    if (!mg_is_pow(t->n[k], 2, &dk) || dk < 3)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 1 needs every extent a power of two >= 8");
    c += mg_tseng_price(mg_tseng_thm1(dk), m->ts, (double)(t->N / t->n[k]) * pb->bytes * m->tl);
  }
  *cost = c;
  return MG_OK;
}

static const mg_param_desc dimwise_params[] = {
    {"overlap", "1", "1: + and - trees share rounds (section 2.4); 0: + tree, then - tree"}, {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_dimwise = {
    .name = "exchange-dimwise",
    .problem = MG_EXCHANGE,
    .summary = "T1/C1: the ring gather-scatter exchange along each axis in turn",
    .paper = "Tseng, Ni, Sheu 1999 section 3.1 (T1, Lemma 7), section 4 (C1), section 5",
    .restrictions = "tori, any dimension count and extents",
    .rounding = "each axis uses the ring plan of its own length",
    .params = dimwise_params,
    .check = dimwise_check,
    .generate = dimwise_generate,
    .closed_form = dimwise_closed_form,
};

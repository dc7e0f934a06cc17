/*
 * exchange-partitioned — algorithms T4 (2D, section 3.2) and C64 (3D, section 4) of Tseng, Ni, Sheu 1999. T4: the 2D
 * torus is cut into four node-disjoint logical tori P_{i,j} = {(x,y) : x mod
 * 2 = i, y mod 2 = j}, each a dilation-2 torus of (n0/2) x (n1/2) nodes.
 *   Pre1: (x,y) -> (x+1,y) all blocks aimed at P_{i+1,j} and P_{i+1,j+1};
 *   Pre2: (x,y) -> (x,y+1) all blocks (own and received) aimed at P_{i,j+1};
 * then every node holds the blocks of itself and of (x-1,y), (x,y-1),
 * (x-1,y-1) for its own logical torus, and the four tori run T1 (the ring
 * gather-scatter exchange along x, then y) at once, P_{0,0} and P_{1,1}
 * X-stage first, P_{0,1} and P_{1,0} Y-stage first (Table 1), so that
 * the four tori never share a link; the simulator checks that claim under
 * strict contention.
 *
 * Rounds (T4): 2 + 2 max(R(n0/2), R(n1/2)), R(m) = rounds of the ring plan on
 *   m nodes; on 2^d x 2^d: 2 + 2(2(d-1) - 2) = 4d - 6.
 * Cost (Theorem 2, 2^d x 2^d, d >= 4): 2 t_s + 2^{2d} b t_x + T_2D,T1(d-1, 4b).
 * C64 (section 4, 3D): 64 dilation-4 logical tori C_{i,j,k} (coordinates mod
 *   4) in four link-disjoint groups G_s (i+j+k = s mod 4); nine preparation
 *   phases (three along each axis); then four stages in the cyclic order of
 *   Table 2, each group running one axis' ring exchange per stage (one idle).
 *   Rounds 9 + sum over the 4 stages of the longest plan; on 2^d cubes
 *   9 + 4(2(d-2) - 2) = 8d - 15. Cost (Theorem 3, d >= 5):
 *   9 t_s + 9 2^{3d-1} b t_x + 4 T_1D(d-2, 64 2^{2(d-2)} b).
 * Restrictions: 2D tori with even extents (non-square too); 3D tori with
 *   extents that are multiples of 4.
 * Rounding: the logical rings use the ring plan of their own length (the
 *   irregular trees of section 5 when n/2 is not a power of two); in a stage
 *   the shorter plan simply ends earlier.
 *
 * Trace, torus:8x8: Pre1 (32 blocks per node), Pre2 (32), then 2 rounds of
 * the ring:4 plan along x in P00/P11 and along y in P01/P10, then 2 rounds
 * with the axes swapped; every logical message carries 4*4 blocks per unit.
 */
#include "../algo_internal.h"
#include "../../analytic/tseng.h"

#include <string.h>

static mg_status part_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  if (pb->problem != MG_EXCHANGE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-partitioned solves complete exchange");
  if (pb->topo.kind != MG_TOPO_GRID || !mg_topo_is_torus(&pb->topo) || pb->topo.d < 2 || pb->topo.d > 3)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-partitioned needs a 2D torus (T4) or a 3D torus (C64)");
  if (pb->topo.d == 2 && (pb->topo.n[0] % 2 || pb->topo.n[1] % 2))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "T4 needs even extents (four logical tori by parity)");
  if (pb->topo.d == 3 && (pb->topo.n[0] % 4 || pb->topo.n[1] % 4 || pb->topo.n[2] % 4))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "C64 needs extents that are multiples of 4 (64 logical tori mod 4)");
  return MG_OK;
}

/* Group of a node in a stage: (i,j) -> 2j + i. */
static int parity_group(const uint32_t *x, void *arg) {
  (void)arg;
  return (int)(2 * (x[1] % 2) + x[0] % 2);
}

/* Pre-phase: every node sends along dim (+1) the blocks whose destination's
 * coordinate along dim has the other parity. */
static mg_status pre_phase(mg_emit *e, const mg_topo *t, int dim, mg_err *err) {
  mg_status st = MG_OK;
  for (uint32_t u = 0; u < t->N && st == MG_OK; u++) {
    uint32_t x[MG_MAX_DIMS];
    mg_topo_coords(t, u, x);
    uint32_t v = mg_topo_step(t, u, dim, 1);
    mg_transfer tr = mg_xfer_line(u, v, dim, 1);
    tr.sel.flags = MG_SEL_COLOR;
    memset(tr.sel.color_w, 0, sizeof tr.sel.color_w);
    tr.sel.color_w[dim] = 1;
    tr.sel.color_m = 2;
    tr.sel.color_c = (x[dim] + 1) % 2;
    st = mg_emit_add(e, &tr, err);
  }
  if (st == MG_OK) st = mg_emit_round(e, err);
  return st;
}

/* C64 preparation (section 4, Fig. 7): three phases along each axis, each
 * node forwarding to its + neighbour every block it holds whose
 * destination's coordinate along the axis is not congruent to its own mod 4
 * (48, 32, 16 x n^3/64 blocks in the first axis' phases, the same in the
 * others). Not one colour class, so a predicate selects them. */
typedef struct c64_pred {
  const mg_topo *t;
  int dim;
  uint32_t x; /* holder coordinate along dim */
} c64_pred;

static int c64_away(uint64_t item, void *arg) {
  const c64_pred *p = arg;
  uint32_t dst = (uint32_t)(item % p->t->N);
  uint32_t xd = (dst / p->t->stride[p->dim]) % p->t->n[p->dim];
  return (xd + 4 - p->x % 4) % 4 != 0;
}

static mg_status c64_prep(mg_emit *e, const mg_topo *t, int dim, c64_pred *args, mg_err *err) {
  mg_status st = MG_OK;
  for (uint32_t u = 0; u < t->N && st == MG_OK; u++) {
    uint32_t x[MG_MAX_DIMS];
    mg_topo_coords(t, u, x);
    args[u].t = t;
    args[u].dim = dim;
    args[u].x = x[dim];
    mg_transfer tr = mg_xfer_line(u, mg_topo_step(t, u, dim, 1), dim, 1);
    tr.sel.flags = MG_SEL_PRED;
    tr.sel.pred = c64_away;
    tr.sel.pred_arg = &args[u];
    st = mg_emit_add(e, &tr, err);
  }
  if (st == MG_OK) st = mg_emit_round(e, err);
  return st;
}

/* Table 2: the axis group G_s runs in stage q (-1: idle). Row q, column s. */
static const int C64_AXIS[4][4] = {{0, 1, 2, -1}, {-1, 0, 1, 2}, {2, -1, 0, 1}, {1, 2, -1, 0}};

typedef struct c64_stage {
  int q;
} c64_stage;

/* Group of a node: its logical torus C_{i,j,k} (i + 4j + 16k); idle when
 * its group G_{(i+j+k) mod 4} has no stage q. */
static int c64_group(const uint32_t *x, void *arg) {
  const c64_stage *cs = arg;
  uint32_t i = x[0] % 4, j = x[1] % 4, k = x[2] % 4;
  if (C64_AXIS[cs->q][(i + j + k) % 4] < 0) return -1;
  return (int)(i + 4 * j + 16 * k);
}

static mg_status c64_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_status st = MG_OK;
  const mg_topo *t = &pb->topo;
  mg_gs_plan plan[3];
  mg_emit e;
  int begun = 0;
  c64_pred *args = NULL;
  memset(plan, 0, sizeof plan);
  for (int k = 0; k < 3; k++)
    MG_CHECK(mg_gs_plan_build(t->n[k] / 4, 1, &plan[k], err));
  args = mg_calloc(t->N, sizeof *args);
  if (!args) MG_CHECK(mg_fail(err, MG_ERR_NOMEM, "out of memory"));
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-partitioned", ps, 1, 0, -1, err));
  begun = 1;
  for (int dim = 0; dim < 3; dim++)
    for (int ph = 0; ph < 3; ph++)
      MG_CHECK(c64_prep(&e, t, dim, args, err));
  for (int q = 0; q < 4; q++) {
    mg_gs_group g[64];
    for (int c = 0; c < 64; c++) {
      int i = c % 4, j = (c / 4) % 4, k = c / 16, ax = C64_AXIS[q][(i + j + k) % 4];
      g[c].plan = &plan[ax < 0 ? 0 : ax];
      g[c].axis = ax < 0 ? 0 : ax;
      g[c].dil = 4;
    }
    c64_stage cs = {q};
    MG_CHECK(mg_gs_emit_stage(&e, t, g, 64, c64_group, &cs, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  if (begun) mg_emit_free(&e);
  free(args);
  for (int k = 0; k < 3; k++)
    mg_gs_plan_free(&plan[k]);
  return st;
}

static mg_status part_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_status st = MG_OK;
  const mg_topo *t = &pb->topo;
  if (t->d == 3) return c64_generate(pb, ps, sink, err);
  mg_gs_plan px, py;
  mg_emit e;
  int begun = 0;
  memset(&px, 0, sizeof px);
  memset(&py, 0, sizeof py);
  MG_CHECK(mg_gs_plan_build(t->n[0] / 2, 1, &px, err));
  MG_CHECK(mg_gs_plan_build(t->n[1] / 2, 1, &py, err));
  size_t mx = px.nrounds > py.nrounds ? px.nrounds : py.nrounds;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-partitioned", ps, 1, 0, (int64_t)(2 + 2 * mx), err));
  begun = 1;
  MG_CHECK(pre_phase(&e, t, 0, err)); /* Pre1 */
  MG_CHECK(pre_phase(&e, t, 1, err)); /* Pre2 */
  /* Table 1: group index 2j+i; P00, P11 X then Y; P10, P01 Y then X */
  mg_gs_group xg = {.plan = &px, .axis = 0, .dil = 2}, yg = {.plan = &py, .axis = 1, .dil = 2};
  mg_gs_group stage1[4] = {xg, yg, yg, xg}, stage2[4] = {yg, xg, xg, yg};
  MG_CHECK(mg_gs_emit_stage(&e, t, stage1, 4, parity_group, NULL, err));
  MG_CHECK(mg_gs_emit_stage(&e, t, stage2, 4, parity_group, NULL, err));
  MG_CHECK(mg_emit_end(&e, err));
out:
  if (begun) mg_emit_free(&e);
  mg_gs_plan_free(&px);
  mg_gs_plan_free(&py);
  return st;
}

/* Theorem 2 on 2^d x 2^d, d >= 4; Theorem 3 on 2^d x 2^d x 2^d, d >= 5. */
static mg_status part_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  const mg_model *m = &pb->model;
  int d, d1;
  if (m->switching != MG_SW_WORMHOLE || m->td != 0)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "Theorems 2-3 are stated for distance-insensitive wormhole routing (td = 0)");
  if (pb->topo.d == 3) {
    if (pb->topo.n[0] != pb->topo.n[1] || pb->topo.n[1] != pb->topo.n[2] || !mg_is_pow(pb->topo.n[0], 2, &d) || d < 5)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 3 holds on 2^d x 2^d x 2^d tori, d >= 5");
    *cost = mg_tseng_price(mg_tseng_thm3(d), m->ts, pb->bytes * m->tl);
    return MG_OK;
  }
  if (pb->topo.d != 2 || pb->topo.n[0] != pb->topo.n[1] || !mg_is_pow(pb->topo.n[0], 2, &d) || d < 4 ||
      !mg_is_pow(pb->topo.n[1], 2, &d1))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 2 holds on 2^d x 2^d tori, d >= 4");
  *cost = mg_tseng_price(mg_tseng_thm2(d), m->ts, pb->bytes * m->tl);
  return MG_OK;
}

static const mg_param_desc part_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_partitioned = {
    .name = "exchange-partitioned",
    .problem = MG_EXCHANGE,
    .summary = "T4 (2D) / C64 (3D): node-disjoint dilated logical tori run T1 / C1 at once",
    .paper = "Tseng, Ni, Sheu 1999 section 3.2 (T4, Theorem 2, Table 1), section 4 (C64, Theorem 3, Table 2)",
    .restrictions = "2D tori with even extents; 3D tori with extents multiple of 4",
    .rounding = "logical rings of any length use the irregular trees of section 5",
    .params = part_params,
    .check = part_check,
    .generate = part_generate,
    .closed_form = part_closed_form,
};

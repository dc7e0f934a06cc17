/*
 * exchange-ring — complete exchange on a ring by the positive and negative
 * gather-scatter trees of Tseng, Ni, Sheu 1999, section 2: gathering
 * phases GP_0..GP_{d-2}, then scattering phases SP_{d-2}..SP_0 on each tree
 * (Definitions 1-3), blocks routed by the rules of sections 2.2-2.3, the
 * two trees overlapped under the one-port model with the negative phases
 * shifted by one and GP_0/SP_0 split by parity (section 2.4). Any ring length
 * by the irregular trees of section 5 (d = ceil(lg n), the last sender of a
 * level wraps to v_0). The plan itself is in gstree.c.
 *
 * Rounds: 2d-2 on a ring of 2^d (overlap=1), 2(2d-2) with overlap=0 (the
 * original positive phases, then the negative ones). On other lengths a
 * phase whose two trees would make a node send or receive twice is split in
 * two rounds (measured: see docs/paper-notes.md).
 * Cost (Theorem 1, n = 2^d, d >= 3, distance-insensitive wormhole):
 *   (2d-2) t_s + (T+ + 2) b t_x   (T+ + 3 for d = 3), T+ of Lemma 6.
 * Synchronisation (section 7): run in lock-step the schedule needs 2d-5
 *   global barriers (2d-3 phase boundaries, of which GP_{d-2} -> SP_{d-2}
 *   and SP_1 -> SP_0 synchronise themselves); sync=1 replaces them by 2d-5
 *   rounds of null messages (section 7.2), priced (4d-7) t_s + (Theorem 1).
 * Restrictions: rings (one wrapped dimension), n >= 2; one-port is what the
 *   schedule is built for (it also verifies all-port).
 * Rounding: none; odd and non-power-of-two rings use the irregular trees.
 *
 * Trace, ring:8 (d = 3), overlap=1, transfer:blocks (+ tree, then - tree):
 *   GP_0: 1->2:4 3->4:4 5->6:4 7->0:4 | 0->7:3 6->5:3 4->3:3 2->1:3
 *   GP_1: 0->2:5 2->4:5 4->6:5 6->0:5 | 1->7:3 7->5:3 5->3:3 3->1:3
 *   SP_1: 0->2:1 2->4:1 4->6:1 6->0:1   (the - tree has nothing left here)
 *   SP_0: 0->1:4 2->3:4 4->5:4 6->7:4 | 1->0:3 7->6:3 5->4:3 3->2:3
 *   4 rounds, 4+5+1+4 = 14 blocks = Lemma 6 (11) + 3 (Theorem 1, d = 3).
 */
#include "../algo_internal.h"
#include "../../analytic/tseng.h"

#include <string.h>

/* The parameters, read and checked in one place. */
typedef struct xr_cfg {
  int overlap; /* + and - trees in the same rounds (section 2.4) */
  int sync;    /* section 7.2's null messages */
} xr_cfg;

static mg_status xr_params(const mg_params *ps, xr_cfg *c, mg_err *err) {
  int64_t ov, sync;
  mg_status st = mg_param_int(ps, "overlap", 1, 0, 1, &ov, err);
  if (st == MG_OK) st = mg_param_int(ps, "sync", 0, 0, 1, &sync, err);
  if (st != MG_OK) return st;
  c->overlap = (int)ov;
  c->sync = (int)sync;
  return MG_OK;
}

static mg_status xring_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  xr_cfg c;
  int d;
  mg_status st = xr_params(ps, &c, err);
  if (st != MG_OK) return st;
  if (c.sync && (!c.overlap || pb->topo.d != 1 || !mg_is_pow(pb->topo.n[0], 2, &d) || d < 3))
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "sync=1 (section 7.2 null messages) is defined for the overlapped trees on rings of 2^d, d >= 3");
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ring solves complete exchange");
  if (pb->topo.kind != MG_TOPO_GRID || pb->topo.d != 1 || !pb->topo.wrap[0])
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ring needs a ring (one wrapped dimension)");
  return MG_OK;
}

/* Section 7.2: a round of null messages (transfers that carry no block,
 * priced t_s + hops t_d). gather = 1: after GP_{l-1}, v_{i+2^l} -> v_i for
 * every v_i in V_l; gather = 0: after SP_l, v_i -> v_{i+2^{l-1}} for every
 * v_i in V_l. The negative tree signals through the mirror x -> 1 - x. */
static mg_status null_round(mg_emit *e, uint32_t n, int l, int gather, mg_err *err) {
  mg_status st = MG_OK;
  uint32_t step = 1u << l;
  int32_t h = gather ? -(int32_t)step : (int32_t)(step / 2);
  for (int sign = 1; sign >= -1 && st == MG_OK; sign -= 2)
    for (uint32_t y = 0; y < n && st == MG_OK; y += step) {
      /* tree coordinates: sender and hop */
      uint32_t ys = gather ? (y + step) % n : y;
      uint32_t src = sign > 0 ? ys : (1 + n - ys) % n;
      int32_t hops = sign > 0 ? h : -h;
      uint32_t dst = (uint32_t)(((int64_t)src + hops + 2 * (int64_t)n) % n);
      mg_transfer tr = mg_xfer_line(src, dst, 0, hops);
      tr.sel.flags = MG_SEL_LIST; /* an empty list: a null message */
      tr.sel.list = NULL;
      tr.sel.list_len = 0;
      st = mg_emit_add(e, &tr, err);
    }
  if (st == MG_OK) st = mg_emit_round(e, err);
  return st;
}

static mg_status xring_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_status st = MG_OK;
  xr_cfg c;
  mg_gs_plan plan;
  mg_emit e;
  int begun = 0;
  memset(&plan, 0, sizeof plan);
  MG_CHECK(xr_params(ps, &c, err));
  MG_CHECK(mg_gs_plan_build(pb->topo.n[0], c.overlap, &plan, err));
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-ring", ps, 1, 0, (int64_t)plan.nrounds, err));
  begun = 1;
  for (size_t r = 0; r < plan.nrounds; r++) {
    for (size_t k = plan.rstart[r]; k < plan.rstart[r + 1]; k++) {
      mg_transfer tr;
      MG_CHECK(mg_gs_transfer(&pb->topo, &plan, k, plan.x[k].src, 0, 1, &tr, err));
      MG_CHECK(mg_emit_add(&e, &tr, err));
    }
    MG_CHECK(mg_emit_round(&e, err));
    if (c.sync) {
      /* phase index: GP_l is l, SP_l is 2L-1-l (L = d-1 levels) */
      int L = plan.levels, ph = plan.rphase[r];
      if (ph < L - 1 && ph + 1 <= L - 1)
        MG_CHECK(null_round(&e, plan.n, ph + 1, 1, err)); /* after GP_{l-1}, l <= d-2 */
      if (ph >= L && 2 * L - 1 - ph >= 2)
        MG_CHECK(null_round(&e, plan.n, 2 * L - 1 - ph, 0, err)); /* after SP_l, l >= 2 */
    }
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  if (begun) mg_emit_free(&e);
  mg_gs_plan_free(&plan);
  return st;
}

/* Theorem 1 on rings of 2^d, d >= 3, priced with the paper's
 * distance-insensitive wormhole cost. */
static mg_status xring_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  xr_cfg c;
  int d;
  mg_status st = xr_params(ps, &c, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  if (m->switching != MG_SW_WORMHOLE || m->td != 0)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 1 is stated for distance-insensitive wormhole routing (td = 0)");
  if (!c.overlap) return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 1 prices the overlapped trees (overlap=1)");
  if (!mg_is_pow(pb->topo.n[0], 2, &d) || d < 3)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 1 holds for rings of 2^d nodes, d >= 3");
  *cost = mg_tseng_price(mg_tseng_thm1(d), m->ts, pb->bytes * m->tl);
  if (c.sync) *cost += mg_tseng_barriers(d) * m->ts; /* section 7.2: 2d-5 rounds of null messages */
  return MG_OK;
}

static const mg_param_desc xring_params[] = {
    {"overlap", "1", "1: + and - trees share rounds (section 2.4); 0: + tree, then - tree"},
    {"sync", "0", "1: add the 2d-5 rounds of null messages of section 7.2 (local synchronisation)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_ring = {
    .name = "exchange-ring",
    .problem = MG_EXCHANGE,
    .summary = "gather-scatter trees, + and - overlapped under one-port",
    .paper = "Tseng, Ni, Sheu 1999 section 2 (Definitions 1-3, Lemmas 2-6, Theorem 1), section 5",
    .restrictions = "rings, any n >= 2",
    .rounding = "non-powers of two use the irregular trees of section 5; a clashing phase takes two rounds",
    .params = xring_params,
    .check = xring_check,
    .generate = xring_generate,
    .closed_form = xring_closed_form,
};

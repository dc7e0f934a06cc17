/*
 * bus-simple, bus-simple-refined — algorithm SIMPLE of Fujita (section
 * 4.1, Theorem 3, Corollary 2) and its refinement (section 4.2, Theorem 4)
 * on an n x n mesh-bus computer whose messages carry at most ell tokens.
 *
 * Phase 1: node (i, j) with i + j even sends its token t(i, j) on row bus
 *   R_i, with i + j odd on column bus C_j; the ceil(n/2) senders of a bus
 *   take turns (ascending index), so phase 1 takes tau = ceil(n/2) steps.
 * Phase 2: every node (i, j) sends on R_i the odd tokens of column j (those
 *   it heard on C_j in phase 1, and its own if it is odd) and on C_j the
 *   even tokens of row i; a bus serves its n senders one after another and
 *   a set longer than ell is cut into ceil(size/ell) messages.
 *   (The paper's "sends V(i,j)" must include the sender's own token: no
 *   other node of row i holds an odd t(i,j) — docs/paper-notes.md.)
 * Refinement (4.2): the t-th phase-1 sender of a bus adds to its token up
 *   to ell - 1 of the t - 1 tokens it has already heard on its other bus,
 *   which are tokens it would send on this bus in phase 2; phase 2 then
 *   sends only the rest.
 *
 * Steps: tau + sum over the senders of a bus of ceil(size/ell)
 *   (mg_fujita_simple_steps recounts it). Bounds: Theorem 3,
 *   n^2/2ell - n/2ell + ceil(3n/2); Corollary 2 when ell divides tau,
 *   n^2/2ell + n/2ell + tau; Theorem 4 (refined, ell < tau, ell not
 *   dividing tau), n^2/2ell - n/2ell + n + 2. Cost: steps * t_s.
 * Restrictions: gossip on meshbus:N, any N >= 2, any ell (0 = unbounded).
 *
 * Trace, meshbus:4, ell = 1 (SIMPLE): steps 1-2, rows: (0,0),(0,2) on R_0,
 *   (1,1),(1,3) on R_1, ...; columns: (1,0),(3,0) on C_0, (0,1),(2,1) on
 *   C_1, ...; steps 3-10: on R_0 the nodes (0,0),(0,1),(0,2),(0,3) send the
 *   2 odd tokens of their column, one per step: 2 + 8 = 10 steps.
 */
#include "../algo_internal.h"
#include "../../analytic/fujita.h"

#include <math.h>
#include <string.h>

static mg_status simple_generate_any(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, int refined,
                                     mg_err *err) {
  uint32_t n = pb->topo.n[0];
  uint64_t ell = pb->model.ell, cap = ell == 0 ? UINT64_MAX : ell - 1;
  const char *name = refined ? "bus-simple-refined" : "bus-simple";
  mg_bus_sets s;
  mg_bus_phase ph;
  mg_emit e;
  mg_status st;
  uint64_t *msg = NULL;
  uint32_t *piggy_row = NULL, *piggy_col = NULL; /* tokens node v piggy-backed */
  memset(&e, 0, sizeof e);
  memset(&ph, 0, sizeof ph);
  if ((st = mg_bus_sets_build(n, &s, err)) != MG_OK) return st;
  msg = mg_calloc((uint64_t)n + 1, sizeof *msg);
  piggy_row = mg_calloc((uint64_t)n * n, sizeof *piggy_row);
  piggy_col = mg_calloc((uint64_t)n * n, sizeof *piggy_col);
  if (!msg || !piggy_row || !piggy_col) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  MG_CHECK(mg_bus_phase_init(&ph, n, ell, err));
  MG_CHECK(mg_emit_begin(&e, sink, pb, name, ps, 1, 0, (int64_t)mg_fujita_simple_steps(n, ell, refined), err));
  /* Phase 1: the t-th (from 0) even node of row i sends on R_i at step t;
   * by then it has heard the first t odd tokens of its column. */
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t t = 0; t < s.neven[i]; t++) {
      uint64_t tok = s.even[(uint64_t)i * n + t];
      uint32_t j = (uint32_t)(tok % n), p = 0;
      msg[0] = tok;
      if (refined) {
        p = t < s.nodd[j] ? t : s.nodd[j];
        if (p > cap) p = (uint32_t)cap;
        memcpy(msg + 1, s.odd + (uint64_t)j * n, p * sizeof *msg);
      }
      piggy_row[tok] = p;
      MG_CHECK(mg_bus_phase_add(&ph, (uint32_t)tok, MG_BUS_ROW, msg, 1 + p, err));
    }
  for (uint32_t j = 0; j < n; j++)
    for (uint32_t t = 0; t < s.nodd[j]; t++) {
      uint64_t tok = s.odd[(uint64_t)j * n + t];
      uint32_t i = (uint32_t)(tok / n), p = 0;
      msg[0] = tok;
      if (refined) {
        p = t < s.neven[i] ? t : s.neven[i];
        if (p > cap) p = (uint32_t)cap;
        memcpy(msg + 1, s.even + (uint64_t)i * n, p * sizeof *msg);
      }
      piggy_col[tok] = p;
      MG_CHECK(mg_bus_phase_add(&ph, (uint32_t)tok, MG_BUS_COL, msg, 1 + p, err));
    }
  MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  /* Phase 2: (i, j) sends the odd tokens of column j on R_i and the even
   * tokens of row i on C_j, less what it piggy-backed. */
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < n; j++) {
      uint32_t v = j + n * i;
      MG_CHECK(
          mg_bus_phase_add(&ph, v, MG_BUS_ROW, s.odd + (uint64_t)j * n + piggy_row[v], s.nodd[j] - piggy_row[v], err));
      MG_CHECK(mg_bus_phase_add(&ph, v, MG_BUS_COL, s.even + (uint64_t)i * n + piggy_col[v], s.neven[i] - piggy_col[v],
                                err));
    }
  MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_bus_phase_free(&ph);
  mg_bus_sets_free(&s);
  free(msg);
  free(piggy_row);
  free(piggy_col);
  return st;
}

static mg_status simple_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return simple_generate_any(pb, ps, sink, 0, err);
}

static mg_status refined_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return simple_generate_any(pb, ps, sink, 1, err);
}

/* Theorem 3, or Corollary 2 (tighter) when ell divides ceil(n/2). */
static double simple_bound(uint32_t n, uint64_t ell) {
  double c2 = mg_fujita_cor2(n, ell), t3 = mg_fujita_t3(n, ell);
  return !isnan(c2) && c2 < t3 ? c2 : t3;
}

static mg_status simple_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  if (pb->model.switching != MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 3 is for mesh-bus computers");
  *cost = simple_bound(pb->topo.n[0], pb->model.ell) * pb->model.ts;
  return MG_OK;
}

/* Theorem 4 where it applies; elsewhere the refinement never sends more
 * than SIMPLE, so Theorem 3 / Corollary 2 bound it. */
static mg_status refined_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  if (pb->model.switching != MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 4 is for mesh-bus computers");
  double t4 = mg_fujita_t4(pb->topo.n[0], pb->model.ell);
  *cost = (isnan(t4) ? simple_bound(pb->topo.n[0], pb->model.ell) : t4) * pb->model.ts;
  return MG_OK;
}

static const mg_param_desc no_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_bus_simple = {
    .name = "bus-simple",
    .problem = MG_GOSSIP,
    .summary = "SIMPLE: broadcast on one bus, then forward on the other, sets cut into ell-token messages",
    .paper = "Fujita section 4.1, Theorem 3, Corollary 2",
    .restrictions = "gossip on meshbus:N, any N >= 2 and any ell",
    .rounding = "phase 1 takes ceil(n/2) steps; a set longer than ell goes in ceil(size/ell) messages",
    .params = no_params,
    .on_bus = 1,
    .generate = simple_generate,
    .closed_form = simple_closed_form,
};

const mg_algo mg_algo_bus_simple_refined = {
    .name = "bus-simple-refined",
    .problem = MG_GOSSIP,
    .summary = "SIMPLE with up to ell-1 heard tokens piggy-backed on each phase-1 message",
    .paper = "Fujita section 4.2, Theorem 4",
    .restrictions = "gossip on meshbus:N, any N >= 2 and any ell",
    .rounding = "as bus-simple; the t-th phase-1 sender adds min(t-1, ell-1) tokens",
    .params = no_params,
    .on_bus = 1,
    .generate = refined_generate,
    .closed_form = refined_closed_form,
};

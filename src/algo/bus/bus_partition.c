/*
 * bus-partition, bus-partition-theta — algorithm PARTITION of Fujita
 * (section 5.1, Theorems 5 and 6) and its variant for ell = Theta(n)
 * (section 6, Theorem 8) on an n x n mesh-bus computer.
 *
 * The indices are cut into sigma = ceil(n/m) groups of m consecutive
 * indices, N_1 .. N_sigma (the last may be shorter).
 * Phase 1 (as SIMPLE): (i, j) with i + j even sends t(i, j) on R_i, odd on
 *   C_j; ceil(n/2) steps.
 * Phase 2: in every diagonal block N_x x N_x, node (i, j) sends on R_i the
 *   odd tokens of column j and on C_j the even tokens of row i (the sets
 *   it holds after phase 1); a bus has at most m such senders.
 * Phase 3: row bus R_k gets, from one node (k, l) per group N_y, the even
 *   tokens of the rows of N_y (what (k, l) heard on C_l in phase 2, V_2);
 *   column bus C_l gets, from one node (k, l) per group, the odd tokens of
 *   the columns of N_y (H_2). The paper picks (i, i + tm) and (j + tm, j);
 *   for a short last group that node may not exist, so we pick the member
 *   lo_y + (k mod |N_y|), which is the paper's node whenever it exists.
 *   A bus has sigma senders.
 *
 * m: bus-partition takes the paper's m = floor(2 ell / n) (Theorem 6; it
 *   needs ell >= n/2), so a phase-3 set (at most m columns' odd tokens)
 *   fits one message: steps = ceil(n/2) + m + sigma exactly.
 *   bus-partition-theta takes section 6's m = floor(2c) for a constant c
 *   with ell <= c n (default: the least integer c = ceil(ell/n)); its
 *   phase-3 sets may exceed ell and are then cut into several messages,
 *   which section 6's count ceil(n/2) + m + sigma ignores
 *   (docs/paper-notes.md). Both accept an explicit m (bus-partition) or c;
 *   `tune` (and so `compare`) tries for bus-partition every m up to
 *   floor(2 ell / n) that gives a new sigma.
 * Cost: steps * t_s; mg_fujita_partition_steps recounts the steps.
 * Restrictions: gossip on meshbus:N; bus-partition needs ell >= n/2 (or
 *   an explicit m); m is capped at n (one group: sigma = 1).
 *
 * Trace, meshbus:4, ell = 4 (m = 2, sigma = 2, groups {0,1}, {2,3}):
 *   steps 1-2: phase 1 as SIMPLE; steps 3-4: (0,0),(0,1) on R_0, (2,2),
 *   (2,3) on R_2, ..., 2 tokens each; steps 5-6: R_0 hears (0,0) with the
 *   even tokens of row 1, then (0,2) with those of rows 2-3; 6 steps.
 */
#include "../algo_internal.h"
#include "../../analytic/fujita.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static mg_status partition_generate_m(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, const char *name,
                                      uint32_t m, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  uint64_t ell = pb->model.ell;
  mg_bus_sets s;
  mg_bus_phase ph;
  mg_emit e;
  mg_status st;
  uint64_t *buf = NULL;
  if (m > n) m = n;
  uint32_t sigma = (n + m - 1) / m;
  memset(&e, 0, sizeof e);
  memset(&ph, 0, sizeof ph);
  if ((st = mg_bus_sets_build(n, &s, err)) != MG_OK) return st;
  buf = mg_calloc((uint64_t)n * m + 1, sizeof *buf);
  if (!buf) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  MG_CHECK(mg_bus_phase_init(&ph, n, ell, err));
  MG_CHECK(mg_emit_begin(&e, sink, pb, name, ps, 1, 0, (int64_t)mg_fujita_partition_steps(n, ell, m), err));
  /* Phase 1 */
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t t = 0; t < s.neven[i]; t++) {
      uint64_t tok = s.even[(uint64_t)i * n + t];
      MG_CHECK(mg_bus_phase_add(&ph, (uint32_t)tok, MG_BUS_ROW, &tok, 1, err));
    }
  for (uint32_t j = 0; j < n; j++)
    for (uint32_t t = 0; t < s.nodd[j]; t++) {
      uint64_t tok = s.odd[(uint64_t)j * n + t];
      MG_CHECK(mg_bus_phase_add(&ph, (uint32_t)tok, MG_BUS_COL, &tok, 1, err));
    }
  MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  /* Phase 2: the diagonal blocks N_x x N_x */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t lo = i / m * m, hi = lo + m < n ? lo + m : n;
    for (uint32_t j = lo; j < hi; j++) {
      uint32_t v = j + n * i;
      MG_CHECK(mg_bus_phase_add(&ph, v, MG_BUS_ROW, s.odd + (uint64_t)j * n, s.nodd[j], err));
      MG_CHECK(mg_bus_phase_add(&ph, v, MG_BUS_COL, s.even + (uint64_t)i * n, s.neven[i], err));
    }
  }
  MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  /* Phase 3: one sender per group on every bus */
  for (uint32_t k = 0; k < n; k++)
    for (uint32_t y = 0; y < sigma; y++) {
      uint32_t lo = y * m, hi = lo + m < n ? lo + m : n, pick = lo + k % (hi - lo);
      size_t len = 0;
      /* row bus R_k: node (k, pick) sends V_2, the even tokens of the rows
       * of N_y other than k */
      for (uint32_t q = lo; q < hi; q++)
        if (q != k) {
          memcpy(buf + len, s.even + (uint64_t)q * n, s.neven[q] * sizeof *buf);
          len += s.neven[q];
        }
      MG_CHECK(mg_bus_phase_add(&ph, pick + n * k, MG_BUS_ROW, buf, len, err));
      /* column bus C_k: node (pick, k) sends H_2, the odd tokens of the
       * columns of N_y other than k */
      len = 0;
      for (uint32_t q = lo; q < hi; q++)
        if (q != k) {
          memcpy(buf + len, s.odd + (uint64_t)q * n, s.nodd[q] * sizeof *buf);
          len += s.nodd[q];
        }
      MG_CHECK(mg_bus_phase_add(&ph, k + n * pick, MG_BUS_COL, buf, len, err));
    }
  MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_bus_phase_free(&ph);
  mg_bus_sets_free(&s);
  free(buf);
  return st;
}

/* bus-partition: m from the parameter, else floor(2 ell / n). */
static mg_status partition_m(const mg_problem_spec *pb, const mg_params *ps, uint32_t *m, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  *m = 0; /* defined on every path, refusals included */
  uint32_t def = mg_fujita_partition_m(n, pb->model.ell);
  int64_t v;
  mg_status st = mg_param_int(ps, "m", def ? def : 1, 1, n, &v, err);
  if (st != MG_OK) return st;
  if (def == 0 && !mg_param_given(ps, "m"))
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "bus-partition needs ell >= n/2 (m = floor(2 ell/n) = 0 for ell = %llu, n = %u); give m",
                   (unsigned long long)pb->model.ell, n);
  *m = (uint32_t)v;
  return MG_OK;
}

/* bus-partition-theta: m = floor(2c), c from the parameter, else
 * ceil(ell/n). */
static mg_status theta_m(const mg_problem_spec *pb, const mg_params *ps, uint32_t *m, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  *m = 0; /* defined on every path, refusals included */
  const char *v = mg_param_given(ps, "c");
  if (pb->model.ell == 0)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "bus-partition-theta is for bounded packets (ell = Theta(n)); set ell");
  if (!v) {
    *m = mg_fujita_theta_m(n, pb->model.ell);
    return MG_OK;
  }
  double c;
  if (!mg_parse_double(v, &c) || !(c >= 0.5) || c > 1e9)
    return mg_fail(err, MG_ERR_INVALID, "parameter c must be a number >= 0.5 (m = floor(2c) >= 1), not '%s'", v);
  double mm = floor(2 * c);
  *m = mm > n ? n : (uint32_t)mm;
  return MG_OK;
}

static mg_status partition_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  uint32_t m;
  return partition_m(pb, ps, &m, err);
}

static mg_status theta_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  uint32_t m;
  return theta_m(pb, ps, &m, err);
}

static mg_status partition_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t m;
  mg_status st = partition_m(pb, ps, &m, err);
  return st != MG_OK ? st : partition_generate_m(pb, ps, sink, "bus-partition", m, err);
}

static mg_status theta_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t m;
  mg_status st = theta_m(pb, ps, &m, err);
  return st != MG_OK ? st : partition_generate_m(pb, ps, sink, "bus-partition-theta", m, err);
}

/* Theorem 6's proof: ceil(n/2) + m + sigma (the theorem: n/2 + o(n)). */
static mg_status partition_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  uint32_t m;
  mg_status st = partition_m(pb, ps, &m, err);
  if (st != MG_OK) return st;
  *cost = mg_fujita_t8_count(pb->topo.n[0], m) * pb->model.ts;
  return MG_OK;
}

/* Section 6's count ceil(n/2) + m + sigma, the explicit figure behind
 * Theorem 8's 2 max(n/2, n^2/2ell) + O(1). */
static mg_status theta_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  uint32_t m;
  mg_status st = theta_m(pb, ps, &m, err);
  if (st != MG_OK) return st;
  *cost = mg_fujita_t8_count(pb->topo.n[0], m) * pb->model.ts;
  return MG_OK;
}

/* tune: the m that keep every phase-3 set within ell (m <= floor(2 ell/n),
 * all m <= n when ell is unbounded); of those giving the same sigma =
 * ceil(n/m) only the least, since a larger m only lengthens phase 2. */
static mg_status partition_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps),
                                      void *arg, mg_err *err) {
  uint32_t n = pb->topo.n[0], top = mg_fujita_partition_m(n, pb->model.ell), last_sigma = 0;
  mg_status st = MG_OK;
  for (uint32_t m = 1; m <= top && st == MG_OK; m++) {
    uint32_t sigma = (n + m - 1) / m;
    if (sigma == last_sigma) continue;
    last_sigma = sigma;
    mg_params ps;
    memset(&ps, 0, sizeof ps);
    if ((st = mg_params_set_int(&ps, "m", m, err)) == MG_OK) st = visit(arg, &ps);
  }
  return st;
}

static const mg_param_desc partition_params[] = {
    {"m", "auto", "group size; auto = floor(2 ell / n) (section 5.1), capped at n"}, {NULL, NULL, NULL}};
static const mg_param_desc theta_params[] = {
    {"c", "auto", "the constant with ell <= c n; m = floor(2c); auto = ceil(ell / n) (section 6)"}, {NULL, NULL, NULL}};

const mg_algo mg_algo_bus_partition = {
    .name = "bus-partition",
    .problem = MG_GOSSIP,
    .summary = "PARTITION: SIMPLE's phase 1, forwarding in diagonal m x m blocks, then one sender per group",
    .paper = "Fujita section 5.1, Theorems 5 and 6",
    .restrictions = "gossip on meshbus:N with ell >= N/2 (m = floor(2 ell/N) >= 1), or an explicit m",
    .rounding = "the last group holds n - (sigma-1) m indices; its phase-3 sender is lo + k mod size",
    .params = partition_params,
    .on_bus = 1,
    .check = partition_check,
    .generate = partition_generate,
    .closed_form = partition_closed_form,
    .candidates = partition_candidates,
};

const mg_algo mg_algo_bus_partition_theta = {
    .name = "bus-partition-theta",
    .problem = MG_GOSSIP,
    .summary = "PARTITION with m = floor(2c) for ell <= c n; long sets cut into ell-token messages",
    .paper = "Fujita section 6, Theorem 8",
    .restrictions = "gossip on meshbus:N with a bounded ell",
    .rounding = "as bus-partition; phase-3 sets over ell tokens take several steps",
    .params = theta_params,
    .on_bus = 1,
    .check = theta_check,
    .generate = theta_generate,
    .closed_form = theta_closed_form,
};

/* Fujita has no table of figures; this one lays its theorems
 * beside the algorithms as built here. For n in {4, 8, 16, 32, 64} and ell
 * in {1, 2, 4, floor(sqrt n), n/2, n, 2n, n^2/4, n^2} (duplicates once),
 * one cell per algorithm (column: the theorem): "paper" = the theorem's stated upper bound in
 * steps where it gives one (NaN where it is only asymptotic or does not
 * cover the case; the note says which), "closed form" = our exact recount
 * (src/analytic/fujita.c), "simulated" = the verified step count (t_s = 1).
 * One more cell per (n, ell), algorithm "lower bound": Theorems 1 and 2. */
#include "tables.h"
#include "../analytic/fujita.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const uint32_t FJ_N[] = {4, 8, 16, 32, 64};
static const char *const FJ_ALGOS[] = {"bus-simple", "bus-simple-refined", "bus-partition", "bus-partition-theta",
                                       "bus-centralize"};

static uint32_t isqrt(uint32_t n) {
  uint32_t r = 0;
  while ((r + 1) * (r + 1) <= n)
    r++;
  return r;
}

/* The ell values of one n, ascending, without duplicates. */
static int ells(uint32_t n, uint64_t *out) {
  uint64_t nn = (uint64_t)n * n, v[9] = {1, 2, 4, isqrt(n), n / 2, n, 2 * (uint64_t)n, nn / 4, nn};
  int k = 0;
  for (int i = 0; i < 9; i++) {
    int dup = 0;
    for (int j = 0; j < k; j++)
      dup |= out[j] == v[i];
    if (!dup && v[i] >= 1) out[k++] = v[i];
  }
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
      uint64_t t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return k;
}

/* The theorem's bound for algorithm a, a short label (the table's column)
 * and a note naming it. */
static double theorem(int a, uint32_t n, uint64_t ell, char *col, size_t clen, char *note, size_t len) {
  static const char *const label[] = {"Thm 3", "Thm 4", "Thm 6", "Thm 8", "Thm 7"};
  snprintf(col, clen, "%s", label[a < 5 ? a : 4]);
  double v;
  uint32_t m;
  switch (a) {
  case 0:
    v = mg_fujita_cor2(n, ell);
    if (!isnan(v)) {
      snprintf(col, clen, "Cor 2");
      snprintf(note, len, "Corollary 2 (ell | ceil(n/2)); Theorem 3 %.6g", mg_fujita_t3(n, ell));
      return v;
    }
    snprintf(note, len, "Theorem 3");
    return mg_fujita_t3(n, ell);
  case 1:
    v = mg_fujita_t4(n, ell);
    if (!isnan(v)) {
      snprintf(note, len, "Theorem 4");
      return v;
    }
    snprintf(note, len, "Theorem 4 needs ell < ceil(n/2), ell not dividing it; Theorem 3 %.6g holds",
             mg_fujita_t3(n, ell));
    return NAN;
  case 2:
    v = mg_fujita_t6(n, ell);
    snprintf(note, len, "Theorem 6 (n/2 + o(n)); its proof counts ceil(n/2)+m+sigma, m = %u",
             mg_fujita_partition_m(n, ell));
    return v;
  case 3:
    m = mg_fujita_theta_m(n, ell);
    snprintf(note, len, "Theorem 8: 2 max(n/2, n^2/2ell) + O(1); section 6 counts ceil(n/2)+m+sigma = %.6g, m = %u",
             mg_fujita_t8_count(n, m), m);
    return mg_fujita_t8(n, ell);
  default:
    v = mg_fujita_t7(n, ell);
    snprintf(note, len, isnan(v) ? "Theorem 7: n/2 + O(log n) only" : "[3] via section 1: floor(n/2)+ceil(log2 n)+2");
    return v;
  }
}

static uint64_t recount(int a, uint32_t n, uint64_t ell) {
  switch (a) {
  case 0: return mg_fujita_simple_steps(n, ell, 0);
  case 1: return mg_fujita_simple_steps(n, ell, 1);
  case 2: return mg_fujita_partition_steps(n, ell, mg_fujita_partition_m(n, ell));
  case 3: return mg_fujita_partition_steps(n, ell, mg_fujita_theta_m(n, ell));
  default: return mg_fujita_centralize_steps(n, ell);
  }
}

mg_status mg_table_fujita_build(mg_table *out, const mg_sim_opts *opts, uint32_t max_n, mg_err *err) {
  mg_status st = MG_OK;
  for (size_t i = 0; i < sizeof FJ_N / sizeof FJ_N[0] && st == MG_OK; i++) {
    uint32_t n = FJ_N[i];
    uint64_t ell[9];
    if (n > max_n) break;
    int ne = ells(n, ell);
    for (int e = 0; e < ne && st == MG_OK; e++) {
      char topo[32];
      mg_problem_spec pb;
      memset(&pb, 0, sizeof pb);
      pb.problem = MG_GOSSIP;
      snprintf(topo, sizeof topo, "meshbus:%u", n);
      if ((st = mg_topo_parse(topo, &pb.topo, err)) != MG_OK) return st;
      mg_model_default(&pb.model);
      pb.model.switching = MG_SW_BUS;
      pb.model.ell = ell[e];
      pb.bytes = 1;
      mg_table_cell c = mg_table_cell_empty();
      snprintf(c.row, sizeof c.row, "n=%u ell=%llu", n, (unsigned long long)ell[e]);
      snprintf(c.col, sizeof c.col, "Thm 1, 2");
      snprintf(c.algorithm, sizeof c.algorithm, "lower bound");
      double t1 = mg_fujita_t1(n), t2 = mg_fujita_t2(n, ell[e]);
      mg_bound b;
      if ((st = mg_lower_bound(&pb, &b, err)) != MG_OK) return st;
      c.paper = t1 > t2 ? t1 : t2;
      c.closed_form = b.lower_bound;
      snprintf(c.note, sizeof c.note, "Theorem 1 %.6g, Theorem 2 %.6g; closed form = max of all valid terms", t1, t2);
      if ((st = mg_table_add(out, &c, err)) != MG_OK) return st;
      for (int a = 0; a < 5 && st == MG_OK; a++) {
        const mg_algo *al = mg_algo_find(FJ_ALGOS[a]);
        mg_params ps;
        mg_err why = {{0}};
        memset(&ps, 0, sizeof ps);
        c = mg_table_cell_empty();
        snprintf(c.row, sizeof c.row, "n=%u ell=%llu", n, (unsigned long long)ell[e]);
        snprintf(c.algorithm, sizeof c.algorithm, "%s", FJ_ALGOS[a]);
        c.paper = theorem(a, n, ell[e], c.col, sizeof c.col, c.note, sizeof c.note);
        if (!al) return mg_fail(err, MG_ERR_NOTFOUND, "algorithm %s is not registered", FJ_ALGOS[a]);
        if (mg_algo_check(al, &pb, &ps, &why) != MG_OK) {
          snprintf(c.note, sizeof c.note, "refused: %.180s", why.msg);
          c.paper = NAN;
        } else {
          if (a == 2 || a == 3) {
            uint32_t m = a == 2 ? mg_fujita_partition_m(n, ell[e]) : mg_fujita_theta_m(n, ell[e]);
            mg_params_set_int(&c.params, "m", m, NULL);
          }
          c.closed_form = (double)recount(a, n, ell[e]);
          if ((st = mg_table_simulate(FJ_ALGOS[a], &pb, opts, &c.simulated, err)) != MG_OK) return st;
        }
        st = mg_table_add(out, &c, err);
      }
    }
  }
  return st;
}

static mg_status build(mg_table *out, const mg_sim_opts *opts, mg_err *err) {
  return mg_table_fujita_build(out, opts, UINT32_MAX, err);
}

const mg_table_desc mg_table_fujita = {
    .name = "fujita",
    .title = "Fujita: mesh-bus gossip steps (ts = 1) against Theorems 1-8",
    .unit = "steps",
    .build = build,
};

/* Delmas, Perennes 1996: the counts g_alpha (rounds), g_delta (sum
 * of the longest dipath per round) and g_tau (flow, units of L) of the
 * protocols on TM(7^i)^3 for i = 1, 2, 3, paper beside ours, and the round
 * lower bound of section 4.
 *
 * paper: Proposition 5.8 / 6.3 (i = 1) and 5.17 / 6.4 as printed;
 * closed form: the recursions of section 5.2.2 solved (delmas.h);
 * simulated: the verified schedule under all-port strict circuit switching
 * (i = 1 here; i = 2 in bench/bench_lee3d.c, which needs 2.4 GB and 7
 * piece-projected runs for lee3d-long; i = 3 does not fit in memory). */
#include "tables.h"
#include "../analytic/delmas.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct sim_counts {
  double g[3];
} sim_counts;

static mg_status simulate(const char *algo, int i, int P, const mg_sim_opts *opts, sim_counts *out, mg_err *err) {
  char topo[48];
  mg_problem_spec pb;
  mg_report rep;
  mg_status st;
  uint32_t n = 1;
  for (int j = 0; j < i; j++)
    n *= 7;
  for (int k = 0; k < 3; k++)
    out->g[k] = NAN;
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_GOSSIP;
  pb.bytes = 1;
  snprintf(topo, sizeof topo, "torus:%ux%ux%u", n, n, n);
  if ((st = mg_topo_parse(topo, &pb.topo, err)) != MG_OK) return st;
  mg_model_default(&pb.model);
  pb.model.switching = MG_SW_CIRCUIT;
  st = mg_run(mg_algo_find(algo), &pb, NULL, opts, &rep, err);
  if (st == MG_OK && rep.verified) {
    out->g[0] = (double)rep.rounds;
    out->g[1] = (double)rep.sum_max_hops;
    out->g[2] = rep.sum_max_items / P;
  }
  mg_report_free(&rep);
  return st == MG_ERR_VIOLATION ? MG_OK : st;
}

static mg_status cell(mg_table *out, int i, const char *label, const char *algo, const char *col, double paper,
                      double closed, double sim, const char *note, mg_err *err) {
  mg_table_cell c = mg_table_cell_empty();
  snprintf(c.row, sizeof c.row, "i=%d %s", i, label);
  snprintf(c.col, sizeof c.col, "%s", col);
  snprintf(c.algorithm, sizeof c.algorithm, "%s", algo);
  snprintf(c.note, sizeof c.note, "%s", note);
  c.paper = paper;
  c.closed_form = closed;
  c.simulated = sim;
  return mg_table_add(out, &c, err);
}

static const char *COLS[3] = {"g_alpha", "g_delta", "g_tau"};

static double pick(mg_delmas_cost c, int k) { return k == 0 ? c.g_alpha : k == 1 ? c.g_delta : c.g_tau; }

static mg_status build(mg_table *out, const mg_sim_opts *opts, mg_err *err) {
  mg_status st = MG_OK;
  for (int i = 1; i <= 3; i++) {
    sim_counts s = {{NAN, NAN, NAN}}, l = {{NAN, NAN, NAN}};
    if (i == 1) {
      MG_CHECK(simulate("lee3d", 1, 1, opts, &s, err));
      MG_CHECK(simulate("lee3d-long", 1, 7, opts, &l, err));
    }
    const char *later = i == 2 ? "simulated by bench_lee3d" : "beyond memory (N = 7^9)";
    mg_delmas_cost ps = mg_delmas_paper(i, 0), pd = mg_delmas_paper(i, 1), pl = mg_delmas_paper(i, 2);
    mg_delmas_cost os = mg_delmas_ours(i, 0), ol = mg_delmas_ours(i, 1);
    if (i == 1) ps.g_tau = 400; /* Proposition 5.8 */
    for (int k = 0; k < 3; k++) {
      char note[200];
      snprintf(note, sizeof note, "%s%s", i == 1 ? "Prop 5.8" : "Prop 5.17 as stated",
               k == 2 && i > 1 ? " (57/49, NL/8); see paper-notes" : "");
      if (i > 1) snprintf(note + strlen(note), sizeof note - strlen(note), "; %s", later);
      MG_CHECK(cell(out, i, "short", "lee3d", COLS[k], pick(ps, k), pick(os, k), s.g[k], note, err));
    }
    if (i == 1)
      MG_CHECK(cell(out, i, "short, 5.17 stated", "lee3d", "g_tau", mg_delmas_paper(1, 0).g_tau, os.g_tau, s.g[2],
                    "Prop 5.17 as stated (57/49, NL/8) at i = 1", err));
    MG_CHECK(cell(out, i, "short, 5.2.2 form", "lee3d", "g_tau", pd.g_tau, os.g_tau, s.g[2],
                  "the derivation's closed form (37/49, N/6)", err));
    for (int k = 0; k < 3; k++) {
      char note[200];
      snprintf(note, sizeof note, "%s", i == 1 ? "Prop 6.3 (6.4 agrees)" : "Prop 6.4");
      if (i > 1) snprintf(note + strlen(note), sizeof note - strlen(note), "; %s", later);
      MG_CHECK(cell(out, i, "long", "lee3d-long", COLS[k], pick(pl, k), pick(ol, k), l.g[k], note, err));
    }
    double N = pow(7, 3 * i);
    uint64_t n = (uint64_t)llround(pow(7, i));
    double pi = mg_delmas_arc_forwarding(n, 3);
    MG_CHECK(cell(out, i, "round lower bound", "", "g_alpha", mg_delmas_cor48(n, 3), mg_delmas_rounds_lb(N, 6, pi), NAN,
                  "paper: Cor 4.8 without its O(); ours: Props 4.4, 4.5, 4.7 solved exactly", err));
    mg_delmas_cost f = mg_delmas_saf(n, 3);
    MG_CHECK(cell(out, i, "Remark 6.5 saf", "", "g_alpha", f.g_alpha, f.g_alpha, NAN,
                  "store-and-forward protocol: g_alpha = g_delta = 3 floor(p/2)", err));
    MG_CHECK(cell(out, i, "Remark 6.5 saf", "", "g_tau", f.g_tau, f.g_tau, NAN, "(N-1)/(2k) L", err));
  }
out:
  return st;
}

const mg_table_desc mg_table_delmas = {
    .name = "delmas",
    .title =
        "Delmas, Perennes 1996: g_alpha, g_delta, g_tau on TM(7^i)^3 (circuit-switched, all-port) and round bounds",
    .unit = "rounds",
    .build = build,
};

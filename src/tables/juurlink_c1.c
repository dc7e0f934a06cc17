/* Juurlink, Rao, Sibeyn 1996 Corollary 1 made visible: on a ring of n = 729 PUs, for
 * log n <= r <= n^(1-eps), tuned CIRCGOS against the better of Approach 1
 * (ring) and Approach 2 (concentrate). The paper gives no numbers here
 * (paper = NaN); the CIRCGOS cell's note carries the factor, its closed
 * form column the n ln n / ln(n/r) of Theorem 1 / Lemma 3 for scale (an
 * estimate, not a bound for our model: docs/paper-notes.md). */
#include "tables.h"

#include "../analytic/juurlink.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double C1_R[] = {7, 10, 20, 50, 100};

static mg_status c1_cell(mg_table *out, const char *algo, double r, double sim, double cf, const mg_params *ps,
                         const char *note, mg_err *err) {
  mg_table_cell c = mg_table_cell_empty();
  snprintf(c.row, sizeof c.row, "n=729 %s", algo);
  snprintf(c.col, sizeof c.col, "r=%g", r);
  snprintf(c.algorithm, sizeof c.algorithm, "%s", algo);
  c.simulated = sim;
  c.closed_form = cf;
  if (ps) c.params = *ps;
  snprintf(c.note, sizeof c.note, "%s", note);
  return mg_table_add(out, &c, err);
}

static mg_status build(mg_table *out, const mg_sim_opts *opts, mg_err *err) {
  mg_status st = MG_OK;
  const mg_algo *cg = mg_algo_find("circgos");
  for (size_t i = 0; i < sizeof C1_R / sizeof C1_R[0] && st == MG_OK; i++) {
    mg_problem_spec pb;
    memset(&pb, 0, sizeof pb);
    pb.problem = MG_GOSSIP;
    if ((st = mg_topo_parse("ring:729", &pb.topo, err)) != MG_OK) return st;
    mg_model_default(&pb.model);
    mg_model_paper_units(&pb.model, C1_R[i], NULL);
    pb.bytes = 1;
    double a1, a2;
    if ((st = mg_table_simulate("ring", &pb, opts, &a1, err)) != MG_OK) return st;
    if ((st = mg_table_simulate("concentrate", &pb, opts, &a2, err)) != MG_OK) return st;
    mg_params best, second;
    mg_report br, sr;
    size_t ev;
    if ((st = mg_tune(cg, &pb, opts, &best, &br, &second, &sr, &ev, err)) != MG_OK) return st;
    double better = a1 < a2 ? a1 : a2, c = br.cost;
    mg_report_free(&br);
    mg_report_free(&sr);
    char note[200];
    snprintf(note, sizeof note,
             "x%.2f over the better of Approaches 1 and 2 (%g); closed form: Theorem 1 n ln n/ln(n/r)", better / c,
             better);
    st = c1_cell(out, "ring", C1_R[i], a1, NAN, NULL, "Approach 1", err);
    if (st == MG_OK) st = c1_cell(out, "concentrate", C1_R[i], a2, NAN, NULL, "Approach 2", err);
    if (st == MG_OK) st = c1_cell(out, "circgos", C1_R[i], c, mg_jrs_lemma3_units(729, C1_R[i]), &best, note, err);
  }
  return st;
}

const mg_table_desc mg_table_juurlink_c1 = {
    .name = "juurlink-cor1",
    .title =
        "Juurlink, Rao, Sibeyn 1996 Corollary 1: ring:729, tuned CIRCGOS vs Approaches 1 and 2 for log n <= r <= n^0.7",
    .unit = "t'_l",
    .build = build,
};

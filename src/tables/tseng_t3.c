/* Tseng, Ni, Sheu 1999 Table 3: start-up (x t_s) and transmission (x b t_x) costs of
 * complete exchange on a 2^d x 2^d torus, d = 4..10: the paper's printed
 * rows (T-2D1, T-2D2 of Suh-Yalamanchili, DP-2D of Tseng et al., T4), our
 * closed forms (Theorem 2 for T4, Lemma 7 for T1; the comparison algorithms
 * have only the table's formula), our simulated, verified count (one-port,
 * strict contention) where the torus fits (d <= 6), and Lemma 8's bounds
 * beside the simulator's bisection bound.
 *
 * Known difference (docs/paper-notes.md): the T4 row for d = 4 prints
 * (1/3) 2^{d+2} where Theorem 2 gives (8/3) 2^{d+2}. */
#include "tables.h"
#include "../analytic/tseng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Simulates algo on topo with ts = 0, tl = 1, L = 1: rounds and blocks on
 * the critical path (NaN if it does not verify). */
mg_status mg_tseng_simulate(const char *algo, const char *topo, const mg_sim_opts *opts, double *startups,
                            double *blocks, mg_err *err) {
  mg_problem_spec pb;
  mg_status st;
  const mg_algo *a;
  mg_params ps;
  mg_report rep;
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_EXCHANGE;
  if ((st = mg_topo_parse(topo, &pb.topo, err)) != MG_OK) return st;
  mg_model_default(&pb.model);
  pb.model.port = MG_PORT_ONE;
  pb.model.ts = 0;
  pb.model.tl = 1;
  pb.bytes = 1;
  if ((st = mg_algo_lookup(algo, &a, &ps, err)) != MG_OK) return st;
  st = mg_run(a, &pb, &ps, opts, &rep, err);
  int ok = st == MG_OK && rep.verified;
  *startups = ok ? (double)rep.startups : NAN;
  *blocks = ok ? rep.cost : NAN;
  mg_report_free(&rep);
  return st == MG_ERR_VIOLATION ? MG_OK : st;
}

mg_status mg_tseng_add(mg_table *out, int d, const char *algo, const char *col, double paper, double closed, double sim,
                       const char *note, mg_err *err) {
  mg_table_cell c = mg_table_cell_empty();
  snprintf(c.row, sizeof c.row, "d=%d %s", d, algo);
  snprintf(c.col, sizeof c.col, "%s", col);
  snprintf(c.algorithm, sizeof c.algorithm, "%s", algo);
  snprintf(c.note, sizeof c.note, "%s", note);
  c.paper = paper;
  c.closed_form = closed;
  c.simulated = sim;
  return mg_table_add(out, &c, err);
}

static mg_status build(mg_table *out, const mg_sim_opts *opts, mg_err *err) {
  mg_status st = MG_OK;
  const char *theirs[] = {"T-2D1", "T-2D2", "DP-2D"};
  for (int d = 4; d <= 10 && st == MG_OK; d++) {
    mg_tseng_cost c, ours = mg_tseng_thm2(d), t1 = mg_tseng_lemma7(d), lb = mg_tseng_lemma8(2, d);
    double ss = NAN, sb = NAN, ts1 = NAN, tb1 = NAN;
    char topo[32];
    snprintf(topo, sizeof topo, "torus:%dx%d", 1 << d, 1 << d);
    for (int i = 0; i < 3 && st == MG_OK; i++)
      if (mg_tseng_table(theirs[i], d, &c)) {
        st = mg_tseng_add(out, d, theirs[i], "startups", c.startups, c.startups, NAN, "closed form as printed", err);
        if (st == MG_OK)
          st = mg_tseng_add(out, d, theirs[i], "transmission", c.blocks, c.blocks, NAN, "closed form as printed", err);
      }
    if (st != MG_OK) break;
    if (d <= 6) {
      if ((st = mg_tseng_simulate("exchange-partitioned", topo, opts, &ss, &sb, err)) != MG_OK) break;
      if ((st = mg_tseng_simulate("exchange-dimwise", topo, opts, &ts1, &tb1, err)) != MG_OK) break;
    }
    mg_tseng_table("T4", d, &c);
    const char *note =
        d == 4 ? "exchange-partitioned; printed (1/3)2^{d+2}, Theorem 2 gives (8/3)2^{d+2}"
               : (d <= 6 ? "exchange-partitioned; Theorem 2" : "Theorem 2; torus too large to simulate here");
    MG_CHECK(mg_tseng_add(out, d, "T4", "startups", c.startups, ours.startups, ss, note, err));
    MG_CHECK(mg_tseng_add(out, d, "T4", "transmission", c.blocks, ours.blocks, sb, note, err));
    MG_CHECK(mg_tseng_add(out, d, "T1", "startups", NAN, t1.startups, ts1, "exchange-dimwise; Lemma 7", err));
    MG_CHECK(mg_tseng_add(out, d, "T1", "transmission", NAN, t1.blocks, tb1, "exchange-dimwise; Lemma 7", err));
    /* Lemma 8 beside the simulator's bound (the narrowest cut, one-port
     * doubling), computed for the same torus with ts = tl = 1 */
    mg_problem_spec pb;
    mg_bound b;
    memset(&pb, 0, sizeof pb);
    pb.problem = MG_EXCHANGE;
    MG_CHECK(mg_topo_parse(topo, &pb.topo, err));
    mg_model_default(&pb.model);
    pb.model.port = MG_PORT_ONE;
    pb.model.ts = 1;
    pb.model.tl = 1;
    pb.bytes = 1;
    MG_CHECK(mg_lower_bound(&pb, &b, err));
    double bis = NAN, su = NAN;
    for (int k = 0; k < b.n; k++) {
      if (!strcmp(b.term[k].name, "bisection")) bis = b.term[k].value;
      if (!strcmp(b.term[k].name, "startups")) su = b.term[k].value;
    }
    MG_CHECK(mg_tseng_add(out, d, "Lemma 8", "startups", lb.startups, su, NAN, "bound: lg(n^2); ours: log2 N", err));
    MG_CHECK(
        mg_tseng_add(out, d, "Lemma 8", "transmission", lb.blocks, bis, NAN, "bound: n^3/8; ours: bisection", err));
  }
out:
  return st;
}

const mg_table_desc mg_table_tseng_t3 = {
    .name = "tseng-t3",
    .title = "Tseng, Ni, Sheu 1999 Table 3: complete exchange on 2^d x 2^d tori (x t_s, x b t_x)",
    .unit = "t_s | b t_x",
    .build = build,
};

/* Tseng, Ni, Sheu 1999 section 7: synchronisation of the ring gather-scatter exchange
 * on rings of 2^d, d = 3..10. Columns: the global barriers a lock-step run
 * needs (2d-5, section 7.1); the local null-message synchronisations that
 * replace them (2d-5, section 7.2), counted in the simulated sync=1
 * schedule as the rounds it adds; the cost of that variant at t_s = 100
 * t_x, b = 1 (null messages priced t_s each), closed form beside the
 * simulated, verified cost. */
#include "tables.h"
#include "../analytic/tseng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static mg_status sim(const char *algo, uint32_t n, const mg_sim_opts *opts, mg_report *rep, double *closed,
                     mg_err *err) {
  mg_problem_spec pb;
  const mg_algo *a;
  mg_params ps;
  char topo[32];
  mg_status st;
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_EXCHANGE;
  snprintf(topo, sizeof topo, "ring:%u", n);
  if ((st = mg_topo_parse(topo, &pb.topo, err)) != MG_OK) return st;
  mg_model_default(&pb.model);
  pb.model.port = MG_PORT_ONE;
  pb.model.ts = 100;
  pb.model.tl = 1;
  pb.bytes = 1;
  if ((st = mg_algo_lookup(algo, &a, &ps, err)) != MG_OK) return st;
  if (closed && a->closed_form(&pb, &ps, closed, NULL) != MG_OK) *closed = NAN;
  return mg_run(a, &pb, &ps, opts, rep, err);
}

static mg_status build(mg_table *out, const mg_sim_opts *opts, mg_err *err) {
  mg_status st = MG_OK;
  for (int d = 3; d <= 10 && st == MG_OK; d++) {
    mg_report plain, synced;
    double cf = NAN;
    memset(&plain, 0, sizeof plain);
    memset(&synced, 0, sizeof synced);
    st = sim("exchange-ring", 1u << d, opts, &plain, NULL, err);
    if (st == MG_OK) st = sim("exchange-ring:sync=1", 1u << d, opts, &synced, &cf, err);
    if (st == MG_OK) {
      int ok = plain.verified && synced.verified;
      double b = mg_tseng_barriers(d);
      st = mg_tseng_add(out, d, "exchange-ring", "global barriers", b, b, NAN, "section 7.1", err);
      if (st == MG_OK)
        st = mg_tseng_add(out, d, "exchange-ring", "null-message syncs", b, b,
                          ok ? (double)(synced.rounds - plain.rounds) : NAN,
                          "section 7.2; simulated: rounds added by sync=1", err);
      if (st == MG_OK)
        st = mg_tseng_add(out, d, "exchange-ring:sync=1", "cost ts=100", NAN, cf, ok ? synced.cost : NAN,
                          "(4d-7) t_s + Theorem 1 blocks", err);
    }
    mg_report_free(&plain);
    mg_report_free(&synced);
  }
  return st;
}

const mg_table_desc mg_table_tseng_sync = {
    .name = "tseng-sync",
    .title = "Tseng, Ni, Sheu 1999 section 7: barriers and null-message synchronisation on rings of 2^d",
    .unit = "count | b t_x",
    .build = build,
};

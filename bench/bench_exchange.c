/* Figures for Tseng, Ni, Sheu 1999 complete exchange (printed, never asserted):
 *   1. exchange-partitioned (T4) on torus:64x64 and (C64) on torus:16x16x16:
 *      wall time and peak RSS of generation + simulation;
 *   2. section 5's conjecture: exchange-ring on rings of any length n against
 *      T_1D(ceil(lg n), b) of Theorem 1 (start-ups and critical-path blocks).
 * Usage: bench_exchange [max_ring]   (default 128) */
#include "meshgossip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/analytic/tseng.h"

static int run(const char *algo, const char *topo, const char *model, mg_report *rep) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  const mg_algo *a;
  mg_params ps;
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_EXCHANGE;
  pb.bytes = 1;
  mg_model_default(&pb.model);
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK || mg_model_parse(model, &pb.model, &err) != MG_OK ||
      mg_algo_lookup(algo, &a, &ps, &err) != MG_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 0;
  }
  mg_status st = mg_run(a, &pb, &ps, NULL, rep, &err);
  if (st != MG_OK) fprintf(stderr, "%s on %s: %s\n", algo, topo, err.msg);
  return st == MG_OK && rep->verified;
}

int main(int argc, char **argv) {
  int maxn = argc > 1 ? atoi(argv[1]) : 128;
  const char *big[][2] = {{"exchange-partitioned", "torus:64x64"}, {"exchange-partitioned", "torus:16x16x16"}};
  for (int i = 0; i < 2; i++) {
    mg_report rep;
    double t0 = mg_now();
    int ok = run(big[i][0], big[i][1], "port=one,contention=strict,ts=0,tl=1", &rep);
    printf("%-22s %-16s verified=%d rounds=%lld blocks=%.0f sim_wall=%.2fs total_wall=%.2fs peak_rss=%.0f MB\n",
           big[i][0], big[i][1], ok, (long long)rep.rounds, rep.cost, rep.wall_s, mg_now() - t0,
           (double)mg_peak_rss() / 1e6);
    mg_report_free(&rep);
  }
  printf("\nsection 5 conjecture: exchange-ring on ring:n vs T_1D(ceil(lg n)) (Theorem 1)\n");
  printf("%5s %3s %8s %8s %10s %10s  %s\n", "n", "d", "rounds", "T1D_ts", "blocks", "T1D_blocks", "holds?");
  int hold_both = 0, hold_tx = 0, total = 0;
  for (int n = 5; n <= maxn; n++) {
    int d = 0;
    while ((1 << d) < n)
      d++;
    mg_report rep;
    char topo[32];
    snprintf(topo, sizeof topo, "ring:%d", n);
    if (!run("exchange-ring", topo, "port=one,contention=strict,ts=0,tl=1", &rep)) return 1;
    mg_tseng_cost c = mg_tseng_thm1(d);
    int ts_ok = rep.startups <= c.startups, tx_ok = rep.cost <= c.blocks;
    total++;
    hold_both += ts_ok && tx_ok;
    hold_tx += tx_ok;
    printf("%5d %3d %8lld %8.0f %10.0f %10.0f  %s\n", n, d, (long long)rep.startups, c.startups, rep.cost, c.blocks,
           ts_ok && tx_ok ? "yes" : (tx_ok ? "blocks only" : "no"));
    mg_report_free(&rep);
  }
  printf("rings 5..%d: %d of %d within T_1D in both start-ups and blocks; %d within in blocks\n", maxn, hold_both,
         total, hold_tx);
  return 0;
}

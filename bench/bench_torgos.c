/* Benchmark: torgos verified on torus:243x243 (59,049 nodes, P = 2: the
 * gossip state is 2 N * ceil(2N/64) words, about 1.74 GB), and cubgos and
 * dimwise-colored on torus:27x27x27; prints wall time, peak RSS, cost.
 * Usage: bench_torgos [torgos-spec [topology]] */
#include <stdio.h>
#include <string.h>

#include "meshgossip.h"

static int one(const char *spec, const char *topo, double r) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  const mg_algo *a;
  mg_params ps;
  mg_report rep;
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_GOSSIP;
  pb.bytes = 1;
  mg_model_default(&pb.model);
  mg_model_paper_units(&pb.model, r, NULL);
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK || mg_algo_lookup(spec, &a, &ps, &err) != MG_OK) {
    fprintf(stderr, "bench_torgos: %s\n", err.msg);
    return 2;
  }
  double t0 = mg_now();
  mg_status st = mg_run(a, &pb, &ps, NULL, &rep, &err);
  double wall = mg_now() - t0;
  printf("%-28s %-16s r=%-4g status=%s verified=%d rounds=%lld cost=%.1f wall=%.1fs peak_rss=%.2fGB\n", spec, topo, r,
         mg_strerror(st), st == MG_OK && rep.verified, (long long)rep.rounds, rep.cost, wall,
         (double)mg_peak_rss() / 1e9);
  if (st == MG_OK) mg_report_free(&rep);
  return st == MG_OK && rep.verified ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc > 1) return one(argv[1], argc > 2 ? argv[2] : "torus:243x243", 30);
  int rc = one("cubgos", "torus:27x27x27", 30);
  rc |= one("dimwise-colored", "torus:27x27x27", 30);
  rc |= one("torgos:a=3,b=9,x=7", "torus:243x243", 30);
  return rc;
}

/* CIRCGOS parameter search: the time `tune` takes on Juurlink, Rao, Sibeyn 1996's Table 1
 * rings, and a brute-force check of its choice on the smaller rings (every
 * a in 2..n and b in 1..floor(a/2)+40 simulated and verified, without
 * the refinement, with skip=1 and with skip=2). Prints figures; asserts
 * nothing. */
#include "meshgossip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problem(uint32_t n, double r, mg_problem_spec *pb) {
  char topo[32];
  memset(pb, 0, sizeof *pb);
  pb->problem = MG_GOSSIP;
  snprintf(topo, sizeof topo, "ring:%u", n);
  if (mg_topo_parse(topo, &pb->topo, NULL) != MG_OK) return 0;
  mg_model_default(&pb->model);
  mg_model_paper_units(&pb->model, r, NULL);
  pb->bytes = 1;
  return 1;
}

int main(int argc, char **argv) {
  const mg_algo *cg = mg_algo_find("circgos");
  const double rs[4] = {2, 10, 50, 250};
  const uint32_t ns[4] = {27, 81, 243, 729};
  uint32_t brute_max = argc > 1 ? (uint32_t)atoi(argv[1]) : 81;
  printf("%-6s %-6s %10s %-24s %10s %-24s %8s\n", "n", "r", "tuned", "params", "brute", "params", "tune s");
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      mg_problem_spec pb;
      if (!problem(ns[i], rs[j], &pb)) return 2;
      mg_params best, second;
      mg_report br, sr;
      size_t ev;
      double t0 = mg_now();
      if (mg_tune(cg, &pb, NULL, &best, &br, &second, &sr, &ev, NULL) != MG_OK) return 1;
      double dt = mg_now() - t0;
      char p1[96], p2[96] = "-";
      double bc = -1;
      if (ns[i] <= brute_max) {
        for (uint32_t a = 2; a <= ns[i]; a++)
          for (uint32_t b = 1; b <= a / 2 + 40 && b <= 2 * ns[i]; b++)
            for (int skip = 0; skip < 3; skip++) {
              char spec[96];
              const mg_algo *al;
              mg_params ps;
              mg_report rep;
              snprintf(spec, sizeof spec, "circgos:a=%u,b=%u,skip=%d", a, b, skip);
              if (mg_algo_lookup(spec, &al, &ps, NULL) != MG_OK) return 1;
              if (mg_run(al, &pb, &ps, NULL, &rep, NULL) == MG_OK && rep.verified && (bc < 0 || rep.cost < bc)) {
                bc = rep.cost;
                mg_params_format(&ps, p2, sizeof p2);
              }
              mg_report_free(&rep);
            }
      }
      printf("%-6u %-6g %10g %-24s %10g %-24s %8.3f\n", ns[i], rs[j], br.cost, mg_params_format(&best, p1, sizeof p1),
             bc, p2, dt);
      mg_report_free(&br);
      mg_report_free(&sr);
    }
  return 0;
}

/* Benchmark: the simulator on the largest 1D instances of Juurlink, Rao, Sibeyn 1996.
 * Prints wall time, peak RSS and, as a baseline measured in the same run,
 * the time of one raw OR pass over a state of the same size per round (the
 * O(N^2/64) floor a "send all held" round cannot beat), and the ratio. */
#include "meshgossip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double raw_pass_seconds(uint32_t N, int64_t rounds) {
  uint64_t W = (N + 63) / 64, words = (uint64_t)N * W;
  uint64_t *a = calloc(words, 8), *b = calloc(words, 8);
  if (!a || !b) {
    free(a);
    free(b);
    return -1;
  }
  double t0 = mg_now();
  for (int64_t r = 0; r < rounds; r++) {
    for (uint64_t i = 0; i < words; i++)
      b[i] |= a[i] ^ (uint64_t)r;
  }
  double t = mg_now() - t0;
  volatile uint64_t sink = b[words / 2];
  (void)sink;
  free(a);
  free(b);
  return t;
}

static int bench(const char *algo, const char *topo, double r) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  memset(&pb, 0, sizeof pb);
  pb.problem = MG_GOSSIP;
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK) return fprintf(stderr, "%s\n", err.msg), 1;
  mg_model_default(&pb.model);
  mg_model_paper_units(&pb.model, r, NULL);
  pb.bytes = 1;
  mg_report rep;
  mg_status st = mg_run(mg_algo_find(algo), &pb, NULL, NULL, &rep, &err);
  if (st != MG_OK) return fprintf(stderr, "%s on %s: %s\n", algo, topo, err.msg), 1;
  double raw = raw_pass_seconds(pb.topo.N, rep.rounds);
  printf("%-12s %-12s verified=%s rounds=%-5lld transfers=%-9llu cost=%-10.0f wall=%7.3f s  peak_rss=%7.1f MiB  "
         "raw_pass=%7.3f s  ratio=%.2f\n",
         algo, topo, rep.verified ? "yes" : "NO", (long long)rep.rounds, (unsigned long long)rep.transfers, rep.cost,
         rep.wall_s, (double)rep.peak_rss_bytes / 1048576.0, raw, raw > 0 ? rep.wall_s / raw : 0);
  mg_report_free(&rep);
  return 0;
}

int main(int argc, char **argv) {
  int quick = argc > 1 && !strcmp(argv[1], "--quick");
  int bad = 0;
  bad |= bench("ring", "ring:4096", 10);
  bad |= bench("concentrate", "ring:4096", 10);
  if (!quick) bad |= bench("concentrate", "ring:59049", 10);
  return bad;
}

/* The MPI baselines on bigger tori and meshes than the tests use: every
 * registered algorithm of the problem through `compare` (contention=shared,
 * Paragon-like ts = 3e-4 s, tl = 2.2e-8 s/B), the cost of each, the best
 * torus-aware and the best MPI algorithm, their factor, and the wall time
 * of the whole comparison. Prints figures; asserts nothing.
 *
 *   build/bench_mpi_baselines [TOPO ...]
 */
#include "meshgossip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void one(mg_problem problem, const char *topo, double bytes) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  memset(&pb, 0, sizeof pb);
  pb.problem = problem;
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK) {
    fprintf(stderr, "bench_mpi_baselines: %s\n", err.msg);
    return;
  }
  mg_model_default(&pb.model);
  if (mg_model_parse("contention=shared,ts=3e-4,td=0,tl=2.2e-8", &pb.model, &err) != MG_OK) return;
  pb.bytes = bytes;
  mg_compare_row *rows;
  size_t n;
  double t0 = mg_now();
  if (mg_compare(&pb, NULL, 1, &rows, &n, &err) != MG_OK) {
    fprintf(stderr, "bench_mpi_baselines: %s\n", err.msg);
    return;
  }
  double wall = mg_now() - t0;
  printf("%s on %s, %g bytes (compare took %.2f s)\n", mg_problem_name(problem), topo, bytes, wall);
  double seed = INFINITY, mpi = INFINITY;
  const char *seed_name = "-", *mpi_name = "-";
  for (size_t i = 0; i < n; i++) {
    const mg_compare_row *r = &rows[i];
    if (r->refused) {
      printf("  %-26s refused: %s\n", r->algo->name, r->reason);
      continue;
    }
    if (!r->rep.verified) {
      printf("  %-26s not verified: %s\n", r->algo->name, r->rep.violation.msg);
      continue;
    }
    printf("  %-26s %12.3f ms %8lld rounds\n", r->algo->name, r->rep.cost * 1e3, (long long)r->rep.rounds);
    int is_mpi = !strncmp(r->algo->name, "mpi-", 4);
    if (is_mpi && r->rep.cost < mpi) mpi = r->rep.cost, mpi_name = r->algo->name;
    if (!is_mpi && r->rep.cost < seed) seed = r->rep.cost, seed_name = r->algo->name;
  }
  if (isfinite(seed) && isfinite(mpi))
    printf("  best torus-aware %s, best MPI %s: factor %.2f\n\n", seed_name, mpi_name, mpi / seed);
  else
    printf("  best torus-aware %s, best MPI %s\n\n", seed_name, mpi_name);
  for (size_t i = 0; i < n; i++)
    mg_report_free(&rows[i].rep);
  free(rows);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    for (int i = 1; i < argc; i++) {
      one(MG_GOSSIP, argv[i], 32768);
      one(MG_EXCHANGE, argv[i], 1024);
    }
    return 0;
  }
  const char *gossip[] = {"ring:729", "torus:27x27", "mesh:27x27", "torus:32x32", "torus:8x8x8", "torus:9x9x9"};
  for (size_t i = 0; i < sizeof gossip / sizeof gossip[0]; i++)
    one(MG_GOSSIP, gossip[i], 32768);
  const char *exchange[] = {"torus:16x16", "mesh:16x16", "torus:8x8x8"};
  for (size_t i = 0; i < sizeof exchange / sizeof exchange[0]; i++)
    one(MG_EXCHANGE, exchange[i], 1024);
  return 0;
}

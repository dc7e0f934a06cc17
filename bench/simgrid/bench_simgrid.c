/* The S4U replay (--engine simgrid) measured: agreement with SMPI, scale.
 *
 *   bench_simgrid agree [results.csv]
 *     For every row of the Paragon experiment (bench/paragon/results/
 *     results.csv: SMPI 3.32, our executor on the 9x9 / 8x8 TORUS cluster,
 *     175 MB/s, 50 ns per hop, 250 us of send overhead per message) whose
 *     schedule ran on its own topology (not the ring:81 rows), replays the
 *     same schedule (generated under the experiment's calibrated model)
 *     with the executor's clock (sync=rank), SMPI's network model
 *     (network=smpi), o = 250 us, or = 0, sends of 1 MiB or more not
 *     detached (detach=1048576, as the experiment's smpi config), on the
 *     experiment's own platform (routes=simgrid: the TORUS cluster, whose
 *     ties on 8x8 go the other way from ours), and prints SMPI's time, the
 *     replay's and their ratio, then the data-dependency clock's time
 *     (sync=data, what the executor would take without round barriers);
 *     last a summary line.
 *   bench_simgrid scale
 *     Wall time and peak RSS of the replay (data clock, CM02, Paragon
 *     regime, o = ts = 250 us) for torgos on torus:16x16, 32x32, 64x64 at
 *     4 KiB per node and exchanges on 16x16 and 8x8x8 at 1 KiB per block,
 *     beside the model's cost (contention=shared).
 *
 * Prints figures only (no assertions); docs/engine.md keeps a run. */
#include "meshgossip.h"
#include "meshgossip_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAGON_MODEL "contention=shared,ts=2.5e-4,td=5e-8,tl=5.714285714285714e-9"
/* The model the Paragon experiment's schedules were planned under:
 * paragon.c passes no model to mg_mpi_*_init, so the executor plans with
 * MG_MPI_DEFAULT_MODEL (contention=shared), whatever --model it got for
 * its predictions. dimwise and dimwise-colored pick their 1D schedules by
 * cost, so the replay must plan under the same model, and time on the
 * Paragon links (engine options tl, td). */
#define PLANNING_MODEL "contention=shared,ts=5e-6,td=0,tl=5e-10"
#define PARAGON_LINKS  "tl=5.714285714285714e-9,td=5e-8"

static int replay(const char *algo, const char *topo, double bytes, const char *model, const char *engine,
                  mg_report *rep, mg_engine_result *res) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_problem_spec pb;
  memset(&pb, 0, sizeof pb);
  mg_engine_opts eo;
  if (mg_algo_lookup(algo, &a, &ps, &err) != MG_OK || mg_topo_parse(topo, &pb.topo, &err) != MG_OK ||
      mg_engine_parse(engine, &eo, &err) != MG_OK)
    goto fail;
  pb.problem = a->problem;
  pb.bytes = bytes;
  mg_model_default(&pb.model);
  if (mg_model_parse(model, &pb.model, &err) != MG_OK) goto fail;
  if (mg_engine_run(a, &pb, &ps, NULL, &eo, mg_simgrid_replay, rep, res, &err) != MG_OK) goto fail;
  return 1;
fail:
  fprintf(stderr, "bench_simgrid: %s on %s: %s\n", algo, topo, err.msg);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int agree(const char *csv) {
  FILE *f = fopen(csv, "r");
  if (!f) {
    perror(csv);
    return 1;
  }
  char line[512];
  double dev[512];
  int n = 0, within = 0;
  printf("%-9s %-10s %7s %-22s %12s %12s %8s %12s\n", "problem", "topology", "bytes", "algorithm", "smpi_s", "replay_s",
         "ratio", "data_s");
  while (fgets(line, sizeof line, f)) {
    char *fld[10];
    int k = 0;
    for (char *s = strtok(line, ",\n"); s && k < 10; s = strtok(NULL, ",\n"))
      fld[k++] = s;
    /* problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct */
    if (k < 9 || strcmp(fld[3], "ours") != 0 || strcmp(fld[1], fld[5]) != 0 || strcmp(fld[8], "1") != 0) continue;
    double bytes = atof(fld[2]), smpi = atof(fld[6]);
    mg_report rep;
    mg_engine_result rank, data;
    if (!replay(fld[4], fld[1], bytes, PLANNING_MODEL,
                "simgrid:o=2.5e-4,or=0,sync=rank,network=smpi,detach=1048576,routes=simgrid," PARAGON_LINKS, &rep,
                &rank))
      continue;
    mg_report_free(&rep);
    if (!replay(fld[4], fld[1], bytes, PLANNING_MODEL,
                "simgrid:o=2.5e-4,or=0,sync=data,network=smpi,routes=simgrid," PARAGON_LINKS, &rep, &data))
      continue;
    mg_report_free(&rep);
    double ratio = rank.time_s / smpi;
    if (n < 512) dev[n++] = fabs(ratio - 1);
    if (fabs(ratio - 1) <= 0.05) within++;
    printf("%-9s %-10s %7.0f %-22s %12.6g %12.6g %8.4f %12.6g\n", fld[0], fld[1], bytes, fld[4], smpi, rank.time_s,
           ratio, data.time_s);
    fflush(stdout);
  }
  fclose(f);
  if (!n) return 1;
  qsort(dev, (size_t)n, sizeof *dev, cmp_double);
  printf("summary: %d cells, %d within 5%% of SMPI, median |replay/smpi - 1| = %.4f, max = %.4f\n", n, within,
         dev[n / 2], dev[n - 1]);
  return 0;
}

static int scale(void) {
  static const struct {
    const char *algo, *topo;
    double bytes;
  } cases[] = {
      {"torgos", "torus:16x16", 4096},
      {"torgos", "torus:32x32", 4096},
      {"torgos", "torus:64x64", 4096},
      {"exchange-partitioned", "torus:16x16", 1024},
      {"mpi-alltoall-direct", "torus:16x16", 1024},
      {"exchange-dimwise", "torus:8x8x8", 1024},
      {"mpi-alltoall-direct", "torus:8x8x8", 1024},
  };
  printf("%-22s %-12s %7s %9s %12s %12s %9s %10s %10s %11s\n", "algorithm", "topology", "bytes", "messages", "replay_s",
         "model_s", "model/rep", "wall_s", "cpu_s", "replay_MiB");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mg_report rep;
    mg_engine_result res;
    double t0 = mg_now();
    if (!replay(cases[i].algo, cases[i].topo, cases[i].bytes, PARAGON_MODEL, "simgrid", &rep, &res)) continue;
    double wall = mg_now() - t0;
    printf("%-22s %-12s %7.0f %9llu %12.6g %12.6g %9.4f %10.2f %10.2f %11.1f\n", cases[i].algo, cases[i].topo,
           cases[i].bytes, (unsigned long long)res.messages, res.time_s, rep.cost, rep.cost / res.time_s, wall,
           res.cpu_s, (double)res.peak_rss_bytes / 1048576.0);
    printf("    (wall: verifier %.2f s, replay %.2f s; this process's peak RSS so far %.1f MiB)\n", rep.wall_s,
           res.wall_s, (double)mg_peak_rss() / 1048576.0);
    fflush(stdout);
    mg_report_free(&rep);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "agree")) return agree(argc >= 3 ? argv[2] : "bench/paragon/results/results.csv");
  if (argc >= 2 && !strcmp(argv[1], "scale")) return scale();
  fprintf(stderr, "usage: bench_simgrid agree [results.csv] | bench_simgrid scale\n");
  return 2;
}

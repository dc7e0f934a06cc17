/* The Paragon experiment of Juurlink, Rao, Sibeyn 1996 section 7, on SimGrid's SMPI (or any
 * MPI). One run times, at each message size (bytes per rank):
 *   ours  every registered algorithm of the problem that runs on --topo,
 *         and every 1D one on the ring of all ranks (row-major order), each
 *         through a meshgossip plan; with its predicted time (the
 *         simulator's cost under --model, e.g. from `meshgossip-mpi
 *         calibrate` on the same platform);
 *   mpi   the MPI library's own MPI_Allgather / MPI_Alltoall (under SMPI
 *         the algorithm chosen by --cfg=smpi/allgather:NAME, labelled
 *         --label NAME).
 * Every result is checked byte for byte. Prints CSV on rank 0:
 *   problem,topology,bytes,kind,algorithm,run_topology,simulated_s,predicted_s,correct
 * usage: paragon --problem gossip|exchange --topo torus:9x9 --sizes a,b,..
 *                [--model SPEC] [--label NAME] [--only ours|mpi]
 *                [--algos SPEC,SPEC..]  (ours: only these "NAME[:k=v]" specs,
 *                 params separated by '+', e.g. greedy-links:chunks=2; or per size,
 *                 "SPEC<=BYTES;...;SPEC" as MESHGOSSIP_ALLGATHER takes it)
 *                [--ring no]  (ours: not also on the ring of all ranks)
 *                [--sync data]  (ours: the executor's sync=data, no round
 *                barrier; the rows' kind is then "ours-data") */
#include "meshgossip_mpi.h"
#include "../../src/algo/spec_size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char val(int r, int d, long i) { return (unsigned char)(r * 29 + d * 7 + i * 13 + (i >> 9)); }

static void fill(mg_problem pr, int me, int n, unsigned char *s, long m) {
  for (int d = 0; d < (pr == MG_GOSSIP ? 1 : n); d++)
    for (long i = 0; i < m; i++)
      s[d * m + i] = val(me, pr == MG_GOSSIP ? 0 : d, i);
}

static int check(mg_problem pr, int me, int n, const unsigned char *r, long m) {
  for (int q = 0; q < n; q++)
    for (long i = 0; i < m; i++)
      if (r[q * m + i] != val(q, pr == MG_GOSSIP ? 0 : me, i)) return 0;
  return 1;
}

/* Simulated time of one call: warm-up, then one timed call (SMPI is
 * deterministic), from the instant the last rank enters to the instant the
 * last rank leaves (MPI_Wtime is the simulated clock, global in SMPI). */
static double timed(mg_problem pr, mg_mpi_plan *p, unsigned char *s, unsigned char *r, int m, int *ok) {
  int rc = 0, me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  for (int rep = 0; rep < 2; rep++) {
    memset(r, 0, (size_t)m * n);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (p)
      rc |= mg_mpi_start(p, s, r);
    else if (pr == MG_GOSSIP)
      rc |= MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD);
    else
      rc |= MPI_Alltoall(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD);
    double t1 = MPI_Wtime(), start = 0, end = 0;
    MPI_Allreduce(&t0, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double worst = end - start;
    if (rep == 1) {
      int good = rc == MPI_SUCCESS && check(pr, me, n, r, m), all = 0;
      MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      *ok = all;
      return worst;
    }
  }
  return 0;
}

/* The model's price as the executor's auto sees it: shared arcs unless the
 * model shares them its own way, and the async clock under sync=data. */
static double predicted(const mg_algo *a, const mg_params *ps, mg_problem pr, const char *topo, const char *model,
                        long m, int dataflow) {
  mg_problem_spec pb;
  memset(&pb, 0, sizeof pb);
  pb.problem = pr;
  pb.bytes = (double)m;
  mg_model_default(&pb.model);
  if (mg_model_parse(MG_MPI_DEFAULT_MODEL, &pb.model, NULL) != MG_OK ||
      (model && mg_model_parse(model, &pb.model, NULL) != MG_OK) || mg_topo_parse(topo, &pb.topo, NULL) != MG_OK)
    return -1;
  if (pb.model.contention == MG_CONT_STRICT) pb.model.contention = MG_CONT_SHARED;
  if (dataflow) pb.model.timing = MG_TIMING_ASYNC;
  mg_report rep;
  double c = mg_run(a, &pb, ps, NULL, &rep, NULL) == MG_OK ? rep.cost : -1;
  mg_report_free(&rep);
  return c;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const char *topo = NULL, *model = NULL, *label = "default", *only = NULL, *sizes = "32768", *algos = NULL;
  const char *sync = NULL;
  int no_ring = 0; /* --ring no: skip the runs on the ring of all ranks */
  mg_problem pr = MG_GOSSIP;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--topo"))
      topo = argv[i + 1];
    else if (!strcmp(argv[i], "--model"))
      model = argv[i + 1];
    else if (!strcmp(argv[i], "--label"))
      label = argv[i + 1];
    else if (!strcmp(argv[i], "--only"))
      only = argv[i + 1];
    else if (!strcmp(argv[i], "--algos"))
      algos = argv[i + 1];
    else if (!strcmp(argv[i], "--sizes"))
      sizes = argv[i + 1];
    else if (!strcmp(argv[i], "--sync"))
      sync = argv[i + 1];
    else if (!strcmp(argv[i], "--ring"))
      no_ring = !strcmp(argv[i + 1], "no");
    else if (!strcmp(argv[i], "--problem"))
      pr = !strcmp(argv[i + 1], "exchange") ? MG_EXCHANGE : MG_GOSSIP;
  }
  char ring[32];
  snprintf(ring, sizeof ring, "ring:%d", n);
  if (!topo) topo = ring;
  long sz[32];
  int ns = 0;
  for (char *p = (char *)sizes; *p && ns < 32;) {
    sz[ns++] = strtol(p, &p, 10);
    if (*p == ',') p++;
  }
  long maxm = 0;
  for (int i = 0; i < ns; i++)
    if (sz[i] > maxm) maxm = sz[i];
  unsigned char *s = malloc((size_t)maxm * n + 1), *r = malloc((size_t)maxm * n + 1);
  const char *pname = pr == MG_GOSSIP ? "gossip" : "exchange";
  for (int k = 0; k < ns; k++) {
    int m = (int)sz[k], ok = 0;
    fill(pr, me, n, s, m);
    if (!only || !strcmp(only, "mpi")) {
      double t = timed(pr, NULL, s, r, m, &ok);
      if (me == 0) printf("%s,%s,%d,mpi,%s,%s,%.9g,,%d\n", pname, topo, m, label, topo, t, ok);
    }
    if (only && strcmp(only, "ours") != 0) continue;
    /* the specs to run: every registered algorithm, or --algos */
    char specs[64][192];
    int nspec = 0;
    if (algos) {
      for (const char *q = algos; *q && nspec < 64;) {
        size_t len = strcspn(q, ",");
        snprintf(specs[nspec], sizeof specs[0], "%.*s", (int)len, q);
        for (char *c = specs[nspec]; *c; c++)
          if (*c == '+') *c = ',';
        nspec++;
        q += len + (q[len] == ',');
      }
    } else {
      for (size_t i = 0; i < mg_algo_count() && nspec < 64; i++)
        snprintf(specs[nspec++], sizeof specs[0], "%s", mg_algo_at(i)->name);
    }
    for (int i = 0; i < nspec; i++) {
      const mg_algo *a;
      mg_params aps;
      char one[192]; /* a per-size spec "SPEC<=BYTES;...;SPEC": the entry for m (the executor picks the same) */
      if (mg_spec_by_size(specs[i], (uint64_t)m, one, sizeof one, NULL) != MG_OK ||
          mg_algo_lookup(one, &a, &aps, NULL) != MG_OK)
        continue;
      if (a->problem != pr) continue;
      const char *runs[2] = {topo, ring};
      for (int j = 0; j < 2; j++) {
        if (j == 1 && (no_ring || !strcmp(topo, ring))) break;
        mg_mpi_opts o = {.topo = runs[j], .algo = specs[i], .sync = sync};
        mg_mpi_plan *p = NULL;
        int rc = pr == MG_GOSSIP ? mg_mpi_allgather_init(m, MPI_BYTE, m, MPI_BYTE, MPI_COMM_WORLD, &o, &p)
                                 : mg_mpi_alltoall_init(m, MPI_BYTE, m, MPI_BYTE, MPI_COMM_WORLD, &o, &p);
        if (rc != MPI_SUCCESS) continue; /* refuses this topology: the same on every rank */
        double t = timed(pr, p, s, r, m, &ok);
        char name[192]; /* the CSV field: parameters joined by '+', as --algos takes them */
        snprintf(name, sizeof name, "%s", mg_mpi_plan_algorithm(p));
        for (char *c = name; *c; c++)
          if (*c == ',') *c = '+';
        if (me == 0)
          printf("%s,%s,%d,%s,%s,%s,%.9g,%.9g,%d\n", pname, topo, m,
                 strcmp(mg_mpi_plan_sync(p), "data") ? "ours" : "ours-data", name, runs[j], t,
                 predicted(a, &aps, pr, runs[j], model, m, !strcmp(mg_mpi_plan_sync(p), "data")), ok);
        mg_mpi_plan_free(&p);
      }
    }
  }
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}

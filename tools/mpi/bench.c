/* meshgossip-mpi bench: one meshgossip allgather plan against the MPI
 * library's own MPI_Allgather at each size (see meshgossip_mpi.c). */
#include "mpi_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_tool_bench(const args *a, int me, int n) {
  long maxm = 0;
  for (int i = 0; i < a->nsizes; i++)
    if (a->sizes[i] > maxm) maxm = a->sizes[i];
  char *s = malloc((size_t)maxm + 1), *r = malloc((size_t)maxm * (size_t)n + 1);
  if (!s || !r) return 1;
  memset(s, me, (size_t)maxm + 1);
  if (me == 0 && !a->json) printf("%10s %-24s %14s %14s %8s\n", "bytes", "algorithm", "meshgossip_s", "mpi_s", "ratio");
  if (me == 0 && a->json) printf("[");
  for (int i = 0; i < a->nsizes; i++) {
    int m = (int)a->sizes[i];
    mg_err err;
    memset(&err, 0, sizeof err);
    mg_mpi_opts o = {.algo = a->algo, .topo = a->topo, .err = &err};
    mg_mpi_plan *p = NULL;
    if (mg_mpi_allgather_init(m, MPI_BYTE, m, MPI_BYTE, MPI_COMM_WORLD, &o, &p) != MPI_SUCCESS) {
      if (me == 0) fprintf(stderr, "meshgossip-mpi: %s\n", err.msg[0] ? err.msg : "planning failed");
      return 1;
    }
    double tm[2];
    for (int which = 0; which < 2; which++) {
      /* warm-up, then reps timed between barriers */
      if (which == 0)
        mg_mpi_start(p, s, r);
      else
        MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (int q = 0; q < a->reps; q++) {
        int rc = which == 0 ? mg_mpi_start(p, s, r) : MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) return 1;
      }
      double dt = (MPI_Wtime() - t0) / a->reps;
      MPI_Allreduce(&dt, &tm[which], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    if (me == 0) {
      if (a->json)
        printf("%s{\"bytes\": %d, \"algorithm\": \"%s\", \"meshgossip_s\": %.6g, \"mpi_s\": %.6g, \"ratio\": %.4f}",
               i ? ", " : "", m, mg_mpi_plan_algorithm(p), tm[0], tm[1], tm[0] / tm[1]);
      else
        printf("%10d %-24s %14.6g %14.6g %8.3f\n", m, mg_mpi_plan_algorithm(p), tm[0], tm[1], tm[0] / tm[1]);
    }
    mg_mpi_plan_free(&p);
  }
  if (me == 0 && a->json) printf("]\n");
  free(s);
  free(r);
  return 0;
}

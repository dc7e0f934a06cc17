/* What a call costs the interposer per kind of datatype: a plain MPI
 * program (run it under libmeshgossip-pmpi.so, and without it for MPI's
 * own) that times CALLS MPI_Allgather calls of 64 ints per rank into
 *   int      MPI_INT
 *   kept     a derived type (vector of 2 ints, resized to 4) made once
 *   anew     the same type made and freed around every call
 * and prints the mean milliseconds per call for each (the slowest rank's,
 * after an untimed pass of every kind, which makes the plans). The interposer
 * caches plans by what a type is, so kept and anew cost what int costs
 * plus packing; planning per call (as derived types once were) shows as
 * anew far above kept. Not a test: bench/mpi_stress.sh prints the figures.
 *   mpi_type_calls [CALLS]   (default 50) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static MPI_Datatype make(void) {
  MPI_Datatype vec, rs;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, 4 * sizeof(int), &rs);
  MPI_Type_commit(&rs);
  MPI_Type_free(&vec);
  return rs;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int calls = argc > 1 ? atoi(argv[1]) : 50, n, me, bad = 0;
  if (calls < 1) calls = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  enum { C = 64 };
  int sb[C], *rb = malloc(sizeof(int) * 2 * C * (size_t)n);
  for (int i = 0; i < C; i++)
    sb[i] = me * C + i;
  const char *name[3] = {"int", "kept", "anew"};
  MPI_Datatype kept = make();
  /* two passes over the kinds, the first untimed: the first calls of a
   * run warm MPI up (the first kind timed seemed 3x slower) */
  for (int pass = 0; pass < 6; pass++) {
    int kind = pass % 3;
    double t0 = 0;
    for (int c = -1; c < calls; c++) { /* call -1 plans, untimed */
      if (c == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
      }
      MPI_Datatype t = kind == 0 ? MPI_INT : kind == 1 ? kept : make();
      int rc = MPI_Allgather(sb, C, MPI_INT, rb, kind == 0 ? C : C / 2, t, MPI_COMM_WORLD);
      bad += rc != MPI_SUCCESS;
      int stride = kind == 0 ? 1 : 2;
      for (int q = 0; q < n; q++)
        bad += rb[(size_t)q * C * stride + stride] != q * C + 1;
      if (kind == 2) MPI_Type_free(&t);
    }
    double dt = MPI_Wtime() - t0, worst;
    MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0 && pass >= 3)
      printf("%-5s %8.3f ms per call (%d calls on %d ranks)\n", name[kind], worst / calls * 1e3, calls, n);
  }
  MPI_Type_free(&kept);
  free(rb);
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("mpi_type_calls: %d wrong results\n", total);
  MPI_Finalize();
  return total != 0;
}

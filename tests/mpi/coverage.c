/* The MPI calls the interposer covers beyond MPI_Allgather/MPI_Alltoall,
 * from a plain MPI program (linked against MPI only; run under
 * libmeshgossip-pmpi.so by coverage.sh): MPI_Allgatherv and MPI_Alltoallv
 * with equal counts laid end to end (the schedules), with unequal counts
 * (PMPI) and with MPI_IN_PLACE; a non-contiguous receive type
 * (MPI_Type_vector) through MPI_Allgatherv; MPI_Iallgather and
 * MPI_Ialltoall completed by MPI_Wait and MPI_Test; and the same
 * MPI_Allgather three times (coverage.sh checks MESHGOSSIP_VERBOSE speaks
 * once for it), and three times more into a derived type made anew for
 * each call, then once into another of the same size (said once for the
 * three, once for the other: the cache knows types by what they are). Every byte of every result is checked against a
 * formula of (source, destination, index); exit 1 on any wrong byte. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define EXPECT(cond, ...)                                                                                              \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "rank %d: line %d: ", me, __LINE__);                                                             \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
      failures++;                                                                                                      \
    }                                                                                                                  \
  } while (0)

static int me, n;

/* the value rank s sends to rank d at index i (d = -1: the same for all) */
static int val(int s, int d, int i) { return s * 1000003 + (d + 1) * 1009 + i * 7 + 1; }

static void allgatherv_equal(int inplace) {
  int c = 5, *rb = malloc(sizeof(int) * (size_t)(c * n)), *counts = malloc(sizeof(int) * (size_t)n),
      *displs = malloc(sizeof(int) * (size_t)n), sb[5];
  for (int q = 0; q < n; q++)
    counts[q] = c, displs[q] = q * c;
  for (int i = 0; i < c * n; i++)
    rb[i] = i / c == me && inplace ? val(me, -1, i % c) : -1;
  for (int i = 0; i < c; i++)
    sb[i] = val(me, -1, i);
  EXPECT(MPI_Allgatherv(inplace ? MPI_IN_PLACE : sb, c, MPI_INT, rb, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
             MPI_SUCCESS,
         "allgatherv");
  for (int i = 0; i < c * n; i++)
    EXPECT(rb[i] == val(i / c, -1, i % c), "allgatherv%s: rb[%d] = %d", inplace ? " in place" : "", i, rb[i]);
  free(rb), free(counts), free(displs);
}

static void allgatherv_unequal(void) {
  int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n), tot = 0;
  for (int q = 0; q < n; q++)
    counts[q] = q + 1, displs[q] = tot + 1, tot += q + 2; /* a gap before each block */
  int *rb = malloc(sizeof(int) * (size_t)tot), *sb = malloc(sizeof(int) * (size_t)(me + 1));
  for (int i = 0; i < tot; i++)
    rb[i] = -1;
  for (int i = 0; i <= me; i++)
    sb[i] = val(me, -1, i);
  EXPECT(MPI_Allgatherv(sb, me + 1, MPI_INT, rb, counts, displs, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS, "allgatherv");
  for (int q = 0; q < n; q++) {
    EXPECT(rb[displs[q] - 1] == -1, "allgatherv unequal: gap before %d written", q);
    for (int i = 0; i < counts[q]; i++)
      EXPECT(rb[displs[q] + i] == val(q, -1, i), "allgatherv unequal: block %d[%d] = %d", q, i, rb[displs[q] + i]);
  }
  free(rb), free(sb), free(counts), free(displs);
}

/* MPI_Allgatherv into every other int (a vector type), equal counts */
static void allgatherv_vector(void) {
  MPI_Datatype vec, rs;
  MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, 6 * sizeof(int), &rs);
  MPI_Type_commit(&rs);
  int *rb = malloc(sizeof(int) * 6 * (size_t)n), *counts = malloc(sizeof(int) * (size_t)n),
      *displs = malloc(sizeof(int) * (size_t)n), sb[3];
  for (int q = 0; q < n; q++)
    counts[q] = 1, displs[q] = q;
  for (int i = 0; i < 6 * n; i++)
    rb[i] = -1;
  for (int i = 0; i < 3; i++)
    sb[i] = val(me, -1, i);
  EXPECT(MPI_Allgatherv(sb, 3, MPI_INT, rb, counts, displs, rs, MPI_COMM_WORLD) == MPI_SUCCESS, "allgatherv vector");
  for (int i = 0; i < 6 * n; i++)
    EXPECT(rb[i] == (i % 2 ? -1 : val(i / 6, -1, (i % 6) / 2)), "allgatherv vector: rb[%d] = %d", i, rb[i]);
  MPI_Type_free(&rs);
  MPI_Type_free(&vec);
  free(rb), free(counts), free(displs);
}

static void alltoallv(int equal, int inplace) {
  int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n),
      *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n), st = 0, rt = 0;
  /* unequal: rank s sends s+d+1 ints to d */
  for (int q = 0; q < n; q++) {
    sc[q] = equal ? 4 : me + q + 1, sd[q] = st, st += sc[q];
    rc[q] = equal ? 4 : q + me + 1, rd[q] = rt, rt += rc[q];
  }
  int *sb = malloc(sizeof(int) * (size_t)st), *rb = malloc(sizeof(int) * (size_t)rt);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < sc[q]; i++)
      sb[sd[q] + i] = val(me, q, i);
  for (int i = 0; i < rt; i++)
    rb[i] = -1;
  if (inplace) memcpy(rb, sb, sizeof(int) * (size_t)st);
  EXPECT(MPI_Alltoallv(inplace ? MPI_IN_PLACE : sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD) ==
             MPI_SUCCESS,
         "alltoallv");
  for (int q = 0; q < n; q++)
    for (int i = 0; i < rc[q]; i++)
      EXPECT(rb[rd[q] + i] == val(q, me, i), "alltoallv %s%s: block %d[%d] = %d", equal ? "equal" : "unequal",
             inplace ? " in place" : "", q, i, rb[rd[q] + i]);
  free(sb), free(rb), free(sc), free(sd), free(rc), free(rd);
}

static void nonblocking(void) {
  int c = 6, *rb = malloc(sizeof(int) * (size_t)(c * n)), *sb = malloc(sizeof(int) * (size_t)(c * n));
  MPI_Request req;
  MPI_Status status;
  for (int i = 0; i < c; i++)
    sb[i] = val(me, -1, i);
  EXPECT(MPI_Iallgather(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD, &req) == MPI_SUCCESS, "iallgather");
  EXPECT(MPI_Wait(&req, &status) == MPI_SUCCESS && req == MPI_REQUEST_NULL, "iallgather wait");
  for (int i = 0; i < c * n; i++)
    EXPECT(rb[i] == val(i / c, -1, i % c), "iallgather: rb[%d] = %d", i, rb[i]);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < c; i++)
      sb[q * c + i] = val(me, q, i);
  EXPECT(MPI_Ialltoall(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD, &req) == MPI_SUCCESS, "ialltoall");
  int flag = 0;
  for (int k = 0; k < 1000000 && !flag; k++)
    EXPECT(MPI_Test(&req, &flag, &status) == MPI_SUCCESS, "ialltoall test");
  EXPECT(flag, "ialltoall never completed");
  for (int q = 0; q < n; q++)
    for (int i = 0; i < c; i++)
      EXPECT(rb[q * c + i] == val(q, me, i), "ialltoall: block %d[%d] = %d", q, i, rb[q * c + i]);
  free(rb), free(sb);
}

static void repeated(void) {
  int c = 7, *rb = malloc(sizeof(int) * (size_t)(c * n)), sb[7];
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < c; i++)
      sb[i] = val(me, t, i);
    EXPECT(MPI_Allgather(sb, c, MPI_INT, rb, c, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS, "allgather");
    for (int i = 0; i < c * n; i++)
      EXPECT(rb[i] == val(i / c, t, i % c), "allgather trial %d: rb[%d] = %d", t, i, rb[i]);
  }
  free(rb);
}

/* MPI_Allgather of 22 ints into 11 elements of 2 ints stride apart (a
 * vector resized to ext ints), the type made anew for each call */
static void derived_anew(int t, int stride, int ext) {
  enum { C = 11 };
  MPI_Datatype vec, rs;
  MPI_Type_vector(2, 1, stride, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, ext * (MPI_Aint)sizeof(int), &rs);
  MPI_Type_commit(&rs);
  int *rb = malloc(sizeof(int) * (size_t)(C * ext * n)), sb[2 * C];
  for (int i = 0; i < C * ext * n; i++)
    rb[i] = -1;
  for (int i = 0; i < 2 * C; i++)
    sb[i] = val(me, t, i);
  EXPECT(MPI_Allgather(sb, 2 * C, MPI_INT, rb, C, rs, MPI_COMM_WORLD) == MPI_SUCCESS, "allgather derived %d", t);
  for (int q = 0; q < n; q++)
    for (int e = 0; e < C; e++)
      for (int k = 0; k < ext; k++) {
        int *x = &rb[(q * C + e) * ext + k];
        int want = k == 0 ? val(q, t, 2 * e) : k == stride ? val(q, t, 2 * e + 1) : -1;
        EXPECT(*x == want, "allgather derived %d: block %d element %d int %d = %d, want %d", t, q, e, k, *x, want);
      }
  MPI_Type_free(&rs);
  MPI_Type_free(&vec);
  free(rb);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  allgatherv_equal(0);
  allgatherv_equal(1);
  allgatherv_unequal();
  allgatherv_vector();
  alltoallv(1, 0);
  alltoallv(1, 1);
  alltoallv(0, 0);
  nonblocking();
  repeated();
  for (int t = 0; t < 3; t++)
    derived_anew(t, 2, 4);
  derived_anew(3, 3, 5);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("coverage on %d ranks: %s (%d failures)\n", n, all ? "FAIL" : "every byte right", all);
  MPI_Finalize();
  return all ? 1 : 0;
}

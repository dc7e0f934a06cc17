/* The MPI runtime's edges a hostile review found, one check each (run on
 * 1 and 4 ranks):
 * - a persistent plan keeps its datatypes: the caller frees its vector
 *   type after init and makes another; the plan still moves the right
 *   bytes (it read freed handles);
 * - ranks that give different block sizes get MPI_ERR_COUNT on every rank
 *   (one returned, the others hung);
 * - an uncommitted type on a one-rank communicator with MPI_ERRORS_RETURN
 *   is an error returned, not an abort on MPI_COMM_SELF;
 * - a predefined type whose extent is its size takes the direct path (the
 *   messages land in recvbuf: the plan holds no packed copy of it), for
 *   MPI_BYTE and MPI_INT, while a vector type and a resized one hold
 *   exactly size blocks more (a duplicate of MPI_BYTE once lost it). */
#include "mpitest.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* 1. a vector of 5 chars with stride 2, freed after init */
  MPI_Datatype v, other;
  MPI_Type_vector(5, 1, 2, MPI_CHAR, &v);
  MPI_Type_commit(&v);
  mg_mpi_plan *plan = NULL;
  int rc = mg_mpi_allgather_init(1, v, 1, v, MPI_COMM_WORLD, NULL, &plan);
  MT_EXPECT(rc == MPI_SUCCESS, "allgather_init with a vector type: %d", rc);
  MPI_Type_free(&v);
  MPI_Type_contiguous(3, MPI_DOUBLE, &other); /* may take the freed handle's slot */
  MPI_Type_commit(&other);
  char send[9], *recv = calloc((size_t)n, 9);
  for (int i = 0; i < 9; i++)
    send[i] = (char)mt_byte(0, me, 0, (size_t)i);
  if (plan) {
    rc = mg_mpi_start(plan, send, recv);
    MT_EXPECT(rc == MPI_SUCCESS, "start after MPI_Type_free: %d", rc);
    for (int r = 0; r < n; r++)
      for (int i = 0; i < 9; i++) {
        unsigned char want = i % 2 == 0 ? mt_byte(0, r, 0, (size_t)i) : 0;
        MT_EXPECT((unsigned char)recv[r * 9 + i] == want, "rank %d byte %d: %d, want %d", r, i, recv[r * 9 + i], want);
      }
    mg_mpi_plan_free(&plan);
  }
  MPI_Type_free(&other);
  free(recv);

  /* 2. block sizes that differ between ranks */
  if (n > 1) {
    int count = me == 0 ? 10 : 20;
    char *sb = calloc(20, 1), *rb = calloc((size_t)n, 20);
    rc = mg_allgather(sb, count, MPI_CHAR, rb, count, MPI_CHAR, MPI_COMM_WORLD);
    MT_EXPECT(rc == MPI_ERR_COUNT, "block sizes differ: %d, want MPI_ERR_COUNT", rc);
    free(sb);
    free(rb);
  }

  /* 3. an uncommitted type on one rank */
  MPI_Comm one;
  MPI_Comm_split(MPI_COMM_WORLD, me, 0, &one);
  MPI_Comm_set_errhandler(one, MPI_ERRORS_RETURN);
  MPI_Datatype raw;
  MPI_Type_contiguous(4, MPI_CHAR, &raw); /* not committed */
  char a[4] = {1, 2, 3, 4}, b[4] = {0};
  rc = mg_allgather(a, 1, raw, b, 4, MPI_CHAR, one);
  MT_EXPECT(rc != MPI_SUCCESS, "an uncommitted type on one rank was accepted");
  MPI_Type_free(&raw);
  MPI_Comm_free(&one);

  /* 4. the direct path, seen in the plan's buffers; bytes still right */
  if (n > 1) {
    MPI_Datatype vec, wide;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec); /* 16 bytes, extent 28 */
    MPI_Type_commit(&vec);
    MPI_Type_create_resized(MPI_INT, 0, 8, &wide); /* 4 bytes, extent 8 */
    MPI_Type_commit(&wide);
    mg_mpi_plan *pb = NULL, *pi = NULL, *pv = NULL, *pw = NULL;
    MT_EXPECT(mg_mpi_allgather_init(16, MPI_BYTE, 16, MPI_BYTE, MPI_COMM_WORLD, NULL, &pb) == MPI_SUCCESS, "byte plan");
    MT_EXPECT(mg_mpi_allgather_init(4, MPI_INT, 4, MPI_INT, MPI_COMM_WORLD, NULL, &pi) == MPI_SUCCESS, "int plan");
    MT_EXPECT(mg_mpi_allgather_init(1, vec, 1, vec, MPI_COMM_WORLD, NULL, &pv) == MPI_SUCCESS, "vector plan");
    MT_EXPECT(mg_mpi_allgather_init(4, wide, 4, wide, MPI_COMM_WORLD, NULL, &pw) == MPI_SUCCESS, "resized plan");
    if (pb && pi && pv && pw) {
      uint64_t b = mg_mpi_plan_buffer_bytes(pb), packed = 16 * (uint64_t)n;
      MT_EXPECT(mg_mpi_plan_buffer_bytes(pi) == b, "MPI_INT plan holds %llu bytes, MPI_BYTE %llu",
                (unsigned long long)mg_mpi_plan_buffer_bytes(pi), (unsigned long long)b);
      MT_EXPECT(mg_mpi_plan_buffer_bytes(pv) == b + packed, "vector plan holds %llu bytes, want %llu",
                (unsigned long long)mg_mpi_plan_buffer_bytes(pv), (unsigned long long)(b + packed));
      MT_EXPECT(mg_mpi_plan_buffer_bytes(pw) == b + packed, "resized plan holds %llu bytes, want %llu",
                (unsigned long long)mg_mpi_plan_buffer_bytes(pw), (unsigned long long)(b + packed));
      int sv[8], *rv = calloc((size_t)n * 8, sizeof *rv);
      for (int i = 0; i < 8; i++)
        sv[i] = me * 100 + i;
      MT_EXPECT(mg_mpi_start(pw, sv, rv) == MPI_SUCCESS, "resized start");
      for (int r = 0; r < n; r++)
        for (int i = 0; i < 8; i++) {
          int want = i % 2 == 0 ? r * 100 + i : 0;
          MT_EXPECT(rv[r * 8 + i] == want, "resized: rank %d int %d: %d, want %d", r, i, rv[r * 8 + i], want);
        }
      int si[4], *ri = calloc((size_t)n * 4, sizeof *ri);
      for (int i = 0; i < 4; i++)
        si[i] = me * 10 + i;
      MT_EXPECT(mg_mpi_start(pi, si, ri) == MPI_SUCCESS, "int start");
      for (int r = 0; r < n; r++)
        for (int i = 0; i < 4; i++)
          MT_EXPECT(ri[r * 4 + i] == r * 10 + i, "int: rank %d int %d: %d", r, i, ri[r * 4 + i]);
      free(rv);
      free(ri);
    }
    mg_mpi_plan_free(&pb);
    mg_mpi_plan_free(&pi);
    mg_mpi_plan_free(&pv);
    mg_mpi_plan_free(&pw);
    MPI_Type_free(&vec);
    MPI_Type_free(&wide);
  }

  int all = 0;
  MPI_Allreduce(&mt_failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("mpi edges: %s (%d failures)\n", all ? "FAIL" : "ok", all);
  MPI_Finalize();
  return all != 0;
}

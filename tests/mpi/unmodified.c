/* A plain MPI program (no meshgossip header): MPI_Allgather and
 * MPI_Alltoall with random bytes, ints in place, a vector type and an
 * intercommunicator, every byte checked. Run as is, or under libmeshgossip-pmpi.so. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char val(int r, int d, int i) { return (unsigned char)(r * 131 + d * 17 + i * 7 + (i >> 8)); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n, me, bad = 0, total = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int counts[3] = {0, 3, 4099};
  for (int rep = 0; rep < 2; rep++)
    for (int c = 0; c < 3; c++) {
      int m = counts[c];
      unsigned char *s = malloc((size_t)m * n + 1), *r = malloc((size_t)m * n + 1);
      for (int i = 0; i < m; i++)
        s[i] = val(me, 0, i);
      if (MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS) bad++;
      for (int q = 0; q < n; q++)
        for (int i = 0; i < m; i++)
          bad += r[(size_t)q * m + i] != val(q, 0, i);
      for (int d = 0; d < n; d++)
        for (int i = 0; i < m; i++)
          s[(size_t)d * m + i] = val(me, d, i);
      if (MPI_Alltoall(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS) bad++;
      for (int q = 0; q < n; q++)
        for (int i = 0; i < m; i++)
          bad += r[(size_t)q * m + i] != val(q, me, i);
      free(s);
      free(r);
    }
  int *v = malloc(sizeof(int) * 2 * n);
  for (int i = 0; i < 2 * n; i++)
    v[i] = i / 2 == me ? me * 10 + i % 2 : -1;
  if (MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 2, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) bad++;
  for (int i = 0; i < 2 * n; i++)
    bad += v[i] != (i / 2) * 10 + i % 2;
  MPI_Datatype vec;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int s2[2] = {me, -me}, *r2 = malloc(sizeof(int) * 3 * n);
  for (int i = 0; i < 3 * n; i++)
    r2[i] = 99;
  if (MPI_Allgather(s2, 2, MPI_INT, r2, 1, vec, MPI_COMM_WORLD) != MPI_SUCCESS) bad++;
  for (int q = 0; q < n; q++)
    bad += r2[3 * q] != q || r2[3 * q + 1] != 99 || r2[3 * q + 2] != -q;
  MPI_Type_free(&vec);
  free(v);
  free(r2);
  if (n >= 2) {
    /* an intercommunicator between even and odd ranks: each side gathers
     * the other side's ranks */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 7, &inter);
    int rsize;
    MPI_Comm_remote_size(inter, &rsize);
    int *g = malloc(sizeof(int) * rsize);
    if (MPI_Allgather(&me, 1, MPI_INT, g, 1, MPI_INT, inter) != MPI_SUCCESS) bad++;
    for (int i = 0; i < rsize; i++)
      bad += g[i] != 2 * i + (me % 2 ? 0 : 1);
    free(g);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("unmodified: %d wrong bytes or calls\n", total);
  MPI_Finalize();
  return total != 0;
}

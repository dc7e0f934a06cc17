/* The interposer's plan cache over a long run: a plain MPI program (run it
 * under libmeshgossip-pmpi.so) that makes CALLS collective calls cycling
 * through many communicators alive at once and more counts than the cache
 * keeps per communicator, freeing and recreating communicators as it goes,
 * and prints rank 0's resident set size every tenth of the run. A leak
 * shows as RSS growing with the calls; a bounded cache as RSS flat after
 * the first tenth. Not a test (no timed or memory assertion): bench/
 * mpi_stress.sh runs it and prints the figures.
 *   mpi_cache_rss [CALLS]   (default 100000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) kb = atol(line + 6);
  fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long calls = argc > 1 ? atol(argv[1]) : 100000;
  enum { K = 16, COUNTS = 12, MAXC = 64 };
  int n, me, bad = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm c[K];
  for (int k = 0; k < K; k++)
    MPI_Comm_dup(MPI_COMM_WORLD, &c[k]);
  unsigned char *s = malloc((size_t)MAXC * n), *r = malloc((size_t)MAXC * n);
  long first = 0;
  for (long i = 0; i < calls; i++) {
    int k = (int)(i % K), m = 1 + (int)((i / K) % COUNTS) * 5;
    for (int j = 0; j < m * n; j++)
      s[j] = (unsigned char)(me + j + i);
    int rc = (i & 1) ? MPI_Alltoall(s, m, MPI_BYTE, r, m, MPI_BYTE, c[k])
                     : MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, c[k]);
    if (rc != MPI_SUCCESS) bad++;
    if (!(i & 1))
      for (int q = 0; q < n; q++)
        bad += r[(size_t)q * m] != (unsigned char)(q + i);
    /* every 1000 calls a communicator goes and a new one comes */
    if (i % 1000 == 999) {
      MPI_Comm_free(&c[(i / 1000) % K]);
      MPI_Comm_dup(MPI_COMM_WORLD, &c[(i / 1000) % K]);
    }
    if (me == 0 && (i + 1) % (calls / 10 > 0 ? calls / 10 : 1) == 0) {
      long kb = rss_kb();
      if (!first) first = kb;
      printf("calls %8ld  rss %7ld KiB  (%+ld KiB since the first tenth)\n", i + 1, kb, kb - first);
      fflush(stdout);
    }
  }
  for (int k = 0; k < K; k++)
    MPI_Comm_free(&c[k]);
  free(s);
  free(r);
  int total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("mpi_cache_rss: %ld calls on %d ranks, %d wrong results\n", calls, n, total);
  MPI_Finalize();
  return total != 0;
}

/* meshgossip-mpi bench: a meshgossip plan (allgather or alltoall) against
 * the MPI library's own collective at each size, in the shape of the OSU
 * micro-benchmarks (osu_allgather, osu_alltoall of the OSU Micro-Benchmarks
 * by the Network-Based Computing Laboratory, Ohio State University):
 *
 *   # OSU MPI Allgather Latency Test (meshgossip-mpi bench ...)
 *   # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations ...
 *
 * Latency as OSU measures it: each rank times every iteration of the
 * collective alone (a barrier between iterations, outside the timer),
 * after the warm-up iterations; its mean in microseconds is reduced over
 * the ranks to the average, the least and the largest. The same columns
 * follow for the library's collective, then the ratio of the averages
 * (ours / library's) and the algorithm the plan runs.
 *
 * Before the timing of each size, both collectives run once on a pattern
 * that depends on (source rank, destination rank, byte, size) into a
 * receive buffer preset to the complement of what must arrive, and every
 * received byte is checked: a bench never times a wrong result, and a
 * byte left unwritten cannot pass. Any wrong byte stops the bench with
 * exit status 1 before its size is timed. */
#include "mpi_tool.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { COLL_ALLGATHER, COLL_ALLTOALL };

/* A size with an optional unit (K, KB, KiB, M..., G..., B; case
 * insensitive; K = 1024), as the meshgossip CLI reads sizes. Returns the
 * end of the number and its unit, or NULL if s holds no size <= INT_MAX. */
static const char *parse_size(const char *s, long *out) {
  static const struct {
    const char *unit;
    long mul;
  } units[] = {{"kib", 1L << 10}, {"kb", 1L << 10},  {"k", 1L << 10},  {"mib", 1L << 20}, {"mb", 1L << 20},
               {"m", 1L << 20},   {"gib", 1L << 30}, {"gb", 1L << 30}, {"g", 1L << 30},   {"b", 1}};
  char *e;
  if (*s < '0' || *s > '9') return NULL;
  long x = strtol(s, &e, 10);
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    size_t n = strlen(units[i].unit);
    if (!strncasecmp(e, units[i].unit, n)) {
      if (x > INT32_MAX / units[i].mul) return NULL;
      x *= units[i].mul, e += n;
      break;
    }
  }
  if (x < 0 || x > INT32_MAX) return NULL;
  *out = x;
  return e;
}

/* -m [MIN:]MAX as OSU reads it: powers of two from MIN (default 1) up to
 * MAX; a MIN of 0 adds the empty message first. */
static int parse_range(const char *v, args *a) {
  long lo = 1, hi;
  const char *e = parse_size(v, &hi);
  if (!e) return 0;
  if (*e == ':') {
    lo = hi;
    e = parse_size(e + 1, &hi);
    if (!e) return 0;
  }
  if (*e || lo > hi) return 0;
  a->nsizes = 0;
  if (lo == 0) a->sizes[a->nsizes++] = 0, lo = 1;
  for (long m = lo; m <= hi; m *= 2) {
    if (a->nsizes == MAX_SIZES) return 0;
    a->sizes[a->nsizes++] = m;
  }
  return a->nsizes > 0;
}

static int parse_count(const char *v, int lo, int *out) {
  char *e;
  long x = strtol(v, &e, 10);
  if (e == v || *e || x < lo || x > 1000000000L) return 0;
  *out = (int)x;
  return 1;
}

int mg_tool_bench_option(args *a, const char *o, const char *v) {
  if (!strcmp(o, "-f") || !strcmp(o, "--full")) {
    a->full = 1;
    return 1;
  }
  int mine = !strcmp(o, "--coll") || !strcmp(o, "-m") || !strcmp(o, "--message-size") || !strcmp(o, "-i") ||
             !strcmp(o, "--iterations") || !strcmp(o, "-x") || !strcmp(o, "--warmup");
  if (!mine) return 0;
  if (!v) return -1;
  if (!strcmp(o, "--coll")) {
    if (strcmp(v, "allgather") && strcmp(v, "alltoall")) return -1;
    a->coll = v;
    return 2;
  }
  if (!strcmp(o, "-m") || !strcmp(o, "--message-size")) return parse_range(v, a) ? 2 : -1;
  if (!strcmp(o, "-i") || !strcmp(o, "--iterations")) return parse_count(v, 1, &a->reps) ? 2 : -1;
  return parse_count(v, 0, &a->warmup) ? 2 : -1;
}

/* The byte that rank src sends to rank dst at offset j of a block of m. */
static unsigned char pattern(int src, int dst, size_t j, int m) {
  uint32_t h = (uint32_t)src * 2654435761u ^ (uint32_t)dst * 40503u ^ (uint32_t)j * 97u ^ (uint32_t)m * 7u;
  return (unsigned char)(h ^ h >> 13 ^ h >> 24);
}

typedef struct bench {
  int coll, me, n;
  unsigned char *s, *r;
} bench;

/* One call of ours (p != NULL) or of the library's collective. */
static int call(const bench *b, mg_mpi_plan *p, int m) {
  if (p) return mg_mpi_start(p, b->s, b->r);
  if (b->coll == COLL_ALLGATHER) return MPI_Allgather(b->s, m, MPI_BYTE, b->r, m, MPI_BYTE, MPI_COMM_WORLD);
  return MPI_Alltoall(b->s, m, MPI_BYTE, b->r, m, MPI_BYTE, MPI_COMM_WORLD);
}

/* One checked call: wrong bytes received on this rank, or -1 if the call
 * failed. Allgather: block s of the result is rank s's block. Alltoall:
 * block d of the send buffer goes to rank d, block s of the result comes
 * from rank s. */
static long checked_call(const bench *b, mg_mpi_plan *p, int m) {
  size_t L = (size_t)m, n = (size_t)b->n;
  for (size_t d = 0; d < (b->coll == COLL_ALLTOALL ? n : 1); d++)
    for (size_t j = 0; j < L; j++)
      b->s[d * L + j] = pattern(b->me, b->coll == COLL_ALLTOALL ? (int)d : -1, j, m);
  for (size_t src = 0; src < n; src++)
    for (size_t j = 0; j < L; j++)
      b->r[src * L + j] = (unsigned char)~pattern((int)src, b->coll == COLL_ALLTOALL ? b->me : -1, j, m);
  if (call(b, p, m) != MPI_SUCCESS) return -1;
  long bad = 0;
  for (size_t src = 0; src < n; src++)
    for (size_t j = 0; j < L; j++)
      bad += b->r[src * L + j] != pattern((int)src, b->coll == COLL_ALLTOALL ? b->me : -1, j, m);
  return bad;
}

/* OSU's latency: warm-up calls, then iters timed calls with a barrier
 * after each outside the timer; this rank's mean in microseconds reduced
 * over the ranks to rank 0 (avg, min, max). */
static int time_calls(const bench *b, mg_mpi_plan *p, int m, int warmup, int iters, double out[3]) {
  double timer = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int q = 0; q < warmup + iters; q++) {
    double t0 = MPI_Wtime();
    if (call(b, p, m) != MPI_SUCCESS) return 0;
    double t1 = MPI_Wtime();
    if (q >= warmup) timer += t1 - t0;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double lat = timer * 1e6 / iters, sum = 0;
  MPI_Reduce(&lat, &out[1], 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&lat, &out[2], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&lat, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  out[0] = sum / b->n;
  return 1;
}

static void print_header(const args *a, const bench *b, const mg_mpi_plan *p, int warmup) {
  const char *title =
      b->coll == COLL_ALLGATHER ? "Allgather Latency Test" : "All-to-All Personalized Exchange Latency Test";
  const char *lib = b->coll == COLL_ALLGATHER ? "MPI_Allgather" : "MPI_Alltoall";
  if (a->json) {
    printf("{\"benchmark\": \"OSU MPI %s\", \"collective\": \"%s\", \"ranks\": %d, \"topology\": \"%s\", "
           "\"sync\": \"%s\", \"datatype\": \"MPI_BYTE\", \"iterations\": %d, \"warmup\": %d, \"results\": [",
           title, b->coll == COLL_ALLGATHER ? "allgather" : "alltoall", b->n, mg_mpi_plan_topology(p),
           mg_mpi_plan_sync(p), a->reps, warmup);
    return;
  }
  printf("# OSU MPI %s (meshgossip-mpi bench, meshgossip %s)\n", title, mg_version());
  printf("# Datatype: MPI_BYTE. %d ranks, topology %s, --algo %s (sync=%s) against the MPI library's %s; "
         "%d warm-up, latency per call\n",
         b->n, mg_mpi_plan_topology(p), a->algo, mg_mpi_plan_sync(p), lib, warmup);
  printf("%-10s%18s", "# Size", "Avg Latency(us)");
  if (a->full) printf("%18s%18s%12s", "Min Latency(us)", "Max Latency(us)", "Iterations");
  printf("%15s", "MPI Avg(us)");
  if (a->full) printf("%15s%15s", "MPI Min(us)", "MPI Max(us)");
  printf("%10s  %s\n", "Ours/MPI", "Algorithm");
}

static void print_row(const args *a, int first, int m, int iters, const double t[2][3], const char *algo) {
  double ratio = t[1][0] > 0 ? t[0][0] / t[1][0] : 0;
  if (a->json) {
    printf("%s{\"size\": %d, \"algorithm\": \"%s\", \"avg_us\": %.2f, \"min_us\": %.2f, \"max_us\": %.2f, "
           "\"mpi_avg_us\": %.2f, \"mpi_min_us\": %.2f, \"mpi_max_us\": %.2f, \"ratio\": %.3f}",
           first ? "" : ", ", m, algo, t[0][0], t[0][1], t[0][2], t[1][0], t[1][1], t[1][2], ratio);
    return;
  }
  printf("%-10d%18.2f", m, t[0][0]);
  if (a->full) printf("%18.2f%18.2f%12d", t[0][1], t[0][2], iters);
  printf("%15.2f", t[1][0]);
  if (a->full) printf("%15.2f%15.2f", t[1][1], t[1][2]);
  printf("%10.3f  %s\n", ratio, algo);
  fflush(stdout);
}

int mg_tool_bench(const args *a, int me, int n) {
  bench b = {.coll = a->coll && !strcmp(a->coll, "alltoall") ? COLL_ALLTOALL : COLL_ALLGATHER, .me = me, .n = n};
  int warmup = a->warmup >= 0 ? a->warmup : 10;
  long maxm = 0;
  for (int i = 0; i < a->nsizes; i++)
    if (a->sizes[i] > maxm) maxm = a->sizes[i];
  if (maxm > INT32_MAX || (size_t)maxm > SIZE_MAX / (size_t)n - 1) {
    if (me == 0) fprintf(stderr, "meshgossip-mpi: %ld bytes on %d ranks do not fit in memory\n", maxm, n);
    return 2;
  }
  size_t total = (size_t)maxm * (size_t)n + 1;
  b.s = malloc(b.coll == COLL_ALLTOALL ? total : (size_t)maxm + 1);
  b.r = malloc(total);
  int ok = b.s && b.r, all_ok, rc = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    if (me == 0) fprintf(stderr, "meshgossip-mpi: out of memory for %ld-byte blocks on %d ranks\n", maxm, n);
    free(b.s), free(b.r);
    return 1;
  }
  long checked = 0;
  for (int i = 0; i < a->nsizes && rc == 0; i++) {
    int m = (int)a->sizes[i];
    mg_err err;
    memset(&err, 0, sizeof err);
    mg_mpi_opts o = {.algo = a->algo, .topo = a->topo, .sync = a->sync, .err = &err};
    mg_mpi_plan *p = NULL;
    int prc = b.coll == COLL_ALLGATHER ? mg_mpi_allgather_init(m, MPI_BYTE, m, MPI_BYTE, MPI_COMM_WORLD, &o, &p)
                                       : mg_mpi_alltoall_init(m, MPI_BYTE, m, MPI_BYTE, MPI_COMM_WORLD, &o, &p);
    if (prc != MPI_SUCCESS) {
      if (me == 0) fprintf(stderr, "meshgossip-mpi: %s\n", err.msg[0] ? err.msg : "planning failed");
      rc = 1;
      break;
    }
    if (i == 0 && me == 0) print_header(a, &b, p, warmup);
    /* the byte check, outside the timing: ours, then the library's */
    long bad[2] = {checked_call(&b, p, m), checked_call(&b, NULL, m)}, worst[2], sum[2];
    long failed[2] = {bad[0] < 0, bad[1] < 0};
    MPI_Allreduce(failed, worst, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    bad[0] = bad[0] < 0 ? 0 : bad[0], bad[1] = bad[1] < 0 ? 0 : bad[1];
    MPI_Allreduce(bad, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (worst[0] || worst[1] || sum[0] || sum[1]) {
      if (me == 0)
        fprintf(stderr, "meshgossip-mpi: byte check failed at size %d: %s (%s), %s (%ld wrong bytes)\n", m,
                worst[0] ? "our call failed" : "ours", mg_mpi_plan_algorithm(p),
                worst[1] ? "the library's call failed" : "the library's", sum[0] + sum[1]);
      mg_mpi_plan_free(&p);
      rc = 1;
      break;
    }
    checked += (long)m * n * n;
    double t[2][3];
    if (!time_calls(&b, p, m, warmup, a->reps, t[0]) || !time_calls(&b, NULL, m, warmup, a->reps, t[1])) {
      if (me == 0) fprintf(stderr, "meshgossip-mpi: an MPI call failed at size %d\n", m);
      mg_mpi_plan_free(&p);
      rc = 1;
      break;
    }
    if (me == 0) print_row(a, i == 0, m, a->reps, (const double(*)[3])t, mg_mpi_plan_algorithm(p));
    mg_mpi_plan_free(&p);
  }
  if (me == 0 && rc == 0) {
    if (a->json)
      printf("], \"check\": \"passed\", \"checked_bytes\": %ld}\n", 2 * checked);
    else
      printf("# Byte check: passed, %ld received bytes over %d sizes, ours and the library's, checked before "
             "timing\n",
             2 * checked, a->nsizes);
  }
  free(b.s);
  free(b.r);
  return rc;
}

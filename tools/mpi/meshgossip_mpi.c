/* meshgossip-mpi: measurements on a real MPI (or SMPI) machine.
 *
 *   meshgossip-mpi calibrate [--sizes a,b,...] [--reps R] [--json]
 *     times the basic steps of seed 000 section 7 on a ring of all ranks
 *     and fits T(m) = a + b*m to each by least squares:
 *       1D-send         every rank sends m bytes to its right neighbour
 *       1D-concentrate  in each triple, both ends send to the middle
 *       1D-disseminate  in each triple, the middle sends to both ends
 *       1D-shift        rank 0 sends to rank 1, everyone else idles
 *     and prints the model string of the 1D-send fit (ts=a, tl=b) for
 *     --model / MESHGOSSIP_MODEL.
 *   meshgossip-mpi bench [--algo SPEC] [--topo SPEC] [--sizes ...] [--reps R]
 *     times one meshgossip allgather plan against the MPI library's own
 *     MPI_Allgather at each size (bytes per rank) and prints both and
 *     their ratio.
 * Exit status: 0 ok, 2 bad usage, 1 an MPI call failed. */
#include "meshgossip_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 32

typedef struct args {
  const char *cmd, *algo, *topo;
  long sizes[MAX_SIZES];
  int nsizes, reps, json;
} args;

static void usage_to(FILE *f) {
  fprintf(f, "usage: meshgossip-mpi calibrate [--sizes a,b,...] [--reps R] [--json]\n"
             "       meshgossip-mpi bench [--algo SPEC] [--topo SPEC] [--sizes a,b,...] [--reps R] [--json]\n"
             "examples:\n"
             "  mpirun -np 9 meshgossip-mpi calibrate --sizes 1024,16384,65536\n"
             "  mpirun -np 8 meshgossip-mpi bench --algo ring --sizes 256,4096,65536\n");
}

static int usage(int rank, const char *why) {
  if (rank == 0) {
    if (why) fprintf(stderr, "meshgossip-mpi: %s\n", why);
    usage_to(stderr);
  }
  return 2;
}

static int parse(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->reps = 20;
  a->algo = "auto";
  static const long def[] = {256, 1024, 4096, 16384, 65536, 262144};
  a->nsizes = 6;
  for (int i = 0; i < 6; i++)
    a->sizes[i] = def[i];
  if (argc < 2) return 0;
  a->cmd = argv[1];
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--json"))
      a->json = 1;
    else if (!strcmp(o, "--help") || !strcmp(o, "-h"))
      return 0;
    else if (!v)
      return 0;
    else if (!strcmp(o, "--reps"))
      a->reps = atoi(v), i++;
    else if (!strcmp(o, "--algo"))
      a->algo = v, i++;
    else if (!strcmp(o, "--topo"))
      a->topo = v, i++;
    else if (!strcmp(o, "--sizes")) {
      a->nsizes = 0;
      for (const char *p = v; *p && a->nsizes < MAX_SIZES;) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < 0) return 0;
        a->sizes[a->nsizes++] = x;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return 0;
      }
      i++;
    } else
      return 0;
  }
  return a->reps > 0 && a->nsizes > 0;
}

enum { STEP_SEND, STEP_CONC, STEP_DISS, STEP_SHIFT, NSTEPS };
static const char *const step_name[NSTEPS] = {"1D-send", "1D-concentrate", "1D-disseminate", "1D-shift"};

/* One basic step on a ring of n ranks with m-byte messages. */
static int step(int kind, int me, int n, char *sbuf, char *rbuf, int m) {
  MPI_Request rq[4];
  int k = 0, rc = MPI_SUCCESS, pos = me % 3, base = me - pos;
  int triple = base + 2 < n; /* a complete triple */
  switch (kind) {
  case STEP_SEND:
    rc = MPI_Irecv(rbuf, m, MPI_BYTE, (me + n - 1) % n, 1, MPI_COMM_WORLD, &rq[k++]);
    if (rc == MPI_SUCCESS) rc = MPI_Isend(sbuf, m, MPI_BYTE, (me + 1) % n, 1, MPI_COMM_WORLD, &rq[k++]);
    break;
  case STEP_CONC:
    if (!triple) break;
    if (pos == 1) {
      rc = MPI_Irecv(rbuf, m, MPI_BYTE, base, 2, MPI_COMM_WORLD, &rq[k++]);
      if (rc == MPI_SUCCESS) rc = MPI_Irecv(rbuf + m, m, MPI_BYTE, base + 2, 2, MPI_COMM_WORLD, &rq[k++]);
    } else {
      rc = MPI_Isend(sbuf, m, MPI_BYTE, base + 1, 2, MPI_COMM_WORLD, &rq[k++]);
    }
    break;
  case STEP_DISS:
    if (!triple) break;
    if (pos == 1) {
      rc = MPI_Isend(sbuf, m, MPI_BYTE, base, 3, MPI_COMM_WORLD, &rq[k++]);
      if (rc == MPI_SUCCESS) rc = MPI_Isend(sbuf, m, MPI_BYTE, base + 2, 3, MPI_COMM_WORLD, &rq[k++]);
    } else {
      rc = MPI_Irecv(rbuf, m, MPI_BYTE, base + 1, 3, MPI_COMM_WORLD, &rq[k++]);
    }
    break;
  default:
    if (me == 0) rc = MPI_Isend(sbuf, m, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &rq[k++]);
    if (me == 1) rc = MPI_Irecv(rbuf, m, MPI_BYTE, 0, 4, MPI_COMM_WORLD, &rq[k++]);
    break;
  }
  if (rc == MPI_SUCCESS) rc = MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
  return rc;
}

/* Least squares y = a + b x. */
static void fit(const double *x, const double *y, int n, double *a, double *b) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++)
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  double den = n * sxx - sx * sx;
  *b = den != 0 ? (n * sxy - sx * sy) / den : 0;
  *a = (sy - *b * sx) / n;
}

static int calibrate(const args *a, int me, int n) {
  if (n < 3) {
    if (me == 0) fprintf(stderr, "meshgossip-mpi: calibrate needs at least 3 ranks (one triple)\n");
    return 2;
  }
  long maxm = 0;
  for (int i = 0; i < a->nsizes; i++)
    if (a->sizes[i] > maxm) maxm = a->sizes[i];
  char *s = calloc(1, (size_t)maxm + 1), *r = calloc(2, (size_t)maxm + 1);
  if (!s || !r) return 1;
  double t[NSTEPS][MAX_SIZES], x[MAX_SIZES], fa[NSTEPS], fb[NSTEPS];
  for (int k = 0; k < NSTEPS; k++)
    for (int i = 0; i < a->nsizes; i++) {
      int m = (int)a->sizes[i];
      x[i] = (double)m;
      if (step(k, me, n, s, r, m) != MPI_SUCCESS) return 1; /* warm-up */
      MPI_Barrier(MPI_COMM_WORLD);
      double sum = 0;
      for (int q = 0; q < a->reps; q++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (step(k, me, n, s, r, m) != MPI_SUCCESS) return 1;
        double dt = MPI_Wtime() - t0, worst;
        /* a step lasts until its slowest rank is done */
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        sum += worst;
      }
      t[k][i] = sum / a->reps;
    }
  for (int k = 0; k < NSTEPS; k++)
    fit(x, t[k], a->nsizes, &fa[k], &fb[k]);
  if (me == 0) {
    if (a->json) {
      printf("{\"ranks\": %d, \"reps\": %d, \"steps\": [", n, a->reps);
      for (int k = 0; k < NSTEPS; k++) {
        printf("%s{\"step\": \"%s\", \"a\": %.6g, \"b\": %.6g, \"times\": [", k ? ", " : "", step_name[k], fa[k],
               fb[k]);
        for (int i = 0; i < a->nsizes; i++)
          printf("%s[%ld, %.6g]", i ? ", " : "", a->sizes[i], t[k][i]);
        printf("]}");
      }
      printf("], \"model\": \"ts=%.6g,td=0,tl=%.6g\"}\n", fa[0] > 0 ? fa[0] : 0, fb[0] > 0 ? fb[0] : 0);
    } else {
      printf("# %d ranks, %d repetitions; T(m) = a + b*m (seconds, bytes)\n", n, a->reps);
      printf("%-16s %12s %12s", "step", "a", "b");
      for (int i = 0; i < a->nsizes; i++)
        printf(" %10ld", a->sizes[i]);
      printf("\n");
      for (int k = 0; k < NSTEPS; k++) {
        printf("%-16s %12.4g %12.4g", step_name[k], fa[k], fb[k]);
        for (int i = 0; i < a->nsizes; i++)
          printf(" %10.3g", t[k][i]);
        printf("\n");
      }
      printf("--model ts=%.6g,td=0,tl=%.6g\n", fa[0] > 0 ? fa[0] : 0, fb[0] > 0 ? fb[0] : 0);
    }
  }
  free(s);
  free(r);
  return 0;
}

static int bench(const args *a, int me, int n) {
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

int main(int argc, char **argv) {
  /* --help and --version need no MPI: answer them before MPI_Init, so that
   * they work without mpirun */
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
    usage_to(stdout);
    return 0;
  }
  if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
    printf("meshgossip-mpi %s\n", mg_version());
    return 0;
  }
  MPI_Init(&argc, &argv);
  int me, n, rc;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  args a;
  if (!parse(argc, argv, &a))
    rc = usage(me, NULL);
  else if (!strcmp(a.cmd, "calibrate"))
    rc = calibrate(&a, me, n);
  else if (!strcmp(a.cmd, "bench"))
    rc = bench(&a, me, n);
  else
    rc = usage(me, "unknown command");
  MPI_Finalize();
  return rc;
}

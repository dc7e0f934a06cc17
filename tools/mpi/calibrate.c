/* meshgossip-mpi calibrate: times the basic steps of Juurlink, Rao and
 * Sibeyn's Paragon experiment (section 7) on a ring of all ranks and fits
 * T(m) = a + b*m to each by least squares (see meshgossip_mpi.c); then
 * fits the model's LogGP parameters (calibrate_loggp.c) and prints that
 * model, and with -o FILE writes it as a model file for --model @FILE
 * (atomically: a temporary file renamed into place). */
#include "mpi_tool.h"

#include "../../src/util/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The model file: a comment saying where it came from, then the model. */
static int write_model(const char *path, const char *model, int n) {
  mg_outfile o;
  mg_err e;
  if (mg_outfile_open(&o, path, &e) != MG_OK) {
    fprintf(stderr, "meshgossip-mpi: %s\n", e.msg);
    return 1;
  }
  int bad = fprintf(o.f, "# meshgossip-mpi calibrate on %d ranks (docs/models.md)\n", n) < 0;
  for (const char *p = model; *p && !bad;) { /* one key a line */
    size_t k = strcspn(p, ",");
    bad = fprintf(o.f, "%.*s\n", (int)k, p) < 0;
    p += k + (p[k] == ',');
  }
  if (mg_outfile_close(&o, !bad, &e) != MG_OK || bad) {
    fprintf(stderr, "meshgossip-mpi: cannot write '%s'%s%s\n", path, bad ? "" : ": ", bad ? "" : e.msg);
    return 1;
  }
  return 0;
}

int mg_tool_calibrate(const args *a, int me, int n) {
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
  char model[1024];
  if (mg_tool_calibrate_loggp(a, me, n, model, sizeof model) != 0) return 1;
  if (me == 0 && a->out && write_model(a->out, model, n) != 0) return 1;
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
      printf("], \"model\": \"%s\"}\n", model);
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
      printf("--model %s\n", model);
    }
  }
  free(s);
  free(r);
  return 0;
}

/* meshgossip-mpi calibrate, the LogGP part: fits the cost model's o, or,
 * ts, tl and bandwidth steps (bwf) from three kinds of timed runs, in the
 * manner of Kielmann, Bal and Verstoep, "Fast Measurement of LogP
 * Parameters for Message Passing Platforms" (a burst of back-to-back sends
 * separates the sender's per-message overhead from the latency) and of
 * Alexandrov, Ionescu, Schauser and Scheiman, "LogGP: Incorporating Long
 * Messages into the LogP Model" (G, the time per byte of long messages):
 *
 *   burst(k, m)  rank 0 sends k messages of m bytes back to back to rank 1:
 *                T = k*o + ts + m*tl/F(m) + or  (the sender's CPU lets
 *                them go o apart; as long as or <= o the receiver keeps
 *                up), so o is the slope in k at m = 2 bytes;
 *   fanin(k, m)  ranks 1..k each send one message to rank 0 at once:
 *                T = o + ts + k*or (+ k*m*tl on a shared last arc, nothing
 *                at m = 2), so or is the slope in k;
 *   burst(1, m)  over sizes: ts = T(2) - o - or; the wire time
 *                w(m) = T(m) - o - or - ts; tl = w(M)/M at the largest
 *                size M (LogGP's G); the bandwidth factor F(m) = m*tl/w(m)
 *                at every size of a grid (2^j and 3*2^(j-1) bytes), and
 *                where two neighbours of the grid differ by more than 3%
 *                the step between them is found by bisection (to the
 *                byte): the model key bwf=T:F;... (docs/models.md);
 *   share        ranks 0 and 1 send big messages to rank 2 at once: on a
 *                ring of ranks the 2-hop flow and the 1-hop one share the
 *                arc 1 -> 2; if the 1-hop one ends well before the other
 *                (SimGrid: 2/3 of the arc, 1.5*m*tl against 2*m*tl) the
 *                arc is shared by route length: share=hops;
 *   swap         ranks 0 and 1 send big messages to each other at once: a
 *                flow whose acknowledgements take c of the reverse arc
 *                (SimGrid's network/crosstraffic, c = 0.05) leaves each
 *                direction 1/(1+c) of its arc, so c is the swap's wire
 *                time over one message's, less 1: the model key ack=c
 *                (written from 1% on).
 *
 * detach=B, the eager limit, is probed by calibrate_eager.c; timing=ranks
 * is written because it is the executor's clock (src/mpi/exec.c has no
 * barrier between rounds). routes=simgrid is written, not measured, when the tool is built with
 * SimGrid's smpicc (its mpi.h defines SMPI_H): a SimGrid TORUS cluster
 * routes every message itself, whatever a schedule names; on a real
 * machine the rule is the network's and the file keeps the default
 * (docs/models.md).
 *
 * Every time is the mean over --reps runs (after a warm-up) of the slowest
 * rank's time from a common barrier, as the other steps of calibrate.c. */
#include "mpi_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BURST, FANIN, SINGLE, SWAP };
/* The small message of the burst and fan-in runs: 2 bytes, not 1 (SMPI
 * charges its smpi/os overhead entries to sizes above their threshold,
 * and the experiment's "1:0.00025:0" leaves 1-byte messages free). */
enum { M0 = 2 };

/* One run of a pattern; returns an MPI status. */
static int pattern(int kind, int k, int me, char *s, char *r, int m) {
  MPI_Request rq[64];
  int q = 0, rc = MPI_SUCCESS;
  if (kind == BURST) {
    for (int j = 0; j < k && rc == MPI_SUCCESS; j++) {
      if (me == 0) rc = MPI_Isend(s, m, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &rq[q++]);
      if (me == 1) rc = MPI_Irecv(r + (size_t)j * (size_t)m, m, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &rq[q++]);
    }
  } else if (kind == SWAP) { /* ranks 0 and 1 send to each other at once */
    if (me < 2) rc = MPI_Irecv(r, m, MPI_BYTE, 1 - me, 9, MPI_COMM_WORLD, &rq[q++]);
    if (me < 2 && rc == MPI_SUCCESS) rc = MPI_Isend(s, m, MPI_BYTE, 1 - me, 9, MPI_COMM_WORLD, &rq[q++]);
  } else if (kind == SINGLE) { /* rank k alone sends one message to rank 0 */
    if (me == 0) rc = MPI_Irecv(r, m, MPI_BYTE, k, 7, MPI_COMM_WORLD, &rq[q++]);
    if (me == k) rc = MPI_Isend(s, m, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &rq[q++]);
  } else {
    if (me == 0)
      for (int j = 1; j <= k && rc == MPI_SUCCESS; j++)
        rc = MPI_Irecv(r + (size_t)(j - 1) * (size_t)m, m, MPI_BYTE, j, 6, MPI_COMM_WORLD, &rq[q++]);
    if (me >= 1 && me <= k) rc = MPI_Isend(s, m, MPI_BYTE, 0, 6, MPI_COMM_WORLD, &rq[q++]);
  }
  if (rc == MPI_SUCCESS) rc = MPI_Waitall(q, rq, MPI_STATUSES_IGNORE);
  return rc;
}

typedef struct bench {
  int me, reps;
  char *s, *r;
  int bad;
} bench;

/* Mean over reps of the slowest rank's time of one pattern. */
static double timed(bench *b, int kind, int k, int m) {
  if (pattern(kind, k, b->me, b->s, b->r, m) != MPI_SUCCESS) b->bad = 1; /* warm-up */
  double sum = 0;
  for (int q = 0; q < b->reps; q++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (pattern(kind, k, b->me, b->s, b->r, m) != MPI_SUCCESS) b->bad = 1;
    double dt = MPI_Wtime() - t0, worst = 0;
    MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    sum += worst;
  }
  return sum / b->reps;
}

/* The least-squares slope of y over x = 1..n. */
static double slope(const double *y, int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    double x = i + 1;
    sx += x, sy += y[i], sxx += x * x, sxy += x * y[i];
  }
  double den = n * sxx - sx * sx;
  return den != 0 ? (n * sxy - sx * sy) / den : 0;
}

static double nonneg(double x) { return x > 0 ? x : 0; }

typedef struct fitted {
  double o, orecv, ts, tl, t1;
  int nbwf;
  long bwf_at[MG_MAX_BWF];
  double bwf[MG_MAX_BWF];
} fitted;

/* The bandwidth factor at m bytes: m*tl over its wire time. */
static double factor(bench *b, const fitted *f, long m) {
  double w = timed(b, BURST, 1, (int)m) - f->t1 + M0 * f->tl; /* T(m) - o - or - ts */
  return w > 0 ? (double)m * f->tl / w : 1;
}

static int close_to(double a, double b) { return a <= b * 1.03 && b <= a * 1.03; }

int mg_tool_calibrate_loggp(const args *a, int me, int n, char *model, size_t len) {
  enum { KMAX = 8, GRID = 64 };
  long maxm = 0;
  for (int i = 0; i < a->nsizes; i++)
    if (a->sizes[i] > maxm) maxm = a->sizes[i];
  if (maxm < 1024) maxm = 1024;
  bench b = {me, a->reps, calloc(1, (size_t)maxm), calloc(KMAX, (size_t)maxm), 0};
  if (!b.s || !b.r) {
    free(b.s);
    free(b.r);
    return 1;
  }
  fitted f;
  memset(&f, 0, sizeof f);
  double tb[KMAX], tf[KMAX];
  for (int k = 1; k <= KMAX; k++)
    tb[k - 1] = timed(&b, BURST, k, M0);
  int kf = n - 1 < KMAX ? n - 1 : KMAX;
  /* the fan-in beyond its farthest sender's lone message: ranks further
   * away are more hops away, and their latency is not the receiver's */
  double far = 0;
  for (int k = 1; k <= kf; k++) {
    double lone = timed(&b, SINGLE, k, M0);
    if (lone > far) far = lone;
    tf[k - 1] = timed(&b, FANIN, k, M0) - far;
  }
  f.o = nonneg(slope(tb, KMAX));
  f.orecv = kf >= 2 ? nonneg(slope(tf, kf)) : 0;
  f.t1 = tb[0];
  f.ts = nonneg(f.t1 - f.o - f.orecv);
  /* the grid of sizes: 16, 24, 32, 48, ... up to maxm */
  long grid[GRID];
  double fac[GRID];
  int ng = 0;
  for (long p = 16; p <= maxm && ng < GRID; p *= 2) {
    grid[ng++] = p;
    if (p + p / 2 <= maxm && ng < GRID) grid[ng++] = p + p / 2;
  }
  long big = grid[ng - 1];
  double wbig = timed(&b, BURST, 1, (int)big) - f.t1;
  f.tl = wbig > 0 ? wbig / (double)(big - M0) : 0;
  if (f.tl > 0) {
    for (int i = 0; i < ng; i++)
      fac[i] = factor(&b, &f, grid[i]);
    f.bwf_at[0] = 0, f.bwf[0] = fac[0], f.nbwf = 1;
    for (int i = 1; i < ng && f.nbwf < MG_MAX_BWF; i++) {
      if (close_to(fac[i], fac[i - 1])) continue;
      long lo = grid[i - 1], hi = grid[i]; /* F(lo) = fac[i-1], F(hi) = fac[i] */
      while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (close_to(factor(&b, &f, mid), fac[i - 1]))
          lo = mid;
        else
          hi = mid;
      }
      f.bwf_at[f.nbwf] = hi, f.bwf[f.nbwf] = fac[i], f.nbwf++;
    }
    int flat = 1;
    for (int j = 0; j < f.nbwf; j++)
      flat &= close_to(f.bwf[j], 1);
    if (flat) f.nbwf = 0;
  }
  /* how two flows share an arc: ranks 0 and 1 each send big bytes to
   * rank 2 at once (on a ring of ranks, 0 -> 2 crosses 0 -> 1 -> 2, 1 -> 2
   * the last arc of it); evenly, both end together at 2*big*tl; with
   * shares in inverse proportion to the route's length, 1 -> 2 gets 2/3
   * and ends at 1.5*big*tl. */
  int hops = 0;
  double first = 0, last = 0;
  if (n >= 3 && f.tl > 0) {
    for (int rep = 0; rep < 2; rep++) { /* a warm-up, then the timed one */
      MPI_Request rq[2];
      int q = 0, rc = MPI_SUCCESS;
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (me < 2) rc = MPI_Isend(b.s, (int)big, MPI_BYTE, 2, 8, MPI_COMM_WORLD, &rq[q++]);
      if (me == 2) {
        rc = MPI_Irecv(b.r, (int)big, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &rq[q++]);
        if (rc == MPI_SUCCESS) rc = MPI_Irecv(b.r + big, (int)big, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &rq[q++]);
        for (int j = 0; j < 2 && rc == MPI_SUCCESS; j++) {
          int idx;
          rc = MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
          double t = MPI_Wtime() - t0 - f.o - f.ts;
          if (j == 0)
            first = t;
          else
            last = t;
        }
      } else if (rc == MPI_SUCCESS) {
        rc = MPI_Waitall(q, rq, MPI_STATUSES_IGNORE);
      }
      if (rc != MPI_SUCCESS) b.bad = 1;
    }
    double both[2] = {first, last};
    MPI_Bcast(both, 2, MPI_DOUBLE, 2, MPI_COMM_WORLD);
    first = both[0], last = both[1];
    hops = last > 0 && first < 0.85 * last;
  }
  /* the acknowledgements: big bytes each way at once against one way */
  double ack = 0, wswap = 0;
  if (f.tl > 0 && wbig > 0) {
    wswap = timed(&b, SWAP, 0, (int)big) - f.t1;
    ack = wswap / wbig - 1;
    if (ack < 0.01) ack = 0;
    if (ack > 1) ack = 1;
  }
  free(b.s);
  free(b.r);
  if (b.bad) return 1;
#ifdef SMPI_H
  const char *routes = ",routes=simgrid";
#else
  const char *routes = "";
#endif
  long eager = mg_tool_calibrate_eager(me, &b.bad);
  if (b.bad) return 1;
  /* timing=ranks: the executor's clock (no barrier between rounds) */
  size_t w = (size_t)snprintf(model, len, "ts=%.6g,td=0,tl=%.6g,o=%.6g,or=%.6g,contention=fair%s%s,timing=ranks", f.ts,
                              f.tl, f.o, f.orecv, hops ? ",share=hops" : "", routes);
  if (eager > 0 && w < len) w += (size_t)snprintf(model + w, len - w, ",detach=%ld", eager);
  if (ack > 0 && w < len) w += (size_t)snprintf(model + w, len - w, ",ack=%.3g", ack);
  for (int j = 0; j < f.nbwf && w < len; j++)
    w += (size_t)snprintf(model + w, len - w, "%s%ld:%.6g", j ? ";" : ",bwf=", f.bwf_at[j], f.bwf[j]);
  if (me == 0 && !a->json) {
    printf("# LogGP fit: burst of 1..%d sends, fan-in of 1..%d, one message over %d sizes to %ld B\n", KMAX, kf, ng,
           big);
    printf("#   o  = %.6g s   (burst slope)\n#   or = %.6g s   (fan-in slope)\n#   ts = %.6g s   (T(2) - o - or)\n"
           "#   tl = %.6g s/B (wire time per byte at %ld B)\n",
           f.o, f.orecv, f.ts, f.tl, big);
    printf("#   share = %s (0 -> 2 and 1 -> 2 at once: done at %.4g and %.4g s, ratio %.3f)\n", hops ? "hops" : "even",
           first, last, last > 0 ? first / last : 0);
    printf("#   ack = %.3g (%ld B each way at once: wire %.4g s against %.4g s one way)\n", ack, big, wswap, wbig);
    if (eager > 0)
      printf("#   detach = %ld B (the least MPI_Isend that waits for its receiver)\n", eager);
    else
      printf("#   detach: every send up to 16 MiB is eager\n");
  }
  return 0;
}

/* meshgossip-mpi calibrate, the eager limit: from which size on does a
 * send wait for its receiver?
 *
 * MPI libraries send small messages eagerly (MPI_Isend completes once the
 * data is buffered) and large ones by rendezvous (it completes when the
 * receiver has taken them); SMPI does the same at its
 * smpi/send-is-detached-thresh. The executor waits for its sends at the
 * end of every round (src/mpi/exec.c), so the limit decides when a rank
 * may go on: the model key detach=B (docs/models.md, timing=ranks).
 *
 * The probe: rank 1 first receives a long message from rank 2 (it is busy
 * for T_h), then m bytes from rank 0; rank 0 times MPI_Isend + MPI_Wait of
 * those m bytes. An eager send returns after the sender's overhead; a
 * rendezvous one only once rank 1 has posted its receive, after T_h. The
 * least m that waits is found by doubling, then bisection to the byte. */
#include "mpi_tool.h"

#include <stdlib.h>

enum { HOLD = 1 << 20, MAXD = 1 << 24 };

/* 1 if rank 0's send of m bytes waited for rank 1 (decided on rank 0,
 * broadcast); -1 on an MPI error. */
static int waits(int me, char *s, char *r, long m, double hold_s) {
  int rc = MPI_SUCCESS, held = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (me == 0) {
    MPI_Request rq;
    rc = MPI_Isend(s, (int)m, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &rq);
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
    held = MPI_Wtime() - t0 > hold_s / 2;
  } else if (me == 1) {
    rc = MPI_Recv(r, HOLD, MPI_BYTE, 2, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = MPI_Recv(r, (int)m, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (me == 2) {
    rc = MPI_Send(s, HOLD, MPI_BYTE, 1, 10, MPI_COMM_WORLD);
  }
  int out[2] = {held, rc != MPI_SUCCESS}, all[2];
  MPI_Allreduce(out, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return all[1] ? -1 : all[0];
}

long mg_tool_calibrate_eager(int me, int *bad) {
  /* only ranks 0..2 move data (on SMPI every rank shares one process) */
  char *s = me < 3 ? calloc(1, MAXD) : NULL, *r = me < 3 ? calloc(1, MAXD) : NULL;
  int ok = me >= 3 || (s && r), all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  long limit = 0;
  if (!all) {
    *bad = 1;
    goto out;
  }
  /* T_h: how long rank 1 is busy with the long message alone */
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  int rc = MPI_SUCCESS;
  if (me == 1) rc = MPI_Recv(r, HOLD, MPI_BYTE, 2, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (me == 2) rc = MPI_Send(s, HOLD, MPI_BYTE, 1, 10, MPI_COMM_WORLD);
  double dt = MPI_Wtime() - t0, hold_s;
  MPI_Allreduce(&dt, &hold_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) *bad = 1;
  long lo = 1, hi = 0; /* lo does not wait; hi waits */
  for (long m = 2; m <= MAXD && !*bad; m *= 2) {
    int w = waits(me, s, r, m, hold_s);
    if (w < 0) *bad = 1;
    if (w > 0) {
      hi = m;
      break;
    }
    lo = m;
  }
  while (hi && hi - lo > 1 && !*bad) {
    long mid = lo + (hi - lo) / 2;
    int w = waits(me, s, r, mid, hold_s);
    if (w < 0) *bad = 1;
    if (w > 0)
      hi = mid;
    else
      lo = mid;
  }
  limit = *bad ? 0 : hi;
out:
  free(s);
  free(r);
  return limit;
}

/* The simulator's item shards over MPI (meshgossip_mpi_shard.h): rank r
 * keeps shard r. A round's reduction is one MPI_Allreduce of a buffer
 * holding the round's per-transfer item counts and this rank's violation
 * key, with an operation that sums the counts and takes the least key
 * (lexicographic); a violation is then broadcast from the rank that holds
 * it, so every rank reports the same one (docs/distributed.md). */
#include "meshgossip_mpi_shard.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mg_mpi_shard {
  mg_shard sh;
  MPI_Comm comm;
  MPI_Op op;
  int64_t *buf; /* [key (4), counts (n)] */
  size_t cap;
};

/* Element 0..3: the key (least, lexicographic), then sums. */
static void sum_and_least(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  int64_t *a = in, *b = inout;
  int n = *len;
  if (n < MG_SHARD_KEY_LEN) return;
  for (int j = 0; j < MG_SHARD_KEY_LEN; j++) {
    if (a[j] == b[j]) continue;
    if (a[j] < b[j]) memcpy(b, a, MG_SHARD_KEY_LEN * sizeof *a);
    break;
  }
  for (int i = MG_SHARD_KEY_LEN; i < n; i++)
    b[i] = (int64_t)((uint64_t)b[i] + (uint64_t)a[i]);
}

static mg_status mpi_reduce(void *arg, int64_t round, uint64_t *counts, size_t n, int64_t *key, mg_err *err) {
  mg_mpi_shard *ms = arg;
  (void)round;
  size_t need = n + MG_SHARD_KEY_LEN;
  if (need > (size_t)INT_MAX) {
    snprintf(err->msg, sizeof err->msg, "a round of %zu transfers is over MPI's count", n);
    return MG_ERR_TOO_LARGE;
  }
  if (need > ms->cap) {
    int64_t *b = realloc(ms->buf, need * sizeof *b);
    if (!b) {
      if (err) snprintf(err->msg, sizeof err->msg, "out of memory for the shards' reduction");
      return MG_ERR_NOMEM;
    }
    ms->buf = b;
    ms->cap = need;
  }
  memcpy(ms->buf, key, MG_SHARD_KEY_LEN * sizeof *key);
  if (n) memcpy(ms->buf + MG_SHARD_KEY_LEN, counts, n * sizeof *counts);
  /* the operation is not commutative in ties of the key's last field,
   * which is the rank: keys never tie */
  if (MPI_Allreduce(MPI_IN_PLACE, ms->buf, (int)need, MPI_INT64_T, ms->op, ms->comm) != MPI_SUCCESS) {
    if (err) snprintf(err->msg, sizeof err->msg, "MPI_Allreduce failed in the shards' reduction");
    return MG_ERR_IO;
  }
  memcpy(key, ms->buf, MG_SHARD_KEY_LEN * sizeof *key);
  if (n) memcpy(counts, ms->buf + MG_SHARD_KEY_LEN, n * sizeof *counts);
  return MG_OK;
}

static mg_status mpi_share(void *arg, mg_violation *v, uint32_t from, mg_err *err) {
  mg_mpi_shard *ms = arg;
  if (MPI_Bcast(v, (int)sizeof *v, MPI_BYTE, (int)from, ms->comm) != MPI_SUCCESS) {
    if (err) snprintf(err->msg, sizeof err->msg, "MPI_Bcast failed sharing a violation");
    return MG_ERR_IO;
  }
  return MG_OK;
}

mg_status mg_mpi_shard_create(MPI_Comm comm, mg_mpi_shard **out, mg_err *err) {
  int me, n;
  *out = NULL;
  mg_mpi_shard *ms = calloc(1, sizeof *ms);
  if (!ms) {
    if (err) snprintf(err->msg, sizeof err->msg, "cannot allocate the MPI shard");
    return MG_ERR_NOMEM;
  }
  if (MPI_Comm_dup(comm, &ms->comm) != MPI_SUCCESS) {
    free(ms);
    if (err) snprintf(err->msg, sizeof err->msg, "MPI_Comm_dup failed");
    return MG_ERR_IO;
  }
  MPI_Comm_rank(ms->comm, &me);
  MPI_Comm_size(ms->comm, &n);
  MPI_Op_create(sum_and_least, 0, &ms->op);
  ms->sh.index = (uint32_t)me;
  ms->sh.count = (uint32_t)n;
  ms->sh.reduce = mpi_reduce;
  ms->sh.share = mpi_share;
  ms->sh.arg = ms;
  *out = ms;
  return MG_OK;
}

const mg_shard *mg_mpi_shard_get(const mg_mpi_shard *ms) { return &ms->sh; }

void mg_mpi_shard_free(mg_mpi_shard *ms) {
  if (!ms) return;
  MPI_Op_free(&ms->op);
  MPI_Comm_free(&ms->comm);
  free(ms->buf);
  free(ms);
}

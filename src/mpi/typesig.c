/* Datatype descriptions for the interposer's plan cache (typesig.h).
 *
 * MPI's own decoding calls give the whole of a derived type:
 * MPI_Type_get_envelope names its combiner (contiguous, vector, struct,
 * resized, dup, ...) and the counts of integers, addresses and types it
 * was built from, MPI_Type_get_contents gives them. A description is that
 * record, recursively, in the order MPI gives the parts; a predefined
 * type ends the recursion with its handle. Equal descriptions mean the
 * same constructor calls on the same predefined types, hence the same
 * type map. Derived types that MPI_Type_get_contents returns are new
 * handles and are freed here (MPI 4.0, section 5.1.13). */
#include "typesig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Nesting kept: a type built from types built from ... this many deep. */
#define MAX_DEPTH 16

typedef struct {
  unsigned char *out;
  size_t len;
} sig_buf;

static int put(sig_buf *b, const void *data, size_t n) {
  if (n > MG_TYPESIG_MAX - b->len) return -1;
  memcpy(b->out + b->len, data, n);
  b->len += n;
  return 0;
}

static int describe(MPI_Datatype t, sig_buf *b, int depth) {
  int ni, na, nd, comb;
  if (depth > MAX_DEPTH || PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) return -1;
  int32_t head[4] = {comb, ni, na, nd};
  if (put(b, head, sizeof head) != 0) return -1;
  if (comb == MPI_COMBINER_NAMED) return put(b, &t, sizeof t);
  /* the parts fit the description's room or the type is not kept */
  if ((size_t)ni > MG_TYPESIG_MAX / sizeof(int) || (size_t)na > MG_TYPESIG_MAX / sizeof(MPI_Aint) ||
      (size_t)nd > MG_TYPESIG_MAX / 16)
    return -1;
  int *ints = malloc((ni ? (size_t)ni : 1) * sizeof *ints);
  MPI_Aint *addrs = malloc((na ? (size_t)na : 1) * sizeof *addrs);
  MPI_Datatype *types = malloc((nd ? (size_t)nd : 1) * sizeof *types);
  int rc = -1, got = 0;
  if (ints && addrs && types && PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, types) == MPI_SUCCESS) {
    got = 1;
    rc = put(b, ints, (size_t)ni * sizeof *ints);
    if (rc == 0) rc = put(b, addrs, (size_t)na * sizeof *addrs);
    for (int i = 0; rc == 0 && i < nd; i++)
      rc = describe(types[i], b, depth + 1);
  }
  for (int i = 0; got && i < nd; i++) {
    int ci, ca, cd, cc;
    if (PMPI_Type_get_envelope(types[i], &ci, &ca, &cd, &cc) == MPI_SUCCESS && cc != MPI_COMBINER_NAMED)
      PMPI_Type_free(&types[i]);
  }
  free(ints);
  free(addrs);
  free(types);
  return rc;
}

int mg_typesig(MPI_Datatype t, unsigned char *sig, size_t *len) {
  sig_buf b = {sig, 0};
  *len = 0;
  if (t == MPI_DATATYPE_NULL) return 0;
  if (describe(t, &b, 0) != 0) return -1;
  *len = b.len;
  return 0;
}

/* A spec that names an algorithm per message size, for the MPI executor
 * and the interposer (MESHGOSSIP_ALLGATHER / _ALLTOALL, mg_mpi_opts.algo):
 *   "SPEC<=BYTES;SPEC<=BYTES;...;SPEC"
 * takes the first SPEC whose bound is at least the block size L (bytes per
 * rank, resp. per block); an entry without a bound takes every size. A
 * spec without ';' and '<=' is returned as it is. */
#ifndef MG_SPEC_SIZE_H
#define MG_SPEC_SIZE_H

#include "../util/internal.h"

#include <stddef.h>
#include <stdint.h>

/* Writes the chosen SPEC to out (n bytes). MG_ERR_INVALID when an entry is
 * malformed (empty spec, a bound that is not a decimal number) or no entry
 * takes L; MG_ERR_TOO_LARGE when the chosen spec does not fit in out. */
MG_SIBLING mg_status mg_spec_by_size(const char *spec, uint64_t L, char *out, size_t n, mg_err *err);

#endif

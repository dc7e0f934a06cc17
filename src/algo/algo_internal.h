/* Shared by the algorithm files: the registry's descriptors and small
 * helpers for emitting rounds into a sink. */
#ifndef MG_ALGO_INTERNAL_H
#define MG_ALGO_INTERNAL_H

#include "../util/internal.h"

/* Every algorithm file defines one or more descriptors. */
extern const mg_algo mg_algo_ring;
extern const mg_algo mg_algo_concentrate;
extern const mg_algo mg_algo_mpi_allgather_ring;
extern const mg_algo mg_algo_mpi_allgather_rd;
extern const mg_algo mg_algo_mpi_allgather_bruck;
extern const mg_algo mg_algo_mpi_allgather_neighbor;
extern const mg_algo mg_algo_mpi_allgather_direct;
extern const mg_algo mg_algo_mpi_alltoall_pairwise;
extern const mg_algo mg_algo_mpi_alltoall_bruck;
extern const mg_algo mg_algo_mpi_alltoall_direct;
extern const mg_algo mg_algo_mpi_alltoall_ring;

/* Emits rounds: begin, then rounds, then end; owns one reusable round. */
typedef struct mg_emit {
  mg_sink *sink;
  mg_round r;
} mg_emit;

mg_status mg_emit_begin(mg_emit *e, mg_sink *sink, const mg_problem_spec *pb, const char *algo, const mg_params *ps,
                        uint32_t pieces, uint32_t flags, int64_t rounds_hint, mg_err *err);
/* Adds a transfer to the current round. */
mg_status mg_emit_add(mg_emit *e, const mg_transfer *tr, mg_err *err);
/* Sends the current round (possibly empty) to the sink and starts a new one. */
mg_status mg_emit_round(mg_emit *e, mg_err *err);
mg_status mg_emit_end(mg_emit *e, mg_err *err);
void mg_emit_free(mg_emit *e);

/* Integer parameter with default; refuses values outside [lo, hi]. */
mg_status mg_param_int(const mg_params *ps, const char *name, int64_t def, int64_t lo, int64_t hi, int64_t *out,
                       mg_err *err);

/* The generic check for one-dimensional algorithms on rings and lines. */
mg_status mg_check_1d_gossip(const mg_problem_spec *pb, const char *algo, mg_err *err);

/* Floor log base 3 / whether n is a power of 3. */
int mg_is_pow(uint64_t n, uint64_t base, int *k);

#endif

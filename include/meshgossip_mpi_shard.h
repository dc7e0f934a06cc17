/*
 * meshgossip: the simulator sharded over MPI ranks (docs/distributed.md).
 * Rank r of a communicator of K ranks keeps shard r of K of the item state
 * (meshgossip_shard.h); every rank runs the same generator, and a round's
 * item counts are summed and its first violation agreed on with one
 * MPI_Allreduce. Hand the shard to the simulator in mg_sim_opts.shard and
 * run the same call (mg_run, mg_verify_file, ...) on every rank: every
 * rank ends with the same report.
 */
#ifndef MESHGOSSIP_MPI_SHARD_H
#define MESHGOSSIP_MPI_SHARD_H

#include <mpi.h>

#include "meshgossip_shard.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mg_mpi_shard mg_mpi_shard;

/* Collective over comm (duplicated: the shard's messages never meet the
 * caller's). MG_ERR_NOMEM, or MG_ERR_IO if an MPI call fails. */
mg_status mg_mpi_shard_create(MPI_Comm comm, mg_mpi_shard **out, mg_err *err);
/* The shard of this rank; valid until mg_mpi_shard_free. */
const mg_shard *mg_mpi_shard_get(const mg_mpi_shard *ms);
/* Collective. */
void mg_mpi_shard_free(mg_mpi_shard *ms);

#ifdef __cplusplus
}
#endif
#endif

/*
 * meshgossip over MPI: any verified schedule run with point-to-point
 * messages (MPI or SimGrid's SMPI).
 *
 * A plan is made once per (communicator, counts, datatypes): the schedule
 * is generated and simulated on every rank, and each rank keeps only its
 * own part — per round, the peers it sends to and receives from and the
 * byte ranges of its buffers each message carries (contiguous items
 * coalesced). Starting a plan replays it: per round the receives are
 * posted before the sends, then one MPI_Waitall. The plan runs on a
 * duplicate of the caller's communicator, so its tags can never meet the
 * application's messages.
 *
 * Topology, in order: opts->topo; the communicator's Cartesian topology
 * (MPI_Cart_get: dims and periods; periodic = torus); the environment
 * variable MESHGOSSIP_TOPO ("torus:9x9"); else a ring of all ranks.
 * Algorithm: opts->algo, else "auto" — the registered algorithm of least
 * simulated cost under the model (opts->model, else MESHGOSSIP_MODEL,
 * else MG_MPI_DEFAULT_MODEL), contention shared unless the model shares arcs already (fair).
 *
 * Every function returns an MPI error code (MPI_SUCCESS or an error
 * class); none aborts. Plan creation is collective and agrees on the
 * outcome (one MPI_Allreduce), so a rank that cannot plan makes all fail
 * together instead of leaving the others waiting.
 */
#ifndef MESHGOSSIP_MPI_H
#define MESHGOSSIP_MPI_H

#include <mpi.h>

#include "meshgossip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A shared-memory node of this decade: 5 us per message, 2 GB/s. */
#define MG_MPI_DEFAULT_MODEL "ts=5e-6,td=0,tl=5e-10"

typedef struct mg_mpi_opts {
  const char *topo;      /* topology spec, NULL: see above */
  const char *algo;      /* "NAME[:k=v,...]" or "auto"; NULL: "auto" */
  const char *model;     /* model spec for "auto", NULL: see above */
  const mg_algo *custom; /* an algorithm outside the registry (a caller's
                            own generator); overrides algo */
  const char *sync;      /* "rounds": a rank posts a round's receives and
                            sends and waits for them all before the next;
                            "data": every receive is posted at the start and
                            a send goes as soon as the receives whose bytes
                            it carries have completed (no round barrier);
                            "auto": the one the model prices lower
                            (data under timing=async), a tie rounds.
                            NULL: MESHGOSSIP_SYNC, else "rounds" */
  mg_err *err;           /* optional: receives a one-line reason on failure */
} mg_mpi_opts;

typedef struct mg_mpi_plan mg_mpi_plan;

/* Collective over comm. Makes a persistent allgather plan: every rank
 * contributes sendcount elements of sendtype and receives size blocks of
 * recvcount elements of recvtype. sendtype may be MPI_DATATYPE_NULL if
 * every start will pass MPI_IN_PLACE. On success *plan is owned by the
 * caller (free with mg_mpi_plan_free); on failure *plan is NULL and the
 * returned error class is the same on every rank: MPI_ERR_TOPOLOGY (the
 * topology does not have comm's size), MPI_ERR_COMM (an intercommunicator),
 * MPI_ERR_ARG (unknown algorithm, or one that refuses the topology, or
 * ranks whose settings made them plan differently: another algorithm,
 * topology, model or sync), MPI_ERR_TYPE / MPI_ERR_COUNT (datatype or
 * count problems, ranks with different block sizes), MPI_ERR_NO_MEM. The
 * plan keeps its own copies of derived datatypes: the caller may free its
 * handles after init. */
int mg_mpi_allgather_init(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          const mg_mpi_opts *opts, mg_mpi_plan **plan);
/* The same for alltoall: block d of sendbuf goes to rank d, block s of
 * recvbuf comes from rank s. */
int mg_mpi_alltoall_init(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         const mg_mpi_opts *opts, mg_mpi_plan **plan);
/* Collective: runs the plan to completion on these buffers. sendbuf may be
 * MPI_IN_PLACE (the data is then taken from recvbuf, as in MPI). */
int mg_mpi_start(mg_mpi_plan *plan, const void *sendbuf, void *recvbuf);
/* Frees the plan (and its communicator); *plan becomes NULL. NULL is a
 * no-op. Not collective in effect, but call it on every rank. */
void mg_mpi_plan_free(mg_mpi_plan **plan);
/* The algorithm (with parameters) and topology the plan runs; never NULL. */
const char *mg_mpi_plan_algorithm(const mg_mpi_plan *plan);
const char *mg_mpi_plan_topology(const mg_mpi_plan *plan);
/* "rounds" or "data" (mg_mpi_opts.sync). */
const char *mg_mpi_plan_sync(const mg_mpi_plan *plan);
/* Rounds, and messages this rank sends over all rounds. */
int64_t mg_mpi_plan_rounds(const mg_mpi_plan *plan);
uint64_t mg_mpi_plan_sends(const mg_mpi_plan *plan);
/* Bytes of buffers the plan holds on this rank: the schedule's temporary
 * and staging space; for alltoall a send copy (size blocks, for
 * MPI_IN_PLACE and packing); and a packed copy of recvbuf (size blocks)
 * unless recvtype is a predefined type whose extent is its size, when the
 * messages land in recvbuf itself and nothing is unpacked. */
uint64_t mg_mpi_plan_buffer_bytes(const mg_mpi_plan *plan);

/* One-shot collectives with the MPI signature: plan, start, free. */
int mg_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm);
int mg_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif

/* Helpers shared by the MPI libraries' allgather and alltoall algorithms
 * (mpi_allgather.c, mpi_alltoall.c). */
#ifndef MG_MPI_COMMON_H
#define MG_MPI_COMMON_H

#include "../algo_internal.h"

/* The baselines address ranks, so any grid topology (not a mesh-bus) with
 * the problem the algorithm solves. */
mg_status mg_mpi_grid_check(const mg_problem_spec *pb, mg_problem problem, const char *algo, mg_err *err);

/* The direct algorithms put p(p-1) transfers (a few hundred bytes each) in
 * one round, all in memory at once: refuse beyond MG_MPI_DIRECT_MAX. */
#define MG_MPI_DIRECT_MAX (1u << 22)
mg_status mg_mpi_direct_size_check(const mg_problem_spec *pb, const char *algo, mg_err *err);

/* Closed forms are stated for wormhole (and circuit) routing. */
mg_status mg_mpi_cf_model(const mg_problem_spec *pb, const char *what, mg_err *err);

int mg_mpi_is_ring(const mg_topo *t);

/* The direct algorithms on ring:p, shared arcs: every rank starts p-1
 * messages over its 2 out-arcs, one after the other (ceil((p-1)/2)
 * start-ups); q = floor(p/2) hops; the busiest arc carries q(q+1)/2 units. */
double mg_mpi_direct_ring_cost(const mg_problem_spec *pb);

#endif

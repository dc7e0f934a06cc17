/* Helpers shared by the MPI baselines: see mpi_common.h. */
#include "mpi_common.h"

mg_status mg_mpi_grid_check(const mg_problem_spec *pb, mg_problem problem, const char *algo, mg_err *err) {
  if (pb->problem != problem)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s is a %s algorithm", algo,
                   problem == MG_GOSSIP ? "gossip (allgather)" : "complete exchange (alltoall)");
  if (pb->topo.kind != MG_TOPO_GRID)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a ring, line, torus or mesh (not a mesh-bus)", algo);
  return MG_OK;
}

mg_status mg_mpi_direct_size_check(const mg_problem_spec *pb, const char *algo, mg_err *err) {
  uint64_t p = pb->topo.N;
  if (p * (p - 1) > MG_MPI_DIRECT_MAX)
    return mg_fail(err, MG_ERR_TOO_LARGE,
                   "%s puts p(p-1) = %llu transfers in one round, over the %u it holds in memory", algo,
                   (unsigned long long)(p * (p - 1)), MG_MPI_DIRECT_MAX);
  return MG_OK;
}

mg_status mg_mpi_cf_model(const mg_problem_spec *pb, const char *what, mg_err *err) {
  const mg_model *m = &pb->model;
  if (m->switching != MG_SW_WORMHOLE && m->switching != MG_SW_CIRCUIT)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "the closed form of %s is for wormhole or circuit switching", what);
  return MG_OK;
}

int mg_mpi_is_ring(const mg_topo *t) { return t->kind == MG_TOPO_GRID && t->d == 1 && t->wrap[0]; }

double mg_mpi_direct_ring_cost(const mg_problem_spec *pb) {
  const mg_model *m = &pb->model;
  double q = pb->topo.N / 2, starts = (double)(pb->topo.N / 2); /* ceil((p-1)/2) = floor(p/2) */
  return starts * m->ts + q * m->td + q * (q + 1) / 2 * pb->bytes * m->tl;
}

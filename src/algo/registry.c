/* The one table of algorithms. Every entry is a descriptor defined in the
 * algorithm's own file (name, problem, paper, restrictions, parameters with
 * defaults, generator, closed form). */
#include "algo_internal.h"

#include <string.h>

static const mg_algo *const registry[] = {
    &mg_algo_ring,
    &mg_algo_concentrate,
    &mg_algo_circgos,
    &mg_algo_weave,
    &mg_algo_dimwise,
    &mg_algo_dimwise_colored,
    &mg_algo_torgos,
    &mg_algo_cubgos,
    &mg_algo_exchange_ring,
    &mg_algo_exchange_dimwise,
    &mg_algo_exchange_partitioned,
    &mg_algo_lee3d,
    &mg_algo_lee3d_long,
    &mg_algo_bus_simple,
    &mg_algo_bus_simple_refined,
    &mg_algo_bus_partition,
    &mg_algo_bus_partition_theta,
    &mg_algo_bus_centralize,
    &mg_algo_mpi_allgather_ring,
    &mg_algo_mpi_allgather_rd,
    &mg_algo_mpi_allgather_bruck,
    &mg_algo_mpi_allgather_neighbor,
    &mg_algo_mpi_allgather_direct,
    &mg_algo_mpi_alltoall_pairwise,
    &mg_algo_mpi_alltoall_bruck,
    &mg_algo_mpi_alltoall_direct,
    &mg_algo_mpi_alltoall_ring,
    &mg_algo_multiring,
    &mg_algo_greedy_links,
    &mg_algo_torus_doubling,
    &mg_algo_torus_swing,
    &mg_algo_torus_ternary,
    &mg_algo_torus_digits,
    &mg_algo_torus_quadrupling,
    &mg_algo_torus_tiling,
    &mg_algo_exchange_lines,
    &mg_algo_exchange_allport,
    &mg_algo_exchange_relay,
    &mg_algo_exchange_swing,
    &mg_algo_exchange_ternary,
    &mg_algo_exchange_digits,
    &mg_algo_exchange_hops,
    &mg_algo_exchange_slots,
    &mg_algo_exchange_moves,
};

size_t mg_algo_count(void) { return sizeof registry / sizeof registry[0]; }

const mg_algo *mg_algo_at(size_t i) { return i < mg_algo_count() ? registry[i] : NULL; }

const mg_algo *mg_algo_find(const char *name) {
  for (size_t i = 0; i < mg_algo_count(); i++)
    if (!strcmp(registry[i]->name, name)) return registry[i];
  return NULL;
}

static int declared(const mg_algo *a, const char *name) {
  for (const mg_param_desc *p = a->params; p && p->name; p++)
    if (!strcmp(p->name, name)) return 1;
  return 0;
}

mg_status mg_algo_lookup(const char *spec, const mg_algo **algo, mg_params *ps, mg_err *err) {
  char name[64];
  const char *colon = strchr(spec, ':');
  size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
  if (len == 0 || len >= sizeof name) return mg_fail(err, MG_ERR_INVALID, "bad algorithm name '%s'", spec);
  memcpy(name, spec, len);
  name[len] = 0;
  const mg_algo *a = mg_algo_find(name);
  if (!a) return mg_fail(err, MG_ERR_NOTFOUND, "unknown algorithm '%s' (see 'meshgossip list')", name);
  mg_status st = mg_params_parse(colon ? colon + 1 : "", ps, err);
  if (st != MG_OK) return st;
  for (int i = 0; i < ps->n; i++)
    if (!declared(a, ps->p[i].name))
      return mg_fail(err, MG_ERR_INVALID, "algorithm %s has no parameter '%s'", a->name, ps->p[i].name);
  *algo = a;
  return MG_OK;
}

mg_status mg_algo_check(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  if (a->problem != pb->problem)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s solves %s, not %s", a->name, mg_problem_name(a->problem),
                   mg_problem_name(pb->problem));
  for (int i = 0; ps && i < ps->n; i++)
    if (!declared(a, ps->p[i].name))
      return mg_fail(err, MG_ERR_INVALID, "algorithm %s has no parameter '%s'", a->name, ps->p[i].name);
  /* The kind of machine, for every algorithm in one place. A mesh-bus
   * algorithm says so first; the others first let their own check name
   * the topology they need ("ring needs a ring"), the more useful reason. */
  if (a->on_bus && pb->topo.kind != MG_TOPO_MESHBUS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a mesh-bus computer (meshbus:N)", a->name);
  if (a->on_bus && pb->model.switching != MG_SW_BUS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs switching=bus", a->name);
  mg_status st = a->check ? a->check(pb, ps, err) : MG_OK;
  if (st != MG_OK) return st;
  if (!a->on_bus && (pb->topo.kind == MG_TOPO_MESHBUS || pb->model.switching == MG_SW_BUS))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s does not run on buses", a->name);
  return MG_OK;
}

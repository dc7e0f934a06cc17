/* meshemu: runs a torus schedule on the mesh of the same extents with the
 * "extra routing steps" of Juurlink, Rao, Sibeyn 1996 (section 6.2: "With some extra routing
 * steps, meshes can be treated similarly"; section 7: the 1D-shift step).
 *
 * A sink wrapper: the generator writes rounds for the torus; every torus
 * round becomes up to two mesh rounds: first the transfers whose routes
 * stay inside the mesh (same arcs as on the torus), then those that cross a
 * wrap-around link, re-routed the other way along the same line (default
 * mesh route). In a strict torus round at most one transfer per line and
 * direction crosses the wrap link, and the re-routed ones run against that
 * direction, so the extra round is contention-free when every crossing
 * transfer walks a single line. The second round reads the state after the
 * first, so a selector may carry more items than on the torus: the result
 * stays correct, and the cost is what the simulator measures.
 */
#ifndef MG_MESHEMU_H
#define MG_MESHEMU_H

#include "../algo_internal.h"

typedef struct mg_meshemu {
  mg_sink *out;  /* the real sink (the mesh) */
  mg_topo mesh;  /* the problem's topology */
  mg_topo torus; /* the same extents, wrapped */
  mg_round late; /* transfers crossing a wrap link */
  mg_round early;
} mg_meshemu;

/* Sets up the wrapper; *pbt receives pb with the torus topology and *sink
 * the sink the generator should write to. Free with mg_meshemu_free. */
void mg_meshemu_init(mg_meshemu *m, const mg_problem_spec *pb, mg_sink *out, mg_problem_spec *pbt, mg_sink *sink);
void mg_meshemu_free(mg_meshemu *m);

#endif

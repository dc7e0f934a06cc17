/* Generate-and-simulate in one call, plus the lower bound and ratio. */
#include "algo_internal.h"

#include <string.h>

mg_status mg_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                 mg_report *rep, mg_err *err) {
  mg_sim *sim = NULL;
  mg_status st;
  mg_params none;
  memset(&none, 0, sizeof none);
  memset(rep, 0, sizeof *rep);
  if (!ps) ps = &none;
  MG_CHECK(mg_algo_check(a, pb, ps, err));
  MG_CHECK(mg_sim_create(opts, &sim, err));
  mg_sink sink = mg_sim_sink(sim);
  st = a->generate(pb, ps, &sink, err);
  mg_sim_take_report(sim, rep);
  if (st != MG_OK) goto out;
  mg_bound b;
  if (mg_lower_bound(pb, &b, NULL) == MG_OK) {
    rep->lower_bound = b.lower_bound;
    rep->ratio_to_bound = b.lower_bound > 0 ? rep->cost / b.lower_bound : 0;
  }
out:
  mg_sim_destroy(sim);
  return st;
}

/* Shared by the table files: run one algorithm and keep its verified cost. */
#include "tables.h"

#include <math.h>

mg_status mg_table_simulate(const char *algo_spec, const mg_problem_spec *pb, const mg_sim_opts *opts, double *cost,
                            mg_err *err) {
  const mg_algo *a;
  mg_params ps;
  mg_report rep;
  mg_status st = mg_algo_lookup(algo_spec, &a, &ps, err);
  if (st != MG_OK) return st;
  st = mg_run(a, pb, &ps, opts, &rep, err);
  *cost = (st == MG_OK && rep.verified) ? rep.cost : NAN;
  mg_report_free(&rep);
  return st == MG_ERR_VIOLATION ? MG_OK : st;
}

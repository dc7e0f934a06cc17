/* Run one algorithm: through the driver into the simulator, and
 * optionally into a schedule file. */
#include "algo_internal.h"

#include <stdio.h>
#include <string.h>

mg_status mg_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                 mg_report *rep, mg_err *err) {
  if (opts && opts->on_step) {
    char spec[MG_ERR_LEN], p[MG_ERR_LEN / 2];
    snprintf(spec, sizeof spec, "%s%s%s", a->name, ps && ps->n ? ":" : "",
             ps && ps->n ? mg_params_format(ps, p, sizeof p) : "");
    opts->on_step(opts->on_step_arg, spec, -1, -1);
  }
  return mg_drive_algo(a, pb, ps, NULL, 0, opts, rep, err);
}

mg_status mg_export(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const char *path,
                    const mg_sim_opts *opts, mg_report *rep, mg_err *err) {
  return mg_export_as(a, pb, ps, path, MG_FORMAT_JSON, opts, rep, err);
}

mg_status mg_export_as(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const char *path,
                       mg_export_format format, const mg_sim_opts *opts, mg_report *rep, mg_err *err) {
  mg_tap tap;
  memset(rep, 0, sizeof *rep);
  mg_status st = mg_export_tap(format, path, &tap, err);
  if (st != MG_OK) return st;
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  o.keep_round_costs = 1; /* the file's report lists them */
  return mg_drive_algo(a, pb, ps, &tap, 1, &o, rep, err);
}

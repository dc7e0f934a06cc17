/* Verify an MSCCL XML algorithm: read (src/schedule/import_msccl.c) for the
 * user's machine and replayed through the one driver into the simulator,
 * so it is checked and priced under any model exactly like a schedule
 * file. The reader's own violations (a slot sent before it holds data, an
 * output chunk in the wrong place) are reported as the simulator's are. */
#include "../schedule/msccl_file.h"

#include <string.h>

mg_status mg_verify_msccl(const char *path, const char *data, size_t len, const mg_problem_spec *pb,
                          const mg_sim_opts *opts, mg_report *rep, mg_schedule_info *info, mg_err *err) {
  mg_msccl *m = NULL;
  memset(rep, 0, sizeof *rep);
  mg_status st = mg_msccl_open(path, data, len, pb, opts ? opts->mem_limit : 0, &m, err);
  if (st != MG_OK) return st;
  if (info) *info = *mg_msccl_info(m);
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  o.keep_round_costs = 1;
  st = mg_drive(mg_msccl_generate, m, NULL, 0, &o, rep, err);
  const mg_violation *v = mg_msccl_violation(m);
  if (st == MG_ERR_VIOLATION && v->rule != MG_RULE_NONE) {
    rep->verified = 0;
    rep->violation = *v;
  }
  mg_msccl_close(m);
  return st;
}

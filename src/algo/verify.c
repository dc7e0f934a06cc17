/* Verify a schedule file: its rounds, read back with explicit items,
 * replayed through the driver into the simulator; the file's own report is
 * then compared with ours. */
#include "../schedule/schedule_file.h"

#include <string.h>

static mg_status verify_open(mg_sfile *sf, const mg_sim_opts *opts, mg_report *rep, mg_schedule_info *info_out,
                             char *disagree, size_t dlen, mg_err *err) {
  if (info_out) *info_out = *mg_sfile_info(sf);
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  o.keep_round_costs = 1;
  mg_status st = mg_drive(mg_sfile_generate, sf, NULL, 0, &o, rep, err);
  if (st == MG_OK) mg_sfile_disagreement(sf, rep, disagree, dlen);
  mg_sfile_close(sf);
  return st;
}

mg_status mg_verify_file(const char *path, const mg_sim_opts *opts, mg_report *rep, mg_schedule_info *info_out,
                         char *disagree, size_t dlen, mg_err *err) {
  mg_sfile *sf = NULL;
  memset(rep, 0, sizeof *rep);
  if (disagree && dlen) disagree[0] = 0;
  mg_status st = mg_sfile_open(path, opts ? opts->mem_limit : 0, &sf, err);
  return st != MG_OK ? st : verify_open(sf, opts, rep, info_out, disagree, dlen, err);
}

mg_status mg_verify_buffer(const char *data, size_t len, const mg_sim_opts *opts, mg_report *rep,
                           mg_schedule_info *info_out, char *disagree, size_t dlen, mg_err *err) {
  mg_sfile *sf = NULL;
  memset(rep, 0, sizeof *rep);
  if (disagree && dlen) disagree[0] = 0;
  mg_status st = mg_sfile_open_buffer(data, len, opts ? opts->mem_limit : 0, &sf, err);
  return st != MG_OK ? st : verify_open(sf, opts, rep, info_out, disagree, dlen, err);
}

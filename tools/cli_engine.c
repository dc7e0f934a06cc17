/* --engine and --export-ti for run and compare: option checks, the replay
 * function built in, and how an engine's time is printed. */
#include "cli.h"

#include <stdio.h>

int cli_engine_setup(const cli_opts *o, mg_engine_opts *eo) {
  mg_err err = {{0}};
  mg_engine_opts_default(eo);
  if (o->engine && mg_engine_parse(o->engine, eo, &err) != MG_OK) {
    fprintf(stderr, "meshgossip: %s\n", err.msg);
    return EXIT_USAGE;
  }
  if (eo->kind == MG_ENGINE_SIMGRID && !cli_engine_replay()) {
    fprintf(stderr, "meshgossip: --engine simgrid is not built in (libsimgrid was not found when meshgossip was "
                    "built)\n");
    return EXIT_USAGE;
  }
  eo->ti_dir = o->export_ti;
  eo->mem_limit = o->mem_limit;
  return -1;
}

mg_engine_replay_fn cli_engine_replay(void) {
#ifdef MG_HAVE_SIMGRID
  return mg_simgrid_replay;
#else
  return NULL;
#endif
}

json_t *cli_engine_json(const mg_engine_result *res) {
  json_t *j =
      json_pack("{s:s, s:f, s:f, s:f, s:f, s:I, s:I, s:I}", "name", "simgrid", "time_s", res->time_s, "o", res->o, "or",
                res->or_, "wall_s", res->wall_s, "peak_rss_bytes", (json_int_t)res->peak_rss_bytes, "messages",
                (json_int_t)res->messages, "nondefault_routes", (json_int_t)res->nondefault_routes);
  json_object_set_new(j, "cpu_s", json_real(res->cpu_s));
  if (res->note[0]) json_object_set_new(j, "note", json_string(res->note));
  return j;
}

void cli_print_engine(const mg_engine_result *res, const mg_report *rep) {
  char t1[32], t2[32];
  printf("simgrid        %s s simulated (model %s, model/simgrid %.4f); o=%g, or=%g per message\n",
         mg_fmt_double(res->time_s, t1, sizeof t1), mg_fmt_double(rep->cost, t2, sizeof t2),
         res->time_s > 0 ? rep->cost / res->time_s : 0.0, res->o, res->or_);
  printf("simgrid run    %llu messages, %.3f s (CPU %.3f s), peak RSS %.1f MiB%s%s\n",
         (unsigned long long)res->messages, res->wall_s, res->cpu_s, (double)res->peak_rss_bytes / 1048576.0,
         res->note[0] ? "; " : "", res->note);
}

/* meshgossip compare: every applicable algorithm, ranked by verified cost. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_compare(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " problem topo model r bytes json mem-limit ")) return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip compare --problem gossip|exchange --topo SPEC [--model SPEC | --r R] [--bytes L] [--json]\n\n"
           "Runs every registered algorithm of the problem that applies to the topology\n"
           "and model (tunable ones tuned), verifies each, and ranks them by cost beside\n"
           "the lower bound. Algorithms that do not apply are listed with the reason.\n\n"
           "examples:\n  meshgossip compare --problem gossip --topo ring:81 --r 10\n"
           "  meshgossip compare --problem gossip --topo torus:9x9 --model ts=3e-4,tl=2.2e-8 --bytes 32768\n");
    return EXIT_OK;
  }
  mg_problem problem;
  mg_status st = mg_problem_parse(o.problem ? o.problem : "", &problem, &err);
  if (st != MG_OK) return cli_fail(st, &err);
  mg_problem_spec pb;
  if ((st = cli_problem(&o, problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  so.progress = NULL;
  mg_compare_row *rows;
  size_t n;
  if ((st = mg_compare(&pb, &so, 1, &rows, &n, &err)) != MG_OK) return cli_fail(st, &err);
  mg_bound b;
  mg_lower_bound(&pb, &b, NULL);
  const char *best = n && !rows[0].refused && rows[0].rep.verified ? rows[0].algo->name : NULL;
  char topo[128], ps[256];
  if (o.json) {
    json_t *res = json_array();
    for (size_t i = 0; i < n; i++) {
      const mg_compare_row *r = &rows[i];
      json_t *j = json_pack("{s:s, s:o}", "algorithm", r->algo->name, "params", cli_params_json(&r->params));
      if (r->refused) json_object_set_new(j, "refused", json_string(r->reason));
      else {
        json_object_set_new(j, "verified", json_boolean(r->rep.verified));
        json_object_set_new(j, "cost", json_real(r->rep.cost));
        json_object_set_new(j, "rounds", json_integer(r->rep.rounds));
        json_object_set_new(j, "ratio_to_bound", json_real(r->rep.ratio_to_bound));
        if (!r->rep.verified) json_object_set_new(j, "violation", cli_violation_json(&r->rep));
      }
      json_array_append_new(res, j);
    }
    json_t *j = json_pack("{s:s, s:s, s:o, s:f, s:o}", "problem", mg_problem_name(problem), "topology",
                          mg_topo_format(&pb.topo, topo, sizeof topo), "model", cli_model_json(&pb.model), "bytes",
                          pb.bytes, "results", res);
    json_object_set_new(j, "best", best ? json_string(best) : json_null());
    json_object_set_new(j, "lower_bound", json_real(b.lower_bound));
    cli_print_json(j);
  } else {
    char model[256];
    printf("%s on %s, %g bytes, %s\n", mg_problem_name(problem), mg_topo_format(&pb.topo, topo, sizeof topo), pb.bytes,
           mg_model_format(&pb.model, model, sizeof model));
    printf("lower bound %.10g\n\n%-4s %-24s %14s %8s %8s  %s\n", b.lower_bound, "", "algorithm", "cost", "rounds",
           "ratio", "params");
    for (size_t i = 0; i < n; i++) {
      const mg_compare_row *r = &rows[i];
      if (r->refused) printf("     %-24s %14s %8s %8s  refused: %s\n", r->algo->name, "-", "-", "-", r->reason);
      else
        printf("%-4s %-24s %14.8g %8lld %8.3f  %s%s%s\n", best && i == 0 ? "best" : "", r->algo->name, r->rep.cost,
               (long long)r->rep.rounds, r->rep.ratio_to_bound, mg_params_format(&r->params, ps, sizeof ps),
               r->rep.verified ? "" : " NOT VERIFIED: ", r->rep.verified ? "" : r->rep.violation.msg);
    }
  }
  free(rows);
  return EXIT_OK;
}

/* meshgossip tune: the least verified cost over an algorithm's parameters. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cmd_tune(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " algo topo model r bytes json mem-limit ")) return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip tune --algo NAME --topo SPEC [--model SPEC | --r R] [--bytes L] [--json]\n"
           "                       [--mem-limit BYTES]\n\n"
           "Generates and verifies every candidate parameter set of the algorithm and\n"
           "prints the one with the least cost, and the runner-up. Parameters given\n"
           "with the name (circgos:a=3) are held: the others are tuned. Prices under\n"
           "the given model, contention=strict unless --model sets it (as run; compare\n"
           "tunes its rows under contention=shared, so its pick may differ).\n\n"
           "example:\n  meshgossip tune --algo circgos --topo ring:729 --r 10\n");
    return EXIT_OK;
  }
  if (cli_extra_argument(&o)) return EXIT_USAGE;
  if (!o.algo) {
    fprintf(stderr, "meshgossip: --algo is required\n");
    return EXIT_USAGE;
  }
  const mg_algo *a;
  mg_params ps, best, second;
  mg_status st = mg_algo_lookup(o.algo, &a, &ps, &err);
  if (st != MG_OK) return cli_fail(st, &err);
  mg_problem_spec pb;
  if ((st = cli_problem(&o, a->problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  int code = cli_size_check(&o, &pb);
  if (code != EXIT_OK) return code;
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  so.progress = NULL;
  cli_step_progress(&so, "tune");
  mg_report br, sr;
  size_t evaluated;
  st = mg_tune_with(a, &pb, &ps, &so, &best, &br, &second, &sr, &evaluated, &err);
  cli_progress_done();
  if (st != MG_OK) return cli_fail(st, &err);
  if (o.json) {
    json_t *j = json_pack("{s:s}", "algorithm", a->name);
    json_object_set_new(j, "best",
                        json_pack("{s:o, s:f, s:b, s:I}", "params", cli_params_json(&best), "cost", br.cost, "verified",
                                  br.verified, "rounds", (json_int_t)br.rounds));
    json_object_set_new(j, "runner_up",
                        sr.verified ? json_pack("{s:o, s:f}", "params", cli_params_json(&second), "cost", sr.cost)
                                    : json_null());
    json_object_set_new(j, "evaluated", json_integer((json_int_t)evaluated));
    cli_print_json(j);
  } else {
    char p1[256], p2[256], c1[32], c2[32];
    printf("best        %s:%s  cost %s %s, %lld rounds (verified)\n", a->name, mg_params_format(&best, p1, sizeof p1),
           mg_fmt_double(br.cost, c1, sizeof c1), cli_cost_unit(), (long long)br.rounds);
    if (sr.verified)
      printf("runner-up   %s:%s  cost %s %s\n", a->name, mg_params_format(&second, p2, sizeof p2),
             mg_fmt_double(sr.cost, c2, sizeof c2), cli_cost_unit());
    printf("evaluated   %zu verified candidates\n", evaluated);
  }
  mg_report_free(&br);
  mg_report_free(&sr);
  return EXIT_OK;
}

/* meshgossip run: one algorithm, verified and priced; optionally exported. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void help(void) {
  printf("usage: meshgossip run --algo NAME[:k=v,...] --topo SPEC [--model SPEC | --r R] [--bytes L]\n"
         "                      [--json] [--export FILE] [--mem-limit BYTES] [--timing sync|async|ranks]\n"
         "       meshgossip run --algo auto [--problem gossip|exchange] --topo SPEC ...\n\n"
         "Generates the schedule, runs it through the simulator (every rule checked,\n"
         "complete delivery checked) and prints its cost, rounds and lower bound.\n"
         "Exit status: 0 verified, 1 the schedule breaks a rule, 2 bad input,\n"
         "3 too large for memory.\n\n"
         "  --topo   ring:N | line:N | torus:AxB.. | mesh:AxB.. | meshbus:N\n"
         "  --model  switching=wormhole|circuit|saf|bus,port=all|one,contention=strict|shared|fair,\n"
         "           ts=S,td=S,tl=S,ell=K   (defaults: wormhole, all, strict, ts=1, td=0, tl=0)\n"
         "           o=S,or=S  sender / receiver CPU seconds per message (default 0)\n"
         "  --timing sync|async|ranks  sync: rounds end at a barrier (default); async:\n"
         "           a transfer starts when its items and its sender's CPU are ready;\n"
         "           ranks: each node runs its rounds in order, as an MPI executor\n"
         "  --r R    the papers' units: ts=R, td=0, tl=1 and L=1 (costs in t'_l)\n"
         "  --bytes  gossip: bytes per node; exchange: bytes per block (default 1)\n"
         "  --algo auto  runs every registered algorithm of the problem (default gossip)\n"
         "           under the given model, picks the least verified cost and runs it;\n"
         "           the output names the pick (JSON: \"algorithm\" and \"auto\": true) and\n"
         "           the runner-up with its cost (JSON: \"runner_up\")\n\n"
         "examples:\n"
         "  meshgossip run --algo ring --topo ring:27 --r 2\n"
         "  meshgossip run --algo concentrate --topo ring:81 --r 10 --json\n"
         "  meshgossip run --algo concentrate --topo line:9 --r 1 --export line9.json\n"
         "  meshgossip run --algo auto --topo torus:9x9 --model contention=shared,ts=3e-4,tl=2.2e-8 --bytes 32768\n");
}

int cmd_run(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " algo problem topo model r bytes json export mem-limit timing ")) return EXIT_USAGE;
  if (o.help) {
    help();
    return EXIT_OK;
  }
  if (o.npositional) {
    fprintf(stderr, "meshgossip: unexpected argument '%s'\n", o.positional[0]);
    return EXIT_USAGE;
  }
  if (!o.algo) {
    fprintf(stderr, "meshgossip: --algo is required (see 'meshgossip list')\n");
    return EXIT_USAGE;
  }
  const mg_algo *a;
  mg_params ps;
  mg_status st;
  mg_problem_spec pb;
  mg_sim_opts so;
  int is_auto = !strcmp(o.algo, "auto");
  size_t nverified = 0;
  mg_auto_choice choice;
  memset(&choice, 0, sizeof choice);
  if (is_auto) {
    mg_problem problem = MG_GOSSIP;
    if (o.problem && (st = mg_problem_parse(o.problem, &problem, &err)) != MG_OK) return cli_fail(st, &err);
    if ((st = cli_problem(&o, problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
    cli_sim_opts(&o, &so);
    mg_sim_opts quiet = so;
    quiet.progress = NULL;
    if ((st = mg_algo_auto_choice(&pb, &quiet, &choice, &err)) != MG_OK) return cli_fail(st, &err);
    a = choice.algo;
    ps = choice.params;
    nverified = choice.verified;
  } else {
    if (o.problem) {
      fprintf(stderr, "meshgossip: --problem goes with --algo auto (a named algorithm has its problem)\n");
      return EXIT_USAGE;
    }
    if ((st = mg_algo_lookup(o.algo, &a, &ps, &err)) != MG_OK) return cli_fail(st, &err);
    if ((st = cli_problem(&o, a->problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
    cli_sim_opts(&o, &so);
  }
  mg_report rep;
  if (o.export_path)
    st = mg_export(a, &pb, &ps, o.export_path, &so, &rep, &err);
  else
    st = mg_run(a, &pb, &ps, &so, &rep, &err);
  cli_progress_done();
  if (st != MG_OK && st != MG_ERR_VIOLATION) {
    mg_report_free(&rep);
    return cli_fail(st, &err);
  }
  if (o.json) {
    json_t *j = cli_report_json(a->name, &ps, &pb, &rep);
    if (is_auto) {
      json_object_set_new(j, "auto", json_true());
      json_object_set_new(j, "auto_verified", json_integer((json_int_t)nverified));
      json_object_set_new(j, "runner_up",
                          choice.runner_up
                              ? json_pack("{s:s, s:o, s:f}", "algorithm", choice.runner_up->name, "params",
                                          cli_params_json(&choice.runner_up_params), "cost", choice.runner_up_cost)
                              : json_null());
    }
    cli_print_json(j);
  } else {
    if (is_auto) {
      printf("auto           picked %s: the least verified cost of %zu algorithms that verify\n", a->name, nverified);
      if (choice.runner_up) {
        char rp[256];
        printf("runner-up      %s%s%s at %.10g\n", choice.runner_up->name, choice.runner_up_params.n ? ":" : "",
               choice.runner_up_params.n ? mg_params_format(&choice.runner_up_params, rp, sizeof rp) : "",
               choice.runner_up_cost);
      }
    }
    cli_print_report(a->name, &ps, &pb, &rep);
  }
  int code = rep.verified ? EXIT_OK : EXIT_INVALID_SCHEDULE;
  if (!rep.verified && !o.json) fprintf(stderr, "meshgossip: %s\n", rep.violation.msg);
  mg_report_free(&rep);
  return code;
}

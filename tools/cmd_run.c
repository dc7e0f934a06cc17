/* meshgossip run: one algorithm, verified and priced; optionally exported. */
#include "cli.h"
#include "../src/util/internal.h"
#include "meshgossip_draw.h"

#include <stdio.h>
#include <string.h>

static void help(void) {
  printf("usage: meshgossip run --algo NAME[:k=v,...] --topo SPEC [--model SPEC | --r R] [--bytes L]\n"
         "                      [--json] [--export FILE|- [--format json|msccl|goal|ti]] [--mem-limit BYTES]\n"
         "                      [--timing sync|async|ranks]\n"
         "                      [--engine model|simgrid[:o=S,or=S,sync=data|rank,network=cm02|smpi]]\n"
         "                      [--export-ti DIR]\n"
         "       meshgossip run --algo auto [--problem gossip|exchange] --topo SPEC ...\n\n"
         "Generates the schedule, runs it through the simulator (every rule checked,\n"
         "complete delivery checked) and prints its cost, rounds and lower bound.\n"
         "Exit status: 0 verified, 1 the schedule breaks a rule, 2 bad input,\n"
         "3 too large for memory.\n\n"
         "  --topo   ring:N | line:N | torus:AxB.. | mesh:AxB.. | meshbus:N\n"
         "  --model  switching=wormhole|circuit|saf|bus,port=all|one,contention=strict|shared|fair,\n"
         "           ts=S,td=S,tl=S,ell=K   (defaults: wormhole, all, strict, ts=1, td=0, tl=0)\n"
         "           o=S,or=S  sender / receiver CPU seconds per message (default 0)\n"
         "           routes=schedule|dor|simgrid  who picks a message's route (shared, fair);\n"
         "           detach=B  ranks: sends of >= B bytes wait for their receiver\n"
         "           ack=F     fair: a flow also loads its return route at F of its share\n"
         "  --timing sync|async|ranks  sync: rounds end at a barrier (default); async:\n"
         "           a transfer starts when its items and its sender's CPU are ready;\n"
         "           ranks: each node runs its rounds in order, as an MPI executor\n"
         "  --r R    the papers' units: ts=R, td=0, tl=1 and L=1 (costs in t'_l)\n"
         "  --bytes  gossip: bytes per node; exchange: bytes per block (default 1)\n"
         "  --export FILE  the verified schedule, written only if it verifies ('-': stdout);\n"
         "           --format json (ours, default), msccl (MSCCL's XML algorithm) or goal\n"
         "           (LogGOPSim's GOAL), else taken from FILE's extension .json, .xml, .goal;\n"
         "           --format ti: FILE is a directory, as --export-ti FILE\n"
         "  --algo auto  runs every registered algorithm of the problem (default gossip)\n"
         "           under the given model (contention=shared unless --model sets it, as\n"
         "           compare), picks the least verified cost and runs it;\n"
         "           the output names the pick (JSON: \"algorithm\" and \"auto\": true) and\n"
         "           the runner-up with its cost (JSON: \"runner_up\")\n"
         "  --engine simgrid  also replays the verified schedule on SimGrid's flow-level\n"
         "           network (S4U; docs/engine.md) and prints its time beside the model's;\n"
         "           o/or: sender/receiver CPU seconds per message (o defaults to the model's o, else ts)\n"
         "  --export-ti DIR  SimGrid time-independent traces, one per rank, for\n"
         "           smpirun -replay DIR/traces.txt (never half written)\n\n"
         "examples:\n"
         "  meshgossip run --algo ring --topo ring:27 --r 2\n"
         "  meshgossip run --algo concentrate --topo ring:81 --r 10 --json\n"
         "  meshgossip run --algo concentrate --topo line:9 --r 1 --export line9.json\n"
         "  meshgossip run --algo torgos --topo torus:9x9 --r 10 --export torgos.xml\n"
         "  meshgossip run --algo auto --topo torus:9x9 --model contention=shared,ts=3e-4,tl=2.2e-8 --bytes 32768\n");
}

int cmd_run(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o,
                 " algo problem topo model r bytes json export format mem-limit engine export-ti timing "))
    return EXIT_USAGE;
  if (o.help) {
    help();
    return EXIT_OK;
  }
  if (cli_extra_argument(&o)) return EXIT_USAGE;
  if (!o.algo) {
    fprintf(stderr, "meshgossip: --algo is required (see 'meshgossip list')\n");
    return EXIT_USAGE;
  }
  const mg_algo *a;
  mg_params ps;
  mg_status st;
  if (o.format && !strcmp(o.format, "ti")) {
    /* --export DIR --format ti is --export-ti DIR (CONTRACT.md) */
    if (!o.export_path || o.export_ti) {
      fprintf(stderr, "meshgossip: --format ti goes with --export DIR (and without --export-ti)\n");
      return EXIT_USAGE;
    }
    o.export_ti = o.export_path;
    o.export_path = NULL;
    o.format = NULL;
  }
  if (o.export_ti && !strcmp(o.export_ti, "-")) {
    fprintf(stderr, "meshgossip: TI traces are a directory of files: give --export-ti a directory, not '-'\n");
    return EXIT_USAGE;
  }
  mg_engine_opts eo;
  int ecode = cli_engine_setup(&o, &eo);
  if (ecode >= 0) return ecode;
  int use_engine = eo.kind != MG_ENGINE_MODEL || eo.ti_dir;
  mg_engine_result eres;
  memset(&eres, 0, sizeof eres);
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
    /* auto picks what compare ranks first under the same flags, so it
     * prices by compare's rule: shared unless --model sets contention (a
     * review: compare ranked torus-ternary first, auto picked weave) */
    if (!cli_model_sets_contention(&o)) pb.model.contention = MG_CONT_SHARED;
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
  mg_trace *trace = NULL; /* link utilisation, where the arc bookkeeping is small */
  mg_trace_opts to = {.keep = MG_TRACE_KEEP_NONE};
  mg_export_format fmt = o.export_path ? mg_export_format_of_path(o.export_path) : MG_FORMAT_JSON;
  if (o.format && (st = mg_export_format_parse(o.format, &fmt, &err)) != MG_OK) return cli_fail(st, &err);
  if (o.format && !o.export_path) {
    fprintf(stderr, "meshgossip: --format goes with --export FILE\n");
    return EXIT_USAGE;
  }
  int export_stdout = o.export_path && mg_outfile_is_stdout(o.export_path);
  if (export_stdout && o.json) {
    fprintf(stderr, "meshgossip: --export - and --json both write to stdout; give --export a file\n");
    return EXIT_USAGE;
  }
  if (o.export_path) {
    st = mg_export_as(a, &pb, &ps, o.export_path, fmt, &so, &rep, &err);
    if (use_engine && st == MG_OK) {
      mg_report_free(&rep);
      st = mg_engine_run(a, &pb, &ps, &so, &eo, cli_engine_replay(), &rep, &eres, &err);
    }
  } else if (use_engine) {
    st = mg_engine_run(a, &pb, &ps, &so, &eo, cli_engine_replay(), &rep, &eres, &err);
  } else if (!cli_untraced && mg_topo_arc_slots(&pb.topo) <= (1u << 22)) {
    st = mg_trace_run(a, &pb, &ps, &so, &to, &trace, &rep, &err);
  } else {
    st = mg_run(a, &pb, &ps, &so, &rep, &err);
  }
  cli_progress_done();
  if (st == MG_OK && eres.ti_nondefault_routes && !eres.ti_platform)
    fprintf(stderr,
            "meshgossip: %llu transfers of the traces take routes of their own; smpirun -replay on `meshgossip "
            "platform`'s platform sends them on the default routes (give the model links, tl > 0, and %s gets the "
            "schedule's own platform.xml)\n",
            (unsigned long long)eres.ti_nondefault_routes, eo.ti_dir);
  if (st != MG_OK && st != MG_ERR_VIOLATION) {
    mg_report_free(&rep);
    mg_trace_free(trace);
    return cli_fail(st, &err);
  }
  if (export_stdout) {
    /* the schedule went to stdout: the report's gist to stderr */
    if (rep.verified)
      fprintf(stderr, "meshgossip: %s verified, cost %.17g, %lld rounds\n", a->name, rep.cost, (long long)rep.rounds);
  } else if (o.json) {
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
    if (trace) json_object_set_new(j, "utilisation", cli_utilisation_json(trace));
    if (eres.ran) json_object_set_new(j, "engine", cli_engine_json(&eres));
    cli_print_json(j);
  } else {
    if (is_auto) {
      printf("auto           picked %s: the least verified cost of %zu algorithms that verify\n", a->name, nverified);
      if (choice.runner_up) {
        char rp[256];
        char rc[32];
        printf("runner-up      %s%s%s at %s %s\n", choice.runner_up->name, choice.runner_up_params.n ? ":" : "",
               choice.runner_up_params.n ? mg_params_format(&choice.runner_up_params, rp, sizeof rp) : "",
               mg_fmt_double(choice.runner_up_cost, rc, sizeof rc), cli_cost_unit());
      }
    }
    cli_print_report(a->name, &ps, &pb, &rep);
    if (trace) cli_print_utilisation(trace);
    if (eres.ran) cli_print_engine(&eres, &rep);
    if (eo.ti_dir && rep.verified) {
      printf("ti traces      %s/traces.txt (smpirun -replay)\n", eo.ti_dir);
      /* the schedule's own routes: their platform is beside the traces */
      if (eres.ti_platform)
        printf("ti platform    %s/platform.xml, hosts.txt: %llu transfers take routes of their own (smpirun "
               "-platform %s/platform.xml -hostfile %s/hosts.txt -replay %s/traces.txt)\n",
               eo.ti_dir, (unsigned long long)eres.ti_nondefault_routes, eo.ti_dir, eo.ti_dir, eo.ti_dir);
    }
  }
  int code = rep.verified ? EXIT_OK : EXIT_INVALID_SCHEDULE;
  /* one line; a schedule that shares arcs by design names the model to use */
  if (!rep.verified && !o.json) fprintf(stderr, "meshgossip: %s%s\n", rep.violation.msg, cli_shared_hint(a, &pb.model));
  mg_report_free(&rep);
  mg_trace_free(trace);
  return code;
}

/* meshgossip verify: replay a schedule file through the simulator; an
 * MSCCL XML algorithm (.xml or --format msccl) on the machine --topo names. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

const char cli_verify_options[] = " json mem-limit format topo model r bytes timing ";

int cmd_verify(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, cli_verify_options)) return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip verify FILE [--json] [--mem-limit BYTES]\n"
           "       meshgossip verify ALGO.xml --topo T [--model SPEC|--r R] [--bytes B] [--timing sync|async|ranks]\n"
           "                         [--format msccl] [--json] [--mem-limit BYTES]\n\n"
           "Reads a schedule file (meshgossip.schedule version 1), replays its explicit\n"
           "item lists through the simulator under the file's model, and reports whether\n"
           "every rule holds and every item is delivered. The file's own report is only\n"
           "compared, never trusted. Exit status: 0 verified, 1 a rule is broken or the\n"
           "delivery is incomplete, 2 the file is malformed, 3 too large. FILE - reads\n"
           "standard input (as --export - writes standard output).\n\n"
           "An MSCCL XML algorithm (msccl-tools' <algo> <gpu> <tb> <step>; .xml or\n"
           "--format msccl; allgather is gossip, alltoall exchange) names no machine:\n"
           "--topo gives a torus or mesh with ngpus nodes, --model/--r and --bytes price\n"
           "it. Its rounds are derived from the dependencies (docs/user-guide.md).\n\n"
           "example:\n  meshgossip run --algo ring --topo ring:9 --r 1 --export s.json && meshgossip verify s.json\n"
           "  meshgossip run --algo ring --topo ring:9 --r 1 --export s.xml && meshgossip verify s.xml --topo ring:9 "
           "--r 1\n");
    return EXIT_OK;
  }
  if (o.npositional != 1) {
    fprintf(stderr, "meshgossip: verify takes one FILE\n");
    return EXIT_USAGE;
  }
  /* '-' is standard input, as it is standard output for --export */
  if (strcmp(o.positional[0], "-") == 0) o.positional[0] = "/dev/stdin";
  mg_export_format fmt = mg_export_format_of_path(o.positional[0]);
  mg_status st;
  if (o.format && (st = mg_export_format_parse(o.format, &fmt, &err)) != MG_OK) return cli_fail(st, &err);
  if (fmt == MG_FORMAT_GOAL) {
    fprintf(stderr, "meshgossip: verify reads json and msccl, not goal\n");
    return EXIT_USAGE;
  }
  if (fmt == MG_FORMAT_JSON && (o.topo || o.model || o.have_r || o.have_bytes || o.timing)) {
    fprintf(stderr, "meshgossip: a schedule file names its own machine and model: --topo, --model, --r, --bytes "
                    "and --timing go with an MSCCL algorithm (.xml or --format msccl)\n");
    return EXIT_USAGE;
  }
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  mg_report rep;
  mg_schedule_info info;
  char disagree[256];
  disagree[0] = 0;
  memset(&info, 0, sizeof info);
  if (fmt == MG_FORMAT_MSCCL) {
    mg_problem_spec pb;
    if ((st = cli_problem(&o, MG_GOSSIP, &pb, &err)) != MG_OK) return cli_fail(st, &err);
    st = mg_verify_msccl(o.positional[0], NULL, 0, &pb, &so, &rep, &info, &err);
  } else {
    st = mg_verify_file(o.positional[0], &so, &rep, &info, disagree, sizeof disagree, &err);
  }
  cli_progress_done();
  if (st != MG_OK && st != MG_ERR_VIOLATION) {
    mg_report_free(&rep);
    return cli_fail(st, &err);
  }
  mg_problem_spec pb = {.problem = info.problem, .topo = info.topo, .model = info.model, .bytes = info.bytes};
  cli_cost_unit_of(&info.model);
  if (o.json) {
    json_t *j = cli_report_json(info.algorithm, &info.params, &pb, &rep);
    json_object_set_new(j, "file_disagrees", disagree[0] ? json_string(disagree) : json_null());
    cli_print_json(j);
  } else {
    cli_print_report(info.algorithm, &info.params, &pb, &rep);
    if (disagree[0]) printf("file report    disagrees: %s\n", disagree);
  }
  int code = rep.verified ? EXIT_OK : EXIT_INVALID_SCHEDULE;
  if (!rep.verified && !o.json) fprintf(stderr, "meshgossip: %s\n", rep.violation.msg);
  mg_report_free(&rep);
  return code;
}

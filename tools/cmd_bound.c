/* meshgossip bound: lower bounds term by term. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cmd_bound(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " problem topo model r bytes json ")) return EXIT_USAGE;
  if (o.help) {
    printf(
        "usage: meshgossip bound --problem gossip|exchange --topo SPEC [--model SPEC | --r R] [--bytes L] [--json]\n\n"
        "Prints every lower-bound term with its source; the bound is the largest valid\n"
        "term. Terms marked 'paper' are the papers' own estimates, shown for comparison.\n\n"
        "examples:\n  meshgossip bound --problem gossip --topo ring:729 --r 10\n"
        "  meshgossip bound --problem exchange --topo torus:8x8 --model port=one,ts=1,tl=1e-3 --bytes 1024\n");
    return EXIT_OK;
  }
  if (cli_extra_argument(&o)) return EXIT_USAGE;
  if (!o.problem) {
    fprintf(stderr, "meshgossip: bound needs --problem gossip or --problem exchange\n");
    return EXIT_USAGE;
  }
  mg_problem problem;
  mg_status st = mg_problem_parse(o.problem, &problem, &err);
  if (st != MG_OK) return cli_fail(st, &err);
  mg_problem_spec pb;
  if ((st = cli_problem(&o, problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  mg_bound b;
  if ((st = mg_lower_bound(&pb, &b, &err)) != MG_OK) return cli_fail(st, &err);
  if (o.json) {
    json_t *terms = json_array();
    for (int i = 0; i < b.n; i++)
      json_array_append_new(terms,
                            json_pack("{s:s, s:f, s:s, s:b, s:s}", "name", b.term[i].name, "value", b.term[i].value,
                                      "source", b.term[i].source, "valid", b.term[i].valid, "note", b.term[i].note));
    cli_print_json(json_pack("{s:f, s:o}", "lower_bound", b.lower_bound, "terms", terms));
    return EXIT_OK;
  }
  char topo[128];
  /* --r gives the papers' units (ts = r, tl = 1, L = 1), else seconds */
  const char *unit = o.have_r ? "t'_l" : "s";
  /* figures in the shortest form that reads back as the same double, as
   * everywhere else (docs/user-guide.md) */
  char x[32];
  printf("%s on %s: lower bound %s %s\n", mg_problem_name(problem), mg_topo_format(&pb.topo, topo, sizeof topo),
         mg_fmt_double(b.lower_bound, x, sizeof x), unit);
  int w = 4, vw = 16; /* the value column as wide as its widest figure */
  for (int i = 0; i < b.n; i++) {
    if ((int)strlen(b.term[i].name) > w) w = (int)strlen(b.term[i].name);
    if ((int)strlen(mg_fmt_double(b.term[i].value, x, sizeof x)) > vw) vw = (int)strlen(x);
  }
  printf("  %-*s  %*s  %s\n", w, "term", vw, unit[0] == 's' ? "value [s]" : "value [t'_l]", "why  [source]");
  for (int i = 0; i < b.n; i++)
    printf("  %-*s  %*s  %s%s  [%s]\n", w, b.term[i].name, vw, mg_fmt_double(b.term[i].value, x, sizeof x),
           b.term[i].valid ? "" : "(paper, not valid) ", b.term[i].note, b.term[i].source);
  return EXIT_OK;
}

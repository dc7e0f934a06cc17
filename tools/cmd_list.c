/* meshgossip list: the registry, as text or JSON. */
#include "cli.h"

#include <stdio.h>

int cmd_list(int argc, char **argv) {
  cli_opts o;
  if (!cli_parse(argc, argv, &o, " json ")) return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip list [--json]\n\nLists every algorithm with its problem, paper, restrictions,\n"
           "rounding and parameters (with defaults).\n\nexample:\n  meshgossip list --json\n");
    return EXIT_OK;
  }
  if (o.npositional) {
    fprintf(stderr, "meshgossip: list takes no arguments\n");
    return EXIT_USAGE;
  }
  if (o.json) {
    json_t *arr = json_array();
    for (size_t i = 0; i < mg_algo_count(); i++) {
      const mg_algo *a = mg_algo_at(i);
      json_t *ps = json_array();
      for (const mg_param_desc *p = a->params; p && p->name; p++)
        json_array_append_new(ps, json_pack("{s:s, s:s, s:s}", "name", p->name, "default", p->def, "doc", p->doc));
      json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "name", a->name, "problem",
                                           mg_problem_name(a->problem), "summary", a->summary, "paper", a->paper,
                                           "restrictions", a->restrictions, "rounding", a->rounding, "params", ps));
    }
    cli_print_json(arr);
    return EXIT_OK;
  }
  for (size_t i = 0; i < mg_algo_count(); i++) {
    const mg_algo *a = mg_algo_at(i);
    printf("%-22s %-8s %s\n", a->name, mg_problem_name(a->problem), a->summary);
    printf("%-22s          paper: %s\n", "", a->paper);
    printf("%-22s          applies to: %s\n", "", a->restrictions);
    for (const mg_param_desc *p = a->params; p && p->name; p++)
      printf("%-22s          param %s (default %s): %s\n", "", p->name, p->def, p->doc);
  }
  return EXIT_OK;
}

/* meshgossip report: one self-contained HTML page for a problem on a
 * machine (comparison, bound, sweep plot, the best schedule's pictures). */
#include "cli.h"
#include "meshgossip_draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_report(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " problem topo model r bytes sizes output mem-limit ")) return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip report --problem gossip|exchange --topo SPEC [--model SPEC | --r R]\n"
           "                         [--bytes L] [--sizes LIST] [--mem-limit BYTES] -o FILE.html\n\n"
           "Writes one self-contained HTML page (inline SVG, no network): the comparison\n"
           "of every registered algorithm at L bytes, the lower bound term by term, a\n"
           "sweep plot over LIST (default: L/64 .. 64L in steps of 4), the model, and the\n"
           "best verified schedule's round pictures and link-load heatmap. As in compare,\n"
           "contention=shared unless --model sets it.\n\n"
           "example:\n"
           "  meshgossip report --problem gossip --topo torus:9x9 --model ts=3e-4,tl=2.2e-8 --bytes 32768 -o r.html\n");
    return EXIT_OK;
  }
  if (o.npositional || !o.output || !o.problem) {
    fprintf(stderr, "meshgossip: report needs --problem, --topo and -o FILE.html (see --help)\n");
    return EXIT_USAGE;
  }
  mg_problem problem;
  mg_problem_spec pb;
  mg_status st;
  if ((st = mg_problem_parse(o.problem, &problem, &err)) != MG_OK) return cli_fail(st, &err);
  if ((st = cli_problem(&o, problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  if (!cli_model_sets_contention(&o)) pb.model.contention = MG_CONT_SHARED;
  int code = cli_size_check(&o, &pb); /* over --mem-limit: exit 3, as compare */
  if (code != EXIT_OK) return code;
  double sizes[64];
  size_t ns = 0;
  /* compare's reader: report had one of its own that took 0x10 and 1K
   * but not 1KiB, which compare takes */
  if (o.sizes && !cli_parse_sizes(o.sizes, sizes, 64, &ns)) {
    fprintf(stderr, "meshgossip: --sizes takes up to 64 positive sizes, e.g. 1K,4K,32K,1MiB\n");
    return EXIT_USAGE;
  }
  for (int k = -3; !o.sizes && k <= 3; k++)
    sizes[ns++] = pb.bytes * (k < 0 ? 1.0 / (double)(1 << (-2 * k)) : (double)(1 << (2 * k)));
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  so.progress = NULL;
  mg_text html = {0};
  st = mg_report_html(&pb, &so, sizes, ns, &html, &err);
  if (st == MG_OK) st = mg_text_save(&html, o.output, &err);
  size_t len = html.len;
  mg_text_free(&html);
  if (st != MG_OK) return cli_fail(st, &err);
  fprintf(cli_says(o.output), "wrote %s (%zu KiB)\n", o.output, (len + 1023) / 1024);
  return EXIT_OK;
}

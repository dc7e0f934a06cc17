/* meshgossip platform: a SimGrid platform and host file for a topology. */
#include "cli.h"
#include "../src/util/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void help(void) {
  printf("usage: meshgossip platform --topo SPEC [--model SPEC] [-o FILE.xml]\n\n"
         "Writes a SimGrid platform (XML, version 4.1) for the topology: one host n<id>\n"
         "per node, one full-duplex (SPLITDUPLEX) link per edge of bandwidth 1/tl and\n"
         "latency td, and the project's default dimension-order routes (SimGrid's TORUS\n"
         "cluster when every extent is odd, explicit routes otherwise); a mesh-bus gets a\n"
         "SHARED link per row and column bus. With -o, the host file (one host per line,\n"
         "rank order, for smpirun -hostfile) goes beside it as FILE.hosts; without -o\n"
         "the XML goes to stdout.\n\n"
         "Default model here: the Paragon regime of docs/paragon.md, tl=1/175e6 s/B,\n"
         "td=50e-9 s per hop (--model overrides either).\n"
         "Exit status: 2 bad input (e.g. tl=0), 3 too many explicit routes.\n\n"
         "examples:\n"
         "  meshgossip platform --topo torus:9x9 -o torus_9x9.xml\n"
         "  meshgossip platform --topo mesh:4x4 --model tl=1e-9,td=1e-7 > mesh.xml\n");
}

int cmd_platform(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " topo model output ")) return EXIT_USAGE;
  if (o.help) {
    help();
    return EXIT_OK;
  }
  if (cli_extra_argument(&o)) return EXIT_USAGE;
  mg_problem_spec pb;
  mg_status st;
  if ((st = cli_problem(&o, MG_GOSSIP, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  mg_model m = pb.model;
  m.tl = 1.0 / 175e6;
  m.td = 50e-9;
  if (o.model && (st = mg_model_parse(o.model, &m, &err)) != MG_OK) return cli_fail(st, &err);
  if (!o.output) {
    st = mg_platform_write(stdout, &pb.topo, &m, NULL, &err);
    return st == MG_OK ? EXIT_OK : cli_fail(st, &err);
  }
  /* both files as every export: whole or not at all, links followed,
   * special files written through (mg_outfile) */
  char hosts[4200];
  snprintf(hosts, sizeof hosts, "%.4090s.hosts", o.output);
  size_t len = strlen(o.output);
  if (len > 4 && !strcmp(o.output + len - 4, ".xml"))
    snprintf(hosts, sizeof hosts, "%.*s.hosts", (int)(len - 4), o.output);
  mg_outfile xml, h;
  if ((st = mg_outfile_open(&xml, o.output, &err)) != MG_OK) return cli_fail(st, &err);
  /* beside standard output or a device (/dev/null) there is no place for
   * a hosts file: /dev/null.hosts was made */
  int beside = !xml.is_stdout && !xml.is_special;
  if (beside && (st = mg_outfile_open(&h, hosts, &err)) != MG_OK) {
    mg_outfile_close(&xml, 0, NULL);
    return cli_fail(st, &err);
  }
  st = mg_platform_write(xml.f, &pb.topo, &m, NULL, &err);
  if (st == MG_OK && beside) st = mg_platform_write_hosts(h.f, &pb.topo, &err);
  /* the XML first: a device's write fails only at its close, and then the
   * hosts file is dropped too (a review: -o /dev/full left
   * /dev/full.hosts); a regular file's hosts file seldom fails after it */
  mg_status st2 = mg_outfile_close(&xml, st == MG_OK, st == MG_OK ? &err : NULL);
  if (st == MG_OK) st = st2;
  if (beside) {
    st2 = mg_outfile_close(&h, st == MG_OK, st == MG_OK ? &err : NULL);
    if (st == MG_OK) st = st2;
  }
  if (st != MG_OK) return cli_fail(st, &err);
  if (beside)
    printf("wrote %s and %s\n", o.output, hosts);
  else
    fprintf(stderr, "wrote %s (no hosts file beside standard output or a device: -o FILE.xml writes FILE.hosts)\n",
            o.output);
  return EXIT_OK;
}

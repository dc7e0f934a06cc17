/* meshgossip: the command dispatcher. */
#include "cli.h"

#include "../src/util/internal.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"list", cmd_list, "list the algorithms, their papers, restrictions and parameters"},
    {"run", cmd_run, "generate one algorithm's schedule, verify it and price it"},
    {"compare", cmd_compare, "rank every applicable algorithm by verified cost"},
    {"tune", cmd_tune, "search an algorithm's parameters for the least verified cost"},
    {"bound", cmd_bound, "print the lower bounds for a problem, term by term"},
    {"table", cmd_table, "reproduce a table of a seed paper beside our figures"},
    {"verify", cmd_verify, "check a schedule file written by --export or by hand"},
    {"draw", cmd_draw, "draw a schedule's rounds (SVG): arrows along routes, shared arcs, link heatmap"},
    {"plot", cmd_plot, "draw a long-format CSV (panel,series,x,y) as line plots (SVG)"},
    {"report", cmd_report, "one self-contained HTML page: comparison, sweep plot, best schedule's pictures"},
    {"platform", cmd_platform, "write a SimGrid platform (XML) and host file for a topology"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: meshgossip COMMAND [options]   (meshgossip COMMAND --help for details)\n"
             "       meshgossip --version\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\nexamples:\n"
             "  meshgossip run --algo concentrate --topo ring:81 --r 10\n"
             "  meshgossip bound --problem gossip --topo torus:9x9 --r 10\n");
}

/* What a command printed must have reached standard output: a full disk
 * or a closed pipe is an error, not a success (exit 2). */
static int flushed(int code) {
  /* a command that failed has said why (an export to '-' says this one) */
  if ((fflush(stdout) != 0 || ferror(stdout)) && code == EXIT_OK) {
    fprintf(stderr, "meshgossip: write error on standard output\n");
    return EXIT_USAGE;
  }
  return code;
}

/* A command killed midway leaves no temporary file beside its target (a
 * review: plot killed by SIGTERM left a 52 MB temporary file beside
 * out.svg); then the signal's own action, so the caller sees how it
 * ended. */
static void on_signal(int sig) {
  mg_outfile_discard_pending();
  signal(sig, SIG_DFL);
  raise(sig);
}

int main(int argc, char **argv) {
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* a signal ignored by the parent (nohup) stays ignored */
    struct sigaction old;
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(sigs[i], &sa, NULL);
  }
  if (argc < 2) {
    fprintf(stderr, "meshgossip: no command given (try 'meshgossip --help')\n");
    return EXIT_USAGE;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return flushed(EXIT_OK);
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
    if (argc > 2) { /* a review: --version extra said nothing of the extra */
      fprintf(stderr, "meshgossip: %s takes no arguments, not '%s'\n", argv[1], argv[2]);
      return EXIT_USAGE;
    }
    printf("meshgossip %s\n", mg_version());
    return flushed(EXIT_OK);
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return flushed(commands[i].run(argc - 2, argv + 2));
  fprintf(stderr, "meshgossip: unknown command '%s' (try 'meshgossip --help')\n", argv[1]);
  return EXIT_USAGE;
}

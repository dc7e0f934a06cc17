/* The meshgossip command line: shared option parsing and output. The CLI
 * only parses, calls the library and prints; it holds no algorithm logic. */
#ifndef MG_CLI_H
#define MG_CLI_H

#include "meshgossip.h"

#include <jansson.h>

/* Exit statuses of CONTRACT.md. */
enum { EXIT_OK = 0, EXIT_INVALID_SCHEDULE = 1, EXIT_USAGE = 2, EXIT_TOO_LARGE = 3 };

typedef struct cli_opts {
  const char *algo, *topo, *model, *problem, *export_path, *file, *sizes, *timing;
  double r, bytes;
  int have_r, have_bytes, json, help;
  uint64_t mem_limit;
  const char *positional[4];
  int npositional;
} cli_opts;

/* Parses argv (after the command name). Unknown options are an error. */
int cli_parse(int argc, char **argv, cli_opts *o, const char *allowed);
/* Builds the problem from --topo, --model/--r and --bytes. */
mg_status cli_problem(const cli_opts *o, mg_problem problem, mg_problem_spec *pb, mg_err *err);
/* Maps a library status to an exit code and prints the one-line message. */
int cli_fail(mg_status st, const mg_err *err);
int cli_exit_code(mg_status st);
/* Sim options: progress on a terminal, memory limit. */
void cli_sim_opts(const cli_opts *o, mg_sim_opts *so);
void cli_progress_done(void);

json_t *cli_model_json(const mg_model *m);
json_t *cli_params_json(const mg_params *ps);
json_t *cli_violation_json(const mg_report *rep);
json_t *cli_report_json(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep);
void cli_print_json(json_t *j); /* prints and frees */
void cli_print_report(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep);

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bound(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_table(int argc, char **argv);

#endif

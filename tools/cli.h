/* The meshgossip command line: shared option parsing and output. The CLI
 * only parses, calls the library and prints; it holds no algorithm logic. */
#ifndef MG_CLI_H
#define MG_CLI_H

#include "meshgossip.h"

#include <jansson.h>
#include <stdio.h>

/* Exit statuses (docs/user-guide.md, "Exit status"). */
enum { EXIT_OK = 0, EXIT_INVALID_SCHEDULE = 1, EXIT_USAGE = 2, EXIT_TOO_LARGE = 3 };

typedef struct cli_opts {
  const char *algo, *topo, *model, *problem, *export_path, *file, *sizes, *timing;
  const char *engine, *export_ti; /* --engine, --export-ti */
  double r, bytes;
  int have_r, have_bytes, json, help;
  uint64_t mem_limit;
  const char *output, *round, *plot; /* -o/--output, --round K, --plot FILE */
  int all, heatmap, spec;            /* --all, --heatmap, --spec */
  const char *format;                /* --format json|msccl|goal */
  const char *positional[4];
  int npositional;
} cli_opts;

/* A size: a decimal number >= 0 with an optional unit (B, K/KB/KiB, M/MB/MiB,
 * G/GB/GiB, case-insensitive, powers of 1024). end NULL: the whole string
 * must be the size; else *end is left after the unit. 1 on success. */
int cli_parse_size(const char *s, double *v, const char **end);
/* "1024,4096,32K,1MiB": up to cap sizes > 0 (cli_parse_size's units, at
 * most 1e18), for compare's and report's --sizes. 0 if malformed. */
int cli_parse_sizes(const char *s, double *out, size_t cap, size_t *n);
/* Parses argv (after the command name). Unknown options are an error. */
int cli_parse(int argc, char **argv, cli_opts *o, const char *allowed);
/* For commands that take no positional argument: 1 (and the message on
 * stderr) if one was given. */
int cli_extra_argument(const cli_opts *o);
/* Builds the problem from --topo, --model/--r and --bytes. */
mg_status cli_problem(const cli_opts *o, mg_problem problem, mg_problem_spec *pb, mg_err *err);
/* Whether --model, or the model file it names, sets contention= (compare,
 * draw and report price sharing, contention=shared, unless it does). */
int cli_model_sets_contention(const cli_opts *o);
/* Maps a library status to an exit code and prints the one-line message. */
int cli_fail(mg_status st, const mg_err *err);
int cli_exit_code(mg_status st);
/* Sim options: progress on a terminal, memory limit. */
/* Exit 3 with one line if the problem's simulator state is over the
 * memory limit (--mem-limit or 3/4 of physical memory); else EXIT_OK. */
int cli_size_check(const cli_opts *o, const mg_problem_spec *pb);
void cli_sim_opts(const cli_opts *o, mg_sim_opts *so);
/* The simulator's item shard for every run (NULL: the whole state);
 * meshgossip-mpi's run and verify set it (tools/mpi/dist.c). */
extern const struct mg_shard *cli_shard;
/* 1 on a serial pass whose report nobody reads (every pass but the last of
 * meshgossip-mpi --serial): run skips the link trace, a fifth of such a
 * pass's time on 729 x 729, whose figures only the last pass prints. */
extern int cli_untraced;
void cli_progress_done(void);
/* Step progress of compare, table, tune on a terminal (cli_progress.c):
 * sets so->on_step when stderr is a terminal; cli_progress_done clears
 * its line too. */
void cli_step_progress(mg_sim_opts *so, const char *label);
void cli_step_done(void);

json_t *cli_model_json(const mg_model *m);
json_t *cli_params_json(const mg_params *ps);
json_t *cli_violation_json(const mg_report *rep);
json_t *cli_report_json(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep);
void cli_print_json(json_t *j); /* prints and frees */
/* Where a command says what it wrote to output: standard error when the
 * output is standard output ('-', /dev/stdout, ...), lest the line end up
 * in the document; else standard output. */
FILE *cli_says(const char *output);
/* "; hint: ..." for a rejected schedule of an algorithm that shares arcs
 * by design under contention=strict (price it as compare does), else "". */
const char *cli_shared_hint(const mg_algo *a, const mg_model *m);
/* "t'_l" after cli_problem with --r, else "s": the unit of printed costs. */
const char *cli_cost_unit(void);
/* The same for a schedule file's own model (verify). */
void cli_cost_unit_of(const mg_model *m);
void cli_print_report(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep);

/* compare --sizes --plot (cmd_plot.c): costs[a * ns + k] of registry
 * algorithm a at size k (NaN: refused or not verified), costs[na * ns + k]
 * the lower bound; writes the SVG atomically. */
double *cli_sweep_alloc(size_t nalgos, size_t nsizes);
int cli_sweep_plot(const char *path, const mg_problem_spec *pb, const double *sizes, size_t ns, const double *costs);

/* Link utilisation of a traced run (cmd_draw.c), for run's outputs. */
struct mg_trace;
json_t *cli_utilisation_json(const struct mg_trace *t);
void cli_print_utilisation(const struct mg_trace *t);

int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bound(int argc, char **argv);
int cmd_verify(int argc, char **argv);
/* verify's options (cli_parse), shared with meshgossip-mpi's file check */
extern const char cli_verify_options[];
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_platform(int argc, char **argv);

/* Engines (cli_engine.c). */
#include "meshgossip_engine.h"
/* Fills eo from --engine and --export-ti; returns -1 when fine, else the
 * exit code (after printing why). */
int cli_engine_setup(const cli_opts *o, mg_engine_opts *eo);
/* The replay function built in (NULL without SimGrid). */
mg_engine_replay_fn cli_engine_replay(void);
json_t *cli_engine_json(const mg_engine_result *res);
void cli_print_engine(const mg_engine_result *res, const mg_report *rep);

#endif

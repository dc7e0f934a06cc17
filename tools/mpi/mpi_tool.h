/* meshgossip-mpi's commands share their parsed arguments; each command
 * lives in its own file (calibrate.c, bench.c) and meshgossip_mpi.c only
 * parses and dispatches. */
#ifndef MG_MPI_TOOL_H
#define MG_MPI_TOOL_H

#include "meshgossip_mpi.h"

#define MAX_SIZES 32

typedef struct args {
  const char *cmd, *algo, *topo;
  const char *sync; /* bench --sync rounds|data|auto (mg_mpi_opts.sync) */
  const char *out;  /* calibrate -o FILE: the fitted model file */
  long sizes[MAX_SIZES];
  int nsizes, reps, json;
  /* bench (bench.c): --coll, -f, -x (-1: the default); -i sets reps and
   * -m the sizes */
  const char *coll;
  int full, warmup;
} args;

/* Each returns the tool's exit status (0 ok, 2 bad usage, 1 an MPI call
 * failed); rank 0 prints. */
int mg_tool_calibrate(const args *a, int me, int n);
int mg_tool_bench(const args *a, int me, int n);
/* run and verify with the simulator's items sharded over the ranks
 * (dist.c): argv as main's; the CLI's exit statuses. */
int mg_tool_is_dist(const char *cmd);
int mg_tool_dist(int argc, char **argv, int me, int n);
/* bench's own options (o, and v the next word or NULL): the number of
 * words used (1 or 2), 0 if o is not one of them, -1 if v is bad. */
int mg_tool_bench_option(args *a, const char *o, const char *v);
/* calibrate's LogGP fit (calibrate_loggp.c): the fitted model spec into
 * model[len] on every rank. */
int mg_tool_calibrate_loggp(const args *a, int me, int n, char *model, size_t len);
/* calibrate's eager-limit probe (calibrate_eager.c, ranks 0..2): the least
 * message size whose MPI_Isend waits for its receiver, 0 if none up to
 * 16 MiB; *bad on an MPI error. */
long mg_tool_calibrate_eager(int me, int *bad);

#endif

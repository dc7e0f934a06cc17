/* meshgossip-mpi's commands share their parsed arguments; each command
 * lives in its own file (calibrate.c, bench.c) and meshgossip_mpi.c only
 * parses and dispatches. */
#ifndef MG_MPI_TOOL_H
#define MG_MPI_TOOL_H

#include "meshgossip_mpi.h"

#define MAX_SIZES 32

typedef struct args {
  const char *cmd, *algo, *topo;
  long sizes[MAX_SIZES];
  int nsizes, reps, json;
} args;

/* Each returns the tool's exit status (0 ok, 2 bad usage, 1 an MPI call
 * failed); rank 0 prints. */
int mg_tool_calibrate(const args *a, int me, int n);
int mg_tool_bench(const args *a, int me, int n);
/* run and verify with the simulator's items sharded over the ranks
 * (dist.c): argv as main's; the CLI's exit statuses. */
int mg_tool_is_dist(const char *cmd);
int mg_tool_dist(int argc, char **argv, int me, int n);

#endif

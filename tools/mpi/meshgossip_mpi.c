/* meshgossip-mpi: the simulator on many ranks, and measurements on a real
 * MPI (or SMPI) machine.
 *
 *   meshgossip-mpi run|verify ... [--serial K]
 *     meshgossip's own run and verify with the items sharded over the ranks
 *     (or over K passes of one process): the same output (dist.c,
 *     docs/distributed.md).
 *   meshgossip-mpi calibrate [--sizes a,b,...] [--reps R] [--json]
 *     times the basic steps of Juurlink, Rao, Sibeyn 1996 section 7 on a ring of all ranks
 *     and fits T(m) = a + b*m to each by least squares:
 *       1D-send         every rank sends m bytes to its right neighbour
 *       1D-concentrate  in each triple, both ends send to the middle
 *       1D-disseminate  in each triple, the middle sends to both ends
 *       1D-shift        rank 0 sends to rank 1, everyone else idles
 *     then fits the LogGP model (o, or, ts, tl, bwf: calibrate_loggp.c)
 *     and prints it for --model / MESHGOSSIP_MODEL; -o FILE writes it as
 *     a model file (--model @FILE, MESHGOSSIP_MODEL=@FILE).
 *   meshgossip-mpi bench [--coll allgather|alltoall] [--algo SPEC] [--topo SPEC]
 *                        [-m [MIN:]MAX | --sizes ...] [-i ITERS] [-x WARMUP] [-f] [--json]
 *     times one meshgossip plan against the MPI library's own collective
 *     at each size (bytes per block), in the OSU micro-benchmarks' columns
 *     (see bench.c), after checking every received byte of both.
 * Exit status: 0 ok, 2 bad usage, 1 an MPI call failed. */
#include "mpi_tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage_to(FILE *f) {
  fprintf(f, "usage: meshgossip-mpi run --algo A --topo T [meshgossip run's options] [--serial K]\n"
             "       meshgossip-mpi verify FILE [--json] [--serial K]\n"
             "       meshgossip-mpi calibrate [--sizes a,b,...] [--reps R] [--json] [-o MODEL_FILE]\n"
             "       meshgossip-mpi bench [--coll allgather|alltoall] [--algo SPEC] [--topo SPEC]\n"
             "                            [-m [MIN:]MAX | --sizes a,b,...] [-i ITERS] [-x WARMUP] [-f] [--json]\n"
             "                            [--sync rounds|data|auto]\n"
             "examples:\n"
             "  mpirun -np 4 meshgossip-mpi run --algo torgos --topo torus:27x27 --r 8\n"
             "  mpirun -np 2 meshgossip-mpi run --serial 3 --algo torgos --topo torus:27x27   (6 shards, 3 passes)\n"
             "  mpirun -np 9 meshgossip-mpi calibrate --sizes 1024,16384,65536\n"
             "  mpirun -np 8 meshgossip-mpi bench --algo ring --sizes 256,4096,65536\n"
             "  mpirun -np 9 meshgossip-mpi bench --coll alltoall --topo torus:3x3 -m 1:64K -i 100 -x 10 -f\n");
}

static int usage(int rank, const char *why) {
  if (rank == 0) {
    if (why) fprintf(stderr, "meshgossip-mpi: %s\n", why);
    usage_to(stderr);
  }
  return 2;
}

static int parse(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->reps = 20;
  a->warmup = -1;
  a->algo = "auto";
  static const long def[] = {256, 1024, 4096, 16384, 65536, 262144};
  a->nsizes = 6;
  for (int i = 0; i < 6; i++)
    a->sizes[i] = def[i];
  if (argc < 2) return 0;
  a->cmd = argv[1];
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int used = mg_tool_bench_option(a, o, v); /* bench's -m -i -x -f --coll */
    if (used < 0) return 0;
    if (used > 0) {
      i += used - 1;
      continue;
    }
    if (!strcmp(o, "--json"))
      a->json = 1;
    else if (!strcmp(o, "--help") || !strcmp(o, "-h"))
      return 0;
    else if (!v)
      return 0;
    else if (!strcmp(o, "--reps")) {
      /* atoi's overflow is undefined, and "5x" was 5 */
      char *end;
      long x = strtol(v, &end, 10);
      if (end == v || *end || x < 1 || x > 1000000000L) return 0;
      a->reps = (int)x, i++;
    } else if (!strcmp(o, "--algo"))
      a->algo = v, i++;
    else if (!strcmp(o, "--topo"))
      a->topo = v, i++;
    else if (!strcmp(o, "--sync"))
      a->sync = v, i++;
    else if (!strcmp(o, "-o") || !strcmp(o, "--out"))
      a->out = v, i++;
    else if (!strcmp(o, "--sizes")) {
      a->nsizes = 0;
      for (const char *p = v; *p;) {
        char *end = NULL;
        /* calibrate sends sizes as an int count: one past INT32_MAX was cast
         * to a negative count; sizes past MAX_SIZES were dropped unsaid */
        long x = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
        if (x < 0 || x > INT32_MAX || a->nsizes == MAX_SIZES) return 0;
        a->sizes[a->nsizes++] = x;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return 0;
      }
      i++;
    } else
      return 0;
  }
  return a->reps > 0 && a->nsizes > 0;
}

int main(int argc, char **argv) {
  /* --help and --version need no MPI: answer them before MPI_Init, so that
   * they work without mpirun */
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
    usage_to(stdout);
    return 0;
  }
  if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
    printf("meshgossip-mpi %s\n", mg_version());
    return 0;
  }
  MPI_Init(&argc, &argv);
  int me, n, rc;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  args a;
  if (argc >= 2 && mg_tool_is_dist(argv[1]))
    rc = mg_tool_dist(argc, argv, me, n);
  else if (!parse(argc, argv, &a))
    rc = usage(me, NULL);
  else if (!strcmp(a.cmd, "calibrate"))
    rc = mg_tool_calibrate(&a, me, n);
  else if (!strcmp(a.cmd, "bench"))
    rc = mg_tool_bench(&a, me, n);
  else
    rc = usage(me, "unknown command");
  MPI_Finalize();
  return rc;
}

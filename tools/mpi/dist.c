/* meshgossip-mpi run / verify: the simulator with its item state sharded
 * over the ranks (meshgossip_mpi_shard.h, docs/distributed.md). The
 * commands are the CLI's own `meshgossip run` and `meshgossip verify`
 * (tools/cmd_run.c, tools/cmd_verify.c) with the rank's shard in every
 * simulator they make, so rank 0 prints exactly what they print and every
 * rank exits with their status; the other ranks print nothing.
 *
 *   mpirun -n K meshgossip-mpi run --algo A --topo T [--model M --bytes B --r R --json ...]
 *   mpirun -n K meshgossip-mpi verify FILE [--json]
 *   meshgossip-mpi run|verify --serial K ...   one process, the K shards in turn
 *   mpirun -n M meshgossip-mpi run|verify --serial S ...   M ranks, S passes each
 *
 * --serial K runs the schedule K times, keeping shard k of K on pass k and
 * summing the passes' item counts (meshgossip_shard.h), so that the item
 * state in memory is 1/K of the whole; the last pass prints. On M ranks
 * each rank runs S passes together with the others (M S shards, pass p of
 * rank r keeping shard p M + r): M cores share the passes. Refused here:
 * --export, --export-ti, --format and --engine (they need every item of a
 * transfer on one rank). */
#include "mpi_tool.h"

#include "../cli.h"
#include "meshgossip_mpi_shard.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mg_tool_is_dist(const char *cmd) { return cmd && (!strcmp(cmd, "run") || !strcmp(cmd, "verify")); }

static int command(const char *cmd, int argc, char **argv) {
  return !strcmp(cmd, "run") ? cmd_run(argc, argv) : cmd_verify(argc, argv);
}

/* stdout and stderr off (1) or back on (0), for the ranks and passes
 * that do not print: saved[2] keeps the originals. */
static int quiet(int on, int *saved) {
  fflush(stdout);
  fflush(stderr);
  for (int f = 1; f <= 2; f++) {
    if (on) {
      int fd = open("/dev/null", O_WRONLY);
      if (fd < 0) return -1;
      saved[f - 1] = dup(f);
      if (saved[f - 1] >= 0) dup2(fd, f);
      close(fd);
    } else if (saved[f - 1] >= 0) {
      dup2(saved[f - 1], f);
      close(saved[f - 1]);
      saved[f - 1] = -1;
    }
  }
  return 0;
}

/* S passes on this rank; base: the ranks' shards (NULL: one process).
 * Only rank 0's last pass prints; every rank's status is the CLI's. */
static int run_serial(const char *cmd, int argc, char **argv, uint32_t S, const mg_shard *base, int me) {
  mg_shard_serial *ss;
  mg_err err = {{0}};
  if (mg_shard_serial_over(base, S, &ss, &err) != MG_OK) {
    if (me == 0) fprintf(stderr, "meshgossip-mpi: %s\n", err.msg);
    return EXIT_USAGE;
  }
  double t0 = mg_now();
  int rc = 0, saved[2] = {-1, -1};
  do {
    cli_shard = mg_shard_serial_shard(ss);
    cli_untraced = !mg_shard_serial_last(ss);
    int aloud = mg_shard_serial_last(ss) && me == 0;
    if (!aloud && quiet(1, saved)) {
      rc = EXIT_USAGE;
      break;
    }
    rc = command(cmd, argc, argv);
    if (!aloud) quiet(0, saved);
    /* a pass that cannot run (bad usage, too large) will not run later:
     * run it again (every rank together) with rank 0 aloud for its message */
    if (rc == EXIT_USAGE || rc == EXIT_TOO_LARGE) {
      if (!mg_shard_serial_last(ss)) {
        if (me != 0) quiet(1, saved);
        rc = command(cmd, argc, argv);
        if (me != 0) quiet(0, saved);
      }
      break;
    }
  } while (mg_shard_serial_next(ss));
  uint32_t K = mg_shard_serial_shard(ss)->count;
  double rss = (double)mg_peak_rss() / 1048576.0, most = rss;
  if (base) MPI_Reduce(&rss, &most, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (me == 0 && base)
    fprintf(stderr,
            "meshgossip-mpi: %u serial shards (%u passes on %u ranks), %.3f s in all, peak RSS %.1f MiB a rank at "
            "most, ledger %.1f MiB\n",
            K, S, base->count, mg_now() - t0, most, (double)mg_shard_serial_bytes(ss) / 1048576.0);
  else if (me == 0)
    fprintf(stderr, "meshgossip-mpi: %u serial shards, %.3f s in all, peak RSS %.1f MiB, ledger %.1f MiB\n", K,
            mg_now() - t0, rss, (double)mg_shard_serial_bytes(ss) / 1048576.0);
  cli_shard = NULL;
  cli_untraced = 0;
  mg_shard_serial_free(ss);
  return rc;
}

/* verify FILE on several ranks: every rank reads FILE, so every rank must
 * be able to (standard input and pipes reach one rank only). A rank that
 * could not would leave the command before its first collective and the
 * others waiting in it for ever (a review): all ranks agree first. 1: go. */
static int file_everywhere(int ac, char **av, int me) {
  cli_opts o;
  int saved[2] = {-1, -1};
  quiet(1, saved);
  int parsed = cli_parse(ac, av, &o, cli_verify_options);
  quiet(0, saved);
  if (!parsed || o.help || o.npositional != 1) return 1; /* the command says what is wrong, on every rank */
  struct stat sb;
  FILE *f = fopen(o.positional[0], "rb");
  int ok = f && fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0, all = 0, first_bad = 0;
  if (f) fclose(f);
  int bad = ok ? INT32_MAX : me;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&bad, &first_bad, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all && me == 0)
    fprintf(stderr,
            "meshgossip-mpi: every rank reads '%s', and rank %d cannot read it as a regular, non-empty file "
            "(standard input and pipes reach one rank only)\n",
            o.positional[0], first_bad);
  return all;
}

int mg_tool_dist(int argc, char **argv, int me, int n) {
  const char *cmd = argv[1];
  long serial = 0;
  /* our own option out, the CLI's left for the CLI's parser */
  char **av = calloc((size_t)argc + 1, sizeof *av);
  int ac = 0;
  if (!av) return EXIT_USAGE;
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i];
    if (!strcmp(o, "--serial") && i + 1 < argc) {
      char *end;
      serial = strtol(argv[++i], &end, 10);
      if (*end || serial < 1 || serial > (long)MG_MAX_NODES) {
        if (me == 0) fprintf(stderr, "meshgossip-mpi: --serial takes a shard count >= 1\n");
        free(av);
        return EXIT_USAGE;
      }
      continue;
    }
    if (!strcmp(o, "--export") || !strcmp(o, "--export-ti") || !strcmp(o, "--format") || !strcmp(o, "--engine")) {
      if (me == 0)
        fprintf(stderr, "meshgossip-mpi: %s needs every item of a transfer in one place: use meshgossip %s\n", o, cmd);
      free(av);
      return EXIT_USAGE;
    }
    av[ac++] = argv[i];
  }
  /* --algo auto simulates every candidate on each pass, and they would all
   * share the passes' one ledger: the pick and its cost came out wrong (a
   * review: multiring at 179.5 where torus-ternary costs 26) */
  for (int i = 0; serial && i < ac; i++)
    if (!strcmp(av[i], "--algo") && i + 1 < ac && !strcmp(av[i + 1], "auto")) {
      if (me == 0)
        fprintf(stderr, "meshgossip-mpi: --serial takes a named algorithm, not auto (pick one with meshgossip run "
                        "--algo auto, or run auto under mpirun without --serial)\n");
      free(av);
      return EXIT_USAGE;
    }
  int rc;
  if (n > 1 && !strcmp(cmd, "verify") && !file_everywhere(ac, av, me)) {
    free(av);
    return EXIT_USAGE;
  }
  if (serial && n == 1) {
    rc = run_serial(cmd, ac, av, (uint32_t)serial, NULL, me);
  } else {
    mg_mpi_shard *ms;
    mg_err err = {{0}};
    if (mg_mpi_shard_create(MPI_COMM_WORLD, &ms, &err) != MG_OK) {
      fprintf(stderr, "meshgossip-mpi: %s\n", err.msg);
      free(av);
      return 1;
    }
    if (serial) {
      rc = run_serial(cmd, ac, av, (uint32_t)serial, mg_mpi_shard_get(ms), me);
    } else {
      cli_shard = mg_mpi_shard_get(ms);
      /* the other ranks' output is rank 0's: one copy is enough */
      int saved[2] = {-1, -1};
      if (me != 0) quiet(1, saved);
      rc = command(cmd, ac, av);
      if (me != 0) quiet(0, saved);
      cli_shard = NULL;
    }
    mg_mpi_shard_free(ms);
  }
  free(av);
  return rc;
}

/* SimGrid time-independent (TI) traces of a schedule, one file per rank,
 * in the format `smpirun -replay` reads (Desprez, Markomanolis, Quinson,
 * Suter, "Assessing the performance of MPI applications through
 * time-independent trace replay"): "<rank> irecv <src> <tag> <bytes>",
 * "<rank> isend <dst> <tag> <bytes>", "<rank> waitall", between "init" and
 * "finalize". Per round a rank takes part in, it posts its receives, then
 * its sends, then waits for all: the order of the MPI executor
 * (src/mpi/exec.c), so that a replay times what the executor would do.
 * The tag is the round modulo 32768 (MPI guarantees tags up to 32767).
 *
 * Written as every export is: nothing half written. The files go to a
 * hidden directory inside DIR and are moved into DIR only once all are
 * written (traces.txt last); a failure removes them and leaves DIR as it
 * was. */
#include "meshgossip_engine.h"

#include "../schedule/deps.h"
#include "../util/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The TI file names: rank<v>.txt for v < N, traces.txt for v == N. */
static void file_name(char *name, size_t n, uint32_t v, uint32_t N) {
  if (v < N)
    snprintf(name, n, "rank%" PRIu32 ".txt", v);
  else
    snprintf(name, n, "traces.txt");
}

/* out = dir/name; -1 if it does not fit (the paths stay under PATH_MAX +
 * 64: mkdtemp's directory is checked against that). */
static int join(char *out, size_t n, const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  if (a + 1 + b + 1 > n) return -1;
  memcpy(out, dir, a);
  out[a] = '/';
  memcpy(out + a + 1, name, b + 1);
  return 0;
}

/* Removes the hidden directory's files (rank0 .. rank(upto-1), traces.txt)
 * and the directory. */
static void drop_tmp(const char *tmp, uint32_t upto, uint32_t N) {
  char path[PATH_MAX + 128], name[64];
  for (uint32_t v = 0; v < upto; v++) {
    file_name(name, sizeof name, v, N);
    if (join(path, sizeof path, tmp, name) == 0) unlink(path);
  }
  if (join(path, sizeof path, tmp, "traces.txt") == 0) unlink(path);
  rmdir(tmp);
}

/* Moves name from tmp into dir. */
static int move_in(const char *tmp, const char *dir, const char *name) {
  char from[PATH_MAX + 128], to[PATH_MAX + 128];
  if (join(from, sizeof from, tmp, name) || join(to, sizeof to, dir, name)) return -1;
  return rename(from, to);
}

/* 0 when dir/name does not exist or is a regular file (to be replaced). */
static int blocked(const char *dir, const char *name) {
  char path[PATH_MAX + 128];
  struct stat st;
  if (join(path, sizeof path, dir, name)) return 1;
  return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

mg_status mg_ti_write(const mg_deps *d, const char *dir, mg_err *err) {
  const mg_dep_xfer *x = mg_deps_xfers(d);
  size_t n = mg_deps_count(d);
  uint32_t N = mg_deps_info(d)->topo.N, written = 0;
  mg_status st = MG_OK;
  uint64_t *start = NULL, *ev = NULL, *fill = NULL;
  char path[PATH_MAX + 128], absdir[PATH_MAX] = "", tmp[PATH_MAX + 64] = "", name[64];
  FILE *f = NULL, *list = NULL;
  int made = 0, have_tmp = 0, dir_slot = -1, tmp_slot = -1;
  for (size_t t = 0; t < n; t++)
    if (x[t].dst == MG_DEP_NONE) return mg_fail(err, MG_ERR_UNSUPPORTED, "TI traces cannot express a bus message");
  if (mkdir(dir, 0777) == 0) {
    made = 1;
    /* a signal midway (the CLI's handler) takes back what this made */
    dir_slot = mg_pending_add(dir, MG_PENDING_DIR, 0);
  } else if (errno != EEXIST)
    return mg_fail(err, MG_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
  if (!realpath(dir, absdir)) {
    st = mg_fail(err, MG_ERR_IO, "cannot resolve %s: %s", dir, strerror(errno));
    goto out;
  }
  struct stat sd;
  if (stat(absdir, &sd) != 0 || !S_ISDIR(sd.st_mode)) {
    st = mg_fail(err, MG_ERR_IO, "%s is not a directory", dir);
    goto out;
  }
  if (snprintf(tmp, sizeof tmp, "%s/.ti.tmpXXXXXX", absdir) >= (int)sizeof tmp || !mkdtemp(tmp)) {
    st = mg_fail(err, MG_ERR_IO, "cannot create a directory in %s: %s", dir, strerror(errno));
    goto out;
  }
  have_tmp = 1;
  tmp_slot = mg_pending_add(tmp, MG_PENDING_TI_DIR, N);
  /* per node, its events in transfer order: (t << 1) | is_send */
  start = mg_calloc((uint64_t)N + 1, sizeof *start);
  fill = mg_calloc((uint64_t)N + 1, sizeof *fill);
  ev = mg_calloc(2 * (uint64_t)n + 1, sizeof *ev);
  if (!start || !fill || !ev) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the TI traces");
    goto out;
  }
  for (size_t t = 0; t < n; t++)
    start[x[t].src + 1]++, start[x[t].dst + 1]++;
  for (uint32_t v = 0; v < N; v++)
    start[v + 1] += start[v];
  for (size_t t = 0; t < n; t++) {
    ev[start[x[t].src] + fill[x[t].src]++] = ((uint64_t)t << 1) | 1u;
    ev[start[x[t].dst] + fill[x[t].dst]++] = (uint64_t)t << 1;
  }
  if (join(path, sizeof path, tmp, "traces.txt") || !(list = fopen(path, "w"))) {
    st = mg_fail(err, MG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    goto out;
  }
  for (uint32_t v = 0; v < N; v++) {
    /* the list names the files where they will be */
    fprintf(list, "%s/rank%" PRIu32 ".txt\n", absdir, v);
    file_name(name, sizeof name, v, N);
    if (join(path, sizeof path, tmp, name) || !(f = fopen(path, "w"))) {
      st = mg_fail(err, MG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
      goto out;
    }
    written = v + 1;
    fprintf(f, "%" PRIu32 " init\n", v);
    for (uint64_t i = start[v]; i < start[v + 1];) {
      int64_t r = x[ev[i] >> 1].round;
      uint64_t j = i;
      while (j < start[v + 1] && x[ev[j] >> 1].round == r)
        j++;
      for (int pass = 0; pass < 2; pass++)
        for (uint64_t k = i; k < j; k++) {
          const mg_dep_xfer *y = &x[ev[k] >> 1];
          int send = (int)(ev[k] & 1u);
          if (send != pass) continue;
          fprintf(f, "%" PRIu32 " %s %" PRIu32 " %d %.0f\n", v, send ? "isend" : "irecv", send ? y->dst : y->src,
                  (int)(r % 32768), round(y->bytes));
        }
      fprintf(f, "%" PRIu32 " waitall\n", v);
      i = j;
    }
    fprintf(f, "%" PRIu32 " finalize\n", v);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
      f = NULL;
      st = mg_fail(err, MG_ERR_IO, "write error on %s", path);
      goto out;
    }
    f = NULL;
  }
  {
    int bad = ferror(list);
    if (fclose(list) != 0 || bad) st = mg_fail(err, MG_ERR_IO, "write error on %s/traces.txt", tmp);
    list = NULL;
    if (st != MG_OK) goto out;
  }
  /* everything written: nothing in DIR may stand in the way of a file */
  for (uint32_t v = 0; v <= N; v++) {
    file_name(name, sizeof name, v, N);
    if (blocked(absdir, name)) {
      st = mg_fail(err, MG_ERR_IO, "%s/%s is in the way: not a regular file", dir, name);
      goto out;
    }
  }
  for (uint32_t v = 0; v <= N; v++) {
    file_name(name, sizeof name, v, N);
    if (move_in(tmp, absdir, name) != 0) {
      st = mg_fail(err, MG_ERR_IO, "cannot move %s into %s: %s", name, dir, strerror(errno));
      goto out;
    }
  }
out:
  if (f) fclose(f);
  if (list) fclose(list);
  if (have_tmp) drop_tmp(tmp, written, N);
  if (st != MG_OK && made) rmdir(absdir[0] ? absdir : dir);
  mg_pending_drop(tmp_slot);
  mg_pending_drop(dir_slot);
  free(start);
  free(fill);
  free(ev);
  return st;
}

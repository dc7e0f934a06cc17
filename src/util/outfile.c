/* Output files written atomically: a temporary file beside the target,
 * renamed into place only when everything was written (internal.h). */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void pending_drop(mg_outfile *o) {
  mg_pending_drop(o->slot);
  o->slot = -1;
}

/* Standard output and special files cannot be taken back: write to an
 * anonymous file, copied out only when everything was written. */
static mg_status anonymous(mg_outfile *o, const char *what, mg_err *err) {
  if (!(o->f = tmpfile())) return mg_fail(err, MG_ERR_IO, "cannot create a temporary file for %s", what);
  return MG_OK;
}

int mg_outfile_is_stdout(const char *path) {
  struct stat st, out;
  if (!strcmp(path, "-")) return 1;
  return stat(path, &st) == 0 && fstat(STDOUT_FILENO, &out) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

mg_status mg_outfile_open(mg_outfile *o, const char *path, mg_err *err) {
  memset(o, 0, sizeof *o);
  o->slot = -1;
  if (mg_outfile_is_stdout(path)) {
    /* "-", /dev/stdout, /proc/self/fd/1 or the file standard output goes
     * to: standard output itself (opening it again would truncate it, and
     * replacing it would lose what else is printed) */
    o->is_stdout = 1;
    return anonymous(o, "standard output", err);
  }
  if (strlen(path) >= sizeof o->path) return mg_fail(err, MG_ERR_INVALID, "output path too long");
  strcpy(o->path, path);
  struct stat st, lst;
  int link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return mg_fail(err, MG_ERR_IO, "'%s' is a directory", path);
    if (!S_ISREG(st.st_mode)) {
      /* a device, FIFO or socket (/dev/null): written through, never
       * replaced */
      o->is_special = 1;
      return anonymous(o, path, err);
    }
  } else if (link)
    return mg_fail(err, MG_ERR_IO, "cannot follow the link '%s': %s", path, strerror(errno));
  if (link) {
    /* renaming over a link would replace the link: replace the file it
     * names (realpath: the whole chain, relative links from their
     * directory) */
    char *real = realpath(path, NULL);
    if (!real) return mg_fail(err, MG_ERR_IO, "cannot follow the link '%s': %s", path, strerror(errno));
    if (strlen(real) >= sizeof o->path) {
      free(real);
      return mg_fail(err, MG_ERR_INVALID, "output path too long");
    }
    strcpy(o->path, real);
    free(real);
  }
  if (snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", o->path) >= (int)sizeof o->tmp)
    return mg_fail(err, MG_ERR_INVALID, "output path too long");
  int fd = mg_pending_mkstemp(o->tmp, &o->slot);
  if (fd < 0) return mg_fail(err, MG_ERR_IO, "cannot create a file beside '%s'", path);
  /* mkstemp makes the file 0600; what we write is no secret */
  mode_t um = umask(0);
  umask(um);
  if (fchmod(fd, 0666 & ~um) != 0 || !(o->f = fdopen(fd, "w"))) {
    close(fd);
    unlink(o->tmp);
    pending_drop(o);
    return mg_fail(err, MG_ERR_IO, "cannot open a file beside '%s' for writing", path);
  }
  return MG_OK;
}

/* Copies the anonymous file to out. */
static int copy_out(FILE *in, FILE *out) {
  char buf[1 << 16];
  size_t n;
  rewind(in);
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n) return -1;
  return ferror(in) || fflush(out) != 0 || ferror(out) ? -1 : 0;
}

mg_status mg_outfile_close(mg_outfile *o, int ok, mg_err *err) {
  mg_status st = MG_OK;
  const char *name = o->is_stdout ? "standard output" : o->path;
  if (fflush(o->f) != 0 || ferror(o->f)) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
  if (o->is_stdout || o->is_special) {
    if (ok && st == MG_OK) {
      FILE *out = o->is_stdout ? stdout : fopen(o->path, "w");
      if (!out)
        st = mg_fail(err, MG_ERR_IO, "cannot open '%s' for writing: %s", name, strerror(errno));
      else {
        if (copy_out(o->f, out) != 0) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
        if (!o->is_stdout && fclose(out) != 0 && st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
      }
    }
    fclose(o->f);
    return st;
  }
  if (fclose(o->f) != 0 && st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
  if (ok && st == MG_OK && rename(o->tmp, o->path) != 0)
    st = mg_fail(err, MG_ERR_IO, "cannot move the file into '%s'", o->path);
  if (!ok || st != MG_OK) unlink(o->tmp);
  pending_drop(o);
  return st;
}

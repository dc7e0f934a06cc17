/* Output files written atomically: a temporary file beside the target,
 * renamed into place only when everything was written (internal.h). */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

mg_status mg_outfile_open(mg_outfile *o, const char *path, mg_err *err) {
  memset(o, 0, sizeof *o);
  if (!strcmp(path, "-")) {
    /* standard output cannot be taken back: write to an anonymous file
     * and copy it out only when everything was written */
    o->is_stdout = 1;
    if (!(o->f = tmpfile())) return mg_fail(err, MG_ERR_IO, "cannot create a temporary file for standard output");
    return MG_OK;
  }
  if (strlen(path) >= sizeof o->path || snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", path) >= (int)sizeof o->tmp)
    return mg_fail(err, MG_ERR_INVALID, "output path too long");
  strcpy(o->path, path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) return mg_fail(err, MG_ERR_IO, "cannot create a file beside '%s'", path);
  /* mkstemp makes the file 0600; what we write is no secret */
  mode_t um = umask(0);
  umask(um);
  if (fchmod(fd, 0666 & ~um) != 0 || !(o->f = fdopen(fd, "w"))) {
    close(fd);
    unlink(o->tmp);
    return mg_fail(err, MG_ERR_IO, "cannot open a file beside '%s' for writing", path);
  }
  return MG_OK;
}

mg_status mg_outfile_close(mg_outfile *o, int ok, mg_err *err) {
  mg_status st = MG_OK;
  const char *name = o->is_stdout ? "standard output" : o->path;
  if (fflush(o->f) != 0 || ferror(o->f)) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
  if (o->is_stdout) {
    if (ok && st == MG_OK) {
      char buf[1 << 16];
      size_t n;
      rewind(o->f);
      while ((n = fread(buf, 1, sizeof buf, o->f)) > 0)
        if (fwrite(buf, 1, n, stdout) != n) break;
      if (ferror(o->f) || fflush(stdout) != 0 || ferror(stdout))
        st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
    }
    fclose(o->f);
    return st;
  }
  if (fclose(o->f) != 0 && st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", name);
  if (ok && st == MG_OK && rename(o->tmp, o->path) != 0)
    st = mg_fail(err, MG_ERR_IO, "cannot move the file into '%s'", o->path);
  if (!ok || st != MG_OK) unlink(o->tmp);
  return st;
}

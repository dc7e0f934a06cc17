/* libFuzzer harness: model files (--model @FILE, MESHGOSSIP_MODEL=@FILE).
 * fuzz_model gives mg_model_parse a spec; a file's reader (comments,
 * blanks, line joining, the NUL and line-length checks) is reached only
 * through a path, so the input is written to a file of its own and parsed
 * as "@path". What parses has finite non-negative times and its canonical
 * form parses back to the same model; a message is one line; and what a
 * comment says never matters: the file with every comment's bytes (but a
 * NUL, which makes any file not text) replaced by 'x' reads the same (the
 * tail of a comment past the line buffer was read as settings). */
#include "meshgossip.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* In $TMPDIR (tests/fuzz/smoke.sh points it into its own directory,
 * removed when it ends): a crash skips atexit, and the file it leaves
 * then goes with that directory rather than staying in /tmp. */
static char mg_fz_path[512];

static void mg_fz_cleanup(void) { unlink(mg_fz_path); }

/* Writes the file and parses it; *m is the model read. */
static mg_status mg_fz_read(const uint8_t *data, size_t size, mg_model *m, mg_err *err) {
  FILE *f = fopen(mg_fz_path, "wb");
  if (!f) __builtin_trap();
  if (size && fwrite(data, 1, size, f) != size) __builtin_trap();
  fclose(f);
  char spec[sizeof mg_fz_path + 1];
  snprintf(spec, sizeof spec, "@%s", mg_fz_path);
  mg_model_default(m);
  return mg_model_parse(spec, m, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!mg_fz_path[0]) {
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir || strlen(dir) > sizeof mg_fz_path - 32) dir = "/tmp";
    snprintf(mg_fz_path, sizeof mg_fz_path, "%s/mg-fuzz-model-XXXXXX", dir);
    int fd = mkstemp(mg_fz_path);
    if (fd < 0) __builtin_trap();
    close(fd);
    atexit(mg_fz_cleanup);
  }
  mg_model m, n;
  mg_err err;
  mg_status st = mg_fz_read(data, size, &m, &err);
  if (st != MG_OK && strchr(err.msg, '\n')) __builtin_trap();
  uint8_t *masked = malloc(size ? size : 1);
  if (!masked) return 0;
  int in_comment = 0;
  for (size_t i = 0; i < size; i++) {
    if (data[i] == '\n') in_comment = 0;
    masked[i] = in_comment && data[i] ? 'x' : data[i];
    if (data[i] == '#') in_comment = 1;
  }
  mg_status st2 = mg_fz_read(masked, size, &n, &err);
  free(masked);
  if (st2 != st) __builtin_trap();
  if (st != MG_OK) return 0;
  char a[1024], b[1024];
  if (strcmp(mg_model_format(&m, a, sizeof a), mg_model_format(&n, b, sizeof b))) __builtin_trap();
  if (!isfinite(m.ts) || !isfinite(m.td) || !isfinite(m.tl) || m.ts < 0 || m.td < 0 || m.tl < 0) __builtin_trap();
  mg_model_default(&n);
  if (mg_model_parse(a, &n, &err) != MG_OK || n.switching != m.switching || n.port != m.port ||
      n.contention != m.contention || n.ell != m.ell || n.timing != m.timing || n.nbwf != m.nbwf)
    __builtin_trap();
  return 0;
}

/* libFuzzer harness: the short specs no other harness reads. The first
 * byte picks the reader, the rest is the text:
 *   0  --engine (mg_engine_parse: model, simgrid[:k=v,...])
 *   1  the per-size algorithm spec of MESHGOSSIP_ALLGATHER/_ALLTOALL and
 *      mg_mpi_opts.algo ("SPEC<=BYTES;...;SPEC", mg_spec_by_size), for a
 *      block size of 0, 1, 1 KiB and 2^64 - 1 bytes
 *   2  --format and --problem (mg_export_format_parse, mg_problem_parse)
 * Besides no crash, leak or hang: messages are one line; an engine spec
 * that parses has times >= 0 (or -1, "the model's"); a per-size pick is
 * one entry of the spec and names an algorithm that looks up (or auto). */
#include "meshgossip.h"
#include "meshgossip_engine.h"

#include "../../src/algo/spec_size.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void mg_fz_engine(const char *s) {
  mg_engine_opts o;
  mg_err err = {{0}};
  if (mg_engine_parse(s, &o, &err) != MG_OK) {
    if (strchr(err.msg, '\n')) __builtin_trap();
    return;
  }
  const double t[5] = {o.o, o.or_, o.link_tl, o.link_td, o.detach};
  for (int i = 0; i < 5; i++)
    if (!isfinite(t[i]) || (t[i] < 0 && t[i] != -1)) __builtin_trap();
  if (o.kind != MG_ENGINE_MODEL && o.kind != MG_ENGINE_SIMGRID) __builtin_trap();
}

static void mg_fz_by_size(const char *s) {
  static const uint64_t L[4] = {0, 1, 1024, UINT64_MAX};
  for (int i = 0; i < 4; i++) {
    char out[256];
    mg_err err = {{0}};
    if (mg_spec_by_size(s, L[i], out, sizeof out, &err) != MG_OK) {
      if (strchr(err.msg, '\n')) __builtin_trap();
      continue;
    }
    if (!strstr(s, out) || strchr(out, ';')) __builtin_trap();
    const mg_algo *a;
    mg_params ps;
    /* the whole spec, without ';' or '<=', is passed through unchecked:
     * the executor's lookup says what is wrong with it */
    if ((strchr(s, ';') || strstr(s, "<=")) && strcmp(out, "auto") && mg_algo_lookup(out, &a, &ps, &err) != MG_OK)
      __builtin_trap();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char s[512];
  if (size < 1 || size > sizeof s) return 0;
  memcpy(s, data + 1, size - 1);
  s[size - 1] = 0;
  mg_err err = {{0}};
  switch (data[0] % 3) {
  case 0: mg_fz_engine(s); break;
  case 1: mg_fz_by_size(s); break;
  default: {
    mg_export_format f;
    mg_problem p;
    if (mg_export_format_parse(s, &f, &err) != MG_OK && strchr(err.msg, '\n')) __builtin_trap();
    if (mg_problem_parse(s, &p, &err) != MG_OK && strchr(err.msg, '\n')) __builtin_trap();
  }
  }
  return 0;
}

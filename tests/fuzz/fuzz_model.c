/* libFuzzer harness: the machine-model parser (mg_model_parse). What
 * parses has finite non-negative times, and its canonical form parses back
 * to the same model. */
#include "meshgossip.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char spec[512];
  if (size >= sizeof spec) return 0;
  memcpy(spec, data, size);
  spec[size] = 0;
  mg_model m, n;
  mg_err err;
  mg_model_default(&m);
  if (mg_model_parse(spec, &m, &err) != MG_OK) {
    if (strchr(err.msg, '\n')) __builtin_trap();
    return 0;
  }
  if (!isfinite(m.ts) || !isfinite(m.td) || !isfinite(m.tl) || m.ts < 0 || m.td < 0 || m.tl < 0) __builtin_trap();
  char buf[256];
  mg_model_format(&m, buf, sizeof buf);
  mg_model_default(&n);
  if (mg_model_parse(buf, &n, &err) != MG_OK || n.switching != m.switching || n.port != m.port ||
      n.contention != m.contention || n.ell != m.ell)
    __builtin_trap();
  return 0;
}

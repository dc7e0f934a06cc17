/* libFuzzer harness: the topology parser (mg_topo_parse). A spec that
 * parses must format back to a spec that parses to the same topology, and
 * node ids must round-trip through coordinates. */
#include "meshgossip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char spec[256];
  if (size >= sizeof spec) return 0;
  memcpy(spec, data, size);
  spec[size] = 0;
  mg_topo t, u;
  mg_err err;
  if (mg_topo_parse(spec, &t, &err) != MG_OK) {
    if (strchr(err.msg, '\n')) __builtin_trap();
    return 0;
  }
  if (t.N < 2 || t.N > MG_MAX_NODES) __builtin_trap();
  char buf[128];
  mg_topo_format(&t, buf, sizeof buf);
  if (mg_topo_parse(buf, &u, &err) != MG_OK || u.N != t.N || u.d != t.d || u.kind != t.kind) __builtin_trap();
  uint32_t x[MG_MAX_DIMS], probe[3] = {0, t.N / 2, t.N - 1};
  for (int i = 0; i < 3; i++) {
    mg_topo_coords(&t, probe[i], x);
    if (mg_topo_id(&t, x) != probe[i]) __builtin_trap();
    for (int k = 0; k < t.d; k++) {
      uint32_t a = mg_topo_step(&t, probe[i], k, +1);
      if (a != UINT32_MAX && (a >= t.N || mg_topo_step(&t, a, k, -1) != probe[i])) __builtin_trap();
    }
  }
  (void)mg_topo_diameter(&t);
  return 0;
}

/* Per-size algorithm specs (spec_size.h): "SPEC<=BYTES;...;SPEC". On the
 * SMPI Paragon torus the best schedule changes with the block size
 * (docs/allgather.md: torus-swing up to 1 KiB, torus-tiling from 4 KiB,
 * dimwise-colored at 64 KiB), and the model `auto` ranks by lacks SimGrid's
 * crosstraffic, so the executor and the interposer take the table given. */
#include "spec_size.h"

#include "../util/internal.h"

#include <string.h>

mg_status mg_spec_by_size(const char *spec, uint64_t L, char *out, size_t n, mg_err *err) {
  if (!spec || !out || n == 0) return mg_fail(err, MG_ERR_INVALID, "no algorithm spec");
  if (!strchr(spec, ';') && !strstr(spec, "<=")) {
    if (strlen(spec) >= n) return mg_fail(err, MG_ERR_TOO_LARGE, "algorithm spec longer than %zu bytes", n - 1);
    memcpy(out, spec, strlen(spec) + 1);
    return MG_OK;
  }
  /* every entry is checked, not only up to the one that takes L: a typo
   * in a later entry ("ring<=12;rign") must not wait for a larger block to
   * show (a review) */
  const char *p = spec, *pick = NULL;
  size_t picklen = 0;
  for (;;) {
    const char *end = strchr(p, ';');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *le = NULL;
    for (size_t i = 0; i + 1 < len; i++)
      if (p[i] == '<' && p[i + 1] == '=') le = p + i;
    size_t slen = le ? (size_t)(le - p) : len;
    if (slen == 0) return mg_fail(err, MG_ERR_INVALID, "empty algorithm in the per-size spec '%s'", spec);
    if (slen >= n) return mg_fail(err, MG_ERR_TOO_LARGE, "algorithm spec longer than %zu bytes", n - 1);
    memcpy(out, p, slen);
    out[slen] = '\0';
    if (strcmp(out, "auto") != 0) {
      const mg_algo *a;
      mg_params ps;
      /* its message stands; the spec as a whole is malformed */
      if (mg_algo_lookup(out, &a, &ps, err) != MG_OK) return MG_ERR_INVALID;
    }
    int takes = 1;
    if (le) {
      const char *b = le + 2, *bend = p + len;
      if (b == bend) return mg_fail(err, MG_ERR_INVALID, "no size after '<=' in '%s'", spec);
      uint64_t bound = 0;
      for (; b < bend; b++) {
        if (*b < '0' || *b > '9' || bound > (UINT64_MAX - 9) / 10)
          return mg_fail(err, MG_ERR_INVALID, "size bound in '%s' is not a decimal byte count", spec);
        bound = bound * 10 + (uint64_t)(*b - '0');
      }
      takes = L <= bound;
    }
    if (takes && !pick) pick = p, picklen = slen;
    if (!end) break;
    p = end + 1;
  }
  if (!pick)
    return mg_fail(err, MG_ERR_INVALID, "the per-size spec '%s' has no entry for %llu bytes", spec,
                   (unsigned long long)L);
  memcpy(out, pick, picklen);
  out[picklen] = '\0';
  return MG_OK;
}

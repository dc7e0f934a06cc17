/* The plan shared by torgos and cubgos: see diagonal.h. */
#include "diagonal.h"

#include <stdlib.h>

void mg_dg_plan_free(mg_dg_plan *p) {
  for (int i = 0; i < p->nlev; i++)
    free(p->mv[i]);
  p->nlev = 0;
}

/* Phase 1: concentrate offsets lo..lo+s-1 into offset 0 by threes. Each
 * level groups the remaining members into consecutive triples aligned so
 * that the point is a middle; a full group's middle receives from both
 * sides (disjoint arcs), a partial group's member nearest the point
 * receives. */
mg_status mg_dg_plan_conc(mg_dg_plan *p, mg_err *err) {
  uint32_t s = p->s, m = s;
  int32_t lo = -(int32_t)((s - 1) / 2);
  int32_t *pos = mg_calloc(s, sizeof *pos);
  uint32_t *cnt = mg_calloc(s, sizeof *cnt);
  mg_status st = MG_OK;
  if (!pos || !cnt) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  for (uint32_t i = 0; i < s; i++)
    pos[i] = lo + (int32_t)i, cnt[i] = 1;
  while (m > 1) {
    if (p->nlev == MG_DG_MAX_ROUNDS) {
      st = mg_fail(err, MG_ERR_TOO_LARGE, "too many concentration levels");
      goto out;
    }
    uint32_t ti = 0;
    while (pos[ti] != 0)
      ti++;
    uint32_t o = (ti + 2) % 3; /* (ti - 1) mod 3: the point is a middle */
    mg_dg_move *mv = mg_calloc(m, sizeof *mv);
    if (!mv) {
      st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
      goto out;
    }
    p->mv[p->nlev] = mv;
    size_t k = 0;
    uint32_t nm = 0;
    for (uint32_t g0 = 0; g0 < m;) {
      uint32_t g1 = g0 == 0 && o > 0 ? o : (g0 + 3 < m ? g0 + 3 : m);
      uint32_t r; /* receiver index */
      if (ti >= g0 && ti < g1)
        r = ti;
      else if (g1 - g0 == 3)
        r = g0 + 1;
      else
        r = g1 <= ti ? g1 - 1 : g0; /* nearest the point */
      uint32_t sum = 0;
      for (uint32_t i = g0; i < g1; i++) {
        sum += cnt[i];
        if (i != r) mv[k++] = (mg_dg_move){pos[i], pos[r], cnt[i]};
      }
      pos[nm] = pos[r];
      cnt[nm++] = sum;
      g0 = g1;
    }
    p->nmv[p->nlev++] = k;
    m = nm;
  }
out:
  free(pos);
  free(cnt);
  return st;
}

/* Parses "3" or "3/9/..." into at most MG_DG_MAX_ROUNDS values. */
mg_status mg_dg_parse_list(const char *v, const char *name, uint32_t *out, int *n, mg_err *err) {
  *n = 0;
  while (*v) {
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (end == v || x == 0 || x > 1000000 || (*end && *end != '/') || *n == MG_DG_MAX_ROUNDS)
      return mg_fail(err, MG_ERR_INVALID, "parameter %s: expected a positive integer or a list like 3/9", name);
    out[(*n)++] = (uint32_t)x;
    v = *end ? end + 1 : end;
  }
  if (*n == 0) return mg_fail(err, MG_ERR_INVALID, "parameter %s is empty", name);
  return MG_OK;
}

/* The plan shared by torgos and cubgos: see diagonal.h. */
#include "diagonal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

mg_status mg_dg_plan_rounds(mg_dg_plan *p, const mg_params *ps, const char *algo, uint32_t nmin, mg_err *err) {
  mg_status st;
  const char *bv = ps ? mg_params_get(ps, "b") : NULL, *xv = ps ? mg_params_get(ps, "x") : NULL;
  uint32_t bl[MG_DG_MAX_ROUNDS], xl[MG_DG_MAX_ROUNDS];
  int nb = 1, nx = 0;
  bl[0] = 3;
  if (bv && strcmp(bv, "auto") && (st = mg_dg_parse_list(bv, "b", bl, &nb, err)) != MG_OK) return st;
  if (xv && strcmp(xv, "auto") && (st = mg_dg_parse_list(xv, "x", xl, &nx, err)) != MG_OK) return st;
  if (nb == 1) {
    /* greedy factoring of s; the remainder is the last round */
    uint32_t rem = p->s, b = bl[0];
    if (b < 2) return mg_fail(err, MG_ERR_INVALID, "%s: b must be at least 2", algo);
    while (rem > 1 && rem % b == 0 && p->t < MG_DG_MAX_ROUNDS)
      p->b[p->t++] = b, rem /= b;
    if (rem > 1) p->b[p->t++] = rem;
  } else {
    uint64_t prod = 1;
    for (int j = 0; j < nb; j++) {
      if (bl[j] < 2) return mg_fail(err, MG_ERR_INVALID, "%s: every b_i must be at least 2", algo);
      prod *= bl[j];
      if (prod > p->s) break;
      p->b[p->t++] = bl[j];
    }
    if (prod != p->s)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "%s: the b_i multiply to %llu, not n0/a = %u", algo,
                     (unsigned long long)prod, p->s);
  }
  if (nx > 1 && nx != p->t) return mg_fail(err, MG_ERR_INVALID, "%s: %d x_i for %d rounds", algo, nx, p->t);
  for (int j = 0; j < p->t; j++) {
    uint32_t lo = p->b[j] / 2, x = nx == 0 ? lo : xl[nx == 1 ? 0 : j];
    if (x < lo) {
      if (nx > 1) return mg_fail(err, MG_ERR_INVALID, "%s: x_%d = %u is below floor(b_%d/2) = %u", algo, j, x, j, lo);
      x = lo;
    }
    if (2 * x + 2 - p->b[j] > nmin)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "%s: x = %u cuts the data into more parts than %u nodes", algo, x, nmin);
    p->x[j] = x;
  }
  return MG_OK;
}

double mg_dg_conc_step(const mg_dg_plan *p, uint32_t t, const mg_model *m, double piece) {
  double worst = 0;
  for (size_t q = 0; q < p->nmv[t]; q++) {
    const mg_dg_move *mv = &p->mv[t][q];
    double v = fabs((double)(mv->to - mv->from)) * m->td + mv->count * piece * m->tl;
    if (v > worst) worst = v;
  }
  return worst;
}

mg_status mg_dg_candidates(uint32_t n0, uint32_t n1, int keep, mg_dg_price_fn price, void *parg,
                           mg_status (*visit)(void *arg, const mg_params *ps), void *varg, const char *algo,
                           mg_err *err) {
  mg_params best[MG_DG_MAX_KEEP];
  double bestc[MG_DG_MAX_KEEP];
  int nbest = 0;
  if (keep > MG_DG_MAX_KEEP) keep = MG_DG_MAX_KEEP;
  for (uint32_t a = 1; a <= n0; a++) {
    if (n0 % a || (n1 && n1 % (n0 / a))) continue;
    uint32_t s = n0 / a;
    /* s = 1: every point is a diagonal point, nothing to multiply */
    for (uint32_t b = s > 1 ? 2 : 0; b <= s; b++) {
      if (b && s % b) continue;
      for (uint32_t x = b / 2; x <= b + b / 4; x++) {
        mg_params ps;
        double c;
        memset(&ps, 0, sizeof ps);
        mg_params_set_int(&ps, "a", a, NULL);
        if (s > 1) {
          mg_params_set_int(&ps, "b", b, NULL);
          mg_params_set_int(&ps, "x", x, NULL);
        }
        if (price(parg, &ps, &c, NULL) != MG_OK) continue;
        /* insert in cost order, earlier candidates first among equals */
        int pos = nbest;
        while (pos > 0 && bestc[pos - 1] > c)
          pos--;
        if (pos >= keep) continue;
        if (nbest < keep) nbest++;
        memmove(&best[pos + 1], &best[pos], (size_t)(nbest - 1 - pos) * sizeof best[0]);
        memmove(&bestc[pos + 1], &bestc[pos], (size_t)(nbest - 1 - pos) * sizeof bestc[0]);
        best[pos] = ps;
        bestc[pos] = c;
      }
      if (s == 1) break;
    }
  }
  for (int i = 0; i < nbest; i++) {
    mg_status st = visit(varg, &best[i]);
    if (st != MG_OK) return mg_fail(err, st, "tuning %s: %s", algo, mg_strerror(st));
  }
  return MG_OK;
}

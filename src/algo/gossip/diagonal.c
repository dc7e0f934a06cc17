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
  const char *bv = mg_param_given(ps, "b"), *xv = mg_param_given(ps, "x");
  uint32_t bl[MG_DG_MAX_ROUNDS], xl[MG_DG_MAX_ROUNDS];
  int nb = 1, nx = 0;
  bl[0] = 3;
  if (bv && (st = mg_dg_parse_list(bv, "b", bl, &nb, err)) != MG_OK) return st;
  if (xv && (st = mg_dg_parse_list(xv, "x", xl, &nx, err)) != MG_OK) return st;
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

/* The kept candidates, cheapest first (earlier ones first among equals). */
typedef struct dg_keep {
  int keep, n;
  const mg_params *held; /* mg_tune_held: only candidates that agree rank */
  mg_params ps[MG_DG_MAX_KEEP];
  double c[MG_DG_MAX_KEEP];
} dg_keep;

static void keep_add(dg_keep *k, const mg_params *ps, double c) {
  if (!mg_params_agree(k->held, ps)) return;
  for (int i = 0; i < k->n; i++)
    if (k->c[i] == c && !memcmp(&k->ps[i], ps, sizeof *ps)) return; /* the same set twice */
  int pos = k->n;
  while (pos > 0 && k->c[pos - 1] > c)
    pos--;
  if (pos >= k->keep) return;
  if (k->n < k->keep) k->n++;
  memmove(&k->ps[pos + 1], &k->ps[pos], (size_t)(k->n - 1 - pos) * sizeof k->ps[0]);
  memmove(&k->c[pos + 1], &k->c[pos], (size_t)(k->n - 1 - pos) * sizeof k->c[0]);
  k->ps[pos] = *ps;
  k->c[pos] = c;
}

/* "3/9/3" (one value when all are equal: the same plan, as the user would
 * write it); MG_ERR_INVALID if the list does not fit a parameter value. */
static mg_status set_list(mg_params *ps, const char *name, const uint32_t *v, int t) {
  char buf[sizeof ps->p[0].value];
  int all = 1;
  size_t len = 0;
  for (int j = 1; j < t; j++)
    all &= v[j] == v[0];
  for (int j = 0; j < (all ? 1 : t); j++) {
    int w = snprintf(buf + len, sizeof buf - len, j ? "/%u" : "%u", v[j]);
    if (w < 0 || (size_t)w >= sizeof buf - len) return MG_ERR_INVALID;
    len += (size_t)w;
  }
  return mg_params_set(ps, name, buf, NULL);
}

/* Prices a, b_0..b_{t-1}, x_0..x_{t-1} (t = 0: a alone); MG_OK and *c, or
 * not a candidate. */
static mg_status price_lists(mg_dg_price_fn price, void *parg, uint32_t a, const uint32_t *b, const uint32_t *x, int t,
                             mg_params *ps, double *c) {
  memset(ps, 0, sizeof *ps);
  mg_status st = mg_params_set_int(ps, "a", a, NULL);
  if (st == MG_OK && t > 0) st = set_list(ps, "b", b, t);
  if (st == MG_OK && t > 0) st = set_list(ps, "x", x, t);
  return st == MG_OK ? price(parg, ps, c, NULL) : st;
}

/* The best multiplying rounds for one a, round by round. The recount is a
 * sum over rounds and a phase-4 round's steps depend on its own s_j, b_j and
 * x_j only, so the best rounds from a spacing d down to 1 do not depend on
 * how the schedule got to d: tail[d] is chosen once, for every divisor d of
 * s in increasing order, among "b and x, then tail[d/b]", each priced as a
 * whole schedule behind the same head (one round from s to d). The uniform
 * b and x of the paper's TORGOS(a, b, x) are among the choices, so the
 * result is never dearer than they are. */
typedef struct dg_tail {
  int t;
  uint32_t b[MG_DG_MAX_ROUNDS], x[MG_DG_MAX_ROUNDS];
} dg_tail;

static mg_status best_rounds(uint32_t a, uint32_t s, mg_dg_price_fn price, void *parg, dg_keep *k, mg_err *err) {
  size_t nd = 0;
  for (uint32_t d = 1; d <= s; d++)
    nd += s % d == 0;
  uint32_t *div = mg_calloc(nd, sizeof *div);
  dg_tail *tail = mg_calloc(nd, sizeof *tail);
  if (!div || !tail) {
    free(div);
    free(tail);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  }
  nd = 0;
  for (uint32_t d = 1; d <= s; d++)
    if (s % d == 0) div[nd++] = d;
  mg_params best = {0}; /* tail[s] as a parameter set: hh = 0, priced whole */
  double bestc = INFINITY;
  for (size_t i = 1; i < nd; i++) {
    uint32_t d = div[i], head = s / d;
    int hh = head > 1; /* the head round, b = s/d, at its least x */
    bestc = INFINITY;
    for (size_t q = 0; q < i; q++) {
      uint32_t bj = d / div[q];
      if (d % div[q] || bj < 2) continue;
      const dg_tail *tl = &tail[q];
      if (hh + 1 + tl->t > MG_DG_MAX_ROUNDS || tl->t < 0) continue;
      uint32_t b[MG_DG_MAX_ROUNDS], x[MG_DG_MAX_ROUNDS];
      b[0] = head, x[0] = head / 2;
      memcpy(b + hh + 1, tl->b, (size_t)tl->t * sizeof b[0]);
      memcpy(x + hh + 1, tl->x, (size_t)tl->t * sizeof x[0]);
      b[hh] = bj;
      for (uint32_t xj = bj / 2; xj <= bj + bj / 4; xj++) {
        mg_params ps;
        double c;
        x[hh] = xj;
        if (price_lists(price, parg, a, b, x, hh + 1 + tl->t, &ps, &c) != MG_OK || !(c < bestc)) continue;
        bestc = c;
        best = ps;
        tail[i].t = 1 + tl->t;
        tail[i].b[0] = bj, tail[i].x[0] = xj;
        memcpy(tail[i].b + 1, tl->b, (size_t)tl->t * sizeof tl->b[0]);
        memcpy(tail[i].x + 1, tl->x, (size_t)tl->t * sizeof tl->x[0]);
      }
    }
    if (bestc == INFINITY) tail[i].t = -1; /* no schedule goes from d to 1 */
  }
  if (bestc < INFINITY) keep_add(k, &best, bestc); /* the loop ended with d = s */
  free(div);
  free(tail);
  return MG_OK;
}

mg_status mg_dg_candidates(uint32_t n0, uint32_t n1, int keep, mg_dg_price_fn price, void *parg,
                           mg_status (*visit)(void *arg, const mg_params *ps), void *varg, const char *algo,
                           mg_err *err) {
  return mg_dg_candidates_with(n0, n1, keep, price, parg, NULL, visit, varg, algo, err);
}

mg_status mg_dg_candidates_with(uint32_t n0, uint32_t n1, int keep, mg_dg_price_fn price, void *parg,
                                const char *const *finishes, mg_status (*visit)(void *arg, const mg_params *ps),
                                void *varg, const char *algo, mg_err *err) {
  dg_keep k = {.keep = keep > MG_DG_MAX_KEEP ? MG_DG_MAX_KEEP : keep, .held = mg_tune_held(visit, varg)};
  /* a finish held by the caller rules out phase 4's b and x, and a b or x
   * held rules out the finishes: such candidates agree with what is held
   * but fail once merged with it, and would take the kept places */
  const char *hf = mg_param_given(k.held, "finish");
  int phase4 = !(hf && strcmp(hf, "phase4"));
  if (mg_param_given(k.held, "b") || mg_param_given(k.held, "x")) finishes = NULL;
  for (uint32_t a = 1; a <= n0; a++) {
    if (n0 % a || (n1 && n1 % (n0 / a))) continue;
    uint32_t s = n0 / a;
    for (const char *const *f = finishes; f && *f; f++) {
      mg_params ps;
      double c;
      memset(&ps, 0, sizeof ps);
      if (mg_params_set_int(&ps, "a", a, NULL) == MG_OK && mg_params_set(&ps, "finish", *f, NULL) == MG_OK &&
          price(parg, &ps, &c, NULL) == MG_OK)
        keep_add(&k, &ps, c);
    }
    if (!phase4) continue;
    /* s = 1: every point is a diagonal point, nothing to multiply */
    for (uint32_t b = s > 1 ? 2 : 0; b <= s; b++) {
      if (b && s % b) continue;
      for (uint32_t x = b / 2; x <= b + b / 4; x++) {
        mg_params ps;
        double c;
        if (price_lists(price, parg, a, &b, &x, s > 1, &ps, &c) == MG_OK) keep_add(&k, &ps, c);
      }
      if (s == 1) break;
    }
    if (s > 1) {
      mg_status st = best_rounds(a, s, price, parg, &k, err);
      if (st != MG_OK) return st;
    }
  }
  for (int i = 0; i < k.n; i++) {
    mg_status st = visit(varg, &k.ps[i]);
    if (st != MG_OK) return mg_fail(err, st, "tuning %s: %s", algo, mg_strerror(st));
  }
  return MG_OK;
}

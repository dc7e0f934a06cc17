/*
 * digit_plan — a factorization of a torus of N = 3^k nodes into k digit
 * sets of three, for Bruck's radix-3 exchange (exchange-digits).
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997) write the distance w - u of a block in a radix and move it
 * digit by digit. Nothing in the exchange needs the digits to be the
 * powers of the radix: any sets D_1, .., D_k of the group G = Z_n1 x .. x
 * Z_nd, each holding 0, such that every element of G is exactly one sum
 * d_1 + .. + d_k (a factorization, G = D_1 (+) .. (+) D_k) will do: in
 * step j a node sends to v + d, for each d != 0 of D_j, the blocks whose
 * distance has digit d there. With |D_j| = 3 every step sends two
 * messages of N/3 blocks, whatever the sets.
 *
 * What the sets change is the load: step j is a translation, so every
 * arc of direction (axis i, sign s) carries, on shortest routes, the sum
 * over the two nonzero digits of their offsets along i of sign s, and the
 * step lasts as long as its busiest direction. The balanced digits
 * {0, +3^l e_i, -3^l e_i} (exchange-ternary) load one axis with 3^l and
 * leave the other idle: 1 + 1 + 3 + 3 = 8 on torus:9x9. A step whose
 * digits leave on both axes spreads the same hops over more arcs, e.g.
 * {0, (1,-2), (-2,1)}: 2 on the x- and y- arcs, 1 on x+ and y+. The
 * search below (a depth-first search over the pairs {a, b}, cheapest
 * first, pruned by the best sum so far, which starts at the balanced
 * digits) finds on 9x9 the sets {0, (0,1), (0,-1)}, {0, (1,1), (-1,-1)},
 * {0, (1,-2), (-2,1)}, {0, (3,3), (-3,-3)}: 1 + 1 + 2 + 3 = 7, the least
 * there is (the search is exhaustive on 9x9: tests/test_exchange_digits.c
 * checks it against an independent enumeration). Ties go to fewer hops.
 *
 * Shortest routes are unique here (every side is odd), so the load is the
 * same on the schedule's routes and on SimGrid's.
 */
#include "digit_plan.h"

#include <stdlib.h>
#include <string.h>

#define MG_DP_WORK_BUDGET 20000000ull /* element sums the search may try (about 0.05 s) */

static int side_levels(uint32_t n) {
  int m;
  return n >= 3 && mg_is_pow(n, 3, &m) ? m : -1;
}

mg_status mg_digit_plan_check(const mg_topo *t, const char *algo, mg_err *err) {
  if (t->kind != MG_TOPO_GRID) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a grid", algo);
  int k = 0;
  for (int i = 0; i < t->d; i++) {
    int m = side_levels(t->n[i]);
    if (m < 1) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs every side a power of three (side %u)", algo, t->n[i]);
    k += m;
  }
  if (k > (int)MG_DP_MAX_STEPS)
    return mg_fail(err, MG_ERR_TOO_LARGE, "%s runs up to 3^%u nodes", algo, MG_DP_MAX_STEPS);
  return MG_OK;
}

uint32_t mg_dp_add(const mg_topo *t, uint32_t a, uint32_t b) {
  uint32_t id = 0;
  for (int i = 0; i < t->d; i++) {
    uint32_t xa = a / t->stride[i] % t->n[i], xb = b / t->stride[i] % t->n[i];
    id += (xa + xb) % t->n[i] * t->stride[i];
  }
  return id;
}

uint32_t mg_dp_sub(const mg_topo *t, uint32_t a, uint32_t b) {
  uint32_t id = 0;
  for (int i = 0; i < t->d; i++) {
    uint32_t xa = a / t->stride[i] % t->n[i], xb = b / t->stride[i] % t->n[i];
    id += (xa + t->n[i] - xb) % t->n[i] * t->stride[i];
  }
  return id;
}

/* Shortest signed offset of coordinate x on a side n (odd: unique). */
static int32_t offset_of(uint32_t x, uint32_t n) { return x <= (n - 1) / 2 ? (int32_t)x : (int32_t)x - (int32_t)n; }

static int hops_of(const mg_topo *t, uint32_t a) {
  int h = 0;
  for (int i = 0; i < t->d; i++) {
    int32_t o = offset_of(a / t->stride[i] % t->n[i], t->n[i]);
    h += o < 0 ? -o : o;
  }
  return h;
}

/* The busiest direction when every node sends to v + a and v + b. */
static int load_of(const mg_topo *t, uint32_t a, uint32_t b) {
  int worst = 0;
  for (int i = 0; i < t->d; i++) {
    int32_t oa = offset_of(a / t->stride[i] % t->n[i], t->n[i]);
    int32_t ob = offset_of(b / t->stride[i] % t->n[i], t->n[i]);
    int plus = (oa > 0 ? oa : 0) + (ob > 0 ? ob : 0), minus = (oa < 0 ? -oa : 0) + (ob < 0 ? -ob : 0);
    if (plus > worst) worst = plus;
    if (minus > worst) worst = minus;
  }
  return worst;
}

/* Sets are compared by key = load * 2^20 + hops(a) + hops(b): the least
 * busiest-arc load, then the fewest hops. */
#define MG_DP_KEY(load, hops) ((uint64_t)(load) * (1ull << 20) + (uint64_t)(hops))

static uint64_t set_key(const mg_topo *t, uint32_t a, uint32_t b) {
  return MG_DP_KEY(load_of(t, a, b), hops_of(t, a) + hops_of(t, b));
}

typedef struct dp_sets {
  int k;
  uint32_t a[MG_DP_MAX_STEPS], b[MG_DP_MAX_STEPS];
} dp_sets;

static uint64_t sets_key(const mg_topo *t, const dp_sets *s) {
  uint64_t key = 0;
  for (int j = 0; j < s->k; j++)
    key += set_key(t, s->a[j], s->b[j]);
  return key;
}

typedef struct dp_cand {
  uint32_t a, b;
  uint64_t key;
} dp_cand;

static int cand_cmp(const void *x, const void *y) {
  const dp_cand *p = x, *q = y;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return p->b < q->b ? -1 : (p->b > q->b);
}

typedef struct dp_search {
  const mg_topo *t;
  int k;
  const dp_cand *c;
  size_t nc;
  uint32_t *elems;     /* elems[0 .. 3^depth): the sum set so far */
  unsigned char *mark; /* N: in the sum set */
  size_t chosen[MG_DP_MAX_STEPS], best_set[MG_DP_MAX_STEPS];
  uint64_t best, work;
  int found;
} dp_search;

static void dp_dfs(dp_search *s, int depth, size_t size, uint64_t cost, size_t start) {
  if (depth == s->k) {
    s->best = cost;
    s->found = 1;
    memcpy(s->best_set, s->chosen, sizeof s->chosen);
    return;
  }
  uint64_t rem = (uint64_t)(s->k - depth);
  for (size_t i = start; i < s->nc; i++) {
    if (cost + s->c[i].key * rem >= s->best || s->work > MG_DP_WORK_BUDGET) return;
    uint32_t a = s->c[i].a, b = s->c[i].b;
    size_t n = size, ok = 1;
    for (size_t e = 0; e < size && ok; e++) {
      uint32_t sa = mg_dp_add(s->t, s->elems[e], a), sb = mg_dp_add(s->t, s->elems[e], b);
      s->work += 2;
      if (s->mark[sa])
        ok = 0;
      else {
        s->mark[sa] = 1, s->elems[n++] = sa;
        if (s->mark[sb])
          ok = 0;
        else
          s->mark[sb] = 1, s->elems[n++] = sb;
      }
    }
    if (ok) {
      s->chosen[depth] = i;
      dp_dfs(s, depth + 1, n, cost + s->c[i].key, i + 1);
    }
    for (size_t e = size; e < n; e++)
      s->mark[s->elems[e]] = 0;
  }
}

/* The balanced digits: level 0 of every axis, then level 1, .. */
static void balanced(const mg_topo *t, dp_sets *s) {
  s->k = 0;
  for (int l = 0;; l++) {
    int any = 0;
    for (int i = 0; i < t->d; i++)
      if (l < side_levels(t->n[i])) {
        uint32_t step = 1;
        for (int e = 0; e < l; e++)
          step *= 3;
        s->a[s->k] = step * t->stride[i];
        s->b[s->k++] = (t->n[i] - step) * t->stride[i];
        any = 1;
      }
    if (!any) return;
  }
}

/* The depth-first search over every pair {a, b}, cheapest first, pruned
 * by the best sum so far (first *s); replaces *s when it finds better. */
static mg_status search(const mg_topo *t, dp_sets *s, mg_err *err) {
  uint64_t best = sets_key(t, s), unit = MG_DP_KEY(1, 2);
  uint32_t N = t->N;
  uint64_t npairs = (uint64_t)(N - 1) * (N - 2) / 2;
  dp_cand *c = mg_calloc(npairs ? npairs : 1, sizeof *c);
  uint32_t *elems = mg_calloc(N, sizeof *elems);
  unsigned char *mark = mg_calloc(N, 1);
  if (!c || !elems || !mark) {
    free(c), free(elems), free(mark);
    return mg_fail(err, MG_ERR_NOMEM, "digit plan: out of memory (%llu candidate sets)", (unsigned long long)npairs);
  }
  size_t nc = 0;
  for (uint32_t a = 1; a < N; a++)
    for (uint32_t b = a + 1; b < N; b++) {
      uint64_t key = set_key(t, a, b);
      if (key + unit * (uint64_t)(s->k - 1) < best) /* could win with every other set at load 1 */
        c[nc++] = (dp_cand){a, b, key};
    }
  qsort(c, nc, sizeof *c, cand_cmp);
  dp_search d = {t, s->k, c, nc, elems, mark, {0}, {0}, best, 0, 0};
  elems[0] = 0, mark[0] = 1;
  dp_dfs(&d, 0, 1, 0, 0);
  if (d.found)
    for (int j = 0; j < s->k; j++)
      s->a[j] = c[d.best_set[j]].a, s->b[j] = c[d.best_set[j]].b;
  free(c), free(elems), free(mark);
  return MG_OK;
}

/* The best sets found for t: the balanced digits; the search where t is
 * small; and, where a side is 9 or more, the lift G = U (+) 3G' of the
 * plan of the quotient torus G' (sides n_i / 3), U the unit digits
 * {0, +e_i, -e_i} of every axis (on 27x27: 1 + 1 + 3 x 7 = 23 against the
 * balanced 26). The least sum of keys wins; ties keep the earlier. */
static mg_status best_sets(const mg_topo *t, dp_sets *s, mg_err *err) {
  balanced(t, s);
  mg_status st = MG_OK;
  if (t->N <= MG_DP_SEARCH_MAX_NODES) st = search(t, s, err);
  uint32_t n2[MG_MAX_DIMS];
  int axis[MG_MAX_DIMS], d2 = 0;
  for (int i = 0; i < t->d; i++)
    if (t->n[i] >= 9) n2[d2] = t->n[i] / 3, axis[d2++] = i;
  if (st != MG_OK || d2 == 0) return st;
  mg_topo t2;
  dp_sets sub, lift;
  st = mg_topo_grid(&t2, d2, n2, 1, err);
  if (st == MG_OK) st = best_sets(&t2, &sub, err);
  if (st != MG_OK) return st;
  lift.k = 0;
  for (int i = 0; i < t->d; i++)
    lift.a[lift.k] = t->stride[i], lift.b[lift.k++] = (t->n[i] - 1) * t->stride[i];
  for (int j = 0; j < sub.k; j++) {
    uint32_t a = 0, b = 0;
    for (int i = 0; i < d2; i++) {
      a += sub.a[j] / t2.stride[i] % t2.n[i] * 3 * t->stride[axis[i]];
      b += sub.b[j] / t2.stride[i] % t2.n[i] * 3 * t->stride[axis[i]];
    }
    lift.a[lift.k] = a, lift.b[lift.k++] = b;
  }
  if (sets_key(t, &lift) < sets_key(t, s)) *s = lift;
  return MG_OK;
}

/* index and prefix from the digits: enumerate every choice of digits. */
static mg_status tables(const mg_topo *t, mg_digit_plan *p, mg_err *err) {
  uint32_t N = t->N;
  p->index = mg_calloc((uint64_t)N * (uint64_t)p->k, 1);
  p->prefix = mg_calloc((uint64_t)N * (uint64_t)p->k, sizeof *p->prefix);
  unsigned char *seen = mg_calloc(N, 1);
  if (!p->index || !p->prefix || !seen) {
    free(seen);
    return mg_fail(err, MG_ERR_NOMEM, "digit plan: out of memory for %u nodes", N);
  }
  uint8_t ch[MG_DP_MAX_STEPS] = {0};
  for (uint32_t m = 0; m < N; m++) {
    uint32_t sum = 0, pre[MG_DP_MAX_STEPS];
    for (int j = 0; j < p->k; j++) {
      pre[j] = sum;
      sum = mg_dp_add(t, sum, p->digit[j][ch[j]]);
    }
    if (seen[sum]) { /* not a factorization: a bug in the plan, never bad input */
      free(seen);
      return mg_fail(err, MG_ERR_INVALID, "digit plan: element %u is two sums (not a factorization)", sum);
    }
    seen[sum] = 1;
    for (int j = 0; j < p->k; j++) {
      p->index[(uint64_t)sum * (uint64_t)p->k + (uint64_t)j] = ch[j];
      p->prefix[(uint64_t)j * N + sum] = pre[j];
    }
    for (int j = 0; j < p->k && ++ch[j] == 3; j++) /* next choice, base 3 */
      ch[j] = 0;
  }
  free(seen);
  return MG_OK;
}

mg_status mg_digit_plan_build(const mg_topo *t, int search_sets, mg_digit_plan *p, mg_err *err) {
  dp_sets s;
  memset(p, 0, sizeof *p);
  mg_status st = mg_digit_plan_check(t, "digit plan", err);
  if (st != MG_OK) return st;
  p->N = t->N;
  if (search_sets)
    st = best_sets(t, &s, err);
  else
    balanced(t, &s);
  if (st != MG_OK) return st;
  p->k = s.k;
  for (int j = 0; j < p->k; j++) {
    p->digit[j][0] = 0, p->digit[j][1] = s.a[j], p->digit[j][2] = s.b[j];
    p->load[j] = load_of(t, s.a[j], s.b[j]);
    int ha = hops_of(t, s.a[j]), hb = hops_of(t, s.b[j]);
    p->hops[j] = ha > hb ? ha : hb;
  }
  st = tables(t, p, err);
  if (st != MG_OK) mg_digit_plan_free(p);
  return st;
}

void mg_digit_plan_free(mg_digit_plan *p) {
  free(p->index);
  free(p->prefix);
  p->index = NULL;
  p->prefix = NULL;
}

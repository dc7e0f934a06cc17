/*
 * digit_plan — a factorization of a torus of N = r^k nodes (r = 3 or 4)
 * into k digit sets of r, for Bruck's exchange in radix r
 * (exchange-digits).
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997) write the distance w - u of a block in a radix and move it
 * digit by digit. Nothing in the exchange needs the digits to be the
 * powers of the radix: any sets D_1, .., D_k of the group G = Z_n1 x .. x
 * Z_nd, each holding 0, such that every element of G is exactly one sum
 * d_1 + .. + d_k (a factorization, G = D_1 (+) .. (+) D_k) will do: in
 * step j a node sends to v + d, for each d != 0 of D_j, the blocks whose
 * distance has digit d there. With |D_j| = r every step sends r - 1
 * messages of N/r blocks, whatever the sets.
 *
 * What the sets change is the load: step j is a translation, and its
 * busiest arc, counted on SimGrid's routes for every node's r - 1
 * messages, sets how long it lasts. The balanced digits {0, +3^l e_i,
 * -3^l e_i} (exchange-ternary) load one axis with 3^l and leave the other
 * idle: 1 + 1 + 3 + 3 = 8 on torus:9x9. A step whose digits leave on both
 * axes spreads the same hops over more arcs, e.g. {0, (1,-2), (-2,1)}: 2
 * on the x- and y- arcs, 1 on x+ and y+. The search below (a depth-first
 * search over the sets, cheapest first, pruned by the best sum so far,
 * which starts at the plain digits) finds on 9x9 the sets {0, (0,1),
 * (0,-1)}, {0, (1,1), (-1,-1)}, {0, (1,-2), (-2,1)}, {0, (3,3), (-3,-3)}:
 * 1 + 1 + 2 + 3 = 7, the least there is (tests/test_exchange_digits.c
 * checks it by an enumeration of its own). Ties go to fewer hops.
 *
 * Larger tori are out of the search's reach (it lists every set), so a
 * plan is also lifted: when r divides every side, G = A (+) r G' with A
 * the quotient Z_r^d's plan (its digits as short offsets) and G' the
 * torus of sides n_i / r, planned the same way and scaled by r.
 */
#include "digit_plan.h"

#include <stdlib.h>
#include <string.h>

#define MG_DP_WORK_BUDGET 20000000ull /* element sums the search may try (about 0.05 s) */

/* m with n = base^m (n >= min), else -1. */
static int levels_of(uint32_t n, uint32_t base, uint32_t min) {
  int m;
  return n >= min && mg_is_pow(n, base, &m) ? m : -1;
}

mg_status mg_digit_plan_check(const mg_topo *t, int r, const char *algo, mg_err *err) {
  if (r != 3 && r != 4) return mg_fail(err, MG_ERR_INVALID, "%s: radix 3 or 4 (not %d)", algo, r);
  if (t->kind != MG_TOPO_GRID) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a grid", algo);
  int levels = 0;
  for (int i = 0; i < t->d; i++) {
    int m = levels_of(t->n[i], r == 3 ? 3 : 2, r == 3 ? 3 : 2);
    if (m < 1)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "%s in radix %d needs every side a power of %s (side %u)", algo, r,
                     r == 3 ? "three" : "two", t->n[i]);
    levels += m;
  }
  if (r == 4 && levels % 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s in radix 4 needs a power of four nodes (not %u)", algo, t->N);
  if (t->N > MG_DP_MAX_NODES) return mg_fail(err, MG_ERR_TOO_LARGE, "%s runs up to %u nodes", algo, MG_DP_MAX_NODES);
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

/* Route length of a digit (the same from every node: a tie is n/2 hops
 * whichever way SimGrid sends it). */
static int hops_of(const mg_topo *t, uint32_t a) {
  int h = 0;
  for (int i = 0; i < t->d; i++) {
    uint32_t x = a / t->stride[i] % t->n[i];
    h += (int)(x <= t->n[i] - x ? x : t->n[i] - x);
  }
  return h;
}

/* Arc loads are counted on one line per axis. Under dimension order the
 * axis-i leg of v -> v + a starts at v's own coordinate on axis i (the
 * axes before it already moved, the ones after not yet) and SimGrid
 * decides a tie there, so every line along axis i carries the same legs,
 * one from each position: the load of an axis-i arc is the number of
 * positions x of one ring (line) of n_i whose leg x -> x + a_i covers it.
 * Counters: axis i's arcs at [off_i, off_i + 2 n_i), the + arc leaving x at
 * 2x, the - arc leaving x at 2x + 1; arcs_of(t) of them in all. */
static uint32_t arcs_of(const mg_topo *t) {
  uint32_t n = 0;
  for (int i = 0; i < t->d; i++)
    n += 2u * t->n[i];
  return n;
}

/* Adds 1 to every other counter from position lo to hi - 1 (stride 2,
 * around the line when wrap), by differences. */
static void cover(int64_t *diff, uint32_t n, uint32_t lo, uint32_t len, int minus) {
  uint32_t end = lo + len;
  if (end <= n) {
    diff[2 * lo + (uint32_t)minus]++, diff[2 * end + (uint32_t)minus]--;
  } else {
    diff[2 * lo + (uint32_t)minus]++, diff[2 * n + (uint32_t)minus]--;
    diff[(uint32_t)minus]++, diff[2 * (end - n) + (uint32_t)minus]--;
  }
}

/* Adds to cnt the legs of every node's message to v + a; diff holds
 * 2 max(n_i) + 2 scratch counters. */
static void add_routes(const mg_topo *t, uint32_t a, uint32_t *cnt, int64_t *diff) {
  uint32_t base = 0;
  for (int i = 0; i < t->d; i++) {
    uint32_t n = t->n[i], ai = a / t->stride[i] % n;
    if (ai) {
      memset(diff, 0, (2u * n + 2u) * sizeof *diff);
      for (uint32_t x = 0; x < n; x++) {
        uint32_t y = (x + ai) % n;
        int32_t off = t->wrap[i] ? mg_ring_offset_simgrid(n, x, y) : (int32_t)y - (int32_t)x;
        if (off > 0)
          cover(diff, n, x, (uint32_t)off, 0); /* + arcs leaving x .. y - 1 */
        else
          cover(diff, n, (y + 1) % n, (uint32_t)-off, 1); /* - arcs leaving y + 1 .. x */
      }
      int64_t run[2] = {0, 0};
      for (uint32_t e = 0; e < 2u * n; e++) {
        run[e % 2] += diff[e];
        cnt[base + e] += (uint32_t)run[e % 2];
      }
    }
    base += 2u * n;
  }
}

/* The busiest arc when every node sends to v + d for the r - 1 nonzero
 * digits d[1..r-1]; scratch holds arcs_of(t) counters and diff as above. */
static int load_of(const mg_topo *t, const uint32_t *d, int r, uint32_t *scratch, int64_t *diff) {
  uint32_t arcs = arcs_of(t);
  memset(scratch, 0, arcs * sizeof *scratch);
  for (int c = 1; c < r; c++)
    add_routes(t, d[c], scratch, diff);
  int worst = 0;
  for (uint32_t e = 0; e < arcs; e++)
    if (scratch[e] > (uint32_t)worst) worst = (int)scratch[e];
  return worst;
}

/* Scratch for load_of: counters and differences, one allocation. */
typedef struct dp_scratch {
  uint32_t *cnt;
  int64_t *diff;
} dp_scratch;

static mg_status scratch_new(const mg_topo *t, dp_scratch *s, mg_err *err) {
  uint32_t nmax = 0;
  for (int i = 0; i < t->d; i++)
    if (t->n[i] > nmax) nmax = t->n[i];
  s->cnt = mg_calloc(arcs_of(t), sizeof *s->cnt);
  s->diff = mg_calloc(2u * (uint64_t)nmax + 2u, sizeof *s->diff);
  if (s->cnt && s->diff) return MG_OK;
  free(s->cnt), free(s->diff);
  return mg_fail(err, MG_ERR_NOMEM, "digit plan: out of memory for %u nodes", t->N);
}

static void scratch_free(dp_scratch *s) { free(s->cnt), free(s->diff); }

/* Sets are compared by key = load * 2^20 + the hops of their digits:
 * the least busiest-arc load, then the fewest hops. */
#define MG_DP_KEY(load, hops) ((uint64_t)(load) * (1ull << 20) + (uint64_t)(hops))

typedef struct dp_sets {
  int r, k;
  uint32_t d[MG_DP_MAX_STEPS][MG_DP_MAX_RADIX]; /* d[j][0] = 0 */
} dp_sets;

static uint64_t set_key(const mg_topo *t, const uint32_t *d, int r, dp_scratch *scratch) {
  int h = 0;
  for (int c = 1; c < r; c++)
    h += hops_of(t, d[c]);
  return MG_DP_KEY(load_of(t, d, r, scratch->cnt, scratch->diff), h);
}

static mg_status sets_key(const mg_topo *t, const dp_sets *s, uint64_t *key, mg_err *err) {
  dp_scratch scratch;
  mg_status st = scratch_new(t, &scratch, err);
  if (st != MG_OK) return st;
  *key = 0;
  for (int j = 0; j < s->k; j++)
    *key += set_key(t, s->d[j], s->r, &scratch);
  scratch_free(&scratch);
  return MG_OK;
}

/* A candidate set: its r - 1 nonzero digits and key. */
typedef struct dp_cand {
  uint32_t d[MG_DP_MAX_RADIX];
  uint64_t key;
} dp_cand;

static int cand_cmp(const void *x, const void *y) {
  const dp_cand *p = x, *q = y;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  for (unsigned c = 1; c < MG_DP_MAX_RADIX; c++)
    if (p->d[c] != q->d[c]) return p->d[c] < q->d[c] ? -1 : 1;
  return 0;
}

typedef struct dp_search {
  const mg_topo *t;
  int r, k;
  const dp_cand *c;
  size_t nc;
  const uint32_t *sum; /* sum[a * N + b] = a + b */
  uint32_t *elems;     /* elems[0 .. r^depth): the sum set so far */
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
    size_t n = size, ok = 1;
    for (size_t e = 0; e < size && ok; e++)
      for (int c = 1; c < s->r && ok; c++) {
        uint32_t x = s->sum[(uint64_t)s->elems[e] * s->t->N + s->c[i].d[c]];
        s->work++;
        if (s->mark[x])
          ok = 0;
        else
          s->mark[x] = 1, s->elems[n++] = x;
      }
    if (ok) {
      s->chosen[depth] = i;
      dp_dfs(s, depth + 1, n, cost + s->c[i].key, i + 1);
    }
    for (size_t e = size; e < n; e++)
      s->mark[s->elems[e]] = 0;
  }
}

/* The plain digits, level 0 of every axis first. r = 3: {0, +3^l e_i,
 * -3^l e_i}. r = 4: the binary digits {0, 2^l e_i} in that order, two at
 * a time: {0, g, h, g + h}. */
static void plain(const mg_topo *t, int r, dp_sets *s) {
  uint32_t g[2 * MG_DP_MAX_STEPS];
  int ng = 0;
  s->r = r, s->k = 0;
  for (int l = 0;; l++) {
    int any = 0;
    for (int i = 0; i < t->d; i++) {
      uint32_t step = 1;
      for (int e = 0; e < l; e++)
        step *= r == 3 ? 3 : 2;
      if (step >= t->n[i]) continue;
      any = 1;
      if (r == 3) {
        s->d[s->k][0] = 0;
        s->d[s->k][1] = step * t->stride[i];
        s->d[s->k++][2] = (t->n[i] - step) * t->stride[i];
      } else
        g[ng++] = step * t->stride[i];
    }
    if (!any) break;
  }
  for (int j = 0; r == 4 && j + 1 < ng; j += 2) {
    s->d[s->k][0] = 0, s->d[s->k][1] = g[j], s->d[s->k][2] = g[j + 1];
    s->d[s->k++][3] = mg_dp_add(t, g[j], g[j + 1]);
  }
}

/* Every set of r - 1 nonzero digits in increasing order whose key is
 * below cut, into c. vec[(a - 1) * arcs + e]: the routes of every node's
 * message by digit a on arc e (add_routes, once per digit). */
static size_t list_sets(const mg_topo *t, int r, dp_cand *c, uint64_t cut, const uint32_t *vec) {
  size_t nc = 0;
  uint32_t N = t->N, arcs = arcs_of(t), d[MG_DP_MAX_RADIX] = {0};
  for (d[1] = 1; d[1] < N; d[1]++)
    for (d[2] = d[1] + 1; d[2] < N; d[2]++)
      for (d[3] = r == 4 ? d[2] + 1 : 0; r == 3 || d[3] < N; d[3]++) {
        int h = 0;
        uint32_t worst = 0;
        const uint32_t *v1 = vec + (uint64_t)(d[1] - 1) * arcs, *v2 = vec + (uint64_t)(d[2] - 1) * arcs;
        const uint32_t *v3 = r == 4 ? vec + (uint64_t)(d[3] - 1) * arcs : NULL;
        for (uint32_t e = 0; e < arcs; e++) {
          uint32_t l = v1[e] + v2[e] + (v3 ? v3[e] : 0);
          if (l > worst) worst = l;
        }
        for (int q = 1; q < r; q++)
          h += hops_of(t, d[q]);
        uint64_t key = MG_DP_KEY(worst, h);
        if (key < cut) {
          memcpy(c[nc].d, d, sizeof d);
          c[nc++].key = key;
        }
        if (r == 3) break;
      }
  return nc;
}

/* The depth-first search over every set, cheapest first, pruned by the
 * best sum so far (first *s's); replaces *s when it finds better. */
static mg_status search(const mg_topo *t, dp_sets *s, mg_err *err) {
  uint64_t best;
  mg_status st = sets_key(t, s, &best, err);
  if (st != MG_OK) return st;
  uint32_t N = t->N;
  uint64_t nsets = (uint64_t)(N - 1) * (N - 2) / 2;
  if (s->r == 4) nsets = nsets * (N - 3) / 3;
  dp_cand *c = mg_calloc(nsets ? nsets : 1, sizeof *c);
  uint32_t *elems = mg_calloc(N, sizeof *elems);
  unsigned char *mark = mg_calloc(N, 1);
  uint64_t arcs = arcs_of(t);
  dp_scratch scratch = {NULL, NULL};
  uint32_t *vec = mg_calloc(arcs * (N - 1), sizeof *vec);
  uint32_t *sum = mg_calloc((uint64_t)N * N, sizeof *sum);
  if (!c || !elems || !mark || !vec || !sum || scratch_new(t, &scratch, err) != MG_OK) {
    free(c), free(elems), free(mark), free(vec), free(sum);
    return mg_fail(err, MG_ERR_NOMEM, "digit plan: out of memory (%llu candidate sets)", (unsigned long long)nsets);
  }
  for (uint32_t a = 1; a < N; a++)
    add_routes(t, a, vec + (a - 1) * arcs, scratch.diff);
  scratch_free(&scratch);
  for (uint32_t a = 0; a < N; a++)
    for (uint32_t b = 0; b < N; b++)
      sum[(uint64_t)a * N + b] = mg_dp_add(t, a, b);
  /* a set can only help if it wins with every other set at load 1 and the fewest hops */
  uint64_t unit = MG_DP_KEY(1, s->r - 1), room = unit * (uint64_t)(s->k - 1);
  size_t nc = list_sets(t, s->r, c, best > room ? best - room : 0, vec);
  qsort(c, nc, sizeof *c, cand_cmp);
  dp_search d = {t, s->r, s->k, c, nc, sum, elems, mark, {0}, {0}, best, 0, 0};
  elems[0] = 0, mark[0] = 1;
  dp_dfs(&d, 0, 1, 0, 0);
  if (d.found)
    for (int j = 0; j < s->k; j++) {
      memcpy(s->d[j], c[d.best_set[j]].d, sizeof s->d[j]);
      s->d[j][0] = 0;
    }
  free(c), free(elems), free(mark), free(vec), free(sum);
  return MG_OK;
}

/* The best sets found for t: the plain digits; the search where t is
 * small; and, where r divides every side and some side exceeds r, the
 * lift G = A (+) r G' (the quotient Z_r^d's plan A, its digits written
 * as short offsets, and the plan of G', sides n_i / r, scaled by r; on
 * 27x27: 1 + 1 + 3 x 7 = 23 against the balanced 26). The least sum of
 * keys wins; ties keep the earlier. */
static mg_status best_sets(const mg_topo *t, int r, dp_sets *s, mg_err *err) {
  plain(t, r, s);
  mg_status st = MG_OK;
  if (t->N <= (r == 3 ? MG_DP_SEARCH_MAX_NODES3 : MG_DP_SEARCH_MAX_NODES4)) st = search(t, s, err);
  uint32_t n2[MG_MAX_DIMS], nq[MG_MAX_DIMS];
  int axis[MG_MAX_DIMS], d2 = 0;
  for (int i = 0; i < t->d; i++) {
    if (t->n[i] % (uint32_t)r) return st;
    nq[i] = (uint32_t)r;
    if (t->n[i] > (uint32_t)r) n2[d2] = t->n[i] / (uint32_t)r, axis[d2++] = i;
  }
  if (st != MG_OK || d2 == 0) return st;
  mg_topo tq, t2;
  dp_sets q, sub, lift;
  st = mg_topo_grid(&tq, t->d, nq, 1, err);
  if (st == MG_OK) st = mg_topo_grid(&t2, d2, n2, 1, err);
  if (st == MG_OK) st = best_sets(&tq, r, &q, err);
  if (st == MG_OK) st = best_sets(&t2, r, &sub, err);
  if (st != MG_OK) return st;
  lift.r = r, lift.k = 0;
  for (int j = 0; j < q.k; j++, lift.k++)
    for (int c = 0; c < r; c++) {
      uint32_t id = 0;
      for (int i = 0; i < t->d; i++) {
        int32_t o = mg_ring_offset_simgrid((uint32_t)r, 0, q.d[j][c] / tq.stride[i] % tq.n[i]);
        id += (uint32_t)(((int64_t)o + t->n[i]) % t->n[i]) * t->stride[i];
      }
      lift.d[lift.k][c] = id;
    }
  for (int j = 0; j < sub.k; j++, lift.k++)
    for (int c = 0; c < r; c++) {
      uint32_t id = 0;
      for (int i = 0; i < d2; i++)
        id += sub.d[j][c] / t2.stride[i] % t2.n[i] * (uint32_t)r * t->stride[axis[i]];
      lift.d[lift.k][c] = id;
    }
  uint64_t kl, ks;
  st = sets_key(t, &lift, &kl, err);
  if (st == MG_OK) st = sets_key(t, s, &ks, err);
  if (st == MG_OK && kl < ks) *s = lift;
  return st;
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
    for (int j = 0; j < p->k && ++ch[j] == p->r; j++) /* next choice, base r */
      ch[j] = 0;
  }
  free(seen);
  return MG_OK;
}

mg_status mg_digit_plan_build(const mg_topo *t, int r, int search_sets, mg_digit_plan *p, mg_err *err) {
  dp_sets s;
  memset(p, 0, sizeof *p);
  mg_status st = mg_digit_plan_check(t, r, "digit plan", err);
  if (st != MG_OK) return st;
  p->N = t->N;
  if (search_sets)
    st = best_sets(t, r, &s, err);
  else
    plain(t, r, &s);
  dp_scratch scratch;
  if (st == MG_OK) st = scratch_new(t, &scratch, err);
  if (st != MG_OK) return st;
  p->r = r, p->k = s.k;
  for (int j = 0; j < p->k; j++) {
    /* the step's messages longest route first: its bytes are on the wire while the node starts the
     * others (SMPI 4x4x4 at 4 KiB, calibrated model: 3.928 ms against 4.165 in the search's order) */
    uint32_t *d = p->digit[j];
    memcpy(d, s.d[j], sizeof p->digit[j]);
    for (int a = 1; a < r; a++)
      for (int b = a + 1; b < r; b++)
        if (hops_of(t, d[b]) > hops_of(t, d[a]) || (hops_of(t, d[b]) == hops_of(t, d[a]) && d[b] < d[a])) {
          uint32_t x = d[a];
          d[a] = d[b], d[b] = x;
        }
    p->load[j] = load_of(t, d, r, scratch.cnt, scratch.diff);
    p->hops[j] = hops_of(t, d[1]);
  }
  scratch_free(&scratch);
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

mg_status mg_digit_plan_params(const mg_topo *t, const mg_params *ps, int *radix, int *search, mg_err *err) {
  int64_t r = 0, v = 1;
  mg_status st = mg_param_int(ps, "radix", 0, 0, 4, &r, err);
  if (st == MG_OK) st = mg_param_int(ps, "search", 1, 0, 1, &v, err);
  if (st == MG_OK && r == 0) {
    r = 3;
    for (int i = 0; i < t->d; i++)
      if (levels_of(t->n[i], 3, 3) < 1) r = 4;
  }
  *radix = (int)r, *search = (int)v;
  return st;
}

const mg_param_desc mg_digit_plan_param_desc[] = {
    {"radix", "0",
     "3: sides powers of three, sets {0, a, b}; 4: sides powers of two and N a power of four, sets of four; 0: 3 "
     "where every side is a power of three, else 4"},
    {"search", "1",
     "1: the sets searched (or lifted) for the least busiest-arc load; 0: the plain digits (radix 3: the balanced "
     "digits of exchange-ternary and torus-ternary; radix 4: binary digits two at a time)"},
    {NULL, NULL, NULL}};

mg_status mg_digit_plan_check_algo(const mg_problem_spec *pb, const mg_params *ps, const mg_algo *a, mg_err *err) {
  int radix, search;
  if (pb->problem != a->problem)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s is %s algorithm", a->name,
                   a->problem == MG_GOSSIP ? "a gossip" : "an exchange");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s does not run on buses", a->name);
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s sends r - 1 messages a step: all-port", a->name);
  mg_status st = mg_digit_plan_params(&pb->topo, ps, &radix, &search, err);
  return st == MG_OK ? mg_digit_plan_check(&pb->topo, radix, a->name, err) : st;
}

mg_status mg_digit_plan_for(const mg_problem_spec *pb, const mg_params *ps, const mg_algo *a, int closed_form,
                            mg_digit_plan *p, double *startups, mg_err *err) {
  int radix, search;
  const mg_model *m = &pb->model;
  mg_status st = mg_digit_plan_check_algo(pb, ps, a, err);
  if (st != MG_OK) return st;
  if (closed_form && (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s: closed form under contention=shared only", a->name);
  if (closed_form && !mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s: closed form on tori and rings only", a->name);
  st = mg_digit_plan_params(&pb->topo, ps, &radix, &search, err);
  if (st == MG_OK) st = mg_digit_plan_build(&pb->topo, radix, search, p, err);
  if (st == MG_OK && startups) *startups = (double)((radix - 1 + 2 * pb->topo.d - 1) / (2 * pb->topo.d));
  return st;
}

/*
 * Reflected-pair doubling plans: the generator search behind torus-swing
 * (gossip) and exchange-swing (complete exchange); swing.c tells the
 * idea, after Swing (De Sensi, Bonato, Saam, Hoefler, NSDI 2024).
 *
 * A plan is k = log2 N generators and a sign rule. The search is a
 * depth-first search over generators, cheapest load first, that keeps the
 * plan of least weight sum_s load_s 2^s; it starts from Swing's product of
 * the rings' distance sequences (always a plan) and spends a fixed amount
 * of work, on up to 1024 nodes.
 */
#include "swing_plan.h"

#include <stdlib.h>
#include <string.h>

#define SW_SEARCH_NODES 1024u
#define SW_WORK         40000000ull /* membership probes the search may spend */

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

mg_status mg_swing_check_topo(const mg_topo *t, const char *algo, mg_err *err) {
  int wraps = 0;
  for (int i = 0; i < t->d; i++)
    wraps += t->wrap[i] != 0;
  if (t->kind != MG_TOPO_GRID || (wraps && wraps != t->d))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a torus, ring, mesh or line (it pairs by reflection)", algo);
  for (int i = 0; i < t->d; i++)
    if (!pow2(t->n[i]) || t->n[i] < 2)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs every side a power of two (side %u)", algo, t->n[i]);
  if (t->N > MG_SWING_MAX_NODES)
    return mg_fail(err, MG_ERR_TOO_LARGE, "%s runs on up to %u nodes", algo, MG_SWING_MAX_NODES);
  return MG_OK;
}

/* Signed component in (-n/2, n/2] of a coordinate difference. */
static int32_t wrap(int64_t a, uint32_t n) {
  int64_t r = ((a % (int64_t)n) + n) % n;
  return (int32_t)(2 * r > (int64_t)n ? r - n : r);
}

/* Node v's partner in the step of generator g. */
static uint32_t partner(const mg_topo *t, int rule, uint32_t v, const int32_t *g) {
  uint32_t x[MG_MAX_DIMS], y[MG_MAX_DIMS];
  mg_topo_coords(t, v, x);
  uint32_t sum = 0;
  for (int i = 0; i < t->d; i++)
    sum += x[i];
  for (int i = 0; i < t->d; i++) {
    int64_t sg = rule == MG_SWING_CHECKER ? (sum % 2 ? -1 : 1) : (x[i] % 2 ? -1 : 1);
    y[i] = (uint32_t)(((int64_t)x[i] + sg * g[i] % (int64_t)t->n[i] + t->n[i]) % t->n[i]);
  }
  return mg_topo_id(t, y);
}

/* Messages on the busiest arc when every node sends to its partner on
 * the routes of rule routes; cnt holds one counter per arc slot (zeroed here). */
static uint32_t route_load(const mg_topo *t, mg_routes routes, int rule, const int32_t *g, uint32_t *cnt) {
  memset(cnt, 0, (size_t)mg_topo_arc_slots(t) * sizeof *cnt);
  uint32_t worst = 0;
  for (uint32_t v = 0; v < t->N; v++) {
    mg_seg seg[MG_MAX_SEGS];
    int ns = mg_route_network(t, routes, v, partner(t, rule, v, g), seg);
    uint32_t cur = v;
    for (int s = 0; s < ns; s++) {
      int dir = seg[s].hops < 0 ? -1 : 1;
      for (int32_t h = 0; h < seg[s].hops * dir; h++) {
        uint32_t c = ++cnt[mg_arc_id(t, cur, seg[s].dim, dir)];
        if (c > worst) worst = c;
        cur = mg_topo_step(t, cur, seg[s].dim, dir);
      }
    }
  }
  return worst;
}

/* The plan must not depend on who routes it (the same schedule runs on
 * SimGrid, on another MPI's network, and is priced under either rule):
 * a step's load is the worse of the schedule's shortest routes and
 * SimGrid's, which differ only on half-ring ties. */
static uint32_t step_load(const mg_topo *t, int rule, const int32_t *g, uint32_t *cnt) {
  uint32_t a = route_load(t, MG_ROUTES_SCHEDULE, rule, g, cnt), b = route_load(t, MG_ROUTES_SIMGRID, rule, g, cnt);
  return a > b ? a : b;
}

static uint32_t len_of(const mg_topo *t, const int32_t *g) {
  uint32_t l = 0;
  for (int i = 0; i < t->d; i++)
    l += (uint32_t)abs(g[i]);
  return l;
}

/* The offset g + f(x) of member x: f negates every component
 * (checkerboard) or those where g is nonzero (axis). */
static uint32_t image(const mg_topo *t, int rule, const int32_t *g, const uint32_t *x) {
  uint32_t y[MG_MAX_DIMS];
  for (int i = 0; i < t->d; i++) {
    int64_t c = rule == MG_SWING_CHECKER || g[i] ? -(int64_t)x[i] : (int64_t)x[i];
    y[i] = (uint32_t)((((int64_t)g[i] + c) % (int64_t)t->n[i] + t->n[i]) % t->n[i]);
  }
  return mg_topo_id(t, y);
}

/* Search state: S as a list of member ids and a membership mask. */
typedef struct sw_search {
  const mg_topo *t;
  int rule, k, ncand;
  int32_t (*cand)[MG_MAX_DIMS];
  uint32_t *cload;
  uint32_t *mem, *xs; /* members, their coordinates */
  unsigned char *in;
  uint64_t work;
  mg_swing cur, *best;
} sw_search;

static void dfs(sw_search *sr, int s, uint64_t nmem, uint64_t weight) {
  const mg_topo *t = sr->t;
  if (s == sr->k) {
    if (weight < sr->best->weight) {
      *sr->best = sr->cur;
      sr->best->weight = weight;
    }
    return;
  }
  uint64_t rest = ((uint64_t)1 << sr->k) - ((uint64_t)1 << (s + 1)); /* later steps at load 1 */
  for (int c = 0; c < sr->ncand; c++) {
    if (weight + (uint64_t)sr->cload[c] * nmem + rest >= sr->best->weight) break; /* loads ascend */
    if (sr->work > SW_WORK) return;
    const int32_t *g = sr->cand[c];
    uint64_t i;
    for (i = 0; i < nmem; i++) {
      sr->work++;
      if (sr->in[image(t, sr->rule, g, sr->xs + i * MG_MAX_DIMS)]) break;
    }
    if (i < nmem) continue;
    for (i = 0; i < nmem; i++) {
      uint32_t y = image(t, sr->rule, g, sr->xs + i * MG_MAX_DIMS);
      sr->in[y] = 1;
      sr->mem[nmem + i] = y;
      mg_topo_coords(t, y, sr->xs + (nmem + i) * MG_MAX_DIMS);
    }
    memcpy(sr->cur.g[s], g, sizeof sr->cur.g[s]);
    sr->cur.load[s] = sr->cload[c];
    dfs(sr, s + 1, 2 * nmem, weight + (uint64_t)sr->cload[c] * nmem);
    for (i = 0; i < nmem; i++)
      sr->in[sr->mem[nmem + i]] = 0;
  }
}

typedef struct sw_cand_key {
  uint32_t load, len, id;
} sw_cand_key;

static int key_cmp(const void *pa, const void *pb) {
  const sw_cand_key *a = pa, *b = pb;
  if (a->load != b->load) return a->load < b->load ? -1 : 1;
  if (a->len != b->len) return a->len < b->len ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

/* Generator of offset id v, components in (-n/2, n/2]. */
static void comps(const mg_topo *t, uint32_t v, int32_t *g) {
  uint32_t x[MG_MAX_DIMS];
  mg_topo_coords(t, v, x);
  memset(g, 0, sizeof(int32_t) * MG_MAX_DIMS);
  for (int i = 0; i < t->d; i++)
    g[i] = wrap(x[i], t->n[i]);
}

static int valid(const mg_topo *t, int rule, const int32_t *g) {
  int64_t sum = 0, nz = 0;
  for (int i = 0; i < t->d; i++) {
    sum += g[i];
    nz += g[i] != 0;
    if (rule == MG_SWING_AXIS && g[i] % 2 == 0 && g[i]) return 0;
  }
  return nz && (rule == MG_SWING_AXIS || sum % 2);
}

/* Swing's product plan: on each ring rho_j = (1 - (-2)^(j+1)) / 3 for
 * j = log2 n - 1 down to 0, the dimensions merged by decreasing |rho|. */
static void product_plan(const mg_topo *t, mg_swing *pl) {
  int next[MG_MAX_DIMS];
  memset(pl, 0, sizeof *pl);
  pl->rule = MG_SWING_AXIS;
  for (int i = 0; i < t->d; i++) {
    next[i] = 0;
    while ((1u << next[i]) < t->n[i])
      next[i]++;
    next[i]--; /* the largest j of dimension i */
  }
  for (;;) {
    int best = -1;
    int64_t br = 0;
    for (int i = 0; i < t->d; i++) {
      if (next[i] < 0) continue;
      int64_t p = 1;
      for (int e = 0; e <= next[i]; e++)
        p *= -2;
      int64_t r = (1 - p) / 3;
      if (best < 0 || llabs(r) > llabs(br)) best = i, br = r;
    }
    if (best < 0) break;
    pl->g[pl->k][best] = wrap(br, t->n[best]);
    pl->k++;
    next[best]--;
  }
}

/* Loads and weight of a plan; 0 if a step's image meets S (never for
 * the plans made here: the check keeps a broken plan from being emitted). */
static int score(const mg_topo *t, mg_swing *pl, uint32_t *cnt, unsigned char *in, uint32_t *mem, uint32_t *xs) {
  uint64_t nmem = 1;
  memset(in, 0, t->N);
  in[0] = 1;
  mem[0] = 0;
  memset(xs, 0, sizeof(uint32_t) * MG_MAX_DIMS);
  pl->weight = 0;
  for (int s = 0; s < pl->k; s++) {
    for (uint64_t i = 0; i < nmem; i++) {
      uint32_t y = image(t, pl->rule, pl->g[s], xs + i * MG_MAX_DIMS);
      if (in[y]) return 0;
      in[y] = 1;
      mem[nmem + i] = y;
      mg_topo_coords(t, y, xs + (nmem + i) * MG_MAX_DIMS);
    }
    pl->load[s] = step_load(t, pl->rule, pl->g[s], cnt);
    pl->weight += (uint64_t)pl->load[s] * nmem;
    nmem *= 2;
  }
  return nmem == t->N;
}

/* The search is a pure function of the shape and takes about a second on
 * 16x16, and tune and auto ask for it once per candidate: each thread
 * keeps the last plan searched. */
static _Thread_local struct {
  int valid;
  mg_topo_kind kind;
  int d;
  uint32_t n[MG_MAX_DIMS];
  mg_swing pl;
} sw_last;

static int sw_last_is(const mg_topo *t) {
  return sw_last.valid && sw_last.kind == t->kind && sw_last.d == t->d &&
         !memcmp(sw_last.n, t->n, sizeof(uint32_t) * (size_t)t->d);
}

mg_status mg_swing_plan(const mg_topo *mesh_or_torus, int product, mg_swing *pl, mg_err *err) {
  /* a mesh takes its torus twin's plan: the same pairs, those that wrap on
   * the torus routed the long way round */
  mg_topo twin = *mesh_or_torus;
  for (int i = 0; i < twin.d; i++)
    twin.wrap[i] = 1;
  const mg_topo *t = &twin;
  if (!product && sw_last_is(t)) {
    *pl = sw_last.pl;
    return MG_OK;
  }
  mg_status st = MG_OK;
  uint32_t N = t->N;
  uint32_t *cnt = mg_calloc(mg_topo_arc_slots(t), sizeof(uint32_t));
  unsigned char *in = mg_calloc(N, 1);
  uint32_t *mem = mg_calloc(N, sizeof(uint32_t));
  uint32_t *xs = mg_calloc((uint64_t)N * MG_MAX_DIMS, sizeof(uint32_t));
  int searching = !product && N <= SW_SEARCH_NODES;
  sw_cand_key *keys = searching ? mg_calloc(N, sizeof *keys) : NULL;
  int32_t(*cand)[MG_MAX_DIMS] = searching ? mg_calloc(N, sizeof *cand) : NULL;
  uint32_t *cload = searching ? mg_calloc(N, sizeof(uint32_t)) : NULL;
  if (!cnt || !in || !mem || !xs || (searching && (!keys || !cand || !cload))) {
    st = mg_fail(err, MG_ERR_NOMEM, "swing plan: out of memory");
    goto out;
  }
  product_plan(t, pl);
  if (!score(t, pl, cnt, in, mem, xs)) {
    st = mg_fail(err, MG_ERR_UNSUPPORTED, "swing plan: the product plan does not double");
    goto out;
  }
  if (!searching) goto out;
  for (int rule = MG_SWING_CHECKER; rule <= MG_SWING_AXIS; rule++) {
    if (rule == MG_SWING_AXIS && t->d == 1) break; /* on a ring the two rules agree */
    int nc = 0;
    for (uint32_t v = 1; v < N; v++) {
      int32_t g[MG_MAX_DIMS];
      comps(t, v, g);
      if (!valid(t, rule, g)) continue;
      keys[nc++] = (sw_cand_key){step_load(t, rule, g, cnt), len_of(t, g), v};
    }
    qsort(keys, (size_t)nc, sizeof *keys, key_cmp);
    for (int c = 0; c < nc; c++) {
      comps(t, keys[c].id, cand[c]);
      cload[c] = keys[c].load;
    }
    mg_swing best = *pl;
    sw_search sr = {t, rule, pl->k, nc, cand, cload, mem, xs, in, 0, {0}, &best};
    sr.cur.k = pl->k;
    sr.cur.rule = rule;
    memset(in, 0, N);
    in[0] = 1;
    mem[0] = 0;
    memset(xs, 0, sizeof(uint32_t) * MG_MAX_DIMS);
    dfs(&sr, 0, 1, 0);
    if (best.weight < pl->weight) {
      uint64_t w = best.weight;
      *pl = best;
      if (!score(t, pl, cnt, in, mem, xs) || pl->weight != w) {
        st = mg_fail(err, MG_ERR_UNSUPPORTED, "swing plan: the searched plan does not double");
        goto out;
      }
    }
  }
out:
  free(cnt);
  free(in);
  free(mem);
  free(xs);
  free(keys);
  free(cand);
  free(cload);
  if (st == MG_OK && !product) {
    sw_last.valid = 1;
    sw_last.kind = t->kind;
    sw_last.d = t->d;
    memcpy(sw_last.n, t->n, sizeof(uint32_t) * (size_t)t->d);
    sw_last.pl = *pl;
  }
  return st;
}

uint32_t mg_swing_partner(const mg_topo *t, const mg_swing *pl, int s, uint32_t v) {
  return partner(t, pl->rule, v, pl->g[s]);
}

uint32_t mg_swing_len(const mg_topo *t, const mg_swing *pl, int s) { return len_of(t, pl->g[s]); }

mg_status mg_swing_route_loads(const mg_topo *t, mg_routes routes, const mg_swing *pl, uint32_t *load, mg_err *err) {
  uint32_t *cnt = mg_calloc(mg_topo_arc_slots(t), sizeof(uint32_t));
  if (!cnt) return mg_fail(err, MG_ERR_NOMEM, "swing plan: out of memory");
  for (int s = 0; s < pl->k; s++)
    load[s] = route_load(t, routes, pl->rule, pl->g[s], cnt);
  free(cnt);
  return MG_OK;
}

void mg_swing_reach(const mg_topo *t, const mg_swing *pl, unsigned char *reach) {
  uint32_t N = t->N, x[MG_MAX_DIMS];
  unsigned char *last = reach + (uint64_t)(pl->k - 1) * N;
  memset(last, 0, N);
  last[0] = 1;
  for (int s = pl->k - 2; s >= 0; s--) {
    unsigned char *cur = reach + (uint64_t)s * N, *nxt = reach + (uint64_t)(s + 1) * N;
    memcpy(cur, nxt, N);
    for (uint32_t y = 0; y < N; y++)
      if (nxt[y]) {
        mg_topo_coords(t, y, x);
        cur[image(t, pl->rule, pl->g[s + 1], x)] = 1;
      }
  }
}

int mg_swing_informs(const mg_topo *t, const mg_swing *pl, const unsigned char *reach, int s, uint32_t p, uint32_t w) {
  uint32_t xp[MG_MAX_DIMS], xw[MG_MAX_DIMS], y[MG_MAX_DIMS], sum = 0;
  mg_topo_coords(t, p, xp);
  mg_topo_coords(t, w, xw);
  for (int i = 0; i < t->d; i++)
    sum += xp[i];
  /* w = p + sigma(p) y: y = sigma(p) (w - p), sigma an involution */
  for (int i = 0; i < t->d; i++) {
    int neg = pl->rule == MG_SWING_CHECKER ? sum % 2 : xp[i] % 2;
    int64_t d = ((int64_t)xw[i] - xp[i] + t->n[i]) % t->n[i];
    y[i] = (uint32_t)(neg ? (t->n[i] - d) % t->n[i] : d);
  }
  return reach[(uint64_t)s * t->N + mg_topo_id(t, y)];
}

mg_status mg_swing_price(const mg_problem_spec *pb, const mg_params *ps, const char *algo, double *cost, mg_err *err) {
  mg_swing pl;
  uint32_t load[MG_SWING_MAX_STEPS];
  int64_t merge, product;
  const mg_model *m = &pb->model;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s: closed form under contention=shared only", algo);
  mg_status st = mg_param_int(ps, "merge", 1, 1, MG_SWING_MAX_MERGE, &merge, err);
  /* merged rounds mix messages of several lengths on an arc: simulated only */
  if (st == MG_OK && merge > 1) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s: closed form for merge=1 only", algo);
  if (st == MG_OK && !mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "%s: closed form on tori and rings only (a mesh's long ways round share arcs)", algo);
  if (st == MG_OK) st = mg_param_int(ps, "product", 0, 0, 1, &product, err);
  if (st == MG_OK) st = mg_swing_plan(&pb->topo, (int)product, &pl, err);
  if (st == MG_OK) st = mg_swing_route_loads(&pb->topo, m->routes, &pl, load, err);
  if (st != MG_OK) return st;
  double c = 0;
  for (int s = 0; s < pl.k; s++) {
    double blocks = pb->problem == MG_EXCHANGE ? (double)(pb->topo.N / 2) : (double)((uint64_t)1 << s);
    c += m->ts + mg_swing_len(&pb->topo, &pl, s) * m->td + (double)load[s] * blocks * pb->bytes * m->tl;
  }
  *cost = c;
  return MG_OK;
}

mg_status mg_swing_setup(const mg_topo *t, const mg_params *ps, mg_swing *pl, int *bound, int *rounds, mg_err *err) {
  int64_t merge, skip, product;
  mg_status st = mg_param_int(ps, "merge", 1, 1, MG_SWING_MAX_MERGE, &merge, err);
  if (st == MG_OK) st = mg_param_int(ps, "skip", 0, 0, MG_SWING_MAX_STEPS, &skip, err);
  if (st == MG_OK) st = mg_param_int(ps, "product", 0, 0, 1, &product, err);
  if (st != MG_OK || !t) return st;
  st = mg_swing_plan(t, (int)product, pl, err);
  if (st != MG_OK) return st;
  int k = pl->k;
  int r = 0, s = 0;
  bound[0] = 0;
  while (s < k) {
    s += s < skip ? 1 : (int)merge;
    if (s > k) s = k;
    bound[++r] = s;
  }
  *rounds = r;
  return MG_OK;
}

uint32_t mg_swing_group(const mg_topo *t, const mg_swing *pl, int s0, int s1, uint32_t v, uint32_t *members) {
  uint32_t n = 1;
  members[0] = v;
  for (int s = s0; s < s1; s++)
    for (uint32_t i = 0, m = n; i < m; i++)
      members[n++] = mg_swing_partner(t, pl, s, members[i]);
  return n;
}

uint32_t mg_swing_carry(const mg_topo *t, const mg_swing *pl, const unsigned char *reach, int s0, int s1, uint32_t v,
                        uint32_t w) {
  for (int s = s0; s < s1; s++) {
    uint32_t p = mg_swing_partner(t, pl, s, v);
    if (mg_swing_informs(t, pl, reach, s, p, w)) v = p;
  }
  return v;
}

mg_status mg_swing_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                              mg_err *err) {
  for (int product = 0; product <= 1; product++)
    for (int merge = 1; merge <= 3; merge++)
      for (int skip = 0; skip <= (merge == 1 ? 0 : 2); skip++) {
        mg_params ps;
        memset(&ps, 0, sizeof ps);
        mg_status st = mg_params_set_int(&ps, "merge", merge, err);
        if (st == MG_OK && product) st = mg_params_set_int(&ps, "product", 1, err);
        if (st == MG_OK && skip) st = mg_params_set_int(&ps, "skip", skip, err);
        if (st == MG_OK) st = visit(arg, &ps);
        if (st != MG_OK) return st;
      }
  (void)pb;
  return MG_OK;
}

/*
 * torus-swing — recursive doubling by reflected pairs, Swing's idea
 * generalized to tori of any dimension and searched for short,
 * arc-disjoint steps.
 *
 * De Sensi, Hoefler et al. ("Swing: Short-cutting Rings for Higher
 * Bandwidth Allreduce", NSDI 2024) pair rank r in step s with
 * r + rho_s if r is even and r - rho_s if it is odd, rho_s =
 * (1 - (-2)^(s+1)) / 3 = 1, -1, 3, -5, 11, ...: the even ranks' messages
 * go one way round the ring and the odd ranks' the other, so a step of
 * distance |rho| loads an arc with about |rho| / 2 messages instead of
 * |rho|. Run backwards (the long distances first, while the messages are
 * small) it is an allgather with one message per node per step.
 *
 * Write a node's sign as sigma(v) = +1 or -1 and pair v with
 * v + sigma(v) g in the step of generator g. Two sign rules pair
 * consistently (the partner's sign is the opposite one):
 *   checkerboard: sigma(v) = (-1)^(x_0 + .. + x_(d-1)), g of odd
 *     coordinate sum; node v then holds v + sigma(v) S, and a step maps
 *     S to S u (g - S);
 *   axis: a sign per coordinate, (-1)^(x_i), every nonzero g_i odd; v
 *     holds v + sigma(v) . S (component-wise) and a step maps S to
 *     S u (g + R_g S), R_g negating the components where g is nonzero.
 * The step doubles what every node holds exactly when S and its image
 * are disjoint, and the gossip is complete when S is the whole group
 * (N = 2^k, every side even). Swing on a ring is the axis rule with
 * g = rho_(k-1), .., rho_0; on a torus its per-dimension sequences
 * interleave (the product plan, built first: it always exists).
 *
 * What is new is the search. Under the checkerboard rule a generator with
 * every |g_i| <= 2 puts one message on each arc it uses (the senders that
 * could share an arc are an even offset apart, and the odd ones go the
 * other way), so the knight's moves (1,2), (2,1) and the unit steps are
 * contention-free. A depth-first search over generators, cheapest load
 * first, keeps the plan of least weight sum_s load_s 2^s (blocks on the
 * busiest arcs; a load is the worse of the schedule's shortest routes and
 * SimGrid's, which differ on half-ring ties only, so one plan serves
 * every network). On torus:8x8 it finds (-1,0), (0,-1),
 * (-2,1), (2,1), (-1,-2), (-1,2): six contention-free steps, weight 63
 * (Swing's product plan: loads 2, 2, 1, 1, 1, 1, weight 66; torus-doubling's
 * translations weigh 80 on SimGrid's routes, whose ties go + from all but
 * one coordinate: by Redei's theorem one of its generators is a half-ring
 * step). 4x4x4 and 8x8x8 are contention-free as
 * well (tests/test_torus_swing.c); on ring:64 the search returns Swing's
 * own distances.
 *
 * Rounds: k = log2 N, one message per node per step (the partner lacks
 * everything the sender holds: 2^s blocks in step s).
 * Cost (wormhole or circuit, contention=shared):
 *   sum_s ts + |g_s|_1 td + load(g_s) 2^s m tl.
 * Restrictions: tori and rings with N a power of two and every side even
 * (the signs need even sides); the search runs up to 1024 nodes and a
 * fixed amount of work, larger tori (up to 16384 nodes) take the product
 * plan; shared arcs.
 * Rounding: none.
 */
#include "../algo_internal.h"

#include <stdlib.h>
#include <string.h>

#define SW_MAX_STEPS    32
#define SW_SEARCH_NODES 1024u
#define SW_MAX_NODES    16384u
#define SW_WORK         40000000ull /* membership probes the search may spend */

enum { SW_CHECKER, SW_AXIS };

typedef struct sw_plan {
  int k, rule;
  int32_t g[SW_MAX_STEPS][MG_MAX_DIMS];
  uint32_t load[SW_MAX_STEPS];
  uint64_t weight;
} sw_plan;

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

static mg_status sw_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  const mg_topo *t = &pb->topo;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing is a gossip algorithm");
  if (t->kind != MG_TOPO_GRID || !mg_topo_is_torus(t))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing needs a torus or ring (it pairs by reflection)");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing does not run on buses");
  for (int i = 0; i < t->d; i++)
    if (!pow2(t->n[i]) || t->n[i] < 2)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing needs every side a power of two (side %u)", t->n[i]);
  if (t->N > SW_MAX_NODES) return mg_fail(err, MG_ERR_TOO_LARGE, "torus-swing runs on up to %u nodes", SW_MAX_NODES);
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
    int64_t sg = rule == SW_CHECKER ? (sum % 2 ? -1 : 1) : (x[i] % 2 ? -1 : 1);
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
    int64_t c = rule == SW_CHECKER || g[i] ? -(int64_t)x[i] : (int64_t)x[i];
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
  sw_plan cur, *best;
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
    if (rule == SW_AXIS && g[i] % 2 == 0 && g[i]) return 0;
  }
  return nz && (rule == SW_AXIS || sum % 2);
}

/* Swing's product plan: on each ring rho_j = (1 - (-2)^(j+1)) / 3 for
 * j = log2 n - 1 down to 0, the dimensions merged by decreasing |rho|. */
static void product_plan(const mg_topo *t, sw_plan *pl) {
  int next[MG_MAX_DIMS];
  memset(pl, 0, sizeof *pl);
  pl->rule = SW_AXIS;
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
static int score(const mg_topo *t, sw_plan *pl, uint32_t *cnt, unsigned char *in, uint32_t *mem, uint32_t *xs) {
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

static mg_status make_plan(const mg_topo *t, sw_plan *pl, mg_err *err) {
  mg_status st = MG_OK;
  uint32_t N = t->N;
  uint32_t *cnt = mg_calloc(mg_topo_arc_slots(t), sizeof(uint32_t));
  unsigned char *in = mg_calloc(N, 1);
  uint32_t *mem = mg_calloc(N, sizeof(uint32_t));
  uint32_t *xs = mg_calloc((uint64_t)N * MG_MAX_DIMS, sizeof(uint32_t));
  int searching = N <= SW_SEARCH_NODES;
  sw_cand_key *keys = searching ? mg_calloc(N, sizeof *keys) : NULL;
  int32_t(*cand)[MG_MAX_DIMS] = searching ? mg_calloc(N, sizeof *cand) : NULL;
  uint32_t *cload = searching ? mg_calloc(N, sizeof(uint32_t)) : NULL;
  if (!cnt || !in || !mem || !xs || (searching && (!keys || !cand || !cload))) {
    st = mg_fail(err, MG_ERR_NOMEM, "torus-swing: out of memory");
    goto out;
  }
  product_plan(t, pl);
  if (!score(t, pl, cnt, in, mem, xs)) {
    st = mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing: the product plan does not double");
    goto out;
  }
  if (!searching) goto out;
  for (int rule = SW_CHECKER; rule <= SW_AXIS; rule++) {
    if (rule == SW_AXIS && t->d == 1) break; /* on a ring the two rules agree */
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
    sw_plan best = *pl;
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
        st = mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing: the searched plan does not double");
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
  return st;
}

static mg_status sw_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  sw_plan pl;
  mg_emit e;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = sw_check(pb, ps, err);
  if (st == MG_OK) st = make_plan(t, &pl, err);
  if (st != MG_OK) return st;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-swing", ps, 1, 0, pl.k, err));
  for (int s = 0; s < pl.k; s++) {
    for (uint32_t v = 0; v < t->N; v++) {
      /* v sends all it holds: its partner holds the disjoint reflection */
      mg_transfer tr = mg_xfer(v, partner(t, pl.rule, v, pl.g[s]));
      tr.sel.flags = MG_SEL_MINUS_DST;
      MG_CHECK(mg_emit_add(&e, &tr, err));
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status sw_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  sw_plan pl;
  mg_status st = sw_check(pb, ps, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-swing: closed form under contention=shared only");
  st = make_plan(&pb->topo, &pl, err);
  if (st != MG_OK) return st;
  /* priced on the routes of the model's rule */
  uint32_t *cnt = mg_calloc(mg_topo_arc_slots(&pb->topo), sizeof(uint32_t));
  if (!cnt) return mg_fail(err, MG_ERR_NOMEM, "torus-swing: out of memory");
  double c = 0;
  for (int s = 0; s < pl.k; s++) {
    uint32_t load = route_load(&pb->topo, m->routes, pl.rule, pl.g[s], cnt);
    c += m->ts + len_of(&pb->topo, pl.g[s]) * m->td + (double)load * (double)((uint64_t)1 << s) * pb->bytes * m->tl;
  }
  free(cnt);
  *cost = c;
  return MG_OK;
}

static const mg_param_desc sw_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_torus_swing = {
    .name = "torus-swing",
    .problem = MG_GOSSIP,
    .summary = "recursive doubling by reflected pairs (Swing), generators searched for arc-disjoint steps",
    .paper = "after Swing (De Sensi, Hoefler et al., NSDI 2024)",
    .restrictions = "tori and rings up to 16384 nodes, every side a power of two; search up to 1024 nodes; shared arcs",
    .rounding = "none",
    .params = sw_params,
    .needs_shared = 1,
    .check = sw_check,
    .generate = sw_generate,
    .closed_form = sw_closed_form,
};

/*
 * torus-doubling — recursive doubling on a torus of any side lengths with
 * one message per node per step, on short translation-invariant
 * generators.
 *
 * The torus is the group Z_{n0} x ... x Z_{n(d-1)}. Pick generators
 * g_0 .. g_{k-1}; in step s every node v receives from v + g_s everything
 * that node holds and v lacks. By translation, node v holds v + S_s with
 * S_0 = {0}, S_{s+1} = S_s u (S_s + g_s): the subset sums of the
 * generators so far, and the gossip is complete when they cover the group.
 * For N = 2^k the sums can be all distinct (every step doubles, one message
 * of |S_s| blocks); otherwise the last steps overlap and carry only what
 * the receiver lacks (D_s = (S_s + g_s) \ S_s), as Bruck et al.'s
 * allgather (IEEE TPDS 1997) does for non-powers of two.
 *
 * What is new against recursive doubling and Bruck on a torus is the
 * choice of generators. A step with generator g routed in dimension order
 * loads every arc of direction (i, sign g_i) with exactly |g_i| messages
 * (every node sends the same shape), so its price under shared arcs is
 * ts + |g|_1 td + max_i |g_i| |D_s| (m/P) tl; a component of half the
 * ring goes + from even and - from odd coordinates, which halves its load
 * to ceil(|g_i| / 2). Distance-halving schemes on
 * tori (Bine trees; De Sensi, Hoefler et al., "Swing: Short-cutting Rings
 * for Higher Bandwidth Allreduce", NSDI 2024) keep peers close for the same
 * reason. Here the generators are found by a greedy search: each step takes
 * the g that covers the most new offsets, ties broken by the least load
 * max_i |g_i|, then by |g|_1, so diagonal generators such as (1,1), (1,-1)
 * are used where they double the set as well as an axis step does; on up
 * to 128 nodes 200 randomized runs of it (199 picking among the near-best
 * candidates) are tried and the plan with the fewest steps, then the least
 * weight sum_s load_s |D_s|, is kept. The
 * union of the sums does not depend on the order of the steps, so the steps
 * then run in order of decreasing load: the long-distance ones carry the
 * small early messages. On torus:8x8 this gives (4,0), (0,4), (2,2)...
 * (loads 2, 2, 2, 1, 1, 1) where recursive doubling in rank order has
 * 1, 2, 4, 1, 2, 4 with the large messages on the long distances.
 *
 * ports=p (1, 2 or 4): every block is cut into p pieces; piece j runs the
 * same steps under a symmetry of the torus (identity, negation, the swap
 * of axes 0 and 1 on square ones or the reflection of axis 0, then its
 * negation), so that its messages leave on other arcs: p messages per
 * node and step.
 *
 * Rounds: k = the number of generators: ceil(log2 N) on 8x8, 9x9, 16x16,
 * 27x27, 4x4x4, 3x5, rings; one more on 3x4x5 (tests/test_torus_doubling.c).
 * Cost (ports=1, wormhole or circuit, contention=shared):
 *   sum_s ts + |g_s|_1 td + load(g_s) |D_s| m tl;
 * the closed form computes it from the generators (no simulation).
 * Restrictions: tori and rings (translations need every dimension to
 * wrap), up to 16384 nodes (the search is O(k N^2)); not contention-free
 * (priced under contention=shared); ports=1 runs one-port.
 * Rounding: none; P = ports pieces.
 *
 * Trace, ring:8, ports=1: generators 4, 2, 1 in that order (loads 2, 2,
 * 1): step 0 node v gets block v+4 (4 hops, + from even v+4, - from odd),
 * step 1 blocks {v+2, v+6} from v+2, step 2 four blocks from v+1.
 */
#include "../algo_internal.h"

#include <stdlib.h>
#include <string.h>

#define TD_MAX_NODES 16384u
#define TD_MAX_STEPS 64

typedef struct td_plan {
  int k;
  int32_t g[TD_MAX_STEPS][MG_MAX_DIMS]; /* signed shortest components */
  uint64_t newcount[TD_MAX_STEPS];      /* |D_s| */
} td_plan;

static mg_status ports_of(const mg_params *ps, int64_t *p, mg_err *err) {
  mg_status st = mg_param_int(ps, "ports", 1, 1, 4, p, err);
  if (st == MG_OK && *p == 3) return mg_fail(err, MG_ERR_INVALID, "torus-doubling: ports must be 1, 2 or 4");
  return st;
}

static mg_status td_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t p;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling is a gossip algorithm");
  if (pb->topo.kind != MG_TOPO_GRID || !mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling needs a torus or ring (it translates its steps)");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling does not run on buses");
  if (pb->topo.N > TD_MAX_NODES)
    return mg_fail(err, MG_ERR_TOO_LARGE, "torus-doubling searches generators on up to %u nodes", TD_MAX_NODES);
  mg_status st = ports_of(ps, &p, err);
  if (st != MG_OK) return st;
  if (p == 4 && pb->topo.d < 2) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling: ports=4 needs 2 dimensions");
  if (p > 1 && pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling with ports=%lld sends %lld messages a step: all-port",
                   (long long)p, (long long)p);
  return MG_OK;
}

/* id of the offset x + g (coordinates mod n). */
static uint32_t add_off(const mg_topo *t, const uint32_t *x, const int32_t *g) {
  uint32_t y[MG_MAX_DIMS];
  for (int i = 0; i < t->d; i++)
    y[i] = (uint32_t)(((int64_t)x[i] + g[i] % (int64_t)t->n[i] + t->n[i]) % t->n[i]);
  return mg_topo_id(t, y);
}

/* 1 if component i of g is half the ring: the senders split by parity. */
static int half(const mg_topo *t, const int32_t *g, int i) {
  return t->n[i] % 2 == 0 && (uint32_t)abs(g[i]) == t->n[i] / 2;
}

/* Messages on the busiest arc of a step: |g_i| along axis i, or
 * ceil(|g_i| / 2) when g_i is half the ring and the even senders go one
 * way round and the odd ones the other. */
static uint32_t load_of(const mg_topo *t, const int32_t *g) {
  uint32_t l = 0;
  for (int i = 0; i < t->d; i++) {
    uint32_t a = (uint32_t)abs(g[i]);
    if (half(t, g, i)) a = (a + 1) / 2;
    if (a > l) l = a;
  }
  return l;
}

static uint32_t len_of(const mg_topo *t, const int32_t *g) {
  uint32_t l = 0;
  for (int i = 0; i < t->d; i++)
    l += (uint32_t)abs(g[i]);
  return l;
}

/* Signed shortest components of offset id v (ties +). */
static void comps(const mg_topo *t, uint32_t v, int32_t *g) {
  for (int i = 0; i < MG_MAX_DIMS; i++)
    g[i] = 0;
  for (int i = 0; i < t->d; i++)
    g[i] = (int32_t)mg_topo_offset(t, i, 0, v);
}

/* Members of S (a 0/1 array) as coordinates. */
static size_t members(const mg_topo *t, const unsigned char *in, uint32_t *xs) {
  size_t n = 0;
  for (uint32_t v = 0; v < t->N; v++)
    if (in[v]) mg_topo_coords(t, v, xs + n++ * MG_MAX_DIMS);
  return n;
}

typedef struct td_cand {
  uint64_t gain;
  uint32_t load, len, v;
} td_cand;

static int cand_cmp(const void *pa, const void *pb) {
  const td_cand *a = pa, *b = pb;
  if (a->gain != b->gain) return a->gain > b->gain ? -1 : 1;
  if (a->load != b->load) return a->load < b->load ? -1 : 1;
  if (a->len != b->len) return a->len < b->len ? -1 : 1;
  return a->v < b->v ? -1 : a->v > b->v;
}

static uint64_t td_rand(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Orders the steps by decreasing load (stable) and counts |D_s|; returns
 * the plan's weight sum_s load_s |D_s| (blocks on the busiest arcs). */
static uint64_t finish(const mg_topo *t, td_plan *pl, unsigned char *in, uint32_t *xs) {
  uint64_t w = 0;
  for (int a = 1; a < pl->k; a++)
    for (int b = a; b > 0 && load_of(t, pl->g[b]) > load_of(t, pl->g[b - 1]); b--) {
      int32_t tmp[MG_MAX_DIMS];
      memcpy(tmp, pl->g[b], sizeof tmp);
      memcpy(pl->g[b], pl->g[b - 1], sizeof tmp);
      memcpy(pl->g[b - 1], tmp, sizeof tmp);
    }
  memset(in, 0, t->N);
  in[0] = 1;
  for (int s = 0; s < pl->k; s++) {
    size_t ns = members(t, in, xs);
    uint64_t gain = 0;
    for (size_t i = 0; i < ns; i++) {
      uint32_t v = add_off(t, xs + i * MG_MAX_DIMS, pl->g[s]);
      gain += !in[v];
      in[v] = 1;
    }
    pl->newcount[s] = gain;
    w += gain * load_of(t, pl->g[s]);
  }
  return w;
}

/* One greedy run: trial 0 takes the best candidate of every step (most
 * new offsets, then least load, then shortest); later trials pick at
 * random among the (up to) 6 best whose gain is at least 3/4 of the best,
 * which finds 7 steps on torus:9x9 where the plain greedy needs 8. */
static int trial(const mg_topo *t, uint32_t seed, td_plan *pl, unsigned char *in, uint32_t *xs, td_cand *c) {
  uint32_t N = t->N;
  uint64_t have = 1, rng = 0x2545f4914f6cdd1dull ^ ((uint64_t)seed * 0x9e3779b97f4a7c15ull);
  memset(pl, 0, sizeof *pl);
  memset(in, 0, N);
  in[0] = 1;
  while (have < N) {
    if (pl->k == TD_MAX_STEPS) return 0;
    size_t ns = members(t, in, xs), nc = 0;
    for (uint32_t v = 1; v < N; v++) {
      int32_t g[MG_MAX_DIMS];
      comps(t, v, g);
      uint64_t gain = 0;
      for (size_t i = 0; i < ns; i++)
        gain += !in[add_off(t, xs + i * MG_MAX_DIMS, g)];
      if (gain) c[nc++] = (td_cand){gain, load_of(t, g), len_of(t, g), v};
    }
    if (!nc) return 0;
    qsort(c, nc, sizeof *c, cand_cmp);
    size_t pick = 0;
    if (seed) {
      size_t top = 1;
      while (top < nc && top < 6 && 4 * c[top].gain >= 3 * c[0].gain)
        top++;
      pick = (size_t)(td_rand(&rng) % top);
    }
    int32_t g[MG_MAX_DIMS];
    comps(t, c[pick].v, g);
    for (size_t i = 0; i < ns; i++)
      in[add_off(t, xs + i * MG_MAX_DIMS, g)] = 1;
    memcpy(pl->g[pl->k++], g, sizeof g);
    have += c[pick].gain;
  }
  return 1;
}

/* The best of several trials: fewest steps, then least weight. */
static mg_status make_plan(const mg_topo *t, td_plan *pl, mg_err *err) {
  uint32_t N = t->N, trials = N <= 128 ? 200 : N <= 1024 ? 8 : 1;
  mg_status st = MG_OK;
  unsigned char *in = mg_calloc(N, 1);
  uint32_t *xs = mg_calloc((uint64_t)N * MG_MAX_DIMS, sizeof(uint32_t));
  td_cand *c = mg_calloc(N, sizeof(td_cand));
  td_plan *cur = mg_calloc(1, sizeof(td_plan));
  uint64_t bestw = UINT64_MAX;
  int found = 0;
  if (!in || !xs || !c || !cur) {
    st = mg_fail(err, MG_ERR_NOMEM, "torus-doubling: out of memory");
    goto out;
  }
  for (uint32_t s = 0; s < trials; s++) {
    if (!trial(t, s, cur, in, xs, c)) continue;
    uint64_t w = finish(t, cur, in, xs);
    if (!found || cur->k < pl->k || (cur->k == pl->k && w < bestw)) {
      *pl = *cur;
      bestw = w;
      found = 1;
    }
  }
  if (!found) st = mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling: no generators found");
out:
  free(in);
  free(xs);
  free(c);
  free(cur);
  return st;
}

/* Piece j's image of generator g. */
static void symmetry(const mg_topo *t, int j, const int32_t *g, int32_t *out) {
  memcpy(out, g, sizeof(int32_t) * MG_MAX_DIMS);
  int square = t->d >= 2 && t->n[0] == t->n[1];
  if (j >= 2) {
    if (square) {
      out[0] = g[1];
      out[1] = g[0];
    } else {
      out[0] = -g[0];
    }
  }
  if (j % 2)
    for (int i = 0; i < t->d; i++)
      out[i] = -out[i];
}

static mg_status td_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  int64_t p;
  td_plan pl;
  mg_emit e;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = td_check(pb, ps, err);
  if (st == MG_OK) st = ports_of(ps, &p, err);
  if (st == MG_OK) st = make_plan(t, &pl, err);
  if (st != MG_OK) return st;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-doubling", ps, (uint32_t)p, 0, pl.k, err));
  for (int s = 0; s < pl.k; s++) {
    for (uint32_t v = 0; v < t->N; v++) {
      uint32_t x[MG_MAX_DIMS];
      mg_topo_coords(t, v, x);
      for (int j = 0; j < p; j++) {
        int32_t g[MG_MAX_DIMS], ng[MG_MAX_DIMS];
        symmetry(t, j, pl.g[s], g);
        for (int i = 0; i < MG_MAX_DIMS; i++)
          ng[i] = -g[i];
        /* v sends to v - g what it holds and v - g lacks */
        mg_transfer tr = mg_xfer(v, add_off(t, x, ng));
        tr.nseg = 0;
        for (int i = 0; i < t->d; i++)
          if (ng[i]) {
            tr.seg[tr.nseg].dim = (int8_t)i;
            tr.seg[tr.nseg++].hops = half(t, ng, i) && x[i] % 2 ? -ng[i] : ng[i];
          }
        tr.sel.flags = MG_SEL_MINUS_DST | (p > 1 ? MG_SEL_PIECE : 0);
        tr.sel.piece = (uint32_t)j;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status td_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int64_t p;
  td_plan pl;
  mg_status st = td_check(pb, ps, err);
  if (st == MG_OK) st = ports_of(ps, &p, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  if (p != 1 || m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-doubling: closed form for ports=1 under contention=shared only");
  st = make_plan(&pb->topo, &pl, err);
  if (st != MG_OK) return st;
  double c = 0;
  for (int s = 0; s < pl.k; s++)
    c += m->ts + len_of(&pb->topo, pl.g[s]) * m->td +
         (double)load_of(&pb->topo, pl.g[s]) * (double)pl.newcount[s] * pb->bytes * m->tl;
  *cost = c;
  return MG_OK;
}

static mg_status td_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  static const int ports[] = {1, 2, 4};
  for (int i = 0; i < 3; i++) {
    if (ports[i] == 4 && pb->topo.d < 2) continue;
    mg_params ps;
    memset(&ps, 0, sizeof ps);
    mg_status st = mg_params_set_int(&ps, "ports", ports[i], err);
    if (st == MG_OK) st = visit(arg, &ps);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc td_params[] = {
    {"ports", "1", "pieces per block, each on its own symmetric copy of the steps: 1, 2 or 4 messages a step"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_torus_doubling = {
    .name = "torus-doubling",
    .problem = MG_GOSSIP,
    .summary = "recursive doubling on short translation-invariant generators, any side lengths, one message a step",
    .paper = "after Bruck et al. (TPDS 1997) and Bine/Swing (De Sensi, Hoefler et al., NSDI 2024)",
    .restrictions = "tori and rings up to 16384 nodes; shared arcs; ports=1 runs one-port",
    .rounding = "non-powers of two: the last steps carry only what the receiver lacks",
    .params = td_params,
    .needs_shared = 1,
    .check = td_check,
    .generate = td_generate,
    .closed_form = td_closed_form,
    .candidates = td_candidates,
};

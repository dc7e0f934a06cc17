/*
 * exchange-hops — complete exchange by one-hop messages only: every block
 * walks a shortest route one hop per round (store and forward), and in
 * every round each node sends at most one message on each of its 2d
 * out-arcs, carrying the blocks whose next hop is due there.
 *
 * Why (issue 16, measured on the SMPI platform of docs/paragon.md): the
 * direct and line exchanges send multi-hop messages, so SimGrid's torus
 * routes put every tie (a block n/2 away along a ring) on the + arcs, and
 * flows of different route lengths and sizes share links unevenly. Here
 * every flow is one hop, the ties are split between both directions, and
 * on a torus every arc of a direction carries the same blocks in the same
 * round, so the busiest arc's total is the per-direction hop count: on a
 * k x k torus, k even, N k / 8 blocks = the bisection bound (Tseng, Ni,
 * Sheu 1999 Lemma 8), on 4x4x4 32 blocks. The price is one round per hop
 * of the longest route (the diameter) and a start-up per arc per round;
 * what pays is that under the executor's sync=data a node's send on one
 * arc waits only for the receives that brought its blocks, so the 2d arcs
 * run as 2d staggered pipelines whose start-ups hide behind transfers.
 *
 * Derivation (ours; the time-expanded link scheduling of TACOS, Won et
 * al., applied to offset classes). A class is an offset o on a torus (it
 * is vertex-transitive: one plan serves every source) and a signed offset
 * on a mesh axis; its route takes |o_i| unit hops along each axis i (a
 * tie o_i = n_i/2 goes + when the sum of the other coordinates of o is
 * even, - otherwise, which splits the ties evenly) and a round for each
 * hop. Block (s, s + o) takes hop j of its class's plan in its round, from
 * wherever it then is. Directions are numbered k = 2i (+ along axis i)
 * and 2i + 1 (-), and a node's sends in a round go in that order; a hop
 * may follow the previous one in the next round when its direction comes
 * later in that order (or is the same), else one round later, so a send
 * never waits for a receive that its own node's earlier sends of the
 * round are still behind (the pipelines stay staggered). The rounds are
 * filled greedily, longest routes first, each hop in the earliest round
 * whose load in its direction is under that direction and round's cap
 * (on a mesh, the load of the busiest arc the class's blocks cross there),
 * over every order of the axes (rotations beyond 3D), keeping the order
 * that ends earliest; a uniform cap starts at the busiest arc's total
 * over the rounds and grows until every route fits (with the axes in
 * increasing order a route of h hops fits in h consecutive rounds, so the
 * loop ends). Then `search` steps of hill climbing (by default 10000
 * under timing=async with a send overhead, else none) move single caps by
 * a block, keeping a change when the clock of the model the schedule is
 * generated under does not get worse (xh_estimate): the plan is fitted to
 * the machine's model, and a fixed seed gives every MPI rank the same.
 *
 * Cost (contention strict or shared, wormhole, circuit or store and
 * forward; every message one hop, one per arc): per round with
 * transfers, ts + td + L_r b tl (no td under store and forward), L_r the
 * busiest arc's blocks in round r; 1-byte blocks, ts = 0, the greedy
 * caps: torus:8x8 67 (bisection bound 64), 4x4x4 34 (32), 9x9 92 (90),
 * mesh:8x8 199 (128); search=10000: 65, 33, 91.
 * Restrictions: grids (tori, rings, meshes, lines); all-port (2d sends a
 * round); the diameter at most 250 rounds.
 *
 * Trace, ring:4 (search=0): offsets 1, 2 (tie, +), 3 (= -1): round 1:
 * v -> v+1 {(v, v+1), (v, v+2)}, v -> v-1 {(v, v-1)}; round 2: v -> v+1
 * {(v-1, v+1)}: 2 + 1 blocks on the busiest arcs.
 */
#include "../algo_internal.h"
#include "../../model/model.h"

#include <stdlib.h>
#include <string.h>

#define XH_MAX_ROUNDS 250   /* a hop's round fits a byte */
#define XH_SEARCH     10000 /* hill-climbing steps on the caps, by default (see xh_build) */
#define XH_SEARCH_MAX 30000 /* at most (a plan is built on every MPI rank) */

typedef struct xh_plan {
  const mg_topo *t;
  uint32_t *cap;              /* [2d * (R + 1)] blocks allowed per direction per round */
  int R;                      /* rounds */
  int maxh;                   /* hops of the longest route (the diameter) */
  uint32_t C;                 /* offset classes: N on a torus; prod (2 n_i - 1) on a mesh */
  uint32_t span[MG_MAX_DIMS]; /* a class's coordinate range per axis */
  uint8_t *nh;                /* [C] hops of class c */
  uint8_t *dir;               /* [C * maxh] direction of hop j: 2 axis + (minus) */
  uint8_t *round;             /* [C * maxh] round of hop j, 1..R, increasing */
  uint32_t *load;             /* [2d * (R + 1)] blocks per direction per round, on its busiest arc */
  uint32_t P;                 /* places: 1 on a torus (every arc of a direction alike), N on a mesh */
  uint32_t *arc;              /* [2d * (R + 1) * P] blocks per direction, round and place (P > 1) */
} xh_plan;

static void xh_free(xh_plan *p) {
  free(p->cap);
  free(p->nh);
  free(p->dir);
  free(p->round);
  free(p->load);
  free(p->arc);
  memset(p, 0, sizeof *p);
}

static mg_status xh_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t r, iters;
  mg_status st = mg_param_int(ps, "rounds", 0, 0, XH_MAX_ROUNDS, &r, err);
  if (st == MG_OK) st = mg_param_int(ps, "search", XH_SEARCH, 0, XH_SEARCH_MAX, &iters, err);
  if (st != MG_OK) return st;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-hops solves complete exchange");
  if (pb->topo.kind != MG_TOPO_GRID) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-hops runs on grids");
  uint64_t classes = 1;
  for (int i = 0; i < pb->topo.d; i++)
    if ((classes *= pb->topo.wrap[i] ? pb->topo.n[i] : 2 * (uint64_t)pb->topo.n[i] - 1) > MG_MAX_NODES)
      return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-hops: more than %u offset classes", MG_MAX_NODES);
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-hops does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-hops is all-port (a node sends on its 2d arcs each round)");
  uint64_t diam = mg_topo_diameter(&pb->topo);
  if (diam > XH_MAX_ROUNDS)
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-hops: diameter %llu above %d rounds", (unsigned long long)diam,
                   XH_MAX_ROUNDS);
  if (r != 0 && (uint64_t)r < diam)
    return mg_fail(err, MG_ERR_INVALID, "exchange-hops: rounds=%lld is below the diameter %llu", (long long)r,
                   (unsigned long long)diam);
  return MG_OK;
}

/* Signed hops of class coordinates o along axis i: on a mesh axis o_i is
 * the offset plus n_i - 1; on a torus axis the offset mod n_i, the
 * shorter way round, ties by the parity rule above. */
static int xh_signed(const mg_topo *t, const uint32_t *o, int i) {
  int n = (int)t->n[i], c = (int)o[i];
  if (!t->wrap[i]) return c - (n - 1);
  int s = c <= n / 2 ? c : c - n;
  if (n % 2 == 0 && c == n / 2) {
    uint32_t other = 0;
    for (int j = 0; j < t->d; j++)
      if (j != i) other += t->wrap[j] ? o[j] : (uint32_t)abs((int)o[j] - (int)(t->n[j] - 1));
    s = other % 2 == 0 ? n / 2 : -(n / 2);
  }
  return s;
}

/* Class coordinates of class id (mixed radix over span, axis 0 fastest). */
static void xh_class_coords(const xh_plan *p, uint32_t id, uint32_t *o) {
  for (int i = 0; i < p->t->d; i++) {
    o[i] = id % p->span[i];
    id /= p->span[i];
  }
}

/* The class of block (s, dst). */
static uint32_t xh_class_of(const xh_plan *p, uint32_t s, uint32_t dst) {
  const mg_topo *t = p->t;
  uint32_t xs[MG_MAX_DIMS], xd[MG_MAX_DIMS], id = 0, mul = 1;
  mg_topo_coords(t, s, xs);
  mg_topo_coords(t, dst, xd);
  for (int i = 0; i < t->d; i++) {
    uint32_t c = t->wrap[i] ? (xd[i] + t->n[i] - xs[i]) % t->n[i] : xd[i] + t->n[i] - 1 - xs[i];
    id += c * mul;
    mul *= p->span[i];
  }
  return id;
}

/* The axis orders tried: every permutation up to 3D, rotations beyond. */
static int xh_orders(int d, int (*ord)[MG_MAX_DIMS]) {
  static const int perm3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  if (d == 3) {
    for (int a = 0; a < 6; a++)
      for (int i = 0; i < 3; i++)
        ord[a][i] = perm3[a][i];
    return 6;
  }
  for (int a = 0; a < d; a++) /* rotations; for d <= 2 every order */
    for (int i = 0; i < d; i++)
      ord[a][i] = (a + i) % d;
  return d;
}

typedef struct xh_off {
  uint32_t id, h;
} xh_off;

static int xh_longest_first(const void *a, const void *b) {
  const xh_off *x = a, *y = b;
  if (x->h != y->h) return x->h > y->h ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* The places a class's blocks occupy before a hop, moved by disp from
 * their sources: on a mesh axis the sources whose route stays inside,
 * shifted; on a torus axis every coordinate. lo/hi inclusive. */
static void xh_box(const xh_plan *p, const int *sh, const int *disp, int64_t *lo, int64_t *hi) {
  const mg_topo *t = p->t;
  for (int i = 0; i < t->d; i++) {
    if (t->wrap[i]) {
      lo[i] = 0, hi[i] = (int64_t)t->n[i] - 1;
      continue;
    }
    lo[i] = (sh[i] < 0 ? -sh[i] : 0) + disp[i];
    hi[i] = (int64_t)t->n[i] - 1 - (sh[i] > 0 ? sh[i] : 0) + disp[i];
  }
}

/* The largest count of row a over the box; with add = 1 after adding one
 * to every place of it. */
static uint32_t xh_box_visit(const xh_plan *p, uint32_t *a, const int64_t *lo, const int64_t *hi, int add) {
  const mg_topo *t = p->t;
  int64_t x[MG_MAX_DIMS];
  uint32_t m = 0;
  for (int i = 0; i < t->d; i++)
    x[i] = lo[i];
  for (;;) {
    uint64_t id = 0;
    for (int i = 0; i < t->d; i++)
      id += (uint64_t)x[i] * t->stride[i];
    a[id] += (uint32_t)add;
    if (a[id] > m) m = a[id];
    int i = 0;
    while (i < t->d && ++x[i] > hi[i])
      x[i] = lo[i], i++;
    if (i == t->d) return m;
  }
}

/* Adds class id's planned hops to the loads (on a mesh to every arc its
 * blocks cross, and the busiest of them to load). */
static void xh_count(xh_plan *p, uint32_t id, const int *sh) {
  size_t W = (size_t)p->R + 1;
  int disp[MG_MAX_DIMS] = {0};
  int64_t lo[MG_MAX_DIMS], hi[MG_MAX_DIMS];
  for (int j = 0; j < p->nh[id]; j++) {
    uint8_t k = p->dir[(size_t)id * (size_t)p->maxh + (size_t)j];
    size_t x = (size_t)k * W + p->round[(size_t)id * (size_t)p->maxh + (size_t)j];
    if (p->P == 1) {
      p->load[x]++;
      continue;
    }
    xh_box(p, sh, disp, lo, hi);
    uint32_t l = xh_box_visit(p, p->arc + x * p->P, lo, hi, 1);
    if (l > p->load[x]) p->load[x] = l;
    disp[k / 2] += k % 2 ? -1 : 1;
  }
}

/* Places offset id's hops for one axis order under cap; 0 if they do not
 * fit in R rounds. seq/rnd receive the directions and rounds. */
static int xh_place(const xh_plan *p, const int *sh, const int *ord, uint8_t *seq, uint8_t *rnd, int *nseq) {
  const mg_topo *t = p->t;
  int n = 0, prev = -1, last = 0, disp[MG_MAX_DIMS] = {0};
  int64_t lo[MG_MAX_DIMS], hi[MG_MAX_DIMS];
  for (int a = 0; a < t->d; a++) {
    int i = ord[a], s = sh[i];
    int k = 2 * i + (s < 0);
    for (int j = 0; j < abs(s); j++) {
      int r = prev < 0 ? 1 : k >= prev ? last + 1 : last + 2;
      size_t row = (size_t)k * (size_t)(p->R + 1);
      if (p->P > 1) xh_box(p, sh, disp, lo, hi);
      for (; r <= p->R; r++) {
        uint32_t l =
            p->P > 1 ? xh_box_visit(p, p->arc + (row + (size_t)r) * p->P, lo, hi, 0) : p->load[row + (size_t)r];
        if (l < p->cap[row + (size_t)r]) break;
      }
      if (r > p->R) return 0;
      seq[n] = (uint8_t)k;
      rnd[n] = (uint8_t)r;
      n++;
      prev = k;
      last = r;
      disp[i] += s < 0 ? -1 : 1;
    }
  }
  *nseq = n;
  return 1;
}

/* Fills every offset's plan under p->cap; 0 if some route does not fit. */
static int xh_fill(xh_plan *p, const xh_off *offs, uint32_t noffs, int (*ord)[MG_MAX_DIMS], int nord) {
  const mg_topo *t = p->t;
  int d = t->d;
  memset(p->load, 0, (size_t)(2 * d) * (size_t)(p->R + 1) * sizeof *p->load);
  if (p->P > 1) memset(p->arc, 0, (size_t)(2 * d) * (size_t)(p->R + 1) * p->P * sizeof *p->arc);
  uint8_t seq[2][XH_MAX_ROUNDS], rnd[2][XH_MAX_ROUNDS];
  for (uint32_t q = 0; q < noffs; q++) {
    uint32_t id = offs[q].id, o[MG_MAX_DIMS];
    int sh[MG_MAX_DIMS];
    xh_class_coords(p, id, o);
    for (int i = 0; i < d; i++)
      sh[i] = xh_signed(t, o, i);
    int best = -1, bn = 0, bl = 0, bs = 0;
    for (int a = 0; a < nord; a++) {
      int cur = best < 0 ? 0 : 1 - best, n;
      if (!xh_place(p, sh, ord[a], seq[cur], rnd[cur], &n)) continue;
      int l = n ? rnd[cur][n - 1] : 0, s = 0;
      for (int j = 0; j < n; j++)
        s += rnd[cur][j];
      if (best < 0 || l < bl || (l == bl && s < bs)) best = cur, bn = n, bl = l, bs = s;
    }
    if (best < 0) return 0;
    p->nh[id] = (uint8_t)bn;
    memcpy(p->dir + (size_t)id * (size_t)p->maxh, seq[best], (size_t)bn);
    memcpy(p->round + (size_t)id * (size_t)p->maxh, rnd[best], (size_t)bn);
    xh_count(p, id, sh);
  }
  return 1;
}

/* The clock a plan is fitted to. Under timing=async (the MPI executor's
 * sync=data) the pipelines of the header: a node's sends leave in plan
 * order, o of CPU each, each once the messages that brought its blocks
 * are in (the previous hop of each of them, sent by a neighbour at the
 * same moment as this node's own send of that direction and round: the
 * plan is the same everywhere); a message of L blocks takes ts + td + its
 * wire bytes (the model's bandwidth factor) x tl, 1 + ack times that under
 * contention=fair, where the reverse arcs are busy too. Under any other
 * timing the closed form, xh_rounds_cost. */
/* The closed form: per round with transfers, ts + td + its busiest arc's
 * blocks x b x tl (no td under store and forward). */
static double xh_rounds_cost(const xh_plan *p, const mg_problem_spec *pb) {
  const mg_model *m = &pb->model;
  size_t W = (size_t)p->R + 1;
  double c = 0;
  for (int r = 1; r <= p->R; r++) {
    uint32_t l = 0;
    for (int k = 0; k < 2 * p->t->d; k++)
      if (p->load[(size_t)k * W + (size_t)r] > l) l = p->load[(size_t)k * W + (size_t)r];
    if (l) c += m->ts + (m->switching == MG_SW_SAF ? 0 : m->td) + (double)l * pb->bytes * m->tl;
  }
  return c;
}

static double xh_estimate(const xh_plan *p, const mg_problem_spec *pb, const unsigned char *dep, double *t_at) {
  const mg_model *m = &pb->model;
  int nd = 2 * p->t->d, R = p->R;
  size_t W = (size_t)R + 1, M = (size_t)nd * W;
  double c = 0;
  if (m->timing != MG_TIMING_ASYNC) return xh_rounds_cost(p, pb);
  double slow = m->contention == MG_CONT_FAIR ? 1 + m->ack : 1, cpu = 0;
  /* under strict and shared the arc of a direction serves its rounds in
   * order (src/model/async.c): a message moves once the node's previous
   * message that way has arrived; the fair fluid shares instead */
  double arc_last[2 * MG_MAX_DIMS] = {0};
  int in_order = m->contention != MG_CONT_FAIR;
  for (int r = 1; r <= R; r++)
    for (int k = 0; k < nd; k++) {
      size_t x = (size_t)k * W + (size_t)r;
      if (!p->load[x]) continue;
      double ready = 0;
      for (size_t y = 0; y < M; y++)
        if (dep[x * M + y] && t_at[y] > ready) ready = t_at[y];
      double s = ready > cpu ? ready : cpu;
      cpu = s + m->o;
      double go = in_order && arc_last[k] > cpu ? arc_last[k] : cpu;
      double hop = m->switching == MG_SW_SAF ? 0 : m->td; /* as the closed form */
      t_at[x] = go + m->ts + hop + m->tl * mg_model_wire_bytes(m, (double)p->load[x] * pb->bytes) * slow;
      arc_last[k] = t_at[x];
      if (t_at[x] > c) c = t_at[x];
    }
  return c;
}

/* dep[x][y]: message x (direction k, round r at x = k (R+1) + r) carries a
 * block that message y brought. */
static void xh_deps(const xh_plan *p, unsigned char *dep) {
  size_t W = (size_t)p->R + 1, M = (size_t)(2 * p->t->d) * W;
  memset(dep, 0, M * M);
  for (uint32_t id = 0; id < p->C; id++) {
    const uint8_t *dir = p->dir + (size_t)id * (size_t)p->maxh, *rnd = p->round + (size_t)id * (size_t)p->maxh;
    for (int j = 1; j < p->nh[id]; j++)
      dep[((size_t)dir[j] * W + rnd[j]) * M + (size_t)dir[j - 1] * W + rnd[j - 1]] = 1;
  }
}

/* A mesh's per-arc counts of the plan in p (after the search restored the
 * best plan, whose counts the last fill overwrote). */
static void xh_recount(xh_plan *p) {
  size_t M = (size_t)(2 * p->t->d) * ((size_t)p->R + 1);
  memset(p->arc, 0, M * p->P * sizeof *p->arc);
  memset(p->load, 0, M * sizeof *p->load);
  for (uint32_t id = 0; id < p->C; id++) {
    uint32_t o[MG_MAX_DIMS];
    int sh[MG_MAX_DIMS];
    xh_class_coords(p, id, o);
    for (int i = 0; i < p->t->d; i++)
      sh[i] = xh_signed(p->t, o, i);
    xh_count(p, id, sh);
  }
}

static mg_status xh_build(const mg_problem_spec *pb, const mg_params *ps, xh_plan *p, mg_err *err) {
  int64_t r, iters;
  memset(p, 0, sizeof *p);
  mg_status st = xh_check(pb, ps, err);
  if (st == MG_OK) st = mg_param_int(ps, "rounds", 0, 0, XH_MAX_ROUNDS, &r, err);
  /* by default the search runs where it pays: under the clock of the
   * executor's sync=data on a machine with a send overhead, the pipelines
   * of the header (every MPI rank builds the plan: elsewhere the greedy
   * caps alone, which the search improves by a block or two) */
  int64_t def = pb->model.timing == MG_TIMING_ASYNC && pb->model.o > 0 ? XH_SEARCH : 0;
  if (st == MG_OK) st = mg_param_int(ps, "search", def, 0, XH_SEARCH_MAX, &iters, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  int d = t->d, nd = 2 * d;
  p->t = t;
  p->maxh = (int)mg_topo_diameter(t);
  if (p->maxh < 1) p->maxh = 1;
  p->R = r ? (int)r : p->maxh;
  p->C = 1;
  for (int i = 0; i < d; i++)
    p->C *= p->span[i] = t->wrap[i] ? t->n[i] : 2 * t->n[i] - 1;
  p->P = mg_topo_is_torus(t) ? 1 : t->N;
  size_t W = (size_t)p->R + 1, M = (size_t)nd * W, cells = (size_t)p->C * (size_t)p->maxh;
  if ((uint64_t)M * p->P > (1u << 27))
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-hops: %u places x %zu rounds and directions is too many", p->P, M);
  /* a mesh's fill checks a box of up to N arcs for every hop in every
   * round it tries: about C x orders x hops x rounds x N steps (mesh:32x32
   * 3e10, 20 s); refuse what would take hours rather than start it */
  if (p->P > 1 && (double)p->C * (d == 3 ? 6 : d) * p->maxh * p->R * p->P > 5e10)
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-hops: a mesh of %u nodes and %d rounds is too large to plan", t->N,
                   p->R);
  /* the search keeps the best plan so far beside the one being filled
   * (M is at most 16 x 251: the dependency matrix at most 16 MB) */
  int search = iters > 0;
  p->nh = mg_calloc(p->C, 1);
  p->dir = mg_calloc(cells, 1);
  p->round = mg_calloc(cells, 1);
  p->load = mg_calloc(M, sizeof *p->load);
  p->cap = mg_calloc(M, sizeof *p->cap);
  p->arc = p->P > 1 ? mg_calloc((uint64_t)M * p->P, sizeof *p->arc) : NULL;
  uint32_t *tot_arc = p->P > 1 ? mg_calloc((uint64_t)nd * p->P, sizeof *tot_arc) : NULL;
  xh_off *offs = mg_calloc(p->C, sizeof *offs);
  uint8_t *keep = search ? mg_calloc(p->C + 2 * (uint64_t)cells, 1) : NULL;
  uint32_t *keep_load = search ? mg_calloc(2 * (uint64_t)M, sizeof *keep_load) : NULL;
  unsigned char *dep = search ? mg_calloc((uint64_t)M * M, 1) : NULL;
  double *t_at = search ? mg_calloc(M, sizeof *t_at) : NULL;
  if (!p->nh || !p->dir || !p->round || !p->load || !p->cap || !offs || (p->P > 1 && (!p->arc || !tot_arc)) ||
      (search && (!keep || !keep_load || !dep || !t_at))) {
    st = mg_fail(err, MG_ERR_NOMEM, "exchange-hops: out of memory for %u offset classes", p->C);
    goto out;
  }
  /* per-direction totals give the first cap */
  uint64_t tot[2 * MG_MAX_DIMS] = {0};
  uint32_t q = 0;
  for (uint32_t id = 0; id < p->C; id++) {
    uint32_t o[MG_MAX_DIMS], h = 0;
    xh_class_coords(p, id, o);
    for (int i = 0; i < d; i++) {
      int s = xh_signed(t, o, i);
      tot[2 * i + (s < 0)] += (uint64_t)abs(s);
      h += (uint32_t)abs(s);
    }
    if (h) offs[q++] = (xh_off){id, h};
    if (h && p->P > 1) { /* a mesh: every arc's total, axes in order */
      int sh[MG_MAX_DIMS], disp[MG_MAX_DIMS] = {0};
      int64_t lo[MG_MAX_DIMS], hi[MG_MAX_DIMS];
      for (int i = 0; i < d; i++)
        sh[i] = xh_signed(t, o, i);
      for (int i = 0; i < d; i++)
        for (int j = 0; j < abs(sh[i]); j++) {
          xh_box(p, sh, disp, lo, hi);
          xh_box_visit(p, tot_arc + (size_t)(2 * i + (sh[i] < 0)) * p->P, lo, hi, 1);
          disp[i] += sh[i] < 0 ? -1 : 1;
        }
    }
  }
  qsort(offs, q, sizeof *offs, xh_longest_first);
  if (p->P > 1) /* on a mesh the busiest arc's total sets the first cap */
    for (int k = 0; k < nd; k++) {
      tot[k] = 0;
      for (uint32_t v = 0; v < p->P; v++)
        if (tot_arc[(size_t)k * p->P + v] > tot[k]) tot[k] = tot_arc[(size_t)k * p->P + v];
    }
  uint64_t cap = 1;
  for (int k = 0; k < nd; k++)
    if ((tot[k] + (uint64_t)p->R - 1) / (uint64_t)p->R > cap) cap = (tot[k] + (uint64_t)p->R - 1) / (uint64_t)p->R;
  int ord[24][MG_MAX_DIMS];
  int nord = xh_orders(d, ord);
  for (;;) {
    for (size_t x = 0; x < M; x++)
      p->cap[x] = x % W ? (uint32_t)cap : 0;
    if (xh_fill(p, offs, q, ord, nord)) break;
    cap += 1 + cap / 16;
  }
  if (!search) goto out;
  /* Hill climbing on the caps (one or two cells moved by one block, kept
   * when the fitted clock does not get worse), from the uniform cap; a
   * fixed seed, so every rank of an MPI job builds the same plan. The
   * work is bounded: about 5e7 placement steps. */
  uint64_t work = (uint64_t)q * (uint64_t)nord * (uint64_t)p->maxh * p->P + M * M;
  if ((uint64_t)iters > 50000000u / work) iters = (int64_t)(50000000u / work);
  xh_deps(p, dep);
  double best = xh_estimate(p, pb, dep, t_at);
  uint32_t *best_cap = keep_load + M;
  memcpy(best_cap, p->cap, M * sizeof *best_cap);
  memcpy(keep, p->nh, p->C);
  memcpy(keep + p->C, p->dir, cells);
  memcpy(keep + p->C + cells, p->round, cells);
  memcpy(keep_load, p->load, M * sizeof *keep_load);
  uint64_t rng = 0x9e3779b97f4a7c15u;
  for (int64_t it = 0; it < iters; it++) {
    memcpy(p->cap, best_cap, M * sizeof *p->cap);
    int moves = 1;
    for (int mv = 0; mv < moves; mv++) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      size_t x = (size_t)(rng % (uint64_t)nd) * W + 1 + (size_t)((rng >> 20) % (uint64_t)p->R);
      if ((rng >> 40) & 1)
        p->cap[x]++;
      else if (p->cap[x])
        p->cap[x]--;
      if (mv == 0 && ((rng >> 41) & 1)) moves = 2;
    }
    if (!xh_fill(p, offs, q, ord, nord)) continue;
    xh_deps(p, dep);
    double c = xh_estimate(p, pb, dep, t_at);
    if (c > best) continue;
    best = c;
    memcpy(best_cap, p->cap, M * sizeof *best_cap);
    memcpy(keep, p->nh, p->C);
    memcpy(keep + p->C, p->dir, cells);
    memcpy(keep + p->C + cells, p->round, cells);
    memcpy(keep_load, p->load, M * sizeof *keep_load);
  }
  memcpy(p->cap, best_cap, M * sizeof *p->cap);
  memcpy(p->nh, keep, p->C);
  memcpy(p->dir, keep + p->C, cells);
  memcpy(p->round, keep + p->C + cells, cells);
  memcpy(p->load, keep_load, M * sizeof *keep_load);
  if (p->P > 1) xh_recount(p);
out:
  free(tot_arc);
  free(offs);
  free(keep);
  free(keep_load);
  free(dep);
  free(t_at);
  if (st != MG_OK) xh_free(p);
  return st;
}

/* Per-message context: node v's send in direction k in round r. */
typedef struct xh_ctx {
  const xh_plan *p;
  uint32_t v;
  int r, k;
} xh_ctx;

/* Block item = src * N + dst: in the message if its plan takes a hop in
 * direction k in round r and it is at v when the round starts. */
static int xh_carried(uint64_t item, void *arg) {
  const xh_ctx *c = arg;
  const xh_plan *p = c->p;
  const mg_topo *t = p->t;
  uint32_t s = (uint32_t)(item / t->N), dst = (uint32_t)(item % t->N), xs[MG_MAX_DIMS], xv[MG_MAX_DIMS];
  uint32_t id = xh_class_of(p, s, dst);
  mg_topo_coords(t, s, xs);
  const uint8_t *dir = p->dir + (size_t)id * (size_t)p->maxh, *rnd = p->round + (size_t)id * (size_t)p->maxh;
  int j = 0, n = p->nh[id];
  while (j < n && rnd[j] < c->r)
    j++;
  if (j == n || rnd[j] != c->r || dir[j] != c->k) return 0;
  /* where the block is: the source moved by the hops before j */
  int64_t pos[MG_MAX_DIMS];
  for (int i = 0; i < t->d; i++)
    pos[i] = xs[i];
  for (int q = 0; q < j; q++)
    pos[dir[q] / 2] += dir[q] % 2 ? -1 : 1;
  mg_topo_coords(t, c->v, xv);
  for (int i = 0; i < t->d; i++) {
    int64_t n_i = t->n[i], x = ((pos[i] % n_i) + n_i) % n_i; /* a mesh route stays inside: no wrap */
    if ((uint32_t)x != xv[i]) return 0;
  }
  return 1;
}

static mg_status xh_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  xh_plan p;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = xh_build(pb, ps, &p, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  int nd = 2 * t->d;
  xh_ctx *ctx = mg_calloc((uint64_t)t->N * (uint64_t)nd, sizeof *ctx);
  if (!ctx) {
    xh_free(&p);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-hops: out of memory");
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-hops", ps, 1, 0, p.R, err));
  for (int r = 1; r <= p.R; r++) {
    xh_ctx *c = ctx;
    for (uint32_t v = 0; v < t->N; v++)
      for (int k = 0; k < nd; k++) {
        size_t x = (size_t)k * (size_t)(p.R + 1) + (size_t)r;
        if (!p.load[x] || (p.P > 1 && !p.arc[x * p.P + v])) continue; /* nothing to send there */
        int dim = k / 2, sgn = k % 2 ? -1 : 1;
        uint32_t w = mg_topo_step(t, v, dim, sgn);
        if (w == UINT32_MAX) continue; /* a mesh's edge */
        *c = (xh_ctx){&p, v, r, k};
        mg_transfer tr = mg_xfer(v, w);
        tr.nseg = 1;
        tr.seg[0] = (mg_seg){(int8_t)dim, sgn};
        tr.sel.flags = MG_SEL_PRED;
        tr.sel.pred = xh_carried;
        tr.sel.pred_arg = c++;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    MG_CHECK(mg_emit_round(&e, err)); /* consumed here: ctx is reused next round */
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(ctx);
  xh_free(&p);
  return st;
}

static mg_status xh_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  const mg_model *m = &pb->model;
  if (m->contention != MG_CONT_STRICT && m->contention != MG_CONT_SHARED)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-hops: contention=strict or shared");
  if (m->switching != MG_SW_WORMHOLE && m->switching != MG_SW_CIRCUIT && m->switching != MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-hops: wormhole, circuit or store and forward");
  xh_plan p;
  mg_status st = xh_build(pb, ps, &p, err);
  if (st != MG_OK) return st;
  *cost = xh_rounds_cost(&p, pb);
  xh_free(&p);
  return MG_OK;
}

static mg_status xh_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  mg_params none = {0};
  mg_status st = xh_check(pb, &none, err);
  if (st != MG_OK) return st;
  uint64_t diam = mg_topo_diameter(&pb->topo);
  for (uint64_t r = diam; r <= diam + 3 && r <= XH_MAX_ROUNDS; r++) {
    mg_params ps = {0};
    if ((st = mg_params_set_int(&ps, "rounds", (int64_t)r, err)) != MG_OK || (st = visit(arg, &ps)) != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc xh_params[] = {
    {"rounds", "0", "rounds to fill, at least the diameter (0: the diameter); more rounds, lower loads"},
    {"search", "auto",
     "hill-climbing steps (0 .. 30000) on the per-direction, per-round caps against the model's clock; auto: "
     "10000 under timing=async with a send overhead o, else 0"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_hops = {
    .name = "exchange-hops",
    .problem = MG_EXCHANGE,
    .summary = "store-and-forward exchange of one-hop messages, rounds filled evenly per direction",
    .paper = "ours, after the time-expanded link scheduling of TACOS (Won et al.) on offset classes",
    .restrictions = "grids (tori, rings, meshes, lines); all-port",
    .rounding = "the caps leave some rounds above the busiest arc's mean; a mesh's edges idle more",
    .params = xh_params,
    .check = xh_check,
    .generate = xh_generate,
    .closed_form = xh_closed_form,
    .candidates = xh_candidates,
};

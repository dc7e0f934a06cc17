/*
 * greedy-links — a greedy time-expanded link scheduler for gossip on any
 * grid (ring, line, torus, mesh of any dimension): in every round every
 * directed arc u -> w carries one chunk that u holds and w lacks, so every
 * link is busy as long as it has something useful to carry.
 *
 * The idea is that of TACOS (W. Won, M. Elavazhagan, S. Srinivasan,
 * W. Xu, A. Nayak, T. Krishna, "TACOS: Topology-Aware Collective Algorithm
 * Synthesizer for Distributed Machine Learning", MICRO 2024): expand the
 * network in time, and at every time step match each free link with a
 * chunk its far end still needs. Re-derived here for the round model of
 * this project (every transfer one hop, one chunk per arc per round, so
 * every round is contention-free and costs ts + td + (m/c) tl):
 *
 * - chunks=c: every node's block is cut into c pieces (P = c); a round
 *   costs ts + td + m/c tl and a node takes in at most deg chunks per
 *   round, so R >= ceil(c (N-1) / deg) rounds (deg = 2d on a torus).
 * - On a torus (vertex-transitive: every translate of a schedule is a
 *   schedule) the search is done once, for the chunks of node 0: a round
 *   gives each of the 2d arc directions e one (chunk k, node v) with v - e
 *   holding chunk k from an earlier round; the whole schedule is the
 *   union of the N translates, so in round r every node u sends on its
 *   arc e the chunk k of origin u - (v - e). Every arc carries exactly one
 *   chunk per round: contention-free, and a perfect round informs 2d new
 *   (node, chunk) pairs. The target of each direction is the reachable node
 *   nearest the root (ties by chunk with the fewest holders, then by id):
 *   the informed set grows as a ball and what is left at the end is
 *   scattered enough for all 2d directions to find a target; the rounds
 *   this reaches are R = ceil(c (N-1) / 2d) on every torus tried (tests).
 *   81x81 is scheduled in about a second.
 * - On other grids (meshes, lines) every arc u -> w picks, in every round,
 *   the chunk of u's holdings that w lacks (and does not receive this
 *   round) held by the fewest nodes: the rarest chunk first, so that every
 *   chunk keeps spreading. O(rounds * arcs * N c / 64) word operations.
 *
 * Cost (wormhole and circuit, any contention): R (ts + td + m/c tl);
 * store-and-forward: R (ts + m/c tl). R is what the greedy reaches; the
 * closed form (tori) is computed from the search alone, without the
 * simulator, and checked against it in tests/test_greedy_links.c.
 * Restrictions: grids (not the mesh-bus), all-port. Rounding: none.
 *
 * Trace, torus:3x3, chunks=1 (directions +x, -x, +y, -y): round 0 gives
 * (1,0), (2,0), (0,1), (0,2) from the root; round 1 (1,1) by +y from
 * (1,0), (2,1) by -x from (0,1)... two rounds for the 8 = 2 x 4 others:
 * every node u sends on +x in round 0 its own block, in round 1 the block
 * of u - (0,1) ...
 */
#include "../algo_internal.h"

#include <string.h>

#define GL_MAX_CHUNKS 64

static mg_status chunks_of(const mg_params *ps, int64_t *c, mg_err *err) {
  return mg_param_int(ps, "chunks", 1, 1, GL_MAX_CHUNKS, c, err);
}

static mg_status gl_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t c;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "greedy-links is a gossip algorithm");
  if (pb->topo.kind != MG_TOPO_GRID || pb->model.switching == MG_SW_BUS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "greedy-links schedules the arcs of a grid, not buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "greedy-links keeps every out-arc busy: it needs all-port");
  mg_status st = chunks_of(ps, &c, err);
  if (st != MG_OK) return st;
  uint64_t bits;
  if (!mg_mul_ok(pb->topo.N, (uint64_t)c, &bits) || bits > ((uint64_t)1 << 32))
    return mg_fail(err, MG_ERR_TOO_LARGE, "greedy-links: %u nodes x %lld chunks is too many items", pb->topo.N,
                   (long long)c);
  /* off tori every node keeps a bitset of all N c items (twice) */
  if (!mg_topo_is_torus(&pb->topo) && (!mg_mul_ok(bits, pb->topo.N, &bits) || bits > ((uint64_t)1 << 33)))
    return mg_fail(err, MG_ERR_TOO_LARGE,
                   "greedy-links: %u nodes x %lld chunks needs more than 2 GiB of state off a torus", pb->topo.N,
                   (long long)c);
  return MG_OK;
}

/* ------------------------------------------------------------ tori */

/* One slot of the root's plan: round r, direction (dim, dir) informs
 * node v with chunk k from v's neighbour v - e. */
typedef struct gl_slot {
  uint32_t parent, k;
  int8_t dim, dir;
} gl_slot;

typedef struct gl_plan {
  uint32_t rounds, ndir;
  gl_slot *slot; /* rounds * ndir; parent == UINT32_MAX: idle */
} gl_plan;

static uint32_t torus_dist(const mg_topo *t, uint32_t v) {
  uint32_t d = 0;
  for (int k = 0; k < t->d; k++) {
    int64_t o = mg_topo_offset(t, k, 0, v);
    d += (uint32_t)(o < 0 ? -o : o);
  }
  return d;
}

/* A candidate target of one direction in one round. */
typedef struct gl_cand {
  uint32_t v, k, p, dist, holders;
} gl_cand;

/* Candidates kept per direction and round. */
#define GL_K 24

static int cand_less(const gl_cand *a, const gl_cand *b) {
  if (a->dist != b->dist) return a->dist < b->dist;
  if (a->holders != b->holders) return a->holders < b->holders;
  return a->v < b->v;
}

/* Keeps cl sorted best first, at most GL_K long. */
static void insert_cand(gl_cand *cl, uint32_t *n, gl_cand x) {
  uint32_t i;
  if (*n < GL_K) {
    i = (*n)++;
  } else {
    if (!cand_less(&x, &cl[GL_K - 1])) return;
    i = GL_K - 1;
  }
  while (i > 0 && cand_less(&x, &cl[i - 1])) {
    cl[i] = cl[i - 1];
    i--;
  }
  cl[i] = x;
}

/* Kuhn's augmenting path from direction e; match[e] = candidate index.
 * vis lists the (node, chunk) pairs this search has visited. */
typedef struct gl_search {
  const gl_cand *cand;
  const uint32_t *ncand;
  int *match;
  uint32_t ndir, nvis;
  uint64_t vis[2 * MG_MAX_DIMS * GL_K];
} gl_search;

static int augment(gl_search *g, uint32_t e) {
  for (uint32_t i = 0; i < g->ncand[e]; i++) {
    const gl_cand *x = &g->cand[(size_t)e * GL_K + i];
    uint64_t key = (uint64_t)x->v << 32 | x->k;
    int visited = 0;
    for (uint32_t j = 0; j < g->nvis; j++)
      visited |= g->vis[j] == key;
    if (visited) continue;
    g->vis[g->nvis++] = key;
    uint32_t owner = g->ndir;
    for (uint32_t f = 0; f < g->ndir; f++) {
      if (f == e || g->match[f] < 0) continue;
      const gl_cand *y = &g->cand[(size_t)f * GL_K + (size_t)g->match[f]];
      if (y->v == x->v && y->k == x->k) owner = f;
    }
    if (owner == g->ndir || augment(g, owner)) {
      g->match[e] = (int)i;
      return 1;
    }
  }
  return 0;
}

/* The greedy search for the root's chunks (file header). */
static mg_status plan_torus(const mg_topo *t, uint32_t c, gl_plan *pl, mg_err *err) {
  uint32_t N = t->N, ndir = 2u * (uint32_t)t->d;
  uint64_t need = (uint64_t)(N - 1) * c, done = 0, cap = 0;
  mg_status st = MG_OK;
  memset(pl, 0, sizeof *pl);
  pl->ndir = ndir;
  /* informed round of (chunk k, node v): 0 = not yet, r+1 = by round r */
  uint32_t *when = mg_calloc((uint64_t)N * c, sizeof(uint32_t)), *dist = mg_calloc(N, sizeof(uint32_t));
  uint32_t *holders = mg_calloc(c, sizeof(uint32_t)), ncand[2 * MG_MAX_DIMS];
  gl_cand cand[2 * MG_MAX_DIMS * GL_K];
  int match[2 * MG_MAX_DIMS];
  gl_search gsr = {.cand = cand, .ncand = ncand, .match = match, .ndir = ndir};
  if (!when || !dist || !holders) {
    st = mg_fail(err, MG_ERR_NOMEM, "greedy-links: out of memory");
    goto out;
  }
  for (uint32_t v = 0; v < N; v++)
    dist[v] = torus_dist(t, v);
  for (uint32_t k = 0; k < c; k++) {
    when[k * (uint64_t)N + 0] = UINT32_MAX; /* the root holds every chunk from the start */
    holders[k] = 1;
  }
  for (uint32_t r = 0; done < need; r++) {
    if ((size_t)(r + 1) * ndir > cap) {
      size_t ncap = cap ? cap * 2 : (size_t)64 * ndir;
      gl_slot *ns = realloc(pl->slot, ncap * sizeof *ns);
      if (!ns) {
        st = mg_fail(err, MG_ERR_NOMEM, "greedy-links: out of memory");
        goto out;
      }
      pl->slot = ns;
      cap = ncap;
    }
    uint64_t before = done;
    /* candidate lists: the GL_K best (node, chunk) of every direction */
    for (uint32_t e = 0; e < ndir; e++) {
      int dim = (int)(e / 2), dir = e % 2 ? -1 : 1;
      gl_cand *cl = cand + (size_t)e * GL_K;
      ncand[e] = 0;
      for (uint32_t v = 0; v < N; v++) {
        if (ncand[e] == GL_K && dist[v] > cl[GL_K - 1].dist) continue;
        uint32_t p = mg_topo_step(t, v, dim, -dir);
        for (uint32_t k = 0; k < c; k++) {
          uint32_t wv = when[k * (uint64_t)N + v], wp = when[k * (uint64_t)N + p];
          /* p held chunk k before this round; v lacks it */
          if (wv != 0 || wp == 0 || (wp != UINT32_MAX && wp > r)) continue;
          gl_cand x = {v, k, p, dist[v], holders[k]};
          insert_cand(cl, &ncand[e], x);
        }
      }
    }
    /* a maximum matching of directions to distinct (node, chunk) pairs,
     * each direction trying its candidates best first (Kuhn) */
    for (uint32_t e = 0; e < ndir; e++)
      match[e] = -1;
    for (uint32_t e = 0; e < ndir; e++) {
      gsr.nvis = 0;
      (void)augment(&gsr, e);
    }
    for (uint32_t e = 0; e < ndir; e++) {
      gl_slot *s = &pl->slot[(size_t)r * ndir + e];
      s->dim = (int8_t)(e / 2);
      s->dir = (int8_t)(e % 2 ? -1 : 1);
      s->parent = UINT32_MAX;
      if (match[e] < 0) continue;
      const gl_cand *x = &cand[(size_t)e * GL_K + (size_t)match[e]];
      s->parent = x->p;
      s->k = x->k;
      when[x->k * (uint64_t)N + x->v] = r + 1;
      holders[x->k]++;
      done++;
    }
    pl->rounds = r + 1;
    if (done == before) {
      st = mg_fail(err, MG_ERR_UNSUPPORTED, "greedy-links: the search stalled");
      goto out;
    }
  }
out:
  free(when);
  free(dist);
  free(holders);
  if (st != MG_OK) {
    free(pl->slot);
    pl->slot = NULL;
  }
  return st;
}

static mg_status emit_torus(const mg_problem_spec *pb, const mg_params *ps, uint32_t c, mg_sink *sink, mg_err *err) {
  const mg_topo *t = &pb->topo;
  gl_plan pl;
  mg_emit e;
  mg_status st;
  memset(&e, 0, sizeof e);
  st = plan_torus(t, c, &pl, err);
  if (st != MG_OK) return st;
  uint32_t *pc = mg_calloc((uint64_t)pl.rounds * pl.ndir * MG_MAX_DIMS, sizeof(uint32_t));
  if (!pc) {
    free(pl.slot);
    return mg_fail(err, MG_ERR_NOMEM, "greedy-links: out of memory");
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "greedy-links", ps, c, 0, pl.rounds, err));
  for (size_t i = 0; i < (size_t)pl.rounds * pl.ndir; i++)
    if (pl.slot[i].parent != UINT32_MAX) mg_topo_coords(t, pl.slot[i].parent, pc + i * MG_MAX_DIMS);
  for (uint32_t r = 0; r < pl.rounds; r++) {
    for (uint32_t u = 0; u < t->N; u++) {
      uint32_t xu[MG_MAX_DIMS], xo[MG_MAX_DIMS];
      mg_topo_coords(t, u, xu);
      for (uint32_t d = 0; d < pl.ndir; d++) {
        const gl_slot *s = &pl.slot[(size_t)r * pl.ndir + d];
        if (s->parent == UINT32_MAX) continue;
        const uint32_t *xp = pc + ((size_t)r * pl.ndir + d) * MG_MAX_DIMS;
        for (int k = 0; k < t->d; k++)
          xo[k] = (xu[k] + t->n[k] - xp[k]) % t->n[k];
        mg_transfer tr = mg_xfer_line(u, mg_topo_step(t, u, s->dim, s->dir), s->dim, s->dir);
        tr.sel.flags = MG_SEL_ORIGIN_RANGE | MG_SEL_PIECE;
        tr.sel.range_lo = mg_topo_id(t, xo);
        tr.sel.range_len = 1;
        tr.sel.piece = s->k;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(pc);
  free(pl.slot);
  return st;
}

/* ------------------------------------------------------------ any grid */

static mg_status emit_general(const mg_problem_spec *pb, const mg_params *ps, uint32_t c, mg_sink *sink, mg_err *err) {
  const mg_topo *t = &pb->topo;
  uint64_t N = t->N, items = N * c, W = mg_words(items), need = N * (items - c), done = 0;
  mg_emit e;
  mg_status st = MG_OK;
  memset(&e, 0, sizeof e);
  uint64_t *held = mg_calloc(N * W, sizeof(uint64_t)), *in = mg_calloc(N * W, sizeof(uint64_t));
  uint32_t *count = mg_calloc(items, sizeof(uint32_t));
  uint64_t *newly = mg_calloc(N * (uint64_t)(2 * t->d), sizeof(uint64_t));
  size_t nnew = 0;
  if (!held || !in || !count || !newly) {
    st = mg_fail(err, MG_ERR_NOMEM, "greedy-links: out of memory");
    goto out;
  }
  for (uint64_t v = 0; v < N; v++)
    for (uint32_t k = 0; k < c; k++) {
      uint64_t it = v * c + k;
      held[v * W + (it >> 6)] |= (uint64_t)1 << (it & 63);
      count[it] = 1;
    }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "greedy-links", ps, c, 0, -1, err));
  while (done < need) {
    nnew = 0;
    for (uint32_t u = 0; u < N; u++) {
      for (int dim = 0; dim < t->d; dim++)
        for (int dir = 1; dir >= -1; dir -= 2) {
          uint32_t w = mg_topo_step(t, u, dim, dir);
          if (w == UINT32_MAX) continue;
          const uint64_t *hu = held + (uint64_t)u * W, *hw = held + (uint64_t)w * W;
          uint64_t *iw = in + (uint64_t)w * W, best = UINT64_MAX;
          uint32_t bc = UINT32_MAX;
          for (uint64_t x = 0; x < W; x++) {
            uint64_t m = hu[x] & ~hw[x] & ~iw[x];
            while (m) {
              uint64_t it = x * 64 + (uint64_t)__builtin_ctzll(m);
              m &= m - 1;
              if (count[it] < bc) {
                bc = count[it];
                best = it;
              }
            }
          }
          if (best == UINT64_MAX) continue;
          iw[best >> 6] |= (uint64_t)1 << (best & 63);
          newly[nnew++] = (uint64_t)w * items + best;
          mg_transfer tr = mg_xfer_line(u, w, dim, dir);
          tr.sel.flags = MG_SEL_ORIGIN_RANGE | MG_SEL_PIECE;
          tr.sel.range_lo = (uint32_t)(best / c);
          tr.sel.range_len = 1;
          tr.sel.piece = (uint32_t)(best % c);
          MG_CHECK(mg_emit_add(&e, &tr, err));
        }
    }
    if (!nnew) {
      st = mg_fail(err, MG_ERR_UNSUPPORTED, "greedy-links: no arc can carry anything new");
      goto out;
    }
    for (size_t i = 0; i < nnew; i++) {
      uint64_t w = newly[i] / items, it = newly[i] % items;
      held[w * W + (it >> 6)] |= (uint64_t)1 << (it & 63);
      in[w * W + (it >> 6)] &= ~((uint64_t)1 << (it & 63));
      count[it]++;
    }
    done += nnew;
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(held);
  free(in);
  free(count);
  free(newly);
  return st;
}

static mg_status gl_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  int64_t c;
  mg_status st = gl_check(pb, ps, err);
  if (st == MG_OK) st = chunks_of(ps, &c, err);
  if (st != MG_OK) return st;
  if (mg_topo_is_torus(&pb->topo)) return emit_torus(pb, ps, (uint32_t)c, sink, err);
  return emit_general(pb, ps, (uint32_t)c, sink, err);
}

/* Tori: R from the search alone (no simulation) times the round price. */
static mg_status gl_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int64_t c;
  mg_status st = gl_check(pb, ps, err);
  if (st == MG_OK) st = chunks_of(ps, &c, err);
  if (st != MG_OK) return st;
  if (!mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "greedy-links has a closed form on tori only");
  gl_plan pl;
  st = plan_torus(&pb->topo, (uint32_t)c, &pl, err);
  if (st != MG_OK) return st;
  free(pl.slot);
  const mg_model *m = &pb->model;
  double hop = m->switching == MG_SW_SAF ? 0 : m->td;
  *cost = pl.rounds * (m->ts + hop + pb->bytes / (double)c * m->tl);
  return MG_OK;
}

static mg_status gl_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  (void)pb;
  for (int c = 1; c <= 4; c++) {
    mg_params ps;
    memset(&ps, 0, sizeof ps);
    mg_status st = mg_params_set_int(&ps, "chunks", c, err);
    if (st == MG_OK) st = visit(arg, &ps);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc gl_params[] = {{"chunks", "1", "pieces per block (1..64); a round carries one per arc"},
                                          {NULL, NULL, NULL}};

const mg_algo mg_algo_greedy_links = {
    .name = "greedy-links",
    .problem = MG_GOSSIP,
    .summary = "greedy time-expanded link scheduling: every arc carries a chunk its far end lacks, every round",
    .paper = "after TACOS (Won et al., MICRO 2024); tori by translating one greedy broadcast",
    .restrictions = "grids of any dimension (tori, meshes, rings, lines); all-port",
    .rounding = "none; P = chunks pieces per block",
    .params = gl_params,
    .check = gl_check,
    .generate = gl_generate,
    .closed_form = gl_closed_form,
    .candidates = gl_candidates,
};

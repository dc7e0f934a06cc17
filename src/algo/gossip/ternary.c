/*
 * torus-ternary — gossip on tori whose sides are powers of three, by
 * balanced-ternary digits: Bruck's allgather in radix 3, each step's two
 * messages leaving on the two directions of one axis, the long steps first.
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997) gather in radix r: in step l every node receives from the r - 1
 * nodes at distances j r^l (j = 1 .. r-1) everything they hold, so what a
 * node holds grows r-fold a step. On a ring of n = 3^m the balanced digits
 * {-1, 0, +1} fit the torus: every offset in -(n-1)/2 .. (n-1)/2 is
 * sum_l d_l 3^l in exactly one way, so with g = 3^l e_i the step (i, l)
 * sends everything node v holds to v + g and to v - g, and node v, holding
 * v + S before the step, holds v + S + {0, g, -g} after it, without a piece
 * twice. Both messages go at most (n-1)/2 hops (no half-ring ties on an odd
 * ring: SimGrid's routes are ours).
 *
 * The order of the steps is free (the sums do not depend on it) and it is
 * what the price depends on: a step of distance 3^l is a translation, so
 * every arc of its two directions carries 3^l messages of |S| pieces. The
 * steps run longest first (level m-1 of every axis, then m-2, ..): the
 * messages that travel far are the small early ones, and the last steps,
 * with a third of everything in each message, go one hop, contention-free.
 * On torus:9x9 the busiest arcs carry 3*1 + 3*3 + 9 + 27 = 48 pieces (the
 * shortest-first order: 1 + 3 + 27 + 81 = 112; torus-doubling's seven
 * steps: 98), in 4 rounds of 2 messages a node.
 *
 * split=d (tori with d >= 2 equal sides): every block is cut into d
 * pieces and piece j runs the steps with the axes turned by j (step (i, l)
 * on axis i + j mod d), so every step sends on all 2d arcs of a node, each
 * message a d-th of the size: d times the start-ups for 1/d of the
 * transfer, the bandwidth end (on 9x9 at 64 KiB the busiest arcs carry 24
 * blocks' worth in 16 messages a node, against 48 in 8).
 *
 * Meshes and lines with such sides run the torus twin's steps, a step that
 * wraps on the torus walking the line the long way (straight to v + 3^l -
 * n): the same pieces, longer routes (line:3: 0 -> 2 over two arcs, two
 * messages on every arc, tests/test_torus_ternary.c).
 *
 * Rounds: sum_i log3 n_i, 2 split messages per node per round (all-port).
 * Cost (wormhole or circuit, contention=shared), steps j = 0, 1, .. of
 * distances D_j (descending): sum_j ts + D_j td + D_j 3^j (m/split) tl.
 * Restrictions: tori, rings, meshes and lines with every side a power of
 * three (3, 9, 27, ..), up to 3^12 nodes; all-port; shared arcs. Closed
 * form on tori and rings. Rounding: none.
 *
 * Trace, ring:9: step 0 (distance 3): v sends its piece to v + 3 and v - 3,
 * every arc carries 3 messages of 1 piece; step 1 (distance 1): v sends
 * {v, v+3, v-3} to v + 1 and v - 1. Cost 2 ts + 4 td + 6 m tl.
 */
#include "../algo_internal.h"

#include <string.h>

#define MG_TT_MAX_NODES 531441u /* 3^12: torus:729x729 */
#define MG_TT_MAX_STEPS (MG_MAX_DIMS * 20)

/* m for a side n = 3^m, else -1 */
static int levels_of(uint32_t n) {
  int m;
  return mg_is_pow(n, 3, &m) ? m : -1;
}

/* split=p: the pieces of a block, piece j running every step on axis
 * (i + j) mod d (1, or d on tori with equal sides). */
static mg_status split_of(const mg_problem_spec *pb, const mg_params *ps, int64_t *p, mg_err *err) {
  const mg_topo *t = &pb->topo;
  mg_status st = mg_param_int(ps, "split", 1, 1, MG_MAX_DIMS, p, err);
  if (st != MG_OK || *p == 1) return st;
  if (*p != t->d || t->d < 2)
    return mg_fail(err, MG_ERR_INVALID, "torus-ternary: split is 1 or the number of dimensions (%d)", t->d);
  for (int i = 1; i < t->d; i++)
    if (t->n[i] != t->n[0])
      return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary: split=%d needs equal sides (piece j turns the axes by j)",
                     (int)*p);
  return MG_OK;
}

/* The instance's checks; *p the split. */
static mg_status tt_setup(const mg_problem_spec *pb, const mg_params *ps, int64_t *p, mg_err *err) {
  const mg_topo *t = &pb->topo;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary is a gossip algorithm");
  if (t->kind != MG_TOPO_GRID) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary needs a grid");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary sends two messages a step: all-port");
  for (int i = 0; i < t->d; i++)
    if (levels_of(t->n[i]) < 1)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary needs every side a power of three (side %u)", t->n[i]);
  if (t->N > MG_TT_MAX_NODES)
    return mg_fail(err, MG_ERR_TOO_LARGE, "torus-ternary runs up to %u nodes", MG_TT_MAX_NODES);
  return split_of(pb, ps, p, err);
}

static mg_status tt_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t p;
  return tt_setup(pb, ps, &p, err);
}

/* The steps, longest first: level m-1 of every axis that has it, then
 * level m-2, .., level 0. */
typedef struct tt_steps {
  int n;
  int axis[MG_TT_MAX_STEPS];
  int64_t dist[MG_TT_MAX_STEPS]; /* 3^level */
} tt_steps;

static void tt_order(const mg_topo *t, tt_steps *st) {
  int top = 0;
  for (int i = 0; i < t->d; i++)
    if (levels_of(t->n[i]) > top) top = levels_of(t->n[i]);
  st->n = 0;
  for (int l = top - 1; l >= 0; l--)
    for (int i = 0; i < t->d; i++)
      if (l < levels_of(t->n[i])) {
        int64_t p = 1;
        for (int e = 0; e < l; e++)
          p *= 3;
        st->axis[st->n] = i, st->dist[st->n++] = p;
      }
}

static mg_status tt_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  tt_steps steps;
  mg_emit e;
  int64_t p = 1;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = tt_setup(pb, ps, &p, err);
  if (st != MG_OK) return st;
  tt_order(t, &steps);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-ternary", ps, (uint32_t)p, 0, steps.n, err));
  for (int j = 0; j < steps.n; j++) {
    for (uint32_t v = 0; v < t->N; v++) {
      for (int k = 0; k < 2 * p; k++) {
        int a = (steps.axis[j] + k / 2) % t->d;
        uint32_t x[MG_MAX_DIMS];
        int64_t sign = k % 2 ? -1 : 1;
        mg_topo_coords(t, v, x);
        uint32_t from = x[a];
        x[a] = (uint32_t)(((int64_t)x[a] + t->n[a] + sign * steps.dist[j]) % t->n[a]);
        /* a mesh walks its line straight: the long way where the torus wraps */
        int32_t hops = t->wrap[a] ? (int32_t)(sign * steps.dist[j]) : (int32_t)x[a] - (int32_t)from;
        /* everything v holds: the digits make it disjoint from what the
         * receiver holds */
        mg_transfer tr = mg_xfer_line(v, mg_topo_id(t, x), a, hops);
        tr.sel.flags = p > 1 ? MG_SEL_PIECE : MG_SEL_ALL;
        tr.sel.piece = (uint32_t)(k / 2);
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

static mg_status tt_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  tt_steps steps;
  int64_t p = 1;
  const mg_model *m = &pb->model;
  mg_status st = tt_setup(pb, ps, &p, err);
  if (st != MG_OK) return st;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary: closed form under contention=shared only");
  if (!mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-ternary: closed form on tori and rings only");
  tt_order(&pb->topo, &steps);
  double c = 0, held = 1;
  for (int j = 0; j < steps.n; j++) {
    c += m->ts + (double)steps.dist[j] * m->td + (double)steps.dist[j] * held * (pb->bytes / (double)p) * m->tl;
    held *= 3;
  }
  *cost = c;
  return MG_OK;
}

static mg_status tt_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  for (int p = 1; p <= pb->topo.d; p += pb->topo.d > 1 ? pb->topo.d - 1 : 1) {
    mg_params ps;
    int64_t q;
    mg_err e2;
    memset(&ps, 0, sizeof ps);
    mg_status st = mg_params_set_int(&ps, "split", p, err);
    if (st != MG_OK) return st;
    if (p > 1 && split_of(pb, &ps, &q, &e2) != MG_OK) continue;
    if ((st = visit(arg, &ps)) != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc tt_params[] = {
    {"split", "1",
     "pieces per block: 1, or d (equal sides), piece j running every step on axis i + j: 2d messages a step"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_torus_ternary = {
    .name = "torus-ternary",
    .problem = MG_GOSSIP,
    .summary = "Bruck's allgather in radix 3 by balanced digits: per axis and level, all held to v + 3^l and v - 3^l, "
               "longest steps first",
    .paper = "after Bruck et al. (TPDS 1997)",
    .restrictions = "tori, rings, meshes and lines with every side a power of three (meshes: the torus twin's "
                    "steps, wrapping ones the long way); all-port; shared arcs",
    .rounding = "none",
    .params = tt_params,
    .needs_shared = 1,
    .check = tt_check,
    .generate = tt_generate,
    .closed_form = tt_closed_form,
    .candidates = tt_candidates,
};

/*
 * exchange-ternary — complete exchange on tori whose sides are powers of
 * three, by balanced-ternary digits: Bruck's store-and-forward exchange in
 * radix 3, each step's two messages leaving on opposite arcs.
 *
 * Bruck, Ho, Kipnis, Upfal and Weathersby ("Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997) move, in step l of the radix-r exchange, every block whose
 * distance has digit j != 0 at position l by j r^l: r - 1 messages of N/r
 * blocks a step, log_r N steps. On a ring of n = 3^m the balanced digits
 * {-1, 0, +1} fit the torus: a distance delta in -(n-1)/2 .. (n-1)/2 is
 * sum_l d_l 3^l with m digits, so step (i, l) sends the blocks with digit
 * +1 to v + 3^l e_i and those with -1 to v - 3^l e_i, one message on each
 * direction of axis i, both at most (n-1)/2 hops (no half-ring ties on an
 * odd ring). Block (u, w) with delta = w - u starts at u and after the
 * steps so far is at u plus the moves of their digits; it is at w once
 * every digit has moved. Every message carries N/3 blocks.
 *
 * On torus:9x9: 4 steps (x by 1 and 3, y by 1 and 3), 8 messages of 27
 * blocks a node, against ceil(log2 81) = 7 messages of about 40 blocks
 * for Bruck on the ranks and 16 line messages for exchange-lines.
 * A step of distance 3^l is a translation: every arc of its direction
 * carries 3^l messages, so the busiest arcs see 27 (1 + 3 + 1 + 3) = 216
 * block-times on 9x9 (exchange-swing's contention-free 8x8: 192).
 *
 * Rounds: sum_i log3 n_i, two messages per node per round (all-port).
 * Cost (wormhole or circuit, contention=shared):
 *   sum over axes i and levels l of ts + 3^l td + 3^l (N/3) b tl.
 * Meshes and lines with such sides run the torus twin's steps, a step that
 * wraps on the torus walking the line the long way (v + 3^l - n, straight):
 * the same blocks, longer routes (line:3: 0 -> 2 over two arcs; every arc
 * carries two messages, tests/test_exchange_ternary.c), so issue 16's
 * "every exchange algorithm that can work on a mesh" holds for this one.
 *
 * Restrictions: tori, rings, meshes and lines with every side a power of
 * three (3, 9, 27, ..), up to MG_XT_MAX_NODES nodes; all-port; shared arcs.
 * Closed form on tori and rings. Rounding: none.
 */
#include "../algo_internal.h"

#include <stdlib.h>
#include <string.h>

#define MG_XT_MAX_NODES 59049u /* 3^10: the exchange's N^2 blocks are the simulator's limit long before */
#define MG_XT_MAX_STEPS (MG_MAX_DIMS * 20)

/* m for a side n = 3^m, else -1 */
static int levels_of(uint32_t n) {
  int m;
  return mg_is_pow(n, 3, &m) ? m : -1;
}

static mg_status xt_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  const mg_topo *t = &pb->topo;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary is an exchange algorithm");
  if (t->kind != MG_TOPO_GRID) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary needs a grid");
  if (pb->model.switching == MG_SW_BUS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary sends two messages a step: all-port");
  for (int i = 0; i < t->d; i++)
    if (levels_of(t->n[i]) < 1)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary needs every side a power of three (side %u)", t->n[i]);
  if (t->N > MG_XT_MAX_NODES)
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-ternary runs up to %u nodes", MG_XT_MAX_NODES);
  return MG_OK;
}

/* The steps in order: axis 0 level 0, axis 1 level 0, .., then level 1. */
typedef struct xt_steps {
  int n;
  int axis[MG_XT_MAX_STEPS], level[MG_XT_MAX_STEPS];
  int64_t dist[MG_XT_MAX_STEPS]; /* 3^level */
} xt_steps;

static void xt_order(const mg_topo *t, xt_steps *st) {
  st->n = 0;
  for (int l = 0;; l++) {
    int any = 0;
    for (int i = 0; i < t->d; i++)
      if (l < levels_of(t->n[i])) {
        int64_t p = 1;
        for (int e = 0; e < l; e++)
          p *= 3;
        st->axis[st->n] = i, st->level[st->n] = l, st->dist[st->n++] = p;
        any = 1;
      }
    if (!any) return;
  }
}

/* Balanced-ternary digit l of delta (mod n). */
static int digit(int64_t delta, uint32_t n, int l) {
  delta %= n;
  if (delta < 0) delta += n;
  if (delta > (int64_t)(n - 1) / 2) delta -= n;
  for (int e = 0;; e++) {
    int d = (int)(((delta % 3) + 3) % 3);
    if (d == 2) d = -1;
    if (e == l) return d;
    delta = (delta - d) / 3;
  }
}

/* One message's predicate: step j, from v, digit sign. */
typedef struct xt_ctx {
  const mg_topo *t;
  const xt_steps *st;
  int j, sign;
  uint32_t v;
} xt_ctx;

/* Block item = source * N + destination: in the message if its digit at
 * step j is the message's sign and the earlier steps brought it to v. */
static int xt_moves(uint64_t item, void *arg) {
  const xt_ctx *c = arg;
  const mg_topo *t = c->t;
  uint32_t xu[MG_MAX_DIMS], xw[MG_MAX_DIMS], xv[MG_MAX_DIMS];
  mg_topo_coords(t, (uint32_t)(item / t->N), xu);
  mg_topo_coords(t, (uint32_t)(item % t->N), xw);
  int a = c->st->axis[c->j];
  if (digit((int64_t)xw[a] - xu[a], t->n[a], c->st->level[c->j]) != c->sign) return 0;
  int64_t h[MG_MAX_DIMS];
  for (int i = 0; i < t->d; i++)
    h[i] = xu[i];
  for (int j = 0; j < c->j; j++) {
    int b = c->st->axis[j];
    h[b] += digit((int64_t)xw[b] - xu[b], t->n[b], c->st->level[j]) * c->st->dist[j];
  }
  mg_topo_coords(t, c->v, xv);
  for (int i = 0; i < t->d; i++)
    if ((uint32_t)(((h[i] % t->n[i]) + t->n[i]) % t->n[i]) != xv[i]) return 0;
  return 1;
}

static mg_status xt_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  xt_steps steps;
  mg_emit e;
  const mg_topo *t = &pb->topo;
  memset(&e, 0, sizeof e);
  mg_status st = xt_check(pb, ps, err);
  if (st != MG_OK) return st;
  xt_order(t, &steps);
  xt_ctx *ctx = mg_calloc((uint64_t)t->N * 2, sizeof *ctx);
  if (!ctx) return mg_fail(err, MG_ERR_NOMEM, "exchange-ternary: out of memory");
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-ternary", ps, 1, 0, steps.n, err));
  for (int j = 0; j < steps.n; j++) {
    int a = steps.axis[j];
    for (uint32_t v = 0; v < t->N; v++) {
      uint32_t x[MG_MAX_DIMS];
      for (int k = 0; k < 2; k++) {
        int sign = k ? -1 : 1;
        mg_topo_coords(t, v, x);
        x[a] = (uint32_t)((x[a] + t->n[a] + sign * steps.dist[j]) % t->n[a]);
        xt_ctx *c = &ctx[2 * v + (uint32_t)k];
        *c = (xt_ctx){t, &steps, j, sign, v};
        mg_transfer tr = mg_xfer(v, mg_topo_id(t, x));
        tr.sel.flags = MG_SEL_PRED;
        tr.sel.pred = xt_moves;
        tr.sel.pred_arg = c;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err)); /* the round is consumed here: ctx is reused next step */
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(ctx);
  return st;
}

static mg_status xt_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  xt_steps steps;
  const mg_model *m = &pb->model;
  mg_status st = xt_check(pb, ps, err);
  if (st != MG_OK) return st;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary: closed form under contention=shared only");
  if (!mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-ternary: closed form on tori and rings only");
  xt_order(&pb->topo, &steps);
  double c = 0, blocks = (double)(pb->topo.N / 3);
  for (int j = 0; j < steps.n; j++)
    c += m->ts + (double)steps.dist[j] * m->td + (double)steps.dist[j] * blocks * pb->bytes * m->tl;
  *cost = c;
  return MG_OK;
}

static const mg_param_desc xt_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_ternary = {
    .name = "exchange-ternary",
    .problem = MG_EXCHANGE,
    .summary = "Bruck's exchange in radix 3 by balanced digits: per axis and level, N/3 blocks to v + 3^l and v - 3^l",
    .paper = "after Bruck et al. (TPDS 1997)",
    .restrictions = "tori, rings, meshes and lines with every side a power of three (meshes: the torus twin's "
                    "steps, wrapping ones the long way); all-port; shared arcs",
    .rounding = "none",
    .params = xt_params,
    .needs_shared = 1,
    .check = xt_check,
    .generate = xt_generate,
    .closed_form = xt_closed_form,
};

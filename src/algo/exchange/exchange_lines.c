/*
 * exchange-lines — complete exchange dimension by dimension on any grid
 * (tori, meshes, rings, lines): the direct exchange along the lines of one
 * dimension at a time, with combining.
 *
 * Derivation (ours; the dimension-ordered scheme is that of Tseng, Ni and
 * Sheu's T1/C1 and of Suh and Shin's "All-to-all personalized communication
 * in multidimensional torus and mesh networks", with the ring stage replaced
 * by a direct one so that meshes work too). In stage k (k = 0 .. d-1) every
 * node u sends, to each other node v of its line along k, in one message,
 * every block it holds whose destination has v's coordinate along k. After
 * stage k every block held at u has its destination's coordinates 0..k
 * equal to u's; after stage d-1 every block is home. A message of stage k
 * carries N/n_k blocks (u holds N blocks, N/n_k per line coordinate).
 *
 * Routes: along the line only (one segment of dimension k). A mesh line is
 * walked straight (no wrap). On a wrapped dimension the shorter way round;
 * a tie (offset n_k/2, n_k even) goes + from an even coordinate and - from
 * an odd one, so that both directions of every ring arc carry the same load.
 *
 * Model: several messages per node per round share arcs, so the schedule
 * needs contention=shared or fair (strict rejects it) and all-port. Under
 * contention=shared, wormhole or circuit switching, each stage is one round
 * and costs (src/model/price.c)
 *   ts * max_u ceil((n_k - 1)/deg(u)) + h_k td + A_k (N/n_k) b tl,
 * h_k = floor(n_k/2) on a ring, n_k - 1 on a line, and A_k the messages on
 * the busiest arc of the line:
 *   ring, n_k even:  h(h-1)/2 + ceil(h/2), h = n_k/2 (offsets 1..h-1, and
 *                    the ties of the h senders behind the arc that go +;
 *                    n_k^2/8 when 4 | n_k)
 *   ring, n_k odd:   (n_k^2 - 1)/8  (offsets 1..(n_k-1)/2)
 *   line:            floor(n_k/2) ceil(n_k/2)  (the middle arc)
 * Against the bisection bound (Tseng, Ni, Sheu 1999 Lemma 8; src/sim/bound.c) the
 * transfer term is d times the bound on a k-ary d-cube (each stage moves
 * every block across its dimension's cut); exchange-allport
 * (exchange_allport.c) runs the d stages at once to remove that factor.
 *
 * Trace, mesh:3x2 (ids x + 3y): stage 0, one round: 0->1 {dst x=1: (0,1),
 * (0,4)}, 0->2 {(0,2),(0,5)}, 1->0, 1->2, 2->0, 2->1, and the same on row
 * y=1; stage 1: 0->3 {blocks at 0 with destination y=1: (0,3),(1,3),(2,3)},
 * 3->0, ...
 */
#include "../algo_internal.h"

#include <stdlib.h>
#include <string.h>

/* Class filter of exchange-allport: block (s, t) belongs to class
 * (col[s] + col[t]) mod classes. */
typedef struct xl_class {
  const uint8_t *col;
  uint64_t N;
  uint32_t classes, c;
} xl_class;

static int class_pred(uint64_t item, void *arg) {
  const xl_class *k = arg;
  uint64_t s = item / k->N, t = item % k->N;
  return (uint32_t)(k->col[s] + k->col[t]) % k->classes == k->c;
}

mg_status mg_xlines_check(const mg_problem_spec *pb, const char *name, mg_err *err) {
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s solves complete exchange", name);
  if (pb->topo.kind != MG_TOPO_GRID)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s needs a grid (ring, line, torus or mesh)", name);
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s sends to every node of a line at once: it needs port=all", name);
  return MG_OK;
}

/* The signed offset from coordinate a to b along dimension k, ties split
 * by the parity of a. */
static int32_t line_offset(const mg_topo *t, int k, uint32_t a, uint32_t b) {
  int64_t n = t->n[k], off = (int64_t)b - (int64_t)a;
  if (!t->wrap[k]) return (int32_t)off;
  if (off < 0) off += n;
  if (2 * off > n || (2 * off == n && (a & 1))) off -= n;
  return (int32_t)off;
}

/* One message of a round: class c to line coordinate v along k. */
typedef struct xl_msg {
  int c, k;
  uint32_t v;
  int32_t off;
} xl_msg;

/* Send order within a node's round (the executor posts its sends in this
 * order, and a node's start-ups run one after the other): farthest first,
 * alternating directions and dimensions at equal distance. */
static int far_first(const void *a, const void *b) {
  const xl_msg *x = a, *y = b;
  int32_t dx = x->off < 0 ? -x->off : x->off, dy = y->off < 0 ? -y->off : y->off;
  if (dx != dy) return dx > dy ? -1 : 1;
  if (x->c != y->c) return x->c - y->c;
  return (x->off < 0) - (y->off < 0);
}

static int near_first(const void *a, const void *b) {
  const xl_msg *x = a, *y = b;
  int32_t dx = x->off < 0 ? -x->off : x->off, dy = y->off < 0 ? -y->off : y->off;
  if (dx != dy) return dx < dy ? -1 : 1;
  if (x->c != y->c) return x->c - y->c;
  return (x->off < 0) - (y->off < 0);
}

mg_status mg_xlines_order(const mg_params *ps, int *order, mg_err *err) {
  const char *v = ps ? mg_params_get(ps, "order") : NULL;
  if (!v || !strcmp(v, "far"))
    *order = 1;
  else if (!strcmp(v, "near"))
    *order = 2;
  else if (!strcmp(v, "plain"))
    *order = 0;

  else
    return mg_fail(err, MG_ERR_INVALID, "parameter order must be far, near or plain, not '%s'", v);
  return MG_OK;
}

mg_status mg_xlines_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, const char *name,
                             int classes, mg_err *err) {
  const mg_topo *t = &pb->topo;
  mg_status st = MG_OK;
  mg_emit e;
  int begun = 0, order = 1;
  uint8_t *col = NULL;
  xl_msg *msg = NULL;
  size_t cap = 0;
  xl_class cls[MG_MAX_DIMS];
  if (classes < 1 || classes > t->d) return mg_fail(err, MG_ERR_INVALID, "%s: bad class count %d", name, classes);
  MG_CHECK(mg_xlines_order(ps, &order, err));
  for (int k = 0; k < t->d; k++)
    cap += t->n[k];
  msg = mg_calloc(cap, sizeof *msg);
  if (!msg) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a node's messages");
  if (classes > 1) {
    col = mg_calloc(t->N, 1);
    if (!col) {
      st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the block classes");
      goto out;
    }
    for (uint32_t u = 0; u < t->N; u++) {
      uint32_t x[MG_MAX_DIMS], s = 0;
      mg_topo_coords(t, u, x);
      for (int k = 0; k < t->d; k++)
        s += x[k] % (uint32_t)classes;
      col[u] = (uint8_t)(s % (uint32_t)classes);
    }
    for (int c = 0; c < classes; c++)
      cls[c] = (xl_class){.col = col, .N = t->N, .classes = (uint32_t)classes, .c = (uint32_t)c};
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, name, ps, 1, 0, t->d, err));
  begun = 1;
  for (int j = 0; j < t->d; j++) {
    for (uint32_t u = 0; u < t->N; u++) {
      uint32_t x[MG_MAX_DIMS];
      size_t nm = 0;
      mg_topo_coords(t, u, x);
      for (int c = 0; c < classes; c++) {
        int k = (c + j) % t->d;
        for (uint32_t v = 0; v < t->n[k]; v++)
          if (v != x[k]) msg[nm++] = (xl_msg){.c = c, .k = k, .v = v, .off = line_offset(t, k, x[k], v)};
      }
      if (order) qsort(msg, nm, sizeof *msg, order == 1 ? far_first : near_first);
      for (size_t i = 0; i < nm; i++) {
        uint32_t y[MG_MAX_DIMS];
        int k = msg[i].k;
        memcpy(y, x, sizeof y);
        y[k] = msg[i].v;
        mg_transfer tr = mg_xfer_line(u, mg_topo_id(t, y), k, msg[i].off);
        tr.sel.flags = MG_SEL_BOX;
        tr.sel.box.lo[k] = msg[i].v;
        tr.sel.box.len[k] = 1; /* the other dimensions: len 0, the whole axis */
        if (classes > 1) {
          tr.sel.flags |= MG_SEL_PRED;
          tr.sel.pred = class_pred;
          tr.sel.pred_arg = &cls[msg[i].c];
        }
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  if (begun) mg_emit_free(&e);
  free(col);
  free(msg);
  return st;
}

/* Messages on the busiest arc of a line of n nodes (see the header). */
double mg_xlines_arc_messages(const mg_topo *t, int k) {
  double n = t->n[k];
  if (!t->wrap[k]) return (double)(t->n[k] / 2) * (double)((t->n[k] + 1) / 2);
  if (t->n[k] % 2) return (n * n - 1) / 8;
  /* offsets 1 .. n/2-1, plus the ties of the n/2 senders before the arc
   * that go + (every other one: at most ceil(n/4)) */
  uint64_t h = t->n[k] / 2;
  return (double)(h * (h - 1) / 2 + (h + 1) / 2);
}

/* Start-ups of a round in which every node sends `msgs` messages: the
 * worst node pays ceil(msgs/deg). */
double mg_xlines_startups(const mg_topo *t, uint64_t msgs) {
  uint64_t worst = 0;
  for (uint32_t u = 0; u < t->N; u++) {
    uint64_t deg = (uint64_t)mg_topo_in_degree(t, u), s = deg ? (msgs + deg - 1) / deg : 1;
    if (s > worst) worst = s;
  }
  return (double)worst;
}

double mg_xlines_hops(const mg_topo *t, int k) { return t->wrap[k] ? (double)(t->n[k] / 2) : (double)(t->n[k] - 1); }

static mg_status lines_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int order;
  mg_status st = mg_xlines_order(ps, &order, err);
  return st != MG_OK ? st : mg_xlines_check(pb, "exchange-lines", err);
}

static mg_status lines_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return mg_xlines_generate(pb, ps, sink, "exchange-lines", 1, err);
}

static mg_status lines_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  const mg_model *m = &pb->model;
  const mg_topo *t = &pb->topo;
  if (m->contention != MG_CONT_SHARED || (m->switching != MG_SW_WORMHOLE && m->switching != MG_SW_CIRCUIT))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-lines: contention=shared, wormhole or circuit");
  double c = 0;
  for (int k = 0; k < t->d; k++)
    c += mg_xlines_startups(t, t->n[k] - 1) * m->ts + mg_xlines_hops(t, k) * m->td +
         mg_xlines_arc_messages(t, k) * (double)(t->N / t->n[k]) * pb->bytes * m->tl;
  *cost = c;
  return MG_OK;
}

static const mg_param_desc lines_params[] = {
    {"order", "far", "a node's sends: far (farthest first, alternating directions), near, plain (by coordinate)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_lines = {
    .name = "exchange-lines",
    .problem = MG_EXCHANGE,
    .summary = "direct exchange along the lines of each dimension in turn, combining (tori and meshes)",
    .paper = "dimension-ordered exchange (Tseng-Ni-Sheu T1/C1; Suh-Shin, tori and meshes), direct stages",
    .restrictions = "any grid (ring, line, torus, mesh); all-port, contention=shared or fair",
    .rounding = "none needed: one round per dimension, any extents",
    .params = lines_params,
    .needs_shared = 1,
    .check = lines_check,
    .generate = lines_generate,
    .closed_form = lines_closed_form,
};

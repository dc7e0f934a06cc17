/*
 * exchange-relay — exchange-allport (exchange_allport.c) with the ties of
 * even rings relayed so that every arc carries the same load on a torus
 * routed the way SimGrid's TORUS cluster routes it.
 *
 * Why: a message to the node exactly n/2 away along a ring (a tie) has two
 * shortest routes. SimGrid's TorusZone sends it + from every coordinate
 * but n/2 and - from n/2 (whatever route a schedule names), so on an 8-ring
 * the busiest + arc carries 1+2+3 messages plus 4 ties: 10 where a
 * balanced split carries 8 (docs/alltoall.md). No schedule made of direct
 * line messages can avoid it; a tie block must travel as two messages.
 *
 * Derivation (ours). The classes, dimension orders and combining are those
 * of exchange-allport: block (s, t) belongs to class c = (sum_i x_i(s) +
 * sum_i x_i(t)) mod d, class c takes the dimensions in the order c, c+1,
 * ..., and round j (j < d) runs stage j of every class. In a stage along a
 * wrapped dimension k of even extent n >= 4 (h = n/2), a block whose
 * destination is h away from its holder's coordinate a is a tie. Half of
 * the ties are relayed by default (parameter relay=Q: Q quarters, 0..4):
 * those with quarter-index ((sum over the other dimensions i of x_i(s) +
 * x_i(t)) >> 1) mod 4 below Q, which splits every tie message of a 2D
 * torus exactly when the other extent is a multiple of 8 (4 blocks a tie
 * message on 8x8), nearly otherwise. A relayed block goes the
 * other way from SimGrid's tie route: from a != h, -(h-1) hops, inside the
 * message the node sends to coordinate a+h+1 anyway (combining: no extra
 * start-up); from a = h, +(h-1) hops, inside the message to a+h-1. A
 * closing round after each main round sends the relayed blocks their last
 * hop (at most one message per direction of the round's dimensions), so
 * the next main round finds every block where exchange-allport has it: a
 * block relayed in one stage may be relayed again in a later one. (With a
 * single closing round at the end, the relayed blocks ride the next
 * stage's messages from the neighbouring line and unbalance it: 37 blocks
 * on the busiest arc of round 1 on 8x8, we tried it.) Direct ties are
 * routed as SimGrid routes them, so the model prices the arcs SimGrid
 * loads.
 *
 * Load, torus:8x8 (every message of a main round holds 4 blocks): an arc
 * + carries offsets 1..3 (6 messages, 24 blocks) and the direct halves of
 * the ties behind it (at most 4 senders, 2 blocks each: 8); an arc -
 * carries offsets 1..3 (24), the relayed halves (3 senders within h-1
 * hops, 2 each) and the h = 4 sender's direct tie (2): at most 32 blocks
 * either way, the 8 messages of the balanced split (half the bisection
 * bound, 64 b tl over both rounds), against 40 for exchange-allport on
 * SimGrid's routes. Each closing round carries 2 blocks a message: 68 b tl
 * in all (tests/test_exchange_relay.c). Start-ups: n_x + n_y - 2 messages
 * a main round (the tie message keeps its direct half), at most 4 in a
 * closing round.
 *
 * relay=0 relays nothing: exchange-allport's schedule with SimGrid's tie
 * routes named, so the model prices what SMPI runs (17.78 ms predicted,
 * 17.87 simulated at 32 KiB on the Paragon platform's 8x8).
 *
 * On SMPI (docs/alltoall.md) the balance does not pay: at 32 KiB per block
 * relay=2 takes 19.55 ms against relay=0's 17.87, and more at small blocks
 * (two more rounds of serial start-ups). SMPI's network model has
 * cross-traffic (each flow also loads its reverse route at 5%, and the
 * max-min solver gives the reverse flows of a saturated link its rate), so
 * loading both directions of every arc equally couples every flow to twice
 * the saturated links; without cross-traffic the SimGrid replay gives 14.0
 * ms against 15.9. Kept as the measured answer to "relay the ties".
 */
#include "../algo_internal.h"

#include <stdlib.h>
#include <string.h>

/* The block predicates of one node's round: geometry and the round. */
typedef struct xr_ctx {
  const mg_topo *t;
  uint32_t classes;
  int q4; /* quarters of the ties relayed: 0 .. 4 */
} xr_ctx;

typedef struct xr_sel {
  const xr_ctx *x;
  uint32_t c;      /* class */
  int k;           /* dimension of the stage */
  int mode;        /* 0: dest_k == v and not relayed here; 1: also the relayed ties (dest_k == tie) */
  uint32_t v, tie; /* target coordinate, the tie coordinate */
} xr_sel;

static int has_ties(const mg_topo *t, int k) { return t->wrap[k] && t->n[k] % 2 == 0 && t->n[k] >= 4; }

static uint32_t class_of(const mg_topo *t, uint32_t classes, const uint32_t *xs, const uint32_t *xt) {
  uint32_t s = 0;
  for (int i = 0; i < t->d; i++)
    s += xs[i] % classes + xt[i] % classes;
  return s % classes;
}

/* Whether (s, t) is a tie along k with an odd half-index. */
static int tie_odd(const mg_topo *t, int q4, int k, const uint32_t *xs, const uint32_t *xt) {
  if (!has_ties(t, k)) return 0;
  uint32_t n = t->n[k];
  if ((xt[k] + n - xs[k]) % n != n / 2) return 0;
  uint64_t sum = 0;
  for (int i = 0; i < t->d; i++)
    if (i != k) sum += (uint64_t)xs[i] + xt[i];
  return (int)((sum >> 1) & 3) < q4;
}

static int sel_pred(uint64_t item, void *arg) {
  const xr_sel *q = arg;
  const mg_topo *t = q->x->t;
  uint32_t xs[MG_MAX_DIMS], xt[MG_MAX_DIMS];
  mg_topo_coords(t, (uint32_t)(item / t->N), xs);
  mg_topo_coords(t, (uint32_t)(item % t->N), xt);
  if (class_of(t, q->x->classes, xs, xt) != q->c) return 0;
  int relayed = tie_odd(t, q->x->q4, q->k, xs, xt);
  if (q->mode == 2) return relayed; /* a last hop: the box names the coordinate */
  if (xt[q->k] == q->v) return !relayed;
  return q->mode == 1 && xt[q->k] == q->tie && relayed;
}

/* One message of a main round. */
typedef struct xr_msg {
  uint32_t c, v;
  int k, mode;
  int32_t off; /* the route: hops along k */
  uint32_t tie;
} xr_msg;

static int32_t absi(int32_t v) { return v < 0 ? -v : v; }

static int far_first(const void *a, const void *b) {
  const xr_msg *x = a, *y = b;
  if (absi(x->off) != absi(y->off)) return absi(x->off) > absi(y->off) ? -1 : 1;
  if (x->c != y->c) return x->c < y->c ? -1 : 1;
  return (x->off < 0) - (y->off < 0);
}

static int near_first(const void *a, const void *b) {
  const xr_msg *x = a, *y = b;
  if (absi(x->off) != absi(y->off)) return absi(x->off) < absi(y->off) ? -1 : 1;
  if (x->c != y->c) return x->c < y->c ? -1 : 1;
  return (x->off < 0) - (y->off < 0);
}

/* A node's messages along k for class c from coordinate a: offsets the
 * shorter way round (ties the way SimGrid routes them), the relayed ties
 * inside the message to a+h+1 (a != h) or a+h-1 (a = h). */
static size_t line_msgs(const mg_topo *t, int k, uint32_t c, uint32_t a, xr_msg *out) {
  uint32_t n = t->n[k], h = n / 2;
  size_t m = 0;
  int ties = has_ties(t, k);
  uint32_t tie = (a + h) % n, host = ties ? (a != h ? (a + h + 1) % n : (a + h - 1) % n) : n;
  for (uint32_t v = 0; v < n; v++) {
    if (v == a) continue;
    int64_t off = t->wrap[k] ? mg_ring_offset_simgrid(n, a, v) : (int64_t)v - a;
    out[m++] = (xr_msg){.c = c, .v = v, .k = k, .mode = v == host, .off = (int32_t)off, .tie = tie};
  }
  return m;
}

/* need[u * 2 + (sign > 0)]: after main round j, node u sends a last-hop
 * message one hop along its class's dimension of that round, in that
 * direction. A block of class c relayed in stage j (along k = c+j mod d)
 * sits one hop short along k, with its destination's coordinates along
 * the dimensions of stages 0..j-1 and its source's along the others. */
static void closing_needs(const mg_topo *t, uint32_t classes, int q4, int j, uint8_t *need) {
  for (uint32_t s = 0; s < t->N; s++) {
    uint32_t xs[MG_MAX_DIMS];
    mg_topo_coords(t, s, xs);
    for (uint32_t r = 0; r < t->N; r++) {
      uint32_t xt[MG_MAX_DIMS], at[MG_MAX_DIMS];
      if (r == s) continue;
      mg_topo_coords(t, r, xt);
      uint32_t c = class_of(t, classes, xs, xt);
      int k = (int)((c + (uint32_t)j) % (uint32_t)t->d);
      if (!tie_odd(t, q4, k, xs, xt)) continue;
      memcpy(at, xs, sizeof at);
      for (int i = 0; i <= j; i++) {
        int q = (int)((c + (uint32_t)i) % (uint32_t)t->d);
        at[q] = xt[q];
      }
      uint32_t n = t->n[k], h = n / 2;
      /* relayed -(h-1) from xs != h: at xt+1, last hop -; from xs = h:
       * +(h-1), at xt-1, last hop + */
      int plus = xs[k] == h;
      at[k] = plus ? (xt[k] + n - 1) % n : (xt[k] + 1) % n;
      need[(uint64_t)mg_topo_id(t, at) * 2 + (uint64_t)plus] = 1;
    }
  }
}

/* The "relay" parameter: how many quarters of every tie go the other way. */
static mg_status relay_quarters(const mg_params *ps, int *q4, mg_err *err) {
  const char *v = ps ? mg_params_get(ps, "relay") : NULL;
  *q4 = 2;
  if (!v) return MG_OK;
  if (strlen(v) != 1 || v[0] < '0' || v[0] > '4')
    return mg_fail(err, MG_ERR_INVALID, "parameter relay takes quarters 0..4, not '%s'", v);
  *q4 = v[0] - '0';
  return MG_OK;
}

static mg_status relay_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int order;
  int q4;
  mg_status st = mg_xlines_order(ps, &order, err);
  if (st == MG_OK) st = relay_quarters(ps, &q4, err);
  if (st == MG_OK) st = mg_xlines_check(pb, "exchange-relay", err);
  if (st != MG_OK) return st;
  if (pb->topo.N > 65536)
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-relay walks all N^2 blocks once: at most 65536 nodes");
  return MG_OK;
}

static mg_status relay_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  const mg_topo *t = &pb->topo;
  mg_status st = MG_OK;
  mg_emit e;
  int begun = 0, order = 1, any = 0;
  uint32_t classes = (uint32_t)t->d;
  int q4 = 2;
  if ((st = relay_quarters(ps, &q4, err)) != MG_OK) return st;
  xr_ctx ctx = {t, classes, q4};
  xr_msg *msg = NULL;
  xr_sel *sel = NULL;
  uint8_t *need = NULL;
  size_t cap = 0;
  if ((st = relay_check(pb, ps, err)) != MG_OK || (st = mg_xlines_order(ps, &order, err)) != MG_OK) return st;
  for (int k = 0; k < t->d; k++) {
    cap += t->n[k];
    any |= has_ties(t, k) && q4 > 0;
  }
  msg = mg_calloc(cap, sizeof *msg);
  /* the selectors live until the end: a sink may keep a round's
   * transfers (and their predicates) until the schedule ends; one per
   * (round, class, holder coordinate, target coordinate, mode) */
  size_t nsel = 0, allsel = 0;
  for (int j = 0; j < t->d; j++)
    for (uint32_t c = 0; c < classes; c++) {
      uint32_t n = t->n[(c + (uint32_t)j) % (uint32_t)t->d];
      allsel += 2 * (size_t)n * n + 1;
    }
  sel = mg_calloc(allsel, sizeof *sel);
  need = mg_calloc((size_t)t->N * 2, 1);
  if (!msg || !sel || !need) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a node's messages");
    goto out;
  }
  st = mg_emit_begin(&e, sink, pb, "exchange-relay", ps, 1, 0, t->d * (1 + any), err);
  if (st != MG_OK) goto out;
  begun = 1;
  for (int j = 0; j < t->d; j++) {
    size_t base[MG_MAX_DIMS];
    for (uint32_t c = 0; c < classes; c++) {
      int k = (int)((c + (uint32_t)j) % (uint32_t)t->d);
      uint32_t n = t->n[k];
      base[c] = nsel;
      for (uint32_t a = 0; a < n; a++)
        for (uint32_t v = 0; v < n; v++)
          for (int mode = 0; mode < 2; mode++)
            sel[nsel++] = (xr_sel){.x = &ctx, .c = c, .k = k, .mode = mode, .v = v, .tie = (a + n / 2) % n};
    }
    for (uint32_t u = 0; u < t->N; u++) {
      uint32_t x[MG_MAX_DIMS];
      size_t nm = 0;
      mg_topo_coords(t, u, x);
      for (uint32_t c = 0; c < classes; c++) {
        int k = (int)((c + (uint32_t)j) % (uint32_t)t->d);
        nm += line_msgs(t, k, c, x[k], msg + nm);
      }
      if (order) qsort(msg, nm, sizeof *msg, order == 1 ? far_first : near_first);
      for (size_t i = 0; i < nm; i++) {
        const xr_msg *m = &msg[i];
        uint32_t y[MG_MAX_DIMS], n = t->n[m->k];
        memcpy(y, x, sizeof y);
        y[m->k] = m->v;
        mg_transfer tr = mg_xfer_line(u, mg_topo_id(t, y), m->k, m->off);
        tr.sel.flags = MG_SEL_BOX | MG_SEL_PRED;
        /* destinations with coordinate v along k, and the tie's when the
         * relayed ties ride along: a cyclic interval of length 2 */
        tr.sel.box.lo[m->k] = m->mode ? (m->v == (m->tie + 1) % n ? m->tie : m->v) : m->v;
        tr.sel.box.len[m->k] = m->mode ? 2 : 1;
        tr.sel.pred = sel_pred;
        tr.sel.pred_arg = &sel[base[m->c] + ((size_t)x[m->k] * n + m->v) * 2 + (size_t)m->mode];
        st = mg_emit_add(&e, &tr, err);
        if (st != MG_OK) goto out;
      }
    }
    st = mg_emit_round(&e, err);
    if (st != MG_OK) goto out;
    if (!any) continue;
    /* the last hops of the blocks relayed in this round */
    memset(need, 0, (size_t)t->N * 2);
    closing_needs(t, classes, q4, j, need);
    size_t hop0 = nsel;
    for (uint32_t c = 0; c < classes; c++)
      sel[nsel++] = (xr_sel){.x = &ctx, .c = c, .k = (int)((c + (uint32_t)j) % (uint32_t)t->d), .mode = 2};
    for (uint32_t u = 0; u < t->N; u++) {
      uint32_t x[MG_MAX_DIMS];
      mg_topo_coords(t, u, x);
      for (int plus = 0; plus < 2; plus++) {
        if (!need[(size_t)u * 2 + (size_t)plus]) continue;
        for (uint32_t c = 0; c < classes; c++) {
          int k = (int)((c + (uint32_t)j) % (uint32_t)t->d);
          if (!has_ties(t, k)) continue;
          uint32_t y[MG_MAX_DIMS], n = t->n[k];
          memcpy(y, x, sizeof y);
          y[k] = plus ? (x[k] + 1) % n : (x[k] + n - 1) % n;
          mg_transfer tr = mg_xfer_line(u, mg_topo_id(t, y), k, plus ? 1 : -1);
          tr.sel.flags = MG_SEL_BOX | MG_SEL_PRED;
          tr.sel.box.lo[k] = y[k];
          tr.sel.box.len[k] = 1;
          tr.sel.pred = sel_pred;
          tr.sel.pred_arg = &sel[hop0 + c];
          st = mg_emit_add(&e, &tr, err);
          if (st != MG_OK) goto out;
        }
      }
    }
    st = mg_emit_round(&e, err);
    if (st != MG_OK) goto out;
  }
  st = mg_emit_end(&e, err);
out:
  if (begun) mg_emit_free(&e);
  free(msg);
  free(sel);
  free(need);
  return st;
}

static const mg_param_desc relay_params[] = {
    {"order", "far", "a node's sends: far (farthest first, alternating directions and classes), near, plain"},
    {"relay", "2", "quarters of every tie relayed the other way round (0: none, SimGrid's tie routes only)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_relay = {
    .name = "exchange-relay",
    .problem = MG_EXCHANGE,
    .summary = "exchange-allport with half the ring ties relayed the other way round (SimGrid's tie routes)",
    .paper = "after Suh-Yalamanchili, Tseng-Lin-Gupta-Panda; tie relays our derivation",
    .restrictions = "any grid; all-port, contention=shared or fair; at most 65536 nodes",
    .rounding = "ties split by a half-index: exact halves on 2D tori with even extents",
    .params = relay_params,
    .needs_shared = 1,
    .check = relay_check,
    .generate = relay_generate,
};

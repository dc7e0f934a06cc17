/*
 * torgos finish=pair9 — TORGOS's points doubled, so that three rounds
 * finish: our addition to Juurlink, Rao, Sibeyn 1996 section 5.2.
 *
 * TORGOS gathers every class on one point of each 9 x 9 period in 4 rounds,
 * and from there no finish takes 3 (docs/paper-notes.md, Table 2). From
 * two points a class, (c, c) and (c + 4, c) of the period, a finish of 3
 * rounds and 7 D exists (torgos_finish.c). This schedule reaches that state
 * in 2 + 2 floor(a/2) rounds, a = n/9 points a line, so on 27 x 27 it has 7
 * rounds where TORGOS has 8.
 *
 *   Classes. Both pieces of an origin go to the same class, so a point
 *     gathers n0 n1 / 9 origins where TORGOS's gathers about twice as many
 *     half-origins: the messages weigh twice TORGOS's, but one family of
 *     points needs only the rows in a round and the other only the columns.
 *     Class c is the origins whose residues mod 9 lie in T_c = T_0 + (c, c);
 *     T_0 holds one residue of every diagonal x0 - x1 = k (mod 9), so the
 *     nine T_c tile the period.
 *   Rounds 1 and 2 (the tables below): every point gathers one copy of each
 *     residue of its class, over straight paths of at most 2 and 3 hops,
 *     messages of 1 and 2 origins. The tables are class 0's messages; class
 *     c's are their shift by (c, c), and in each round no two of class 0's
 *     arcs are shifts of each other (same direction, same x0 - x1 mod 9 at
 *     the tail), so the shifts never share an arc. Found by a SAT solver
 *     (scripts/torgos_gather9_sat.py 2/3 --d=4 --cap=2).
 *   Phase A, floor(a/2) rounds: the first points, (c, c) + 9Z^2, circulate
 *     along their rows what they gathered (TORGOS's phase 2: Approach 1
 *     among the a points of a line, 9 origins a step), while the second
 *     points, (c + 4, c) + 9Z^2, circulate along their columns. The points
 *     of the nine classes of one family meet every line once per 9 nodes, so
 *     every row arc carries one first-point message and every column arc one
 *     second-point message.
 *   Phase B, floor(a/2) rounds: the same with the axes exchanged (TORGOS's
 *     phase 3, 9a origins a step): now every point holds every origin of its
 *     class, both pieces: the state the finish starts from.
 *   Finish: torgos_finish.c's second table, 3 rounds of 2, 2 and 3 classes
 *     a message, where a class is one colour of ours, W_c or B_c: D = n0 n1
 *     / 18 units.
 * Cost on 27 x 27, distance neglected, one node's data the unit: rounds of
 * 1, 2, 9, 27 units and 7 D = 283.5: 7 r + 322.5 (TORGOS(3,3,1): 8 r + 344).
 * Rectangular tori run max(floor(a0/2), floor(a1/2)) rounds a phase.
 */
#include "torgos_pair.h"

#include "torgos_finish.h"

#include <stdlib.h>
#include <string.h>

#define TP MG_TF_PERIOD

/* T_0 by diagonals: its residue on x0 - x1 = k (mod 9) is (t0_x0[k], t0_x0[k] - k) */
static const uint8_t t0_x0[TP] = {0, 3, 2, 1, 4, 7, 6, 7, 6};

uint32_t mg_tp_class(uint32_t x0, uint32_t x1) {
  uint32_t k = (x0 % TP + TP - x1 % TP) % TP;
  return (x0 % TP + TP - t0_x0[k]) % TP;
}

/* Class 0's message: tail (x0, x1) of the period, a straight path of `hops`
 * along `dim`, carrying the n origins at `off` from the tail (round 1: its own). */
typedef struct tp_msg {
  uint8_t x0, x1;
  int8_t dim, hops;
  uint8_t n;
  int8_t off[2][2];
} tp_msg;

static const tp_msg gather1[] = {
    {0, 0, 0, 1, 1, {{0, 0}}},  {1, 7, 0, -1, 1, {{0, 0}}}, {1, 7, 1, 2, 1, {{0, 0}}},  {2, 0, 0, -2, 1, {{0, 0}}},
    {2, 0, 0, 2, 1, {{0, 0}}},  {3, 2, 0, 1, 1, {{0, 0}}},  {3, 2, 1, -2, 1, {{0, 0}}}, {4, 0, 0, -1, 1, {{0, 0}}},
    {6, 0, 0, -2, 1, {{0, 0}}}, {6, 7, 0, -2, 1, {{0, 0}}}, {6, 7, 1, 2, 1, {{0, 0}}},  {7, 0, 0, 2, 1, {{0, 0}}},
    {7, 2, 0, 2, 1, {{0, 0}}},  {7, 2, 1, -2, 1, {{0, 0}}},
};
static const tp_msg gather2[] = {
    {0, 2, 1, -2, 1, {{-2, 0}}},        {0, 7, 1, 2, 1, {{1, 0}}},          {1, 0, 0, 3, 2, {{-1, 0}, {0, -2}}},
    {3, 0, 0, -3, 2, {{0, 2}, {1, 0}}}, {4, 2, 1, -2, 1, {{-1, 0}}},        {4, 7, 1, 2, 1, {{2, 0}}},
    {6, 0, 0, 3, 2, {{0, 0}, {0, -2}}}, {7, 0, 0, -3, 2, {{0, 0}, {0, 2}}},
};
static const struct {
  const tp_msg *m;
  size_t n;
} gather[2] = {{gather1, sizeof gather1 / sizeof *gather1}, {gather2, sizeof gather2 / sizeof *gather2}};

/* Class 0's points: the first (0, 0), the second (4, 0). */
static const uint8_t point_x0[2] = {0, 4};

/* Where the origins a point holds after round 2 lie, as offsets from it:
 * the tails of round-1 messages into it, and round 2's carried origins. */
static int gathered(int which, int8_t out[TP][2]) {
  int n = 0;
  if (mg_tp_class(point_x0[which], 0) == 0) out[n][0] = out[n][1] = 0, n++;
  for (int g = 0; g < 2; g++)
    for (size_t i = 0; i < gather[g].n; i++) {
      const tp_msg *m = &gather[g].m[i];
      int d0 = m->dim == 0 ? m->hops : 0, d1 = m->dim == 1 ? m->hops : 0;
      if ((m->x0 + d0 + TP) % TP != point_x0[which] || (m->x1 + d1 + TP) % TP != 0) continue;
      for (int k = 0; k < m->n; k++) {
        if (n == TP) return -1;
        out[n][0] = (int8_t)(m->off[k][0] - d0), out[n][1] = (int8_t)(m->off[k][1] - d1), n++;
      }
    }
  return n;
}

/* A transfer's origins: those at `off` from (q0, q1), or along an axis with
 * any0/any1 every copy of such an origin 9 apart (a line's circulation done). */
typedef struct tp_sel {
  uint32_t n0, n1, q0, q1;
  const int8_t (*off)[2];
  uint32_t noff;
  uint8_t any0, any1;
} tp_sel;

static uint32_t wrap(int64_t v, uint32_t n) { return (uint32_t)(((v % n) + n) % n); }

static int tp_carried(uint64_t item, void *arg) {
  const tp_sel *s = arg;
  uint64_t o = item / 2;
  uint32_t x0 = (uint32_t)(o % s->n0), x1 = (uint32_t)(o / s->n0 % s->n1);
  for (uint32_t k = 0; k < s->noff; k++) {
    uint32_t d0 = wrap((int64_t)x0 - s->q0 - s->off[k][0], s->n0), d1 = wrap((int64_t)x1 - s->q1 - s->off[k][1], s->n1);
    if ((s->any0 ? d0 % TP : d0) == 0 && (s->any1 ? d1 % TP : d1) == 0) return 1;
  }
  return 0;
}

static uint32_t node(const mg_topo *t, int64_t x0, int64_t x1) {
  return wrap(x0, t->n[0]) * t->stride[0] + wrap(x1, t->n[1]) * t->stride[1];
}

static mg_status add(const mg_topo *t, mg_emit *e, int64_t x0, int64_t x1, int dim, int32_t hops, tp_sel *sel,
                     mg_err *err) {
  mg_transfer tr = mg_xfer_line(node(t, x0, x1), node(t, x0 + (dim == 0) * hops, x1 + (dim == 1) * hops), dim, hops);
  tr.sel.flags = MG_SEL_PRED;
  tr.sel.pred = tp_carried;
  tr.sel.pred_arg = sel;
  return mg_emit_add(e, &tr, err);
}

int64_t mg_tp_rounds(const mg_topo *t) {
  uint32_t f0 = t->n[0] / TP / 2, f1 = t->n[1] / TP / 2, f = f0 > f1 ? f0 : f1;
  return 2 + 2 * (int64_t)f + mg_tf_rounds(MG_TF_PAIR);
}

/* Step s (1-based) of a circulation: the points of family `fam` (0 first,
 * 1 second) along axis `dim` pass on the data of the point s - 1 steps
 * behind; `any` marks the axis whose circulation is done. */
static mg_status circulate(const mg_topo *t, mg_emit *e, int fam, int dim, uint32_t s, const int8_t (*off)[2],
                           tp_sel *sel, size_t cap, size_t *k, mg_err *err) {
  uint32_t a0 = t->n[0] / TP, a1 = t->n[1] / TP, a = dim == 0 ? a0 : a1;
  if (s > a / 2) return MG_OK;
  mg_status st = MG_OK;
  for (uint32_t c = 0; c < TP && st == MG_OK; c++)
    for (uint32_t i = 0; i < a0 && st == MG_OK; i++)
      for (uint32_t j = 0; j < a1 && st == MG_OK; j++) {
        int64_t p0 = c + (fam ? point_x0[1] : 0) + (int64_t)TP * i, p1 = c + (int64_t)TP * j;
        for (int dir = 1; dir >= -1 && st == MG_OK; dir -= 2) {
          if (dir < 0 && a % 2 == 0 && s == a / 2) break; /* both ways reach the same point */
          int64_t back = -(int64_t)dir * (int64_t)(s - 1) * TP;
          if (*k == cap) return mg_fail(err, MG_ERR_INVALID, "torgos finish=pair9: more transfers than counted");
          tp_sel *q = &sel[(*k)++];
          *q = (tp_sel){t->n[0], t->n[1], wrap(p0 + (dim == 0) * back, t->n[0]), wrap(p1 + (dim == 1) * back, t->n[1]),
                        off,     TP,      (uint8_t)(dim == 1 && fam == 0),       (uint8_t)(dim == 0 && fam == 1)};
          st = add(t, e, p0, p1, dim, dir * TP, q, err);
        }
      }
  return st;
}

mg_status mg_tp_emit(const mg_topo *t, mg_emit *e, mg_err *err) {
  int8_t off[2][TP][2];
  if (gathered(0, off[0]) != TP || gathered(1, off[1]) != TP)
    return mg_fail(err, MG_ERR_INVALID, "torgos finish=pair9: its gather table does not give 9 origins a point");
  uint32_t a0 = t->n[0] / TP, a1 = t->n[1] / TP, f0 = a0 / 2, f1 = a1 / 2, f = f0 > f1 ? f0 : f1;
  /* one selector a transfer of the busiest round: a gather round's (its
   * table's messages a class a period) or a circulation's (two families,
   * two directions) */
  size_t most = 4;
  for (int g = 0; g < 2; g++)
    if (gather[g].n > most) most = gather[g].n;
  most *= (size_t)TP * a0 * a1;
  tp_sel *sel = mg_calloc(most, sizeof *sel);
  mg_tf_state fin = {0};
  mg_status st = MG_OK;
  if (!sel) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  for (int g = 0; g < 2; g++) {
    size_t k = 0;
    for (uint32_t c = 0; c < TP; c++)
      for (uint32_t i = 0; i < a0; i++)
        for (uint32_t j = 0; j < a1; j++)
          for (size_t q = 0; q < gather[g].n; q++) {
            const tp_msg *m = &gather[g].m[q];
            int64_t x0 = m->x0 + c + (int64_t)TP * i, x1 = m->x1 + c + (int64_t)TP * j;
            sel[k] = (tp_sel){t->n[0], t->n[1], wrap(x0, t->n[0]), wrap(x1, t->n[1]), m->off, m->n, 0, 0};
            MG_CHECK(add(t, e, x0, x1, m->dim, m->hops, &sel[k], err));
            k++;
          }
    MG_CHECK(mg_emit_round(e, err)); /* consumed here: sel is reused next round */
  }
  for (int phase = 0; phase < 2; phase++)
    for (uint32_t s = 1; s <= f; s++) {
      size_t k = 0;
      /* phase A: first points along rows, second along columns; B: the other way */
      MG_CHECK(circulate(t, e, 0, phase, s, off[0], sel, most, &k, err));
      MG_CHECK(circulate(t, e, 1, 1 - phase, s, off[1], sel, most, &k, err));
      MG_CHECK(mg_emit_round(e, err));
    }
  MG_CHECK(mg_tf_begin(&fin, t, MG_TF_PAIR, err));
  for (int r = 0; r < mg_tf_rounds(MG_TF_PAIR); r++) {
    MG_CHECK(mg_tf_emit(&fin, t, r, e, err));
    MG_CHECK(mg_emit_round(e, err));
  }
out:
  mg_tf_free(&fin);
  free(sel);
  return st;
}

double mg_tp_cost(const mg_topo *t, const mg_model *m, double bytes) {
  uint32_t a0 = t->n[0] / TP, a1 = t->n[1] / TP, f0 = a0 / 2, f1 = a1 / 2, f = f0 > f1 ? f0 : f1;
  double total = 0;
  for (int g = 0; g < 2; g++) {
    double worst = 0;
    for (size_t q = 0; q < gather[g].n; q++) {
      const tp_msg *msg = &gather[g].m[q];
      double v = abs(msg->hops) * m->td + msg->n * bytes * m->tl;
      if (v > worst) worst = v;
    }
    total += m->ts + worst;
  }
  /* phase A: 9 origins a step; phase B: a line's 9 a origins (first points
   * carry their row's, second points their column's) */
  total += f * (m->ts + TP * m->td + TP * bytes * m->tl);
  for (uint32_t s = 1; s <= f; s++) {
    double items = s <= f1 ? (double)TP * a0 : 0;
    if (s <= f0 && (double)TP * a1 > items) items = (double)TP * a1;
    total += m->ts + TP * m->td + items * bytes * m->tl;
  }
  for (int r = 0; r < mg_tf_rounds(MG_TF_PAIR); r++)
    total += m->ts + mg_tf_round_cost(MG_TF_PAIR, r, m, (double)t->n[0] * t->n[1] / TP * bytes / 2);
  return total;
}

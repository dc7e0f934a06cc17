/*
 * TORGOS's finish from the spacing-9 diagonal in four rounds (torgos
 * finish=period9): our addition to Juurlink, Rao, Sibeyn 1996 section 5.2.
 *
 * After TORGOS's phase 3 with s = n0/a = 9 the diagonal points, the nodes
 * with x0 - x1 = 0 (mod 9), hold one class of each colour: point (c, c) of
 * the 9 x 9 period holds W_c, the white pieces of the origins with x1 = c
 * (mod 9), and B_c, the black pieces of the origins with x0 = c (mod 9);
 * every class is D = n0 n1 / 18 units. Phase 4 with b = 3, 3 ends the
 * gossip in 4 rounds of D, D, 3D and 3D (8 D). The table below ends it in 4
 * rounds of D, D, 2D and 3D (7 D): at n = 27 (D = 40.5) TORGOS(3) costs
 * 8 r + 303.5 instead of 8 r + 344, 1103.5 at r = 100 where the paper prints
 * 1122 (docs/paper-notes.md, Table 2).
 *
 * The table is one schedule of the 9 x 9 period, invariant under the shift
 * (1, 1) with the classes shifted by one: node (d + t, t) does what node
 * (d, 0) does, translated by (t, t), its classes' indices plus t (mod 9).
 * So it lists, for the nine orbits d, each message's straight path (dx, dy)
 * from (d, 0) and its classes. In every round each arc carries at most one
 * message and a message carries only classes its tail holds, so the
 * schedule lifts to every torus whose extents are multiples of 9 (a path of
 * at most 4 hops never meets its own translate by 9). It was found by a SAT
 * solver (scripts/torgos_finish9_sat.py 4/4/2/1 --sizes=1/1/2/3: paths of
 * at most 4, 4, 2 and 1 hops, messages of at most 1, 1, 2 and 3 classes);
 * the simulator verifies every schedule built from it.
 *
 * The second table (torgos finish=pair9, torgos_pair.c) finishes in three
 * rounds of 2, 2 and 3 classes a message (7 D) from the state where every
 * class sits on two points of the period, (c, c) and (c + 4, c), both
 * colours on both (scripts/torgos_finish9_sat.py 4/4/4 --state=0,4:0,4
 * --sizes=2/2/3); there class c is every piece of the origins
 * torgos_pair.c's mg_tp_class puts in it, W_c its white pieces, B_c its
 * black ones.
 */
#include "torgos_finish.h"
#include "torgos_pair.h"

#include <stdlib.h>

typedef struct tf_msg {
  uint8_t orbit;
  int8_t dx, dy;
  const char *classes; /* "W1W3B0": W_1, W_3 and B_0 of the orbit's representative */
} tf_msg;

static const tf_msg round1[] = {
    {0, -3, 0, "W0"},
    {0, 0, -2, "B0"},
    {0, 0, 4, "W0"},
    {0, 4, 0, "B0"},
};
static const tf_msg round2[] = {
    {0, -3, 0, "B0"}, {0, 0, -1, "W0"}, {0, 0, 2, "B0"},  {0, 2, 0, "W0"},  {2, -2, 0, "B2"}, {2, 0, -3, "B2"},
    {2, 2, 0, "B2"},  {4, 0, 4, "B0"},  {4, 1, 0, "B0"},  {5, -3, 0, "W5"}, {5, 0, -1, "W5"}, {5, 0, 1, "W5"},
    {5, 3, 0, "W5"},  {6, -1, 0, "W0"}, {6, 0, -2, "W0"}, {6, 0, 1, "W0"},
};
static const tf_msg round3[] = {
    {0, -1, 0, "B2B5"}, {0, 0, -2, "B2B5"}, {0, 1, 0, "B0B5"},  {1, -1, 0, "W1"},   {1, 0, 2, "W1"},
    {1, 1, 0, "W1"},    {2, -1, 0, "W5B2"}, {2, 0, -2, "W0B2"}, {2, 0, 1, "W0B2"},  {2, 1, 0, "W0W5"},
    {4, 0, -1, "B0B2"}, {4, 0, 1, "W4B0"},  {4, 2, 0, "B2"},    {5, -2, 0, "W8B5"}, {5, 0, -2, "W0B0"},
    {6, -1, 0, "W6"},   {6, 0, 2, "W0B0"},  {6, 1, 0, "W6B0"},  {7, 0, -1, "B7"},   {7, 0, 1, "B7"},
    {7, 2, 0, "B7"},    {8, -2, 0, "W2W5"}, {8, 0, -1, "W2W5"}, {8, 0, 1, "W5"},
};
static const tf_msg round4[] = {
    {0, -1, 0, "W1W3B0"}, {0, 0, -1, "W1W6B7"}, {0, 0, 1, "W1B5B7"},  {0, 1, 0, "W3W6B7"},  {1, -1, 0, "W8B1"},
    {1, 0, -1, "W5B2B5"}, {1, 0, 1, "W5W8B5"},  {1, 1, 0, "B0B1B5"},  {2, -1, 0, "W0W1B4"}, {2, 0, -1, "W0W1B2"},
    {2, 0, 1, "W5B4B7"},  {2, 1, 0, "B2B4B7"},  {3, -1, 0, "W3W8B8"}, {3, 0, -1, "W0W5B5"}, {3, 0, 1, "W3W5W8"},
    {3, 1, 0, "W0W3W8"},  {4, -1, 0, "W4W7B0"}, {4, 0, -1, "W2"},     {4, 0, 1, "W7B2B7"},  {4, 1, 0, "W7B4B7"},
    {5, -1, 0, "B1B3B5"}, {5, 0, -1, "W0W6B3"}, {5, 0, 1, "W6B0"},    {5, 1, 0, "W8B3B5"},  {6, -1, 0, "W2B2B6"},
    {6, 0, -1, "W2W6B2"}, {6, 0, 1, "W2W5B0"},  {6, 1, 0, "W0W5B6"},  {7, -1, 0, "W4B7"},   {7, 0, -1, "W6B0B2"},
    {7, 0, 1, "W4B0B2"},  {7, 1, 0, "W4W6B7"},  {8, -1, 0, "W8B5B8"}, {8, 0, -1, "W5B2B5"}, {8, 0, 1, "W2B2B5"},
    {8, 1, 0, "W2W5B8"},
};

/* From (c, c) and (c + 4, c), both colours on both: 2, 2 and 3 classes. */
static const tf_msg pair_round1[] = {
    {0, -1, 0, "W0B0"}, {0, 0, -3, "W0B0"}, {0, 0, 3, "W0B0"}, {0, 1, 0, "W0B0"},
    {4, -2, 0, "W0B0"}, {4, 0, -3, "W0B0"}, {4, 0, 4, "W0B0"}, {4, 1, 0, "W0B0"},
};
static const tf_msg pair_round2[] = {
    {0, -1, 0, "W5B5"}, {0, 0, -1, "W0W5"}, {0, 0, 1, "W0B0"},  {0, 2, 0, "W5B5"},  {1, 0, -1, "W0"},
    {2, 0, -1, "W0B0"}, {2, 0, 2, "W0B0"},  {2, 1, 0, "W0B0"},  {3, -2, 0, "W3B3"}, {3, 0, -1, "W3B3"},
    {3, 0, 1, "W3B3"},  {3, 2, 0, "W3B3"},  {4, 0, -1, "W0B0"}, {5, 0, -2, "W0"},   {5, 0, 2, "W0B0"},
    {5, 1, 0, "W0B0"},  {6, -2, 0, "W6B6"}, {6, 0, 1, "W6B6"},  {7, -1, 0, "W3B3"}, {7, 0, -1, "W3B3"},
    {7, 0, 1, "B3"},    {7, 2, 0, "B3"},    {8, -1, 0, "W0B0"}, {8, 0, 1, "W0B0"},
};
static const tf_msg pair_round3[] = {
    {0, -1, 0, "W7B5B7"}, {0, 0, -1, "W7B5B7"}, {0, 0, 1, "W7B3B7"},  {0, 1, 0, "W7B5B7"},  {1, -1, 0, "W1W3W6"},
    {1, 0, -1, "W0W3B3"}, {1, 0, 1, "W3B0B3"},  {1, 1, 0, "W3W6B3"},  {2, -1, 0, "W2W5B2"}, {2, 0, -1, "W1W5"},
    {2, 0, 1, "W5B2B5"},  {2, 1, 0, "W5B2B5"},  {3, -1, 0, "W7B1B7"}, {3, 0, -1, "W0B0B1"}, {3, 0, 1, "W0B0B7"},
    {3, 1, 0, "W3W7B7"},  {4, -1, 0, "W4B4B6"}, {4, 0, -1, "W6B6"},   {4, 0, 1, "W0B0"},    {4, 1, 0, "W4B4B6"},
    {5, -1, 0, "W5B3B5"}, {5, 0, -1, "W1W3B3"}, {5, 0, 1, "W0W3B0"},  {5, 1, 0, "W5B1B5"},  {6, -1, 0, "W6B2"},
    {6, 0, -1, "W0W3B0"}, {6, 0, 1, "W0W3B0"},  {6, 1, 0, "W6B2B6"},  {7, -1, 0, "W8B8"},   {7, 0, -1, "W0W8B0"},
    {7, 0, 1, "W2W8B8"},  {7, 1, 0, "W2W3B3"},  {8, -1, 0, "W5W8B5"}, {8, 0, -1, "B0B5"},   {8, 0, 1, "W8B5B8"},
    {8, 1, 0, "W4W8B4"},
};

typedef struct tf_round {
  const tf_msg *m;
  size_t n;
} tf_round;

#define TF_ROUND(a)                                                                                                    \
  { a, sizeof a / sizeof *a }
static const tf_round diag_rounds[] = {TF_ROUND(round1), TF_ROUND(round2), TF_ROUND(round3), TF_ROUND(round4)};
static const tf_round pair_rounds[] = {TF_ROUND(pair_round1), TF_ROUND(pair_round2), TF_ROUND(pair_round3)};

static const tf_round *table(mg_tf_kind k) { return k == MG_TF_PAIR ? pair_rounds : diag_rounds; }

int mg_tf_rounds(mg_tf_kind k) {
  return k == MG_TF_PAIR ? (int)(sizeof pair_rounds / sizeof *pair_rounds)
                         : (int)(sizeof diag_rounds / sizeof *diag_rounds);
}

/* Classes as bits: W_c is bit c, B_c bit 9 + c. */
static uint32_t class_bits(const char *s, uint32_t shift) {
  uint32_t bits = 0;
  for (; s[0] && s[1]; s += 2) {
    uint32_t c = ((uint32_t)(s[1] - '0') + shift) % MG_TF_PERIOD;
    bits |= 1u << (c + (s[0] == 'B' ? MG_TF_PERIOD : 0));
  }
  return bits;
}

typedef struct mg_tf_sel {
  uint32_t bits, n0, n1;
  mg_tf_kind kind;
} mg_tf_sel;

/* Item origin * 2 + piece. The diagonal's classes: piece 0 (white) is in
 * W_(x1 mod 9), piece 1 (black) in B_(x0 mod 9); the pair's: both pieces of
 * an origin in its class mg_tp_class, white in W, black in B. */
static int in_classes(uint64_t item, void *arg) {
  const mg_tf_sel *s = arg;
  uint64_t origin = item / 2;
  uint32_t x0 = (uint32_t)(origin % s->n0 % MG_TF_PERIOD), x1 = (uint32_t)(origin / s->n0 % s->n1 % MG_TF_PERIOD);
  uint32_t c = s->kind == MG_TF_PAIR ? mg_tp_class(x0, x1) : item % 2 ? x0 : x1;
  return (s->bits >> (c + (item % 2 ? MG_TF_PERIOD : 0))) & 1;
}

mg_status mg_tf_check(const mg_topo *t, uint32_t s, const char *name, mg_err *err) {
  if (t->kind != MG_TOPO_GRID || t->d != 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos: finish=%s needs a 2D grid", name);
  if (t->n[0] % MG_TF_PERIOD || t->n[1] % MG_TF_PERIOD)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos: finish=%s needs both extents multiples of 9 (%u x %u)", name,
                   t->n[0], t->n[1]);
  if (s != MG_TF_PERIOD)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos: finish=%s starts from points of spacing n0/a = 9, not %u", name,
                   s);
  return MG_OK;
}

mg_status mg_tf_begin(mg_tf_state *f, const mg_topo *t, mg_tf_kind kind, mg_err *err) {
  const tf_round *rounds = table(kind);
  size_t n = 0;
  f->kind = kind;
  for (int r = 0; r < mg_tf_rounds(kind); r++)
    n += rounds[r].n;
  f->sel = mg_calloc(n * MG_TF_PERIOD, sizeof *f->sel);
  if (!f->sel) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  size_t k = 0;
  for (int r = 0; r < mg_tf_rounds(kind); r++)
    for (size_t i = 0; i < rounds[r].n; i++)
      for (uint32_t sh = 0; sh < MG_TF_PERIOD; sh++, k++)
        f->sel[k] = (mg_tf_sel){class_bits(rounds[r].m[i].classes, sh), t->n[0], t->n[1], kind};
  return MG_OK;
}

void mg_tf_free(mg_tf_state *f) {
  free(f->sel);
  f->sel = NULL;
}

mg_status mg_tf_emit(const mg_tf_state *f, const mg_topo *t, int r, mg_emit *e, mg_err *err) {
  const tf_round *rounds = table(f->kind);
  size_t base = 0;
  for (int q = 0; q < r; q++)
    base += rounds[q].n * MG_TF_PERIOD;
  for (uint32_t x1 = 0; x1 < t->n[1]; x1++)
    for (uint32_t x0 = 0; x0 < t->n[0]; x0++) {
      /* (x0, x1) = (d, 0) + (sh, sh) on the period */
      uint32_t sh = x1 % MG_TF_PERIOD, d = (x0 % MG_TF_PERIOD + MG_TF_PERIOD - sh) % MG_TF_PERIOD;
      for (size_t i = 0; i < rounds[r].n; i++) {
        const tf_msg *m = &rounds[r].m[i];
        if (m->orbit != d) continue;
        int dim = m->dx ? 0 : 1;
        int32_t hops = m->dx ? m->dx : m->dy;
        uint32_t y0 = (uint32_t)(((int64_t)x0 + m->dx + t->n[0]) % t->n[0]);
        uint32_t y1 = (uint32_t)(((int64_t)x1 + m->dy + t->n[1]) % t->n[1]);
        mg_transfer tr =
            mg_xfer_line(x0 * t->stride[0] + x1 * t->stride[1], y0 * t->stride[0] + y1 * t->stride[1], dim, hops);
        tr.sel.flags = MG_SEL_PRED;
        tr.sel.pred = in_classes;
        tr.sel.pred_arg = &f->sel[base + i * MG_TF_PERIOD + sh];
        mg_status st = mg_emit_add(e, &tr, err);
        if (st != MG_OK) return st;
      }
    }
  return MG_OK;
}

double mg_tf_round_cost(mg_tf_kind kind, int r, const mg_model *m, double class_bytes) {
  const tf_round *rounds = table(kind);
  double worst = 0;
  for (size_t i = 0; i < rounds[r].n; i++) {
    const tf_msg *q = &rounds[r].m[i];
    double hops = q->dx ? abs(q->dx) : abs(q->dy);
    double v = hops * m->td + __builtin_popcount(class_bits(q->classes, 0)) * class_bytes * m->tl;
    if (v > worst) worst = v;
  }
  return worst;
}

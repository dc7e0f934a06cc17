/* lift: a 1D gossip schedule re-emitted on every line of one axis of a d-D
 * grid (see lift.h for the translation rules and why it is exact). */
#include "lift.h"

#include <string.h>

static mg_status rec_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  mg_sched1d *s = ctx;
  if (info->pieces < 1 || info->pieces > MG_LIFT_MAX_PIECES)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s cuts packets into %u pieces; the lift takes at most %u",
                   info->algorithm, info->pieces, MG_LIFT_MAX_PIECES);
  s->info = *info;
  return MG_OK;
}

static mg_status rec_round(void *ctx, mg_round *r, mg_err *err) {
  mg_sched1d *s = ctx;
  for (size_t i = 0; i < r->n; i++) {
    uint32_t f = r->t[i].sel.flags;
    if (f & (MG_SEL_LIST | MG_SEL_PRED))
      return mg_fail(err, MG_ERR_UNSUPPORTED, "%s uses item lists or predicates, which cannot be lifted",
                     s->info.algorithm);
    if (r->t[i].bus != MG_BUS_NONE) return mg_fail(err, MG_ERR_UNSUPPORTED, "bus transfers cannot be lifted");
    /* a piece past the 1D schedule's own would reach the next colour's */
    const mg_selector *q = &r->t[i].sel;
    if ((f & MG_SEL_PIECE) && (uint64_t)q->piece + (q->piece_count > 1 ? q->piece_count : 1) > s->info.pieces)
      return mg_fail(err, MG_ERR_INVALID, "%s selects piece %u of %u pieces a packet", s->info.algorithm, q->piece,
                     s->info.pieces);
  }
  if (!mg_grow((void **)&s->rounds, &s->cap, s->n + 1, sizeof *s->rounds))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory recording a 1D schedule");
  mg_round *c = &s->rounds[s->n];
  mg_round_init(c);
  if (r->n) {
    c->t = mg_calloc(r->n, sizeof *c->t);
    if (!c->t) return mg_fail(err, MG_ERR_NOMEM, "out of memory recording a 1D schedule");
    memcpy(c->t, r->t, r->n * sizeof *c->t);
    c->n = c->cap = r->n;
  }
  s->n++;
  return MG_OK;
}

static mg_status rec_end(void *ctx, mg_err *err) {
  (void)ctx;
  (void)err;
  return MG_OK;
}

void mg_sched1d_free(mg_sched1d *s) {
  for (size_t i = 0; i < s->n; i++)
    mg_round_free(&s->rounds[i]);
  free(s->rounds);
  memset(s, 0, sizeof *s);
}

mg_status mg_sched1d_record(const mg_algo *a, const mg_problem_spec *pb1, const mg_params *ps, mg_sched1d *out,
                            mg_err *err) {
  memset(out, 0, sizeof *out);
  mg_status st = mg_algo_check(a, pb1, ps, err);
  if (st != MG_OK) return st;
  mg_sink k = {.begin = rec_begin, .round = rec_round, .end = rec_end, .ctx = out};
  st = a->generate(pb1, ps, &k, err);
  if (st != MG_OK) mg_sched1d_free(out);
  return st;
}

mg_status mg_lift_problem(const mg_problem_spec *pb, int axis, double bytes, mg_problem_spec *pb1, mg_err *err) {
  *pb1 = *pb;
  pb1->bytes = bytes;
  uint32_t n = pb->topo.n[axis];
  return mg_topo_grid(&pb1->topo, 1, &n, pb->topo.wrap[axis], err);
}

/* The image of a 1D selector for a sender on the line with coordinates y. */
static mg_selector lift_sel(const mg_lift *L, const mg_selector *s1, const uint32_t *y) {
  const mg_topo *t = L->topo;
  int f = L->axis;
  mg_selector s = *s1;
  s.flags &= ~(uint32_t)(MG_SEL_ORIGIN_RANGE | MG_SEL_BOX | MG_SEL_COLOR);
  if (s1->flags & (MG_SEL_ORIGIN_RANGE | MG_SEL_BOX)) {
    uint32_t lo = 0, len = 0, n = t->n[f];
    if (s1->flags & MG_SEL_ORIGIN_RANGE)
      lo = s1->range_lo % n, len = s1->range_len >= n ? 0 : s1->range_len;
    else
      lo = s1->box.lo[0] % n, len = s1->box.len[0] >= n ? 0 : s1->box.len[0];
    memset(&s.box, 0, sizeof s.box);
    for (int k = 0; k < t->d; k++) {
      if (k == f)
        s.box.lo[k] = lo, s.box.len[k] = len;
      else if (!(L->done_mask >> k & 1u))
        s.box.lo[k] = y[k], s.box.len[k] = 1;
    }
    s.flags |= MG_SEL_BOX;
  }
  if (s1->flags & MG_SEL_COLOR) {
    memset(s.color_w, 0, sizeof s.color_w);
    s.color_w[f] = s1->color_w[0];
    s.flags |= MG_SEL_COLOR;
  }
  if (s1->flags & MG_SEL_ARRIVAL) {
    s.r0 = s1->r0 + L->round_offset;
    s.r1 = s1->r1 + L->round_offset;
    s.arr_dim = s1->arr_dim == 0 ? f : s1->arr_dim;
  }
  if (L->use_piece) {
    /* the colour's run of pieces, or the part of it that 1D piece j is */
    uint32_t sub = L->piece_count / (L->pieces1d ? L->pieces1d : 1);
    s.flags |= MG_SEL_PIECE;
    s.piece = L->piece;
    s.piece_count = L->piece_count;
    if (s1->flags & MG_SEL_PIECE) {
      s.piece = L->piece + s1->piece * sub;
      s.piece_count = (s1->piece_count > 1 ? s1->piece_count : 1) * sub;
    }
  }
  return s;
}

mg_status mg_lift_round(const mg_lift *L, const mg_round *r1, mg_emit *e, mg_err *err) {
  const mg_topo *t = L->topo;
  int f = L->axis;
  uint32_t stride = t->stride[f], lines = t->N / t->n[f];
  mg_status st = MG_OK;
  for (uint32_t l = 0; l < lines && st == MG_OK; l++) {
    /* the l-th line: its base node has x_f = 0 */
    uint32_t base = (l / stride) * stride * t->n[f] + l % stride, y[MG_MAX_DIMS];
    mg_topo_coords(t, base, y);
    for (size_t i = 0; i < r1->n && st == MG_OK; i++) {
      const mg_transfer *a = &r1->t[i];
      mg_transfer b = *a;
      b.src = base + a->src * stride;
      b.dst = base + a->dst * stride;
      for (int g = 0; g < a->nseg; g++)
        b.seg[g].dim = (int8_t)(a->seg[g].dim == 0 ? f : a->seg[g].dim);
      b.sel = lift_sel(L, &a->sel, y);
      st = mg_emit_add(e, &b, err);
    }
  }
  return st;
}

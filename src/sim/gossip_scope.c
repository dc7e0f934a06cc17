/* The items a gossip transfer can reach, as sorted runs of the state's
 * bits: a box of origins is one run per row of the box along axis 0, an
 * origin range one or two, a colour that depends on one axis k >= 1 one run
 * per slab x_k = const; each clipped to the items this state keeps (its
 * shard). The selector then works on those runs only, so a transfer costs
 * the words its items occupy, not the words between them: Juurlink, Rao,
 * Sibeyn's TORGOS ("Gossiping on Meshes and Tori", 1996) sends column
 * strips and every s-th row of a 729 x 729 torus, 1/81 of a row's words
 * or less, and a shard holds 1/K of every row. Box rows are enumerated
 * only where they meet the shard's origins, so K serial shards do not walk
 * the whole box K times. */
#include "sim_internal.h"

#include <string.h>

void mg_ranges_free(mg_ranges *r) {
  free(r->v);
  memset(r, 0, sizeof *r);
}

/* Appends the kept items of the global items [lo, hi), in local bits;
 * the runs come in increasing order and touching runs merge. */
static mg_status add_items(const mg_sim *s, mg_ranges *r, uint64_t lo, uint64_t hi, mg_err *err) {
  uint64_t a = lo > s->ibase ? lo : s->ibase, e = s->ibase + s->nloc;
  if (hi < e) e = hi;
  if (a >= e) return MG_OK;
  a -= s->ibase;
  e -= s->ibase;
  if (r->n && r->v[2 * r->n - 1] == a) {
    r->v[2 * r->n - 1] = e;
    return MG_OK;
  }
  if (2 * (r->n + 1) > r->cap && !mg_grow((void **)&r->v, &r->cap, 2 * (r->n + 1), sizeof *r->v))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a transfer's item runs");
  r->v[2 * r->n] = a;
  r->v[2 * r->n + 1] = e;
  r->n++;
  return MG_OK;
}

mg_status mg_scope_all(const mg_sim *s, mg_ranges *r, mg_err *err) {
  r->n = 0;
  return add_items(s, r, s->ibase, s->ibase + s->nloc, err);
}

/* The values of a cyclic interval [lo, lo + len) of an axis of n, as at
 * most two increasing linear intervals; returns how many. */
static int cyclic(uint32_t lo, uint32_t len, uint32_t n, uint32_t a[2], uint32_t b[2]) {
  lo %= n;
  if (len == 0 || len >= n) {
    a[0] = 0, b[0] = n;
    return 1;
  }
  if (lo + len <= n) {
    a[0] = lo, b[0] = lo + len;
    return 1;
  }
  a[0] = 0, b[0] = lo + len - n;
  a[1] = lo, b[1] = n;
  return 2;
}

/* Box rows over axes k..1 below the node offset base, only those that meet
 * the origins [olo, ohi); axis 0 gives the runs. */
static mg_status box_rec(const mg_sim *s, const mg_box *box, int k, uint64_t base, uint64_t olo, uint64_t ohi,
                         mg_ranges *r, mg_err *err) {
  const mg_topo *t = &s->info.topo;
  uint64_t P = s->info.pieces;
  uint32_t a[2], b[2];
  int m = cyclic(box->lo[k], box->len[k], t->n[k], a, b);
  mg_status st = MG_OK;
  if (k == 0) {
    for (int j = 0; j < m && st == MG_OK; j++)
      st = add_items(s, r, (base + a[j]) * P, (base + b[j]) * P, err);
    return st;
  }
  uint64_t span = t->stride[k], xmin = 0, xmax = t->n[k];
  /* x with [base + x span, base + (x+1) span) inside [olo, ohi) somewhere */
  if (base < olo || base + xmax * span > ohi) {
    xmin = olo > base ? (olo - base) / span : 0;
    xmax = ohi > base ? (ohi - base + span - 1) / span : 0;
  }
  for (int j = 0; j < m && st == MG_OK; j++) {
    uint64_t x0 = a[j] > xmin ? a[j] : xmin, x1 = b[j] < xmax ? b[j] : xmax;
    for (uint64_t x = x0; x < x1 && st == MG_OK; x++)
      st = box_rec(s, box, k - 1, base + x * span, olo, ohi, r, err);
  }
  return st;
}

mg_status mg_scope_box(const mg_sim *s, const mg_box *box, mg_ranges *r, mg_err *err) {
  uint64_t P = s->info.pieces;
  r->n = 0;
  return box_rec(s, box, s->info.topo.d - 1, 0, s->ibase / P, (s->ibase + s->nloc + P - 1) / P, r, err);
}

mg_status mg_scope_origins(const mg_sim *s, uint32_t range_lo, uint32_t range_len, mg_ranges *r, mg_err *err) {
  uint64_t N = s->N, P = s->info.pieces, lo = range_lo % N, len = range_len > N ? N : range_len;
  uint64_t first = lo + len <= N ? len : N - lo;
  mg_status st;
  r->n = 0;
  if (first < len && (st = add_items(s, r, 0, (len - first) * P, err)) != MG_OK) return st;
  return add_items(s, r, lo * P, (lo + first) * P, err);
}

/* The one axis a colour depends on, if its classes are worth walking as
 * runs: runs of a word or more (axis k >= 1 with stride[k] P >= 64), or a
 * sparse class (at most a quarter of the axis: TORGOS's black pieces keep
 * one column in s_j, 1 in 81 on a 729 x 729 torus, which a mask over the
 * whole row would pay for in full); else -1. */
static int color_axis(const mg_sim *s, const mg_selector *sel) {
  const mg_topo *t = &s->info.topo;
  int axis = -1;
  for (int k = 0; k < t->d; k++)
    if (sel->color_w[k] % (int64_t)sel->color_m != 0) {
      if (axis >= 0) return -1;
      axis = k;
    }
  if (axis < 0) return -1;
  if ((uint64_t)t->stride[axis] * s->info.pieces >= 64) return axis;
  uint32_t in = 0;
  for (uint32_t x = 0; x < t->n[axis]; x++) {
    int64_t col = ((int64_t)sel->color_w[axis] * (int64_t)x) % (int64_t)sel->color_m;
    if (col < 0) col += sel->color_m;
    in += (uint32_t)col == sel->color_c;
  }
  return (uint64_t)in * 4 <= t->n[axis] ? axis : -1;
}

int mg_scope_color(mg_sim *s, const mg_selector *sel, const mg_ranges **out, mg_err *err, mg_status *st) {
  *st = MG_OK;
  for (int i = 0; i < s->ncrange; i++) {
    mg_color_ranges *c = &s->crange[i];
    if (c->m == sel->color_m && c->c == sel->color_c && !memcmp(c->w, sel->color_w, sizeof c->w)) {
      *out = &c->r;
      return c->runs;
    }
  }
  if (s->ncrange >= MG_COLOR_CACHE) return 0; /* the masks take over */
  int k = color_axis(s, sel);
  mg_color_ranges *c = &s->crange[s->ncrange];
  memset(c, 0, sizeof *c);
  memcpy(c->w, sel->color_w, sizeof c->w);
  c->m = sel->color_m;
  c->c = sel->color_c;
  c->runs = k >= 0;
  if (k >= 0) {
    const mg_topo *t = &s->info.topo;
    uint64_t P = s->info.pieces, span = t->stride[k], slab = span * t->n[k];
    int64_t w = sel->color_w[k], m = sel->color_m;
    for (uint64_t hi = 0; hi < t->N && *st == MG_OK; hi += slab)
      for (uint32_t x = 0; x < t->n[k] && *st == MG_OK; x++) {
        int64_t col = (w * (int64_t)x) % m;
        if (col < 0) col += m;
        if ((uint32_t)col == sel->color_c)
          *st = add_items(s, &c->r, (hi + x * span) * P, (hi + (x + 1) * span) * P, err);
      }
    if (*st != MG_OK) {
      mg_ranges_free(&c->r);
      return 0;
    }
  }
  s->ncrange++;
  *out = &c->r;
  return c->runs;
}

mg_status mg_scope_meet(const mg_ranges *a, const mg_ranges *b, mg_ranges *out, mg_err *err) {
  size_t i = 0, j = 0;
  out->n = 0;
  while (i < a->n && j < b->n) {
    uint64_t lo = a->v[2 * i] > b->v[2 * j] ? a->v[2 * i] : b->v[2 * j];
    uint64_t hi = a->v[2 * i + 1] < b->v[2 * j + 1] ? a->v[2 * i + 1] : b->v[2 * j + 1];
    if (lo < hi) {
      if (!mg_grow((void **)&out->v, &out->cap, 2 * (out->n + 1), sizeof *out->v))
        return mg_fail(err, MG_ERR_NOMEM, "out of memory for a transfer's item runs");
      out->v[2 * out->n] = lo;
      out->v[2 * out->n + 1] = hi;
      out->n++;
    }
    if (a->v[2 * i + 1] < b->v[2 * j + 1])
      i++;
    else
      j++;
  }
  return MG_OK;
}

/* The items a gossip transfer can reach, as sorted runs of the state's
 * bits: a box of origins is one run per row of the box along axis 0, an
 * origin range one or two, a colour that depends on one axis k >= 1 one run
 * per slab x_k = const; each clipped to the items this state keeps (its
 * shard). In a piece's own numbering (gossip_layout.c) the box rows lie
 * along that piece's fastest axis, an origin range is cut into boxes, a
 * piece alone is one run, and colours are left to the masks. The selector
 * then works on those runs only, so a transfer costs the words its items
 * occupy, not the words between them: Juurlink, Rao, Sibeyn's TORGOS
 * ("Gossiping on Meshes and Tori", 1996) sends column strips and every
 * s-th row of a 729 x 729 torus, 1/81 of a row's words or less, and a
 * shard holds 1/K of every row. Box rows are enumerated only where they
 * meet the shard's bits, so K serial shards do not walk the whole box K
 * times. */
#include "sim_internal.h"

#include <stdlib.h>
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

mg_status mg_scope_all(const mg_sim *s, int64_t piece, uint32_t npieces, mg_ranges *r, mg_err *err) {
  r->n = 0;
  if (s->layout && piece >= 0)
    return add_items(s, r, (uint64_t)piece * s->N, ((uint64_t)piece + (npieces ? npieces : 1)) * s->N, err);
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

/* A numbering of one piece's points (or of all pieces' together): axis
 * ax[j] has bit stride span[j], ax[0] the fastest; span[0] is the bits a
 * point of it takes (P row-major, where an origin's pieces sit together;
 * 1 in a piece's own numbering, gossip_layout.c). */
typedef struct numbering {
  int ax[MG_MAX_DIMS];
  uint64_t span[MG_MAX_DIMS];
} numbering;

/* Box rows over the numbering's axes j..1 below bit base, only those that
 * meet the kept bits; its fastest axis gives the runs. */
static mg_status box_rec(const mg_sim *s, const mg_box *box, const numbering *nb, int j, uint64_t base, mg_ranges *r,
                         mg_err *err) {
  const mg_topo *t = &s->info.topo;
  int ax = nb->ax[j];
  uint64_t span = nb->span[j], xmin = 0, xmax = t->n[ax], klo = s->ibase, khi = s->ibase + s->nloc;
  uint32_t a[2], b[2];
  int m = cyclic(box->lo[ax], box->len[ax], t->n[ax], a, b);
  mg_status st = MG_OK;
  if (j == 0) {
    for (int q = 0; q < m && st == MG_OK; q++)
      st = add_items(s, r, base + a[q] * span, base + b[q] * span, err);
    return st;
  }
  /* x with [base + x span, base + (x+1) span) inside [klo, khi) somewhere */
  if (base < klo || base + xmax * span > khi) {
    xmin = klo > base ? (klo - base) / span : 0;
    xmax = khi > base ? (khi - base + span - 1) / span : 0;
  }
  for (int q = 0; q < m && st == MG_OK; q++) {
    uint64_t x0 = a[q] > xmin ? a[q] : xmin, x1 = b[q] < xmax ? b[q] : xmax;
    for (uint64_t x = x0; x < x1 && st == MG_OK; x++)
      st = box_rec(s, box, nb, j - 1, base + x * span, r, err);
  }
  return st;
}

/* Piece p's runs of a box in its own numbering: axis c + j (mod d) j-th
 * fastest, c its colour (gossip_layout.c), from bit p N. */
static mg_status piece_box(const mg_sim *s, const mg_box *box, uint64_t p, mg_ranges *r, mg_err *err) {
  const mg_topo *t = &s->info.topo;
  numbering nb;
  int rot = mg_layout_rot(s, p);
  for (int j = 0; j < t->d; j++) {
    nb.ax[j] = (j + rot) % t->d;
    nb.span[j] = s->lay_stride[rot][nb.ax[j]];
  }
  return box_rec(s, box, &nb, t->d - 1, p * s->N, r, err);
}

/* Does piece p's block of bits meet the kept ones? */
static int piece_kept(const mg_sim *s, uint64_t p) {
  uint64_t lo = p * s->N;
  return lo < s->ibase + s->nloc && lo + s->N > s->ibase;
}

mg_status mg_scope_box(const mg_sim *s, const mg_box *box, int64_t piece, uint32_t npieces, mg_ranges *r, mg_err *err) {
  uint64_t P = s->info.pieces;
  mg_status st = MG_OK;
  r->n = 0;
  if (!s->layout) {
    const mg_topo *t = &s->info.topo;
    numbering nb;
    for (int j = 0; j < t->d; j++) {
      nb.ax[j] = j;
      nb.span[j] = (uint64_t)t->stride[j] * P;
    }
    return box_rec(s, box, &nb, t->d - 1, 0, r, err);
  }
  uint64_t lo = piece >= 0 ? (uint64_t)piece : 0, hi = piece >= 0 ? lo + (npieces ? npieces : 1) : P;
  for (uint64_t p = lo; p < hi && st == MG_OK; p++)
    if (piece_kept(s, p)) st = piece_box(s, box, p, r, err);
  return st;
}

static int run_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Origins [A, B) (row-major) of piece p in its own numbering: the range is
 * cut into boxes, each as long along an axis as it can be while the faster
 * axes are whole (at most 2d - 1 of them); their runs are appended
 * unsorted. */
static mg_status lay_origins(const mg_sim *s, uint64_t A, uint64_t B, uint64_t p, mg_ranges *out, mg_err *err) {
  const mg_topo *t = &s->info.topo;
  mg_status st = MG_OK;
  while (A < B && st == MG_OK) {
    int k = 0;
    while (k + 1 < t->d && A % t->stride[k + 1] == 0 && A + t->stride[k + 1] <= B)
      k++;
    uint64_t xk = (A / t->stride[k]) % t->n[k], cnt = (B - A) / t->stride[k];
    if (cnt > t->n[k] - xk) cnt = t->n[k] - xk;
    mg_box box;
    memset(&box, 0, sizeof box);
    for (int j = 0; j < t->d; j++) {
      uint64_t x = (A / t->stride[j]) % t->n[j];
      box.lo[j] = j < k ? 0 : (uint32_t)x;
      box.len[j] = j < k ? t->n[j] : j == k ? (uint32_t)cnt : 1;
    }
    st = piece_box(s, &box, p, out, err);
    A += cnt * t->stride[k];
  }
  return st;
}

mg_status mg_scope_origins(const mg_sim *s, uint32_t range_lo, uint32_t range_len, int64_t piece, uint32_t npieces,
                           mg_ranges *r, mg_err *err) {
  uint64_t N = s->N, P = s->info.pieces, lo = range_lo % N, len = range_len > N ? N : range_len;
  uint64_t first = lo + len <= N ? len : N - lo;
  mg_status st = MG_OK;
  r->n = 0;
  if (!s->layout) {
    if (first < len && (st = add_items(s, r, 0, (len - first) * P, err)) != MG_OK) return st;
    return add_items(s, r, lo * P, (lo + first) * P, err);
  }
  uint64_t plo = piece >= 0 ? (uint64_t)piece : 0, phi = piece >= 0 ? plo + (npieces ? npieces : 1) : P;
  for (uint64_t p = plo; p < phi && st == MG_OK; p++) {
    if (!piece_kept(s, p)) continue;
    if (first < len) st = lay_origins(s, 0, len - first, p, r, err);
    if (st == MG_OK) st = lay_origins(s, lo, lo + first, p, r, err);
  }
  if (st != MG_OK || r->n < 2) return st;
  /* sorted, and touching runs merged, as the selector expects */
  qsort(r->v, r->n, 2 * sizeof *r->v, run_cmp);
  size_t n = 1;
  for (size_t j = 1; j < r->n; j++) {
    if (r->v[2 * j] == r->v[2 * n - 1]) {
      r->v[2 * n - 1] = r->v[2 * j + 1];
    } else {
      r->v[2 * n] = r->v[2 * j];
      r->v[2 * n + 1] = r->v[2 * j + 1];
      n++;
    }
  }
  r->n = n;
  return MG_OK;
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
  if (s->layout) return 0; /* a piece's own numbering: the masks take over */
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

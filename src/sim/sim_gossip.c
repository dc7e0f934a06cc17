/* Gossip state: every node's held items as a bitset over item ids
 * (origin*P + piece); a shard (meshgossip_shard.h) keeps the bits
 * [ibase, ibase + nloc) only, bit it - ibase for item it, or, with several
 * pieces on a grid, in each piece's own numbering (gossip_layout.c:
 * mg_item_bit, mg_bit_item). Every
 * transfer of a round reads the state at the round's start: what a node
 * receives goes to its delivery row, which the round's end ORs into its
 * held row and clears again. A transfer works only on its window, the
 * words its selector can reach (an origin range or a box of origins narrows
 * it), and a delivery row only on the words the round wrote, so a round of
 * N transfers of a few items each costs O(N) words, not O(N * N*P/64): what
 * makes the 728 rounds of Approach 1-1 on a 729 x 729 torus a run of
 * minutes (Juurlink, Rao, Sibeyn, "Gossiping on Meshes and Tori", Table 2). */
#include "sim_internal.h"

#include <string.h>

static inline int bit_get(const uint64_t *b, uint64_t i) { return (int)((b[i >> 6] >> (i & 63)) & 1u); }
static inline void bit_set(uint64_t *b, uint64_t i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }

/* Sets bits [lo, hi) of b. */
static void set_range(uint64_t *b, uint64_t lo, uint64_t hi) {
  if (lo >= hi) return;
  uint64_t wl = lo >> 6, wh = (hi - 1) >> 6;
  uint64_t ml = ~(uint64_t)0 << (lo & 63);
  uint64_t mh = ~(uint64_t)0 >> (63 - ((hi - 1) & 63));
  if (wl == wh) {
    b[wl] |= ml & mh;
    return;
  }
  b[wl] |= ml;
  for (uint64_t w = wl + 1; w < wh; w++)
    b[w] = ~(uint64_t)0;
  b[wh] |= mh;
}

/* Sets the bits of the global items [lo, hi) this state keeps. */
static void set_items(const mg_sim *s, uint64_t *b, uint64_t lo, uint64_t hi) {
  uint64_t a = lo > s->ibase ? lo : s->ibase, e = s->ibase + s->nloc;
  if (hi < e) e = hi;
  if (a < e) set_range(b, a - s->ibase, e - s->ibase);
}

/* The origins whose items this state keeps. */
static void own_origins(const mg_sim *s, uint64_t *lo, uint64_t *hi) {
  uint64_t P = s->info.pieces;
  *lo = s->ibase / P;
  *hi = (s->ibase + s->nloc) / P;
}

/* Clears the scratch mask where it was written. */
static void mask_clear(mg_sim *s) {
  if (s->mask_lo < s->mask_hi) memset(s->mask + s->mask_lo, 0, (s->mask_hi - s->mask_lo) * sizeof(uint64_t));
  s->mask_lo = s->mask_hi = 0;
}

/* Sets the kept bits of the global items [lo, hi) in the scratch mask and
 * widens its written words. */
static void mask_items(mg_sim *s, uint64_t lo, uint64_t hi) {
  uint64_t a = lo > s->ibase ? lo : s->ibase, e = s->ibase + s->nloc;
  if (hi < e) e = hi;
  if (a >= e) return;
  set_range(s->mask, a - s->ibase, e - s->ibase);
  uint64_t wl = (a - s->ibase) >> 6, wh = ((e - s->ibase - 1) >> 6) + 1;
  if (s->mask_lo == s->mask_hi) {
    s->mask_lo = wl;
    s->mask_hi = wh;
    return;
  }
  if (wl < s->mask_lo) s->mask_lo = wl;
  if (wh > s->mask_hi) s->mask_hi = wh;
}

mg_status mg_gossip_alloc(mg_sim *s, mg_err *err) {
  uint64_t N = s->N, W = mg_words(s->nloc), rows, dw, sl;
  s->W = W;
  s->NB = (W + 7) / 8;
  s->DW = mg_words(s->NB);
  if (!mg_mul_ok(N, W, &rows) || !mg_mul_ok(N, s->DW, &dw) || !mg_mul_ok(N, s->NB, &sl))
    return mg_fail(err, MG_ERR_TOO_LARGE, "gossip state overflows");
  s->pool = mg_calloc(rows, sizeof(uint64_t));
  if (s->pool) mg_advise_huge(s->pool, rows * sizeof(uint64_t));
  s->cur = mg_calloc(N, sizeof(uint64_t *));
  s->slot = mg_calloc(sl, sizeof(uint32_t));
  s->dirty = mg_calloc(dw, sizeof(uint64_t));
  s->touched = mg_calloc(N, sizeof(int64_t));
  s->dlo = mg_calloc(N, sizeof(uint64_t));
  s->dhi = mg_calloc(N, sizeof(uint64_t));
  s->touched_list = mg_calloc(N, sizeof(uint32_t));
  s->rd_off = mg_calloc(N + 1, sizeof(uint32_t));
  s->sel = mg_calloc(W, sizeof(uint64_t));
  s->mask = mg_calloc(W, sizeof(uint64_t));
  s->mask_lo = s->mask_hi = 0;
  s->piece_mask = mg_calloc(s->info.pieces, sizeof(uint64_t *));
  s->range_mask = mg_calloc(s->info.pieces, sizeof(uint64_t *));
  s->range_n = mg_calloc(s->info.pieces, sizeof(uint32_t));
  if (!s->pool || !s->cur || !s->slot || !s->dirty || !s->touched || !s->dlo || !s->dhi || !s->touched_list ||
      !s->rd_off || !s->sel || !s->mask || !s->piece_mask || !s->range_mask || !s->range_n)
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the gossip state (%llu nodes)", (unsigned long long)N);
  for (uint64_t v = 0; v < N; v++) {
    s->cur[v] = s->pool + v * W;
    s->touched[v] = -1;
    /* initially node v holds its own P pieces */
    if (!s->layout)
      set_items(s, s->cur[v], v * s->info.pieces, (v + 1) * s->info.pieces);
    else
      for (uint32_t p = 0; p < s->info.pieces; p++) {
        uint64_t b = mg_item_bit(s, v, p);
        set_items(s, s->cur[v], b, b + 1);
      }
  }
  if (s->info.flags & MG_SCHED_TRACK_ARRIVAL) {
    s->arrival = mg_calloc(N * s->nloc, sizeof(uint32_t));
    s->arrival_dim = mg_calloc(N * s->nloc, 1);
    if (!s->arrival || !s->arrival_dim) return mg_fail(err, MG_ERR_NOMEM, "cannot allocate arrival tracking");
  }
  /* the pool takes what the memory limit leaves beside the state */
  uint64_t limit = s->opts.mem_limit ? s->opts.mem_limit : mg_phys_mem() / 4 * 3;
  s->pool_limit = (uint64_t)UINT32_MAX - 1;
  if (limit) {
    uint64_t room = limit > s->need ? (limit - s->need) / (2 * sizeof(uint64_t)) : 0;
    if (room < MG_POOL_CHUNK) room = MG_POOL_CHUNK;
    if (room < s->pool_limit) s->pool_limit = room;
  }
  return MG_OK;
}

void mg_gossip_free(mg_sim *s) {
  free(s->pool);
  free(s->cur);
  free(s->slot);
  for (size_t c = 0; c < s->nchunk; c++)
    free(s->chunk[c]);
  free(s->chunk);
  free(s->dirty);
  free(s->touched);
  free(s->dlo);
  free(s->dhi);
  free(s->touched_list);
  free(s->rd_off);
  free(s->rd_idx);
  free(s->sel);
  free(s->mask);
  mg_ranges_free(&s->run);
  mg_ranges_free(&s->scope);
  mg_ranges_free(&s->tmp);
  mg_ranges_free(&s->tmp2);
  if (s->piece_mask)
    for (uint32_t p = 0; p < s->info.pieces; p++)
      free(s->piece_mask[p]);
  free(s->piece_mask);
  if (s->range_mask)
    for (uint32_t p = 0; p < s->info.pieces; p++)
      free(s->range_mask[p]);
  free(s->range_mask);
  free(s->range_n);
  for (int i = 0; i < s->ncolor; i++)
    free(s->color[i].bits);
  for (int i = 0; i < s->ncrange; i++)
    mg_ranges_free(&s->crange[i].r);
  free(s->arrival);
  free(s->arrival_dim);
}

/* Word-run helpers: sel is zero outside s->run, so every filter, the
 * count and the delivery touch those words only. */
static void and_runs(const mg_sim *s, const uint64_t *m) {
  const mg_ranges *r = &s->run;
  for (size_t j = 0; j < r->n; j++)
    for (uint64_t w = r->v[2 * j]; w < r->v[2 * j + 1]; w++)
      s->sel[w] &= m[w];
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
/* The popcnt instruction where the CPU has it: without -mpopcnt the
 * compiler calls a library routine for every word. */
__attribute__((target("popcnt"))) static uint64_t popcount_hw(const uint64_t *a, uint64_t n) {
  uint64_t c = 0;
  for (uint64_t w = 0; w < n; w++)
    c += (uint64_t)__builtin_popcountll(a[w]);
  return c;
}
#define MG_HAVE_POPCNT() __builtin_cpu_supports("popcnt")
#else
#define popcount_hw(a, n) 0
#define MG_HAVE_POPCNT()  0
#endif

static uint64_t popcount_words(const uint64_t *a, uint64_t n) {
  if (MG_HAVE_POPCNT()) return popcount_hw(a, n);
  uint64_t c = 0;
  for (uint64_t w = 0; w < n; w++)
    c += (uint64_t)__builtin_popcountll(a[w]);
  return c;
}

static uint64_t popcount_runs(const mg_sim *s) {
  uint64_t c = 0;
  for (size_t j = 0; j < s->run.n; j++)
    c += popcount_words(s->sel + s->run.v[2 * j], s->run.v[2 * j + 1] - s->run.v[2 * j]);
  return c;
}

/* Clears the bits of sel outside the bit runs r (sorted). */
static void keep_ranges(mg_sim *s, const mg_ranges *r) {
  size_t k = 0;
  for (size_t j = 0; j < s->run.n; j++)
    for (uint64_t w = s->run.v[2 * j]; w < s->run.v[2 * j + 1]; w++) {
      uint64_t b0 = w * 64, b1 = b0 + 64, keep = 0;
      while (k < r->n && r->v[2 * k + 1] <= b0)
        k++;
      for (size_t q = k; q < r->n && r->v[2 * q] < b1; q++) {
        uint64_t lo = r->v[2 * q] > b0 ? r->v[2 * q] - b0 : 0;
        uint64_t hi = r->v[2 * q + 1] < b1 ? r->v[2 * q + 1] - b0 : 64;
        keep |= (hi - lo == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (hi - lo)) - 1) << lo);
      }
      s->sel[w] &= keep;
    }
}

/* sel := held over the bit runs r, and its word runs (runs that share or
 * touch a word merge). */
static mg_status fill_ranges(mg_sim *s, const uint64_t *held, const mg_ranges *r, mg_err *err) {
  mg_ranges *wr = &s->run;
  wr->n = 0;
  for (size_t j = 0; j < r->n; j++) {
    uint64_t lo = r->v[2 * j], hi = r->v[2 * j + 1];
    if (lo >= hi) continue;
    uint64_t wl = lo >> 6, wh = (hi - 1) >> 6;
    uint64_t ml = ~(uint64_t)0 << (lo & 63), mh = ~(uint64_t)0 >> (63 - ((hi - 1) & 63));
    if (wl == wh) {
      s->sel[wl] |= held[wl] & ml & mh;
    } else {
      s->sel[wl] |= held[wl] & ml;
      if (wh > wl + 1) memcpy(s->sel + wl + 1, held + wl + 1, (wh - wl - 1) * sizeof(uint64_t));
      s->sel[wh] |= held[wh] & mh;
    }
    if (wr->n && wl <= wr->v[2 * wr->n - 1]) {
      if (wh + 1 > wr->v[2 * wr->n - 1]) wr->v[2 * wr->n - 1] = wh + 1;
      continue;
    }
    if (2 * (wr->n + 1) > wr->cap && !mg_grow((void **)&wr->v, &wr->cap, 2 * (wr->n + 1), sizeof *wr->v))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for a transfer's word runs");
    wr->v[2 * wr->n] = wl;
    wr->v[2 * wr->n + 1] = wh + 1;
    wr->n++;
  }
  return MG_OK;
}

/* Zeroes sel over the last transfer's word runs. */
static void sel_clear(mg_sim *s) {
  for (size_t j = 0; j < s->run.n; j++)
    memset(s->sel + s->run.v[2 * j], 0, (s->run.v[2 * j + 1] - s->run.v[2 * j]) * sizeof(uint64_t));
  s->run.n = 0;
}

/* Items of piece p of every origin (white/black pieces of TORGOS, the
 * colours of HIGH-DIM-GOS'): built once per piece, on first use. */
static const uint64_t *piece_mask(mg_sim *s, uint32_t p) {
  if (!s->piece_mask[p]) {
    uint64_t *m = mg_calloc(s->W, sizeof(uint64_t)), olo, ohi;
    if (!m) return NULL;
    if (s->layout) {
      set_items(s, m, (uint64_t)p * s->N, (uint64_t)(p + 1) * s->N);
    } else {
      own_origins(s, &olo, &ohi);
      for (uint64_t o = olo; o < ohi; o++)
        bit_set(m, o * s->info.pieces + p - s->ibase);
    }
    s->piece_mask[p] = m;
  }
  return s->piece_mask[p];
}

/* Items of pieces p .. p + n - 1 of every origin (a colour of HIGH-DIM-GOS'
 * whose 1D phases cut its packets, lift.h): one mask per first piece, built
 * on first use and rebuilt if another run starts there. */
static const uint64_t *pieces_mask(mg_sim *s, uint32_t p, uint32_t n) {
  if (n <= 1) return piece_mask(s, p);
  if (!s->range_mask[p] || s->range_n[p] != n) {
    uint64_t *m = s->range_mask[p] ? s->range_mask[p] : mg_calloc(s->W, sizeof(uint64_t)), olo, ohi;
    if (!m) return NULL;
    memset(m, 0, s->W * sizeof(uint64_t));
    if (s->layout) {
      set_items(s, m, (uint64_t)p * s->N, (uint64_t)(p + n) * s->N);
    } else {
      own_origins(s, &olo, &ohi);
      for (uint64_t o = olo; o < ohi; o++)
        set_items(s, m, o * s->info.pieces + p, o * s->info.pieces + p + n);
    }
    s->range_mask[p] = m;
    s->range_n[p] = n;
  }
  return s->range_mask[p];
}

/* The pieces a selector keeps: all (count 0) or a run from *first. */
static uint32_t sel_pieces(const mg_selector *sel, uint32_t *first) {
  *first = sel->piece;
  if (!(sel->flags & MG_SEL_PIECE)) return 0;
  return sel->piece_count > 1 ? sel->piece_count : 1;
}

/* Colour sum(w_i x_i) mod m of a node: the generalized diagonals of
 * Juurlink, Rao, Sibeyn and the Lee code classes of Delmas, Perennes. */
static uint32_t color_of(const mg_topo *t, const int32_t *w, uint32_t m, uint32_t node) {
  uint32_t x[MG_MAX_DIMS];
  mg_topo_coords(t, node, x);
  int64_t sum = 0;
  for (int k = 0; k < t->d; k++)
    sum += (int64_t)w[k] * (int64_t)x[k];
  int64_t c = sum % (int64_t)m;
  return (uint32_t)(c < 0 ? c + m : c);
}

/* Items whose origin has the selector's colour; cached per (w, m, c). */
static const uint64_t *color_mask(mg_sim *s, const mg_selector *sel) {
  for (int i = 0; i < s->ncolor; i++) {
    mg_color_mask *cm = &s->color[i];
    if (cm->m == sel->color_m && cm->c == sel->color_c && !memcmp(cm->w, sel->color_w, sizeof cm->w)) return cm->bits;
  }
  uint64_t *bits = s->mask;
  int cached = 0;
  if (s->ncolor < MG_COLOR_CACHE) {
    bits = mg_calloc(s->W, sizeof(uint64_t));
    if (!bits) return NULL;
    cached = 1;
  } else {
    mask_clear(s);
  }
  uint64_t P = s->info.pieces, olo, ohi;
  if (s->layout) {
    /* a piece's own numbering (gossip_layout.c): bit by bit */
    for (uint64_t b = 0; b < s->nloc; b++) {
      uint64_t o = mg_bit_item(s, s->ibase + b) / P;
      if (color_of(&s->info.topo, sel->color_w, sel->color_m, (uint32_t)o) != sel->color_c) continue;
      if (cached)
        bit_set(bits, b);
      else
        mask_items(s, s->ibase + b, s->ibase + b + 1);
    }
    olo = ohi = 0;
  } else {
    own_origins(s, &olo, &ohi);
  }
  for (uint64_t o = olo; o < ohi; o++)
    if (color_of(&s->info.topo, sel->color_w, sel->color_m, (uint32_t)o) == sel->color_c) {
      if (cached)
        set_items(s, bits, o * P, (o + 1) * P);
      else
        mask_items(s, o * P, (o + 1) * P);
    }
  if (cached) {
    mg_color_mask *cm = &s->color[s->ncolor++];
    memcpy(cm->w, sel->color_w, sizeof cm->w);
    cm->m = sel->color_m;
    cm->c = sel->color_c;
    cm->bits = bits;
  }
  return bits;
}

/* Resolves transfer i against the sender's row at the round's start: the
 * held items (or the explicit list, each id checked: in range, held, not
 * listed twice), narrowed by every filter the selector sets, in the order
 * box, piece, colour, origin range, arrival, predicate, minus receiver.
 * Without a list, the box, the origin range and a colour of one axis are
 * the bit runs the copy starts from (gossip_scope.c); the other filters
 * work on the words of those runs. The result is left in s->sel. */
mg_status mg_gossip_select(mg_sim *s, const mg_transfer *tr, size_t i, uint32_t v, uint64_t *nitems, mg_err *err) {
  const mg_selector *sel = &tr->sel;
  const uint64_t *held = s->cur[tr->src];
  int64_t r = s->rep.rounds;
  int list = (sel->flags & MG_SEL_LIST) != 0, color_done = 0;
  mg_status st = MG_OK;
  sel_clear(s);
  if (list) {
    s->run.n = 0;
    if (!mg_grow((void **)&s->run.v, &s->run.cap, 2, sizeof *s->run.v))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for a transfer's word runs");
    s->run.v[0] = 0;
    s->run.v[1] = s->W;
    s->run.n = 1;
    for (size_t j = 0; j < sel->list_len; j++) {
      uint64_t it = sel->list[j];
      s->vsub = (int64_t)j;
      if (it >= s->nitems)
        return mg_sim_violate(s, err, MG_RULE_BAD_ITEM, (int64_t)i, -1, tr->src, (int64_t)it,
                              "round %lld transfer %zu: item %llu out of range (%llu items)", (long long)r, i,
                              (unsigned long long)it, (unsigned long long)s->nitems);
      /* another shard's item: its owner checks it */
      uint64_t li = mg_id_bit(s, it) - s->ibase;
      if (li >= s->nloc) continue;
      if (!bit_get(held, li))
        return mg_sim_violate(s, err, MG_RULE_NOT_HELD, (int64_t)i, -1, tr->src, (int64_t)it,
                              "round %lld transfer %zu: node %u sends item %llu it does not hold", (long long)r, i,
                              tr->src, (unsigned long long)it);
      if (bit_get(s->sel, li))
        return mg_sim_violate(s, err, MG_RULE_SENT_TWICE, (int64_t)i, -1, tr->src, (int64_t)it,
                              "round %lld transfer %zu: item %llu is listed twice in one transfer", (long long)r, i,
                              (unsigned long long)it);
      bit_set(s->sel, li);
    }
    s->vsub = MG_VSUB_SELECT;
  }
  uint32_t p0, pn = sel_pieces(sel, &p0);
  if (pn && (p0 >= s->info.pieces || pn > s->info.pieces - p0))
    return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                          pn == 1 ? "round %lld transfer %zu: piece %u out of range (P = %u)"
                                  : "round %lld transfer %zu: pieces from %u out of range (P = %u)",
                          (long long)r, i, sel->piece, s->info.pieces);
  if ((sel->flags & MG_SEL_COLOR) && (sel->color_m == 0 || sel->color_c >= sel->color_m))
    return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                          "round %lld transfer %zu: colour %u mod %u is not a colour", (long long)r, i, sel->color_c,
                          sel->color_m);
  /* a piece-major numbering scopes the pieces' own bits only */
  int64_t piece = pn ? (int64_t)p0 : -1;
  if (!list) {
    /* the runs the copy starts from */
    mg_ranges *sc = &s->scope;
    if (sel->flags & MG_SEL_BOX)
      st = mg_scope_box(s, &sel->box, piece, pn, sc, err);
    else if (sel->flags & MG_SEL_ORIGIN_RANGE)
      st = mg_scope_origins(s, sel->range_lo, sel->range_len, piece, pn, sc, err);
    else
      st = mg_scope_all(s, piece, pn, sc, err);
    if (st == MG_OK && (sel->flags & MG_SEL_BOX) && (sel->flags & MG_SEL_ORIGIN_RANGE) &&
        (st = mg_scope_origins(s, sel->range_lo, sel->range_len, piece, pn, &s->tmp, err)) == MG_OK) {
      st = mg_scope_meet(sc, &s->tmp, &s->tmp2, err);
      sc = &s->tmp2;
    }
    const mg_ranges *cr = NULL;
    if (st == MG_OK && (sel->flags & MG_SEL_COLOR) && mg_scope_color(s, sel, &cr, err, &st)) {
      mg_ranges *o = sc == &s->tmp2 ? &s->tmp : &s->tmp2;
      if ((st = mg_scope_meet(sc, cr, o, err)) == MG_OK) sc = o;
      color_done = 1;
    }
    if (st != MG_OK) return st;
    if ((st = fill_ranges(s, held, sc, err)) != MG_OK) return st;
  }
  if (list && (sel->flags & MG_SEL_BOX)) {
    if ((st = mg_scope_box(s, &sel->box, piece, pn, &s->tmp, err)) != MG_OK) return st;
    keep_ranges(s, &s->tmp);
  }
  if (sel->flags & MG_SEL_PIECE) {
    const uint64_t *m = pieces_mask(s, p0, pn);
    if (!m) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a piece mask");
    and_runs(s, m);
  }
  if ((sel->flags & MG_SEL_COLOR) && !color_done) {
    const uint64_t *m = color_mask(s, sel);
    if (!m) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a colour mask");
    and_runs(s, m);
  }
  if (list && (sel->flags & MG_SEL_ORIGIN_RANGE)) {
    if ((st = mg_scope_origins(s, sel->range_lo, sel->range_len, piece, pn, &s->tmp, err)) != MG_OK) return st;
    keep_ranges(s, &s->tmp);
  }
  if (sel->flags & MG_SEL_ARRIVAL) {
    if (!s->arrival)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: arrival selector without MG_SCHED_TRACK_ARRIVAL", (long long)r,
                            i);
    const uint32_t *arr = s->arrival + (uint64_t)tr->src * s->nloc;
    const uint8_t *ad = s->arrival_dim + (uint64_t)tr->src * s->nloc;
    for (size_t j = 0; j < s->run.n; j++)
      for (uint64_t w = s->run.v[2 * j]; w < s->run.v[2 * j + 1]; w++)
        for (uint64_t x = s->sel[w]; x; x &= x - 1) {
          uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(x);
          int64_t got = (int64_t)arr[it] - 1; /* -1: held from the start */
          int ok = got >= sel->r0 && got <= sel->r1 && (sel->arr_dim < 0 || (got >= 0 && ad[it] == sel->arr_dim));
          if (!ok) s->sel[w] &= ~((uint64_t)1 << (it & 63));
        }
  }
  if (sel->flags & MG_SEL_PRED) {
    if (!sel->pred)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: no predicate", (long long)r, i);
    for (size_t j = 0; j < s->run.n; j++)
      for (uint64_t w = s->run.v[2 * j]; w < s->run.v[2 * j + 1]; w++)
        for (uint64_t x = s->sel[w]; x; x &= x - 1) {
          uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(x);
          if (!sel->pred(mg_bit_item(s, it + s->ibase), sel->pred_arg)) s->sel[w] &= ~((uint64_t)1 << (it & 63));
        }
  }
  if (sel->flags & MG_SEL_MINUS_DST) {
    if (v == MG_NONE)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: 'minus receiver' has no single receiver on a bus", (long long)r,
                            i);
    const uint64_t *have = s->cur[v];
    for (size_t j = 0; j < s->run.n; j++)
      for (uint64_t w = s->run.v[2 * j]; w < s->run.v[2 * j + 1]; w++)
        s->sel[w] &= ~have[w];
  }
  *nitems = popcount_runs(s);
  return MG_OK;
}

/* The delivery pool: records of 2 words (16 B) in chunks. A block of a
 * node's deliveries is one record (the word's offset in the block and its
 * bits) while one word of it is written, four records (its 8 words) once a
 * second is: gossip forwards columns, colours and strips whose bits lie one
 * or two to a word, 64 bytes a block would be 8 times the data. slot:
 * 0 none, else 1 + the first record, MG_SLOT_ONE when it is a single word. */
#define MG_SLOT_ONE ((uint32_t)1 << 31)

static uint64_t *pool_at(const mg_sim *s, uint64_t rec) {
  return s->chunk[rec / MG_POOL_CHUNK] + (rec % MG_POOL_CHUNK) * 2;
}

/* k consecutive records (zeroed), in one chunk: the first one's index in
 * *out; MG_ERR_TOO_LARGE past the memory limit, MG_ERR_NOMEM. */
static mg_status pool_take(mg_sim *s, uint64_t k, uint64_t *out, mg_err *err) {
  uint64_t i = s->pool_used;
  if (i % MG_POOL_CHUNK + k > MG_POOL_CHUNK) i += MG_POOL_CHUNK - i % MG_POOL_CHUNK; /* not across chunks */
  uint64_t c = i / MG_POOL_CHUNK;
  if (i + k > s->pool_limit || i + k >= MG_SLOT_ONE) {
    char b[32];
    return mg_fail(err, MG_ERR_TOO_LARGE, "round %lld delivers more than the memory limit leaves for it (%s)",
                   (long long)s->rep.rounds, mg_fmt_bytes(s->pool_limit * 16, b, sizeof b));
  }
  if (c >= s->nchunk) {
    if (!mg_grow((void **)&s->chunk, &s->capchunk, c + 1, sizeof *s->chunk) ||
        !(s->chunk[c] = malloc(MG_POOL_CHUNK * 2 * sizeof(uint64_t))))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for round %lld's deliveries", (long long)s->rep.rounds);
    s->nchunk = c + 1;
  }
  memset(pool_at(s, i), 0, k * 2 * sizeof(uint64_t));
  s->pool_used = i + k;
  *out = i;
  return MG_OK;
}

/* Word w (of block b) of what v got this round so far. */
static uint64_t got_word(const mg_sim *s, uint32_t sl, uint64_t b, uint64_t w) {
  if (!sl) return 0;
  const uint64_t *r = pool_at(s, (sl & ~MG_SLOT_ONE) - 1);
  if (sl & MG_SLOT_ONE) return r[0] == w - b * 8 ? r[1] : 0;
  return r[w - b * 8];
}

/* Adds sel's words [w0, w1) of block b to v's deliveries. */
static mg_status pool_add(mg_sim *s, uint32_t v, uint64_t b, uint64_t w0, uint64_t w1, mg_err *err) {
  uint32_t *sl = &s->slot[(uint64_t)v * s->NB + b];
  uint64_t nz = 0, one = w0;
  for (uint64_t w = w0; w < w1; w++)
    if (s->sel[w]) nz++, one = w;
  if (!nz) return MG_OK;
  if (!*sl) s->dirty[(uint64_t)v * s->DW + (b >> 6)] |= (uint64_t)1 << (b & 63);
  if (nz == 1 && (!*sl || ((*sl & MG_SLOT_ONE) && pool_at(s, (*sl & ~MG_SLOT_ONE) - 1)[0] == one - b * 8))) {
    if (!*sl) {
      uint64_t i;
      mg_status st = pool_take(s, 1, &i, err);
      if (st != MG_OK) return st;
      pool_at(s, i)[0] = one - b * 8;
      *sl = MG_SLOT_ONE | (uint32_t)(i + 1);
    }
    pool_at(s, (*sl & ~MG_SLOT_ONE) - 1)[1] |= s->sel[one];
    return MG_OK;
  }
  if (!*sl || (*sl & MG_SLOT_ONE)) {
    uint64_t keep_off = 0, keep = 0;
    if (*sl) {
      const uint64_t *r = pool_at(s, (*sl & ~MG_SLOT_ONE) - 1);
      keep_off = r[0], keep = r[1];
    }
    uint64_t i;
    mg_status st = pool_take(s, 4, &i, err); /* the old record is left behind until the round ends */
    if (st != MG_OK) return st;
    pool_at(s, i)[keep_off] |= keep;
    *sl = (uint32_t)(i + 1);
  }
  uint64_t *blk = pool_at(s, *sl - 1) - b * 8;
  for (uint64_t w = w0; w < w1; w++)
    blk[w] |= s->sel[w];
  return MG_OK;
}

/* Readers of a row: a transfer's sender reads its own row; a transfer that
 * drops what its receiver holds reads the receiver's. */
static int reads_dst(const mg_transfer *t) { return t->bus == MG_BUS_NONE && (t->sel.flags & MG_SEL_MINUS_DST); }

mg_status mg_gossip_begin_round(mg_sim *s, const mg_round *rd, mg_err *err) {
  size_t n = rd->n;
  memset(s->rd_off, 0, ((size_t)s->N + 1) * sizeof *s->rd_off);
  if (n > UINT32_MAX / 2) return mg_fail(err, MG_ERR_TOO_LARGE, "a round of %zu transfers", n);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    const mg_transfer *t = &rd->t[i];
    if (t->src < s->N) s->rd_off[t->src + 1]++, m++;
    if (reads_dst(t) && t->dst < s->N) s->rd_off[t->dst + 1]++, m++;
  }
  if (m > s->caprd) {
    uint32_t *x = realloc(s->rd_idx, (m ? m : 1) * sizeof *x);
    if (!x) return mg_fail(err, MG_ERR_NOMEM, "out of memory indexing a round of %zu transfers", n);
    s->rd_idx = x;
    s->caprd = m;
  }
  for (uint32_t v = 0; v < s->N; v++)
    s->rd_off[v + 1] += s->rd_off[v];
  /* fill in order: rd_off[v] runs ahead, then is put back */
  for (size_t i = 0; i < n; i++) {
    const mg_transfer *t = &rd->t[i];
    if (t->src < s->N) s->rd_idx[s->rd_off[t->src]++] = (uint32_t)i;
    if (reads_dst(t) && t->dst < s->N) s->rd_idx[s->rd_off[t->dst]++] = (uint32_t)i;
  }
  for (uint32_t v = s->N; v > 0; v--)
    s->rd_off[v] = s->rd_off[v - 1];
  s->rd_off[0] = 0;
  return MG_OK;
}

/* Two cyclic intervals of an axis of n share no value? (length 0: all) */
static int cyclic_apart(uint32_t alo, uint32_t alen, uint32_t blo, uint32_t blen, uint32_t n) {
  if (alen == 0 || blen == 0 || alen >= n || blen >= n) return 0;
  uint32_t d = (blo % n + n - alo % n) % n; /* b's start, from a's */
  return d >= alen && d + blen <= n;
}

/* Can no item meet both selectors? Only what is sure from the selectors
 * alone: different pieces, boxes apart on some axis, classes of the same
 * colour, origin ranges apart. Lists, arrivals and predicates: unsure. */
static int sel_apart(const mg_topo *t, const mg_selector *a, const mg_selector *b) {
  uint32_t unsure = MG_SEL_LIST | MG_SEL_ARRIVAL | MG_SEL_PRED;
  if ((a->flags | b->flags) & unsure) return 0;
  uint32_t a0, an = sel_pieces(a, &a0), b0, bn = sel_pieces(b, &b0);
  if (an && bn && ((uint64_t)a0 + an <= b0 || (uint64_t)b0 + bn <= a0)) return 1;
  if (a->flags & b->flags & MG_SEL_BOX)
    for (int k = 0; k < t->d; k++)
      if (cyclic_apart(a->box.lo[k], a->box.len[k], b->box.lo[k], b->box.len[k], t->n[k])) return 1;
  if ((a->flags & b->flags & MG_SEL_COLOR) && a->color_m == b->color_m && a->color_c != b->color_c &&
      !memcmp(a->color_w, b->color_w, sizeof a->color_w))
    return 1;
  if ((a->flags & b->flags & MG_SEL_ORIGIN_RANGE) &&
      cyclic_apart(a->range_lo, a->range_len, b->range_lo, b->range_len, t->N))
    return 1;
  return 0;
}

int mg_sim_pool_only;

/* May transfer i's items go straight into v's row: does no reader of v's
 * row later in the round select what they could overwrite? */
static int direct_ok(const mg_sim *s, uint32_t v) {
  if (!s->cur_round || s->arrival || mg_sim_pool_only) return 0;
  const mg_transfer *t = s->cur_round->t;
  size_t i = s->cur_xfer;
  for (uint32_t k = s->rd_off[v]; k < s->rd_off[v + 1]; k++)
    if (s->rd_idx[k] > i && !sel_apart(&s->info.topo, &t[i].sel, &t[s->rd_idx[k]].sel)) return 0;
  return 1;
}

/* Delivers s->sel to v: straight into its row when no later reader of the
 * row in this round can select what it writes (a forwarder sends what came
 * the round before, not what comes now: the TORGOS columns and colour
 * classes, the lifted lines), else into the pool, so that what v receives
 * now is not visible to any transfer of this round (v's sends read s->cur). Arrival
 * rounds and the dimension they came by are kept for the arrival selector. */
mg_status mg_gossip_deliver(mg_sim *s, uint32_t v, int via, mg_err *err) {
  int64_t r = s->rep.rounds;
  const mg_ranges *wr = &s->run;
  if (wr->n == 0) return MG_OK;
  if (direct_ok(s, v)) {
    uint64_t *held = s->cur[v];
    for (size_t j = 0; j < wr->n; j++)
      for (uint64_t w = wr->v[2 * j]; w < wr->v[2 * j + 1]; w++)
        held[w] |= s->sel[w];
    return MG_OK;
  }
  uint64_t dlo = (wr->v[0] >> 3) >> 6, dhi = ((wr->v[2 * wr->n - 1] - 1) >> 3 >> 6) + 1;
  if (s->touched[v] != r) {
    s->touched[v] = r;
    s->touched_list[s->ntouched++] = v;
    s->dlo[v] = dlo;
    s->dhi[v] = dhi;
  } else {
    if (dlo < s->dlo[v]) s->dlo[v] = dlo;
    if (dhi > s->dhi[v]) s->dhi[v] = dhi;
  }
  const uint64_t *held = s->cur[v];
  for (size_t j = 0; j < wr->n; j++) {
    uint64_t lo = wr->v[2 * j], hi = wr->v[2 * j + 1];
    for (uint64_t b = lo >> 3; b <= (hi - 1) >> 3; b++) {
      uint64_t w0 = b * 8 > lo ? b * 8 : lo, w1 = b * 8 + 8 < hi ? b * 8 + 8 : hi;
      if (s->arrival) {
        uint32_t sl = s->slot[(uint64_t)v * s->NB + b];
        uint32_t *arr = s->arrival + (uint64_t)v * s->nloc;
        uint8_t *ad = s->arrival_dim + (uint64_t)v * s->nloc;
        for (uint64_t w = w0; w < w1; w++)
          for (uint64_t fresh = s->sel[w] & ~got_word(s, sl, b, w) & ~held[w]; fresh; fresh &= fresh - 1) {
            uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(fresh);
            arr[it] = (uint32_t)(r + 1);
            ad[it] = (uint8_t)via;
          }
      }
      mg_status st = pool_add(s, v, b, w0, w1, err);
      if (st != MG_OK) return st;
    }
  }
  return MG_OK;
}

/* Transfer tr comes a few transfers later: the rows it will read and
 * write are fetched now. A transfer of a few words costs the cache misses
 * on the sender's row, the receiver's delivery row and its dirty bits, at
 * random places of a state of gigabytes; fetched ahead, they overlap. Only
 * the first word of a box (its corner) or an origin range is fetched. */
void mg_gossip_prefetch(const mg_sim *s, const mg_transfer *tr) {
  const mg_selector *sel = &tr->sel;
  const mg_topo *t = &s->info.topo;
  uint64_t it, o = 0;
  uint32_t piece = (sel->flags & MG_SEL_PIECE) && sel->piece < s->info.pieces ? sel->piece : 0;
  if (tr->src >= s->N || tr->dst >= s->N || (sel->flags & MG_SEL_LIST)) return;
  if (sel->flags & MG_SEL_BOX) {
    for (int k = 0; k < t->d; k++)
      o += (uint64_t)(sel->box.lo[k] % t->n[k]) * t->stride[k];
  } else if (sel->flags & MG_SEL_ORIGIN_RANGE) {
    o = sel->range_lo % s->N;
  } else {
    return;
  }
  it = mg_item_bit(s, o, piece);
  if (it < s->ibase || it - s->ibase >= s->nloc) return;
  uint64_t w = (it - s->ibase) >> 6;
  __builtin_prefetch(s->cur[tr->src] + w, 0);
  __builtin_prefetch(s->slot + (uint64_t)tr->dst * s->NB + (w >> 3), 1);
  __builtin_prefetch(s->dirty + (uint64_t)tr->dst * s->DW + (w >> 9), 1);
  __builtin_prefetch(s->touched + tr->dst, 1);
}

/* The round ends: what every receiving node got joins what it holds,
 * block by dirty block, and the pool is empty again. */
void mg_gossip_end_round(mg_sim *s) {
  for (size_t k = 0; k < s->ntouched; k++) {
    uint32_t v = s->touched_list[k];
    if (k + 4 < s->ntouched) {
      uint32_t u = s->touched_list[k + 4];
      __builtin_prefetch(s->dirty + (uint64_t)u * s->DW + s->dlo[u], 1);
      __builtin_prefetch(s->cur[u] + (s->dlo[u] << 9), 1);
    }
    if (k + 8 < s->ntouched) __builtin_prefetch(s->dlo + s->touched_list[k + 8], 0);
    uint64_t *held = s->cur[v], *dirty = s->dirty + (uint64_t)v * s->DW;
    uint32_t *slot = s->slot + (uint64_t)v * s->NB;
    for (uint64_t d = s->dlo[v]; d < s->dhi[v]; d++) {
      for (uint64_t x = dirty[d]; x; x &= x - 1) {
        uint64_t b = (d << 6) + (uint64_t)__builtin_ctzll(x), w0 = b << 3;
        const uint64_t *got = pool_at(s, (slot[b] & ~MG_SLOT_ONE) - 1);
        if (slot[b] & MG_SLOT_ONE) {
          held[w0 + got[0]] |= got[1];
        } else {
          uint64_t n = w0 + 8 < s->W ? 8 : s->W - w0;
          for (uint64_t w = 0; w < n; w++)
            held[w0 + w] |= got[w];
        }
        slot[b] = 0;
      }
      dirty[d] = 0;
    }
  }
  s->ntouched = 0;
  s->pool_used = 0;
}

/* Gossip is complete when every node holds all N*P items; otherwise the
 * first node and item missing are named. */
mg_status mg_gossip_check_complete(mg_sim *s, mg_err *err) {
  uint64_t full_words = s->nloc / 64, rest = s->nloc % 64;
  for (uint32_t v = 0; v < s->N; v++) {
    const uint64_t *row = s->cur[v];
    for (uint64_t w = 0; w < s->W; w++) {
      uint64_t want = w < full_words ? ~(uint64_t)0 : (~(uint64_t)0 >> (64 - rest));
      if ((row[w] & want) != want) {
        uint64_t it = mg_bit_item(s, w * 64 + (uint64_t)__builtin_ctzll(~row[w] & want) + s->ibase);
        /* a piece's own numbering: the least item missing is not the first bit */
        for (uint64_t u = w; s->layout && u < s->W; u++) {
          uint64_t wu = u < full_words ? ~(uint64_t)0 : (~(uint64_t)0 >> (64 - rest));
          for (uint64_t x = ~row[u] & wu; x; x &= x - 1) {
            uint64_t iu = mg_bit_item(s, u * 64 + (uint64_t)__builtin_ctzll(x) + s->ibase);
            if (iu < it) it = iu;
          }
        }
        s->vsub = (int64_t)it;
        return mg_sim_violate(s, err, MG_RULE_INCOMPLETE, -1, -1, v, (int64_t)it,
                              "incomplete: node %u lacks item %llu (origin %llu, piece %llu) after %lld rounds", v,
                              (unsigned long long)it, (unsigned long long)(it / s->info.pieces),
                              (unsigned long long)(it % s->info.pieces), (long long)s->rep.rounds);
      }
    }
  }
  return MG_OK;
}

int mg_sim_holds(const mg_sim *s, uint32_t node, uint64_t item) {
  if (s->info.problem != MG_GOSSIP || !s->cur || node >= s->N || item >= s->nitems) return 0;
  uint64_t b = mg_id_bit(s, item) - s->ibase;
  return b < s->nloc && bit_get(s->cur[node], b);
}

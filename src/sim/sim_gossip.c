/* Gossip state: every node's held items as a bitset over item ids
 * (origin*P + piece); a shard (meshgossip_shard.h) keeps the bits of its
 * items [ibase, ibase + nloc) only, bit it - ibase for item it. Every
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
  uint64_t N = s->N, W = mg_words(s->nloc), rows;
  s->W = W;
  if (!mg_mul_ok(2 * N, W, &rows)) return mg_fail(err, MG_ERR_TOO_LARGE, "gossip state overflows");
  s->pool = mg_calloc(rows, sizeof(uint64_t));
  s->cur = mg_calloc(N, sizeof(uint64_t *));
  s->nxt = mg_calloc(N, sizeof(uint64_t *));
  s->touched = mg_calloc(N, sizeof(int64_t));
  s->dlo = mg_calloc(N, sizeof(uint64_t));
  s->dhi = mg_calloc(N, sizeof(uint64_t));
  s->touched_list = mg_calloc(N, sizeof(uint32_t));
  s->sel = mg_calloc(W, sizeof(uint64_t));
  s->sel_lo = 0;
  s->sel_hi = W;
  s->mask = mg_calloc(W, sizeof(uint64_t));
  s->mask_lo = s->mask_hi = 0;
  s->piece_mask = mg_calloc(s->info.pieces, sizeof(uint64_t *));
  if (!s->pool || !s->cur || !s->nxt || !s->touched || !s->dlo || !s->dhi || !s->touched_list || !s->sel || !s->mask ||
      !s->piece_mask)
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the gossip state (%llu nodes)", (unsigned long long)N);
  for (uint64_t v = 0; v < N; v++) {
    s->cur[v] = s->pool + v * W;
    s->nxt[v] = s->pool + (N + v) * W;
    s->touched[v] = -1;
    /* initially node v holds its own P pieces */
    set_items(s, s->cur[v], v * s->info.pieces, (v + 1) * s->info.pieces);
  }
  if (s->info.flags & MG_SCHED_TRACK_ARRIVAL) {
    s->arrival = mg_calloc(N * s->nloc, sizeof(uint32_t));
    s->arrival_dim = mg_calloc(N * s->nloc, 1);
    if (!s->arrival || !s->arrival_dim) return mg_fail(err, MG_ERR_NOMEM, "cannot allocate arrival tracking");
  }
  return MG_OK;
}

void mg_gossip_free(mg_sim *s) {
  free(s->pool);
  free(s->cur);
  free(s->nxt);
  free(s->touched);
  free(s->dlo);
  free(s->dhi);
  free(s->touched_list);
  free(s->sel);
  free(s->mask);
  if (s->piece_mask)
    for (uint32_t p = 0; p < s->info.pieces; p++)
      free(s->piece_mask[p]);
  free(s->piece_mask);
  for (int i = 0; i < s->ncolor; i++)
    free(s->color[i].bits);
  free(s->arrival);
  free(s->arrival_dim);
}

static void and_into(uint64_t *a, const uint64_t *b, uint64_t W) {
  for (uint64_t w = 0; w < W; w++)
    a[w] &= b[w];
}

static uint64_t popcount_row(const uint64_t *a, uint64_t W) {
  uint64_t c = 0;
  for (uint64_t w = 0; w < W; w++)
    c += (uint64_t)__builtin_popcountll(a[w]);
  return c;
}

/* Items of piece p of every origin (white/black pieces of TORGOS, the
 * colours of HIGH-DIM-GOS'): built once per piece, on first use. */
static const uint64_t *piece_mask(mg_sim *s, uint32_t p) {
  if (!s->piece_mask[p]) {
    uint64_t *m = mg_calloc(s->W, sizeof(uint64_t)), olo, ohi;
    if (!m) return NULL;
    own_origins(s, &olo, &ohi);
    for (uint64_t o = olo; o < ohi; o++)
      bit_set(m, o * s->info.pieces + p - s->ibase);
    s->piece_mask[p] = m;
  }
  return s->piece_mask[p];
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
  own_origins(s, &olo, &ohi);
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

/* Items whose origin lies in the box, into the scratch mask: runs along
 * dimension 0; the mask's written words are the box's window. */
static void box_mask(mg_sim *s, const mg_box *box) {
  const mg_topo *t = &s->info.topo;
  uint32_t P = s->info.pieces;
  uint32_t len[MG_MAX_DIMS] = {0}, idx[MG_MAX_DIMS] = {0};
  mask_clear(s);
  for (int k = 0; k < t->d; k++)
    len[k] = (box->len[k] == 0 || box->len[k] > t->n[k]) ? t->n[k] : box->len[k];
  for (;;) {
    uint32_t x[MG_MAX_DIMS];
    for (int k = 1; k < t->d; k++)
      x[k] = (box->lo[k] % t->n[k] + idx[k]) % t->n[k];
    x[0] = 0;
    uint64_t base = mg_topo_id(t, x);
    uint32_t lo = box->lo[0] % t->n[0], l = len[0];
    uint32_t first = lo + l <= t->n[0] ? l : t->n[0] - lo;
    mask_items(s, (base + lo) * P, (base + lo + first) * P);
    if (first < l) mask_items(s, base * P, (base + (l - first)) * P);
    int k = 1;
    for (; k < t->d; k++) {
      if (++idx[k] < len[k]) break;
      idx[k] = 0;
    }
    if (k >= t->d) break;
  }
}

/* The words of the row a transfer can touch: all of them, unless an
 * origin range that does not wrap narrows them (Approach 1 and the
 * pipelined algorithms send a few packets out of a long row). */
static void window(const mg_sim *s, const mg_selector *sel, uint64_t *lo, uint64_t *hi) {
  *lo = 0;
  *hi = s->W;
  if ((sel->flags & MG_SEL_ORIGIN_RANGE) && !(sel->flags & MG_SEL_LIST)) {
    uint64_t N = s->N, P = s->info.pieces, a = sel->range_lo % N, len = sel->range_len > N ? N : sel->range_len;
    if (len > 0 && a + len <= N) {
      /* the range's items this state keeps, in its bit numbering */
      uint64_t il = a * P > s->ibase ? a * P : s->ibase, ih = (a + len) * P, e = s->ibase + s->nloc;
      if (ih > e) ih = e;
      if (il >= ih) {
        *lo = *hi = 0;
        return;
      }
      *lo = (il - s->ibase) >> 6;
      *hi = mg_words(ih - s->ibase);
    }
  }
}

/* Resolves transfer i against the sender's row at the round's start: the
 * held items (or the explicit list, each id checked: in range, held, not
 * listed twice), narrowed by every filter the selector sets, in the order
 * box, piece, colour, origin range, arrival, predicate, minus receiver.
 * The result is left in s->sel for delivery and the hook. */
mg_status mg_gossip_select(mg_sim *s, const mg_transfer *tr, size_t i, uint32_t v, uint64_t *nitems, mg_err *err) {
  const mg_selector *sel = &tr->sel;
  uint64_t *out = s->sel, wlo, whi;
  const uint64_t *held = s->cur[tr->src];
  int64_t r = s->rep.rounds;
  window(s, sel, &wlo, &whi);
  /* a box narrows the window to the words its runs reach */
  int boxed = (sel->flags & MG_SEL_BOX) && !(sel->flags & MG_SEL_LIST);
  if (boxed) {
    box_mask(s, &sel->box);
    if (s->mask_lo > wlo) wlo = s->mask_lo;
    if (s->mask_hi < whi) whi = s->mask_hi;
    if (wlo >= whi) wlo = whi = 0;
  }
  /* words outside the window stay zero between transfers */
  if (s->sel_lo != wlo || s->sel_hi != whi) {
    if (s->sel_lo < s->sel_hi) memset(out + s->sel_lo, 0, (s->sel_hi - s->sel_lo) * sizeof(uint64_t));
    s->sel_lo = wlo;
    s->sel_hi = whi;
  }
  uint64_t n = whi - wlo;
  out += wlo;
  held += wlo;
  if (sel->flags & MG_SEL_LIST) {
    memset(out, 0, n * sizeof(uint64_t));
    for (size_t j = 0; j < sel->list_len; j++) {
      uint64_t it = sel->list[j];
      s->vsub = (int64_t)j;
      if (it >= s->nitems)
        return mg_sim_violate(s, err, MG_RULE_BAD_ITEM, (int64_t)i, -1, tr->src, (int64_t)it,
                              "round %lld transfer %zu: item %llu out of range (%llu items)", (long long)r, i,
                              (unsigned long long)it, (unsigned long long)s->nitems);
      /* another shard's item: its owner checks it */
      if (it - s->ibase >= s->nloc) continue;
      uint64_t li = it - s->ibase;
      if (!bit_get(s->cur[tr->src], li))
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
  } else {
    memcpy(out, held, n * sizeof(uint64_t));
  }
  if (boxed) and_into(out, s->mask + wlo, n);
  if (sel->flags & MG_SEL_PIECE) {
    if (sel->piece >= s->info.pieces)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: piece %u out of range (P = %u)", (long long)r, i, sel->piece,
                            s->info.pieces);
    const uint64_t *m = piece_mask(s, sel->piece);
    if (!m) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a piece mask");
    and_into(out, m + wlo, n);
  }
  if (sel->flags & MG_SEL_COLOR) {
    if (sel->color_m == 0 || sel->color_c >= sel->color_m)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: colour %u mod %u is not a colour", (long long)r, i, sel->color_c,
                            sel->color_m);
    const uint64_t *m = color_mask(s, sel);
    if (!m) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a colour mask");
    and_into(out, m + wlo, n);
  }
  if ((sel->flags & MG_SEL_BOX) && !boxed) {
    box_mask(s, &sel->box);
    and_into(out, s->mask + wlo, n);
  }
  if (sel->flags & MG_SEL_ORIGIN_RANGE) {
    uint64_t N = s->N, P = s->info.pieces, lo = sel->range_lo % N, len = sel->range_len > N ? N : sel->range_len;
    mask_clear(s);
    uint64_t first = lo + len <= N ? len : N - lo;
    mask_items(s, lo * P, (lo + first) * P);
    if (first < len) mask_items(s, 0, (len - first) * P);
    and_into(out, s->mask + wlo, n);
  }
  if (sel->flags & MG_SEL_ARRIVAL) {
    if (!s->arrival)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: arrival selector without MG_SCHED_TRACK_ARRIVAL", (long long)r,
                            i);
    const uint32_t *arr = s->arrival + (uint64_t)tr->src * s->nloc;
    const uint8_t *ad = s->arrival_dim + (uint64_t)tr->src * s->nloc;
    for (uint64_t it = wlo * 64; it < s->nloc && it < whi * 64; it++) {
      if (!bit_get(s->sel, it)) continue;
      int64_t got = (int64_t)arr[it] - 1; /* -1: held from the start */
      int ok = got >= sel->r0 && got <= sel->r1 && (sel->arr_dim < 0 || (got >= 0 && ad[it] == sel->arr_dim));
      if (!ok) s->sel[it >> 6] &= ~((uint64_t)1 << (it & 63));
    }
  }
  if (sel->flags & MG_SEL_PRED) {
    if (!sel->pred)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: no predicate", (long long)r, i);
    for (uint64_t it = wlo * 64; it < s->nloc && it < whi * 64; it++)
      if (bit_get(s->sel, it) && !sel->pred(it + s->ibase, sel->pred_arg))
        s->sel[it >> 6] &= ~((uint64_t)1 << (it & 63));
  }
  if (sel->flags & MG_SEL_MINUS_DST) {
    if (v == MG_NONE)
      return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: 'minus receiver' has no single receiver on a bus", (long long)r,
                            i);
    const uint64_t *have = s->cur[v] + wlo;
    for (uint64_t w = 0; w < n; w++)
      out[w] &= ~have[w];
  }
  *nitems = popcount_row(out, n);
  return MG_OK;
}

/* Delivers s->sel to v's delivery row, so that what v receives now is not
 * visible to any transfer of this round (v's sends read s->cur). Arrival
 * rounds and the dimension they came by are kept for the arrival selector. */
mg_status mg_gossip_deliver(mg_sim *s, uint32_t v, int via, mg_err *err) {
  (void)err;
  int64_t r = s->rep.rounds;
  uint64_t lo = s->sel_lo, hi = s->sel_hi;
  if (lo >= hi) return MG_OK;
  if (s->touched[v] != r) {
    s->touched[v] = r;
    s->touched_list[s->ntouched++] = v;
    s->dlo[v] = lo;
    s->dhi[v] = hi;
  } else {
    if (lo < s->dlo[v]) s->dlo[v] = lo;
    if (hi > s->dhi[v]) s->dhi[v] = hi;
  }
  uint64_t *row = s->nxt[v];
  if (s->arrival) {
    const uint64_t *held = s->cur[v];
    uint32_t *arr = s->arrival + (uint64_t)v * s->nloc;
    uint8_t *ad = s->arrival_dim + (uint64_t)v * s->nloc;
    for (uint64_t w = lo; w < hi; w++) {
      uint64_t fresh = s->sel[w] & ~row[w] & ~held[w];
      while (fresh) {
        uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(fresh);
        fresh &= fresh - 1;
        arr[it] = (uint32_t)(r + 1);
        ad[it] = (uint8_t)via;
      }
    }
  }
  for (uint64_t w = lo; w < hi; w++)
    row[w] |= s->sel[w];
  return MG_OK;
}

/* The round ends: what every receiving node got joins what it holds, over
 * the words the round wrote, and its delivery row is zero again. */
void mg_gossip_end_round(mg_sim *s) {
  for (size_t k = 0; k < s->ntouched; k++) {
    uint32_t v = s->touched_list[k];
    uint64_t *held = s->cur[v], *got = s->nxt[v];
    for (uint64_t w = s->dlo[v]; w < s->dhi[v]; w++) {
      held[w] |= got[w];
      got[w] = 0;
    }
  }
  s->ntouched = 0;
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
        uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(~row[w] & want) + s->ibase;
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
  if (s->info.problem != MG_GOSSIP || !s->cur || node >= s->N || item - s->ibase >= s->nloc) return 0;
  return bit_get(s->cur[node], item - s->ibase);
}

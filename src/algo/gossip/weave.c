/*
 * weave — gossip on a ring of n = 3^k nodes by a tripling gather, a
 * circulation among its bridgeheads, and spreads (thirding, or halves)
 * that fill every idle arc with what the next round's receivers lack.
 * Ours, written against Juurlink, Rao, Sibeyn 1996's Table 1 (rings,
 * full-port wormhole, t'_l units), whose printed CIRCGOS values Approach 2
 * and CIRCGOS as described cannot reach (docs/paper-notes.md).
 *
 * Gather (h rounds): in round t every node v = 0 (mod 3^(t-1)) gets from
 *   v - 3^(t-1) and v + 3^(t-1) what they know and it does not (3^(t-1)
 *   items each; paths of 3^(t-1) hops, every arc busy). Afterwards v = 0
 *   (mod 3^(t-1)) knows the 3^t items centred on it. This is Approach 2's
 *   concentration at the same cost, (3^h - 1)/2 units in h rounds, but
 *   every node that forwards keeps what it forwarded: the nodes the spread
 *   reaches first already hold a third, a ninth, ... of the data.
 * Circulation (h < k): the bridgeheads v = 0 (mod s), s = 3^(h-1), pass
 *   what their neighbours s away lack, s items a round, Approach 1 among
 *   them, until every bridgehead knows everything.
 * Spread (h - 1 rounds): every gap of S between full nodes gets two new
 *   full nodes, S/3 from each end, fed from the nearer end (what the
 *   receiver lacks: Juurlink, Rao, Sibeyn's remark that phase 3 may exploit
 *   what is already known). Then, by the round's option (plan, one digit a
 *   round, bit 0 and bit 1):
 *   bit 0 (split): a new full node also receives over its other in-arc,
 *     from the node behind it on that side that holds most of what it
 *     needs (any distance, on arcs still free), up to half of its need —
 *     "a new bridgehead that receives from both neighbours at once needs
 *     half the time of one message carrying everything";
 *   bit 1 (ahead): each of the next round's new full nodes gets, over a
 *     path of free arcs, from the node that holds most of what it lacks,
 *     up to the round's largest message (free: the round costs its largest);
 *   always: every arc still idle carries to its far end what it lacks, up
 *   to the round's largest message.
 * Or a halves spread (spread=halves; h rounds, at halves_spread below): in
 *   every gap neighbours are given opposite halves of the items, placed by
 *   thirds in h - 1 rounds of about n/2 items, then swapped between
 *   neighbours in one round of about n/4.
 *   Messages are explicit item lists; what a node lacks is read from the
 *   plan's own state, so every message carries only new items.
 * Rounds: h + ceil((n - 3^h)/(2 * 3^(h-1))) + h - 1 (h = k: 2k - 1, as
 *   Approach 2); halves one more (h >= 2). Cost at h = k (t_d = 0, paper
 *   units): by the plan's messages, e.g. ring:27 1 + 3 + 9 + 18 + 18 units (plan 01): the
 *   gather, then 4 -> 7, 13 -> 10 (18 items each: 7 already holds 3..11)
 *   with 7 -> 8, 10 -> 9, 10 -> 11, 11 -> 12, 7 -> 6, 6 -> 5 on the idle
 *   arcs; in the last round 5 gets 18 items from 4 and 5 from 6, as 12
 *   from 13 and 11 (hand count in tests/test_weave.c). No closed form: the
 *   plan's state decides the sizes.
 * Restrictions: rings with n = 3^k, 3 <= n <= 6561 (the plan search grows as
 *   n^2 log n: about 100 s at 6561); all-port.
 * Parameters: h (gather depth 1..k), spread (thirds, or halves: h >= 2), plan
 *   (thirds only: digits 0-3, one per spread round, missing ones 3; auto:
 *   chosen round by round, each digit the best with the rest held at one
 *   value, over the four values). auto: thirds with h by the planned cost
 *   with every digit 3, then its plan, against halves at every h; the
 *   least. tune tries every h both ways.
 */
#include "../algo_internal.h"

#include <stdio.h>
#include <string.h>

#define WV_MAX_N 6561u

typedef struct wv_msg {
  uint32_t src, dst;
  int32_t hops;
  size_t set; /* offset of its item set in items */
} wv_msg;

typedef struct wv {
  uint32_t n, W, k;
  uint64_t *K, *Knew; /* what each node knows; after the round */
  uint64_t *all;      /* every item */
  uint8_t *used;      /* arc 2v: v -> v+1; 2v+1: v -> v-1 */
  uint32_t *full, *tgt, *feed, *fut;
  int32_t *thops;
  wv_msg *msg;
  size_t nmsg, capmsg;
  uint64_t *items;
  size_t nitems, capitems;
  uint64_t L;  /* the round's largest message */
  double cost; /* planned cost so far */
  int64_t rounds;
  const mg_problem_spec *pb;
  mg_emit *e; /* NULL: plan only */
} wv;

static uint64_t *row(const wv *w, uint64_t *base, uint32_t v) { return base + (uint64_t)v * w->W; }

static uint64_t count(const wv *w, const uint64_t *a) {
  uint64_t c = 0;
  for (uint32_t i = 0; i < w->W; i++)
    c += (uint64_t)__builtin_popcountll(a[i]);
  return c;
}

static void wv_free(wv *w) {
  free(w->K);
  free(w->Knew);
  free(w->all);
  free(w->used);
  free(w->full);
  free(w->tgt);
  free(w->feed);
  free(w->fut);
  free(w->thops);
  free(w->msg);
  free(w->items);
  memset(w, 0, sizeof *w);
}

static mg_status wv_init(wv *w, const mg_problem_spec *pb, mg_emit *e, mg_err *err) {
  memset(w, 0, sizeof *w);
  w->n = pb->topo.n[0];
  w->W = (uint32_t)mg_words(w->n);
  int k;
  mg_is_pow(w->n, 3, &k);
  w->k = (uint32_t)k;
  w->pb = pb;
  w->e = e;
  uint64_t nw = (uint64_t)w->n * w->W;
  w->K = mg_calloc(nw, sizeof(uint64_t));
  w->Knew = mg_calloc(nw, sizeof(uint64_t));
  w->all = mg_calloc(w->W, sizeof(uint64_t));
  w->used = mg_calloc(2 * (uint64_t)w->n, 1);
  w->full = mg_calloc(w->n, sizeof(uint32_t));
  w->tgt = mg_calloc(w->n, sizeof(uint32_t));
  w->feed = mg_calloc(w->n, sizeof(uint32_t));
  w->fut = mg_calloc(w->n, sizeof(uint32_t));
  w->thops = mg_calloc(w->n, sizeof(int32_t));
  if (!w->K || !w->Knew || !w->all || !w->used || !w->full || !w->tgt || !w->feed || !w->fut || !w->thops) {
    wv_free(w);
    return mg_fail(err, MG_ERR_NOMEM, "weave: out of memory for ring:%u", pb->topo.n[0]);
  }
  for (uint32_t v = 0; v < w->n; v++) {
    row(w, w->K, v)[v >> 6] |= (uint64_t)1 << (v & 63);
    w->all[v >> 6] |= (uint64_t)1 << (v & 63);
  }
  return MG_OK;
}

static uint32_t mod(const wv *w, int64_t x) {
  int64_t n = w->n;
  return (uint32_t)(((x % n) + n) % n);
}

static size_t arc(const wv *w, uint32_t v, int d) {
  (void)w;
  return 2 * (size_t)v + (d > 0 ? 0 : 1);
}

static void take(wv *w, uint32_t u, int32_t hops) {
  int d = hops > 0 ? 1 : -1;
  for (int32_t j = 0; j < (hops > 0 ? hops : -hops); j++)
    w->used[arc(w, mod(w, (int64_t)u + d * j), d)] = 1;
}

/* A message u -> v of the set s (W words), added to the round; v's next
 * state learns it. */
static mg_status send(wv *w, uint32_t u, uint32_t v, int32_t hops, const uint64_t *s, mg_err *err) {
  if (!mg_grow((void **)&w->msg, &w->capmsg, w->nmsg + 1, sizeof *w->msg) ||
      !mg_grow((void **)&w->items, &w->capitems, w->nitems + w->W, sizeof *w->items))
    return mg_fail(err, MG_ERR_NOMEM, "weave: out of memory for a round's messages");
  memcpy(w->items + w->nitems, s, w->W * sizeof(uint64_t));
  w->msg[w->nmsg++] = (wv_msg){u, v, hops, w->nitems};
  w->nitems += w->W;
  uint64_t *kn = row(w, w->Knew, v);
  for (uint32_t i = 0; i < w->W; i++)
    kn[i] |= s[i];
  return MG_OK;
}

/* The lowest `keep` items of s, in place. */
static void cap(const wv *w, uint64_t *s, uint64_t keep) {
  for (uint32_t i = 0; i < w->W; i++) {
    uint64_t c = (uint64_t)__builtin_popcountll(s[i]);
    if (c <= keep) {
      keep -= c;
      continue;
    }
    uint64_t x = s[i], m = 0;
    for (uint64_t j = 0; j < keep; j++) {
      m |= x & -x;
      x &= x - 1;
    }
    s[i] = m;
    keep = 0;
  }
}

static void round_begin(wv *w) {
  memcpy(w->Knew, w->K, (uint64_t)w->n * w->W * sizeof(uint64_t));
  memset(w->used, 0, 2 * (size_t)w->n);
  w->nmsg = w->nitems = 0;
  w->L = 0;
}

/* Prices the round (wormhole, contention-free: the largest of t_s + t_d
 * hops + items t_l), emits it if asked, and makes the new state current. */
static mg_status round_end(wv *w, mg_err *err) {
  const mg_model *m = &w->pb->model;
  double worst = 0, unit = w->pb->bytes * m->tl;
  mg_status st = MG_OK;
  uint64_t *list = NULL;
  for (size_t i = 0; i < w->nmsg; i++) {
    const wv_msg *g = &w->msg[i];
    double c = m->ts + m->td * (g->hops > 0 ? g->hops : -g->hops) + (double)count(w, w->items + g->set) * unit;
    if (c > worst) worst = c;
  }
  w->cost += worst;
  w->rounds++;
  if (w->e) {
    list = malloc((size_t)w->n * sizeof *list);
    if (!list) return mg_fail(err, MG_ERR_NOMEM, "weave: out of memory for an item list");
    for (size_t i = 0; i < w->nmsg && st == MG_OK; i++) {
      const wv_msg *g = &w->msg[i];
      const uint64_t *s = w->items + g->set;
      size_t len = 0;
      for (uint32_t j = 0; j < w->W; j++)
        for (uint64_t x = s[j]; x; x &= x - 1)
          list[len++] = (uint64_t)j * 64 + (uint64_t)__builtin_ctzll(x);
      if (!len) continue;
      mg_transfer tr = mg_xfer_line(g->src, g->dst, 0, g->hops);
      tr.sel.flags = MG_SEL_LIST;
      tr.sel.list = mg_round_add_list(&w->e->r, list, len);
      tr.sel.list_len = len;
      if (!tr.sel.list) st = mg_fail(err, MG_ERR_NOMEM, "weave: out of memory for an item list");
      if (st == MG_OK) st = mg_emit_add(w->e, &tr, err);
    }
    free(list);
    if (st == MG_OK) st = mg_emit_round(w->e, err);
  }
  uint64_t *t = w->K;
  w->K = w->Knew;
  w->Knew = t;
  return st;
}

/* u sends v what v lacks (of mask, when given), less what v gets this
 * round already (the two sides of a circulation's last round meet); its
 * arcs are taken if it carries anything (else the fills may use them). */
static mg_status lack_send(wv *w, uint32_t u, uint32_t v, int32_t hops, const uint64_t *mask, uint64_t *tmp,
                           mg_err *err) {
  const uint64_t *ku = row(w, w->K, u), *kv = row(w, w->Knew, v);
  uint64_t any = 0;
  for (uint32_t i = 0; i < w->W; i++)
    any |= tmp[i] = ku[i] & ~kv[i] & (mask ? mask[i] : ~(uint64_t)0);
  if (!any) return MG_OK;
  take(w, u, hops);
  uint64_t c = count(w, tmp);
  if (c > w->L) w->L = c;
  return send(w, u, v, hops, tmp, err);
}

/* Gather round t (sp = 3^(t-1)) or a circulation round among the nodes
 * 0 (mod sp): each gets from the two sp away what it lacks. */
static mg_status spaced_round(wv *w, uint32_t sp, uint64_t *tmp, mg_err *err) {
  mg_status st = MG_OK;
  round_begin(w);
  for (uint32_t v = 0; v < w->n && st == MG_OK; v += sp) {
    st = lack_send(w, mod(w, (int64_t)v - sp), v, (int32_t)sp, NULL, tmp, err);
    if (st == MG_OK) st = lack_send(w, mod(w, (int64_t)v + sp), v, -(int32_t)sp, NULL, tmp, err);
  }
  return st == MG_OK ? round_end(w, err) : st;
}

static int is_full(const wv *w, const uint64_t *k) { return !memcmp(k, w->all, w->W * sizeof(uint64_t)); }

/* New full nodes between the full nodes f[0..m): two per gap of S >= 3
 * (S/3 from each end, fed from it), one per gap of 2; into tgt, feed,
 * thops; returns how many. */
static uint32_t thirds(wv *w, const uint32_t *f, uint32_t m) {
  uint32_t nt = 0;
  for (uint32_t i = 0; i < m; i++) {
    uint32_t a = f[i], b = f[(i + 1) % m], S = m == 1 ? w->n : mod(w, (int64_t)b - a);
    if (S <= 1) continue;
    if (S == 2) {
      w->tgt[nt] = mod(w, (int64_t)a + 1), w->feed[nt] = a, w->thops[nt++] = 1;
      continue;
    }
    uint32_t t1 = S / 3, t2 = S - S / 3;
    w->tgt[nt] = mod(w, (int64_t)a + t1), w->feed[nt] = a, w->thops[nt++] = (int32_t)t1;
    if (t2 != t1) w->tgt[nt] = mod(w, (int64_t)a + t2), w->feed[nt] = b, w->thops[nt++] = -(int32_t)(S - t2);
  }
  return nt;
}

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

/* Every arc the round leaves idle carries to its far end what it lacks, up
 * to the round's largest message (free: a round costs its largest). */
static mg_status fill_idle(wv *w, uint64_t *tmp, mg_err *err) {
  mg_status st = MG_OK;
  for (uint32_t v = 0; v < w->n && st == MG_OK; v++)
    for (int d = 1; d >= -1 && st == MG_OK; d -= 2) {
      if (w->used[arc(w, v, d)]) continue;
      uint32_t u = mod(w, (int64_t)v + d);
      const uint64_t *kv = row(w, w->K, v), *ku = row(w, w->Knew, u);
      uint64_t any = 0;
      for (uint32_t j = 0; j < w->W; j++)
        any |= tmp[j] = kv[j] & ~ku[j];
      if (!any) continue;
      cap(w, tmp, w->L);
      w->used[arc(w, v, d)] = 1;
      st = send(w, v, u, d, tmp, err);
    }
  return st;
}

/* One spread round with option opt (bit 0 split, bit 1 ahead). */
static mg_status spread_round(wv *w, int opt, uint64_t *need, uint64_t *tmp, mg_err *err) {
  mg_status st = MG_OK;
  uint32_t m = 0;
  for (uint32_t v = 0; v < w->n; v++)
    if (is_full(w, row(w, w->K, v))) w->full[m++] = v;
  round_begin(w);
  uint32_t nt = thirds(w, w->full, m);
  for (uint32_t i = 0; i < nt; i++)
    take(w, w->feed[i], w->thops[i]);
  for (uint32_t i = 0; i < nt && st == MG_OK; i++) {
    uint32_t v = w->tgt[i];
    int d = w->thops[i] > 0 ? 1 : -1;
    const uint64_t *kv = row(w, w->K, v);
    for (uint32_t j = 0; j < w->W; j++)
      need[j] = w->all[j] & ~kv[j];
    uint64_t nneed = count(w, need), best = 0;
    uint32_t sec = 0, dist = 0;
    /* split: the node behind v on the other side, over free arcs */
    for (uint32_t x = 1; (opt & 1) && x <= w->n / 2; x++) {
      uint32_t u = mod(w, (int64_t)v + (int64_t)d * x);
      if (w->used[arc(w, u, -d)]) break;
      const uint64_t *ku = row(w, w->K, u);
      uint64_t g = 0;
      for (uint32_t j = 0; j < w->W; j++)
        g += (uint64_t)__builtin_popcountll(need[j] & ku[j]);
      if (g > best) best = g, sec = u, dist = x;
    }
    if (best) {
      const uint64_t *ku = row(w, w->K, sec);
      for (uint32_t j = 0; j < w->W; j++)
        tmp[j] = need[j] & ku[j];
      cap(w, tmp, best < nneed / 2 ? best : nneed / 2);
      for (uint32_t j = 0; j < w->W; j++)
        need[j] &= ~tmp[j];
      take(w, sec, -d * (int32_t)dist);
      uint64_t cs = count(w, tmp), cp = count(w, need);
      if (cs > w->L) w->L = cs;
      if (cp > w->L) w->L = cp;
      st = send(w, w->feed[i], v, w->thops[i], need, err);
      if (st == MG_OK && cs) st = send(w, sec, v, -d * (int32_t)dist, tmp, err);
    } else {
      if (nneed > w->L) w->L = nneed;
      st = send(w, w->feed[i], v, w->thops[i], need, err);
    }
  }
  /* ahead: the next round's new full nodes, as if this round's were full */
  if (st == MG_OK && (opt & 2)) {
    uint32_t mf = 0;
    for (uint32_t i = 0; i < m; i++)
      w->fut[mf++] = w->full[i];
    for (uint32_t i = 0; i < nt; i++)
      w->fut[mf++] = w->tgt[i];
    qsort(w->fut, mf, sizeof *w->fut, cmp_u32);
    uint32_t nn = thirds(w, w->fut, mf);
    for (uint32_t i = 0; i < nn && st == MG_OK; i++) {
      uint32_t t = w->tgt[i], bu = 0;
      int32_t bh = 0;
      int64_t bg = -1;
      const uint64_t *kt = row(w, w->Knew, t);
      for (int d = 1; d >= -1; d -= 2)
        for (uint32_t x = 1; x <= w->n / 2; x++) {
          uint32_t u = mod(w, (int64_t)t - (int64_t)d * x);
          if (w->used[arc(w, u, d)]) break;
          const uint64_t *ku = row(w, w->K, u);
          int64_t g = 0;
          for (uint32_t j = 0; j < w->W; j++)
            g += __builtin_popcountll(ku[j] & ~kt[j]);
          if (g > bg) bg = g, bu = u, bh = d * (int32_t)x;
        }
      if (bg > 0) {
        const uint64_t *ku = row(w, w->K, bu);
        for (uint32_t j = 0; j < w->W; j++)
          tmp[j] = ku[j] & ~kt[j];
        cap(w, tmp, w->L);
        take(w, bu, bh);
        st = send(w, bu, t, bh, tmp, err);
      }
    }
  }
  if (st == MG_OK) st = fill_idle(w, tmp, err);
  return st == MG_OK ? round_end(w, err) : st;
}

/* Halves spread (spread=halves; ours). In every gap of s - 1 nodes between
 * full bridgeheads, position p (1..s-1 from the gap's left end) is given one
 * half of the items, the odd ones for odd p and the even ones for even p, so
 * that neighbours hold opposite halves. Then
 *   h - 1 rounds by thirds, d = s/3, s/9, .., 1: in every sub-gap
 *     [v, v + 3d] node v + d takes its half from v + 3d, and v + 2d from v,
 *     2d hops each, on opposite arcs. d is odd, so v + d has the half of
 *     v + 3d and v + 2d that of v, and each sender holds it (or is full);
 *   one round of neighbours: every node takes the half it lacks, a part
 *     from each neighbour (both hold it).
 * A round carries about n/2 items at most, the last n/4, where a thirding
 * spread carries nearly n: one round more, half the items. Found with an
 * integer program over the mirror-symmetric patterns of messages on a gap
 * of 8 between full nodes (scripts/weave_gap_ilp.py): its 3-round optimum
 * is n/2, n/2, n/4, which this routing meets. Idle arcs are filled as in
 * every round. */
static const uint64_t *half_of(const wv *w, const uint64_t *halves, uint32_t v, uint32_t s) {
  return halves + (uint64_t)((v % s) & 1) * w->W;
}

static mg_status halves_spread(wv *w, uint32_t s, uint64_t *halves, uint64_t *tmp, mg_err *err) {
  mg_status st = MG_OK;
  if (s < 3) return MG_OK;
  memset(halves, 0, 2 * w->W * sizeof(uint64_t));
  for (uint32_t x = 0; x < w->n; x++)
    halves[(uint64_t)(x & 1) * w->W + (x >> 6)] |= (uint64_t)1 << (x & 63);
  for (uint32_t d = s / 3; d >= 1 && st == MG_OK; d /= 3) {
    round_begin(w);
    for (uint32_t v = 0; v < w->n && st == MG_OK; v += 3 * d) {
      uint32_t t1 = mod(w, (int64_t)v + d), t2 = mod(w, (int64_t)v + 2 * d);
      st = lack_send(w, mod(w, (int64_t)v + 3 * d), t1, -2 * (int32_t)d, half_of(w, halves, t1, s), tmp, err);
      if (st == MG_OK) st = lack_send(w, v, t2, 2 * (int32_t)d, half_of(w, halves, t2, s), tmp, err);
    }
    if (st == MG_OK) st = fill_idle(w, tmp, err);
    if (st == MG_OK) st = round_end(w, err);
  }
  if (st != MG_OK) return st;
  /* neighbours: the lower part of what v lacks from v - 1, the rest from
   * v + 1 (each holds all of it) */
  round_begin(w);
  uint64_t *rest = halves; /* the halves are done with */
  for (uint32_t v = 0; v < w->n && st == MG_OK; v++) {
    if (v % s == 0) continue;
    uint32_t l = mod(w, (int64_t)v - 1), r = mod(w, (int64_t)v + 1);
    const uint64_t *kv = row(w, w->K, v), *kl = row(w, w->K, l), *kr = row(w, w->K, r);
    for (uint32_t i = 0; i < w->W; i++)
      rest[i] = w->all[i] & ~kv[i];
    uint64_t need = count(w, rest);
    if (!need) continue;
    for (uint32_t i = 0; i < w->W; i++)
      tmp[i] = rest[i] & kl[i];
    cap(w, tmp, (need + 1) / 2);
    for (uint32_t i = 0; i < w->W; i++)
      rest[i] &= ~tmp[i] & kr[i];
    uint64_t cl = count(w, tmp), cr = count(w, rest);
    if (cl > w->L) w->L = cl;
    if (cr > w->L) w->L = cr;
    if (cl) {
      take(w, l, 1);
      st = send(w, l, v, 1, tmp, err);
    }
    if (st == MG_OK && cr) {
      take(w, r, -1);
      st = send(w, r, v, -1, rest, err);
    }
  }
  if (st == MG_OK) st = fill_idle(w, tmp, err);
  return st == MG_OK ? round_end(w, err) : st;
}

static int opt_at(const char *plan, int i) {
  if (!plan || i >= (int)strlen(plan)) return 3;
  return plan[i] - '0';
}

/* The whole schedule for gather depth h, spread (halves or thirds) and
 * plan; w->cost is its price. */
static mg_status wv_walk(const mg_problem_spec *pb, uint32_t h, int halves, const char *plan, mg_emit *e, double *cost,
                         mg_err *err) {
  wv w;
  mg_status st = wv_init(&w, pb, e, err);
  if (st != MG_OK) return st;
  uint64_t *need = malloc(4 * (size_t)w.W * sizeof(uint64_t));
  if (!need) {
    wv_free(&w);
    return mg_fail(err, MG_ERR_NOMEM, "weave: out of memory");
  }
  uint64_t *tmp = need + w.W; /* then the halves' two rows */
  uint32_t sp = 1;
  for (uint32_t t = 1; t <= h && st == MG_OK; t++, sp *= 3)
    st = spaced_round(&w, sp, tmp, err);
  sp /= 3; /* the bridgeheads' spacing, 3^(h-1) */
  for (;;) {
    int done = 1;
    for (uint32_t v = 0; v < w.n && done; v += sp)
      done = is_full(&w, row(&w, w.K, v));
    if (done || st != MG_OK) break;
    st = spaced_round(&w, sp, tmp, err);
  }
  if (halves && st == MG_OK) st = halves_spread(&w, sp, tmp + w.W, tmp, err);
  for (int i = 0; st == MG_OK; i++) {
    int done = 1;
    for (uint32_t v = 0; v < w.n && done; v++)
      done = is_full(&w, row(&w, w.K, v));
    if (done) break;
    st = spread_round(&w, opt_at(plan, i), need, tmp, err);
  }
  if (cost) *cost = w.cost;
  free(need);
  wv_free(&w);
  return st;
}

/* The plan, digit by digit: each the best of 0..3 with the rest held at
 * one value (every one tried). */
static mg_status best_plan(const mg_problem_spec *pb, uint32_t h, char *plan, double *cost, mg_err *err) {
  int nd = h > 1 ? (int)h - 1 : 0;
  double best = 0;
  memset(plan, 0, 16);
  for (int i = 0; i < nd; i++) {
    int pick = 3;
    double pc = -1;
    for (int o = 0; o < 4; o++)
      for (int rest = 0; rest < 4; rest++) {
        char p[16];
        memcpy(p, plan, (size_t)i);
        p[i] = (char)('0' + o);
        for (int j = i + 1; j < nd; j++)
          p[j] = (char)('0' + rest);
        p[nd] = 0;
        double c;
        mg_status st = wv_walk(pb, h, 0, p, NULL, &c, err);
        if (st != MG_OK) return st;
        if (pc < 0 || c < pc) pc = c, pick = o;
      }
    plan[i] = (char)('0' + pick);
  }
  plan[nd] = 0;
  mg_status st = wv_walk(pb, h, 0, plan, NULL, &best, err);
  if (cost) *cost = best;
  return st;
}

#define WV_PLAN_LEN 16 /* a plan's digits and its NUL (h - 1 <= 7 on 6561 nodes) */

typedef struct wv_cfg {
  uint32_t h;
  int halves;
  char plan[WV_PLAN_LEN];
} wv_cfg;

enum { WV_AUTO, WV_THIRDS, WV_HALVES };

/* The spread asked for, and that a plan goes with thirds only. */
static mg_status wv_spread(const mg_params *ps, int *mode, mg_err *err) {
  const char *sp = ps ? mg_params_get(ps, "spread") : NULL, *pl = mg_param_given(ps, "plan");
  *mode = WV_AUTO;
  if (sp && !strcmp(sp, "thirds"))
    *mode = WV_THIRDS;
  else if (sp && !strcmp(sp, "halves"))
    *mode = WV_HALVES;
  else if (sp && strcmp(sp, "auto"))
    return mg_fail(err, MG_ERR_INVALID, "weave: spread is thirds, halves or auto, not '%s'", sp);
  if (*mode == WV_HALVES && pl)
    return mg_fail(err, MG_ERR_INVALID, "weave: a plan goes with spread=thirds, not halves");
  return MG_OK;
}

/* The parameters as given, checked once for wv_check and wv_params: the
 * spread, h (k = log3 n when not given or auto), halves only with gaps (h >=
 * 2, so a ring of 9 or more), and a plan of at most h - 1 digits 0 to 3,
 * copied to plan (empty when not given or auto; a plan means thirds). */
static mg_status wv_given(const mg_params *ps, int k, int *mode, int64_t *h, char *plan, size_t plan_len, mg_err *err) {
  mg_status st;
  const char *hs = mg_param_given(ps, "h"), *pl = mg_param_given(ps, "plan");
  if ((st = wv_spread(ps, mode, err)) != MG_OK) return st;
  if ((st = mg_param_int(ps, "h", k, 1, k, h, err)) != MG_OK) return st;
  if (*mode == WV_HALVES && k < 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "weave: spread=halves needs gaps, a ring of 9 or more nodes");
  if (*mode == WV_HALVES && hs && *h < 2)
    return mg_fail(err, MG_ERR_INVALID, "weave: spread=halves needs h >= 2 (h = 1 leaves no gaps)");
  plan[0] = 0;
  if (pl) {
    size_t len = strlen(pl);
    if (len > (size_t)(*h - 1) || len >= plan_len)
      return mg_fail(err, MG_ERR_INVALID, "weave: plan '%s' has more digits than the %lld spread rounds", pl,
                     (long long)(*h - 1));
    for (size_t i = 0; i < len; i++)
      if (pl[i] < '0' || pl[i] > '3')
        return mg_fail(err, MG_ERR_INVALID, "weave: plan takes the digits 0 to 3, not '%s'", pl);
    memcpy(plan, pl, len + 1);
    if (*mode == WV_AUTO) *mode = WV_THIRDS;
  }
  return MG_OK;
}

static mg_status wv_params(const mg_problem_spec *pb, const mg_params *ps, wv_cfg *c, mg_err *err) {
  int k, mode;
  int64_t h;
  mg_status st;
  memset(c, 0, sizeof *c);
  mg_is_pow(pb->topo.n[0], 3, &k);
  if ((st = wv_given(ps, k, &mode, &h, c->plan, sizeof c->plan, err)) != MG_OK) return st;
  int auto_h = !mg_param_given(ps, "h"), auto_plan = !c->plan[0];
  int64_t h0 = auto_h ? 1 : h, h1 = auto_h ? k : h;
  if (mode == WV_HALVES && !auto_h) {
    c->h = (uint32_t)h, c->halves = 1;
    return MG_OK;
  }
  if (mode == WV_THIRDS && !auto_h && !auto_plan) {
    c->h = (uint32_t)h;
    return MG_OK;
  }
  /* thirds: h (when not given) by the planned cost with the plan given, or
   * with every round's digit 3; then the plan (when not given) for that h */
  double best = -1;
  if (mode != WV_HALVES) {
    for (int64_t hh = h0; hh <= h1; hh++) {
      double cst;
      if ((st = wv_walk(pb, (uint32_t)hh, 0, c->plan, NULL, &cst, err)) != MG_OK) return st;
      if (best < 0 || cst < best) best = cst, c->h = (uint32_t)hh;
    }
    if (auto_plan && (st = best_plan(pb, c->h, c->plan, &best, err)) != MG_OK) return st;
  }
  /* halves: every h >= 2, against the thirds' best */
  if (mode != WV_THIRDS)
    for (int64_t hh = h0 > 2 ? h0 : 2; hh <= h1; hh++) {
      double cst;
      if ((st = wv_walk(pb, (uint32_t)hh, 1, "", NULL, &cst, err)) != MG_OK) return st;
      if (best < 0 || cst < best) best = cst, c->h = (uint32_t)hh, c->halves = 1, c->plan[0] = 0;
    }
  return MG_OK;
}

static mg_status wv_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  mg_status st = mg_check_1d_gossip(pb, "weave", err);
  if (st != MG_OK) return st;
  uint32_t n = pb->topo.n[0];
  if (!pb->topo.wrap[0]) return mg_fail(err, MG_ERR_UNSUPPORTED, "weave needs a ring (its gather wraps round)");
  if (n < 3 || n > WV_MAX_N || !mg_is_pow(n, 3, NULL))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "weave needs a ring of 3^k nodes, 3 to %u (ring:%u)", WV_MAX_N, n);
  int k, mode;
  int64_t h;
  char plan[WV_PLAN_LEN];
  mg_is_pow(n, 3, &k);
  return wv_given(ps, k, &mode, &h, plan, sizeof plan, err);
}

static mg_status wv_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  wv_cfg c;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = wv_params(pb, ps, &c, err);
  if (st != MG_OK) return st;
  uint32_t s = 1;
  for (uint32_t i = 1; i < c.h; i++)
    s *= 3;
  int64_t circ = (int64_t)((pb->topo.n[0] - 3 * s) + 2 * s - 1) / (2 * s);
  int64_t spread = (int64_t)c.h - 1 + c.halves;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "weave", ps, 1, 0, (int64_t)c.h + circ + spread, err));
  MG_CHECK(wv_walk(pb, c.h, c.halves, c.plan, &e, NULL, err));
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

/* tune: every h with the thirds' plan, and every h with halves. */
static mg_status wv_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  int k;
  mg_is_pow(pb->topo.n[0], 3, &k);
  for (int h = 1; h <= k; h++) {
    char plan[16];
    double c;
    mg_params ps;
    memset(&ps, 0, sizeof ps);
    mg_status st = best_plan(pb, (uint32_t)h, plan, &c, err);
    if (st == MG_OK) st = mg_params_set_int(&ps, "h", h, err);
    if (st == MG_OK) st = mg_params_set(&ps, "spread", "thirds", err);
    if (st == MG_OK && plan[0]) st = mg_params_set(&ps, "plan", plan, err);
    if (st == MG_OK) st = visit(arg, &ps);
    if (st != MG_OK) return st;
    if (h < 2) continue; /* no gaps: the same schedule */
    memset(&ps, 0, sizeof ps);
    st = mg_params_set_int(&ps, "h", h, err);
    if (st == MG_OK) st = mg_params_set(&ps, "spread", "halves", err);
    if (st == MG_OK) st = visit(arg, &ps);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc wv_params_desc[] = {
    {"h", "auto", "gather depth 1..k (ring of 3^k); auto: the least planned cost under the model"},
    {"spread", "auto",
     "thirds (two new full nodes per gap a round, nearly n items each) or halves (neighbours take opposite halves "
     "by thirds, then swap them: one round more, about half the items); auto: the least planned cost"},
    {"plan", "auto",
     "spread=thirds: one digit 0-3 per spread round: bit 0 splits a new node's need over both in-arcs, bit 1 sends "
     "ahead to the next round's new nodes; auto: chosen round by round"},
    {NULL, NULL, NULL},
};

const mg_algo mg_algo_weave = {
    .name = "weave",
    .problem = MG_GOSSIP,
    .summary = "ring gossip: tripling gather, circulation, then thirding spreads or halves (neighbours take opposite "
               "halves, then swap), every idle arc carrying ahead",
    .paper = "ours, for Juurlink, Rao, Sibeyn 1996 Table 1 (after Approach 2 and CIRCGOS, section 4)",
    .restrictions = "rings of 3^k nodes, 3 <= n <= 6561; all-port",
    .rounding = "none: n = 3^k; messages are explicit item lists",
    .params = wv_params_desc,
    .check = wv_check,
    .generate = wv_generate,
    .closed_form = NULL,
    .candidates = wv_candidates,
};

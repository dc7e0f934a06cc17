/* Exchange state: blocks (s, t) move (the sender loses them). For every
 * holder u and destination t the sources of the blocks (., t) held at u
 * form a singly linked list (head/tail/count per (u, t), next per block),
 * so moving "all blocks at u for destination t" is an O(1) splice and the
 * tracking is exact per block: no block can be duplicated or lost, and
 * listed blocks are checked against their true holder. 20 bytes per block:
 * 4096 nodes need 335 MB. A shard (meshgossip_shard.h) keeps the
 * destinations [tlo, tlo + nt) only: their lists are all a transfer's
 * blocks for them ever touch, so a destination shard is self-contained
 * (20 * N * nt bytes). */
#include "sim_internal.h"

#include <string.h>

/* The (holder u, destination t) slot, and the row of next[] for t. */
static inline uint64_t slot(const mg_sim *s, uint64_t u, uint32_t t) { return u * s->nt + (t - s->tlo); }
static inline uint64_t col_of(const mg_sim *s, uint32_t t) { return (uint64_t)(t - s->tlo) * s->N; }
static inline int owns(const mg_sim *s, uint32_t t) { return t - s->tlo < s->nt; }

mg_status mg_exchange_alloc(mg_sim *s, mg_err *err) {
  uint64_t N = s->N, NN = N * s->nt;
  s->head = mg_calloc(NN, sizeof(uint32_t));
  s->tail = mg_calloc(NN, sizeof(uint32_t));
  s->cnt = mg_calloc(NN, sizeof(uint32_t));
  s->taken = mg_calloc(NN, sizeof(uint32_t));
  s->next = mg_calloc(NN, sizeof(uint32_t));
  if (!s->head || !s->tail || !s->cnt || !s->taken || !s->next)
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the exchange state (%llu blocks)", (unsigned long long)NN);
  for (uint64_t u = 0; u < N; u++)
    for (uint32_t t = s->tlo; t - s->tlo < s->nt; t++) {
      /* block (u, t) starts at its source u */
      s->head[slot(s, u, t)] = (uint32_t)u;
      s->tail[slot(s, u, t)] = (uint32_t)u;
      s->cnt[slot(s, u, t)] = 1;
      s->next[col_of(s, t) + u] = MG_NONE;
    }
  return MG_OK;
}

void mg_exchange_free(mg_sim *s) {
  free(s->head);
  free(s->tail);
  free(s->cnt);
  free(s->taken);
  free(s->next);
  free(s->pend);
  free(s->blist);
}

/* Blocks taken in a round travel as whole groups (a list segment); they
 * are spliced into the receiver's lists only when the round ends, so a
 * block received in a round cannot be sent on in the same round. */
static mg_status push_pending(mg_sim *s, uint32_t from, uint32_t v, uint32_t t, uint32_t head, uint32_t tail,
                              uint32_t cnt, mg_err *err) {
  if (!mg_grow((void **)&s->pend, &s->cappend, s->npend + 1, sizeof *s->pend))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for blocks in flight");
  mg_pending *p = &s->pend[s->npend++];
  p->dst_node = v;
  p->t = t;
  p->head = head;
  p->tail = tail;
  p->cnt = cnt;
  (void)from;
  return MG_OK;
}

/* The on_resolved hook wants explicit block ids; collect them only when
 * someone listens, since a big group is walked once more. */
static mg_status note_blocks(mg_sim *s, uint32_t t, uint32_t head, mg_err *err) {
  if (!s->opts.on_resolved || s->shard) return MG_OK; /* a shard's hook sees counts only */
  uint64_t N = s->N;
  for (uint32_t src = head; src != MG_NONE; src = s->next[col_of(s, t) + src]) {
    if (!mg_grow((void **)&s->blist, &s->capblist, s->nblist + 1, sizeof *s->blist))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the resolved block list");
    s->blist[s->nblist++] = (uint64_t)src * N + t;
  }
  return MG_OK;
}

/* Moves the whole group (u, t) into flight towards v. An empty group is
 * no error (a selector may name destinations the sender has nothing for),
 * unless this very round already took it: then the schedule sends the
 * same blocks twice. */
static mg_status take_group(mg_sim *s, const mg_transfer *tr, size_t i, uint32_t t, uint64_t *moved, mg_err *err) {
  uint64_t idx = slot(s, tr->src, t);
  uint32_t stamp = (uint32_t)(s->rep.rounds + 1);
  if (s->cnt[idx] == 0) {
    if (s->taken[idx] == stamp)
      return mg_sim_violate(s, err, MG_RULE_SENT_TWICE, (int64_t)i, -1, tr->src, (int64_t)t,
                            "round %lld transfer %zu: node %u sends its blocks for destination %u a second time in "
                            "the round",
                            (long long)s->rep.rounds, i, tr->src, t);
    return MG_OK;
  }
  mg_status st = note_blocks(s, t, s->head[idx], err);
  if (st != MG_OK) return st;
  st = push_pending(s, tr->src, tr->dst, t, s->head[idx], s->tail[idx], s->cnt[idx], err);
  if (st != MG_OK) return st;
  *moved += s->cnt[idx];
  s->cnt[idx] = 0;
  s->head[idx] = s->tail[idx] = MG_NONE;
  s->taken[idx] = stamp;
  return MG_OK;
}

/* Unlinks one block (src, t) from holder u; 1 if it was there. */
static int unlink_block(mg_sim *s, uint32_t u, uint32_t src, uint32_t t) {
  uint64_t idx = slot(s, u, t), col = col_of(s, t);
  uint32_t prev = MG_NONE;
  for (uint32_t x = s->head[idx]; x != MG_NONE; prev = x, x = s->next[col + x]) {
    if (x != src) continue;
    uint32_t nx = s->next[col + x];
    if (prev == MG_NONE)
      s->head[idx] = nx;
    else
      s->next[col + prev] = nx;
    if (s->tail[idx] == x) s->tail[idx] = prev;
    s->next[col + x] = MG_NONE;
    s->cnt[idx]--;
    return 1;
  }
  return 0;
}

/* Whether block (src, t) is already in flight this round: tells "sent
 * twice in the round" from "never held" when a listed block is missing.
 * Linear in the round's groups, but only on the error path. */
static int in_flight_from(const mg_sim *s, uint32_t src, uint32_t t) {
  for (size_t k = 0; k < s->npend; k++) {
    if (s->pend[k].t != t) continue;
    for (uint32_t x = s->pend[k].head; x != MG_NONE; x = s->next[col_of(s, t) + x])
      if (x == src) return 1;
  }
  return 0;
}

/* Moves one listed block b = src*N + t from the sender; every id is checked
 * (range, not a node's own block, held by the sender) before it moves. */
static mg_status take_block(mg_sim *s, const mg_transfer *tr, size_t i, uint64_t b, uint64_t *moved, mg_err *err) {
  uint64_t N = s->N;
  int64_t r = s->rep.rounds;
  if (b >= N * N)
    return mg_sim_violate(s, err, MG_RULE_BAD_ITEM, (int64_t)i, -1, tr->src, (int64_t)b,
                          "round %lld transfer %zu: block id %llu out of range (%llu blocks)", (long long)r, i,
                          (unsigned long long)b, (unsigned long long)(N * N));
  uint32_t src = (uint32_t)(b / N), t = (uint32_t)(b % N);
  /* (s, s) never travels: it is not a block of the exchange */
  if (src == t)
    return mg_sim_violate(s, err, MG_RULE_BAD_ITEM, (int64_t)i, -1, tr->src, (int64_t)b,
                          "round %lld transfer %zu: block id %llu is (%u,%u), a node's block to itself, which is not "
                          "exchanged",
                          (long long)r, i, (unsigned long long)b, src, t);
  if (!owns(s, t)) return MG_OK; /* another shard's block: its owner moves it */
  if (!unlink_block(s, tr->src, src, t)) {
    if (in_flight_from(s, src, t) && s->taken[slot(s, tr->src, t)] == (uint32_t)(r + 1))
      return mg_sim_violate(s, err, MG_RULE_SENT_TWICE, (int64_t)i, -1, tr->src, (int64_t)b,
                            "round %lld transfer %zu: block (%u,%u) is sent twice in the round", (long long)r, i, src,
                            t);
    return mg_sim_violate(s, err, MG_RULE_NOT_HELD, (int64_t)i, -1, tr->src, (int64_t)b,
                          "round %lld transfer %zu: node %u sends block (%u,%u) it does not hold", (long long)r, i,
                          tr->src, src, t);
  }
  s->taken[slot(s, tr->src, t)] = (uint32_t)(r + 1);
  mg_status st = note_blocks(s, t, src, err);
  if (st != MG_OK) return st;
  *moved += 1;
  return push_pending(s, tr->src, tr->dst, t, src, src, 1, err);
}

/* Exchange selectors filter by destination: a colour (Tseng, Ni, Sheu's
 * logical tori of T4/C64 are colour classes) and a box of cyclic
 * intervals (the gather-scatter trees' runs of destinations). */
static int dest_passes(const mg_sim *s, const mg_selector *sel, uint32_t t) {
  const mg_topo *tp = &s->info.topo;
  if (sel->flags & MG_SEL_COLOR) {
    uint32_t x[MG_MAX_DIMS];
    mg_topo_coords(tp, t, x);
    int64_t sum = 0;
    for (int k = 0; k < tp->d; k++)
      sum += (int64_t)sel->color_w[k] * x[k];
    int64_t c = sum % (int64_t)sel->color_m;
    if (c < 0) c += sel->color_m;
    if ((uint32_t)c != sel->color_c) return 0;
  }
  if (sel->flags & MG_SEL_BOX) {
    uint32_t x[MG_MAX_DIMS];
    mg_topo_coords(tp, t, x);
    for (int k = 0; k < tp->d; k++) {
      uint32_t n = tp->n[k], len = sel->box.len[k];
      if (len == 0 || len >= n) continue;
      uint32_t off = (x[k] + n - sel->box.lo[k] % n) % n;
      if (off >= len) return 0;
    }
  }
  return 1;
}

/* Resolves transfer i: the blocks it takes from its sender, by the
 * cheapest walk its selector allows (a list: block by block; a box: just
 * the box's destinations, group by group; otherwise every destination). */
mg_status mg_exchange_select(mg_sim *s, const mg_transfer *tr, size_t i, uint64_t *nitems, mg_err *err) {
  const mg_selector *sel = &tr->sel;
  uint64_t moved = 0, N = s->N;
  mg_status st = MG_OK;
  const uint32_t bad = MG_SEL_PIECE | MG_SEL_ARRIVAL | MG_SEL_MINUS_DST | MG_SEL_ORIGIN_RANGE;
  s->nblist = 0;
  if (sel->flags & bad)
    return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                          "round %lld transfer %zu: piece/arrival/minus-receiver/origin-range selectors do not apply "
                          "to complete exchange",
                          (long long)s->rep.rounds, i);
  if ((sel->flags & MG_SEL_COLOR) && (sel->color_m == 0 || sel->color_c >= sel->color_m))
    return mg_sim_violate(s, err, MG_RULE_SELECTOR, (int64_t)i, -1, tr->src, -1,
                          "round %lld transfer %zu: colour %u mod %u is not a colour", (long long)s->rep.rounds, i,
                          sel->color_c, sel->color_m);
  if (sel->flags & MG_SEL_LIST) {
    for (size_t j = 0; j < sel->list_len && st == MG_OK; j++) {
      uint64_t b = sel->list[j];
      s->vsub = (int64_t)j;
      if (b < N * N && !dest_passes(s, sel, (uint32_t)(b % N))) continue;
      st = take_block(s, tr, i, b, &moved, err);
    }
  } else if (sel->flags & MG_SEL_PRED) {
    uint64_t col;
    for (uint32_t t = s->tlo; t - s->tlo < s->nt && st == MG_OK; t++) {
      if (!dest_passes(s, sel, t)) continue;
      col = col_of(s, t);
      s->vsub = t;
      uint32_t x = s->head[slot(s, tr->src, t)];
      while (x != MG_NONE && st == MG_OK) {
        uint32_t nx = s->next[col + x];
        if (sel->pred((uint64_t)x * N + t, sel->pred_arg)) st = take_block(s, tr, i, (uint64_t)x * N + t, &moved, err);
        x = nx;
      }
    }
  } else if ((sel->flags & MG_SEL_BOX) && !(sel->flags & MG_SEL_COLOR)) {
    /* walk just the box's destinations */
    const mg_topo *tp = &s->info.topo;
    uint32_t len[MG_MAX_DIMS], idx[MG_MAX_DIMS] = {0}, x[MG_MAX_DIMS];
    int64_t pos = 0;
    for (int k = 0; k < tp->d; k++)
      len[k] = (sel->box.len[k] == 0 || sel->box.len[k] > tp->n[k]) ? tp->n[k] : sel->box.len[k];
    for (;; pos++) {
      for (int k = 0; k < tp->d; k++)
        x[k] = (sel->box.lo[k] % tp->n[k] + idx[k]) % tp->n[k];
      uint32_t t = mg_topo_id(tp, x);
      s->vsub = pos;
      if (owns(s, t)) st = take_group(s, tr, i, t, &moved, err);
      if (st != MG_OK) break;
      int k = 0;
      for (; k < tp->d; k++) {
        if (++idx[k] < len[k]) break;
        idx[k] = 0;
      }
      if (k >= tp->d) break;
    }
  } else {
    for (uint32_t t = s->tlo; t - s->tlo < s->nt && st == MG_OK; t++)
      if (dest_passes(s, sel, t)) {
        s->vsub = t;
        st = take_group(s, tr, i, t, &moved, err);
      }
  }
  *nitems = moved;
  return st;
}

/* The end of a round: every group in flight is appended to its receiver's
 * list for its destination, O(1) each. */
void mg_exchange_end_round(mg_sim *s) {
  for (size_t k = 0; k < s->npend; k++) {
    const mg_pending *p = &s->pend[k];
    uint64_t idx = slot(s, p->dst_node, p->t);
    if (s->cnt[idx] == 0) {
      s->head[idx] = p->head;
    } else {
      s->next[col_of(s, p->t) + s->tail[idx]] = p->head;
    }
    s->tail[idx] = p->tail;
    s->cnt[idx] += p->cnt;
  }
  s->npend = 0;
}

/* Complete exchange: node t holds all N blocks (., t), its own included;
 * otherwise name one block that ended elsewhere. */
mg_status mg_exchange_check_complete(mg_sim *s, mg_err *err) {
  uint64_t N = s->N;
  for (uint32_t t = s->tlo; t - s->tlo < s->nt; t++) {
    if (s->cnt[slot(s, t, t)] == N) continue;
    for (uint32_t u = 0; u < N; u++) {
      uint64_t idx = slot(s, u, t);
      s->vsub = u;
      if (u != t && s->cnt[idx] > 0)
        return mg_sim_violate(s, err, MG_RULE_INCOMPLETE, -1, -1, t, (int64_t)((uint64_t)s->head[idx] * N + t),
                              "incomplete: block (%u,%u) ends at node %u, not at its destination %u", s->head[idx], t,
                              u, t);
    }
  }
  return MG_OK;
}

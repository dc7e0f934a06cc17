/*
 * circgos_fill — the plan state behind CIRCGOS's refinement skip=2 (ours):
 * what every node holds, phase 1's idle arcs filled, and phase-3 packets
 * chosen per gap so that a step's every transfer skips an item its
 * receiver already holds. Used by circgos.c only.
 */
#ifndef MG_CIRCGOS_FILL_H
#define MG_CIRCGOS_FILL_H

#include "../algo_internal.h"

/* One phase-3 transfer as the packet planner sees it: chain (gap) ci sends
 * packet q to node dst. */
typedef struct mg_cgf_msg {
  uint32_t ci, q, dst;
} mg_cgf_msg;

typedef struct mg_cgf {
  uint32_t n, W;
  int wrap;
  uint64_t *H;   /* n x W bits: what each node holds (the plan's state) */
  uint64_t *D;   /* n x W bits: what the current step delivers */
  uint8_t *used; /* phase 1: arc 2v (v -> v+1), 2v+1 (v -> v-1) used this step */
  /* phase-3 packets of the current round: chain ci's items in rank order;
   * packet q = ranks [q n/k, (q+1) n/k) */
  uint32_t nc, k;
  uint32_t *item, *rank; /* nc x n each */
  uint8_t *lock;         /* nc x n, by rank: a step's saving rests on it */
  uint32_t *undo;        /* the current attempt's swaps and locks */
  size_t nundo, capundo;
  uint64_t *list; /* scratch: one fill's items */
} mg_cgf;

/* Largest ring or line skip=2 plans (its packets take 9 n bytes a gap). */
#define MG_CGF_MAX_N 2187u

mg_status mg_cgf_init(mg_cgf *f, uint32_t n, int wrap, mg_err *err);
void mg_cgf_free(mg_cgf *f);

/* A step's transfer src -> dst: marks its arcs; and what it delivers, the
 * origins [lo, lo + len) mod n or a list of items. */
void mg_cgf_mark(mg_cgf *f, uint32_t src, int32_t hops);
void mg_cgf_deliver_range(mg_cgf *f, uint32_t dst, uint32_t lo, uint32_t len);
void mg_cgf_deliver_list(mg_cgf *f, uint32_t dst, const uint32_t *items, uint32_t len);
/* Then: every arc no transfer of the step uses carries from its tail to its
 * head up to L items the head lacks, nearest origins first; emits them and
 * ends the step in the plan's state (not the round: the caller does). */
mg_status mg_cgf_fill(mg_cgf *f, uint64_t L, mg_emit *e, mg_err *err);
/* Node v holds everything (a bridgehead after phase 2, a new one after a
 * phase-3 round). */
void mg_cgf_full(mg_cgf *f, uint32_t v);

/* Phase 3: a round of nc chains and k packets, packets as origin ranges. */
mg_status mg_cgf_round(mg_cgf *f, uint32_t nc, uint32_t k, mg_err *err);
/* Tries to make the step's largest transfer (packet minus what its receiver
 * holds) smaller, one item at a time, by swapping items between a chain's
 * packets; keeps what it reached and returns it in *largest. */
mg_status mg_cgf_step(mg_cgf *f, const mg_cgf_msg *msg, size_t nmsg, uint64_t *largest, mg_err *err);
/* Packet q of chain ci: its items. */
const uint32_t *mg_cgf_packet(const mg_cgf *f, uint32_t ci, uint32_t q, uint32_t *len);

#endif

/* The simulator's internal state. Who uses what (no file calls back into
 * one that calls it):
 *   sim.c          the sink: begin, round (check -> resolve -> price ->
 *                  deliver), end, report;
 *   rules.c        the verifier's rules for one transfer: route, ports, bus;
 *   sim_gossip.c   gossip state: held items as bitsets, selectors;
 *   sim_exchange.c exchange state: block lists, selectors;
 *   violation.c    the report's violation (used by all of the above);
 *   ../model/      every price (the simulator asks, never computes one). */
#ifndef MG_SIM_INTERNAL_H
#define MG_SIM_INTERNAL_H

#include "../model/model.h"
#include "meshgossip_shard.h"

#define MG_NONE UINT32_MAX

/* One group of exchange blocks in flight: all blocks for destination t
 * that a transfer took from its sender; spliced into the receiver's list
 * for t at the end of the round. */
typedef struct mg_pending {
  uint32_t dst_node; /* receiver */
  uint32_t t;        /* block destination */
  uint32_t head, tail, cnt;
} mg_pending;

typedef struct mg_color_mask {
  int32_t w[MG_MAX_DIMS];
  uint32_t m, c;
  uint64_t *bits;
} mg_color_mask;

#define MG_COLOR_CACHE 512
#define MG_POOL_CHUNK  ((uint64_t)1 << 17) /* records of 16 B: 2 MiB */

/* Sorted, disjoint runs [v[2i], v[2i+1]) of a gossip state's local bits
 * (gossip_scope.c). */
typedef struct mg_ranges {
  uint64_t *v;
  size_t n, cap;
} mg_ranges;

/* A colour that depends on one axis, as runs (gossip_scope.c). */
typedef struct mg_color_ranges {
  int32_t w[MG_MAX_DIMS];
  uint32_t m, c;
  int runs; /* 0: the class is left to the masks */
  mg_ranges r;
} mg_color_ranges;

struct mg_sim {
  mg_sim_opts opts;
  mg_schedule_info info;
  int begun, ended, failed;
  mg_report rep;
  size_t cap_round_costs;
  double t0;
  uint32_t N;
  uint64_t need;   /* the state's bytes, as checked against the limit */
  uint64_t nitems; /* gossip: N*P; exchange: N*N */
  double item_bytes;

  /* gossip: rows of held items (bitsets); what a round delivers waits in
   * a pool until the round's end (a transfer reads the state at the
   * round's start): slot[v * NB + b] names the record(s) that hold block b
   * (8 words) of v's deliveries, one word or all eight (sim_gossip.c); the
   * dirty bits list them, dlo and dhi bound the dirty words of a touched
   * row. */
  uint64_t W;
  uint64_t *pool;
  uint64_t **cur;
  uint64_t NB;     /* blocks of 8 words a row */
  uint32_t *slot;  /* N * NB */
  uint64_t DW;     /* dirty words a row: one bit a block */
  uint64_t *dirty; /* N * DW */
  uint64_t *dlo, *dhi;
  uint64_t **chunk; /* the delivery pool, MG_POOL_CHUNK records a chunk (sim_gossip.c) */
  size_t nchunk, capchunk;
  uint64_t pool_used, pool_limit; /* records handed out this round; the most the memory limit leaves */
  /* the round's readers of each node's row (its sends, and transfers to it
   * that drop what it holds), as offsets rd_off[v]..rd_off[v+1] into rd_idx:
   * a delivery no later reader's selector can meet goes straight into the
   * row (sim_gossip.c) */
  uint32_t *rd_off, *rd_idx;
  size_t caprd;
  int64_t *touched; /* round in which v last received */
  uint32_t *touched_list;
  size_t ntouched;
  uint64_t *sel;   /* the current transfer's items; zero outside its word runs */
  mg_ranges run;   /* the word runs of sel */
  mg_ranges scope; /* the bit runs the current transfer can reach */
  mg_ranges tmp, tmp2;
  uint64_t *mask; /* scratch mask; zero outside [mask_lo, mask_hi) */
  uint64_t mask_lo, mask_hi;
  uint64_t **piece_mask;
  uint64_t **range_mask; /* by first piece: a run of range_n[p] pieces */
  uint32_t *range_n;
  mg_color_mask color[MG_COLOR_CACHE];
  int ncolor;
  mg_color_ranges crange[MG_COLOR_CACHE];
  int ncrange;
  uint32_t *arrival;    /* optional: round+1 of first receipt, 0 = initial */
  uint8_t *arrival_dim; /* dim, or 100+bus */

  /* exchange: per (holder u, destination t) a singly linked list of the
   * sources s of blocks (s,t) held at u; next[t*N+s] links them. */
  uint32_t *head, *tail, *cnt, *taken, *next;
  mg_pending *pend;
  size_t npend, cappend;
  uint64_t *blist; /* resolved block ids for the hook */
  size_t nblist, capblist;

  /* per-round rule bookkeeping, stamped with round+1 */
  uint64_t nslots;
  uint32_t *arc_stamp, *arc_user;
  uint32_t *send_stamp, *send_user, *recv_stamp, *recv_user;
  uint32_t *bus_stamp, *bus_user; /* 2n buses: rows then columns */
  const mg_round *cur_round;
  uint64_t *node_visit; /* per node: the visit mark of the last route through it */
  uint64_t visit_mark;
  uint64_t *route_arcs; /* the arcs of the transfer being checked */
  size_t nroute_arcs, caproute_arcs;

  /* item shards (sim_shard.c; meshgossip_shard.h): gossip keeps items
   * [ibase, ibase + nloc) (whole origins, or a range of gossip_layout.c's
   * numbering), exchange the destinations
   * [tlo, tlo + nt); unsharded: 0, nitems, 0, N. */
  const mg_shard *shard;
  uint64_t ibase, nloc;
  /* gossip_layout.c: 1 when a shard numbers its bits piece-major, piece p
   * with its axes rotated by p mod d (lay_stride[p mod d][axis]) */
  int layout;
  uint64_t lay_stride[MG_MAX_DIMS][MG_MAX_DIMS];
  uint32_t tlo, nt;
  size_t cur_xfer; /* the transfer being checked */
  int64_t vsub;    /* where in it (or the item at the end): a violation's key */
  int64_t vkey[MG_SHARD_KEY_LEN];
  struct mg_shard_ledger *sr; /* a shard's per-round ledger */

  mg_pricer pricer;
  int async;                                /* model.timing == async: the clock below runs */
  mg_async clock;                           /* the model's ledger of the round */
  uint64_t round_max_hops, round_max_items; /* this round's, for the report */
};

/* Fills the report's violation and marks the run failed; returns
 * MG_ERR_VIOLATION. */
mg_status mg_sim_violate(mg_sim *s, mg_err *err, mg_rule rule, int64_t xa, int64_t xb, int64_t node, int64_t item,
                         const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* sim.c: transfer i of the current round checked, resolved and delivered
 * (unsharded: also priced); a round's price added to the report and the
 * round closed (its end state becomes the state). */
mg_status mg_sim_transfer(mg_sim *s, mg_round *rd, size_t i, mg_err *err);
mg_status mg_sim_book_round(mg_sim *s, const mg_round *rd, const mg_round_price *pr, mg_err *err);

/* sim_shard.c: a shard's item range and state bytes (need), its round
 * (resolve -> reduce -> price -> book), the note of one resolved
 * transfer, and the end-of-run agreement on the verdict. Where in a
 * transfer a violation lies (s->vsub): before its items, its items in
 * order, after them. */
#define MG_VSUB_BEFORE (-2)
#define MG_VSUB_SELECT ((int64_t)1 << 40)
#define MG_VSUB_ELL    (MG_VSUB_SELECT + 1)
#define MG_VSUB_ROUTE  ((int64_t)1 << 41)
mg_status mg_shard_setup(mg_sim *s, uint64_t *need, mg_err *err);
mg_status mg_shard_begin(mg_sim *s, mg_status st, mg_err *err);
mg_status mg_shard_round(mg_sim *s, mg_round *rd, mg_err *err);
mg_status mg_shard_note(mg_sim *s, size_t i, uint64_t hops, uint64_t nitems, const mg_seg *route, int nseg,
                        mg_err *err);
mg_status mg_shard_end(mg_sim *s, mg_status st, mg_err *err);
void mg_shard_free(mg_sim *s);

/* rules.c: the verifier's rules for transfer i of the current round.
 * Walks the route (it must stay on the mesh and end at tr->dst; under
 * strict contention no arc twice in a round) into s->route_arcs and its
 * hop count; the port rule for a sender or receiver; a bus broadcast
 * (one sender per bus per step, at most ell tokens), which also resolves
 * and delivers its items. Each returns MG_ERR_VIOLATION with the report's
 * violation filled. */
mg_status mg_rule_route(mg_sim *s, const mg_transfer *tr, size_t i, const mg_seg *seg, int nseg, uint64_t *hops,
                        mg_err *err);
mg_status mg_rule_port(mg_sim *s, size_t i, uint32_t node, int send, mg_err *err);
mg_status mg_rule_bus(mg_sim *s, const mg_transfer *tr, size_t i, uint64_t *nitems, mg_err *err);

/* gossip_layout.c: does a shard of this gossip number its bits piece-major
 * (several pieces on a grid of 2 or more axes)? Then mg_layout_setup sets
 * s->layout. An item's bit and a bit's item (both global, before ibase). */
int mg_layout_wanted(const mg_schedule_info *info);
void mg_layout_setup(mg_sim *s);
uint64_t mg_item_bit(const mg_sim *s, uint64_t origin, uint32_t piece);
int mg_layout_rot(const mg_sim *s, uint64_t piece); /* the axis piece's numbering runs fastest */
uint64_t mg_id_bit(const mg_sim *s, uint64_t item); /* item id origin*P + piece */
uint64_t mg_bit_item(const mg_sim *s, uint64_t bit);

/* gossip_scope.c: the bit runs of all kept items (of pieces piece ..
 * piece + npieces - 1 alone in a piece's own numbering, when piece >= 0),
 * of a box of origins (of those pieces, or of every piece when piece is
 * negative: the unsharded
 * numbering keeps an origin's pieces together and ignores it), of an origin
 * range, of a colour of one axis (returns 0 when that colour is not runs,
 * or on error with *st set; the runs are cached), and the meet of two run
 * lists. */
void mg_ranges_free(mg_ranges *r);
mg_status mg_scope_all(const mg_sim *s, int64_t piece, uint32_t npieces, mg_ranges *r, mg_err *err);
mg_status mg_scope_box(const mg_sim *s, const mg_box *box, int64_t piece, uint32_t npieces, mg_ranges *r, mg_err *err);
mg_status mg_scope_origins(const mg_sim *s, uint32_t range_lo, uint32_t range_len, int64_t piece, uint32_t npieces,
                           mg_ranges *r, mg_err *err);
int mg_scope_color(mg_sim *s, const mg_selector *sel, const mg_ranges **out, mg_err *err, mg_status *st);
mg_status mg_scope_meet(const mg_ranges *a, const mg_ranges *b, mg_ranges *out, mg_err *err);

/* gossip */
mg_status mg_gossip_alloc(mg_sim *s, mg_err *err);
void mg_gossip_free(mg_sim *s);
/* Resolves transfer i's items into s->sel; returns the item count via
 * *nitems. v is the receiving node (MG_NONE for a bus broadcast). */
mg_status mg_gossip_select(mg_sim *s, const mg_transfer *tr, size_t i, uint32_t v, uint64_t *nitems, mg_err *err);
/* Delivers s->sel to v (into the end-of-round state). */
mg_status mg_gossip_deliver(mg_sim *s, uint32_t v, int via, mg_err *err);
void mg_gossip_end_round(mg_sim *s);
/* Tests only: 1 sends every delivery through the pool (no direct ones), so
 * that a test can compare the two; set before a run, never during one. */
extern int mg_sim_pool_only;
/* Indexes the round's readers of every row (before its first transfer). */
mg_status mg_gossip_begin_round(mg_sim *s, const mg_round *rd, mg_err *err);
/* Fetches into the cache what a later transfer of the round will touch. */
void mg_gossip_prefetch(const mg_sim *s, const mg_transfer *tr);
#define MG_PREFETCH_AHEAD 8
mg_status mg_gossip_check_complete(mg_sim *s, mg_err *err);

/* exchange */
mg_status mg_exchange_alloc(mg_sim *s, mg_err *err);
void mg_exchange_free(mg_sim *s);
mg_status mg_exchange_select(mg_sim *s, const mg_transfer *tr, size_t i, uint64_t *nitems, mg_err *err);
void mg_exchange_end_round(mg_sim *s);
mg_status mg_exchange_check_complete(mg_sim *s, mg_err *err);

#endif

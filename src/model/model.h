/* The cost model's room: parse and validate a model (model.c), price a
 * message and a round (price.c), share arcs fairly (fair.c).
 *
 * The pricing interface: what a message and a round cost
 * under a machine model. The simulator checks the rules and resolves the
 * items; it hands every transfer of a round to a pricer (its sender, hop
 * count, bytes and the arcs it walks) and asks for the round's price at
 * the end. Nothing here knows an algorithm or a rule of the verifier.
 *
 * How each model prices a message and a round is written out in
 * docs/models.md; in short:
 *   wormhole/circuit, alone: t_s + hops*t_d + bytes*t_l   (Juurlink, Rao,
 *     Sibeyn, "Gossiping on Meshes and Tori", eq. (1));
 *   store-and-forward, alone: hops*(t_s + bytes*t_l);
 *   bus: one step t_s per round (Fujita, "Gossiping in Mesh-Bus Computers
 *     by Packets with Bounded Length");
 *   strict rounds: the dearest transfer; circuit: alpha + max hops*delta +
 *     max length*tau (Delmas, Perennes, "Circuit-switched gossiping in the
 *     3-dimensional torus networks");
 *   shared rounds: the largest fixed terms, a node's start-ups one after
 *     the other beyond its out-degree, plus the busiest arc's bytes;
 *   fair rounds: max-min fair sharing of the arcs (fair.c). */
#ifndef MG_MODEL_H
#define MG_MODEL_H

#include "../util/internal.h"

/* A message reaching its receiver at time t (transfer i of the round). */
typedef struct mg_arrival {
  uint32_t dst;
  size_t i;
  double t;
} mg_arrival;
/* Sorts arrivals by receiver, then time, then transfer. */
void mg_arrivals_sort(mg_arrival *a, size_t n);

/* A price split into its terms (the report's cost_terms). */
typedef struct mg_terms {
  double startup, hop, transfer;
} mg_terms;

static inline double mg_terms_sum(mg_terms t) { return t.startup + t.hop + t.transfer; }

/* Checks that a model can price a problem on a topology: buses only on
 * mesh-bus computers and the other way round; the mesh-bus model for
 * gossip only (Fujita defines it so); fair sharing needs wormhole or
 * circuit switching. MG_ERR_INVALID with the reason. */
mg_status mg_model_validate(const mg_model *m, const mg_topo *t, mg_problem problem, mg_err *err);

/* The bytes a message takes alone on the wire: bytes / its bandwidth factor
 * (the model's bwf; bytes itself without one). */
double mg_model_wire_bytes(const mg_model *m, double bytes);

/* A transfer's price when it runs alone. */
mg_terms mg_price_message(const mg_model *m, uint64_t hops, double bytes);

/* The per-round ledger of a model: the arcs' byte loads, each node's
 * message count and, for contention=fair, every transfer's arcs. */
typedef struct mg_pricer {
  mg_model m;
  mg_topo topo;
  uint64_t nslots;
  uint32_t stamp; /* round + 1: marks what this round touched */
  /* per arc: bytes this round */
  double *arc_bytes;
  uint32_t *arc_stamp;
  uint64_t *touched; /* arcs touched this round */
  size_t ntouched, captouched;
  /* per node: messages started this round (valid where send_stamp) */
  uint32_t *send_stamp, *send_count;
  uint32_t round_startups; /* the round's largest start-up multiple */
  /* this round so far */
  size_t n;
  mg_terms dearest;
  double max_fixed, max_bytes;
  uint64_t max_hops;
  /* contention=fair, or a timeline (o, or or timing=async): transfer i
   * walks arcs[off[i] .. off[i+1]) */
  int fair;
  /* 1: every transfer gets its own finish time in the round (timeline.c):
   * the model has o or or, or an asynchronous clock reads the prices */
  int timeline;
  int routes;                  /* 1: store-and-forward under shared contention keeps the routes */
  uint32_t *o_stamp, *o_count; /* per node: messages queued on its CPU */
  uint32_t *dst, *cpu_slot;    /* per transfer: receiver, place in its sender's queue */
  double *msg;                 /* per transfer: its price alone */
  double *wire;                /* per transfer: after mg_pricer_end, its duration once it left */
  struct mg_arrival *order;    /* scratch: transfers sorted by receiver */
  size_t capdst, capslot, capmsg, capwire, caporder;
  uint32_t *arc_index; /* arc id -> its index among the touched arcs */
  uint64_t *arcs;
  size_t narcs, caparcs;
  size_t *off;
  uint32_t *src;
  double *bytes, *fixed, *work;
  double *wb; /* per transfer: its bytes / its bandwidth factor (bwf) */
  size_t capoff, capsrc, capbytes, capfixed, capwork, capwb;
  /* model key ack (fair): transfer i's return route walks
   * barcs[boff[i] .. boff[i+1]); its arcs are among the touched ones */
  size_t *boff;
  uint64_t *barcs;
  size_t nbarcs, capboff, capbarcs;
} mg_pricer;

/* What one round cost, with the busiest arc's load and the round's
 * longest route and largest message (for the report). */
typedef struct mg_round_price {
  double cost;
  mg_terms terms;
  double busiest; /* bytes on the busiest arc (bus: the largest message) */
  uint64_t max_hops;
} mg_round_price;

/* Allocates the ledger for a topology under a model. MG_ERR_NOMEM on
 * failure (nothing to free then); MG_ERR_INVALID for a model that cannot
 * price (fair with store-and-forward). */
mg_status mg_pricer_init(mg_pricer *p, const mg_model *m, const mg_topo *t, mg_err *err);
void mg_pricer_free(mg_pricer *p);
/* Starts round r (0-based). */
void mg_pricer_begin(mg_pricer *p, int64_t r);
/* Adds a transfer of the round: its sender and receiver (bus: UINT32_MAX),
 * hops and bytes, and the arcs its route walks (bus transfers: none).
 * MG_ERR_NOMEM on failure. */
mg_status mg_pricer_add(mg_pricer *p, uint32_t src, uint32_t dst, uint64_t hops, double bytes, const uint64_t *arcs,
                        size_t narcs, mg_err *err);
/* Prices the round added so far (an empty round costs nothing). */
mg_status mg_pricer_end(mg_pricer *p, mg_round_price *out, mg_err *err);

/* Store-and-forward under shared contention: transfer i's price, the sum
 * over its arcs of ts + the arc's bytes in the round * tl (price.c). */
double mg_saf_shared_wire(const mg_pricer *p, size_t i);

/* contention=fair: the finish time (in bytes at one byte per unit of time
 * per arc) of each of the round's transfers under max-min fair sharing of
 * the arcs, re-shared whenever a flow ends; into finish[0..p->n). */
mg_status mg_fair_finish(const mg_pricer *p, double *finish, mg_err *err);
/* The same with flow i joining at release[i] (same unit; NULL: all at 0):
 * finish[i] is absolute (release[i] for a flow without bytes or arcs). */
mg_status mg_fair_finish_at(const mg_pricer *p, const double *release, double *finish, mg_err *err);

/* A timeline's transfers' durations once they left their sender (wire[],
 * by the round's contention rule: docs/models.md), from the ledger of the
 * round; called by mg_pricer_end when p->timeline. */
mg_status mg_timeline_wires(mg_pricer *p, double round0, mg_err *err);
/* The synchronous round with CPU overheads: transfer i leaves at
 * (cpu_slot[i]+1)*o, arrives wire[i] later, and its receiver spends or on
 * each message in order of arrival; the round ends at the last of these. */
mg_status mg_timeline_round(mg_pricer *p, double *end, mg_err *err);

/* Under contention=fair (fluid.c): the executor's clocks with the arcs
 * shared across rounds, timing=ranks (round by round) and timing=async
 * (sync=data: a send goes once the transfers it depends on are read). The
 * rounds are kept (from the pricer, after each round is priced) and the
 * clock runs at the schedule's end. */
typedef struct mg_fluid {
  mg_model m;
  uint32_t N;
  uint64_t narc_ids; /* N * 2d: the topology's arc ids */
  size_t n, narcs;
  uint32_t *src, *dst;
  int64_t *round;
  double *bytes, *wb, *fixed; /* per transfer: bytes, bytes / bwf, ts + hops*td */
  size_t *off;                /* transfer i walks arcs[off[i] .. off[i+1]) */
  uint64_t *arcs;
  size_t *boff; /* ack: its return route, barcs[boff[i] .. boff[i+1]) */
  uint64_t *barcs;
  size_t nbarcs;
  size_t capsrc, capdst, capround, capbytes, capwb, capfixed, capoff, caparcs, capboff, capbarcs;
  int data;     /* timing=async: transfer i waits for deps[doff[i] .. doff[i+1]) */
  size_t *doff; /* (earlier transfers, by their index here) */
  size_t *deps;
  size_t ndeps, capdoff, capdeps;
} mg_fluid;
void mg_fluid_init(mg_fluid *f, const mg_model *m, const mg_topo *t);
void mg_fluid_free(mg_fluid *f);
/* Keeps the round the pricer has just priced (its transfers and arcs);
 * timing=async: transfer i of the round depends on deps[doff[i] ..
 * doff[i+1]), indices of transfers kept before this round. */
mg_status mg_fluid_add_round(mg_fluid *f, const mg_pricer *p, int64_t round, const size_t *doff, const size_t *deps,
                             mg_err *err);
/* Runs the clock over every round kept: *end is the last read. */
mg_status mg_fluid_end(mg_fluid *f, double *end, mg_err *err);

/* The asynchronous clock (async.c): every transfer starts when the items
 * it carries have arrived at its sender and its sender's CPU is free. */
typedef struct mg_async {
  mg_timing timing; /* async: items' arrivals; ranks: each node's round */
  mg_problem problem;
  uint32_t N;
  uint64_t nitems;
  double *t_item;  /* gossip: [node*nitems+item]; exchange: [block], at its holder */
  double *cpu;     /* per node: when its CPU is free to send */
  double *rcv;     /* per node: when its CPU is free to receive */
  double *ready;   /* per transfer of the round: when its items are there */
  size_t *ioff;    /* per transfer: its items items[ioff[i] .. ioff[i+1]) */
  uint64_t *items; /* the round's carried items */
  double *done;    /* scratch: per transfer, its receive completion */
  size_t n, nitem_used, capready, capioff, capitems, capdone;
  double *round_at; /* ranks: per node, when its next round may start */
  double end;       /* the last finish so far */
  int fluid;        /* contention=fair: the rounds go to the fluid */
  mg_fluid fl;
  int64_t rounds;
  /* async under fair: t_item holds who delivered an item (the fluid's
   * transfer index + 1; 0 held from the start), and each transfer of the
   * round its distinct deliverers, dep[doff[i] .. doff[i+1]) */
  size_t *doff, *dep, ndep, capdoff, capdep;
  uint64_t *seen; /* per fluid transfer: the last transfer that listed it, + 1 */
  size_t capseen;
  double *arc_free;  /* strict and shared: per arc slot, when the earlier rounds' transfers on it are through */
  double *port_free; /* port=one: per node, when its send port [N] and its receive port [N] are free */
} mg_async;

/* Bytes of the asynchronous clock's state: per (node, item) arrival
 * times for gossip, per block for exchange, and, under strict and shared,
 * when each of the topology's arc_slots and each one-port node is free;
 * MG_ERR_TOO_LARGE on overflow. */
mg_status mg_async_state_bytes(mg_timing timing, mg_problem problem, uint32_t N, uint64_t nitems, uint64_t arc_slots,
                               uint64_t *bytes, mg_err *err);
mg_status mg_async_init(mg_async *a, mg_timing timing, mg_problem problem, uint32_t N, uint64_t nitems,
                        uint64_t arc_slots, mg_err *err);
/* contention=fair: the clock shares arcs across rounds (fluid.c), under
 * timing=ranks and timing=async; called after mg_async_init. */
void mg_async_use_fluid(mg_async *a, const mg_model *m, const mg_topo *t);
void mg_async_free(mg_async *a);
void mg_async_begin(mg_async *a);
/* Adds the round's next transfer (in the pricer's order): its sender, and
 * the items it carries as a bitset (gossip) or a block list (exchange). */
mg_status mg_async_add(mg_async *a, uint32_t src, const uint64_t *bits, size_t nwords, const uint64_t *list,
                       size_t nlist, mg_err *err);
/* Advances the clock over the round the pricer has just priced. */
mg_status mg_async_end(mg_async *a, mg_pricer *p, mg_err *err);
/* At the schedule's end: a->end is the schedule's time under the clock. */
mg_status mg_async_finish(mg_async *a, mg_err *err);

#endif

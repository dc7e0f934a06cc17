/*
 * meshgossip — gossiping (all-to-all broadcast) and complete exchange
 * (all-to-all personalized) on meshes, tori and mesh-bus computers.
 *
 * One flow: an algorithm generator streams rounds of transfers (the
 * schedule) into a sink; the simulator/verifier is a sink that executes
 * the rounds under a machine model, checks every rule and prices them; the
 * exporter writes the rounds with their items resolved.
 *
 * Conventions for every function here:
 *   - the return value is an mg_status: MG_OK (0) or a negative error;
 *   - on error, the optional mg_err *err receives a one-line message and
 *     nothing the caller owns is left half-changed;
 *   - the library never prints, exits or aborts.
 *
 * Threads: any function may be called from several threads at once, on
 * arguments each thread owns (a report, a sink, a simulator are not to be
 * shared while in use). The library's own state is constant (the
 * registries of algorithms and tables), atomic (the temporary files a
 * signal must take back), per thread (a plan cache) or behind a mutex (a
 * memo of plan searches' results, each a function of its key); every call
 * computes what it returns alone, so no figure depends on what other
 * threads do but a report's wall time and the process's peak RSS
 * (tests/test_threads.c; bench/tsan.sh runs it under ThreadSanitizer).
 */
#ifndef MESHGOSSIP_H
#define MESHGOSSIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libmeshgossip.so is built with -fvisibility=hidden: what these headers
   declare is its interface, and all it exports. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ------------------------------------------------------------------ */
/* Status and errors                                                    */
/* ------------------------------------------------------------------ */

typedef enum mg_status {
  MG_OK = 0,
  MG_ERR_INVALID = -1,     /* bad argument or malformed input */
  MG_ERR_NOMEM = -2,       /* an allocation failed */
  MG_ERR_TOO_LARGE = -3,   /* the instance exceeds size or memory limits */
  MG_ERR_UNSUPPORTED = -4, /* the algorithm refuses this topology/model */
  MG_ERR_IO = -5,          /* a file could not be read or written */
  MG_ERR_VIOLATION = -6,   /* the schedule broke a rule (see the report) */
  MG_ERR_NOTFOUND = -7,    /* unknown name */
} mg_status;

#define MG_ERR_LEN 320
typedef struct mg_err {
  char msg[MG_ERR_LEN];
} mg_err;

/* A static string for a status; never NULL. */
const char *mg_strerror(mg_status st);
/* The library's version, "MAJOR.MINOR.PATCH" (static string). */
const char *mg_version(void);
/* The shortest decimal form of x that reads back as x (whole numbers
 * below 10^15 without an exponent); returns buf. 32 bytes always suffice. */
char *mg_fmt_double(double x, char *buf, size_t len);
/* A byte count in the largest binary unit that keeps it >= 1 ("512
 * bytes", "2.56 KiB", "3.00 GiB"); returns buf. 32 bytes suffice. */
char *mg_fmt_bytes(uint64_t bytes, char *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Topology                                                             */
/* ------------------------------------------------------------------ */

#define MG_MAX_DIMS 8

typedef enum mg_topo_kind {
  MG_TOPO_GRID = 0, /* torus/mesh/ring/line: per-dimension wrap flag */
  MG_TOPO_MESHBUS,  /* n x n mesh-bus computer: row and column buses */
} mg_topo_kind;

typedef struct mg_topo {
  mg_topo_kind kind;
  int d;                   /* number of dimensions (meshbus: 2) */
  uint32_t n[MG_MAX_DIMS]; /* extents, each >= 2 */
  int wrap[MG_MAX_DIMS];   /* 1 = torus dimension, 0 = mesh */
  uint32_t stride[MG_MAX_DIMS];
  uint32_t N; /* number of nodes */
} mg_topo;

/* Largest node count accepted (node ids and arc ids fit in 32 bits). */
#define MG_MAX_NODES (1u << 26)

/* Parses "ring:N", "line:N", "torus:AxB..", "mesh:AxB..", "meshbus:N".
 * On error returns MG_ERR_INVALID (or MG_ERR_TOO_LARGE beyond
 * MG_MAX_NODES) and leaves *t unspecified. */
mg_status mg_topo_parse(const char *spec, mg_topo *t, mg_err *err);
/* Builds a grid topology; wrap applies to every dimension. */
mg_status mg_topo_grid(mg_topo *t, int d, const uint32_t *n, int wrap, mg_err *err);
mg_status mg_topo_meshbus(mg_topo *t, uint32_t n, mg_err *err);
/* Writes the canonical spec ("torus:9x9", "ring:81", ...); returns buf. */
char *mg_topo_format(const mg_topo *t, char *buf, size_t len);
/* 1 if every dimension wraps (a torus or ring). */
int mg_topo_is_torus(const mg_topo *t);

void mg_topo_coords(const mg_topo *t, uint32_t id, uint32_t *x);
uint32_t mg_topo_id(const mg_topo *t, const uint32_t *x);
/* Neighbour of node along dim in direction dir (+1/-1); UINT32_MAX if the
 * step would leave a mesh. */
uint32_t mg_topo_step(const mg_topo *t, uint32_t node, int dim, int dir);
/* Number of directed arcs slots: N * d * 2 (some unused on meshes). */
uint64_t mg_topo_arc_slots(const mg_topo *t);
/* Arc id of (node, dim, dir). */
static inline uint64_t mg_arc_id(const mg_topo *t, uint32_t node, int dim, int dir) {
  return ((uint64_t)node * (uint64_t)t->d + (uint64_t)dim) * 2u + (dir < 0 ? 1u : 0u);
}
/* Number of incoming arcs of a node (2d on a torus; fewer on mesh faces). */
int mg_topo_in_degree(const mg_topo *t, uint32_t node);
/* Diameter under shortest routing. */
uint64_t mg_topo_diameter(const mg_topo *t);
/* Signed shortest offset from a to b along one dimension (ties go +). */
int64_t mg_topo_offset(const mg_topo *t, int dim, uint32_t a, uint32_t b);

/* ------------------------------------------------------------------ */
/* Machine model                                                        */
/* ------------------------------------------------------------------ */

typedef enum mg_switching { MG_SW_WORMHOLE = 0, MG_SW_CIRCUIT, MG_SW_SAF, MG_SW_BUS } mg_switching;
typedef enum mg_port { MG_PORT_ALL = 0, MG_PORT_ONE } mg_port;
/* strict: an arc carries one transfer per round; shared: arcs may be
 * shared, a round costs max(ts + hops*td) + busiest-arc bytes*tl; fair:
 * arcs shared max-min fairly among the flows of a round (docs/models.md). */
typedef enum mg_contention { MG_CONT_STRICT = 0, MG_CONT_SHARED, MG_CONT_FAIR } mg_contention;
/* sync: rounds end at a global barrier, a schedule costs the sum of its
 * rounds; async: every transfer starts when the items it carries have
 * arrived at its sender and its sender's CPU is free, and the schedule
 * costs its last finish; ranks: every node runs the rounds in order with
 * no barrier, as an MPI executor does (post the round's receives, send,
 * wait for all): a node's round starts when its previous round's messages
 * are done, a message moves once its receiver has entered the round
 * (docs/models.md). The rules do not change, only the clock. */
typedef enum mg_timing { MG_TIMING_SYNC = 0, MG_TIMING_ASYNC, MG_TIMING_RANKS } mg_timing;

typedef enum mg_share { MG_SHARE_EVEN = 0, MG_SHARE_HOPS } mg_share;
/* schedule: a transfer is priced on the route its schedule names (the
 * papers' machines, where the sender picks the path); dor: the network
 * routes every message itself, in dimension order, the shorter way round,
 * a tie +; simgrid: the same with SimGrid's tie rule (+ except from
 * coordinate n/2), the routes of its TORUS cluster (docs/models.md). The
 * verifier checks the named routes either way; only the price moves. */
typedef enum mg_routes { MG_ROUTES_SCHEDULE = 0, MG_ROUTES_DOR, MG_ROUTES_SIMGRID } mg_routes;

#define MG_MAX_BWF 16
typedef struct mg_model {
  mg_switching switching;
  mg_port port;
  mg_contention contention;
  double ts;    /* start-up time per message (s) */
  double td;    /* time per hop (s) */
  double tl;    /* time per byte (s) */
  uint64_t ell; /* bus: at most ell items per message; 0 = unbounded */
  /* LogGP-style CPU overheads (docs/models.md): o seconds of the sender's
   * CPU per message (a node's messages leave one after the other), or of
   * the receiver's per message received. 0 = none (the papers' models). */
  double o, orecv;
  mg_timing timing;
  /* bandwidth by message size ("bwf=T:F;T:F;..."): a message of b bytes
   * moves alone at factor F of 1/tl and, under contention=fair, weighs
   * b/F on the arcs it shares (docs/models.md), F that of the largest
   * threshold T <= b (1 below the smallest), as SimGrid's smpi/bw-factor.
   * nbwf = 0: none. */
  int nbwf;
  uint64_t bwf_at[MG_MAX_BWF];
  double bwf[MG_MAX_BWF];
  /* contention=fair: how flows share an arc ("share=even|hops"): even
   * (max-min fair) or in inverse proportion to their route's length
   * (SimGrid's SMPI and LV08 models; docs/models.md). */
  mg_share share;
  mg_routes routes; /* who picks a message's route ("routes=schedule|dor|simgrid") */
  /* timing=ranks: a send of at least `detach` bytes is not detached (MPI's
   * rendezvous above the eager limit; SMPI's send-is-detached-thresh): its
   * sender's round waits until it has been received. 0: every send is
   * detached ("detach=B"). */
  uint64_t detach;
  /* contention=fair: every flow also loads the arcs of its return route
   * (the route from its receiver back to its sender: the network's under
   * routes=dor|simgrid, the named route reversed under routes=schedule) at
   * `ack` times its rate: TCP's acknowledgements, SimGrid's
   * network/crosstraffic (0.05). 0: none ("ack=F", 0 <= F <= 1). */
  double ack;
} mg_model;

/* Defaults: wormhole, all-port, strict, ts=1, td=0, tl=0, ell=0. */
void mg_model_default(mg_model *m);
/* Applies "key=value,..." on top of *m (keys: switching, port, contention,
 * ts, td, tl, ell, o, or, timing, bwf, share, routes, detach, ack). Rejects unknown keys, negative or
 * non-finite numbers. "@FILE" reads the items from a file (one or more a
 * line, "#" comments; MG_ERR_IO if it cannot be read). */
mg_status mg_model_parse(const char *spec, mg_model *m, mg_err *err);
/* The papers' units: ts=r, td=0, tl=1 (with L=1, costs are in t'_l). */
mg_status mg_model_paper_units(mg_model *m, double r, mg_err *err);
/* "switching=..,ell=N", then ",o=..", ",or=..", ",timing=..", ",bwf=..",
 * ",share=..", ",routes=..", ",detach=..", ",ack=.." only where they differ from the defaults. */
char *mg_model_format(const mg_model *m, char *buf, size_t len);
const char *mg_timing_name(mg_timing t);
const char *mg_switching_name(mg_switching s);
const char *mg_port_name(mg_port p);
const char *mg_contention_name(mg_contention c);
const char *mg_routes_name(mg_routes r);

/* ------------------------------------------------------------------ */
/* Schedule IR                                                          */
/* ------------------------------------------------------------------ */

typedef enum mg_problem { MG_GOSSIP = 0, MG_EXCHANGE = 1 } mg_problem;
const char *mg_problem_name(mg_problem p);
mg_status mg_problem_parse(const char *s, mg_problem *p, mg_err *err);

/* A route segment: walk |hops| arcs along dim, in the sign's direction. */
typedef struct mg_seg {
  int8_t dim;
  int32_t hops;
} mg_seg;

#define MG_MAX_SEGS 16

typedef enum mg_bus { MG_BUS_NONE = 0, MG_BUS_ROW = 1, MG_BUS_COL = 2 } mg_bus;

/* Item predicate for library users: item id as in the schedule file. */
typedef int (*mg_item_pred)(uint64_t item, void *arg);

/* Filters of a selector; a transfer carries the items its sender holds at
 * the start of the round that pass every filter set in `flags`. */
enum {
  MG_SEL_ALL = 0,                /* everything held */
  MG_SEL_PIECE = 1u << 0,        /* gossip: pieces piece .. piece + piece_count
                                    - 1 (a piece_count of 0 is 1) */
  MG_SEL_COLOR = 1u << 1,        /* origin (gossip) or destination (exchange)
                                    has colour sum(w_i x_i) mod m == c */
  MG_SEL_BOX = 1u << 2,          /* origin (gossip) or destination (exchange)
                                    lies in a box of cyclic intervals */
  MG_SEL_ARRIVAL = 1u << 3,      /* received in rounds [r0, r1] (optionally via
                                    dimension arr_dim / bus): needs the schedule
                                    flag MG_SCHED_TRACK_ARRIVAL */
  MG_SEL_MINUS_DST = 1u << 4,    /* minus what the receiver holds (gossip) */
  MG_SEL_LIST = 1u << 5,         /* an explicit item list; every listed item
                                    must be held by the sender */
  MG_SEL_PRED = 1u << 6,         /* a callback */
  MG_SEL_ORIGIN_RANGE = 1u << 7, /* gossip: origin id in [lo, lo+len) mod N */
};

typedef struct mg_box {
  uint32_t lo[MG_MAX_DIMS];  /* cyclic interval start per dimension */
  uint32_t len[MG_MAX_DIMS]; /* its length (0 is taken as the whole axis) */
} mg_box;

typedef struct mg_selector {
  uint32_t flags;
  uint32_t piece;
  uint32_t piece_count; /* MG_SEL_PIECE: pieces in the run from piece; 0 or 1: one */
  int32_t color_w[MG_MAX_DIMS];
  uint32_t color_m, color_c;
  mg_box box;
  int64_t r0, r1; /* arrival window, absolute round indices */
  int arr_dim;    /* -1: any; 0..d-1: dimension; or 100+mg_bus */
  uint32_t range_lo, range_len;
  const uint64_t *list; /* owned by the round (see mg_round_add_list) */
  size_t list_len;
  mg_item_pred pred;
  void *pred_arg;
} mg_selector;

typedef struct mg_transfer {
  uint32_t src;
  uint32_t dst; /* unused when bus != MG_BUS_NONE */
  mg_bus bus;   /* mesh-bus: broadcast on the sender's row/col bus */
  uint8_t nseg; /* 0 = default dimension-order shortest route */
  mg_seg seg[MG_MAX_SEGS];
  mg_selector sel;
} mg_transfer;

/* A round: transfers that run at once; all read the state at the start
 * of the round and deliver at its end. */
typedef struct mg_round {
  mg_transfer *t;
  size_t n, cap;
  /* arena for explicit item lists */
  uint64_t **lists;
  size_t nlists, caplists;
  int64_t index; /* set by the sink driver */
} mg_round;

void mg_round_init(mg_round *r);
void mg_round_clear(mg_round *r); /* keeps capacity */
void mg_round_free(mg_round *r);
/* Appends a transfer (copied); returns a pointer to the copy or NULL on
 * allocation failure (the round is unchanged then). */
mg_transfer *mg_round_add(mg_round *r, const mg_transfer *tr);
/* Copies an item list into the round's arena; NULL on failure. */
const uint64_t *mg_round_add_list(mg_round *r, const uint64_t *items, size_t n);

/* Convenience constructors. */
mg_transfer mg_xfer(uint32_t src, uint32_t dst);                             /* all held, default route */
mg_transfer mg_xfer_line(uint32_t src, uint32_t dst, int dim, int32_t hops); /* one segment */
mg_transfer mg_xfer_bus(uint32_t src, mg_bus bus);

enum {
  MG_SCHED_TRACK_ARRIVAL = 1u << 0, /* simulator keeps per-item arrival round */
};

/* A parameter's value holds at most MG_PARAM_VALUE_LEN - 1 characters:
 * room for 3D dimwise phases spelled with their own parameters
 * (torus-swing/torus-swing/ring:half=1 and longer); 40 before 0.2. */
#define MG_PARAM_VALUE_LEN 64
typedef struct mg_param {
  char name[24];
  char value[MG_PARAM_VALUE_LEN];
} mg_param;

#define MG_MAX_PARAMS 12
typedef struct mg_params {
  int n;
  mg_param p[MG_MAX_PARAMS];
} mg_params;

mg_status mg_params_parse(const char *spec, mg_params *ps, mg_err *err); /* "a=3,b=2" */
const char *mg_params_get(const mg_params *ps, const char *name);
mg_status mg_params_set(mg_params *ps, const char *name, const char *value, mg_err *err);
mg_status mg_params_set_int(mg_params *ps, const char *name, int64_t v, mg_err *err);
/* Writes "a=3,b=2". */
char *mg_params_format(const mg_params *ps, char *buf, size_t len);

/* What a schedule is about; sent once before the rounds. */
typedef struct mg_schedule_info {
  mg_problem problem;
  mg_topo topo;
  mg_model model;
  double bytes;    /* gossip: bytes per node; exchange: bytes per block */
  uint32_t pieces; /* P: each node's data cut into P equal pieces */
  uint32_t flags;  /* MG_SCHED_* */
  char algorithm[32];
  mg_params params;
  int64_t rounds_hint; /* expected round count, -1 if unknown (progress) */
} mg_schedule_info;

/* A consumer of a schedule stream. Callbacks return MG_OK or an error,
 * which stops the generator. `end` is called once after the last round
 * (not on error). */
typedef struct mg_sink {
  mg_status (*begin)(void *ctx, const mg_schedule_info *info, mg_err *err);
  mg_status (*round)(void *ctx, mg_round *r, mg_err *err);
  mg_status (*end)(void *ctx, mg_err *err);
  void *ctx;
} mg_sink;

/* ------------------------------------------------------------------ */
/* Simulator / verifier                                                 */
/* ------------------------------------------------------------------ */

typedef enum mg_rule {
  MG_RULE_NONE = 0,
  MG_RULE_ARC_CONTENTION, /* a directed arc used twice in a round (strict) */
  MG_RULE_ONE_PORT_SEND,  /* a node sends twice in a round (one-port) */
  MG_RULE_ONE_PORT_RECV,  /* a node receives twice in a round (one-port) */
  MG_RULE_OFF_MESH,       /* a route leaves the mesh */
  MG_RULE_BAD_ROUTE,      /* a route does not end at dst / bad dim / empty */
  MG_RULE_NOT_HELD,       /* a listed item is not held by the sender */
  MG_RULE_SENT_TWICE,     /* an exchange block sent twice in one round */
  MG_RULE_INCOMPLETE,     /* a node lacks an item at the end */
  MG_RULE_BAD_NODE,       /* node id out of range */
  MG_RULE_BAD_ITEM,       /* item id out of range */
  MG_RULE_BUS_CONFLICT,   /* two senders on one bus in a step */
  MG_RULE_BUS_TOO_LONG,   /* a bus message over ell items */
  MG_RULE_NOT_BUS,        /* bus transfer on a non-bus machine or vice versa */
  MG_RULE_SELECTOR,       /* a selector the problem/schedule cannot serve */
} mg_rule;
const char *mg_rule_name(mg_rule r);

typedef struct mg_violation {
  mg_rule rule;
  int64_t round;    /* -1 if not round-specific */
  int64_t xfer[2];  /* transfer indices in the round, -1 if n/a */
  int64_t node;     /* node, -1 if n/a */
  int64_t arc_node; /* arc as (node, dim, dir), node -1 if n/a */
  int arc_dim, arc_dir;
  int64_t item; /* item id, -1 if n/a */
  char msg[MG_ERR_LEN];
} mg_violation;

typedef struct mg_report {
  int verified;
  mg_violation violation;
  int64_t rounds;   /* rounds seen, including empty ones */
  int64_t startups; /* rounds with at least one transfer */
  uint64_t transfers;
  double cost;
  double cost_startup, cost_hop, cost_transfer; /* terms of the cost */
  double bytes_moved;
  double max_arc_load;   /* bytes on the busiest arc in any round */
  uint64_t sum_max_hops; /* sum over rounds of the longest route (g_delta) */
  double sum_max_items;  /* sum over rounds of the largest message in items */
  double lower_bound, ratio_to_bound;
  double wall_s;
  uint64_t peak_rss_bytes;
  double *round_costs; /* owned; one per round */
  size_t n_round_costs;
  /* the round-by-round (barrier) clock's time, the sum of round_costs;
   * equals cost under timing=sync. Under timing=async, cost is the last
   * finish of the asynchronous clock (ranks: of the ranks' clock) and the
   * cost terms stay the synchronous ones. */
  double cost_sync;
  /* the schedule's own parameters, as its generator began it: where an
   * algorithm makes choices by itself it may spell them here (dimwise's
   * automatic phases), so a run can be repeated by name; empty when the
   * report comes from elsewhere */
  mg_params params;
} mg_report;

void mg_report_free(mg_report *rep);

/* Called once per transfer with the items it carried (resolved against
 * the state at the round's start). For gossip, items are given as a
 * bitset over item ids (words, nwords); for exchange as a list of block
 * ids. Exactly one of bits / list is non-NULL. */
typedef struct mg_resolved {
  int64_t round;
  size_t index;
  const mg_transfer *tr;
  const mg_seg *route; /* the route actually walked (default resolved) */
  int nseg;
  const uint64_t *bits;
  size_t nwords;
  const uint64_t *list;
  size_t nlist;
  uint64_t nitems;
} mg_resolved;
typedef mg_status (*mg_resolved_fn)(void *arg, const mg_resolved *res, mg_err *err);

struct mg_shard;
typedef struct mg_sim_opts {
  uint64_t mem_limit;         /* bytes; 0 = 3/4 of physical memory */
  int keep_round_costs;       /* fill report.round_costs */
  mg_resolved_fn on_resolved; /* optional hook (exporter, MPI planner) */
  void *on_resolved_arg;
  void (*progress)(void *arg, int64_t round, int64_t total);
  void *progress_arg;
  /* NULL: the whole item state. Else one shard of it (meshgossip_shard.h):
   * timing=sync only, and on_resolved sees the summed item counts with
   * bits and list NULL. */
  const struct mg_shard *shard;
  /* optional: the steps of a long call, announced before each one starts.
   * mg_compare: each algorithm (what = its name, done of total algorithms
   * of the problem), and in a tuned one each candidate as the same step
   * (what = "name (candidate k/K: name:k=v,...)"); mg_tune: each candidate ("name:k=v,..." of total);
   * mg_run outside those two (a table's cells): what = "name:k=v,...",
   * done = total = -1. Calls nested in a compare or a tune are not
   * announced. The library never prints: a CLI shows these. NULL: none. */
  void (*on_step)(void *arg, const char *what, int64_t done, int64_t total);
  void *on_step_arg;
} mg_sim_opts;

typedef struct mg_sim mg_sim;

/* Memory the simulator state needs for a schedule (bytes); sets
 * MG_ERR_TOO_LARGE on overflow. */
mg_status mg_sim_state_bytes(const mg_schedule_info *info, uint64_t *bytes, mg_err *err);

/* Creates a simulator. The sink it exposes can be handed to a generator.
 * On violation the sink's round callback returns MG_ERR_VIOLATION and the
 * report holds the violation. */
mg_status mg_sim_create(const mg_sim_opts *opts, mg_sim **out, mg_err *err);
mg_sink mg_sim_sink(mg_sim *s);
/* Final report: owned by the simulator until mg_sim_take_report. */
const mg_report *mg_sim_report(const mg_sim *s);
void mg_sim_take_report(mg_sim *s, mg_report *out);
void mg_sim_destroy(mg_sim *s);

/* Gossip query for tests: does node hold item? Between rounds, after the
 * rounds so far. During a round (from on_resolved) deliveries that no later
 * transfer of the round can select may already show: the simulator writes
 * those at once (src/sim/sim_gossip.c); the rest land at the round's end. */
int mg_sim_holds(const mg_sim *s, uint32_t node, uint64_t item);

/* ------------------------------------------------------------------ */
/* The driver: generator -> taps -> simulator                           */
/* ------------------------------------------------------------------ */

/* A tap is a sink decorator that observes the stream the simulator
 * verifies: the schedule's info, each round before and after the
 * simulator checked and priced it, each transfer with its items resolved,
 * and the final report. The exporters (schedule files) and the MPI planner
 * are taps. Every callback is optional (NULL); one that returns an error
 * stops the run with that error. */
typedef struct mg_tap {
  mg_status (*begin)(void *ctx, const mg_schedule_info *info, mg_err *err);
  mg_status (*round_begin)(void *ctx, const mg_round *r, mg_err *err);
  mg_status (*resolved)(void *ctx, const mg_resolved *res, mg_err *err);
  /* only after a round that verified */
  mg_status (*round_end)(void *ctx, const mg_round *r, const mg_report *so_far, mg_err *err);
  /* Called exactly once per run, whatever happened, with the run's
   * status so far (MG_OK: verified and complete) and the final report;
   * where the tap owns a resource (a file) it commits or discards it here. */
  mg_status (*end)(void *ctx, mg_status st, const mg_report *rep, mg_err *err);
  void *ctx;
} mg_tap;

/* A schedule's source: streams begin, rounds, end into the sink. */
typedef mg_status (*mg_generator_fn)(void *arg, mg_sink *sink, mg_err *err);

/* The one driver: runs gen through the taps (in order) into the
 * simulator, and fills rep (also on a violation, which returns
 * MG_ERR_VIOLATION) with the lower bound and the ratio to it when the
 * schedule verified. opts->on_resolved, if set, is called after the taps'
 * resolved callbacks. Every tap's end is called once, whatever happened. */
mg_status mg_drive(mg_generator_fn gen, void *gen_arg, mg_tap *taps, size_t ntaps, const mg_sim_opts *opts,
                   mg_report *rep, mg_err *err);

/* ------------------------------------------------------------------ */
/* Algorithms                                                           */
/* ------------------------------------------------------------------ */

typedef struct mg_problem_spec {
  mg_problem problem;
  mg_topo topo;
  mg_model model;
  double bytes;
} mg_problem_spec;

typedef struct mg_param_desc {
  const char *name;
  const char *def; /* default value, or "auto" */
  const char *doc;
} mg_param_desc;

typedef struct mg_algo {
  const char *name;
  mg_problem problem;
  const char *summary;
  const char *paper;           /* seed and section */
  const char *restrictions;    /* human-readable */
  const char *rounding;        /* how non-ideal sizes are handled */
  const mg_param_desc *params; /* NULL-terminated by name == NULL */
  /* 1: the schedule is not contention-free (e.g. the MPI libraries'
   * algorithms); it is meant to be priced under contention=shared and is
   * rejected under strict. */
  int needs_shared;
  /* 1: runs on mesh-bus computers (meshbus:N, switching=bus) only; 0: on
   * rings, lines, tori and meshes only. mg_algo_check refuses the other
   * kind of machine, for every algorithm. */
  int on_bus;
  /* Refuses with a one-line reason (NULL: no restriction beyond the
   * registry's) (MG_ERR_UNSUPPORTED) or returns MG_OK. */
  mg_status (*check)(const mg_problem_spec *pb, const mg_params *ps, mg_err *err);
  /* Streams the schedule into the sink. */
  mg_status (*generate)(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err);
  /* Closed-form cost under pb->model, or MG_ERR_UNSUPPORTED if none. */
  mg_status (*closed_form)(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err);
  /* Parameter sets `tune` searches (NULL: nothing to tune). Calls visit for
   * each candidate; stops early if visit returns an error. */
  mg_status (*candidates)(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                          mg_err *err);
} mg_algo;

size_t mg_algo_count(void);
const mg_algo *mg_algo_at(size_t i);
const mg_algo *mg_algo_find(const char *name);
/* Parses "NAME[:k=v,...]" and checks that every k is a declared parameter. */
mg_status mg_algo_lookup(const char *spec, const mg_algo **algo, mg_params *ps, mg_err *err);
/* Registry-level check: parameters declared, then the algorithm's check. */
mg_status mg_algo_check(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, mg_err *err);

/* mg_drive with a registered algorithm as the generator, after the
 * registry's check (a refusal returns MG_ERR_UNSUPPORTED/INVALID; the taps'
 * end is still called). ps may be NULL (defaults). */
mg_status mg_drive_algo(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, mg_tap *taps, size_t ntaps,
                        const mg_sim_opts *opts, mg_report *rep, mg_err *err);

/* Generates and simulates in one call. rep is filled in every case that
 * reaches the simulator (including violations, which return
 * MG_ERR_VIOLATION). Adds the lower bound and ratio. */
mg_status mg_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                 mg_report *rep, mg_err *err);

/* Searches the algorithm's candidate parameters for the least verified
 * cost. best/runner_up get the parameters and reports (runner_up->verified
 * is 0 if there was only one candidate); *evaluated the number of verified
 * candidates. MG_ERR_UNSUPPORTED if the algorithm has no candidates or
 * none verifies. */
mg_status mg_tune(const mg_algo *a, const mg_problem_spec *pb, const mg_sim_opts *opts, mg_params *best,
                  mg_report *best_rep, mg_params *runner_up, mg_report *runner_rep, size_t *evaluated, mg_err *err);
/* mg_tune with some parameters held: only the candidates that agree with
 * every parameter of `fixed` they set, each with the others of `fixed`
 * added (e.g. "circgos:a=3" tunes b and skip at a = 3). fixed NULL or
 * empty: mg_tune. MG_ERR_UNSUPPORTED if no such candidate verifies. */
mg_status mg_tune_with(const mg_algo *a, const mg_problem_spec *pb, const mg_params *fixed, const mg_sim_opts *opts,
                       mg_params *best, mg_report *best_rep, mg_params *runner_up, mg_report *runner_rep,
                       size_t *evaluated, mg_err *err);

/* One line of `compare`: an algorithm run with its default (or tuned)
 * parameters, or refused with a reason. */
typedef struct mg_compare_row {
  const mg_algo *algo;
  mg_params params;
  int refused; /* 1: not applicable, see reason */
  char reason[MG_ERR_LEN];
  mg_report rep; /* valid when !refused; round_costs not kept */
} mg_compare_row;

/* Runs every registered algorithm of pb->problem that applies (tunable
 * ones with `tune` when tune != 0) and sorts the rows by cost: verified
 * rows first, then unverified, then refused. *rows is malloc'ed; free with
 * free(). */
mg_status mg_compare(const mg_problem_spec *pb, const mg_sim_opts *opts, int tune, mg_compare_row **rows, size_t *nrows,
                     mg_err *err);

/* Selection as a pure function of the cost model: runs mg_compare (every
 * registered algorithm of pb->problem, tunable ones tuned, each verified
 * by the simulator under pb->model) and returns the one with the least
 * verified cost in *algo with its parameters in *ps. *verified (optional)
 * gets the number of algorithms that verified, *cost (optional) the
 * pick's cost. MG_ERR_UNSUPPORTED if none verifies; MG_ERR_NOMEM on
 * allocation failure. Nothing is allocated for the caller. */
mg_status mg_algo_auto(const mg_problem_spec *pb, const mg_sim_opts *opts, const mg_algo **algo, mg_params *ps,
                       size_t *verified, double *cost, mg_err *err);

/* What `auto` chose and what came second. */
typedef struct mg_auto_choice {
  const mg_algo *algo;      /* the pick */
  mg_params params;         /* its parameters as resolved (tuned) */
  double cost;              /* its verified cost under the model's clock */
  const mg_algo *runner_up; /* the next verified algorithm, NULL if none */
  mg_params runner_up_params;
  double runner_up_cost;
  size_t verified; /* algorithms that verified */
} mg_auto_choice;

/* mg_algo_auto with the runner-up: the same selection, into *out. */
mg_status mg_algo_auto_choice(const mg_problem_spec *pb, const mg_sim_opts *opts, mg_auto_choice *out, mg_err *err);

/* ------------------------------------------------------------------ */
/* Tables of the seed papers                                            */
/* ------------------------------------------------------------------ */

/* One cell: the paper's value beside our closed form and our simulated,
 * verified figure. NaN marks a figure that does not exist for the cell. */
typedef struct mg_table_cell {
  char row[48];
  char col[48];
  char algorithm[32];
  double paper, closed_form, simulated;
  mg_params params;
  char note[200];
} mg_table_cell;

typedef struct mg_table {
  mg_table_cell *cells;
  size_t n, cap;
} mg_table;

typedef struct mg_table_desc {
  const char *name;  /* e.g. "juurlink-t1" */
  const char *title; /* what it reproduces */
  const char *unit;  /* of the paper / closed form / simulated values; "a | b" when col says which */
  mg_status (*build)(mg_table *out, const mg_sim_opts *opts, mg_err *err);
} mg_table_desc;

size_t mg_table_count(void);
const mg_table_desc *mg_table_at(size_t i);
const mg_table_desc *mg_table_find(const char *name);
/* Appends a cell (copied); MG_ERR_NOMEM on failure. */
mg_status mg_table_add(mg_table *t, const mg_table_cell *c, mg_err *err);
/* A cell with every figure NaN and empty strings. */
mg_table_cell mg_table_cell_empty(void);
void mg_table_free(mg_table *t);

/* ------------------------------------------------------------------ */
/* Lower bounds                                                         */
/* ------------------------------------------------------------------ */

#define MG_MAX_BOUND_TERMS 12
typedef struct mg_bound_term {
  char name[48];
  double value;
  char source[64];
  int valid; /* 0: the paper's term that is not a valid bound here */
  char note[96];
} mg_bound_term;

typedef struct mg_bound {
  double lower_bound; /* max over valid terms */
  int n;
  mg_bound_term term[MG_MAX_BOUND_TERMS];
} mg_bound;

mg_status mg_lower_bound(const mg_problem_spec *pb, mg_bound *b, mg_err *err);

/* ------------------------------------------------------------------ */
/* Schedule files                                                       */
/* ------------------------------------------------------------------ */

/* The schedule file's tap: writes the schedule (items explicit, the
 * routes walked, the simulator's report) to a temporary file beside path;
 * its end renames the file into place when the run verified and removes
 * it otherwise, so no partial file is ever left. Hand it to mg_drive (its
 * end also frees the tap's state). MG_ERR_IO if the file cannot be made. */
mg_status mg_export_json_tap(const char *path, mg_tap *tap, mg_err *err);

/* Other tools' formats, each a tap like the JSON one (written at the end,
 * atomically, only when the schedule verified; path "-" is stdout).
 * MSCCL's XML algorithm (one threadblock per peer channel, a send step
 * depends on the receive steps that delivered what it carries) and
 * LogGOPSim's GOAL (per-rank send/recv, `requires` the same dependencies).
 * Point-to-point schedules only (MG_ERR_UNSUPPORTED on a mesh-bus). */
mg_status mg_export_msccl_tap(const char *path, mg_tap *tap, mg_err *err);
mg_status mg_export_goal_tap(const char *path, mg_tap *tap, mg_err *err);

typedef enum mg_export_format { MG_FORMAT_JSON = 0, MG_FORMAT_MSCCL, MG_FORMAT_GOAL } mg_export_format;
/* "json", "msccl" or "goal" (MG_ERR_INVALID otherwise). */
mg_status mg_export_format_parse(const char *name, mg_export_format *f, mg_err *err);
/* The format a path's extension names: .xml MSCCL, .goal GOAL, anything
 * else (.json, "-") JSON. */
mg_export_format mg_export_format_of_path(const char *path);
/* The tap of a format. */
mg_status mg_export_tap(mg_export_format format, const char *path, mg_tap *tap, mg_err *err);
/* mg_export in a given format. */
mg_status mg_export_as(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const char *path,
                       mg_export_format format, const mg_sim_opts *opts, mg_report *rep, mg_err *err);

/* Runs the generator through the simulator and writes the schedule file
 * (items explicit) to path atomically: on any failure no file is left. */
mg_status mg_export(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const char *path,
                    const mg_sim_opts *opts, mg_report *rep, mg_err *err);

/* Reads a schedule file and replays it through the simulator. Returns
 * MG_ERR_INVALID / MG_ERR_IO for a malformed file, MG_ERR_VIOLATION when
 * the schedule breaks a rule (rep says which). If the file has a report
 * whose figures disagree with ours, *disagree gets a one-line note. */
mg_status mg_verify_file(const char *path, const mg_sim_opts *opts, mg_report *rep, mg_schedule_info *info,
                         char *disagree, size_t disagree_len, mg_err *err);
/* The same for a schedule document held in memory (len bytes, need not
 * be NUL-terminated). */
mg_status mg_verify_buffer(const char *data, size_t len, const mg_sim_opts *opts, mg_report *rep,
                           mg_schedule_info *info, char *disagree, size_t disagree_len, mg_err *err);

/* Reads an MSCCL XML algorithm (allgather: gossip, alltoall: exchange)
 * for the machine in pb (topology, model, bytes; pb->problem is ignored),
 * derives its rounds from the dependencies and replays them through the
 * simulator (src/schedule/import_msccl.c states the rules). MG_ERR_INVALID
 * for malformed XML, an unpaired send, a bad peer, a cycle;
 * MG_ERR_UNSUPPORTED for another collective or a reduction;
 * MG_ERR_VIOLATION when it is wrong for the machine (rep says why). path
 * NULL: the len bytes at data. */
mg_status mg_verify_msccl(const char *path, const char *data, size_t len, const mg_problem_spec *pb,
                          const mg_sim_opts *opts, mg_report *rep, mg_schedule_info *info, mg_err *err);

/* Peak resident set size of this process (bytes). */
uint64_t mg_peak_rss(void);
double mg_now(void);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

/* Shared by the algorithm files: the registry's descriptors and small
 * helpers for emitting rounds into a sink. */
#ifndef MG_ALGO_INTERNAL_H
#define MG_ALGO_INTERNAL_H

#include "../util/internal.h"
#include "../analytic/delmas.h"

/* Every algorithm file defines one or more descriptors. */
extern const mg_algo mg_algo_ring;
extern const mg_algo mg_algo_concentrate;
extern const mg_algo mg_algo_circgos;
extern const mg_algo mg_algo_weave;
extern const mg_algo mg_algo_dimwise;
extern const mg_algo mg_algo_dimwise_colored;
extern const mg_algo mg_algo_torgos;
extern const mg_algo mg_algo_cubgos;
extern const mg_algo mg_algo_exchange_ring;
extern const mg_algo mg_algo_exchange_dimwise;
extern const mg_algo mg_algo_exchange_partitioned;
extern const mg_algo mg_algo_lee3d;
extern const mg_algo mg_algo_lee3d_long;
extern const mg_algo mg_algo_bus_simple;
extern const mg_algo mg_algo_bus_simple_refined;
extern const mg_algo mg_algo_bus_partition;
extern const mg_algo mg_algo_bus_partition_theta;
extern const mg_algo mg_algo_bus_centralize;
extern const mg_algo mg_algo_mpi_allgather_ring;
extern const mg_algo mg_algo_mpi_allgather_rd;
extern const mg_algo mg_algo_mpi_allgather_bruck;
extern const mg_algo mg_algo_mpi_allgather_neighbor;
extern const mg_algo mg_algo_mpi_allgather_direct;
extern const mg_algo mg_algo_mpi_alltoall_pairwise;
extern const mg_algo mg_algo_mpi_alltoall_bruck;
extern const mg_algo mg_algo_mpi_alltoall_direct;
extern const mg_algo mg_algo_mpi_alltoall_ring;
/* src/algo/gossip/ */
extern const mg_algo mg_algo_multiring;
extern const mg_algo mg_algo_greedy_links;
extern const mg_algo mg_algo_torus_doubling;
extern const mg_algo mg_algo_torus_swing;
extern const mg_algo mg_algo_exchange_swing;
extern const mg_algo mg_algo_exchange_ternary;
extern const mg_algo mg_algo_exchange_digits;
extern const mg_algo mg_algo_torus_ternary;
extern const mg_algo mg_algo_torus_digits;
extern const mg_algo mg_algo_torus_quadrupling;
extern const mg_algo mg_algo_torus_tiling;
/* src/algo/exchange/ (issue 16) */
extern const mg_algo mg_algo_exchange_lines;
extern const mg_algo mg_algo_exchange_allport;
extern const mg_algo mg_algo_exchange_relay;
extern const mg_algo mg_algo_exchange_hops;
extern const mg_algo mg_algo_exchange_slots;
extern const mg_algo mg_algo_exchange_moves;

/* exchange_lines.c: the direct dimension-ordered exchange along lines,
 * with `classes` block classes on rotated dimension orders (1: one stage
 * per dimension; d: all stages at once, exchange-allport). */
mg_status mg_xlines_check(const mg_problem_spec *pb, const char *name, mg_err *err);
/* The "order" parameter: 0 plain, 1 far (default), 2 near. */
mg_status mg_xlines_order(const mg_params *ps, int *order, mg_err *err);
mg_status mg_xlines_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, const char *name,
                             int classes, mg_err *err);
/* Messages on the busiest arc of a line along k when every node sends to
 * every other; longest route along k; worst start-ups for msgs messages. */
double mg_xlines_arc_messages(const mg_topo *t, int k);
double mg_xlines_hops(const mg_topo *t, int k);
double mg_xlines_startups(const mg_topo *t, uint64_t msgs);

/* Emits rounds: begin, then rounds, then end; owns one reusable round. */
typedef struct mg_emit {
  mg_sink *sink;
  mg_round r;
} mg_emit;

mg_status mg_emit_begin(mg_emit *e, mg_sink *sink, const mg_problem_spec *pb, const char *algo, const mg_params *ps,
                        uint32_t pieces, uint32_t flags, int64_t rounds_hint, mg_err *err);
/* Adds a transfer to the current round. */
mg_status mg_emit_add(mg_emit *e, const mg_transfer *tr, mg_err *err);
/* Sends the current round (possibly empty) to the sink and starts a new one. */
mg_status mg_emit_round(mg_emit *e, mg_err *err);
mg_status mg_emit_end(mg_emit *e, mg_err *err);
void mg_emit_free(mg_emit *e);

/* mg_tune over the candidates keep accepts (NULL: all), e.g. those whose
 * schedules a lift can carry (dimwise.c). */
mg_status mg_tune_keep(const mg_algo *a, const mg_problem_spec *pb, const mg_sim_opts *opts,
                       int (*keep)(const mg_params *ps), mg_params *best, mg_report *best_rep, mg_params *runner_up,
                       mg_report *runner_rep, size_t *evaluated, mg_err *err);

/* The parameters the caller of mg_tune_with holds, for a candidate
 * generator that keeps only its best few by estimate: it must rank among
 * the candidates that agree with them, or a held value starves (circgos
 * kept its best 8 over every a, and `tune --algo circgos:a=3` on ring:27
 * tried one candidate, 113 where a = 3 gives 107). NULL when fn is not
 * tune's visitor. */
const mg_params *mg_tune_held(mg_status (*fn)(void *arg, const mg_params *ps), void *arg);
/* 1 when ps sets none of held's parameters to another value (held NULL: 1). */
int mg_params_agree(const mg_params *held, const mg_params *ps);

/* The value given for parameter name, or NULL when it is absent or "auto"
 * (every default is auto); ps may be NULL. */
const char *mg_param_given(const mg_params *ps, const char *name);

/* Integer parameter with default; refuses values outside [lo, hi]. */
mg_status mg_param_int(const mg_params *ps, const char *name, int64_t def, int64_t lo, int64_t hi, int64_t *out,
                       mg_err *err);

/* The generic check for one-dimensional algorithms on rings and lines. */
mg_status mg_check_1d_gossip(const mg_problem_spec *pb, const char *algo, mg_err *err);

/* Mesh-bus phases (bus_common.c): per bus, the messages it carries in
 * order; a message longer than ell tokens is cut into chunks of ell, one
 * step each. Step s of a phase carries on every bus its s-th chunk, so a
 * phase takes as many steps as its busiest bus has chunks. */
typedef struct mg_bus_msg {
  uint32_t src;
  size_t off, len; /* tokens tok[off .. off+len) */
} mg_bus_msg;

typedef struct mg_bus_phase {
  uint32_t n;
  uint64_t ell;   /* 0 = unbounded */
  mg_bus_msg **q; /* 2n queues: row buses 0..n-1, then columns */
  size_t *nq, *capq;
  uint64_t *tok; /* token (item) ids of all messages */
  size_t ntok, captok;
} mg_bus_phase;

mg_status mg_bus_phase_init(mg_bus_phase *ph, uint32_t n, uint64_t ell, mg_err *err);
/* Queues a message of len tokens from src on its row or column bus; an
 * empty message is dropped. */
mg_status mg_bus_phase_add(mg_bus_phase *ph, uint32_t src, mg_bus bus, const uint64_t *tok, size_t len, mg_err *err);
/* Steps the queued messages take. */
uint64_t mg_bus_phase_steps(const mg_bus_phase *ph);
/* Emits the queued messages as rounds and empties the queues. */
mg_status mg_bus_phase_emit(mg_bus_phase *ph, mg_emit *e, mg_err *err);
void mg_bus_phase_free(mg_bus_phase *ph);

/* The token sets of phase 1 of Fujita's algorithms: even[i*n ..] lists
 * the tokens of row i with i + j even by ascending column (they go on the
 * row bus in that order), odd[j*n ..] those of column j with i + j odd by
 * ascending row. Token (item) id of node (i, j) = j + n*i. */
typedef struct mg_bus_sets {
  uint64_t *even, *odd;
  uint32_t *neven, *nodd;
} mg_bus_sets;
mg_status mg_bus_sets_build(uint32_t n, mg_bus_sets *s, mg_err *err);
void mg_bus_sets_free(mg_bus_sets *s);

/* Floor log base 3 / whether n is a power of 3. */
int mg_is_pow(uint64_t n, uint64_t base, int *k);
/* Greatest common divisor (Euclid); mg_gcd(a, 0) = a. */
uint64_t mg_gcd(uint64_t a, uint64_t b);

/* The gather-scatter ring plan of Tseng, Ni, Sheu 1999 (gstree.c): rounds of ring
 * transfers whose blocks are chosen by destination position in cyclic runs. */
typedef struct mg_gs_run {
  uint32_t lo, len;
} mg_gs_run;
typedef struct mg_gs_xfer {
  uint32_t src; /* ring position of the sender */
  int32_t hops; /* signed: + tree forwards, - tree backwards */
  uint32_t run0, nruns;
  int sign; /* +1 positive tree, -1 negative tree */
} mg_gs_xfer;
typedef struct mg_gs_plan {
  uint32_t n;
  int split;       /* GP_0/SP_0 split of section 2.4 */
  uint32_t mirror; /* negative tree = positive tree through y = mirror - x */
  int levels;      /* L = max(ceil(lg n) - 1, 1): phases GP_0..GP_{L-1}, SP_{L-1}..SP_0 */
  mg_gs_xfer *x;
  size_t nx, capx;
  mg_gs_run *runs;
  size_t nrun, caprun;
  size_t *rstart; /* round r holds x[rstart[r] .. rstart[r+1]) */
  int *rphase;    /* phase index of each round (>= 2L: negative tree when not overlapped) */
  size_t nrounds, caprs, caprp;
  uint64_t *items; /* blocks each transfer carries on a plain ring */
} mg_gs_plan;
/* overlap 1: + and - trees in the same rounds (section 2.4); 0: the whole
 * positive tree, then the negative tree, with the original phases. */
mg_status mg_gs_plan_build(uint32_t n, int overlap, mg_gs_plan *out, mg_err *err);
void mg_gs_plan_free(mg_gs_plan *p);
/* who[v] = index of the transfer ring position v sends in round r, or -1. */
void mg_gs_senders(const mg_gs_plan *p, size_t r, int32_t *who);
/* The physical transfer of plan transfer k sent by `node` on a ring along
 * `axis` whose consecutive members are dil hops apart (a dilated logical
 * ring; the ring position is coordinate / dil): BOX on the destination's
 * coordinate along axis. */
mg_status mg_gs_transfer(const mg_topo *t, const mg_gs_plan *p, size_t k, uint32_t node, int axis, uint32_t dil,
                         mg_transfer *out, mg_err *err);
/* A group of nodes running one plan along one axis (dilation dil). */
typedef struct mg_gs_group {
  const mg_gs_plan *plan;
  int axis;
  uint32_t dil;
} mg_gs_group;
/* Emits the rounds of a stage in which every group runs its plan at once:
 * round r holds round r of every group's plan; group_of(coords) says which
 * group a node belongs to (NULL: all in group 0; -1: idle). */
mg_status mg_gs_emit_stage(mg_emit *e, const mg_topo *t, const mg_gs_group *g, int ngroups,
                           int (*group_of)(const uint32_t *x, void *arg), void *arg, mg_err *err);
/* Delmas, Perennes 1996 section 5.1.3: the dipath of u_j (j = 0..2) of round 2-a
 * (round_b = 0, M0 B1) or 2-b (round_b = 1, M0^2 B1); -u_j negates every
 * segment. */
const mg_seg *mg_lee3d_dipath(int round_b, int j, int *nseg);

#endif

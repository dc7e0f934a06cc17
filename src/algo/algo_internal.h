/* Shared by the algorithm files: the registry's descriptors and small
 * helpers for emitting rounds into a sink. */
#ifndef MG_ALGO_INTERNAL_H
#define MG_ALGO_INTERNAL_H

#include "../util/internal.h"

/* Every algorithm file defines one or more descriptors. */
extern const mg_algo mg_algo_ring;
extern const mg_algo mg_algo_concentrate;
extern const mg_algo mg_algo_bus_simple;
extern const mg_algo mg_algo_bus_simple_refined;
extern const mg_algo mg_algo_bus_partition;
extern const mg_algo mg_algo_bus_partition_theta;
extern const mg_algo mg_algo_bus_centralize;

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
  uint64_t ell;     /* 0 = unbounded */
  mg_bus_msg **q;   /* 2n queues: row buses 0..n-1, then columns */
  size_t *nq, *capq;
  uint64_t *tok;    /* token (item) ids of all messages */
  size_t ntok, captok;
} mg_bus_phase;

/* The generic check of the mesh-bus algorithms: gossip on meshbus:N. */
mg_status mg_bus_check(const mg_problem_spec *pb, const char *algo, mg_err *err);
mg_status mg_bus_phase_init(mg_bus_phase *ph, uint32_t n, uint64_t ell, mg_err *err);
/* Queues a message of len tokens from src on its row or column bus; an
 * empty message is dropped. */
mg_status mg_bus_phase_add(mg_bus_phase *ph, uint32_t src, mg_bus bus, const uint64_t *tok, size_t len, mg_err *err);
/* Steps the queued messages take. */
uint64_t mg_bus_phase_steps(const mg_bus_phase *ph);
/* Emits the queued messages as rounds and empties the queues. */
mg_status mg_bus_phase_emit(mg_bus_phase *ph, mg_emit *e, mg_err *err);
void mg_bus_phase_free(mg_bus_phase *ph);

/* The token sets of phase 1 of seed 003's algorithms: even[i*n ..] lists
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

#endif

/* Data dependencies of a schedule: for every transfer, the earlier
 * transfers that delivered to its sender the items it carries.
 *
 * A round-synchronous schedule fixes which items each transfer carries;
 * an asynchronous clock (a rank starts a send as soon as what it carries
 * has arrived, as in LogP-style analyses, Culler et al., "LogP: towards a
 * realistic model of parallel computation") only needs, per transfer, the
 * set of transfers it waits for. This module records that set while the
 * simulator resolves the schedule (mg_sim_opts.on_resolved), with no
 * dependency on any engine, so the SimGrid replay, the model's async
 * clock and the exporters (MSCCL, GOAL) share it.
 *
 * Rule. Transfer T from node s in round r depends on, for each item i it
 * carries and s did not own from the start, the transfer that delivered i
 * to s: for gossip the item's FIRST arrival at s (a copy that arrives again
 * later adds nothing), for exchange the last move of the block (blocks
 * move, so a block's latest mover is unique). Items a transfer carries were
 * held at the start of its round, so every dependency lies in an earlier
 * round and transfer ids (the order of the simulator's callbacks: round,
 * then index in the round) are a topological order.
 *
 * Memory: gossip keeps one 32-bit transfer id per (node, item), N*N*P*4
 * bytes; exchange one per block, N*N*4 bytes. mg_deps sizes this at the
 * schedule's begin and refuses (MG_ERR_TOO_LARGE) what exceeds its limit
 * before any round runs; the table is freed at the schedule's end. */
#ifndef MG_SCHEDULE_DEPS_H
#define MG_SCHEDULE_DEPS_H

#include "meshgossip.h"

#define MG_DEP_NONE UINT32_MAX

typedef struct mg_dep_xfer {
  int64_t round;
  uint32_t src;
  uint32_t dst;      /* MG_DEP_NONE for a bus transfer */
  uint32_t route_id; /* MG_DEP_NONE: the default dimension-order route */
  uint8_t bus;       /* mg_bus */
  uint64_t nitems;
  double bytes; /* exact bytes of the items carried */
  uint32_t hops;
} mg_dep_xfer;

typedef struct mg_deps mg_deps;

/* mem_limit: bytes the tables may take (0: 3/4 of physical memory).
 * *out is owned by the caller (mg_deps_destroy). */
mg_status mg_deps_create(uint64_t mem_limit, mg_deps **out, mg_err *err);
void mg_deps_destroy(mg_deps *d);

/* The recorder as a tap on the driver (mg_drive): its begin sizes and
 * checks the tables, every resolved transfer is recorded, its end frees
 * the per-item table. */
mg_tap mg_deps_tap(mg_deps *d);
/* The resolved callback alone (arg = the mg_deps); must see every
 * transfer in the simulator's order, after the tap's begin. */
mg_status mg_deps_on_resolved(void *arg, const mg_resolved *res, mg_err *err);

/* Like mg_run, recording into d. */
mg_status mg_deps_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                      mg_deps *d, mg_report *rep, mg_err *err);

/* Bytes the tables need for this schedule (MG_ERR_TOO_LARGE on overflow). */
mg_status mg_deps_table_bytes(const mg_schedule_info *info, uint64_t *bytes, mg_err *err);

/* Results, valid after the schedule ran. */
const mg_schedule_info *mg_deps_info(const mg_deps *d);
size_t mg_deps_count(const mg_deps *d);
const mg_dep_xfer *mg_deps_xfers(const mg_deps *d);
/* The transfers t waits for (ascending ids, each < t); *n gets the count. */
const uint32_t *mg_deps_of(const mg_deps *d, size_t t, size_t *n);
/* A non-default route (NULL if the transfer took the default one). */
const mg_seg *mg_deps_route(const mg_deps *d, size_t t, int *nseg);
/* Bytes held by the recorded schedule (transfers, dependency lists). */
uint64_t mg_deps_bytes(const mg_deps *d);

#endif

/* The dataflow of a verified schedule, for exporters to formats whose
 * operations carry dependencies (MSCCL's XML algorithms, LogGOPSim's GOAL):
 * which receive delivered each item to each node, so that a send can
 * depend on exactly the receives that delivered what it carries, and the
 * items of a resolved transfer as a sorted array. Internal to the library. */
#ifndef MG_DATAFLOW_H
#define MG_DATAFLOW_H

#include "../util/internal.h"

typedef struct mg_dataflow {
  mg_problem problem;
  uint32_t N;
  uint64_t nitems; /* items per node: gossip N*P, exchange N*N blocks */
  int64_t *by;     /* N * nitems: the receive (an exporter's id) that delivered it, -1 none */
  struct {
    uint64_t slot;
    int64_t id;
  } * pending; /* deliveries of the current round, applied at its end */
  size_t npending, cappending;
  uint64_t *items; /* scratch for mg_dataflow_items */
  size_t capitems;
  int64_t *deps; /* scratch for mg_dataflow_deps */
  size_t capdeps;
} mg_dataflow;

/* Refuses bus transfers (MG_ERR_UNSUPPORTED: the formats are point to
 * point) and instances whose table would exceed 2^25 entries
 * (MG_ERR_TOO_LARGE). */
mg_status mg_dataflow_init(mg_dataflow *d, const mg_schedule_info *info, const char *format, mg_err *err);
void mg_dataflow_free(mg_dataflow *d);
/* The items res carried, ascending, in d's scratch (valid until the next
 * call); *n their number. */
mg_status mg_dataflow_items(mg_dataflow *d, const mg_resolved *res, const uint64_t **items, size_t *n, mg_err *err);
/* The distinct receives (ascending ids) that delivered items[0..n) to
 * node before this round; ids in d's scratch, valid until the next call. */
mg_status mg_dataflow_deps(mg_dataflow *d, uint32_t node, const uint64_t *items, size_t n, const int64_t **deps,
                           size_t *ndeps, mg_err *err);
/* Records that receive `id` delivers item to node at the round's end. */
mg_status mg_dataflow_deliver(mg_dataflow *d, uint32_t node, uint64_t item, int64_t id, mg_err *err);
/* The round ended: gossip keeps an item's first delivery (a copy that
 * arrives again changes nothing), exchange its latest (a block moves). */
void mg_dataflow_commit(mg_dataflow *d);

#endif

/* The MPI planner: a verified schedule turned into one rank's plan. This
 * part needs no MPI (the executor in exec.c replays the plan). */
#ifndef MG_MPI_PLAN_H
#define MG_MPI_PLAN_H

#include "meshgossip.h"

/* Buffers a segment points into. */
enum {
  MG_REG_SEND = 0, /* exchange: the caller's blocks, block d at d*L */
  MG_REG_WORK = 1, /* the result: block of rank r at r*L */
  MG_REG_TEMP = 2, /* exchange: blocks in transit; gossip: duplicates */
};

typedef struct mg_pseg {
  uint32_t region;
  uint64_t off, len;
} mg_pseg;

/* One message: its peer rank, its size, and where its bytes live on this
 * rank, in message order. A message of several segments goes through the
 * staging buffer at `stage`. */
typedef struct mg_pmsg {
  int peer;
  uint64_t bytes;
  size_t seg0;
  size_t nseg;
  uint64_t stage;
  size_t dep0, ndep; /* dataflow plans, a send: the receives it waits for */
} mg_pmsg;

/* Round r: msgs[recv0 .. recv0+nrecv) are receives, then nsend sends. */
typedef struct mg_pround {
  int64_t index; /* the schedule's round (tags come from it) */
  size_t recv0, nrecv, nsend;
} mg_pround;

typedef struct mg_rank_plan {
  mg_problem problem;
  uint32_t N, me;
  uint32_t pieces;
  uint64_t L; /* gossip: bytes per rank; exchange: bytes per block */
  mg_pround *rounds;
  size_t nrounds, caprounds;
  mg_pmsg *msgs;
  size_t nmsgs, capmsgs;
  mg_pseg *segs;
  size_t nsegs, capsegs;
  uint64_t temp_bytes;  /* size of MG_REG_TEMP */
  uint64_t stage_bytes; /* staging buffer, the largest round's need */
  uint64_t sends;       /* messages sent over all rounds */
  int64_t sched_rounds; /* rounds of the schedule, empty ones included */
  int dataflow;         /* no buffer is written twice (stage, scratch and
                           transit slots are never reused), and every send
                           lists its receives in deps */
  size_t *deps;         /* message indices of receives */
  size_t ndeps, capdeps;
} mg_rank_plan;

/* Generates the schedule of algorithm a (parameters ps) for pb, verifies it
 * in the simulator (contention as in pb->model) and keeps node me's part.
 * rank_of_node[v] is the rank that plays node v (pb->topo.N entries);
 * pb->bytes is L. Bus transfers are refused (MG_ERR_UNSUPPORTED); a
 * schedule that does not verify gives MG_ERR_VIOLATION. On failure *out is
 * left empty. dataflow: a plan for the executor's sync=data (above). */
mg_status mg_plan_build(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, uint32_t me,
                        const int *rank_of_node, int dataflow, mg_rank_plan *out, mg_err *err);
void mg_plan_free(mg_rank_plan *p);

#endif

/* Reflected-pair doubling plans (swing_plan.c), shared by torus-swing
 * (gossip) and exchange-swing (complete exchange). */
#ifndef MG_SWING_PLAN_H
#define MG_SWING_PLAN_H

#include "../algo_internal.h"

#define MG_SWING_MAX_STEPS 32
#define MG_SWING_MAX_NODES 16384u

enum { MG_SWING_CHECKER, MG_SWING_AXIS };

/* Step s pairs node v with v + sigma(v) g[s]; rule names the sign. */
typedef struct mg_swing {
  int k, rule;
  int32_t g[MG_SWING_MAX_STEPS][MG_MAX_DIMS];
  uint32_t load[MG_SWING_MAX_STEPS]; /* busiest arc, the worse of both route rules */
  uint64_t weight;                   /* sum_s load_s 2^s */
} mg_swing;

/* Refuses (one line, naming algo) all but tori and rings with every side a
 * power of two and at most MG_SWING_MAX_NODES nodes. */
mg_status mg_swing_check_topo(const mg_topo *t, const char *algo, mg_err *err);
/* The plan of least weight found (deterministic). */
mg_status mg_swing_plan(const mg_topo *t, mg_swing *pl, mg_err *err);
uint32_t mg_swing_partner(const mg_topo *t, const mg_swing *pl, int s, uint32_t v);
/* Hops of step s's messages (all the same length). */
uint32_t mg_swing_len(const mg_topo *t, const mg_swing *pl, int s);
/* Messages on the busiest arc of every step on the routes of rule
 * routes (load[0..k)). */
mg_status mg_swing_route_loads(const mg_topo *t, mg_routes routes, const mg_swing *pl, uint32_t *load, mg_err *err);
/* The closed form under contention=shared (wormhole or circuit): sum_s
 * ts + |g_s|_1 td + load_s blocks_s b tl on the model's routes, with
 * blocks_s = 2^s (gossip: all the sender holds) or N/2 (exchange). */
mg_status mg_swing_price(const mg_problem_spec *pb, const char *algo, double *cost, mg_err *err);
/* reach[s * N + y] = 1 if offset y is in T_s: what node v informs from
 * step s + 1 on is v + sigma(v) T_s (T_(k-1) = {0}, T_s = T_(s+1) and
 * its image under g_(s+1)). reach has k * N bytes. */
void mg_swing_reach(const mg_topo *t, const mg_swing *pl, unsigned char *reach);
/* 1 if node w is among those that node p informs from step s + 1 on. */
int mg_swing_informs(const mg_topo *t, const mg_swing *pl, const unsigned char *reach, int s, uint32_t p, uint32_t w);

#endif

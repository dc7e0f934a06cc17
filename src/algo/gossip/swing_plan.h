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

/* Refuses (one line, naming algo) all but tori, rings, meshes and lines
 * with every side a power of two and at most MG_SWING_MAX_NODES nodes
 * (a mesh is planned as its torus twin). */
mg_status mg_swing_check_topo(const mg_topo *t, const char *algo, mg_err *err);
/* The plan of least weight found (deterministic); product: Swing's own
 * per-dimension sequences, interleaved, without the search. */
mg_status mg_swing_plan(const mg_topo *t, int product, mg_swing *pl, mg_err *err);
uint32_t mg_swing_partner(const mg_topo *t, const mg_swing *pl, int s, uint32_t v);
/* Hops of step s's messages (all the same length). */
uint32_t mg_swing_len(const mg_topo *t, const mg_swing *pl, int s);
/* Messages on the busiest arc of every step on the routes of rule
 * routes (load[0..k)). */
mg_status mg_swing_route_loads(const mg_topo *t, mg_routes routes, const mg_swing *pl, uint32_t *load, mg_err *err);
/* The closed form under contention=shared (wormhole or circuit): sum_s
 * ts + |g_s|_1 td + load_s blocks_s b tl on the model's routes, with
 * blocks_s = 2^s (gossip: all the sender holds) or N/2 (exchange);
 * merge=1 only. */
mg_status mg_swing_price(const mg_problem_spec *pb, const mg_params *ps, const char *algo, double *cost, mg_err *err);
/* tune's candidates, on either plan: merge 1, and merge 2 and 3 after 0, 1
 * or 2 single steps. */
mg_status mg_swing_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                              mg_err *err);
/* reach[s * N + y] = 1 if offset y is in T_s: what node v informs from
 * step s + 1 on is v + sigma(v) T_s (T_(k-1) = {0}, T_s = T_(s+1) and
 * its image under g_(s+1)). reach has k * N bytes. */
void mg_swing_reach(const mg_topo *t, const mg_swing *pl, unsigned char *reach);
/* 1 if node w is among those that node p informs from step s + 1 on. */
int mg_swing_informs(const mg_topo *t, const mg_swing *pl, const unsigned char *reach, int s, uint32_t p, uint32_t w);

/* Merged steps (Bruck et al.'s radix 2^m, TPDS 1997): steps [s0, s1) in
 * one round, each node sending straight to every node the plain steps
 * would carry its data to. From the parameters merge (steps per round,
 * 1..4; default 1), skip (leading steps left single; default 0) and
 * product (0/1: the plan): the plan and the round boundaries bound[0] = 0
 * < bound[1] < .. < bound[*rounds] = k. t NULL: only checks the
 * parameters. */
#define MG_SWING_MAX_MERGE 4
mg_status mg_swing_setup(const mg_topo *t, const mg_params *ps, mg_swing *pl, int *bound, int *rounds, mg_err *err);
/* The nodes v reaches through steps [s0, s1): v first, then its closure
 * under the partners; 2^(s1 - s0) of them. */
uint32_t mg_swing_group(const mg_topo *t, const mg_swing *pl, int s0, int s1, uint32_t v, uint32_t *members);
/* Where the block for w that v holds before step s0 is after step s1 - 1
 * (exchange: it moves to the partner when the partner informs w). */
uint32_t mg_swing_carry(const mg_topo *t, const mg_swing *pl, const unsigned char *reach, int s0, int s1, uint32_t v,
                        uint32_t w);

#endif

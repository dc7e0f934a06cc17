/* The digit plan behind exchange-digits (digit_plan.c): a factorization
 * of a torus of N = 3^k nodes, read as the group Z_n1 x .. x Z_nd, into k
 * digit sets {0, a_j, b_j} (every element one sum of one digit from each
 * set), searched for the least sum over the sets of their busiest arc
 * when every node sends to v + a_j and v + b_j on the network's shortest
 * routes. */
#ifndef MG_DIGIT_PLAN_H
#define MG_DIGIT_PLAN_H

#include "../algo_internal.h"

#define MG_DP_MAX_STEPS 10u /* 3^10 = 59049 nodes */
/* Above this many nodes the search is not run (it lists every pair of
 * elements, N^2 / 2 candidates): the balanced digits and the lift of the
 * quotient torus's plan compete. */
#define MG_DP_SEARCH_MAX_NODES 243u

typedef struct mg_digit_plan {
  int k;                              /* steps: N = 3^k */
  uint32_t N;                         /* nodes */
  uint32_t digit[MG_DP_MAX_STEPS][3]; /* node ids: digit[j][0] = 0 (the origin), then a_j, b_j */
  int load[MG_DP_MAX_STEPS];          /* messages on the busiest arc of step j (every node sending) */
  int hops[MG_DP_MAX_STEPS];          /* the longer of the step's two routes */
  uint8_t *index;                     /* index[delta * k + j]: which digit of step j delta has */
  uint32_t *prefix;                   /* prefix[j * N + delta]: sum of delta's digits of steps 0..j-1 */
} mg_digit_plan;

/* Every side a power of three (>= 3), N <= 3^MG_DP_MAX_STEPS, else a
 * one-line refusal (MG_ERR_UNSUPPORTED / MG_ERR_TOO_LARGE). */
mg_status mg_digit_plan_check(const mg_topo *t, const char *algo, mg_err *err);
/* search = 0: the balanced ternary digits {0, +3^l e_i, -3^l e_i} (exchange-ternary's steps,
 * level 0 of every axis first); search = 1: the best of the balanced digits, the search (up to
 * MG_DP_SEARCH_MAX_NODES nodes) and the lift of the quotient torus's plan. Deterministic. */
mg_status mg_digit_plan_build(const mg_topo *t, int search, mg_digit_plan *p, mg_err *err);
void mg_digit_plan_free(mg_digit_plan *p);
/* Group sum of two node ids (coordinate-wise mod n_i) and difference a - b. */
uint32_t mg_dp_add(const mg_topo *t, uint32_t a, uint32_t b);
uint32_t mg_dp_sub(const mg_topo *t, uint32_t a, uint32_t b);

#endif

/* The digit plan behind exchange-digits (digit_plan.c): a factorization
 * of a torus of N = r^k nodes (radix r = 3 or 4), read as the group
 * Z_n1 x .. x Z_nd, into k digit sets {0, d_1, .., d_(r-1)} (every
 * element one sum of one digit from each set), chosen for the least sum
 * over the sets of their busiest arc when every node sends to v + d on
 * SimGrid's routes (dimension order, the shorter way, ties as SimGrid's
 * torus breaks them: mg_route_network). */
#ifndef MG_DIGIT_PLAN_H
#define MG_DIGIT_PLAN_H

#include "../algo_internal.h"

#define MG_DP_MAX_STEPS 10u /* 3^10 = 59049, 4^8 = 65536 nodes */
#define MG_DP_MAX_RADIX 4u
#define MG_DP_MAX_NODES 65536u
/* Above these many nodes the search is not run (it lists every set of
 * r - 1 elements): the plain digits and the lift of the quotient
 * torus's plan compete. */
#define MG_DP_SEARCH_MAX_NODES3 243u
#define MG_DP_SEARCH_MAX_NODES4 64u

typedef struct mg_digit_plan {
  int r, k;                                         /* radix and steps: N = r^k */
  uint32_t N;                                       /* nodes */
  uint32_t digit[MG_DP_MAX_STEPS][MG_DP_MAX_RADIX]; /* node ids: digit[j][0] = 0 (the origin), then the r - 1 others */
  int load[MG_DP_MAX_STEPS];                        /* messages on the busiest arc of step j (every node sending) */
  int hops[MG_DP_MAX_STEPS];                        /* the longest route of step j */
  uint8_t *index;                                   /* index[delta * k + j]: which digit of step j delta has */
  uint32_t *prefix;                                 /* prefix[j * N + delta]: sum of delta's digits of steps 0..j-1 */
} mg_digit_plan;

/* r = 3: every side a power of three (>= 3); r = 4: every side a power of
 * two and N a power of four; N <= MG_DP_MAX_NODES. Else a one-line
 * refusal (MG_ERR_UNSUPPORTED / MG_ERR_TOO_LARGE / MG_ERR_INVALID for r). */
mg_status mg_digit_plan_check(const mg_topo *t, int r, const char *algo, mg_err *err);
/* search = 0: the plain digits (r = 3: the balanced digits {0, +3^l e_i,
 * -3^l e_i}, exchange-ternary's steps; r = 4: the binary digits {0, 2^l
 * e_i} taken two levels at a time); search = 1: the best of the plain
 * digits, the search (up to MG_DP_SEARCH_MAX_NODES3/4 nodes) and the lift
 * of the quotient torus's plan. Deterministic. */
mg_status mg_digit_plan_build(const mg_topo *t, int r, int search, mg_digit_plan *p, mg_err *err);
void mg_digit_plan_free(mg_digit_plan *p);
/* The parameters radix (0: 3 where every side is a power of three, else
 * 4) and search (default 1) of the algorithms on a digit plan. */
mg_status mg_digit_plan_params(const mg_topo *t, const mg_params *ps, int *radix, int *search, mg_err *err);
/* The checks of an algorithm on a digit plan (exchange-digits, torus-digits): its problem, no bus, all-port
 * (r - 1 messages a step), the parameters, the sides; one-line refusals naming it. */
mg_status mg_digit_plan_check_algo(const mg_problem_spec *pb, const mg_params *ps, const mg_algo *a, mg_err *err);
/* Those checks, then the plan of the parameters. closed_form = 1 also asks for what the algorithms'
 * closed forms need (contention=shared, not saf, on a torus) and sets *startups = ceil((r - 1) / 2d),
 * a node's start-ups a step one after the other. */
mg_status mg_digit_plan_for(const mg_problem_spec *pb, const mg_params *ps, const mg_algo *a, int closed_form,
                            mg_digit_plan *p, double *startups, mg_err *err);
/* Their descriptors (radix, search) and restrictions. */
extern const mg_param_desc mg_digit_plan_param_desc[];
#define MG_DP_RESTRICTIONS                                                                                             \
  "tori, rings, meshes and lines with every side a power of three (radix 3) or of two with a power of four nodes "     \
  "(radix 4), up to 65536 nodes (meshes: a digit that wraps walks the line the long way, the sets searched on those "  \
  "routes); all-port; shared arcs"
/* Group sum of two node ids (coordinate-wise mod n_i) and difference a - b. */
uint32_t mg_dp_add(const mg_topo *t, uint32_t a, uint32_t b);
uint32_t mg_dp_sub(const mg_topo *t, uint32_t a, uint32_t b);

#endif

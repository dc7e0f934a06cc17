/* The plan shared by torgos and cubgos (Juurlink, Rao, Sibeyn 1996 sections 5.2 and 6.2):
 * a segment of s nodes concentrated by threes into its diagonal point
 * (phase 1), and the per-round b_j, x_j of the multiplying rounds. */
#ifndef MG_DIAGONAL_H
#define MG_DIAGONAL_H

#include "meshemu.h"

#define MG_DG_MAX_ROUNDS 40

typedef struct mg_dg_move {
  int32_t from, to;
  uint32_t count; /* pieces the sender holds (segment nodes concentrated) */
} mg_dg_move;

typedef struct mg_dg_plan {
  uint32_t n[2]; /* extents */
  uint32_t s;    /* segment length n0/a */
  int t;         /* phase-4 rounds */
  uint32_t b[MG_DG_MAX_ROUNDS], x[MG_DG_MAX_ROUNDS];
  /* phase 1: concentration levels of one segment (offsets from the point) */
  int nlev;
  mg_dg_move *mv[MG_DG_MAX_ROUNDS];
  size_t nmv[MG_DG_MAX_ROUNDS];
} mg_dg_plan;

void mg_dg_plan_free(mg_dg_plan *p);
/* Phase 1: the concentration levels of one segment of p->s nodes. */
mg_status mg_dg_plan_conc(mg_dg_plan *p, mg_err *err);
/* The multiplying rounds from the parameters b and x (defaults 3 and
 * floor(b_j/2)): one b factors p->s greedily, the remainder being the last
 * round; a list b0/b1/... must multiply to p->s; x_j >= floor(b_j/2), and
 * its 2x_j - b_j + 2 parts must fit in nmin nodes. */
mg_status mg_dg_plan_rounds(mg_dg_plan *p, const mg_params *ps, const char *algo, uint32_t nmin, mg_err *err);
/* Parses "3" or "3/9/..." into at most MG_DG_MAX_ROUNDS values. */
mg_status mg_dg_parse_list(const char *v, const char *name, uint32_t *out, int *n, mg_err *err);

/* Phase 1, step t, priced: the largest hops*t_d + pieces*piece*t_l of its
 * moves (the step's t_s comes on top). */
double mg_dg_conc_step(const mg_dg_plan *p, uint32_t t, const mg_model *m, double piece);

/* The tuning search of torgos and cubgos: every a dividing n0 (and, if n1
 * is not 0, with n0/a dividing n1), every uniform b dividing s = n0/a with
 * every x from floor(b/2) to b + b/4 (for s = 1 only a), and for each a the
 * best rounds b_0/b_1/..., x_0/x_1/... chosen round by round (the recount
 * is a sum over the multiplying rounds, each depending on its own spacing,
 * b_j and x_j); price() recounts each candidate's cost (an error: not a
 * candidate); the `keep` cheapest distinct sets are visited in cost order. */
#define MG_DG_MAX_KEEP 8
typedef mg_status (*mg_dg_price_fn)(void *arg, const mg_params *ps, double *cost, mg_err *err);
mg_status mg_dg_candidates(uint32_t n0, uint32_t n1, int keep, mg_dg_price_fn price, void *parg,
                           mg_status (*visit)(void *arg, const mg_params *ps), void *varg, const char *algo,
                           mg_err *err);
/* The same, with every a also priced as {a, finish=F} for each F of the
 * NULL-terminated finishes (torgos: finishes that replace phase 4; an error
 * from price: not a candidate). */
mg_status mg_dg_candidates_with(uint32_t n0, uint32_t n1, int keep, mg_dg_price_fn price, void *parg,
                                const char *const *finishes, mg_status (*visit)(void *arg, const mg_params *ps),
                                void *varg, const char *algo, mg_err *err);

#endif

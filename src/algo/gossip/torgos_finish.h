/* TORGOS's finish from the spacing-9 diagonal in four rounds of 1, 1, 2 and 3
 * classes a message (torgos finish=period9; torgos_finish.c). */
#ifndef MG_TORGOS_FINISH_H
#define MG_TORGOS_FINISH_H

#include "../algo_internal.h"

#define MG_TF_ROUNDS 4
#define MG_TF_PERIOD 9

/* The predicate arguments of one schedule: a class set per (table message,
 * shift of its orbit), alive from mg_tf_begin to mg_tf_free. */
typedef struct mg_tf_state {
  struct mg_tf_sel *sel;
} mg_tf_state;

/* MG_OK if the finish applies: a 2D grid whose extents are multiples of 9,
 * after phases 1-3 at spacing s = 9. */
mg_status mg_tf_check(const mg_topo *t, uint32_t s, mg_err *err);
mg_status mg_tf_begin(mg_tf_state *f, const mg_topo *t, mg_err *err);
/* Adds round r (0..3) of the finish, every node of the torus, to e. */
mg_status mg_tf_emit(const mg_tf_state *f, const mg_topo *t, int r, mg_emit *e, mg_err *err);
void mg_tf_free(mg_tf_state *f);
/* Round r's largest hops * td + classes * class_bytes * tl (its t_s apart). */
double mg_tf_round_cost(int r, const mg_model *m, double class_bytes);

#endif

/* TORGOS's finish from the spacing-9 diagonal in four rounds of 1, 1, 2 and 3
 * classes a message (torgos finish=period9), and from two points a class in
 * three rounds of 2, 2 and 3 (finish=pair9; torgos_finish.c). */
#ifndef MG_TORGOS_FINISH_H
#define MG_TORGOS_FINISH_H

#include "../algo_internal.h"

#define MG_TF_PERIOD 9

/* The state a finish starts from: TORGOS's diagonal (W_c, B_c on (c, c)),
 * or torgos_pair.c's two points (both on (c, c) and (c + 4, c)). */
typedef enum mg_tf_kind { MG_TF_DIAGONAL = 0, MG_TF_PAIR = 1 } mg_tf_kind;

/* Rounds of the finish: 4 from the diagonal, 3 from the pair. */
int mg_tf_rounds(mg_tf_kind kind);

/* The predicate arguments of one schedule: a class set per (table message,
 * shift of its orbit), alive from mg_tf_begin to mg_tf_free. */
typedef struct mg_tf_state {
  struct mg_tf_sel *sel;
  mg_tf_kind kind;
} mg_tf_state;

/* MG_OK if the finish `name` applies: a 2D grid whose extents are multiples
 * of 9, with points at spacing s = 9. */
mg_status mg_tf_check(const mg_topo *t, uint32_t s, const char *name, mg_err *err);
mg_status mg_tf_begin(mg_tf_state *f, const mg_topo *t, mg_tf_kind kind, mg_err *err);
/* Adds round r (0 .. mg_tf_rounds - 1) of the finish, every node of the torus, to e. */
mg_status mg_tf_emit(const mg_tf_state *f, const mg_topo *t, int r, mg_emit *e, mg_err *err);
void mg_tf_free(mg_tf_state *f);
/* Round r's largest hops * td + classes * class_bytes * tl (its t_s apart). */
double mg_tf_round_cost(mg_tf_kind kind, int r, const mg_model *m, double class_bytes);

#endif

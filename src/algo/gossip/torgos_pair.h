/* torgos finish=pair9: a gossip in 2 + 2 floor(a/2) + 3 rounds on tori whose
 * extents are multiples of 9 (seven rounds on 27 x 27; torgos_pair.c). */
#ifndef MG_TORGOS_PAIR_H
#define MG_TORGOS_PAIR_H

#include "../algo_internal.h"

/* The class (0..8) of the origins whose coordinates are x0, x1 (mod 9). */
uint32_t mg_tp_class(uint32_t x0, uint32_t x1);
/* Rounds of the whole schedule on a torus whose extents are multiples of 9. */
int64_t mg_tp_rounds(const mg_topo *t);
/* Emits every round (the caller has begun e with 2 pieces and ends it). */
mg_status mg_tp_emit(const mg_topo *t, mg_emit *e, mg_err *err);
/* The recount of the torus schedule: every round t_s plus its largest
 * hops t_d + bytes t_l (bytes: one node's data, both pieces). */
double mg_tp_cost(const mg_topo *t, const mg_model *m, double bytes);

#endif

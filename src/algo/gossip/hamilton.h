/* Hamiltonian decompositions of tori (hamilton.c): the d-dimensional torus
 * with every side >= 3 is 2d-regular and splits into d edge-disjoint
 * Hamiltonian cycles (Kotzig for d = 2; Foregger, "Hamiltonian
 * decompositions of products of cycles", for d = 3; Alspach, Bermond and
 * Sotteau for products of cycles in general). */
#ifndef MG_GOSSIP_HAMILTON_H
#define MG_GOSSIP_HAMILTON_H

#include "../algo_internal.h"

typedef struct mg_hamdec {
  uint32_t N; /* nodes */
  int ncyc;   /* d cycles */
  /* seq[c*N + i]: the i-th node of cycle c (seq[c*N] = node 0);
   * dim[c*N + i], dir[c*N + i]: the arc from seq[i] to seq[i+1 mod N]. */
  uint32_t *seq;
  uint32_t *pos; /* pos[c*N + v]: index of node v in cycle c */
  int8_t *dim, *dir;
  uint64_t swaps; /* square swaps the construction made */
} mg_hamdec;

/* Builds a decomposition of torus t into t->d Hamiltonian cycles.
 * MG_ERR_UNSUPPORTED unless every dimension wraps and has side >= 3, or if
 * the construction stalls (it never did on the shapes tried, see
 * tests/test_multiring.c). */
mg_status mg_hamdec_build(const mg_topo *t, mg_hamdec *h, mg_err *err);
void mg_hamdec_free(mg_hamdec *h);

#endif

/* A datatype's description as bytes: two types with equal descriptions
 * lay out the same bytes, whatever their handles. The interposer keys its
 * plan cache on it, so that a derived type is planned once, not per call
 * (a handle may be freed and reused for another type; its description
 * tells them apart). */
#ifndef MG_TYPESIG_H
#define MG_TYPESIG_H

#include <mpi.h>
#include <stddef.h>

/* Longest description kept; a larger type is not cached. */
#define MG_TYPESIG_MAX 2048

/* Writes t's description into sig (at most MG_TYPESIG_MAX bytes) and its
 * length into *len: the combiner, integers and addresses of t and, in
 * order, of every type it is built from, down to predefined types (named
 * by handle: they are constants of the process). MPI_DATATYPE_NULL has an
 * empty description. 0 on success; -1 if the description is longer or
 * deeper than kept, or MPI cannot describe t. */
int mg_typesig(MPI_Datatype t, unsigned char *sig, size_t *len);

#endif

/* lift: reuse a one-dimensional gossip schedule along one axis of a d-D
 * grid, on every line of that axis at once, with bigger packets.
 *
 * A 1D algorithm (ring, concentrate, circgos, ...) generates a schedule for
 * a ring or line of n nodes in which node i starts with "its packet",
 * item i. Along axis f of a d-D torus or mesh, the node at position i of a
 * line starts a phase holding a packet too: the items whose origins lie in
 * a box (the axes already gossiped whole, axis f = {i}, the other axes = the
 * line's own coordinates), optionally restricted to one piece (a colour).
 * Lifting maps every 1D transfer i -> j onto every line of axis f:
 *   - src/dst: the line's base node + i (resp. j) * stride_f;
 *   - route:   segments along dimension 0 become segments along axis f (the
 *              default route stays default: it is the same shortest walk);
 *   - selector: "all held" stays (the sender holds nothing else of this
 *              gossip), ORIGIN_RANGE [lo, lo+len) and a 1D BOX become a BOX
 *              whose axis-f interval is [lo, lo+len) and whose other axes
 *              are the sender's packet box, a 1D COLOR w*x0 mod m becomes a
 *              COLOR with weight w on axis f, MINUS_DST stays, an ARRIVAL
 *              window is shifted by the phase's first round and dimension 0
 *              becomes axis f; the colour's run of pieces is added, and a
 *              1D PIECE j of P1 pieces a packet becomes the j-th P1-th of
 *              that run (the grid cuts every packet into a multiple of P1).
 *   Explicit item lists and predicates have no faithful image and are
 *   refused when the 1D schedule is recorded.
 * Because the held sets correspond exactly (1D item (i, j) <-> the packet
 * box of position i, the j-th part of the colour's pieces), the lifted phase is verified iff the 1D schedule is, and
 * its round costs are the 1D round costs with bytes scaled by the packet size.
 */
#ifndef MG_LIFT_H
#define MG_LIFT_H

#include "../algo_internal.h"

/* A recorded 1D schedule: its info and deep copies of its rounds. */
typedef struct mg_sched1d {
  mg_schedule_info info;
  mg_round *rounds;
  size_t n, cap;
} mg_sched1d;

/* Runs algorithm a on the 1D problem pb1 and records its rounds. Refuses
 * (MG_ERR_UNSUPPORTED) schedules the lift cannot translate. On error *out
 * is left empty. */
mg_status mg_sched1d_record(const mg_algo *a, const mg_problem_spec *pb1, const mg_params *ps, mg_sched1d *out,
                            mg_err *err);
void mg_sched1d_free(mg_sched1d *s);

/* The most pieces a 1D schedule may cut a packet into. */
#define MG_LIFT_MAX_PIECES 64u

typedef struct mg_lift {
  const mg_topo *topo;  /* the d-D grid */
  int axis;             /* axis f the 1D gossip runs along */
  uint32_t done_mask;   /* bit k: axis k already gossiped (whole in the box) */
  int use_piece;        /* restrict every transfer to the colour's pieces */
  uint32_t piece;       /* the colour's first piece of the grid's */
  uint32_t piece_count; /* its run of pieces: a multiple of pieces1d */
  uint32_t pieces1d;    /* P1: pieces a packet of the 1D schedule */
  int64_t round_offset; /* d-D index of the 1D schedule's round 0 */
} mg_lift;

/* Appends to e's current round the image of 1D round r1 on every line of
 * the axis. */
mg_status mg_lift_round(const mg_lift *L, const mg_round *r1, mg_emit *e, mg_err *err);

/* The 1D problem of one axis: ring:n or line:n with the same model and the
 * given packet bytes. */
mg_status mg_lift_problem(const mg_problem_spec *pb, int axis, double bytes, mg_problem_spec *pb1, mg_err *err);

#endif

/*
 * mpi-allgather-* — the allgather algorithms of the MPI libraries, as
 * schedules over ranks in row-major order (rank = node id, dimension 0
 * fastest), every transfer on the default dimension-order route. They are
 * what a user gets from MPI_Allgather on a torus or mesh machine, and the
 * baselines Juurlink, Rao, Sibeyn 1996 section 7 compares against (Intel's gcolx).
 *
 * p = number of nodes, L = bytes per node, h(r, s) = hops of the route
 * from rank r to rank s. One MPI step (a sendrecv) is one round. The
 * libraries' cost formulas assume a fully connected network; here several
 * transfers of a round may share an arc, which contention=strict rejects
 * (naming the round, both transfers and the arc) and contention=shared
 * prices by the busiest arc (docs/models.md).
 *
 * mpi-allgather-ring — MPICH allgather_intra_ring.c, Open MPI
 *   coll_base_allgather.c (ring), UCC tl/ucp allgather_ring: in step i
 *   (0 <= i < p-1) rank r sends the block of origin r-i to r+1.
 *   p-1 rounds. Cost (library): (p-1).alpha + n.((p-1)/p).beta.
 *   Closed form (every grid; the rank ring is contention-free under
 *   dimension order): (p-1) (t_s + h t_d + L t_l), h = max_r h(r, r+1).
 *   Trace, ring:4: round 0: 0->1 {0}, 1->2 {1}, 2->3 {2}, 3->0 {3};
 *   round 1: 0->1 {3}, 1->2 {0}, ...
 *
 * mpi-allgather-rd — recursive doubling, MPICH allgather (3.x)
 *   intra_recursive_doubling, Open MPI recursivedoubling: in the step of
 *   mask 2^i rank r exchanges everything it holds (its aligned subtree of
 *   2^i origins) with r XOR 2^i. p not a power of two: MPICH's handling
 *   (the tree-based "haves send to have-nots" recursive halving in the
 *   same file): when r XOR 2^i >= p, the c = p - R - 2^i ranks at the
 *   start of the lower subtree R that did get the upper data forward it
 *   inside the subtree by halving (sub-rounds of distance 2^(i-1), ..., 1,
 *   rank x sends to x + 2^j when x is among the first c of its
 *   2^(j+1)-subtree and x + 2^j is not). Open MPI instead falls back to
 *   Bruck for such p; mpi-allgather-bruck is that schedule.
 *   Rounds: lg p for p = 2^m, plus the halving sub-rounds otherwise.
 *   Cost (library, p = 2^m): lg p.alpha + n.((p-1)/p).beta.
 *   Closed form under contention=shared on ring:p, p = 2^m: the step of
 *   distance 2^i loads the busiest arc with 2^i transfers of 2^i L bytes:
 *   m t_s + (p-1) t_d + (p^2-1)/3 L t_l.
 *   Trace, ring:4: round 0: 0<->1, 2<->3 (1 block); round 1: 0<->2,
 *   1<->3 (2 blocks, 2 hops, both + arcs of the ring carry 2 messages).
 *
 * mpi-allgather-bruck — Bruck et al. (IEEE TPDS 1997); MPICH
 *   allgather_intra_brucks.c, Open MPI coll_base_allgather.c (bruck): in
 *   step k rank r sends its first c_k = min(2^k, p-2^k) blocks (origins
 *   r .. r+c_k-1) to r - 2^k. ceil(lg p) rounds, any p.
 *   Cost (library): ceil(lg p).alpha + n.((p-1)/p).beta.
 *   Closed form under contention=shared on ring:p (every route has
 *   d_k = min(2^k, p-2^k) = c_k hops, all the same way round, so every arc
 *   of that direction carries d_k messages of c_k L bytes):
 *   ceil(lg p) t_s + sum_k c_k t_d + sum_k c_k^2 L t_l.
 *   Trace, ring:5: round 0: r->r-1 {r}; round 1: r->r-2 {r,r+1};
 *   round 2: r->r-4 = r+1 {r} (c_2 = 1).
 *
 * mpi-allgather-neighbor — neighbor exchange (Chen et al. 2005), Open MPI
 *   coll_base_allgather.c (neighborexchange): even p only (Open MPI falls
 *   back to ring otherwise; we refuse). Step 0: ranks 2k and 2k+1 swap
 *   their blocks. Step i = 1 .. p/2-1: even ranks talk to r-1 on odd i
 *   and to r+1 on even i (odd ranks the other way), each forwarding the
 *   two blocks it received in the previous step. p/2 rounds.
 *   Cost: p/2.alpha + n.((p-1)/p).beta. Closed form on ring:p
 *   (contention-free): p/2 (t_s + t_d) + (p-1) L t_l.
 *   Trace, ring:6: round 0: 0<->1, 2<->3, 4<->5 (1 block);
 *   round 1: 0<->5, 2<->1, 4<->3 (2 blocks); round 2: 0<->1 ... (2 blocks).
 *
 * mpi-allgather-direct — every rank sends its block to every other rank
 *   at once (Open MPI's basic linear allgather posts all sends; MPICH's
 *   "scattered" alltoall pattern). 1 round, p(p-1) transfers.
 *   Cost (library): alpha + (p-1) n/p beta on a fully connected network.
 *   Closed form under contention=shared on ring:p (offsets 1..floor(p/2)
 *   go +, so the busiest + arc carries sum_{j<=floor(p/2)} j blocks):
 *   t_s + q t_d + q(q+1)/2 L t_l, q = floor(p/2).
 *   Trace, ring:4: round 0: 0->1 {0}, 0->2 {0}, 0->3 {0}, 1->2 {1}, ...;
 *   offsets 1 and 2 go +, 3 goes -, so the + arc 1->2 carries 1->2, 0->2
 *   and 1->3: load 3 = q(q+1)/2.
 *
 * Restrictions: grid topologies (rings, lines, tori, meshes of any
 * dimension and extents); not the mesh-bus. Rounding: none needed except
 * rd's halving for non-powers of two and neighbor's even p.
 */
#include "mpi_common.h"

#include <string.h>

static mg_status any_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return mg_mpi_grid_check(pb, MG_GOSSIP, "this MPI allgather", err);
}

static mg_status neighbor_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_grid_check(pb, MG_GOSSIP, "mpi-allgather-neighbor", err);
  if (st != MG_OK) return st;
  if (pb->topo.N % 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "mpi-allgather-neighbor needs an even number of ranks (Open MPI falls back to ring), not %u",
                   pb->topo.N);
  return MG_OK;
}

/* Transfer src->dst carrying the blocks of origins [lo, lo+len) mod p. */
static mg_transfer origins(uint32_t src, uint32_t dst, uint32_t lo, uint32_t len) {
  mg_transfer t = mg_xfer(src, dst);
  t.sel.flags = MG_SEL_ORIGIN_RANGE;
  t.sel.range_lo = lo;
  t.sel.range_len = len;
  return t;
}

static uint64_t hops(const mg_topo *t, uint32_t a, uint32_t b) {
  uint64_t h = 0;
  for (int k = 0; k < t->d; k++) {
    int64_t o = mg_topo_offset(t, k, a, b);
    h += (uint64_t)(o < 0 ? -o : o);
  }
  return h;
}

/* Longest route of the rank ring r -> r+1. */
static uint64_t ring_hops(const mg_topo *t) {
  uint64_t h = 0;
  for (uint32_t r = 0; r < t->N; r++) {
    uint64_t x = hops(t, r, (r + 1) % t->N);
    if (x > h) h = x;
  }
  return h;
}

static int log2_ceil(uint32_t p) {
  int k = 0;
  while (((uint64_t)1 << k) < p)
    k++;
  return k;
}

/* ---------------------------------------------------------------- ring */

static mg_status ring_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  mg_status st = mg_emit_begin(&e, sink, pb, "mpi-allgather-ring", ps, 1, 0, p - 1, err);
  for (uint32_t i = 0; st == MG_OK && i + 1 < p; i++) {
    for (uint32_t r = 0; r < p && st == MG_OK; r++) {
      mg_transfer tr = origins(r, (r + 1) % p, (r + p - i) % p, 1);
      st = mg_emit_add(&e, &tr, err);
    }
    if (st == MG_OK) st = mg_emit_round(&e, err);
  }
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status ring_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-allgather-ring", err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  double p = pb->topo.N;
  *cost = (p - 1) * (m->ts + (double)ring_hops(&pb->topo) * m->td + pb->bytes * m->tl);
  return MG_OK;
}

/* ------------------------------------------------------------------ rd */

static mg_status rd_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  mg_status st = mg_emit_begin(&e, sink, pb, "mpi-allgather-rd", ps, 1, 0, -1, err);
  for (uint64_t mask = 1; st == MG_OK && mask < p; mask <<= 1) {
    /* the pairwise exchange of whole subtrees */
    for (uint32_t r = 0; r < p && st == MG_OK; r++) {
      uint64_t dst = r ^ mask;
      if (dst < p) {
        mg_transfer tr = mg_xfer(r, (uint32_t)dst);
        st = mg_emit_add(&e, &tr, err);
      }
    }
    if (st == MG_OK) st = mg_emit_round(&e, err);
    /* the one lower subtree R whose partner subtree is cut by p: its first
     * c ranks got the upper origins [R+mask, p), the rest did not */
    uint64_t R = (uint64_t)p / (2 * mask) * (2 * mask);
    if (st != MG_OK || !(R + mask < p && p < R + 2 * mask)) continue;
    uint64_t c = p - R - mask;
    for (uint64_t half = mask >> 1; half >= 1 && st == MG_OK; half >>= 1) {
      size_t added = 0;
      for (uint64_t x = R; x < R + mask && st == MG_OK; x++) {
        uint64_t root = R + ((x - R) & ~(2 * half - 1)), dst = x ^ half;
        if (dst > x && x < root + c && dst >= root + c) {
          mg_transfer tr = origins((uint32_t)x, (uint32_t)dst, (uint32_t)(R + mask), (uint32_t)c);
          st = mg_emit_add(&e, &tr, err);
          added++;
        }
      }
      if (st == MG_OK && added) st = mg_emit_round(&e, err);
    }
  }
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status rd_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-allgather-rd", err);
  if (st != MG_OK) return st;
  int m;
  if (!mg_mpi_is_ring(&pb->topo) || !mg_is_pow(pb->topo.N, 2, &m))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-allgather-rd on ring:2^m only");
  const mg_model *md = &pb->model;
  double p = pb->topo.N;
  *cost = m * md->ts + (p - 1) * md->td + (p * p - 1) / 3 * pb->bytes * md->tl;
  return MG_OK;
}

/* --------------------------------------------------------------- bruck */

static mg_status bruck_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  mg_status st = mg_emit_begin(&e, sink, pb, "mpi-allgather-bruck", ps, 1, 0, log2_ceil(p), err);
  for (uint64_t pof2 = 1; st == MG_OK && pof2 < p; pof2 <<= 1) {
    uint32_t cnt = (uint32_t)(pof2 < p - pof2 ? pof2 : p - pof2);
    for (uint32_t r = 0; r < p && st == MG_OK; r++) {
      mg_transfer tr = origins(r, (uint32_t)((r + p - pof2) % p), r, cnt);
      st = mg_emit_add(&e, &tr, err);
    }
    if (st == MG_OK) st = mg_emit_round(&e, err);
  }
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status bruck_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-allgather-bruck", err);
  if (st != MG_OK) return st;
  if (!mg_mpi_is_ring(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-allgather-bruck on rings only");
  const mg_model *m = &pb->model;
  uint64_t p = pb->topo.N;
  double c = 0;
  for (uint64_t pof2 = 1; pof2 < p; pof2 <<= 1) {
    double ck = (double)(pof2 < p - pof2 ? pof2 : p - pof2);
    c += m->ts + ck * m->td + ck * ck * pb->bytes * m->tl;
  }
  *cost = c;
  return MG_OK;
}

/* ------------------------------------------------------------ neighbor */

static mg_status neighbor_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = MG_OK;
  /* last[r]: first origin of the pair r received in the previous step */
  uint32_t *last = mg_calloc(p, sizeof(uint32_t)), *next = mg_calloc(p, sizeof(uint32_t));
  if (!last || !next) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "mpi-allgather-neighbor", ps, 1, 0, p / 2, err));
  for (uint32_t r = 0; r < p; r++) {
    mg_transfer tr = origins(r, r ^ 1u, r, 1);
    MG_CHECK(mg_emit_add(&e, &tr, err));
    last[r] = r & ~1u;
  }
  MG_CHECK(mg_emit_round(&e, err));
  for (uint32_t i = 1; i < p / 2; i++) {
    for (uint32_t r = 0; r < p; r++) {
      /* even ranks go left on odd steps, right on even ones */
      int left = (r % 2 == 0) == (i % 2 == 1);
      uint32_t nb = left ? (r + p - 1) % p : (r + 1) % p;
      mg_transfer tr = origins(r, nb, last[r], 2);
      MG_CHECK(mg_emit_add(&e, &tr, err));
      next[nb] = last[r];
    }
    memcpy(last, next, (size_t)p * sizeof *last);
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(last);
  free(next);
  return st;
}

static mg_status neighbor_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-allgather-neighbor", err);
  if (st != MG_OK) return st;
  if (!mg_mpi_is_ring(&pb->topo) || pb->topo.N % 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-allgather-neighbor on even rings only");
  const mg_model *m = &pb->model;
  double p = pb->topo.N;
  *cost = p / 2 * (m->ts + m->td) + (p - 1) * pb->bytes * m->tl;
  return MG_OK;
}

/* -------------------------------------------------------------- direct */

static mg_status direct_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  mg_status st = any_check(pb, ps, err);
  if (st == MG_OK) st = mg_mpi_direct_size_check(pb, "mpi-allgather-direct", err);
  return st;
}

static mg_status direct_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  mg_status st = mg_emit_begin(&e, sink, pb, "mpi-allgather-direct", ps, 1, 0, 1, err);
  for (uint32_t r = 0; r < p && st == MG_OK; r++)
    for (uint32_t j = 1; j < p && st == MG_OK; j++) {
      mg_transfer tr = origins(r, (r + j) % p, r, 1);
      st = mg_emit_add(&e, &tr, err);
    }
  if (st == MG_OK) st = mg_emit_round(&e, err);
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status direct_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-allgather-direct", err);
  if (st != MG_OK) return st;
  if (!mg_mpi_is_ring(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-allgather-direct on rings only");
  *cost = mg_mpi_direct_ring_cost(pb);
  return MG_OK;
}

static const mg_param_desc no_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_mpi_allgather_ring = {
    .name = "mpi-allgather-ring",
    .problem = MG_GOSSIP,
    .summary = "MPI baseline: ring allgather, p-1 steps to the next rank (MPICH, Open MPI, UCC)",
    .paper = "MPICH allgather_intra_ring; Open MPI coll_base_allgather ring; UCC tl/ucp allgather_ring",
    .restrictions = "grid topologies, any p; ranks row-major, dimension-order routes",
    .rounding = "none needed",
    .params = no_params,
    .check = any_check,
    .generate = ring_generate,
    .closed_form = ring_closed_form,
};

const mg_algo mg_algo_mpi_allgather_rd = {
    .name = "mpi-allgather-rd",
    .problem = MG_GOSSIP,
    .summary = "MPI baseline: recursive doubling allgather (MPICH, Open MPI)",
    .paper = "MPICH allgather recursive doubling with its non-power-of-two halving; Open MPI recursivedoubling",
    .restrictions = "grid topologies, any p; ranks row-major, dimension-order routes",
    .rounding = "p not a power of two: MPICH's recursive halving inside the cut subtree (extra rounds)",
    .params = no_params,
    .needs_shared = 1,
    .check = any_check,
    .generate = rd_generate,
    .closed_form = rd_closed_form,
};

const mg_algo mg_algo_mpi_allgather_bruck = {
    .name = "mpi-allgather-bruck",
    .problem = MG_GOSSIP,
    .summary = "MPI baseline: Bruck allgather, ceil(lg p) steps to rank r-2^k (MPICH, Open MPI)",
    .paper = "Bruck et al. IEEE TPDS 1997; MPICH allgather_intra_brucks; Open MPI coll_base_allgather bruck",
    .restrictions = "grid topologies, any p; ranks row-major, dimension-order routes",
    .rounding = "last step sends p - 2^k blocks",
    .params = no_params,
    .needs_shared = 1,
    .check = any_check,
    .generate = bruck_generate,
    .closed_form = bruck_closed_form,
};

const mg_algo mg_algo_mpi_allgather_neighbor = {
    .name = "mpi-allgather-neighbor",
    .problem = MG_GOSSIP,
    .summary = "MPI baseline: neighbor exchange allgather, p/2 steps (Open MPI)",
    .paper = "Chen et al. 2005; Open MPI coll_base_allgather neighborexchange",
    .restrictions = "grid topologies with an even number of nodes",
    .rounding = "odd p refused (Open MPI falls back to ring)",
    .params = no_params,
    .needs_shared = 1,
    .check = neighbor_check,
    .generate = neighbor_generate,
    .closed_form = neighbor_closed_form,
};

const mg_algo mg_algo_mpi_allgather_direct = {
    .name = "mpi-allgather-direct",
    .problem = MG_GOSSIP,
    .summary = "MPI baseline: every rank sends its block to every other rank at once (linear)",
    .paper = "Open MPI basic linear allgather (all sends posted at once)",
    .restrictions = "grid topologies, p(p-1) <= 2^22; ranks row-major, dimension-order routes",
    .rounding = "none needed",
    .params = no_params,
    .needs_shared = 1,
    .check = direct_check,
    .generate = direct_generate,
    .closed_form = direct_closed_form,
};

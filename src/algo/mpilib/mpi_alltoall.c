/*
 * mpi-alltoall-* — the alltoall algorithms of the MPI libraries, as
 * complete-exchange schedules over ranks in row-major order (rank = node
 * id, dimension 0 fastest), every transfer on the default dimension-order
 * route. Blocks (s, t) of b bytes move: a forwarded block leaves its
 * holder. One MPI step (a sendrecv) is one round. As with the allgather
 * baselines (mpi_allgather.c), several transfers of a round may share an
 * arc: contention=strict rejects that, contention=shared prices it by the
 * busiest arc (docs/models.md).
 *
 * p = number of nodes, b = bytes per block.
 *
 * mpi-alltoall-pairwise — MPICH alltoall_intra_pairwise.c, Open MPI
 *   coll_base_alltoall.c (pairwise): in step i = 1 .. p-1 rank r sends
 *   block (r, dst) to dst and receives (src, r). pairs=xor: dst = src =
 *   r XOR i (MPICH, p a power of two); pairs=shift: dst = r+i, src = r-i
 *   (Open MPI always, MPICH otherwise). Default auto: xor for p = 2^m.
 *   p-1 rounds. Cost (library): (p-1).alpha + n.((p-1)/p).beta, n = p b.
 *   Closed form under contention=shared on ring:p with pairs=shift (every
 *   route of step i has d_i = min(i, p-i) hops the same way round, so
 *   every arc of that direction carries d_i blocks):
 *   (p-1) t_s + floor(p^2/4) (t_d + b t_l).
 *   Trace, ring:3 (shift): round 0: 0->1 {(0,1)}, 1->2 {(1,2)}, 2->0 {(2,0)};
 *   round 1: 0->2 {(0,2)}, 1->0 {(1,0)}, 2->1 {(2,1)}.
 *
 * mpi-alltoall-bruck — Bruck et al. (IEEE TPDS 1997); MPICH
 *   alltoall_intra_brucks.c, Open MPI coll_base_alltoall.c (bruck): the
 *   block for t held at u has index j = (t - u) mod p; in step k rank r
 *   sends to r + 2^k every block whose index has bit k set (which clears
 *   it). ceil(lg p) rounds, n_k = #{j < p : bit k of j} blocks per
 *   message. Cost (library): lg p.alpha + (n/2) lg p.beta.
 *   Closed form under contention=shared on ring:p (d_k = min(2^k, p-2^k)
 *   hops, every arc of that direction carries d_k messages):
 *   sum_k (t_s + d_k t_d + d_k n_k b t_l).
 *   Trace, ring:4: round 0: r->r+1 blocks for r+1, r+3 (n_0 = 2);
 *   round 1: r->r+2 blocks for r+2 and the one for r+3 received in round 0.
 *
 * mpi-alltoall-direct — all sends posted at once: Open MPI's
 *   basic linear alltoall (MPICH's "scattered" posts them in batches).
 *   1 round, p(p-1) transfers of one block. Closed form under
 *   contention=shared on ring:p: t_s + q t_d + q(q+1)/2 b t_l, q = floor(p/2).
 *   Trace, ring:3: round 0: 0->1 {(0,1)}, 0->2 {(0,2)}, 1->2 {(1,2)},
 *   1->0 {(1,0)}, 2->0 {(2,0)}, 2->1 {(2,1)} (all one hop).
 *
 * mpi-alltoall-ring — MPICH's ring alltoall (gentran/tsp
 *   alltoall_tsp_ring): p-1 steps, each rank passes its buffer to r+1 and
 *   keeps the blocks addressed to it. MPICH sends the whole buffer of p
 *   blocks every step; here a delivered block is not sent again (blocks
 *   move in the exchange IR), so step i carries the p-i blocks still
 *   travelling: a lower price than MPICH's p b per step. p-1 rounds.
 *   Closed form (every grid; the rank ring is contention-free):
 *   (p-1) (t_s + h t_d) + p(p-1)/2 b t_l, h = max_r h(r, r+1).
 *   Trace, ring:3: round 0: 0->1 {(0,1), (0,2)}, 1->2 {(1,2), (1,0)},
 *   2->0 {(2,0), (2,1)}; round 1: 0->1 {(2,1)}, 1->2 {(0,2)}, 2->0 {(1,0)}.
 *
 * Restrictions: grid topologies (rings, lines, tori, meshes of any
 * dimension and extents); not the mesh-bus.
 */
#include "mpi_common.h"

#include <string.h>

static mg_status any_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return mg_mpi_grid_check(pb, MG_EXCHANGE, "this MPI alltoall", err);
}

/* Transfer src->dst carrying every block src holds for destination t. */
static mg_transfer to_dest(const mg_topo *tp, uint32_t src, uint32_t dst, uint32_t t) {
  mg_transfer tr = mg_xfer(src, dst);
  uint32_t x[MG_MAX_DIMS];
  mg_topo_coords(tp, t, x);
  tr.sel.flags = MG_SEL_BOX;
  for (int k = 0; k < tp->d; k++) {
    tr.sel.box.lo[k] = x[k];
    tr.sel.box.len[k] = 1;
  }
  return tr;
}

/* Per-holder predicate context of Bruck: the holder u and the index bit
 * the blocks must have. */
typedef struct holder {
  uint32_t p, u;
  uint64_t bit;
} holder;

static int pred_bruck(uint64_t item, void *arg) {
  const holder *h = arg;
  uint32_t t = (uint32_t)(item % h->p);
  return (((uint64_t)t + h->p - h->u) % h->p & h->bit) != 0;
}

static uint64_t hops(const mg_topo *t, uint32_t a, uint32_t b) {
  uint64_t h = 0;
  for (int k = 0; k < t->d; k++) {
    int64_t o = mg_topo_offset(t, k, a, b);
    h += (uint64_t)(o < 0 ? -o : o);
  }
  return h;
}

static int log2_ceil(uint32_t p) {
  int k = 0;
  while (((uint64_t)1 << k) < p)
    k++;
  return k;
}

/* ------------------------------------------------------------ pairwise */

static mg_status pairs_mode(const mg_problem_spec *pb, const mg_params *ps, int *xor_pairs, mg_err *err) {
  *xor_pairs = 0; /* defined on every path, refusals included */
  const char *v = mg_param_given(ps, "pairs");
  int pow2 = mg_is_pow(pb->topo.N, 2, NULL);
  if (!v)
    *xor_pairs = pow2;
  else if (!strcmp(v, "shift"))
    *xor_pairs = 0;
  else if (!strcmp(v, "xor")) {
    if (!pow2)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "pairs=xor needs a power-of-two number of ranks, not %u", pb->topo.N);
    *xor_pairs = 1;
  } else
    return mg_fail(err, MG_ERR_INVALID, "parameter pairs must be auto, xor or shift, not '%s'", v);
  return MG_OK;
}

static mg_status pairwise_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int x;
  mg_status st = mg_mpi_grid_check(pb, MG_EXCHANGE, "mpi-alltoall-pairwise", err);
  return st != MG_OK ? st : pairs_mode(pb, ps, &x, err);
}

static mg_status pairwise_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  int xor_pairs;
  mg_status st = pairs_mode(pb, ps, &xor_pairs, err);
  if (st != MG_OK) return st;
  mg_emit e;
  st = mg_emit_begin(&e, sink, pb, "mpi-alltoall-pairwise", ps, 1, 0, p - 1, err);
  for (uint32_t i = 1; st == MG_OK && i < p; i++) {
    for (uint32_t r = 0; r < p && st == MG_OK; r++) {
      uint32_t dst = xor_pairs ? r ^ i : (r + i) % p;
      mg_transfer tr = to_dest(&pb->topo, r, dst, dst);
      st = mg_emit_add(&e, &tr, err);
    }
    if (st == MG_OK) st = mg_emit_round(&e, err);
  }
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status pairwise_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int xor_pairs;
  mg_status st = mg_mpi_cf_model(pb, "mpi-alltoall-pairwise", err);
  if (st == MG_OK) st = pairs_mode(pb, ps, &xor_pairs, err);
  if (st != MG_OK) return st;
  if (!mg_mpi_is_ring(&pb->topo) || xor_pairs)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-alltoall-pairwise on rings with pairs=shift only");
  const mg_model *m = &pb->model;
  double p = pb->topo.N, q = (double)((uint64_t)pb->topo.N * pb->topo.N / 4);
  *cost = (p - 1) * m->ts + q * (m->td + pb->bytes * m->tl);
  return MG_OK;
}

/* --------------------------------------------------------------- bruck */

static mg_status bruck_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = MG_OK;
  holder *h = mg_calloc(p, sizeof *h);
  if (!h) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  MG_CHECK(mg_emit_begin(&e, sink, pb, "mpi-alltoall-bruck", ps, 1, 0, log2_ceil(p), err));
  for (uint64_t pof2 = 1; pof2 < p; pof2 <<= 1) {
    for (uint32_t r = 0; r < p; r++) {
      h[r].p = p;
      h[r].u = r;
      h[r].bit = pof2;
      mg_transfer tr = mg_xfer(r, (uint32_t)((r + pof2) % p));
      tr.sel.flags = MG_SEL_PRED;
      tr.sel.pred = pred_bruck;
      tr.sel.pred_arg = &h[r];
      MG_CHECK(mg_emit_add(&e, &tr, err));
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(h);
  return st;
}

static mg_status bruck_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-alltoall-bruck", err);
  if (st != MG_OK) return st;
  if (!mg_mpi_is_ring(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-alltoall-bruck on rings only");
  const mg_model *m = &pb->model;
  uint64_t p = pb->topo.N;
  double c = 0;
  for (uint64_t pof2 = 1; pof2 < p; pof2 <<= 1) {
    uint64_t nk = 0;
    for (uint64_t j = 0; j < p; j++)
      nk += (j & pof2) != 0;
    double dk = (double)(pof2 < p - pof2 ? pof2 : p - pof2);
    c += m->ts + dk * m->td + dk * (double)nk * pb->bytes * m->tl;
  }
  *cost = c;
  return MG_OK;
}

/* -------------------------------------------------------------- direct */

static mg_status direct_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  mg_status st = any_check(pb, ps, err);
  if (st == MG_OK) st = mg_mpi_direct_size_check(pb, "mpi-alltoall-direct", err);
  return st;
}

static mg_status direct_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  mg_status st = mg_emit_begin(&e, sink, pb, "mpi-alltoall-direct", ps, 1, 0, 1, err);
  for (uint32_t r = 0; r < p && st == MG_OK; r++)
    for (uint32_t j = 1; j < p && st == MG_OK; j++) {
      uint32_t dst = (r + j) % p;
      mg_transfer tr = to_dest(&pb->topo, r, dst, dst);
      st = mg_emit_add(&e, &tr, err);
    }
  if (st == MG_OK) st = mg_emit_round(&e, err);
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status direct_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-alltoall-direct", err);
  if (st != MG_OK) return st;
  if (!mg_mpi_is_ring(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of mpi-alltoall-direct on rings only");
  *cost = mg_mpi_direct_ring_cost(pb);
  return MG_OK;
}

/* ---------------------------------------------------------------- ring */

/* The ring moves p^2(p-1)/2 blocks one hop each, every one tracked by the
 * exchange simulator (some 20 ns apiece): beyond RING_MAX_MOVES (about
 * p = 1600) the run would take minutes, so it is refused as too large. */
#define RING_MAX_MOVES ((uint64_t)1 << 31)

static mg_status ring_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  mg_status st = any_check(pb, ps, err);
  uint64_t p = pb->topo.N, moves = p * p * (p - 1) / 2;
  if (st == MG_OK && moves > RING_MAX_MOVES)
    return mg_fail(err, MG_ERR_TOO_LARGE,
                   "mpi-alltoall-ring moves p^2(p-1)/2 = %llu blocks, over the %llu simulated here",
                   (unsigned long long)moves, (unsigned long long)RING_MAX_MOVES);
  return st;
}

/* At step i (1-based) rank u holds the blocks of source s = u-i+1 that
 * are still travelling, those for s+i .. s+p-1: it forwards exactly them,
 * as an explicit list (O(p-i) per transfer rather than a scan of all
 * destinations). */
static mg_status ring_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t p = pb->topo.N;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = MG_OK;
  uint64_t *items = mg_calloc(p, sizeof *items);
  if (!items) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  MG_CHECK(mg_emit_begin(&e, sink, pb, "mpi-alltoall-ring", ps, 1, 0, p - 1, err));
  for (uint32_t i = 1; i < p; i++) {
    for (uint32_t r = 0; r < p; r++) {
      uint64_t src = (r + p - (i - 1)) % p;
      size_t n = 0;
      for (uint32_t j = i; j < p; j++)
        items[n++] = src * p + (src + j) % p;
      mg_transfer tr = mg_xfer(r, (r + 1) % p);
      tr.sel.flags = MG_SEL_LIST;
      tr.sel.list = mg_round_add_list(&e.r, items, n);
      tr.sel.list_len = n;
      if (!tr.sel.list) {
        st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a block list");
        goto out;
      }
      MG_CHECK(mg_emit_add(&e, &tr, err));
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(items);
  return st;
}

static mg_status ring_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  mg_status st = mg_mpi_cf_model(pb, "mpi-alltoall-ring", err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  uint64_t h = 0;
  for (uint32_t r = 0; r < pb->topo.N; r++) {
    uint64_t x = hops(&pb->topo, r, (r + 1) % pb->topo.N);
    if (x > h) h = x;
  }
  double p = pb->topo.N;
  *cost = (p - 1) * (m->ts + (double)h * m->td) + p * (p - 1) / 2 * pb->bytes * m->tl;
  return MG_OK;
}

static const mg_param_desc no_params[] = {{NULL, NULL, NULL}};
static const mg_param_desc pairwise_params[] = {
    {"pairs", "auto", "xor (partner r XOR i, MPICH for p = 2^m), shift (r+i / r-i, Open MPI), auto"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_mpi_alltoall_pairwise = {
    .name = "mpi-alltoall-pairwise",
    .problem = MG_EXCHANGE,
    .summary = "MPI baseline: pairwise exchange alltoall, p-1 steps of one block (MPICH, Open MPI)",
    .paper = "MPICH alltoall_intra_pairwise; Open MPI coll_base_alltoall pairwise",
    .restrictions = "grid topologies, any p (pairs=xor: p = 2^m); ranks row-major, dimension-order routes",
    .rounding = "none needed",
    .params = pairwise_params,
    .needs_shared = 1,
    .check = pairwise_check,
    .generate = pairwise_generate,
    .closed_form = pairwise_closed_form,
};

const mg_algo mg_algo_mpi_alltoall_bruck = {
    .name = "mpi-alltoall-bruck",
    .problem = MG_EXCHANGE,
    .summary = "MPI baseline: Bruck alltoall, ceil(lg p) store-and-forward steps (MPICH, Open MPI)",
    .paper = "Bruck et al. IEEE TPDS 1997; MPICH alltoall_intra_brucks; Open MPI coll_base_alltoall bruck",
    .restrictions = "grid topologies, any p; ranks row-major, dimension-order routes",
    .rounding = "none needed",
    .params = no_params,
    .needs_shared = 1,
    .check = any_check,
    .generate = bruck_generate,
    .closed_form = bruck_closed_form,
};

const mg_algo mg_algo_mpi_alltoall_direct = {
    .name = "mpi-alltoall-direct",
    .problem = MG_EXCHANGE,
    .summary = "MPI baseline: all p-1 sends posted at once (Open MPI linear)",
    .paper = "Open MPI coll_base_alltoall basic linear; MPICH scattered without batching",
    .restrictions = "grid topologies, p(p-1) <= 2^22; ranks row-major, dimension-order routes",
    .rounding = "none needed",
    .params = no_params,
    .needs_shared = 1,
    .check = direct_check,
    .generate = direct_generate,
    .closed_form = direct_closed_form,
};

const mg_algo mg_algo_mpi_alltoall_ring = {
    .name = "mpi-alltoall-ring",
    .problem = MG_EXCHANGE,
    .summary = "MPI baseline: ring alltoall, every rank forwards its travelling blocks to r+1 (MPICH)",
    .paper = "MPICH gentran alltoall ring",
    .restrictions =
        "grid topologies, p up to about 1600 (p^2(p-1)/2 block moves); ranks row-major, dimension-order routes",
    .rounding = "delivered blocks are not re-sent (MPICH sends its whole buffer each step)",
    .params = no_params,
    .check = ring_check,
    .generate = ring_generate,
    .closed_form = ring_closed_form,
};

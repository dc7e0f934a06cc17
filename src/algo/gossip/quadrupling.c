/*
 * torus-quadrupling — gossip on a 2^L x 2^L torus in L steps, each node
 * sending three messages a step, every set growing four-fold.
 *
 * The digit set T = {0, (1,0), (0,1), (-1,-1)} is a complete system of
 * residues of Z^2 modulo 2Z^2, so every element of Z_n^2 (n = 2^L) is
 * written in exactly one way as sum_l 2^(L-1-l) t_l with t_l in T (base-2
 * expansion with digits T). Step l (l = 0 .. L-1, a = 2^(L-1-l)) adds one
 * digit: node v receives everything that v + a t holds, for the three
 * t != 0 of T. By translation, v holds v + S_l with S_{l+1} = S_l + aT, so
 * after step l a node holds 4^(l+1) blocks and after L steps all n^2.
 *
 * The digits are chosen for the links: with a = 1 a node receives from
 * v + (1,0), v + (0,1) and v - (1,1), i.e. it sends on its -x arc, its -y
 * arc and by +x then +y: every one of the 4n^2 directed arcs carries
 * exactly one message (load 1). For larger a the load is a;
 * in the first step (a = n/2) the half-ring components go + from even and
 * - from odd coordinates, so the load is 2 ceil(a/2). The coarse steps come
 * first, when messages are small; the last one carries 4^(L-1) blocks on
 * load 1. This is the multi-port recursive-multiplying idea of Bine/Swing
 * (De Sensi, Hoefler et al., NSDI 2024) and of TORGOS' diagonal rounds
 * (Juurlink, Rao, Sibeyn 1996), with digit vectors chosen so that the largest step is
 * contention-free.
 *
 * Rounds: L = log2 n. Messages: 3 per node per step (SMPI charges their
 * overheads one after the other: 3 L of them, against 2 L for recursive
 * doubling).
 * Cost (contention=shared, wormhole/circuit):
 *   sum_l ts + 2a td + load_l 4^l m tl, a = 2^(L-1-l),
 *   load_0 = 2 ceil(n/4) (n >= 2), load_l = a for l >= 1.
 * Restrictions: 2D tori n x n with n a power of two (2 .. 2^12); shared
 * arcs (not contention-free in the first steps); all-port.
 * Rounding: none.
 *
 * Trace, torus:4x4: step 0 (a = 2): v gets the blocks of v+(2,0),
 * v+(0,2), v+(2,2) (4 blocks held); step 1 (a = 1): v gets the 4 blocks
 * held by each of v+(1,0), v+(0,1), v-(1,1): 16.
 */
#include "../algo_internal.h"

#include <string.h>

static mg_status tq_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  const mg_topo *t = &pb->topo;
  int L;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-quadrupling is a gossip algorithm");
  if (t->kind != MG_TOPO_GRID || t->d != 2 || !mg_topo_is_torus(t) || t->n[0] != t->n[1] ||
      !mg_is_pow(t->n[0], 2, &L) || L > 12)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-quadrupling needs an n x n torus with n a power of two");
  if (pb->model.switching == MG_SW_BUS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-quadrupling does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-quadrupling sends three messages a step: it needs all-port");
  return MG_OK;
}

/* The route from v by the offset (dx, dy): x first, then y; a component
 * of half the ring goes + from an even coordinate and - from an odd one. */
static mg_transfer hop(const mg_topo *t, uint32_t v, int32_t dx, int32_t dy) {
  uint32_t x[MG_MAX_DIMS], y[MG_MAX_DIMS];
  int32_t n = (int32_t)t->n[0], off[2] = {dx, dy};
  mg_topo_coords(t, v, x);
  mg_transfer tr = mg_xfer(v, v);
  tr.nseg = 0;
  for (int i = 0; i < 2; i++) {
    int32_t o = ((off[i] % n) + n) % n;
    if (o > n / 2) o -= n;
    if (2 * o == n && x[i] % 2) o = -o;
    y[i] = (uint32_t)(((int32_t)x[i] + o + n) % n);
    if (o) {
      tr.seg[tr.nseg].dim = (int8_t)i;
      tr.seg[tr.nseg++].hops = o;
    }
  }
  tr.dst = mg_topo_id(t, y);
  tr.sel.flags = MG_SEL_ALL;
  return tr;
}

static mg_status tq_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  const mg_topo *t = &pb->topo;
  int L;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = tq_check(pb, ps, err);
  if (st != MG_OK) return st;
  mg_is_pow(t->n[0], 2, &L);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-quadrupling", ps, 1, 0, L, err));
  for (int l = 0; l < L; l++) {
    int32_t a = (int32_t)1 << (L - 1 - l);
    for (uint32_t v = 0; v < t->N; v++) {
      /* v sends what it holds to v - a t for t = (1,0), (0,1), (-1,-1) */
      mg_transfer tr[3] = {hop(t, v, -a, 0), hop(t, v, 0, -a), hop(t, v, a, a)};
      for (int j = 0; j < 3; j++)
        MG_CHECK(mg_emit_add(&e, &tr[j], err));
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status tq_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_status st = tq_check(pb, ps, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-quadrupling: closed form under contention=shared only");
  int L;
  uint32_t n = pb->topo.n[0];
  mg_is_pow(n, 2, &L);
  double c = 0, blocks = 1;
  for (int l = 0; l < L; l++) {
    double a = (double)((uint32_t)1 << (L - 1 - l));
    double load = l == 0 ? 2.0 * ((n / 2 + 1) / 2) : a;
    /* the longest route: the diagonal, a + a hops (a half-ring
     * component is n/2 hops either way) */
    c += m->ts + 2 * a * m->td + load * blocks * pb->bytes * m->tl;
    blocks *= 4;
  }
  *cost = c;
  return MG_OK;
}

static const mg_param_desc tq_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_torus_quadrupling = {
    .name = "torus-quadrupling",
    .problem = MG_GOSSIP,
    .summary = "log2 n steps of three messages on a 2^L x 2^L torus; digits {0,(1,0),(0,1),(-1,-1)}, last step load 1",
    .paper = "base-2 digit expansion; multi-port recursive multiplying as in Bine/Swing (NSDI 2024)",
    .restrictions = "n x n tori, n a power of two; shared arcs; all-port",
    .rounding = "none",
    .params = tq_params,
    .needs_shared = 1,
    .check = tq_check,
    .generate = tq_generate,
    .closed_form = tq_closed_form,
};

/*
 * multiring — gossip on one ring per direction of each of the d
 * edge-disjoint Hamiltonian cycles of a torus, all at once.
 *
 * A torus with every side >= 3 splits into d edge-disjoint Hamiltonian
 * cycles (hamilton.c: A. Kotzig 1973; T. Foregger, "Hamiltonian
 * decompositions of products of cycles", 1978), i.e. 2d directed rings that
 * use every directed arc exactly once. Every node's block is cut into
 * P = 2d pieces and each ring carries its own pieces, so all 2d out-arcs of
 * every node are busy in every round with one-hop messages: the schedule
 * is contention-free (it verifies under contention=strict) and reaches the
 * bandwidth term (N-1) m / (2d B) of the lower bound. This is the
 * multi-ring idea of the bandwidth-optimal allreduce/allgather on tori
 * (e.g. P. Sack, W. Gropp, "Collective algorithms for multiported torus
 * networks", ACM TOPC 2015; the Hamiltonian-ring allgathers of
 * De Sensi, Hoefler et al., "Swing: Short-cutting Rings for Higher
 * Bandwidth Allreduce", NSDI 2024, whose baseline it is).
 *
 * mode=uni: the 2d directed rings run the pipelined ring allgather (in
 *   round t node v sends forward the piece it received in round t-1):
 *   N-1 rounds of one piece of m/(2d) bytes per arc.
 *   Cost (wormhole/circuit, any contention): (N-1) (ts + td + m/(2d) tl).
 * mode=bi (default): each undirected cycle c runs Approach 1 of Juurlink, Rao, Sibeyn 1996
 *   (section 4.1) on its own pieces {2c, 2c+1}: every node sends both
 *   pieces of origin o both ways around the cycle, floor(N/2) rounds. On
 *   an even cycle the last round brings the opposite node's block from
 *   both sides: piece 2c comes from behind, 2c+1 from ahead, m/(2d) each.
 *   Cost: odd N: (N-1)/2 (ts + td + m/d tl); even N: (N/2 - 1)(ts + td +
 *   m/d tl) + ts + td + m/(2d) tl. Both equal N'·ts + (N-1) m/(2d) tl + ...
 *   with N' = ceil(N/2) start-ups instead of N-1.
 * store-and-forward: a one-hop message costs ts + bytes tl (no td).
 *
 * Restrictions: tori (every dimension wraps) with every side >= 3; rings
 * (d = 1) of 3 or more nodes; all-port (a node sends on 2d arcs at once);
 * not the mesh-bus.
 * Rounding: none; P = 2d pieces per block.
 *
 * Trace, mode=uni on ring:4 (one cycle 0-1-2-3, pieces 0 forward, 1
 * backward): round 0: v -> v+1 piece 0 of v, v -> v-1 piece 1 of v;
 * round 1: v -> v+1 piece 0 of v-1, v -> v-1 piece 1 of v+1; round 2:
 * piece 0 of v-2, piece 1 of v+2: everyone holds everything after 3 rounds.
 */
#include "hamilton.h"

#include <string.h>

static mg_status mode_of(const mg_params *ps, int *bi, mg_err *err) {
  *bi = 1; /* defined on every path, refusals included */
  const char *m = ps ? mg_params_get(ps, "mode") : NULL;
  if (!m || !strcmp(m, "bi") || !strcmp(m, "auto")) {
    *bi = 1;
    return MG_OK;
  }
  if (!strcmp(m, "uni")) {
    *bi = 0;
    return MG_OK;
  }
  return mg_fail(err, MG_ERR_INVALID, "multiring: mode must be uni or bi, not '%s'", m);
}

static mg_status mr_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int bi;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "multiring is a gossip algorithm");
  if (pb->topo.kind != MG_TOPO_GRID || !mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "multiring needs a torus or ring (its Hamiltonian cycles wrap around)");
  for (int k = 0; k < pb->topo.d; k++)
    if (pb->topo.n[k] < 3)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "multiring needs every side >= 3 (side %u has parallel arcs)",
                     pb->topo.n[k]);
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "multiring does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "multiring sends on all %d out-arcs at once: it needs all-port",
                   2 * pb->topo.d);
  return mode_of(ps, &bi, err);
}

/* Piece list {o*P + p0 .. o*P + p0 + np - 1} from src along one arc. */
static mg_status add_pieces(mg_emit *e, uint32_t src, uint32_t dst, int dim, int dir, uint32_t o, uint32_t P,
                            uint32_t p0, uint32_t np, mg_err *err) {
  mg_transfer tr = mg_xfer_line(src, dst, dim, dir);
  if (np == 1) {
    tr.sel.flags = MG_SEL_ORIGIN_RANGE | MG_SEL_PIECE;
    tr.sel.range_lo = o;
    tr.sel.range_len = 1;
    tr.sel.piece = p0;
    return mg_emit_add(e, &tr, err);
  }
  uint64_t items[2] = {(uint64_t)o * P + p0, (uint64_t)o * P + p0 + 1};
  const uint64_t *l = mg_round_add_list(&e->r, items, np);
  if (!l) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a round");
  tr.sel.flags = MG_SEL_LIST;
  tr.sel.list = l;
  tr.sel.list_len = np;
  return mg_emit_add(e, &tr, err);
}

static mg_status mr_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  int bi = 0;
  mg_status st = mode_of(ps, &bi, err);
  if (st != MG_OK) return st;
  mg_hamdec h;
  st = mg_hamdec_build(&pb->topo, &h, err);
  if (st != MG_OK) return st;
  uint32_t N = h.N, P = 2u * (uint32_t)h.ncyc, rounds = bi ? N / 2 : N - 1;
  mg_emit e;
  memset(&e, 0, sizeof e);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "multiring", ps, P, 0, rounds, err));
  for (uint32_t t = 0; t < rounds; t++) {
    int split = bi && N % 2 == 0 && t + 1 == rounds;
    for (int c = 0; c < h.ncyc; c++) {
      const uint32_t *seq = h.seq + (uint64_t)c * N;
      const int8_t *dim = h.dim + (uint64_t)c * N, *dir = h.dir + (uint64_t)c * N;
      for (uint32_t i = 0; i < N; i++) {
        uint32_t v = seq[i], next = seq[(i + 1) % N], ip = (i + N - 1) % N, prev = seq[ip];
        /* bi: both pieces of the cycle both ways, but on an even cycle's
         * last round piece 2c forward and 2c+1 backward */
        /* forward: the origin t places behind; backward: t places ahead */
        uint32_t behind = seq[(i + N - t % N) % N], ahead = seq[(i + t) % N];
        uint32_t p0 = 2u * (uint32_t)c;
        MG_CHECK(add_pieces(&e, v, next, dim[i], dir[i], behind, P, p0, bi && !split ? 2 : 1, err));
        uint32_t pb0 = bi && !split ? p0 : p0 + 1;
        MG_CHECK(add_pieces(&e, v, prev, dim[ip], -dir[ip], ahead, P, pb0, bi && !split ? 2 : 1, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_hamdec_free(&h);
  return st;
}

static mg_status mr_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int bi = 0;
  mg_status st = mr_check(pb, ps, err);
  if (st != MG_OK) return st;
  st = mode_of(ps, &bi, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  double N = pb->topo.N, d = pb->topo.d, hop = m->switching == MG_SW_SAF ? 0 : m->td;
  double piece = pb->bytes / (2 * d);
  if (!bi) {
    *cost = (N - 1) * (m->ts + hop + piece * m->tl);
  } else if (pb->topo.N % 2) {
    *cost = (N - 1) / 2 * (m->ts + hop + 2 * piece * m->tl);
  } else {
    *cost = (N / 2 - 1) * (m->ts + hop + 2 * piece * m->tl) + m->ts + hop + piece * m->tl;
  }
  return MG_OK;
}

static mg_status mr_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  (void)pb;
  static const char *const modes[] = {"bi", "uni"};
  for (int i = 0; i < 2; i++) {
    mg_params ps;
    memset(&ps, 0, sizeof ps);
    mg_status st = mg_params_set(&ps, "mode", modes[i], err);
    if (st == MG_OK) st = visit(arg, &ps);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc mr_params[] = {
    {"mode", "bi", "uni: 2d directed rings, N-1 rounds; bi: d cycles both ways, floor(N/2) rounds"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_multiring = {
    .name = "multiring",
    .problem = MG_GOSSIP,
    .summary = "one pipelined ring per direction of d edge-disjoint Hamiltonian cycles, 2d pieces per block",
    .paper = "Kotzig 1973 / Foregger 1978 Hamiltonian decompositions; multi-ring allgather (Sack & Gropp 2015)",
    .restrictions = "tori and rings with every side >= 3; all-port",
    .rounding = "none; P = 2d pieces; an even bi cycle splits its last round",
    .params = mr_params,
    .check = mr_check,
    .generate = mr_generate,
    .closed_form = mr_closed_form,
    .candidates = mr_candidates,
};

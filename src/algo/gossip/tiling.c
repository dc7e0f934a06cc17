/*
 * torus-tiling — gossip on torus:8x8 (and 4x4) in log4 N steps of three
 * messages per node, with digit sets chosen for SimGrid's SMPI network:
 * the last, largest step sends to the three nearest neighbours only.
 *
 * Like torus-quadrupling it is a digit expansion: Z_n^2 = T_0 + T_1 + ...
 * (every element written in exactly one way as a sum with one digit from
 * each T_l, |T_l| = 4, 0 in T_l). In step l node v receives everything
 * that v + t holds, for the three t != 0 of T_l; by translation v then
 * holds v + T_0 + ... + T_l, 4^(l+1) blocks. The digit sets are not the
 * base-2 ones of torus-quadrupling: the last step's set is the T tetromino
 * F = {0, (1,0), (-1,0), (0,1)}, a complete residue system modulo the
 * lattice {(x, y) : x + 2y = 0 mod 4}, so all three of its messages are
 * one hop long; the coarser steps split that lattice (found by an
 * exhaustive search over its subgroups and digit representatives, least
 * busiest-arc load first):
 *   8x8: T_0 = {0, (-4,2), (-4,-2), (0,-4)}, T_1 = {0, (2,1), (-2,1), (0,-2)},
 *        T_2 = F;
 *   4x4: T_0 = {0, (2,1), (2,-1), (0,2)}, T_1 = F.
 * Why not the diagonal digit (-1,-1) of torus-quadrupling: SimGrid prices a
 * flow's share of a link by its route length (weight-S per link) and adds
 * every flow's acknowledgements to the reverse route (crosstraffic, 5%).
 * A one-hop flow on arc e and a two-hop flow whose route starts on the
 * reverse of e then share e's constraint, and the two-hop flow is held to
 * half its rate while the short one runs: measured on SMPI torus:8x8 at
 * 512 KiB per message, {(1,0), (0,1), (-1,-1)} takes 4.73 ms after the
 * overheads where three one-hop messages take 3.19. In the coarse steps the
 * longest messages are posted first (digits listed in that order): a
 * node's sends leave 250 us apart on SMPI and the long ones need the head
 * start.
 *
 * Routes are SimGrid's (TorusZone): dimension 0 first, each dimension's
 * direction decided at the source: + when the target is within n/2 ahead,
 * so a half-ring offset goes + except from coordinate n/2, where it goes -.
 * The simulator then prices the arcs SMPI loads (busiest arcs per step on
 * 8x8: 8, 2, 1; on 4x4: 4, 1).
 *
 * split=1 runs the first step as two one-message steps ({0, (0,4)} + {0, (4,2)} on 8x8: one overhead less,
 * for small blocks). spread=1 (8x8) runs the last step with four messages: the (0,1) coset of the lattice
 * L = {x + 2y = 0 mod 4} is also the (0,-1) one, so v gets half of it from v+(0,1) and half from v-(0,1):
 * each sends the origins o of its set with (x - 2y)(o) = (x - 2y)(sender) mod 8 (an index-2 sublattice of
 * L that misses (0,2), so the two halves are complementary). Blocks per message 16, 16, 8, 8: the x
 * messages leave 250 us earlier on SMPI (16 KiB: 5.32 ms against 5.50; 32 KiB: 9.03 against 9.13).
 *
 * Rounds: log4 N (3 on 8x8, 2 on 4x4), split=1 one more. Messages: 3 per node per step (spread: 4 in the
 * last).
 * Cost (contention=shared, wormhole/circuit):
 *   sum_l ts + h_l td + load_l 4^l m tl, with (h, load) = (6, 8), (3, 2),
 *   (1, 1) on 8x8 and (3, 4), (1, 1) on 4x4.
 * Restrictions: torus:8x8 and torus:4x4 only (tabulated digit sets); shared
 * arcs; all-port. Rounding: none.
 *
 * Trace, torus:4x4: step 0 v gets the blocks of v+(2,1), v+(2,-1), v+(0,2);
 * step 1 the four blocks each of v+(1,0), v+(-1,0), v+(0,1): 16.
 */
#include "../algo_internal.h"

#include <string.h>

/* One step: v receives from v + digit[j], j < nd (the longest route
 * first); hops is the longest route, load the busiest arc (messages). */
typedef struct tiling_step {
  int nd;
  int8_t digit[4][2];
  int hops, load;
  int grow;    /* blocks held multiply by this */
  int colored; /* bit j: digit j carries only the half of colour (x - 2y) mod 8 of its sender */
} tiling_step;

typedef struct tiling_table {
  uint32_t n;
  int steps;
  tiling_step step[3];
  tiling_step half[2]; /* split=1: step 0 as two one-message steps */
  tiling_step spread;  /* spread=1: the last step with four messages (nd 0: none) */
} tiling_table;

static const tiling_table tables[] = {
    {8,
     3,
     {{3, {{-4, 2}, {-4, -2}, {0, -4}}, 6, 8, 4, 0},
      {3, {{2, 1}, {-2, 1}, {0, -2}}, 3, 2, 4, 0},
      {3, {{1, 0}, {-1, 0}, {0, 1}}, 1, 1, 4, 0}},
     {{1, {{0, 4}}, 4, 4, 2, 0}, {1, {{4, 2}}, 6, 4, 2, 0}},
     {4, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}, 1, 1, 4, 0xc}},
    {4,
     2,
     {{3, {{2, 1}, {2, -1}, {0, 2}}, 3, 4, 4, 0}, {3, {{1, 0}, {-1, 0}, {0, 1}}, 1, 1, 4, 0}},
     {{1, {{0, 2}}, 2, 2, 2, 0}, {1, {{2, 1}}, 3, 2, 2, 0}},
     {0, {{0, 0}}, 0, 0, 0, 0}},
};

static const tiling_table *find_table(const mg_topo *t) {
  if (t->kind != MG_TOPO_GRID || t->d != 2 || !mg_topo_is_torus(t) || t->n[0] != t->n[1]) return NULL;
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
    if (tables[i].n == t->n[0]) return &tables[i];
  return NULL;
}

/* The steps to run: the table's, or with split=1 its first one replaced by
 * its two halves. Returns the number of steps. */
static int plan_steps(const tiling_table *tb, int64_t split, int64_t spread, const tiling_step *out[4]) {
  int k = 0;
  if (split) {
    out[k++] = &tb->half[0];
    out[k++] = &tb->half[1];
  } else {
    out[k++] = &tb->step[0];
  }
  for (int l = 1; l < tb->steps; l++)
    out[k++] = spread && l == tb->steps - 1 ? &tb->spread : &tb->step[l];
  return k;
}

static mg_status tt_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t split, spread;
  mg_status st = mg_param_int(ps, "split", 0, 0, 1, &split, err);
  if (st == MG_OK) st = mg_param_int(ps, "spread", 0, 0, 1, &spread, err);
  if (st != MG_OK) return st;
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-tiling is a gossip algorithm");
  if (!find_table(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-tiling has digit sets for torus:8x8 and 4x4 only");
  if (spread && find_table(&pb->topo)->spread.nd == 0)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-tiling: spread=1 on torus:8x8 only");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-tiling does not run on buses");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-tiling sends three messages a step: it needs all-port");
  return MG_OK;
}

/* From u by the offset (dx, dy) on SimGrid's route: dimension 0 first, the
 * direction of each dimension chosen from u's coordinate. */
static mg_transfer sg_hop(const mg_topo *t, uint32_t u, int32_t dx, int32_t dy) {
  uint32_t x[MG_MAX_DIMS], y[MG_MAX_DIMS];
  int32_t n = (int32_t)t->n[0], off[2] = {dx, dy};
  mg_topo_coords(t, u, x);
  mg_transfer tr = mg_xfer(u, u);
  tr.nseg = 0;
  for (int i = 0; i < 2; i++) {
    int32_t my = (int32_t)x[i], tg = (((my + off[i]) % n) + n) % n;
    y[i] = (uint32_t)tg;
    if (tg == my) continue;
    int32_t h = mg_ring_offset_simgrid((uint32_t)n, (uint32_t)my, (uint32_t)tg);
    tr.seg[tr.nseg].dim = (int8_t)i;
    tr.seg[tr.nseg++].hops = h;
  }
  tr.dst = mg_topo_id(t, y);
  tr.sel.flags = MG_SEL_ALL;
  return tr;
}

static mg_status tt_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  const mg_topo *t = &pb->topo;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = tt_check(pb, ps, err);
  if (st != MG_OK) return st;
  const tiling_step *steps[4];
  int64_t split = 0, spread = 0;
  mg_param_int(ps, "split", 0, 0, 1, &split, err);
  mg_param_int(ps, "spread", 0, 0, 1, &spread, err);
  int k = plan_steps(find_table(t), split, spread, steps);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torus-tiling", ps, 1, 0, k, err));
  for (int l = 0; l < k; l++) {
    /* digits outer, nodes inner: every node's sends in the table's order */
    for (int j = 0; j < steps[l]->nd; j++)
      for (uint32_t u = 0; u < t->N; u++) {
        /* u sends what it holds to u - digit, which receives from (u - digit) + digit */
        mg_transfer tr = sg_hop(t, u, -steps[l]->digit[j][0], -steps[l]->digit[j][1]);
        if (steps[l]->colored >> j & 1) {
          /* half of u's set: origins o with (x - 2y)(o) = (x - 2y)(u) mod 8 */
          uint32_t x[MG_MAX_DIMS];
          mg_topo_coords(t, u, x);
          tr.sel.flags = MG_SEL_COLOR;
          tr.sel.color_w[0] = 1;
          tr.sel.color_w[1] = 6;
          tr.sel.color_m = 8;
          tr.sel.color_c = (x[0] + 6 * x[1]) % 8;
        }
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status tt_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_status st = tt_check(pb, ps, err);
  if (st != MG_OK) return st;
  const mg_model *m = &pb->model;
  if (m->contention != MG_CONT_SHARED || m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torus-tiling: closed form under contention=shared only");
  const tiling_step *steps[4];
  int64_t split = 0, spread = 0;
  mg_param_int(ps, "split", 0, 0, 1, &split, err);
  mg_param_int(ps, "spread", 0, 0, 1, &spread, err);
  int k = plan_steps(find_table(&pb->topo), split, spread, steps);
  double c = 0, blocks = 1;
  for (int l = 0; l < k; l++) {
    c += m->ts + steps[l]->hops * m->td + steps[l]->load * blocks * pb->bytes * m->tl;
    blocks *= steps[l]->grow;
  }
  *cost = c;
  return MG_OK;
}

static mg_status tt_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  const tiling_table *tb = find_table(&pb->topo);
  for (int v = 0; v < 4; v++) {
    int split = v & 1, spread = v >> 1;
    if (spread && (!tb || tb->spread.nd == 0)) continue;
    mg_params ps;
    memset(&ps, 0, sizeof ps);
    mg_status st = mg_params_set_int(&ps, "split", split, err);
    if (st == MG_OK) st = mg_params_set_int(&ps, "spread", spread, err);
    if (st == MG_OK) st = visit(arg, &ps);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc tt_params[] = {
    {"split", "0", "1: the first step as two one-message steps (one overhead less; for small blocks)"},
    {"spread", "0",
     "1 (8x8): the last step's (0,1) coset half from each y neighbour, four messages (16 KiB and up on SMPI)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_torus_tiling = {
    .name = "torus-tiling",
    .problem = MG_GOSSIP,
    .summary = "log4 N steps of three messages; digit sets on SimGrid's routes, the last step one hop (8x8, 4x4)",
    .paper =
        "digit expansion over a lattice tiling; Bine/Swing-style multiplying (De Sensi, Hoefler et al., NSDI 2024)",
    .restrictions = "torus:8x8 and torus:4x4; shared arcs; all-port",
    .rounding = "none",
    .params = tt_params,
    .needs_shared = 1,
    .check = tt_check,
    .generate = tt_generate,
    .closed_form = tt_closed_form,
    .candidates = tt_candidates,
};

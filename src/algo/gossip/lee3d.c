/*
 * lee3d, lee3d-long — circuit-switched gossip on TM(7^i)^3 through the
 * perfect Lee code C = {x : x1 + 2 x2 + 3 x3 = 0 mod 7} (Delmas, Perennes 1996, Delmas
 * and Perennes, sections 5 and 6). All-port, full-duplex, every round's
 * dipaths arc-disjoint.
 *
 * TM(7)^3 (section 5.1, Proposition 5.8):
 *   round 1   every x in C collects from its Lee sphere x + B1 (length 1);
 *   round 2-a every x in C sends all it holds to x + M0 B1 (7 units);
 *   round 2-b ... to x + M0^2 B1 (49 units): C = M0^2 B1 + M0 B1
 *             (Property 5.6), so now every code vertex knows everything;
 *   round 3   every x in C sends everything to x + B1 (343 units).
 *   The dipaths of 2-a and 2-b are the paper's (section 5.1.3): u_j as
 *   the listed axis segments, -u_j by negating every segment. Longest 5.
 *   Cost 4 alpha + 12 delta + (1 + 7 + 49 + 343) L tau.
 *
 * TM(7^i)^3 (section 5.2, Proposition 5.17): base-7 digit k of the
 * coordinates plays the role of Z_7 at level k. A_0 = all vertices, A_{k+1}
 * = the x of A_k whose digit k satisfies the code: A_1 = C_i; the points of
 * A_k that agree below digit k form a family x + 7^k Z^3, a dilated
 * TM(7^(i-k))^3 (Lemma 5.16 for k = 1). The recursion unrolls to
 *   concentrations k = 0 .. i-1 (A_{k+1} collects from x +- 7^k e_j),
 *   then for k = i-1 down to 0: rounds a, b and the final broadcast of
 *   level k, every dipath scaled by 7^k.
 *   Rounds 4i; g_delta = 12 (7^i - 1)/6 = 12/9 D; level k moves 7^k in
 *   its concentration and 7^(3i-2k) (1/49 + 1/7 + 1) in a, b, broadcast:
 *   g_tau = (57 N - 7^(i+2) - 8)/48 (src/analytic/delmas.c; the paper's
 *   two closed forms disagree, docs/paper-notes.md).
 *
 * lee3d-long (section 6, Propositions 6.3, 6.4): data cut into P = 7
 * pieces; the colour of a vertex at level k is digit k of x1 + 2x2 + 3x3
 * mod 7 (Lemma 6.2: a vertex and its six neighbours have seven colours).
 * Each level's final broadcast is split: 3-a: x in A_{k+1} sends to each
 * neighbour y the pieces of colour c(y); 3-b: x sends the pieces of its own
 * colour 0, and each y in A_k \ A_{k+1} sends the pieces of colour c(y) it
 * got to its other five neighbours (the paper's x -> x + B1 also sends to
 * the code neighbour, which already holds everything; omitted).
 *   Rounds 5i; g_delta = 13/9 D; g_tau = (11 N - 7^(i+1) - 4)/24, i = 1:
 *   1 + 7 + 3*49.
 *
 * Restrictions: gossip on a 3D torus with all sides 7^i (i >= 1); all-port.
 * Rounding: none (other sizes are refused).
 * Trace, torus:7x7x7 (node (x1,x2,x3), id x1 + 7 x2 + 49 x3): round 1:
 *   (1,0,0)->(0,0,0), (6,0,0)->(0,0,0), (0,1,0)->(0,0,0), ... (1 unit);
 *   round 2-a: (0,0,0)->(5,1,0) via [dim1 +1][dim0 -2], (0,0,0)->(0,2,1)
 *   via [dim2 -1][dim1 +2][dim2 +2], ... (7 units); round 2-b (49 units);
 *   round 3: (0,0,0)->(1,0,0), ... (343 units).
 */
#include "../algo_internal.h"

#include <stdio.h>
#include <string.h>

/* Section 5.1.3: the dipaths of u_1, u_2, u_3 for round 2-a (M0 B1) and
 * round 2-b (M0^2 B1), as axis segments (dim, hops), dims 0..2 = x1..x3. */
typedef struct lee_path {
  int nseg;
  mg_seg seg[4];
} lee_path;

static const lee_path LEE_PATHS[2][3] = {
    {/* round 2-a: (-2,1,0) = e2 - 2e1; (0,2,1) = -e3 + 2e2 + 2e3; (1,3,0) = e1 + 3e2 */
     {2, {{1, 1}, {0, -2}}},
     {3, {{2, -1}, {1, 2}, {2, 2}}},
     {2, {{0, 1}, {1, 3}}}},
    {/* round 2-b: (-3,0,1) = -3e1 + e3; (1,0,2) = -e2 + 2e3 + e1 + e2; (-2,0,3) = 3e3 - 2e1 */
     {2, {{0, -3}, {2, 1}}},
     {4, {{1, -1}, {2, 2}, {0, 1}, {1, 1}}},
     {2, {{2, 3}, {0, -2}}}},
};

const mg_seg *mg_lee3d_dipath(int round_b, int j, int *nseg) {
  const lee_path *p = &LEE_PATHS[round_b ? 1 : 0][j];
  *nseg = p->nseg;
  return p->seg;
}

static int lee3d_side(const mg_topo *t, int *level) {
  if (t->kind != MG_TOPO_GRID || t->d != 3) return 0;
  for (int k = 0; k < 3; k++)
    if (!t->wrap[k] || t->n[k] != t->n[0]) return 0;
  return mg_is_pow(t->n[0], 7, level) && *level >= 1;
}

static mg_status lee_check_named(const mg_problem_spec *pb, const char *name, mg_err *err) {
  int i;
  char topo[64];
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "%s is a gossip algorithm", name);
  if (!lee3d_side(&pb->topo, &i))
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "%s needs a 3D torus 7^i x 7^i x 7^i (perfect Lee code, Delmas, Perennes 1996 section 5.2), not %s",
                   name, mg_topo_format(&pb->topo, topo, sizeof topo));
  if (pb->model.port != MG_PORT_ALL)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s is all-port: a code vertex talks to six neighbours per round", name);
  return MG_OK;
}

static mg_status lee_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return lee_check_named(pb, "lee3d", err);
}
static mg_status lee_long_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return lee_check_named(pb, "lee3d-long", err);
}

/* Digit k (base 7) of the code form x1 + 2x2 + 3x3: the colour at level k. */
static uint32_t colour_at(const uint32_t *x, uint32_t scale) {
  return ((x[0] / scale) % 7 + 2 * ((x[1] / scale) % 7) + 3 * ((x[2] / scale) % 7)) % 7;
}

/* Number of low digits 0, 1, ... that satisfy the code: x is in A_m iff
 * depth >= m. */
static int depth_of(const uint32_t *x, int levels) {
  uint32_t scale = 1;
  for (int k = 0; k < levels; k++, scale *= 7)
    if (colour_at(x, scale) != 0) return k;
  return levels;
}

static uint32_t shift(const mg_topo *t, uint32_t *x, int dim, int64_t hops) {
  int64_t n = t->n[0];
  uint32_t y[3] = {x[0], x[1], x[2]};
  y[dim] = (uint32_t)((((int64_t)y[dim] + hops) % n + n) % n);
  return mg_topo_id(t, y);
}

static mg_transfer one_hop(uint32_t src, uint32_t dst, int dim, int32_t hops) {
  return mg_xfer_line(src, dst, dim, hops);
}

/* Rounds a (b = 0) and b (b = 1) of level k: x -> x + 7^k (+-u_j). */
static mg_status emit_ab(mg_emit *e, const mg_topo *t, int levels, int k, int b, mg_err *err) {
  uint32_t scale = 1, x[3];
  mg_status st = MG_OK;
  for (int j = 0; j < k; j++)
    scale *= 7;
  for (uint32_t v = 0; v < t->N; v++) {
    mg_topo_coords(t, v, x);
    if (depth_of(x, levels) < k + 1) continue;
    for (int j = 0; j < 3; j++)
      for (int sgn = 1; sgn >= -1; sgn -= 2) {
        const lee_path *p = &LEE_PATHS[b][j];
        mg_transfer tr = mg_xfer(v, v);
        int64_t off[3] = {0, 0, 0};
        tr.nseg = (uint8_t)p->nseg;
        for (int s = 0; s < p->nseg; s++) {
          tr.seg[s].dim = p->seg[s].dim;
          tr.seg[s].hops = sgn * p->seg[s].hops * (int32_t)scale;
          off[p->seg[s].dim] += tr.seg[s].hops;
        }
        uint32_t y[3];
        for (int d = 0; d < 3; d++)
          y[d] = (uint32_t)((((int64_t)x[d] + off[d]) % t->n[0] + t->n[0]) % t->n[0]);
        tr.dst = mg_topo_id(t, y);
        MG_CHECK(mg_emit_add(e, &tr, err));
      }
  }
  st = mg_emit_round(e, err);
out:
  return st;
}

static mg_status lee_generate_named(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, int long_msg,
                                    mg_err *err) {
  const mg_topo *t = &pb->topo;
  int levels;
  mg_emit e;
  mg_status st;
  uint32_t x[3];
  memset(&e, 0, sizeof e);
  if (!lee3d_side(t, &levels)) return mg_fail(err, MG_ERR_UNSUPPORTED, "lee3d needs a 3D torus with sides 7^i");
  uint32_t P = long_msg ? 7 : 1;
  MG_CHECK(mg_emit_begin(&e, sink, pb, long_msg ? "lee3d-long" : "lee3d", ps, P, 0,
                         (int64_t)levels * (long_msg ? 5 : 4), err));
  /* Concentrations, level 0 upwards: x in A_{k+1} <- x +- 7^k e_j. */
  uint32_t scale = 1;
  for (int k = 0; k < levels; k++, scale *= 7) {
    for (uint32_t v = 0; v < t->N; v++) {
      mg_topo_coords(t, v, x);
      if (depth_of(x, levels) < k + 1) continue;
      for (int dim = 0; dim < 3; dim++)
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
          mg_transfer tr = one_hop(shift(t, x, dim, sgn * (int64_t)scale), v, dim, -sgn * (int32_t)scale);
          MG_CHECK(mg_emit_add(&e, &tr, err));
        }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  /* Levels from the innermost out: gossip among A_{k+1} of each level-k
   * family (rounds a, b), then the final broadcast to A_k. */
  for (int k = levels - 1; k >= 0; k--) {
    scale = 1;
    for (int j = 0; j < k; j++)
      scale *= 7;
    MG_CHECK(emit_ab(&e, t, levels, k, 0, err));
    MG_CHECK(emit_ab(&e, t, levels, k, 1, err));
    for (int half = 0; half < (long_msg ? 2 : 1); half++) {
      for (uint32_t v = 0; v < t->N; v++) {
        mg_topo_coords(t, v, x);
        int dep = depth_of(x, levels);
        if (dep < k) continue;
        for (int dim = 0; dim < 3; dim++)
          for (int sgn = 1; sgn >= -1; sgn -= 2) {
            uint32_t y[3] = {x[0], x[1], x[2]};
            uint32_t w = shift(t, x, dim, sgn * (int64_t)scale);
            mg_topo_coords(t, w, y);
            mg_transfer tr = one_hop(v, w, dim, sgn * (int32_t)scale);
            if (dep >= k + 1) {
              /* code vertex of level k */
              if (long_msg) {
                tr.sel.flags = MG_SEL_PIECE;
                tr.sel.piece = half == 0 ? colour_at(y, scale) : 0;
              }
            } else {
              /* 3-b: a non-code vertex forwards the pieces of its colour
               * to its neighbours other than its code neighbour */
              if (!long_msg || half == 0 || depth_of(y, levels) >= k + 1) continue;
              tr.sel.flags = MG_SEL_PIECE;
              tr.sel.piece = colour_at(x, scale);
            }
            MG_CHECK(mg_emit_add(&e, &tr, err));
          }
      }
      MG_CHECK(mg_emit_round(&e, err));
    }
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status lee_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return lee_generate_named(pb, ps, sink, 0, err);
}
static mg_status lee_long_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  return lee_generate_named(pb, ps, sink, 1, err);
}

/* Every round moves the same amount on every dipath, so the circuit price
 * (alpha + max d delta + max l tau) equals the wormhole one (max of the
 * sums). */
static mg_status lee_closed_named(const mg_problem_spec *pb, int long_msg, double *cost, mg_err *err) {
  int i;
  const mg_model *m = &pb->model;
  if (!lee3d_side(&pb->topo, &i)) return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for TM(7^i)^3 only");
  if ((m->switching != MG_SW_CIRCUIT && m->switching != MG_SW_WORMHOLE) || m->port != MG_PORT_ALL ||
      m->contention != MG_CONT_STRICT)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for all-port strict circuit or wormhole switching only");
  mg_delmas_cost c = mg_delmas_ours(i, long_msg);
  *cost = c.g_alpha * m->ts + c.g_delta * m->td + c.g_tau * pb->bytes * m->tl;
  return MG_OK;
}

static mg_status lee_closed(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  return lee_closed_named(pb, 0, cost, err);
}
static mg_status lee_long_closed(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  return lee_closed_named(pb, 1, cost, err);
}

static const mg_param_desc lee_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_lee3d = {
    .name = "lee3d",
    .problem = MG_GOSSIP,
    .summary = "circuit-switched gossip through the perfect Lee code x1+2x2+3x3 = 0 mod 7, 4 rounds per level",
    .paper = "Delmas, Perennes 1996 sections 5.1-5.2, Propositions 5.8, 5.17",
    .restrictions = "3D torus 7^i x 7^i x 7^i, all-port",
    .rounding = "none: other sizes are refused",
    .params = lee_params,
    .check = lee_check,
    .generate = lee_generate,
    .closed_form = lee_closed,
};

const mg_algo mg_algo_lee3d_long = {
    .name = "lee3d-long",
    .problem = MG_GOSSIP,
    .summary = "lee3d for long messages: 7 colours, P = 7 pieces, each level's last round split in two",
    .paper = "Delmas, Perennes 1996 section 6, Propositions 6.3, 6.4",
    .restrictions = "3D torus 7^i x 7^i x 7^i, all-port",
    .rounding = "none: other sizes are refused",
    .params = lee_params,
    .check = lee_long_check,
    .generate = lee_long_generate,
    .closed_form = lee_long_closed,
};

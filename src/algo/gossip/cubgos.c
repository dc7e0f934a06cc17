/*
 * cubgos — CUBGOS of Juurlink, Rao, Sibeyn 1996 section 6.2 (Definition 1, Lemma 9, Lemma 10,
 * Theorem 4) with the parameters of Juurlink, Rao, Sibeyn 1998's CUBGOS(n, a, b): TORGOS on
 * the generalized diagonals of a d-dimensional torus or mesh, any d >= 2.
 *
 * Every node's data is cut into P = d pieces (colours). Colour c works with
 * the axes rotated: its axis sequence is A_i = (c + i) mod d, so in every
 * step the d colours use d different axes. Let s = n0/a. The concentration
 * points are the nodes with sum_k x_k = 0 (mod s): the discrete diagonal of
 * every s x ... x s subtorus (Lemma 9: it meets every line along every axis
 * in one point per s nodes, so projections along any axis are bijective).
 * For colour c (axes written A_0, A_1, ...):
 *   Phase 1: along A_0, the s nodes around each point concentrate their
 *     colour-c pieces into it by threes (ceil(log3 s) steps).
 *   Phase 2: for i = 0..d-1 in turn, the n/s points on every line along
 *     A_i circulate their data (floor(a/2) steps each, Approach 1 among the
 *     points); afterwards point x holds every origin y with
 *     y_{A_i} = x_{A_i} (mod s) for i >= 1 (all y_{A_0}).
 *   Phase 3, round j (s_0 = s, s_{j+1} = s_j/b_j): (a) along A_0 the data
 *     D of the old points is streamed into the b_j - 1 new points between
 *     them (x_j steps, D cut into 2x_j - b_j + 2 parts by origin coordinate
 *     A_0, as torgos 4.a); (b) for i = 1..d-1 in turn, the points (spacing
 *     s_{j+1}) on every line along A_i circulate for floor(b_j/2) steps, so
 *     that y_{A_i} = x_{A_i} (mod s_{j+1}). After the last round every node
 *     holds everything. For d = 2 this is torgos with the diagonal
 *     x0 + x1 = 0 (mod s) instead of x0 - x1.
 * CUBGOS(n, d) of Juurlink, Rao, Sibeyn 1996 is cubgos:a=3,b=3,x=1.
 * Rounds: ceil(log3 s) + d floor(a/2) + sum_j (x_j + (d-1) floor(b_j/2)).
 * Cost (torus n^d, wormhole, t'_l = l t_l, distance neglected): phase 1
 *   ceil(log3 s) t_s + about s/(2d) t'_l; phase 2, axis i: floor(a/2)(t_s +
 *   n/d (n/s)^(i-1) t'_l) (i >= 1; axis 0: s/d); round j, (a): x_j (t_s +
 *   ceil(n/k_j) (n/s_j)^(d-1)/d t'_l), (b) axis i: floor(b_j/2)(t_s + n/d
 *   (n/s_{j+1})^(i-1) (n/s_j)^(d-i) t'_l). Lemma 10 / Theorem 4 count real
 *   logarithms (docs/paper-notes.md).
 * Restrictions: tori and meshes of d >= 2 dimensions; a divides n0 and
 *   s = n0/a divides every extent; all-port.
 * Rounding: as torgos (a = auto, greedy factoring of s into b's, x_j >=
 *   floor(b_j/2)); meshes run the torus schedule with an extra round for
 *   wrap-around transfers (src/algo/meshemu.h).
 *
 * Trace, torus:3x3x3, a = 1, b = 3, x = 1 (s = 3): round 0: along each
 * colour's first axis the two neighbours of a point send it their piece;
 * round 1 (4.a): points send their 3 pieces to both neighbours on that axis;
 * rounds 2-3 (4.b): exchange with the neighbours along the second, then the
 * third axis of the colour (3 and 9 pieces).
 */
#include "diagonal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static mg_status make_plan(const mg_problem_spec *pb, const mg_params *ps, mg_dg_plan *p, mg_err *err) {
  int64_t a;
  mg_status st;
  const mg_topo *t = &pb->topo;
  memset(p, 0, sizeof *p);
  uint32_t n0 = t->n[0], nmin = n0;
  for (int k = 0; k < t->d; k++)
    if (t->n[k] < nmin) nmin = t->n[k];
  /* a = auto: 3 if n0/3 divides every extent, else the least a that does */
  int64_t def = 0;
  for (int64_t c = 3; c <= n0 + 2 && !def; c = c == 3 ? 2 : c == 2 ? 4 : c + 1) {
    if (c > n0 || n0 % c) continue;
    uint32_t s = n0 / (uint32_t)c;
    int ok = 1;
    for (int k = 1; k < t->d; k++)
      ok &= t->n[k] % s == 0;
    if (ok) def = c;
  }
  if ((st = mg_param_int(ps, "a", def, 1, n0, &a, err)) != MG_OK) return st;
  if (n0 % a) return mg_fail(err, MG_ERR_UNSUPPORTED, "cubgos: a=%lld does not divide the extent %u", (long long)a, n0);
  p->s = n0 / (uint32_t)a;
  for (int k = 1; k < t->d; k++)
    if (t->n[k] % p->s)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "cubgos: the spacing n0/a = %u does not divide the extent %u", p->s,
                     t->n[k]);
  if ((st = mg_dg_plan_rounds(p, ps, "cubgos", nmin, err)) != MG_OK) return st;
  p->n[0] = n0;
  return mg_dg_plan_conc(p, err);
}

static mg_status cg_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "cubgos is a gossip algorithm");
  if (pb->topo.kind != MG_TOPO_GRID || pb->topo.d < 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "cubgos needs a torus or mesh of 2 or more dimensions");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "cubgos sends its d colours along d axes at once: it needs all-port");
  mg_dg_plan p;
  mg_status st = make_plan(pb, ps, &p, err);
  mg_dg_plan_free(&p);
  return st;
}

/* One colour: its axis sequence. */
typedef struct cg_col {
  int d, A[MG_MAX_DIMS];
  const mg_topo *t;
  uint32_t piece;
} cg_col;

enum { PH_CONC, PH_RING, PH_4A, PH_4B };
typedef struct cg_phase {
  int kind, j, i; /* round j; axis index i (A_i) */
} cg_phase;

static int list_phases(const mg_dg_plan *p, int d, cg_phase *ph) {
  int n = 0;
  ph[n++] = (cg_phase){PH_CONC, 0, 0};
  for (int i = 0; i < d; i++)
    ph[n++] = (cg_phase){PH_RING, 0, i};
  for (int j = 0; j < p->t; j++) {
    ph[n++] = (cg_phase){PH_4A, j, 0};
    for (int i = 1; i < d; i++)
      ph[n++] = (cg_phase){PH_4B, j, i};
  }
  return n;
}

static uint32_t s_at(const mg_dg_plan *p, int j) {
  uint32_t s = p->s;
  for (int i = 0; i < j; i++)
    s /= p->b[i];
  return s;
}

static uint32_t ext(const cg_col *c, int i) { return c->t->n[c->A[i]]; }

static uint32_t steps(const mg_dg_plan *p, const cg_col *c, cg_phase ph) {
  switch (ph.kind) {
  case PH_CONC: return (uint32_t)p->nlev;
  case PH_RING: return ext(c, ph.i) / p->s / 2;
  case PH_4A: return p->x[ph.j];
  default: return p->b[ph.j] / 2;
  }
}

static uint32_t wrapu(int64_t u, uint32_t n) { return (uint32_t)(((u % n) + n) % n); }

/* Calls fn for every line along axis ax: base node (x_ax = 0) and the
 * position of its first point for spacing sp (sum x = 0 mod sp). */
typedef mg_status (*line_fn)(void *arg, uint32_t base, uint32_t first, mg_err *err);

static mg_status each_line(const mg_topo *t, int ax, uint32_t sp, line_fn fn, void *arg, mg_err *err) {
  uint32_t stride = t->stride[ax], lines = t->N / t->n[ax], x[MG_MAX_DIMS];
  mg_status st = MG_OK;
  for (uint32_t l = 0; l < lines && st == MG_OK; l++) {
    uint32_t base = (l / stride) * stride * t->n[ax] + l % stride;
    mg_topo_coords(t, base, x);
    uint64_t rest = 0;
    for (int k = 0; k < t->d; k++)
      rest += x[k];
    st = fn(arg, base, (uint32_t)((sp - rest % sp) % sp), err);
  }
  return st;
}

typedef struct step_ctx {
  const mg_dg_plan *p;
  const cg_col *c;
  cg_phase ph;
  uint32_t t; /* step: 0-based for PH_CONC, 1-based otherwise */
  mg_emit *e;
} step_ctx;

static mg_transfer mk(const step_ctx *x, uint32_t base, int ax, uint32_t pos, int32_t hops) {
  const mg_topo *t = x->c->t;
  uint32_t n = t->n[ax];
  mg_transfer tr =
      mg_xfer_line(base + (pos % n) * t->stride[ax], base + wrapu((int64_t)pos + hops, n) * t->stride[ax], ax, hops);
  tr.sel.flags = MG_SEL_PIECE;
  tr.sel.piece = x->c->piece;
  return tr;
}

static void box_axis(mg_transfer *tr, const mg_topo *t, int ax, uint32_t lo, uint32_t len) {
  tr->sel.flags |= MG_SEL_BOX;
  memset(&tr->sel.box, 0, sizeof tr->sel.box);
  tr->sel.box.lo[ax] = lo % t->n[ax];
  tr->sel.box.len[ax] = len >= t->n[ax] ? 0 : len;
}

static mg_status line_step(void *arg, uint32_t base, uint32_t first, mg_err *err) {
  step_ctx *x = arg;
  const mg_dg_plan *p = x->p;
  const mg_topo *t = x->c->t;
  mg_status st = MG_OK;
  int ax = x->c->A[x->ph.kind == PH_CONC || x->ph.kind == PH_4A ? 0 : x->ph.i];
  uint32_t n = t->n[ax];
  if (x->ph.kind == PH_CONC) {
    for (uint32_t pt = first; pt < n && st == MG_OK; pt += p->s)
      for (size_t i = 0; i < p->nmv[x->t] && st == MG_OK; i++) {
        const mg_dg_move *mv = &p->mv[x->t][i];
        mg_transfer tr = mk(x, base, ax, wrapu((int64_t)pt + mv->from, n), mv->to - mv->from);
        st = mg_emit_add(x->e, &tr, err);
      }
    return st;
  }
  if (x->ph.kind == PH_4A) {
    uint32_t sj = s_at(p, x->ph.j), sn = s_at(p, x->ph.j + 1), b = p->b[x->ph.j], xx = p->x[x->ph.j];
    uint32_t k = 2 * xx + 2 - b, t1 = x->t;
    for (uint32_t pt = first % sj; pt < n && st == MG_OK; pt += sj)
      for (uint32_t i = 0; i < k && st == MG_OK; i++) {
        uint32_t clo = (uint32_t)((uint64_t)i * n / k), chi = (uint32_t)((uint64_t)(i + 1) * n / k);
        int64_t h = (int64_t)t1 - (int64_t)i;
        if (h >= 1 && h <= (int64_t)b - 1 && h <= (int64_t)xx - (int64_t)i) {
          mg_transfer tr = mk(x, base, ax, wrapu((int64_t)pt + (h - 1) * sn, n), (int32_t)sn);
          box_axis(&tr, t, ax, clo, chi - clo);
          st = mg_emit_add(x->e, &tr, err);
        }
        h = (int64_t)t1 - (int64_t)(k - 1 - i);
        if (st == MG_OK && h >= 1 && h <= (int64_t)b - 1 && h <= (int64_t)b - (int64_t)xx + (int64_t)i - 1) {
          mg_transfer tr = mk(x, base, ax, wrapu((int64_t)pt - (h - 1) * sn, n), -(int32_t)sn);
          box_axis(&tr, t, ax, clo, chi - clo);
          st = mg_emit_add(x->e, &tr, err);
        }
      }
    return st;
  }
  /* rings among the points of the line: phase 2 (spacing s, whole ring) or
   * 3.b (spacing s_{j+1}, a window of b_j points) */
  uint32_t sp = x->ph.kind == PH_RING ? p->s : s_at(p, x->ph.j + 1), cnt = n / sp;
  uint32_t window = x->ph.kind == PH_RING ? cnt : p->b[x->ph.j], mod = s_at(p, x->ph.j);
  int32_t lo = -(int32_t)((p->s - 1) / 2);
  for (uint32_t m = 0; m < cnt && st == MG_OK; m++)
    for (int dir = 1; dir >= -1 && st == MG_OK; dir -= 2) {
      if (dir < 0 && window % 2 == 0 && x->t == window / 2) break;
      uint32_t origin = wrapu((int64_t)m - dir * (int64_t)(x->t - 1), cnt);
      uint32_t pos = first % sp + m * sp, opos = first % sp + origin * sp;
      mg_transfer tr = mk(x, base, ax, pos, dir * (int32_t)sp);
      if (x->ph.kind == PH_RING && x->ph.i == 0) {
        box_axis(&tr, t, ax, wrapu((int64_t)opos + lo, n), p->s);
      } else if (x->ph.kind == PH_RING) {
        box_axis(&tr, t, ax, opos, 1);
      } else {
        tr.sel.flags |= MG_SEL_COLOR;
        memset(tr.sel.color_w, 0, sizeof tr.sel.color_w);
        tr.sel.color_w[ax] = 1;
        tr.sel.color_m = mod;
        tr.sel.color_c = opos % mod;
      }
      st = mg_emit_add(x->e, &tr, err);
    }
  return st;
}

static void colours(const mg_topo *t, cg_col *c) {
  for (int w = 0; w < t->d; w++) {
    c[w].d = t->d;
    c[w].t = t;
    c[w].piece = (uint32_t)w;
    for (int i = 0; i < t->d; i++)
      c[w].A[i] = (w + i) % t->d;
  }
}

static mg_status cg_generate_torus(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_dg_plan p;
  cg_phase ph[2 + MG_MAX_DIMS * (MG_DG_MAX_ROUNDS + 1)];
  cg_col c[MG_MAX_DIMS];
  int d = pb->topo.d;
  mg_emit e;
  mg_status st;
  memset(&e, 0, sizeof e);
  MG_CHECK(make_plan(pb, ps, &p, err));
  colours(&pb->topo, c);
  int nph = list_phases(&p, d, ph);
  int64_t hint = 0;
  for (int i = 0; i < nph; i++) {
    uint32_t most = 0;
    for (int w = 0; w < d; w++)
      if (steps(&p, &c[w], ph[i]) > most) most = steps(&p, &c[w], ph[i]);
    hint += most;
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "cubgos", ps, (uint32_t)d, 0, hint, err));
  for (int i = 0; i < nph; i++) {
    uint32_t most = 0;
    for (int w = 0; w < d; w++)
      if (steps(&p, &c[w], ph[i]) > most) most = steps(&p, &c[w], ph[i]);
    for (uint32_t t = 0; t < most; t++) {
      for (int w = 0; w < d; w++) {
        if (t >= steps(&p, &c[w], ph[i])) continue;
        step_ctx x = {.p = &p, .c = &c[w], .ph = ph[i], .t = ph[i].kind == PH_CONC ? t : t + 1, .e = &e};
        int ax = c[w].A[ph[i].kind == PH_CONC || ph[i].kind == PH_4A ? 0 : ph[i].i];
        uint32_t sp = ph[i].kind == PH_CONC || ph[i].kind == PH_RING ? p.s
                      : ph[i].kind == PH_4A                          ? s_at(&p, ph[i].j)
                                                                     : s_at(&p, ph[i].j + 1);
        MG_CHECK(each_line(&pb->topo, ax, sp, line_step, &x, err));
      }
      MG_CHECK(mg_emit_round(&e, err));
    }
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_dg_plan_free(&p);
  return st;
}

static int is_torus(const mg_topo *t) { return mg_topo_is_torus(t); }

static mg_status cg_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  if (is_torus(&pb->topo)) return cg_generate_torus(pb, ps, sink, err);
  mg_meshemu m;
  mg_problem_spec pbt;
  mg_sink inner;
  mg_meshemu_init(&m, pb, sink, &pbt, &inner);
  mg_status st = cg_generate_torus(&pbt, ps, &inner, err);
  mg_meshemu_free(&m);
  return st;
}

/* Recount of the torus schedule step by step (see the header). */
static double plan_cost(const mg_dg_plan *p, const mg_problem_spec *pb) {
  const mg_model *m = &pb->model;
  int d = pb->topo.d;
  double piece = pb->bytes / d, total = 0;
  cg_col c[MG_MAX_DIMS];
  cg_phase ph[2 + MG_MAX_DIMS * (MG_DG_MAX_ROUNDS + 1)];
  colours(&pb->topo, c);
  int nph = list_phases(p, d, ph);
  for (int i = 0; i < nph; i++) {
    uint32_t most = 0;
    for (int w = 0; w < d; w++)
      if (steps(p, &c[w], ph[i]) > most) most = steps(p, &c[w], ph[i]);
    for (uint32_t t = 0; t < most; t++) {
      double worst = 0;
      for (int w = 0; w < d; w++) {
        const cg_col *cc = &c[w];
        if (t >= steps(p, cc, ph[i])) continue;
        double hops = 0, items = 0;
        if (ph[i].kind == PH_CONC) {
          double v = mg_dg_conc_step(p, t, m, piece);
          if (v > worst) worst = v;
          continue;
        }
        if (ph[i].kind == PH_RING) {
          hops = p->s;
          items = ph[i].i == 0 ? p->s : ext(cc, 0);
          for (int k = 1; k < ph[i].i; k++)
            items *= ext(cc, k) / p->s;
        } else if (ph[i].kind == PH_4A) {
          uint32_t sj = s_at(p, ph[i].j), k = 2 * p->x[ph[i].j] + 2 - p->b[ph[i].j];
          hops = s_at(p, ph[i].j + 1);
          items = (double)((ext(cc, 0) + k - 1) / k);
          for (int q = 1; q < d; q++)
            items *= ext(cc, q) / sj;
        } else {
          uint32_t sj = s_at(p, ph[i].j), sn = s_at(p, ph[i].j + 1);
          hops = sn;
          items = ext(cc, 0);
          for (int q = 1; q < d; q++)
            items *= ext(cc, q) / (q < ph[i].i ? sn : sj);
        }
        double v = hops * m->td + items * piece * m->tl;
        if (v > worst) worst = v;
      }
      total += m->ts + worst;
    }
  }
  return total;
}

/* The recount of a parameter set's torus schedule. */
static mg_status cg_price(void *arg, const mg_params *ps, double *cost, mg_err *err) {
  const mg_problem_spec *pt = arg;
  mg_dg_plan p;
  mg_status st = make_plan(pt, ps, &p, err);
  if (st != MG_OK) return st;
  *cost = plan_cost(&p, pt);
  mg_dg_plan_free(&p);
  return MG_OK;
}

static mg_status cg_closed(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  if (!is_torus(&pb->topo)) return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for tori only (meshes add rounds)");
  if (pb->model.switching != MG_SW_WORMHOLE || pb->model.contention != MG_CONT_STRICT)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for strict wormhole routing only");
  return cg_price((void *)pb, ps, cost, err);
}

/* tune: a, uniform b dividing s with x in [floor(b/2), b + b/4], and per a
 * the best b_j, x_j round by round (mg_dg_candidates), ranked by the
 * recount on the torus; the best few simulated. */

static mg_status cg_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  mg_problem_spec pt = *pb;
  for (int k = 0; k < pt.topo.d; k++)
    pt.topo.wrap[k] = 1;
  pt.model.switching = MG_SW_WORMHOLE;
  return mg_dg_candidates(pb->topo.n[0], 0, 4, cg_price, &pt, visit, arg, "cubgos", err);
}

static const mg_param_desc cg_params[] = {
    {"a", "auto", "points per line along axis 0 (spacing s = n0/a); auto: 3 if n0/3 divides every extent"},
    {"b", "3", "factor per round, or a list b0/b1/... multiplying to n0/a"},
    {"x", "auto", "steps of phase 3.a per round (>= floor(b/2)), or a list; auto = floor(b/2)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_cubgos = {
    .name = "cubgos",
    .problem = MG_GOSSIP,
    .summary = "CUBGOS(n,a,b): TORGOS on generalized diagonals, d colours on rotated axes, any d >= 2",
    .paper = "Juurlink, Rao, Sibeyn 1996 section 6 (Definition 1, Lemmas 9-10, Theorem 4); Juurlink, Rao, Sibeyn 1998 "
             "CUBGOS(n,a,b)",
    .restrictions = "tori and meshes of d >= 2 dimensions; a divides n0 and n0/a divides every extent; all-port",
    .rounding = "a = auto takes 3 or the least a whose spacing divides every extent; b factors n0/a greedily, "
                "the last round takes the remaining factor; x_i >= floor(b_i/2); meshes add a round for "
                "transfers that would wrap around",
    .params = cg_params,
    .check = cg_check,
    .generate = cg_generate,
    .closed_form = cg_closed,
    .candidates = cg_candidates,
};

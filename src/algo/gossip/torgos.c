/*
 * torgos — TORGOS(a, b_i, x_i) of Juurlink, Rao, Sibeyn 1996 section 5.2 (Lemma 8, eqs.
 * (5)-(6)); Juurlink, Rao, Sibeyn 1998's TORGOS(n, a, b) with its invariant "data available
 * on a diagonal of every n/a x n/a submesh".
 *
 * Every node's data is cut into P = 2 pieces: piece 0 is white, piece 1
 * black. White runs the algorithm below with rows along axis 0 (u = x0)
 * and columns along axis 1 (v = x1); black runs the same with the axes
 * swapped, so in every round white and black use orthogonal arcs. Let
 * s = n0/a; the concentration points are the nodes with (x0 - x1) mod s = 0
 * (diagonals; the same nodes for both colours).
 *   Phase 1: in every row, the s nodes nearest a point concentrate their
 *     white pieces into it by threes (ceil(log3 s) steps, groups centred on
 *     the point, as concentrate.c).
 *   Phase 2: the a points of a row circulate their segments, floor(a/2)
 *     steps of s/2 units (Approach 1 among the points).
 *   Phase 3: the n1/s points of a column circulate their rows, floor/2
 *     steps of n0/2 units; now point (u, v) holds rows = v (mod s) whole.
 *   Phase 4, round j = 0..t-1 (s_0 = s, s_{j+1} = s_j / b_j):
 *     4.a in every row, each old point passes its data D (rows = v mod s_j,
 *       S_j = n0 * n1/s_j / 2 units) to the b_j - 1 new points between it and
 *       the next old point: D is cut by origin column into k = 2x_j - b_j + 2
 *       parts, streamed rightwards in order from the left old point and
 *       leftwards in reverse order from the right one; new point m gets parts
 *       0..x_j-m from the left and the rest from the right (x_j steps of
 *       ceil(n0/k) columns of D).
 *     4.b in every column, the points (spacing s_{j+1}) circulate their data
 *       for floor(b_j/2) steps (S_j units each), so each holds rows = v mod
 *       s_{j+1}. After the last round s_t = 1: everybody holds everything.
 * Rounds: ceil(log3 s) + 2 floor(a/2) + sum_j (x_j + floor(b_j/2)) (square).
 * Cost (torus n x n, wormhole, t'_l = l t_l, distance neglected):
 *   phase 1: ceil(log3 s) t_s + the concentration's units (about s/4);
 *   phase 2: floor(a/2) (t_s + s/2 t'_l); phase 3: floor(a/2)(t_s + n/2 t'_l);
 *   4.a_j: x_j (t_s + ceil(n/k_j) * n/s_j /2 t'_l); 4.b_j: floor(b_j/2)(t_s +
 *   n^2/(2 s_j) t'_l) — Lemma 8 with whole start-up counts (its phase 1 uses
 *   log3(n/(2a)), eqs. (5)-(6) bound sum_j S_j by n^2/(2(b-1));
 *   docs/paper-notes.md).
 * Restrictions: 2D tori and meshes; a divides n0 and s = n0/a divides n1;
 *   all-port (a point sends along both axes at once).
 * Rounding: b given as one value factors s greedily into b's and takes the
 *   remaining factor as the last round (s = 12, b = 3: rounds 3, 4; b not
 *   dividing s: one round of s); x_j = max(x, floor(b_j/2)); k_j columns
 *   parts are cut as evenly as the extents allow. Meshes run the torus
 *   schedule with extra routing rounds for the transfers that would use a
 *   wrap-around link (src/algo/meshemu.h).
 * Parameters: a (default 3), b (default 3, or a list "3/9" of per-round
 *   b_i), x (default: floor(b_i/2); or a list "1/4"), finish (phase4;
 *   period9: from spacing 9, four searched rounds in place of phase 4,
 *   torgos_finish.c; pair9: seven rounds on 27 x 27, its own gather to two
 *   points a class and a three-round finish, torgos_pair.c).
 *
 * Trace, torus:9x9, a = 3, b = 3, x = 1 (s = 3): round 0: nodes next to a
 * point send their white piece along the row (black: along the column) to it;
 * round 1: each point sends its segment (3 pieces) to the points s to the
 * right and left; round 2: points circulate rows in their column (9 pieces);
 * round 3 (4.a): each point sends its 27 white pieces to both row neighbours;
 * round 4 (4.b): every node exchanges 27 pieces with its column neighbours.
 */
#include "diagonal.h"
#include "torgos_finish.h"
#include "torgos_pair.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* finish: 0 = phase 4 (the paper), 1 = period9 (torgos_finish.c), 2 = pair9
 * (torgos_pair.c: its own gather too) */
static mg_status make_plan(const mg_problem_spec *pb, const mg_params *ps, mg_dg_plan *p, int *finish, mg_err *err) {
  int64_t a;
  mg_status st;
  memset(p, 0, sizeof *p);
  const char *fv = mg_param_given(ps, "finish");
  *finish = 0;
  if (fv && strcmp(fv, "phase4")) {
    if (strcmp(fv, "period9") && strcmp(fv, "pair9"))
      return mg_fail(err, MG_ERR_INVALID, "torgos: finish=%s: phase4, period9 or pair9", fv);
    *finish = strcmp(fv, "period9") ? 2 : 1;
  }
  p->n[0] = pb->topo.n[0];
  p->n[1] = pb->topo.n[1];
  /* a = auto: 3 as in the paper's tables if it fits, else the least a >= 2
   * that fits (a = n0, spacing 1, always does); with the finish, the a of
   * spacing 9 */
  int64_t def = 3;
  if (*finish && p->n[0] % MG_TF_PERIOD == 0)
    def = p->n[0] / MG_TF_PERIOD;
  else if (p->n[0] % 3 || p->n[1] % (p->n[0] / 3))
    for (def = 2; def < p->n[0] && (p->n[0] % def || p->n[1] % (p->n[0] / (uint32_t)def)); def++) {
    }
  if ((st = mg_param_int(ps, "a", def, 1, p->n[0], &a, err)) != MG_OK) return st;
  if (p->n[0] % a)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos: a=%lld does not divide the extent %u", (long long)a, p->n[0]);
  p->s = p->n[0] / (uint32_t)a;
  if (p->n[1] % p->s)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos: the segment n0/a = %u does not divide the extent %u", p->s,
                   p->n[1]);
  uint32_t nmin = p->n[0] < p->n[1] ? p->n[0] : p->n[1];
  if (*finish) {
    /* the finish replaces phase 4: no b_j, x_j */
    if (mg_param_given(ps, "b") || mg_param_given(ps, "x"))
      return mg_fail(err, MG_ERR_INVALID, "torgos: finish=%s replaces phase 4, so b and x do not apply", fv);
    if ((st = mg_tf_check(&pb->topo, p->s, fv, err)) != MG_OK) return st;
  } else if ((st = mg_dg_plan_rounds(p, ps, "torgos", nmin, err)) != MG_OK)
    return st;
  return mg_dg_plan_conc(p, err);
}

static mg_status tg_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  if (pb->problem != MG_GOSSIP) return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos is a gossip algorithm");
  if (pb->topo.kind != MG_TOPO_GRID || pb->topo.d != 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos needs a 2D torus or mesh");
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "torgos sends white and black pieces at once: it needs all-port");
  mg_dg_plan p;
  int finish;
  mg_status st = make_plan(pb, ps, &p, &finish, err);
  mg_dg_plan_free(&p);
  return st;
}

/* Geometry of one colour: rows along axis A, columns along axis B. */
typedef struct tg_col {
  int A, B;
  uint32_t nA, nB;
  const mg_topo *t;
  uint32_t piece;
} tg_col;

static uint32_t node(const tg_col *c, uint32_t u, uint32_t v) {
  return (u % c->nA) * c->t->stride[c->A] + (v % c->nB) * c->t->stride[c->B];
}
static uint32_t wrapu(int64_t u, uint32_t n) { return (uint32_t)(((u % n) + n) % n); }

static mg_transfer xfer(const tg_col *c, int along_A, uint32_t u, uint32_t v, int32_t hops) {
  uint32_t src = node(c, u, v);
  uint32_t dst = along_A ? node(c, wrapu((int64_t)u + hops, c->nA), v) : node(c, u, wrapu((int64_t)v + hops, c->nB));
  mg_transfer tr = mg_xfer_line(src, dst, along_A ? c->A : c->B, hops);
  tr.sel.flags = MG_SEL_PIECE;
  tr.sel.piece = c->piece;
  return tr;
}

/* BOX of origins: axis A interval [alo, alo+alen), axis B [blo, blo+blen)
 * (length 0 = whole axis). */
static void set_box(mg_transfer *tr, const tg_col *c, uint32_t alo, uint32_t alen, uint32_t blo, uint32_t blen) {
  tr->sel.flags |= MG_SEL_BOX;
  memset(&tr->sel.box, 0, sizeof tr->sel.box);
  tr->sel.box.lo[c->A] = alo % c->nA;
  tr->sel.box.len[c->A] = alen >= c->nA ? 0 : alen;
  tr->sel.box.lo[c->B] = blo % c->nB;
  tr->sel.box.len[c->B] = blen >= c->nB ? 0 : blen;
}

enum { PH_CONC, PH_ROW, PH_COL, PH_4A, PH_4B };

typedef struct tg_phase {
  int kind, j;
} tg_phase;

static int list_phases(const mg_dg_plan *p, tg_phase *ph) {
  int n = 0;
  ph[n++] = (tg_phase){PH_CONC, 0};
  ph[n++] = (tg_phase){PH_ROW, 0};
  ph[n++] = (tg_phase){PH_COL, 0};
  for (int j = 0; j < p->t; j++) {
    ph[n++] = (tg_phase){PH_4A, j};
    ph[n++] = (tg_phase){PH_4B, j};
  }
  return n;
}

static uint32_t s_at(const mg_dg_plan *p, int j) {
  uint32_t s = p->s;
  for (int i = 0; i < j; i++)
    s /= p->b[i];
  return s;
}

static uint32_t steps(const mg_dg_plan *p, const tg_col *c, tg_phase ph) {
  switch (ph.kind) {
  case PH_CONC: return (uint32_t)p->nlev;
  case PH_ROW: return c->nA / p->s / 2;
  case PH_COL: return c->nB / p->s / 2;
  case PH_4A: return p->x[ph.j];
  default: return p->b[ph.j] / 2;
  }
}

typedef struct ring_ctx {
  const mg_dg_plan *p;
  const tg_col *c;
  mg_emit *e;
  int kind;         /* PH_ROW, PH_COL or PH_4B */
  uint32_t line;    /* v for rows, u for columns */
  uint32_t sp, mod; /* spacing of the points; rows-class modulus (4.b) */
} ring_ctx;

static mg_status ring_emit(void *arg, uint32_t m, int dir, uint32_t origin, mg_err *err) {
  ring_ctx *r = arg;
  const tg_col *c = r->c;
  mg_transfer tr;
  if (r->kind == PH_ROW) {
    uint32_t v = r->line, u = v % r->sp + m * r->sp, uo = v % r->sp + origin * r->sp;
    tr = xfer(c, 1, u, v, dir * (int32_t)r->sp);
    int32_t lo = -(int32_t)((r->p->s - 1) / 2);
    set_box(&tr, c, wrapu((int64_t)uo + lo, c->nA), r->p->s, v, 1);
  } else {
    uint32_t u = r->line, v = u % r->sp + m * r->sp, vo = u % r->sp + origin * r->sp;
    tr = xfer(c, 0, u, v, dir * (int32_t)r->sp);
    if (r->kind == PH_COL) {
      set_box(&tr, c, 0, 0, vo, 1);
    } else {
      /* rows = vo (mod s_j): the data the origin point held before 4.b */
      tr.sel.flags |= MG_SEL_COLOR;
      memset(tr.sel.color_w, 0, sizeof tr.sel.color_w);
      tr.sel.color_w[c->B] = 1;
      tr.sel.color_m = r->mod;
      tr.sel.color_c = vo % r->mod;
    }
  }
  return mg_emit_add(r->e, &tr, err);
}

static mg_status emit_step(const mg_dg_plan *p, const tg_col *c, tg_phase ph, uint32_t t, mg_emit *e, mg_err *err) {
  mg_status st = MG_OK;
  uint32_t s = p->s;
  if (ph.kind == PH_CONC) {
    for (uint32_t v = 0; v < c->nB && st == MG_OK; v++)
      for (uint32_t pt = v % s; pt < c->nA && st == MG_OK; pt += s)
        for (size_t i = 0; i < p->nmv[t] && st == MG_OK; i++) {
          const mg_dg_move *mv = &p->mv[t][i];
          mg_transfer tr = xfer(c, 1, wrapu((int64_t)pt + mv->from, c->nA), v, mv->to - mv->from);
          st = mg_emit_add(e, &tr, err);
        }
    return st;
  }
  if (ph.kind == PH_ROW || ph.kind == PH_COL || ph.kind == PH_4B) {
    ring_ctx r = {.p = p, .c = c, .e = e, .kind = ph.kind};
    uint32_t lines = ph.kind == PH_ROW ? c->nB : c->nA, cnt;
    if (ph.kind == PH_ROW)
      r.sp = s, cnt = c->nA / s;
    else if (ph.kind == PH_COL)
      r.sp = s, cnt = c->nB / s;
    else
      r.sp = s_at(p, ph.j + 1), r.mod = s_at(p, ph.j), cnt = c->nB / r.sp;
    /* 4.b: a window of b_j points, not the whole column */
    uint32_t window = ph.kind == PH_4B ? p->b[ph.j] : cnt;
    for (uint32_t l = 0; l < lines && st == MG_OK; l++) {
      r.line = l;
      for (uint32_t m = 0; m < cnt && st == MG_OK; m++) {
        st = ring_emit(&r, m, +1, (uint32_t)wrapu((int64_t)m - (t - 1), cnt), err);
        if (st == MG_OK && !(window % 2 == 0 && t == window / 2))
          st = ring_emit(&r, m, -1, (uint32_t)wrapu((int64_t)m + (t - 1), cnt), err);
      }
    }
    return st;
  }
  /* 4.a: pipelined streams between old points (spacing sj) through the new
   * ones (spacing sn) */
  uint32_t sj = s_at(p, ph.j), sn = s_at(p, ph.j + 1), b = p->b[ph.j], x = p->x[ph.j];
  uint32_t k = 2 * x + 2 - b;
  for (uint32_t v = 0; v < c->nB && st == MG_OK; v++)
    for (uint32_t pt = v % sj; pt < c->nA && st == MG_OK; pt += sj)
      for (uint32_t i = 0; i < k && st == MG_OK; i++) {
        uint32_t clo = (uint32_t)((uint64_t)i * c->nA / k), chi = (uint32_t)((uint64_t)(i + 1) * c->nA / k);
        int64_t h = (int64_t)t - (int64_t)i; /* rightward stream: hop h reaches new point h */
        if (h >= 1 && h <= (int64_t)b - 1 && h <= (int64_t)x - (int64_t)i) {
          mg_transfer tr = xfer(c, 1, wrapu((int64_t)pt + (h - 1) * sn, c->nA), v, (int32_t)sn);
          set_box(&tr, c, clo, chi - clo, 0, 0);
          st = mg_emit_add(e, &tr, err);
        }
        h = (int64_t)t - (int64_t)(k - 1 - i); /* leftward stream, reverse order */
        if (st == MG_OK && h >= 1 && h <= (int64_t)b - 1 && h <= (int64_t)b - (int64_t)x + (int64_t)i - 1) {
          mg_transfer tr = xfer(c, 1, wrapu((int64_t)pt - (h - 1) * sn, c->nA), v, -(int32_t)sn);
          set_box(&tr, c, clo, chi - clo, 0, 0);
          st = mg_emit_add(e, &tr, err);
        }
      }
  return st;
}

static void colours(const mg_topo *t, tg_col c[2]) {
  for (int w = 0; w < 2; w++) {
    c[w].A = w;
    c[w].B = 1 - w;
    c[w].nA = t->n[w];
    c[w].nB = t->n[1 - w];
    c[w].t = t;
    c[w].piece = (uint32_t)w;
  }
}

static mg_status tg_generate_torus(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_dg_plan p;
  tg_phase ph[3 + 2 * MG_DG_MAX_ROUNDS];
  tg_col c[2];
  mg_emit e;
  mg_tf_state fin = {0};
  int finish = 0;
  mg_status st;
  memset(&e, 0, sizeof e);
  MG_CHECK(make_plan(pb, ps, &p, &finish, err));
  colours(&pb->topo, c);
  int nph = list_phases(&p, ph);
  int64_t hint = 0;
  for (int i = 0; i < nph; i++) {
    uint32_t m0 = steps(&p, &c[0], ph[i]), m1 = steps(&p, &c[1], ph[i]);
    hint += m0 > m1 ? m0 : m1;
  }
  if (finish == 2) {
    /* pair9: its own gather, circulation and finish (torgos_pair.c) */
    MG_CHECK(mg_emit_begin(&e, sink, pb, "torgos", ps, 2, 0, mg_tp_rounds(&pb->topo), err));
    MG_CHECK(mg_tp_emit(&pb->topo, &e, err));
    MG_CHECK(mg_emit_end(&e, err));
    goto out;
  }
  if (finish) {
    hint += mg_tf_rounds(MG_TF_DIAGONAL);
    MG_CHECK(mg_tf_begin(&fin, &pb->topo, MG_TF_DIAGONAL, err));
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "torgos", ps, 2, 0, hint, err));
  for (int i = 0; i < nph; i++) {
    uint32_t m0 = steps(&p, &c[0], ph[i]), m1 = steps(&p, &c[1], ph[i]), most = m0 > m1 ? m0 : m1;
    for (uint32_t t = 0; t < most; t++) {
      for (int w = 0; w < 2; w++)
        if (t < steps(&p, &c[w], ph[i]))
          MG_CHECK(emit_step(&p, &c[w], ph[i], ph[i].kind == PH_CONC ? t : t + 1, &e, err));
      MG_CHECK(mg_emit_round(&e, err));
    }
  }
  for (int r = 0; finish && r < mg_tf_rounds(MG_TF_DIAGONAL); r++) {
    MG_CHECK(mg_tf_emit(&fin, &pb->topo, r, &e, err));
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_tf_free(&fin);
  mg_dg_plan_free(&p);
  return st;
}

static int is_torus(const mg_topo *t) { return t->wrap[0] && t->wrap[1]; }

static mg_status tg_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  if (is_torus(&pb->topo)) return tg_generate_torus(pb, ps, sink, err);
  mg_meshemu m;
  mg_problem_spec pbt;
  mg_sink inner;
  mg_meshemu_init(&m, pb, sink, &pbt, &inner);
  mg_status st = tg_generate_torus(&pbt, ps, &inner, err);
  mg_meshemu_free(&m);
  return st;
}

/* The cost of the torus schedule, recounted step by step from the plan:
 * every step costs t_s plus the largest (hops t_d + bytes t_l) of its
 * messages over both colours (wormhole, contention-free rounds). */
static double plan_cost(const mg_dg_plan *p, int finish, const mg_problem_spec *pb) {
  const mg_model *m = &pb->model;
  if (finish == 2) return mg_tp_cost(&pb->topo, m, pb->bytes);
  double piece = pb->bytes / 2, total = 0;
  tg_col c[2];
  tg_phase ph[3 + 2 * MG_DG_MAX_ROUNDS];
  colours(&pb->topo, c);
  int nph = list_phases(p, ph);
  for (int i = 0; i < nph; i++) {
    uint32_t m0 = steps(p, &c[0], ph[i]), m1 = steps(p, &c[1], ph[i]), most = m0 > m1 ? m0 : m1;
    for (uint32_t t = 0; t < most; t++) {
      double worst = 0;
      for (int w = 0; w < 2; w++) {
        if (t >= steps(p, &c[w], ph[i])) continue;
        double hops = 0, items = 0;
        const tg_col *cc = &c[w];
        switch (ph[i].kind) {
        case PH_CONC: {
          double v = mg_dg_conc_step(p, t, m, piece);
          if (v > worst) worst = v;
          continue;
        }
        case PH_ROW: hops = p->s, items = p->s; break;
        case PH_COL: hops = p->s, items = cc->nA; break;
        case PH_4A: {
          uint32_t k = 2 * p->x[ph[i].j] + 2 - p->b[ph[i].j];
          hops = s_at(p, ph[i].j + 1);
          items = (double)((cc->nA + k - 1) / k) * (cc->nB / s_at(p, ph[i].j));
          break;
        }
        default: hops = s_at(p, ph[i].j + 1), items = (double)cc->nA * (cc->nB / s_at(p, ph[i].j)); break;
        }
        double v = hops * m->td + items * piece * m->tl;
        if (v > worst) worst = v;
      }
      total += m->ts + worst;
    }
  }
  /* the finish's classes: n0 n1 / 9 origins' pieces of one colour */
  for (int r = 0; finish && r < mg_tf_rounds(MG_TF_DIAGONAL); r++)
    total += m->ts + mg_tf_round_cost(MG_TF_DIAGONAL, r, m, (double)p->n[0] * p->n[1] / MG_TF_PERIOD * piece);
  return total;
}

/* The recount of a parameter set's torus schedule. */
static mg_status tg_price(void *arg, const mg_params *ps, double *cost, mg_err *err) {
  const mg_problem_spec *pt = arg;
  mg_dg_plan p;
  int finish;
  mg_status st = make_plan(pt, ps, &p, &finish, err);
  if (st != MG_OK) return st;
  *cost = plan_cost(&p, finish, pt);
  mg_dg_plan_free(&p);
  return MG_OK;
}

static mg_status tg_closed(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  if (!is_torus(&pb->topo)) return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for tori only (meshes add rounds)");
  if (pb->model.switching != MG_SW_WORMHOLE || pb->model.contention != MG_CONT_STRICT)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for strict wormhole routing only");
  return tg_price((void *)pb, ps, cost, err);
}

/* tune: every a with n0/a dividing n1, every uniform b dividing s (and
 * b = s) with every x from floor(b/2) to b + b/4, and per a the best b_j,
 * x_j round by round, and the finishes period9 and pair9 where s = 9
 * (mg_dg_candidates_with); ranked by the recount on the torus
 * (the same for a mesh, whose extra rounds come on top), the best few
 * simulated. */

static mg_status tg_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  mg_problem_spec pt = *pb;
  pt.topo.wrap[0] = pt.topo.wrap[1] = 1;
  pt.model.switching = MG_SW_WORMHOLE;
  static const char *const finishes[] = {"period9", "pair9", NULL};
  return mg_dg_candidates_with(pb->topo.n[0], pb->topo.n[1], 6, tg_price, &pt, finishes, visit, arg, "torgos", err);
}

static const mg_param_desc tg_params[] = {
    {"a", "auto",
     "concentration points per row (n0/a = s, the diagonal spacing); auto: 3 if it fits, else the least that does"},
    {"b", "3", "phase-4 factor per round, or a list b0/b1/... multiplying to n0/a"},
    {"x", "auto", "phase-4a steps per round (>= floor(b/2)), or a list; auto = floor(b/2)"},
    {"finish", "phase4",
     "phase4 (or auto): the paper's phase 4; period9: from the diagonal of spacing n0/a = 9 (extents multiples of 9; "
     "a = auto takes n0/9), four rounds of 1, 1, 2, 3 classes a message (7 D where phase 4 takes 8 D), found by a SAT "
     "search; pair9: both pieces of an origin in one class, gathered in two searched rounds on two points a class of "
     "each 9 x 9 period, circulated along rows and columns, finished in three searched rounds (7 rounds on 27 x 27)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_torgos = {
    .name = "torgos",
    .problem = MG_GOSSIP,
    .summary = "TORGOS(a,b,x): concentrate on diagonals, white/black pieces routed orthogonally",
    .paper = "Juurlink, Rao, Sibeyn 1996 section 5.2, Lemma 8, eqs. (5)-(6); Juurlink, Rao, Sibeyn 1998 TORGOS(n,a,b)",
    .restrictions = "2D tori and meshes; a divides n0 and n0/a divides n1; all-port",
    .rounding = "a = auto takes 3 or the least a whose spacing n0/a divides both extents (with a finish, n0/9); b "
                "factors n0/a greedily, the "
                "last round takes the remaining factor; x_i >= floor(b_i/2); "
                "meshes add a round for transfers that would wrap around",
    .params = tg_params,
    .check = tg_check,
    .generate = tg_generate,
    .closed_form = tg_closed,
    .candidates = tg_candidates,
};

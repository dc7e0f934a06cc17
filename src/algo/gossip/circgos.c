/*
 * circgos — CIRCGOS(a, b) of Juurlink, Rao, Sibeyn 1996 (section 4.2, Lemma 6, Theorem 2)
 * with the pipelined phase 3 of Juurlink, Rao, Sibeyn 1998 (k packets, rightward in order,
 * leftward in reverse order), on rings and lines.
 *
 * Phase 1: the n nodes are cut into a segments [floor(i n/a),
 *   floor((i+1) n/a)); each concentrates by threes (as `concentrate`,
 *   groups from the left, a trailing group of 1 or 2 into its first node)
 *   into one node, its bridgehead. ceil(log3(n/a)) steps.
 * Phase 2: the a bridgeheads pass the segments' data around as Approach 1
 *   does: floor(a/2) steps of n/a units on a ring (a-1 on a line).
 * Phase 3: rounds; in each, every gap between consecutive bridgeheads of
 *   G > a nodes gets a-1 new bridgeheads at offsets floor(j G/a)
 *   (a gap of G <= a gets all its nodes). Each old bridgehead cuts the
 *   complete data into k packets (origin ranges) and streams them through
 *   the new bridgeheads of the gap on its right in order and through those
 *   on its left in reverse order; each new bridgehead forwards what it
 *   received the step before. With m new bridgeheads in a gap and b steps,
 *   new bridgehead j gets b-j+1 packets from the left and b-(m+1-j)+1 from
 *   the right, so k = 2b - m + 1 packets fit (Juurlink, Rao, Sibeyn 1996's n/(2b-a+2)).
 *   Each stream only carries packets the receivers do not get from the
 *   other side, so every new bridgehead receives each packet once.
 *   Rounds: ceil(log_a n) - 1 when n is a power of a.
 * Lines: phase 2 takes a-1 steps; the nodes beyond the first and last
 *   bridgeheads form one-sided gaps, filled from one side (new bridgeheads
 *   at offsets floor(j 2E/a) of the bridgehead, E the end's length); a
 *   one-sided gap of m new nodes needs k + m - 1 steps, so the round takes
 *   max over gaps and k is cut to fit b where it can.
 * Refinement (skip=1): phase 3 transfers carry their packet minus what the
 *   receiver holds (Juurlink, Rao, Sibeyn 1996: "exploiting in Phase 3 that already part of
 *   the data are known"); a round costs less only when every transfer of a
 *   step shrinks, e.g. a=3, b=1, where a new bridgehead already holds its
 *   concentrated third.
 * Refinement (skip=2, ours; circgos_fill.c): as skip=1, and every idle arc
 *   of every step carries what its far end lacks (phase 1's first step
 *   becomes a neighbour exchange), and each gap cuts the data into its own
 *   packets, chosen step by step so that every transfer of a step skips an
 *   item its receiver holds: ring:243 at r = 2, (27, 17), 338 -> 334.
 * Cost (ring, n = a^(m+1), t_d = 0; src/analytic/juurlink.c
 *   mg_jrs_circgos_ring, exact): ceil(log3(n/a)) t_s + units(n/a) t'_l
 *   + floor(a/2)(t_s + n/a t'_l) + m b'(t_s + ceil(n/k) t'_l), with
 *   k = min(k, 2b-a+2) and b' = ceil((k+a-2)/2). Lemma 6 as printed is
 *   mg_jrs_lemma6.
 * Degenerate cases: a = n is Approach 1 (no phase 1, no phase 3); a = 3,
 *   b = 1 is Approach 2 with three bridgeheads.
 *
 * Trace, ring:9, a=3, b=1: phase 1: 0->1, 2->1, 3->4, 5->4, 6->7, 8->7;
 *   phase 2: 1->4 {0..2}, 4->7 {3..5}, 7->1 {6..8} and leftwards;
 *   phase 3 (gaps 1..4, 4..7, 7..1 of m = 2 new nodes, k = 2b - m + 1 = 1
 *   packet, one step): 1->2, 4->3, 4->5, 7->6, 7->8, 1->0 (-1 hop), all 9
 *   items each. Cost at r: 3 r + 1 + 3 + 9, as concentrate.
 */
#include "../algo_internal.h"

#include "../../analytic/juurlink.h"
#include "circgos_fill.h"

#include <math.h>
#include <string.h>

#define CG_MAX_ROUNDS 64
#define CG_MAX_LEVELS 48

typedef struct cg_cfg {
  uint32_t n;
  int wrap;
  uint32_t a, b, k; /* k = 0: as many packets as b steps allow */
  int skip;
} cg_cfg;

/* What the cost depends on for a given a (b and k aside). */
typedef struct cg_geom {
  int p1_steps;
  double p1_units[CG_MAX_LEVELS]; /* largest message of each phase-1 step */
  uint32_t p2_steps;
  uint32_t maxseg;
  int rounds;
  uint32_t m_two[CG_MAX_ROUNDS], m_one[CG_MAX_ROUNDS];
} cg_geom;

/* A gap of one phase-3 round: new nodes pos[first .. first+m) in order of
 * the stream from src; two-sided gaps end at dst (the next old bridgehead). */
typedef struct cg_chain {
  uint32_t src, dst;
  int dir;       /* +1: from src rightwards; -1: from src leftwards */
  int two_sided; /* dst streams back in the other direction */
  uint32_t first, m;
} cg_chain;

static mg_status cg_params(const mg_problem_spec *pb, const mg_params *ps, cg_cfg *c, mg_err *err) {
  mg_status st;
  int64_t a, b, k, skip;
  memset(c, 0, sizeof *c);
  c->n = pb->topo.n[0];
  c->wrap = pb->topo.wrap[0];
  double unit = pb->bytes * pb->model.tl;
  uint64_t ta, tb;
  /* a message's fixed cost: the wire start-up and the CPU overheads (o,
   * or: docs/models.md), the t_s of Theorem 2 */
  double startup = pb->model.ts + pb->model.o + pb->model.orecv;
  if (unit > 0)
    mg_jrs_theorem2_params(c->n, startup / unit, &ta, &tb);
  else
    ta = c->n >= 3 ? 3 : 2, tb = 1; /* start-ups only: Approach 2 */
  if ((st = mg_param_int(ps, "a", (int64_t)ta, 2, c->n, &a, err)) != MG_OK) return st;
  int a_given = mg_param_given(ps, "a") != NULL;
  if ((st = mg_param_int(ps, "b", a_given ? a : (int64_t)tb, 1, 4 * (int64_t)c->n + 4, &b, err)) != MG_OK) return st;
  if ((st = mg_param_int(ps, "k", 0, 0, c->n, &k, err)) != MG_OK) return st;
  if ((st = mg_param_int(ps, "skip", 0, 0, 2, &skip, err)) != MG_OK) return st;
  if (skip == 2 && c->n > MG_CGF_MAX_N)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "circgos: skip=2 plans rings and lines of at most %u nodes, not %u",
                   MG_CGF_MAX_N, c->n);
  c->a = (uint32_t)a;
  c->b = (uint32_t)b;
  c->k = (uint32_t)k;
  c->skip = (int)skip;
  return MG_OK;
}

static mg_status cg_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  cg_cfg c;
  mg_status st = mg_check_1d_gossip(pb, "circgos", err);
  if (st != MG_OK) return st;
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "circgos needs all ports: a node sends both ways in a step (Juurlink, Rao, Sibeyn 1996 section 2)");
  return cg_params(pb, ps, &c, err);
}

static uint32_t fwd(const cg_cfg *c, uint32_t from, uint32_t to) { return (to + c->n - from) % c->n; }

static mg_transfer packet(const cg_cfg *c, uint32_t src, uint32_t dst, int32_t hops, uint32_t q, uint32_t k) {
  mg_transfer t = mg_xfer_line(src, dst, 0, hops);
  uint64_t lo = (uint64_t)q * c->n / k, hi = (uint64_t)(q + 1) * c->n / k;
  t.sel.flags = MG_SEL_ORIGIN_RANGE | (c->skip ? MG_SEL_MINUS_DST : 0);
  t.sel.range_lo = (uint32_t)lo;
  t.sel.range_len = (uint32_t)(hi - lo);
  return t;
}

/* A phase-3 transfer: chain ci's packet q from src to dst. */
typedef struct cg_xfer {
  uint32_t src, dst, ci, q;
  int32_t hops;
} cg_xfer;

/* Work arrays of one walk through the algorithm. */
typedef struct cg_work {
  uint32_t *act;  /* phase 1: actives of every segment, in place */
  uint32_t *hold; /* phase 1: data held by each node (in PUs) */
  uint32_t *cnt;  /* phase 1: number of actives per segment */
  uint32_t *head; /* the a bridgeheads, ascending */
  uint32_t *cur;  /* phase 3: current bridgeheads, ascending */
  uint32_t *next; /* merge buffer */
  uint32_t *pos;  /* new bridgeheads of the round */
  cg_chain *chain;
  uint32_t *ilo, *ihi; /* phase 1: the origins each active node concentrates */
  cg_xfer *xf;         /* phase 3: one step's transfers */
  mg_cgf_msg *msg;     /* and as the packet plan sees them */
  mg_cgf *f;           /* skip=2: the plan's state, else NULL */
} cg_work;

static void cg_work_free(cg_work *w) {
  free(w->act);
  free(w->hold);
  free(w->cnt);
  free(w->head);
  free(w->cur);
  free(w->next);
  free(w->pos);
  free(w->chain);
  free(w->ilo);
  free(w->ihi);
  free(w->xf);
  free(w->msg);
  memset(w, 0, sizeof *w);
}

static mg_status cg_work_alloc(cg_work *w, uint32_t n, uint32_t a, mg_err *err) {
  memset(w, 0, sizeof *w);
  w->act = mg_calloc(n, sizeof(uint32_t));
  w->hold = mg_calloc(n, sizeof(uint32_t));
  w->cnt = mg_calloc(a, sizeof(uint32_t));
  w->head = mg_calloc(a, sizeof(uint32_t));
  w->cur = mg_calloc(n, sizeof(uint32_t));
  w->next = mg_calloc(n, sizeof(uint32_t));
  w->pos = mg_calloc(n, sizeof(uint32_t));
  w->chain = mg_calloc((uint64_t)n + 2, sizeof(cg_chain));
  w->ilo = mg_calloc(n, sizeof(uint32_t));
  w->ihi = mg_calloc(n, sizeof(uint32_t));
  w->xf = mg_calloc(2 * (uint64_t)n + 2, sizeof(cg_xfer));
  w->msg = mg_calloc(2 * (uint64_t)n + 2, sizeof(mg_cgf_msg));
  if (!w->act || !w->hold || !w->cnt || !w->head || !w->cur || !w->next || !w->pos || !w->chain || !w->ilo || !w->ihi ||
      !w->xf || !w->msg) {
    cg_work_free(w);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for circgos");
  }
  return MG_OK;
}

static uint32_t seg_lo(const cg_cfg *c, uint32_t i) { return (uint32_t)((uint64_t)i * c->n / c->a); }

/* Phase 1: concentration by threes inside every segment. Emits when e. */
static mg_status cg_phase1(const cg_cfg *c, cg_work *w, cg_geom *g, mg_emit *e, mg_err *err) {
  mg_status st = MG_OK;
  for (uint32_t v = 0; v < c->n; v++)
    w->act[v] = v, w->hold[v] = 1, w->ilo[v] = v, w->ihi[v] = v + 1;
  for (uint32_t i = 0; i < c->a; i++)
    w->cnt[i] = seg_lo(c, i + 1) - seg_lo(c, i);
  g->p1_steps = 0;
  for (;;) {
    int any = 0;
    double big = 0;
    for (uint32_t i = 0; i < c->a; i++) {
      uint32_t lo = seg_lo(c, i), cnt = w->cnt[i];
      if (cnt <= 1) continue;
      any = 1;
      uint32_t groups = (cnt + 2) / 3;
      for (uint32_t gi = 0; gi < groups; gi++) {
        uint32_t size = cnt - 3 * gi < 3 ? cnt - 3 * gi : 3;
        uint32_t *mem = &w->act[lo + 3 * gi];
        uint32_t mid = mem[size == 3 ? 1 : 0], sum = 0;
        for (uint32_t q = 0; q < size; q++) {
          uint32_t v = mem[q];
          sum += w->hold[v];
          if (v == mid) continue;
          if (w->hold[v] > big) big = w->hold[v];
          if (e) {
            mg_transfer tr = mg_xfer_line(v, mid, 0, (int32_t)mid - (int32_t)v);
            if (w->f) { /* skip=2: only the concentrated origins (the idle arcs fill the rest) */
              tr.sel.flags = MG_SEL_ORIGIN_RANGE;
              tr.sel.range_lo = w->ilo[v];
              tr.sel.range_len = w->ihi[v] - w->ilo[v];
              mg_cgf_mark(w->f, v, tr.seg[0].hops);
              mg_cgf_deliver_range(w->f, mid, w->ilo[v], w->ihi[v] - w->ilo[v]);
            }
            MG_CHECK(mg_emit_add(e, &tr, err));
          }
        }
        w->hold[mid] = sum;
        /* the group's origins are consecutive: its members' in order */
        uint32_t glo = w->ilo[mem[0]], ghi = w->ihi[mem[size - 1]];
        w->ilo[mid] = glo, w->ihi[mid] = ghi;
        w->act[lo + gi] = mid; /* gi <= 3 gi: compaction in place is safe */
      }
      w->cnt[i] = groups;
    }
    if (!any) break;
    if (g->p1_steps == CG_MAX_LEVELS) return mg_fail(err, MG_ERR_TOO_LARGE, "circgos: too many phase-1 steps");
    g->p1_units[g->p1_steps++] = big;
    if (e && w->f) MG_CHECK(mg_cgf_fill(w->f, (uint64_t)big, e, err));
    if (e) MG_CHECK(mg_emit_round(e, err));
  }
  for (uint32_t i = 0; i < c->a; i++)
    w->head[i] = w->act[seg_lo(c, i)];
out:
  return st;
}

/* Emits a phase-2 transfer (a segment); skip=2 notes its arcs and what
 * it delivers for the step's fills. */
static mg_status cg_add(cg_work *w, mg_emit *e, const mg_transfer *tr, mg_err *err) {
  if (w->f) {
    mg_cgf_mark(w->f, tr->src, tr->seg[0].hops);
    mg_cgf_deliver_range(w->f, tr->dst, tr->sel.range_lo, tr->sel.range_len);
  }
  return mg_emit_add(e, tr, err);
}

/* Phase 2: Approach 1 among the bridgeheads, packets = segments. */
static mg_status cg_phase2(const cg_cfg *c, cg_work *w, cg_geom *g, mg_emit *e, mg_err *err) {
  mg_status st = MG_OK;
  uint32_t a = c->a;
  g->maxseg = 0;
  for (uint32_t i = 0; i < a; i++) {
    uint32_t len = seg_lo(c, i + 1) - seg_lo(c, i);
    if (len > g->maxseg) g->maxseg = len;
  }
  g->p2_steps = a < 2 ? 0 : (c->wrap ? a / 2 : a - 1);
  for (uint32_t t = 1; e && t <= g->p2_steps; t++) {
    for (uint32_t i = 0; i < a; i++) {
      uint32_t h = w->head[i];
      if (c->wrap) {
        uint32_t rn = w->head[(i + 1) % a], ln = w->head[(i + a - 1) % a];
        uint32_t sr = (i + a - (t - 1) % a) % a, sl = (i + t - 1) % a;
        mg_transfer tr = mg_xfer_line(h, rn, 0, (int32_t)fwd(c, h, rn));
        tr.sel.flags = MG_SEL_ORIGIN_RANGE;
        tr.sel.range_lo = seg_lo(c, sr);
        tr.sel.range_len = seg_lo(c, sr + 1) - seg_lo(c, sr);
        MG_CHECK(cg_add(w, e, &tr, err));
        if (!(a % 2 == 0 && t == a / 2)) { /* the opposite segment would arrive twice */
          tr = mg_xfer_line(h, ln, 0, -(int32_t)fwd(c, ln, h));
          tr.sel.flags = MG_SEL_ORIGIN_RANGE;
          tr.sel.range_lo = seg_lo(c, sl);
          tr.sel.range_len = seg_lo(c, sl + 1) - seg_lo(c, sl);
          MG_CHECK(cg_add(w, e, &tr, err));
        }
      } else {
        if (i + 1 < a && i + 1 >= t) {
          uint32_t s = i - (t - 1), rn = w->head[i + 1];
          mg_transfer tr = mg_xfer_line(h, rn, 0, (int32_t)(rn - h));
          tr.sel.flags = MG_SEL_ORIGIN_RANGE;
          tr.sel.range_lo = seg_lo(c, s);
          tr.sel.range_len = seg_lo(c, s + 1) - seg_lo(c, s);
          MG_CHECK(cg_add(w, e, &tr, err));
        }
        if (i > 0 && i + t - 1 < a) {
          uint32_t s = i + t - 1, ln = w->head[i - 1];
          mg_transfer tr = mg_xfer_line(h, ln, 0, -(int32_t)(h - ln));
          tr.sel.flags = MG_SEL_ORIGIN_RANGE;
          tr.sel.range_lo = seg_lo(c, s);
          tr.sel.range_len = seg_lo(c, s + 1) - seg_lo(c, s);
          MG_CHECK(cg_add(w, e, &tr, err));
        }
      }
    }
    if (w->f) MG_CHECK(mg_cgf_fill(w->f, g->maxseg, e, err));
    MG_CHECK(mg_emit_round(e, err));
  }
  if (w->f)
    for (uint32_t i = 0; i < a; i++)
      mg_cgf_full(w->f, w->head[i]);
out:
  return st;
}

/* New bridgeheads of a gap of G nodes from `from` in direction dir: all of
 * them if G <= a, else a-1 at offsets floor(j G/a). One-sided ends of a
 * line (limit = E nodes) use the mirrored gap 2E. */
static uint32_t cg_split(const cg_cfg *c, cg_work *w, uint32_t np, uint32_t from, int dir, uint64_t G, uint64_t limit) {
  uint32_t m = 0;
  if (G <= c->a) {
    for (uint64_t d = 1; d < G && d <= limit; d++)
      w->pos[np + m++] = (uint32_t)((from + c->n + dir * (int64_t)d) % c->n);
    return m;
  }
  for (uint64_t j = 1; j < c->a; j++) {
    uint64_t d = j * G / c->a;
    if (d > limit) break;
    w->pos[np + m++] = (uint32_t)((from + c->n + dir * (int64_t)d) % c->n);
  }
  return m;
}

/* Plans one phase-3 round: the chains and the largest gaps. Returns the
 * number of chains. */
static uint32_t cg_plan_round(const cg_cfg *c, cg_work *w, uint32_t ncur, uint32_t *m_two, uint32_t *m_one) {
  uint32_t nc = 0, np = 0;
  *m_two = *m_one = 0;
  uint32_t gaps = c->wrap ? ncur : ncur - 1;
  for (uint32_t i = 0; i < gaps; i++) {
    uint32_t L = w->cur[i], R = w->cur[(i + 1) % ncur];
    uint64_t G = ncur == 1 ? c->n : fwd(c, L, R);
    uint32_t m = cg_split(c, w, np, L, +1, G, G - 1);
    if (!m) continue;
    w->chain[nc++] = (cg_chain){.src = L, .dst = R, .dir = +1, .two_sided = 1, .first = np, .m = m};
    np += m;
    if (m > *m_two) *m_two = m;
  }
  if (!c->wrap) {
    uint32_t E[2] = {w->cur[0], c->n - 1 - w->cur[ncur - 1]};
    uint32_t S[2] = {w->cur[0], w->cur[ncur - 1]};
    for (int s = 0; s < 2; s++) {
      if (!E[s]) continue;
      int dir = s == 0 ? -1 : +1;
      uint32_t m = cg_split(c, w, np, S[s], dir, 2 * (uint64_t)E[s], E[s]);
      if (!m) continue;
      w->chain[nc++] = (cg_chain){.src = S[s], .dst = S[s], .dir = dir, .two_sided = 0, .first = np, .m = m};
      np += m;
      if (m > *m_one) *m_one = m;
    }
  }
  return nc;
}

/* The transfers of step t of a round: two packet streams per two-sided
 * gap, one per one-sided gap (see the header). Returns their number. */
static size_t cg_step_xfers(const cg_cfg *c, const cg_work *w, uint32_t nc, uint32_t k, uint32_t steps, uint32_t t) {
  size_t nx = 0;
  for (uint32_t ci = 0; ci < nc; ci++) {
    const cg_chain *ch = &w->chain[ci];
    const uint32_t *p = &w->pos[ch->first];
    int64_t m = ch->m;
    for (int64_t j = 1; j <= m; j++) {
      uint32_t prev = j == 1 ? ch->src : p[j - 2], me = p[j - 1];
      int64_t fromright = 0; /* packets j receives from the far side */
      if (ch->two_sided) {
        fromright = (int64_t)steps - (m + 1 - j) + 1;
        if (fromright < 0) fromright = 0;
        if (fromright > k) fromright = k;
      }
      int64_t q = (int64_t)t - j + 1; /* packet number in the near stream */
      if (q >= 1 && q <= (int64_t)k - fromright) {
        int32_t hops = (int32_t)(ch->dir > 0 ? fwd(c, prev, me) : fwd(c, me, prev)) * ch->dir;
        w->xf[nx++] = (cg_xfer){.src = prev, .dst = me, .ci = ci, .q = (uint32_t)(q - 1), .hops = hops};
      }
      if (ch->two_sided) {
        uint32_t nxt = j == m ? ch->dst : p[j];
        int64_t q2 = (int64_t)t - (m + 1 - j) + 1;
        if (q2 >= 1 && q2 <= fromright)
          w->xf[nx++] = (cg_xfer){
              .src = nxt, .dst = me, .ci = ci, .q = (uint32_t)((int64_t)k - q2), .hops = -(int32_t)fwd(c, me, nxt)};
      }
    }
  }
  return nx;
}

/* Emits the b' steps of one round. With skip=2 each gap's packets are
 * planned step by step first (circgos_fill.c) and transfers list them. */
static mg_status cg_emit_round(const cg_cfg *c, cg_work *w, uint32_t nc, uint32_t k, uint32_t steps, mg_emit *e,
                               mg_err *err) {
  mg_status st = MG_OK;
  if (w->f) MG_CHECK(mg_cgf_round(w->f, nc, k, err));
  for (uint32_t t = 1; t <= steps; t++) {
    size_t nx = cg_step_xfers(c, w, nc, k, steps, t);
    uint64_t L = 0; /* skip=2: the step's largest transfer */
    if (w->f) {
      for (size_t i = 0; i < nx; i++)
        w->msg[i] = (mg_cgf_msg){.ci = w->xf[i].ci, .q = w->xf[i].q, .dst = w->xf[i].dst};
      MG_CHECK(mg_cgf_step(w->f, w->msg, nx, &L, err));
    }
    for (size_t i = 0; i < nx; i++) {
      const cg_xfer *x = &w->xf[i];
      mg_transfer tr = packet(c, x->src, x->dst, x->hops, x->q, k);
      if (w->f) {
        uint32_t len;
        const uint32_t *it = mg_cgf_packet(w->f, x->ci, x->q, &len);
        for (uint32_t j = 0; j < len; j++)
          w->f->list[j] = it[j];
        tr.sel.flags = MG_SEL_LIST | MG_SEL_MINUS_DST;
        tr.sel.list = mg_round_add_list(&e->r, w->f->list, len);
        tr.sel.list_len = len;
        if (!tr.sel.list && len) {
          st = mg_fail(err, MG_ERR_NOMEM, "circgos: out of memory for an item list");
          goto out;
        }
        mg_cgf_mark(w->f, x->src, x->hops);
        mg_cgf_deliver_list(w->f, x->dst, it, len);
      }
      MG_CHECK(mg_emit_add(e, &tr, err));
    }
    if (w->f) MG_CHECK(mg_cgf_fill(w->f, L, e, err));
    MG_CHECK(mg_emit_round(e, err));
  }
out:
  return st;
}

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

/* Phase 3: rounds until every node is a bridgehead. */
static mg_status cg_phase3(const cg_cfg *c, cg_work *w, cg_geom *g, mg_emit *e, mg_err *err) {
  mg_status st = MG_OK;
  uint32_t ncur = c->a;
  memcpy(w->cur, w->head, c->a * sizeof(uint32_t));
  g->rounds = 0;
  while (ncur < c->n) {
    uint32_t m_two, m_one;
    uint32_t nc = cg_plan_round(c, w, ncur, &m_two, &m_one);
    if (g->rounds == CG_MAX_ROUNDS) return mg_fail(err, MG_ERR_TOO_LARGE, "circgos: too many phase-3 rounds");
    g->m_two[g->rounds] = m_two;
    g->m_one[g->rounds] = m_one;
    g->rounds++;
    if (e) {
      uint64_t steps, k = mg_jrs_phase3_round(c->n, c->b, c->k, m_two, m_one, &steps);
      MG_CHECK(cg_emit_round(c, w, nc, (uint32_t)k, (uint32_t)steps, e, err));
    }
    uint32_t added = 0;
    for (uint32_t ci = 0; ci < nc; ci++)
      added += w->chain[ci].m;
    if (w->f)
      for (uint32_t i = 0; i < added; i++)
        mg_cgf_full(w->f, w->pos[i]);
    memcpy(w->cur + ncur, w->pos, added * sizeof(uint32_t));
    ncur += added;
    qsort(w->cur, ncur, sizeof(uint32_t), cmp_u32);
  }
out:
  return st;
}

/* The whole algorithm: geometry always, rounds when e != NULL. */
static mg_status cg_walk(const cg_cfg *c, cg_geom *g, mg_emit *e, mg_err *err) {
  cg_work w;
  mg_cgf f;
  memset(&f, 0, sizeof f);
  mg_status st = cg_work_alloc(&w, c->n, c->a, err);
  if (st != MG_OK) return st;
  if (e && c->skip == 2) {
    MG_CHECK(mg_cgf_init(&f, c->n, c->wrap, err));
    w.f = &f;
  }
  memset(g, 0, sizeof *g);
  MG_CHECK(cg_phase1(c, &w, g, e, err));
  MG_CHECK(cg_phase2(c, &w, g, e, err));
  MG_CHECK(cg_phase3(c, &w, g, e, err));
out:
  mg_cgf_free(&f);
  cg_work_free(&w);
  return st;
}

/* Predicted cost from the geometry, t_d neglected (as Juurlink, Rao, Sibeyn 1996 does). */
static double cg_estimate(const cg_cfg *c, const cg_geom *g, const mg_problem_spec *pb, int64_t *rounds) {
  double ts = pb->model.ts, unit = pb->bytes * pb->model.tl, cost = 0;
  int64_t r = 0;
  for (int i = 0; i < g->p1_steps; i++)
    cost += ts + g->p1_units[i] * unit;
  r += g->p1_steps;
  cost += g->p2_steps * (ts + g->maxseg * unit);
  r += g->p2_steps;
  for (int i = 0; i < g->rounds; i++) {
    uint64_t steps, k = mg_jrs_phase3_round(c->n, c->b, c->k, g->m_two[i], g->m_one[i], &steps);
    cost += (double)steps * (ts + (double)((c->n + k - 1) / k) * unit);
    r += (int64_t)steps;
  }
  if (rounds) *rounds = r;
  return cost;
}

static mg_status cg_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  cg_cfg c;
  cg_geom g;
  mg_emit e;
  int64_t hint = -1;
  mg_status st = cg_params(pb, ps, &c, err);
  if (st != MG_OK) return st;
  if (cg_walk(&c, &g, NULL, NULL) == MG_OK) cg_estimate(&c, &g, pb, &hint);
  memset(&e, 0, sizeof e);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "circgos", ps, 1, 0, hint, err));
  MG_CHECK(cg_walk(&c, &g, &e, err));
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  return st;
}

static mg_status cg_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  cg_cfg c;
  const mg_model *m = &pb->model;
  mg_status st = cg_params(pb, ps, &c, err);
  if (st != MG_OK) return st;
  if (m->switching != MG_SW_WORMHOLE || m->port != MG_PORT_ALL || m->td != 0)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "the closed form is for all-port wormhole routing with t_d = 0");
  if (!c.wrap || c.skip) return mg_fail(err, MG_ERR_UNSUPPORTED, "the closed form is for rings without skip");
  double unit = pb->bytes * m->tl;
  if (!(unit > 0)) return mg_fail(err, MG_ERR_UNSUPPORTED, "the closed form needs t_l > 0");
  double v = mg_jrs_circgos_ring(c.n, m->ts / unit, c.a, c.b, c.k, NULL);
  if (!isnan(v)) {
    *cost = v * unit;
    return MG_OK;
  }
  /* n not a power of a: segments and gaps differ, so the journal version's
   * count is summed over our geometry, phase by phase (cg_estimate: the
   * concentration steps, floor(a/2) steps of the longest segment, and per
   * phase-3 round the steps its widest gap needs for its packets) */
  cg_geom g;
  if ((st = cg_walk(&c, &g, NULL, err)) != MG_OK) return st;
  *cost = cg_estimate(&c, &g, pb, NULL);
  return MG_OK;
}

/* Candidates for `tune`: every a in 2..n and b from 1 up to floor(a/2) +
 * 2 sqrt(n a) + 8. Juurlink, Rao, Sibeyn take b >= floor(a/2), what a full
 * gap of a - 1 new bridgeheads needs; but a round whose gaps hold fewer
 * nodes than a (the last, when n is not a power of a, or a > sqrt(n))
 * fills them in fewer steps, so smaller b pay: ring:27 at r = 10 with
 * (9, 1), 99 against the best b >= 4 (113) and the paper's 100. The upper
 * end: the per-round cost b (r + n/(2b-a+2)) grows past it. Ranked by the
 * exact step count of
 * cg_estimate; the best few are generated and verified, and again with
 * the refinement when one of their rounds carries a single packet (only
 * then does every transfer of a step shrink), plus CIRCGOS(3, 1) with it
 * (Approach 2). */
#define CG_KEEP 8
typedef struct cg_cand {
  uint32_t a, b;
  double cost;
  int single; /* some phase-3 round carries one packet: skip can pay */
} cg_cand;

static mg_status cg_visit(const cg_cand *cd, int skip, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                          mg_err *err) {
  mg_params ps;
  mg_status st;
  memset(&ps, 0, sizeof ps);
  if ((st = mg_params_set_int(&ps, "a", cd->a, err)) != MG_OK) return st;
  if ((st = mg_params_set_int(&ps, "b", cd->b, err)) != MG_OK) return st;
  if ((st = mg_params_set_int(&ps, "skip", skip, err)) != MG_OK) return st;
  return visit(arg, &ps);
}

static mg_status cg_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  cg_cand keep[CG_KEEP];
  int nkeep = 0;
  uint32_t n = pb->topo.n[0];
  mg_status st;
  /* a and b held by the caller (mg_tune_with): ranked among those alone */
  const mg_params *held = mg_tune_held(visit, arg);
  int64_t ha = -1, hb = -1;
  if (held && ((st = mg_param_int(held, "a", -1, -1, INT64_MAX, &ha, err)) != MG_OK ||
               (st = mg_param_int(held, "b", -1, -1, INT64_MAX, &hb, err)) != MG_OK))
    return st;
  /* beyond a few thousand nodes a geometric grid of a keeps the search
   * near-linear per candidate */
  for (uint32_t a = ha >= 2 ? (uint32_t)ha : 2; a <= n && (ha < 0 || a == ha);
       a += n > 2048 ? (a / 32 ? a / 32 : 1) : 1) {
    cg_cfg c = {.n = n, .wrap = pb->topo.wrap[0], .a = a, .b = 1, .k = 0, .skip = 0};
    cg_geom g;
    if ((st = cg_walk(&c, &g, NULL, err)) != MG_OK) return st;
    uint32_t b0 = 1;
    uint32_t b1 = g.rounds ? b0 + (uint32_t)(2 * sqrt((double)n * a)) + 8 : b0;
    if (b1 > 4 * n + 4) b1 = 4 * n + 4; /* the range cg_params accepts */
    if (hb >= 1) b0 = b1 = (uint32_t)hb;
    for (uint32_t b = b0; b <= b1; b++) {
      c.b = b;
      cg_cand cd = {a, b, cg_estimate(&c, &g, pb, NULL), 0};
      for (int i = 0; i < g.rounds; i++) {
        uint64_t steps;
        if (mg_jrs_phase3_round(n, b, 0, g.m_two[i], g.m_one[i], &steps) == 1) cd.single = 1;
      }
      int at = nkeep;
      while (at > 0 && keep[at - 1].cost > cd.cost)
        at--;
      if (at >= CG_KEEP) continue;
      if (nkeep < CG_KEEP) nkeep++;
      memmove(&keep[at + 1], &keep[at], (size_t)(nkeep - 1 - at) * sizeof keep[0]);
      keep[at] = cd;
    }
  }
  int have31 = 0;
  for (int i = 0; i < nkeep; i++) {
    if (keep[i].a == 3 && keep[i].b == 1) have31 = 1;
    if ((st = cg_visit(&keep[i], 0, visit, arg, err)) != MG_OK) return st;
    if (keep[i].single && (st = cg_visit(&keep[i], 1, visit, arg, err)) != MG_OK) return st;
    if (n <= MG_CGF_MAX_N && (st = cg_visit(&keep[i], 2, visit, arg, err)) != MG_OK) return st;
  }
  if (n >= 3 && !have31) {
    cg_cand cd = {3, 1, 0, 1};
    if ((st = cg_visit(&cd, 1, visit, arg, err)) != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc cg_params_desc[] = {
    {"a", "auto", "bridgeheads after phase 1 and factor of phase 3; auto: Theorem 2, round(n t'_l/t_s) in [2, n]"},
    {"b", "auto", "steps per phase-3 round (raised if too few for one packet); auto: b = a (Theorem 2)"},
    {"k", "0", "packets per phase-3 round; 0: as many as b steps allow (2b - a + 2 on full gaps)"},
    {"skip", "0",
     "1: phase-3 transfers skip what the receiver already holds (Juurlink, Rao, Sibeyn 1996 section 4.2); 2 (ours, "
     "n <= 2187): also phase 1's idle arcs carry what their far end lacks and each gap picks its packets so that "
     "the first steps of a round carry an item less (circgos_fill.c)"},
    {NULL, NULL, NULL},
};

const mg_algo mg_algo_circgos = {
    .name = "circgos",
    .problem = MG_GOSSIP,
    .summary = "CIRCGOS(a,b): concentrate into a bridgeheads, circulate, multiply bridgeheads by a in pipelined rounds",
    .paper =
        "Juurlink, Rao, Sibeyn 1996 section 4.2, Lemma 6, Theorem 2; phase 3 pipelining of Juurlink, Rao, Sibeyn 1998",
    .restrictions = "rings and lines, any n >= 2, 2 <= a <= n; all-port",
    .rounding = "segments floor(i n/a); a gap of G > a nodes gets new bridgeheads at floor(j G/a), a gap of G <= a all "
                "its nodes; packets are origin ranges floor(q n/k); k = min(k, 2b - m + 1) per round (m = largest "
                "gap), at least 1, steps ceil((k + m - 1)/2); lines: one-sided ends need k + m - 1 steps",
    .params = cg_params_desc,
    .check = cg_check,
    .generate = cg_generate,
    .closed_form = cg_closed_form,
    .candidates = cg_candidates,
};

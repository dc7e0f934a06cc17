/*
 * exchange-moves — complete exchange on a torus in R rounds of moves: in
 * round r a node sends one message per move the plan uses in that round,
 * a move going at most `reach` hops along each axis (to v + m, every digit
 * of m between -reach and reach), and a block goes by one move a round (or
 * waits) along a shortest route.
 *
 * Why (issue 16, on the SMPI platform of docs/paragon.md: 250 us of CPU
 * per message, one after the other, 175 MB/s arcs). At 16 KiB per block on
 * 4x4x4 the per-arc bound is 3.1 ms, but `exchange-hops` (one-hop
 * messages, one round per hop of the diameter: six) spends 26 sends, 6.5
 * ms of CPU, and `exchange-allport` (direct messages along the lines) 27.
 * Here a message crosses up to reach arcs an axis (SimGrid's
 * dimension-ordered route: a move stays under half of every side, so it
 * is never a tie), and a block whose offset is at most R reach hops along
 * every axis arrives in R rounds: on 4x4x4 in 3 rounds, not 6, with 22
 * sends whose transfers run under the overheads; on 8x8 in 2 rounds of
 * moves of up to 2 hops an axis (4 = 2 + 2).
 *
 * Derivation (ours, after the move decompositions of Bruck et al.,
 * "Efficient Algorithms for All-to-All Communications in Multiport
 * Message-Passing Systems", IEEE TPDS 1997, here over a torus's axes).
 * The torus is Z_n1 x .. x Z_nd and every node runs the same plan. An
 * offset delta has the signed distance s_i along axis i (the shorter way
 * round; a tie, 2|s_i| = n_i, either way); its plan splits |s_i| into R
 * steps of at most reach hops, so its move in round r has digit sign(s_i)
 * x step_r on axis i, and the moves sum to delta in |s_1| + .. + |s_d|
 * hops: every route is shortest, and each direction of an arc carries the
 * same blocks whatever the steps (the ties' signs aside). What the steps
 * change is time: how many distinct moves a round has (each a send: o of
 * CPU), how full each message is, and what each send waits for (the
 * messages of earlier rounds that brought its blocks). The plan is
 * searched by simulated annealing (a fixed seed: every MPI rank builds the
 * same; the best plan seen is kept) over each offset's steps, the ties'
 * signs and the order of each round's sends, against the clock of the
 * model the schedule is generated under (xm_estimate). Under timing=async
 * that clock is the fluid system of src/model/fluid.c (max-min sharing,
 * weights 1/hops, bandwidth factors, acknowledgements on the return route,
 * the pricer's start-ups, reads in order of arrival) on one node's
 * messages and 2d arcs: every node does the same at the same moment, so
 * every arc of one direction carries the same copies of the same messages
 * (a move of k hops along it: k copies, from k nodes). Under
 * contention=fair (the MPI executor's sync=data on the calibrated model)
 * that is the simulator's clock for this plan, up to rounding: the closed
 * form (but for o = 0 with or > 0, where a node's messages arrive
 * together and the simulator reads them in its senders' id order: the
 * nodes are no longer alike). Under contention=shared it is a guide.
 * Under the round clocks the search prices rounds (o per send, ts per 2d
 * sends, the busiest arc's bytes) and there is no closed form.
 *
 * Meshes and lines too: along a line an offset is a signed distance (2
 * n_i - 1 of them), a block's moves never leave the box between its ends,
 * and a node near an edge sends only the moves it has blocks for. The
 * search's clock is then the average node's (each offset weighted by the
 * share of the nodes it starts from), a guide only: the middle arcs of a
 * line carry more than the average, and on mesh:8x8 at 16 KiB (the
 * calibrated SMPI model) the plans take 2.4x (reach=3) to 3.5x (reach=1)
 * exchange-allport's time, which is at the mesh's bound; no closed form
 * there.
 *
 * Rounds: R (default the longest distance along an axis over reach, plus
 * one, at most 8). Sends per node and round: the moves the plan uses, at
 * most (2 reach + 1)^d - 1. Restrictions: grids of 1 to 3 axes, every side
 * 2 to 16 (rings 3 to 16, above 2 reach), at most 1024 nodes, at most 125
 * moves; all-port; the messages of a round share arcs (contention=shared
 * or fair). Rounding: none.
 *
 * Trace, ring:4, rounds=2 (offsets 1, 2 (tie), 3 = -1): delta 1 moves +1
 * in round 1 or 2, delta 3 moves -1 in one of them, delta 2 moves +1 or
 * -1 in both: e.g. round 1 v -> v+1 {(v, v+1), (v, v+2)}, v -> v-1 {(v,
 * v-1)}; round 2 v -> v+1 {(v-1, v+1)}.
 */
#include "../algo_internal.h"
#include "../../model/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define XM_MAX_D        3
#define XM_MAX_ROUNDS   8
#define XM_MAX_SIDE     16
#define XM_MAX_NODES    1024
#define XM_MAX_REACH    3
#define XM_MAX_NM       125 /* moves, (2 reach + 1)^d */
#define XM_SEARCH       60000
#define XM_SEARCH_SHORT 2000
#define XM_SEARCH_MAX   200000
#define XM_WORK         2e8 /* the search's budget in sends^2 per clock (about 2 s here): big plans get fewer steps */
#define XM_WORK_ROUNDS  2e7 /* under the round clocks (no exact clock to fit, only a guide) */

typedef struct xm_plan {
  const mg_topo *t;
  int d, R, reach, base, nm, zero;       /* axes, rounds, hops an axis a move, 2 reach + 1, base^d moves, the
                                          * id of the move that stays */
  uint32_t N, C, zc;                     /* nodes, offsets (classes), the offset 0 */
  uint32_t span[MG_MAX_DIMS];            /* offsets along axis i: n_i on a ring, 2 n_i - 1 on a line */
  int8_t *sgn;                           /* [C d] direction of offset c along axis i (0: no distance) */
  uint8_t *dist;                         /* [C d] |s_i| */
  uint8_t *step;                         /* [C d R] hops of offset c along axis i in round r (sum: dist) */
  double *wt;                            /* [C] the share of the nodes offset c starts from (1 on a torus) */
  uint32_t *cnt;                         /* [R nm] offsets that take move m in round r */
  double *load;                          /* [R nm] the blocks of move m in round r a node sends, on average */
  uint32_t *pc;                          /* [(R nm)^2] offsets whose move (r, m) follows (r', m') */
  uint8_t ord[XM_MAX_ROUNDS][XM_MAX_NM]; /* the order of a round's sends */
} xm_plan;

static uint64_t xm_rng(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

/* The longest distance along an axis: n/2 round a ring, n - 1 along a line. */
static int xm_far(const mg_topo *t) {
  int far = 0;
  for (int i = 0; i < t->d; i++) {
    int h = t->wrap[i] ? (int)(t->n[i] / 2) : (int)t->n[i] - 1;
    if (h > far) far = h;
  }
  return far;
}

/* Offset class c's coordinates (axis 0 fastest): on a ring the residue,
 * on a line the signed distance plus n_i - 1. */
static void xm_class_coords(const xm_plan *p, uint32_t c, uint32_t *x) {
  for (int i = 0; i < p->d; i++) {
    x[i] = c % p->span[i];
    c /= p->span[i];
  }
}

/* The offset class of block (s, w). */
static uint32_t xm_class_of(const xm_plan *p, uint32_t s, uint32_t w) {
  uint32_t xs[MG_MAX_DIMS], xw[MG_MAX_DIMS], c = 0, mul = 1;
  mg_topo_coords(p->t, s, xs);
  mg_topo_coords(p->t, w, xw);
  for (int i = 0; i < p->d; i++) {
    uint32_t n = p->t->n[i];
    c += mul * (p->t->wrap[i] ? (xw[i] + n - xs[i]) % n : xw[i] + n - 1 - xs[i]);
    mul *= p->span[i];
  }
  return c;
}

static mg_status xm_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t r, s, reach;
  mg_status st = mg_param_int(ps, "rounds", 0, 0, XM_MAX_ROUNDS, &r, err);
  if (st == MG_OK) st = mg_param_int(ps, "reach", 1, 1, XM_MAX_REACH, &reach, err);
  if (st == MG_OK) st = mg_param_int(ps, "search", XM_SEARCH, 0, XM_SEARCH_MAX, &s, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves solves complete exchange");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves does not run on buses");
  if (t->kind != MG_TOPO_GRID)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves runs on grids (tori, rings, meshes, lines)");
  if (t->d > XM_MAX_D) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves: %d axes, at most %d", t->d, XM_MAX_D);
  for (int i = 0; i < t->d; i++) {
    if (t->n[i] < (t->wrap[i] ? 3u : 2u) || t->n[i] > XM_MAX_SIDE)
      return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves: side %u, every side 3 to %d (2 on a line)", t->n[i],
                     XM_MAX_SIDE);
    /* a move's hops round a ring stay under half of it: never a tie, so
     * SimGrid's route is the shortest one the plan counts */
    if (t->wrap[i] && 2 * reach >= (int64_t)t->n[i])
      return mg_fail(err, MG_ERR_INVALID,
                     "exchange-moves: reach=%lld on a ring of %u (a move's hops must be under half "
                     "of every ring)",
                     (long long)reach, t->n[i]);
  }
  if (t->N > XM_MAX_NODES)
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-moves: %u nodes, at most %d", t->N, XM_MAX_NODES);
  int64_t nm = 1;
  for (int i = 0; i < t->d; i++)
    nm *= 2 * reach + 1;
  if (nm > XM_MAX_NM)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves: reach=%lld on %d axes makes %lld moves, at most %d",
                   (long long)reach, t->d, (long long)nm, XM_MAX_NM);
  if (pb->model.port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves is all-port (a node sends several moves a round)");
  int far = xm_far(t), least = (far + (int)reach - 1) / (int)reach;
  if (r != 0 && r < least)
    return mg_fail(err, MG_ERR_INVALID,
                   "exchange-moves: rounds=%lld, at least %d here (the longest distance along an axis, %d, at %lld "
                   "hops a round)",
                   (long long)r, least, far, (long long)reach);
  if (least > XM_MAX_ROUNDS)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves: %d rounds needed, at most %d (raise reach)", least,
                   XM_MAX_ROUNDS);
  return MG_OK;
}

/* The move of offset c in round r (base 2 reach + 1, digit i + reach at
 * base^i). */
static int xm_move(const xm_plan *p, uint32_t c, int r) {
  int m = 0, w = 1;
  for (int i = 0; i < p->d; i++, w *= p->base) {
    size_t k = (size_t)c * (size_t)p->d + (size_t)i;
    m += w * (p->reach + p->sgn[k] * p->step[k * (size_t)p->R + (size_t)r]);
  }
  return m;
}

/* Adds (sign +1) or removes (-1) offset c's moves to the tallies. */
static void xm_apply(xm_plan *p, uint32_t c, int sign) {
  size_t M = (size_t)p->R * (size_t)p->nm;
  int prev = -1;
  for (int r = 0; r < p->R; r++) {
    int m = xm_move(p, c, r);
    if (m == p->zero) continue;
    int x = r * p->nm + m;
    p->cnt[x] += (uint32_t)sign;
    p->load[x] += sign * p->wt[c];
    if (prev >= 0) p->pc[(size_t)prev * M + (size_t)x] += (uint32_t)sign;
    prev = x;
  }
}

/* The estimator's scratch: one entry per send of a node. */
typedef struct xm_send {
  int x;                                         /* slot r nm + m */
  double bytes, use;                             /* bytes; bytes moved per unit of arc capacity (bwf) */
  double wt;                                     /* max-min weight (1/hops under share=hops) */
  double cap;                                    /* its own bound on the wire: (1/tl) / wt */
  uint8_t dirs;                                  /* the directions it loads (forward, or back with ack) */
  int h;                                         /* hops */
  uint8_t fwd[2 * XM_MAX_D], back[2 * XM_MAX_D]; /* copies on each arc of direction 2i + (digit < 0), and on
                                                  * the return route */
  double rel, rem, rate, arr;
  double ready; /* the last arrival among the sends it waits for */
  int left;     /* sends it waits for not yet arrived */
  int fin;      /* the order in which the flows ended */
  int state;    /* 0 waiting, 1 released (on the CPU's queue), 2 on the wire, 3 ended, 4 arrived */
} xm_send;

/* The estimator's scratch besides the sends: the sends on the wire and
 * those ended but not yet read, each list in send order (the order the
 * full scans visited them in: the clock's sums and ties come out the
 * same, bit for bit, at a fraction of the scans), and xm_share's marks. */
typedef struct xm_live {
  int *on, non;     /* state 2 */
  int *done, ndone; /* state 3 */
  uint8_t *frozen;
} xm_live;

/* Max-min fair values of the flows on the wire, as src/model/fluid.c's
 * share() does, on the 2d directions: every arc of direction k carries
 * fwd[k] copies of a message (one from each node that many hops back),
 * all alike. */
static void xm_share(const mg_model *mo, xm_send *s, int nd, xm_live *lv) {
  double cap[2 * XM_MAX_D], wsum[2 * XM_MAX_D], ack = mo->ack, bound = 1.0 / mo->tl;
  int nun[2 * XM_MAX_D], *on = lv->on, n = lv->non;
  uint8_t *frozen = lv->frozen;
  for (int k = 0; k < nd; k++)
    cap[k] = bound, wsum[k] = 0, nun[k] = 0;
  int unfrozen = n;
  for (int q = 0; q < n; q++) {
    int i = on[q];
    frozen[i] = 0;
    for (int k = 0; k < nd; k++) {
      if (s[i].fwd[k]) nun[k]++, wsum[k] += s[i].fwd[k] * s[i].wt;
      if (ack > 0 && s[i].back[k]) nun[k]++, wsum[k] += ack * s[i].back[k] * s[i].wt;
    }
  }
  while (unfrozen > 0) {
    double best = INFINITY;
    for (int k = 0; k < nd; k++)
      if (nun[k] && cap[k] / wsum[k] < best) best = cap[k] / wsum[k];
    for (int q = 0; q < n; q++)
      if (!frozen[on[q]] && s[on[q]].cap < best) best = s[on[q]].cap;
    if (!isfinite(best)) break;
    if (best < 0) best = 0;
    /* the directions at the level (an unfrozen flow on k makes nun[k] > 0) */
    unsigned full = 0;
    for (int k = 0; k < nd; k++)
      if (nun[k] && cap[k] / wsum[k] <= best * (1 + 1e-12)) full |= 1u << k;
    for (int q = 0; q < n; q++) {
      int i = on[q];
      if (frozen[i]) continue;
      int bounded = s[i].cap <= best * (1 + 1e-12);
      if (!bounded && !(s[i].dirs & full)) continue;
      frozen[i] = 2;
      s[i].rate = bounded ? bound : s[i].wt * best;
      unfrozen--;
    }
    for (int q = 0; q < n; q++) {
      int i = on[q];
      if (frozen[i] != 2) continue;
      frozen[i] = 1;
      for (int k = 0; k < nd; k++) {
        if (s[i].fwd[k]) cap[k] -= s[i].fwd[k] * s[i].rate, nun[k]--, wsum[k] -= s[i].fwd[k] * s[i].wt;
        if (ack > 0 && s[i].back[k])
          cap[k] -= ack * s[i].back[k] * s[i].rate, nun[k]--, wsum[k] -= ack * s[i].back[k] * s[i].wt;
      }
    }
  }
  for (int q = 0; q < n; q++)
    s[on[q]].rate *= s[on[q]].use;
}

/* Puts send i into a list kept in send order. */
static void xm_insert(int *list, int *n, int i) {
  int q = *n;
  while (q > 0 && list[q - 1] > i)
    list[q] = list[q - 1], q--;
  list[q] = i;
  (*n)++;
}

static int xm_live_alloc(xm_live *lv, size_t M) {
  lv->on = mg_calloc(M, sizeof *lv->on);
  lv->done = mg_calloc(M, sizeof *lv->done);
  lv->frozen = mg_calloc(M, sizeof *lv->frozen);
  lv->non = lv->ndone = 0;
  return lv->on && lv->done && lv->frozen;
}

static void xm_live_free(xm_live *lv) {
  free(lv->on);
  free(lv->done);
  free(lv->frozen);
}

/* A node's sends in plan order (round by round, each round in ord's
 * order); returns how many. */
static int xm_sends(const xm_plan *p, const mg_problem_spec *pb, xm_send *s) {
  const mg_model *mo = &pb->model;
  int n = 0;
  for (int r = 0; r < p->R; r++)
    for (int k = 0; k < p->nm; k++) {
      int m = p->ord[r][k], x = r * p->nm + m;
      if (m == p->zero || !p->cnt[x]) continue;
      xm_send *e = &s[n++];
      memset(e, 0, sizeof *e);
      e->x = x;
      e->bytes = p->load[x] * pb->bytes;
      double wb = mg_model_wire_bytes(mo, e->bytes);
      e->use = wb > 0 ? e->bytes / wb : 1;
      for (int i = 0, q = m; i < p->d; i++, q /= p->base) {
        int dg = q % p->base - p->reach, a = dg < 0 ? -dg : dg;
        if (!dg) continue;
        e->h += a;
        e->fwd[2 * i + (dg < 0)] = (uint8_t)a;
        e->back[2 * i + (dg > 0)] = (uint8_t)a;
      }
      e->wt = mo->share == MG_SHARE_HOPS && e->h > 1 ? 1.0 / e->h : 1.0;
      e->cap = mo->tl > 0 ? (1.0 / mo->tl) / e->wt : INFINITY;
      for (int k = 0; k < 2 * p->d; k++)
        if (e->fwd[k] || (mo->ack > 0 && e->back[k])) e->dirs |= (uint8_t)(1u << k);
    }
  return n;
}

/* Does send j wait for send i (earlier)? */
static int xm_waits(const xm_plan *p, const xm_send *s, int j, int i) {
  size_t M = (size_t)p->R * (size_t)p->nm;
  return p->pc[(size_t)s[i].x * M + (size_t)s[j].x] != 0;
}

/* The clock the plan is fitted to. timing=async: the fluid system of one
 * node's sends (see the header); other timings: per round o per send, ts
 * per 2d sends, hops td, and the busiest arc's bytes. */
static double xm_estimate(const xm_plan *p, const mg_problem_spec *pb, xm_send *s, xm_live *lv, int *nsends) {
  const mg_model *mo = &pb->model;
  int n = xm_sends(p, pb, s), nd = 2 * p->d;
  *nsends = n;
  if (mo->timing != MG_TIMING_ASYNC || mo->tl <= 0) {
    double c = 0;
    for (int r = 0; r < p->R; r++) {
      double load[2 * XM_MAX_D] = {0}, most = 0;
      int sends = 0, h = 0;
      for (int i = 0; i < n; i++) {
        if (s[i].x / p->nm != r) continue;
        sends++;
        if (s[i].h > h) h = s[i].h;
        for (int k = 0; k < nd; k++)
          load[k] += s[i].fwd[k] * s[i].bytes;
      }
      if (!sends) continue;
      for (int k = 0; k < nd; k++)
        if (load[k] > most) most = load[k];
      /* ts for every 2d sends of a node, as the pricer counts start-ups */
      c += sends * mo->o + mo->ts * (double)((sends + nd - 1) / nd) + h * mo->td + most * mo->tl;
    }
    return c;
  }
  /* the pricer's start-ups of a message: ts for every 2d sends its node
   * makes in the round (src/model/price.c, node_startups) */
  int ups[XM_MAX_ROUNDS] = {0};
  for (int i = 0; i < n; i++)
    ups[s[i].x / p->nm]++;
  for (int r = 0; r < p->R; r++)
    ups[r] = (ups[r] + nd - 1) / nd;
  /* what each send waits for: counted once, then counted down as the
   * sends before it arrive (rather than rescanned at every event) */
  for (int j = 0; j < n; j++)
    for (int i = 0; i < j; i++)
      s[j].left += xm_waits(p, s, j, i);
  double t = 0, cpu = 0, end = 0, rcv = 0;
  int nfin = 0;
  lv->non = lv->ndone = 0;
  int next = 0, qhead = 0; /* next send to release; first released not yet on the wire */
  for (;;) {
    /* release, in plan order, the sends whose waits are over */
    while (next < n && s[next].left == 0) {
      double ready = s[next].ready;
      cpu = (ready > cpu ? ready : cpu) + mo->o;
      s[next].rel = cpu;
      s[next++].state = 1;
    }
    double tn = INFINITY;
    int kind = -1, who = -1;
    if (qhead < next) tn = s[qhead].rel, kind = 0, who = qhead;
    /* the sends on the wire and the ended ones, merged in send order */
    for (int qa = 0, qb = 0; qa < lv->non || qb < lv->ndone;) {
      int i = qb >= lv->ndone || (qa < lv->non && lv->on[qa] < lv->done[qb]) ? lv->on[qa++] : lv->done[qb++];
      if (s[i].state == 2 && s[i].rate > 0 && t + s[i].rem / s[i].rate < tn)
        tn = t + s[i].rem / s[i].rate, kind = 1, who = i;
      /* arrivals at one instant are read in the order their flows ended */
      if (s[i].state == 3 && (s[i].arr < tn || (kind == 2 && s[i].arr == tn && s[i].fin < s[who].fin)))
        tn = s[i].arr, kind = 2, who = i;
    }
    if (kind < 0) break;
    if (tn < t) tn = t;
    for (int q = 0; q < lv->non; q++)
      s[lv->on[q]].rem -= s[lv->on[q]].rate * (tn - t);
    t = tn;
    if (kind == 0) {
      s[who].state = 2;
      s[who].rem = s[who].bytes;
      xm_insert(lv->on, &lv->non, who);
      qhead++;
    } else if (kind == 1) {
      int keep = 0;
      for (int q = 0; q < lv->non; q++) {
        int i = lv->on[q];
        if (i == who || s[i].rem <= 1e-9 * s[i].bytes) { /* who: whatever the rounding */
          s[i].state = 3;
          /* the pricer's fixed terms, summed its way: ts + hops td, then
           * the extra start-ups (src/model/price.c, price_fair) */
          double fx = (mo->ts + (double)s[i].h * mo->td) + (mo->ts * ups[s[i].x / p->nm] - mo->ts);
          s[i].arr = t + fx;
          s[i].fin = nfin++;
          xm_insert(lv->done, &lv->ndone, i);
        } else {
          lv->on[keep++] = i;
        }
      }
      lv->non = keep;
    } else {
      /* its receiver reads it after the ones that came before, or each
       * (one copy of every message arrives at every node) */
      s[who].state = 4;
      s[who].arr = (t > rcv ? t : rcv) + mo->orecv;
      rcv = s[who].arr;
      if (rcv > end) end = rcv;
      int q = 0;
      while (lv->done[q] != who)
        q++;
      memmove(lv->done + q, lv->done + q + 1, (size_t)(lv->ndone - q - 1) * sizeof *lv->done);
      lv->ndone--;
      for (int j = who + 1; j < n; j++)
        if (xm_waits(p, s, j, who)) {
          s[j].left--;
          if (rcv > s[j].ready) s[j].ready = rcv;
        }
      continue; /* an arrival changes no share */
    }
    xm_share(mo, s, nd, lv);
  }
  return end;
}

/* The search's score: the clock, less a millionth of it for how much the
 * blocks gather on few moves (sum of cnt^2 over (sum of cnt)^2): the
 * clock moves in steps of o (a send more or less), and the plateaus
 * between are crossed toward plans with fewer, fuller messages. */
static double xm_score(const xm_plan *p, const mg_problem_spec *pb, xm_send *s, xm_live *lv, double *work) {
  int n;
  double e = xm_estimate(p, pb, s, lv, &n), sq = 0, sum = 0;
  size_t M = (size_t)p->R * (size_t)p->nm;
  /* the clock's cost: the fluid's events x sends; the round clock's
   * fixed part (every move of every round, the tallies) counted too */
  *work += (double)n * (double)n + 1 + (pb->model.timing == MG_TIMING_ASYNC ? 0 : 4.0 * (double)M + 64);
  for (size_t x = 0; x < M; x++)
    sq += (double)p->cnt[x] * (double)p->cnt[x], sum += (double)p->cnt[x];
  return sum > 0 ? e * (1 - 1e-6 * sq / (sum * sum)) : e;
}

static void xm_free(xm_plan *p) {
  free(p->sgn);
  free(p->dist);
  free(p->step);
  free(p->wt);
  free(p->cnt);
  free(p->load);
  free(p->pc);
  memset(p, 0, sizeof *p);
}

/* a hops spread over R rounds at random, at most reach a round */
static void xm_pick(uint64_t *rng, int R, int reach, int a, uint8_t *step) {
  memset(step, 0, (size_t)R);
  for (int q = 0; q < a; q++) {
    int r;
    do
      r = (int)(xm_rng(rng) % (uint64_t)R);
    while (step[r] >= reach);
    step[r]++;
  }
}

static mg_status xm_build(const mg_problem_spec *pb, const mg_params *ps, xm_plan *p, mg_err *err) {
  int64_t rounds, steps, reach;
  memset(p, 0, sizeof *p);
  mg_status st = xm_check(pb, ps, err);
  if (st == MG_OK) st = mg_param_int(ps, "rounds", 0, 0, XM_MAX_ROUNDS, &rounds, err);
  if (st == MG_OK) st = mg_param_int(ps, "reach", 1, 1, XM_MAX_REACH, &reach, err);
  /* by default the long search runs where it pays, under the clock of
   * the executor's sync=data on a machine with a send overhead (1000
   * steps a node, at most XM_SEARCH: a small torus has few offsets to
   * place); elsewhere a short one (every MPI rank searches) */
  int64_t def = XM_SEARCH_SHORT;
  if (pb->model.timing == MG_TIMING_ASYNC && pb->model.o > 0)
    def = (int64_t)pb->topo.N * 1000 < XM_SEARCH ? (int64_t)pb->topo.N * 1000 : XM_SEARCH;
  if (st == MG_OK) st = mg_param_int(ps, "search", def, 0, XM_SEARCH_MAX, &steps, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  int least = (xm_far(t) + (int)reach - 1) / (int)reach;
  p->t = t;
  p->d = t->d;
  p->N = t->N;
  p->reach = (int)reach;
  p->base = 2 * (int)reach + 1;
  p->R = rounds ? (int)rounds : (least + 1 <= XM_MAX_ROUNDS ? least + 1 : least);
  p->nm = 1;
  p->zero = 0;
  for (int i = 0; i < p->d; i++)
    p->zero += p->reach * p->nm, p->nm *= p->base;
  /* offsets: a ring's n_i residues, a line's 2 n_i - 1 signed distances */
  p->C = 1;
  p->zc = 0;
  for (int i = 0; i < p->d; i++) {
    p->span[i] = t->wrap[i] ? t->n[i] : 2 * t->n[i] - 1;
    p->zc += (t->wrap[i] ? 0 : t->n[i] - 1) * p->C;
    p->C *= p->span[i];
  }
  size_t M = (size_t)p->R * (size_t)p->nm, Nd = (size_t)p->C * (size_t)p->d;
  p->sgn = mg_calloc(Nd, sizeof *p->sgn);
  p->dist = mg_calloc(Nd, sizeof *p->dist);
  p->step = mg_calloc(Nd * (size_t)p->R, sizeof *p->step);
  p->wt = mg_calloc(p->C, sizeof *p->wt);
  p->cnt = mg_calloc(M, sizeof *p->cnt);
  p->load = mg_calloc(M, sizeof *p->load);
  p->pc = mg_calloc(M * M, sizeof *p->pc);
  xm_send *s = mg_calloc(M, sizeof *s);
  xm_live lv;
  int live = xm_live_alloc(&lv, M);
  uint8_t *b_step = mg_calloc(Nd * (size_t)p->R, sizeof *b_step),
          (*b_ord)[XM_MAX_NM] = mg_calloc(XM_MAX_ROUNDS, sizeof *b_ord);
  int8_t *b_sgn = mg_calloc(Nd, sizeof *b_sgn);
  if (!p->sgn || !p->dist || !p->step || !p->wt || !p->cnt || !p->load || !p->pc || !s || !live || !b_step || !b_ord ||
      !b_sgn) {
    st = mg_fail(err, MG_ERR_NOMEM, "exchange-moves: out of memory");
    goto out;
  }
  uint64_t rng = 0x9e3779b97f4a7c15u ^ (uint64_t)(p->R * 8 + p->reach);
  /* distances, tie signs and rounds at random (a fixed seed) */
  for (uint32_t c = 0; c < p->C; c++) {
    if (c == p->zc) continue;
    p->wt[c] = 1;
    uint32_t x[MG_MAX_DIMS];
    xm_class_coords(p, c, x);
    for (int i = 0; i < p->d; i++) {
      size_t k = (size_t)c * (size_t)p->d + (size_t)i;
      int n = (int)t->n[i], v = (int)x[i], sd = 2 * v < n ? v : v - n;
      if (t->wrap[i] && 2 * v == n) sd = xm_rng(&rng) & 1 ? v : -v;
      if (!t->wrap[i]) {
        sd = v - (n - 1);
        p->wt[c] *= (double)(n - (sd < 0 ? -sd : sd)) / (double)n; /* the sources it fits */
      }
      p->sgn[k] = (int8_t)(sd > 0 ? 1 : sd < 0 ? -1 : 0);
      p->dist[k] = (uint8_t)(sd < 0 ? -sd : sd);
      xm_pick(&rng, p->R, p->reach, p->dist[k], p->step + k * (size_t)p->R);
    }
    xm_apply(p, c, 1);
  }
  for (int r = 0; r < p->R; r++)
    for (int m = 0; m < p->nm; m++)
      p->ord[r][m] = (uint8_t)m;
  /* the search's result is a function of what it reads: the problem and
   * R, reach, steps (src/util/memo.c: every SMPI rank builds this plan) */
  mg_memo_key key;
  mg_memo_key_init(&key, "exchange-moves");
  mg_memo_key_spec(&key, pb);
  mg_memo_key_u64(&key, (uint64_t)p->R);
  mg_memo_key_u64(&key, (uint64_t)p->reach);
  mg_memo_key_u64(&key, (uint64_t)steps);
  size_t nstep = Nd * (size_t)p->R, nmemo = nstep + Nd + sizeof p->ord;
  unsigned char *memo = mg_calloc(nmemo, 1);
  if (!memo) {
    st = mg_fail(err, MG_ERR_NOMEM, "exchange-moves: out of memory");
    goto out;
  }
  if (mg_memo_get(&key, memo, nmemo)) {
    memcpy(b_step, memo, nstep);
    memcpy(b_sgn, memo + nstep, Nd);
    memcpy(b_ord, memo + nstep + Nd, sizeof p->ord);
    free(memo);
    goto recount;
  }
  double work = 0, est = xm_score(p, pb, s, &lv, &work), best = est;
  memcpy(b_step, p->step, Nd * (size_t)p->R);
  memcpy(b_sgn, p->sgn, Nd);
  memcpy(b_ord, p->ord, sizeof p->ord);
  /* simulated annealing: an offset's rounds along one axis or all (and a
   * tie's sign), or two sends of a round swapped; a change stays if the
   * score does not get worse, or by chance exp(-worse / T), T falling
   * from a fraction of a send's o to 0; the best plan seen is kept */
  double T0 = 0.2 * (pb->model.o > 0 ? pb->model.o : 0.01 * est);
  double budget = pb->model.timing == MG_TIMING_ASYNC ? XM_WORK : XM_WORK_ROUNDS;
  for (int64_t it = 0; it < steps && work < budget && p->C > 1; it++) {
    double fs = (double)it / (double)steps, fw = work / budget, f = 1 - (fs > fw ? fs : fw), T = T0 * f * f;
    double u = (double)(xm_rng(&rng) >> 11) * (1.0 / 9007199254740992.0);
    double lim = T > 0 ? -T * log(u > 0 ? u : 1e-300) : 0; /* accept e <= est + lim */
    if (xm_rng(&rng) % 5 == 0) {
      int r = (int)(xm_rng(&rng) % (uint64_t)p->R);
      int a = (int)(xm_rng(&rng) % (uint64_t)p->nm), b = (int)(xm_rng(&rng) % (uint64_t)p->nm);
      if (a == b) continue;
      uint8_t tmp = p->ord[r][a];
      p->ord[r][a] = p->ord[r][b], p->ord[r][b] = tmp;
      double e = xm_score(p, pb, s, &lv, &work);
      if (e <= est + lim)
        est = e;
      else
        p->ord[r][b] = p->ord[r][a], p->ord[r][a] = tmp;
    } else {
      uint32_t c = (uint32_t)(xm_rng(&rng) % (p->C - 1));
      c += c >= p->zc; /* any offset but 0 */
      int all = (int)(xm_rng(&rng) & 1), i0 = (int)(xm_rng(&rng) % (uint64_t)p->d);
      size_t k0 = (size_t)c * (size_t)p->d, R = (size_t)p->R;
      uint8_t os[XM_MAX_D * XM_MAX_ROUNDS];
      int8_t og[XM_MAX_D];
      memcpy(os, p->step + k0 * R, (size_t)p->d * R);
      memcpy(og, p->sgn + k0, (size_t)p->d);
      xm_apply(p, c, -1);
      for (int i = 0; i < p->d; i++) {
        size_t k = k0 + (size_t)i;
        if (!p->dist[k] || (!all && i != i0)) continue;
        xm_pick(&rng, p->R, p->reach, p->dist[k], p->step + k * R);
        if (t->wrap[i] && 2 * p->dist[k] == (int)t->n[i] && xm_rng(&rng) % 2) p->sgn[k] = (int8_t)-p->sgn[k];
      }
      xm_apply(p, c, 1);
      double e = xm_score(p, pb, s, &lv, &work);
      if (e <= est + lim) {
        est = e;
      } else {
        xm_apply(p, c, -1);
        memcpy(p->step + k0 * R, os, (size_t)p->d * R);
        memcpy(p->sgn + k0, og, (size_t)p->d);
        xm_apply(p, c, 1);
      }
    }
    if (est < best) {
      best = est;
      memcpy(b_step, p->step, Nd * (size_t)p->R);
      memcpy(b_sgn, p->sgn, Nd);
      memcpy(b_ord, p->ord, sizeof p->ord);
    }
  }
  memcpy(memo, b_step, nstep);
  memcpy(memo + nstep, b_sgn, Nd);
  memcpy(memo + nstep + Nd, b_ord, sizeof p->ord);
  mg_memo_put(&key, memo, nmemo);
  free(memo);
recount:
  /* the best plan seen, its tallies recounted */
  memcpy(p->step, b_step, Nd * (size_t)p->R);
  memcpy(p->sgn, b_sgn, Nd);
  memcpy(p->ord, b_ord, sizeof p->ord);
  memset(p->cnt, 0, M * sizeof *p->cnt);
  memset(p->load, 0, M * sizeof *p->load);
  memset(p->pc, 0, M * M * sizeof *p->pc);
  for (uint32_t c = 0; c < p->C; c++)
    if (c != p->zc) xm_apply(p, c, 1);
out:
  free(s);
  xm_live_free(&lv);
  free(b_step);
  free(b_ord);
  free(b_sgn);
  if (st != MG_OK) xm_free(p);
  return st;
}

/* Per-message context: node v's send of move m in round r. */
typedef struct xm_ctx {
  const xm_plan *p;
  uint32_t v;
  int r, m;
} xm_ctx;

/* Where a block of offset class dl from s is at the start of round r
 * (on a line it never leaves the box between its ends). */
static uint32_t xm_at(const xm_plan *p, uint32_t dl, uint32_t s, int r) {
  const mg_topo *t = p->t;
  uint32_t x[MG_MAX_DIMS];
  mg_topo_coords(t, s, x);
  for (int i = 0; i < p->d; i++) {
    size_t k = (size_t)dl * (size_t)p->d + (size_t)i;
    int before = 0, n = (int)t->n[i];
    for (int q = 0; q < r; q++)
      before += p->step[k * (size_t)p->R + (size_t)q];
    x[i] = (uint32_t)((((int)x[i] + p->sgn[k] * before) % n + n) % n);
  }
  return mg_topo_id(t, x);
}

/* Block item = src * N + dst: in the message if its offset takes move m
 * in round r and its earlier moves brought it from src to v. */
static int xm_carried(uint64_t item, void *arg) {
  const xm_ctx *c = arg;
  const xm_plan *p = c->p;
  uint32_t N = p->N, s = (uint32_t)(item / N), w = (uint32_t)(item % N);
  uint32_t dl = xm_class_of(p, s, w);
  return xm_move(p, dl, c->r) == c->m && xm_at(p, dl, s, c->r) == c->v;
}

static uint32_t xm_target(const xm_plan *p, uint32_t v, int m) {
  uint32_t x[MG_MAX_DIMS];
  mg_topo_coords(p->t, v, x);
  for (int i = 0, q = m; i < p->d; i++, q /= p->base) {
    int n = (int)p->t->n[i];
    x[i] = (uint32_t)(((int)x[i] + q % p->base - p->reach + n) % n);
  }
  return mg_topo_id(p->t, x);
}

static mg_status xm_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  xm_plan p;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = xm_build(pb, ps, &p, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  xm_ctx *ctx = mg_calloc((uint64_t)t->N * (uint64_t)p.nm, sizeof *ctx);
  /* on a mesh a node near the edge lacks some moves a round: has[v nm + m]
   * (on a torus every node sends every move the plan uses) */
  int mesh = !mg_topo_is_torus(t);
  uint8_t *has = mesh ? mg_calloc((uint64_t)t->N * (uint64_t)p.nm, 1) : NULL;
  if (!ctx || (mesh && !has)) {
    free(ctx);
    xm_free(&p);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-moves: out of memory");
  }
  int rounds = 0;
  for (int r = 0; r < p.R; r++) {
    int any = 0;
    for (int m = 0; m < p.nm; m++)
      any |= p.cnt[r * p.nm + m] != 0;
    rounds += any;
  }
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-moves", ps, 1, 0, rounds, err));
  for (int r = 0; r < p.R; r++) {
    xm_ctx *c = ctx;
    int any = 0;
    if (mesh) {
      memset(has, 0, (size_t)t->N * (size_t)p.nm);
      for (uint32_t s = 0; s < t->N; s++)
        for (uint32_t w = 0; w < t->N; w++) {
          uint32_t dl = xm_class_of(&p, s, w);
          int m = xm_move(&p, dl, r);
          if (s != w && m != p.zero) has[(size_t)xm_at(&p, dl, s, r) * (size_t)p.nm + (size_t)m] = 1;
        }
    }
    for (uint32_t v = 0; v < t->N; v++)
      for (int k = 0; k < p.nm; k++) {
        int m = p.ord[r][k];
        if (m == p.zero || !p.cnt[r * p.nm + m] || (mesh && !has[(size_t)v * (size_t)p.nm + (size_t)m])) continue;
        any = 1;
        *c = (xm_ctx){&p, v, r, m};
        mg_transfer tr = mg_xfer(v, xm_target(&p, v, m));
        tr.nseg = (uint8_t)mg_route_network(t, MG_ROUTES_SIMGRID, v, tr.dst, tr.seg);
        tr.sel.flags = MG_SEL_PRED;
        tr.sel.pred = xm_carried;
        tr.sel.pred_arg = c++;
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    if (any) MG_CHECK(mg_emit_round(&e, err)); /* consumed here: ctx is reused next round */
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(ctx);
  free(has);
  xm_free(&p);
  return st;
}

/* Under timing=async and contention=fair the clock of the search is the
 * simulator's for this plan (the header): the closed form. */
static mg_status xm_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  const mg_model *m = &pb->model;
  /* with o = 0 and or > 0 a node's messages arrive together and the
   * simulator reads them in an order that depends on the senders' ids:
   * the nodes are no longer alike */
  if (!mg_topo_is_torus(&pb->topo))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-moves: tori (a mesh's nodes are not alike)");
  if (m->timing != MG_TIMING_ASYNC || m->contention != MG_CONT_FAIR || m->tl <= 0 ||
      (m->switching != MG_SW_WORMHOLE && m->switching != MG_SW_CIRCUIT) || (m->o <= 0 && m->orecv > 0))
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "closed form of exchange-moves: timing=async, contention=fair, tl > 0, wormhole or circuit, not "
                   "or > 0 with o = 0");
  xm_plan p;
  mg_status st = xm_build(pb, ps, &p, err);
  if (st != MG_OK) return st;
  size_t M = (size_t)p.R * (size_t)p.nm;
  xm_send *s = mg_calloc(M, sizeof *s);
  xm_live lv;
  if (!xm_live_alloc(&lv, M) || !s) {
    st = mg_fail(err, MG_ERR_NOMEM, "exchange-moves: out of memory");
  } else {
    int n;
    *cost = xm_estimate(&p, pb, s, &lv, &n);
  }
  free(s);
  xm_live_free(&lv);
  xm_free(&p);
  return st;
}

static mg_status xm_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  const mg_topo *t = &pb->topo;
  int far = xm_far(t), seen = 0;
  mg_status st = MG_OK;
  /* reach 1 and 2 (moves of up to 2 hops an axis: 8x8 takes 2 rounds; 3
   * where a long line needs it), each with the least rounds and one more:
   * the settings the check accepts */
  for (int reach = 1; reach <= XM_MAX_REACH && (reach <= 2 || !seen); reach++) {
    int least = (far + reach - 1) / reach;
    for (int r = least; r <= least + 1 && r <= XM_MAX_ROUNDS; r++) {
      mg_params ps = {0};
      if ((st = mg_params_set_int(&ps, "reach", reach, err)) != MG_OK ||
          (st = mg_params_set_int(&ps, "rounds", r, err)) != MG_OK)
        return st;
      if (xm_check(pb, &ps, err) != MG_OK) continue;
      seen++;
      if ((st = visit(arg, &ps)) != MG_OK) return st;
    }
  }
  if (!seen) { /* why the default does not fit */
    mg_params none = {0};
    st = xm_check(pb, &none, err);
    return st != MG_OK ? st : mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-moves: no reach of 1 to 3 fits");
  }
  return MG_OK;
}

static const mg_param_desc xm_params[] = {
    {"rounds", "0",
     "rounds (1 .. 8), at least the longest distance along an axis over reach (0: that plus one, at most 8)"},
    {"reach", "1", "hops a move takes along an axis (1 .. 3), under half of every side"},
    {"search", "auto",
     "simulated-annealing steps (0 .. 200000) on each offset's steps, the ties' signs and the sends' order, against "
     "the model's clock; auto: under timing=async with a send overhead o 1000 per node, at most 60000, else 2000 (a "
     "budget of 2e8 sends^2 per clock, 2e7 under the round clocks, caps big plans)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_moves = {
    .name = "exchange-moves",
    .problem = MG_EXCHANGE,
    .summary = "store-and-forward exchange in a few rounds of moves of at most `reach` hops an axis, shortest "
               "routes, fitted to the model's clock",
    .paper = "ours, after Bruck et al. (TPDS 1997)",
    .restrictions = "grids (tori, rings, meshes, lines) of 1 to 3 axes, sides 2 to 16 (rings 3 to 16, above 2 "
                    "reach), at most 1024 nodes and 125 moves; all-port, contention=shared or fair",
    .rounding = "none",
    .params = xm_params,
    .needs_shared = 1,
    .check = xm_check,
    .generate = xm_generate,
    .closed_form = xm_closed_form,
    .candidates = xm_candidates,
};

/*
 * exchange-slots — complete exchange in S slots of one message per node,
 * a block never forwarded in the slot right after the one that brought it,
 * so a node's sends go out back to back: no send waits for a receive.
 *
 * Why (issue 16, on the SMPI platform of docs/paragon.md: 250 µs of CPU
 * per message, one after the other). Bruck's store-and-forward exchange
 * (Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient Algorithms for
 * All-to-All Communications in Multiport Message-Passing Systems", IEEE
 * TPDS 1997) and the dimension-wise exchanges forward in each step what
 * the step before brought, so a step's first send waits for the last
 * transfer of the step before: on 4x4x4 at 1 KiB exchange-lines' nine
 * sends of 16 KiB take 2.653 ms, 2.25 ms of overheads and three waits.
 * Here a block that arrives by the message of slot i leaves in slot i + 2
 * or later, when that message (under o long) is in: the sends never wait,
 * and the exchange ends at S o plus the last message's transfer.
 *
 * Derivation (ours). The torus is the group Z_n1 x .. x Z_nd. In slot j
 * every node v sends one message, to v + o_j; block (u, u + delta) travels
 * by a set R(delta) of slots whose offsets sum to delta, in slot order,
 * and slot j's message carries the blocks whose set holds j (m_j blocks:
 * one per offset delta with j in R(delta)). No two slots of a set are
 * adjacent, except that `lag=k` lets a block of one of the first k slots
 * go on in the next (a wait of that slot's transfer, worth it when the
 * message is small and fewer blocks then ride the last slot). Sets with no
 * two adjacent slots of 1..S number F(S + 2) - 1 (Fibonacci), so S is at
 * least the least with F(S + 2) - 1 >= N - 1 (on 4x4x4 9 slots, 88 sets
 * for 63 offsets), and a set must hold as many slots as the longest
 * distance along an axis. Every offset o_j moves at most one hop along
 * each axis (digits 0 or +-1): with every node sending the same offset,
 * each arc carries one message a slot, on SimGrid's routes too (no tie).
 * A block's walk visits no node twice (a return is a move for nothing;
 * such a plan also found a deadlock in the MPI executor's sync=data, now
 * fixed in src/mpi/plan.c). The plan is searched (a fixed seed: every MPI rank builds
 * the same): hill climbing on the offsets until every delta has a set,
 * with the fewest forced into the last slot, from the least S up to 4
 * more; then, for each delta, the choice among its sets, against the
 * clock of the model the schedule is generated under (xs_estimate: a
 * node's sends in slot order, o of CPU each, each once the slots whose
 * blocks it forwards are in; under the round clock the sum of the slots).
 * Where no offsets are found (9x9: offset (4, 4) needs four slots of one
 * hop an axis, apart) or the least S is above 24 (16x16: 31), the axis
 * sweeps (xs_sweeps), which serve every torus; on a ring always (its
 * sweep, + and - alternating, has the fewest slots sets of +-1 can do
 * with: 2 floor(n/2), the last one empty when n is even).
 *
 * Rounds: S, less the slots that carry nothing (then the slots beside one
 * follow each other: the clock of the search counts that); one message
 * per node a round, so one-port too. Cost (wormhole or circuit,
 * contention strict or shared; every arc carries one message a round):
 *   sum_j ts + h_j td + m_j b tl,  h_j the axes o_j moves along.
 * Restrictions: tori and rings, at most 512 nodes, the axis sweeps at most
 * 32 slots (sum of 2 floor(n_i / 2)); not buses. Rounding: none.
 *
 * Trace, ring:4 (its sweep): slots o = (+1, -1, +1, -1), the fourth empty
 * (offset 2 is a tie, taken +); delta 2 by {1, 3}, delta 3 by {2}, delta 1
 * by {3}: slot 1 v -> v+1 {(v, v+2)}, slot 2 v -> v-1 {(v, v-1)}, slot 3
 * v -> v+1 {(v, v+1), (v-1, v+1)}: 1 + 1 + 2 blocks.
 */
#include "digit_plan.h"
#include "../../model/model.h"

#include <stdlib.h>
#include <string.h>

#define XS_MAX_SLOTS  32 /* a set is a 32-bit mask; the axis sweeps take sum 2 floor(n_i / 2) */
#define XS_SRCH_SLOTS 24 /* slots the search tries at most */
#define XS_MAX_NODES  512
#define XS_MAX_LAG    3
#define XS_SEARCH     20000  /* hill-climbing steps on the offsets, by default */
#define XS_SEARCH_MAX 100000 /* at most (a plan is built on every MPI rank) */
#define XS_WORK       1.5e7  /* set sums the search may compute per slot count (a bound on its time) */
#define XS_RESTARTS   8
#define XS_CHOICE     6000 /* hill-climbing steps on the choice of sets */

typedef struct xs_plan {
  const mg_topo *t;
  int S, lag;
  uint32_t off[XS_MAX_SLOTS]; /* o_j as a node id (its coordinates) */
  int hops[XS_MAX_SLOTS];     /* axes o_j moves along */
  uint32_t *route;            /* [N] slot mask of delta's set; 0 for delta 0 */
  uint32_t load[XS_MAX_SLOTS];
  uint32_t need[XS_MAX_SLOTS]; /* slots whose blocks slot j forwards */
} xs_plan;

/* The search's state: the sets of the slots, their sums under the
 * current offsets, and per delta its sets (CSR). */
typedef struct xs_search {
  int S, lag, d;
  uint32_t N, nsets, ncand;
  uint32_t *mask;  /* [nsets] */
  uint32_t *sum;   /* [nsets] delta of set k */
  uint32_t *cand;  /* [ncand] offsets with every digit 0 or +-1 */
  uint32_t *cnt;   /* [N] sets per delta */
  uint32_t *free_; /* [N] of them without the last slot */
  uint32_t *pair;  /* [N] of them without adjacent slots */
  uint32_t oc[XS_MAX_SLOTS][MG_MAX_DIMS];
} xs_search;

static uint64_t xs_rng(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

static mg_status xs_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int64_t v;
  mg_status st = mg_param_int(ps, "slots", 0, 0, XS_SRCH_SLOTS, &v, err);
  if (st == MG_OK) st = mg_param_int(ps, "lag", 0, 0, XS_MAX_LAG, &v, err);
  if (st == MG_OK) st = mg_param_int(ps, "search", XS_SEARCH, 1, XS_SEARCH_MAX, &v, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  if (pb->problem != MG_EXCHANGE) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-slots solves complete exchange");
  if (pb->model.switching == MG_SW_BUS) return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-slots does not run on buses");
  if (t->kind != MG_TOPO_GRID || !mg_topo_is_torus(t))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "exchange-slots runs on tori and rings");
  if (t->N > XS_MAX_NODES)
    return mg_fail(err, MG_ERR_TOO_LARGE, "exchange-slots: %u nodes, at most %d", t->N, XS_MAX_NODES);
  uint32_t sweep = 0;
  for (int i = 0; i < t->d; i++)
    sweep += 2 * (t->n[i] / 2);
  if (sweep > XS_MAX_SLOTS)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "exchange-slots: the axis sweeps would take %u slots, at most %d (sum of 2 floor(n_i / 2))", sweep,
                   XS_MAX_SLOTS);
  return MG_OK;
}

/* Every set of slots 0..S-1 with no two adjacent ones but a pair (i, i +
 * 1) with i < lag, in depth-first order; returns how many (masks may be
 * NULL to count). */
static uint32_t xs_sets(int S, int lag, int from, uint32_t prefix, uint32_t *masks, uint32_t k) {
  for (int s = from; s < S; s++) {
    uint32_t m = prefix | 1u << s;
    if (masks) masks[k] = m;
    k++;
    int next = s + (s < lag ? 1 : 2);
    k = xs_sets(S, lag, next, m, masks, k);
  }
  return k;
}

/* The sums of every set under offsets oc, in xs_sets' order; UINT32_MAX
 * for a set whose walk visits a node twice (its source included): such a
 * block would come back to where it was. */
static uint32_t xs_sums_walk(xs_search *x, const mg_topo *t, int from, const uint32_t *c, uint32_t *seen, int depth,
                             int bad, uint32_t k) {
  for (int s = from; s < x->S; s++) {
    uint32_t y[MG_MAX_DIMS];
    for (int i = 0; i < x->d; i++)
      y[i] = (c[i] + x->oc[s][i]) % t->n[i];
    uint32_t id = mg_topo_id(t, y);
    int b = bad;
    for (int q = 0; q <= depth && !b; q++)
      b = seen[q] == id;
    seen[depth + 1] = id;
    x->sum[k++] = b ? UINT32_MAX : id;
    k = xs_sums_walk(x, t, s + (s < x->lag ? 1 : 2), y, seen, depth + 1, b, k);
  }
  return k;
}

/* The offsets' score: deltas with a set first, then fewest forced into
 * the last slot, then fewest forced onto an adjacent pair. */
static int64_t xs_score(xs_search *x, const mg_topo *t) {
  uint32_t zero[MG_MAX_DIMS] = {0}, seen[XS_MAX_SLOTS + 1] = {0};
  xs_sums_walk(x, t, 0, zero, seen, 0, 0, 0);
  memset(x->cnt, 0, x->N * sizeof *x->cnt);
  memset(x->free_, 0, x->N * sizeof *x->free_);
  memset(x->pair, 0, x->N * sizeof *x->pair);
  uint32_t last = 1u << (x->S - 1);
  for (uint32_t k = 0; k < x->nsets; k++) {
    uint32_t dl = x->sum[k], m = x->mask[k];
    if (dl == UINT32_MAX) continue;
    x->cnt[dl]++;
    if (!(m & last)) x->free_[dl]++;
    if (!(m & m >> 1)) x->pair[dl]++;
  }
  int64_t covered = 0, forced_last = 0, forced_pair = 0;
  for (uint32_t dl = 1; dl < x->N; dl++)
    if (x->cnt[dl]) {
      covered++;
      forced_last += !x->free_[dl];
      forced_pair += !x->pair[dl];
    }
  int64_t N = x->N;
  return covered * N * N - forced_last * N - forced_pair;
}

static void xs_set_offset(xs_search *x, const mg_topo *t, int s, uint32_t id) { mg_topo_coords(t, id, x->oc[s]); }

/* A message of m blocks with h hops under the model. */
static double xs_msg(const mg_problem_spec *pb, uint32_t m, int h) {
  const mg_model *mo = &pb->model;
  double slow = mo->contention == MG_CONT_FAIR ? 1 + mo->ack : 1;
  return mo->ts + h * mo->td + mo->tl * mg_model_wire_bytes(mo, (double)m * pb->bytes) * slow;
}

/* The clock the plan is fitted to. Under timing=async (the MPI
 * executor's sync=data) a node's sends in slot order, o of CPU each, each
 * once the messages of the slots whose blocks it forwards are in (sent by
 * neighbours at the same moment: every node runs the same plan); under
 * any other timing the sum of the slots (o + the message). */
static double xs_estimate(const mg_problem_spec *pb, int S, const uint32_t *load, const uint32_t *need,
                          const int *hops) {
  const mg_model *mo = &pb->model;
  double arr[XS_MAX_SLOTS] = {0}, cpu = 0, end = 0;
  for (int j = 0; j < S; j++) {
    if (!load[j]) continue;
    double msg = xs_msg(pb, load[j], hops[j]);
    if (mo->timing != MG_TIMING_ASYNC) {
      end += mo->o + msg;
      continue;
    }
    double s = cpu;
    for (int i = 0; i < j; i++)
      if ((need[j] >> i & 1) && arr[i] > s) s = arr[i];
    cpu = s + mo->o;
    arr[j] = cpu + msg;
    if (arr[j] > end) end = arr[j];
  }
  return end;
}

/* Adds (sign +1) or removes (-1) set m to the tallies. */
static void xs_apply(xs_plan *p, uint32_t *pc, uint32_t m, int sign) {
  int prev = -1;
  for (int j = 0; j < p->S; j++)
    if (m >> j & 1) {
      p->load[j] += (uint32_t)sign;
      if (prev >= 0) pc[prev * p->S + j] += (uint32_t)sign;
      prev = j;
    }
}

/* Loads and forwarding needs of the chosen sets. pc[i S + j]: chosen sets
 * in which slot j follows slot i. */
static void xs_tally(xs_plan *p, uint32_t *pc) {
  memset(p->load, 0, sizeof p->load);
  memset(pc, 0, (size_t)p->S * (size_t)p->S * sizeof *pc);
  for (uint32_t dl = 1; dl < p->t->N; dl++)
    xs_apply(p, pc, p->route[dl], 1);
}

static void xs_needs(xs_plan *p, const uint32_t *pc) {
  for (int j = 0; j < p->S; j++) {
    p->need[j] = 0;
    for (int i = 0; i < j; i++)
      if (pc[i * p->S + j]) p->need[j] |= 1u << i;
  }
}

static void xs_free(xs_plan *p) {
  free(p->route);
  p->route = NULL;
}

static void xs_search_free(xs_search *x) {
  free(x->mask);
  free(x->sum);
  free(x->cand);
  free(x->cnt);
  free(x->free_);
  free(x->pair);
}

/* Searches offsets for S slots; on success fills p (offsets, a set per
 * delta fitted to the model's clock) and returns 1. */
static int xs_try(const mg_problem_spec *pb, xs_search *x, int S, int64_t steps, xs_plan *p, uint32_t *pc,
                  uint32_t *first, uint32_t *list) {
  const mg_topo *t = &pb->topo;
  uint32_t N = t->N;
  x->S = S;
  x->nsets = xs_sets(S, x->lag, 0, 0, x->mask, 0);
  uint64_t rng = 0x9e3779b97f4a7c15u ^ (uint64_t)S;
  uint32_t best_off[XS_MAX_SLOTS] = {0}, cur[XS_MAX_SLOTS];
  int64_t best = INT64_MIN;
  int64_t per = steps / XS_RESTARTS > 0 ? steps / XS_RESTARTS : 1;
  for (int r = 0; r < XS_RESTARTS; r++) {
    for (int s = 0; s < S; s++)
      xs_set_offset(x, t, s, cur[s] = x->cand[xs_rng(&rng) % x->ncand]);
    int64_t sc = xs_score(x, t);
    for (int64_t it = 0; it < per; it++) {
      int s = (int)(xs_rng(&rng) % (uint64_t)S);
      uint32_t old = cur[s];
      xs_set_offset(x, t, s, cur[s] = x->cand[xs_rng(&rng) % x->ncand]);
      int64_t s2 = xs_score(x, t);
      if (s2 >= sc)
        sc = s2;
      else
        xs_set_offset(x, t, s, cur[s] = old);
    }
    if (sc > best) best = sc, memcpy(best_off, cur, (size_t)S * sizeof *cur);
  }
  for (int s = 0; s < S; s++)
    xs_set_offset(x, t, s, best_off[s]);
  xs_score(x, t);
  for (uint32_t dl = 1; dl < N; dl++)
    if (!x->cnt[dl]) return 0; /* some delta has no set */
  /* per delta its sets (CSR over xs_sets' order) */
  memset(first, 0, (N + 1) * sizeof *first);
  for (uint32_t k = 0; k < x->nsets; k++)
    if (x->sum[k] != UINT32_MAX) first[x->sum[k] + 1]++;
  for (uint32_t dl = 0; dl < N; dl++)
    first[dl + 1] += first[dl];
  uint32_t *fill = x->cnt; /* reused as cursors */
  memcpy(fill, first, N * sizeof *fill);
  for (uint32_t k = 0; k < x->nsets; k++)
    if (x->sum[k] != UINT32_MAX) list[fill[x->sum[k]]++] = x->mask[k];
  p->S = S;
  p->lag = x->lag;
  for (int s = 0; s < S; s++) {
    p->off[s] = best_off[s];
    p->hops[s] = 0;
    for (int i = 0; i < x->d; i++)
      p->hops[s] += x->oc[s][i] != 0;
  }
  /* first choice: no last slot, no adjacent pair, fewest slots */
  uint32_t last = 1u << (S - 1);
  p->route[0] = 0;
  for (uint32_t dl = 1; dl < N; dl++) {
    uint32_t pick = 0;
    int key = 1 << 30;
    for (uint32_t k = first[dl]; k < first[dl + 1]; k++) {
      uint32_t m = list[k];
      int kk = (m & last ? 1 << 12 : 0) + (m & m >> 1 ? 1 << 8 : 0) + __builtin_popcount(m);
      if (kk < key) key = kk, pick = m;
    }
    p->route[dl] = pick;
  }
  xs_tally(p, pc);
  xs_needs(p, pc);
  double est = xs_estimate(pb, S, p->load, p->need, p->hops);
  /* then hill climbing on the choices against the model's clock */
  for (int it = 0; it < XS_CHOICE; it++) {
    uint32_t dl = 1 + (uint32_t)(xs_rng(&rng) % (N - 1));
    uint32_t n = first[dl + 1] - first[dl];
    if (n < 2) continue;
    uint32_t m = list[first[dl] + (uint32_t)(xs_rng(&rng) % n)], old = p->route[dl];
    if (m == old) continue;
    xs_apply(p, pc, old, -1);
    xs_apply(p, pc, m, 1);
    xs_needs(p, pc);
    double e = xs_estimate(pb, S, p->load, p->need, p->hops);
    if (e <= est) {
      est = e;
      p->route[dl] = m;
    } else {
      xs_apply(p, pc, m, -1);
      xs_apply(p, pc, old, 1);
      xs_needs(p, pc);
    }
  }
  return 1;
}

/* Where the search finds no offsets: the axis sweeps. For each axis i in
 * turn 2 h_i slots (h_i = floor(n_i / 2)) alternating +e_i and -e_i; delta
 * takes, along each axis, |s_i| slots of its sign (the shorter way round,
 * a tie +): the + slots from the end of the axis's sweep, the - slots from
 * its start. Every delta has a set (so every torus the check accepts is
 * served); slots of one sign are never adjacent, but the last slot of one
 * axis and the first of the next may be (a wait the clock counts). */
static void xs_sweeps(xs_plan *p, uint32_t *pc) {
  const mg_topo *t = p->t;
  int base[MG_MAX_DIMS], S = 0;
  for (int i = 0; i < t->d; i++) {
    base[i] = S;
    S += 2 * (int)(t->n[i] / 2);
  }
  p->S = S;
  p->lag = 0;
  for (int i = 0; i < t->d; i++)
    for (int q = 0; q < (int)(t->n[i] / 2); q++)
      for (int sg = 0; sg < 2; sg++) {
        uint32_t c[MG_MAX_DIMS] = {0};
        c[i] = sg ? t->n[i] - 1 : 1;
        p->off[base[i] + 2 * q + sg] = mg_topo_id(t, c);
        p->hops[base[i] + 2 * q + sg] = 1;
      }
  for (uint32_t dl = 1; dl < t->N; dl++) {
    uint32_t c[MG_MAX_DIMS], m = 0;
    mg_topo_coords(t, dl, c);
    for (int i = 0; i < t->d; i++) {
      int n = (int)t->n[i], h = n / 2, sgn = (int)c[i] <= h ? (int)c[i] : (int)c[i] - n;
      for (int q = 0; q < (sgn < 0 ? -sgn : sgn); q++)
        m |= 1u << (base[i] + (sgn > 0 ? 2 * (h - 1 - q) : 2 * q + 1));
    }
    p->route[dl] = m;
  }
  xs_tally(p, pc);
  xs_needs(p, pc);
}

static mg_status xs_build(const mg_problem_spec *pb, const mg_params *ps, xs_plan *p, mg_err *err) {
  int64_t slots, lag, steps;
  memset(p, 0, sizeof *p);
  mg_status st = xs_check(pb, ps, err);
  if (st == MG_OK) st = mg_param_int(ps, "slots", 0, 0, XS_SRCH_SLOTS, &slots, err);
  if (st == MG_OK) st = mg_param_int(ps, "lag", 0, 0, XS_MAX_LAG, &lag, err);
  if (st == MG_OK) st = mg_param_int(ps, "search", XS_SEARCH, 1, XS_SEARCH_MAX, &steps, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  uint32_t N = t->N;
  p->t = t;
  p->route = mg_calloc(N, sizeof *p->route);
  if (!p->route) return mg_fail(err, MG_ERR_NOMEM, "exchange-slots: out of memory");
  if (N == 1) return MG_OK; /* nothing to exchange: no slots */
  /* the least S whose sets can name every offset, and hold as many slots
   * as the longest distance along an axis (one hop an axis a slot) */
  int lo = 1, far = 0;
  while (lo < XS_SRCH_SLOTS && xs_sets(lo, (int)lag, 0, 0, NULL, 0) < N - 1)
    lo++;
  for (int i = 0; i < t->d; i++)
    if ((int)(t->n[i] / 2) > far) far = (int)(t->n[i] / 2);
  int reach = far <= lag + 1 ? far : (int)lag + 1 + 2 * (far - (int)lag - 1);
  if (reach > lo) lo = reach;
  if (slots && slots < lo) {
    xs_free(p);
    return mg_fail(err, MG_ERR_INVALID,
                   "exchange-slots: slots=%lld, at least %d here (sets for the %u offsets, slots for the longest "
                   "distance along an axis)",
                   (long long)slots, lo, N - 1);
  }
  int hi = slots ? (int)slots : (lo + 4 < XS_SRCH_SLOTS ? lo + 4 : XS_SRCH_SLOTS);
  xs_search x;
  memset(&x, 0, sizeof x);
  x.d = t->d;
  x.N = N;
  x.lag = (int)lag;
  uint32_t most = lo <= hi ? xs_sets(hi, (int)lag, 0, 0, NULL, 0) : 1;
  uint32_t ncand = 1;
  for (int i = 0; i < t->d; i++)
    ncand *= t->n[i] < 3 ? t->n[i] : 3;
  x.mask = mg_calloc(most, sizeof *x.mask);
  x.sum = mg_calloc(most, sizeof *x.sum);
  x.cand = mg_calloc(ncand, sizeof *x.cand);
  x.cnt = mg_calloc(N + 1, sizeof *x.cnt);
  x.free_ = mg_calloc(N, sizeof *x.free_);
  x.pair = mg_calloc(N, sizeof *x.pair);
  uint32_t *first = mg_calloc(N + 1, sizeof *first), *list = mg_calloc(most, sizeof *list);
  uint32_t *pc = mg_calloc((uint64_t)XS_MAX_SLOTS * XS_MAX_SLOTS, sizeof *pc);
  if (!x.mask || !x.sum || !x.cand || !x.cnt || !x.free_ || !x.pair || !first || !list || !pc) {
    st = mg_fail(err, MG_ERR_NOMEM, "exchange-slots: out of memory");
    goto out;
  }
  /* the offsets: every digit 0, +1 or -1 (n_i - 1), not all 0 */
  x.ncand = 0;
  for (uint32_t id = 1; id < N; id++) {
    uint32_t c[MG_MAX_DIMS];
    int ok = 1;
    mg_topo_coords(t, id, c);
    for (int i = 0; i < t->d; i++)
      ok &= c[i] == 0 || c[i] == 1 || c[i] == t->n[i] - 1;
    if (ok) x.cand[x.ncand++] = id;
  }
  /* a ring's offsets are +-1, and its sweep already has the fewest slots
   * a set of them can do with (the search would find as many, slowly):
   * on a ring `slots` is only checked against that least count */
  int found = 0, ring = t->d == 1;
  for (int S = slots ? (int)slots : lo; S <= hi && !found && !ring; S++) {
    uint32_t nsets = xs_sets(S, (int)lag, 0, 0, NULL, 0);
    int64_t budget = (int64_t)(XS_WORK / (double)nsets);
    found = xs_try(pb, &x, S, steps < budget ? steps : budget, p, pc, first, list);
  }
  if (!found && slots && !ring)
    st = mg_fail(err, MG_ERR_UNSUPPORTED,
                 "exchange-slots: no offsets found whose sets reach every node of %u in %d slots", N, (int)slots);
  else if (!found)
    xs_sweeps(p, pc);
out:
  xs_search_free(&x);
  free(first);
  free(list);
  free(pc);
  if (st != MG_OK) xs_free(p);
  return st;
}

/* Per-message context: node v's send of slot j. */
typedef struct xs_ctx {
  const xs_plan *p;
  uint32_t v;
  int j;
} xs_ctx;

/* Block item = src * N + dst: in the message if its set holds slot j and
 * its earlier slots brought it from src to v. */
static int xs_carried(uint64_t item, void *arg) {
  const xs_ctx *c = arg;
  const xs_plan *p = c->p;
  uint32_t N = p->t->N, s = (uint32_t)(item / N), w = (uint32_t)(item % N);
  uint32_t m = p->route[mg_dp_sub(p->t, w, s)];
  if (!(m >> c->j & 1)) return 0;
  uint32_t at = s;
  for (int i = 0; i < c->j; i++)
    if (m >> i & 1) at = mg_dp_add(p->t, at, p->off[i]);
  return at == c->v;
}

static mg_status xs_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  xs_plan p;
  mg_emit e;
  memset(&e, 0, sizeof e);
  mg_status st = xs_build(pb, ps, &p, err);
  if (st != MG_OK) return st;
  const mg_topo *t = &pb->topo;
  xs_ctx *ctx = mg_calloc(t->N, sizeof *ctx);
  if (!ctx) {
    xs_free(&p);
    return mg_fail(err, MG_ERR_NOMEM, "exchange-slots: out of memory");
  }
  int rounds = 0;
  for (int j = 0; j < p.S; j++)
    rounds += p.load[j] > 0;
  MG_CHECK(mg_emit_begin(&e, sink, pb, "exchange-slots", ps, 1, 0, rounds, err));
  for (int j = 0; j < p.S; j++) {
    if (!p.load[j]) continue;
    for (uint32_t v = 0; v < t->N; v++) {
      ctx[v] = (xs_ctx){&p, v, j};
      mg_transfer tr = mg_xfer(v, mg_dp_add(t, v, p.off[j]));
      tr.nseg = (uint8_t)mg_route_network(t, MG_ROUTES_SIMGRID, v, tr.dst, tr.seg);
      tr.sel.flags = MG_SEL_PRED;
      tr.sel.pred = xs_carried;
      tr.sel.pred_arg = &ctx[v];
      MG_CHECK(mg_emit_add(&e, &tr, err));
    }
    MG_CHECK(mg_emit_round(&e, err)); /* consumed here: ctx is reused next slot */
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  free(ctx);
  xs_free(&p);
  return st;
}

static mg_status xs_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  const mg_model *m = &pb->model;
  if (m->contention != MG_CONT_STRICT && m->contention != MG_CONT_SHARED)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-slots: contention=strict or shared");
  if (m->switching != MG_SW_WORMHOLE && m->switching != MG_SW_CIRCUIT)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form of exchange-slots: wormhole or circuit");
  xs_plan p;
  mg_status st = xs_build(pb, ps, &p, err);
  if (st != MG_OK) return st;
  double c = 0;
  for (int j = 0; j < p.S; j++)
    if (p.load[j]) c += m->ts + p.hops[j] * m->td + (double)p.load[j] * pb->bytes * m->tl;
  xs_free(&p);
  *cost = c;
  return MG_OK;
}

static mg_status xs_candidates(const mg_problem_spec *pb, mg_status (*visit)(void *arg, const mg_params *ps), void *arg,
                               mg_err *err) {
  mg_params none = {0};
  mg_status st = xs_check(pb, &none, err);
  if (st != MG_OK) return st;
  for (int lag = 0; lag <= 1; lag++) {
    mg_params ps = {0};
    if ((st = mg_params_set_int(&ps, "lag", lag, err)) != MG_OK || (st = visit(arg, &ps)) != MG_OK) return st;
  }
  return MG_OK;
}

static const mg_param_desc xs_params[] = {
    {"slots", "0",
     "slots (rounds) to plan; 0: the fewest for which the search finds offsets, up to 4 more (rings: their sweep)"},
    {"lag", "0", "the first lag slots' blocks may go on in the next slot (0 .. 3): a wait for a smaller last message"},
    {"search", "20000",
     "hill-climbing steps on the offsets (1 .. 100000), shared by 8 restarts; fewer where the sets are many (at most "
     "1.5e7 set sums per slot count)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_exchange_slots = {
    .name = "exchange-slots",
    .problem = MG_EXCHANGE,
    .summary = "store-and-forward exchange in one-message slots, a block never forwarded in the next slot, so no "
               "send waits for a receive",
    .paper = "ours, after Bruck et al. (TPDS 1997)",
    .restrictions = "tori and rings, at most 512 nodes, axis sweeps (sum of 2 floor(n_i / 2)) of at most 32 slots",
    .rounding = "none",
    .params = xs_params,
    .check = xs_check,
    .generate = xs_generate,
    .closed_form = xs_closed_form,
    .candidates = xs_candidates,
};

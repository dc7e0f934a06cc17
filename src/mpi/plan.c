/* The MPI planner. It is a tap on the one driver (algo/drive.c), as the
 * exporter is: the generator streams rounds, the simulator resolves every transfer's
 * items against the state at the round's start (on_resolved), and the
 * planner keeps the transfers this node sends or receives, turning items
 * into byte ranges:
 *   gossip   item o*P+p lives in the result buffer at rank(o)*L + p-th cut
 *            of L (cuts at floor(p*L/P)); an item this node already holds,
 *            or receives twice in one round, goes to scratch in TEMP so
 *            that no receive overlaps a send of the same round;
 *   exchange block (s, d) lives in SEND at d*L while s = me holds it, in
 *            WORK at s*L once it reaches d = me, and otherwise in a TEMP
 *            slot from its arrival until the round that sends it on ends
 *            (slots are reused, so TEMP is the peak number in transit).
 * Consecutive ranges of one message are coalesced; a message of several
 * ranges is staged. Both ends of a transfer list the items in the same
 * order (ascending ids for gossip, the simulator's list for exchange), so
 * a message is the same byte string on both sides.
 * A dataflow plan (the executor's sync=data) reuses no buffer: stage and
 * scratch grow over the rounds instead of restarting, and transit slots are
 * not recycled, so each byte is written by one receive at most and a send
 * need only wait for the receives that wrote its bytes (plan_deps); a
 * block that leaves its destination and comes back is received the second
 * time into a fresh transit slot, WORK holding it already. */
#include "plan.h"

#include "../util/internal.h"

#include <string.h>

/* Blocks in transit on this node: block id -> TEMP slot (open addressing,
 * linear probing, tombstones; rebuilt when two thirds full). */
typedef struct slot_map {
  uint64_t *key; /* block id + 1; 0 empty; UINT64_MAX tombstone */
  uint64_t *val;
  size_t cap, used;
} slot_map;

#define MAP_TOMB UINT64_MAX

static uint64_t map_hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return k;
}

static int map_find(const slot_map *m, uint64_t block, uint64_t *val) {
  if (!m->cap) return 0;
  for (size_t i = map_hash(block + 1) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->key[i] == 0) return 0;
    if (m->key[i] == block + 1) {
      if (val) *val = m->val[i];
      return 1;
    }
  }
}

static void map_del(slot_map *m, uint64_t block) {
  if (!m->cap) return;
  for (size_t i = map_hash(block + 1) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->key[i] == 0) return;
    if (m->key[i] == block + 1) {
      m->key[i] = MAP_TOMB;
      return;
    }
  }
}

static int map_put(slot_map *m, uint64_t block, uint64_t val) {
  if ((m->used + 1) * 3 >= m->cap * 2) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = mg_calloc(ncap, sizeof *nk), *nv = mg_calloc(ncap, sizeof *nv);
    if (!nk || !nv) {
      free(nk);
      free(nv);
      return 0;
    }
    size_t used = 0;
    for (size_t i = 0; i < m->cap; i++) {
      if (m->key[i] == 0 || m->key[i] == MAP_TOMB) continue;
      size_t j = map_hash(m->key[i]) & (ncap - 1);
      while (nk[j])
        j = (j + 1) & (ncap - 1);
      nk[j] = m->key[i];
      nv[j] = m->val[i];
      used++;
    }
    free(m->key);
    free(m->val);
    m->key = nk, m->val = nv, m->cap = ncap, m->used = used;
  }
  size_t i = map_hash(block + 1) & (m->cap - 1);
  while (m->key[i] != 0 && m->key[i] != MAP_TOMB)
    i = (i + 1) & (m->cap - 1);
  m->key[i] = block + 1;
  m->val[i] = val;
  m->used++;
  return 1;
}

typedef struct planner {
  mg_rank_plan *p;
  const int *rank_of_node;
  /* this round's messages, receives and sends apart */
  mg_pmsg *rmsg, *smsg;
  size_t nr, capr, ns, caps;
  uint64_t stage_cur, scratch_cur;
  /* gossip: items held at the round's start, and arriving in it */
  uint64_t *held, *pending;
  size_t W;
  /* exchange */
  uint64_t *arrived; /* dataflow: bit s = block (s, me) has reached WORK */
  slot_map map;
  uint64_t *free_slots, *freed; /* reusable now / at the round's end */
  size_t nfree, capfree, nfreed, capfreed;
  uint64_t nslots;
  int bad;
} planner;

static mg_status add_seg(planner *x, mg_pmsg *m, uint32_t region, uint64_t off, uint64_t len, mg_err *err) {
  mg_rank_plan *p = x->p;
  if (len == 0) return MG_OK;
  if (m->nseg) {
    mg_pseg *last = &p->segs[p->nsegs - 1];
    if (last->region == region && last->off + last->len == off) {
      last->len += len;
      m->bytes += len;
      return MG_OK;
    }
  }
  if (!mg_grow((void **)&p->segs, &p->capsegs, p->nsegs + 1, sizeof *p->segs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
  p->segs[p->nsegs++] = (mg_pseg){.region = region, .off = off, .len = len};
  m->nseg++;
  m->bytes += len;
  return MG_OK;
}

static uint64_t cut(const mg_rank_plan *p, uint64_t piece) { return p->L * piece / p->pieces; }

static mg_status gossip_items(planner *x, mg_pmsg *m, const mg_resolved *res, int recv, mg_err *err) {
  mg_rank_plan *p = x->p;
  mg_status st = MG_OK;
  for (size_t w = 0; w < res->nwords && st == MG_OK; w++) {
    uint64_t b = res->bits[w];
    while (b && st == MG_OK) {
      uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(b);
      b &= b - 1;
      uint64_t origin = it / p->pieces, piece = it % p->pieces;
      uint64_t lo = cut(p, piece), len = cut(p, piece + 1) - lo;
      uint64_t off = (uint64_t)x->rank_of_node[origin] * p->L + lo;
      uint64_t bit = 1ull << (it % 64);
      if (recv && ((x->held[it / 64] | x->pending[it / 64]) & bit)) {
        st = add_seg(x, m, MG_REG_TEMP, x->scratch_cur, len, err);
        x->scratch_cur += len;
      } else {
        if (recv) x->pending[it / 64] |= bit;
        st = add_seg(x, m, MG_REG_WORK, off, len, err);
      }
    }
  }
  return st;
}

static mg_status exchange_items(planner *x, mg_pmsg *m, const mg_resolved *res, int recv, mg_err *err) {
  mg_rank_plan *p = x->p;
  mg_status st = MG_OK;
  uint64_t N = p->N, L = p->L;
  for (size_t k = 0; k < res->nlist && st == MG_OK; k++) {
    uint64_t blk = res->list[k], s = blk / N, d = blk % N;
    uint64_t rs = (uint64_t)x->rank_of_node[s], rd = (uint64_t)x->rank_of_node[d];
    uint64_t slot;
    if (recv) {
      if (d == p->me && !(p->dataflow && (x->arrived[s / 64] >> (s % 64) & 1))) {
        if (p->dataflow) x->arrived[s / 64] |= 1ull << (s % 64);
        st = add_seg(x, m, MG_REG_WORK, rs * L, L, err);
        continue;
      }
      if (d == p->me) {
        /* dataflow: the block left its destination and comes back; WORK
         * holds it already, and each byte is written once: a fresh slot
         * takes the copy (a later send finds it in WORK, not the map) */
        st = add_seg(x, m, MG_REG_TEMP, x->nslots++ * L, L, err);
        continue;
      }
      if (x->nfree && !p->dataflow)
        slot = x->free_slots[--x->nfree];
      else
        slot = x->nslots++;
      if (!map_put(&x->map, blk, slot)) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
      st = add_seg(x, m, MG_REG_TEMP, slot * L, L, err);
    } else if (map_find(&x->map, blk, &slot)) {
      map_del(&x->map, blk);
      if (!mg_grow((void **)&x->freed, &x->capfreed, x->nfreed + 1, sizeof *x->freed))
        return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
      x->freed[x->nfreed++] = slot;
      st = add_seg(x, m, MG_REG_TEMP, slot * L, L, err);
    } else if (s == p->me) {
      st = add_seg(x, m, MG_REG_SEND, rd * L, L, err);
    } else {
      st = add_seg(x, m, MG_REG_WORK, rs * L, L, err);
    }
  }
  return st;
}

static mg_status pl_resolved(void *arg, const mg_resolved *res, mg_err *err) {
  planner *x = arg;
  mg_rank_plan *p = x->p;
  const mg_transfer *tr = res->tr;
  if (tr->bus != MG_BUS_NONE) return mg_fail(err, MG_ERR_UNSUPPORTED, "bus transfers cannot run over MPI");
  int is_send = tr->src == p->me, is_recv = tr->dst == p->me;
  if ((!is_send && !is_recv) || res->nitems == 0 || tr->src == tr->dst) return MG_OK;
  for (int pass = 0; pass < 2; pass++) {
    int recv = pass == 1;
    if (recv ? !is_recv : !is_send) continue;
    mg_pmsg m = {.peer = x->rank_of_node[recv ? tr->src : tr->dst], .seg0 = p->nsegs};
    mg_status st =
        p->problem == MG_GOSSIP ? gossip_items(x, &m, res, recv, err) : exchange_items(x, &m, res, recv, err);
    if (st != MG_OK) return st;
    if (m.bytes == 0) continue;
    if (m.nseg > 1) {
      m.stage = x->stage_cur;
      x->stage_cur += m.bytes;
    }
    mg_pmsg **arr = recv ? &x->rmsg : &x->smsg;
    size_t *n = recv ? &x->nr : &x->ns, *cap = recv ? &x->capr : &x->caps;
    if (!mg_grow((void **)arr, cap, *n + 1, sizeof **arr))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
    (*arr)[(*n)++] = m;
  }
  return MG_OK;
}

static mg_status pl_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  planner *x = ctx;
  mg_rank_plan *p = x->p;
  if (info->topo.N != p->N)
    return mg_fail(err, MG_ERR_INVALID, "schedule has %u nodes, expected %u", info->topo.N, p->N);
  p->pieces = info->pieces ? info->pieces : 1;
  if (p->problem == MG_GOSSIP) {
    uint64_t items;
    if (!mg_mul_ok(p->N, p->pieces, &items)) return mg_fail(err, MG_ERR_TOO_LARGE, "too many items");
    x->W = mg_words(items);
    x->held = mg_calloc(x->W, sizeof *x->held);
    x->pending = mg_calloc(x->W, sizeof *x->pending);
    if (!x->held || !x->pending) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
    for (uint64_t q = 0; q < p->pieces; q++) {
      uint64_t it = (uint64_t)p->me * p->pieces + q;
      x->held[it / 64] |= 1ull << (it % 64);
    }
  } else if (p->dataflow) {
    x->arrived = mg_calloc(mg_words(p->N), sizeof *x->arrived);
    if (!x->arrived) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
  }
  return MG_OK;
}

static mg_status pl_round_begin(void *ctx, const mg_round *r, mg_err *err) {
  planner *x = ctx;
  (void)r, (void)err;
  x->nr = x->ns = 0;
  if (!x->p->dataflow) x->stage_cur = x->scratch_cur = 0;
  x->nfreed = 0;
  return MG_OK;
}

static mg_status pl_round_end(void *ctx, const mg_round *r, const mg_report *so_far, mg_err *err) {
  planner *x = ctx;
  mg_rank_plan *p = x->p;
  (void)r, (void)so_far;
  p->sched_rounds++;
  if (x->scratch_cur > p->temp_bytes) p->temp_bytes = x->scratch_cur;
  if (x->stage_cur > p->stage_bytes) p->stage_bytes = x->stage_cur;
  if (p->problem == MG_GOSSIP) {
    for (size_t w = 0; w < x->W; w++)
      x->held[w] |= x->pending[w];
    memset(x->pending, 0, x->W * sizeof *x->pending);
  } else {
    if (x->nfreed && !mg_grow((void **)&x->free_slots, &x->capfree, x->nfree + x->nfreed, sizeof *x->free_slots))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
    if (x->nfreed) memcpy(x->free_slots + x->nfree, x->freed, x->nfreed * sizeof *x->freed);
    x->nfree += x->nfreed;
  }
  if (x->nr + x->ns == 0) return MG_OK; /* nothing for this rank */
  if (!mg_grow((void **)&p->rounds, &p->caprounds, p->nrounds + 1, sizeof *p->rounds) ||
      !mg_grow((void **)&p->msgs, &p->capmsgs, p->nmsgs + x->nr + x->ns, sizeof *p->msgs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
  p->rounds[p->nrounds++] =
      (mg_pround){.index = p->sched_rounds - 1, .recv0 = p->nmsgs, .nrecv = x->nr, .nsend = x->ns};
  if (x->nr) memcpy(p->msgs + p->nmsgs, x->rmsg, x->nr * sizeof *x->rmsg);
  if (x->ns) memcpy(p->msgs + p->nmsgs + x->nr, x->smsg, x->ns * sizeof *x->smsg);
  p->nmsgs += x->nr + x->ns;
  p->sends += x->ns;
  return MG_OK;
}

/* A byte range one receive writes. */
typedef struct wrange {
  uint32_t region;
  uint64_t off, end;
  size_t msg;
} wrange;

static int wrange_cmp(const void *a, const void *b) {
  const wrange *x = a, *y = b;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  return x->off < y->off ? -1 : x->off > y->off;
}

/* The receives each send waits for in a dataflow plan. Every byte is
 * written once at most, so a region's receive ranges are disjoint: sorted
 * once, each send range finds its writers by binary search. A writer from
 * the send's own round or later would mean a send of bytes not yet held;
 * the simulator has refused such a schedule before it gets here. */
static mg_status plan_deps(mg_rank_plan *p, mg_err *err) {
  size_t nw = 0, k = 0;
  for (size_t r = 0; r < p->nrounds; r++)
    for (size_t i = 0; i < p->rounds[r].nrecv; i++)
      nw += p->msgs[p->rounds[r].recv0 + i].nseg;
  wrange *w = mg_calloc(nw ? nw : 1, sizeof *w);
  size_t *seen = mg_calloc(p->nmsgs ? p->nmsgs : 1, sizeof *seen);
  if (!w || !seen) {
    free(w);
    free(seen);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan's dependencies");
  }
  for (size_t r = 0; r < p->nrounds; r++)
    for (size_t i = 0; i < p->rounds[r].nrecv; i++) {
      size_t mi = p->rounds[r].recv0 + i;
      const mg_pmsg *m = &p->msgs[mi];
      for (size_t g = 0; g < m->nseg; g++) {
        const mg_pseg *s = &p->segs[m->seg0 + g];
        w[k++] = (wrange){.region = s->region, .off = s->off, .end = s->off + s->len, .msg = mi};
      }
    }
  qsort(w, nw, sizeof *w, wrange_cmp);
  mg_status st = MG_OK;
  for (size_t r = 0; r < p->nrounds && st == MG_OK; r++)
    for (size_t i = 0; i < p->rounds[r].nsend && st == MG_OK; i++) {
      size_t mi = p->rounds[r].recv0 + p->rounds[r].nrecv + i;
      mg_pmsg *m = &p->msgs[mi];
      m->dep0 = p->ndeps;
      for (size_t g = 0; g < m->nseg && st == MG_OK; g++) {
        const mg_pseg *s = &p->segs[m->seg0 + g];
        uint64_t a = s->off, b = s->off + s->len;
        /* the first range of this region that ends after a */
        size_t lo = 0, hi = nw;
        while (lo < hi) {
          size_t mid = lo + (hi - lo) / 2;
          if (w[mid].region < s->region || (w[mid].region == s->region && w[mid].end <= a))
            lo = mid + 1;
          else
            hi = mid;
        }
        for (size_t j = lo; j < nw && w[j].region == s->region && w[j].off < b; j++) {
          /* a guard: a receive after the send in plan order cannot have
           * brought its bytes (waiting for one deadlocked before returning
           * blocks got their own slots) */
          if (w[j].msg > mi || seen[w[j].msg] == mi + 1) continue;
          seen[w[j].msg] = mi + 1;
          if (!mg_grow((void **)&p->deps, &p->capdeps, p->ndeps + 1, sizeof *p->deps)) {
            st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan's dependencies");
            break;
          }
          p->deps[p->ndeps++] = w[j].msg;
        }
      }
      m->ndep = p->ndeps - m->dep0;
    }
  free(w);
  free(seen);
  return st;
}

void mg_plan_free(mg_rank_plan *p) {
  if (!p) return;
  free(p->rounds);
  free(p->msgs);
  free(p->segs);
  free(p->deps);
  memset(p, 0, sizeof *p);
}

mg_status mg_plan_build(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, uint32_t me,
                        const int *rank_of_node, int dataflow, mg_rank_plan *out, mg_err *err) {
  mg_status st = MG_OK;
  planner x;
  memset(&x, 0, sizeof x);
  memset(out, 0, sizeof *out);
  mg_params none;
  memset(&none, 0, sizeof none);
  if (!ps) ps = &none;
  out->problem = pb->problem;
  out->N = pb->topo.N;
  out->me = me;
  out->L = (uint64_t)pb->bytes;
  out->pieces = 1;
  out->dataflow = dataflow;
  x.p = out;
  x.rank_of_node = rank_of_node;
  /* the planner is a tap on the driver: it sees every transfer as the
   * simulator resolved it, and the plan stands only if the run verified */
  mg_tap tap = {
      .begin = pl_begin, .round_begin = pl_round_begin, .resolved = pl_resolved, .round_end = pl_round_end, .ctx = &x};
  mg_report rep;
  st = mg_drive_algo(a, pb, ps, &tap, 1, NULL, &rep, err);
  if (st == MG_ERR_VIOLATION) st = mg_fail(err, MG_ERR_VIOLATION, "%s does not verify: %s", a->name, rep.violation.msg);
  mg_report_free(&rep);
  if (st != MG_OK) goto out;
  if (out->problem == MG_EXCHANGE) {
    if (!mg_mul_ok(x.nslots, out->L, &out->temp_bytes)) {
      st = mg_fail(err, MG_ERR_TOO_LARGE, "transit buffer too large");
      goto out;
    }
  }
  if (dataflow) st = plan_deps(out, err);
out:
  free(x.rmsg);
  free(x.smsg);
  free(x.held);
  free(x.pending);
  free(x.arrived);
  free(x.map.key);
  free(x.map.val);
  free(x.free_slots);
  free(x.freed);
  if (st != MG_OK) mg_plan_free(out);
  return st;
}

/*
 * circgos_fill — CIRCGOS's refinement skip=2 (ours, written against
 * Juurlink, Rao, Sibeyn 1996's Table 1; circgos.c has the phases).
 *
 * A phase-3 step costs t_s plus its largest transfer. With skip=1 a
 * transfer carries its packet minus what the receiver holds, but packets
 * are origin ranges, the same in every gap, so a step gets cheaper only
 * when every receiver of the step holds part of the packet it gets, which
 * happens only at a = 3, b = 1. skip=2 makes it happen elsewhere:
 *   1. Phase 1's idle arcs carry what their far end lacks: in a step of
 *      the concentration whose largest transfer is L items, every arc that
 *      no concentration transfer uses carries from its tail to its head up
 *      to L items the head lacks, the origins nearest the head first (free:
 *      the step costs its largest transfer). After the first step every
 *      node holds its two neighbours' items, after the second about five.
 *   2. Each gap (chain of the phase-3 stream) cuts the data into its own
 *      packets: an order of the items, packet q the ranks [q n/k, (q+1) n/k)
 *      (the origin ranges of skip=0 to start with). Step by step, the plan
 *      tries to make the step's largest transfer one item smaller: every
 *      transfer of that size must carry one more item its receiver holds,
 *      which a swap gives: an item the receiver holds, from another packet,
 *      for one it lacks. The items a step's saving rests on are locked;
 *      a step whose every transfer cannot be served keeps its size (the
 *      attempt is undone). In the first steps of a round few new
 *      bridgeheads receive (the stream is still filling), so their
 *      holdings go far: ring:243 at r = 2, CIRCGOS(27, 17), 338 -> 334.
 * Transfers then list their packet's items and skip the receiver's
 * (MG_SEL_LIST | MG_SEL_MINUS_DST); the simulator counts what they carry.
 */
#include "circgos_fill.h"

#include <string.h>

#define CGF_LOCK_ONLY UINT32_MAX

static uint64_t *row(const mg_cgf *f, uint64_t *b, uint32_t v) { return b + (uint64_t)v * f->W; }
static int has(const uint64_t *r, uint32_t x) { return (int)((r[x >> 6] >> (x & 63)) & 1u); }
static void put(uint64_t *r, uint32_t x) { r[x >> 6] |= (uint64_t)1 << (x & 63); }

mg_status mg_cgf_init(mg_cgf *f, uint32_t n, int wrap, mg_err *err) {
  memset(f, 0, sizeof *f);
  if (n > MG_CGF_MAX_N)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "circgos: skip=2 plans rings and lines of at most %u nodes, not %u",
                   MG_CGF_MAX_N, n);
  f->n = n;
  f->wrap = wrap;
  f->W = (n + 63) / 64;
  f->H = mg_calloc((uint64_t)n * f->W, sizeof *f->H);
  f->D = mg_calloc((uint64_t)n * f->W, sizeof *f->D);
  f->used = mg_calloc(2 * (uint64_t)n, 1);
  f->list = mg_calloc(n, sizeof *f->list);
  if (!f->H || !f->D || !f->used || !f->list) {
    mg_cgf_free(f);
    return mg_fail(err, MG_ERR_NOMEM, "circgos: out of memory for the skip=2 plan");
  }
  for (uint32_t v = 0; v < n; v++)
    put(row(f, f->H, v), v);
  return MG_OK;
}

void mg_cgf_free(mg_cgf *f) {
  free(f->H);
  free(f->D);
  free(f->used);
  free(f->item);
  free(f->rank);
  free(f->lock);
  free(f->undo);
  free(f->list);
  memset(f, 0, sizeof *f);
}

void mg_cgf_mark(mg_cgf *f, uint32_t src, int32_t hops) {
  uint32_t n = f->n, h = (uint32_t)(hops < 0 ? -hops : hops);
  for (uint32_t s = 0; s < h; s++) {
    uint32_t x = hops > 0 ? (src + s) % n : (src + n - s) % n;
    f->used[2 * (uint64_t)x + (hops < 0)] = 1;
  }
}

void mg_cgf_deliver_range(mg_cgf *f, uint32_t dst, uint32_t lo, uint32_t len) {
  uint64_t *d = row(f, f->D, dst);
  for (uint32_t i = 0; i < len; i++)
    put(d, (uint32_t)(((uint64_t)lo + i) % f->n));
}

void mg_cgf_deliver_list(mg_cgf *f, uint32_t dst, const uint32_t *items, uint32_t len) {
  uint64_t *d = row(f, f->D, dst);
  for (uint32_t i = 0; i < len; i++)
    put(d, items[i]);
}

mg_status mg_cgf_fill(mg_cgf *f, uint64_t L, mg_emit *e, mg_err *err) {
  uint32_t n = f->n;
  for (uint32_t v = 0; v < n && L > 0; v++)
    for (int dir = 1; dir >= -1; dir -= 2) {
      if (f->used[2 * (uint64_t)v + (dir < 0)]) continue;
      if (!f->wrap && ((dir > 0 && v + 1 >= n) || (dir < 0 && v == 0))) continue;
      uint32_t hd = (v + n + (uint32_t)dir) % n;
      if (hd == v) continue;
      const uint64_t *tail = row(f, f->H, v), *head = row(f, f->H, hd);
      uint64_t *got = row(f, f->D, hd);
      uint32_t cnt = 0;
      /* the origins nearest the head first (on a line, inside it) */
      for (uint32_t dist = 0; dist <= (f->wrap ? n / 2 : n - 1) && cnt < L; dist++)
        for (int side = 1; side >= -1 && cnt < L; side -= 2) {
          if (dist == 0 && side < 0) continue;
          int64_t y = (int64_t)hd + side * (int64_t)dist;
          if (!f->wrap && (y < 0 || y >= (int64_t)n)) continue;
          uint32_t x = (uint32_t)((y % (int64_t)n + (int64_t)n) % (int64_t)n);
          if (dist > 0 && side < 0 && 2 * dist == n) continue; /* the opposite node, once */
          if (has(tail, x) && !has(head, x) && !has(got, x)) {
            f->list[cnt++] = x;
            put(got, x);
          }
        }
      if (!cnt) continue;
      mg_transfer tr = mg_xfer_line(v, hd, 0, dir);
      tr.sel.flags = MG_SEL_LIST;
      tr.sel.list = mg_round_add_list(&e->r, f->list, cnt);
      tr.sel.list_len = cnt;
      if (!tr.sel.list) return mg_fail(err, MG_ERR_NOMEM, "circgos: out of memory for an item list");
      mg_status st = mg_emit_add(e, &tr, err);
      if (st != MG_OK) return st;
    }
  for (uint64_t i = 0; i < (uint64_t)n * f->W; i++)
    f->H[i] |= f->D[i], f->D[i] = 0;
  memset(f->used, 0, 2 * (size_t)n);
  return MG_OK;
}

void mg_cgf_full(mg_cgf *f, uint32_t v) {
  uint64_t *r = row(f, f->H, v);
  for (uint32_t x = 0; x < f->n; x++)
    put(r, x);
}

mg_status mg_cgf_round(mg_cgf *f, uint32_t nc, uint32_t k, mg_err *err) {
  uint64_t cells = (uint64_t)nc * f->n;
  free(f->item);
  free(f->rank);
  free(f->lock);
  f->item = mg_calloc(cells ? cells : 1, sizeof *f->item);
  f->rank = mg_calloc(cells ? cells : 1, sizeof *f->rank);
  f->lock = mg_calloc(cells ? cells : 1, 1);
  if (!f->item || !f->rank || !f->lock) return mg_fail(err, MG_ERR_NOMEM, "circgos: out of memory for the packets");
  f->nc = nc;
  f->k = k;
  for (uint64_t i = 0; i < cells; i++)
    f->item[i] = f->rank[i] = (uint32_t)(i % f->n);
  return MG_OK;
}

static void range(const mg_cgf *f, uint32_t q, uint32_t *lo, uint32_t *hi) {
  *lo = (uint32_t)((uint64_t)q * f->n / f->k);
  *hi = (uint32_t)((uint64_t)(q + 1) * f->n / f->k);
}

const uint32_t *mg_cgf_packet(const mg_cgf *f, uint32_t ci, uint32_t q, uint32_t *len) {
  uint32_t lo, hi;
  range(f, q, &lo, &hi);
  *len = hi - lo;
  return f->item + (uint64_t)ci * f->n + lo;
}

/* What a transfer carries: its packet minus what its receiver holds. */
static uint32_t carried(const mg_cgf *f, const mg_cgf_msg *m) {
  uint32_t len;
  const uint32_t *it = mg_cgf_packet(f, m->ci, m->q, &len);
  const uint64_t *h = f->H + (uint64_t)m->dst * f->W;
  uint32_t c = 0;
  for (uint32_t i = 0; i < len; i++)
    c += !has(h, it[i]);
  return c;
}

static int log_op(mg_cgf *f, uint32_t ci, uint32_t r1, uint32_t r2) {
  if (!mg_grow((void **)&f->undo, &f->capundo, f->nundo + 3, sizeof *f->undo)) return 0;
  f->undo[f->nundo++] = ci;
  f->undo[f->nundo++] = r1;
  f->undo[f->nundo++] = r2;
  return 1;
}

static void swap_ranks(mg_cgf *f, uint32_t ci, uint32_t r1, uint32_t r2) {
  uint32_t *item = f->item + (uint64_t)ci * f->n, *rank = f->rank + (uint64_t)ci * f->n;
  uint32_t x = item[r1], y = item[r2];
  item[r1] = y, item[r2] = x;
  rank[y] = r1, rank[x] = r2;
}

static void undo_all(mg_cgf *f) {
  while (f->nundo) {
    f->nundo -= 3;
    uint32_t ci = f->undo[f->nundo], r1 = f->undo[f->nundo + 1], r2 = f->undo[f->nundo + 2];
    f->lock[(uint64_t)ci * f->n + r1] = 0;
    if (r2 != CGF_LOCK_ONLY) swap_ranks(f, ci, r1, r2);
  }
}

/* Makes m carry at most T items, locking what that rests on; 0 if it
 * cannot (or out of memory: *nomem). */
static int serve(mg_cgf *f, const mg_cgf_msg *m, uint32_t T, int *nomem) {
  uint32_t lo, hi, n = f->n;
  range(f, m->q, &lo, &hi);
  uint32_t *item = f->item + (uint64_t)m->ci * n, *rank = f->rank + (uint64_t)m->ci * n;
  uint8_t *lock = f->lock + (uint64_t)m->ci * n;
  const uint64_t *h = f->H + (uint64_t)m->dst * f->W;
  if (hi - lo <= T) return 1;
  uint32_t need = hi - lo - T, held = 0;
  /* held items of the packet, locked ones first */
  for (uint32_t r = lo; r < hi && held < need; r++)
    if (lock[r] && has(h, item[r])) held++;
  for (uint32_t r = lo; r < hi && held < need; r++)
    if (!lock[r] && has(h, item[r])) {
      lock[r] = 1, held++;
      if (!log_op(f, m->ci, r, CGF_LOCK_ONLY)) return *nomem = 1, 0;
    }
  /* the rest by swaps: an unlocked held item from another packet for an
   * unlocked item of this one the receiver lacks */
  uint32_t r1 = lo;
  for (uint32_t w = 0; w < f->W && held < need; w++)
    for (uint64_t bits = h[w]; bits && held < need; bits &= bits - 1) {
      uint32_t x = w * 64 + (uint32_t)__builtin_ctzll(bits), r2 = rank[x];
      if (x >= n || (r2 >= lo && r2 < hi) || lock[r2]) continue;
      while (r1 < hi && (lock[r1] || has(h, item[r1])))
        r1++;
      if (r1 == hi) return 0;
      swap_ranks(f, m->ci, r1, r2);
      lock[r1] = 1, held++;
      if (!log_op(f, m->ci, r1, r2)) return *nomem = 1, 0;
    }
  return held >= need;
}

mg_status mg_cgf_step(mg_cgf *f, const mg_cgf_msg *msg, size_t nmsg, uint64_t *largest, mg_err *err) {
  uint32_t M = 0;
  for (size_t i = 0; i < nmsg; i++) {
    uint32_t c = carried(f, &msg[i]);
    if (c > M) M = c;
  }
  /* the level reached is the step's largest transfer: were every transfer
   * under it, the next attempt would have been served */
  *largest = M;
  for (uint32_t T = M; T-- > 0;) {
    int ok = 1, nomem = 0;
    f->nundo = 0;
    for (size_t i = 0; i < nmsg && ok; i++)
      ok = serve(f, &msg[i], T, &nomem);
    if (nomem) return mg_fail(err, MG_ERR_NOMEM, "circgos: out of memory for the packet plan");
    if (!ok) {
      undo_all(f);
      break;
    }
    *largest = T;
  }
  f->nundo = 0;
  /* a packet on the wire is what its later transfers forward: frozen */
  for (size_t i = 0; i < nmsg; i++) {
    uint32_t lo, hi;
    range(f, msg[i].q, &lo, &hi);
    memset(f->lock + (uint64_t)msg[i].ci * f->n + lo, 1, hi - lo);
  }
  return MG_OK;
}

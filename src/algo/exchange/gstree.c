/*
 * gstree — the ring plan behind the complete-exchange algorithms of Tseng, Ni, Sheu 1999
 * (Tseng, Ni, Sheu): positive and negative gather-scatter trees on a ring of
 * n nodes (Definitions 1-3, section 5 for any n), routed by destination and
 * overlapped under the one-port model (section 2.4).
 *
 * A plan is a list of rounds of ring transfers (sender position, signed hops,
 * destinations as cyclic runs of ring positions). The algorithm files map it
 * onto rings of a torus (one axis, possibly dilated) and select the blocks
 * whose destination coordinate along that axis lies in the runs.
 *
 * Routing rule. The paper routes by cases (section 2.2): in GP_l a sender in
 * V^_{l+1} keeps a block iff its destination is in its own scatter coverage
 * SC_{l+1}, a sender in V_{l+1} sends it iff it is in the receiver's
 * SC_{l+1}; in SP_l a block goes iff it is in the receiver's SC_l. All of
 * these are one rule on reach sets: let R(v) be the forward distances v can
 * still deliver to with the phases that remain. A block at distance delta
 * goes from i to j (hop h) iff delta-h is in R(j), and either delta is not
 * in R(i) or R(j) is no larger than R(i) (the receiver is the less busy node,
 * Observation 1; at the top level GP_{d-2} both have SC_{d-1}, and Lemma 3
 * counts the block as sent). Computed from the actual phases, the rule
 * reproduces Lemmas 2-5 on the original tree, the re-routing of b_s^{s+1}
 * and b_s^{s+2} of section 2.4 once GP_0/SP_0 are split, and extends to the
 * irregular trees of section 5 (wrap-around to v_0).
 *
 * The negative tree is the positive tree seen through the mirror y = c - x;
 * c = 1 gives the shifted negative phases of section 2.4. On rings that are
 * not powers of two a phase whose + and - transfers would break the
 * one-port rule is emitted as two rounds; the mirror c and the GP_0/SP_0
 * split are chosen to minimise rounds, then transmitted blocks (every mirror
 * for n <= 64, mirrors 0..7 beyond: on rings 65..128 that loses nothing).
 */
#include "../algo_internal.h"

#include <string.h>

typedef struct tree_phase {
  int level;  /* l */
  int gather; /* 1: GP_l, 0: SP_l */
} tree_phase;

static int ceil_lg(uint32_t n) {
  int d = 0;
  while ((1u << d) < n)
    d++;
  return d;
}

/* Sender y of level l in tree coordinates: next node and hop; 0 if y does
 * not send (not in V_l, or removed by the GP_0/SP_0 split). */
static int tree_send(uint32_t n, int split, const tree_phase *ph, uint32_t y, uint32_t *next, uint32_t *hop) {
  uint32_t step = 1u << ph->level;
  if (y % step != 0) return 0;
  if (split && ph->level == 0 && (ph->gather ? (y % 2 == 0) : (y % 2 == 1))) return 0;
  if (y + step < n) {
    *next = y + step;
    *hop = step;
  } else {
    *next = 0;
    *hop = n - y;
  }
  return 1;
}

typedef struct reach {
  uint32_t n, words;
  uint64_t *bits; /* (nph+1) x n x words: reach after phase p (p = -1..nph-1) */
  uint32_t *size;
} reach;

static uint64_t *reach_at(reach *r, int p, uint32_t v) { return r->bits + ((uint64_t)(p + 1) * r->n + v) * r->words; }

static int bit(const uint64_t *b, uint32_t i) { return (int)((b[i / 64] >> (i % 64)) & 1u); }

/* R_p(v): forward distances deliverable from v with phases p+1.. (p = nph-1:
 * only distance 0). R_{p-1}(v) = R_p(v) u (h + R_p(next)). */
static mg_status reach_build(reach *r, uint32_t n, int split, const tree_phase *ph, int nph, mg_err *err) {
  r->n = n;
  r->words = (n + 63) / 64;
  r->bits = mg_calloc((uint64_t)(nph + 1) * n * r->words, sizeof(uint64_t));
  r->size = mg_calloc((uint64_t)(nph + 1) * n, sizeof(uint32_t));
  if (!r->bits || !r->size) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the gather-scatter plan");
  for (uint32_t v = 0; v < n; v++)
    reach_at(r, nph - 1, v)[0] = 1;
  for (int p = nph - 1; p >= 0; p--)
    for (uint32_t v = 0; v < n; v++) {
      uint64_t *dst = reach_at(r, p - 1, v);
      memcpy(dst, reach_at(r, p, v), r->words * sizeof(uint64_t));
      uint32_t nx, h;
      if (!tree_send(n, split, &ph[p], v, &nx, &h)) continue;
      const uint64_t *src = reach_at(r, p, nx);
      for (uint32_t k = 0; k + h < n; k++)
        if (bit(src, k)) dst[(k + h) / 64] |= 1ull << ((k + h) % 64);
    }
  for (int p = -1; p < nph; p++)
    for (uint32_t v = 0; v < n; v++) {
      uint32_t c = 0;
      const uint64_t *b = reach_at(r, p, v);
      for (uint32_t w = 0; w < r->words; w++)
        c += (uint32_t)__builtin_popcountll(b[w]);
      r->size[(uint64_t)(p + 1) * n + v] = c;
    }
  return MG_OK;
}

static void reach_free(reach *r) {
  free(r->bits);
  free(r->size);
}

static mg_status add_run(mg_gs_plan *p, uint32_t lo, uint32_t len, mg_err *err) {
  if (!mg_grow((void **)&p->runs, &p->caprun, p->nrun + 1, sizeof *p->runs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the gather-scatter plan");
  p->runs[p->nrun].lo = lo;
  p->runs[p->nrun].len = len;
  p->nrun++;
  return MG_OK;
}

static mg_status add_xfer(mg_gs_plan *p, const mg_gs_xfer *x, mg_err *err) {
  if (!mg_grow((void **)&p->x, &p->capx, p->nx + 1, sizeof *p->x))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the gather-scatter plan");
  p->x[p->nx++] = *x;
  return MG_OK;
}

static mg_status close_round(mg_gs_plan *p, int phase, mg_err *err) {
  if (!mg_grow((void **)&p->rstart, &p->caprs, p->nrounds + 2, sizeof *p->rstart) ||
      !mg_grow((void **)&p->rphase, &p->caprp, p->nrounds + 1, sizeof *p->rphase))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the gather-scatter plan");
  p->nrounds++;
  p->rstart[p->nrounds] = p->nx;
  p->rphase[p->nrounds - 1] = phase;
  return MG_OK;
}

void mg_gs_plan_free(mg_gs_plan *p) {
  free(p->x);
  free(p->runs);
  free(p->rstart);
  free(p->rphase);
  free(p->items);
  memset(p, 0, sizeof *p);
}

/* Transfers of one tree in one phase (tree sign: +1 positive, -1 the mirror
 * through c), appended to p; the runs are in real ring coordinates. */
static mg_status tree_phase_xfers(mg_gs_plan *p, reach *r, uint32_t n, int split, const tree_phase *ph, int pidx,
                                  int sign, uint32_t c, uint32_t D, mg_err *err) {
  mg_status st = MG_OK;
  for (uint32_t y = 0; y < n; y++) {
    uint32_t j, h;
    if (!tree_send(n, split, ph, y, &j, &h)) continue;
    const uint64_t *ri = reach_at(r, pidx, y), *rj = reach_at(r, pidx, j);
    int prefer_j = r->size[(uint64_t)(pidx + 1) * n + j] <= r->size[(uint64_t)(pidx + 1) * n + y];
    mg_gs_xfer x;
    memset(&x, 0, sizeof x);
    x.src = sign > 0 ? y : (c + n - y) % n;
    x.hops = sign > 0 ? (int32_t)h : -(int32_t)h;
    x.run0 = p->nrun;
    x.sign = sign;
    uint32_t start = 0;
    int in = 0;
    for (uint32_t delta = 1; delta <= D + 1; delta++) {
      int s = 0;
      if (delta <= D && delta >= h && bit(rj, delta - h)) s = !bit(ri, delta) || prefer_j;
      if (s && !in) start = delta, in = 1;
      if (!s && in) {
        uint32_t len = delta - start;
        /* + tree: destinations y+start..; - tree: x-(delta-1).. x-start */
        uint32_t lo = sign > 0 ? (y + start) % n : (x.src + n - (delta - 1) % n) % n;
        MG_CHECK(add_run(p, lo, len, err));
        in = 0;
      }
    }
    x.nruns = p->nrun - x.run0;
    if (x.nruns == 0) continue;
    MG_CHECK(add_xfer(p, &x, err));
  }
out:
  return st;
}

/* Every source must reach all its tree's destinations (Lemma 1 and its
 * analogue for the irregular trees of section 5). */
static int reachable(reach *r, uint32_t n, uint32_t D) {
  for (uint32_t v = 0; v < n; v++) {
    const uint64_t *b = reach_at(r, -1, v);
    for (uint32_t delta = 0; delta <= D; delta++)
      if (!bit(b, delta)) return 0;
  }
  return 1;
}

/* Counts the blocks each transfer carries by moving the n^2 blocks of a
 * plain ring (block (s,t) at pos[s*n+t]). */
static mg_status count_items(mg_gs_plan *p, uint64_t *cost_items, mg_err *err) {
  uint32_t n = p->n;
  mg_status st = MG_OK;
  uint32_t *pos = mg_calloc((uint64_t)n * n, sizeof(uint32_t));
  uint8_t *mark = mg_calloc(n, 1);
  uint32_t *who = mg_calloc(n, sizeof(uint32_t));
  p->items = mg_calloc(p->nx ? p->nx : 1, sizeof(uint64_t));
  if (!pos || !mark || !who || !p->items) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the gather-scatter plan");
    goto out;
  }
  for (uint32_t s = 0; s < n; s++)
    for (uint32_t t = 0; t < n; t++)
      pos[(uint64_t)s * n + t] = s;
  *cost_items = 0;
  for (size_t rd = 0; rd < p->nrounds; rd++) {
    uint64_t mx = 0;
    for (size_t k = p->rstart[rd]; k < p->rstart[rd + 1]; k++) {
      /* sender -> transfer index; a node sends at most once per round */
      who[p->x[k].src] = (uint32_t)k;
      mark[p->x[k].src] = 1;
    }
    for (uint64_t b = 0; b < (uint64_t)n * n; b++) {
      uint32_t u = pos[b], t = (uint32_t)(b % n);
      if (!mark[u]) continue;
      const mg_gs_xfer *x = &p->x[who[u]];
      for (uint32_t q = 0; q < x->nruns; q++) {
        const mg_gs_run *ru = &p->runs[x->run0 + q];
        if ((t + n - ru->lo) % n < ru->len) {
          p->items[who[u]]++;
          pos[b] = (uint32_t)((int64_t)u + x->hops + (int64_t)n * 2) % n;
          break;
        }
      }
    }
    for (size_t k = p->rstart[rd]; k < p->rstart[rd + 1]; k++) {
      mark[p->x[k].src] = 0;
      if (p->items[k] > mx) mx = p->items[k];
    }
    *cost_items += mx;
  }
  for (uint64_t b = 0; b < (uint64_t)n * n; b++)
    if (pos[b] != b % n) {
      st = mg_fail(err, MG_ERR_INVALID, "gather-scatter plan on a ring of %u leaves block (%u,%u) at %u", n,
                   (uint32_t)(b / n), (uint32_t)(b % n), pos[b]);
      break;
    }
out:
  free(pos);
  free(mark);
  free(who);
  return st;
}

/* Drops transfers that carry no block on the ring (their selection is
 * static, so they carry none on any ring the plan is mapped onto) and the
 * rounds left empty. */
static void prune(mg_gs_plan *p) {
  size_t w = 0, rw = 0, rs = 0;
  for (size_t r = 0; r < p->nrounds; r++) {
    size_t start = w;
    for (size_t k = p->rstart[r]; k < p->rstart[r + 1]; k++)
      if (p->items[k]) {
        p->x[w] = p->x[k];
        p->items[w] = p->items[k];
        w++;
      }
    if (w > start) {
      p->rstart[rw] = rs;
      p->rphase[rw] = p->rphase[r];
      rw++;
      rs = w;
    }
  }
  p->rstart[rw] = w;
  p->nx = w;
  p->nrounds = rw;
}

/* Builds one candidate: mirror c, split flag; overlap 0 runs the whole
 * positive tree, then the whole negative tree (the original phases). */
static mg_status build_one(uint32_t n, int overlap, int split, uint32_t c, mg_gs_plan *p, uint64_t *cost_items, int *ok,
                           mg_err *err) {
  mg_status st = MG_OK;
  reach rp, rn;
  memset(&rp, 0, sizeof rp);
  memset(&rn, 0, sizeof rn);
  tree_phase ph[64];
  int d = ceil_lg(n), L = d - 1 < 1 ? 1 : d - 1, nph = 2 * L;
  uint32_t Dp = n / 2, Dn = n - 1 - n / 2;
  *ok = 0;
  memset(p, 0, sizeof *p);
  p->n = n;
  p->split = split;
  p->mirror = c;
  p->levels = L;
  for (int i = 0; i < nph; i++) {
    ph[i].gather = i < L;
    ph[i].level = i < L ? i : nph - 1 - i;
  }
  MG_CHECK(mg_grow((void **)&p->rstart, &p->caprs, 1, sizeof *p->rstart) ? MG_OK
                                                                         : mg_fail(err, MG_ERR_NOMEM, "out of memory"));
  p->rstart[0] = 0;
  MG_CHECK(reach_build(&rp, n, split, ph, nph, err));
  MG_CHECK(reach_build(&rn, n, split, ph, nph, err));
  if (!reachable(&rp, n, Dp) || !reachable(&rn, n, Dn)) goto out;
  if (!overlap) {
    for (int sign = 1; sign >= -1; sign -= 2)
      for (int i = 0; i < nph; i++) {
        MG_CHECK(tree_phase_xfers(p, sign > 0 ? &rp : &rn, n, split, &ph[i], i, sign, c, sign > 0 ? Dp : Dn, err));
        if (p->nx > p->rstart[p->nrounds]) MG_CHECK(close_round(p, sign > 0 ? i : nph + i, err));
      }
  } else {
    for (int i = 0; i < nph; i++) {
      size_t x0 = p->nx;
      MG_CHECK(tree_phase_xfers(p, &rp, n, split, &ph[i], i, 1, c, Dp, err));
      size_t xm = p->nx;
      MG_CHECK(tree_phase_xfers(p, &rn, n, split, &ph[i], i, -1, c, Dn, err));
      /* one-port: does a node send or receive in both trees? */
      int clash = 0;
      for (size_t a = x0; a < xm && !clash; a++)
        for (size_t b = xm; b < p->nx && !clash; b++) {
          uint32_t da = (uint32_t)(((int64_t)p->x[a].src + p->x[a].hops + 2 * (int64_t)n) % n);
          uint32_t db = (uint32_t)(((int64_t)p->x[b].src + p->x[b].hops + 2 * (int64_t)n) % n);
          clash = p->x[a].src == p->x[b].src || da == db;
        }
      if (clash && xm > x0) {
        /* emit the + part, then the - part (the - transfers are moved
         * behind a round boundary; their order is kept) */
        size_t save = p->nx;
        p->nx = xm;
        MG_CHECK(close_round(p, i, err));
        p->nx = save;
      }
      if (p->nx > p->rstart[p->nrounds]) MG_CHECK(close_round(p, i, err));
    }
  }
  MG_CHECK(count_items(p, cost_items, err));
  prune(p);
  *ok = 1;
out:
  reach_free(&rp);
  reach_free(&rn);
  return st;
}

mg_status mg_gs_plan_build(uint32_t n, int overlap, mg_gs_plan *out, mg_err *err) {
  mg_status st = MG_OK;
  memset(out, 0, sizeof *out);
  out->n = n;
  if (n < 2) return MG_OK;                 /* a single node: nothing to exchange */
  int pow2 = (n & (n - 1)) == 0 && n >= 8; /* the paper's ring, d >= 3 */
  int have = 0;
  uint64_t best_items = 0;
  uint32_t cmax = (pow2 || !overlap) ? 2 : (n <= 64 ? n : 8); /* each candidate costs O(n^2 lg n) */
  for (int split = 1; split >= 0; split--)
    for (uint32_t c = cmax == 2 ? 1 : 0; c < cmax; c++) {
      mg_gs_plan p;
      uint64_t items = 0;
      int ok = 0;
      /* the paper's ring (n = 2^d, section 2.4): mirror 1, GP_0/SP_0 split */
      if (pow2 && !split && overlap) continue;
      if (!overlap && split) continue;
      st = build_one(n, overlap, split, c, &p, &items, &ok, err);
      if (st != MG_OK) {
        mg_gs_plan_free(&p);
        if (st == MG_ERR_INVALID) { /* this variant strands a block: skip it */
          st = MG_OK;
          continue;
        }
        goto out;
      }
      if (ok && (!have || p.nrounds < out->nrounds || (p.nrounds == out->nrounds && items < best_items))) {
        if (have) mg_gs_plan_free(out);
        *out = p;
        best_items = items;
        have = 1;
      } else {
        mg_gs_plan_free(&p);
      }
    }
  if (!have) st = mg_fail(err, MG_ERR_UNSUPPORTED, "no gather-scatter plan delivers every block on a ring of %u", n);
out:
  return st;
}

/* Index of the transfer each ring position sends in round r (-1: none). */
void mg_gs_senders(const mg_gs_plan *p, size_t r, int32_t *who) {
  for (uint32_t v = 0; v < p->n; v++)
    who[v] = -1;
  for (size_t k = p->rstart[r]; k < p->rstart[r + 1]; k++)
    who[p->x[k].src] = (int32_t)k;
}

mg_status mg_gs_transfer(const mg_topo *t, const mg_gs_plan *p, size_t k, uint32_t node, int axis, uint32_t dil,
                         mg_transfer *out, mg_err *err) {
  const mg_gs_xfer *x = &p->x[k];
  if (x->nruns != 1)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "the gather-scatter plan on a ring of %u selects %u runs of destinations in one transfer", p->n,
                   x->nruns);
  uint32_t c[MG_MAX_DIMS], n = t->n[axis];
  mg_topo_coords(t, node, c);
  uint32_t res = c[axis] % dil;
  int64_t hops = (int64_t)x->hops * dil;
  c[axis] = (uint32_t)(((int64_t)c[axis] + hops % n + n) % n);
  *out = mg_xfer_line(node, mg_topo_id(t, c), axis, (int32_t)hops);
  const mg_gs_run *ru = &p->runs[x->run0];
  out->sel.flags = MG_SEL_BOX;
  for (int k2 = 0; k2 < t->d; k2++)
    out->sel.box.lo[k2] = 0, out->sel.box.len[k2] = 0;
  out->sel.box.lo[axis] = (ru->lo * dil + res) % n;
  out->sel.box.len[axis] = ru->len * dil - (dil - 1);
  return MG_OK;
}

mg_status mg_gs_emit_stage(mg_emit *e, const mg_topo *t, const mg_gs_group *g, int ngroups,
                           int (*group_of)(const uint32_t *x, void *arg), void *arg, mg_err *err) {
  mg_status st = MG_OK;
  size_t rounds = 0;
  int32_t **who = mg_calloc((uint64_t)ngroups, sizeof *who);
  if (!who) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  for (int k = 0; k < ngroups; k++) {
    if (g[k].plan->nrounds > rounds) rounds = g[k].plan->nrounds;
    who[k] = mg_calloc(g[k].plan->n ? g[k].plan->n : 1, sizeof(int32_t));
    if (!who[k]) MG_CHECK(mg_fail(err, MG_ERR_NOMEM, "out of memory"));
  }
  for (size_t r = 0; r < rounds; r++) {
    for (int k = 0; k < ngroups; k++)
      if (r < g[k].plan->nrounds) mg_gs_senders(g[k].plan, r, who[k]);
    for (uint32_t u = 0; u < t->N; u++) {
      uint32_t x[MG_MAX_DIMS];
      mg_topo_coords(t, u, x);
      int k = group_of ? group_of(x, arg) : 0;
      if (k < 0 || r >= g[k].plan->nrounds) continue;
      int32_t q = who[k][x[g[k].axis] / g[k].dil];
      if (q < 0) continue;
      mg_transfer tr;
      MG_CHECK(mg_gs_transfer(t, g[k].plan, (size_t)q, u, g[k].axis, g[k].dil, &tr, err));
      MG_CHECK(mg_emit_add(e, &tr, err));
    }
    MG_CHECK(mg_emit_round(e, err));
  }
out:
  for (int k = 0; k < ngroups; k++)
    free(who[k]);
  free(who);
  return st;
}

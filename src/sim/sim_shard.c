/* The simulator as one shard of its item state (meshgossip_shard.h,
 * docs/distributed.md). Every shard runs every transfer through the same
 * rules (route, ports, arcs, buses: they do not depend on items, so all
 * shards find the same) and resolves only the items it keeps; a
 * transfer's price needs its whole item count, so a round becomes
 * resolve (sim.c notes each transfer here) -> reduce (the shard's `reduce`
 * sums the counts and agrees on the least violation key) -> price and
 * book with the sums, exactly as the unsharded round does transfer by
 * transfer. The bus's ell rule is a rule on a sum: it is checked here.
 * A violation found by one shard is copied to all (`share`), so every
 * shard reports the message the unsharded simulator would. */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

/* What a shard keeps of a round until the reduction. */
typedef struct mg_shard_ledger {
  uint64_t *counts, *hops;
  size_t cap;
  uint64_t *arcs; /* every noted transfer's route arcs, concatenated */
  size_t narcs, caparcs;
  size_t *arc_end; /* per transfer: one past its last arc */
  mg_seg *routes;  /* per transfer MG_MAX_SEGS, only for on_resolved */
  uint8_t *nsegs;
  size_t noted;
} mg_shard_ledger;

static void key_none(int64_t *k) {
  for (int j = 0; j < MG_SHARD_KEY_LEN; j++)
    k[j] = INT64_MAX;
}

mg_status mg_shard_setup(mg_sim *s, uint64_t *need, mg_err *err) {
  const mg_shard *sh = s->opts.shard;
  const mg_schedule_info *info = &s->info;
  uint64_t N = s->N, K = sh->count, k = sh->index, b, x;
  if (K == 0 || k >= K || K > N)
    return mg_fail(err, MG_ERR_INVALID, "shard %llu of %llu: there must be between 1 and %llu shards",
                   (unsigned long long)k, (unsigned long long)K, (unsigned long long)N);
  if (info->model.timing != MG_TIMING_SYNC)
    return mg_fail(err, MG_ERR_UNSUPPORTED,
                   "the sharded simulator prices timing=sync only (an asynchronous clock follows every item)");
  if (!sh->reduce || !sh->share) return mg_fail(err, MG_ERR_INVALID, "a shard needs reduce and share");
  if (!(s->sr = calloc(1, sizeof *s->sr))) return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the shard's round");
  s->shard = sh;
  /* contiguous blocks of origins (gossip) or destinations (exchange); of
   * bits in each piece's own numbering when there are several pieces on a
   * grid (gossip_layout.c) */
  uint64_t lo = N * k / K, hi = N * (k + 1) / K;
  if (info->problem == MG_GOSSIP && mg_layout_wanted(info)) {
    uint64_t NP = N * info->pieces; /* fits: mg_sim_begin checked N P */
    mg_layout_setup(s);
    s->ibase = NP / K * k + NP % K * k / K;
    s->nloc = NP / K * (k + 1) + NP % K * (k + 1) / K - s->ibase;
  } else if (info->problem == MG_GOSSIP) {
    s->ibase = lo * info->pieces;
    s->nloc = (hi - lo) * info->pieces;
  }
  if (info->problem == MG_GOSSIP) {
    s->nt = s->N;
    uint64_t rows;
    uint64_t W = mg_words(s->nloc);
    /* as mg_sim_state_bytes: the rows, a slot and a dirty bit per block */
    if (!mg_mul_ok(N, W, &rows) || !mg_mul_ok(rows, 8, &b) ||
        !mg_mul_ok(N, (W + 7) / 8 * 4 + 8 * mg_words((W + 7) / 8), &x) || !mg_add_ok(b, x, &b))
      goto over;
    if (info->flags & MG_SCHED_TRACK_ARRIVAL) {
      if (!mg_mul_ok(N, s->nloc, &x) || !mg_mul_ok(x, 5, &x) || !mg_add_ok(b, x, &b)) goto over;
    }
  } else {
    s->tlo = (uint32_t)lo;
    s->nt = (uint32_t)(hi - lo);
    if (!mg_mul_ok(N, s->nt, &x) || !mg_mul_ok(x, 20, &b)) goto over;
  }
  if (!mg_mul_ok(mg_topo_arc_slots(&info->topo), 24, &x) || !mg_add_ok(b, x, &b)) goto over;
  if (!mg_mul_ok(N, 48, &x) || !mg_add_ok(b, x, &b)) goto over;
  *need = b;
  return MG_OK;
over:
  return mg_fail(err, MG_ERR_TOO_LARGE, "the shard's state for %llu nodes overflows 64 bits", (unsigned long long)N);
}

void mg_shard_free(mg_sim *s) {
  mg_shard_ledger *r = s->sr;
  if (!r) return;
  free(r->counts);
  free(r->hops);
  free(r->arcs);
  free(r->arc_end);
  free(r->routes);
  free(r->nsegs);
  free(r);
  s->sr = NULL;
}

static mg_status reserve(mg_sim *s, size_t n, mg_err *err) {
  mg_shard_ledger *r = s->sr;
  if (n <= r->cap) return MG_OK;
  size_t cap = n < 64 ? 64 : n;
  uint64_t *c = realloc(r->counts, cap * sizeof *c), *h;
  if (c) r->counts = c;
  h = c ? realloc(r->hops, cap * sizeof *h) : NULL;
  if (h) r->hops = h;
  size_t *e = h ? realloc(r->arc_end, cap * sizeof *e) : NULL;
  if (e) r->arc_end = e;
  if (!e) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the shard's round");
  if (s->opts.on_resolved) {
    mg_seg *g = realloc(r->routes, cap * MG_MAX_SEGS * sizeof *g);
    if (g) r->routes = g;
    uint8_t *ns = g ? realloc(r->nsegs, cap) : NULL;
    if (ns) r->nsegs = ns;
    if (!ns) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the shard's routes");
  }
  r->cap = cap;
  return MG_OK;
}

mg_status mg_shard_note(mg_sim *s, size_t i, uint64_t hops, uint64_t nitems, const mg_seg *route, int nseg,
                        mg_err *err) {
  mg_shard_ledger *r = s->sr;
  if (!mg_grow((void **)&r->arcs, &r->caparcs, r->narcs + s->nroute_arcs, sizeof *r->arcs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the shard's arcs");
  if (s->nroute_arcs) memcpy(r->arcs + r->narcs, s->route_arcs, s->nroute_arcs * sizeof *r->arcs);
  r->narcs += s->nroute_arcs;
  r->counts[i] = nitems;
  r->hops[i] = hops;
  r->arc_end[i] = r->narcs;
  if (s->opts.on_resolved) {
    memcpy(r->routes + i * MG_MAX_SEGS, route, (size_t)nseg * sizeof *route);
    r->nsegs[i] = (uint8_t)nseg;
  }
  r->noted = i + 1;
  return MG_OK;
}

/* A shard that failed for another reason than a rule: every shard fails
 * with its message. */
static mg_status hard_failure(mg_sim *s, const int64_t *key, const mg_err *mine, mg_err *err) {
  mg_violation v;
  memset(&v, 0, sizeof v);
  if (key[3] == (int64_t)s->shard->index && mine) snprintf(v.msg, sizeof v.msg, "%s", mine->msg);
  mg_status st = s->shard->share(s->shard->arg, &v, (uint32_t)key[3], err);
  s->failed = 1;
  if (st != MG_OK) return st;
  return mg_fail(err, (mg_status)key[1], "%s", v.msg);
}

/* The least key found: copies its violation from the shard that found it. */
static mg_status adopt(mg_sim *s, const int64_t *key, mg_err *err) {
  mg_status st = s->shard->share(s->shard->arg, &s->rep.violation, (uint32_t)key[3], err);
  if (st != MG_OK) return st;
  memcpy(s->vkey, key, sizeof s->vkey);
  s->rep.verified = 0;
  s->failed = 1;
  if (err) snprintf(err->msg, sizeof err->msg, "%s", s->rep.violation.msg);
  return MG_ERR_VIOLATION;
}

static mg_status agree(mg_sim *s, int64_t round, mg_status st, uint64_t *counts, size_t n, int64_t *key, mg_err *err) {
  mg_err mine = {{0}};
  if (st == MG_ERR_VIOLATION) {
    memcpy(key, s->vkey, MG_SHARD_KEY_LEN * sizeof *key);
  } else if (st != MG_OK) {
    if (err) mine = *err;
    key[0] = -1;
    key[1] = st;
    key[2] = 0;
    key[3] = s->shard->index;
  } else {
    key_none(key);
  }
  mg_status rs = s->shard->reduce(s->shard->arg, round, counts, n, key, err);
  if (rs != MG_OK) {
    s->failed = 1;
    return rs;
  }
  if (key[0] == -1) return hard_failure(s, key, &mine, err);
  return MG_OK;
}

mg_status mg_shard_begin(mg_sim *s, mg_status st, mg_err *err) {
  int64_t key[MG_SHARD_KEY_LEN];
  if (!s->shard) return st;
  /* the state's size differs between shards: fail together */
  mg_status as = agree(s, -2, st, NULL, 0, key, err);
  return as != MG_OK ? as : st;
}

/* Bus messages over ell items, on the summed counts: the first j whose
 * (j, ell) key comes before the least key of the round. */
static mg_status check_ell(mg_sim *s, const mg_round *rd, int64_t *key, size_t *upto, mg_err *err) {
  uint64_t ell = s->info.model.ell;
  if (s->info.model.switching != MG_SW_BUS || !ell) return MG_OK;
  for (size_t j = 0; j < rd->n && j < s->sr->noted; j++) {
    if ((int64_t)j > key[1] || ((int64_t)j == key[1] && MG_VSUB_ELL > key[2])) break;
    if (s->sr->counts[j] <= ell) continue;
    const mg_transfer *tr = &rd->t[j];
    uint32_t x[2];
    mg_topo_coords(&s->info.topo, tr->src, x);
    const char *kind = tr->bus == MG_BUS_ROW ? "row" : "column";
    uint32_t bus_no = tr->bus == MG_BUS_ROW ? x[1] : x[0];
    s->cur_xfer = j;
    s->vsub = MG_VSUB_ELL;
    mg_sim_violate(s, err, MG_RULE_BUS_TOO_LONG, (int64_t)j, -1, tr->src, -1,
                   "round %lld transfer %zu: node %u sends %llu tokens on %s bus %u, over ell = %llu",
                   (long long)rd->index, j, tr->src, (unsigned long long)s->sr->counts[j], kind, bus_no,
                   (unsigned long long)ell);
    memcpy(key, s->vkey, MG_SHARD_KEY_LEN * sizeof *key);
    *upto = j;
    return MG_ERR_VIOLATION;
  }
  return MG_OK;
}

mg_status mg_shard_round(mg_sim *s, mg_round *rd, mg_err *err) {
  mg_shard_ledger *r = s->sr;
  mg_status st = MG_OK;
  int64_t key[MG_SHARD_KEY_LEN];
  int bus_model = s->info.model.switching == MG_SW_BUS;
  rd->index = s->rep.rounds;
  s->cur_round = rd;
  s->round_max_hops = 0;
  s->round_max_items = 0;
  r->noted = 0;
  r->narcs = 0;
  st = reserve(s, rd->n, err);
  if (st == MG_OK && s->info.problem == MG_GOSSIP) st = mg_gossip_begin_round(s, rd, err);
  /* resolve: this shard's items of every transfer, up to its first
   * violation */
  for (size_t i = 0; i < rd->n && st == MG_OK; i++) {
    if (s->info.problem == MG_GOSSIP && i + MG_PREFETCH_AHEAD < rd->n)
      mg_gossip_prefetch(s, &rd->t[i + MG_PREFETCH_AHEAD]);
    st = mg_sim_transfer(s, rd, i, err);
  }
  for (size_t i = r->noted; i < rd->n; i++)
    r->counts[i] = 0;
  MG_CHECK(agree(s, rd->index, st, r->counts, rd->n, key, err));
  size_t upto = key[0] == INT64_MAX ? rd->n : (size_t)key[1];
  int found = key[0] != INT64_MAX, ell = check_ell(s, rd, key, &upto, err) == MG_ERR_VIOLATION;
  /* price and book the transfers before the first violation, in order */
  mg_pricer_begin(&s->pricer, rd->index);
  for (size_t i = 0; i < upto; i++) {
    const mg_transfer *tr = &rd->t[i];
    uint64_t nitems = r->counts[i], a0 = i ? r->arc_end[i - 1] : 0;
    if (s->opts.on_resolved) {
      mg_resolved res = {.round = rd->index,
                         .index = i,
                         .tr = tr,
                         .route = r->routes + i * MG_MAX_SEGS,
                         .nseg = r->nsegs[i],
                         .nitems = nitems};
      MG_CHECK(s->opts.on_resolved(s->opts.on_resolved_arg, &res, err));
    }
    double bytes = (double)nitems * s->item_bytes;
    MG_CHECK(mg_pricer_add(&s->pricer, tr->src, bus_model ? UINT32_MAX : tr->dst, r->hops[i], bytes, r->arcs + a0,
                           r->arc_end[i] - a0, err));
    if (r->hops[i] > s->round_max_hops) s->round_max_hops = r->hops[i];
    if (nitems > s->round_max_items) s->round_max_items = nitems;
    s->rep.bytes_moved += bytes;
    s->rep.transfers++;
  }
  if (ell) {
    st = MG_ERR_VIOLATION;
    goto out;
  }
  if (found) {
    st = adopt(s, key, err);
    goto out;
  }
  mg_round_price pr;
  MG_CHECK(mg_pricer_end(&s->pricer, &pr, err));
  MG_CHECK(mg_sim_book_round(s, rd, &pr, err));
out:
  return st;
}

mg_status mg_shard_end(mg_sim *s, mg_status st, mg_err *err) {
  int64_t key[MG_SHARD_KEY_LEN];
  mg_status as = agree(s, -1, st, NULL, 0, key, err);
  if (as != MG_OK) return as;
  if (key[0] == INT64_MAX) return MG_OK;
  return adopt(s, key, err);
}

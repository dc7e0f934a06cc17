/* The simulator/verifier: a sink that executes a schedule round by round
 * under a machine model. Every transfer of a round reads the state at the
 * round's start and delivers at its end, so the order of transfers within
 * a round never matters. For each transfer it checks the rules (rules.c:
 * the route, the ports, the arcs, the buses), resolves its selector
 * against what the sender holds (sim_gossip.c, sim_exchange.c), delivers,
 * and hands it to the model's pricer (../model/price.c), which prices the
 * round when it ends. At the end it checks complete delivery. The report
 * says whether the schedule verified or names the first rule it broke,
 * with its rounds, start-ups, cost and the cost's terms. */
#include "sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

mg_status mg_sim_state_bytes(const mg_schedule_info *info, uint64_t *bytes, mg_err *err) {
  uint64_t N = info->topo.N, b = 0, x;
  if (info->problem == MG_GOSSIP) {
    uint64_t items, W, rows;
    if (info->pieces == 0) return mg_fail(err, MG_ERR_INVALID, "pieces must be at least 1");
    if (!mg_mul_ok(N, info->pieces, &items)) goto over;
    W = mg_words(items);
    /* the rows, and for the round's deliveries a slot (4 B) and a dirty
     * bit per block of 8 words; the pool of delivered blocks grows with
     * what a round delivers, within the limit (sim_gossip.c) */
    if (!mg_mul_ok(N, W, &rows) || !mg_mul_ok(rows, 8, &b) ||
        !mg_mul_ok(N, (W + 7) / 8 * 4 + 8 * mg_words((W + 7) / 8), &x) || !mg_add_ok(b, x, &b))
      goto over;
    if (info->flags & MG_SCHED_TRACK_ARRIVAL) {
      if (!mg_mul_ok(N, items, &x) || !mg_mul_ok(x, 5, &x) || !mg_add_ok(b, x, &b)) goto over;
    }
  } else {
    if (!mg_mul_ok(N, N, &x) || !mg_mul_ok(x, 20, &b)) goto over;
  }
  /* per-arc and per-node bookkeeping */
  if (!mg_mul_ok(mg_topo_arc_slots(&info->topo), 24, &x) || !mg_add_ok(b, x, &b)) goto over;
  if (!mg_mul_ok(N, 48, &x) || !mg_add_ok(b, x, &b)) goto over;
  *bytes = b;
  return MG_OK;
over:
  return mg_fail(err, MG_ERR_TOO_LARGE, "the simulator state for %llu nodes overflows 64 bits", (unsigned long long)N);
}

mg_status mg_sim_create(const mg_sim_opts *opts, mg_sim **out, mg_err *err) {
  mg_sim *s = calloc(1, sizeof *s);
  if (!s) return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the simulator");
  if (opts) s->opts = *opts;
  *out = s;
  return MG_OK;
}

static mg_status sim_begin_state(void *ctx, const mg_schedule_info *info, mg_err *err) {
  mg_sim *s = ctx;
  uint64_t need, limit;
  mg_status st;
  if (s->begun) return mg_fail(err, MG_ERR_INVALID, "the simulator takes one schedule");
  s->begun = 1;
  s->info = *info;
  s->N = info->topo.N;
  if (info->pieces == 0) return mg_fail(err, MG_ERR_INVALID, "pieces must be at least 1");
  if (!isfinite(info->bytes) || info->bytes < 0) return mg_fail(err, MG_ERR_INVALID, "bytes must be finite and >= 0");
  if (info->problem == MG_EXCHANGE && info->pieces != 1)
    return mg_fail(err, MG_ERR_INVALID, "exchange schedules have P = 1");
  MG_CHECK(mg_model_validate(&info->model, &info->topo, info->problem, err));
  MG_CHECK(mg_sim_state_bytes(info, &need, err));
  if (s->opts.shard) MG_CHECK(mg_shard_setup(s, &need, err));
  s->async = info->model.timing != MG_TIMING_SYNC;
  uint64_t nitems = info->problem == MG_GOSSIP ? (uint64_t)info->topo.N * info->pieces : (uint64_t)s->N * s->N;
  if (s->async) {
    uint64_t more;
    MG_CHECK(mg_async_state_bytes(info->model.timing, info->problem, s->N, nitems, mg_topo_arc_slots(&info->topo),
                                  &more, err));
    if (!mg_add_ok(need, more, &need))
      return mg_fail(err, MG_ERR_TOO_LARGE, "the simulator state with the asynchronous clock overflows 64 bits");
  }
  limit = s->opts.mem_limit ? s->opts.mem_limit : mg_phys_mem() / 4 * 3;
  if (limit && need > limit) {
    char t[64], a[32], b[32];
    return mg_fail(err, MG_ERR_TOO_LARGE, "%s %s needs %s of simulator state, over the limit of %s",
                   mg_problem_name(info->problem), mg_topo_format(&info->topo, t, sizeof t),
                   mg_fmt_bytes(need, a, sizeof a), mg_fmt_bytes(limit, b, sizeof b));
  }
  s->nitems = info->problem == MG_GOSSIP ? (uint64_t)s->N * info->pieces : (uint64_t)s->N * s->N;
  if (!s->shard) {
    s->nloc = s->nitems;
    s->nt = s->N;
  }
  s->item_bytes = info->problem == MG_GOSSIP ? info->bytes / info->pieces : info->bytes;
  s->need = need;
  MG_CHECK(info->problem == MG_GOSSIP ? mg_gossip_alloc(s, err) : mg_exchange_alloc(s, err));
  s->nslots = mg_topo_arc_slots(&info->topo);
  s->arc_stamp = mg_calloc(s->nslots, sizeof(uint32_t));
  s->arc_user = mg_calloc(s->nslots, sizeof(uint32_t));
  s->send_stamp = mg_calloc(s->N, sizeof(uint32_t));
  s->send_user = mg_calloc(s->N, sizeof(uint32_t));
  s->recv_stamp = mg_calloc(s->N, sizeof(uint32_t));
  s->recv_user = mg_calloc(s->N, sizeof(uint32_t));
  s->node_visit = mg_calloc(s->N, sizeof(uint64_t));
  s->bus_stamp = mg_calloc(2u * info->topo.n[0] + 2, sizeof(uint32_t));
  s->bus_user = mg_calloc(2u * info->topo.n[0] + 2, sizeof(uint32_t));
  if (!s->arc_stamp || !s->arc_user || !s->send_stamp || !s->send_user || !s->recv_stamp || !s->recv_user ||
      !s->node_visit || !s->bus_stamp || !s->bus_user)
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the simulator's bookkeeping");
  MG_CHECK(mg_pricer_init(&s->pricer, &info->model, &info->topo, err));
  if (s->async) MG_CHECK(mg_async_init(&s->clock, info->model.timing, info->problem, s->N, nitems, s->nslots, err));
  /* the executor's clocks under fair sharing: rounds overlap on the wire */
  if (s->async && info->model.timing != MG_TIMING_SYNC && info->model.contention == MG_CONT_FAIR)
    mg_async_use_fluid(&s->clock, &info->model, &info->topo);
  s->rep.verified = 0;
  s->rep.params = info->params; /* what the generator resolved (dimwise's phases) */
  s->t0 = mg_now();
out:
  return st;
}

/* Shards fail together: their states' sizes differ (sim_shard.c). */
static mg_status sim_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  return mg_shard_begin(ctx, sim_begin_state(ctx, info, err), err);
}

/* Under routes=dor|simgrid the network, not the schedule, picks the path
 * (an MPI program cannot name one): once the named route has passed the
 * rules, the arcs and hops handed to the pricer are the network's. */
static void network_route(mg_sim *s, const mg_transfer *tr, uint64_t *hops) {
  const mg_topo *t = &s->info.topo;
  mg_seg seg[MG_MAX_SEGS];
  int nseg = mg_route_network(t, s->info.model.routes, tr->src, tr->dst, seg);
  uint32_t cur = tr->src;
  s->nroute_arcs = 0;
  *hops = 0;
  /* the named route has at least as many arcs as the shortest one */
  for (int g = 0; g < nseg; g++) {
    int dir = seg[g].hops < 0 ? -1 : 1;
    for (int32_t h = 0; h < seg[g].hops * dir; h++) {
      s->route_arcs[s->nroute_arcs++] = mg_arc_id(t, cur, seg[g].dim, dir);
      cur = mg_topo_step(t, cur, seg[g].dim, dir);
      (*hops)++;
    }
  }
}

/* Checks, resolves and delivers transfer i of the round, then hands it to
 * the pricer (a shard notes it for its round's reduction instead). */
mg_status mg_sim_transfer(mg_sim *s, mg_round *rd, size_t i, mg_err *err) {
  const mg_transfer *tr = &rd->t[i];
  int bus_model = s->info.model.switching == MG_SW_BUS;
  uint64_t nitems = 0, hops = 0;
  mg_seg route[MG_MAX_SEGS];
  int nseg = 0;
  mg_status st;
  s->cur_xfer = i;
  s->vsub = MG_VSUB_BEFORE;
  if (!bus_model && tr->bus != MG_BUS_NONE)
    return mg_sim_violate(s, err, MG_RULE_NOT_BUS, (int64_t)i, -1, tr->src, -1,
                          "round %lld transfer %zu: a bus transfer needs a mesh-bus machine", (long long)rd->index, i);
  if (tr->src >= s->N || (!bus_model && tr->dst >= s->N))
    return mg_sim_violate(s, err, MG_RULE_BAD_NODE, (int64_t)i, -1, tr->src >= s->N ? tr->src : tr->dst, -1,
                          "round %lld transfer %zu: node %u out of range (%u nodes)", (long long)rd->index, i,
                          tr->src >= s->N ? tr->src : tr->dst, s->N);
  s->nroute_arcs = 0;
  if (bus_model) {
    MG_CHECK(mg_rule_bus(s, tr, i, &nitems, err));
  } else {
    if (tr->nseg > MG_MAX_SEGS)
      return mg_sim_violate(s, err, MG_RULE_BAD_ROUTE, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: more than %d route segments", (long long)rd->index, i,
                            MG_MAX_SEGS);
    nseg = tr->nseg ? tr->nseg : mg_route_default(&s->info.topo, tr->src, tr->dst, route);
    if (tr->nseg) memcpy(route, tr->seg, (size_t)nseg * sizeof *route);
    /* check -> resolve -> deliver: items are resolved against the state
     * at the round's start, and land in the end-of-round state */
    s->vsub = MG_VSUB_SELECT;
    MG_CHECK(s->info.problem == MG_GOSSIP ? mg_gossip_select(s, tr, i, tr->dst, &nitems, err)
                                          : mg_exchange_select(s, tr, i, &nitems, err));
    s->vsub = MG_VSUB_ROUTE;
    MG_CHECK(mg_rule_route(s, tr, i, route, nseg, &hops, err));
    MG_CHECK(mg_rule_port(s, i, tr->src, 1, err));
    MG_CHECK(mg_rule_port(s, i, tr->dst, 0, err));
    if (s->info.model.routes != MG_ROUTES_SCHEDULE) network_route(s, tr, &hops);
    if (s->info.problem == MG_GOSSIP) MG_CHECK(mg_gossip_deliver(s, tr->dst, route[nseg - 1].dim, err));
  }
  if (s->shard) return mg_shard_note(s, i, hops, nitems, route, nseg, err);
  if (s->opts.on_resolved) {
    mg_resolved res = {.round = rd->index, .index = i, .tr = tr, .route = route, .nseg = nseg, .nitems = nitems};
    int gossip = s->info.problem == MG_GOSSIP;
    res.bits = gossip ? s->sel : NULL;
    res.nwords = gossip ? s->W : 0;
    res.list = gossip ? NULL : s->blist;
    res.nlist = gossip ? 0 : s->nblist;
    MG_CHECK(s->opts.on_resolved(s->opts.on_resolved_arg, &res, err));
  }
  double bytes = (double)nitems * s->item_bytes;
  MG_CHECK(mg_pricer_add(&s->pricer, tr->src, bus_model ? UINT32_MAX : tr->dst, hops, bytes, s->route_arcs,
                         s->nroute_arcs, err));
  if (s->async) {
    int gossip = s->info.problem == MG_GOSSIP;
    MG_CHECK(mg_async_add(&s->clock, tr->src, gossip ? s->sel : NULL, gossip ? s->W : 0, gossip ? NULL : s->blist,
                          gossip ? 0 : s->nblist, err));
  }
  if (hops > s->round_max_hops) s->round_max_hops = hops;
  if (nitems > s->round_max_items) s->round_max_items = nitems;
  s->rep.bytes_moved += bytes;
  s->rep.transfers++;
out:
  return st;
}

/* Adds a priced round to the report and closes the round (the whole
 * simulator and a shard both end a round here). */
mg_status mg_sim_book_round(mg_sim *s, const mg_round *rd, const mg_round_price *pr, mg_err *err) {
  if (rd->n > 0) {
    s->rep.cost_startup += pr->terms.startup;
    s->rep.cost_hop += pr->terms.hop;
    s->rep.cost_transfer += pr->terms.transfer;
    s->rep.startups++;
  }
  if (pr->busiest > s->rep.max_arc_load) s->rep.max_arc_load = pr->busiest;
  s->rep.sum_max_hops += s->round_max_hops;
  s->rep.sum_max_items += (double)s->round_max_items;
  s->rep.cost += pr->cost;
  s->rep.cost_sync += pr->cost;
  if (s->opts.keep_round_costs) {
    if (!mg_grow((void **)&s->rep.round_costs, &s->cap_round_costs, s->rep.n_round_costs + 1, sizeof(double)))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for round costs");
    s->rep.round_costs[s->rep.n_round_costs++] = pr->cost;
  }
  /* the end-of-round state becomes the state */
  if (s->info.problem == MG_GOSSIP)
    mg_gossip_end_round(s);
  else
    mg_exchange_end_round(s);
  s->rep.rounds++;
  s->cur_round = NULL;
  if (s->opts.progress) s->opts.progress(s->opts.progress_arg, s->rep.rounds, s->info.rounds_hint);
  return MG_OK;
}

/* A round: every transfer is checked, resolved against the state at the
 * round's start, and delivered into the end-of-round state; the model
 * prices the round; then the end-of-round state becomes the state. */
static mg_status sim_round(void *ctx, mg_round *rd, mg_err *err) {
  mg_sim *s = ctx;
  mg_status st = MG_OK;
  mg_round_price pr;
  if (!s->begun || s->failed) return mg_fail(err, MG_ERR_INVALID, "simulator not ready");
  if (s->shard) return mg_shard_round(s, rd, err);
  rd->index = s->rep.rounds;
  s->cur_round = rd;
  s->round_max_hops = 0;
  s->round_max_items = 0;
  mg_pricer_begin(&s->pricer, rd->index);
  if (s->async) mg_async_begin(&s->clock);
  if (s->info.problem == MG_GOSSIP) MG_CHECK(mg_gossip_begin_round(s, rd, err));
  for (size_t i = 0; i < rd->n; i++) {
    if (s->info.problem == MG_GOSSIP && i + MG_PREFETCH_AHEAD < rd->n)
      mg_gossip_prefetch(s, &rd->t[i + MG_PREFETCH_AHEAD]);
    MG_CHECK(mg_sim_transfer(s, rd, i, err));
  }
  MG_CHECK(mg_pricer_end(&s->pricer, &pr, err));
  if (s->async) MG_CHECK(mg_async_end(&s->clock, &s->pricer, err));
  MG_CHECK(mg_sim_book_round(s, rd, &pr, err));
out:
  return st;
}

static mg_status sim_end(void *ctx, mg_err *err) {
  mg_sim *s = ctx;
  if (!s->begun || s->failed) return mg_fail(err, MG_ERR_INVALID, "simulator not ready");
  s->ended = 1;
  mg_status st = s->info.problem == MG_GOSSIP ? mg_gossip_check_complete(s, err) : mg_exchange_check_complete(s, err);
  if (s->shard) st = mg_shard_end(s, st, err);
  s->rep.wall_s = mg_now() - s->t0;
  s->rep.peak_rss_bytes = mg_peak_rss();
  if (st != MG_OK) return st;
  if (s->async) {
    st = mg_async_finish(&s->clock, err);
    if (st != MG_OK) return st;
    s->rep.cost = s->clock.end; /* the last finish, not the sum of rounds */
  }
  /* a price beyond a double (bytes x tl summed over rounds) is no price:
   * refused rather than written as inf into reports and files */
  if (!isfinite(s->rep.cost))
    return mg_fail(err, MG_ERR_INVALID, "the cost overflows a double (%g bytes under this model): give fewer bytes",
                   s->info.bytes);
  s->rep.verified = 1;
  return MG_OK;
}

mg_sink mg_sim_sink(mg_sim *s) {
  mg_sink k = {.begin = sim_begin, .round = sim_round, .end = sim_end, .ctx = s};
  return k;
}

const mg_report *mg_sim_report(const mg_sim *s) { return &s->rep; }

void mg_sim_take_report(mg_sim *s, mg_report *out) {
  if (!s->ended) {
    s->rep.wall_s = s->begun ? mg_now() - s->t0 : 0;
    s->rep.peak_rss_bytes = mg_peak_rss();
  }
  *out = s->rep;
  s->rep.round_costs = NULL;
  s->rep.n_round_costs = 0;
  s->cap_round_costs = 0;
}

void mg_report_free(mg_report *rep) {
  free(rep->round_costs);
  rep->round_costs = NULL;
  rep->n_round_costs = 0;
}

void mg_sim_destroy(mg_sim *s) {
  if (!s) return;
  if (s->info.problem == MG_GOSSIP)
    mg_gossip_free(s);
  else
    mg_exchange_free(s);
  free(s->arc_stamp);
  free(s->arc_user);
  free(s->send_stamp);
  free(s->send_user);
  free(s->recv_stamp);
  free(s->recv_user);
  free(s->node_visit);
  free(s->bus_stamp);
  free(s->bus_user);
  free(s->route_arcs);
  mg_shard_free(s);
  free(s->rep.round_costs);
  mg_pricer_free(&s->pricer);
  mg_async_free(&s->clock);
  free(s);
}

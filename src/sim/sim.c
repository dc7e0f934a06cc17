/* The simulator/verifier: a sink that executes a schedule round by round
 * under a machine model. Every transfer of a round reads the state at the
 * round's start and delivers at its end. It checks the routing rules
 * (routes stay on the mesh and end at the receiver), the port rule, the
 * contention rule and, at the end, complete delivery; and it prices every
 * round (seed 000 eq. (1): t_s + d*t_d + l*t_l for wormhole; seed 004's
 * alpha + max d*delta + max L*tau for circuit switching; hops*(t_s+l*t_l)
 * for store-and-forward; one step per round on buses). */
#include "sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

mg_status mg_sim_violate(mg_sim *s, mg_err *err, mg_rule rule, int64_t xa, int64_t xb, int64_t node, int64_t item,
                         const char *fmt, ...) {
  mg_violation *v = &s->rep.violation;
  memset(v, 0, sizeof *v);
  v->rule = rule;
  v->round = s->ended ? -1 : s->rep.rounds;
  v->xfer[0] = xa;
  v->xfer[1] = xb;
  v->node = node;
  v->arc_node = -1;
  v->item = item;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->msg, sizeof v->msg, fmt, ap);
  va_end(ap);
  s->rep.verified = 0;
  s->failed = 1;
  if (err) snprintf(err->msg, sizeof err->msg, "%s", v->msg);
  return MG_ERR_VIOLATION;
}

const char *mg_rule_name(mg_rule r) {
  static const char *names[] = {"none",      "arc-contention", "one-port-send", "one-port-recv", "off-mesh",
                                "bad-route", "not-held",       "sent-twice",    "incomplete",    "bad-node",
                                "bad-item",  "bus-conflict",   "bus-too-long",  "not-bus",       "selector"};
  return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

mg_status mg_sim_state_bytes(const mg_schedule_info *info, uint64_t *bytes, mg_err *err) {
  uint64_t N = info->topo.N, b = 0, x;
  if (info->problem == MG_GOSSIP) {
    uint64_t items, W, rows;
    if (info->pieces == 0) return mg_fail(err, MG_ERR_INVALID, "pieces must be at least 1");
    if (!mg_mul_ok(N, info->pieces, &items)) goto over;
    W = mg_words(items);
    if (!mg_mul_ok(2 * N, W, &rows) || !mg_mul_ok(rows, 8, &b)) goto over;
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

static mg_status sim_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
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
  if (info->model.switching == MG_SW_BUS && info->topo.kind != MG_TOPO_MESHBUS)
    return mg_fail(err, MG_ERR_INVALID, "switching=bus needs a meshbus topology");
  if (info->topo.kind == MG_TOPO_MESHBUS && info->model.switching != MG_SW_BUS)
    return mg_fail(err, MG_ERR_INVALID, "a meshbus topology needs switching=bus");
  /* seed 003 defines the mesh-bus for gossip; bus_transfer resolves
   * gossip selectors only */
  if (info->topo.kind == MG_TOPO_MESHBUS && info->problem != MG_GOSSIP)
    return mg_fail(err, MG_ERR_INVALID, "the mesh-bus model (seed 003) is defined for gossip only");
  st = mg_sim_state_bytes(info, &need, err);
  if (st != MG_OK) return st;
  limit = s->opts.mem_limit ? s->opts.mem_limit : mg_phys_mem() / 4 * 3;
  if (limit && need > limit) {
    char t[64];
    return mg_fail(err, MG_ERR_TOO_LARGE, "%s %s needs %.2f GiB of simulator state, over the limit of %.2f GiB",
                   mg_problem_name(info->problem), mg_topo_format(&info->topo, t, sizeof t), (double)need / (1u << 30),
                   (double)limit / (1u << 30));
  }
  s->nitems = info->problem == MG_GOSSIP ? (uint64_t)s->N * info->pieces : (uint64_t)s->N * s->N;
  s->item_bytes = info->problem == MG_GOSSIP ? info->bytes / info->pieces : info->bytes;
  st = info->problem == MG_GOSSIP ? mg_gossip_alloc(s, err) : mg_exchange_alloc(s, err);
  if (st != MG_OK) return st;
  s->nslots = mg_topo_arc_slots(&info->topo);
  s->arc_stamp = mg_calloc(s->nslots, sizeof(uint32_t));
  s->arc_user = mg_calloc(s->nslots, sizeof(uint32_t));
  s->arc_bytes = mg_calloc(s->nslots, sizeof(double));
  s->send_stamp = mg_calloc(s->N, sizeof(uint32_t));
  s->send_user = mg_calloc(s->N, sizeof(uint32_t));
  s->send_count = mg_calloc(s->N, sizeof(uint32_t));
  s->recv_stamp = mg_calloc(s->N, sizeof(uint32_t));
  s->recv_user = mg_calloc(s->N, sizeof(uint32_t));
  s->bus_stamp = mg_calloc(2u * info->topo.n[0] + 2, sizeof(uint32_t));
  s->bus_user = mg_calloc(2u * info->topo.n[0] + 2, sizeof(uint32_t));
  if (info->model.contention == MG_CONT_FAIR && info->model.switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_INVALID, "contention=fair is defined for wormhole and circuit switching");
  if (info->model.contention == MG_CONT_FAIR && !(s->arc_index = mg_calloc(s->nslots, sizeof(uint32_t))))
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the fair-sharing arc index");
  if (!s->arc_stamp || !s->arc_user || !s->arc_bytes || !s->send_stamp || !s->send_user || !s->send_count ||
      !s->recv_stamp || !s->recv_user || !s->bus_stamp || !s->bus_user)
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the simulator's bookkeeping");
  s->rep.verified = 0;
  s->t0 = mg_now();
  return MG_OK;
}

static mg_status note_arc(mg_sim *s, uint64_t arc, mg_err *err) {
  if (!mg_grow((void **)&s->arc_touched, &s->caparc_touched, s->narc_touched + 1, sizeof *s->arc_touched))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for arc bookkeeping");
  s->arc_touched[s->narc_touched++] = arc;
  return MG_OK;
}

/* Walks the transfer's route: checks it stays on the mesh and ends at dst,
 * stamps its arcs (strict: each arc once per round) and adds its bytes to
 * the arcs' loads. Returns the hop count in *hops. */
static mg_status walk_route(mg_sim *s, const mg_transfer *tr, size_t i, const mg_seg *seg, int nseg, double bytes,
                            uint64_t *hops, mg_err *err) {
  const mg_topo *t = &s->info.topo;
  uint32_t cur = tr->src, stamp = (uint32_t)(s->rep.rounds + 1);
  int64_t r = s->rep.rounds;
  *hops = 0;
  for (int g = 0; g < nseg; g++) {
    int dim = seg[g].dim, dir = seg[g].hops < 0 ? -1 : 1;
    if (dim < 0 || dim >= t->d)
      return mg_sim_violate(s, err, MG_RULE_BAD_ROUTE, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: route segment %d uses dimension %d of a %d-dimensional topology",
                            (long long)r, i, g, dim, t->d);
    int64_t len = seg[g].hops < 0 ? -(int64_t)seg[g].hops : seg[g].hops;
    for (int64_t h = 0; h < len; h++) {
      uint32_t nx = mg_topo_step(t, cur, dim, dir);
      if (nx == MG_NONE) {
        mg_status st = mg_sim_violate(s, err, MG_RULE_OFF_MESH, (int64_t)i, -1, cur, -1,
                                      "round %lld transfer %zu (%u->%u): route leaves the mesh at node %u going %c "
                                      "along dimension %d",
                                      (long long)r, i, tr->src, tr->dst, cur, dir > 0 ? '+' : '-', dim);
        s->rep.violation.arc_node = cur;
        s->rep.violation.arc_dim = dim;
        s->rep.violation.arc_dir = dir;
        return st;
      }
      uint64_t arc = mg_arc_id(t, cur, dim, dir);
      if (s->arc_stamp[arc] != stamp) {
        s->arc_stamp[arc] = stamp;
        s->arc_user[arc] = (uint32_t)i;
        s->arc_bytes[arc] = 0;
        mg_status st = note_arc(s, arc, err);
        if (st != MG_OK) return st;
      } else if (s->info.model.contention == MG_CONT_STRICT) {
        size_t other = s->arc_user[arc];
        mg_status st = mg_sim_violate(
            s, err, MG_RULE_ARC_CONTENTION, (int64_t)other, (int64_t)i, cur, -1,
            "round %lld: transfers %zu (%u->%u) and %zu (%u->%u) both use arc %u%c%d (node %u, dimension %d, %s)",
            (long long)r, other, s->cur_round->t[other].src, s->cur_round->t[other].dst, i, tr->src, tr->dst, cur,
            dir > 0 ? '+' : '-', dim, cur, dim, dir > 0 ? "+" : "-");
        s->rep.violation.arc_node = cur;
        s->rep.violation.arc_dim = dim;
        s->rep.violation.arc_dir = dir;
        return st;
      }
      s->arc_bytes[arc] += bytes;
      if (s->arc_index) {
        /* contention=fair: remember the transfer's arcs */
        if (!mg_grow((void **)&s->fair_arcs, &s->capfair_arcs, s->nfair_arcs + 1, sizeof *s->fair_arcs))
          return mg_fail(err, MG_ERR_NOMEM, "out of memory for the fair-sharing routes");
        s->fair_arcs[s->nfair_arcs++] = arc;
      }
      cur = nx;
      (*hops)++;
    }
  }
  if (cur != tr->dst || *hops == 0)
    return mg_sim_violate(s, err, MG_RULE_BAD_ROUTE, (int64_t)i, -1, tr->src, -1,
                          *hops == 0 ? "round %lld transfer %zu (%u->%u): a transfer must cross at least one arc"
                                     : "round %lld transfer %zu (%u->%u): route ends at node %u",
                          (long long)r, i, tr->src, tr->dst, cur);
  return MG_OK;
}

/* Start-ups a node pays for the messages it has started this round: one
 * per out-arc at a time (see port_rule). */
static uint32_t node_startups(const mg_sim *s, uint32_t node) {
  uint32_t deg = (uint32_t)mg_topo_in_degree(&s->info.topo, node);
  return deg > 0 ? (s->send_count[node] + deg - 1) / deg : 1;
}

static mg_status port_rule(mg_sim *s, size_t i, uint32_t node, int send, mg_err *err) {
  uint32_t stamp = (uint32_t)(s->rep.rounds + 1);
  uint32_t *st = send ? s->send_stamp : s->recv_stamp, *us = send ? s->send_user : s->recv_user;
  if (st[node] == stamp && s->info.model.port == MG_PORT_ONE)
    return mg_sim_violate(s, err, send ? MG_RULE_ONE_PORT_SEND : MG_RULE_ONE_PORT_RECV, (int64_t)us[node], (int64_t)i,
                          node, -1, "round %lld: node %u %s twice under the one-port model (transfers %u and %zu)",
                          (long long)s->rep.rounds, node, send ? "sends" : "receives", us[node], i);
  if (send && s->info.model.contention != MG_CONT_STRICT) {
    /* An all-port node starts one message per out-arc at a time: its k
     * messages of a round cost ceil(k/deg) start-ups, one after the other
     * (seed 000 section 7: sends are dispatched one after the other). Under
     * strict contention k <= deg always (and nothing is counted); with
     * shared arcs it need not be. */
    s->send_count[node] = st[node] == stamp ? s->send_count[node] + 1 : 1;
    uint32_t mult = node_startups(s, node);
    if (mult > s->round_startups) s->round_startups = mult;
  }
  st[node] = stamp;
  us[node] = (uint32_t)i;
  return MG_OK;
}

static mg_status bus_transfer(mg_sim *s, const mg_transfer *tr, size_t i, uint64_t *nitems, mg_err *err) {
  const mg_topo *t = &s->info.topo;
  uint32_t n = t->n[0], x[2], stamp = (uint32_t)(s->rep.rounds + 1);
  int64_t r = s->rep.rounds;
  mg_topo_coords(t, tr->src, x);
  if (tr->bus != MG_BUS_ROW && tr->bus != MG_BUS_COL)
    return mg_sim_violate(s, err, MG_RULE_NOT_BUS, (int64_t)i, -1, tr->src, -1,
                          "round %lld transfer %zu: on a mesh-bus every message goes on a row or column bus",
                          (long long)r, i);
  /* row bus i joins the nodes with x1 = i; column bus j those with x0 = j */
  uint32_t bus = tr->bus == MG_BUS_ROW ? x[1] : n + x[0];
  const char *kind = tr->bus == MG_BUS_ROW ? "row" : "column";
  uint32_t bus_no = tr->bus == MG_BUS_ROW ? x[1] : x[0];
  if (s->bus_stamp[bus] == stamp)
    return mg_sim_violate(s, err, MG_RULE_BUS_CONFLICT, (int64_t)s->bus_user[bus], (int64_t)i, tr->src, -1,
                          "round %lld: %s bus %u has two senders (transfers %u from node %u and %zu from node %u)",
                          (long long)r, kind, bus_no, s->bus_user[bus], s->cur_round->t[s->bus_user[bus]].src, i,
                          tr->src);
  s->bus_stamp[bus] = stamp;
  s->bus_user[bus] = (uint32_t)i;
  mg_status st = mg_gossip_select(s, tr, i, MG_NONE, nitems, err);
  if (st != MG_OK) return st;
  if (s->info.model.ell && *nitems > s->info.model.ell)
    return mg_sim_violate(s, err, MG_RULE_BUS_TOO_LONG, (int64_t)i, -1, tr->src, -1,
                          "round %lld transfer %zu: node %u sends %llu tokens on %s bus %u, over ell = %llu",
                          (long long)r, i, tr->src, (unsigned long long)*nitems, kind, bus_no,
                          (unsigned long long)s->info.model.ell);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t y[2] = {tr->bus == MG_BUS_ROW ? k : x[0], tr->bus == MG_BUS_ROW ? x[1] : k};
    uint32_t v = mg_topo_id(t, y);
    if (v == tr->src) continue;
    st = mg_gossip_deliver(s, v, 100 + (int)tr->bus, err);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

static mg_status sim_round(void *ctx, mg_round *rd, mg_err *err) {
  mg_sim *s = ctx;
  const mg_model *m = &s->info.model;
  mg_status st = MG_OK;
  if (!s->begun || s->failed) return mg_fail(err, MG_ERR_INVALID, "simulator not ready");
  rd->index = s->rep.rounds;
  s->cur_round = rd;
  double max_fixed = 0, max_bytes = 0, best = 0, best_ts = 0, best_hop = 0, best_tl = 0;
  uint64_t max_hops = 0, max_items = 0;
  int bus_model = m->switching == MG_SW_BUS;
  int fair = s->arc_index != NULL && !bus_model;
  s->nfair_arcs = 0;
  s->round_startups = 1;
  if (fair && (!mg_grow((void **)&s->fair_off, &s->capfair_off, rd->n + 1, sizeof(size_t)) ||
               !mg_grow((void **)&s->fair_bytes, &s->capfair_bytes, rd->n + 1, sizeof(double)) ||
               !mg_grow((void **)&s->fair_fixed, &s->capfair_fixed, rd->n + 1, sizeof(double)) ||
               !mg_grow((void **)&s->fair_work, &s->capfair_work, rd->n + 1, sizeof(double))))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the fair-sharing state");
  for (size_t i = 0; i < rd->n; i++) {
    const mg_transfer *tr = &rd->t[i];
    uint64_t nitems = 0, hops = 0;
    mg_seg route[MG_MAX_SEGS];
    int nseg = 0;
    if (tr->src >= s->N || (!bus_model && tr->dst >= s->N))
      return mg_sim_violate(s, err, MG_RULE_BAD_NODE, (int64_t)i, -1, tr->src >= s->N ? tr->src : tr->dst, -1,
                            "round %lld transfer %zu: node %u out of range (%u nodes)", (long long)rd->index, i,
                            tr->src >= s->N ? tr->src : tr->dst, s->N);
    if (bus_model) {
      st = bus_transfer(s, tr, i, &nitems, err);
      if (st != MG_OK) return st;
    } else {
      if (tr->bus != MG_BUS_NONE)
        return mg_sim_violate(s, err, MG_RULE_NOT_BUS, (int64_t)i, -1, tr->src, -1,
                              "round %lld transfer %zu: a bus transfer needs a mesh-bus machine", (long long)rd->index,
                              i);
      if (tr->nseg > MG_MAX_SEGS)
        return mg_sim_violate(s, err, MG_RULE_BAD_ROUTE, (int64_t)i, -1, tr->src, -1,
                              "round %lld transfer %zu: more than %d route segments", (long long)rd->index, i,
                              MG_MAX_SEGS);
      if (tr->nseg == 0)
        nseg = mg_route_default(&s->info.topo, tr->src, tr->dst, route);
      else {
        nseg = tr->nseg;
        memcpy(route, tr->seg, (size_t)nseg * sizeof *route);
      }
      if (s->info.problem == MG_GOSSIP)
        st = mg_gossip_select(s, tr, i, tr->dst, &nitems, err);
      else
        st = mg_exchange_select(s, tr, i, &nitems, err);
      if (st != MG_OK) return st;
      if (fair) s->fair_off[i] = s->nfair_arcs;
      st = walk_route(s, tr, i, route, nseg, (double)nitems * s->item_bytes, &hops, err);
      if (fair) s->fair_off[i + 1] = s->nfair_arcs;
      if (st != MG_OK) return st;
      st = port_rule(s, i, tr->src, 1, err);
      if (st == MG_OK) st = port_rule(s, i, tr->dst, 0, err);
      if (st != MG_OK) return st;
      if (s->info.problem == MG_GOSSIP) st = mg_gossip_deliver(s, tr->dst, route[nseg - 1].dim, err);
      if (st != MG_OK) return st;
    }
    if (s->opts.on_resolved) {
      mg_resolved res = {.round = rd->index, .index = i, .tr = tr, .route = route, .nseg = nseg, .nitems = nitems};
      if (s->info.problem == MG_GOSSIP) {
        res.bits = s->sel;
        res.nwords = s->W;
      } else {
        res.list = s->blist;
        res.nlist = s->nblist;
      }
      st = s->opts.on_resolved(s->opts.on_resolved_arg, &res, err);
      if (st != MG_OK) return st;
    }
    double bytes = (double)nitems * s->item_bytes;
    double ts_t, hop_t, tl_t;
    if (bus_model) {
      ts_t = m->ts, hop_t = 0, tl_t = 0;
    } else if (m->switching == MG_SW_SAF) {
      ts_t = (double)hops * m->ts, hop_t = 0, tl_t = (double)hops * bytes * m->tl;
    } else {
      ts_t = m->ts, hop_t = (double)hops * m->td, tl_t = bytes * m->tl;
    }
    if (fair) {
      s->fair_bytes[i] = bytes;
      s->fair_fixed[i] = ts_t + hop_t;
    }
    if (ts_t + hop_t + tl_t > best || i == 0) {
      best = ts_t + hop_t + tl_t;
      best_ts = ts_t, best_hop = hop_t, best_tl = tl_t;
    }
    if (ts_t + hop_t > max_fixed) max_fixed = ts_t + hop_t;
    if (hops > max_hops) max_hops = hops;
    if (nitems > max_items) max_items = nitems;
    if (bytes > max_bytes) max_bytes = bytes;
    s->rep.bytes_moved += bytes;
    s->rep.transfers++;
  }
  /* round cost */
  double rc = 0, busiest = 0;
  for (size_t k = 0; k < s->narc_touched; k++)
    if (s->arc_bytes[s->arc_touched[k]] > busiest) busiest = s->arc_bytes[s->arc_touched[k]];
  if (bus_model) busiest = max_bytes;
  if (fair && rd->n > 0) {
    /* max-min fair sharing of the arcs (fair.c): the round costs the
     * largest start-up + hop time + fair-share finish of its transfers */
    mg_status fst = mg_fair_finish(s, rd->n, s->fair_work, err);
    if (fst != MG_OK) return fst;
    best = -1;
    for (size_t i = 0; i < rd->n; i++) {
      /* the sender's start-ups come one after the other (see port_rule) */
      double ts_i = m->ts;
      if (m->switching != MG_SW_SAF) {
        ts_i = m->ts * node_startups(s, rd->t[i].src);
        s->fair_fixed[i] += ts_i - m->ts;
      }
      double c = s->fair_fixed[i] + s->fair_work[i] * m->tl;
      if (c > best) {
        best = c;
        best_ts = ts_i;
        best_hop = s->fair_fixed[i] - ts_i;
        best_tl = s->fair_work[i] * m->tl;
      }
    }
  }
  s->narc_touched = 0;
  if (rd->n > 0) {
    if (bus_model) {
      rc = m->ts;
      s->rep.cost_startup += rc;
    } else if (fair) {
      rc = best;
      s->rep.cost_startup += best_ts;
      s->rep.cost_hop += best_hop;
      s->rep.cost_transfer += best_tl;
    } else if (m->contention == MG_CONT_SHARED) {
      /* shared links: the round's largest fixed terms (a node's start-ups
       * one after the other, see port_rule) plus the byte load of its
       * busiest arc (docs/models.md) */
      double fixed_ts = m->switching == MG_SW_SAF ? max_fixed : m->ts * s->round_startups;
      double fixed_hop = m->switching == MG_SW_SAF ? 0 : max_fixed - m->ts;
      rc = fixed_ts + fixed_hop + busiest * m->tl;
      s->rep.cost_startup += fixed_ts;
      s->rep.cost_hop += fixed_hop;
      s->rep.cost_transfer += busiest * m->tl;
    } else if (m->switching == MG_SW_CIRCUIT) {
      /* seed 004: a round costs alpha + max distance*delta + max length*tau */
      rc = m->ts + (double)max_hops * m->td + max_bytes * m->tl;
      s->rep.cost_startup += m->ts;
      s->rep.cost_hop += (double)max_hops * m->td;
      s->rep.cost_transfer += max_bytes * m->tl;
    } else {
      rc = best;
      s->rep.cost_startup += best_ts;
      s->rep.cost_hop += best_hop;
      s->rep.cost_transfer += best_tl;
    }
    s->rep.startups++;
  }
  if (busiest > s->rep.max_arc_load) s->rep.max_arc_load = busiest;
  s->rep.sum_max_hops += max_hops;
  s->rep.sum_max_items += (double)max_items;
  s->rep.cost += rc;
  if (s->opts.keep_round_costs) {
    if (!mg_grow((void **)&s->rep.round_costs, &s->cap_round_costs, s->rep.n_round_costs + 1, sizeof(double)))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for round costs");
    s->rep.round_costs[s->rep.n_round_costs++] = rc;
  }
  if (s->info.problem == MG_GOSSIP)
    mg_gossip_end_round(s);
  else
    mg_exchange_end_round(s);
  s->rep.rounds++;
  s->cur_round = NULL;
  if (s->opts.progress) s->opts.progress(s->opts.progress_arg, s->rep.rounds, s->info.rounds_hint);
  return MG_OK;
}

static mg_status sim_end(void *ctx, mg_err *err) {
  mg_sim *s = ctx;
  if (!s->begun || s->failed) return mg_fail(err, MG_ERR_INVALID, "simulator not ready");
  s->ended = 1;
  mg_status st = s->info.problem == MG_GOSSIP ? mg_gossip_check_complete(s, err) : mg_exchange_check_complete(s, err);
  s->rep.wall_s = mg_now() - s->t0;
  s->rep.peak_rss_bytes = mg_peak_rss();
  if (st != MG_OK) return st;
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
  free(s->arc_bytes);
  free(s->arc_touched);
  free(s->send_stamp);
  free(s->send_user);
  free(s->send_count);
  free(s->recv_stamp);
  free(s->recv_user);
  free(s->bus_stamp);
  free(s->bus_user);
  free(s->rep.round_costs);
  free(s->fair_arcs);
  free(s->fair_off);
  free(s->fair_bytes);
  free(s->fair_fixed);
  free(s->fair_work);
  free(s->arc_index);
  free(s);
}

/* The verifier's rules for one transfer of a round, as the machine models
 * define them (DESIGN: "model"):
 *   - a route stays on the mesh, uses existing dimensions, crosses at
 *     least one arc, visits no node twice and ends at the receiver;
 *   - strict contention: a directed arc carries at most one transfer per
 *     round (Juurlink, Rao, Sibeyn, "Gossiping on Meshes and Tori":
 *     contention-free rounds; Delmas, Perennes: arc-disjoint dipaths);
 *   - one-port: a node sends at most once and receives at most once per
 *     round (Tseng, Ni, Sheu, "Toward Optimal Complete Exchange on
 *     Wormhole-Routed Tori");
 *   - mesh-bus: one sender per bus per step, at most ell tokens a message
 *     (Fujita, "Gossiping in Mesh-Bus Computers by Packets with Bounded
 *     Length").
 * Rules stamp what they see with round+1, so nothing is cleared between
 * rounds. Prices are not made here: see ../model/. */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

static mg_status arc_violation(mg_sim *s, mg_status st, uint32_t node, int dim, int dir) {
  s->rep.violation.arc_node = node;
  s->rep.violation.arc_dim = dim;
  s->rep.violation.arc_dir = dir;
  return st;
}

/* Under strict contention an arc already stamped this round by another
 * transfer is a violation naming both transfers and the arc. */
static mg_status claim_arc(mg_sim *s, const mg_transfer *tr, size_t i, uint32_t cur, int dim, int dir, mg_err *err) {
  uint64_t arc = mg_arc_id(&s->info.topo, cur, dim, dir);
  uint32_t stamp = (uint32_t)(s->rep.rounds + 1);
  if (s->arc_stamp[arc] == stamp && s->info.model.contention == MG_CONT_STRICT) {
    size_t other = s->arc_user[arc];
    const mg_transfer *o = &s->cur_round->t[other];
    mg_status st = mg_sim_violate(
        s, err, MG_RULE_ARC_CONTENTION, (int64_t)other, (int64_t)i, cur, -1,
        "round %lld: transfers %zu (%u->%u) and %zu (%u->%u) both use arc %u%c%d (node %u, dimension %d, %s)",
        (long long)s->rep.rounds, other, o->src, o->dst, i, tr->src, tr->dst, cur, dir > 0 ? '+' : '-', dim, cur, dim,
        dir > 0 ? "+" : "-");
    return arc_violation(s, st, cur, dim, dir);
  }
  if (s->arc_stamp[arc] != stamp) {
    s->arc_stamp[arc] = stamp;
    s->arc_user[arc] = (uint32_t)i;
  }
  if (!mg_grow((void **)&s->route_arcs, &s->caproute_arcs, s->nroute_arcs + 1, sizeof *s->route_arcs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the route's arcs");
  s->route_arcs[s->nroute_arcs++] = arc;
  return MG_OK;
}

mg_status mg_rule_route(mg_sim *s, const mg_transfer *tr, size_t i, const mg_seg *seg, int nseg, uint64_t *hops,
                        mg_err *err) {
  const mg_topo *t = &s->info.topo;
  uint32_t cur = tr->src;
  int64_t r = s->rep.rounds;
  *hops = 0;
  s->nroute_arcs = 0;
  /* a fresh mark for this transfer's visits: a route that comes back to
   * a node it has left loops, whatever the contention rule */
  uint64_t visit = ++s->visit_mark;
  s->node_visit[cur] = visit;
  for (int g = 0; g < nseg; g++) {
    int dim = seg[g].dim, dir = seg[g].hops < 0 ? -1 : 1;
    if (dim < 0 || dim >= t->d)
      return mg_sim_violate(s, err, MG_RULE_BAD_ROUTE, (int64_t)i, -1, tr->src, -1,
                            "round %lld transfer %zu: route segment %d uses dimension %d of a %d-dimensional topology",
                            (long long)r, i, g, dim, t->d);
    int64_t len = seg[g].hops < 0 ? -(int64_t)seg[g].hops : seg[g].hops;
    for (int64_t h = 0; h < len; h++) {
      uint32_t nx = mg_topo_step(t, cur, dim, dir);
      if (nx == MG_NONE)
        return arc_violation(s,
                             mg_sim_violate(s, err, MG_RULE_OFF_MESH, (int64_t)i, -1, cur, -1,
                                            "round %lld transfer %zu (%u->%u): route leaves the mesh at node %u going "
                                            "%c along dimension %d",
                                            (long long)r, i, tr->src, tr->dst, cur, dir > 0 ? '+' : '-', dim),
                             cur, dim, dir);
      mg_status st = claim_arc(s, tr, i, cur, dim, dir, err);
      if (st != MG_OK) return st;
      if (s->node_visit[nx] == visit)
        return mg_sim_violate(s, err, MG_RULE_BAD_ROUTE, (int64_t)i, -1, nx, -1,
                              "round %lld transfer %zu (%u->%u): route visits node %u twice", (long long)r, i, tr->src,
                              tr->dst, nx);
      s->node_visit[nx] = visit;
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

mg_status mg_rule_port(mg_sim *s, size_t i, uint32_t node, int send, mg_err *err) {
  uint32_t stamp = (uint32_t)(s->rep.rounds + 1);
  uint32_t *st = send ? s->send_stamp : s->recv_stamp, *us = send ? s->send_user : s->recv_user;
  if (st[node] == stamp && s->info.model.port == MG_PORT_ONE)
    return mg_sim_violate(s, err, send ? MG_RULE_ONE_PORT_SEND : MG_RULE_ONE_PORT_RECV, (int64_t)us[node], (int64_t)i,
                          node, -1, "round %lld: node %u %s twice under the one-port model (transfers %u and %zu)",
                          (long long)s->rep.rounds, node, send ? "sends" : "receives", us[node], i);
  st[node] = stamp;
  us[node] = (uint32_t)i;
  return MG_OK;
}

mg_status mg_rule_bus(mg_sim *s, const mg_transfer *tr, size_t i, uint64_t *nitems, mg_err *err) {
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
  s->vsub = MG_VSUB_SELECT;
  mg_status st = mg_gossip_select(s, tr, i, MG_NONE, nitems, err);
  if (st != MG_OK) return st;
  s->vsub = MG_VSUB_ELL;
  /* a shard's count is partial: sim_shard.c checks ell on the sums */
  if (s->info.model.ell && !s->shard && *nitems > s->info.model.ell)
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

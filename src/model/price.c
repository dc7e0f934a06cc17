/* Pricing: what a message and a round cost under a machine model (see
 * price.h for the rules and docs/models.md for their derivation). */
#include "model.h"

#include <string.h>

mg_terms mg_price_message(const mg_model *m, uint64_t hops, double bytes) {
  mg_terms t = {m->ts, 0, 0};
  if (m->switching == MG_SW_BUS) return t; /* one bus step per round */
  if (m->switching == MG_SW_SAF) {
    /* every hop stores the whole message and starts it again */
    t.startup = (double)hops * m->ts;
    t.transfer = (double)hops * bytes * m->tl;
    return t;
  }
  t.hop = (double)hops * m->td;
  t.transfer = bytes * m->tl;
  return t;
}

mg_status mg_pricer_init(mg_pricer *p, const mg_model *m, const mg_topo *t, mg_err *err) {
  memset(p, 0, sizeof *p);
  p->m = *m;
  p->topo = *t;
  if (m->contention == MG_CONT_FAIR && m->switching == MG_SW_SAF)
    return mg_fail(err, MG_ERR_INVALID, "contention=fair is defined for wormhole and circuit switching");
  p->fair = m->contention == MG_CONT_FAIR && m->switching != MG_SW_BUS;
  p->timeline = m->switching != MG_SW_BUS && (m->o != 0 || m->orecv != 0 || m->timing != MG_TIMING_SYNC);
  p->routes = m->switching == MG_SW_SAF && m->contention == MG_CONT_SHARED;
  p->nslots = mg_topo_arc_slots(t);
  p->arc_bytes = mg_calloc(p->nslots, sizeof(double));
  p->arc_stamp = mg_calloc(p->nslots, sizeof(uint32_t));
  p->send_stamp = mg_calloc(t->N, sizeof(uint32_t));
  p->send_count = mg_calloc(t->N, sizeof(uint32_t));
  if (p->fair) p->arc_index = mg_calloc(p->nslots, sizeof(uint32_t));
  if (p->timeline) {
    p->o_stamp = mg_calloc(t->N, sizeof(uint32_t));
    p->o_count = mg_calloc(t->N, sizeof(uint32_t));
  }
  if (!p->arc_bytes || !p->arc_stamp || !p->send_stamp || !p->send_count || (p->fair && !p->arc_index) ||
      (p->timeline && (!p->o_stamp || !p->o_count))) {
    mg_pricer_free(p);
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the cost model's bookkeeping");
  }
  return MG_OK;
}

void mg_pricer_free(mg_pricer *p) {
  free(p->arc_bytes);
  free(p->arc_stamp);
  free(p->touched);
  free(p->send_stamp);
  free(p->send_count);
  free(p->arc_index);
  free(p->arcs);
  free(p->off);
  free(p->src);
  free(p->bytes);
  free(p->fixed);
  free(p->work);
  free(p->wb);
  free(p->o_stamp);
  free(p->o_count);
  free(p->dst);
  free(p->cpu_slot);
  free(p->msg);
  free(p->wire);
  free(p->order);
  free(p->boff);
  free(p->barcs);
  memset(p, 0, sizeof *p);
}

void mg_pricer_begin(mg_pricer *p, int64_t r) {
  p->stamp = (uint32_t)(r + 1);
  p->ntouched = 0;
  p->round_startups = 1;
  p->n = 0;
  p->narcs = 0;
  p->nbarcs = 0;
  memset(&p->dearest, 0, sizeof p->dearest);
  p->max_fixed = p->max_bytes = 0;
  p->max_hops = 0;
}

/* Start-ups a node pays for the messages it started this round: an
 * all-port node starts one message per out-arc at a time, so k messages
 * cost ceil(k/deg) start-ups, one after the other (Juurlink, Rao, Sibeyn,
 * section 7: sends are dispatched one after the other). Under strict
 * contention k <= deg always, and nothing is counted. */
static uint32_t node_startups(const mg_pricer *p, uint32_t node) {
  uint32_t deg = (uint32_t)mg_topo_in_degree(&p->topo, node);
  return deg > 0 ? (p->send_count[node] + deg - 1) / deg : 1;
}

static mg_status grow_round(mg_pricer *p, mg_err *err) {
  size_t need = p->n + 2;
  if (!mg_grow((void **)&p->off, &p->capoff, need, sizeof(size_t)) ||
      !mg_grow((void **)&p->src, &p->capsrc, need, sizeof(uint32_t)) ||
      !mg_grow((void **)&p->bytes, &p->capbytes, need, sizeof(double)) ||
      !mg_grow((void **)&p->fixed, &p->capfixed, need, sizeof(double)) ||
      !mg_grow((void **)&p->work, &p->capwork, need, sizeof(double)) ||
      !mg_grow((void **)&p->wb, &p->capwb, need, sizeof(double)) ||
      (p->timeline && (!mg_grow((void **)&p->dst, &p->capdst, need, sizeof(uint32_t)) ||
                       !mg_grow((void **)&p->cpu_slot, &p->capslot, need, sizeof(uint32_t)) ||
                       !mg_grow((void **)&p->msg, &p->capmsg, need, sizeof(double)) ||
                       !mg_grow((void **)&p->wire, &p->capwire, need, sizeof(double)) ||
                       !mg_grow((void **)&p->order, &p->caporder, need, sizeof(mg_arrival)))))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the fair-sharing state");
  return MG_OK;
}

/* Marks arc a as touched this round (its bytes start at 0). */
static mg_status touch(mg_pricer *p, uint64_t a, mg_err *err) {
  if (p->arc_stamp[a] == p->stamp) return MG_OK;
  p->arc_stamp[a] = p->stamp;
  p->arc_bytes[a] = 0;
  if (!mg_grow((void **)&p->touched, &p->captouched, p->ntouched + 1, sizeof *p->touched))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for arc bookkeeping");
  p->touched[p->ntouched++] = a;
  return MG_OK;
}

/* Model key ack: the arcs transfer i's acknowledgements load, its return
 * route. SimGrid asks the routing for the route from the receiver back to
 * the sender (on a torus with a tie, or in dimension order from the other
 * end, not the forward route reversed); under routes=schedule the machine
 * is the papers' and its return path the named route walked back. */
static mg_status add_return_route(mg_pricer *p, size_t i, uint32_t src, uint32_t dst, const uint64_t *arcs,
                                  size_t narcs, mg_err *err) {
  const mg_topo *t = &p->topo;
  uint64_t d = (uint64_t)t->d;
  size_t need = p->nbarcs + narcs + (size_t)t->N; /* a network route is at most N hops */
  if (!mg_grow((void **)&p->boff, &p->capboff, i + 2, sizeof *p->boff) ||
      !mg_grow((void **)&p->barcs, &p->capbarcs, need, sizeof *p->barcs))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the return routes");
  p->boff[i] = p->nbarcs;
  if (narcs == 0) { /* nothing on the wire: nothing comes back */
  } else if (p->m.routes == MG_ROUTES_SCHEDULE) {
    for (size_t k = narcs; k-- > 0;) {
      uint64_t a = arcs[k];
      uint32_t node = (uint32_t)((a >> 1) / d);
      int dim = (int)((a >> 1) % d), dir = (a & 1) ? -1 : 1;
      p->barcs[p->nbarcs++] = mg_arc_id(t, mg_topo_step(t, node, dim, dir), dim, -dir);
    }
  } else {
    mg_seg seg[MG_MAX_SEGS];
    int nseg = mg_route_network(t, p->m.routes, dst, src, seg);
    uint32_t cur = dst;
    for (int g = 0; g < nseg; g++) {
      int dir = seg[g].hops < 0 ? -1 : 1;
      for (int32_t h = 0; h < seg[g].hops * dir; h++) {
        p->barcs[p->nbarcs++] = mg_arc_id(t, cur, seg[g].dim, dir);
        cur = mg_topo_step(t, cur, seg[g].dim, dir);
      }
    }
  }
  p->boff[i + 1] = p->nbarcs;
  for (size_t k = p->boff[i]; k < p->nbarcs; k++) {
    mg_status st = touch(p, p->barcs[k], err);
    if (st != MG_OK) return st;
  }
  return MG_OK;
}

mg_status mg_pricer_add(mg_pricer *p, uint32_t src, uint32_t dst, uint64_t hops, double bytes, const uint64_t *arcs,
                        size_t narcs, mg_err *err) {
  const mg_model *m = &p->m;
  size_t i = p->n;
  /* a message with a bandwidth factor F moves at most at F/tl bytes per
   * second: alone it takes wb = bytes/F, on its arcs it weighs its bytes */
  double wb = m->nbwf ? mg_model_wire_bytes(m, bytes) : bytes;
  for (size_t k = 0; k < narcs; k++) {
    mg_status st = touch(p, arcs[k], err);
    if (st != MG_OK) return st;
    p->arc_bytes[arcs[k]] += bytes;
  }
  if (m->switching != MG_SW_BUS && m->contention != MG_CONT_STRICT) {
    p->send_count[src] = p->send_stamp[src] == p->stamp ? p->send_count[src] + 1 : 1;
    p->send_stamp[src] = p->stamp;
    uint32_t mult = node_startups(p, src);
    if (mult > p->round_startups) p->round_startups = mult;
  }
  mg_terms t = mg_price_message(m, hops, wb);
  if (p->fair || p->timeline || p->routes) {
    mg_status st = grow_round(p, err);
    if (st != MG_OK) return st;
    if (!mg_grow((void **)&p->arcs, &p->caparcs, p->narcs + narcs + 1, sizeof *p->arcs))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the fair-sharing routes");
    p->off[i] = p->narcs;
    memcpy(p->arcs + p->narcs, arcs, narcs * sizeof *arcs);
    p->narcs += narcs;
    p->off[i + 1] = p->narcs;
    if (p->fair && m->ack > 0) {
      mg_status st = add_return_route(p, i, src, dst, arcs, narcs, err);
      if (st != MG_OK) return st;
    }
    p->src[i] = src;
    p->bytes[i] = bytes;
    p->wb[i] = wb;
    p->fixed[i] = t.startup + t.hop;
    if (p->timeline) {
      /* the node's CPU takes its messages of the round in plan order */
      p->o_count[src] = p->o_stamp[src] == p->stamp ? p->o_count[src] + 1 : 1;
      p->o_stamp[src] = p->stamp;
      p->cpu_slot[i] = p->o_count[src] - 1;
      p->dst[i] = dst;
      p->msg[i] = mg_terms_sum(t);
    }
  }
  if (mg_terms_sum(t) > mg_terms_sum(p->dearest) || i == 0) p->dearest = t;
  if (t.startup + t.hop > p->max_fixed) p->max_fixed = t.startup + t.hop;
  if (hops > p->max_hops) p->max_hops = hops;
  if (wb > p->max_bytes) p->max_bytes = wb;
  p->n++;
  return MG_OK;
}

/* store-and-forward under shared contention: a message is stored and
 * started again at every hop, and on each arc it waits for all the bytes
 * that arc carries in the round; it costs the sum over its arcs of
 * (ts + the arc's bytes*tl). On a round without a shared arc that is
 * hops*(ts + bytes*tl), the strict price. */
double mg_saf_shared_wire(const mg_pricer *p, size_t i) {
  double w = p->fixed[i];
  for (size_t k = p->off[i]; k < p->off[i + 1]; k++) {
    double load = p->arc_bytes[p->arcs[k]];
    w += (load > p->wb[i] ? load : p->wb[i]) * p->m.tl; /* no faster than alone */
  }
  return w;
}

static void price_saf_shared(const mg_pricer *p, mg_terms *out, double *cost) {
  *cost = -1;
  for (size_t i = 0; i < p->n; i++) {
    double c = mg_saf_shared_wire(p, i);
    if (c > *cost) {
      *cost = c;
      *out = (mg_terms){p->fixed[i], 0, c - p->fixed[i]};
    }
  }
}

/* contention=fair: the round costs its dearest transfer, each priced at
 * its sender's start-ups + hop time + fair-share finish (fair.c). */
static mg_status price_fair(mg_pricer *p, mg_terms *out, double *cost, mg_err *err) {
  const mg_model *m = &p->m;
  mg_status st = mg_fair_finish(p, p->work, err);
  if (st != MG_OK) return st;
  double best = -1;
  for (size_t i = 0; i < p->n; i++) {
    double ts_i = m->ts * node_startups(p, p->src[i]);
    p->fixed[i] += ts_i - m->ts;
    double c = p->fixed[i] + p->work[i] * m->tl;
    if (c > best) {
      best = *cost = c;
      *out = (mg_terms){ts_i, p->fixed[i] - ts_i, p->work[i] * m->tl};
    }
  }
  return MG_OK;
}

mg_status mg_pricer_end(mg_pricer *p, mg_round_price *out, mg_err *err) {
  const mg_model *m = &p->m;
  mg_status st = MG_OK;
  double busiest = 0;
  mg_terms t = {0, 0, 0};
  double cost = 0;
  for (size_t k = 0; k < p->ntouched; k++)
    if (p->arc_bytes[p->touched[k]] > busiest) busiest = p->arc_bytes[p->touched[k]];
  if (m->switching == MG_SW_BUS) busiest = p->max_bytes;
  if (p->n > 0) {
    if (m->switching == MG_SW_BUS) {
      t.startup = cost = m->ts;
    } else if (p->fair) {
      MG_CHECK(price_fair(p, &t, &cost, err));
    } else if (p->routes) {
      price_saf_shared(p, &t, &cost);
    } else if (m->contention == MG_CONT_SHARED) {
      /* the round's largest fixed terms (a node's start-ups one after the
       * other) plus the byte load of its busiest arc */
      t.startup = m->ts * p->round_startups;
      t.hop = p->max_fixed - m->ts;
      t.transfer = busiest * m->tl;
      cost = mg_terms_sum(t);
      if (mg_terms_sum(p->dearest) > cost) { /* a slow message alone takes longer */
        t = p->dearest;
        cost = mg_terms_sum(t);
      }
    } else if (m->switching == MG_SW_CIRCUIT) {
      /* Delmas-Perennes: alpha + max distance*delta + max length*tau */
      t = (mg_terms){m->ts, (double)p->max_hops * m->td, p->max_bytes * m->tl};
      cost = mg_terms_sum(t);
    } else {
      t = p->dearest;
      cost = mg_terms_sum(t);
    }
    if (p->timeline) {
      MG_CHECK(mg_timeline_wires(p, cost, err));
      if (m->o != 0 || m->orecv != 0) {
        /* with overheads, the round lasts until its last message is
         * received; under shared contention also at least as long as its
         * busiest arc and its latencies (the price without overheads) */
        double end;
        MG_CHECK(mg_timeline_round(p, &end, err));
        if (end > cost) {
          t.startup += end - cost; /* the overheads count as start-up work */
          cost = end;
        } else if (m->contention == MG_CONT_FAIR) {
          t.transfer += end - cost; /* flows spread out by the CPU share less */
          cost = end;
        }
      }
    }
  }
  out->terms = t;
  out->cost = cost;
  out->busiest = busiest;
  out->max_hops = p->max_hops;
out:
  return st;
}

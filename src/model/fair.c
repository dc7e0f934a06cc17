/* contention=fair: max-min fair sharing of the arcs within a round.
 *
 * Every transfer of the round is a flow of its bytes along its route. All
 * flows start together; every arc carries one byte per unit of time,
 * shared max-min fairly among the flows that cross it (progressive
 * filling: the arc with the least capacity per unfrozen flow fixes the
 * rate of its flows, which are then frozen, and so on), and the shares are
 * recomputed whenever a flow ends. This is the fluid model of SimGrid's
 * CM02 network model without latencies (bench/simgrid_fair.c
 * compares the two on rounds of the MPI baselines). The pricer then
 * prices the round as max over its transfers of ts + hops*td + finish*tl
 * (docs/models.md). Cost: one sharing per flow end, each O(arcs touched x
 * bottleneck levels + route lengths).
 *
 * Three refinements of SimGrid's SMPI network model (docs/models.md), in
 * the terms of its max-min system (SimGrid's NetworkCm02Model): what the
 * arcs share is a flow's value v, at most one arc's capacity, and the
 * flow moves F*v bytes, F its bandwidth factor (the model's bwf): so
 * alone it moves at F bytes per unit and two of them on one arc at F/2
 * each (measured against SimGrid's own run of the same schedules: a bound
 * alone, with the link's full capacity left to the others, under-predicted
 * shared links by up to 30%); with share=hops the values on an arc are in
 * inverse proportion to the routes' lengths (SimGrid's sharing penalty,
 * network/weight-S divided by the bandwidth, summed over the route: TCP's
 * RTT unfairness); and with ack=c a flow also takes c*v on every arc of
 * its return route (network/crosstraffic, 0.05: the acknowledgements), so
 * a flow is slowed by the flows coming the other way, and a long flow by
 * a short one it only meets on its return route.
 *
 * With release times (mg_fair_finish_at: a sender's CPU lets its messages
 * go one after the other, docs/models.md) a flow joins at its release and
 * the shares are recomputed then too; finish times are absolute. */
#include "model.h"

#include <math.h>
#include <string.h>

mg_status mg_fair_finish(const mg_pricer *p, double *finish, mg_err *err) {
  return mg_fair_finish_at(p, NULL, finish, err);
}

mg_status mg_fair_finish_at(const mg_pricer *p, const double *release, double *finish, mg_err *err) {
  size_t nx = p->n;
  mg_status st = MG_OK;
  size_t na = p->ntouched, ninc = p->narcs;
  const size_t *off = p->off;
  const uint64_t *arcs = p->arcs;
  double ack = p->m.ack;
  const size_t *boff = ack > 0 ? p->boff : NULL;
  const uint64_t *barcs = p->barcs;
  /* per arc: capacity left, unfrozen flows, and its flows (CSR) */
  double *cap = mg_calloc(na ? na : 1, sizeof(double));
  uint32_t *nun = mg_calloc(na ? na : 1, sizeof(uint32_t));
  size_t *start = mg_calloc(na + 1, sizeof(size_t));
  size_t *flows = mg_calloc(ninc ? ninc : 1, sizeof(size_t));
  double *rem = mg_calloc(nx ? nx : 1, sizeof(double)), *rate = mg_calloc(nx ? nx : 1, sizeof(double));
  uint8_t *active = mg_calloc(nx ? nx : 1, 1), *frozen = mg_calloc(nx ? nx : 1, 1);
  uint8_t *waiting = mg_calloc(nx ? nx : 1, 1); /* released later */
  /* per arc: the unfrozen flows' weights; per flow: weight and rate bound */
  double *wsum = mg_calloc(na ? na : 1, sizeof(double));
  double *wt = mg_calloc(nx ? nx : 1, sizeof(double)), *bound = mg_calloc(nx ? nx : 1, sizeof(double));
  double *use = mg_calloc(nx ? nx : 1, sizeof(double)); /* bytes moved per unit of value: F */
  if (!cap || !nun || !start || !flows || !rem || !rate || !active || !frozen || !waiting || !wsum || !wt || !bound ||
      !use) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the fair-sharing state");
    goto out;
  }
  for (size_t k = 0; k < na; k++)
    p->arc_index[p->touched[k]] = (uint32_t)k;
  for (size_t j = 0; j < ninc; j++)
    start[p->arc_index[arcs[j]] + 1]++;
  for (size_t k = 0; k < na; k++)
    start[k + 1] += start[k];
  {
    size_t *fill = mg_calloc(na ? na : 1, sizeof(size_t));
    if (!fill) {
      st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the fair-sharing state");
      goto out;
    }
    for (size_t i = 0; i < nx; i++)
      for (size_t j = off[i]; j < off[i + 1]; j++) {
        uint32_t a = p->arc_index[arcs[j]];
        flows[start[a] + fill[a]++] = i;
      }
    free(fill);
  }
  size_t nactive = 0, nwaiting = 0;
  for (size_t i = 0; i < nx; i++) {
    size_t h = off[i + 1] - off[i];
    wt[i] = p->m.share == MG_SHARE_HOPS && h > 1 ? 1.0 / (double)h : 1.0;
    bound[i] = 1.0; /* a value takes at most one arc's capacity */
    use[i] = p->m.nbwf && p->wb[i] > 0 ? p->bytes[i] / p->wb[i] : 1.0;
    double r = release ? release[i] : 0;
    finish[i] = r;
    rem[i] = p->bytes[i];
    int flows_bytes = rem[i] > 0 && off[i + 1] > off[i];
    waiting[i] = flows_bytes && r > 0;
    active[i] = flows_bytes && !waiting[i];
    nactive += active[i];
    nwaiting += waiting[i];
  }
  double t = 0;
  while (nactive > 0 || nwaiting > 0) {
    /* progressive filling over the active flows */
    for (size_t k = 0; k < na; k++)
      cap[k] = 1.0, nun[k] = 0, wsum[k] = 0;
    for (size_t i = 0; i < nx; i++) {
      frozen[i] = 0;
      if (!active[i]) continue;
      for (size_t j = off[i]; j < off[i + 1]; j++)
        nun[p->arc_index[arcs[j]]]++, wsum[p->arc_index[arcs[j]]] += wt[i];
      for (size_t j = boff ? boff[i] : 0; boff && j < boff[i + 1]; j++)
        nun[p->arc_index[barcs[j]]]++, wsum[p->arc_index[barcs[j]]] += ack * wt[i];
    }
    size_t unfrozen = nactive;
    while (unfrozen > 0) {
      /* the level: a flow gets wt*level, up to its bound */
      double best = INFINITY;
      for (size_t k = 0; k < na; k++)
        if (nun[k] && cap[k] / wsum[k] < best) best = cap[k] / wsum[k];
      for (size_t i = 0; i < nx; i++)
        if (active[i] && !frozen[i] && bound[i] / wt[i] < best) best = bound[i] / wt[i];
      if (!isfinite(best)) break;
      if (best < 0) best = 0;
      for (size_t i = 0; i < nx; i++) {
        if (!active[i] || frozen[i]) continue;
        int hit = bound[i] / wt[i] <= best * (1 + 1e-12);
        for (size_t j = off[i]; j < off[i + 1] && !hit; j++) {
          uint32_t k = p->arc_index[arcs[j]];
          hit = cap[k] / wsum[k] <= best * (1 + 1e-12);
        }
        for (size_t j = boff ? boff[i] : 0; boff && j < boff[i + 1] && !hit; j++) {
          uint32_t k = p->arc_index[barcs[j]];
          hit = cap[k] / wsum[k] <= best * (1 + 1e-12);
        }
        if (!hit) continue;
        frozen[i] = 1;
        rate[i] = bound[i] / wt[i] <= best * (1 + 1e-12) ? bound[i] : wt[i] * best; /* the value */
        unfrozen--;
      }
      /* take the frozen flows' rates off their arcs */
      for (size_t i = 0; i < nx; i++) {
        if (frozen[i] != 1) continue;
        frozen[i] = 2;
        for (size_t j = off[i]; j < off[i + 1]; j++) {
          uint32_t b = p->arc_index[arcs[j]];
          cap[b] -= rate[i];
          nun[b]--;
          wsum[b] -= wt[i];
        }
        for (size_t j = boff ? boff[i] : 0; boff && j < boff[i + 1]; j++) {
          uint32_t b = p->arc_index[barcs[j]];
          cap[b] -= ack * rate[i];
          nun[b]--;
          wsum[b] -= ack * wt[i];
        }
      }
    }
    /* values to bytes per unit */
    for (size_t i = 0; i < nx; i++)
      if (active[i]) rate[i] *= use[i];
    /* advance to the next flow end or the next release */
    double dt = INFINITY;
    size_t first = nx;
    for (size_t i = 0; i < nx; i++)
      if (active[i] && rate[i] > 0 && rem[i] / rate[i] < dt) dt = rem[i] / rate[i], first = i;
    double next = INFINITY;
    for (size_t i = 0; i < nx; i++)
      if (waiting[i] && release[i] < next) next = release[i];
    if (next - t <= dt) {
      /* flows join: the shares are recomputed from here */
      dt = next - t > 0 ? next - t : 0;
      for (size_t i = 0; i < nx; i++)
        if (active[i]) rem[i] -= rate[i] * dt;
      t = next;
      for (size_t i = 0; i < nx; i++)
        if (waiting[i] && release[i] <= t) waiting[i] = 0, active[i] = 1, nwaiting--, nactive++;
      continue;
    }
    if (first == nx) {
      st = mg_fail(err, MG_ERR_INVALID, "fair sharing stalled (a flow without bandwidth)");
      goto out;
    }
    t += dt;
    for (size_t i = 0; i < nx; i++) {
      if (!active[i]) continue;
      rem[i] -= rate[i] * dt;
      if (i == first || rem[i] <= 1e-12 * p->bytes[i]) {
        finish[i] = t;
        active[i] = 0;
        nactive--;
      }
    }
  }
out:
  free(cap);
  free(nun);
  free(start);
  free(flows);
  free(rem);
  free(rate);
  free(active);
  free(frozen);
  free(waiting);
  free(wsum);
  free(wt);
  free(bound);
  free(use);
  return st;
}

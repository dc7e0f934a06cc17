/* Traced runs: the schedule goes through the one driver (mg_drive_algo)
 * with a tap that takes each round's cost and its start-up/hop/transfer
 * split from the simulator's report as it grows, and every transfer with
 * its resolved route and item count. From the routes this
 * file recounts, independently of the simulator, every arc's users and
 * byte load in every round: the shared arcs, the busiest arc, the
 * utilisation and the arcs x rounds heatmap the pictures draw. */
#include "svg.h"

#include <string.h>

typedef struct tracer {
  mg_trace *t;
  mg_trace_opts o;
  double s0, h0, l0, c0; /* the report's totals before this round */
  uint64_t nslots;
  uint32_t *users; /* per arc slot: transfers using it this round */
  uint32_t *stamp; /* round + 1 when users/load were last reset */
  double *load;    /* bytes this round */
  uint8_t *ever;   /* carried something in some round */
  uint64_t *touched;
  size_t ntouched, captouched, capxfers, capsegs, caprounds, caphm;
  uint32_t class_off[2 * MG_MAX_DIMS + 1]; /* first heatmap row of each class */
  int nclasses;
  int64_t cur; /* the round being simulated */
  uint64_t cur_transfers;
  size_t cur_first;
} tracer;

/* Arcs of class c (dimension c/2, + if c even): the nodes whose step along
 * it stays on the machine. */
static uint64_t class_count(const mg_topo *t, int c) {
  if (t->kind == MG_TOPO_MESHBUS) return t->n[0];
  int dim = c / 2;
  return t->wrap[dim] ? t->N : (uint64_t)t->N / t->n[dim] * (t->n[dim] - 1);
}

/* Index of arc (node, dim, dir) among the arcs of its class, node order;
 * UINT64_MAX if the arc leaves a mesh. */
static uint64_t class_index(const mg_topo *t, uint32_t node, int dim, int dir) {
  if (t->kind == MG_TOPO_MESHBUS) return node < t->n[0] ? node : UINT64_MAX;
  if (t->wrap[dim]) return node;
  uint64_t s = t->stride[dim], n = t->n[dim], a = node % s, x = node / s % n, b = node / s / n;
  if (dir > 0 ? x == n - 1 : x == 0) return UINT64_MAX;
  return a + s * ((dir > 0 ? x : x - 1) + (n - 1) * b);
}

static int nclasses_of(const mg_topo *t) { return t->kind == MG_TOPO_MESHBUS ? 2 : 2 * t->d; }

uint32_t mg_trace_row(const mg_trace *t, uint32_t node, int dim, int dir) {
  if (!t) return UINT32_MAX;
  const mg_topo *tp = &t->info.topo;
  int c = tp->kind == MG_TOPO_MESHBUS ? dim : dim * 2 + (dir < 0);
  if (dim < 0 || c >= nclasses_of(tp) || node >= tp->N) return UINT32_MAX;
  uint64_t idx = class_index(tp, node, dim, dir);
  if (idx == UINT64_MAX) return UINT32_MAX;
  uint64_t off = 0;
  for (int k = 0; k < c; k++)
    off += (class_count(tp, k) + t->arcs_per_row - 1) / t->arcs_per_row;
  return (uint32_t)(off + idx / t->arcs_per_row);
}

/* The slot of a bus in the tracer's arrays: row bus i -> i, column bus j
 * -> n + j (the simulator's numbering). */
static uint64_t bus_slot(const mg_topo *t, uint32_t src, mg_bus bus) {
  uint32_t x[2];
  mg_topo_coords(t, src, x);
  return bus == MG_BUS_ROW ? x[1] : t->n[0] + x[0];
}

static uint32_t slot_row(const tracer *x, uint64_t slot) {
  const mg_topo *t = &x->t->info.topo;
  if (t->kind == MG_TOPO_MESHBUS) {
    int dim = slot >= t->n[0];
    return mg_trace_row(x->t, (uint32_t)(slot - (dim ? t->n[0] : 0)), dim, 1);
  }
  uint64_t node = slot / 2 / (uint64_t)t->d;
  int dim = (int)(slot / 2 % (uint64_t)t->d), dir = slot % 2 ? -1 : 1;
  return mg_trace_row(x->t, (uint32_t)node, dim, dir);
}

static mg_status use_slot(tracer *x, uint64_t slot, double bytes, mg_err *err) {
  uint32_t st = (uint32_t)(x->cur + 1);
  if (x->stamp[slot] != st) {
    x->stamp[slot] = st;
    x->users[slot] = 0;
    x->load[slot] = 0;
    if (!mg_grow((void **)&x->touched, &x->captouched, x->ntouched + 1, sizeof *x->touched))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the link loads");
    x->touched[x->ntouched++] = slot;
  }
  x->users[slot]++;
  x->load[slot] += bytes;
  x->ever[slot] = 1;
  return MG_OK;
}

static int keeps(const tracer *x) {
  if (x->o.keep == MG_TRACE_KEEP_ALL) return !x->o.max_kept || x->cur < (int64_t)x->o.max_kept;
  return x->o.keep == x->cur;
}

static mg_status tr_resolved(void *arg, const mg_resolved *res, mg_err *err) {
  tracer *x = arg;
  mg_trace *t = x->t;
  const mg_topo *tp = &t->info.topo;
  double bytes = (double)res->nitems * t->item_bytes;
  mg_status st;
  x->cur_transfers++;
  if (keeps(x)) {
    if (!mg_grow((void **)&t->xfers, &x->capxfers, t->nxfers + 1, sizeof *t->xfers) ||
        !mg_grow((void **)&t->segs, &x->capsegs, t->nsegs + (size_t)res->nseg + 1, sizeof *t->segs))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the traced transfers");
    mg_trace_xfer *tx = &t->xfers[t->nxfers++];
    tx->src = res->tr->src;
    tx->bus = res->tr->bus;
    tx->dst = tx->bus != MG_BUS_NONE ? tx->src : res->tr->dst;
    tx->nseg = tx->bus != MG_BUS_NONE ? 0 : (uint8_t)res->nseg;
    tx->seg_off = (uint32_t)t->nsegs;
    tx->nitems = res->nitems;
    for (int g = 0; g < tx->nseg; g++)
      t->segs[t->nsegs++] = res->route[g];
  }
  if (res->tr->bus != MG_BUS_NONE) {
    if ((st = use_slot(x, bus_slot(tp, res->tr->src, res->tr->bus), bytes, err)) != MG_OK) return st;
  } else {
    /* the simulator has checked the route: it stays on the machine */
    uint32_t cur = res->tr->src;
    for (int g = 0; g < res->nseg; g++) {
      int dim = res->route[g].dim, dir = res->route[g].hops < 0 ? -1 : 1;
      int64_t len = res->route[g].hops < 0 ? -(int64_t)res->route[g].hops : res->route[g].hops;
      for (int64_t h = 0; h < len; h++) {
        if ((st = use_slot(x, mg_arc_id(tp, cur, dim, dir), bytes, err)) != MG_OK) return st;
        cur = mg_topo_step(tp, cur, dim, dir);
      }
    }
  }
  return MG_OK;
}

static mg_status tr_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  tracer *x = ctx;
  mg_trace *t = x->t;
  t->info = *info;
  t->item_bytes = info->problem == MG_GOSSIP ? info->bytes / info->pieces : info->bytes;
  const mg_topo *tp = &info->topo;
  x->nclasses = nclasses_of(tp);
  uint64_t maxc = 0;
  t->narcs = 0;
  for (int c = 0; c < x->nclasses; c++) {
    uint64_t k = class_count(tp, c);
    t->narcs += k;
    if (k > maxc) maxc = k;
  }
  uint32_t max_rows = x->o.max_rows ? x->o.max_rows : 512;
  t->arcs_per_row = 1;
  if (t->narcs > max_rows) {
    /* binned: about 96 rows in all keep the picture small and legible */
    uint64_t per = (max_rows < 96 ? max_rows : 96) / (uint32_t)x->nclasses;
    if (per == 0) per = 1;
    t->arcs_per_row = (maxc + per - 1) / per;
  }
  uint64_t rows = 0;
  for (int c = 0; c < x->nclasses; c++) {
    x->class_off[c] = (uint32_t)rows;
    rows += (class_count(tp, c) + t->arcs_per_row - 1) / t->arcs_per_row;
  }
  x->class_off[x->nclasses] = (uint32_t)rows;
  t->hm_rows = (uint32_t)rows;
  t->rows_per_class = (uint32_t)((maxc + t->arcs_per_row - 1) / t->arcs_per_row);
  x->nslots = tp->kind == MG_TOPO_MESHBUS ? 2u * tp->n[0] : mg_topo_arc_slots(tp);
  x->users = mg_calloc(x->nslots, sizeof *x->users);
  x->stamp = mg_calloc(x->nslots, sizeof *x->stamp);
  x->load = mg_calloc(x->nslots, sizeof *x->load);
  x->ever = mg_calloc(x->nslots, 1);
  if (!x->users || !x->stamp || !x->load || !x->ever)
    return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the link-load bookkeeping");
  return MG_OK;
}

static mg_status tr_round_begin(void *ctx, const mg_round *r, mg_err *err) {
  tracer *x = ctx;
  (void)r, (void)err;
  x->cur = (int64_t)x->t->nrounds;
  x->cur_transfers = 0;
  x->cur_first = x->t->nxfers;
  x->ntouched = 0;
  return MG_OK;
}

static mg_status tr_round_end(void *ctx, const mg_round *r, const mg_report *rep, mg_err *err) {
  tracer *x = ctx;
  mg_trace *t = x->t;
  (void)r;
  if (!mg_grow((void **)&t->rounds, &x->caprounds, t->nrounds + 1, sizeof *t->rounds) ||
      !mg_grow((void **)&t->hm, &x->caphm, (t->nrounds + 1) * t->hm_rows, sizeof *t->hm))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the traced rounds");
  mg_trace_round *tr = &t->rounds[t->nrounds];
  memset(tr, 0, sizeof *tr);
  tr->first = x->cur_first;
  tr->n = t->nxfers - x->cur_first;
  tr->kept = keeps(x);
  tr->transfers = x->cur_transfers;
  tr->cost = rep->n_round_costs ? rep->round_costs[rep->n_round_costs - 1] : rep->cost - x->c0;
  tr->cost_startup = rep->cost_startup - x->s0;
  tr->cost_hop = rep->cost_hop - x->h0;
  tr->cost_transfer = rep->cost_transfer - x->l0;
  x->s0 = rep->cost_startup, x->h0 = rep->cost_hop, x->l0 = rep->cost_transfer, x->c0 = rep->cost;
  double *col = t->hm + t->nrounds * t->hm_rows, tl = t->info.model.tl, sum_busy = 0;
  for (uint32_t k = 0; k < t->hm_rows; k++)
    col[k] = 0;
  for (size_t k = 0; k < x->ntouched; k++) {
    uint64_t slot = x->touched[k];
    double ld = x->load[slot];
    tr->used_arcs++;
    if (x->users[slot] > 1) tr->shared_arcs++;
    if (ld > tr->max_load) tr->max_load = ld;
    double busy = tr->cost > 0 ? ld * tl / tr->cost : 0;
    sum_busy += busy;
    if (busy > tr->max_busy) tr->max_busy = busy;
    uint32_t row = slot_row(x, slot);
    if (row < t->hm_rows && ld > col[row]) col[row] = ld;
  }
  tr->mean_busy = t->narcs ? sum_busy / (double)t->narcs : 0;
  t->nrounds++;
  return MG_OK;
}

static void finish(tracer *x) {
  mg_trace *t = x->t;
  size_t busy_rounds = 0;
  double sum = 0;
  for (size_t r = 0; r < t->nrounds; r++) {
    if (!t->rounds[r].transfers) continue;
    busy_rounds++;
    sum += t->rounds[r].mean_busy;
    if (t->rounds[r].max_busy > t->max_busy) t->max_busy = t->rounds[r].max_busy;
  }
  t->mean_busy = busy_rounds ? sum / (double)busy_rounds : 0;
  uint64_t used = 0;
  for (uint64_t s = 0; s < x->nslots; s++)
    used += x->ever[s];
  t->idle_arcs = t->narcs - used;
}

void mg_trace_free(mg_trace *t) {
  if (!t) return;
  free(t->rounds);
  free(t->xfers);
  free(t->segs);
  free(t->hm);
  free(t);
}

/* The run is over: a failed round's transfers are dropped, so the trace
 * holds complete rounds only. */
static mg_status tr_end(void *ctx, mg_status st, const mg_report *rep, mg_err *err) {
  tracer *x = ctx;
  (void)rep, (void)err;
  if (st != MG_OK && x->t) x->t->nxfers = x->cur_first;
  return MG_OK;
}

mg_status mg_trace_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                       const mg_trace_opts *to, mg_trace **out, mg_report *rep, mg_err *err) {
  mg_status st = MG_OK;
  tracer x;
  if (out) *out = NULL;
  if (rep) memset(rep, 0, sizeof *rep);
  if (!a || !pb || !out || !rep)
    return mg_fail(err, MG_ERR_INVALID, "mg_trace_run: an algorithm, a problem, a trace and a report are needed");
  memset(&x, 0, sizeof x);
  if (to)
    x.o = *to;
  else
    x.o.keep = MG_TRACE_KEEP_NONE;
  if (!(x.t = calloc(1, sizeof *x.t))) return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the trace");
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  o.keep_round_costs = 1;
  mg_tap tap = {.begin = tr_begin,
                .round_begin = tr_round_begin,
                .resolved = tr_resolved,
                .round_end = tr_round_end,
                .end = tr_end,
                .ctx = &x};
  st = mg_drive_algo(a, pb, ps, &tap, 1, &o, rep, err);
  if (!(opts && opts->keep_round_costs)) mg_report_free(rep);
  if (st != MG_OK && (st != MG_ERR_VIOLATION || !x.t->info.topo.N)) goto out;
  if (st == MG_ERR_VIOLATION) x.t->rejected = 1, x.t->violation = rep->violation;
  finish(&x);
  *out = x.t;
  x.t = NULL;
out:
  mg_trace_free(x.t);
  free(x.users);
  free(x.stamp);
  free(x.load);
  free(x.ever);
  free(x.touched);
  return st;
}

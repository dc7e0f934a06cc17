/* meshemu: a torus schedule on a mesh with extra routing rounds (see
 * meshemu.h). */
#include "meshemu.h"

#include <string.h>

static mg_status emu_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  mg_meshemu *m = ctx;
  mg_schedule_info mi = *info;
  mi.topo = m->mesh;
  if (mi.rounds_hint > 0) mi.rounds_hint *= 2;
  return m->out->begin(m->out->ctx, &mi, err);
}

/* 1 if the route of tr leaves [0, n) on some dimension of the torus. */
static int crosses_wrap(const mg_topo *t, const mg_transfer *tr) {
  mg_seg seg[MG_MAX_SEGS];
  int ns = tr->nseg;
  uint32_t x[MG_MAX_DIMS];
  if (ns == 0)
    ns = mg_route_default(t, tr->src, tr->dst, seg);
  else
    memcpy(seg, tr->seg, (size_t)ns * sizeof *seg);
  mg_topo_coords(t, tr->src, x);
  for (int g = 0; g < ns; g++) {
    int k = seg[g].dim;
    if (k < 0 || k >= t->d) return 0; /* left for the simulator to reject */
    int64_t c = (int64_t)x[k] + seg[g].hops, n = t->n[k];
    if (c < 0 || c >= n) return 1;
    x[k] = (uint32_t)c;
  }
  return 0;
}

static mg_status emu_round(void *ctx, mg_round *r, mg_err *err) {
  mg_meshemu *m = ctx;
  mg_status st = MG_OK;
  mg_round_clear(&m->early);
  mg_round_clear(&m->late);
  for (size_t i = 0; i < r->n; i++) {
    mg_transfer t = r->t[i];
    int late = crosses_wrap(&m->torus, &t);
    if (late) t.nseg = 0; /* the mesh's only shortest way */
    if (!mg_round_add(late ? &m->late : &m->early, &t)) return mg_fail(err, MG_ERR_NOMEM, "out of memory for a round");
  }
  st = m->out->round(m->out->ctx, &m->early, err);
  if (st == MG_OK && m->late.n) st = m->out->round(m->out->ctx, &m->late, err);
  return st;
}

static mg_status emu_end(void *ctx, mg_err *err) {
  mg_meshemu *m = ctx;
  return m->out->end(m->out->ctx, err);
}

void mg_meshemu_init(mg_meshemu *m, const mg_problem_spec *pb, mg_sink *out, mg_problem_spec *pbt, mg_sink *sink) {
  memset(m, 0, sizeof *m);
  m->out = out;
  m->mesh = pb->topo;
  m->torus = pb->topo;
  for (int k = 0; k < m->torus.d; k++)
    m->torus.wrap[k] = 1;
  mg_round_init(&m->early);
  mg_round_init(&m->late);
  *pbt = *pb;
  pbt->topo = m->torus;
  sink->begin = emu_begin;
  sink->round = emu_round;
  sink->end = emu_end;
  sink->ctx = m;
}

void mg_meshemu_free(mg_meshemu *m) {
  mg_round_free(&m->early);
  mg_round_free(&m->late);
}

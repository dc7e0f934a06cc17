/* Data dependencies of a schedule (deps.h): which earlier transfers each
 * transfer waits for, recorded from the simulator's resolved transfers. */
#include "deps.h"

#include "../util/internal.h"

#include <math.h>
#include <string.h>

typedef struct dep_route {
  int nseg;
  mg_seg seg[MG_MAX_SEGS];
} dep_route;

struct mg_deps {
  uint64_t mem_limit;
  mg_schedule_info info;
  int have_info;
  uint64_t items;      /* gossip N*P, exchange N*N */
  uint32_t *deliverer; /* gossip [node*items + item], exchange [block] */
  uint32_t *stamp;     /* per transfer: last transfer that listed it */
  mg_dep_xfer *x;
  size_t n, cap, stamp_cap;
  uint64_t *off; /* n+1 offsets into dep */
  size_t off_cap;
  uint32_t *dep;
  size_t ndep, dep_cap;
  dep_route *routes;
  size_t nroutes, routes_cap;
};

mg_status mg_deps_create(uint64_t mem_limit, mg_deps **out, mg_err *err) {
  *out = calloc(1, sizeof **out);
  if (!*out) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the dependency recorder");
  (*out)->mem_limit = mem_limit;
  return MG_OK;
}

void mg_deps_destroy(mg_deps *d) {
  if (!d) return;
  free(d->deliverer);
  free(d->stamp);
  free(d->x);
  free(d->off);
  free(d->dep);
  free(d->routes);
  free(d);
}

mg_status mg_deps_table_bytes(const mg_schedule_info *info, uint64_t *bytes, mg_err *err) {
  uint64_t n = info->topo.N, items, cells;
  uint64_t p = info->problem == MG_GOSSIP ? (info->pieces ? info->pieces : 1) : n;
  if (!mg_mul_ok(n, p, &items) || !mg_mul_ok(items, info->problem == MG_GOSSIP ? n : 1, &cells) ||
      !mg_mul_ok(cells, sizeof(uint32_t), bytes))
    return mg_fail(err, MG_ERR_TOO_LARGE, "the dependency table overflows 64 bits");
  return MG_OK;
}

static mg_status deps_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  mg_deps *d = ctx;
  uint64_t bytes = 0, limit = d->mem_limit; /* set by mg_deps_table_bytes; -O3 cannot see that */
  mg_status st = mg_deps_table_bytes(info, &bytes, err);
  if (st != MG_OK) return st;
  if (!limit) limit = mg_phys_mem() / 4 * 3;
  if (limit && bytes > limit)
    return mg_fail(err, MG_ERR_TOO_LARGE,
                   "the dependency table needs %.1f MiB (who delivered each item to each node), over the limit "
                   "of %.1f MiB",
                   (double)bytes / 1048576.0, (double)limit / 1048576.0);
  d->info = *info;
  d->have_info = 1;
  d->items = info->problem == MG_GOSSIP ? (uint64_t)info->topo.N * (info->pieces ? info->pieces : 1)
                                        : (uint64_t)info->topo.N * info->topo.N;
  free(d->deliverer);
  d->deliverer = malloc(bytes ? (size_t)bytes : 1);
  if (!d->deliverer) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the dependency table");
  memset(d->deliverer, 0xff, (size_t)bytes); /* MG_DEP_NONE everywhere */
  d->n = d->ndep = d->nroutes = 0;
  if (!mg_grow((void **)&d->off, &d->off_cap, 1, sizeof *d->off))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the dependency lists");
  d->off[0] = 0;
  return MG_OK;
}

static mg_status deps_end(void *ctx, mg_status run, const mg_report *rep, mg_err *err) {
  mg_deps *d = ctx;
  (void)run, (void)rep, (void)err;
  /* the per-item table is only needed while transfers arrive */
  free(d->deliverer);
  d->deliverer = NULL;
  free(d->stamp);
  d->stamp = NULL;
  d->stamp_cap = 0;
  return MG_OK;
}

mg_tap mg_deps_tap(mg_deps *d) {
  return (mg_tap){.begin = deps_begin, .resolved = mg_deps_on_resolved, .end = deps_end, .ctx = d};
}

/* Adds dependency p to the transfer being recorded (id cur), once. */
static int add_dep(mg_deps *d, uint32_t p, uint32_t cur) {
  if (p == MG_DEP_NONE || d->stamp[p] == cur) return 1;
  d->stamp[p] = cur;
  if (!mg_grow((void **)&d->dep, &d->dep_cap, d->ndep + 1, sizeof *d->dep)) return 0;
  d->dep[d->ndep++] = p;
  return 1;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Piece p of a node's L bytes cut into P pieces: cuts at floor(p*L/P). */
static double piece_bytes(double L, uint32_t P, uint64_t p) {
  return floor((double)(p + 1) * L / P) - floor((double)p * L / P);
}

/* 1 if the walked route is the default dimension-order one. */
static int is_default_route(const mg_topo *t, uint32_t a, uint32_t b, const mg_seg *seg, int nseg) {
  mg_seg def[MG_MAX_DIMS];
  int nd = mg_route_default(t, a, b, def), j = 0;
  for (int i = 0; i < nseg; i++) {
    if (seg[i].hops == 0) continue;
    if (j >= nd || def[j].dim != seg[i].dim || def[j].hops != seg[i].hops) return 0;
    j++;
  }
  return j == nd;
}

/* Marks transfer cur as the deliverer of item i to node v (gossip: first
 * arrival only; a node's own items never wait). */
static void deliver_gossip(mg_deps *d, uint32_t v, uint64_t i, uint32_t cur) {
  uint32_t P = d->info.pieces ? d->info.pieces : 1;
  if (i / P == v) return;
  uint32_t *cell = &d->deliverer[(uint64_t)v * d->items + i];
  if (*cell == MG_DEP_NONE) *cell = cur;
}

mg_status mg_deps_on_resolved(void *arg, const mg_resolved *res, mg_err *err) {
  mg_deps *d = arg;
  if (!d->have_info || !d->deliverer)
    return mg_fail(err, MG_ERR_INVALID, "dependency recorder used without its tap's begin (mg_deps_tap)");
  if (d->n >= (size_t)MG_DEP_NONE - 1) return mg_fail(err, MG_ERR_TOO_LARGE, "more than 2^32-2 transfers");
  uint32_t cur = (uint32_t)d->n;
  const mg_topo *t = &d->info.topo;
  const mg_transfer *tr = res->tr;
  if (!mg_grow((void **)&d->x, &d->cap, d->n + 1, sizeof *d->x) ||
      !mg_grow((void **)&d->off, &d->off_cap, d->n + 2, sizeof *d->off) ||
      !mg_grow((void **)&d->stamp, &d->stamp_cap, d->n + 1, sizeof *d->stamp))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory recording transfer %zu", d->n);
  d->stamp[cur] = MG_DEP_NONE;
  mg_dep_xfer *x = &d->x[cur];
  memset(x, 0, sizeof *x);
  x->round = res->round;
  x->src = tr->src;
  x->bus = (uint8_t)tr->bus;
  x->dst = tr->bus == MG_BUS_NONE ? tr->dst : MG_DEP_NONE;
  x->nitems = res->nitems;
  x->route_id = MG_DEP_NONE;
  uint32_t hops = 0;
  for (int i = 0; i < res->nseg; i++)
    hops += (uint32_t)(res->route[i].hops < 0 ? -res->route[i].hops : res->route[i].hops);
  x->hops = hops;
  if (tr->bus == MG_BUS_NONE && !is_default_route(t, tr->src, tr->dst, res->route, res->nseg)) {
    if (!mg_grow((void **)&d->routes, &d->routes_cap, d->nroutes + 1, sizeof *d->routes))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for routes");
    dep_route *rt = &d->routes[d->nroutes];
    rt->nseg = res->nseg < MG_MAX_SEGS ? res->nseg : MG_MAX_SEGS;
    memcpy(rt->seg, res->route, (size_t)rt->nseg * sizeof *rt->seg);
    x->route_id = (uint32_t)d->nroutes++;
  }
  /* the receivers: one node, or every other node on the sender's bus (row
   * bus: x1 fixed, x0 varies; column bus: x0 fixed) */
  uint32_t xs[MG_MAX_DIMS] = {0};
  int bdim = tr->bus == MG_BUS_ROW ? 0 : 1;
  uint32_t nrcv = 1;
  if (tr->bus != MG_BUS_NONE) {
    mg_topo_coords(t, tr->src, xs);
    nrcv = t->n[bdim];
  }
  size_t first = d->ndep;
  double bytes = 0;
  if (res->bits) {
    /* two passes over the items: the first only adds dependencies (an
     * allocation may fail there, and then nothing has been delivered), the
     * second records the receivers as the items' deliverers */
    uint32_t P = d->info.pieces ? d->info.pieces : 1;
    uint64_t base = (uint64_t)tr->src * d->items;
    for (size_t w = 0; w < res->nwords; w++) {
      uint64_t word = res->bits[w];
      while (word) {
        uint64_t i = (uint64_t)w * 64u + (uint64_t)__builtin_ctzll(word);
        word &= word - 1;
        if (i >= d->items) break;
        bytes += piece_bytes(d->info.bytes, P, i % P);
        if (i / P != tr->src && !add_dep(d, d->deliverer[base + i], cur)) goto nomem;
      }
    }
    for (size_t w = 0; w < res->nwords; w++) {
      uint64_t word = res->bits[w];
      while (word) {
        uint64_t i = (uint64_t)w * 64u + (uint64_t)__builtin_ctzll(word);
        word &= word - 1;
        if (i >= d->items) break;
        for (uint32_t k = 0; k < nrcv; k++) {
          uint32_t v = tr->dst;
          if (tr->bus != MG_BUS_NONE) {
            uint32_t y[MG_MAX_DIMS] = {xs[0], xs[1]};
            y[bdim] = k;
            v = mg_topo_id(t, y);
            if (v == tr->src) continue;
          }
          deliver_gossip(d, v, i, cur);
        }
      }
    }
  } else {
    for (size_t k = 0; k < res->nlist; k++) {
      uint64_t b = res->list[k];
      if (b >= d->items) return mg_fail(err, MG_ERR_INVALID, "block %llu out of range", (unsigned long long)b);
      if (!add_dep(d, d->deliverer[b], cur)) goto nomem;
      d->deliverer[b] = cur;
    }
    bytes = (double)res->nlist * d->info.bytes;
  }
  x->bytes = bytes;
  if (d->ndep > first) qsort(d->dep + first, d->ndep - first, sizeof *d->dep, cmp_u32);
  d->n++;
  d->off[d->n] = d->ndep;
  return MG_OK;
nomem:
  d->ndep = first;
  return mg_fail(err, MG_ERR_NOMEM, "out of memory for the dependency lists");
}

mg_status mg_deps_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                      mg_deps *d, mg_report *rep, mg_err *err) {
  mg_tap tap = mg_deps_tap(d);
  return mg_drive_algo(a, pb, ps, &tap, 1, opts, rep, err);
}

const mg_schedule_info *mg_deps_info(const mg_deps *d) { return &d->info; }
size_t mg_deps_count(const mg_deps *d) { return d->n; }
const mg_dep_xfer *mg_deps_xfers(const mg_deps *d) { return d->x; }

const uint32_t *mg_deps_of(const mg_deps *d, size_t t, size_t *n) {
  *n = (size_t)(d->off[t + 1] - d->off[t]);
  return d->dep + d->off[t];
}

const mg_seg *mg_deps_route(const mg_deps *d, size_t t, int *nseg) {
  uint32_t id = d->x[t].route_id;
  if (id == MG_DEP_NONE) {
    *nseg = 0;
    return NULL;
  }
  *nseg = d->routes[id].nseg;
  return d->routes[id].seg;
}

uint64_t mg_deps_bytes(const mg_deps *d) {
  return (uint64_t)d->cap * sizeof *d->x + (uint64_t)d->off_cap * sizeof *d->off +
         (uint64_t)d->dep_cap * sizeof *d->dep + (uint64_t)d->routes_cap * sizeof *d->routes;
}

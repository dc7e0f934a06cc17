/* The dataflow of a verified schedule (see dataflow.h): per node and item
 * the receive that delivered it, for the exporters whose formats carry
 * dependencies (export_msccl.c, export_goal.c); and the atomic output file
 * every exporter writes through. */
#include "dataflow.h"

#include <stdio.h>
#include <string.h>

#define MG_DATAFLOW_MAX (1u << 25)

mg_status mg_dataflow_init(mg_dataflow *d, const mg_schedule_info *info, const char *format, mg_err *err) {
  memset(d, 0, sizeof *d);
  if (info->topo.kind != MG_TOPO_GRID)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "the %s export takes point-to-point schedules, not mesh-bus ones", format);
  d->problem = info->problem;
  d->N = info->topo.N;
  uint64_t slots;
  if (!mg_mul_ok(d->N, info->problem == MG_GOSSIP ? info->pieces : d->N, &d->nitems) ||
      !mg_mul_ok(d->N, d->nitems, &slots) || slots > MG_DATAFLOW_MAX)
    return mg_fail(err, MG_ERR_TOO_LARGE, "the %s export tracks at most %u (node, item) pairs", format,
                   MG_DATAFLOW_MAX);
  d->by = malloc(slots * sizeof *d->by);
  if (!d->by) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the %s export", format);
  memset(d->by, 0xff, slots * sizeof *d->by); /* -1 */
  return MG_OK;
}

void mg_dataflow_free(mg_dataflow *d) {
  free(d->by);
  free(d->pending);
  free(d->items);
  free(d->deps);
  memset(d, 0, sizeof *d);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

mg_status mg_dataflow_items(mg_dataflow *d, const mg_resolved *res, const uint64_t **items, size_t *n, mg_err *err) {
  size_t k = 0, want = res->bits ? (size_t)res->nitems : res->nlist;
  if (!mg_grow((void **)&d->items, &d->capitems, want ? want : 1, sizeof *d->items))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a transfer's items");
  if (res->bits) {
    for (size_t w = 0; w < res->nwords; w++)
      for (uint64_t b = res->bits[w]; b && k < want; b &= b - 1)
        d->items[k++] = w * 64 + (uint64_t)__builtin_ctzll(b);
  } else {
    memcpy(d->items, res->list, want * sizeof *d->items);
    k = want;
    qsort(d->items, k, sizeof *d->items, cmp_u64);
  }
  *items = d->items;
  *n = k;
  return MG_OK;
}

mg_status mg_dataflow_deps(mg_dataflow *d, uint32_t node, const uint64_t *items, size_t n, const int64_t **deps,
                           size_t *ndeps, mg_err *err) {
  size_t k = 0;
  if (!mg_grow((void **)&d->deps, &d->capdeps, n ? n : 1, sizeof *d->deps))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a transfer's dependencies");
  for (size_t i = 0; i < n; i++) {
    if (node >= d->N || items[i] >= d->nitems) return mg_fail(err, MG_ERR_INVALID, "item out of range");
    int64_t id = d->by[(uint64_t)node * d->nitems + items[i]];
    if (id >= 0) d->deps[k++] = id;
  }
  qsort(d->deps, k, sizeof *d->deps, cmp_i64);
  size_t u = 0;
  for (size_t i = 0; i < k; i++)
    if (!u || d->deps[u - 1] != d->deps[i]) d->deps[u++] = d->deps[i];
  *deps = d->deps;
  *ndeps = u;
  return MG_OK;
}

mg_status mg_dataflow_deliver(mg_dataflow *d, uint32_t node, uint64_t item, int64_t id, mg_err *err) {
  if (node >= d->N || item >= d->nitems) return mg_fail(err, MG_ERR_INVALID, "item out of range");
  if (!mg_grow((void **)&d->pending, &d->cappending, d->npending + 1, sizeof *d->pending))
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for a round's deliveries");
  d->pending[d->npending].slot = (uint64_t)node * d->nitems + item;
  d->pending[d->npending++].id = id;
  return MG_OK;
}

void mg_dataflow_commit(mg_dataflow *d) {
  for (size_t i = 0; i < d->npending; i++) {
    int64_t *by = &d->by[d->pending[i].slot];
    if (d->problem == MG_EXCHANGE || *by < 0) *by = d->pending[i].id;
  }
  d->npending = 0;
}

/* Rounds: growable arrays of transfers plus an arena for item lists. */
#include "../util/internal.h"

#include <string.h>

void mg_round_init(mg_round *r) { memset(r, 0, sizeof *r); }

void mg_round_clear(mg_round *r) {
  for (size_t i = 0; i < r->nlists; i++)
    free(r->lists[i]);
  r->nlists = 0;
  r->n = 0;
}

void mg_round_free(mg_round *r) {
  mg_round_clear(r);
  free(r->t);
  free(r->lists);
  mg_round_init(r);
}

mg_transfer *mg_round_add(mg_round *r, const mg_transfer *tr) {
  if (!mg_grow((void **)&r->t, &r->cap, r->n + 1, sizeof *r->t)) return NULL;
  r->t[r->n] = *tr;
  return &r->t[r->n++];
}

const uint64_t *mg_round_add_list(mg_round *r, const uint64_t *items, size_t n) {
  if (!mg_grow((void **)&r->lists, &r->caplists, r->nlists + 1, sizeof *r->lists)) return NULL;
  uint64_t *copy = mg_calloc(n ? n : 1, sizeof *copy);
  if (!copy) return NULL;
  if (n) memcpy(copy, items, n * sizeof *copy);
  r->lists[r->nlists++] = copy;
  return copy;
}

mg_transfer mg_xfer(uint32_t src, uint32_t dst) {
  mg_transfer t;
  memset(&t, 0, sizeof t);
  t.src = src;
  t.dst = dst;
  t.sel.arr_dim = -1;
  return t;
}

mg_transfer mg_xfer_line(uint32_t src, uint32_t dst, int dim, int32_t hops) {
  mg_transfer t = mg_xfer(src, dst);
  t.nseg = 1;
  t.seg[0].dim = (int8_t)dim;
  t.seg[0].hops = hops;
  return t;
}

mg_transfer mg_xfer_bus(uint32_t src, mg_bus bus) {
  mg_transfer t = mg_xfer(src, UINT32_MAX);
  t.bus = bus;
  return t;
}

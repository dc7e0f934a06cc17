/* A platform with the routes a recorded schedule takes (engine_internal.h):
 * every grid link, the route each talking pair walked (its own, or the
 * default), and the default route back of each pair whose receiver never
 * talks to its sender: SimGrid's cross traffic (the acknowledgements) goes
 * there, and without it mpi-allgather-ring on line:4 replayed at 0.42 of
 * smpirun's time. The S4U replay writes it for a schedule with routes of its
 * own, and --export-ti beside its traces, so that `smpirun -replay` runs
 * them on the network the schedule was priced on (on `meshgossip
 * platform`'s default routes lee3d's traces replayed 31% apart). SimGrid
 * keeps one route per host pair: two transfers of a pair on two routes are
 * refused. */
#include "engine_internal.h"

#include "../schedule/deps.h"
#include "../util/internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pair_key {
  uint64_t key; /* src << 32 | dst */
  uint32_t t;   /* the first transfer of the pair (the least id) */
} pair_key;

static int cmp_pair(const void *a, const void *b) {
  const pair_key *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->t < y->t ? -1 : x->t > y->t;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int same_route(const mg_deps *d, size_t a, size_t b) {
  int na, nb;
  const mg_seg *ra = mg_deps_route(d, a, &na), *rb = mg_deps_route(d, b, &nb);
  if ((ra == NULL) != (rb == NULL)) return 0;
  return !ra || (na == nb && memcmp(ra, rb, (size_t)na * sizeof *ra) == 0);
}

mg_status mg_platform_write_routed(FILE *f, const mg_deps *d, const mg_model *m, const char *comment, mg_err *err) {
  const mg_topo *t = &mg_deps_info(d)->topo;
  const mg_dep_xfer *x = mg_deps_xfers(d);
  size_t n = mg_deps_count(d), np = 0;
  mg_status st = MG_OK;
  if (t->kind != MG_TOPO_GRID) return mg_fail(err, MG_ERR_UNSUPPORTED, "a routed platform is for meshes and tori");
  if (!(m->tl > 0) || !isfinite(1.0 / m->tl) || !(m->td >= 0) || !isfinite(m->td))
    return mg_fail(err, MG_ERR_INVALID, "a platform needs links of tl > 0 (1/tl finite) and td >= 0, not tl=%g td=%g",
                   m->tl, m->td);
  pair_key *k = mg_calloc((uint64_t)n + 1, sizeof *k);
  uint64_t *talk = mg_calloc((uint64_t)n + 1, sizeof *talk);
  if (!k || !talk) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the platform's routes");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    if (x[i].dst == MG_DEP_NONE) {
      st = mg_fail(err, MG_ERR_UNSUPPORTED, "a platform cannot route a bus message");
      goto out;
    }
    k[i].key = (uint64_t)x[i].src << 32 | x[i].dst;
    k[i].t = (uint32_t)i;
  }
  qsort(k, n, sizeof *k, cmp_pair);
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && k[i].key == k[i - 1].key) {
      /* the group's first transfer stands for the pair */
      size_t first = i;
      while (first > 0 && k[first - 1].key == k[i].key)
        first--;
      if (!same_route(d, k[first].t, k[i].t)) {
        st = mg_fail(err, MG_ERR_UNSUPPORTED,
                     "transfers %" PRIu32 " -> %" PRIu32 " take two different routes (rounds %lld and %lld); a "
                     "SimGrid platform has one route per host pair",
                     x[k[i].t].src, x[k[i].t].dst, (long long)x[k[first].t].round, (long long)x[k[i].t].round);
        goto out;
      }
      continue;
    }
    k[np] = k[i];
    talk[np++] = k[i].key;
  }
  mg_platform_header(f, comment);
  fprintf(f, "<zone id=\"grid\" routing=\"Full\">\n");
  mg_platform_hosts_links(f, t, 1.0 / m->tl, m->td);
  for (size_t i = 0; i < np && st == MG_OK; i++) {
    uint32_t src = (uint32_t)(talk[i] >> 32), dst = (uint32_t)talk[i];
    uint64_t back = (uint64_t)dst << 32 | src;
    mg_seg def[MG_MAX_DIMS];
    if (!bsearch(&back, talk, np, sizeof *talk, cmp_u64)) {
      int nseg = mg_route_default(t, dst, src, def);
      if (!mg_platform_route(f, t, dst, src, def, nseg))
        st = mg_fail(err, MG_ERR_INVALID, "route %" PRIu32 " -> %" PRIu32 " leaves the grid", dst, src);
    }
    int nseg;
    const mg_seg *seg = mg_deps_route(d, k[i].t, &nseg);
    if (!seg) {
      nseg = mg_route_default(t, src, dst, def);
      seg = def;
    }
    if (st == MG_OK && !mg_platform_route(f, t, src, dst, seg, nseg))
      st = mg_fail(err, MG_ERR_INVALID, "route %" PRIu32 " -> %" PRIu32 " leaves the grid", src, dst);
  }
  fprintf(f, "</zone>\n</platform>\n");
out:
  free(k);
  free(talk);
  return st;
}

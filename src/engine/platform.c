/* SimGrid platforms for the project's topologies (meshgossip_engine.h).
 *
 * The network is the machine of the papers' wormhole model: one full-duplex
 * link per edge of the grid (SPLITDUPLEX: the UP and DOWN directions of a
 * link are independent resources, our two arcs), bandwidth 1/tl, latency td
 * per hop, so that a lone message of B bytes over h hops takes h*td + B*tl
 * under SimGrid's CM02 model without factors (Velho and Legrand, "Accuracy
 * study and improvement of network simulation in the SimGrid framework").
 *
 * Routes must be the project's default routes (dimension order, shorter way
 * round, ties +). SimGrid's TORUS cluster routes in dimension order too but
 * sends the tie x = n/2 -> 0 the - way, so it is used only when every
 * extent is odd (no ties); everything else gets explicit links and one
 * route per ordered pair. Link names: l<v>_<k> joins v and its + neighbour
 * along dimension k; arc (v, k, +) is its UP direction, arc (v, k, -) the
 * DOWN direction of the link of v's - neighbour. */
#include "meshgossip_engine.h"

#include "../util/internal.h"
#include "engine_internal.h"

#include <math.h>
#include <inttypes.h>

#define DEFAULT_MAX_LINK_REFS (1u << 22)

static int torus_cluster_fits(const mg_topo *t) {
  if (t->kind != MG_TOPO_GRID) return 0;
  for (int k = 0; k < t->d; k++)
    if (!t->wrap[k] || t->n[k] % 2 == 0) return 0;
  return 1;
}

void mg_platform_header(FILE *f, const char *comment) {
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
  if (comment) fprintf(f, "<!-- %s -->\n", comment);
  fprintf(f, "<platform version=\"4.1\">\n");
}

void mg_platform_hosts_links(FILE *f, const mg_topo *t, double bw, double lat) {
  for (uint32_t v = 0; v < t->N; v++)
    fprintf(f, "  <host id=\"" MG_PLATFORM_HOST_PREFIX "%" PRIu32 "\" speed=\"1Gf\"/>\n", v);
  if (t->kind == MG_TOPO_MESHBUS) {
    for (uint32_t i = 0; i < t->n[1]; i++)
      fprintf(f,
              "  <link id=\"row%" PRIu32 "\" bandwidth=\"%.15gBps\" latency=\"%.15gs\" sharing_policy=\"SHARED\"/>\n",
              i, bw, lat);
    for (uint32_t j = 0; j < t->n[0]; j++)
      fprintf(f,
              "  <link id=\"col%" PRIu32 "\" bandwidth=\"%.15gBps\" latency=\"%.15gs\" sharing_policy=\"SHARED\"/>\n",
              j, bw, lat);
    return;
  }
  for (uint32_t v = 0; v < t->N; v++)
    for (int k = 0; k < t->d; k++)
      if (mg_topo_step(t, v, k, +1) != UINT32_MAX)
        fprintf(f,
                "  <link id=\"l%" PRIu32 "_%d\" bandwidth=\"%.15gBps\" latency=\"%.15gs\" "
                "sharing_policy=\"SPLITDUPLEX\"/>\n",
                v, k, bw, lat);
}

int mg_platform_route(FILE *f, const mg_topo *t, uint32_t a, uint32_t b, const mg_seg *seg, int nseg) {
  fprintf(f,
          "  <route src=\"" MG_PLATFORM_HOST_PREFIX "%" PRIu32 "\" dst=\"" MG_PLATFORM_HOST_PREFIX "%" PRIu32
          "\" symmetrical=\"NO\">",
          a, b);
  uint32_t cur = a;
  for (int i = 0; i < nseg; i++) {
    int dir = seg[i].hops < 0 ? -1 : 1;
    int32_t h = seg[i].hops < 0 ? -seg[i].hops : seg[i].hops;
    for (int32_t s = 0; s < h; s++) {
      uint32_t next = mg_topo_step(t, cur, seg[i].dim, dir);
      if (next == UINT32_MAX) return 0;
      if (dir > 0)
        fprintf(f, "<link_ctn id=\"l%" PRIu32 "_%d\" direction=\"UP\"/>", cur, seg[i].dim);
      else
        fprintf(f, "<link_ctn id=\"l%" PRIu32 "_%d\" direction=\"DOWN\"/>", next, seg[i].dim);
      cur = next;
    }
  }
  fprintf(f, "</route>\n");
  return cur == b;
}

mg_status mg_platform_write(FILE *f, const mg_topo *t, const mg_model *m, const mg_platform_opts *opts, mg_err *err) {
  char spec[128];
  mg_topo_format(t, spec, sizeof spec);
  /* 1/tl past a double (tl = 1e-310) wrote bw="infBps", which SimGrid
   * cannot load (a review) */
  if (!(m->tl > 0) || !isfinite(1.0 / m->tl))
    return mg_fail(err, MG_ERR_INVALID, "the platform needs tl > 0 with 1/tl a finite bandwidth; the model has tl=%g",
                   m->tl);
  double bw = 1.0 / m->tl, lat = m->td;
  uint64_t limit = opts && opts->max_link_refs ? opts->max_link_refs : DEFAULT_MAX_LINK_REFS;
  char comment[256];
  snprintf(comment, sizeof comment, "meshgossip platform for %s: links %.6g B/s, %.6g s per hop, hosts n<id>", spec, bw,
           lat);
  int all_wrap = t->kind == MG_TOPO_GRID;
  for (int k = 0; k < t->d; k++)
    all_wrap = all_wrap && t->wrap[k];
  if ((t->kind == MG_TOPO_GRID && torus_cluster_fits(t) && !(opts && opts->explicit_routes)) ||
      (all_wrap && opts && opts->torus_cluster)) {
    mg_platform_header(f, comment);
    fprintf(f,
            "  <cluster id=\"torus\" prefix=\"" MG_PLATFORM_HOST_PREFIX "\" suffix=\"\" radical=\"0-%" PRIu32
            "\" speed=\"1Gf\" bw=\"%.15gBps\" lat=\"%.15gs\" topology=\"TORUS\" topo_parameters=\"",
            t->N - 1, bw, lat);
    for (int k = 0; k < t->d; k++)
      fprintf(f, "%s%" PRIu32, k ? "," : "", t->n[k]);
    fprintf(f, "\" sharing_policy=\"SPLITDUPLEX\"/>\n</platform>\n");
    return ferror(f) ? mg_fail(err, MG_ERR_IO, "write error") : MG_OK;
  }
  if (t->kind == MG_TOPO_MESHBUS) {
    mg_platform_header(f, comment);
    fprintf(f, "<zone id=\"meshbus\" routing=\"Full\">\n");
    mg_platform_hosts_links(f, t, bw, lat);
    uint32_t n = t->n[0];
    for (uint32_t a = 0; a < t->N; a++)
      for (uint32_t b = 0; b < t->N; b++) {
        if (a == b) continue;
        uint32_t xa[MG_MAX_DIMS], xb[MG_MAX_DIMS];
        mg_topo_coords(t, a, xa);
        mg_topo_coords(t, b, xb);
        if (xa[1] == xb[1])
          fprintf(f,
                  "  <route src=\"n%" PRIu32 "\" dst=\"n%" PRIu32 "\" symmetrical=\"NO\"><link_ctn id=\"row%" PRIu32
                  "\"/></route>\n",
                  a, b, xa[1]);
        else if (xa[0] == xb[0])
          fprintf(f,
                  "  <route src=\"n%" PRIu32 "\" dst=\"n%" PRIu32 "\" symmetrical=\"NO\"><link_ctn id=\"col%" PRIu32
                  "\"/></route>\n",
                  a, b, xa[0]);
      }
    (void)n;
    fprintf(f, "</zone>\n</platform>\n");
    return ferror(f) ? mg_fail(err, MG_ERR_IO, "write error") : MG_OK;
  }
  /* explicit routes: sum over ordered pairs of the hop count */
  uint64_t refs = 0, pairs;
  if (!mg_mul_ok(t->N, t->N - 1, &pairs)) return mg_fail(err, MG_ERR_TOO_LARGE, "too many host pairs");
  for (int k = 0; k < t->d; k++) {
    /* sum over a, b of |offset_k(a, b)| = (N/n_k)^2 * sum over x, y in [0, n_k) */
    uint64_t s = 0, nk = t->n[k];
    for (uint64_t x = 0; x < nk; x++) {
      uint64_t tmp = 0;
      for (uint64_t y = 0; y < nk; y++) {
        int64_t d = (int64_t)y - (int64_t)x;
        if (t->wrap[k]) {
          int64_t alt = d < 0 ? d + (int64_t)nk : d - (int64_t)nk;
          if ((alt < 0 ? -alt : alt) < (d < 0 ? -d : d)) d = alt;
        }
        tmp += (uint64_t)(d < 0 ? -d : d);
      }
      s += tmp;
    }
    uint64_t rest = t->N / nk, add;
    if (!mg_mul_ok(s, rest * rest, &add) || !mg_add_ok(refs, add, &refs))
      return mg_fail(err, MG_ERR_TOO_LARGE, "too many link references");
  }
  if (refs > limit)
    return mg_fail(err, MG_ERR_TOO_LARGE,
                   "explicit dimension-order routes for %s need %" PRIu64 " link references over %" PRIu64
                   " routes (limit %" PRIu64 "); SimGrid's TORUS cluster matches our routes only when every extent "
                   "is odd",
                   spec, refs, pairs, limit);
  mg_platform_header(f, comment);
  fprintf(f, "<zone id=\"grid\" routing=\"Full\">\n");
  mg_platform_hosts_links(f, t, bw, lat);
  for (uint32_t a = 0; a < t->N; a++)
    for (uint32_t b = 0; b < t->N; b++) {
      if (a == b) continue;
      mg_seg seg[MG_MAX_DIMS];
      int nseg = mg_route_default(t, a, b, seg);
      if (!mg_platform_route(f, t, a, b, seg, nseg))
        return mg_fail(err, MG_ERR_INVALID, "route %" PRIu32 " -> %" PRIu32 " leaves the grid", a, b);
    }
  fprintf(f, "</zone>\n</platform>\n");
  return ferror(f) ? mg_fail(err, MG_ERR_IO, "write error") : MG_OK;
}

mg_status mg_platform_write_hosts(FILE *f, const mg_topo *t, mg_err *err) {
  for (uint32_t v = 0; v < t->N; v++)
    fprintf(f, MG_PLATFORM_HOST_PREFIX "%" PRIu32 "\n", v);
  return ferror(f) ? mg_fail(err, MG_ERR_IO, "write error") : MG_OK;
}

/* Schedule pictures: the machine and one round's transfers. The machine
 * is a grid (2D tori and meshes), a circle (rings) or a row (lines), a row
 * of z-slices (3D), or a grid with its row and column buses (mesh-bus).
 * Each transfer is one <path class="transfer"> from its source along its
 * route (segments (dim, signed hops), dimension 0 fastest in node ids) to
 * an arrowhead at its receiver, coloured by its item count; traffic keeps
 * to the right of its direction so that the two arcs of a link do not
 * overlap, and a hop over a torus' wrap-around link leaves the picture at
 * one edge and comes back at the other. Arcs that two or more transfers of
 * the round use (contention=shared or fair schedules such as the MPI
 * libraries' allgather algorithms) are drawn beneath in red, one element
 * of class "shared" each. Too large a machine gets the heatmap instead. */
#include "svg.h"

#include <math.h>
#include <string.h>

enum { L_RING, L_ROW, L_GRID, L_SLICES, L_BUS };

typedef struct layout {
  const mg_topo *t;
  int kind;
  double sp;   /* node spacing */
  double pad;  /* margin around the nodes */
  double w, h; /* machine area */
  double R;    /* ring radius */
  double slice_w;
  double lane; /* offset of a direction's lane from the link's centre */
} layout;

typedef struct pt {
  double x, y;
} pt;

int mg_draw_arrows_fit(const mg_topo *t) {
  if (!t) return 0;
  if (t->kind == MG_TOPO_MESHBUS) return t->n[0] <= MG_DRAW_MAX_ARROW_EXTENT;
  if (t->N > MG_DRAW_MAX_ARROW_NODES) return 0;
  if (t->d == 1) return t->N <= 128;
  if (t->d == 2) return t->n[0] <= MG_DRAW_MAX_ARROW_EXTENT && t->n[1] <= MG_DRAW_MAX_ARROW_EXTENT;
  if (t->d == 3) return (uint64_t)t->n[0] * t->n[2] <= 96 && t->n[1] <= MG_DRAW_MAX_ARROW_EXTENT;
  return 0;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

static void layout_init(layout *L, const mg_topo *t) {
  memset(L, 0, sizeof *L);
  L->t = t;
  if (t->kind == MG_TOPO_MESHBUS) {
    L->kind = L_BUS;
    L->sp = clampd(360.0 / t->n[0], 14, 56);
  } else if (t->d == 1) {
    L->kind = t->wrap[0] ? L_RING : L_ROW;
    L->sp = t->wrap[0] ? 30 : clampd(600.0 / t->n[0], 14, 56);
  } else if (t->d == 2) {
    L->kind = L_GRID;
    uint32_t m = t->n[0] > t->n[1] ? t->n[0] : t->n[1];
    L->sp = clampd(380.0 / m, 12, 56);
  } else {
    L->kind = L_SLICES;
    L->sp = clampd(900.0 / ((double)t->n[0] * t->n[2]), 12, 48);
  }
  L->pad = L->sp * 0.9;
  L->lane = L->sp * 0.11;
  switch (L->kind) {
  case L_RING:
    L->R = clampd(t->N * L->sp / (2 * M_PI), 70, 1e9);
    L->w = L->h = 2 * (L->R + L->pad);
    break;
  case L_ROW:
    L->w = (t->n[0] - 1) * L->sp + 2 * L->pad;
    L->h = 2 * L->pad + L->sp;
    break;
  case L_GRID:
  case L_BUS:
    L->w = (t->n[0] - 1) * L->sp + 2 * L->pad;
    L->h = ((t->kind == MG_TOPO_MESHBUS ? t->n[0] : t->n[1]) - 1) * L->sp + 2 * L->pad;
    break;
  default:
    L->slice_w = (t->n[0] - 1) * L->sp + 2 * L->pad;
    L->w = L->slice_w * t->n[2];
    L->h = (t->n[1] - 1) * L->sp + 2 * L->pad + L->sp; /* room for the z-hop curves */
  }
}

static pt node_pos(const layout *L, uint32_t node) {
  uint32_t x[MG_MAX_DIMS];
  const mg_topo *t = L->t;
  mg_topo_coords(t, node, x);
  pt p;
  switch (L->kind) {
  case L_RING: {
    double a = 2 * M_PI * node / t->N - M_PI / 2;
    p.x = L->w / 2 + L->R * cos(a);
    p.y = L->h / 2 + L->R * sin(a);
    break;
  }
  case L_ROW: p.x = L->pad + x[0] * L->sp, p.y = L->h / 2; break;
  case L_SLICES:
    p.x = x[2] * L->slice_w + L->pad + x[0] * L->sp;
    p.y = L->pad + L->sp * 0.5 + x[1] * L->sp;
    break;
  default: p.x = L->pad + x[0] * L->sp, p.y = L->pad + x[1] * L->sp;
  }
  return p;
}

/* A path under construction: the pen, and the last straight piece's
 * direction so that collinear hops merge into one line. */
typedef struct pathb {
  svg_w *w;
  int started;
  pt pen;
  double dx, dy; /* direction of the last line, 0 if none */
  pt pending;    /* its end, not yet written */
  int has_pending;
} pathb;

static void pb_flush(pathb *b) {
  if (b->has_pending) mg_svg_printf(b->w, "L%.1f %.1f", b->pending.x, b->pending.y);
  b->has_pending = 0;
}

static void pb_line(pathb *b, pt a, pt c) {
  double len = hypot(c.x - a.x, c.y - a.y), dx = len > 0 ? (c.x - a.x) / len : 0, dy = len > 0 ? (c.y - a.y) / len : 0;
  int joined = b->started && hypot(a.x - b->pen.x, a.y - b->pen.y) < 0.05;
  if (joined && b->has_pending && fabs(dx - b->dx) < 1e-6 && fabs(dy - b->dy) < 1e-6) {
    b->pending = c;
    b->pen = c;
    return;
  }
  pb_flush(b);
  if (!b->started || hypot(a.x - b->pen.x, a.y - b->pen.y) > 3.0)
    mg_svg_printf(b->w, "M%.1f %.1f", a.x, a.y);
  else if (!joined)
    mg_svg_printf(b->w, "L%.1f %.1f", a.x, a.y);
  b->started = 1;
  b->pending = c;
  b->has_pending = 1;
  b->dx = dx, b->dy = dy;
  b->pen = c;
}

static void pb_curve(pathb *b, pt a, pt ctl, pt c) {
  pb_flush(b);
  if (!b->started || hypot(a.x - b->pen.x, a.y - b->pen.y) > 3.0)
    mg_svg_printf(b->w, "M%.1f %.1f", a.x, a.y);
  else
    mg_svg_printf(b->w, "L%.1f %.1f", a.x, a.y);
  mg_svg_printf(b->w, "Q%.1f %.1f %.1f %.1f", ctl.x, ctl.y, c.x, c.y);
  b->started = 1;
  b->dx = b->dy = 0;
  b->pen = c;
}

/* One hop u -> v along (dim, dir), offset into its direction's lane. */
static void hop(pathb *b, const layout *L, uint32_t u, uint32_t v, int dim, int dir, double ox, double oy) {
  const mg_topo *t = L->t;
  pt p = node_pos(L, u), q = node_pos(L, v);
  p.x += ox, p.y += oy, q.x += ox, q.y += oy;
  uint32_t xu[MG_MAX_DIMS];
  mg_topo_coords(t, u, xu);
  int wrap = L->kind != L_RING && t->wrap[dim] && (dir > 0 ? xu[dim] == t->n[dim] - 1 : xu[dim] == 0) && t->n[dim] > 2;
  if (L->kind == L_SLICES && dim == 2 && !wrap) {
    /* between z-slices: a curve above (+) or below (-) the row */
    double lift = (dir > 0 ? -1 : 1) * L->sp * 0.45;
    pt ctl = {(p.x + q.x) / 2, (p.y + q.y) / 2 + lift};
    pb_curve(b, p, ctl, q);
    return;
  }
  double ux, uy;
  if (wrap || L->kind == L_RING) {
    ux = dim == 1 ? 0 : 1;
    uy = dim == 1 ? 1 : 0;
    if (L->kind == L_RING) {
      double len = hypot(q.x - p.x, q.y - p.y);
      ux = (q.x - p.x) / len, uy = (q.y - p.y) / len;
    } else {
      ux *= dir, uy *= dir;
    }
  } else {
    double len = hypot(q.x - p.x, q.y - p.y);
    ux = len > 0 ? (q.x - p.x) / len : 1, uy = len > 0 ? (q.y - p.y) / len : 0;
  }
  double lx = -uy * L->lane, ly = ux * L->lane; /* right of travel (y grows down) */
  if (wrap) {
    /* a wrap-around arc is drawn as two short ticks pointing off the grid's
     * edges, not a line across the whole picture */
    double tick = L->pad * 0.8;
    pb_line(b, (pt){p.x + lx, p.y + ly}, (pt){p.x + lx + ux * tick, p.y + ly + uy * tick});
    pb_line(b, (pt){q.x + lx - ux * tick, q.y + ly - uy * tick}, (pt){q.x + lx, q.y + ly});
  } else {
    pb_line(b, (pt){p.x + lx, p.y + ly}, (pt){q.x + lx, q.y + ly});
  }
}

/* Colour bucket of an item count: exact values when few, else log steps. */
typedef struct buckets {
  uint64_t lo, hi;
  int exact; /* nvals distinct counts, each its own colour */
  int nvals;
  uint64_t vals[SVG_NSEQ];
} buckets;

static int bucket_of(const buckets *k, uint64_t items) {
  if (k->hi <= k->lo) return SVG_NSEQ - 1;
  if (k->exact) {
    int i = 0;
    while (i < k->nvals - 1 && k->vals[i] < items)
      i++;
    return k->nvals == 1 ? SVG_NSEQ - 1 : i * (SVG_NSEQ - 1) / (k->nvals - 1);
  }
  double f = log((double)items / (double)k->lo) / log((double)k->hi / (double)k->lo);
  return (int)lround(clampd(f, 0, 1) * (SVG_NSEQ - 1));
}

static void draw_machine(svg_w *w, const layout *L, double ox, double oy) {
  const mg_topo *t = L->t;
  mg_svg_printf(w, "<g class=\"machine\" stroke=\"#d0d0d0\" stroke-width=\"1\" fill=\"none\">");
  if (L->kind == L_RING) {
    mg_svg_printf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", ox + L->w / 2, oy + L->h / 2, L->R);
  } else if (L->kind == L_BUS) {
    uint32_t n = t->n[0];
    for (uint32_t i = 0; i < n; i++) {
      double y = oy + L->pad + i * L->sp + L->sp * 0.3, x = ox + L->pad + i * L->sp + L->sp * 0.3;
      mg_svg_printf(w, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1f\" stroke=\"#b8b8b8\"/>", ox + L->pad * 0.5, y,
                    ox + L->w - L->pad * 0.5, x, oy + L->pad * 0.5, oy + L->h - L->pad * 0.5);
    }
  } else {
    int slices = L->kind == L_SLICES ? (int)t->n[2] : 1;
    uint32_t rows = L->kind == L_ROW ? 1 : t->n[1];
    for (int z = 0; z < slices; z++) {
      double bx = ox + z * L->slice_w, by = oy + (L->kind == L_SLICES ? L->sp * 0.5 : 0);
      double ext0 = t->wrap[0] ? L->pad * 0.8 : 0, ext1 = t->d > 1 && t->wrap[1] ? L->pad * 0.8 : 0;
      double y0 = L->kind == L_ROW ? oy + L->h / 2 : by + L->pad;
      mg_svg_printf(w, "<path d=\"");
      for (uint32_t r = 0; r < rows; r++)
        mg_svg_printf(w, "M%.1f %.1fH%.1f", bx + L->pad - ext0, y0 + r * L->sp,
                      bx + L->pad + (t->n[0] - 1) * L->sp + ext0);
      if (L->kind != L_ROW)
        for (uint32_t c = 0; c < t->n[0]; c++)
          mg_svg_printf(w, "M%.1f %.1fV%.1f", bx + L->pad + c * L->sp, y0 - ext1, y0 + (t->n[1] - 1) * L->sp + ext1);
      mg_svg_printf(w, "\"/>");
      if (L->kind == L_SLICES)
        mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" fill=\"#777\" font-size=\"10\">z=%d</text>",
                      bx + L->pad - 4, oy + 10, z);
    }
  }
  mg_svg_printf(w, "</g>\n<g class=\"nodes\" fill=\"#555\">");
  double r = clampd(L->sp * 0.13, 1.5, 4);
  int labels = t->N <= 100 && L->sp >= 28;
  for (uint32_t v = 0; v < t->N; v++) {
    pt p = node_pos(L, v);
    mg_svg_printf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", ox + p.x, oy + p.y, r);
    if (labels)
      mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" fill=\"#888\" text-anchor=\"end\">%u</text>",
                    ox + p.x - 4, oy + p.y - 4, v);
  }
  mg_svg_printf(w, "</g>\n");
}

static void draw_shared(svg_w *w, const mg_trace *t, const layout *L, size_t r, double ox, double oy, uint32_t *users,
                        uint64_t *slots, size_t *nslots) {
  const mg_trace_round *rd = &t->rounds[r];
  const mg_topo *tp = &t->info.topo;
  *nslots = 0;
  /* count each arc's users from the kept routes (the independent recount) */
  for (size_t i = rd->first; i < rd->first + rd->n; i++) {
    const mg_trace_xfer *x = &t->xfers[i];
    uint32_t cur = x->src;
    for (int g = 0; g < x->nseg; g++) {
      const mg_seg *s = &t->segs[x->seg_off + g];
      int dir = s->hops < 0 ? -1 : 1;
      for (int32_t h = 0; h < (s->hops < 0 ? -s->hops : s->hops); h++) {
        uint64_t a = mg_arc_id(tp, cur, s->dim, dir);
        if (users[a]++ == 0) slots[(*nslots)++] = a;
        cur = mg_topo_step(tp, cur, s->dim, dir);
      }
    }
  }
  mg_svg_printf(w,
                "<g stroke=\"#e41a1c\" stroke-opacity=\"0.45\" stroke-linecap=\"round\" fill=\"none\" "
                "stroke-width=\"%.1f\">",
                clampd(L->lane * 3, 3, 9));
  for (size_t k = 0; k < *nslots; k++) {
    uint64_t a = slots[k];
    if (users[a] >= 2) {
      uint32_t node = (uint32_t)(a / 2 / (uint64_t)tp->d);
      int dim = (int)(a / 2 % (uint64_t)tp->d), dir = a % 2 ? -1 : 1;
      mg_svg_printf(w,
                    "<path class=\"shared\" data-round=\"%zu\" data-node=\"%u\" data-dim=\"%d\" data-dir=\"%d\" "
                    "data-users=\"%u\" d=\"",
                    r, node, dim, dir, users[a]);
      pathb b = {.w = w};
      hop(&b, L, node, mg_topo_step(tp, node, dim, dir), dim, dir, ox, oy);
      pb_flush(&b);
      mg_svg_printf(w, "\"><title>arc %u%c%d: %u transfers</title></path>", node, dir > 0 ? '+' : '-', dim, users[a]);
    }
    users[a] = 0;
  }
  mg_svg_printf(w, "</g>\n");
}

static void draw_transfers(svg_w *w, const mg_trace *t, const layout *L, size_t r, const buckets *bk, double ox,
                           double oy) {
  const mg_trace_round *rd = &t->rounds[r];
  const mg_topo *tp = &t->info.topo;
  double sw = clampd(L->sp * 0.06, 1, 2.5);
  mg_svg_printf(w, "<g fill=\"none\" stroke-width=\"%.1f\" stroke-linejoin=\"round\" stroke-opacity=\"0.9\">", sw);
  for (size_t i = rd->first; i < rd->first + rd->n; i++) {
    const mg_trace_xfer *x = &t->xfers[i];
    int k = bucket_of(bk, x->nitems);
    if (x->bus != MG_BUS_NONE) {
      pt p = node_pos(L, x->src);
      uint32_t n = tp->n[0];
      int row = x->bus == MG_BUS_ROW;
      double off = L->sp * 0.3;
      mg_svg_printf(w,
                    "<g class=\"transfer\" data-round=\"%zu\" data-src=\"%u\" data-dst=\"%s\" data-items=\"%llu\" "
                    "stroke=\"%s\">",
                    r, x->src, row ? "row" : "col", (unsigned long long)x->nitems, mg_svg_seq(k));
      if (row)
        mg_svg_printf(w, "<path d=\"M%.1f %.1fH%.1f\" stroke-width=\"%.1f\"/>", ox + L->pad * 0.5, oy + p.y + off,
                      ox + L->pad + (n - 1) * L->sp + L->pad * 0.5, sw * 2);
      else
        mg_svg_printf(w, "<path d=\"M%.1f %.1fV%.1f\" stroke-width=\"%.1f\"/>", ox + p.x + off, oy + L->pad * 0.5,
                      oy + L->pad + (n - 1) * L->sp + L->pad * 0.5, sw * 2);
      mg_svg_printf(w, "<path d=\"M%.1f %.1fL%.1f %.1f\"/><title>%u on its %s bus: %llu items</title></g>", ox + p.x,
                    oy + p.y, ox + p.x + (row ? 0 : off), oy + p.y + (row ? off : 0), x->src, row ? "row" : "column",
                    (unsigned long long)x->nitems);
      continue;
    }
    mg_svg_printf(w,
                  "<path class=\"transfer\" data-round=\"%zu\" data-src=\"%u\" data-dst=\"%u\" data-items=\"%llu\" "
                  "stroke=\"%s\" marker-end=\"url(#h%d)\" d=\"",
                  r, x->src, x->dst, (unsigned long long)x->nitems, mg_svg_seq(k), k);
    pathb b = {.w = w};
    uint32_t cur = x->src;
    for (int g = 0; g < x->nseg; g++) {
      const mg_seg *s = &t->segs[x->seg_off + g];
      int dir = s->hops < 0 ? -1 : 1;
      for (int32_t h = 0; h < (s->hops < 0 ? -s->hops : s->hops); h++) {
        uint32_t nx = mg_topo_step(tp, cur, s->dim, dir);
        hop(&b, L, cur, nx, s->dim, dir, ox, oy);
        cur = nx;
      }
    }
    pb_flush(&b);
    mg_svg_printf(w, "\"><title>%u to %u: %llu items</title></path>", x->src, x->dst, (unsigned long long)x->nitems);
  }
  mg_svg_printf(w, "</g>\n");
}

static void caption(svg_w *w, const mg_trace *t, size_t r, double x, double y) {
  const mg_trace_round *rd = &t->rounds[r];
  char c[32], s[32], h[32], l[32], m[32];
  mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">round %zu: cost %s</text>\n", x, y, r,
                mg_svg_num(rd->cost, c, sizeof c));
  mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">start-up %s + hop %s + transfer %s</text>\n", x,
                y + 15, mg_svg_num(rd->cost_startup, s, sizeof s), mg_svg_num(rd->cost_hop, h, sizeof h),
                mg_svg_num(rd->cost_transfer, l, sizeof l));
  mg_svg_printf(w,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#444\">%llu transfers, busiest arc %s B, %llu "
                "shared arcs</text>\n",
                x, y + 30, (unsigned long long)rd->transfers, mg_svg_bytes(rd->max_load, m, sizeof m),
                (unsigned long long)rd->shared_arcs);
}

static void title_line(const mg_trace *t, char *buf, size_t len) {
  char topo[64], model[200], ps[200];
  mg_params_format(&t->info.params, ps, sizeof ps);
  snprintf(buf, len, "%s%s%s, %s on %s, %s", t->info.algorithm, ps[0] ? ":" : "", ps, mg_problem_name(t->info.problem),
           mg_topo_format(&t->info.topo, topo, sizeof topo), mg_svg_model(&t->info.model, model, sizeof model));
}

mg_status mg_draw_rounds(const mg_trace *t, int64_t round, mg_text *out, mg_err *err) {
  if (!t || !out) return mg_fail(err, MG_ERR_INVALID, "mg_draw_rounds: a trace and an output are needed");
  if (!mg_draw_arrows_fit(&t->info.topo)) return mg_draw_heatmap(t, out, err);
  size_t *list = NULL, nlist = 0;
  uint32_t *users = NULL;
  uint64_t *slots = NULL;
  mg_status st = MG_OK;
  if (round >= 0 && (size_t)round >= t->nrounds && t->rejected && t->violation.round >= 0)
    return mg_fail(err, MG_ERR_INVALID,
                   "round %lld was not run: the simulator rejected the schedule in round %lld (%s)", (long long)round,
                   (long long)t->violation.round, mg_rule_name(t->violation.rule));
  if (round >= 0 && ((size_t)round >= t->nrounds || !t->rounds[round].kept))
    return mg_fail(err, MG_ERR_INVALID, "round %lld was not kept (the schedule has %zu rounds)", (long long)round,
                   t->nrounds);
  if (!(list = mg_calloc(t->nrounds + 1, sizeof *list))) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  for (size_t r = 0; r < t->nrounds; r++)
    if (t->rounds[r].kept && (round < 0 || (int64_t)r == round)) list[nlist++] = r;
  if (nlist == 0) {
    free(list);
    return mg_fail(err, MG_ERR_INVALID, "no round was kept to draw");
  }
  layout L;
  layout_init(&L, &t->info.topo);
  uint64_t nsl = t->info.topo.kind == MG_TOPO_MESHBUS ? 1 : mg_topo_arc_slots(&t->info.topo);
  users = mg_calloc(nsl, sizeof *users);
  slots = mg_calloc(nsl, sizeof *slots);
  if (!users || !slots) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  buckets bk = {.lo = UINT64_MAX, .exact = 1};
  for (size_t k = 0; k < nlist; k++) {
    const mg_trace_round *rd = &t->rounds[list[k]];
    for (size_t i = rd->first; i < rd->first + rd->n; i++) {
      uint64_t v = t->xfers[i].nitems ? t->xfers[i].nitems : 1;
      if (v < bk.lo) bk.lo = v;
      if (v > bk.hi) bk.hi = v;
      int j = 0;
      while (j < bk.nvals && bk.vals[j] < v)
        j++;
      if (j < bk.nvals && bk.vals[j] == v) continue;
      if (bk.nvals == SVG_NSEQ) {
        bk.exact = 0;
        continue;
      }
      memmove(bk.vals + j + 1, bk.vals + j, (size_t)(bk.nvals - j) * sizeof *bk.vals);
      bk.vals[j] = v;
      bk.nvals++;
    }
  }
  if (bk.lo == UINT64_MAX) bk.lo = bk.hi = 1, bk.nvals = 1, bk.vals[0] = 1;
  /* a rejected schedule's banner goes between the title and the legend */
  double ban = t->rejected ? SVG_REJECTED_H : 0, ly = 37 + ban;
  double cap_h = 52, pw = L.w > 330 ? L.w : 330, ph = L.h + cap_h + 8, head = 62 + ban;
  size_t cols = (size_t)(1240 / (pw + 16));
  if (cols < 1) cols = 1;
  if (cols > nlist) cols = nlist;
  size_t rows = (nlist + cols - 1) / cols;
  double W = cols * (pw + 16) + 16, H = head + rows * (ph + 12) + 8;
  char title[512];
  title_line(t, title, sizeof title);
  /* room for the title (bold 14 px: about 8.2 px a character) */
  if (W < 32 + 8.2 * (double)strlen(title)) W = 32 + 8.2 * (double)strlen(title);
  if (W < 560) W = 560;
  char drawn[160] = "";
  if (t->rejected) {
    /* the simulator's message in 12 px: about 6.6 px a character */
    if (W < 32 + 6.6 * (double)strlen(t->violation.msg)) W = 32 + 6.6 * (double)strlen(t->violation.msg);
    if (nlist == 1)
      snprintf(drawn, sizeof drawn, "drawn: round %zu, of the %zu round%s run before the schedule was rejected",
               list[0], t->nrounds, t->nrounds == 1 ? "" : "s");
    else
      snprintf(drawn, sizeof drawn,
               "drawn: rounds %zu to %zu (%zu panels), of the %zu rounds run before the schedule "
               "was rejected",
               list[0], list[nlist - 1], nlist, t->nrounds);
  }
  svg_w w = {.out = out};
  mg_svg_open(&w, W, H, title);
  mg_svg_printf(&w, "<defs>");
  for (int k = 0; k < SVG_NSEQ; k++)
    mg_svg_printf(&w,
                  "<marker id=\"h%d\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" "
                  "orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"%s\"/></marker>",
                  k, mg_svg_seq(k));
  mg_svg_printf(&w, "</defs>\n<text x=\"16\" y=\"22\" font-size=\"14\" font-weight=\"bold\">");
  mg_svg_esc(&w, title);
  mg_svg_printf(&w, "</text>\n");
  mg_svg_rejected(&w, t, 16, 40, drawn);
  mg_svg_printf(&w, "<g class=\"legend\" font-size=\"11\"><text x=\"16\" y=\"%.0f\">items per transfer:</text>",
                ly + 9);
  double lx = 132;
  for (int k = 0; k < SVG_NSEQ; k++) {
    /* one swatch per bucket in use, labelled with its smallest count */
    uint64_t v;
    if (bk.exact) {
      if (k >= bk.nvals) break;
      v = bk.vals[k];
    } else {
      double f = k == 0 ? 0 : (k - 0.5) / (SVG_NSEQ - 1);
      v = k == 0 ? bk.lo : (uint64_t)ceil((double)bk.lo * pow((double)bk.hi / (double)bk.lo, f));
    }
    int kk = bucket_of(&bk, v);
    if (k > 0 && !bk.exact && bucket_of(&bk, v - 1) == kk) continue;
    mg_svg_printf(&w,
                  "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"10\" fill=\"%s\"/><text x=\"%.0f\" "
                  "y=\"%.0f\">%s%llu</text>",
                  lx, ly, mg_svg_seq(kk), lx + 17, ly + 9, bk.exact || k == 0 ? "" : "\u2265", (unsigned long long)v);
    lx += 44 + 7 * (v >= 10000 ? 5 : v >= 1000 ? 4 : v >= 100 ? 3 : v >= 10 ? 2 : 1);
  }
  mg_svg_printf(
      &w,
      "<path d=\"M%.0f %.0fh22\" stroke=\"#e41a1c\" stroke-opacity=\"0.45\" stroke-width=\"6\"/><text x=\"%.0f\" "
      "y=\"%.0f\">arc shared by 2+ transfers</text></g>\n",
      lx + 10, ly + 5, lx + 38, ly + 9);
  for (size_t k = 0; k < nlist; k++) {
    size_t r = list[k];
    double ox = 16 + (k % cols) * (pw + 16) + (pw - L.w) / 2, oy = head + (k / cols) * (ph + 12);
    mg_svg_printf(&w, "<g class=\"round\" data-round=\"%zu\" data-transfers=\"%llu\">\n", r,
                  (unsigned long long)t->rounds[r].transfers);
    draw_machine(&w, &L, ox, oy);
    if (L.kind != L_BUS) {
      size_t ns;
      draw_shared(&w, t, &L, r, ox, oy, users, slots, &ns);
    }
    draw_transfers(&w, t, &L, r, &bk, ox, oy);
    caption(&w, t, r, 16 + (k % cols) * (pw + 16), oy + L.h + 14);
    mg_svg_printf(&w, "</g>\n");
  }
  mg_svg_close(&w);
  st = mg_svg_status(&w, err);
out:
  free(list);
  free(users);
  free(slots);
  return st;
}

/* Line plots for sweeps: y against x (message size), one line per series,
 * panels side by side. Every series of a panel has its own colour (Okabe &
 * Ito's colour-blind safe set, then Tol's) and its own marker (five filled
 * shapes, the same five hollow, a plus and a cross), so that no two lines
 * look alike even in grey; lower bounds are black dashed lines without
 * markers. The legend sits below the plot area in two columns, so it never
 * covers data and never grows wider than the plot. Axis ranges are the
 * ticks just around the data (decades, or 1-2-5 steps within a decade;
 * powers of two for byte counts). */
#include "svg.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define PW      460.0 /* plot area */
#define PH      300.0
#define ML      70.0 /* margins inside a panel */
#define MT      40.0
#define LEG_ROW 17.0

typedef struct axis {
  int log, bytes;
  double lo, hi; /* range (data units) */
  double ticks[40];
  int nticks;
} axis;

static int usable(const axis *a, double v) { return isfinite(v) && (!a->log || v > 0); }

/* A range that the positions below can divide by: finite ends, lo < hi
 * (and lo > 0 on a log axis) around [dmin, dmax], ticks inside it. The
 * fits can leave an end past the largest double (the decade or step just
 * above 1e308) or at 0 (the decade below the smallest subnormal); such an
 * end is pulled back to the data and its tick dropped. */
static void axis_clamp(axis *a, double dmin, double dmax) {
  if (!(a->lo >= (a->log ? DBL_TRUE_MIN : -DBL_MAX)) || a->lo > dmin) a->lo = dmin;
  if (!(a->hi <= DBL_MAX) || a->hi < dmax) a->hi = dmax;
  int k = 0;
  for (int i = 0; i < a->nticks; i++)
    if (a->ticks[i] >= a->lo && a->ticks[i] <= a->hi) a->ticks[k++] = a->ticks[i];
  a->nticks = k;
}

/* Picks the range and ticks around [dmin, dmax] (the usable data; dmin >
 * dmax when there is none). A single value is padded to a range around
 * it (halved and doubled on a log axis, +-half its size on a linear one):
 * a range of width 0 would put every point at 0/0. */
static void axis_fit(axis *a, double dmin, double dmax) {
  a->nticks = 0;
  if (!(dmin <= dmax)) dmin = dmax = a->log ? 1 : 0;
  if (dmin == dmax) {
    double v = dmin;
    if (a->log) {
      dmin = v / 2 > 0 ? v / 2 : v;
      dmax = v < DBL_MAX / 2 ? 2 * v : DBL_MAX;
    } else {
      /* 0 (or a subnormal, whose half is no wider) gets +-1 */
      double pad = fabs(v) / 2 >= DBL_MIN ? fabs(v) / 2 : 1;
      dmin = v - pad, dmax = v + pad; /* past the largest double at |v| > DBL_MAX / 1.5 */
      if (!isfinite(dmin)) dmin = -DBL_MAX;
      if (!isfinite(dmax)) dmax = DBL_MAX;
    }
  }
  if (a->log) {
    double base = a->bytes ? 2 : 10;
    double e0 = floor(log(dmin) / log(base) + 1e-9), e1 = ceil(log(dmax) / log(base) - 1e-9);
    if (e1 <= e0) e1 = e0 + 1;
    if (!a->bytes && e1 - e0 <= 1) {
      /* within one decade: 1-2-5 steps just around the data */
      static const double m[] = {1, 2, 5, 10};
      double d = pow(10, e0), lo = d, hi = 10 * d;
      for (int k = 0; k < 4; k++)
        if (m[k] * d <= dmin * (1 + 1e-12)) lo = m[k] * d;
      for (int k = 3; k >= 0; k--)
        if (m[k] * d >= dmax * (1 - 1e-12)) hi = m[k] * d;
      a->lo = lo, a->hi = hi;
      for (int k = 0; k < 4; k++)
        if (m[k] * d >= lo && m[k] * d <= hi) a->ticks[a->nticks++] = m[k] * d;
      axis_clamp(a, dmin, dmax);
      return;
    }
    a->lo = pow(base, e0), a->hi = pow(base, e1);
    double step = 1;
    while ((e1 - e0) / step > 8)
      step *= 2;
    for (double e = e0; e <= e1 + 1e-9 && a->nticks < 40; e += step)
      a->ticks[a->nticks++] = pow(base, e);
    axis_clamp(a, dmin, dmax);
    return;
  }
  /* the span by halves: dmax - dmin overflows from -1e308 to 1e308 */
  double raw = isfinite(dmax - dmin) ? (dmax - dmin) / 5 : (dmax / 2 - dmin / 2) / 2.5;
  double mag = pow(10, floor(log10(raw))), step = mag;
  if (raw / mag > 5)
    step = 10 * mag;
  else if (raw / mag > 2)
    step = 5 * mag;
  else if (raw / mag > 1)
    step = 2 * mag;
  a->lo = floor(dmin / step + 1e-9) * step;
  a->hi = ceil(dmax / step - 1e-9) * step;
  if (!(step > 0) || !isfinite(step) || !isfinite(a->lo) || !isfinite(a->hi)) {
    /* a span of a few subnormals: no step to count in, the data's ends */
    a->lo = dmin, a->hi = dmax;
    a->ticks[0] = dmin, a->ticks[1] = dmax, a->nticks = 2;
    return;
  }
  if (a->hi <= a->lo) a->hi = a->lo + step;
  for (double v = a->lo; v <= a->hi + step * 1e-6 && a->nticks < 40; v += step)
    a->ticks[a->nticks++] = fabs(v) < step * 1e-9 ? 0 : v;
  axis_clamp(a, dmin, dmax);
}

/* v's place along an axis of length len; v in [lo, hi], lo < hi finite.
 * A linear span past the largest double is taken by halves. */
static double axis_pos(const axis *a, double v, double len) {
  double f;
  if (a->log)
    f = (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
  else if (isfinite(a->hi - a->lo))
    f = (v - a->lo) / (a->hi - a->lo);
  else
    f = (v / 2 - a->lo / 2) / (a->hi / 2 - a->lo / 2);
  /* two neighbouring doubles can have one logarithm: the middle, not nan */
  return isfinite(f) ? len * f : len / 2;
}

static const char *tick_label(const axis *a, double v, char *buf, size_t len) {
  if (a->bytes) return mg_svg_bytes(v, buf, len);
  snprintf(buf, len, "%g", v);
  return buf;
}

/* Marker k at (x, y); with data (x, y in data units) it is a point of
 * class "point", without it a legend sample. */
static void marker(svg_w *w, int k, double x, double y, const char *col, const double *data) {
  int shape = k % 12, hollow = shape >= 5 && shape < 10;
  mg_svg_printf(w, "<%s ", shape % 5 == 0 && shape < 10 ? "circle" : "path");
  if (data) mg_svg_printf(w, "class=\"point\" data-x=\"%.17g\" data-y=\"%.17g\" ", data[0], data[1]);
  mg_svg_printf(w, "fill=\"%s\" stroke=\"%s\" ", shape >= 10 ? "none" : hollow ? "#ffffff" : col, col);
  switch (shape < 10 ? shape % 5 : shape) {
  case 0: mg_svg_printf(w, "cx=\"%.1f\" cy=\"%.1f\" r=\"3.8\"/>", x, y); break;
  case 1: mg_svg_printf(w, "d=\"M%.1f %.1fh7v7h-7z\"/>", x - 3.5, y - 3.5); break;
  case 2: mg_svg_printf(w, "d=\"M%.1f %.1fl4.5 7.5h-9z\"/>", x, y - 4.8); break;
  case 3: mg_svg_printf(w, "d=\"M%.1f %.1fl4.8 4.8l-4.8 4.8l-4.8-4.8z\"/>", x, y - 4.8); break;
  case 4: mg_svg_printf(w, "d=\"M%.1f %.1fl4.5-7.5h-9z\"/>", x, y + 4.8); break;
  case 10: mg_svg_printf(w, "stroke-width=\"2\" d=\"M%.1f %.1fh10M%.1f %.1fv10\"/>", x - 5, y, x, y - 5); break;
  default: mg_svg_printf(w, "stroke-width=\"2\" d=\"M%.1f %.1fl8 8M%.1f %.1fl-8 8\"/>", x - 4, y - 4, x + 4, y - 4);
  }
}

/* The points of se that are off the axes (not drawn). */
static size_t skipped(const axis *ax, const axis *ay, const mg_plot_series *se) {
  size_t k = 0;
  for (size_t i = 0; i < se->n; i++)
    k += !usable(ax, se->x[i]) || !usable(ay, se->y[i]);
  return k;
}

static size_t legend_rows(const mg_plot_panel *p) { return (p->nseries + 1) / 2; }

static void panel(svg_w *w, const mg_plot_panel *p, const mg_plot_opts *o, double ox, double oy) {
  axis ax = {.log = o->logx, .bytes = o->xbytes}, ay = {.log = o->logy};
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  /* points off the axes, by why: not finite, x <= 0 or y <= 0 on a log axis */
  size_t all = 0, drawn = 0, nonfinite = 0, xneg = 0, yneg = 0;
  for (size_t s = 0; s < p->nseries; s++)
    for (size_t i = 0; i < p->series[s].n; i++) {
      double x = p->series[s].x[i], y = p->series[s].y[i];
      all++;
      if (!isfinite(x) || !isfinite(y))
        nonfinite++;
      else if (!usable(&ax, x))
        xneg++;
      else if (!usable(&ay, y))
        yneg++;
      else
        drawn++, xmin = fmin(xmin, x), xmax = fmax(xmax, x), ymin = fmin(ymin, y), ymax = fmax(ymax, y);
    }
  axis_fit(&ax, xmin, xmax);
  axis_fit(&ay, ymin, ymax);
  double px = ox + ML, py = oy + MT;
  char buf[64];
  mg_svg_printf(w,
                "<g class=\"panel\" data-points=\"%zu\" data-drawn=\"%zu\">\n<text x=\"%.1f\" y=\"%.1f\" "
                "font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\">",
                all, drawn, px + PW / 2, oy + 22);
  mg_svg_esc(w, p->title);
  mg_svg_printf(w,
                "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafafa\" "
                "stroke=\"#888\"/>\n",
                px, py, PW, PH);
  mg_svg_printf(w,
                "<g class=\"xaxis\" data-min=\"%.17g\" data-max=\"%.17g\" data-log=\"%d\" font-size=\"11\" "
                "text-anchor=\"middle\">",
                ax.lo, ax.hi, ax.log);
  for (int k = 0; k < ax.nticks; k++) {
    double x = px + axis_pos(&ax, ax.ticks[k], PW);
    mg_svg_printf(w, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#e3e3e3\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>", x, py,
                  py + PH, x, py + PH + 15, tick_label(&ax, ax.ticks[k], buf, sizeof buf));
  }
  mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", px + PW / 2, py + PH + 33);
  mg_svg_esc(w, o->xlabel);
  mg_svg_printf(w,
                "</text></g>\n<g class=\"yaxis\" data-min=\"%.17g\" data-max=\"%.17g\" data-log=\"%d\" "
                "font-size=\"11\" text-anchor=\"end\">",
                ay.lo, ay.hi, ay.log);
  for (int k = 0; k < ay.nticks; k++) {
    double y = py + PH - axis_pos(&ay, ay.ticks[k], PH);
    mg_svg_printf(w, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#e3e3e3\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>", px, y,
                  px + PW, px - 5, y + 4, tick_label(&ay, ay.ticks[k], buf, sizeof buf));
  }
  mg_svg_printf(w,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f "
                "%.1f)\">",
                ox + 16, py + PH / 2, ox + 16, py + PH / 2);
  mg_svg_esc(w, p->ylabel ? p->ylabel : o->ylabel);
  mg_svg_printf(w, "</text></g>\n");
  if (!drawn) {
    /* an empty frame would read as a plotting failure: say why it is empty */
    mg_svg_printf(w,
                  "<text class=\"empty\" x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#b00020\" "
                  "text-anchor=\"middle\">no point to draw",
                  px + PW / 2, py + PH / 2);
    if (!all) mg_svg_printf(w, ": no data");
    if (all) mg_svg_printf(w, ": of %zu point%s", all, all == 1 ? "" : "s");
    if (nonfinite) mg_svg_printf(w, ", %zu not finite", nonfinite);
    if (xneg) mg_svg_printf(w, ", %zu with x &lt;= 0 on the log x axis", xneg);
    if (yneg) mg_svg_printf(w, ", %zu with y &lt;= 0 on the log y axis", yneg);
    mg_svg_printf(w, "</text>\n");
  }
  for (size_t s = 0; s < p->nseries; s++) {
    const mg_plot_series *se = &p->series[s];
    int bound = se->style == MG_PLOT_BOUND;
    const char *col = bound ? "#000000" : mg_svg_cat((int)s);
    mg_svg_printf(w, "<g class=\"series\" data-name=\"");
    mg_svg_esc(w, se->name);
    mg_svg_printf(w, "\" data-skipped=\"%zu\"><path", skipped(&ax, &ay, se));
    mg_svg_printf(w, " fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s d=\"", col, bound ? "2" : "1.6",
                  bound                         ? " stroke-dasharray=\"7 4\""
                  : se->style == MG_PLOT_DASHED ? " stroke-dasharray=\"4 3\""
                                                : "");
    int pen = 0;
    for (size_t i = 0; i < se->n; i++) {
      if (!usable(&ax, se->x[i]) || !usable(&ay, se->y[i])) {
        pen = 0;
        continue;
      }
      mg_svg_printf(w, "%c%.1f %.1f", pen ? 'L' : 'M', px + axis_pos(&ax, se->x[i], PW),
                    py + PH - axis_pos(&ay, se->y[i], PH));
      pen = 1;
    }
    mg_svg_printf(w, "\"/>");
    for (size_t i = 0; !bound && i < se->n; i++)
      if (usable(&ax, se->x[i]) && usable(&ay, se->y[i]))
        marker(w, (int)s, px + axis_pos(&ax, se->x[i], PW), py + PH - axis_pos(&ay, se->y[i], PH), col,
               (const double[2]){se->x[i], se->y[i]});
    mg_svg_printf(w, "</g>\n");
  }
  /* legend below the plot, two columns */
  double ly = py + PH + 52;
  mg_svg_printf(w, "<g class=\"legend\" font-size=\"11\">");
  for (size_t s = 0; s < p->nseries; s++) {
    const mg_plot_series *se = &p->series[s];
    int bound = se->style == MG_PLOT_BOUND;
    const char *col = bound ? "#000000" : mg_svg_cat((int)s);
    double lx = px + (s % 2) * (PW / 2), y = ly + (s / 2) * LEG_ROW;
    mg_svg_printf(w, "<path d=\"M%.1f %.1fh26\" stroke=\"%s\" stroke-width=\"%s\"%s/>", lx, y, col, bound ? "2" : "1.6",
                  bound                         ? " stroke-dasharray=\"7 4\""
                  : se->style == MG_PLOT_DASHED ? " stroke-dasharray=\"4 3\""
                                                : "");
    if (!bound) marker(w, (int)s, lx + 13, y, col, NULL);
    mg_svg_printf(w, "<text x=\"%.1f\" y=\"%.1f\">", lx + 32, y + 4);
    mg_svg_esc(w, se->name);
    size_t off = skipped(&ax, &ay, se);
    if (off) mg_svg_printf(w, " (%zu of %zu not drawn)", off, se->n);
    mg_svg_printf(w, "</text>");
  }
  mg_svg_printf(w, "</g>\n</g>\n");
}

mg_status mg_draw_plot(const mg_plot_panel *panels, size_t npanels, const mg_plot_opts *o, mg_text *out, mg_err *err) {
  if (!panels || !o || !out) return mg_fail(err, MG_ERR_INVALID, "mg_draw_plot: panels, options and output are needed");
  if (npanels == 0 || npanels > 8) return mg_fail(err, MG_ERR_INVALID, "a plot takes 1 to 8 panels");
  size_t maxrows = 0;
  for (size_t k = 0; k < npanels; k++) {
    if (panels[k].nseries > MG_PLOT_MAX_SERIES)
      return mg_fail(err, MG_ERR_INVALID, "panel '%s' has %zu series, over %d", panels[k].title ? panels[k].title : "",
                     panels[k].nseries, MG_PLOT_MAX_SERIES);
    if (panels[k].nseries && !panels[k].series)
      return mg_fail(err, MG_ERR_INVALID, "panel '%s' has %zu series and no array of them",
                     panels[k].title ? panels[k].title : "", panels[k].nseries);
    for (size_t s = 0; s < panels[k].nseries; s++) {
      const mg_plot_series *se = &panels[k].series[s];
      if (se->n && (!se->x || !se->y))
        return mg_fail(err, MG_ERR_INVALID, "series '%s' has no data arrays", se->name ? se->name : "");
      if (se->style < MG_PLOT_LINE || se->style > MG_PLOT_BOUND)
        return mg_fail(err, MG_ERR_INVALID, "series '%s': style %d is not MG_PLOT_LINE, _DASHED or _BOUND",
                       se->name ? se->name : "", se->style);
      /* points off the axes (not finite, <= 0 on a log axis) are left out
       * and counted in the picture: a sweep where a model prices every
       * schedule at 0, or where the bound is 0 or past a double, is still
       * a valid sweep */
    }
    if (legend_rows(&panels[k]) > maxrows) maxrows = legend_rows(&panels[k]);
  }
  double pw = ML + PW + 24, ph = MT + PH + 52 + maxrows * LEG_ROW + 8, top = o->title ? 30 : 0;
  size_t cols = npanels > 2 ? 2 : npanels;
  size_t rows = (npanels + cols - 1) / cols;
  svg_w w = {.out = out};
  mg_svg_open(&w, cols * pw + 16, top + rows * ph + 8, o->title ? o->title : "plot");
  if (o->title) {
    mg_svg_printf(&w, "<text x=\"16\" y=\"22\" font-size=\"14\" font-weight=\"bold\">");
    mg_svg_esc(&w, o->title);
    mg_svg_printf(&w, "</text>\n");
  }
  for (size_t k = 0; k < npanels; k++)
    panel(&w, &panels[k], o, 8 + (k % cols) * pw, top + (k / cols) * ph);
  mg_svg_close(&w);
  return mg_svg_status(&w, err);
}

/* Link load over time: a heatmap with one row per arc (or per bin of
 * arcs of one class on machines with more arcs than the trace's row cap)
 * and one column per round (or per bin of rounds beyond 400), each cell
 * coloured by the bytes the arc carried in the round relative to the
 * busiest arc of the run (any load at all is tinted, so that idle arcs
 * stay white). Under the cells a strip shows the fraction of
 * arcs in use per round. This is the picture in which the MPI libraries'
 * ring and Bruck allgathers leave most of a torus idle while TORGOS
 * (Juurlink, Rapaport, Sibeyn and Wijshoff's torus gossiping) keeps every
 * arc busy. Every cell is one <rect class="cell"> with data-row and
 * data-load (bytes) inside its column, an <svg class="col"> with
 * data-round. */
#include "svg.h"

#include <math.h>
#include <string.h>

#define MAX_COLS  400
#define MAX_CELLS 24000

static const char *class_name(const mg_topo *t, int c, char *buf, size_t len) {
  static const char axis[] = "xyzuvwpq";
  if (t->kind == MG_TOPO_MESHBUS)
    snprintf(buf, len, "%s buses", c ? "column" : "row");
  else
    snprintf(buf, len, "%c%c", axis[c / 2], c % 2 ? '-' : '+');
  return buf;
}

mg_status mg_draw_heatmap(const mg_trace *t, mg_text *out, mg_err *err) {
  if (!t || !out) return mg_fail(err, MG_ERR_INVALID, "mg_draw_heatmap: a trace and an output are needed");
  const mg_topo *tp = &t->info.topo;
  uint32_t rows = t->hm_rows;
  if (rows == 0) return mg_fail(err, MG_ERR_INVALID, "the trace has no arcs to draw");
  /* at most MAX_CELLS cells (a few MB at worst), at most MAX_COLS columns */
  size_t R = t->nrounds, maxc = MAX_CELLS / rows < MAX_COLS ? MAX_CELLS / rows : MAX_COLS;
  if (maxc < 1) maxc = 1;
  size_t per = R > maxc ? (R + maxc - 1) / maxc : 1, cols = R ? (R + per - 1) / per : 0;
  double vmax = 0;
  for (size_t k = 0; k < R * rows; k++)
    if (t->hm[k] > vmax) vmax = t->hm[k];
  double cw = cols ? fmin(28, fmax(2, 900.0 / cols)) : 28, ch = fmin(14, fmax(1, 560.0 / rows));
  int binned = t->arcs_per_row > 1 || per > 1;
  /* a rejected schedule's banner goes above the grid */
  double ban_y = binned ? 72 : 58, ban = t->rejected ? SVG_REJECTED_H + (binned ? 14 : 0) : 0;
  double left = 92, top = 84 + ban, gw = cw * (cols ? cols : 1), gh = ch * rows;
  double W = fmax(left + gw + 130, 620), H = top + gh + 62;
  char title[512], topo[64], model[200], ps[200], buf[64], b2[64];
  mg_params_format(&t->info.params, ps, sizeof ps);
  snprintf(title, sizeof title, "link load over time: %s%s%s, %s on %s, %s", t->info.algorithm, ps[0] ? ":" : "", ps,
           mg_problem_name(t->info.problem), mg_topo_format(tp, topo, sizeof topo),
           mg_svg_model(&t->info.model, model, sizeof model));
  if (W < 32 + 8.2 * (double)strlen(title)) W = 32 + 8.2 * (double)strlen(title);
  if (t->rejected && W < 32 + 6.6 * (double)strlen(t->violation.msg)) W = 32 + 6.6 * (double)strlen(t->violation.msg);
  svg_w w = {.out = out};
  mg_svg_open(&w, W, H, title);
  mg_svg_printf(&w, "<text x=\"16\" y=\"22\" font-size=\"14\" font-weight=\"bold\">");
  mg_svg_esc(&w, title);
  mg_svg_printf(&w,
                "</text>\n<text x=\"16\" y=\"42\" font-size=\"11\" fill=\"#444\">%llu arcs%s, %zu rounds; %llu arcs "
                "idle in every round; mean busy fraction %.1f%%, max %.1f%%</text>\n",
                (unsigned long long)t->narcs, tp->kind == MG_TOPO_MESHBUS ? " (buses)" : "", R,
                (unsigned long long)t->idle_arcs, 100 * t->mean_busy, 100 * t->max_busy);
  if (binned)
    mg_svg_printf(&w,
                  "<text x=\"16\" y=\"56\" font-size=\"11\" fill=\"#444\">a cell is the busiest of %llu arcs x %zu "
                  "rounds</text>\n",
                  (unsigned long long)t->arcs_per_row, per);
  if (t->rejected) {
    char drawn[128];
    snprintf(drawn, sizeof drawn, "drawn: the %zu round%s run before the schedule was rejected", R, R == 1 ? "" : "s");
    mg_svg_rejected(&w, t, 16, ban_y, drawn);
  }
  mg_svg_printf(&w,
                "<g class=\"heatmap\" data-rows=\"%u\" data-cols=\"%zu\" data-max=\"%.17g\" fill=\"#ffffff\" "
                "shape-rendering=\"crispEdges\">\n",
                rows, cols, vmax);
  for (size_t c = 0; c < cols; c++) {
    /* a column is a nested viewport carrying its round(s); its cells span
     * its width */
    size_t r0 = c * per, r1 = r0 + per < R ? r0 + per : R;
    if (per > 1)
      mg_svg_printf(&w, "<svg class=\"col\" data-round=\"%zu-%zu\"", r0, r1 - 1);
    else
      mg_svg_printf(&w, "<svg class=\"col\" data-round=\"%zu\"", r0);
    mg_svg_printf(&w, " x=\"%.1f\" width=\"%.2f\">\n", left + c * cw, cw + 0.05);
    for (uint32_t row = 0; row < rows; row++) {
      double v = 0;
      for (size_t r = r0; r < r1; r++)
        if (t->hm[r * rows + row] > v) v = t->hm[r * rows + row];
      char col[8];
      mg_svg_printf(
          &w, "<rect class=\"cell\" data-row=\"%u\" data-load=\"%.12g\" y=\"%.1f\" height=\"%.1f\" width=\"100%%\"",
          row, v, top + row * ch, ch + 0.05);
      mg_svg_printf(&w, v > 0 ? " fill=\"%s\"/>\n" : "/>\n", mg_svg_heat(vmax > 0 ? 0.08 + 0.92 * v / vmax : 0, col));
    }
    mg_svg_printf(&w, "</svg>\n");
  }
  mg_svg_printf(&w,
                "</g>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n",
                left, top, gw, gh);
  /* class labels and separators */
  uint32_t off = 0;
  int ncls = tp->kind == MG_TOPO_MESHBUS ? 2 : 2 * tp->d;
  for (int c = 0; c < ncls; c++) {
    uint64_t cnt = tp->kind == MG_TOPO_MESHBUS ? tp->n[0]
                   : tp->wrap[c / 2]           ? tp->N
                                               : (uint64_t)tp->N / tp->n[c / 2] * (tp->n[c / 2] - 1);
    uint32_t nr = (uint32_t)((cnt + t->arcs_per_row - 1) / t->arcs_per_row);
    if (c) mg_svg_printf(&w, "<path d=\"M%.1f %.1fh%.1f\" stroke=\"#444\"/>", left - 6, top + off * ch, gw + 6);
    mg_svg_printf(&w, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s arcs</text>\n", left - 8,
                  top + (off + nr / 2.0) * ch + 4, class_name(tp, c, buf, sizeof buf));
    off += nr;
  }
  mg_svg_printf(&w,
                "<text x=\"14\" y=\"%.1f\" font-size=\"11\" transform=\"rotate(-90 14 %.1f)\" "
                "text-anchor=\"middle\">arcs by class, node order</text>\n",
                top + gh / 2, top + gh / 2);
  /* round ticks */
  size_t step = 1;
  while (cols / step > 16)
    step = step < 5 ? step + (step == 1 ? 1 : 3) : step * 2;
  mg_svg_printf(&w, "<g class=\"xaxis\" data-min=\"0\" data-max=\"%zu\" font-size=\"10\" text-anchor=\"middle\">",
                R ? R - 1 : 0);
  for (size_t c = 0; c < cols; c += step)
    mg_svg_printf(&w, "<text x=\"%.1f\" y=\"%.1f\">%zu</text>", left + (c + 0.5) * cw, top - 4, c * per);
  mg_svg_printf(&w, "</g>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">round</text>\n",
                left + gw / 2, top - 18);
  /* arcs in use per round */
  double sy = top + gh + 10, sh = 30;
  mg_svg_printf(&w, "<g class=\"used\" fill=\"#7a8fa6\">");
  for (size_t c = 0; c < cols; c++) {
    double f = 0;
    for (size_t r = c * per; r < (c + 1) * per && r < R; r++)
      f = fmax(f, t->narcs ? (double)t->rounds[r].used_arcs / (double)t->narcs : 0);
    mg_svg_printf(&w, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>", left + c * cw, sy + sh * (1 - f),
                  cw, sh * f);
  }
  mg_svg_printf(&w,
                "</g><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#bbb\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">arcs in use</text>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">100%%</text>\n",
                left, sy, gw, sh, left - 8, sy + sh / 2 + 8, left - 8, sy + 8);
  /* colour bar */
  double bx = left + gw + 24, by = top, bh = fmin(gh, 220);
  for (int k = 0; k < 40; k++) {
    char col[8];
    mg_svg_printf(&w, "<rect x=\"%.1f\" y=\"%.2f\" width=\"14\" height=\"%.2f\" fill=\"%s\"/>", bx,
                  by + bh * (39 - k) / 40.0, bh / 40.0 + 0.3, mg_svg_heat((k + 0.5) / 40.0, col));
  }
  mg_svg_printf(&w, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>", bx, by,
                bh);
  mg_svg_printf(&w,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s B</text><text x=\"%.1f\" y=\"%.1f\" "
                "font-size=\"10\">0</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">bytes per arc</text>\n",
                bx + 18, by + 8, mg_svg_bytes(vmax, b2, sizeof b2), bx + 18, by + bh, bx - 4, by + bh + 16);
  mg_svg_close(&w);
  return mg_svg_status(&w, err);
}

/* The sweep plot of `compare --sizes`: every algorithm's verified cost
 * against the message size beside the lower bound, and the same divided
 * by the bound (how far from optimal each is, size by size). With more
 * algorithms than a panel can tell apart (distinct colour and marker for
 * each), the best 11 by their mean log ratio to the bound are drawn;
 * algorithms missing at some sizes (refused, not verified) rank after
 * those present everywhere. */
#include "svg.h"

#include <math.h>
#include <string.h>

#define KEEP 11

mg_status mg_draw_sweep(const mg_problem_spec *pb, const double *sizes, size_t ns, const double *costs, mg_text *out,
                        mg_err *err) {
  size_t na = mg_algo_count(), nsel = 0;
  const double *bound = costs + na * ns;
  mg_status st = MG_OK;
  size_t *sel = mg_calloc(na, sizeof *sel);
  double *score = mg_calloc(na, sizeof *score), *ratio = mg_calloc((uint64_t)(na + 1) * ns, sizeof *ratio);
  mg_plot_series s1[KEEP + 1], s2[KEEP + 1];
  if (!sel || !score || !ratio) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the sweep plot");
    goto out;
  }
  for (size_t a = 0; a < na; a++) {
    double sum = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < ns; k++) {
      double c = costs[a * ns + k];
      ratio[a * ns + k] = bound[k] > 0 ? c / bound[k] : NAN;
      if (isfinite(c) && c > 0) sum += log(bound[k] > 0 ? c / bound[k] : c), cnt++;
    }
    if (!cnt) continue;
    score[a] = sum / (double)cnt + 1e3 * (double)(ns - cnt);
    size_t j = nsel++;
    while (j > 0 && score[sel[j - 1]] > score[a])
      sel[j] = sel[j - 1], j--;
    sel[j] = a;
  }
  size_t keep = nsel < KEEP ? nsel : KEEP;
  for (size_t i = 0; i < keep; i++) {
    size_t a = sel[i];
    s1[i] = (mg_plot_series){mg_algo_at(a)->name, sizes, costs + a * ns, ns, MG_PLOT_LINE};
    s2[i] = (mg_plot_series){mg_algo_at(a)->name, sizes, ratio + a * ns, ns, MG_PLOT_LINE};
  }
  for (size_t k = 0; k < ns; k++)
    ratio[na * ns + k] = bound[k] > 0 ? 1 : NAN;
  s1[keep] = (mg_plot_series){"lower bound", sizes, bound, ns, MG_PLOT_BOUND};
  s2[keep] = (mg_plot_series){"lower bound", sizes, ratio + na * ns, ns, MG_PLOT_BOUND};
  char topo[64], title[400];
  char model[200];
  snprintf(title, sizeof title, "%s on %s: %s%s", mg_problem_name(pb->problem),
           mg_topo_format(&pb->topo, topo, sizeof topo), svg_model(&pb->model, model, sizeof model),
           nsel > keep ? " (best 11 shown)" : "");
  mg_plot_panel panels[2] = {{"cost against size", "cost (model time)", s1, keep + 1},
                             {"cost / lower bound", "cost / lower bound", s2, keep + 1}};
  mg_plot_opts po = {.title = title,
                     .xlabel = pb->problem == MG_GOSSIP ? "bytes per node" : "bytes per block",
                     .logx = 1,
                     .logy = 1,
                     .xbytes = 1};
  st = mg_draw_plot(panels, 2, &po, out, err);
out:
  free(sel);
  free(score);
  free(ratio);
  return st;
}

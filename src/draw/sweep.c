/* The sweep plot of `compare --sizes`: every algorithm's verified cost
 * against the message size beside the lower bound, and the same divided
 * by the bound (how far from optimal each is, size by size). With more
 * algorithms than a panel can tell apart (distinct colour and marker for
 * each), the best 11 by their mean log ratio to the bound are drawn;
 * algorithms missing at some sizes (refused, not verified) rank after
 * those present everywhere. Points the log axes cannot show (a cost of 0,
 * a ratio to a bound that is 0 or past a double) are left out, and the
 * plot says how many. */
#include "svg.h"

#include <math.h>
#include <string.h>

#define KEEP 11

mg_status mg_draw_sweep(const mg_problem_spec *pb, const double *sizes, size_t ns, const double *costs, mg_text *out,
                        mg_err *err) {
  if (!pb || !sizes || !costs || !out || ns == 0)
    return mg_fail(err, MG_ERR_INVALID, "mg_draw_sweep: a problem, at least one size, costs and output are needed");
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
    size_t cnt = 0, priced = 0;
    for (size_t k = 0; k < ns; k++) {
      double c = costs[a * ns + k];
      /* no ratio where the bound is 0 or past a double (NaN: not drawn) */
      ratio[a * ns + k] = isfinite(bound[k]) && bound[k] > 0 ? c / bound[k] : NAN;
      priced += isfinite(c);
      /* ranked by the log ratio, or the log cost where there is none; a
       * cost of 0 (a model with ts = td = tl = 0) has neither and is left
       * out of the mean (priced 0 everywhere: ranks as a ratio of 1) */
      double r = isfinite(ratio[a * ns + k]) && ratio[a * ns + k] > 0 ? ratio[a * ns + k] : c;
      if (isfinite(r) && r > 0) sum += log(r), cnt++;
    }
    if (!priced) continue;
    score[a] = (cnt ? sum / (double)cnt : 0) + 1e3 * (double)(ns - priced);
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
    ratio[na * ns + k] = isfinite(bound[k]) && bound[k] > 0 ? 1 : NAN;
  s1[keep] = (mg_plot_series){"lower bound", sizes, bound, ns, MG_PLOT_BOUND};
  s2[keep] = (mg_plot_series){"lower bound", sizes, ratio + na * ns, ns, MG_PLOT_BOUND};
  char topo[64], title[400];
  char model[200];
  snprintf(title, sizeof title, "%s on %s: %s%s", mg_problem_name(pb->problem),
           mg_topo_format(&pb->topo, topo, sizeof topo), mg_svg_model(&pb->model, model, sizeof model),
           nsel > keep ? " (best 11 shown)" : "");
  int any_bound = 0;
  for (size_t k = 0; k < ns; k++)
    any_bound |= isfinite(ratio[na * ns + k]);
  /* with no bound to divide by the panel is empty: its title says why */
  mg_plot_panel panels[2] = {
      {"cost against size", "cost (model time)", s1, keep + 1},
      {any_bound ? "cost / lower bound" : "cost / lower bound (none: the bound is 0 or past a double)",
       "cost / lower bound", s2, keep + 1}};
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

/* The report: one self-contained HTML page (inline SVG and CSS, no script,
 * nothing fetched) that answers "which collective for this machine?": the
 * comparison of every registered algorithm at the chosen size, the lower
 * bound term by term, a sweep plot over sizes, the model, and the best
 * verified schedule drawn round by round with its link-load heatmap. */
#include "svg.h"

#include <math.h>
#include <string.h>

#define MAX_ROUND_PANELS 12

static void h_esc(svg_w *w, const char *s) { mg_svg_esc(w, s); }

static void put_text(svg_w *w, const mg_text *t) {
  if (t->len) mg_svg_printf(w, "%.*s", (int)t->len, t->s);
}

static mg_status sweep_section(svg_w *w, const mg_problem_spec *pb, const mg_sim_opts *opts, const double *sizes,
                               size_t ns, mg_err *err) {
  size_t na = mg_algo_count();
  mg_status st = MG_OK;
  int any = 0;
  for (size_t k = 0; k < ns; k++)
    any |= isfinite(sizes[k]) && sizes[k] > 0;
  if (!any) {
    /* a log size axis has nowhere to put 0 bytes: seven empty panels of
     * compare runs would say less than one sentence */
    mg_svg_printf(w, "<h2>Sweep over message sizes</h2>\n<p class=\"meta\" id=\"no-sweep\">No sweep: no size is &gt; 0 "
                     "bytes and the size axis is logarithmic (meshgossip report --sizes sets the sizes).</p>\n");
    return MG_OK;
  }
  double *costs = mg_calloc((uint64_t)(na + 1) * ns, sizeof *costs);
  mg_text svg = {0};
  if (!costs) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the sweep");
  for (size_t i = 0; i < (na + 1) * ns; i++)
    costs[i] = NAN;
  mg_problem_spec q = *pb;
  size_t unpriced = 0;
  for (size_t k = 0; k < ns; k++) {
    mg_compare_row *rows = NULL;
    size_t n = 0;
    q.bytes = sizes[k];
    /* the sweep reaches 64 L: a size whose bound is past a double has no
     * figure (compare refuses it); left out and said, the rest drawn */
    mg_bound qb;
    if (mg_lower_bound(&q, &qb, NULL) != MG_OK) {
      unpriced++;
      continue;
    }
    MG_CHECK(mg_compare(&q, opts, 1, &rows, &n, err));
    for (size_t i = 0; i < n; i++) {
      if (!rows[i].refused && rows[i].rep.verified)
        for (size_t a = 0; a < na; a++)
          if (mg_algo_at(a) == rows[i].algo) costs[a * ns + k] = rows[i].rep.cost;
      mg_report_free(&rows[i].rep);
    }
    free(rows);
    costs[na * ns + k] = qb.lower_bound;
  }
  MG_CHECK(mg_draw_sweep(pb, sizes, ns, costs, &svg, err));
  mg_svg_printf(w, "<h2>Sweep over message sizes</h2>\n<div class=\"fig\">");
  put_text(w, &svg);
  mg_svg_printf(w, "</div>\n");
  if (unpriced)
    mg_svg_printf(w,
                  "<p class=\"meta\" id=\"unpriced\">%zu of the %zu sizes are not priced: their lower bound is past "
                  "the range of a double under this model.</p>\n",
                  unpriced, ns);
out:
  mg_text_free(&svg);
  free(costs);
  return st;
}

mg_status mg_report_html(const mg_problem_spec *pb, const mg_sim_opts *opts, const double *sizes, size_t nsizes,
                         mg_text *out, mg_err *err) {
  mg_status st = MG_OK;
  mg_compare_row *rows = NULL;
  size_t n = 0;
  mg_trace *tr = NULL;
  mg_report rep;
  mg_text pic = {0};
  memset(&rep, 0, sizeof rep);
  if (!pb || !out || (nsizes && !sizes))
    return mg_fail(err, MG_ERR_INVALID, "mg_report_html: a problem, the sizes and an output are needed");
  if (nsizes == 0) return mg_fail(err, MG_ERR_INVALID, "the report needs at least one size for its sweep");
  mg_sim_opts quiet;
  memset(&quiet, 0, sizeof quiet);
  if (opts) quiet = *opts;
  quiet.progress = NULL;
  quiet.on_resolved = NULL;
  MG_CHECK(mg_compare(pb, &quiet, 1, &rows, &n, err));
  if (!n || rows[0].refused || !rows[0].rep.verified) {
    st = mg_fail(err, MG_ERR_UNSUPPORTED, "no algorithm verifies for this problem, topology and model");
    goto out;
  }
  mg_bound bd;
  if (mg_lower_bound(pb, &bd, NULL) != MG_OK) memset(&bd, 0, sizeof bd);
  char topo[64], model[256], ps[256], num[32], title[256];
  mg_topo_format(&pb->topo, topo, sizeof topo);
  snprintf(title, sizeof title, "meshgossip report: %s on %s", mg_problem_name(pb->problem), topo);
  svg_w w = {.out = out};
  mg_svg_printf(&w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
  h_esc(&w, title);
  mg_svg_printf(&w, "</title>\n<style>\n"
                    "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:24px 32px;color:#222;max-width:"
                    "1300px}\n"
                    "h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid "
                    "#ddd;padding-bottom:3px}\n"
                    "table{border-collapse:collapse;font-size:13px}td,th{padding:3px 10px;border-bottom:1px solid "
                    "#eee;text-align:left}\n"
                    "td.num{text-align:right;font-variant-numeric:tabular-nums}tr.best{background:#eef6ee;font-weight:"
                    "bold}\n"
                    "tr.refused{color:#999}.fig{overflow-x:auto;margin:8px 0}.meta{color:#555;font-size:13px}\n"
                    "</style>\n</head>\n<body>\n<h1>");
  h_esc(&w, title);
  mg_svg_printf(&w, "</h1>\n<p class=\"meta\">%s, %g bytes %s; model: ", mg_problem_name(pb->problem), pb->bytes,
                pb->problem == MG_GOSSIP ? "per node" : "per block");
  h_esc(&w, mg_svg_model(&pb->model, model, sizeof model));
  mg_svg_printf(&w, " (docs/models.md). Every figure is the simulator's verified cost under this model.</p>\n");
  /* summary */
  const mg_compare_row *best = &rows[0];
  mg_svg_printf(&w, "<p id=\"summary\"><b>Best: ");
  h_esc(&w, best->algo->name);
  mg_params_format(&best->params, ps, sizeof ps);
  if (ps[0]) {
    mg_svg_printf(&w, ":");
    h_esc(&w, ps);
  }
  /* cost / bound means nothing where the bound is 0 (a model with ts =
   * td = tl = 0) or not a number: no ratio is written then, not 0 or nan */
  int ratio_ok = isfinite(bd.lower_bound) && bd.lower_bound > 0;
  mg_svg_printf(&w, "</b>: cost %s", mg_svg_num(best->rep.cost, num, sizeof num));
  if (ratio_ok && isfinite(best->rep.ratio_to_bound))
    mg_svg_printf(&w, ", %.3f&times; the lower bound (%s).</p>\n", best->rep.ratio_to_bound,
                  mg_svg_num(bd.lower_bound, model, sizeof model));
  else
    mg_svg_printf(&w, "; the lower bound is %s, no ratio to it.</p>\n",
                  mg_svg_num(bd.lower_bound, model, sizeof model));
  /* comparison table */
  mg_svg_printf(&w,
                "<h2>Comparison at %g bytes</h2>\n<table id=\"compare\">\n<tr><th>algorithm</th><th>cost</th>"
                "<th>rounds</th><th>cost / bound</th><th>parameters or reason</th></tr>\n",
                pb->bytes);
  for (size_t i = 0; i < n; i++) {
    const mg_compare_row *r = &rows[i];
    if (r->refused) {
      mg_svg_printf(&w, "<tr class=\"refused\"><td>");
      h_esc(&w, r->algo->name);
      mg_svg_printf(&w, "</td><td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td><td>refused: ");
      h_esc(&w, r->reason);
      mg_svg_printf(&w, "</td></tr>\n");
      continue;
    }
    mg_svg_printf(&w, "<tr%s><td>", i == 0 ? " class=\"best\"" : "");
    h_esc(&w, r->algo->name);
    mg_svg_printf(&w, "</td><td class=\"num\">%s</td><td class=\"num\">%lld</td><td class=\"num\">",
                  mg_svg_num(r->rep.cost, num, sizeof num), (long long)r->rep.rounds);
    if (ratio_ok && isfinite(r->rep.ratio_to_bound))
      mg_svg_printf(&w, "%.3f</td><td>", r->rep.ratio_to_bound);
    else
      mg_svg_printf(&w, "-</td><td>");
    h_esc(&w, mg_params_format(&r->params, ps, sizeof ps));
    if (!r->rep.verified) {
      mg_svg_printf(&w, " NOT VERIFIED: ");
      h_esc(&w, r->rep.violation.msg);
    }
    mg_svg_printf(&w, "</td></tr>\n");
  }
  mg_svg_printf(&w, "</table>\n");
  /* lower bound */
  mg_svg_printf(&w,
                "<h2>Lower bound: %s</h2>\n<table id=\"bound\">\n<tr><th>term</th><th>value</th><th>source</th>"
                "<th>note</th></tr>\n",
                mg_svg_num(bd.lower_bound, num, sizeof num));
  for (int k = 0; k < bd.n; k++) {
    const mg_bound_term *b = &bd.term[k];
    mg_svg_printf(&w, "<tr%s><td>", b->valid ? "" : " class=\"refused\"");
    h_esc(&w, b->name);
    mg_svg_printf(&w, "</td><td class=\"num\">%s</td><td>", mg_svg_num(b->value, num, sizeof num));
    h_esc(&w, b->source);
    mg_svg_printf(&w, "</td><td>%s", b->valid ? "" : "not a valid bound here; ");
    h_esc(&w, b->note);
    mg_svg_printf(&w, "</td></tr>\n");
  }
  mg_svg_printf(&w, "</table>\n");
  if (w.failed) goto done;
  MG_CHECK(sweep_section(&w, pb, &quiet, sizes, nsizes, err));
  /* the best schedule, drawn */
  mg_trace_opts to = {.keep = MG_TRACE_KEEP_ALL, .max_kept = MAX_ROUND_PANELS};
  st = mg_trace_run(best->algo, pb, &best->params, &quiet, &to, &tr, &rep, err);
  if (st != MG_OK) goto out;
  mg_svg_printf(&w, "<h2>The best schedule, round by round</h2>\n<p class=\"meta\">");
  h_esc(&w, best->algo->name);
  mg_svg_printf(&w,
                ": %zu rounds%s. Arrows follow each transfer's route, coloured by the items it carries; red marks "
                "an arc two or more transfers share.</p>\n<div class=\"fig\">",
                tr->nrounds, tr->nrounds > MAX_ROUND_PANELS ? " (the first 12 drawn)" : "");
  MG_CHECK(mg_draw_rounds(tr, -1, &pic, err));
  put_text(&w, &pic);
  pic.len = 0;
  mg_svg_printf(&w,
                "</div>\n<h2>Link load over time</h2>\n<p class=\"meta\">Every arc (rows) in every round "
                "(columns), coloured by the bytes it carries; %llu of %llu arcs idle in every round, mean busy "
                "fraction %.1f%%.</p>\n<div class=\"fig\">",
                (unsigned long long)tr->idle_arcs, (unsigned long long)tr->narcs, 100 * tr->mean_busy);
  MG_CHECK(mg_draw_heatmap(tr, &pic, err));
  put_text(&w, &pic);
  mg_svg_printf(&w, "</div>\n<p class=\"meta\">Written by meshgossip report.</p>\n</body>\n</html>\n");
done:
  st = mg_svg_status(&w, err);
out:
  for (size_t i = 0; i < n; i++)
    mg_report_free(&rows[i].rep);
  free(rows);
  mg_trace_free(tr);
  mg_report_free(&rep);
  mg_text_free(&pic);
  return st;
}

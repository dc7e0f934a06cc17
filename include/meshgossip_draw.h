/*
 * meshgossip pictures: a traced run (every round's transfers with their
 * resolved routes and item counts, every arc's load in every round) and
 * the SVG/HTML drawn from it — schedule rounds, link-load heatmaps, sweep
 * plots and a one-file report. No graphics dependency: the library writes
 * text into an mg_text buffer; the caller writes it to a FILE* or, with
 * mg_text_save, atomically to a path. The library never prints.
 *
 * SVG contract (docs/user-guide.md): each transfer is one element of class
 * "transfer" (data-round, data-src, data-dst, data-items); an arc used by
 * more than one transfer of a round is one element of class "shared"
 * (data-round, data-node, data-dim, data-dir, data-users); a heatmap cell
 * is one element of class "cell" (data-round, data-row, data-load).
 */
#ifndef MESHGOSSIP_DRAW_H
#define MESHGOSSIP_DRAW_H

#include "meshgossip.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the exported interface: meshgossip.h */
#endif

/* A growable text buffer; zero-initialise it. */
typedef struct mg_text {
  char *s; /* NUL-terminated when len > 0 */
  size_t len, cap;
} mg_text;

void mg_text_free(mg_text *t);
/* Every function below that takes pointers returns MG_ERR_INVALID with a
 * one-line message for a required one that is NULL (mg_text_free,
 * mg_trace_free: a no-op; mg_trace_row: UINT32_MAX; mg_draw_arrows_fit: 0).
 * Text from the caller or the simulator (titles, names, messages) reaches
 * SVG and HTML escaped and as valid UTF-8 XML: invalid UTF-8 and the
 * control characters XML forbids or HTML calls errors (all C0 but tab,
 * newline and return; DEL; C1; noncharacters) become U+FFFD. No picture
 * holds a nan or inf. */

/* Writes the text to f; MG_ERR_IO on a write error. */
mg_status mg_text_fwrite(const mg_text *t, FILE *f, mg_err *err);
/* Writes the text to path through a temporary file renamed into place:
 * on failure no file (and no partial file) is left. */
mg_status mg_text_save(const mg_text *t, const char *path, mg_err *err);

/* ------------------------------------------------------------------ */
/* Traced runs                                                          */
/* ------------------------------------------------------------------ */

/* One transfer as the simulator resolved it. Bus transfers have dst =
 * src, nseg = 0 and bus set. */
typedef struct mg_trace_xfer {
  uint32_t src, dst;
  mg_bus bus;
  uint8_t nseg;
  uint32_t seg_off; /* its route: trace->segs[seg_off .. seg_off+nseg) */
  uint64_t nitems;
} mg_trace_xfer;

/* One round's figures. Loads are bytes; busy fractions are arc load * tl
 * over the round's cost (0 when tl or the cost is 0). */
typedef struct mg_trace_round {
  size_t first, n;     /* kept transfers: trace->xfers[first .. first+n) */
  int kept;            /* 1 if the transfers of this round were kept */
  uint64_t transfers;  /* transfers of the round (kept or not) */
  double cost;         /* the simulator's price of the round */
  double cost_startup; /* its start-up, hop and transfer terms, as the */
  double cost_hop;     /* simulator splits them */
  double cost_transfer;
  double max_load;      /* bytes on the round's busiest arc (or bus) */
  uint64_t used_arcs;   /* arcs (buses) carrying at least one transfer */
  uint64_t shared_arcs; /* arcs used by two or more transfers */
  double mean_busy, max_busy;
} mg_trace_round;

/* Which rounds keep their transfers (for pictures). */
enum { MG_TRACE_KEEP_NONE = -2, MG_TRACE_KEEP_ALL = -1 };

typedef struct mg_trace_opts {
  int64_t keep;      /* MG_TRACE_KEEP_NONE, _ALL, or a round index */
  uint32_t max_kept; /* _ALL: keep the first max_kept rounds only (0: all) */
  uint32_t max_rows; /* heatmap rows before arcs are binned (0: 512) */
} mg_trace_opts;

typedef struct mg_trace {
  mg_schedule_info info;
  double item_bytes;
  uint64_t narcs; /* arcs that exist (mesh faces excluded); buses on a meshbus */
  size_t nrounds;
  mg_trace_round *rounds;
  mg_trace_xfer *xfers;
  size_t nxfers;
  mg_seg *segs;
  size_t nsegs;
  /* link load over time: hm[round * hm_rows + row] is the largest load
   * (bytes) of the arcs in heatmap row `row`. Rows list the arcs by class
   * (dimension 0 +, 0 -, 1 +, ...; meshbus: row buses then column buses),
   * node order inside a class; row r holds arcs_per_row consecutive arcs
   * of its class (1 unless the machine has more arcs than max_rows). */
  uint32_t hm_rows;
  uint32_t rows_per_class;
  uint64_t arcs_per_row;
  double *hm;
  uint64_t idle_arcs; /* arcs that carried nothing in the whole run */
  double mean_busy;   /* mean over rounds with transfers of mean_busy */
  double max_busy;    /* largest max_busy of any round */
  /* 1 if the simulator rejected the schedule (mg_trace_run returned
   * MG_ERR_VIOLATION): violation says which rule at which round; the
   * rounds above are those before it (all of them when violation.round is
   * -1, a schedule found incomplete at its end). The pictures say so. */
  int rejected;
  mg_violation violation;
} mg_trace;

/* Generates a's schedule, runs it through the simulator (as mg_run does,
 * the same report with lower bound and ratio) and records the trace.
 * Returns what mg_run would; on MG_ERR_VIOLATION the trace holds the rounds
 * before the failing one and says which (rejected, violation). *out is
 * NULL on any other error. a, pb, out and rep are required (ps, opts, to
 * may be NULL): MG_ERR_INVALID without them. */
mg_status mg_trace_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const mg_sim_opts *opts,
                       const mg_trace_opts *to, mg_trace **out, mg_report *rep, mg_err *err);
void mg_trace_free(mg_trace *t);
/* The heatmap row of an arc (node, dim, dir), or UINT32_MAX if the arc
 * does not exist; for a meshbus, dim 0 = row bus, 1 = column bus and
 * node = the bus number. */
uint32_t mg_trace_row(const mg_trace *t, uint32_t node, int dim, int dir);

/* ------------------------------------------------------------------ */
/* Pictures                                                             */
/* ------------------------------------------------------------------ */

/* Largest machine drawn with arrows (nodes, and extent per dimension). */
#define MG_DRAW_MAX_ARROW_NODES  1024u
#define MG_DRAW_MAX_ARROW_EXTENT 32u

/* 1 if the trace's machine is drawn with arrows (1D, 2D, 3D grids and
 * meshbus within the limits above), 0 if it gets the heatmap instead. */
int mg_draw_arrows_fit(const mg_topo *t);

/* The rounds' pictures: round `round` (a kept round), or every kept round
 * as small multiples when round < 0. The machine is drawn as a grid (1D: a
 * circle or a row; 3D: a row of z-slices; meshbus with its buses), each
 * transfer an arrow along its route coloured by items, shared arcs marked,
 * each panel captioned with the round's cost and its split. Machines that
 * do not fit (mg_draw_arrows_fit) get mg_draw_heatmap instead. A rejected
 * trace (t->rejected) is drawn with a red banner (<g class="violation"
 * data-rule data-round>) naming the rule, the round and the simulator's
 * message, and saying which rounds are drawn; a round at or past the
 * rejected one is MG_ERR_INVALID ("was not run"). */
mg_status mg_draw_rounds(const mg_trace *t, int64_t round, mg_text *out, mg_err *err);

/* The link-load heatmap: arcs (rows) x rounds (columns), every cell; a
 * rejected trace gets the banner of mg_draw_rounds. */
mg_status mg_draw_heatmap(const mg_trace *t, mg_text *out, mg_err *err);

/* Line plots (sweeps). */
enum { MG_PLOT_LINE = 0, MG_PLOT_DASHED = 1, MG_PLOT_BOUND = 2 };
typedef struct mg_plot_series {
  const char *name;
  /* n points; a point off the axes (x or y not finite, or <= 0 on a log
   * axis) is not drawn: it is counted in the series' data-skipped and its
   * legend entry ("3 of 7 not drawn"), and a panel with no point to draw
   * says so and why in its plot area (<text class="empty">) */
  const double *x, *y;
  size_t n;
  int style; /* MG_PLOT_*; anything else is MG_ERR_INVALID */
} mg_plot_series;

typedef struct mg_plot_panel {
  const char *title;
  const char *ylabel; /* NULL: the plot's */
  const mg_plot_series *series;
  size_t nseries;
} mg_plot_panel;

typedef struct mg_plot_opts {
  const char *title, *xlabel, *ylabel;
  int logx, logy;
  int xbytes; /* x is a byte count: ticks at powers of 2 labelled 1K, 4K ... */
} mg_plot_opts;

/* Panels side by side, each with its own axes and legend (below the plot
 * area, never over data). Every series gets a distinct colour and marker
 * (at most MG_PLOT_MAX_SERIES per panel). Each axis is a <g> of class
 * "xaxis"/"yaxis" with data-min/data-max (its range: the ticks just
 * around the data), each series a <g class="series" data-name=...>, each
 * point one element of class "point" with data-x and data-y. Axis ranges
 * are finite and never empty: a single value gets a range around it.
 * MG_ERR_INVALID: panels, o or out NULL; npanels not 1..8; a panel with
 * over MG_PLOT_MAX_SERIES series or NULL series; a series with points and
 * NULL x or y, or an unknown style. */
#define MG_PLOT_MAX_SERIES 12
mg_status mg_draw_plot(const mg_plot_panel *panels, size_t npanels, const mg_plot_opts *o, mg_text *out, mg_err *err);

/* A sweep (compare over sizes): costs[a * nsizes + k] is the cost of
 * registry algorithm a (mg_algo_at) at sizes[k], NaN where refused or not
 * verified; costs[mg_algo_count() * nsizes + k] the lower bound. Two
 * panels, cost and cost/bound against the size (log-log), one line per
 * algorithm (the best 11 by mean ratio to the bound), the bound dashed.
 * A cost of 0, or a ratio where the bound is 0 or past a double, is left
 * out as mg_draw_plot says. pb, sizes, costs and out are required and
 * nsizes >= 1. */
mg_status mg_draw_sweep(const mg_problem_spec *pb, const double *sizes, size_t nsizes, const double *costs,
                        mg_text *out, mg_err *err);

/* ------------------------------------------------------------------ */
/* The report                                                           */
/* ------------------------------------------------------------------ */

/* One self-contained HTML page (inline SVG, no network): the comparison
 * table at pb->bytes, a sweep plot over sizes (nsizes >= 1), the lower
 * bound and its terms, the model, and the best verified schedule's round
 * pictures and link heatmap. MG_ERR_UNSUPPORTED if nothing verifies.
 * pb, sizes and out are required (opts may be NULL). If no size is > 0 the
 * page says there is no sweep (its size axis is logarithmic) instead of
 * drawing one. */
mg_status mg_report_html(const mg_problem_spec *pb, const mg_sim_opts *opts, const double *sizes, size_t nsizes,
                         mg_text *out, mg_err *err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

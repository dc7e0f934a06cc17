/* Line plots from the command line: `compare --sizes ... --plot FILE.svg`
 * (the sweep: cost and cost/bound against the size, one line per
 * algorithm, the lower bound dashed) and `meshgossip plot FILE.csv -o
 * FILE.svg`, which draws any long-format CSV (panel,series,x,y[,style]) —
 * the SMPI Paragon experiment's plots come from it. */
#include "cli.h"
#include "meshgossip_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double *cli_sweep_alloc(size_t nalgos, size_t nsizes) {
  size_t n = (nalgos + 1) * nsizes;
  double *c = n / (nalgos + 1) == nsizes ? malloc(n * sizeof *c) : NULL;
  for (size_t i = 0; c && i < n; i++)
    c[i] = NAN;
  return c;
}

int cli_sweep_plot(const char *path, const mg_problem_spec *pb, const double *sizes, size_t ns, const double *costs) {
  mg_text svg = {0};
  mg_err err = {{0}};
  mg_status st = mg_draw_sweep(pb, sizes, ns, costs, &svg, &err);
  if (st == MG_OK) st = mg_text_save(&svg, path, &err);
  mg_text_free(&svg);
  return st == MG_OK ? EXIT_OK : cli_fail(st, &err);
}

/* meshgossip plot: long-format CSV -> SVG */

typedef struct csv_series {
  char panel[64], name[96];
  int style;
  double *x, *y;
  size_t n, cap;
} csv_series;

static int add_point(csv_series *s, double x, double y) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    double *nx = realloc(s->x, cap * sizeof *nx);
    if (!nx) return 0;
    s->x = nx;
    double *ny = realloc(s->y, cap * sizeof *ny);
    if (!ny) return 0;
    s->y = ny;
    s->cap = cap;
  }
  s->x[s->n] = x, s->y[s->n] = y, s->n++;
  return 1;
}

typedef struct point {
  double x, y;
  size_t at; /* order in the file: equal x keep it */
} point;

static int by_x(const void *a, const void *b) {
  const point *p = a, *q = b;
  return p->x < q->x ? -1 : p->x > q->x ? 1 : p->at < q->at ? -1 : p->at > q->at;
}

/* x sorted so that lines run left to right (n log n: an insertion per
 * point took 10 s for 200000 points in falling x, a review) */
static int sort_points(csv_series *s) {
  point *p = s->n ? malloc(s->n * sizeof *p) : NULL;
  if (s->n && !p) return 0;
  for (size_t i = 0; i < s->n; i++)
    p[i] = (point){s->x[i], s->y[i], i};
  if (s->n) qsort(p, s->n, sizeof *p, by_x);
  for (size_t i = 0; i < s->n; i++)
    s->x[i] = p[i].x, s->y[i] = p[i].y;
  free(p);
  return 1;
}

static void chomp(char *s) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
    s[--n] = 0;
}

int cmd_plot(int argc, char **argv) {
  cli_opts o;
  if (!cli_parse(argc, argv, &o, " output ")) return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip plot FILE.csv -o FILE.svg\n\n"
           "Draws a long-format CSV as line plots, one panel per distinct `panel`:\n"
           "  panel,series,x,y[,style]      style: line (default), dashed or bound\n"
           "Lines starting with '#' set options: '# title: T', '# xlabel: X',\n"
           "'# ylabel: Y', '# x: bytes' (log axis in powers of two, 1K/4K labels),\n"
           "'# x: log', '# x: linear', '# y: log' or '# y: linear' (default: log-log; the\n"
           "last line of an axis wins). A value the axes cannot show (not finite, or\n"
           "<= 0 on a log axis) is refused with its line.\n"
           "At most 8 panels and %d series per panel; each series gets its own colour\n"
           "and marker, bounds are black dashed lines, the legend sits below the plot.\n"
           "bench/paragon/plot.sh draws the SMPI experiment with it.\n",
           MG_PLOT_MAX_SERIES);
    return EXIT_OK;
  }
  if (o.npositional != 1 || !o.output) {
    fprintf(stderr, "meshgossip: plot takes one CSV file and -o FILE.svg\n");
    return EXIT_USAGE;
  }
  FILE *f = fopen(o.positional[0], "r");
  if (!f) {
    fprintf(stderr, "meshgossip: cannot open '%s'\n", o.positional[0]);
    return EXIT_USAGE;
  }
  static char title[256], xlabel[128], ylabel[128];
  mg_plot_opts po = {.title = NULL, .xlabel = "x", .ylabel = "y", .logx = 1, .logy = 1};
  csv_series *ser = NULL;
  size_t nser = 0, capser = 0, lineno = 0, npanels = 0;
  char line[1024];
  int code = EXIT_OK, header = 0;
  /* the first row whose point the plot cannot show (found while reading,
   * judged at the end: a '# x:' or '# y:' line may follow the data) */
  size_t bad_line[3] = {0}; /* not finite, x <= 0, y <= 0 */
  double bad_val[3] = {0};
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (!strchr(line, '\n') && !feof(f)) {
      /* fgets would hand the rest over as a line of its own */
      fprintf(stderr, "meshgossip: %s line %zu: longer than %zu characters\n", o.positional[0], lineno,
              sizeof line - 2);
      code = EXIT_USAGE;
      break;
    }
    chomp(line);
    if (!line[0]) continue;
    if (line[0] == '#') {
      char *v;
      if ((v = strstr(line, "title:")) == line + 2) snprintf(title, sizeof title, "%.255s", v + 7), po.title = title;
      if ((v = strstr(line, "xlabel:")) == line + 2)
        snprintf(xlabel, sizeof xlabel, "%.127s", v + 8), po.xlabel = xlabel;
      if ((v = strstr(line, "ylabel:")) == line + 2)
        snprintf(ylabel, sizeof ylabel, "%.127s", v + 8), po.ylabel = ylabel;
      if (!strcmp(line, "# x: bytes")) po.xbytes = 1, po.logx = 1;
      if (!strcmp(line, "# x: log")) po.xbytes = 0, po.logx = 1;
      if (!strcmp(line, "# x: linear")) po.xbytes = 0, po.logx = 0;
      if (!strcmp(line, "# y: log")) po.logy = 1;
      if (!strcmp(line, "# y: linear")) po.logy = 0;
      continue;
    }
    if (!header) {
      header = 1;
      if (strncmp(line, "panel,series,x,y", 16) != 0) {
        fprintf(stderr, "meshgossip: %s: the header must be panel,series,x,y[,style]\n", o.positional[0]);
        code = EXIT_USAGE;
        break;
      }
      continue;
    }
    char *fld[5] = {0}, *p = line;
    int nf = 0;
    while (nf < 5) {
      fld[nf++] = p;
      char *c = strchr(p, ',');
      if (!c) break;
      *c = 0;
      p = c + 1;
    }
    char *e1, *e2;
    double x = nf >= 4 ? strtod(fld[2], &e1) : 0, y = nf >= 4 ? strtod(fld[3], &e2) : 0;
    if (nf < 4 || *e1 || *e2 || !fld[2][0] || !fld[3][0]) {
      fprintf(stderr, "meshgossip: %s line %zu: expected panel,series,x,y[,style]\n", o.positional[0], lineno);
      code = EXIT_USAGE;
      break;
    }
    int why = !isfinite(x) || !isfinite(y) ? 0 : x <= 0 ? 1 : y <= 0 ? 2 : -1;
    if (why >= 0 && !bad_line[why])
      bad_line[why] = lineno, bad_val[why] = why == 2 || (why == 0 && isfinite(x)) ? y : x;
    int style = nf < 5 || !strcmp(fld[4], "line") ? MG_PLOT_LINE
                : !strcmp(fld[4], "dashed")       ? MG_PLOT_DASHED
                : !strcmp(fld[4], "bound")        ? MG_PLOT_BOUND
                                                  : -1;
    if (style < 0) {
      fprintf(stderr, "meshgossip: %s line %zu: style is line, dashed or bound\n", o.positional[0], lineno);
      code = EXIT_USAGE;
      break;
    }
    /* a longer name was cut to fit and then matched no row of its own
     * series: every row became a series of one point (a review: a 70
     * character panel name drew 3 rows as 3 series) */
    if (strlen(fld[0]) >= sizeof ser->panel || strlen(fld[1]) >= sizeof ser->name) {
      fprintf(stderr, "meshgossip: %s line %zu: a panel name takes at most %zu characters, a series name %zu\n",
              o.positional[0], lineno, sizeof ser->panel - 1, sizeof ser->name - 1);
      code = EXIT_USAGE;
      break;
    }
    size_t k = 0, in_panel = 0;
    for (; k < nser && (strcmp(ser[k].panel, fld[0]) || strcmp(ser[k].name, fld[1])); k++)
      in_panel += !strcmp(ser[k].panel, fld[0]);
    if (k == nser) {
      /* the plot's limits are checked as series appear, not after the
       * file: the search above is then over at most 8 x 12 series (a
       * review: 100000 rows of distinct series, 1.3 MB, took 5.5 minutes
       * of searching before the plot refused them) */
      if (in_panel == MG_PLOT_MAX_SERIES || (!in_panel && npanels == 8)) {
        if (in_panel)
          fprintf(stderr, "meshgossip: %s line %zu: more than %d series in one panel\n", o.positional[0], lineno,
                  MG_PLOT_MAX_SERIES);
        else
          fprintf(stderr, "meshgossip: %s line %zu: at most 8 panels\n", o.positional[0], lineno);
        code = EXIT_USAGE;
        break;
      }
      npanels += !in_panel;
      if (nser == capser) {
        size_t cap = capser ? 2 * capser : 16;
        csv_series *ns = realloc(ser, cap * sizeof *ns);
        if (!ns) {
          code = cli_fail(MG_ERR_NOMEM, NULL);
          break;
        }
        ser = ns, capser = cap;
      }
      memset(&ser[nser], 0, sizeof ser[nser]);
      snprintf(ser[nser].panel, sizeof ser[nser].panel, "%s", fld[0]);
      snprintf(ser[nser].name, sizeof ser[nser].name, "%s", fld[1]);
      ser[nser].style = style;
      nser++;
    }
    if (!add_point(&ser[k], x, y)) {
      code = cli_fail(MG_ERR_NOMEM, NULL);
      break;
    }
  }
  fclose(f);
  /* the library leaves such points out (a computed sweep may hold a cost
   * of 0); a CSV's value off the axes is more likely a typo or a missing
   * '# y: linear', so it is refused with its line */
  if (code == EXIT_OK && bad_line[0]) {
    fprintf(stderr, "meshgossip: %s line %zu: %g is not a finite number to plot\n", o.positional[0], bad_line[0],
            bad_val[0]);
    code = EXIT_USAGE;
  } else if (code == EXIT_OK && ((po.logx && bad_line[1]) || (po.logy && bad_line[2]))) {
    int k = po.logx && bad_line[1] ? 1 : 2;
    fprintf(stderr, "meshgossip: %s line %zu: %c = %g cannot go on a log axis (a '# %c: linear' line draws it)\n",
            o.positional[0], bad_line[k], k == 1 ? 'x' : 'y', bad_val[k], k == 1 ? 'x' : 'y');
    code = EXIT_USAGE;
  }
  for (size_t k = 0; code == EXIT_OK && k < nser; k++)
    if (!sort_points(&ser[k])) code = cli_fail(MG_ERR_NOMEM, NULL);
  /* panels in order of first appearance */
  mg_plot_panel panels[8];
  mg_plot_series *flat = nser ? calloc(nser, sizeof *flat) : NULL;
  size_t np = 0, nf = 0;
  if (code == EXIT_OK && !nser) {
    fprintf(stderr, "meshgossip: %s has no data rows\n", o.positional[0]);
    code = EXIT_USAGE;
  }
  if (code == EXIT_OK && !flat) code = cli_fail(MG_ERR_NOMEM, NULL);
  for (size_t k = 0; code == EXIT_OK && k < nser; k++) {
    size_t j = 0;
    while (j < k && strcmp(ser[j].panel, ser[k].panel))
      j++;
    if (j < k) continue; /* panel already gathered */
    if (np == 8) {
      fprintf(stderr, "meshgossip: at most 8 panels\n");
      code = EXIT_USAGE;
      break;
    }
    panels[np] = (mg_plot_panel){ser[k].panel, NULL, flat + nf, 0};
    for (size_t i = k; i < nser; i++)
      if (!strcmp(ser[i].panel, ser[k].panel))
        flat[nf++] = (mg_plot_series){ser[i].name, ser[i].x, ser[i].y, ser[i].n, ser[i].style}, panels[np].nseries++;
    np++;
  }
  if (code == EXIT_OK) {
    mg_text svg = {0};
    mg_err err = {{0}};
    mg_status st = mg_draw_plot(panels, np, &po, &svg, &err);
    if (st == MG_OK) st = mg_text_save(&svg, o.output, &err);
    mg_text_free(&svg);
    if (st != MG_OK)
      code = cli_fail(st, &err);
    else
      fprintf(cli_says(o.output), "wrote %s: %zu panels, %zu series\n", o.output, np, nser);
  }
  for (size_t k = 0; k < nser; k++)
    free(ser[k].x), free(ser[k].y);
  free(ser);
  free(flat);
  return code;
}

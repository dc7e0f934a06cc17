/* meshgossip table NAME: a seed paper's table beside our figures. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *num(double v) { return isnan(v) ? json_null() : json_real(v); }

static void fmt(char *buf, size_t len, double v) {
  if (isnan(v))
    snprintf(buf, len, "-");
  else if (v == floor(v) && fabs(v) < 1e15)
    mg_fmt_double(v, buf, len); /* whole numbers in full: 1441792, not 1.44179e+06 */
  else
    snprintf(buf, len, "%.6g", v);
}

/* The text form: columns as wide as their widest cell (rows, columns and
 * algorithm names vary by table), the values' unit in their headers. */
enum { T_ROW, T_COL, T_ALGO, T_PAPER, T_CLOSED, T_SIM, T_NCOLS };

static void cell_text(const mg_table_cell *c, char out[T_NCOLS][64]) {
  snprintf(out[T_ROW], 64, "%s", c->row);
  snprintf(out[T_COL], 64, "%s", c->col);
  snprintf(out[T_ALGO], 64, "%s", c->algorithm);
  fmt(out[T_PAPER], 64, c->paper);
  fmt(out[T_CLOSED], 64, c->closed_form);
  fmt(out[T_SIM], 64, c->simulated);
}

static void print_text(const mg_table_desc *d, const mg_table *t) {
  char head[T_NCOLS][64], text[T_NCOLS][64];
  const char *unit = d->unit && d->unit[0] ? d->unit : "";
  snprintf(head[T_ROW], 64, "row");
  snprintf(head[T_COL], 64, "col");
  snprintf(head[T_ALGO], 64, "algorithm");
  snprintf(head[T_PAPER], 64, "paper [%s]", unit);
  snprintf(head[T_CLOSED], 64, "closed form [%s]", unit);
  snprintf(head[T_SIM], 64, "simulated [%s]", unit);
  int w[T_NCOLS];
  for (int k = 0; k < T_NCOLS; k++)
    w[k] = (int)strlen(head[k]);
  for (size_t i = 0; i < t->n; i++) {
    cell_text(&t->cells[i], text);
    for (int k = 0; k < T_NCOLS; k++)
      if ((int)strlen(text[k]) > w[k]) w[k] = (int)strlen(text[k]);
  }
  printf("%s\n", d->title);
  printf("%-*s  %-*s  %-*s  %*s  %*s  %*s  params / note\n", w[T_ROW], head[T_ROW], w[T_COL], head[T_COL], w[T_ALGO],
         head[T_ALGO], w[T_PAPER], head[T_PAPER], w[T_CLOSED], head[T_CLOSED], w[T_SIM], head[T_SIM]);
  for (size_t i = 0; i < t->n; i++) {
    const mg_table_cell *c = &t->cells[i];
    char ps[128];
    cell_text(c, text);
    mg_params_format(&c->params, ps, sizeof ps);
    printf("%-*s  %-*s  %-*s  %*s  %*s  %*s  %s%s%s\n", w[T_ROW], text[T_ROW], w[T_COL], text[T_COL], w[T_ALGO],
           text[T_ALGO], w[T_PAPER], text[T_PAPER], w[T_CLOSED], text[T_CLOSED], w[T_SIM], text[T_SIM], ps,
           ps[0] && c->note[0] ? "; " : "", c->note);
  }
}

int cmd_table(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " json mem-limit ")) return EXIT_USAGE;
  if (!o.help && o.npositional != 1) {
    fprintf(stderr, "meshgossip: table takes one NAME (see 'meshgossip table --help')\n");
    return EXIT_USAGE;
  }
  if (o.help) {
    FILE *f = stdout;
    fprintf(f, "usage: meshgossip table NAME [--json] [--mem-limit BYTES]\n\nReproduces a table of a seed paper: in "
               "each cell the paper's\n"
               "value, our closed form and our simulated, verified figure.\n\ntables:\n");
    for (size_t i = 0; i < mg_table_count(); i++) {
      fprintf(f, "  %-14s %s\n", mg_table_at(i)->name, mg_table_at(i)->title);
    }
    fprintf(f, "\nexample:\n  meshgossip table juurlink-t1\n");
    return EXIT_OK;
  }
  const mg_table_desc *d = mg_table_find(o.positional[0]);
  if (!d) {
    fprintf(stderr, "meshgossip: unknown table '%s' (see 'meshgossip table --help')\n", o.positional[0]);
    return EXIT_USAGE;
  }
  mg_table t;
  memset(&t, 0, sizeof t);
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  so.progress = NULL;
  cli_step_progress(&so, d->name);
  mg_status st = d->build(&t, &so, &err);
  cli_progress_done();
  if (st != MG_OK) {
    mg_table_free(&t);
    return cli_fail(st, &err);
  }
  if (o.json) {
    json_t *cells = json_array();
    for (size_t i = 0; i < t.n; i++) {
      const mg_table_cell *c = &t.cells[i];
      json_t *j = json_pack("{s:s, s:s, s:s}", "row", c->row, "col", c->col, "algorithm", c->algorithm);
      json_object_set_new(j, "paper", num(c->paper));
      json_object_set_new(j, "closed_form", num(c->closed_form));
      json_object_set_new(j, "simulated", num(c->simulated));
      json_object_set_new(j, "params", cli_params_json(&c->params));
      json_object_set_new(j, "note", json_string(c->note));
      json_array_append_new(cells, j);
    }
    cli_print_json(json_pack("{s:s, s:s, s:o}", "table", d->name, "unit", d->unit ? d->unit : "", "cells", cells));
  } else {
    print_text(d, &t);
  }
  mg_table_free(&t);
  return EXIT_OK;
}

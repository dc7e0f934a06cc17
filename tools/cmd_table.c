/* meshgossip table NAME: a seed paper's table beside our figures. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *num(double v) { return isnan(v) ? json_null() : json_real(v); }

static void fmt(char *buf, size_t len, double v) {
  if (isnan(v))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.6g", v);
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
      char title[256];
      fprintf(f, "  %-14s %s\n", mg_table_at(i)->name, cli_cite(mg_table_at(i)->title, title, sizeof title));
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
    cli_print_json(json_pack("{s:s, s:o}", "table", d->name, "cells", cells));
  } else {
    printf("%s\n%-28s %-10s %-14s %12s %12s %12s  %s\n", d->title, "row", "col", "algorithm", "paper", "closed form",
           "simulated", "params / note");
    for (size_t i = 0; i < t.n; i++) {
      const mg_table_cell *c = &t.cells[i];
      char p[32], cf[32], sm[32], ps[128];
      fmt(p, sizeof p, c->paper);
      fmt(cf, sizeof cf, c->closed_form);
      fmt(sm, sizeof sm, c->simulated);
      mg_params_format(&c->params, ps, sizeof ps);
      printf("%-28s %-10s %-14s %12s %12s %12s  %s%s%s\n", c->row, c->col, c->algorithm, p, cf, sm, ps,
             ps[0] && c->note[0] ? "; " : "", c->note);
    }
  }
  mg_table_free(&t);
  return EXIT_OK;
}

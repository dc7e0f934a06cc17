/* Tseng, Ni, Sheu 1999 Table 5: limit (d -> infinity) speedups on transmission time of
 * T4 over T-2D1, T-2D2, DP-2D and of C64 over T-3D1, T-3D2, DP-3D. Paper:
 * the printed fractions; closed form: the ratio of the Table 3/4 formulas
 * at d = 60 (the lower-order terms are below 1e-8 there); simulated: the
 * same ratio with T4's simulated transmission at d = 6 (finite d). */
#include "tables.h"
#include "../analytic/tseng.h"

#include <math.h>
#include <stdio.h>

static mg_status build(mg_table *out, const mg_sim_opts *opts, mg_err *err) {
  mg_status st = MG_OK;
  const char *name[6] = {"T-2D1", "T-2D2", "DP-2D", "T-3D1", "T-3D2", "DP-3D"};
  const double paper[6] = {216.0 / 65, 144.0 / 65, 96.0 / 65, 480.0 / 65, 144.0 / 65, 96.0 / 65};
  double s6 = NAN, b6 = NAN;
  if ((st = mg_tseng_simulate("exchange-partitioned", "torus:64x64", opts, &s6, &b6, err)) != MG_OK) return st;
  for (int i = 0; i < 6; i++) {
    int three = i >= 3;
    mg_tseng_cost them, us;
    mg_tseng_table(name[i], 60, &them);
    us = three ? mg_tseng_thm3(60) : mg_tseng_thm2(60);
    mg_table_cell c = mg_table_cell_empty();
    snprintf(c.row, sizeof c.row, "%s/%s", name[i], three ? "C64" : "T4");
    snprintf(c.col, sizeof c.col, "speedup d->inf");
    snprintf(c.algorithm, sizeof c.algorithm, "%s", three ? "C64" : "T4");
    c.paper = paper[i];
    c.closed_form = them.blocks / us.blocks;
    if (!three) {
      mg_tseng_cost t6;
      mg_tseng_table(name[i], 6, &t6);
      c.simulated = t6.blocks / b6;
      snprintf(c.note, sizeof c.note, "simulated: d = 6, T4 simulated on torus:64x64");
    } else {
      snprintf(c.note, sizeof c.note, "no simulation: 3D tables start at 32^3");
    }
    if ((st = mg_table_add(out, &c, err)) != MG_OK) return st;
  }
  return st;
}

const mg_table_desc mg_table_tseng_t5 = {
    .name = "tseng-t5",
    .title = "Tseng, Ni, Sheu 1999 Table 5: limit speedups on transmission time",
    .unit = "ratio",
    .build = build,
};

/* meshgossip draw: one algorithm's rounds as SVG (arrows along the
 * routes, shared arcs marked), or its link-load heatmap. */
#include "cli.h"
#include "meshgossip_draw.h"

#include "../src/util/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void) {
  printf("usage: meshgossip draw --algo NAME[:k=v,...] --topo SPEC [--model SPEC | --r R] [--bytes L]\n"
         "                       [--round K | --all | --heatmap] -o FILE.svg\n\n"
         "Runs the schedule through the simulator and draws it: the machine as a grid\n"
         "(rings as a circle, lines as a row, 3D as a row of z-slices, mesh-bus with its\n"
         "buses), each transfer of a round an arrow along its route coloured by the items\n"
         "it carries, arcs used by two or more transfers of the round marked in red, the\n"
         "round's cost and its start-up/hop/transfer split in the caption.\n\n"
         "  --round K   round K only (counted from 0)\n"
         "  --all       every round, one panel each (the default; at most 64 panels)\n"
         "  --heatmap   the load of every arc in every round (arcs x rounds)\n"
         "Machines over 32x32 (or 1024 nodes; rings over 128) get the heatmap.\n"
         "An algorithm whose transfers share arcs (the MPI libraries') is priced under\n"
         "contention=shared unless --model sets contention.\n"
         "The SVG is machine-readable: class \"transfer\" per transfer, \"shared\" per\n"
         "shared arc, \"cell\" per heatmap cell, with data-round/src/dst/items/load.\n\n"
         "examples:\n"
         "  meshgossip draw --algo torgos --topo torus:9x9 --r 10 --all -o torgos.svg\n"
         "  meshgossip draw --algo mpi-allgather-bruck --topo torus:4x4 --round 2 -o bruck.svg\n"
         "  meshgossip draw --algo mpi-allgather-ring --topo torus:8x8 --heatmap -o ring-load.svg\n");
}

int cmd_draw(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " algo topo model r bytes round all heatmap output mem-limit ")) return EXIT_USAGE;
  if (o.help) {
    help();
    return EXIT_OK;
  }
  if (cli_extra_argument(&o)) return EXIT_USAGE;
  if (!o.algo || !o.output) {
    fprintf(stderr, "meshgossip: draw needs --algo and -o FILE.svg (see --help)\n");
    return EXIT_USAGE;
  }
  if ((o.round != NULL) + o.all + o.heatmap > 1) {
    fprintf(stderr, "meshgossip: give one of --round, --all, --heatmap\n");
    return EXIT_USAGE;
  }
  int64_t round = -1;
  if (o.round) {
    /* digits only, as every count: strtoll took " +2" (and clamped a
     * number past int64, refused now as written) */
    uint64_t k;
    if (!mg_parse_u64(o.round, &k) || k > INT64_MAX) {
      fprintf(stderr, "meshgossip: --round takes a round number >= 0, not '%s'\n", o.round);
      return EXIT_USAGE;
    }
    round = (int64_t)k;
  }
  const mg_algo *a;
  mg_params ps;
  mg_problem_spec pb;
  mg_status st;
  if ((st = mg_algo_lookup(o.algo, &a, &ps, &err)) != MG_OK) return cli_fail(st, &err);
  if ((st = cli_problem(&o, a->problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  if (a->needs_shared && !cli_model_sets_contention(&o)) pb.model.contention = MG_CONT_SHARED;
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  mg_trace_opts to = {.max_kept = 64,
                      .keep = o.heatmap || !mg_draw_arrows_fit(&pb.topo) ? MG_TRACE_KEEP_NONE
                              : round >= 0                               ? round
                                                                         : MG_TRACE_KEEP_ALL};
  mg_trace *t = NULL;
  mg_report rep;
  st = mg_trace_run(a, &pb, &ps, &so, &to, &t, &rep, &err);
  cli_progress_done();
  if (st != MG_OK && st != MG_ERR_VIOLATION) return cli_fail(st, &err);
  int code = st == MG_OK ? EXIT_OK : EXIT_INVALID_SCHEDULE;
  if (st != MG_OK && t->nrounds == 0) {
    /* the very first round breaks a rule: nothing to draw */
    mg_trace_free(t);
    mg_report_free(&rep);
    return cli_fail(st, &err);
  }
  mg_text svg = {0};
  mg_err derr = {{0}};
  if (o.heatmap || !mg_draw_arrows_fit(&pb.topo))
    st = mg_draw_heatmap(t, &svg, &derr);
  else
    st = mg_draw_rounds(t, round, &svg, &derr);
  if (st == MG_OK) st = mg_text_save(&svg, o.output, &derr);
  if (st == MG_OK) {
    /* one line: the rule, as run says it, and what the picture holds */
    if (t->rejected)
      fprintf(stderr, "meshgossip: %s [%s]; only the %zu round%s before it ran and can be drawn%s\n", t->violation.msg,
              mg_rule_name(t->violation.rule), t->nrounds, t->nrounds == 1 ? "" : "s", cli_shared_hint(a, &pb.model));
    uint64_t shared = 0, xfers = 0;
    size_t drawn = 0;
    double run_cost = 0;
    for (size_t r = 0; r < t->nrounds; r++) {
      run_cost += t->rounds[r].cost;
      if (t->rounds[r].kept) drawn++, xfers += t->rounds[r].n, shared += t->rounds[r].shared_arcs;
    }
    /* a rejected schedule: the counts are of the rounds run, not the
     * schedule's, and the line says where it broke */
    char why[160] = "";
    if (t->rejected && t->violation.round < 0)
      snprintf(why, sizeof why, " (the schedule ends incomplete: %s)", mg_rule_name(t->violation.rule));
    else if (t->rejected && t->info.rounds_hint > 0)
      snprintf(why, sizeof why, " run before round %lld broke the %s rule (the schedule has %lld rounds)",
               (long long)t->violation.round, mg_rule_name(t->violation.rule), (long long)t->info.rounds_hint);
    else if (t->rejected)
      snprintf(why, sizeof why, " run before round %lld broke the %s rule", (long long)t->violation.round,
               mg_rule_name(t->violation.rule));
    char x[32];
    if (o.heatmap || !mg_draw_arrows_fit(&pb.topo))
      fprintf(cli_says(o.output), "wrote %s: link-load heatmap, %u arc rows x %zu rounds%s, busiest arc %s bytes\n",
              o.output, t->hm_rows, t->nrounds, why, mg_fmt_double(rep.max_arc_load, x, sizeof x));
    else
      fprintf(cli_says(o.output), "wrote %s: %zu of %zu rounds%s, %llu transfers, %llu shared arcs, cost %s%s\n",
              o.output, drawn, t->nrounds, why, (unsigned long long)xfers, (unsigned long long)shared,
              mg_fmt_double(t->rejected ? run_cost : rep.cost, x, sizeof x), t->rejected ? " up to there" : "");
  } else {
    code = cli_fail(st, &derr);
  }
  mg_text_free(&svg);
  mg_trace_free(t);
  mg_report_free(&rep);
  return code;
}

json_t *cli_utilisation_json(const mg_trace *t) {
  json_t *rounds = json_array();
  for (size_t r = 0; r < t->nrounds; r++) {
    const mg_trace_round *x = &t->rounds[r];
    json_array_append_new(
        rounds, json_pack("{s:I, s:f, s:f, s:I, s:I, s:f, s:f}", "transfers", (json_int_t)x->transfers, "cost", x->cost,
                          "max_arc_load", x->max_load, "used_arcs", (json_int_t)x->used_arcs, "shared_arcs",
                          (json_int_t)x->shared_arcs, "mean_busy", x->mean_busy, "max_busy", x->max_busy));
  }
  return json_pack("{s:I, s:I, s:f, s:f, s:o}", "arcs", (json_int_t)t->narcs, "idle_arcs", (json_int_t)t->idle_arcs,
                   "mean_busy", t->mean_busy, "max_busy", t->max_busy, "rounds", rounds);
}

void cli_print_utilisation(const mg_trace *t) {
  uint64_t shared = 0, used = 0;
  size_t busy = 0;
  for (size_t r = 0; r < t->nrounds; r++) {
    shared += t->rounds[r].shared_arcs;
    if (t->rounds[r].transfers) used += t->rounds[r].used_arcs, busy++;
  }
  printf("links          %llu arcs%s, %llu idle in every round, %.1f in use per round on average, %llu shared "
         "arc-rounds\n",
         (unsigned long long)t->narcs, t->info.topo.kind == MG_TOPO_MESHBUS ? " (buses)" : "",
         (unsigned long long)t->idle_arcs, busy ? (double)used / (double)busy : 0.0, (unsigned long long)shared);
  printf("utilisation    busy fraction (arc bytes x tl / round cost) mean %.1f%%, max %.1f%% over %zu rounds\n",
         100 * t->mean_busy, 100 * t->max_busy, busy);
}

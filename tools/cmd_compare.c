/* meshgossip compare: every applicable algorithm, ranked by verified cost. */
#include "cli.h"

#include "../src/util/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One table of `compare`: the rows for one message size, JSON form. */
static json_t *rows_json(const mg_compare_row *rows, size_t n, const mg_engine_result *eng) {
  json_t *res = json_array();
  for (size_t i = 0; i < n; i++) {
    const mg_compare_row *r = &rows[i];
    json_t *j = json_pack("{s:s, s:o}", "algorithm", r->algo->name, "params", cli_params_json(&r->params));
    if (r->refused)
      json_object_set_new(j, "refused", json_string(r->reason));
    else {
      json_object_set_new(j, "verified", json_boolean(r->rep.verified));
      json_object_set_new(j, "cost", json_real(r->rep.cost));
      json_object_set_new(j, "rounds", json_integer(r->rep.rounds));
      json_object_set_new(j, "ratio_to_bound", json_real(r->rep.ratio_to_bound));
      if (!r->rep.verified) json_object_set_new(j, "violation", cli_violation_json(&r->rep));
      if (eng && eng[i].ran) json_object_set_new(j, "engine", cli_engine_json(&eng[i]));
    }
    json_array_append_new(res, j);
  }
  return res;
}

static const char *best_of(const mg_compare_row *rows, size_t n) {
  return n && !rows[0].refused && rows[0].rep.verified ? rows[0].algo->name : NULL;
}

static void free_rows(mg_compare_row *rows, size_t n) {
  for (size_t i = 0; i < n; i++)
    mg_report_free(&rows[i].rep);
  free(rows);
}

/* --spec: the sweep's winners as one per-size spec for the executor and the
 * interposer (MESHGOSSIP_ALLGATHER / _ALLTOALL, src/algo/spec_size.c):
 * "A<=s1;B<=s2;C", a run of sizes with the same winner one entry bounded
 * by its largest size, the last entry unbounded. Sizes ascending. */
static int spec_add(char *spec, size_t len, const char *entry, double upto, int last) {
  size_t used = strlen(spec);
  int w = last ? snprintf(spec + used, len - used, "%s%s", used ? ";" : "", entry)
               : snprintf(spec + used, len - used, "%s%s<=%.0f", used ? ";" : "", entry, upto);
  if (w < 0 || (size_t)w >= len - used) {
    spec[used] = 0; /* nothing half written */
    return 0;
  }
  return 1;
}

/* --sizes: one compare per size; CSV (one row per size, one column per
 * algorithm of the problem in registry order, empty where refused or not
 * verified) or one JSON object; with --spec only the per-size spec. */
static int sweep(const cli_opts *o, mg_problem problem, mg_problem_spec *pb, const mg_sim_opts *so) {
  double sizes[64];
  size_t ns;
  mg_err err = {{0}};
  if (!cli_parse_sizes(o->sizes, sizes, 64, &ns)) {
    fprintf(stderr, "meshgossip: --sizes takes up to 64 positive sizes, e.g. 1024,4096,32K,1MiB\n");
    return EXIT_USAGE;
  }
  for (size_t k = 1; o->spec && k < ns; k++)
    if (!(sizes[k] > sizes[k - 1])) {
      fprintf(stderr, "meshgossip: --spec needs --sizes in ascending order\n");
      return EXIT_USAGE;
    }
  char topo[128], spec[4096] = "", prev[256] = ""; /* prev: the last winner, NAME[:PARAMS] */
  double prev_size = 0;
  int have_prev = 0;
  size_t na = mg_algo_count();
  double *costs = o->plot ? cli_sweep_alloc(na, ns) : NULL; /* [algo * ns + size], NaN = none */
  if (o->plot && !costs) return cli_fail(MG_ERR_NOMEM, NULL);
  json_t *jrows = json_array();
  if (!o->json && !o->spec) {
    printf("bytes");
    for (size_t a = 0; a < mg_algo_count(); a++)
      if (mg_algo_at(a)->problem == problem) printf(",%s", mg_algo_at(a)->name);
    printf(",best,lower_bound\n");
  }
  for (size_t k = 0; k < ns; k++) {
    mg_compare_row *rows;
    size_t n;
    pb->bytes = sizes[k];
    mg_status st = mg_compare(pb, so, 1, &rows, &n, &err);
    cli_progress_done();
    if (st != MG_OK) {
      json_decref(jrows);
      free(costs);
      return cli_fail(st, &err);
    }
    mg_bound b;
    if (mg_lower_bound(pb, &b, NULL) != MG_OK) b.lower_bound = 0;
    for (size_t i = 0; costs && i < n; i++)
      if (!rows[i].refused && rows[i].rep.verified)
        for (size_t a = 0; a < na; a++)
          if (mg_algo_at(a) == rows[i].algo) costs[a * ns + k] = rows[i].rep.cost;
    if (costs) costs[na * ns + k] = b.lower_bound;
    const char *best = best_of(rows, n);
    if (o->spec) {
      char entry[256], ps[160];
      int code = EXIT_OK;
      /* the schedule's own parameters, where it spelled its choices
       * (dimwise's automatic phases): the executor then runs that plan
       * under any model */
      const mg_params *bp = best && rows[0].rep.params.n ? &rows[0].rep.params : &rows[0].params;
      if (best && bp->n)
        snprintf(entry, sizeof entry, "%s:%s", best, mg_params_format(bp, ps, sizeof ps));
      else
        snprintf(entry, sizeof entry, "%s", best ? best : "");
      if (!best) {
        fprintf(stderr, "meshgossip: no algorithm verifies at %.0f bytes: no spec\n", sizes[k]);
        code = EXIT_INVALID_SCHEDULE;
      } else if (have_prev && strcmp(entry, prev) && !spec_add(spec, sizeof spec, prev, prev_size, 0)) {
        fprintf(stderr, "meshgossip: the spec is longer than %zu bytes\n", sizeof spec);
        code = EXIT_TOO_LARGE;
      }
      if (code != EXIT_OK) {
        free_rows(rows, n);
        json_decref(jrows);
        free(costs);
        return code;
      }
      snprintf(prev, sizeof prev, "%s", entry);
      prev_size = sizes[k], have_prev = 1;
    } else if (o->json) {
      json_t *j = json_pack("{s:f, s:o}", "bytes", sizes[k], "results", rows_json(rows, n, NULL));
      json_object_set_new(j, "best", best ? json_string(best) : json_null());
      json_object_set_new(j, "lower_bound", json_real(b.lower_bound));
      json_array_append_new(jrows, j);
    } else {
      char x[32];
      printf("%s", mg_fmt_double(sizes[k], x, sizeof x));
      for (size_t a = 0; a < mg_algo_count(); a++) {
        if (mg_algo_at(a)->problem != problem) continue;
        printf(",");
        for (size_t i = 0; i < n; i++)
          if (rows[i].algo == mg_algo_at(a) && !rows[i].refused && rows[i].rep.verified)
            printf("%s", mg_fmt_double(rows[i].rep.cost, x, sizeof x));
      }
      printf(",%s,%s\n", best ? best : "", mg_fmt_double(b.lower_bound, x, sizeof x));
    }
    free_rows(rows, n);
  }
  if (o->spec) {
    json_decref(jrows);
    if (!spec_add(spec, sizeof spec, prev, prev_size, 1)) {
      fprintf(stderr, "meshgossip: the spec is longer than %zu bytes\n", sizeof spec);
      free(costs);
      return EXIT_TOO_LARGE;
    }
    printf("%s\n", spec);
  } else if (o->json) {
    json_t *j =
        json_pack("{s:s, s:s, s:o, s:o}", "problem", mg_problem_name(problem), "topology",
                  mg_topo_format(&pb->topo, topo, sizeof topo), "model", cli_model_json(&pb->model), "sizes", jrows);
    cli_print_json(j);
  } else {
    json_decref(jrows);
  }
  int code = costs ? cli_sweep_plot(o->plot, pb, sizes, ns, costs) : EXIT_OK;
  free(costs);
  return code;
}

int cmd_compare(int argc, char **argv) {
  cli_opts o;
  mg_err err = {{0}};
  if (!cli_parse(argc, argv, &o, " problem topo model r bytes sizes plot json all mem-limit engine timing spec "))
    return EXIT_USAGE;
  if (o.help) {
    printf("usage: meshgossip compare --problem gossip|exchange --topo SPEC [--model SPEC | --r R]\n"
           "                          [--bytes L | --sizes LIST [--plot FILE.svg] [--spec]] [--json] [--all]\n"
           "                          [--timing sync|async|ranks] [--engine simgrid[:...]] [--mem-limit BYTES]\n\n"
           "Runs every registered algorithm of the problem that applies to the topology\n"
           "and model (tunable ones tuned), verifies each, and ranks them by cost beside\n"
           "the lower bound. Algorithms that do not apply are named in one line at the\n"
           "end (--all: one row each, with the reason; --json always gives the reasons).\n\n"
           "Every algorithm is priced by the same rule. Unless --model sets contention,\n"
           "compare uses contention=shared: a round costs its largest start-up and hop\n"
           "terms plus the bytes on its busiest arc times tl (docs/models.md), so the\n"
           "MPI baselines, whose transfers share arcs, are priced rather than rejected.\n"
           "With contention=strict they are listed as not verified, the arc named.\n\n"
           "  --sizes LIST  sweep message sizes (e.g. 1024,4096,32K): prints CSV, one row\n"
           "                per size, one column per algorithm (empty = refused or not\n"
           "                verified), then the best and the lower bound; with --json one\n"
           "                object with a table per size.\n"
           "  --spec        with --sizes (ascending): prints only the winners as one\n"
           "                per-size spec, A<=BYTES;B<=BYTES;C, for MESHGOSSIP_ALLGATHER /\n"
           "                MESHGOSSIP_ALLTOALL and mg_mpi_opts.algo (docs/mpi.md).\n"
           "  --plot FILE.svg  with --sizes: draws the sweep, cost and cost/bound against\n"
           "                the size, one line per algorithm, the lower bound dashed.\n"
           "  --engine simgrid[:o=S,or=S,sync=data|rank,network=cm02|smpi]  also replays\n"
           "                every verified schedule on SimGrid (docs/engine.md) and prints\n"
           "                its time beside the model's cost (not with --sizes).\n\n"
           "examples:\n  meshgossip compare --problem gossip --topo ring:81 --r 10\n"
           "  meshgossip compare --problem gossip --topo torus:9x9 --model ts=3e-4,tl=2.2e-8 --bytes 32768\n"
           "  meshgossip compare --problem exchange --topo torus:8x8 --model ts=1e-6,tl=1e-9 --sizes 64,1K,16K\n");
    return EXIT_OK;
  }
  if (cli_extra_argument(&o)) return EXIT_USAGE;
  if (o.plot && mg_outfile_is_stdout(o.plot)) {
    fprintf(stderr, "meshgossip: --plot to standard output would mix the picture with the table: give a file\n");
    return EXIT_USAGE;
  }
  if ((o.plot || o.spec) && !o.sizes) {
    fprintf(stderr, "meshgossip: --%s goes with --sizes\n", o.plot ? "plot" : "spec");
    return EXIT_USAGE;
  }
  if (o.sizes && o.have_bytes) {
    fprintf(stderr, "meshgossip: give either --bytes or --sizes, not both\n");
    return EXIT_USAGE;
  }
  mg_engine_opts eo;
  int ecode = cli_engine_setup(&o, &eo);
  if (ecode >= 0) return ecode;
  if (eo.kind != MG_ENGINE_MODEL && o.sizes) {
    fprintf(stderr, "meshgossip: --engine goes with --bytes, not --sizes\n");
    return EXIT_USAGE;
  }
  mg_problem problem;
  if (!o.problem) {
    fprintf(stderr, "meshgossip: compare needs --problem gossip or --problem exchange\n");
    return EXIT_USAGE;
  }
  mg_status st = mg_problem_parse(o.problem, &problem, &err);
  if (st != MG_OK) return cli_fail(st, &err);
  mg_problem_spec pb;
  if ((st = cli_problem(&o, problem, &pb, &err)) != MG_OK) return cli_fail(st, &err);
  /* one contention rule for every algorithm: shared unless asked */
  if (!cli_model_sets_contention(&o)) pb.model.contention = MG_CONT_SHARED;
  int code = cli_size_check(&o, &pb);
  if (code != EXIT_OK) return code;
  mg_sim_opts so;
  cli_sim_opts(&o, &so);
  so.progress = NULL;
  cli_step_progress(&so, "compare");
  if (o.sizes) return sweep(&o, problem, &pb, &so);
  mg_compare_row *rows;
  size_t n;
  st = mg_compare(&pb, &so, 1, &rows, &n, &err);
  cli_progress_done();
  if (st != MG_OK) return cli_fail(st, &err);
  /* the engine replays every verified schedule */
  mg_engine_result *eng = NULL;
  if (eo.kind != MG_ENGINE_MODEL) {
    eng = calloc(n ? n : 1, sizeof *eng);
    if (!eng) {
      free_rows(rows, n);
      return cli_fail(MG_ERR_NOMEM, NULL);
    }
    for (size_t i = 0; i < n; i++) {
      if (rows[i].refused || !rows[i].rep.verified) continue;
      mg_report rep;
      st = mg_engine_run(rows[i].algo, &pb, &rows[i].params, &so, &eo, cli_engine_replay(), &rep, &eng[i], &err);
      mg_report_free(&rep);
      if (st == MG_ERR_UNSUPPORTED || st == MG_ERR_TOO_LARGE) {
        /* the engine cannot replay this one (its row shows '-'): say why, go on */
        fprintf(stderr, "meshgossip: simgrid does not replay %s: %s\n", rows[i].algo->name, err.msg);
        memset(&eng[i], 0, sizeof eng[i]);
        continue;
      }
      if (st != MG_OK) {
        free(eng);
        free_rows(rows, n);
        return cli_fail(st, &err);
      }
    }
  }
  mg_bound b;
  if (mg_lower_bound(&pb, &b, NULL) != MG_OK) b.lower_bound = 0;
  const char *best = best_of(rows, n);
  char topo[128], ps[256];
  if (o.json) {
    json_t *j = json_pack("{s:s, s:s, s:o, s:f, s:o}", "problem", mg_problem_name(problem), "topology",
                          mg_topo_format(&pb.topo, topo, sizeof topo), "model", cli_model_json(&pb.model), "bytes",
                          pb.bytes, "results", rows_json(rows, n, eng));
    json_object_set_new(j, "best", best ? json_string(best) : json_null());
    json_object_set_new(j, "lower_bound", json_real(b.lower_bound));
    cli_print_json(j);
  } else {
    char model[768];
    char by[32];
    printf("%s on %s, %s bytes, %s\n", mg_problem_name(problem), mg_topo_format(&pb.topo, topo, sizeof topo),
           mg_fmt_double(pb.bytes, by, sizeof by), mg_model_format(&pb.model, model, sizeof model));
    char lb[32];
    size_t nrefused = 0;
    char costh[32];
    snprintf(costh, sizeof costh, "cost (%s)", cli_cost_unit());
    printf("lower bound %s %s\n\n%-4s %-24s %14s %8s %8s  %s%s\n", mg_fmt_double(b.lower_bound, lb, sizeof lb),
           cli_cost_unit(), "", "algorithm", costh, "rounds", "ratio", eng ? "   simgrid (s)  " : "", "params");
    for (size_t i = 0; i < n; i++) {
      const mg_compare_row *r = &rows[i];
      char cost[32], sg[32] = "";
      if (eng && eng[i].ran)
        snprintf(sg, sizeof sg, "%14.8g  ", eng[i].time_s);
      else if (eng)
        snprintf(sg, sizeof sg, "%14s  ", "-");
      if (r->refused && !o.all) {
        nrefused++;
        continue;
      }
      if (r->refused)
        printf("     %-24s %14s %8s %8s  refused: %s\n", r->algo->name, "-", "-", "-", r->reason);
      else if (!r->rep.verified) /* a schedule that broke a rule has no cost */
        printf("     %-24s %14s %8lld %8s  %sNOT VERIFIED: %s\n", r->algo->name, "-", (long long)r->rep.rounds, "-",
               mg_params_format(&r->params, ps, sizeof ps), r->rep.violation.msg);
      else
        printf("%-4s %-24s %14s %8lld %8.3f  %s%s\n", best && i == 0 ? "best" : "", r->algo->name,
               mg_fmt_double(r->rep.cost, cost, sizeof cost), (long long)r->rep.rounds, r->rep.ratio_to_bound, sg,
               mg_params_format(&r->params, ps, sizeof ps));
    }
    if (nrefused) { /* one line unless --all */
      printf("\nrefused (%zu, --all for the reasons):", nrefused);
      for (size_t i = 0, k = 0; i < n; i++)
        if (rows[i].refused) printf("%s %s", k++ ? "," : "", rows[i].algo->name);
      printf("\n");
    }
  }
  free(eng);
  free_rows(rows, n);
  return EXIT_OK;
}

/* Option parsing, status mapping and report printing shared by commands. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int parse_double(const char *s, double *v) {
  char *end;
  if (!s || !*s) return 0;
  *v = strtod(s, &end);
  return *end == 0 && isfinite(*v);
}

int cli_parse(int argc, char **argv, cli_opts *o, const char *allowed) {
  memset(o, 0, sizeof *o);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      o->help = 1;
      continue;
    }
    if (a[0] != '-' || a[1] != '-') {
      if (o->npositional == 4) {
        fprintf(stderr, "meshgossip: too many arguments\n");
        return 0;
      }
      o->positional[o->npositional++] = a;
      continue;
    }
    const char *name = a + 2;
    char key[32];
    snprintf(key, sizeof key, " %s ", name);
    if (!strstr(allowed, key)) {
      fprintf(stderr, "meshgossip: unknown option '%s' (see --help)\n", a);
      return 0;
    }
    if (!strcmp(name, "json")) {
      o->json = 1;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "meshgossip: option '%s' needs a value\n", a);
      return 0;
    }
    const char *v = argv[++i];
    if (!strcmp(name, "algo"))
      o->algo = v;
    else if (!strcmp(name, "topo"))
      o->topo = v;
    else if (!strcmp(name, "model"))
      o->model = v;
    else if (!strcmp(name, "problem"))
      o->problem = v;
    else if (!strcmp(name, "export"))
      o->export_path = v;
    else if (!strcmp(name, "sizes"))
      o->sizes = v;
    else if (!strcmp(name, "timing"))
      o->timing = v;
    else if (!strcmp(name, "r")) {
      if (!parse_double(v, &o->r) || o->r < 0) {
        fprintf(stderr, "meshgossip: --r must be a finite number >= 0, not '%s'\n", v);
        return 0;
      }
      o->have_r = 1;
    } else if (!strcmp(name, "bytes")) {
      if (!parse_double(v, &o->bytes) || o->bytes < 0) {
        fprintf(stderr, "meshgossip: --bytes must be a finite number >= 0, not '%s'\n", v);
        return 0;
      }
      o->have_bytes = 1;
    } else if (!strcmp(name, "mem-limit")) {
      char *end;
      double x = strtod(v, &end);
      double mul = *end == 'G' ? 1073741824.0 : *end == 'M' ? 1048576.0 : *end == 'K' ? 1024.0 : 1.0;
      if ((*end && end[1]) || !(x > 0) || !isfinite(x)) {
        fprintf(stderr, "meshgossip: --mem-limit takes bytes, e.g. 512M or 2G\n");
        return 0;
      }
      o->mem_limit = (uint64_t)(x * mul);
    }
  }
  return 1;
}

static mg_status usage_error(mg_err *err, const char *msg) {
  snprintf(err->msg, sizeof err->msg, "%s", msg);
  return MG_ERR_INVALID;
}

mg_status cli_problem(const cli_opts *o, mg_problem problem, mg_problem_spec *pb, mg_err *err) {
  mg_status st;
  memset(pb, 0, sizeof *pb);
  pb->problem = problem;
  if (!o->topo) return usage_error(err, "--topo is required (e.g. --topo torus:9x9)");
  if ((st = mg_topo_parse(o->topo, &pb->topo, err)) != MG_OK) return st;
  mg_model_default(&pb->model);
  if (pb->topo.kind == MG_TOPO_MESHBUS) pb->model.switching = MG_SW_BUS;
  pb->bytes = 1.0;
  if (o->have_r && o->model) return usage_error(err, "give either --model or --r, not both");
  if (o->have_r && (st = mg_model_paper_units(&pb->model, o->r, err)) != MG_OK) return st;
  if (o->model && (st = mg_model_parse(o->model, &pb->model, err)) != MG_OK) return st;
  if (o->timing) {
    char spec[64];
    snprintf(spec, sizeof spec, "timing=%s", o->timing);
    if ((st = mg_model_parse(spec, &pb->model, err)) != MG_OK) return st;
  }
  if (o->have_bytes) pb->bytes = o->bytes;
  return MG_OK;
}

int cli_exit_code(mg_status st) {
  switch (st) {
  case MG_OK: return EXIT_OK;
  case MG_ERR_VIOLATION: return EXIT_INVALID_SCHEDULE;
  case MG_ERR_TOO_LARGE:
  case MG_ERR_NOMEM: return EXIT_TOO_LARGE;
  default: return EXIT_USAGE;
  }
}

int cli_fail(mg_status st, const mg_err *err) {
  fprintf(stderr, "meshgossip: %s\n", err && err->msg[0] ? err->msg : mg_strerror(st));
  return cli_exit_code(st);
}

static double progress_t0, progress_last;
static int progress_shown;

static void progress(void *arg, int64_t round, int64_t total) {
  (void)arg;
  double now = mg_now();
  if (now - progress_t0 < 1.0 || now - progress_last < 0.25) return;
  progress_last = now;
  progress_shown = 1;
  if (total > 0)
    fprintf(stderr, "\rround %lld of %lld", (long long)round, (long long)total);
  else
    fprintf(stderr, "\rround %lld", (long long)round);
  fflush(stderr);
}

void cli_progress_done(void) {
  if (progress_shown) fprintf(stderr, "\r%40s\r", "");
  progress_shown = 0;
}

void cli_sim_opts(const cli_opts *o, mg_sim_opts *so) {
  memset(so, 0, sizeof *so);
  so->mem_limit = o->mem_limit;
  if (isatty(2)) {
    progress_t0 = mg_now();
    so->progress = progress;
  }
}

json_t *cli_model_json(const mg_model *m) {
  json_t *j = json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:I}", "switching", mg_switching_name(m->switching), "port",
                        mg_port_name(m->port), "contention", mg_contention_name(m->contention), "ts", m->ts, "td",
                        m->td, "tl", m->tl, "ell", (json_int_t)m->ell);
  if (m->o != 0) json_object_set_new(j, "o", json_real(m->o));
  if (m->orecv != 0) json_object_set_new(j, "or", json_real(m->orecv));
  if (m->timing != MG_TIMING_SYNC) json_object_set_new(j, "timing", json_string(mg_timing_name(m->timing)));
  if (m->nbwf) {
    char buf[1024], *b;
    mg_model_format(m, buf, sizeof buf);
    if ((b = strstr(buf, ",bwf="))) json_object_set_new(j, "bwf", json_string(b + 5));
  }
  return j;
}

json_t *cli_params_json(const mg_params *ps) {
  json_t *o = json_object();
  for (int i = 0; ps && i < ps->n; i++) {
    int64_t v;
    char *end;
    long long x = strtoll(ps->p[i].value, &end, 10);
    v = x;
    json_object_set_new(o, ps->p[i].name,
                        *end == 0 && ps->p[i].value[0] ? json_integer(v) : json_string(ps->p[i].value));
  }
  return o;
}

json_t *cli_violation_json(const mg_report *rep) {
  if (rep->verified) return json_null();
  const mg_violation *v = &rep->violation;
  json_t *o = json_pack("{s:s, s:s}", "rule", mg_rule_name(v->rule), "message", v->msg);
  json_object_set_new(o, "round", v->round >= 0 ? json_integer(v->round) : json_null());
  json_t *xs = json_array();
  for (int k = 0; k < 2; k++)
    if (v->xfer[k] >= 0) json_array_append_new(xs, json_integer(v->xfer[k]));
  json_object_set_new(o, "transfers", xs);
  json_object_set_new(o, "node", v->node >= 0 ? json_integer(v->node) : json_null());
  if (v->arc_node >= 0)
    json_object_set_new(o, "arc",
                        json_pack("{s:I, s:i, s:s}", "node", (json_int_t)v->arc_node, "dim", v->arc_dim, "dir",
                                  v->arc_dir > 0 ? "+" : "-"));
  else
    json_object_set_new(o, "arc", json_null());
  json_object_set_new(o, "item", v->item >= 0 ? json_integer(v->item) : json_null());
  return o;
}

json_t *cli_report_json(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep) {
  char topo[128];
  json_t *o = json_object();
  json_object_set_new(o, "algorithm", json_string(algo));
  json_object_set_new(o, "params", cli_params_json(ps));
  json_object_set_new(o, "problem", json_string(mg_problem_name(pb->problem)));
  json_object_set_new(o, "topology", json_string(mg_topo_format(&pb->topo, topo, sizeof topo)));
  json_object_set_new(o, "model", cli_model_json(&pb->model));
  json_object_set_new(o, "bytes", json_real(pb->bytes));
  json_object_set_new(o, "verified", json_boolean(rep->verified));
  json_object_set_new(o, "violation", cli_violation_json(rep));
  json_object_set_new(o, "rounds", json_integer(rep->rounds));
  json_object_set_new(o, "startups", json_integer(rep->startups));
  json_object_set_new(o, "cost", json_real(rep->cost));
  if (pb->model.timing != MG_TIMING_SYNC) {
    char key[32];
    snprintf(key, sizeof key, "cost_%s", mg_timing_name(pb->model.timing));
    json_object_set_new(o, "timing", json_string(mg_timing_name(pb->model.timing)));
    json_object_set_new(o, key, json_real(rep->cost));
    json_object_set_new(o, "cost_sync", json_real(rep->cost_sync));
  }
  json_object_set_new(
      o, "cost_terms",
      json_pack("{s:f, s:f, s:f}", "startup", rep->cost_startup, "hop", rep->cost_hop, "transfer", rep->cost_transfer));
  json_object_set_new(o, "bytes_moved", json_real(rep->bytes_moved));
  json_object_set_new(o, "max_arc_load", json_real(rep->max_arc_load));
  json_object_set_new(o, "sum_max_hops", json_integer((json_int_t)rep->sum_max_hops));
  json_object_set_new(o, "transfers", json_integer((json_int_t)rep->transfers));
  json_object_set_new(o, "lower_bound", json_real(rep->lower_bound));
  json_object_set_new(o, "ratio_to_bound", json_real(rep->ratio_to_bound));
  json_object_set_new(o, "wall_s", json_real(rep->wall_s));
  json_object_set_new(o, "peak_rss_bytes", json_integer((json_int_t)rep->peak_rss_bytes));
  return o;
}

void cli_print_json(json_t *j) {
  char *s = json_dumps(j, JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER);
  if (s) {
    fputs(s, stdout);
    fputc('\n', stdout);
    free(s);
  }
  json_decref(j);
}

void cli_print_report(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep) {
  char topo[128], model[768], params[256];
  printf("algorithm      %s%s%s\n", algo, ps && ps->n ? ":" : "",
         ps && ps->n ? mg_params_format(ps, params, sizeof params) : "");
  printf("problem        %s on %s, %g bytes%s\n", mg_problem_name(pb->problem),
         mg_topo_format(&pb->topo, topo, sizeof topo), pb->bytes,
         pb->problem == MG_GOSSIP ? " per node" : " per block");
  printf("model          %s\n", mg_model_format(&pb->model, model, sizeof model));
  if (rep->verified)
    printf("verified       yes\n");
  else
    printf("verified       NO: %s [%s]\n", rep->violation.msg, mg_rule_name(rep->violation.rule));
  printf("rounds         %lld (%lld with transfers)\n", (long long)rep->rounds, (long long)rep->startups);
  if (pb->model.timing != MG_TIMING_SYNC)
    printf("cost           %.10g under timing=%s (the last finish); %.10g under timing=sync (start-up %.10g, "
           "hop %.10g, transfer %.10g)\n",
           rep->cost, mg_timing_name(pb->model.timing), rep->cost_sync, rep->cost_startup, rep->cost_hop,
           rep->cost_transfer);
  else
    printf("cost           %.10g (start-up %.10g, hop %.10g, transfer %.10g)\n", rep->cost, rep->cost_startup,
           rep->cost_hop, rep->cost_transfer);
  printf("lower bound    %.10g (ratio %.4f)\n", rep->lower_bound, rep->ratio_to_bound);
  printf("transfers      %llu, %.10g bytes moved, busiest arc %.10g bytes\n", (unsigned long long)rep->transfers,
         rep->bytes_moved, rep->max_arc_load);
  printf("simulation     %.3f s, peak RSS %.1f MiB\n", rep->wall_s, (double)rep->peak_rss_bytes / 1048576.0);
}

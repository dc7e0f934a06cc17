/* Option parsing, status mapping and report printing shared by commands. */
#include "cli.h"

#include "../src/util/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static int parse_double(const char *s, double *v) {
  char *end;
  if (!s || !*s) return 0;
  *v = strtod(s, &end);
  return *end == 0 && isfinite(*v);
}

/* One size parser for --bytes, --sizes and --mem-limit: a finite decimal number
 * >= 0 and an optional unit, case-insensitive: B; K, KB, KiB (1024); M,
 * MB, MiB (1024^2); G, GB, GiB (1024^3). Sizes here are powers of two, as
 * in MPI benchmarks. *end gets the first character after the unit. */
int cli_parse_size(const char *s, double *v, const char **end) {
  static const struct {
    const char *unit;
    double mul;
  } units[] = {{"kib", 1024.0},  {"kb", 1024.0},        {"k", 1024.0},        {"mib", 1048576.0},  {"mb", 1048576.0},
               {"m", 1048576.0}, {"gib", 1073741824.0}, {"gb", 1073741824.0}, {"g", 1073741824.0}, {"b", 1.0}};
  char *e;
  /* decimal only, as mg_parse_double: strtod also takes blanks, a sign,
   * hexadecimal ("0x10" was 16 bytes) and "infinity" */
  if (!s || !((*s >= '0' && *s <= '9') || *s == '.')) return 0;
  double x = strtod(s, &e);
  if (e == s || !isfinite(x) || x < 0 || memchr(s, 'x', (size_t)(e - s)) || memchr(s, 'X', (size_t)(e - s))) return 0;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    size_t n = strlen(units[i].unit);
    if (!strncasecmp(e, units[i].unit, n) && (e[n] == 0 || e[n] == ',')) {
      x *= units[i].mul, e += n;
      break;
    }
  }
  if (!isfinite(x)) return 0;
  *v = x;
  if (end) *end = e;
  return end ? 1 : *e == 0;
}

int cli_parse_sizes(const char *s, double *out, size_t cap, size_t *n) {
  *n = 0;
  while (*s) {
    const char *end;
    double x;
    if (!cli_parse_size(s, &x, &end) || !(x > 0) || x > 1e18 || *n == cap || (*end && *end != ',')) return 0;
    out[(*n)++] = x;
    s = *end ? end + 1 : end;
    if (*end == ',' && !*s) return 0;
  }
  return *n > 0;
}

int cli_parse(int argc, char **argv, cli_opts *o, const char *allowed) {
  char seen[512] = " "; /* the options given so far, " name " each */
  memset(o, 0, sizeof *o);
  for (int i = 0; i < argc; i++) {
    const char *a = !strcmp(argv[i], "-o") ? "--output" : argv[i];
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
    if (!strcmp(name, "json") || !strcmp(name, "all") || !strcmp(name, "heatmap") || !strcmp(name, "spec")) {
      *(name[0] == 'j' ? &o->json : name[0] == 'a' ? &o->all : name[0] == 'h' ? &o->heatmap : &o->spec) = 1;
      continue;
    }
    /* a second value would silently replace the first (--model ts=3
     * --model tl=1 would lose ts): refused */
    if (strstr(seen, key)) {
      fprintf(stderr, "meshgossip: option '%s' given twice\n", a);
      return 0;
    }
    if (strlen(seen) + strlen(key) < sizeof seen) strcat(seen, key + 1);
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
    else if (!strcmp(name, "output"))
      o->output = v;
    else if (!strcmp(name, "round"))
      o->round = v;
    else if (!strcmp(name, "plot"))
      o->plot = v;
    else if (!strcmp(name, "engine"))
      o->engine = v;
    else if (!strcmp(name, "export-ti"))
      o->export_ti = v;
    else if (!strcmp(name, "format"))
      o->format = v;
    else if (!strcmp(name, "timing"))
      o->timing = v;
    else if (!strcmp(name, "r")) {
      if (!parse_double(v, &o->r) || o->r < 0) {
        fprintf(stderr, "meshgossip: --r must be a finite number >= 0, not '%s'\n", v);
        return 0;
      }
      o->have_r = 1;
    } else if (!strcmp(name, "bytes")) {
      if (!cli_parse_size(v, &o->bytes, NULL)) {
        fprintf(stderr, "meshgossip: --bytes must be a size >= 0 (e.g. 4096, 32K, 1MiB), not '%s'\n", v);
        return 0;
      }
      o->have_bytes = 1;
    } else if (!strcmp(name, "mem-limit")) {
      double x;
      /* under a byte it would be 0, which is "no limit given" */
      if (!cli_parse_size(v, &x, NULL) || !(x >= 1)) {
        fprintf(stderr, "meshgossip: --mem-limit takes bytes, e.g. 512M or 2G\n");
        return 0;
      }
      o->mem_limit = x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
    }
  }
  return 1;
}

static mg_status usage_error(mg_err *err, const char *msg) {
  snprintf(err->msg, sizeof err->msg, "%s", msg);
  return MG_ERR_INVALID;
}

/* The unit of costs in text output: t'_l = l*t_l under --r (the papers'
 * units), else seconds (ts, td, tl are seconds, seconds per hop, seconds
 * per byte). Set by cli_problem. */
static const char *cost_unit = "s";
const char *cli_cost_unit(void) { return cost_unit; }
/* A schedule file does not say how its costs were meant: a model in the
 * papers' units (td = 0, tl = 1: a byte takes one unit per link, what --r
 * writes) is read in t'_l, any other in seconds (a link of 1 s per byte
 * is no machine). */
void cli_cost_unit_of(const mg_model *m) { cost_unit = m->td == 0 && m->tl == 1 ? "t'_l" : "s"; }

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
  cost_unit = o->have_r ? "t'_l" : "s";
  if (o->model && (st = mg_model_parse(o->model, &pb->model, err)) != MG_OK) return st;
  if (o->timing) {
    char spec[64];
    snprintf(spec, sizeof spec, "timing=%s", o->timing);
    if ((st = mg_model_parse(spec, &pb->model, err)) != MG_OK) return st;
  }
  if (o->have_bytes) pb->bytes = o->bytes;
  return MG_OK;
}

int cli_model_sets_contention(const cli_opts *o) {
  if (!o->model) return 0;
  mg_model m;
  mg_err e;
  mg_model_default(&m);
  m.contention = (mg_contention)-1; /* unset: what the spec or its file leaves alone */
  return mg_model_parse(o->model, &m, &e) == MG_OK && m.contention != (mg_contention)-1;
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
  cli_step_done();
}

/* The simulator state of the problem's smallest schedule (P = 1) against
 * --mem-limit, or 3/4 of physical memory as the simulator takes it: a
 * command that would only find every candidate too large says so at once
 * (exit 3, one line) instead of running them. */
int cli_size_check(const cli_opts *o, const mg_problem_spec *pb) {
  mg_schedule_info info;
  mg_err err = {{0}};
  uint64_t need = 0, limit = o->mem_limit;
  memset(&info, 0, sizeof info);
  info.problem = pb->problem;
  info.topo = pb->topo;
  info.model = pb->model;
  info.bytes = pb->bytes;
  info.pieces = 1;
  mg_status st = mg_sim_state_bytes(&info, &need, &err);
  if (st != MG_OK) return cli_fail(st, &err);
  if (!limit) {
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0) limit = (uint64_t)pages * (uint64_t)psz / 4 * 3;
  }
  if (limit && need > limit) {
    char t[64], a[32], b[32];
    fprintf(stderr, "meshgossip: %s %s needs %s of simulator state, over the limit of %s\n",
            mg_problem_name(pb->problem), mg_topo_format(&pb->topo, t, sizeof t), mg_fmt_bytes(need, a, sizeof a),
            mg_fmt_bytes(limit, b, sizeof b));
    return EXIT_TOO_LARGE;
  }
  return EXIT_OK;
}

const struct mg_shard *cli_shard;
int cli_untraced;

void cli_sim_opts(const cli_opts *o, mg_sim_opts *so) {
  memset(so, 0, sizeof *so);
  so->mem_limit = o->mem_limit;
  so->shard = cli_shard;
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
  /* the keys of a schedule file's model (src/schedule/export.c), each its
   * own: a review found share, routes, detach and ack glued into the bwf
   * string, or dropped without one */
  if (m->nbwf) {
    char buf[1024];
    json_object_set_new(j, "bwf", json_string(mg_model_format_bwf(m, buf, sizeof buf)));
  }
  if (m->share == MG_SHARE_HOPS) json_object_set_new(j, "share", json_string("hops"));
  if (m->routes != MG_ROUTES_SCHEDULE) json_object_set_new(j, "routes", json_string(mg_routes_name(m->routes)));
  if (m->detach) json_object_set_new(j, "detach", json_integer((json_int_t)m->detach));
  if (m->ack != 0) json_object_set_new(j, "ack", json_real(m->ack));
  return j;
}

json_t *cli_params_json(const mg_params *ps) {
  json_t *o = json_object();
  for (int i = 0; ps && i < ps->n; i++) {
    /* a number only if it reads back as the same text (a review: tune's
     * JSON named a schedule 2 units dearer) */
    int64_t x;
    json_object_set_new(o, ps->p[i].name,
                        mg_parse_i64_exact(ps->p[i].value, &x) ? json_integer((json_int_t)x)
                                                               : json_string(ps->p[i].value));
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

/* Did the generator spell choices of its own into the schedule's parameters
 * (dimwise's automatic phases), other than those given? */
static int resolved_differ(const mg_params *ps, const mg_report *rep) {
  char a[512], b[512];
  if (!rep->params.n) return 0;
  mg_params none;
  memset(&none, 0, sizeof none);
  return strcmp(mg_params_format(ps ? ps : &none, a, sizeof a), mg_params_format(&rep->params, b, sizeof b)) != 0;
}

json_t *cli_report_json(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep) {
  char topo[128];
  json_t *o = json_object();
  json_object_set_new(o, "algorithm", json_string(algo));
  json_object_set_new(o, "params", cli_params_json(ps));
  if (resolved_differ(ps, rep)) json_object_set_new(o, "resolved_params", cli_params_json(&rep->params));
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
  /* bytes summed past a double: null, not a key left out (json_real(inf)
   * is no value; a review found the key missing at 3e307 bytes) */
  json_object_set_new(o, "bytes_moved", isfinite(rep->bytes_moved) ? json_real(rep->bytes_moved) : json_null());
  json_object_set_new(o, "max_arc_load", isfinite(rep->max_arc_load) ? json_real(rep->max_arc_load) : json_null());
  json_object_set_new(o, "sum_max_hops", json_integer((json_int_t)rep->sum_max_hops));
  json_object_set_new(o, "transfers", json_integer((json_int_t)rep->transfers));
  json_object_set_new(o, "lower_bound", json_real(rep->lower_bound));
  json_object_set_new(o, "ratio_to_bound", rep->verified ? json_real(rep->ratio_to_bound) : json_null());
  json_object_set_new(o, "wall_s", json_real(rep->wall_s));
  json_object_set_new(o, "peak_rss_bytes", json_integer((json_int_t)rep->peak_rss_bytes));
  return o;
}

/* Prints jansson's dump with every real in its shortest round-trip form
 * (mg_fmt_double), kept a real ("4.0", not "4"): jansson writes %.17g. */
static void put_json_shortest(const char *s, FILE *f) {
  int in_str = 0;
  char prev = 0; /* the last character outside blanks */
  for (const char *p = s; *p;) {
    if (in_str) {
      if (*p == '\\' && p[1])
        fputc(*p++, f);
      else if (*p == '"')
        in_str = 0;
      fputc(*p++, f);
      continue;
    }
    if (*p == '"') {
      in_str = 1, prev = *p;
      fputc(*p++, f);
      continue;
    }
    if ((*p == '-' || (*p >= '0' && *p <= '9')) && (prev == ':' || prev == '[' || prev == ',' || prev == 0)) {
      char *end;
      double x = strtod(p, &end);
      size_t n = (size_t)(end - p);
      if (memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n)) {
        char buf[40];
        mg_fmt_double(x, buf, sizeof buf);
        fputs(buf, f);
        if (!strpbrk(buf, ".eEn")) fputs(".0", f);
      } else {
        fwrite(p, 1, n, f);
      }
      p = end;
      prev = '0';
      continue;
    }
    if (*p != ' ' && *p != '\n') prev = *p;
    fputc(*p++, f);
  }
}

const char *cli_shared_hint(const mg_algo *a, const mg_model *m) {
  return a->needs_shared && m->contention == MG_CONT_STRICT
             ? "; hint: this algorithm shares arcs by design: price it as compare does, with --model contention=shared"
             : "";
}

FILE *cli_says(const char *output) { return output && mg_outfile_is_stdout(output) ? stderr : stdout; }

void cli_print_json(json_t *j) {
  char *s = j ? json_dumps(j, JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER) : NULL;
  if (!s) {
    /* jansson builds no value from inf or NaN (json_pack gives NULL): the
     * result had such a figure. Said, never an empty output with exit 0
     * (a review: bound --json with ts=1e308 printed nothing) */
    fprintf(stderr, "meshgossip: the result holds a figure JSON cannot carry (not a finite number)\n");
    json_decref(j);
    exit(EXIT_USAGE);
  }
  put_json_shortest(s, stdout);
  fputc('\n', stdout);
  free(s);
  json_decref(j);
}

void cli_print_report(const char *algo, const mg_params *ps, const mg_problem_spec *pb, const mg_report *rep) {
  char topo[128], model[768], params[256];
  printf("algorithm      %s%s%s\n", algo, ps && ps->n ? ":" : "",
         ps && ps->n ? mg_params_format(ps, params, sizeof params) : "");
  if (resolved_differ(ps, rep))
    printf("resolved       %s:%s (its own choices, by name)\n", algo,
           mg_params_format(&rep->params, params, sizeof params));
  char by[32];
  printf("problem        %s on %s, %s bytes%s\n", mg_problem_name(pb->problem),
         mg_topo_format(&pb->topo, topo, sizeof topo), mg_fmt_double(pb->bytes, by, sizeof by),
         pb->problem == MG_GOSSIP ? " per node" : " per block");
  printf("model          %s\n", mg_model_format(&pb->model, model, sizeof model));
  if (rep->verified)
    printf("verified       yes\n");
  else
    printf("verified       NO: %s [%s]\n", rep->violation.msg, mg_rule_name(rep->violation.rule));
  printf("rounds         %lld (%lld with transfers)\n", (long long)rep->rounds, (long long)rep->startups);
  char a[32], b[32], c[32], d[32], e[32];
  /* a schedule that broke a rule has no cost: print none */
  if (rep->verified) {
    if (pb->model.timing != MG_TIMING_SYNC)
      printf("cost           %s %s under timing=%s (the last finish); %s %s under timing=sync (start-up %s, hop %s, "
             "transfer %s)\n",
             mg_fmt_double(rep->cost, a, sizeof a), cost_unit, mg_timing_name(pb->model.timing),
             mg_fmt_double(rep->cost_sync, e, sizeof e), cost_unit, mg_fmt_double(rep->cost_startup, b, sizeof b),
             mg_fmt_double(rep->cost_hop, c, sizeof c), mg_fmt_double(rep->cost_transfer, d, sizeof d));
    else
      printf("cost           %s %s (start-up %s, hop %s, transfer %s)\n", mg_fmt_double(rep->cost, a, sizeof a),
             cost_unit, mg_fmt_double(rep->cost_startup, b, sizeof b), mg_fmt_double(rep->cost_hop, c, sizeof c),
             mg_fmt_double(rep->cost_transfer, d, sizeof d));
    printf("lower bound    %s %s (ratio %.4f)\n", mg_fmt_double(rep->lower_bound, a, sizeof a), cost_unit,
           rep->ratio_to_bound);
  }
  printf("transfers      %llu, %s bytes moved, busiest arc %s bytes\n", (unsigned long long)rep->transfers,
         isfinite(rep->bytes_moved) ? mg_fmt_double(rep->bytes_moved, a, sizeof a) : "more than a double's",
         mg_fmt_double(rep->max_arc_load, b, sizeof b));
  printf("simulation     %.3f s, peak RSS %.1f MiB\n", rep->wall_s, (double)rep->peak_rss_bytes / 1048576.0);
}

int cli_extra_argument(const cli_opts *o) {
  if (!o->npositional) return 0;
  fprintf(stderr, "meshgossip: unexpected argument '%s'\n", o->positional[0]);
  return 1;
}

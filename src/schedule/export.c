/* Schedule files: the exporter. It wraps the simulator's sink, so that the
 * file holds every transfer with its items resolved (explicit ids), the
 * route actually walked, and the simulator's report. The file is written
 * to a temporary name beside the target and renamed into place only when
 * the schedule verified: no partial file is ever left behind. */
#include "../util/internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct exporter {
  FILE *f;
  mg_sim *sim;
  mg_sink inner;
  int64_t nround;
  size_t in_round;
  int io_error;
} exporter;

static void put_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void put_params(FILE *f, const mg_params *ps) {
  fputc('{', f);
  for (int i = 0; i < ps->n; i++) {
    if (i) fputs(", ", f);
    put_str(f, ps->p[i].name);
    fputs(": ", f);
    int64_t v;
    if (mg_parse_i64(ps->p[i].value, &v))
      fprintf(f, "%lld", (long long)v);
    else
      put_str(f, ps->p[i].value);
  }
  fputc('}', f);
}

static mg_status ex_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  exporter *x = ctx;
  FILE *f = x->f;
  const mg_topo *t = &info->topo;
  fprintf(f, "{\"format\": \"meshgossip.schedule\", \"version\": 1,\n \"problem\": \"%s\", \"algorithm\": ",
          mg_problem_name(info->problem));
  put_str(f, info->algorithm);
  fputs(", \"params\": ", f);
  put_params(f, &info->params);
  fprintf(f, ",\n \"topology\": {\"kind\": \"%s\", \"dims\": [",
          t->kind == MG_TOPO_MESHBUS ? "meshbus" : (mg_topo_is_torus(t) ? "torus" : "mesh"));
  for (int k = 0; k < (t->kind == MG_TOPO_MESHBUS ? 2 : t->d); k++)
    fprintf(f, k ? ", %u" : "%u", t->n[k]);
  const mg_model *m = &info->model;
  fprintf(f,
          "]},\n \"model\": {\"switching\": \"%s\", \"port\": \"%s\", \"contention\": \"%s\", \"ts\": %.17g, "
          "\"td\": %.17g, \"tl\": %.17g, \"ell\": %llu},\n \"bytes\": %.17g, \"pieces\": %u,\n \"rounds\": [",
          mg_switching_name(m->switching), mg_port_name(m->port), mg_contention_name(m->contention), m->ts, m->td,
          m->tl, (unsigned long long)m->ell, info->bytes, info->pieces);
  return x->inner.begin(x->inner.ctx, info, err);
}

static mg_status ex_round(void *ctx, mg_round *r, mg_err *err) {
  exporter *x = ctx;
  fprintf(x->f, "%s\n  [", x->nround ? "," : "");
  x->in_round = 0;
  mg_status st = x->inner.round(x->inner.ctx, r, err);
  fputc(']', x->f);
  x->nround++;
  if (ferror(x->f)) return mg_fail(err, MG_ERR_IO, "write error in the schedule file");
  return st;
}

static mg_status ex_resolved(void *arg, const mg_resolved *res, mg_err *err) {
  exporter *x = arg;
  FILE *f = x->f;
  (void)err;
  fprintf(f, "%s{\"src\": %u, ", x->in_round++ ? ",\n   " : "", res->tr->src);
  if (res->tr->bus != MG_BUS_NONE) {
    fprintf(f, "\"bus\": \"%s\", ", res->tr->bus == MG_BUS_ROW ? "row" : "col");
  } else {
    fprintf(f, "\"dst\": %u, \"route\": [", res->tr->dst);
    for (int g = 0; g < res->nseg; g++)
      fprintf(f, g ? ", [%d, %d]" : "[%d, %d]", res->route[g].dim, res->route[g].hops);
    fputs("], ", f);
  }
  fputs("\"items\": [", f);
  int first = 1;
  if (res->bits) {
    for (size_t w = 0; w < res->nwords; w++) {
      uint64_t b = res->bits[w];
      while (b) {
        uint64_t it = w * 64 + (uint64_t)__builtin_ctzll(b);
        b &= b - 1;
        fprintf(f, first ? "%llu" : ", %llu", (unsigned long long)it);
        first = 0;
      }
    }
  } else {
    for (size_t k = 0; k < res->nlist; k++)
      fprintf(f, k ? ", %llu" : "%llu", (unsigned long long)res->list[k]);
  }
  fputs("]}", f);
  return MG_OK;
}

static mg_status ex_end(void *ctx, mg_err *err) {
  exporter *x = ctx;
  mg_status st = x->inner.end(x->inner.ctx, err);
  if (st != MG_OK) return st;
  const mg_report *rep = mg_sim_report(x->sim);
  fprintf(x->f,
          "\n ],\n \"report\": {\"verified\": %s, \"rounds\": %lld, \"startups\": %lld, \"cost\": %.17g, "
          "\"round_costs\": [",
          rep->verified ? "true" : "false", (long long)rep->rounds, (long long)rep->startups, rep->cost);
  for (size_t i = 0; i < rep->n_round_costs; i++)
    fprintf(x->f, i ? ", %.17g" : "%.17g", rep->round_costs[i]);
  fputs("]}}\n", x->f);
  return MG_OK;
}

mg_status mg_export(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, const char *path,
                    const mg_sim_opts *opts, mg_report *rep, mg_err *err) {
  mg_status st = MG_OK;
  exporter x;
  memset(&x, 0, sizeof x);
  memset(rep, 0, sizeof *rep);
  mg_params none;
  memset(&none, 0, sizeof none);
  if (!ps) ps = &none;
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= (int)sizeof tmp)
    return mg_fail(err, MG_ERR_INVALID, "output path too long");
  MG_CHECK(mg_algo_check(a, pb, ps, err));
  int fd = mkstemp(tmp);
  if (fd < 0) return mg_fail(err, MG_ERR_IO, "cannot create a file beside '%s'", path);
  x.f = fdopen(fd, "w");
  if (!x.f) {
    close(fd);
    unlink(tmp);
    return mg_fail(err, MG_ERR_IO, "cannot open '%s' for writing", tmp);
  }
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  o.keep_round_costs = 1;
  o.on_resolved = ex_resolved;
  o.on_resolved_arg = &x;
  st = mg_sim_create(&o, &x.sim, err);
  if (st == MG_OK) {
    x.inner = mg_sim_sink(x.sim);
    mg_sink outer = {.begin = ex_begin, .round = ex_round, .end = ex_end, .ctx = &x};
    st = a->generate(pb, ps, &outer, err);
    mg_sim_take_report(x.sim, rep);
    if (st == MG_OK) {
      mg_bound b;
      if (mg_lower_bound(pb, &b, NULL) == MG_OK) {
        rep->lower_bound = b.lower_bound;
        rep->ratio_to_bound = b.lower_bound > 0 ? rep->cost / b.lower_bound : 0;
      }
    }
  }
  mg_sim_destroy(x.sim);
  if (fflush(x.f) != 0 || ferror(x.f)) {
    if (st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", path);
  }
  if (fclose(x.f) != 0 && st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error in '%s'", path);
  if (st == MG_OK && rename(tmp, path) != 0) st = mg_fail(err, MG_ERR_IO, "cannot move the schedule into '%s'", path);
  if (st != MG_OK) unlink(tmp);
out:
  return st;
}

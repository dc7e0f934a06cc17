/* Schedule files: the exporter, a tap on the driver (../algo/drive.c), so
 * that the file holds every transfer with its items as the simulator
 * resolved them (explicit ids), the route actually walked, and the
 * simulator's report. The file is written to a temporary name beside the
 * target and renamed into place only when the schedule verified: no
 * partial file is ever left behind. It knows nothing of algorithms or of
 * the simulator's insides. */
#include "dataflow.h"

#include <stdio.h>
#include <string.h>

typedef struct exporter {
  mg_outfile out;
  FILE *f;
  int64_t nround;
  size_t in_round;
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
    /* a number only if it reads back as the same text (a review) */
    int64_t v;
    if (mg_parse_i64_exact(ps->p[i].value, &v))
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
  (void)err;
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
          "\"td\": %.17g, \"tl\": %.17g, \"ell\": %llu",
          mg_switching_name(m->switching), mg_port_name(m->port), mg_contention_name(m->contention), m->ts, m->td,
          m->tl, (unsigned long long)m->ell);
  /* the overheads and the clock only where they are not the defaults */
  if (m->o != 0) fprintf(f, ", \"o\": %.17g", m->o);
  if (m->orecv != 0) fprintf(f, ", \"or\": %.17g", m->orecv);
  if (m->timing != MG_TIMING_SYNC) fprintf(f, ", \"timing\": \"%s\"", mg_timing_name(m->timing));
  for (int j = 0; j < m->nbwf; j++)
    fprintf(f, "%s%llu:%.17g", j ? ";" : ", \"bwf\": \"", (unsigned long long)m->bwf_at[j], m->bwf[j]);
  if (m->nbwf) fputc('"', f);
  /* the sharing keys too, or a file of a calibrated model is priced under
   * another model when read back */
  if (m->share == MG_SHARE_HOPS) fputs(", \"share\": \"hops\"", f);
  if (m->routes != MG_ROUTES_SCHEDULE) fprintf(f, ", \"routes\": \"%s\"", mg_routes_name(m->routes));
  if (m->detach) fprintf(f, ", \"detach\": %llu", (unsigned long long)m->detach);
  if (m->ack != 0) fprintf(f, ", \"ack\": %.17g", m->ack);
  fprintf(f, "},\n \"bytes\": %.17g, \"pieces\": %u,\n \"rounds\": [", info->bytes, info->pieces);
  return MG_OK;
}

static mg_status ex_round_begin(void *ctx, const mg_round *r, mg_err *err) {
  exporter *x = ctx;
  (void)r, (void)err;
  fprintf(x->f, "%s\n  [", x->nround ? "," : "");
  x->in_round = 0;
  return MG_OK;
}

static mg_status ex_round_end(void *ctx, const mg_round *r, const mg_report *so_far, mg_err *err) {
  exporter *x = ctx;
  (void)r, (void)so_far;
  fputc(']', x->f);
  x->nround++;
  if (ferror(x->f)) return mg_fail(err, MG_ERR_IO, "write error in the schedule file");
  return MG_OK;
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

static void put_report(FILE *f, const mg_report *rep) {
  fprintf(f,
          "\n ],\n \"report\": {\"verified\": %s, \"rounds\": %lld, \"startups\": %lld, \"cost\": %.17g, "
          "\"round_costs\": [",
          rep->verified ? "true" : "false", (long long)rep->rounds, (long long)rep->startups, rep->cost);
  for (size_t i = 0; i < rep->n_round_costs; i++)
    fprintf(f, i ? ", %.17g" : "%.17g", rep->round_costs[i]);
  fputs("]}}\n", f);
}

/* Commits the file when the run verified, else removes it (dataflow.c's
 * mg_outfile; "-" is stdout). */
static mg_status ex_end(void *ctx, mg_status run, const mg_report *rep, mg_err *err) {
  exporter *x = ctx;
  if (run == MG_OK) put_report(x->f, rep);
  mg_status st = mg_outfile_close(&x->out, run == MG_OK, err);
  free(x);
  return st;
}

mg_status mg_export_json_tap(const char *path, mg_tap *tap, mg_err *err) {
  exporter *x = calloc(1, sizeof *x);
  if (!x) return mg_fail(err, MG_ERR_NOMEM, "out of memory for the exporter");
  mg_status st = mg_outfile_open(&x->out, path, err);
  if (st != MG_OK) {
    free(x);
    return st;
  }
  x->f = x->out.f;
  *tap = (mg_tap){.begin = ex_begin,
                  .round_begin = ex_round_begin,
                  .resolved = ex_resolved,
                  .round_end = ex_round_end,
                  .end = ex_end,
                  .ctx = x};
  return MG_OK;
}

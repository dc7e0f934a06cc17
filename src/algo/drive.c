/* The one driver: a generator streams a schedule through the taps into
 * the simulator (DESIGN: "one driver runs a generator into a chain of
 * sinks; nothing else opens that loop"). `run`, `export`, `verify`, the
 * MPI planner and the engines all come through here, so the lower bound
 * is attached in one place and every tap sees the same resolved stream. */
#include "algo_internal.h"

#include <string.h>

typedef struct driver {
  mg_tap *taps;
  size_t ntaps;
  mg_sim *sim;
  mg_sink sim_sink;
  mg_resolved_fn user_fn;
  void *user_arg;
  mg_schedule_info info;
  int begun;
} driver;

static mg_status dr_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  driver *d = ctx;
  mg_status st = MG_OK;
  d->info = *info;
  d->begun = 1;
  for (size_t k = 0; k < d->ntaps; k++)
    if (d->taps[k].begin) MG_CHECK(d->taps[k].begin(d->taps[k].ctx, info, err));
  st = d->sim_sink.begin(d->sim_sink.ctx, info, err);
out:
  return st;
}

static mg_status dr_round(void *ctx, mg_round *r, mg_err *err) {
  driver *d = ctx;
  mg_status st = MG_OK;
  for (size_t k = 0; k < d->ntaps; k++)
    if (d->taps[k].round_begin) MG_CHECK(d->taps[k].round_begin(d->taps[k].ctx, r, err));
  MG_CHECK(d->sim_sink.round(d->sim_sink.ctx, r, err));
  for (size_t k = 0; k < d->ntaps; k++)
    if (d->taps[k].round_end) MG_CHECK(d->taps[k].round_end(d->taps[k].ctx, r, mg_sim_report(d->sim), err));
out:
  return st;
}

static mg_status dr_end(void *ctx, mg_err *err) {
  driver *d = ctx;
  return d->sim_sink.end(d->sim_sink.ctx, err);
}

static mg_status dr_resolved(void *arg, const mg_resolved *res, mg_err *err) {
  driver *d = arg;
  mg_status st = MG_OK;
  for (size_t k = 0; k < d->ntaps; k++)
    if (d->taps[k].resolved) MG_CHECK(d->taps[k].resolved(d->taps[k].ctx, res, err));
  if (d->user_fn) st = d->user_fn(d->user_arg, res, err);
out:
  return st;
}

/* The lower bound of the problem the schedule solves, and the ratio
 * (0 unless the schedule verified: a rejected schedule has no price). A
 * bound beyond a double refuses the run, as a cost beyond one does
 * (sim.c): a review found `run` printing a bound of 0 on ring:9 at 3e307
 * bytes where `bound` and `compare` refused. */
static mg_status attach_bound(const mg_schedule_info *info, mg_report *rep, mg_err *err) {
  mg_problem_spec pb = {.problem = info->problem, .topo = info->topo, .model = info->model, .bytes = info->bytes};
  mg_bound b;
  mg_err berr;
  if (mg_lower_bound(&pb, &b, &berr) == MG_OK) {
    rep->lower_bound = b.lower_bound;
    rep->ratio_to_bound = b.lower_bound > 0 && rep->verified ? rep->cost / b.lower_bound : 0;
    return MG_OK;
  }
  if (mg_bound_finite(&b)) return MG_OK; /* no bound for this model: the report has none */
  rep->verified = 0;
  return mg_fail(err, MG_ERR_INVALID, "%s", berr.msg);
}

mg_status mg_drive(mg_generator_fn gen, void *gen_arg, mg_tap *taps, size_t ntaps, const mg_sim_opts *opts,
                   mg_report *rep, mg_err *err) {
  mg_status st = MG_OK;
  driver d;
  memset(&d, 0, sizeof d);
  memset(rep, 0, sizeof *rep);
  d.taps = taps;
  d.ntaps = ntaps;
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  d.user_fn = o.on_resolved;
  d.user_arg = o.on_resolved_arg;
  o.on_resolved = dr_resolved;
  o.on_resolved_arg = &d;
  st = mg_sim_create(&o, &d.sim, err);
  if (st == MG_OK) {
    d.sim_sink = mg_sim_sink(d.sim);
    mg_sink sink = {.begin = dr_begin, .round = dr_round, .end = dr_end, .ctx = &d};
    st = gen(gen_arg, &sink, err);
    mg_sim_take_report(d.sim, rep);
    /* the bound is the problem's, whether or not the schedule kept the rules */
    if (d.begun) {
      mg_status bst = attach_bound(&d.info, rep, st == MG_OK ? err : NULL);
      if (st == MG_OK) st = bst;
    }
  }
  for (size_t k = 0; k < ntaps; k++) {
    if (!taps[k].end) continue;
    mg_err terr;
    mg_status tst = taps[k].end(taps[k].ctx, st, rep, st == MG_OK ? err : &terr);
    if (st == MG_OK) st = tst;
  }
  mg_sim_destroy(d.sim);
  return st;
}

/* An algorithm as a generator. */
typedef struct algo_gen {
  const mg_algo *a;
  const mg_problem_spec *pb;
  const mg_params *ps;
} algo_gen;

static mg_status run_algo(void *arg, mg_sink *sink, mg_err *err) {
  algo_gen *g = arg;
  return g->a->generate(g->pb, g->ps, sink, err);
}

mg_status mg_drive_algo(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, mg_tap *taps, size_t ntaps,
                        const mg_sim_opts *opts, mg_report *rep, mg_err *err) {
  mg_params none;
  memset(&none, 0, sizeof none);
  memset(rep, 0, sizeof *rep);
  algo_gen g = {a, pb, ps ? ps : &none};
  mg_status st = mg_algo_check(a, pb, g.ps, err);
  if (st != MG_OK) {
    /* the taps still hear of the run that did not start */
    for (size_t k = 0; k < ntaps; k++)
      if (taps[k].end) {
        mg_err terr;
        taps[k].end(taps[k].ctx, st, rep, &terr);
      }
    return st;
  }
  return mg_drive(run_algo, &g, taps, ntaps, opts, rep, err);
}

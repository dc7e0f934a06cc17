/* tune: the parameter search of Juurlink, Rao, Sibeyn 1996 section 4.2 ("a small program
 * which searches for the optimal values"), made exact: every candidate is
 * generated and verified by the simulator, and the least verified cost
 * wins. */
#include "algo_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tune_state {
  const mg_algo *a;
  const mg_problem_spec *pb;
  mg_sim_opts opts;
  mg_params best, second;
  mg_report best_rep, second_rep;
  int have_best, have_second;
  size_t evaluated;
  /* progress: the caller's on_step, candidates seen and in all */
  void (*on_step)(void *arg, const char *what, int64_t done, int64_t total);
  void *on_step_arg;
  int64_t seen, total;
  int (*keep)(const mg_params *ps); /* NULL: every candidate */
  const mg_params *fixed;           /* held by the caller (mg_tune_with) */
} tune_state;

/* Two values of one parameter are the same if they are the same string or
 * the same number ("3" and "3.0"). */
static int same_value(const char *x, const char *y) {
  if (!strcmp(x, y)) return 1;
  char *ex, *ey;
  double a = strtod(x, &ex), b = strtod(y, &ey);
  return ex != x && ey != y && !*ex && !*ey && a == b;
}

/* The candidate with the held parameters: 0 if it sets one of them to
 * another value. */
static int with_fixed(const mg_params *fixed, const mg_params *ps, mg_params *out) {
  *out = *ps;
  if (!fixed) return 1;
  for (int i = 0; i < fixed->n; i++) {
    const char *v = mg_params_get(ps, fixed->p[i].name);
    if (v && !same_value(v, fixed->p[i].value)) return 0;
    if (!v && mg_params_set(out, fixed->p[i].name, fixed->p[i].value, NULL) != MG_OK) return 0;
  }
  return 1;
}

static mg_status count(void *arg, const mg_params *ps) {
  (void)ps;
  ((tune_state *)arg)->total++;
  return MG_OK;
}

static mg_status visit(void *arg, const mg_params *cand) {
  tune_state *t = arg;
  mg_report rep;
  mg_err e;
  mg_params held;
  if (!with_fixed(t->fixed, cand, &held)) return MG_OK;
  const mg_params *ps = &held;
  if (t->keep && !t->keep(ps)) return MG_OK;
  if (t->on_step) {
    char spec[MG_ERR_LEN], p[MG_ERR_LEN / 2];
    snprintf(spec, sizeof spec, "%s:%s", t->a->name, mg_params_format(ps, p, sizeof p));
    t->on_step(t->on_step_arg, spec, t->seen++, t->total);
  }
  mg_status st = mg_run(t->a, t->pb, ps, &t->opts, &rep, &e);
  if (st == MG_ERR_NOMEM || st == MG_ERR_TOO_LARGE) return st;
  if (st != MG_OK || !rep.verified) {
    mg_report_free(&rep);
    return MG_OK; /* a refused or invalid candidate is simply not a result */
  }
  t->evaluated++;
  if (!t->have_best || rep.cost < t->best_rep.cost) {
    if (t->have_best) {
      mg_report_free(&t->second_rep);
      t->second = t->best;
      t->second_rep = t->best_rep;
      t->have_second = 1;
    }
    t->best = *ps;
    t->best_rep = rep;
    t->have_best = 1;
  } else if (!t->have_second || rep.cost < t->second_rep.cost) {
    if (t->have_second) mg_report_free(&t->second_rep);
    t->second = *ps;
    t->second_rep = rep;
    t->have_second = 1;
  } else {
    mg_report_free(&rep);
  }
  return MG_OK;
}

static mg_status tune_run(const mg_algo *a, const mg_problem_spec *pb, const mg_params *fixed, const mg_sim_opts *opts,
                          int (*keep)(const mg_params *ps), mg_params *best, mg_report *best_rep, mg_params *runner_up,
                          mg_report *runner_rep, size_t *evaluated, mg_err *err) {
  tune_state t;
  memset(&t, 0, sizeof t);
  t.keep = keep;
  t.fixed = fixed;
  memset(best_rep, 0, sizeof *best_rep);
  memset(runner_rep, 0, sizeof *runner_rep);
  memset(runner_up, 0, sizeof *runner_up);
  *evaluated = 0;
  if (!a->candidates)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "%s has no parameters to tune%s", a->name,
                   a->params && a->params[0].name ? " (the ones it has are set by hand: give them to run)" : "");
  mg_params none;
  memset(&none, 0, sizeof none);
  mg_status st = mg_algo_check(a, pb, fixed ? fixed : &none, err);
  if (st != MG_OK) return st;
  t.a = a;
  t.pb = pb;
  if (opts) t.opts = *opts;
  t.opts.keep_round_costs = 0;
  t.opts.on_resolved = NULL;
  t.opts.progress = NULL;
  t.opts.on_step = NULL;
  if (opts && opts->on_step) {
    /* a first pass counts the candidates (enumerating is cheap) */
    if ((st = a->candidates(pb, count, &t, err)) != MG_OK) return st;
    t.on_step = opts->on_step;
    t.on_step_arg = opts->on_step_arg;
  }
  st = a->candidates(pb, visit, &t, err);
  if (st != MG_OK) {
    if (t.have_best) mg_report_free(&t.best_rep);
    if (t.have_second) mg_report_free(&t.second_rep);
    return st;
  }
  if (!t.have_best) {
    char p[MG_ERR_LEN / 2];
    return mg_fail(err, MG_ERR_UNSUPPORTED, "no candidate of %s%s%s verifies here", a->name, fixed ? " with " : "",
                   fixed ? mg_params_format(fixed, p, sizeof p) : "");
  }
  *best = t.best;
  *best_rep = t.best_rep;
  if (t.have_second) {
    *runner_up = t.second;
    *runner_rep = t.second_rep;
  }
  *evaluated = t.evaluated;
  return MG_OK;
}

const mg_params *mg_tune_held(mg_status (*fn)(void *arg, const mg_params *ps), void *arg) {
  return fn == visit || fn == count ? ((const tune_state *)arg)->fixed : NULL;
}

int mg_params_agree(const mg_params *held, const mg_params *ps) {
  mg_params out;
  return with_fixed(held, ps, &out);
}

mg_status mg_tune(const mg_algo *a, const mg_problem_spec *pb, const mg_sim_opts *opts, mg_params *best,
                  mg_report *best_rep, mg_params *runner_up, mg_report *runner_rep, size_t *evaluated, mg_err *err) {
  return mg_tune_keep(a, pb, opts, NULL, best, best_rep, runner_up, runner_rep, evaluated, err);
}

mg_status mg_tune_keep(const mg_algo *a, const mg_problem_spec *pb, const mg_sim_opts *opts,
                       int (*keep)(const mg_params *ps), mg_params *best, mg_report *best_rep, mg_params *runner_up,
                       mg_report *runner_rep, size_t *evaluated, mg_err *err) {
  return tune_run(a, pb, NULL, opts, keep, best, best_rep, runner_up, runner_rep, evaluated, err);
}

mg_status mg_tune_with(const mg_algo *a, const mg_problem_spec *pb, const mg_params *fixed, const mg_sim_opts *opts,
                       mg_params *best, mg_report *best_rep, mg_params *runner_up, mg_report *runner_rep,
                       size_t *evaluated, mg_err *err) {
  return tune_run(a, pb, fixed && fixed->n ? fixed : NULL, opts, NULL, best, best_rep, runner_up, runner_rep, evaluated,
                  err);
}

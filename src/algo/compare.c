/* compare: every registered algorithm of the problem that applies, run
 * under the same model (and the same contention rule), ranked by cost. */
#include "algo_internal.h"
#include "../model/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int rank(const mg_compare_row *r) { return r->refused ? 2 : (r->rep.verified ? 0 : 1); }

static size_t registry_index(const mg_algo *a) {
  for (size_t i = 0; i < mg_algo_count(); i++)
    if (mg_algo_at(i) == a) return i;
  return mg_algo_count();
}

/* Equal costs (to rounding) go to the algorithm registered first: the
 * registry lists the simpler algorithm before the one that generalises it
 * (ring and concentrate before circgos), and ours before the MPI
 * libraries' baselines. */
static int by_cost(const void *a, const void *b) {
  const mg_compare_row *x = a, *y = b;
  int rx = rank(x), ry = rank(y);
  if (rx != ry) return rx - ry;
  if (rx == 2) return strcmp(x->algo->name, y->algo->name);
  double cx = x->rep.cost, cy = y->rep.cost, tol = 1e-12 * fmax(fabs(cx), fabs(cy));
  if (cx < cy - tol) return -1;
  if (cx > cy + tol) return 1;
  size_t ix = registry_index(x->algo), iy = registry_index(y->algo);
  return ix < iy ? -1 : ix > iy;
}

/* Progress inside one row: a tuned algorithm's candidates are announced as
 * the row's step, "name (candidate k/K: name:k=v,...)", so that a long
 * tune is not silent; plain runs inside a row are not announced. */
typedef struct row_step {
  void (*fn)(void *arg, const char *what, int64_t done, int64_t total);
  void *arg;
  const char *name;
  int64_t row, rows;
} row_step;

static void candidate_step(void *arg, const char *what, int64_t done, int64_t total) {
  const row_step *r = arg;
  char s[MG_ERR_LEN + 64];
  if (total < 0) return;
  snprintf(s, sizeof s, "%s (candidate %lld/%lld: %s)", r->name, (long long)done + 1, (long long)total, what);
  r->fn(r->arg, s, r->row, r->rows);
}

mg_status mg_compare(const mg_problem_spec *pb, const mg_sim_opts *opts, int tune, mg_compare_row **rows, size_t *nrows,
                     mg_err *err) {
  /* a model the simulator refuses for every schedule (e.g. timing=async
   * with bus switching) is the caller's error, not every row's */
  /* and so is a bound beyond a double: every row would be refused for it,
   * each under another name (a review); mg_lower_bound checks both */
  mg_bound bd;
  mg_status vs = mg_lower_bound(pb, &bd, err);
  if (vs != MG_OK) return vs;
  size_t n = 0;
  mg_compare_row *out = mg_calloc(mg_algo_count(), sizeof *out);
  if (!out) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  o.keep_round_costs = 0;
  o.on_resolved = NULL;
  o.on_step = NULL; /* one step per algorithm, not per run inside it */
  int64_t steps = 0;
  for (size_t i = 0; i < mg_algo_count(); i++)
    steps += mg_algo_at(i)->problem == pb->problem;
  for (size_t i = 0; i < mg_algo_count(); i++) {
    const mg_algo *a = mg_algo_at(i);
    if (a->problem != pb->problem) continue;
    row_step rs = {opts ? opts->on_step : NULL, opts ? opts->on_step_arg : NULL, a->name, (int64_t)n, steps};
    if (rs.fn) rs.fn(rs.arg, a->name, (int64_t)n, steps);
    mg_compare_row *r = &out[n++];
    mg_err e = {{0}};
    r->algo = a;
    mg_status st = mg_algo_check(a, pb, &r->params, &e);
    if (st == MG_OK && tune && a->candidates) {
      mg_params second;
      mg_report second_rep;
      size_t evaluated;
      mg_sim_opts to = o;
      if (rs.fn) to.on_step = candidate_step, to.on_step_arg = &rs;
      st = mg_tune(a, pb, &to, &r->params, &r->rep, &second, &second_rep, &evaluated, &e);
      mg_report_free(&second_rep);
    } else if (st == MG_OK) {
      st = mg_run(a, pb, &r->params, &o, &r->rep, &e);
      if (st == MG_ERR_VIOLATION) st = MG_OK; /* kept, ranked after the verified */
    }
    if (st == MG_ERR_NOMEM) {
      for (size_t k = 0; k < n; k++)
        mg_report_free(&out[k].rep);
      free(out);
      return mg_fail(err, st, "%s", e.msg);
    }
    if (st != MG_OK) {
      mg_report_free(&r->rep);
      memset(&r->rep, 0, sizeof r->rep);
      r->refused = 1;
      snprintf(r->reason, sizeof r->reason, "%s", e.msg[0] ? e.msg : mg_strerror(st));
    }
  }
  qsort(out, n, sizeof *out, by_cost);
  *rows = out;
  *nrows = n;
  return MG_OK;
}

mg_status mg_algo_auto(const mg_problem_spec *pb, const mg_sim_opts *opts, const mg_algo **algo, mg_params *ps,
                       size_t *verified, double *cost, mg_err *err) {
  mg_auto_choice c;
  mg_status st = mg_algo_auto_choice(pb, opts, &c, err);
  if (verified) *verified = c.verified;
  if (st != MG_OK) return st;
  *algo = c.algo;
  *ps = c.params;
  if (cost) *cost = c.cost;
  return MG_OK;
}

mg_status mg_algo_auto_choice(const mg_problem_spec *pb, const mg_sim_opts *opts, mg_auto_choice *out, mg_err *err) {
  mg_compare_row *rows = NULL;
  size_t n = 0, nv = 0;
  memset(out, 0, sizeof *out);
  mg_status st = mg_compare(pb, opts, 1, &rows, &n, err);
  if (st != MG_OK) return st;
  for (size_t i = 0; i < n; i++)
    nv += !rows[i].refused && rows[i].rep.verified;
  out->verified = nv;
  /* the rows are sorted: verified ones first, by cost */
  if (n == 0 || rows[0].refused || !rows[0].rep.verified) {
    char topo[128];
    st = mg_fail(err, MG_ERR_UNSUPPORTED, "no registered %s algorithm verifies on %s under this model",
                 mg_problem_name(pb->problem), mg_topo_format(&pb->topo, topo, sizeof topo));
  } else {
    out->algo = rows[0].algo;
    out->params = rows[0].params;
    out->cost = rows[0].rep.cost;
    if (n > 1 && !rows[1].refused && rows[1].rep.verified) {
      out->runner_up = rows[1].algo;
      out->runner_up_params = rows[1].params;
      out->runner_up_cost = rows[1].rep.cost;
    }
  }
  for (size_t i = 0; i < n; i++)
    mg_report_free(&rows[i].rep);
  free(rows);
  return st;
}

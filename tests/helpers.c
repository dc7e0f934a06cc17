/* Test helpers (see helpers.h). */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

mg_problem_spec th_problem(mg_problem problem, const char *topo, const char *model, double bytes) {
  mg_problem_spec pb;
  mg_err err = {{0}};
  memset(&pb, 0, sizeof pb);
  pb.problem = problem;
  if (mg_topo_parse(topo, &pb.topo, &err) != MG_OK) fail_msg("topology %s: %s", topo, err.msg);
  mg_model_default(&pb.model);
  if (pb.topo.kind == MG_TOPO_MESHBUS) pb.model.switching = MG_SW_BUS;
  if (model && mg_model_parse(model, &pb.model, &err) != MG_OK) fail_msg("model %s: %s", model, err.msg);
  pb.bytes = bytes;
  return pb;
}

mg_problem_spec th_paper(mg_problem problem, const char *topo, double r) {
  mg_problem_spec pb = th_problem(problem, topo, NULL, 1.0);
  mg_model_paper_units(&pb.model, r, NULL);
  return pb;
}

mg_status th_run(const char *algo_spec, const mg_problem_spec *pb, mg_report *rep) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_status st = mg_algo_lookup(algo_spec, &a, &ps, &err);
  if (st != MG_OK) fail_msg("algorithm %s: %s", algo_spec, err.msg);
  return mg_run(a, pb, &ps, NULL, rep, &err);
}

double th_cost(const char *algo_spec, const mg_problem_spec *pb) {
  mg_report rep;
  char topo[64];
  mg_status st = th_run(algo_spec, pb, &rep);
  if (st != MG_OK || !rep.verified)
    fail_msg("%s on %s: status %d: %s", algo_spec, mg_topo_format(&pb->topo, topo, sizeof topo), st, rep.violation.msg);
  double c = rep.cost;
  mg_report_free(&rep);
  return c;
}

mg_report th_report(const char *algo_spec, const mg_problem_spec *pb) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_report rep;
  mg_sim_opts o;
  char topo[64];
  memset(&o, 0, sizeof o);
  o.keep_round_costs = 1;
  if (mg_algo_lookup(algo_spec, &a, &ps, &err) != MG_OK) fail_msg("algorithm %s: %s", algo_spec, err.msg);
  mg_status st = mg_run(a, pb, &ps, &o, &rep, &err);
  if (st != MG_OK || !rep.verified)
    fail_msg("%s on %s: %s %s", algo_spec, mg_topo_format(&pb->topo, topo, sizeof topo), err.msg, rep.violation.msg);
  return rep;
}

void th_closed_form_matches(const char *algo, mg_problem problem, const char *const *shapes, size_t nshapes,
                            const char *const *models, size_t nmodels, double bytes) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  if (mg_algo_lookup(algo, &a, &ps, &err) != MG_OK) fail_msg("algorithm %s: %s", algo, err.msg);
  for (size_t s = 0; s < nshapes; s++)
    for (size_t m = 0; m < nmodels; m++) {
      mg_problem_spec pb = th_problem(problem, shapes[s], models[m], bytes);
      double cf;
      assert_int_equal(a->closed_form(&pb, &ps, &cf, NULL), MG_OK);
      double sim = th_cost(algo, &pb);
      if (fabs(sim - cf) > 1e-9 * cf)
        fail_msg("%s on %s [%s]: simulated %.12g, closed form %.12g", algo, shapes[s], models[m], sim, cf);
    }
}

long long th_swing_rho(int j, uint32_t n) {
  long long p = 1;
  for (int e = 0; e <= j; e++)
    p *= -2;
  long long rho = (1 - p) / 3;
  if (rho < 0) rho = -rho;
  return 2 * rho > (long long)n ? (long long)n - rho : rho;
}

void th_sched_init(th_sched *s, mg_problem problem, const char *topo, const char *model, uint32_t pieces) {
  memset(s, 0, sizeof *s);
  mg_problem_spec pb = th_problem(problem, topo, model, 1.0);
  s->info.problem = problem;
  s->info.topo = pb.topo;
  s->info.model = pb.model;
  s->info.bytes = 1.0;
  s->info.pieces = pieces;
  s->info.rounds_hint = -1;
  snprintf(s->info.algorithm, sizeof s->info.algorithm, "hand");
  for (int i = 0; i < 16; i++)
    mg_round_init(&s->rounds[i]);
}

mg_transfer *th_add(th_sched *s, int round, mg_transfer tr) {
  if (round + 1 > s->nrounds) s->nrounds = round + 1;
  return mg_round_add(&s->rounds[round], &tr);
}

mg_status th_simulate(th_sched *s, mg_report *rep) {
  mg_sim *sim;
  mg_err err = {{0}};
  mg_status st = mg_sim_create(NULL, &sim, &err);
  if (st != MG_OK) return st;
  mg_sink k = mg_sim_sink(sim);
  st = k.begin(k.ctx, &s->info, &err);
  for (int i = 0; st == MG_OK && i < s->nrounds; i++)
    st = k.round(k.ctx, &s->rounds[i], &err);
  if (st == MG_OK) st = k.end(k.ctx, &err);
  mg_sim_take_report(sim, rep);
  mg_sim_destroy(sim);
  return st;
}

mg_status th_stream(void *arg, mg_sink *k, mg_err *err) {
  th_sched *s = arg;
  mg_status st = k->begin(k->ctx, &s->info, err);
  for (int i = 0; st == MG_OK && i < s->nrounds; i++)
    st = k->round(k->ctx, &s->rounds[i], err);
  return st == MG_OK ? k->end(k->ctx, err) : st;
}

void th_sched_free(th_sched *s) {
  for (int i = 0; i < 16; i++)
    mg_round_free(&s->rounds[i]);
}

mg_transfer th_one_item(uint32_t src, uint32_t dst, int item) {
  static const uint64_t ids[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  mg_transfer t = mg_xfer(src, dst);
  t.sel.flags = MG_SEL_LIST;
  t.sel.list = &ids[item & 15];
  t.sel.list_len = 1;
  return t;
}

double th_last_round_cost(const char *algo_spec, const mg_problem_spec *pb) {
  const mg_algo *a;
  mg_params ps;
  mg_report rep;
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  o.keep_round_costs = 1;
  assert_int_equal(mg_algo_lookup(algo_spec, &a, &ps, NULL), MG_OK);
  assert_int_equal(mg_run(a, pb, &ps, &o, &rep, NULL), MG_OK);
  assert_true(rep.verified && rep.n_round_costs >= 1);
  double last = rep.round_costs[rep.n_round_costs - 1];
  mg_report_free(&rep);
  return last;
}

int th_refuses(const char *algo, const char *topo) {
  mg_problem_spec pb = th_problem(MG_GOSSIP, topo, "contention=shared,ts=1", 1.0);
  mg_err e = {{0}};
  return mg_algo_check(mg_algo_find(algo), &pb, NULL, &e) == MG_ERR_UNSUPPORTED && strlen(e.msg) > 0;
}

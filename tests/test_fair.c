/* contention=fair: max-min fair sharing of the arcs within a round
 * (src/model/fair.c), against hand-computed fluid schedules. */
#include "helpers.h"

#include <math.h>
#include <string.h>

static mg_transfer piece(uint32_t src, uint32_t dst, uint32_t p) {
  mg_transfer t = mg_xfer(src, dst);
  t.sel.flags = MG_SEL_PIECE;
  t.sel.piece = p;
  return t;
}

/* line:4, arcs e1 = 0->1, e2 = 1->2, e3 = 2->3, one byte per piece.
 * e1: A1, A2 (1 byte), B (2 bytes, 0->2); e3: D1, D2 (1 byte), C (2 bytes,
 * 1->3); e2 carries B and C. Fair: every flow gets 1/3 until t = 3 (A, D
 * done, e2 ran at 2/3), then B and C share e2 at 1/2: they end at t = 5.
 * The busiest arc carries 4 bytes: shared prices 4. Node 0 starts three
 * messages over its one out-arc: three start-ups, one after the other. */
static double one_round(const char *contention) {
  th_sched s;
  char model[64];
  snprintf(model, sizeof model, "contention=%s,ts=0.5,td=0,tl=1", contention);
  th_sched_init(&s, MG_GOSSIP, "line:4", model, 2);
  s.info.bytes = 2.0;
  th_add(&s, 0, piece(0, 1, 0));
  th_add(&s, 0, piece(0, 1, 1));
  th_add(&s, 0, mg_xfer(0, 2));
  th_add(&s, 0, mg_xfer(1, 3));
  th_add(&s, 0, piece(2, 3, 0));
  th_add(&s, 0, piece(2, 3, 1));
  mg_report rep;
  mg_status st = th_simulate(&s, &rep);
  assert_int_equal(st, MG_ERR_VIOLATION); /* one round is not a gossip */
  assert_int_equal(rep.violation.rule, MG_RULE_INCOMPLETE);
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static void test_fair_vs_shared(void **state) {
  (void)state;
  assert_true(fabs(one_round("fair") - (3 * 0.5 + 5)) < 1e-9);
  assert_true(fabs(one_round("shared") - (3 * 0.5 + 4)) < 1e-9);
}

/* Without contention, fair pricing is the wormhole price. */
static void test_fair_contention_free(void **state) {
  (void)state;
  const char *topos[] = {"ring:9", "ring:8", "line:7"};
  for (int i = 0; i < 3; i++) {
    mg_problem_spec a = th_problem(MG_GOSSIP, topos[i], "contention=fair,ts=2,td=0.5,tl=0.01", 100);
    mg_problem_spec b = th_problem(MG_GOSSIP, topos[i], "contention=strict,ts=2,td=0.5,tl=0.01", 100);
    assert_true(fabs(th_cost("ring", &a) - th_cost("ring", &b)) < 1e-9);
    assert_true(fabs(th_cost("mpi-allgather-ring", &a) - th_cost("mpi-allgather-ring", &b)) < 1e-9);
  }
}

/* Fair is never below the busiest-arc rule when td = 0 (the arc's bytes
 * must cross it), on the MPI baselines that share arcs. */
static void test_fair_at_least_shared(void **state) {
  (void)state;
  const char *gossip[] = {"mpi-allgather-rd", "mpi-allgather-bruck", "mpi-allgather-direct"};
  const char *exchange[] = {"mpi-alltoall-bruck", "mpi-alltoall-pairwise", "mpi-alltoall-direct"};
  const char *topos[] = {"torus:4x4", "mesh:3x5", "torus:3x3x2", "ring:10"};
  for (int t = 0; t < 4; t++)
    for (int a = 0; a < 3; a++) {
      mg_problem_spec f = th_problem(MG_GOSSIP, topos[t], "contention=fair,ts=1,tl=0.01", 100);
      mg_problem_spec s = th_problem(MG_GOSSIP, topos[t], "contention=shared,ts=1,tl=0.01", 100);
      assert_true(th_cost(gossip[a], &f) >= th_cost(gossip[a], &s) * (1 - 1e-12));
      f.problem = s.problem = MG_EXCHANGE;
      assert_true(th_cost(exchange[a], &f) >= th_cost(exchange[a], &s) * (1 - 1e-12));
    }
}

static void test_fair_model(void **state) {
  (void)state;
  mg_model m;
  mg_err err = {{0}};
  char buf[256];
  mg_model_default(&m);
  assert_int_equal(mg_model_parse("contention=fair", &m, &err), MG_OK);
  assert_int_equal(m.contention, MG_CONT_FAIR);
  assert_string_equal(mg_contention_name(m.contention), "fair");
  assert_non_null(strstr(mg_model_format(&m, buf, sizeof buf), "contention=fair"));
  /* store-and-forward has no fluid sharing: refused */
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:5", "switching=saf,contention=fair", 1);
  mg_report rep;
  assert_int_equal(th_run("ring", &pb, &rep), MG_ERR_INVALID);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fair_vs_shared),
      cmocka_unit_test(test_fair_contention_free),
      cmocka_unit_test(test_fair_at_least_shared),
      cmocka_unit_test(test_fair_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

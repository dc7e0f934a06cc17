/* exchange-relay (issue 16): the ring ties relayed half the other way
 * round, SimGrid's tie routes for the rest. Checks the verified schedule
 * on tori with and without ties, meshes and 3D; on torus:8x8 the rounds,
 * the transfer term (each main round's busiest arc carries 32 blocks,
 * half the bisection bound, and each closing round 2) and the start-ups
 * (14 messages a main round over 4 arcs, at most 4 last hops a closing
 * round), as derived in exchange_relay.c; without ties it is
 * exchange-allport itself. */
#include "helpers.h"

#include <math.h>
#include <string.h>

static mg_report run_ok(const char *algo, const mg_problem_spec *pb) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_report rep;
  if (mg_algo_lookup(algo, &a, &ps, &err) != MG_OK) fail_msg("%s", err.msg);
  mg_status st = mg_run(a, pb, &ps, NULL, &rep, &err);
  if (st != MG_OK || !rep.verified) fail_msg("%s: status %d: %s %s", algo, st, err.msg, rep.violation.msg);
  return rep;
}

static void test_relay_verifies(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:8x8", "torus:4x4",   "torus:6x6", "torus:4x6", "torus:4x4x4",
                                      "torus:9x9", "torus:2x2",   "mesh:5x7",  "mesh:8x8",  "ring:8",
                                      "ring:6",    "torus:8x4x2", "line:5"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=shared,ts=1,td=0,tl=1", 1.0);
    mg_report rep = run_ok("exchange-relay", &pb);
    mg_report_free(&rep);
  }
}

static void test_relay_8x8(void **state) {
  (void)state;
  /* transfer only: 32 + 2 + 32 + 2 blocks on the busiest arcs */
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=0,td=0,tl=1", 1.0);
  mg_report rep = run_ok("exchange-relay", &pb);
  assert_int_equal(rep.rounds, 4);
  assert_float_equal(rep.cost, 68, 1e-9);
  mg_report_free(&rep);
  /* relay=0: exchange-allport's schedule on SimGrid's tie routes: a + arc
   * carries offsets 1..3 and the 4 ties behind it, 10 messages of 4
   * blocks, in both rounds (exchange-allport's own balanced routes: 32) */
  pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=0,td=0,tl=1", 1.0);
  {
    const mg_algo *a;
    mg_params ps;
    mg_err err = {{0}};
    if (mg_algo_lookup("exchange-relay:relay=0", &a, &ps, &err) != MG_OK) fail_msg("%s", err.msg);
    assert_int_equal(mg_run(a, &pb, &ps, NULL, &rep, &err), MG_OK);
    assert_true(rep.verified);
    assert_int_equal(rep.rounds, 2);
    assert_float_equal(rep.cost, 80, 1e-9);
    mg_report_free(&rep);
  }
  /* start-ups only: ceil(14/4) per main round, 1 per closing round */
  pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=1,td=0,tl=0", 1.0);
  rep = run_ok("exchange-relay", &pb);
  assert_float_equal(rep.cost, 4 + 1 + 4 + 1, 1e-9);
  mg_report_free(&rep);
}

/* No ties (odd extents, meshes): the schedule is exchange-allport's. */
static void test_relay_no_ties(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:9x9", "mesh:5x7", "torus:5x3x7"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=shared,ts=3,td=0.5,tl=1", 2.0);
    mg_report a = run_ok("exchange-relay", &pb), b = run_ok("exchange-allport", &pb);
    assert_int_equal(a.rounds, b.rounds);
    assert_float_equal(a.cost, b.cost, 1e-9 * b.cost);
    mg_report_free(&a);
    mg_report_free(&b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_relay_verifies),
      cmocka_unit_test(test_relay_8x8),
      cmocka_unit_test(test_relay_no_ties),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

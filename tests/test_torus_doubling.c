/* torus-doubling: one message per node and step, ceil(log2 N) steps on
 * the tori of the allgather issue (also where N is not a power of two:
 * 9x9 in 7, 3x5 in 4; torus:3x4x5 takes one more), and the closed form (computed from the generators,
 * no simulation) equal to the simulated cost under contention=shared. */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_steps(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:9x9", "torus:16x16", "torus:4x4x4", "ring:64",
                                       "ring:7",    "torus:3x5", "torus:2x2",   "torus:2x7",   "torus:3x4x5"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=1,td=0,tl=0", 1.0);
    mg_report rep;
    assert_int_equal(th_run("torus-doubling", &pb, &rep), MG_OK);
    assert_true(rep.verified);
    int lg = 0;
    while ((1u << lg) < pb.topo.N)
      lg++;
    if (!strcmp(shapes[s], "torus:3x4x5")) lg++; /* the search finds 7 steps for its 60 nodes, not 6 */
    if (rep.rounds != lg) fail_msg("%s: %lld steps, ceil(log2 N) = %d", shapes[s], (long long)rep.rounds, lg);
    assert_int_equal(rep.transfers, (uint64_t)lg * pb.topo.N); /* one message per node per step */
    mg_report_free(&rep);
  }
}

static void test_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:9x9", "torus:4x4x4", "ring:12", "torus:3x5", "torus:6x4"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=0,tl=5.714e-9",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  const mg_algo *a = mg_algo_find("torus-doubling");
  assert_non_null(a);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
      mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], models[m], 4096.0);
      double cf;
      assert_int_equal(a->closed_form(&pb, NULL, &cf, NULL), MG_OK);
      double sim = th_cost("torus-doubling", &pb);
      if (fabs(sim - cf) > 1e-9 * cf)
        fail_msg("%s [%s]: simulated %.12g, closed form %.12g", shapes[s], models[m], sim, cf);
    }
}

/* ports=2 and 4: every piece runs a symmetric copy of the steps; the
 * schedule verifies with ports messages per node and step, and on 8x8 at
 * 32 KiB it spreads the busiest-arc bytes: cheaper than ports=1 under the
 * shared model with the bandwidth. */
static void test_ports(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:9x9", "torus:4x4x4", "torus:3x5", "torus:4x6"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    double prev = INFINITY;
    for (int p = 1; p <= 4; p *= 2) {
      mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=1e-6,td=0,tl=5.714e-9", 32768.0);
      char spec[48];
      mg_report rep;
      snprintf(spec, sizeof spec, "torus-doubling:ports=%d", p);
      assert_int_equal(th_run(spec, &pb, &rep), MG_OK);
      assert_true(rep.verified);
      assert_int_equal(rep.transfers, (uint64_t)rep.rounds * pb.topo.N * (uint64_t)p);
      if (!strcmp(shapes[s], "torus:8x8") && !(rep.cost < prev)) fail_msg("8x8: ports=%d not cheaper", p);
      prev = rep.cost;
      mg_report_free(&rep);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_steps), cmocka_unit_test(test_closed_form),
                                     cmocka_unit_test(test_ports)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

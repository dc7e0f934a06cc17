/* torus-quadrupling: log2 n steps of three messages per node on n x n
 * tori (n a power of two), the closed form (file header) equal to the
 * simulated cost under contention=shared, and the last step contention-free:
 * its busiest arc carries one message of n^2/4 blocks. */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:2x2", "torus:4x4", "torus:8x8", "torus:16x16", "torus:32x32"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=0,tl=5.714e-9",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  const mg_algo *a = mg_algo_find("torus-quadrupling");
  assert_non_null(a);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
      mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], models[m], 1024.0);
      double cf;
      mg_report rep;
      assert_int_equal(a->closed_form(&pb, NULL, &cf, NULL), MG_OK);
      assert_int_equal(th_run("torus-quadrupling", &pb, &rep), MG_OK);
      assert_true(rep.verified);
      if (fabs(rep.cost - cf) > 1e-9 * cf)
        fail_msg("%s [%s]: simulated %.12g, closed form %.12g", shapes[s], models[m], rep.cost, cf);
      int L = 0;
      while ((1u << L) < pb.topo.n[0])
        L++;
      assert_int_equal(rep.rounds, L);
      assert_int_equal(rep.transfers, (uint64_t)3 * L * pb.topo.N);
      mg_report_free(&rep);
    }
}

/* The last round alone: its busiest arc carries exactly one message of
 * N/4 blocks (load 1), read from the per-round costs with ts = td = 0. */
static void test_last_step_load(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:16x16"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=0,td=0,tl=1", 1.0);
    assert_true(fabs(th_last_round_cost("torus-quadrupling", &pb) - pb.topo.N / 4.0) < 1e-9);
  }
}

static void test_refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9", "torus:8x4", "torus:4x4x4", "mesh:8x8", "ring:8"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    assert_true(th_refuses("torus-quadrupling", shapes[s]));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_closed_form), cmocka_unit_test(test_last_step_load),
                                     cmocka_unit_test(test_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

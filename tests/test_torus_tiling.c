/* torus-tiling: on torus:8x8 and 4x4 the simulated cost under
 * contention=shared equals the closed form of the file header for
 * split=0/1 and spread=0/1, recounted here from the busiest arcs SimGrid's
 * routes load (8x8: 8, 2, 1 messages; split: 4, 4, 2, 1; 4x4: 4, 1;
 * split: 2, 2, 1); the last step is contention-free (one message of N/4
 * blocks on the busiest arc); spread=1 moves every block once (16, 16,
 * 8, 8 blocks in its last step) and only on 8x8; other shapes are refused. */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct expect {
  const char *shape;
  int split, spread, rounds;
  double ts_count, hops, block_loads; /* start-ups, sum of longest routes, sum of load x blocks */
  uint64_t transfers;
} expect;

static const expect cases[] = {
    {"torus:8x8", 0, 0, 3, 3, 6 + 3 + 1, 8 * 1 + 2 * 4 + 1 * 16, 3 * 3 * 64},
    {"torus:8x8", 1, 0, 4, 4, 4 + 6 + 3 + 1, 4 * 1 + 4 * 2 + 2 * 4 + 1 * 16, (1 + 1 + 3 + 3) * 64},
    /* spread: the last step's busiest arcs still carry one 16-block message (the x ones) */
    {"torus:8x8", 0, 1, 3, 3, 6 + 3 + 1, 8 * 1 + 2 * 4 + 1 * 16, (3 + 3 + 4) * 64},
    {"torus:8x8", 1, 1, 4, 4, 4 + 6 + 3 + 1, 4 * 1 + 4 * 2 + 2 * 4 + 1 * 16, (1 + 1 + 3 + 4) * 64},
    {"torus:4x4", 0, 0, 2, 2, 3 + 1, 4 * 1 + 1 * 4, 2 * 3 * 16},
    {"torus:4x4", 1, 0, 3, 3, 2 + 3 + 1, 2 * 1 + 2 * 2 + 1 * 4, (1 + 1 + 3) * 16},
};

static void test_costs(void **state) {
  (void)state;
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=0,tl=5.714e-9"};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
      const expect *x = &cases[c];
      mg_problem_spec pb = th_problem(MG_GOSSIP, x->shape, models[m], 1024.0);
      char spec[64];
      snprintf(spec, sizeof spec, "torus-tiling:split=%d,spread=%d", x->split, x->spread);
      const mg_algo *a;
      mg_params ps;
      mg_report rep;
      double cf;
      assert_int_equal(mg_algo_lookup(spec, &a, &ps, NULL), MG_OK);
      assert_int_equal(a->closed_form(&pb, &ps, &cf, NULL), MG_OK);
      assert_int_equal(mg_run(a, &pb, &ps, NULL, &rep, NULL), MG_OK);
      assert_true(rep.verified);
      double want = x->ts_count * pb.model.ts + x->hops * pb.model.td + x->block_loads * pb.bytes * pb.model.tl;
      if (fabs(rep.cost - want) > 1e-9 * want || fabs(cf - want) > 1e-9 * want)
        fail_msg("%s [%s]: simulated %.12g, closed form %.12g, recount %.12g", spec, models[m], rep.cost, cf, want);
      assert_int_equal(rep.rounds, x->rounds);
      assert_int_equal(rep.transfers, x->transfers);
      mg_report_free(&rep);
    }
}

/* spread=1: the last round's four messages per node carry 16, 16, 8, 8
 * blocks (bytes = blocks with a 1-byte block): 64 x 48 bytes in all. */
static void test_spread_bytes(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:8x8", "contention=shared,ts=0,td=0,tl=1", 1.0);
  const mg_algo *a;
  mg_params ps;
  mg_report rep;
  assert_int_equal(mg_algo_lookup("torus-tiling:spread=1", &a, &ps, NULL), MG_OK);
  assert_int_equal(mg_run(a, &pb, &ps, NULL, &rep, NULL), MG_OK);
  assert_true(rep.verified);
  /* every node receives 63 blocks, each exactly once */
  assert_true(fabs(rep.bytes_moved - 64.0 * 63.0) < 1e-9);
  mg_report_free(&rep);
  mg_err e = {{0}};
  pb = th_problem(MG_GOSSIP, "torus:4x4", "contention=shared,ts=1", 1.0);
  assert_int_equal(mg_algo_lookup("torus-tiling:spread=1", &a, &ps, NULL), MG_OK);
  assert_int_equal(mg_algo_check(a, &pb, &ps, &e), MG_ERR_UNSUPPORTED);
}

/* The last round alone costs N/4 blocks with ts = td = 0: every arc carries
 * at most one message (the T tetromino's three one-hop sends). */
static void test_last_step_load(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:4x4"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=0,td=0,tl=1", 1.0);
    assert_true(fabs(th_last_round_cost("torus-tiling", &pb) - pb.topo.N / 4.0) < 1e-9);
  }
}

static void test_refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:16x16", "torus:9x9", "torus:8x4", "mesh:8x8", "ring:64"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    assert_true(th_refuses("torus-tiling", shapes[s]));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_costs), cmocka_unit_test(test_last_step_load),
                                     cmocka_unit_test(test_spread_bytes), cmocka_unit_test(test_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* torus-digits (src/algo/gossip/digits.c): Bruck's allgather over
 * exchange-digits' digit sets, the most loaded set first. Checked: the
 * busiest arcs by hand (torus:9x9: 3 x 1 + 2 x 3 + 1 x 9 + 1 x 27 = 45
 * pieces against torus-ternary's 48; 4x4x4 in radix 4: 3 x 1 + 2 x 4 +
 * 1 x 16 = 27), search=0 = torus-ternary under three models, the recount
 * of rounds, messages and pieces (every piece reaches every node once:
 * N (N - 1) moved), closed form = simulation, meshes, refusals. */
#include "helpers.h"

#include <stdio.h>

static void by_hand(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-digits", &pb) == 45);
  assert_true(th_cost("torus-digits:search=0", &pb) == 48);
  assert_true(th_cost("torus-ternary", &pb) == 48);
  pb = th_problem(MG_GOSSIP, "torus:4x4x4", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-digits", &pb) == 27);
  /* start-ups: one a round (2 or 3 messages over 4 or 6 out-arcs); hops: the longest route of each step */
  pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=5,td=1,tl=0", 1.0);
  assert_true(th_cost("torus-digits", &pb) == 4 * 5 + (6 + 3 + 2 + 1));
}

static void same_as_ternary(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9", "ring:27", "torus:3x9", "torus:3x3x3"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=fair,ts=0.00025,td=5e-8,tl=5.714e-9,routes=simgrid",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
      mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], models[m], 1024.0);
      double a = th_cost("torus-digits:search=0", &pb), b = th_cost("torus-ternary", &pb);
      if (a != b) fail_msg("%s, %s: %.17g against %.17g", shapes[s], models[m], a, b);
    }
}

static void recount(void **state) {
  (void)state;
  static const struct {
    const char *topo;
    int rounds, r;
  } cases[] = {{"torus:9x9", 4, 3},   {"ring:27", 3, 3},   {"torus:3x3x3", 3, 3}, {"mesh:9x9", 4, 3},
               {"torus:4x4x4", 3, 4}, {"torus:8x8", 3, 4}, {"ring:16", 2, 4},     {"mesh:4x4x4", 3, 4}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, cases[c].topo, "contention=shared,ts=1,td=0,tl=1", 1.0);
    uint32_t N = pb.topo.N, r = (uint32_t)cases[c].r;
    mg_report rep;
    assert_int_equal(th_run("torus-digits", &pb, &rep), MG_OK);
    if (!rep.verified || rep.rounds != cases[c].rounds || rep.transfers != (uint64_t)cases[c].rounds * (r - 1) * N ||
        rep.bytes_moved != (double)N * (N - 1) || rep.sum_max_items != (double)(N - 1) / (r - 1))
      fail_msg("%s: verified %d, %d rounds (want %d), %llu transfers, %g pieces moved, largest %g", cases[c].topo,
               rep.verified, (int)rep.rounds, cases[c].rounds, (unsigned long long)rep.transfers, rep.bytes_moved,
               rep.sum_max_items);
    mg_report_free(&rep);
  }
}

static void closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9",   "ring:27",   "torus:3x9", "torus:3x3x3", "ring:81",
                                       "torus:4x4x4", "torus:8x8", "ring:16",   "torus:2x8",   "torus:27x27"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=5e-8,tl=5.714e-9",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  th_closed_form_matches("torus-digits", MG_GOSSIP, shapes, sizeof shapes / sizeof shapes[0], models,
                         sizeof models / sizeof models[0], 1024.0);
}

static void refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8x8", "torus:6x6", "ring:12", "mesh:2x4", "torus:9x10", "torus:3x4"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    if (!th_refuses("torus-digits", shapes[s])) fail_msg("%s: not refused", shapes[s]);
  mg_report rep;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "port=one,contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-digits", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_EXCHANGE, "torus:9x9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-digits", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_not_equal(th_run("torus-digits:radix=4", &pb, &rep), MG_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(by_hand), cmocka_unit_test(same_as_ternary),
                                     cmocka_unit_test(recount), cmocka_unit_test(closed_form),
                                     cmocka_unit_test(refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* exchange-ternary (src/algo/exchange/exchange_ternary.c): Bruck's
 * exchange in radix 3 by balanced digits on tori of powers of three.
 * Recounted from the report: sum_i log3 n_i rounds of 2N messages of N/3
 * blocks; the busiest arcs of torus:9x9 counted by hand (27 blocks x
 * 3^l messages per arc: 27 (1 + 3 + 1 + 3) = 216); closed form =
 * simulation under three models; refusals. */
#include "helpers.h"

#include <stdio.h>
#include <string.h>

static void recount(void **state) {
  (void)state;
  static const struct {
    const char *topo;
    int rounds;
  } cases[] = {{"torus:9x9", 4},   {"ring:27", 3}, {"torus:3x9", 3},
               {"torus:3x3x3", 3}, {"ring:3", 1},  {"torus:27x3", 4}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, cases[c].topo, "contention=shared,ts=1,td=0,tl=1", 1.0);
    uint32_t N = pb.topo.N;
    mg_report rep;
    assert_int_equal(th_run("exchange-ternary", &pb, &rep), MG_OK);
    double blocks = (double)cases[c].rounds * 2 * N * (N / 3);
    if (!rep.verified || rep.rounds != cases[c].rounds || rep.transfers != (uint64_t)cases[c].rounds * 2 * N ||
        rep.bytes_moved != blocks || rep.sum_max_items != (double)cases[c].rounds * (N / 3))
      fail_msg("%s: verified %d, %d rounds (want %d), %llu transfers, %g blocks moved (want %g), largest %g",
               cases[c].topo, rep.verified, (int)rep.rounds, cases[c].rounds, (unsigned long long)rep.transfers,
               rep.bytes_moved, blocks, rep.sum_max_items);
    mg_report_free(&rep);
  }
}

/* torus:9x9: steps x by 1, y by 1, x by 3, y by 3; a translation by 3^l
 * puts 3^l messages of 27 blocks on every arc of its direction. */
static void by_hand(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("exchange-ternary", &pb) == 216);
  pb = th_problem(MG_EXCHANGE, "ring:27", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("exchange-ternary", &pb) == 9 * (1 + 3 + 9));
  /* start-ups: 4 rounds on 9x9, every hop counted once per round */
  pb = th_problem(MG_EXCHANGE, "torus:9x9", "contention=shared,ts=5,td=1,tl=0", 1.0);
  assert_true(th_cost("exchange-ternary", &pb) == 4 * 5 + (1 + 1 + 3 + 3));
}

/* Meshes and lines: the torus twin's steps, the wrapping ones the long way
 * (issue 16: every exchange algorithm that can work on a mesh does).
 * line:3: one block each way, 0 -> 2 and 2 -> 0 over two arcs: two
 * messages on every arc. line:9, messages of N/3 = 3 blocks: the
 * distance-3 step puts 6 messages on arc (2, 3) (as torus-ternary's test
 * counts), the distance-1 step 2: 3 (2 + 6) = 24. mesh:9x9, 27 blocks a
 * message: 27 (2 + 2 + 6 + 6) = 432, twice the torus's 216 (a mesh's
 * bisection is half a torus's). No closed form there. */
static void meshes(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "line:3", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("exchange-ternary", &pb) == 2);
  pb = th_problem(MG_EXCHANGE, "line:9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("exchange-ternary", &pb) == 24);
  pb = th_problem(MG_EXCHANGE, "mesh:9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("exchange-ternary", &pb) == 432);
  double cf;
  const mg_algo *a = mg_algo_find("exchange-ternary");
  assert_int_equal(a->closed_form(&pb, NULL, &cf, NULL), MG_ERR_UNSUPPORTED);
}

static void closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9", "ring:27", "torus:3x9", "torus:3x3x3", "ring:81"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=5e-8,tl=5.714e-9",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  th_closed_form_matches("exchange-ternary", MG_EXCHANGE, shapes, sizeof shapes / sizeof shapes[0], models,
                         sizeof models / sizeof models[0], 1024.0);
}

static void refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:6x6", "ring:12", "mesh:8x8", "line:12", "torus:9x10"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, shapes[s], "contention=shared,ts=1,td=0,tl=1", 1.0);
    mg_report rep;
    if (th_run("exchange-ternary", &pb, &rep) != MG_ERR_UNSUPPORTED) fail_msg("%s: not refused", shapes[s]);
  }
  mg_report rep;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:9x9", "port=one,contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("exchange-ternary", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("exchange-ternary", &pb, &rep), MG_ERR_UNSUPPORTED);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(recount), cmocka_unit_test(by_hand), cmocka_unit_test(meshes),
                                     cmocka_unit_test(closed_form), cmocka_unit_test(refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

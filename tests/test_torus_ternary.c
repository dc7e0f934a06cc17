/* torus-ternary (src/algo/gossip/ternary.c): Bruck's allgather in radix 3
 * by balanced digits on tori of powers of three, the long steps first.
 * Recounted from the report: sum_i log3 n_i rounds of 2N messages (2dN
 * with split=d), step j's messages of 3^j pieces; the busiest arcs counted
 * by hand (3^l messages of 3^j pieces on every arc of a distance-3^l
 * step); closed form = simulation under three models; refusals. */
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
    mg_problem_spec pb = th_problem(MG_GOSSIP, cases[c].topo, "contention=shared,ts=1,td=0,tl=1", 1.0);
    uint32_t N = pb.topo.N;
    mg_report rep;
    assert_int_equal(th_run("torus-ternary", &pb, &rep), MG_OK);
    /* every node receives 3^j pieces from each side in step j: N - 1 in all */
    double moved = (double)N * (N - 1), largest = 0, held = 1;
    for (int j = 0; j < cases[c].rounds; j++)
      largest += held, held *= 3;
    if (!rep.verified || rep.rounds != cases[c].rounds || rep.transfers != (uint64_t)cases[c].rounds * 2 * N ||
        rep.bytes_moved != moved || rep.sum_max_items != largest)
      fail_msg("%s: verified %d, %d rounds (want %d), %llu transfers, %g pieces moved (want %g), largest %g (want %g)",
               cases[c].topo, rep.verified, (int)rep.rounds, cases[c].rounds, (unsigned long long)rep.transfers,
               rep.bytes_moved, moved, rep.sum_max_items, largest);
    mg_report_free(&rep);
  }
}

/* Busiest arcs by hand: a step of distance 3^l puts 3^l messages on every
 * arc of its two directions. */
static void by_hand(void **state) {
  (void)state;
  /* torus:9x9, steps x by 3, y by 3, x by 1, y by 1: 3*1 + 3*3 + 1*9 + 1*27 */
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 48);
  /* split=2: half-size pieces, piece 1 on the other axis: every arc busy */
  assert_true(th_cost("torus-ternary:split=2", &pb) == 24);
  /* ring:9, the header's trace: 3 messages of 1 piece, then 1 of 3 */
  pb = th_problem(MG_GOSSIP, "ring:9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 6);
  /* ring:27: 9*1 + 3*3 + 1*9 */
  pb = th_problem(MG_GOSSIP, "ring:27", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 27);
  /* torus:9x9x9: 3 (1 + 3 + 9) + 27 + 81 + 243 = 390, a third with split=3 */
  pb = th_problem(MG_GOSSIP, "torus:9x9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 390);
  assert_true(th_cost("torus-ternary:split=3", &pb) == 130);
  /* start-ups and hops: 4 rounds on 9x9, the longest route once per round */
  pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=5,td=1,tl=0", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 4 * 5 + (3 + 3 + 1 + 1));
}

/* The long steps first is the cheaper order: the shortest-first order
 * would cost 1 + 3 + 27 + 81 = 112 on 9x9; torus-doubling's 98. */
static void order_pays(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) < th_cost("torus-doubling", &pb));
}

/* Meshes and lines run the torus twin's steps, the wrapping ones the long
 * way. line:3: 0 -> 2 and 2 -> 0 over two arcs, so each arc carries two
 * messages of one piece. line:9: the distance-3 step loads arc (2, 3) with
 * the + messages of 0, 1, 2 and the long-way - messages of 0, 1, 2 (to 6,
 * 7, 8): 6 x 1; the distance-1 step two messages (1 and the long way from
 * 0 or 8) of 3 pieces: 6; mesh:9x9 the same per line: 6 + 6 x 3 + 2 x 9 +
 * 2 x 27 = 96, twice the torus's 48. No closed form there. */
static void meshes(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "line:3", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 2);
  pb = th_problem(MG_GOSSIP, "line:9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 12);
  pb = th_problem(MG_GOSSIP, "mesh:9x9", "contention=shared,ts=0,td=0,tl=1", 1.0);
  assert_true(th_cost("torus-ternary", &pb) == 96);
  assert_true(th_cost("torus-ternary:split=2", &pb) == 48);
  pb = th_problem(MG_GOSSIP, "mesh:3x9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  mg_report rep;
  assert_int_equal(th_run("torus-ternary", &pb, &rep), MG_OK);
  assert_true(rep.verified && rep.rounds == 3);
  mg_report_free(&rep);
  double cf;
  const mg_algo *a = mg_algo_find("torus-ternary");
  assert_int_equal(a->closed_form(&pb, NULL, &cf, NULL), MG_ERR_UNSUPPORTED);
}

static void closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9", "ring:27", "torus:3x9", "torus:3x3x3", "ring:81"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=5e-8,tl=5.714e-9",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  th_closed_form_matches("torus-ternary", MG_GOSSIP, shapes, sizeof shapes / sizeof shapes[0], models,
                         sizeof models / sizeof models[0], 1024.0);
  static const char *const cubes[] = {"torus:9x9", "torus:3x3x3", "torus:27x27"};
  th_closed_form_matches("torus-ternary:split=2", MG_GOSSIP, cubes, 1, models, sizeof models / sizeof models[0],
                         1024.0);
  th_closed_form_matches("torus-ternary:split=3", MG_GOSSIP, cubes + 1, 1, models, sizeof models / sizeof models[0],
                         1024.0);
  th_closed_form_matches("torus-ternary:split=2", MG_GOSSIP, cubes + 2, 1, models, 1, 4096.0);
}

static void refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:6x6", "ring:12", "mesh:8x8", "line:12", "torus:9x10"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    if (!th_refuses("torus-ternary", shapes[s])) fail_msg("%s: not refused", shapes[s]);
  mg_report rep;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "port=one,contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-ternary", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_EXCHANGE, "torus:9x9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-ternary", &pb, &rep), MG_ERR_UNSUPPORTED);
  /* split: 1 or d, and d only on equal sides */
  pb = th_problem(MG_GOSSIP, "torus:9x27", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-ternary:split=2", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-ternary:split=3", &pb, &rep), MG_ERR_INVALID);
  pb = th_problem(MG_GOSSIP, "ring:9", "contention=shared,ts=1,td=0,tl=1", 1.0);
  assert_int_equal(th_run("torus-ternary:split=2", &pb, &rep), MG_ERR_INVALID);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(recount),     cmocka_unit_test(by_hand),
                                     cmocka_unit_test(order_pays),  cmocka_unit_test(meshes),
                                     cmocka_unit_test(closed_form), cmocka_unit_test(refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

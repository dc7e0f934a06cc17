/* exchange-slots (issue 16): complete exchange in one-message slots, a
 * block never forwarded in the slot after the one that brought it.
 * Checks: verified on tori and rings, one message per arc per round
 * (strict contention, one start-up a round), 4x4x4 in the 9 slots of the
 * Fibonacci count of sets with no two adjacent slots (recounted here; a
 * slot that carries nothing is left out, so elsewhere rounds may be
 * fewer); every node sends the same number of blocks in a slot (bytes moved
 * = N x the per-node sum); the ring:4 trace of exchange_slots.c; under a
 * clock with a send overhead no send waits (cost = slots x o + the last
 * message), which lag=1 may trade; closed form = simulation; under the
 * calibrated SMPI model 4x4x4 at 1 KiB 10% under exchange-lines (SMPI:
 * bench/paragon/smpi_exchange_slots.sh); one-port; refusals. */
#include "helpers.h"

#include <string.h>

/* The calibrated model of the SMPI platform (bench/paragon/results/
 * calibrated_9x9.model) under the executor's sync=data clock. */
#define SMPI_MODEL                                                                                                     \
  "contention=fair,ts=1e-08,td=0,tl=6.08608e-09,o=0.00025,share=hops,routes=simgrid,timing=async,ack=0.0503,"          \
  "bwf=0:0.910239;242:0.33828;1411:0.634982;3469:0.817537;5761:1.14853;9361:0.623613;15409:0.741161;65457:1"

/* The least S whose nonempty sets of slots 1..S with no two adjacent
 * number at least N - 1: F(S + 2) - 1 >= N - 1. */
static int fib_slots(uint32_t N) {
  long long f = 1, g = 2; /* F(S + 1), F(S + 2) at S = 1 */
  int S = 1;
  while (g - 1 < (long long)N - 1) {
    long long h = f + g;
    f = g, g = h, S++;
  }
  return S;
}

static void test_slots_verifies(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:4x4x4", "torus:8x8", "torus:4x4", "torus:6x6",   "torus:3x5",
                                      "torus:2x2",   "ring:4",    "ring:8",    "torus:2x3x2", "torus:5x5"};
  assert_int_equal(fib_slots(64), 9); /* F(11) - 1 = 88 >= 63 > F(10) - 1 = 54 */
  assert_int_equal(fib_slots(4), 3);
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    /* strict: one message per arc per round; 1-byte blocks, tl = 1: the
     * cost counts a node's blocks over the slots */
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=strict,ts=0,td=0,tl=1", 1.0);
    mg_report rep = th_report("exchange-slots", &pb);
    /* one message a node a round: a block's holders at most double */
    assert_true((1ull << rep.rounds) >= pb.topo.N);
    assert_float_equal(rep.bytes_moved, (double)pb.topo.N * rep.cost, 1e-9);
    assert_true(rep.cost >= pb.topo.N - 1); /* every offset's block moves at least once */
    mg_report_free(&rep);
    pb = th_problem(MG_EXCHANGE, topos[i], "contention=strict,ts=1,td=0,tl=0", 1.0);
    rep = th_report("exchange-slots", &pb);
    assert_float_equal(rep.cost, (double)rep.rounds, 1e-9); /* one start-up a round: no arc carries two */
    mg_report_free(&rep);
  }
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:4x4x4", "contention=strict,ts=1,td=0,tl=0", 1.0);
  assert_float_equal(th_cost("exchange-slots", &pb), fib_slots(64), 1e-9); /* the Fibonacci count is reached */
}

/* The header's trace, the ring's sweep: o = (+1, -1, +1, -1), the fourth
 * slot empty; delta 2 by {1, 3}: the rounds carry 1, 1, 2 blocks per node. */
static void test_slots_ring4(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "ring:4", "contention=strict,ts=0,td=0,tl=1", 1.0);
  mg_report rep = th_report("exchange-slots", &pb);
  assert_int_equal(rep.rounds, 3);
  assert_float_equal(rep.cost, 4, 1e-9);
  assert_float_equal(rep.round_costs[0], 1, 1e-9);
  assert_float_equal(rep.round_costs[1], 1, 1e-9);
  assert_float_equal(rep.round_costs[2], 2, 1e-9);
  assert_float_equal(rep.bytes_moved, 16, 1e-9);
  mg_report_free(&rep);
}

/* Under a clock with a send overhead o and fast wires no send waits for
 * a receive (a block skips a slot): the exchange ends at S o plus the last
 * message, here at most 1e-3 o. lag=1 may make the second slot wait. */
static void test_slots_no_wait(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:4x4x4", "torus:8x8", "ring:8", "torus:6x6"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=shared,ts=0,td=0,tl=1e-6,o=1,timing=async", 1.0);
    mg_report rep = th_report("exchange-slots", &pb);
    assert_true(rep.cost >= (double)rep.rounds && rep.cost <= (double)rep.rounds + 1e-3);
    mg_report_free(&rep);
  }
}

static void test_slots_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:4x4x4", "torus:8x8", "ring:8", "torus:6x6", "torus:3x5"};
  static const char *const models[] = {"contention=strict,ts=1,td=0.5,tl=1", "contention=shared,ts=3,td=0,tl=2",
                                       "switching=circuit,contention=strict,ts=1,td=1,tl=1",
                                       "port=one,contention=strict,ts=2,td=0.25,tl=1"};
  th_closed_form_matches("exchange-slots", MG_EXCHANGE, shapes, 5, models, 4, 3.0);
  th_closed_form_matches("exchange-slots:lag=1", MG_EXCHANGE, shapes, 5, models, 4, 1.0);
}

/* Fitted to the SMPI platform's clock: 4x4x4 at 1 KiB per block in 9
 * sends that never wait, 10% under exchange-lines (whose nine sends wait
 * for each axis's transfers) and exchange-digits; the same plan every
 * time (every MPI rank builds it). The figures of the model, which SMPI
 * matches within 0.01% (bench/paragon/smpi_exchange_slots.sh). */
static void test_slots_smpi_model(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:4x4x4", SMPI_MODEL, 1024);
  double slots = th_cost("exchange-slots", &pb), lines = th_cost("exchange-lines", &pb);
  assert_true(slots <= 0.9 * lines);
  assert_true(slots <= 0.9 * th_cost("exchange-digits", &pb));
  assert_float_equal(th_cost("exchange-slots", &pb), slots, 0);
  assert_float_equal(slots, 0.0023699333, 1e-9);
  /* 9 overheads and the last message: 9 x 250 us + at least one 1 KiB transfer */
  assert_true(slots > 9 * 0.00025 && slots < 9 * 0.00025 + 0.000125);
}

static void test_slots_refuses(void **state) {
  (void)state;
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "mesh:4x4", NULL, 1.0);
  assert_int_equal(th_run("exchange-slots", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_EXCHANGE, "torus:18x18", NULL, 1.0);
  assert_int_equal(th_run("exchange-slots", &pb, &rep), MG_ERR_UNSUPPORTED); /* sweeps of 36 slots */
  pb = th_problem(MG_EXCHANGE, "torus:24x24", NULL, 1.0);
  assert_int_equal(th_run("exchange-slots", &pb, &rep), MG_ERR_TOO_LARGE);
  pb = th_problem(MG_EXCHANGE, "torus:4x4x4", NULL, 1.0);
  assert_int_equal(th_run("exchange-slots:slots=8", &pb, &rep), MG_ERR_INVALID); /* 54 sets for 63 offsets */
  assert_int_equal(th_run("exchange-slots:slots=9", &pb, &rep), MG_OK);
  mg_report_free(&rep);
  memset(&rep, 0, sizeof rep);
  pb = th_problem(MG_EXCHANGE, "torus:9x9", NULL, 1.0);
  assert_int_equal(th_run("exchange-slots:slots=12", &pb, &rep), MG_ERR_UNSUPPORTED); /* none found in 12 */
  assert_true(th_refuses("exchange-slots", "torus:4x4"));                             /* gossip */
  assert_int_equal(mg_algo_lookup("exchange-slots:search=0", &a, &ps, &err), MG_OK);
  assert_int_not_equal(mg_algo_check(a, &pb, &ps, &err), MG_OK);
  assert_int_equal(mg_algo_lookup("exchange-slots:lag=4", &a, &ps, &err), MG_OK);
  assert_int_not_equal(mg_algo_check(a, &pb, &ps, &err), MG_OK);
  pb = th_problem(MG_EXCHANGE, "torus:4x4", NULL, 1.0);
  pb.model.switching = MG_SW_BUS;
  assert_int_equal(mg_algo_lookup("exchange-slots", &a, &ps, &err), MG_OK);
  assert_int_equal(mg_algo_check(a, &pb, &ps, &err), MG_ERR_UNSUPPORTED);
}

/* Where the search finds no offsets (9x9: offset (4, 4) needs 4 one-hop
 * slots an axis), the axis sweeps: 2 x 4 slots an axis alternating + and
 * -, one message per arc a round; a node sends sum_i sum_(s = -4..4)
 * |s| 9 = 2 x 9 x 20 = 360 blocks in all (each block once per hop). */
static void test_slots_sweeps(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:9x9", "contention=strict,ts=1,td=0,tl=0", 1.0);
  mg_report rep = th_report("exchange-slots", &pb);
  assert_int_equal(rep.rounds, 16);
  assert_float_equal(rep.cost, 16, 1e-9);
  mg_report_free(&rep);
  pb = th_problem(MG_EXCHANGE, "torus:9x9", "contention=strict,ts=0,td=0,tl=1", 1.0);
  rep = th_report("exchange-slots", &pb);
  assert_float_equal(rep.bytes_moved, 81.0 * 360, 1e-9);
  mg_report_free(&rep);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slots_verifies),   cmocka_unit_test(test_slots_ring4),
      cmocka_unit_test(test_slots_no_wait),    cmocka_unit_test(test_slots_closed_form),
      cmocka_unit_test(test_slots_smpi_model), cmocka_unit_test(test_slots_refuses),
      cmocka_unit_test(test_slots_sweeps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

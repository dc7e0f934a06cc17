/* exchange-hops (issue 16): complete exchange by one-hop messages, rounds
 * filled evenly per direction. Checks that every block walks a shortest
 * route one hop a message (bytes moved = the sum of the shortest
 * distances over all pairs, recounted here; one message per arc per
 * round: verified under strict contention; one start-up per round); the
 * ring:4 trace of exchange_hops.c by hand; the transfer term against the
 * per-direction hop count (torus:8x8: 64 blocks = the bisection bound,
 * 4x4x4: 32); closed form = simulation under strict, shared, circuit and
 * store and forward; the search fitted to the calibrated SMPI model never
 * worse than the greedy alone, and the 8x8 plan at 32 KiB under 16 ms in
 * that model (SMPI: bench/paragon/smpi_exchange_hops.sh); meshes verified
 * and within 1.6x of their bisection bound; refusals. */
#include "helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The calibrated model of the SMPI platform (bench/paragon/results/
 * calibrated_9x9.model) under the executor's sync=data clock. */
#define SMPI_MODEL                                                                                                     \
  "contention=fair,ts=1e-08,td=0,tl=6.08608e-09,o=0.00025,share=hops,routes=simgrid,timing=async,ack=0.0503,"          \
  "bwf=0:0.910239;242:0.33828;1411:0.634982;3469:0.817537;5761:1.14853;9361:0.623613;15409:0.741161;65457:1"

/* Sum over ordered pairs of the shortest distance, by walking the
 * offsets (tori: the shorter way round; meshes: |dx|). */
static double pair_hops(const char *topo) {
  mg_topo t;
  mg_err err = {{0}};
  if (mg_topo_parse(topo, &t, &err) != MG_OK) fail_msg("%s", err.msg);
  double sum = 0;
  for (uint32_t s = 0; s < t.N; s++)
    for (uint32_t d = 0; d < t.N; d++)
      for (int i = 0; i < t.d; i++) {
        long long xs = (s / t.stride[i]) % t.n[i], xd = (d / t.stride[i]) % t.n[i], dx = llabs(xd - xs);
        sum += (double)(t.wrap[i] && 2 * dx > (long long)t.n[i] ? (long long)t.n[i] - dx : dx);
      }
  return sum;
}

static void test_hops_verifies(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:8x8", "torus:4x4x4", "torus:9x9", "torus:6x4", "torus:2x2", "ring:7",
                                      "ring:8",    "torus:3x5x4", "mesh:5x7",  "mesh:8x8",  "line:5",    "mesh:3x4x2"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    /* strict: one message per arc per round; 1-byte blocks, so bytes
     * moved counts hops */
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=strict,ts=1,td=0,tl=0", 1.0);
    mg_report rep = th_report("exchange-hops", &pb);
    uint64_t diam = mg_topo_diameter(&pb.topo);
    assert_int_equal(rep.rounds, (int64_t)diam);
    assert_float_equal(rep.cost, (double)diam, 1e-9); /* one start-up a round */
    assert_float_equal(rep.bytes_moved, pair_hops(topos[i]), 1e-9);
    mg_report_free(&rep);
  }
}

/* The header's trace: offsets 1, 2 (the tie, +: no other axis) and 3 =
 * -1; round 1 carries 2 blocks on + and 1 on -, round 2 one on +. */
static void test_hops_ring4(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "ring:4", "contention=strict,ts=0,td=0,tl=1", 1.0);
  assert_float_equal(th_cost("exchange-hops:search=0", &pb), 2 + 1, 1e-9);
  mg_report rep = th_report("exchange-hops:search=0", &pb);
  assert_int_equal(rep.rounds, 2);
  assert_float_equal(rep.bytes_moved, 4 * (1 + 2 + 1), 1e-9);
  assert_float_equal(rep.max_arc_load, 2, 1e-9);
  mg_report_free(&rep);
}

/* The transfer term: at least the per-direction hop count over the
 * rounds (a k x k torus, k even: N k / 8, the bisection bound), and
 * close to it. */
static void test_hops_transfer(void **state) {
  (void)state;
  static const struct {
    const char *topo;
    double bound;
  } cases[] = {{"torus:8x8", 64}, {"torus:4x4x4", 32}, {"torus:16x16", 512}, {"torus:9x9", 90}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, cases[i].topo, "contention=strict,ts=0,td=0,tl=1", 1.0);
    double greedy = th_cost("exchange-hops", &pb), fitted = th_cost("exchange-hops:search=2000", &pb);
    assert_true(greedy >= cases[i].bound - 1e-9 && fitted >= cases[i].bound - 1e-9);
    assert_true(fitted <= greedy + 1e-9);
    assert_true(greedy <= 1.07 * cases[i].bound);
  }
  /* more rounds than the diameter: lower loads, still verified */
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=strict,ts=0,td=0,tl=1", 1.0);
  mg_report rep = th_report("exchange-hops:rounds=10", &pb);
  assert_int_equal(rep.rounds, 10);
  assert_true(rep.cost >= 64 - 1e-9);
  mg_report_free(&rep);
}

static void test_hops_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:4x4x4", "torus:9x9", "ring:7",
                                       "torus:6x4", "torus:3x5x4", "mesh:5x7",  "line:6"};
  static const char *const models[] = {"contention=strict,ts=1,td=0.5,tl=1", "contention=shared,ts=3,td=0,tl=2",
                                       "switching=circuit,contention=strict,ts=1,td=1,tl=1",
                                       "switching=saf,contention=shared,ts=2,td=1,tl=1"};
  th_closed_form_matches("exchange-hops", MG_EXCHANGE, shapes, 8, models, 4, 3.0);
  th_closed_form_matches("exchange-hops:search=0,rounds=9", MG_EXCHANGE, shapes, 1, models, 4, 1.0);
}

/* Fitted to the SMPI platform's clock (a send's 250 us of CPU in plan
 * order, bandwidth factors, acknowledgements): the search beats the
 * greedy caps and brings 8x8 at 32 KiB per block under the 16 ms
 * (the figures of the model, which SMPI matches within 0.2%). */
static void test_hops_fitted(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", SMPI_MODEL, 32768);
  double greedy = th_cost("exchange-hops:search=0", &pb), fitted = th_cost("exchange-hops", &pb);
  assert_true(fitted < greedy);
  assert_true(fitted <= 0.016);
  assert_float_equal(th_cost("exchange-hops", &pb), fitted, 0); /* the same plan every time (every MPI rank) */
  pb = th_problem(MG_EXCHANGE, "torus:4x4x4", SMPI_MODEL, 65536);
  assert_true(th_cost("exchange-hops", &pb) <= th_cost("exchange-hops:search=0", &pb));
  /* under shared contention the async clock lets an arc serve its rounds
   * in order; the search's clock does too (a review: without it the plan
   * searched on 4x4x4 took 5.924 ms against the greedy caps' 5.632) */
  pb = th_problem(MG_EXCHANGE, "torus:4x4x4", "contention=shared,ts=5e-6,tl=5e-9,o=2e-5,timing=async", 32768);
  assert_true(th_cost("exchange-hops:rounds=6", &pb) < th_cost("exchange-hops:rounds=6,search=0", &pb));
  pb = th_problem(MG_EXCHANGE, "torus:4x4", "contention=shared,ts=5e-6,tl=5e-9,o=2e-5,timing=async", 32768);
  assert_true(th_cost("exchange-hops:rounds=4", &pb) < th_cost("exchange-hops:rounds=4,search=0", &pb));
}

static void test_hops_refuses(void **state) {
  (void)state;
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "port=one", 1.0);
  assert_int_equal(th_run("exchange-hops", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_EXCHANGE, "torus:8x8", NULL, 1.0);
  assert_int_equal(th_run("exchange-hops:rounds=7", &pb, &rep), MG_ERR_INVALID); /* below the diameter 8 */
  assert_true(th_refuses("exchange-hops", "torus:8x8"));                         /* gossip */
  assert_int_equal(mg_algo_lookup("exchange-hops:search=-1", &a, &ps, &err), MG_OK);
  assert_int_not_equal(mg_algo_check(a, &pb, &ps, &err), MG_OK);
  pb = th_problem(MG_EXCHANGE, "meshbus:4", "switching=bus", 1.0);
  assert_int_not_equal(th_run("exchange-hops", &pb, &rep), MG_OK);
  pb = th_problem(MG_EXCHANGE, "torus:4x4", NULL, 1.0);
  pb.model.switching = MG_SW_BUS;
  assert_int_equal(mg_algo_lookup("exchange-hops", &a, &ps, &err), MG_OK);
  assert_int_equal(mg_algo_check(a, &pb, &ps, &err), MG_ERR_UNSUPPORTED);
  /* a mesh too large to plan is refused, not started */
  pb = th_problem(MG_EXCHANGE, "mesh:40x40x40", NULL, 1.0);
  assert_int_equal(th_run("exchange-hops", &pb, &rep), MG_ERR_TOO_LARGE);
}

/* Meshes: the caps count each arc (a mesh's middle arcs carry more than
 * its edges), the first cap from the busiest arc's total over the rounds.
 * line:5 by hand: the middle arcs carry 6 blocks each way (sources 0..2
 * to 3..4), 4 rounds; a round's busiest arc is never under 2 and the
 * pipeline from the ends costs more: 10 (what the plan takes). */
static void test_hops_mesh(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "line:5", "contention=strict,ts=0,td=0,tl=1", 1.0);
  mg_report rep = th_report("exchange-hops", &pb);
  assert_float_equal(rep.cost, 10, 1e-9);
  mg_report_free(&rep);
  static const struct {
    const char *topo;
    double bound, most;
  } cases[] = {{"mesh:8x8", 128, 1.6}, {"mesh:5x7", 60, 1.45}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pb = th_problem(MG_EXCHANGE, cases[i].topo, "contention=strict,ts=0,td=0,tl=1", 1.0);
    double c = th_cost("exchange-hops", &pb);
    assert_true(c >= cases[i].bound && c <= cases[i].most * cases[i].bound);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hops_verifies),    cmocka_unit_test(test_hops_ring4),  cmocka_unit_test(test_hops_transfer),
      cmocka_unit_test(test_hops_closed_form), cmocka_unit_test(test_hops_fitted), cmocka_unit_test(test_hops_refuses),
      cmocka_unit_test(test_hops_mesh),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

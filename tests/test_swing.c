/* The swing family (swing_plan.c).
 *
 * torus-swing: log2 N steps of one message per node; contention-free
 * (every step's busiest arc carries one message, so the cost is the
 * (N-1) m tl of a chain on free hops) on 8x8, 4x4x4, 8x8x8 and small tori,
 * on SimGrid's routes and on the schedule's; on a ring Swing's own
 * distances, priced by an independent recount (ceil(|rho|/2) messages on
 * the busiest arc of a step of distance rho); closed form = simulation;
 * refusals.
 *
 * exchange-swing: log2 N steps, every message N/2 blocks (recounted from
 * the report: k N transfers moving k N (N/2) blocks, the largest message
 * N/2 in every round); contention-free on the same tori, so the cost is
 * k (N/2) b tl; on rings Swing's loads per step; closed form; refusals. */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int log2u(uint32_t n) {
  int k = 0;
  while ((1u << k) < n)
    k++;
  return k;
}

static void gossip_contention_free(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:4x4x4", "torus:8x8x8",
                                       "torus:4x4", "torus:2x4",   "torus:2x2"};
  static const char *const models[] = {"contention=shared,ts=0,td=0,tl=1,routes=simgrid",
                                       "contention=shared,ts=0,td=0,tl=1"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t m = 0; m < 2; m++) {
      mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], models[m], 1.0);
      mg_report rep;
      assert_int_equal(th_run("torus-swing", &pb, &rep), MG_OK);
      assert_true(rep.verified);
      int k = log2u(pb.topo.N);
      assert_int_equal(rep.rounds, k);
      assert_int_equal(rep.transfers, (uint64_t)k * pb.topo.N);
      if (rep.cost != (double)(pb.topo.N - 1))
        fail_msg("%s [%s]: cost %g, contention-free chain %u", shapes[s], models[m], rep.cost, pb.topo.N - 1);
      mg_report_free(&rep);
    }
}

/* Swing (De Sensi et al., NSDI 2024) on a ring of 2^k: distances
 * rho_j = (1 - (-2)^(j+1)) / 3, run from j = k-1 down to 0 with 2^(k-1-j)
 * blocks; the even ranks go one way round and the odd ones the other, so
 * ceil(|rho_j| / 2) messages share the busiest arc. */
static void gossip_ring_is_swing(void **state) {
  (void)state;
  for (uint32_t n = 4; n <= 256; n *= 2) {
    char topo[32];
    snprintf(topo, sizeof topo, "ring:%u", n);
    mg_problem_spec pb = th_problem(MG_GOSSIP, topo, "contention=shared,ts=0,td=0,tl=1,routes=simgrid", 1.0);
    int k = log2u(n);
    double want = 0;
    for (int j = 0; j < k; j++) {
      long long rho = th_swing_rho(j, n);
      want += (double)((rho + 1) / 2) * (double)(1ull << (k - 1 - j));
    }
    double got = th_cost("torus-swing", &pb);
    if (got > want) fail_msg("%s: cost %g above Swing's %g", topo, got, want);
    if (n == 64 && got != 99) fail_msg("ring:64: cost %g, Swing's 11+6*2+3*4+2*8+16+32 = 99", got);
    if (got < (double)(n - 1)) fail_msg("%s: cost %g below the chain %u", topo, got, n - 1);
  }
}

/* Where no contention-free plan is found the product of the rings' Swing
 * sequences stands: 16x16 is 3,3,2,2,1,1,1,1 at 1..128 blocks = 273. */
static void gossip_product(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:16x16", "contention=shared,ts=0,td=0,tl=1,routes=simgrid", 1.0);
  double got = th_cost("torus-swing", &pb);
  if (got > 273 || got < 255) fail_msg("16x16: cost %g, product plan 273, chain 255", got);
}

static void gossip_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:16x16", "ring:64", "torus:4x4x4", "torus:4x16", "torus:2x2"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=5e-8,tl=5.714e-9,routes=simgrid",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  th_closed_form_matches("torus-swing", MG_GOSSIP, shapes, sizeof shapes / sizeof shapes[0], models,
                         sizeof models / sizeof models[0], 4096.0);
}

static void gossip_refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9", "torus:6x6", "ring:12", "mesh:8x8", "line:8"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=1,td=0,tl=1", 1.0);
    mg_report rep;
    if (th_run("torus-swing", &pb, &rep) != MG_ERR_UNSUPPORTED) fail_msg("%s: not refused", shapes[s]);
  }
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=1,td=0,tl=1", 1.0);
  mg_report rep;
  assert_int_equal(th_run("torus-swing", &pb, &rep), MG_ERR_UNSUPPORTED);
}

static void exchange_contention_free(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:4x4x4", "torus:8x8x8",
                                       "torus:4x4", "torus:2x4",   "torus:2x2"};
  static const char *const models[] = {"contention=shared,ts=0,td=0,tl=1,routes=simgrid",
                                       "contention=shared,ts=0,td=0,tl=1"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t m = 0; m < 2; m++) {
      mg_problem_spec pb = th_problem(MG_EXCHANGE, shapes[s], models[m], 1.0);
      mg_report rep;
      assert_int_equal(th_run("exchange-swing", &pb, &rep), MG_OK);
      assert_true(rep.verified);
      uint32_t N = pb.topo.N;
      int k = log2u(N);
      assert_int_equal(rep.rounds, k);
      assert_int_equal(rep.transfers, (uint64_t)k * N);
      if (rep.bytes_moved != (double)k * N * (N / 2) || rep.sum_max_items != (double)k * (N / 2))
        fail_msg("%s: %g blocks moved (want %g), largest messages %g (want %g)", shapes[s], rep.bytes_moved,
                 (double)k * N * (N / 2), rep.sum_max_items, (double)k * (N / 2));
      if (rep.cost != (double)k * (N / 2))
        fail_msg("%s [%s]: cost %g, contention-free %g", shapes[s], models[m], rep.cost, (double)k * (N / 2));
      mg_report_free(&rep);
    }
}

/* On a ring of 2^k Swing's distance rho_j = (1 - (-2)^(j+1)) / 3 puts
 * ceil(|rho_j| / 2) messages of N/2 blocks on the busiest arc. */
static void exchange_ring(void **state) {
  (void)state;
  for (uint32_t n = 4; n <= 64; n *= 2) {
    char topo[32];
    snprintf(topo, sizeof topo, "ring:%u", n);
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topo, "contention=shared,ts=0,td=0,tl=1,routes=simgrid", 1.0);
    double want = 0;
    for (int j = 0; j < log2u(n); j++) {
      long long rho = th_swing_rho(j, n);
      want += (double)((rho + 1) / 2) * (n / 2);
    }
    double got = th_cost("exchange-swing", &pb);
    if (got != want) fail_msg("%s: cost %g, Swing's loads give %g", topo, got, want);
  }
}

static void exchange_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:16x16", "ring:32", "torus:4x4x4", "torus:4x16", "torus:2x2"};
  static const char *const models[] = {"contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=shared,ts=0.00025,td=5e-8,tl=5.714e-9,routes=simgrid",
                                       "contention=shared,switching=circuit,ts=2,td=1,tl=1"};
  th_closed_form_matches("exchange-swing", MG_EXCHANGE, shapes, sizeof shapes / sizeof shapes[0], models,
                         sizeof models / sizeof models[0], 1024.0);
}

static void exchange_refusals(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:9x9", "torus:6x6", "ring:12", "mesh:8x8"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, shapes[s], "contention=shared,ts=1,td=0,tl=1", 1.0);
    mg_report rep;
    if (th_run("exchange-swing", &pb, &rep) != MG_ERR_UNSUPPORTED) fail_msg("%s: not refused", shapes[s]);
  }
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:8x8", "contention=shared,ts=1,td=0,tl=1", 1.0);
  mg_report rep;
  assert_int_equal(th_run("exchange-swing", &pb, &rep), MG_ERR_UNSUPPORTED);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gossip_contention_free), cmocka_unit_test(gossip_ring_is_swing),
      cmocka_unit_test(gossip_product),         cmocka_unit_test(gossip_closed_form),
      cmocka_unit_test(gossip_refusals),        cmocka_unit_test(exchange_contention_free),
      cmocka_unit_test(exchange_ring),          cmocka_unit_test(exchange_closed_form),
      cmocka_unit_test(exchange_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

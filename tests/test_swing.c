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
 * k (N/2) b tl; on rings Swing's loads per step; closed form; refusals.
 *
 * merge=m (both): m steps per round, a node sending straight to the
 * 2^m - 1 nodes the steps would carry its data to. Recounted: transfers
 * N (2^m - 1) per round, every gossip block delivered once (N (N - 1)
 * moved), exchange messages of N/2^m blocks; all steps merged is the
 * direct algorithm (same cost and transfers as mpi-*-direct); on 8x8 with
 * Swing's product plan the arc loads are counted by hand; bad values
 * refused.
 *
 * Meshes and lines take their torus twin's plan, the pairs that wrap there
 * routed the long way: line:4 counted by hand, the rest verified, no
 * closed form. */
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
  static const char *const shapes[] = {"torus:9x9", "torus:6x6", "ring:12", "mesh:6x6", "line:12"};
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
  static const char *const shapes[] = {"torus:9x9", "torus:6x6", "ring:12", "mesh:6x8"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, shapes[s], "contention=shared,ts=1,td=0,tl=1", 1.0);
    mg_report rep;
    if (th_run("exchange-swing", &pb, &rep) != MG_ERR_UNSUPPORTED) fail_msg("%s: not refused", shapes[s]);
  }
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:8x8", "contention=shared,ts=1,td=0,tl=1", 1.0);
  mg_report rep;
  assert_int_equal(th_run("exchange-swing", &pb, &rep), MG_ERR_UNSUPPORTED);
}

/* Rounds of merge m after skip single steps of k, as swing_plan.c makes
 * them; sizes[r] = steps in round r. */
static int merged_rounds(int k, int m, int skip, int *sizes) {
  int r = 0;
  for (int s = 0; s < k; r++) {
    int n = s < skip ? 1 : m;
    if (s + n > k) n = k - s;
    sizes[r] = n;
    s += n;
  }
  return r;
}

static void merged_recount(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:4x4x4", "torus:2x4", "ring:32", "torus:4x8"};
  static const char *const specs[] = {
      "merge=2", "merge=3", "merge=2,skip=1", "merge=3,skip=2,product=1", "merge=4,product=1", "merge=2,product=1"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t q = 0; q < sizeof specs / sizeof specs[0]; q++)
      for (int x = 0; x < 2; x++) {
        char spec[96];
        snprintf(spec, sizeof spec, "%s:%s", x ? "exchange-swing" : "torus-swing", specs[q]);
        mg_problem_spec pb =
            th_problem(x ? MG_EXCHANGE : MG_GOSSIP, shapes[s], "contention=shared,ts=1,td=0,tl=1", 1.0);
        uint32_t N = pb.topo.N;
        int m = specs[q][6] - '0', skip = strstr(specs[q], "skip=") ? strstr(specs[q], "skip=")[5] - '0' : 0;
        int sizes[32], rounds = merged_rounds(log2u(N), m, skip, sizes);
        uint64_t transfers = 0;
        double blocks = 0;
        for (int r = 0; r < rounds; r++) {
          uint32_t g = 1u << sizes[r];
          transfers += (uint64_t)N * (g - 1);
          blocks += (double)N * (g - 1) * (N / g); /* exchange: N/2^m blocks a message */
        }
        if (!x) blocks = (double)N * (N - 1); /* gossip: each block reaches each node once */
        mg_report rep;
        assert_int_equal(th_run(spec, &pb, &rep), MG_OK);
        if (!rep.verified || rep.rounds != rounds || rep.transfers != transfers || rep.bytes_moved != blocks)
          fail_msg("%s on %s: verified %d, %d rounds (want %d), %llu transfers (want %llu), %g blocks (want %g)", spec,
                   shapes[s], rep.verified, (int)rep.rounds, rounds, (unsigned long long)rep.transfers,
                   (unsigned long long)transfers, rep.bytes_moved, blocks);
        mg_report_free(&rep);
      }
}

/* All log2 N steps in one round: every node sends to every other node
 * what it is for, once: the direct algorithms. */
static void merged_all_is_direct(void **state) {
  (void)state;
  static const char *const models[] = {"contention=shared,ts=0,td=0,tl=1,routes=simgrid",
                                       "contention=shared,ts=2,td=0.5,tl=1", "contention=fair,ts=1,td=0,tl=1"};
  for (uint32_t n = 4; n <= 16; n *= 2)
    for (size_t md = 0; md < sizeof models / sizeof models[0]; md++)
      for (int x = 0; x < 2; x++) {
        char topo[32], spec[64];
        snprintf(topo, sizeof topo, "ring:%u", n);
        snprintf(spec, sizeof spec, "%s:merge=%d", x ? "exchange-swing" : "torus-swing", log2u(n));
        mg_problem_spec pb = th_problem(x ? MG_EXCHANGE : MG_GOSSIP, topo, models[md], 1.0);
        double got = th_cost(spec, &pb), want = th_cost(x ? "mpi-alltoall-direct" : "mpi-allgather-direct", &pb);
        if (got != want) fail_msg("%s on %s [%s]: %g, the direct algorithm %g", spec, topo, models[md], got, want);
      }
}

/* torus:8x8, Swing's product plan (x and y by |rho| = 3, 1, 1), merge=2:
 * one round per distance, each node sending to its x partner, its y
 * partner and the diagonal one (x first on SimGrid's routes). The axis
 * rule sends the even coordinates one way and the odd ones the other, so
 * an arc of a distance-3 round carries 2 direct messages and 2 diagonal
 * ones, of a distance-1 round 1 and 1. Exchange: 16 blocks a message,
 * 4 x 16 + 2 x 16 + 2 x 16 = 128. Gossip: all held, 1, 4, 16 blocks:
 * 4 x 1 + 2 x 4 + 2 x 16 = 44. */
static void merged_product_by_hand(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=0,td=0,tl=1,routes=simgrid", 1.0);
  assert_true(th_cost("exchange-swing:merge=2,product=1", &pb) == 128);
  pb = th_problem(MG_GOSSIP, "torus:8x8", "contention=shared,ts=0,td=0,tl=1,routes=simgrid", 1.0);
  assert_true(th_cost("torus-swing:merge=2,product=1", &pb) == 44);
  /* the product plan unmerged: Swing's loads 2, 2, 1, 1, 1, 1 on 1, 2, .. 32 blocks */
  assert_true(th_cost("torus-swing:product=1", &pb) == 66);
}

static void merged_refusals(void **state) {
  (void)state;
  static const char *const bad[] = {"merge=0", "merge=5", "skip=-1", "product=2", "merge=x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    for (int x = 0; x < 2; x++) {
      char spec[64];
      snprintf(spec, sizeof spec, "%s:%s", x ? "exchange-swing" : "torus-swing", bad[i]);
      mg_problem_spec pb =
          th_problem(x ? MG_EXCHANGE : MG_GOSSIP, "torus:8x8", "contention=shared,ts=1,td=0,tl=1", 1.0);
      mg_report rep;
      if (th_run(spec, &pb, &rep) != MG_ERR_INVALID) fail_msg("%s: not refused as invalid", spec);
    }
  /* merged rounds have no closed form; merge=1 on the product plan has */
  const mg_algo *a = mg_algo_find("exchange-swing");
  mg_params ps;
  mg_err err;
  memset(&ps, 0, sizeof ps);
  assert_int_equal(mg_params_set_int(&ps, "merge", 2, &err), MG_OK);
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=1,td=0,tl=1", 1.0);
  double cf;
  assert_int_equal(a->closed_form(&pb, &ps, &cf, &err), MG_ERR_UNSUPPORTED);
  memset(&ps, 0, sizeof ps);
  assert_int_equal(mg_params_set_int(&ps, "product", 1, &err), MG_OK);
  assert_int_equal(a->closed_form(&pb, &ps, &cf, &err), MG_OK);
  assert_true(cf == th_cost("exchange-swing:product=1", &pb));
}

/* line:4 runs ring:4's plan, steps -1 then +1 under the axis rule: step 0
 * pairs 0-3 (3 hops the long way: the arc 1-2 also carries 1->2, and 2->1
 * shares 2-1 with 3->0) and 1-2, load 2; step 1 pairs 0-1 and 2-3, load 1.
 * Gossip: 2 x 1 + 1 x 2 blocks = 4 (ring:4: 1 + 2 = 3); exchange: N/2 = 2
 * blocks a message, 2 x 2 + 1 x 2 = 6 (ring:4: 4). */
static void mesh_long_way(void **state) {
  (void)state;
  const char *m = "contention=shared,ts=0,td=0,tl=1";
  mg_problem_spec pb = th_problem(MG_GOSSIP, "line:4", m, 1.0);
  assert_true(th_cost("torus-swing", &pb) == 4);
  pb = th_problem(MG_EXCHANGE, "line:4", m, 1.0);
  assert_true(th_cost("exchange-swing", &pb) == 6);
  static const char *const shapes[] = {"mesh:8x8", "mesh:4x4x4", "line:64", "mesh:2x4", "line:2"};
  static const char *const specs[] = {"", ":merge=2,product=1", ":merge=2,product=1,skip=2", ":merge=3"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t q = 0; q < sizeof specs / sizeof specs[0]; q++)
      for (int x = 0; x < 2; x++) {
        char spec[96];
        snprintf(spec, sizeof spec, "%s%s", x ? "exchange-swing" : "torus-swing", specs[q]);
        pb = th_problem(x ? MG_EXCHANGE : MG_GOSSIP, shapes[s], "contention=shared,ts=1,td=0.5,tl=1", 1.0);
        char twin[32];
        snprintf(twin, sizeof twin, "%s%s", strncmp(shapes[s], "mesh", 4) ? "ring" : "torus", strchr(shapes[s], ':'));
        mg_problem_spec tw = th_problem(pb.problem, twin, "contention=shared,ts=1,td=0.5,tl=1", 1.0);
        double got = th_cost(spec, &pb), torus = th_cost(spec, &tw);
        if (got < torus) fail_msg("%s on %s: %g, below its torus twin %s's %g", spec, shapes[s], got, twin, torus);
      }
  const mg_algo *a = mg_algo_find("torus-swing");
  double cf;
  mg_err err;
  pb = th_problem(MG_GOSSIP, "mesh:8x8", m, 1.0);
  assert_int_equal(a->closed_form(&pb, NULL, &cf, &err), MG_ERR_UNSUPPORTED);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gossip_contention_free), cmocka_unit_test(gossip_ring_is_swing),
      cmocka_unit_test(gossip_product),         cmocka_unit_test(gossip_closed_form),
      cmocka_unit_test(gossip_refusals),        cmocka_unit_test(exchange_contention_free),
      cmocka_unit_test(exchange_ring),          cmocka_unit_test(exchange_closed_form),
      cmocka_unit_test(exchange_refusals),      cmocka_unit_test(merged_recount),
      cmocka_unit_test(merged_all_is_direct),   cmocka_unit_test(merged_product_by_hand),
      cmocka_unit_test(merged_refusals),        cmocka_unit_test(mesh_long_way)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

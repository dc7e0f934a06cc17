/* The dependency recorder (src/schedule/deps.c) on small schedules whose
 * answer is counted by hand, on the ring allgather (each step forwards
 * what arrived one step before: exactly one dependency per transfer after
 * the first step), and its refusal of a table over the memory limit. */
#include "helpers.h"

#include "schedule/deps.h"

#include <string.h>

/* Runs hand-made rounds through the driver with the recorder's tap. */
static mg_status record(th_sched *s, mg_deps *d) {
  mg_err err = {{0}};
  mg_report rep;
  mg_tap tap = mg_deps_tap(d);
  mg_status st = mg_drive(th_stream, s, &tap, 1, NULL, &rep, &err);
  mg_report_free(&rep);
  return st;
}

static mg_transfer listed(th_sched *s, int round, uint32_t src, uint32_t dst, const uint64_t *items, size_t n) {
  mg_transfer t = mg_xfer(src, dst);
  t.sel.flags = MG_SEL_LIST;
  t.sel.list = mg_round_add_list(&s->rounds[round], items, n);
  t.sel.list_len = n;
  return t;
}

static void expect_deps(const mg_deps *d, size_t t, const uint32_t *want, size_t nwant) {
  size_t n;
  const uint32_t *got = mg_deps_of(d, t, &n);
  assert_int_equal(n, nwant);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(got[i], want[i]);
}

/* Gossip on line:3, 10 bytes per node, P = 1 (item = origin):
 *   round 0: T0 0->1 {0}, T1 2->1 {2}
 *   round 1: T2 1->0 all held {0,1,2}: 0 came by T0, 2 by T1, 1 is 1's own
 *            T3 1->2 {0,1}: 0 came by T0
 *   round 2: T4 0->1 {2}: 2 reached 0 by T2
 *            T5 2->1 all {0,1,2}: 0 and 1 reached 2 by T3 (first arrival)
 *   round 3: T6 1->2 {0}: 1 got 0 first by T0 (T4 and T5 brought copies
 *            of 2 and 0 later; only the first arrival counts). */
static void test_gossip_by_hand(void **state) {
  (void)state;
  th_sched s;
  th_sched_init(&s, MG_GOSSIP, "line:3", NULL, 1);
  s.info.bytes = 10;
  uint64_t i0[] = {0}, i2[] = {2}, i01[] = {0, 1};
  th_add(&s, 0, listed(&s, 0, 0, 1, i0, 1));
  th_add(&s, 0, listed(&s, 0, 2, 1, i2, 1));
  th_add(&s, 1, mg_xfer(1, 0));
  th_add(&s, 1, listed(&s, 1, 1, 2, i01, 2));
  th_add(&s, 2, listed(&s, 2, 0, 1, i2, 1));
  th_add(&s, 2, mg_xfer(2, 1));
  th_add(&s, 3, listed(&s, 3, 1, 2, i0, 1));
  mg_deps *d;
  mg_err err;
  assert_int_equal(mg_deps_create(0, &d, &err), MG_OK);
  assert_int_equal(record(&s, d), MG_OK);
  assert_int_equal(mg_deps_count(d), 7);
  expect_deps(d, 0, NULL, 0);
  expect_deps(d, 1, NULL, 0);
  expect_deps(d, 2, (uint32_t[]){0, 1}, 2);
  expect_deps(d, 3, (uint32_t[]){0}, 1);
  expect_deps(d, 4, (uint32_t[]){2}, 1);
  expect_deps(d, 5, (uint32_t[]){3}, 1);
  expect_deps(d, 6, (uint32_t[]){0}, 1);
  const mg_dep_xfer *x = mg_deps_xfers(d);
  assert_true(x[2].bytes == 30.0 && x[2].nitems == 3 && x[2].round == 1);
  assert_true(x[3].bytes == 20.0 && x[3].src == 1 && x[3].dst == 2 && x[3].hops == 1);
  int nseg;
  assert_null(mg_deps_route(d, 2, &nseg));
  mg_deps_destroy(d);
  th_sched_free(&s);
}

/* Exchange on line:3, blocks s*3+d of 4 bytes: blocks move, so the latest
 * mover is the dependency.
 *   round 0: T0 0->1 {0->2 (id 2), 0->1 (id 1)}
 *   round 1: T1 1->2 {0->2} (moved by T0), T2 2->1 {2->0 (id 6)} (none)
 *   round 2: T3 1->0 {2->0} (moved by T2) */
static void test_exchange_by_hand(void **state) {
  (void)state;
  th_sched s;
  th_sched_init(&s, MG_EXCHANGE, "line:3", NULL, 1);
  s.info.bytes = 4;
  uint64_t b0[] = {2, 1}, b1[] = {2}, b2[] = {6};
  th_add(&s, 0, listed(&s, 0, 0, 1, b0, 2));
  th_add(&s, 1, listed(&s, 1, 1, 2, b1, 1));
  th_add(&s, 1, listed(&s, 1, 2, 1, b2, 1));
  th_add(&s, 2, listed(&s, 2, 1, 0, b2, 1));
  mg_deps *d;
  mg_err err;
  assert_int_equal(mg_deps_create(0, &d, &err), MG_OK);
  /* the schedule leaves blocks undelivered: the simulator says so at the
   * end, after every transfer was recorded */
  assert_int_equal(record(&s, d), MG_ERR_VIOLATION);
  assert_int_equal(mg_deps_count(d), 4);
  expect_deps(d, 0, NULL, 0);
  expect_deps(d, 1, (uint32_t[]){0}, 1);
  expect_deps(d, 2, NULL, 0);
  expect_deps(d, 3, (uint32_t[]){2}, 1);
  assert_true(mg_deps_xfers(d)[0].bytes == 8.0);
  mg_deps_destroy(d);
  th_sched_free(&s);
}

/* mpi-allgather-ring on ring:7: 6 steps, step k forwards the block that
 * arrived in step k-1, so every transfer after step 0 has exactly one
 * dependency: the transfer of the previous step into its sender. */
static void test_ring_chain(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:7", "ts=1,tl=1,contention=shared", 64);
  const mg_algo *a;
  mg_params ps;
  mg_err err;
  assert_int_equal(mg_algo_lookup("mpi-allgather-ring", &a, &ps, &err), MG_OK);
  mg_deps *d;
  mg_report rep;
  assert_int_equal(mg_deps_create(0, &d, &err), MG_OK);
  assert_int_equal(mg_deps_run(a, &pb, &ps, NULL, d, &rep, &err), MG_OK);
  assert_true(rep.verified);
  const mg_dep_xfer *x = mg_deps_xfers(d);
  size_t n = mg_deps_count(d);
  assert_int_equal(n, 7 * 6);
  for (size_t t = 0; t < n; t++) {
    size_t nd;
    const uint32_t *dp = mg_deps_of(d, t, &nd);
    assert_true(x[t].bytes == 64.0);
    if (x[t].round == 0) {
      assert_int_equal(nd, 0);
      continue;
    }
    assert_int_equal(nd, 1);
    assert_int_equal(x[dp[0]].round, x[t].round - 1);
    assert_int_equal(x[dp[0]].dst, x[t].src);
  }
  mg_report_free(&rep);
  mg_deps_destroy(d);
}

/* torus:64x64 gossip needs 4096*4096*4 B = 64 MiB of table: refused under
 * a 1 MiB limit before any round runs. */
static void test_too_large(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:64x64", "ts=1,tl=1", 1);
  const mg_algo *a;
  mg_params ps;
  mg_err err;
  assert_int_equal(mg_algo_lookup("dimwise", &a, &ps, &err), MG_OK);
  mg_deps *d;
  mg_report rep;
  assert_int_equal(mg_deps_create(1 << 20, &d, &err), MG_OK);
  assert_int_equal(mg_deps_run(a, &pb, &ps, NULL, d, &rep, &err), MG_ERR_TOO_LARGE);
  assert_non_null(strstr(err.msg, "64.0 MiB"));
  assert_int_equal(mg_deps_count(d), 0);
  mg_report_free(&rep);
  mg_deps_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gossip_by_hand),
      cmocka_unit_test(test_exchange_by_hand),
      cmocka_unit_test(test_ring_chain),
      cmocka_unit_test(test_too_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

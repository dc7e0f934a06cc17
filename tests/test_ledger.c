/* The serial shards' round coding (src/sim/ledger.h): every coding decodes
 * to the counts it was given, the smaller of runs and dictionary is kept,
 * and its byte count is the one recounted here by hand. */
#include "helpers.h"
#include "sim/ledger.h"

#include <stdlib.h>
#include <string.h>

/* one coder for every round, as a run's ledger keeps one */
static mg_ledger_coder coder;

static void round_trip(const uint64_t *c, size_t n, mg_ledger_round *r) {
  mg_err err = {0};
  assert_int_equal(mg_ledger_encode(&coder, r, c, n, &err), MG_OK);
  uint64_t *d = malloc((n + 5) * sizeof *d);
  assert_non_null(d);
  memset(d, 0xff, (n + 5) * sizeof *d);
  mg_ledger_decode(r, d, n + 5);
  for (size_t i = 0; i < n; i++)
    if (d[i] != c[i])
      fail_msg("transfer %zu: %llu decoded, %llu coded", i, (unsigned long long)d[i], (unsigned long long)c[i]);
  for (size_t i = n; i < n + 5; i++)
    assert_int_equal(d[i], 0); /* past the round: zero */
  free(d);
}

/* A stand-in for Approach 1-1's column rounds as one shard sees them: a
 * transfer carries a row of origins (1458 items) or none, in short runs
 * (here period 10: 1458, 0, 0, 1458, then six 0s). */
static void alternating_is_one_bit(void **state) {
  (void)state;
  size_t n = 2125764;
  uint64_t *c = malloc(n * sizeof *c);
  assert_non_null(c);
  for (size_t i = 0; i < n; i++)
    c[i] = (i / 2 % 5 == 0 && i % 2 == 0) ? 1458 : (i / 2 % 5 == 1 && i % 2 == 1) ? 1458 : 0;
  mg_ledger_round r = {0};
  round_trip(c, n, &r);
  assert_non_null(r.idx);
  assert_int_equal(r.width, 1);
  assert_int_equal(r.nval, 2);
  assert_int_equal(r.val[0], 0);
  assert_int_equal(r.val[1], 1458);
  /* 2 values and ceil(n / 64) words of one bit each */
  assert_int_equal(mg_ledger_bytes(&r), 2 * 8 + (n + 63) / 64 * 8);
  mg_ledger_round_free(&r);
  free(c);
}

static void long_runs_stay_runs(void **state) {
  (void)state;
  size_t n = 100000;
  uint64_t *c = malloc(n * sizeof *c);
  assert_non_null(c);
  for (size_t i = 0; i < n; i++)
    c[i] = i < 40000 ? 7 : i < 90000 ? 0 : 3;
  mg_ledger_round r = {0};
  round_trip(c, n, &r);
  assert_null(r.idx);
  assert_int_equal(r.nval, 3);
  assert_int_equal(r.len[0], 40000);
  assert_int_equal(r.len[1], 50000);
  assert_int_equal(r.len[2], 10000);
  assert_int_equal(mg_ledger_bytes(&r), 3 * 12);
  mg_ledger_round_free(&r);
  free(c);
}

/* 3 values: 2-bit indexes; 17: 8-bit (widths divide 64); the values are
 * kept sorted whatever order they come in. */
static void widths(void **state) {
  (void)state;
  size_t n = 6400;
  uint64_t *c = malloc(n * sizeof *c);
  assert_non_null(c);
  for (size_t i = 0; i < n; i++)
    c[i] = (uint64_t)((i * 7) % 3) * 1000000007ull;
  mg_ledger_round r = {0};
  round_trip(c, n, &r);
  assert_non_null(r.idx);
  assert_int_equal(r.width, 2);
  assert_int_equal(r.val[0], 0);
  assert_int_equal(r.val[2], 2000000014ull);
  assert_int_equal(mg_ledger_bytes(&r), 3 * 8 + n * 2 / 64 * 8);
  for (size_t i = 0; i < n; i++)
    c[i] = (uint64_t)((i * 5) % 17);
  round_trip(c, n, &r); /* re-coding replaces the round */
  assert_int_equal(r.width, 8);
  assert_int_equal(r.nval, 17);
  assert_int_equal(mg_ledger_bytes(&r), 17 * 8 + n * 8 / 64 * 8);
  /* 5 values: 4-bit indexes; decoding fewer transfers than the round has */
  for (size_t i = 0; i < n; i++)
    c[i] = (uint64_t)((i * 3) % 5) + 9;
  round_trip(c, n, &r);
  assert_int_equal(r.width, 4);
  assert_int_equal(mg_ledger_bytes(&r), 5 * 8 + n * 4 / 64 * 8);
  uint64_t d[7];
  mg_ledger_decode(&r, d, 7);
  for (size_t i = 0; i < 7; i++)
    assert_int_equal(d[i], c[i]);
  mg_ledger_round_free(&r);
  free(c);
}

/* Exactly 2^16 distinct counts fit 16-bit indexes; one more and the round
 * is runs even where an (uncapped) dictionary would be smaller. */
static void the_cap(void **state) {
  (void)state;
  size_t n = 4 * 70000;
  uint64_t *c = malloc(n * sizeof *c);
  assert_non_null(c);
  for (size_t i = 0; i < n; i++)
    c[i] = (uint64_t)(i % 65536) * 3 + 1;
  mg_ledger_round r = {0};
  round_trip(c, n, &r);
  assert_non_null(r.idx);
  assert_int_equal(r.width, 16);
  assert_int_equal(r.nval, 65536);
  assert_int_equal(mg_ledger_bytes(&r), 65536 * 8 + n * 16 / 64 * 8);
  /* 65537 values: runs cost 280000 x 12 = 3.36 MB, 32-bit indexes would be 1.6 MB */
  for (size_t i = 0; i < n; i++)
    c[i] = (uint64_t)(i % 65537) * 3 + 1;
  round_trip(c, n, &r);
  assert_null(r.idx);
  assert_int_equal(r.nval, n);
  assert_int_equal(mg_ledger_bytes(&r), n * 12);
  /* the coder's hash is empty again after a full one: a small dictionary */
  for (size_t i = 0; i < n; i++)
    c[i] = i % 2 ? 5 : 6;
  round_trip(c, n, &r);
  assert_int_equal(r.width, 1);
  assert_int_equal(r.nval, 2);
  mg_ledger_round_free(&r);
  free(c);
}

/* More than 2^16 distinct counts: runs, whatever they cost. */
static void many_values_fall_back_to_runs(void **state) {
  (void)state;
  size_t n = 70000;
  uint64_t *c = malloc(n * sizeof *c);
  assert_non_null(c);
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c[i] = x;
  }
  mg_ledger_round r = {0};
  round_trip(c, n, &r);
  assert_null(r.idx);
  assert_int_equal(r.nval, n);
  /* 30000 distinct values twice over, no two alike in a row: 60001 runs
   * (720012 B) against 16-bit indexes (30000 x 8 + 70000 x 2 = 380000 B) */
  for (size_t i = 30000; i < 60000; i++)
    c[i] = c[i - 30000];
  for (size_t i = 60000; i < n; i++)
    c[i] = c[0];
  round_trip(c, n, &r);
  assert_non_null(r.idx);
  assert_int_equal(r.width, 16);
  assert_int_equal(r.nval, 30000);
  assert_int_equal(mg_ledger_bytes(&r), 380000);
  mg_ledger_round_free(&r);
  free(c);
}

static void empty_round(void **state) {
  (void)state;
  mg_ledger_round r = {0};
  round_trip(NULL, 0, &r);
  assert_int_equal(mg_ledger_bytes(&r), 0);
  mg_ledger_round_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(alternating_is_one_bit),
                                     cmocka_unit_test(long_runs_stay_runs),
                                     cmocka_unit_test(widths),
                                     cmocka_unit_test(the_cap),
                                     cmocka_unit_test(many_values_fall_back_to_runs),
                                     cmocka_unit_test(empty_round)};
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  mg_ledger_coder_free(&coder);
  return failed;
}

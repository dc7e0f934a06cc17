/* The memo of searches' results (src/util/memo.c): a value comes back as
 * it was put, under its own key only (a problem that differs in one field
 * of the model, the topology or the size is another key); a value of
 * another length is a miss; the eight most recently used keys stay and
 * the ninth new one evicts the least recently used; a key whose text
 * overflowed is never stored; four threads putting and getting at once
 * each read back only their own values. */
#include <pthread.h>
#include <string.h>

#include "helpers.h"
#include "util/internal.h"

static void key_of(mg_memo_key *k, const char *tag, uint64_t v) {
  mg_memo_key_init(k, tag);
  mg_memo_key_u64(k, v);
}

static void test_memo_round_trip(void **state) {
  (void)state;
  mg_memo_clear();
  mg_memo_key k;
  key_of(&k, "test", 1);
  unsigned char put[100], got[100];
  for (int i = 0; i < 100; i++)
    put[i] = (unsigned char)(i * 7);
  assert_false(mg_memo_get(&k, got, sizeof got));
  mg_memo_put(&k, put, sizeof put);
  memset(got, 0, sizeof got);
  assert_true(mg_memo_get(&k, got, sizeof got));
  assert_memory_equal(put, got, sizeof put);
  assert_false(mg_memo_get(&k, got, 99)); /* another length: another shape of plan */
  mg_memo_key other;
  key_of(&other, "tesu", 1); /* the tag is part of the key */
  assert_false(mg_memo_get(&other, got, sizeof got));
  key_of(&other, "test", 2);
  assert_false(mg_memo_get(&other, got, sizeof got));
  mg_memo_clear();
  assert_false(mg_memo_get(&k, got, sizeof got));
}

/* Every field a search reads is in mg_memo_key_spec's key. */
static void test_memo_spec_keys(void **state) {
  (void)state;
  mg_problem_spec base = th_problem(MG_EXCHANGE, "torus:4x4x4", "contention=fair,timing=async,o=2.5e-4,tl=6e-9", 16384);
  const char *const models[] = {
      "contention=fair,timing=async,o=2.5e-4,tl=6e-9,ts=1e-8",
      "contention=fair,timing=async,o=2.5e-4,tl=6.1e-9",
      "contention=fair,timing=async,o=2.6e-4,tl=6e-9",
      "contention=fair,timing=async,o=2.5e-4,tl=6e-9,or=1e-6",
      "contention=shared,timing=async,o=2.5e-4,tl=6e-9",
      "contention=fair,timing=sync,o=2.5e-4,tl=6e-9",
      "contention=fair,timing=async,o=2.5e-4,tl=6e-9,bwf=0:0.9",
      "contention=fair,timing=async,o=2.5e-4,tl=6e-9,ack=0.05",
      "contention=fair,timing=async,o=2.5e-4,tl=6e-9,share=hops",
      "contention=fair,timing=async,o=2.5e-4,tl=6e-9,td=1e-9",
  };
  mg_memo_key kb, k;
  mg_memo_key_init(&kb, "x");
  mg_memo_key_spec(&kb, &base);
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:4x4x4", models[i], 16384);
    mg_memo_key_init(&k, "x");
    mg_memo_key_spec(&k, &pb);
    assert_false(k.n == kb.n && !memcmp(k.s, kb.s, k.n));
  }
  const char *const topos[] = {"torus:4x4x5", "mesh:4x4x4", "torus:8x8", "ring:64"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=fair,timing=async,o=2.5e-4,tl=6e-9", 16384);
    mg_memo_key_init(&k, "x");
    mg_memo_key_spec(&k, &pb);
    assert_false(k.n == kb.n && !memcmp(k.s, kb.s, k.n));
  }
  mg_problem_spec pb = base;
  pb.bytes = 16385;
  mg_memo_key_init(&k, "x");
  mg_memo_key_spec(&k, &pb);
  assert_false(k.n == kb.n && !memcmp(k.s, kb.s, k.n));
  pb = base; /* the same problem: the same key */
  mg_memo_key_init(&k, "x");
  mg_memo_key_spec(&k, &pb);
  assert_true(k.n == kb.n && !memcmp(k.s, kb.s, k.n));
}

static void test_memo_evicts_least_recent(void **state) {
  (void)state;
  mg_memo_clear();
  mg_memo_key k;
  uint64_t v;
  for (uint64_t i = 0; i < 8; i++) {
    key_of(&k, "lru", i);
    mg_memo_put(&k, &i, sizeof i);
  }
  key_of(&k, "lru", 0); /* 0 used again: 1 is now the least recent */
  assert_true(mg_memo_get(&k, &v, sizeof v));
  assert_int_equal(v, 0);
  key_of(&k, "lru", 8);
  v = 8;
  mg_memo_put(&k, &v, sizeof v);
  for (uint64_t i = 0; i <= 8; i++) {
    key_of(&k, "lru", i);
    if (i == 1) {
      assert_false(mg_memo_get(&k, &v, sizeof v));
    } else {
      assert_true(mg_memo_get(&k, &v, sizeof v));
      assert_int_equal(v, i);
    }
  }
  mg_memo_clear();
}

static void test_memo_full_key_not_kept(void **state) {
  (void)state;
  mg_memo_clear();
  mg_memo_key k;
  mg_memo_key_init(&k, "full");
  for (int i = 0; i < 200; i++)
    mg_memo_key_u64(&k, UINT64_MAX - (uint64_t)i); /* 20 digits each */
  assert_true(k.full);
  uint64_t v = 42, hits0, misses0, hits1, misses1;
  mg_memo_put(&k, &v, sizeof v);
  mg_memo_stats(&hits0, &misses0);
  assert_false(mg_memo_get(&k, &v, sizeof v));
  mg_memo_stats(&hits1, &misses1);
  assert_int_equal(hits1, hits0);
}

static void *hammer(void *arg) {
  uint64_t id = (uint64_t)(uintptr_t)arg, bad = 0;
  for (uint64_t i = 0; i < 2000; i++) {
    mg_memo_key k;
    key_of(&k, "thread", id * 1000 + i % 5);
    uint64_t v[4] = {id, i % 5, id ^ 77, (i % 5) * 3}, got[4];
    mg_memo_put(&k, v, sizeof v);
    if (mg_memo_get(&k, got, sizeof got) && (got[0] != id || got[1] != i % 5 || got[2] != (id ^ 77))) bad++;
  }
  return (void *)(uintptr_t)bad;
}

static void test_memo_threads(void **state) {
  (void)state;
  pthread_t th[4];
  for (uintptr_t i = 0; i < 4; i++)
    assert_int_equal(pthread_create(&th[i], NULL, hammer, (void *)i), 0);
  for (int i = 0; i < 4; i++) {
    void *bad;
    assert_int_equal(pthread_join(th[i], &bad), 0);
    assert_int_equal((uintptr_t)bad, 0);
  }
  mg_memo_clear();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_memo_round_trip),
      cmocka_unit_test(test_memo_spec_keys),
      cmocka_unit_test(test_memo_evicts_least_recent),
      cmocka_unit_test(test_memo_full_key_not_kept),
      cmocka_unit_test(test_memo_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* mg_spec_by_size (src/algo/spec_size.c): the per-size algorithm spec the
 * MPI executor and the interposer take ("SPEC<=BYTES;...;SPEC"): first
 * entry whose bound holds, a bare spec unchanged, malformed ones refused. */
#include "helpers.h"

#include "algo/spec_size.h"

#include <string.h>

static const char *const smpi8 =
    "torus-doubling<=1024;torus-tiling:split=1<=4096;torus-tiling:spread=1<=32768;dimwise-colored";

static void test_pick(void **state) {
  (void)state;
  static const struct {
    uint64_t L;
    const char *want;
  } cases[] = {{1, "torus-doubling"},          {1024, "torus-doubling"},         {1025, "torus-tiling:split=1"},
               {4096, "torus-tiling:split=1"}, {16384, "torus-tiling:spread=1"}, {32768, "torus-tiling:spread=1"},
               {32769, "dimwise-colored"},     {1u << 30, "dimwise-colored"}};
  char out[128];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(mg_spec_by_size(smpi8, cases[i].L, out, sizeof out, NULL), MG_OK);
    assert_string_equal(out, cases[i].want);
  }
  /* what `meshgossip compare --sizes ... --spec` prints for torus:8x8 under
   * the calibrated Paragon model (tests/units.sh): parameters with ',' */
  static const char *const made =
      "torus-swing:merge=1<=1024;torus-swing:merge=2,product=1,skip=2<=4096;torus-tiling:split=0,spread=1<=32768;"
      "dimwise-colored";
  assert_int_equal(mg_spec_by_size(made, 2048, out, sizeof out, NULL), MG_OK);
  assert_string_equal(out, "torus-swing:merge=2,product=1,skip=2");
  assert_int_equal(mg_spec_by_size(made, 32768, out, sizeof out, NULL), MG_OK);
  assert_string_equal(out, "torus-tiling:split=0,spread=1");
  /* a plain spec (parameters with ',' and ':') passes unchanged */
  assert_int_equal(mg_spec_by_size("greedy-links:chunks=2", 7, out, sizeof out, NULL), MG_OK);
  assert_string_equal(out, "greedy-links:chunks=2");
  assert_int_equal(mg_spec_by_size("auto", 7, out, sizeof out, NULL), MG_OK);
  assert_string_equal(out, "auto");
  /* bounded entries only: a size above every bound has no entry */
  mg_err e = {{0}};
  assert_int_equal(mg_spec_by_size("ring<=100;dimwise<=200", 150, out, sizeof out, NULL), MG_OK);
  assert_string_equal(out, "dimwise");
  assert_int_equal(mg_spec_by_size("ring<=100;dimwise<=200", 201, out, sizeof out, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "201"));
}

static void test_malformed(void **state) {
  (void)state;
  static const char *const bad[] = {"ring<=;auto", "ring<=12k;auto", "<=100;auto", "ring<=100;;auto",
                                    "ring<=99999999999999999999999;auto",
                                    /* a later entry is checked too, the size taking the first */
                                    "ring<=12;rign", "ring<=12;concentrate<=abc"};
  char out[128];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mg_err e = {{0}};
    assert_int_equal(mg_spec_by_size(bad[i], 12, out, sizeof out, &e), MG_ERR_INVALID);
    assert_true(strlen(e.msg) > 0);
  }
  char small[8];
  assert_int_equal(mg_spec_by_size("torus-doubling", 1, small, sizeof small, NULL), MG_ERR_TOO_LARGE);
  assert_int_equal(mg_spec_by_size("torus-doubling<=5;ring", 1, small, sizeof small, NULL), MG_ERR_TOO_LARGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pick), cmocka_unit_test(test_malformed)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

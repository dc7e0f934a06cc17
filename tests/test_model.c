/* Models and parameters: parsing and rejection of bad input. */
#include "helpers.h"

#include <string.h>

static void parse_model(void **state) {
  (void)state;
  mg_model m;
  mg_err e;
  mg_model_default(&m);
  assert_int_equal(m.switching, MG_SW_WORMHOLE);
  assert_int_equal(m.port, MG_PORT_ALL);
  assert_int_equal(m.contention, MG_CONT_STRICT);
  assert_int_equal(
      mg_model_parse("switching=circuit,port=one,contention=shared,ts=3e-4,td=1e-8,tl=2.2e-8,ell=4", &m, &e), MG_OK);
  assert_int_equal(m.switching, MG_SW_CIRCUIT);
  assert_int_equal(m.port, MG_PORT_ONE);
  assert_int_equal(m.contention, MG_CONT_SHARED);
  assert_float_equal(m.ts, 3e-4, 1e-18);
  assert_float_equal(m.tl, 2.2e-8, 1e-20);
  assert_int_equal(m.ell, 4);
  assert_int_equal(mg_model_paper_units(&m, 10, &e), MG_OK);
  assert_float_equal(m.ts, 10, 0);
  assert_float_equal(m.td, 0, 0);
  assert_float_equal(m.tl, 1, 0);
}

static void reject_bad_model(void **state) {
  (void)state;
  const char *bad[] = {"ts=-1",    "ts=nan",           "ts=NaN", "tl=inf", "ts=",     "foo=1",   "switching=warp",
                       "port=two", "contention=loose", "ts",     "ell=-2", "ell=1.5", "td=1e999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mg_model m;
    mg_err e = {{0}};
    mg_model_default(&m);
    mg_model before = m;
    assert_int_equal(mg_model_parse(bad[i], &m, &e), MG_ERR_INVALID);
    assert_true(strlen(e.msg) > 0);
    /* nothing half-applied */
    assert_memory_equal(&m, &before, sizeof m);
  }
  mg_model m;
  mg_model_default(&m);
  assert_int_equal(mg_model_paper_units(&m, -1, NULL), MG_ERR_INVALID);
}

static void params(void **state) {
  (void)state;
  mg_params ps;
  mg_err e;
  char buf[128];
  assert_int_equal(mg_params_parse("a=3,b=2", &ps, &e), MG_OK);
  assert_string_equal(mg_params_get(&ps, "a"), "3");
  assert_null(mg_params_get(&ps, "c"));
  assert_string_equal(mg_params_format(&ps, buf, sizeof buf), "a=3,b=2");
  assert_int_equal(mg_params_parse("a", &ps, &e), MG_ERR_INVALID);
  assert_int_equal(mg_params_parse("a=", &ps, &e), MG_ERR_INVALID);
  const mg_algo *a;
  assert_int_equal(mg_algo_lookup("nosuch", &a, &ps, &e), MG_ERR_NOTFOUND);
  assert_int_equal(mg_algo_lookup("ring:x=1", &a, &ps, &e), MG_ERR_INVALID);
  assert_int_equal(mg_algo_lookup("ring", &a, &ps, &e), MG_OK);
  assert_string_equal(a->name, "ring");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parse_model),
      cmocka_unit_test(reject_bad_model),
      cmocka_unit_test(params),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

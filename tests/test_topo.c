/* Topologies: parsing, ids and coordinates, neighbours, arcs, routes. */
#include "helpers.h"

#include <string.h>

#include "util/internal.h"

static void parse_good(void **state) {
  (void)state;
  mg_topo t;
  mg_err e;
  char buf[64];
  assert_int_equal(mg_topo_parse("torus:9x9", &t, &e), MG_OK);
  assert_int_equal(t.d, 2);
  assert_int_equal(t.N, 81);
  assert_true(mg_topo_is_torus(&t));
  assert_string_equal(mg_topo_format(&t, buf, sizeof buf), "torus:9x9");
  assert_int_equal(mg_topo_parse("ring:81", &t, &e), MG_OK);
  assert_string_equal(mg_topo_format(&t, buf, sizeof buf), "ring:81");
  assert_int_equal(mg_topo_parse("line:7", &t, &e), MG_OK);
  assert_false(t.wrap[0]);
  assert_string_equal(mg_topo_format(&t, buf, sizeof buf), "line:7");
  assert_int_equal(mg_topo_parse("mesh:10x14", &t, &e), MG_OK);
  assert_int_equal(t.N, 140);
  assert_int_equal(mg_topo_parse("torus:2x2x2x2x2x2x2x2", &t, &e), MG_OK);
  assert_int_equal(t.d, 8);
  assert_int_equal(t.N, 256);
  assert_int_equal(mg_topo_parse("meshbus:8", &t, &e), MG_OK);
  assert_int_equal(t.kind, MG_TOPO_MESHBUS);
  assert_int_equal(t.N, 64);
  assert_string_equal(mg_topo_format(&t, buf, sizeof buf), "meshbus:8");
}

static void parse_bad(void **state) {
  (void)state;
  const char *bad[] = {"torus:0x3", "torus:9xx",   "ring:",    "ring",     "torus:",   "torus:1x5",
                       "ring:9x9",  "cube:3",      "torus:9x", "torus:x9", "torus:-3", "torus:2x2x2x2x2x2x2x2x2",
                       "ring:3a",   "meshbus:4x4", ""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mg_topo t;
    mg_err e = {{0}};
    mg_status st = mg_topo_parse(bad[i], &t, &e);
    assert_int_equal(st, MG_ERR_INVALID);
    assert_true(strlen(e.msg) > 0);
    assert_null(strchr(e.msg, '\n'));
  }
  mg_topo t;
  mg_err e;
  assert_int_equal(mg_topo_parse("torus:100000x100000", &t, &e), MG_ERR_TOO_LARGE);
  assert_int_equal(mg_topo_parse("ring:99999999999999999999", &t, &e), MG_ERR_TOO_LARGE);
}

static void ids_and_coords(void **state) {
  (void)state;
  mg_topo t;
  assert_int_equal(mg_topo_parse("mesh:3x5x4", &t, NULL), MG_OK);
  for (uint32_t id = 0; id < t.N; id++) {
    uint32_t x[MG_MAX_DIMS];
    mg_topo_coords(&t, id, x);
    /* dimension 0 fastest */
    assert_int_equal(id, x[0] + 3 * (x[1] + 5 * x[2]));
    assert_int_equal(mg_topo_id(&t, x), id);
  }
}

static void steps_and_arcs(void **state) {
  (void)state;
  mg_topo t;
  assert_int_equal(mg_topo_parse("mesh:3x3", &t, NULL), MG_OK);
  assert_int_equal(mg_topo_step(&t, 0, 0, -1), UINT32_MAX);
  assert_int_equal(mg_topo_step(&t, 2, 0, +1), UINT32_MAX);
  assert_int_equal(mg_topo_step(&t, 4, 1, +1), 7);
  assert_int_equal(mg_topo_in_degree(&t, 0), 2);
  assert_int_equal(mg_topo_in_degree(&t, 4), 4);
  assert_int_equal(mg_topo_diameter(&t), 4);
  assert_int_equal(mg_topo_parse("torus:2x5", &t, NULL), MG_OK);
  /* extent 2 on a torus: two distinct arcs each way to the same neighbour */
  assert_int_equal(mg_topo_step(&t, 0, 0, +1), 1);
  assert_int_equal(mg_topo_step(&t, 0, 0, -1), 1);
  assert_true(mg_arc_id(&t, 0, 0, +1) != mg_arc_id(&t, 0, 0, -1));
  assert_int_equal(mg_topo_in_degree(&t, 3), 4);
  assert_int_equal(mg_topo_diameter(&t), 1 + 2);
  assert_int_equal(mg_topo_step(&t, 8, 1, +1), 0);
}

static void default_routes(void **state) {
  (void)state;
  mg_topo t;
  mg_seg seg[MG_MAX_DIMS];
  assert_int_equal(mg_topo_parse("torus:8x7", &t, NULL), MG_OK);
  /* tie on the even ring goes + */
  assert_int_equal(mg_topo_offset(&t, 0, 0, 4), 4);
  assert_int_equal(mg_topo_offset(&t, 0, 4, 0), 4);
  assert_int_equal(mg_topo_offset(&t, 0, 0, 5), -3);
  assert_int_equal(mg_topo_offset(&t, 1, 0, 8 * 4), -3);
  int ns = mg_route_default(&t, 0, 5 + 8 * 2, seg);
  assert_int_equal(ns, 2);
  assert_int_equal(seg[0].dim, 0);
  assert_int_equal(seg[0].hops, -3);
  assert_int_equal(seg[1].dim, 1);
  assert_int_equal(seg[1].hops, 2);
  assert_int_equal(mg_topo_parse("mesh:8x7", &t, NULL), MG_OK);
  assert_int_equal(mg_topo_offset(&t, 0, 7, 0), -7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parse_good),     cmocka_unit_test(parse_bad),      cmocka_unit_test(ids_and_coords),
      cmocka_unit_test(steps_and_arcs), cmocka_unit_test(default_routes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

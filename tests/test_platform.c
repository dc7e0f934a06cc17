/* SimGrid platforms (src/engine/platform.c): the XML is parsed back and
 * every explicit route is walked link by link and compared with the
 * project's default route (mg_route_default: dimension order, ties +);
 * a few routes are checked by hand, including the tie x = 2 -> 0 on an
 * extent 4 that SimGrid's TORUS cluster would send the other way. */
#include "helpers.h"

#include "meshgossip_engine.h"
#include "util/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *platform(const char *topo, const char *model, mg_status *st, mg_err *err) {
  mg_topo t;
  mg_model m;
  assert_int_equal(mg_topo_parse(topo, &t, err), MG_OK);
  mg_model_default(&m);
  assert_int_equal(mg_model_parse(model, &m, err), MG_OK);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  *st = mg_platform_write(f, &t, &m, NULL, err);
  fclose(f);
  return buf;
}

/* Walks every <route> of the XML; returns the number of routes, fails on
 * any route that is not the default one. */
static size_t recount(const char *xml, const mg_topo *t) {
  size_t routes = 0;
  const char *p = xml;
  while ((p = strstr(p, "<route src=\"n"))) {
    unsigned a, b;
    assert_int_equal(sscanf(p, "<route src=\"n%u\" dst=\"n%u\"", &a, &b), 2);
    const char *end = strstr(p, "</route>");
    assert_non_null(end);
    /* the arcs the default route walks */
    mg_seg seg[MG_MAX_DIMS];
    int nseg = mg_route_default(t, a, b, seg);
    uint32_t want_node[256];
    int want_dim[256], want_dir[256], nw = 0;
    uint32_t cur = a;
    for (int i = 0; i < nseg; i++)
      for (int h = 0; h < abs(seg[i].hops); h++) {
        assert_true(nw < 256);
        want_node[nw] = cur, want_dim[nw] = seg[i].dim, want_dir[nw] = seg[i].hops > 0 ? 1 : -1;
        cur = mg_topo_step(t, cur, seg[i].dim, want_dir[nw]);
        nw++;
      }
    /* the arcs the XML walks */
    int ng = 0;
    cur = a;
    for (const char *q = strstr(p, "<link_ctn"); q && q < end; q = strstr(q + 1, "<link_ctn")) {
      unsigned v;
      int k;
      char dir[8];
      assert_int_equal(sscanf(q, "<link_ctn id=\"l%u_%d\" direction=\"%7[A-Z]\"", &v, &k, dir), 3);
      int up = !strcmp(dir, "UP");
      uint32_t from = up ? v : mg_topo_step(t, v, k, +1);
      assert_true(ng < nw);
      if (from != want_node[ng] || k != want_dim[ng] || (up ? 1 : -1) != want_dir[ng])
        fail_msg("route n%u -> n%u: hop %d is (%u, %d, %s), ours (%u, %d, %d)", a, b, ng, from, k, dir, want_node[ng],
                 want_dim[ng], want_dir[ng]);
      ng++;
    }
    assert_int_equal(ng, nw);
    routes++;
    p = end;
  }
  return routes;
}

static void explicit_ok(const char *topo) {
  mg_err err;
  mg_status st;
  mg_topo t;
  assert_int_equal(mg_topo_parse(topo, &t, &err), MG_OK);
  char *xml = platform(topo, "tl=5.714285714285714e-09,td=5e-08", &st, &err);
  assert_int_equal(st, MG_OK);
  assert_non_null(strstr(xml, "routing=\"Full\""));
  assert_non_null(strstr(xml, "bandwidth=\"175000000Bps\" latency=\"5e-08s\""));
  assert_int_equal(recount(xml, &t), (size_t)t.N * (t.N - 1));
  free(xml);
}

static void test_explicit_routes(void **state) {
  (void)state;
  explicit_ok("torus:4x4");
  explicit_ok("mesh:3x4");
  explicit_ok("line:5");
  explicit_ok("torus:2x3");
  explicit_ok("mesh:2x2x3");
}

/* By hand on torus:4x4: n2 -> n0 is the tie (offset 2 either way): ours
 * goes +, 2 -> 3 -> 0 over links l2_0 and l3_0 UP. n5 -> n0 (x 1 -> 0,
 * y 1 -> 0): l4_0 DOWN, then l0_1 DOWN. */
static void test_by_hand(void **state) {
  (void)state;
  mg_err err;
  mg_status st;
  char *xml = platform("torus:4x4", "tl=1e-9", &st, &err);
  assert_int_equal(st, MG_OK);
  assert_non_null(strstr(xml, "<route src=\"n2\" dst=\"n0\" symmetrical=\"NO\"><link_ctn id=\"l2_0\" "
                              "direction=\"UP\"/><link_ctn id=\"l3_0\" direction=\"UP\"/></route>"));
  assert_non_null(strstr(xml, "<route src=\"n5\" dst=\"n0\" symmetrical=\"NO\"><link_ctn id=\"l4_0\" "
                              "direction=\"DOWN\"/><link_ctn id=\"l0_1\" direction=\"DOWN\"/></route>"));
  /* 16 hosts, 32 links (two per node on a 2D torus) */
  size_t links = 0;
  for (const char *p = xml; (p = strstr(p, "<link id=")); p++)
    links++;
  assert_int_equal(links, 32);
  free(xml);
}

/* All-odd tori are SimGrid TORUS clusters (no ties: its routes are ours). */
static void test_torus_cluster(void **state) {
  (void)state;
  mg_err err;
  mg_status st;
  char *xml = platform("torus:3x5", "tl=1e-9,td=1e-7", &st, &err);
  assert_int_equal(st, MG_OK);
  assert_non_null(strstr(xml, "topology=\"TORUS\" topo_parameters=\"3,5\""));
  assert_non_null(strstr(xml, "radical=\"0-14\""));
  assert_non_null(strstr(xml, "sharing_policy=\"SPLITDUPLEX\""));
  free(xml);
}

/* Mesh-bus: one SHARED link per row and per column bus. */
static void test_meshbus(void **state) {
  (void)state;
  mg_err err;
  mg_status st;
  char *xml = platform("meshbus:3", "tl=1e-9", &st, &err);
  assert_int_equal(st, MG_OK);
  assert_non_null(
      strstr(xml, "<link id=\"row2\" bandwidth=\"1000000000Bps\" latency=\"0s\" sharing_policy=\"SHARED\"/>"));
  /* node 7 = (x0 1, x1 2) to node 6 = (0, 2): same row bus 2 */
  assert_non_null(strstr(xml, "<route src=\"n7\" dst=\"n6\" symmetrical=\"NO\"><link_ctn id=\"row2\"/></route>"));
  assert_non_null(strstr(xml, "<route src=\"n7\" dst=\"n1\" symmetrical=\"NO\"><link_ctn id=\"col1\"/></route>"));
  assert_null(strstr(xml, "<route src=\"n7\" dst=\"n0\""));
  free(xml);
}

static void test_refusals(void **state) {
  (void)state;
  mg_err err;
  mg_status st;
  free(platform("torus:4x4", "tl=0", &st, &err));
  assert_int_equal(st, MG_ERR_INVALID);
  free(platform("torus:32x32", "tl=1e-9", &st, &err));
  assert_int_equal(st, MG_ERR_TOO_LARGE);
  assert_non_null(strstr(err.msg, "odd"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_explicit_routes), cmocka_unit_test(test_by_hand),  cmocka_unit_test(test_torus_cluster),
      cmocka_unit_test(test_meshbus),         cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

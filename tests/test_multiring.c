/* multiring and the Hamiltonian decompositions it runs on: every cycle of a
 * decomposition visits every node once along torus edges and every directed
 * arc of the torus lies on exactly one of the 2d directed rings (checked
 * here by a recount over the arcs, independently of the construction), and
 * the simulated cost of multiring equals its closed form under every model
 * it accepts. */
#include "helpers.h"

#include "algo/gossip/hamilton.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void check_decomposition(const char *spec) {
  mg_topo t;
  mg_hamdec h;
  mg_err e = {{0}};
  assert_int_equal(mg_topo_parse(spec, &t, &e), MG_OK);
  if (mg_hamdec_build(&t, &h, &e) != MG_OK) fail_msg("%s: %s", spec, e.msg);
  assert_int_equal(h.ncyc, t.d);
  assert_int_equal(h.N, t.N);
  uint64_t slots = mg_topo_arc_slots(&t);
  unsigned char *used = calloc(slots, 1), *seen = calloc(t.N, 1);
  assert_non_null(used);
  assert_non_null(seen);
  for (int c = 0; c < h.ncyc; c++) {
    memset(seen, 0, t.N);
    assert_int_equal(h.seq[(size_t)c * t.N], 0);
    for (uint32_t i = 0; i < t.N; i++) {
      uint32_t v = h.seq[(size_t)c * t.N + i], w = h.seq[(size_t)c * t.N + (i + 1) % t.N];
      int dim = h.dim[(size_t)c * t.N + i], dir = h.dir[(size_t)c * t.N + i];
      if (seen[v]) fail_msg("%s: cycle %d visits node %u twice", spec, c, v);
      seen[v] = 1;
      assert_int_equal(h.pos[(size_t)c * t.N + v], i);
      assert_true(dim >= 0 && dim < t.d && (dir == 1 || dir == -1));
      if (mg_topo_step(&t, v, dim, dir) != w) fail_msg("%s: cycle %d steps %u -> %u off an edge", spec, c, v, w);
      /* both directed rings of this cycle: v -> w and w -> v */
      uint64_t a = mg_arc_id(&t, v, dim, dir), b = mg_arc_id(&t, w, dim, -dir);
      if (used[a] || used[b]) fail_msg("%s: arc of %u -- %u on two rings", spec, v, w);
      used[a] = used[b] = 1;
    }
  }
  for (uint32_t v = 0; v < t.N; v++)
    for (int k = 0; k < t.d; k++)
      for (int dir = -1; dir <= 1; dir += 2)
        if (!used[mg_arc_id(&t, v, k, dir)]) fail_msg("%s: arc (%u, %d, %d) on no ring", spec, v, k, dir);
  free(used);
  free(seen);
  mg_hamdec_free(&h);
}

static void test_decompositions(void **state) {
  (void)state;
  char spec[64];
  for (int a = 3; a <= 14; a++)
    for (int b = 3; b <= 14; b++) {
      snprintf(spec, sizeof spec, "torus:%dx%d", a, b);
      check_decomposition(spec);
    }
  static const char *const more[] = {"ring:3",      "ring:64",       "torus:16x16",   "torus:27x27",
                                     "torus:81x81", "torus:5x31",    "torus:3x3x3",   "torus:4x4x4",
                                     "torus:3x4x5", "torus:5x5x5",   "torus:8x8x8",   "torus:3x3x7",
                                     "torus:6x6x6", "torus:3x3x3x3", "torus:4x3x5x3", "torus:9x9x9"};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
    check_decomposition(more[i]);
}

/* The closed form of multiring (file header) against the simulator. */
static void test_closed_form(void **state) {
  (void)state;
  static const char *const shapes[] = {"ring:3",    "ring:7",    "ring:12",   "torus:3x5",   "torus:4x4",
                                       "torus:8x8", "torus:9x9", "torus:4x6", "torus:4x4x4", "torus:3x4x5"};
  static const char *const models[] = {"ts=3,td=0.5,tl=1", "contention=shared,ts=3,td=0.5,tl=1",
                                       "contention=fair,ts=1e-6,td=0,tl=5.714e-9", "switching=circuit,ts=3,td=2,tl=1",
                                       "switching=saf,ts=3,tl=1"};
  static const char *const modes[] = {"multiring:mode=uni", "multiring:mode=bi"};
  const mg_algo *a = mg_algo_find("multiring");
  assert_non_null(a);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
      for (int k = 0; k < 2; k++) {
        mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], models[m], 24576.0);
        mg_params ps;
        const mg_algo *al;
        double cf;
        assert_int_equal(mg_algo_lookup(modes[k], &al, &ps, NULL), MG_OK);
        assert_int_equal(a->closed_form(&pb, &ps, &cf, NULL), MG_OK);
        double sim = th_cost(modes[k], &pb);
        if (fabs(sim - cf) > 1e-9 * cf)
          fail_msg("%s on %s [%s]: simulated %.12g, closed form %.12g", modes[k], shapes[s], models[m], sim, cf);
      }
}

/* With ts = 0 the schedule is the bandwidth bound (N-1) m / (2d B) of a
 * node that receives over its 2d in-arcs: exactly for mode=uni and for
 * mode=bi on an odd N and on an even one (the split last round). */
static void test_bandwidth_bound(void **state) {
  (void)state;
  static const char *const shapes[] = {"torus:8x8", "torus:9x9", "torus:4x4x4", "torus:3x5"};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=0,td=0,tl=1", 1200.0);
    double bound = (pb.topo.N - 1.0) * 1200.0 / (2.0 * pb.topo.d);
    assert_true(fabs(th_cost("multiring:mode=uni", &pb) - bound) < 1e-6 * bound);
    assert_true(fabs(th_cost("multiring:mode=bi", &pb) - bound) < 1e-6 * bound);
  }
}

static void test_refusals(void **state) {
  (void)state;
  static const char *const cases[][2] = {{"torus:2x2", "ts=1"},
                                         {"torus:3x2", "ts=1"},
                                         {"mesh:4x4", "ts=1"},
                                         {"line:5", "ts=1"},
                                         {"torus:4x4", "port=one"}};
  const mg_algo *a = mg_algo_find("multiring");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mg_problem_spec pb = th_problem(MG_GOSSIP, cases[i][0], cases[i][1], 1.0);
    mg_err e = {{0}};
    assert_int_equal(mg_algo_check(a, &pb, NULL, &e), MG_ERR_UNSUPPORTED);
    assert_true(strlen(e.msg) > 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_decompositions), cmocka_unit_test(test_closed_form),
                                     cmocka_unit_test(test_bandwidth_bound), cmocka_unit_test(test_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

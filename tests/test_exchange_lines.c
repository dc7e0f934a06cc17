/* exchange-lines and exchange-allport (issue 16): the simulated cost
 * against the closed forms (exchange_lines.c, exchange_allport.c) on
 * tori, meshes, rings and lines; the busiest-arc loads recounted from the
 * resolved routes of every transfer; exchange-allport's transfer term
 * against the bisection bound (Tseng, Ni, Sheu 1999 Lemma 8); the refusals. */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARED "contention=shared,ts=3,td=0.5,tl=1"

static mg_report run_ok(const char *algo, const mg_problem_spec *pb, const mg_sim_opts *o) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_report rep;
  if (mg_algo_lookup(algo, &a, &ps, &err) != MG_OK) fail_msg("%s", err.msg);
  mg_status st = mg_run(a, pb, &ps, o, &rep, &err);
  if (st != MG_OK || !rep.verified) fail_msg("%s: status %d: %s %s", algo, st, err.msg, rep.violation.msg);
  return rep;
}

static double closed(const char *algo, const mg_problem_spec *pb) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  double c = -1;
  if (mg_algo_lookup(algo, &a, &ps, &err) != MG_OK) fail_msg("%s", err.msg);
  if (a->closed_form(pb, &ps, &c, &err) != MG_OK) fail_msg("%s closed form: %s", algo, err.msg);
  return c;
}

static double bisection(const mg_problem_spec *pb) {
  mg_bound b;
  assert_int_equal(mg_lower_bound(pb, &b, NULL), MG_OK);
  for (int i = 0; i < b.n; i++)
    if (!strcmp(b.term[i].name, "bisection")) return b.term[i].value;
  fail_msg("no bisection term");
  return 0;
}

/* exchange-lines: simulated = closed form on every kind of grid, with the
 * ring ties (n = 6, 8: n = 2 mod 4 and 0 mod 4), odd rings, lines, meshes. */
static void test_lines_closed_form(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:8x8", "torus:9x9",  "torus:6x6", "torus:4x4x4", "mesh:8x8",
                                      "mesh:5x7",  "mesh:3x4x5", "line:7",    "line:8",      "ring:6",
                                      "ring:2",    "torus:2x6",  "mesh:6x2"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], SHARED, 2.0);
    mg_report rep = run_ok("exchange-lines", &pb, NULL);
    double c = closed("exchange-lines", &pb);
    if (fabs(rep.cost - c) > 1e-9 * c)
      fail_msg("exchange-lines on %s: simulated %g, closed form %g", topos[i], rep.cost, c);
    assert_int_equal(rep.rounds, pb.topo.d);
    mg_report_free(&rep);
  }
  /* by hand: torus:8x8, 2-byte blocks: per stage the busiest arc carries
   * 8 messages (offsets 1+2+3 and 2 of the 4 ties) of 8 blocks: 128 bytes;
   * 7 messages over 4 arcs: 2 start-ups; 4 hops */
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", SHARED, 2.0);
  assert_float_equal(closed("exchange-lines", &pb), 2 * (2 * 3 + 4 * 0.5 + 128), 1e-9);
  /* mesh:5x7: stage x: middle arc 2*3 messages of 7 blocks; stage y: 3*4
   * of 5 blocks; corners (2 arcs) start 4 and 6 messages: 2 and 3 start-ups */
  pb = th_problem(MG_EXCHANGE, "mesh:5x7", SHARED, 2.0);
  assert_float_equal(closed("exchange-lines", &pb), (2 * 3 + 4 * 0.5 + 6 * 7 * 2) + (3 * 3 + 6 * 0.5 + 12 * 5 * 2),
                     1e-9);
}

/* exchange-allport: simulated = closed form on 2D grids with even extents;
 * its transfer term is the bisection bound where 4 divides the ring
 * extents, and on meshes. */
static void test_allport_closed_form(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:8x8", "torus:16x16", "torus:6x6", "torus:4x6",
                                      "mesh:8x8",  "mesh:6x4",    "torus:2x2", "mesh:2x8"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++) {
    mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], SHARED, 2.0);
    mg_report rep = run_ok("exchange-allport", &pb, NULL);
    double c = closed("exchange-allport", &pb);
    if (fabs(rep.cost - c) > 1e-9 * c)
      fail_msg("exchange-allport on %s: simulated %g, closed form %g", topos[i], rep.cost, c);
    mg_report_free(&rep);
  }
  /* torus:8x8: 2 (ceil(14/4) ts + 4 td) + N k b tl / 8 */
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", SHARED, 2.0);
  assert_float_equal(closed("exchange-allport", &pb), 2 * (4 * 3 + 4 * 0.5) + 64 * 8 * 2.0 / 8, 1e-9);
  static const char *const tight[] = {"torus:8x8", "torus:16x16", "mesh:8x8", "mesh:5x7", "mesh:6x4"};
  for (size_t i = 0; i < sizeof tight / sizeof tight[0]; i++) {
    pb = th_problem(MG_EXCHANGE, tight[i], "contention=shared,ts=0,td=0,tl=1", 1.0);
    mg_report rep = run_ok("exchange-allport", &pb, NULL);
    if (fabs(rep.cost_transfer - bisection(&pb)) > 1e-9)
      fail_msg("exchange-allport on %s: transfer %g, bisection %g", tight[i], rep.cost_transfer, bisection(&pb));
    mg_report lines = run_ok("exchange-lines", &pb, NULL);
    if (pb.topo.n[0] == pb.topo.n[1]) /* k x k: d stages in turn cost d times */
      assert_float_equal(lines.cost_transfer, 2 * rep.cost_transfer, 1e-9);
    mg_report_free(&rep);
    mg_report_free(&lines);
  }
}

/* Recount: the bytes on every arc, round by round, from the resolved
 * routes and item counts; the sum over rounds of the busiest arc must be
 * the simulator's transfer term (tl = 1, 1-byte blocks). */
typedef struct recount {
  const mg_topo *t;
  double *load;
  int64_t round;
  double sum_max;
  uint64_t msgs;
} recount;

static void close_round(recount *rc) {
  double m = 0;
  uint64_t slots = mg_topo_arc_slots(rc->t);
  for (uint64_t a = 0; a < slots; a++) {
    if (rc->load[a] > m) m = rc->load[a];
    rc->load[a] = 0;
  }
  rc->sum_max += m;
}

static mg_status on_res(void *arg, const mg_resolved *res, mg_err *err) {
  (void)err;
  recount *rc = arg;
  if (res->round != rc->round) {
    if (rc->round >= 0) close_round(rc);
    rc->round = res->round;
  }
  rc->msgs++;
  uint32_t at = res->tr->src;
  for (int s = 0; s < res->nseg; s++) {
    int dir = res->route[s].hops < 0 ? -1 : 1;
    for (int32_t h = 0; h < abs(res->route[s].hops); h++) {
      rc->load[mg_arc_id(rc->t, at, res->route[s].dim, dir)] += (double)res->nitems;
      at = mg_topo_step(rc->t, at, res->route[s].dim, dir);
    }
  }
  if (at != res->tr->dst) return MG_ERR_INVALID;
  return MG_OK;
}

static void test_recount(void **state) {
  (void)state;
  static const char *const topos[] = {"torus:9x9", "torus:4x4x4", "torus:3x4x5", "mesh:5x7", "mesh:3x4x5", "line:9"};
  static const char *const algos[] = {"exchange-lines", "exchange-allport", "exchange-allport:order=plain"};
  for (size_t i = 0; i < sizeof topos / sizeof topos[0]; i++)
    for (size_t j = 0; j < sizeof algos / sizeof algos[0]; j++) {
      mg_problem_spec pb = th_problem(MG_EXCHANGE, topos[i], "contention=shared,ts=0,td=0,tl=1", 1.0);
      recount rc = {.t = &pb.topo, .round = -1};
      rc.load = calloc(mg_topo_arc_slots(&pb.topo), sizeof(double));
      assert_non_null(rc.load);
      mg_sim_opts o;
      memset(&o, 0, sizeof o);
      o.on_resolved = on_res;
      o.on_resolved_arg = &rc;
      mg_report rep = run_ok(algos[j], &pb, &o);
      close_round(&rc);
      if (fabs(rep.cost_transfer - rc.sum_max) > 1e-9)
        fail_msg("%s on %s: transfer %g, recount %g", algos[j], topos[i], rep.cost_transfer, rc.sum_max);
      /* messages: d rounds of sum_k (n_k - 1) per node for allport; one
       * stage per dimension for lines */
      uint64_t per = 0;
      for (int k = 0; k < pb.topo.d; k++)
        per += pb.topo.n[k] - 1;
      uint64_t want = (uint64_t)pb.topo.N * per * (j ? (uint64_t)pb.topo.d : 1);
      assert_int_equal(rc.msgs, want);
      assert_true(rep.cost_transfer >= bisection(&pb) - 1e-9);
      mg_report_free(&rep);
      free(rc.load);
    }
}

static void test_refusals(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:4x4", "port=one,contention=shared,ts=1,tl=1", 1.0);
  mg_report rep;
  assert_int_equal(th_run("exchange-allport", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_EXCHANGE, "torus:4x4", "ts=1,tl=1", 1.0); /* strict: shared arcs are named */
  assert_int_equal(th_run("exchange-lines", &pb, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_ARC_CONTENTION);
  mg_report_free(&rep);
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  assert_int_equal(mg_algo_lookup("exchange-allport:order=sideways", &a, &ps, &err), MG_OK);
  pb = th_problem(MG_EXCHANGE, "torus:4x4", SHARED, 1.0);
  assert_int_equal(mg_algo_check(a, &pb, &ps, &err), MG_ERR_INVALID);
  pb = th_problem(MG_EXCHANGE, "torus:3x3", SHARED, 1.0);
  assert_int_equal(mg_algo_lookup("exchange-allport", &a, &ps, &err), MG_OK);
  double c;
  assert_int_equal(a->closed_form(&pb, &ps, &c, &err), MG_ERR_UNSUPPORTED);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_lines_closed_form),
                                     cmocka_unit_test(test_allport_closed_form), cmocka_unit_test(test_recount),
                                     cmocka_unit_test(test_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

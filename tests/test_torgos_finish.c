/* torgos finish=period9 (src/algo/gossip/torgos_finish.c): TORGOS's phases 1-3
 * to the diagonal of spacing 9, then four searched rounds of 1, 1, 2 and 3
 * classes a message in place of phase 4. Juurlink, Rao, Sibeyn 1996 Table 2 at
 * n = 27, r = 100: 1103.5 against the printed 1122.
 * torgos finish=pair9 (src/algo/gossip/torgos_pair.c): seven rounds on 27 x 27,
 * at or below Table 2's printed TORGOS(3,3,1) values at every r and the tuned
 * row's from r = 30 on: 2072.5 against 2227 at r = 250. */
#include "helpers.h"

#include <math.h>
#include <string.h>

/* n = 27 in the paper's units: phases 1-3 take 4 rounds of 0.5, 1.5, 4.5 and
 * 13.5 units (as TORGOS(3,3,1)), the finish 4 rounds of D, D, 2 D and 3 D with
 * D = 27 x 27 / 18 = 40.5 (one class: the white or black pieces, half a unit
 * each, of the 81 origins with one coordinate = c mod 9): 8 r + 20 + 7 D. */
static void test_table2_n27(void **state) {
  (void)state;
  static const double r[4] = {8, 30, 100, 250}, paper[4] = {444, 606, 1122, 2227};
  const double D = 27.0 * 27 / 18;
  for (int j = 0; j < 4; j++) {
    mg_problem_spec pb = th_paper(MG_GOSSIP, "torus:27x27", r[j]);
    mg_report rep = th_report("torgos:a=3,finish=period9", &pb);
    assert_int_equal(rep.startups, 8);
    assert_true(fabs(rep.cost_transfer - (0.5 + 1.5 + 4.5 + 13.5 + 7 * D)) < 1e-9);
    assert_true(fabs(rep.cost - (8 * r[j] + 303.5)) < 1e-9);
    /* the finish's rounds: the largest message 1, 1, 2, 3 classes */
    static const double cls[4] = {1, 1, 2, 3};
    for (int k = 0; k < 4; k++)
      assert_true(fabs(rep.round_costs[4 + k] - (r[j] + cls[k] * D)) < 1e-9);
    /* the paper's TORGOS(3,3,1) finishes in D, D, 3 D, 3 D: one D more */
    assert_true(fabs(th_cost("torgos:a=3,b=3,x=1", &pb) - rep.cost - D) < 1e-9);
    /* at or below the printed value up to r = 100; at r = 250 still above */
    if (r[j] <= 100)
      assert_true(rep.cost <= paper[j]);
    else
      assert_true(rep.cost > paper[j]);
    mg_report_free(&rep);
  }
}

/* pair9 on 27 x 27 in the paper's units: both pieces of an origin in one
 * class of 81 origins; two searched rounds gather one origin of each of its 9
 * residues mod 9 on both points of the class, (c, c) and (c + 4, c) of every
 * 9 x 9 period (messages of 1 and 2 origins: 1 and 2 units); the first points
 * circulate along rows while the second ones circulate along columns (9
 * units), then the other way (27 units); three searched rounds of 2, 2 and 3
 * classes finish (D = 40.5): 7 r + 39 + 7 D = 7 r + 322.5. */
static void test_pair9_n27(void **state) {
  (void)state;
  static const double r[4] = {8, 30, 100, 250}, paper[4] = {444, 606, 1122, 2227};
  static const double units[7] = {1, 2, 9, 27, 2 * 40.5, 2 * 40.5, 3 * 40.5};
  for (int j = 0; j < 4; j++) {
    mg_problem_spec pb = th_paper(MG_GOSSIP, "torus:27x27", r[j]);
    mg_report rep = th_report("torgos:a=3,finish=pair9", &pb);
    assert_true(rep.verified);
    assert_int_equal(rep.startups, 7);
    assert_true(fabs(rep.cost_transfer - 322.5) < 1e-9);
    if (fabs(rep.cost - (7 * r[j] + 322.5)) > 1e-9) fail_msg("r = %g: %g, want %g", r[j], rep.cost, 7 * r[j] + 322.5);
    for (int k = 0; k < 7; k++)
      assert_true(fabs(rep.round_costs[k] - (r[j] + units[k])) < 1e-9);
    /* one start-up fewer than period9 (8 r + 303.5), 19 units more transfer */
    assert_true(fabs(th_cost("torgos:a=3,finish=period9", &pb) - rep.cost - (r[j] - 19)) < 1e-9);
    assert_true(rep.cost <= paper[j]);
    mg_report_free(&rep);
  }
}

/* The table is one schedule of the 9 x 9 period: it lifts to every torus
 * whose extents are multiples of 9, and the mesh emulation carries it. */
static void test_shapes(void **state) {
  (void)state;
  static const struct {
    const char *topo, *algo;
  } cases[] = {
      {"torus:9x9", "torgos:a=1,finish=period9"},  {"torus:18x18", "torgos:a=2,finish=period9"},
      {"torus:9x27", "torgos:a=1,finish=period9"}, {"torus:27x18", "torgos:a=3,finish=period9"},
      {"torus:36x9", "torgos:a=4,finish=period9"}, {"mesh:27x27", "torgos:a=3,finish=period9"},
      {"mesh:18x9", "torgos:a=2,finish=period9"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mg_problem_spec pb = th_paper(MG_GOSSIP, cases[i].topo, 10);
    mg_report rep;
    mg_status st = th_run(cases[i].algo, &pb, &rep);
    if (st != MG_OK || !rep.verified) fail_msg("%s on %s: %d %s", cases[i].algo, cases[i].topo, st, rep.violation.msg);
    mg_report_free(&rep);
  }
  static const char *const tori[] = {"torus:9x9", "torus:27x27", "torus:18x27"};
  static const char *const models[] = {"switching=wormhole,port=all,contention=strict,ts=10,td=0.5,tl=1",
                                       "switching=wormhole,port=all,contention=strict,ts=1,td=3,tl=0.25"};
  th_closed_form_matches("torgos:finish=period9", MG_GOSSIP, tori + 1, 1, models, 2, 1);
  th_closed_form_matches("torgos:a=1,finish=period9", MG_GOSSIP, tori, 1, models, 2, 8);
  th_closed_form_matches("torgos:a=2,finish=period9", MG_GOSSIP, tori + 2, 1, models, 2, 2);
}

/* pair9's tables lift to every torus whose extents are multiples of 9: the
 * circulations run floor(a/2) steps a line (none on a side of 9; one way only
 * in the last step of an even a), rectangular ones the longer of the two. */
static void test_pair9_shapes(void **state) {
  (void)state;
  static const struct {
    const char *topo, *algo;
    int64_t rounds;
  } cases[] = {
      {"torus:9x9", "torgos:a=1,finish=pair9", 5},    {"torus:18x18", "torgos:a=2,finish=pair9", 7},
      {"torus:9x27", "torgos:a=1,finish=pair9", 7},   {"torus:27x18", "torgos:a=3,finish=pair9", 7},
      {"torus:36x9", "torgos:a=4,finish=pair9", 9},   {"torus:45x27", "torgos:a=5,finish=pair9", 9},
      {"torus:81x81", "torgos:a=9,finish=pair9", 13}, {"mesh:27x27", "torgos:a=3,finish=pair9", 14},
      {"mesh:18x9", "torgos:a=2,finish=pair9", 14},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mg_problem_spec pb = th_paper(MG_GOSSIP, cases[i].topo, 10);
    mg_report rep;
    mg_status st = th_run(cases[i].algo, &pb, &rep);
    if (st != MG_OK || !rep.verified) fail_msg("%s on %s: %d %s", cases[i].algo, cases[i].topo, st, rep.violation.msg);
    if (rep.rounds != cases[i].rounds)
      fail_msg("%s on %s: %lld rounds, want %lld", cases[i].algo, cases[i].topo, (long long)rep.rounds,
               (long long)cases[i].rounds);
    mg_report_free(&rep);
  }
  /* 45 x 27: the two circulations of a phase run 2 and 1 steps */
  static const char *const tori[] = {"torus:9x9", "torus:27x27", "torus:18x27", "torus:36x9", "torus:45x27"};
  static const char *const models[] = {"switching=wormhole,port=all,contention=strict,ts=10,td=0.5,tl=1",
                                       "switching=wormhole,port=all,contention=strict,ts=1,td=3,tl=0.25"};
  th_closed_form_matches("torgos:finish=pair9", MG_GOSSIP, tori, 5, models, 2, 8);
  /* 81 x 81 (a = 9: 4 steps a circulation) is above the tuned TORGOS there: 13 r + 2914.5 */
  mg_problem_spec pb = th_paper(MG_GOSSIP, "torus:81x81", 250);
  assert_true(fabs(th_cost("torgos:finish=pair9", &pb) - (13 * 250 + 2914.5)) < 1e-9);
}

static void refused(const char *algo, const char *topo, mg_status want) {
  mg_problem_spec pb = th_paper(MG_GOSSIP, topo, 10);
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  mg_status st = th_run(algo, &pb, &rep);
  if (st != want) fail_msg("%s on %s: status %d, expected %d", algo, topo, st, want);
  mg_report_free(&rep);
}

static void test_refusals(void **state) {
  (void)state;
  refused("torgos:a=3,finish=period9", "torus:9x9", MG_ERR_UNSUPPORTED);   /* spacing 3, not 9 */
  refused("torgos:a=1,finish=period9", "torus:9x18", MG_OK);               /* spacing 9 */
  refused("torgos:a=2,finish=period9", "torus:18x12", MG_ERR_UNSUPPORTED); /* 12 not a multiple of 9 */
  refused("torgos:a=3,b=3,finish=period9", "torus:27x27", MG_ERR_INVALID); /* b is phase 4's */
  refused("torgos:a=3,x=1,finish=period9", "torus:27x27", MG_ERR_INVALID);
  refused("torgos:a=3,finish=rounds", "torus:27x27", MG_ERR_INVALID);
  refused("torgos:a=3,finish=phase4", "torus:27x27", MG_OK);
  refused("torgos:a=3,finish=pair9", "torus:9x9", MG_ERR_UNSUPPORTED);   /* spacing 3 */
  refused("torgos:a=2,finish=pair9", "torus:18x12", MG_ERR_UNSUPPORTED); /* 12 not a multiple of 9 */
  refused("torgos:a=3,b=9,finish=pair9", "torus:27x27", MG_ERR_INVALID);
  refused("torgos:a=3,x=1,finish=pair9", "torus:27x27", MG_ERR_INVALID);
  refused("torgos:finish=pair9", "ring:27", MG_ERR_UNSUPPORTED);
}

static void tune_held(const char *topo, double r, const char *key, const char *value, const char *want, size_t evals) {
  mg_problem_spec pb = th_paper(MG_GOSSIP, topo, r);
  mg_params held, best, second;
  mg_report br, sr;
  size_t ev;
  char ps[128];
  memset(&held, 0, sizeof held);
  assert_int_equal(mg_params_set(&held, key, value, NULL), MG_OK);
  assert_int_equal(mg_tune_with(mg_algo_find("torgos"), &pb, &held, NULL, &best, &br, &second, &sr, &ev, NULL), MG_OK);
  if (strcmp(mg_params_format(&best, ps, sizeof ps), want) || ev != evals)
    fail_msg("tune torgos:%s=%s on %s: %s, %zu evaluated; want %s, %zu", key, value, topo, ps, ev, want, evals);
  mg_report_free(&br);
  mg_report_free(&sr);
}

/* tune with a parameter held: the finish held keeps phase 4's candidates out
 * (they agree with it but fail once merged), b or x held the finish; and
 * a = auto with the finish is the a of spacing 9 (18 x 18: a = 2, not 3). */
static void test_tune_held(void **state) {
  (void)state;
  tune_held("torus:27x27", 8, "finish", "period9", "a=3,finish=period9", 1);
  tune_held("torus:27x27", 100, "b", "3", "a=3,b=3,x=1", 6);
  tune_held("torus:27x27", 100, "finish", "phase4", "a=3,b=3,x=1,finish=phase4", 6);
  tune_held("torus:18x18", 10, "finish", "period9", "a=2,finish=period9", 1);
  tune_held("torus:27x27", 8, "finish", "pair9", "a=3,finish=pair9", 1);
  mg_problem_spec pb = th_paper(MG_GOSSIP, "torus:18x18", 10);
  assert_true(fabs(th_cost("torgos:finish=period9", &pb) - th_cost("torgos:a=2,finish=period9", &pb)) < 1e-9);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table2_n27),   cmocka_unit_test(test_shapes),   cmocka_unit_test(test_pair9_n27),
      cmocka_unit_test(test_pair9_shapes), cmocka_unit_test(test_refusals), cmocka_unit_test(test_tune_held),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

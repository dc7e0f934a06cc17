/* weave (src/algo/gossip/weave.c): hand counts on ring:27 (thirds) and
 * ring:9 (halves), the round counts recounted, every item delivered
 * exactly once, the cells of Juurlink, Rao, Sibeyn 1996 Table 1 it holds,
 * and its refusals. */
#include "helpers.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static mg_report run_weave(const char *spec, uint32_t n, double r) {
  char topo[32];
  snprintf(topo, sizeof topo, "ring:%u", n);
  mg_problem_spec pb = th_paper(MG_GOSSIP, topo, r);
  return th_report(spec, &pb);
}

/* spec on ring:n at r = 10: rounds of 10 + units[i], cost total, verified,
 * every item delivered once. */
static void by_hand(const char *spec, uint32_t n, const double *units, int rounds, double total) {
  mg_report rep = run_weave(spec, n, 10);
  assert_true(rep.verified);
  assert_int_equal(rep.rounds, rounds);
  assert_int_equal(rep.n_round_costs, rounds);
  for (int i = 0; i < rounds; i++)
    assert_float_equal(rep.round_costs[i], 10 + units[i], 1e-9);
  assert_float_equal(rep.cost, total, 1e-9);
  assert_float_equal(rep.bytes_moved, (double)n * (n - 1), 1e-9);
  mg_report_free(&rep);
}

/* ring:27, h = 3, plan 01, worked out by hand (the header of weave.c):
 * the gather moves 1, 3, 9 items a message; the first spread 18 (4 -> 7:
 * 7 holds 3..11 already), the idle arcs carry 7 -> 8, 10 -> 9, 10 -> 11,
 * 11 -> 12, 7 -> 6, 6 -> 5; in the last round 5 gets 18 from 4 and 5 from
 * 6, 12 gets 18 from 13 and 5 from 11, the others 18 from one side. */
static void ring27_by_hand(void **state) {
  (void)state;
  const double units[5] = {1, 3, 9, 18, 18};
  by_hand("weave:h=3,spread=thirds,plan=01", 27, units, 5, 99);
}

/* ring:9, h = 2, spread=halves, by hand: the gather moves 1 and 3 items
 * (0, 3, 6 then know all 9; 1 holds 0..2, 2 holds 1..3); gaps of 2 between
 * them, odd positions take the odd items, even ones the even: 1 gets 3, 5,
 * 7 from 3 (2 hops back) while 2 gets 0, 4, 6, 8 from 0 (2 hops on), 4
 * gets 1, 7 from 6 and 5 gets 0, 2, 8 from 3; last, every node takes the
 * other half from its neighbours, the lower part of it from the left: 1
 * needs 4, 6, 8 (4, 6 from 0, 8 from 2), 4 needs 0, 2, 6, 8 (two from
 * each): 4 rounds, 10 x 4 + 1 + 3 + 4 + 2 = 50. */
static void ring9_halves_by_hand(void **state) {
  (void)state;
  const double units[4] = {1, 3, 4, 2};
  by_hand("weave:h=2,spread=halves", 9, units, 4, 50);
}

/* Rounds: h gather + ceil((n - 3^h) / (2 3^(h-1))) circulation + h - 1
 * thirding spreads, or h halving ones (h >= 2); and every node receives
 * each item once (bytes moved = n (n - 1) at one byte a node), for every h
 * and plan tried. */
static void rounds_and_items(void **state) {
  (void)state;
  const uint32_t ns[5] = {3, 9, 27, 81, 243};
  const char *plans[6] = {"", "0", "3", "12", "2311", "halves"};
  for (int i = 0; i < 5; i++) {
    int k = 0;
    for (uint32_t p = 1; p < ns[i]; p *= 3)
      k++;
    for (int h = 1; h <= k; h++)
      for (int j = 0; j < 6; j++) {
        int halves = j == 5;
        if (halves ? h < 2 : (int)strlen(plans[j]) > h - 1) continue;
        char spec[64];
        if (halves)
          snprintf(spec, sizeof spec, "weave:h=%d,spread=halves", h);
        else
          snprintf(spec, sizeof spec, plans[j][0] ? "weave:h=%d,spread=thirds,plan=%s" : "weave:h=%d,spread=thirds%s",
                   h, plans[j]);
        mg_report rep = run_weave(spec, ns[i], 10);
        assert_true(rep.verified);
        uint64_t s = 1;
        for (int t = 1; t < h; t++)
          s *= 3;
        int64_t circ = (int64_t)((ns[i] - 3 * s + 2 * s - 1) / (2 * s));
        int64_t spread = h - 1 + halves;
        if (rep.rounds != h + circ + spread)
          fail_msg("%s on ring:%u: %lld rounds, recount %lld", spec, ns[i], (long long)rep.rounds,
                   (long long)(h + circ + spread));
        assert_float_equal(rep.bytes_moved, (double)ns[i] * (ns[i] - 1), 1e-9);
        mg_report_free(&rep);
      }
  }
}

/* Juurlink, Rao, Sibeyn 1996 Table 1: the cells weave holds against the
 * least value printed in the column (Approach 2's row omits the
 * concentration's units; docs/paper-notes.md), pinned, and the rounds. */
static void table1_cells(void **state) {
  (void)state;
  const struct {
    uint32_t n;
    double r, printed, ours;
    int64_t rounds;
  } cell[] = {
      {27, 10, 100, 96, 6},      {27, 50, 304, 299, 5},      {27, 250, 1304, 1299, 5},  {81, 10, 239, 227, 9},
      {81, 50, 593, 565, 8},     {81, 250, 1993, 1970, 7},   {243, 50, 1251, 1080, 11}, {243, 250, 3222, 3112, 10},
      {729, 50, 2707, 2598, 13}, {729, 250, 6264, 5192, 12},
  };
  const mg_algo *a = mg_algo_find("weave");
  assert_non_null(a);
  for (size_t i = 0; i < sizeof cell / sizeof cell[0]; i++) {
    char topo[32];
    snprintf(topo, sizeof topo, "ring:%u", cell[i].n);
    mg_problem_spec pb = th_paper(MG_GOSSIP, topo, cell[i].r);
    mg_params best, second;
    mg_report br, sr;
    size_t ev;
    assert_int_equal(mg_tune(a, &pb, NULL, &best, &br, &second, &sr, &ev, NULL), MG_OK);
    assert_true(br.verified);
    if (fabs(br.cost - cell[i].ours) > 1e-9 || br.rounds != cell[i].rounds)
      fail_msg("ring:%u r=%g: %g in %lld rounds, pinned %g in %lld", cell[i].n, cell[i].r, br.cost,
               (long long)br.rounds, cell[i].ours, (long long)cell[i].rounds);
    assert_true(br.cost <= cell[i].printed);
    /* the default (auto) schedule is the tuned one */
    mg_report rep;
    assert_int_equal(mg_run(a, &pb, NULL, NULL, &rep, NULL), MG_OK);
    assert_float_equal(rep.cost, br.cost, 1e-9);
    mg_report_free(&rep);
    mg_report_free(&br);
    mg_report_free(&sr);
  }
}

static void refusals(void **state) {
  (void)state;
  assert_true(th_refuses("weave", "ring:28"));
  assert_true(th_refuses("weave", "ring:2"));
  assert_true(th_refuses("weave", "line:27"));
  assert_true(th_refuses("weave", "torus:9x9"));
  assert_true(th_refuses("weave", "ring:19683"));
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:27", "port=one", 1);
  const mg_algo *a = mg_algo_find("weave");
  mg_err err = {{0}};
  assert_int_equal(mg_algo_check(a, &pb, NULL, &err), MG_ERR_UNSUPPORTED);
  pb = th_paper(MG_GOSSIP, "ring:27", 10);
  const char *bad[7] = {"weave:h=4",
                        "weave:h=0",
                        "weave:h=3,plan=012",
                        "weave:h=3,plan=4",
                        "weave:spread=fifths",
                        "weave:h=3,spread=halves,plan=1",
                        "weave:h=1,spread=halves"};
  for (int i = 0; i < 7; i++) {
    mg_params ps;
    const mg_algo *w;
    assert_int_equal(mg_algo_lookup(bad[i], &w, &ps, &err), MG_OK);
    mg_status st = mg_algo_check(w, &pb, &ps, &err);
    if (st != MG_ERR_INVALID) fail_msg("%s: status %d", bad[i], st);
    assert_null(strchr(err.msg, '\n'));
  }
  /* ring:3 has no gaps to halve */
  pb = th_paper(MG_GOSSIP, "ring:3", 10);
  mg_params ps;
  const mg_algo *w;
  assert_int_equal(mg_algo_lookup("weave:spread=halves", &w, &ps, &err), MG_OK);
  assert_int_equal(mg_algo_check(w, &pb, &ps, &err), MG_ERR_UNSUPPORTED);
  assert_int_equal(mg_algo_lookup("weave", &w, &ps, &err), MG_OK);
  assert_int_equal(mg_algo_check(w, &pb, &ps, &err), MG_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ring27_by_hand),   cmocka_unit_test(ring9_halves_by_hand),
      cmocka_unit_test(rounds_and_items), cmocka_unit_test(table1_cells),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

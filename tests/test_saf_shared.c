/* Store-and-forward switching under shared contention (src/model/price.c):
 * a message is stored and started again at every hop, so it pays a
 * start-up and its bytes once per hop, each hop waiting for the bytes its
 * arc carries in the round. On a round without a shared arc that is the
 * strict price hops*(ts + bytes*tl); shared contention may only add to it.
 * ts = 10, tl = 1, 100-byte items: a hop costs 110. */
#include "helpers.h"

#include <string.h>

#define SAF "switching=saf,ts=10,td=0,tl=1"

/* line:3, P = 1: round 0 one hop each way on every arc (0->1, 1->2, 2->1,
 * 1->0: node 1 then holds everything), round 1 the two 2-hop messages
 * 0->2 (item 0) and 2->0 (item 2) on disjoint arcs. A complete gossip. */
static double line3(const char *model, int *verified) {
  th_sched s;
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 0, mg_xfer(1, 2));
  th_add(&s, 0, mg_xfer(2, 1));
  th_add(&s, 0, mg_xfer(1, 0));
  th_add(&s, 1, th_one_item(0, 2, 0));
  th_add(&s, 1, th_one_item(2, 0, 2));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  *verified = rep.verified;
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static void no_shared_arc_same_cost(void **state) {
  (void)state;
  int v1 = 0, v2 = 0;
  double strict = line3(SAF ",contention=strict", &v1);
  double shared = line3(SAF ",contention=shared", &v2);
  assert_true(v1);
  assert_true(v2);
  /* closed form: (1 + 2) hops * (ts + 100 * tl) = 3 * 110 */
  assert_float_equal(strict, 3 * (10 + 100 * 1.0), 1e-9);
  assert_float_equal(shared, strict, 1e-9);
  /* the same with sender overheads (timeline path): round 0 node 1 sends
   * two (leaves at 5, 10, arrives 115, 120), round 1 one each: 5 + 220 */
  double so = line3(SAF ",contention=shared,o=5", &v2);
  assert_true(v2);
  assert_float_equal(so, 120 + 225, 1e-9);
}

/* Two rounds, each with a shared arc (line:3, a complete gossip):
 * round 0: 0->2 (item 0, arcs 0->1, 1->2), 1->2 (item 1, arc 1->2), 2->1
 * (item 2), 1->0 (item 1): arc 1->2 carries 200 bytes, so the 2-hop
 * message pays ts + 100 on its first hop and ts + 200 on its second: 320
 * (the 1-hop one on 1->2: 210). Round 1: 2->0 (item 2, arcs 2->1, 1->0),
 * 2->1 (item 0): arc 2->1 carries 200: again 320. Strict contention
 * rejects both rounds. */
static void shared_arc_per_hop(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  th_sched_init(&s, MG_GOSSIP, "line:3", SAF ",contention=shared", 1);
  s.info.bytes = 100;
  th_add(&s, 0, th_one_item(0, 2, 0));
  th_add(&s, 0, th_one_item(1, 2, 1));
  th_add(&s, 0, th_one_item(2, 1, 2));
  th_add(&s, 0, th_one_item(1, 0, 1));
  th_add(&s, 1, th_one_item(2, 0, 2));
  th_add(&s, 1, th_one_item(2, 1, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  assert_float_equal(rep.cost, 2 * (2 * 10 + (100 + 200) * 1.0), 1e-9);
  mg_report_free(&rep);
  th_sched_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_shared_arc_same_cost),
      cmocka_unit_test(shared_arc_per_hop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

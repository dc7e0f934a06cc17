/* How contention=fair shares an arc on a machine like SimGrid's SMPI
 * (src/model/fair.c, docs/models.md): a message with bandwidth factor F
 * (bwf) takes 1/F of an arc per byte it moves (as SimGrid's own run of the
 * same schedules does: tests/simgrid), and share=hops gives a flow a share
 * in inverse proportion to its route's length.
 *
 * A complete gossip on line:3, P = 1, 100-byte items, ts = 0, tl = 1:
 * round 0: A = 0->2 (item 0, arcs 0->1, 1->2), B = 1->2 (item 1, arc
 * 1->2), C = 2->1 (item 2), D = 1->0 (item 1); A and B share arc 1->2.
 * Round 1: 1->0 (item 2), 2->1 (item 0), one hop each, alone. */
#include "helpers.h"

#include <string.h>

static double line3(const char *model) {
  th_sched s;
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  th_add(&s, 0, th_one_item(0, 2, 0));
  th_add(&s, 0, th_one_item(1, 2, 1));
  th_add(&s, 0, th_one_item(2, 1, 2));
  th_add(&s, 0, th_one_item(1, 0, 1));
  th_add(&s, 1, th_one_item(1, 0, 2));
  th_add(&s, 1, th_one_item(2, 1, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

#define BASE "contention=fair,ts=0,td=0,tl=1"

/* Every message at half speed (bwf=0:0.5): alone a message takes 200. A
 * and B on arc 1->2 each weigh 200 there: round 0 takes 400 under fair
 * (a bound alone would let both through at once in 200). */
static void bwf_weighs_bytes(void **state) {
  (void)state;
  assert_float_equal(line3(BASE), 200 + 100, 1e-9);
  assert_float_equal(line3(BASE ",bwf=0:0.5"), 400 + 200, 1e-9);
  /* shared, the coarser rule, keeps the busiest arc's real bytes (200) or
   * the slowest message alone (200), whichever is more */
  assert_float_equal(line3("contention=shared,ts=0,td=0,tl=1,bwf=0:0.5"), 200 + 200, 1e-9);
}

/* or = 100 makes the arrival order visible. Evenly, A and B share arc
 * 1->2 half and half and both arrive at 200: node 2 reads them by 300 and
 * 400. With share=hops, B (1 hop) gets 2/3, A (2 hops) 1/3: B arrives at
 * 150, A then has 50 bytes left at full rate and arrives at 200; node 2
 * reads B by 250 and A by 350. C and D are read by 200. Round 1: 100 + 100. */
static void share_by_route_length(void **state) {
  (void)state;
  assert_float_equal(line3(BASE ",or=100"), 400 + 200, 1e-9);
  assert_float_equal(line3(BASE ",or=100,share=hops"), 350 + 200, 1e-9);
  /* without the receiver's overhead the round ends when the arc has
   * carried its 200 bytes, whatever the shares */
  assert_float_equal(line3(BASE ",share=hops"), 200 + 100, 1e-9);
  mg_model m;
  char buf[256];
  mg_model_default(&m);
  assert_int_equal(mg_model_parse("share=hops", &m, NULL), MG_OK);
  assert_non_null(strstr(mg_model_format(&m, buf, sizeof buf), ",share=hops"));
  assert_int_equal(mg_model_parse("share=tcp", &m, NULL), MG_ERR_INVALID);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bwf_weighs_bytes),
      cmocka_unit_test(share_by_route_length),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

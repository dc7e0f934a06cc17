/* How contention=fair shares an arc on a machine like SimGrid's SMPI
 * (src/model/fair.c, docs/models.md): a message with bandwidth factor F
 * (bwf) takes 1/F of an arc per byte it moves (as SimGrid's own run of the
 * same schedules does: tests/simgrid), share=hops gives a flow a share
 * in inverse proportion to its route's length, and ack=c loads its return
 * route with c of its share.
 *
 * A complete gossip on line:3, P = 1, 100-byte items, ts = 0, tl = 1:
 * round 0: A = 0->2 (item 0, arcs 0->1, 1->2), B = 1->2 (item 1, arc
 * 1->2), C = 2->1 (item 2), D = 1->0 (item 1); A and B share arc 1->2.
 * Round 1: 1->0 (item 2), 2->1 (item 0), one hop each, alone. */
#include "helpers.h"

#include "../src/model/model.h"

#include <string.h>

/* A gossip schedule on line:3, 100-byte items: (round, src, dst, item). */
typedef struct step {
  int round;
  uint32_t src, dst, item;
} step;

static double on_line3(const char *model, const step *st, size_t n) {
  th_sched s;
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  for (size_t i = 0; i < n; i++)
    th_add(&s, st[i].round, th_one_item(st[i].src, st[i].dst, st[i].item));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static double line3(const char *model) {
  static const step st[] = {{0, 0, 2, 0}, {0, 1, 2, 1}, {0, 2, 1, 2}, {0, 1, 0, 1}, {1, 1, 0, 2}, {1, 2, 1, 0}};
  return on_line3(model, st, sizeof st / sizeof st[0]);
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

/* ack=0.05 (SimGrid's network/crosstraffic): every flow also takes 5% of
 * its share on its return route. A gossip on line:3, 100-byte items,
 * share=hops, ts = 0, tl = 1. Round 0: A = 0->2 (2 hops, weight 1/2) and
 * B = 1->0 (1 hop). Without acknowledgements they share nothing: 100.
 * With them, arc 1->0 carries B (1) and A's acknowledgements (0.05 x 1/2):
 * level 1/1.025, B moves at 0.9756 and ends at 102.5; A, held on that arc
 * at half the level (0.4878), has moved 50 bytes by then and ends alone at
 * 152.5 (SimGrid's max-min: a long flow waits for a short one it meets
 * only with its acknowledgements). Rounds 1 and 2: two one-hop flows the
 * opposite ways each, 1/1.05 of the arc each: 105. */
static double acks(const char *model) {
  static const step st[] = {{0, 0, 2, 0}, {0, 1, 0, 1}, {1, 2, 1, 2}, {1, 1, 2, 1}, {2, 1, 0, 2}, {2, 0, 1, 0}};
  return on_line3(model, st, sizeof st / sizeof st[0]);
}

static void acks_load_the_return_route(void **state) {
  (void)state;
  assert_float_equal(acks(BASE ",share=hops"), 300, 1e-9);
  assert_float_equal(acks(BASE ",share=hops,ack=0.05"), 152.5 + 105 + 105, 1e-9);
  /* the network's return route is the same on a line */
  assert_float_equal(acks(BASE ",share=hops,ack=0.05,routes=dor"), 152.5 + 105 + 105, 1e-9);
  mg_model m;
  char buf[256];
  mg_model_default(&m);
  assert_int_equal(mg_model_parse("contention=fair,ack=0.05", &m, NULL), MG_OK);
  assert_non_null(strstr(mg_model_format(&m, buf, sizeof buf), ",ack=0.05"));
  assert_int_equal(mg_model_parse("ack=1.5", &m, NULL), MG_ERR_INVALID);
  assert_int_equal(mg_model_parse("ack=-0.1", &m, NULL), MG_ERR_INVALID);
  /* acknowledgements are priced by the fair sharing only */
  mg_topo t;
  assert_int_equal(mg_topo_parse("line:3", &t, NULL), MG_OK);
  assert_int_equal(mg_model_parse("contention=shared", &m, NULL), MG_OK);
  assert_int_equal(mg_model_validate(&m, &t, MG_GOSSIP, NULL), MG_ERR_INVALID);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bwf_weighs_bytes),
      cmocka_unit_test(share_by_route_length),
      cmocka_unit_test(acks_load_the_return_route),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

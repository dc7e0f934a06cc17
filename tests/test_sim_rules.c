/* The simulator rejects hand-made bad schedules with the right violation,
 * and prices good ones as the models say. */
#include "helpers.h"

#include <string.h>

static mg_transfer listed(mg_round *r, uint32_t src, uint32_t dst, const uint64_t *items, size_t n) {
  mg_transfer t = mg_xfer(src, dst);
  t.sel.flags = MG_SEL_LIST;
  t.sel.list = mg_round_add_list(r, items, n);
  t.sel.list_len = n;
  return t;
}

static void arc_twice_strict(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "line:4", NULL, 1);
  /* 0->2 and 1->3 both use arc 1+ */
  th_add(&s, 0, mg_xfer(0, 2));
  th_add(&s, 0, mg_xfer(1, 3));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_ARC_CONTENTION);
  assert_int_equal(rep.violation.round, 0);
  assert_int_equal(rep.violation.xfer[0], 0);
  assert_int_equal(rep.violation.xfer[1], 1);
  assert_int_equal(rep.violation.arc_node, 1);
  assert_int_equal(rep.violation.arc_dim, 0);
  assert_int_equal(rep.violation.arc_dir, 1);
  assert_non_null(strstr(rep.violation.msg, "arc 1+0"));
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void arc_shared_priced(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "line:4", "contention=shared,ts=5,td=0.5,tl=2", 1);
  /* round 0: 0->2 (2 hops, 1 item) and 1->3 (2 hops, 1 item) share arc 1+:
   * max(ts + hops*td) + busiest arc (2 bytes) * tl = 6 + 4 */
  th_add(&s, 0, mg_xfer(0, 2));
  th_add(&s, 0, mg_xfer(1, 3));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION); /* incomplete, but priced */
  assert_int_equal(rep.violation.rule, MG_RULE_INCOMPLETE);
  assert_float_equal(rep.cost, 10.0, 1e-12);
  assert_float_equal(rep.max_arc_load, 2.0, 1e-12);
  mg_report_free(&rep);
  th_sched_free(&s);
}

/* A route that comes back to a node it has left loops: rejected under
 * every contention rule, with the node named. */
static void route_revisits(void **state) {
  (void)state;
  const char *models[] = {"ts=1", "contention=shared,ts=1", "contention=fair,ts=1,tl=1"};
  for (size_t k = 0; k < 3; k++) {
    th_sched s;
    mg_report rep;
    th_sched_init(&s, MG_GOSSIP, "ring:5", models[k], 1);
    /* 0 -> 1 -> 2 -> 1 -> 2 ... : +2 then -1 then +1 ends at 2 via node 1 twice */
    mg_transfer t = mg_xfer(0, 2);
    t.nseg = 3;
    t.seg[0] = (mg_seg){0, 2};
    t.seg[1] = (mg_seg){0, -1};
    t.seg[2] = (mg_seg){0, 1};
    th_add(&s, 0, t);
    assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
    assert_int_equal(rep.violation.rule, MG_RULE_BAD_ROUTE);
    assert_int_equal(rep.violation.node, 1);
    assert_non_null(strstr(rep.violation.msg, "visits node 1 twice"));
    mg_report_free(&rep);
    th_sched_free(&s);
  }
}

static void one_port(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "ring:4", "port=one", 1);
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 0, mg_xfer(0, 3));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_ONE_PORT_SEND);
  assert_int_equal(rep.violation.node, 0);
  mg_report_free(&rep);
  th_sched_free(&s);
  th_sched_init(&s, MG_GOSSIP, "ring:4", "port=one", 1);
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 0, mg_xfer(2, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_ONE_PORT_RECV);
  assert_int_equal(rep.violation.node, 1);
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void off_mesh(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "mesh:3x3", NULL, 1);
  /* 0 -> 2 the "short way" through the missing wrap link */
  th_add(&s, 0, mg_xfer_line(0, 2, 0, -1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_OFF_MESH);
  assert_int_equal(rep.violation.arc_node, 0);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* a route that does not end at dst */
  th_sched_init(&s, MG_GOSSIP, "mesh:3x3", NULL, 1);
  th_add(&s, 0, mg_xfer_line(0, 2, 0, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_BAD_ROUTE);
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void not_held(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "ring:3", NULL, 1);
  uint64_t item = 2; /* node 0 holds only item 0 */
  th_add(&s, 0, listed(&s.rounds[0], 0, 1, &item, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_NOT_HELD);
  assert_int_equal(rep.violation.item, 2);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* forwarding in the same round is not allowed: 0->1 then 1->2 carrying 0 */
  th_sched_init(&s, MG_GOSSIP, "line:3", NULL, 1);
  item = 0;
  th_add(&s, 0, listed(&s.rounds[0], 0, 1, &item, 1));
  th_add(&s, 0, listed(&s.rounds[0], 1, 2, &item, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_NOT_HELD);
  assert_int_equal(rep.violation.xfer[0], 1);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* item id out of range */
  th_sched_init(&s, MG_GOSSIP, "ring:3", NULL, 1);
  item = 3;
  th_add(&s, 0, listed(&s.rounds[0], 0, 1, &item, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_BAD_ITEM);
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void incomplete(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "ring:3", NULL, 1);
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 0, mg_xfer(1, 2));
  th_add(&s, 0, mg_xfer(2, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_INCOMPLETE);
  assert_int_equal(rep.violation.node, 0);
  assert_int_equal(rep.violation.item, 1);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* and the same plus a second round completes it */
  th_sched_init(&s, MG_GOSSIP, "ring:3", NULL, 1);
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 0, mg_xfer(1, 2));
  th_add(&s, 0, mg_xfer(2, 0));
  th_add(&s, 1, mg_xfer(0, 1));
  th_add(&s, 1, mg_xfer(1, 2));
  th_add(&s, 1, mg_xfer(2, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  assert_int_equal(rep.rounds, 2);
  /* ts=1, tl=0: two start-ups */
  assert_float_equal(rep.cost, 2.0, 0);
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void exchange_rules(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  /* block (0,1) sent twice in one round */
  th_sched_init(&s, MG_EXCHANGE, "ring:4", NULL, 1);
  uint64_t b = 0 * 4 + 1;
  th_add(&s, 0, listed(&s.rounds[0], 0, 1, &b, 1));
  th_add(&s, 0, listed(&s.rounds[0], 0, 3, &b, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_SENT_TWICE);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* group selection twice: box {1} from node 0 to two neighbours */
  th_sched_init(&s, MG_EXCHANGE, "ring:4", NULL, 1);
  mg_transfer t = mg_xfer(0, 1);
  t.sel.flags = MG_SEL_BOX;
  t.sel.box.lo[0] = 1;
  t.sel.box.len[0] = 1;
  th_add(&s, 0, t);
  t.dst = 3;
  th_add(&s, 0, t);
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_SENT_TWICE);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* a block the sender lost: it moves, so a second send later fails */
  th_sched_init(&s, MG_EXCHANGE, "ring:4", NULL, 1);
  th_add(&s, 0, listed(&s.rounds[0], 0, 1, &b, 1));
  th_add(&s, 1, listed(&s.rounds[1], 0, 1, &b, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_NOT_HELD);
  assert_int_equal(rep.violation.round, 1);
  mg_report_free(&rep);
  th_sched_free(&s);
}

/* Direct exchange on a ring of 3: everyone sends each block straight. */
static void exchange_complete(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_EXCHANGE, "ring:3", "ts=1,tl=1", 1);
  for (uint32_t u = 0; u < 3; u++) {
    mg_transfer t = mg_xfer(u, (u + 1) % 3);
    t.sel.flags = MG_SEL_BOX;
    t.sel.box.lo[0] = (u + 1) % 3;
    t.sel.box.len[0] = 1;
    th_add(&s, 0, t);
    t.dst = (u + 2) % 3;
    t.sel.box.lo[0] = (u + 2) % 3;
    th_add(&s, 0, t);
  }
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  assert_float_equal(rep.cost, 2.0, 0); /* one start-up + one block */
  assert_float_equal(rep.bytes_moved, 6.0, 0);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* only half of it: incomplete, naming a stray block */
  th_sched_init(&s, MG_EXCHANGE, "ring:3", NULL, 1);
  mg_transfer t = mg_xfer(0, 1);
  th_add(&s, 0, t);
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_INCOMPLETE);
  mg_report_free(&rep);
  th_sched_free(&s);
}

/* ring:2 with P = 4: node 0 sends its pieces a0 .. a0 + an - 1, node 1
 * b0 .. b0 + bn - 1 (MG_SEL_PIECE with piece_count). */
static mg_status piece_runs(uint32_t a0, uint32_t an, uint32_t b0, uint32_t bn, mg_report *rep) {
  th_sched s;
  th_sched_init(&s, MG_GOSSIP, "ring:2", "ts=0,tl=1", 4);
  for (int v = 0; v < 2; v++) {
    mg_transfer t = mg_xfer((uint32_t)v, (uint32_t)(1 - v));
    t.sel.flags = MG_SEL_PIECE;
    t.sel.piece = v ? b0 : a0;
    t.sel.piece_count = v ? bn : an;
    th_add(&s, 0, t);
  }
  mg_status st = th_simulate(&s, rep);
  th_sched_free(&s);
  return st;
}

static void selectors(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  /* P = 2 pieces on ring:2; node 0 sends only piece 1, node 1 sends all */
  th_sched_init(&s, MG_GOSSIP, "ring:2", "ts=0,tl=1", 2);
  mg_transfer t = mg_xfer(0, 1);
  t.sel.flags = MG_SEL_PIECE;
  t.sel.piece = 1;
  th_add(&s, 0, t);
  th_add(&s, 0, mg_xfer(1, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_INCOMPLETE);
  assert_int_equal(rep.violation.node, 1);
  assert_int_equal(rep.violation.item, 0); /* origin 0, piece 0 missing */
  mg_report_free(&rep);
  th_sched_free(&s);
  /* a run of pieces: P = 4 on ring:2, node 0 sends pieces 1 .. 2, node 1
   * pieces 0 .. 3; node 1 lacks origin 0's pieces 0 and 3 (item 0 first);
   * a run past P is refused */
  assert_int_equal(piece_runs(1, 2, 0, 4, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_INCOMPLETE);
  assert_int_equal(rep.violation.node, 1);
  assert_int_equal(rep.violation.item, 0);
  mg_report_free(&rep);
  assert_int_equal(piece_runs(0, 4, 2, 3, &rep), MG_ERR_VIOLATION);
  assert_int_equal(rep.violation.rule, MG_RULE_SELECTOR);
  assert_non_null(strstr(rep.violation.msg, "pieces from 2 out of range (P = 4)"));
  mg_report_free(&rep);
  /* colour: on a 3x3 torus node 4 = (1,1) sends to 5 only origins with
   * x0 + x1 = 2 mod 3 that it holds: itself only -> 1 item of 1/1 bytes */
  th_sched_init(&s, MG_GOSSIP, "torus:3x3", "ts=0,tl=1", 1);
  t = mg_xfer(4, 5);
  t.sel.flags = MG_SEL_COLOR;
  t.sel.color_w[0] = 1;
  t.sel.color_w[1] = 1;
  t.sel.color_m = 3;
  t.sel.color_c = 2;
  th_add(&s, 0, t);
  t.sel.color_c = 0;
  t.src = 3;
  t.dst = 4; /* node 3 = (0,1) has colour 1: sends nothing */
  th_add(&s, 0, t);
  th_simulate(&s, &rep);
  assert_float_equal(rep.bytes_moved, 1.0, 0);
  mg_report_free(&rep);
  th_sched_free(&s);
  /* minus receiver + arrival window: ring:3, round 0 0->1 all; round 1
   * 1->2 only what 1 received in round 0 (origin 0) */
  th_sched_init(&s, MG_GOSSIP, "line:3", "ts=0,tl=1", 1);
  s.info.flags = MG_SCHED_TRACK_ARRIVAL;
  th_add(&s, 0, mg_xfer(0, 1));
  t = mg_xfer(1, 2);
  t.sel.flags = MG_SEL_ARRIVAL;
  t.sel.r0 = 0;
  t.sel.r1 = 0;
  t.sel.arr_dim = 0;
  th_add(&s, 1, t);
  t = mg_xfer(1, 0);
  t.sel.flags = MG_SEL_MINUS_DST; /* 0 already has 0: sends {1} only */
  th_add(&s, 1, t);
  th_simulate(&s, &rep);
  assert_float_equal(rep.bytes_moved, 3.0, 0);
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void cost_models(void **state) {
  (void)state;
  th_sched s;
  mg_report rep;
  /* line:4, one transfer 0->3 of 1 item: wormhole ts + 3 td + tl */
  const char *models[] = {"ts=2,td=0.5,tl=3", "switching=saf,ts=2,td=0.5,tl=3", "switching=circuit,ts=2,td=0.5,tl=3"};
  double want[] = {2 + 1.5 + 3, 3 * (2 + 3), 2 + 1.5 + 3};
  for (int m = 0; m < 3; m++) {
    th_sched_init(&s, MG_GOSSIP, "line:4", models[m], 1);
    th_add(&s, 0, mg_xfer(0, 3));
    th_simulate(&s, &rep);
    assert_float_equal(rep.cost, want[m], 1e-12);
    mg_report_free(&rep);
    th_sched_free(&s);
  }
  /* circuit: a round costs ts + max hops*td + max bytes*tl even when the
   * longest path and the largest message are different transfers */
  th_sched_init(&s, MG_GOSSIP, "line:6", "switching=circuit,ts=1,td=1,tl=10", 1);
  s.info.bytes = 1;
  th_add(&s, 0, mg_xfer(0, 3)); /* 3 hops, 1 item */
  th_add(&s, 1, mg_xfer(5, 4)); /* 1 hop, 1 item */
  th_add(&s, 2, mg_xfer(1, 0)); /* 1 hop, 1 item */
  th_simulate(&s, &rep);
  assert_float_equal(rep.cost, (1 + 3 + 10) + (1 + 1 + 10) + (1 + 1 + 10), 1e-12);
  assert_int_equal(rep.sum_max_hops, 5);
  mg_report_free(&rep);
  th_sched_free(&s);
}

static void too_large(void **state) {
  (void)state;
  mg_problem_spec pb = th_paper(MG_GOSSIP, "ring:60000000", 1);
  mg_report rep;
  mg_err e = {{0}};
  const mg_algo *a = mg_algo_find("ring");
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  assert_int_equal(mg_run(a, &pb, NULL, &o, &rep, &e), MG_ERR_TOO_LARGE);
  assert_non_null(strstr(e.msg, "TiB of simulator state, over the limit of")); /* about 400 TiB */
  mg_report_free(&rep);
  /* a limit set by the caller */
  pb = th_paper(MG_GOSSIP, "ring:4096", 1);
  o.mem_limit = 1 << 20;
  assert_int_equal(mg_run(a, &pb, NULL, &o, &rep, &e), MG_ERR_TOO_LARGE);
  mg_report_free(&rep);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(arc_twice_strict), cmocka_unit_test(route_revisits), cmocka_unit_test(arc_shared_priced),
      cmocka_unit_test(one_port),         cmocka_unit_test(off_mesh),       cmocka_unit_test(not_held),
      cmocka_unit_test(incomplete),       cmocka_unit_test(exchange_rules), cmocka_unit_test(exchange_complete),
      cmocka_unit_test(selectors),        cmocka_unit_test(cost_models),    cmocka_unit_test(too_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

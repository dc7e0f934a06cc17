/* Per-message CPU overheads (model keys o, or) and the asynchronous clock
 * (timing=async), against figures computed by hand in the comments
 * (docs/models.md writes the rules out). Every case uses ts = 1 and
 * tl = 0.01 s/B with 100-byte items, so a one-hop message alone takes
 * 1 + 100 * 0.01 = 2. */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MODEL "ts=1,tl=0.01"

static void parse_and_format(void **state) {
  (void)state;
  mg_model m;
  mg_err e;
  char buf[256];
  mg_model_default(&m);
  assert_string_equal(mg_model_format(&m, buf, sizeof buf),
                      "switching=wormhole,port=all,contention=strict,ts=1,td=0,tl=0,ell=0");
  assert_int_equal(mg_model_parse("o=0.5,or=0.25,timing=async", &m, &e), MG_OK);
  assert_float_equal(m.o, 0.5, 0);
  assert_float_equal(m.orecv, 0.25, 0);
  assert_int_equal(m.timing, MG_TIMING_ASYNC);
  assert_string_equal(mg_model_format(&m, buf, sizeof buf),
                      "switching=wormhole,port=all,contention=strict,ts=1,td=0,tl=0,ell=0,o=0.5,or=0.25,timing=async");
  mg_model before = m;
  assert_int_equal(mg_model_parse("o=-1", &m, &e), MG_ERR_INVALID);
  assert_int_equal(mg_model_parse("timing=later", &m, &e), MG_ERR_INVALID);
  assert_memory_equal(&m, &before, sizeof m);
  /* the bus step of Fujita has no per-message overheads */
  mg_problem_spec pb = th_problem(MG_GOSSIP, "meshbus:4", "switching=bus,o=1", 1);
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  assert_int_equal(th_run("bus-simple", &pb, &rep), MG_ERR_INVALID);
  mg_report_free(&rep);
}

/* line:3, P = 1. Round 0: 0->1, 2->1, 1->0, 1->2 (each its own item);
 * round 1: 1->0 carries item 2, 1->2 carries item 0. */
static double line3(const char *model, double *sync) {
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 0, mg_xfer(2, 1));
  th_add(&s, 0, mg_xfer(1, 0));
  th_add(&s, 0, mg_xfer(1, 2));
  th_add(&s, 1, th_one_item(1, 0, 2));
  th_add(&s, 1, th_one_item(1, 2, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  *sync = rep.cost_sync;
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static void line3_by_hand(void **state) {
  (void)state;
  double sync;
  /* no overheads: two rounds of one message each, 2 + 2, both clocks */
  assert_float_equal(line3(MODEL, &sync), 4, 1e-12);
  assert_float_equal(sync, 4, 1e-12);
  assert_float_equal(line3(MODEL ",timing=async", &sync), 4, 1e-12);
  /* o = 0.5, or = 0.25, sync. Round 0: node 1's two messages leave at 0.5
   * and 1.0 and reach 0 and 2 at 2.5 and 3.0; node 1 receives two at 2.5
   * and reads them by 2.75 and 3.0; node 2 has read its at 3.25: the
   * round takes 3.25. Round 1 is node 1's two sends again: 3.25. */
  assert_float_equal(line3(MODEL ",o=0.5,or=0.25", &sync), 6.5, 1e-12);
  assert_float_equal(sync, 6.5, 1e-12);
  /* async: node 1 has item 0 at 2.75 and item 2 at 3.0, its CPU is free
   * at 1.0. 1->0 (item 2) starts at 3.0, leaves 3.5, arrives 5.5, read at
   * 5.75; 1->2 (item 0) waits for the CPU until 3.5, leaves 4.0, arrives
   * 6.0, read at 6.25: the schedule takes 6.25 < 6.5 */
  assert_float_equal(line3(MODEL ",o=0.5,or=0.25,timing=async", &sync), 6.25, 1e-12);
  assert_float_equal(sync, 6.5, 1e-12);
  /* ranks: node 1 enters round 1 when its round-0 messages are done, at
   * 3.0 (its sends left by 1.0, its reads end at 2.75 and 3.0); node 0 at
   * 2.75, node 2 at 3.25. 1->0 leaves 3.5 (node 0 is in), arrives 5.5,
   * read at 5.75; 1->2 leaves 4.0 (node 2 is in since 3.25), read at 6.25 */
  assert_float_equal(line3(MODEL ",o=0.5,or=0.25,timing=ranks", &sync), 6.25, 1e-12);
}

static double run_cost(const char *algo, mg_problem problem, const char *topo, const char *model, double *sync) {
  mg_problem_spec pb = th_problem(problem, topo, model, 100);
  mg_report rep;
  assert_int_equal(th_run(algo, &pb, &rep), MG_OK);
  assert_true(rep.verified);
  double c = rep.cost;
  if (sync) *sync = rep.cost_sync;
  mg_report_free(&rep);
  return c;
}

/* ring:4 with the bidirectional ring (Juurlink, Rao, Sibeyn, Approach 1):
 * round 0 every node sends its item both ways (+1 first), round 1 passes
 * on what came from the left. */
static void ring4_pass_around(void **state) {
  (void)state;
  double sync;
  /* o = 0.5, or = 0.25. Round 0: slots leave at 0.5 and 1.0, arrive 2.5
   * and 3.0; a node reads them by 2.75 and 3.25. Round 1: one message,
   * 0.5 + 2 + 0.25 = 2.75. Sync: 6.0. */
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",o=0.5,or=0.25", &sync), 6.0, 1e-12);
  /* async: node v passes item v-1, read at 2.75; its CPU is free at 1.0:
   * leaves 3.25, arrives 5.25, read (receiver idle since 3.25) at 5.5 */
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",o=0.5,or=0.25,timing=async", &sync), 5.5, 1e-12);
  assert_float_equal(sync, 6.0, 1e-12);
  /* or = 0: sync 3.0 + 2.5 = 5.5; async: item v-1 arrives at 2.5, leaves
   * at 3.0, arrives at 5.0 */
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",o=0.5", NULL), 5.5, 1e-12);
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",o=0.5,timing=async", NULL), 5.0, 1e-12);
  /* ranks: a node enters round 1 when both its round-0 reads are done
   * (3.25 with or, 3.0 without) and sends from there: 3.25 + 0.5 + 2 +
   * 0.25 = 6.0, and 3.0 + 0.5 + 2 = 5.5: the barrier costs nothing more
   * on this symmetric schedule */
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",o=0.5,or=0.25,timing=ranks", NULL), 6.0, 1e-12);
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",o=0.5,timing=ranks", NULL), 5.5, 1e-12);
  /* without overheads the clocks agree on this schedule: 2 + 2 */
  assert_float_equal(run_cost("ring", MG_GOSSIP, "ring:4", MODEL ",timing=async", &sync), 4.0, 1e-12);
  assert_float_equal(sync, 4.0, 1e-12);
}

/* line:3, one round: 0->2 (two hops) and 1->2 share the arc 1->2, 200
 * bytes on it. Without overheads: shared 1 + 200*0.01 = 3; fair: both
 * flows at half rate finish at 200 bytes, 3 as well. With o = 0.5 each
 * message leaves at 0.5 and takes 3: 3.5; with or = 0.25 node 2 reads the
 * two by 3.75 and 4.0. */
static double shared_round(const char *model) {
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  th_add(&s, 0, mg_xfer(0, 2));
  th_add(&s, 0, mg_xfer(1, 2));
  th_add(&s, 1, mg_xfer(2, 1));
  th_add(&s, 2, mg_xfer(1, 0));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  double c = rep.cost_sync;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static void shared_and_fair(void **state) {
  (void)state;
  /* rounds 1 and 2: 2->1 carries 3 items (300 B): 1 + 3 = 4 (+o, +or);
   * 1->0 carries 3 items: 4 (+o, +or) */
  assert_float_equal(shared_round("contention=shared," MODEL), 3 + 4 + 4, 1e-12);
  assert_float_equal(shared_round("contention=fair," MODEL), 3 + 4 + 4, 1e-12);
  assert_float_equal(shared_round("contention=shared," MODEL ",o=0.5"), 3.5 + 4.5 + 4.5, 1e-12);
  assert_float_equal(shared_round("contention=fair," MODEL ",o=0.5"), 3.5 + 4.5 + 4.5, 1e-12);
  assert_float_equal(shared_round("contention=shared," MODEL ",o=0.5,or=0.25"), 4.0 + 4.75 + 4.75, 1e-12);
  assert_float_equal(shared_round("contention=fair," MODEL ",o=0.5,or=0.25"), 4.0 + 4.75 + 4.75, 1e-12);
}

/* timing=ranks under contention=fair: the links are shared across rounds
 * (src/model/fluid.c). line:3, 100-byte items, ts = 0, tl = 0.01 (an arc
 * carries 100 B/s), o = or = 0:
 *   R0: 0->2 (item 0)   R1: 0->1 (item 0)
 *   R2: 2->0 (item 2), 1->0 (item 1)   R3: 1->2 (item 1), 2->1 (item 2).
 * sync: 1 + 1 + 2 (R2 shares arc 1->0) + 1 = 5. */
static double overlap(const char *model) {
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  th_add(&s, 0, th_one_item(0, 2, 0));
  th_add(&s, 1, th_one_item(0, 1, 0));
  th_add(&s, 2, th_one_item(2, 0, 2));
  th_add(&s, 2, th_one_item(1, 0, 1));
  th_add(&s, 3, th_one_item(1, 2, 1));
  th_add(&s, 3, th_one_item(2, 1, 2));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  assert_float_equal(rep.cost_sync, 5, 1e-12);
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static void ranks_across_rounds(void **state) {
  (void)state;
  /* node 0's sends are detached: it is in R1 at 0 and 0->1 (R1) shares arc
   * 0->1 with 0->2 (R0): 50 B/s each, both done at 2. Nodes 1 and 2 enter
   * R2 at 2; 2->0 and 1->0 share arc 1->0, and 2->0 shares arc 2->1 with
   * 2->1 (R3: node 2's R2 has only a send, node 1's too): 1->2 alone is
   * done at 3, the others at 50 B/s at 4. (Shared only within a round,
   * rounds 0 and 1 would end at 1 and the schedule at 3.) */
  assert_float_equal(overlap("contention=fair,ts=0,tl=0.01,timing=ranks"), 4, 1e-9);
  /* detach=100: a 100-B send holds its sender until it arrives. 0->2
   * alone until 1; node 0 enters R1 at 1, 0->1 alone until 2; node 0 is in
   * R2 at 2, where 2->0 (sent by node 2 since 1) and 1->0 move, sharing
   * arc 1->0 until 4; nodes 1 and 2 wait for them, then R3 alone: 5 */
  assert_float_equal(overlap("contention=fair,ts=0,tl=0.01,timing=ranks,detach=100"), 5, 1e-9);
  assert_float_equal(overlap("contention=fair,ts=0,tl=0.01,timing=ranks,detach=101"), 4, 1e-9);
}

/* timing=async under contention=fair: the executor's sync=data with the
 * links shared across rounds (src/model/fluid.c). line:3, 100-byte items,
 * ts = 0, tl = 0.01 (an arc carries 100 B/s), o = or = 0, even sharing:
 *   R0: a 0->1 {0}, b 2->1 {2}, c 2->0 {2} (arcs 2->1, 1->0), h 1->2 {1}
 *   R1: d 1->2 {0} (waits for a, which brought item 0 to node 1),
 *       f 1->0 {1} (node 1's own item: waits for nothing but its CPU).
 * b and c share arc 2->1 at 50 B/s: R0 ends at 2, and sync costs 2 + 1. */
static double data_clock(const char *model, int f_first) {
  th_sched s;
  mg_report rep;
  th_sched_init(&s, MG_GOSSIP, "line:3", model, 1);
  s.info.bytes = 100;
  th_add(&s, 0, th_one_item(0, 1, 0));
  th_add(&s, 0, th_one_item(2, 1, 2));
  th_add(&s, 0, th_one_item(2, 0, 2));
  th_add(&s, 0, th_one_item(1, 2, 1));
  if (f_first) th_add(&s, 1, th_one_item(1, 0, 1));
  th_add(&s, 1, th_one_item(1, 2, 0));
  if (!f_first) th_add(&s, 1, th_one_item(1, 0, 1));
  assert_int_equal(th_simulate(&s, &rep), MG_OK);
  assert_true(rep.verified);
  if (!strstr(model, "o=")) assert_float_equal(rep.cost_sync, 3, 1e-12);
  double c = rep.cost;
  mg_report_free(&rep);
  th_sched_free(&s);
  return c;
}

static void data_across_rounds(void **state) {
  (void)state;
  /* d before f in node 1's plan: a is read at 1, so d and f leave at 1
   * (the CPU takes them in order). d alone on 1->2 until 2; f shares arc
   * 1->0 with c at 50 B/s until 2, then alone: 2.5 */
  assert_float_equal(data_clock("contention=fair,ts=0,tl=0.01,timing=async", 0), 2.5, 1e-9);
  /* f first: it leaves at 0 with R0 and moves at 50 B/s beside b and c
   * until 2; d goes at 1 and is done at 2: 2 */
  assert_float_equal(data_clock("contention=fair,ts=0,tl=0.01,timing=async", 1), 2, 1e-9);
  /* the executor's rounds: node 1 enters R1 when b has come, at 2; d and
   * f move alone until 3, in either order */
  assert_float_equal(data_clock("contention=fair,ts=0,tl=0.01,timing=ranks", 0), 3, 1e-9);
  assert_float_equal(data_clock("contention=fair,ts=0,tl=0.01,timing=ranks", 1), 3, 1e-9);
  /* o = 0.25: a, b, h leave at 0.25, c at 0.5 (node 2's second send), and
   * b and c share arc 2->1 from there. a is read at 1.25: d leaves at 1.5
   * (alone until 2.5), f at 1.75. With f beside c on arc 1->0 all three of
   * b, c, f move at 50 B/s: b (12.5 B left) is done at 2, c (37.5 left,
   * then still 50 B/s for sharing 1->0 with f) at 2.5, f has 62.5 B left
   * at 2.5 and moves alone: 3.125 */
  assert_float_equal(data_clock("contention=fair,ts=0,tl=0.01,timing=async,o=0.25", 0), 3.125, 1e-9);
}

/* Under strict and shared a round prices its arcs among its own
 * transfers, so across rounds the arcs serve the rounds in order (a
 * review found timing=async pricing pairwise exchange on 9x9 at 0.046 of
 * the bisection bound: its 80 rounds crossed the same arcs at once, at
 * full speed each). */
static void arcs_across_rounds(void **state) {
  (void)state;
  /* data_clock's schedule, shared: R0 prices b and c at 200 B on arc
   * 2->1, done at 2, a and h at 1. d (1->2) waits for a and for arc 1->2
   * (h, done at 1): 1 .. 2. f (1->0, node 1's own item) waits for arc
   * 1->0, which carries c until 2: 2 .. 3. (Within rounds only f went at
   * 0 beside c, both at full speed: 2.) */
  assert_float_equal(data_clock("contention=shared,ts=0,tl=0.01,timing=async", 0), 3, 1e-9);
  /* overlap's schedule, shared, ranks clock: R1's 0->1 waits for arc 0->1
   * (R0's 0->2, done at 1): 1 .. 2; node 1 enters R2 at 2, its 1->0 shares
   * arc 1->0 with 2->0 (200 B): 2 .. 4; 2->0 left at 1 (node 2 entered R2
   * when R0's message came): 1 .. 3. R3: 1->2 at 2 .. 3; 2->1 waits for
   * node 1 (in R3 at 2) and for arc 2->1 (2->0 until 3): 3 .. 4. (Within
   * rounds only: 3.) */
  assert_float_equal(overlap("contention=shared,ts=0,tl=0.01,timing=ranks"), 4, 1e-9);
  /* pairwise exchange: 80 rounds that need nothing from each other */
  const char *clocks[] = {"timing=async", "timing=ranks"};
  for (int c = 0; c < 2; c++) {
    char spec[64];
    snprintf(spec, sizeof spec, "contention=shared,ts=1,tl=1,%s", clocks[c]);
    mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:9x9", spec, 7);
    mg_bound b;
    assert_int_equal(mg_lower_bound(&pb, &b, NULL), MG_OK);
    assert_float_equal(b.lower_bound, 630, 1e-9);
    assert_true(th_cost("mpi-alltoall-pairwise", &pb) >= 630);
  }
  /* one-port: a node's sends (and receives) of different rounds one at a
   * time too: 7 blocks out of each node at 10 s each, 70 (it was 55) */
  mg_problem_spec pb =
      th_problem(MG_EXCHANGE, "torus:2x2x2", "contention=shared,port=one,ts=1,tl=0.01,timing=async", 1000);
  mg_bound b;
  assert_int_equal(mg_lower_bound(&pb, &b, NULL), MG_OK);
  assert_float_equal(b.lower_bound, 70, 1e-9);
  assert_true(th_cost("mpi-alltoall-pairwise", &pb) >= 70);
  /* the fair fluid has no one-port rule across rounds: refused there */
  pb = th_problem(MG_EXCHANGE, "torus:2x2x2", "contention=fair,port=one,ts=1,tl=0.01,timing=async", 1000);
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  assert_int_equal(th_run("mpi-alltoall-pairwise", &pb, &rep), MG_ERR_INVALID);
  mg_report_free(&rep);
}

/* routes=dor|simgrid: the pricer takes the network's route, the verifier
 * checks the named one. ring:4, a tie (2 away) goes + under dor; SimGrid
 * sends it - from coordinate 2. */
static void network_routes(void **state) {
  (void)state;
  mg_model m;
  mg_err e;
  char buf[256];
  mg_model_default(&m);
  assert_int_equal(mg_model_parse("contention=fair,routes=simgrid,detach=1048576", &m, &e), MG_OK);
  assert_int_equal(m.routes, MG_ROUTES_SIMGRID);
  assert_string_equal(mg_model_format(&m, buf, sizeof buf), "switching=wormhole,port=all,contention=fair,ts=1,td=0,"
                                                            "tl=0,ell=0,routes=simgrid,detach=1048576");
  assert_int_equal(mg_model_parse("routes=any", &m, &e), MG_ERR_INVALID);
  assert_int_equal(mg_model_parse("detach=-1", &m, &e), MG_ERR_INVALID);
  /* strict keeps the named routes: a network route is refused there */
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:4", "routes=dor", 1);
  mg_report rep;
  memset(&rep, 0, sizeof rep);
  assert_int_equal(th_run("ring", &pb, &rep), MG_ERR_INVALID);
  mg_report_free(&rep);
  /* one round on ring:4, 100 B, ts = 0, tl = 0.01, shared: 0->2 named -
   * (0->3->2) and 2->0 named + (2->3->0) share no arc as named. Under dor
   * both go + (0->1->2, 2->3->0): no shared arc, 1 s. Under simgrid 0->2
   * goes + and 2->0 goes - (2->1->0): still none, 1 s. As named, 1 s. A
   * third transfer 1->2 (arc 1->2) shares with dor's and simgrid's 0->2:
   * 2 s there, 1 s as named. */
  const char *models[] = {"contention=shared,ts=0,tl=0.01", "contention=shared,ts=0,tl=0.01,routes=dor",
                          "contention=shared,ts=0,tl=0.01,routes=simgrid"};
  double want[] = {1, 2, 2};
  for (int k = 0; k < 3; k++) {
    th_sched s;
    th_sched_init(&s, MG_GOSSIP, "ring:4", models[k], 1);
    s.info.bytes = 100;
    mg_transfer *a = th_add(&s, 0, th_one_item(0, 2, 0));
    a->nseg = 1, a->seg[0].dim = 0, a->seg[0].hops = -2;
    th_add(&s, 0, th_one_item(2, 0, 2));
    th_add(&s, 0, th_one_item(1, 2, 1));
    /* complete the gossip on the next rounds: every node sends what it
     * lacks' owner holds, one item a transfer, no shared arc */
    th_add(&s, 1, th_one_item(0, 1, 0));
    th_add(&s, 1, th_one_item(2, 3, 2));
    th_add(&s, 1, th_one_item(3, 0, 3));
    th_add(&s, 1, th_one_item(1, 0, 1));
    th_add(&s, 2, th_one_item(3, 2, 3));
    th_add(&s, 2, th_one_item(0, 3, 0));
    th_add(&s, 2, th_one_item(1, 3, 1));
    th_add(&s, 2, th_one_item(2, 1, 2));
    th_add(&s, 3, th_one_item(0, 1, 3));
    memset(&rep, 0, sizeof rep);
    assert_int_equal(th_simulate(&s, &rep), MG_OK);
    assert_true(rep.verified);
    double first = rep.cost - 3.0 /* rounds 1..3: one message on each arc, 1 s each */;
    assert_float_equal(first, want[k], 1e-9);
    mg_report_free(&rep);
    th_sched_free(&s);
  }
}

/* The asynchronous clock never costs more than the barrier clock on
 * these schedules, and its state is refused when it would not fit. */
static void async_bounds_and_size(void **state) {
  (void)state;
  const char *algos[] = {"torgos", "dimwise", "mpi-allgather-bruck", "mpi-allgather-direct"};
  for (size_t i = 0; i < sizeof algos / sizeof *algos; i++) {
    double sync, async;
    async = run_cost(algos[i], MG_GOSSIP, "torus:9x9", "contention=shared,ts=1.7e-5,tl=5.97e-9,o=0.00025,timing=async",
                     &sync);
    assert_true(async <= sync * (1 + 1e-12));
    assert_true(async > 0);
  }
  double sync;
  double a = run_cost("exchange-partitioned", MG_EXCHANGE, "torus:4x4", "ts=1,tl=0.01,o=0.5,timing=async", &sync);
  assert_true(a <= sync * (1 + 1e-12));
  /* a memory limit between what the verifier needs and what the clock
   * adds: sync runs, async is refused with MG_ERR_TOO_LARGE */
  mg_schedule_info info;
  memset(&info, 0, sizeof info);
  info.problem = MG_GOSSIP;
  assert_int_equal(mg_topo_parse("torus:9x9", &info.topo, NULL), MG_OK);
  info.pieces = 1;
  uint64_t need;
  assert_int_equal(mg_sim_state_bytes(&info, &need, NULL), MG_OK);
  mg_sim_opts opts;
  memset(&opts, 0, sizeof opts);
  opts.mem_limit = need + 20000; /* the clock adds 81 * 81 * 8 + 81 * 24, and (324 + 162) * 8 for arcs and ports */
  mg_report rep;
  mg_err e = {{0}};
  const mg_algo *al = mg_algo_find("mpi-allgather-ring");
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "ts=1", 1);
  assert_int_equal(mg_run(al, &pb, NULL, &opts, &rep, &e), MG_OK);
  mg_report_free(&rep);
  pb = th_problem(MG_GOSSIP, "torus:9x9", "ts=1,timing=async", 1);
  assert_int_equal(mg_run(al, &pb, NULL, &opts, &rep, &e), MG_ERR_TOO_LARGE);
  assert_non_null(strstr(e.msg, "over the limit"));
  mg_report_free(&rep);
}

/* bwf: a message's bandwidth by its size, SimGrid's smpi/bw-factor */
static void bandwidth_factor(void **state) {
  (void)state;
  mg_model m;
  mg_err e;
  char buf[256];
  mg_model_default(&m);
  assert_int_equal(mg_model_parse("bwf=64:0.5;0:1", &m, &e), MG_OK);
  assert_int_equal(m.nbwf, 2);
  assert_string_equal(mg_model_format(&m, buf, sizeof buf),
                      "switching=wormhole,port=all,contention=strict,ts=1,td=0,tl=0,ell=0,bwf=0:1;64:0.5");
  const char *bad[] = {"bwf=", "bwf=64", "bwf=64:0", "bwf=64:-1", "bwf=x:1", "bwf=1:1;1:2"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_int_equal(mg_model_parse(bad[i], &m, &e), MG_ERR_INVALID);
  /* line:2, one message of 100 B at half the bandwidth: 1 + 100 * 0.01 / 0.5
   * = 3; of 50 B at full: 1.5 */
  assert_float_equal(run_cost("ring", MG_GOSSIP, "line:2", MODEL ",bwf=0:1;64:0.5", NULL), 3, 1e-12);
  mg_problem_spec pb = th_problem(MG_GOSSIP, "line:2", MODEL ",bwf=0:1;64:0.5", 50);
  assert_float_equal(th_cost("ring", &pb), 1.5, 1e-12);
}

/* the schedule file keeps o, or, the clock and bwf; verify replays them */
static void file_roundtrip(void **state) {
  (void)state;
  char path[] = "/tmp/mg_test_timing_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  const char *model =
      "contention=fair,ts=5e-6,tl=5.714e-9,o=0.00025,or=1e-6,timing=async,bwf=0:0.812084;257:0.338112;732:0.341987;"
      "1426:0.608902;3484:0.77493;5776:1.08739;9376:0.58729;15424:0.697866;65472:0.940694,"
      "share=hops,routes=simgrid,detach=1048576,ack=0.0503"; /* every key a model file may hold */
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:4x4", model, 4096);
  mg_report rep, back;
  mg_schedule_info info;
  mg_err e;
  char disagree[256] = "";
  assert_int_equal(mg_export(mg_algo_find("mpi-allgather-bruck"), &pb, NULL, path, NULL, &rep, &e), MG_OK);
  assert_int_equal(mg_verify_file(path, NULL, &back, &info, disagree, sizeof disagree, &e), MG_OK);
  assert_string_equal(disagree, "");
  assert_float_equal(back.cost, rep.cost, 0);
  assert_float_equal(back.cost_sync, rep.cost_sync, 0);
  assert_true(rep.cost <= rep.cost_sync * (1 + 1e-12)); /* Bruck: every round needs the last */
  assert_memory_equal(&info.model, &pb.model, sizeof info.model);
  mg_report_free(&rep);
  mg_report_free(&back);
  remove(path);
}

/* --model @FILE: key=value items over lines, blanks and # comments */
static void model_file(void **state) {
  (void)state;
  char path[] = "/tmp/mg_test_model_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_non_null(f);
  fputs("# the SMPI Paragon, as measured\ncontention=fair\n\nts=1.7e-5, tl=5.966e-9   # per byte\no=0.00025,\n", f);
  fclose(f);
  char spec[64];
  snprintf(spec, sizeof spec, "@%s", path);
  mg_model m;
  mg_err e;
  mg_model_default(&m);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_OK);
  assert_int_equal(m.contention, MG_CONT_FAIR);
  assert_float_equal(m.ts, 1.7e-5, 0);
  assert_float_equal(m.tl, 5.966e-9, 0);
  assert_float_equal(m.o, 2.5e-4, 0);
  f = fopen(path, "w");
  fputs("ts=1\nfoo=2\n", f);
  fclose(f);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "foo"));
  /* a key on two lines of a file: refused, where the second line won */
  f = fopen(path, "w");
  fputs("ts=1e-5   # measured\ncontention=fair\nts=2e-5\n", f);
  fclose(f);
  mg_model_default(&m);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "'ts' is given twice"));
  assert_float_equal(m.ts, 1, 0);
  /* a NUL byte, in a line or in the last one: not text (it was "a line
   * longer than 510 characters", or the rest of the line lost) */
  const char nul1[] = "ts=3,\0tl=1\n", nul2[] = "ts=3\ntl=1,\0o=1";
  const char *nuls[] = {nul1, nul2};
  const size_t lens[] = {sizeof nul1 - 1, sizeof nul2 - 1};
  for (int k = 0; k < 2; k++) {
    f = fopen(path, "w");
    fwrite(nuls[k], 1, lens[k], f);
    fclose(f);
    assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_INVALID);
    assert_non_null(strstr(e.msg, "NUL byte"));
  }
  /* a comment is the rest of its line, however long: past the reader's
   * line its tail was read as settings (contention=shared taken from a
   * comment); the line is refused as too long instead */
  f = fopen(path, "w");
  fprintf(f, "ts=1 #%0505d,contention=shared\n", 0);
  fclose(f);
  mg_model_default(&m);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "longer than 510"));
  assert_int_equal(m.contention, MG_CONT_STRICT);
  f = fopen(path, "w");
  fprintf(f, "ts=1 #%0500d\r\ncontention=shared\r\n", 0); /* a long comment that fits, CRLF */
  fclose(f);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_OK);
  assert_int_equal(m.contention, MG_CONT_SHARED);
  /* lines ended by a lone carriage return were one line cut at the first:
   * ts=3 read, contention=shared dropped unsaid */
  f = fopen(path, "w");
  fputs("ts=3\rcontention=fair\r", f);
  fclose(f);
  mg_model_default(&m);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "carriage return"));
  assert_null(strchr(e.msg, '\r'));
  /* over 1 MiB, comments or not: refused before it is read whole */
  f = fopen(path, "w");
  fputs("ts=2\n", f);
  for (int i = 0; i < (1 << 19); i++)
    fputs("#\n", f);
  fclose(f);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_INVALID);
  assert_non_null(strstr(e.msg, "is over 1048576 bytes"));
  remove(path);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_IO);
  /* a pipe or a device is no model file: a pipe cannot be read twice and
   * a stream may never end (`yes | ... --model @/dev/stdin` hung) */
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  assert_int_equal(write(fds[1], "ts=2\n", 5), 5);
  close(fds[1]);
  snprintf(spec, sizeof spec, "@/dev/fd/%d", fds[0]);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_IO);
  assert_non_null(strstr(e.msg, "not a regular file"));
  close(fds[0]);
  assert_int_equal(mg_model_parse("@/dev/null", &m, &e), MG_ERR_IO);
  /* a named pipe with no writer is refused at once (fopen blocked on it) */
  char fifo[48];
  snprintf(fifo, sizeof fifo, "/tmp/mg_model_fifo_%d", (int)getpid());
  assert_int_equal(mkfifo(fifo, 0600), 0);
  snprintf(spec, sizeof spec, "@%s", fifo);
  assert_int_equal(mg_model_parse(spec, &m, &e), MG_ERR_IO);
  assert_non_null(strstr(e.msg, "not a regular file"));
  remove(fifo);
}

/* auto with its runner-up: at 256 B on the SMPI Paragon model the pick is
 * one of the log2 p schedules (Bruck, SMPI's best built-in there,
 * docs/paragon.md, or torus-doubling, which has as few steps on 81 nodes
 * with shorter paths) and costs no more than Bruck; the runner-up is
 * another algorithm whose cost is its own run's */
static void auto_runner_up(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:9x9", "contention=fair,ts=1.7e-5,tl=5.966e-9,o=0.00025", 256);
  mg_auto_choice c;
  mg_err e;
  assert_int_equal(mg_algo_auto_choice(&pb, NULL, &c, &e), MG_OK);
  assert_true(!strcmp(c.algo->name, "mpi-allgather-bruck") || !strcmp(c.algo->name, "torus-doubling"));
  mg_report bruck;
  assert_int_equal(mg_run(mg_algo_find("mpi-allgather-bruck"), &pb, NULL, NULL, &bruck, &e), MG_OK);
  assert_true(c.cost <= bruck.cost);
  mg_report_free(&bruck);
  assert_non_null(c.runner_up);
  assert_true(c.runner_up != c.algo);
  assert_true(c.runner_up_cost >= c.cost);
  mg_report rep;
  assert_int_equal(mg_run(c.runner_up, &pb, &c.runner_up_params, NULL, &rep, &e), MG_OK);
  assert_float_equal(rep.cost, c.runner_up_cost, 0);
  mg_report_free(&rep);
  const mg_algo *a;
  mg_params ps;
  double cost;
  assert_int_equal(mg_algo_auto(&pb, NULL, &a, &ps, NULL, &cost, &e), MG_OK);
  assert_ptr_equal(a, c.algo);
  assert_float_equal(cost, c.cost, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parse_and_format),      cmocka_unit_test(line3_by_hand),
      cmocka_unit_test(ring4_pass_around),     cmocka_unit_test(shared_and_fair),
      cmocka_unit_test(async_bounds_and_size), cmocka_unit_test(model_file),
      cmocka_unit_test(bandwidth_factor),      cmocka_unit_test(file_roundtrip),
      cmocka_unit_test(auto_runner_up),        cmocka_unit_test(ranks_across_rounds),
      cmocka_unit_test(data_across_rounds),    cmocka_unit_test(network_routes),
      cmocka_unit_test(arcs_across_rounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

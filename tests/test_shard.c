/* The sharded simulator (meshgossip_shard.h) against the whole one: every
 * algorithm family run as 2, 3, 5 and 7 serial shards (one process, the
 * shards in turn, the last pass reading the summed item counts) must give
 * the report of one simulator over the whole state: verdict, rounds,
 * start-ups, transfers, cost and its terms, bytes moved, busiest arc,
 * g_delta, g_tau and the violation's rule, transfers and message. Broken
 * hand-made schedules put the fault in one shard's items and check that
 * the reason is the one the whole simulator names first. The MPI shards
 * (one per rank) are checked against the CLI in tests/mpi/dist.sh. */
#include "helpers.h"
#include "meshgossip_shard.h"

#include <string.h>

static void same_report(const mg_report *a, const mg_report *b, const char *what, unsigned k) {
  if (a->verified != b->verified || a->rounds != b->rounds || a->startups != b->startups ||
      a->transfers != b->transfers || a->cost != b->cost || a->cost_startup != b->cost_startup ||
      a->cost_hop != b->cost_hop || a->cost_transfer != b->cost_transfer || a->bytes_moved != b->bytes_moved ||
      a->max_arc_load != b->max_arc_load || a->sum_max_hops != b->sum_max_hops ||
      a->sum_max_items != b->sum_max_items || a->lower_bound != b->lower_bound ||
      a->violation.rule != b->violation.rule || a->violation.xfer[0] != b->violation.xfer[0] ||
      a->violation.xfer[1] != b->violation.xfer[1] || a->violation.item != b->violation.item ||
      strcmp(a->violation.msg, b->violation.msg))
    fail_msg("%s on %u shards: verified %d/%d rounds %lld/%lld transfers %llu/%llu cost %.17g/%.17g bytes %.17g/%.17g "
             "arc %.17g/%.17g g_tau %.17g/%.17g violation '%s' / '%s'",
             what, k, a->verified, b->verified, (long long)a->rounds, (long long)b->rounds,
             (unsigned long long)a->transfers, (unsigned long long)b->transfers, a->cost, b->cost, a->bytes_moved,
             b->bytes_moved, a->max_arc_load, b->max_arc_load, a->sum_max_items, b->sum_max_items, a->violation.msg,
             b->violation.msg);
}

/* Runs the generator once whole, then as k serial shards. */
typedef mg_status (*runner)(void *arg, const mg_sim_opts *o, mg_report *rep);

static void against_shards(runner run, void *arg, const char *what) {
  static const unsigned ks[] = {2, 3, 5, 7};
  mg_report whole, part;
  mg_status st0 = run(arg, NULL, &whole);
  for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
    mg_shard_serial *ss;
    mg_err err = {{0}};
    assert_int_equal(mg_shard_serial_create(ks[q], &ss, &err), MG_OK);
    mg_status st;
    do {
      mg_sim_opts o;
      memset(&o, 0, sizeof o);
      o.shard = mg_shard_serial_shard(ss);
      st = run(arg, &o, &part);
      if (mg_shard_serial_shard(ss)->index + 1 < ks[q]) mg_report_free(&part);
    } while (mg_shard_serial_next(ss));
    if (st != st0) fail_msg("%s on %u shards: status %d, whole %d", what, ks[q], st, st0);
    same_report(&whole, &part, what, ks[q]);
    mg_report_free(&part);
    mg_shard_serial_free(ss);
  }
  mg_report_free(&whole);
}

typedef struct algo_case {
  const char *algo, *topo, *model;
  mg_problem problem;
  double bytes;
} algo_case;

static mg_status run_algo(void *arg, const mg_sim_opts *o, mg_report *rep) {
  const algo_case *c = arg;
  mg_problem_spec pb = th_problem(c->problem, c->topo, c->model, c->bytes);
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  if (mg_algo_lookup(c->algo, &a, &ps, &err) != MG_OK) fail_msg("%s: %s", c->algo, err.msg);
  return mg_run(a, &pb, &ps, o, rep, &err);
}

static void test_algorithms(void **state) {
  (void)state;
  static const algo_case cases[] = {
      {"ring", "ring:13", "ts=2,tl=1", MG_GOSSIP, 1},
      {"concentrate", "line:9", "ts=3,tl=1", MG_GOSSIP, 1},
      {"circgos", "ring:27", "ts=4,tl=1", MG_GOSSIP, 1},
      {"torgos", "torus:9x9", "ts=10,tl=1", MG_GOSSIP, 1},
      {"cubgos", "torus:9x9x9", "ts=10,tl=1", MG_GOSSIP, 1},
      {"dimwise", "mesh:5x7", "ts=3,tl=1", MG_GOSSIP, 1},
      {"dimwise-colored:phases=2-1", "torus:27x27", "ts=8,tl=1", MG_GOSSIP, 1},
      /* several pieces: the shards number them piece by piece (gossip_layout.c); origin ranges of
       * three pieces on an odd torus and on three axes, a box on three axes */
      {"greedy-links:chunks=3", "torus:5x7", "ts=1,tl=1", MG_GOSSIP, 3},
      {"greedy-links:chunks=2", "torus:4x4x4", "contention=shared,ts=1,tl=1", MG_GOSSIP, 2},
      {"dimwise-colored:phases=1-1-1", "torus:3x5x7", "ts=2,tl=1", MG_GOSSIP, 3},
      /* runs of pieces: every colour cut in 2 by ring:half=1 (2 and 3 axes) */
      {"dimwise-colored:phases=ring:half=1/ring:half=1", "torus:6x4", "ts=2,tl=1", MG_GOSSIP, 4},
      {"dimwise-colored:phases=ring:half=1/ring/ring:half=1", "torus:4x3x6", "ts=2,tl=1", MG_GOSSIP, 6},
      {"lee3d-long", "torus:7x7x7", "switching=circuit", MG_GOSSIP, 1},
      {"bus-simple", "meshbus:8", "ell=4", MG_GOSSIP, 1},
      {"bus-partition", "meshbus:6", "ell=3", MG_GOSSIP, 1},
      {"bus-centralize", "meshbus:8", "ell=16", MG_GOSSIP, 1},
      {"mpi-allgather-bruck", "torus:4x4", "contention=shared,ts=1,tl=1", MG_GOSSIP, 64},
      {"greedy-links", "torus:6x6", "contention=fair,ts=1,tl=0.01", MG_GOSSIP, 100},
      {"exchange-ring", "ring:10", "port=one,ts=10,tl=1", MG_EXCHANGE, 1},
      {"exchange-dimwise", "torus:6x6", "ts=10,tl=1", MG_EXCHANGE, 1},
      {"exchange-partitioned", "torus:8x8x8", "ts=10,tl=1", MG_EXCHANGE, 1},
      {"exchange-lines", "mesh:4x5", "contention=shared,ts=1,tl=1", MG_EXCHANGE, 8},
      {"mpi-alltoall-bruck", "ring:9", "contention=shared,ts=1,tl=1", MG_EXCHANGE, 8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char what[128];
    snprintf(what, sizeof what, "%s on %s", cases[i].algo, cases[i].topo);
    against_shards(run_algo, (void *)&cases[i], what);
  }
}

/* Hand-made schedules: ring:8 gossip, shards of 7 own one or two origins. */
static mg_status run_hand(void *arg, const mg_sim_opts *o, mg_report *rep) {
  mg_err err = {{0}};
  return mg_drive(th_stream, arg, NULL, 0, o, rep, &err);
}

static void broken(void (*build)(th_sched *s), mg_rule rule, const char *what) {
  th_sched s;
  build(&s);
  mg_report rep;
  assert_int_equal(run_hand(&s, NULL, &rep), MG_ERR_VIOLATION);
  if (rep.violation.rule != rule) fail_msg("%s: rule %s", what, mg_rule_name(rep.violation.rule));
  mg_report_free(&rep);
  against_shards(run_hand, &s, what);
  th_sched_free(&s);
}

static void one_round_ring(th_sched *s) {
  th_sched_init(s, MG_GOSSIP, "ring:8", "ts=1,tl=1", 1);
  for (uint32_t v = 0; v < 8; v++)
    th_add(s, 0, mg_xfer_line(v, (v + 1) % 8, 0, 1));
}

/* round 1, transfer 0 lists item 6 (origin 6) that node 0 does not hold,
 * then item 7 that it does; transfer 1 is not on the mesh's arcs */
static void not_held_first(th_sched *s) {
  one_round_ring(s);
  mg_transfer t = mg_xfer_line(0, 1, 0, 1);
  uint64_t items[] = {7, 6};
  t.sel.flags = MG_SEL_LIST;
  t.sel.list = mg_round_add_list(&s->rounds[1], items, 2);
  t.sel.list_len = 2;
  th_add(s, 1, t);
  th_add(s, 1, mg_xfer_line(2, 3, 0, 2));
  s->nrounds = 2;
}

/* the same route fault in transfer 0, the item fault in transfer 1 */
static void route_first(th_sched *s) {
  one_round_ring(s);
  th_add(s, 1, mg_xfer_line(2, 3, 0, 2));
  mg_transfer t = mg_xfer_line(0, 1, 0, 1);
  uint64_t items[] = {6};
  t.sel.flags = MG_SEL_LIST;
  t.sel.list = mg_round_add_list(&s->rounds[1], items, 1);
  t.sel.list_len = 1;
  th_add(s, 1, t);
  s->nrounds = 2;
}

/* one round of a ring: every node lacks most items; the first is named */
static void incomplete(th_sched *s) {
  one_round_ring(s);
  s->nrounds = 1;
}

static void test_broken(void **state) {
  (void)state;
  broken(not_held_first, MG_RULE_NOT_HELD, "an item not held");
  broken(route_first, MG_RULE_BAD_ROUTE, "a route before an item");
  broken(incomplete, MG_RULE_INCOMPLETE, "incomplete");
}

/* More shards than nodes, and an asynchronous clock, are refused. */
static void test_refusals(void **state) {
  (void)state;
  mg_shard_serial *ss;
  mg_err err = {{0}};
  mg_report rep;
  assert_int_equal(mg_shard_serial_create(9, &ss, &err), MG_OK);
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  o.shard = mg_shard_serial_shard(ss);
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:8", "ts=1,tl=1", 1);
  assert_int_equal(mg_run(mg_algo_find("ring"), &pb, NULL, &o, &rep, &err), MG_ERR_INVALID);
  mg_report_free(&rep);
  mg_shard_serial_free(ss);
  assert_int_equal(mg_shard_serial_create(2, &ss, &err), MG_OK);
  o.shard = mg_shard_serial_shard(ss);
  pb = th_problem(MG_GOSSIP, "ring:8", "ts=1,tl=1,timing=async", 1);
  assert_int_equal(mg_run(mg_algo_find("ring"), &pb, NULL, &o, &rep, &err), MG_ERR_UNSUPPORTED);
  mg_report_free(&rep);
  mg_shard_serial_free(ss);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_algorithms),
      cmocka_unit_test(test_broken),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

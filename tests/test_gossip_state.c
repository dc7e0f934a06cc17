/* The gossip simulator's state (src/sim/sim_gossip.c, gossip_scope.c).
 *
 * It resolves a transfer on the runs of bits its box,
 * origin range and one-axis colour reach (src/sim/gossip_scope.c), not on
 * whole rows. Here every transfer of real schedules is recounted item by
 * item from the selector's definition and the sender's and receiver's
 * state at the round's start (mg_sim_holds, with every delivery pooled:
 * a direct one would show mid-round): the resolved bits and count must be
 * exactly those. The shapes reach every path: colour runs (an axis
 * >= 1 whose slabs span a word: 36 x 36, 8x8x4), colour masks (12 x 12, and
 * colours of axis 0), boxes that wrap, 3D boxes, origin ranges that wrap. */
#include "helpers.h"

#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct recount {
  mg_sim *sim;
  const mg_topo *t;
  uint32_t P;
  uint64_t checked, items;
} recount;

static int in_cyclic(uint32_t x, uint32_t lo, uint32_t len, uint32_t n) {
  if (len == 0 || len >= n) return 1;
  return (x + n - lo % n) % n < len;
}

static int selected(const recount *rc, const mg_transfer *tr, uint64_t it) {
  const mg_selector *s = &tr->sel;
  const mg_topo *t = rc->t;
  uint32_t origin = (uint32_t)(it / rc->P), piece = (uint32_t)(it % rc->P), x[MG_MAX_DIMS];
  mg_topo_coords(t, origin, x);
  if (!mg_sim_holds(rc->sim, tr->src, it)) return 0;
  if ((s->flags & MG_SEL_BOX))
    for (int k = 0; k < t->d; k++)
      if (!in_cyclic(x[k], s->box.lo[k], s->box.len[k], t->n[k])) return 0;
  if ((s->flags & MG_SEL_PIECE) && (piece < s->piece || piece - s->piece >= (s->piece_count > 1 ? s->piece_count : 1)))
    return 0;
  if (s->flags & MG_SEL_COLOR) {
    int64_t sum = 0;
    for (int k = 0; k < t->d; k++)
      sum += (int64_t)s->color_w[k] * x[k];
    int64_t c = sum % (int64_t)s->color_m;
    if (c < 0) c += s->color_m;
    if ((uint32_t)c != s->color_c) return 0;
  }
  if (s->flags & MG_SEL_ORIGIN_RANGE) {
    uint64_t len = s->range_len > t->N ? t->N : s->range_len;
    if ((origin + t->N - s->range_lo % t->N) % t->N >= len) return 0;
  }
  if ((s->flags & MG_SEL_MINUS_DST) && mg_sim_holds(rc->sim, tr->dst, it)) return 0;
  return 1;
}

static mg_status check(void *arg, const mg_resolved *res, mg_err *err) {
  recount *rc = arg;
  (void)err;
  uint32_t f = res->tr->sel.flags;
  if (f & (MG_SEL_LIST | MG_SEL_ARRIVAL | MG_SEL_PRED) || res->tr->bus != MG_BUS_NONE) return MG_OK;
  uint64_t n = 0, items = (uint64_t)rc->t->N * rc->P;
  for (uint64_t it = 0; it < items; it++) {
    int want = selected(rc, res->tr, it), got = (int)((res->bits[it >> 6] >> (it & 63)) & 1u);
    if (want != got)
      fail_msg("round %lld transfer %zu (%u -> %u, flags %#x): item %llu resolved %d, recount %d",
               (long long)res->round, res->index, res->tr->src, res->tr->dst, f, (unsigned long long)it, got, want);
    n += (uint64_t)want;
  }
  for (uint64_t it = items; it < res->nwords * 64; it++)
    if ((res->bits[it >> 6] >> (it & 63)) & 1u) fail_msg("bit %llu beyond the items is set", (unsigned long long)it);
  assert_int_equal(n, res->nitems);
  rc->checked++;
  rc->items += n;
  return MG_OK;
}

/* A sink in front of the simulator's that notes the piece count. */
typedef struct tee {
  mg_sink inner;
  recount *rc;
} tee;

static mg_status tee_begin(void *ctx, const mg_schedule_info *info, mg_err *err) {
  tee *t = ctx;
  t->rc->P = info->pieces;
  return t->inner.begin(t->inner.ctx, info, err);
}
static mg_status tee_round(void *ctx, mg_round *r, mg_err *err) {
  tee *t = ctx;
  return t->inner.round(t->inner.ctx, r, err);
}
static mg_status tee_end(void *ctx, mg_err *err) {
  tee *t = ctx;
  return t->inner.end(t->inner.ctx, err);
}

/* Runs algo on topo with every transfer recounted; returns how many. */
static uint64_t recount_run(const char *algo, const char *topo) {
  mg_problem_spec pb = th_paper(MG_GOSSIP, topo, 8);
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  recount rc = {.t = &pb.topo};
  assert_int_equal(mg_algo_lookup(algo, &a, &ps, &err), MG_OK);
  mg_sim_opts so;
  memset(&so, 0, sizeof so);
  so.on_resolved = check;
  so.on_resolved_arg = &rc;
  assert_int_equal(mg_sim_create(&so, &rc.sim, &err), MG_OK);
  mg_sim_pool_only = 1;
  tee t = {.inner = mg_sim_sink(rc.sim), .rc = &rc};
  mg_sink k = {.begin = tee_begin, .round = tee_round, .end = tee_end, .ctx = &t};
  mg_status st = mg_algo_check(a, &pb, &ps, &err);
  if (st == MG_OK) st = a->generate(&pb, &ps, &k, &err);
  mg_sim_pool_only = 0;
  if (st != MG_OK) fail_msg("%s on %s: %s", algo, topo, err.msg);
  assert_true(mg_sim_report(rc.sim)->verified);
  mg_sim_destroy(rc.sim);
  print_message("%-30s %-14s %6llu transfers, %9llu items recounted\n", algo, topo, (unsigned long long)rc.checked,
                (unsigned long long)rc.items);
  return rc.checked;
}

/* TORGOS's column strips and every-s-th-row colours: on 36 x 36 a row of
 * the white colour's axis 1 is 72 bits, so the colours are runs. */
static void torgos_colour_runs(void **state) {
  (void)state;
  assert_true(recount_run("torgos:a=3,b=3,x=1", "torus:36x36") > 0);
  assert_true(recount_run("torgos:a=4,b=3,x=2", "torus:36x36") > 0);
}

/* The colour masks: rows too short for runs. */
static void torgos_colour_masks(void **state) {
  (void)state;
  assert_true(recount_run("torgos:a=3,b=2,x=1", "torus:12x12") > 0);
  assert_true(recount_run("torgos", "mesh:12x12") > 0);
}

/* Lifted 1D schedules: boxes one line wide, wrapping along the line;
 * ragged extents; 3D boxes. */
static void lifted_boxes(void **state) {
  (void)state;
  assert_true(recount_run("dimwise-colored:phases=1-1", "torus:40x6") > 0);
  assert_true(recount_run("dimwise-colored:phases=2-1", "torus:5x33") > 0);
  assert_true(recount_run("dimwise:phases=1-3-2", "torus:8x8x4") > 0);
  assert_true(recount_run("cubgos", "torus:9x9x9") > 0);
  /* 1D pieces lifted: runs of the colour's pieces (ring:half=1) */
  assert_true(recount_run("dimwise-colored:phases=ring:half=1/ring:half=1", "torus:8x6") > 0);
  assert_true(recount_run("dimwise:phases=ring:half=1/ring", "torus:4x5") > 0);
  assert_true(recount_run("dimwise-colored:phases=greedy-links/ring:half=1/ring", "torus:4x6x4") > 0);
}

/* Origin ranges that wrap round the ring. */
static void origin_ranges(void **state) {
  (void)state;
  assert_true(recount_run("circgos:a=7,b=4", "ring:100") > 0);
  assert_true(recount_run("circgos:a=7,b=4,skip=1", "ring:100") > 0); /* minus the receiver's */
  assert_true(recount_run("circgos:a=7,b=4,skip=2", "ring:100") > 0); /* item lists, fills */
  assert_true(recount_run("circgos:a=4,b=3,skip=2", "line:70") > 0);
  assert_true(recount_run("ring", "ring:67") > 0);
  assert_true(recount_run("circgos:a=4,b=3", "line:70") > 0);
}

/* Recursive doubling on ring:8192 where every node sends all it holds
 * (nothing to tell its items apart from what it receives in the same
 * round), node 0 first: a delivery to v + 2^j comes before v + 2^j's own
 * send, so it waits in the pool. Round 12 delivers 4096 items to each of
 * 8192 nodes, 8 blocks of 8 words each, 4 MiB of records in the pool. */
static mg_status doubling_run(uint64_t mem_limit, mg_report *rep, mg_err *err) {
  th_sched sc;
  th_sched_init(&sc, MG_GOSSIP, "ring:8192", "contention=shared", 1);
  for (int j = 0; j < 13; j++)
    for (uint32_t v = 0; v < 8192; v++) {
      mg_transfer tr = mg_xfer(v, (v + (1u << j)) % 8192);
      th_add(&sc, j, tr);
    }
  mg_sim_opts so;
  memset(&so, 0, sizeof so);
  so.mem_limit = mem_limit;
  mg_sim *sim;
  mg_status st = mg_sim_create(&so, &sim, err);
  if (st == MG_OK) {
    mg_sink k = mg_sim_sink(sim);
    st = th_stream(&sc, &k, err);
    mg_sim_take_report(sim, rep);
    mg_sim_destroy(sim);
  }
  th_sched_free(&sc);
  return st;
}

/* A round's deliveries that a later reader of the same row could select
 * wait in a pool that the memory limit bounds: past it the run stops with
 * MG_ERR_TOO_LARGE and one line naming the round, nothing else. */
static void delivery_pool_limit(void **state) {
  (void)state;
  mg_schedule_info info;
  mg_err err = {{0}};
  mg_report rep;
  memset(&info, 0, sizeof info);
  info.problem = MG_GOSSIP;
  assert_int_equal(mg_topo_parse("ring:8192", &info.topo, &err), MG_OK);
  info.pieces = 1;
  uint64_t need = 0;
  assert_int_equal(mg_sim_state_bytes(&info, &need, &err), MG_OK);
  /* room for the least pool, one chunk of 2 MiB */
  mg_status st = doubling_run(need + (1u << 20), &rep, &err);
  assert_int_equal(st, MG_ERR_TOO_LARGE);
  assert_non_null(strstr(err.msg, "round 12 delivers more than the memory limit leaves"));
  assert_null(strchr(err.msg, '\n'));
  mg_report_free(&rep);
  /* with room, the same run verifies */
  assert_int_equal(doubling_run(need + (64u << 20), &rep, &err), MG_OK);
  assert_true(rep.verified);
  assert_int_equal(rep.rounds, 13);
  mg_report_free(&rep);
}

/* A delivery goes straight into its receiver's row when no later reader
 * of that row in the round can select its items; else it waits in the
 * pool. Both must give the same run: every registered gossip algorithm on
 * five shapes under two models, report against report (verdict, rounds,
 * cost and its terms, bytes moved, the violation), with and without. */
static void direct_equals_pool(void **state) {
  (void)state;
  const char *shapes[5] = {"torus:9x9", "torus:8x8", "ring:27", "mesh:5x7", "torus:36x36"};
  const char *models[2] = {"contention=strict", "contention=shared,ts=1,tl=1"};
  int compared = 0;
  for (size_t i = 0; i < mg_algo_count(); i++) {
    const mg_algo *a = mg_algo_at(i);
    if (a->problem != MG_GOSSIP || a->on_bus) continue;
    for (int s = 0; s < 5; s++)
      for (int m = 0; m < 2; m++) {
        if (s == 4 && strcmp(a->name, "torgos") && strncmp(a->name, "dimwise", 7)) continue;
        mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], models[m], 1);
        mg_err err = {{0}};
        if (mg_algo_check(a, &pb, NULL, &err) != MG_OK) continue;
        mg_report r1, r2;
        mg_sim_pool_only = 0;
        mg_status s1 = mg_run(a, &pb, NULL, NULL, &r1, &err);
        mg_sim_pool_only = 1;
        mg_status s2 = mg_run(a, &pb, NULL, NULL, &r2, &err);
        mg_sim_pool_only = 0;
        if (s1 != s2 || r1.verified != r2.verified || r1.rounds != r2.rounds || r1.cost != r2.cost ||
            r1.bytes_moved != r2.bytes_moved || r1.cost_transfer != r2.cost_transfer ||
            strcmp(r1.violation.msg, r2.violation.msg))
          fail_msg("%s on %s (%s): direct %d %g %g, pooled %d %g %g", a->name, shapes[s], models[m], s1, r1.cost,
                   r1.bytes_moved, s2, r2.cost, r2.bytes_moved);
        if (s1 == MG_OK || s1 == MG_ERR_VIOLATION) mg_report_free(&r1);
        if (s2 == MG_OK || s2 == MG_ERR_VIOLATION) mg_report_free(&r2);
        compared++;
      }
  }
  print_message("%d runs compared\n", compared);
  assert_true(compared > 50);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(torgos_colour_runs), cmocka_unit_test(torgos_colour_masks), cmocka_unit_test(lifted_boxes),
      cmocka_unit_test(origin_ranges),      cmocka_unit_test(delivery_pool_limit), cmocka_unit_test(direct_equals_pool),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

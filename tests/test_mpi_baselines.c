/* The MPI libraries' allgather and alltoall schedules (mpi_allgather.c,
 * mpi_alltoall.c): complete delivery on many shapes under shared
 * contention, rejection with the arc named under strict contention, the
 * closed forms against the simulator, auto selection, compare --sizes. */
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *gossip_algos[] = {"mpi-allgather-ring", "mpi-allgather-rd", "mpi-allgather-bruck",
                                     "mpi-allgather-neighbor", "mpi-allgather-direct"};
static const char *exchange_algos[] = {"mpi-alltoall-pairwise", "mpi-alltoall-pairwise:pairs=shift",
                                       "mpi-alltoall-bruck", "mpi-alltoall-direct", "mpi-alltoall-ring"};

/* rings, lines, 2D and 3D tori and meshes, odd, prime, non-powers of two */
static const char *shapes[] = {"ring:2",      "ring:3",     "ring:5",      "ring:7",    "ring:8",    "ring:12",
                               "line:2",      "line:5",     "line:6",      "torus:2x2", "torus:4x4", "torus:3x5",
                               "torus:2x3",   "torus:6x5",  "mesh:3x5",    "mesh:4x4",  "mesh:2x7",  "torus:3x3x2",
                               "torus:2x2x2", "mesh:2x3x4", "torus:3x3x3", "mesh:3x2x2"};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static int even_nodes(const char *topo) {
  mg_problem_spec pb = th_problem(MG_GOSSIP, topo, NULL, 1);
  return pb.topo.N % 2 == 0;
}

static int pow2_nodes(const char *topo) {
  mg_problem_spec pb = th_problem(MG_GOSSIP, topo, NULL, 1);
  return (pb.topo.N & (pb.topo.N - 1)) == 0;
}

static void test_verify_shared(void **state) {
  (void)state;
  for (size_t s = 0; s < NSHAPES; s++) {
    for (size_t a = 0; a < 5; a++) {
      mg_problem_spec pb = th_problem(MG_GOSSIP, shapes[s], "contention=shared,ts=1,td=0.5,tl=0.001", 64);
      mg_report rep;
      mg_status st = th_run(gossip_algos[a], &pb, &rep);
      if (!strcmp(gossip_algos[a], "mpi-allgather-neighbor") && !even_nodes(shapes[s])) {
        assert_int_equal(st, MG_ERR_UNSUPPORTED);
        continue;
      }
      if (st != MG_OK || !rep.verified) fail_msg("%s on %s: %s", gossip_algos[a], shapes[s], rep.violation.msg);
      mg_report_free(&rep);
    }
    for (size_t a = 0; a < 5; a++) {
      mg_problem_spec pb = th_problem(MG_EXCHANGE, shapes[s], "contention=shared,ts=1,td=0.5,tl=0.001", 64);
      mg_report rep;
      mg_status st = th_run(exchange_algos[a], &pb, &rep);
      if (st != MG_OK || !rep.verified) fail_msg("%s on %s: %s", exchange_algos[a], shapes[s], rep.violation.msg);
      mg_report_free(&rep);
    }
  }
}

/* recursive doubling's halving for non-powers of two, on every p up to 40 */
static void test_rd_any_p(void **state) {
  (void)state;
  char topo[32];
  for (int p = 2; p <= 40; p++) {
    snprintf(topo, sizeof topo, "ring:%d", p);
    mg_problem_spec pb = th_problem(MG_GOSSIP, topo, "contention=shared", 1);
    mg_report rep;
    mg_status st = th_run("mpi-allgather-rd", &pb, &rep);
    if (st != MG_OK || !rep.verified) fail_msg("rd on %s: %s", topo, rep.violation.msg);
    int lg = 0;
    while ((1 << lg) < p)
      lg++;
    /* lg p exchanges; the halving adds rounds only off powers of two */
    if ((p & (p - 1)) == 0)
      assert_int_equal(rep.rounds, lg);
    else
      assert_true(rep.rounds > lg - 1);
    mg_report_free(&rep);
  }
}

static void test_refusals(void **state) {
  (void)state;
  mg_report rep;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "torus:3x3", "contention=shared", 1);
  assert_int_equal(th_run("mpi-allgather-neighbor", &pb, &rep), MG_ERR_UNSUPPORTED);
  pb = th_problem(MG_EXCHANGE, "ring:6", "contention=shared", 1);
  assert_int_equal(th_run("mpi-alltoall-pairwise:pairs=xor", &pb, &rep), MG_ERR_UNSUPPORTED);
  /* one round of p(p-1) transfers, p^2(p-1)/2 block moves: too large */
  mg_err err = {{0}};
  pb = th_problem(MG_GOSSIP, "torus:64x64", "contention=shared", 1);
  assert_int_equal(mg_algo_check(mg_algo_find("mpi-allgather-direct"), &pb, NULL, &err), MG_ERR_TOO_LARGE);
  assert_int_equal(mg_algo_check(mg_algo_find("mpi-allgather-ring"), &pb, NULL, &err), MG_OK);
  pb.problem = MG_EXCHANGE;
  assert_int_equal(mg_algo_check(mg_algo_find("mpi-alltoall-direct"), &pb, NULL, &err), MG_ERR_TOO_LARGE);
  assert_int_equal(mg_algo_check(mg_algo_find("mpi-alltoall-ring"), &pb, NULL, &err), MG_ERR_TOO_LARGE);
  pb = th_problem(MG_GOSSIP, "meshbus:4", NULL, 1);
  assert_int_equal(th_run("mpi-allgather-ring", &pb, &rep), MG_ERR_UNSUPPORTED);
}

/* Under strict contention the contended baselines are rejected, the
 * round, both transfers and the arc named; the contention-free ones (the
 * rank ring, neighbor exchange, the alltoall ring) verify. */
/* expect_reject: 1 must be rejected, 0 must verify, -1 either */
static void check_strict(mg_problem problem, const char *algo, const char *topo, int expect_reject) {
  mg_problem_spec pb = th_problem(problem, topo, "contention=strict,ts=1,tl=0.001", 8);
  mg_report rep;
  mg_status st = th_run(algo, &pb, &rep);
  if (expect_reject < 0 && ((st == MG_OK && rep.verified) || st == MG_ERR_UNSUPPORTED)) {
    mg_report_free(&rep);
    return;
  }
  if (expect_reject == 0) {
    if (st != MG_OK || !rep.verified) fail_msg("%s on %s under strict: %s", algo, topo, rep.violation.msg);
    mg_report_free(&rep);
    return;
  }
  if (st != MG_ERR_VIOLATION) fail_msg("%s on %s: expected an arc-contention violation, got status %d", algo, topo, st);
  assert_false(rep.verified);
  assert_int_equal(rep.violation.rule, MG_RULE_ARC_CONTENTION);
  assert_true(rep.violation.round >= 0);
  assert_true(rep.violation.xfer[0] >= 0 && rep.violation.xfer[1] >= 0);
  assert_true(rep.violation.arc_node >= 0);
  assert_true(rep.violation.arc_dim >= 0 && rep.violation.arc_dim < pb.topo.d);
  assert_non_null(strstr(rep.violation.msg, "both use arc"));
  mg_report_free(&rep);
}

static void test_strict(void **state) {
  (void)state;
  /* known contended: every step of distance >= 2 on a ring shares arcs;
   * torus:4x4 and mesh:3x5 share row arcs */
  const char *contended[] = {"ring:8", "ring:7", "ring:12", "torus:4x4", "mesh:3x5"};
  for (size_t s = 0; s < sizeof contended / sizeof contended[0]; s++) {
    const char *t = contended[s];
    check_strict(MG_GOSSIP, "mpi-allgather-rd", t, 1);
    check_strict(MG_GOSSIP, "mpi-allgather-bruck", t, 1);
    check_strict(MG_GOSSIP, "mpi-allgather-direct", t, 1);
    check_strict(MG_EXCHANGE, "mpi-alltoall-bruck", t, 1);
    check_strict(MG_EXCHANGE, "mpi-alltoall-direct", t, 1);
    check_strict(MG_EXCHANGE, "mpi-alltoall-pairwise", t, 1);
  }
  /* elsewhere a rejection must still name the arc (Bruck happens to be
   * contention-free on torus:3x3x2 under dimension order) */
  for (size_t s = 0; s < NSHAPES; s++) {
    for (size_t a = 1; a < 5; a++)
      check_strict(MG_GOSSIP, gossip_algos[a], shapes[s], -1);
    for (size_t a = 0; a < 4; a++)
      check_strict(MG_EXCHANGE, exchange_algos[a], shapes[s], -1);
  }
  for (size_t s = 0; s < NSHAPES; s++) {
    check_strict(MG_GOSSIP, "mpi-allgather-ring", shapes[s], 0);
    check_strict(MG_EXCHANGE, "mpi-alltoall-ring", shapes[s], 0);
    if (even_nodes(shapes[s]) && strncmp(shapes[s], "line", 4) && strncmp(shapes[s], "mesh", 4))
      check_strict(MG_GOSSIP, "mpi-allgather-neighbor", shapes[s], 0);
  }
}

static void expect_closed_form(mg_problem problem, const char *spec, const char *topo, const char *model) {
  mg_problem_spec pb = th_problem(problem, topo, model, 100);
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  assert_int_equal(mg_algo_lookup(spec, &a, &ps, &err), MG_OK);
  double cf = 0, sim = th_cost(spec, &pb);
  if (a->closed_form(&pb, &ps, &cf, &err) != MG_OK) fail_msg("%s on %s: no closed form: %s", spec, topo, err.msg);
  if (fabs(cf - sim) > 1e-9 * (1 + fabs(sim)))
    fail_msg("%s on %s (%s): closed form %.12g, simulated %.12g", spec, topo, model, cf, sim);
}

/* Closed forms against the simulator: the contention-free ones on every
 * shape and under both rules; the ring formulas under the shared rule. */
static void test_closed_forms(void **state) {
  (void)state;
  const char *shared = "contention=shared,ts=1.5,td=0.25,tl=0.01";
  const char *strict = "contention=strict,ts=1.5,td=0.25,tl=0.01";
  for (size_t s = 0; s < NSHAPES; s++) {
    expect_closed_form(MG_GOSSIP, "mpi-allgather-ring", shapes[s], shared);
    expect_closed_form(MG_GOSSIP, "mpi-allgather-ring", shapes[s], strict);
    expect_closed_form(MG_EXCHANGE, "mpi-alltoall-ring", shapes[s], shared);
    expect_closed_form(MG_EXCHANGE, "mpi-alltoall-ring", shapes[s], strict);
  }
  const char *rings[] = {"ring:2", "ring:3", "ring:4",  "ring:5",  "ring:6",
                         "ring:7", "ring:8", "ring:12", "ring:16", "ring:31"};
  for (size_t s = 0; s < sizeof rings / sizeof rings[0]; s++) {
    const char *t = rings[s];
    expect_closed_form(MG_GOSSIP, "mpi-allgather-bruck", t, shared);
    expect_closed_form(MG_GOSSIP, "mpi-allgather-direct", t, shared);
    expect_closed_form(MG_EXCHANGE, "mpi-alltoall-pairwise:pairs=shift", t, shared);
    expect_closed_form(MG_EXCHANGE, "mpi-alltoall-bruck", t, shared);
    expect_closed_form(MG_EXCHANGE, "mpi-alltoall-direct", t, shared);
    if (pow2_nodes(t)) expect_closed_form(MG_GOSSIP, "mpi-allgather-rd", t, shared);
    if (even_nodes(t)) {
      expect_closed_form(MG_GOSSIP, "mpi-allgather-neighbor", t, shared);
      expect_closed_form(MG_GOSSIP, "mpi-allgather-neighbor", t, strict);
    }
  }
  /* where Bruck and the library formulas meet: ring:3 has no shared arc,
   * so the library's ceil(lg p) alpha + (p-1) L beta is exact */
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:3", strict, 100);
  assert_true(fabs(th_cost("mpi-allgather-bruck", &pb) - (2 * 1.5 + 2 * 0.25 + 2 * 100 * 0.01)) < 1e-9);
  /* ring:81, Paragon parameters: (p-1)(ts + L tl) */
  pb = th_problem(MG_GOSSIP, "ring:81", "contention=shared,ts=3e-4,tl=2.2e-8", 32768);
  assert_true(fabs(th_cost("mpi-allgather-ring", &pb) - 80 * (3e-4 + 32768 * 2.2e-8)) < 1e-12);
}

/* auto picks the least verified cost of compare, under the given model */
static void test_auto(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_GOSSIP, "ring:81", "contention=shared,ts=3e-4,tl=2.2e-8", 32768);
  const mg_algo *a = NULL;
  mg_params ps;
  size_t nv = 0;
  double cost = 0;
  mg_err err = {{0}};
  assert_int_equal(mg_algo_auto(&pb, NULL, &a, &ps, &nv, &cost, &err), MG_OK);
  mg_compare_row *rows;
  size_t n;
  assert_int_equal(mg_compare(&pb, NULL, 1, &rows, &n, &err), MG_OK);
  double least = INFINITY;
  for (size_t i = 0; i < n; i++)
    if (!rows[i].refused && rows[i].rep.verified && rows[i].rep.cost < least) least = rows[i].rep.cost;
  free(rows);
  assert_true(cost == least);
  /* a torus-aware algorithm: Approach 1's 40 steps (or one as good) against
   * the MPI ring's 80 */
  assert_true(strncmp(a->name, "mpi-", 4) != 0);
  assert_true(fabs(cost - 40 * (3e-4 + 32768 * 2.2e-8)) < 1e-12);
  assert_true(nv >= 6);
  /* under strict contention the contended baselines cannot be picked */
  pb = th_problem(MG_EXCHANGE, "torus:4x4", "contention=strict,ts=1,tl=0.001", 8);
  assert_int_equal(mg_algo_auto(&pb, NULL, &a, &ps, &nv, &cost, &err), MG_OK);
  assert_true(strcmp(a->name, "mpi-alltoall-pairwise") && strcmp(a->name, "mpi-alltoall-bruck") &&
              strcmp(a->name, "mpi-alltoall-direct"));
  assert_true(nv >= 1); /* mpi-alltoall-ring at least */
  mg_report rep;
  assert_int_equal(mg_run(a, &pb, &ps, NULL, &rep, &err), MG_OK);
  assert_true(rep.verified && rep.cost == cost);
  mg_report_free(&rep);
}

static char *run_cli(const char *args) {
  const char *cli = getenv("MG_CLI");
  if (!cli) return NULL;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s %s", cli, args);
  FILE *f = popen(cmd, "r");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *buf = calloc(cap, 1);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - 1 - len, f)) > 0)
    len += got;
  pclose(f);
  return buf;
}

static void test_cli(void **state) {
  (void)state;
  if (!getenv("MG_CLI")) skip();
  char *out = run_cli("compare --problem gossip --topo ring:8 --r 1 --sizes 1,2");
  assert_non_null(out);
  /* header, then one row per size; ring:8 with ts=1, tl=1 (L = 1 and 2) */
  assert_true(strncmp(out, "bytes,", 6) == 0);
  assert_non_null(strstr(out, ",mpi-allgather-ring,mpi-allgather-rd,mpi-allgather-bruck,"));
  assert_non_null(strstr(out, ",best,lower_bound\n"));
  assert_non_null(strstr(out, "\n1,"));
  assert_non_null(strstr(out, "\n2,"));
  free(out);
  out = run_cli("run --algo auto --problem exchange --topo ring:8 --model contention=shared --json");
  assert_non_null(out);
  assert_non_null(strstr(out, "\"auto\": true"));
  assert_non_null(
      strstr(out, "\"algorithm\": \"mpi-alltoall-bruck\"")); /* log2 8 = 3 start-ups; direct needs ceil(7/2) = 4 */
  free(out);
  out = run_cli("compare --problem exchange --topo torus:4x4 --model contention=strict --json");
  assert_non_null(out);
  assert_non_null(strstr(out, "\"rule\": \"arc-contention\""));
  assert_null(strstr(out, "\"best\": null"));
  assert_null(strstr(out, "\"best\": \"mpi-alltoall-direct\""));
  assert_null(strstr(out, "\"best\": \"mpi-alltoall-bruck\""));
  assert_null(strstr(out, "\"best\": \"mpi-alltoall-pairwise\""));
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_verify_shared), cmocka_unit_test(test_rd_any_p),     cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_strict),        cmocka_unit_test(test_closed_forms), cmocka_unit_test(test_auto),
      cmocka_unit_test(test_cli),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

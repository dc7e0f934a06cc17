/* The S4U replay (src/engine/simgrid/replay.c) on schedules whose SimGrid
 * time is computed by hand, and the routes SimGrid takes on the platforms
 * of `meshgossip platform`.
 *
 * Network: CM02 without factors or cross traffic, so a lone message of B
 * bytes over h hops takes h*td + B*tl, and two flows on one link share its
 * bandwidth equally (max-min). Every replay runs in a forked child, so one
 * test process can replay many schedules. */
#include "helpers.h"

#include "meshgossip_engine.h"
#include "schedule/deps.h"

#include <dirent.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xbt/dynar.h>

#define TD 1e-6
#define TL 1e-9 /* 1 GB/s */

static int network_smpi; /* 1: SimGrid's SMPI network model instead of CM02 */

/* Records hand-made rounds (the run may end incomplete: only the
 * recorded transfers matter) and replays them. */
static double replay_on(th_sched *s, double o, double or_, mg_engine_sync sync, int simgrid_routes) {
  mg_deps *d;
  mg_err err = {{0}};
  assert_int_equal(mg_deps_create(0, &d, &err), MG_OK);
  mg_tap tap = mg_deps_tap(d);
  mg_report rep;
  mg_status st = mg_drive(th_stream, s, &tap, 1, NULL, &rep, &err);
  assert_true(st == MG_OK || st == MG_ERR_VIOLATION);
  mg_report_free(&rep);
  mg_engine_opts eo;
  mg_engine_opts_default(&eo);
  eo.kind = MG_ENGINE_SIMGRID;
  eo.o = o;
  eo.or_ = or_;
  eo.sync = sync;
  eo.simgrid_routes = simgrid_routes;
  eo.network_smpi = network_smpi;
  mg_engine_result res;
  st = mg_simgrid_replay(d, &eo, &res, &err);
  if (st != MG_OK) fprintf(stderr, "replay: %s\n", err.msg);
  assert_int_equal(st, MG_OK);
  assert_int_equal(res.ran, 1);
  mg_deps_destroy(d);
  return res.time_s;
}

static double replay(th_sched *s, double o, double or_, mg_engine_sync sync) { return replay_on(s, o, or_, sync, 0); }

static void init(th_sched *s, mg_problem pb, const char *topo, double bytes) {
  char model[128];
  snprintf(model, sizeof model, "contention=shared,ts=0,td=%g,tl=%g", TD, TL);
  th_sched_init(s, pb, topo, model, 1);
  s->info.bytes = bytes;
}

static void near(double got, double want) {
  if (fabs(got - want) > 1e-9 * want + 1e-12) fail_msg("simulated %.12g s, expected %.12g s", got, want);
}

/* One message of 1 MB over 4 hops of line:5: 4 td + B tl, plus o and or. */
static void test_one_message(void **state) {
  (void)state;
  th_sched s;
  init(&s, MG_GOSSIP, "line:5", 1e6);
  th_add(&s, 0, mg_xfer(0, 4));
  near(replay(&s, 0, 0, MG_SYNC_DATA), 4 * TD + 1e6 * TL);
  near(replay(&s, 2e-4, 1e-4, MG_SYNC_DATA), 2e-4 + 4 * TD + 1e6 * TL + 1e-4);
  th_sched_free(&s);
}

/* line:3, round 0: 0 -> 1 (1 MB, node 0's item); round 1: 1 -> 2 node 1's
 * own item (100 kB), which does not depend on round 0. The data clock
 * sends it at once; the executor's clock (rank) first waits for the
 * receive of round 0. o = 1e-5, or = 2e-5. */
static void test_data_vs_rank(void **state) {
  (void)state;
  th_sched s;
  init(&s, MG_GOSSIP, "line:3", 1e6);
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 1, th_one_item(1, 2, 1));
  double o = 1e-5, orr = 2e-5, big = o + TD + 1e6 * TL + orr;
  /* data: both messages at once on different links; node 1's CPU takes
   * its send (o) first, the receive (or) after */
  near(replay(&s, o, orr, MG_SYNC_DATA), fmax(big, o + TD + 1e6 * TL + orr));
  near(replay(&s, o, orr, MG_SYNC_RANK), big + o + TD + 1e6 * TL + orr);
  th_sched_free(&s);
}

/* A dependency chain: 0 -> 1 then 1 -> 2 forwarding node 0's item:
 * 2 (o + td + B tl + or). */
static void test_chain(void **state) {
  (void)state;
  th_sched s;
  init(&s, MG_GOSSIP, "line:3", 5e5);
  th_add(&s, 0, mg_xfer(0, 1));
  th_add(&s, 1, th_one_item(1, 2, 0));
  near(replay(&s, 3e-5, 1e-5, MG_SYNC_DATA), 2 * (3e-5 + TD + 5e5 * TL + 1e-5));
  th_sched_free(&s);
}

/* Two flows into node 2 of line:3 share link 1 -> 2 (max-min: half the
 * bandwidth each): td = 0 here, both end at 2 B tl. */
static void test_sharing(void **state) {
  (void)state;
  th_sched s;
  th_sched_init(&s, MG_GOSSIP, "line:3", "contention=shared,ts=0,td=0,tl=1e-9", 1);
  s.info.bytes = 1e6;
  th_add(&s, 0, mg_xfer(0, 2));
  th_add(&s, 0, mg_xfer(1, 2));
  near(replay(&s, 0, 0, MG_SYNC_DATA), 2 * 1e6 * 1e-9);
  th_sched_free(&s);
}

/* SimGrid's SMPI network (its default smpi/bw-factor: 0.342 of the link
 * for a 1-KiB message): one 1-KiB message alone on line:3, then two that
 * share link 1 -> 2. The factor is not only a bound on a lone flow: the
 * two take twice as long as one, as the cost model's contention=fair with
 * bwf prices them (src/model/fair.c, tests/test_share_bound.c); a bound
 * alone would let both through in the time of one. */
/* On SimGrid's SMPI network: transfer a alone (into *alone), then a and b
 * in the same round (into *both); items of bytes each. */
static void smpi_pair(const char *topo, const char *model, double bytes, mg_transfer a, mg_transfer b, double *alone,
                      double *both) {
  th_sched s;
  network_smpi = 1;
  th_sched_init(&s, MG_GOSSIP, topo, model, 1);
  s.info.bytes = bytes;
  th_add(&s, 0, a);
  *alone = replay(&s, 0, 0, MG_SYNC_DATA);
  th_add(&s, 0, b);
  *both = replay(&s, 0, 0, MG_SYNC_DATA);
  network_smpi = 0;
  th_sched_free(&s);
}

static void test_smpi_factor_weighs(void **state) {
  (void)state;
  double one, two;
  smpi_pair("line:3", "contention=shared,ts=0,td=0,tl=1e-9", 1024, mg_xfer(0, 2), mg_xfer(1, 2), &one, &two);
  /* alone: 1024 B at 0.342 GB/s = 2.99 us (the 732-B step), plus latencies */
  if (!(one > 0.95 * 1024 * 1e-9 / 0.342 && one < 1.2 * 1024 * 1e-9 / 0.338)) fail_msg("one flow %.4g s", one);
  if (!(two > 1.8 * one && two < 2.1 * one)) fail_msg("two flows %.4g s, one %.4g s", two, one);
}

/* SimGrid's SMPI network has cross traffic on: a flow also takes 5% of
 * its share on its return route (network/crosstraffic). On ring:5 (a
 * TORUS cluster, as SMPI's platforms), 1 MB from 0 to 2 (+, two hops)
 * alone takes T; with 1 MB from 1 to 0 at the same time (arc 1 -> 0, which
 * the long flow only meets with its acknowledgements) it takes 1.525 T,
 * the hand figure of the cost model's ack=0.05 with share=hops
 * (tests/test_share_bound.c: acks_load_the_return_route). A flow's share
 * is in inverse proportion to its route length only once its latency is
 * paid (SimGrid gives a flow without latency the penalty 1): td = 1 ns. */
static void test_smpi_acks(void **state) {
  (void)state;
  double alone, both;
  smpi_pair("ring:5", "contention=shared,ts=0,td=1e-9,tl=1e-9", 1e6, mg_xfer(0, 2), mg_xfer(1, 0), &alone, &both);
  if (fabs(both / alone - 1.525) > 0.005) fail_msg("with the reverse flow %.4g s, alone %.4g s", both, alone);
}

/* Ties: on ring:4, 2 -> 0 is two hops either way. Ours go + (2 -> 3 -> 0)
 * and share link 3 -> 0 with the transfer 3 -> 0: both end at 2 B tl.
 * SimGrid's TORUS cluster (routes=simgrid) sends the tie - (2 -> 1 -> 0),
 * disjoint from 3 -> 0: B tl. td = 0. */
static void test_tie_routes(void **state) {
  (void)state;
  th_sched s;
  th_sched_init(&s, MG_GOSSIP, "ring:4", "contention=shared,ts=0,td=0,tl=1e-9", 1);
  s.info.bytes = 1e6;
  th_add(&s, 0, mg_xfer(2, 0));
  th_add(&s, 0, mg_xfer(3, 0));
  near(replay_on(&s, 0, 0, MG_SYNC_DATA, 0), 2 * 1e6 * 1e-9);
  near(replay_on(&s, 0, 0, MG_SYNC_DATA, 1), 1e6 * 1e-9);
  th_sched_free(&s);
}

/* Exchange: mpi-alltoall-direct on torus:3x3 at 1 kB per block, through
 * mg_engine_run; the replay moves exactly the bytes the simulator moved. */
static void test_engine_run(void **state) {
  (void)state;
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:3x3", "contention=shared,ts=0,td=1e-6,tl=1e-9", 1000);
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  assert_int_equal(mg_algo_lookup("mpi-alltoall-direct", &a, &ps, &err), MG_OK);
  mg_engine_opts eo;
  assert_int_equal(mg_engine_parse("simgrid:o=0", &eo, &err), MG_OK);
  mg_report rep;
  mg_engine_result res;
  assert_int_equal(mg_engine_run(a, &pb, &ps, NULL, &eo, mg_simgrid_replay, &rep, &res, &err), MG_OK);
  assert_true(rep.verified && res.ran);
  assert_int_equal(res.messages, 72);
  assert_int_equal(res.nondefault_routes, 0);
  /* every node sends 8 blocks at once: a node's busiest out-link carries
   * 3 of them (2 to its neighbours, 1 through to the far one) */
  assert_true(res.time_s >= 3 * 1000 * 1e-9 && res.time_s < 8 * 1000 * 1e-9 + 4e-6);
  mg_report_free(&rep);
  /* a mesh-bus is refused before anything runs */
  pb = th_problem(MG_GOSSIP, "meshbus:3", "switching=bus,ts=1,tl=1", 1);
  assert_int_equal(mg_algo_lookup("bus-simple", &a, &ps, &err), MG_OK);
  assert_int_equal(mg_engine_run(a, &pb, &ps, NULL, &eo, mg_simgrid_replay, &rep, &res, &err), MG_ERR_UNSUPPORTED);
  assert_int_equal(res.ran, 0);
}

/* A running child of process pid other than skip, or 0. */
static pid_t child_of(pid_t pid, pid_t skip) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
  FILE *f = fopen(path, "r");
  pid_t c = 0;
  for (int x; f && !c && fscanf(f, "%d", &x) == 1;)
    if (x != skip) c = x;
  if (f) fclose(f);
  return c;
}

/* Whether process pid holds the pipe of inode ino: 1, 0, or -1 when it is gone. */
static int holds_pipe(pid_t pid, ino_t ino) {
  char path[64], want[64], link[64];
  snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
  snprintf(want, sizeof want, "pipe:[%lu]", (unsigned long)ino);
  DIR *dir = opendir(path);
  if (!dir) return -1;
  int held = 0;
  for (struct dirent *e; (e = readdir(dir));) {
    char fd[352];
    snprintf(fd, sizeof fd, "%s/%s", path, e->d_name);
    ssize_t n = readlink(fd, link, sizeof link - 1);
    if (n > 0) link[n] = 0, held |= !strcmp(link, want);
  }
  closedir(dir);
  return held;
}

/* The watcher: waits for the replay's child of parent, looks at its
 * descriptors 20 ms after it appears. Exit 0: it does not hold the pipe,
 * 1: it does, 2: no child seen alive that long. */
static int watch(pid_t parent, ino_t ino) {
  pid_t c = 0;
  for (int i = 0; i < 20000 && !(c = child_of(parent, getpid())); i++)
    nanosleep(&(struct timespec){0, 500000}, NULL);
  if (!c) return 2;
  nanosleep(&(struct timespec){0, 20000000}, NULL);
  int h = holds_pipe(c, ino);
  return h < 0 ? 2 : h;
}

/* The replay's child holds none of the caller's descriptors: it kept them
 * all, among them the write end of the report pipe of a replay another
 * thread had just forked, which then waited for end of file until this
 * child had ended too. A pipe the test holds open while it replays must be
 * gone from the child's descriptors once it has started: a watcher
 * process, forked before the replay, looks in /proc. (No thread: under
 * ASan a fork while another thread holds the allocator's lock leaves the
 * child waiting on it for ever; glibc's malloc takes its locks around a
 * fork, the sanitizer's does not. A child ended before the watcher looked
 * decides nothing: skipped.) */
static void test_child_keeps_no_descriptor(void **state) {
  (void)state;
  int p[2];
  assert_int_equal(pipe(p), 0);
  struct stat sb;
  assert_int_equal(fstat(p[1], &sb), 0);
  fflush(NULL);
  pid_t parent = getpid(), w = fork();
  assert_true(w >= 0);
  if (w == 0) _exit(watch(parent, sb.st_ino));
  mg_problem_spec pb = th_problem(MG_EXCHANGE, "torus:8x8", "contention=shared,ts=0,td=1e-6,tl=1e-9", 1000);
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_engine_opts eo;
  mg_report rep;
  mg_engine_result res;
  assert_int_equal(mg_algo_lookup("mpi-alltoall-direct", &a, &ps, &err), MG_OK);
  assert_int_equal(mg_engine_parse("simgrid:o=0", &eo, &err), MG_OK);
  assert_int_equal(mg_engine_run(a, &pb, &ps, NULL, &eo, mg_simgrid_replay, &rep, &res, &err), MG_OK);
  assert_true(rep.verified && res.ran);
  mg_report_free(&rep);
  int status = 0;
  assert_int_equal(waitpid(w, &status, 0), w);
  close(p[0]);
  close(p[1]);
  assert_true(WIFEXITED(status));
  if (WEXITSTATUS(status) == 2) skip();
  if (WEXITSTATUS(status) != 0) fail_msg("the replay's child holds a pipe the test had open before it started");
}

/* In a child: loads the platform and checks, for every ordered pair, that
 * SimGrid's route has the hops of our default route and the latency
 * hops*td. Returns the number of mismatches (exit status). */
static int check_routes_child(const char *path, const mg_topo *t, double td) {
  int argc = 2;
  char *argv[] = {"test", "--log=root.thres:critical", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(path);
  int bad = 0;
  for (uint32_t a = 0; a < t->N; a++)
    for (uint32_t b = 0; b < t->N; b++) {
      if (a == b) continue;
      char na[32], nb[32];
      snprintf(na, sizeof na, "n%u", a);
      snprintf(nb, sizeof nb, "n%u", b);
      xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
      sg_host_get_route(sg_host_by_name(na), sg_host_by_name(nb), links);
      unsigned long h = xbt_dynar_length(links);
      double lat = sg_host_get_route_latency(sg_host_by_name(na), sg_host_by_name(nb));
      int64_t want = 0;
      for (int k = 0; k < t->d; k++)
        want += llabs(mg_topo_offset(t, k, a, b));
      /* direction of the first hop: ties must go + */
      if ((int64_t)h != want || fabs(lat - (double)want * td) > 1e-15) bad++;
      xbt_dynar_free(&links);
    }
  return bad > 255 ? 255 : bad;
}

static void check_routes(const char *topo) {
  mg_topo t;
  mg_model m;
  mg_err err = {{0}};
  assert_int_equal(mg_topo_parse(topo, &t, &err), MG_OK);
  mg_model_default(&m);
  m.tl = 1e-9;
  m.td = 1e-7;
  char path[] = "/tmp/mg-test-platform-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_int_equal(mg_platform_write(f, &t, &m, NULL, &err), MG_OK);
  fclose(f);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) _exit(check_routes_child(path, &t, m.td));
  int status;
  waitpid(pid, &status, 0);
  unlink(path);
  assert_true(WIFEXITED(status));
  if (WEXITSTATUS(status) != 0) fail_msg("%s: %d routes differ from ours", topo, WEXITSTATUS(status));
}

/* SimGrid's own routes on our platforms: the TORUS cluster (all odd) and
 * explicit routes (even torus, mesh, line). */
static void test_platform_routes(void **state) {
  (void)state;
  check_routes("torus:3x5");
  check_routes("ring:7");
  check_routes("torus:4x4");
  check_routes("mesh:3x4");
  check_routes("torus:3x2x3");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_message),     cmocka_unit_test(test_data_vs_rank),
      cmocka_unit_test(test_chain),           cmocka_unit_test(test_sharing),
      cmocka_unit_test(test_tie_routes),      cmocka_unit_test(test_smpi_factor_weighs),
      cmocka_unit_test(test_smpi_acks),       cmocka_unit_test(test_engine_run),
      cmocka_unit_test(test_platform_routes), cmocka_unit_test(test_child_keeps_no_descriptor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

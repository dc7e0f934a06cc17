/* contention=fair against SimGrid's flow model, round by round.
 *
 * For a few MPI baselines that share arcs, every round of the schedule is
 * priced three ways: the busiest-arc rule (contention=shared), our max-min
 * fair sharing (contention=fair, src/model/fair.c) and SimGrid's CM02
 * network model (max-min fair sharing of links, no latency factors), on a
 * platform with one host per node, one link per directed arc and the
 * default dimension-order route between every pair that talks. ts = td = 0
 * and links of 1e6 B/s (tl = 1e-6 s/B), so every figure is pure sharing.
 *
 * Built only when SimGrid is found (libsimgrid-dev). Each case runs in a
 * child process (SimGrid is initialised once per process).
 *
 *   build/simgrid_fair                       the default cases
 *   build/simgrid_fair ALGO TOPO [BYTES]      one case ("chain line:4": a
 *                                            hand-made round where fair and
 *                                            the busiest-arc rule differ)
 */
#include "meshgossip.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TL 1e-6 /* s per byte: 1e6 B/s links */

typedef struct xfer {
  int64_t round;
  uint32_t src, dst;
  long bytes;
} xfer;

typedef struct plan {
  mg_topo topo;
  xfer *x;
  size_t n, cap;
  int64_t rounds;
  double item_bytes;
} plan;

/* the one case this process simulates (SimGrid actors see it here) */
static plan the_plan;

static mg_status record(void *arg, const mg_resolved *res, mg_err *err) {
  plan *p = arg;
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 1024;
    xfer *nx = realloc(p->x, cap * sizeof *nx);
    if (!nx) {
      snprintf(err->msg, sizeof err->msg, "out of memory");
      return MG_ERR_NOMEM;
    }
    p->x = nx;
    p->cap = cap;
  }
  p->x[p->n++] = (xfer){res->round, res->tr->src, res->tr->dst, lround((double)res->nitems * p->item_bytes)};
  if (res->round + 1 > p->rounds) p->rounds = res->round + 1;
  return MG_OK;
}

static int run_model(const char *algo, const char *topo, double bytes, const char *contention, mg_report *rep,
                     plan *p) {
  const mg_algo *a;
  mg_params ps;
  mg_err err = {{0}};
  mg_problem_spec pb;
  memset(&pb, 0, sizeof pb);
  char model[128];
  snprintf(model, sizeof model, "contention=%s,ts=0,td=0,tl=%g", contention, TL);
  if (mg_algo_lookup(algo, &a, &ps, &err) != MG_OK || mg_topo_parse(topo, &pb.topo, &err) != MG_OK) {
    fprintf(stderr, "simgrid_fair: %s\n", err.msg);
    return 0;
  }
  pb.problem = a->problem;
  mg_model_default(&pb.model);
  if (mg_model_parse(model, &pb.model, &err) != MG_OK) return 0;
  pb.bytes = bytes;
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  o.keep_round_costs = 1;
  if (p) {
    p->topo = pb.topo;
    p->item_bytes = bytes; /* every baseline has P = 1 */
    o.on_resolved = record;
    o.on_resolved_arg = p;
  }
  if (mg_run(a, &pb, &ps, &o, rep, &err) != MG_OK || !rep->verified) {
    fprintf(stderr, "simgrid_fair: %s on %s: %s\n", algo, topo, err.msg);
    return 0;
  }
  return 1;
}

static mg_transfer piece(uint32_t src, uint32_t dst, uint32_t pc) {
  mg_transfer t = mg_xfer(src, dst);
  t.sel.flags = MG_SEL_PIECE;
  t.sel.piece = pc;
  return t;
}

/* "chain": one hand-made round on line:4 (tests/test_fair.c) where the
 * busiest-arc rule and fair sharing differ: arcs e1 = 0->1, e2 = 1->2,
 * e3 = 2->3 carry {A1, A2, B}, {B, C}, {C, D1, D2}; A and D are one piece,
 * B and C two. Fair: 5 pieces' time, busiest arc: 4. The round alone is
 * not a gossip, so the run ends incomplete; its price is what counts. */
static int run_chain(double bytes, const char *contention, mg_report *rep, plan *p) {
  mg_err err = {{0}};
  mg_schedule_info info;
  memset(&info, 0, sizeof info);
  info.problem = MG_GOSSIP;
  char model[128];
  snprintf(model, sizeof model, "contention=%s,ts=0,td=0,tl=%g", contention, TL);
  mg_topo_parse("line:4", &info.topo, &err);
  mg_model_default(&info.model);
  if (mg_model_parse(model, &info.model, &err) != MG_OK) return 0;
  info.bytes = 2 * bytes;
  info.pieces = 2;
  info.rounds_hint = 1;
  snprintf(info.algorithm, sizeof info.algorithm, "chain");
  mg_sim_opts o;
  memset(&o, 0, sizeof o);
  o.keep_round_costs = 1;
  if (p) {
    p->topo = info.topo;
    p->item_bytes = bytes;
    o.on_resolved = record;
    o.on_resolved_arg = p;
  }
  mg_round r;
  mg_round_init(&r);
  mg_transfer t[6] = {piece(0, 1, 0), piece(0, 1, 1), mg_xfer(0, 2), mg_xfer(1, 3), piece(2, 3, 0), piece(2, 3, 1)};
  int ok = 1;
  for (int i = 0; i < 6; i++)
    ok = ok && mg_round_add(&r, &t[i]);
  mg_sim *sim = NULL;
  if (!ok || mg_sim_create(&o, &sim, &err) != MG_OK) {
    mg_round_free(&r);
    return 0;
  }
  mg_sink k = mg_sim_sink(sim);
  mg_status st = k.begin(k.ctx, &info, &err);
  if (st == MG_OK) st = k.round(k.ctx, &r, &err);
  if (st == MG_OK) st = k.end(k.ctx, &err);
  mg_sim_take_report(sim, rep);
  mg_sim_destroy(sim);
  mg_round_free(&r);
  return st == MG_ERR_VIOLATION && rep->violation.rule == MG_RULE_INCOMPLETE && rep->n_round_costs == 1;
}

static int produce(const char *algo, const char *topo, double bytes, const char *contention, mg_report *rep, plan *p) {
  if (!strcmp(algo, "chain")) return run_chain(bytes, contention, rep, p);
  return run_model(algo, topo, bytes, contention, rep, p);
}

/* Writes the platform: hosts n<id>, links a<node>_<dim><+|->, and the
 * dimension-order route of every (src, dst) pair of the plan. */
static int write_platform(const plan *p, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return 0;
  const mg_topo *t = &p->topo;
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n<zone id=\"torus\" routing=\"Full\">\n");
  for (uint32_t v = 0; v < t->N; v++)
    fprintf(f, "  <host id=\"n%u\" speed=\"1Gf\"/>\n", v);
  for (uint32_t v = 0; v < t->N; v++)
    for (int k = 0; k < t->d; k++)
      for (int dir = -1; dir <= 1; dir += 2)
        if (mg_topo_step(t, v, k, dir) != UINT32_MAX)
          fprintf(f, "  <link id=\"a%u_%d%c\" bandwidth=\"%gBps\" latency=\"0\"/>\n", v, k, dir > 0 ? 'p' : 'm',
                  1.0 / TL);
  uint8_t *seen = calloc((size_t)t->N * t->N, 1);
  if (!seen) {
    fclose(f);
    return 0;
  }
  for (size_t i = 0; i < p->n; i++) {
    uint32_t a = p->x[i].src, b = p->x[i].dst;
    if (seen[(size_t)a * t->N + b]++) continue;
    fprintf(f, "  <route src=\"n%u\" dst=\"n%u\" symmetrical=\"NO\">", a, b);
    uint32_t cur = a;
    for (int k = 0; k < t->d; k++) {
      int64_t off = mg_topo_offset(t, k, a, b);
      int dir = off < 0 ? -1 : 1;
      for (int64_t h = 0; h < (off < 0 ? -off : off); h++) {
        fprintf(f, "<link_ctn id=\"a%u_%d%c\"/>", cur, k, dir > 0 ? 'p' : 'm');
        cur = mg_topo_step(t, cur, k, dir);
      }
    }
    fprintf(f, "</route>\n");
  }
  free(seen);
  fprintf(f, "</zone>\n</platform>\n");
  return fclose(f) == 0;
}

static sg_bar_t round_done;

static void sender(int argc, char **argv) {
  static int token;
  (void)argc;
  sg_mailbox_put(sg_mailbox_by_name(argv[1]), &token, atol(argv[2]));
}

static void receiver(int argc, char **argv) {
  (void)argc;
  sg_mailbox_get(sg_mailbox_by_name(argv[1]));
  sg_barrier_wait(round_done);
}

/* Starts every transfer of a round at once, waits for the last one and
 * prints the round's duration. */
static void controller(int argc, char **argv) {
  (void)argc;
  (void)argv;
  const plan *p = &the_plan;
  size_t i = 0;
  for (int64_t r = 0; r < p->rounds; r++) {
    size_t first = i;
    while (i < p->n && p->x[i].round == r)
      i++;
    double t0 = simgrid_get_clock();
    round_done = sg_barrier_init((unsigned)(i - first + 1));
    for (size_t k = first; k < i; k++) {
      char box[64], size[32];
      snprintf(box, sizeof box, "r%lld_%zu", (long long)r, k);
      snprintf(size, sizeof size, "%ld", p->x[k].bytes);
      char *sa[3] = {"send", box, size}, *ra[2] = {"recv", box};
      char hs[32], hd[32];
      snprintf(hs, sizeof hs, "n%u", p->x[k].src);
      snprintf(hd, sizeof hd, "n%u", p->x[k].dst);
      sg_actor_create("send", sg_host_by_name(hs), sender, 3, sa);
      sg_actor_create("recv", sg_host_by_name(hd), receiver, 2, ra);
    }
    sg_barrier_wait(round_done);
    sg_barrier_destroy(round_done);
    printf("SG %lld %.9g\n", (long long)r, simgrid_get_clock() - t0);
    fflush(stdout);
  }
}

/* Child: simulate the plan's rounds in SimGrid, print "SG round seconds". */
static int simgrid_child(const char *platform) {
  int argc = 4;
  char *argv[] = {"simgrid_fair", "--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                  "--log=root.thres:critical", NULL};
  simgrid_init(&argc, argv);
  simgrid_load_platform(platform);
  sg_actor_create("controller", sg_host_by_name("n0"), controller, 0, NULL);
  simgrid_run();
  return 0;
}

static void one_case(const char *algo, const char *topo, double bytes) {
  mg_report shared, fair;
  plan p;
  memset(&p, 0, sizeof p);
  if (!produce(algo, topo, bytes, "shared", &shared, NULL) || !produce(algo, topo, bytes, "fair", &fair, &p)) return;
  char platform[] = "/tmp/meshgossip-simgrid-XXXXXX";
  int fd = mkstemp(platform);
  if (fd < 0) return;
  close(fd);
  int pipefd[2];
  if (!write_platform(&p, platform) || pipe(pipefd) != 0) {
    unlink(platform);
    return;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(pipefd[0]);
    dup2(pipefd[1], 1);
    the_plan = p;
    _exit(simgrid_child(platform));
  }
  close(pipefd[1]);
  double *sg = calloc((size_t)p.rounds + 1, sizeof(double));
  FILE *in = fdopen(pipefd[0], "r");
  char line[256];
  while (in && sg && fgets(line, sizeof line, in)) {
    long long r;
    double v;
    if (sscanf(line, "SG %lld %lf", &r, &v) == 2 && r >= 0 && r < p.rounds) sg[r] = v;
  }
  if (in) fclose(in);
  int status;
  waitpid(pid, &status, 0);
  unlink(platform);
  printf("%s on %s, %g bytes, links 1e6 B/s, ts = td = 0 (ms)\n", algo, topo, bytes);
  printf("  %5s %9s %12s %12s %12s %9s\n", "round", "transfers", "shared", "fair", "SimGrid", "fair/SG");
  double ts = 0, tf = 0, tg = 0;
  size_t i = 0;
  for (int64_t r = 0; r < p.rounds && sg; r++) {
    size_t cnt = 0;
    while (i < p.n && p.x[i].round == r)
      i++, cnt++;
    double s = shared.round_costs[r], f = fair.round_costs[r];
    ts += s, tf += f, tg += sg[r];
    printf("  %5lld %9zu %12.4f %12.4f %12.4f %9.4f\n", (long long)r, cnt, s * 1e3, f * 1e3, sg[r] * 1e3,
           sg[r] > 0 ? f / sg[r] : NAN);
  }
  printf("  %5s %9s %12.4f %12.4f %12.4f %9.4f\n\n", "total", "", ts * 1e3, tf * 1e3, tg * 1e3, tg > 0 ? tf / tg : NAN);
  free(sg);
  free(p.x);
  mg_report_free(&shared);
  mg_report_free(&fair);
}

int main(int argc, char **argv) {
  if (argc >= 3) {
    one_case(argv[1], argv[2], argc > 3 ? atof(argv[3]) : 1000);
    return 0;
  }
  one_case("mpi-allgather-bruck", "torus:4x4", 1000);
  one_case("mpi-allgather-rd", "ring:12", 1000);
  one_case("mpi-allgather-direct", "mesh:3x3", 1000);
  one_case("mpi-alltoall-pairwise", "mesh:3x5", 1000);
  one_case("mpi-alltoall-bruck", "torus:3x3x2", 1000);
  one_case("mpi-allgather-neighbor", "mesh:4x4", 1000);
  one_case("chain", "line:4", 1000);
  return 0;
}

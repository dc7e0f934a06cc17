/* The S4U replay: a verified schedule timed on SimGrid's flow-level network
 * (Casanova, Giersch, Legrand, Quinson, Suter, "Versatile, scalable, and
 * accurate simulation of distributed applications and platforms").
 *
 * One actor per node; each transfer is one message of its exact bytes on a
 * mailbox of its (sender, receiver) pair. The platform holds every grid
 * edge as a full-duplex link (platform.c) and, per pair that talks, the
 * route the schedule's transfer walked (Full routing); an all-odd torus on
 * default routes uses SimGrid's TORUS cluster instead (same routes, no
 * N^2 routing table).
 *
 * Clocks (mg_engine_sync):
 *   data  a node posts its sends in the plan's order (round, then index);
 *         a send waits until every transfer it depends on (src/schedule/
 *         deps.c: what delivered its items to the sender) has been
 *         received, then the sender's CPU pays o and the message leaves
 *         without the sender waiting for it; the receiver keeps up to
 *         WINDOW receives posted per pair, so a message flows as soon as
 *         it is sent unless WINDOW earlier ones of its pair are still
 *         unreceived (then it waits for a posted receive, as MPI's
 *         rendezvous would);
 *   rank  the MPI executor's order (src/mpi/exec.c): per round the node
 *         takes part in, it posts that round's receives, then its sends
 *         (o each), then waits for the receives, and for its sends of at
 *         least `detach` bytes (SMPI's send-is-detached-thresh: smaller
 *         sends complete at once); a message flows once its receive is
 *         posted (rendezvous).
 * Each received message costs the receiver's CPU `or`, paid when the actor
 * takes it (a node's CPU is one actor, so o and or serialise).
 *
 * Messages between one pair match the receiver's receives in the order
 * they were sent (a mailbox is FIFO), so the j-th receive of a pair gets
 * its j-th transfer; a short message overtaking a long one of the same
 * pair is seen at once as long as both receives are posted.
 *
 * SimGrid can be initialised once per process and aborts on internal
 * errors, so every replay runs in a forked child that reports its clock
 * through a pipe; the child's peak RSS comes from wait4. */
#include "meshgossip_engine.h"

#include "../../schedule/deps.h"
#include "../../util/internal.h"
#include "../engine_internal.h"

#include <math.h>
#include <errno.h>
#include <inttypes.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define WINDOW 8

typedef struct plan {
  const mg_deps *d;
  const mg_dep_xfer *x;
  size_t n;
  uint32_t N;
  double o, or_;
  double detach; /* rank clock: sends of at least this many bytes block */
  mg_engine_sync sync;
  /* pairs: id per transfer, (src, dst) per pair */
  uint32_t *pair_of; /* [n] */
  uint32_t *pair_src, *pair_dst;
  uint32_t *pair_rep; /* per pair: a transfer that walks its route */
  size_t npairs;
  /* CSR per node: outgoing transfers, incoming transfers (t order) */
  uint64_t *out_start, *in_start;
  uint32_t *out_ev, *in_ev;
  /* CSR per pair: its transfers in t order; per node: its incoming pairs */
  uint64_t *pair_start, *pin_start;
  uint32_t *pair_ev, *pin_ev;
  /* child state */
  uint8_t *received;
  void **slot; /* [n]: where each message's payload lands */
  sg_mailbox_t *mbox;
} plan;

typedef struct node_ctx {
  plan *p;
  uint32_t v;
} node_ctx;

static void mbox_name(char *buf, size_t len, uint32_t pair) { snprintf(buf, len, "p%" PRIu32, pair); }

static sg_mailbox_t mailbox(plan *p, uint32_t pair) {
  if (!p->mbox[pair]) {
    char name[32];
    mbox_name(name, sizeof name, pair);
    p->mbox[pair] = sg_mailbox_by_name(name);
  }
  return p->mbox[pair];
}

/* Outstanding receives of one node (data clock). */
typedef struct inbox {
  sg_comm_t *h;
  uint32_t *ht;    /* the transfer each handle receives */
  uint32_t *hpair; /* incoming-pair position of each handle */
  size_t nh;
  uint64_t *next;   /* per incoming pair: next transfer index to post */
  uint64_t *posted; /* per incoming pair: receives posted */
  uint64_t received;
} inbox;

static void post_more(plan *p, inbox *ib, uint64_t k) {
  uint32_t pair = p->pin_ev[k];
  uint64_t count = p->pair_start[pair + 1] - p->pair_start[pair];
  while (ib->posted[k] < count && ib->posted[k] - ib->next[k] < WINDOW) {
    /* a pair's messages match its receives in order (FIFO mailbox) */
    uint32_t t = p->pair_ev[p->pair_start[pair] + ib->posted[k]];
    ib->hpair[ib->nh] = (uint32_t)k;
    ib->ht[ib->nh] = t;
    ib->h[ib->nh] = sg_mailbox_get_async(mailbox(p, pair), &p->slot[t]);
    ib->nh++;
    ib->posted[k]++;
  }
}

/* Takes one received message: waits for any outstanding receive, pays or. */
static void take_one(plan *p, inbox *ib) {
  ssize_t i = sg_comm_wait_any(ib->h, ib->nh);
  if (i < 0) return;
  uint32_t t = ib->ht[i];
  uint32_t k = ib->hpair[i];
  p->received[t] = 1;
  ib->received++;
  ib->next[k]++;
  ib->nh--;
  ib->h[i] = ib->h[ib->nh];
  ib->ht[i] = ib->ht[ib->nh];
  ib->hpair[i] = ib->hpair[ib->nh];
  post_more(p, ib, k);
  if (p->or_ > 0) sg_actor_sleep_for(p->or_);
}

/* A node's sends still in flight. Sends are not detached: SimGrid keeps
 * detached activities in one global list that every completion scans,
 * which is quadratic at thousands of messages in flight; an actor's own
 * list stays short when finished sends are reaped as it grows. */
typedef struct outbox {
  sg_comm_t *h;
  size_t n, cap;
} outbox;

static void send_one(plan *p, outbox *ob, uint32_t t) {
  if (p->o > 0) sg_actor_sleep_for(p->o);
  if (ob->n == ob->cap) {
    size_t keep = 0;
    for (size_t i = 0; i < ob->n; i++)
      if (!sg_comm_test(ob->h[i])) ob->h[keep++] = ob->h[i];
    ob->n = keep;
    if (ob->n * 2 >= ob->cap) {
      ob->cap = ob->cap ? 2 * ob->cap : 64;
      ob->h = realloc(ob->h, ob->cap * sizeof *ob->h);
      if (!ob->h) abort(); /* child process: the parent reports it */
    }
  }
  ob->h[ob->n++] =
      sg_mailbox_put_async(mailbox(p, p->pair_of[t]), (void *)((uintptr_t)t + 1), (long)(p->x[t].bytes + 0.5));
}

/* An actor's unfinished activities die with it: wait for the sends. */
static void outbox_drain(outbox *ob) {
  if (ob->n) sg_comm_wait_all(ob->h, ob->n);
  free(ob->h);
}

static void node_data(plan *p, uint32_t v) {
  uint64_t k0 = p->pin_start[v], k1 = p->pin_start[v + 1], npin = k1 - k0;
  inbox ib;
  outbox ob = {NULL, 0, 0};
  memset(&ib, 0, sizeof ib);
  ib.h = calloc(npin * WINDOW + 1, sizeof *ib.h);
  ib.ht = calloc(npin * WINDOW + 1, sizeof *ib.ht);
  ib.hpair = calloc(npin * WINDOW + 1, sizeof *ib.hpair);
  /* indexed by the position k in pin_ev (global), offset by k0 */
  uint64_t *next = calloc(npin + 1, sizeof *next), *posted = calloc(npin + 1, sizeof *posted);
  if (!ib.h || !ib.ht || !ib.hpair || !next || !posted) abort(); /* child process: the parent reports it */
  ib.next = next - k0;
  ib.posted = posted - k0;
  for (uint64_t k = k0; k < k1; k++)
    post_more(p, &ib, k);
  for (uint64_t i = p->out_start[v]; i < p->out_start[v + 1]; i++) {
    uint32_t t = p->out_ev[i];
    size_t nd;
    const uint32_t *dep = mg_deps_of(p->d, t, &nd);
    for (size_t j = 0; j < nd; j++)
      while (!p->received[dep[j]])
        take_one(p, &ib);
    send_one(p, &ob, t);
  }
  uint64_t total = p->in_start[v + 1] - p->in_start[v];
  while (ib.received < total)
    take_one(p, &ib);
  outbox_drain(&ob);
  free(ib.h);
  free(ib.ht);
  free(ib.hpair);
  free(next);
  free(posted);
}

static void node_rank(plan *p, uint32_t v) {
  uint64_t in = p->in_start[v], in_end = p->in_start[v + 1];
  uint64_t out = p->out_start[v], out_end = p->out_start[v + 1];
  size_t cap = 16;
  outbox ob = {NULL, 0, 0};
  sg_comm_t *h = malloc(cap * sizeof *h);
  if (!h) abort();
  while (in < in_end || out < out_end) {
    int64_t r = INT64_MAX;
    if (in < in_end) r = p->x[p->in_ev[in]].round;
    if (out < out_end && p->x[p->out_ev[out]].round < r) r = p->x[p->out_ev[out]].round;
    size_t nh = 0;
    for (; in < in_end && p->x[p->in_ev[in]].round == r; in++) {
      if (nh == cap) {
        cap *= 2;
        h = realloc(h, cap * sizeof *h);
        if (!h) abort();
      }
      uint32_t t = p->in_ev[in];
      h[nh] = sg_mailbox_get_async(mailbox(p, p->pair_of[t]), &p->slot[t]);
      nh++;
    }
    /* sends of at least `detach` bytes are not detached (SMPI's
     * send-is-detached-thresh): the round's waitall waits for them too */
    outbox big = {NULL, 0, 0};
    for (; out < out_end && p->x[p->out_ev[out]].round == r; out++)
      send_one(p, p->x[p->out_ev[out]].bytes >= p->detach ? &big : &ob, p->out_ev[out]);
    while (nh > 0) {
      ssize_t i = sg_comm_wait_any(h, nh);
      if (i < 0) break;
      nh--;
      h[i] = h[nh];
      if (p->or_ > 0) sg_actor_sleep_for(p->or_);
    }
    outbox_drain(&big);
  }
  free(h);
  outbox_drain(&ob);
}

static void node_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  node_ctx *c = sg_actor_self_get_data();
  if (c->p->sync == MG_SYNC_DATA)
    node_data(c->p, c->v);
  else
    node_rank(c->p, c->v);
}

typedef struct child_report {
  double time_s;
  int ok;
} child_report;

static int child_run(plan *p, const char *platform, int network_smpi, int fd) {
  char *argv[12];
  int argc = 0;
  argv[argc++] = "meshgossip";
  if (network_smpi) {
    argv[argc++] = "--cfg=network/model:SMPI";
  } else {
    argv[argc++] = "--cfg=network/model:CM02";
    argv[argc++] = "--cfg=network/crosstraffic:0";
  }
  /* smpirun's time precision; the LMM solver's precision stays at its
   * default (SimGrid 3.32's solver crashed at 1e-9 on 16x16 alltoall) */
  argv[argc++] = "--cfg=surf/precision:1e-9";
  argv[argc++] = "--cfg=contexts/stack-size:128";
  argv[argc++] = getenv("MG_SG_DEBUG") ? "--log=root.thres:info" : "--log=root.thres:critical";
  /* one more SimGrid setting for experiments (docs/engine.md), e.g.
   * MG_SG_CFG=--cfg=network/crosstraffic:0 */
  if (getenv("MG_SG_CFG") && getenv("MG_SG_CFG")[0]) argv[argc++] = getenv("MG_SG_CFG");
  argv[argc] = NULL;
  simgrid_init(&argc, argv);
  simgrid_load_platform(platform);
  p->received = calloc(p->n + 1, 1);
  p->mbox = calloc(p->npairs + 1, sizeof *p->mbox);
  p->slot = calloc(p->n + 1, sizeof *p->slot);
  node_ctx *ctx = calloc((size_t)p->N, sizeof *ctx);
  if (!p->received || !p->mbox || !p->slot || !ctx) return 1;
  for (uint32_t v = 0; v < p->N; v++) {
    char name[32];
    snprintf(name, sizeof name, MG_PLATFORM_HOST_PREFIX "%" PRIu32, v);
    ctx[v] = (node_ctx){p, v};
    sg_host_t host = sg_host_by_name(name);
    if (!host) return 1;
    sg_actor_t a = sg_actor_init(name, host);
    sg_actor_set_data(a, &ctx[v]);
    sg_actor_start_(a, node_main, 0, NULL);
  }
  simgrid_run();
  child_report rep = {simgrid_get_clock(), 1};
  if (write(fd, &rep, sizeof rep) != (ssize_t)sizeof rep) return 1;
  return 0;
}

/* ---- building the plan in the parent ---------------------------------- */

static uint64_t hash64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return k;
}

static void plan_free(plan *p) {
  free(p->pair_of);
  free(p->pair_src);
  free(p->pair_dst);
  free(p->pair_rep);
  free(p->out_start);
  free(p->in_start);
  free(p->out_ev);
  free(p->in_ev);
  free(p->pair_start);
  free(p->pin_start);
  free(p->pair_ev);
  free(p->pin_ev);
}

/* CSR of n items with key[i] in [0, nkeys): start[nkeys+1], ev in order. */
static int csr(size_t n, uint64_t nkeys, const uint32_t *key, uint64_t **start, uint32_t **ev) {
  *start = mg_calloc(nkeys + 1, sizeof **start);
  *ev = mg_calloc(n + 1, sizeof **ev);
  uint64_t *fill = mg_calloc(nkeys + 1, sizeof *fill);
  if (!*start || !*ev || !fill) {
    free(fill);
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    (*start)[key[i] + 1]++;
  for (uint64_t k = 0; k < nkeys; k++)
    (*start)[k + 1] += (*start)[k];
  for (size_t i = 0; i < n; i++)
    (*ev)[(*start)[key[i]] + fill[key[i]]++] = (uint32_t)i;
  free(fill);
  return 1;
}

static mg_status build_plan(const mg_deps *d, plan *p, uint64_t *nondefault, mg_err *err) {
  mg_status st = MG_OK;
  p->d = d;
  p->x = mg_deps_xfers(d);
  p->n = mg_deps_count(d);
  p->N = mg_deps_info(d)->topo.N;
  size_t n = p->n, cap = 64;
  while (cap < 2 * n + 2)
    cap *= 2;
  uint64_t *key = mg_calloc(cap, sizeof *key);
  uint32_t *val = mg_calloc(cap, sizeof *val);
  uint32_t *src = mg_calloc(n + 1, sizeof *src), *dst = mg_calloc(n + 1, sizeof *dst);
  p->pair_of = mg_calloc(n + 1, sizeof *p->pair_of);
  p->pair_src = mg_calloc(n + 1, sizeof *p->pair_src);
  p->pair_dst = mg_calloc(n + 1, sizeof *p->pair_dst);
  p->pair_rep = mg_calloc(n + 1, sizeof *p->pair_rep);
  if (!key || !val || !src || !dst || !p->pair_of || !p->pair_src || !p->pair_dst || !p->pair_rep) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the replay plan");
    goto out;
  }
  *nondefault = 0;
  for (size_t t = 0; t < n; t++) {
    const mg_dep_xfer *y = &p->x[t];
    src[t] = y->src;
    dst[t] = y->dst;
    if (y->route_id != MG_DEP_NONE) ++*nondefault;
    uint64_t k = ((uint64_t)y->src << 32 | y->dst) + 1;
    size_t i = hash64(k) & (cap - 1);
    while (key[i] && key[i] != k)
      i = (i + 1) & (cap - 1);
    if (!key[i]) {
      key[i] = k;
      val[i] = (uint32_t)p->npairs;
      p->pair_src[p->npairs] = y->src;
      p->pair_dst[p->npairs] = y->dst;
      p->pair_rep[p->npairs] = (uint32_t)t;
      p->npairs++;
    } else {
      /* SimGrid routes per host pair: one route per pair */
      uint32_t r = p->pair_rep[val[i]];
      int na, nb;
      const mg_seg *ra = mg_deps_route(d, r, &na), *rb = mg_deps_route(d, t, &nb);
      if ((ra == NULL) != (rb == NULL) || (ra && (na != nb || memcmp(ra, rb, (size_t)na * sizeof *ra) != 0))) {
        st = mg_fail(err, MG_ERR_UNSUPPORTED,
                     "transfers %" PRIu32 " -> %" PRIu32 " take two different routes (rounds %lld and %lld); a "
                     "SimGrid platform has one route per host pair",
                     y->src, y->dst, (long long)p->x[r].round, (long long)y->round);
        goto out;
      }
    }
    p->pair_of[t] = val[i];
  }
  if (!csr(n, p->N, src, &p->out_start, &p->out_ev) || !csr(n, p->N, dst, &p->in_start, &p->in_ev) ||
      !csr(n, p->npairs, p->pair_of, &p->pair_start, &p->pair_ev) ||
      !csr(p->npairs, p->N, p->pair_dst, &p->pin_start, &p->pin_ev))
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the replay plan");
out:
  free(key);
  free(val);
  free(src);
  free(dst);
  return st;
}

static int all_odd_torus(const mg_topo *t) {
  for (int k = 0; k < t->d; k++)
    if (!t->wrap[k] || t->n[k] % 2 == 0) return 0;
  return 1;
}

/* The replay's platform: the TORUS cluster (all-odd torus, default routes)
 * or the schedule's own (mg_platform_write_routed: every grid link, the
 * route of each pair that talks and the default route back of one-way
 * pairs, where SimGrid's cross traffic goes). */
static mg_status write_platform(const plan *p, const mg_model *m, uint64_t nondefault, int simgrid_routes,
                                const char *path, mg_err *err) {
  const mg_topo *t = &mg_deps_info(p->d)->topo;
  FILE *f = fopen(path, "w");
  if (!f) return mg_fail(err, MG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  mg_status st;
  mg_platform_opts po = {0, simgrid_routes, 0};
  if ((nondefault == 0 && all_odd_torus(t)) || (simgrid_routes && mg_topo_is_torus(t)))
    st = mg_platform_write(f, t, m, &po, err);
  else
    st = mg_platform_write_routed(f, p->d, m, "meshgossip replay platform: the routes this schedule takes", err);
  if (ferror(f) && st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error on %s", path);
  if (fclose(f) != 0 && st == MG_OK) st = mg_fail(err, MG_ERR_IO, "write error on %s", path);
  return st;
}

mg_status mg_simgrid_replay(const mg_deps *d, const mg_engine_opts *eo, mg_engine_result *res, mg_err *err) {
  plan p;
  memset(&p, 0, sizeof p);
  memset(res, 0, sizeof *res);
  const mg_schedule_info *info = mg_deps_info(d);
  double t0 = mg_now();
  uint64_t nondefault = 0;
  char platform[] = "/tmp/meshgossip-platform-XXXXXX";
  int fd = -1, pipefd[2] = {-1, -1}, slot = -1;
  mg_status st = MG_OK;
  if (info->topo.kind != MG_TOPO_GRID)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "the simgrid engine replays meshes and tori only");
  mg_model links = info->model;
  if (eo->link_tl > 0) links.tl = eo->link_tl;
  if (eo->link_td >= 0) links.td = eo->link_td;
  if (!(links.tl > 0) || !isfinite(1.0 / links.tl))
    return mg_fail(err, MG_ERR_INVALID, "the simgrid engine needs tl > 0 with 1/tl a finite bandwidth, not tl=%g",
                   links.tl);
  /* a transfer time past a double: SimGrid declares a deadlock (with a
   * page of backtrace) and the time comes back inf; no message carries
   * more than N blocks of N nodes, so this refuses no real instance */
  double most = (double)info->topo.N * (double)info->topo.N * (double)info->bytes;
  if (!isfinite(most * links.tl))
    return mg_fail(err, MG_ERR_INVALID,
                   "the simgrid engine's links (tl=%g) make a message's time past a double: give fewer bytes",
                   links.tl);
  /* the engine's own o/or win; else the model's per-message overheads; a
   * model without them (the papers' t_s only) pays t_s on the CPU */
  p.o = eo->o >= 0 ? eo->o : info->model.o > 0 ? info->model.o : info->model.ts;
  p.or_ = eo->or_ >= 0 ? eo->or_ : info->model.orecv;
  p.sync = eo->sync;
  p.detach = eo->detach > 0 ? eo->detach : 1e300;
  MG_CHECK(build_plan(d, &p, &nondefault, err));
  fd = mg_pending_mkstemp(platform, &slot); /* the CLI's signal handler removes it */
  if (fd < 0) {
    st = mg_fail(err, MG_ERR_IO, "cannot create a temporary platform file: %s", strerror(errno));
    goto out;
  }
  close(fd);
  MG_CHECK(write_platform(&p, &links, nondefault, eo->simgrid_routes, platform, err));
  if (pipe(pipefd) != 0) {
    st = mg_fail(err, MG_ERR_IO, "pipe: %s", strerror(errno));
    goto out;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    st = mg_fail(err, MG_ERR_IO, "fork: %s", strerror(errno));
    goto out;
  }
  if (pid == 0) {
    /* the child keeps stdio and its report pipe only: it inherited every
     * descriptor of the caller, among them the write end of the report
     * pipe of a replay another thread had just forked, whose parent then
     * waited for end of file until this child too had ended */
    int w = pipefd[1];
    if (w > 3) close_range(3, (unsigned)w - 1, 0);
    close_range(w >= 3 ? (unsigned)w + 1 : 3u, ~0u, 0);
    _exit(child_run(&p, platform, eo->network_smpi, w));
  }
  close(pipefd[1]);
  pipefd[1] = -1;
  child_report rep = {0, 0};
  ssize_t got = read(pipefd[0], &rep, sizeof rep);
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  if (got != (ssize_t)sizeof rep || !rep.ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    st = mg_fail(err, MG_ERR_IO, "the SimGrid replay failed (%s %d)", WIFSIGNALED(status) ? "signal" : "exit status",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    goto out;
  }
  /* a time past a double (tl=1e300 and a gigabyte) is no figure, as a
   * cost is not (sim.c); SimGrid's own deadlock report goes with it */
  if (!isfinite(rep.time_s)) {
    st = mg_fail(err, MG_ERR_INVALID, "the SimGrid replay's time is not finite under these links: give fewer bytes");
    goto out;
  }
  res->ran = 1;
  res->time_s = rep.time_s;
  res->messages = p.n;
  res->nondefault_routes = nondefault;
  res->o = p.o;
  res->or_ = p.or_;
  res->wall_s = mg_now() - t0;
  res->cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
               1e-6 * (double)ru.ru_stime.tv_usec;
  res->peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024u; /* the SimGrid process */
  if (nondefault)
    snprintf(res->note, sizeof res->note, "%" PRIu64 " transfers take routes of their own (replayed on them)",
             nondefault);
out:
  if (pipefd[0] >= 0) close(pipefd[0]);
  if (pipefd[1] >= 0) close(pipefd[1]);
  unlink(platform);
  mg_pending_drop(slot);
  plan_free(&p);
  return st;
}

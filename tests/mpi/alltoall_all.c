/* Alltoall over MPI: every registered exchange algorithm (and "auto") on
 * every arrangement of the ranks, plus a store-and-forward ring exchange
 * written here (blocks travel through every intermediate rank, so the
 * planner's transit slots are exercised whatever the registry holds), and
 * blocks that leave their destination and come back (bounce-ring,
 * return-gathered).
 * Checks: bytes with a persistent plan started twice, MPI_IN_PLACE, a vector
 * receive type, count 0. */
#include "mpitest.h"

#include "../../src/mpi/plan.h"

static int runs;

/* ring exchange: n-1 rounds; in each, node i passes to i+1 every block it
 * holds whose destination is not i (the box of destinations [i+1, i+n-1]). */
static mg_status fwd_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  if (pb->problem != MG_EXCHANGE || pb->topo.kind != MG_TOPO_GRID || pb->topo.d != 1 || !pb->topo.wrap[0]) {
    if (err) snprintf(err->msg, sizeof err->msg, "forward-ring needs a ring");
    return MG_ERR_UNSUPPORTED;
  }
  return MG_OK;
}

/* The schedule's header of the test algorithms below. */
static void ring_info(const mg_problem_spec *pb, const mg_params *ps, const char *name, uint32_t rounds,
                      mg_schedule_info *info) {
  memset(info, 0, sizeof *info);
  info->problem = MG_EXCHANGE;
  info->topo = pb->topo;
  info->model = pb->model;
  info->bytes = pb->bytes;
  info->pieces = 1;
  snprintf(info->algorithm, sizeof info->algorithm, "%s", name);
  if (ps) info->params = *ps;
  info->rounds_hint = rounds;
}

/* The forward ring's n - 1 rounds. */
static mg_status fwd_rounds(uint32_t n, mg_sink *sink, mg_err *err) {
  mg_status st = MG_OK;
  mg_round r;
  mg_round_init(&r);
  for (uint32_t t = 1; t < n && st == MG_OK; t++) {
    for (uint32_t i = 0; i < n && st == MG_OK; i++) {
      mg_transfer tr = mg_xfer_line(i, (i + 1) % n, 0, 1);
      tr.sel.flags = MG_SEL_BOX;
      tr.sel.box.lo[0] = (i + 1) % n;
      tr.sel.box.len[0] = n - 1;
      if (!mg_round_add(&r, &tr)) st = MG_ERR_NOMEM;
    }
    if (st == MG_OK) st = sink->round(sink->ctx, &r, err);
    mg_round_clear(&r);
  }
  mg_round_free(&r);
  return st;
}

static mg_status fwd_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_schedule_info info;
  ring_info(pb, ps, "forward-ring", pb->topo.N - 1, &info);
  mg_status st = sink->begin(sink->ctx, &info, err);
  if (st == MG_OK) st = fwd_rounds(pb->topo.N, sink, err);
  if (st == MG_OK) st = sink->end(sink->ctx, err);
  return st;
}

static const mg_algo forward_ring = {
    .name = "forward-ring",
    .problem = MG_EXCHANGE,
    .summary = "test: store-and-forward ring exchange",
    .check = fwd_check,
    .generate = fwd_generate,
};

/* bounce-ring (n >= 3): block (k, k+1) reaches its destination in round 1,
 * goes on to k+2 in round 2 and comes back in round 3; then the forward
 * ring delivers the rest. The block leaves its destination and its range
 * there is written twice: the planner of sync=data once made the round-2
 * send wait for the round-3 receive, which waits for it (a deadlock). */
static mg_status bounce_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t n = pb->topo.N;
  mg_schedule_info info;
  ring_info(pb, ps, "bounce-ring", n + 2, &info);
  mg_status st = sink->begin(sink->ctx, &info, err);
  mg_round r;
  mg_round_init(&r);
  for (int t = 0; t < 3 && st == MG_OK; t++) {
    for (uint32_t k = 0; k < n && st == MG_OK; k++) {
      /* block (k, k+1): at k, then k+1, then k+2, then k+1 again */
      uint32_t at = (k + (uint32_t)(t < 2 ? t : 2)) % n, to = t < 2 ? (at + 1) % n : (at + n - 1) % n;
      uint64_t id = (uint64_t)k * n + (k + 1) % n;
      mg_transfer tr = mg_xfer(at, to);
      tr.sel.flags = MG_SEL_LIST;
      tr.sel.list = mg_round_add_list(&r, &id, 1);
      tr.sel.list_len = 1;
      if (!tr.sel.list || !mg_round_add(&r, &tr)) st = MG_ERR_NOMEM;
    }
    if (st == MG_OK) st = sink->round(sink->ctx, &r, err);
    mg_round_clear(&r);
  }
  mg_round_free(&r);
  if (st == MG_OK) st = fwd_rounds(n, sink, err); /* the rest */
  if (st == MG_OK) st = sink->end(sink->ctx, err);
  return st;
}

/* return-gathered (n >= 5): blocks (0,4), (1,4), (2,4) ride to node 4 in
 * one message (one range of its result buffer), then (1,4) and (2,4)
 * leave and come back one by one; the forward ring delivers the rest. A
 * returning block must not be received into the range its first arrival
 * wrote: the planner's sync=data looks writers up by ranges that do not
 * overlap, and a send of (2,4) once lost its wait for the first arrival. */
static mg_status gathered_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  mg_schedule_info info;
  ring_info(pb, ps, "return-gathered", 8 + pb->topo.N - 1, &info);
  static const struct {
    uint32_t s, d, first, len; /* sender, receiver, the sources first .. first + len - 1 */
  } step[8] = {{0, 1, 0, 1}, {1, 2, 0, 2}, {2, 3, 0, 3}, {3, 4, 0, 3},
               {4, 0, 1, 1}, {4, 0, 2, 1}, {0, 4, 1, 1}, {0, 4, 2, 1}};
  uint32_t n = pb->topo.N;
  mg_status st = sink->begin(sink->ctx, &info, err);
  mg_round r;
  mg_round_init(&r);
  for (int i = 0; i < 8 && st == MG_OK; i++) {
    uint64_t ids[3];
    for (uint32_t k = 0; k < step[i].len; k++)
      ids[k] = (uint64_t)(step[i].first + k) * n + 4; /* block (source, 4) */
    mg_transfer tr = mg_xfer(step[i].s, step[i].d);
    tr.sel.flags = MG_SEL_LIST;
    tr.sel.list = mg_round_add_list(&r, ids, step[i].len);
    tr.sel.list_len = step[i].len;
    if (!tr.sel.list || !mg_round_add(&r, &tr)) st = MG_ERR_NOMEM;
    if (st == MG_OK) st = sink->round(sink->ctx, &r, err);
    mg_round_clear(&r);
  }
  mg_round_free(&r);
  if (st == MG_OK) st = fwd_rounds(n, sink, err);
  if (st == MG_OK) st = sink->end(sink->ctx, err);
  return st;
}

/* A ring of at least `least` nodes. */
static mg_status ring_of(const mg_problem_spec *pb, uint32_t least, const char *name, mg_err *err) {
  mg_status st = fwd_check(pb, NULL, err);
  if (st == MG_OK && pb->topo.N < least) {
    if (err) snprintf(err->msg, sizeof err->msg, "%s needs %u nodes", name, least);
    return MG_ERR_UNSUPPORTED;
  }
  return st;
}

static mg_status gathered_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return ring_of(pb, 5, "return-gathered", err);
}

static const mg_algo return_gathered = {
    .name = "return-gathered",
    .problem = MG_EXCHANGE,
    .summary = "test: blocks delivered together, then leaving and coming back one by one",
    .check = gathered_check,
    .generate = gathered_generate,
};

static mg_status bounce_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return ring_of(pb, 3, "bounce-ring", err);
}

static const mg_algo bounce_ring = {
    .name = "bounce-ring",
    .problem = MG_EXCHANGE,
    .summary = "test: a block leaves its destination and comes back",
    .check = bounce_check,
    .generate = bounce_generate,
};

static void bytes_case(MPI_Comm comm, const mg_mpi_opts *o, int ok, const char *what, int count) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  mg_mpi_plan *p = NULL;
  int rc = mg_mpi_alltoall_init(count, MPI_BYTE, count, MPI_BYTE, comm, o, &p);
  if (!ok) {
    MT_EXPECT(rc != MPI_SUCCESS && p == NULL, "%s: expected a refusal, got %d", what, rc);
    mg_mpi_plan_free(&p);
    return;
  }
  MT_EXPECT(rc == MPI_SUCCESS, "%s count %d: init failed (%d): %s", what, count, rc, o->err ? o->err->msg : "");
  if (rc != MPI_SUCCESS) return;
  size_t tot = (size_t)count * (size_t)n;
  unsigned char *s = malloc(tot + 1), *r = malloc(tot + 1);
  for (int t = 0; t < 2; t++) {
    for (int d = 0; d < n; d++)
      for (int i = 0; i < count; i++)
        s[(size_t)d * (size_t)count + (size_t)i] = mt_byte(t, me, d, (size_t)i);
    memset(r, 0xee, tot);
    rc = mg_mpi_start(p, s, r);
    MT_EXPECT(rc == MPI_SUCCESS, "%s: start failed (%d)", what, rc);
    int bad = 0;
    for (int q = 0; q < n && !bad; q++)
      for (int i = 0; i < count; i++)
        if (r[(size_t)q * (size_t)count + (size_t)i] != mt_byte(t, q, me, (size_t)i)) {
          MT_EXPECT(0, "%s (%s) count %d trial %d: byte %d from rank %d wrong", what, mg_mpi_plan_algorithm(p), count,
                    t, i, q);
          bad = 1;
          break;
        }
    runs++;
  }
  free(s);
  free(r);
  mg_mpi_plan_free(&p);
}

static void inplace_case(MPI_Comm comm, const mg_mpi_opts *o, const char *what) {
  int n, me, count = 5;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  mg_mpi_plan *p = NULL;
  if (mg_mpi_alltoall_init(0, MPI_DATATYPE_NULL, count, MPI_INT, comm, o, &p) != MPI_SUCCESS) {
    MT_EXPECT(0, "%s: in-place init failed", what);
    return;
  }
  int *r = malloc(sizeof(int) * (size_t)count * (size_t)n);
  for (int d = 0; d < n; d++)
    for (int i = 0; i < count; i++)
      r[d * count + i] = (me * 100 + d) * 10 + i;
  MT_EXPECT(mg_mpi_start(p, MPI_IN_PLACE, r) == MPI_SUCCESS, "%s: in-place start failed", what);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < count; i++)
      if (r[q * count + i] != (q * 100 + me) * 10 + i) {
        MT_EXPECT(0, "%s in place: int %d from rank %d is %d", what, i, q, r[q * count + i]);
        q = n;
        break;
      }
  runs++;
  free(r);
  mg_mpi_plan_free(&p);
}

/* send 4 contiguous ints per destination, receive one vector of 2 blocks of
 * 2 ints with stride 3 (extent 5 ints) per source. */
static void vector_case(MPI_Comm comm, const mg_mpi_opts *o, const char *what) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  MPI_Datatype vec;
  MPI_Type_vector(2, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int *s = malloc(sizeof(int) * 4 * (size_t)n), *r = malloc(sizeof(int) * 5 * (size_t)n);
  for (int d = 0; d < n; d++)
    for (int i = 0; i < 4; i++)
      s[d * 4 + i] = (me * 100 + d) * 10 + i;
  for (int i = 0; i < 5 * n; i++)
    r[i] = -7;
  mg_mpi_plan *p = NULL;
  int rc = mg_mpi_alltoall_init(4, MPI_INT, 1, vec, comm, o, &p);
  MT_EXPECT(rc == MPI_SUCCESS, "%s: vector init failed (%d)", what, rc);
  if (rc == MPI_SUCCESS) MT_EXPECT(mg_mpi_start(p, s, r) == MPI_SUCCESS, "%s: vector start failed", what);
  static const int pos[4] = {0, 1, 3, 4};
  for (int q = 0; q < n; q++) {
    for (int i = 0; i < 4; i++)
      MT_EXPECT(r[q * 5 + pos[i]] == (q * 100 + me) * 10 + i, "%s vector: from rank %d element %d is %d", what, q, i,
                r[q * 5 + pos[i]]);
    MT_EXPECT(r[q * 5 + 2] == -7, "%s vector: a gap of rank %d was written", what, q);
  }
  runs++;
  mg_mpi_plan_free(&p);
  free(s);
  free(r);
  MPI_Type_free(&vec);
}

static void zero_case(MPI_Comm comm, const mg_mpi_opts *o, const char *what) {
  int dummy = 42;
  mg_mpi_plan *p = NULL;
  int rc = mg_mpi_alltoall_init(0, MPI_INT, 0, MPI_INT, comm, o, &p);
  MT_EXPECT(rc == MPI_SUCCESS, "%s: count 0 init failed (%d)", what, rc);
  if (rc == MPI_SUCCESS) MT_EXPECT(mg_mpi_start(p, &dummy, &dummy) == MPI_SUCCESS && dummy == 42, "%s: count 0", what);
  mg_mpi_plan_free(&p);
  runs++;
}

static void run_algo(MPI_Comm comm, const char *topo, const char *label, const mg_algo *a, const mg_algo *custom,
                     int ok) {
  mg_err err;
  memset(&err, 0, sizeof err);
  mg_mpi_opts o = {.topo = topo, .algo = a ? a->name : "auto", .custom = custom, .err = &err};
  char what[96];
  snprintf(what, sizeof what, "%s on %s", custom ? custom->name : o.algo, label);
  bytes_case(comm, &o, ok, what, 1);
  bytes_case(comm, &o, ok, what, 333);
  if (!ok) return;
  inplace_case(comm, &o, what);
  vector_case(comm, &o, what);
  zero_case(comm, &o, what);
  /* sync=data: no round barrier, transit slots never reused */
  mg_mpi_opts d = o;
  d.sync = "data";
  snprintf(what, sizeof what, "%s on %s, sync=data", custom ? custom->name : o.algo, label);
  bytes_case(comm, &d, 1, what, 333);
  inplace_case(comm, &d, what);
}

static void all_cases(MPI_Comm comm, const char *topo, const char *label) {
  int n;
  MPI_Comm_size(comm, &n);
  for (size_t i = 0; i <= mg_algo_count(); i++) {
    const mg_algo *a = i < mg_algo_count() ? mg_algo_at(i) : NULL;
    if (a && a->problem != MG_EXCHANGE) continue;
    run_algo(comm, topo, label, a, NULL, n == 1 || mt_applies(a, MG_EXCHANGE, label, 333));
  }
  if (!strncmp(label, "ring:", 5)) run_algo(comm, topo, label, NULL, &forward_ring, 1);
  if (!strncmp(label, "ring:", 5) && n >= 3) run_algo(comm, topo, label, NULL, &bounce_ring, 1);
  if (!strncmp(label, "ring:", 5) && n >= 5) run_algo(comm, topo, label, NULL, &return_gathered, 1);
}

/* The dataflow plans' waits, recounted: every send of node `me` waits for
 * exactly the receives before it in plan order whose byte ranges meet its
 * own (linear scan; the planner sorts and searches). */
static void deps_recount(const mg_algo *a, const char *topo) {
  mg_problem_spec pb;
  mg_err err;
  memset(&pb, 0, sizeof pb);
  memset(&err, 0, sizeof err);
  pb.problem = MG_EXCHANGE;
  mg_model_default(&pb.model);
  pb.model.contention = MG_CONT_SHARED; /* as the executor prices strict: arcs shared (exchange-moves) */
  pb.bytes = 8;
  MT_EXPECT(mg_topo_parse(topo, &pb.topo, &err) == MG_OK, "%s: %s", topo, err.msg);
  int rk[64];
  for (uint32_t v = 0; v < pb.topo.N && v < 64; v++)
    rk[v] = (int)v;
  for (uint32_t me = 0; me < pb.topo.N && me < 64; me++) {
    mg_rank_plan p;
    mg_status st = mg_plan_build(a, &pb, NULL, me, rk, 1, &p, &err);
    MT_EXPECT(st == MG_OK, "%s on %s: plan for %u: %s", a->name, topo, me, err.msg);
    if (st != MG_OK) continue;
    for (size_t r = 0; r < p.nrounds; r++)
      for (size_t i = 0; i < p.rounds[r].nsend; i++) {
        size_t mi = p.rounds[r].recv0 + p.rounds[r].nrecv + i, want = 0;
        const mg_pmsg *m = &p.msgs[mi];
        for (size_t mj = 0; mj < mi; mj++) {
          int recv = 0, meets = 0;
          for (size_t q = 0; q < p.nrounds; q++)
            recv |= mj >= p.rounds[q].recv0 && mj < p.rounds[q].recv0 + p.rounds[q].nrecv;
          for (size_t g = 0; recv && g < m->nseg && !meets; g++)
            for (size_t h = 0; h < p.msgs[mj].nseg && !meets; h++) {
              const mg_pseg *x = &p.segs[m->seg0 + g], *y = &p.segs[p.msgs[mj].seg0 + h];
              meets = x->region == y->region && x->off < y->off + y->len && y->off < x->off + x->len;
            }
          if (!meets) continue;
          want++;
          int listed = 0;
          for (size_t k = 0; k < m->ndep; k++)
            listed |= p.deps[m->dep0 + k] == mj;
          MT_EXPECT(listed, "%s on %s, node %u: send %zu does not wait for receive %zu", a->name, topo, me, mi, mj);
        }
        MT_EXPECT(m->ndep == want, "%s on %s, node %u: send %zu waits for %zu receives, %zu write its bytes", a->name,
                  topo, me, mi, m->ndep, want);
      }
    mg_plan_free(&p);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  char specs[16][32];
  int k = mt_topologies(n, specs, 16);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0 && n == 1) { /* no MPI needed: once, in the 1-rank run */
    deps_recount(&return_gathered, "ring:5");
    deps_recount(&bounce_ring, "ring:4");
    deps_recount(mg_algo_find("exchange-slots"), "torus:4x4");
    deps_recount(mg_algo_find("exchange-moves"), "torus:4x4"); /* several sends a round, moves of two hops */
  }
  if (n == 1) all_cases(MPI_COMM_WORLD, NULL, "ring:1");
  for (int i = 0; i < k; i++)
    all_cases(MPI_COMM_WORLD, specs[i], specs[i]);
  /* a 1D Cartesian communicator of shape {n, 1}: the extent-1 dimension
   * is dropped, leaving a ring (periodic) or a line */
  for (int periodic = 0; periodic < 2 && n > 1; periodic++) {
    MPI_Comm cart;
    int d1[2] = {n, 1}, per[2] = {periodic, periodic};
    MPI_Cart_create(MPI_COMM_WORLD, 2, d1, per, 0, &cart);
    char label[32];
    snprintf(label, sizeof label, "%s:%d", periodic ? "ring" : "line", n);
    all_cases(cart, NULL, label);
    MPI_Comm_free(&cart);
  }
  int dims[2] = {0, 0};
  MPI_Dims_create(n, 2, dims);
  for (int periodic = 0; periodic < 2 && dims[1] > 1; periodic++) {
    MPI_Comm cart;
    int per[2] = {periodic, periodic};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 1, &cart);
    char label[32];
    if (dims[0] > 1)
      snprintf(label, sizeof label, "%s:%dx%d", periodic ? "torus" : "mesh", dims[1], dims[0]);
    else
      snprintf(label, sizeof label, "%s:%d", periodic ? "ring" : "line", dims[1]);
    all_cases(cart, NULL, label);
    MPI_Comm_free(&cart);
  }
  return mt_finish("alltoall_all", runs);
}

/* The MPI executor: persistent plans and the one-shot collectives.
 *
 * Data path. Gossip works in one contiguous buffer of size*L bytes (the
 * caller's recvbuf when recvtype is a basic type, else a packed copy that
 * is unpacked at the end); exchange adds a send buffer laid out the same
 * way and a transit buffer (plan.c). Each round: receives posted, staged
 * sends packed and posted, one MPI_Waitall, staged receives scattered.
 * Rounds where this rank has nothing to do are skipped: a schedule's rounds
 * are only a partial order between neighbours, which MPI's matching keeps.
 *
 * sync=data drops the round barrier: every receive is posted at the start
 * (the plan writes no byte twice, plan.c) and the sends go in the plan's
 * order, each as soon as the receives that wrote its bytes have completed.
 * A rank's next sends then overlap its last round's transfers, which is
 * what a send overhead of hundreds of microseconds makes worth having; the
 * SimGrid engine's sync=data replays exactly this order (docs/engine.md). */
#include "meshgossip_mpi.h"

#include "../algo/spec_size.h"
#include "../util/internal.h"
#include "plan.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tags on the plan's private communicator: round r uses BASE + r mod SPAN,
 * below the MPI_TAG_UB every implementation must allow (32767). */
#define MG_TAG_BASE 16384
#define MG_TAG_SPAN 8192

struct mg_mpi_plan {
  MPI_Comm comm;
  int size, rank;
  mg_problem problem;
  int trivial; /* one rank or zero bytes: a local copy at most */
  mg_rank_plan rp;
  uint64_t L;
  int scount, rcount;
  MPI_Datatype stype, rtype;
  MPI_Aint sext, rext;
  int sdirect, rdirect; /* basic type whose extent is its size */
  int sdup, rdup;       /* stype, rtype are the plan's duplicates (derived types) */
  char *work_tmp, *send_tmp, *temp, *stage;
  uint64_t buffer_bytes; /* what those four hold */
  MPI_Request *reqs;
  size_t maxreq;
  int dataflow;
  char *done; /* dataflow: message i has completed */
  char algo[128];
  char topo[64];
  uint64_t model_fp; /* FNV-1a of the model this rank planned under */
};

/* FNV-1a, 64 bits: a fingerprint the ranks compare (plan_init) */
static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *b = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
#define FNV0 14695981039346656037ull

static int to_mpi_error(mg_status st) {
  switch (st) {
  case MG_OK: return MPI_SUCCESS;
  case MG_ERR_NOMEM:
  case MG_ERR_TOO_LARGE: return MPI_ERR_NO_MEM;
  default: return MPI_ERR_ARG;
  }
}

static int direct_type(MPI_Datatype t, int *direct, MPI_Aint *extent, int *size) {
  int ni, na, nd, comb, rc;
  MPI_Aint lb;
  if ((rc = MPI_Type_get_envelope(t, &ni, &na, &nd, &comb)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(t, &lb, extent)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_size(t, size)) != MPI_SUCCESS) return rc;
  *direct = comb == MPI_COMBINER_NAMED && lb == 0 && *extent == (MPI_Aint)*size;
  return MPI_SUCCESS;
}

/* The topology and the rank playing each node. Returns an MPI error class;
 * *single = 1 when there is nothing to arrange (one rank). */
static int find_topology(MPI_Comm comm, int size, const mg_mpi_opts *o, mg_topo *t, int **rank_of_node, int *single,
                         mg_err *err) {
  int status = MPI_UNDEFINED, rc;
  *single = 0;
  *rank_of_node = NULL;
  const char *spec = o && o->topo ? o->topo : NULL;
  if (!spec) {
    if ((rc = MPI_Topo_test(comm, &status)) != MPI_SUCCESS) return rc;
  }
  if (!spec && status == MPI_CART) {
    int nd;
    if ((rc = MPI_Cartdim_get(comm, &nd)) != MPI_SUCCESS) return rc;
    if (nd > MG_MAX_DIMS) {
      mg_fail(err, MG_ERR_UNSUPPORTED, "Cartesian communicator of %d dimensions (at most %d)", nd, MG_MAX_DIMS);
      return MPI_ERR_TOPOLOGY;
    }
    int dims[MG_MAX_DIMS], periods[MG_MAX_DIMS], coords[MG_MAX_DIMS];
    if (nd > 0 && (rc = MPI_Cart_get(comm, nd, dims, periods, coords)) != MPI_SUCCESS) return rc;
    /* MPI numbers ranks with the last dimension fastest; our node ids have
     * dimension 0 fastest: our dimension k is MPI's nd-1-k. Extent-1
     * dimensions carry no link and are dropped. */
    uint32_t n[MG_MAX_DIMS];
    int wrap[MG_MAX_DIMS], d = 0, map[MG_MAX_DIMS];
    for (int k = nd - 1; k >= 0; k--)
      if (dims[k] > 1) {
        map[d] = k;
        wrap[d] = periods[k] != 0;
        n[d++] = (uint32_t)dims[k];
      }
    if (d == 0) {
      *single = 1;
      return MPI_SUCCESS;
    }
    if (mg_topo_grid(t, d, n, 1, err) != MG_OK) return MPI_ERR_TOPOLOGY;
    for (int k = 0; k < d; k++)
      t->wrap[k] = wrap[k];
    int *r = malloc((size_t)size * sizeof *r);
    if (!r) return MPI_ERR_NO_MEM;
    for (int q = 0; q < size; q++) {
      if (nd > 0 && (rc = MPI_Cart_coords(comm, q, nd, coords)) != MPI_SUCCESS) {
        free(r);
        return rc;
      }
      uint32_t x[MG_MAX_DIMS];
      for (int k = 0; k < d; k++)
        x[k] = (uint32_t)coords[map[k]];
      r[mg_topo_id(t, x)] = q;
    }
    *rank_of_node = r;
    return MPI_SUCCESS;
  }
  if (!spec) spec = getenv("MESHGOSSIP_TOPO");
  if (!spec || !*spec) {
    if (size == 1) {
      *single = 1;
      return MPI_SUCCESS;
    }
    uint32_t n = (uint32_t)size;
    if (mg_topo_grid(t, 1, &n, 1, err) != MG_OK) return MPI_ERR_TOPOLOGY;
  } else if (mg_topo_parse(spec, t, err) != MG_OK) {
    return MPI_ERR_TOPOLOGY;
  }
  if (t->kind != MG_TOPO_GRID) {
    mg_fail(err, MG_ERR_UNSUPPORTED, "topology '%s' has buses; MPI runs only meshes and tori", spec);
    return MPI_ERR_TOPOLOGY;
  }
  if (t->N != (uint32_t)size) {
    char buf[64];
    mg_fail(err, MG_ERR_INVALID, "topology %s has %u nodes but the communicator has %d ranks",
            mg_topo_format(t, buf, sizeof buf), t->N, size);
    return MPI_ERR_TOPOLOGY;
  }
  int *r = malloc((size_t)size * sizeof *r);
  if (!r) return MPI_ERR_NO_MEM;
  for (int q = 0; q < size; q++)
    r[q] = q;
  *rank_of_node = r;
  return MPI_SUCCESS;
}

/* The simulated cost of a under pb (INFINITY if it does not verify). */
static mg_status price(const mg_algo *a, const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  mg_report rep;
  mg_status st = mg_run(a, pb, ps, NULL, &rep, err);
  if (st == MG_OK || st == MG_ERR_VIOLATION) *cost = rep.verified ? rep.cost : INFINITY;
  mg_report_free(&rep);
  return st == MG_ERR_VIOLATION ? MG_OK : st;
}

/* The algorithm to run: explicit, or the registered one of least simulated
 * cost ("auto"); *cost (if asked for) its simulated cost. */
static mg_status choose_algorithm(const char *spec, const mg_problem_spec *pb, const mg_algo **a, mg_params *ps,
                                  double *cost, mg_err *err) {
  if (spec && *spec && strcmp(spec, "auto") != 0) {
    mg_status st = mg_algo_lookup(spec, a, ps, err);
    if (st == MG_OK) st = mg_algo_check(*a, pb, ps, err);
    if (st == MG_OK && cost) st = price(*a, pb, ps, cost, err);
    return st;
  }
  mg_compare_row *rows = NULL;
  size_t n = 0;
  mg_status st = mg_compare(pb, NULL, 0, &rows, &n, err);
  if (st != MG_OK) return st;
  st = MG_ERR_UNSUPPORTED;
  for (size_t i = 0; i < n; i++)
    if (!rows[i].refused && rows[i].rep.verified) {
      *a = rows[i].algo;
      *ps = rows[i].params;
      if (cost) *cost = rows[i].rep.cost;
      st = MG_OK;
      break;
    }
  if (st != MG_OK)
    mg_fail(err, MG_ERR_UNSUPPORTED, "no registered %s algorithm runs on this topology", mg_problem_name(pb->problem));
  for (size_t i = 0; i < n; i++)
    mg_report_free(&rows[i].rep);
  free(rows);
  return st;
}

void mg_mpi_plan_free(mg_mpi_plan **pp) {
  if (!pp || !*pp) return;
  mg_mpi_plan *p = *pp;
  if (p->comm != MPI_COMM_NULL) MPI_Comm_free(&p->comm);
  if (p->sdup) MPI_Type_free(&p->stype);
  if (p->rdup) MPI_Type_free(&p->rtype);
  mg_plan_free(&p->rp);
  free(p->work_tmp);
  free(p->send_tmp);
  free(p->temp);
  free(p->stage);
  free(p->reqs);
  free(p->done);
  free(p);
  *pp = NULL;
}

/* Everything a rank can do alone: types, topology, algorithm, its plan. */
static int plan_local(mg_mpi_plan *p, MPI_Comm comm, const mg_mpi_opts *o, mg_err *err) {
  int rc, ssize = 0, rsize = 0;
  if (p->rcount < 0 || (p->stype != MPI_DATATYPE_NULL && p->scount < 0)) {
    mg_fail(err, MG_ERR_INVALID, "negative count");
    return MPI_ERR_COUNT;
  }
  if (p->rtype == MPI_DATATYPE_NULL) {
    mg_fail(err, MG_ERR_INVALID, "recvtype is MPI_DATATYPE_NULL");
    return MPI_ERR_TYPE;
  }
  if ((rc = direct_type(p->rtype, &p->rdirect, &p->rext, &rsize)) != MPI_SUCCESS) return rc;
  if (rsize < 0) { /* MPI_UNDEFINED: the type's size does not fit an int */
    mg_fail(err, MG_ERR_TOO_LARGE, "recvtype holds more than 2^31-1 bytes");
    return MPI_ERR_COUNT;
  }
  p->L = (uint64_t)p->rcount * (uint64_t)rsize;
  if (p->stype != MPI_DATATYPE_NULL) {
    if ((rc = direct_type(p->stype, &p->sdirect, &p->sext, &ssize)) != MPI_SUCCESS) return rc;
    if (ssize < 0) {
      mg_fail(err, MG_ERR_TOO_LARGE, "sendtype holds more than 2^31-1 bytes");
      return MPI_ERR_COUNT;
    }
    if ((uint64_t)p->scount * (uint64_t)ssize != p->L) {
      mg_fail(err, MG_ERR_INVALID, "send and receive blocks differ in size (%llu and %llu bytes)",
              (unsigned long long)((uint64_t)p->scount * (uint64_t)ssize), (unsigned long long)p->L);
      return MPI_ERR_TRUNCATE;
    }
  }
  uint64_t total;
  if (!mg_mul_ok(p->L, (uint64_t)p->size, &total) || total > (uint64_t)INT_MAX ||
      (uint64_t)p->rcount * (uint64_t)p->size > (uint64_t)INT_MAX ||
      (uint64_t)(p->scount > 0 ? p->scount : 0) * (uint64_t)p->size > (uint64_t)INT_MAX) {
    mg_fail(err, MG_ERR_TOO_LARGE, "%llu bytes per block on %d ranks exceed an int", (unsigned long long)p->L, p->size);
    return MPI_ERR_COUNT;
  }
  const char *sync = o && o->sync ? o->sync : getenv("MESHGOSSIP_SYNC");
  int sync_auto = 0;
  if (sync && *sync && strcmp(sync, "rounds") != 0) {
    if (strcmp(sync, "data") && strcmp(sync, "auto")) {
      mg_fail(err, MG_ERR_INVALID, "sync=%s: use rounds, data or auto", sync);
      return MPI_ERR_ARG;
    }
    sync_auto = !strcmp(sync, "auto");
    p->dataflow = !sync_auto;
  }
  const char *env = getenv(p->problem == MG_GOSSIP ? "MESHGOSSIP_ALLGATHER" : "MESHGOSSIP_ALLTOALL");
  const char *aspec = o && o->algo ? o->algo : (env && *env ? env : "auto");
  char sized[256]; /* "SPEC<=BYTES;...;SPEC": the entry for this block size */
  if (mg_spec_by_size(aspec, p->L, sized, sizeof sized, err) != MG_OK) return MPI_ERR_ARG;
  aspec = sized;
  mg_problem_spec pb;
  memset(&pb, 0, sizeof pb);
  pb.problem = p->problem;
  pb.bytes = (double)p->L;
  mg_model_default(&pb.model);
  const char *mspec = o && o->model ? o->model : getenv("MESHGOSSIP_MODEL");
  if (mg_model_parse(MG_MPI_DEFAULT_MODEL, &pb.model, err) != MG_OK ||
      (mspec && *mspec && mg_model_parse(mspec, &pb.model, err) != MG_OK))
    return MPI_ERR_ARG;
  /* Real networks share links: price contention, do not forbid it (a
   * model that already shares them, e.g. a calibrated contention=fair, is
   * kept). */
  if (pb.model.contention == MG_CONT_STRICT) pb.model.contention = MG_CONT_SHARED;
  /* without round barriers a transfer starts when its items and its
   * sender's CPU are there: the model's async clock, which auto ranks by */
  if (p->dataflow) pb.model.timing = MG_TIMING_ASYNC;
  {
    char mb[1024];
    mg_model_format(&pb.model, mb, sizeof mb);
    p->model_fp = fnv(FNV0, mb, strlen(mb));
  }
  int single = 0, *rank_of_node = NULL;
  if ((rc = find_topology(comm, p->size, o, &pb.topo, &rank_of_node, &single, err)) != MPI_SUCCESS) return rc;
  if (single || p->L == 0) {
    p->trivial = 1;
    if (single)
      snprintf(p->topo, sizeof p->topo, "single");
    else
      mg_topo_format(&pb.topo, p->topo, sizeof p->topo);
    snprintf(p->algo, sizeof p->algo, "local copy");
    free(rank_of_node);
    /* An unknown algorithm name is still an error, whatever the size. */
    if (strcmp(aspec, "auto") != 0) {
      const mg_algo *a;
      mg_params ps;
      if (mg_algo_lookup(aspec, &a, &ps, err) != MG_OK) return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
  }
  mg_topo_format(&pb.topo, p->topo, sizeof p->topo);
  const mg_algo *a = NULL;
  mg_params ps;
  memset(&ps, 0, sizeof ps);
  mg_status st;
  double c_rounds = 0, c_data = 0;
  if (o && o->custom) {
    a = o->custom;
    st = mg_algo_check(a, &pb, &ps, err);
    if (st == MG_OK && sync_auto) st = price(a, &pb, &ps, &c_rounds, err);
  } else {
    st = choose_algorithm(aspec, &pb, &a, &ps, sync_auto ? &c_rounds : NULL, err);
  }
  if (st == MG_OK && sync_auto) {
    /* sync=auto: the clock whose model time is less, the algorithm chosen
     * (if auto) under each; a tie keeps the rounds */
    mg_problem_spec pa = pb;
    pa.model.timing = MG_TIMING_ASYNC;
    const mg_algo *a2 = a;
    mg_params ps2 = ps;
    st = o && o->custom ? price(a2, &pa, &ps2, &c_data, err) : choose_algorithm(aspec, &pa, &a2, &ps2, &c_data, err);
    if (st == MG_OK && c_data < c_rounds * (1 - 1e-9)) {
      a = a2, ps = ps2, pb = pa;
      p->dataflow = 1;
    }
  }
  uint32_t me = 0;
  for (uint32_t v = 0; v < pb.topo.N; v++)
    if (rank_of_node[v] == p->rank) me = v;
  if (st == MG_OK) st = mg_plan_build(a, &pb, &ps, me, rank_of_node, p->dataflow, &p->rp, err);
  free(rank_of_node);
  if (st != MG_OK) return to_mpi_error(st);
  char pbuf[96];
  mg_params_format(&ps, pbuf, sizeof pbuf);
  snprintf(p->algo, sizeof p->algo, "%s%s%s", a->name, ps.n ? ":" : "", ps.n ? pbuf : "");
  for (size_t i = 0; i < p->rp.nmsgs; i++)
    if (p->rp.msgs[i].bytes > (uint64_t)INT_MAX) {
      mg_fail(err, MG_ERR_TOO_LARGE, "a message of %llu bytes exceeds an int", (unsigned long long)p->rp.msgs[i].bytes);
      return MPI_ERR_COUNT;
    }
  for (size_t r = 0; r < p->rp.nrounds; r++) {
    size_t k = p->rp.rounds[r].nrecv + p->rp.rounds[r].nsend;
    if (k > p->maxreq) p->maxreq = k;
  }
  if (p->dataflow) {
    p->maxreq = p->rp.nmsgs;
    free(p->done);
    p->done = malloc(p->maxreq ? p->maxreq : 1);
    if (!p->done) {
      mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan buffers");
      return MPI_ERR_NO_MEM;
    }
  }
  if (!p->rdirect) p->work_tmp = malloc(total ? total : 1);
  if (p->problem == MG_EXCHANGE) p->send_tmp = malloc(total ? total : 1);
  p->temp = malloc(p->rp.temp_bytes ? p->rp.temp_bytes : 1);
  p->stage = malloc(p->rp.stage_bytes ? p->rp.stage_bytes : 1);
  p->reqs = malloc((p->maxreq ? p->maxreq : 1) * sizeof *p->reqs);
  if ((!p->rdirect && !p->work_tmp) || (p->problem == MG_EXCHANGE && !p->send_tmp) || !p->temp || !p->stage ||
      !p->reqs) {
    mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan buffers");
    return MPI_ERR_NO_MEM;
  }
  p->buffer_bytes =
      (p->rdirect ? 0 : total) + (p->problem == MG_EXCHANGE ? total : 0) + p->rp.temp_bytes + p->rp.stage_bytes;
  return MPI_SUCCESS;
}

/* *kept = t, or a duplicate of t if it is a derived type (*dup = 1). */
static int keep_type(MPI_Datatype t, MPI_Datatype *kept, int *dup) {
  int ni, na, nd, comb, rc;
  *kept = t;
  *dup = 0;
  if (t == MPI_DATATYPE_NULL) return MPI_SUCCESS;
  if ((rc = MPI_Type_get_envelope(t, &ni, &na, &nd, &comb)) != MPI_SUCCESS) return rc;
  if (comb == MPI_COMBINER_NAMED) return MPI_SUCCESS;
  if ((rc = MPI_Type_dup(t, kept)) != MPI_SUCCESS) {
    *kept = MPI_DATATYPE_NULL;
    return rc;
  }
  *dup = 1;
  return MPI_SUCCESS;
}

/* Every rank made a plan: the same one? A rank with another block size,
 * algorithm, topology, model or clock (a per-node MESHGOSSIP_MODEL=@FILE
 * that makes auto choose otherwise) would wait for ever in a plan the
 * others do not run (a review). Two reductions every rank reaches. */
static int same_plan(const mg_mpi_plan *p, MPI_Comm comm, mg_err *err) {
  uint64_t L[2] = {p->L, ~p->L}, Lr[2];
  int rc = MPI_Allreduce(L, Lr, 2, MPI_UINT64_T, MPI_MAX, comm);
  if (rc != MPI_SUCCESS) return rc;
  if (Lr[0] != ~Lr[1]) {
    mg_fail(err, MG_ERR_INVALID, "the ranks give different block sizes (%llu to %llu bytes)",
            (unsigned long long)~Lr[1], (unsigned long long)Lr[0]);
    return MPI_ERR_COUNT;
  }
  /* a local copy (one rank, zero bytes) is the same plan whatever the
   * settings: nothing moves between ranks */
  uint64_t h = FNV0;
  if (!p->trivial) {
    h = fnv(h, &p->model_fp, sizeof p->model_fp);
    h = fnv(h, p->algo, strlen(p->algo));
    h = fnv(h, p->topo, strlen(p->topo));
    h = fnv(h, &p->dataflow, sizeof p->dataflow);
  }
  uint64_t f[2] = {h, ~h}, fr[2];
  if ((rc = MPI_Allreduce(f, fr, 2, MPI_UINT64_T, MPI_MAX, comm)) != MPI_SUCCESS) return rc;
  if (fr[0] != ~fr[1]) {
    mg_fail(err, MG_ERR_INVALID,
            "the ranks planned differently (this one %s on %s, sync=%s): give every rank the same "
            "MESHGOSSIP_* settings and model",
            p->algo, p->topo, p->dataflow ? "data" : "rounds");
    return MPI_ERR_ARG;
  }
  return MPI_SUCCESS;
}

static int plan_init(mg_problem problem, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                     const mg_mpi_opts *o, mg_mpi_plan **out) {
  mg_err local, *err = o && o->err ? o->err : &local;
  int rc, inter = 0;
  *out = NULL;
  if (comm == MPI_COMM_NULL) {
    mg_fail(err, MG_ERR_INVALID, "MPI_COMM_NULL");
    return MPI_ERR_COMM;
  }
  if ((rc = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS) return rc;
  if (inter) {
    mg_fail(err, MG_ERR_UNSUPPORTED, "intercommunicators are not supported");
    return MPI_ERR_COMM;
  }
  mg_mpi_plan *p = calloc(1, sizeof *p);
  int lrc = MPI_ERR_NO_MEM;
  if (p) {
    p->comm = MPI_COMM_NULL;
    p->problem = problem;
    p->scount = scount, p->rcount = rcount;
    p->stype = p->rtype = MPI_DATATYPE_NULL;
    MPI_Comm_size(comm, &p->size);
    MPI_Comm_rank(comm, &p->rank);
    /* the plan keeps its own handles of derived types: a persistent plan
     * outlives the caller's MPI_Type_free, as MPI's persistent
     * collectives do. Predefined types stay as they are: a duplicate's
     * combiner is MPI_COMBINER_DUP, which would lose the direct path (a
     * review: every plan packed and unpacked) */
    if (keep_type(stype, &p->stype, &p->sdup) != MPI_SUCCESS)
      lrc = MPI_ERR_TYPE, mg_fail(err, MG_ERR_INVALID, "sendtype cannot be duplicated");
    else if (keep_type(rtype, &p->rtype, &p->rdup) != MPI_SUCCESS)
      lrc = MPI_ERR_TYPE, mg_fail(err, MG_ERR_INVALID, "recvtype cannot be duplicated");
    else
      lrc = plan_local(p, comm, o, err);
  } else {
    mg_fail(err, MG_ERR_NOMEM, "out of memory for the MPI plan");
  }
  /* Every rank reaches the duplication and the agreement, whatever its
   * local outcome: no rank can be left waiting. */
  MPI_Comm dup = MPI_COMM_NULL;
  rc = MPI_Comm_dup(comm, &dup);
  if (rc != MPI_SUCCESS) {
    mg_mpi_plan_free(&p);
    return rc;
  }
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  int worst = 0, mine = lrc;
  rc = MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, dup);
  if (rc == MPI_SUCCESS && worst != MPI_SUCCESS) {
    if (lrc == MPI_SUCCESS) mg_fail(err, MG_ERR_INVALID, "another rank could not make the plan");
    rc = worst;
  }
  if (rc == MPI_SUCCESS) rc = same_plan(p, dup, err);
  if (rc != MPI_SUCCESS) {
    MPI_Comm_free(&dup);
    mg_mpi_plan_free(&p);
    return rc;
  }
  p->comm = dup;
  *out = p;
  return MPI_SUCCESS;
}

int mg_mpi_allgather_init(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          const mg_mpi_opts *opts, mg_mpi_plan **plan) {
  return plan_init(MG_GOSSIP, sendcount, sendtype, recvcount, recvtype, comm, opts, plan);
}

int mg_mpi_alltoall_init(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         const mg_mpi_opts *opts, mg_mpi_plan **plan) {
  return plan_init(MG_EXCHANGE, sendcount, sendtype, recvcount, recvtype, comm, opts, plan);
}

const char *mg_mpi_plan_algorithm(const mg_mpi_plan *p) { return p ? p->algo : ""; }
const char *mg_mpi_plan_topology(const mg_mpi_plan *p) { return p ? p->topo : ""; }
const char *mg_mpi_plan_sync(const mg_mpi_plan *p) { return p && p->dataflow ? "data" : "rounds"; }
int64_t mg_mpi_plan_rounds(const mg_mpi_plan *p) { return p ? p->rp.sched_rounds : 0; }
uint64_t mg_mpi_plan_sends(const mg_mpi_plan *p) { return p ? p->rp.sends : 0; }
uint64_t mg_mpi_plan_buffer_bytes(const mg_mpi_plan *p) { return p ? p->buffer_bytes : 0; }

/* Packs count elements of type at buf into out (exactly bytes bytes). */
static int pack(MPI_Comm comm, const void *buf, int count, MPI_Datatype type, char *out, uint64_t bytes) {
  int pos = 0;
  int rc = MPI_Pack(buf, count, type, out, (int)bytes, &pos, comm);
  if (rc == MPI_SUCCESS && (uint64_t)pos != bytes) rc = MPI_ERR_TYPE;
  return rc;
}

static int unpack(MPI_Comm comm, const char *in, uint64_t bytes, void *buf, int count, MPI_Datatype type) {
  int pos = 0;
  int rc = MPI_Unpack(in, (int)bytes, &pos, buf, count, type, comm);
  if (rc == MPI_SUCCESS && (uint64_t)pos != bytes) rc = MPI_ERR_TYPE;
  return rc;
}

static char *seg_ptr(char *const region[3], const mg_pseg *g) { return region[g->region] + g->off; }

static int run_rounds(mg_mpi_plan *p, char *const region[3]) {
  const mg_rank_plan *rp = &p->rp;
  int rc = MPI_SUCCESS;
  for (size_t r = 0; r < rp->nrounds && rc == MPI_SUCCESS; r++) {
    const mg_pround *rd = &rp->rounds[r];
    int tag = MG_TAG_BASE + (int)(rd->index % MG_TAG_SPAN);
    int nreq = 0;
    for (size_t i = 0; i < rd->nrecv + rd->nsend && rc == MPI_SUCCESS; i++) {
      const mg_pmsg *m = &rp->msgs[rd->recv0 + i];
      const mg_pseg *g = &rp->segs[m->seg0];
      char *buf = m->nseg > 1 ? p->stage + m->stage : seg_ptr(region, g);
      if (i < rd->nrecv) {
        rc = MPI_Irecv(buf, (int)m->bytes, MPI_BYTE, m->peer, tag, p->comm, &p->reqs[nreq++]);
        continue;
      }
      if (m->nseg > 1) {
        char *s = buf;
        for (size_t k = 0; k < m->nseg; k++) {
          memcpy(s, seg_ptr(region, &g[k]), g[k].len);
          s += g[k].len;
        }
      }
      rc = MPI_Isend(buf, (int)m->bytes, MPI_BYTE, m->peer, tag, p->comm, &p->reqs[nreq++]);
    }
    if (rc != MPI_SUCCESS) {
      /* requests already posted must still complete before returning */
      MPI_Waitall(nreq, p->reqs, MPI_STATUSES_IGNORE);
      break;
    }
    rc = MPI_Waitall(nreq, p->reqs, MPI_STATUSES_IGNORE);
    for (size_t i = 0; i < rd->nrecv && rc == MPI_SUCCESS; i++) {
      const mg_pmsg *m = &rp->msgs[rd->recv0 + i];
      if (m->nseg < 2) continue;
      const mg_pseg *g = &rp->segs[m->seg0];
      const char *s = p->stage + m->stage;
      for (size_t k = 0; k < m->nseg; k++) {
        memcpy(seg_ptr(region, &g[k]), s, g[k].len);
        s += g[k].len;
      }
    }
  }
  return rc;
}

/* A receive has completed: its staged bytes go where they belong. */
static void scatter(mg_mpi_plan *p, char *const region[3], const mg_pmsg *m) {
  if (m->nseg < 2) return;
  const mg_pseg *g = &p->rp.segs[m->seg0];
  const char *s = p->stage + m->stage;
  for (size_t k = 0; k < m->nseg; k++) {
    memcpy(seg_ptr(region, &g[k]), s, g[k].len);
    s += g[k].len;
  }
}

/* Waits for any outstanding message; a receive is scattered before it
 * counts as done. */
static int complete_one(mg_mpi_plan *p, char *const region[3], const char *is_recv) {
  int idx = MPI_UNDEFINED;
  int rc = MPI_Waitany((int)p->rp.nmsgs, p->reqs, &idx, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  if (idx == MPI_UNDEFINED) return MPI_ERR_INTERN; /* waiting on nothing: a plan bug */
  if (is_recv[idx]) scatter(p, region, &p->rp.msgs[idx]);
  p->done[idx] = 1;
  return MPI_SUCCESS;
}

/* sync=data (see the top of this file). done[] first marks the receives
 * (1 = receive, still outstanding), then completion. */
static int run_dataflow(mg_mpi_plan *p, char *const region[3]) {
  const mg_rank_plan *rp = &p->rp;
  size_t n = rp->nmsgs;
  char *is_recv = calloc(n ? n : 1, 1);
  if (!is_recv) return MPI_ERR_NO_MEM;
  int rc = MPI_SUCCESS;
  for (size_t i = 0; i < n; i++)
    p->reqs[i] = MPI_REQUEST_NULL, p->done[i] = 0;
  for (size_t r = 0; r < rp->nrounds && rc == MPI_SUCCESS; r++) {
    const mg_pround *rd = &rp->rounds[r];
    int tag = MG_TAG_BASE + (int)(rd->index % MG_TAG_SPAN);
    for (size_t i = 0; i < rd->nrecv && rc == MPI_SUCCESS; i++) {
      size_t mi = rd->recv0 + i;
      const mg_pmsg *m = &rp->msgs[mi];
      char *buf = m->nseg > 1 ? p->stage + m->stage : seg_ptr(region, &rp->segs[m->seg0]);
      is_recv[mi] = 1;
      rc = MPI_Irecv(buf, (int)m->bytes, MPI_BYTE, m->peer, tag, p->comm, &p->reqs[mi]);
    }
  }
  for (size_t r = 0; r < rp->nrounds && rc == MPI_SUCCESS; r++) {
    const mg_pround *rd = &rp->rounds[r];
    int tag = MG_TAG_BASE + (int)(rd->index % MG_TAG_SPAN);
    for (size_t i = 0; i < rd->nsend && rc == MPI_SUCCESS; i++) {
      size_t mi = rd->recv0 + rd->nrecv + i;
      const mg_pmsg *m = &rp->msgs[mi];
      for (size_t k = 0; k < m->ndep && rc == MPI_SUCCESS; k++)
        while (!p->done[rp->deps[m->dep0 + k]] && rc == MPI_SUCCESS)
          rc = complete_one(p, region, is_recv);
      if (rc != MPI_SUCCESS) break;
      const mg_pseg *g = &rp->segs[m->seg0];
      char *buf = m->nseg > 1 ? p->stage + m->stage : seg_ptr(region, g);
      if (m->nseg > 1) {
        char *s = buf;
        for (size_t k = 0; k < m->nseg; k++) {
          memcpy(s, seg_ptr(region, &g[k]), g[k].len);
          s += g[k].len;
        }
      }
      rc = MPI_Isend(buf, (int)m->bytes, MPI_BYTE, m->peer, tag, p->comm, &p->reqs[mi]);
    }
  }
  if (rc != MPI_SUCCESS) {
    /* what was posted must still complete before returning */
    MPI_Waitall((int)n, p->reqs, MPI_STATUSES_IGNORE);
  } else {
    for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++)
      while (!p->done[i] && rc == MPI_SUCCESS)
        rc = complete_one(p, region, is_recv);
  }
  free(is_recv);
  return rc;
}

static int run_plan(mg_mpi_plan *p, char *const region[3]) {
  return p->dataflow ? run_dataflow(p, region) : run_rounds(p, region);
}

int mg_mpi_start(mg_mpi_plan *p, const void *sendbuf, void *recvbuf) {
  if (!p) return MPI_ERR_ARG;
  int inplace = sendbuf == MPI_IN_PLACE, rc = MPI_SUCCESS;
  if (!inplace && p->stype == MPI_DATATYPE_NULL) return MPI_ERR_TYPE;
  uint64_t L = p->L, N = (uint64_t)p->size, me = (uint64_t)p->rank;
  if (L == 0) return MPI_SUCCESS;
  char *work = p->rdirect ? (char *)recvbuf : p->work_tmp;
  char *myblock_out = (char *)recvbuf + (MPI_Aint)me * p->rcount * p->rext;
  if (p->trivial) {
    /* one rank: its block goes from sendbuf to recvbuf (block 0 both ways) */
    if (inplace) return MPI_SUCCESS;
    char *tmp = malloc(L);
    if (!tmp) return MPI_ERR_NO_MEM;
    /* on the plan's communicator, whose errors return (MPI_COMM_SELF's
     * would abort whatever the caller's handler says) */
    rc = pack(p->comm, sendbuf, p->scount, p->stype, tmp, L);
    if (rc == MPI_SUCCESS) rc = unpack(p->comm, tmp, L, myblock_out, p->rcount, p->rtype);
    free(tmp);
    return rc;
  }
  if (p->problem == MG_GOSSIP) {
    /* put this rank's block in place */
    if (!p->rdirect && inplace)
      rc = pack(p->comm, myblock_out, p->rcount, p->rtype, work + me * L, L);
    else if (!inplace && p->sdirect)
      memcpy(work + me * L, sendbuf, L);
    else if (!inplace)
      rc = pack(p->comm, sendbuf, p->scount, p->stype, work + me * L, L);
    char *region[3] = {NULL, work, p->temp};
    if (rc == MPI_SUCCESS) rc = run_plan(p, region);
  } else {
    char *send;
    if (inplace) {
      send = p->send_tmp;
      if (p->rdirect)
        memcpy(send, recvbuf, N * L);
      else
        rc = pack(p->comm, recvbuf, (int)(N * (uint64_t)p->rcount), p->rtype, send, N * L);
    } else if (p->sdirect) {
      send = (char *)sendbuf;
    } else {
      send = p->send_tmp;
      rc = pack(p->comm, sendbuf, (int)(N * (uint64_t)p->scount), p->stype, send, N * L);
    }
    char *region[3] = {send, work, p->temp};
    if (rc == MPI_SUCCESS) {
      memmove(work + me * L, send + me * L, L);
      rc = run_plan(p, region);
    }
  }
  if (rc == MPI_SUCCESS && !p->rdirect)
    rc = unpack(p->comm, work, N * L, recvbuf, (int)(N * (uint64_t)p->rcount), p->rtype);
  return rc;
}

static int one_shot(mg_problem problem, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  mg_mpi_plan *p = NULL;
  int rc = plan_init(problem, sendbuf == MPI_IN_PLACE ? 0 : sendcount,
                     sendbuf == MPI_IN_PLACE ? MPI_DATATYPE_NULL : sendtype, recvcount, recvtype, comm, NULL, &p);
  if (rc != MPI_SUCCESS) return rc;
  rc = mg_mpi_start(p, sendbuf, recvbuf);
  mg_mpi_plan_free(&p);
  return rc;
}

int mg_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return one_shot(MG_GOSSIP, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int mg_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm) {
  return one_shot(MG_EXCHANGE, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

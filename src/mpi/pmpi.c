/* libmeshgossip-pmpi: a PMPI interposer. Loaded with LD_PRELOAD (or linked
 * before the MPI library), it replaces MPI_Allgather and MPI_Alltoall of an
 * unmodified program by meshgossip plans (and MPI_Allgatherv/MPI_Alltoallv
 * with equal counts laid end to end, and MPI_Iallgather/MPI_Ialltoall,
 * run at the call: see below):
 *   MESHGOSSIP_ALLGATHER / MESHGOSSIP_ALLTOALL  algorithm ("auto" default;
 *                                               "pmpi" keeps MPI's own)
 *   MESHGOSSIP_TOPO, MESHGOSSIP_MODEL,          as for the library
 *   MESHGOSSIP_SYNC (rounds | data)
 *   MESHGOSSIP_VERBOSE=1                        rank 0 of each communicator
 *                                               says which path a plan took
 *                                               (once per plan, not per call)
 * Any other MESHGOSSIP_* variable is warned about once (a misspelling).
 * Anything a plan cannot do (intercommunicators, a topology of the wrong
 * size, an algorithm that refuses it) goes to PMPI_Allgather /
 * PMPI_Alltoall; plan creation agrees across ranks, so all of them take the
 * same path. Plans are cached on the communicator (an attribute, freed
 * with it; at most CACHE_MAX per communicator, least recently used
 * evicted), keyed by the datatypes' descriptions (typesig.h), not their
 * handles: a handle may be freed and reused for another type, and a type
 * made anew each call is the same type. Derived types were planned per
 * call before (28.4 ms a call on 16 ranks, 0.44 ms now:
 * bench/mpi_type_calls.c); one too large to describe
 * still is.
 *
 * Every call first agrees across ranks (one small MPI_Allreduce) on the
 * block size in bytes and on whether any rank must plan: counts that
 * differ between ranks return MPI_ERR_COUNT on every rank (through the
 * communicator's error handler) instead of leaving ranks in plans of
 * different sizes, and a rank whose cache holds a plan the others lack
 * plans again with them. A fallback to MPI's own collective is said once
 * per process on stderr (every call with MESHGOSSIP_VERBOSE=1). Safe under
 * MPI_THREAD_MULTIPLE for calls on different communicators, as MPI
 * requires of collectives. */
#include "meshgossip_mpi.h"
#include "typesig.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cached {
  struct cached *next;
  mg_problem problem;
  int inplace, scount, rcount;
  unsigned char *sig; /* the send type's description, then the receive type's */
  size_t slen, rlen;
  mg_mpi_plan *plan; /* NULL: planning failed, use PMPI */
  char reason[MG_ERR_LEN];
} cached;

/* The attribute key of the plan cache. Process-wide by nature: MPI keyvals
 * are global handles, created once on first use. */
static int cache_key = MPI_KEYVAL_INVALID;

/* The attribute's value: set once per communicator (setting it again
 * would run the delete callback on the old value). */
typedef struct cache_root {
  cached *head;
} cache_root;

static int cache_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  cache_root *root = val;
  for (cached *c = root->head, *nx; c; c = nx) {
    nx = c->next;
    mg_mpi_plan_free(&c->plan);
    free(c->sig);
    free(c);
  }
  free(root);
  return MPI_SUCCESS;
}

static int verbose(void) {
  const char *v = getenv("MESHGOSSIP_VERBOSE");
  return v && *v && strcmp(v, "0") != 0;
}

static void say(MPI_Comm comm, const char *coll, int count, const char *path) {
  int rank = 0, size = 0;
  if (!verbose()) return;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank == 0) fprintf(stderr, "meshgossip: %s on %d ranks, count %d: %s\n", coll, size, count, path);
}

/* Plans kept per communicator, most recently used first; the least
 * recently used is freed beyond this (a program cycling through many
 * counts would otherwise hold a plan and a duplicate communicator each). */
#define CACHE_MAX 8

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static void make_key(void) {
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cache_delete, &cache_key, NULL) != MPI_SUCCESS)
    cache_key = MPI_KEYVAL_INVALID;
}

/* Set once a fallback has been reported (without MESHGOSSIP_VERBOSE). */
static atomic_int warned;
/* Set once the paths that have no plan were said (MESHGOSSIP_VERBOSE). */
static atomic_int said_pmpi, said_inter;

/* The variables this library reads; any other MESHGOSSIP_* in the
 * environment is most likely a misspelling (MESHGOSSIP_ALLGATHR=ring would
 * otherwise be ignored in silence): said once, by rank 0 of the first
 * communicator intercepted. */
static const char *const known_env[] = {"MESHGOSSIP_ALLGATHER", "MESHGOSSIP_ALLTOALL", "MESHGOSSIP_TOPO",
                                        "MESHGOSSIP_MODEL",     "MESHGOSSIP_SYNC",     "MESHGOSSIP_VERBOSE",
                                        "MESHGOSSIP_PROGRESS"};
extern char **environ;
static atomic_int env_checked;

static void check_env(MPI_Comm comm) {
  if (atomic_exchange(&env_checked, 1)) return;
  int rank = 0;
  if (comm == MPI_COMM_NULL || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || rank != 0) return;
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, "MESHGOSSIP_", 11) != 0) continue;
    size_t len = strcspn(*e, "=");
    int known = 0;
    for (size_t i = 0; i < sizeof known_env / sizeof known_env[0]; i++)
      known |= strlen(known_env[i]) == len && !strncmp(*e, known_env[i], len);
    if (!known)
      fprintf(stderr,
              "meshgossip: warning: unknown variable %.*s ignored (known: MESHGOSSIP_ALLGATHER, "
              "MESHGOSSIP_ALLTOALL, MESHGOSSIP_TOPO, MESHGOSSIP_MODEL, MESHGOSSIP_SYNC, MESHGOSSIP_VERBOSE, "
              "MESHGOSSIP_PROGRESS)\n",
              (int)len, *e);
  }
}

/* One MPI_Allreduce that every rank reaches before anything collective:
 * the block size in bytes must be the same on every rank and each rank's
 * send block as large as its receive block (a program that breaks this
 * would leave some ranks waiting in a plan built for another size), and
 * *anymiss says whether some rank must plan (then all do, together),
 * *anypmpi whether some rank was told to use MPI's own (then all do: a
 * rank set apart by its environment would otherwise leave the others
 * waiting in a plan, a review).
 * Returns MPI_SUCCESS or the error class every rank returns. */
static int agree(int inplace, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, int miss, int pmpi, MPI_Comm comm,
                 int *anymiss, int *anypmpi) {
  /* bad, the worst over the ranks: 3 a negative count (MPI_ERR_COUNT),
   * 2 a type MPI cannot size (MPI_ERR_TYPE), 1 send and receive blocks of
   * different sizes (MPI_ERR_TRUNCATE): the classes MPI's own gives */
  int rsz = 0, ssz = 0, bad = 0;
  if (rc < 0 || (!inplace && sc < 0))
    bad = 3;
  else if (rt == MPI_DATATYPE_NULL || PMPI_Type_size(rt, &rsz) != MPI_SUCCESS || rsz < 0 ||
           (!inplace && (st == MPI_DATATYPE_NULL || PMPI_Type_size(st, &ssz) != MPI_SUCCESS || ssz < 0)))
    bad = 2;
  long long L = bad ? 0 : (long long)rc * rsz;
  if (!bad && !inplace && (long long)sc * ssz != L) bad = 1;
  long long v[5] = {L, -L, bad, miss, pmpi}, w[5];
  int e = PMPI_Allreduce(v, w, 5, MPI_LONG_LONG, MPI_MAX, comm);
  if (e != MPI_SUCCESS) return e;
  *anymiss = w[3] != 0;
  *anypmpi = w[4] != 0;
  if (w[2]) return w[2] == 3 ? MPI_ERR_COUNT : w[2] == 2 ? MPI_ERR_TYPE : MPI_ERR_TRUNCATE;
  if (w[0] != -w[1]) return MPI_ERR_SIZE;
  return MPI_SUCCESS;
}

static void drop(cache_root *root, cached *c) {
  for (cached **pp = &root->head; *pp; pp = &(*pp)->next)
    if (*pp == c) {
      *pp = c->next;
      break;
    }
  mg_mpi_plan_free(&c->plan);
  free(c->sig);
  free(c);
}

static int intercept(mg_problem pr, const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                     MPI_Comm comm) {
  const char *coll = pr == MG_GOSSIP ? "MPI_Allgather" : "MPI_Alltoall";
  const char *algo = getenv(pr == MG_GOSSIP ? "MESHGOSSIP_ALLGATHER" : "MESHGOSSIP_ALLTOALL");
  int inter = 0, inplace = sb == MPI_IN_PLACE;
#define PMPI_CALL()                                                                                                    \
  (pr == MG_GOSSIP ? PMPI_Allgather(sb, sc, st, rb, rc, rt, comm) : PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm))
  check_env(comm);
  int want_pmpi = algo && (!strcmp(algo, "pmpi") || !strcmp(algo, "off"));
  if (comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) {
    if (comm != MPI_COMM_NULL && !atomic_exchange(&said_inter, 1)) say(comm, coll, rc, "PMPI (intercommunicator)");
    return PMPI_CALL();
  }
  if (inplace) sc = 0, st = MPI_DATATYPE_NULL;
  /* pmpi: no plan to look up, only the agreement below */
  unsigned char ssig[MG_TYPESIG_MAX], rsig[MG_TYPESIG_MAX];
  size_t slen = 0, rlen = 0;
  int cacheable = !want_pmpi && mg_typesig(st, ssig, &slen) == 0 && mg_typesig(rt, rsig, &rlen) == 0;
  cache_root *root = NULL;
  cached *hit = NULL;
  int found = 0;
  if (cacheable) {
    pthread_once(&key_once, make_key);
    if (cache_key == MPI_KEYVAL_INVALID)
      cacheable = 0;
    else if (MPI_Comm_get_attr(comm, cache_key, &root, &found) != MPI_SUCCESS || !found)
      root = NULL;
    if (cacheable && !root) {
      root = calloc(1, sizeof *root);
      if (!root || MPI_Comm_set_attr(comm, cache_key, root) != MPI_SUCCESS) {
        free(root);
        root = NULL;
        cacheable = 0;
      }
    }
  }
  for (cached **pp = cacheable ? &root->head : NULL; pp && *pp; pp = &(*pp)->next) {
    cached *c = *pp;
    if (c->problem == pr && c->inplace == inplace && c->scount == sc && c->rcount == rc && c->slen == slen &&
        c->rlen == rlen && memcmp(c->sig, ssig, slen) == 0 && memcmp(c->sig + slen, rsig, rlen) == 0) {
      *pp = c->next; /* to the front */
      c->next = root->head;
      root->head = c;
      hit = c;
      break;
    }
  }
  int anymiss = 0, anypmpi = 0, e = agree(inplace, sc, st, rc, rt, hit == NULL, want_pmpi, comm, &anymiss, &anypmpi);
  if (e == MPI_SUCCESS && anypmpi) {
    if (!atomic_exchange(&said_pmpi, 1))
      say(comm, coll, rc, want_pmpi ? "PMPI (MESHGOSSIP_* = pmpi)" : "PMPI (another rank's MESHGOSSIP_* = pmpi)");
    return PMPI_CALL();
  }
  if (e != MPI_SUCCESS) {
    say(comm, coll, rc,
        e == MPI_ERR_SIZE    ? "error: block sizes differ between ranks"
        : e == MPI_ERR_COUNT ? "error: a rank gives a negative count"
        : e == MPI_ERR_TYPE  ? "error: a rank gives a datatype MPI cannot size"
                             : "error: a rank's send and receive blocks differ in size");
    /* a block-size mismatch is a count error to the caller */
    if (e == MPI_ERR_SIZE) e = MPI_ERR_COUNT;
    MPI_Comm_call_errhandler(comm, e);
    return e;
  }
  /* another rank plans (its types differ from ours, or it evicted the
   * plan): plan with it, never replay a plan it is not running */
  if (hit && anymiss) {
    drop(root, hit);
    hit = NULL;
  }
  cached local;
  int planned = !hit;
  if (!hit) {
    hit = cacheable ? calloc(1, sizeof *hit) : NULL;
    if (hit && !(hit->sig = malloc(slen + rlen ? slen + rlen : 1))) {
      free(hit);
      hit = NULL;
    }
    if (!hit) {
      hit = &local;
      memset(&local, 0, sizeof local);
      cacheable = 0;
    } else {
      memcpy(hit->sig, ssig, slen);
      memcpy(hit->sig + slen, rsig, rlen);
      hit->slen = slen, hit->rlen = rlen;
    }
    hit->problem = pr, hit->inplace = inplace, hit->scount = sc, hit->rcount = rc;
    mg_err err;
    memset(&err, 0, sizeof err);
    mg_mpi_opts o = {.algo = algo && *algo ? algo : "auto", .err = &err};
    int r = pr == MG_GOSSIP ? mg_mpi_allgather_init(sc, st, rc, rt, comm, &o, &hit->plan)
                            : mg_mpi_alltoall_init(sc, st, rc, rt, comm, &o, &hit->plan);
    if (r != MPI_SUCCESS) snprintf(hit->reason, sizeof hit->reason, "%s", err.msg[0] ? err.msg : "planning failed");
    if (cacheable) {
      hit->next = root->head;
      root->head = hit;
      int k = 0;
      for (cached *c = root->head, *nx; c; c = nx) {
        nx = c->next;
        if (++k > CACHE_MAX) drop(root, c);
      }
    }
    if (!hit->plan && !verbose() && !atomic_exchange(&warned, 1)) {
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      if (rank == 0)
        fprintf(stderr, "meshgossip: %s falls back to MPI's own (said once; MESHGOSSIP_VERBOSE=1 for every plan): %s\n",
                coll, hit->reason);
    }
  }
  int ret;
  /* MESHGOSSIP_VERBOSE speaks once per plan (a cache hit replays silently) */
  if (!hit->plan) {
    char path[MG_ERR_LEN + 32];
    snprintf(path, sizeof path, "PMPI (%s)", hit->reason);
    if (planned) say(comm, coll, rc, path);
    ret = PMPI_CALL();
  } else {
    char path[256];
    snprintf(path, sizeof path, "meshgossip %s on %s%s", mg_mpi_plan_algorithm(hit->plan),
             mg_mpi_plan_topology(hit->plan), strcmp(mg_mpi_plan_sync(hit->plan), "data") ? "" : ", sync=data");
    if (planned) say(comm, coll, rc, path);
    ret = mg_mpi_start(hit->plan, sb, rb);
  }
  if (hit == &local) mg_mpi_plan_free(&local.plan);
  return ret;
#undef PMPI_CALL
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return intercept(MG_GOSSIP, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return intercept(MG_EXCHANGE, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

/* The v-variants go to the schedules when every block has the same count
 * and the blocks lie end to end (displs[i] == i * count), which is an
 * allgather/alltoall; else to PMPI. Displacements are local to a rank, so
 * the ranks agree on the path first (one small MPI_Allreduce). */
static int equal_blocks(const int *counts, const int *displs, int n, int *count) {
  if (n < 1 || !counts || !displs) return 0;
  for (int i = 0; i < n; i++)
    if (counts[i] != counts[0] || (long long)displs[i] != (long long)i * counts[0]) return 0;
  *count = counts[0];
  return 1;
}

static int all_agree(int mine, MPI_Comm comm, int *all) {
  int inter = 0;
  if (comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return *all = 0, MPI_SUCCESS;
  return PMPI_Allreduce(&mine, all, 1, MPI_INT, MPI_MIN, comm);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  int n = 0, rc = 0, all = 0;
  if (comm != MPI_COMM_NULL) MPI_Comm_size(comm, &n);
  int e = all_agree(equal_blocks(recvcounts, displs, n, &rc), comm, &all);
  if (e != MPI_SUCCESS) return e;
  if (!all) return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  return intercept(MG_GOSSIP, sendbuf, sendcount, sendtype, recvbuf, rc, recvtype, comm);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  int n = 0, sc = 0, rc = 0, all = 0;
  if (comm != MPI_COMM_NULL) MPI_Comm_size(comm, &n);
  int ok = equal_blocks(recvcounts, rdispls, n, &rc) &&
           (sendbuf == MPI_IN_PLACE || equal_blocks(sendcounts, sdispls, n, &sc));
  int e = all_agree(ok, comm, &all);
  if (e != MPI_SUCCESS) return e;
  if (!all) return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  return intercept(MG_EXCHANGE, sendbuf, sc, sendtype, recvbuf, rc, recvtype, comm);
}

/* The non-blocking collectives run the blocking schedule at the call and
 * return a request that is already complete (an MPI generalized request),
 * so MPI_Wait/MPI_Test return at once: the data is in place when the call
 * returns, no overlap is gained, and a program that needs point-to-point
 * traffic between its MPI_Iallgather and MPI_Wait to let another rank
 * reach the collective would wait for ever: MESHGOSSIP_ALLGATHER=pmpi
 * (MESHGOSSIP_ALLTOALL=pmpi) keeps MPI's own non-blocking collective. */
static int greq_query(void *extra, MPI_Status *status) {
  (void)extra;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  status->MPI_ERROR = MPI_SUCCESS;
  return MPI_SUCCESS;
}
static int greq_free(void *extra) {
  (void)extra;
  return MPI_SUCCESS;
}
static int greq_cancel(void *extra, int complete) {
  (void)extra, (void)complete;
  return MPI_SUCCESS;
}

static int done_request(int rc, MPI_Request *request) {
  if (rc != MPI_SUCCESS) return rc;
  int e = MPI_Grequest_start(greq_query, greq_free, greq_cancel, NULL, request);
  if (e == MPI_SUCCESS) e = MPI_Grequest_complete(*request);
  return e;
}

static int keeps_pmpi(mg_problem pr) {
  const char *algo = getenv(pr == MG_GOSSIP ? "MESHGOSSIP_ALLGATHER" : "MESHGOSSIP_ALLTOALL");
  return algo && (!strcmp(algo, "pmpi") || !strcmp(algo, "off"));
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (keeps_pmpi(MG_GOSSIP))
    return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  return done_request(intercept(MG_GOSSIP, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), request);
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (keeps_pmpi(MG_EXCHANGE))
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  return done_request(intercept(MG_EXCHANGE, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                      request);
}

/* Plans cached on the predefined communicators are freed before MPI goes. */
int MPI_Finalize(void) {
  if (cache_key != MPI_KEYVAL_INVALID) {
    MPI_Comm pre[2] = {MPI_COMM_WORLD, MPI_COMM_SELF};
    for (int i = 0; i < 2; i++) {
      void *v;
      int found = 0;
      if (MPI_Comm_get_attr(pre[i], cache_key, &v, &found) == MPI_SUCCESS && found)
        MPI_Comm_delete_attr(pre[i], cache_key);
    }
    MPI_Comm_free_keyval(&cache_key);
  }
  return PMPI_Finalize();
}

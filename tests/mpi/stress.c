/* A plain MPI program (no meshgossip header) that throws at MPI_Allgather
 * and MPI_Alltoall what an interposer meets in the wild; run it under
 * libmeshgossip-pmpi.so (tests/mpi/tests.cmake runs each case on 1..16
 * ranks with a CTest timeout: a hang is a failure). One case per run:
 *   mismatch   counts that differ between ranks, also after a plan for
 *              the common count is cached on one side only: every rank
 *              gets the same MPI_ERR_* (MPI_ERRORS_RETURN), nobody hangs,
 *              and a correct call afterwards still delivers every byte
 *   topo       MESHGOSSIP_TOPO of the wrong size (set by the test): every
 *              call falls back and delivers; the warning is the caller's
 *              to count
 *   types      derived, non-contiguous datatypes on both sides (vector,
 *              indexed with gaps, resized struct), MPI_IN_PLACE for both
 *              collectives, count 0
 *   inter      allgather and alltoall on an intercommunicator
 *   comms      many communicators alive at once, each with several counts
 *              (more than the plan cache holds), freed in another order
 *   threads    MPI_THREAD_MULTIPLE: 4 threads, each on its own duplicate
 *              of the world, call both collectives concurrently
 * Every received byte is checked; the exit status is the failure count
 * agreed by all ranks. */
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond, ...)                                                                                              \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      int r_;                                                                                                          \
      MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                                                              \
      fprintf(stderr, "rank %d: line %d: ", r_, __LINE__);                                                             \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
      __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);                                                              \
    }                                                                                                                  \
  } while (0)

/* Byte i of the block rank r sends to rank d in trial t. */
static unsigned char val(int t, int r, int d, int i) { return (unsigned char)(t * 29 + r * 131 + d * 17 + i * 7); }

/* Allgather and alltoall of m bytes per block on comm, every byte checked;
 * returns the number of wrong bytes or failed calls. */
static int plain_round(MPI_Comm comm, int t, int m) {
  int n, me, bad = 0;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  unsigned char *s = malloc((size_t)m * n + 1), *r = malloc((size_t)m * n + 1);
  for (int i = 0; i < m; i++)
    s[i] = val(t, me, 0, i);
  if (MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, comm) != MPI_SUCCESS) bad++;
  for (int q = 0; q < n; q++)
    for (int i = 0; i < m; i++)
      bad += r[(size_t)q * m + i] != val(t, q, 0, i);
  for (int d = 0; d < n; d++)
    for (int i = 0; i < m; i++)
      s[(size_t)d * m + i] = val(t, me, d, i);
  if (MPI_Alltoall(s, m, MPI_BYTE, r, m, MPI_BYTE, comm) != MPI_SUCCESS) bad++;
  for (int q = 0; q < n; q++)
    for (int i = 0; i < m; i++)
      bad += r[(size_t)q * m + i] != val(t, q, me, i);
  free(s);
  free(r);
  return bad;
}

static void case_mismatch(void) {
  int n, me;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  EXPECT(plain_round(MPI_COMM_WORLD, 1, 8) == 0, "the common count 8 failed");
  /* rank 0 has count 8 cached; the others ask for 16 (and 4) */
  for (int k = 0; k < 2; k++) {
    int m = me == 0 ? 8 : (k ? 4 : 16), big = 16 * n;
    unsigned char *s = calloc((size_t)big, 1), *r = calloc((size_t)big, 1);
    int rc1 = MPI_Allgather(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD);
    int rc2 = MPI_Alltoall(s, m, MPI_BYTE, r, m, MPI_BYTE, MPI_COMM_WORLD);
    if (n > 1) {
      EXPECT(rc1 != MPI_SUCCESS && rc2 != MPI_SUCCESS, "counts differ between ranks, yet success (%d %d)", rc1, rc2);
      int cls1 = -1, cls2 = -1, mx[2], mn[2];
      MPI_Error_class(rc1, &cls1);
      MPI_Error_class(rc2, &cls2);
      int c[2] = {cls1, cls2};
      MPI_Allreduce(c, mx, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      MPI_Allreduce(c, mn, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      EXPECT(mx[0] == mn[0] && mx[1] == mn[1], "ranks got different error classes");
    }
    /* send and receive sizes that differ on one rank only */
    int sm = me == n - 1 ? 2 : 1;
    int rc3 = MPI_Allgather(s, sm, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
    EXPECT(rc3 != MPI_SUCCESS, "send 2 ints against a receive of 1 on rank %d: success", n - 1);
    free(s);
    free(r);
  }
  EXPECT(plain_round(MPI_COMM_WORLD, 2, 8) == 0, "count 8 after the mismatches failed");
  EXPECT(plain_round(MPI_COMM_WORLD, 3, 5) == 0, "count 5 after the mismatches failed");
}

static void case_topo(void) {
  for (int t = 0; t < 3; t++)
    EXPECT(plain_round(MPI_COMM_WORLD, t, 3 + t) == 0, "trial %d", t);
}

static void case_types(void) {
  int n, me;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  /* vector of 3 ints with stride 2 on the receive side, contiguous send */
  MPI_Datatype vec, idx, st, rs;
  MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int s[3] = {me, me + 100, me + 200}, *r = malloc(sizeof(int) * 5 * (size_t)n);
  for (int i = 0; i < 5 * n; i++)
    r[i] = -7;
  EXPECT(MPI_Allgather(s, 3, MPI_INT, r, 1, vec, MPI_COMM_WORLD) == MPI_SUCCESS, "allgather into a vector");
  /* extent of vec is 5 ints: block q at 5q */
  for (int q = 0; q < n; q++)
    EXPECT(r[5 * q] == q && r[5 * q + 1] == -7 && r[5 * q + 2] == q + 100 && r[5 * q + 3] == -7 &&
               r[5 * q + 4] == q + 200,
           "vector block %d wrong", q);
  free(r);
  /* indexed with gaps on the send side of an alltoall: 2 doubles at 0 and 3 */
  int bl[2] = {1, 1}, dp[2] = {0, 3};
  MPI_Type_indexed(2, bl, dp, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);
  MPI_Aint lb, ext;
  MPI_Type_get_extent(idx, &lb, &ext); /* 4 doubles */
  double *sd = malloc(sizeof(double) * 4 * (size_t)n), *rd = malloc(sizeof(double) * 2 * (size_t)n);
  for (int d = 0; d < n; d++)
    for (int k = 0; k < 4; k++)
      sd[4 * d + k] = k == 0 ? me * 1000 + d : k == 3 ? -(me * 1000 + d) : 0.5;
  EXPECT(MPI_Alltoall(sd, 1, idx, rd, 2, MPI_DOUBLE, MPI_COMM_WORLD) == MPI_SUCCESS, "alltoall from indexed");
  for (int q = 0; q < n; q++)
    EXPECT(rd[2 * q] == q * 1000 + me && rd[2 * q + 1] == -(q * 1000 + me), "indexed block from %d wrong", q);
  free(sd);
  free(rd);
  /* a struct {char c; int x;} resized to 8 bytes, 2 per block, both sides */
  struct pair {
    char c;
    int x;
  };
  int sbl[2] = {1, 1};
  MPI_Aint sdp[2] = {offsetof(struct pair, c), offsetof(struct pair, x)};
  MPI_Datatype sty[2] = {MPI_CHAR, MPI_INT};
  MPI_Type_create_struct(2, sbl, sdp, sty, &st);
  MPI_Type_create_resized(st, 0, sizeof(struct pair), &rs);
  MPI_Type_commit(&rs);
  struct pair ps[2] = {{(char)('a' + me % 26), me}, {(char)('A' + me % 26), -me}};
  struct pair *pr = malloc(sizeof(struct pair) * 2 * (size_t)n);
  memset(pr, 0, sizeof(struct pair) * 2 * (size_t)n);
  EXPECT(MPI_Allgather(ps, 2, rs, pr, 2, rs, MPI_COMM_WORLD) == MPI_SUCCESS, "allgather of a resized struct");
  for (int q = 0; q < n; q++)
    EXPECT(pr[2 * q].c == 'a' + q % 26 && pr[2 * q].x == q && pr[2 * q + 1].c == 'A' + q % 26 && pr[2 * q + 1].x == -q,
           "struct block %d wrong", q);
  free(pr);
  MPI_Type_free(&vec);
  MPI_Type_free(&idx);
  MPI_Type_free(&st);
  MPI_Type_free(&rs);
  /* MPI_IN_PLACE for both collectives, twice (the second from the cache) */
  for (int t = 0; t < 2; t++) {
    int *v = malloc(sizeof(int) * 3 * (size_t)n);
    for (int i = 0; i < 3 * n; i++)
      v[i] = i / 3 == me ? me * 10 + i % 3 + t : -1;
    EXPECT(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 3, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
           "in-place allgather");
    for (int i = 0; i < 3 * n; i++)
      EXPECT(v[i] == (i / 3) * 10 + i % 3 + t, "in-place allgather: v[%d] = %d", i, v[i]);
    for (int d = 0; d < n; d++)
      for (int k = 0; k < 3; k++)
        v[3 * d + k] = me * 1000 + d * 10 + k + t;
    EXPECT(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 3, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
           "in-place alltoall");
    for (int q = 0; q < n; q++)
      for (int k = 0; k < 3; k++)
        EXPECT(v[3 * q + k] == q * 1000 + me * 10 + k + t, "in-place alltoall: block %d[%d] = %d", q, k, v[3 * q + k]);
    free(v);
  }
  /* count 0 */
  int dummy = 5;
  EXPECT(MPI_Allgather(&dummy, 0, MPI_INT, &dummy, 0, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS && dummy == 5, "count 0");
}

static void case_inter(void) {
  int n, me;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (n < 2) return;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 7, &inter);
  int rsize, lrank;
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Comm_rank(inter, &lrank);
  int *g = malloc(sizeof(int) * (size_t)rsize * 2), *s = malloc(sizeof(int) * (size_t)rsize * 2);
  int mine[2] = {me, -me};
  EXPECT(MPI_Allgather(mine, 2, MPI_INT, g, 2, MPI_INT, inter) == MPI_SUCCESS, "intercomm allgather");
  for (int i = 0; i < rsize; i++) {
    int who = 2 * i + (me % 2 ? 0 : 1);
    EXPECT(g[2 * i] == who && g[2 * i + 1] == -who, "intercomm allgather: block %d", i);
  }
  for (int d = 0; d < rsize; d++)
    s[2 * d] = me * 100 + d, s[2 * d + 1] = -(me * 100 + d);
  EXPECT(MPI_Alltoall(s, 2, MPI_INT, g, 2, MPI_INT, inter) == MPI_SUCCESS, "intercomm alltoall");
  for (int i = 0; i < rsize; i++) {
    int who = 2 * i + (me % 2 ? 0 : 1);
    EXPECT(g[2 * i] == who * 100 + lrank && g[2 * i + 1] == -(who * 100 + lrank), "intercomm alltoall: block %d", i);
  }
  free(g);
  free(s);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

static void case_comms(void) {
  enum { K = 9, COUNTS = 10 }; /* COUNTS > the interposer's 8 plans per communicator */
  MPI_Comm c[K];
  for (int rep = 0; rep < 1; rep++) {
    for (int k = 0; k < K; k++) {
      if (k % 3 == 0)
        MPI_Comm_dup(MPI_COMM_WORLD, &c[k]);
      else {
        int me;
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        /* same members, reversed order */
        MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &c[k]);
      }
    }
    for (int m = 1; m <= COUNTS; m++)
      for (int k = 0; k < K; k += 1 + m % 3)
        EXPECT(plain_round(c[k], rep * 100 + m, m) == 0, "comm %d count %d", k, m);
    /* and the first counts again, after the cache has turned over */
    for (int k = 0; k < K; k++)
      EXPECT(plain_round(c[k], rep, 1 + k % 2) == 0, "comm %d again", k);
    for (int k = K - 1; k >= 0; k -= 2)
      MPI_Comm_free(&c[k]);
    for (int k = K - 2; k >= 0; k -= 2)
      MPI_Comm_free(&c[k]);
  }
}

typedef struct {
  MPI_Comm comm;
  int id;
} targ;

static void *thread_main(void *p) {
  targ *a = p;
  for (int t = 0; t < 6; t++)
    EXPECT(plain_round(a->comm, a->id * 10 + t, 1 + (a->id + t) % 5) == 0, "thread %d trial %d", a->id, t);
  return NULL;
}

static void case_threads(int provided) {
  if (provided < MPI_THREAD_MULTIPLE) {
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) printf("stress threads: MPI_THREAD_MULTIPLE not provided (%d); skipped\n", provided);
    return;
  }
  enum { T = 4 };
  pthread_t th[T];
  targ a[T];
  for (int i = 0; i < T; i++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &a[i].comm);
    a[i].id = i;
  }
  for (int i = 0; i < T; i++)
    pthread_create(&th[i], NULL, thread_main, &a[i]);
  for (int i = 0; i < T; i++)
    pthread_join(th[i], NULL);
  for (int i = 0; i < T; i++)
    MPI_Comm_free(&a[i].comm);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  int provided = MPI_THREAD_SINGLE;
  if (!strcmp(which, "threads"))
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  else
    MPI_Init(&argc, &argv);
  if (!strcmp(which, "mismatch"))
    case_mismatch();
  else if (!strcmp(which, "topo"))
    case_topo();
  else if (!strcmp(which, "types"))
    case_types();
  else if (!strcmp(which, "inter"))
    case_inter();
  else if (!strcmp(which, "comms"))
    case_comms();
  else if (!strcmp(which, "threads"))
    case_threads(provided);
  else
    EXPECT(0, "usage: stress mismatch|topo|types|inter|comms|threads");
  int total = 0, me;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) printf("stress %s: %d failures\n", which, total);
  MPI_Finalize();
  return total != 0;
}

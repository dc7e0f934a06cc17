/* Every registered gossip algorithm (and "auto") over MPI on every
 * arrangement of the ranks: ring, line, each 2D torus and mesh, and a 2D
 * Cartesian communicator (periodic and not). Per arrangement: bytes (odd
 * sizes, so pieces are cut unevenly) with a persistent plan started twice,
 * MPI_IN_PLACE, a vector receive type with untouched gaps, and count 0.
 * An algorithm that refuses the topology must fail on every rank with an
 * MPI error; one that accepts must deliver every byte. A topology of the
 * wrong size must fail with MPI_ERR_TOPOLOGY, not hang. */
#include "mpitest.h"

static int runs;

static void bytes_case(MPI_Comm comm, const mg_mpi_opts *o, int ok, const char *what, int count) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  mg_mpi_plan *p = NULL;
  int rc = mg_mpi_allgather_init(count, MPI_BYTE, count, MPI_BYTE, comm, o, &p);
  if (!ok) {
    MT_EXPECT(rc != MPI_SUCCESS && p == NULL, "%s: expected a refusal, got %d", what, rc);
    mg_mpi_plan_free(&p);
    return;
  }
  MT_EXPECT(rc == MPI_SUCCESS, "%s count %d: init failed (%d): %s", what, count, rc, o->err ? o->err->msg : "");
  if (rc != MPI_SUCCESS) return;
  unsigned char *s = malloc((size_t)count + 1), *r = malloc((size_t)count * (size_t)n + 1);
  for (int t = 0; t < 2; t++) {
    for (int i = 0; i < count; i++) s[i] = mt_byte(t, me, 0, (size_t)i);
    memset(r, 0xee, (size_t)count * (size_t)n);
    rc = mg_mpi_start(p, s, r);
    MT_EXPECT(rc == MPI_SUCCESS, "%s: start failed (%d)", what, rc);
    int bad = 0;
    for (int q = 0; q < n && !bad; q++)
      for (int i = 0; i < count; i++)
        if (r[(size_t)q * (size_t)count + (size_t)i] != mt_byte(t, q, 0, (size_t)i)) {
          MT_EXPECT(0, "%s (%s) count %d trial %d: byte %d of rank %d wrong", what, mg_mpi_plan_algorithm(p), count, t, i, q);
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
  int n, me, count = 37;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  mg_mpi_plan *p = NULL;
  if (mg_mpi_allgather_init(0, MPI_DATATYPE_NULL, count, MPI_INT, comm, o, &p) != MPI_SUCCESS) {
    MT_EXPECT(0, "%s: in-place init failed", what);
    return;
  }
  int *r = malloc(sizeof(int) * (size_t)count * (size_t)n);
  for (int i = 0; i < count * n; i++) r[i] = -1;
  for (int i = 0; i < count; i++) r[me * count + i] = me * 1000 + i;
  MT_EXPECT(mg_mpi_start(p, MPI_IN_PLACE, r) == MPI_SUCCESS, "%s: in-place start failed", what);
  for (int q = 0; q < n; q++)
    for (int i = 0; i < count; i++)
      if (r[q * count + i] != q * 1000 + i) {
        MT_EXPECT(0, "%s in place: int %d of rank %d is %d", what, i, q, r[q * count + i]);
        q = n;
        break;
      }
  runs++;
  free(r);
  mg_mpi_plan_free(&p);
}

/* send 6 contiguous ints, receive one vector of 3 blocks of 2 ints with
 * stride 3 (extent 8 ints): gaps must keep their sentinel. */
static void vector_case(MPI_Comm comm, const char *what) {
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  MPI_Datatype vec;
  MPI_Type_vector(3, 2, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int s[6], *r = malloc(sizeof(int) * 8 * (size_t)n);
  for (int i = 0; i < 6; i++) s[i] = me * 100 + i;
  for (int i = 0; i < 8 * n; i++) r[i] = -7;
  int rc = mg_allgather(s, 6, MPI_INT, r, 1, vec, comm);
  MT_EXPECT(rc == MPI_SUCCESS, "%s: vector allgather failed (%d)", what, rc);
  static const int pos[6] = {0, 1, 3, 4, 6, 7};
  for (int q = 0; q < n; q++) {
    for (int i = 0; i < 6; i++)
      MT_EXPECT(r[q * 8 + pos[i]] == q * 100 + i, "%s vector: rank %d element %d is %d", what, q, i, r[q * 8 + pos[i]]);
    MT_EXPECT(r[q * 8 + 2] == -7 && r[q * 8 + 5] == -7, "%s vector: a gap of rank %d was written", what, q);
  }
  runs++;
  free(r);
  MPI_Type_free(&vec);
}

static void zero_case(MPI_Comm comm, const mg_mpi_opts *o, const char *what) {
  int dummy = 42;
  mg_mpi_plan *p = NULL;
  int rc = mg_mpi_allgather_init(0, MPI_INT, 0, MPI_INT, comm, o, &p);
  MT_EXPECT(rc == MPI_SUCCESS, "%s: count 0 init failed (%d)", what, rc);
  if (rc == MPI_SUCCESS) MT_EXPECT(mg_mpi_start(p, &dummy, &dummy) == MPI_SUCCESS && dummy == 42, "%s: count 0", what);
  mg_mpi_plan_free(&p);
  runs++;
}

static void all_cases(MPI_Comm comm, const char *topo, const char *label) {
  mg_err err;
  memset(&err, 0, sizeof err);
  int n;
  MPI_Comm_size(comm, &n);
  for (size_t i = 0; i <= mg_algo_count(); i++) {
    const mg_algo *a = i < mg_algo_count() ? mg_algo_at(i) : NULL;
    if (a && a->problem != MG_GOSSIP) continue;
    mg_mpi_opts o = {.topo = topo, .algo = a ? a->name : "auto", .err = &err};
    int ok = n == 1 || mt_applies(a, MG_GOSSIP, label, 1001);
    char what[96];
    snprintf(what, sizeof what, "%s on %s", o.algo, label);
    bytes_case(comm, &o, ok, what, 1);
    bytes_case(comm, &o, ok, what, 1001);
    if (!ok) continue;
    inplace_case(comm, &o, what);
    zero_case(comm, &o, what);
    if (!a) vector_case(comm, what); /* one-shot: algorithm from the environment, auto */
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n, me;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  char specs[16][32];
  int k = mt_topologies(n, specs, 16);
  if (n == 1) all_cases(MPI_COMM_WORLD, NULL, "ring:1");
  for (int i = 0; i < k; i++) all_cases(MPI_COMM_WORLD, specs[i], specs[i]);
  /* Cartesian communicators: the topology comes from MPI_Cart_get. MPI's
   * last dimension is our dimension 0. */
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
    if (dims[0] > 1) snprintf(label, sizeof label, "%s:%dx%d", periodic ? "torus" : "mesh", dims[1], dims[0]);
    else snprintf(label, sizeof label, "%s:%d", periodic ? "ring" : "line", dims[1]);
    all_cases(cart, NULL, label);
    MPI_Comm_free(&cart);
  }
  /* a topology that does not match the communicator */
  char wrong[32];
  snprintf(wrong, sizeof wrong, "ring:%d", n + 1);
  mg_mpi_opts o = {.topo = wrong};
  mg_mpi_plan *p = NULL;
  int rc = mg_mpi_allgather_init(4, MPI_BYTE, 4, MPI_BYTE, MPI_COMM_WORLD, &o, &p);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  MT_EXPECT(cls == MPI_ERR_TOPOLOGY && p == NULL, "mismatched topology: got error class %d", cls);
  return mt_finish("allgather_all", runs);
}

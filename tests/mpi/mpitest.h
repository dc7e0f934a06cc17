/* Shared helpers of the MPI test programs: deterministic data, byte checks,
 * the topologies a communicator size can be arranged as, and a failure
 * count that every rank agrees on at the end. */
#ifndef MG_MPITEST_H
#define MG_MPITEST_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meshgossip.h"
#include "meshgossip_mpi.h"

static int mt_failures;

#define MT_EXPECT(cond, ...)                                                                                           \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      int r_;                                                                                                          \
      MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                                                              \
      fprintf(stderr, "rank %d: %s:%d: ", r_, __FILE__, __LINE__);                                                     \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
      mt_failures++;                                                                                                   \
    }                                                                                                                  \
  } while (0)

/* Byte i of the block that rank r contributes (for destination d) in trial t. */
static inline unsigned char mt_byte(int t, int r, int d, size_t i) {
  uint64_t x = (uint64_t)t * 0x9e3779b97f4a7c15ULL + (uint64_t)r * 0xbf58476d1ce4e5b9ULL +
               (uint64_t)d * 0x94d049bb133111ebULL + i * 0x2545f4914f6cdd1dULL;
  x ^= x >> 31;
  x *= 0xd6e8feac86c7b3a5ULL;
  x ^= x >> 29;
  return (unsigned char)x;
}

/* Topology specs for n ranks: ring, line, and every 2D torus and mesh
 * a x b with a, b >= 2. Returns the count written (at most max). */
static inline int mt_topologies(int n, char specs[][32], int max) {
  int k = 0;
  if (n < 2) return 0;
  snprintf(specs[k++], 32, "ring:%d", n);
  snprintf(specs[k++], 32, "line:%d", n);
  for (int a = 2; a <= n / 2 && k + 2 <= max; a++)
    if (n % a == 0 && n / a >= 2) {
      snprintf(specs[k++], 32, "torus:%dx%d", a, n / a);
      snprintf(specs[k++], 32, "mesh:%dx%d", a, n / a);
    }
  return k;
}

/* 1 if the algorithm (NULL: any registered one, "auto") accepts the problem. */
static inline int mt_applies(const mg_algo *a, mg_problem pr, const char *topo, double bytes) {
  mg_problem_spec pb;
  memset(&pb, 0, sizeof pb);
  pb.problem = pr;
  pb.bytes = bytes;
  mg_model_default(&pb.model);
  if (mg_model_parse(MG_MPI_DEFAULT_MODEL, &pb.model, NULL) != MG_OK) return 0;
  pb.model.contention = MG_CONT_SHARED;
  if (mg_topo_parse(topo, &pb.topo, NULL) != MG_OK) return 0;
  if (a) return mg_algo_check(a, &pb, NULL, NULL) == MG_OK;
  for (size_t i = 0; i < mg_algo_count(); i++)
    if (mg_algo_at(i)->problem == pr && mg_algo_check(mg_algo_at(i), &pb, NULL, NULL) == MG_OK) return 1;
  return 0;
}

/* Every rank's failures summed; prints the verdict on rank 0; exit code. */
static inline int mt_finish(const char *name, int runs) {
  int total = 0, rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Allreduce(&mt_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("%s: %d collective runs checked, %d failures\n", name, runs, total);
  MPI_Finalize();
  return total ? 1 : 0;
}

#endif

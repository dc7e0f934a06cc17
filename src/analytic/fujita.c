/* Fujita: the theorems' bounds (sections 3-6) and exact step
 * recounts of the mesh-bus algorithms. The recounts are written from the
 * bus loads alone (how many tokens each bus must carry for each sender in
 * each phase), independently of the generators in src/algo/bus_*.c, so
 * that tests can check a simulated schedule against them.
 *
 * Indices are 0-based; node (i, j) is row i, column j. "Even" nodes have
 * i + j even (they send on their row bus in phase 1), "odd" ones on their
 * column bus; the parity is the paper's (1-based) parity, since shifting
 * both indices by one keeps i + j's parity. */
#include "fujita.h"

#include <math.h>
#include <stdlib.h>

static uint64_t chunks(uint64_t tokens, uint64_t ell) {
  if (ell == 0) return tokens > 0;
  return (tokens + ell - 1) / ell;
}

/* Even nodes on row i: columns k with i + k even. */
static uint32_t even_in_row(uint32_t n, uint32_t i) { return i % 2 == 0 ? (n + 1) / 2 : n / 2; }
/* Odd nodes on column j: rows k with k + j odd. */
static uint32_t odd_in_col(uint32_t n, uint32_t j) { return j % 2 == 0 ? n / 2 : (n + 1) / 2; }

static uint32_t ceil_log2(uint32_t n) {
  uint32_t k = 0;
  while (((uint64_t)1 << k) < n)
    k++;
  return k;
}

static double inv(uint64_t ell) { return ell == 0 ? 0.0 : 1.0 / (double)ell; }

double mg_fujita_t1(uint32_t n) { return (double)((n + 1) / 2 + ceil_log2(n)) - 1.0; }

/* n^2 (n+1) token copies over 2n buses of ell tokens each per step. */
double mg_fujita_t2(uint32_t n, uint64_t ell) {
  double N = n;
  return (N * N + N) / 2.0 * inv(ell);
}

double mg_fujita_t3(uint32_t n, uint64_t ell) {
  double N = n;
  return (N * N - N) / 2.0 * inv(ell) + (double)((3 * (uint64_t)n + 1) / 2);
}

double mg_fujita_cor2(uint32_t n, uint64_t ell) {
  uint32_t tau = (n + 1) / 2;
  if (ell == 0 || tau % ell != 0) return NAN;
  double N = n;
  return (N * N + N) / 2.0 * inv(ell) + tau;
}

double mg_fujita_t4(uint32_t n, uint64_t ell) {
  uint32_t tau = (n + 1) / 2;
  if (ell == 0 || ell >= tau || tau % ell == 0) return NAN;
  double N = n;
  return (N * N - N) / 2.0 * inv(ell) + N + 2.0;
}

uint32_t mg_fujita_partition_m(uint32_t n, uint64_t ell) {
  if (ell == 0) return n;
  uint64_t m = 2 * ell / n;
  return m > n ? n : (uint32_t)m;
}

uint32_t mg_fujita_theta_m(uint32_t n, uint64_t ell) {
  if (ell == 0) return n;
  uint64_t c = (ell + n - 1) / n, m = 2 * c;
  return m > n ? n : (uint32_t)m;
}

double mg_fujita_t6(uint32_t n, uint64_t ell) {
  uint32_t m = mg_fujita_partition_m(n, ell);
  if (m == 0) return NAN;
  return (double)((n + 1) / 2 + m + (n + m - 1) / m);
}

double mg_fujita_t7(uint32_t n, uint64_t ell) {
  if (ell != 0 && ell < (uint64_t)n * n) return NAN;
  return (double)(n / 2 + ceil_log2(n) + 2);
}

double mg_fujita_t8_count(uint32_t n, uint32_t m) {
  if (m == 0) return NAN;
  return (double)((n + 1) / 2 + m + (n + m - 1) / m);
}

double mg_fujita_t8(uint32_t n, uint64_t ell) {
  double N = n, a = N / 2, b = ell == 0 ? 0 : N * N / (2.0 * (double)ell);
  return 2.0 * (a > b ? a : b);
}

/* Phase 1 of SIMPLE and PARTITION: ceil(n/2) senders on the busiest bus. */
static uint64_t phase1(uint32_t n) {
  uint64_t t = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (even_in_row(n, k) > t) t = even_in_row(n, k);
    if (odd_in_col(n, k) > t) t = odd_in_col(n, k);
  }
  return t;
}

uint64_t mg_fujita_simple_steps(uint32_t n, uint64_t ell, int refined) {
  uint64_t p2 = 0, cap = ell == 0 ? UINT64_MAX : ell - 1;
  /* Phase 2, row bus i: every node (i, j) sends the odd tokens of column
   * j (its own included), less what it piggy-backed in phase 1: the t-th
   * even sender of row i has heard min(t-1, c_j) of them by its step. */
  for (uint32_t i = 0; i < n; i++) {
    uint64_t row = 0, col = 0, t_row = 0;
    for (uint32_t j = 0; j < n; j++) {
      uint64_t c = odd_in_col(n, j), p = 0;
      if ((i + j) % 2 == 0) {
        t_row++;
        if (refined) {
          p = t_row - 1 < c ? t_row - 1 : c;
          if (p > cap) p = cap;
        }
      }
      row += chunks(c - p, ell);
    }
    /* column bus i: node (k, i) sends the even tokens of row k */
    uint64_t t_col = 0;
    for (uint32_t k = 0; k < n; k++) {
      uint64_t r = even_in_row(n, k), p = 0;
      if ((k + i) % 2 == 1) {
        t_col++;
        if (refined) {
          p = t_col - 1 < r ? t_col - 1 : r;
          if (p > cap) p = cap;
        }
      }
      col += chunks(r - p, ell);
    }
    if (row > p2) p2 = row;
    if (col > p2) p2 = col;
  }
  return phase1(n) + p2;
}

uint64_t mg_fujita_partition_steps(uint32_t n, uint64_t ell, uint32_t m) {
  if (m == 0) return 0;
  if (m > n) m = n;
  uint32_t sigma = (n + m - 1) / m;
  uint64_t p2 = 0, p3 = 0;
  /* Phase 2: bus of index k (row k or column k) in group x carries one
   * message per member of N_x: c_j tokens on a row, r_i on a column. */
  for (uint32_t k = 0; k < n; k++) {
    uint32_t lo = k / m * m, hi = lo + m < n ? lo + m : n;
    uint64_t row = 0, col = 0;
    for (uint32_t q = lo; q < hi; q++) {
      row += chunks(odd_in_col(n, q), ell);
      col += chunks(even_in_row(n, q), ell);
    }
    if (row > p2) p2 = row;
    if (col > p2) p2 = col;
  }
  /* Phase 3: row k gets from one node per group y the even tokens of the
   * rows of N_y but its own; column l the odd tokens of the columns of N_y
   * but its own. */
  for (uint32_t k = 0; k < n; k++) {
    uint64_t row = 0, col = 0;
    for (uint32_t y = 0; y < sigma; y++) {
      uint32_t lo = y * m, hi = lo + m < n ? lo + m : n;
      uint64_t r = 0, c = 0;
      for (uint32_t q = lo; q < hi; q++) {
        if (q == k) continue;
        r += even_in_row(n, q);
        c += odd_in_col(n, q);
      }
      row += chunks(r, ell);
      col += chunks(c, ell);
    }
    if (row > p3) p3 = row;
    if (col > p3) p3 = col;
  }
  return phase1(n) + p2 + p3;
}

uint64_t mg_fujita_centralize_steps(uint32_t n, uint64_t ell) {
  uint64_t p1 = 0, p2 = 0, *size = malloc((size_t)n * sizeof *size);
  uint32_t u = n;
  if (!size) return 0; /* documented: 0 when out of memory */
  for (uint32_t x = 0; x < n; x++) {
    /* (x, x) is even: row x sends its other even tokens, column x its odd */
    if (even_in_row(n, x) - 1 > p1) p1 = even_in_row(n, x) - 1;
    if (odd_in_col(n, x) > p1) p1 = odd_in_col(n, x);
    size[x] = even_in_row(n, x) + odd_in_col(n, x);
  }
  /* Phase 2: pairs merge; a level takes the longer of the two messages;
   * an unpaired last node waits for the next level. */
  while (u > 1) {
    uint64_t lvl = 0;
    uint32_t v = 0;
    for (uint32_t k = 0; k + 1 < u; k += 2) {
      uint64_t a = chunks(size[k], ell), b = chunks(size[k + 1], ell);
      if (a > lvl) lvl = a;
      if (b > lvl) lvl = b;
      size[v++] = size[k] + size[k + 1];
    }
    if (u % 2) size[v++] = size[u - 1];
    u = v;
    p2 += lvl;
  }
  free(size);
  /* Phase 3: a pipelined broadcast of n^2 tokens, row bus then columns. */
  return p1 + p2 + chunks((uint64_t)n * n, ell) + 1;
}

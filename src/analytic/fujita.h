/* Fujita ("Gossiping in Mesh-Bus Computers by Packets with
 * Bounded Length"): the theorems' bounds and exact step recounts of the
 * algorithms as this project builds them. n is the side of the n x n
 * mesh-bus, ell the tokens per message (0 = unbounded). */
#ifndef MG_ANALYTIC_FUJITA_H
#define MG_ANALYTIC_FUJITA_H

#include <stdint.h>

/* Theorem 1: ceil(n/2) + ceil(log2 n) - 1 steps (unbounded ell). */
double mg_fujita_t1(uint32_t n);
/* Theorem 2: n^2/2ell + n/2ell steps (0 when ell is unbounded). */
double mg_fujita_t2(uint32_t n, uint64_t ell);
/* Theorem 3 (SIMPLE): n^2/2ell - n/2ell + ceil(3n/2). */
double mg_fujita_t3(uint32_t n, uint64_t ell);
/* Corollary 2 (SIMPLE, ell divides ceil(n/2)): n^2/2ell + n/2ell +
 * ceil(n/2); NaN when ell does not divide ceil(n/2). */
double mg_fujita_cor2(uint32_t n, uint64_t ell);
/* Theorem 4 (refined SIMPLE, ell < ceil(n/2) and ell not dividing it):
 * n^2/2ell - n/2ell + n + 2; NaN outside that range. */
double mg_fujita_t4(uint32_t n, uint64_t ell);
/* Theorem 6's proof (PARTITION): tau + m + sigma with m = floor(2ell/n),
 * sigma = ceil(n/m), tau = ceil(n/2); NaN when m = 0. The theorem states
 * n/2 + o(n) for ell = omega(n), o(n^2). */
double mg_fujita_t6(uint32_t n, uint64_t ell);
/* Section 1 / [3] for unbounded packets (CENTRALIZE with ell >= n^2):
 * floor(n/2) + ceil(log2 n) + 2; NaN for ell < n^2. Theorem 7 itself
 * states n/2 + O(log n) for ell = Theta(n^2). */
double mg_fujita_t7(uint32_t n, uint64_t ell);
/* Section 6's count for PARTITION with m = floor(2c): ceil(n/2) + m +
 * ceil(n/m). */
double mg_fujita_t8_count(uint32_t n, uint32_t m);
/* Theorem 8's leading term: 2 * max(n/2, n^2/2ell) (plus O(1)). */
double mg_fujita_t8(uint32_t n, uint64_t ell);

/* PARTITION's m for the paper's rule floor(2 ell / n), capped at n (an
 * unbounded ell gives n). 0 when ell < n/2. */
uint32_t mg_fujita_partition_m(uint32_t n, uint64_t ell);
/* Section 6's m = floor(2c) with c = ceil(ell/n), the least integer with
 * ell <= c n; capped at n. */
uint32_t mg_fujita_theta_m(uint32_t n, uint64_t ell);

/* Exact step counts of the generators (independent recounts from the
 * bus loads): SIMPLE (refined != 0: with section 4.2's piggy-backing),
 * PARTITION with a given m (messages longer than ell split), CENTRALIZE
 * (0 if its scratch array cannot be allocated). */
uint64_t mg_fujita_simple_steps(uint32_t n, uint64_t ell, int refined);
uint64_t mg_fujita_partition_steps(uint32_t n, uint64_t ell, uint32_t m);
uint64_t mg_fujita_centralize_steps(uint32_t n, uint64_t ell);

#endif

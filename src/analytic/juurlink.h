/* Closed forms of Juurlink, Rao, Sibeyn ("Gossiping on Meshes and
 * Tori") and the refined step counts of its journal version (Juurlink, Rao, Sibeyn 1998),
 * for gossip on one-dimensional arrays. Costs are in units of
 * t'_l = l*t_l with r = t_s/t'_l unless a function takes a model. */
#ifndef MG_ANALYTIC_JUURLINK_H
#define MG_ANALYTIC_JUURLINK_H

#include <stdint.h>

/* Juurlink, Rao, Sibeyn 1996 Lemma 6 as printed: the three phases of CIRCGOS(a, b),
 *   T1 = log3(n/a) r + n/(2a),  T2 = floor(a/2) (r + n/a),
 *   T3 = ceil(log_a n - 1) b (r + ceil(n/(2b - a + 2))).
 * terms (optional) receives T1, T2, T3. Returns NaN for a < 2, a > n or
 * 2b - a + 2 < 1. */
double mg_jrs_lemma6(double n, double r, double a, double b, double terms[3]);

/* Steps and transfer units of concentrating s consecutive PUs into one by
 * threes (Juurlink, Rao, Sibeyn 1996 Lemma 5, proof; groups of three from the left, a
 * trailing group of one or two concentrating into its first PU): *steps =
 * ceil(log3 s); the return value is the sum over steps of the largest
 * message, in units of one PU's data. For s = 3^j it is (s-1)/2. */
double mg_jrs_concentration_units(uint64_t s, int *steps);

/* Packets and steps of one round of CIRCGOS phase 3 (Juurlink, Rao, Sibeyn 1998: every old
 * bridgehead cuts the complete data into k packets and streams them
 * rightwards in order and leftwards in reverse order through the m new
 * bridgeheads of each gap). With b steps a gap of m new bridgeheads
 * between two old ones admits k = 2b - m + 1 packets (the middle new
 * bridgehead receives b - j + 1 packets from the left and b - (m+1-j) + 1
 * from the right); a one-sided gap (the ends of a line) admits b - m + 1.
 * kmax (0 = no cap) caps k; the round then needs the fewest steps that
 * deliver k packets. m_two / m_one: the largest two-sided / one-sided gap
 * (0 if none). Returns k (>= 1) and sets *steps. */
uint64_t mg_jrs_phase3_round(uint64_t n, uint64_t b, uint64_t kmax, uint64_t m_two, uint64_t m_one, uint64_t *steps);

/* The refined count (Juurlink, Rao, Sibeyn 1998) of CIRCGOS(a, b, k) on a ring of n = a^(m+1)
 * PUs, all-port wormhole, t_d = 0: phase 1 concentrates n/a PUs by threes,
 * phase 2 takes floor(a/2) steps of n/a units, phase 3 takes m rounds of
 * mg_jrs_phase3_round(n, b, k, a-1, 0) steps of ceil(n/k) units each.
 * Exact for our generator when n is a power of a (segments and gaps then
 * all equal); NaN when n is not. */
double mg_jrs_circgos_ring(uint64_t n, double r, uint64_t a, uint64_t b, uint64_t k, double terms[3]);

/* Theorem 2: a = b = n/r (rounded to the nearest integer, clamped to
 * [2, n]; r <= 0 gives a = b = n). */
void mg_jrs_theorem2_params(uint64_t n, double r, uint64_t *a, uint64_t *b);

/* Lemma 3 / Theorem 1: at least n ln n / (r ln(n/r)) steps of cost >= r
 * each, i.e. n ln n / ln(n/r) time units, for r <= (n-1)/e; NaN outside
 * that regime. A bound for the restricted model of Lemma 3 (messages of
 * size r, rightward links only), not for ours: see bound.c. */
double mg_jrs_lemma3_units(double n, double r);

#endif

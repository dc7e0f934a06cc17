/* Closed forms of Juurlink, Rao, Sibeyn 1996 section 4 and the refined counts of Juurlink, Rao, Sibeyn 1998
 * (see juurlink.h). Every function cites its lemma. */
#include "juurlink.h"

#include <math.h>
#include <stdlib.h>

/* Juurlink, Rao, Sibeyn 1996 Lemma 6, as printed (rounding as the lemma writes it). */
double mg_jrs_lemma6(double n, double r, double a, double b, double terms[3]) {
  if (a < 2 || a > n || 2 * b - a + 2 < 1) return NAN;
  double t1 = log(n / a) / log(3.0) * r + n / (2 * a);
  double t2 = floor(a / 2) * (r + n / a);
  double rounds = ceil(log(n) / log(a) - 1 - 1e-12);
  if (rounds < 0) rounds = 0;
  double t3 = rounds * b * (r + ceil(n / (2 * b - a + 2) - 1e-12));
  if (terms) terms[0] = t1, terms[1] = t2, terms[2] = t3;
  return t1 + t2 + t3;
}

/* Juurlink, Rao, Sibeyn 1996 Lemma 5 (proof): at level j the first group of three holds
 * 3^j PUs' data in each of its outer members, unless only two actives are
 * left, when the second one holds the remainder. */
double mg_jrs_concentration_units(uint64_t s, int *steps) {
  double units = 0;
  int st = 0;
  uint64_t block = 1; /* data held by the first active of a level */
  uint64_t actives = s;
  while (actives > 1) {
    if (actives >= 3)
      units += (double)(block < s ? block : s);
    else
      units += (double)(s - block); /* two actives: the second sends */
    actives = (actives + 2) / 3;
    block *= 3;
    st++;
  }
  if (steps) *steps = st;
  return units;
}

/* Juurlink, Rao, Sibeyn 1998, phase 3 of CIRCGOS: one round of the two packet streams. */
uint64_t mg_jrs_phase3_round(uint64_t n, uint64_t b, uint64_t kmax, uint64_t m_two, uint64_t m_one, uint64_t *steps) {
  if (m_two == 0 && m_one == 0) {
    *steps = 0;
    return 1;
  }
  int64_t k = kmax ? (int64_t)kmax : (int64_t)n;
  if (k > (int64_t)n) k = (int64_t)n;
  if (m_two && 2 * (int64_t)b - (int64_t)m_two + 1 < k) k = 2 * (int64_t)b - (int64_t)m_two + 1;
  if (m_one && (int64_t)b - (int64_t)m_one + 1 < k) k = (int64_t)b - (int64_t)m_one + 1;
  if (k < 1) k = 1;
  uint64_t s2 = m_two ? ((uint64_t)k + m_two - 1 + 1) / 2 : 0; /* ceil((k + m - 1)/2) */
  uint64_t s1 = m_one ? (uint64_t)k + m_one - 1 : 0;
  *steps = s2 > s1 ? s2 : s1;
  return (uint64_t)k;
}

/* Juurlink, Rao, Sibeyn 1996 Lemma 6 with the step counts of Juurlink, Rao, Sibeyn 1998 made exact for
 * n = a^(m+1) on a ring. */
double mg_jrs_circgos_ring(uint64_t n, double r, uint64_t a, uint64_t b, uint64_t k, double terms[3]) {
  if (a < 2 || a > n) return NAN;
  uint64_t p = a;
  int m = 0;
  while (p < n) {
    if (p > n / a + 1) break;
    p *= a;
    m++;
  }
  if (p != n) return NAN;
  int s1;
  double u1 = mg_jrs_concentration_units(n / a, &s1);
  double t1 = s1 * r + u1;
  double t2 = (double)(a / 2) * (r + (double)(n / a));
  double t3 = 0;
  for (int i = 0; i < m; i++) {
    uint64_t steps, kk = mg_jrs_phase3_round(n, b, k, a - 1, 0, &steps);
    t3 += (double)steps * (r + (double)((n + kk - 1) / kk));
  }
  if (terms) terms[0] = t1, terms[1] = t2, terms[2] = t3;
  return t1 + t2 + t3;
}

/* Juurlink, Rao, Sibeyn 1996 Theorem 2: CIRCGOS(n/r, n/r). */
void mg_jrs_theorem2_params(uint64_t n, double r, uint64_t *a, uint64_t *b) {
  double x = r > 0 ? floor((double)n / r + 0.5) : (double)n;
  if (x < 2) x = 2;
  if (x > (double)n) x = (double)n;
  *a = *b = (uint64_t)x;
}

/* Juurlink, Rao, Sibeyn 1996 Lemma 3 (and Theorem 1): F(0)/dF steps, each costing r. */
double mg_jrs_lemma3_units(double n, double r) {
  if (!(r > 0) || r > (n - 1) / exp(1.0) || n < 2) return NAN;
  return n * log(n) / log(n / r);
}

/* Closed forms of Delmas, Perennes 1996; each function cites its proposition (see
 * delmas.h and docs/paper-notes.md, "Delmas, Perennes 1996"). */
#include "delmas.h"

#include <math.h>

static double pow7(int e) {
  double r = 1;
  for (int j = 0; j < e; j++)
    r *= 7;
  for (int j = 0; j > e; j--)
    r /= 7;
  return r;
}

/* Section 5.2.2: g_tau(G_i) = 7 g_tau(G_{i-1}) + 1 + (1 + 1/7 + 1/49) N,
 * g_tau(G_0) = 0; the level-k rounds of the recursion move 7^k (the
 * concentration) and 7^(3i-2k) (1/49 + 1/7 + 1) units. Section 6.2 splits
 * the last round of each level into two of 7^(3i-2k)/7 each, so the
 * bracket becomes 1/49 + 3/7 = 22/49. Summed: the forms of delmas.h. */
mg_delmas_cost mg_delmas_ours(int i, int long_msg) {
  mg_delmas_cost c;
  double N = pow7(3 * i), n = pow7(i);
  if (!long_msg) {
    c.g_alpha = 4.0 * i;
    c.g_delta = 2.0 * (n - 1);
    c.g_tau = (57.0 * N - 49.0 * n - 8.0) / 48.0;
  } else {
    c.g_alpha = 5.0 * i;
    c.g_delta = 13.0 * (n - 1) / 6.0;
    c.g_tau = (11.0 * N - 7.0 * n - 4.0) / 24.0;
  }
  return c;
}

mg_delmas_cost mg_delmas_paper(int i, int which) {
  mg_delmas_cost c;
  double N = pow7(3 * i), D = 3.0 * floor(pow7(i) / 2);
  double a = pow7(i - 1) - 1;
  if (which == 2) {
    /* Proposition 6.4 */
    c.g_alpha = 5.0 * i;
    c.g_delta = 13.0 / 9.0 * D;
    c.g_tau = (22.0 / 49.0 * a + 19.0 * 7.0 / pow7(2 * i) - 1.0 / N) * N / 6.0;
    return c;
  }
  c.g_alpha = 4.0 * i;
  c.g_delta = 12.0 / 9.0 * D;
  if (which == 0) /* Proposition 5.17 as stated */
    c.g_tau = (57.0 / 49.0 * a + pow7(3) / pow7(2 * i) - 1.0 / N) * N / 8.0;
  else /* section 5.2.2, last line */
    c.g_tau = (37.0 / 49.0 * a + pow7(3) / pow7(2 * i) - 1.0 / N) * N / 6.0;
  return c;
}

double mg_delmas_arc_forwarding(uint64_t n, int k) {
  double nk1 = 1;
  for (int j = 0; j + 1 < k; j++)
    nk1 *= (double)n;
  return nk1 / 2.0 * (double)((n * n) / 4);
}

/* Proposition 4.5: N [(2/Delta + 2 t0 - g)(Delta+1)^(g-t0) - 2/Delta]. */
double mg_delmas_tgl_max(double N, int Delta, int g) {
  int t0 = 0;
  double reach = 1;
  while (reach < N)
    reach *= Delta + 1, t0++;
  return N * ((2.0 / Delta + 2.0 * t0 - g) * pow(Delta + 1.0, g - t0) - 2.0 / Delta);
}

int mg_delmas_rounds_lb(double N, int Delta, double pi) {
  int t0 = 0;
  double reach = 1;
  while (reach < N)
    reach *= Delta + 1, t0++;
  /* Proposition 4.4: some arc carries TGL >= pi; fewer than t0 rounds
   * cannot even broadcast. */
  for (int g = t0; g <= 2 * t0; g++)
    if (mg_delmas_tgl_max(N, Delta, g) >= pi) return g;
  return 2 * t0 + 1;
}

double mg_delmas_thm46(double N, int Delta, double pi) {
  int t0 = 0;
  double reach = 1;
  while (reach < N)
    reach *= Delta + 1, t0++;
  double lb = Delta + 1.0;
  double v = t0 + log(pi / N) / log(lb) - log(2.0 / Delta + t0) / log(lb);
  return v > t0 ? v : t0;
}

double mg_delmas_cor48(uint64_t n, int k) { return (k + 1) * log((double)n) / log(2.0 * k + 1); }

mg_delmas_cost mg_delmas_saf(uint64_t p, int k) {
  mg_delmas_cost c;
  double N = 1;
  for (int j = 0; j < k; j++)
    N *= (double)p;
  c.g_alpha = (double)k * (double)(p / 2);
  c.g_delta = c.g_alpha;
  c.g_tau = (N - 1) / (2.0 * k);
  return c;
}

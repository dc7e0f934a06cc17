/* Juurlink, Rao, Sibeyn 1996 sections 5 and 6: the paper's closed forms, as printed. */
#include "juurlink_2d.h"

#include <math.h>

static double log3(double v) { return log(v) / log(3.0); }

/* Lemma 7, first line: 3/4 n t_s + n/4 (n+1) t'_l. */
double mg_jr_t11(double n, double r) { return 0.75 * n * r + n / 4 * (n + 1); }

/* Lemma 7, second line: (2 log3(n/2) + n/2) t_s + n/2 (log3(n/2) + n/2) t'_l. */
double mg_jr_t21(double n, double r) {
  double l = log3(n / 2);
  return (2 * l + n / 2) * r + n / 2 * (l + n / 2);
}

/* Lemma 7, third line: (4 log3 n - 3) t_s + (2 log3 n - 2) n/2 (n/2 + 1) t'_l. */
double mg_jr_t22(double n, double r) {
  double l = log3(n);
  return (4 * l - 3) * r + (2 * l - 2) * n / 2 * (n / 2 + 1);
}

/* Lemma 8: T1 = log3(n/(2a)) t_s + n/(4a) t'_l, T2 = floor(a/2)(t_s + n/(2a) t'_l),
 * T3 = floor(a/2)(t_s + n/2 t'_l); eq. (5): T4a = x (log_b(n/a) t_s +
 * n^2/(2(b-1)(2x-b+2)) t'_l); eq. (6): T4b = floor(b/2)(log_b(n/a) t_s +
 * n^2/(2(b-1)) t'_l). */
double mg_jr_torgos(double n, double r, double a, double b, double x) {
  double fa = floor(a / 2), fb = floor(b / 2), rounds = log(n / a) / log(b);
  double t1 = log3(n / (2 * a)) * r + n / (4 * a);
  double t2 = fa * (r + n / (2 * a));
  double t3 = fa * (r + n / 2);
  double t4a = x * (rounds * r + n * n / (2 * (b - 1) * (2 * x - b + 2)));
  double t4b = fb * (rounds * r + n * n / (2 * (b - 1)));
  return t1 + t2 + t3 + t4a + t4b;
}

/* Lemma 10: T1 = (log3 n - 1) t_s + n/(6d) t'_l; T3a = (log3 n - 1) t_s +
 * n^d/(d(3^(d-1)-1)) t'_l; T2 + T3b = log3 n (d-1) t_s + n^d/(2d(1-1/3^(d-1))) t'_l. */
double mg_jr_cubgos_lemma10(double n, int d, double r) {
  double l = log3(n), nd = pow(n, d), q = pow(3.0, d - 1);
  double t1 = (l - 1) * r + n / (6.0 * d);
  double t3a = (l - 1) * r + nd / (d * (q - 1));
  double t23b = l * (d - 1) * r + nd / (2.0 * d * (1 - 1 / q));
  return t1 + t3a + t23b;
}

double mg_jr_cubgos_thm4(double n, int d, double r) {
  double q = pow(3.0, d - 1);
  return (d + 1) * log3(n) * r + (q + 2) * pow(n, d) / (2.0 * d * (q - 1));
}

double mg_jr_trivial_bound(double n, int d, double r) { return d * log3(n) * r + pow(n, d) / (2.0 * d); }

double mg_jr_cor2_ratio(int d) {
  double q = pow(3.0, d - 1), a = 1 + 1.0 / d, b = (1 + 2 / q) / (1 - 1 / q);
  return a > b ? a : b;
}

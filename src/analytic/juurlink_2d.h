/* Juurlink, Rao, Sibeyn 1996's closed forms for 2D and d-D tori, as printed (cost units
 * t'_l = l t_l, r = t_s/t'_l, distance neglected, real-valued logarithms).
 * These reproduce the paper's Table 2; the algorithms' own closed forms
 * (whole step counts of our schedules) live in their files. */
#ifndef MG_JUURLINK_2D_H
#define MG_JUURLINK_2D_H

/* Lemma 7: Approaches 1-1, 2-1, 2-2 on an n x n torus. */
double mg_jr_t11(double n, double r);
double mg_jr_t21(double n, double r);
double mg_jr_t22(double n, double r);
/* Lemma 8 phases 1-3 plus eqs. (5)-(6) for phase 4 (equal b, x):
 * TORGOS(a, b, x) on an n x n torus. */
double mg_jr_torgos(double n, double r, double a, double b, double x);
/* Lemma 10, phases 1, 3.a and 2 + 3.b of CUBGOS(n, d), summed. */
double mg_jr_cubgos_lemma10(double n, int d, double r);
/* Theorem 4: (d+1) log3 n t_s + (3^(d-1)+2) n^d / (2d(3^(d-1)-1)) t'_l. */
double mg_jr_cubgos_thm4(double n, int d, double r);
/* The "trivial lower bound" of Corollary 2's proof: d log3 n t_s +
 * n^d/(2d) t'_l. */
double mg_jr_trivial_bound(double n, int d, double r);
/* Corollary 2: CUBGOS is max{1 + 1/d, (1 + 2/3^(d-1))/(1 - 1/3^(d-1))}-optimal. */
double mg_jr_cor2_ratio(int d);

#endif

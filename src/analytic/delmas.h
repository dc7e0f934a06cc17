/* Closed forms of Delmas, Perennes ("Circuit-switched gossiping
 * in the 3-dimensional torus networks", INRIA RR-2930, 1996). Figures in
 * the paper's units: g_alpha rounds, g_delta switch settings (sum of the
 * longest dipath of each round), g_tau flow in units of L. */
#ifndef MG_ANALYTIC_DELMAS_H
#define MG_ANALYTIC_DELMAS_H

#include <stdint.h>

/* The counts of a protocol: g = g_alpha*alpha + g_delta*delta + g_tau*L*tau. */
typedef struct mg_delmas_cost {
  double g_alpha, g_delta, g_tau;
} mg_delmas_cost;

/* What the protocols of sections 5.2 (long = 0) and 6.2 (long = 1) achieve
 * on TM(7^i)^3, solved from the recursions of section 5.2.2:
 *   g_alpha = 4i (5i),  g_delta = 2(7^i - 1) (13/6 (7^i - 1)),
 *   g_tau = (57 N - 7^(i+2) - 8)/48  ((11 N - 7^(i+1) - 4)/24), N = 7^3i. */
mg_delmas_cost mg_delmas_ours(int i, int long_msg);

/* The paper's closed forms, as printed:
 *   which = 0: Proposition 5.17 as stated (57/49, NL/8);
 *   which = 1: the derivation under it in section 5.2.2 (37/49, N/6);
 *   which = 2: Proposition 6.4 (22/49, 19*7/7^(2i), NL/6).
 * g_alpha and g_delta: 4i, 12/9 D (5i, 13/9 D). */
mg_delmas_cost mg_delmas_paper(int i, int which);

/* Proposition 4.7 (Heydemann, Meyer, Sotteau): arc-forwarding index of
 * TM(n)^k, n^(k-1)/2 * floor(n^2/4). */
double mg_delmas_arc_forwarding(uint64_t n, int k);

/* Proposition 4.5: the largest total gossip load of an arc for a protocol of
 * g rounds on a digraph of order N and degree Delta (t0 <= g <= 2 t0). */
double mg_delmas_tgl_max(double N, int Delta, int g);

/* Propositions 4.4 + 4.5 solved exactly: the least g >= t0 with
 * TGL_max(g) >= pi (or 2 t0 + 1 when none <= 2 t0 has). Valid bound on
 * rounds for any digraph of order N, degree Delta, forwarding index pi. */
int mg_delmas_rounds_lb(double N, int Delta, double pi);

/* Theorem 4.6 with its O() term made explicit: 2t0 - g <= t0 for g >= t0,
 * so g >= t0 + log(pi/N) - log(2/Delta + t0) (logs base Delta+1). */
double mg_delmas_thm46(double N, int Delta, double pi);

/* Corollary 4.8 without its O(log log n) term: (k+1) log_{2k+1} n. Not a
 * valid bound by itself (the dropped term is unspecified). */
double mg_delmas_cor48(uint64_t n, int k);

/* Remark 6.5 (Fraigniaud's store-and-forward protocol, simulated with
 * dipaths of length 1): k floor(p/2) rounds of alpha + delta and
 * (N - 1)/(2k) L of flow on TM(p)^k. */
mg_delmas_cost mg_delmas_saf(uint64_t p, int k);

#endif

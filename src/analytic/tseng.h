/* Closed forms of Tseng, Ni, Sheu, "Toward Optimal Complete Exchange on Wormhole-Routed Tori" (IEEE TC 1999). A cost is
 * a number of start-ups (x t_s) and a number of blocks transmitted on the critical path (x b*t_x); mg_tseng_price turns
 * it into time. */
#ifndef MG_ANALYTIC_TSENG_H
#define MG_ANALYTIC_TSENG_H

typedef struct mg_tseng_cost {
  double startups; /* x t_s */
  double blocks;   /* x b * t_x */
} mg_tseng_cost;

static inline double mg_tseng_price(mg_tseng_cost c, double ts, double b_tx) {
  return c.startups * ts + c.blocks * b_tx;
}

/* Lemma 2 (= Lemma 5): blocks of GP_l^+ (SP_l^+), 0 <= l <= d-3, d >= 3. */
double mg_tseng_lemma2_blocks(int d, int l);
/* Lemma 3: blocks of GP_{d-2}^+, d >= 3. */
double mg_tseng_lemma3_blocks(int d);
/* Lemma 4: blocks of SP_{d-2}^+ (one). */
double mg_tseng_lemma4_blocks(int d);
/* Corollary 1: blocks of GP_l^+ = SP_l^+ with the max resolved. */
double mg_tseng_cor1_blocks(int d, int l);
/* Lemma 6: all positive phases on a ring of 2^d, d >= 3 (the printed
 * closed form). */
mg_tseng_cost mg_tseng_lemma6(int d);
/* Lemma 6 as the sum of Lemmas 2-5 (its proof). */
mg_tseng_cost mg_tseng_lemma6_sum(int d);
/* Theorem 1: T_1D(d, b) for one block unit b = 1, d >= 3. */
mg_tseng_cost mg_tseng_thm1(int d);
/* Lemma 7: T1 on 2^d x 2^d: 2 T_1D(d, 2^d b). */
mg_tseng_cost mg_tseng_lemma7(int d);
/* C1 on 2^d x 2^d x 2^d: 3 T_1D(d, 2^{2d} b) (section 4). */
mg_tseng_cost mg_tseng_c1(int d);
/* Theorem 2: T4 on 2^d x 2^d, d >= 4. */
mg_tseng_cost mg_tseng_thm2(int d);
/* Theorem 3: C64 on 2^d x 2^d x 2^d, d >= 5. */
mg_tseng_cost mg_tseng_thm3(int d);
/* Table 3 (2D) and Table 4 (3D) rows as printed; names "T-2D1", "T-2D2",
 * "DP-2D", "T4", "T-3D1", "T-3D2", "DP-3D", "C64". Returns 0 for an
 * unknown name or a d outside the row's range. */
int mg_tseng_table(const char *algo, int d, mg_tseng_cost *out);
/* Lemma 8: start-up bound lg(n^k) and transmission bound n^{k+1}/8 on an
 * n^k torus (k = 2 or 3), n = 2^d. */
mg_tseng_cost mg_tseng_lemma8(int k, int d);
/* Section 7: global barriers (2d-5) and local null-message synchronisations
 * (2d-5 per node pair chain) the positive tree needs on a ring of 2^d. */
int mg_tseng_barriers(int d);

#endif

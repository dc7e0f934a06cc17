/* Closed forms of Tseng, Ni, Sheu 1999: see tseng.h. Every figure is
 * in blocks (b = 1); multiply by b*t_x. */
#include "tseng.h"

#include <math.h>
#include <string.h>

static double p2(int e) { return ldexp(1.0, e); }

/* Lemma 2, eq. (1): max of the Case 1 and Case 2 message sizes. */
double mg_tseng_lemma2_blocks(int d, int l) {
  double c1 = p2(d + l - 1) - 5 * p2(2 * l - 1) + 3 * p2(l - 1);
  double c2 = l == 0 ? 2 : 7 * p2(2 * l - 2); /* proof: "as for l = 0, exactly two blocks" */
  return c1 > c2 ? c1 : c2;
}

/* Lemma 3. */
double mg_tseng_lemma3_blocks(int d) { return p2(2 * d - 6) + 3 * p2(d - 3); }

/* Lemma 4. */
double mg_tseng_lemma4_blocks(int d) {
  (void)d;
  return 1;
}

/* Corollary 1. */
double mg_tseng_cor1_blocks(int d, int l) {
  if (l <= d - 4) return p2(d + l - 1) - 5 * p2(2 * l - 1) + 3 * p2(l - 1);
  return d <= 5 ? 3 * p2(2 * d - 7) + 3 * p2(d - 4) : 7 * p2(2 * d - 8);
}

/* Lemma 6 as printed. */
mg_tseng_cost mg_tseng_lemma6(int d) {
  mg_tseng_cost c = {2.0 * d - 2, 0};
  if (d <= 5)
    c.blocks = (1.0 / 3) * (31.0 / 32) * p2(2 * d - 1) + p2(d - 3) - 1.0 / 3;
  else
    c.blocks = (1.0 / 3) * (65.0 / 64) * p2(2 * d - 1) - p2(d - 2) - 1.0 / 3;
  c.blocks = nearbyint(c.blocks); /* an integer; the thirds only round off */
  return c;
}

/* Lemma 6 from its proof: the sum of Lemmas 2-5 over the 2d-2 phases. */
mg_tseng_cost mg_tseng_lemma6_sum(int d) {
  mg_tseng_cost c = {2.0 * d - 2, 0};
  for (int l = 0; l <= d - 3; l++)
    c.blocks += 2 * mg_tseng_lemma2_blocks(d, l);
  c.blocks += mg_tseng_lemma3_blocks(d) + mg_tseng_lemma4_blocks(d);
  return c;
}

/* Theorem 1: the overlapped + and - trees add 3 blocks (d = 3) or 2. */
mg_tseng_cost mg_tseng_thm1(int d) {
  mg_tseng_cost c = mg_tseng_lemma6(d);
  c.blocks += d == 3 ? 3 : 2;
  return c;
}

/* Lemma 7: X-stage and Y-stage, each a ring exchange of 2^d-block units. */
mg_tseng_cost mg_tseng_lemma7(int d) {
  mg_tseng_cost r = mg_tseng_thm1(d), c = {2 * r.startups, 2 * p2(d) * r.blocks};
  return c;
}

/* Section 4: C1 = three stages of T_1D(d, n^2 b). */
mg_tseng_cost mg_tseng_c1(int d) {
  mg_tseng_cost r = mg_tseng_thm1(d), c = {3 * r.startups, 3 * p2(2 * d) * r.blocks};
  return c;
}

/* Theorem 2: 2 t_s + 2^{2d} b t_x + T_2D,T1(d-1, 4b). */
mg_tseng_cost mg_tseng_thm2(int d) {
  mg_tseng_cost t1 = mg_tseng_lemma7(d - 1), c = {2 + t1.startups, p2(2 * d) + 4 * t1.blocks};
  return c;
}

/* Theorem 3: 9 t_s + 9 2^{3d-1} b t_x + 4 T_1D(d-2, 64 2^{2(d-2)} b). */
mg_tseng_cost mg_tseng_thm3(int d) {
  mg_tseng_cost r = mg_tseng_thm1(d - 2),
                c = {9 + 4 * r.startups, 9 * p2(3 * d - 1) + 4 * 64 * p2(2 * (d - 2)) * r.blocks};
  return c;
}

int mg_tseng_table(const char *algo, int d, mg_tseng_cost *out) {
  double D = d;
  if (!strcmp(algo, "T-2D1") && d >= 4) {
    out->startups = 3 * (D - 1);
    out->blocks = 9 * p2(3 * d - 4) + (D * D - 5 * D + 3) * p2(2 * d - 1);
  } else if (!strcmp(algo, "T-2D2") && d >= 4) {
    out->startups = 3 * p2(d - 2);
    out->blocks = 3 * p2(3 * (d - 1));
  } else if (!strcmp(algo, "DP-2D") && d >= 1) {
    out->startups = p2(d - 1) + 2;
    out->blocks = p2(3 * d - 2) + p2(2 * d);
  } else if (!strcmp(algo, "T4") && d >= 4) {
    out->startups = 4 * D - 6;
    if (d == 4)
      out->blocks = (1.0 / 3) * (31.0 / 32) * p2(3 * d - 1) + 5 * p2(2 * d - 2) + (1.0 / 3) * p2(d + 2);
    else if (d <= 6)
      out->blocks = (1.0 / 3) * (31.0 / 32) * p2(3 * d - 1) + 5 * p2(2 * d - 2) + (5.0 / 3) * p2(d + 2);
    else
      out->blocks = (1.0 / 3) * (65.0 / 64) * p2(3 * d - 1) + p2(2 * d - 1) + (5.0 / 3) * p2(d + 2);
  } else if (!strcmp(algo, "T-3D1") && d >= 3) {
    out->startups = 4 * D - 2;
    out->blocks = 5 * p2(4 * d - 2) + (D * D - 3 * D - 2) * p2(3 * d - 1);
  } else if (!strcmp(algo, "T-3D2") && d >= 4) {
    out->startups = 3 * p2(d - 2) + D;
    out->blocks = 3 * p2(4 * d - 3) + D * p2(3 * d - 1);
  } else if (!strcmp(algo, "DP-3D") && d >= 1) {
    out->startups = p2(d - 1) + 5;
    out->blocks = p2(4 * d - 2) + 5 * p2(3 * d - 1);
  } else if (!strcmp(algo, "C64") && d >= 5) {
    out->startups = 8 * D - 25;
    if (d == 5)
      out->blocks = (1.0 / 3) * (31.0 / 32) * p2(4 * d - 1) + 5 * p2(3 * d) + (1.0 / 3) * p2(2 * d + 7);
    else if (d <= 7)
      out->blocks = (1.0 / 3) * (31.0 / 32) * p2(4 * d - 1) + 5 * p2(3 * d) + (5.0 / 3) * p2(2 * d + 4);
    else
      out->blocks = (1.0 / 3) * (65.0 / 64) * p2(4 * d - 1) + 7 * p2(3 * d - 1) + (5.0 / 3) * p2(2 * d + 4);
  } else {
    return 0;
  }
  return 1;
}

/* Lemma 8. */
mg_tseng_cost mg_tseng_lemma8(int k, int d) {
  mg_tseng_cost c = {(double)k * d, p2((k + 1) * d - 3)};
  return c;
}

/* Section 7.1: 2d-3 phase boundaries, of which GP_{d-2} -> SP_{d-2} and
 * SP_1 -> SP_0 synchronise themselves. */
int mg_tseng_barriers(int d) { return 2 * d - 5; }

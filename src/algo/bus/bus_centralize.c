/*
 * bus-centralize — algorithm CENTRALIZE of Fujita (section 5.2, Theorem
 * 7; the unbounded-packet algorithm of its reference [3]) on an n x n
 * mesh-bus computer.
 *
 * Phase 1: (i, j) with i + j even and i != j sends t(i, j) on R_i to the
 *   diagonal node (i, i); with i + j odd it sends on C_j to (j, j). A bus
 *   has at most ceil(n/2) senders (floor(n/2) when n is even; for odd n the
 *   odd columns have ceil(n/2) odd nodes, one more than the proof's
 *   floor(n/2) — docs/paper-notes.md).
 * Phase 2: U = the diagonal, in order. While |U| > 1, pair x_1 with x_2,
 *   x_3 with x_4, ...: for a pair ((a,b), (c,d)), (a,b) sends all it holds
 *   on R_a and (c,d) all it holds on C_d, to (a,d), which joins the next U.
 *   The nodes of U share no bus, so the pairs run in parallel; a set longer
 *   than ell takes ceil(size/ell) steps (the level lasts as long as its
 *   longest set). When |U| is odd the last node is carried to the next U
 *   (the paper's Step 5 would drop it — docs/paper-notes.md).
 * Phase 3: the last node u = (a, d) broadcasts all n^2 tokens, pipelined:
 *   at step s it sends chunk s on R_a while every node (a, l) forwards
 *   chunk s-1 on C_l (u itself on C_d): ceil(n^2/ell) + 1 steps.
 *
 * Steps: phase 1 + sum over the ceil(log2 n) levels of the longest set's
 *   messages + ceil(n^2/ell) + 1; with ell >= n^2, floor(n/2) +
 *   ceil(log2 n) + 2 for even n (the figure of [3] quoted in section 1),
 *   one more for odd n. mg_fujita_centralize_steps recounts it.
 *   Cost: steps * t_s. Theorem 7 states n/2 + O(log n) for ell = Theta(n^2).
 * Restrictions: gossip on meshbus:N, any N >= 2 and any ell.
 *
 * Trace, meshbus:4, unbounded ell: steps 1-2: (0,2) on R_0, (1,0) and
 *   (3,0) on C_0, ...; step 3: (0,0) on R_0 and (1,1) on C_1 to (0,1),
 *   (2,2) on R_2 and (3,3) on C_3 to (2,3); step 4: (0,1) on R_0 and
 *   (2,3) on C_3 to (0,3); step 5: (0,3) on R_0; step 6: (0,l) on C_l.
 */
#include "../algo_internal.h"
#include "../../analytic/fujita.h"

#include <math.h>
#include <string.h>

/* A member of U: its node and the tokens it holds, tok[off .. off+len). */
typedef struct holder {
  uint32_t node;
  size_t off, len;
} holder;

static mg_status centralize_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  uint64_t ell = pb->model.ell, nn = (uint64_t)n * n;
  mg_bus_sets s;
  mg_bus_phase ph;
  mg_emit e;
  mg_status st;
  holder *u = NULL;
  uint64_t *tok = NULL, *tmp = NULL;
  memset(&e, 0, sizeof e);
  memset(&ph, 0, sizeof ph);
  if ((st = mg_bus_sets_build(n, &s, err)) != MG_OK) return st;
  u = mg_calloc(n, sizeof *u);
  tok = mg_calloc(nn, sizeof *tok);
  tmp = mg_calloc(nn, sizeof *tmp);
  if (!u || !tok || !tmp) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
    goto out;
  }
  MG_CHECK(mg_bus_phase_init(&ph, n, ell, err));
  MG_CHECK(mg_emit_begin(&e, sink, pb, "bus-centralize", ps, 1, 0, (int64_t)mg_fujita_centralize_steps(n, ell), err));
  /* Phase 1: to the diagonal */
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t t = 0; t < s.neven[i]; t++) {
      uint64_t x = s.even[(uint64_t)i * n + t];
      if (x != i + (uint64_t)n * i) MG_CHECK(mg_bus_phase_add(&ph, (uint32_t)x, MG_BUS_ROW, &x, 1, err));
    }
  for (uint32_t j = 0; j < n; j++)
    for (uint32_t t = 0; t < s.nodd[j]; t++) {
      uint64_t x = s.odd[(uint64_t)j * n + t];
      MG_CHECK(mg_bus_phase_add(&ph, (uint32_t)x, MG_BUS_COL, &x, 1, err));
    }
  MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  /* (x, x) now holds the even tokens of row x and the odd ones of column
   * x; the holders' token runs are laid out one after another in tok. */
  size_t used = 0;
  for (uint32_t x = 0; x < n; x++) {
    u[x].node = x + n * x;
    u[x].off = used;
    memcpy(tok + used, s.even + (uint64_t)x * n, s.neven[x] * sizeof *tok);
    used += s.neven[x];
    memcpy(tok + used, s.odd + (uint64_t)x * n, s.nodd[x] * sizeof *tok);
    used += s.nodd[x];
    u[x].len = used - u[x].off;
  }
  /* Phase 2: pair and merge. Pairs are adjacent in tok, so a merged
   * holder's run is the concatenation of the two runs. */
  uint32_t nu = n;
  while (nu > 1) {
    uint32_t nv = 0;
    for (uint32_t k = 0; k + 1 < nu; k += 2) {
      uint32_t a = u[k].node / n, d = u[k + 1].node % n;
      MG_CHECK(mg_bus_phase_add(&ph, u[k].node, MG_BUS_ROW, tok + u[k].off, u[k].len, err));
      MG_CHECK(mg_bus_phase_add(&ph, u[k + 1].node, MG_BUS_COL, tok + u[k + 1].off, u[k + 1].len, err));
      holder h = {.node = d + n * a, .off = u[k].off, .len = u[k].len + u[k + 1].len};
      u[nv++] = h;
    }
    if (nu % 2) u[nv++] = u[nu - 1];
    nu = nv;
    MG_CHECK(mg_bus_phase_emit(&ph, &e, err));
  }
  /* Phase 3: pipelined broadcast from u[0] = (a, d) */
  {
    uint32_t a = u[0].node / n;
    uint64_t chunk = ell == 0 || ell > nn ? nn : ell, K = (nn + chunk - 1) / chunk;
    memcpy(tmp, tok + u[0].off, nn * sizeof *tmp);
    for (uint64_t step = 0; step <= K; step++) {
      if (step < K) {
        uint64_t lo = step * chunk, len = nn - lo < chunk ? nn - lo : chunk;
        mg_transfer tr = mg_xfer_bus(u[0].node, MG_BUS_ROW);
        tr.sel.flags = MG_SEL_LIST;
        tr.sel.list = mg_round_add_list(&e.r, tmp + lo, len);
        tr.sel.list_len = len;
        if (!tr.sel.list) {
          st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a token list");
          goto out;
        }
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
      if (step > 0) {
        uint64_t lo = (step - 1) * chunk, len = nn - lo < chunk ? nn - lo : chunk;
        const uint64_t *list = mg_round_add_list(&e.r, tmp + lo, len);
        if (!list) {
          st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a token list");
          goto out;
        }
        for (uint32_t l = 0; l < n; l++) {
          mg_transfer tr = mg_xfer_bus(l + n * a, MG_BUS_COL);
          tr.sel.flags = MG_SEL_LIST;
          tr.sel.list = list;
          tr.sel.list_len = len;
          MG_CHECK(mg_emit_add(&e, &tr, err));
        }
      }
      MG_CHECK(mg_emit_round(&e, err));
    }
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  mg_bus_phase_free(&ph);
  mg_bus_sets_free(&s);
  free(u);
  free(tok);
  free(tmp);
  return st;
}

/* The figure of [3] for ell >= n^2 (section 1): floor(n/2) +
 * ceil(log2 n) + 2; Theorem 7 gives no constant for smaller ell. */
static mg_status centralize_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  double t7 = mg_fujita_t7(pb->topo.n[0], pb->model.ell);
  if (pb->model.switching != MG_SW_BUS || isnan(t7))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Theorem 7 states n/2 + O(log n) only; a constant is given for ell >= n^2");
  *cost = t7 * pb->model.ts;
  return MG_OK;
}

static const mg_param_desc no_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_bus_centralize = {
    .name = "bus-centralize",
    .problem = MG_GOSSIP,
    .summary = "CENTRALIZE: collect on the diagonal, merge pairwise into one node, broadcast",
    .paper = "Fujita section 5.2, Theorem 7",
    .restrictions = "gossip on meshbus:N, any N >= 2 and any ell",
    .rounding = "an unpaired holder waits a level; sets over ell tokens take several steps; the final broadcast "
                "is pipelined in ceil(n^2/ell) + 1 steps",
    .params = no_params,
    .on_bus = 1,
    .generate = centralize_generate,
    .closed_form = centralize_closed_form,
};

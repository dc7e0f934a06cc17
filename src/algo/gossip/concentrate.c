/*
 * concentrate — Approach 2 of Juurlink, Rao, Sibeyn 1996 (section 4.1, Lemma 5) with the
 * step count of Juurlink, Rao, Sibeyn 1998: recursive concentration by threes, then the
 * reverse dissemination.
 *
 * Levels: the active nodes (at first all) are cut into consecutive groups
 * of three; the middle node of each group receives everything the other
 * two hold. The middles are the next level's active nodes. On a ring the
 * concentration stops when at most three active nodes (bridgeheads) are
 * left; they exchange their data along the two directions of the ring in
 * one step, so that the last concentration and the first dissemination
 * step are one (Juurlink, Rao, Sibeyn 1998: "after log3 n - 1 steps three bridgeheads
 * contain the complete data"). On a line it goes on to a single node.
 * Then each level is undone: every middle sends all data to the other
 * members of its group.
 *
 * Rounds (n = 3^k): ring 2k - 1, line 2k.
 * Cost (n = 3^k, ring): (2k-1)*t_s + ((k-1)*n + (n-1)/2)*l*t_l
 *   + (2n/3 - 1)*t_d: concentration (n/3-1)/2, bridgehead exchange n/3,
 *   k-1 disseminations of n. Juurlink, Rao, Sibeyn 1998 counts (2k-1) start-ups and (k-1)*n
 *   transfer units, dropping the (n-1)/2 of the concentration as a
 *   lower-order term (docs/paper-notes.md).
 * Line (n = 3^k): 2k*t_s + (k*n + (n-1)/2)*l*t_l + (n-1)*t_d.
 * Rounding: any n: groups of three from the left end; a trailing group of
 * one or two nodes concentrates into its first node. A ring stops
 * concentrating at 2 or 3 bridgeheads.
 *
 * Trace, ring:9: round 0: 0->1, 2->1, 3->4, 5->4, 6->7, 8->7 (1 item each);
 *   round 1: 1->4, 4->7, 7->1 (+) and 1->7, 4->1, 7->4 (-) (3 items each);
 *   round 2: 1->0, 1->2, 4->3, 4->5, 7->6, 7->8 (9 items each).
 */
#include "../algo_internal.h"

#include <string.h>

static mg_status conc_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  (void)ps;
  return mg_check_1d_gossip(pb, "concentrate", err);
}

/* One level of the recursion: groups of the active positions. */
typedef struct level {
  uint32_t *act; /* active nodes at this level, ascending */
  uint32_t nact;
} level;

/* The transfers between the members of each group of `lower` and the
 * group's middle (its node in `upper`): inwards (concentration) or outwards
 * (dissemination), every transfer carrying all its sender holds along the
 * group's own stretch of the ring, so groups never share an arc. */
static mg_status emit_level(mg_emit *e, const level *lower, const level *upper, int inwards, mg_err *err) {
  for (uint32_t g = 0; 3 * g < lower->nact; g++) {
    uint32_t size = lower->nact - 3 * g < 3 ? lower->nact - 3 * g : 3, mid = upper->act[g];
    for (uint32_t k = 0; k < size; k++) {
      uint32_t v = lower->act[3 * g + k], src = inwards ? v : mid, dst = inwards ? mid : v;
      if (v == mid) continue;
      mg_transfer tr = mg_xfer_line(src, dst, 0, (int32_t)dst - (int32_t)src);
      mg_status st = mg_emit_add(e, &tr, err);
      if (st != MG_OK) return st;
    }
  }
  return MG_OK;
}

static mg_status conc_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  int wrap = pb->topo.wrap[0];
  uint32_t stop = wrap ? 3 : 1;
  level lv[40];
  int nl = 0;
  mg_status st = MG_OK;
  mg_emit e;
  memset(&e, 0, sizeof e);
  /* build the levels first: level 0 = all nodes */
  lv[0].act = mg_calloc(n, sizeof(uint32_t));
  if (!lv[0].act) return mg_fail(err, MG_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++)
    lv[0].act[i] = i;
  lv[0].nact = n;
  nl = 1;
  while (lv[nl - 1].nact > stop) {
    level *p = &lv[nl - 1], *q = &lv[nl];
    q->nact = (p->nact + 2) / 3;
    q->act = mg_calloc(q->nact, sizeof(uint32_t));
    if (!q->act) {
      st = mg_fail(err, MG_ERR_NOMEM, "out of memory");
      goto out;
    }
    for (uint32_t g = 0; g < q->nact; g++) {
      uint32_t size = p->nact - 3 * g < 3 ? p->nact - 3 * g : 3;
      q->act[g] = p->act[3 * g + (size == 3 ? 1 : 0)];
    }
    nl++;
  }
  int64_t hint = 2 * (nl - 1) + (wrap && lv[nl - 1].nact > 1 ? 1 : 0);
  MG_CHECK(mg_emit_begin(&e, sink, pb, "concentrate", ps, 1, 0, hint, err));
  /* concentration: level j -> j+1 */
  for (int j = 0; j + 1 < nl; j++) {
    MG_CHECK(emit_level(&e, &lv[j], &lv[j + 1], 1, err));
    MG_CHECK(mg_emit_round(&e, err));
  }
  /* ring: the remaining 2 or 3 bridgeheads exchange their data around the
   * ring, each sending rightwards to the next and leftwards to the
   * previous bridgehead (the two directions use disjoint arcs). */
  level *top = &lv[nl - 1];
  if (wrap && top->nact > 1) {
    for (uint32_t a = 0; a < top->nact; a++) {
      uint32_t u = top->act[a], nxt = top->act[(a + 1) % top->nact], prv = top->act[(a + top->nact - 1) % top->nact];
      int32_t right = (int32_t)((nxt + n - u) % n), left = (int32_t)((u + n - prv) % n);
      mg_transfer tr = mg_xfer_line(u, nxt, 0, right);
      MG_CHECK(mg_emit_add(&e, &tr, err));
      if (top->nact == 3) {
        tr = mg_xfer_line(u, prv, 0, -left);
        MG_CHECK(mg_emit_add(&e, &tr, err));
      }
    }
    MG_CHECK(mg_emit_round(&e, err));
  }
  /* dissemination: undo the levels from the top */
  for (int j = nl - 2; j >= 0; j--) {
    MG_CHECK(emit_level(&e, &lv[j], &lv[j + 1], 0, err));
    MG_CHECK(mg_emit_round(&e, err));
  }
  MG_CHECK(mg_emit_end(&e, err));
out:
  mg_emit_free(&e);
  for (int j = 0; j < nl; j++)
    free(lv[j].act);
  return st;
}

static mg_status conc_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  (void)ps;
  const mg_model *m = &pb->model;
  uint32_t n = pb->topo.n[0];
  int k;
  if (!mg_is_pow(n, 3, &k) || k < 1) return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for n = 3^k only");
  if (m->switching != MG_SW_WORMHOLE || m->port != MG_PORT_ALL)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "closed form for all-port wormhole routing only");
  double l = pb->bytes, N = n;
  if (pb->topo.wrap[0])
    *cost = (2.0 * k - 1) * m->ts + ((k - 1) * N + (N - 1) / 2) * l * m->tl + (2 * N / 3 - 1) * m->td;
  else
    *cost = 2.0 * k * m->ts + (k * N + (N - 1) / 2) * l * m->tl + (N - 1) * m->td;
  return MG_OK;
}

static const mg_param_desc conc_params[] = {{NULL, NULL, NULL}};

const mg_algo mg_algo_concentrate = {
    .name = "concentrate",
    .problem = MG_GOSSIP,
    .summary = "Approach 2: concentrate by threes into bridgeheads, then disseminate",
    .paper = "Juurlink, Rao, Sibeyn 1996 section 4.1, Lemma 5; step counts of Juurlink, Rao, Sibeyn 1998",
    .restrictions = "rings and lines, any n >= 2",
    .rounding = "groups of three from the left; a trailing group of 1 or 2 concentrates into its first node; "
                "a ring stops at 2 or 3 bridgeheads",
    .params = conc_params,
    .check = conc_check,
    .generate = conc_generate,
    .closed_form = conc_closed_form,
};

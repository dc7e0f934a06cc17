/*
 * ring — Approach 1 of Juurlink, Rao, Sibeyn 1996 (section 4.1, Lemma 4): every node sends
 * its packet to the left and to the right, and every packet is passed on
 * for floor(n/2) steps.
 *
 * Rounds: floor(n/2) on a ring of n nodes; n-1 on a line (the mesh
 * variant: a packet must travel the whole length).
 * Cost (Lemma 4): floor(n/2) * (t_s + t_d + l*t_l) on a ring,
 *                 (n-1) * (t_s + t_d + l*t_l) on a line.
 * Restrictions: rings and lines, any n >= 2.
 * On an even ring the last step sends rightwards only: the packet from the
 * opposite node would otherwise arrive twice (same cost, half the bytes).
 * half=1 sends it half each way instead (every packet in 2 pieces, piece 0
 * rightwards, piece 1 leftwards): the last step then carries l/2 on both
 * directions of every link, where the paper's carries l on one and nothing
 * on the other. Under a clock where a node's sends leave one CPU overhead
 * apart (LogP) the two halves leave one after the other and each arrives
 * l/2 later: Lemma 4's last term becomes t_s + t_d + l/2 t_l.
 *
 * Trace, ring:5 (node i, step t sends origin i-t+1 right, i+t-1 left):
 *   step 1: 0->1 {0}, 0->4 {0}, 1->2 {1}, 1->0 {1}, ...
 *   step 2: 0->1 {4}, 0->4 {1}, ...          after 2 steps all know all.
 */
#include "../algo_internal.h"

#include <string.h>

/* half=: 0 (the paper's) or 1 (even rings only). */
static mg_status ring_half(const mg_problem_spec *pb, const mg_params *ps, int *half, mg_err *err) {
  const char *v = ps ? mg_params_get(ps, "half") : NULL;
  *half = 0;
  if (!v || !strcmp(v, "0")) return MG_OK;
  if (strcmp(v, "1")) return mg_fail(err, MG_ERR_INVALID, "half=%s: 0 or 1", v);
  if (pb->topo.kind == MG_TOPO_GRID && !pb->topo.wrap[0])
    return mg_fail(err, MG_ERR_UNSUPPORTED, "ring: half=1 needs a ring (a line has no opposite node)");
  if (pb->topo.kind == MG_TOPO_GRID && pb->topo.n[0] % 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "ring: half=1 needs a ring of even length (the opposite node's packet)");
  *half = 1;
  return MG_OK;
}

static mg_status ring_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int half;
  mg_status st = mg_check_1d_gossip(pb, "ring", err);
  return st == MG_OK ? ring_half(pb, ps, &half, err) : st;
}

/* One transfer carrying exactly the packet of `origin`. */
static mg_transfer one_packet(uint32_t src, uint32_t dst, int32_t hops, uint32_t origin) {
  mg_transfer t = mg_xfer_line(src, dst, 0, hops);
  t.sel.flags = MG_SEL_ORIGIN_RANGE;
  t.sel.range_lo = origin;
  t.sel.range_len = 1;
  return t;
}

/* ... or one piece of it (half=1). */
static mg_transfer half_packet(uint32_t src, uint32_t dst, int32_t hops, uint32_t origin, uint32_t piece) {
  mg_transfer t = one_packet(src, dst, hops, origin);
  t.sel.flags |= MG_SEL_PIECE;
  t.sel.piece = piece;
  return t;
}

static mg_status ring_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  int wrap = pb->topo.wrap[0];
  uint32_t steps = wrap ? n / 2 : n - 1;
  int half;
  mg_status hs = ring_half(pb, ps, &half, err);
  if (hs != MG_OK) return hs;
  mg_emit e;
  mg_status st = mg_emit_begin(&e, sink, pb, "ring", ps, half ? 2u : 1u, 0, steps, err);
  for (uint32_t t = 1; st == MG_OK && t <= steps; t++) {
    for (uint32_t i = 0; i < n && st == MG_OK; i++) {
      if (wrap) {
        uint32_t right = (i + 1) % n, left = (i + n - 1) % n;
        if (half && t == steps) {
          /* the opposite node's packet: piece 0 right, piece 1 left */
          mg_transfer tr = half_packet(i, right, 1, (i + n - (t - 1) % n) % n, 0);
          st = mg_emit_add(&e, &tr, err);
          tr = half_packet(i, left, -1, (i + t - 1) % n, 1);
          if (st == MG_OK) st = mg_emit_add(&e, &tr, err);
          continue;
        }
        mg_transfer tr = one_packet(i, right, 1, (i + n - (t - 1) % n) % n);
        st = mg_emit_add(&e, &tr, err);
        if (st == MG_OK && !(n % 2 == 0 && t == steps)) {
          tr = one_packet(i, left, -1, (i + t - 1) % n);
          st = mg_emit_add(&e, &tr, err);
        }
      } else {
        /* on a line, node i forwards rightwards the packet of i-t+1 and
         * leftwards that of i+t-1, while such packets exist */
        if (i + 1 < n && i + 1 >= t) {
          mg_transfer tr = one_packet(i, i + 1, 1, i - (t - 1));
          st = mg_emit_add(&e, &tr, err);
        }
        if (st == MG_OK && i > 0 && i + t - 1 < n) {
          mg_transfer tr = one_packet(i, i - 1, -1, i + t - 1);
          st = mg_emit_add(&e, &tr, err);
        }
      }
    }
    if (st == MG_OK) st = mg_emit_round(&e, err);
  }
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status ring_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int half;
  mg_status hs = ring_half(pb, ps, &half, err);
  if (hs != MG_OK) return hs;
  const mg_model *m = &pb->model;
  if (m->switching == MG_SW_CIRCUIT || m->switching == MG_SW_BUS || m->port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Lemma 4 is stated for all-port wormhole routing");
  uint32_t n = pb->topo.n[0];
  double steps = pb->topo.wrap[0] ? n / 2 : n - 1;
  double per = m->switching == MG_SW_SAF ? m->ts + pb->bytes * m->tl : m->ts + m->td + pb->bytes * m->tl;
  *cost = steps * per;                      /* Lemma 4 */
  if (half) *cost -= pb->bytes / 2 * m->tl; /* the last step carries half a packet each way */
  return MG_OK;
}

static const mg_param_desc ring_params[] = {
    {"half", "0",
     "1: on an even ring the last step sends the opposite node's packet half each way (2 pieces a packet); 0: "
     "whole, rightwards (the paper's)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_ring = {
    .name = "ring",
    .problem = MG_GOSSIP,
    .summary = "Approach 1: pass every packet left and right for floor(n/2) steps",
    .paper = "Juurlink, Rao, Sibeyn 1996 section 4.1, Lemma 4",
    .restrictions = "rings and lines, any n >= 2",
    .rounding = "none needed; an even ring's last step goes rightwards only (half=1: half each way)",
    .params = ring_params,
    .check = ring_check,
    .generate = ring_generate,
    .closed_form = ring_closed_form,
};

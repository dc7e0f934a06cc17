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
 * pipe=1 cuts every packet in 2 pieces and runs each step as two rounds,
 * piece 0 then piece 1 (with half=1 the last step stays one round). Under
 * the sync clock that only adds start-ups; under a clock without barriers
 * (the executor's sync=data) a piece is forwarded as soon as it arrives,
 * so a step's chain of (overhead, transfer) pays l/2 t_l where the whole
 * packet paid l t_l, and the two pieces share each arc: the ring becomes a
 * two-stage pipeline. It pays when the transfer of a packet is long beside
 * the CPU overhead of the extra sends (torus:9x9, dimwise-colored's second
 * phase at 64 KiB on the calibrated SMPI model: 11.41 ms against 11.71).
 * Rounds: 2 floor(n/2) (2 (n-1) on a line; half=1: one less).
 * Cost: each round t_s + t_d + l/2 t_l (store-and-forward: t_s + l/2 t_l),
 * under the sync clock.
 *
 * Trace, ring:5 (node i, step t sends origin i-t+1 right, i+t-1 left):
 *   step 1: 0->1 {0}, 0->4 {0}, 1->2 {1}, 1->0 {1}, ...
 *   step 2: 0->1 {4}, 0->4 {1}, ...          after 2 steps all know all.
 */
#include "../algo_internal.h"

#include <string.h>

/* A 0/1 parameter, spelled exactly so (no auto: each changes the schedule). */
static mg_status ring_flag(const mg_params *ps, const char *name, int *out, mg_err *err) {
  const char *v = ps ? mg_params_get(ps, name) : NULL;
  *out = 0;
  if (!v || !strcmp(v, "0")) return MG_OK;
  if (strcmp(v, "1")) return mg_fail(err, MG_ERR_INVALID, "%s=%s: 0 or 1", name, v);
  *out = 1;
  return MG_OK;
}

/* half=: 0 (the paper's) or 1 (even rings only). */
static mg_status ring_half(const mg_problem_spec *pb, const mg_params *ps, int *half, mg_err *err) {
  mg_status st = ring_flag(ps, "half", half, err);
  if (st != MG_OK || !*half) return st;
  *half = 0;
  if (pb->topo.kind == MG_TOPO_GRID && !pb->topo.wrap[0])
    return mg_fail(err, MG_ERR_UNSUPPORTED, "ring: half=1 needs a ring (a line has no opposite node)");
  if (pb->topo.kind == MG_TOPO_GRID && pb->topo.n[0] % 2)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "ring: half=1 needs a ring of even length (the opposite node's packet)");
  *half = 1;
  return MG_OK;
}

/* Both of ring's parameters, as every entry point reads them. */
static mg_status ring_opts(const mg_problem_spec *pb, const mg_params *ps, int *half, int *pipe, mg_err *err) {
  mg_status st = ring_half(pb, ps, half, err);
  return st == MG_OK ? ring_flag(ps, "pipe", pipe, err) : st;
}

static mg_status ring_check(const mg_problem_spec *pb, const mg_params *ps, mg_err *err) {
  int half, pipe;
  mg_status st = mg_check_1d_gossip(pb, "ring", err);
  return st == MG_OK ? ring_opts(pb, ps, &half, &pipe, err) : st;
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

/* One transfer of step t's packet from i to its neighbour (dir +1 right, -1
 * left): whole (piece < 0) or one piece of it. */
static mg_transfer step_packet(uint32_t i, uint32_t dst, int dir, uint32_t origin, int piece) {
  return piece < 0 ? one_packet(i, dst, dir, origin) : half_packet(i, dst, dir, origin, (uint32_t)piece);
}

/* Step t of Approach 1 as one round: every node passes on the packets that
 * arrived in step t-1, whole (piece < 0) or piece `piece` of each (pipe=1);
 * half_last: an even ring's last step with the opposite packet half each
 * way (half=1). */
static mg_status emit_step(mg_emit *e, uint32_t n, int wrap, uint32_t steps, uint32_t t, int piece, int half_last,
                           mg_err *err) {
  mg_status st = MG_OK;
  for (uint32_t i = 0; i < n && st == MG_OK; i++) {
    mg_transfer tr;
    if (wrap) {
      uint32_t right = (i + 1) % n, left = (i + n - 1) % n;
      if (half_last) {
        /* the opposite node's packet: piece 0 right, piece 1 left */
        tr = half_packet(i, right, 1, (i + n - (t - 1) % n) % n, 0);
        st = mg_emit_add(e, &tr, err);
        tr = half_packet(i, left, -1, (i + t - 1) % n, 1);
        if (st == MG_OK) st = mg_emit_add(e, &tr, err);
        continue;
      }
      tr = step_packet(i, right, 1, (i + n - (t - 1) % n) % n, piece);
      st = mg_emit_add(e, &tr, err);
      if (st == MG_OK && !(n % 2 == 0 && t == steps)) {
        tr = step_packet(i, left, -1, (i + t - 1) % n, piece);
        st = mg_emit_add(e, &tr, err);
      }
    } else {
      /* on a line, node i forwards rightwards the packet of i-t+1 and
       * leftwards that of i+t-1, while such packets exist */
      if (i + 1 < n && i + 1 >= t) {
        tr = step_packet(i, i + 1, 1, i - (t - 1), piece);
        st = mg_emit_add(e, &tr, err);
      }
      if (st == MG_OK && i > 0 && i + t - 1 < n) {
        tr = step_packet(i, i - 1, -1, i + t - 1, piece);
        st = mg_emit_add(e, &tr, err);
      }
    }
  }
  return st == MG_OK ? mg_emit_round(e, err) : st;
}

static mg_status ring_generate(const mg_problem_spec *pb, const mg_params *ps, mg_sink *sink, mg_err *err) {
  uint32_t n = pb->topo.n[0];
  int wrap = pb->topo.wrap[0];
  uint32_t steps = wrap ? n / 2 : n - 1;
  int half, pipe;
  mg_status hs = ring_opts(pb, ps, &half, &pipe, err);
  if (hs != MG_OK) return hs;
  mg_emit e;
  uint32_t rounds = pipe ? 2 * steps - (uint32_t)half : steps;
  mg_status st = mg_emit_begin(&e, sink, pb, "ring", ps, half || pipe ? 2u : 1u, 0, rounds, err);
  for (uint32_t t = 1; st == MG_OK && t <= steps; t++) {
    if (half && t == steps)
      st = emit_step(&e, n, wrap, steps, t, -1, 1, err);
    else if (pipe) /* piece 0, then piece 1: a two-stage pipeline */
      for (int r = 0; r < 2 && st == MG_OK; r++)
        st = emit_step(&e, n, wrap, steps, t, r, 0, err);
    else
      st = emit_step(&e, n, wrap, steps, t, -1, 0, err);
  }
  if (st == MG_OK) st = mg_emit_end(&e, err);
  mg_emit_free(&e);
  return st;
}

static mg_status ring_closed_form(const mg_problem_spec *pb, const mg_params *ps, double *cost, mg_err *err) {
  int half, pipe;
  mg_status hs = ring_opts(pb, ps, &half, &pipe, err);
  if (hs != MG_OK) return hs;
  const mg_model *m = &pb->model;
  if (m->switching == MG_SW_CIRCUIT || m->switching == MG_SW_BUS || m->port == MG_PORT_ONE)
    return mg_fail(err, MG_ERR_UNSUPPORTED, "Lemma 4 is stated for all-port wormhole routing");
  uint32_t n = pb->topo.n[0];
  double steps = pb->topo.wrap[0] ? n / 2 : n - 1;
  double per = m->switching == MG_SW_SAF ? m->ts + pb->bytes * m->tl : m->ts + m->td + pb->bytes * m->tl;
  double half_round = per - pb->bytes / 2 * m->tl; /* a round that carries half a packet */
  if (pipe)                                        /* every step two such rounds (half=1's last step one) */
    *cost = (2 * (steps - half) + half) * half_round;
  else /* Lemma 4; with half=1 the last step carries half a packet each way */
    *cost = (steps - half) * per + half * half_round;
  return MG_OK;
}

static const mg_param_desc ring_params[] = {
    {"half", "0",
     "1: on an even ring the last step sends the opposite node's packet half each way (2 pieces a packet); 0: "
     "whole, rightwards (the paper's)"},
    {"pipe", "0",
     "1: every packet in 2 pieces, each step two rounds (piece 0, then piece 1), so that without round barriers "
     "a piece is passed on while the other still arrives; 0: whole packets (the paper's)"},
    {NULL, NULL, NULL}};

const mg_algo mg_algo_ring = {
    .name = "ring",
    .problem = MG_GOSSIP,
    .summary = "Approach 1: pass every packet left and right for floor(n/2) steps",
    .paper = "Juurlink, Rao, Sibeyn 1996 section 4.1, Lemma 4",
    .restrictions = "rings and lines, any n >= 2",
    .rounding = "none needed; an even ring's last step goes rightwards only (half=1: half each way); pipe=1 cuts "
                "packets in halves",
    .params = ring_params,
    .check = ring_check,
    .generate = ring_generate,
    .closed_form = ring_closed_form,
};

/* Lower bounds. Gossip: the terms of Juurlink, Rao, Sibeyn 1996 Lemma 1 (concentrating all
 * data in one node), generalised to any mesh or torus and to one-port.
 * Exchange: Tseng, Ni, Sheu 1999 Lemma 8 generalised: the blocks that must cross the
 * narrowest cut, over the arcs of that cut; and per-node injection. Each
 * term is a valid bound on its own; the bound is their maximum. */
#include "../analytic/juurlink.h"
#include "../util/internal.h"
#include "../analytic/delmas.h"
#include "../analytic/fujita.h"
#include "../model/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void add(mg_bound *b, const char *name, double v, const char *src, int valid, const char *note) {
  if (b->n == MG_MAX_BOUND_TERMS) return;
  mg_bound_term *t = &b->term[b->n++];
  snprintf(t->name, sizeof t->name, "%s", name);
  snprintf(t->source, sizeof t->source, "%s", src);
  snprintf(t->note, sizeof t->note, "%s", note ? note : "");
  t->value = v;
  t->valid = valid;
  if (valid && v > b->lower_bound) b->lower_bound = v;
}

/* Smallest in-degree over all nodes: min over nodes of the product form
 * is attained at a corner, so compute it directly. */
static int min_in_degree(const mg_topo *t) {
  int deg = 0;
  for (int k = 0; k < t->d; k++)
    deg += t->wrap[k] ? 2 : 1;
  return deg;
}
static int max_in_degree(const mg_topo *t) {
  int deg = 0;
  for (int k = 0; k < t->d; k++)
    deg += (t->wrap[k] || t->n[k] > 2) ? 2 : 1;
  return deg;
}

/* Smallest t with (base)^t >= N. */
static double log_ceil(double N, double base) {
  double t = 0, reach = 1;
  while (reach < N) {
    reach *= base;
    t += 1;
  }
  return t;
}

/* The fastest a byte can cross an arc, as a multiple of 1/tl: the model's
 * bandwidth factors (bwf, SimGrid's smpi/bw-factor) can exceed 1 (the
 * calibrated Paragon model: 1.149 for 5761 .. 9360-byte messages), so the
 * byte terms divide by the largest; 1 below the smallest threshold. */
static double max_rate(const mg_model *m) {
  double f = m->nbwf && m->bwf_at[0] == 0 ? 0 : 1;
  for (int i = 0; i < m->nbwf; i++)
    if (m->bwf[i] > f) f = m->bwf[i];
  /* contention=shared prices a round's arcs at their bytes x tl whatever
   * the factors (a message is only no faster than alone), so there a
   * factor below 1 slows no arc: exchange-allport on torus:4x4 under
   * bwf=0:0.5 costs 80 where dividing by 0.5 claimed 160 */
  if (m->contention == MG_CONT_SHARED && f < 1) f = 1;
  return f;
}

/* Capacity an arc gives per byte delivered, as a multiple of one: with
 * ack=c (contention=fair, SimGrid's network/crosstraffic) a flow also
 * takes c of its share on every arc of its return route, which has at
 * least one arc, so a byte delivered takes 1 + c of the arcs' capacity,
 * and a byte across a cut takes 1 of the cut's arcs one way and c the
 * other (the acknowledgements come back across it). */
static double ack_load(const mg_model *m) { return m->contention == MG_CONT_FAIR && m->ack > 0 ? 1 + m->ack : 1; }

/* Where the best factor holds (bandwidth factors by size, `bwf`): only in
 * messages of fewer than `below` bytes, when every larger message has a
 * factor of at most `above` < best (the calibrated Paragon model: 1.149
 * under 9361 B, at most 1 from 9361 B on); below = infinity when the
 * largest messages have the best factor. Factors as max_rate counts them
 * (under shared none below 1). A message of b bytes weighs at least b
 * tl / factor on an arc it crosses, so with K messages a node at most
 * K below of its bytes weigh tl / best (not K (below - 1): a message of
 * cut pieces may carry 9360.9 bytes); the rest tl / above. */
typedef struct fast_bytes {
  double below, above;
} fast_bytes;

static fast_bytes fast_split(const mg_model *m, double best) {
  fast_bytes fb = {INFINITY, best};
  double above = 0;
  for (int i = m->nbwf - 1; i >= -1; i--) {
    /* interval i: [bwf_at[i], bwf_at[i+1]), factor bwf[i]; i = -1: below
     * the first threshold, factor 1 */
    if (i == -1 && m->nbwf && m->bwf_at[0] == 0) break;
    double f = i >= 0 ? m->bwf[i] : 1;
    if (m->contention == MG_CONT_SHARED && f < 1) f = 1;
    if (f >= best) {
      if (i == m->nbwf - 1) return fb; /* the largest messages are as fast */
      fb.below = (double)m->bwf_at[i + 1];
      fb.above = above;
      return fb;
    }
    if (f > above) above = f;
  }
  return fb;
}

/* T >= A + bytes x (seconds of capacity a byte takes, cap arcs' worth at
 * factor F): the bytes leave after A (at least ts + or: every caller's A
 * has them) and cross cap arcs. With fast_split's `below`, only X <=
 * senders K below of them weigh 1/F, K <= (T - ts - or) / o the messages a
 * sender can have arrive by T (its i-th leaves at i o or later); the rest
 * weigh 1/above. T >= A + c_lo bytes - (c_lo - c_hi) X(T) is then solved
 * for its least T (the right side never grows with T, so the root is one),
 * unless X reaches every byte first. Needs o > 0. */
static double bytes_after(const mg_model *m, const fast_bytes *fb, double A, double bytes, double cap, double senders,
                          double F) {
  double c_hi = m->tl * ack_load(m) / (cap * F), v = A + bytes * c_hi;
  if (!isfinite(fb->below) || !(m->o > 0) || !(fb->above > 0)) return v;
  double c_lo = m->tl * ack_load(m) / (cap * fb->above), d = c_lo - c_hi;
  /* a fast message has fewer than `below` bytes: a block cut in pieces
   * makes messages of any size, whole bytes or not */
  double per_s = senders * fb->below / m->o, fixed = m->ts + m->orecv;
  double T = (A + c_lo * bytes + d * per_s * fixed) / (1 + d * per_s);
  return isfinite(T) && per_s * (T - fixed) < bytes && T > v ? T : v;
}

/* One hop's td: store-and-forward prices a message hops * (ts + bytes tl)
 * and charges none. */
static double hop_td(const mg_model *m) { return m->switching == MG_SW_SAF ? 0 : m->td; }

/* Directed arcs of a grid: 2 per node along a wrapping dimension, 2 per
 * pair of neighbours along an open one. */
static double arc_count(const mg_topo *t) {
  double arcs = 0;
  for (int k = 0; k < t->d; k++)
    if (t->n[k] > 1) arcs += t->wrap[k] ? 2.0 * t->N : 2.0 * (t->n[k] - 1) * ((double)t->N / t->n[k]);
  return arcs;
}

/* Rings and lines (Juurlink, Rao, Sibeyn 1996 section 3). Lemma 1 as printed uses N/deg,
 * which counts the receiving node's own packet: (N-1)/deg (the
 * "bandwidth" term above) is the valid form, the printed one is shown for
 * comparison. Lemma 3 / Theorem 1 bound the dissemination time of a
 * restricted model (messages of fixed size r, rightward links only) and
 * reach gossip only through Lemma 2 and constant factors the paper does not
 * state, so its n ln n / ln(n/r) is not a bound for our model: Approach 1
 * on ring:729 at r = 0.5 costs 546 units, below the 660 of this term.
 * It is listed with valid = 0 in its regime r <= (n-1)/e. */
static void ring_bounds(const mg_problem_spec *pb, mg_bound *b) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  double n = t->N, unit = pb->bytes * m->tl;
  int deg = 2; /* the paper's degree of a linear or circular array */
  char note[96];
  snprintf(note, sizeof note, "paper's N/deg with deg = %d: counts a node's own data; (N-1)/deg is valid", deg);
  add(b, "lemma1-printed", n / deg * unit, "Juurlink, Rao, Sibeyn 1996 Lemma 1 as printed", 0, note);
  if (!(unit > 0) || !(m->ts > 0)) return;
  double r = m->ts / unit, v = mg_jrs_lemma3_units(n, r);
  if (isnan(v)) {
    add(b, "dissemination", 0, "Juurlink, Rao, Sibeyn 1996 Lemma 3 / Theorem 1", 0,
        "not in its regime: needs r <= (n-1)/e");
    return;
  }
  add(b, "dissemination", v * unit, "Juurlink, Rao, Sibeyn 1996 Lemma 3 / Theorem 1", 0,
      "n ln n/ln(n/r), r <= (n-1)/e; restricted model, constant unstated: estimate");
}

/* Delmas, Perennes 1996, all-port circuit switching with arc-disjoint dipaths: rounds
 * from the arc-forwarding index (Propositions 4.4, 4.5, 4.7, Theorem 4.6,
 * Corollary 4.8) on TM(n)^k; g_delta >= D (section 3); Remark 6.5's
 * store-and-forward protocol as a comparison line. */
static void circuit_bounds(const mg_problem_spec *pb, mg_bound *b) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  double N = t->N, D = (double)mg_topo_diameter(t);
  char note[96];
  add(b, "distance", D * m->td, "Delmas, Perennes 1996 section 3: g_delta >= D(G)", 1,
      "switch settings along the diameter");
  int cube = t->kind == MG_TOPO_GRID && mg_topo_is_torus(t) && t->n[0] >= 3;
  for (int k = 1; k < t->d; k++)
    cube = cube && t->n[k] == t->n[0];
  if (!cube) return;
  int Delta = 2 * t->d;
  double pi = mg_delmas_arc_forwarding(t->n[0], t->d);
  int g = mg_delmas_rounds_lb(N, Delta, pi);
  snprintf(note, sizeof note, "least g with TGL_max(g) >= pi = %.6g", pi);
  add(b, "rounds (Prop 4.5)", g * m->ts, "Delmas, Perennes 1996 Props 4.4, 4.5, 4.7", 1, note);
  double th = ceil(mg_delmas_thm46(N, Delta, pi) - 1e-9);
  add(b, "rounds (Thm 4.6)", th * m->ts, "Delmas, Perennes 1996 Thm 4.6, O() term explicit", 1,
      "t0 + log(pi/N) - log(2/Delta + t0), base Delta+1, rounded up");
  add(b, "rounds (Cor 4.8)", mg_delmas_cor48(t->n[0], t->d) * m->ts,
      "Delmas, Perennes 1996 Cor 4.8 without O(loglog n)", 0,
      "(k+1) log_{2k+1} n; the dropped O() term is unspecified");
  mg_delmas_cost f = mg_delmas_saf(t->n[0], t->d);
  snprintf(note, sizeof note, "an upper bound: %g rounds of length 1, flow (N-1)/2k", f.g_alpha);
  add(b, "saf protocol (Rem 6.5)", f.g_alpha * (m->ts + m->td) + f.g_tau * pb->bytes * m->tl,
      "Delmas, Perennes 1996 Remark 6.5 (Fraigniaud)", 0, note);
}

/* LogP's overhead (Culler et al., "LogP: Towards a Realistic Model of
 * Parallel Computation"): a node's messages leave o apart, so the nodes
 * that hold a given piece (gossip) or anything of a given node (exchange)
 * at most double every o; the last of them still takes ts to arrive and or
 * to be read. Holds under every clock (a sync round with k messages a node
 * lasts at least k*o). */
static void overhead_bound(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  if (!(m->o > 0) || m->switching == MG_SW_BUS) return;
  double s = log_ceil(pb->topo.N, 2.0);
  char note[96];
  snprintf(note, sizeof note, "holders at most double per o: %g*o + ts + or", s);
  add(b, "overheads", s * m->o + m->ts + m->orecv, "LogP (Culler et al.): o per message", 1, note);
}

/* Overheads and bandwidth together (gossip). Cut time into windows of o:
 * a node starts at most one send in each (its CPU gives o to each), and a
 * send started in window k carries only bytes that arrived before it,
 * i.e. sent in windows before k. So the bytes carried in windows 0..k-1
 * are at most (2^k - 1) N L (every window at most doubles what the nodes
 * hold: N L at the start), and the other N (N - 2^k) L of the N (N - 1) L
 * the nodes must receive leave no earlier than (k+1) o and cross the arcs
 * after that, each arc at most max_rate/tl bytes a second: T >= (k+1) o +
 * ts + or + N (N - 2^k) L tl a / (arcs max_rate) for every k with 2^k < N,
 * a = ack_load (what the copies' acknowledgements take on their return).
 * k = ceil(log2 N) - 1 is the overhead term above with bytes on top; k = 0
 * the bandwidth term with one o before it. Valid under every clock and
 * contention rule (a message's wire time is at least its bytes at the
 * shared arcs' rate after it leaves, docs/models.md). */
static void overhead_bandwidth_bound(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  const mg_topo *t = &pb->topo;
  if (!(m->o > 0) || m->switching == MG_SW_BUS || t->kind != MG_TOPO_GRID || t->N < 2) return;
  double N = t->N, arcs = arc_count(t), F = max_rate(m), best = 0;
  int bestk = 0;
  if (!(arcs * F > 0)) return;
  fast_bytes fb = fast_split(m, F);
  double held = 1;
  for (int k = 0; held < N; k++, held *= 2) {
    double v = bytes_after(m, &fb, (k + 1) * m->o + m->ts + m->orecv, N * (N - held) * pb->bytes, arcs, N, F);
    if (v > best) best = v, bestk = k;
  }
  char note[96];
  if (isfinite(fb.below))
    snprintf(note, sizeof note, "k = %d: N(N-2^k) L over %g arcs, factor %.4g below %g B", bestk, arcs, F, fb.below);
  else
    snprintf(note, sizeof note, "k = %d: (k+1) o, then N(N-2^k) L over %g arcs", bestk, arcs);
  add(b, "overheads+bandwidth", best, "LogP windows of o, then the arcs' capacity", 1, note);
}

/* The least wire time of one message of at least M bytes: its bytes over
 * its bandwidth factor, times tl. The factor is constant between
 * thresholds, so the least is at M or at a threshold above it. */
static double least_wire(const mg_model *m, double M) {
  double w = mg_model_wire_bytes(m, M);
  for (int i = 0; i < m->nbwf; i++)
    if ((double)m->bwf_at[i] > M && m->bwf[i] > 0) {
      double x = mg_model_wire_bytes(m, (double)m->bwf_at[i]);
      if (x < w) w = x;
    }
  return w * m->tl;
}

/* The last windows (gossip). With the windows of o above, the sends of a
 * piece's byte started in window j are at most the nodes that held it
 * before (what a send carries arrives at least o after it starts, so in a
 * later window): at most 2^j, and the copies made in windows 0..k-1 at
 * most 2^k - 1. If no send starts after window k+w-1, the sends of windows
 * k..k+w-1, at most w N (one a node a window), make the other N (N - 2^k)
 * L bytes of copies, so one of them carries at least (N - 2^k) L / w
 * bytes (in bytes, not pieces: a schedule may split a piece, as
 * torus-doubling:ports=2 does on ring:2): it starts no earlier than k o,
 * then pays its overhead, ts, one hop's td (none under store-and-forward),
 * the least wire time of its bytes and or. Otherwise a send that makes a
 * copy starts at (k+w) o or later and ends no earlier than (k+w+1) o + ts
 * + td + or (its bytes may be few). T >= the smaller, for every k with
 * 2^k < N and w >= 1. On 8x8 at 1 KiB under the calibrated Paragon model
 * (k = 5, w = 1): min(7o, 6o + 269 us for a 32-KiB message at SMPI's
 * factor 0.74) = 1.750 ms, where the windows-and-arcs term above gives
 * 1.543. */
static void last_window_bound(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  const mg_topo *t = &pb->topo;
  if (!(m->o > 0) || m->switching == MG_SW_BUS || t->N < 2) return;
  double N = t->N, L = pb->bytes, c = m->ts + hop_td(m) + m->orecv, best = 0, held = 1;
  int bestk = 0, bestw = 1;
  for (int k = 0; held < N; k++, held *= 2)
    for (int w = 1; w <= 8; w++) {
      double big = least_wire(m, (N - held) / w * L);
      double v = fmin((k + w + 1) * m->o + c, (k + 1) * m->o + c + big);
      if (v > best) best = v, bestk = k, bestw = w;
    }
  char note[96];
  snprintf(note, sizeof note, "k = %d, %d window(s): the copies left for the last sends", bestk, bestw);
  add(b, "overheads, last windows", best, "LogP windows of o: the largest of the last messages", 1, note);
}

/* Binomial trees (exchange, N = 2^s). If some node sends s+1 messages,
 * the last leaves at (s+1) o or later: T >= (s+1) o + ts + td + or.
 * Otherwise no message leaves at (s+1) o or later; in windows [j o, (j+1) o)
 * a node first reached by a message that left in window j forwards from
 * window j+1 on, o apart, so from it at most 2^(s-j) nodes are reached,
 * 2^s in all, which is N. At that equality every node's i-th send leaves in
 * window i (its "slot i"), every source's data spreads along a binomial
 * tree, every node sends exactly s messages,
 * its slot-k message carries every source it reached in slots before k
 * (c_k of them, and c_k averages 2^(k-1)) with the blocks of the 2^(s-k)
 * nodes below its receiver: c_k 2^(s-k) blocks; and the receiver's slot
 * k+1 message forwards some of them, so each message on a path that
 * follows the slots 1, 2, .., s waits for the one before. If every slot
 * is a permutation (each node receives once), c_k = 2^(k-1) everywhere,
 * every message carries N/2 blocks, and a path of s of them takes s o plus
 * s times (ts + td + its wire). If slot k < s is the first that is not,
 * some node v receives two messages of N/2 blocks in it, knows 3 2^(k-1)
 * sources after it and sends at least 3 2^(s-2) blocks in slot k+1; the
 * path through v (back along the permutations, on along v's messages)
 * carries N/2 blocks k times, then at least (3+i) 2^(s-2-i) for i = 0 ..
 * s-k-1 (each receiver knows its sender's sources and its own 2^(k-1)).
 * T >= the least of these, on any network (one hop's td and the least wire
 * time of each message). On the Paragon model at 256 B per block on 64
 * ranks: 6 o + 6 x 43 us = 1.761 ms against 7 o = 1.750: 1.750 ms,
 * whatever the topology. */
static void binomial_chain_bound(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  const mg_topo *t = &pb->topo;
  uint64_t N = t->N;
  if (!(m->o > 0) || m->switching == MG_SW_BUS || N < 2 || (N & (N - 1))) return;
  int s = (int)log_ceil((double)N, 2.0);
  double L = pb->bytes, c = m->ts + hop_td(m);
  double half = least_wire(m, (double)(N / 2) * L);
  double more = (s + 1) * m->o + c + m->orecv, chain = s * half;
  int bestk = s;
  for (int k = 1; k < s; k++) {
    double v = k * half;
    for (int i = 0; i < s - k; i++)
      v += least_wire(m, (3 + i) * ldexp(1, s - 2 - i) * L);
    if (v < chain) chain = v, bestk = k;
  }
  double tree = s * m->o + s * c + m->orecv + chain;
  char note[96];
  if (more <= tree)
    snprintf(note, sizeof note, "%d sends a node: (s+1) o; binomial trees take %.4g", s + 1, tree);
  else if (bestk == s)
    snprintf(note, sizeof note, "binomial trees, every slot a permutation: %d sends of N/2 blocks", s);
  else
    snprintf(note, sizeof note, "binomial trees, slot %d not a permutation: %d sends in sequence", bestk, s);
  add(b, "overheads, binomial trees", fmin(more, tree), "LogP o per message: s sends reach 2^s nodes once", 1, note);
}

static void gossip_bounds(const mg_problem_spec *pb, mg_bound *b) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  double N = t->N, L = pb->bytes;
  char note[96];
  if (m->switching == MG_SW_BUS) {
    /* Fujita section 3; a step costs t_s */
    uint32_t n = t->n[0];
    add(b, "steps", mg_fujita_t1(n) * m->ts, "Fujita Theorem 1 (from its [3])", 1,
        "ceil(n/2)+ceil(log2 n)-1 for unbounded packets; bounded ones are no faster");
    if (m->ell) {
      snprintf(note, sizeof note, "n^2(n+1) token copies over 2n buses, ell = %llu per message",
               (unsigned long long)m->ell);
      add(b, "bandwidth", mg_fujita_t2(n, m->ell) * m->ts, "Fujita Theorem 2 (n^2/2ell + n/2ell)", 1, note);
    } else {
      add(b, "bandwidth", 0, "Fujita Theorem 2 (n^2/2ell + n/2ell)", 0, "no bound: ell unbounded (ell=0)");
    }
    add(b, "fan-in", log_ceil(N, 3.0) * m->ts, "two buses heard per step", 1,
        "a node's knowledge at most triples per step");
    return;
  }
  int dmin = min_in_degree(t), dmax = max_in_degree(t);
  int one = m->port == MG_PORT_ONE;
  double in = one ? 1 : dmin;
  snprintf(note, sizeof note, "(N-1)*L bytes over %s", one ? "one receive per round" : "the least in-degree");
  add(b, "bandwidth", (N - 1) * L / in * m->tl / max_rate(m), "Juurlink, Rao, Sibeyn 1996 Lemma 1 (N*l*t_l/deg)", 1,
      note);
  double base = one ? 2.0 : (double)dmax + 1.0;
  double s = log_ceil(N, base);
  snprintf(note, sizeof note, "information grows at most %gx per round", base);
  if (m->switching == MG_SW_SAF) {
    add(b, "distance", (double)mg_topo_diameter(t) * m->ts, "store-and-forward: D hops, each a start-up", 1,
        "one start-up per hop along the diameter");
  } else if (m->switching == MG_SW_CIRCUIT && !one) {
    add(b, "startups", s * m->ts, "Delmas, Perennes 1996 t0 = ceil(log_{Delta+1} N)", 1, note);
    circuit_bounds(pb, b);
  } else {
    add(b, "startups", s * m->ts,
        one ? "one-port doubling (log2 N)" : "Juurlink, Rao, Sibeyn 1996 Lemma 1 (log N / log(deg+1))", 1, note);
    add(b, "distance", (double)mg_topo_diameter(t) * m->td, "Juurlink, Rao, Sibeyn 1996 Lemma 1 (D*t_d)", 1,
        "the diameter");
  }
  overhead_bound(pb, b);
  overhead_bandwidth_bound(pb, b);
  last_window_bound(pb, b);
  if (t->d == 1 && !one && m->switching != MG_SW_SAF) ring_bounds(pb, b);
  /* Juurlink, Rao, Sibeyn 1996 Corollary 2's "trivial lower bound" d log3 n t_s + n^d/(2d)
   * t'_l, for n^d grids of d >= 2: not valid as a bound. Its start-up term
   * uses base 3 where a node of degree 2d can reach (2d+1)^t nodes in t
   * rounds, and its transfer term charges N/(2d) units where a torus node's
   * 2d in-arcs only force (N-1)/(2d) (the two are added although each is a
   * separate lower bound; their sum exceeds the max, which is what Lemma 1
   * gives). Shown beside the valid terms, never used. */
  if (t->kind == MG_TOPO_GRID && t->d >= 2 && m->switching != MG_SW_SAF) {
    int cube = 1;
    for (int k = 1; k < t->d; k++)
      cube &= t->n[k] == t->n[0];
    if (cube) {
      double n = t->n[0], d = t->d;
      add(b, "trivial (paper)", d * (log(n) / log(3.0)) * m->ts + N * L / (2 * d) * m->tl,
          "Juurlink, Rao, Sibeyn 1996 Corollary 2 proof", 0,
          "sum of a base-3 start-up count and N/(2d); not a valid bound");
    }
  }
}

static void exchange_bounds(const mg_problem_spec *pb, mg_bound *b) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  double N = t->N, B = pb->bytes, best = 0, F = max_rate(m), cut = 0;
  int bestk = 0;
  char note[96];
  fast_bytes fb = fast_split(m, F);
  /* every cut of one dimension into two slabs [0,c) and [c,n); `cut` is
   * the term below (both directions at once: 2 a (N - a) blocks over the
   * cut's 2 x arcs, sent by all N nodes: the fast bytes' count,
   * bytes_after) */
  for (int k = 0; k < t->d; k++) {
    double n = t->n[k], slab = N / n, arcs = t->wrap[k] ? 2 * slab : slab;
    for (uint32_t c = 1; c < t->n[k]; c++) {
      double a = c * slab, rest = N - a;
      double v = a * rest * B / arcs * m->tl / F;
      if (v > best) best = v, bestk = k;
      v = bytes_after(m, &fb, m->o + m->ts + m->orecv, 2 * a * rest * B, 2 * arcs, N, F);
      if (v > cut) cut = v;
    }
  }
  snprintf(note, sizeof note, "narrowest cut across dimension %d", bestk);
  add(b, "bisection", best, "Tseng, Ni, Sheu 1999 Lemma 8, any torus or mesh", 1, note);
  /* No byte leaves before its sender's first overhead (o), the last one
   * arrives ts after it crossed and is read in or; with ack=c the blocks'
   * acknowledgements cross the cut the other way, so each direction of a
   * cut arc carries its blocks and c times the other direction's: the
   * cut's 2 x arcs carry (1 + c) x 2 a (N - a) blocks in all. */
  if (m->o > 0 || ack_load(m) > 1) {
    const char *fast = isfinite(fb.below) && m->o > 0 ? ", fast bytes counted" : "";
    if (ack_load(m) > 1)
      snprintf(note, sizeof note, "o + ts + or, then the cut's blocks x %g (acknowledgements)%s", ack_load(m), fast);
    else
      snprintf(note, sizeof note, "o + ts + or, then the cut's blocks%s", fast);
    add(b, "bisection, overheads", cut, "LogP o, then the narrowest cut", 1, note);
  }
  int one = m->port == MG_PORT_ONE;
  double out = one ? 1 : min_in_degree(t);
  add(b, "injection", (N - 1) * B / out * m->tl / F, "each node sends N-1 blocks", 1,
      one ? "one send per round" : "over the least degree");
  if (one)
    add(b, "startups", log_ceil(N, 2.0) * m->ts, "one-port doubling (log2 N)", 1, "a block must reach N-1 nodes");
  else
    add(b, "startups", log_ceil(N, (double)max_in_degree(t) + 1) * m->ts, "fan-out (log N / log(deg+1))", 1,
        "a node's blocks reach at most (deg+1)^t nodes");
  if (m->switching == MG_SW_SAF)
    add(b, "distance", (double)mg_topo_diameter(t) * m->ts, "store-and-forward: D hops, each a start-up", 1,
        "one start-up per hop along the diameter");
  else
    add(b, "distance", (double)mg_topo_diameter(t) * m->td, "the diameter", 1, "");
  overhead_bound(pb, b);
  binomial_chain_bound(pb, b);
}

/* Delmas, Perennes 1996's round terms count arc-disjoint dipaths: with shared arcs
 * (contention=shared or fair) they are kept for reference but are no bound.
 * The start-up terms stay valid: with shared arcs a node's k messages of a
 * round cost ceil(k/deg) start-ups (src/sim/sim.c, port_rule), so a round
 * of m start-ups multiplies the informed nodes by at most 1 + m*deg <=
 * (deg+1)^m, Lemma 1's growth. The bandwidth and cut terms bound the
 * busiest-arc loads and stay valid. */
/* Marks the valid terms named `name` (a prefix with prefix = 1) as no
 * bound, with the note, and takes the bound again from the others. */
static void drop_terms(mg_bound *b, const char *name, int prefix, const char *note) {
  b->lower_bound = 0;
  for (int i = 0; i < b->n; i++) {
    mg_bound_term *t = &b->term[i];
    if (t->valid && (prefix ? !strncmp(t->name, name, strlen(name)) : !strcmp(t->name, name))) {
      t->valid = 0;
      snprintf(t->note, sizeof t->note, "%s", note);
    }
    if (t->valid && t->value > b->lower_bound) b->lower_bound = t->value;
  }
}

static void shared_arcs(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  if (m->contention == MG_CONT_STRICT || m->port == MG_PORT_ONE || m->switching == MG_SW_BUS ||
      m->switching == MG_SW_SAF)
    return;
  drop_terms(b, "rounds", 1, "not a bound with shared arcs: dipaths need not be arc-disjoint");
  add(b, "one round", m->ts, "at least one start-up", 1, "");
}

/* The start-up terms of the rounds (all-port fan-out, Delmas and
 * Perennes's round counts) count rounds of the synchronous clock, in
 * which a node's k messages of a round cost ceil(k/deg) start-ups and the
 * rounds follow each other. Under timing=async|ranks a node's messages of
 * different rounds overlap on the wire (pairwise exchange on torus:4x4 at
 * 1.19 ts where the fan-out term says 2 ts), so they are kept for
 * reference but are no bound; a message still takes ts to arrive and or
 * to be read. The one-port term stays: a one-port node sends one message
 * at a time across rounds too (src/model/async.c), so the holders at most
 * double per ts. */
static void clock_terms(const mg_problem_spec *pb, mg_bound *b) {
  const mg_model *m = &pb->model;
  if (m->timing == MG_TIMING_SYNC || m->switching == MG_SW_BUS) return;
  char note[96];
  snprintf(note, sizeof note, "rounds of the sync clock: under %s a node's rounds overlap", mg_timing_name(m->timing));
  drop_terms(b, "rounds", 1, note);
  if (m->port != MG_PORT_ONE) drop_terms(b, "startups", 0, note);
  add(b, "one message", m->ts + m->orecv, "a message takes ts and is read in or", 1, "");
}

int mg_bound_finite(const mg_bound *b) {
  int finite = isfinite(b->lower_bound);
  for (int i = 0; i < b->n; i++)
    finite = finite && isfinite(b->term[i].value);
  return finite;
}

mg_status mg_lower_bound(const mg_problem_spec *pb, mg_bound *b, mg_err *err) {
  memset(b, 0, sizeof *b);
  mg_status st = mg_model_validate(&pb->model, &pb->topo, pb->problem, err);
  if (st != MG_OK) return st;
  if (pb->problem == MG_GOSSIP)
    gossip_bounds(pb, b);
  else
    exchange_bounds(pb, b);
  shared_arcs(pb, b);
  clock_terms(pb, b);
  /* as a schedule's cost (sim.c): a bound beyond a double is no figure */
  if (!mg_bound_finite(b))
    return mg_fail(err, MG_ERR_INVALID,
                   "the lower bound overflows a double (%g bytes under this model): give fewer bytes", pb->bytes);
  return MG_OK;
}

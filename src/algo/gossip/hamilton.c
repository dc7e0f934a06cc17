/*
 * Hamiltonian decompositions of tori by square swaps.
 *
 * The torus C_{n0} x ... x C_{n(d-1)} with every side >= 3 is 2d-regular; it
 * has d edge-disjoint Hamiltonian cycles (A. Kotzig, "Every cartesian
 * product of two circuits is decomposable into two Hamiltonian circuits",
 * 1973; T. Foregger, "Hamiltonian decompositions of products of cycles",
 * Discrete Math. 1978, for three; B. Alspach, J.-C. Bermond, D. Sotteau,
 * "Decompositions into cycles I: Hamilton decompositions", 1990). Their
 * proofs are constructive by cases; here one procedure re-derives a
 * decomposition for any shape:
 *
 *  1. Colour every edge by its dimension: colour k is the set of lines
 *     along axis k, a 2-factor of N / n_k cycles.
 *  2. A unit square of the (i, j) plane at v has two edges of colour A
 *     (along i) and two of colour B (along j) when they are untouched;
 *     swapping the colours of its four edges keeps every node at two edges
 *     of each colour. For colour A the swap removes edges p-q and r-s
 *     (p = v, q = v+e_i, r = v+e_j, s = v+e_i+e_j) and adds p-r and q-s:
 *     if p-q and r-s lie on different A-cycles the two merge into one; on
 *     one cycle traversed p->q and r->s in the same sense it stays one
 *     cycle; in opposite senses it splits in two. The same holds for B
 *     with p-r, q-s removed and p-q, r-s added.
 *  3. Greedily apply swaps that split no colour and merge at least one,
 *     scanning the squares in node order, until every colour is a single
 *     cycle. Each accepted swap lowers the total cycle count, so there are
 *     at most sum_k N/n_k - d of them.
 *
 * On an n x n torus the first accepted swaps are the squares on the
 * diagonal (the proof of Kotzig's theorem for squares); on other shapes the
 * scan finds the mixed merges the case analysis of the papers provides.
 * tests/test_multiring.c checks the result (every cycle Hamiltonian, every
 * edge used once) on 2D shapes 3x3 .. 20x20, odd, prime and coprime sides,
 * and on 3D tori.
 *
 * Trace, torus:3x3: rows (colour 0) and columns (colour 1) are 3 + 3
 * cycles; the swap at (0,0) merges rows 0, 1 and columns 0, 1; the swap at
 * (1,1) merges rows 1, 2 and columns 1, 2: two Hamiltonian 9-cycles.
 */
#include "hamilton.h"

#include <string.h>

/* Greedy runs tried before giving up. */
#define HD_ATTEMPTS 64u
/* Scans of the squares per run. */
#define HD_PASSES 400

typedef struct hd_state {
  const mg_topo *t;
  uint32_t N;
  int d;
  uint8_t *col;   /* col[v*d + k]: colour of edge v -- v+e_k */
  uint32_t *cyc;  /* cyc[c*N + v]: cycle id of v in colour c */
  uint32_t *pos;  /* pos[c*N + v]: index of v along its cycle */
  uint32_t *clen; /* clen[c*N + id]: length of cycle id */
  uint32_t ncyc[MG_MAX_DIMS];
} hd_state;

/* The two neighbours of v along edges of colour c. */
static void nbrs(const hd_state *s, uint32_t v, int c, uint32_t out[2]) {
  int k = 0;
  for (int dim = 0; dim < s->d && k < 2; dim++) {
    if (s->col[(uint64_t)v * s->d + dim] == c) out[k++] = mg_topo_step(s->t, v, dim, +1);
    uint32_t u = mg_topo_step(s->t, v, dim, -1);
    if (k < 2 && s->col[(uint64_t)u * s->d + dim] == c) out[k++] = u;
  }
}

/* Recomputes cycle ids and positions of colour c. */
static void relabel(hd_state *s, int c) {
  uint32_t N = s->N, *cyc = s->cyc + (uint64_t)c * N, *pos = s->pos + (uint64_t)c * N;
  uint32_t *clen = s->clen + (uint64_t)c * N, id = 0;
  for (uint32_t v = 0; v < N; v++)
    cyc[v] = UINT32_MAX;
  for (uint32_t v0 = 0; v0 < N; v0++) {
    if (cyc[v0] != UINT32_MAX) continue;
    uint32_t prev = UINT32_MAX, v = v0, i = 0;
    do {
      uint32_t nb[2];
      cyc[v] = id;
      pos[v] = i++;
      nbrs(s, v, c, nb);
      uint32_t next = nb[0] != prev ? nb[0] : nb[1];
      prev = v;
      v = next;
    } while (v != v0);
    clen[id++] = i;
  }
  s->ncyc[c] = id;
}

/* 1 if colour c's cycle through edge a-b runs a -> b. */
static int forward(const hd_state *s, int c, uint32_t a, uint32_t b) {
  const uint32_t *pos = s->pos + (uint64_t)c * s->N;
  uint32_t len = s->clen[(uint64_t)c * s->N + s->cyc[(uint64_t)c * s->N + a]];
  return pos[b] == (pos[a] + 1) % len;
}

/* Change of colour c's cycle count when edges a-b and x-y (traversal
 * senses compared as a->b against x->y) are replaced by a-x and b-y. */
static int delta(const hd_state *s, int c, uint32_t a, uint32_t b, uint32_t x, uint32_t y) {
  const uint32_t *cyc = s->cyc + (uint64_t)c * s->N;
  if (cyc[a] != cyc[x]) return -1;
  return forward(s, c, a, b) == forward(s, c, x, y) ? 0 : 1;
}

static uint64_t xorshift(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* One run from the colouring by dimension; 1 when every colour ended as a
 * single cycle. Attempt 0 is the plain greedy in node order (it succeeds
 * on every n x n torus and most others). Later attempts scan from a random
 * start with a random stride coprime to the N*d*d square slots and also
 * take, one time in four, a neutral swap that merges one colour and splits
 * the other: from some colourings (torus:4x5, say) no swap lowers the
 * count without first rearranging the cycles. */
static int swap_search(hd_state *s, uint32_t attempt, uint64_t *swaps) {
  const mg_topo *t = s->t;
  uint64_t slots = (uint64_t)s->N * (uint64_t)s->d * (uint64_t)s->d, rng = 0x9e3779b97f4a7c15ull + attempt;
  *swaps = 0;
  for (uint32_t v = 0; v < s->N; v++)
    for (int k = 0; k < s->d; k++)
      s->col[(uint64_t)v * s->d + k] = (uint8_t)k;
  for (int c = 0; c < s->d; c++)
    relabel(s, c);
  for (int pass = 0; pass < HD_PASSES; pass++) {
    uint64_t total = 0, start = 0, stride = 1;
    for (int c = 0; c < s->d; c++)
      total += s->ncyc[c];
    if (total == (uint64_t)s->d) return 1;
    if (attempt) {
      start = xorshift(&rng) % slots;
      stride = xorshift(&rng) % slots + 1;
      while (mg_gcd(stride, slots) != 1)
        stride++;
    }
    int progress = 0;
    for (uint64_t n = 0, slot = start; n < slots; n++, slot = (slot + stride) % slots) {
      uint32_t v = (uint32_t)(slot / ((uint64_t)s->d * s->d));
      int i = (int)(slot / s->d % s->d), j = (int)(slot % s->d);
      if (i >= j) continue;
      uint32_t p = v, q = mg_topo_step(t, v, i, +1), r = mg_topo_step(t, v, j, +1);
      uint32_t sq = mg_topo_step(t, q, j, +1);
      uint8_t *f1 = &s->col[(uint64_t)p * s->d + i], *f2 = &s->col[(uint64_t)r * s->d + i];
      uint8_t *g1 = &s->col[(uint64_t)p * s->d + j], *g2 = &s->col[(uint64_t)q * s->d + j];
      int A = *f1, B = *g1;
      if (A == B || *f2 != A || *g2 != B) continue;
      if (s->ncyc[A] == 1 && s->ncyc[B] == 1) continue;
      int dA = delta(s, A, p, q, r, sq), dB = delta(s, B, p, r, q, sq);
      int improving = dA <= 0 && dB <= 0 && dA + dB < 0;
      int neutral = attempt && dA + dB == 0 && (dA != 0) && xorshift(&rng) % 4 == 0;
      if (!improving && !neutral) continue;
      *f1 = *f2 = (uint8_t)B;
      *g1 = *g2 = (uint8_t)A;
      relabel(s, A);
      relabel(s, B);
      (*swaps)++;
      progress = 1;
    }
    if (!progress) return 0;
  }
  return 0;
}

mg_status mg_hamdec_build(const mg_topo *t, mg_hamdec *h, mg_err *err) {
  memset(h, 0, sizeof *h);
  if (t->kind != MG_TOPO_GRID || !mg_topo_is_torus(t))
    return mg_fail(err, MG_ERR_UNSUPPORTED, "a Hamiltonian decomposition needs a torus (every dimension wraps)");
  for (int k = 0; k < t->d; k++)
    if (t->n[k] < 3)
      return mg_fail(err, MG_ERR_UNSUPPORTED,
                     "a Hamiltonian decomposition needs every side >= 3 (side %u has parallel edges)", t->n[k]);
  hd_state s;
  memset(&s, 0, sizeof s);
  s.t = t;
  s.N = t->N;
  s.d = t->d;
  uint64_t dn;
  mg_status st = MG_OK;
  if (!mg_mul_ok(t->N, (uint64_t)t->d, &dn)) return mg_fail(err, MG_ERR_TOO_LARGE, "torus too large");
  s.col = mg_calloc(dn, 1);
  s.cyc = mg_calloc(dn, sizeof(uint32_t));
  s.pos = mg_calloc(dn, sizeof(uint32_t));
  s.clen = mg_calloc(dn, sizeof(uint32_t));
  h->seq = mg_calloc(dn, sizeof(uint32_t));
  h->pos = mg_calloc(dn, sizeof(uint32_t));
  h->dim = mg_calloc(dn, 1);
  h->dir = mg_calloc(dn, 1);
  if (!s.col || !s.cyc || !s.pos || !s.clen || !h->seq || !h->pos || !h->dim || !h->dir) {
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for a Hamiltonian decomposition of %u nodes", t->N);
    goto out;
  }
  for (uint32_t attempt = 0;; attempt++) {
    if (attempt == HD_ATTEMPTS) {
      st = mg_fail(err, MG_ERR_UNSUPPORTED, "no Hamiltonian decomposition found for this torus by square swaps");
      goto out;
    }
    if (swap_search(&s, attempt, &h->swaps)) break;
  }
  /* every colour is one cycle: write each out from node 0 */
  h->N = s.N;
  h->ncyc = s.d;
  for (int c = 0; c < s.d; c++) {
    uint32_t prev = UINT32_MAX, v = 0;
    for (uint32_t i = 0; i < s.N; i++) {
      uint32_t nb[2];
      nbrs(&s, v, c, nb);
      uint32_t next = i == 0 ? nb[0] : (nb[0] != prev ? nb[0] : nb[1]);
      h->seq[(uint64_t)c * s.N + i] = v;
      h->pos[(uint64_t)c * s.N + v] = i;
      for (int k = 0; k < s.d; k++) {
        if (mg_topo_step(t, v, k, +1) == next && s.col[(uint64_t)v * s.d + k] == c) {
          h->dim[(uint64_t)c * s.N + i] = (int8_t)k;
          h->dir[(uint64_t)c * s.N + i] = 1;
        } else if (mg_topo_step(t, v, k, -1) == next && s.col[(uint64_t)next * s.d + k] == c) {
          h->dim[(uint64_t)c * s.N + i] = (int8_t)k;
          h->dir[(uint64_t)c * s.N + i] = -1;
        }
      }
      prev = v;
      v = next;
    }
  }
out:
  free(s.col);
  free(s.cyc);
  free(s.pos);
  free(s.clen);
  if (st != MG_OK) mg_hamdec_free(h);
  return st;
}

void mg_hamdec_free(mg_hamdec *h) {
  free(h->seq);
  free(h->pos);
  free(h->dim);
  free(h->dir);
  memset(h, 0, sizeof *h);
}

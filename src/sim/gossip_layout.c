/* How a sharded gossip state numbers its bits. Item ids are origin*P +
 * piece everywhere outside the simulator. The unsharded state numbers its
 * bits the same way (origin-major). A shard of a state with several pieces
 * on a grid of two or more axes numbers them piece-major instead, and piece
 * p's origins with their axes rotated by its colour c: axis c fastest, c =
 * p mod d, or p / (P/d) when d divides P (a colour of HIGH-DIM-GOS' owns a
 * run of P/d pieces when its phases cut its packets: lift.h).
 *
 * Why: in HIGH-DIM-GOS' (Juurlink, Rao, Sibeyn, "Gossiping on Meshes and
 * Tori", 1996) colour c gossips along axis (f + c) mod d in phase f, so in
 * its last phase every transfer of colour c carries the origins with one
 * coordinate fixed and every other axis whole. Origin-major, that is one
 * run for colour 0 (a row of a 2D torus) but one bit in each row for
 * colour 1 (a column): a shard of 73 rows of a 729 x 729 torus paid 73
 * cache lines of the sender's row and as many of the receiver's for every
 * black transfer, in every shard (docs/distributed.md). In piece c's own
 * numbering the fixed axis is the slowest, so that transfer is one run,
 * and in one shard of ten. A shard keeps a contiguous range of these bits
 * (sim_shard.c), so a shard may keep part of an origin's pieces. */
#include "sim_internal.h"

int mg_layout_rot(const mg_sim *s, uint64_t piece) {
  uint64_t d = (uint64_t)s->info.topo.d, P = s->info.pieces;
  return (int)(P % d == 0 ? piece / (P / d) : piece % d);
}

int mg_layout_wanted(const mg_schedule_info *info) {
  return info->problem == MG_GOSSIP && info->pieces > 1 && info->topo.kind == MG_TOPO_GRID && info->topo.d >= 2;
}

void mg_layout_setup(mg_sim *s) {
  const mg_topo *t = &s->info.topo;
  s->layout = 1;
  for (int r = 0; r < t->d; r++) {
    uint64_t span = 1;
    for (int j = 0; j < t->d; j++) {
      int ax = (j + r) % t->d;
      s->lay_stride[r][ax] = span;
      span *= t->n[ax];
    }
  }
}

uint64_t mg_item_bit(const mg_sim *s, uint64_t origin, uint32_t piece) {
  if (!s->layout) return origin * s->info.pieces + piece;
  const mg_topo *t = &s->info.topo;
  int r = mg_layout_rot(s, piece);
  uint64_t b = 0, o = origin;
  for (int k = 0; k < t->d; k++) {
    b += (o % t->n[k]) * s->lay_stride[r][k];
    o /= t->n[k];
  }
  return (uint64_t)piece * t->N + b;
}

uint64_t mg_id_bit(const mg_sim *s, uint64_t item) {
  return s->layout ? mg_item_bit(s, item / s->info.pieces, (uint32_t)(item % s->info.pieces)) : item;
}

uint64_t mg_bit_item(const mg_sim *s, uint64_t bit) {
  if (!s->layout) return bit;
  const mg_topo *t = &s->info.topo;
  uint64_t piece = bit / t->N, b = bit % t->N, origin = 0;
  int r = mg_layout_rot(s, piece);
  for (int j = 0; j < t->d; j++) {
    int ax = (j + r) % t->d;
    origin += (b % t->n[ax]) * t->stride[ax];
    b /= t->n[ax];
  }
  return origin * s->info.pieces + piece;
}

/*
 * meshgossip: the simulator's item shards (docs/distributed.md).
 *
 * A shard keeps only part of the simulator's item state: gossip, the
 * items of a contiguous block of origins (with several pieces on a grid, a
 * contiguous block of pieces, each piece's origins in its own axis order:
 * src/sim/gossip_layout.c); complete exchange, the blocks
 * of a contiguous block of destinations (the exchange state keeps one
 * list per (holder, destination), so a destination block is
 * self-contained). Every shard sees the whole schedule and checks every
 * rule that does not depend on items (routes, ports, arcs, buses) the same
 * way; what an item decides — which items a transfer carries, whether
 * they are held, complete delivery — is partial, so a round is split into
 * resolve (each shard counts the items it owns in every transfer), a
 * reduction across shards (`reduce`), then price and book with the summed
 * counts. Violations are keyed so that the one every shard agrees on is
 * the one a single simulator names first.
 *
 * A shard is given to the simulator through mg_sim_opts.shard; NULL (the
 * default) is the whole state and today's code path. The MPI
 * implementation (one shard per rank) is in meshgossip_mpi_shard.h; the
 * serial one (every shard in turn in one process) is below.
 */
#ifndef MESHGOSSIP_SHARD_H
#define MESHGOSSIP_SHARD_H

#include "meshgossip.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the exported interface: meshgossip.h */
#endif

/* A violation's key: {round, transfer, position, shard}; at the end of a
 * run {rounds, node, item, shard}; {-1, status, 0, shard} a shard that
 * failed for another reason than a rule (out of memory). INT64_MAX in
 * every field: none. Keys compare lexicographically. */
#define MG_SHARD_KEY_LEN 4

typedef struct mg_shard {
  uint32_t index, count; /* this shard, and how many (count <= nodes) */
  /* Called by every shard once per round (round >= 0) after every
   * transfer was resolved, and once at the end of the run (round -1,
   * n = 0): counts[0..n) (this shard's items per transfer) are replaced
   * by their sums over the shards, key (this shard's first violation of
   * the round) by the least key over the shards. */
  mg_status (*reduce)(void *arg, int64_t round, uint64_t *counts, size_t n, int64_t key[MG_SHARD_KEY_LEN], mg_err *err);
  /* Copies *v from shard `from` to every shard. */
  mg_status (*share)(void *arg, mg_violation *v, uint32_t from, mg_err *err);
  void *arg;
} mg_shard;

/* The serial shards: the same schedule run `count` times in one process,
 * pass k keeping shard k, so that the item state of one pass is 1/count
 * of the whole. A pass adds its per-transfer counts and its first
 * violation to a ledger; the last pass reads the sums, so it prices and
 * reports exactly as one simulator over the whole state (the earlier
 * passes' figures are partial and meant to be discarded). Items must be
 * independent across shards, as they are for every schedule (a shard's
 * items never depend on another shard's), but the schedule must be the
 * same on every pass: a deterministic generator or a file. */
typedef struct mg_shard_serial mg_shard_serial;
mg_status mg_shard_serial_create(uint32_t count, mg_shard_serial **out, mg_err *err);
/* The same over ranks: each of base->count processes (base: its shard among
 * them, e.g. one MPI rank's, meshgossip_mpi_shard.h) runs `passes` passes,
 * pass p keeping shard p * base->count + base->index of passes * count; a
 * round is reduced over the ranks (base->reduce), then over the passes. The
 * ranks run their passes together. NULL base: mg_shard_serial_create. */
mg_status mg_shard_serial_over(const mg_shard *base, uint32_t passes, mg_shard_serial **out, mg_err *err);
/* The shard of the current pass (0 first); valid until _next or _free. */
mg_shard *mg_shard_serial_shard(mg_shard_serial *ss);
/* Moves to the next pass; 0 when every pass has run. */
int mg_shard_serial_next(mg_shard_serial *ss);
/* Is the current pass the last (the one whose report is whole)? */
int mg_shard_serial_last(const mg_shard_serial *ss);
/* Bytes the ledger holds (per-transfer counts of every round). */
uint64_t mg_shard_serial_bytes(const mg_shard_serial *ss);
void mg_shard_serial_free(mg_shard_serial *ss);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif

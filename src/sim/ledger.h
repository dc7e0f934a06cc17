/* One round's per-transfer item counts, coded for the serial shards'
 * ledger (shard_serial.c): as runs of equal counts, or as a dictionary of
 * the round's distinct counts with a packed index per transfer, whichever
 * is smaller. A pass sees only its shard's items, so its counts are often
 * a few values in no long runs: Approach 1-1 on 729 x 729 forwards in a
 * column round one row of origins each way, and in a shard of 73 rows a
 * transfer carries 1458 items or none in short runs (390 thousand runs of
 * 2.1 M transfers): 4.65 MB a round as runs against 0.27 MB as 1-bit
 * indexes. */
#ifndef MG_SIM_LEDGER_H
#define MG_SIM_LEDGER_H

#include "meshgossip.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mg_ledger_round {
  uint64_t *val;  /* runs: the run values; dictionary: the distinct counts, increasing */
  uint32_t *len;  /* runs: the run lengths; NULL for a dictionary */
  uint64_t *idx;  /* dictionary: n indexes of width bits, packed from bit 0; NULL for runs */
  size_t nval;    /* runs or distinct counts */
  size_t n;       /* transfers */
  unsigned width; /* dictionary: 1, 2, 4, 8 or 16 bits an index */
} mg_ledger_round;

/* Scratch for mg_ledger_encode (a hash of the distinct counts); zero it
 * before the first use, mg_ledger_coder_free after the last. */
typedef struct mg_ledger_coder {
  uint64_t *key;
  uint32_t *slot; /* 0 free, else 1 + the index of the value */
  uint64_t *vals; /* the values in the order they came */
  uint32_t *at;   /* each one's slot, to clear them for the next round */
  size_t cap;
} mg_ledger_coder;

/* r := c[0..n), in the smaller coding; on MG_ERR_NOMEM r is unchanged. */
mg_status mg_ledger_encode(mg_ledger_coder *k, mg_ledger_round *r, const uint64_t *c, size_t n, mg_err *err);

/* c[0..n) := the round's counts, zero past its n. */
void mg_ledger_decode(const mg_ledger_round *r, uint64_t *c, size_t n);

/* The bytes r keeps. */
uint64_t mg_ledger_bytes(const mg_ledger_round *r);

void mg_ledger_round_free(mg_ledger_round *r);
void mg_ledger_coder_free(mg_ledger_coder *k);

#endif

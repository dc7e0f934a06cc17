/* Serial shards (meshgossip_shard.h): one process runs the same schedule
 * once per shard, keeping 1/count of the item state at a time. A pass's
 * reduction adds its per-transfer item counts to a ledger (one coded
 * array per round: runs or a dictionary, ledger.h) and keeps the least violation found so far; the last pass reads
 * the ledger's sums, so it prices every transfer with its whole count and
 * names the violation a single simulator would name first. This is how
 * Delmas and Perennes's long protocol on TM(49)^3 ("Circuit-Switched
 * Gossiping in 3-Dimensional Torus Networks"), whose state is over the
 * memory of one machine, runs as one verified simulation.
 *
 * Over ranks (mg_shard_serial_over): M processes each run the passes, pass p
 * of rank r keeping shard p M + r of passes x M; a pass's round first goes
 * through the ranks' own reduction (the sums and least key over the M shards
 * of the pass), then into the ledger, which is the same on every rank. So M
 * cores share the passes while each holds 1/(passes M) of the items. */
#include "meshgossip_shard.h"

#include "../util/internal.h"
#include "ledger.h"

#include <stdio.h>
#include <string.h>

struct mg_shard_serial {
  mg_shard sh;
  const mg_shard *base; /* the ranks' shards (M of them), or NULL */
  uint32_t pass, passes, ranks, rank;
  mg_ledger_round *rounds; /* one round's per-transfer sums each (ledger.h) */
  mg_ledger_coder coder;
  size_t nrounds, caprounds;
  uint64_t *scratch; /* one round's counts, decoded */
  size_t capscratch;
  uint64_t bytes;
  int64_t last[MG_SHARD_KEY_LEN]; /* the key this pass's reduction returned */
  int have;                       /* a violation from an earlier pass */
  int64_t key[MG_SHARD_KEY_LEN];
  mg_violation v;
};

static int key_less(const int64_t *a, const int64_t *b) {
  for (int j = 0; j < MG_SHARD_KEY_LEN; j++)
    if (a[j] != b[j]) return a[j] < b[j];
  return 0;
}

/* The round := c[0..n), coded. */
static mg_status encode(mg_shard_serial *ss, mg_ledger_round *r, const uint64_t *c, size_t n, mg_err *err) {
  uint64_t before = mg_ledger_bytes(r);
  mg_status st = mg_ledger_encode(&ss->coder, r, c, n, err);
  if (st == MG_OK) ss->bytes = ss->bytes - before + mg_ledger_bytes(r);
  return st;
}

/* The ledger has a (so far empty) entry for the round; the reduction
 * sizes the scratch, to the longer of this pass's round and the ledger's. */
static mg_status ledger(mg_shard_serial *ss, int64_t round, mg_err *err) {
  size_t r = (size_t)round;
  if (r >= ss->nrounds) {
    if (!mg_grow((void **)&ss->rounds, &ss->caprounds, r + 1, sizeof *ss->rounds))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the serial shards' ledger");
    memset(ss->rounds + ss->nrounds, 0, (r + 1 - ss->nrounds) * sizeof *ss->rounds);
    ss->nrounds = r + 1;
  }
  return MG_OK;
}

static mg_status serial_reduce(void *arg, int64_t round, uint64_t *counts, size_t n, int64_t *key, mg_err *err) {
  mg_shard_serial *ss = arg;
  int final = mg_shard_serial_last(ss);
  if (ss->base) {
    mg_status st = ss->base->reduce(ss->base->arg, round, counts, n, key, err);
    if (st != MG_OK) return st;
  }
  if (round == -2 || key[0] == -1) return MG_OK; /* the passes run apart: nothing to agree on */
  if (round >= 0) {
    mg_status st = ledger(ss, round, err);
    if (st != MG_OK) return st;
    mg_ledger_round *lr = &ss->rounds[round];
    size_t m = n > lr->n ? n : lr->n;
    if (!mg_grow((void **)&ss->scratch, &ss->capscratch, m ? m : 1, sizeof *ss->scratch))
      return mg_fail(err, MG_ERR_NOMEM, "out of memory for the serial shards' ledger");
    uint64_t *c = ss->scratch;
    mg_ledger_decode(lr, c, m);
    for (size_t i = 0; i < n; i++)
      c[i] += counts[i];
    if ((st = encode(ss, lr, c, m, err)) != MG_OK) return st;
    if (final && n) memcpy(counts, c, n * sizeof *c);
  }
  /* the last pass meets the earlier passes' least violation where it lies:
   * in its round, or (a violation of the end) at the end */
  if (final && ss->have && (round < 0 || ss->key[0] == round) && key_less(ss->key, key))
    memcpy(key, ss->key, sizeof ss->key);
  memcpy(ss->last, key, sizeof ss->last);
  return MG_OK;
}

static mg_status serial_share(void *arg, mg_violation *v, uint32_t from, mg_err *err) {
  mg_shard_serial *ss = arg;
  if (from / ss->ranks != ss->pass) {
    *v = ss->v; /* an earlier pass's */
    return MG_OK;
  }
  if (ss->base) { /* from the rank of this pass that found it */
    mg_status st = ss->base->share(ss->base->arg, v, from % ss->ranks, err);
    if (st != MG_OK) return st;
  }
  if (!ss->have || key_less(ss->last, ss->key)) {
    ss->have = 1;
    memcpy(ss->key, ss->last, sizeof ss->key);
    ss->v = *v;
  }
  return MG_OK;
}

mg_status mg_shard_serial_create(uint32_t count, mg_shard_serial **out, mg_err *err) {
  return mg_shard_serial_over(NULL, count, out, err);
}

mg_status mg_shard_serial_over(const mg_shard *base, uint32_t passes, mg_shard_serial **out, mg_err *err) {
  *out = NULL;
  uint32_t ranks = base ? base->count : 1, rank = base ? base->index : 0;
  if (passes == 0) return mg_fail(err, MG_ERR_INVALID, "serial shards: at least one");
  if (ranks == 0 || rank >= ranks || (base && (!base->reduce || !base->share)))
    return mg_fail(err, MG_ERR_INVALID, "serial shards over ranks: shard %u of %u, or no reduce and share", rank,
                   ranks);
  if ((uint64_t)passes * ranks > UINT32_MAX)
    return mg_fail(err, MG_ERR_TOO_LARGE, "%u passes over %u ranks: over 2^32 shards", passes, ranks);
  mg_shard_serial *ss = calloc(1, sizeof *ss);
  if (!ss) return mg_fail(err, MG_ERR_NOMEM, "cannot allocate the serial shards");
  ss->base = base;
  ss->passes = passes;
  ss->ranks = ranks;
  ss->rank = rank;
  ss->sh.index = rank;
  ss->sh.count = passes * ranks;
  ss->sh.reduce = serial_reduce;
  ss->sh.share = serial_share;
  ss->sh.arg = ss;
  *out = ss;
  return MG_OK;
}

mg_shard *mg_shard_serial_shard(mg_shard_serial *ss) { return &ss->sh; }

int mg_shard_serial_next(mg_shard_serial *ss) {
  if (ss->pass + 1 >= ss->passes) return 0;
  ss->pass++;
  ss->sh.index = ss->pass * ss->ranks + ss->rank;
  return 1;
}

int mg_shard_serial_last(const mg_shard_serial *ss) { return ss->pass + 1 == ss->passes; }

uint64_t mg_shard_serial_bytes(const mg_shard_serial *ss) { return ss->bytes; }

void mg_shard_serial_free(mg_shard_serial *ss) {
  if (!ss) return;
  for (size_t r = 0; r < ss->nrounds; r++)
    mg_ledger_round_free(&ss->rounds[r]);
  free(ss->rounds);
  free(ss->scratch);
  mg_ledger_coder_free(&ss->coder);
  free(ss);
}

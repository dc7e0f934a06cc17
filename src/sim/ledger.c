/* The ledger's round coding (ledger.h): runs, or a dictionary of at most
 * 2^16 distinct counts with 1-, 2-, 4-, 8- or 16-bit indexes (a width that
 * divides 64, so no index straddles a word). */
#include "ledger.h"

#include "../util/internal.h"

#include <stdlib.h>
#include <string.h>

#define LG_MAX_VALS  ((size_t)1 << 16)
#define LG_HASH_BITS 17

static size_t runs_of(const uint64_t *c, size_t n) {
  size_t k = 0, len = 0;
  for (size_t i = 0; i < n; i++) {
    if (i && c[i] == c[i - 1] && len < UINT32_MAX) {
      len++;
      continue;
    }
    k++;
    len = 1;
  }
  return k;
}

static size_t hash_of(uint64_t x) { return (size_t)((x * 0x9E3779B97F4A7C15ull) >> (64 - LG_HASH_BITS)); }

/* The slot of x in the coder's hash, inserting it (the value's index is
 * then nval) unless the hash already holds LG_MAX_VALS values: SIZE_MAX. */
static size_t find(mg_ledger_coder *k, uint64_t x, size_t *nval) {
  size_t h = hash_of(x), mask = k->cap - 1;
  while (k->slot[h] && k->key[h] != x)
    h = (h + 1) & mask;
  if (!k->slot[h]) {
    if (*nval >= LG_MAX_VALS) return SIZE_MAX;
    k->key[h] = x;
    k->vals[*nval] = x;
    k->at[*nval] = (uint32_t)h;
    k->slot[h] = (uint32_t)(*nval + 1);
    (*nval)++;
  }
  return h;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void put(mg_ledger_round *r, mg_ledger_round *n) {
  mg_ledger_round_free(r);
  *r = *n;
}

static mg_status encode_runs(mg_ledger_round *r, const uint64_t *c, size_t n, size_t k, mg_err *err) {
  mg_ledger_round o = {.n = n, .nval = k};
  if (k) { /* an empty round keeps nothing */
    o.val = malloc(k * sizeof *o.val);
    o.len = malloc(k * sizeof *o.len);
  }
  if (k && (!o.val || !o.len)) {
    mg_ledger_round_free(&o);
    return mg_fail(err, MG_ERR_NOMEM, "out of memory for the serial shards' ledger");
  }
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (j && o.val[j - 1] == c[i] && o.len[j - 1] < UINT32_MAX) {
      o.len[j - 1]++;
      continue;
    }
    o.val[j] = c[i];
    o.len[j++] = 1;
  }
  put(r, &o);
  return MG_OK;
}

mg_status mg_ledger_encode(mg_ledger_coder *k, mg_ledger_round *r, const uint64_t *c, size_t n, mg_err *err) {
  size_t runs = runs_of(c, n);
  uint64_t run_bytes = (uint64_t)runs * (sizeof(uint64_t) + sizeof(uint32_t));
  /* a dictionary costs at least a bit a transfer: no need to look */
  if (run_bytes <= n / 8 + 8) return encode_runs(r, c, n, runs, err);
  if (!k->cap) {
    size_t cap = (size_t)1 << LG_HASH_BITS;
    k->key = malloc(cap * sizeof *k->key);
    k->slot = malloc(cap * sizeof *k->slot);
    k->vals = malloc(LG_MAX_VALS * sizeof *k->vals);
    k->at = malloc(LG_MAX_VALS * sizeof *k->at);
    if (!k->key || !k->slot || !k->vals || !k->at) {
      mg_ledger_coder_free(k); /* no dictionary this time: runs still do */
      return encode_runs(r, c, n, runs, err);
    }
    memset(k->slot, 0, cap * sizeof *k->slot);
    k->cap = cap;
  }
  size_t nval = 0;
  mg_status st;
  for (size_t i = 0; i < n; i++)
    if ((!i || c[i] != c[i - 1]) && find(k, c[i], &nval) == SIZE_MAX) {
      st = encode_runs(r, c, n, runs, err);
      goto clear;
    }
  unsigned width = 1;
  while (((size_t)1 << width) < nval)
    width *= 2;
  uint64_t words = ((uint64_t)n * width + 63) / 64;
  if ((uint64_t)nval * sizeof(uint64_t) + words * sizeof(uint64_t) >= run_bytes) {
    st = encode_runs(r, c, n, runs, err);
    goto clear;
  }

  mg_ledger_round o = {.n = n, .nval = nval, .width = width};
  o.val = malloc(nval * sizeof *o.val);
  o.idx = calloc(words ? words : 1, sizeof *o.idx);
  if (!o.val || !o.idx) {
    mg_ledger_round_free(&o);
    st = mg_fail(err, MG_ERR_NOMEM, "out of memory for the serial shards' ledger");
    goto clear;
  }
  memcpy(o.val, k->vals, nval * sizeof *o.val);
  qsort(o.val, nval, sizeof *o.val, cmp_u64);
  for (size_t j = 0; j < nval; j++) /* each value's slot now names its sorted index */
    k->slot[find(k, o.val[j], &nval)] = (uint32_t)j + 1;
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    if (!i || c[i] != c[i - 1]) x = k->slot[find(k, c[i], &nval)] - 1;
    uint64_t bit = (uint64_t)i * width;
    o.idx[bit / 64] |= x << (bit % 64);
  }
  put(r, &o);
  st = MG_OK;
clear: /* the next round starts from an empty hash: clear the slots it used */
  for (size_t j = 0; j < nval; j++)
    k->slot[k->at[j]] = 0;
  return st;
}

void mg_ledger_decode(const mg_ledger_round *r, uint64_t *c, size_t n) {
  size_t at = 0;
  if (r->idx) {
    uint64_t mask = ((uint64_t)1 << r->width) - 1;
    for (; at < n && at < r->n; at++) {
      uint64_t bit = (uint64_t)at * r->width;
      c[at] = r->val[(r->idx[bit / 64] >> (bit % 64)) & mask];
    }
  } else {
    for (size_t i = 0; i < r->nval && at < n; i++)
      for (uint32_t j = 0; j < r->len[i] && at < n; j++)
        c[at++] = r->val[i];
  }
  while (at < n)
    c[at++] = 0;
}

uint64_t mg_ledger_bytes(const mg_ledger_round *r) {
  if (r->idx) return (uint64_t)r->nval * sizeof(uint64_t) + ((uint64_t)r->n * r->width + 63) / 64 * sizeof(uint64_t);
  return (uint64_t)r->nval * (sizeof(uint64_t) + sizeof(uint32_t));
}

void mg_ledger_round_free(mg_ledger_round *r) {
  free(r->val);
  free(r->len);
  free(r->idx);
  memset(r, 0, sizeof *r);
}

void mg_ledger_coder_free(mg_ledger_coder *k) {
  free(k->key);
  free(k->slot);
  free(k->vals);
  free(k->at);
  memset(k, 0, sizeof *k);
}

/* A process-wide memo of the plan searches' results (internal.h, mg_memo_*).
 *
 * Why: a search is deterministic (a fixed seed, its result a function of
 * the problem and the parameters), yet the same one runs again and again in
 * one process. Under SMPI every rank of a job is a context of one process
 * and the executor plans on each: 64 ranks of exchange-moves on torus:8x8
 * searched 64 times the plan one search gives. The CLI's `run` prices the
 * closed form and then generates the schedule, each building the plan. So
 * the first search stores its result under a key that holds everything it
 * read, and the next build with that key copies it.
 *
 * A few entries (the most recently used stay), each at most MEMO_MAX_BYTES:
 * an MPI program that alternates two or three collectives keeps all of them.
 * A mutex guards the table, never held across a search. Out of memory, the
 * result is simply not kept: the memo is an optimisation, never a source of
 * an error. A key whose text did not fit (key->full) is never looked up or
 * stored. */
#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define MEMO_SLOTS     8
#define MEMO_MAX_BYTES (1u << 20)

typedef struct memo_entry {
  char *key;
  size_t nkey;
  unsigned char *val;
  size_t nval;
  uint64_t used; /* the clock at the last use; 0: empty */
} memo_entry;

static memo_entry memo[MEMO_SLOTS];
static uint64_t memo_clock, memo_hits, memo_misses;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static void key_add(mg_memo_key *k, const char *text) {
  size_t len = strlen(text);
  if (k->full || k->n + len + 1 >= sizeof k->s) {
    k->full = 1;
    return;
  }
  memcpy(k->s + k->n, text, len);
  k->n += len;
  k->s[k->n++] = '|';
  k->s[k->n] = 0;
}

void mg_memo_key_init(mg_memo_key *k, const char *tag) {
  k->n = 0;
  k->full = 0;
  k->s[0] = 0;
  key_add(k, tag);
}

void mg_memo_key_u64(mg_memo_key *k, uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  key_add(k, buf);
}

/* The problem in the project's canonical forms (mg_topo_format,
 * mg_model_format: every field that differs from the default, numbers in
 * their shortest round-trip form), so that a field added to the model is
 * in the key with no change here. */
void mg_memo_key_spec(mg_memo_key *k, const mg_problem_spec *pb) {
  char buf[1536], x[32];
  key_add(k, mg_problem_name(pb->problem));
  key_add(k, mg_topo_format(&pb->topo, buf, sizeof buf));
  mg_model_format(&pb->model, buf, sizeof buf);
  if (strlen(buf) + 1 >= sizeof buf) k->full = 1; /* cut short: not the whole model */
  key_add(k, buf);
  key_add(k, mg_fmt_double(pb->bytes, x, sizeof x));
}

static memo_entry *memo_find(const mg_memo_key *k) {
  for (int i = 0; i < MEMO_SLOTS; i++)
    if (memo[i].used && memo[i].nkey == k->n && !memcmp(memo[i].key, k->s, k->n)) return &memo[i];
  return NULL;
}

int mg_memo_get(const mg_memo_key *k, void *val, size_t nval) {
  if (k->full) return 0;
  pthread_mutex_lock(&memo_lock);
  memo_entry *e = memo_find(k);
  int hit = e && e->nval == nval;
  if (hit) {
    memcpy(val, e->val, nval);
    e->used = ++memo_clock;
    memo_hits++;
  } else {
    memo_misses++;
  }
  pthread_mutex_unlock(&memo_lock);
  return hit;
}

void mg_memo_put(const mg_memo_key *k, const void *val, size_t nval) {
  if (k->full || nval > MEMO_MAX_BYTES) return;
  char *key = malloc(k->n + 1);
  unsigned char *copy = malloc(nval + 1);
  if (!key || !copy) {
    free(key);
    free(copy);
    return;
  }
  memcpy(key, k->s, k->n);
  memcpy(copy, val, nval);
  pthread_mutex_lock(&memo_lock);
  memo_entry *e = memo_find(k); /* another thread's search of the same key: replaced, the same bytes */
  if (!e) {
    e = &memo[0];
    for (int i = 1; i < MEMO_SLOTS && e->used; i++)
      if (memo[i].used < e->used) e = &memo[i];
  }
  char *old_key = e->key;
  unsigned char *old_val = e->val;
  *e = (memo_entry){.key = key, .nkey = k->n, .val = copy, .nval = nval, .used = ++memo_clock};
  pthread_mutex_unlock(&memo_lock);
  free(old_key);
  free(old_val);
}

void mg_memo_stats(uint64_t *hits, uint64_t *misses) {
  pthread_mutex_lock(&memo_lock);
  if (hits) *hits = memo_hits;
  if (misses) *misses = memo_misses;
  pthread_mutex_unlock(&memo_lock);
}

void mg_memo_clear(void) {
  pthread_mutex_lock(&memo_lock);
  for (int i = 0; i < MEMO_SLOTS; i++) {
    free(memo[i].key);
    free(memo[i].val);
    memo[i] = (memo_entry){0};
  }
  pthread_mutex_unlock(&memo_lock);
}

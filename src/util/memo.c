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
 * an error. A key that did not fit its words (key->full) is never looked up
 * or stored. */
#include "internal.h"

#include <pthread.h>
#include <string.h>

#define MEMO_SLOTS     8
#define MEMO_MAX_BYTES (1u << 20)

typedef struct memo_entry {
  uint64_t *key;
  size_t nkey;
  unsigned char *val;
  size_t nval;
  uint64_t used; /* the clock at the last use; 0: empty */
} memo_entry;

static memo_entry memo[MEMO_SLOTS];
static uint64_t memo_clock, memo_hits, memo_misses;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

void mg_memo_key_init(mg_memo_key *k, const char *tag) {
  k->n = 0;
  k->full = 0;
  size_t len = strlen(tag);
  mg_memo_key_u64(k, len);
  for (size_t i = 0; i < len; i += 8) {
    uint64_t w = 0;
    memcpy(&w, tag + i, len - i < 8 ? len - i : 8);
    mg_memo_key_u64(k, w);
  }
}

void mg_memo_key_u64(mg_memo_key *k, uint64_t v) {
  if (k->n >= sizeof k->w / sizeof k->w[0]) {
    k->full = 1;
    return;
  }
  k->w[k->n++] = v;
}

void mg_memo_key_f64(mg_memo_key *k, double v) {
  uint64_t w; /* the bits: -0 and 0 differ, which costs a search at most */
  memcpy(&w, &v, sizeof w);
  mg_memo_key_u64(k, w);
}

void mg_memo_key_spec(mg_memo_key *k, const mg_problem_spec *pb) {
  const mg_topo *t = &pb->topo;
  const mg_model *m = &pb->model;
  mg_memo_key_u64(k, (uint64_t)pb->problem);
  mg_memo_key_f64(k, pb->bytes);
  mg_memo_key_u64(k, (uint64_t)t->kind);
  mg_memo_key_u64(k, (uint64_t)t->d);
  for (int i = 0; i < t->d && i < MG_MAX_DIMS; i++) {
    mg_memo_key_u64(k, t->n[i]);
    mg_memo_key_u64(k, (uint64_t)t->wrap[i]);
  }
  mg_memo_key_u64(k, (uint64_t)m->switching);
  mg_memo_key_u64(k, (uint64_t)m->port);
  mg_memo_key_u64(k, (uint64_t)m->contention);
  mg_memo_key_f64(k, m->ts);
  mg_memo_key_f64(k, m->td);
  mg_memo_key_f64(k, m->tl);
  mg_memo_key_u64(k, m->ell);
  mg_memo_key_f64(k, m->o);
  mg_memo_key_f64(k, m->orecv);
  mg_memo_key_u64(k, (uint64_t)m->timing);
  mg_memo_key_u64(k, (uint64_t)m->nbwf);
  for (int i = 0; i < m->nbwf && i < MG_MAX_BWF; i++) {
    mg_memo_key_u64(k, m->bwf_at[i]);
    mg_memo_key_f64(k, m->bwf[i]);
  }
  mg_memo_key_u64(k, (uint64_t)m->share);
  mg_memo_key_u64(k, (uint64_t)m->routes);
  mg_memo_key_u64(k, m->detach);
  mg_memo_key_f64(k, m->ack);
}

static memo_entry *memo_find(const mg_memo_key *k) {
  for (int i = 0; i < MEMO_SLOTS; i++)
    if (memo[i].used && memo[i].nkey == k->n && !memcmp(memo[i].key, k->w, k->n * sizeof k->w[0])) return &memo[i];
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
  uint64_t *key = malloc(k->n * sizeof *key + 1);
  unsigned char *copy = malloc(nval + 1);
  if (!key || !copy) {
    free(key);
    free(copy);
    return;
  }
  memcpy(key, k->w, k->n * sizeof *key);
  memcpy(copy, val, nval);
  pthread_mutex_lock(&memo_lock);
  memo_entry *e = memo_find(k); /* another thread's search of the same key: replaced, the same bytes */
  if (!e) {
    e = &memo[0];
    for (int i = 1; i < MEMO_SLOTS && e->used; i++)
      if (memo[i].used < e->used) e = &memo[i];
  }
  uint64_t *old_key = e->key;
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

/* Internal helpers shared by the library's modules: error reporting and
 * checked size arithmetic. Not part of the public API. */
#ifndef MG_INTERNAL_H
#define MG_INTERNAL_H

#include "meshgossip.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

/* The library is compiled with -fvisibility=hidden (its interface is what
 * include/ declares). The few internal functions libmeshgossip_mpi.a calls
 * are exported from libmeshgossip.so as well, so that the MPI library links
 * against the shared one too; no installed header declares them. */
#define MG_SIBLING __attribute__((visibility("default")))

/* Fills err (if any) with a formatted one-line message; returns st so that
 * callers can write `return mg_fail(err, MG_ERR_INVALID, "...")`. */
MG_SIBLING mg_status mg_fail(mg_err *err, mg_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Jump to the function's single `out:` label when st is an error. */
#define MG_CHECK(expr)                                                                                                 \
  do {                                                                                                                 \
    st = (expr);                                                                                                       \
    if (st != MG_OK) goto out;                                                                                         \
  } while (0)

/* Checked size arithmetic: return 0 on overflow. */
static inline int mg_mul_ok(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_mul_overflow(a, b, r); }
static inline int mg_add_ok(uint64_t a, uint64_t b, uint64_t *r) { return !__builtin_add_overflow(a, b, r); }

/* calloc of n*size with overflow check; NULL on failure. */
MG_SIBLING void *mg_calloc(uint64_t n, uint64_t size);
/* Asks the kernel to back a large block with huge pages (Linux THP in
 * madvise mode): the simulator's state rows are read at random, one TLB
 * miss a row otherwise. A hint only. */
void mg_advise_huge(void *p, uint64_t bytes);
/* Grows *p to hold at least need elements of size; doubles capacity. */
MG_SIBLING int mg_grow(void **p, size_t *cap, size_t need, size_t size);

/* Whether a bound and every term of it are finite: mg_lower_bound refuses
 * one that is not, and the driver tells that refusal from a model without
 * a bound by it. */
int mg_bound_finite(const mg_bound *b);

/* A model's bwf table as "T:F;T:F" (factors in the shortest round-trip
 * form); "" if it has none. The model spec and the CLI's JSON share it. */
char *mg_model_format_bwf(const mg_model *m, char *buf, size_t len);

/* Physical memory in bytes (0 if unknown). */
uint64_t mg_phys_mem(void);

/* Parses a decimal integer / finite double fully; 0 on failure. */
int mg_parse_u64(const char *s, uint64_t *v);
int mg_parse_i64(const char *s, int64_t *v);
/* mg_parse_i64, and only if v written back ("%lld") is s itself: a
 * parameter such as weave's plan=01 is text, not the number 1. */
int mg_parse_i64_exact(const char *s, int64_t *v);
int mg_parse_double(const char *s, double *v);

/* Default dimension-order shortest route from a to b (ties go +); returns
 * the number of segments written into seg (at most d). */
int mg_route_default(const mg_topo *t, uint32_t a, uint32_t b, mg_seg *seg);

/* The route the network takes from a to b under the model's routes= rule
 * (dor: mg_route_default; simgrid: dimension order, ties as
 * mg_ring_offset_simgrid); at most d segments. */
int mg_route_network(const mg_topo *t, mg_routes rule, uint32_t a, uint32_t b, mg_seg *seg);

/* Signed hops from coordinate xa to xb on a ring of n as SimGrid's TORUS
 * cluster routes them, whatever route a schedule names: the shorter way
 * round, a tie (n/2 away) + except from coordinate n/2, where it goes -. */
int32_t mg_ring_offset_simgrid(uint32_t n, uint32_t xa, uint32_t xb);

/* Bit helpers for gossip state. */
static inline uint64_t mg_words(uint64_t bits) { return (bits + 63u) / 64u; }

/* An output file written atomically: to a temporary name beside path,
 * renamed into place by mg_outfile_close(ok=1), removed otherwise, so no
 * partial file is ever left (schedules, exports, pictures); the
 * mode the umask gives a new file. A symbolic link is followed: the file
 * it names is replaced, the link stays. path "-" (or one that names what
 * stdout goes to, /dev/stdout) is stdout, and a path that is no regular
 * file (/dev/null, a FIFO) is written through, never replaced: both through an anonymous temporary file copied
 * out on ok=1 and dropped otherwise, so a failed run writes nothing there
 * either. */
typedef struct mg_outfile {
  FILE *f;
  int is_stdout;  /* mg_outfile_is_stdout(path) */
  int is_special; /* path is no regular file: opened for writing at close */
  char tmp[4096];
  char path[4096];
  int slot; /* its place among the pending temporary files, -1 none */
} mg_outfile;
mg_status mg_outfile_open(mg_outfile *o, const char *path, mg_err *err);
/* 1 when path is "-" or names what standard output goes to. */
int mg_outfile_is_stdout(const char *path);
mg_status mg_outfile_close(mg_outfile *o, int ok, mg_err *err);
/* Removes the temporary files of every output file still open and what
 * mg_pending_add registered (at most MG_OUTFILE_PENDING are known; one
 * beyond that is not). Async-
 * signal-safe: for a program's SIGINT/SIGTERM handler, so that a command
 * killed midway leaves no half-written file beside its target (the
 * library installs no handler of its own). */
#define MG_OUTFILE_PENDING 8
void mg_outfile_discard_pending(void);
/* Registers what mg_outfile_discard_pending takes back (src/util/pending.c):
 * a file (unlinked), a TI directory of `ranks` rank<v>.txt files and
 * traces.txt (emptied and removed), a directory (removed if empty, after
 * the others). Returns the slot for mg_pending_drop, -1 when all are taken
 * or the path is too long (then nothing is taken back). */
enum { MG_PENDING_FILE, MG_PENDING_TI_DIR, MG_PENDING_DIR };
int mg_pending_add(const char *path, int kind, uint32_t ranks);
void mg_pending_drop(int slot);
/* mkstemp(tmpl) and the file registered (slot as mg_pending_add's), with
 * SIGINT, SIGTERM and SIGHUP held off in between; the descriptor or -1. */
int mg_pending_mkstemp(char *tmpl, int *slot);

/* A process-wide memo of deterministic searches' results (src/util/memo.c):
 * a key of text (a tag, then everything the search reads: mg_memo_key_spec
 * adds the problem, topology, model and size in their canonical forms), a
 * value of bytes. mg_memo_get copies a stored value of exactly nval bytes
 * into val and returns 1, else 0; mg_memo_put keeps a copy (silently not,
 * out of memory or above 1 MiB). Thread-safe. mg_memo_stats and
 * mg_memo_clear are for tests. */
typedef struct mg_memo_key {
  char s[2048];
  size_t n;
  int full; /* the text did not fit: never looked up nor stored */
} mg_memo_key;
void mg_memo_key_init(mg_memo_key *k, const char *tag);
void mg_memo_key_u64(mg_memo_key *k, uint64_t v);
void mg_memo_key_spec(mg_memo_key *k, const mg_problem_spec *pb);
int mg_memo_get(const mg_memo_key *k, void *val, size_t nval);
void mg_memo_put(const mg_memo_key *k, const void *val, size_t nval);
void mg_memo_stats(uint64_t *hits, uint64_t *misses);
void mg_memo_clear(void);

#endif

/* Small system facts: clocks, memory, checked allocation, number parsing. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double mg_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t mg_peak_rss(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return (uint64_t)ru.ru_maxrss * 1024u; /* Linux reports KiB */
}

uint64_t mg_phys_mem(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || psz <= 0) return 0;
  return (uint64_t)pages * (uint64_t)psz;
}

void *mg_calloc(uint64_t n, uint64_t size) {
  uint64_t total;
  if (!mg_mul_ok(n, size, &total) || total > (uint64_t)SIZE_MAX) return NULL;
  if (n == 0 || size == 0) return calloc(1, 1);
  return calloc((size_t)n, (size_t)size);
}

void mg_advise_huge(void *p, uint64_t bytes) {
#if defined(MADV_HUGEPAGE)
  /* only the whole 2 MiB pages inside the block; a hint: failure is harmless */
  const uintptr_t huge = (uintptr_t)2 << 20;
  uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
  if (bytes >= 4 * huge && a < e) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

int mg_grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 1;
  size_t nc = *cap ? *cap : 8;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) return 0;
    nc *= 2;
  }
  uint64_t bytes;
  if (!mg_mul_ok(nc, size, &bytes) || bytes > SIZE_MAX) return 0;
  void *q = realloc(*p, (size_t)bytes);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  return 1;
}

int mg_parse_u64(const char *s, uint64_t *v) {
  if (!s || !*s || *s == '-' || *s == '+') return 0;
  for (const char *c = s; *c; c++)
    if (*c < '0' || *c > '9') return 0;
  errno = 0;
  char *end;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end) return 0;
  *v = (uint64_t)x;
  return 1;
}

int mg_parse_i64(const char *s, int64_t *v) {
  if (!s || !*s) return 0;
  const char *p = (*s == '-' || *s == '+') ? s + 1 : s;
  if (!*p) return 0;
  for (const char *c = p; *c; c++)
    if (*c < '0' || *c > '9') return 0;
  errno = 0;
  char *end;
  long long x = strtoll(s, &end, 10);
  if (errno || *end) return 0;
  *v = (int64_t)x;
  return 1;
}

int mg_parse_i64_exact(const char *s, int64_t *v) {
  int64_t x;
  char back[32];
  if (!mg_parse_i64(s, &x)) return 0;
  snprintf(back, sizeof back, "%lld", (long long)x);
  if (strcmp(back, s) != 0) return 0;
  *v = x;
  return 1;
}

int mg_parse_double(const char *s, double *v) {
  if (!s || !*s) return 0;
  /* decimal only: strtod also reads hexadecimal ("0x10" is 16), which no
   * one writes for a time or a size and a typo can produce */
  for (const char *c = s; *c; c++)
    if (*c == 'x' || *c == 'X') return 0;
  errno = 0;
  char *end;
  double x = strtod(s, &end);
  /* ERANGE on underflow still gives a finite value (1e-320 is a subnormal,
   * 1e-400 is 0); overflow is inf, refused */
  if ((errno && errno != ERANGE) || *end || !isfinite(x)) return 0;
  *v = x;
  return 1;
}
